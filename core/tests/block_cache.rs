// SPDX-License-Identifier: Apache-2.0
//! The block cache at the DB level: one `LruCache` shared by two DBs through
//! `ColumnFamilyOptions::block_cache`. Reads of flushed tables fill it, repeated reads hit it,
//! the DBs' tables (which have the same file numbers) never see each other's blocks, and a
//! tiny cache changes nothing but speed.

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
    let opts = DbOptions {
        create_if_missing: true,
        ..Default::default()
    };
    let cf = ColumnFamilyOptions {
        block_cache: Some(Arc::clone(cache)),
        cache_index_and_filter_blocks: cache_meta,
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
                    1024,
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
