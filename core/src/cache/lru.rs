// SPDX-License-Identifier: Apache-2.0
//! The block cache: a sharded LRU cache with a byte capacity, RocksDB's `NewLRUCache`.
//!
//! Read path (table readers cache decoded blocks here) and write path (the write buffer
//! manager charges memtable memory here with dummy entries).
//!
//! # Design
//!
//! The key space is split into `2^num_shard_bits` shards by the key's hash; each shard has
//! its own mutex, capacity (`ceil(capacity / shards)`), hash table and LRU list, so threads
//! working on different blocks rarely meet. Every operation is O(1) under one shard lock.
//! The shard's hash table is its own (`lru_table.rs`): one cache miss to the bucket where
//! std's table takes two, and the bucket holds a reference to the value so that loading the
//! value does not wait for the node. On readrandom with a warm 512 MiB cache (the driver,
//! 1M keys, 5 runs, median) that took 5.9 µs of CPU per get down to 4.3.
//!
//! An entry is *in cache* while the shard's table maps its key to it, and *pinned* while a
//! [`Handle`] to it is alive (a reference count). Only entries that are in cache and not
//! pinned sit on the LRU list, so eviction never touches a pinned entry. Usage counts every
//! entry's charge until the entry is freed, pinned ones included; pinned usage is usage
//! minus what is on the LRU list. An entry erased or replaced while pinned leaves the table
//! at once but keeps its charge until its last handle is dropped.
//!
//! Insertion first evicts least recently used entries until the new charge fits. If it still
//! does not fit (everything left is pinned), a strict cache refuses the insert with
//! `Incomplete: Insert failed due to LRU cache being full.` and a non-strict cache goes over
//! capacity. When the last handle to an entry is dropped while the shard is over capacity,
//! the entry is freed instead of being put back on the list (RocksDB does the same).
//!
//! The LRU list has three pools, as in RocksDB 7.8: from the cold end, the bottom pool, the
//! low-priority pool (`low_pri_pool_ratio` of capacity) and the high-priority pool
//! (`high_pri_pool_ratio`). High-priority entries, and entries that were hit at least once,
//! go to the head of the high pool; low-priority entries go to the head of the low pool
//! (or of the bottom pool when the low pool has no room), bottom-priority entries go to the
//! head of the bottom pool. A pool over its share spills its coldest entries to the next
//! pool down. With the defaults (0.5 and 0.0), blocks that were read twice outlive blocks
//! read once.
//!
//! # Borrowing
//!
//! A point lookup reads its data block for a microsecond and drops it; pinning it costs a
//! second trip through the shard lock (the release) and two list moves, the first of which
//! writes the entry's list neighbours: two more cache misses on a large cache.
//! [`LruCache::borrow`] is the cheaper hit for such a reader. The entry stays where it is,
//! marked; when a marked entry reaches the cold end, eviction moves it to the hot end (as
//! the pin's release would have, into the high pool when there is one) and clears the mark,
//! then goes on. The list's order is then CLOCK's, a second chance, rather than exact LRU
//! order for borrowed entries. The borrower's reference keeps the value alive, but it is
//! not a pin: eviction may free the entry's charge while the borrower still reads it, so a
//! borrow is for short reads (gets and multi_gets); iterators pin.
//!
//! The list is intrusive but safe: nodes live in a slab `Vec` and link by index; slot 0 is
//! the list's sentinel. A slot is reused only after its entry left the table and lost its
//! last handle, so a handle's slot index stays valid for the handle's whole life.
//!
//! Values are `Arc<dyn Any + Send + Sync>`, so that one cache holds data, index and filter
//! blocks of any type for any number of DBs; [`Handle::value`] downcasts. A generic
//! `LruCache<V>` was rejected because a cache shared across DBs must hold several types.
//! Evicted values are dropped after the shard lock is released.
//!
//! # Metadata charge
//!
//! Each entry is charged what the caller passes plus the cache's own bookkeeping for it: its
//! slab node and its share of the shard's table (two buckets: the table is kept at most half
//! full), [`LruCache::metadata_charge`] bytes. RocksDB's default metadata charge policy
//! (`kFullChargeCacheMetadata`) charges its handle and key the same way. Without it, a cache
//! of 4 KiB blocks held about 4% more memory than its capacity (Kahuna's large dataset behind
//! 256 MiB: about 60,000 entries of some 170 bytes each), and a capacity did not bound the
//! memory it was given for. [`MetadataChargePolicy::DontCharge`] turns it off (RocksDB's
//! `kDontChargeCacheMetadata`), for tests that count exact charges.
//!
//! Difference from RocksDB: there is no secondary cache.

use std::any::Any;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use parking_lot::Mutex;

use super::lru_shard::{Shard, ShardState, ENTRY_METADATA};
use crate::error::{Code, Error, Result};

/// What the cache stores: any shareable value (a decoded block, a filter, a dummy entry).
pub type CacheValue = Arc<dyn Any + Send + Sync>;

/// The text of the error a strict cache returns when an insert cannot fit (RocksDB's).
pub const CACHE_FULL_MESSAGE: &str = "Insert failed due to LRU cache being full.";

/// Shards are at least this big when `num_shard_bits` is chosen automatically (RocksDB's
/// `GetDefaultCacheShardBits`).
const MIN_SHARD_SIZE: usize = 512 * 1024;
/// The automatic choice never exceeds this many shard bits.
const MAX_AUTO_SHARD_BITS: u32 = 6;
/// RocksDB refuses this many shard bits or more.
const SHARD_BITS_LIMIT: i32 = 20;

/// Identifies one cached block: a namespace from [`LruCache::new_id`] (one per DB or per
/// table reader), the table's file number and the block's offset in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct CacheKey {
    /// A value from [`LruCache::new_id`], so that users of one cache never collide.
    pub prefix: u64,
    /// The SST file number (or any second-level name the owner of `prefix` chooses).
    pub file_number: u64,
    /// The block's offset in the file.
    pub offset: u64,
}

impl CacheKey {
    /// The key of the block at `offset` in file `file_number`, under `prefix`.
    pub const fn new(prefix: u64, file_number: u64, offset: u64) -> Self {
        CacheKey {
            prefix,
            file_number,
            offset,
        }
    }

    /// The key as 24 bytes: prefix, file number, offset, each fixed64 little-endian.
    pub fn to_bytes(&self) -> [u8; 24] {
        let mut out = [0u8; 24];
        out[..8].copy_from_slice(&self.prefix.to_le_bytes());
        out[8..16].copy_from_slice(&self.file_number.to_le_bytes());
        out[16..].copy_from_slice(&self.offset.to_le_bytes());
        out
    }

    /// A well-mixed 64-bit hash: bits 32.. choose the shard, the shard's table uses the
    /// low bits (home bucket) and keeps all 64.
    pub(super) fn hash64(&self) -> u64 {
        const K0: u64 = 0x9e37_79b9_7f4a_7c15;
        const K1: u64 = 0xc2b2_ae3d_27d4_eb4f;
        let mut h = self.prefix.wrapping_mul(K0);
        h = (h ^ self.file_number).rotate_left(23).wrapping_mul(K1);
        h = (h ^ self.offset).rotate_left(31).wrapping_mul(K0);
        // MurmurHash3's 64-bit finaliser.
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

impl Hash for CacheKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash64());
    }
}

/// Where an entry enters the LRU list (RocksDB's `Cache::Priority`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Priority {
    /// Index and filter blocks when `cache_index_and_filter_blocks_with_high_priority`.
    High,
    /// The default: data blocks.
    #[default]
    Low,
    /// Entries to evict first (blob values in RocksDB).
    Bottom,
}

/// Counters summed over all shards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CacheStats {
    /// Lookups that found their key.
    pub hits: u64,
    /// Lookups that did not.
    pub misses: u64,
    /// Entries that entered the cache.
    pub inserts: u64,
    /// Pinned inserts a strict cache refused.
    pub insert_failures: u64,
    /// Entries evicted to make room (not counting erases and replacements).
    pub evictions: u64,
}

/// Whether entries are also charged the cache's bookkeeping for them (RocksDB's
/// `CacheMetadataChargePolicy`; see "Metadata charge" in the module notes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MetadataChargePolicy {
    /// Only what the caller passes.
    DontCharge,
    /// What the caller passes plus [`LruCache::metadata_charge`] (RocksDB's default).
    #[default]
    FullCharge,
}

/// How to build an [`LruCache`] (RocksDB's `LRUCacheOptions`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LruCacheOptions {
    /// Total capacity in bytes of charge.
    pub capacity: usize,
    /// `log2` of the shard count; negative means "choose from the capacity" (one shard per
    /// 512 KiB, at most 64 shards).
    pub num_shard_bits: i32,
    /// Refuse pinned inserts that cannot fit, instead of going over capacity.
    pub strict_capacity_limit: bool,
    /// Share of capacity for the high-priority pool, in `[0, 1]`.
    pub high_pri_pool_ratio: f64,
    /// Share of capacity for the low-priority pool, in `[0, 1]`.
    pub low_pri_pool_ratio: f64,
    /// Whether each entry is also charged the cache's bookkeeping for it.
    pub metadata_charge_policy: MetadataChargePolicy,
}

impl Default for LruCacheOptions {
    fn default() -> Self {
        LruCacheOptions {
            capacity: 0,
            num_shard_bits: -1,
            strict_capacity_limit: false,
            high_pri_pool_ratio: 0.5,
            low_pri_pool_ratio: 0.0,
            metadata_charge_policy: MetadataChargePolicy::FullCharge,
        }
    }
}

/// A sharded LRU cache with a byte capacity. `Send + Sync`: share it as `Arc<LruCache>`.
///
/// # Examples
///
/// ```
/// use std::sync::Arc;
/// use solistore::cache::{CacheKey, LruCache, Priority};
///
/// let cache = LruCache::new(1 << 20, -1, false, 0.5);
/// let ns = cache.new_id();
/// let key = CacheKey::new(ns, 7, 4096);
/// let handle = cache.insert(key, Arc::new(vec![1u8, 2, 3]), 3, Priority::Low)?;
/// assert_eq!(handle.value::<Vec<u8>>(), Some(&vec![1, 2, 3]));
/// assert_eq!(cache.pinned_usage(), 3 + cache.metadata_charge());
/// drop(handle);
/// assert_eq!(cache.pinned_usage(), 0);
/// assert!(cache.lookup(&key).is_some());
/// # Ok::<(), solistore::Error>(())
/// ```
pub struct LruCache {
    shards: Box<[Arc<Shard>]>,
    /// `shards.len() - 1`; shards are a power of two.
    shard_mask: usize,
    /// Total capacity as configured. Guarded by itself; shards hold their own share.
    capacity: Mutex<usize>,
    /// Next value of `new_id`; atomic, starts at 1.
    next_id: AtomicU64,
    /// Bytes added to every entry's charge (see "Metadata charge").
    metadata_charge: usize,
}

impl fmt::Debug for LruCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LruCache")
            .field("capacity", &self.capacity())
            .field("shards", &self.shards.len())
            .finish_non_exhaustive()
    }
}

impl LruCache {
    /// A cache like RocksDB's `NewLRUCache(capacity, num_shard_bits, strict_capacity_limit,
    /// high_pri_pool_ratio)`. Out-of-range arguments are clamped (shard bits to 19, the
    /// ratio to `[0, 1]`); use [`LruCache::try_new`] to have them refused instead.
    pub fn new(
        capacity: usize,
        num_shard_bits: i32,
        strict_capacity_limit: bool,
        high_pri_pool_ratio: f64,
    ) -> Self {
        let ratio = if high_pri_pool_ratio.is_nan() {
            0.0
        } else {
            high_pri_pool_ratio.clamp(0.0, 1.0)
        };
        Self::build(&LruCacheOptions {
            capacity,
            num_shard_bits: num_shard_bits.min(SHARD_BITS_LIMIT - 1),
            strict_capacity_limit,
            high_pri_pool_ratio: ratio,
            ..LruCacheOptions::default()
        })
    }

    /// `NewLRUCache(capacity)`: automatic sharding, not strict, high-priority pool 0.5.
    pub fn with_capacity(capacity: usize) -> Self {
        Self::build(&LruCacheOptions {
            capacity,
            ..LruCacheOptions::default()
        })
    }

    /// Like [`LruCache::new`] but refuses what RocksDB refuses.
    ///
    /// # Errors
    ///
    /// `InvalidArgument` when `num_shard_bits >= 20` or a ratio is outside `[0, 1]`.
    pub fn try_new(
        capacity: usize,
        num_shard_bits: i32,
        strict_capacity_limit: bool,
        high_pri_pool_ratio: f64,
    ) -> Result<Self> {
        Self::from_options(&LruCacheOptions {
            capacity,
            num_shard_bits,
            strict_capacity_limit,
            high_pri_pool_ratio,
            ..LruCacheOptions::default()
        })
    }

    /// A cache from a full set of options.
    ///
    /// # Errors
    ///
    /// `InvalidArgument` when `num_shard_bits >= 20`, a ratio is outside `[0, 1]`, or the
    /// two ratios add up to more than 1.
    pub fn from_options(options: &LruCacheOptions) -> Result<Self> {
        if options.num_shard_bits >= SHARD_BITS_LIMIT {
            return Err(Error::invalid_argument(format!(
                "LRU cache num_shard_bits must be below {SHARD_BITS_LIMIT}, got {}",
                options.num_shard_bits
            )));
        }
        let (high, low) = (options.high_pri_pool_ratio, options.low_pri_pool_ratio);
        let in_unit = |r: f64| (0.0..=1.0).contains(&r);
        if !in_unit(high) || !in_unit(low) || high + low > 1.0 {
            return Err(Error::invalid_argument(format!(
                "LRU cache pool ratios must lie in [0, 1] and sum to at most 1, got \
                 high {high} and low {low}"
            )));
        }
        Ok(Self::build(options))
    }

    fn build(options: &LruCacheOptions) -> Self {
        let bits = u32::try_from(options.num_shard_bits)
            .unwrap_or_else(|_| default_shard_bits(options.capacity));
        let num_shards = 1usize << bits;
        let per_shard = per_shard_capacity(options.capacity, num_shards);
        let shards = (0..num_shards)
            .map(|_| {
                Arc::new(Shard::new(ShardState::new(
                    per_shard,
                    options.strict_capacity_limit,
                    options.high_pri_pool_ratio,
                    options.low_pri_pool_ratio,
                )))
            })
            .collect();
        LruCache {
            shards,
            shard_mask: num_shards - 1,
            capacity: Mutex::new(options.capacity),
            next_id: AtomicU64::new(1),
            metadata_charge: match options.metadata_charge_policy {
                MetadataChargePolicy::DontCharge => 0,
                MetadataChargePolicy::FullCharge => ENTRY_METADATA,
            },
        }
    }

    /// The bytes this cache adds to each entry's charge for its own bookkeeping (0 under
    /// [`MetadataChargePolicy::DontCharge`]).
    pub fn metadata_charge(&self) -> usize {
        self.metadata_charge
    }

    /// A number no other caller of this cache's `new_id` gets: a [`CacheKey::prefix`].
    pub fn new_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// Inserts `value` under `key`, charged `charge` bytes, and returns a handle that pins
    /// it. An entry already under `key` leaves the cache (it is freed when unpinned).
    ///
    /// # Errors
    ///
    /// `Incomplete: Insert failed due to LRU cache being full.` when the cache has a strict
    /// capacity limit and `charge` does not fit even after evicting every unpinned entry.
    pub fn insert(
        &self,
        key: CacheKey,
        value: CacheValue,
        charge: usize,
        priority: Priority,
    ) -> Result<Handle> {
        let shard = self.shard_for(&key);
        let pinned_value = Arc::clone(&value);
        let mut garbage = Vec::new();
        let total = charge.saturating_add(self.metadata_charge);
        let outcome = shard.insert(key, value, 0, total, priority, true, &mut garbage);
        drop(garbage);
        match outcome {
            Some(slot) => Ok(Handle {
                shard: Arc::clone(shard),
                slot,
                key,
                charge,
                value: pinned_value,
                erase_on_release: false,
            }),
            None => Err(Error::new(Code::Incomplete, CACHE_FULL_MESSAGE)),
        }
    }

    /// Inserts without pinning (RocksDB's `Insert` with a NULL handle). Returns whether the
    /// entry stayed in the cache: when it cannot fit after evicting every unpinned entry,
    /// it is dropped at once, strict limit or not, as if inserted and evicted immediately.
    pub fn insert_detached(
        &self,
        key: CacheKey,
        value: CacheValue,
        charge: usize,
        priority: Priority,
    ) -> bool {
        self.insert_detached_with_hint(key, value, 0, charge, priority)
    }

    /// [`Self::insert_detached`] with a prefetch hint: an address inside `value` (or 0) that
    /// a reader needs right after finding it, which lookups then start loading together with
    /// the value itself (for a data block, its restart array). Only ever prefetched.
    pub fn insert_detached_with_hint(
        &self,
        key: CacheKey,
        value: CacheValue,
        hint: usize,
        charge: usize,
        priority: Priority,
    ) -> bool {
        let shard = self.shard_for(&key);
        let mut garbage = Vec::new();
        let total = charge.saturating_add(self.metadata_charge);
        let outcome = shard.insert(key, value, hint, total, priority, false, &mut garbage);
        drop(garbage);
        outcome.is_some()
    }

    /// Finds `key` and pins its entry; the entry counts as recently used.
    pub fn lookup(&self, key: &CacheKey) -> Option<Handle> {
        let shard = self.shard_for(key);
        let (slot, value, total) = shard.state.lock().lookup(key)?;
        Some(Handle {
            shard: Arc::clone(shard),
            slot,
            key: *key,
            charge: total.saturating_sub(self.metadata_charge),
            value,
            erase_on_release: false,
        })
    }

    /// Finds `key` and returns its value without pinning the entry: a hit that leaves the
    /// entry in place on the LRU list and marks it, so that eviction moves it to the hot end
    /// instead of evicting it (see "Borrowing" in the module notes). The value is the
    /// caller's own reference; once the entry is evicted it is no longer charged.
    pub fn borrow(&self, key: &CacheKey) -> Option<CacheValue> {
        self.shard_for(key).state.lock().borrow(key)
    }

    /// Starts loading the part of the cache a lookup of `key` reads first (a hint; see
    /// `util::prefetch`), for a caller that looks several keys up and can do other work
    /// while the line arrives.
    pub fn prefetch(&self, key: &CacheKey) {
        let hash = key.hash64();
        self.shard_of_hash(hash).prefetch(hash);
    }

    /// Removes `key` from the cache. A pinned entry stays alive (and charged) until its
    /// last handle is dropped, but later lookups miss.
    pub fn erase(&self, key: &CacheKey) {
        let garbage = self.shard_for(key).state.lock().erase(key);
        drop(garbage);
    }

    /// Frees every entry that is not pinned (RocksDB's `EraseUnRefEntries`).
    pub fn erase_unpinned(&self) {
        for shard in self.shards.iter() {
            let mut garbage = Vec::new();
            {
                let mut state = shard.state.lock();
                state.evict_all_unpinned(&mut garbage);
            }
            drop(garbage);
        }
    }

    /// Bytes charged by all entries alive, pinned ones included.
    pub fn usage(&self) -> usize {
        self.shards.iter().map(|s| s.state.lock().usage).sum()
    }

    /// Bytes charged by pinned entries.
    pub fn pinned_usage(&self) -> usize {
        self.shards
            .iter()
            .map(|s| {
                let st = s.state.lock();
                st.usage - st.lru_usage
            })
            .sum()
    }

    /// The total capacity in bytes, as configured.
    pub fn capacity(&self) -> usize {
        *self.capacity.lock()
    }

    /// Changes the capacity; shards evict unpinned entries down to their new share.
    pub fn set_capacity(&self, capacity: usize) {
        let mut total = self.capacity.lock();
        *total = capacity;
        let per_shard = per_shard_capacity(capacity, self.shards.len());
        for shard in self.shards.iter() {
            let mut garbage = Vec::new();
            shard.state.lock().set_capacity(per_shard, &mut garbage);
            drop(garbage);
        }
    }

    /// Whether inserts that cannot fit are refused.
    pub fn strict_capacity_limit(&self) -> bool {
        self.shards
            .first()
            .is_some_and(|s| s.state.lock().strict_capacity_limit)
    }

    /// Turns refusing inserts that cannot fit on or off.
    pub fn set_strict_capacity_limit(&self, strict: bool) {
        for shard in self.shards.iter() {
            shard.state.lock().strict_capacity_limit = strict;
        }
    }

    /// The high-priority pool's share of capacity.
    pub fn high_pri_pool_ratio(&self) -> f64 {
        self.shards
            .first()
            .map_or(0.0, |s| s.state.lock().high_pri_pool_ratio)
    }

    /// Number of entries in the cache (pinned entries that were erased are not counted).
    pub fn entries(&self) -> usize {
        self.shards.iter().map(|s| s.state.lock().table.len()).sum()
    }

    /// Sum of the shards' hash table buckets (RocksDB's `GetTableAddressCount`). A shard's
    /// table starts with the 16 slots RocksDB's LRU handle table starts with, so an empty
    /// cache reports what RocksDB's does; a used one reports at least twice its entries.
    pub fn table_address_count(&self) -> usize {
        self.shards
            .iter()
            .map(|s| s.state.lock().table.capacity())
            .sum()
    }

    /// The number of shards, `2^num_shard_bits`.
    pub fn num_shards(&self) -> usize {
        self.shards.len()
    }

    /// Hit, miss, insert and eviction counters summed over the shards.
    pub fn stats(&self) -> CacheStats {
        let mut total = CacheStats::default();
        for shard in self.shards.iter() {
            let s = shard.state.lock().stats;
            total.hits += s.hits;
            total.misses += s.misses;
            total.inserts += s.inserts;
            total.insert_failures += s.insert_failures;
            total.evictions += s.evictions;
        }
        total
    }

    /// Number of entries in each shard, in shard order (to check the key distribution).
    pub fn shard_entries(&self) -> Vec<usize> {
        self.shards
            .iter()
            .map(|s| s.state.lock().table.len())
            .collect()
    }

    fn shard_for(&self, key: &CacheKey) -> &Arc<Shard> {
        self.shard_of_hash(key.hash64())
    }

    fn shard_of_hash(&self, hash: u64) -> &Arc<Shard> {
        // Bits 32.. do not overlap the bits the shard's table uses at any realistic size.
        &self.shards[((hash >> 32) as usize) & self.shard_mask]
    }
}

/// RocksDB's `GetDefaultCacheShardBits`: one shard per 512 KiB, at most 2^6 shards.
fn default_shard_bits(capacity: usize) -> u32 {
    let mut num_shards = capacity / MIN_SHARD_SIZE;
    let mut bits = 0;
    loop {
        num_shards >>= 1;
        if num_shards == 0 {
            return bits;
        }
        bits += 1;
        if bits >= MAX_AUTO_SHARD_BITS {
            return bits;
        }
    }
}

fn per_shard_capacity(capacity: usize, num_shards: usize) -> usize {
    capacity.div_ceil(num_shards)
}

/// A pinned cache entry. Dropping it unpins the entry; cloning pins it once more.
/// The value stays readable for the handle's whole life, even if the entry is erased.
pub struct Handle {
    shard: Arc<Shard>,
    /// The entry's slot in the shard's slab; valid while this handle lives.
    slot: u32,
    key: CacheKey,
    charge: usize,
    value: CacheValue,
    /// Set by `release_and_erase`: the drop also removes the entry if it was the last pin.
    erase_on_release: bool,
}

impl fmt::Debug for Handle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Handle")
            .field("key", &self.key)
            .field("charge", &self.charge)
            .finish_non_exhaustive()
    }
}

impl Handle {
    /// The value, if it is a `T`.
    pub fn value<T: Any>(&self) -> Option<&T> {
        self.value.downcast_ref::<T>()
    }

    /// The value as stored.
    pub fn value_any(&self) -> &CacheValue {
        &self.value
    }

    /// A shared pointer to the value, if it is a `T`; it outlives the handle (but does not
    /// keep the entry pinned).
    pub fn value_arc<T: Any + Send + Sync>(&self) -> Option<Arc<T>> {
        Arc::clone(&self.value).downcast::<T>().ok()
    }

    /// The key the entry was inserted or found under.
    pub fn key(&self) -> &CacheKey {
        &self.key
    }

    /// The charge the entry was inserted with.
    pub fn charge(&self) -> usize {
        self.charge
    }

    /// Unpins the entry and, if no other handle pins it, removes it from the cache
    /// (RocksDB's `Release(handle, erase_if_last_ref = true)`).
    pub fn release_and_erase(mut self) {
        self.erase_on_release = true;
    }
}

impl Clone for Handle {
    fn clone(&self) -> Self {
        self.shard.state.lock().pin_again(self.slot);
        Handle {
            shard: Arc::clone(&self.shard),
            slot: self.slot,
            key: self.key,
            charge: self.charge,
            value: Arc::clone(&self.value),
            erase_on_release: false,
        }
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        let freed = self
            .shard
            .state
            .lock()
            .release(self.slot, self.erase_on_release);
        // Dropped here, after the shard lock.
        drop(freed);
    }
}

#[cfg(test)]
impl LruCache {
    /// Keys on the LRU list of the shard that holds `key`, coldest first.
    fn lru_keys_of_shard(&self, key: &CacheKey) -> Vec<CacheKey> {
        self.shard_for(key).state.lock().lru_keys()
    }

    fn check_invariants(&self) {
        for shard in self.shards.iter() {
            shard.state.lock().check_invariants();
        }
    }
}

#[cfg(test)]
#[path = "lru_tests.rs"]
mod tests;
