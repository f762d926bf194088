// SPDX-License-Identifier: Apache-2.0
//! `rocksdb_readoptions_*`: the options of one read or iterator (read path).
//!
//! The engine's `ReadOptions` holds what it acts on: the snapshot (as a sequence number),
//! the iterate bounds (copied, so the caller's bytes need not outlive the options, a safe
//! superset of RocksDB, which keeps a pointer), `verify_checksums`, `fill_cache`,
//! `total_order_seek` (always in effect: there is no prefix seek) and `ignore_range_deletions`
//! (`prefix_same_as_start` and `pin_data` are carried too, without effect).
//! Everything else is kept here only so that its getter returns it; those setters carry the
//! coverage marker.

use std::ffi::{c_char, c_int, c_uchar};

use engine::options::ReadOptions;

use crate::ffi::{self, FailValue};
use crate::types::rocksdb_snapshot_t;

/// Options for reads and iterators. Ownership: owned by the caller
/// (`rocksdb_readoptions_create` / `rocksdb_readoptions_destroy`). Reads and
/// `rocksdb_create_iterator*` copy what they need, so the object may be changed or destroyed
/// right after.
#[derive(Clone, Debug)]
pub struct rocksdb_readoptions_t {
    /// What the engine acts on.
    pub(crate) ro: ReadOptions,
    async_io: bool,
    background_purge_on_iterator_cleanup: bool,
    deadline: u64,
    io_timeout: u64,
    read_tier: c_int,
    auto_readahead_size: bool,
    managed: bool,
    timestamp: Option<Vec<u8>>,
    iter_start_ts: Option<Vec<u8>>,
}

impl Default for rocksdb_readoptions_t {
    fn default() -> Self {
        rocksdb_readoptions_t {
            ro: ReadOptions::default(),
            async_io: false,
            background_purge_on_iterator_cleanup: false,
            deadline: 0,
            io_timeout: 0,
            read_tier: 0,
            auto_readahead_size: true,
            managed: false,
            timestamp: None,
            iter_start_ts: None,
        }
    }
}

/// Runs `f` on the options behind `opt`; a NULL handle returns `R`'s failure value.
fn with<R: FailValue>(
    name: &'static str,
    opt: *mut rocksdb_readoptions_t,
    f: impl FnOnce(&mut rocksdb_readoptions_t) -> R,
) -> R {
    ffi::guarded_no_err(name, || {
        // SAFETY: c.h requires a live handle from rocksdb_readoptions_create; NULL is checked.
        let o = unsafe { ffi::borrow_mut(opt, "options")? };
        Ok(f(o))
    })
}

/// Copies a `(ptr, len)` bound; `(NULL, _)` clears it (c-api-conventions.md §1).
///
/// # Safety
/// A non-NULL `ptr` must address `len` readable bytes.
unsafe fn bound(ptr: *const c_char, len: usize) -> Result<Option<Vec<u8>>, engine::Error> {
    if ptr.is_null() {
        return Ok(None);
    }
    // SAFETY: forwarded contract.
    Ok(Some(unsafe { ffi::bytes(ptr, len)? }.to_vec()))
}

/// Creates read options with RocksDB's defaults. Returns a handle owned by the caller;
/// release it with `rocksdb_readoptions_destroy`. Never NULL.
///
/// # Safety
/// No preconditions.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_create() -> *mut rocksdb_readoptions_t {
    ffi::guarded_no_err("rocksdb_readoptions_create", || {
        Ok(ffi::into_handle(rocksdb_readoptions_t::default()))
    })
}

/// Destroys read options. NULL is a no-op. A snapshot set on them is not released.
///
/// # Safety
/// `opt` must be NULL or a handle from `rocksdb_readoptions_create`, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_destroy(opt: *mut rocksdb_readoptions_t) {
    ffi::guarded_no_err("rocksdb_readoptions_destroy", || {
        // SAFETY: per this function's contract.
        drop(unsafe { ffi::from_handle(opt) });
        Ok(())
    })
}

/// Verifies block checksums on reads (default on).
///
/// # Safety
/// `opt` must be NULL or a live read options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_set_verify_checksums(
    opt: *mut rocksdb_readoptions_t,
    v: c_uchar,
) {
    with("rocksdb_readoptions_set_verify_checksums", opt, |o| {
        o.ro.verify_checksums = ffi::c_bool(v)
    })
}

/// Returns `verify_checksums` (0 for a NULL handle).
///
/// # Safety
/// `opt` must be NULL or a live read options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_get_verify_checksums(
    opt: *mut rocksdb_readoptions_t,
) -> c_uchar {
    with("rocksdb_readoptions_get_verify_checksums", opt, |o| {
        ffi::to_c_bool(o.ro.verify_checksums)
    })
}

/// Whether blocks read are added to the block cache (default on).
///
/// # Safety
/// `opt` must be NULL or a live read options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_set_fill_cache(
    opt: *mut rocksdb_readoptions_t,
    v: c_uchar,
) {
    with("rocksdb_readoptions_set_fill_cache", opt, |o| {
        o.ro.fill_cache = ffi::c_bool(v)
    })
}

/// Returns `fill_cache` (0 for a NULL handle).
///
/// # Safety
/// `opt` must be NULL or a live read options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_get_fill_cache(
    opt: *mut rocksdb_readoptions_t,
) -> c_uchar {
    with("rocksdb_readoptions_get_fill_cache", opt, |o| {
        ffi::to_c_bool(o.ro.fill_cache)
    })
}

/// Reads as of `snap` (NULL clears it and reads the latest state). The snapshot is borrowed:
/// as in RocksDB, release it only after the last read that uses these options.
///
/// # Safety
/// `opt` must be NULL or a live read options handle; `snap` NULL or a live snapshot.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_set_snapshot(
    opt: *mut rocksdb_readoptions_t,
    snap: *const rocksdb_snapshot_t,
) {
    ffi::guarded_no_err("rocksdb_readoptions_set_snapshot", || {
        // SAFETY: per this function's contract; NULL is checked.
        let o = unsafe { ffi::borrow_mut(opt, "options")? };
        // SAFETY: `snap` is NULL or a live snapshot per this function's contract.
        let seq = unsafe { snap.as_ref() }.map(|s| s.snap.sequence());
        o.ro.snapshot = seq;
        Ok(())
    })
}

/// Sets the exclusive upper bound of iterators; the bytes are copied. `(NULL, 0)` clears it.
///
/// # Safety
/// `opt` must be NULL or a live read options handle; a non-NULL `key` must address
/// `keylen` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_set_iterate_upper_bound(
    opt: *mut rocksdb_readoptions_t,
    key: *const c_char,
    keylen: usize,
) {
    ffi::guarded_no_err("rocksdb_readoptions_set_iterate_upper_bound", || {
        // SAFETY: per this function's contract; NULL is checked.
        let o = unsafe { ffi::borrow_mut(opt, "options")? };
        // SAFETY: per this function's contract.
        o.ro.iterate_upper_bound = unsafe { bound(key, keylen)? };
        Ok(())
    })
}

/// Sets the inclusive lower bound of iterators; the bytes are copied. `(NULL, 0)` clears it.
///
/// # Safety
/// `opt` must be NULL or a live read options handle; a non-NULL `key` must address
/// `keylen` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_set_iterate_lower_bound(
    opt: *mut rocksdb_readoptions_t,
    key: *const c_char,
    keylen: usize,
) {
    ffi::guarded_no_err("rocksdb_readoptions_set_iterate_lower_bound", || {
        // SAFETY: per this function's contract; NULL is checked.
        let o = unsafe { ffi::borrow_mut(opt, "options")? };
        // SAFETY: per this function's contract.
        o.ro.iterate_lower_bound = unsafe { bound(key, keylen)? };
        Ok(())
    })
}

/// Which tier a read may reach (0 all, 1 block cache, 2 persisted, 3 memtable).
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL or a live read options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_set_read_tier(
    opt: *mut rocksdb_readoptions_t,
    v: c_int,
) {
    with("rocksdb_readoptions_set_read_tier", opt, |o| {
        o.read_tier = v
    })
}

/// Returns the read tier (0 for a NULL handle).
///
/// # Safety
/// `opt` must be NULL or a live read options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_get_read_tier(
    opt: *mut rocksdb_readoptions_t,
) -> c_int {
    with("rocksdb_readoptions_get_read_tier", opt, |o| o.read_tier)
}

/// Tailing iterators see writes made after their creation.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL or a live read options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_set_tailing(
    opt: *mut rocksdb_readoptions_t,
    v: c_uchar,
) {
    with("rocksdb_readoptions_set_tailing", opt, |o| {
        o.ro.tailing = ffi::c_bool(v)
    })
}

/// Returns `tailing` (0 for a NULL handle).
///
/// # Safety
/// `opt` must be NULL or a live read options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_get_tailing(
    opt: *mut rocksdb_readoptions_t,
) -> c_uchar {
    with("rocksdb_readoptions_get_tailing", opt, |o| {
        ffi::to_c_bool(o.ro.tailing)
    })
}

/// Deprecated upstream (managed iterators were removed); kept for 7.8.3 binaries.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL or a live read options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_set_managed(
    opt: *mut rocksdb_readoptions_t,
    v: c_uchar,
) {
    with("rocksdb_readoptions_set_managed", opt, |o| {
        o.managed = ffi::c_bool(v)
    })
}

/// Readahead size for iterator reads from tables.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL or a live read options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_set_readahead_size(
    opt: *mut rocksdb_readoptions_t,
    v: usize,
) {
    with("rocksdb_readoptions_set_readahead_size", opt, |o| {
        o.ro.readahead_size = v
    })
}

/// Returns `readahead_size` (0 for a NULL handle).
///
/// # Safety
/// `opt` must be NULL or a live read options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_get_readahead_size(
    opt: *mut rocksdb_readoptions_t,
) -> usize {
    with("rocksdb_readoptions_get_readahead_size", opt, |o| {
        o.ro.readahead_size
    })
}

/// Sets whether an iterator stops at the end of its seek key's prefix. The engine does not
/// use prefix extractors yet (`rocksdb_options_set_prefix_extractor` stores one only), so
/// iterators run in total order whatever this says.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL or a live read options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_set_prefix_same_as_start(
    opt: *mut rocksdb_readoptions_t,
    v: c_uchar,
) {
    with("rocksdb_readoptions_set_prefix_same_as_start", opt, |o| {
        o.ro.prefix_same_as_start = ffi::c_bool(v)
    })
}

/// Returns `prefix_same_as_start` (0 for a NULL handle).
///
/// # Safety
/// `opt` must be NULL or a live read options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_get_prefix_same_as_start(
    opt: *mut rocksdb_readoptions_t,
) -> c_uchar {
    with("rocksdb_readoptions_get_prefix_same_as_start", opt, |o| {
        ffi::to_c_bool(o.ro.prefix_same_as_start)
    })
}

/// Asks that iterator keys stay valid for the iterator's lifetime. RocksDB promises it only
/// where the iterator's `rocksdb.iterator.is-key-pinned` property says 1; solistore's
/// iterator keys stay valid until the next move whatever this says.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL or a live read options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_set_pin_data(
    opt: *mut rocksdb_readoptions_t,
    v: c_uchar,
) {
    with("rocksdb_readoptions_set_pin_data", opt, |o| {
        o.ro.pin_data = ffi::c_bool(v)
    })
}

/// Returns `pin_data` (0 for a NULL handle).
///
/// # Safety
/// `opt` must be NULL or a live read options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_get_pin_data(
    opt: *mut rocksdb_readoptions_t,
) -> c_uchar {
    with("rocksdb_readoptions_get_pin_data", opt, |o| {
        ffi::to_c_bool(o.ro.pin_data)
    })
}

/// Ignores the prefix extractor: seeks see the whole key space.
///
/// # Safety
/// `opt` must be NULL or a live read options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_set_total_order_seek(
    opt: *mut rocksdb_readoptions_t,
    v: c_uchar,
) {
    with("rocksdb_readoptions_set_total_order_seek", opt, |o| {
        o.ro.total_order_seek = ffi::c_bool(v)
    })
}

/// Returns `total_order_seek` (0 for a NULL handle).
///
/// # Safety
/// `opt` must be NULL or a live read options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_get_total_order_seek(
    opt: *mut rocksdb_readoptions_t,
) -> c_uchar {
    with("rocksdb_readoptions_get_total_order_seek", opt, |o| {
        ffi::to_c_bool(o.ro.total_order_seek)
    })
}

/// How many internal keys an iterator may skip before it gives up with `Incomplete`
/// (0 = no limit).
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL or a live read options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_set_max_skippable_internal_keys(
    opt: *mut rocksdb_readoptions_t,
    v: u64,
) {
    with(
        "rocksdb_readoptions_set_max_skippable_internal_keys",
        opt,
        |o| o.ro.max_skippable_internal_keys = v,
    )
}

/// Returns `max_skippable_internal_keys` (0 for a NULL handle).
///
/// # Safety
/// `opt` must be NULL or a live read options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_get_max_skippable_internal_keys(
    opt: *mut rocksdb_readoptions_t,
) -> u64 {
    with(
        "rocksdb_readoptions_get_max_skippable_internal_keys",
        opt,
        |o| o.ro.max_skippable_internal_keys,
    )
}

/// Deletes obsolete files of an iterator in the background when it is destroyed.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL or a live read options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_set_background_purge_on_iterator_cleanup(
    opt: *mut rocksdb_readoptions_t,
    v: c_uchar,
) {
    with(
        "rocksdb_readoptions_set_background_purge_on_iterator_cleanup",
        opt,
        |o| o.background_purge_on_iterator_cleanup = ffi::c_bool(v),
    )
}

/// Returns `background_purge_on_iterator_cleanup` (0 for a NULL handle).
///
/// # Safety
/// `opt` must be NULL or a live read options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_get_background_purge_on_iterator_cleanup(
    opt: *mut rocksdb_readoptions_t,
) -> c_uchar {
    with(
        "rocksdb_readoptions_get_background_purge_on_iterator_cleanup",
        opt,
        |o| ffi::to_c_bool(o.background_purge_on_iterator_cleanup),
    )
}

/// Reads skip range tombstones (faster, and wrong if the DB has any).
///
/// # Safety
/// `opt` must be NULL or a live read options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_set_ignore_range_deletions(
    opt: *mut rocksdb_readoptions_t,
    v: c_uchar,
) {
    with("rocksdb_readoptions_set_ignore_range_deletions", opt, |o| {
        o.ro.ignore_range_deletions = ffi::c_bool(v)
    })
}

/// Returns `ignore_range_deletions` (0 for a NULL handle).
///
/// # Safety
/// `opt` must be NULL or a live read options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_get_ignore_range_deletions(
    opt: *mut rocksdb_readoptions_t,
) -> c_uchar {
    with("rocksdb_readoptions_get_ignore_range_deletions", opt, |o| {
        ffi::to_c_bool(o.ro.ignore_range_deletions)
    })
}

/// Deadline for the read, in microseconds since the epoch (0 = none).
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL or a live read options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_set_deadline(opt: *mut rocksdb_readoptions_t, v: u64) {
    with("rocksdb_readoptions_set_deadline", opt, |o| o.deadline = v)
}

/// Returns the deadline in microseconds (0 for a NULL handle).
///
/// # Safety
/// `opt` must be NULL or a live read options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_get_deadline(opt: *mut rocksdb_readoptions_t) -> u64 {
    with("rocksdb_readoptions_get_deadline", opt, |o| o.deadline)
}

/// Timeout of each file read, in microseconds (0 = none).
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL or a live read options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_set_io_timeout(
    opt: *mut rocksdb_readoptions_t,
    v: u64,
) {
    with("rocksdb_readoptions_set_io_timeout", opt, |o| {
        o.io_timeout = v
    })
}

/// Returns the I/O timeout in microseconds (0 for a NULL handle).
///
/// # Safety
/// `opt` must be NULL or a live read options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_get_io_timeout(
    opt: *mut rocksdb_readoptions_t,
) -> u64 {
    with("rocksdb_readoptions_get_io_timeout", opt, |o| o.io_timeout)
}

/// Lets iterators prefetch asynchronously.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL or a live read options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_set_async_io(
    opt: *mut rocksdb_readoptions_t,
    v: c_uchar,
) {
    with("rocksdb_readoptions_set_async_io", opt, |o| {
        o.async_io = ffi::c_bool(v)
    })
}

/// Returns `async_io` (0 for a NULL handle).
///
/// # Safety
/// `opt` must be NULL or a live read options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_get_async_io(
    opt: *mut rocksdb_readoptions_t,
) -> c_uchar {
    with("rocksdb_readoptions_get_async_io", opt, |o| {
        ffi::to_c_bool(o.async_io)
    })
}

/// Lets iterators grow their readahead automatically (default on). No getter upstream.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL or a live read options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_set_auto_readahead_size(
    opt: *mut rocksdb_readoptions_t,
    v: c_uchar,
) {
    with("rocksdb_readoptions_set_auto_readahead_size", opt, |o| {
        o.auto_readahead_size = ffi::c_bool(v)
    })
}

/// User-defined timestamp to read as of; the bytes are copied, `(NULL, 0)` clears it.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL or a live read options handle; a non-NULL `ts` must address
/// `tslen` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_set_timestamp(
    opt: *mut rocksdb_readoptions_t,
    ts: *const c_char,
    tslen: usize,
) {
    ffi::guarded_no_err("rocksdb_readoptions_set_timestamp", || {
        // SAFETY: per this function's contract; NULL is checked.
        let o = unsafe { ffi::borrow_mut(opt, "options")? };
        // SAFETY: per this function's contract.
        o.timestamp = unsafe { bound(ts, tslen)? };
        Ok(())
    })
}

/// Lower timestamp bound of iterators; the bytes are copied, `(NULL, 0)` clears it.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL or a live read options handle; a non-NULL `ts` must address
/// `tslen` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_readoptions_set_iter_start_ts(
    opt: *mut rocksdb_readoptions_t,
    ts: *const c_char,
    tslen: usize,
) {
    ffi::guarded_no_err("rocksdb_readoptions_set_iter_start_ts", || {
        // SAFETY: per this function's contract; NULL is checked.
        let o = unsafe { ffi::borrow_mut(opt, "options")? };
        // SAFETY: per this function's contract.
        o.iter_start_ts = unsafe { bound(ts, tslen)? };
        Ok(())
    })
}

#[cfg(test)]
#[expect(
    clippy::multiple_unsafe_ops_per_block,
    reason = "tests drive the C API the way a C caller does: many calls per block, one contract"
)]
mod tests {
    use super::*;
    use std::ptr;

    #[test]
    fn defaults_setters_and_getters() {
        // SAFETY: each call gets the live handle made here, destroyed last.
        unsafe {
            let o = rocksdb_readoptions_create();
            assert_eq!(rocksdb_readoptions_get_verify_checksums(o), 1);
            assert_eq!(rocksdb_readoptions_get_fill_cache(o), 1);
            rocksdb_readoptions_set_fill_cache(o, 7);
            assert_eq!(rocksdb_readoptions_get_fill_cache(o), 1);
            rocksdb_readoptions_set_fill_cache(o, 0);
            assert_eq!(rocksdb_readoptions_get_fill_cache(o), 0);
            rocksdb_readoptions_set_read_tier(o, 3);
            assert_eq!(rocksdb_readoptions_get_read_tier(o), 3);
            rocksdb_readoptions_set_deadline(o, 11);
            rocksdb_readoptions_set_io_timeout(o, 12);
            rocksdb_readoptions_set_readahead_size(o, 13);
            rocksdb_readoptions_set_max_skippable_internal_keys(o, 14);
            assert_eq!(rocksdb_readoptions_get_deadline(o), 11);
            assert_eq!(rocksdb_readoptions_get_io_timeout(o), 12);
            assert_eq!(rocksdb_readoptions_get_readahead_size(o), 13);
            assert_eq!(rocksdb_readoptions_get_max_skippable_internal_keys(o), 14);
            for (set, get) in [
                (
                    rocksdb_readoptions_set_tailing as unsafe extern "C" fn(_, _),
                    rocksdb_readoptions_get_tailing as unsafe extern "C" fn(_) -> _,
                ),
                (
                    rocksdb_readoptions_set_pin_data,
                    rocksdb_readoptions_get_pin_data,
                ),
                (
                    rocksdb_readoptions_set_total_order_seek,
                    rocksdb_readoptions_get_total_order_seek,
                ),
                (
                    rocksdb_readoptions_set_prefix_same_as_start,
                    rocksdb_readoptions_get_prefix_same_as_start,
                ),
                (
                    rocksdb_readoptions_set_ignore_range_deletions,
                    rocksdb_readoptions_get_ignore_range_deletions,
                ),
                (
                    rocksdb_readoptions_set_async_io,
                    rocksdb_readoptions_get_async_io,
                ),
                (
                    rocksdb_readoptions_set_background_purge_on_iterator_cleanup,
                    rocksdb_readoptions_get_background_purge_on_iterator_cleanup,
                ),
            ] {
                assert_eq!(get(o), 0);
                set(o, 2);
                assert_eq!(get(o), 1);
            }
            rocksdb_readoptions_set_iterate_upper_bound(o, c"zz".as_ptr(), 2);
            assert_eq!((*o).ro.iterate_upper_bound.as_deref(), Some(&b"zz"[..]));
            rocksdb_readoptions_set_iterate_upper_bound(o, ptr::null(), 0);
            assert_eq!((*o).ro.iterate_upper_bound, None);
            rocksdb_readoptions_set_iterate_lower_bound(o, c"a".as_ptr(), 1);
            assert_eq!((*o).ro.iterate_lower_bound.as_deref(), Some(&b"a"[..]));
            rocksdb_readoptions_set_snapshot(o, ptr::null());
            assert_eq!((*o).ro.snapshot, None);
            rocksdb_readoptions_destroy(o);
        }
    }

    #[test]
    fn null_handles_are_tolerated() {
        // SAFETY: NULL handles are checked.
        unsafe {
            rocksdb_readoptions_set_fill_cache(ptr::null_mut(), 1);
            assert_eq!(rocksdb_readoptions_get_fill_cache(ptr::null_mut()), 0);
            rocksdb_readoptions_set_snapshot(ptr::null_mut(), ptr::null());
            rocksdb_readoptions_set_iterate_upper_bound(ptr::null_mut(), ptr::null(), 0);
            rocksdb_readoptions_destroy(ptr::null_mut());
        }
    }
}
