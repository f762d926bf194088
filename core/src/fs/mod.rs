// SPDX-License-Identifier: Apache-2.0
//! The file system layer: every byte the engine reads or writes goes through [`FileSystem`],
//! so that tests can swap in a fault-injecting implementation without touching the engine.
//! A DB uses the file system of its options (`DbOptions::file_system`), the real one
//! ([`posix::PosixFs`]) when none is given.
//!
//! - `posix`: std::fs and `pread`, with RocksDB's error texts.
//! - `mem`: an in-memory file system that knows what is durable (synced file bytes, synced
//!   directory entries), so that a test can cut the power at any point.
//! - `fault`: [`fault::FaultFs`] wraps another file system and fails chosen operations
//!   (the Nth of a kind, once or for good; ENOSPC; a read-only file system), counts
//!   operations, and over `mem` simulates crashes. See `docs/reliability.md`.
//! - `filename` names RocksDB's files; `lock` holds the `LOCK` file's fcntl lock.
//! - `map_window`: the mapped window through which `posix` appends to an unsynced WAL
//!   ([`WritableFile::map_appends`]).

pub mod fault;
pub mod filename;
pub mod lock;
#[cfg(target_os = "linux")]
mod map_window;
pub mod mem;
pub mod posix;

use std::io::Read;
use std::path::Path;
use std::sync::Arc;

use crate::error::Result;

/// Positional reads from an immutable file (tables), shareable between threads.
pub trait RandomAccessFile: Send + Sync {
    /// Reads exactly `len` bytes at `offset`.
    ///
    /// # Errors
    /// I/O errors, and Corruption when the file is shorter than asked.
    fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>>;
    /// Reads exactly `buf.len()` bytes at `offset` into `buf`: `read_at` without its
    /// allocation, for a caller that reuses a buffer. The default goes through `read_at`.
    ///
    /// # Errors
    /// As `read_at`.
    fn read_into(&self, offset: u64, buf: &mut [u8]) -> Result<()> {
        buf.copy_from_slice(&self.read_at(offset, buf.len())?);
        Ok(())
    }
    /// The file's size in bytes.
    ///
    /// # Errors
    /// I/O errors.
    fn size(&self) -> Result<u64>;
}

/// A file open for appending. `append` hands the bytes to the OS before returning (no
/// user-space buffering), so an appended record survives a process kill.
pub trait WritableFile: Send {
    fn append(&mut self, data: &[u8]) -> Result<()>;
    /// fdatasync (or fsync when the DB asked for `use_fsync`).
    fn sync(&mut self) -> Result<()>;
    /// Bytes appended so far, including what the file held when it was opened.
    fn size(&self) -> u64;
    /// Starts writing back what was appended so far (`bytes_per_sync`, and the WAL's
    /// writeback), so that the final sync of a large file does not meet a mountain of dirty
    /// pages. A hint only: it promises no durability, so the default does nothing (which is
    /// also what the crash models assume of it); the real file system starts the writeback
    /// without waiting for it (`sync_file_range(SYNC_FILE_RANGE_WRITE)`).
    fn start_writeback(&mut self) -> Result<()> {
        Ok(())
    }
    /// Makes sure the file's next `len` bytes are already written (as zeros), so that the
    /// append that follows overwrites blocks the file has, instead of growing it. A sync
    /// after an append that grows a file must also write the file's new size (on ext4, one
    /// more I/O round trip before the cache flush); a sync after an overwrite need not. The
    /// real file system writes zeros up to a 1 MiB boundary at a time (so the size changes
    /// once a step), and cuts the file back to its appended bytes when it is closed; a crash,
    /// or a power cut before the cut reached the disk, leaves the zeros, and WAL readers end
    /// the log at them (docs/format/wal.md §7). A hint: the default does nothing, and a
    /// failed zero write turns it off for the file.
    fn prepare_ahead(&mut self, _len: u64) {}
    /// Test hook for crash simulations: keeps the zeros `prepare_ahead` wrote when the file
    /// is closed, as a killed process leaves them.
    fn keep_tail(&mut self) {}
    /// Lets appends go through a mapping of the file instead of a system call each, until
    /// the file's first `sync`. Like `prepare_ahead`, the real file system then writes
    /// zeros ahead of the appended bytes (over the window it maps: 64 KiB at first,
    /// doubling to 1 MiB; cut off at close), so a crash leaves a zero tail; unlike it, a
    /// process killed during an append can leave that append's record torn before the
    /// zeros, which only point-in-time and skip-any recovery take as the end of the log
    /// (`DbInner::wal_maps_appends`). A hint: the default does nothing, and a file system
    /// whose stores could fail (see `map_window`), or that refuses the zeros or the
    /// mapping, goes on with system calls.
    fn map_appends(&mut self) {}
    /// Hands bytes a wrapper holds back to the file system. The file systems' own files
    /// hold nothing back, so the default does nothing; the buffered table file of flush and
    /// compaction (`db::table_file`) writes out its buffer.
    fn flush(&mut self) -> Result<()> {
        Ok(())
    }
}

/// A file open for sequential reading.
pub type SequentialFile = Box<dyn Read + Send>;

/// Everything the engine asks of a file system.
pub trait FileSystem: Send + Sync + std::fmt::Debug {
    /// Creates (truncating) a file for appending.
    fn new_writable(&self, path: &Path) -> Result<Box<dyn WritableFile>>;
    /// Opens a file for appending at its current end, creating it when missing.
    fn reopen_writable(&self, path: &Path) -> Result<Box<dyn WritableFile>>;
    fn new_sequential(&self, path: &Path) -> Result<SequentialFile>;
    /// Opens an existing file for positional reads (tables).
    fn new_random_access(&self, path: &Path) -> Result<Arc<dyn RandomAccessFile>>;
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
