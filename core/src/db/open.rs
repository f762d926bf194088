// SPDX-License-Identifier: Apache-2.0
//! Recovery path: open (create or recover), WAL replay, `list_column_families`, `destroy`.
//!
//! Open, in order (as RocksDB's `DBImpl::Open`): create the directory if missing (not when
//! read-only), take `LOCK`, create a new DB when `CURRENT` is missing and `create_if_missing`
//! is set (`IDENTITY`, `MANIFEST-000001`, `CURRENT`), replay the MANIFEST, check the column
//! family list and comparators, replay every WAL at or above the oldest log any column family
//! still needs (honouring `wal_recovery_mode`), then start a new WAL, write a fresh MANIFEST
//! snapshot and an `OPTIONS` file, and delete obsolete files.
//!
//! WALs are never rewritten: recovered data stays in its WAL until a flush (later) records
//! it in a table and raises the column family's log number, so RocksDB, opening the same
//! directory, replays the same WALs.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Arc;

use parking_lot::{Mutex, RwLock};

use super::background::Background;
use super::column_family::{ColumnFamilyData, ColumnFamilyHandle, ColumnFamilySet, ImmMemTable};
use super::error_handler::ErrorHandler;
use super::super_version::SuperVersion;
use super::table_cache::TableCache;
use super::write::{insert_batch, WriteQueue};
use super::{Db, DbInner, Stats};
use crate::batch::WriteBatch;
use crate::error::{Error, Result};
use crate::fs::filename::{self, FileType};
use crate::fs::FileSystem;
use crate::key::InternalKeyComparator;
use crate::memtable::MemTable;
use crate::options::{ColumnFamilyOptions, DbOptions, WalRecoveryMode};
use crate::version::edit::VersionEdit;
use crate::version::set::{ColumnFamilyMeta, VersionSet};
use crate::version::version::Version;
use crate::wal::predecessor;
use crate::wal::reader::{LogReader, ReadOutcome};

pub(crate) fn open(
    opts: &DbOptions,
    name: &str,
    cf_descs: Vec<(String, ColumnFamilyOptions)>,
    read_only: bool,
    error_if_wal_file_exists: bool,
) -> Result<(Db, Vec<ColumnFamilyHandle>)> {
    let fs = opts.fs();
    let path = PathBuf::from(name);
    let db_id = super::next_db_id();
    // NOTE: the WAL always lives in the DB directory. A separate `wal_dir` is refused rather
    // than ignored: ignoring it would skip the logs a RocksDB DB keeps there at recovery, and
    // hide ours from RocksDB.
    if let Some(dir) = opts.wal_dir.as_deref() {
        if !Path::new(dir).components().eq(path.components()) {
            return Err(Error::not_supported(format!(
                "wal_dir {dir}: the WAL is always in the DB directory"
            )));
        }
    }
    if cf_descs.iter().all(|(n, _)| n != "default") {
        return Err(Error::invalid_argument(
            "Default column family not specified",
        ));
    }
    let mut lock = None;
    if !read_only {
        fs.create_dir_all(&path)?;
        lock = Some(fs.lock_file(&filename::lock_file(&path))?);
    }
    let current = filename::current_file(&path);
    if !fs.exists(&current) {
        if read_only {
            // RocksDB's read-only open reports the failed read of CURRENT.
            fs.read_all(&current)?;
        }
        if !opts.create_if_missing {
            return Err(Error::invalid_argument(format!(
                "{name}/CURRENT: does not exist (create_if_missing is false)"
            )));
        }
        new_db(&fs, &path)?;
    } else if opts.error_if_exists {
        return Err(Error::invalid_argument(format!(
            "{name}: exists (error_if_exists is true)"
        )));
    } else if !read_only {
        // A DB without IDENTITY (a checkpoint, or one that lost it) gets a new one, as
        // RocksDB's open gives it.
        ensure_identity(&fs, &path)?;
    }
    let mut vs = VersionSet::recover(fs.clone(), &path)?;
    vs.max_manifest_file_size = opts.max_manifest_file_size;

    // Check the caller's list against the MANIFEST.
    let listed: BTreeSet<&str> = cf_descs.iter().map(|(n, _)| n.as_str()).collect();
    if !read_only {
        let missing: Vec<&str> = vs
            .column_families
            .values()
            .map(|m| m.name.as_str())
            .filter(|n| !listed.contains(n))
            .collect();
        if !missing.is_empty() {
            return Err(Error::invalid_argument(format!(
                "Column families not opened: {}",
                missing.join(", ")
            )));
        }
    }
    let mut cfs = ColumnFamilySet::default();
    let mut to_create = Vec::new();
    for (cf_name, cf_opts) in &cf_descs {
        match vs.find_column_family(cf_name) {
            Some(id) => {
                let meta = &vs.column_families[&id];
                if let Some(stored) = &meta.comparator {
                    if stored != cf_opts.comparator.name() {
                        return Err(Error::invalid_argument(format!(
                            "{}: does not match existing comparator {stored}",
                            cf_opts.comparator.name()
                        )));
                    }
                }
                let num_levels = usize::try_from(cf_opts.num_levels).unwrap_or(7).max(1);
                let version = Version::from_files(
                    num_levels,
                    InternalKeyComparator::new(cf_opts.comparator.clone()),
                    &meta.files,
                );
                cfs.insert(Arc::new(ColumnFamilyData::new(
                    db_id,
                    id,
                    cf_name.clone(),
                    cf_opts.clone(),
                    version,
                )));
            }
            None if opts.create_missing_column_families && !read_only => {
                to_create.push((cf_name, cf_opts))
            }
            None => {
                return Err(Error::invalid_argument(format!(
                    "Column family not found: {cf_name}"
                )))
            }
        }
    }

    // Before any replay, as RocksDB: any WAL file in the directory, empty or not, fails a
    // read-only open that asked so, with RocksDB's text (the missing space is theirs).
    if read_only && error_if_wal_file_exists {
        let has_wal = fs
            .list_dir(&path)?
            .iter()
            .any(|n| matches!(filename::parse_file_name(n), Some(FileType::Wal(_))));
        if has_wal {
            return Err(Error::corruption(
                "The db was opened in readonly mode with error_if_wal_file_exists\
                 flag but a WAL file already exists",
            ));
        }
    }
    // Replay the WALs.
    let replay = recover_wals(fs.as_ref(), &path, opts, &vs, &cfs, !read_only)?;
    let last_seq = replay.last_seq.max(vs.last_sequence);
    vs.last_sequence = last_seq;
    // A file that exists is in use even if the MANIFEST never recorded its number (a crash
    // after creating a WAL but before the MANIFEST caught up): never hand its number out.
    for n in fs.list_dir(&path)? {
        let used = match filename::parse_file_name(&n) {
            Some(
                FileType::Wal(k)
                | FileType::Table(k)
                | FileType::Manifest(k)
                | FileType::Options(k),
            ) => k,
            Some(FileType::Blob(k) | FileType::OptionsTemp(k) | FileType::Temp(k)) => k,
            _ => 0,
        };
        vs.next_file_number = vs.next_file_number.max(used + 1);
    }
    for cfd in cfs.iter() {
        if let Some(meta) = vs.column_families.get_mut(&cfd.id) {
            meta.comparator = Some(cfd.options.comparator.name().to_string());
        }
    }

    let default_cf = ColumnFamilyHandle {
        cfd: cfs
            .get(0)
            .cloned()
            .ok_or_else(|| Error::invalid_argument("Default column family not specified"))?,
    };
    let inner = Arc::new_cyclic(|weak| DbInner {
        id: db_id,
        default_cf,
        name: name.to_string(),
        path: path.clone(),
        fs: fs.clone(),
        options: opts.clone(),
        read_only,
        lock: Mutex::new(lock),
        versions: Mutex::new(vs),
        cfs: RwLock::new(cfs),
        write: WriteQueue::new(None),
        wal_number: AtomicU64::new(0),
        last_sequence: AtomicU64::new(last_seq),
        snapshots: Default::default(),
        bg_error: Mutex::new(None),
        error_handler: ErrorHandler::new(weak.clone(), opts.bg_error_recovery_interval),
        closed: AtomicBool::new(false),
        stats: Stats::default(),
        table_cache: TableCache::new(fs.clone(), path.clone()),
        compactions: Mutex::new(Default::default()),
        compactions_done: Default::default(),
        obsolete_tables: Mutex::new(Vec::new()),
        unlogged_writes: AtomicBool::new(false),
        write_stopped: AtomicBool::new(false),
        write_buffer_manager: opts.write_buffer_manager.clone().or_else(|| {
            usize::try_from(opts.db_write_buffer_size)
                .ok()
                .filter(|n| *n > 0)
                .map(|n| Arc::new(crate::cache::WriteBufferManager::new(n, None, false)))
        }),
        charged_memory: Mutex::new(0),
        deletions_disabled: Mutex::new(0),
        background: Default::default(),
    });
    if !read_only {
        start_writable(&inner, last_seq, replay.past_a_hole)?;
        Background::start(&inner);
    }
    let db = Db { inner };
    for (cf_name, cf_opts) in to_create {
        db.create_column_family(cf_opts.clone(), cf_name)?;
    }
    let handles = cf_descs
        .iter()
        .map(|(n, _)| {
            db.cf_handle(n)
                .ok_or_else(|| Error::invalid_argument(format!("Column family not found: {n}")))
        })
        .collect::<Result<Vec<_>>>()?;
    if !read_only {
        write_options_file(&db)?;
        delete_obsolete_files(&db.inner);
        // What the recovered version needs (RocksDB's MaybeScheduleFlushOrCompaction).
        db.inner.background.schedule_compaction();
    }
    Ok((db, handles))
}

/// The writable half of open: flushes what the WALs held into level-0 tables (unless
/// `avoid_flush_during_recovery`), starts a new WAL, writes the MANIFEST snapshot that names
/// it, and deletes the WALs nothing needs any more. Afterwards the directory looks as RocksDB
/// leaves it after its own recovery.
///
/// `past_a_hole`: the replay went on past a WAL that ended short of what its successor's
/// predecessor record says (skip-any, or no paranoid checks). It flushes then whatever
/// `avoid_flush_during_recovery` says: a WAL kept with that record would stop a later open
/// in a stricter mode at the hole, and it would drop what this open replayed and every
/// write after it.
fn start_writable(inner: &Arc<DbInner>, last_seq: u64, past_a_hole: bool) -> Result<()> {
    let wal_number = inner.versions.lock().new_file_number();
    let cfds: Vec<Arc<ColumnFamilyData>> = inner.cfs.read().iter().cloned().collect();
    let flush = !inner.options.avoid_flush_during_recovery || past_a_hole;
    for cfd in &cfds {
        let sv = cfd.super_version();
        if flush && !sv.mem.is_empty() {
            let imm = ImmMemTable {
                mem: sv.mem.clone(),
                next_log_number: wal_number,
            };
            let number = inner.versions.lock().new_file_number();
            let meta = inner.write_level0_table(cfd, std::slice::from_ref(&imm), number)?;
            let mut edit = VersionEdit {
                column_family: cfd.id,
                ..Default::default()
            };
            if let Some(meta) = meta {
                edit.new_files.push((0, meta.clone()));
                if let Some(m) = inner.versions.lock().column_families.get_mut(&cfd.id) {
                    m.files.entry(0).or_default().push(meta);
                }
            }
            cfd.install(SuperVersion::new(
                cfd.new_memtable(),
                Vec::new(),
                Arc::new(sv.version.apply(&edit)),
            ));
        }
        if flush || sv.mem.is_empty() {
            if let Some(m) = inner.versions.lock().column_families.get_mut(&cfd.id) {
                m.log_number = wal_number;
            }
        }
    }
    let file = inner
        .fs
        .new_writable(&filename::wal_file(&inner.path, wal_number))?;
    let families = inner.versions.lock().column_families.len();
    let log = inner.wal_writer(file, wal_number, families);
    *inner.write.wal.lock() = Some(log);
    inner
        .wal_number
        .store(wal_number, std::sync::atomic::Ordering::Release);
    {
        let mut vs = inner.versions.lock();
        if vs.db_id.is_none() && inner.options.write_dbid_to_manifest {
            vs.db_id = read_identity(inner.fs.as_ref(), &inner.path);
        }
        let edit = VersionEdit {
            last_sequence: Some(last_seq),
            ..Default::default()
        };
        vs.write_snapshot_manifest(edit)?;
    }
    inner.fs.sync_dir(&inner.path)?;
    inner.delete_obsolete_wals();
    Ok(())
}

/// Creates the files of an empty DB: IDENTITY, MANIFEST-000001 and CURRENT.
fn new_db(fs: &Arc<dyn FileSystem>, path: &Path) -> Result<()> {
    write_identity(fs, path)?;
    let mut vs = VersionSet::new_empty(fs.clone(), path);
    vs.next_file_number = 1;
    let edit = VersionEdit {
        log_number: Some(0),
        ..Default::default()
    };
    vs.write_snapshot_manifest(edit)
}

/// Writes a fresh IDENTITY (through a synced temp file and a rename).
fn write_identity(fs: &Arc<dyn FileSystem>, path: &Path) -> Result<()> {
    let id_tmp = filename::temp_file(path, 0);
    let mut f = fs.new_writable(&id_tmp)?;
    f.append(new_uuid().as_bytes())?;
    f.sync()?;
    drop(f);
    fs.rename(&id_tmp, &filename::identity_file(path))
}

/// Writes an IDENTITY when the DB has none (a checkpoint, or a directory that lost it).
pub(crate) fn ensure_identity(fs: &Arc<dyn FileSystem>, path: &Path) -> Result<()> {
    if fs.exists(&filename::identity_file(path)) {
        return Ok(());
    }
    write_identity(fs, path)
}

fn read_identity(fs: &dyn FileSystem, path: &Path) -> Option<String> {
    let bytes = fs.read_all(&filename::identity_file(path)).ok()?;
    Some(String::from_utf8_lossy(&bytes).trim_end().to_string())
}

/// A random RFC 4122 version 4 UUID in lowercase hex, for IDENTITY.
fn new_uuid() -> String {
    let mut b = [0u8; 16];
    if let Ok(bytes) = std::fs::read("/proc/sys/kernel/random/uuid") {
        let text = String::from_utf8_lossy(&bytes).trim().to_string();
        if text.len() == 36 {
            return text;
        }
    }
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0)
        ^ (std::process::id() as u128) << 64;
    for (i, byte) in b.iter_mut().enumerate() {
        *byte = (seed >> ((i % 16) * 8)) as u8 ^ (i as u8).wrapping_mul(151);
    }
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}

/// Replays every WAL at or above the oldest log number any open column family needs, in
/// number order. Returns the WAL numbers seen and the largest sequence number replayed.
///
/// As RocksDB 7.8.3's `RecoverLogFiles`: a corruption the log reader reports ends the open
/// (tolerate-tail and absolute modes) or stops replay (point in time), unless the mode skips
/// corrupted records or `paranoid_checks` is off, when the damaged record is dropped and
/// replay goes on. After a point-in-time stop, a later WAL is replayed only if it picks up
/// exactly at the next sequence number after the last batch replayed; and if replay stayed
/// stopped and dropped such a WAL while a column family with tables had already moved past
/// the damaged WAL (its log number is higher), that family holds data newer than the
/// recovered point, and open fails with `SST file is ahead of WALs in CF <name>`.
///
/// A WAL that opens with a predecessor record (`wal::predecessor`) whose WAL was replayed
/// just before it and ended short of the recorded length lost its unsynced tail after the
/// switch: replay stops at that end in every mode but skip-any, as point-in-time recovery
/// stops at a corruption (the later WALs hold only unsynced writes: a synced write syncs
/// the WALs before its own). Unless a family's tables are past that WAL: the flush that
/// wrote them synced it, so it was damaged after, and replay goes on as in RocksDB.
/// solistore's own addition; RocksDB 7.8.3 writes no such record
/// and ignores ours (a LogData blob).
///
/// With `repair` (a writable open), the WALs are left the way RocksDB leaves them once it
/// has flushed what it recovered: a WAL whose replay ended early (a torn tail, or a
/// point-in-time stop) is truncated after its last good record, and WALs that point-in-time
/// recovery skipped are deleted. Our WALs outlive recovery (nothing is flushed into tables
/// yet), so without this the same damage would be met again at every open, and a skipped
/// WAL's sequence numbers would collide with new writes. Nothing is changed when recovery
/// fails.
fn recover_wals(
    fs: &dyn FileSystem,
    path: &Path,
    opts: &DbOptions,
    vs: &VersionSet,
    cfs: &ColumnFamilySet,
    repair: bool,
) -> Result<WalReplay> {
    let mode = opts.wal_recovery_mode;
    // RocksDB's log reporter has no status to set in skip mode or without paranoid checks.
    let ignore_corruption =
        !opts.paranoid_checks || mode == WalRecoveryMode::SkipAnyCorruptedRecords;
    let min_log = vs
        .column_families
        .values()
        .map(|m| m.log_number)
        .min()
        .unwrap_or(0)
        .max(vs.min_log_number_to_keep);
    let mut numbers: Vec<u64> = fs
        .list_dir(path)?
        .iter()
        .filter_map(|n| match filename::parse_file_name(n) {
            Some(FileType::Wal(num)) if num >= min_log => Some(num),
            _ => None,
        })
        .collect();
    numbers.sort_unstable();
    let mut last_seq = vs.last_sequence;
    // The sequence number after the last batch replayed (None before the first).
    let mut next_seq: Option<u64> = None;
    // Point-in-time recovery stopped at a corruption in this WAL.
    let mut stopped_in: Option<u64> = None;
    // A WAL after the stop was not replayed (its first batch did not follow on).
    let mut dropped_later = false;
    // The WAL replayed last and where its last good record ended (None if it was skipped).
    let mut replayed_prev: Option<(u64, u64)> = None;
    // A predecessor record named a WAL that ended short, and replay went on.
    let mut past_a_hole = false;
    let mut record = Vec::new();
    let mut live = Vec::new();
    // (WAL, length to truncate it to; None: delete it), applied once recovery succeeded.
    let mut repairs: Vec<(PathBuf, Option<u64>)> = Vec::new();
    for &number in &numbers {
        let wal_path = filename::wal_file(path, number);
        let file_len = fs.file_size(&wal_path)?;
        let src = fs.new_sequential(&wal_path)?;
        let mut reader = LogReader::new(src, number, mode);
        if ignore_corruption {
            reader = reader.ignoring_corruptions();
        }
        let mut skipped = false;
        let good_end;
        loop {
            let before = reader.last_record_end();
            let outcome = reader.read_record(&mut record)?;
            match outcome {
                ReadOutcome::Eof => {
                    good_end = reader.last_record_end();
                    break;
                }
                ReadOutcome::Stop(_) => {
                    good_end = reader.last_record_end();
                    stopped_in = Some(number);
                    break;
                }
                ReadOutcome::Record => {}
            }
            let batch = if record.len() < crate::batch::HEADER_SIZE {
                Err(Error::corruption("log record too small"))
            } else {
                WriteBatch::from_rep(std::mem::take(&mut record))
            };
            let batch = match batch {
                Ok(b) => b,
                Err(_) if ignore_corruption => continue,
                Err(e) => match mode {
                    WalRecoveryMode::PointInTimeRecovery => {
                        good_end = before;
                        stopped_in = Some(number);
                        break;
                    }
                    _ => return Err(e),
                },
            };
            // After a stop, replay goes on only where the history follows on: the first
            // record after it must carry the next sequence number. That record may be a
            // predecessor record, whose number is the next write's at the switch, as
            // RocksDB checks it (writes with the WAL disabled after the switch leave a
            // gap before the next logged batch that loses nothing).
            if stopped_in.is_some() {
                if Some(batch.sequence()) != next_seq {
                    skipped = true;
                    dropped_later = true;
                    good_end = 0;
                    break;
                }
                stopped_in = None;
            }
            if let Some(prev) = predecessor::decode(&batch) {
                // A WAL opened at a memtable switch: its predecessor must have kept every
                // write it had then, or the rest of the history is after a hole (the
                // predecessor was not synced at the switch). It lost one when it ends
                // short of the recorded length and this record's sequence number (the
                // next write's at the switch) does not follow on from the last batch
                // replayed. Stop there, as after a corruption; skip-any goes on, as it
                // goes on past any damage. Not when a family's tables are already past
                // the predecessor: the flush that put them there synced it first, so it
                // was cut after the sync, damage that recovery treats as RocksDB does.
                // (With several families every flush syncs the closed WALs,
                // `sync_closed_wals`, and so do error recovery and a writable open before
                // they flush; with one, its tables past the WAL mean the WAL is not
                // replayed at all.)
                let short =
                    replayed_prev.is_some_and(|(n, end)| n == prev.number && end < prev.length);
                if short && next_seq != Some(batch.sequence()) {
                    if ignore_corruption {
                        past_a_hole = true;
                    } else if family_with_tables_past(vs, prev.number).is_none() {
                        stopped_in = Some(prev.number);
                        continue;
                    }
                }
                // A batch of no writes: the next one takes its number.
                next_seq = Some(batch.sequence());
                continue;
            }
            let seq = batch.sequence();
            let mut memtable_for = |cf: u32| -> Option<Arc<MemTable>> {
                let needed = vs
                    .column_families
                    .get(&cf)
                    .is_some_and(|m| number >= m.log_number);
                if needed {
                    cfs.get(cf).map(|c| c.mem())
                } else {
                    None
                }
            };
            let next = insert_batch(&mut memtable_for, &batch, seq)?;
            next_seq = Some(next);
            if next > seq {
                last_seq = last_seq.max(next - 1);
            }
        }
        replayed_prev = (!skipped).then_some((number, good_end));
        if !repair {
            live.push(number);
        } else if skipped {
            repairs.push((wal_path, None));
        } else {
            if good_end < file_len {
                repairs.push((wal_path, Some(good_end)));
            }
            live.push(number);
        }
    }
    // As RocksDB's comment on this check intends ("exclude the PIT case where no log is
    // dropped after the corruption point"): only when replay dropped a later WAL. A torn
    // tail followed by empty WALs (a crash during recovery from a failed write) loses
    // nothing any family has.
    if let (Some(corrupted), true) = (stopped_in, dropped_later) {
        if let Some(m) = family_with_tables_past(vs, corrupted) {
            return Err(Error::corruption(format!(
                "SST file is ahead of WALs in CF {}",
                m.name
            )));
        }
    }
    for (wal_path, truncate_to) in repairs {
        match truncate_to {
            Some(len) => fs.truncate(&wal_path, len)?,
            None => fs.remove_file(&wal_path)?,
        }
    }
    if repair {
        // What was replayed is about to be flushed into tables and the MANIFEST moved past
        // it: make it durable first. Otherwise a crash could drop a WAL tail that never
        // reached the disk while a family's table already holds its data, and the next
        // open would meet a family ahead of its WAL (`SST file is ahead of WALs`).
        for &number in &live {
            fs.reopen_writable(&filename::wal_file(path, number))?
                .sync()?;
        }
    }
    Ok(WalReplay {
        last_seq,
        past_a_hole,
    })
}

/// A column family with tables whose data starts after WAL `wal` (its log number is past
/// it): what it held of that WAL is in those tables.
fn family_with_tables_past(vs: &VersionSet, wal: u64) -> Option<&ColumnFamilyMeta> {
    vs.column_families
        .values()
        .find(|m| m.log_number > wal && m.files.values().flatten().any(|f| f.file_size > 0))
}

/// What [`recover_wals`] found.
struct WalReplay {
    /// The last sequence number replayed (the MANIFEST's when nothing was).
    last_seq: u64,
    /// Replay went on past a WAL that ended short of its successor's predecessor record.
    past_a_hole: bool,
}

/// Writes `OPTIONS-<n>` (through a temp file) and deletes older OPTIONS files.
fn write_options_file(db: &Db) -> Result<()> {
    let inner = &db.inner;
    let number = inner.versions.lock().new_file_number();
    let text = {
        let cfs = inner.cfs.read();
        let list: Vec<(&str, &ColumnFamilyOptions)> =
            cfs.iter().map(|c| (c.name.as_str(), &c.options)).collect();
        crate::options::file::render_options_file(&inner.options, &list)
    };
    let final_path = filename::options_file(&inner.path, number);
    let tmp = PathBuf::from(format!("{}.dbtmp", final_path.display()));
    let mut f = inner.fs.new_writable(&tmp)?;
    f.append(text.as_bytes())?;
    f.sync()?;
    drop(f);
    inner.fs.rename(&tmp, &final_path)?;
    Ok(())
}

/// Deletes files no longer needed: older OPTIONS files, stray temp files, MANIFESTs other
/// than the current one. Best effort: a file that cannot be deleted is left for next time.
fn delete_obsolete_files(inner: &DbInner) {
    let Ok(names) = inner.fs.list_dir(&inner.path) else {
        return;
    };
    let (manifest, live_tables) = {
        let mut vs = inner.versions.lock();
        // Every MANIFEST but the current one is deleted below.
        vs.obsolete_manifests.clear();
        let live: std::collections::HashSet<u64> = vs
            .column_families
            .values()
            .flat_map(|m| m.files.values().flatten().map(|f| f.number))
            .collect();
        (vs.manifest_number, live)
    };
    let newest_options = names
        .iter()
        .filter_map(|n| match filename::parse_file_name(n) {
            Some(FileType::Options(k)) => Some(k),
            _ => None,
        })
        .max();
    for n in &names {
        let obsolete = match filename::parse_file_name(n) {
            Some(FileType::Options(k)) => Some(k) != newest_options,
            Some(FileType::OptionsTemp(_)) | Some(FileType::Temp(_)) => true,
            Some(FileType::Manifest(k)) => k != manifest,
            // A table no version names: left by a crash mid-flush or mid-compaction.
            Some(FileType::Table(k)) => !live_tables.contains(&k),
            _ => false,
        };
        if obsolete {
            let _ = inner.fs.remove_file(&inner.path.join(n));
        }
    }
}

pub(crate) fn list_column_families(opts: &DbOptions, name: &str) -> Result<Vec<String>> {
    let vs = VersionSet::recover(opts.fs(), Path::new(name))?;
    Ok(vs
        .column_families
        .values()
        .map(|m| m.name.clone())
        .collect())
}

/// RocksDB's `DestroyDB`: a missing directory is fine; a DB that is open (its LOCK held)
/// returns the lock error and loses nothing.
pub(crate) fn destroy(opts: &DbOptions, name: &str) -> Result<()> {
    let fs = opts.fs();
    let path = Path::new(name);
    let Ok(names) = fs.list_dir(path) else {
        return Ok(());
    };
    let lock_path = filename::lock_file(path);
    let lock = fs.lock_file(&lock_path)?;
    let mut result = Ok(());
    for n in &names {
        match filename::parse_file_name(n) {
            Some(FileType::Lock) | None => {}
            Some(_) => {
                if let Err(e) = fs.remove_file(&path.join(n)) {
                    result = result.and(Err(e));
                }
            }
        }
    }
    drop(lock);
    let _ = fs.remove_file(&lock_path);
    let _ = fs.remove_dir(path);
    result
}
