// SPDX-License-Identifier: Apache-2.0
//! The file system layer: every byte the engine reads or writes goes through [`FileSystem`],
//! so that tests can swap in a fault-injecting implementation (issue 8) without touching the
//! engine. [`posix::PosixFs`] is the real one; `filename` names RocksDB's files; `lock` holds
//! the `LOCK` file's fcntl lock.

pub mod filename;
pub mod lock;
pub mod posix;

use std::io::Read;
use std::path::Path;
use std::sync::Arc;

use crate::error::Result;

/// A file open for appending. `append` hands the bytes to the OS before returning (no
/// user-space buffering), so an appended record survives a process kill.
pub trait WritableFile: Send {
    fn append(&mut self, data: &[u8]) -> Result<()>;
    /// fdatasync (or fsync when the DB asked for `use_fsync`).
    fn sync(&mut self) -> Result<()>;
    /// Bytes appended so far, including what the file held when it was opened.
    fn size(&self) -> u64;
    /// Starts writing back what was appended so far (`bytes_per_sync`), so that the final
    /// sync of a large file does not meet a mountain of dirty pages. The default syncs; a
    /// file system may start the writeback without waiting for it (`sync_file_range`).
    fn start_writeback(&mut self) -> Result<()> {
        self.sync()
    }
}

/// A file open for sequential reading.
pub type SequentialFile = Box<dyn Read + Send>;

/// Everything the engine asks of a file system.
pub trait FileSystem: Send + Sync {
    /// Creates (truncating) a file for appending.
    fn new_writable(&self, path: &Path) -> Result<Box<dyn WritableFile>>;
    /// Opens a file for appending at its current end, creating it when missing.
    fn reopen_writable(&self, path: &Path) -> Result<Box<dyn WritableFile>>;
    fn new_sequential(&self, path: &Path) -> Result<SequentialFile>;
    /// Reads a whole (small) file.
    fn read_all(&self, path: &Path) -> Result<Vec<u8>>;
    fn exists(&self, path: &Path) -> bool;
    fn file_size(&self, path: &Path) -> Result<u64>;
    /// The names (not paths) of a directory's entries.
    fn list_dir(&self, path: &Path) -> Result<Vec<String>>;
    fn create_dir_all(&self, path: &Path) -> Result<()>;
    fn remove_file(&self, path: &Path) -> Result<()>;
    fn remove_dir(&self, path: &Path) -> Result<()>;
    fn rename(&self, from: &Path, to: &Path) -> Result<()>;
    fn hard_link(&self, from: &Path, to: &Path) -> Result<()>;
    /// fsyncs a directory so that entries created or renamed in it are durable.
    fn sync_dir(&self, path: &Path) -> Result<()>;
    /// Truncates a file to `len` bytes.
    fn truncate(&self, path: &Path, len: u64) -> Result<()>;
    /// Takes the DB's `LOCK` file; the lock is released when the returned guard drops.
    fn lock_file(&self, path: &Path) -> Result<lock::FileLock>;
}

/// The file system used when the caller gives none.
pub fn default_fs() -> Arc<dyn FileSystem> {
    Arc::new(posix::PosixFs)
}
