// SPDX-License-Identifier: Apache-2.0
//! `rocksdb_open*`, `rocksdb_close`, `rocksdb_destroy_db`, the point writes and reads
//! (`rocksdb_put/get/delete/delete_range/merge[_cf]`, `rocksdb_write`,
//! `rocksdb_multi_get*`, `rocksdb_get_pinned*`, `rocksdb_get_into_buffer*`,
//! `rocksdb_key_may_exist*`), properties, the sequence number, `rocksdb_flush_wal`,
//! `rocksdb_get_db_identity`, and the pinned-value objects (`rocksdb_pinnableslice_*`,
//! `rocksdb_pinnable_handle_*`). Open is the recovery path; the rest sit on the write and
//! read paths of the engine's `Db`.
//!
//! Everything here is a thin adapter: the engine produces RocksDB's status texts, and the
//! errptr, ownership and NULL rules come from `ffi` (c-api-conventions.md §2–4).
//! Flushes, manual compaction, approximate sizes and file deletion control are in
//! `db::maintenance` (background path).

use std::ffi::{c_char, c_int, c_uchar};
use std::ptr;

use engine::db::{ColumnFamilyHandle, Db};
use engine::options::ColumnFamilyOptions;
use engine::Error;

use crate::alloc;
use crate::column_family::{self, borrow_cf, rocksdb_column_family_handle_t};
use crate::ffi;
use crate::options::rocksdb_options_t;
use crate::readoptions::rocksdb_readoptions_t;
use crate::types::rocksdb_slice_t;
use crate::writebatch::rocksdb_writebatch_t;
use crate::writeoptions::rocksdb_writeoptions_t;

pub mod maintenance;
#[cfg(test)]
mod table_tests;
#[cfg(test)]
mod tests;
/// Test helpers other modules' tests share (`solistore_ext`).
#[cfg(test)]
pub(crate) use tests::{free_options, take, test_options, TempDir};

/// An open database. Ownership: owned by the caller from `rocksdb_open*` until
/// `rocksdb_close`, which frees it. Iterators, snapshots and column family handles hold their
/// own references to the engine state, so they stay safe to use (on what they already see)
/// and to destroy after the close. Thread-safe, like RocksDB's `DB`.
#[derive(Debug)]
pub struct rocksdb_t {
    pub(crate) db: Db,
    /// `rocksdb_disable_file_deletions` calls not yet matched by an enable (kept only: the
    /// engine deletes obsolete files regardless).
    pub(crate) file_deletions_disabled: std::sync::atomic::AtomicU32,
}

/// A value read by `rocksdb_get_pinned*` or `rocksdb_batched_multi_get_cf*`. Ownership:
/// owned by the caller; release it with `rocksdb_pinnableslice_destroy` (also safe after
/// `rocksdb_close`: the value is a private copy).
#[derive(Debug)]
pub struct rocksdb_pinnableslice_t {
    value: Vec<u8>,
}

/// A value read by `rocksdb_get_pinned_v2` / `rocksdb_get_pinned_cf_v2`. Ownership: owned by
/// the caller; release it with `rocksdb_pinnable_handle_destroy`.
#[derive(Debug)]
pub struct rocksdb_pinnable_handle_t {
    value: Vec<u8>,
}

/// Borrows the engine DB behind a C handle.
///
/// # Safety
/// `db` must be NULL or a live handle from `rocksdb_open*`.
pub(crate) unsafe fn borrow_db<'a>(db: *const rocksdb_t) -> Result<&'a Db, Error> {
    // SAFETY: forwarded contract.
    Ok(&unsafe { ffi::borrow(db, "db")? }.db)
}

/// Views a caller's array of `n` entries. `(NULL, 0)` is empty; NULL with `n > 0` is
/// `Invalid argument: <param> is NULL`; more entries than one allocation can hold is
/// `Invalid argument` too (see `ffi`'s length rules).
///
/// # Safety
/// A non-NULL `ptr` must address `n` readable entries that stay unchanged for `'a`.
pub(crate) unsafe fn array<'a, T>(ptr: *const T, n: usize, param: &str) -> Result<&'a [T], Error> {
    if n == 0 {
        return Ok(&[]);
    }
    if !ffi::array_len_ok::<T>(n) {
        return Err(Error::invalid_argument(format!(
            "{param}: {n} entries is too many"
        )));
    }
    if ptr.is_null() {
        return Err(Error::invalid_argument(format!("{param} is NULL")));
    }
    // SAFETY: non-NULL with `n` readable entries per the contract.
    Ok(unsafe { std::slice::from_raw_parts(ptr, n) })
}

/// An `int` count from C as a length; negative counts are `Invalid argument`.
pub(crate) fn count(n: c_int) -> Result<usize, Error> {
    usize::try_from(n).map_err(|_| Error::invalid_argument(format!("negative count {n}")))
}

/// Stores `value` in `arr[i]`; returns false (storing nothing) when `arr` is NULL.
///
/// # Safety
/// `arr` must be NULL or hold more than `i` writable entries.
unsafe fn put_at<T>(arr: *mut T, i: usize, value: T) -> bool {
    if arr.is_null() {
        return false;
    }
    // SAFETY: forwarded contract; `arr` is non-NULL so `arr + i` is inside the array.
    unsafe { ffi::write_out(arr.wrapping_add(i), value) };
    true
}

/// Reads `n` `(ptr, len)` byte strings from two parallel C arrays.
///
/// # Safety
/// `ptrs` and `lens` must be NULL or hold `n` entries; each non-NULL `ptrs[i]` must address
/// `lens[i]` bytes that stay unchanged for `'a`.
pub(crate) unsafe fn byte_strings<'a>(
    n: usize,
    ptrs: *const *const c_char,
    lens: *const usize,
    param: &str,
) -> Result<Vec<&'a [u8]>, Error> {
    // SAFETY: forwarded contract.
    let ptrs = unsafe { array(ptrs, n, param)? };
    // SAFETY: forwarded contract.
    let lens = unsafe { array(lens, n, param)? };
    ptrs.iter()
        .zip(lens)
        // SAFETY: forwarded contract.
        .map(|(&p, &l)| unsafe { ffi::bytes(p, l) })
        .collect()
}

/// The column family options of a C options handle.
///
/// # Safety
/// `o` must be NULL or a live options handle.
unsafe fn cf_options(
    o: *const rocksdb_options_t,
    param: &'static str,
) -> Result<ColumnFamilyOptions, Error> {
    // SAFETY: forwarded contract.
    unsafe { ffi::borrow(o, param)? }.engine_cf_options()
}

/// Shared body of the four open functions. `cfs` is None for the default family alone.
///
/// # Safety
/// Every pointer must satisfy the contract of the C function calling this.
unsafe fn open_impl(
    options: *const rocksdb_options_t,
    name: *const c_char,
    cfs: Option<(c_int, *const *const c_char, *const *const rocksdb_options_t)>,
    handles_out: *mut *mut rocksdb_column_family_handle_t,
    read_only: Option<bool>,
) -> Result<*mut rocksdb_t, Error> {
    // SAFETY: forwarded contract; NULLs are checked.
    let opts = unsafe { ffi::borrow(options, "options")? };
    // SAFETY: forwarded contract; NULLs are checked.
    let path = unsafe { ffi::cstr(name, "name")? };
    let families: Vec<(String, ColumnFamilyOptions)> = match cfs {
        None => vec![("default".to_string(), opts.engine_cf_options()?)],
        Some((n, names, cf_opts)) => {
            let n = count(n)?;
            // SAFETY: forwarded contract: both arrays hold `n` entries.
            let names = unsafe { array(names, n, "column_family_names")? };
            // SAFETY: forwarded contract: both arrays hold `n` entries.
            let cf_opts = unsafe { array(cf_opts, n, "column_family_options")? };
            let mut v = Vec::with_capacity(n);
            for (&nm, &o) in names.iter().zip(cf_opts) {
                // SAFETY: forwarded contract: C strings and live options handles.
                let nm = unsafe { ffi::cstr(nm, "column_family_names")? };
                // SAFETY: forwarded contract: C strings and live options handles.
                let o = unsafe { cf_options(o, "column_family_options")? };
                v.push((nm.to_string(), o));
            }
            v
        }
    };
    let listed = cfs.is_some();
    if listed && handles_out.is_null() {
        return Err(Error::invalid_argument("column_family_handles is NULL"));
    }
    // The write buffer manager set on the options is shared with the engine.
    let mut db_opts = opts.db.clone();
    if db_opts.write_buffer_manager.is_none() {
        db_opts.write_buffer_manager = opts.s.write_buffer_manager.clone();
    }
    // Options kept beside the engine's struct that the engine acts on.
    db_opts.rate_limiter = opts
        .s
        .rate_limiter
        .as_ref()
        .map(|l| std::sync::Arc::clone(&l.bucket));
    db_opts.max_background_compactions = opts.s.max_background_compactions;
    db_opts.max_background_flushes = opts.s.max_background_flushes;
    db_opts.max_subcompactions = opts.s.max_subcompactions;
    let (db, handles) = match read_only {
        None => Db::open_cf(&db_opts, path, families)?,
        Some(error_if_wal_file_exists) => {
            Db::open_cf_read_only(&db_opts, path, families, error_if_wal_file_exists)?
        }
    };
    if let Some(stats) = &opts.s.statistics {
        stats.attach(&db);
    }
    if listed {
        for (i, h) in handles.into_iter().enumerate() {
            // SAFETY: the caller's handle array holds `num_column_families` entries, one
            // per listed family, and `i` is below that.
            unsafe { ffi::write_out(handles_out.wrapping_add(i), column_family::new_handle(h)) };
        }
    }
    Ok(ffi::into_handle(rocksdb_t {
        db,
        file_deletions_disabled: std::sync::atomic::AtomicU32::new(0),
    }))
}

/// Opens (or, with `create_if_missing`, creates) the DB at `name` with its default column
/// family. The options are copied. Returns a handle owned by the caller (close it with
/// `rocksdb_close`), or NULL with `*errptr` set, e.g. `Invalid argument: <name>/CURRENT: does
/// not exist (create_if_missing is false)` or `IO error: While lock file: <name>/LOCK: ...`.
///
/// # Safety
/// `options` must be NULL or a live options handle, `name` NULL or a C string, `errptr`
/// NULL or a valid errptr.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_open(
    options: *const rocksdb_options_t,
    name: *const c_char,
    errptr: *mut *mut c_char,
) -> *mut rocksdb_t {
    ffi::guarded(errptr, "rocksdb_open", || {
        // SAFETY: forwarded contract.
        unsafe { open_impl(options, name, None, ptr::null_mut(), None) }
    })
}

/// Opens the DB at `name` with the listed column families (every existing one must be
/// listed, `default` included; missing ones are created with
/// `create_missing_column_families`). On success `column_family_handles[i]` receives a new
/// handle (owned by the caller) for `column_family_names[i]`; on error the array is left
/// untouched, NULL is returned and `*errptr` is set. All options are copied.
///
/// # Safety
/// `options` and each `column_family_options[i]` must be NULL or live options handles, `name`
/// and each `column_family_names[i]` NULL or C strings, the three arrays NULL or
/// `num_column_families` entries long, `errptr` NULL or a valid errptr.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_open_column_families(
    options: *const rocksdb_options_t,
    name: *const c_char,
    num_column_families: c_int,
    column_family_names: *const *const c_char,
    column_family_options: *const *const rocksdb_options_t,
    column_family_handles: *mut *mut rocksdb_column_family_handle_t,
    errptr: *mut *mut c_char,
) -> *mut rocksdb_t {
    ffi::guarded(errptr, "rocksdb_open_column_families", || {
        // SAFETY: forwarded contract.
        unsafe {
            open_impl(
                options,
                name,
                Some((
                    num_column_families,
                    column_family_names,
                    column_family_options,
                )),
                column_family_handles,
                None,
            )
        }
    })
}

/// Opens the DB at `name` read-only with its default column family: no lock, no writes (they
/// fail with `Not implemented: Not supported operation in read only mode.`); the WAL is
/// replayed in memory. `error_if_wal_file_exists` is ignored, as RocksDB's single-family
/// `DB::OpenForReadOnly` ignores it (only `rocksdb_open_for_read_only_column_families`
/// honours it). Returns a handle owned by the caller, or NULL with `*errptr` set.
///
/// # Safety
/// As `rocksdb_open`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_open_for_read_only(
    options: *const rocksdb_options_t,
    name: *const c_char,
    error_if_wal_file_exists: c_uchar,
    errptr: *mut *mut c_char,
) -> *mut rocksdb_t {
    let _ = error_if_wal_file_exists;
    ffi::guarded(errptr, "rocksdb_open_for_read_only", || {
        // SAFETY: forwarded contract.
        unsafe { open_impl(options, name, None, ptr::null_mut(), Some(false)) }
    })
}

/// Read-only open with a list of column families (a subset is allowed). Handles are
/// returned as in `rocksdb_open_column_families`. With `error_if_wal_file_exists`, any WAL
/// file in the directory (even an empty one) fails the open with RocksDB's
/// `Corruption: The db was opened in readonly mode with error_if_wal_file_existsflag but a WAL
/// file already exists` (sic).
///
/// # Safety
/// As `rocksdb_open_column_families`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_open_for_read_only_column_families(
    options: *const rocksdb_options_t,
    name: *const c_char,
    num_column_families: c_int,
    column_family_names: *const *const c_char,
    column_family_options: *const *const rocksdb_options_t,
    column_family_handles: *mut *mut rocksdb_column_family_handle_t,
    error_if_wal_file_exists: c_uchar,
    errptr: *mut *mut c_char,
) -> *mut rocksdb_t {
    ffi::guarded(errptr, "rocksdb_open_for_read_only_column_families", || {
        // SAFETY: forwarded contract.
        unsafe {
            open_impl(
                options,
                name,
                Some((
                    num_column_families,
                    column_family_names,
                    column_family_options,
                )),
                column_family_handles,
                Some(ffi::c_bool(error_if_wal_file_exists)),
            )
        }
    })
}

/// Closes the DB and frees its handle: buffered WAL bytes go to the OS and the `LOCK` is
/// released, so the DB can be opened again at once. NULL is a no-op. Iterators, snapshots and
/// column family handles still alive keep working on what they saw and must still be
/// destroyed; the handle itself must not be used again.
///
/// # Safety
/// `db` must be NULL or a live handle from `rocksdb_open*`, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_close(db: *mut rocksdb_t) {
    ffi::guarded_no_err("rocksdb_close", || {
        // SAFETY: per this function's contract.
        if let Some(db) = unsafe { ffi::from_handle(db) } {
            // RocksDB's `delete db` has no way to report an error either.
            let _ = db.db.close();
        }
        Ok(())
    })
}

/// Deletes the DB at `name` (its files, then the directory when empty). A missing DB is
/// not an error. `options` is not used and may be NULL.
///
/// # Safety
/// `options` must be NULL or a live handle, `name` NULL or a C string, `errptr` NULL or a
/// valid errptr.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_destroy_db(
    options: *const rocksdb_options_t,
    name: *const c_char,
    errptr: *mut *mut c_char,
) {
    let _ = options;
    ffi::guarded(errptr, "rocksdb_destroy_db", || {
        // SAFETY: per this function's contract; NULL is checked.
        Db::destroy(unsafe { ffi::cstr(name, "name")? })
    })
}

/// Repairs the closed DB at `name` as RocksDB's `RepairDB` does: every readable table is
/// listed again in a new MANIFEST (all in level 0, in the column family its properties name,
/// which is created when needed), unreadable tables and the old MANIFESTs are moved to
/// `<name>/lost/`, and the WALs are converted to tables (a copy of each is kept in `lost/`).
/// `options` serve every column family. Errors (no such directory, the DB is open) set
/// `*errptr`. See `engine::db::repair` for what it keeps beyond RocksDB.
///
/// # Safety
/// `options` must be NULL or a live handle, `name` NULL or a C string, `errptr` NULL or a
/// valid errptr.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_repair_db(
    options: *const rocksdb_options_t,
    name: *const c_char,
    errptr: *mut *mut c_char,
) {
    ffi::guarded(errptr, "rocksdb_repair_db", || {
        // SAFETY: per this function's contract; NULLs are checked.
        let opts = unsafe { ffi::borrow(options, "options")? };
        // SAFETY: per this function's contract; NULL is checked.
        let path = unsafe { ffi::cstr(name, "name")? };
        let mut db_opts = opts.db.clone();
        if db_opts.write_buffer_manager.is_none() {
            db_opts.write_buffer_manager = opts.s.write_buffer_manager.clone();
        }
        Db::repair(&db_opts, &opts.engine_cf_options()?, path)
    })
}

/// What one point write does.
enum Op<'a> {
    Put(&'a [u8], &'a [u8]),
    Delete(&'a [u8]),
    SingleDelete(&'a [u8]),
    DeleteRange(&'a [u8], &'a [u8]),
    Merge(&'a [u8], &'a [u8]),
}

/// Shared body of the point writes: the default family when `cf` is None.
///
/// # Safety
/// `db`, `options` and `cf` must be NULL or live handles.
unsafe fn write_one(
    db: *mut rocksdb_t,
    options: *const rocksdb_writeoptions_t,
    cf: Option<*mut rocksdb_column_family_handle_t>,
    op: Op<'_>,
) -> Result<(), Error> {
    // SAFETY: forwarded contract; NULLs are checked.
    let db = unsafe { borrow_db(db)? };
    // SAFETY: forwarded contract; NULLs are checked.
    let wo = unsafe { &ffi::borrow(options, "options")?.wo };
    let cf: &ColumnFamilyHandle = match cf {
        // SAFETY: forwarded contract.
        Some(cf) => unsafe { borrow_cf(cf)? },
        None => db.default_cf_ref(),
    };
    match op {
        Op::Put(k, v) => {
            engine::batch::check_sizes(k.len(), v.len())?;
            db.put(wo, cf, k, v)
        }
        Op::Delete(k) => db.delete(wo, cf, k),
        Op::SingleDelete(k) => db.single_delete(wo, cf, k),
        Op::DeleteRange(b, e) => db.delete_range(wo, cf, b, e),
        Op::Merge(k, v) => {
            engine::batch::check_sizes(k.len(), v.len())?;
            db.merge(wo, cf, k, v)
        }
    }
}

/// Sets `key` to `val` in the default column family. On error sets `*errptr`; on success
/// leaves it untouched. `(NULL, 0)` is an empty key or value.
///
/// # Safety
/// `db` and `options` must be NULL or live handles, `key`/`val` address `keylen`/`vallen`
/// bytes (or are NULL with length 0), `errptr` NULL or a valid errptr.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_put(
    db: *mut rocksdb_t,
    options: *const rocksdb_writeoptions_t,
    key: *const c_char,
    keylen: usize,
    val: *const c_char,
    vallen: usize,
    errptr: *mut *mut c_char,
) {
    ffi::guarded(errptr, "rocksdb_put", || {
        // SAFETY: per this function's contract.
        let k = unsafe { ffi::bytes(key, keylen)? };
        // SAFETY: per this function's contract.
        let v = unsafe { ffi::bytes(val, vallen)? };
        // SAFETY: per this function's contract.
        unsafe { write_one(db, options, None, Op::Put(k, v)) }
    })
}

/// `rocksdb_put` in `column_family`.
///
/// # Safety
/// As `rocksdb_put`; `column_family` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_put_cf(
    db: *mut rocksdb_t,
    options: *const rocksdb_writeoptions_t,
    column_family: *mut rocksdb_column_family_handle_t,
    key: *const c_char,
    keylen: usize,
    val: *const c_char,
    vallen: usize,
    errptr: *mut *mut c_char,
) {
    ffi::guarded(errptr, "rocksdb_put_cf", || {
        // SAFETY: per this function's contract.
        let k = unsafe { ffi::bytes(key, keylen)? };
        // SAFETY: per this function's contract.
        let v = unsafe { ffi::bytes(val, vallen)? };
        // SAFETY: per this function's contract.
        unsafe { write_one(db, options, Some(column_family), Op::Put(k, v)) }
    })
}

/// Deletes `key` from the default column family (absent keys are not an error).
///
/// # Safety
/// As `rocksdb_put`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_delete(
    db: *mut rocksdb_t,
    options: *const rocksdb_writeoptions_t,
    key: *const c_char,
    keylen: usize,
    errptr: *mut *mut c_char,
) {
    ffi::guarded(errptr, "rocksdb_delete", || {
        // SAFETY: per this function's contract.
        let k = unsafe { ffi::bytes(key, keylen)? };
        // SAFETY: per this function's contract.
        unsafe { write_one(db, options, None, Op::Delete(k)) }
    })
}

/// `rocksdb_delete` in `column_family`.
///
/// # Safety
/// As `rocksdb_put_cf`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_delete_cf(
    db: *mut rocksdb_t,
    options: *const rocksdb_writeoptions_t,
    column_family: *mut rocksdb_column_family_handle_t,
    key: *const c_char,
    keylen: usize,
    errptr: *mut *mut c_char,
) {
    ffi::guarded(errptr, "rocksdb_delete_cf", || {
        // SAFETY: per this function's contract.
        let k = unsafe { ffi::bytes(key, keylen)? };
        // SAFETY: per this function's contract.
        unsafe { write_one(db, options, Some(column_family), Op::Delete(k)) }
    })
}

/// Deletes `key` from the default column family, for a key written at most once since its
/// last deletion (RocksDB's `SingleDelete`; read like `rocksdb_delete` here).
///
/// # Safety
/// As `rocksdb_put`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_singledelete(
    db: *mut rocksdb_t,
    options: *const rocksdb_writeoptions_t,
    key: *const c_char,
    keylen: usize,
    errptr: *mut *mut c_char,
) {
    ffi::guarded(errptr, "rocksdb_singledelete", || {
        // SAFETY: per this function's contract.
        let k = unsafe { ffi::bytes(key, keylen)? };
        // SAFETY: per this function's contract.
        unsafe { write_one(db, options, None, Op::SingleDelete(k)) }
    })
}

/// `rocksdb_singledelete` in `column_family`.
///
/// # Safety
/// As `rocksdb_put_cf`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_singledelete_cf(
    db: *mut rocksdb_t,
    options: *const rocksdb_writeoptions_t,
    column_family: *mut rocksdb_column_family_handle_t,
    key: *const c_char,
    keylen: usize,
    errptr: *mut *mut c_char,
) {
    ffi::guarded(errptr, "rocksdb_singledelete_cf", || {
        // SAFETY: per this function's contract.
        let k = unsafe { ffi::bytes(key, keylen)? };
        // SAFETY: per this function's contract.
        unsafe { write_one(db, options, Some(column_family), Op::SingleDelete(k)) }
    })
}

/// Deletes every key in `[start_key, end_key)` of `column_family`.
///
/// # Safety
/// As `rocksdb_put_cf`, with the two keys as byte ranges.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_delete_range_cf(
    db: *mut rocksdb_t,
    options: *const rocksdb_writeoptions_t,
    column_family: *mut rocksdb_column_family_handle_t,
    start_key: *const c_char,
    start_key_len: usize,
    end_key: *const c_char,
    end_key_len: usize,
    errptr: *mut *mut c_char,
) {
    ffi::guarded(errptr, "rocksdb_delete_range_cf", || {
        // SAFETY: per this function's contract.
        let begin = unsafe { ffi::bytes(start_key, start_key_len)? };
        // SAFETY: per this function's contract.
        let end = unsafe { ffi::bytes(end_key, end_key_len)? };
        // SAFETY: per this function's contract.
        unsafe {
            write_one(
                db,
                options,
                Some(column_family),
                Op::DeleteRange(begin, end),
            )
        }
    })
}

/// Adds a merge operand for `key`. Without a merge operator this fails with
/// `Not implemented: Provide a merge_operator when opening DB`.
///
/// # Safety
/// As `rocksdb_put`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_merge(
    db: *mut rocksdb_t,
    options: *const rocksdb_writeoptions_t,
    key: *const c_char,
    keylen: usize,
    val: *const c_char,
    vallen: usize,
    errptr: *mut *mut c_char,
) {
    ffi::guarded(errptr, "rocksdb_merge", || {
        // SAFETY: per this function's contract.
        let k = unsafe { ffi::bytes(key, keylen)? };
        // SAFETY: per this function's contract.
        let v = unsafe { ffi::bytes(val, vallen)? };
        // SAFETY: per this function's contract.
        unsafe { write_one(db, options, None, Op::Merge(k, v)) }
    })
}

/// `rocksdb_merge` in `column_family`.
///
/// # Safety
/// As `rocksdb_put_cf`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_merge_cf(
    db: *mut rocksdb_t,
    options: *const rocksdb_writeoptions_t,
    column_family: *mut rocksdb_column_family_handle_t,
    key: *const c_char,
    keylen: usize,
    val: *const c_char,
    vallen: usize,
    errptr: *mut *mut c_char,
) {
    ffi::guarded(errptr, "rocksdb_merge_cf", || {
        // SAFETY: per this function's contract.
        let k = unsafe { ffi::bytes(key, keylen)? };
        // SAFETY: per this function's contract.
        let v = unsafe { ffi::bytes(val, vallen)? };
        // SAFETY: per this function's contract.
        unsafe { write_one(db, options, Some(column_family), Op::Merge(k, v)) }
    })
}

/// Applies `batch` atomically. The batch is not changed and may be reused.
///
/// # Safety
/// `db`, `options` and `batch` must be NULL or live handles, `errptr` NULL or a valid errptr.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_write(
    db: *mut rocksdb_t,
    options: *const rocksdb_writeoptions_t,
    batch: *mut rocksdb_writebatch_t,
    errptr: *mut *mut c_char,
) {
    ffi::guarded(errptr, "rocksdb_write", || {
        // SAFETY: per this function's contract; NULLs are checked.
        let db = unsafe { borrow_db(db)? };
        // SAFETY: per this function's contract; NULLs are checked.
        let wo = unsafe { &ffi::borrow(options, "options")?.wo };
        // SAFETY: per this function's contract; NULLs are checked.
        let batch = unsafe { &ffi::borrow(batch, "batch")?.batch };
        db.write(wo, batch)
    })
}

/// Shared body of the point reads: `Ok(None)` for a missing key.
///
/// # Safety
/// `db`, `options` and `cf` must be NULL or live handles; `key` addresses `keylen` bytes.
unsafe fn read_one(
    db: *mut rocksdb_t,
    options: *const rocksdb_readoptions_t,
    cf: Option<*mut rocksdb_column_family_handle_t>,
    key: *const c_char,
    keylen: usize,
) -> Result<Option<Vec<u8>>, Error> {
    // SAFETY: forwarded contract; NULLs are checked.
    let db = unsafe { borrow_db(db)? };
    // SAFETY: forwarded contract; NULLs are checked.
    let ro = unsafe { &ffi::borrow(options, "options")?.ro };
    // SAFETY: forwarded contract; NULLs are checked.
    let key = unsafe { ffi::bytes(key, keylen)? };
    match cf {
        // SAFETY: forwarded contract.
        Some(cf) => db.get(ro, unsafe { borrow_cf(cf)? }, key),
        None => db.get(ro, db.default_cf_ref(), key),
    }
}

/// Shared body of `rocksdb_get` and `rocksdb_get_cf`.
///
/// # Safety
/// As `rocksdb_get_cf`.
#[expect(
    clippy::too_many_arguments,
    reason = "mirrors the C prototype it serves"
)]
unsafe fn get_impl(
    name: &'static str,
    db: *mut rocksdb_t,
    options: *const rocksdb_readoptions_t,
    cf: Option<*mut rocksdb_column_family_handle_t>,
    key: *const c_char,
    keylen: usize,
    vallen: *mut usize,
    errptr: *mut *mut c_char,
) -> *mut c_char {
    // SAFETY: `vallen` is NULL or writable per the caller's contract.
    unsafe { ffi::write_out(vallen, 0) };
    ffi::guarded(errptr, name, || {
        // SAFETY: forwarded contract.
        let Some(value) = (unsafe { read_one(db, options, cf, key, keylen)? }) else {
            return Ok(ptr::null_mut());
        };
        // SAFETY: as above.
        unsafe { ffi::write_out(vallen, value.len()) };
        Ok(alloc::vec_to_c(value))
    })
}

/// Reads `key` from the default column family. Returns a malloc()ed copy of the value (not
/// NUL-terminated; non-NULL even when empty) with its length in `*vallen`; release it with
/// `rocksdb_free`. A missing key returns NULL with `*vallen = 0` and `*errptr` untouched; an
/// error returns NULL and sets `*errptr`.
///
/// # Safety
/// `db` and `options` must be NULL or live handles, `key` address `keylen` bytes (or be NULL
/// with 0), `vallen` NULL or writable, `errptr` NULL or a valid errptr.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_get(
    db: *mut rocksdb_t,
    options: *const rocksdb_readoptions_t,
    key: *const c_char,
    keylen: usize,
    vallen: *mut usize,
    errptr: *mut *mut c_char,
) -> *mut c_char {
    // SAFETY: forwarded contract.
    unsafe {
        get_impl(
            "rocksdb_get",
            db,
            options,
            None,
            key,
            keylen,
            vallen,
            errptr,
        )
    }
}

/// `rocksdb_get` in `column_family`.
///
/// # Safety
/// As `rocksdb_get`; `column_family` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_get_cf(
    db: *mut rocksdb_t,
    options: *const rocksdb_readoptions_t,
    column_family: *mut rocksdb_column_family_handle_t,
    key: *const c_char,
    keylen: usize,
    vallen: *mut usize,
    errptr: *mut *mut c_char,
) -> *mut c_char {
    // SAFETY: forwarded contract.
    unsafe {
        get_impl(
            "rocksdb_get_cf",
            db,
            options,
            Some(column_family),
            key,
            keylen,
            vallen,
            errptr,
        )
    }
}

/// Shared body of the multi-gets: `cfs` is None for the default family.
///
/// # Safety
/// As `rocksdb_multi_get_cf`.
#[expect(
    clippy::too_many_arguments,
    reason = "mirrors the C prototype it serves"
)]
unsafe fn multi_get_impl(
    db: *mut rocksdb_t,
    options: *const rocksdb_readoptions_t,
    cfs: Option<*const *const rocksdb_column_family_handle_t>,
    num_keys: usize,
    keys_list: *const *const c_char,
    keys_list_sizes: *const usize,
    values_list: *mut *mut c_char,
    values_list_sizes: *mut usize,
    errs: *mut *mut c_char,
) {
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // SAFETY: forwarded contract; NULLs are checked.
        let db = unsafe { borrow_db(db)? };
        // SAFETY: forwarded contract; NULLs are checked.
        let ro = unsafe { &ffi::borrow(options, "options")?.ro };
        // SAFETY: forwarded contract; NULLs are checked.
        let keys = unsafe { byte_strings(num_keys, keys_list, keys_list_sizes, "keys_list")? };
        let handles: Vec<&ColumnFamilyHandle> = match cfs {
            Some(cfs) => {
                // SAFETY: forwarded contract: `num_keys` handles.
                let cfs = unsafe { array(cfs, num_keys, "column_families")? };
                let mut v = Vec::with_capacity(num_keys);
                for &c in cfs {
                    // SAFETY: forwarded contract: each a live handle (NULL is checked).
                    v.push(unsafe { borrow_cf(c)? });
                }
                v
            }
            None => vec![db.default_cf_ref(); num_keys],
        };
        let pairs: Vec<(&ColumnFamilyHandle, &[u8])> = handles.into_iter().zip(keys).collect();
        Ok::<_, Error>(db.multi_get(ro, &pairs))
    }))
    .unwrap_or_else(|p| Err(crate::status::panic_error("rocksdb_multi_get", p.as_ref())));
    match outcome {
        Err(e) => {
            // SAFETY: the three arrays hold `num_keys` writable entries per the contract.
            unsafe {
                ffi::fail_each_key(
                    &e,
                    num_keys,
                    errs,
                    &[values_list.cast()],
                    &[values_list_sizes],
                )
            }
        }
        Ok(results) => {
            for (i, r) in results.into_iter().enumerate() {
                let (value, size, err) = match r {
                    Ok(Some(v)) => {
                        let len = v.len();
                        (alloc::vec_to_c(v), len, ptr::null_mut())
                    }
                    Ok(None) => (ptr::null_mut(), 0, ptr::null_mut()),
                    Err(e) => (ptr::null_mut(), 0, alloc::malloc_cstring(e.to_string())),
                };
                // SAFETY: each array is NULL or holds `num_keys` writable entries, and
                // `i < num_keys` (the same for the next two).
                if !unsafe { put_at(values_list, i, value) } {
                    // SAFETY: `value` is NULL or malloc()ed just above and handed to no one.
                    unsafe { alloc::rocksdb_free(value.cast()) };
                }
                // SAFETY: see above.
                unsafe { put_at(values_list_sizes, i, size) };
                // SAFETY: see above.
                if !unsafe { put_at(errs, i, err) } {
                    // SAFETY: `err` is NULL or malloc()ed just above and handed to no one.
                    unsafe { alloc::rocksdb_free(err.cast()) };
                }
            }
        }
    }
}

/// Reads `num_keys` keys of the default column family at one consistent point. For each
/// key `i`: `values_list[i]` is a malloc()ed copy of the value (caller frees) with its size
/// in `values_list_sizes[i]`, or NULL (size 0) when absent or on error; `errs[i]` is NULL
/// or a malloc()ed message. The previous contents of the arrays are overwritten, not freed.
///
/// # Safety
/// `db` and `options` must be NULL or live handles; the key arrays hold `num_keys` entries
/// describing readable bytes; the three output arrays hold `num_keys` writable entries.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_multi_get(
    db: *mut rocksdb_t,
    options: *const rocksdb_readoptions_t,
    num_keys: usize,
    keys_list: *const *const c_char,
    keys_list_sizes: *const usize,
    values_list: *mut *mut c_char,
    values_list_sizes: *mut usize,
    errs: *mut *mut c_char,
) {
    // SAFETY: forwarded contract.
    unsafe {
        multi_get_impl(
            db,
            options,
            None,
            num_keys,
            keys_list,
            keys_list_sizes,
            values_list,
            values_list_sizes,
            errs,
        )
    }
}

/// `rocksdb_multi_get` with a column family per key (`column_families[i]`).
///
/// # Safety
/// As `rocksdb_multi_get`; `column_families` holds `num_keys` live handles.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_multi_get_cf(
    db: *mut rocksdb_t,
    options: *const rocksdb_readoptions_t,
    column_families: *const *const rocksdb_column_family_handle_t,
    num_keys: usize,
    keys_list: *const *const c_char,
    keys_list_sizes: *const usize,
    values_list: *mut *mut c_char,
    values_list_sizes: *mut usize,
    errs: *mut *mut c_char,
) {
    // SAFETY: forwarded contract.
    unsafe {
        multi_get_impl(
            db,
            options,
            Some(column_families),
            num_keys,
            keys_list,
            keys_list_sizes,
            values_list,
            values_list_sizes,
            errs,
        )
    }
}

/// Shared body of the batched multi-gets over one column family.
///
/// # Safety
/// As `rocksdb_batched_multi_get_cf`, with `keys` already read.
unsafe fn batched_impl(
    db: *mut rocksdb_t,
    options: *const rocksdb_readoptions_t,
    column_family: *mut rocksdb_column_family_handle_t,
    num_keys: usize,
    keys: Result<Vec<&[u8]>, Error>,
    values: *mut *mut rocksdb_pinnableslice_t,
    errs: *mut *mut c_char,
) {
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // SAFETY: forwarded contract; NULLs are checked.
        let db = unsafe { borrow_db(db)? };
        // SAFETY: forwarded contract; NULLs are checked.
        let ro = unsafe { &ffi::borrow(options, "options")?.ro };
        // SAFETY: forwarded contract; NULLs are checked.
        let cf = unsafe { borrow_cf(column_family)? };
        let keys = keys?;
        let pairs: Vec<(&ColumnFamilyHandle, &[u8])> = keys.into_iter().map(|k| (cf, k)).collect();
        Ok::<_, Error>(db.multi_get(ro, &pairs))
    }))
    .unwrap_or_else(|p| {
        Err(crate::status::panic_error(
            "rocksdb_batched_multi_get_cf",
            p.as_ref(),
        ))
    });
    match outcome {
        // SAFETY: both arrays hold `num_keys` writable entries per the contract.
        Err(e) => unsafe { ffi::fail_each_key(&e, num_keys, errs, &[values.cast()], &[]) },
        Ok(results) => {
            for (i, r) in results.into_iter().enumerate() {
                let (value, err) = match r {
                    Ok(Some(v)) => (
                        ffi::into_handle(rocksdb_pinnableslice_t { value: v }),
                        ptr::null_mut(),
                    ),
                    Ok(None) => (ptr::null_mut(), ptr::null_mut()),
                    Err(e) => (ptr::null_mut(), alloc::malloc_cstring(e.to_string())),
                };
                // SAFETY: each array is NULL or holds `num_keys` writable entries, and
                // `i < num_keys` (the same for the next one).
                if !unsafe { put_at(values, i, value) } {
                    // SAFETY: `value` is NULL or made just above and handed to no one.
                    drop(unsafe { ffi::from_handle(value) });
                }
                // SAFETY: see above.
                if !unsafe { put_at(errs, i, err) } {
                    // SAFETY: `err` is NULL or malloc()ed just above and handed to no one.
                    unsafe { alloc::rocksdb_free(err.cast()) };
                }
            }
        }
    }
}

/// Reads `num_keys` keys of one column family at one consistent point. For each key:
/// `values[i]` is a new pinnable slice (caller destroys it) or NULL when absent or on error;
/// `errs[i]` is NULL or a malloc()ed message. `sorted_input` is a hint and is not required.
///
/// # Safety
/// `db`, `options`, `column_family` must be NULL or live handles; `keys_list` and
/// `keys_list_sizes` hold `num_keys` entries describing readable bytes; `values` and `errs`
/// hold `num_keys` writable entries.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_batched_multi_get_cf(
    db: *mut rocksdb_t,
    options: *const rocksdb_readoptions_t,
    column_family: *mut rocksdb_column_family_handle_t,
    num_keys: usize,
    keys_list: *const *const c_char,
    keys_list_sizes: *const usize,
    values: *mut *mut rocksdb_pinnableslice_t,
    errs: *mut *mut c_char,
    sorted_input: bool,
) {
    let _ = sorted_input;
    // SAFETY: per this function's contract.
    let keys = unsafe { byte_strings(num_keys, keys_list, keys_list_sizes, "keys_list") };
    // SAFETY: forwarded contract.
    unsafe { batched_impl(db, options, column_family, num_keys, keys, values, errs) }
}

/// `rocksdb_batched_multi_get_cf` with the keys as an array of `rocksdb_slice_t`.
///
/// # Safety
/// As `rocksdb_batched_multi_get_cf`; `keys_list` holds `num_keys` slices.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_batched_multi_get_cf_slice(
    db: *mut rocksdb_t,
    options: *const rocksdb_readoptions_t,
    column_family: *mut rocksdb_column_family_handle_t,
    num_keys: usize,
    keys_list: *const rocksdb_slice_t,
    values: *mut *mut rocksdb_pinnableslice_t,
    errs: *mut *mut c_char,
    sorted_input: bool,
) {
    let _ = sorted_input;
    // SAFETY: per this function's contract: `num_keys` slices.
    let keys = unsafe { array(keys_list, num_keys, "keys_list") }.and_then(|slices| {
        let mut keys = Vec::with_capacity(slices.len());
        for sl in slices {
            // SAFETY: per this function's contract: each slice addresses readable bytes.
            keys.push(unsafe { ffi::bytes(sl.data, sl.size)? });
        }
        Ok(keys)
    });
    // SAFETY: forwarded contract, as in `rocksdb_batched_multi_get_cf`.
    unsafe { batched_impl(db, options, column_family, num_keys, keys, values, errs) }
}

/// Shared body of the pinned gets.
///
/// # Safety
/// As `rocksdb_get_pinned_cf`.
unsafe fn pinned_value(
    db: *mut rocksdb_t,
    options: *const rocksdb_readoptions_t,
    cf: Option<*mut rocksdb_column_family_handle_t>,
    key: *const c_char,
    keylen: usize,
) -> Result<Option<Vec<u8>>, Error> {
    // SAFETY: forwarded contract.
    unsafe { read_one(db, options, cf, key, keylen) }
}

/// Reads `key` of the default column family into a new pinnable slice owned by the caller
/// (destroy it with `rocksdb_pinnableslice_destroy`). NULL when absent (errptr untouched) or
/// on error (`*errptr` set).
///
/// # Safety
/// As `rocksdb_get`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_get_pinned(
    db: *mut rocksdb_t,
    options: *const rocksdb_readoptions_t,
    key: *const c_char,
    keylen: usize,
    errptr: *mut *mut c_char,
) -> *mut rocksdb_pinnableslice_t {
    ffi::guarded(errptr, "rocksdb_get_pinned", || {
        // SAFETY: forwarded contract.
        let v = unsafe { pinned_value(db, options, None, key, keylen)? };
        Ok(v.map_or(ptr::null_mut(), |value| {
            ffi::into_handle(rocksdb_pinnableslice_t { value })
        }))
    })
}

/// `rocksdb_get_pinned` in `column_family`.
///
/// # Safety
/// As `rocksdb_get_cf`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_get_pinned_cf(
    db: *mut rocksdb_t,
    options: *const rocksdb_readoptions_t,
    column_family: *mut rocksdb_column_family_handle_t,
    key: *const c_char,
    keylen: usize,
    errptr: *mut *mut c_char,
) -> *mut rocksdb_pinnableslice_t {
    ffi::guarded(errptr, "rocksdb_get_pinned_cf", || {
        // SAFETY: forwarded contract.
        let v = unsafe { pinned_value(db, options, Some(column_family), key, keylen)? };
        Ok(v.map_or(ptr::null_mut(), |value| {
            ffi::into_handle(rocksdb_pinnableslice_t { value })
        }))
    })
}

/// A non-NULL pointer to `value`'s bytes (a static empty string for an empty value).
fn data_ptr(value: &[u8]) -> *const c_char {
    if value.is_empty() {
        c"".as_ptr()
    } else {
        value.as_ptr().cast()
    }
}

/// The bytes of a pinnable slice, borrowed until `rocksdb_pinnableslice_destroy`, length in
/// `*vallen`. NULL (`*vallen = 0`) for a NULL slice.
///
/// # Safety
/// `v` must be NULL or a live pinnable slice, `vallen` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_pinnableslice_value(
    v: *const rocksdb_pinnableslice_t,
    vallen: *mut usize,
) -> *const c_char {
    // SAFETY: per this function's contract.
    unsafe { ffi::write_out(vallen, 0) };
    ffi::guarded_no_err("rocksdb_pinnableslice_value", || {
        // SAFETY: per this function's contract; NULL is checked.
        let v = unsafe { ffi::borrow(v, "v")? };
        // SAFETY: as above.
        unsafe { ffi::write_out(vallen, v.value.len()) };
        Ok(data_ptr(&v.value))
    })
}

/// Frees a pinnable slice. NULL is a no-op.
///
/// # Safety
/// `v` must be NULL or a live pinnable slice, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_pinnableslice_destroy(v: *mut rocksdb_pinnableslice_t) {
    ffi::guarded_no_err("rocksdb_pinnableslice_destroy", || {
        // SAFETY: per this function's contract.
        drop(unsafe { ffi::from_handle(v) });
        Ok(())
    })
}

/// Reads `key` of the default column family into a new handle owned by the caller (destroy
/// it with `rocksdb_pinnable_handle_destroy`). NULL when absent or on error (`*errptr` set).
///
/// # Safety
/// As `rocksdb_get`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_get_pinned_v2(
    db: *mut rocksdb_t,
    options: *const rocksdb_readoptions_t,
    key: *const c_char,
    keylen: usize,
    errptr: *mut *mut c_char,
) -> *mut rocksdb_pinnable_handle_t {
    ffi::guarded(errptr, "rocksdb_get_pinned_v2", || {
        // SAFETY: forwarded contract.
        let v = unsafe { pinned_value(db, options, None, key, keylen)? };
        Ok(v.map_or(ptr::null_mut(), |value| {
            ffi::into_handle(rocksdb_pinnable_handle_t { value })
        }))
    })
}

/// `rocksdb_get_pinned_v2` in `column_family`.
///
/// # Safety
/// As `rocksdb_get_cf`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_get_pinned_cf_v2(
    db: *mut rocksdb_t,
    options: *const rocksdb_readoptions_t,
    column_family: *mut rocksdb_column_family_handle_t,
    key: *const c_char,
    keylen: usize,
    errptr: *mut *mut c_char,
) -> *mut rocksdb_pinnable_handle_t {
    ffi::guarded(errptr, "rocksdb_get_pinned_cf_v2", || {
        // SAFETY: forwarded contract.
        let v = unsafe { pinned_value(db, options, Some(column_family), key, keylen)? };
        Ok(v.map_or(ptr::null_mut(), |value| {
            ffi::into_handle(rocksdb_pinnable_handle_t { value })
        }))
    })
}

/// The value of a pinnable handle, borrowed until `rocksdb_pinnable_handle_destroy`, length
/// in `*vallen`. NULL (`*vallen = 0`) for a NULL handle.
///
/// # Safety
/// `handle` must be NULL or a live handle, `vallen` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_pinnable_handle_get_value(
    handle: *const rocksdb_pinnable_handle_t,
    vallen: *mut usize,
) -> *const c_char {
    // SAFETY: per this function's contract.
    unsafe { ffi::write_out(vallen, 0) };
    ffi::guarded_no_err("rocksdb_pinnable_handle_get_value", || {
        // SAFETY: per this function's contract; NULL is checked.
        let h = unsafe { ffi::borrow(handle, "handle")? };
        // SAFETY: as above.
        unsafe { ffi::write_out(vallen, h.value.len()) };
        Ok(data_ptr(&h.value))
    })
}

/// Frees a pinnable handle. NULL is a no-op.
///
/// # Safety
/// `handle` must be NULL or a live handle, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_pinnable_handle_destroy(handle: *mut rocksdb_pinnable_handle_t) {
    ffi::guarded_no_err("rocksdb_pinnable_handle_destroy", || {
        // SAFETY: per this function's contract.
        drop(unsafe { ffi::from_handle(handle) });
        Ok(())
    })
}

/// Shared body of `rocksdb_get_into_buffer*` (RocksDB 11 semantics).
///
/// # Safety
/// As `rocksdb_get_into_buffer_cf`.
#[expect(
    clippy::too_many_arguments,
    reason = "mirrors the C prototype it serves"
)]
unsafe fn get_into_buffer_impl(
    name: &'static str,
    db: *mut rocksdb_t,
    options: *const rocksdb_readoptions_t,
    cf: Option<*mut rocksdb_column_family_handle_t>,
    key: *const c_char,
    keylen: usize,
    buffer: *mut c_char,
    buffer_size: usize,
    vallen: *mut usize,
    found: *mut c_uchar,
    errptr: *mut *mut c_char,
) -> c_uchar {
    // SAFETY: `vallen` is NULL or writable per the caller's contract.
    unsafe { ffi::write_out(vallen, 0) };
    // SAFETY: `found` is NULL or writable per the caller's contract.
    unsafe { ffi::write_out(found, 0) };
    ffi::guarded(errptr, name, || {
        // SAFETY: forwarded contract.
        let Some(value) = (unsafe { read_one(db, options, cf, key, keylen)? }) else {
            return Ok(0);
        };
        // SAFETY: as above.
        unsafe { ffi::write_out(found, 1) };
        // SAFETY: as above.
        unsafe { ffi::write_out(vallen, value.len()) };
        if buffer_size < value.len() {
            return Ok(0);
        }
        if !value.is_empty() {
            if buffer.is_null() {
                return Err(Error::invalid_argument("buffer is NULL"));
            }
            // SAFETY: `buffer` has `buffer_size >= value.len()` writable bytes per the
            // contract and cannot overlap the freshly read `value`.
            unsafe { ptr::copy_nonoverlapping(value.as_ptr(), buffer.cast(), value.len()) };
        }
        Ok(1)
    })
}

/// Reads `key` of the default column family into the caller's `buffer`. Returns 1 when the
/// value was found and fit (copied); 0 otherwise. `*found` says whether the key exists and
/// `*vallen` is the value's real size (0 when absent), so a 0 return with `*found = 1` means
/// "buffer too small, nothing copied". Errors set `*errptr`; absence does not.
///
/// # Safety
/// As `rocksdb_get`; `buffer` must address `buffer_size` writable bytes, `found` be NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_get_into_buffer(
    db: *mut rocksdb_t,
    options: *const rocksdb_readoptions_t,
    key: *const c_char,
    keylen: usize,
    buffer: *mut c_char,
    buffer_size: usize,
    vallen: *mut usize,
    found: *mut c_uchar,
    errptr: *mut *mut c_char,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get_into_buffer_impl(
            "rocksdb_get_into_buffer",
            db,
            options,
            None,
            key,
            keylen,
            buffer,
            buffer_size,
            vallen,
            found,
            errptr,
        )
    }
}

/// `rocksdb_get_into_buffer` in `column_family`.
///
/// # Safety
/// As `rocksdb_get_into_buffer`; `column_family` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_get_into_buffer_cf(
    db: *mut rocksdb_t,
    options: *const rocksdb_readoptions_t,
    column_family: *mut rocksdb_column_family_handle_t,
    key: *const c_char,
    keylen: usize,
    buffer: *mut c_char,
    buffer_size: usize,
    vallen: *mut usize,
    found: *mut c_uchar,
    errptr: *mut *mut c_char,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get_into_buffer_impl(
            "rocksdb_get_into_buffer_cf",
            db,
            options,
            Some(column_family),
            key,
            keylen,
            buffer,
            buffer_size,
            vallen,
            found,
            errptr,
        )
    }
}

/// Shared body of `rocksdb_key_may_exist*`: answers with a real read, so 1 means "exists".
///
/// # Safety
/// As `rocksdb_key_may_exist_cf`.
#[expect(
    clippy::too_many_arguments,
    reason = "mirrors the C prototype it serves"
)]
unsafe fn key_may_exist_impl(
    db: *mut rocksdb_t,
    options: *const rocksdb_readoptions_t,
    cf: Option<*mut rocksdb_column_family_handle_t>,
    key: *const c_char,
    key_len: usize,
    value: *mut *mut c_char,
    val_len: *mut usize,
    value_found: *mut c_uchar,
) -> c_uchar {
    ffi::guarded_no_err("rocksdb_key_may_exist", || {
        // SAFETY: forwarded contract.
        let v = unsafe { read_one(db, options, cf, key, key_len)? };
        if !value_found.is_null() {
            // SAFETY: `value_found` is writable per the caller's contract.
            unsafe { ffi::write_out(value_found, ffi::to_c_bool(v.is_some())) };
            if let Some(v) = &v {
                // SAFETY: `val_len` is NULL or writable per the caller's contract.
                unsafe { ffi::write_out(val_len, v.len()) };
                if !value.is_null() {
                    // SAFETY: `value` is writable per the caller's contract.
                    unsafe { ffi::write_out(value, alloc::malloc_copy(v)) };
                }
            }
        }
        Ok(ffi::to_c_bool(v.is_some()))
    })
}

/// Whether `key` may exist in the default column family. solistore answers with a real
/// lookup, so 0 means absent (or an error) and 1 means present. When `value_found` is
/// non-NULL, `*value_found` says whether the value was fetched; if so `*value` receives a
/// malloc()ed copy (caller frees) and `*val_len` its size. `timestamp` is ignored (no
/// user-defined timestamps).
///
/// # Safety
/// As `rocksdb_get`; `value`, `val_len`, `value_found` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_key_may_exist(
    db: *mut rocksdb_t,
    options: *const rocksdb_readoptions_t,
    key: *const c_char,
    key_len: usize,
    value: *mut *mut c_char,
    val_len: *mut usize,
    timestamp: *const c_char,
    timestamp_len: usize,
    value_found: *mut c_uchar,
) -> c_uchar {
    let _ = (timestamp, timestamp_len);
    // SAFETY: forwarded contract.
    unsafe { key_may_exist_impl(db, options, None, key, key_len, value, val_len, value_found) }
}

/// `rocksdb_key_may_exist` in `column_family`.
///
/// # Safety
/// As `rocksdb_key_may_exist`; `column_family` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_key_may_exist_cf(
    db: *mut rocksdb_t,
    options: *const rocksdb_readoptions_t,
    column_family: *mut rocksdb_column_family_handle_t,
    key: *const c_char,
    key_len: usize,
    value: *mut *mut c_char,
    val_len: *mut usize,
    timestamp: *const c_char,
    timestamp_len: usize,
    value_found: *mut c_uchar,
) -> c_uchar {
    let _ = (timestamp, timestamp_len);
    // SAFETY: forwarded contract.
    unsafe {
        key_may_exist_impl(
            db,
            options,
            Some(column_family),
            key,
            key_len,
            value,
            val_len,
            value_found,
        )
    }
}

/// A property's text for the default family or `cf`.
///
/// # Safety
/// `db` and `cf` must be NULL or live handles, `propname` NULL or a C string.
unsafe fn property(
    db: *mut rocksdb_t,
    cf: Option<*mut rocksdb_column_family_handle_t>,
    propname: *const c_char,
) -> Result<Option<String>, Error> {
    // SAFETY: forwarded contract; NULLs are checked.
    let db = unsafe { borrow_db(db)? };
    // SAFETY: forwarded contract; NULLs are checked.
    let name = unsafe { ffi::cstr(propname, "propname")? };
    let cf: &ColumnFamilyHandle = match cf {
        // SAFETY: forwarded contract.
        Some(cf) => unsafe { borrow_cf(cf)? },
        None => db.default_cf_ref(),
    };
    Ok(db.property(cf, name))
}

/// A DB property (RocksDB's names, e.g. `rocksdb.estimate-num-keys`) as a malloc()ed C
/// string (caller frees), or NULL for an unknown property or a NULL argument.
///
/// # Safety
/// `db` must be NULL or a live handle, `propname` NULL or a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_property_value(
    db: *mut rocksdb_t,
    propname: *const c_char,
) -> *mut c_char {
    ffi::guarded_no_err("rocksdb_property_value", || {
        // SAFETY: forwarded contract.
        let v = unsafe { property(db, None, propname)? };
        Ok(v.map_or(ptr::null_mut(), alloc::malloc_cstring))
    })
}

/// `rocksdb_property_value` for `column_family`.
///
/// # Safety
/// As `rocksdb_property_value`; `column_family` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_property_value_cf(
    db: *mut rocksdb_t,
    column_family: *mut rocksdb_column_family_handle_t,
    propname: *const c_char,
) -> *mut c_char {
    ffi::guarded_no_err("rocksdb_property_value_cf", || {
        // SAFETY: forwarded contract.
        let v = unsafe { property(db, Some(column_family), propname)? };
        Ok(v.map_or(ptr::null_mut(), alloc::malloc_cstring))
    })
}

/// Parses an integer property into `*out_val`: 0 on success, -1 otherwise.
/// Properties RocksDB answers only as text (`GetProperty`), never through
/// `GetIntProperty`, even when the text is a number.
fn text_only_property(name: &str) -> bool {
    [
        "rocksdb.num-files-at-level",
        "rocksdb.compression-ratio-at-level",
        "rocksdb.stats",
        "rocksdb.cfstats",
        "rocksdb.levelstats",
        "rocksdb.sstables",
        "rocksdb.dbstats",
        "rocksdb.aggregated-table-properties",
    ]
    .iter()
    .any(|p| name.starts_with(p))
}

fn property_int_result(v: Result<Option<String>, Error>, out_val: *mut u64) -> c_int {
    match v.ok().flatten().and_then(|s| s.trim().parse::<u64>().ok()) {
        Some(n) => {
            // SAFETY: `out_val` is NULL or writable per the C function's contract.
            unsafe { ffi::write_out(out_val, n) };
            0
        }
        None => -1,
    }
}

/// An integer DB property in `*out_val`. Returns 0 on success, -1 for an unknown or
/// non-integer property (`*out_val` untouched).
///
/// # Safety
/// `db` must be NULL or a live handle, `propname` NULL or a C string, `out_val` NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_property_int(
    db: *mut rocksdb_t,
    propname: *const c_char,
    out_val: *mut u64,
) -> c_int {
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // SAFETY: forwarded contract.
        // SAFETY: forwarded contract: NULL or a C string.
        if unsafe { ffi::cstr(propname, "propname") }.is_ok_and(text_only_property) {
            return -1;
        }
        // SAFETY: forwarded contract.
        property_int_result(unsafe { property(db, None, propname) }, out_val)
    }));
    r.unwrap_or(-1)
}

/// `rocksdb_property_int` for `column_family`.
///
/// # Safety
/// As `rocksdb_property_int`; `column_family` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_property_int_cf(
    db: *mut rocksdb_t,
    column_family: *mut rocksdb_column_family_handle_t,
    propname: *const c_char,
    out_val: *mut u64,
) -> c_int {
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // SAFETY: forwarded contract: NULL or a C string.
        if unsafe { ffi::cstr(propname, "propname") }.is_ok_and(text_only_property) {
            return -1;
        }
        // SAFETY: forwarded contract.
        property_int_result(
            unsafe { property(db, Some(column_family), propname) },
            out_val,
        )
    }));
    r.unwrap_or(-1)
}

/// The sequence number of the last write (0 for a new DB or a NULL handle).
///
/// # Safety
/// `db` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_get_latest_sequence_number(db: *mut rocksdb_t) -> u64 {
    ffi::guarded_no_err("rocksdb_get_latest_sequence_number", || {
        // SAFETY: per this function's contract; NULL is checked.
        Ok(unsafe { borrow_db(db)? }.latest_sequence_number())
    })
}

/// Hands buffered WAL bytes (`manual_wal_flush`) to the OS, and syncs them when `sync` is
/// non-zero.
///
/// # Safety
/// `db` must be NULL or a live handle, `errptr` NULL or a valid errptr.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_flush_wal(
    db: *mut rocksdb_t,
    sync: c_uchar,
    errptr: *mut *mut c_char,
) {
    ffi::guarded(errptr, "rocksdb_flush_wal", || {
        // SAFETY: per this function's contract; NULL is checked.
        unsafe { borrow_db(db)? }.flush_wal(ffi::c_bool(sync))
    })
}

/// The DB's identity (the `IDENTITY` file) as a malloc()ed string, **not** NUL-terminated,
/// length in `*id_len`; release it with `rocksdb_free`. NULL on error (`*id_len` untouched).
///
/// # Safety
/// `db` must be NULL or a live handle, `id_len` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_get_db_identity(
    db: *mut rocksdb_t,
    id_len: *mut usize,
) -> *mut c_char {
    ffi::guarded_no_err("rocksdb_get_db_identity", || {
        // SAFETY: per this function's contract; NULL is checked.
        let id = unsafe { borrow_db(db)? }.identity()?;
        // SAFETY: per this function's contract.
        unsafe { ffi::write_out(id_len, id.len()) };
        Ok(alloc::malloc_copy(id.as_bytes()))
    })
}
