// SPDX-License-Identifier: Apache-2.0
//! One shard of the LRU block cache: its table, its slab of entries and its LRU list with
//! priority pools (see `lru.rs` for the design). Read and write paths; every method runs
//! under the shard's mutex, except `Shard::prefetch`, which reads only the published copy
//! of the table's place.

use std::sync::atomic::{AtomicUsize, Ordering};

use parking_lot::Mutex;

use super::lru::{CacheKey, CacheStats, CacheValue, Priority};
use super::lru_table::{EntryTable, TableEntry};
use crate::util::prefetch::prefetch_line;

pub(super) struct Shard {
    pub(super) state: Mutex<ShardState>,
    /// Where the table's buckets start and its bucket mask, as of the last insert: copies
    /// read without the lock, only to prefetch a bucket (a stale copy costs a wasted load,
    /// never a wrong answer; see `util::prefetch`).
    bucket_base: AtomicUsize,
    bucket_mask: AtomicUsize,
}

impl Shard {
    pub(super) fn new(state: ShardState) -> Self {
        let shard = Shard {
            state: Mutex::new(state),
            bucket_base: AtomicUsize::new(0),
            bucket_mask: AtomicUsize::new(0),
        };
        shard.publish_table(&shard.state.lock());
        shard
    }

    /// Inserts under the lock (see [`ShardState::insert`]) and republishes the table's
    /// place, which a growth moves.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn insert(
        &self,
        key: CacheKey,
        value: CacheValue,
        hint: usize,
        charge: usize,
        priority: Priority,
        pin: bool,
        garbage: &mut Vec<CacheValue>,
    ) -> Option<u32> {
        let mut state = self.state.lock();
        let slot = state.insert(key, value, hint, charge, priority, pin, garbage);
        self.publish_table(&state);
        slot
    }

    fn publish_table(&self, state: &ShardState) {
        let (base, mask) = state.table.bucket_hint();
        self.bucket_base.store(base, Ordering::Relaxed);
        self.bucket_mask.store(mask, Ordering::Relaxed);
    }

    /// Starts loading the bucket where a lookup of `hash` begins.
    pub(super) fn prefetch(&self, hash: u64) {
        let base = self.bucket_base.load(Ordering::Relaxed);
        let mask = self.bucket_mask.load(Ordering::Relaxed);
        let at = base.wrapping_add((hash as usize & mask).wrapping_mul(EntryTable::BUCKET_BYTES));
        prefetch_line(std::ptr::without_provenance(at));
    }
}

/// Slot index of the LRU list's sentinel.
const HEAD: u32 = 0;

/// The bookkeeping of one entry: its slab node and two table buckets (the table is kept at
/// most half full). The cache adds it to each entry's charge (see "Metadata charge" in
/// `lru.rs`).
pub(super) const ENTRY_METADATA: usize = std::mem::size_of::<Node>() + 2 * EntryTable::BUCKET_BYTES;

struct Node {
    key: CacheKey,
    /// `Some` while the slot is in use.
    value: Option<CacheValue>,
    charge: usize,
    /// Live handles.
    refs: u32,
    /// LRU list links (slot indices); meaningful only while on the list.
    prev: u32,
    next: u32,
    priority: Priority,
    /// The table maps `key` to this slot.
    in_cache: bool,
    /// Looked up at least once since insertion.
    has_hit: bool,
    /// Borrowed (see [`ShardState::borrow`]) since it last went to the hot end of the list:
    /// eviction moves it there instead of evicting it.
    borrowed: bool,
    in_high_pool: bool,
    in_low_pool: bool,
}

impl Node {
    fn sentinel() -> Self {
        Node {
            key: CacheKey::new(0, 0, 0),
            value: None,
            charge: 0,
            refs: 0,
            prev: HEAD,
            next: HEAD,
            priority: Priority::Low,
            in_cache: false,
            has_hit: false,
            borrowed: false,
            in_high_pool: false,
            in_low_pool: false,
        }
    }
}

/// The table's key check: whether the node in a slot holds `key`.
fn holds<'a>(nodes: &'a [Node], key: &'a CacheKey) -> impl Fn(u32) -> bool + 'a {
    move |slot| nodes[slot as usize].key == *key
}

/// One shard. Everything is guarded by `Shard::state`.
pub(super) struct ShardState {
    pub(super) table: EntryTable,
    /// Slab of entries; `nodes[HEAD]` is the LRU list's sentinel: `nodes[HEAD].next` is the
    /// coldest entry, `nodes[HEAD].prev` the hottest.
    nodes: Vec<Node>,
    /// Unused slots of `nodes`.
    free_slots: Vec<u32>,
    /// Hottest entry of the low pool, or `bottom_pri` when the low pool is empty.
    low_pri: u32,
    /// Hottest entry of the bottom pool, or `HEAD` when it is empty.
    bottom_pri: u32,
    capacity: usize,
    pub(super) strict_capacity_limit: bool,
    pub(super) high_pri_pool_ratio: f64,
    low_pri_pool_ratio: f64,
    high_pri_pool_capacity: usize,
    low_pri_pool_capacity: usize,
    /// Charge of every live entry, pinned or not.
    pub(super) usage: usize,
    /// Charge of the entries on the LRU list.
    pub(super) lru_usage: usize,
    high_pri_pool_usage: usize,
    low_pri_pool_usage: usize,
    pub(super) stats: CacheStats,
}

impl ShardState {
    pub(super) fn new(capacity: usize, strict: bool, high_ratio: f64, low_ratio: f64) -> Self {
        let mut state = ShardState {
            table: EntryTable::new(),
            nodes: vec![Node::sentinel()],
            free_slots: Vec::new(),
            low_pri: HEAD,
            bottom_pri: HEAD,
            capacity: 0,
            strict_capacity_limit: strict,
            high_pri_pool_ratio: high_ratio,
            low_pri_pool_ratio: low_ratio,
            high_pri_pool_capacity: 0,
            low_pri_pool_capacity: 0,
            usage: 0,
            lru_usage: 0,
            high_pri_pool_usage: 0,
            low_pri_pool_usage: 0,
            stats: CacheStats::default(),
        };
        state.set_capacity(capacity, &mut Vec::new());
        state
    }

    fn node(&self, slot: u32) -> &Node {
        &self.nodes[slot as usize]
    }

    fn node_mut(&mut self, slot: u32) -> &mut Node {
        &mut self.nodes[slot as usize]
    }

    pub(super) fn set_capacity(&mut self, capacity: usize, garbage: &mut Vec<CacheValue>) {
        self.capacity = capacity;
        self.high_pri_pool_capacity = pool_capacity(capacity, self.high_pri_pool_ratio);
        self.low_pri_pool_capacity = pool_capacity(capacity, self.low_pri_pool_ratio);
        self.evict_from_lru(0, garbage);
        self.maintain_pool_size();
    }

    /// Returns the new entry's slot if it stayed in the cache (pinned when `pin`). `hint` is
    /// what a lookup prefetches (see `lru_table`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn insert(
        &mut self,
        key: CacheKey,
        value: CacheValue,
        hint: usize,
        charge: usize,
        priority: Priority,
        pin: bool,
        garbage: &mut Vec<CacheValue>,
    ) -> Option<u32> {
        self.evict_from_lru(charge, garbage);
        if self.usage.saturating_add(charge) > self.capacity && (self.strict_capacity_limit || !pin)
        {
            // Unpinned: as if inserted and evicted at once. Pinned (strict): refused.
            if pin {
                self.stats.insert_failures += 1;
            }
            garbage.push(value);
            return None;
        }
        let table_value = std::sync::Arc::clone(&value);
        let slot = self.alloc(Node {
            key,
            value: Some(value),
            charge,
            refs: u32::from(pin),
            prev: HEAD,
            next: HEAD,
            priority,
            in_cache: true,
            has_hit: false,
            borrowed: false,
            in_high_pool: false,
            in_low_pool: false,
        });
        self.usage += charge;
        self.stats.inserts += 1;
        let entry = TableEntry {
            slot,
            value: table_value,
            hint,
        };
        let replaced = self
            .table
            .insert(key.hash64(), entry, holds(&self.nodes, &key));
        if let Some(TableEntry { slot: old, .. }) = replaced {
            let node = self.node_mut(old);
            node.in_cache = false;
            if node.refs == 0 {
                self.lru_remove(old);
                self.usage -= self.node(old).charge;
                garbage.extend(self.free(old));
            }
        }
        if !pin {
            self.lru_insert(slot);
        }
        Some(slot)
    }

    pub(super) fn lookup(&mut self, key: &CacheKey) -> Option<(u32, CacheValue, usize)> {
        let Some((slot, value)) = self.table.get(key.hash64(), holds(&self.nodes, key)) else {
            self.stats.misses += 1;
            return None;
        };
        let value = std::sync::Arc::clone(value);
        self.stats.hits += 1;
        if self.node(slot).refs == 0 {
            self.lru_remove(slot);
        }
        let node = self.node_mut(slot);
        node.refs += 1;
        node.has_hit = true;
        Some((slot, value, node.charge))
    }

    /// A hit that does not pin: the entry stays where it is on the list, marked borrowed,
    /// and eviction gives it the move to the hot end that a pin's release would have (see
    /// `lru.rs`). The returned value is the caller's own reference.
    pub(super) fn borrow(&mut self, key: &CacheKey) -> Option<CacheValue> {
        let Some((slot, value)) = self.table.get(key.hash64(), holds(&self.nodes, key)) else {
            self.stats.misses += 1;
            return None;
        };
        let value = std::sync::Arc::clone(value);
        self.stats.hits += 1;
        let node = self.node_mut(slot);
        node.has_hit = true;
        // A pinned entry is off the list; its last release puts it at the hot end anyway.
        node.borrowed = node.refs == 0;
        Some(value)
    }

    pub(super) fn pin_again(&mut self, slot: u32) {
        self.node_mut(slot).refs += 1;
    }

    /// Drops one pin; returns the value to drop outside the lock if the entry was freed.
    pub(super) fn release(&mut self, slot: u32, erase_if_last: bool) -> Option<CacheValue> {
        let node = self.node_mut(slot);
        node.refs -= 1;
        if node.refs > 0 {
            return None;
        }
        let (in_cache, key) = (node.in_cache, node.key);
        if in_cache {
            if self.usage > self.capacity || erase_if_last {
                self.node_mut(slot).in_cache = false;
                self.remove_from_table(&key);
            } else {
                self.lru_insert(slot);
                return None;
            }
        }
        self.usage -= self.node(slot).charge;
        self.free(slot)
    }

    pub(super) fn erase(&mut self, key: &CacheKey) -> Option<CacheValue> {
        let slot = self.remove_from_table(key)?.slot;
        let node = self.node_mut(slot);
        node.in_cache = false;
        if node.refs > 0 {
            return None;
        }
        self.lru_remove(slot);
        self.usage -= self.node(slot).charge;
        self.free(slot)
    }

    /// Evicts the coldest unpinned entries until `charge` more bytes fit, or none is left.
    /// A borrowed entry at the cold end goes to the hot end instead, once per borrow, so
    /// the loop ends: each turn evicts an entry or clears a mark.
    fn evict_from_lru(&mut self, charge: usize, garbage: &mut Vec<CacheValue>) {
        while self.usage.saturating_add(charge) > self.capacity {
            let oldest = self.node(HEAD).next;
            if oldest == HEAD {
                break;
            }
            if self.node(oldest).borrowed {
                self.lru_remove(oldest);
                self.lru_insert(oldest);
                continue;
            }
            self.evict(oldest, garbage);
            self.stats.evictions += 1;
        }
    }

    pub(super) fn evict_all_unpinned(&mut self, garbage: &mut Vec<CacheValue>) {
        loop {
            let oldest = self.node(HEAD).next;
            if oldest == HEAD {
                break;
            }
            self.evict(oldest, garbage);
        }
    }

    /// Takes an unpinned entry off the list and out of the table, and frees it.
    fn evict(&mut self, slot: u32, garbage: &mut Vec<CacheValue>) {
        self.lru_remove(slot);
        let node = self.node_mut(slot);
        node.in_cache = false;
        let (key, charge) = (node.key, node.charge);
        self.remove_from_table(&key);
        self.usage -= charge;
        garbage.extend(self.free(slot));
    }

    /// Takes `key`'s entry out of the table (its node keeps the value alive).
    fn remove_from_table(&mut self, key: &CacheKey) -> Option<TableEntry> {
        self.table.remove(key.hash64(), holds(&self.nodes, key))
    }

    fn alloc(&mut self, node: Node) -> u32 {
        if let Some(slot) = self.free_slots.pop() {
            *self.node_mut(slot) = node;
            slot
        } else {
            let slot = u32::try_from(self.nodes.len())
                .expect("a shard is expected to hold fewer than 2^32 entries");
            self.nodes.push(node);
            slot
        }
    }

    fn free(&mut self, slot: u32) -> Option<CacheValue> {
        self.free_slots.push(slot);
        self.node_mut(slot).value.take()
    }

    /// Links `slot` right after (hotter than) `at`.
    fn link_after(&mut self, at: u32, slot: u32) {
        let next = self.node(at).next;
        let node = self.node_mut(slot);
        node.prev = at;
        node.next = next;
        self.node_mut(next).prev = slot;
        self.node_mut(at).next = slot;
    }

    fn lru_remove(&mut self, slot: u32) {
        let (prev, next) = (self.node(slot).prev, self.node(slot).next);
        if self.low_pri == slot {
            self.low_pri = prev;
        }
        if self.bottom_pri == slot {
            self.bottom_pri = prev;
        }
        self.node_mut(prev).next = next;
        self.node_mut(next).prev = prev;
        let node = self.node_mut(slot);
        let charge = node.charge;
        let (high, low) = (node.in_high_pool, node.in_low_pool);
        node.in_high_pool = false;
        node.in_low_pool = false;
        // Off the list, unmarked: `borrow` marks only listed entries, so an entry comes back
        // to the list (`lru_insert`) without a mark.
        node.borrowed = false;
        self.lru_usage -= charge;
        if high {
            self.high_pri_pool_usage -= charge;
        } else if low {
            self.low_pri_pool_usage -= charge;
        }
    }

    fn lru_insert(&mut self, slot: u32) {
        let node = self.node(slot);
        let charge = node.charge;
        let hot = node.priority == Priority::High || node.has_hit;
        let low = node.priority == Priority::Low;
        if self.high_pri_pool_ratio > 0.0 && hot {
            let hottest = self.node(HEAD).prev;
            self.link_after(hottest, slot);
            self.node_mut(slot).in_high_pool = true;
            self.high_pri_pool_usage += charge;
            self.lru_usage += charge;
            self.maintain_pool_size();
        } else if self.low_pri_pool_ratio > 0.0 && (hot || low) {
            self.link_after(self.low_pri, slot);
            self.node_mut(slot).in_low_pool = true;
            self.low_pri = slot;
            self.low_pri_pool_usage += charge;
            self.lru_usage += charge;
            self.maintain_pool_size();
        } else {
            self.link_after(self.bottom_pri, slot);
            if self.bottom_pri == self.low_pri {
                self.low_pri = slot;
            }
            self.bottom_pri = slot;
            self.lru_usage += charge;
        }
    }

    /// Spills the coldest entries of an over-full pool into the pool below it.
    fn maintain_pool_size(&mut self) {
        while self.high_pri_pool_usage > self.high_pri_pool_capacity {
            let coldest_high = self.node(self.low_pri).next;
            if coldest_high == HEAD {
                break;
            }
            self.low_pri = coldest_high;
            let node = self.node_mut(coldest_high);
            node.in_high_pool = false;
            node.in_low_pool = true;
            let charge = node.charge;
            self.high_pri_pool_usage -= charge;
            self.low_pri_pool_usage += charge;
        }
        while self.low_pri_pool_usage > self.low_pri_pool_capacity {
            let coldest_low = self.node(self.bottom_pri).next;
            if coldest_low == HEAD {
                break;
            }
            self.bottom_pri = coldest_low;
            let node = self.node_mut(coldest_low);
            node.in_low_pool = false;
            let charge = node.charge;
            self.low_pri_pool_usage -= charge;
        }
    }

    /// Checks every structural invariant of the shard; panics with the first violation.
    #[cfg(test)]
    pub(super) fn check_invariants(&self) {
        // The list: consistent links, only unpinned cached entries, pools in order
        // bottom < low < high from the cold end, and pool pointers at the pool tops.
        let (mut lru, mut high, mut low) = (0usize, 0usize, 0usize);
        let (mut last_bottom, mut last_low_or_bottom) = (HEAD, HEAD);
        let mut rank = 0;
        let mut at = self.node(HEAD).next;
        let mut prev = HEAD;
        while at != HEAD {
            let n = self.node(at);
            assert_eq!(n.prev, prev, "broken prev link at slot {at}");
            assert!(
                n.in_cache && n.refs == 0,
                "slot {at} listed but pinned or uncached"
            );
            assert!(!(n.in_high_pool && n.in_low_pool));
            let r = if n.in_high_pool {
                2
            } else {
                u8::from(n.in_low_pool)
            };
            assert!(r >= rank, "pools out of order at slot {at}");
            rank = r;
            lru += n.charge;
            match r {
                2 => high += n.charge,
                1 => {
                    low += n.charge;
                    last_low_or_bottom = at;
                }
                _ => {
                    last_bottom = at;
                    last_low_or_bottom = at;
                }
            }
            prev = at;
            at = n.next;
        }
        assert_eq!(self.node(HEAD).prev, prev, "broken tail link");
        assert_eq!(
            self.bottom_pri, last_bottom,
            "bottom_pri off the bottom pool top"
        );
        assert_eq!(
            self.low_pri, last_low_or_bottom,
            "low_pri off the low pool top"
        );
        assert_eq!(self.lru_usage, lru);
        assert_eq!(self.high_pri_pool_usage, high);
        assert_eq!(self.low_pri_pool_usage, low);
        assert!(
            high <= self.high_pri_pool_capacity,
            "high pool over its share"
        );
        assert!(low <= self.low_pri_pool_capacity, "low pool over its share");
        // The table points at cached entries under their own keys' hashes, holds the
        // node's own value, and finds each entry from its home bucket.
        for (hash, slot, value) in self.table.iter() {
            let n = self.node(slot);
            assert!(n.in_cache && u64::from(n.key.hash64() as u32) == hash);
            assert!(self.table.get(hash, |s| s == slot).is_some());
            let node_value = n.value.as_ref().expect("a cached node holds its value");
            assert!(std::sync::Arc::ptr_eq(node_value, value));
        }
        // Only entries on the list carry a borrow mark (the pinned ones' release moves them).
        assert!(
            self.nodes
                .iter()
                .all(|n| !n.borrowed || (n.in_cache && n.refs == 0)),
            "a borrow mark on a pinned or uncached entry"
        );
        let cached = self.nodes.iter().filter(|n| n.in_cache).count();
        assert_eq!(cached, self.table.len());
        // Usage is the charge of every live entry.
        let live: usize = self
            .nodes
            .iter()
            .filter(|n| n.value.is_some())
            .map(|n| n.charge)
            .sum();
        assert_eq!(self.usage, live);
        assert_eq!(
            self.nodes.len(),
            1 + self.free_slots.len() + self.nodes.iter().filter(|n| n.value.is_some()).count()
        );
    }

    /// Keys on the LRU list from coldest to hottest (tests).
    #[cfg(test)]
    pub(super) fn lru_keys(&self) -> Vec<CacheKey> {
        let mut out = Vec::new();
        let mut at = self.node(HEAD).next;
        while at != HEAD {
            out.push(self.node(at).key);
            at = self.node(at).next;
        }
        out
    }
}

fn pool_capacity(capacity: usize, ratio: f64) -> usize {
    // Float to int `as` saturates; capacities far beyond 2^53 lose precision, harmlessly.
    (capacity as f64 * ratio) as usize
}
