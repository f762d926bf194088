// SPDX-License-Identifier: Apache-2.0
//! `rocksdb_writebatch_*` (except the `_wi` and timestamp families): building, inspecting
//! and replaying write batches (write path). The batch is the engine's `WriteBatch`, whose
//! rep is RocksDB's byte format, so `rocksdb_writebatch_data` and
//! `rocksdb_writebatch_create_from` exchange RocksDB-compatible bytes.
//!
//! Builder calls have no errptr, as in RocksDB: a record RocksDB would refuse (a key or
//! value of 4 GiB or more, a batch growing past `max_bytes`) leaves the batch unchanged and
//! the error is dropped, exactly as `c.cc` drops the `Status`. A NULL batch or column family
//! handle makes the call a no-op.
//!
//! `rocksdb_writebatch_iterate*` call C callbacks; this module is their adapter, so it holds
//! the `unsafe` calls through the callback pointers. Replay follows RocksDB's handlers:
//! the plain variants report default-family Put and Delete (Merge and SingleDelete there are
//! skipped), and any other family, a DeleteRange or a transaction marker ends the replay
//! silently; the `_cf` variants report Put, Delete and Merge of every family.

use std::ffi::{c_char, c_int, c_void};

use engine::batch::{self, Handler, Record, WriteBatch};
use engine::Error;

use crate::column_family::{borrow_cf, rocksdb_column_family_handle_t};
use crate::db;
use crate::ffi;

/// A write batch. Ownership: owned by the caller (`rocksdb_writebatch_create*` /
/// `rocksdb_writebatch_destroy`); `rocksdb_write` reads it and leaves it unchanged. Not
/// thread-safe.
#[derive(Clone, Debug, Default)]
pub struct rocksdb_writebatch_t {
    pub(crate) batch: WriteBatch,
    /// RocksDB's `max_bytes`: a record that would grow the rep past it is refused (0 = none).
    max_bytes: usize,
    /// Kept from `rocksdb_writebatch_create_with_params`; the engine has no per-key checksums
    /// or timestamps yet.
    #[expect(
        dead_code,
        reason = "no per-key protection or timestamps in the engine yet"
    )]
    protection_bytes_per_key: usize,
    #[expect(
        dead_code,
        reason = "no per-key protection or timestamps in the engine yet"
    )]
    default_cf_ts_sz: usize,
}

impl rocksdb_writebatch_t {
    /// Applies `f`, undoing it if the rep outgrows `max_bytes` (RocksDB's `LocalSavePoint`).
    fn apply(&mut self, f: impl FnOnce(&mut WriteBatch) -> Result<(), Error>) -> Result<(), Error> {
        if self.max_bytes == 0 {
            return f(&mut self.batch);
        }
        self.batch.set_save_point();
        let res = f(&mut self.batch);
        if self.batch.data().len() > self.max_bytes {
            self.batch.rollback_to_save_point()?;
            return Err(Error::invalid_argument("Memory limit reached"));
        }
        self.batch.pop_save_point()?;
        res
    }
}

/// Borrows the batch behind `b` (NULL is an error, which the builders drop).
///
/// # Safety
/// `b` must be NULL or a live batch handle not otherwise borrowed.
unsafe fn batch_mut<'a>(
    b: *mut rocksdb_writebatch_t,
) -> Result<&'a mut rocksdb_writebatch_t, Error> {
    // SAFETY: forwarded contract.
    unsafe { ffi::borrow_mut(b, "batch") }
}

/// The column family id of an optional C handle: 0 (default) for None.
///
/// # Safety
/// A `Some` handle must be NULL or a live column family handle.
unsafe fn opt_cf_id(cf: Option<*mut rocksdb_column_family_handle_t>) -> Result<u32, Error> {
    match cf {
        // SAFETY: forwarded contract.
        Some(cf) => unsafe { cf_id(cf) },
        None => Ok(0),
    }
}

/// The column family id behind a C handle (NULL is an error).
///
/// # Safety
/// `cf` must be NULL or a live column family handle.
unsafe fn cf_id(cf: *mut rocksdb_column_family_handle_t) -> Result<u32, Error> {
    // SAFETY: forwarded contract.
    Ok(unsafe { borrow_cf(cf)? }.id())
}

/// Reads a C `(count, pointers, lengths)` triple of slice parts.
///
/// # Safety
/// As `db::byte_strings`.
unsafe fn parts<'a>(
    n: c_int,
    ptrs: *const *const c_char,
    lens: *const usize,
) -> Result<Vec<&'a [u8]>, Error> {
    // SAFETY: forwarded contract.
    unsafe { db::byte_strings(db::count(n)?, ptrs, lens, "list") }
}

/// Appends a Put (or a Merge) whose key and value are the concatenations of the parts,
/// after RocksDB's size checks.
fn kv_record(
    w: &mut WriteBatch,
    cf: u32,
    k: &[&[u8]],
    v: &[&[u8]],
    merge: bool,
) -> Result<(), Error> {
    batch::check_sizes(total(k), total(v))?;
    if merge {
        w.merge_parts(cf, k, v);
    } else {
        w.put_parts(cf, k, v);
    }
    Ok(())
}

/// The total length of some parts.
fn total(p: &[&[u8]]) -> usize {
    p.iter()
        .map(|s| s.len())
        .fold(0usize, usize::saturating_add)
}

/// Creates an empty batch. Returns a handle owned by the caller; release it with
/// `rocksdb_writebatch_destroy`. Never NULL.
///
/// # Safety
/// No preconditions.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_create() -> *mut rocksdb_writebatch_t {
    ffi::guarded_no_err("rocksdb_writebatch_create", || {
        Ok(ffi::into_handle(rocksdb_writebatch_t::default()))
    })
}

/// Creates a batch from a serialized rep (as returned by `rocksdb_writebatch_data`; the
/// bytes are copied and, as in RocksDB, not validated here: a malformed rep fails when
/// written or iterated). Returns a handle owned by the caller, or NULL if `rep` is NULL
/// with a non-zero `size` or `size` is more than any buffer can hold (above `isize::MAX`).
///
/// # Safety
/// `rep` must address `size` readable bytes (or be NULL with 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_create_from(
    rep: *const c_char,
    size: usize,
) -> *mut rocksdb_writebatch_t {
    ffi::guarded_no_err("rocksdb_writebatch_create_from", || {
        // SAFETY: per this function's contract.
        let rep = unsafe { ffi::bytes_any(rep, size)? };
        Ok(ffi::into_handle(rocksdb_writebatch_t {
            batch: WriteBatch::from_rep_unchecked(rep.to_vec()),
            ..Default::default()
        }))
    })
}

/// Creates an empty batch with RocksDB's parameters: `max_bytes` (0 = unlimited) is
/// enforced; `reserved_bytes` is a capacity hint; `protection_bytes_per_key` and
/// `default_cf_ts_sz` are kept but not acted on (no per-key checksums or timestamps yet).
/// Returns a handle owned by the caller. Never NULL.
///
/// # Safety
/// No preconditions.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_create_with_params(
    reserved_bytes: usize,
    max_bytes: usize,
    protection_bytes_per_key: usize,
    default_cf_ts_sz: usize,
) -> *mut rocksdb_writebatch_t {
    let _ = reserved_bytes;
    ffi::guarded_no_err("rocksdb_writebatch_create_with_params", || {
        Ok(ffi::into_handle(rocksdb_writebatch_t {
            batch: WriteBatch::new(),
            max_bytes,
            protection_bytes_per_key,
            default_cf_ts_sz,
        }))
    })
}

/// Frees a batch. NULL is a no-op.
///
/// # Safety
/// `b` must be NULL or a live batch handle, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_destroy(b: *mut rocksdb_writebatch_t) {
    ffi::guarded_no_err("rocksdb_writebatch_destroy", || {
        // SAFETY: per this function's contract.
        drop(unsafe { ffi::from_handle(b) });
        Ok(())
    })
}

/// Removes every record and save point.
///
/// # Safety
/// `b` must be NULL or a live batch handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_clear(b: *mut rocksdb_writebatch_t) {
    ffi::guarded_no_err("rocksdb_writebatch_clear", || {
        // SAFETY: per this function's contract; NULL is checked.
        unsafe { ffi::borrow_mut(b, "batch")? }.batch.clear();
        Ok(())
    })
}

/// The number of counted records (Put, Delete, SingleDelete, Merge, DeleteRange), 0 for
/// NULL.
///
/// # Safety
/// `b` must be NULL or a live batch handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_count(b: *mut rocksdb_writebatch_t) -> c_int {
    ffi::guarded_no_err("rocksdb_writebatch_count", || {
        // SAFETY: per this function's contract; NULL is checked.
        let n = unsafe { ffi::borrow(b, "batch")? }.batch.count();
        // RocksDB returns the u32 count as an int; wrap the same way.
        Ok(n as c_int)
    })
}

/// Adds a Put of `key` → `val` for the default column family.
///
/// # Safety
/// `b` must be NULL or a live batch handle; `key`/`val` address `klen`/`vlen` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_put(
    b: *mut rocksdb_writebatch_t,
    key: *const c_char,
    klen: usize,
    val: *const c_char,
    vlen: usize,
) {
    ffi::guarded_no_err("rocksdb_writebatch_put", || {
        // SAFETY: per this function's contract.
        let wb = unsafe { batch_mut(b)? };
        // SAFETY: per this function's contract.
        let k = unsafe { ffi::bytes(key, klen)? };
        // SAFETY: per this function's contract.
        let v = unsafe { ffi::bytes(val, vlen)? };
        wb.apply(|w| kv_record(w, 0, &[k], &[v], false))
    })
}

/// Adds a Put for `column_family`.
///
/// # Safety
/// As `rocksdb_writebatch_put`; `column_family` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_put_cf(
    b: *mut rocksdb_writebatch_t,
    column_family: *mut rocksdb_column_family_handle_t,
    key: *const c_char,
    klen: usize,
    val: *const c_char,
    vlen: usize,
) {
    ffi::guarded_no_err("rocksdb_writebatch_put_cf", || {
        // SAFETY: per this function's contract.
        let cf = unsafe { cf_id(column_family)? };
        // SAFETY: per this function's contract.
        let wb = unsafe { batch_mut(b)? };
        // SAFETY: per this function's contract.
        let k = unsafe { ffi::bytes(key, klen)? };
        // SAFETY: per this function's contract.
        let v = unsafe { ffi::bytes(val, vlen)? };
        wb.apply(|w| kv_record(w, cf, &[k], &[v], false))
    })
}

/// Shared body of the `*v` builders that take key and value parts.
///
/// # Safety
/// As `rocksdb_writebatch_putv_cf`.
#[expect(
    clippy::too_many_arguments,
    reason = "mirrors the C prototype it serves"
)]
unsafe fn kv_parts(
    name: &'static str,
    b: *mut rocksdb_writebatch_t,
    cf: Option<*mut rocksdb_column_family_handle_t>,
    num_keys: c_int,
    keys_list: *const *const c_char,
    keys_list_sizes: *const usize,
    num_values: c_int,
    values_list: *const *const c_char,
    values_list_sizes: *const usize,
    merge: bool,
) {
    ffi::guarded_no_err(name, || {
        // SAFETY: forwarded contract.
        let cf = unsafe { opt_cf_id(cf)? };
        // SAFETY: forwarded contract.
        let wb = unsafe { batch_mut(b)? };
        // SAFETY: forwarded contract.
        let k = unsafe { parts(num_keys, keys_list, keys_list_sizes)? };
        // SAFETY: forwarded contract.
        let v = unsafe { parts(num_values, values_list, values_list_sizes)? };
        wb.apply(|w| kv_record(w, cf, &k, &v, merge))
    })
}

/// Adds a Put whose key and value are the concatenations of the given parts.
///
/// # Safety
/// `b` must be NULL or a live batch handle; each list holds its count of entries, each
/// addressing its length in bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_putv(
    b: *mut rocksdb_writebatch_t,
    num_keys: c_int,
    keys_list: *const *const c_char,
    keys_list_sizes: *const usize,
    num_values: c_int,
    values_list: *const *const c_char,
    values_list_sizes: *const usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        kv_parts(
            "rocksdb_writebatch_putv",
            b,
            None,
            num_keys,
            keys_list,
            keys_list_sizes,
            num_values,
            values_list,
            values_list_sizes,
            false,
        )
    }
}

/// `rocksdb_writebatch_putv` for `column_family`.
///
/// # Safety
/// As `rocksdb_writebatch_putv`; `column_family` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_putv_cf(
    b: *mut rocksdb_writebatch_t,
    column_family: *mut rocksdb_column_family_handle_t,
    num_keys: c_int,
    keys_list: *const *const c_char,
    keys_list_sizes: *const usize,
    num_values: c_int,
    values_list: *const *const c_char,
    values_list_sizes: *const usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        kv_parts(
            "rocksdb_writebatch_putv_cf",
            b,
            Some(column_family),
            num_keys,
            keys_list,
            keys_list_sizes,
            num_values,
            values_list,
            values_list_sizes,
            false,
        )
    }
}

/// Adds a Merge operand for the default column family (whether a merge operator exists is
/// checked when the batch is written).
///
/// # Safety
/// As `rocksdb_writebatch_put`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_merge(
    b: *mut rocksdb_writebatch_t,
    key: *const c_char,
    klen: usize,
    val: *const c_char,
    vlen: usize,
) {
    ffi::guarded_no_err("rocksdb_writebatch_merge", || {
        // SAFETY: per this function's contract.
        let wb = unsafe { batch_mut(b)? };
        // SAFETY: per this function's contract.
        let k = unsafe { ffi::bytes(key, klen)? };
        // SAFETY: per this function's contract.
        let v = unsafe { ffi::bytes(val, vlen)? };
        wb.apply(|w| kv_record(w, 0, &[k], &[v], true))
    })
}

/// Adds a Merge for `column_family`.
///
/// # Safety
/// As `rocksdb_writebatch_put_cf`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_merge_cf(
    b: *mut rocksdb_writebatch_t,
    column_family: *mut rocksdb_column_family_handle_t,
    key: *const c_char,
    klen: usize,
    val: *const c_char,
    vlen: usize,
) {
    ffi::guarded_no_err("rocksdb_writebatch_merge_cf", || {
        // SAFETY: per this function's contract.
        let cf = unsafe { cf_id(column_family)? };
        // SAFETY: per this function's contract.
        let wb = unsafe { batch_mut(b)? };
        // SAFETY: per this function's contract.
        let k = unsafe { ffi::bytes(key, klen)? };
        // SAFETY: per this function's contract.
        let v = unsafe { ffi::bytes(val, vlen)? };
        wb.apply(|w| kv_record(w, cf, &[k], &[v], true))
    })
}

/// Adds a Merge whose key and operand are concatenations of parts.
///
/// # Safety
/// As `rocksdb_writebatch_putv`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_mergev(
    b: *mut rocksdb_writebatch_t,
    num_keys: c_int,
    keys_list: *const *const c_char,
    keys_list_sizes: *const usize,
    num_values: c_int,
    values_list: *const *const c_char,
    values_list_sizes: *const usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        kv_parts(
            "rocksdb_writebatch_mergev",
            b,
            None,
            num_keys,
            keys_list,
            keys_list_sizes,
            num_values,
            values_list,
            values_list_sizes,
            true,
        )
    }
}

/// `rocksdb_writebatch_mergev` for `column_family`.
///
/// # Safety
/// As `rocksdb_writebatch_putv_cf`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_mergev_cf(
    b: *mut rocksdb_writebatch_t,
    column_family: *mut rocksdb_column_family_handle_t,
    num_keys: c_int,
    keys_list: *const *const c_char,
    keys_list_sizes: *const usize,
    num_values: c_int,
    values_list: *const *const c_char,
    values_list_sizes: *const usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        kv_parts(
            "rocksdb_writebatch_mergev_cf",
            b,
            Some(column_family),
            num_keys,
            keys_list,
            keys_list_sizes,
            num_values,
            values_list,
            values_list_sizes,
            true,
        )
    }
}

/// Which single-key deletion a builder adds.
#[derive(Clone, Copy)]
enum Del {
    Delete,
    Single,
}

/// Shared body of the single-key deletions.
///
/// # Safety
/// `b` and `cf` must be NULL or live handles; `key` addresses `klen` bytes.
unsafe fn delete_one(
    name: &'static str,
    b: *mut rocksdb_writebatch_t,
    cf: Option<*mut rocksdb_column_family_handle_t>,
    key: *const c_char,
    klen: usize,
    kind: Del,
) {
    ffi::guarded_no_err(name, || {
        // SAFETY: forwarded contract.
        let cf = unsafe { opt_cf_id(cf)? };
        // SAFETY: forwarded contract.
        let wb = unsafe { batch_mut(b)? };
        // SAFETY: forwarded contract.
        let k = unsafe { ffi::bytes(key, klen)? };
        wb.apply(|w| {
            batch::check_sizes(k.len(), 0)?;
            match kind {
                Del::Delete => w.delete(cf, k),
                Del::Single => w.single_delete(cf, k),
            }
            Ok(())
        })
    })
}

/// Adds a Delete of `key` for the default column family.
///
/// # Safety
/// `b` must be NULL or a live batch handle; `key` addresses `klen` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_delete(
    b: *mut rocksdb_writebatch_t,
    key: *const c_char,
    klen: usize,
) {
    // SAFETY: forwarded contract.
    unsafe { delete_one("rocksdb_writebatch_delete", b, None, key, klen, Del::Delete) }
}

/// Adds a Delete for `column_family`.
///
/// # Safety
/// As `rocksdb_writebatch_delete`; `column_family` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_delete_cf(
    b: *mut rocksdb_writebatch_t,
    column_family: *mut rocksdb_column_family_handle_t,
    key: *const c_char,
    klen: usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        delete_one(
            "rocksdb_writebatch_delete_cf",
            b,
            Some(column_family),
            key,
            klen,
            Del::Delete,
        )
    }
}

/// Adds a SingleDelete of `key` for the default column family.
///
/// # Safety
/// As `rocksdb_writebatch_delete`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_singledelete(
    b: *mut rocksdb_writebatch_t,
    key: *const c_char,
    klen: usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        delete_one(
            "rocksdb_writebatch_singledelete",
            b,
            None,
            key,
            klen,
            Del::Single,
        )
    }
}

/// Adds a SingleDelete for `column_family`.
///
/// # Safety
/// As `rocksdb_writebatch_delete_cf`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_singledelete_cf(
    b: *mut rocksdb_writebatch_t,
    column_family: *mut rocksdb_column_family_handle_t,
    key: *const c_char,
    klen: usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        delete_one(
            "rocksdb_writebatch_singledelete_cf",
            b,
            Some(column_family),
            key,
            klen,
            Del::Single,
        )
    }
}

/// Shared body of `rocksdb_writebatch_deletev*`.
///
/// # Safety
/// As `rocksdb_writebatch_deletev_cf`.
unsafe fn delete_parts(
    name: &'static str,
    b: *mut rocksdb_writebatch_t,
    cf: Option<*mut rocksdb_column_family_handle_t>,
    num_keys: c_int,
    keys_list: *const *const c_char,
    keys_list_sizes: *const usize,
) {
    ffi::guarded_no_err(name, || {
        // SAFETY: forwarded contract.
        let cf = unsafe { opt_cf_id(cf)? };
        // SAFETY: forwarded contract.
        let wb = unsafe { batch_mut(b)? };
        // SAFETY: forwarded contract.
        let k = unsafe { parts(num_keys, keys_list, keys_list_sizes)? };
        wb.apply(|w| {
            batch::check_sizes(total(&k), 0)?;
            w.delete_parts(cf, &k);
            Ok(())
        })
    })
}

/// Adds a Delete whose key is the concatenation of the given parts.
///
/// # Safety
/// `b` must be NULL or a live batch handle; the lists hold `num_keys` entries.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_deletev(
    b: *mut rocksdb_writebatch_t,
    num_keys: c_int,
    keys_list: *const *const c_char,
    keys_list_sizes: *const usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        delete_parts(
            "rocksdb_writebatch_deletev",
            b,
            None,
            num_keys,
            keys_list,
            keys_list_sizes,
        )
    }
}

/// `rocksdb_writebatch_deletev` for `column_family`.
///
/// # Safety
/// As `rocksdb_writebatch_deletev`; `column_family` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_deletev_cf(
    b: *mut rocksdb_writebatch_t,
    column_family: *mut rocksdb_column_family_handle_t,
    num_keys: c_int,
    keys_list: *const *const c_char,
    keys_list_sizes: *const usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        delete_parts(
            "rocksdb_writebatch_deletev_cf",
            b,
            Some(column_family),
            num_keys,
            keys_list,
            keys_list_sizes,
        )
    }
}

/// Shared body of the range deletions (single keys or parts).
///
/// # Safety
/// `b` and `cf` must be NULL or live handles; the lists hold `n` entries each.
unsafe fn delete_range_parts<'k>(
    name: &'static str,
    b: *mut rocksdb_writebatch_t,
    cf: Option<*mut rocksdb_column_family_handle_t>,
    begin: Result<Vec<&'k [u8]>, Error>,
    end: Result<Vec<&'k [u8]>, Error>,
) {
    ffi::guarded_no_err(name, || {
        // SAFETY: forwarded contract.
        let cf = unsafe { opt_cf_id(cf)? };
        // SAFETY: forwarded contract.
        let wb = unsafe { batch_mut(b)? };
        let (begin, end) = (begin?, end?);
        wb.apply(|w| {
            batch::check_sizes(total(&begin), total(&end))?;
            w.delete_range_parts(cf, &begin, &end);
            Ok(())
        })
    })
}

/// Adds a DeleteRange of `[start_key, end_key)` for the default column family.
///
/// # Safety
/// `b` must be NULL or a live batch handle; each key addresses its length in bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_delete_range(
    b: *mut rocksdb_writebatch_t,
    start_key: *const c_char,
    start_key_len: usize,
    end_key: *const c_char,
    end_key_len: usize,
) {
    // SAFETY: per this function's contract.
    let begin = unsafe { ffi::bytes(start_key, start_key_len) }.map(|k| vec![k]);
    // SAFETY: per this function's contract.
    let end = unsafe { ffi::bytes(end_key, end_key_len) }.map(|k| vec![k]);
    // SAFETY: forwarded contract.
    unsafe { delete_range_parts("rocksdb_writebatch_delete_range", b, None, begin, end) }
}

/// `rocksdb_writebatch_delete_range` for `column_family`.
///
/// # Safety
/// As `rocksdb_writebatch_delete_range`; `column_family` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_delete_range_cf(
    b: *mut rocksdb_writebatch_t,
    column_family: *mut rocksdb_column_family_handle_t,
    start_key: *const c_char,
    start_key_len: usize,
    end_key: *const c_char,
    end_key_len: usize,
) {
    // SAFETY: per this function's contract.
    let begin = unsafe { ffi::bytes(start_key, start_key_len) }.map(|k| vec![k]);
    // SAFETY: per this function's contract.
    let end = unsafe { ffi::bytes(end_key, end_key_len) }.map(|k| vec![k]);
    // SAFETY: forwarded contract.
    unsafe {
        delete_range_parts(
            "rocksdb_writebatch_delete_range_cf",
            b,
            Some(column_family),
            begin,
            end,
        )
    }
}

/// Adds a DeleteRange whose bounds are concatenations of `num_keys` parts each.
///
/// # Safety
/// `b` must be NULL or a live batch handle; the four lists hold `num_keys` entries.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_delete_rangev(
    b: *mut rocksdb_writebatch_t,
    num_keys: c_int,
    start_keys_list: *const *const c_char,
    start_keys_list_sizes: *const usize,
    end_keys_list: *const *const c_char,
    end_keys_list_sizes: *const usize,
) {
    // SAFETY: per this function's contract.
    let begin = unsafe { parts(num_keys, start_keys_list, start_keys_list_sizes) };
    // SAFETY: per this function's contract.
    let end = unsafe { parts(num_keys, end_keys_list, end_keys_list_sizes) };
    // SAFETY: forwarded contract.
    unsafe { delete_range_parts("rocksdb_writebatch_delete_rangev", b, None, begin, end) }
}

/// `rocksdb_writebatch_delete_rangev` for `column_family`.
///
/// # Safety
/// As `rocksdb_writebatch_delete_rangev`; `column_family` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_delete_rangev_cf(
    b: *mut rocksdb_writebatch_t,
    column_family: *mut rocksdb_column_family_handle_t,
    num_keys: c_int,
    start_keys_list: *const *const c_char,
    start_keys_list_sizes: *const usize,
    end_keys_list: *const *const c_char,
    end_keys_list_sizes: *const usize,
) {
    // SAFETY: per this function's contract.
    let begin = unsafe { parts(num_keys, start_keys_list, start_keys_list_sizes) };
    // SAFETY: per this function's contract.
    let end = unsafe { parts(num_keys, end_keys_list, end_keys_list_sizes) };
    // SAFETY: forwarded contract.
    unsafe {
        delete_range_parts(
            "rocksdb_writebatch_delete_rangev_cf",
            b,
            Some(column_family),
            begin,
            end,
        )
    }
}

/// Attaches `blob` to the batch: stored in the WAL, never applied, not counted.
///
/// # Safety
/// `b` must be NULL or a live batch handle; `blob` addresses `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_put_log_data(
    b: *mut rocksdb_writebatch_t,
    blob: *const c_char,
    len: usize,
) {
    ffi::guarded_no_err("rocksdb_writebatch_put_log_data", || {
        // SAFETY: per this function's contract.
        let wb = unsafe { batch_mut(b)? };
        // SAFETY: per this function's contract.
        let blob = unsafe { ffi::bytes(blob, len)? };
        wb.apply(|w| {
            batch::check_sizes(blob.len(), 0)?;
            w.put_log_data(blob);
            Ok(())
        })
    })
}

/// The batch's serialized rep (RocksDB's format: 12-byte header, then records), length in
/// `*size`. Borrowed: valid until the batch is changed or destroyed. NULL (`*size = 0`) for
/// a NULL batch.
///
/// # Safety
/// `b` must be NULL or a live batch handle, `size` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_data(
    b: *mut rocksdb_writebatch_t,
    size: *mut usize,
) -> *const c_char {
    // SAFETY: per this function's contract.
    unsafe { ffi::write_out(size, 0) };
    ffi::guarded_no_err("rocksdb_writebatch_data", || {
        // SAFETY: per this function's contract; NULL is checked.
        let rep = unsafe { ffi::borrow(b, "batch")? }.batch.data();
        // SAFETY: as above.
        unsafe { ffi::write_out(size, rep.len()) };
        Ok(if rep.is_empty() {
            c"".as_ptr()
        } else {
            rep.as_ptr().cast()
        })
    })
}

/// Remembers the current state so that `rocksdb_writebatch_rollback_to_save_point` can
/// return to it. Save points nest.
///
/// # Safety
/// `b` must be NULL or a live batch handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_set_save_point(b: *mut rocksdb_writebatch_t) {
    ffi::guarded_no_err("rocksdb_writebatch_set_save_point", || {
        // SAFETY: per this function's contract; NULL is checked.
        unsafe { ffi::borrow_mut(b, "batch")? }
            .batch
            .set_save_point();
        Ok(())
    })
}

/// Removes the records added since the most recent save point and pops it. Without one,
/// sets `*errptr` to `NotFound: `.
///
/// # Safety
/// `b` must be NULL or a live batch handle, `errptr` NULL or a valid errptr.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_rollback_to_save_point(
    b: *mut rocksdb_writebatch_t,
    errptr: *mut *mut c_char,
) {
    ffi::guarded(errptr, "rocksdb_writebatch_rollback_to_save_point", || {
        // SAFETY: per this function's contract; NULL is checked.
        unsafe { ffi::borrow_mut(b, "batch")? }
            .batch
            .rollback_to_save_point()
    })
}

/// Forgets the most recent save point (keeping the records). Without one, sets `*errptr` to
/// `NotFound: `.
///
/// # Safety
/// `b` must be NULL or a live batch handle, `errptr` NULL or a valid errptr.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_pop_save_point(
    b: *mut rocksdb_writebatch_t,
    errptr: *mut *mut c_char,
) {
    ffi::guarded(errptr, "rocksdb_writebatch_pop_save_point", || {
        // SAFETY: per this function's contract; NULL is checked.
        unsafe { ffi::borrow_mut(b, "batch")? }
            .batch
            .pop_save_point()
    })
}

type PutFn = unsafe extern "C" fn(*mut c_void, *const c_char, usize, *const c_char, usize);
type DelFn = unsafe extern "C" fn(*mut c_void, *const c_char, usize);
type PutCfFn = unsafe extern "C" fn(*mut c_void, u32, *const c_char, usize, *const c_char, usize);
type DelCfFn = unsafe extern "C" fn(*mut c_void, u32, *const c_char, usize);
type LogFn = unsafe extern "C" fn(*mut c_void, *const c_char, usize);

/// The error that ends a replay where RocksDB's default handler would (its text is never
/// shown: `c.cc` drops the status).
fn stop(what: &str) -> Error {
    Error::invalid_argument(format!("{what} not implemented"))
}

/// Replays into the default-family callbacks (`rocksdb_writebatch_iterate[_ld]`).
struct DefaultCfHandler {
    state: *mut c_void,
    put: Option<PutFn>,
    deleted: Option<DelFn>,
    log_data: Option<LogFn>,
}

impl Handler for DefaultCfHandler {
    fn put(&mut self, cf: u32, key: &[u8], value: &[u8]) -> Result<(), Error> {
        if cf != 0 {
            return Err(stop("non-default column family and PutCF"));
        }
        if let Some(f) = self.put {
            // SAFETY: the caller of rocksdb_writebatch_iterate supplied `f` for this
            // signature and `state`; the slices are valid for the call.
            unsafe {
                f(
                    self.state,
                    key.as_ptr().cast(),
                    key.len(),
                    value.as_ptr().cast(),
                    value.len(),
                )
            };
        }
        Ok(())
    }
    fn delete(&mut self, cf: u32, key: &[u8]) -> Result<(), Error> {
        if cf != 0 {
            return Err(stop("non-default column family and DeleteCF"));
        }
        if let Some(f) = self.deleted {
            // SAFETY: as in `put`.
            unsafe { f(self.state, key.as_ptr().cast(), key.len()) };
        }
        Ok(())
    }
    fn single_delete(&mut self, cf: u32, _key: &[u8]) -> Result<(), Error> {
        if cf != 0 {
            return Err(stop("non-default column family and SingleDeleteCF"));
        }
        Ok(())
    }
    fn merge(&mut self, cf: u32, _key: &[u8], _value: &[u8]) -> Result<(), Error> {
        if cf != 0 {
            return Err(stop("non-default column family and MergeCF"));
        }
        Ok(())
    }
    fn delete_range(&mut self, _cf: u32, _b: &[u8], _e: &[u8]) -> Result<(), Error> {
        Err(stop("DeleteRangeCF"))
    }
    fn log_data(&mut self, blob: &[u8]) -> Result<(), Error> {
        call_log_data(self.log_data, self.state, blob);
        Ok(())
    }
    fn mark(&mut self, marker: &Record<'_>) -> Result<(), Error> {
        mark(marker)
    }
}

/// Replays into the per-family callbacks (`rocksdb_writebatch_iterate_cf[_ld]`).
struct CfHandler {
    state: *mut c_void,
    put: Option<PutCfFn>,
    deleted: Option<DelCfFn>,
    merge: Option<PutCfFn>,
    log_data: Option<LogFn>,
}

impl Handler for CfHandler {
    fn put(&mut self, cf: u32, key: &[u8], value: &[u8]) -> Result<(), Error> {
        if let Some(f) = self.put {
            // SAFETY: the caller of rocksdb_writebatch_iterate_cf supplied `f` for this
            // signature and `state`; the slices are valid for the call.
            unsafe {
                f(
                    self.state,
                    cf,
                    key.as_ptr().cast(),
                    key.len(),
                    value.as_ptr().cast(),
                    value.len(),
                )
            };
        }
        Ok(())
    }
    fn delete(&mut self, cf: u32, key: &[u8]) -> Result<(), Error> {
        if let Some(f) = self.deleted {
            // SAFETY: as in `put`.
            unsafe { f(self.state, cf, key.as_ptr().cast(), key.len()) };
        }
        Ok(())
    }
    fn single_delete(&mut self, cf: u32, _key: &[u8]) -> Result<(), Error> {
        if cf != 0 {
            return Err(stop("non-default column family and SingleDeleteCF"));
        }
        Ok(())
    }
    fn merge(&mut self, cf: u32, key: &[u8], value: &[u8]) -> Result<(), Error> {
        if let Some(f) = self.merge {
            // SAFETY: as in `put`.
            unsafe {
                f(
                    self.state,
                    cf,
                    key.as_ptr().cast(),
                    key.len(),
                    value.as_ptr().cast(),
                    value.len(),
                )
            };
        }
        Ok(())
    }
    fn delete_range(&mut self, _cf: u32, _b: &[u8], _e: &[u8]) -> Result<(), Error> {
        Err(stop("DeleteRangeCF"))
    }
    fn log_data(&mut self, blob: &[u8]) -> Result<(), Error> {
        call_log_data(self.log_data, self.state, blob);
        Ok(())
    }
    fn mark(&mut self, marker: &Record<'_>) -> Result<(), Error> {
        mark(marker)
    }
}

fn call_log_data(f: Option<LogFn>, state: *mut c_void, blob: &[u8]) {
    if let Some(f) = f {
        // SAFETY: the caller of rocksdb_writebatch_iterate_*ld supplied `f` for this
        // signature and `state`; the slice is valid for the call.
        unsafe { f(state, blob.as_ptr().cast(), blob.len()) };
    }
}

/// RocksDB's default handler: Noop is fine, any transaction marker ends the replay.
fn mark(marker: &Record<'_>) -> Result<(), Error> {
    match marker {
        Record::Noop => Ok(()),
        _ => Err(stop("transaction marker handler")),
    }
}

/// Replays `b` into `handler`, dropping the status as `c.cc` does.
///
/// # Safety
/// `b` must be NULL or a live batch handle.
unsafe fn replay(name: &'static str, b: *mut rocksdb_writebatch_t, handler: &mut dyn Handler) {
    ffi::guarded_no_err(name, || {
        // SAFETY: forwarded contract; NULL is checked.
        let wb = unsafe { ffi::borrow(b, "batch")? };
        // The status is dropped: replay simply ends at the first record it cannot report.
        let _ = wb.batch.iterate(handler);
        Ok(())
    })
}

/// Calls `put(state, k, klen, v, vlen)` and `deleted(state, k, klen)` for the batch's
/// default-family Puts and Deletes, in order. Default-family Merges, SingleDeletes and log
/// data are skipped; a record of another family, a DeleteRange or a transaction marker ends
/// the replay (RocksDB's behaviour). The slices are valid during the callback only.
///
/// # Safety
/// `b` must be NULL or a live batch handle; the callbacks must be NULL or functions of
/// these signatures, safe to call with `state`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_iterate(
    b: *mut rocksdb_writebatch_t,
    state: *mut c_void,
    put: Option<unsafe extern "C" fn(*mut c_void, *const c_char, usize, *const c_char, usize)>,
    deleted: Option<unsafe extern "C" fn(*mut c_void, *const c_char, usize)>,
) {
    let mut h = DefaultCfHandler {
        state,
        put,
        deleted,
        log_data: None,
    };
    // SAFETY: forwarded contract.
    unsafe { replay("rocksdb_writebatch_iterate", b, &mut h) }
}

/// `rocksdb_writebatch_iterate` that also reports log data blobs to `log_data`.
///
/// # Safety
/// As `rocksdb_writebatch_iterate`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_iterate_ld(
    b: *mut rocksdb_writebatch_t,
    state: *mut c_void,
    put: Option<unsafe extern "C" fn(*mut c_void, *const c_char, usize, *const c_char, usize)>,
    deleted: Option<unsafe extern "C" fn(*mut c_void, *const c_char, usize)>,
    log_data: Option<unsafe extern "C" fn(*mut c_void, *const c_char, usize)>,
) {
    let mut h = DefaultCfHandler {
        state,
        put,
        deleted,
        log_data,
    };
    // SAFETY: forwarded contract.
    unsafe { replay("rocksdb_writebatch_iterate_ld", b, &mut h) }
}

/// Calls `put_cf`, `deleted_cf` and `merge_cf` with the column family id for every Put,
/// Delete and Merge, in order. Default-family SingleDeletes and log data are skipped; a
/// SingleDelete of another family, a DeleteRange or a transaction marker ends the replay.
///
/// # Safety
/// As `rocksdb_writebatch_iterate`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_iterate_cf(
    b: *mut rocksdb_writebatch_t,
    state: *mut c_void,
    put_cf: Option<
        unsafe extern "C" fn(*mut c_void, u32, *const c_char, usize, *const c_char, usize),
    >,
    deleted_cf: Option<unsafe extern "C" fn(*mut c_void, u32, *const c_char, usize)>,
    merge_cf: Option<
        unsafe extern "C" fn(*mut c_void, u32, *const c_char, usize, *const c_char, usize),
    >,
) {
    let mut h = CfHandler {
        state,
        put: put_cf,
        deleted: deleted_cf,
        merge: merge_cf,
        log_data: None,
    };
    // SAFETY: forwarded contract.
    unsafe { replay("rocksdb_writebatch_iterate_cf", b, &mut h) }
}

/// `rocksdb_writebatch_iterate_cf` that also reports log data blobs to `log_data`.
///
/// # Safety
/// As `rocksdb_writebatch_iterate`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writebatch_iterate_cf_ld(
    b: *mut rocksdb_writebatch_t,
    state: *mut c_void,
    put_cf: Option<
        unsafe extern "C" fn(*mut c_void, u32, *const c_char, usize, *const c_char, usize),
    >,
    deleted_cf: Option<unsafe extern "C" fn(*mut c_void, u32, *const c_char, usize)>,
    merge_cf: Option<
        unsafe extern "C" fn(*mut c_void, u32, *const c_char, usize, *const c_char, usize),
    >,
    log_data: Option<unsafe extern "C" fn(*mut c_void, *const c_char, usize)>,
) {
    let mut h = CfHandler {
        state,
        put: put_cf,
        deleted: deleted_cf,
        merge: merge_cf,
        log_data,
    };
    // SAFETY: forwarded contract.
    unsafe { replay("rocksdb_writebatch_iterate_cf_ld", b, &mut h) }
}
