// SPDX-License-Identifier: Apache-2.0
//! The version set: the DB's persistent metadata (column families, their files and log
//! numbers, the file-number counter and the last sequence), kept in the MANIFEST.
//!
//! Path: recovery (`recover` replays `CURRENT` → `MANIFEST-N`) and metadata changes at run
//! time (`log_and_apply` appends one VersionEdit record and syncs it). Every open writes a
//! fresh MANIFEST holding a snapshot of the state (`write_snapshot_manifest`) and points
//! `CURRENT` at it through a synced temp file and a rename, as RocksDB does; the MANIFEST
//! then grows by column family changes, flushes and compactions until the next open, or
//! until it is larger than `max_manifest_file_size`: then the next edit goes into a new
//! MANIFEST that starts with a snapshot (RocksDB's `LogAndApply` roll-over).
//!
//! A snapshot MANIFEST whose writing or CURRENT switch failed may or may not be the one
//! CURRENT names now (the rename may have happened before the directory sync failed): the
//! next edit then starts a new MANIFEST again rather than going into either of them.
//!
//! A MANIFEST that CURRENT no longer names goes to `obsolete_manifests`; the DB deletes it
//! when no checkpoint is copying files (`DbInner::delete_obsolete_tables`), and open deletes
//! any strays.
//!
//! Lock discipline: the whole struct is guarded by `DbInner::versions` (a mutex); only the
//! holder reads or writes the MANIFEST.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::fs::{filename, FileSystem};
use crate::options::WalRecoveryMode;
use crate::version::edit::{FileMetaData, VersionEdit};
use crate::wal::reader::{LogReader, ReadOutcome};
use crate::wal::writer::LogWriter;

/// What the MANIFEST says about one column family.
#[derive(Debug, Clone, Default)]
pub struct ColumnFamilyMeta {
    pub id: u32,
    pub name: String,
    /// The comparator name recorded for it (None when the MANIFEST never named one).
    pub comparator: Option<String>,
    /// WALs below this number hold nothing this column family still needs.
    pub log_number: u64,
    /// Live table files per level.
    pub files: BTreeMap<u32, Vec<FileMetaData>>,
}

impl ColumnFamilyMeta {
    pub fn num_files(&self) -> usize {
        self.files.values().map(Vec::len).sum()
    }
}

/// The DB's persistent metadata and the MANIFEST writer.
pub struct VersionSet {
    fs: Arc<dyn FileSystem>,
    db_path: PathBuf,
    /// The open MANIFEST (None until a snapshot has been written, and in read-only mode).
    manifest: Option<LogWriter>,
    pub manifest_number: u64,
    pub next_file_number: u64,
    /// The last sequence number recorded in the MANIFEST (the live one is `DbInner`'s).
    pub last_sequence: u64,
    pub log_number: u64,
    pub prev_log_number: u64,
    pub min_log_number_to_keep: u64,
    pub max_column_family: u32,
    pub db_id: Option<String>,
    pub column_families: BTreeMap<u32, ColumnFamilyMeta>,
    /// Roll over to a new MANIFEST once the current one is larger than this.
    pub max_manifest_file_size: u64,
    /// MANIFESTs replaced by a newer one, not yet deleted.
    pub obsolete_manifests: Vec<u64>,
    /// MANIFESTs started by a roll-over since open.
    pub manifest_rolls: u64,
    /// The last snapshot MANIFEST failed: CURRENT may name it or the open one, so the next
    /// edit must start a new MANIFEST.
    roll_pending: bool,
}

impl std::fmt::Debug for VersionSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VersionSet")
            .field("manifest_number", &self.manifest_number)
            .field("next_file_number", &self.next_file_number)
            .field("last_sequence", &self.last_sequence)
            .field("column_families", &self.column_families.len())
            .finish()
    }
}

impl VersionSet {
    /// The state of a brand-new DB: only the default column family.
    pub fn new_empty(fs: Arc<dyn FileSystem>, db_path: &Path) -> Self {
        let mut cfs = BTreeMap::new();
        cfs.insert(
            0,
            ColumnFamilyMeta {
                id: 0,
                name: "default".into(),
                ..Default::default()
            },
        );
        VersionSet {
            fs,
            db_path: db_path.to_path_buf(),
            manifest: None,
            manifest_number: 0,
            next_file_number: 2,
            last_sequence: 0,
            log_number: 0,
            prev_log_number: 0,
            min_log_number_to_keep: 0,
            max_column_family: 0,
            db_id: None,
            column_families: cfs,
            max_manifest_file_size: u64::MAX,
            obsolete_manifests: Vec::new(),
            manifest_rolls: 0,
            roll_pending: false,
        }
    }

    /// Reads `CURRENT` and replays the MANIFEST it names.
    pub fn recover(fs: Arc<dyn FileSystem>, db_path: &Path) -> Result<Self> {
        let current_path = filename::current_file(db_path);
        let current = fs.read_all(&current_path)?;
        if current.is_empty() || current.last() != Some(&b'\n') {
            return Err(Error::corruption("CURRENT file does not end with newline"));
        }
        let manifest_number = filename::parse_current(&current)
            .ok_or_else(|| Error::corruption("CURRENT file corrupted"))?;
        let manifest_path = filename::manifest_file(db_path, manifest_number);
        let src = fs.new_sequential(&manifest_path)?;
        let mut vs = VersionSet::new_empty(fs.clone(), db_path);
        vs.manifest_number = manifest_number;
        let mut reader = LogReader::new(src, 0, WalRecoveryMode::TolerateCorruptedTailRecords);
        let mut record = Vec::new();
        let (mut have_log, mut have_next, mut have_last) = (false, false, false);
        // Edits inside an atomic group apply together once the group is complete.
        let mut group: Vec<VersionEdit> = Vec::new();
        loop {
            match reader.read_record(&mut record)? {
                ReadOutcome::Record => {}
                ReadOutcome::Eof => break,
                ReadOutcome::Stop(e) => return Err(e),
            }
            let edit = VersionEdit::decode(&record)?;
            have_log |= edit.log_number.is_some();
            have_next |= edit.next_file_number.is_some();
            have_last |= edit.last_sequence.is_some();
            if let Some(remaining) = edit.remaining_in_atomic_group {
                group.push(edit);
                if remaining == 0 {
                    for e in group.drain(..) {
                        vs.apply(&e)?;
                    }
                }
                continue;
            }
            vs.apply(&edit)?;
        }
        // An incomplete atomic group at the tail is discarded, as RocksDB does.
        if !(have_log && have_next && have_last) {
            let mut missing = Vec::new();
            if !have_log {
                missing.push("log_file_number");
            }
            if !have_next {
                missing.push("next_file_number");
            }
            if !have_last {
                missing.push("last_sequence");
            }
            return Err(Error::corruption(format!(
                "no {} entry in MANIFEST",
                missing.join(", ")
            )));
        }
        vs.next_file_number = vs.next_file_number.max(manifest_number + 1);
        Ok(vs)
    }

    /// Applies one edit to the in-memory state.
    fn apply(&mut self, edit: &VersionEdit) -> Result<()> {
        if let Some(id) = &edit.db_id {
            self.db_id = Some(id.clone());
        }
        if let Some(n) = edit.next_file_number {
            self.next_file_number = n;
        }
        if let Some(s) = edit.last_sequence {
            self.last_sequence = s;
        }
        if let Some(n) = edit.prev_log_number {
            self.prev_log_number = n;
        }
        if let Some(n) = edit.min_log_number_to_keep {
            self.min_log_number_to_keep = self.min_log_number_to_keep.max(n);
        }
        if let Some(m) = edit.max_column_family {
            self.max_column_family = self.max_column_family.max(m);
        }
        let cf = edit.column_family;
        if let Some(name) = &edit.column_family_add {
            if self.column_families.contains_key(&cf) {
                return Err(Error::corruption(format!(
                    "Manifest adding the same column family twice: {name}"
                )));
            }
            self.column_families.insert(
                cf,
                ColumnFamilyMeta {
                    id: cf,
                    name: name.clone(),
                    ..Default::default()
                },
            );
            self.max_column_family = self.max_column_family.max(cf);
        } else if edit.column_family_drop {
            if cf == 0 {
                return Err(Error::corruption(
                    "Manifest - dropping default column family",
                ));
            }
            if self.column_families.remove(&cf).is_none() {
                return Err(Error::corruption(
                    "Manifest - dropping non-existing column family",
                ));
            }
            return Ok(());
        }
        let meta = self.column_families.get_mut(&cf).ok_or_else(|| {
            Error::corruption(format!(
                "Manifest record referencing unknown column family {cf}"
            ))
        })?;
        if let Some(c) = &edit.comparator {
            meta.comparator = Some(c.clone());
        }
        if let Some(n) = edit.log_number {
            meta.log_number = meta.log_number.max(n);
            self.log_number = self.log_number.max(n);
        }
        for (level, number) in &edit.deleted_files {
            if let Some(files) = meta.files.get_mut(level) {
                files.retain(|f| f.number != *number);
            }
        }
        for (level, f) in &edit.new_files {
            meta.files.entry(*level).or_default().push(f.clone());
        }
        Ok(())
    }

    /// Hands out a new file number.
    pub fn new_file_number(&mut self) -> u64 {
        let n = self.next_file_number;
        self.next_file_number += 1;
        n
    }

    /// Writes a new MANIFEST holding the whole state plus `edit` and points CURRENT at it;
    /// the previous MANIFEST goes to `obsolete_manifests`. Used at open, when the MANIFEST
    /// grows too large, and by recovery from a background error.
    ///
    /// # Errors
    /// The write's error; `edit` is then not applied, and the next `log_and_apply` starts a
    /// new MANIFEST.
    pub fn write_snapshot_manifest(&mut self, edit: VersionEdit) -> Result<()> {
        let res = self.write_snapshot_manifest_once(edit);
        self.roll_pending = res.is_err();
        res
    }

    fn write_snapshot_manifest_once(&mut self, mut edit: VersionEdit) -> Result<()> {
        let number = self.new_file_number();
        let path = filename::manifest_file(&self.db_path, number);
        let file = self.fs.new_writable(&path)?;
        let mut writer = LogWriter::new(file, number, false);
        let mut buf = Vec::new();
        let mut write_edit = |w: &mut LogWriter, e: &VersionEdit| -> Result<()> {
            buf.clear();
            e.encode(&mut buf);
            w.add_record(&buf)
        };
        if let Some(id) = &self.db_id {
            let e = VersionEdit {
                db_id: Some(id.clone()),
                ..Default::default()
            };
            write_edit(&mut writer, &e)?;
        }
        for meta in self.column_families.values() {
            let a = VersionEdit {
                column_family: meta.id,
                column_family_add: (meta.id != 0).then(|| meta.name.clone()),
                comparator: meta.comparator.clone(),
                ..Default::default()
            };
            if a != VersionEdit::default() {
                write_edit(&mut writer, &a)?;
            }
            let mut b = VersionEdit {
                column_family: meta.id,
                log_number: Some(meta.log_number),
                last_sequence: Some(self.last_sequence),
                ..Default::default()
            };
            if meta.id == 0 && self.min_log_number_to_keep > 0 {
                b.min_log_number_to_keep = Some(self.min_log_number_to_keep);
            }
            for (level, files) in &meta.files {
                for f in files {
                    b.new_files.push((*level, f.clone()));
                }
            }
            write_edit(&mut writer, &b)?;
        }
        edit.next_file_number = Some(self.next_file_number);
        edit.max_column_family = Some(self.max_column_family);
        if edit.last_sequence.is_none() {
            edit.last_sequence = Some(self.last_sequence);
        }
        write_edit(&mut writer, &edit)?;
        writer.sync()?;
        self.set_current(number)?;
        let old = self.manifest_number;
        self.manifest = Some(writer);
        self.manifest_number = number;
        self.apply(&edit)?;
        if old != 0 && old != number {
            // Obsolete now that CURRENT names the new one (the rename is synced).
            self.obsolete_manifests.push(old);
        }
        Ok(())
    }

    /// Points CURRENT at `MANIFEST-number` atomically: temp file, sync, rename, sync dir.
    fn set_current(&self, number: u64) -> Result<()> {
        let tmp = filename::temp_file(&self.db_path, number);
        let mut f = self.fs.new_writable(&tmp)?;
        let content = format!("{}\n", filename::manifest_name(number));
        let res = f.append(content.as_bytes()).and_then(|_| f.sync());
        drop(f);
        if let Err(e) =
            res.and_then(|_| self.fs.rename(&tmp, &filename::current_file(&self.db_path)))
        {
            let _ = self.fs.remove_file(&tmp);
            return Err(e);
        }
        self.fs.sync_dir(&self.db_path)
    }

    /// Appends `edit` to the MANIFEST, syncs it, and applies it. When the MANIFEST is
    /// larger than `max_manifest_file_size`, or the last snapshot MANIFEST failed, the edit
    /// starts a new one instead.
    pub fn log_and_apply(&mut self, mut edit: VersionEdit) -> Result<()> {
        // An edit that could not be applied must never reach the file: every later open
        // would fail on it.
        if edit.column_family_add.is_none()
            && !self.column_families.contains_key(&edit.column_family)
        {
            return Err(Error::new(
                crate::error::Code::ColumnFamilyDropped,
                format!(
                    "column family {} is not in the MANIFEST",
                    edit.column_family
                ),
            ));
        }
        if self.manifest.is_some()
            && (self.roll_pending || self.manifest_file_size() > self.max_manifest_file_size)
        {
            self.write_snapshot_manifest(edit)?;
            self.manifest_rolls += 1;
            return Ok(());
        }
        edit.next_file_number = Some(self.next_file_number);
        // Every edit records the last sequence (as RocksDB's LogAndApply does): once a flush
        // has made WALs obsolete, the MANIFEST is the only place it survives.
        if edit.last_sequence.is_none() {
            edit.last_sequence = Some(self.last_sequence);
        }
        let writer = self
            .manifest
            .as_mut()
            .ok_or_else(|| Error::not_supported("MANIFEST is not writable"))?;
        let mut buf = Vec::new();
        edit.encode(&mut buf);
        writer.add_record(&buf)?;
        writer.sync()?;
        self.apply(&edit)
    }

    pub fn manifest_file_size(&self) -> u64 {
        self.manifest
            .as_ref()
            .map(LogWriter::file_size)
            .unwrap_or(0)
    }

    /// Column family id by name.
    pub fn find_column_family(&self, name: &str) -> Option<u32> {
        self.column_families
            .values()
            .find(|m| m.name == name)
            .map(|m| m.id)
    }
}
