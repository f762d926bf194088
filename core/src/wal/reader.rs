// SPDX-License-Identifier: Apache-2.0
//! Log reader (recovery path: WAL replay and MANIFEST replay): reassembles logical records
//! from physical ones and decides, per [`WalRecoveryMode`], what a damaged file means.
//! Facts checked against RocksDB v7.8.3 `db/log_reader.cc` (classification, texts) and
//! `db/db_impl/db_impl_open.cc` (`RecoverLogFiles`: what a reported corruption does per mode).
//!
//! Two layers, as in RocksDB:
//! - `read_physical` reads one block (32 KiB) at a time and classifies the next physical
//!   record: a good record, end of file, a truncated header, a length that overruns the
//!   buffered block, a checksum mismatch, zero-type padding, or an old record of a recycled
//!   log (recyclable type whose stored log number is not this file's).
//! - `read_record` assembles First/Middle/Last fragments and *reports* corruptions. RocksDB's
//!   recovery stops at the first reported corruption unless the mode is
//!   `SkipAnyCorruptedRecords`: `TolerateCorruptedTailRecords` and `AbsoluteConsistency` then
//!   fail open, `PointInTimeRecovery` stops replay. So the first report becomes this reader's
//!   final answer (`Err(Corruption)` or `Ok(Stop)`), and in skip mode reports are only counted.
//!   Whether a torn tail is reported at all depends on the mode (see `docs/format/wal.md`).
//!
//! Memory: one block buffer plus the caller's record buffer; a length field is never trusted
//! for allocation (it can at most point inside the buffered block).

use std::io::{ErrorKind, Read};

use super::format::{record_checksum, RECORD_TYPE_SAFE_IGNORE_MASK, RECYCLABLE_HEADER_SIZE};
use super::format::{uses_recyclable_header, RecordType, BLOCK_SIZE, HEADER_SIZE};
use crate::error::{Error, Result};
pub use crate::options::WalRecoveryMode;

/// What [`LogReader::read_record`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadOutcome {
    /// A complete logical record (its bytes are in `out`).
    Record,
    /// End of the log (including a tail the mode tolerates).
    Eof,
    /// PointInTimeRecovery: replay must stop here (open still succeeds); carries what was wrong.
    Stop(Error),
}

/// How many corruption descriptions are kept; later ones are only counted.
const MAX_KEPT_CORRUPTIONS: usize = 64;

/// Classification of the next physical record (`ReadPhysicalRecord`'s extended types).
enum Physical {
    /// A record whose checksum matched: raw type byte and the payload's range in `block`.
    Record { t: u8, start: usize, len: usize },
    /// End of file with nothing buffered.
    Eof,
    /// Fewer bytes than a header were left at end of file.
    BadHeader { drop: usize },
    /// Zero-type padding, or (skip mode) an old record; nothing is reported for it.
    BadRecord,
    /// The length runs past the buffered data (`bad_len`) or the checksum did not match; the
    /// rest of the buffered block was dropped, since the length itself may be corrupt.
    Damaged { drop: usize, bad_len: bool },
    /// A recyclable record stamped with another log number.
    OldRecord,
    /// Zero padding with data after it (`zero_padding_ends_log` only): a block lost between
    /// records written later, a hole in the history.
    ZerosBeforeData,
}

/// Reads logical records from a log file, one block at a time.
pub struct LogReader<R: Read> {
    src: R,
    /// Low 32 bits are compared with recyclable headers.
    log_number: u64,
    mode: WalRecoveryMode,
    /// One block; `block[pos..len]` is not yet consumed.
    block: Vec<u8>,
    pos: usize,
    len: usize,
    /// The last read from `src` returned less than a block.
    eof: bool,
    /// File offset just past `block[..len]`.
    end_of_buffer_offset: u64,
    /// The file starts with a recyclable record (it is a reused log).
    recycled: bool,
    first_record_read: bool,
    compression_record_read: bool,
    last_record_end: u64,
    dropped_bytes: u64,
    corruptions: Vec<String>,
    corruption_count: u64,
    /// Corruption reports are only counted, whatever the mode (RocksDB's reporter without a
    /// status: WAL replay with `paranoid_checks` off).
    ignore_reports: bool,
    /// Once the reader has answered Eof, Stop or an error it keeps answering the same.
    finished: Option<Result<ReadOutcome>>,
}

impl<R: Read> LogReader<R> {
    /// `log_number`: the file's number (recyclable records with another number are old data).
    /// The MANIFEST is read with `(src, 0, TolerateCorruptedTailRecords)`.
    pub fn new(src: R, log_number: u64, mode: WalRecoveryMode) -> Self {
        LogReader {
            src,
            log_number,
            mode,
            block: vec![0u8; BLOCK_SIZE],
            pos: 0,
            len: 0,
            eof: false,
            end_of_buffer_offset: 0,
            recycled: false,
            first_record_read: false,
            compression_record_read: false,
            last_record_end: 0,
            dropped_bytes: 0,
            corruptions: Vec::new(),
            corruption_count: 0,
            ignore_reports: false,
            finished: None,
        }
    }

    /// Makes corruption reports only counted, never ending the read, while the mode still
    /// decides what ends the log (a torn tail, an old record). This is how RocksDB replays
    /// WALs with `paranoid_checks` off: its log reporter then has no status to set, so each
    /// damaged record is dropped and replay goes on.
    pub fn ignoring_corruptions(mut self) -> Self {
        self.ignore_reports = true;
        self
    }

    /// Reads the next logical record into `out` (cleared first).
    ///
    /// Dropped or skipped records (skip mode, tolerated tails) are not returned. After the
    /// first non-`Record` answer every later call gives the same answer.
    ///
    /// # Errors
    /// `Corruption` when the mode says open must fail; I/O errors from `src` as `IoError`;
    /// `NotSupported` for a compressed WAL (a SetCompression record naming a compression).
    pub fn read_record(&mut self, out: &mut Vec<u8>) -> Result<ReadOutcome> {
        out.clear();
        if let Some(done) = &self.finished {
            return done.clone();
        }
        let res = self.read_logical(out);
        if !matches!(res, Ok(ReadOutcome::Record)) {
            out.clear();
            self.finished = Some(res.clone());
        }
        res
    }

    /// Bytes dropped so far (as reported with each corruption).
    pub fn dropped_bytes(&self) -> u64 {
        self.dropped_bytes
    }

    /// Descriptions of the corruptions seen, in order (the first 64 are kept).
    pub fn corruptions(&self) -> &[String] {
        &self.corruptions
    }

    /// How many corruptions were seen in total.
    pub fn corruption_count(&self) -> u64 {
        self.corruption_count
    }

    /// Offset just past the last complete record returned (or SetCompression record read).
    pub fn last_record_end(&self) -> u64 {
        self.last_record_end
    }

    /// File offset of the next unconsumed byte.
    fn offset(&self) -> u64 {
        self.end_of_buffer_offset - (self.len - self.pos) as u64
    }

    /// Whether zero padding (a zero header) ends the log: in point-in-time recovery and
    /// absolute consistency, unless reports are ignored. Neither engine's writer puts a
    /// zero header before data: zeros are the space a synced solistore WAL wrote ahead of
    /// its appends (docs/format/wal.md §7). Data after them means blocks written later
    /// reached the disk and an earlier one did not, and replaying on, as RocksDB's reader
    /// does, would recover later writes without the lost ones. So the rest of the file is
    /// read: all zeros is the end of the log; anything else ends point-in-time recovery
    /// there and fails absolute consistency, as other damage does.
    fn zero_padding_ends_log(&self) -> bool {
        !self.ignore_reports
            && matches!(
                self.mode,
                WalRecoveryMode::AbsoluteConsistency | WalRecoveryMode::PointInTimeRecovery
            )
    }

    /// Consumes the rest of the file; true when it holds only zeros.
    fn rest_is_zero(&mut self) -> Result<bool> {
        loop {
            if self.block[self.pos..self.len].iter().any(|&b| b != 0) {
                self.pos = self.len;
                return Ok(false);
            }
            self.pos = self.len;
            if self.eof {
                return Ok(true);
            }
            self.read_more()?;
        }
    }

    fn strict_tail(&self) -> bool {
        matches!(
            self.mode,
            WalRecoveryMode::AbsoluteConsistency | WalRecoveryMode::PointInTimeRecovery
        )
    }

    /// Records a corruption and says whether reading must end now (every mode but skip, unless
    /// reports are ignored).
    fn report(&mut self, bytes: usize, reason: &str) -> Option<Result<ReadOutcome>> {
        self.dropped_bytes += bytes as u64;
        self.corruption_count += 1;
        if self.corruptions.len() < MAX_KEPT_CORRUPTIONS {
            self.corruptions
                .push(format!("dropping {bytes} bytes; Corruption: {reason}"));
        }
        if self.ignore_reports {
            return None;
        }
        let err = Error::corruption(reason);
        match self.mode {
            WalRecoveryMode::SkipAnyCorruptedRecords => None,
            WalRecoveryMode::PointInTimeRecovery => Some(Ok(ReadOutcome::Stop(err))),
            WalRecoveryMode::TolerateCorruptedTailRecords
            | WalRecoveryMode::AbsoluteConsistency => Some(Err(err)),
        }
    }

    fn read_logical(&mut self, out: &mut Vec<u8>) -> Result<ReadOutcome> {
        // Reports either end the read (strict modes) or are only counted (skip mode).
        macro_rules! report {
            ($bytes:expr, $reason:expr) => {
                if let Some(done) = self.report($bytes, $reason) {
                    return done;
                }
            };
        }
        let mut in_fragment = false;
        loop {
            match self.read_physical()? {
                Physical::Record { t, start, len } => {
                    let fragment = start..start + len;
                    match RecordType::from_u8(t) {
                        Some(RecordType::Full | RecordType::RecyclableFull) => {
                            if in_fragment && !out.is_empty() {
                                report!(out.len(), "partial record without end(1)");
                            }
                            out.clear();
                            out.extend_from_slice(&self.block[fragment]);
                            return Ok(self.record_done());
                        }
                        Some(RecordType::First | RecordType::RecyclableFirst) => {
                            if in_fragment && !out.is_empty() {
                                report!(out.len(), "partial record without end(2)");
                            }
                            out.clear();
                            out.extend_from_slice(&self.block[fragment]);
                            in_fragment = true;
                        }
                        Some(RecordType::Middle | RecordType::RecyclableMiddle) => {
                            if in_fragment {
                                out.extend_from_slice(&self.block[fragment]);
                            } else {
                                report!(len, "missing start of fragmented record(1)");
                            }
                        }
                        Some(RecordType::Last | RecordType::RecyclableLast) => {
                            if in_fragment {
                                out.extend_from_slice(&self.block[fragment]);
                                return Ok(self.record_done());
                            }
                            report!(len, "missing start of fragmented record(2)");
                        }
                        Some(RecordType::SetCompression) => {
                            if self.compression_record_read {
                                report!(len, "read multiple SetCompressionType records");
                            }
                            if self.first_record_read {
                                report!(len, "SetCompressionType not the first record");
                            }
                            out.clear();
                            self.last_record_end = self.offset();
                            let body = &self.block[fragment];
                            if body.len() < 4 {
                                report!(len, "could not decode SetCompressionType record");
                            } else {
                                let kind = u32::from_le_bytes([body[0], body[1], body[2], body[3]]);
                                if kind != 0 {
                                    return Err(Error::not_supported(format!(
                                        "WAL compression type {kind} is not supported"
                                    )));
                                }
                                self.compression_record_read = true;
                            }
                        }
                        None if t & RECORD_TYPE_SAFE_IGNORE_MASK != 0 => {
                            // 11.1.2's ignorable kinds (predecessor-WAL info): not data.
                            in_fragment = false;
                            out.clear();
                        }
                        Some(RecordType::Zero) | None => {
                            // NOTE: 7.8.3 mistakes types 10 to 15 for its internal codes
                            // (10 reads as end of file, 11 is dropped silently, ...); any
                            // unknown type is corruption here (docs/format/wal.md).
                            let bytes = len + if in_fragment { out.len() } else { 0 };
                            report!(bytes, &format!("unknown record type {t}"));
                            in_fragment = false;
                            out.clear();
                        }
                    }
                }
                Physical::BadHeader { drop } => {
                    if self.strict_tail() {
                        report!(drop, "truncated header");
                    }
                    return self.tail_eof(in_fragment, out.len());
                }
                Physical::Eof => return self.tail_eof(in_fragment, out.len()),
                Physical::ZerosBeforeData => {
                    // Only where a report ends the read (`zero_padding_ends_log`).
                    let pending = if in_fragment { out.len() } else { 0 };
                    report!(pending, "zeros before the end of the log");
                    return Ok(ReadOutcome::Eof);
                }
                Physical::OldRecord if self.mode != WalRecoveryMode::SkipAnyCorruptedRecords => {
                    // Data from the file's previous life: the log ends here.
                    return self.tail_eof(in_fragment, out.len());
                }
                Physical::OldRecord | Physical::BadRecord => {
                    if in_fragment {
                        report!(out.len(), "error in middle of record");
                        in_fragment = false;
                        out.clear();
                    }
                }
                Physical::Damaged {
                    drop,
                    bad_len: true,
                } if self.eof => {
                    if self.strict_tail() {
                        report!(drop, "truncated record body");
                    }
                    return Ok(ReadOutcome::Eof);
                }
                Physical::Damaged { drop, bad_len } => {
                    if self.recycled && self.mode == WalRecoveryMode::TolerateCorruptedTailRecords {
                        // A reused log: the damage is where new data meets old.
                        return Ok(ReadOutcome::Eof);
                    }
                    let reason = if bad_len {
                        "bad record length"
                    } else {
                        "checksum mismatch"
                    };
                    report!(drop, reason);
                    if in_fragment {
                        report!(out.len(), "error in middle of record");
                        in_fragment = false;
                        out.clear();
                    }
                }
            }
        }
    }

    /// End of the readable log. An unfinished fragmented record is a torn tail: reported in
    /// the strict modes, silently dropped otherwise.
    fn tail_eof(&mut self, in_fragment: bool, pending: usize) -> Result<ReadOutcome> {
        if in_fragment && self.strict_tail() {
            // The pending fragments are dropped; `read_record` clears `out`.
            if let Some(done) = self.report(pending, "error reading trailing data") {
                return done;
            }
        }
        Ok(ReadOutcome::Eof)
    }

    /// Classifies the next physical record, reading blocks as needed.
    fn read_physical(&mut self) -> Result<Physical> {
        loop {
            let avail = self.len - self.pos;
            if avail < HEADER_SIZE {
                if let Some(end) = self.read_more()? {
                    return Ok(end);
                }
                continue;
            }
            let h = &self.block[self.pos..self.len];
            let length = usize::from(u16::from_le_bytes([h[4], h[5]]));
            let t = h[6];
            let mut header_size = HEADER_SIZE;
            if uses_recyclable_header(t) {
                if self.offset() == 0 {
                    self.recycled = true;
                }
                header_size = RECYCLABLE_HEADER_SIZE;
                if avail < RECYCLABLE_HEADER_SIZE {
                    if let Some(end) = self.read_more()? {
                        return Ok(end);
                    }
                    continue;
                }
                let stamped = u32::from_le_bytes([h[7], h[8], h[9], h[10]]);
                if stamped != self.log_number as u32 {
                    // Skip it (only skip mode reads on past an old record).
                    self.pos += (header_size + length).min(avail);
                    return Ok(Physical::OldRecord);
                }
            }
            if header_size + length > avail {
                self.pos = self.len;
                return Ok(Physical::Damaged {
                    drop: avail,
                    bad_len: true,
                });
            }
            if t == RecordType::Zero as u8 && length == 0 {
                // A block's last 7 to 10 bytes are zeros where an 11-byte header did not fit
                // (recyclable logs): a trailer, not the end.
                if avail >= RECYCLABLE_HEADER_SIZE && self.zero_padding_ends_log() {
                    return if self.rest_is_zero()? {
                        Ok(Physical::Eof)
                    } else {
                        Ok(Physical::ZerosBeforeData)
                    };
                }
                // Preallocated (zeroed) space: skip the rest of the block, report nothing.
                self.pos = self.len;
                return Ok(Physical::BadRecord);
            }
            let stored = u32::from_le_bytes([h[0], h[1], h[2], h[3]]);
            let lognum = (header_size == RECYCLABLE_HEADER_SIZE)
                .then(|| u32::from_le_bytes([h[7], h[8], h[9], h[10]]));
            let payload = &h[header_size..header_size + length];
            if record_checksum(t, lognum, payload) != stored {
                self.pos = self.len;
                return Ok(Physical::Damaged {
                    drop: avail,
                    bad_len: false,
                });
            }
            let start = self.pos + header_size;
            self.pos = start + length;
            return Ok(Physical::Record {
                t,
                start,
                len: length,
            });
        }
    }

    /// Refills the buffer with the next block. Returns `None` when more data was read, or the
    /// end-of-file classification: `Eof`, or `BadHeader` when a partial header was left over.
    fn read_more(&mut self) -> Result<Option<Physical>> {
        if !self.eof {
            // After a full block, whatever is left is the zero trailer: skip it.
            let mut filled = 0;
            while filled < BLOCK_SIZE {
                match self.src.read(&mut self.block[filled..]) {
                    Ok(0) => break,
                    Ok(n) => filled += n,
                    Err(e) if e.kind() == ErrorKind::Interrupted => {}
                    Err(e) => {
                        self.pos = 0;
                        self.len = 0;
                        return Err(Error::io_error(format!("While reading log file: {e}")));
                    }
                }
            }
            self.pos = 0;
            self.len = filled;
            self.end_of_buffer_offset += filled as u64;
            if filled < BLOCK_SIZE {
                self.eof = true;
            }
            return Ok(None);
        }
        let left = self.len - self.pos;
        self.pos = self.len;
        Ok(Some(if left > 0 {
            Physical::BadHeader { drop: left }
        } else {
            Physical::Eof
        }))
    }

    fn record_done(&mut self) -> ReadOutcome {
        self.last_record_end = self.offset();
        self.first_record_read = true;
        ReadOutcome::Record
    }
}
