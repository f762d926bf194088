// SPDX-License-Identifier: Apache-2.0
//! The memtable: the in-memory, sorted, concurrently writable buffer every write lands in
//! before a flush turns it into an L0 SST. On the write path (`add`, called by the write
//! group's inserters), the read path (`get`, `iter`) and the background path (flush reads
//! `iter_all` and `range_tombstones`).
//!
//! # Design
//!
//! Entries live in a lock-free skiplist (`crossbeam_skiplist::SkipSet`). Each element owns one
//! heap buffer `internal_key ++ value` and is immutable once inserted; nothing is ever
//! removed, the whole memtable is dropped at once after its flush. Ordering is the
//! `InternalKeyComparator`'s: user key ascending by the user comparator, then the packed
//! `(seq << 8) | type` trailer descending, so the newest version of a user key comes first.
//!
//! `SkipSet` needs `Ord` elements, so the comparator has to be reachable from the element:
//!
//! - `BytewiseEntry` (the default comparator, the hot case) needs no comparator at all. It
//!   also caches the first 8 user-key bytes as a big-endian integer inline in the skiplist
//!   node, so most comparisons during a search decide without following the pointer to the
//!   key buffer (one cache miss per visited node instead of two).
//! - `CustomEntry` carries an `Arc<dyn Comparator>` next to the bytes, for user comparators
//!   (for example a reverse comparator); it costs 16 bytes and a dynamic call per compare.
//!
//! The two are kept apart by an enum over two skiplists (`Table`), so the bytewise path has
//! no per-compare branch on the comparator.
//!
//! Concurrency: `add` takes `&self` and may run on several threads at once (the skiplist is
//! lock-free; counters are relaxed atomics; range tombstones go to a mutex-guarded list,
//! which is rare). Readers never block writers. An entry becomes visible to `get` once `add`
//! returns; callers make it visible to users by publishing its sequence number only after
//! the insert finished, so a reader with snapshot `s` never misses an entry with seq `<= s`.
//!
//! Duplicates: if `add` is called twice with the same internal key (same user key, sequence
//! and type), the first entry wins and the second is ignored (not counted either). RocksDB
//! never produces such duplicates on the write path.
//!
//! Range deletions are stored twice: as skiplist entries (key = range start, value = exclusive
//! end, type `RangeDeletion`) so a flush can write them out in key order (`iter_all`), and in
//! a plain list (`range_tombstones`) for the read path. `get` and `iter` skip them.
//!
//! Alternative rejected: an arena skiplist like RocksDB's `InlineSkipList` packs node, key and
//! value in one arena allocation, but needs unsafe code, which `core` forbids.

mod iter;

use std::cmp::Ordering;
use std::ops::Bound;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering as AtomicOrdering};
use std::sync::Arc;

use crossbeam_skiplist::SkipSet;
use parking_lot::Mutex;

use crate::key::internal_key::{trailer, user_key};
use crate::key::{
    append_internal_key, unpack_seq_and_type, Comparator, InternalKeyComparator, SequenceNumber,
    ValueType, VALUE_TYPE_FOR_SEEK,
};
use crate::range_del::RangeTombstone;

pub use iter::MemTableIterator;

/// Accounted per entry on top of key and value bytes: the skiplist element, the node header
/// and tower (about 1.33 links on average), and two allocator headers.
const ENTRY_OVERHEAD: usize = 64;

/// One skiplist element: the contract the two key representations share.
trait MemEntry: Ord + Send + Sync + 'static + Sized {
    /// Wraps `buf = internal_key ++ value` with the internal key `klen` bytes long.
    fn from_buf(buf: Vec<u8>, klen: usize, icmp: &InternalKeyComparator) -> Self;
    /// Internal key and value.
    fn parts(&self) -> (&[u8], &[u8]);
    /// Returns the buffer, to reuse a probe's allocation.
    fn into_buf(self) -> Vec<u8>;
}

/// Owned `internal_key ++ value`, the storage behind both element types.
struct Buf {
    bytes: Vec<u8>,
    klen: usize,
}

impl Buf {
    #[inline]
    fn ikey(&self) -> &[u8] {
        self.bytes.get(..self.klen).unwrap_or(&[])
    }
    #[inline]
    fn parts(&self) -> (&[u8], &[u8]) {
        if self.klen <= self.bytes.len() {
            self.bytes.split_at(self.klen)
        } else {
            (&[], &[])
        }
    }
}

/// Element for the bytewise comparator.
struct BytewiseEntry {
    /// The first (up to) 8 bytes of the user key, big-endian, zero-padded. When two prefixes
    /// differ their order is the user keys' order (a zero pad byte only differs from a
    /// non-zero byte of a longer key, which then sorts after); when equal, compare in full.
    prefix: u64,
    buf: Buf,
}

fn user_key_prefix(ikey: &[u8]) -> u64 {
    let uk = user_key(ikey);
    let mut p = [0u8; 8];
    let n = uk.len().min(8);
    p[..n].copy_from_slice(&uk[..n]);
    u64::from_be_bytes(p)
}

impl MemEntry for BytewiseEntry {
    fn from_buf(bytes: Vec<u8>, klen: usize, _icmp: &InternalKeyComparator) -> Self {
        let buf = Buf { bytes, klen };
        BytewiseEntry {
            prefix: user_key_prefix(buf.ikey()),
            buf,
        }
    }
    fn parts(&self) -> (&[u8], &[u8]) {
        self.buf.parts()
    }
    fn into_buf(self) -> Vec<u8> {
        self.buf.bytes
    }
}

impl Ord for BytewiseEntry {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        match self.prefix.cmp(&other.prefix) {
            Ordering::Equal => {}
            o => return o,
        }
        let (a, b) = (self.buf.ikey(), other.buf.ikey());
        match user_key(a).cmp(user_key(b)) {
            Ordering::Equal => trailer(b).cmp(&trailer(a)),
            o => o,
        }
    }
}
impl PartialOrd for BytewiseEntry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl PartialEq for BytewiseEntry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for BytewiseEntry {}

/// Element for any other user comparator.
struct CustomEntry {
    cmp: Arc<dyn Comparator>,
    buf: Buf,
}

impl MemEntry for CustomEntry {
    fn from_buf(bytes: Vec<u8>, klen: usize, icmp: &InternalKeyComparator) -> Self {
        CustomEntry {
            cmp: Arc::clone(icmp.user_comparator()),
            buf: Buf { bytes, klen },
        }
    }
    fn parts(&self) -> (&[u8], &[u8]) {
        self.buf.parts()
    }
    fn into_buf(self) -> Vec<u8> {
        self.buf.bytes
    }
}

impl Ord for CustomEntry {
    fn cmp(&self, other: &Self) -> Ordering {
        let (a, b) = (self.buf.ikey(), other.buf.ikey());
        match self.cmp.compare(user_key(a), user_key(b)) {
            Ordering::Equal => trailer(b).cmp(&trailer(a)),
            o => o,
        }
    }
}
impl PartialOrd for CustomEntry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl PartialEq for CustomEntry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for CustomEntry {}

/// The skiplist, specialised by comparator kind.
enum Table {
    Bytewise(SkipSet<BytewiseEntry>),
    Custom(SkipSet<CustomEntry>),
}

/// Runs `$body` with `$set` bound to the memtable's skiplist, whichever kind it is.
macro_rules! with_table {
    ($table:expr, $set:ident => $body:expr) => {
        match $table {
            $crate::memtable::Table::Bytewise($set) => $body,
            $crate::memtable::Table::Custom($set) => $body,
        }
    };
}
use with_table;

thread_local! {
    /// A reusable buffer for `get`'s seek key, so a lookup does not allocate.
    static PROBE_BUF: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
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
    /// Lock-free; entries are only ever added.
    table: Table,
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
        let table = if icmp.user_comparator().is_bytewise() {
            Table::Bytewise(SkipSet::new())
        } else {
            Table::Custom(SkipSet::new())
        };
        MemTable {
            icmp,
            table,
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
    pub fn add(&self, seq: SequenceNumber, t: ValueType, key: &[u8], value: &[u8]) {
        let klen = key.len() + 8;
        let mut bytes = Vec::with_capacity(klen + value.len());
        append_internal_key(&mut bytes, key, seq, t);
        bytes.extend_from_slice(value);
        let inserted = with_table!(&self.table, set => insert_into(set, bytes, klen, &self.icmp));
        if !inserted {
            return;
        }
        if t == ValueType::RangeDeletion {
            self.tombstones.lock().push(RangeTombstone {
                start: key.to_vec(),
                end: value.to_vec(),
                seq,
            });
            self.has_tombstones.store(true, AtomicOrdering::Release);
        }
        let s = &self.stats;
        s.memory
            .fetch_add(klen + value.len() + ENTRY_OVERHEAD, AtomicOrdering::Relaxed);
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
    }

    /// Calls `f(seq, type, value)` for the entries of `user_key` with `seq <= read_seq`,
    /// newest first, skipping range deletions, until `f` returns false or they run out.
    pub fn get(
        &self,
        user_key: &[u8],
        read_seq: SequenceNumber,
        f: &mut dyn FnMut(SequenceNumber, ValueType, &[u8]) -> bool,
    ) {
        let mut probe = PROBE_BUF.with(|c| c.take());
        probe.clear();
        append_internal_key(&mut probe, user_key, read_seq, VALUE_TYPE_FOR_SEEK);
        let probe = with_table!(&self.table, set => get_in(set, probe, user_key, &self.icmp, f));
        PROBE_BUF.with(|c| c.set(probe));
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

    /// Key and value bytes plus a per-entry estimate of the skiplist's and allocator's
    /// overhead; compared with `write_buffer_size` to decide when to switch memtables.
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

/// Inserts unless an equal element exists; returns whether this call inserted.
fn insert_into<E: MemEntry>(
    set: &SkipSet<E>,
    bytes: Vec<u8>,
    klen: usize,
    icmp: &InternalKeyComparator,
) -> bool {
    // The heap buffer does not move when the element is moved into the node, so comparing
    // the stored element's buffer address with ours tells whether ours was kept.
    let ours = bytes.as_ptr();
    let entry = set.get_or_insert(E::from_buf(bytes, klen, icmp));
    std::ptr::eq(entry.value().parts().0.as_ptr(), ours)
}

fn get_in<E: MemEntry>(
    set: &SkipSet<E>,
    probe: Vec<u8>,
    ukey: &[u8],
    icmp: &InternalKeyComparator,
    f: &mut dyn FnMut(SequenceNumber, ValueType, &[u8]) -> bool,
) -> Vec<u8> {
    let klen = probe.len();
    let probe = E::from_buf(probe, klen, icmp);
    let mut cur = set.lower_bound(Bound::Included(&probe));
    let probe = probe.into_buf();
    while let Some(e) = cur {
        let (ikey, value) = e.value().parts();
        if icmp.compare_user(user_key(ikey), ukey) != Ordering::Equal {
            break;
        }
        let (seq, t) = unpack_seq_and_type(trailer(ikey));
        match ValueType::from_u8(t) {
            Some(ValueType::RangeDeletion) | None => {}
            Some(vt) => {
                if !f(seq, vt, value) {
                    break;
                }
            }
        }
        cur = e.next();
    }
    probe
}

#[cfg(test)]
mod tests;
