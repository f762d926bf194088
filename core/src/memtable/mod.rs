// SPDX-License-Identifier: Apache-2.0
//! The memtable: the in-memory, sorted buffer every write lands in before a flush turns it
//! into an L0 SST. On the write path (`add`, called by the write group leader), the read path
//! (`get`, `iter`) and the background path (flush reads `iter_all` and `range_tombstones`).
//!
//! # Design
//!
//! Entries live in a skiplist of our own (`skiplist`) whose nodes are runs of words in an
//! append-only arena (`arena`): node links, user key and trailer side by side, as in RocksDB's
//! `InlineSkipList`, and the value in blocks of its own (so that nodes stay dense), so an
//! insert allocates nothing from the heap (but the arena's blocks, up to a few MiB at a
//! time, past the first few MiB in transparent huge pages) and a search costs about one cache miss per node it visits. Ordering is the `InternalKeyComparator`'s: user key ascending by the user
//! comparator, then the packed `(seq << 8) | type` trailer descending, so the newest version
//! of a user key comes first. With the default (bytewise) comparator keys compare as whole
//! big-endian words; any other comparator gets the key bytes.
//!
//! Concurrency: `add` takes `&self` and may be called from several threads; the skiplist
//! serializes writers with a mutex (in practice one thread, the write leader, inserts).
//! Readers take no lock and never block writers. An entry becomes visible to `get` once `add`
//! returns; callers make it visible to users by publishing its sequence number only after
//! the insert finished, so a reader with snapshot `s` never misses an entry with seq `<= s`.
//! Nothing is ever removed: the whole memtable is dropped at once after its flush.
//!
//! Duplicates: if `add` is called twice with the same internal key (same user key, sequence
//! and type), the first entry wins and the second is ignored (not counted either). RocksDB
//! never produces such duplicates on the write path.
//!
//! Range deletions are stored twice: as skiplist entries (key = range start, value = exclusive
//! end, type `RangeDeletion`) so a flush can write them out in key order (`iter_all`), and in
//! a plain list (`range_tombstones`) for the read path. `get` and `iter` skip them.
//!
//! Memory: `approximate_memory_usage` is the arena words the entries take (about 24 bytes
//! plus key and value rounded up to words, per entry) plus the block tails left unused when
//! an entry did not fit, which is what `write_buffer_size` is compared with; the arena's
//! blocks are allocated as needed, so the resident memory follows it within one block.
//!
//! The alternative used before, `crossbeam_skiplist::SkipSet` with a heap buffer per entry,
//! needed two allocations per insert (and as many frees at drop), epoch pinning and
//! reference counting per step, and a pointer chase per key comparison; the arena needs none
//! of these, and its only unsafe code is the mapping of its large blocks
//! (`util::huge_pages`; the words are atomics).

mod arena;
mod iter;
mod skiplist;

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering as AtomicOrdering};
use std::sync::Arc;

use parking_lot::Mutex;

use crate::error::Result;
use crate::key::{
    pack_seq_and_type, unpack_seq_and_type, InternalKeyComparator, SequenceNumber, ValueType,
    VALUE_TYPE_FOR_SEEK,
};
use crate::range_del::RangeTombstone;

pub use iter::MemTableIterator;
use skiplist::{Order, Probe, SkipList};

thread_local! {
    /// A reusable buffer for the values `get` hands to its callback.
    static VALUE_BUF: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Write-side counters. All relaxed atomics: they are statistics, read by flush decisions
/// and properties, never used to order memory.
struct Stats {
    memory: AtomicUsize,
    entries: AtomicU64,
    deletes: AtomicU64,
    range_deletes: AtomicU64,
    /// `u64::MAX` while empty.
    first_seq: AtomicU64,
    largest_seq: AtomicU64,
}

/// An in-memory sorted buffer of internal entries. `Send + Sync`; shared as `Arc<MemTable>`.
/// See the module docs for the design.
pub struct MemTable {
    icmp: InternalKeyComparator,
    list: SkipList,
    /// Copies of the range deletions, in insertion order. Guarded by its mutex.
    tombstones: Mutex<Vec<RangeTombstone>>,
    /// Set (release) after a tombstone is pushed; lets readers skip the mutex when false.
    has_tombstones: AtomicBool,
    stats: Stats,
}

impl std::fmt::Debug for MemTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemTable")
            .field("num_entries", &self.num_entries())
            .field("memory", &self.approximate_memory_usage())
            .finish()
    }
}

impl MemTable {
    pub fn new(icmp: InternalKeyComparator) -> Self {
        let order = if icmp.user_comparator().is_bytewise() {
            Order::Bytewise
        } else {
            Order::Custom(Arc::clone(icmp.user_comparator()))
        };
        MemTable {
            icmp,
            list: SkipList::new(order),
            tombstones: Mutex::new(Vec::new()),
            has_tombstones: AtomicBool::new(false),
            stats: Stats {
                memory: AtomicUsize::new(0),
                entries: AtomicU64::new(0),
                deletes: AtomicU64::new(0),
                range_deletes: AtomicU64::new(0),
                first_seq: AtomicU64::new(u64::MAX),
                largest_seq: AtomicU64::new(0),
            },
        }
    }

    pub fn comparator(&self) -> &InternalKeyComparator {
        &self.icmp
    }

    /// Inserts one entry; safe to call from several threads at once.
    ///
    /// `t` is `Value`, `Deletion`, `SingleDeletion`, `Merge` or `RangeDeletion` (then `key` is
    /// the range start and `value` its exclusive end). An exact duplicate of an existing
    /// internal key is ignored.
    ///
    /// # Errors
    /// InvalidArgument for a key or value of 4 GiB or more (a write batch refuses those
    /// first); Aborted when the arena cannot grow (only past some 2^37 words).
    pub fn add(&self, seq: SequenceNumber, t: ValueType, key: &[u8], value: &[u8]) -> Result<()> {
        let Some(bytes) = self.list.insert(key, pack_seq_and_type(seq, t), value)? else {
            return Ok(());
        };
        if t == ValueType::RangeDeletion {
            self.tombstones.lock().push(RangeTombstone {
                start: key.to_vec(),
                end: value.to_vec(),
                seq,
            });
            self.has_tombstones.store(true, AtomicOrdering::Release);
        }
        let s = &self.stats;
        s.memory.fetch_add(bytes, AtomicOrdering::Relaxed);
        s.entries.fetch_add(1, AtomicOrdering::Relaxed);
        match t {
            ValueType::Deletion | ValueType::SingleDeletion | ValueType::DeletionWithTimestamp => {
                s.deletes.fetch_add(1, AtomicOrdering::Relaxed);
            }
            ValueType::RangeDeletion => {
                s.range_deletes.fetch_add(1, AtomicOrdering::Relaxed);
            }
            _ => {}
        }
        // Plain loads first: with one writer and increasing sequences the RMWs are skipped.
        if seq < s.first_seq.load(AtomicOrdering::Relaxed) {
            s.first_seq.fetch_min(seq, AtomicOrdering::Relaxed);
        }
        if seq > s.largest_seq.load(AtomicOrdering::Relaxed) {
            s.largest_seq.fetch_max(seq, AtomicOrdering::Relaxed);
        }
        Ok(())
    }

    /// Calls `f(seq, type, value)` for the entries of `user_key` with `seq <= read_seq`,
    /// newest first, skipping range deletions, until `f` returns false or they run out.
    pub fn get(
        &self,
        user_key: &[u8],
        read_seq: SequenceNumber,
        f: &mut dyn FnMut(SequenceNumber, ValueType, &[u8]) -> bool,
    ) {
        let probe = Probe::new(user_key, pack_seq_and_type(read_seq, VALUE_TYPE_FOR_SEEK));
        let mut r = self.list.seek_ge(&probe);
        if r == 0 || !self.list.same_user_key(r, &probe) {
            return;
        }
        let mut value = VALUE_BUF.with(|c| c.take());
        while r != 0 && self.list.same_user_key(r, &probe) {
            let (seq, t) = unpack_seq_and_type(self.list.trailer(r));
            match ValueType::from_u8(t) {
                Some(ValueType::RangeDeletion) | None => {}
                Some(vt) => {
                    self.list.value_into(r, &mut value);
                    if !f(seq, vt, &value) {
                        break;
                    }
                }
            }
            r = self.list.next(r);
        }
        VALUE_BUF.with(|c| c.set(value));
    }

    /// A cursor over every entry except range deletions. Holds an `Arc` to the memtable.
    pub fn iter(self: &Arc<Self>) -> MemTableIterator {
        MemTableIterator::new(Arc::clone(self), false)
    }

    /// A cursor over every entry including range deletions (key = start, value = end), in
    /// internal key order; for flush.
    pub fn iter_all(self: &Arc<Self>) -> MemTableIterator {
        MemTableIterator::new(Arc::clone(self), true)
    }

    /// A copy of the range deletions added so far, in insertion order.
    pub fn range_tombstones(&self) -> Vec<RangeTombstone> {
        if !self.has_range_tombstones() {
            return Vec::new();
        }
        self.tombstones.lock().clone()
    }

    pub fn has_range_tombstones(&self) -> bool {
        self.has_tombstones.load(AtomicOrdering::Acquire)
    }

    /// The arena bytes the entries take (see the module docs); compared with
    /// `write_buffer_size` to decide when to switch memtables.
    pub fn approximate_memory_usage(&self) -> usize {
        self.stats.memory.load(AtomicOrdering::Relaxed)
    }

    /// Entries added, all types (range deletions included).
    pub fn num_entries(&self) -> u64 {
        self.stats.entries.load(AtomicOrdering::Relaxed)
    }

    /// Point deletions (`Deletion`, `SingleDeletion`) added.
    pub fn num_deletes(&self) -> u64 {
        self.stats.deletes.load(AtomicOrdering::Relaxed)
    }

    pub fn num_range_deletes(&self) -> u64 {
        self.stats.range_deletes.load(AtomicOrdering::Relaxed)
    }

    pub fn is_empty(&self) -> bool {
        self.num_entries() == 0
    }

    /// The smallest sequence number added, or `None` while empty.
    pub fn first_seq(&self) -> Option<SequenceNumber> {
        let s = self.stats.first_seq.load(AtomicOrdering::Relaxed);
        (s != u64::MAX).then_some(s)
    }

    /// The largest sequence number added (0 while empty).
    pub fn largest_seq(&self) -> SequenceNumber {
        self.stats.largest_seq.load(AtomicOrdering::Relaxed)
    }
}

#[cfg(test)]
mod tests;
