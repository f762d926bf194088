// SPDX-License-Identifier: Apache-2.0
//! `rocksdb_slicetransform_*`: prefix extractors (config path). The engine has no prefix seek
//! or prefix bloom yet, so `rocksdb_options_set_prefix_extractor` stores the extractor for
//! later; [`SliceTransform::transform`] and [`SliceTransform::in_domain`] are ready for it.
//!
//! Ownership moves to the options when set (the handle is consumed, see `options::transfer`);
//! a callback extractor's
//! destructor runs when the last holder drops it. The 11.1.2 signature of
//! `rocksdb_slicetransform_create` is exported (7.8.3 had an extra `in_range` callback).

use std::ffi::{c_char, c_uchar, c_void};
use std::sync::Arc;

use crate::comparator::call_name;
use crate::ffi;
use crate::options::transfer::{self, TransferHandle};

type DestructorFn = unsafe extern "C" fn(*mut c_void);
type TransformFn =
    unsafe extern "C" fn(*mut c_void, *const c_char, usize, *mut usize) -> *mut c_char;
type InDomainFn = unsafe extern "C" fn(*mut c_void, *const c_char, usize) -> c_uchar;

/// What computes the prefix.
pub(crate) enum TransformKind {
    /// The first `n` bytes; keys shorter than `n` are out of domain.
    FixedPrefix(usize),
    /// The whole key.
    Noop,
    Callback {
        state: *mut c_void,
        destructor: Option<DestructorFn>,
        transform: TransformFn,
        in_domain: InDomainFn,
    },
}

/// A prefix extractor.
pub(crate) struct SliceTransform {
    pub(crate) kind: TransformKind,
    pub(crate) name: String,
}

// SAFETY: the C API requires slice transform callbacks to be callable from any thread,
// concurrently (c-api-conventions.md §5); the Rust fields are immutable.
unsafe impl Send for SliceTransform {}
// SAFETY: as above.
unsafe impl Sync for SliceTransform {}

impl std::fmt::Debug for SliceTransform {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SliceTransform")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl Drop for SliceTransform {
    fn drop(&mut self) {
        if let TransformKind::Callback {
            state,
            destructor: Some(d),
            ..
        } = self.kind
        {
            // SAFETY: the last reference is going: runs once, with the registered state.
            unsafe { d(state) };
        }
    }
}

impl SliceTransform {
    /// Whether `key` has a prefix.
    #[cfg_attr(not(test), expect(dead_code, reason = "for prefix seek (issue 3)"))]
    pub(crate) fn in_domain(&self, key: &[u8]) -> bool {
        match self.kind {
            TransformKind::FixedPrefix(n) => key.len() >= n,
            TransformKind::Noop => true,
            TransformKind::Callback {
                state, in_domain, ..
            } => {
                // SAFETY: the callback was registered with `state`, alive until drop; `key`
                // addresses `key.len()` bytes.
                let r = unsafe { in_domain(state, key.as_ptr().cast(), key.len()) };
                r != 0
            }
        }
    }

    /// The prefix of an in-domain `key`. A callback result is copied (it usually points into
    /// `key`; RocksDB never frees it). None when the callback returns NULL or a length past
    /// the key's own bytes is not plausible.
    #[cfg_attr(not(test), expect(dead_code, reason = "for prefix seek (issue 3)"))]
    pub(crate) fn transform(&self, key: &[u8]) -> Option<Vec<u8>> {
        match self.kind {
            TransformKind::FixedPrefix(n) => key.get(..n).map(<[u8]>::to_vec),
            TransformKind::Noop => Some(key.to_vec()),
            TransformKind::Callback {
                state, transform, ..
            } => {
                let mut len = 0usize;
                // SAFETY: as in `in_domain`; `len` is a valid out-parameter.
                let p = unsafe { transform(state, key.as_ptr().cast(), key.len(), &mut len) };
                if p.is_null() || !ffi::array_len_ok::<u8>(len) {
                    return None;
                }
                // SAFETY: the callback returned `len` readable bytes at `p`, valid while `key`
                // is (the contract: a borrowed pointer, usually into `key`).
                Some(unsafe { std::slice::from_raw_parts(p.cast::<u8>(), len) }.to_vec())
            }
        }
    }
}

/// A prefix extractor handle. Ownership: owned by the caller until
/// `rocksdb_options_set_prefix_extractor` consumes it (`options::transfer`).
pub struct rocksdb_slicetransform_t {
    transform: Arc<SliceTransform>,
}

impl TransferHandle for rocksdb_slicetransform_t {
    type Object = SliceTransform;
    fn into_object(self) -> Arc<SliceTransform> {
        self.transform
    }
}

fn new_transform(t: SliceTransform) -> *mut rocksdb_slicetransform_t {
    transfer::new_handle(rocksdb_slicetransform_t {
        transform: Arc::new(t),
    })
}

/// Creates a prefix extractor from C callbacks: `transform(state, key, len, &dst_len)`
/// returns the prefix (borrowed, never freed), `in_domain(state, key, len)` whether the key
/// has one, `name(state)` its name. Returns NULL when `transform`, `in_domain` or `name` is
/// NULL. `destructor(state)` runs once, when the last holder drops it.
///
/// # Safety
/// The callbacks must be valid to call with `state`, from any thread, until the destructor.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_slicetransform_create(
    state: *mut c_void,
    destructor: Option<unsafe extern "C" fn(*mut c_void)>,
    transform: Option<
        unsafe extern "C" fn(*mut c_void, *const c_char, usize, *mut usize) -> *mut c_char,
    >,
    in_domain: Option<unsafe extern "C" fn(*mut c_void, *const c_char, usize) -> c_uchar>,
    name: Option<unsafe extern "C" fn(*mut c_void) -> *const c_char>,
) -> *mut rocksdb_slicetransform_t {
    ffi::guarded_no_err("rocksdb_slicetransform_create", || {
        let missing = |what: &str| engine::Error::invalid_argument(format!("{what} is NULL"));
        let transform = transform.ok_or_else(|| missing("transform"))?;
        let in_domain = in_domain.ok_or_else(|| missing("in_domain"))?;
        // SAFETY: forwarded contract.
        let name = unsafe { call_name(name, state) }.ok_or_else(|| missing("name"))?;
        Ok(new_transform(SliceTransform {
            kind: TransformKind::Callback {
                state,
                destructor,
                transform,
                in_domain,
            },
            name,
        }))
    })
}

/// Creates RocksDB's fixed-prefix extractor (the first `v` bytes; name
/// `rocksdb.FixedPrefix.<v>`).
///
/// # Safety
/// No pointer arguments: always safe to call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_slicetransform_create_fixed_prefix(
    v: usize,
) -> *mut rocksdb_slicetransform_t {
    ffi::guarded_no_err("rocksdb_slicetransform_create_fixed_prefix", || {
        Ok(new_transform(SliceTransform {
            kind: TransformKind::FixedPrefix(v),
            name: format!("rocksdb.FixedPrefix.{v}"),
        }))
    })
}

/// Creates RocksDB's no-op extractor (the whole key; name `rocksdb.Noop`).
///
/// # Safety
/// No pointer arguments: always safe to call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_slicetransform_create_noop() -> *mut rocksdb_slicetransform_t {
    ffi::guarded_no_err("rocksdb_slicetransform_create_noop", || {
        Ok(new_transform(SliceTransform {
            kind: TransformKind::Noop,
            name: "rocksdb.Noop".to_owned(),
        }))
    })
}

/// Destroys an extractor that was never set on options (a callback extractor's destructor
/// runs). After it was set, RocksDB forbids this; solistore then does nothing. NULL
/// is a no-op.
///
/// # Safety
/// `slicetransform` must be NULL or a live handle, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_slicetransform_destroy(
    slicetransform: *mut rocksdb_slicetransform_t,
) {
    ffi::guarded_no_err("rocksdb_slicetransform_destroy", || {
        // SAFETY: forwarded contract.
        unsafe { transfer::destroy(slicetransform) };
        Ok(())
    })
}
