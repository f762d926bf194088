// SPDX-License-Identifier: Apache-2.0
//! `rocksdb_ratelimiter_*`: the I/O rate limiter (config path). Shared (c-api-conventions.md
//! §4): `rocksdb_options_set_ratelimiter` takes its own share, so the caller may destroy the
//! handle right after (c_test does). The handle wraps one engine token bucket
//! (`engine::util::rate_limiter`); every DB opened with options holding it paces its flush
//! and compaction writes from that one bucket, so DBs sharing a limiter share its rate.

use std::ffi::c_int;
use std::sync::Arc;

use crate::ffi;
use engine::util::rate_limiter::{RateLimiter as Bucket, RateLimiterMode};

/// `RateLimiter::Mode::kWritesOnly`, the mode of the two creators without a mode.
const WRITES_ONLY: c_int = 1;

/// A generic rate limiter (`NewGenericRateLimiter`): the engine bucket the DBs draw from.
#[derive(Debug)]
pub(crate) struct RateLimiter {
    pub(crate) bucket: Arc<Bucket>,
}

impl RateLimiter {
    fn new(
        rate_bytes_per_sec: i64,
        refill_period_us: i64,
        fairness: i32,
        mode: c_int,
        auto_tuned: bool,
    ) -> Self {
        let engine_mode = match mode {
            0 => RateLimiterMode::ReadsOnly,
            1 => RateLimiterMode::WritesOnly,
            _ => RateLimiterMode::AllIo,
        };
        RateLimiter {
            bucket: Arc::new(Bucket::new(
                rate_bytes_per_sec,
                refill_period_us,
                fairness,
                engine_mode,
                auto_tuned,
            )),
        }
    }
}

/// A rate limiter handle. Ownership: owned by the caller (`rocksdb_ratelimiter_create*` /
/// `rocksdb_ratelimiter_destroy`); the limiter is shared with the options it was set on.
pub struct rocksdb_ratelimiter_t {
    pub(crate) inner: Arc<RateLimiter>,
}

fn new_limiter(limiter: RateLimiter) -> *mut rocksdb_ratelimiter_t {
    ffi::into_handle(rocksdb_ratelimiter_t {
        inner: Arc::new(limiter),
    })
}

/// Creates a rate limiter for writes. Release with `rocksdb_ratelimiter_destroy`.
///
/// # Safety
/// No pointer arguments: always safe to call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_ratelimiter_create(
    rate_bytes_per_sec: i64,
    refill_period_us: i64,
    fairness: i32,
) -> *mut rocksdb_ratelimiter_t {
    ffi::guarded_no_err("rocksdb_ratelimiter_create", || {
        Ok(new_limiter(RateLimiter::new(
            rate_bytes_per_sec,
            refill_period_us,
            fairness,
            WRITES_ONLY,
            false,
        )))
    })
}

/// Creates an auto-tuned rate limiter for writes. Release with `rocksdb_ratelimiter_destroy`.
///
/// # Safety
/// No pointer arguments: always safe to call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_ratelimiter_create_auto_tuned(
    rate_bytes_per_sec: i64,
    refill_period_us: i64,
    fairness: i32,
) -> *mut rocksdb_ratelimiter_t {
    ffi::guarded_no_err("rocksdb_ratelimiter_create_auto_tuned", || {
        Ok(new_limiter(RateLimiter::new(
            rate_bytes_per_sec,
            refill_period_us,
            fairness,
            WRITES_ONLY,
            true,
        )))
    })
}

/// Creates a rate limiter with a mode (0 reads, 1 writes, 2 all I/O). Release with
/// `rocksdb_ratelimiter_destroy`.
///
/// # Safety
/// No pointer arguments: always safe to call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_ratelimiter_create_with_mode(
    rate_bytes_per_sec: i64,
    refill_period_us: i64,
    fairness: i32,
    mode: c_int,
    auto_tuned: bool,
) -> *mut rocksdb_ratelimiter_t {
    ffi::guarded_no_err("rocksdb_ratelimiter_create_with_mode", || {
        Ok(new_limiter(RateLimiter::new(
            rate_bytes_per_sec,
            refill_period_us,
            fairness,
            mode,
            auto_tuned,
        )))
    })
}

/// Releases the caller's handle; options holding the limiter keep it. NULL is a no-op.
///
/// # Safety
/// `ratelimiter` must be NULL or a live handle, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_ratelimiter_destroy(ratelimiter: *mut rocksdb_ratelimiter_t) {
    ffi::guarded_no_err("rocksdb_ratelimiter_destroy", || {
        // SAFETY: forwarded contract.
        drop(unsafe { ffi::from_handle(ratelimiter) });
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Creates a limiter through `create`, returns its engine bucket and destroys the handle
    /// (the bucket outlives it, as it does for options holding it).
    fn bucket_of(create: impl FnOnce() -> *mut rocksdb_ratelimiter_t) -> Arc<Bucket> {
        let rl = create();
        // SAFETY: `rl` was just returned by a creator: NULL or a live handle.
        let handle = unsafe { ffi::borrow(rl, "ratelimiter") }.expect("a limiter handle");
        let bucket = handle.inner.bucket.clone();
        // SAFETY: live handle, not used again.
        unsafe { rocksdb_ratelimiter_destroy(rl) };
        bucket
    }

    #[test]
    fn creators_pass_rate_mode_and_tuning_to_the_bucket() {
        let b = bucket_of(|| {
            // SAFETY: the creators take no pointers.
            unsafe { rocksdb_ratelimiter_create_auto_tuned(4 << 20, 100_000, 10) }
        });
        assert_eq!(b.bytes_per_second(), 4 << 20);
        assert!(b.auto_tuned());
        assert_eq!(b.mode(), RateLimiterMode::WritesOnly);
        assert!(b.paces_writes());

        let b = bucket_of(|| {
            // SAFETY: the creators take no pointers.
            unsafe { rocksdb_ratelimiter_create_with_mode(1 << 20, 100_000, 10, 0, false) }
        });
        assert_eq!(b.mode(), RateLimiterMode::ReadsOnly);
        assert!(!b.auto_tuned());
        assert!(
            !b.paces_writes(),
            "a reads-only limiter paces no table write"
        );

        let b = bucket_of(|| {
            // SAFETY: the creators take no pointers.
            unsafe { rocksdb_ratelimiter_create_with_mode(1 << 20, 100_000, 7, 2, true) }
        });
        assert_eq!(b.mode(), RateLimiterMode::AllIo);
        assert_eq!(b.fairness(), 7);
        assert!(b.auto_tuned());
        assert!(b.paces_writes());
    }
}
