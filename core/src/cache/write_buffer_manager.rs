// SPDX-License-Identifier: Apache-2.0
//! The write buffer manager: one memtable memory budget shared by column families and DBs
//! (RocksDB's `WriteBufferManager`, `memtable/write_buffer_manager.cc`). Write path.
//!
//! Memtables report what they allocate with [`WriteBufferManager::reserve_mem`]. When a
//! memtable becomes immutable (scheduled for flush), its memory stops being *mutable*
//! ([`WriteBufferManager::schedule_free_mem`]); when the flushed memtable is dropped, its
//! memory is freed ([`WriteBufferManager::free_mem`]). From these two numbers the manager
//! answers:
//!
//! - [`WriteBufferManager::should_flush`]: mutable memory is above 7/8 of the buffer size,
//!   or all memory is at least the buffer size while mutable memory is at least half of it
//!   (flushing then helps; if most memory is already being flushed, it would not).
//! - [`WriteBufferManager::should_stall`]: with `allow_stall`, writers wait while all memory
//!   is at or above the buffer size, until a flush frees memory
//!   ([`WriteBufferManager::wait_while_stalled`]).
//!
//! # Charging a block cache
//!
//! Given a cache, the manager charges it for memtable memory by inserting pinned dummy
//! entries of [`DUMMY_ENTRY_SIZE`] (256 KiB) each, so the cache's usage rises with memtable
//! memory and block cache plus memtables stay within one capacity. The reservation is always
//! a whole number of dummy entries covering the memory used. It grows at once; it shrinks
//! only once memory falls below 3/4 of the reservation (RocksDB's "delayed decrease", which
//! spares cache inserts when memory goes up and down), and then down to the smallest
//! multiple of 256 KiB that still covers the memory used. A strict cache that is full
//! refuses a dummy entry; the memory is still counted, only not charged (RocksDB ignores
//! that error too). Dropping the manager releases every dummy entry.
//!
//! # Concurrency
//!
//! Counters are atomics: memtables of many column families and DBs update them without a
//! common lock. In cache-charging mode, `memory_used` and the reservation change together
//! under the reservation's mutex. The stall flag lives under `stall`, with a condition
//! variable for waiting writers.

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};

use super::lru::{CacheKey, CacheValue, Handle, LruCache, Priority};
use crate::error::Result;

/// Size of one dummy cache entry (RocksDB's `CacheReservationManager::kSizeDummyEntry`).
pub const DUMMY_ENTRY_SIZE: usize = 256 * 1024;

/// File-number field of dummy entries' cache keys; no SST has this number.
const DUMMY_FILE_NUMBER: u64 = u64::MAX;

/// The value of dummy cache entries: they hold nothing, only charge.
#[derive(Debug)]
pub struct DummyEntry;

/// Limits memtable memory across column families and DBs. `Send + Sync`; share it as
/// `Arc<WriteBufferManager>`.
pub struct WriteBufferManager {
    /// 0 disables the limit. Atomic; written by `set_buffer_size`.
    buffer_size: AtomicUsize,
    /// 7/8 of `buffer_size`.
    mutable_limit: AtomicUsize,
    /// All memtable memory reported and not yet freed. Atomic; in cache mode written only
    /// under `reservation`.
    memory_used: AtomicUsize,
    /// The part of `memory_used` in mutable memtables.
    memory_active: AtomicUsize,
    /// Present when memory is charged to a block cache.
    reservation: Option<Mutex<CacheReservation>>,
    allow_stall: AtomicBool,
    /// Whether writers are stalled; guarded by `stall`, mirrored for lock-free reads.
    stall_active: AtomicBool,
    stall: Mutex<()>,
    stall_ended: Condvar,
}

impl fmt::Debug for WriteBufferManager {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WriteBufferManager")
            .field("buffer_size", &self.buffer_size())
            .field("memory_usage", &self.memory_usage())
            .field("mutable", &self.mutable_memtable_memory_usage())
            .field("cost_to_cache", &self.cost_to_cache())
            .finish_non_exhaustive()
    }
}

impl WriteBufferManager {
    /// A manager with a `buffer_size` byte budget (0: no limit, only accounting when a
    /// cache is given), charging memory to `cache` if given, stalling writers at the limit
    /// if `allow_stall`.
    pub fn new(buffer_size: usize, cache: Option<Arc<LruCache>>, allow_stall: bool) -> Self {
        WriteBufferManager {
            buffer_size: AtomicUsize::new(buffer_size),
            mutable_limit: AtomicUsize::new(mutable_limit(buffer_size)),
            memory_used: AtomicUsize::new(0),
            memory_active: AtomicUsize::new(0),
            reservation: cache.map(|cache| Mutex::new(CacheReservation::new(cache))),
            allow_stall: AtomicBool::new(allow_stall),
            stall_active: AtomicBool::new(false),
            stall: Mutex::new(()),
            stall_ended: Condvar::new(),
        }
    }

    /// Whether a budget is set (`buffer_size > 0`).
    pub fn enabled(&self) -> bool {
        self.buffer_size() > 0
    }

    /// Whether memory is charged to a block cache.
    pub fn cost_to_cache(&self) -> bool {
        self.reservation.is_some()
    }

    /// All memtable memory reported and not yet freed.
    pub fn memory_usage(&self) -> usize {
        self.memory_used.load(Ordering::Relaxed)
    }

    /// Memory of mutable memtables (reported, not yet scheduled for freeing).
    pub fn mutable_memtable_memory_usage(&self) -> usize {
        self.memory_active.load(Ordering::Relaxed)
    }

    /// Bytes currently charged to the cache by dummy entries (0 without a cache).
    pub fn dummy_entries_in_cache_usage(&self) -> usize {
        self.reservation
            .as_ref()
            .map_or(0, |r| r.lock().reserved_bytes())
    }

    /// The budget in bytes (0: none).
    pub fn buffer_size(&self) -> usize {
        self.buffer_size.load(Ordering::Relaxed)
    }

    /// Changes the budget; may end a stall.
    pub fn set_buffer_size(&self, buffer_size: usize) {
        self.buffer_size.store(buffer_size, Ordering::Relaxed);
        self.mutable_limit
            .store(mutable_limit(buffer_size), Ordering::Relaxed);
        self.maybe_end_write_stall();
    }

    /// Turns stalling on or off; turning it off ends a stall.
    pub fn set_allow_stall(&self, allow_stall: bool) {
        self.allow_stall.store(allow_stall, Ordering::Relaxed);
        self.maybe_end_write_stall();
    }

    /// A memtable allocated `mem` bytes.
    pub fn reserve_mem(&self, mem: usize) {
        if let Some(reservation) = &self.reservation {
            let mut reservation = reservation.lock();
            let used = self.memory_used.load(Ordering::Relaxed).saturating_add(mem);
            self.memory_used.store(used, Ordering::Relaxed);
            // A full strict cache refuses the charge; the memory is still counted.
            let _ = reservation.update(used);
        } else if self.enabled() {
            self.memory_used.fetch_add(mem, Ordering::Relaxed);
        }
        if self.enabled() {
            self.memory_active.fetch_add(mem, Ordering::Relaxed);
        }
    }

    /// A memtable of `mem` bytes became immutable and will be flushed: it no longer counts
    /// as mutable (it still counts in `memory_usage` until `free_mem`).
    pub fn schedule_free_mem(&self, mem: usize) {
        if self.enabled() {
            saturating_sub(&self.memory_active, mem);
        }
    }

    /// A memtable of `mem` bytes was released; may end a stall.
    pub fn free_mem(&self, mem: usize) {
        if let Some(reservation) = &self.reservation {
            let mut reservation = reservation.lock();
            let used = self.memory_used.load(Ordering::Relaxed).saturating_sub(mem);
            self.memory_used.store(used, Ordering::Relaxed);
            // Shrinking never fails.
            let _ = reservation.update(used);
        } else if self.enabled() {
            saturating_sub(&self.memory_used, mem);
        }
        self.maybe_end_write_stall();
    }

    /// Whether a memtable should be flushed to keep within the budget.
    pub fn should_flush(&self) -> bool {
        if !self.enabled() {
            return false;
        }
        let mutable = self.mutable_memtable_memory_usage();
        if mutable > self.mutable_limit.load(Ordering::Relaxed) {
            return true;
        }
        let size = self.buffer_size();
        self.memory_usage() >= size && mutable >= size / 2
    }

    /// Whether writers should wait: stalling is allowed and memory is at or above the
    /// budget, or a stall is already in progress.
    pub fn should_stall(&self) -> bool {
        if !self.allow_stall.load(Ordering::Relaxed) || !self.enabled() {
            return false;
        }
        self.is_stall_active() || self.is_stall_threshold_exceeded()
    }

    /// Whether writers are currently stalled.
    pub fn is_stall_active(&self) -> bool {
        self.stall_active.load(Ordering::Relaxed)
    }

    /// Whether memory is at or above a nonzero budget.
    pub fn is_stall_threshold_exceeded(&self) -> bool {
        self.enabled() && self.memory_usage() >= self.buffer_size()
    }

    /// Starts a stall if writers should stall (RocksDB's `BeginWriteStall`); returns
    /// whether a stall is active.
    pub fn begin_write_stall(&self) -> bool {
        let _guard = self.stall.lock();
        if self.should_stall() {
            self.stall_active.store(true, Ordering::Relaxed);
        }
        self.is_stall_active()
    }

    /// Blocks the calling writer while writers should stall, starting a stall if needed.
    /// Returns `true` once writers may proceed, `false` if `timeout` passed first (a writer
    /// that must notice shutdown waits in slices and checks between them).
    pub fn wait_while_stalled(&self, timeout: Option<Duration>) -> bool {
        let deadline = timeout.map(|t| Instant::now() + t);
        let mut guard = self.stall.lock();
        if !self.should_stall() {
            return true;
        }
        self.stall_active.store(true, Ordering::Relaxed);
        while self.is_stall_active() {
            match deadline {
                Some(deadline) => {
                    if self
                        .stall_ended
                        .wait_until(&mut guard, deadline)
                        .timed_out()
                    {
                        return !self.is_stall_active();
                    }
                }
                None => self.stall_ended.wait(&mut guard),
            }
        }
        true
    }

    /// Ends the stall and wakes stalled writers, unless memory is still at the budget.
    pub fn maybe_end_write_stall(&self) {
        if self.allow_stall.load(Ordering::Relaxed) && self.is_stall_threshold_exceeded() {
            return;
        }
        let _guard = self.stall.lock();
        if !self.is_stall_active() {
            return;
        }
        self.stall_active.store(false, Ordering::Relaxed);
        self.stall_ended.notify_all();
    }
}

fn mutable_limit(buffer_size: usize) -> usize {
    buffer_size / 8 * 7 + buffer_size % 8 * 7 / 8
}

fn saturating_sub(counter: &AtomicUsize, n: usize) {
    // The closure never returns None, so the update cannot fail.
    let _ = counter.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |v| {
        Some(v.saturating_sub(n))
    });
}

/// Dummy entries pinned in a cache to charge it for memory used elsewhere (RocksDB's
/// `CacheReservationManager` in delayed-decrease mode).
struct CacheReservation {
    cache: Arc<LruCache>,
    /// Key prefix of this reservation's dummy entries.
    prefix: u64,
    /// Offset field of the next dummy key.
    next_key: u64,
    /// One shared value for all dummy entries.
    dummy: CacheValue,
    /// Pinned dummy entries; each charges `DUMMY_ENTRY_SIZE`.
    handles: Vec<Handle>,
}

impl CacheReservation {
    fn new(cache: Arc<LruCache>) -> Self {
        let prefix = cache.new_id();
        CacheReservation {
            cache,
            prefix,
            next_key: 0,
            dummy: Arc::new(DummyEntry),
            handles: Vec::new(),
        }
    }

    fn reserved_bytes(&self) -> usize {
        self.handles.len() * DUMMY_ENTRY_SIZE
    }

    /// Brings the reservation in line with `used` bytes.
    ///
    /// # Errors
    ///
    /// `Incomplete` when a strict cache refuses a dummy entry; the reservation then covers
    /// less than `used`.
    fn update(&mut self, used: usize) -> Result<()> {
        let reserved = self.reserved_bytes();
        if used > reserved {
            while used > self.reserved_bytes() {
                let key = CacheKey::new(self.prefix, DUMMY_FILE_NUMBER, self.next_key);
                self.next_key += 1;
                let handle = self.cache.insert(
                    key,
                    Arc::clone(&self.dummy),
                    DUMMY_ENTRY_SIZE,
                    Priority::Low,
                )?;
                self.handles.push(handle);
            }
        } else if used < reserved / 4 * 3 {
            while used + DUMMY_ENTRY_SIZE <= self.reserved_bytes() {
                match self.handles.pop() {
                    Some(handle) => handle.release_and_erase(),
                    None => break,
                }
            }
        }
        Ok(())
    }
}

impl Drop for CacheReservation {
    fn drop(&mut self) {
        for handle in self.handles.drain(..) {
            handle.release_and_erase();
        }
    }
}

#[cfg(test)]
#[path = "write_buffer_manager_tests.rs"]
mod tests;
