// SPDX-License-Identifier: Apache-2.0
//! `rocksdb_write_buffer_manager_*`: a memtable memory budget shared by DBs (config path).
//! Shared (c-api-conventions.md §4): `rocksdb_options_set_write_buffer_manager` takes its own
//! share. solistore's memtables do not report to it yet, so its usage reads 0; its size and
//! stall flag are kept and can be changed.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use crate::cache::{rocksdb_cache_t, Cache};
use crate::ffi;
use crate::options::get;

/// The manager's settings, shared by every holder.
#[derive(Debug)]
pub(crate) struct WriteBufferManager {
    buffer_size: AtomicUsize,
    allow_stall: AtomicBool,
    /// The cache that memtable memory is charged to (`_create_with_cache`).
    pub(crate) cache: Option<Arc<Cache>>,
}

impl WriteBufferManager {
    pub(crate) fn buffer_size(&self) -> usize {
        self.buffer_size.load(Ordering::Relaxed)
    }
    #[cfg_attr(
        not(test),
        expect(dead_code, reason = "for the write path's stall check")
    )]
    pub(crate) fn allow_stall(&self) -> bool {
        self.allow_stall.load(Ordering::Relaxed)
    }
}

/// A write buffer manager handle. Ownership: owned by the caller (`_create*` / `_destroy`);
/// the manager is shared with the options it was set on.
pub struct rocksdb_write_buffer_manager_t {
    pub(crate) inner: Arc<WriteBufferManager>,
}

fn new_manager(
    buffer_size: usize,
    cache: Option<Arc<Cache>>,
    allow_stall: bool,
) -> *mut rocksdb_write_buffer_manager_t {
    ffi::into_handle(rocksdb_write_buffer_manager_t {
        inner: Arc::new(WriteBufferManager {
            buffer_size: AtomicUsize::new(buffer_size),
            allow_stall: AtomicBool::new(allow_stall),
            cache,
        }),
    })
}

/// Creates a manager with a budget of `buffer_size` bytes (0 disables it). Release with
/// `rocksdb_write_buffer_manager_destroy`.
/// solistore: stores value only
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

/// Creates a manager that charges memtable memory to `cache` (shared; NULL means none).
/// Release with `rocksdb_write_buffer_manager_destroy`.
/// solistore: stores value only
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
        let cache = unsafe { cache.as_ref() }.map(|c| Arc::clone(&c.inner));
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
            |w| w.inner.buffer_size() > 0,
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
            |w| w.inner.cache.is_some(),
        )
    }
}

/// Memtable memory in use: always 0, solistore's memtables do not report to the manager yet.
/// solistore: stores value only
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
            |_| 0,
        )
    }
}

/// Mutable memtable memory in use: always 0 (see `_memory_usage`).
/// solistore: stores value only
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
            |_| 0,
        )
    }
}

/// Dummy entries charged to the cache: always 0 (see `_memory_usage`).
/// solistore: stores value only
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
            |_| 0,
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

/// Changes the memory budget, for every holder.
/// solistore: stores value only
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
            |w| {
                w.inner.buffer_size.store(new_size, Ordering::Relaxed);
            },
        )
    }
}

/// Changes whether writes stall when the budget is exceeded, for every holder.
/// solistore: stores value only
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
            |w| {
                w.inner
                    .allow_stall
                    .store(new_allow_stall, Ordering::Relaxed);
            },
        )
    }
}
