// SPDX-License-Identifier: Apache-2.0
//! `rocksdb_cache_*`, `rocksdb_lru_cache_options_*`, `rocksdb_hyper_clock_cache_options_*`:
//! block and row caches (config path; the read path will use them once tables exist).
//!
//! A cache is shared (c-api-conventions.md §4): the handle holds an `Arc`, and setters such as
//! `rocksdb_block_based_options_set_block_cache` take their own share, so the caller may
//! destroy its handle right after setting. solistore has no block cache yet (tables are issue
//! 3): a cache records its kind and capacity, and its usage is 0.

use std::ffi::c_int;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use crate::ffi;
use crate::options::{get, set};
use crate::types::rocksdb_memory_allocator_t;

/// Which replacement policy RocksDB would use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CacheKind {
    Lru,
    HyperClock,
}

/// A cache's configuration, shared by every holder. The capacity can change after creation
/// (`rocksdb_cache_set_capacity`), so it is atomic.
#[derive(Debug)]
#[allow(dead_code, reason = "read by the block cache (issue 3)")]
pub(crate) struct Cache {
    pub(crate) kind: CacheKind,
    capacity: AtomicUsize,
    pub(crate) strict_capacity_limit: bool,
    /// -1: RocksDB picks from the capacity.
    pub(crate) num_shard_bits: c_int,
    /// HyperClockCache only.
    pub(crate) estimated_entry_charge: usize,
}

impl Cache {
    pub(crate) fn lru(capacity: usize, strict_capacity_limit: bool) -> Self {
        Cache {
            kind: CacheKind::Lru,
            capacity: AtomicUsize::new(capacity),
            strict_capacity_limit,
            num_shard_bits: -1,
            estimated_entry_charge: 0,
        }
    }

    pub(crate) fn capacity(&self) -> usize {
        self.capacity.load(Ordering::Relaxed)
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
        Ok(new_cache(Cache {
            num_shard_bits: o.num_shard_bits,
            ..Cache::lru(o.capacity, false)
        }))
    })
}

/// Creates a HyperClockCache of `capacity` bytes (recorded as such; solistore has no cache
/// implementation yet). Release with `rocksdb_cache_destroy`.
/// solistore: stores value only
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
            kind: CacheKind::HyperClock,
            estimated_entry_charge,
            ..Cache::lru(capacity, false)
        }))
    })
}

/// Creates a HyperClockCache from options. NULL gives NULL. Release with
/// `rocksdb_cache_destroy`.
/// solistore: stores value only
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
            kind: CacheKind::HyperClock,
            estimated_entry_charge: o.estimated_entry_charge,
            num_shard_bits: o.num_shard_bits,
            ..Cache::lru(o.capacity, false)
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

/// Lets the cache leak its entries at shutdown instead of freeing them. solistore's cache
/// holds no entries: nothing to do.
///
/// # Safety
/// `cache` must be NULL or a live cache handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_cache_disown_data(cache: *mut rocksdb_cache_t) {
    let _ = cache;
    ffi::guarded_no_err("rocksdb_cache_disown_data", || Ok(()))
}

/// Changes the capacity, for every holder of the cache.
///
/// # Safety
/// `cache` must be NULL (ignored) or a live cache handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_cache_set_capacity(cache: *mut rocksdb_cache_t, capacity: usize) {
    // SAFETY: forwarded contract.
    unsafe {
        get(cache.cast_const(), "rocksdb_cache_set_capacity", |c| {
            c.inner.capacity.store(capacity, Ordering::Relaxed);
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

/// Returns the bytes held: always 0, solistore has no block cache yet.
/// solistore: stores value only
///
/// # Safety
/// `cache` must be NULL or a live cache handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_cache_get_usage(cache: *const rocksdb_cache_t) -> usize {
    // SAFETY: forwarded contract.
    unsafe { get(cache, "rocksdb_cache_get_usage", |_| 0) }
}

/// Returns the bytes pinned by users: always 0, solistore has no block cache yet.
/// solistore: stores value only
///
/// # Safety
/// `cache` must be NULL or a live cache handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_cache_get_pinned_usage(cache: *const rocksdb_cache_t) -> usize {
    // SAFETY: forwarded contract.
    unsafe { get(cache, "rocksdb_cache_get_pinned_usage", |_| 0) }
}

/// Returns the number of entries: always 0, solistore has no block cache yet.
/// solistore: stores value only
///
/// # Safety
/// `cache` must be NULL or a live cache handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_cache_get_occupancy_count(cache: *const rocksdb_cache_t) -> usize {
    // SAFETY: forwarded contract.
    unsafe { get(cache, "rocksdb_cache_get_occupancy_count", |_| 0) }
}

/// Returns the number of hash table slots: always 0, solistore has no block cache yet.
/// solistore: stores value only
///
/// # Safety
/// `cache` must be NULL or a live cache handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_cache_get_table_address_count(
    cache: *const rocksdb_cache_t,
) -> usize {
    // SAFETY: forwarded contract.
    unsafe { get(cache, "rocksdb_cache_get_table_address_count", |_| 0) }
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

/// Sets the shard bits of caches created from these options.
/// solistore: stores value only
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

/// Sets the shard bits of caches created from these options.
/// solistore: stores value only
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
