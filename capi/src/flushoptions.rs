// SPDX-License-Identifier: Apache-2.0
//! `rocksdb_flushoptions_*`: options of a manual memtable flush (background path), read by
//! `rocksdb_flush*` (`db::maintenance`), which honour `wait`.

use std::ffi::c_uchar;

use crate::ffi;

/// Options for `rocksdb_flush*`. Ownership: owned by the caller
/// (`rocksdb_flushoptions_create` / `rocksdb_flushoptions_destroy`).
#[derive(Clone, Debug)]
pub struct rocksdb_flushoptions_t {
    /// Wait for the flush to finish (RocksDB's default: true).
    pub(crate) wait: bool,
}

/// Creates flush options (`wait` on). Returns a handle owned by the caller; release it with
/// `rocksdb_flushoptions_destroy`. Never NULL.
///
/// # Safety
/// No preconditions.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_flushoptions_create() -> *mut rocksdb_flushoptions_t {
    ffi::guarded_no_err("rocksdb_flushoptions_create", || {
        Ok(ffi::into_handle(rocksdb_flushoptions_t { wait: true }))
    })
}

/// Destroys flush options. NULL is a no-op.
///
/// # Safety
/// `opt` must be NULL or a handle from `rocksdb_flushoptions_create`, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_flushoptions_destroy(opt: *mut rocksdb_flushoptions_t) {
    ffi::guarded_no_err("rocksdb_flushoptions_destroy", || {
        // SAFETY: per this function's contract.
        drop(unsafe { ffi::from_handle(opt) });
        Ok(())
    })
}

/// Whether a flush waits for completion (`rocksdb_flush*` honour it: with 0 they return once
/// the memtables are switched and the tables are being written in the background).
///
/// # Safety
/// `opt` must be NULL or a live flush options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_flushoptions_set_wait(
    opt: *mut rocksdb_flushoptions_t,
    v: c_uchar,
) {
    ffi::guarded_no_err("rocksdb_flushoptions_set_wait", || {
        // SAFETY: per this function's contract; NULL is checked.
        unsafe { ffi::borrow_mut(opt, "options")? }.wait = ffi::c_bool(v);
        Ok(())
    })
}

/// Returns `wait` (0 for a NULL handle).
///
/// # Safety
/// `opt` must be NULL or a live flush options handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_flushoptions_get_wait(
    opt: *mut rocksdb_flushoptions_t,
) -> c_uchar {
    ffi::guarded_no_err("rocksdb_flushoptions_get_wait", || {
        // SAFETY: per this function's contract; NULL is checked.
        Ok(ffi::to_c_bool(unsafe { ffi::borrow(opt, "options")? }.wait))
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
    fn wait_defaults_on_and_round_trips() {
        // SAFETY: the live handle made here, destroyed last; NULL is checked.
        unsafe {
            let o = rocksdb_flushoptions_create();
            assert_eq!(rocksdb_flushoptions_get_wait(o), 1);
            rocksdb_flushoptions_set_wait(o, 0);
            assert_eq!(rocksdb_flushoptions_get_wait(o), 0);
            rocksdb_flushoptions_destroy(o);
            assert_eq!(rocksdb_flushoptions_get_wait(ptr::null_mut()), 0);
            rocksdb_flushoptions_destroy(ptr::null_mut());
        }
    }
}
