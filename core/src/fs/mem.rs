// SPDX-License-Identifier: Apache-2.0
//! An in-memory file system that knows what a power cut would keep: a file's bytes up to its
//! last sync, and a directory's entries as of its last sync. Tests crash the engine on it
//! (through [`super::fault::FaultFs`]) at any I/O operation; a real DB never uses it.
//!
//! The durability model is POSIX's, as ext4 and xfs give it:
//! - `sync` of a file (fdatasync) makes its bytes durable, not its name.
//! - A name that is created, renamed, linked or deleted is durable once its directory is
//!   synced (`sync_dir`); until then a crash restores the directory's last synced entries
//!   (all of its pending changes are lost together).
//! - Simplifications, each on the engine's safe side or outside what it relies on:
//!   directories are created and removed durably at once (RocksDB does not sync the parent
//!   of a new DB directory either; a *renamed* directory is an ordinary pending entry);
//!   `truncate` is durable at once (the engine only cuts torn WAL tails at open); re-creating
//!   an existing file (`new_writable`) drops its durable bytes at once.
//!
//! [`MemFs::crash`] applies a [`CrashMode`], and [`MemFs::snapshot`] deep-copies the whole
//! tree so that one pre-crash state can be crashed in several modes.
//!
//! Concurrency: one mutex for the tree (directories and entries), one per file for its
//! bytes; the tree lock is always taken first.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use parking_lot::Mutex;

use super::posix::truncated_read;
use super::{lock, FileSystem, RandomAccessFile, SequentialFile, WritableFile};
use crate::error::{Error, Result};

/// What survives a simulated crash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CrashMode {
    /// Power loss: every unsynced byte and every unsynced directory entry is lost.
    DropUnsynced,
    /// Power loss on a file system that kept the directory changes and the first half of
    /// each file's unsynced bytes: torn tails.
    TornUnsynced,
    /// Process kill: everything handed to the OS survives.
    KeepUnsynced,
}

#[derive(Default, Clone)]
struct FileData {
    bytes: Vec<u8>,
    /// Bytes `0..durable` are on stable storage.
    durable: usize,
}

type FileNode = Arc<Mutex<FileData>>;

#[derive(Clone)]
enum Entry {
    File(FileNode),
    Dir(u64),
}

#[derive(Default, Clone)]
struct DirNode {
    /// The entries as the running system sees them.
    entries: BTreeMap<String, Entry>,
    /// The entries as of the last `sync_dir` (what a power cut leaves).
    durable: BTreeMap<String, Entry>,
}

struct Tree {
    dirs: HashMap<u64, DirNode>,
    next_dir: u64,
}

const ROOT: u64 = 0;

/// The in-memory file system. Paths are absolute (a relative path is read from the root).
pub struct MemFs {
    /// Distinguishes this file system's `LOCK`s from every other one's in this process.
    id: u64,
    tree: Mutex<Tree>,
}

impl std::fmt::Debug for MemFs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemFs").field("id", &self.id).finish()
    }
}

fn errno(code: i32) -> io::Error {
    io::Error::from_raw_os_error(code)
}

fn components(path: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for c in path.components() {
        match c {
            Component::Normal(s) => out.push(s.to_string_lossy().into_owned()),
            Component::ParentDir => {
                out.pop();
            }
            Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
        }
    }
    out
}

impl Tree {
    fn dir(&self, id: u64) -> io::Result<&DirNode> {
        self.dirs.get(&id).ok_or_else(|| errno(libc::ENOENT))
    }

    fn dir_mut(&mut self, id: u64) -> io::Result<&mut DirNode> {
        self.dirs.get_mut(&id).ok_or_else(|| errno(libc::ENOENT))
    }

    /// The directory named by `comps`.
    fn find_dir(&self, comps: &[String]) -> io::Result<u64> {
        let mut cur = ROOT;
        for c in comps {
            match self.dir(cur)?.entries.get(c) {
                Some(Entry::Dir(d)) => cur = *d,
                Some(Entry::File(_)) => return Err(errno(libc::ENOTDIR)),
                None => return Err(errno(libc::ENOENT)),
            }
        }
        Ok(cur)
    }

    /// The parent directory of `comps` and the last component.
    fn parent<'a>(&self, comps: &'a [String]) -> io::Result<(u64, &'a str)> {
        match comps.split_last() {
            Some((name, dir)) => Ok((self.find_dir(dir)?, name.as_str())),
            None => Err(errno(libc::EISDIR)),
        }
    }

    fn lookup(&self, comps: &[String]) -> io::Result<Entry> {
        if comps.is_empty() {
            return Ok(Entry::Dir(ROOT));
        }
        let (dir, name) = self.parent(comps)?;
        self.dir(dir)?
            .entries
            .get(name)
            .cloned()
            .ok_or_else(|| errno(libc::ENOENT))
    }

    fn file(&self, comps: &[String]) -> io::Result<FileNode> {
        match self.lookup(comps)? {
            Entry::File(f) => Ok(f),
            Entry::Dir(_) => Err(errno(libc::EISDIR)),
        }
    }

    /// Opens `comps` for writing: the existing file (emptied when `truncate`), or a new one.
    fn open_for_write(&mut self, comps: &[String], truncate: bool) -> io::Result<FileNode> {
        let (dir, name) = self.parent(comps)?;
        let node = self.dir_mut(dir)?;
        match node.entries.get(name) {
            Some(Entry::Dir(_)) => Err(errno(libc::EISDIR)),
            Some(Entry::File(f)) => {
                if truncate {
                    let mut d = f.lock();
                    d.bytes.clear();
                    d.durable = 0;
                }
                Ok(f.clone())
            }
            None => {
                let f: FileNode = Arc::default();
                node.entries
                    .insert(name.to_string(), Entry::File(f.clone()));
                Ok(f)
            }
        }
    }

    fn create_dir_all(&mut self, comps: &[String]) -> io::Result<()> {
        let mut cur = ROOT;
        for c in comps {
            let existing = self.dir(cur)?.entries.get(c).cloned();
            cur = match existing {
                Some(Entry::Dir(d)) => d,
                Some(Entry::File(_)) => return Err(errno(libc::EEXIST)),
                None => {
                    let id = self.next_dir;
                    self.next_dir += 1;
                    self.dirs.insert(id, DirNode::default());
                    let parent = self.dir_mut(cur)?;
                    parent.entries.insert(c.clone(), Entry::Dir(id));
                    parent.durable.insert(c.clone(), Entry::Dir(id));
                    id
                }
            };
        }
        Ok(())
    }

    fn remove_file(&mut self, comps: &[String]) -> io::Result<()> {
        let (dir, name) = self.parent(comps)?;
        let node = self.dir_mut(dir)?;
        match node.entries.get(name) {
            Some(Entry::File(_)) => {
                node.entries.remove(name);
                Ok(())
            }
            Some(Entry::Dir(_)) => Err(errno(libc::EISDIR)),
            None => Err(errno(libc::ENOENT)),
        }
    }

    fn remove_dir(&mut self, comps: &[String]) -> io::Result<()> {
        let (parent, name) = self.parent(comps)?;
        let id = match self.dir(parent)?.entries.get(name) {
            Some(Entry::Dir(d)) => *d,
            Some(Entry::File(_)) => return Err(errno(libc::ENOTDIR)),
            None => return Err(errno(libc::ENOENT)),
        };
        if !self.dir(id)?.entries.is_empty() {
            return Err(errno(libc::ENOTEMPTY));
        }
        let p = self.dir_mut(parent)?;
        p.entries.remove(name);
        p.durable.remove(name);
        self.dirs.remove(&id);
        Ok(())
    }

    fn rename(&mut self, from: &[String], to: &[String]) -> io::Result<()> {
        let entry = self.lookup(from)?;
        if from == to {
            return Ok(());
        }
        if let Entry::Dir(_) = entry {
            if to.starts_with(from) {
                return Err(errno(libc::EINVAL));
            }
        }
        let (to_dir, to_name) = self.parent(to)?;
        match (self.dir(to_dir)?.entries.get(to_name), &entry) {
            (Some(Entry::Dir(d)), Entry::Dir(_)) if !self.dir(*d)?.entries.is_empty() => {
                return Err(errno(libc::ENOTEMPTY));
            }
            (Some(Entry::Dir(_)), Entry::File(_)) => return Err(errno(libc::EISDIR)),
            (Some(Entry::File(_)), Entry::Dir(_)) => return Err(errno(libc::ENOTDIR)),
            _ => {}
        }
        let (from_dir, from_name) = self.parent(from)?;
        self.dir_mut(from_dir)?.entries.remove(from_name);
        self.dir_mut(to_dir)?
            .entries
            .insert(to_name.to_string(), entry);
        Ok(())
    }

    fn hard_link(&mut self, from: &[String], to: &[String]) -> io::Result<()> {
        let Entry::File(f) = self.lookup(from)? else {
            return Err(errno(libc::EPERM));
        };
        let (to_dir, to_name) = self.parent(to)?;
        let node = self.dir_mut(to_dir)?;
        if node.entries.contains_key(to_name) {
            return Err(errno(libc::EEXIST));
        }
        node.entries.insert(to_name.to_string(), Entry::File(f));
        Ok(())
    }

    /// Every file reachable from the root (once each, even when hard-linked).
    fn reachable_files(&self) -> Vec<FileNode> {
        let mut seen = HashSet::new();
        let mut files = Vec::new();
        for d in self.reachable_dirs() {
            if let Some(node) = self.dirs.get(&d) {
                for e in node.entries.values() {
                    if let Entry::File(f) = e {
                        if seen.insert(Arc::as_ptr(f)) {
                            files.push(f.clone());
                        }
                    }
                }
            }
        }
        files
    }

    fn reachable_dirs(&self) -> Vec<u64> {
        let mut out = vec![ROOT];
        let mut i = 0;
        while i < out.len() {
            if let Some(node) = self.dirs.get(&out[i]) {
                for e in node.entries.values() {
                    if let Entry::Dir(d) = e {
                        out.push(*d);
                    }
                }
            }
            i += 1;
        }
        out
    }
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

impl Default for MemFs {
    fn default() -> Self {
        Self::new()
    }
}

impl MemFs {
    /// An empty file system holding only the root directory.
    pub fn new() -> Self {
        let mut dirs = HashMap::new();
        dirs.insert(ROOT, DirNode::default());
        MemFs {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            tree: Mutex::new(Tree { dirs, next_dir: 1 }),
        }
    }

    /// Cuts the power (or kills the process) as `mode` says; afterwards everything that
    /// survived is durable.
    pub fn crash(&self, mode: CrashMode) {
        let mut tree = self.tree.lock();
        if mode == CrashMode::DropUnsynced {
            for d in tree.dirs.values_mut() {
                d.entries = d.durable.clone();
            }
        }
        let live: HashSet<u64> = tree.reachable_dirs().into_iter().collect();
        tree.dirs.retain(|id, _| live.contains(id));
        for d in tree.dirs.values_mut() {
            d.durable = d.entries.clone();
        }
        for f in tree.reachable_files() {
            let mut data = f.lock();
            let keep = match mode {
                CrashMode::DropUnsynced => data.durable,
                CrashMode::TornUnsynced => {
                    data.durable + data.bytes.len().saturating_sub(data.durable) / 2
                }
                CrashMode::KeepUnsynced => data.bytes.len(),
            };
            data.bytes.truncate(keep);
            data.durable = data.bytes.len();
        }
    }

    /// A deep copy of the whole tree (file contents, durable state, hard links), as a
    /// separate file system with its own locks.
    pub fn snapshot(&self) -> MemFs {
        let tree = self.tree.lock();
        let mut copies: HashMap<*const Mutex<FileData>, FileNode> = HashMap::new();
        let mut copy = |e: &Entry| -> Entry {
            match e {
                Entry::Dir(d) => Entry::Dir(*d),
                Entry::File(f) => Entry::File(
                    copies
                        .entry(Arc::as_ptr(f))
                        .or_insert_with(|| Arc::new(Mutex::new(f.lock().clone())))
                        .clone(),
                ),
            }
        };
        let dirs = tree
            .dirs
            .iter()
            .map(|(id, d)| {
                let node = DirNode {
                    entries: d
                        .entries
                        .iter()
                        .map(|(k, e)| (k.clone(), copy(e)))
                        .collect(),
                    durable: d
                        .durable
                        .iter()
                        .map(|(k, e)| (k.clone(), copy(e)))
                        .collect(),
                };
                (*id, node)
            })
            .collect();
        MemFs {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            tree: Mutex::new(Tree {
                dirs,
                next_dir: tree.next_dir,
            }),
        }
    }

    /// Bytes of `path` written but not yet synced (0 for a missing file).
    pub fn unsynced_bytes(&self, path: &Path) -> u64 {
        let tree = self.tree.lock();
        match tree.file(&components(path)) {
            Ok(f) => {
                let d = f.lock();
                (d.bytes.len() - d.durable.min(d.bytes.len())) as u64
            }
            Err(_) => 0,
        }
    }

    /// Whether `path`'s entry in its directory would survive a power cut.
    pub fn entry_is_durable(&self, path: &Path) -> bool {
        let tree = self.tree.lock();
        let comps = components(path);
        let Ok((dir, name)) = tree.parent(&comps) else {
            return false;
        };
        let Ok(node) = tree.dir(dir) else {
            return false;
        };
        match (node.entries.get(name), node.durable.get(name)) {
            (Some(Entry::File(a)), Some(Entry::File(b))) => Arc::ptr_eq(a, b),
            (Some(Entry::Dir(a)), Some(Entry::Dir(b))) => a == b,
            _ => false,
        }
    }
}

struct MemWritable {
    node: FileNode,
}

impl WritableFile for MemWritable {
    fn append(&mut self, data: &[u8]) -> Result<()> {
        self.node.lock().bytes.extend_from_slice(data);
        Ok(())
    }
    fn sync(&mut self) -> Result<()> {
        let mut d = self.node.lock();
        d.durable = d.bytes.len();
        Ok(())
    }
    fn size(&self) -> u64 {
        self.node.lock().bytes.len() as u64
    }
}

struct MemSequential {
    node: FileNode,
    pos: usize,
}

impl Read for MemSequential {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let d = self.node.lock();
        let rest = d.bytes.get(self.pos..).unwrap_or(&[]);
        let n = rest.len().min(buf.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.pos += n;
        Ok(n)
    }
}

struct MemRandomAccess {
    node: FileNode,
    path: PathBuf,
}

impl RandomAccessFile for MemRandomAccess {
    fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>> {
        let d = self.node.lock();
        let start = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(d.bytes.len());
        let got = (d.bytes.len() - start).min(len);
        if got < len {
            return Err(truncated_read(&self.path, offset, len, got));
        }
        Ok(d.bytes[start..start + len].to_vec())
    }
    fn size(&self) -> Result<u64> {
        Ok(self.node.lock().bytes.len() as u64)
    }
}

impl FileSystem for MemFs {
    fn new_writable(&self, path: &Path) -> Result<Box<dyn WritableFile>> {
        let node = self
            .tree
            .lock()
            .open_for_write(&components(path), true)
            .map_err(|e| Error::from_io("While open a file for appending", path, &e))?;
        Ok(Box::new(MemWritable { node }))
    }
    fn reopen_writable(&self, path: &Path) -> Result<Box<dyn WritableFile>> {
        let node = self
            .tree
            .lock()
            .open_for_write(&components(path), false)
            .map_err(|e| Error::from_io("While open a file for appending", path, &e))?;
        Ok(Box::new(MemWritable { node }))
    }
    fn new_sequential(&self, path: &Path) -> Result<SequentialFile> {
        let node = self.tree.lock().file(&components(path)).map_err(|e| {
            Error::from_io("While opening a file for sequentially reading", path, &e)
        })?;
        Ok(Box::new(MemSequential { node, pos: 0 }))
    }
    fn new_random_access(&self, path: &Path) -> Result<Arc<dyn RandomAccessFile>> {
        let node = self
            .tree
            .lock()
            .file(&components(path))
            .map_err(|e| Error::from_io("While open a file for random read", path, &e))?;
        Ok(Arc::new(MemRandomAccess {
            node,
            path: path.to_path_buf(),
        }))
    }
    fn read_all(&self, path: &Path) -> Result<Vec<u8>> {
        let node = self.tree.lock().file(&components(path)).map_err(|e| {
            Error::from_io("While opening a file for sequentially reading", path, &e)
        })?;
        let bytes = node.lock().bytes.clone();
        Ok(bytes)
    }
    fn exists(&self, path: &Path) -> bool {
        self.tree.lock().lookup(&components(path)).is_ok()
    }
    fn file_size(&self, path: &Path) -> Result<u64> {
        match self.tree.lock().lookup(&components(path)) {
            Ok(Entry::File(f)) => Ok(f.lock().bytes.len() as u64),
            Ok(Entry::Dir(_)) => Ok(0),
            Err(e) => Err(Error::from_io("while stat a file for size", path, &e)),
        }
    }
    fn list_dir(&self, path: &Path) -> Result<Vec<String>> {
        let tree = self.tree.lock();
        let names = tree
            .find_dir(&components(path))
            .and_then(|d| tree.dir(d))
            .map(|d| d.entries.keys().cloned().collect())
            .map_err(|e| Error::from_io("While opendir", path, &e))?;
        Ok(names)
    }
    fn create_dir_all(&self, path: &Path) -> Result<()> {
        self.tree
            .lock()
            .create_dir_all(&components(path))
            .map_err(|e| Error::from_io("While mkdir", path, &e))
    }
    fn remove_file(&self, path: &Path) -> Result<()> {
        self.tree
            .lock()
            .remove_file(&components(path))
            .map_err(|e| Error::from_io("while unlink() file", path, &e))
    }
    fn remove_dir(&self, path: &Path) -> Result<()> {
        self.tree
            .lock()
            .remove_dir(&components(path))
            .map_err(|e| Error::from_io("file rmdir", path, &e))
    }
    fn rename(&self, from: &Path, to: &Path) -> Result<()> {
        self.tree
            .lock()
            .rename(&components(from), &components(to))
            .map_err(|e| {
                Error::from_io(
                    &format!("While renaming a file to {}", to.display()),
                    from,
                    &e,
                )
            })
    }
    fn hard_link(&self, from: &Path, to: &Path) -> Result<()> {
        self.tree
            .lock()
            .hard_link(&components(from), &components(to))
            .map_err(|e| Error::from_io(&format!("while link file to {}", to.display()), from, &e))
    }
    fn sync_dir(&self, path: &Path) -> Result<()> {
        let mut tree = self.tree.lock();
        let dir = tree
            .find_dir(&components(path))
            .map_err(|e| Error::from_io("While open directory", path, &e))?;
        let node = tree
            .dir_mut(dir)
            .map_err(|e| Error::from_io("While open directory", path, &e))?;
        node.durable = node.entries.clone();
        Ok(())
    }
    fn truncate(&self, path: &Path, len: u64) -> Result<()> {
        let node = self
            .tree
            .lock()
            .file(&components(path))
            .map_err(|e| Error::from_io("While open file for truncate", path, &e))?;
        let mut d = node.lock();
        let len = usize::try_from(len).unwrap_or(usize::MAX);
        d.bytes.resize(len, 0);
        d.durable = d.durable.min(len);
        Ok(())
    }
    fn lock_file(&self, path: &Path) -> Result<lock::FileLock> {
        self.tree
            .lock()
            .open_for_write(&components(path), false)
            .map_err(|e| Error::from_io("while open a file for lock", path, &e))?;
        let key = PathBuf::from(format!("memfs-{}:{}", self.id, path.display()));
        lock::lock_in_process(key, path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(fs: &MemFs, path: &str, bytes: &[u8], sync: bool) {
        let mut f = fs.new_writable(Path::new(path)).expect("create");
        f.append(bytes).expect("append");
        if sync {
            f.sync().expect("sync");
        }
    }

    #[test]
    fn power_cut_keeps_synced_bytes_of_synced_entries_only() {
        let fs = MemFs::new();
        fs.create_dir_all(Path::new("/db")).expect("mkdir");
        write(&fs, "/db/a", b"synced", true);
        write(&fs, "/db/b", b"never synced", false);
        fs.sync_dir(Path::new("/db")).expect("sync dir");
        fs.reopen_writable(Path::new("/db/a"))
            .expect("reopen")
            .append(b"+tail")
            .expect("append");
        write(&fs, "/db/c", b"synced data, unsynced name", true);
        assert!(!fs.entry_is_durable(Path::new("/db/c")));
        assert_eq!(fs.unsynced_bytes(Path::new("/db/a")), 5);
        let copy = fs.snapshot();
        fs.crash(CrashMode::DropUnsynced);
        assert_eq!(fs.read_all(Path::new("/db/a")).expect("a"), b"synced");
        assert_eq!(fs.read_all(Path::new("/db/b")).expect("b"), b"");
        assert!(!fs.exists(Path::new("/db/c")));
        // The copy was taken before the crash and keeps everything.
        copy.crash(CrashMode::KeepUnsynced);
        assert_eq!(
            copy.read_all(Path::new("/db/a")).expect("a"),
            b"synced+tail"
        );
        assert!(copy.exists(Path::new("/db/c")));
    }

    #[test]
    fn unsynced_rename_and_delete_are_undone_by_a_power_cut() {
        let fs = MemFs::new();
        fs.create_dir_all(Path::new("/d")).expect("mkdir");
        write(&fs, "/d/CURRENT", b"old\n", true);
        write(&fs, "/d/tmp", b"new\n", true);
        fs.sync_dir(Path::new("/d")).expect("sync");
        fs.rename(Path::new("/d/tmp"), Path::new("/d/CURRENT"))
            .expect("rename");
        let torn = fs.snapshot();
        fs.crash(CrashMode::DropUnsynced);
        assert_eq!(fs.read_all(Path::new("/d/CURRENT")).expect("c"), b"old\n");
        assert_eq!(fs.read_all(Path::new("/d/tmp")).expect("tmp"), b"new\n");
        torn.crash(CrashMode::TornUnsynced);
        assert_eq!(torn.read_all(Path::new("/d/CURRENT")).expect("c"), b"new\n");
        assert!(!torn.exists(Path::new("/d/tmp")));
    }

    #[test]
    fn torn_mode_keeps_half_of_each_unsynced_tail() {
        let fs = MemFs::new();
        let mut f = fs.new_writable(Path::new("/log")).expect("create");
        f.append(b"0123").expect("append");
        f.sync().expect("sync");
        f.append(b"456789").expect("append");
        fs.crash(CrashMode::TornUnsynced);
        assert_eq!(fs.read_all(Path::new("/log")).expect("log"), b"0123456");
    }

    #[test]
    fn hard_links_and_directory_renames() {
        let fs = MemFs::new();
        fs.create_dir_all(Path::new("/src")).expect("mkdir");
        fs.create_dir_all(Path::new("/cp.tmp")).expect("mkdir");
        write(&fs, "/src/1.sst", b"table", true);
        fs.hard_link(Path::new("/src/1.sst"), Path::new("/cp.tmp/1.sst"))
            .expect("link");
        fs.hard_link(Path::new("/src/1.sst"), Path::new("/cp.tmp/1.sst"))
            .expect_err("exists");
        fs.sync_dir(Path::new("/cp.tmp")).expect("sync");
        fs.rename(Path::new("/cp.tmp"), Path::new("/cp"))
            .expect("rename dir");
        assert_eq!(fs.read_all(Path::new("/cp/1.sst")).expect("read"), b"table");
        let synced = fs.snapshot();
        synced.sync_dir(Path::new("/")).expect("sync root");
        fs.crash(CrashMode::DropUnsynced);
        assert!(fs.exists(Path::new("/cp.tmp/1.sst")));
        assert!(!fs.exists(Path::new("/cp")));
        synced.crash(CrashMode::DropUnsynced);
        assert_eq!(
            synced.read_all(Path::new("/cp/1.sst")).expect("r"),
            b"table"
        );
        assert_eq!(
            synced.list_dir(Path::new("/")).expect("ls"),
            vec!["cp".to_string(), "src".to_string()]
        );
    }

    #[test]
    fn errors_carry_posix_texts_and_locks_exclude() {
        let fs = MemFs::new();
        let err = fs
            .read_all(Path::new("/nope/CURRENT"))
            .expect_err("missing");
        assert_eq!(
            err.to_string(),
            "IO error: No such file or directory: While opening a file for sequentially reading: /nope/CURRENT: No such file or directory"
        );
        let ra = {
            write(&fs, "/t", b"abc", false);
            fs.new_random_access(Path::new("/t")).expect("open")
        };
        assert_eq!(ra.read_at(1, 2).expect("read"), b"bc");
        assert!(ra.read_at(2, 2).expect_err("short").is_corruption());
        let lock = fs.lock_file(Path::new("/LOCK")).expect("lock");
        fs.lock_file(Path::new("/LOCK")).expect_err("held");
        let other = MemFs::new();
        let _ = other.lock_file(Path::new("/LOCK")).expect("another fs");
        drop(lock);
        fs.lock_file(Path::new("/LOCK")).expect("released");
    }
}
