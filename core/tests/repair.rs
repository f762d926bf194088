// SPDX-License-Identifier: Apache-2.0
//! `Db::repair` (RocksDB's `RepairDB`, `db::repair`) beyond what the C programs check on
//! both libraries (tests-c/test_open.c): range tombstones keep covering what they covered, a
//! damaged table goes to `lost/` while the rest survives, and, when the old MANIFEST is still
//! readable, a column family without tables keeps its WAL data.

mod common;

use std::path::{Path, PathBuf};

use solistore::db::Db;
use solistore::options::{ColumnFamilyOptions, DbOptions, ReadOptions, WriteOptions};

fn opts() -> DbOptions {
    DbOptions {
        create_if_missing: true,
        create_missing_column_families: true,
        ..Default::default()
    }
}

fn remove_manifests(dir: &Path) {
    for e in std::fs::read_dir(dir).expect("dir") {
        let p = e.expect("entry").path();
        if p.file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("MANIFEST-"))
        {
            std::fs::remove_file(p).expect("rm MANIFEST");
        }
    }
}

fn tables(dir: &Path) -> Vec<PathBuf> {
    common::files_with_extension(dir, "sst")
}

#[test]
fn range_tombstones_still_cover_older_tables_after_repair() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path().join("db").to_string_lossy().into_owned();
    let (wo, ro) = (WriteOptions::default(), ReadOptions::default());
    let db = Db::open(&opts(), ColumnFamilyOptions::default(), &p).expect("open");
    let cf = db.default_cf();
    for k in [b"a".as_slice(), b"m", b"q", b"z"] {
        db.put(&wo, &cf, k, b"old").expect("put");
    }
    db.flush(&cf, true).expect("flush");
    db.delete_range(&wo, &cf, b"b", b"r").expect("delete_range");
    db.flush(&cf, true).expect("flush");
    db.close().expect("close");
    drop(db);
    remove_manifests(Path::new(&p));
    Db::repair(&opts(), &ColumnFamilyOptions::default(), &p).expect("repair");
    let db = Db::open(&opts(), ColumnFamilyOptions::default(), &p).expect("reopen");
    let cf = db.default_cf();
    let read = |db: &Db, k: &[u8]| db.get(&ro, &cf, k).expect("get");
    assert_eq!(read(&db, b"a").as_deref(), Some(b"old".as_slice()));
    assert_eq!(read(&db, b"m"), None, "covered by the tombstone");
    assert_eq!(read(&db, b"q"), None, "covered by the tombstone");
    db.compact_range(&cf, None, None).expect("compact");
    assert_eq!(read(&db, b"m"), None, "still covered after compaction");
    assert_eq!(read(&db, b"z").as_deref(), Some(b"old".as_slice()));
    db.close().expect("close");
}

#[test]
fn a_damaged_table_goes_to_lost_and_the_rest_survives() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("db");
    let p = path.to_string_lossy().into_owned();
    let (wo, ro) = (WriteOptions::default(), ReadOptions::default());
    let db = Db::open(&opts(), ColumnFamilyOptions::default(), &p).expect("open");
    let cf = db.default_cf();
    db.put(&wo, &cf, b"first", b"1").expect("put");
    db.flush(&cf, true).expect("flush");
    db.put(&wo, &cf, b"second", b"2").expect("put");
    db.flush(&cf, true).expect("flush");
    db.put(&wo, &cf, b"unflushed", b"3").expect("put");
    db.close().expect("close");
    drop(db);
    let t = tables(&path);
    assert_eq!(t.len(), 2, "{t:?}");
    // Damage the first table's first data block (its checksum no longer matches).
    let mut bytes = std::fs::read(&t[0]).expect("read table");
    bytes[2] ^= 0xff;
    std::fs::write(&t[0], &bytes).expect("write table");
    Db::repair(&opts(), &ColumnFamilyOptions::default(), &p).expect("repair");
    let name = t[0].file_name().expect("name");
    assert!(
        path.join("lost").join(name).exists(),
        "damaged table kept in lost/"
    );
    assert!(!t[0].exists());
    let db = Db::open(&opts(), ColumnFamilyOptions::default(), &p).expect("reopen");
    let cf = db.default_cf();
    assert_eq!(
        db.get(&ro, &cf, b"first").expect("get"),
        None,
        "lost with its table"
    );
    assert_eq!(
        db.get(&ro, &cf, b"second").expect("get").as_deref(),
        Some(b"2".as_slice())
    );
    assert_eq!(
        db.get(&ro, &cf, b"unflushed").expect("get").as_deref(),
        Some(b"3".as_slice())
    );
    db.put(&wo, &cf, b"after", b"4").expect("writes go on");
    db.close().expect("close");
}

#[test]
fn a_family_without_tables_keeps_its_wal_data_when_the_manifest_is_readable() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path().join("db").to_string_lossy().into_owned();
    let (wo, ro) = (WriteOptions::default(), ReadOptions::default());
    let cfs = || {
        vec![
            ("default".to_string(), ColumnFamilyOptions::default()),
            ("only_wal".to_string(), ColumnFamilyOptions::default()),
        ]
    };
    let (db, h) = Db::open_cf(&opts(), &p, cfs()).expect("open");
    db.put(&wo, &h[0], b"k", b"default").expect("put");
    db.flush(&h[0], true).expect("flush");
    db.put(&wo, &h[1], b"k", b"in the WAL only").expect("put");
    db.close().expect("close");
    drop((db, h));
    Db::repair(&opts(), &ColumnFamilyOptions::default(), &p).expect("repair");
    assert_eq!(
        Db::list_column_families(&p).expect("list"),
        ["default", "only_wal"]
    );
    let (db, h) = Db::open_cf(&opts(), &p, cfs()).expect("reopen");
    assert_eq!(
        db.get(&ro, &h[0], b"k").expect("get").as_deref(),
        Some(b"default".as_slice())
    );
    assert_eq!(
        db.get(&ro, &h[1], b"k").expect("get").as_deref(),
        Some(b"in the WAL only".as_slice())
    );
    db.close().expect("close");
}
