// SPDX-License-Identifier: Apache-2.0
//! `WriteBatch`: an ordered list of updates applied atomically, kept in RocksDB's exact
//! "rep" byte format (write path; also the WAL record payload read during recovery).
//!
//! ```text
//! rep       := sequence:fixed64 count:fixed32 record*      (header is 12 bytes, little-endian)
//! record    := tag:u8 fields                               (see `record.rs` for every tag)
//! varstring := len:varint32 bytes[len]
//! ```
//!
//! `sequence` is the sequence number of the first counted record (the write path assigns it
//! just before the WAL append); `count` is the number of counted records (Put, Delete,
//! SingleDelete, Merge, DeleteRange, BlobIndex, PutEntity). LogData, Noop and the transaction
//! markers are not counted. The default column family (id 0) is written with the plain tags and
//! any other family with the column-family tags, exactly as RocksDB v7.8.3 `db/write_batch.cc`
//! does, so a rep built here is byte-identical to librocksdb's for the same calls (checked by
//! `tests-c/wb_rep_dump.c`). Full description: `docs/format/write_batch.md`.
//!
//! # Design
//!
//! The batch *is* its encoding: every builder call appends to `rep`, and readers decode lazily
//! through [`Records`]. That keeps WAL append a plain copy, makes group commit
//! ([`WriteBatch::append`]) a byte concatenation, and lets a rep from a WAL or from C
//! (`rocksdb_writebatch_create_from`) be used without conversion. The alternative, a
//! `Vec<Op>` serialized on write, was rejected: it would double memory for large batches and
//! make `rocksdb_writebatch_data` (which hands out the rep) need a cache.
//!
//! Invariant: a batch made by [`WriteBatch::new`], [`WriteBatch::from_rep`] or the builder
//! methods always holds a well-formed rep whose count matches its records. Only
//! [`WriteBatch::from_rep_unchecked`] and [`WriteBatch::set_count`] can break that, so every
//! reader still validates and never panics.

mod record;

#[cfg(test)]
mod differential;
#[cfg(test)]
mod tests;

pub use record::{tag, Record, Records};

use crate::error::{Error, Result};
use crate::util::coding::put_varint32;

/// Length of the rep header: fixed64 sequence, then fixed32 count.
pub const HEADER_SIZE: usize = 12;

/// Replays a batch's records ([`WriteBatch::iterate`]).
///
/// Each method receives the record's column family id (0 for the default family). Returning
/// an error stops iteration, and `iterate` returns that error. The methods with defaults
/// mirror RocksDB's `WriteBatch::Handler` defaults where those matter (blob index, entity);
/// transaction markers and Noop are skipped by default (RocksDB's default handler returns
/// InvalidArgument for them instead; override the `mark_*` methods to get that).
pub trait Handler {
    fn put(&mut self, cf: u32, key: &[u8], value: &[u8]) -> Result<()>;
    fn delete(&mut self, cf: u32, key: &[u8]) -> Result<()>;
    fn single_delete(&mut self, cf: u32, key: &[u8]) -> Result<()>;
    fn merge(&mut self, cf: u32, key: &[u8], value: &[u8]) -> Result<()>;
    fn delete_range(&mut self, cf: u32, begin: &[u8], end: &[u8]) -> Result<()>;
    fn log_data(&mut self, _blob: &[u8]) -> Result<()> {
        Ok(())
    }
    /// A BlobDB index record. RocksDB's default text: `PutBlobIndexCF not implemented`.
    fn put_blob_index(&mut self, _cf: u32, _key: &[u8], _value: &[u8]) -> Result<()> {
        Err(Error::invalid_argument("PutBlobIndexCF not implemented"))
    }
    /// A wide-column entity record. RocksDB's default text: `PutEntityCF not implemented`.
    fn put_entity(&mut self, _cf: u32, _key: &[u8], _entity: &[u8]) -> Result<()> {
        Err(Error::not_supported("PutEntityCF not implemented"))
    }
    /// Noop and the transaction markers (BeginPrepare*, EndPrepare, Commit*, Rollback).
    /// Skipped by default.
    fn mark(&mut self, _marker: &Record<'_>) -> Result<()> {
        Ok(())
    }
}

/// Where a save point was taken: rep length and count at that moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct SavePoint {
    size: usize,
    count: u32,
}

/// A batch of updates in RocksDB's rep format. See the module docs for the layout.
///
/// # Examples
///
/// ```
/// use solistore::batch::{Record, WriteBatch};
///
/// let mut batch = WriteBatch::new();
/// batch.put(0, b"key", b"value");
/// batch.delete(2, b"old"); // column family 2
/// assert_eq!(batch.count(), 2);
///
/// // The rep is what the WAL stores; it decodes back to the same records.
/// let copy = WriteBatch::from_rep(batch.data().to_vec())?;
/// let first = copy.records().next().transpose()?;
/// assert_eq!(first, Some(Record::Put { cf: 0, key: b"key", value: b"value" }));
/// # Ok::<(), solistore::Error>(())
/// ```
#[derive(Clone)]
pub struct WriteBatch {
    /// The encoded batch: 12-byte header, then records.
    rep: Vec<u8>,
    /// Stack of save points, innermost last.
    save_points: Vec<SavePoint>,
}

impl Default for WriteBatch {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for WriteBatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WriteBatch")
            .field("sequence", &self.sequence())
            .field("count", &self.count())
            .field("size", &self.rep.len())
            .field("save_points", &self.save_points.len())
            .finish()
    }
}

/// Checks RocksDB's size limits for a key and value (`WriteBatchInternal::Put`): each must fit
/// a varint32 length.
///
/// # Errors
/// InvalidArgument `key is too large` or `value is too large`.
pub fn check_sizes(key_len: usize, value_len: usize) -> Result<()> {
    if u32::try_from(key_len).is_err() {
        return Err(Error::invalid_argument("key is too large"));
    }
    if u32::try_from(value_len).is_err() {
        return Err(Error::invalid_argument("value is too large"));
    }
    Ok(())
}

/// The varint32 length of the concatenation of `parts`. Computed before a record is
/// started, so a too-large slice panics without leaving a half-written record.
fn parts_len(parts: &[&[u8]]) -> u32 {
    let total = parts
        .iter()
        .try_fold(0usize, |acc, p| acc.checked_add(p.len()));
    total
        .and_then(|t| u32::try_from(t).ok())
        .expect("callers are expected to keep keys and values below 4 GiB (see check_sizes)")
}

/// Appends `len` as a varint32 and then the concatenation of `parts` (RocksDB's
/// `PutLengthPrefixedSliceParts`); `len` comes from [`parts_len`].
fn put_varstring_parts(dst: &mut Vec<u8>, len: u32, parts: &[&[u8]]) {
    put_varint32(dst, len);
    for p in parts {
        dst.extend_from_slice(p);
    }
}

impl WriteBatch {
    /// An empty batch: sequence 0, count 0, no records.
    pub fn new() -> Self {
        WriteBatch {
            rep: vec![0; HEADER_SIZE],
            save_points: Vec::new(),
        }
    }

    /// An empty batch with room for `bytes` bytes of records (beyond the header), so that
    /// building it does not reallocate.
    pub fn with_capacity(bytes: usize) -> Self {
        let mut rep = Vec::with_capacity(HEADER_SIZE + bytes);
        rep.extend_from_slice(&[0; HEADER_SIZE]);
        WriteBatch {
            rep,
            save_points: Vec::new(),
        }
    }

    /// Wraps an encoded rep after validating all of it: the header is present, every record
    /// is well formed with a known tag, and the count matches.
    ///
    /// # Errors
    /// Corruption with RocksDB's text, e.g. `malformed WriteBatch (too small)`,
    /// `bad WriteBatch Put`, `unknown WriteBatch tag`, `WriteBatch has wrong count`.
    pub fn from_rep(rep: Vec<u8>) -> Result<Self> {
        for record in Records::new(&rep) {
            record?;
        }
        Ok(Self::from_rep_unchecked(rep))
    }

    /// Wraps `rep` as is, like `rocksdb_writebatch_create_from`, which does not validate.
    /// Readers ([`iterate`](Self::iterate), [`records`](Self::records)) report any
    /// corruption later. If `rep` is shorter than the header, [`count`](Self::count) and
    /// [`sequence`](Self::sequence) read 0, and the first mutation pads the header with zeros.
    pub fn from_rep_unchecked(rep: Vec<u8>) -> Self {
        WriteBatch {
            rep,
            save_points: Vec::new(),
        }
    }

    /// The encoded rep (what `rocksdb_writebatch_data` returns and the WAL stores).
    pub fn data(&self) -> &[u8] {
        &self.rep
    }

    pub fn into_rep(self) -> Vec<u8> {
        self.rep
    }

    /// The header's count of counted records.
    pub fn count(&self) -> u32 {
        match self.rep.get(8..HEADER_SIZE) {
            Some(b) => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            None => 0,
        }
    }

    pub fn set_count(&mut self, n: u32) {
        self.ensure_header();
        self.rep[8..HEADER_SIZE].copy_from_slice(&n.to_le_bytes());
    }

    /// The header's sequence number: that of the first counted record.
    pub fn sequence(&self) -> u64 {
        match self.rep.get(..8) {
            Some(b) => u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
            None => 0,
        }
    }

    pub fn set_sequence(&mut self, seq: u64) {
        self.ensure_header();
        self.rep[..8].copy_from_slice(&seq.to_le_bytes());
    }

    /// True when the count is 0 and there are no records at all (not even LogData).
    pub fn is_empty(&self) -> bool {
        self.count() == 0 && self.rep.len() <= HEADER_SIZE
    }

    /// The rep's length in bytes, header included (`WriteBatch::GetDataSize`).
    pub fn size_in_bytes(&self) -> usize {
        self.rep.len()
    }

    /// Pads a short rep (only possible via `from_rep_unchecked`) to a full header.
    fn ensure_header(&mut self) {
        if self.rep.len() < HEADER_SIZE {
            self.rep.resize(HEADER_SIZE, 0);
        }
    }

    /// Starts a counted record: bumps the count and writes the tag (plain tag for cf 0,
    /// `cf_tag` and the varint32 cf id otherwise).
    fn begin_counted(&mut self, cf: u32, plain_tag: u8, cf_tag: u8) {
        self.ensure_header();
        let n = self.count().wrapping_add(1);
        self.set_count(n);
        if cf == 0 {
            self.rep.push(plain_tag);
        } else {
            self.rep.push(cf_tag);
            put_varint32(&mut self.rep, cf);
        }
    }

    /// Stores `key -> value` in column family `cf`.
    ///
    /// # Panics
    /// If `key` or `value` is 4 GiB or longer; see [`check_sizes`].
    pub fn put(&mut self, cf: u32, key: &[u8], value: &[u8]) {
        self.put_parts(cf, &[key], &[value]);
    }

    /// Removes `key` from column family `cf`.
    ///
    /// # Panics
    /// If `key` is 4 GiB or longer.
    pub fn delete(&mut self, cf: u32, key: &[u8]) {
        self.delete_parts(cf, &[key]);
    }

    /// Removes the single version of `key` written by one earlier put (RocksDB SingleDelete).
    ///
    /// # Panics
    /// If `key` is 4 GiB or longer.
    pub fn single_delete(&mut self, cf: u32, key: &[u8]) {
        self.single_delete_parts(cf, &[key]);
    }

    /// Adds a merge operand for `key`.
    ///
    /// # Panics
    /// If `key` or `value` is 4 GiB or longer.
    pub fn merge(&mut self, cf: u32, key: &[u8], value: &[u8]) {
        self.merge_parts(cf, &[key], &[value]);
    }

    /// Removes every key in `[begin, end)` of column family `cf`.
    ///
    /// # Panics
    /// If `begin` or `end` is 4 GiB or longer.
    pub fn delete_range(&mut self, cf: u32, begin: &[u8], end: &[u8]) {
        self.delete_range_parts(cf, &[begin], &[end]);
    }

    /// Appends a blob that is written to the WAL but never applied (not counted).
    ///
    /// # Panics
    /// If `blob` is 4 GiB or longer.
    pub fn put_log_data(&mut self, blob: &[u8]) {
        let len = parts_len(&[blob]);
        self.ensure_header();
        self.rep.push(tag::LOG_DATA);
        put_varstring_parts(&mut self.rep, len, &[blob]);
    }

    /// Like [`put`](Self::put) with key = concat(`key_parts`) and value = concat(`value_parts`)
    /// (RocksDB's `SliceParts` overloads, `rocksdb_writebatch_putv`).
    ///
    /// # Panics
    /// If the key or value totals 4 GiB or more.
    pub fn put_parts(&mut self, cf: u32, key_parts: &[&[u8]], value_parts: &[&[u8]]) {
        let (klen, vlen) = (parts_len(key_parts), parts_len(value_parts));
        self.begin_counted(cf, tag::VALUE, tag::CF_VALUE);
        put_varstring_parts(&mut self.rep, klen, key_parts);
        put_varstring_parts(&mut self.rep, vlen, value_parts);
    }

    /// [`delete`](Self::delete) with a gathered key.
    ///
    /// # Panics
    /// If the key totals 4 GiB or more.
    pub fn delete_parts(&mut self, cf: u32, key_parts: &[&[u8]]) {
        let klen = parts_len(key_parts);
        self.begin_counted(cf, tag::DELETION, tag::CF_DELETION);
        put_varstring_parts(&mut self.rep, klen, key_parts);
    }

    /// [`single_delete`](Self::single_delete) with a gathered key.
    ///
    /// # Panics
    /// If the key totals 4 GiB or more.
    pub fn single_delete_parts(&mut self, cf: u32, key_parts: &[&[u8]]) {
        let klen = parts_len(key_parts);
        self.begin_counted(cf, tag::SINGLE_DELETION, tag::CF_SINGLE_DELETION);
        put_varstring_parts(&mut self.rep, klen, key_parts);
    }

    /// [`delete_range`](Self::delete_range) with gathered bounds.
    ///
    /// # Panics
    /// If a bound totals 4 GiB or more.
    pub fn delete_range_parts(&mut self, cf: u32, begin_parts: &[&[u8]], end_parts: &[&[u8]]) {
        let (blen, elen) = (parts_len(begin_parts), parts_len(end_parts));
        self.begin_counted(cf, tag::RANGE_DELETION, tag::CF_RANGE_DELETION);
        put_varstring_parts(&mut self.rep, blen, begin_parts);
        put_varstring_parts(&mut self.rep, elen, end_parts);
    }

    /// [`merge`](Self::merge) with gathered key and value.
    ///
    /// # Panics
    /// If the key or value totals 4 GiB or more.
    pub fn merge_parts(&mut self, cf: u32, key_parts: &[&[u8]], value_parts: &[&[u8]]) {
        let (klen, vlen) = (parts_len(key_parts), parts_len(value_parts));
        self.begin_counted(cf, tag::MERGE, tag::CF_MERGE);
        put_varstring_parts(&mut self.rep, klen, key_parts);
        put_varstring_parts(&mut self.rep, vlen, value_parts);
    }

    /// Drops every record and save point and zeroes the header (sequence included), as
    /// RocksDB's `WriteBatch::Clear` does.
    pub fn clear(&mut self) {
        self.rep.clear();
        self.rep.resize(HEADER_SIZE, 0);
        self.save_points.clear();
    }

    /// Remembers the current size and count so a later rollback can return here. Save
    /// points nest.
    pub fn set_save_point(&mut self) {
        self.save_points.push(SavePoint {
            size: self.rep.len(),
            count: self.count(),
        });
    }

    /// Removes every record added since the most recent save point, and pops it.
    ///
    /// # Errors
    /// NotFound (empty message, printed `NotFound: `) when there is no save point.
    pub fn rollback_to_save_point(&mut self) -> Result<()> {
        let sp = self.save_points.pop().ok_or_else(|| Error::not_found(""))?;
        // Same rule as RocksDB: an unchanged size means nothing to undo (count included).
        if sp.size < self.rep.len() {
            self.rep.truncate(sp.size);
            self.set_count(sp.count);
        }
        Ok(())
    }

    /// Forgets the most recent save point without rolling back.
    ///
    /// # Errors
    /// NotFound (empty message) when there is no save point.
    pub fn pop_save_point(&mut self) -> Result<()> {
        self.save_points
            .pop()
            .map(|_| ())
            .ok_or_else(|| Error::not_found(""))
    }

    /// Appends `other`'s records after this batch's and adds its count
    /// (`WriteBatchInternal::Append`, used by group commit). This batch's sequence is kept;
    /// `other`'s header is dropped. Save points are untouched.
    pub fn append(&mut self, other: &WriteBatch) {
        self.ensure_header();
        let n = self.count().wrapping_add(other.count());
        self.set_count(n);
        if let Some(body) = other.rep.get(HEADER_SIZE..) {
            self.rep.extend_from_slice(body);
        }
    }

    /// Replays the records in order into `handler`.
    ///
    /// Transaction markers and Noop go to [`Handler::mark`], LogData to
    /// [`Handler::log_data`], BlobIndex and WideColumnEntity to their own methods.
    ///
    /// # Errors
    /// The first error a handler method returns (iteration stops there), or Corruption for a
    /// malformed rep, including `WriteBatch has wrong count` once all records were replayed
    /// without error but their number differs from the header.
    pub fn iterate(&self, handler: &mut dyn Handler) -> Result<()> {
        for record in self.records() {
            match record? {
                Record::Put { cf, key, value } => handler.put(cf, key, value)?,
                Record::Delete { cf, key } => handler.delete(cf, key)?,
                Record::SingleDelete { cf, key } => handler.single_delete(cf, key)?,
                Record::Merge { cf, key, value } => handler.merge(cf, key, value)?,
                Record::DeleteRange { cf, begin, end } => handler.delete_range(cf, begin, end)?,
                Record::LogData(blob) => handler.log_data(blob)?,
                Record::BlobIndex { cf, key, value } => handler.put_blob_index(cf, key, value)?,
                Record::WideColumnEntity { cf, key, value } => {
                    handler.put_entity(cf, key, value)?
                }
                marker @ (Record::Noop
                | Record::BeginPrepare
                | Record::BeginPersistedPrepare
                | Record::BeginUnprepare
                | Record::EndPrepare(_)
                | Record::Commit(_)
                | Record::CommitWithTimestamp { .. }
                | Record::Rollback(_)) => handler.mark(&marker)?,
            }
        }
        Ok(())
    }

    /// The records in order, each `Ok` or a final `Err` (see [`Records`]).
    pub fn records(&self) -> Records<'_> {
        Records::new(&self.rep)
    }

    /// Whether any well-formed record (up to the first malformed one) matches `pred`.
    fn any_record(&self, pred: impl Fn(&Record<'_>) -> bool) -> bool {
        self.records().map_while(|r| r.ok()).any(|r| pred(&r))
    }

    pub fn has_put(&self) -> bool {
        self.any_record(|r| matches!(r, Record::Put { .. }))
    }
    pub fn has_delete(&self) -> bool {
        self.any_record(|r| matches!(r, Record::Delete { .. }))
    }
    pub fn has_single_delete(&self) -> bool {
        self.any_record(|r| matches!(r, Record::SingleDelete { .. }))
    }
    pub fn has_merge(&self) -> bool {
        self.any_record(|r| matches!(r, Record::Merge { .. }))
    }
    pub fn has_delete_range(&self) -> bool {
        self.any_record(|r| matches!(r, Record::DeleteRange { .. }))
    }
    pub fn has_blob_index(&self) -> bool {
        self.any_record(|r| matches!(r, Record::BlobIndex { .. }))
    }
    pub fn has_put_entity(&self) -> bool {
        self.any_record(|r| matches!(r, Record::WideColumnEntity { .. }))
    }
    /// Any BeginPrepare marker (0x09, 0x12 or 0x13).
    pub fn has_begin_prepare(&self) -> bool {
        self.any_record(|r| {
            matches!(
                r,
                Record::BeginPrepare | Record::BeginPersistedPrepare | Record::BeginUnprepare
            )
        })
    }
    pub fn has_end_prepare(&self) -> bool {
        self.any_record(|r| matches!(r, Record::EndPrepare(_)))
    }
    pub fn has_commit(&self) -> bool {
        self.any_record(|r| matches!(r, Record::Commit(_) | Record::CommitWithTimestamp { .. }))
    }
    pub fn has_rollback(&self) -> bool {
        self.any_record(|r| matches!(r, Record::Rollback(_)))
    }
}
