// SPDX-License-Identifier: Apache-2.0
//! The DB directory's `LOCK`: a POSIX `fcntl(F_SETLK)` write lock over the whole file, as
//! RocksDB takes it (`env/fs_posix.cc`), so that a librocksdb process and solistore exclude
//! each other; plus a process-wide table of held paths, because fcntl locks do not exclude
//! a second open from the same process.
//!
//! One of the two modules of `core` with `unsafe` code (see UNSAFE.md): three libc calls.
#![expect(
    unsafe_code,
    reason = "fcntl record locks and the thread id are only available from libc"
)]

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{SystemTime, UNIX_EPOCH};

use parking_lot::Mutex;

use crate::error::{Error, Result};

/// Paths locked by this process, with when and by which thread (for RocksDB's message).
fn held() -> &'static Mutex<HashMap<PathBuf, (u64, u64)>> {
    static HELD: OnceLock<Mutex<HashMap<PathBuf, (u64, u64)>>> = OnceLock::new();
    HELD.get_or_init(|| Mutex::new(HashMap::new()))
}

/// A held lock; dropping it releases the fcntl lock (by closing the file) and the table entry.
#[derive(Debug)]
pub struct FileLock {
    path: PathBuf,
    /// None for a lock of a file system that lives only in this process (`fs::mem`).
    _file: Option<File>,
}

impl Drop for FileLock {
    fn drop(&mut self) {
        held().lock().remove(&self.path);
        // Closing `_file` (dropped after this) releases the fcntl lock.
    }
}

fn thread_id() -> u64 {
    // SAFETY: `pthread_self` has no preconditions and cannot fail.
    let id = unsafe { libc::pthread_self() };
    id as u64
}

/// Locks `path` (creating it), failing with RocksDB's messages when this process or another
/// holds it.
pub fn lock(path: &Path) -> Result<FileLock> {
    let key = path.to_path_buf();
    let mut table = held().lock();
    check_not_held(&table, &key, path)?;
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| Error::from_io("while open a file for lock", path, &e))?;
    fcntl_write_lock(&file).map_err(|e| Error::from_io("While lock file", path, &e))?;
    table.insert(key.clone(), (now_secs(), thread_id()));
    Ok(FileLock {
        path: key,
        _file: Some(file),
    })
}

/// Takes `key` in this process's table only, with no file behind it: the lock of a file
/// system that exists only in this process (`fs::mem`). `shown` is the path messages name.
pub(crate) fn lock_in_process(key: PathBuf, shown: &Path) -> Result<FileLock> {
    let mut table = held().lock();
    check_not_held(&table, &key, shown)?;
    table.insert(key.clone(), (now_secs(), thread_id()));
    Ok(FileLock {
        path: key,
        _file: None,
    })
}

fn check_not_held(table: &HashMap<PathBuf, (u64, u64)>, key: &Path, shown: &Path) -> Result<()> {
    match table.get(key) {
        Some((when, tid)) => Err(Error::io_error(format!(
            "lock hold by current process, acquire time {when} acquiring thread {tid}: {}: No locks available",
            shown.display()
        ))),
        None => Ok(()),
    }
}

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

fn fcntl_write_lock(file: &File) -> std::io::Result<()> {
    // SAFETY: an all-zero `flock` is a valid value of this plain C struct.
    let mut fl: libc::flock = unsafe { std::mem::zeroed() };
    fl.l_type = libc::F_WRLCK as libc::c_short;
    fl.l_whence = libc::SEEK_SET as libc::c_short;
    fl.l_start = 0;
    fl.l_len = 0; // the whole file
                  // SAFETY: the fd is open for the lifetime of `file`, and `fl` is a valid flock struct
                  // that lives across the call.
    let rc = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_SETLK, &fl) };
    if rc == -1 {
        Err(std::io::Error::last_os_error())
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_lock_in_process_fails_with_rocksdb_text() {
        let dir = tempfile::tempdir().expect("tempdir");
        let p = dir.path().join("LOCK");
        let first = lock(&p).expect("first lock");
        let err = lock(&p).expect_err("second lock must fail");
        assert!(err
            .to_string()
            .starts_with("IO error: lock hold by current process, acquire time "));
        assert!(err.to_string().ends_with("/LOCK: No locks available"));
        drop(first);
        lock(&p).expect("lock after release");
    }
}
