// SPDX-License-Identifier: Apache-2.0
//! `rocksdb_checkpoint_*`: openable copies of a live DB in another directory (background
//! path; the engine's `Db::create_checkpoint` does the work: tables hard-linked, MANIFEST and
//! OPTIONS copied, WALs copied unless the memtables were flushed first).

use std::ffi::c_char;

use engine::db::Db;

use crate::db::{borrow_db, rocksdb_t};
use crate::ffi;

/// A checkpoint maker bound to one DB. Ownership: owned by the caller
/// (`rocksdb_checkpoint_object_create` / `rocksdb_checkpoint_object_destroy`). It holds its
/// own reference to the DB's state: after `rocksdb_close`, `rocksdb_checkpoint_create` fails
/// with `Invalid argument: DB is closed` instead of touching freed memory.
#[derive(Debug)]
pub struct rocksdb_checkpoint_t {
    db: Db,
}

/// Creates a checkpoint object for `db`. Returns a handle owned by the caller (destroy it
/// with `rocksdb_checkpoint_object_destroy`), or NULL with `*errptr` set.
///
/// # Safety
/// `db` must be NULL or a live handle, `errptr` NULL or a valid errptr.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_checkpoint_object_create(
    db: *mut rocksdb_t,
    errptr: *mut *mut c_char,
) -> *mut rocksdb_checkpoint_t {
    ffi::guarded(errptr, "rocksdb_checkpoint_object_create", || {
        // SAFETY: forwarded contract; NULL is checked.
        let db = unsafe { borrow_db(db)? }.clone();
        Ok(ffi::into_handle(rocksdb_checkpoint_t { db }))
    })
}

/// Writes a checkpoint of the DB into `checkpoint_dir`, which must not exist (`Invalid
/// argument: Directory exists` otherwise). The memtables are flushed first when
/// `log_size_for_flush` is 0 or the live WALs total at least that many bytes, so the
/// checkpoint needs no WAL; otherwise the WALs are copied. The directory is built under
/// `<checkpoint_dir>.tmp` and renamed into place. Errors set `*errptr`.
///
/// # Safety
/// `checkpoint` must be NULL or a live handle, `checkpoint_dir` NULL or a C string, `errptr`
/// NULL or a valid errptr.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_checkpoint_create(
    checkpoint: *mut rocksdb_checkpoint_t,
    checkpoint_dir: *const c_char,
    log_size_for_flush: u64,
    errptr: *mut *mut c_char,
) {
    ffi::guarded(errptr, "rocksdb_checkpoint_create", || {
        // SAFETY: forwarded contract; NULLs are checked.
        let cp = unsafe { ffi::borrow(checkpoint, "checkpoint")? };
        // SAFETY: forwarded contract; NULLs are checked.
        let dir = unsafe { ffi::cstr(checkpoint_dir, "checkpoint_dir")? };
        cp.db.create_checkpoint(dir, log_size_for_flush)
    })
}

/// Destroys a checkpoint object (checkpoints already written stay). NULL is a no-op.
///
/// # Safety
/// `checkpoint` must be NULL or a live handle, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_checkpoint_object_destroy(checkpoint: *mut rocksdb_checkpoint_t) {
    ffi::guarded_no_err("rocksdb_checkpoint_object_destroy", || {
        // SAFETY: forwarded contract.
        drop(unsafe { ffi::from_handle(checkpoint) });
        Ok(())
    })
}
