// SPDX-License-Identifier: Apache-2.0
//! Writer/reader round trips, a corruption property test, and the `ldb dump_wal` oracle.

use std::io::Cursor;

use proptest::prelude::*;

use super::format::{BLOCK_SIZE, HEADER_SIZE, RECYCLABLE_HEADER_SIZE};
use super::testutil::MemFile;
use super::{LogReader, LogWriter, ReadOutcome, WalRecoveryMode};

const ALL_MODES: [WalRecoveryMode; 4] = [
    WalRecoveryMode::TolerateCorruptedTailRecords,
    WalRecoveryMode::AbsoluteConsistency,
    WalRecoveryMode::PointInTimeRecovery,
    WalRecoveryMode::SkipAnyCorruptedRecords,
];

/// Writes `records` with a fresh writer and returns the file's bytes.
pub(super) fn write_log(records: &[Vec<u8>], log_number: u64, recyclable: bool) -> Vec<u8> {
    let file = MemFile::default();
    let mut w = LogWriter::new(Box::new(file.clone()), log_number, recyclable);
    for r in records {
        w.add_record(r).expect("append to memory");
    }
    assert_eq!(w.file_size(), file.contents().len() as u64);
    file.contents()
}

/// The records a reader returns, and how it ended (`Ok(Eof)`, `Ok(Stop)` or `Err`).
pub(super) fn read_log(
    bytes: &[u8],
    log_number: u64,
    mode: WalRecoveryMode,
) -> (Vec<Vec<u8>>, crate::Result<ReadOutcome>) {
    let mut reader = LogReader::new(Cursor::new(bytes), log_number, mode);
    let mut records = Vec::new();
    let mut out = Vec::new();
    loop {
        match reader.read_record(&mut out) {
            Ok(ReadOutcome::Record) => records.push(out.clone()),
            end => {
                // The answer is sticky.
                assert_eq!(reader.read_record(&mut out), end);
                return (records, end);
            }
        }
    }
}

/// A payload of `len` bytes whose content depends on `seed`.
pub(super) fn payload(seed: u32, len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| {
            (i as u32)
                .wrapping_mul(31)
                .wrapping_add(seed.wrapping_mul(7919)) as u8
        })
        .collect()
}

fn round_trip(sizes: &[usize], recyclable: bool) {
    let records: Vec<Vec<u8>> = sizes
        .iter()
        .enumerate()
        .map(|(i, &n)| payload(i as u32, n))
        .collect();
    let bytes = write_log(&records, 42, recyclable);
    for mode in ALL_MODES {
        let (got, end) = read_log(&bytes, 42, mode);
        assert_eq!(end, Ok(ReadOutcome::Eof), "mode {mode:?}");
        assert_eq!(got.len(), records.len(), "mode {mode:?}");
        assert!(got == records, "mode {mode:?}: records differ");
    }
}

#[test]
fn round_trip_many_sizes() {
    let sizes = [
        0,
        1,
        2,
        100,
        BLOCK_SIZE - HEADER_SIZE, // exactly one block
        BLOCK_SIZE - HEADER_SIZE - 1,
        BLOCK_SIZE - HEADER_SIZE + 1,
        0,
        3 * BLOCK_SIZE + 17, // spans 4 blocks
        10_000,
        5 * BLOCK_SIZE,
        1,
    ];
    round_trip(&sizes, false);
    round_trip(&sizes, true);
}

#[test]
fn round_trip_record_ending_exactly_at_block_boundary() {
    // First record ends 1 header short of the boundary; the second fills the block exactly.
    let sizes = [100, BLOCK_SIZE - 2 * HEADER_SIZE - 100, 5, 0];
    let records: Vec<Vec<u8>> = sizes.iter().map(|&n| payload(n as u32, n)).collect();
    let bytes = write_log(&records, 1, false);
    // The third record starts the second block with no padding.
    assert_eq!(bytes.len(), BLOCK_SIZE + HEADER_SIZE + 5 + HEADER_SIZE);
    assert_eq!(bytes[BLOCK_SIZE + 6], 1, "a Full record at the block start");
    round_trip(&sizes, false);
}

#[test]
fn round_trip_every_tail_gap_size() {
    // Leave 0..=RECYCLABLE_HEADER_SIZE bytes at the end of the first block, then a record.
    for gap in 0..=RECYCLABLE_HEADER_SIZE + 1 {
        for recyclable in [false, true] {
            let header = if recyclable {
                RECYCLABLE_HEADER_SIZE
            } else {
                HEADER_SIZE
            };
            let first = BLOCK_SIZE - header - gap;
            round_trip(&[first, 3, BLOCK_SIZE, 0], recyclable);
        }
    }
}

#[test]
fn last_record_end_tracks_complete_records() {
    let records = vec![payload(1, 10), payload(2, BLOCK_SIZE)];
    let bytes = write_log(&records, 1, false);
    let mut reader = LogReader::new(Cursor::new(&bytes), 1, WalRecoveryMode::PointInTimeRecovery);
    let mut out = Vec::new();
    assert_eq!(reader.read_record(&mut out), Ok(ReadOutcome::Record));
    assert_eq!(reader.last_record_end(), (HEADER_SIZE + 10) as u64);
    assert_eq!(reader.read_record(&mut out), Ok(ReadOutcome::Record));
    assert_eq!(reader.last_record_end(), bytes.len() as u64);
    assert_eq!(reader.read_record(&mut out), Ok(ReadOutcome::Eof));
    assert!(out.is_empty());
}

#[test]
fn io_errors_are_returned_as_io_errors() {
    struct Failing;
    impl std::io::Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk on fire"))
        }
    }
    for mode in ALL_MODES {
        let mut reader = LogReader::new(Failing, 1, mode);
        let err = reader
            .read_record(&mut Vec::new())
            .expect_err("a read error is an error in every mode");
        assert!(err.is_io_error(), "{err}");
    }
}

#[test]
fn short_reads_are_reassembled() {
    /// A source that returns at most 5 bytes per read.
    struct Trickle<'a>(&'a [u8]);
    impl std::io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = buf.len().min(5).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
    let records = vec![payload(1, 70_000), payload(2, 3)];
    let bytes = write_log(&records, 1, false);
    let mut reader = LogReader::new(Trickle(&bytes), 1, WalRecoveryMode::AbsoluteConsistency);
    let mut out = Vec::new();
    for r in &records {
        assert_eq!(reader.read_record(&mut out), Ok(ReadOutcome::Record));
        assert!(&out == r);
    }
    assert_eq!(reader.read_record(&mut out), Ok(ReadOutcome::Eof));
}

/// Damage applied to a written log.
#[derive(Debug, Clone)]
enum Damage {
    /// XOR the byte at (position modulo length) with a non-zero mask.
    Flip(usize, u8),
    /// Cut the file at (position modulo length + 1).
    Truncate(usize),
}

fn damage_strategy() -> impl Strategy<Value = Damage> {
    prop_oneof![
        (any::<usize>(), 1u8..=255).prop_map(|(p, m)| Damage::Flip(p, m)),
        any::<usize>().prop_map(Damage::Truncate),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random flips and truncations never panic, and every record returned is one that was
    /// written, in the order written (a subsequence), in every mode.
    #[test]
    fn random_corruption_never_yields_foreign_records(
        sizes in prop::collection::vec(
            prop_oneof![0usize..64, 0usize..2000, 30_000usize..70_000], 1..8),
        recyclable in any::<bool>(),
        damage in prop::collection::vec(damage_strategy(), 1..4),
    ) {
        // Each payload starts with its index so that all are distinct.
        let records: Vec<Vec<u8>> = sizes.iter().enumerate().map(|(i, &n)| {
            let mut p = vec![i as u8];
            p.extend(payload(i as u32, n));
            p
        }).collect();
        let mut bytes = write_log(&records, 7, recyclable);
        for d in &damage {
            if bytes.is_empty() {
                break;
            }
            match *d {
                Damage::Flip(p, m) => {
                    let at = p % bytes.len();
                    bytes[at] ^= m;
                }
                Damage::Truncate(p) => bytes.truncate(p % bytes.len()),
            }
        }
        for mode in ALL_MODES {
            let (got, end) = read_log(&bytes, 7, mode);
            let mut next = 0;
            for r in &got {
                let found = records[next..].iter().position(|w| w == r);
                prop_assert!(found.is_some(), "mode {:?}: a record that was never written", mode);
                next += found.map_or(0, |f| f + 1);
            }
            match &end {
                Ok(ReadOutcome::Record) => prop_assert!(false, "a record is not an end"),
                Ok(ReadOutcome::Stop(e)) | Err(e) => {
                    prop_assert!(e.is_corruption(), "mode {:?}: {}", mode, e);
                }
                Ok(ReadOutcome::Eof) => {}
            }
            if mode == WalRecoveryMode::SkipAnyCorruptedRecords {
                prop_assert!(matches!(end, Ok(ReadOutcome::Eof)));
            }
        }
    }

    /// Arbitrary bytes never panic the reader.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..40_000)) {
        for mode in ALL_MODES {
            let _ = read_log(&bytes, 0, mode);
        }
    }
}

/// A WriteBatch rep: sequence, count, then Put(key, value) records (tag 0x01, varstrings).
fn write_batch(seq: u64, puts: &[(&[u8], &[u8])]) -> Vec<u8> {
    use crate::util::coding::{put_fixed32, put_fixed64, put_length_prefixed};
    let mut rep = Vec::new();
    put_fixed64(&mut rep, seq);
    put_fixed32(&mut rep, puts.len() as u32);
    for (k, v) in puts {
        rep.push(0x01);
        put_length_prefixed(&mut rep, k);
        put_length_prefixed(&mut rep, v);
    }
    rep
}

type KeyValue = (Vec<u8>, Vec<u8>);

/// Oracle: RocksDB 7.8.3's `ldb dump_wal` must list exactly our records. Skipped when `ldb`
/// is not installed.
#[test]
fn ldb_dump_wal_lists_our_records() {
    if std::process::Command::new("ldb")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipping: ldb is not installed");
        return;
    }
    // ldb takes the log number from the file name, so recyclable headers are checked too.
    ldb_lists_records(false);
    ldb_lists_records(true);
}

fn ldb_lists_records(recyclable: bool) {
    use crate::fs::FileSystem;
    let dir = tempfile::tempdir().expect("create a temp dir");
    let path = dir.path().join("000007.log");
    let big_value = payload(9, 2 * BLOCK_SIZE + 123); // a record spanning 3 blocks
    let batches: Vec<(u64, Vec<KeyValue>)> = vec![
        (1, vec![(b"k1".to_vec(), b"v1".to_vec())]),
        (
            2,
            vec![
                (b"k2".to_vec(), b"v2".to_vec()),
                (b"k3".to_vec(), b"".to_vec()),
            ],
        ),
        (4, vec![(b"big".to_vec(), big_value.clone())]),
        (5, vec![(b"k5".to_vec(), b"after-big".to_vec())]),
    ];
    let file = crate::fs::posix::PosixFs
        .new_writable(&path)
        .expect("create the WAL");
    let mut w = LogWriter::new(file, 7, recyclable);
    for (seq, puts) in &batches {
        let puts: Vec<(&[u8], &[u8])> = puts
            .iter()
            .map(|(k, v)| (k.as_slice(), v.as_slice()))
            .collect();
        w.add_record(&write_batch(*seq, &puts))
            .expect("append to the WAL");
    }
    w.sync().expect("sync the WAL");
    drop(w);

    let output = std::process::Command::new("ldb")
        .arg("dump_wal")
        .arg(format!("--walfile={}", path.display()))
        .arg("--print_value")
        .output()
        .expect("run ldb");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "ldb failed: {stdout}\n{stderr}");
    assert!(!stdout.contains("Corruption"), "{stdout}\n{stderr}");
    // One line per record: "seq,count,byte_size,physical_offset,ops" where ops is
    // "PUT(cf) : 0x<key> : 0x<value> " per operation.
    let lines: Vec<&str> = stdout
        .lines()
        .filter(|l| l.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .collect();
    assert_eq!(lines.len(), batches.len(), "{stdout}");
    // Our reader, on the same file, must agree on each record's bytes and offset.
    let bytes = std::fs::read(&path).expect("read the WAL back");
    let mut reader = LogReader::new(Cursor::new(&bytes), 7, WalRecoveryMode::AbsoluteConsistency);
    let mut rec = Vec::new();
    for (line, (seq, puts)) in lines.iter().zip(&batches) {
        let start = reader.last_record_end();
        assert_eq!(reader.read_record(&mut rec), Ok(ReadOutcome::Record));
        let fields: Vec<&str> = line.splitn(5, ',').collect();
        assert_eq!(fields.len(), 5, "{line}");
        assert_eq!(fields[0], seq.to_string(), "{line}");
        assert_eq!(fields[1], puts.len().to_string(), "{line}");
        assert_eq!(fields[2], rec.len().to_string(), "{line}");
        assert_eq!(fields[3], start.to_string(), "{line}");
        let ops: String = puts
            .iter()
            .map(|(k, v)| format!("PUT(0) : 0x{} : 0x{} ", hex_upper(k), hex_upper(v)))
            .collect();
        assert_eq!(fields[4], ops);
    }
    assert_eq!(reader.read_record(&mut rec), Ok(ReadOutcome::Eof));
}

fn hex_upper(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02X}")).collect()
}
