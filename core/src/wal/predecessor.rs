// SPDX-License-Identifier: Apache-2.0
//! The predecessor record: the first record of a WAL started at a memtable switch names the
//! WAL it follows and that WAL's length at the switch, so that recovery can tell a WAL that
//! lost its unsynced tail from one that is whole (docs/format/wal.md, "The predecessor
//! record").
//!
//! # Why
//!
//! A WAL switched away from is not synced (RocksDB does not sync it either: a WAL whose
//! memtable is flushed within seconds then never reaches the disk). After a power cut its
//! tail may be gone while the next WAL's first records survived; a tail cut at a record
//! boundary reads as a complete WAL, and replaying the next WAL would leave a hole in the
//! recovered history. With the length written down, recovery sees that the predecessor
//! ended short and stops there, as at a corruption (`db/open.rs`, `recover_wals`).
//!
//! # Encoding
//!
//! A write batch of count 0 whose only record is a LogData blob: [`MAGIC`], then the
//! predecessor's number and length as varint64s. RocksDB applies LogData to nothing and
//! counts it nowhere, so its recovery, `ldb` and `sst_dump` read such a WAL as they read any
//! other. The batch carries the sequence number of the next write, so that RocksDB's own
//! point-in-time rule (a later WAL is replayed after a stop only if its first batch follows
//! on) judges it as it would that write.

use crate::batch::{Record, WriteBatch};
use crate::util::coding::{put_varint64, Decoder};

/// The blob's first bytes; a user's LogData blob that starts with them and parses as a
/// predecessor record would be taken for one.
const MAGIC: &[u8] = b"solistore.wal.predecessor.v1:";

/// What a predecessor record says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Predecessor {
    /// The WAL switched away from.
    pub number: u64,
    /// Its length at the switch: the end of its last record.
    pub length: u64,
}

/// The record's payload (a write batch's bytes), with `next_sequence` as its sequence.
pub fn encode(next_sequence: u64, prev: Predecessor) -> Vec<u8> {
    let mut blob = MAGIC.to_vec();
    put_varint64(&mut blob, prev.number);
    put_varint64(&mut blob, prev.length);
    let mut batch = WriteBatch::new();
    batch.put_log_data(&blob);
    batch.set_sequence(next_sequence);
    batch.into_rep()
}

/// The predecessor a replayed batch names, or None when it is any other batch.
pub fn decode(batch: &WriteBatch) -> Option<Predecessor> {
    if batch.count() != 0 {
        return None;
    }
    let mut records = batch.records();
    let Some(Ok(Record::LogData(blob))) = records.next() else {
        return None;
    };
    if records.next().is_some() {
        return None;
    }
    let mut rest = Decoder::new(blob.strip_prefix(MAGIC)?);
    let number = rest.varint64()?;
    let length = rest.varint64()?;
    rest.is_empty().then_some(Predecessor { number, length })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_reads_back_and_other_batches_are_not_records() {
        let prev = Predecessor {
            number: 17,
            length: 1 << 33,
        };
        let rep = encode(905, prev);
        let batch = WriteBatch::from_rep(rep).expect("a valid batch");
        assert_eq!(batch.sequence(), 905);
        assert_eq!(batch.count(), 0);
        assert_eq!(decode(&batch), Some(prev));

        let mut user = WriteBatch::new();
        user.put_log_data(b"solistore.wal.predecessor.v1:");
        assert_eq!(decode(&user), None, "no varints after the magic");
        let mut with_put = WriteBatch::from_rep(encode(1, prev)).expect("valid");
        with_put.put(0, b"k", b"v");
        assert_eq!(decode(&with_put), None, "a counted record besides the blob");
        let mut two = WriteBatch::from_rep(encode(1, prev)).expect("valid");
        two.put_log_data(b"more");
        assert_eq!(decode(&two), None, "a second blob");
        let mut trailing = MAGIC.to_vec();
        put_varint64(&mut trailing, 1);
        put_varint64(&mut trailing, 2);
        trailing.push(0);
        let mut b = WriteBatch::new();
        b.put_log_data(&trailing);
        assert_eq!(decode(&b), None, "bytes after the length");
    }
}
