// SPDX-License-Identifier: Apache-2.0
//! `rocksdb_comparator_*`: user-key comparators implemented by C callbacks, adapted to the
//! engine's [`Comparator`] trait (read and write paths: memtable order, iterators, and the
//! name persisted in the MANIFEST).
//!
//! Ownership is borrowed (c-api-conventions.md §4–5): `rocksdb_options_set_comparator` keeps a
//! share of the adapter, and the caller calls `rocksdb_comparator_destroy` once no DB uses
//! the comparator any more. That call runs the C destructor immediately and exactly once, as
//! RocksDB's `delete` does. The engine may still hold the adapter afterwards (options not yet
//! destroyed, a DB handle not yet dropped); the adapter then never calls into the destroyed
//! `state` again: it falls back to bytewise order, so a caller that broke the contract gets
//! wrong order instead of a use-after-free.
//!
//! No key shortening: the separator and successor hooks are the trait's no-op defaults, as in
//! RocksDB's C comparator.

use std::cmp::Ordering;
use std::ffi::{c_char, c_int, c_void, CStr};
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::sync::Arc;

use engine::key::Comparator;

use crate::ffi;

type CompareFn =
    unsafe extern "C" fn(*mut c_void, *const c_char, usize, *const c_char, usize) -> c_int;
type DestructorFn = unsafe extern "C" fn(*mut c_void);
type NameFn = unsafe extern "C" fn(*mut c_void) -> *const c_char;

/// Calls a C `name(state)` callback and copies the string; None when the callback or its
/// result is NULL. Invalid UTF-8 is replaced (the name is compared as text by the MANIFEST).
///
/// # Safety
/// `name` must be callable with `state` and return NULL or a NUL-terminated string.
pub(crate) unsafe fn call_name(name: Option<NameFn>, state: *mut c_void) -> Option<String> {
    let f = name?;
    // SAFETY: per the contract.
    let p = unsafe { f(state) };
    if p.is_null() {
        return None;
    }
    // SAFETY: non-NULL and NUL-terminated per the contract.
    Some(unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
}

/// The adapter the engine holds.
pub(crate) struct CallbackComparator {
    state: *mut c_void,
    compare: CompareFn,
    destructor: Option<DestructorFn>,
    /// The name, read once from the `name` callback at creation (validated non-NULL).
    name: String,
    /// Set once `rocksdb_comparator_destroy` ran the destructor; `state` is dead after.
    retired: AtomicBool,
}

// SAFETY: RocksDB's C API requires comparator callbacks to be callable from any thread,
// concurrently (c-api-conventions.md §5: "Callbacks may run on background flush or compaction
// threads, and concurrently, so `state` must be thread-safe"); the Rust fields are immutable
// or atomic.
unsafe impl Send for CallbackComparator {}
// SAFETY: as above.
unsafe impl Sync for CallbackComparator {}

impl CallbackComparator {
    /// Runs the C destructor once; later compares no longer touch `state`.
    fn retire(&self) {
        if !self.retired.swap(true, AtomicOrdering::AcqRel) {
            if let Some(d) = self.destructor {
                // SAFETY: the destructor is called once (guarded by `retired`) with the state
                // it was registered with, as the C contract requires.
                unsafe { d(self.state) };
            }
        }
    }
}

impl Comparator for CallbackComparator {
    fn name(&self) -> &str {
        &self.name
    }

    fn compare(&self, a: &[u8], b: &[u8]) -> Ordering {
        if self.retired.load(AtomicOrdering::Acquire) {
            // The caller destroyed the comparator while still using it; never touch `state`.
            return a.cmp(b);
        }
        // SAFETY: `compare` was supplied with `state` by the caller, who keeps it alive until
        // `rocksdb_comparator_destroy` (checked above); the slices outlive the call.
        let r = unsafe {
            (self.compare)(
                self.state,
                a.as_ptr().cast(),
                a.len(),
                b.as_ptr().cast(),
                b.len(),
            )
        };
        r.cmp(&0)
    }
}

/// A comparator handle. Ownership: owned by the caller (`rocksdb_comparator_create` /
/// `rocksdb_comparator_destroy`) and borrowed by options and DBs.
pub struct rocksdb_comparator_t {
    inner: Arc<CallbackComparator>,
}

impl rocksdb_comparator_t {
    /// The share that `rocksdb_options_set_comparator` stores in the options.
    pub(crate) fn engine_comparator(&self) -> Arc<dyn Comparator> {
        Arc::clone(&self.inner) as Arc<dyn Comparator>
    }
}

impl Drop for rocksdb_comparator_t {
    fn drop(&mut self) {
        self.inner.retire();
    }
}

/// Creates a comparator from C callbacks: `compare(state, a, alen, b, blen)` returns a
/// negative, zero or positive int; `name(state)` returns a NUL-terminated string (read once here and persisted with the
/// DB); `destructor(state)` (may be NULL) runs once, in `rocksdb_comparator_destroy`.
/// Returns NULL when `compare` or `name` is NULL or `name` returns NULL. The callbacks must be
/// thread-safe. Borrowed by options: destroy it only after every DB using it is closed.
///
/// # Safety
/// The callbacks must be valid to call with `state` until `rocksdb_comparator_destroy`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_comparator_create(
    state: *mut c_void,
    destructor: Option<unsafe extern "C" fn(*mut c_void)>,
    compare: Option<
        unsafe extern "C" fn(*mut c_void, *const c_char, usize, *const c_char, usize) -> c_int,
    >,
    name: Option<unsafe extern "C" fn(*mut c_void) -> *const c_char>,
) -> *mut rocksdb_comparator_t {
    ffi::guarded_no_err("rocksdb_comparator_create", || {
        let compare = compare.ok_or_else(|| engine::Error::invalid_argument("compare is NULL"))?;
        // SAFETY: forwarded contract.
        let name = unsafe { call_name(name, state) }
            .ok_or_else(|| engine::Error::invalid_argument("comparator name is NULL"))?;
        Ok(ffi::into_handle(rocksdb_comparator_t {
            inner: Arc::new(CallbackComparator {
                state,
                compare,
                destructor,
                name,
                retired: AtomicBool::new(false),
            }),
        }))
    })
}

/// Destroys a comparator: runs its destructor (once) and frees the handle. Call it only after
/// every DB using the comparator is closed. NULL is a no-op.
///
/// # Safety
/// `comparator` must be NULL or a live comparator, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_comparator_destroy(comparator: *mut rocksdb_comparator_t) {
    ffi::guarded_no_err("rocksdb_comparator_destroy", || {
        // SAFETY: forwarded contract.
        drop(unsafe { ffi::from_handle(comparator) });
        Ok(())
    })
}
