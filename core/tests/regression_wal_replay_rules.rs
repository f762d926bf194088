// SPDX-License-Identifier: Apache-2.0
//! Regressions found by the corruption sweep (corruption_sweep.rs) in WAL replay, each
//! checked against Debian's RocksDB 7.8.3 on the same damaged directory when it is there:
//!
//! - `paranoid_checks` off: a damaged record is dropped and replay goes on, in every mode
//!   (solistore failed the open in the tolerate-tail and absolute modes).
//! - point in time: a corruption in an older WAL, while a family with tables already moved
//!   past it, fails the open with `SST file is ahead of WALs in CF <name>` (solistore
//!   replayed the newer WAL, since its first batch followed the MANIFEST's last sequence,
//!   and the other family got a hole); a later WAL only continues a stopped replay when it
//!   follows a batch that was replayed.
//! - a failed recovery changes no WAL (the damaged WAL used to be truncated first).

mod common;

use std::path::{Path, PathBuf};

use common::{copy_dir, reader_binary, RocksOutcome};
use solistore::batch::WriteBatch;
use solistore::db::Db;
use solistore::options::{
    ColumnFamilyOptions, DbOptions, ReadOptions, WalRecoveryMode, WriteOptions,
};

fn descs(names: &[&str]) -> Vec<(String, ColumnFamilyOptions)> {
    names
        .iter()
        .map(|n| (n.to_string(), ColumnFamilyOptions::default()))
        .collect()
}

fn wals(dir: &Path) -> Vec<PathBuf> {
    common::files_with_extension(dir, "log")
}

/// Opens with the given settings and returns `Err(message)` or every (cf, key) present.
fn ours(
    dir: &Path,
    names: &[&str],
    mode: WalRecoveryMode,
    paranoid: bool,
) -> Result<Vec<(String, Vec<u8>)>, String> {
    let opts = DbOptions {
        wal_recovery_mode: mode,
        paranoid_checks: paranoid,
        ..Default::default()
    };
    let (db, h) =
        Db::open_cf(&opts, &dir.to_string_lossy(), descs(names)).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for (name, handle) in names.iter().zip(&h) {
        let mut it = db.iter(&ReadOptions::default(), handle).expect("iter");
        it.seek_to_first();
        while it.valid() {
            out.push((name.to_string(), it.key().to_vec()));
            it.next();
        }
        it.status().expect("scan");
    }
    db.close().expect("close");
    Ok(out)
}

/// Runs `ours` on a copy and, when librocksdb is there, RocksDB on another copy: both fail
/// to open, or both hold the same keys.
fn both(
    base: &Path,
    names: &[&str],
    mode: WalRecoveryMode,
    paranoid: bool,
) -> Result<Vec<(String, Vec<u8>)>, String> {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mine = tmp.path().join("ours");
    copy_dir(base, &mine);
    let got = ours(&mine, names, mode, paranoid);
    if let Some(bin) = reader_binary() {
        let theirs = tmp.path().join("theirs");
        copy_dir(base, &theirs);
        let want = match common::rocksdb_read(&bin, &theirs, mode as i32, paranoid, true) {
            RocksOutcome::OpenError(e) => Err(e),
            RocksOutcome::Read { entries, .. } => Ok(entries
                .into_iter()
                .map(|(cf, k, _)| (cf, k))
                .collect::<Vec<_>>()),
        };
        match (&got, &want) {
            (Err(_), Err(_)) => {}
            _ => assert_eq!(
                got, want,
                "mode {mode:?}, paranoid {paranoid}: solistore vs RocksDB"
            ),
        }
    }
    got
}

fn flip(path: &Path, at: usize) {
    let mut b = std::fs::read(path).expect("read");
    b[at] ^= 0xff;
    std::fs::write(path, b).expect("write");
}

fn keys(cf: &str, range: std::ops::Range<usize>) -> Vec<(String, Vec<u8>)> {
    range
        .map(|i| (cf.to_string(), format!("k{i}").into_bytes()))
        .collect()
}

#[test]
fn paranoid_checks_off_drops_a_damaged_record_and_goes_on() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let base = tmp.path().join("db");
    let opts = DbOptions {
        create_if_missing: true,
        ..Default::default()
    };
    let db = Db::open(
        &opts,
        ColumnFamilyOptions::default(),
        &base.to_string_lossy(),
    )
    .expect("open");
    let cf = db.default_cf();
    // Batch 3 spans the first two 32 KiB blocks; the batches after it start in the second,
    // so damage to its first fragment (which drops the rest of that block) leaves them.
    for i in 0..6 {
        let v = if i == 3 {
            vec![b'x'; 33_000]
        } else {
            vec![b'v'; 100]
        };
        db.put(
            &WriteOptions::default(),
            &cf,
            format!("k{i}").as_bytes(),
            &v,
        )
        .expect("put");
    }
    db.close().expect("close");
    let wal = wals(&base).pop().expect("wal");
    flip(&wal, 20_000); // inside batch 3's first fragment
    let mut all_but_3 = keys("default", 0..3);
    all_but_3.extend(keys("default", 4..6));
    for mode in [
        WalRecoveryMode::TolerateCorruptedTailRecords,
        WalRecoveryMode::AbsoluteConsistency,
        WalRecoveryMode::PointInTimeRecovery,
    ] {
        let strict = both(&base, &["default"], mode, true);
        if mode == WalRecoveryMode::PointInTimeRecovery {
            assert_eq!(strict, Ok(keys("default", 0..3)), "{mode:?}, paranoid on");
        } else {
            let err = strict.expect_err("paranoid: the open fails");
            assert!(err.contains("Corruption: checksum mismatch"), "{err}");
        }
        assert_eq!(
            both(&base, &["default"], mode, false),
            Ok(all_but_3.clone()),
            "{mode:?}, paranoid off"
        );
    }
    assert_eq!(
        both(
            &base,
            &["default"],
            WalRecoveryMode::SkipAnyCorruptedRecords,
            true
        ),
        Ok(all_but_3)
    );
}

#[test]
fn point_in_time_stop_behind_a_flushed_family_fails_the_open_and_changes_nothing() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let base = tmp.path().join("db");
    let names = ["default", "cf1"];
    let opts = DbOptions {
        create_if_missing: true,
        create_missing_column_families: true,
        ..Default::default()
    };
    let (db, h) = Db::open_cf(&opts, &base.to_string_lossy(), descs(&names)).expect("open");
    let write = |i: usize| {
        let mut b = WriteBatch::new();
        for handle in &h {
            b.put(handle.id(), format!("k{i}").as_bytes(), b"value");
        }
        db.write(&WriteOptions::default(), &b).expect("write");
    };
    write(0);
    write(1);
    // default moves to a new WAL; cf1 still needs the old one.
    db.flush(&h[0], true).expect("flush");
    write(2);
    db.close().expect("close");
    let logs = wals(&base);
    assert_eq!(logs.len(), 2, "{logs:?}");
    // Damage the old WAL's first record: nothing of it replays.
    flip(&logs[0], 10);
    let before: Vec<Vec<u8>> = logs
        .iter()
        .map(|p| std::fs::read(p).expect("read"))
        .collect();
    let err = both(&base, &names, WalRecoveryMode::PointInTimeRecovery, true).expect_err("refused");
    assert_eq!(err, "Corruption: SST file is ahead of WALs in CF default");
    // Refused in place too: no WAL was truncated or deleted.
    let in_place = ours(&base, &names, WalRecoveryMode::PointInTimeRecovery, true);
    assert_eq!(in_place, Err(err));
    let after: Vec<Vec<u8>> = logs
        .iter()
        .map(|p| std::fs::read(p).expect("read"))
        .collect();
    assert!(before == after, "a failed open changed the WALs");
    // Skipping corrupted records, cf1 loses batches 0 and 1 (they were only in the old WAL).
    let mut want = keys("default", 0..3);
    want.extend(keys("cf1", 2..3));
    assert_eq!(
        both(
            &base,
            &names,
            WalRecoveryMode::SkipAnyCorruptedRecords,
            true
        ),
        Ok(want)
    );
}
