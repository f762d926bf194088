// SPDX-License-Identifier: Apache-2.0
//! Log writer (write path for the WAL, metadata path for the MANIFEST): splits each logical
//! record into physical records that fit RocksDB's 32 KiB blocks (`db/log_writer.cc`).
//!
//! Fragmentation, per record:
//! 1. If fewer than `header_size` bytes remain in the current block, they are zero-filled and
//!    the record starts the next block.
//! 2. A fragment takes `min(left, BLOCK_SIZE - block_offset - header_size)` payload bytes, so a
//!    block may end with a zero-length First fragment, exactly as RocksDB's writer does.
//! 3. The fragment is Full (first and last), First, Middle or Last; recyclable writers use the
//!    types 5 to 8 and stamp the low 32 bits of the log number into the header.
//!
//! The bytes of one logical record reach the file in one `append` call, so that a process
//! kill never leaves part of a record; a failed append leaves at most one torn record. A WAL
//! writer ([`LogWriter::set_spill`]) hands a record larger than `SPILL_BYTES` (1 MiB) over
//! in pieces of that size instead, as RocksDB's WAL writer does (its file writer's buffer
//! holds 1 MiB): such a record can tear at a piece boundary in both engines. In buffered mode
//! (`manual_wal_flush`) the bytes stay in memory until [`LogWriter::flush`].
//!
//! A WAL that has been synced can have its appends go into zeros the file wrote ahead of them
//! ([`LogWriter::set_prepare_ahead`]), so that its later syncs do not have to write a new file
//! size too (docs/format/wal.md §7).

use super::format::{
    encode_physical_header, record_crc_seed, RecordType, BLOCK_SIZE, HEADER_SIZE,
    RECYCLABLE_HEADER_SIZE,
};
use crate::error::{Error, Result};
use crate::fs::WritableFile;
use crate::util::crc;

/// Reads the concatenation of several slices front to back.
struct PartsCursor<'a> {
    parts: &'a [&'a [u8]],
    /// Offset in `parts[0]`.
    at: usize,
}

impl<'a> PartsCursor<'a> {
    fn new(parts: &'a [&'a [u8]]) -> Self {
        PartsCursor { parts, at: 0 }
    }

    /// Appends the next `n` bytes to `dst`.
    fn copy_into(&mut self, dst: &mut Vec<u8>, mut n: usize) {
        while n > 0 {
            let Some((first, rest)) = self.parts.split_first() else {
                break;
            };
            let chunk = first.get(self.at..).unwrap_or(&[]);
            let take = chunk.len().min(n);
            dst.extend_from_slice(&chunk[..take]);
            n -= take;
            self.at += take;
            if self.at >= first.len() {
                self.parts = rest;
                self.at = 0;
            }
        }
    }
}

/// Appends logical records to one log file.
///
/// Invariant: `block_offset` is the position inside the current block of the next byte the
/// writer will produce (counting bytes still in `buf`), and it never leaves fewer than
/// `header_size` bytes in a block without zero-filling them first.
pub struct LogWriter {
    file: Box<dyn WritableFile>,
    log_number: u64,
    recyclable: bool,
    /// Offset inside the current block, `0..BLOCK_SIZE`.
    block_offset: usize,
    /// Physical bytes not yet handed to `file` (always empty after `add_record` unless
    /// `buffered`). Reused between records to avoid an allocation per write.
    buf: Vec<u8>,
    buffered: bool,
    /// Whether a large record may go to the file in pieces ([`Self::set_spill`]).
    spill: bool,
    /// The first append or sync failure; once set every later call returns it, because the
    /// file's tail is then unknown and a retry could duplicate or tear records.
    failed: Option<Error>,
    /// The logical size after the last [`queue_record`](Self::queue_record) (0 if none).
    queued_end: u64,
    /// Whether that failure was a sync's (see [`sync_appended`](Self::sync_appended)).
    sync_failed: bool,
    /// Per record type, the crc of the type byte (and log number): what a record's
    /// checksum starts from.
    crc_seeds: [u32; 9],
    /// The logical size at the last successful sync.
    synced_size: u64,
    /// Start the file's writeback every this many appended bytes (0: never).
    writeback_every: u64,
    /// Bytes appended since the last writeback was started.
    since_writeback: u64,
    /// Whether appends, once the log has been synced, go into zeros written ahead of them
    /// (`set_prepare_ahead`).
    prepare_ahead: bool,
    /// Bytes appended between two syncs, a recent average (weight 1/8; 0 before the first
    /// sync).
    sync_span: u64,
}

/// Zeros are written ahead only while syncs cover at most this many bytes on average: each
/// zero byte is written to the disk once more, and a sync of many pages gains little from
/// sparing the one write of the file's size. Measured with 64 KiB batches synced from 4
/// threads (about 256 KiB a sync): 186k entries/s without zeros, 119k with them; with 100 B
/// commits (a few KiB a sync) the zeros gain 30-50%. Between those, the zeros cost more
/// disk writes than the file-size updates they spare (ext4 journals the size at each sync,
/// a few blocks): Kommander's synced 1 KiB entries from 16 writers (about 16 KiB a sync),
/// 3 runs, wrote 2.30 bytes to the device per user byte with a 32 KiB gate, 1.51 with this
/// one (RocksDB 1.93), at 27.2k entries/s instead of 30.8k (RocksDB 16.0k); 4 writers
/// (4 KiB a sync) and fillsync from 16 and 64 threads were unchanged.
const MAX_PREPARED_SYNC_SPAN: u64 = 8 * 1024;

/// A writer that may spill (see [`LogWriter::set_spill`]) and does not buffer hands a large
/// record to the file in pieces: each time its buffer holds this much, before the next
/// fragment. Its buffer then never outgrows [`MAX_UNBUFFERED_BYTES`] (one more fragment)
/// instead of growing to hold a framed copy of the whole record: a write group of Kahuna's
/// 1,024-entry batches (2.2 MB) grew it to 4.4 MB and back at every write. 1 MiB, RocksDB's
/// WAL file writer buffer: a record no larger reaches the file whole in both engines, a
/// larger one in pieces in both (and a piece goes to the file in one write, past a mapped
/// WAL's window: `fs::posix` maps appends of under 512 KiB). Kahuna's large load, 3
/// alternating runs: 146-149k keys/s and 7.2 µs of CPU per key with whole records,
/// 162-167k and 6.5 µs in pieces.
const SPILL_BYTES: usize = 32 * BLOCK_SIZE;
/// The most an unbuffered writer's buffer holds (and keeps between records).
const MAX_UNBUFFERED_BYTES: usize = SPILL_BYTES + BLOCK_SIZE;

impl LogWriter {
    /// A writer appending to `file`. `log_number` is the file number; `recyclable` selects
    /// 11-byte headers (RocksDB writes those only when recycling log files).
    ///
    /// The block offset starts at `file.size() % BLOCK_SIZE`, so a writer opened on a
    /// non-empty file keeps records block-aligned.
    pub fn new(file: Box<dyn WritableFile>, log_number: u64, recyclable: bool) -> Self {
        let block_offset = (file.size() % BLOCK_SIZE as u64) as usize;
        LogWriter {
            file,
            log_number,
            recyclable,
            block_offset,
            buf: Vec::new(),
            buffered: false,
            spill: false,
            failed: None,
            sync_failed: false,
            queued_end: 0,
            synced_size: 0,
            writeback_every: 0,
            since_writeback: 0,
            prepare_ahead: false,
            sync_span: 0,
            crc_seeds: std::array::from_fn(|t| {
                RecordType::from_u8(t as u8).map_or(0, |t| record_crc_seed(t, log_number))
            }),
        }
    }

    /// Lets an unbuffered writer hand a record larger than `SPILL_BYTES` to the file in
    /// pieces (WALs; the MANIFEST's writer keeps whole records). A process kill between two
    /// pieces leaves the log ending in a torn record of a write never acknowledged, as
    /// RocksDB's would: point-in-time recovery ends the log there, tolerate-tail and
    /// skip-any skip it, and absolute consistency refuses to open, in both engines.
    pub fn set_spill(&mut self, on: bool) {
        self.spill = on;
    }

    /// Keeps records in memory until [`flush`](Self::flush) (RocksDB's `manual_wal_flush`).
    /// Turning buffering off does not flush; call `flush` for that.
    pub fn set_buffered(&mut self, on: bool) {
        self.buffered = on;
    }

    /// Starts the file's writeback every `bytes` appended bytes (0: never), so that a later
    /// sync of this log finds few dirty pages left (`wal_bytes_per_sync`).
    pub fn set_writeback_every(&mut self, bytes: u64) {
        self.writeback_every = bytes;
    }

    /// The writeback interval [`Self::set_writeback_every`] set (0: never).
    pub fn writeback_every(&self) -> u64 {
        self.writeback_every
    }

    /// Once this log has been synced, has each append write into zeros the file wrote
    /// ahead of it ([`WritableFile::prepare_ahead`]): the log's later syncs then write
    /// only data, not the file's growing size. Only for a log whose recovery treats damage
    /// followed by zeros as it treats a torn tail (after a power cut, a torn record is no
    /// longer at the end of the file): the DB sets it for WALs in every recovery mode but
    /// tolerate-tail (`DbInner::wal_prepares_ahead`). A log that is never synced never
    /// writes zeros, so unsynced writes cost nothing more.
    pub fn set_prepare_ahead(&mut self, on: bool) {
        self.prepare_ahead = on;
    }

    /// Has the file take appends through a mapping until this log's first sync
    /// ([`WritableFile::map_appends`]): for a log whose recovery ends at a record torn
    /// before zeros (`DbInner::wal_maps_appends`). Call before the first append.
    pub fn set_map_appends(&mut self) {
        self.file.map_appends();
    }

    /// Appends one logical record. An empty payload still yields one zero-length Full record.
    ///
    /// # Errors
    /// The file's append error (also any earlier one: a writer that failed stays failed).
    pub fn add_record(&mut self, payload: &[u8]) -> Result<()> {
        self.add_record_parts(&[payload])
    }

    /// Frames one logical record into the buffer without handing it to the file, whatever
    /// [`set_buffered`](Self::set_buffered) says: it reaches the file with the next record,
    /// flush or sync, in the same append and ahead of them.
    ///
    /// # Errors
    /// An earlier append error (a writer that failed stays failed).
    pub fn queue_record(&mut self, payload: &[u8]) -> Result<()> {
        let buffered = std::mem::replace(&mut self.buffered, true);
        let res = self.add_record_parts(&[payload]);
        self.buffered = buffered;
        self.queued_end = self.file_size();
        res
    }

    /// Whether the log holds a record added after its queued ones (or any, on a file that
    /// was not empty when opened).
    pub fn has_own_records(&self) -> bool {
        self.file_size() > self.queued_end
    }

    /// Appends one logical record whose payload is the concatenation of `parts`, without
    /// gathering them first (the write group's header and batches go straight into the
    /// writer's buffer).
    ///
    /// # Errors
    /// As [`add_record`](Self::add_record).
    pub fn add_record_parts(&mut self, parts: &[&[u8]]) -> Result<()> {
        self.check_failed()?;
        let header_size = if self.recyclable {
            RECYCLABLE_HEADER_SIZE
        } else {
            HEADER_SIZE
        };
        let total: usize = parts.iter().map(|p| p.len()).sum();
        let whole = total + header_size;
        let pieces = self.spill && !self.buffered;
        self.buf.reserve(if pieces {
            whole.min(MAX_UNBUFFERED_BYTES.saturating_sub(self.buf.len()))
        } else {
            whole
        });
        let mut src = PartsCursor::new(parts);
        let mut left = total;
        let mut begin = true;
        loop {
            let leftover = BLOCK_SIZE - self.block_offset;
            if leftover < header_size {
                self.buf.resize(self.buf.len() + leftover, 0);
                self.block_offset = 0;
            }
            let avail = BLOCK_SIZE - self.block_offset - header_size;
            let n = left.min(avail);
            let end = n == left;
            let t = match (begin, end, self.recyclable) {
                (true, true, false) => RecordType::Full,
                (true, false, false) => RecordType::First,
                (false, true, false) => RecordType::Last,
                (false, false, false) => RecordType::Middle,
                (true, true, true) => RecordType::RecyclableFull,
                (true, false, true) => RecordType::RecyclableFirst,
                (false, true, true) => RecordType::RecyclableLast,
                (false, false, true) => RecordType::RecyclableMiddle,
            };
            let at = self.buf.len();
            encode_physical_header(&mut self.buf, t, self.log_number, n);
            let payload_at = self.buf.len();
            src.copy_into(&mut self.buf, n);
            let crc = crc::extend(self.crc_seeds[t as usize], &self.buf[payload_at..]);
            self.buf[at..at + 4].copy_from_slice(&crc::mask(crc).to_le_bytes());
            self.block_offset += header_size + n;
            left -= n;
            begin = false;
            if end {
                break;
            }
            if pieces && self.buf.len() >= SPILL_BYTES {
                self.hand_over(whole as u64)?;
            }
        }
        if self.buffered {
            Ok(())
        } else {
            // A record handed over whole asks for at least its buffer: as `flush` would.
            self.hand_over(whole as u64)
        }
    }

    /// Hands buffered bytes to the file (a no-op when nothing is buffered).
    ///
    /// # Errors
    /// The file's append error.
    pub fn flush(&mut self) -> Result<()> {
        self.hand_over(self.buf.len() as u64)
    }

    /// [`Self::flush`], with the zeros ahead (if any) asked for `record` bytes: a piece of a
    /// spilled record asks for the whole record, so that a record too large for zeros ahead
    /// gets none for its pieces either.
    fn hand_over(&mut self, record: u64) -> Result<()> {
        self.check_failed()?;
        if self.buf.is_empty() {
            return Ok(());
        }
        if self.prepare_ahead && self.synced_size > 0 && self.sync_span <= MAX_PREPARED_SYNC_SPAN {
            self.file.prepare_ahead(record.max(self.buf.len() as u64));
        }
        let res = self.file.append(&self.buf);
        self.since_writeback += self.buf.len() as u64;
        self.buf.clear();
        if self.buf.capacity() > MAX_UNBUFFERED_BYTES {
            // Do not keep a huge record's buffer alive for the writer's lifetime.
            self.buf.shrink_to(BLOCK_SIZE);
        }
        self.record_failure(res)?;
        if self.writeback_every > 0 && self.since_writeback >= self.writeback_every {
            self.since_writeback = 0;
            // Only a hint: a failure here changes nothing about what is durable, and the
            // next sync reports a failing disk.
            let _ = self.file.start_writeback();
        }
        Ok(())
    }

    /// Flushes, then makes the file's contents durable; does nothing when nothing was
    /// appended since the last sync.
    ///
    /// # Errors
    /// The file's append or sync error.
    pub fn sync(&mut self) -> Result<()> {
        self.check_failed()?;
        if !self.has_unsynced() {
            return Ok(());
        }
        self.flush()?;
        let res = self.file.sync();
        self.sync_failed = res.is_err();
        self.record_failure(res)?;
        let span = self.file_size() - self.synced_size;
        self.sync_span = if self.synced_size == 0 {
            span
        } else {
            self.sync_span - self.sync_span / 8 + span / 8
        };
        self.synced_size = self.file_size();
        self.since_writeback = 0;
        Ok(())
    }

    /// Makes durable the bytes handed to the file, even after an append failed: what lies
    /// before the failed append is whole records, and what it wrote of its own reads as a
    /// torn tail. Buffered bytes stay buffered. Error recovery uses it on the WAL it
    /// abandons.
    ///
    /// # Errors
    /// The file's sync error; and the earlier error after a failed sync, which may have
    /// dropped the pages it did not write, so that a second sync would call them durable.
    pub fn sync_appended(&mut self) -> Result<()> {
        if self.sync_failed {
            return self.check_failed();
        }
        if self.appended_size() <= self.synced_size {
            return Ok(());
        }
        let res = self.file.sync();
        self.sync_failed = res.is_err();
        if self.failed.is_none() {
            self.record_failure(res.clone())?;
        }
        res?;
        self.synced_size = self.appended_size();
        Ok(())
    }

    /// Whether bytes were appended since the last sync (or ever, without one).
    pub fn has_unsynced(&self) -> bool {
        self.file_size() > self.synced_size
    }

    /// Logical size of the log: bytes in the file plus bytes still buffered.
    pub fn file_size(&self) -> u64 {
        self.file.size() + self.buf.len() as u64
    }

    /// Test hook for crash simulations: closing this log will leave the zeros written
    /// ahead, as a killed process does ([`WritableFile::keep_tail`]).
    pub fn keep_tail(&mut self) {
        self.file.keep_tail();
    }

    /// Bytes handed to the file (the logical size without what is still buffered): the
    /// file may be longer, by zeros written ahead.
    pub fn appended_size(&self) -> u64 {
        self.file.size()
    }

    pub fn log_number(&self) -> u64 {
        self.log_number
    }

    fn check_failed(&self) -> Result<()> {
        match &self.failed {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }

    fn record_failure(&mut self, res: Result<()>) -> Result<()> {
        if let Err(e) = &res {
            self.failed = Some(e.clone());
        }
        res
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wal::testutil::MemFile;

    #[test]
    fn each_record_is_one_append_without_spilling_however_large() {
        let file = MemFile::default();
        let mut w = LogWriter::new(Box::new(file.clone()), 1, false);
        w.add_record(&vec![7u8; 40 * BLOCK_SIZE])
            .expect("append to memory");
        w.add_record(b"").expect("append to memory");
        assert_eq!(file.appends(), 2);
        assert_eq!(w.file_size(), file.contents().len() as u64);
    }

    #[test]
    fn a_large_record_goes_out_in_pieces_framed_as_in_one() {
        let payload: Vec<u8> = (0..40 * BLOCK_SIZE + 123).map(|i| (i * 13) as u8).collect();
        let (pieces, whole) = (MemFile::default(), MemFile::default());
        let mut w = LogWriter::new(Box::new(pieces.clone()), 4, false);
        w.set_spill(true);
        w.add_record(b"small").expect("append to memory");
        w.add_record(&payload).expect("append to memory");
        // A buffered writer frames the same bytes in one append at its flush.
        let mut b = LogWriter::new(Box::new(whole.clone()), 4, false);
        b.set_buffered(true);
        b.add_record(b"small").expect("append to memory");
        b.add_record(&payload).expect("append to memory");
        b.flush().expect("flush to memory");
        assert_eq!(pieces.contents(), whole.contents());
        assert_eq!(whole.appends(), 1);
        // 41 fragments of about a block each: a piece every 32 of them, the last with the rest.
        assert_eq!(pieces.appends(), 1 + 2);
        assert!(
            w.buf.capacity() <= MAX_UNBUFFERED_BYTES,
            "{}",
            w.buf.capacity()
        );
        assert_eq!(w.file_size(), pieces.contents().len() as u64);
    }

    #[test]
    fn the_pieces_of_a_spilled_record_ask_for_zeros_for_the_whole_record() {
        let file = MemFile::default();
        let mut w = LogWriter::new(Box::new(file.clone()), 4, false);
        w.set_spill(true);
        w.set_prepare_ahead(true);
        w.add_record(b"first").expect("append to memory");
        w.sync().expect("sync");
        let payload = vec![5u8; 40 * BLOCK_SIZE];
        w.add_record(&payload).expect("append to memory");
        assert_eq!(file.appends(), 1 + 2);
        let asked = file.prepared();
        assert_eq!(asked.len(), 2, "{asked:?}");
        assert!(asked.iter().all(|&n| n > payload.len() as u64), "{asked:?}");
    }

    #[test]
    fn zeros_are_prepared_only_when_asked_and_only_after_the_first_sync() {
        let file = MemFile::default();
        let mut w = LogWriter::new(Box::new(file.clone()), 1, false);
        w.add_record(b"before").expect("append");
        w.sync().expect("sync");
        w.add_record(b"not asked").expect("append");
        assert!(file.prepared().is_empty(), "prepared without being asked");
        w.set_prepare_ahead(true);
        let quiet = MemFile::default();
        let mut q = LogWriter::new(Box::new(quiet.clone()), 2, false);
        q.set_prepare_ahead(true);
        q.add_record(b"never synced").expect("append");
        assert!(
            quiet.prepared().is_empty(),
            "an unsynced log prepared zeros"
        );
        // Each append of a synced log announces exactly the bytes it hands over.
        w.add_record(b"after").expect("append");
        w.add_record(&[9u8; 100]).expect("append");
        assert_eq!(file.prepared(), vec![7 + 5, 7 + 100]);
        // Syncs of many bytes turn it off (their zeros cost more than they save), and a run
        // of small syncs turns it back on.
        let mut big_syncs = 0;
        let big = vec![1u8; 4 * MAX_PREPARED_SYNC_SPAN as usize];
        while w.sync_span <= MAX_PREPARED_SYNC_SPAN {
            w.add_record(&big).expect("append");
            w.sync().expect("sync");
            big_syncs += 1;
        }
        assert!(big_syncs > 1, "one sync decided alone");
        let before = file.prepared().len();
        w.add_record(b"small").expect("append");
        assert_eq!(file.prepared().len(), before, "prepared after big syncs");
        for _ in 0..64 {
            w.add_record(b"small").expect("append");
            w.sync().expect("sync");
        }
        w.add_record(b"small again").expect("append");
        assert_eq!(file.prepared().last(), Some(&(7 + 11)));
    }

    #[test]
    fn a_queued_record_goes_out_with_the_next_one_ahead_of_it() {
        let file = MemFile::default();
        let mut w = LogWriter::new(Box::new(file.clone()), 1, false);
        w.queue_record(b"first").expect("queue");
        assert_eq!(file.contents().len(), 0, "nothing handed to the file yet");
        assert_eq!(w.file_size(), 7 + 5, "but it counts in the log's size");
        assert!(!w.has_own_records());
        w.add_record(b"second").expect("append");
        assert!(w.has_own_records());
        let bytes = file.contents();
        assert_eq!(bytes.len(), 7 + 5 + 7 + 6, "one append carried both");
        assert_eq!(&bytes[7..12], b"first");
        assert_eq!(&bytes[19..], b"second");
    }

    #[test]
    fn writeback_starts_every_interval_and_a_sync_restarts_the_count() {
        let file = MemFile::default();
        let mut w = LogWriter::new(Box::new(file.clone()), 1, false);
        w.set_writeback_every(3000);
        // Each record is 1000 bytes of payload plus a 7-byte header.
        for _ in 0..7 {
            w.add_record(&[1u8; 1000]).expect("append to memory");
        }
        assert_eq!(file.writebacks(), vec![3 * 1007, 6 * 1007]);
        w.add_record(&[1u8; 1000]).expect("append to memory");
        w.sync().expect("sync memory");
        // The sync wrote everything back: the count starts again from it.
        for _ in 0..3 {
            w.add_record(&[1u8; 1000]).expect("append to memory");
        }
        assert_eq!(file.writebacks(), vec![3 * 1007, 6 * 1007, 11 * 1007]);
        assert_eq!(file.syncs(), 1);
        // Off by default.
        let quiet = MemFile::default();
        let mut w = LogWriter::new(Box::new(quiet.clone()), 2, false);
        w.add_record(&[1u8; 10_000]).expect("append to memory");
        assert!(quiet.writebacks().is_empty());
    }

    #[test]
    fn parts_are_framed_like_their_concatenation() {
        // Records of sizes around the block edge, split into uneven parts, both header kinds.
        for recyclable in [false, true] {
            for len in [
                0usize,
                1,
                11,
                BLOCK_SIZE - 2 * HEADER_SIZE,
                BLOCK_SIZE,
                3 * BLOCK_SIZE + 5,
            ] {
                let payload: Vec<u8> = (0..len).map(|i| (i * 7) as u8).collect();
                let (cut1, cut2) = (len / 3, len / 3 + len / 5);
                let (whole, parts) = (MemFile::default(), MemFile::default());
                let mut a = LogWriter::new(Box::new(whole.clone()), 3, recyclable);
                let mut b = LogWriter::new(Box::new(parts.clone()), 3, recyclable);
                for _ in 0..2 {
                    a.add_record(&payload).expect("append to memory");
                    b.add_record_parts(&[
                        &payload[..cut1],
                        &[],
                        &payload[cut1..cut2],
                        &payload[cut2..],
                    ])
                    .expect("append to memory");
                }
                assert_eq!(
                    whole.contents(),
                    parts.contents(),
                    "{len} bytes, {recyclable}"
                );
            }
        }
    }

    #[test]
    fn a_full_record_is_the_reference_encoding() {
        for recyclable in [false, true] {
            let file = MemFile::default();
            let mut w = LogWriter::new(Box::new(file.clone()), 0x1_0000_0007, recyclable);
            w.add_record_parts(&[b"hello ", b"world"])
                .expect("append to memory");
            let t = if recyclable {
                RecordType::RecyclableFull
            } else {
                RecordType::Full
            };
            let mut expect = Vec::new();
            super::super::format::encode_physical_record(
                &mut expect,
                t,
                0x1_0000_0007,
                b"hello world",
            );
            assert_eq!(file.contents(), expect);
        }
    }

    #[test]
    fn short_block_tail_is_zero_filled() {
        let file = MemFile::default();
        let mut w = LogWriter::new(Box::new(file.clone()), 1, false);
        // Leave 5 bytes (< HEADER_SIZE) at the end of the first block.
        let first = BLOCK_SIZE - HEADER_SIZE - 5;
        w.add_record(&vec![1u8; first]).expect("append to memory");
        w.add_record(b"z").expect("append to memory");
        let bytes = file.contents();
        assert_eq!(&bytes[BLOCK_SIZE - 5..BLOCK_SIZE], &[0u8; 5]);
        assert_eq!(bytes.len(), BLOCK_SIZE + HEADER_SIZE + 1);
        assert_eq!(bytes[BLOCK_SIZE + 6], RecordType::Full as u8);
    }

    #[test]
    fn exactly_header_sized_tail_gets_empty_first_fragment() {
        let file = MemFile::default();
        let mut w = LogWriter::new(Box::new(file.clone()), 1, false);
        w.add_record(&vec![1u8; BLOCK_SIZE - 2 * HEADER_SIZE])
            .expect("append to memory");
        w.add_record(b"ab").expect("append to memory");
        let bytes = file.contents();
        let tail = &bytes[BLOCK_SIZE - HEADER_SIZE..BLOCK_SIZE];
        assert_eq!(&tail[4..7], &[0, 0, RecordType::First as u8]);
        assert_eq!(bytes[BLOCK_SIZE + 6], RecordType::Last as u8);
    }

    #[test]
    fn buffered_mode_defers_until_flush_and_sync_flushes() {
        let file = MemFile::default();
        let mut w = LogWriter::new(Box::new(file.clone()), 1, false);
        w.set_buffered(true);
        w.add_record(b"one").expect("buffer");
        w.add_record(b"two").expect("buffer");
        assert_eq!(file.appends(), 0);
        assert_eq!(w.file_size(), 2 * (HEADER_SIZE as u64 + 3));
        w.flush().expect("append to memory");
        assert_eq!(file.appends(), 1);
        w.add_record(b"three").expect("buffer");
        w.sync().expect("sync memory");
        assert_eq!(file.appends(), 2);
        assert_eq!(file.syncs(), 1);
        w.flush().expect("nothing buffered is a no-op");
        assert_eq!(file.appends(), 2);
    }

    #[test]
    fn recyclable_writer_uses_recyclable_types() {
        let file = MemFile::default();
        let mut w = LogWriter::new(Box::new(file.clone()), 9, true);
        w.add_record(&vec![3u8; BLOCK_SIZE])
            .expect("append to memory");
        let bytes = file.contents();
        assert_eq!(bytes[6], RecordType::RecyclableFirst as u8);
        assert_eq!(&bytes[7..11], &9u32.to_le_bytes());
        assert_eq!(bytes[BLOCK_SIZE + 6], RecordType::RecyclableLast as u8);
    }

    #[test]
    fn failed_append_is_sticky() {
        let file = MemFile::default();
        let mut w = LogWriter::new(Box::new(file.clone()), 1, false);
        file.fail_appends(true);
        assert!(w.add_record(b"x").is_err());
        file.fail_appends(false);
        let err = w.add_record(b"y").expect_err("writer stays failed");
        assert!(err.is_io_error());
        assert!(file.contents().is_empty());
    }

    #[test]
    fn sync_appended_works_after_a_failed_append_but_not_after_a_failed_sync() {
        let file = MemFile::default();
        let mut w = LogWriter::new(Box::new(file.clone()), 1, false);
        w.add_record(b"kept").expect("append");
        file.fail_appends(true);
        assert!(w.add_record(b"lost").is_err());
        file.fail_appends(false);
        w.sync_appended()
            .expect("the appended bytes can still be synced");
        assert_eq!(file.syncs(), 1);
        w.sync_appended().expect("nothing new");
        assert_eq!(file.syncs(), 1, "nothing appended since");
        assert!(w.sync().is_err(), "the writer stays failed");

        let file = MemFile::default();
        let mut w = LogWriter::new(Box::new(file.clone()), 1, false);
        w.add_record(b"x").expect("append");
        file.fail_syncs(true);
        assert!(w.sync().is_err());
        file.fail_syncs(false);
        assert!(
            w.sync_appended().is_err(),
            "a second sync after a failed one proves nothing"
        );
        assert_eq!(file.syncs(), 0);
    }
}
