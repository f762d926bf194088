// SPDX-License-Identifier: Apache-2.0
//! `rocksdb_dbpath_*`: a data directory with a target size, for
//! `rocksdb_options_set_db_paths` / `_set_cf_paths` (config path). solistore keeps every file
//! in the DB directory, so the paths are stored only.

use std::ffi::c_char;

use crate::ffi;

use super::stored::DbPath;

/// A data directory and its target size. Ownership: owned by the caller
/// (`rocksdb_dbpath_create` / `rocksdb_dbpath_destroy`); the options copy it when set.
pub struct rocksdb_dbpath_t {
    pub(crate) path: DbPath,
}

/// Creates a db path (the string is copied). NULL `path` gives NULL. Release with
/// `rocksdb_dbpath_destroy`.
///
/// # Safety
/// `path` must be NULL or a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_dbpath_create(
    path: *const c_char,
    target_size: u64,
) -> *mut rocksdb_dbpath_t {
    ffi::guarded_no_err("rocksdb_dbpath_create", || {
        // SAFETY: forwarded contract.
        let path = unsafe { ffi::cstr_bytes(path, "path")? };
        Ok(ffi::into_handle(rocksdb_dbpath_t {
            path: DbPath {
                path: String::from_utf8_lossy(path).into_owned(),
                target_size,
            },
        }))
    })
}

/// Destroys a db path. NULL is a no-op.
///
/// # Safety
/// `dbpath` must be NULL or a live db path, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_dbpath_destroy(dbpath: *mut rocksdb_dbpath_t) {
    ffi::guarded_no_err("rocksdb_dbpath_destroy", || {
        // SAFETY: forwarded contract.
        drop(unsafe { ffi::from_handle(dbpath) });
        Ok(())
    })
}
