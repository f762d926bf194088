// SPDX-License-Identifier: Apache-2.0
//! WAL corruption at the DB level, one named test per shape, each run in all four
//! `wal_recovery_mode`s and checked against what Debian's RocksDB 7.8.3 does with the very
//! same damaged directory (tests-c/compat/rocksdb_reader.c opens a copy in that mode and
//! dumps what it recovered): both refuse to open, or both recover exactly the same entries.
//! Without RocksDB (and without `SOLISTORE_REQUIRE_ROCKSDB=1`) the expected outcomes written
//! in each test are checked alone.

mod common;

use std::path::{Path, PathBuf};

use common::{copy_dir, reader_binary, truncate_file as truncate, RocksOutcome};

use solistore::batch::WriteBatch;
use solistore::db::Db;
use solistore::options::{
    ColumnFamilyOptions, DbOptions, ReadOptions, WalRecoveryMode, WriteOptions,
};
use solistore::wal::reader::{LogReader, ReadOutcome};

const BATCHES: usize = 12;
const BIG: usize = 5; // this batch's value spans three 32 KiB blocks
const MODES: [WalRecoveryMode; 4] = [
    WalRecoveryMode::TolerateCorruptedTailRecords,
    WalRecoveryMode::AbsoluteConsistency,
    WalRecoveryMode::PointInTimeRecovery,
    WalRecoveryMode::SkipAnyCorruptedRecords,
];

fn cfs() -> Vec<(String, ColumnFamilyOptions)> {
    vec![
        ("default".into(), ColumnFamilyOptions::default()),
        ("cf1".into(), ColumnFamilyOptions::default()),
    ]
}

fn value(i: usize) -> Vec<u8> {
    if i == BIG {
        vec![b'B'; 80_000]
    } else {
        format!("value-{i}-{}", "x".repeat(i * 10)).into_bytes()
    }
}

/// Writes the DB: batch i puts `k<i>` in both families. Returns the WAL and the byte range
/// of each record.
fn build(dir: &Path) -> (PathBuf, Vec<(u64, u64)>) {
    let path = dir.to_string_lossy().into_owned();
    let opts = DbOptions {
        create_if_missing: true,
        create_missing_column_families: true,
        ..Default::default()
    };
    let (db, h) = Db::open_cf(&opts, &path, cfs()).expect("open");
    for i in 0..BATCHES {
        let mut b = WriteBatch::new();
        b.put(h[0].id(), format!("k{i:02}").as_bytes(), &value(i));
        b.put(h[1].id(), format!("k{i:02}").as_bytes(), &value(i));
        db.write(&WriteOptions::default(), &b).expect("write");
    }
    db.close().expect("close");
    let wal = std::fs::read_dir(dir)
        .expect("dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "log"))
        .max()
        .expect("wal");
    let mut reader = LogReader::new(
        std::fs::File::open(&wal).expect("wal"),
        0,
        WalRecoveryMode::AbsoluteConsistency,
    );
    let mut ranges = Vec::new();
    let mut rec = Vec::new();
    let mut start = 0;
    while let ReadOutcome::Record = reader.read_record(&mut rec).expect("read") {
        let end = reader.last_record_end();
        ranges.push((start, end));
        start = end;
    }
    assert_eq!(ranges.len(), BATCHES);
    (wal, ranges)
}

/// The offset of a record's first header: a record never starts in the last 6 bytes of a
/// block (they are zero padding).
fn header_at(start: u64) -> u64 {
    let in_block = start % 32768;
    if 32768 - in_block < 7 {
        start + (32768 - in_block)
    } else {
        start
    }
}

#[derive(PartialEq, Eq)]
enum Outcome {
    Error,
    Entries(Vec<(String, Vec<u8>, Vec<u8>)>),
}

/// A compact rendering: keys with value lengths (values can be 80 KB).
impl std::fmt::Debug for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outcome::Error => write!(f, "Error"),
            Outcome::Entries(e) => {
                let items: Vec<String> = e
                    .iter()
                    .map(|(cf, k, v)| format!("{cf}/{}({})", String::from_utf8_lossy(k), v.len()))
                    .collect();
                write!(f, "[{}]", items.join(" "))
            }
        }
    }
}

fn solistore_outcome(dir: &Path, mode: WalRecoveryMode) -> (Outcome, String) {
    let opts = DbOptions {
        wal_recovery_mode: mode,
        ..Default::default()
    };
    match Db::open_cf(&opts, &dir.to_string_lossy(), cfs()) {
        Err(e) => (Outcome::Error, e.to_string()),
        Ok((db, h)) => {
            let mut out = Vec::new();
            for (name, handle) in ["default", "cf1"].iter().zip(&h) {
                let mut it = db.iter(&ReadOptions::default(), handle).expect("iter");
                it.seek_to_first();
                while it.valid() {
                    out.push((name.to_string(), it.key().to_vec(), it.value().to_vec()));
                    it.next();
                }
            }
            db.close().expect("close");
            (Outcome::Entries(out), String::new())
        }
    }
}

fn rocksdb_outcome(bin: &Path, dir: &Path, mode: WalRecoveryMode) -> Outcome {
    match common::rocksdb_read(bin, dir, mode as i32, true, true) {
        RocksOutcome::OpenError(_) => Outcome::Error,
        RocksOutcome::Read { entries, .. } => Outcome::Entries(entries),
    }
}

/// The entries of batches `0..n` minus `skip`.
fn batches(n: usize, skip: &[usize]) -> Outcome {
    let mut out = Vec::new();
    for cf in ["default", "cf1"] {
        for i in (0..n).filter(|i| !skip.contains(i)) {
            out.push((cf.to_string(), format!("k{i:02}").into_bytes(), value(i)));
        }
    }
    Outcome::Entries(out)
}

/// Damages a fresh DB with `damage(wal, record ranges)`, then checks each mode against
/// `expected[mode]` and against RocksDB.
fn check(shape: &str, damage: impl Fn(&Path, &[(u64, u64)]), expected: [Outcome; 4]) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let base = tmp.path().join("base");
    let (wal, ranges) = build(&base);
    damage(&wal, &ranges);
    let bin = reader_binary();
    for (mode, want) in MODES.iter().zip(expected) {
        let ours = tmp.path().join(format!("ours-{}", *mode as i32));
        copy_dir(&base, &ours);
        let (got, msg) = solistore_outcome(&ours, *mode);
        if let Some(bin) = &bin {
            let theirs = tmp.path().join(format!("rocksdb-{}", *mode as i32));
            copy_dir(&base, &theirs);
            assert_eq!(
                got,
                rocksdb_outcome(bin, &theirs, *mode),
                "{shape}, mode {mode:?}: solistore ({msg}) and RocksDB differ"
            );
        }
        assert_eq!(got, want, "{shape}, mode {mode:?} ({msg})");
    }
}

fn flip(wal: &Path, at: u64) {
    let mut bytes = std::fs::read(wal).expect("read");
    bytes[at as usize] ^= 0x55;
    std::fs::write(wal, bytes).expect("write");
}

const LAST: usize = BATCHES - 1;
const MID: usize = 7;

#[test]
fn torn_tail() {
    check(
        "torn tail",
        |wal, r| truncate(wal, r[LAST].0 + (r[LAST].1 - r[LAST].0) / 2),
        [
            batches(LAST, &[]),
            Outcome::Error,
            batches(LAST, &[]),
            batches(LAST, &[]),
        ],
    );
}

/// Extends the WAL with zeros to the next 1 MiB boundary past its end: the tail a killed
/// process leaves in a synced WAL, whose zeros are written ahead of the appends
/// (`WritableFile::prepare_ahead`).
fn zero_tail(wal: &Path) {
    let len = std::fs::metadata(wal).expect("stat").len();
    truncate(wal, (len / (1 << 20) + 1) * (1 << 20));
}

#[test]
fn zero_tail_after_the_last_record() {
    check(
        "zero tail",
        |wal, _| zero_tail(wal),
        [
            batches(BATCHES, &[]),
            batches(BATCHES, &[]),
            batches(BATCHES, &[]),
            batches(BATCHES, &[]),
        ],
    );
}

/// A record torn by a power cut inside zeros written ahead: it is no longer at the end of
/// the file, so the strict modes see a checksum mismatch where they would have seen a
/// torn tail. Every mode but tolerate-tail has `torn_tail`'s outcome, and solistore writes
/// zeros ahead in every mode but that one. It is also what a process killed during a store
/// into a mapped WAL leaves (`WritableFile::map_appends`): there the point-in-time and
/// skip-any outcomes (the only modes that map) keep every write before the torn one, in
/// both engines.
#[test]
fn torn_record_before_a_zero_tail() {
    check(
        "torn record, zero tail",
        |wal, r| {
            truncate(wal, r[LAST].0 + (r[LAST].1 - r[LAST].0) / 2);
            zero_tail(wal);
        },
        [
            Outcome::Error,
            Outcome::Error,
            batches(LAST, &[]),
            batches(LAST, &[]),
        ],
    );
}

#[test]
fn truncated_header() {
    check(
        "truncated header",
        |wal, r| truncate(wal, header_at(r[LAST].0) + 3),
        [
            batches(LAST, &[]),
            Outcome::Error,
            batches(LAST, &[]),
            batches(LAST, &[]),
        ],
    );
}

#[test]
fn bad_checksum_in_last_record() {
    check(
        "bad checksum (last record)",
        |wal, r| flip(wal, header_at(r[LAST].0) + 20),
        [
            Outcome::Error,
            Outcome::Error,
            batches(LAST, &[]),
            batches(LAST, &[]),
        ],
    );
}

#[test]
fn bad_checksum_in_the_middle() {
    check(
        "bad checksum (middle record)",
        |wal, r| flip(wal, header_at(r[MID].0) + 20),
        // SkipAny drops the rest of the 32 KiB block too (the length field may be the
        // corrupt part), which here holds every later record.
        [
            Outcome::Error,
            Outcome::Error,
            batches(MID, &[]),
            batches(MID, &[]),
        ],
    );
}

#[test]
fn bad_record_type_in_the_middle() {
    check(
        "bad record type (middle record)",
        |wal, r| flip(wal, header_at(r[MID].0) + 6),
        [
            Outcome::Error,
            Outcome::Error,
            batches(MID, &[]),
            batches(MID, &[]),
        ],
    );
}

#[test]
fn corrupt_fragment_of_a_multi_block_record() {
    check(
        "corrupt middle fragment",
        |wal, r| flip(wal, r[BIG].0 + 40_000),
        [
            Outcome::Error,
            Outcome::Error,
            batches(BIG, &[]),
            batches(BATCHES, &[BIG]),
        ],
    );
}
