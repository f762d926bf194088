// SPDX-License-Identifier: Apache-2.0
//! `rocksdb_fifo_compaction_options_*`: FIFO compaction settings for
//! `rocksdb_options_set_fifo_compaction_options` (config path). The engine has level
//! compaction only (issue 3), so these are stored only.

use std::ffi::c_uchar;

use crate::ffi;

use super::stored::FifoCompactionOptions;
use super::{get, set};

/// FIFO compaction options. Ownership: owned by the caller (`_create` / `_destroy`);
/// `rocksdb_options_set_fifo_compaction_options` copies them.
pub struct rocksdb_fifo_compaction_options_t {
    pub(crate) opts: FifoCompactionOptions,
}

/// Creates FIFO compaction options with RocksDB's defaults. Release with
/// `rocksdb_fifo_compaction_options_destroy`.
///
/// # Safety
/// No pointer arguments: always safe to call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_fifo_compaction_options_create(
) -> *mut rocksdb_fifo_compaction_options_t {
    ffi::guarded_no_err("rocksdb_fifo_compaction_options_create", || {
        Ok(ffi::into_handle(rocksdb_fifo_compaction_options_t {
            opts: FifoCompactionOptions::default(),
        }))
    })
}

/// Destroys FIFO compaction options. NULL is a no-op.
///
/// # Safety
/// `fifo_opts` must be NULL or live, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_fifo_compaction_options_destroy(
    fifo_opts: *mut rocksdb_fifo_compaction_options_t,
) {
    ffi::guarded_no_err("rocksdb_fifo_compaction_options_destroy", || {
        // SAFETY: forwarded contract.
        drop(unsafe { ffi::from_handle(fifo_opts) });
        Ok(())
    })
}

/// Sets `max_table_files_size`.
/// solistore: stores value only
///
/// # Safety
/// `fifo_opts` must be NULL (the call is then ignored) or a live `rocksdb_fifo_compaction_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_fifo_compaction_options_set_max_table_files_size(
    fifo_opts: *mut rocksdb_fifo_compaction_options_t,
    size: u64,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            fifo_opts,
            "rocksdb_fifo_compaction_options_set_max_table_files_size",
            |t| t.opts.max_table_files_size = size,
        )
    }
}

/// Returns `max_table_files_size` (RocksDB's default until set).
///
/// # Safety
/// `fifo_opts` must be NULL (0 is returned) or a live `rocksdb_fifo_compaction_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_fifo_compaction_options_get_max_table_files_size(
    fifo_opts: *mut rocksdb_fifo_compaction_options_t,
) -> u64 {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            fifo_opts,
            "rocksdb_fifo_compaction_options_get_max_table_files_size",
            |t| t.opts.max_table_files_size,
        )
    }
}

/// Sets `max_data_files_size`.
/// solistore: stores value only
///
/// # Safety
/// `fifo_opts` must be NULL (the call is then ignored) or a live `rocksdb_fifo_compaction_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_fifo_compaction_options_set_max_data_files_size(
    fifo_opts: *mut rocksdb_fifo_compaction_options_t,
    size: u64,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            fifo_opts,
            "rocksdb_fifo_compaction_options_set_max_data_files_size",
            |t| t.opts.max_data_files_size = size,
        )
    }
}

/// Returns `max_data_files_size` (RocksDB's default until set).
///
/// # Safety
/// `fifo_opts` must be NULL (0 is returned) or a live `rocksdb_fifo_compaction_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_fifo_compaction_options_get_max_data_files_size(
    fifo_opts: *mut rocksdb_fifo_compaction_options_t,
) -> u64 {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            fifo_opts,
            "rocksdb_fifo_compaction_options_get_max_data_files_size",
            |t| t.opts.max_data_files_size,
        )
    }
}

/// Sets `allow_compaction`.
/// solistore: stores value only
///
/// # Safety
/// `fifo_opts` must be NULL (the call is then ignored) or a live `rocksdb_fifo_compaction_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_fifo_compaction_options_set_allow_compaction(
    fifo_opts: *mut rocksdb_fifo_compaction_options_t,
    allow_compaction: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            fifo_opts,
            "rocksdb_fifo_compaction_options_set_allow_compaction",
            |t| t.opts.allow_compaction = ffi::c_bool(allow_compaction),
        )
    }
}

/// Returns `allow_compaction` (RocksDB's default until set).
///
/// # Safety
/// `fifo_opts` must be NULL (0 is returned) or a live `rocksdb_fifo_compaction_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_fifo_compaction_options_get_allow_compaction(
    fifo_opts: *mut rocksdb_fifo_compaction_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            fifo_opts,
            "rocksdb_fifo_compaction_options_get_allow_compaction",
            |t| ffi::to_c_bool(t.opts.allow_compaction),
        )
    }
}

/// Sets `use_kv_ratio_compaction`.
/// solistore: stores value only
///
/// # Safety
/// `fifo_opts` must be NULL (the call is then ignored) or a live `rocksdb_fifo_compaction_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_fifo_compaction_options_set_use_kv_ratio_compaction(
    fifo_opts: *mut rocksdb_fifo_compaction_options_t,
    use_kv_ratio_compaction: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            fifo_opts,
            "rocksdb_fifo_compaction_options_set_use_kv_ratio_compaction",
            |t| t.opts.use_kv_ratio_compaction = ffi::c_bool(use_kv_ratio_compaction),
        )
    }
}

/// Returns `use_kv_ratio_compaction` (RocksDB's default until set).
///
/// # Safety
/// `fifo_opts` must be NULL (0 is returned) or a live `rocksdb_fifo_compaction_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_fifo_compaction_options_get_use_kv_ratio_compaction(
    fifo_opts: *mut rocksdb_fifo_compaction_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            fifo_opts,
            "rocksdb_fifo_compaction_options_get_use_kv_ratio_compaction",
            |t| ffi::to_c_bool(t.opts.use_kv_ratio_compaction),
        )
    }
}
