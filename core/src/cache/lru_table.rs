// SPDX-License-Identifier: Apache-2.0
//! One LRU shard's hash table: key hash → (slot, value), open addressing with linear
//! probing. Read path (every block cache lookup) and write path (inserts, evictions); it
//! runs under the shard's mutex like the rest of the shard.
//!
//! # Why not `std::collections::HashMap`
//!
//! On a cache much larger than the CPU caches, a lookup is a chain of cache misses, and
//! std's table (hashbrown) starts the chain with two: its control bytes, then the bucket
//! they point at. Here a bucket is 32 bytes, two to a cache line, and holds the key's full
//! 64-bit hash, the entry's slot and a reference to its value; a lookup's first load is the
//! bucket itself, and the key comparison (against the node, which the caller reads anyway)
//! and the value's reference count are loads the CPU makes at the same time.
//!
//! The table does not hold keys: equal hashes are confirmed by the caller's `matches`
//! (which compares the node's key), so a 64-bit collision costs a comparison, never a wrong
//! answer. At most half the buckets are used (the table doubles past that), so probe runs
//! are short; a removal shifts the run after it back (no tombstones).

use super::lru::CacheValue;

/// Buckets of a new table (RocksDB's `LRUHandleTable` starts with 16 as well).
const MIN_BUCKETS: usize = 16;

/// What the table maps a key to: the entry's slot, and a second reference to its value.
///
/// The copy of the value is there for `lookup`: the value's reference count (in the block
/// it points at, which the caller reads next) can be loaded at the same time as the node
/// instead of after it. The node's copy decides when the value is freed: the table's copy is
/// always dropped first.
pub(super) struct TableEntry {
    pub(super) slot: u32,
    pub(super) value: CacheValue,
}

/// Aligned to its size, so that no bucket straddles two cache lines (the allocator only
/// promises 16 bytes).
#[derive(Default)]
#[repr(align(32))]
struct Bucket {
    hash: u64,
    /// `None` when the bucket is free.
    entry: Option<TableEntry>,
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
    /// With `touch_value`, each candidate's value is loaded before `matches` runs (for
    /// `get`, whose caller reads the value next).
    fn find(
        &self,
        hash: u64,
        touch_value: bool,
        mut matches: impl FnMut(u32) -> bool,
    ) -> Option<usize> {
        let mask = self.mask();
        let mut i = hash as usize & mask;
        loop {
            let b = &self.buckets[i];
            let entry = b.entry.as_ref()?;
            if b.hash == hash {
                if touch_value {
                    // A plain load of the value's reference count, before `matches` loads
                    // the node: the two cache misses overlap, and the caller's increment of
                    // the count (a locked instruction, which waits for every load before
                    // it) then finds the line in cache.
                    std::hint::black_box(std::sync::Arc::strong_count(&entry.value));
                }
                if matches(entry.slot) {
                    return Some(i);
                }
            }
            i = (i + 1) & mask;
        }
    }

    pub(super) fn get(&self, hash: u64, matches: impl FnMut(u32) -> bool) -> Option<&TableEntry> {
        let i = self.find(hash, true, matches)?;
        self.buckets[i].entry.as_ref()
    }

    /// Maps the key to `entry`; returns the entry it replaces (the one `matches` accepts).
    pub(super) fn insert(
        &mut self,
        hash: u64,
        entry: TableEntry,
        matches: impl FnMut(u32) -> bool,
    ) -> Option<TableEntry> {
        if let Some(i) = self.find(hash, false, matches) {
            return self.buckets[i].entry.replace(entry);
        }
        if (self.len + 1) * 2 > self.buckets.len() {
            self.grow();
        }
        self.place(hash, entry);
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
        let removed = self.buckets[hole].entry.take();
        self.len -= 1;
        // Backward shift: move each later entry of the run into the hole if its home bucket
        // is not between the hole and where it sits (cyclically).
        let mask = self.mask();
        let mut j = (hole + 1) & mask;
        while self.buckets[j].entry.is_some() {
            let home = self.buckets[j].hash as usize & mask;
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

    /// Every entry with its hash, in bucket order.
    #[cfg(test)]
    pub(super) fn iter(&self) -> impl Iterator<Item = (u64, &TableEntry)> {
        self.buckets
            .iter()
            .filter_map(|b| b.entry.as_ref().map(|e| (b.hash, e)))
    }

    /// Puts an entry whose key is not in the table into the first free bucket of its run.
    fn place(&mut self, hash: u64, entry: TableEntry) {
        let mask = self.mask();
        let mut i = hash as usize & mask;
        while self.buckets[i].entry.is_some() {
            i = (i + 1) & mask;
        }
        self.buckets[i] = Bucket {
            hash,
            entry: Some(entry),
        };
    }

    fn grow(&mut self) {
        let bigger = (0..self.buckets.len() * 2)
            .map(|_| Bucket::default())
            .collect();
        let old = std::mem::replace(&mut self.buckets, bigger);
        for b in old.into_vec() {
            if let Some(entry) = b.entry {
                self.place(b.hash, entry);
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
        assert_eq!(t.get(7, |s| s == 2).map(|e| e.slot), Some(2));
        assert_eq!(t.get(7, |s| s == 1).map(|e| e.slot), Some(1));
        assert!(t.get(7, |s| s == 3).is_none());
        assert_eq!(t.remove(7, |s| s == 1).map(|e| e.slot), Some(1));
        assert_eq!(t.get(7, |s| s == 2).map(|e| e.slot), Some(2));
        assert_eq!(t.len(), 1);
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
                        let e = TableEntry { slot, value: Arc::new(v) };
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
                    .map(|e| *e.value.downcast_ref::<u32>().expect("u32"));
                prop_assert_eq!(got, model.get(&k).copied());
            }
            prop_assert_eq!(t.iter().count(), model.len());
        }
    }
}
