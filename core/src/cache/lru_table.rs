// SPDX-License-Identifier: Apache-2.0
//! One LRU shard's hash table: key hash → (slot, value, prefetch hint), open addressing with
//! linear probing. Read path (every block cache lookup) and write path (inserts, evictions); it
//! runs under the shard's mutex like the rest of the shard.
//!
//! # Why not `std::collections::HashMap`
//!
//! On a cache much larger than the CPU caches, a lookup is a chain of cache misses, and
//! std's table (hashbrown) starts the chain with two: its control bytes, then the bucket
//! they point at. Here a bucket is 32 bytes, two to a cache line, and holds the low 32 bits
//! of the key's hash, the entry's slot, a reference to its value and the value's prefetch
//! hint; a lookup's first load is the bucket itself, and the key comparison (against the
//! node, which the caller reads anyway), the value's reference count and the line the hint
//! names are loads the CPU makes at the same time.
//!
//! The hint is an address the inserter expects the reader of the value to need right after
//! the lookup, one dependent load past the value's header: for a data block, its restart
//! array (see `sst::reader`). With it go the first `HINTED_VALUE_BYTES` of the value itself
//! (a data block's description, with its restart words). Asking for them from the bucket
//! takes one cache miss off the chain of a block lookup (bucket, block header, restart
//! array). The hint is only ever prefetched, never read, so a stale or zero hint costs
//! nothing but the prefetch.
//!
//! The table does not hold keys: equal hashes are confirmed by the caller's `matches`
//! (which compares the node's key), so a collision of the stored bits costs a comparison,
//! never a wrong answer. The home bucket is taken from the same 32 bits, so a table past
//! 2^32 buckets (128 GiB of them) would no longer spread its entries over all of them. At
//! most half the buckets are used (the table doubles past that), so probe runs are short; a
//! removal shifts the run after it back (no tombstones).

use super::lru::CacheValue;
use crate::util::prefetch::prefetch_line;

/// How much of a value with a prefetch hint a lookup starts loading besides the hinted line:
/// a data block's description (`sst::block::Block`, which holds its restart words).
const HINTED_VALUE_BYTES: usize = 128;

/// Buckets of a new table (RocksDB's `LRUHandleTable` starts with 16 as well).
const MIN_BUCKETS: usize = 16;

/// What the table maps a key to: the entry's slot, a second reference to its value, and
/// the value's prefetch hint.
///
/// The copy of the value is there for `lookup`: the value's reference count (in the block
/// it points at, which the caller reads next) can be loaded at the same time as the node
/// instead of after it. The node's copy decides when the value is freed: the table's copy is
/// always dropped first.
pub(super) struct TableEntry {
    pub(super) slot: u32,
    pub(super) value: CacheValue,
    /// An address to prefetch when a lookup finds the entry (0: none).
    pub(super) hint: usize,
}

/// Aligned to its size, so that no bucket straddles two cache lines (the allocator only
/// promises 16 bytes). A [`TableEntry`] spread out, so that the four fields fit 32 bytes.
#[derive(Default)]
#[repr(align(32))]
struct Bucket {
    /// The hash's low 32 bits.
    tag: u32,
    slot: u32,
    /// `None` when the bucket is free.
    value: Option<CacheValue>,
    hint: usize,
}

impl Bucket {
    fn from_entry(tag: u32, entry: TableEntry) -> Bucket {
        Bucket {
            tag,
            slot: entry.slot,
            value: Some(entry.value),
            hint: entry.hint,
        }
    }

    fn take(&mut self) -> Option<TableEntry> {
        let value = self.value.take()?;
        Some(TableEntry {
            slot: self.slot,
            value,
            hint: self.hint,
        })
    }

    fn home(&self, mask: usize) -> usize {
        self.tag as usize & mask
    }
}

/// The part of a hash a bucket keeps.
fn tag(hash: u64) -> u32 {
    hash as u32
}

pub(super) struct EntryTable {
    buckets: Box<[Bucket]>,
    len: usize,
}

impl EntryTable {
    pub(super) fn new() -> Self {
        EntryTable {
            buckets: (0..MIN_BUCKETS).map(|_| Bucket::default()).collect(),
            len: 0,
        }
    }

    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The number of buckets: at least twice the entries. The table never shrinks.
    pub(super) fn capacity(&self) -> usize {
        self.buckets.len()
    }

    fn mask(&self) -> usize {
        self.buckets.len() - 1
    }

    /// The size of a bucket, for [`Self::bucket_hint`].
    pub(super) const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>();

    /// The address of the first bucket and the mask that picks a hash's home bucket: enough
    /// to prefetch the bucket a lookup of a hash reads first (valid until the table grows).
    pub(super) fn bucket_hint(&self) -> (usize, usize) {
        (self.buckets.as_ptr().addr(), self.mask())
    }

    /// The bucket that holds the entry `matches` accepts among those with `hash`, if any.
    /// With `touch_value`, each candidate's hint is prefetched and its value loaded before
    /// `matches` runs (for `get`, whose caller reads the value next).
    fn find(
        &self,
        hash: u64,
        touch_value: bool,
        mut matches: impl FnMut(u32) -> bool,
    ) -> Option<usize> {
        let mask = self.mask();
        let tag = tag(hash);
        let mut i = tag as usize & mask;
        loop {
            let b = &self.buckets[i];
            let value = b.value.as_ref()?;
            if b.tag == tag {
                if touch_value {
                    if b.hint != 0 {
                        prefetch_line(std::ptr::without_provenance(b.hint));
                        // A hinted value's reader also reads its first `HINTED_VALUE_BYTES`
                        // (the load below brings the line of the reference count only).
                        let v = std::sync::Arc::as_ptr(value).cast::<u8>();
                        prefetch_line(v.wrapping_add(64));
                        prefetch_line(v.wrapping_add(HINTED_VALUE_BYTES - 1));
                    }
                    // A plain load of the value's reference count, before `matches` loads
                    // the node: the two cache misses overlap, and the caller's increment of
                    // the count (a locked instruction, which waits for every load before
                    // it) then finds the line in cache.
                    std::hint::black_box(std::sync::Arc::strong_count(value));
                }
                if matches(b.slot) {
                    return Some(i);
                }
            }
            i = (i + 1) & mask;
        }
    }

    /// The slot and value of the entry `matches` accepts among those with `hash`.
    pub(super) fn get(
        &self,
        hash: u64,
        matches: impl FnMut(u32) -> bool,
    ) -> Option<(u32, &CacheValue)> {
        let i = self.find(hash, true, matches)?;
        let b = &self.buckets[i];
        Some((b.slot, b.value.as_ref()?))
    }

    /// Maps the key to `entry`; returns the entry it replaces (the one `matches` accepts).
    pub(super) fn insert(
        &mut self,
        hash: u64,
        entry: TableEntry,
        matches: impl FnMut(u32) -> bool,
    ) -> Option<TableEntry> {
        if let Some(i) = self.find(hash, false, matches) {
            let old = self.buckets[i].take();
            self.buckets[i] = Bucket::from_entry(tag(hash), entry);
            return old;
        }
        if (self.len + 1) * 2 > self.buckets.len() {
            self.grow();
        }
        self.place(tag(hash), entry);
        self.len += 1;
        None
    }

    /// Removes and returns the entry `matches` accepts among those with `hash`.
    pub(super) fn remove(
        &mut self,
        hash: u64,
        matches: impl FnMut(u32) -> bool,
    ) -> Option<TableEntry> {
        let mut hole = self.find(hash, false, matches)?;
        let removed = self.buckets[hole].take();
        self.len -= 1;
        // Backward shift: move each later entry of the run into the hole if its home bucket
        // is not between the hole and where it sits (cyclically).
        let mask = self.mask();
        let mut j = (hole + 1) & mask;
        while self.buckets[j].value.is_some() {
            let home = self.buckets[j].home(mask);
            let distance_here = j.wrapping_sub(home) & mask;
            let distance_hole = j.wrapping_sub(hole) & mask;
            if distance_here >= distance_hole {
                self.buckets.swap(hole, j);
                hole = j;
            }
            j = (j + 1) & mask;
        }
        removed
    }

    /// Every entry's stored hash bits (a hash that finds it), slot and value, in bucket
    /// order.
    #[cfg(test)]
    pub(super) fn iter(&self) -> impl Iterator<Item = (u64, u32, &CacheValue)> + '_ {
        self.buckets
            .iter()
            .filter_map(|b| Some((u64::from(b.tag), b.slot, b.value.as_ref()?)))
    }

    /// Puts an entry whose key is not in the table into the first free bucket of its run.
    fn place(&mut self, tag: u32, entry: TableEntry) {
        let mask = self.mask();
        let mut i = tag as usize & mask;
        while self.buckets[i].value.is_some() {
            i = (i + 1) & mask;
        }
        self.buckets[i] = Bucket::from_entry(tag, entry);
    }

    fn grow(&mut self) {
        let bigger = (0..self.buckets.len() * 2)
            .map(|_| Bucket::default())
            .collect();
        let old = std::mem::replace(&mut self.buckets, bigger);
        for mut b in old.into_vec() {
            let tag = b.tag;
            if let Some(entry) = b.take() {
                self.place(tag, entry);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;
    use std::sync::Arc;

    fn entry(slot: u32) -> TableEntry {
        TableEntry {
            slot,
            value: Arc::new(slot),
            hint: 0,
        }
    }

    #[test]
    fn buckets_are_half_a_cache_line() {
        assert_eq!(std::mem::size_of::<Bucket>(), 32);
    }

    #[test]
    fn equal_hashes_are_told_apart_by_the_callers_match() {
        let mut t = EntryTable::new();
        // Slots 1 and 2 share a hash; the caller's key check picks between them.
        assert!(t.insert(7, entry(1), |s| s == 1).is_none());
        assert!(t.insert(7, entry(2), |s| s == 2).is_none());
        assert_eq!(t.get(7, |s| s == 2).map(|(s, _)| s), Some(2));
        assert_eq!(t.get(7, |s| s == 1).map(|(s, _)| s), Some(1));
        assert!(t.get(7, |s| s == 3).is_none());
        assert_eq!(t.remove(7, |s| s == 1).map(|e| e.slot), Some(1));
        assert_eq!(t.get(7, |s| s == 2).map(|(s, _)| s), Some(2));
        assert_eq!(t.len(), 1);
    }

    #[test]
    fn hints_stay_with_their_entries_through_growth_and_shifts() {
        let mut t = EntryTable::new();
        // Hashes crowded into few home buckets, so that removals shift runs back.
        let hash = |k: u32| u64::from(k % 5) | (u64::from(k) << 40);
        for k in 0..100 {
            let e = TableEntry {
                slot: k,
                value: Arc::new(k),
                hint: 0x1000 + k as usize,
            };
            assert!(t.insert(hash(k), e, |s| s == k).is_none());
        }
        assert!(t.capacity() >= 200, "the table grew");
        for k in (0..100).step_by(3) {
            let e = t.remove(hash(k), |s| s == k).expect("present");
            assert_eq!((e.slot, e.hint), (k, 0x1000 + k as usize));
        }
        for k in 0..100 {
            let found = t.get(hash(k), |s| s == k).map(|(s, _)| s);
            assert_eq!(found, (k % 3 != 0).then_some(k));
        }
        let replaced = t.insert(hash(1), entry(1), |s| s == 1).expect("replaces");
        assert_eq!(replaced.hint, 0x1001);
    }

    #[derive(Debug, Clone)]
    enum Op {
        Insert(u8, u32),
        Remove(u8),
    }

    fn ops() -> impl Strategy<Value = Vec<Op>> {
        prop::collection::vec(
            prop_oneof![
                (any::<u8>(), any::<u32>()).prop_map(|(k, v)| Op::Insert(k, v)),
                any::<u8>().prop_map(Op::Remove),
            ],
            0..400,
        )
    }

    proptest! {
        /// The table answers like a HashMap under any sequence of inserts and removals,
        /// with hashes crowded into few home buckets (runs wrap around the end) and some
        /// keys sharing a hash.
        #[test]
        fn behaves_like_a_map(ops in ops(), spread in 1u64..64) {
            // Key k's hash: few distinct home buckets, and pairs of keys share a hash.
            let hash = |k: u8| (u64::from(k / 2) % spread).wrapping_mul(0x9e37_79b9) | 0xff00;
            let mut t = EntryTable::new();
            let mut model: HashMap<u8, u32> = HashMap::new();
            // The caller's key store: slot -> key. Slots are unique per insert.
            let mut keys: Vec<u8> = Vec::new();
            for op in ops {
                match op {
                    Op::Insert(k, v) => {
                        let slot = u32::try_from(keys.len()).expect("small");
                        keys.push(k);
                        let e = TableEntry { slot, value: Arc::new(v), hint: 0 };
                        let old = t.insert(hash(k), e, |s| keys[s as usize] == k);
                        let old_v = old.map(|e| *e.value.downcast_ref::<u32>().expect("u32"));
                        prop_assert_eq!(old_v, model.insert(k, v));
                    }
                    Op::Remove(k) => {
                        let old = t.remove(hash(k), |s| keys[s as usize] == k);
                        let old_v = old.map(|e| *e.value.downcast_ref::<u32>().expect("u32"));
                        prop_assert_eq!(old_v, model.remove(&k));
                    }
                }
                prop_assert_eq!(t.len(), model.len());
                prop_assert!(t.len() * 2 <= t.capacity());
            }
            for k in 0..=u8::MAX {
                let got = t
                    .get(hash(k), |s| keys[s as usize] == k)
                    .map(|(_, v)| *v.downcast_ref::<u32>().expect("u32"));
                prop_assert_eq!(got, model.get(&k).copied());
            }
            prop_assert_eq!(t.iter().count(), model.len());
        }
    }
}
