// SPDX-License-Identifier: Apache-2.0
//! Tests of the sharded LRU cache.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use super::*;

fn key(n: u64) -> CacheKey {
    CacheKey::new(1, 9, n)
}

fn val(n: u64) -> CacheValue {
    Arc::new(n)
}

use crate::cache::uncharged;

/// One shard, no priority pools: plain LRU.
fn plain(capacity: usize) -> LruCache {
    uncharged(capacity, 0, false, 0.0)
}

fn present(cache: &LruCache, keys: &[u64]) -> Vec<u64> {
    keys.iter()
        .copied()
        .filter(|&k| cache.lookup(&key(k)).is_some())
        .collect()
}

#[test]
fn evicts_least_recently_used_by_bytes() {
    let cache = plain(40);
    for k in 1..=4 {
        assert!(cache.insert_detached(key(k), val(k), 10, Priority::Low));
    }
    assert_eq!(cache.usage(), 40);
    // Touch 1: now 2 is the coldest.
    drop(cache.lookup(&key(1)));
    assert_eq!(
        cache.lru_keys_of_shard(&key(1)),
        vec![key(2), key(3), key(4), key(1)]
    );
    assert!(cache.insert_detached(key(5), val(5), 10, Priority::Low));
    assert_eq!(present(&cache, &[1, 2, 3, 4, 5]), vec![1, 3, 4, 5]);
    // A 25-byte entry needs three 10-byte entries gone; the coldest go first.
    // Order after the lookups above: 1, 3, 4, 5 (coldest first).
    assert!(cache.insert_detached(key(6), val(6), 25, Priority::Low));
    assert_eq!(present(&cache, &[1, 3, 4, 5, 6]), vec![5, 6]);
    assert_eq!(cache.usage(), 35);
    assert_eq!(cache.stats().evictions, 4);
}

#[test]
fn pinned_entries_are_not_evicted_and_count_as_pinned() {
    let cache = plain(30);
    let pinned = cache
        .insert(key(1), val(1), 10, Priority::Low)
        .expect("fits");
    assert_eq!(cache.pinned_usage(), 10);
    for k in 2..=10 {
        assert!(cache.insert_detached(key(k), val(k), 10, Priority::Low));
    }
    assert_eq!(pinned.value::<u64>(), Some(&1));
    assert!(cache.lookup(&key(1)).is_some(), "pinned entry was evicted");
    assert_eq!(present(&cache, &[8, 9, 10]), vec![9, 10]);
    assert_eq!(cache.usage(), 30);
    assert_eq!(cache.pinned_usage(), 10);
    drop(pinned);
    assert_eq!(cache.pinned_usage(), 0);
    assert_eq!(cache.usage(), 30);
}

#[test]
fn non_strict_cache_goes_over_capacity_then_shrinks_on_release() {
    let cache = plain(20);
    let a = cache
        .insert(key(1), val(1), 15, Priority::Low)
        .expect("fits");
    let b = cache
        .insert(key(2), val(2), 15, Priority::Low)
        .expect("not strict");
    assert_eq!(cache.usage(), 30);
    assert_eq!(cache.pinned_usage(), 30);
    // Unpinned inserts that cannot fit are dropped at once.
    assert!(!cache.insert_detached(key(3), val(3), 1, Priority::Low));
    assert!(cache.lookup(&key(3)).is_none());
    // Released while over capacity: freed instead of listed.
    drop(a);
    assert_eq!(cache.usage(), 15);
    assert!(cache.lookup(&key(1)).is_none());
    drop(b);
    assert_eq!(cache.usage(), 15);
    assert!(cache.lookup(&key(2)).is_some());
}

#[test]
fn strict_cache_refuses_what_cannot_fit() {
    let cache = uncharged(30, 0, true, 0.0);
    let handles: Vec<Handle> = (1..=3)
        .map(|k| {
            cache
                .insert(key(k), val(k), 10, Priority::Low)
                .expect("fits")
        })
        .collect();
    let err = cache
        .insert(key(4), val(4), 10, Priority::Low)
        .expect_err("strict cache is full of pinned entries");
    assert_eq!(err.code(), Code::Incomplete);
    assert_eq!(
        err.to_string(),
        "Result incomplete: Insert failed due to LRU cache being full."
    );
    assert!(!cache.insert_detached(key(4), val(4), 10, Priority::Low));
    assert_eq!(cache.usage(), 30);
    assert_eq!(cache.stats().insert_failures, 1);
    // One unpinned entry makes room.
    let mut handles = handles;
    handles.pop();
    let h4 = cache
        .insert(key(4), val(4), 10, Priority::Low)
        .expect("room now");
    assert!(cache.lookup(&key(3)).is_none(), "3 was evicted for 4");
    assert_eq!(cache.usage(), 30);
    // Turning strictness off lets the cache overflow.
    cache.set_strict_capacity_limit(false);
    assert!(!cache.strict_capacity_limit());
    let h5 = cache
        .insert(key(5), val(5), 10, Priority::Low)
        .expect("not strict");
    assert_eq!(cache.usage(), 40);
    drop((h4, h5, handles));
}

#[test]
fn set_capacity_evicts_down_to_the_new_size() {
    let cache = plain(100);
    for k in 1..=10 {
        cache.insert_detached(key(k), val(k), 10, Priority::Low);
    }
    let pinned = cache.lookup(&key(2)).expect("present");
    cache.set_capacity(30);
    assert_eq!(cache.capacity(), 30);
    assert_eq!(cache.usage(), 30);
    assert_eq!(
        present(&cache, &(1..=10).collect::<Vec<_>>()),
        vec![2, 9, 10]
    );
    // Shrinking below pinned usage keeps the pinned entry.
    cache.set_capacity(5);
    assert_eq!(cache.usage(), 10);
    assert_eq!(present(&cache, &[2, 9, 10]), vec![2]);
    drop(pinned);
    assert_eq!(cache.usage(), 0, "released over capacity: freed");
    cache.set_capacity(50);
    assert!(cache.insert_detached(key(1), val(1), 50, Priority::Low));
}

#[test]
fn erase_of_pinned_entry_keeps_its_value_until_released() {
    let cache = plain(100);
    let h = cache
        .insert(key(1), val(1), 10, Priority::Low)
        .expect("fits");
    cache.erase(&key(1));
    assert!(cache.lookup(&key(1)).is_none());
    assert_eq!(cache.entries(), 0);
    assert_eq!(h.value::<u64>(), Some(&1));
    assert_eq!(cache.usage(), 10);
    assert_eq!(cache.pinned_usage(), 10);
    drop(h);
    assert_eq!(cache.usage(), 0);
    cache.erase(&key(1)); // absent: no effect
    assert_eq!(cache.usage(), 0);
}

#[test]
fn insert_replaces_the_entry_under_the_same_key() {
    let cache = plain(100);
    cache.insert_detached(key(1), val(1), 10, Priority::Low);
    let old = cache.lookup(&key(1)).expect("present");
    cache.insert_detached(key(1), val(2), 20, Priority::Low);
    assert_eq!(cache.usage(), 30, "old value pinned: still charged");
    assert_eq!(old.value::<u64>(), Some(&1));
    let new = cache.lookup(&key(1)).expect("present");
    assert_eq!(new.value::<u64>(), Some(&2));
    drop(old);
    assert_eq!(cache.usage(), 20);
    drop(new);
    cache.insert_detached(key(1), val(3), 5, Priority::Low);
    assert_eq!(cache.usage(), 5);
    assert_eq!(cache.entries(), 1);
}

#[test]
fn handles_pin_per_clone_and_downcast_by_type() {
    let cache = plain(100);
    let h = cache
        .insert(key(1), Arc::new(String::from("block")), 7, Priority::High)
        .expect("fits");
    assert_eq!(h.value::<String>().map(String::as_str), Some("block"));
    assert_eq!(h.value::<u64>(), None);
    assert_eq!(h.charge(), 7);
    assert_eq!(h.key(), &key(1));
    let arc: Arc<String> = h.value_arc::<String>().expect("a String");
    assert!(h.value_arc::<u32>().is_none());
    let h2 = h.clone();
    drop(h);
    assert_eq!(cache.pinned_usage(), 7);
    drop(h2);
    assert_eq!(cache.pinned_usage(), 0);
    assert_eq!(*arc, "block");
}

#[test]
fn release_and_erase_removes_the_last_pin() {
    let cache = plain(100);
    let h = cache
        .insert(key(1), val(1), 10, Priority::Low)
        .expect("fits");
    let h2 = h.clone();
    h.release_and_erase();
    assert!(cache.lookup(&key(1)).is_some(), "still pinned by h2");
    h2.release_and_erase();
    assert!(cache.lookup(&key(1)).is_none());
    assert_eq!(cache.usage(), 0);
}

#[test]
fn erase_unpinned_keeps_pinned_entries() {
    let cache = uncharged(1 << 20, 2, false, 0.5);
    let pinned = cache
        .insert(key(0), val(0), 10, Priority::Low)
        .expect("fits");
    for k in 1..100 {
        cache.insert_detached(key(k), val(k), 10, Priority::Low);
    }
    cache.erase_unpinned();
    assert_eq!(cache.entries(), 1);
    assert_eq!(cache.usage(), 10);
    drop(pinned);
}

#[test]
fn high_priority_and_hit_entries_outlive_low_priority_ones() {
    // High pool gets half of 40 bytes.
    let cache = uncharged(40, 0, false, 0.5);
    cache.insert_detached(key(1), val(1), 10, Priority::High);
    for k in 2..=4 {
        cache.insert_detached(key(k), val(k), 10, Priority::Low);
    }
    // Bottom-of-list order: low entries first, then the high pool.
    assert_eq!(
        cache.lru_keys_of_shard(&key(1)),
        vec![key(2), key(3), key(4), key(1)]
    );
    cache.insert_detached(key(5), val(5), 10, Priority::Low);
    cache.insert_detached(key(6), val(6), 10, Priority::Low);
    let order = |c: &LruCache| c.lru_keys_of_shard(&key(1));
    assert_eq!(order(&cache), vec![key(4), key(5), key(6), key(1)]);
    // 5 is hit: it joins the high pool, which (20 bytes) now holds 1 and 5; 6 goes first.
    drop(cache.lookup(&key(5)));
    cache.insert_detached(key(7), val(7), 10, Priority::Low);
    cache.insert_detached(key(8), val(8), 10, Priority::Low);
    assert_eq!(order(&cache), vec![key(7), key(8), key(1), key(5)]);
    // A third hot entry overflows the high pool: its coldest entry (1) spills to the hot
    // end of the low part, just below the pool.
    drop(cache.lookup(&key(7)));
    assert_eq!(order(&cache), vec![key(8), key(1), key(5), key(7)]);
    cache.insert_detached(key(9), val(9), 10, Priority::Low);
    assert_eq!(order(&cache), vec![key(1), key(9), key(5), key(7)]);
    cache.insert_detached(key(10), val(10), 10, Priority::Low);
    assert_eq!(order(&cache), vec![key(9), key(10), key(5), key(7)]);
}

/// RocksDB's default metadata charge policy: each entry also costs the cache's bookkeeping
/// for it, so usage, eviction and the capacity count it, while a handle reports the charge
/// its caller passed.
#[test]
fn entries_are_charged_their_bookkeeping_by_default() {
    let meta = LruCache::with_capacity(1 << 20).metadata_charge();
    assert!(
        meta >= std::mem::size_of::<CacheKey>() + std::mem::size_of::<CacheValue>(),
        "{meta} bytes cannot hold a key and a value reference"
    );
    // Room for two entries of 100 bytes with the metadata, three without it (`meta` >= 25).
    let capacity = 2 * (100 + meta) + 50;
    let cache = LruCache::new(capacity, 0, false, 0.0);
    assert_eq!(cache.metadata_charge(), meta);
    let h = cache
        .insert(key(1), val(1), 100, Priority::Low)
        .expect("fits");
    assert_eq!(h.charge(), 100);
    assert_eq!(cache.usage(), 100 + meta);
    assert_eq!(cache.pinned_usage(), 100 + meta);
    drop(h);
    assert!(cache.insert_detached(key(2), val(2), 100, Priority::Low));
    assert!(cache.insert_detached(key(3), val(3), 100, Priority::Low));
    assert_eq!(
        present(&cache, &[1, 2, 3]),
        vec![2, 3],
        "the third evicted the first"
    );
    assert_eq!(cache.usage(), 2 * (100 + meta));
    assert_eq!(cache.lookup(&key(3)).expect("cached").charge(), 100);
    // Off, the same capacity holds all three.
    let plain = uncharged(capacity, 0, false, 0.0);
    for k in 1..=3 {
        assert!(plain.insert_detached(key(k), val(k), 100, Priority::Low));
    }
    assert_eq!(present(&plain, &[1, 2, 3]), vec![1, 2, 3]);
    assert_eq!(plain.usage(), 300);
}

#[test]
fn bottom_priority_entries_go_first() {
    let cache = LruCache::from_options(&LruCacheOptions {
        capacity: 30,
        num_shard_bits: 0,
        strict_capacity_limit: false,
        high_pri_pool_ratio: 0.0,
        low_pri_pool_ratio: 0.5,
        metadata_charge_policy: MetadataChargePolicy::DontCharge,
    })
    .expect("valid options");
    cache.insert_detached(key(1), val(1), 10, Priority::Low);
    cache.insert_detached(key(2), val(2), 10, Priority::Bottom);
    cache.insert_detached(key(3), val(3), 10, Priority::Low);
    // The low pool holds 15 bytes: inserting 3 spills the coldest low entry (1) to the
    // hot end of the bottom pool, just above 2.
    assert_eq!(
        cache.lru_keys_of_shard(&key(1)),
        vec![key(2), key(1), key(3)]
    );
    cache.insert_detached(key(4), val(4), 10, Priority::Low);
    assert_eq!(present(&cache, &[1, 2, 3, 4]), vec![1, 3, 4]);
}

#[test]
fn a_borrow_leaves_the_entry_in_place_and_eviction_gives_it_a_second_chance() {
    let cache = plain(30);
    for k in 1..=3 {
        assert!(cache.insert_detached(key(k), val(k), 10, Priority::Low));
    }
    let order = |c: &LruCache| c.lru_keys_of_shard(&key(1));
    let borrowed = cache.borrow(&key(1)).expect("cached");
    assert_eq!(borrowed.downcast_ref::<u64>(), Some(&1));
    assert_eq!(cache.pinned_usage(), 0, "a borrow is not a pin");
    assert_eq!(order(&cache), vec![key(1), key(2), key(3)], "nothing moved");
    assert_eq!(cache.stats().hits, 1);
    // 1 is coldest but borrowed: it moves to the hot end and 2 goes instead.
    assert!(cache.insert_detached(key(4), val(4), 10, Priority::Low));
    assert_eq!(order(&cache), vec![key(3), key(1), key(4)]);
    // The mark was spent: unborrowed since, 1 is evicted in its turn.
    assert!(cache.insert_detached(key(5), val(5), 10, Priority::Low));
    assert!(cache.insert_detached(key(6), val(6), 10, Priority::Low));
    assert_eq!(order(&cache), vec![key(4), key(5), key(6)]);
    cache.check_invariants();
}

#[test]
fn a_borrowed_value_outlives_its_eviction_uncharged() {
    let cache = plain(10);
    assert!(cache.insert_detached(key(1), val(1), 10, Priority::Low));
    let borrowed = cache.borrow(&key(1)).expect("cached");
    cache.erase(&key(1));
    assert_eq!(cache.usage(), 0);
    assert!(cache.borrow(&key(1)).is_none());
    assert_eq!(borrowed.downcast_ref::<u64>(), Some(&1));
    assert_eq!(cache.stats().misses, 1);
}

#[test]
fn eviction_ends_when_every_entry_is_borrowed() {
    let cache = plain(30);
    for k in 1..=3 {
        assert!(cache.insert_detached(key(k), val(k), 10, Priority::Low));
        assert!(cache.borrow(&key(k)).is_some());
    }
    // One lap clears every mark; the coldest then goes.
    assert!(cache.insert_detached(key(4), val(4), 10, Priority::Low));
    assert_eq!(present(&cache, &[1, 2, 3, 4]), vec![2, 3, 4]);
}

#[test]
fn a_borrowed_entry_that_is_pinned_loses_its_mark() {
    let cache = plain(20);
    assert!(cache.insert_detached(key(1), val(1), 10, Priority::Low));
    assert!(cache.insert_detached(key(2), val(2), 10, Priority::Low));
    assert!(cache.borrow(&key(1)).is_some());
    // The pin takes 1 off the list; its release puts it at the hot end, unmarked.
    drop(cache.lookup(&key(1)));
    cache.check_invariants();
    assert_eq!(cache.lru_keys_of_shard(&key(1)), vec![key(2), key(1)]);
    assert!(cache.insert_detached(key(3), val(3), 10, Priority::Low));
    assert!(cache.insert_detached(key(4), val(4), 10, Priority::Low));
    assert_eq!(present(&cache, &[1, 2, 3, 4]), vec![3, 4]);
}

#[test]
fn shard_bits_follow_rocksdb() {
    assert_eq!(LruCache::with_capacity(0).num_shards(), 1);
    assert_eq!(LruCache::with_capacity(1 << 20).num_shards(), 2);
    assert_eq!(LruCache::with_capacity(8 << 20).num_shards(), 16);
    assert_eq!(LruCache::with_capacity(1 << 30).num_shards(), 64);
    assert_eq!(LruCache::new(1 << 30, 3, false, 0.5).num_shards(), 8);
    assert_eq!(LruCache::new(100, 25, false, 0.5).num_shards(), 1 << 19);
    let err = LruCache::try_new(100, 20, false, 0.5).expect_err("too many shards");
    assert_eq!(err.code(), Code::InvalidArgument);
    let err = LruCache::try_new(100, 0, false, 1.5).expect_err("bad ratio");
    assert_eq!(err.code(), Code::InvalidArgument);
    assert!(LruCache::from_options(&LruCacheOptions {
        high_pri_pool_ratio: 0.6,
        low_pri_pool_ratio: 0.6,
        ..LruCacheOptions::default()
    })
    .is_err());
    assert_eq!(LruCache::new(100, 0, false, 7.0).high_pri_pool_ratio(), 1.0);
    // Per-shard capacity rounds up; the configured total is reported as is.
    let cache = uncharged(10, 2, true, 0.0);
    assert_eq!(cache.capacity(), 10);
}

#[test]
fn keys_spread_evenly_over_shards() {
    let cache = uncharged(1 << 30, 6, false, 0.5);
    let per_file = 1024u64;
    for file in 0..64u64 {
        for block in 0..per_file {
            cache.insert_detached(
                CacheKey::new(3, file, block * 4096),
                val(block),
                1,
                Priority::Low,
            );
        }
    }
    let counts = cache.shard_entries();
    let mean = (64 * per_file) as usize / counts.len();
    for (i, &c) in counts.iter().enumerate() {
        assert!(
            c > mean * 3 / 4 && c < mean * 5 / 4,
            "shard {i} holds {c}, mean {mean}"
        );
    }
    assert_eq!(counts.iter().sum::<usize>(), 64 * per_file as usize);
}

#[test]
fn new_id_is_unique_and_keys_encode_little_endian() {
    let cache = LruCache::with_capacity(1);
    let a = cache.new_id();
    let b = cache.new_id();
    assert_ne!(a, b);
    assert!(a >= 1);
    let bytes = CacheKey::new(1, 2, 0x0304).to_bytes();
    assert_eq!(&bytes[..8], &[1, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(&bytes[8..16], &[2, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(&bytes[16..], &[4, 3, 0, 0, 0, 0, 0, 0]);
}

#[test]
fn stats_count_hits_and_misses() {
    let cache = uncharged(1000, 2, false, 0.5);
    cache.insert_detached(key(1), val(1), 1, Priority::Low);
    assert!(cache.lookup(&key(1)).is_some());
    assert!(cache.lookup(&key(1)).is_some());
    assert!(cache.lookup(&key(2)).is_none());
    let s = cache.stats();
    assert_eq!((s.hits, s.misses, s.inserts), (2, 1, 1));
}

#[test]
fn values_are_dropped_when_freed() {
    let cache = plain(20);
    let v: CacheValue = Arc::new(5u64);
    cache.insert_detached(key(1), Arc::clone(&v), 10, Priority::Low);
    // Ours, the node's and the table's (see `lru_table::TableEntry`).
    assert_eq!(Arc::strong_count(&v), 3);
    cache.insert_detached(key(2), val(2), 10, Priority::Low);
    cache.insert_detached(key(3), val(3), 10, Priority::Low);
    assert_eq!(Arc::strong_count(&v), 1, "evicted value still referenced");
}

#[test]
fn concurrent_strict_use_keeps_accounting_exact() {
    const THREADS: u64 = 4;
    const OPS: u64 = 20_000;
    // 16 shards of 4 KiB each.
    let cache = Arc::new(uncharged(64 << 10, 4, true, 0.5));
    let done = Arc::new(AtomicBool::new(false));
    let monitor = {
        let (cache, done) = (Arc::clone(&cache), Arc::clone(&done));
        std::thread::spawn(move || {
            let mut checks = 0u64;
            while !done.load(Ordering::Relaxed) {
                assert!(cache.usage() <= cache.capacity());
                checks += 1;
            }
            checks
        })
    };
    let workers: Vec<_> = (0..THREADS)
        .map(|t| {
            let cache = Arc::clone(&cache);
            std::thread::spawn(move || {
                let mut held: Vec<Handle> = Vec::new();
                let mut refused = 0u64;
                let mut x = t.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
                for _ in 0..OPS {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let k = CacheKey::new(0, 0, x % 2048);
                    match x % 5 {
                        0 | 1 => {
                            match cache.insert(k, val(x), 64 + (x % 512) as usize, Priority::Low) {
                                Ok(h) => held.push(h),
                                Err(e) => {
                                    assert_eq!(e.code(), Code::Incomplete);
                                    refused += 1;
                                }
                            }
                        }
                        2 => {
                            if let Some(h) = cache.lookup(&k) {
                                assert!(h.value::<u64>().is_some());
                                held.push(h);
                            }
                        }
                        3 => cache.erase(&k),
                        _ => {
                            cache.insert_detached(k, val(x), 128, Priority::High);
                        }
                    }
                    if held.len() > 4 {
                        held.drain(..2);
                    }
                }
                refused
            })
        })
        .collect();
    for w in workers {
        w.join().expect("worker panicked");
    }
    done.store(true, Ordering::Relaxed);
    assert!(monitor.join().expect("monitor panicked") > 0);
    assert!(cache.usage() <= cache.capacity());
    assert_eq!(cache.pinned_usage(), 0);
    for k in 0..2048 {
        cache.erase(&CacheKey::new(0, 0, k));
    }
    assert_eq!(cache.usage(), 0);
    assert_eq!(cache.entries(), 0);
    let s = cache.stats();
    assert!(s.hits > 0 && s.misses > 0 && s.inserts > 0);
}

/// A deliberately simple model of one plain-LRU shard (no priority pools): linear scans
/// over a list of entries and a queue of unpinned ones, coldest first.
mod model {
    use std::collections::VecDeque;

    pub struct Entry {
        pub key: u64,
        pub id: u64,
        pub charge: usize,
        pub refs: u32,
        pub in_cache: bool,
        /// Borrowed since it last went to the hot end.
        pub borrowed: bool,
    }

    #[derive(Default)]
    pub struct Model {
        pub capacity: usize,
        pub strict: bool,
        /// Live entries (in cache or pinned).
        pub entries: Vec<Entry>,
        /// Ids of unpinned cached entries, coldest first.
        pub lru: VecDeque<u64>,
        pub usage: usize,
    }

    impl Model {
        fn pos(&self, id: u64) -> usize {
            self.entries
                .iter()
                .position(|e| e.id == id)
                .expect("live id")
        }

        fn free(&mut self, id: u64) {
            let at = self.pos(id);
            self.usage -= self.entries.remove(at).charge;
        }

        fn unlist(&mut self, id: u64) {
            self.lru.retain(|&x| x != id);
        }

        fn evict(&mut self, charge: usize) {
            while self.usage + charge > self.capacity {
                let Some(id) = self.lru.pop_front() else {
                    break;
                };
                let at = self.pos(id);
                if self.entries[at].borrowed {
                    self.entries[at].borrowed = false;
                    self.lru.push_back(id);
                    continue;
                }
                self.free(id);
            }
        }

        pub fn borrow(&mut self, key: u64) -> Option<u64> {
            let e = self
                .entries
                .iter_mut()
                .find(|e| e.in_cache && e.key == key)?;
            e.borrowed = e.refs == 0;
            Some(e.id)
        }

        /// Returns whether the entry stayed in the cache.
        pub fn insert(&mut self, key: u64, id: u64, charge: usize, pin: bool) -> bool {
            self.evict(charge);
            if self.usage + charge > self.capacity && (self.strict || !pin) {
                return false;
            }
            if let Some(old) = self.entries.iter_mut().find(|e| e.in_cache && e.key == key) {
                old.in_cache = false;
                if old.refs == 0 {
                    let old_id = old.id;
                    self.unlist(old_id);
                    self.free(old_id);
                }
            }
            self.entries.push(Entry {
                key,
                id,
                charge,
                refs: u32::from(pin),
                in_cache: true,
                borrowed: false,
            });
            self.usage += charge;
            if !pin {
                self.lru.push_back(id);
            }
            true
        }

        pub fn lookup(&mut self, key: u64) -> Option<u64> {
            let e = self
                .entries
                .iter_mut()
                .find(|e| e.in_cache && e.key == key)?;
            e.refs += 1;
            e.borrowed = false;
            let id = e.id;
            if e.refs == 1 {
                self.unlist(id);
            }
            Some(id)
        }

        pub fn release(&mut self, id: u64) {
            let (over, at) = (self.usage > self.capacity, self.pos(id));
            let e = &mut self.entries[at];
            e.refs -= 1;
            if e.refs > 0 {
                return;
            }
            if e.in_cache && !over {
                self.lru.push_back(id);
            } else {
                self.free(id);
            }
        }

        pub fn erase(&mut self, key: u64) {
            let Some(e) = self.entries.iter_mut().find(|e| e.in_cache && e.key == key) else {
                return;
            };
            e.in_cache = false;
            if e.refs == 0 {
                let id = e.id;
                self.unlist(id);
                self.free(id);
            }
        }

        pub fn set_capacity(&mut self, capacity: usize) {
            self.capacity = capacity;
            self.evict(0);
        }

        pub fn pinned_usage(&self) -> usize {
            self.entries
                .iter()
                .filter(|e| e.refs > 0)
                .map(|e| e.charge)
                .sum()
        }

        pub fn cached(&self) -> usize {
            self.entries.iter().filter(|e| e.in_cache).count()
        }

        pub fn lru_keys(&self) -> Vec<u64> {
            self.lru
                .iter()
                .map(|&id| self.entries[self.pos(id)].key)
                .collect()
        }
    }
}

#[derive(Debug, Clone)]
enum Op {
    Insert { key: u64, charge: usize, pin: bool },
    Lookup { key: u64, hold: bool },
    Borrow { key: u64 },
    Erase { key: u64 },
    Release { index: usize },
    SetCapacity { capacity: usize },
    SetStrict { strict: bool },
}

fn op_strategy() -> impl proptest::strategy::Strategy<Value = Op> {
    use proptest::prelude::*;
    prop_oneof![
        4 => (0u64..12, 1usize..40, any::<bool>())
            .prop_map(|(key, charge, pin)| Op::Insert { key, charge, pin }),
        4 => (0u64..12, any::<bool>()).prop_map(|(key, hold)| Op::Lookup { key, hold }),
        3 => (0u64..12).prop_map(|key| Op::Borrow { key }),
        1 => (0u64..12).prop_map(|key| Op::Erase { key }),
        3 => (0usize..8).prop_map(|index| Op::Release { index }),
        1 => (0usize..200).prop_map(|capacity| Op::SetCapacity { capacity }),
        1 => proptest::bool::ANY.prop_map(|strict| Op::SetStrict { strict }),
    ]
}

proptest::proptest! {
    /// A one-shard plain LRU cache behaves like the model, entry for entry and byte for
    /// byte, including the order of its LRU list.
    #[test]
    fn plain_lru_matches_model(
        capacity in 0usize..150,
        strict in proptest::bool::ANY,
        ops in proptest::collection::vec(op_strategy(), 1..120),
    ) {
        let cache = uncharged(capacity, 0, strict, 0.0);
        let mut m = model::Model { capacity, strict, ..model::Model::default() };
        let mut held: Vec<(Handle, u64)> = Vec::new();
        let mut next_id = 0u64;
        for op in ops {
            match op {
                Op::Insert { key: k, charge, pin } => {
                    next_id += 1;
                    let kept = m.insert(k, next_id, charge, pin);
                    if pin {
                        match cache.insert(key(k), val(next_id), charge, Priority::Low) {
                            Ok(h) => {
                                proptest::prop_assert!(kept);
                                held.push((h, next_id));
                            }
                            Err(e) => {
                                proptest::prop_assert!(!kept);
                                proptest::prop_assert_eq!(e.code(), Code::Incomplete);
                            }
                        }
                    } else {
                        let stayed = cache.insert_detached(key(k), val(next_id), charge, Priority::Low);
                        proptest::prop_assert_eq!(stayed, kept);
                    }
                }
                Op::Lookup { key: k, hold } => {
                    let got = cache.lookup(&key(k));
                    let want = m.lookup(k);
                    proptest::prop_assert_eq!(got.as_ref().and_then(|h| h.value::<u64>().copied()), want);
                    if let (Some(h), Some(id)) = (got, want) {
                        if hold {
                            held.push((h, id));
                        } else {
                            drop(h);
                            m.release(id);
                        }
                    }
                }
                Op::Borrow { key: k } => {
                    let got = cache.borrow(&key(k)).and_then(|v| v.downcast_ref::<u64>().copied());
                    proptest::prop_assert_eq!(got, m.borrow(k));
                }
                Op::Erase { key: k } => {
                    cache.erase(&key(k));
                    m.erase(k);
                }
                Op::Release { index } => {
                    if !held.is_empty() {
                        let (h, id) = held.remove(index % held.len());
                        drop(h);
                        m.release(id);
                    }
                }
                Op::SetCapacity { capacity } => {
                    cache.set_capacity(capacity);
                    m.set_capacity(capacity);
                }
                Op::SetStrict { strict } => {
                    cache.set_strict_capacity_limit(strict);
                    m.strict = strict;
                }
            }
            cache.check_invariants();
            proptest::prop_assert_eq!(cache.usage(), m.usage);
            proptest::prop_assert_eq!(cache.pinned_usage(), m.pinned_usage());
            proptest::prop_assert_eq!(cache.entries(), m.cached());
            let order: Vec<u64> = cache.lru_keys_of_shard(&key(0)).iter().map(|k| k.offset).collect();
            proptest::prop_assert_eq!(order, m.lru_keys());
        }
        drop(held);
        cache.check_invariants();
    }

    /// With priority pools, many shards and concurrent-free random use, the shards'
    /// structural invariants hold after every operation and everything drains to zero.
    #[test]
    fn pooled_shards_keep_their_invariants(
        high in 0.0f64..=1.0,
        low_share in 0.0f64..=1.0,
        shard_bits in 0i32..3,
        capacity in 0usize..400,
        ops in proptest::collection::vec((op_strategy(), 0u8..3), 1..150),
    ) {
        let cache = LruCache::from_options(&LruCacheOptions {
            capacity,
            num_shard_bits: shard_bits,
            strict_capacity_limit: false,
            high_pri_pool_ratio: high,
            low_pri_pool_ratio: (1.0 - high) * low_share,
            metadata_charge_policy: MetadataChargePolicy::DontCharge,
        })
        .expect("ratios sum to at most 1");
        let mut held: Vec<Handle> = Vec::new();
        for (op, prio) in ops {
            let priority = [Priority::High, Priority::Low, Priority::Bottom][usize::from(prio)];
            match op {
                Op::Insert { key: k, charge, pin } => {
                    if pin {
                        if let Ok(h) = cache.insert(key(k), val(k), charge, priority) {
                            held.push(h);
                        }
                    } else {
                        cache.insert_detached(key(k), val(k), charge, priority);
                    }
                }
                Op::Lookup { key: k, hold } => {
                    if let Some(h) = cache.lookup(&key(k)) {
                        proptest::prop_assert_eq!(h.value::<u64>(), Some(&k));
                        if hold {
                            held.push(h);
                        }
                    }
                }
                Op::Borrow { key: k } => {
                    if let Some(v) = cache.borrow(&key(k)) {
                        proptest::prop_assert_eq!(v.downcast_ref::<u64>(), Some(&k));
                    }
                }
                Op::Erase { key: k } => cache.erase(&key(k)),
                Op::Release { index } => {
                    if !held.is_empty() {
                        held.remove(index % held.len());
                    }
                }
                Op::SetCapacity { capacity } => cache.set_capacity(capacity),
                Op::SetStrict { strict } => cache.set_strict_capacity_limit(strict),
            }
            cache.check_invariants();
        }
        drop(held);
        cache.check_invariants();
        proptest::prop_assert_eq!(cache.pinned_usage(), 0);
        cache.erase_unpinned();
        proptest::prop_assert_eq!(cache.usage(), 0);
        proptest::prop_assert_eq!(cache.entries(), 0);
    }
}

/// On-CPU nanoseconds of the calling thread (Linux `schedstat`), so the benchmark reads
/// right on a loaded machine; `None` where the file is missing.
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Micro benchmark: `cargo test -p solistore --release --lib cache::lru::tests::bench --
/// --ignored --nocapture`. Reports wall time and on-CPU time per lookup hit.
#[test]
#[ignore = "benchmark"]
fn bench_lookup_hit() {
    // 64 keys stay in the CPU caches (lock and bookkeeping cost); 10,000 keys of 4 KiB fill
    // 40 MiB of cache and most lookups miss the CPU caches on the table, the node and the
    // value's reference count (memory latency).
    for keys in [64u64, 10_000] {
        bench_lookup_hit_with(keys);
    }
}

fn bench_lookup_hit_with(keys: u64) {
    const ROUNDS: u64 = 2_000_000;
    let cache = Arc::new(uncharged(64 << 20, -1, false, 0.5));
    for k in 0..keys {
        cache.insert_detached(CacheKey::new(1, 1, k * 4096), val(k), 4096, Priority::Low);
    }
    for threads in [1u64, 2] {
        let start = Instant::now();
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let cache = Arc::clone(&cache);
                std::thread::spawn(move || {
                    let cpu0 = thread_cpu_ns();
                    let mut sum = 0u64;
                    for i in 0..ROUNDS {
                        let k = (i.wrapping_mul(7919) + t * 31) % keys;
                        let h = cache.lookup(&CacheKey::new(1, 1, k * 4096)).expect("hit");
                        sum = sum.wrapping_add(*h.value::<u64>().expect("u64"));
                    }
                    std::hint::black_box(sum);
                    cpu0.zip(thread_cpu_ns()).map(|(a, b)| b - a)
                })
            })
            .collect();
        let cpu: Vec<Option<u64>> = workers
            .into_iter()
            .map(|w| w.join().expect("bench thread"))
            .collect();
        let wall = start.elapsed().as_nanos() as f64 / ROUNDS as f64;
        let cpu: Vec<String> = cpu
            .iter()
            .map(|c| c.map_or("?".into(), |c| format!("{:.1}", c as f64 / ROUNDS as f64)))
            .collect();
        println!(
            "lookup hit, {keys} keys, {threads} thread(s): wall {wall:.1} ns per lookup per thread, \
             on-CPU {} ns per lookup per thread",
            cpu.join(" / ")
        );
    }
}
