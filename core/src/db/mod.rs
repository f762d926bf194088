// SPDX-License-Identifier: Apache-2.0
//! The DB handle and its shared state.
//!
//! `Db` is a cheap handle around `Arc<DbInner>`; iterators, snapshots and column family
//! handles hold their own `Arc`s, so they stay usable (on the data they already see) even if
//! the DB is closed first. `close` releases the `LOCK` and the WAL at once, whatever else
//! still holds the inner state.
//!
//! Stages live in sibling files: `open` (open, recovery, destroy, list column families),
//! `write` (group commit), `read` (get, iterators, snapshots), `multi_get` (keys in step),
//! `column_family`, `error_handler` (background errors: what they stop, recovery from a
//! full disk).

mod approximate;
mod background;
mod checkpoint;
pub mod column_family;
mod compact;
mod compaction_job;
mod error_handler;
mod flush;
mod flush_gc;
mod multi_get;
mod open;
mod properties;
mod read;
mod repair;
mod super_version;
mod table_cache;
mod table_file;
mod write;

/// For the unit tests of this module's files.
#[cfg(test)]
pub(crate) mod test_support {
    use super::Db;
    use crate::options::{ColumnFamilyOptions, DbOptions};

    /// A new DB with default options in a fresh temporary directory (kept alive by the
    /// returned guard), and its path.
    pub(crate) fn fresh_db() -> (tempfile::TempDir, String, Db) {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("db").to_string_lossy().into_owned();
        let opts = DbOptions {
            create_if_missing: true,
            ..Default::default()
        };
        let db = Db::open(&opts, ColumnFamilyOptions::default(), &path).expect("open");
        (dir, path, db)
    }
}

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use parking_lot::{Mutex, RwLock};

pub use column_family::ColumnFamilyHandle;
use column_family::{ColumnFamilyData, ColumnFamilySet};
pub use read::{DbIterator, Snapshot};

use crate::batch::WriteBatch;
use crate::error::{Error, Result};
use crate::fs::{lock::FileLock, FileSystem};
use crate::options::{ColumnFamilyOptions, DbOptions, ReadOptions, WriteOptions};
use crate::version::edit::VersionEdit;
use crate::version::set::VersionSet;

/// Bytes a record takes beyond its key and value in a batch: the tag, the column family id
/// and two length varints, at most.
const RECORD_OVERHEAD: usize = 1 + 5 + 5 + 5;

/// Counters behind `rocksdb.stats` and the statistics tickers, counted as RocksDB counts its
/// tickers: `keys_read` is every point lookup (`NUMBER_KEYS_READ`, found or not) and
/// `bytes_read` the bytes of the values found; multi-gets count apart (`NUMBER_MULTIGET_*`).
/// Relaxed atomics.
#[derive(Debug, Default)]
pub struct Stats {
    pub keys_written: AtomicU64,
    pub bytes_written: AtomicU64,
    pub keys_read: AtomicU64,
    pub bytes_read: AtomicU64,
    pub wal_syncs: AtomicU64,
    /// Compactions installed (trivial moves included).
    pub compactions: AtomicU64,
    pub trivial_moves: AtomicU64,
    /// Key ranges run by subcompactions (a compaction split in 3 counts 3).
    pub subcompactions: AtomicU64,
    /// The most compactions that were in flight at once.
    pub max_running_compactions: AtomicU64,
    /// Compaction inputs dropped unread because a newer range tombstone covers them.
    pub files_dropped_by_range_tombstone: AtomicU64,
    /// Table bytes read by compactions, and written by compactions and flushes.
    pub compact_read_bytes: AtomicU64,
    pub compact_write_bytes: AtomicU64,
    pub flush_write_bytes: AtomicU64,
    pub multiget_calls: AtomicU64,
    pub multiget_keys_read: AtomicU64,
    pub multiget_keys_found: AtomicU64,
    pub multiget_bytes_read: AtomicU64,
}

/// A new [`DbInner::id`].
pub(crate) fn next_db_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// State shared by every handle of one open DB.
pub(crate) struct DbInner {
    /// Unique among the DBs this process opened: the owner mark of its column families'
    /// data ([`ColumnFamilyData::db_id`]).
    pub(crate) id: u64,
    /// The default column family (id 0), which is never dropped: readers take it without
    /// the `cfs` lock.
    pub(crate) default_cf: ColumnFamilyHandle,
    /// The path as the caller gave it (messages quote it verbatim). Immutable.
    pub(crate) name: String,
    pub(crate) path: PathBuf,
    pub(crate) fs: Arc<dyn FileSystem>,
    pub(crate) options: DbOptions,
    pub(crate) read_only: bool,
    /// The `LOCK`; taken out by `close`.
    lock: Mutex<Option<FileLock>>,
    /// The MANIFEST state. Held for column family changes (and later flushes).
    pub(crate) versions: Mutex<VersionSet>,
    pub(crate) cfs: RwLock<ColumnFamilySet>,
    pub(crate) write: write::WriteQueue,
    /// The number of the WAL being written. Changed only at a WAL switch.
    pub(crate) wal_number: AtomicU64,
    /// The last sequence number visible to readers; written only by the write leader.
    pub(crate) last_sequence: AtomicU64,
    pub(crate) snapshots: read::SnapshotList,
    /// The sticky error that stops writes (a hard or fatal background error, see
    /// `error_handler`); set through `set_bg_error`, cleared only by recovery.
    pub(crate) bg_error: Mutex<Option<Error>>,
    /// Severity of `bg_error`, failed-job count, automatic recovery.
    pub(crate) error_handler: error_handler::ErrorHandler,
    pub(crate) closed: AtomicBool,
    pub(crate) stats: Stats,
    pub(crate) table_cache: table_cache::TableCache,
    /// The compactions in flight (their inputs and output ranges); see `compact`.
    pub(crate) compactions: Mutex<compact::RunningCompactions>,
    /// Signalled whenever a compaction's registration ends.
    pub(crate) compactions_done: parking_lot::Condvar,
    /// Table files out of the current versions, deleted once no reader's view names them.
    pub(crate) obsolete_tables: Mutex<Vec<Arc<crate::version::edit::FileMetaData>>>,
    /// The memtable budget this DB charges (see `charge_memtables`).
    pub(crate) write_buffer_manager: Option<Arc<crate::cache::WriteBufferManager>>,
    /// Bytes of memtable memory currently charged to `write_buffer_manager`.
    pub(crate) charged_memory: Mutex<usize>,
    /// While non-zero (checkpoints are copying files), no WAL or table file is deleted. A
    /// deletion of obsolete files holds this lock from its check to its last removal, so once
    /// a checkpoint has raised the count no deletion that passed its check is still removing
    /// files (RocksDB keeps both under its DB mutex).
    pub(crate) deletions_disabled: Mutex<usize>,
    /// True while the write leader is stopped by a write stall (`rocksdb.is-write-stopped`).
    pub(crate) write_stopped: AtomicBool,
    /// Set by a write with `disable_wal`: such data must be flushed at close.
    pub(crate) unlogged_writes: AtomicBool,
    pub(crate) background: background::Background,
}

impl DbInner {
    pub(crate) fn check_open(&self) -> Result<()> {
        if self.closed.load(Ordering::Acquire) {
            return Err(Error::invalid_argument("DB is closed"));
        }
        Ok(())
    }

    pub(crate) fn check_writable(&self) -> Result<()> {
        self.check_open()?;
        if self.read_only {
            return Err(Error::not_supported(
                "Not supported operation in read only mode.",
            ));
        }
        if let Some(err) = self.bg_error.lock().clone() {
            return Err(err);
        }
        Ok(())
    }

    /// Brings the write buffer manager's charge in line with the memtables' memory (active
    /// and immutable, every family), and when the shared budget asks for a flush, switches
    /// the largest active memtable. The switch needs leader context, so `may_switch` is set
    /// only by the write leader.
    pub(crate) fn charge_memtables(&self, may_switch: bool) -> Result<()> {
        let Some(wbm) = &self.write_buffer_manager else {
            return Ok(());
        };
        let cfds: Vec<Arc<ColumnFamilyData>> = self.cfs.read().iter().cloned().collect();
        let mut total = 0usize;
        let mut largest: Option<(usize, &Arc<ColumnFamilyData>)> = None;
        for cfd in &cfds {
            let sv = cfd.super_version();
            let active = sv.mem.approximate_memory_usage();
            total += active
                + sv.imms
                    .iter()
                    .map(|m| m.approximate_memory_usage())
                    .sum::<usize>();
            if largest.is_none_or(|(b, _)| active > b) {
                largest = Some((active, cfd));
            }
        }
        {
            let mut charged = self.charged_memory.lock();
            if total > *charged {
                wbm.reserve_mem(total - *charged);
            } else if total < *charged {
                wbm.free_mem(*charged - total);
            }
            *charged = total;
        }
        if may_switch && wbm.should_flush() {
            if let Some((bytes, cfd)) = largest {
                if bytes > 0 {
                    return self.switch_memtable(cfd);
                }
            }
        }
        Ok(())
    }

    /// Whether the DB has a live family besides the default one (a drop removes the family
    /// at once). A write to several families may then span a flush of one of them.
    pub(crate) fn has_several_families(&self) -> bool {
        self.cfs.read().iter().nth(1).is_some()
    }

    /// Brings the version set's last sequence up to the live one before an edit is logged.
    pub(crate) fn sync_last_sequence(&self, vs: &mut VersionSet) {
        vs.last_sequence = vs
            .last_sequence
            .max(self.last_sequence.load(Ordering::Acquire));
    }

    /// `cf`'s data, if the handle belongs to this DB (a dropped family stays readable
    /// through its handles). No lock: a family is marked with its DB when created, and
    /// leaves the DB only by being dropped.
    fn cfd<'h>(&self, cf: &'h ColumnFamilyHandle) -> Result<&'h Arc<ColumnFamilyData>> {
        if cf.cfd.db_id == self.id {
            Ok(&cf.cfd)
        } else {
            Err(Error::invalid_argument("Invalid column family handle"))
        }
    }
}

/// An open database. Cheap to clone; all clones share one state.
///
/// # Examples
/// ```
/// use solistore::db::Db;
/// use solistore::options::{DbOptions, ReadOptions, WriteOptions};
/// let dir = tempfile::tempdir().unwrap();
/// let opts = DbOptions { create_if_missing: true, ..Default::default() };
/// let db = Db::open(&opts, Default::default(), dir.path().to_str().unwrap()).unwrap();
/// db.put(&WriteOptions::default(), &db.default_cf(), b"k", b"v").unwrap();
/// assert_eq!(db.get(&ReadOptions::default(), &db.default_cf(), b"k").unwrap(), Some(b"v".to_vec()));
/// ```
#[derive(Clone)]
pub struct Db {
    inner: Arc<DbInner>,
}

impl std::fmt::Debug for Db {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Db")
            .field("name", &self.inner.name)
            .finish()
    }
}

impl Db {
    /// Opens (or creates) the DB at `path` with only the default column family.
    ///
    /// # Errors
    /// RocksDB's open errors: a missing DB without `create_if_missing`, an existing one with
    /// `error_if_exists`, a held lock, column families not listed, a comparator mismatch,
    /// corruption.
    pub fn open(opts: &DbOptions, cf_opts: ColumnFamilyOptions, path: &str) -> Result<Db> {
        let (db, _) = open::open(
            opts,
            path,
            vec![("default".to_string(), cf_opts)],
            false,
            false,
        )?;
        Ok(db)
    }

    /// Opens with a list of column families; every existing one must be listed (unless
    /// read-only), and `default` among them. Returns a handle per listed family, in order.
    pub fn open_cf(
        opts: &DbOptions,
        path: &str,
        cfs: Vec<(String, ColumnFamilyOptions)>,
    ) -> Result<(Db, Vec<ColumnFamilyHandle>)> {
        open::open(opts, path, cfs, false, false)
    }

    /// Opens read-only: no lock, no WAL or MANIFEST writes; the WAL is replayed in memory.
    pub fn open_cf_read_only(
        opts: &DbOptions,
        path: &str,
        cfs: Vec<(String, ColumnFamilyOptions)>,
        error_if_wal_file_exists: bool,
    ) -> Result<(Db, Vec<ColumnFamilyHandle>)> {
        open::open(opts, path, cfs, true, error_if_wal_file_exists)
    }

    /// RocksDB's `RepairDB`: rebuilds the MANIFEST of the (closed) DB at `path` from its
    /// tables and converts its WALs to tables, setting aside in `lost/` what cannot be read
    /// (see `db::repair`). `cf_opts` serves every column family.
    ///
    /// # Errors
    /// The `LOCK` cannot be taken (no such directory, the DB is open), or an I/O error.
    pub fn repair(opts: &DbOptions, cf_opts: &ColumnFamilyOptions, path: &str) -> Result<()> {
        repair::repair(opts, cf_opts, path)
    }

    /// The names of the column families of the DB at `path`, in id order.
    pub fn list_column_families(path: &str) -> Result<Vec<String>> {
        open::list_column_families(&DbOptions::default(), path)
    }

    /// [`Db::list_column_families`] through the file system of `opts`.
    pub fn list_column_families_with(opts: &DbOptions, path: &str) -> Result<Vec<String>> {
        open::list_column_families(opts, path)
    }

    /// Deletes the DB's files and its directory when empty. A missing DB is not an error.
    pub fn destroy(path: &str) -> Result<()> {
        open::destroy(&DbOptions::default(), path)
    }

    /// [`Db::destroy`] through the file system of `opts`.
    pub fn destroy_with(opts: &DbOptions, path: &str) -> Result<()> {
        open::destroy(opts, path)
    }

    pub fn name(&self) -> &str {
        &self.inner.name
    }

    pub fn default_cf(&self) -> ColumnFamilyHandle {
        self.inner.default_cf.clone()
    }

    /// The default column family's handle, borrowed: [`Db::default_cf`] without the
    /// reference count update (for per-call paths such as the C API's NULL family).
    pub fn default_cf_ref(&self) -> &ColumnFamilyHandle {
        &self.inner.default_cf
    }

    /// A handle to an existing column family by name.
    pub fn cf_handle(&self, name: &str) -> Option<ColumnFamilyHandle> {
        self.inner
            .cfs
            .read()
            .by_name(name)
            .map(|cfd| ColumnFamilyHandle { cfd: cfd.clone() })
    }

    /// Creates a column family (recorded in the MANIFEST).
    ///
    /// # Errors
    /// `Invalid argument: Column family already exists` for a taken name.
    pub fn create_column_family(
        &self,
        opts: ColumnFamilyOptions,
        name: &str,
    ) -> Result<ColumnFamilyHandle> {
        let inner = &self.inner;
        inner.check_writable()?;
        let mut vs = inner.versions.lock();
        if inner.cfs.read().by_name(name).is_some() {
            return Err(Error::invalid_argument("Column family already exists"));
        }
        let id = vs.max_column_family + 1;
        let edit = VersionEdit {
            column_family: id,
            column_family_add: Some(name.to_string()),
            comparator: Some(opts.comparator.name().to_string()),
            log_number: Some(inner.wal_number.load(Ordering::Acquire)),
            max_column_family: Some(id),
            ..Default::default()
        };
        inner.sync_last_sequence(&mut vs);
        vs.log_and_apply(edit)
            .map_err(|e| inner.set_bg_error(e, error_handler::Reason::ManifestWrite))?;
        let num_levels = usize::try_from(opts.num_levels).unwrap_or(7).max(1);
        let version = crate::version::version::Version::new(
            num_levels,
            crate::key::InternalKeyComparator::new(opts.comparator.clone()),
        );
        let cfd = Arc::new(ColumnFamilyData::new(
            inner.id,
            id,
            name.to_string(),
            opts,
            version,
        ));
        inner.cfs.write().insert(cfd.clone());
        inner.refresh_wal_writeback(&vs);
        Ok(ColumnFamilyHandle { cfd })
    }

    /// Drops a column family (recorded in the MANIFEST). Existing handles can still read it.
    ///
    /// # Errors
    /// `Invalid argument: Can't drop default column family` for the default one.
    pub fn drop_column_family(&self, cf: &ColumnFamilyHandle) -> Result<()> {
        let inner = &self.inner;
        inner.check_writable()?;
        if cf.cfd.id == 0 {
            return Err(Error::invalid_argument("Can't drop default column family"));
        }
        let mut vs = inner.versions.lock();
        if cf.cfd.is_dropped() {
            return Err(Error::invalid_argument("Column family already dropped!\n"));
        }
        inner.cfd(cf)?;
        let edit = VersionEdit {
            column_family: cf.cfd.id,
            column_family_drop: true,
            ..Default::default()
        };
        inner.sync_last_sequence(&mut vs);
        vs.log_and_apply(edit)
            .map_err(|e| inner.set_bg_error(e, error_handler::Reason::ManifestWrite))?;
        cf.cfd.mark_dropped();
        inner.cfs.write().remove(cf.cfd.id);
        inner.refresh_wal_writeback(&vs);
        Ok(())
    }

    /// Names of the live column families, in id order.
    pub fn column_family_names(&self) -> Vec<String> {
        self.inner
            .cfs
            .read()
            .iter()
            .map(|c| c.name.clone())
            .collect()
    }

    /// Applies `batch` atomically (all column families at once).
    ///
    /// The single-key writes below first check that `cf` is a handle of this DB (`Invalid
    /// argument: Invalid column family handle` otherwise, e.g. a handle kept from a closed DB
    /// at the same path), as reads do; a batch names families by id only, as in RocksDB.
    pub fn write(&self, wo: &WriteOptions, batch: &WriteBatch) -> Result<()> {
        self.inner.write(wo, batch)
    }

    pub fn put(
        &self,
        wo: &WriteOptions,
        cf: &ColumnFamilyHandle,
        key: &[u8],
        value: &[u8],
    ) -> Result<()> {
        self.inner.cfd(cf)?;
        let mut b = WriteBatch::with_capacity(key.len() + value.len() + RECORD_OVERHEAD);
        b.put(cf.id(), key, value);
        self.inner.write_owned(wo, b)
    }

    pub fn delete(&self, wo: &WriteOptions, cf: &ColumnFamilyHandle, key: &[u8]) -> Result<()> {
        self.inner.cfd(cf)?;
        let mut b = WriteBatch::with_capacity(key.len() + RECORD_OVERHEAD);
        b.delete(cf.id(), key);
        self.inner.write_owned(wo, b)
    }

    pub fn single_delete(
        &self,
        wo: &WriteOptions,
        cf: &ColumnFamilyHandle,
        key: &[u8],
    ) -> Result<()> {
        self.inner.cfd(cf)?;
        let mut b = WriteBatch::with_capacity(key.len() + RECORD_OVERHEAD);
        b.single_delete(cf.id(), key);
        self.inner.write_owned(wo, b)
    }

    /// Deletes every key in `[begin, end)`; nothing when `begin == end`.
    ///
    /// # Errors
    /// `Invalid argument: end key comes before start key` when `end` sorts before `begin`, and
    /// nothing is written. (RocksDB 7.8.3 answers the same text, but only after writing the
    /// record to its WAL, and the error then sticks: every later write and flush fails. A range
    /// deletion inside a write batch is not checked here.)
    pub fn delete_range(
        &self,
        wo: &WriteOptions,
        cf: &ColumnFamilyHandle,
        begin: &[u8],
        end: &[u8],
    ) -> Result<()> {
        self.inner.cfd(cf)?;
        if cf.cfd.options.comparator.compare(begin, end) == std::cmp::Ordering::Greater {
            return Err(Error::invalid_argument("end key comes before start key"));
        }
        let mut b = WriteBatch::with_capacity(begin.len() + end.len() + RECORD_OVERHEAD);
        b.delete_range(cf.id(), begin, end);
        self.inner.write_owned(wo, b)
    }

    /// # Errors
    /// `Not implemented: Provide a merge_operator when opening DB` without a merge operator.
    pub fn merge(
        &self,
        wo: &WriteOptions,
        cf: &ColumnFamilyHandle,
        key: &[u8],
        value: &[u8],
    ) -> Result<()> {
        if cf.cfd.options.merge_operator.is_none() {
            return Err(Error::not_supported(
                "Provide a merge_operator when opening DB",
            ));
        }
        self.inner.cfd(cf)?;
        let mut b = WriteBatch::with_capacity(key.len() + value.len() + RECORD_OVERHEAD);
        b.merge(cf.id(), key, value);
        self.inner.write_owned(wo, b)
    }

    /// Reads `key` as of `ro.snapshot` (or the latest state).
    pub fn get(
        &self,
        ro: &ReadOptions,
        cf: &ColumnFamilyHandle,
        key: &[u8],
    ) -> Result<Option<Vec<u8>>> {
        let cfd = self.inner.cfd(cf)?;
        self.inner.get(ro, cfd, key)
    }

    /// Reads several keys at one consistent sequence number.
    pub fn multi_get(
        &self,
        ro: &ReadOptions,
        keys: &[(&ColumnFamilyHandle, &[u8])],
    ) -> Vec<Result<Option<Vec<u8>>>> {
        self.inner.multi_get(ro, keys)
    }

    /// A cursor over the column family as of `ro.snapshot` (or now); later writes do not
    /// disturb it.
    pub fn iter(&self, ro: &ReadOptions, cf: &ColumnFamilyHandle) -> Result<DbIterator> {
        let cfd = self.inner.cfd(cf)?;
        read::new_iterator(&self.inner, ro, cfd)
    }

    /// A point-in-time view; release it by dropping it.
    pub fn snapshot(&self) -> Snapshot {
        read::take_snapshot(&self.inner)
    }

    /// The sequence number of the last visible write.
    pub fn latest_sequence_number(&self) -> u64 {
        self.inner.last_sequence.load(Ordering::Acquire)
    }

    /// Flushes the column family's memtable into a level-0 table (RocksDB's `Flush`); with
    /// `wait`, returns once it is written.
    ///
    /// # Errors
    /// The background error, if the flush failed.
    pub fn flush(&self, cf: &ColumnFamilyHandle, wait: bool) -> Result<()> {
        let inner = self.inner.clone();
        inner.check_writable()?;
        let cfd = inner.cfd(cf)?;
        let target = inner.switch_for_flush(cfd)?;
        if wait {
            inner.wait_until_flushed(&[(cfd.clone(), target)])?;
        }
        Ok(())
    }

    /// Compacts `[begin, end]` (None = unbounded) of one column family, after flushing its
    /// memtable: afterwards the range sits in one level and deleted data is physically gone
    /// (RocksDB's `CompactRange`).
    ///
    /// # Errors
    /// I/O and corruption errors; the background error if the DB is poisoned.
    pub fn compact_range(
        &self,
        cf: &ColumnFamilyHandle,
        begin: Option<&[u8]>,
        end: Option<&[u8]>,
    ) -> Result<()> {
        self.flush(cf, true)?;
        let cfd = self.inner.cfd(cf)?;
        self.inner
            .compact_range(cfd, begin, end)
            .map_err(|e| self.inner.compaction_failed(e))
    }

    /// Flushes every column family.
    pub fn flush_all(&self, wait: bool) -> Result<()> {
        let handles: Vec<ColumnFamilyHandle> = self
            .inner
            .cfs
            .read()
            .iter()
            .map(|c| ColumnFamilyHandle { cfd: c.clone() })
            .collect();
        self.inner.check_writable()?;
        let mut targets = Vec::with_capacity(handles.len());
        for h in &handles {
            let cfd = self.inner.cfd(h)?;
            let target = self.inner.switch_for_flush(cfd)?;
            targets.push((cfd.clone(), target));
        }
        if wait {
            self.inner.wait_until_flushed(&targets)?;
        }
        Ok(())
    }

    /// Hands buffered WAL bytes to the OS (`manual_wal_flush`), then syncs when asked.
    pub fn flush_wal(&self, sync: bool) -> Result<()> {
        self.inner.flush_wal(sync)
    }

    /// The background error that stops writes, if any (see [`Db::resume`]).
    pub fn background_error(&self) -> Option<Error> {
        self.inner.bg_error.lock().clone()
    }

    /// RocksDB's `DB::Resume`: recovers now from a background error that stops writes and
    /// can be recovered from (a full disk during a WAL write, flush or MANIFEST write): a
    /// new MANIFEST, a new WAL, every memtable flushed; then writes go through again. The
    /// DB also tries this by itself at once and then every 5 seconds
    /// (`DbOptions::bg_error_recovery_interval`). Without an error this does nothing.
    ///
    /// # Errors
    /// The stored error when it is fatal (only a reopen recovers); the error of the
    /// attempt (e.g. the disk is still full) when it failed.
    pub fn resume(&self) -> Result<()> {
        self.inner.resume()
    }

    pub fn stats(&self) -> &Stats {
        &self.inner.stats
    }

    /// Block cache hits, misses and inserts of this DB's table reads (RocksDB's
    /// `BLOCK_CACHE_*` tickers).
    pub fn block_cache_counts(&self) -> crate::sst::block_cache::BlockCacheCounts {
        self.inner.table_cache.block_cache_counts()
    }

    pub fn options(&self) -> &DbOptions {
        &self.inner.options
    }

    /// A property's text value (RocksDB's names), or None for an unknown property.
    pub fn property(&self, cf: &ColumnFamilyHandle, name: &str) -> Option<String> {
        properties::property(&self.inner, cf, name)
    }

    /// The table bytes of each `(start, limit)` user-key range of one column family, from
    /// its current view (RocksDB's `GetApproximateSizes` with files only): whole files inside
    /// a range, and for a file a range cuts, the span between the data blocks that would hold
    /// `start` and `limit`. An empty or inverted range is 0.
    ///
    /// # Errors
    /// I/O or corruption errors opening a table.
    pub fn approximate_file_sizes(
        &self,
        cf: &ColumnFamilyHandle,
        ranges: &[(&[u8], &[u8])],
    ) -> Result<Vec<u64>> {
        let cfd = self.inner.cfd(cf)?;
        approximate::file_sizes(&self.inner, cfd, ranges)
    }

    /// The live table files: (column family id, level, metadata), from each family's current
    /// view.
    pub fn live_files(&self) -> Vec<(u32, u32, crate::version::edit::FileMetaData)> {
        let cfds: Vec<Arc<ColumnFamilyData>> = self.inner.cfs.read().iter().cloned().collect();
        let mut out = Vec::new();
        for cfd in cfds {
            let sv = cfd.super_version();
            for (level, f) in sv.version.all_files() {
                out.push((cfd.id, level as u32, (**f).clone()));
            }
        }
        out
    }

    /// The DB's identity (the `IDENTITY` file's content).
    pub fn identity(&self) -> Result<String> {
        let bytes = self
            .inner
            .fs
            .read_all(&crate::fs::filename::identity_file(&self.inner.path))?;
        Ok(String::from_utf8_lossy(&bytes).trim_end().to_string())
    }

    /// Closes the DB: pushes buffered WAL bytes to the OS, closes the WAL and releases the
    /// lock. Handles that outlive it can still read what they saw; writes fail. Idempotent.
    pub fn close(&self) -> Result<()> {
        let inner = &self.inner;
        if inner.closed.load(Ordering::Acquire) {
            return Ok(());
        }
        // Writes that skipped the WAL survive only in tables: flush them first.
        if !inner.read_only
            && inner.unlogged_writes.load(Ordering::Acquire)
            && inner.bg_error.lock().is_none()
        {
            let _ = self.flush_all(true);
        }
        if inner.closed.swap(true, Ordering::AcqRel) {
            return Ok(());
        }
        inner.error_handler.stop();
        inner.background.shutdown();
        inner.release_memtable_charge();
        inner.delete_obsolete_tables();
        // Wait out an in-flight group: the leader holds `wal` while it appends.
        let res = {
            let mut wal = inner.write.wal.lock();
            let res = match wal.as_mut() {
                Some(log) => log.flush(),
                None => Ok(()),
            };
            *wal = None;
            res
        };
        inner.lock.lock().take();
        res
    }

    /// Test hook: stops the DB as a process kill would, at this point: background work is
    /// stopped after its current step, the lock is released, and the WAL is dropped without
    /// pushing out what a `manual_wal_flush` buffer holds. Files keep what reached the OS.
    #[doc(hidden)]
    pub fn simulate_crash(&self) {
        let inner = &self.inner;
        if inner.closed.swap(true, Ordering::AcqRel) {
            return;
        }
        inner.error_handler.stop();
        inner.background.shutdown();
        // Closed as a killed process's files are: without cutting off the zeros written
        // ahead of a synced WAL's appends.
        if let Some(mut w) = inner.write.wal.lock().take() {
            w.keep_tail();
        }
        for w in inner.write.closed_wals.lock().drain(..) {
            w.log.lock().keep_tail();
        }
        inner.lock.lock().take();
    }

    /// Test hook: the current WAL's number and logical size (its appended bytes; the file
    /// may be longer, by the zeros written ahead of a synced WAL's appends), or None when
    /// the DB has no open WAL.
    #[doc(hidden)]
    pub fn wal_end(&self) -> Option<(u64, u64)> {
        let wal = self.inner.write.wal.lock();
        wal.as_ref().map(|w| (w.log_number(), w.file_size()))
    }

    /// Test hook: waits until no flush or compaction is queued or running in the
    /// background.
    #[doc(hidden)]
    pub fn wait_for_background_work(&self) {
        self.inner.background.wait_for_idle();
    }

    /// Test hook: how many times a table file was opened for reading (table cache misses).
    #[doc(hidden)]
    pub fn table_opens(&self) -> u64 {
        self.inner.table_cache.opens()
    }

    /// Test hook: true when this handle and `other` share one open DB.
    #[doc(hidden)]
    pub fn same_db(&self, other: &Db) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }
}

impl DbInner {
    /// Returns every byte this DB charged to its write buffer manager (at close).
    fn release_memtable_charge(&self) {
        if let Some(wbm) = &self.write_buffer_manager {
            let mut charged = self.charged_memory.lock();
            wbm.free_mem(*charged);
            *charged = 0;
        }
    }
}

impl Drop for DbInner {
    fn drop(&mut self) {
        self.error_handler.stop_without_join();
        self.background.stop_without_join();
        self.release_memtable_charge();
        if let Some(log) = self.write.wal.get_mut().as_mut() {
            let _ = log.flush();
        }
    }
}
