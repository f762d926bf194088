// SPDX-License-Identifier: Apache-2.0
//! The real file system: std::fs, with fdatasync for `sync`, `pread` for table reads, and
//! RocksDB's error texts (`env/fs_posix.cc`, `env/io_posix.h`).

use std::fs::{self, File, OpenOptions};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{lock, FileSystem, RandomAccessFile, SequentialFile, WritableFile};
use crate::error::{Error, Result};

/// std::fs behind the [`FileSystem`] trait.
#[derive(Debug, Default, Clone, Copy)]
pub struct PosixFs;

struct PosixWritable {
    file: File,
    path: std::path::PathBuf,
    size: u64,
    /// Where the last `start_writeback` (or sync) ended: the next one starts there.
    written_back: u64,
    /// False once the file system refused `sync_file_range`.
    range_sync: bool,
    /// Where the zeros `prepare_ahead`, or the mapped windows, wrote end (0: none were
    /// written). Past `size` while the file has a zero tail, which `Drop` cuts off.
    prepared: u64,
    /// Opened with `O_APPEND` (`reopen_writable`): a positional write would append, so
    /// `prepare_ahead` does nothing. Also set when a zero write failed.
    appending: bool,
    /// Appends go through a mapped window (`map_appends`, until the first sync).
    #[cfg(target_os = "linux")]
    maps: bool,
    /// The window the appends go into (None before the first mapped append).
    #[cfg(target_os = "linux")]
    window: Option<super::map_window::MapWindow>,
}

/// The largest mapped window, and the step in which zeros are written ahead of the appends
/// past the file's first MiB.
#[cfg(target_os = "linux")]
const MAP_WINDOW: u64 = 1 << 20;

/// The first window's size. The windows double up to [`MAP_WINDOW`] (64 KiB, 64 KiB,
/// 128 KiB, ... 512 KiB, then 1 MiB each), so a WAL that lives for a few writes (a checkpoint
/// or flush loop starts one per memtable switch) writes 64 KiB of zeros, not 1 MiB.
#[cfg(target_os = "linux")]
const FIRST_MAP_WINDOW: u64 = 64 << 10;

/// The window `[start, start + len)` that holds file offset `at` (see [`FIRST_MAP_WINDOW`]).
#[cfg(target_os = "linux")]
fn map_window_at(at: u64) -> (u64, u64) {
    if at >= MAP_WINDOW {
        (at / MAP_WINDOW * MAP_WINDOW, MAP_WINDOW)
    } else if at < FIRST_MAP_WINDOW {
        (0, FIRST_MAP_WINDOW)
    } else {
        let start = 1 << (63 - at.leading_zeros());
        (start, start)
    }
}

/// `prepare_ahead` writes zeros up to a multiple of this.
const PREPARE_CHUNK: u64 = 1 << 20;

/// The zeros `prepare_ahead` writes, one page per write: a larger write lets the page
/// cache hold the file in large folios, and each later small append then dirties (and is
/// counted in the process's `write_bytes` as) a whole folio, though the disk is written a
/// block at a time (measured: 58 KB counted per 116 B synced commit with 64 KiB writes).
static ZEROS: [u8; 4096] = [0; 4096];

impl Drop for PosixWritable {
    /// Cuts off the zero tail `prepare_ahead` left, so that a closed file is exactly its
    /// appended bytes. Best effort: a tail that stays is zeros, which readers skip.
    fn drop(&mut self) {
        self.unmap();
        if self.prepared > self.size {
            let _ = self.file.set_len(self.size);
        }
    }
}

/// Writes zeros over `[from, to)` of `file`, one page per write ([`ZEROS`]).
fn write_zeros(file: &File, mut from: u64, to: u64) -> std::io::Result<()> {
    use std::os::unix::fs::FileExt;
    while from < to {
        let n = (to - from).min(ZEROS.len() as u64) as usize;
        file.write_all_at(&ZEROS[..n], from)?;
        from += n as u64;
    }
    Ok(())
}

impl PosixWritable {
    /// Ends mapped appends for good (the window is unmapped; its pages stay in the page
    /// cache). Returns whether they were on.
    #[cfg(target_os = "linux")]
    fn unmap(&mut self) -> bool {
        self.window = None;
        std::mem::take(&mut self.maps)
    }
    #[cfg(not(target_os = "linux"))]
    fn unmap(&mut self) -> bool {
        false
    }

    /// Appends through the mapping as much of `data` as it can; returns how many bytes that
    /// was. All of them unless this file does not map its appends, or can no longer (a
    /// failed zero write or mapping ends them, and the zeros are cut off at close); the
    /// caller writes the rest.
    #[cfg(target_os = "linux")]
    fn append_mapped(&mut self, data: &[u8]) -> usize {
        use super::map_window::MapWindow;
        if !self.maps {
            return 0;
        }
        let mut done = 0;
        while let Some(rest) = data.get(done..).filter(|r| !r.is_empty()) {
            let w = match self.window.as_mut() {
                Some(w) if w.covers(self.size) => w,
                _ => {
                    self.window = None;
                    let (start, len) = map_window_at(self.size);
                    let end = start + len;
                    let ok = self.prepared >= end
                        || write_zeros(&self.file, self.prepared.max(self.size), end).is_ok();
                    // Some zeros may have been written even when that failed: they are cut
                    // off at close, as `prepare_ahead`'s are; not now: ext4 writes out at
                    // close a file that was cut to size 0 and then written to
                    // (`auto_da_alloc`).
                    self.prepared = self.prepared.max(end);
                    match ok.then(|| MapWindow::new(&self.file, start, len as usize)) {
                        Some(Ok(w)) => self.window.insert(w),
                        _ => {
                            // The appends go on by `write(2)`.
                            self.maps = false;
                            return done;
                        }
                    }
                }
            };
            let n = w.write(self.size, rest);
            self.size += n as u64;
            done += n;
        }
        done
    }
    #[cfg(not(target_os = "linux"))]
    fn append_mapped(&mut self, _data: &[u8]) -> usize {
        0
    }
}

impl WritableFile for PosixWritable {
    fn append(&mut self, data: &[u8]) -> Result<()> {
        use std::os::unix::fs::FileExt;
        // A record larger than half a window goes out in one write, as it would unmapped.
        #[cfg(target_os = "linux")]
        let data = if (data.len() as u64) < MAP_WINDOW / 2 {
            let done = self.append_mapped(data);
            match data.get(done..) {
                Some(rest) if !rest.is_empty() => rest,
                _ => return Ok(()),
            }
        } else {
            data
        };
        // Positional: a mapped file's descriptor offset is not its end. With O_APPEND
        // (`reopen_writable`) the kernel appends anyway, at `size` too.
        self.file
            .write_all_at(data, self.size)
            .map_err(|e| Error::from_io("While appending to file", &self.path, &e))?;
        self.size += data.len() as u64;
        Ok(())
    }
    fn sync(&mut self) -> Result<()> {
        // A synced file writes from here on: the window's zeros are dirty pages, which
        // every fdatasync would write out whole, where `prepare_ahead` writes zeros only
        // while the syncs are small.
        if self.unmap() && self.prepared > self.size {
            self.file
                .set_len(self.size)
                .map_err(|e| Error::from_io("While truncate file", &self.path, &e))?;
            self.prepared = 0;
        }
        self.file
            .sync_data()
            .map_err(|e| Error::from_io("While fdatasync", &self.path, &e))?;
        self.written_back = self.size;
        Ok(())
    }
    fn size(&self) -> u64 {
        self.size
    }
    /// Writes zeros from the end of the prepared region (or of the file) to the next 1 MiB
    /// boundary past `size + len`. An append larger than that boundary step is left to grow
    /// the file: zeroing it first would write it twice. A zero write that fails (a full
    /// disk, say) turns the hint off for this file and cuts the file back to its appended
    /// bytes, so that the zeros do not take the space the append needs.
    fn prepare_ahead(&mut self, len: u64) {
        let need = self.size + len;
        if self.appending || need <= self.prepared || len > PREPARE_CHUNK {
            return;
        }
        let end = need.div_ceil(PREPARE_CHUNK) * PREPARE_CHUNK;
        if write_zeros(&self.file, self.prepared.max(self.size), end).is_err() {
            let _ = self.file.set_len(self.size);
            self.prepared = 0;
            self.appending = true;
            return;
        }
        self.prepared = end;
    }
    fn keep_tail(&mut self) {
        self.prepared = 0;
    }
    fn map_appends(&mut self) {
        #[cfg(target_os = "linux")]
        if !self.appending && self.size == 0 && super::map_window::zeros_back_stores(&self.file) {
            self.maps = true;
        }
    }
    /// `sync_file_range(SYNC_FILE_RANGE_WRITE)` over what was appended since the last call.
    /// It may block while the device's queue is full; it never waits for the writes. A file
    /// system that does not support it (`ENOSYS`, `EINVAL`, `ESPIPE`, `EOPNOTSUPP`) turns the
    /// hint off for this file, as RocksDB's `RangeSync` support check does; other errors are
    /// returned. Off Linux the hint does nothing.
    #[cfg(target_os = "linux")]
    #[allow(unsafe_code)] // UNSAFE.md: sync_file_range on the file's own descriptor.
    fn start_writeback(&mut self) -> Result<()> {
        use std::os::fd::AsRawFd;
        let (from, len) = (self.written_back, self.size - self.written_back);
        if len == 0 || !self.range_sync {
            return Ok(());
        }
        let (Ok(off), Ok(n)) = (libc::off64_t::try_from(from), libc::off64_t::try_from(len)) else {
            return Ok(());
        };
        // SAFETY: the descriptor is this file's own and open; the call only reads its args.
        let rc = unsafe {
            libc::sync_file_range(self.file.as_raw_fd(), off, n, libc::SYNC_FILE_RANGE_WRITE)
        };
        if rc != 0 {
            let e = std::io::Error::last_os_error();
            if matches!(
                e.raw_os_error(),
                Some(libc::ENOSYS | libc::EINVAL | libc::ESPIPE | libc::EOPNOTSUPP)
            ) {
                self.range_sync = false;
                return Ok(());
            }
            return Err(Error::from_io("While sync_file_range", &self.path, &e));
        }
        self.written_back = self.size;
        Ok(())
    }
}

/// A file read with `pread` (`FileExt::read_at`), shareable between threads. The read path's
/// only copy is the kernel's, into the block buffer this returns.
#[derive(Debug)]
pub struct PosixRandomAccessFile {
    file: File,
    path: PathBuf,
}

impl PosixRandomAccessFile {
    /// Opens `path` for reading.
    ///
    /// # Errors
    /// IO error when the file cannot be opened.
    pub fn open(path: &Path) -> Result<Self> {
        let file = File::open(path)
            .map_err(|e| Error::from_io("While open a file for random read", path, &e))?;
        Ok(PosixRandomAccessFile {
            file,
            path: path.to_path_buf(),
        })
    }
}

impl RandomAccessFile for PosixRandomAccessFile {
    fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>> {
        let mut buf = vec![0u8; len];
        self.read_into(offset, &mut buf)?;
        Ok(buf)
    }

    fn read_into(&self, offset: u64, buf: &mut [u8]) -> Result<()> {
        use std::os::unix::fs::FileExt;
        let len = buf.len();
        let mut done = 0;
        while done < len {
            match self.file.read_at(&mut buf[done..], offset + done as u64) {
                Ok(0) => return Err(truncated_read(&self.path, offset, len, done)),
                Ok(n) => done += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    return Err(Error::from_io(
                        &format!("While pread offset {offset} len {len}"),
                        &self.path,
                        &e,
                    ))
                }
            }
        }
        Ok(())
    }

    fn size(&self) -> Result<u64> {
        self.file
            .metadata()
            .map(|m| m.len())
            .map_err(|e| Error::from_io("while stat a file for size", &self.path, &e))
    }
}

/// The error of a positional read that ran past the end of the file.
pub(crate) fn truncated_read(path: &Path, offset: u64, len: usize, got: usize) -> Error {
    Error::corruption(format!(
        "truncated block read from {} offset {offset}, expected {len} bytes, got {got}",
        path.display()
    ))
}

impl FileSystem for PosixFs {
    fn new_writable(&self, path: &Path) -> Result<Box<dyn WritableFile>> {
        // Readable too: a shared writable mapping (`map_appends`) needs it.
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)
            .map_err(|e| Error::from_io("While open a file for appending", path, &e))?;
        Ok(Box::new(PosixWritable {
            file,
            path: path.to_path_buf(),
            size: 0,
            written_back: 0,
            range_sync: true,
            prepared: 0,
            appending: false,
            #[cfg(target_os = "linux")]
            maps: false,
            #[cfg(target_os = "linux")]
            window: None,
        }))
    }
    fn reopen_writable(&self, path: &Path) -> Result<Box<dyn WritableFile>> {
        let file = OpenOptions::new()
            .append(true)
            .create(true)
            .open(path)
            .map_err(|e| Error::from_io("While open a file for appending", path, &e))?;
        let size = file
            .metadata()
            .map_err(|e| Error::from_io("While stat a file for size", path, &e))?
            .len();
        Ok(Box::new(PosixWritable {
            file,
            path: path.to_path_buf(),
            size,
            written_back: size,
            range_sync: true,
            prepared: 0,
            appending: true,
            #[cfg(target_os = "linux")]
            maps: false,
            #[cfg(target_os = "linux")]
            window: None,
        }))
    }
    fn new_sequential(&self, path: &Path) -> Result<SequentialFile> {
        let file = File::open(path).map_err(|e| {
            Error::from_io("While opening a file for sequentially reading", path, &e)
        })?;
        Ok(Box::new(std::io::BufReader::with_capacity(64 * 1024, file)))
    }
    fn new_random_access(&self, path: &Path) -> Result<Arc<dyn RandomAccessFile>> {
        Ok(Arc::new(PosixRandomAccessFile::open(path)?))
    }
    fn read_all(&self, path: &Path) -> Result<Vec<u8>> {
        fs::read(path)
            .map_err(|e| Error::from_io("While opening a file for sequentially reading", path, &e))
    }
    fn exists(&self, path: &Path) -> bool {
        path.exists()
    }
    fn file_size(&self, path: &Path) -> Result<u64> {
        fs::metadata(path)
            .map(|m| m.len())
            .map_err(|e| Error::from_io("while stat a file for size", path, &e))
    }
    fn list_dir(&self, path: &Path) -> Result<Vec<String>> {
        let rd = fs::read_dir(path).map_err(|e| Error::from_io("While opendir", path, &e))?;
        let mut names = Vec::new();
        for entry in rd {
            let entry = entry.map_err(|e| Error::from_io("While readdir", path, &e))?;
            names.push(entry.file_name().to_string_lossy().into_owned());
        }
        Ok(names)
    }
    fn create_dir_all(&self, path: &Path) -> Result<()> {
        fs::create_dir_all(path).map_err(|e| Error::from_io("While mkdir", path, &e))
    }
    fn remove_file(&self, path: &Path) -> Result<()> {
        fs::remove_file(path).map_err(|e| Error::from_io("while unlink() file", path, &e))
    }
    fn remove_dir(&self, path: &Path) -> Result<()> {
        fs::remove_dir(path).map_err(|e| Error::from_io("While rmdir", path, &e))
    }
    fn rename(&self, from: &Path, to: &Path) -> Result<()> {
        fs::rename(from, to).map_err(|e| {
            Error::from_io(
                &format!("While renaming a file to {}", to.display()),
                from,
                &e,
            )
        })
    }
    fn hard_link(&self, from: &Path, to: &Path) -> Result<()> {
        fs::hard_link(from, to)
            .map_err(|e| Error::from_io(&format!("while link file to {}", to.display()), from, &e))
    }
    fn sync_dir(&self, path: &Path) -> Result<()> {
        let dir = File::open(path).map_err(|e| Error::from_io("While open directory", path, &e))?;
        dir.sync_all()
            .map_err(|e| Error::from_io("While fsync", path, &e))
    }
    fn truncate(&self, path: &Path, len: u64) -> Result<()> {
        let f = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| Error::from_io("While open file for truncate", path, &e))?;
        f.set_len(len)
            .map_err(|e| Error::from_io("While truncate file", path, &e))
    }
    fn lock_file(&self, path: &Path) -> Result<lock::FileLock> {
        lock::lock(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writeback_is_a_hint_that_keeps_the_file_as_written() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("000007.log");
        let fs = PosixFs;
        let mut f = fs.new_writable(&path).expect("create");
        f.start_writeback().expect("nothing to write back yet");
        f.append(&[5u8; 10_000]).expect("append");
        f.start_writeback().expect("writeback of the first part");
        f.append(&[6u8; 3_000]).expect("append");
        f.start_writeback().expect("writeback of the rest");
        f.sync().expect("sync");
        let bytes = fs.read_all(&path).expect("read back");
        assert_eq!(bytes.len(), 13_000);
        assert!(bytes[..10_000].iter().all(|&b| b == 5));
        assert!(bytes[10_000..].iter().all(|&b| b == 6));
        // A reopened file starts its writeback after what it already held.
        let mut g = fs.reopen_writable(&path).expect("reopen");
        g.append(&[7u8; 100]).expect("append");
        g.start_writeback().expect("writeback after reopen");
        assert_eq!(g.size(), 13_100);
    }

    #[test]
    fn appends_overwrite_zeros_written_ahead_and_closing_cuts_the_zeros_off() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("000008.log");
        let fs = PosixFs;
        let mut f = fs.new_writable(&path).expect("create");
        f.prepare_ahead(100);
        assert_eq!(fs.file_size(&path).expect("stat"), PREPARE_CHUNK);
        f.append(&[1u8; 100]).expect("append");
        // Within the prepared region: nothing more is written, and the size is the appends'.
        f.prepare_ahead(PREPARE_CHUNK - 100);
        f.append(&vec![2u8; (PREPARE_CHUNK - 100) as usize])
            .expect("append");
        assert_eq!(fs.file_size(&path).expect("stat"), PREPARE_CHUNK);
        // Past it: zeros up to the next boundary; an append larger than a step grows the
        // file by itself.
        f.prepare_ahead(10);
        f.append(&[3u8; 10]).expect("append");
        assert_eq!(fs.file_size(&path).expect("stat"), 2 * PREPARE_CHUNK);
        assert_eq!(f.size(), PREPARE_CHUNK + 10);
        let c = PREPARE_CHUNK as usize;
        f.prepare_ahead(3 * PREPARE_CHUNK / 2);
        assert_eq!(fs.file_size(&path).expect("stat"), 2 * PREPARE_CHUNK);
        f.append(&vec![4u8; 3 * c / 2]).expect("append");
        // The next zeros start after the appended bytes, which now run past the zeros.
        f.prepare_ahead(10);
        f.append(&[5u8; 10]).expect("append");
        f.sync().expect("sync");
        let bytes = fs.read_all(&path).expect("read back");
        assert_eq!(bytes.len() as u64, 3 * PREPARE_CHUNK);
        assert!(bytes[..100].iter().all(|&b| b == 1));
        assert!(bytes[100..c].iter().all(|&b| b == 2));
        assert!(bytes[c..c + 10].iter().all(|&b| b == 3));
        assert!(bytes[c + 10..c + 10 + 3 * c / 2].iter().all(|&b| b == 4));
        assert!(bytes[c + 10 + 3 * c / 2..][..10].iter().all(|&b| b == 5));
        assert!(bytes[c + 20 + 3 * c / 2..].iter().all(|&b| b == 0));
        drop(f);
        let logical = PREPARE_CHUNK + 20 + 3 * PREPARE_CHUNK / 2;
        assert_eq!(
            fs.file_size(&path).expect("stat"),
            logical,
            "closing cuts the zero tail"
        );
        // A crashed writer (`keep_tail`) leaves its zeros, as a killed process does.
        let other = dir.path().join("000009.log");
        let mut k = fs.new_writable(&other).expect("create");
        k.prepare_ahead(10);
        k.append(&[6u8; 10]).expect("append");
        k.keep_tail();
        drop(k);
        assert_eq!(fs.file_size(&other).expect("stat"), PREPARE_CHUNK);
        // A file reopened for appending (O_APPEND) writes no zeros: a positional write
        // there would append.
        let mut g = fs.reopen_writable(&path).expect("reopen");
        g.prepare_ahead(100);
        g.append(&[7u8; 100]).expect("append");
        drop(g);
        let bytes = fs.read_all(&path).expect("read back");
        assert_eq!(bytes.len() as u64, logical + 100);
        assert!(bytes[logical as usize..].iter().all(|&b| b == 7));
    }

    /// Windows double from 64 KiB to 1 MiB, then stay 1 MiB, each page aligned, and every
    /// offset lies in the window named for it.
    #[cfg(target_os = "linux")]
    #[test]
    fn map_windows_ramp_up_to_a_mebibyte() {
        let k = 1u64 << 10;
        let starts: Vec<(u64, u64)> = [0, 64 * k, 128 * k, 256 * k, 512 * k, 1024 * k, 2048 * k]
            .iter()
            .map(|&at| map_window_at(at))
            .collect();
        assert_eq!(
            starts,
            [
                (0, 64 * k),
                (64 * k, 64 * k),
                (128 * k, 128 * k),
                (256 * k, 256 * k),
                (512 * k, 512 * k),
                (1024 * k, 1024 * k),
                (2048 * k, 1024 * k)
            ]
        );
        for at in (0..5 * MAP_WINDOW).step_by(4093) {
            let (start, len) = map_window_at(at);
            assert!(start <= at && at < start + len && start % 4096 == 0, "{at}");
        }
    }

    /// Appends through the mapping land where `write(2)` would put them: across window
    /// boundaries, with a record larger than half a window written between mapped ones; the
    /// file holds zeros past the appended bytes (to its window's end) until it is closed,
    /// which cuts them off, or a sync, which ends the mapping and cuts them then.
    #[cfg(target_os = "linux")]
    #[test]
    fn mapped_appends_land_in_order_and_closing_or_syncing_cuts_the_window_zeros() {
        let dir = tempfile::tempdir().expect("tempdir");
        let here = File::open(dir.path()).expect("open the directory");
        if !super::super::map_window::zeros_back_stores(&here) {
            eprintln!("skipped: the temporary directory's file system is not mapped");
            return;
        }
        let fs = PosixFs;
        let path = dir.path().join("000010.log");
        let mut f = fs.new_writable(&path).expect("create");
        f.map_appends();
        let mut want = Vec::new();
        let mut n = 0u64;
        let w = MAP_WINDOW as usize;
        for len in [100usize, 4096, w - 4196 - 7, 30, w / 2 + 1, 5000, w, 77] {
            n += 1;
            let chunk = vec![(n as u8).wrapping_mul(37) | 1; len];
            f.append(&chunk).expect("append");
            want.extend_from_slice(&chunk);
            assert_eq!(f.size(), want.len() as u64);
            let on_disk = fs.file_size(&path).expect("stat");
            assert!(on_disk >= f.size(), "the file holds every appended byte");
        }
        let bytes = fs.read_all(&path).expect("read back");
        assert_eq!(&bytes[..want.len()], &want[..], "a reader sees the stores");
        assert!(
            bytes[want.len()..].iter().all(|&b| b == 0),
            "zeros past the appends"
        );
        assert!(
            bytes.len() > want.len(),
            "the window's zeros are there while open"
        );
        drop(f);
        assert_eq!(
            fs.read_all(&path).expect("read back"),
            want,
            "closing cuts the zeros"
        );

        // A sync ends the mapping and cuts the zeros at once; appends then write.
        let path = dir.path().join("000011.log");
        let mut f = fs.new_writable(&path).expect("create");
        f.map_appends();
        f.append(&[9u8; 1000]).expect("append");
        assert_eq!(fs.file_size(&path).expect("stat"), FIRST_MAP_WINDOW);
        f.sync().expect("sync");
        assert_eq!(fs.file_size(&path).expect("stat"), 1000);
        f.append(&[8u8; 10]).expect("append");
        assert_eq!(fs.file_size(&path).expect("stat"), 1010);
        drop(f);
        let bytes = fs.read_all(&path).expect("read back");
        assert!(bytes[..1000].iter().all(|&b| b == 9) && bytes[1000..].iter().all(|&b| b == 8));

        // A crashed writer (`keep_tail`) leaves the zeros, as a killed process does; a file
        // reopened for appending never maps.
        let path = dir.path().join("000012.log");
        let mut k = fs.new_writable(&path).expect("create");
        k.map_appends();
        k.append(&[6u8; 10]).expect("append");
        k.keep_tail();
        drop(k);
        assert_eq!(fs.file_size(&path).expect("stat"), FIRST_MAP_WINDOW);
        let mut g = fs.reopen_writable(&path).expect("reopen");
        g.map_appends();
        g.append(&[7u8; 10]).expect("append");
        drop(g);
        assert_eq!(fs.file_size(&path).expect("stat"), FIRST_MAP_WINDOW + 10);
    }
}
