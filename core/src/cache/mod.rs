// SPDX-License-Identifier: Apache-2.0
//! Shared memory budgets: the block cache and the write buffer manager.
//!
//! Read path: [`lru::LruCache`] is the block cache. One `Arc<LruCache>` may be shared by any
//! number of DBs and holds decoded data, index and filter blocks side by side, each charged
//! by its size in bytes.
//!
//! Write path: [`write_buffer_manager::WriteBufferManager`] counts memtable memory across
//! column families and DBs, says when to flush or stall, and can charge that memory to a
//! block cache with pinned dummy entries, so that one cache capacity bounds both.

pub mod lru;
mod lru_shard;
mod lru_table;
pub mod write_buffer_manager;

pub use lru::{
    CacheKey, CacheStats, Handle, LruCache, LruCacheOptions, MetadataChargePolicy, Priority,
};
pub use write_buffer_manager::WriteBufferManager;

/// `LruCache::new` without the metadata charge, for tests whose usage must be exactly the
/// charges they pass.
#[cfg(test)]
pub(crate) fn uncharged(capacity: usize, bits: i32, strict: bool, high_ratio: f64) -> LruCache {
    LruCache::from_options(&LruCacheOptions {
        capacity,
        num_shard_bits: bits,
        strict_capacity_limit: strict,
        high_pri_pool_ratio: high_ratio,
        metadata_charge_policy: MetadataChargePolicy::DontCharge,
        ..LruCacheOptions::default()
    })
    .expect("valid options")
}
