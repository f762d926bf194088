// SPDX-License-Identifier: Apache-2.0
//! `rocksdb_create_column_family*`, `rocksdb_column_family_handle_*`,
//! `rocksdb_list_column_families*`. For now only the two array releasers, which need no
//! engine; the rest are stubs in `generated/stubs.rs` until implemented here.

use std::ffi::c_char;

use crate::alloc;
use crate::ffi;
use crate::types::rocksdb_column_family_handle_t;

/// Frees the array returned by `rocksdb_list_column_families`: each name, then the array.
/// `(NULL, 0)` and any array returned with an error (count 0) are accepted.
///
/// # Safety
/// `list` must be NULL or an array returned by `rocksdb_list_column_families` with `len` its
/// reported count, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_list_column_families_destroy(list: *mut *mut c_char, len: usize) {
    ffi::guarded_no_err("rocksdb_list_column_families_destroy", || {
        // SAFETY: per this function's contract the array and its `len` names are C-allocated.
        unsafe { alloc::free_cstring_array(list, len) };
        Ok(())
    })
}

/// Frees the array returned by `rocksdb_create_column_families`, not the handles in it
/// (destroy each with `rocksdb_column_family_handle_destroy`). NULL is a no-op.
///
/// # Safety
/// `list` must be NULL or an array returned by `rocksdb_create_column_families`, not used
/// again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_create_column_families_destroy(
    list: *mut *mut rocksdb_column_family_handle_t,
) {
    ffi::guarded_no_err("rocksdb_create_column_families_destroy", || {
        // SAFETY: the array is C-allocated per this function's contract.
        unsafe { alloc::rocksdb_free(list.cast()) };
        Ok(())
    })
}
