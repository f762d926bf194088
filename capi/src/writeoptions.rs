// SPDX-License-Identifier: Apache-2.0
//! `rocksdb_writeoptions_*`: the options of one write (write path).
//!
//! The engine acts on `sync`, `disable_WAL` and `ignore_missing_column_families`. It never
//! stalls writers, so `no_slowdown` and `low_pri` have nothing to change yet, and there is no
//! memtable insert hint; those are kept so that their getters return them.

use std::ffi::{c_int, c_uchar};

use engine::options::WriteOptions;

use crate::ffi::{self, FailValue};

/// Options for writes. Ownership: owned by the caller (`rocksdb_writeoptions_create` /
/// `rocksdb_writeoptions_destroy`); each write reads them during the call only.
#[derive(Clone, Debug, Default)]
pub struct rocksdb_writeoptions_t {
    /// What the engine acts on.
    pub(crate) wo: WriteOptions,
    memtable_insert_hint_per_batch: bool,
}

/// Runs `f` on the options behind `opt`; a NULL handle returns `R`'s failure value.
fn with<R: FailValue>(
    name: &'static str,
    opt: *mut rocksdb_writeoptions_t,
    f: impl FnOnce(&mut rocksdb_writeoptions_t) -> R,
) -> R {
    ffi::guarded_no_err(name, || {
        // SAFETY: c.h requires a live handle from rocksdb_writeoptions_create; NULL is checked.
        let o = unsafe { ffi::borrow_mut(opt, "options")? };
        Ok(f(o))
    })
}

/// Creates write options with RocksDB's defaults (no sync, WAL on). Returns a handle owned
/// by the caller; release it with `rocksdb_writeoptions_destroy`. Never NULL.
///
/// # Safety
/// No preconditions.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writeoptions_create() -> *mut rocksdb_writeoptions_t {
    ffi::guarded_no_err("rocksdb_writeoptions_create", || {
        Ok(ffi::into_handle(rocksdb_writeoptions_t::default()))
    })
}

/// Destroys write options. NULL is a no-op.
///
/// # Safety
/// `opt` must be NULL or a handle from `rocksdb_writeoptions_create`, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writeoptions_destroy(opt: *mut rocksdb_writeoptions_t) {
    ffi::guarded_no_err("rocksdb_writeoptions_destroy", || {
        // SAFETY: per this function's contract.
        drop(unsafe { ffi::from_handle(opt) });
        Ok(())
    })
}

/// Syncs the WAL (fdatasync) before the write returns.
///
/// # Safety
/// `opt` must be NULL or a live write options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writeoptions_set_sync(
    opt: *mut rocksdb_writeoptions_t,
    v: c_uchar,
) {
    with("rocksdb_writeoptions_set_sync", opt, |o| {
        o.wo.sync = ffi::c_bool(v)
    })
}

/// Returns `sync` (0 for a NULL handle).
///
/// # Safety
/// `opt` must be NULL or a live write options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writeoptions_get_sync(
    opt: *mut rocksdb_writeoptions_t,
) -> c_uchar {
    with("rocksdb_writeoptions_get_sync", opt, |o| {
        ffi::to_c_bool(o.wo.sync)
    })
}

/// Skips the WAL when `disable` is non-zero: such writes are lost on a crash.
///
/// # Safety
/// `opt` must be NULL or a live write options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writeoptions_disable_WAL(
    opt: *mut rocksdb_writeoptions_t,
    disable: c_int,
) {
    with("rocksdb_writeoptions_disable_WAL", opt, |o| {
        o.wo.disable_wal = disable != 0
    })
}

/// Returns `disable_WAL` (0 for a NULL handle).
///
/// # Safety
/// `opt` must be NULL or a live write options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writeoptions_get_disable_WAL(
    opt: *mut rocksdb_writeoptions_t,
) -> c_uchar {
    with("rocksdb_writeoptions_get_disable_WAL", opt, |o| {
        ffi::to_c_bool(o.wo.disable_wal)
    })
}

/// Records for column families that do not exist (dropped) are skipped instead of failing
/// the write.
///
/// # Safety
/// `opt` must be NULL or a live write options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writeoptions_set_ignore_missing_column_families(
    opt: *mut rocksdb_writeoptions_t,
    v: c_uchar,
) {
    with(
        "rocksdb_writeoptions_set_ignore_missing_column_families",
        opt,
        |o| o.wo.ignore_missing_column_families = ffi::c_bool(v),
    )
}

/// Returns `ignore_missing_column_families` (0 for a NULL handle).
///
/// # Safety
/// `opt` must be NULL or a live write options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writeoptions_get_ignore_missing_column_families(
    opt: *mut rocksdb_writeoptions_t,
) -> c_uchar {
    with(
        "rocksdb_writeoptions_get_ignore_missing_column_families",
        opt,
        |o| ffi::to_c_bool(o.wo.ignore_missing_column_families),
    )
}

/// Fail with `Incomplete` instead of waiting when the write would stall.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL or a live write options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writeoptions_set_no_slowdown(
    opt: *mut rocksdb_writeoptions_t,
    v: c_uchar,
) {
    with("rocksdb_writeoptions_set_no_slowdown", opt, |o| {
        o.wo.no_slowdown = ffi::c_bool(v)
    })
}

/// Returns `no_slowdown` (0 for a NULL handle).
///
/// # Safety
/// `opt` must be NULL or a live write options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writeoptions_get_no_slowdown(
    opt: *mut rocksdb_writeoptions_t,
) -> c_uchar {
    with("rocksdb_writeoptions_get_no_slowdown", opt, |o| {
        ffi::to_c_bool(o.wo.no_slowdown)
    })
}

/// Marks the write low priority (throttled first under compaction pressure).
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL or a live write options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writeoptions_set_low_pri(
    opt: *mut rocksdb_writeoptions_t,
    v: c_uchar,
) {
    with("rocksdb_writeoptions_set_low_pri", opt, |o| {
        o.wo.low_pri = ffi::c_bool(v)
    })
}

/// Returns `low_pri` (0 for a NULL handle).
///
/// # Safety
/// `opt` must be NULL or a live write options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writeoptions_get_low_pri(
    opt: *mut rocksdb_writeoptions_t,
) -> c_uchar {
    with("rocksdb_writeoptions_get_low_pri", opt, |o| {
        ffi::to_c_bool(o.wo.low_pri)
    })
}

/// Keeps a memtable insert hint per batch (helps batches of sequential keys).
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL or a live write options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writeoptions_set_memtable_insert_hint_per_batch(
    opt: *mut rocksdb_writeoptions_t,
    v: c_uchar,
) {
    with(
        "rocksdb_writeoptions_set_memtable_insert_hint_per_batch",
        opt,
        |o| o.memtable_insert_hint_per_batch = ffi::c_bool(v),
    )
}

/// Returns `memtable_insert_hint_per_batch` (0 for a NULL handle).
///
/// # Safety
/// `opt` must be NULL or a live write options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_writeoptions_get_memtable_insert_hint_per_batch(
    opt: *mut rocksdb_writeoptions_t,
) -> c_uchar {
    with(
        "rocksdb_writeoptions_get_memtable_insert_hint_per_batch",
        opt,
        |o| ffi::to_c_bool(o.memtable_insert_hint_per_batch),
    )
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
    fn setters_and_getters() {
        // SAFETY: each call gets the live handle made here, destroyed last.
        unsafe {
            let o = rocksdb_writeoptions_create();
            assert_eq!(rocksdb_writeoptions_get_disable_WAL(o), 0);
            rocksdb_writeoptions_disable_WAL(o, -5);
            assert_eq!(rocksdb_writeoptions_get_disable_WAL(o), 1);
            rocksdb_writeoptions_disable_WAL(o, 0);
            assert_eq!(rocksdb_writeoptions_get_disable_WAL(o), 0);
            for (set, get) in [
                (
                    rocksdb_writeoptions_set_sync as unsafe extern "C" fn(_, _),
                    rocksdb_writeoptions_get_sync as unsafe extern "C" fn(_) -> _,
                ),
                (
                    rocksdb_writeoptions_set_ignore_missing_column_families,
                    rocksdb_writeoptions_get_ignore_missing_column_families,
                ),
                (
                    rocksdb_writeoptions_set_no_slowdown,
                    rocksdb_writeoptions_get_no_slowdown,
                ),
                (
                    rocksdb_writeoptions_set_low_pri,
                    rocksdb_writeoptions_get_low_pri,
                ),
                (
                    rocksdb_writeoptions_set_memtable_insert_hint_per_batch,
                    rocksdb_writeoptions_get_memtable_insert_hint_per_batch,
                ),
            ] {
                assert_eq!(get(o), 0);
                set(o, 9);
                assert_eq!(get(o), 1);
                set(o, 0);
                assert_eq!(get(o), 0);
            }
            rocksdb_writeoptions_destroy(o);
            rocksdb_writeoptions_set_sync(ptr::null_mut(), 1);
            assert_eq!(rocksdb_writeoptions_get_sync(ptr::null_mut()), 0);
            rocksdb_writeoptions_destroy(ptr::null_mut());
        }
    }
}
