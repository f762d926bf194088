// SPDX-License-Identifier: Apache-2.0
//! Decoding of WriteBatch records (write path and WAL recovery).
//!
//! Owns the tag bytes, the [`Record`] view of one record and the [`Records`] cursor that walks
//! a rep, validates it and reports RocksDB's corruption texts. The grammar, checked against
//! RocksDB v7.8.3 `db/write_batch.cc` (`ReadRecordFromWriteBatch`,
//! `WriteBatchInternal::Iterate`) and `db/dbformat.h` (`ValueType`), is:
//!
//! ```text
//! record := 0x01 key value                  Put                       (counted)
//!         | 0x05 cf key value               Put, column family        (counted)
//!         | 0x00 key                        Delete                    (counted)
//!         | 0x04 cf key                     Delete, column family     (counted)
//!         | 0x07 key                        SingleDelete              (counted)
//!         | 0x08 cf key                     SingleDelete, cf          (counted)
//!         | 0x02 key value                  Merge                     (counted)
//!         | 0x06 cf key value               Merge, column family      (counted)
//!         | 0x0F begin end                  DeleteRange               (counted)
//!         | 0x0E cf begin end               DeleteRange, cf           (counted)
//!         | 0x11 key blob_index             BlobIndex                 (counted)
//!         | 0x10 cf key blob_index          BlobIndex, cf             (counted)
//!         | 0x16 key entity                 WideColumnEntity          (counted)
//!         | 0x17 cf key entity              WideColumnEntity, cf      (counted)
//!         | 0x03 blob                       LogData                   (not counted)
//!         | 0x0D                            Noop                      (not counted)
//!         | 0x09 | 0x12 | 0x13              BeginPrepare variants     (not counted)
//!         | 0x0A xid                        EndPrepare                (not counted)
//!         | 0x0B xid                        Commit                    (not counted)
//!         | 0x15 commit_ts xid              Commit with timestamp     (not counted)
//!         | 0x0C xid                        Rollback                  (not counted)
//! cf     := varint32
//! key, value, begin, end, blob, xid, ... := varint32 length, bytes
//! ```
//!
//! Any other tag, including 11.x's 0x18/0x19 (TimedPut), is "unknown WriteBatch tag", as in
//! 7.8.3. See `docs/format/write_batch.md`.

use super::HEADER_SIZE;
use crate::error::{Error, Result};

/// Tag bytes of WriteBatch records (`db/dbformat.h` `ValueType`, v7.8.3).
pub mod tag {
    pub const DELETION: u8 = 0x00;
    pub const VALUE: u8 = 0x01;
    pub const MERGE: u8 = 0x02;
    pub const LOG_DATA: u8 = 0x03;
    pub const CF_DELETION: u8 = 0x04;
    pub const CF_VALUE: u8 = 0x05;
    pub const CF_MERGE: u8 = 0x06;
    pub const SINGLE_DELETION: u8 = 0x07;
    pub const CF_SINGLE_DELETION: u8 = 0x08;
    pub const BEGIN_PREPARE_XID: u8 = 0x09;
    pub const END_PREPARE_XID: u8 = 0x0A;
    pub const COMMIT_XID: u8 = 0x0B;
    pub const ROLLBACK_XID: u8 = 0x0C;
    pub const NOOP: u8 = 0x0D;
    pub const CF_RANGE_DELETION: u8 = 0x0E;
    pub const RANGE_DELETION: u8 = 0x0F;
    pub const CF_BLOB_INDEX: u8 = 0x10;
    pub const BLOB_INDEX: u8 = 0x11;
    pub const BEGIN_PERSISTED_PREPARE_XID: u8 = 0x12;
    pub const BEGIN_UNPREPARE_XID: u8 = 0x13;
    pub const COMMIT_XID_AND_TIMESTAMP: u8 = 0x15;
    pub const WIDE_COLUMN_ENTITY: u8 = 0x16;
    pub const CF_WIDE_COLUMN_ENTITY: u8 = 0x17;
}

/// One decoded record, borrowing its slices from the rep.
///
/// The default column family is `cf == 0` whether the record used the plain tag or the
/// column-family tag with an explicit 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Record<'a> {
    Put {
        cf: u32,
        key: &'a [u8],
        value: &'a [u8],
    },
    Delete {
        cf: u32,
        key: &'a [u8],
    },
    SingleDelete {
        cf: u32,
        key: &'a [u8],
    },
    Merge {
        cf: u32,
        key: &'a [u8],
        value: &'a [u8],
    },
    /// Deletes `[begin, end)`.
    DeleteRange {
        cf: u32,
        begin: &'a [u8],
        end: &'a [u8],
    },
    /// A blob the application attached to the WAL; never applied to the DB.
    LogData(&'a [u8]),
    Noop,
    /// Tag 0x09 (WriteCommitted transactions).
    BeginPrepare,
    /// Tag 0x12 (WritePrepared transactions).
    BeginPersistedPrepare,
    /// Tag 0x13 (WriteUnprepared transactions).
    BeginUnprepare,
    EndPrepare(&'a [u8]),
    Commit(&'a [u8]),
    CommitWithTimestamp {
        xid: &'a [u8],
        commit_ts: &'a [u8],
    },
    Rollback(&'a [u8]),
    /// A BlobDB index entry; `value` is the encoded blob index.
    BlobIndex {
        cf: u32,
        key: &'a [u8],
        value: &'a [u8],
    },
    /// A PutEntity record; `value` is the serialized wide-column entity.
    WideColumnEntity {
        cf: u32,
        key: &'a [u8],
        value: &'a [u8],
    },
}

impl Record<'_> {
    /// Whether the record consumes a sequence number and counts toward the header's count.
    pub fn is_counted(&self) -> bool {
        matches!(
            self,
            Record::Put { .. }
                | Record::Delete { .. }
                | Record::SingleDelete { .. }
                | Record::Merge { .. }
                | Record::DeleteRange { .. }
                | Record::BlobIndex { .. }
                | Record::WideColumnEntity { .. }
        )
    }

    /// The column family a data record applies to; `None` for LogData, Noop and markers.
    pub fn column_family(&self) -> Option<u32> {
        match *self {
            Record::Put { cf, .. }
            | Record::Delete { cf, .. }
            | Record::SingleDelete { cf, .. }
            | Record::Merge { cf, .. }
            | Record::DeleteRange { cf, .. }
            | Record::BlobIndex { cf, .. }
            | Record::WideColumnEntity { cf, .. } => Some(cf),
            _ => None,
        }
    }
}

/// Reads a varint32 the way RocksDB's `GetVarint32Ptr` does: at most five bytes, and bits
/// beyond 32 in the fifth byte are dropped rather than rejected.
fn varint32(input: &mut &[u8]) -> Option<u32> {
    let mut result: u32 = 0;
    for (i, &byte) in input.iter().enumerate().take(5) {
        let shift = 7 * i as u32;
        result |= u32::from(byte & 0x7f).wrapping_shl(shift);
        if byte & 0x80 == 0 {
            *input = input.get(i + 1..)?;
            return Some(result);
        }
    }
    None
}

/// Reads a varint32 length and that many bytes.
fn varstring<'a>(input: &mut &'a [u8]) -> Option<&'a [u8]> {
    let mut rest = *input;
    let len = varint32(&mut rest)? as usize;
    if rest.len() < len {
        return None;
    }
    let (bytes, tail) = rest.split_at(len);
    *input = tail;
    Some(bytes)
}

/// Reads `[cf] a b` for a two-slice record; `cf_tag` says whether a cf id is present.
fn two<'a>(input: &mut &'a [u8], cf_tag: bool, what: &str) -> Result<(u32, &'a [u8], &'a [u8])> {
    let bad = || Error::corruption(format!("bad WriteBatch {what}"));
    let cf = if cf_tag {
        varint32(input).ok_or_else(bad)?
    } else {
        0
    };
    let a = varstring(input).ok_or_else(bad)?;
    let b = varstring(input).ok_or_else(bad)?;
    Ok((cf, a, b))
}

/// Reads `[cf] key` for a delete-like record.
fn one<'a>(input: &mut &'a [u8], cf_tag: bool) -> Result<(u32, &'a [u8])> {
    let bad = || Error::corruption("bad WriteBatch Delete");
    let cf = if cf_tag {
        varint32(input).ok_or_else(bad)?
    } else {
        0
    };
    let key = varstring(input).ok_or_else(bad)?;
    Ok((cf, key))
}

/// Decodes the record at the front of `input` (which must be non-empty) and advances past
/// it. Errors carry the texts of 7.8.3 `ReadRecordFromWriteBatch`.
pub(crate) fn read_record<'a>(input: &mut &'a [u8]) -> Result<Record<'a>> {
    let Some((&t, rest)) = input.split_first() else {
        return Err(Error::corruption("malformed WriteBatch (too small)"));
    };
    *input = rest;
    let xid =
        |input: &mut &'a [u8], msg: &str| varstring(input).ok_or_else(|| Error::corruption(msg));
    let record = match t {
        tag::VALUE | tag::CF_VALUE => {
            let (cf, key, value) = two(input, t == tag::CF_VALUE, "Put")?;
            Record::Put { cf, key, value }
        }
        tag::DELETION | tag::CF_DELETION => {
            let (cf, key) = one(input, t == tag::CF_DELETION)?;
            Record::Delete { cf, key }
        }
        tag::SINGLE_DELETION | tag::CF_SINGLE_DELETION => {
            let (cf, key) = one(input, t == tag::CF_SINGLE_DELETION)?;
            Record::SingleDelete { cf, key }
        }
        tag::MERGE | tag::CF_MERGE => {
            let (cf, key, value) = two(input, t == tag::CF_MERGE, "Merge")?;
            Record::Merge { cf, key, value }
        }
        tag::RANGE_DELETION | tag::CF_RANGE_DELETION => {
            let (cf, begin, end) = two(input, t == tag::CF_RANGE_DELETION, "DeleteRange")?;
            Record::DeleteRange { cf, begin, end }
        }
        tag::BLOB_INDEX | tag::CF_BLOB_INDEX => {
            let (cf, key, value) = two(input, t == tag::CF_BLOB_INDEX, "BlobIndex")?;
            Record::BlobIndex { cf, key, value }
        }
        tag::WIDE_COLUMN_ENTITY | tag::CF_WIDE_COLUMN_ENTITY => {
            let (cf, key, value) = two(input, t == tag::CF_WIDE_COLUMN_ENTITY, "PutEntity")?;
            Record::WideColumnEntity { cf, key, value }
        }
        tag::LOG_DATA => Record::LogData(xid(input, "bad WriteBatch Blob")?),
        tag::NOOP => Record::Noop,
        tag::BEGIN_PREPARE_XID => Record::BeginPrepare,
        tag::BEGIN_PERSISTED_PREPARE_XID => Record::BeginPersistedPrepare,
        tag::BEGIN_UNPREPARE_XID => Record::BeginUnprepare,
        tag::END_PREPARE_XID => Record::EndPrepare(xid(input, "bad EndPrepare XID")?),
        tag::COMMIT_XID => Record::Commit(xid(input, "bad Commit XID")?),
        tag::COMMIT_XID_AND_TIMESTAMP => {
            let commit_ts = xid(input, "bad commit timestamp")?;
            let xid = xid(input, "bad Commit XID")?;
            Record::CommitWithTimestamp { xid, commit_ts }
        }
        tag::ROLLBACK_XID => Record::Rollback(xid(input, "bad Rollback XID")?),
        _ => return Err(Error::corruption("unknown WriteBatch tag")),
    };
    Ok(record)
}

/// A cursor over a rep's records, returned by [`super::WriteBatch::records`].
///
/// Yields `Ok(record)` for each well-formed record in order. It yields one `Err` and then
/// stops when the rep is shorter than the header ("malformed WriteBatch (too small)"), when a
/// record is malformed ("bad WriteBatch Put", "unknown WriteBatch tag", ...), or, after the
/// last record, when the number of counted records differs from the header's count
/// ("WriteBatch has wrong count").
#[derive(Debug, Clone)]
pub struct Records<'a> {
    input: &'a [u8],
    expected: u32,
    found: u64,
    done: bool,
    header_ok: bool,
}

impl<'a> Records<'a> {
    pub(crate) fn new(rep: &'a [u8]) -> Self {
        match (rep.get(HEADER_SIZE..), rep.get(8..12)) {
            (Some(body), Some(count)) => Records {
                input: body,
                expected: u32::from_le_bytes([count[0], count[1], count[2], count[3]]),
                found: 0,
                done: false,
                header_ok: true,
            },
            _ => Records {
                input: &[],
                expected: 0,
                found: 0,
                done: false,
                header_ok: false,
            },
        }
    }

    /// The bytes after the last record returned.
    pub fn remaining(&self) -> &'a [u8] {
        self.input
    }
}

impl<'a> Iterator for Records<'a> {
    type Item = Result<Record<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        if !self.header_ok {
            self.done = true;
            return Some(Err(Error::corruption("malformed WriteBatch (too small)")));
        }
        if self.input.is_empty() {
            self.done = true;
            if self.found != u64::from(self.expected) {
                return Some(Err(Error::corruption("WriteBatch has wrong count")));
            }
            return None;
        }
        match read_record(&mut self.input) {
            Ok(record) => {
                if record.is_counted() {
                    self.found += 1;
                }
                Some(Ok(record))
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}
