// SPDX-License-Identifier: Apache-2.0
//! Background work: one thread per DB runs queued flushes (and compactions, once picked),
//! and writers that must stall wait here for that work to make room.
//!
//! A failed flush or compaction goes to the error handler (`error_handler.rs`), which decides
//! whether writes stop and how the DB recovers; nothing acknowledged is lost (the data is
//! still in the WAL and the immutable memtables). After a failed job that left writes going
//! (a compaction on a full disk) the thread pauses for a second, as RocksDB's does, so that
//! a lasting problem does not spin it.
//!
//! The thread holds only a `Weak` reference to the DB (and a strong one only while a job
//! runs), so dropping the last handle ends it.

use std::collections::VecDeque;
use std::sync::{Arc, Weak};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};

use super::column_family::ColumnFamilyData;
use super::DbInner;

/// How long the thread rests after a failed job (RocksDB's `BackgroundCallFlush` and
/// `BackgroundCallCompaction` sleep one second).
const FAILED_JOB_PAUSE: Duration = Duration::from_secs(1);

#[derive(Default)]
struct State {
    flushes: VecDeque<Arc<ColumnFamilyData>>,
    compaction_requested: bool,
    running: bool,
    shutting_down: bool,
    /// Bumped after every finished job, so that stalled writers can wait for progress.
    epoch: u64,
}

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    /// Signals new work to the thread, and finished work to waiters.
    cv: Condvar,
}

/// The background scheduler of one DB.
#[derive(Default)]
pub(crate) struct Background {
    shared: Arc<Shared>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl Background {
    /// Starts the worker thread for `db`.
    pub(crate) fn start(db: &Arc<DbInner>) {
        let weak: Weak<DbInner> = Arc::downgrade(db);
        let shared = db.background.shared.clone();
        let handle = std::thread::Builder::new()
            .name("solistore-bg".into())
            .spawn(move || worker(weak, shared));
        if let Ok(h) = handle {
            *db.background.thread.lock() = Some(h);
        }
    }

    pub(crate) fn schedule_flush(&self, cfd: Arc<ColumnFamilyData>) {
        let mut st = self.shared.state.lock();
        if !st.flushes.iter().any(|c| Arc::ptr_eq(c, &cfd)) {
            st.flushes.push_back(cfd);
        }
        self.shared.cv.notify_all();
    }

    pub(crate) fn schedule_compaction(&self) {
        self.shared.state.lock().compaction_requested = true;
        self.shared.cv.notify_all();
    }

    /// The current progress counter; pass it to `wait_for_progress`.
    pub(crate) fn epoch(&self) -> u64 {
        self.shared.state.lock().epoch
    }

    /// Blocks until a job finishes after `epoch` was read, or the scheduler idles or stops.
    pub(crate) fn wait_for_progress(&self, epoch: u64) {
        let mut st = self.shared.state.lock();
        while st.epoch == epoch
            && !st.shutting_down
            && (st.running || !st.flushes.is_empty() || st.compaction_requested)
        {
            self.shared.cv.wait(&mut st);
        }
    }

    /// Waits until no flush is queued or running.
    pub(crate) fn wait_for_flushes(&self) {
        let mut st = self.shared.state.lock();
        while !st.shutting_down && (st.running || !st.flushes.is_empty()) {
            self.shared.cv.wait(&mut st);
        }
    }

    /// Tells the thread to stop, without waiting (from `DbInner`'s drop, possibly on the
    /// thread itself).
    pub(crate) fn stop_without_join(&self) {
        self.shared.state.lock().shutting_down = true;
        self.shared.cv.notify_all();
    }

    /// Stops the thread after its current job and joins it.
    pub(crate) fn shutdown(&self) {
        self.shared.state.lock().shutting_down = true;
        self.shared.cv.notify_all();
        let handle = self.thread.lock().take();
        if let Some(h) = handle {
            if h.thread().id() != std::thread::current().id() {
                let _ = h.join();
            }
        }
    }
}

fn worker(weak: Weak<DbInner>, shared: Arc<Shared>) {
    loop {
        let job = {
            let mut st = shared.state.lock();
            loop {
                if st.shutting_down {
                    return;
                }
                if let Some(cfd) = st.flushes.pop_front() {
                    st.running = true;
                    break Some(cfd);
                }
                if st.compaction_requested {
                    st.compaction_requested = false;
                    st.running = true;
                    break None;
                }
                shared.cv.wait(&mut st);
            }
        };
        let pause = match weak.upgrade() {
            None => return,
            Some(db) => {
                let res = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match &job {
                    Some(cfd) => db.flush_column_family(cfd).map_err(|e| db.flush_failed(e)),
                    None => db.run_compactions().map_err(|e| db.compaction_failed(e)),
                }))
                .unwrap_or_else(|_| {
                    Err(db.poison(crate::Error::aborted("panic in a background job")))
                });
                // Every view the job held is gone now: delete what no reader needs.
                db.delete_obsolete_tables();
                // A failure that stopped the DB is retried by recovery, not by this thread.
                res.is_err() && db.bg_error.lock().is_none()
            }
        };
        let mut st = shared.state.lock();
        st.running = false;
        st.epoch += 1;
        shared.cv.notify_all();
        if pause {
            let until = Instant::now() + FAILED_JOB_PAUSE;
            while !st.shutting_down && !shared.cv.wait_until(&mut st, until).timed_out() {}
        }
    }
}
