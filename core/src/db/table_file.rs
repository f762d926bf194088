// SPDX-License-Identifier: Apache-2.0
//! The file a flush or a compaction writes a table into (background path): the file
//! system's writable file behind a write buffer, paced by the DB's rate limiter and written
//! back every `bytes_per_sync` bytes.
//!
//! Buffering: the builder appends a block at a time (a few KiB, often less after
//! compression); the buffer gathers [`WRITE_BUFFER`] bytes before it goes to the file
//! system, so a table costs one `write` per buffer instead of one per block (RocksDB's
//! `WritableFileWriter` does the same with `writable_file_max_buffer_size`, 1 MiB). `flush`
//! and `sync` write out what is buffered; a table file dropped without either loses its
//! buffered tail, which happens only when the build failed and the file is deleted.
//!
//! Pacing: every append first asks the limiter for its bytes (blocking while the shared
//! bucket is empty), so the DBs that share a limiter write tables at its rate together.
//! Writeback: once `bytes_per_sync` bytes were appended since the last one, the file is
//! asked to start writing them back ([`WritableFile::start_writeback`]), which spreads the
//! device work over the build instead of leaving it all to the final sync.

use std::path::Path;
use std::sync::Arc;

use super::DbInner;
use crate::error::Result;
use crate::fs::WritableFile;
use crate::sst::builder::TableInfo;
use crate::util::rate_limiter::RateLimiter;
use crate::version::edit::FileMetaData;

/// Bytes gathered before a write to the file system: large enough that syscalls vanish
/// from a flush's profile, small enough to be noise beside a memtable (one per running job).
pub(crate) const WRITE_BUFFER: usize = 256 * 1024;

/// A table file with a write buffer, pacing and periodic writeback.
pub(crate) struct TableFile {
    file: Box<dyn WritableFile>,
    buf: Vec<u8>,
    limiter: Option<Arc<RateLimiter>>,
    bytes_per_sync: u64,
    since_writeback: u64,
}

impl TableFile {
    pub(crate) fn new(
        file: Box<dyn WritableFile>,
        limiter: Option<Arc<RateLimiter>>,
        bytes_per_sync: u64,
    ) -> Self {
        TableFile {
            file,
            buf: Vec::new(),
            limiter: limiter.filter(|l| l.paces_writes()),
            bytes_per_sync,
            since_writeback: 0,
        }
    }

    /// Writes `data` to the file system, paced, and starts writeback when due.
    fn write_out(&mut self, data: &[u8]) -> Result<()> {
        if data.is_empty() {
            return Ok(());
        }
        if let Some(l) = &self.limiter {
            l.request(data.len() as u64);
        }
        self.file.append(data)?;
        self.since_writeback += data.len() as u64;
        if self.bytes_per_sync > 0 && self.since_writeback >= self.bytes_per_sync {
            self.since_writeback = 0;
            self.file.start_writeback()?;
        }
        Ok(())
    }

    fn write_buffer(&mut self) -> Result<()> {
        let buf = std::mem::take(&mut self.buf);
        let res = self.write_out(&buf);
        self.buf = buf;
        self.buf.clear();
        res
    }
}

impl WritableFile for TableFile {
    fn append(&mut self, data: &[u8]) -> Result<()> {
        if self.buf.len() + data.len() > WRITE_BUFFER {
            self.write_buffer()?;
        }
        if data.len() >= WRITE_BUFFER {
            return self.write_out(data);
        }
        if self.buf.capacity() == 0 {
            self.buf.reserve_exact(WRITE_BUFFER);
        }
        self.buf.extend_from_slice(data);
        Ok(())
    }
    fn sync(&mut self) -> Result<()> {
        self.write_buffer()?;
        self.file.sync()
    }
    fn size(&self) -> u64 {
        self.file.size() + self.buf.len() as u64
    }
    fn start_writeback(&mut self) -> Result<()> {
        self.write_buffer()?;
        self.file.start_writeback()
    }
    fn flush(&mut self) -> Result<()> {
        self.write_buffer()
    }
}

impl DbInner {
    /// Creates the table file `path` for a flush or a compaction.
    pub(crate) fn new_table_writer(&self, path: &Path) -> Result<Box<dyn WritableFile>> {
        Ok(Box::new(TableFile::new(
            self.fs.new_writable(path)?,
            self.options.rate_limiter.clone(),
            self.options.bytes_per_sync,
        )))
    }
}

/// The MANIFEST metadata of table `number`, just built and synced, created now.
pub(crate) fn new_table_meta(number: u64, info: TableInfo) -> FileMetaData {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    FileMetaData {
        number,
        file_size: info.file_size,
        smallest: info.smallest,
        largest: info.largest,
        smallest_seqno: info.smallest_seqno,
        largest_seqno: info.largest_seqno,
        oldest_ancester_time: now,
        file_creation_time: now,
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parking_lot::Mutex;

    #[derive(Default)]
    struct Log {
        appended: u64,
        writes: u64,
        writebacks: Vec<u64>,
    }

    struct Fake(Arc<Mutex<Log>>);

    impl WritableFile for Fake {
        fn append(&mut self, data: &[u8]) -> Result<()> {
            let mut l = self.0.lock();
            l.appended += data.len() as u64;
            l.writes += 1;
            Ok(())
        }
        fn sync(&mut self) -> Result<()> {
            Ok(())
        }
        fn size(&self) -> u64 {
            self.0.lock().appended
        }
        fn start_writeback(&mut self) -> Result<()> {
            let mut l = self.0.lock();
            let at = l.appended;
            l.writebacks.push(at);
            Ok(())
        }
    }

    #[test]
    fn blocks_reach_the_file_a_buffer_at_a_time() {
        let log = Arc::new(Mutex::new(Log::default()));
        let mut f = TableFile::new(Box::new(Fake(log.clone())), None, 0);
        let block = [7u8; 1000];
        let blocks = 3 * WRITE_BUFFER / block.len() + 5;
        for _ in 0..blocks {
            f.append(&block).expect("append");
        }
        let total = (blocks * block.len()) as u64;
        assert_eq!(f.size(), total, "size counts the buffered bytes");
        let reached = log.lock().appended;
        assert!(reached < total, "a tail stays buffered");
        assert_eq!(
            reached % block.len() as u64,
            0,
            "only whole appends are written"
        );
        assert_eq!(log.lock().writes, 3, "one write per full buffer");
        f.flush().expect("flush");
        assert_eq!(log.lock().appended, total);
        assert_eq!(log.lock().writes, 4);
        // An append as large as the buffer goes straight through, after what was buffered.
        f.append(&[1u8; 10]).expect("append");
        f.append(&vec![2u8; WRITE_BUFFER]).expect("append");
        assert_eq!(log.lock().appended, total + 10 + WRITE_BUFFER as u64);
        assert_eq!(log.lock().writes, 6);
        f.append(&[3u8; 10]).expect("append");
        f.sync().expect("sync writes out the buffer");
        assert_eq!(log.lock().appended, total + 20 + WRITE_BUFFER as u64);
    }

    #[test]
    fn writeback_every_bytes_per_sync() {
        let log = Arc::new(Mutex::new(Log::default()));
        let bytes_per_sync = 2 * WRITE_BUFFER as u64;
        let mut f = TableFile::new(Box::new(Fake(log.clone())), None, bytes_per_sync);
        for _ in 0..10 * WRITE_BUFFER / 1024 {
            f.append(&[0u8; 1024]).expect("append");
        }
        f.flush().expect("flush");
        // The buffer is written whole, so writeback comes at every second buffer.
        assert_eq!(
            log.lock().writebacks,
            (1..=5).map(|i| i * bytes_per_sync).collect::<Vec<u64>>()
        );
        let log = Arc::new(Mutex::new(Log::default()));
        let mut f = TableFile::new(Box::new(Fake(log.clone())), None, 0);
        f.append(&vec![0u8; 3 * WRITE_BUFFER]).expect("append");
        f.sync().expect("sync");
        assert!(log.lock().writebacks.is_empty(), "0 turns writeback off");
    }

    #[test]
    fn buffered_bytes_draw_from_the_limiter_when_written() {
        use crate::util::rate_limiter::RateLimiterMode;
        let limiter = Arc::new(RateLimiter::new(
            1 << 30,
            100_000,
            10,
            RateLimiterMode::WritesOnly,
            false,
        ));
        let log = Arc::new(Mutex::new(Log::default()));
        let mut f = TableFile::new(Box::new(Fake(log)), Some(limiter.clone()), 0);
        f.append(&[0u8; 4096]).expect("append");
        f.append(&[0u8; 100]).expect("append");
        assert_eq!(limiter.total_bytes_through(), 0, "still buffered");
        f.flush().expect("flush");
        assert_eq!(limiter.total_bytes_through(), 4196);
    }
}
