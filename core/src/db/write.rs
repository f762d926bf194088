// SPDX-License-Identifier: Apache-2.0
//! Write path: `WriteBatch` → WAL → memtables → visible sequence number.
//!
//! Invariants:
//! 1. Batches reach the WAL in sequence-number order: only the group leader appends, and
//!    there is one leader at a time (the writer at the front of the queue).
//! 2. A group becomes visible only after every batch in it has been applied to its memtables:
//!    the leader publishes `DbInner::last_sequence` last, so a reader, which reads at that
//!    sequence, never sees part of a batch, even one spanning column families.
//! 3. If a WAL append or sync fails (or the leader panics), the DB stops writes: the group
//!    may or may not be durable, so every later write returns the stored error. Reads go on;
//!    a full disk is recovered from at run time, anything else by a reopen, which replays
//!    whatever reached the log (see `error_handler`).
//!
//! Group commit: each writer validates its batch in its own thread, then queues. The writer at
//! the front becomes leader, takes the writers queued behind it (up to `MAX_GROUP_BYTES`,
//! all with the same `disable_wal`), writes their batches to the WAL as ONE record (one rep,
//! counts summed, as RocksDB's `WriteBatchInternal::Append` does), issues one fdatasync when
//! any of them asked for `sync`, inserts every batch, publishes, and wakes them with the
//! shared result. A synced write therefore also makes every earlier write durable (the log
//! is one append-only file), which Kommander relies on. An unsynced write has been handed to
//! the OS (`write(2)`) before it returns, unless `manual_wal_flush` keeps it in our buffer
//! until `flush_wal`.
//!
//! Gathering: writers that loop on synced writes come back a few microseconds after their
//! group ended, just too late for the next group, which the writers that queued during the
//! sync have already formed; groups then settle into two halves that alternate, each writer
//! waiting for two syncs per commit. So the leader of a synced group first waits, for at
//! most half a recent sync's time (`MAX_GATHER` at most), until the writers of the previous
//! synced group are queued again, and takes them into its group: one fdatasync then carries
//! nearly every writer. The writer whose return completes the gather leads the group itself,
//! in the waiting leader's place (which then waits for its result like any member): waking
//! the sleeping leader and waiting for it to run put a context switch on each group's path
//! to its sync (4 synced threads on 2 CPUs: from 0.83 to 0.96 of the disk's bound, median
//! of 6 alternating runs). A gather that times out (a writer that did not come back) turns
//! gathering off for the next group, so a writer that pauses between commits costs the
//! others one short wait, not one per group. A lone writer never waits (it is the writer
//! it would wait for).
//!
//! Waiting: a writer that is not the leader waits for its result or for its turn to lead.
//! Where groups are short (unsynced writes: tens of microseconds), the futex sleep and
//! wake-up cost as much as the group itself, and the next leader's wake-up delays every
//! writer: with 4 unsynced writers on 2 CPUs half the CPU time went idle. So while recent
//! groups took under `MAX_POLLED_GROUP`, a waiting writer first spins on its `signalled`
//! flag for about `MAX_POLL`, as RocksDB's writers do, and only then sleeps. At most
//! `max_pollers` writers (half the CPUs rounded down, at most `MAX_POLLERS`; none on one
//! CPU) spin at once, so the others leave the CPUs to the leader and to background work. Spinning, not `sched_yield`: a
//! yielding thread stays runnable and, beside busy reader threads, got the CPU back only
//! after their time slice, where a woken sleeper preempts them (measured: Kommander's mixed
//! shape lost a third with yields, and gained with spins).
//!
//! Members sleep on condition variables of the queue lock, so a finished group's members
//! wake one after another as the lock passes between them. Parking them outside the lock so
//! that they wake in parallel was measured and dropped: 16 synced threads on 2 CPUs then
//! spent more CPU per commit (8-9 µs became 10-13) and the gaps between syncs grew.
//!
//! The alternative, a lock around "append + sync" per writer, costs one fsync per writer.
//! Pipelined groups, whose fdatasyncs overlap (a leader leaves the queue once its group is
//! appended), were measured and dropped: groups shrank to 1-3 commits and 16 synced
//! threads lost a third of their throughput (commit a35b2b9).

use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::ThreadId;
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};

use super::error_handler::Reason;
use super::DbInner;
use crate::batch::{Record, WriteBatch};
use crate::error::{Error, Result};
use crate::key::ValueType;
use crate::memtable::MemTable;
use crate::options::WriteOptions;
use crate::wal::writer::LogWriter;

/// The most batch bytes a leader takes into one group.
const MAX_GROUP_BYTES: usize = 1 << 20;

/// The longest a synced group's leader waits for the previous group's writers to queue
/// again (see "Gathering" above); the wait is also at most half the recent sync time.
const MAX_GATHER: Duration = Duration::from_micros(200);

/// A writer polls for its signal for at most this long before it sleeps on its condition
/// variable, when recent groups took less than `MAX_POLLED_GROUP` (see "Waiting").
const MAX_POLL: Duration = Duration::from_micros(20);

/// Groups that take longer than this (synced ones: a sync is a millisecond or more) are
/// waited for asleep at once.
const MAX_POLLED_GROUP: Duration = Duration::from_micros(40);

/// Spin iterations between two looks at the clock while polling (the flag is read at every
/// one).
const SPINS: u32 = 200;

/// The most writers that poll at once (besides at most half the CPUs, rounded down).
const MAX_POLLERS: usize = 4;

/// One group in this many is timed for `group_nanos` (two clock reads a group were 2.7% of
/// a lone writer's fillrandom; the average only steers waiting).
const TIMED_GROUP_EVERY: u32 = 8;

/// Work that must run in leader context with no group (a memtable switch for `flush`).
type Exclusive = Box<dyn FnOnce() -> Result<()> + Send>;

/// One queued write. Its fields other than `result` are immutable once queued.
struct Writer {
    batch: WriteBatch,
    /// The writing thread (gathering waits for threads, not for particular writes).
    thread: ThreadId,
    sync: bool,
    disable_wal: bool,
    /// Set for an exclusive writer: it forms a group of its own and runs this instead.
    exclusive: Mutex<Option<Exclusive>>,
    /// Whether this is an exclusive writer (`exclusive` was set when it was queued), so
    /// that a leader forming a group need not lock every writer's `exclusive`.
    is_exclusive: bool,
    /// The outcome, set by the leader that wrote it. Guarded by `WriteQueue::state`.
    result: Mutex<Option<Result<()>>>,
    /// Signalled (with `WriteQueue::state` held) when `result` is set or this writer reaches
    /// the front of the queue: each writer sleeps on its own, so finishing a group wakes its
    /// members and the next leader only, not every queued writer.
    cv: Condvar,
    /// Set with `cv`'s signal, for a writer that polls before it sleeps (see "Waiting").
    signalled: AtomicBool,
}

/// The queue proper, under `WriteQueue::state`.
#[derive(Default)]
struct QueueState {
    /// Queued writers, front = the current leader.
    writers: VecDeque<Arc<Writer>>,
    /// The threads of the last synced group that have not queued again (see "Gathering").
    returning: Vec<ThreadId>,
    /// A leader is waiting for `returning` to empty; the writer that empties it leads the
    /// group in the waiting leader's place (or, if its write cannot join, wakes it).
    gathering: bool,
    /// The front writer's group is being led by another thread (a take-over, see
    /// "Gathering"): the front writer waits for its result instead of leading.
    handed_off: bool,
    /// The last gather timed out: the next leader does not gather.
    skip_gather: bool,
    /// Groups led so far (wrapping): every `TIMED_GROUP_EVERY`th one is timed.
    groups: u32,
}

/// The writer queue and the WAL.
pub(crate) struct WriteQueue {
    state: Mutex<QueueState>,
    /// A recent WAL sync's duration in nanoseconds (an average), bounding the gather wait.
    sync_nanos: AtomicU64,
    /// A recent group's duration in nanoseconds (an average), deciding whether writers
    /// poll before they sleep (see "Waiting").
    group_nanos: AtomicU64,
    /// Writers polling right now, at most `max_pollers` (see "Waiting").
    pollers: AtomicUsize,
    max_pollers: usize,
    /// The open WAL (None when read-only or closed). Locked by the leader while it appends,
    /// and by `flush_wal`/`sync_wal`.
    pub(crate) wal: Mutex<Option<LogWriter>>,
    /// WALs switched away from whose bytes may not be synced yet, oldest first. A synced
    /// write syncs them before the current WAL (it must make every earlier write durable),
    /// and so does the flush of one of several families (a flushed family must not outlive
    /// earlier writes of another family that sit in an unsynced WAL). Locked after `wal`,
    /// and only to look at or change the list: a sync holds the one WAL's own lock, so
    /// that a memtable switch adding to the list never waits for it.
    pub(crate) closed_wals: Mutex<Vec<Arc<ClosedWal>>>,
}

/// A WAL switched away from (`WriteQueue::closed_wals`).
pub(crate) struct ClosedWal {
    pub(crate) number: u64,
    /// The bytes handed to the file when it was closed; a closed WAL takes no more (its
    /// syncs find nothing buffered), so readers need not take `log`, which a sync holds.
    pub(crate) appended: u64,
    pub(crate) log: Mutex<LogWriter>,
}

impl ClosedWal {
    /// `log` must hold nothing buffered (the switch flushed it).
    pub(crate) fn new(log: LogWriter) -> Arc<Self> {
        debug_assert_eq!(log.appended_size(), log.file_size());
        Arc::new(ClosedWal {
            number: log.log_number(),
            appended: log.appended_size(),
            log: Mutex::new(log),
        })
    }
}

impl WriteQueue {
    pub(crate) fn new(wal: Option<LogWriter>) -> Self {
        WriteQueue {
            state: Mutex::new(QueueState::default()),
            sync_nanos: AtomicU64::new(0),
            group_nanos: AtomicU64::new(0),
            pollers: AtomicUsize::new(0),
            // Half the CPUs: none on a single CPU, where a spinning writer could only take
            // the time slice of the leader it waits for.
            max_pollers: std::thread::available_parallelism()
                .map_or(0, |n| n.get() / 2)
                .min(MAX_POLLERS),
            wal: Mutex::new(wal),
            closed_wals: Mutex::new(Vec::new()),
        }
    }

    /// Claims a polling place; false when `max_pollers` writers poll already.
    fn try_start_polling(&self) -> bool {
        self.pollers
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
                (n < self.max_pollers).then_some(n + 1)
            })
            .is_ok()
    }
}

impl DbInner {
    /// Checks that `batch` can be applied: every column family exists (unless the caller
    /// ignores missing ones), merges have a merge operator, and no record is of a kind this
    /// engine does not store. Runs in the writer's own thread, before it queues.
    fn validate_batch(&self, wo: &WriteOptions, batch: &WriteBatch) -> Result<()> {
        let cfs = self.cfs.read();
        for rec in batch.records() {
            let rec = rec?;
            let (cf, is_merge) = match rec {
                Record::Put { cf, .. }
                | Record::Delete { cf, .. }
                | Record::SingleDelete { cf, .. }
                | Record::DeleteRange { cf, .. } => (cf, false),
                Record::Merge { cf, .. } => (cf, true),
                Record::BlobIndex { .. } | Record::WideColumnEntity { .. } => {
                    return Err(Error::not_supported(
                        "blob indexes and wide-column entities are not supported",
                    ))
                }
                _ => continue,
            };
            match cfs.get(cf) {
                Some(cfd) => {
                    if is_merge && cfd.options.merge_operator.is_none() {
                        // RocksDB's text on the batch path (`Db::merge` checks earlier).
                        return Err(Error::invalid_argument(
                            "Merge requires `ColumnFamilyOptions::merge_operator != nullptr`",
                        ));
                    }
                }
                None if wo.ignore_missing_column_families => {}
                None => {
                    return Err(Error::invalid_argument(
                        "Invalid column family specified in write batch",
                    ))
                }
            }
        }
        Ok(())
    }

    /// Writes `batch` atomically. See the module header for the protocol.
    pub(crate) fn write(&self, wo: &WriteOptions, batch: &WriteBatch) -> Result<()> {
        if batch.count() == 0 && batch.size_in_bytes() <= crate::batch::HEADER_SIZE {
            return self.check_writable();
        }
        self.write_owned(wo, batch.clone())
    }

    /// [`write`](Self::write) of a batch the caller gives up (the single-operation calls
    /// build one and hand it over, so that it is not copied).
    pub(crate) fn write_owned(&self, wo: &WriteOptions, batch: WriteBatch) -> Result<()> {
        self.check_writable()?;
        if batch.count() == 0 && batch.size_in_bytes() <= crate::batch::HEADER_SIZE {
            return Ok(());
        }
        self.validate_batch(wo, &batch)?;
        let me = Arc::new(Writer {
            batch,
            thread: std::thread::current().id(),
            sync: wo.sync,
            disable_wal: wo.disable_wal,
            exclusive: Mutex::new(None),
            is_exclusive: false,
            result: Mutex::new(None),
            cv: Condvar::new(),
            signalled: AtomicBool::new(false),
        });
        self.enqueue(me)
    }

    /// Runs `work` in leader context: after every earlier group and before any later one.
    pub(crate) fn run_exclusive(&self, work: Exclusive) -> Result<()> {
        let me = Arc::new(Writer {
            batch: WriteBatch::new(),
            thread: std::thread::current().id(),
            sync: false,
            disable_wal: false,
            exclusive: Mutex::new(Some(work)),
            is_exclusive: true,
            result: Mutex::new(None),
            cv: Condvar::new(),
            signalled: AtomicBool::new(false),
        });
        self.enqueue(me)
    }

    fn enqueue(&self, me: Arc<Writer>) -> Result<()> {
        let mut state = self.write.state.lock();
        state.writers.push_back(me.clone());
        let mut take_over = false;
        if state.gathering {
            if let Some(i) = state.returning.iter().position(|t| *t == me.thread) {
                state.returning.swap_remove(i);
                if state.returning.is_empty() {
                    // The gathering leader waits for exactly this writer. Rather than wake it
                    // and wait until it runs, this thread leads the group in its place (see
                    // "Gathering"), when its own write can join that group.
                    let joins = state.writers.front().is_some_and(|front| {
                        !me.is_exclusive && me.disable_wal == front.disable_wal
                    });
                    if joins {
                        state.gathering = false;
                        state.handed_off = true;
                        take_over = true;
                    } else if let Some(front) = state.writers.front() {
                        front.wake();
                    }
                }
            }
        }
        let mut poll =
            Duration::from_nanos(self.write.group_nanos.load(Ordering::Relaxed)) < MAX_POLLED_GROUP;
        loop {
            if std::mem::take(&mut take_over) {
                match self.lead(&mut state, &me, None) {
                    Some(res) => return res,
                    // The group was full before this writer: it waits for its turn.
                    None => continue,
                }
            }
            // A writer at the front has no result yet: a leader sets results only for the
            // writers it popped off the queue. Its group may be led by another thread,
            // though (`handed_off`), and then it waits like any other member.
            if state.writers.front().is_some_and(|f| Arc::ptr_eq(f, &me)) && !state.handed_off {
                let exclusive = if me.is_exclusive {
                    me.exclusive.lock().take()
                } else {
                    None
                };
                if exclusive.is_none()
                    && me.sync
                    && !me.disable_wal
                    && !self.gather(&mut state, &me)
                {
                    // Another thread took the group over (or already wrote it).
                    continue;
                }
                let res = self.lead(&mut state, &me, exclusive);
                debug_assert!(res.is_some(), "the front writer is in its own group");
                return res.unwrap_or_else(|| Err(Error::aborted("write group lost its leader")));
            }
            if let Some(res) = me.result.lock().take() {
                return res;
            }
            if std::mem::take(&mut poll) && self.write.try_start_polling() {
                parking_lot::MutexGuard::unlocked(&mut state, || me.poll_signal());
                self.write.pollers.fetch_sub(1, Ordering::Relaxed);
                continue;
            }
            me.cv.wait(&mut state);
        }
    }

    /// Leads one group: takes the writers at the front of the queue (an exclusive writer's
    /// `work` runs alone), writes them with the queue lock released, then pops them, hands
    /// each its result and wakes the next leader. `me` is the leading thread's own writer:
    /// its outcome is returned, or None when the group did not reach it (a thread that took
    /// a gathered group over, behind writers that filled it).
    fn lead(
        &self,
        state: &mut parking_lot::MutexGuard<'_, QueueState>,
        me: &Arc<Writer>,
        exclusive: Option<Exclusive>,
    ) -> Option<Result<()>> {
        // Take the group while holding the queue lock, then release it for the I/O.
        let disable_wal = state.writers.front().is_some_and(|f| f.disable_wal);
        let mut group: Vec<Arc<Writer>> = Vec::new();
        let mut bytes = 0;
        for w in state.writers.iter() {
            let stop = exclusive.is_some()
                || w.is_exclusive
                || w.disable_wal != disable_wal
                || bytes + w.batch.size_in_bytes() > MAX_GROUP_BYTES;
            if !group.is_empty() && stop {
                break;
            }
            bytes += w.batch.size_in_bytes();
            group.push(w.clone());
        }
        state.groups = state.groups.wrapping_add(1);
        let timed = state.groups % TIMED_GROUP_EVERY == 1;
        let synced = exclusive.is_none() && !disable_wal && group.iter().any(|w| w.sync);
        let outcome = parking_lot::MutexGuard::unlocked(state, || {
            let started = timed.then(Instant::now);
            let outcome = catch_unwind(AssertUnwindSafe(|| match exclusive {
                Some(work) => work(),
                None => self.write_group(&group),
            }))
            .unwrap_or_else(|_| Err(self.poison(Error::aborted("panic in the write path"))));
            if let Some(started) = started {
                fold_nanos(&self.write.group_nanos, started.elapsed());
            }
            outcome
        });
        let mut mine = None;
        for w in &group {
            let popped = state.writers.pop_front();
            debug_assert!(popped.is_some_and(|p| Arc::ptr_eq(&p, w)));
            if Arc::ptr_eq(w, me) {
                mine = Some(outcome.clone());
            } else {
                *w.result.lock() = Some(outcome.clone());
                w.wake();
            }
        }
        state.handed_off = false;
        state.returning.clear();
        if synced {
            // A thread has one write at a time, so no thread is in a group twice.
            state.returning.extend(group.iter().map(|w| w.thread));
        }
        if let Some(next) = state.writers.front() {
            next.wake();
        }
        mine
    }

    /// A synced group's leader waits (briefly) for the threads of the previous synced group
    /// to queue again, so that one sync carries them too (see "Gathering"). Returns false
    /// when the last of them took the group over: `me` is then a member, not the leader.
    fn gather(&self, state: &mut parking_lot::MutexGuard<'_, QueueState>, me: &Writer) -> bool {
        if std::mem::take(&mut state.skip_gather) {
            state.returning.clear();
            return true;
        }
        let st = &mut **state;
        let queued = &st.writers;
        st.returning
            .retain(|t| !queued.iter().any(|w| w.thread == *t));
        if state.returning.is_empty() {
            return true;
        }
        let sync = Duration::from_nanos(self.write.sync_nanos.load(Ordering::Relaxed));
        let window = (sync / 2).min(MAX_GATHER);
        if window.is_zero() {
            state.returning.clear();
            return true;
        }
        let deadline = Instant::now() + window;
        state.gathering = true;
        let mut timed_out = false;
        loop {
            // Taken over: the group is being written, or (its result set) already was, and
            // `returning` now belongs to that group.
            if state.handed_off || me.result.lock().is_some() {
                return false;
            }
            if state.returning.is_empty() {
                break;
            }
            if timed_out {
                state.skip_gather = true;
                break;
            }
            timed_out = me.cv.wait_until(state, deadline).timed_out();
        }
        state.gathering = false;
        state.returning.clear();
        true
    }

    /// The leader's work for one group: WAL append (and sync), memtable inserts, publish.
    fn write_group(&self, group: &[Arc<Writer>]) -> Result<()> {
        if let Some(err) = self.bg_error.lock().clone() {
            return Err(err);
        }
        self.make_room_for_write()?;
        let first_seq = self.last_sequence.load(Ordering::Acquire) + 1;
        let total: u64 = group.iter().map(|w| u64::from(w.batch.count())).sum();
        let disable_wal = group[0].disable_wal;
        if !disable_wal {
            let need_sync = group.iter().any(|w| w.sync);
            let mut wal = self.write.wal.lock();
            let log = wal
                .as_mut()
                .ok_or_else(|| Error::invalid_argument("DB is closed"))?;
            // One record: a header with the group's first sequence and total count, then
            // every batch's records, framed straight from the batches (the bytes of
            // `WriteBatch::append` over the group, without building it).
            let mut header = [0u8; crate::batch::HEADER_SIZE];
            header[..8].copy_from_slice(&first_seq.to_le_bytes());
            let count = group
                .iter()
                .fold(0u32, |n, w| n.wrapping_add(w.batch.count()));
            header[8..].copy_from_slice(&count.to_le_bytes());
            let mut parts: Vec<&[u8]> = Vec::with_capacity(group.len() + 1);
            parts.push(&header);
            for w in group {
                parts.push(
                    w.batch
                        .data()
                        .get(crate::batch::HEADER_SIZE..)
                        .unwrap_or(&[]),
                );
            }
            let res = log.add_record_parts(&parts).and_then(|_| {
                if need_sync {
                    let started = Instant::now();
                    let res = self.sync_closed_wals().and_then(|_| log.sync());
                    self.note_sync_time(started.elapsed());
                    res
                } else {
                    Ok(())
                }
            });
            if let Err(e) = res {
                return Err(self.set_bg_error(e, Reason::WalWrite));
            }
            if need_sync {
                self.stats.wal_syncs.fetch_add(1, Ordering::Relaxed);
            }
        }
        let mut seq = first_seq;
        {
            let cfs = self.cfs.read();
            let mut memtable_for = |cf: u32| cfs.get(cf).map(|c| c.mem());
            for w in group {
                seq = insert_batch(&mut memtable_for, &w.batch, seq)
                    .map_err(|e| self.set_bg_error(e, Reason::MemTable))?;
            }
        }
        debug_assert_eq!(seq, first_seq + total);
        self.stats.keys_written.fetch_add(total, Ordering::Relaxed);
        self.stats.bytes_written.fetch_add(
            group.iter().map(|w| w.batch.size_in_bytes() as u64).sum(),
            Ordering::Relaxed,
        );
        self.last_sequence
            .store(first_seq + total - 1, Ordering::Release);
        if disable_wal {
            self.unlogged_writes.store(true, Ordering::Release);
        }
        self.switch_full_memtables()?;
        self.charge_memtables(true)
    }

    /// Folds one WAL sync's duration into the recent average.
    fn note_sync_time(&self, took: Duration) {
        fold_nanos(&self.write.sync_nanos, took);
    }

    /// Stalls the leader while a family has as many unflushed memtables as
    /// `max_write_buffer_number` allows (RocksDB's write stop), too many level-0 files
    /// (`level0_stop_writes_trigger`) or too many bytes waiting for compaction
    /// (`hard_pending_compaction_bytes_limit`), until background work makes room; slows it
    /// down past `level0_slowdown_writes_trigger` or `soft_pending_compaction_bytes_limit`.
    /// The level 0 and pending-bytes triggers apply only with automatic compactions on.
    ///
    /// "Unflushed" counts the immutable memtables only, as RocksDB's `NumNotFlushed` does:
    /// with the default of 2, writes go on into the new active memtable while the one
    /// switched out is being flushed, and stop only when that one fills up too before the
    /// flush is done. (Counting the active memtable as well stalled every writer for a whole
    /// flush at every switch.)
    fn make_room_for_write(&self) -> Result<()> {
        loop {
            let mut stop = false;
            let mut slow = false;
            for cfd in self.cfs.read().iter() {
                let o = &cfd.options;
                let imms = cfd.imms.lock().len();
                let l0 = cfd.num_level0_files();
                let max_imms = usize::try_from(o.max_write_buffer_number.max(2)).unwrap_or(2);
                stop |= imms >= max_imms;
                // As RocksDB: level 0 triggers apply only while compactions can drain it.
                if !o.disable_auto_compactions {
                    stop |=
                        l0 >= usize::try_from(o.level0_stop_writes_trigger).unwrap_or(usize::MAX);
                    slow |= l0
                        >= usize::try_from(o.level0_slowdown_writes_trigger).unwrap_or(usize::MAX);
                    let pending = cfd.pending_compaction_bytes();
                    let over = |limit: u64| limit > 0 && pending >= limit;
                    stop |= over(o.hard_pending_compaction_bytes_limit);
                    slow |= over(o.soft_pending_compaction_bytes_limit);
                }
            }
            if let Some(err) = self.bg_error.lock().clone() {
                return Err(err);
            }
            self.write_stopped
                .store(stop, std::sync::atomic::Ordering::Relaxed);
            if stop {
                let epoch = self.background.epoch();
                self.background.schedule_compaction();
                self.background.wait_for_progress(epoch);
                if self.background.epoch() == epoch {
                    self.write_stopped
                        .store(false, std::sync::atomic::Ordering::Relaxed);
                    // Nothing ran and nothing will: stalling longer could only deadlock.
                    return Ok(());
                }
                continue;
            }
            if slow {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            return Ok(());
        }
    }

    /// Hands buffered WAL bytes (`manual_wal_flush`) to the OS, and syncs when asked.
    pub(crate) fn flush_wal(&self, sync: bool) -> Result<()> {
        self.check_open()?;
        let mut wal = self.write.wal.lock();
        let Some(log) = wal.as_mut() else {
            return Ok(());
        };
        let res = log.flush().and_then(|_| {
            if sync {
                self.sync_closed_wals().and_then(|_| log.sync())
            } else {
                Ok(())
            }
        });
        res.map_err(|e| self.set_bg_error(e, Reason::WalWrite))
    }

    /// Syncs the WALs switched away from since their last sync (`WriteQueue::closed_wals`),
    /// oldest first, and drops them from the list. Each sync holds that WAL's lock only:
    /// a caller that finds another one syncing a WAL waits for it there, so neither
    /// returns before every WAL it saw is durable.
    pub(crate) fn sync_closed_wals(&self) -> Result<()> {
        let pending: Vec<Arc<ClosedWal>> = self.write.closed_wals.lock().clone();
        if pending.is_empty() {
            return Ok(());
        }
        let mut res = Ok(());
        let mut synced = pending.len();
        for (i, wal) in pending.iter().enumerate() {
            if let Err(e) = wal.log.lock().sync() {
                (synced, res) = (i, Err(e));
                break;
            }
        }
        // The list may have grown (a switch) or shrunk (obsolete WALs) meanwhile.
        let done = &pending[..synced];
        self.write
            .closed_wals
            .lock()
            .retain(|w| !done.iter().any(|d| Arc::ptr_eq(d, w)));
        res
    }
}

/// Folds a duration into a recent average in nanoseconds (weight 1/8; the first one counts
/// whole). Relaxed: the averages only steer waiting.
fn fold_nanos(avg: &AtomicU64, took: Duration) {
    let took = u64::try_from(took.as_nanos()).unwrap_or(u64::MAX);
    let old = avg.load(Ordering::Relaxed);
    let new = if old == 0 {
        took
    } else {
        old - old / 8 + took / 8
    };
    avg.store(new, Ordering::Relaxed);
}

impl Writer {
    /// Signals the writer (its result is set, or it is at the front of the queue). Called
    /// with `WriteQueue::state` held.
    fn wake(&self) {
        self.signalled.store(true, Ordering::Release);
        self.cv.notify_one();
    }

    /// Polls for the signal, without the queue lock, for at most `MAX_POLL`: spinning, not
    /// yielding (see "Waiting").
    fn poll_signal(&self) {
        let deadline = Instant::now() + MAX_POLL;
        loop {
            for _ in 0..SPINS {
                if self.signalled.load(Ordering::Acquire) {
                    return;
                }
                std::hint::spin_loop();
            }
            if Instant::now() >= deadline {
                return;
            }
        }
    }
}

/// Inserts one batch's records into their memtables, starting at `seq`; returns the next
/// unused sequence number. `memtable_for(cf)` names the memtable of a family, or None to skip
/// its records (a family that no longer exists, or, in recovery, one that already holds them).
pub(crate) fn insert_batch(
    memtable_for: &mut dyn FnMut(u32) -> Option<Arc<MemTable>>,
    batch: &WriteBatch,
    mut seq: u64,
) -> Result<u64> {
    let mut cached: Option<(u32, Option<Arc<MemTable>>)> = None;
    for rec in batch.records() {
        let (cf, t, key, value): (u32, ValueType, &[u8], &[u8]) = match rec? {
            Record::Put { cf, key, value } => (cf, ValueType::Value, key, value),
            Record::Delete { cf, key } => (cf, ValueType::Deletion, key, &[]),
            Record::SingleDelete { cf, key } => (cf, ValueType::SingleDeletion, key, &[]),
            Record::Merge { cf, key, value } => (cf, ValueType::Merge, key, value),
            Record::DeleteRange { cf, begin, end } => (cf, ValueType::RangeDeletion, begin, end),
            Record::BlobIndex { .. } | Record::WideColumnEntity { .. } => {
                return Err(Error::not_supported(
                    "blob indexes and wide-column entities are not supported",
                ))
            }
            _ => continue,
        };
        if cached.as_ref().is_none_or(|(id, _)| *id != cf) {
            cached = Some((cf, memtable_for(cf)));
        }
        if let Some((_, Some(mem))) = &cached {
            mem.add(seq, t, key, value)?;
        }
        seq += 1;
    }
    Ok(seq)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::Ordering;

    use crate::options::{ReadOptions, WriteOptions};

    /// Synced writers, whose groups are gathered and taken over (see "Gathering"), beside
    /// writers whose writes cannot join those groups (no WAL) and memtable switches (exclusive
    /// writers): every write lands once, and the queue ends empty with no take-over left
    /// pending.
    #[test]
    fn synced_writers_beside_unlogged_writers_and_flushes_all_land() {
        let (_dir, _, db) = crate::db::test_support::fresh_db();
        let per_thread = 400usize;
        let synced = WriteOptions {
            sync: true,
            ..Default::default()
        };
        let unlogged = WriteOptions {
            disable_wal: true,
            ..Default::default()
        };
        std::thread::scope(|s| {
            for t in 0..5usize {
                let db = &db;
                // Thread 4 alternates synced and unlogged writes: its return can complete a
                // gather with a write that cannot join the gathered group.
                let (synced, unlogged) = (synced.clone(), unlogged.clone());
                s.spawn(move || {
                    let cf = db.default_cf();
                    for i in 0..per_thread {
                        let wo = if t == 4 && i % 2 == 1 {
                            &unlogged
                        } else {
                            &synced
                        };
                        let k = format!("t{t}-{i:05}");
                        db.put(wo, &cf, k.as_bytes(), k.as_bytes()).expect("put");
                        // A short pause before the next write, so that a leader is often
                        // queued before this writer is back and gathers it.
                        let back = std::time::Instant::now();
                        while back.elapsed() < std::time::Duration::from_micros(20) {
                            std::hint::spin_loop();
                        }
                    }
                });
            }
            let db = &db;
            s.spawn(move || {
                for _ in 0..10 {
                    db.flush(&db.default_cf(), false).expect("flush");
                    std::thread::sleep(std::time::Duration::from_millis(2));
                }
            });
        });
        {
            let state = db.inner.write.state.lock();
            assert!(state.writers.is_empty(), "writers left queued");
            assert!(
                !state.handed_off && !state.gathering,
                "a take-over left pending"
            );
        }
        let cf = db.default_cf();
        for t in 0..5usize {
            for i in 0..per_thread {
                let k = format!("t{t}-{i:05}");
                let got = db.get(&ReadOptions::default(), &cf, k.as_bytes());
                assert_eq!(got.expect("get").as_deref(), Some(k.as_bytes()), "{k}");
            }
        }
        assert_eq!(
            db.inner.last_sequence.load(Ordering::Acquire),
            5 * per_thread as u64,
            "every write took exactly one sequence number"
        );
        db.close().expect("close");
    }

    /// Unsynced writers from more threads than polling places: every write lands, and every
    /// polling place is given back (a leaked one would stop all polling for good).
    #[test]
    fn concurrent_unsynced_writers_all_land_and_give_their_polling_places_back() {
        let (_dir, _, db) = crate::db::test_support::fresh_db();
        let (threads, per_thread) = (6usize, 3000usize);
        std::thread::scope(|s| {
            for t in 0..threads {
                let db = &db;
                s.spawn(move || {
                    let cf = db.default_cf();
                    for i in 0..per_thread {
                        let k = format!("t{t}-{i:05}");
                        db.put(&WriteOptions::default(), &cf, k.as_bytes(), b"v")
                            .expect("put");
                    }
                });
            }
        });
        let q = &db.inner.write;
        assert_eq!(
            q.pollers.load(Ordering::Relaxed),
            0,
            "polling places left taken"
        );
        assert!(q.max_pollers <= super::MAX_POLLERS);
        let group = std::time::Duration::from_nanos(q.group_nanos.load(Ordering::Relaxed));
        assert!(group > std::time::Duration::ZERO, "groups were timed");
        let cf = db.default_cf();
        for t in 0..threads {
            for i in (0..per_thread).step_by(97) {
                let k = format!("t{t}-{i:05}");
                let got = db.get(&ReadOptions::default(), &cf, k.as_bytes());
                assert_eq!(got.expect("get").as_deref(), Some(&b"v"[..]), "{k}");
            }
        }
        db.close().expect("close");
    }
}
