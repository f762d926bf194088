// SPDX-License-Identifier: Apache-2.0
//! `rocksdb_create_default_env`, `rocksdb_create_mem_env`, `rocksdb_env_*`: the environment
//! (config path).
//!
//! solistore always does file I/O through the engine's POSIX file system, so an env records
//! settings only. Thread-pool sizes are process-wide, as in RocksDB: `Env::Default()` is a
//! singleton, and a memory env wraps it and shares its pools (observed on librocksdb 7.8.3:
//! setting the default env's pool size shows through a memory env). The engine sizes its own
//! background work from `max_background_jobs`; these numbers are reported back only.
//!
//! Deviation: a DB opened with a memory env is still written to disk.

use std::ffi::c_int;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Arc, OnceLock};

use crate::ffi;
use crate::options::get;

/// A thread pool (`Env::Priority`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Priority {
    Bottom,
    Low,
    High,
}

/// Process-wide pool sizes (0 until set, as RocksDB reports before a DB starts threads).
static THREADS: [AtomicI32; 3] = [AtomicI32::new(0), AtomicI32::new(0), AtomicI32::new(0)];
/// Process-wide "lower the pool's CPU / I/O priority" requests: [low cpu, low io, high cpu,
/// high io]. Recorded only.
static LOWERED: [AtomicBool; 4] = [
    AtomicBool::new(false),
    AtomicBool::new(false),
    AtomicBool::new(false),
    AtomicBool::new(false),
];

fn slot(p: Priority) -> &'static AtomicI32 {
    &THREADS[p as usize]
}

/// Which environment the caller asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EnvKind {
    Default,
    Memory,
}

/// An environment. Settings are process-wide (see the module doc).
#[derive(Debug)]
#[allow(dead_code, reason = "kept for the file system choice at open")]
pub(crate) struct Env {
    pub(crate) kind: EnvKind,
}

impl Env {
    /// The process's default env (shared, like RocksDB's `Env::Default()`).
    pub(crate) fn default_env() -> Arc<Env> {
        static DEFAULT: OnceLock<Arc<Env>> = OnceLock::new();
        Arc::clone(DEFAULT.get_or_init(|| {
            Arc::new(Env {
                kind: EnvKind::Default,
            })
        }))
    }

    pub(crate) fn set_threads(&self, p: Priority, n: c_int) {
        slot(p).store(n, Ordering::Relaxed);
    }

    pub(crate) fn threads(&self, p: Priority) -> c_int {
        slot(p).load(Ordering::Relaxed)
    }
}

/// An env handle. Ownership: owned by the caller (`rocksdb_create_*_env` /
/// `rocksdb_env_destroy`); `rocksdb_options_set_env` shares it, so options never dangle.
pub struct rocksdb_env_t {
    pub(crate) inner: Arc<Env>,
}

/// Returns a handle on the default env. Release with `rocksdb_env_destroy` (the env itself
/// lives for the whole process).
///
/// # Safety
/// No pointer arguments: always safe to call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_create_default_env() -> *mut rocksdb_env_t {
    ffi::guarded_no_err("rocksdb_create_default_env", || {
        Ok(ffi::into_handle(rocksdb_env_t {
            inner: Env::default_env(),
        }))
    })
}

/// Returns a memory env. solistore keeps DB files on disk even with it (see the module doc).
/// Release with `rocksdb_env_destroy`.
/// solistore: stores value only
///
/// # Safety
/// No pointer arguments: always safe to call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_create_mem_env() -> *mut rocksdb_env_t {
    ffi::guarded_no_err("rocksdb_create_mem_env", || {
        Ok(ffi::into_handle(rocksdb_env_t {
            inner: Arc::new(Env {
                kind: EnvKind::Memory,
            }),
        }))
    })
}

/// Releases an env handle. NULL is a no-op.
///
/// # Safety
/// `env` must be NULL or a live env handle, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_env_destroy(env: *mut rocksdb_env_t) {
    ffi::guarded_no_err("rocksdb_env_destroy", || {
        // SAFETY: forwarded contract.
        drop(unsafe { ffi::from_handle(env) });
        Ok(())
    })
}

/// # Safety
/// `env` must be NULL (ignored) or a live env handle.
unsafe fn set_threads(env: *mut rocksdb_env_t, name: &'static str, p: Priority, n: c_int) {
    // SAFETY: forwarded contract.
    unsafe { get(env.cast_const(), name, |e| e.inner.set_threads(p, n)) }
}

/// # Safety
/// `env` must be NULL (0) or a live env handle.
unsafe fn threads(env: *mut rocksdb_env_t, name: &'static str, p: Priority) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { get(env.cast_const(), name, |e| e.inner.threads(p)) }
}

/// Sets the low-priority (compaction) pool size, process-wide.
/// solistore: stores value only
///
/// # Safety
/// `env` must be NULL (ignored) or a live env handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_env_set_background_threads(env: *mut rocksdb_env_t, n: c_int) {
    // SAFETY: forwarded contract.
    unsafe { set_threads(env, "rocksdb_env_set_background_threads", Priority::Low, n) }
}

/// Returns the low-priority pool size (0 until set).
///
/// # Safety
/// `env` must be NULL (0) or a live env handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_env_get_background_threads(env: *mut rocksdb_env_t) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { threads(env, "rocksdb_env_get_background_threads", Priority::Low) }
}

/// Sets the bottom-priority pool size, process-wide.
/// solistore: stores value only
///
/// # Safety
/// `env` must be NULL (ignored) or a live env handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_env_set_bottom_priority_background_threads(
    env: *mut rocksdb_env_t,
    n: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set_threads(
            env,
            "rocksdb_env_set_bottom_priority_background_threads",
            Priority::Bottom,
            n,
        )
    }
}

/// Returns the bottom-priority pool size (0 until set).
///
/// # Safety
/// `env` must be NULL (0) or a live env handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_env_get_bottom_priority_background_threads(
    env: *mut rocksdb_env_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        threads(
            env,
            "rocksdb_env_get_bottom_priority_background_threads",
            Priority::Bottom,
        )
    }
}

/// Sets the high-priority (flush) pool size, process-wide.
/// solistore: stores value only
///
/// # Safety
/// `env` must be NULL (ignored) or a live env handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_env_set_high_priority_background_threads(
    env: *mut rocksdb_env_t,
    n: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set_threads(
            env,
            "rocksdb_env_set_high_priority_background_threads",
            Priority::High,
            n,
        )
    }
}

/// Returns the high-priority pool size (0 until set).
///
/// # Safety
/// `env` must be NULL (0) or a live env handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_env_get_high_priority_background_threads(
    env: *mut rocksdb_env_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        threads(
            env,
            "rocksdb_env_get_high_priority_background_threads",
            Priority::High,
        )
    }
}

/// Sets the low-priority pool size, process-wide (same as `rocksdb_env_set_background_threads`).
/// solistore: stores value only
///
/// # Safety
/// `env` must be NULL (ignored) or a live env handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_env_set_low_priority_background_threads(
    env: *mut rocksdb_env_t,
    n: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set_threads(
            env,
            "rocksdb_env_set_low_priority_background_threads",
            Priority::Low,
            n,
        )
    }
}

/// Returns the low-priority pool size (0 until set).
///
/// # Safety
/// `env` must be NULL (0) or a live env handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_env_get_low_priority_background_threads(
    env: *mut rocksdb_env_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        threads(
            env,
            "rocksdb_env_get_low_priority_background_threads",
            Priority::Low,
        )
    }
}

/// Waits for the env's background threads to finish. The env runs none: returns at once.
///
/// # Safety
/// `env` must be NULL or a live env handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_env_join_all_threads(env: *mut rocksdb_env_t) {
    let _ = env;
    ffi::guarded_no_err("rocksdb_env_join_all_threads", || Ok(()))
}

/// # Safety
/// `env` must be NULL (ignored) or a live env handle.
unsafe fn lower(env: *mut rocksdb_env_t, name: &'static str, which: usize) {
    // SAFETY: forwarded contract.
    unsafe {
        get(env.cast_const(), name, |_| {
            if let Some(flag) = LOWERED.get(which) {
                flag.store(true, Ordering::Relaxed);
            }
        })
    }
}

/// Lowers the CPU priority of the low-priority pool's threads (recorded; no such threads).
/// solistore: stores value only
///
/// # Safety
/// `env` must be NULL (ignored) or a live env handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_env_lower_thread_pool_cpu_priority(env: *mut rocksdb_env_t) {
    // SAFETY: forwarded contract.
    unsafe { lower(env, "rocksdb_env_lower_thread_pool_cpu_priority", 0) }
}

/// Lowers the I/O priority of the low-priority pool's threads (recorded; no such threads).
/// solistore: stores value only
///
/// # Safety
/// `env` must be NULL (ignored) or a live env handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_env_lower_thread_pool_io_priority(env: *mut rocksdb_env_t) {
    // SAFETY: forwarded contract.
    unsafe { lower(env, "rocksdb_env_lower_thread_pool_io_priority", 1) }
}

/// Lowers the CPU priority of the high-priority pool's threads (recorded; no such threads).
/// solistore: stores value only
///
/// # Safety
/// `env` must be NULL (ignored) or a live env handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_env_lower_high_priority_thread_pool_cpu_priority(
    env: *mut rocksdb_env_t,
) {
    // SAFETY: forwarded contract.
    unsafe {
        lower(
            env,
            "rocksdb_env_lower_high_priority_thread_pool_cpu_priority",
            2,
        )
    }
}

/// Lowers the I/O priority of the high-priority pool's threads (recorded; no such threads).
/// solistore: stores value only
///
/// # Safety
/// `env` must be NULL (ignored) or a live env handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_env_lower_high_priority_thread_pool_io_priority(
    env: *mut rocksdb_env_t,
) {
    // SAFETY: forwarded contract.
    unsafe {
        lower(
            env,
            "rocksdb_env_lower_high_priority_thread_pool_io_priority",
            3,
        )
    }
}
