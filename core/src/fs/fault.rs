// SPDX-License-Identifier: Apache-2.0
//! A fault-injecting file system for tests (LevelDB's fault-injection Env, pebble's
//! `errorfs`): [`FaultFs`] wraps another [`FileSystem`], counts every operation by
//! [`OpKind`], and fails the ones a test asks for:
//! - the Nth operation of a kind (optionally only on paths containing a string), once or for
//!   good, with EIO or ENOSPC ([`Fault`]);
//! - every write while the disk is full ([`FaultFs::set_no_space`]: appends and mkdirs fail
//!   with ENOSPC; creating an empty file, renaming, linking, deleting and syncing still
//!   work, as they do on a full ext4 or xfs with inodes to spare);
//! - every mutation while the file system is read-only ([`FaultFs::set_read_only`], EROFS);
//! - a crash at the Nth mutating operation ([`FaultFs::crash_at`]): that operation and every
//!   later one fails with EIO, as if the machine had stopped there.
//!
//! Over the in-memory file system ([`FaultFs::in_memory`]) it can then cut the power
//! ([`FaultFs::crash`]): unsynced bytes and unsynced directory entries are dropped (or kept,
//! or torn; see [`CrashMode`]), and the file system works again for the reopen. The real
//! file system cannot un-write bytes, so crashes need the in-memory one; error injection
//! works over either.
//!
//! Error texts are RocksDB's for the same failure (`IO error: <context>: <path>: <strerror>`,
//! `IO error: No space left on device: ...` for ENOSPC), so the engine's handling of a
//! failure can be checked by its message.

use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use parking_lot::Mutex;

pub use super::mem::CrashMode;
use super::mem::MemFs;
use super::{lock, FileSystem, RandomAccessFile, SequentialFile, WritableFile};
use crate::error::{Error, Result};

/// The kinds of operation that are counted and can be failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OpKind {
    /// Opening a file (for writing, which may create it, or for reading).
    Open,
    /// Appending to a file.
    Write,
    /// fsync/fdatasync of a file or a directory.
    Sync,
    Rename,
    Link,
    /// Deleting a file or a directory.
    Delete,
    /// Reading from a file (sequentially, positionally, or whole).
    Read,
    Truncate,
    Mkdir,
    /// Listing a directory.
    List,
    /// Taking the `LOCK` file.
    Lock,
    /// Asking a file's size.
    Stat,
}

impl OpKind {
    /// Every kind, in a fixed order.
    pub const ALL: [OpKind; 12] = [
        OpKind::Open,
        OpKind::Write,
        OpKind::Sync,
        OpKind::Rename,
        OpKind::Link,
        OpKind::Delete,
        OpKind::Read,
        OpKind::Truncate,
        OpKind::Mkdir,
        OpKind::List,
        OpKind::Lock,
        OpKind::Stat,
    ];

    fn index(self) -> usize {
        OpKind::ALL.iter().position(|k| *k == self).unwrap_or(0)
    }
}

/// The error an injected fault returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultError {
    /// EIO: "Input/output error".
    Io,
    /// ENOSPC: "No space left on device".
    NoSpace,
    /// EROFS: "Read-only file system".
    ReadOnly,
}

impl FaultError {
    fn errno(self) -> i32 {
        match self {
            FaultError::Io => libc::EIO,
            FaultError::NoSpace => libc::ENOSPC,
            FaultError::ReadOnly => libc::EROFS,
        }
    }
}

/// One injected failure: the `nth` (0 = the next) operation of `kind` (None = any kind) on a
/// path containing `path_contains` fails with `error`; with `forever`, so does every
/// matching operation after it.
#[derive(Debug, Clone)]
pub struct Fault {
    pub kind: Option<OpKind>,
    pub nth: u64,
    pub forever: bool,
    pub error: FaultError,
    pub path_contains: Option<String>,
}

impl Fault {
    /// The `nth` operation of `kind` from now fails once with EIO.
    pub fn nth(kind: OpKind, nth: u64) -> Fault {
        Fault {
            kind: Some(kind),
            nth,
            forever: false,
            error: FaultError::Io,
            path_contains: None,
        }
    }
    /// ... and every matching operation after it.
    pub fn forever(mut self) -> Fault {
        self.forever = true;
        self
    }
    pub fn with_error(mut self, error: FaultError) -> Fault {
        self.error = error;
        self
    }
    /// Only operations on paths containing `s` match (and are counted toward `nth`).
    pub fn on_path(mut self, s: &str) -> Fault {
        self.path_contains = Some(s.to_string());
        self
    }
}

#[derive(Default)]
struct State {
    counts: [u64; OpKind::ALL.len()],
    /// Mutating operations seen so far (the crash sweep's clock).
    mutating: u64,
    /// Armed faults with how many matching operations each has let through.
    faults: Vec<(Fault, u64)>,
    crash_at: Option<u64>,
    /// Set once the crash point is reached: every operation fails.
    down: bool,
    no_space: bool,
    read_only: bool,
    /// A failed append (fault or ENOSPC) still writes the first half of its bytes.
    torn_failed_writes: bool,
    trace: Option<Vec<String>>,
}

struct Shared {
    state: Mutex<State>,
}

impl Shared {
    /// Counts one operation and decides whether it fails. `context` is the text RocksDB's
    /// posix layer puts before the path for this operation.
    fn check(&self, kind: OpKind, path: &Path, mutating: bool, context: &str) -> Result<()> {
        let mut st = self.state.lock();
        let fail = |code: i32| Error::from_io(context, path, &io::Error::from_raw_os_error(code));
        if st.down {
            return Err(fail(libc::EIO));
        }
        let index = mutating.then_some(st.mutating);
        if let Some(index) = index {
            st.mutating += 1;
            if st.crash_at == Some(index) {
                st.down = true;
                if let Some(trace) = st.trace.as_mut() {
                    trace.push(format!(
                        "#{index} {kind:?} {} (crash point)",
                        path.display()
                    ));
                }
                return Err(fail(libc::EIO));
            }
        }
        st.counts[kind.index()] += 1;
        if let Some(trace) = st.trace.as_mut() {
            trace.push(match index {
                Some(i) => format!("#{i} {kind:?} {}", path.display()),
                None => format!("{kind:?} {}", path.display()),
            });
        }
        if st.read_only && mutating {
            return Err(fail(libc::EROFS));
        }
        let allocates = matches!(kind, OpKind::Write | OpKind::Mkdir);
        if st.no_space && mutating && allocates {
            return Err(fail(libc::ENOSPC));
        }
        let text = path.to_string_lossy();
        let hit = st.faults.iter_mut().position(|(f, seen)| {
            let matches = f.kind.is_none_or(|k| k == kind)
                && f.path_contains.as_deref().is_none_or(|s| text.contains(s));
            if !matches {
                return false;
            }
            if *seen < f.nth {
                *seen += 1;
                return false;
            }
            true
        });
        if let Some(i) = hit {
            let error = st.faults[i].0.error;
            if !st.faults[i].0.forever {
                st.faults.remove(i);
            }
            return Err(fail(error.errno()));
        }
        Ok(())
    }
}

/// The fault-injecting file system. Cheap to share (`Arc`); every clone of the `Arc` sees the
/// same counters and faults.
pub struct FaultFs {
    inner: Arc<dyn FileSystem>,
    /// The in-memory file system under `inner`, when there is one: crashes need it.
    mem: Option<Arc<MemFs>>,
    shared: Arc<Shared>,
}

impl std::fmt::Debug for FaultFs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FaultFs")
            .field("inner", &self.inner)
            .finish_non_exhaustive()
    }
}

impl FaultFs {
    /// Wraps `inner` (error injection only; [`FaultFs::crash`] needs the in-memory one).
    pub fn new(inner: Arc<dyn FileSystem>) -> Arc<FaultFs> {
        Arc::new(FaultFs {
            inner,
            mem: None,
            shared: Arc::new(Shared {
                state: Mutex::new(State::default()),
            }),
        })
    }

    /// Over a fresh, empty in-memory file system.
    pub fn in_memory() -> Arc<FaultFs> {
        Self::over_memory(Arc::new(MemFs::new()))
    }

    /// Over the in-memory file system `mem`.
    pub fn over_memory(mem: Arc<MemFs>) -> Arc<FaultFs> {
        Arc::new(FaultFs {
            inner: mem.clone(),
            mem: Some(mem),
            shared: Arc::new(Shared {
                state: Mutex::new(State::default()),
            }),
        })
    }

    /// The in-memory file system underneath, if any.
    pub fn memory(&self) -> Option<&Arc<MemFs>> {
        self.mem.as_ref()
    }

    /// Arms `fault`. Its `nth` counts matching operations from now.
    pub fn inject(&self, fault: Fault) {
        self.shared.state.lock().faults.push((fault, 0));
    }

    /// Disarms every fault and clears the full-disk and read-only states.
    pub fn heal(&self) {
        let mut st = self.shared.state.lock();
        st.faults.clear();
        st.no_space = false;
        st.read_only = false;
    }

    /// While on, operations that need data blocks (appends, mkdir) fail with ENOSPC.
    pub fn set_no_space(&self, on: bool) {
        self.shared.state.lock().no_space = on;
    }

    /// While on, every mutating operation fails with EROFS.
    pub fn set_read_only(&self, on: bool) {
        self.shared.state.lock().read_only = on;
    }

    /// While on, an append that fails (by a fault or ENOSPC) first writes half its bytes,
    /// as a short write does.
    pub fn set_torn_failed_writes(&self, on: bool) {
        self.shared.state.lock().torn_failed_writes = on;
    }

    /// The machine stops at mutating operation number `index` (0-based, counted since this
    /// file system was made): it and every later operation fail with EIO.
    pub fn crash_at(&self, index: u64) {
        self.shared.state.lock().crash_at = Some(index);
    }

    /// Whether the crash point was reached.
    pub fn is_down(&self) -> bool {
        self.shared.state.lock().down
    }

    /// Mutating operations so far: creations, appends, syncs, renames, links, deletions,
    /// truncations, mkdirs and locks (the crash points of a run).
    pub fn mutating_ops(&self) -> u64 {
        self.shared.state.lock().mutating
    }

    /// Operations of `kind` so far (failed ones included, those after a crash excluded).
    pub fn count(&self, kind: OpKind) -> u64 {
        self.shared.state.lock().counts[kind.index()]
    }

    /// Starts recording every operation as "Kind path", a mutating one as "#index Kind path"
    /// (its crash point number; the crash point itself is marked), for debugging a failed
    /// case: the trace shows how background work interleaved with the workload.
    pub fn start_trace(&self) {
        self.shared.state.lock().trace = Some(Vec::new());
    }

    /// The recorded operations.
    pub fn trace(&self) -> Vec<String> {
        self.shared.state.lock().trace.clone().unwrap_or_default()
    }

    /// Simulates the crash: applies `mode` to the in-memory file system and brings it back
    /// up with no fault armed (counters are kept).
    ///
    /// # Errors
    /// `Not implemented` over a file system other than the in-memory one.
    pub fn crash(&self, mode: CrashMode) -> Result<()> {
        let mem = self.mem.as_ref().ok_or_else(|| {
            Error::not_supported("FaultFs can only crash over the in-memory file system")
        })?;
        mem.crash(mode);
        let mut st = self.shared.state.lock();
        st.down = false;
        st.crash_at = None;
        drop(st);
        self.heal();
        Ok(())
    }

    /// A separate file system over a deep copy of this one's in-memory files (each crash
    /// mode of one run gets its own copy), with fresh counters and no faults.
    ///
    /// # Errors
    /// `Not implemented` over a file system other than the in-memory one.
    pub fn snapshot(&self) -> Result<Arc<FaultFs>> {
        let mem = self.mem.as_ref().ok_or_else(|| {
            Error::not_supported("FaultFs can only copy the in-memory file system")
        })?;
        Ok(Self::over_memory(Arc::new(mem.snapshot())))
    }

    fn check(&self, kind: OpKind, path: &Path, mutating: bool, context: &str) -> Result<()> {
        self.shared.check(kind, path, mutating, context)
    }

    fn wrap_writable(&self, inner: Box<dyn WritableFile>, path: &Path) -> Box<dyn WritableFile> {
        Box::new(FaultWritable {
            inner,
            shared: self.shared.clone(),
            path: path.to_path_buf(),
        })
    }
}

struct FaultWritable {
    inner: Box<dyn WritableFile>,
    shared: Arc<Shared>,
    path: PathBuf,
}

impl WritableFile for FaultWritable {
    fn append(&mut self, data: &[u8]) -> Result<()> {
        if let Err(e) =
            self.shared
                .check(OpKind::Write, &self.path, true, "While appending to file")
        {
            let torn = {
                let st = self.shared.state.lock();
                st.torn_failed_writes && !st.down
            };
            if torn {
                let _ = self.inner.append(&data[..data.len() / 2]);
            }
            return Err(e);
        }
        self.inner.append(data)
    }
    fn sync(&mut self) -> Result<()> {
        self.shared
            .check(OpKind::Sync, &self.path, true, "While fdatasync")?;
        self.inner.sync()
    }
    fn size(&self) -> u64 {
        self.inner.size()
    }
}

struct FaultSequential {
    inner: SequentialFile,
    shared: Arc<Shared>,
    path: PathBuf,
}

impl Read for FaultSequential {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.shared
            .check(OpKind::Read, &self.path, false, "While reading")
            .map_err(|e| io::Error::other(e.message().to_string()))?;
        self.inner.read(buf)
    }
}

struct FaultRandomAccess {
    inner: Arc<dyn RandomAccessFile>,
    shared: Arc<Shared>,
    path: PathBuf,
}

impl RandomAccessFile for FaultRandomAccess {
    fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>> {
        self.shared.check(
            OpKind::Read,
            &self.path,
            false,
            &format!("While pread offset {offset} len {len}"),
        )?;
        self.inner.read_at(offset, len)
    }
    fn size(&self) -> Result<u64> {
        self.shared.check(
            OpKind::Stat,
            &self.path,
            false,
            "while stat a file for size",
        )?;
        self.inner.size()
    }
}

impl FileSystem for FaultFs {
    fn new_writable(&self, path: &Path) -> Result<Box<dyn WritableFile>> {
        self.check(OpKind::Open, path, true, "While open a file for appending")?;
        let f = self.inner.new_writable(path)?;
        Ok(self.wrap_writable(f, path))
    }
    fn reopen_writable(&self, path: &Path) -> Result<Box<dyn WritableFile>> {
        self.check(OpKind::Open, path, true, "While open a file for appending")?;
        let f = self.inner.reopen_writable(path)?;
        Ok(self.wrap_writable(f, path))
    }
    fn new_sequential(&self, path: &Path) -> Result<SequentialFile> {
        let context = "While opening a file for sequentially reading";
        self.check(OpKind::Open, path, false, context)?;
        Ok(Box::new(FaultSequential {
            inner: self.inner.new_sequential(path)?,
            shared: self.shared.clone(),
            path: path.to_path_buf(),
        }))
    }
    fn new_random_access(&self, path: &Path) -> Result<Arc<dyn RandomAccessFile>> {
        self.check(
            OpKind::Open,
            path,
            false,
            "While open a file for random read",
        )?;
        Ok(Arc::new(FaultRandomAccess {
            inner: self.inner.new_random_access(path)?,
            shared: self.shared.clone(),
            path: path.to_path_buf(),
        }))
    }
    fn read_all(&self, path: &Path) -> Result<Vec<u8>> {
        let context = "While opening a file for sequentially reading";
        self.check(OpKind::Open, path, false, context)?;
        self.check(OpKind::Read, path, false, "While reading")?;
        self.inner.read_all(path)
    }
    fn exists(&self, path: &Path) -> bool {
        self.inner.exists(path)
    }
    fn file_size(&self, path: &Path) -> Result<u64> {
        self.check(OpKind::Stat, path, false, "while stat a file for size")?;
        self.inner.file_size(path)
    }
    fn list_dir(&self, path: &Path) -> Result<Vec<String>> {
        self.check(OpKind::List, path, false, "While opendir")?;
        self.inner.list_dir(path)
    }
    fn create_dir_all(&self, path: &Path) -> Result<()> {
        // mkdir of an existing directory changes nothing (EEXIST, even when read-only).
        if self.inner.exists(path) {
            return self.inner.create_dir_all(path);
        }
        self.check(OpKind::Mkdir, path, true, "While mkdir if missing")?;
        self.inner.create_dir_all(path)
    }
    fn remove_file(&self, path: &Path) -> Result<()> {
        self.check(OpKind::Delete, path, true, "while unlink() file")?;
        self.inner.remove_file(path)
    }
    fn remove_dir(&self, path: &Path) -> Result<()> {
        self.check(OpKind::Delete, path, true, "file rmdir")?;
        self.inner.remove_dir(path)
    }
    fn rename(&self, from: &Path, to: &Path) -> Result<()> {
        let context = format!("While renaming a file to {}", to.display());
        self.check(OpKind::Rename, from, true, &context)?;
        self.inner.rename(from, to)
    }
    fn hard_link(&self, from: &Path, to: &Path) -> Result<()> {
        let context = format!("while link file to {}", to.display());
        self.check(OpKind::Link, from, true, &context)?;
        self.inner.hard_link(from, to)
    }
    fn sync_dir(&self, path: &Path) -> Result<()> {
        self.check(OpKind::Sync, path, true, "While fsync")?;
        self.inner.sync_dir(path)
    }
    fn truncate(&self, path: &Path, len: u64) -> Result<()> {
        self.check(OpKind::Truncate, path, true, "While truncate file")?;
        self.inner.truncate(path, len)
    }
    fn lock_file(&self, path: &Path) -> Result<lock::FileLock> {
        self.check(OpKind::Lock, path, true, "while open a file for lock")?;
        self.inner.lock_file(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nth_fault_fires_once_then_lets_operations_through() {
        let fs = FaultFs::in_memory();
        fs.inject(Fault::nth(OpKind::Write, 1));
        let mut f = fs.new_writable(Path::new("/a")).expect("create");
        f.append(b"1").expect("0th write passes");
        let err = f.append(b"2").expect_err("1st write fails");
        assert_eq!(
            err.to_string(),
            "IO error: While appending to file: /a: Input/output error"
        );
        f.append(b"3").expect("the fault fired once");
        assert_eq!(fs.read_all(Path::new("/a")).expect("read"), b"13");
        assert_eq!(fs.count(OpKind::Write), 3);
    }

    #[test]
    fn forever_faults_match_kind_and_path() {
        let fs = FaultFs::in_memory();
        fs.inject(Fault::nth(OpKind::Sync, 0).forever().on_path("MANIFEST"));
        let mut m = fs
            .new_writable(Path::new("/MANIFEST-000001"))
            .expect("create");
        let mut w = fs.new_writable(Path::new("/000003.log")).expect("create");
        w.sync().expect("other paths pass");
        m.sync().expect_err("fails");
        m.sync().expect_err("fails for good");
        fs.heal();
        m.sync().expect("healed");
    }

    #[test]
    fn no_space_and_read_only_use_the_os_texts() {
        let fs = FaultFs::in_memory();
        fs.create_dir_all(Path::new("/db")).expect("mkdir");
        fs.set_no_space(true);
        let mut f = fs
            .new_writable(Path::new("/db/x"))
            .expect("an empty file needs no block");
        fs.create_dir_all(Path::new("/db/sub"))
            .expect_err("a directory does");
        let err = f.append(b"data").expect_err("full");
        assert_eq!(
            err.to_string(),
            "IO error: No space left on device: While appending to file: /db/x: No space left on device"
        );
        assert!(err.is_no_space());
        f.sync().expect("syncing needs no space");
        fs.remove_file(Path::new("/db/x"))
            .expect("deleting frees space");
        fs.set_no_space(false);
        fs.set_read_only(true);
        fs.create_dir_all(Path::new("/db"))
            .expect("an existing directory is fine");
        let err = fs.lock_file(Path::new("/db/LOCK")).expect_err("read-only");
        assert_eq!(
            err.to_string(),
            "IO error: while open a file for lock: /db/LOCK: Read-only file system"
        );
        fs.read_all(Path::new("/db/nothing")).expect_err("missing");
    }

    #[test]
    fn crash_point_stops_everything_and_crash_drops_unsynced_data() {
        let fs = FaultFs::in_memory();
        let mut f = fs.new_writable(Path::new("/log")).expect("op 0: create");
        f.append(b"synced").expect("op 1");
        f.sync().expect("op 2");
        fs.sync_dir(Path::new("/")).expect("op 3");
        f.append(b"lost").expect("op 4");
        fs.crash_at(6);
        f.append(b"also lost").expect("op 5");
        f.sync().expect_err("op 6: the crash point");
        assert!(fs.is_down());
        fs.read_all(Path::new("/log")).expect_err("down");
        assert_eq!(fs.mutating_ops(), 7);
        let copy = fs.snapshot().expect("copy");
        fs.crash(CrashMode::DropUnsynced).expect("crash");
        assert_eq!(fs.read_all(Path::new("/log")).expect("up again"), b"synced");
        copy.crash(CrashMode::KeepUnsynced).expect("crash");
        assert_eq!(
            copy.read_all(Path::new("/log")).expect("read"),
            b"syncedlostalso lost"
        );
    }

    #[test]
    fn trace_numbers_the_crash_points() {
        let fs = FaultFs::in_memory();
        fs.start_trace();
        fs.crash_at(2);
        let mut f = fs.new_writable(Path::new("/t")).expect("op 0");
        fs.read_all(Path::new("/t")).expect("not a crash point");
        f.append(b"x").expect("op 1");
        f.sync().expect_err("op 2: the crash point");
        f.sync().expect_err("down: not traced");
        assert_eq!(
            fs.trace(),
            vec![
                "#0 Open /t",
                "Open /t",
                "Read /t",
                "#1 Write /t",
                "#2 Sync /t (crash point)"
            ]
        );
    }

    #[test]
    fn torn_failed_writes_leave_half_the_bytes() {
        let fs = FaultFs::in_memory();
        let mut f = fs.new_writable(Path::new("/w")).expect("create");
        fs.set_torn_failed_writes(true);
        fs.inject(Fault::nth(OpKind::Write, 0).with_error(FaultError::NoSpace));
        f.append(b"abcdef").expect_err("fails");
        assert_eq!(fs.read_all(Path::new("/w")).expect("read"), b"abc");
    }

    #[test]
    fn error_injection_works_over_the_real_file_system() {
        let dir = tempfile::tempdir().expect("tempdir");
        let fs = FaultFs::new(Arc::new(super::super::posix::PosixFs));
        let p = dir.path().join("f");
        fs.inject(Fault::nth(OpKind::Rename, 0));
        let mut f = fs.new_writable(&p).expect("create");
        f.append(b"x").expect("append");
        fs.rename(&p, &dir.path().join("g")).expect_err("injected");
        assert!(p.exists());
        fs.crash(CrashMode::DropUnsynced)
            .expect_err("cannot crash the real file system");
    }
}
