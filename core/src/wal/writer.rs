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
//! All bytes of one logical record reach the file in ONE `append` call, so a record is never
//! interleaved with another writer's bytes and a failed append leaves at most one torn record.
//! In buffered mode (`manual_wal_flush`) the bytes stay in memory until [`LogWriter::flush`].

use super::format::{
    encode_physical_record, RecordType, BLOCK_SIZE, HEADER_SIZE, RECYCLABLE_HEADER_SIZE,
};
use crate::error::{Error, Result};
use crate::fs::WritableFile;

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
    /// The first append or sync failure; once set every later call returns it, because the
    /// file's tail is then unknown and a retry could duplicate or tear records.
    failed: Option<Error>,
}

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
            failed: None,
        }
    }

    /// Keeps records in memory until [`flush`](Self::flush) (RocksDB's `manual_wal_flush`).
    /// Turning buffering off does not flush; call `flush` for that.
    pub fn set_buffered(&mut self, on: bool) {
        self.buffered = on;
    }

    /// Appends one logical record. An empty payload still yields one zero-length Full record.
    ///
    /// # Errors
    /// The file's append error (also any earlier one: a writer that failed stays failed).
    pub fn add_record(&mut self, payload: &[u8]) -> Result<()> {
        self.check_failed()?;
        let header_size = if self.recyclable {
            RECYCLABLE_HEADER_SIZE
        } else {
            HEADER_SIZE
        };
        let mut left = payload;
        let mut begin = true;
        loop {
            let leftover = BLOCK_SIZE - self.block_offset;
            if leftover < header_size {
                self.buf.resize(self.buf.len() + leftover, 0);
                self.block_offset = 0;
            }
            let avail = BLOCK_SIZE - self.block_offset - header_size;
            let n = left.len().min(avail);
            let end = n == left.len();
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
            encode_physical_record(&mut self.buf, t, self.log_number, &left[..n]);
            self.block_offset += header_size + n;
            left = &left[n..];
            begin = false;
            if end {
                break;
            }
        }
        if self.buffered {
            Ok(())
        } else {
            self.flush()
        }
    }

    /// Hands buffered bytes to the file (a no-op when nothing is buffered).
    ///
    /// # Errors
    /// The file's append error.
    pub fn flush(&mut self) -> Result<()> {
        self.check_failed()?;
        if self.buf.is_empty() {
            return Ok(());
        }
        let res = self.file.append(&self.buf);
        self.buf.clear();
        if self.buf.capacity() > 4 * BLOCK_SIZE {
            // Do not keep a huge record's buffer alive for the writer's lifetime.
            self.buf.shrink_to(BLOCK_SIZE);
        }
        self.record_failure(res)
    }

    /// Flushes, then makes the file's contents durable.
    ///
    /// # Errors
    /// The file's append or sync error.
    pub fn sync(&mut self) -> Result<()> {
        self.flush()?;
        let res = self.file.sync();
        self.record_failure(res)
    }

    /// Logical size of the log: bytes in the file plus bytes still buffered.
    pub fn file_size(&self) -> u64 {
        self.file.size() + self.buf.len() as u64
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
    fn each_record_is_one_append() {
        let file = MemFile::default();
        let mut w = LogWriter::new(Box::new(file.clone()), 1, false);
        w.add_record(&vec![7u8; 3 * BLOCK_SIZE])
            .expect("append to memory");
        w.add_record(b"").expect("append to memory");
        assert_eq!(file.appends(), 2);
        assert_eq!(w.file_size(), file.contents().len() as u64);
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
}
