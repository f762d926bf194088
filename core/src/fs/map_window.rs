// SPDX-License-Identifier: Apache-2.0
//! A writable window of a file mapped into memory (`MAP_SHARED`), through which
//! `PosixWritable` can append without a system call per append (`WritableFile::map_appends`).
//!
//! # Why
//!
//! An unsynced WAL append was one `write(2)` per write group: about a fifth of a single
//! writer's time in the driver's fillrandom went to the system call and ext4's buffered
//! write path, once per 130-byte put. A store into a shared mapping reaches the same page
//! cache, so it survives a process kill as a `write(2)` does, and the kernel's per-page work
//! (the fault that marks the page dirty) happens once per 4 KiB page instead of once per
//! append.
//!
//! # The rules this module keeps
//!
//! - The file must already hold every byte a window covers: a store to a mapped page past
//!   the file's end, or to a hole the file system cannot back when the disk is full, raises
//!   SIGBUS, which would kill the host. So the caller first writes zeros over the window
//!   with `pwrite` (which fails with ENOSPC instead, and then the caller goes back to
//!   `write(2)`), and maps only what it wrote, and only on file systems where a written
//!   zero guarantees the later store its block ([`zeros_back_stores`]).
//! - Zeros, not `fallocate`: ext4 (data=ordered) puts a file whose preallocated blocks are
//!   stored into on the journal's ordered list, so every commit (5 s) wrote the WAL's pages
//!   out; a WAL that is deleted after its flush then reached the disk in full (fillrandom:
//!   device write-amp 0.84 -> 2.03). Zero pages written by `pwrite` are delayed
//!   allocations, written back only when the kernel's writeback gets to them, as appended
//!   pages are.
//! - A window is owned by one value, unmapped when it is dropped; writes go through
//!   [`MapWindow::write`] only, which checks the range against the window.
//!
//! One of the modules of `core` with `unsafe` code (UNSAFE.md): `mmap`, `munmap`,
//! `fstatfs`, and the copy into the mapping.
#![cfg(target_os = "linux")]
#![expect(
    unsafe_code,
    reason = "file mappings and fstatfs are only available from libc"
)]

use std::fs::File;
use std::os::fd::AsRawFd;
use std::ptr::NonNull;

/// A mapped, writable range `[start, start + len)` of a file.
pub(super) struct MapWindow {
    ptr: NonNull<u8>,
    len: usize,
    start: u64,
}

// SAFETY: the mapping is owned by this value alone; it is plain memory with no thread
// affinity, and it is written only through `&mut self`.
unsafe impl Send for MapWindow {}
// SAFETY: shared references give no access to the mapping at all.
unsafe impl Sync for MapWindow {}

impl MapWindow {
    /// Maps `[start, start + len)` of `file` for writing. `start` must be a multiple of the
    /// page size, and the file must hold the whole range (see the module docs).
    pub(super) fn new(file: &File, start: u64, len: usize) -> std::io::Result<Self> {
        let off = libc::off_t::try_from(start)
            .map_err(|_| std::io::Error::from_raw_os_error(libc::EOVERFLOW))?;
        if len == 0 {
            return Err(std::io::Error::from_raw_os_error(libc::EINVAL));
        }
        // SAFETY: a new shared mapping of the file's own open descriptor, placed by the
        // kernel (no fixed address, so no existing memory is replaced); the result is
        // checked before use.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                file.as_raw_fd(),
                off,
            )
        };
        if p == libc::MAP_FAILED {
            return Err(std::io::Error::last_os_error());
        }
        let ptr = NonNull::new(p.cast::<u8>())
            .ok_or_else(|| std::io::Error::from_raw_os_error(libc::ENOMEM))?;
        Ok(MapWindow { ptr, len, start })
    }

    /// The file offset just past the window.
    pub(super) fn end(&self) -> u64 {
        self.start + self.len as u64
    }

    /// Whether `at` lies in the window.
    pub(super) fn covers(&self, at: u64) -> bool {
        at >= self.start && at < self.end()
    }

    /// Copies as much of `data` as fits into the window at file offset `at` (which must be
    /// in the window); returns how many bytes it copied.
    pub(super) fn write(&mut self, at: u64, data: &[u8]) -> usize {
        if !self.covers(at) {
            return 0;
        }
        let from = (at - self.start) as usize;
        let n = data.len().min(self.len - from);
        let dst = self.ptr.as_ptr().wrapping_add(from);
        // SAFETY: `from + n <= len`, so `dst..dst + n` lies inside the live mapping this
        // value owns, which is readable and writable for `len` bytes and backed by blocks
        // the file holds (the module's first rule); `data` is a distinct Rust allocation,
        // so the ranges do not overlap. No Rust reference to the mapping exists.
        unsafe {
            std::ptr::copy_nonoverlapping(data.as_ptr(), dst, n);
        }
        n
    }
}

impl Drop for MapWindow {
    fn drop(&mut self) {
        // SAFETY: `ptr`/`len` are exactly the mapping `new` made, owned by this value and
        // unmapped only here; nothing refers into it afterwards. Dirty pages stay in the
        // page cache (and reach the disk as written pages do).
        unsafe {
            libc::munmap(self.ptr.as_ptr().cast(), self.len);
        }
    }
}

/// Whether a store into a page of `file` that a written zero already backs can never fail:
/// true on ext4, XFS and tmpfs, where the zero write reserved the page's block (ext4 and
/// XFS delay the allocation but reserve the space; tmpfs allocates the page). A
/// copy-on-write file system (btrfs) must find a new block at the store, and raises
/// SIGBUS when the disk is full, so its files, and any file system not named here, are
/// not mapped.
pub(super) fn zeros_back_stores(file: &File) -> bool {
    const EXT4: i64 = 0xEF53;
    const XFS: i64 = 0x5846_5342;
    const TMPFS: i64 = 0x0102_1994;
    let mut st = std::mem::MaybeUninit::<libc::statfs>::zeroed();
    // SAFETY: the descriptor is the file's own and open; `st` is a properly sized,
    // writable statfs buffer that the call fills.
    let rc = unsafe { libc::fstatfs(file.as_raw_fd(), st.as_mut_ptr()) };
    if rc != 0 {
        return false;
    }
    // SAFETY: fstatfs succeeded, so it initialised the buffer (which was zeroed anyway).
    let st = unsafe { st.assume_init() };
    #[allow(clippy::useless_conversion, clippy::unnecessary_cast)]
    let kind = st.f_type as i64;
    matches!(kind, EXT4 | XFS | TMPFS)
}
