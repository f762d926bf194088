// SPDX-License-Identifier: Apache-2.0
//! Objects whose ownership C hands to the options when it sets them (merge operator, prefix
//! extractor, filter policy, compaction filter factory; c-api-conventions.md §4) (config path).
//!
//! RocksDB frees such a handle's wrapper when it is set, and the object lives as long as the
//! options and DBs that hold it. Setting therefore consumes the handle here too: the handle's
//! `Box` is freed and its `Arc` goes to the options, so a correct caller (c_test never destroys
//! an installed object) leaks nothing and the C destructor runs when the last holder drops.
//!
//! Two caller mistakes that RocksDB turns into double frees are made harmless by remembering
//! consumed handle addresses (with a `Weak` to their object) in a process-wide table:
//! - destroying a handle after setting it is a no-op;
//! - setting the same handle again shares the object while it is alive.
//!
//! A handle created at an address that a consumed handle once had replaces the old entry
//! ([`new_handle`]), so a live handle is never mistaken for a consumed one. The table holds
//! one small entry per consumed address; the objects themselves are freed normally.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, Weak};

use crate::ffi;

/// A handle type whose object moves into the options when set.
pub(crate) trait TransferHandle: Sized + 'static {
    type Object: Send + Sync + 'static;
    fn into_object(self) -> Arc<Self::Object>;
}

type Key = (TypeId, usize);

fn consumed() -> &'static Mutex<HashMap<Key, Box<dyn Any + Send>>> {
    static CONSUMED: OnceLock<Mutex<HashMap<Key, Box<dyn Any + Send>>>> = OnceLock::new();
    CONSUMED.get_or_init(|| Mutex::new(HashMap::new()))
}

fn key<H: 'static>(h: *mut H) -> Key {
    (TypeId::of::<H>(), h as usize)
}

/// Boxes a new handle for C, forgetting any consumed handle that had the same address.
pub(crate) fn new_handle<H: TransferHandle>(handle: H) -> *mut H {
    let p = ffi::into_handle(handle);
    if let Ok(mut table) = consumed().lock() {
        table.remove(&key(p));
    }
    p
}

/// Takes the object out of a handle being set on options (the first time: the handle is
/// freed), or shares the object of a handle set before. None for NULL, or when a handle set
/// before has had its object dropped already.
///
/// # Safety
/// `handle` must be NULL, a live handle of type `H`, or one this function consumed.
pub(crate) unsafe fn install<H: TransferHandle>(handle: *mut H) -> Option<Arc<H::Object>> {
    if handle.is_null() {
        return None;
    }
    let mut table = consumed().lock().ok()?;
    if let Some(weak) = table.get(&key(handle)) {
        return weak
            .downcast_ref::<Weak<H::Object>>()
            .and_then(Weak::upgrade);
    }
    // SAFETY: not in the table, so a live handle from `new_handle` (the contract), freed here
    // and recorded as consumed before the lock is released.
    let object = unsafe { ffi::from_handle(handle) }?.into_object();
    table.insert(key(handle), Box::new(Arc::downgrade(&object)));
    Some(object)
}

/// Destroys a handle that was never set (its object drops, running the C destructor when
/// nothing else holds it); a consumed handle is left alone. NULL is a no-op.
///
/// # Safety
/// `handle` must be NULL, a live handle of type `H`, or one [`install`] consumed.
pub(crate) unsafe fn destroy<H: TransferHandle>(handle: *mut H) {
    if handle.is_null() {
        return;
    }
    if let Ok(table) = consumed().lock() {
        if table.contains_key(&key(handle)) {
            return;
        }
    }
    // SAFETY: not consumed, so a live handle per the contract; not used again.
    drop(unsafe { ffi::from_handle(handle) });
}
