// SPDX-License-Identifier: Apache-2.0
//! Checkpoints: an openable copy of the DB in another directory, made while the DB stays
//! open and writable (RocksDB's `Checkpoint::CreateCheckpoint`).
//!
//! Tables are immutable, so they are hard-linked (copied when linking fails, e.g. across
//! file systems); the MANIFEST is copied up to its size at the moment the file set was
//! frozen, the OPTIONS file is copied, and CURRENT is written fresh. WALs are copied too
//! unless the memtables were flushed first (`log_size_for_flush == 0`, or the WALs are larger
//! than it), in which case the checkpoint is self-contained in its tables. Everything is
//! built in `<dir>.tmp` and renamed into place, so a crash never leaves a half checkpoint
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
        let (views, manifest_number, manifest_size) = {
            let vs = inner.versions.lock();
            let views: Vec<_> = inner.cfs.read().iter().map(|c| c.super_version()).collect();
            (views, vs.manifest_number, vs.manifest_file_size())
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
                copy(&inner.path.join(&n), &tmp.join(&n), None)?;
            }
        }
        for (number, size) in &wals {
            let name = filename::wal_file(Path::new(""), *number);
            copy(&inner.path.join(&name), &tmp.join(&name), Some(*size))?;
        }
        let identity = filename::identity_file(&inner.path);
        if fs.exists(&identity) {
            copy(&identity, &filename::identity_file(&tmp), None)?;
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

    /// The live WAL files and their sizes.
    fn wal_files(&self) -> Result<Vec<(u64, u64)>> {
        let inner: &Arc<super::DbInner> = &self.inner;
        let mut out = Vec::new();
        for n in inner.fs.list_dir(&inner.path)? {
            if let Some(FileType::Wal(k)) = filename::parse_file_name(&n) {
                out.push((k, inner.fs.file_size(&inner.path.join(&n))?));
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
}
