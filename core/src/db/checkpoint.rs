// SPDX-License-Identifier: Apache-2.0
//! Checkpoints: an openable copy of the DB in another directory, made while the DB stays
//! open and writable (RocksDB's `Checkpoint::CreateCheckpoint`).
//!
//! Tables and OPTIONS files are immutable, so they are hard-linked (copied when linking
//! fails, e.g. across file systems); the MANIFEST is copied up to its size at the moment the
//! file set was frozen, and CURRENT is written fresh. The WALs that the frozen MANIFEST still
//! needs are copied up to their size then; empty ones are left out, and so is a current WAL
//! that holds only the predecessor record its switch wrote (`wal::predecessor`): after the
//! flush of `log_size_for_flush == 0`, or of WALs larger than it, the current WAL usually
//! holds no write and the checkpoint lives in its tables, as RocksDB's does. IDENTITY is not
//! copied: a checkpoint is another DB, and gets an identity of its own when first opened, as
//! RocksDB's does. Everything is built in `<dir>.tmp`, synced (files, then the directory) and
//! renamed into place, and the parent is synced, so a crash never leaves a half checkpoint
//! under the final name.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::Db;
use crate::error::{Error, Result};
use crate::fs::filename::{self, FileType};

impl Db {
    /// Creates a checkpoint in `dir`, which must not exist.
    ///
    /// # Errors
    /// `Invalid argument: Directory exists` when `dir` exists; I/O errors.
    pub fn create_checkpoint(&self, dir: &str, log_size_for_flush: u64) -> Result<()> {
        let inner = &self.inner;
        inner.check_open()?;
        let fs = inner.fs.clone();
        let target = PathBuf::from(dir);
        if fs.exists(&target) {
            return Err(Error::invalid_argument("Directory exists"));
        }
        let wal_bytes: u64 = self.wal_files()?.iter().map(|(_, size)| *size).sum();
        if !inner.read_only && (log_size_for_flush == 0 || wal_bytes >= log_size_for_flush) {
            self.flush_all(true)?;
        }
        // No WAL or table may be deleted while the file set is being copied (RocksDB's
        // DisableFileDeletions): a concurrent flush would otherwise delete a WAL that the
        // copied MANIFEST still needs. Raising the count waits out a deletion in progress.
        *inner.deletions_disabled.lock() += 1;
        let result = self.copy_checkpoint(dir, &target);
        *inner.deletions_disabled.lock() -= 1;
        inner.delete_obsolete_wals();
        inner.delete_obsolete_tables();
        result
    }

    fn copy_checkpoint(&self, dir: &str, target: &Path) -> Result<()> {
        let inner = &self.inner;
        let fs = inner.fs.clone();
        // Freeze the file set: the super versions keep every table named here alive (not
        // deleted) until the copy is done; the MANIFEST size is read under the same lock.
        let (views, manifest_number, manifest_size, oldest_wal_needed) = {
            let vs = inner.versions.lock();
            let views: Vec<_> = inner.cfs.read().iter().map(|c| c.super_version()).collect();
            // Recovery from this MANIFEST replays no WAL below every family's log number.
            let oldest = vs
                .column_families
                .values()
                .map(|c| c.log_number)
                .min()
                .unwrap_or(0);
            (views, vs.manifest_number, vs.manifest_file_size(), oldest)
        };
        inner.flush_wal(false)?;
        let wals = self.wal_files()?;
        let tmp = PathBuf::from(format!("{dir}.tmp"));
        if fs.exists(&tmp) {
            for n in fs.list_dir(&tmp)? {
                fs.remove_file(&tmp.join(n))?;
            }
            fs.remove_dir(&tmp)?;
        }
        fs.create_dir_all(&tmp)?;
        let copy = |from: &Path, to: &Path, limit: Option<u64>| -> Result<()> {
            let mut bytes = fs.read_all(from)?;
            if let Some(l) = limit {
                bytes.truncate(usize::try_from(l).unwrap_or(usize::MAX));
            }
            let mut f = fs.new_writable(to)?;
            f.append(&bytes)?;
            f.sync()
        };
        for sv in &views {
            for (_, f) in sv.version.all_files() {
                let name = filename::table_file(Path::new(""), f.number);
                let (src, dst) = (inner.path.join(&name), tmp.join(&name));
                if fs.hard_link(&src, &dst).is_err() {
                    copy(&src, &dst, None)?;
                }
            }
        }
        let manifest = filename::manifest_name(manifest_number);
        copy(
            &inner.path.join(&manifest),
            &tmp.join(&manifest),
            Some(manifest_size),
        )?;
        for n in fs.list_dir(&inner.path)? {
            if let Some(FileType::Options(_)) = filename::parse_file_name(&n) {
                let (src, dst) = (inner.path.join(&n), tmp.join(&n));
                if fs.hard_link(&src, &dst).is_err() {
                    copy(&src, &dst, None)?;
                }
            }
        }
        for (number, size) in &wals {
            if *size == 0 || *number < oldest_wal_needed {
                continue;
            }
            let name = filename::wal_file(Path::new(""), *number);
            copy(&inner.path.join(&name), &tmp.join(&name), Some(*size))?;
        }
        let mut current = fs.new_writable(&filename::current_file(&tmp))?;
        current.append(format!("{manifest}\n").as_bytes())?;
        current.sync()?;
        drop(current);
        fs.sync_dir(&tmp)?;
        fs.rename(&tmp, target)?;
        drop(views);
        if let Some(parent) = target.parent().filter(|p| !p.as_os_str().is_empty()) {
            fs.sync_dir(parent)?;
        }
        Ok(())
    }

    /// The live WAL files and their sizes. A WAL that a flush deletes between the listing
    /// and its size is left out: before deletions are disabled, that race is expected (it
    /// failed checkpoints taken beside a busy writer with `No such file or directory`).
    ///
    /// A WAL still open for writing (the current one, or one switched away from and not yet
    /// synced) counts its appended bytes, not the file's length: a synced WAL's file runs
    /// on into the zeros written ahead of its appends (`LogWriter::set_prepare_ahead`), and
    /// the appended size, read under the WAL lock, ends at a whole record. The current WAL
    /// counts as empty while it holds no record of its own (see `LogWriter::has_own_records`).
    fn wal_files(&self) -> Result<Vec<(u64, u64)>> {
        let inner: &Arc<super::DbInner> = &self.inner;
        let mut out = Vec::new();
        for n in inner.fs.list_dir(&inner.path)? {
            if let Some(FileType::Wal(k)) = filename::parse_file_name(&n) {
                let path = inner.path.join(&n);
                match inner.fs.file_size(&path) {
                    Ok(size) => out.push((k, size)),
                    Err(_) if !inner.fs.exists(&path) => {}
                    Err(e) => return Err(e),
                }
            }
        }
        {
            let mut cap = |number: u64, appended: u64| {
                if let Some(entry) = out.iter_mut().find(|(k, _)| *k == number) {
                    entry.1 = entry.1.min(appended);
                }
            };
            let wal = inner.write.wal.lock();
            if let Some(w) = wal.as_ref() {
                // A WAL that holds only the predecessor record its switch queued (the usual
                // state right after the flush) holds no write: copying it would cost a
                // file, a sync and the parent's sync for nothing the checkpoint needs.
                let appended = if w.has_own_records() {
                    w.appended_size()
                } else {
                    0
                };
                cap(w.log_number(), appended);
            }
            let closed = inner.write.closed_wals.lock();
            for w in closed.iter() {
                cap(w.number, w.appended);
            }
        }
        out.sort_unstable();
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use crate::db::Db;
    use crate::options::{ColumnFamilyOptions, DbOptions, ReadOptions, WriteOptions};

    #[test]
    fn checkpoint_opens_as_a_db_while_the_source_stays_writable() {
        let dir = tempfile::tempdir().expect("tempdir");
        let src = dir.path().join("src").to_string_lossy().into_owned();
        let opts = DbOptions {
            create_if_missing: true,
            ..Default::default()
        };
        let cf = ColumnFamilyOptions {
            write_buffer_size: 4096,
            ..Default::default()
        };
        let db = Db::open(&opts, cf.clone(), &src).expect("open");
        let wo = WriteOptions::default();
        for i in 0..500u32 {
            db.put(&wo, &db.default_cf(), format!("k{i:04}").as_bytes(), b"v")
                .expect("put");
        }
        for (name, log_size) in [("flushed", 0u64), ("with-wal", u64::MAX)] {
            let cp = dir.path().join(name).to_string_lossy().into_owned();
            db.put(&wo, &db.default_cf(), name.as_bytes(), b"x")
                .expect("put");
            db.create_checkpoint(&cp, log_size).expect("checkpoint");
            let err = db.create_checkpoint(&cp, log_size).expect_err("exists");
            assert_eq!(err.to_string(), "Invalid argument: Directory exists");
            db.put(&wo, &db.default_cf(), b"after", b"y")
                .expect("source still writable");
            let copy = Db::open(&DbOptions::default(), cf.clone(), &cp).expect("open checkpoint");
            let ro = ReadOptions::default();
            assert_eq!(
                copy.get(&ro, &copy.default_cf(), b"k0499").expect("get"),
                Some(b"v".to_vec())
            );
            assert_eq!(
                copy.get(&ro, &copy.default_cf(), name.as_bytes())
                    .expect("get"),
                Some(b"x".to_vec())
            );
            assert_eq!(
                copy.get(&ro, &copy.default_cf(), b"after").expect("get"),
                None
            );
            copy.close().expect("close");
            db.delete(&wo, &db.default_cf(), b"after").expect("delete");
        }
        db.close().expect("close");
    }

    #[test]
    fn a_flushed_checkpoint_links_options_copies_no_wal_and_gets_its_own_identity() {
        use std::os::unix::fs::MetadataExt;
        let (dir, src, db) = crate::db::test_support::fresh_db();
        db.put(&WriteOptions::default(), &db.default_cf(), b"k", b"v")
            .expect("put");
        let cp = dir.path().join("cp");
        db.create_checkpoint(&cp.to_string_lossy(), 0)
            .expect("checkpoint");
        let names: Vec<String> = std::fs::read_dir(&cp)
            .expect("read_dir")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        assert!(!names.iter().any(|n| n == "IDENTITY"), "{names:?}");
        for n in &names {
            let meta = std::fs::metadata(cp.join(n)).expect("stat");
            // After the flush the current WAL holds nothing but the predecessor record of
            // its switch: no write, so nothing to copy.
            assert!(
                !n.ends_with(".log"),
                "a WAL holding no write was copied: {n}"
            );
            if n.starts_with("OPTIONS-") {
                let orig = std::fs::metadata(std::path::Path::new(&src).join(n)).expect("stat");
                assert_eq!(meta.ino(), orig.ino(), "OPTIONS is hard-linked");
            }
        }
        let copy = Db::open(
            &DbOptions::default(),
            ColumnFamilyOptions::default(),
            &cp.to_string_lossy(),
        )
        .expect("open checkpoint");
        assert_eq!(
            copy.get(&ReadOptions::default(), &copy.default_cf(), b"k")
                .expect("get"),
            Some(b"v".to_vec())
        );
        let (a, b) = (db.identity().expect("id"), copy.identity().expect("id"));
        assert!(!b.is_empty());
        assert_ne!(a, b, "the checkpoint is another DB");
        copy.close().expect("close");
        db.close().expect("close");
    }
}
