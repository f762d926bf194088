// SPDX-License-Identifier: Apache-2.0
//! Table blocks in the shared block cache (read path: gets and iterators; table open).
//!
//! A [`super::Table`] opened with a block cache reads its data blocks through it: a lookup
//! under the block's [`CacheKey`], and on a miss a read from the file (checksum verified,
//! decompressed, parsed) followed by an insert. An iterator holds the returned [`Handle`],
//! so the block stays pinned while the iterator is positioned in it; a point lookup only
//! borrows the block (`LruCache::borrow`: no pin, no second trip through the shard lock).
//! With `cache_index_and_filter_blocks`, the index block and the filter are cached the same
//! way at open, and the table pins them for its whole life.
//!
//! Keys:
//!
//! ```text
//! CacheKey { prefix: cache_prefix, file_number, offset }
//!   cache_prefix : LruCache::new_id(), one per (DB, cache) pair (see db::table_cache)
//!   file_number  : the table's file number (unique within one DB)
//!   offset       : the block handle's offset (data, index or filter block)
//! ```
//!
//! Values are [`Block`] (data and index blocks) and [`CachedFilter`]; the charge is the
//! decoded size plus [`ENTRY_OVERHEAD`]. A cache that cannot hold a block (capacity 0, a
//! block larger than a shard, a strict cache full of pinned entries) never fails a read: a
//! refused insert leaves the block uncached and the read uses it directly.
//!
//! Pinning: the index and filter blocks of a table opened with
//! `pin_index_and_filter_blocks` (level 0 tables under
//! `pin_l0_filter_and_index_blocks_in_cache`) stay pinned while the table is open; other
//! tables' are cached unpinned, so the cache may evict them.
//!
//! Difference from RocksDB: an open table keeps its own reference to its index and filter
//! whether or not they are pinned, so evicting an unpinned one frees its charge in the
//! cache but not its memory (RocksDB drops its reference and reads the block again after an
//! eviction). A table's pinning is decided when it is opened: a level 0 table moved down by
//! a trivial move stays pinned until it leaves the table cache, as in RocksDB.

use std::any::Any;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::block::Block;
use super::filter_api::FilterBlockReader;
use crate::cache::{CacheKey, Handle, LruCache, Priority};

/// Bytes charged per entry on top of the decoded contents: the value's header and the `Arc`
/// counters (the cache adds its own bookkeeping, see "Metadata charge" in `cache/lru.rs`).
pub const ENTRY_OVERHEAD: usize = std::mem::size_of::<Block>() + 2 * std::mem::size_of::<usize>();

/// The kinds of block a table puts in the cache (RocksDB's `BlockType` subset).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockKind {
    Data,
    Index,
    Filter,
}

/// A table's filter as cached: the filter block and the reader built from it.
pub struct CachedFilter {
    /// The filter block's contents, as stored in the table (uncompressed).
    pub block: Vec<u8>,
    /// `None` when the filter is of an unknown kind or no factory was given.
    pub reader: Option<Box<dyn FilterBlockReader>>,
}

impl CachedFilter {
    /// The charge: the block, plus as much again for the reader, which keeps its own copy.
    pub fn charge(&self) -> usize {
        let reader = if self.reader.is_some() {
            self.block.len()
        } else {
            0
        };
        self.block.len() + reader + ENTRY_OVERHEAD
    }
}

/// Block cache counters of one DB (RocksDB's `BLOCK_CACHE_*` tickers), shared by its tables.
/// [`LruCache::stats`] counts the same events summed over every user of the cache.
#[derive(Debug, Default)]
pub struct BlockCacheTickers {
    data_hit: AtomicU64,
    data_miss: AtomicU64,
    index_hit: AtomicU64,
    index_miss: AtomicU64,
    filter_hit: AtomicU64,
    filter_miss: AtomicU64,
    add: AtomicU64,
    add_failures: AtomicU64,
    bytes_write: AtomicU64,
}

/// A copy of [`BlockCacheTickers`]' values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BlockCacheCounts {
    /// `rocksdb.block.cache.hit`: hits of every kind.
    pub hit: u64,
    /// `rocksdb.block.cache.miss`.
    pub miss: u64,
    pub data_hit: u64,
    pub data_miss: u64,
    pub index_hit: u64,
    pub index_miss: u64,
    pub filter_hit: u64,
    pub filter_miss: u64,
    /// `rocksdb.block.cache.add`: blocks inserted.
    pub add: u64,
    /// `rocksdb.block.cache.add.failures`: inserts a strict cache refused.
    pub add_failures: u64,
    /// `rocksdb.block.cache.bytes.write`: charge of the blocks inserted.
    pub bytes_write: u64,
}

impl BlockCacheTickers {
    fn record(&self, kind: BlockKind, hit: bool) {
        let counter = match (kind, hit) {
            (BlockKind::Data, true) => &self.data_hit,
            (BlockKind::Data, false) => &self.data_miss,
            (BlockKind::Index, true) => &self.index_hit,
            (BlockKind::Index, false) => &self.index_miss,
            (BlockKind::Filter, true) => &self.filter_hit,
            (BlockKind::Filter, false) => &self.filter_miss,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// The counters' current values.
    pub fn snapshot(&self) -> BlockCacheCounts {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        let mut out = BlockCacheCounts {
            data_hit: get(&self.data_hit),
            data_miss: get(&self.data_miss),
            index_hit: get(&self.index_hit),
            index_miss: get(&self.index_miss),
            filter_hit: get(&self.filter_hit),
            filter_miss: get(&self.filter_miss),
            add: get(&self.add),
            add_failures: get(&self.add_failures),
            bytes_write: get(&self.bytes_write),
            ..BlockCacheCounts::default()
        };
        out.hit = out.data_hit + out.index_hit + out.filter_hit;
        out.miss = out.data_miss + out.index_miss + out.filter_miss;
        out
    }
}

/// Where one table's blocks live in a cache.
#[derive(Clone)]
pub(crate) struct TableCacheSlot {
    pub cache: Arc<LruCache>,
    pub prefix: u64,
    pub file_number: u64,
    pub tickers: Option<Arc<BlockCacheTickers>>,
}

impl TableCacheSlot {
    fn key(&self, offset: u64) -> CacheKey {
        CacheKey::new(self.prefix, self.file_number, offset)
    }

    /// Starts loading the cache bucket a lookup of the block at `offset` reads first.
    pub(crate) fn prefetch(&self, offset: u64) {
        self.cache.prefetch(&self.key(offset));
    }

    /// The cached value of the block at `offset`, pinned, if it is there and a `T`.
    pub(crate) fn lookup<T: Any + Send + Sync>(
        &self,
        offset: u64,
        kind: BlockKind,
    ) -> Option<(Arc<T>, Handle)> {
        let found = self
            .cache
            .lookup(&self.key(offset))
            .and_then(|h| h.value_arc::<T>().map(|v| (v, h)));
        if let Some(t) = &self.tickers {
            t.record(kind, found.is_some());
        }
        found
    }

    /// The cached value of the block at `offset`, borrowed (not pinned; see
    /// [`LruCache::borrow`]), if it is there and a `T`: for a reader that drops it soon.
    pub(crate) fn borrow<T: Any + Send + Sync>(
        &self,
        offset: u64,
        kind: BlockKind,
    ) -> Option<Arc<T>> {
        let found = self
            .cache
            .borrow(&self.key(offset))
            .and_then(|v| v.downcast::<T>().ok());
        if let Some(t) = &self.tickers {
            t.record(kind, found.is_some());
        }
        found
    }

    /// Inserts `value` as the block at `offset` and returns the pin, or `None` when the cache
    /// refused it (the caller then uses `value` uncached).
    pub(crate) fn insert<T: Any + Send + Sync>(
        &self,
        offset: u64,
        value: &Arc<T>,
        charge: usize,
        priority: Priority,
    ) -> Option<Handle> {
        let stored: Arc<dyn Any + Send + Sync> = Arc::clone(value) as _;
        let outcome = self
            .cache
            .insert(self.key(offset), stored, charge, priority)
            .ok();
        self.count_insert(outcome.is_some(), charge);
        outcome
    }

    /// Inserts `value` as the block at `offset` without pinning it (for a reader that
    /// borrows); returns whether the cache took it. `hint` is what lookups prefetch (see
    /// [`LruCache::insert_detached_with_hint`]).
    pub(crate) fn insert_unpinned<T: Any + Send + Sync>(
        &self,
        offset: u64,
        value: &Arc<T>,
        hint: usize,
        charge: usize,
        priority: Priority,
    ) -> bool {
        let stored: Arc<dyn Any + Send + Sync> = Arc::clone(value) as _;
        let taken =
            self.cache
                .insert_detached_with_hint(self.key(offset), stored, hint, charge, priority);
        self.count_insert(taken, charge);
        taken
    }

    fn count_insert(&self, taken: bool, charge: usize) {
        if let Some(t) = &self.tickers {
            if taken {
                t.add.fetch_add(1, Ordering::Relaxed);
                t.bytes_write.fetch_add(charge as u64, Ordering::Relaxed);
            } else {
                t.add_failures.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
}

/// The charge of a decoded data or index block.
pub(crate) fn block_charge(block: &Block) -> usize {
    block.size() + block.aux_size() + ENTRY_OVERHEAD
}

#[cfg(test)]
#[path = "block_cache_tests.rs"]
mod tests;
