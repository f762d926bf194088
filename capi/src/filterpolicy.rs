// SPDX-License-Identifier: Apache-2.0
//! `rocksdb_filterpolicy_*`: the SST filter policy (config path; `rocksdb_open*` gives the
//! table builder its bits per key). Only RocksDB's built-in policies exist in the C API: bloom (both
//! constructors make the full "FastLocalBloom" filter since RocksDB 7; the block-based one is
//! gone) and ribbon, optionally with bloom below a level.
//!
//! Ownership moves to the block-based options when set (c-api-conventions.md §4): the handle
//! is consumed, see `options::transfer`.

use std::ffi::c_int;
use std::sync::Arc;

use crate::ffi;
use crate::options::transfer::{self, TransferHandle};

/// Which filter RocksDB would build.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum FilterKind {
    /// The full bloom filter. `legacy_constructor` records that `rocksdb_filterpolicy_create_bloom`
    /// (RocksDB's old block-based format, now the same filter) was called.
    Bloom { legacy_constructor: bool },
    /// Ribbon; bloom for levels below `bloom_before_level` (-1: never).
    Ribbon { bloom_before_level: c_int },
}

/// A filter policy's parameters.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FilterPolicy {
    pub(crate) kind: FilterKind,
    /// Bits per key (for ribbon: the bloom-equivalent bits per key).
    pub(crate) bits_per_key: f64,
}

impl FilterPolicy {
    pub(crate) fn bloom(bits_per_key: f64, legacy_constructor: bool) -> Self {
        FilterPolicy {
            kind: FilterKind::Bloom { legacy_constructor },
            bits_per_key,
        }
    }
}

/// A filter policy handle. Ownership: owned by the caller until
/// `rocksdb_block_based_options_set_filter_policy`, which consumes it (the caller then must
/// not destroy it; a destroy anyway does nothing).
pub struct rocksdb_filterpolicy_t {
    policy: Arc<FilterPolicy>,
}

impl TransferHandle for rocksdb_filterpolicy_t {
    type Object = FilterPolicy;
    fn into_object(self) -> Arc<FilterPolicy> {
        self.policy
    }
}

fn new_policy(p: FilterPolicy) -> *mut rocksdb_filterpolicy_t {
    transfer::new_handle(rocksdb_filterpolicy_t {
        policy: Arc::new(p),
    })
}

/// Creates a bloom filter policy with `bits_per_key` bits per key (RocksDB makes the same full
/// filter as `_create_bloom_full`). Ownership moves when set on block-based options.
///
/// # Safety
/// No pointer arguments: always safe to call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_filterpolicy_create_bloom(
    bits_per_key: f64,
) -> *mut rocksdb_filterpolicy_t {
    ffi::guarded_no_err("rocksdb_filterpolicy_create_bloom", || {
        Ok(new_policy(FilterPolicy::bloom(bits_per_key, true)))
    })
}

/// Creates a full bloom filter policy. Ownership moves when set on block-based options.
///
/// # Safety
/// No pointer arguments: always safe to call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_filterpolicy_create_bloom_full(
    bits_per_key: f64,
) -> *mut rocksdb_filterpolicy_t {
    ffi::guarded_no_err("rocksdb_filterpolicy_create_bloom_full", || {
        Ok(new_policy(FilterPolicy::bloom(bits_per_key, false)))
    })
}

/// Creates a ribbon filter policy. Ownership moves when set on block-based options. solistore
/// writes a bloom filter with the same bits per key (the same false positive rate, about 30 %
/// larger; RocksDB readers read either kind).
///
/// # Safety
/// No pointer arguments: always safe to call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_filterpolicy_create_ribbon(
    bloom_equivalent_bits_per_key: f64,
) -> *mut rocksdb_filterpolicy_t {
    ffi::guarded_no_err("rocksdb_filterpolicy_create_ribbon", || {
        Ok(new_policy(FilterPolicy {
            kind: FilterKind::Ribbon {
                bloom_before_level: -1,
            },
            bits_per_key: bloom_equivalent_bits_per_key,
        }))
    })
}

/// Creates a ribbon filter policy that uses bloom filters below `bloom_before_level`.
/// Ownership moves when set on block-based options. solistore writes bloom filters at every
/// level (see `rocksdb_filterpolicy_create_ribbon`).
///
/// # Safety
/// No pointer arguments: always safe to call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_filterpolicy_create_ribbon_hybrid(
    bloom_equivalent_bits_per_key: f64,
    bloom_before_level: c_int,
) -> *mut rocksdb_filterpolicy_t {
    ffi::guarded_no_err("rocksdb_filterpolicy_create_ribbon_hybrid", || {
        Ok(new_policy(FilterPolicy {
            kind: FilterKind::Ribbon { bloom_before_level },
            bits_per_key: bloom_equivalent_bits_per_key,
        }))
    })
}

/// Destroys a filter policy that was never set on block-based options. After it was set,
/// RocksDB forbids this; solistore then does nothing. NULL is a no-op.
///
/// # Safety
/// `filterpolicy` must be NULL or a live handle, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_filterpolicy_destroy(filterpolicy: *mut rocksdb_filterpolicy_t) {
    ffi::guarded_no_err("rocksdb_filterpolicy_destroy", || {
        // SAFETY: forwarded contract.
        unsafe { transfer::destroy(filterpolicy) };
        Ok(())
    })
}
