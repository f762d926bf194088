// SPDX-License-Identifier: Apache-2.0
//! `rocksdb_cuckoo_options_*`: cuckoo table options for `rocksdb_options_set_cuckoo_table_factory`
//! (config path). solistore writes only block-based tables, so these are stored only.

use std::ffi::c_uchar;

use crate::ffi;

use super::set;
use super::stored::CuckooTableOptions;

/// Cuckoo table options. Ownership: owned by the caller (`rocksdb_cuckoo_options_create` /
/// `_destroy`); `rocksdb_options_set_cuckoo_table_factory` copies them.
pub struct rocksdb_cuckoo_table_options_t {
    pub(crate) opts: CuckooTableOptions,
}

/// Creates cuckoo table options with RocksDB's defaults. Release with
/// `rocksdb_cuckoo_options_destroy`.
///
/// # Safety
/// No pointer arguments: always safe to call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_cuckoo_options_create() -> *mut rocksdb_cuckoo_table_options_t {
    ffi::guarded_no_err("rocksdb_cuckoo_options_create", || {
        Ok(ffi::into_handle(rocksdb_cuckoo_table_options_t {
            opts: CuckooTableOptions::default(),
        }))
    })
}

/// Destroys cuckoo table options. NULL is a no-op.
///
/// # Safety
/// `options` must be NULL or live, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_cuckoo_options_destroy(
    options: *mut rocksdb_cuckoo_table_options_t,
) {
    ffi::guarded_no_err("rocksdb_cuckoo_options_destroy", || {
        // SAFETY: forwarded contract.
        drop(unsafe { ffi::from_handle(options) });
        Ok(())
    })
}

/// Sets the cuckoo table's `hash_table_ratio`.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_cuckoo_table_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_cuckoo_options_set_hash_ratio(
    options: *mut rocksdb_cuckoo_table_options_t,
    v: f64,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_cuckoo_options_set_hash_ratio", |t| {
            t.opts.hash_table_ratio = v
        })
    }
}

/// Sets the cuckoo table's `max_search_depth`.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_cuckoo_table_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_cuckoo_options_set_max_search_depth(
    options: *mut rocksdb_cuckoo_table_options_t,
    v: u32,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_cuckoo_options_set_max_search_depth",
            |t| t.opts.max_search_depth = v,
        )
    }
}

/// Sets the cuckoo table's `cuckoo_block_size`.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_cuckoo_table_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_cuckoo_options_set_cuckoo_block_size(
    options: *mut rocksdb_cuckoo_table_options_t,
    v: u32,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_cuckoo_options_set_cuckoo_block_size",
            |t| t.opts.cuckoo_block_size = v,
        )
    }
}

/// Sets the cuckoo table's `identity_as_first_hash`.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_cuckoo_table_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_cuckoo_options_set_identity_as_first_hash(
    options: *mut rocksdb_cuckoo_table_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_cuckoo_options_set_identity_as_first_hash",
            |t| t.opts.identity_as_first_hash = ffi::c_bool(v),
        )
    }
}

/// Sets the cuckoo table's `use_module_hash`.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_cuckoo_table_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_cuckoo_options_set_use_module_hash(
    options: *mut rocksdb_cuckoo_table_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_cuckoo_options_set_use_module_hash", |t| {
            t.opts.use_module_hash = ffi::c_bool(v)
        })
    }
}
