// SPDX-License-Identifier: Apache-2.0
//! The WAL / MANIFEST record reader: byte 0 picks the recovery mode (and whether corruption
//! reports are ignored, as with `paranoid_checks` off), bytes 1..5 the log number (recyclable
//! records compare it); the rest is the file. Reads every record to the end.
#![no_main]

use libfuzzer_sys::fuzz_target;
use solistore::options::WalRecoveryMode;
use solistore::wal::reader::{LogReader, ReadOutcome};

fuzz_target!(|data: &[u8]| {
    if data.len() < 5 {
        return;
    }
    let mode = WalRecoveryMode::from_i32(i32::from(data[0] & 3)).unwrap_or_default();
    let log_number = u64::from(u32::from_le_bytes([data[1], data[2], data[3], data[4]]));
    let mut reader = LogReader::new(&data[5..], log_number, mode);
    if data[0] & 4 != 0 {
        reader = reader.ignoring_corruptions();
    }
    let mut record = Vec::new();
    // A record is at least one byte of input, so the input bounds the loop.
    for _ in 0..=data.len() {
        match reader.read_record(&mut record) {
            Ok(ReadOutcome::Record) => assert!(record.len() <= data.len()),
            _ => break,
        }
    }
    let _ = (
        reader.dropped_bytes(),
        reader.corruption_count(),
        reader.last_record_end(),
    );
});
