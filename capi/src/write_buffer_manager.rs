// SPDX-License-Identifier: Apache-2.0
//! `rocksdb_write_buffer_manager_*`: a memtable memory budget shared by DBs (config path;
//! the write path reports memtable memory to it).
//!
//! Shared (c-api-conventions.md §4): the handle holds an `Arc` of the engine's
//! [`WriteBufferManager`], and `rocksdb_options_set_write_buffer_manager` takes its own share
//! (kept in the options as `StoredOptions::write_buffer_manager`, where opening a DB picks it
//! up), so the caller may destroy its handle while DBs still use the manager. Every getter
//! reads the engine object, and a manager made with a cache charges that cache's engine LRU.

use std::sync::Arc;

use engine::cache::WriteBufferManager;

use crate::cache::rocksdb_cache_t;
use crate::ffi;
use crate::options::get;

/// A write buffer manager handle. Ownership: owned by the caller (`_create*` / `_destroy`);
/// the manager is shared with the options it was set on and the DBs opened with them.
pub struct rocksdb_write_buffer_manager_t {
    pub(crate) inner: Arc<WriteBufferManager>,
}

fn new_manager(
    buffer_size: usize,
    cache: Option<Arc<engine::cache::LruCache>>,
    allow_stall: bool,
) -> *mut rocksdb_write_buffer_manager_t {
    ffi::into_handle(rocksdb_write_buffer_manager_t {
        inner: Arc::new(WriteBufferManager::new(buffer_size, cache, allow_stall)),
    })
}

/// Creates a manager with a budget of `buffer_size` bytes (0: no limit, accounting only).
/// With `allow_stall`, writers wait while memtable memory is at the budget. Release with
/// `rocksdb_write_buffer_manager_destroy`.
///
/// # Safety
/// No pointer arguments: always safe to call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_write_buffer_manager_create(
    buffer_size: usize,
    allow_stall: bool,
) -> *mut rocksdb_write_buffer_manager_t {
    ffi::guarded_no_err("rocksdb_write_buffer_manager_create", || {
        Ok(new_manager(buffer_size, None, allow_stall))
    })
}

/// Creates a manager that charges memtable memory to `cache` (shared, so the caller may
/// destroy its cache handle right after; NULL means none) with pinned 256 KiB dummy entries.
/// Release with `rocksdb_write_buffer_manager_destroy`.
///
/// # Safety
/// `cache` must be NULL or a live cache handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_write_buffer_manager_create_with_cache(
    buffer_size: usize,
    cache: *const rocksdb_cache_t,
    allow_stall: bool,
) -> *mut rocksdb_write_buffer_manager_t {
    ffi::guarded_no_err("rocksdb_write_buffer_manager_create_with_cache", || {
        // SAFETY: forwarded contract.
        let cache = unsafe { cache.as_ref() }.map(|c| Arc::clone(&c.inner.lru));
        Ok(new_manager(buffer_size, cache, allow_stall))
    })
}

/// Releases the caller's handle; options holding the manager keep it. NULL is a no-op.
///
/// # Safety
/// `wbm` must be NULL or a live handle, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_write_buffer_manager_destroy(
    wbm: *mut rocksdb_write_buffer_manager_t,
) {
    ffi::guarded_no_err("rocksdb_write_buffer_manager_destroy", || {
        // SAFETY: forwarded contract.
        drop(unsafe { ffi::from_handle(wbm) });
        Ok(())
    })
}

/// Whether the manager limits memory (its budget is non-zero).
///
/// # Safety
/// `wbm` must be NULL (false) or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_write_buffer_manager_enabled(
    wbm: *mut rocksdb_write_buffer_manager_t,
) -> bool {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            wbm.cast_const(),
            "rocksdb_write_buffer_manager_enabled",
            |w| w.inner.enabled(),
        )
    }
}

/// Whether memtable memory is charged to a cache.
///
/// # Safety
/// `wbm` must be NULL (false) or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_write_buffer_manager_cost_to_cache(
    wbm: *mut rocksdb_write_buffer_manager_t,
) -> bool {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            wbm.cast_const(),
            "rocksdb_write_buffer_manager_cost_to_cache",
            |w| w.inner.cost_to_cache(),
        )
    }
}

/// Memtable memory reported to the manager and not yet freed (mutable and immutable
/// memtables of every DB using it). 0 for NULL.
///
/// # Safety
/// `wbm` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_write_buffer_manager_memory_usage(
    wbm: *mut rocksdb_write_buffer_manager_t,
) -> usize {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            wbm.cast_const(),
            "rocksdb_write_buffer_manager_memory_usage",
            |w| w.inner.memory_usage(),
        )
    }
}

/// Memtable memory of mutable memtables (not yet scheduled for flush). 0 for NULL.
///
/// # Safety
/// `wbm` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_write_buffer_manager_mutable_memtable_memory_usage(
    wbm: *mut rocksdb_write_buffer_manager_t,
) -> usize {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            wbm.cast_const(),
            "rocksdb_write_buffer_manager_mutable_memtable_memory_usage",
            |w| w.inner.mutable_memtable_memory_usage(),
        )
    }
}

/// Bytes the manager's dummy entries charge to its cache (0 without a cache, or for NULL).
///
/// # Safety
/// `wbm` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_write_buffer_manager_dummy_entries_in_cache_usage(
    wbm: *mut rocksdb_write_buffer_manager_t,
) -> usize {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            wbm.cast_const(),
            "rocksdb_write_buffer_manager_dummy_entries_in_cache_usage",
            |w| w.inner.dummy_entries_in_cache_usage(),
        )
    }
}

/// The memory budget in bytes.
///
/// # Safety
/// `wbm` must be NULL (0) or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_write_buffer_manager_buffer_size(
    wbm: *mut rocksdb_write_buffer_manager_t,
) -> usize {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            wbm.cast_const(),
            "rocksdb_write_buffer_manager_buffer_size",
            |w| w.inner.buffer_size(),
        )
    }
}

/// Changes the memory budget, for every holder (may end a stall).
///
/// # Safety
/// `wbm` must be NULL (ignored) or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_write_buffer_manager_set_buffer_size(
    wbm: *mut rocksdb_write_buffer_manager_t,
    new_size: usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            wbm.cast_const(),
            "rocksdb_write_buffer_manager_set_buffer_size",
            |w| w.inner.set_buffer_size(new_size),
        )
    }
}

/// Changes whether writes stall when the budget is exceeded, for every holder (turning it
/// off ends a stall).
///
/// # Safety
/// `wbm` must be NULL (ignored) or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_write_buffer_manager_set_allow_stall(
    wbm: *mut rocksdb_write_buffer_manager_t,
    new_allow_stall: bool,
) {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            wbm.cast_const(),
            "rocksdb_write_buffer_manager_set_allow_stall",
            |w| w.inner.set_allow_stall(new_allow_stall),
        )
    }
}
