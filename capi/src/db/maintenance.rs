// SPDX-License-Identifier: Apache-2.0
//! `rocksdb_flush*`, `rocksdb_compact_range*`, `rocksdb_approximate_sizes*`,
//! `rocksdb_disable_file_deletions` / `rocksdb_enable_file_deletions` and
//! `rocksdb_cancel_all_background_work`: the DB's background path driven by hand.
//!
//! Flushes and manual compactions are the engine's (`Db::flush`, `Db::compact_range`, which
//! flushes first); approximate sizes are the engine's too (`Db::approximate_file_sizes`:
//! whole files inside a range, index-block offsets in the files a range cuts, as RocksDB). RocksDB's `rocksdb_compact_range*` have no errptr and drop the status:
//! errors are swallowed here too (a failed compaction that poisons the DB shows up in the
//! next write).

use std::ffi::{c_char, c_int, c_uchar};
use std::sync::atomic::Ordering;

use engine::db::{ColumnFamilyHandle, Db};
use engine::Error;

use super::{array, borrow_db, byte_strings, count, rocksdb_t};
use crate::column_family::{borrow_cf, rocksdb_column_family_handle_t};
use crate::compactoptions::rocksdb_compactoptions_t;
use crate::constants::{
    rocksdb_size_approximation_flags_include_files,
    rocksdb_size_approximation_flags_include_memtable,
};
use crate::ffi;
use crate::flushoptions::rocksdb_flushoptions_t;

/// The family a C call names, or the default one for NULL-less variants.
///
/// # Safety
/// `cf` must be None or NULL or a live column family handle.
unsafe fn family(
    db: &Db,
    cf: Option<*mut rocksdb_column_family_handle_t>,
) -> Result<ColumnFamilyHandle, Error> {
    match cf {
        // SAFETY: forwarded contract.
        Some(cf) => Ok(unsafe { borrow_cf(cf)? }.clone()),
        None => Ok(db.default_cf()),
    }
}

/// Shared body of the flushes: each family's memtable goes to a level-0 table; with the
/// options' `wait`, returns once all of them are written.
///
/// # Safety
/// `db` and `options` must be NULL or live handles; each `cfs` entry NULL or a live handle.
unsafe fn flush_impl(
    db: *mut rocksdb_t,
    options: *const rocksdb_flushoptions_t,
    cfs: &[Option<*mut rocksdb_column_family_handle_t>],
) -> Result<(), Error> {
    // SAFETY: forwarded contract; NULLs are checked.
    let db = unsafe { borrow_db(db)? };
    // SAFETY: forwarded contract; NULLs are checked.
    let wait = unsafe { ffi::borrow(options, "options")? }.wait;
    let handles = cfs
        .iter()
        // SAFETY: forwarded contract.
        .map(|&cf| unsafe { family(db, cf) })
        .collect::<Result<Vec<_>, _>>()?;
    for (i, cf) in handles.iter().enumerate() {
        // Waiting on the last one waits for every queued flush.
        db.flush(cf, wait && i + 1 == handles.len())?;
    }
    Ok(())
}

/// Flushes the default column family's memtable into a level-0 table. With the options'
/// `wait` (the default), returns once the table is written and installed. An empty memtable
/// is nothing to do. Errors (a read-only or closed DB, I/O) set `*errptr`.
///
/// # Safety
/// `db` and `options` must be NULL or live handles, `errptr` NULL or a valid errptr.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_flush(
    db: *mut rocksdb_t,
    options: *const rocksdb_flushoptions_t,
    errptr: *mut *mut c_char,
) {
    ffi::guarded(errptr, "rocksdb_flush", || {
        // SAFETY: forwarded contract.
        unsafe { flush_impl(db, options, &[None]) }
    })
}

/// `rocksdb_flush` for `column_family`.
///
/// # Safety
/// As `rocksdb_flush`; `column_family` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_flush_cf(
    db: *mut rocksdb_t,
    options: *const rocksdb_flushoptions_t,
    column_family: *mut rocksdb_column_family_handle_t,
    errptr: *mut *mut c_char,
) {
    ffi::guarded(errptr, "rocksdb_flush_cf", || {
        // SAFETY: forwarded contract.
        unsafe { flush_impl(db, options, &[Some(column_family)]) }
    })
}

/// Flushes `num_column_families` column families (one after the other, not atomically);
/// with `wait`, returns once all are written. The first error stops and sets `*errptr`.
///
/// # Safety
/// As `rocksdb_flush`; `column_families` must be NULL (with a count of 0) or hold
/// `num_column_families` live handles.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_flush_cfs(
    db: *mut rocksdb_t,
    options: *const rocksdb_flushoptions_t,
    column_families: *mut *mut rocksdb_column_family_handle_t,
    num_column_families: c_int,
    errptr: *mut *mut c_char,
) {
    ffi::guarded(errptr, "rocksdb_flush_cfs", || {
        // SAFETY: forwarded contract.
        let cfs = unsafe {
            array(
                column_families.cast_const(),
                count(num_column_families)?,
                "column_families",
            )?
        };
        let cfs: Vec<_> = cfs.iter().map(|&cf| Some(cf)).collect();
        // SAFETY: forwarded contract.
        unsafe { flush_impl(db, options, &cfs) }
    })
}

/// Shared body of the manual compactions. A NULL bound is unbounded (a non-NULL one, even
/// of length 0, is a key, as in RocksDB's `c.cc`).
///
/// # Safety
/// `db`, `cf` and `options` must be NULL or live handles; non-NULL keys must address their
/// lengths in bytes.
unsafe fn compact_impl(
    db: *mut rocksdb_t,
    cf: Option<*mut rocksdb_column_family_handle_t>,
    options: Option<*mut rocksdb_compactoptions_t>,
    start_key: *const c_char,
    start_key_len: usize,
    limit_key: *const c_char,
    limit_key_len: usize,
) -> Result<(), Error> {
    // SAFETY: forwarded contract; NULLs are checked.
    let db = unsafe { borrow_db(db)? };
    if let Some(o) = options {
        // The options are read for their NULL check only: the engine compacts the whole
        // range into one level whatever they say (see `compactoptions`).
        // SAFETY: forwarded contract; NULL is checked.
        unsafe { ffi::borrow(o, "opt")? };
    }
    // SAFETY: forwarded contract.
    let cf = unsafe { family(db, cf)? };
    let bound = |p: *const c_char, n: usize| -> Result<Option<&[u8]>, Error> {
        if p.is_null() {
            Ok(None)
        } else {
            // SAFETY: forwarded contract: non-NULL keys address `n` bytes.
            Ok(Some(unsafe { ffi::bytes(p, n)? }))
        }
    };
    let begin = bound(start_key, start_key_len)?;
    let end = bound(limit_key, limit_key_len)?;
    db.compact_range(&cf, begin, end)
}

/// Compacts the default column family's keys in `[start_key, limit_key]` (NULL: unbounded at
/// that end) after flushing its memtable: afterwards the range sits in one level, deleted
/// and overwritten data is physically gone, and a compaction filter has seen every entry.
/// Returns when done. Errors are dropped, as in RocksDB (there is no errptr).
///
/// # Safety
/// `db` must be NULL or a live handle; non-NULL keys must address their lengths in bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_compact_range(
    db: *mut rocksdb_t,
    start_key: *const c_char,
    start_key_len: usize,
    limit_key: *const c_char,
    limit_key_len: usize,
) {
    ffi::guarded_no_err("rocksdb_compact_range", || {
        // SAFETY: forwarded contract.
        unsafe {
            compact_impl(
                db,
                None,
                None,
                start_key,
                start_key_len,
                limit_key,
                limit_key_len,
            )
        }
    })
}

/// `rocksdb_compact_range` in `column_family`.
///
/// # Safety
/// As `rocksdb_compact_range`; `column_family` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_compact_range_cf(
    db: *mut rocksdb_t,
    column_family: *mut rocksdb_column_family_handle_t,
    start_key: *const c_char,
    start_key_len: usize,
    limit_key: *const c_char,
    limit_key_len: usize,
) {
    ffi::guarded_no_err("rocksdb_compact_range_cf", || {
        // SAFETY: forwarded contract.
        unsafe {
            compact_impl(
                db,
                Some(column_family),
                None,
                start_key,
                start_key_len,
                limit_key,
                limit_key_len,
            )
        }
    })
}

/// `rocksdb_compact_range` with compaction options (kept; the engine always compacts the
/// range fully, see `rocksdb_compactoptions_*`).
///
/// # Safety
/// As `rocksdb_compact_range`; `opt` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_compact_range_opt(
    db: *mut rocksdb_t,
    opt: *mut rocksdb_compactoptions_t,
    start_key: *const c_char,
    start_key_len: usize,
    limit_key: *const c_char,
    limit_key_len: usize,
) {
    ffi::guarded_no_err("rocksdb_compact_range_opt", || {
        // SAFETY: forwarded contract.
        unsafe {
            compact_impl(
                db,
                None,
                Some(opt),
                start_key,
                start_key_len,
                limit_key,
                limit_key_len,
            )
        }
    })
}

/// `rocksdb_compact_range_opt` in `column_family`.
///
/// # Safety
/// As `rocksdb_compact_range_opt`; `column_family` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_compact_range_cf_opt(
    db: *mut rocksdb_t,
    column_family: *mut rocksdb_column_family_handle_t,
    opt: *mut rocksdb_compactoptions_t,
    start_key: *const c_char,
    start_key_len: usize,
    limit_key: *const c_char,
    limit_key_len: usize,
) {
    ffi::guarded_no_err("rocksdb_compact_range_cf_opt", || {
        // SAFETY: forwarded contract.
        unsafe {
            compact_impl(
                db,
                Some(column_family),
                Some(opt),
                start_key,
                start_key_len,
                limit_key,
                limit_key_len,
            )
        }
    })
}

/// Shared body of the approximate sizes: `sizes[i]` gets the table bytes of
/// `[range_start_key[i], range_limit_key[i])`.
///
/// # Safety
/// As `rocksdb_approximate_sizes_cf_with_flags`.
#[expect(
    clippy::too_many_arguments,
    reason = "mirrors the C prototype it serves"
)]
unsafe fn approximate_sizes_impl(
    db: *mut rocksdb_t,
    cf: Option<*mut rocksdb_column_family_handle_t>,
    num_ranges: c_int,
    range_start_key: *const *const c_char,
    range_start_key_len: *const usize,
    range_limit_key: *const *const c_char,
    range_limit_key_len: *const usize,
    flags: c_int,
    sizes: *mut u64,
) -> Result<(), Error> {
    // SAFETY: forwarded contract; NULLs are checked.
    let db = unsafe { borrow_db(db)? };
    // SAFETY: forwarded contract.
    let cf = unsafe { family(db, cf)? };
    let n = count(num_ranges)?;
    // SAFETY: forwarded contract: `n` keys and lengths each.
    let starts =
        unsafe { byte_strings(n, range_start_key, range_start_key_len, "range_start_key")? };
    // SAFETY: forwarded contract: `n` keys and lengths each.
    let limits =
        unsafe { byte_strings(n, range_limit_key, range_limit_key_len, "range_limit_key")? };
    if n > 0 && sizes.is_null() {
        return Err(Error::invalid_argument("sizes is NULL"));
    }
    let include_memtable = flags & rocksdb_size_approximation_flags_include_memtable != 0;
    let include_files = flags & rocksdb_size_approximation_flags_include_files != 0;
    if !include_memtable && !include_files {
        return Err(Error::invalid_argument("Invalid options"));
    }
    let ranges: Vec<(&[u8], &[u8])> = starts.iter().copied().zip(limits.iter().copied()).collect();
    let file_bytes = if include_files {
        db.approximate_file_sizes(&cf, &ranges)?
    } else {
        vec![0; n]
    };
    for (i, size) in file_bytes.into_iter().enumerate() {
        // SAFETY: `sizes` holds `n` writable entries per the contract and `i < n`.
        unsafe { ffi::write_out(sizes.wrapping_add(i), size) };
    }
    Ok(())
}

/// Estimates the bytes the default column family's table files hold in each range
/// `[range_start_key[i], range_limit_key[i])` and stores it in `sizes[i]`: files inside a
/// range count whole, files a range cuts count the bytes between the data blocks that would
/// hold the range's ends (RocksDB's `ApproximateOffsetOf`, read from the index block).
/// Memtables are not counted. An empty or inverted range gives 0 (RocksDB asserts). Errors
/// set `*errptr`.
///
/// # Safety
/// `db` must be NULL or a live handle; the four key arrays must hold `num_ranges` entries,
/// each key addressing its length in bytes; `sizes` must hold `num_ranges` writable entries;
/// `errptr` NULL or a valid errptr.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_approximate_sizes(
    db: *mut rocksdb_t,
    num_ranges: c_int,
    range_start_key: *const *const c_char,
    range_start_key_len: *const usize,
    range_limit_key: *const *const c_char,
    range_limit_key_len: *const usize,
    sizes: *mut u64,
    errptr: *mut *mut c_char,
) {
    ffi::guarded(errptr, "rocksdb_approximate_sizes", || {
        // SAFETY: forwarded contract.
        unsafe {
            approximate_sizes_impl(
                db,
                None,
                num_ranges,
                range_start_key,
                range_start_key_len,
                range_limit_key,
                range_limit_key_len,
                rocksdb_size_approximation_flags_include_files,
                sizes,
            )
        }
    })
}

/// `rocksdb_approximate_sizes` in `column_family`.
///
/// # Safety
/// As `rocksdb_approximate_sizes`; `column_family` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_approximate_sizes_cf(
    db: *mut rocksdb_t,
    column_family: *mut rocksdb_column_family_handle_t,
    num_ranges: c_int,
    range_start_key: *const *const c_char,
    range_start_key_len: *const usize,
    range_limit_key: *const *const c_char,
    range_limit_key_len: *const usize,
    sizes: *mut u64,
    errptr: *mut *mut c_char,
) {
    ffi::guarded(errptr, "rocksdb_approximate_sizes_cf", || {
        // SAFETY: forwarded contract.
        unsafe {
            approximate_sizes_impl(
                db,
                Some(column_family),
                num_ranges,
                range_start_key,
                range_start_key_len,
                range_limit_key,
                range_limit_key_len,
                rocksdb_size_approximation_flags_include_files,
                sizes,
            )
        }
    })
}

/// `rocksdb_approximate_sizes_cf` choosing what is counted: `include_flags` is a mix of
/// `rocksdb_size_approximation_flags_include_memtable` (1) and `_include_files` (2); neither
/// is `Invalid argument: Invalid options`, as in RocksDB. Memtables count as 0 bytes:
/// solistore cannot estimate a key range's share of a memtable yet.
///
/// # Safety
/// As `rocksdb_approximate_sizes_cf`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_approximate_sizes_cf_with_flags(
    db: *mut rocksdb_t,
    column_family: *mut rocksdb_column_family_handle_t,
    num_ranges: c_int,
    range_start_key: *const *const c_char,
    range_start_key_len: *const usize,
    range_limit_key: *const *const c_char,
    range_limit_key_len: *const usize,
    include_flags: u8,
    sizes: *mut u64,
    errptr: *mut *mut c_char,
) {
    ffi::guarded(errptr, "rocksdb_approximate_sizes_cf_with_flags", || {
        // SAFETY: forwarded contract.
        unsafe {
            approximate_sizes_impl(
                db,
                Some(column_family),
                num_ranges,
                range_start_key,
                range_start_key_len,
                range_limit_key,
                range_limit_key_len,
                c_int::from(include_flags),
                sizes,
            )
        }
    })
}

/// Stops obsolete files from being deleted (nestable: each call needs an enable). solistore
/// counts the calls but deletes obsolete files regardless.
/// solistore: stores value only
///
/// # Safety
/// `db` must be NULL or a live handle, `errptr` NULL or a valid errptr.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_disable_file_deletions(
    db: *mut rocksdb_t,
    errptr: *mut *mut c_char,
) {
    ffi::guarded(errptr, "rocksdb_disable_file_deletions", || {
        // SAFETY: forwarded contract; NULL is checked.
        let db = unsafe { ffi::borrow(db, "db")? };
        db.file_deletions_disabled.fetch_add(1, Ordering::AcqRel);
        Ok(())
    })
}

/// Undoes one `rocksdb_disable_file_deletions` (RocksDB 11's form, without `force`; an
/// enable without a matching disable does nothing). See there.
/// solistore: stores value only
///
/// # Safety
/// `db` must be NULL or a live handle, `errptr` NULL or a valid errptr.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_enable_file_deletions(
    db: *mut rocksdb_t,
    errptr: *mut *mut c_char,
) {
    ffi::guarded(errptr, "rocksdb_enable_file_deletions", || {
        // SAFETY: forwarded contract; NULL is checked.
        let db = unsafe { ffi::borrow(db, "db")? };
        let _ = db
            .file_deletions_disabled
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1));
        Ok(())
    })
}

/// Would stop background flushes and compactions (and, with `wait`, wait for running ones).
/// solistore does nothing: its background work stops at `rocksdb_close`.
/// solistore: not implemented
///
/// # Safety
/// `db` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_cancel_all_background_work(db: *mut rocksdb_t, wait: c_uchar) {
    let _ = (db, wait);
    ffi::guarded_no_err("rocksdb_cancel_all_background_work", || Ok(()))
}
