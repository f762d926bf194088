// SPDX-License-Identifier: Apache-2.0
//! Open semantics and WAL options that the model test does not reach: an existing empty
//! directory opens as new, RocksDB's open errors, `manual_wal_flush` + `flush_wal`, and
//! `disable_wal` data surviving a clean close (flushed to a table).

mod common;

use solistore::db::Db;
use solistore::options::{ColumnFamilyOptions, DbOptions, ReadOptions, WriteOptions};

fn opts(create: bool) -> DbOptions {
    DbOptions {
        create_if_missing: create,
        ..Default::default()
    }
}

#[test]
fn empty_existing_directory_opens_as_new_and_open_errors_match_rocksdb() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("db");
    std::fs::create_dir(&path).expect("mkdir");
    let p = path.to_string_lossy().into_owned();
    let err = Db::open(&opts(false), ColumnFamilyOptions::default(), &p).expect_err("no CURRENT");
    assert_eq!(
        err.to_string(),
        format!("Invalid argument: {p}/CURRENT: does not exist (create_if_missing is false)")
    );
    let db =
        Db::open(&opts(true), ColumnFamilyOptions::default(), &p).expect("empty dir opens as new");
    let err = Db::open(&opts(true), ColumnFamilyOptions::default(), &p).expect_err("locked");
    assert!(
        err.to_string()
            .starts_with("IO error: lock hold by current process"),
        "{err}"
    );
    assert!(
        err.to_string()
            .ends_with(&format!("{p}/LOCK: No locks available")),
        "{err}"
    );
    db.close().expect("close");
    let again = DbOptions {
        error_if_exists: true,
        ..opts(true)
    };
    let err = Db::open(&again, ColumnFamilyOptions::default(), &p).expect_err("exists");
    assert_eq!(
        err.to_string(),
        format!("Invalid argument: {p}: exists (error_if_exists is true)")
    );
    let identity = std::fs::read(format!("{p}/IDENTITY")).expect("IDENTITY");
    assert_eq!(
        identity.len(),
        36,
        "IDENTITY is a 36-character UUID without a newline"
    );
}

#[test]
fn manual_wal_flush_keeps_writes_in_memory_until_flush_wal() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path().join("db").to_string_lossy().into_owned();
    let o = DbOptions {
        manual_wal_flush: true,
        ..opts(true)
    };
    let db = Db::open(&o, ColumnFamilyOptions::default(), &p).expect("open");
    let wal_bytes = || -> u64 {
        std::fs::read_dir(&p)
            .expect("dir")
            .filter_map(|e| e.ok())
            .filter(|e| e.path().extension().is_some_and(|x| x == "log"))
            .map(|e| e.metadata().map(|m| m.len()).unwrap_or(0))
            .sum()
    };
    db.put(&WriteOptions::default(), &db.default_cf(), b"k", b"v")
        .expect("put");
    assert_eq!(wal_bytes(), 0, "buffered, not yet handed to the OS");
    db.flush_wal(true).expect("flush_wal");
    assert!(wal_bytes() > 0, "flush_wal wrote the record");
    // A crash now keeps the flushed write.
    db.simulate_crash();
    drop(db);
    let db = Db::open(&opts(false), ColumnFamilyOptions::default(), &p).expect("reopen");
    assert_eq!(
        db.get(&ReadOptions::default(), &db.default_cf(), b"k")
            .expect("get"),
        Some(b"v".to_vec())
    );
}

#[test]
fn unlogged_writes_survive_a_clean_close() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path().join("db").to_string_lossy().into_owned();
    let db = Db::open(&opts(true), ColumnFamilyOptions::default(), &p).expect("open");
    let wo = WriteOptions {
        disable_wal: true,
        ..Default::default()
    };
    db.put(&wo, &db.default_cf(), b"nowal", b"1").expect("put");
    db.close().expect("close");
    let db = Db::open(&opts(false), ColumnFamilyOptions::default(), &p).expect("reopen");
    assert_eq!(
        db.get(&ReadOptions::default(), &db.default_cf(), b"nowal")
            .expect("get"),
        Some(b"1".to_vec())
    );
}

/// The WAL files of `dir` with their sizes, by name.
fn wal_sizes(dir: &std::path::Path) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = std::fs::read_dir(dir)
        .expect("dir")
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".log"))
        .map(|e| {
            let len = e.metadata().expect("stat").len();
            (e.file_name().to_string_lossy().into_owned(), len)
        })
        .collect();
    out.sort();
    out
}

/// A new DB under a fresh temporary directory (`<dir>/db`), opened in recovery `mode`.
fn open_in_mode(
    mode: solistore::options::WalRecoveryMode,
) -> (tempfile::TempDir, std::path::PathBuf, Db) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("db");
    let o = DbOptions {
        create_if_missing: true,
        wal_recovery_mode: mode,
        ..Default::default()
    };
    let db = Db::open(&o, ColumnFamilyOptions::default(), &path.to_string_lossy()).expect("open");
    (dir, path, db)
}

/// A synced WAL writes zeros ahead of its appends (point-in-time recovery, the default, and
/// absolute consistency, Kommander's): a copy taken while the DB is open, which is what a
/// crash leaves, has a zero tail and recovers every synced write; closing cuts the tail. In tolerate-tail recovery, where
/// damage before the end of a file is reported, the WAL grows by its appends only.
#[test]
fn a_synced_wal_writes_zeros_ahead_and_a_crash_image_recovers_every_write() {
    for (mode, zeros) in [
        (
            solistore::options::WalRecoveryMode::PointInTimeRecovery,
            true,
        ),
        (
            solistore::options::WalRecoveryMode::AbsoluteConsistency,
            true,
        ),
        (
            solistore::options::WalRecoveryMode::TolerateCorruptedTailRecords,
            false,
        ),
    ] {
        let (dir, path, db) = open_in_mode(mode);
        let cf = db.default_cf();
        let synced = WriteOptions {
            sync: true,
            ..Default::default()
        };
        for i in 0..200 {
            let k = format!("key{i:04}");
            db.put(&synced, &cf, k.as_bytes(), &[b'v'; 300])
                .expect("put");
        }
        let open_sizes = wal_sizes(&path);
        assert_eq!(open_sizes.len(), 1, "{mode:?}: {open_sizes:?}");
        // 200 records of a little over 300 bytes: between 60,000 bytes and 1 MiB.
        let appended = |len: u64| len > 200 * 300 && len < 1 << 20;
        if zeros {
            assert_eq!(open_sizes[0].1, 1 << 20, "{mode:?}: zeros up to 1 MiB");
        } else {
            assert!(appended(open_sizes[0].1), "{mode:?}: {open_sizes:?}");
        }
        let image = dir.path().join("image");
        common::copy_dir(&path, &image);
        // A checkpoint counts and copies the WAL's records, not its zeros: under a 512 KiB
        // log_size_for_flush it does not flush, and its WAL is the records alone.
        let cp = dir.path().join("checkpoint");
        db.create_checkpoint(&cp.to_string_lossy(), 512 * 1024)
            .expect("checkpoint");
        let cp_files: Vec<String> = std::fs::read_dir(&cp)
            .expect("checkpoint dir")
            .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
            .collect();
        assert!(
            !cp_files.iter().any(|n| n.ends_with(".sst")),
            "{mode:?}: the checkpoint flushed: {cp_files:?}"
        );
        let cp_wals = wal_sizes(&cp);
        assert!(
            cp_wals.len() == 1 && appended(cp_wals[0].1),
            "{mode:?}: {cp_wals:?}"
        );
        db.close().expect("close");
        let closed = wal_sizes(&path);
        assert!(closed.iter().all(|(_, len)| appended(*len)), "{closed:?}");
        let o = DbOptions {
            wal_recovery_mode: mode,
            ..Default::default()
        };
        for copy in [&image, &cp] {
            let c = copy.to_string_lossy().into_owned();
            let db = Db::open(&o, ColumnFamilyOptions::default(), &c).expect("open the copy");
            let cf = db.default_cf();
            for i in 0..200 {
                let k = format!("key{i:04}");
                let got = db.get(&ReadOptions::default(), &cf, k.as_bytes());
                assert_eq!(got.expect("get").as_deref(), Some(&[b'v'; 300][..]), "{k}");
            }
            db.close().expect("close");
        }
    }
}

/// An unsynced WAL takes its appends through a mapping in point-in-time and skip-any
/// recovery (`WritableFile::map_appends`): while the DB is open the file holds the mapped
/// window's zeros past its records, a copy taken then (what a kill leaves) recovers every
/// write, and closing cuts the zeros. In absolute consistency and tolerate-tail recovery,
/// which would refuse a record a kill tore before the zeros, the WAL grows by its appends.
/// The first sync ends the mapping and cuts the zeros (the synced test above takes over).
#[test]
fn an_unsynced_wal_maps_its_appends_where_recovery_allows_and_a_crash_image_recovers() {
    use solistore::options::WalRecoveryMode as M;
    for (mode, mapped) in [
        (M::PointInTimeRecovery, true),
        (M::SkipAnyCorruptedRecords, true),
        (M::AbsoluteConsistency, false),
        (M::TolerateCorruptedTailRecords, false),
    ] {
        let (dir, path, db) = open_in_mode(mode);
        let cf = db.default_cf();
        // 3,000 records of a little over 1,000 bytes: past two 1 MiB windows.
        for i in 0..3000 {
            let k = format!("key{i:05}");
            db.put(&WriteOptions::default(), &cf, k.as_bytes(), &[b'v'; 1000])
                .expect("put");
        }
        let open_sizes = wal_sizes(&path);
        assert_eq!(open_sizes.len(), 1, "{mode:?}: {open_sizes:?}");
        let appended = |len: u64| len > 3000 * 1000 && len < 3 << 20;
        // Only ext4, XFS and tmpfs map (`map_window::zeros_back_stores`).
        let fs_type = std::process::Command::new("stat")
            .args(["-f", "-c", "%T"])
            .arg(dir.path())
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default();
        let maps_here = matches!(fs_type.as_str(), "ext2/ext3" | "xfs" | "tmpfs");
        if !maps_here {
            eprintln!("{fs_type:?} does not map: only the recovery is checked");
        }
        if mapped && maps_here {
            assert_eq!(
                open_sizes[0].1,
                3 << 20,
                "{mode:?}: the third window's zeros"
            );
        } else {
            assert!(appended(open_sizes[0].1), "{mode:?}: {open_sizes:?}");
        }
        let image = dir.path().join("image");
        common::copy_dir(&path, &image);
        db.close().expect("close");
        let closed = wal_sizes(&path);
        assert!(
            closed.iter().all(|(_, len)| appended(*len)),
            "{mode:?}: {closed:?}"
        );
        let o = DbOptions {
            wal_recovery_mode: mode,
            ..Default::default()
        };
        let c = image.to_string_lossy().into_owned();
        let db = Db::open(&o, ColumnFamilyOptions::default(), &c).expect("open the copy");
        let cf = db.default_cf();
        for i in 0..3000 {
            let k = format!("key{i:05}");
            let got = db.get(&ReadOptions::default(), &cf, k.as_bytes());
            assert_eq!(
                got.expect("get").as_deref(),
                Some(&[b'v'; 1000][..]),
                "{mode:?} {k}"
            );
        }
        db.close().expect("close");
    }
}
