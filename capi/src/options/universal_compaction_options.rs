// SPDX-License-Identifier: Apache-2.0
//! `rocksdb_universal_compaction_options_*`: universal compaction settings for
//! `rocksdb_options_set_universal_compaction_options` (config path). The engine has level
//! compaction only (issue 3), so these are stored only.

use std::ffi::c_int;

use crate::ffi;

use super::stored::UniversalCompactionOptions;
use super::{get, set};

/// Universal compaction options. Ownership: owned by the caller (`_create` / `_destroy`);
/// `rocksdb_options_set_universal_compaction_options` copies them.
pub struct rocksdb_universal_compaction_options_t {
    pub(crate) opts: UniversalCompactionOptions,
}

/// Creates universal compaction options with RocksDB's defaults. Release with
/// `rocksdb_universal_compaction_options_destroy`.
///
/// # Safety
/// No pointer arguments: always safe to call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_universal_compaction_options_create(
) -> *mut rocksdb_universal_compaction_options_t {
    ffi::guarded_no_err("rocksdb_universal_compaction_options_create", || {
        Ok(ffi::into_handle(rocksdb_universal_compaction_options_t {
            opts: UniversalCompactionOptions::default(),
        }))
    })
}

/// Destroys universal compaction options. NULL is a no-op.
///
/// # Safety
/// `universal_compaction_options` must be NULL or live, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_universal_compaction_options_destroy(
    universal_compaction_options: *mut rocksdb_universal_compaction_options_t,
) {
    ffi::guarded_no_err("rocksdb_universal_compaction_options_destroy", || {
        // SAFETY: forwarded contract.
        drop(unsafe { ffi::from_handle(universal_compaction_options) });
        Ok(())
    })
}

/// Sets `size_ratio`.
/// solistore: stores value only
///
/// # Safety
/// `universal_compaction_options` must be NULL (the call is then ignored) or a live `rocksdb_universal_compaction_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_universal_compaction_options_set_size_ratio(
    universal_compaction_options: *mut rocksdb_universal_compaction_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            universal_compaction_options,
            "rocksdb_universal_compaction_options_set_size_ratio",
            |t| t.opts.size_ratio = v,
        )
    }
}

/// Returns `size_ratio` (RocksDB's default until set).
///
/// # Safety
/// `universal_compaction_options` must be NULL (0 is returned) or a live `rocksdb_universal_compaction_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_universal_compaction_options_get_size_ratio(
    universal_compaction_options: *mut rocksdb_universal_compaction_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            universal_compaction_options,
            "rocksdb_universal_compaction_options_get_size_ratio",
            |t| t.opts.size_ratio,
        )
    }
}

/// Sets `min_merge_width`.
/// solistore: stores value only
///
/// # Safety
/// `universal_compaction_options` must be NULL (the call is then ignored) or a live `rocksdb_universal_compaction_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_universal_compaction_options_set_min_merge_width(
    universal_compaction_options: *mut rocksdb_universal_compaction_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            universal_compaction_options,
            "rocksdb_universal_compaction_options_set_min_merge_width",
            |t| t.opts.min_merge_width = v,
        )
    }
}

/// Returns `min_merge_width` (RocksDB's default until set).
///
/// # Safety
/// `universal_compaction_options` must be NULL (0 is returned) or a live `rocksdb_universal_compaction_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_universal_compaction_options_get_min_merge_width(
    universal_compaction_options: *mut rocksdb_universal_compaction_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            universal_compaction_options,
            "rocksdb_universal_compaction_options_get_min_merge_width",
            |t| t.opts.min_merge_width,
        )
    }
}

/// Sets `max_merge_width`.
/// solistore: stores value only
///
/// # Safety
/// `universal_compaction_options` must be NULL (the call is then ignored) or a live `rocksdb_universal_compaction_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_universal_compaction_options_set_max_merge_width(
    universal_compaction_options: *mut rocksdb_universal_compaction_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            universal_compaction_options,
            "rocksdb_universal_compaction_options_set_max_merge_width",
            |t| t.opts.max_merge_width = v,
        )
    }
}

/// Returns `max_merge_width` (RocksDB's default until set).
///
/// # Safety
/// `universal_compaction_options` must be NULL (0 is returned) or a live `rocksdb_universal_compaction_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_universal_compaction_options_get_max_merge_width(
    universal_compaction_options: *mut rocksdb_universal_compaction_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            universal_compaction_options,
            "rocksdb_universal_compaction_options_get_max_merge_width",
            |t| t.opts.max_merge_width,
        )
    }
}

/// Sets `max_size_amplification_percent`.
/// solistore: stores value only
///
/// # Safety
/// `universal_compaction_options` must be NULL (the call is then ignored) or a live `rocksdb_universal_compaction_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_universal_compaction_options_set_max_size_amplification_percent(
    universal_compaction_options: *mut rocksdb_universal_compaction_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            universal_compaction_options,
            "rocksdb_universal_compaction_options_set_max_size_amplification_percent",
            |t| t.opts.max_size_amplification_percent = v,
        )
    }
}

/// Returns `max_size_amplification_percent` (RocksDB's default until set).
///
/// # Safety
/// `universal_compaction_options` must be NULL (0 is returned) or a live `rocksdb_universal_compaction_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_universal_compaction_options_get_max_size_amplification_percent(
    universal_compaction_options: *mut rocksdb_universal_compaction_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            universal_compaction_options,
            "rocksdb_universal_compaction_options_get_max_size_amplification_percent",
            |t| t.opts.max_size_amplification_percent,
        )
    }
}

/// Sets `compression_size_percent`.
/// solistore: stores value only
///
/// # Safety
/// `universal_compaction_options` must be NULL (the call is then ignored) or a live `rocksdb_universal_compaction_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_universal_compaction_options_set_compression_size_percent(
    universal_compaction_options: *mut rocksdb_universal_compaction_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            universal_compaction_options,
            "rocksdb_universal_compaction_options_set_compression_size_percent",
            |t| t.opts.compression_size_percent = v,
        )
    }
}

/// Returns `compression_size_percent` (RocksDB's default until set).
///
/// # Safety
/// `universal_compaction_options` must be NULL (0 is returned) or a live `rocksdb_universal_compaction_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_universal_compaction_options_get_compression_size_percent(
    universal_compaction_options: *mut rocksdb_universal_compaction_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            universal_compaction_options,
            "rocksdb_universal_compaction_options_get_compression_size_percent",
            |t| t.opts.compression_size_percent,
        )
    }
}

/// Sets `stop_style`.
/// solistore: stores value only
///
/// # Safety
/// `universal_compaction_options` must be NULL (the call is then ignored) or a live `rocksdb_universal_compaction_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_universal_compaction_options_set_stop_style(
    universal_compaction_options: *mut rocksdb_universal_compaction_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            universal_compaction_options,
            "rocksdb_universal_compaction_options_set_stop_style",
            |t| t.opts.stop_style = v,
        )
    }
}

/// Returns `stop_style` (RocksDB's default until set).
///
/// # Safety
/// `universal_compaction_options` must be NULL (0 is returned) or a live `rocksdb_universal_compaction_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_universal_compaction_options_get_stop_style(
    universal_compaction_options: *mut rocksdb_universal_compaction_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            universal_compaction_options,
            "rocksdb_universal_compaction_options_get_stop_style",
            |t| t.opts.stop_style,
        )
    }
}
