// SPDX-License-Identifier: Apache-2.0
//! `rocksdb_mergeoperator_*`: merge operators implemented by C callbacks, adapted to the
//! engine's [`MergeOperator`] trait (read path: `get` and iterators resolve merges; later
//! compaction).
//!
//! Callback contract (c-api-conventions.md §5): `full_merge` and `partial_merge` return a
//! buffer and its length and set `*success`. The adapter copies the buffer, then releases it
//! with `delete_value(state, ptr, len)`, or with libc `free()` when `delete_value` is NULL,
//! even when `*success` is 0. A failed full merge makes the read fail with
//! `Corruption: Error: Could not perform merge.`; a failed partial merge keeps the operands.
//!
//! Ownership moves to the options on `rocksdb_options_set_merge_operator` (the handle is
//! consumed, see `options::transfer`): the destructor runs when the last options or DB holding the operator drops it, or in
//! `rocksdb_mergeoperator_destroy` if it was never set.

use std::ffi::{c_char, c_int, c_uchar, c_void};
use std::sync::Arc;

use engine::merge::MergeOperator;

use crate::comparator::call_name;
use crate::ffi;
use crate::options::transfer::{self, TransferHandle};

type DestructorFn = unsafe extern "C" fn(*mut c_void);
type FullMergeFn = unsafe extern "C" fn(
    *mut c_void,
    *const c_char,
    usize,
    *const c_char,
    usize,
    *const *const c_char,
    *const usize,
    c_int,
    *mut c_uchar,
    *mut usize,
) -> *mut c_char;
type PartialMergeFn = unsafe extern "C" fn(
    *mut c_void,
    *const c_char,
    usize,
    *const *const c_char,
    *const usize,
    c_int,
    *mut c_uchar,
    *mut usize,
) -> *mut c_char;
type DeleteValueFn = unsafe extern "C" fn(*mut c_void, *const c_char, usize);

/// The adapter the engine holds.
pub(crate) struct CallbackMergeOperator {
    state: *mut c_void,
    destructor: Option<DestructorFn>,
    full_merge: FullMergeFn,
    partial_merge: Option<PartialMergeFn>,
    delete_value: Option<DeleteValueFn>,
    /// Read once from the `name` callback at creation.
    name: String,
}

// SAFETY: RocksDB's C API requires merge callbacks to be callable from any thread,
// concurrently (c-api-conventions.md §5); the Rust fields are immutable.
unsafe impl Send for CallbackMergeOperator {}
// SAFETY: as above.
unsafe impl Sync for CallbackMergeOperator {}

impl Drop for CallbackMergeOperator {
    fn drop(&mut self) {
        if let Some(d) = self.destructor {
            // SAFETY: the last reference is going, so this runs once, with the registered state.
            unsafe { d(self.state) };
        }
    }
}

/// Operand pointers and lengths in the layout the callbacks take.
fn operand_arrays(operands: &[&[u8]]) -> (Vec<*const c_char>, Vec<usize>) {
    operands
        .iter()
        .map(|o| (o.as_ptr().cast::<c_char>(), o.len()))
        .unzip()
}

impl CallbackMergeOperator {
    /// Copies a callback's result and releases it; Some only when `success` is set.
    fn take_result(&self, ptr: *mut c_char, len: usize, success: c_uchar) -> Option<Vec<u8>> {
        let copied = if ptr.is_null() {
            // A NULL result is an empty value if it claims no bytes, else unusable.
            (len == 0).then(Vec::new)
        } else if !ffi::array_len_ok::<u8>(len) {
            // No buffer is that long: a broken callback; the merge fails.
            None
        } else {
            // SAFETY: the callback returned `len` readable bytes at `ptr`.
            Some(unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len) }.to_vec())
        };
        if !ptr.is_null() {
            match self.delete_value {
                // SAFETY: releases the callback's own buffer with its own function, once.
                Some(d) => unsafe { d(self.state, ptr, len) },
                // SAFETY: with no `delete_value`, the contract is a malloc()ed buffer.
                None => unsafe { libc::free(ptr.cast()) },
            }
        }
        if success == 0 {
            None
        } else {
            copied
        }
    }
}

impl MergeOperator for CallbackMergeOperator {
    fn name(&self) -> &str {
        &self.name
    }

    fn full_merge(
        &self,
        key: &[u8],
        existing: Option<&[u8]>,
        operands: &[&[u8]],
    ) -> Option<Vec<u8>> {
        let (ptrs, lens) = operand_arrays(operands);
        let n = c_int::try_from(operands.len()).ok()?;
        let (eptr, elen) = existing.map_or((std::ptr::null(), 0), |e| (e.as_ptr().cast(), e.len()));
        let mut success: c_uchar = 0;
        let mut new_len: usize = 0;
        // SAFETY: the callback was registered with `state`, which lives until this adapter is
        // dropped; every pointer addresses the stated number of bytes or entries for the call.
        let out = unsafe {
            (self.full_merge)(
                self.state,
                key.as_ptr().cast(),
                key.len(),
                eptr,
                elen,
                ptrs.as_ptr(),
                lens.as_ptr(),
                n,
                &mut success,
                &mut new_len,
            )
        };
        self.take_result(out, new_len, success)
    }

    fn partial_merge(&self, key: &[u8], operands: &[&[u8]]) -> Option<Vec<u8>> {
        let f = self.partial_merge?;
        let (ptrs, lens) = operand_arrays(operands);
        let n = c_int::try_from(operands.len()).ok()?;
        let mut success: c_uchar = 0;
        let mut new_len: usize = 0;
        // SAFETY: as in `full_merge`.
        let out = unsafe {
            f(
                self.state,
                key.as_ptr().cast(),
                key.len(),
                ptrs.as_ptr(),
                lens.as_ptr(),
                n,
                &mut success,
                &mut new_len,
            )
        };
        self.take_result(out, new_len, success)
    }
}

/// A merge operator handle. Ownership: owned by the caller until
/// `rocksdb_options_set_merge_operator` consumes it (`options::transfer`).
pub struct rocksdb_mergeoperator_t {
    op: Arc<CallbackMergeOperator>,
}

impl TransferHandle for rocksdb_mergeoperator_t {
    type Object = CallbackMergeOperator;
    fn into_object(self) -> Arc<CallbackMergeOperator> {
        self.op
    }
}

/// Creates a merge operator from C callbacks (see the module doc for the buffer contract).
/// `partial_merge` and `delete_value` may be NULL; `full_merge` and `name` may not (NULL is
/// returned then). `destructor(state)` runs once, when the last holder drops the operator.
/// Set it on options with `rocksdb_options_set_merge_operator`, which takes ownership.
///
/// # Safety
/// The callbacks must be valid to call with `state`, from any thread, until the destructor.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_mergeoperator_create(
    state: *mut c_void,
    destructor: Option<unsafe extern "C" fn(*mut c_void)>,
    full_merge: Option<
        unsafe extern "C" fn(
            *mut c_void,
            *const c_char,
            usize,
            *const c_char,
            usize,
            *const *const c_char,
            *const usize,
            c_int,
            *mut c_uchar,
            *mut usize,
        ) -> *mut c_char,
    >,
    partial_merge: Option<
        unsafe extern "C" fn(
            *mut c_void,
            *const c_char,
            usize,
            *const *const c_char,
            *const usize,
            c_int,
            *mut c_uchar,
            *mut usize,
        ) -> *mut c_char,
    >,
    delete_value: Option<unsafe extern "C" fn(*mut c_void, *const c_char, usize)>,
    name: Option<unsafe extern "C" fn(*mut c_void) -> *const c_char>,
) -> *mut rocksdb_mergeoperator_t {
    ffi::guarded_no_err("rocksdb_mergeoperator_create", || {
        let full_merge =
            full_merge.ok_or_else(|| engine::Error::invalid_argument("full_merge is NULL"))?;
        // SAFETY: forwarded contract.
        let name = unsafe { call_name(name, state) }
            .ok_or_else(|| engine::Error::invalid_argument("merge operator name is NULL"))?;
        Ok(transfer::new_handle(rocksdb_mergeoperator_t {
            op: Arc::new(CallbackMergeOperator {
                state,
                destructor,
                full_merge,
                partial_merge,
                delete_value,
                name,
            }),
        }))
    })
}

/// Destroys a merge operator that was never set on options (its destructor runs). After it
/// was set, RocksDB forbids this; solistore then does nothing. NULL is a no-op.
///
/// # Safety
/// `mergeoperator` must be NULL or a live handle, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_mergeoperator_destroy(
    mergeoperator: *mut rocksdb_mergeoperator_t,
) {
    ffi::guarded_no_err("rocksdb_mergeoperator_destroy", || {
        // SAFETY: forwarded contract.
        unsafe { transfer::destroy(mergeoperator) };
        Ok(())
    })
}
