// SPDX-License-Identifier: Apache-2.0
//! Memtable switch and flush: a full memtable becomes immutable, a new WAL starts, and a
//! background job writes the immutable memtables of a column family to one level-0 table,
//! records it in the MANIFEST (with the family's new log number) and deletes the WALs no
//! family needs any more.
//!
//! Path: write (the switch, run in leader context: by the write leader after its group, or
//! by an exclusive writer for `flush`) and background (the flush job).
//!
//! Why the switch runs in leader context: a group's WAL append and its memtable inserts must
//! land on the same side of a switch. If a switch slipped in between, the group's WAL record
//! would sit in a WAL that the flush of the old memtable makes obsolete while its entries sit
//! in the new memtable, and a crash would lose them.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;

use super::column_family::{ColumnFamilyData, ImmMemTable};
use super::error_handler::Reason;
use super::flush_gc::ShadowFilter;
use super::super_version::SuperVersion;
use super::DbInner;
use crate::error::Result;
use crate::fs::filename::{self, FileType};
use crate::fs::WritableFile;
use crate::iter::merging::MergingIterator;
use crate::iter::InternalIterator;
use crate::key::{parse_internal_key, ValueType};
use crate::memtable::MemTable;
use crate::options::WalRecoveryMode;
use crate::sst::builder::{TableBuilder, TableBuilderOptions};
use crate::version::edit::{FileMetaData, VersionEdit};
use crate::version::set::VersionSet;
use crate::wal::predecessor::{self, Predecessor};
use crate::wal::writer::LogWriter;

use super::write::ClosedWal;

/// The WAL writeback interval of a DB with several column families where
/// `wal_bytes_per_sync` is 0 (see `wal_writeback_bytes`).
const MULTI_FAMILY_WAL_WRITEBACK: u64 = 1 << 20;

/// How often a manual flush that waits looks again without a finished job to wake it.
const FLUSH_WAIT_RECHECK: Duration = Duration::from_millis(50);

impl DbInner {
    /// Moves `cfd`'s active memtable to its immutable list and starts a new WAL (unless the
    /// current one holds no write), then queues a flush. Must run in leader context.
    pub(crate) fn switch_memtable(&self, cfd: &Arc<ColumnFamilyData>) -> Result<()> {
        // Lock order: versions, then the WAL.
        let mut vs = self.versions.lock();
        let sv = cfd.super_version();
        if sv.mem.is_empty() {
            return Ok(());
        }
        let mut wal = self.write.wal.lock();
        let current = self.wal_number.load(Ordering::Acquire);
        let next_log_number = match wal.as_mut() {
            // Not when the WAL holds nothing but its own predecessor record (writes with
            // the WAL disabled): a new one would hold only a record naming this one.
            Some(old) if old.has_own_records() => {
                // The old WAL is not synced here (a synced write or a multi-family flush
                // syncs it later, from `closed_wals`, and a flush may make it obsolete
                // first). A power cut could then keep the new WAL's first writes and lose
                // the old one's unsynced tail; the new WAL opens with the old one's
                // number and length (`wal::predecessor`), and recovery stops where the
                // old one ends short instead of leaving a hole in the history.
                old.flush()
                    .map_err(|e| self.set_bg_error(e, Reason::WalWrite))?;
                let prev = Predecessor {
                    number: old.log_number(),
                    length: old.file_size(),
                };
                // A switch that cannot start a new WAL stops the DB (RocksDB's `kMemTable`).
                let mut log = self
                    .new_wal(&mut vs)
                    .map_err(|e| self.set_bg_error(e, Reason::MemTable))?;
                // Every write logged so far is published: a switch runs in the write queue,
                // after the leader's group (or in `run_exclusive`). Queued, not appended: it
                // goes out with the new WAL's first write, so a switch does no I/O here
                // but the file's creation (a full disk fails that write, as in RocksDB).
                let next_sequence = self.last_sequence.load(Ordering::Acquire) + 1;
                log.queue_record(&predecessor::encode(next_sequence, prev))
                    .map_err(|e| self.set_bg_error(e, Reason::WalWrite))?;
                let number = log.log_number();
                if let Some(old) = wal.replace(log) {
                    self.write.closed_wals.lock().push(ClosedWal::new(old));
                }
                self.wal_number.store(number, Ordering::Release);
                number
            }
            _ => current,
        };
        drop(wal);
        self.retire_memtable(cfd, &sv, next_log_number);
        drop(vs);
        self.background.schedule_flush(cfd.clone());
        Ok(())
    }

    /// Switches `cfd`'s memtable for a manual flush (in the write queue, so that no batch is
    /// half in the old memtable) and returns the newest immutable memtable then: once it is
    /// flushed, everything written before the call is in tables. None when nothing was
    /// unflushed.
    pub(crate) fn switch_for_flush(
        self: &Arc<Self>,
        cfd: &Arc<ColumnFamilyData>,
    ) -> Result<Option<Arc<MemTable>>> {
        let target = Arc::new(Mutex::new(None));
        let (worker, family, found) = (self.clone(), cfd.clone(), target.clone());
        self.run_exclusive(Box::new(move || {
            worker.switch_memtable(&family)?;
            *found.lock() = family.imms.lock().last().map(|i| i.mem.clone());
            Ok(())
        }))?;
        let newest = target.lock().take();
        Ok(newest)
    }

    /// Waits until each family's `target` memtable is flushed (RocksDB's
    /// `WaitForFlushMemTables`), the family is dropped, the DB stops or closes. Waiting for
    /// the memtables of the call, not for an empty flush queue, is what lets a manual flush
    /// end while writers keep switching memtables.
    ///
    /// # Errors
    /// The background error, when one stopped the flush.
    pub(crate) fn wait_until_flushed(
        &self,
        targets: &[(Arc<ColumnFamilyData>, Option<Arc<MemTable>>)],
    ) -> Result<()> {
        let pending = |cfd: &ColumnFamilyData, mem: &Arc<MemTable>| {
            !cfd.is_dropped() && cfd.imms.lock().iter().any(|i| Arc::ptr_eq(&i.mem, mem))
        };
        for (cfd, target) in targets {
            let Some(mem) = target else { continue };
            loop {
                let epoch = self.background.epoch();
                if !pending(cfd, mem) || self.bg_error.lock().is_some() {
                    break;
                }
                // Flush jobs bump the epoch; error recovery flushes without a job, so the
                // wait also wakes now and then to look.
                if !self
                    .background
                    .wait_for_epoch_change(epoch, FLUSH_WAIT_RECHECK)
                {
                    break;
                }
            }
        }
        match self.bg_error.lock().clone() {
            Some(err) => Err(err),
            None => Ok(()),
        }
    }

    /// Creates the next WAL, its name durable (a synced write in it must survive a power
    /// cut). The caller installs it and stores `wal_number`.
    pub(crate) fn new_wal(&self, vs: &mut VersionSet) -> Result<LogWriter> {
        let number = vs.new_file_number();
        let file = self
            .fs
            .new_writable(&filename::wal_file(&self.path, number))?;
        self.fs.sync_dir(&self.path)?;
        Ok(self.wal_writer(file, number, vs.column_families.len()))
    }

    /// A writer for a new, empty WAL of a DB with `families` column families, set up as the
    /// DB's options and recovery mode ask (buffering, writeback, zeros ahead, mapping).
    pub(crate) fn wal_writer(
        &self,
        file: Box<dyn WritableFile>,
        number: u64,
        families: usize,
    ) -> LogWriter {
        let mut log = LogWriter::new(file, number, false);
        log.set_buffered(self.options.manual_wal_flush);
        log.set_writeback_every(self.wal_writeback_bytes(families));
        log.set_spill(true);
        log.set_prepare_ahead(self.wal_prepares_ahead());
        if self.wal_maps_appends() {
            log.set_map_appends();
        }
        log
    }

    /// How often a WAL of a DB with `families` column families starts its writeback: every
    /// `wal_bytes_per_sync` bytes. Where that is 0 (RocksDB's default), never with one
    /// family: an unsynced WAL whose memtable is flushed before the kernel writes it back
    /// then never reaches the disk. With several, every [`MULTI_FAMILY_WAL_WRITEBACK`]
    /// bytes: each flush syncs the WALs switched away from first (`sync_closed_wals`), so
    /// their bytes reach the disk anyway, and the writeback keeps that sync, which a
    /// memtable switch waits for, from meeting a whole memtable's worth of dirty pages
    /// (Kommander's 10 families, 4 unsynced writers: writes stalled up to 640 ms without
    /// it).
    pub(crate) fn wal_writeback_bytes(&self, families: usize) -> u64 {
        match self.options.wal_bytes_per_sync {
            0 if families > 1 => MULTI_FAMILY_WAL_WRITEBACK,
            n => n,
        }
    }

    /// Sets the live WAL's writeback interval for the DB's family count now (`vs` held, so
    /// the count is current; lock order: versions, then the WAL). A family created after
    /// the WAL was: Kommander opens with one family and creates its nine others in the
    /// first WAL, which then holds every write up to the first memtable switch; without
    /// writeback, the first flush's `sync_closed_wals` met all of it dirty (10 families,
    /// 16 unsynced writers: a 357 ms fdatasync of 490 MB before the flush could finish).
    pub(crate) fn refresh_wal_writeback(&self, vs: &VersionSet) {
        let bytes = self.wal_writeback_bytes(vs.column_families.len());
        if let Some(log) = self.write.wal.lock().as_mut() {
            log.set_writeback_every(bytes);
        }
    }

    /// Whether the DB's WALs take their appends through a mapping until their first sync
    /// (`WritableFile::map_appends`): a store instead of a `write(2)` per write group, as
    /// durable against a process kill. A kill during a store can leave the record being
    /// appended torn before the window's zeros; point-in-time recovery ends the log there
    /// and skip-any skips it, as they treat a torn tail, and the write was never
    /// acknowledged. Absolute consistency would refuse such a log and tolerate-tail would
    /// report it, so their WALs write (`core/tests/wal_recovery_modes.rs`).
    pub(crate) fn wal_maps_appends(&self) -> bool {
        matches!(
            self.options.wal_recovery_mode,
            WalRecoveryMode::PointInTimeRecovery | WalRecoveryMode::SkipAnyCorruptedRecords
        )
    }

    /// Whether the DB's WALs write zeros ahead of their appends once synced
    /// ([`LogWriter::set_prepare_ahead`]): in every recovery mode whose outcome a zero tail
    /// does not change. A record torn by a power cut then lies before zeros, not at the
    /// file's end, and reads as a checksum mismatch instead of a truncated record:
    /// point-in-time recovery ends the log there as at a torn tail, skip-any skips it as it
    /// would a torn tail, and absolute consistency refuses to open either way. Only
    /// tolerate-tail, which accepts a torn tail but reports damage before the end, would
    /// refuse a DB it opens today, so its WALs grow as RocksDB's do
    /// (`core/tests/wal_recovery_modes.rs` has each shape in each mode). Not with
    /// `use_fsync`: fsync writes the inode's times at every sync anyway.
    pub(crate) fn wal_prepares_ahead(&self) -> bool {
        !self.options.use_fsync
            && self.options.wal_recovery_mode != WalRecoveryMode::TolerateCorruptedTailRecords
    }

    /// Moves `sv`'s active memtable to the end of `cfd`'s immutable list (WALs below
    /// `next_log_number` hold nothing of it once it is flushed) and installs a fresh
    /// memtable. Call with `versions` held.
    pub(crate) fn retire_memtable(
        &self,
        cfd: &ColumnFamilyData,
        sv: &SuperVersion,
        next_log_number: u64,
    ) {
        let mut imms = cfd.imms.lock();
        imms.push(ImmMemTable {
            mem: sv.mem.clone(),
            next_log_number,
        });
        let newest_first: Vec<_> = imms.iter().rev().map(|i| i.mem.clone()).collect();
        drop(imms);
        cfd.install(SuperVersion::new(
            cfd.new_memtable(),
            newest_first,
            sv.version.clone(),
        ));
    }

    /// After a group: switches the memtable of every family that passed its write buffer
    /// size. Runs in leader context.
    pub(crate) fn switch_full_memtables(&self) -> Result<()> {
        let full: Vec<Arc<ColumnFamilyData>> = self
            .cfs
            .read()
            .iter()
            .filter(|c| c.mem_usage() >= c.options.write_buffer_size.max(1))
            .cloned()
            .collect();
        for cfd in full {
            self.switch_memtable(&cfd)?;
        }
        Ok(())
    }

    /// Writes every immutable memtable of `cfd` (as of now) into one level-0 table and
    /// installs it. Runs on the background thread (or synchronously at open).
    pub(crate) fn flush_column_family(&self, cfd: &Arc<ColumnFamilyData>) -> Result<()> {
        // One flush per family at a time (several flush slots may take the same family);
        // a second one then finds what the first left, often nothing.
        let _one_at_a_time = cfd.flush_lock.lock();
        let batch: Vec<ImmMemTable> = cfd.imms.lock().clone();
        // A dropped family's data is never flushed: the MANIFEST no longer knows it.
        if batch.is_empty() || cfd.is_dropped() {
            return Ok(());
        }
        let number = self.versions.lock().new_file_number();
        let meta = self.write_level0_table(cfd, &batch, number)?;
        let next_log_number = batch.last().map(|i| i.next_log_number).unwrap_or(0);
        if self.has_several_families() {
            // Writes to other families that came before the flushed ones may sit in WALs
            // that were never synced; this table must not be durable without them.
            self.sync_closed_wals()?;
        }
        let mut vs = self.versions.lock();
        if cfd.is_dropped() {
            // Dropped while the table was written (drops happen under `versions`): the
            // family's data is gone, and so is the table.
            drop(vs);
            if let Some(meta) = meta {
                let _ = self
                    .fs
                    .remove_file(&filename::table_file(&self.path, meta.number));
            }
            return Ok(());
        }
        let mut edit = VersionEdit {
            column_family: cfd.id,
            log_number: Some(next_log_number),
            ..Default::default()
        };
        if let Some(meta) = meta {
            edit.new_files.push((0, meta));
        }
        self.sync_last_sequence(&mut vs);
        vs.log_and_apply(edit.clone())?;
        let mut imms = cfd.imms.lock();
        imms.drain(..batch.len());
        let newest_first: Vec<_> = imms.iter().rev().map(|i| i.mem.clone()).collect();
        drop(imms);
        let sv = cfd.super_version();
        cfd.install(SuperVersion::new(
            sv.mem.clone(),
            newest_first,
            Arc::new(sv.version.apply(&edit)),
        ));
        drop(vs);
        self.delete_obsolete_wals();
        self.delete_obsolete_tables();
        self.charge_memtables(false)?;
        self.background.schedule_compaction();
        Ok(())
    }

    /// Builds the level-0 table `number` from `batch`; None when the memtables held nothing.
    pub(crate) fn write_level0_table(
        &self,
        cfd: &ColumnFamilyData,
        batch: &[ImmMemTable],
        number: u64,
    ) -> Result<Option<FileMetaData>> {
        let path = filename::table_file(&self.path, number);
        let built = self.build_level0_table(cfd, batch, number, &path);
        if built.is_err() {
            // Nothing names the partial table yet: do not leave it taking space.
            let _ = self.fs.remove_file(&path);
        }
        built
    }

    fn build_level0_table(
        &self,
        cfd: &ColumnFamilyData,
        batch: &[ImmMemTable],
        number: u64,
        path: &std::path::Path,
    ) -> Result<Option<FileMetaData>> {
        let children: Vec<Box<dyn InternalIterator>> = batch
            .iter()
            .map(|i| Box::new(i.mem.iter_all()) as Box<dyn InternalIterator>)
            .collect();
        let mut iter = MergingIterator::new(children, cfd.icmp.clone());
        let opts = self.table_builder_options(cfd, 0);
        let mut builder = TableBuilder::new(opts, self.new_table_writer(path)?)?;
        // Versions no reader can see are left out (see `flush_gc`).
        let snapshots = self.snapshots.all();
        let mut shadow = ShadowFilter::new(&cfd.icmp, &snapshots);
        iter.seek_to_first();
        while iter.valid() {
            let key = iter.key();
            let parsed = parse_internal_key(key)?;
            if parsed.value_type == ValueType::RangeDeletion {
                // An empty or inverted range deletes nothing; writing it would only widen
                // the table's key range.
                if cfd.icmp.compare_user(parsed.user_key, iter.value()).is_lt() {
                    builder.add_range_tombstone(parsed.user_key, iter.value(), parsed.sequence)?;
                }
            } else if shadow.keep(&parsed) {
                builder.add(key, iter.value())?;
            }
            iter.next();
        }
        iter.status()?;
        let info = builder.finish()?;
        if info.num_entries == 0 && info.num_range_deletions == 0 {
            let _ = self.fs.remove_file(path);
            return Ok(None);
        }
        // The builder leaves syncing to us: make the table durable, and its name in the
        // directory, before the MANIFEST names it.
        self.fs.reopen_writable(path)?.sync()?;
        self.fs.sync_dir(&self.path)?;
        self.stats
            .flush_write_bytes
            .fetch_add(info.file_size, Ordering::Relaxed);
        Ok(Some(super::table_file::new_table_meta(number, info)))
    }

    /// Table options for a file of `cfd` written at `level`.
    pub(crate) fn table_builder_options(
        &self,
        cfd: &ColumnFamilyData,
        level: usize,
    ) -> TableBuilderOptions {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        TableBuilderOptions {
            comparator: cfd.options.comparator.clone(),
            merge_operator_name: cfd
                .options
                .merge_operator
                .as_ref()
                .map(|m| m.name().to_string()),
            column_family_id: u64::from(cfd.id),
            column_family_name: cfd.name.clone(),
            filter: crate::sst::filter::builder_for(&cfd.options),
            compression: match cfd.options.compression_per_level.as_slice() {
                [] => cfd.options.compression,
                per_level => per_level[level.min(per_level.len() - 1)],
            },
            block_size: cfd.options.block_size.max(1),
            data_block_hash_ratio: cfd.options.effective_data_block_hash_ratio(),
            creation_time: now,
            file_creation_time: now,
            ..Default::default()
        }
    }

    /// Deletes WALs that no column family needs: below every family's log number, or, for a
    /// family with nothing unflushed, below the current WAL.
    pub(crate) fn delete_obsolete_wals(&self) {
        let disabled = self.deletions_disabled.lock();
        if *disabled > 0 {
            return;
        }
        let current = self.wal_number.load(Ordering::Acquire);
        let min_needed = {
            let vs = self.versions.lock();
            let cfs = self.cfs.read();
            cfs.iter()
                .map(|c| {
                    let unflushed = !c.mem().is_empty() || !c.imms.lock().is_empty();
                    match vs.column_families.get(&c.id) {
                        Some(meta) if unflushed => meta.log_number,
                        _ => current,
                    }
                })
                .min()
                .unwrap_or(current)
                .min(current)
        };
        self.write
            .closed_wals
            .lock()
            .retain(|w| w.number >= min_needed);
        let Ok(names) = self.fs.list_dir(&self.path) else {
            return;
        };
        for n in names {
            if let Some(FileType::Wal(k)) = filename::parse_file_name(&n) {
                if k < min_needed {
                    let _ = self.fs.remove_file(&self.path.join(&n));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::db::Db;
    use crate::options::{ColumnFamilyOptions, DbOptions, WriteOptions};

    /// Found by the crash sweep (random workload 111): a flush queued for a family that is
    /// then dropped wrote a MANIFEST record for the dropped family, and no open succeeded
    /// after that.
    #[test]
    fn a_family_dropped_before_its_flush_leaves_the_manifest_openable() {
        let (_dir, path, db) = crate::db::test_support::fresh_db();
        let a = db
            .create_column_family(ColumnFamilyOptions::default(), "a")
            .expect("create");
        db.put(&WriteOptions::default(), &a, b"k", b"v")
            .expect("put");
        // Stop the background thread so that the queued flush runs only when we say.
        db.inner.background.shutdown();
        db.inner.switch_memtable(&a.cfd).expect("switch");
        db.drop_column_family(&a).expect("drop");
        db.inner.flush_column_family(&a.cfd).expect("a no-op");
        db.close().expect("close");
        let names = Db::list_column_families(&path).expect("the MANIFEST reads");
        assert_eq!(names, vec!["default".to_string()]);
        Db::open(&DbOptions::default(), ColumnFamilyOptions::default(), &path)
            .expect("reopen")
            .close()
            .expect("close");
    }

    /// A sync of a closed WAL (a flush's `sync_closed_wals`, holding that WAL's lock) must
    /// not hold up a memtable switch, which adds to the same list under the writers' lock.
    /// A new DB (no background work) whose first WAL, holding k1, was switched away from:
    /// the DB, its default family and that closed WAL.
    fn with_a_closed_wal(
        dir: &tempfile::TempDir,
    ) -> (
        std::sync::Arc<Db>,
        crate::db::ColumnFamilyHandle,
        std::sync::Arc<crate::db::write::ClosedWal>,
    ) {
        let path = dir.path().join("db").to_string_lossy().into_owned();
        let opts = DbOptions {
            create_if_missing: true,
            ..Default::default()
        };
        let db = std::sync::Arc::new(
            Db::open(&opts, ColumnFamilyOptions::default(), &path).expect("open"),
        );
        db.inner.background.shutdown();
        let cf = db.default_cf();
        db.put(&WriteOptions::default(), &cf, b"k1", b"v")
            .expect("put");
        db.inner.switch_memtable(&cf.cfd).expect("switch");
        let closed = db.inner.write.closed_wals.lock()[0].clone();
        (db, cf, closed)
    }

    /// A synced write after a switch must not return before the WAL switched away from is
    /// durable, even while another thread's sync of it (a flush's) is still in progress.
    #[test]
    fn a_synced_write_waits_for_a_closed_wal_sync_in_progress() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (db, cf, closed) = with_a_closed_wal(&dir);
        let syncing = closed.log.lock();
        let (done, finished) = std::sync::mpsc::channel();
        let (db2, cf2) = (db.clone(), cf.clone());
        std::thread::spawn(move || {
            let synced = WriteOptions {
                sync: true,
                ..Default::default()
            };
            let _ = done.send(db2.put(&synced, &cf2, b"k2", b"v"));
        });
        // The write blocks for as long as the lock is held; 200 ms only bounds the wait.
        assert!(
            finished
                .recv_timeout(std::time::Duration::from_millis(200))
                .is_err(),
            "the synced write returned while the WAL before it was held unsynced"
        );
        drop(syncing);
        finished
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("the synced write finished once the WAL was free")
            .expect("put");
        assert!(
            !closed.log.lock().has_unsynced(),
            "the closed WAL was synced"
        );
    }

    #[test]
    fn a_switch_does_not_wait_for_a_closed_wal_being_synced() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (db, cf, closed) = with_a_closed_wal(&dir);
        let syncing = closed.log.lock();
        db.put(&WriteOptions::default(), &cf, b"k2", b"v")
            .expect("put");
        let (done, finished) = std::sync::mpsc::channel();
        let (db2, cf2) = (db.clone(), cf.clone());
        std::thread::spawn(move || {
            let res = db2.inner.switch_memtable(&cf2.cfd);
            let _ = done.send(res);
        });
        let res = finished
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("the switch finished while the closed WAL was held");
        res.expect("switch");
        assert_eq!(db.inner.write.closed_wals.lock().len(), 2);
        drop(syncing);
        db.inner.sync_closed_wals().expect("sync");
        assert!(db.inner.write.closed_wals.lock().is_empty());
    }

    #[test]
    fn a_wal_starts_its_writeback_only_with_several_families_or_when_asked() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
        let opts = DbOptions {
            create_if_missing: true,
            ..Default::default()
        };
        let db = Db::open(&opts, ColumnFamilyOptions::default(), &path("a")).expect("open");
        assert_eq!(db.inner.wal_writeback_bytes(1), 0, "never, as in RocksDB");
        assert_eq!(
            db.inner.wal_writeback_bytes(2),
            super::MULTI_FAMILY_WAL_WRITEBACK
        );
        db.close().expect("close");
        let asked = DbOptions {
            wal_bytes_per_sync: 4096,
            ..opts
        };
        let db = Db::open(&asked, ColumnFamilyOptions::default(), &path("b")).expect("open");
        assert_eq!(db.inner.wal_writeback_bytes(1), 4096);
        assert_eq!(db.inner.wal_writeback_bytes(10), 4096);
        db.close().expect("close");
    }

    #[test]
    fn the_live_wal_follows_the_family_count_as_families_come_and_go() {
        let (_dir, _path, db) = crate::db::test_support::fresh_db();
        let live = || {
            db.inner
                .write
                .wal
                .lock()
                .as_ref()
                .map(|log| log.writeback_every())
        };
        assert_eq!(live(), Some(0), "one family: never");
        let cf = db
            .create_column_family(ColumnFamilyOptions::default(), "second")
            .expect("create");
        assert_eq!(live(), Some(super::MULTI_FAMILY_WAL_WRITEBACK));
        db.drop_column_family(&cf).expect("drop");
        assert_eq!(live(), Some(0));
        db.close().expect("close");
    }
}
