// SPDX-License-Identifier: Apache-2.0
//! Background errors (RocksDB's `ErrorHandler`, with RocksDB 7.8.3's semantics for the
//! default `paranoid_checks = true`): how bad a failed WAL write, memtable switch, flush,
//! compaction or MANIFEST write is, what it stops, and how the DB gets going again.
//!
//! Severity, from `db/error_handler.cc`'s maps:
//!
//! | what failed                     | ENOSPC | other I/O error, corruption |
//! |---------------------------------|--------|-----------------------------|
//! | WAL append or sync              | hard   | fatal                       |
//! | flush (table or MANIFEST write) | hard   | fatal                       |
//! | MANIFEST write (family changes) | hard   | fatal                       |
//! | compaction                      | soft   | fatal                       |
//! | memtable switch (new WAL)       | fatal  | fatal                       |
//!
//! - **Soft**: writes go on. The failed compaction is counted; the next one runs when the
//!   background thread next looks (after RocksDB's one-second pause behind a failed job).
//! - **Hard**: writes fail with the stored error (`DbInner::bg_error`), reads go on. The DB
//!   recovers by itself, as RocksDB's `SstFileManager` does for a full disk: one attempt at
//!   once, then one every `DbOptions::bg_error_recovery_interval` (5 s) until one succeeds
//!   or the DB closes (None: no automatic recovery). [`DbInner::resume`] (RocksDB's `DB::Resume`; the C API has no
//!   `rocksdb_resume`) runs an attempt now. An attempt writes a new MANIFEST (the old one may
//!   end in a torn record), leaves the WAL (its tail may be torn, and the failed write may
//!   or may not be in it) for a new one, flushes every memtable, and raises every family's
//!   log number past the old WAL, so that nothing ever replays it; only then are writes
//!   let through again. Nothing acknowledged is lost: it is in the memtables and the old
//!   WALs until the flush has made it durable. An attempt that fails with ENOSPC leaves the
//!   error hard; any other failure makes it fatal.
//! - **Fatal**: writes fail with the stored error until the DB is closed; reopening replays
//!   the WALs (the failed write may or may not be there).
//!
//! A more severe error replaces a less severe one; only a successful recovery clears the
//! stored error. `rocksdb.background-errors` counts failed flushes and compactions.
//!
//! Differences from RocksDB: `paranoid_checks = false` does not make background errors
//! ignored (RocksDB 7.8.3 then keeps writing after a failed flush); the full-disk check is an
//! attempt at the work itself, not a free-space query.
//!
//! Lock order: `DbInner::bg_error`, then `ErrorHandler::severity`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use std::thread::JoinHandle;
use std::time::Duration;

use parking_lot::{Condvar, Mutex};

use super::column_family::ColumnFamilyData;
use super::DbInner;
use crate::error::{Error, Result};
use crate::version::edit::VersionEdit;

/// What failed (RocksDB's `BackgroundErrorReason`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reason {
    WalWrite,
    MemTable,
    Flush,
    Compaction,
    ManifestWrite,
    /// Anything else that leaves the state unknown (a panic in the write path).
    Other,
}

/// How bad a stored error is (RocksDB's `Status::Severity`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Severity {
    None,
    Soft,
    Hard,
    Fatal,
}

/// RocksDB 7.8.3's severity of `err` from `reason` (see the module table).
pub(crate) fn classify(err: &Error, reason: Reason) -> Severity {
    if !err.is_no_space() {
        return Severity::Fatal;
    }
    match reason {
        Reason::Compaction => Severity::Soft,
        Reason::WalWrite | Reason::Flush | Reason::ManifestWrite => Severity::Hard,
        Reason::MemTable | Reason::Other => Severity::Fatal,
    }
}

/// The retry loop's wake-up: set to stop at close.
#[derive(Default)]
struct Wake {
    stop: Mutex<bool>,
    cv: Condvar,
}

/// The error state next to `DbInner::bg_error`, and the automatic recovery.
pub(crate) struct ErrorHandler {
    db: Weak<DbInner>,
    /// The severity of `DbInner::bg_error` (`None` when there is none).
    severity: Mutex<Severity>,
    /// Failed flushes and compactions (`rocksdb.background-errors`).
    failed_jobs: AtomicU64,
    /// One recovery attempt at a time.
    attempt: Mutex<()>,
    retry: Mutex<Option<JoinHandle<()>>>,
    wake: Arc<Wake>,
    /// None: no automatic recovery.
    interval: Option<Duration>,
}

impl ErrorHandler {
    pub(crate) fn new(db: Weak<DbInner>, interval: Option<Duration>) -> Self {
        ErrorHandler {
            db,
            severity: Mutex::new(Severity::None),
            failed_jobs: AtomicU64::new(0),
            attempt: Mutex::new(()),
            retry: Mutex::new(None),
            wake: Arc::default(),
            interval,
        }
    }

    /// Failed flushes and compactions so far.
    pub(crate) fn failed_jobs(&self) -> u64 {
        self.failed_jobs.load(Ordering::Relaxed)
    }

    pub(crate) fn count_failed_job(&self) {
        self.failed_jobs.fetch_add(1, Ordering::Relaxed);
    }

    /// Starts the retry loop unless it runs already.
    fn start_retries(&self) {
        let Some(interval) = self.interval else {
            return;
        };
        let mut retry = self.retry.lock();
        if retry.as_ref().is_some_and(|h| !h.is_finished()) || *self.wake.stop.lock() {
            return;
        }
        let weak = self.db.clone();
        let wake = self.wake.clone();
        let spawned = std::thread::Builder::new()
            .name("solistore-recovery".into())
            .spawn(move || retry_loop(&weak, &wake, interval));
        if let Ok(h) = spawned {
            *retry = Some(h);
        }
    }

    /// Stops the retry loop and waits for it (at close).
    pub(crate) fn stop(&self) {
        *self.wake.stop.lock() = true;
        self.wake.cv.notify_all();
        let handle = self.retry.lock().take();
        if let Some(h) = handle {
            if h.thread().id() != std::thread::current().id() {
                let _ = h.join();
            }
        }
    }

    /// Tells the retry loop to stop, without waiting (from `DbInner`'s drop).
    pub(crate) fn stop_without_join(&self) {
        *self.wake.stop.lock() = true;
        self.wake.cv.notify_all();
    }
}

/// Attempts recovery at once, then every `interval`, until it succeeds, the error becomes
/// fatal, or the DB closes. Holds the DB only during an attempt.
fn retry_loop(weak: &Weak<DbInner>, wake: &Wake, interval: Duration) {
    loop {
        {
            let Some(db) = weak.upgrade() else { return };
            if db.closed.load(Ordering::Acquire) {
                return;
            }
            let _ = db.resume();
            // Also after a success: a new hard error may have arrived meanwhile.
            if *db.error_handler.severity.lock() != Severity::Hard {
                return;
            }
        }
        let mut stop = wake.stop.lock();
        if *stop {
            return;
        }
        wake.cv.wait_for(&mut stop, interval);
        if *stop {
            return;
        }
    }
}

impl DbInner {
    /// Records that `reason` failed with `err`: stores it as the background error when it
    /// stops writes (see the module header), starts recovery when it is recoverable, and
    /// returns the stored error (the one later writes fail with).
    pub(crate) fn set_bg_error(&self, err: Error, reason: Reason) -> Error {
        let severity = classify(&err, reason);
        if severity == Severity::Soft {
            // Counted by the caller; writes go on and the next compaction retries.
            return err;
        }
        let mut bg = self.bg_error.lock();
        let mut current = self.error_handler.severity.lock();
        if bg.is_none() || severity > *current {
            *bg = Some(err.clone());
            *current = severity;
        }
        let stored = bg.clone().unwrap_or(err);
        let recoverable = *current == Severity::Hard;
        drop(current);
        drop(bg);
        if recoverable {
            self.error_handler.start_retries();
        }
        stored
    }

    /// Stores `err` as a fatal background error (the state is unknown) and returns the
    /// stored error.
    pub(crate) fn poison(&self, err: Error) -> Error {
        self.set_bg_error(err, Reason::Other)
    }

    /// Classifies a failed compaction: a failure to append to or sync the MANIFEST is a
    /// MANIFEST write error (the file may now end in a torn record), anything else a
    /// compaction error.
    pub(crate) fn compaction_failed(&self, err: Error) -> Error {
        self.error_handler.count_failed_job();
        let reason = if err.message().contains("/MANIFEST-") {
            Reason::ManifestWrite
        } else {
            Reason::Compaction
        };
        self.set_bg_error(err, reason)
    }

    /// A failed flush.
    pub(crate) fn flush_failed(&self, err: Error) -> Error {
        self.error_handler.count_failed_job();
        self.set_bg_error(err, Reason::Flush)
    }

    /// RocksDB's `DB::Resume`: recovers from a hard background error now (see the module
    /// header); without one (none, or only soft ones) this does nothing.
    ///
    /// # Errors
    /// The stored error when it is fatal; the attempt's error when recovery failed.
    pub(crate) fn resume(self: &Arc<Self>) -> Result<()> {
        let _one = self.error_handler.attempt.lock();
        let Some(err) = self.bg_error.lock().clone() else {
            return Ok(());
        };
        if *self.error_handler.severity.lock() == Severity::Fatal {
            return Err(err);
        }
        self.check_open()?;
        if let Err(e) = self.recover_from_hard_error() {
            if e.is_no_space() {
                return Err(e);
            }
            return Err(self.set_bg_error(e, Reason::Other));
        }
        let mut bg = self.bg_error.lock();
        let mut severity = self.error_handler.severity.lock();
        if *severity != Severity::Hard {
            // A worse error arrived meanwhile.
            return Err(bg.clone().unwrap_or(err));
        }
        *bg = None;
        *severity = Severity::None;
        drop(severity);
        drop(bg);
        self.background.schedule_compaction();
        Ok(())
    }

    fn recover_from_hard_error(self: &Arc<Self>) -> Result<()> {
        {
            let mut vs = self.versions.lock();
            self.sync_last_sequence(&mut vs);
            vs.write_snapshot_manifest(VersionEdit::default())?;
        }
        let worker = self.clone();
        self.run_exclusive(Box::new(move || worker.abandon_wal()))?;
        let new_wal = self.wal_number.load(Ordering::Acquire);
        let cfds: Vec<Arc<ColumnFamilyData>> = self.cfs.read().iter().cloned().collect();
        for cfd in &cfds {
            self.flush_column_family(cfd)?;
        }
        {
            let mut vs = self.versions.lock();
            for cfd in &cfds {
                let behind = vs
                    .column_families
                    .get(&cfd.id)
                    .is_some_and(|m| m.log_number < new_wal);
                if behind {
                    let edit = VersionEdit {
                        column_family: cfd.id,
                        log_number: Some(new_wal),
                        ..Default::default()
                    };
                    self.sync_last_sequence(&mut vs);
                    vs.log_and_apply(edit)?;
                }
            }
        }
        self.delete_obsolete_wals();
        Ok(())
    }

    /// Starts a new WAL without touching the current one (which may have failed), and moves
    /// every family's memtable to its immutable list. Runs in leader context.
    ///
    /// With several families, the WALs left behind are synced first: the flushes that
    /// follow install one family's table at a time, and a power cut between two of them
    /// must not keep one family's half of a batch (in its table) and lose the other's (in
    /// an unsynced WAL). A WAL that cannot be synced fails the recovery and changes nothing.
    fn abandon_wal(&self) -> Result<()> {
        if self.has_several_families() {
            if let Some(current) = self.write.wal.lock().as_mut() {
                current.sync_appended()?;
            }
            self.sync_closed_wals()?;
        }
        let mut vs = self.versions.lock();
        let mut wal = self.write.wal.lock();
        let log = self.new_wal(&mut vs)?;
        let number = log.log_number();
        // Whatever the old WALs hold is in the memtables, and flushed next.
        *wal = Some(log);
        self.write.closed_wals.lock().clear();
        self.wal_number.store(number, Ordering::Release);
        drop(wal);
        for cfd in self.cfs.read().iter() {
            let sv = cfd.super_version();
            if !sv.mem.is_empty() {
                self.retire_memtable(cfd, &sv, number);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_space() -> Error {
        Error::from_io(
            "While appending to file",
            std::path::Path::new("/d/000009.sst"),
            &std::io::Error::from_raw_os_error(libc::ENOSPC),
        )
    }

    #[test]
    fn severities_follow_rocksdb_7_8_3() {
        let eio = Error::from_io(
            "While fdatasync",
            std::path::Path::new("/d/000003.log"),
            &std::io::Error::from_raw_os_error(libc::EIO),
        );
        assert_eq!(classify(&no_space(), Reason::WalWrite), Severity::Hard);
        assert_eq!(classify(&no_space(), Reason::Flush), Severity::Hard);
        assert_eq!(classify(&no_space(), Reason::ManifestWrite), Severity::Hard);
        assert_eq!(classify(&no_space(), Reason::Compaction), Severity::Soft);
        assert_eq!(classify(&no_space(), Reason::MemTable), Severity::Fatal);
        for reason in [Reason::WalWrite, Reason::Flush, Reason::Compaction] {
            assert_eq!(classify(&eio, reason), Severity::Fatal);
            assert_eq!(
                classify(&Error::corruption("bad block"), reason),
                Severity::Fatal
            );
        }
    }
}
