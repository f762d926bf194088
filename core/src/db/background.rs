// SPDX-License-Identifier: Apache-2.0
//! Background work: a small pool of threads per DB runs queued flushes and compactions, and
//! writers that must stall wait here for that work to make room.
//!
//! Slots (RocksDB's `GetBGJobLimits`): with `max_background_flushes` and
//! `max_background_compactions` both -1 (the default), `max_background_jobs` is split into
//! `max(1, jobs / 4)` flushes and `max(1, jobs - flushes)` compactions; otherwise the two
//! legacy values are used (at least 1 each). The pool has one thread per slot, and a thread
//! takes a compaction only while a compaction slot is free, so a flush always finds a thread
//! even when every compaction slot is busy. Several compactions run at once only when the
//! policy finds disjoint work for them (`db::compact` registers what each one owns).
//!
//! A failed flush or compaction goes to the error handler (`error_handler.rs`), which decides
//! whether writes stop and how the DB recovers; nothing acknowledged is lost (the data is
//! still in the WAL and the immutable memtables). After a failed job that left writes going
//! (a compaction on a full disk) the thread pauses for a second, as RocksDB's does, so that
//! a lasting problem does not spin it.
//!
//! The threads hold only a `Weak` reference to the DB (and a strong one only while a job
//! runs), so dropping the last handle ends them.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};

use super::column_family::ColumnFamilyData;
use super::DbInner;
use crate::options::DbOptions;

/// How long the thread rests after a failed job (RocksDB's `BackgroundCallFlush` and
/// `BackgroundCallCompaction` sleep one second).
const FAILED_JOB_PAUSE: Duration = Duration::from_secs(1);

#[derive(Default)]
struct State {
    flushes: VecDeque<Arc<ColumnFamilyData>>,
    compaction_requested: bool,
    running_flushes: usize,
    running_compactions: usize,
    max_flushes: usize,
    max_compactions: usize,
    shutting_down: bool,
    /// Bumped after every job that did something, so that stalled writers can wait for
    /// progress.
    epoch: u64,
}

impl State {
    fn busy(&self) -> bool {
        self.running_flushes + self.running_compactions > 0
    }
}

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    /// Signals new work to the threads, and finished work to waiters.
    cv: Condvar,
    /// `state.shutting_down`, readable without the lock: a running compaction polls it and
    /// gives up (see [`Background::is_stopping`]).
    stopping: AtomicBool,
}

/// The background scheduler of one DB.
#[derive(Default)]
pub(crate) struct Background {
    shared: Arc<Shared>,
    threads: Mutex<Vec<JoinHandle<()>>>,
}

/// Flush and compaction slots for `o` (RocksDB's `GetBGJobLimits`).
pub(crate) fn job_limits(o: &DbOptions) -> (usize, usize) {
    let as_slots = |v: i32| usize::try_from(v).unwrap_or(0).max(1);
    if o.max_background_flushes == -1 && o.max_background_compactions == -1 {
        let jobs = usize::try_from(o.max_background_jobs).unwrap_or(0);
        let flushes = (jobs / 4).max(1);
        let compactions = jobs.saturating_sub(flushes).max(1);
        (flushes, compactions)
    } else {
        (
            as_slots(o.max_background_flushes),
            as_slots(o.max_background_compactions),
        )
    }
}

enum Job {
    Flush(Arc<ColumnFamilyData>),
    Compaction,
}

impl Background {
    /// Starts the worker threads for `db`.
    pub(crate) fn start(db: &Arc<DbInner>) {
        let (flushes, compactions) = job_limits(&db.options);
        {
            let mut st = db.background.shared.state.lock();
            st.max_flushes = flushes;
            st.max_compactions = compactions;
        }
        let mut threads = db.background.threads.lock();
        for i in 0..flushes + compactions {
            let weak: Weak<DbInner> = Arc::downgrade(db);
            let shared = db.background.shared.clone();
            let handle = std::thread::Builder::new()
                .name(format!("solistore-bg{i}"))
                .spawn(move || worker(weak, shared));
            if let Ok(h) = handle {
                threads.push(h);
            }
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

    /// Flushes and compactions running now (`rocksdb.num-running-*`).
    pub(crate) fn running(&self) -> (usize, usize) {
        let st = self.shared.state.lock();
        (st.running_flushes, st.running_compactions)
    }

    /// Blocks until a job finishes after `epoch` was read, or the scheduler idles or stops.
    pub(crate) fn wait_for_progress(&self, epoch: u64) {
        let mut st = self.shared.state.lock();
        while st.epoch == epoch
            && !st.shutting_down
            && (st.busy() || !st.flushes.is_empty() || st.compaction_requested)
        {
            self.shared.cv.wait(&mut st);
        }
    }

    /// Blocks until a job finishes after `epoch` was read, or `at_most` passes. False when
    /// the scheduler is shutting down (nothing more will finish).
    pub(crate) fn wait_for_epoch_change(&self, epoch: u64, at_most: Duration) -> bool {
        let until = Instant::now() + at_most;
        let mut st = self.shared.state.lock();
        while st.epoch == epoch && !st.shutting_down {
            if self.shared.cv.wait_until(&mut st, until).timed_out() {
                break;
            }
        }
        !st.shutting_down
    }

    /// Waits until no job is queued or running (test hook and `wait_for_compact`).
    pub(crate) fn wait_for_idle(&self) {
        let mut st = self.shared.state.lock();
        while !st.shutting_down && (st.busy() || !st.flushes.is_empty() || st.compaction_requested)
        {
            self.shared.cv.wait(&mut st);
        }
    }

    /// True once the DB is closing. A running compaction gives up when it sees this, as
    /// RocksDB's does at close (`Shutdown in progress: Database shutdown`): its inputs stay
    /// where they are and its unfinished outputs are deleted, so a close never waits for a
    /// compaction of the whole tree. A flush runs to its end (it holds data the WAL may not).
    pub(crate) fn is_stopping(&self) -> bool {
        self.shared.stopping.load(Ordering::Relaxed)
    }

    fn mark_stopping(&self) {
        self.shared.state.lock().shutting_down = true;
        self.shared.stopping.store(true, Ordering::Relaxed);
        self.shared.cv.notify_all();
    }

    /// Tells the threads to stop, without waiting (from `DbInner`'s drop, possibly on one of
    /// the threads itself).
    pub(crate) fn stop_without_join(&self) {
        self.mark_stopping();
    }

    /// Stops the threads after their current jobs (a compaction ends early, see
    /// [`Background::is_stopping`]) and joins them.
    pub(crate) fn shutdown(&self) {
        self.mark_stopping();
        let handles: Vec<JoinHandle<()>> = std::mem::take(&mut *self.threads.lock());
        for h in handles {
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
                if st.running_flushes < st.max_flushes {
                    if let Some(cfd) = st.flushes.pop_front() {
                        st.running_flushes += 1;
                        break Job::Flush(cfd);
                    }
                }
                if st.compaction_requested && st.running_compactions < st.max_compactions {
                    st.compaction_requested = false;
                    st.running_compactions += 1;
                    break Job::Compaction;
                }
                shared.cv.wait(&mut st);
            }
        };
        let mut compacted = false;
        let mut progressed = true;
        let pause = match weak.upgrade() {
            None => return,
            Some(db) => {
                let res = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match &job {
                    Job::Flush(cfd) => db
                        .flush_column_family(cfd)
                        .map(|_| false)
                        .map_err(|e| db.flush_failed(e)),
                    Job::Compaction => db.run_one_compaction().map_err(|e| {
                        // Given up because the DB is closing: not a failure.
                        if e.code() == crate::error::Code::ShutdownInProgress {
                            e
                        } else {
                            db.compaction_failed(e)
                        }
                    }),
                }))
                .unwrap_or_else(|_| {
                    Err(db.poison(crate::Error::aborted("panic in a background job")))
                });
                let failed = res.is_err();
                if let Ok(did) = res {
                    compacted = did;
                    // A compaction round that found nothing to do is no progress.
                    progressed = did || matches!(job, Job::Flush(_));
                }
                // Every view the job held is gone now: delete what no reader needs.
                db.delete_obsolete_tables();
                // A failure that stopped the DB is retried by recovery, not by this thread.
                failed && db.bg_error.lock().is_none()
            }
        };
        let mut st = shared.state.lock();
        match job {
            Job::Flush(_) => st.running_flushes -= 1,
            Job::Compaction => st.running_compactions -= 1,
        }
        if compacted {
            // The finished compaction may have made room for more (or for a blocked pick).
            st.compaction_requested = true;
        }
        if progressed {
            st.epoch += 1;
        }
        shared.cv.notify_all();
        if pause {
            let until = Instant::now() + FAILED_JOB_PAUSE;
            while !st.shutting_down && !shared.cv.wait_until(&mut st, until).timed_out() {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn job_limits_follow_rocksdb() {
        let o = |jobs, c, f| DbOptions {
            max_background_jobs: jobs,
            max_background_compactions: c,
            max_background_flushes: f,
            ..DbOptions::default()
        };
        assert_eq!(job_limits(&o(2, -1, -1)), (1, 1));
        assert_eq!(job_limits(&o(8, -1, -1)), (2, 6));
        assert_eq!(job_limits(&o(1, -1, -1)), (1, 1));
        assert_eq!(job_limits(&o(8, 3, -1)), (1, 3));
        assert_eq!(job_limits(&o(8, -1, 2)), (2, 1));
    }
}
