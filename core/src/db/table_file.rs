// SPDX-License-Identifier: Apache-2.0
//! The file a flush or a compaction writes a table into (background path): the file
//! system's writable file, paced by the DB's rate limiter and written back every
//! `bytes_per_sync` bytes.
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

/// A table file with pacing and periodic writeback.
pub(crate) struct TableFile {
    file: Box<dyn WritableFile>,
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
            limiter: limiter.filter(|l| l.paces_writes()),
            bytes_per_sync,
            since_writeback: 0,
        }
    }
}

impl WritableFile for TableFile {
    fn append(&mut self, data: &[u8]) -> Result<()> {
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
    fn sync(&mut self) -> Result<()> {
        self.file.sync()
    }
    fn size(&self) -> u64 {
        self.file.size()
    }
    fn start_writeback(&mut self) -> Result<()> {
        self.file.start_writeback()
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
        writebacks: Vec<u64>,
    }

    struct Fake(Arc<Mutex<Log>>);

    impl WritableFile for Fake {
        fn append(&mut self, data: &[u8]) -> Result<()> {
            self.0.lock().appended += data.len() as u64;
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
    fn writeback_every_bytes_per_sync() {
        let log = Arc::new(Mutex::new(Log::default()));
        let mut f = TableFile::new(Box::new(Fake(log.clone())), None, 10_000);
        for _ in 0..100 {
            f.append(&[0u8; 1000]).expect("append");
        }
        assert_eq!(
            log.lock().writebacks,
            (1..=10).map(|i| i * 10_000).collect::<Vec<u64>>()
        );
        let log = Arc::new(Mutex::new(Log::default()));
        let mut f = TableFile::new(Box::new(Fake(log.clone())), None, 0);
        f.append(&[0u8; 100_000]).expect("append");
        assert!(log.lock().writebacks.is_empty(), "0 turns writeback off");
    }

    #[test]
    fn appends_draw_from_the_limiter() {
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
        assert_eq!(limiter.total_bytes_through(), 4196);
    }
}
