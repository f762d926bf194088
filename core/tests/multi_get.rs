// SPDX-License-Identifier: Apache-2.0
//! `multi_get` against `get`, key by key, on databases whose shape makes the staged lookup
//! (`db/multi_get.rs`) take every path: several level-0 tables and deeper levels, keys the
//! filters rule out, keys found only in a later table, merge operands and deletions spread
//! over memtables and tables, range tombstones, snapshots, a key whose entries span data
//! blocks, data blocks with and without a hash index, two column families, a dropped one
//! and a handle of another database, batches longer than one window, and a block cache
//! too small to hold the blocks (evicting as it goes), a large one, or none; reads with
//! `fill_cache` off.

use std::sync::Arc;

use solistore::cache::LruCache;
use solistore::db::{ColumnFamilyHandle, Db};
use solistore::merge::UInt64AddOperator;
use solistore::options::{ColumnFamilyOptions, DbOptions, ReadOptions, WriteOptions};

fn key(i: u32) -> Vec<u8> {
    format!("key{i:06}").into_bytes()
}

fn cf_options(cache: Option<Arc<LruCache>>) -> ColumnFamilyOptions {
    cf_options_with(cache, None)
}

fn cf_options_with(cache: Option<Arc<LruCache>>, hash_ratio: Option<f64>) -> ColumnFamilyOptions {
    ColumnFamilyOptions {
        data_block_hash_ratio: hash_ratio,
        merge_operator: Some(Arc::new(UInt64AddOperator)),
        bloom_bits_per_key: Some(10.0),
        block_cache: cache,
        block_size: 256,
        write_buffer_size: 64 << 10,
        disable_auto_compactions: true,
        ..ColumnFamilyOptions::default()
    }
}

/// Puts, merges and deletes over `keys` in rounds, each round flushed into a level-0 table
/// of its own, the first rounds compacted down; the last round stays in the memtable.
fn load(db: &Db, cf: &ColumnFamilyHandle, keys: u32, salt: u32) {
    let wo = WriteOptions::default();
    for round in 0..6u32 {
        for i in (0..keys).filter(|i| (i + round) % 3 != 0) {
            let k = key(i);
            match (i + salt) % 7 {
                0 => db.merge(&wo, cf, &k, &u64::from(round + 1).to_le_bytes()),
                1 if round % 2 == 1 => db.delete(&wo, cf, &k),
                _ => db.put(&wo, cf, &k, format!("v{round}-{i}-{salt}").as_bytes()),
            }
            .expect("write");
        }
        if round == 3 {
            db.delete_range(&wo, cf, &key(keys / 2), &key(keys / 2 + 40))
                .expect("delete_range");
        }
        if round < 5 {
            db.flush(cf, true).expect("flush");
        }
        if round == 1 {
            db.compact_range(cf, None, None).expect("compact");
        }
    }
}

fn check_against_get(db: &Db, ro: &ReadOptions, queries: &[(&ColumnFamilyHandle, Vec<u8>)]) {
    let refs: Vec<(&ColumnFamilyHandle, &[u8])> =
        queries.iter().map(|(cf, k)| (*cf, k.as_slice())).collect();
    let got = db.multi_get(ro, &refs);
    assert_eq!(got.len(), queries.len());
    for ((cf, k), m) in queries.iter().zip(got) {
        let g = db.get(ro, cf, k);
        match (&m, &g) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "key {}", String::from_utf8_lossy(k)),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
            _ => panic!(
                "multi_get {m:?} but get {g:?} for {}",
                String::from_utf8_lossy(k)
            ),
        }
    }
}

/// Every key of `0..n` (present, deleted, merged, never written, under the range
/// tombstone), in a shuffled order with repeats, for both families.
fn queries<'a>(
    a: &'a ColumnFamilyHandle,
    b: &'a ColumnFamilyHandle,
    n: u32,
) -> Vec<(&'a ColumnFamilyHandle, Vec<u8>)> {
    let mut out = Vec::new();
    for j in 0..n {
        let i = (j * 7919) % n;
        out.push((if j % 3 == 0 { b } else { a }, key(i)));
        if j % 10 == 0 {
            out.push((a, key(i))); // a repeat
        }
    }
    out
}

fn run(cache: Option<Arc<LruCache>>) {
    run_with(cache, None)
}

fn run_with(cache: Option<Arc<LruCache>>, hash_ratio: Option<f64>) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().to_str().expect("utf-8 path");
    let opts = DbOptions {
        create_if_missing: true,
        ..DbOptions::default()
    };
    let db = Db::open(&opts, cf_options_with(cache.clone(), hash_ratio), path).expect("open");
    let a = db.default_cf();
    let b = db
        .create_column_family(cf_options_with(cache, hash_ratio), "other")
        .expect("create cf");
    let n = 600;
    load(&db, &a, n, 0);
    let snap = db.snapshot();
    load(&db, &b, n, 3);
    db.put(&WriteOptions::default(), &a, &key(5), b"after the snapshot")
        .expect("put");
    let qs = queries(&a, &b, n + 50); // 715 keys: many windows
    for fill_cache in [true, false] {
        let ro = ReadOptions {
            fill_cache,
            ..ReadOptions::default()
        };
        check_against_get(&db, &ro, &qs);
        let at_snapshot = ReadOptions {
            snapshot: Some(snap.sequence()),
            fill_cache,
            ..ReadOptions::default()
        };
        check_against_get(&db, &at_snapshot, &qs);
        let no_tombstones = ReadOptions {
            ignore_range_deletions: true,
            ..ro.clone()
        };
        check_against_get(&db, &no_tombstones, &qs);
    }
    // The shape the test means to cover: several tables, some in deeper levels.
    let files = db.live_files();
    assert!(
        files.iter().filter(|f| f.1 == 0).count() >= 3,
        "level-0 tables"
    );
    assert!(files.iter().any(|f| f.1 > 0), "deeper tables");
    // A dropped family answers as get does, beside live ones in the same batch.
    let c = db
        .create_column_family(cf_options(None), "dropped")
        .expect("create cf");
    db.put(&WriteOptions::default(), &c, b"k", b"v")
        .expect("put");
    db.drop_column_family(&c).expect("drop");
    let mixed = vec![(&a, key(1)), (&c, b"k".to_vec()), (&b, key(2))];
    check_against_get(&db, &ReadOptions::default(), &mixed);
    // A handle of another database is an invalid argument, as get says, and the keys
    // beside it are still answered.
    let other_dir = tempfile::tempdir().expect("tempdir");
    let other = Db::open(
        &opts,
        cf_options(None),
        other_dir.path().to_str().expect("utf-8 path"),
    )
    .expect("open");
    let foreign = other.default_cf();
    let mixed = vec![(&a, key(1)), (&foreign, key(1)), (&b, key(2))];
    check_against_get(&db, &ReadOptions::default(), &mixed);
    let refs: Vec<(&ColumnFamilyHandle, &[u8])> =
        mixed.iter().map(|(cf, k)| (*cf, k.as_slice())).collect();
    let got = db.multi_get(&ReadOptions::default(), &refs);
    let err = got[1].as_ref().expect_err("a foreign handle");
    assert!(
        err.to_string().contains("Invalid column family handle"),
        "{err}"
    );
}

#[test]
fn multi_get_matches_get_with_a_block_cache_too_small_for_the_blocks() {
    run(Some(Arc::new(LruCache::with_capacity(16 << 10))));
}

#[test]
fn multi_get_matches_get_with_a_large_block_cache() {
    run(Some(Arc::new(LruCache::with_capacity(64 << 20))));
}

#[test]
fn multi_get_matches_get_on_blocks_with_a_hash_index() {
    run_with(
        Some(Arc::new(LruCache::with_capacity(64 << 20))),
        Some(0.75),
    );
}

#[test]
fn multi_get_matches_get_without_a_block_cache() {
    run(None);
}

#[test]
fn multi_get_follows_a_key_whose_entries_span_data_blocks() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().to_str().expect("utf-8 path");
    let opts = DbOptions {
        create_if_missing: true,
        ..DbOptions::default()
    };
    let cache = Some(Arc::new(LruCache::with_capacity(1 << 20)));
    let db = Db::open(&opts, cf_options(cache), path).expect("open");
    let cf = db.default_cf();
    let wo = WriteOptions::default();
    // Snapshots keep every operand through the flush: 300 entries of one key, over many
    // 256-byte blocks; the keys around it are plain values.
    db.put(&wo, &cf, b"hot", &7u64.to_le_bytes()).expect("put");
    let mut snaps = Vec::new();
    for i in 0..300u64 {
        db.merge(&wo, &cf, b"hot", &i.to_le_bytes()).expect("merge");
        snaps.push(db.snapshot());
    }
    for i in 0..50 {
        db.put(&wo, &cf, &key(i), b"x").expect("put");
    }
    db.flush(&cf, true).expect("flush");
    let expected = 7 + (0..300u64).sum::<u64>();
    let mut qs = vec![(&cf, b"hot".to_vec())];
    qs.extend((0..50).map(|i| (&cf, key(i))));
    qs.push((&cf, b"hot".to_vec()));
    check_against_get(&db, &ReadOptions::default(), &qs);
    let refs: Vec<(&ColumnFamilyHandle, &[u8])> = qs.iter().map(|(c, k)| (*c, &k[..])).collect();
    let got = db.multi_get(&ReadOptions::default(), &refs);
    let hot = got[0].as_ref().expect("read").as_ref().expect("found");
    assert_eq!(
        u64::from_le_bytes(hot[..8].try_into().expect("8 bytes")),
        expected
    );
    // At an old snapshot, the visible entries start further down the key's run.
    let old = ReadOptions {
        snapshot: Some(snaps[20].sequence()),
        ..ReadOptions::default()
    };
    check_against_get(&db, &old, &qs);
}
