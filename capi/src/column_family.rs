// SPDX-License-Identifier: Apache-2.0
//! `rocksdb_create_column_family*`, `rocksdb_drop_column_family`,
//! `rocksdb_column_family_handle_*`, `rocksdb_list_column_families*`,
//! `rocksdb_get_default_column_family_handle` (metadata path: each change is a MANIFEST
//! edit made by the engine).
//!
//! A handle owns an engine `ColumnFamilyHandle` (an `Arc` of the family's state), so it stays
//! valid after the family is dropped or the DB closed, and destroying it in any order is
//! safe. RocksDB's "immortal" default handle needs no special case: every handle here frees
//! only its own wrapper.

use std::ffi::{c_char, c_int};

use engine::db::{ColumnFamilyHandle, Db};
use engine::Error;

use crate::alloc;
use crate::db::{self, rocksdb_t};
use crate::ffi;
use crate::options::rocksdb_options_t;

/// A column family handle. Ownership: owned by the caller; release it with
/// `rocksdb_column_family_handle_destroy` (before or after `rocksdb_close`: both are safe).
#[derive(Clone, Debug)]
pub struct rocksdb_column_family_handle_t {
    pub(crate) handle: ColumnFamilyHandle,
}

/// Wraps an engine handle as a C handle owned by the caller.
pub(crate) fn new_handle(handle: ColumnFamilyHandle) -> *mut rocksdb_column_family_handle_t {
    ffi::into_handle(rocksdb_column_family_handle_t { handle })
}

/// Borrows the engine handle behind a C column family handle.
///
/// # Safety
/// `cf` must be NULL or a live handle from this module.
pub(crate) unsafe fn borrow_cf<'a>(
    cf: *const rocksdb_column_family_handle_t,
) -> Result<&'a ColumnFamilyHandle, Error> {
    // SAFETY: forwarded contract.
    Ok(&unsafe { ffi::borrow(cf, "column_family")? }.handle)
}

/// A C-allocated array holding `items`, never NULL (RocksDB returns `malloc(n * size)`, which
/// glibc makes non-NULL even for 0). Released by the caller with `free`.
pub(crate) fn malloc_array<T: Copy>(items: &[T]) -> *mut T {
    // SAFETY: `items` is a live slice; its bytes are read as plain bytes for the copy, and
    // `T: Copy` (pointers here) has no drop glue or invariants a byte copy could break.
    let bytes =
        unsafe { std::slice::from_raw_parts(items.as_ptr().cast::<u8>(), size_of_val(items)) };
    // malloc's alignment suits every scalar and pointer type.
    alloc::malloc_copy(bytes).cast()
}

/// Creates the column family `name` with `column_family_options` (copied). Returns a new
/// handle owned by the caller, or NULL with `*errptr` set on error (RocksDB HEAD behaviour;
/// 7.8.3 leaked a handle with the error), e.g. `Invalid argument: Column family already
/// exists`.
///
/// # Safety
/// `db` and `column_family_options` must be NULL or live handles, `column_family_name` NULL
/// or a C string, `errptr` NULL or a valid errptr.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_create_column_family(
    db: *mut rocksdb_t,
    column_family_options: *const rocksdb_options_t,
    column_family_name: *const c_char,
    errptr: *mut *mut c_char,
) -> *mut rocksdb_column_family_handle_t {
    ffi::guarded(errptr, "rocksdb_create_column_family", || {
        // SAFETY: per this function's contract; NULLs are checked.
        let db = unsafe { db::borrow_db(db)? };
        // SAFETY: per this function's contract; NULLs are checked.
        let opts = unsafe { ffi::borrow(column_family_options, "column_family_options")? };
        // SAFETY: per this function's contract; NULLs are checked.
        let name = unsafe { ffi::cstr(column_family_name, "column_family_name")? };
        Ok(new_handle(
            db.create_column_family(opts.engine_cf_options()?, name)?,
        ))
    })
}

/// Creates `num_column_families` column families with the same options, stopping at the
/// first error (as RocksDB's `CreateColumnFamilies` does). Returns a malloc()ed array of the
/// handles created (never NULL; free it with `rocksdb_create_column_families_destroy` and
/// each handle with `rocksdb_column_family_handle_destroy`) and their number in `*lencfs`.
/// On error `*errptr` is set and the array holds the families created before it.
///
/// # Safety
/// `db` and `column_family_options` must be NULL or live handles, `column_family_names`
/// NULL or an array of `num_column_families` C strings, `lencfs` NULL or writable, `errptr`
/// NULL or a valid errptr.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_create_column_families(
    db: *mut rocksdb_t,
    column_family_options: *const rocksdb_options_t,
    num_column_families: c_int,
    column_family_names: *const *const c_char,
    lencfs: *mut usize,
    errptr: *mut *mut c_char,
) -> *mut *mut rocksdb_column_family_handle_t {
    let mut created: Vec<*mut rocksdb_column_family_handle_t> = Vec::new();
    let _: () = ffi::guarded(errptr, "rocksdb_create_column_families", || {
        // SAFETY: per this function's contract; NULLs are checked.
        let db = unsafe { db::borrow_db(db)? };
        // SAFETY: per this function's contract; NULLs are checked.
        let opts = unsafe { ffi::borrow(column_family_options, "column_family_options")? };
        // SAFETY: per this function's contract; NULLs are checked.
        let names = unsafe {
            db::array(
                column_family_names,
                db::count(num_column_families)?,
                "column_family_names",
            )?
        };
        let cf_opts = opts.engine_cf_options()?;
        for &name in names {
            // SAFETY: each entry is a C string per this function's contract.
            let name = unsafe { ffi::cstr(name, "column_family_names")? };
            created.push(new_handle(db.create_column_family(cf_opts.clone(), name)?));
        }
        Ok(())
    });
    // SAFETY: `lencfs` is NULL or writable per this function's contract.
    unsafe { ffi::write_out(lencfs, created.len()) };
    malloc_array(&created)
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

/// Drops the column family of `handle` (recorded in the MANIFEST). The handle stays valid
/// and must still be destroyed; reads through it see the family's data as it was. Errors:
/// `Invalid argument: Can't drop default column family`, a read-only DB.
///
/// # Safety
/// `db` and `handle` must be NULL or live handles, `errptr` NULL or a valid errptr.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_drop_column_family(
    db: *mut rocksdb_t,
    handle: *mut rocksdb_column_family_handle_t,
    errptr: *mut *mut c_char,
) {
    ffi::guarded(errptr, "rocksdb_drop_column_family", || {
        // SAFETY: per this function's contract; NULLs are checked.
        let db = unsafe { db::borrow_db(db)? };
        // SAFETY: per this function's contract; NULLs are checked.
        let cf = unsafe { borrow_cf(handle)? };
        db.drop_column_family(cf)
    })
}

/// A new handle to `db`'s default column family, owned by the caller; destroy it with
/// `rocksdb_column_family_handle_destroy`. NULL for a NULL `db`.
///
/// # Safety
/// `db` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_get_default_column_family_handle(
    db: *mut rocksdb_t,
) -> *mut rocksdb_column_family_handle_t {
    ffi::guarded_no_err("rocksdb_get_default_column_family_handle", || {
        // SAFETY: per this function's contract; NULL is checked.
        let db = unsafe { db::borrow_db(db)? };
        Ok(new_handle(db.default_cf()))
    })
}

/// Frees a column family handle (not the family). NULL is a no-op; safe after
/// `rocksdb_close` and after the family was dropped.
///
/// # Safety
/// `handle` must be NULL or a live handle, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_column_family_handle_destroy(
    handle: *mut rocksdb_column_family_handle_t,
) {
    ffi::guarded_no_err("rocksdb_column_family_handle_destroy", || {
        // SAFETY: per this function's contract.
        drop(unsafe { ffi::from_handle(handle) });
        Ok(())
    })
}

/// The column family's id (0 for the default family, and for NULL).
///
/// # Safety
/// `handle` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_column_family_handle_get_id(
    handle: *mut rocksdb_column_family_handle_t,
) -> u32 {
    ffi::guarded_no_err("rocksdb_column_family_handle_get_id", || {
        // SAFETY: per this function's contract; NULL is checked.
        Ok(unsafe { borrow_cf(handle)? }.id())
    })
}

/// The column family's name: a malloc()ed copy, **not** NUL-terminated, its length in
/// `*name_len`; release it with `rocksdb_free`. NULL (and `*name_len = 0`) for NULL.
///
/// # Safety
/// `handle` must be NULL or a live handle, `name_len` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_column_family_handle_get_name(
    handle: *mut rocksdb_column_family_handle_t,
    name_len: *mut usize,
) -> *mut c_char {
    // SAFETY: `name_len` is NULL or writable per this function's contract.
    unsafe { ffi::write_out(name_len, 0) };
    ffi::guarded_no_err("rocksdb_column_family_handle_get_name", || {
        // SAFETY: per this function's contract; NULL is checked.
        let name = unsafe { borrow_cf(handle)? }.name();
        // SAFETY: as above.
        unsafe { ffi::write_out(name_len, name.len()) };
        Ok(alloc::malloc_copy(name.as_bytes()))
    })
}

/// The names of the column families of the DB at `name`, in id order: a malloc()ed array of
/// malloc()ed C strings, its length in `*lencf`; release it with
/// `rocksdb_list_column_families_destroy`. On error `*errptr` is set, `*lencf` is 0 and a
/// non-NULL empty array is still returned (as RocksDB's `malloc(0)` on glibc). `options` is
/// not used and may be NULL.
///
/// # Safety
/// `options` must be NULL or a live handle, `name` NULL or a C string, `lencf` NULL or
/// writable, `errptr` NULL or a valid errptr.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_list_column_families(
    options: *const rocksdb_options_t,
    name: *const c_char,
    lencf: *mut usize,
    errptr: *mut *mut c_char,
) -> *mut *mut c_char {
    let _ = options;
    let mut names: Vec<String> = Vec::new();
    let _: () = ffi::guarded(errptr, "rocksdb_list_column_families", || {
        // SAFETY: per this function's contract; NULL is checked.
        let path = unsafe { ffi::cstr(name, "name")? };
        names = Db::list_column_families(path)?;
        Ok(())
    });
    let list: Vec<*mut c_char> = names.iter().map(alloc::malloc_cstring).collect();
    // SAFETY: `lencf` is NULL or writable per this function's contract.
    unsafe { ffi::write_out(lencf, list.len()) };
    malloc_array(&list)
}

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
