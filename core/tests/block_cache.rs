// SPDX-License-Identifier: Apache-2.0
//! The block cache at the DB level: one `LruCache` shared by two DBs through
//! `ColumnFamilyOptions::block_cache`. Reads of flushed tables fill it, repeated reads hit it,
//! the DBs' tables (which have the same file numbers) never see each other's blocks, and a
//! tiny cache changes nothing but speed. With `cache_index_and_filter_blocks`, only level 0
//! tables' index and filter blocks stay pinned, and only with
//! `pin_l0_filter_and_index_blocks_in_cache`.

use std::sync::Arc;

use solistore::cache::LruCache;
use solistore::db::Db;
use solistore::options::{ColumnFamilyOptions, DbOptions, ReadOptions, WriteOptions};

const KEYS: usize = 2000;

fn key(i: usize) -> Vec<u8> {
    format!("key{i:06}").into_bytes()
}

fn value(db: &str, i: usize) -> Vec<u8> {
    format!("{db}-value-{i}-").repeat(4).into_bytes()
}

fn open(dir: &std::path::Path, cache: &Arc<LruCache>, cache_meta: bool) -> Db {
    open_pinning(dir, cache, cache_meta, true)
}

fn open_pinning(
    dir: &std::path::Path,
    cache: &Arc<LruCache>,
    cache_meta: bool,
    pin_l0: bool,
) -> Db {
    let opts = DbOptions {
        create_if_missing: true,
        ..Default::default()
    };
    let cf = ColumnFamilyOptions {
        block_cache: Some(Arc::clone(cache)),
        cache_index_and_filter_blocks: cache_meta,
        pin_l0_filter_and_index_blocks_in_cache: pin_l0,
        bloom_bits_per_key: Some(10.0),
        ..Default::default()
    };
    Db::open(&opts, cf, dir.to_str().expect("utf-8 path")).expect("open")
}

/// Writes `KEYS` keys with values tagged `name`, flushes them into a table in `dir`.
fn fill(db: &Db, dir: &std::path::Path, name: &str) {
    let wo = WriteOptions::default();
    let cf = db.default_cf();
    for i in 0..KEYS {
        db.put(&wo, &cf, &key(i), &value(name, i)).expect("put");
    }
    db.flush(&cf, true).expect("flush");
    let tables = std::fs::read_dir(dir)
        .expect("list")
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.file_name().to_string_lossy().ends_with(".sst"))
        })
        .count();
    assert_eq!(tables, 1, "one table");
}

fn check_reads(db: &Db, name: &str) {
    let ro = ReadOptions::default();
    let cf = db.default_cf();
    for i in (0..KEYS).step_by(7) {
        assert_eq!(
            db.get(&ro, &cf, &key(i)).expect("get"),
            Some(value(name, i))
        );
    }
    assert_eq!(db.get(&ro, &cf, b"absent").expect("get"), None);
    let mut it = db.iter(&ro, &cf).expect("iter");
    it.seek_to_first();
    let mut n = 0;
    while it.valid() {
        assert_eq!(it.key(), key(n).as_slice());
        assert_eq!(it.value(), value(name, n).as_slice());
        n += 1;
        it.next();
    }
    it.status().expect("scan");
    assert_eq!(n, KEYS);
}

#[test]
fn two_dbs_share_one_block_cache() {
    let cache = Arc::new(LruCache::new(8 << 20, -1, false, 0.5));
    let (dir_a, dir_b) = (
        tempfile::tempdir().expect("dir"),
        tempfile::tempdir().expect("dir"),
    );
    let a = open(dir_a.path(), &cache, false);
    let b = open(dir_b.path(), &cache, false);
    fill(&a, dir_a.path(), "a");
    fill(&b, dir_b.path(), "b");

    let before = cache.usage();
    check_reads(&a, "a");
    let after_a = cache.usage();
    assert!(
        after_a > before,
        "reads of A fill the cache: {before} -> {after_a}"
    );
    check_reads(&b, "b");
    let after_b = cache.usage();
    assert!(
        after_b > after_a,
        "reads of B add their own blocks: {after_a} -> {after_b}"
    );
    assert!(after_b <= cache.capacity());

    // Everything is cached now: a second round only hits.
    let stats = cache.stats();
    check_reads(&a, "a");
    check_reads(&b, "b");
    let again = cache.stats();
    assert_eq!(again.misses, stats.misses, "second round misses nothing");
    assert!(again.hits > stats.hits);
    assert_eq!(cache.usage(), after_b);
    assert_eq!(cache.pinned_usage(), 0, "no reader holds a block");

    a.close().expect("close");
    b.close().expect("close");
}

/// Two tables of `KEYS` keys each (the first under other keys), the first compacted to L1
/// when `one_in_l1`; after a reopen (a fresh table cache) and reads of both, the bytes the
/// cache holds pinned.
fn pinned_after_reads(pin_l0: bool, one_in_l1: bool) -> usize {
    let cache = Arc::new(LruCache::new(8 << 20, -1, false, 0.5));
    let dir = tempfile::tempdir().expect("dir");
    {
        let db = open_pinning(dir.path(), &cache, true, pin_l0);
        let (wo, cf) = (WriteOptions::default(), db.default_cf());
        for i in 0..KEYS {
            db.put(&wo, &cf, &[b"a", key(i).as_slice()].concat(), b"x")
                .expect("put");
        }
        db.flush(&cf, true).expect("flush");
        if one_in_l1 {
            db.compact_range(&cf, None, None).expect("compact");
        }
        for i in 0..KEYS {
            db.put(&wo, &cf, &key(i), &value("b", i)).expect("put");
        }
        db.flush(&cf, true).expect("flush");
        db.close().expect("close");
    }
    let db = open_pinning(dir.path(), &cache, true, pin_l0);
    let l0 = db.property(&db.default_cf(), "rocksdb.num-files-at-level0");
    assert_eq!(l0.as_deref(), Some(if one_in_l1 { "1" } else { "2" }));
    let ro = ReadOptions::default();
    for i in (0..KEYS).step_by(7) {
        let got = db.get(&ro, &db.default_cf(), &key(i)).expect("get");
        assert_eq!(got, Some(value("b", i)));
    }
    let first = [b"a", key(3).as_slice()].concat();
    assert_eq!(
        db.get(&ro, &db.default_cf(), &first).expect("get"),
        Some(b"x".to_vec())
    );
    cache.pinned_usage()
}

#[test]
fn only_level_0_index_and_filter_blocks_are_pinned() {
    let both_l0 = pinned_after_reads(true, false);
    let one_l0 = pinned_after_reads(true, true);
    assert!(one_l0 > 0, "the level 0 table pins its meta blocks");
    assert!(
        one_l0 < both_l0,
        "the level 1 table pins nothing: {one_l0} of {both_l0}"
    );
    assert_eq!(
        pinned_after_reads(false, false),
        0,
        "nothing pinned without pin_l0"
    );
}

#[test]
fn index_and_filter_blocks_pinned_while_tables_are_open() {
    let cache = Arc::new(LruCache::new(8 << 20, -1, false, 0.5));
    let dir = tempfile::tempdir().expect("dir");
    let db = open(dir.path(), &cache, true);
    fill(&db, dir.path(), "a");
    check_reads(&db, "a");
    let pinned = cache.pinned_usage();
    assert!(pinned > 0, "the table pins its index and filter");
    cache.erase_unpinned();
    assert_eq!(cache.usage(), pinned, "only the pinned meta blocks remain");
    check_reads(&db, "a");
    assert_eq!(cache.pinned_usage(), pinned);
    db.close().expect("close");
}

#[test]
fn tiny_shared_cache_reads_correctly() {
    for capacity in [0, 1024] {
        let cache = Arc::new(LruCache::new(capacity, 0, false, 0.5));
        let (dir_a, dir_b) = (
            tempfile::tempdir().expect("dir"),
            tempfile::tempdir().expect("dir"),
        );
        let a = open(dir_a.path(), &cache, true);
        let b = open(dir_b.path(), &cache, false);
        fill(&a, dir_a.path(), "a");
        fill(&b, dir_b.path(), "b");
        for _ in 0..2 {
            check_reads(&a, "a");
            check_reads(&b, "b");
        }
        a.close().expect("close");
        b.close().expect("close");
    }
}

#[test]
fn strict_full_cache_reads_correctly() {
    let cache = Arc::new(LruCache::new(4096, 0, true, 0.5));
    let id = cache.new_id();
    let _pins: Vec<_> = (0..4)
        .map(|i| {
            cache
                .insert(
                    solistore::cache::CacheKey::new(id, 0, i),
                    Arc::new(()),
                    // 1 KiB each with the cache's bookkeeping: the four fill it.
                    1024 - cache.metadata_charge(),
                    solistore::cache::Priority::High,
                )
                .expect("fits")
        })
        .collect();
    let dir = tempfile::tempdir().expect("dir");
    let db = open(dir.path(), &cache, true);
    fill(&db, dir.path(), "a");
    check_reads(&db, "a");
    assert!(cache.stats().insert_failures > 0);
    assert_eq!(cache.usage(), 4096);
    db.close().expect("close");
}
