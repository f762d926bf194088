// SPDX-License-Identifier: Apache-2.0
//! `rocksdb_cache_*`, `rocksdb_lru_cache_options_*`, `rocksdb_hyper_clock_cache_options_*`:
//! block and row caches (config path; the read path charges table blocks to them).
//!
//! A cache is shared (c-api-conventions.md §4): the handle holds an `Arc`, and setters such as
//! `rocksdb_block_based_options_set_block_cache` take their own share, so the caller may
//! destroy its handle right after setting. Behind every handle is one engine
//! [`LruCache`](engine::cache::LruCache), created with the handle's capacity, strict flag,
//! shard bits and RocksDB's default high-priority pool ratio (0.5); `rocksdb_open*` hands it
//! to the column families as their block cache, so capacity, usage and occupancy are the real
//! cache's numbers. A HyperClockCache is an LRU cache here (same capacity and shards).

use std::ffi::c_int;
use std::sync::Arc;

use engine::cache::LruCache;

use crate::ffi;
use crate::options::{get, set};
use crate::types::rocksdb_memory_allocator_t;

/// Which replacement policy RocksDB would use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CacheKind {
    Lru,
    HyperClock,
}

/// RocksDB's default share of an LRU cache for high-priority entries (`LRUCacheOptions`).
const HIGH_PRI_POOL_RATIO: f64 = 0.5;

/// A cache shared by every holder: the engine's cache plus what RocksDB would report about
/// its kind.
#[derive(Debug)]
pub(crate) struct Cache {
    #[cfg_attr(
        not(test),
        expect(dead_code, reason = "RocksDB's cache kind; no C getter reads it")
    )]
    pub(crate) kind: CacheKind,
    /// The engine cache that table blocks are charged to.
    pub(crate) lru: Arc<LruCache>,
    /// HyperClockCache only (kept; the LRU stand-in does not need it).
    #[expect(dead_code, reason = "kept for a HyperClockCache implementation")]
    pub(crate) estimated_entry_charge: usize,
}

impl Cache {
    /// An LRU cache of `capacity` bytes with automatic sharding.
    pub(crate) fn lru(capacity: usize, strict_capacity_limit: bool) -> Self {
        Self::with_shard_bits(CacheKind::Lru, capacity, strict_capacity_limit, -1)
    }

    /// A cache of `kind` with `num_shard_bits` (-1: chosen from the capacity; values the
    /// engine cannot take are clamped by it).
    pub(crate) fn with_shard_bits(
        kind: CacheKind,
        capacity: usize,
        strict_capacity_limit: bool,
        num_shard_bits: c_int,
    ) -> Self {
        Cache {
            kind,
            lru: Arc::new(LruCache::new(
                capacity,
                num_shard_bits,
                strict_capacity_limit,
                HIGH_PRI_POOL_RATIO,
            )),
            estimated_entry_charge: 0,
        }
    }

    pub(crate) fn capacity(&self) -> usize {
        self.lru.capacity()
    }

    #[cfg_attr(not(test), expect(dead_code, reason = "read by tests"))]
    pub(crate) fn strict_capacity_limit(&self) -> bool {
        self.lru.strict_capacity_limit()
    }
}

/// A cache handle. Ownership: owned by the caller (`rocksdb_cache_create_*` /
/// `rocksdb_cache_destroy`); the cache itself is shared with every options object it was set
/// on and lives until the last of them goes.
pub struct rocksdb_cache_t {
    pub(crate) inner: Arc<Cache>,
}

fn new_cache(cache: Cache) -> *mut rocksdb_cache_t {
    ffi::into_handle(rocksdb_cache_t {
        inner: Arc::new(cache),
    })
}

/// LRU cache options (`LRUCacheOptions`). Ownership: owned by the caller.
pub struct rocksdb_lru_cache_options_t {
    capacity: usize,
    num_shard_bits: c_int,
}

/// HyperClockCache options. Ownership: owned by the caller.
pub struct rocksdb_hyper_clock_cache_options_t {
    capacity: usize,
    estimated_entry_charge: usize,
    num_shard_bits: c_int,
}

/// Creates an LRU cache of `capacity` bytes. Release with `rocksdb_cache_destroy`.
///
/// # Safety
/// No pointer arguments: always safe to call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_cache_create_lru(capacity: usize) -> *mut rocksdb_cache_t {
    ffi::guarded_no_err("rocksdb_cache_create_lru", || {
        Ok(new_cache(Cache::lru(capacity, false)))
    })
}

/// Creates an LRU cache of `capacity` bytes that refuses inserts beyond its capacity.
/// Release with `rocksdb_cache_destroy`.
///
/// # Safety
/// No pointer arguments: always safe to call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_cache_create_lru_with_strict_capacity_limit(
    capacity: usize,
) -> *mut rocksdb_cache_t {
    ffi::guarded_no_err(
        "rocksdb_cache_create_lru_with_strict_capacity_limit",
        || Ok(new_cache(Cache::lru(capacity, true))),
    )
}

/// Creates an LRU cache from options. NULL gives NULL. Release with `rocksdb_cache_destroy`.
///
/// # Safety
/// `lru_cache_options` must be NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_cache_create_lru_opts(
    lru_cache_options: *const rocksdb_lru_cache_options_t,
) -> *mut rocksdb_cache_t {
    ffi::guarded_no_err("rocksdb_cache_create_lru_opts", || {
        // SAFETY: forwarded contract.
        let o = unsafe { ffi::borrow(lru_cache_options, "lru_cache_options")? };
        Ok(new_cache(Cache::with_shard_bits(
            CacheKind::Lru,
            o.capacity,
            false,
            o.num_shard_bits,
        )))
    })
}

/// Creates a HyperClockCache of `capacity` bytes. solistore has no clock cache: an LRU cache
/// of that capacity stands in (reported as a HyperClockCache). Release with
/// `rocksdb_cache_destroy`.
///
/// # Safety
/// No pointer arguments: always safe to call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_cache_create_hyper_clock(
    capacity: usize,
    estimated_entry_charge: usize,
) -> *mut rocksdb_cache_t {
    ffi::guarded_no_err("rocksdb_cache_create_hyper_clock", || {
        Ok(new_cache(Cache {
            estimated_entry_charge,
            ..Cache::with_shard_bits(CacheKind::HyperClock, capacity, false, -1)
        }))
    })
}

/// Creates a HyperClockCache from options (an LRU cache stands in, as for
/// `rocksdb_cache_create_hyper_clock`). NULL gives NULL. Release with `rocksdb_cache_destroy`.
///
/// # Safety
/// `hyper_clock_cache_options` must be NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_cache_create_hyper_clock_opts(
    hyper_clock_cache_options: *const rocksdb_hyper_clock_cache_options_t,
) -> *mut rocksdb_cache_t {
    ffi::guarded_no_err("rocksdb_cache_create_hyper_clock_opts", || {
        // SAFETY: forwarded contract.
        let o = unsafe { ffi::borrow(hyper_clock_cache_options, "hyper_clock_cache_options")? };
        Ok(new_cache(Cache {
            estimated_entry_charge: o.estimated_entry_charge,
            ..Cache::with_shard_bits(CacheKind::HyperClock, o.capacity, false, o.num_shard_bits)
        }))
    })
}

/// Releases the caller's handle. The cache lives on in options and tables that hold it.
/// NULL is a no-op.
///
/// # Safety
/// `cache` must be NULL or a live cache handle, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_cache_destroy(cache: *mut rocksdb_cache_t) {
    ffi::guarded_no_err("rocksdb_cache_destroy", || {
        // SAFETY: forwarded contract.
        drop(unsafe { ffi::from_handle(cache) });
        Ok(())
    })
}

/// Lets the cache leak its entries at shutdown instead of freeing them. solistore frees them
/// normally (they are Rust values, cheap to drop): nothing to do.
///
/// # Safety
/// `cache` must be NULL or a live cache handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_cache_disown_data(cache: *mut rocksdb_cache_t) {
    let _ = cache;
    ffi::guarded_no_err("rocksdb_cache_disown_data", || Ok(()))
}

/// Changes the capacity, for every holder of the cache; unpinned entries beyond it are
/// evicted.
///
/// # Safety
/// `cache` must be NULL (ignored) or a live cache handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_cache_set_capacity(cache: *mut rocksdb_cache_t, capacity: usize) {
    // SAFETY: forwarded contract.
    unsafe {
        get(cache.cast_const(), "rocksdb_cache_set_capacity", |c| {
            c.inner.lru.set_capacity(capacity);
        })
    }
}

/// Returns the capacity in bytes. 0 for NULL.
///
/// # Safety
/// `cache` must be NULL or a live cache handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_cache_get_capacity(cache: *const rocksdb_cache_t) -> usize {
    // SAFETY: forwarded contract.
    unsafe { get(cache, "rocksdb_cache_get_capacity", |c| c.inner.capacity()) }
}

/// Returns the bytes charged by the entries in the cache (blocks, and write buffer manager
/// reservations). 0 for NULL.
///
/// # Safety
/// `cache` must be NULL or a live cache handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_cache_get_usage(cache: *const rocksdb_cache_t) -> usize {
    // SAFETY: forwarded contract.
    unsafe { get(cache, "rocksdb_cache_get_usage", |c| c.inner.lru.usage()) }
}

/// Returns the bytes charged by entries in use (pinned by a reader or a reservation). 0 for
/// NULL.
///
/// # Safety
/// `cache` must be NULL or a live cache handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_cache_get_pinned_usage(cache: *const rocksdb_cache_t) -> usize {
    // SAFETY: forwarded contract.
    unsafe {
        get(cache, "rocksdb_cache_get_pinned_usage", |c| {
            c.inner.lru.pinned_usage()
        })
    }
}

/// Returns the number of entries in the cache. 0 for NULL.
///
/// # Safety
/// `cache` must be NULL or a live cache handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_cache_get_occupancy_count(cache: *const rocksdb_cache_t) -> usize {
    // SAFETY: forwarded contract.
    unsafe {
        get(cache, "rocksdb_cache_get_occupancy_count", |c| {
            c.inner.lru.entries()
        })
    }
}

/// Returns the number of hash table slots over all shards. 0 for NULL.
///
/// # Safety
/// `cache` must be NULL or a live cache handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_cache_get_table_address_count(
    cache: *const rocksdb_cache_t,
) -> usize {
    // SAFETY: forwarded contract.
    unsafe {
        get(cache, "rocksdb_cache_get_table_address_count", |c| {
            c.inner.lru.table_address_count()
        })
    }
}

/// Creates LRU cache options (capacity 0, automatic shard bits). Release with
/// `rocksdb_lru_cache_options_destroy`.
///
/// # Safety
/// No pointer arguments: always safe to call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_lru_cache_options_create() -> *mut rocksdb_lru_cache_options_t {
    ffi::guarded_no_err("rocksdb_lru_cache_options_create", || {
        Ok(ffi::into_handle(rocksdb_lru_cache_options_t {
            capacity: 0,
            num_shard_bits: -1,
        }))
    })
}

/// Destroys LRU cache options. NULL is a no-op.
///
/// # Safety
/// `lru_cache_options` must be NULL or live, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_lru_cache_options_destroy(
    lru_cache_options: *mut rocksdb_lru_cache_options_t,
) {
    ffi::guarded_no_err("rocksdb_lru_cache_options_destroy", || {
        // SAFETY: forwarded contract.
        drop(unsafe { ffi::from_handle(lru_cache_options) });
        Ok(())
    })
}

/// Sets the capacity of caches created from these options.
///
/// # Safety
/// `lru_cache_options` must be NULL (ignored) or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_lru_cache_options_set_capacity(
    lru_cache_options: *mut rocksdb_lru_cache_options_t,
    v: usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            lru_cache_options,
            "rocksdb_lru_cache_options_set_capacity",
            |o| {
                o.capacity = v;
            },
        )
    }
}

/// Sets the shard bits of caches created from these options (-1: chosen from the capacity).
///
/// # Safety
/// `lru_cache_options` must be NULL (ignored) or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_lru_cache_options_set_num_shard_bits(
    lru_cache_options: *mut rocksdb_lru_cache_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            lru_cache_options,
            "rocksdb_lru_cache_options_set_num_shard_bits",
            |o| o.num_shard_bits = v,
        )
    }
}

/// Sets a memory allocator. Allocator objects cannot be created yet
/// (`rocksdb_jemalloc_nodump_allocator_create` is not implemented): ignored.
/// solistore: not implemented
///
/// # Safety
/// `lru_cache_options` must be NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_lru_cache_options_set_memory_allocator(
    lru_cache_options: *mut rocksdb_lru_cache_options_t,
    memory_allocator: *mut rocksdb_memory_allocator_t,
) {
    let _ = (lru_cache_options, memory_allocator);
    ffi::guarded_no_err("rocksdb_lru_cache_options_set_memory_allocator", || Ok(()))
}

/// Creates HyperClockCache options. Release with `rocksdb_hyper_clock_cache_options_destroy`.
///
/// # Safety
/// No pointer arguments: always safe to call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_hyper_clock_cache_options_create(
    capacity: usize,
    estimated_entry_charge: usize,
) -> *mut rocksdb_hyper_clock_cache_options_t {
    ffi::guarded_no_err("rocksdb_hyper_clock_cache_options_create", || {
        Ok(ffi::into_handle(rocksdb_hyper_clock_cache_options_t {
            capacity,
            estimated_entry_charge,
            num_shard_bits: -1,
        }))
    })
}

/// Destroys HyperClockCache options. NULL is a no-op.
///
/// # Safety
/// `hyper_clock_cache_options` must be NULL or live, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_hyper_clock_cache_options_destroy(
    hyper_clock_cache_options: *mut rocksdb_hyper_clock_cache_options_t,
) {
    ffi::guarded_no_err("rocksdb_hyper_clock_cache_options_destroy", || {
        // SAFETY: forwarded contract.
        drop(unsafe { ffi::from_handle(hyper_clock_cache_options) });
        Ok(())
    })
}

/// Sets the capacity of caches created from these options.
///
/// # Safety
/// `hyper_clock_cache_options` must be NULL (ignored) or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_hyper_clock_cache_options_set_capacity(
    hyper_clock_cache_options: *mut rocksdb_hyper_clock_cache_options_t,
    v: usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            hyper_clock_cache_options,
            "rocksdb_hyper_clock_cache_options_set_capacity",
            |o| o.capacity = v,
        )
    }
}

/// Sets the estimated entry charge of caches created from these options.
/// solistore: stores value only
///
/// # Safety
/// `hyper_clock_cache_options` must be NULL (ignored) or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_hyper_clock_cache_options_set_estimated_entry_charge(
    hyper_clock_cache_options: *mut rocksdb_hyper_clock_cache_options_t,
    v: usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            hyper_clock_cache_options,
            "rocksdb_hyper_clock_cache_options_set_estimated_entry_charge",
            |o| o.estimated_entry_charge = v,
        )
    }
}

/// Sets the shard bits of caches created from these options (-1: chosen from the capacity).
///
/// # Safety
/// `hyper_clock_cache_options` must be NULL (ignored) or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_hyper_clock_cache_options_set_num_shard_bits(
    hyper_clock_cache_options: *mut rocksdb_hyper_clock_cache_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            hyper_clock_cache_options,
            "rocksdb_hyper_clock_cache_options_set_num_shard_bits",
            |o| o.num_shard_bits = v,
        )
    }
}

/// Sets a memory allocator. Allocator objects cannot be created yet: ignored.
/// solistore: not implemented
///
/// # Safety
/// `hyper_clock_cache_options` must be NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_hyper_clock_cache_options_set_memory_allocator(
    hyper_clock_cache_options: *mut rocksdb_hyper_clock_cache_options_t,
    memory_allocator: *mut rocksdb_memory_allocator_t,
) {
    let _ = (hyper_clock_cache_options, memory_allocator);
    ffi::guarded_no_err(
        "rocksdb_hyper_clock_cache_options_set_memory_allocator",
        || Ok(()),
    )
}
