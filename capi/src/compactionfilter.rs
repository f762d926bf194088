// SPDX-License-Identifier: Apache-2.0
//! `rocksdb_compactionfilter_*`, `rocksdb_compactionfilterfactory_*`,
//! `rocksdb_compactionfiltercontext_*`: compaction filters implemented by C callbacks
//! (background path). [`CallbackCompactionFilter`] and [`CallbackCompactionFilterFactory`]
//! implement the engine's `CompactionFilter` and `CompactionFilterFactory`; `rocksdb_open*`
//! puts them in the column family options, and every compaction then calls the C callbacks
//! (from the compaction's thread).
//!
//! Ownership (c-api-conventions.md §4–5):
//! - a filter set with `rocksdb_options_set_compaction_filter` is borrowed: the caller
//!   destroys it after use, and `rocksdb_compactionfilter_destroy` runs the destructor once,
//!   then. As with comparators, the engine may still hold the adapter, which from then on
//!   keeps every entry instead of calling into the dead `state`;
//! - a filter returned by a factory's callback belongs to the library, which destroys it
//!   (running its destructor) when that compaction ends: the engine drops the filter
//!   [`CompactionFilterFactory::create`] gives it;
//! - a factory's ownership moves to the options (the handle is consumed, see
//!   `options::transfer`); its destructor runs when
//!   the last holder drops it.

use std::ffi::{c_char, c_int, c_uchar, c_void};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

pub(crate) use engine::compaction::filter::{
    CompactionFilter, CompactionFilterFactory, Decision as FilterDecision, FilterContext,
};

use crate::comparator::call_name;
use crate::ffi;
use crate::options::get;
use crate::options::transfer::{self, TransferHandle};

type DestructorFn = unsafe extern "C" fn(*mut c_void);
type FilterFn = unsafe extern "C" fn(
    *mut c_void,
    c_int,
    *const c_char,
    usize,
    *const c_char,
    usize,
    *mut *mut c_char,
    *mut usize,
    *mut c_uchar,
) -> c_uchar;
type CreateFilterFn = unsafe extern "C" fn(
    *mut c_void,
    *mut rocksdb_compactionfiltercontext_t,
) -> *mut rocksdb_compactionfilter_t;

/// The adapter compaction calls.
pub(crate) struct CallbackCompactionFilter {
    state: *mut c_void,
    destructor: Option<DestructorFn>,
    filter: FilterFn,
    name: String,
    /// RocksDB's default is true (c.cc sets it at creation).
    ignore_snapshots: AtomicBool,
    /// Set once the destructor ran; `state` is dead after.
    retired: AtomicBool,
}

// SAFETY: the C API requires compaction filter callbacks to be callable from background
// threads, concurrently (c-api-conventions.md §5); the Rust fields are immutable or atomic.
unsafe impl Send for CallbackCompactionFilter {}
// SAFETY: as above.
unsafe impl Sync for CallbackCompactionFilter {}

impl CompactionFilter for CallbackCompactionFilter {
    fn name(&self) -> &str {
        &self.name
    }

    /// `rocksdb_compactionfilter_set_ignore_snapshots`: with false, the engine does not offer
    /// the filter values a live snapshot still sees.
    fn ignore_snapshots(&self) -> bool {
        self.ignore_snapshots.load(Ordering::Relaxed)
    }

    /// Asks the C filter about one entry at `level`. A new value is copied and never freed
    /// (the contract: it may point at a string literal).
    fn filter(&self, level: usize, key: &[u8], value: &[u8]) -> FilterDecision {
        if self.retired.load(Ordering::Acquire) {
            return FilterDecision::Keep;
        }
        let level = c_int::try_from(level).unwrap_or(c_int::MAX);
        let mut new_value: *mut c_char = std::ptr::null_mut();
        let mut new_len: usize = 0;
        let mut changed: c_uchar = 0;
        // SAFETY: the callback was registered with `state`, alive until `retired`; the slices
        // and out-parameters are valid for the call.
        let remove = unsafe {
            (self.filter)(
                self.state,
                level,
                key.as_ptr().cast(),
                key.len(),
                value.as_ptr().cast(),
                value.len(),
                &mut new_value,
                &mut new_len,
                &mut changed,
            )
        };
        if remove != 0 {
            FilterDecision::Remove
        } else if changed != 0 {
            if new_value.is_null() {
                return FilterDecision::ChangeValue(Vec::new());
            }
            if !ffi::array_len_ok::<u8>(new_len) {
                // No buffer is that long: a broken callback; keep the value as it was.
                return FilterDecision::Keep;
            }
            // SAFETY: the callback set `new_value` to `new_len` readable bytes.
            let v = unsafe { std::slice::from_raw_parts(new_value.cast::<u8>(), new_len) };
            FilterDecision::ChangeValue(v.to_vec())
        } else {
            FilterDecision::Keep
        }
    }
}

impl CallbackCompactionFilter {
    fn retire(&self) {
        if !self.retired.swap(true, Ordering::AcqRel) {
            if let Some(d) = self.destructor {
                // SAFETY: runs once (guarded by `retired`) with the registered state.
                unsafe { d(self.state) };
            }
        }
    }
}

/// A compaction filter handle. Ownership: owned by the caller (`_create` / `_destroy`) and
/// borrowed by options; or, when a factory callback returns it, owned by the library.
pub struct rocksdb_compactionfilter_t {
    pub(crate) inner: Arc<CallbackCompactionFilter>,
}

impl Drop for rocksdb_compactionfilter_t {
    fn drop(&mut self) {
        self.inner.retire();
    }
}

/// Creates a compaction filter from C callbacks: `filter(state, level, key, klen, value,
/// vlen, &new_value, &new_len, &value_changed)` returns non-zero to drop the entry, or sets
/// `*value_changed` and points `*new_value` at replacement bytes (copied, never freed).
/// Returns NULL when `filter` or `name` is NULL. `destructor(state)` runs once, in
/// `rocksdb_compactionfilter_destroy`. Snapshots are ignored by default.
///
/// # Safety
/// The callbacks must be valid to call with `state`, from any thread, until the destroy.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_compactionfilter_create(
    state: *mut c_void,
    destructor: Option<unsafe extern "C" fn(*mut c_void)>,
    filter: Option<
        unsafe extern "C" fn(
            *mut c_void,
            c_int,
            *const c_char,
            usize,
            *const c_char,
            usize,
            *mut *mut c_char,
            *mut usize,
            *mut c_uchar,
        ) -> c_uchar,
    >,
    name: Option<unsafe extern "C" fn(*mut c_void) -> *const c_char>,
) -> *mut rocksdb_compactionfilter_t {
    ffi::guarded_no_err("rocksdb_compactionfilter_create", || {
        let filter = filter.ok_or_else(|| engine::Error::invalid_argument("filter is NULL"))?;
        // SAFETY: forwarded contract.
        let name = unsafe { call_name(name, state) }
            .ok_or_else(|| engine::Error::invalid_argument("compaction filter name is NULL"))?;
        Ok(ffi::into_handle(rocksdb_compactionfilter_t {
            inner: Arc::new(CallbackCompactionFilter {
                state,
                destructor,
                filter,
                name,
                ignore_snapshots: AtomicBool::new(true),
                retired: AtomicBool::new(false),
            }),
        }))
    })
}

/// Sets whether the filter may drop or change entries that a snapshot still sees (default
/// 1). With 0, compactions keep such entries unfiltered. (RocksDB 7.8.3 fails compactions of
/// such a filter with `Not supported`; solistore honours the old meaning instead.)
///
/// # Safety
/// `compactionfilter` must be NULL (ignored) or a live filter.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_compactionfilter_set_ignore_snapshots(
    compactionfilter: *mut rocksdb_compactionfilter_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            compactionfilter.cast_const(),
            "rocksdb_compactionfilter_set_ignore_snapshots",
            |f| {
                f.inner
                    .ignore_snapshots
                    .store(ffi::c_bool(v), Ordering::Relaxed)
            },
        )
    }
}

/// Destroys a compaction filter: runs its destructor (once) and frees the handle. Call it
/// only after every DB using the filter is closed. NULL is a no-op.
///
/// # Safety
/// `compactionfilter` must be NULL or a live filter owned by the caller, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_compactionfilter_destroy(
    compactionfilter: *mut rocksdb_compactionfilter_t,
) {
    ffi::guarded_no_err("rocksdb_compactionfilter_destroy", || {
        // SAFETY: forwarded contract.
        drop(unsafe { ffi::from_handle(compactionfilter) });
        Ok(())
    })
}

/// What a factory is told about the compaction it makes a filter for.
#[derive(Debug, Clone, Copy, Default)]
pub struct rocksdb_compactionfiltercontext_t {
    pub(crate) is_full_compaction: bool,
    pub(crate) is_manual_compaction: bool,
}

/// Whether the compaction reads every file.
///
/// # Safety
/// `context` must be NULL (0) or the context passed to a factory callback.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_compactionfiltercontext_is_full_compaction(
    context: *mut rocksdb_compactionfiltercontext_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            context.cast_const(),
            "rocksdb_compactionfiltercontext_is_full_compaction",
            |c| ffi::to_c_bool(c.is_full_compaction),
        )
    }
}

/// Whether the compaction was requested by the application.
///
/// # Safety
/// `context` must be NULL (0) or the context passed to a factory callback.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_compactionfiltercontext_is_manual_compaction(
    context: *mut rocksdb_compactionfiltercontext_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            context.cast_const(),
            "rocksdb_compactionfiltercontext_is_manual_compaction",
            |c| ffi::to_c_bool(c.is_manual_compaction),
        )
    }
}

/// The factory adapter compaction calls.
pub(crate) struct CallbackCompactionFilterFactory {
    state: *mut c_void,
    destructor: Option<DestructorFn>,
    create: CreateFilterFn,
    name: String,
}

// SAFETY: as for `CallbackCompactionFilter`.
unsafe impl Send for CallbackCompactionFilterFactory {}
// SAFETY: as above.
unsafe impl Sync for CallbackCompactionFilterFactory {}

impl Drop for CallbackCompactionFilterFactory {
    fn drop(&mut self) {
        if let Some(d) = self.destructor {
            // SAFETY: the last reference is going: runs once, with the registered state.
            unsafe { d(self.state) };
        }
    }
}

impl CallbackCompactionFilterFactory {
    /// Asks the C factory for a filter for one compaction. The library owns the result:
    /// dropping the box when the compaction ends runs the filter's destructor. None when the
    /// callback returns NULL (no filtering).
    pub(crate) fn create_filter(
        &self,
        mut context: rocksdb_compactionfiltercontext_t,
    ) -> Option<Box<rocksdb_compactionfilter_t>> {
        // SAFETY: the callback was registered with `state`, alive until this adapter drops;
        // `context` outlives the call.
        let f = unsafe { (self.create)(self.state, &mut context) };
        // SAFETY: the callback returns NULL or a filter from `rocksdb_compactionfilter_create`,
        // whose ownership passes to the library.
        unsafe { ffi::from_handle(f) }
    }
}

impl CompactionFilterFactory for CallbackCompactionFilterFactory {
    fn name(&self) -> &str {
        &self.name
    }

    /// One filter per compaction, from the C callback; the engine drops it when the
    /// compaction ends, which destroys the C filter.
    fn create(&self, context: &FilterContext) -> Option<Box<dyn CompactionFilter>> {
        let filter = self.create_filter(rocksdb_compactionfiltercontext_t {
            is_full_compaction: context.is_full_compaction,
            is_manual_compaction: context.is_manual_compaction,
        })?;
        Some(Box::new(OwnedFilter(filter)))
    }
}

/// A filter a factory made: the library's handle, destroyed (running the C destructor) when
/// the compaction that asked for it drops it.
struct OwnedFilter(Box<rocksdb_compactionfilter_t>);

impl CompactionFilter for OwnedFilter {
    fn name(&self) -> &str {
        self.0.inner.name()
    }
    fn ignore_snapshots(&self) -> bool {
        self.0.inner.ignore_snapshots()
    }
    fn filter(&self, level: usize, key: &[u8], value: &[u8]) -> FilterDecision {
        self.0.inner.filter(level, key, value)
    }
}

/// A compaction filter factory handle. Ownership: owned by the caller until
/// `rocksdb_options_set_compaction_filter_factory` consumes it (`options::transfer`).
pub struct rocksdb_compactionfilterfactory_t {
    factory: Arc<CallbackCompactionFilterFactory>,
}

impl TransferHandle for rocksdb_compactionfilterfactory_t {
    type Object = CallbackCompactionFilterFactory;
    fn into_object(self) -> Arc<CallbackCompactionFilterFactory> {
        self.factory
    }
}

/// Creates a compaction filter factory from C callbacks: `create_compaction_filter(state,
/// context)` returns a filter from `rocksdb_compactionfilter_create` (or NULL), which the
/// library owns and destroys when the compaction ends. Returns NULL when the callback or
/// `name` is NULL. `destructor(state)` runs once, when the last holder drops the factory.
///
/// # Safety
/// The callbacks must be valid to call with `state`, from any thread, until the destructor.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_compactionfilterfactory_create(
    state: *mut c_void,
    destructor: Option<unsafe extern "C" fn(*mut c_void)>,
    create_compaction_filter: Option<
        unsafe extern "C" fn(
            *mut c_void,
            *mut rocksdb_compactionfiltercontext_t,
        ) -> *mut rocksdb_compactionfilter_t,
    >,
    name: Option<unsafe extern "C" fn(*mut c_void) -> *const c_char>,
) -> *mut rocksdb_compactionfilterfactory_t {
    ffi::guarded_no_err("rocksdb_compactionfilterfactory_create", || {
        let create = create_compaction_filter
            .ok_or_else(|| engine::Error::invalid_argument("create_compaction_filter is NULL"))?;
        // SAFETY: forwarded contract.
        let name = unsafe { call_name(name, state) }
            .ok_or_else(|| engine::Error::invalid_argument("factory name is NULL"))?;
        Ok(transfer::new_handle(rocksdb_compactionfilterfactory_t {
            factory: Arc::new(CallbackCompactionFilterFactory {
                state,
                destructor,
                create,
                name,
            }),
        }))
    })
}

/// Destroys a factory that was never set on options (its destructor runs). After it was set,
/// RocksDB forbids this; solistore then does nothing. NULL is a no-op.
///
/// # Safety
/// `compactionfilterfactory` must be NULL or a live handle, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_compactionfilterfactory_destroy(
    compactionfilterfactory: *mut rocksdb_compactionfilterfactory_t,
) {
    ffi::guarded_no_err("rocksdb_compactionfilterfactory_destroy", || {
        // SAFETY: forwarded contract.
        unsafe { transfer::destroy(compactionfilterfactory) };
        Ok(())
    })
}
