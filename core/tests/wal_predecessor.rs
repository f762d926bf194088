// SPDX-License-Identifier: Apache-2.0
//! The predecessor record (docs/format/wal.md §7 item 9): a WAL started at a memtable switch
//! opens with the old WAL's number and length, and recovery stops where the old WAL ends
//! short of it, since the old WAL is not synced at the switch and a power cut may have kept
//! the new WAL's first records but not the old one's tail.
//!
//! - the switch writes the record, with the old WAL's number and length;
//! - a whole predecessor: both engines replay both WALs (RocksDB ignores the LogData blob);
//! - a predecessor cut at a record boundary: solistore stops at the cut in every mode but
//!   skip-any, where RocksDB 7.8.3 replays the next WAL and leaves a hole; a writable open
//!   deletes the WAL after the hole, and later writes and opens carry on from the cut.

mod common;

use std::path::{Path, PathBuf};

use common::{copy_dir, reader_binary, truncate_file, RocksOutcome};
use solistore::batch::WriteBatch;
use solistore::db::{ColumnFamilyHandle, Db};
use solistore::fs::default_fs;
use solistore::options::{
    ColumnFamilyOptions, DbOptions, ReadOptions, WalRecoveryMode, WriteOptions,
};
use solistore::wal::predecessor::{self, Predecessor};
use solistore::wal::reader::{LogReader, ReadOutcome};
use solistore::wal::LogWriter;

const MODES: [WalRecoveryMode; 4] = [
    WalRecoveryMode::TolerateCorruptedTailRecords,
    WalRecoveryMode::AbsoluteConsistency,
    WalRecoveryMode::PointInTimeRecovery,
    WalRecoveryMode::SkipAnyCorruptedRecords,
];

fn open(dir: &Path, mode: WalRecoveryMode, create: bool) -> solistore::error::Result<Db> {
    let opts = DbOptions {
        create_if_missing: create,
        wal_recovery_mode: mode,
        ..Default::default()
    };
    Db::open(
        &opts,
        ColumnFamilyOptions::default(),
        &dir.to_string_lossy(),
    )
}

/// Every (family, key) pair in `db`'s families, `handles` in the order of `names`, sorted.
fn entries_of(db: &Db, handles: &[ColumnFamilyHandle], names: &[&str]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (cf, name) in handles.iter().zip(names) {
        let mut it = db.iter(&ReadOptions::default(), cf).expect("iter");
        it.seek_to_first();
        while it.valid() {
            out.push((
                name.to_string(),
                String::from_utf8_lossy(it.key()).into_owned(),
            ));
            it.next();
        }
        it.status().expect("scan");
    }
    out.sort();
    out
}

/// The default family's keys in `db`.
fn keys_of(db: &Db) -> Vec<String> {
    keys_only(entries_of(db, &[db.default_cf()], &["default"]))
}

fn keys_only(entries: Vec<(String, String)>) -> Vec<String> {
    entries.into_iter().map(|(_, k)| k).collect()
}

/// The default family's keys after solistore opens `dir` in `mode`.
fn ours(dir: &Path, mode: WalRecoveryMode) -> Vec<String> {
    keys_only(ours_in(dir, mode, &["default"]))
}

/// The (family, key) pairs of the families `names` after solistore opens `dir` in `mode`.
fn ours_in(dir: &Path, mode: WalRecoveryMode, names: &[&str]) -> Vec<(String, String)> {
    let opts = DbOptions {
        wal_recovery_mode: mode,
        ..Default::default()
    };
    let families = names
        .iter()
        .map(|n| (n.to_string(), ColumnFamilyOptions::default()))
        .collect();
    let (db, handles) = Db::open_cf(&opts, &dir.to_string_lossy(), families).expect("open");
    let entries = entries_of(&db, &handles, names);
    db.close().expect("close");
    entries
}

/// The keys after RocksDB opens `dir` in `mode`; None without the reader binary.
fn theirs(dir: &Path, mode: WalRecoveryMode) -> Option<Vec<String>> {
    theirs_in(dir, mode).map(keys_only)
}

/// The (family, key) pairs after RocksDB opens `dir` in `mode`, sorted.
fn theirs_in(dir: &Path, mode: WalRecoveryMode) -> Option<Vec<(String, String)>> {
    let bin = reader_binary()?;
    match common::rocksdb_read(&bin, dir, mode as i32, true, true) {
        RocksOutcome::OpenError(e) => panic!("RocksDB refused the directory: {e}"),
        RocksOutcome::Read { entries, .. } => {
            let mut pairs: Vec<(String, String)> = entries
                .into_iter()
                .map(|(cf, k, _)| (cf, String::from_utf8_lossy(&k).into_owned()))
                .collect();
            pairs.sort();
            Some(pairs)
        }
    }
}

fn wals(dir: &Path) -> Vec<PathBuf> {
    common::files_with_extension(dir, "log")
}

/// The WAL numbered `number` in `dir`, if it is there.
fn wal_numbered(dir: &Path, number: u64) -> Option<PathBuf> {
    let name = format!("{number:06}");
    wals(dir)
        .into_iter()
        .find(|p| p.file_stem().is_some_and(|s| s == name.as_str()))
}

fn first_record(wal: &Path) -> WriteBatch {
    let mut reader = LogReader::new(
        std::fs::File::open(wal).expect("wal"),
        0,
        WalRecoveryMode::AbsoluteConsistency,
    );
    let mut rec = Vec::new();
    assert!(matches!(
        reader.read_record(&mut rec).expect("read"),
        ReadOutcome::Record
    ));
    WriteBatch::from_rep(rec).expect("a write batch")
}

/// Where each record of `wal` ends.
fn record_ends(wal: &Path) -> Vec<u64> {
    let mut reader = LogReader::new(
        std::fs::File::open(wal).expect("wal"),
        0,
        WalRecoveryMode::AbsoluteConsistency,
    );
    let mut rec = Vec::new();
    let mut ends = Vec::new();
    while let ReadOutcome::Record = reader.read_record(&mut rec).expect("read") {
        ends.push(reader.last_record_end());
    }
    ends
}

/// A new DB holding k0, k1, k2 (sequences 1 to 3), all in its WAL.
fn with_three_keys(dir: &Path) -> Db {
    let db = open(dir, WalRecoveryMode::PointInTimeRecovery, true).expect("open");
    let cf = db.default_cf();
    for i in 0..3 {
        db.put(
            &WriteOptions::default(),
            &cf,
            format!("k{i}").as_bytes(),
            b"v",
        )
        .expect("put");
    }
    db
}

#[test]
fn a_switch_opens_the_new_wal_with_the_old_ones_number_and_length() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("db");
    let db = with_three_keys(&dir);
    let cf = db.default_cf();
    let (old, old_len) = db.wal_end().expect("a WAL");
    assert!(old_len > 0);
    db.flush(&cf, true).expect("flush");
    let (new, _) = db.wal_end().expect("a WAL");
    assert!(new > old, "the flush switched WALs ({old} -> {new})");
    db.put(&WriteOptions::default(), &cf, b"k3", b"v")
        .expect("put");
    db.close().expect("close");
    let wal = wal_numbered(&dir, new).expect("the new WAL is live");
    let batch = first_record(&wal);
    assert_eq!(
        predecessor::decode(&batch),
        Some(Predecessor {
            number: old,
            length: old_len,
        })
    );
    assert_eq!(batch.sequence(), 4, "the sequence number of the next write");
    // Both engines read the record as nothing and replay what follows it.
    let want = vec!["k0", "k1", "k2", "k3"];
    for mode in MODES {
        let copy = tmp.path().join(format!("ours-{}", mode as i32));
        copy_dir(&dir, &copy);
        assert_eq!(ours(&copy, mode), want, "{mode:?}");
        let copy = tmp.path().join(format!("theirs-{}", mode as i32));
        copy_dir(&dir, &copy);
        if let Some(got) = theirs(&copy, mode) {
            assert_eq!(got, want, "RocksDB, {mode:?}");
        }
    }
}

/// A DB whose WAL holds k0, k1, k2 (sequences 1 to 3), and a second WAL as a switch would
/// have started it: the predecessor record, then k3 at sequence 4. Returns the two WALs.
fn two_wals(dir: &Path) -> (PathBuf, PathBuf) {
    let db = with_three_keys(dir);
    let (old, old_len) = db.wal_end().expect("a WAL");
    db.close().expect("close");
    let old_path = wals(dir).pop().expect("the WAL");
    let prev = Predecessor {
        number: old,
        length: old_len,
    };
    let new_path = next_wal(dir, prev, 4, b"k3", 4);
    (old_path, new_path)
}

/// Writes the WAL a switch away from `prev` would have started, numbered above it: the
/// predecessor record at `marker_seq`, then `key` at `seq`. Returns its path.
fn next_wal(dir: &Path, prev: Predecessor, marker_seq: u64, key: &[u8], seq: u64) -> PathBuf {
    // A number no file of this DB has, above the old WAL's.
    let number = prev.number + 100;
    let new_path = dir.join(format!("{number:06}.log"));
    let file = default_fs().new_writable(&new_path).expect("create");
    let mut log = LogWriter::new(file, number, false);
    log.add_record(&predecessor::encode(marker_seq, prev))
        .expect("append");
    let mut b = WriteBatch::new();
    b.put(0, key, b"v");
    b.set_sequence(seq);
    log.add_record(b.data()).expect("append");
    log.sync().expect("sync");
    new_path
}

#[test]
fn a_predecessor_cut_short_ends_recovery_at_the_cut() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let base = tmp.path().join("base");
    let (old, new) = two_wals(&base);
    let ends = record_ends(&old);
    assert_eq!(ends.len(), 3);

    // Whole: everything replays, in both engines.
    for mode in MODES {
        let copy = tmp.path().join(format!("whole-{}", mode as i32));
        copy_dir(&base, &copy);
        assert_eq!(ours(&copy, mode), ["k0", "k1", "k2", "k3"], "{mode:?}");
        let copy = tmp.path().join(format!("whole-rocksdb-{}", mode as i32));
        copy_dir(&base, &copy);
        if let Some(got) = theirs(&copy, mode) {
            assert_eq!(got, ["k0", "k1", "k2", "k3"], "RocksDB, {mode:?}");
        }
    }

    // The old WAL loses its last record, cut at a record boundary, as a power cut can leave
    // an unsynced tail.
    truncate_file(&old, ends[1]);
    for mode in MODES {
        let copy = tmp.path().join(format!("cut-{}", mode as i32));
        copy_dir(&base, &copy);
        let want: &[&str] = if mode == WalRecoveryMode::SkipAnyCorruptedRecords {
            &["k0", "k1", "k3"]
        } else {
            &["k0", "k1"]
        };
        assert_eq!(ours(&copy, mode), want, "{mode:?}");
        // RocksDB cannot see the cut and replays k3 after the missing k2.
        let copy = tmp.path().join(format!("cut-rocksdb-{}", mode as i32));
        copy_dir(&base, &copy);
        if let Some(got) = theirs(&copy, mode) {
            assert_eq!(got, ["k0", "k1", "k3"], "RocksDB, {mode:?}");
        }
    }

    // In place: the open deletes the WAL after the hole, so new writes do not meet k3's
    // sequence number, and the next opens agree.
    let db = open(&base, WalRecoveryMode::PointInTimeRecovery, false).expect("open");
    assert!(!new.exists(), "the WAL after the hole was deleted");
    let cf = db.default_cf();
    db.put(&WriteOptions::default(), &cf, b"k9", b"v")
        .expect("put");
    assert_eq!(keys_of(&db), ["k0", "k1", "k9"]);
    db.close().expect("close");
    assert_eq!(
        ours(&base, WalRecoveryMode::PointInTimeRecovery),
        ["k0", "k1", "k9"]
    );
    if let Some(got) = theirs(&base, WalRecoveryMode::PointInTimeRecovery) {
        assert_eq!(got, ["k0", "k1", "k9"], "RocksDB after the repair");
    }
}

/// Skip-any replays past the cut; with `avoid_flush_during_recovery` it would keep both
/// WALs, and the kept predecessor record would stop a later point-in-time open at the cut,
/// dropping k3 and every write after it (a synced one too). So such an open flushes.
#[test]
fn a_skip_any_open_past_a_cut_does_not_keep_the_record_that_names_it() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("db");
    let (old, new) = two_wals(&dir);
    let ends = record_ends(&old);
    truncate_file(&old, ends[1]);
    let opts = DbOptions {
        wal_recovery_mode: WalRecoveryMode::SkipAnyCorruptedRecords,
        avoid_flush_during_recovery: true,
        ..Default::default()
    };
    let db = Db::open(
        &opts,
        ColumnFamilyOptions::default(),
        &dir.to_string_lossy(),
    )
    .expect("open");
    assert_eq!(keys_of(&db), ["k0", "k1", "k3"]);
    let synced = WriteOptions {
        sync: true,
        ..Default::default()
    };
    db.put(&synced, &db.default_cf(), b"k4", b"v").expect("put");
    db.close().expect("close");
    for mode in [
        WalRecoveryMode::PointInTimeRecovery,
        WalRecoveryMode::TolerateCorruptedTailRecords,
        WalRecoveryMode::AbsoluteConsistency,
    ] {
        let copy = tmp.path().join(format!("then-{}", mode as i32));
        copy_dir(&dir, &copy);
        assert_eq!(ours(&copy, mode), ["k0", "k1", "k3", "k4"], "{mode:?}");
    }
    assert!(
        !new.exists(),
        "the WAL holding the record is gone, its data flushed"
    );
}

/// A corrupted record at the old WAL's end (after k2, inside the recorded length), then a
/// WAL whose predecessor record carries sequence 4, then k5 at sequence 6 (4 and 5 went to
/// writes with the WAL disabled). Point-in-time recovery stops at the corruption; the
/// predecessor record follows on from k2, so nothing with a sequence number was lost, and
/// replay resumes there, as RocksDB resumes at the first record that follows on.
#[test]
fn a_predecessor_record_that_follows_on_resumes_replay_after_a_stop() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let base = tmp.path().join("base");
    let db = with_three_keys(&base);
    let (old, _) = db.wal_end().expect("a WAL");
    db.close().expect("close");
    let old_path = wals(&base).pop().expect("the WAL");
    let mut log = LogWriter::new(
        default_fs().reopen_writable(&old_path).expect("reopen"),
        old,
        false,
    );
    let garbage_at = log.file_size() + 7;
    log.add_record(b"not a write batch, and its checksum will not match")
        .expect("append");
    let old_len = log.file_size();
    drop(log);
    let mut bytes = std::fs::read(&old_path).expect("read");
    bytes[garbage_at as usize] ^= 0x55;
    std::fs::write(&old_path, bytes).expect("write");

    let prev = Predecessor {
        number: old,
        length: old_len,
    };
    next_wal(&base, prev, 4, b"k5", 6);

    for mode in [
        WalRecoveryMode::PointInTimeRecovery,
        WalRecoveryMode::SkipAnyCorruptedRecords,
    ] {
        let copy = tmp.path().join(format!("ours-{}", mode as i32));
        copy_dir(&base, &copy);
        assert_eq!(ours(&copy, mode), ["k0", "k1", "k2", "k5"], "{mode:?}");
        let copy = tmp.path().join(format!("theirs-{}", mode as i32));
        copy_dir(&base, &copy);
        if let Some(got) = theirs(&copy, mode) {
            assert_eq!(got, ["k0", "k1", "k2", "k5"], "RocksDB, {mode:?}");
        }
    }
}

/// A switch of a WAL that holds only its predecessor record (every write since had the WAL
/// disabled) keeps that WAL: a new one would hold only a record naming it.
#[test]
fn a_switch_keeps_a_wal_that_holds_only_its_predecessor_record() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("db");
    let db = with_three_keys(&dir);
    let cf = db.default_cf();
    db.flush(&cf, true).expect("flush");
    let (after_first, _) = db.wal_end().expect("a WAL");
    let unlogged = WriteOptions {
        disable_wal: true,
        ..Default::default()
    };
    for i in 0..3 {
        db.put(&unlogged, &cf, format!("u{i}").as_bytes(), b"v")
            .expect("put");
        db.flush(&cf, true).expect("flush");
        assert_eq!(
            db.wal_end().expect("a WAL").0,
            after_first,
            "flush {i} kept the WAL"
        );
    }
    db.put(&WriteOptions::default(), &cf, b"k3", b"v")
        .expect("put");
    db.close().expect("close");
    assert_eq!(wals(&dir).len(), 1, "{:?}", wals(&dir));
    assert_eq!(
        ours(&dir, WalRecoveryMode::PointInTimeRecovery),
        ["k0", "k1", "k2", "k3", "u0", "u1", "u2"]
    );
}

/// Two families. A flush of "a" switches WALs and, before it installs a's table, syncs the
/// old WAL (several families). An old WAL found short afterwards was damaged after that
/// sync, not cut by a power cut: recovery does not stop at its predecessor record (which
/// would leave a's table ahead of the WALs and fail the open) and replays past the damage,
/// as RocksDB does.
#[test]
fn a_predecessor_synced_by_a_multi_family_flush_is_replayed_past_as_rocksdb_does() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let base = tmp.path().join("base");
    let opts = DbOptions {
        create_if_missing: true,
        create_missing_column_families: true,
        ..Default::default()
    };
    let families = vec![
        ("default".to_string(), ColumnFamilyOptions::default()),
        ("a".to_string(), ColumnFamilyOptions::default()),
    ];
    let (db, handles) = Db::open_cf(&opts, &base.to_string_lossy(), families).expect("open");
    let w = WriteOptions::default();
    db.put(&w, &handles[1], b"a0", b"v").expect("put");
    for i in 0..3 {
        db.put(&w, &handles[0], format!("k{i}").as_bytes(), b"v")
            .expect("put");
    }
    let (old, _) = db.wal_end().expect("a WAL");
    db.flush(&handles[1], true).expect("flush a");
    db.put(&w, &handles[0], b"k3", b"v").expect("put");
    db.close().expect("close");
    let old_path = wal_numbered(&base, old).expect("the old WAL is live: default's data is in it");
    let ends = record_ends(&old_path);
    assert_eq!(ends.len(), 4, "a0, k0, k1, k2");
    truncate_file(&old_path, ends[2]);

    let want = vec![
        ("a".to_string(), "a0".to_string()),
        ("default".to_string(), "k0".to_string()),
        ("default".to_string(), "k1".to_string()),
        ("default".to_string(), "k3".to_string()),
    ];
    let pit = WalRecoveryMode::PointInTimeRecovery;
    let copy = tmp.path().join("ours");
    copy_dir(&base, &copy);
    assert_eq!(ours_in(&copy, pit, &["default", "a"]), want);
    let copy = tmp.path().join("theirs");
    copy_dir(&base, &copy);
    if let Some(got) = theirs_in(&copy, pit) {
        assert_eq!(got, want, "RocksDB");
    }
}
