// SPDX-License-Identifier: Apache-2.0
//! A write buffer manager shared by two DBs: their memtables are charged to it (and through it
//! to a block cache), the shared budget triggers flushes, and closing a DB returns its charge.

use std::sync::Arc;

use solistore::cache::{LruCache, WriteBufferManager};
use solistore::db::Db;
use solistore::options::{ColumnFamilyOptions, DbOptions, ReadOptions, WriteOptions};

#[test]
fn shared_budget_rises_with_writes_flushes_and_is_returned_at_close() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = Arc::new(LruCache::with_capacity(64 << 20));
    let wbm = Arc::new(WriteBufferManager::new(1 << 20, Some(cache.clone()), false));
    let opts = DbOptions {
        create_if_missing: true,
        write_buffer_manager: Some(wbm.clone()),
        ..Default::default()
    };
    let open = |name: &str| {
        Db::open(
            &opts,
            ColumnFamilyOptions::default(),
            &dir.path().join(name).to_string_lossy(),
        )
        .expect("open")
    };
    let (a, b) = (open("a"), open("b"));
    assert_eq!(wbm.memory_usage(), 0);
    let wo = WriteOptions::default();
    let value = vec![7u8; 1000];
    for i in 0..200u32 {
        a.put(&wo, &a.default_cf(), format!("a{i:05}").as_bytes(), &value)
            .expect("put");
        b.put(&wo, &b.default_cf(), format!("b{i:05}").as_bytes(), &value)
            .expect("put");
    }
    let used = wbm.memory_usage();
    assert!(
        used >= 2 * 200 * 1000,
        "usage {used} counts both DBs' memtables"
    );
    assert!(
        cache.usage() >= used,
        "the budget is charged to the cache ({} < {used})",
        cache.usage()
    );
    // Past the 1 MiB budget the manager asks for flushes: memtables move to tables.
    for i in 200..2000u32 {
        a.put(&wo, &a.default_cf(), format!("a{i:05}").as_bytes(), &value)
            .expect("put");
    }
    a.flush(&a.default_cf(), true).expect("flush");
    assert!(
        a.property(&a.default_cf(), "rocksdb.num-files-at-level0")
            .expect("prop")
            != "0"
            || a.property(&a.default_cf(), "rocksdb.total-sst-files-size")
                .expect("prop")
                != "0"
    );
    assert!(
        wbm.memory_usage() < 2 << 20,
        "flushed memtables are no longer charged: {}",
        wbm.memory_usage()
    );
    let ro = ReadOptions::default();
    assert_eq!(
        a.get(&ro, &a.default_cf(), b"a01999").expect("get"),
        Some(value.clone())
    );
    a.close().expect("close");
    b.close().expect("close");
    assert_eq!(wbm.memory_usage(), 0, "closing returns every charge");
}
