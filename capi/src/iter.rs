// SPDX-License-Identifier: Apache-2.0
//! `rocksdb_create_iterator*` and `rocksdb_iter_*`: cursors over one column family (read
//! path).
//!
//! An iterator handle owns an engine `DbIterator`, which keeps the memtables it reads and the
//! DB's shared state alive: it keeps working on what it saw after `rocksdb_close`, and can be
//! destroyed in any order. `rocksdb_iter_key`/`_value` hand out pointers into the cursor's
//! current entry, valid until the iterator moves, is refreshed or is destroyed.

use std::ffi::{c_char, c_uchar};
use std::ptr;

use engine::db::{ColumnFamilyHandle, Db, DbIterator};
use engine::options::ReadOptions;
use engine::Error;

use crate::column_family::{borrow_cf, rocksdb_column_family_handle_t};
use crate::db::{self, rocksdb_t};
use crate::ffi;
use crate::readoptions::rocksdb_readoptions_t;
use crate::types::rocksdb_slice_t;

/// A DB iterator. Ownership: owned by the caller from `rocksdb_create_iterator*` until
/// `rocksdb_iter_destroy`. Not thread-safe (one thread at a time, as in RocksDB).
#[derive(Debug)]
pub struct rocksdb_iterator_t {
    pub(crate) iter: DbIterator,
    /// What `rocksdb_iter_refresh` needs to rebuild the cursor on the latest state.
    db: Db,
    cf: ColumnFamilyHandle,
    /// The caller's read options (without any sequence this module pinned itself).
    ro: ReadOptions,
}

impl rocksdb_iterator_t {
    fn new(
        db: &Db,
        ro: &ReadOptions,
        cf: &ColumnFamilyHandle,
        pinned: Option<u64>,
    ) -> Result<Self, Error> {
        let mut read = ro.clone();
        if let Some(seq) = pinned {
            read.snapshot = Some(seq);
        }
        Ok(rocksdb_iterator_t {
            iter: db.iter(&read, cf)?,
            db: db.clone(),
            cf: cf.clone(),
            ro: ro.clone(),
        })
    }
}

/// Borrows an iterator; NULL becomes `Invalid argument: iter is NULL`.
///
/// # Safety
/// `it` must be NULL or a live iterator handle.
unsafe fn borrow_it<'a>(it: *const rocksdb_iterator_t) -> Result<&'a rocksdb_iterator_t, Error> {
    // SAFETY: forwarded contract.
    unsafe { ffi::borrow(it, "iter") }
}

/// Runs a cursor movement; a NULL iterator is a no-op.
///
/// # Safety
/// `it` must be NULL or a live iterator handle not otherwise borrowed.
unsafe fn move_it(
    name: &'static str,
    it: *mut rocksdb_iterator_t,
    f: impl FnOnce(&mut DbIterator),
) {
    ffi::guarded_no_err(name, || {
        // SAFETY: forwarded contract; NULL is checked.
        f(&mut unsafe { ffi::borrow_mut(it, "iter")? }.iter);
        Ok(())
    })
}

/// Creates an iterator over the default column family, reading as of the options' snapshot
/// (or now: later writes are not seen). Unpositioned: seek before use. Returns a handle owned
/// by the caller (`rocksdb_iter_destroy`), or NULL for a NULL argument.
///
/// # Safety
/// `db` and `options` must be NULL or live handles.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_create_iterator(
    db: *mut rocksdb_t,
    options: *const rocksdb_readoptions_t,
) -> *mut rocksdb_iterator_t {
    ffi::guarded_no_err("rocksdb_create_iterator", || {
        // SAFETY: per this function's contract; NULLs are checked.
        let db = unsafe { db::borrow_db(db)? };
        // SAFETY: per this function's contract; NULLs are checked.
        let ro = unsafe { &ffi::borrow(options, "options")?.ro };
        Ok(ffi::into_handle(rocksdb_iterator_t::new(
            db,
            ro,
            &db.default_cf(),
            None,
        )?))
    })
}

/// `rocksdb_create_iterator` over `column_family`.
///
/// # Safety
/// `db`, `options` and `column_family` must be NULL or live handles.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_create_iterator_cf(
    db: *mut rocksdb_t,
    options: *const rocksdb_readoptions_t,
    column_family: *mut rocksdb_column_family_handle_t,
) -> *mut rocksdb_iterator_t {
    ffi::guarded_no_err("rocksdb_create_iterator_cf", || {
        // SAFETY: per this function's contract; NULLs are checked.
        let db = unsafe { db::borrow_db(db)? };
        // SAFETY: per this function's contract; NULLs are checked.
        let ro = unsafe { &ffi::borrow(options, "options")?.ro };
        // SAFETY: per this function's contract; NULLs are checked.
        let cf = unsafe { borrow_cf(column_family)? };
        Ok(ffi::into_handle(rocksdb_iterator_t::new(db, ro, cf, None)?))
    })
}

/// Creates `size` iterators, `iterators[i]` over `column_families[i]`, all reading at one
/// consistent point. On error `*errptr` is set and `iterators` is left untouched.
///
/// # Safety
/// `db`, `opts` must be NULL or live handles; `column_families` holds `size` live handles;
/// `iterators` holds `size` writable entries; `errptr` NULL or a valid errptr.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_create_iterators(
    db: *mut rocksdb_t,
    opts: *mut rocksdb_readoptions_t,
    column_families: *mut *mut rocksdb_column_family_handle_t,
    iterators: *mut *mut rocksdb_iterator_t,
    size: usize,
    errptr: *mut *mut c_char,
) {
    ffi::guarded(errptr, "rocksdb_create_iterators", || {
        // SAFETY: per this function's contract; NULLs are checked.
        let db = unsafe { db::borrow_db(db)? };
        // SAFETY: per this function's contract; NULLs are checked.
        let ro = unsafe { &ffi::borrow(opts, "options")?.ro };
        // SAFETY: per this function's contract; NULLs are checked.
        let cfs = unsafe { db::array(column_families, size, "column_families")? };
        if size > 0 && iterators.is_null() {
            return Err(Error::invalid_argument("iterators is NULL"));
        }
        // One sequence number for all, so the iterators agree with each other.
        let snap = db.snapshot();
        let pinned = ro.snapshot.unwrap_or_else(|| snap.sequence());
        let mut made = Vec::with_capacity(size);
        for &cf in cfs {
            // SAFETY: each entry is NULL or a live handle per this function's contract.
            let cf = unsafe { borrow_cf(cf)? };
            made.push(rocksdb_iterator_t::new(db, ro, cf, Some(pinned))?);
        }
        for (i, it) in made.into_iter().enumerate() {
            // SAFETY: `iterators` holds `size` writable entries and `i < size`.
            unsafe { ffi::write_out(iterators.wrapping_add(i), ffi::into_handle(it)) };
        }
        Ok(())
    })
}

/// Frees an iterator. NULL is a no-op; safe after `rocksdb_close`.
///
/// # Safety
/// `iter` must be NULL or a live iterator handle, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_iter_destroy(iter: *mut rocksdb_iterator_t) {
    ffi::guarded_no_err("rocksdb_iter_destroy", || {
        // SAFETY: per this function's contract.
        drop(unsafe { ffi::from_handle(iter) });
        Ok(())
    })
}

/// 1 when the iterator is positioned at an entry; 0 otherwise (past either end, after an
/// error, or NULL).
///
/// # Safety
/// `iter` must be NULL or a live iterator handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_iter_valid(iter: *const rocksdb_iterator_t) -> c_uchar {
    ffi::guarded_no_err("rocksdb_iter_valid", || {
        // SAFETY: per this function's contract; NULL is checked.
        Ok(ffi::to_c_bool(unsafe { borrow_it(iter)? }.iter.valid()))
    })
}

/// Positions at the first key (at or after the lower bound).
///
/// # Safety
/// `iter` must be NULL or a live iterator handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_iter_seek_to_first(iter: *mut rocksdb_iterator_t) {
    // SAFETY: forwarded contract.
    unsafe { move_it("rocksdb_iter_seek_to_first", iter, |i| i.seek_to_first()) }
}

/// Positions at the last key (before the upper bound).
///
/// # Safety
/// `iter` must be NULL or a live iterator handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_iter_seek_to_last(iter: *mut rocksdb_iterator_t) {
    // SAFETY: forwarded contract.
    unsafe { move_it("rocksdb_iter_seek_to_last", iter, |i| i.seek_to_last()) }
}

/// Positions at the first key `>= k`. `(NULL, 0)` is the empty key.
///
/// # Safety
/// `iter` must be NULL or a live iterator handle; `k` must address `klen` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_iter_seek(
    iter: *mut rocksdb_iterator_t,
    k: *const c_char,
    klen: usize,
) {
    ffi::guarded_no_err("rocksdb_iter_seek", || {
        // SAFETY: per this function's contract; NULLs are checked.
        let it = unsafe { ffi::borrow_mut(iter, "iter")? };
        // SAFETY: per this function's contract; NULLs are checked.
        let k = unsafe { ffi::bytes(k, klen)? };
        it.iter.seek(k);
        Ok(())
    })
}

/// Positions at the last key `<= k`.
///
/// # Safety
/// As `rocksdb_iter_seek`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_iter_seek_for_prev(
    iter: *mut rocksdb_iterator_t,
    k: *const c_char,
    klen: usize,
) {
    ffi::guarded_no_err("rocksdb_iter_seek_for_prev", || {
        // SAFETY: per this function's contract; NULLs are checked.
        let it = unsafe { ffi::borrow_mut(iter, "iter")? };
        // SAFETY: per this function's contract; NULLs are checked.
        let k = unsafe { ffi::bytes(k, klen)? };
        it.iter.seek_for_prev(k);
        Ok(())
    })
}

/// Moves to the next key. The iterator must be valid (as in RocksDB; here an invalid one is
/// left as is).
///
/// # Safety
/// `iter` must be NULL or a live iterator handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_iter_next(iter: *mut rocksdb_iterator_t) {
    // SAFETY: forwarded contract.
    unsafe {
        move_it("rocksdb_iter_next", iter, |i| {
            if i.valid() {
                i.next()
            }
        })
    }
}

/// Moves to the previous key. The iterator must be valid (an invalid one is left as is).
///
/// # Safety
/// `iter` must be NULL or a live iterator handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_iter_prev(iter: *mut rocksdb_iterator_t) {
    // SAFETY: forwarded contract.
    unsafe {
        move_it("rocksdb_iter_prev", iter, |i| {
            if i.valid() {
                i.prev()
            }
        })
    }
}

/// The current entry's key or value, or None when not positioned.
///
/// # Safety
/// `iter` must be NULL or a live iterator handle.
unsafe fn current<'a>(
    iter: *const rocksdb_iterator_t,
    pick: impl FnOnce(&'a DbIterator) -> &'a [u8],
) -> Option<&'a [u8]> {
    // SAFETY: forwarded contract; NULL gives None.
    let it = unsafe { iter.as_ref() }?;
    it.iter.valid().then(|| pick(&it.iter))
}

/// Hands a borrowed entry to C as `(pointer, length)`; NULL and 0 when absent.
///
/// # Safety
/// `len` must be NULL or writable.
unsafe fn out_ptr(bytes: Option<&[u8]>, len: *mut usize) -> *const c_char {
    let (p, n) = match bytes {
        Some([]) => (c"".as_ptr(), 0),
        Some(b) => (b.as_ptr().cast::<c_char>(), b.len()),
        None => (ptr::null(), 0),
    };
    // SAFETY: forwarded contract.
    unsafe { ffi::write_out(len, n) };
    p
}

/// The current key (not NUL-terminated), length in `*klen`. Borrowed: valid until the
/// iterator moves, is refreshed or destroyed. NULL (`*klen = 0`) when not valid.
///
/// # Safety
/// `iter` must be NULL or a live iterator handle, `klen` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_iter_key(
    iter: *const rocksdb_iterator_t,
    klen: *mut usize,
) -> *const c_char {
    ffi::guarded_no_err("rocksdb_iter_key", || {
        // SAFETY: per this function's contract.
        let entry = unsafe { current(iter, DbIterator::key) };
        // SAFETY: per this function's contract.
        Ok(unsafe { out_ptr(entry, klen) })
    })
}

/// The current value, length in `*vlen`; borrowed like `rocksdb_iter_key`.
///
/// # Safety
/// `iter` must be NULL or a live iterator handle, `vlen` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_iter_value(
    iter: *const rocksdb_iterator_t,
    vlen: *mut usize,
) -> *const c_char {
    ffi::guarded_no_err("rocksdb_iter_value", || {
        // SAFETY: per this function's contract.
        let entry = unsafe { current(iter, DbIterator::value) };
        // SAFETY: per this function's contract.
        Ok(unsafe { out_ptr(entry, vlen) })
    })
}

/// The current entry's user-defined timestamp. solistore has none: an empty string (length
/// 0) when valid, NULL otherwise.
///
/// # Safety
/// `iter` must be NULL or a live iterator handle, `tslen` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_iter_timestamp(
    iter: *const rocksdb_iterator_t,
    tslen: *mut usize,
) -> *const c_char {
    ffi::guarded_no_err("rocksdb_iter_timestamp", || {
        // SAFETY: per this function's contract.
        let empty = unsafe { current(iter, |_| &[]) };
        // SAFETY: per this function's contract.
        Ok(unsafe { out_ptr(empty, tslen) })
    })
}

/// A borrowed entry as a `rocksdb_slice_t` (NULL, 0 when absent).
fn slice_of(bytes: Option<&[u8]>) -> rocksdb_slice_t {
    let mut size = 0;
    // SAFETY: `size` is a local.
    let data = unsafe { out_ptr(bytes, &mut size) };
    rocksdb_slice_t { data, size }
}

/// The current key as a slice by value; borrowed like `rocksdb_iter_key`.
///
/// # Safety
/// `iter` must be NULL or a live iterator handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_iter_key_slice(
    iter: *const rocksdb_iterator_t,
) -> rocksdb_slice_t {
    ffi::guarded_no_err("rocksdb_iter_key_slice", || {
        // SAFETY: per this function's contract.
        Ok(slice_of(unsafe { current(iter, DbIterator::key) }))
    })
}

/// The current value as a slice by value; borrowed like `rocksdb_iter_value`.
///
/// # Safety
/// `iter` must be NULL or a live iterator handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_iter_value_slice(
    iter: *const rocksdb_iterator_t,
) -> rocksdb_slice_t {
    ffi::guarded_no_err("rocksdb_iter_value_slice", || {
        // SAFETY: per this function's contract.
        Ok(slice_of(unsafe { current(iter, DbIterator::value) }))
    })
}

/// The current timestamp as a slice (always empty here, see `rocksdb_iter_timestamp`).
///
/// # Safety
/// `iter` must be NULL or a live iterator handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_iter_timestamp_slice(
    iter: *const rocksdb_iterator_t,
) -> rocksdb_slice_t {
    ffi::guarded_no_err("rocksdb_iter_timestamp_slice", || {
        // SAFETY: per this function's contract.
        Ok(slice_of(unsafe { current(iter, |_| &[]) }))
    })
}

/// Stores the iterator's error in `*errptr` (e.g. `Corruption: Error: Could not perform
/// merge.`); leaves it untouched when there is none.
///
/// # Safety
/// `iter` must be NULL or a live iterator handle, `errptr` NULL or a valid errptr.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_iter_get_error(
    iter: *const rocksdb_iterator_t,
    errptr: *mut *mut c_char,
) {
    ffi::guarded(errptr, "rocksdb_iter_get_error", || {
        // SAFETY: per this function's contract; NULL is checked.
        unsafe { borrow_it(iter)? }.iter.status()
    })
}

/// Rebuilds the iterator on the DB's latest state; it is left unpositioned. An iterator
/// created with a snapshot cannot be refreshed: `Not implemented: Creating renew iterator is
/// not allowed.` (RocksDB's text).
///
/// # Safety
/// `iter` must be NULL or a live iterator handle not used by another thread meanwhile (the
/// C prototype says `const`, but the cursor is replaced), `errptr` NULL or a valid errptr.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_iter_refresh(
    iter: *const rocksdb_iterator_t,
    errptr: *mut *mut c_char,
) {
    ffi::guarded(errptr, "rocksdb_iter_refresh", || {
        // SAFETY: per this function's contract; the handle came from `into_handle` (a
        // `*mut`), so writing through it is allowed despite C's `const`.
        let it = unsafe { ffi::borrow_mut(iter.cast_mut(), "iter")? };
        if it.ro.snapshot.is_some() {
            return Err(Error::not_supported(
                "Creating renew iterator is not allowed.",
            ));
        }
        it.iter = it.db.iter(&it.ro, &it.cf)?;
        Ok(())
    })
}
