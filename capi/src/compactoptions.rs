// SPDX-License-Identifier: Apache-2.0
//! `rocksdb_compactoptions_*`: options of a manual compaction (`rocksdb_compact_range*_opt`,
//! background path). Defaults are RocksDB 7.8.3's `CompactRangeOptions` (checked against
//! Debian's librocksdb 7.8.3): not exclusive, bottommost level compacted when there is a
//! compaction filter, no level change, target level -1.
//!
//! The engine's manual compaction always compacts the whole range down to one level,
//! bottommost level included, one compaction at a time per DB, so most of these are kept
//! for their getters only.

use std::ffi::{c_char, c_int, c_uchar};

use crate::ffi;
use crate::options::{get, set};

/// `BottommostLevelCompaction::kIfHaveCompactionFilter`, RocksDB's default.
const BOTTOMMOST_IF_HAVE_COMPACTION_FILTER: c_uchar = 1;

/// Options for `rocksdb_compact_range*_opt`. Ownership: owned by the caller
/// (`rocksdb_compactoptions_create` / `rocksdb_compactoptions_destroy`); the compaction
/// functions only read it.
#[derive(Clone, Debug)]
pub struct rocksdb_compactoptions_t {
    pub(crate) exclusive_manual_compaction: bool,
    /// `BottommostLevelCompaction`: 0 skip, 1 if a compaction filter is set, 2 force,
    /// 3 force optimized.
    pub(crate) bottommost_level_compaction: c_uchar,
    pub(crate) change_level: bool,
    pub(crate) target_level: c_int,
    pub(crate) target_path_id: c_int,
    pub(crate) allow_write_stall: bool,
    pub(crate) max_subcompactions: c_int,
    /// Empty until `rocksdb_compactoptions_set_full_history_ts_low`.
    pub(crate) full_history_ts_low: Vec<u8>,
}

impl Default for rocksdb_compactoptions_t {
    fn default() -> Self {
        rocksdb_compactoptions_t {
            exclusive_manual_compaction: false,
            bottommost_level_compaction: BOTTOMMOST_IF_HAVE_COMPACTION_FILTER,
            change_level: false,
            target_level: -1,
            target_path_id: 0,
            allow_write_stall: false,
            max_subcompactions: 0,
            full_history_ts_low: Vec::new(),
        }
    }
}

/// Creates compaction options with RocksDB's defaults. Release with
/// `rocksdb_compactoptions_destroy`. Never NULL.
///
/// # Safety
/// No pointer arguments: always safe to call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_compactoptions_create() -> *mut rocksdb_compactoptions_t {
    ffi::guarded_no_err("rocksdb_compactoptions_create", || {
        Ok(ffi::into_handle(rocksdb_compactoptions_t::default()))
    })
}

/// Destroys compaction options. NULL is a no-op.
///
/// # Safety
/// `opt` must be NULL or a live handle, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_compactoptions_destroy(opt: *mut rocksdb_compactoptions_t) {
    ffi::guarded_no_err("rocksdb_compactoptions_destroy", || {
        // SAFETY: forwarded contract.
        drop(unsafe { ffi::from_handle(opt) });
        Ok(())
    })
}

/// Sets whether the compaction excludes automatic compactions while it runs. The engine
/// runs one compaction at a time per DB anyway.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_compactoptions_set_exclusive_manual_compaction(
    opt: *mut rocksdb_compactoptions_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            opt,
            "rocksdb_compactoptions_set_exclusive_manual_compaction",
            |o| o.exclusive_manual_compaction = ffi::c_bool(v),
        )
    }
}

/// Returns `exclusive_manual_compaction` (default 0). 0 for NULL.
///
/// # Safety
/// `opt` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_compactoptions_get_exclusive_manual_compaction(
    opt: *mut rocksdb_compactoptions_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            opt.cast_const(),
            "rocksdb_compactoptions_get_exclusive_manual_compaction",
            |o| ffi::to_c_bool(o.exclusive_manual_compaction),
        )
    }
}

/// Sets how the bottommost level is compacted (0 skip, 1 if a compaction filter is set,
/// 2 force, 3 force optimized). The engine always compacts it.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_compactoptions_set_bottommost_level_compaction(
    opt: *mut rocksdb_compactoptions_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            opt,
            "rocksdb_compactoptions_set_bottommost_level_compaction",
            |o| o.bottommost_level_compaction = v,
        )
    }
}

/// Returns `bottommost_level_compaction` (default 1). 0 for NULL.
///
/// # Safety
/// `opt` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_compactoptions_get_bottommost_level_compaction(
    opt: *mut rocksdb_compactoptions_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            opt.cast_const(),
            "rocksdb_compactoptions_get_bottommost_level_compaction",
            |o| o.bottommost_level_compaction,
        )
    }
}

/// Sets whether the compacted files move to `target_level`. The engine leaves them where
/// the compaction puts them.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_compactoptions_set_change_level(
    opt: *mut rocksdb_compactoptions_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_compactoptions_set_change_level", |o| {
            o.change_level = ffi::c_bool(v)
        })
    }
}

/// Returns `change_level` (default 0). 0 for NULL.
///
/// # Safety
/// `opt` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_compactoptions_get_change_level(
    opt: *mut rocksdb_compactoptions_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            opt.cast_const(),
            "rocksdb_compactoptions_get_change_level",
            |o| ffi::to_c_bool(o.change_level),
        )
    }
}

/// Sets the level the files move to with `change_level` (-1: the lowest level that fits).
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_compactoptions_set_target_level(
    opt: *mut rocksdb_compactoptions_t,
    n: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_compactoptions_set_target_level", |o| {
            o.target_level = n
        })
    }
}

/// Returns `target_level` (default -1). 0 for NULL.
///
/// # Safety
/// `opt` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_compactoptions_get_target_level(
    opt: *mut rocksdb_compactoptions_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            opt.cast_const(),
            "rocksdb_compactoptions_get_target_level",
            |o| o.target_level,
        )
    }
}

/// Sets the `db_paths` entry the output goes to. solistore writes every table in the DB
/// directory.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_compactoptions_set_target_path_id(
    opt: *mut rocksdb_compactoptions_t,
    n: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_compactoptions_set_target_path_id", |o| {
            o.target_path_id = n
        })
    }
}

/// Returns `target_path_id` (default 0). 0 for NULL.
///
/// # Safety
/// `opt` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_compactoptions_get_target_path_id(
    opt: *mut rocksdb_compactoptions_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            opt.cast_const(),
            "rocksdb_compactoptions_get_target_path_id",
            |o| o.target_path_id,
        )
    }
}

/// Sets whether the compaction may run while writes are stalled. The engine does not stall
/// manual compactions.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_compactoptions_set_allow_write_stall(
    opt: *mut rocksdb_compactoptions_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_compactoptions_set_allow_write_stall", |o| {
            o.allow_write_stall = ffi::c_bool(v)
        })
    }
}

/// Returns `allow_write_stall` (default 0). 0 for NULL.
///
/// # Safety
/// `opt` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_compactoptions_get_allow_write_stall(
    opt: *mut rocksdb_compactoptions_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            opt.cast_const(),
            "rocksdb_compactoptions_get_allow_write_stall",
            |o| ffi::to_c_bool(o.allow_write_stall),
        )
    }
}

/// Sets the number of subcompactions (0: the DB's `max_subcompactions`). The engine runs each
/// compaction on one thread.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_compactoptions_set_max_subcompactions(
    opt: *mut rocksdb_compactoptions_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_compactoptions_set_max_subcompactions", |o| {
            o.max_subcompactions = v
        })
    }
}

/// Returns `max_subcompactions` (default 0). 0 for NULL.
///
/// # Safety
/// `opt` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_compactoptions_get_max_subcompactions(
    opt: *mut rocksdb_compactoptions_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            opt.cast_const(),
            "rocksdb_compactoptions_get_max_subcompactions",
            |o| o.max_subcompactions,
        )
    }
}

/// Sets the timestamp below which history may be dropped (copied). solistore has no
/// user-defined timestamps.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live handle; `ts` must address `tslen` bytes (or be NULL
/// with `tslen` 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_compactoptions_set_full_history_ts_low(
    opt: *mut rocksdb_compactoptions_t,
    ts: *mut c_char,
    tslen: usize,
) {
    ffi::guarded_no_err("rocksdb_compactoptions_set_full_history_ts_low", || {
        // SAFETY: forwarded contract.
        let ts = unsafe { ffi::bytes(ts, tslen)? }.to_vec();
        // SAFETY: forwarded contract.
        unsafe { ffi::borrow_mut(opt, "opt")? }.full_history_ts_low = ts;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[expect(
        clippy::multiple_unsafe_ops_per_block,
        reason = "drives the C API as a C caller does; one contract covers the calls"
    )]
    fn defaults_setters_and_null() {
        // SAFETY: the handle is created, used and destroyed here; NULLs are allowed.
        unsafe {
            let o = rocksdb_compactoptions_create();
            assert_eq!(rocksdb_compactoptions_get_exclusive_manual_compaction(o), 0);
            assert_eq!(rocksdb_compactoptions_get_bottommost_level_compaction(o), 1);
            assert_eq!(rocksdb_compactoptions_get_change_level(o), 0);
            assert_eq!(rocksdb_compactoptions_get_target_level(o), -1);
            assert_eq!(rocksdb_compactoptions_get_target_path_id(o), 0);
            assert_eq!(rocksdb_compactoptions_get_allow_write_stall(o), 0);
            assert_eq!(rocksdb_compactoptions_get_max_subcompactions(o), 0);
            rocksdb_compactoptions_set_exclusive_manual_compaction(o, 7);
            rocksdb_compactoptions_set_bottommost_level_compaction(o, 2);
            rocksdb_compactoptions_set_change_level(o, 1);
            rocksdb_compactoptions_set_target_level(o, 3);
            rocksdb_compactoptions_set_target_path_id(o, 1);
            rocksdb_compactoptions_set_allow_write_stall(o, 1);
            rocksdb_compactoptions_set_max_subcompactions(o, 4);
            let mut ts = *b"ts";
            rocksdb_compactoptions_set_full_history_ts_low(o, ts.as_mut_ptr().cast(), 2);
            assert_eq!(rocksdb_compactoptions_get_exclusive_manual_compaction(o), 1);
            assert_eq!(rocksdb_compactoptions_get_bottommost_level_compaction(o), 2);
            assert_eq!(rocksdb_compactoptions_get_change_level(o), 1);
            assert_eq!(rocksdb_compactoptions_get_target_level(o), 3);
            assert_eq!(rocksdb_compactoptions_get_target_path_id(o), 1);
            assert_eq!(rocksdb_compactoptions_get_allow_write_stall(o), 1);
            assert_eq!(rocksdb_compactoptions_get_max_subcompactions(o), 4);
            assert_eq!((&*o).full_history_ts_low, b"ts");
            rocksdb_compactoptions_destroy(o);
            rocksdb_compactoptions_set_target_level(std::ptr::null_mut(), 1);
            assert_eq!(
                rocksdb_compactoptions_get_target_level(std::ptr::null_mut()),
                0
            );
            rocksdb_compactoptions_destroy(std::ptr::null_mut());
        }
    }
}
