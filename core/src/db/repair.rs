// SPDX-License-Identifier: Apache-2.0
//! `RepairDB`: rebuilds a DB whose MANIFEST or CURRENT is lost or damaged from the files that
//! remain (recovery path; runs with the DB closed, under its `LOCK`).
//!
//! The steps follow RocksDB's `Repairer`:
//! 1. Every `MANIFEST-*` is moved to `lost/` (a fresh one replaces them).
//! 2. Every table is read whole: its key range and sequence numbers become its file metadata,
//!    and its `rocksdb.column.family.id`/`name` properties say which column family it belongs
//!    to (a family the tables name is created). A table that cannot be read, or whose family
//!    id and name disagree with another's, is moved to `lost/`.
//! 3. A new MANIFEST lists every family with all its tables in level 0, `last_sequence` the
//!    largest sequence number seen, and CURRENT names it.
//! 4. The WALs are converted to tables: the DB is opened once (every WAL replayed, skipping
//!    corrupted records, then flushed into level-0 tables) and closed. A copy of each WAL is
//!    kept in `lost/` first (RocksDB moves the converted WALs there).
//!
//! Where solistore does more than RocksDB: when the old MANIFEST can still be read, its
//! column families are kept even if no table names them (their unflushed WAL data is then
//! recovered too), and each family keeps its log number, so that WAL records already in
//! tables are not replayed a second time.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::Db;
use crate::error::{Error, Result};
use crate::fs::filename::{self, FileType};
use crate::fs::FileSystem;
use crate::iter::InternalIterator;
use crate::key::comparator::InternalKeyComparator;
use crate::key::internal_key::{parse_internal_key, MAX_SEQUENCE_NUMBER};
use crate::key::{append_internal_key, ValueType};
use crate::options::{ColumnFamilyOptions, DbOptions, WalRecoveryMode};
use crate::sst::properties::UNKNOWN_COLUMN_FAMILY_ID;
use crate::sst::{Table, TableReaderOptions};
use crate::version::edit::{FileMetaData, VersionEdit};
use crate::version::set::{ColumnFamilyMeta, VersionSet};

/// The name of the directory damaged or replaced files are moved to.
const LOST_DIR: &str = "lost";

/// What a table says about itself.
struct ScannedTable {
    meta: FileMetaData,
    cf_id: u32,
    cf_name: String,
}

/// Repairs the DB at `name` (see the module comment). `cf_opts` serves every column family
/// (RocksDB's C API repairs with one options object too).
///
/// # Errors
/// The `LOCK` cannot be taken (a missing directory, a DB open elsewhere), or an I/O error
/// while moving files, writing the MANIFEST or converting the WALs.
pub(crate) fn repair(opts: &DbOptions, cf_opts: &ColumnFamilyOptions, name: &str) -> Result<()> {
    let fs = opts.fs();
    let path = PathBuf::from(name);
    let lock = fs.lock_file(&filename::lock_file(&path))?;
    let old = VersionSet::recover(fs.clone(), &path).ok();
    let names = fs.list_dir(&path)?;
    let lost = path.join(LOST_DIR);
    let archive = |n: &str| -> Result<()> {
        fs.create_dir_all(&lost)?;
        fs.rename(&path.join(n), &lost.join(n))
    };

    let mut max_number = 0u64;
    let mut tables = Vec::new();
    let mut wals = Vec::new();
    for n in &names {
        match filename::parse_file_name(n) {
            Some(FileType::Manifest(k)) => {
                max_number = max_number.max(k);
                archive(n)?;
            }
            Some(FileType::Table(k)) => {
                max_number = max_number.max(k);
                tables.push((k, n.as_str()));
            }
            Some(FileType::Wal(k)) => {
                max_number = max_number.max(k);
                wals.push(n.as_str());
            }
            Some(
                FileType::Options(k)
                | FileType::OptionsTemp(k)
                | FileType::Temp(k)
                | FileType::Blob(k),
            ) => max_number = max_number.max(k),
            _ => {}
        }
    }
    tables.sort_unstable();

    // The families: default, those the old MANIFEST names, then those the tables name.
    let mut families: BTreeMap<u32, ColumnFamilyMeta> = BTreeMap::new();
    let comparator = Some(cf_opts.comparator.name().to_string());
    let add_family =
        |families: &mut BTreeMap<u32, ColumnFamilyMeta>, id: u32, name: &str, log_number: u64| {
            families.entry(id).or_insert_with(|| ColumnFamilyMeta {
                id,
                name: name.to_string(),
                comparator: comparator.clone(),
                log_number,
                files: BTreeMap::new(),
            });
        };
    add_family(&mut families, 0, "default", 0);
    if let Some(vs) = &old {
        for m in vs.column_families.values() {
            add_family(&mut families, m.id, &m.name, m.log_number);
        }
    }
    let mut last_sequence = old.as_ref().map_or(0, |vs| vs.last_sequence);
    for (number, file) in tables {
        let scanned = match scan_table(fs.as_ref(), &path.join(file), number, cf_opts) {
            Ok(Some(t)) => t,
            Ok(None) | Err(_) => {
                archive(file)?;
                continue;
            }
        };
        add_family(&mut families, scanned.cf_id, &scanned.cf_name, 0);
        let Some(family) = families.get_mut(&scanned.cf_id) else {
            continue;
        };
        if family.name != scanned.cf_name {
            // RocksDB: "Column family inconsistency: SST file contains column family id
            // ..., but the name is ...": the file is set aside.
            archive(file)?;
            continue;
        }
        last_sequence = last_sequence.max(scanned.meta.largest_seqno);
        family.files.entry(0).or_default().push(scanned.meta);
    }

    let mut vs = VersionSet::new_empty(fs.clone(), &path);
    vs.max_column_family = families.keys().copied().max().unwrap_or(0);
    vs.column_families = families;
    vs.next_file_number = max_number + 1;
    vs.last_sequence = last_sequence;
    vs.db_id = old.as_ref().and_then(|o| o.db_id.clone());
    super::open::ensure_identity(&fs, &path)?;
    vs.write_snapshot_manifest(VersionEdit::default())?;
    let descs: Vec<(String, ColumnFamilyOptions)> = vs
        .column_families
        .values()
        .map(|m| (m.name.clone(), cf_opts.clone()))
        .collect();
    drop(vs);
    for n in &wals {
        fs.create_dir_all(&lost)?;
        let _ = fs.remove_file(&lost.join(n));
        fs.hard_link(&path.join(n), &lost.join(n))?;
    }
    fs.sync_dir(&path)?;
    drop(lock);

    // Convert the WALs: an open replays them (skipping what is damaged) and flushes what they
    // held into level-0 tables; the close leaves a DB any open accepts.
    let mut o = opts.clone();
    o.create_if_missing = false;
    o.error_if_exists = false;
    o.create_missing_column_families = false;
    o.avoid_flush_during_recovery = false;
    o.wal_recovery_mode = WalRecoveryMode::SkipAnyCorruptedRecords;
    let (db, handles) = Db::open_cf(&o, name, descs)?;
    drop(handles);
    db.close()
}

/// Reads table `number` whole. `Ok(None)` for a table holding nothing.
fn scan_table(
    fs: &dyn FileSystem,
    path: &Path,
    number: u64,
    cf_opts: &ColumnFamilyOptions,
) -> Result<Option<ScannedTable>> {
    let file_size = fs.file_size(path)?;
    let file = fs.new_random_access(path)?;
    let opts = TableReaderOptions {
        comparator: cf_opts.comparator.clone(),
        verify_checksums: true,
        file_number: number,
        fill_cache: false,
        ..TableReaderOptions::default()
    };
    let table = Arc::new(Table::open(file, file_size, opts)?);
    let icmp = InternalKeyComparator::new(cf_opts.comparator.clone());
    let mut smallest: Option<Vec<u8>> = None;
    let mut largest: Option<Vec<u8>> = None;
    let (mut smallest_seqno, mut largest_seqno) = (MAX_SEQUENCE_NUMBER, 0u64);
    let mut widen = |key: Vec<u8>, seq: u64| {
        if smallest
            .as_ref()
            .is_none_or(|s| icmp.compare(&key, s).is_lt())
        {
            smallest = Some(key.clone());
        }
        if largest
            .as_ref()
            .is_none_or(|l| icmp.compare(&key, l).is_gt())
        {
            largest = Some(key);
        }
        smallest_seqno = smallest_seqno.min(seq);
        largest_seqno = largest_seqno.max(seq);
    };
    let mut it = table.iter_with(false);
    it.seek_to_first();
    while it.valid() {
        let seq = parse_internal_key(it.key())?.sequence;
        widen(it.key().to_vec(), seq);
        it.next();
    }
    it.status()?;
    for t in table.range_tombstones() {
        let mut start = Vec::with_capacity(t.start.len() + 8);
        append_internal_key(&mut start, &t.start, t.seq, ValueType::RangeDeletion);
        widen(start, t.seq);
        let mut end = Vec::with_capacity(t.end.len() + 8);
        append_internal_key(
            &mut end,
            &t.end,
            MAX_SEQUENCE_NUMBER,
            ValueType::RangeDeletion,
        );
        widen(end, t.seq);
    }
    let (Some(smallest), Some(largest)) = (smallest, largest) else {
        return Ok(None);
    };
    let props = table.properties();
    let (cf_id, cf_name) = match u32::try_from(props.column_family_id) {
        Ok(id) if props.column_family_id != UNKNOWN_COLUMN_FAMILY_ID => {
            (id, props.column_family_name.clone())
        }
        _ => (0, "default".to_string()),
    };
    if cf_id == 0 && cf_name != "default" {
        return Err(Error::corruption(format!(
            "table {number} names column family 0 {cf_name}"
        )));
    }
    Ok(Some(ScannedTable {
        meta: FileMetaData {
            number,
            file_size,
            smallest,
            largest,
            smallest_seqno,
            largest_seqno,
            ..FileMetaData::default()
        },
        cf_id,
        cf_name,
    }))
}
