// SPDX-License-Identifier: Apache-2.0
//! The plain `rocksdb_options_set_X` / `rocksdb_options_get_X` pairs (config path): one value
//! each, written straight into the engine's `DbOptions` / `ColumnFamilyOptions` when the engine
//! has the option, otherwise into [`StoredOptions`](super::stored::StoredOptions) (the setter's
//! doc then carries the "stores value only" marker). Every body is one call to
//! [`set`](super::set) or [`get`](super::get), so the signature stays visible to cbindgen.
//!
//! C booleans: setters accept any non-zero value as true; getters return exactly 0 or 1.
//! Size conversions saturate (`size_t` and `uint64_t` are both 64 bits on the supported targets).

use std::ffi::{c_int, c_uchar, c_uint};

use crate::ffi;

use super::{get, rocksdb_options_t, set};

/// Sets `WAL_size_limit_MB`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_WAL_size_limit_MB(
    options: *mut rocksdb_options_t,
    v: u64,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_WAL_size_limit_MB", |o| {
            o.s.wal_size_limit_mb = v
        })
    }
}

/// Returns `WAL_size_limit_MB` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_WAL_size_limit_MB(
    options: *mut rocksdb_options_t,
) -> u64 {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_WAL_size_limit_MB", |o| {
            o.s.wal_size_limit_mb
        })
    }
}

/// Sets `WAL_ttl_seconds`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_WAL_ttl_seconds(
    options: *mut rocksdb_options_t,
    v: u64,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_WAL_ttl_seconds", |o| {
            o.s.wal_ttl_seconds = v
        })
    }
}

/// Returns `WAL_ttl_seconds` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_WAL_ttl_seconds(
    options: *mut rocksdb_options_t,
) -> u64 {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_WAL_ttl_seconds", |o| {
            o.s.wal_ttl_seconds
        })
    }
}

/// Sets `access_hint_on_compaction_start`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_access_hint_on_compaction_start(
    options: *mut rocksdb_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_access_hint_on_compaction_start",
            |o| o.s.access_hint_on_compaction_start = v,
        )
    }
}

/// Returns `access_hint_on_compaction_start` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_access_hint_on_compaction_start(
    options: *mut rocksdb_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_access_hint_on_compaction_start",
            |o| o.s.access_hint_on_compaction_start,
        )
    }
}

/// Sets `advise_random_on_open`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_advise_random_on_open(
    options: *mut rocksdb_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_advise_random_on_open", |o| {
            o.s.advise_random_on_open = ffi::c_bool(v)
        })
    }
}

/// Returns `advise_random_on_open` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_advise_random_on_open(
    options: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_advise_random_on_open", |o| {
            ffi::to_c_bool(o.s.advise_random_on_open)
        })
    }
}

/// Sets `allow_concurrent_memtable_write`. solistore keeps the value (its getter returns it, the OPTIONS file records
/// it) but does not act on it yet (memtable inserts of a group are made by its leader).
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_allow_concurrent_memtable_write(
    options: *mut rocksdb_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_allow_concurrent_memtable_write",
            |o| o.db.allow_concurrent_memtable_write = ffi::c_bool(v),
        )
    }
}

/// Returns `allow_concurrent_memtable_write` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_allow_concurrent_memtable_write(
    options: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_allow_concurrent_memtable_write",
            |o| ffi::to_c_bool(o.db.allow_concurrent_memtable_write),
        )
    }
}

/// Sets `allow_ingest_behind`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_allow_ingest_behind(
    options: *mut rocksdb_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_allow_ingest_behind", |o| {
            o.s.allow_ingest_behind = ffi::c_bool(v)
        })
    }
}

/// Returns `allow_ingest_behind` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_allow_ingest_behind(
    options: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_allow_ingest_behind", |o| {
            ffi::to_c_bool(o.s.allow_ingest_behind)
        })
    }
}

/// Sets `allow_mmap_reads`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_allow_mmap_reads(
    options: *mut rocksdb_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_allow_mmap_reads", |o| {
            o.s.allow_mmap_reads = ffi::c_bool(v)
        })
    }
}

/// Returns `allow_mmap_reads` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_allow_mmap_reads(
    options: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_allow_mmap_reads", |o| {
            ffi::to_c_bool(o.s.allow_mmap_reads)
        })
    }
}

/// Sets `allow_mmap_writes`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_allow_mmap_writes(
    options: *mut rocksdb_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_allow_mmap_writes", |o| {
            o.s.allow_mmap_writes = ffi::c_bool(v)
        })
    }
}

/// Returns `allow_mmap_writes` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_allow_mmap_writes(
    options: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_allow_mmap_writes", |o| {
            ffi::to_c_bool(o.s.allow_mmap_writes)
        })
    }
}

/// Sets `arena_block_size`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_arena_block_size(
    options: *mut rocksdb_options_t,
    v: usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_arena_block_size", |o| {
            o.s.arena_block_size = v
        })
    }
}

/// Returns `arena_block_size` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_arena_block_size(
    options: *mut rocksdb_options_t,
) -> usize {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_arena_block_size", |o| {
            o.s.arena_block_size
        })
    }
}

/// Sets `atomic_flush`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_atomic_flush(opt: *mut rocksdb_options_t, v: c_uchar) {
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_atomic_flush", |o| {
            o.s.atomic_flush = ffi::c_bool(v)
        })
    }
}

/// Returns `atomic_flush` as last set, or RocksDB's default. 0 for a NULL `opt`.
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_atomic_flush(opt: *mut rocksdb_options_t) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(opt, "rocksdb_options_get_atomic_flush", |o| {
            ffi::to_c_bool(o.s.atomic_flush)
        })
    }
}

/// Sets `avoid_unnecessary_blocking_io`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_avoid_unnecessary_blocking_io(
    options: *mut rocksdb_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_avoid_unnecessary_blocking_io",
            |o| o.s.avoid_unnecessary_blocking_io = ffi::c_bool(v),
        )
    }
}

/// Returns `avoid_unnecessary_blocking_io` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_avoid_unnecessary_blocking_io(
    options: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_avoid_unnecessary_blocking_io",
            |o| ffi::to_c_bool(o.s.avoid_unnecessary_blocking_io),
        )
    }
}

/// Sets `blob_compaction_readahead_size`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_blob_compaction_readahead_size(
    opt: *mut rocksdb_options_t,
    val: u64,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            opt,
            "rocksdb_options_set_blob_compaction_readahead_size",
            |o| o.s.blob_compaction_readahead_size = val,
        )
    }
}

/// Returns `blob_compaction_readahead_size` as last set, or RocksDB's default. 0 for a NULL `opt`.
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_blob_compaction_readahead_size(
    opt: *mut rocksdb_options_t,
) -> u64 {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            opt,
            "rocksdb_options_get_blob_compaction_readahead_size",
            |o| o.s.blob_compaction_readahead_size,
        )
    }
}

/// Sets `blob_compression_type`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_blob_compression_type(
    opt: *mut rocksdb_options_t,
    val: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_blob_compression_type", |o| {
            o.s.blob_compression_type = val
        })
    }
}

/// Returns `blob_compression_type` as last set, or RocksDB's default. 0 for a NULL `opt`.
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_blob_compression_type(
    opt: *mut rocksdb_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(opt, "rocksdb_options_get_blob_compression_type", |o| {
            o.s.blob_compression_type
        })
    }
}

/// Sets `blob_file_size`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_blob_file_size(opt: *mut rocksdb_options_t, val: u64) {
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_blob_file_size", |o| {
            o.s.blob_file_size = val
        })
    }
}

/// Returns `blob_file_size` as last set, or RocksDB's default. 0 for a NULL `opt`.
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_blob_file_size(opt: *mut rocksdb_options_t) -> u64 {
    // SAFETY: forwarded contract.
    unsafe {
        get(opt, "rocksdb_options_get_blob_file_size", |o| {
            o.s.blob_file_size
        })
    }
}

/// Sets `blob_file_starting_level`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_blob_file_starting_level(
    opt: *mut rocksdb_options_t,
    val: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_blob_file_starting_level", |o| {
            o.s.blob_file_starting_level = val
        })
    }
}

/// Returns `blob_file_starting_level` as last set, or RocksDB's default. 0 for a NULL `opt`.
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_blob_file_starting_level(
    opt: *mut rocksdb_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(opt, "rocksdb_options_get_blob_file_starting_level", |o| {
            o.s.blob_file_starting_level
        })
    }
}

/// Sets `blob_gc_age_cutoff`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_blob_gc_age_cutoff(
    opt: *mut rocksdb_options_t,
    val: f64,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_blob_gc_age_cutoff", |o| {
            o.s.blob_gc_age_cutoff = val
        })
    }
}

/// Returns `blob_gc_age_cutoff` as last set, or RocksDB's default. 0 for a NULL `opt`.
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_blob_gc_age_cutoff(
    opt: *mut rocksdb_options_t,
) -> f64 {
    // SAFETY: forwarded contract.
    unsafe {
        get(opt, "rocksdb_options_get_blob_gc_age_cutoff", |o| {
            o.s.blob_gc_age_cutoff
        })
    }
}

/// Sets `blob_gc_force_threshold`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_blob_gc_force_threshold(
    opt: *mut rocksdb_options_t,
    val: f64,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_blob_gc_force_threshold", |o| {
            o.s.blob_gc_force_threshold = val
        })
    }
}

/// Returns `blob_gc_force_threshold` as last set, or RocksDB's default. 0 for a NULL `opt`.
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_blob_gc_force_threshold(
    opt: *mut rocksdb_options_t,
) -> f64 {
    // SAFETY: forwarded contract.
    unsafe {
        get(opt, "rocksdb_options_get_blob_gc_force_threshold", |o| {
            o.s.blob_gc_force_threshold
        })
    }
}

/// Sets `bloom_locality`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_bloom_locality(
    options: *mut rocksdb_options_t,
    v: u32,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_bloom_locality", |o| {
            o.s.bloom_locality = v
        })
    }
}

/// Returns `bloom_locality` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_bloom_locality(
    options: *mut rocksdb_options_t,
) -> u32 {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_bloom_locality", |o| {
            o.s.bloom_locality
        })
    }
}

/// Sets `bottommost_compression`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_bottommost_compression(
    options: *mut rocksdb_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_bottommost_compression", |o| {
            o.s.bottommost_compression = v
        })
    }
}

/// Returns `bottommost_compression` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_bottommost_compression(
    options: *mut rocksdb_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_bottommost_compression", |o| {
            o.s.bottommost_compression
        })
    }
}

/// Sets `bytes_per_sync`. solistore keeps the value (its getter returns it, the OPTIONS file records
/// it) but does not act on it yet (tables are synced once, when written).
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_bytes_per_sync(
    options: *mut rocksdb_options_t,
    v: u64,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_bytes_per_sync", |o| {
            o.db.bytes_per_sync = v
        })
    }
}

/// Returns `bytes_per_sync` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_bytes_per_sync(
    options: *mut rocksdb_options_t,
) -> u64 {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_bytes_per_sync", |o| {
            o.db.bytes_per_sync
        })
    }
}

/// Sets `compaction_pri`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_compaction_pri(
    options: *mut rocksdb_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_compaction_pri", |o| {
            o.s.compaction_pri = v
        })
    }
}

/// Returns `compaction_pri` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_compaction_pri(
    options: *mut rocksdb_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_compaction_pri", |o| {
            o.s.compaction_pri
        })
    }
}

/// Sets `compaction_readahead_size`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_compaction_readahead_size(
    options: *mut rocksdb_options_t,
    v: usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_compaction_readahead_size", |o| {
            o.s.compaction_readahead_size = v
        })
    }
}

/// Returns `compaction_readahead_size` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_compaction_readahead_size(
    options: *mut rocksdb_options_t,
) -> usize {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_compaction_readahead_size",
            |o| o.s.compaction_readahead_size,
        )
    }
}

/// Sets `compaction_style`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_compaction_style(
    options: *mut rocksdb_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_compaction_style", |o| {
            o.s.compaction_style = v
        })
    }
}

/// Returns `compaction_style` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_compaction_style(
    options: *mut rocksdb_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_compaction_style", |o| {
            o.s.compaction_style
        })
    }
}

/// Sets `compression` (RocksDB's codes; default 1, snappy): the block compression of new
/// tables unless a per-level list is set. solistore writes 0 (none), 1 (snappy) and 4 (LZ4);
/// other types make `rocksdb_open*` fail with `Invalid argument: Compression type <name> is not
/// linked with the binary.`, as RocksDB does for a library it was built without.
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_compression(
    options: *mut rocksdb_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_compression", |o| {
            o.s.compression = v
        })
    }
}

/// Returns `compression` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_compression(options: *mut rocksdb_options_t) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_compression", |o| {
            o.s.compression
        })
    }
}

/// Sets `create_if_missing`; the engine honours it (`engine::options`).
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_create_if_missing(
    options: *mut rocksdb_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_create_if_missing", |o| {
            o.db.create_if_missing = ffi::c_bool(v)
        })
    }
}

/// Returns `create_if_missing` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_create_if_missing(
    options: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_create_if_missing", |o| {
            ffi::to_c_bool(o.db.create_if_missing)
        })
    }
}

/// Sets `create_missing_column_families`; the engine honours it (`engine::options`).
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_create_missing_column_families(
    options: *mut rocksdb_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_create_missing_column_families",
            |o| o.db.create_missing_column_families = ffi::c_bool(v),
        )
    }
}

/// Returns `create_missing_column_families` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_create_missing_column_families(
    options: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_create_missing_column_families",
            |o| ffi::to_c_bool(o.db.create_missing_column_families),
        )
    }
}

/// Sets `db_write_buffer_size`; the engine honours it (`engine::options`).
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_db_write_buffer_size(
    options: *mut rocksdb_options_t,
    v: usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_db_write_buffer_size", |o| {
            o.db.db_write_buffer_size = u64::try_from(v).unwrap_or(u64::MAX)
        })
    }
}

/// Returns `db_write_buffer_size` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_db_write_buffer_size(
    options: *mut rocksdb_options_t,
) -> usize {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_db_write_buffer_size", |o| {
            usize::try_from(o.db.db_write_buffer_size).unwrap_or(usize::MAX)
        })
    }
}

/// Sets `delete_obsolete_files_period_micros`. solistore keeps the value (its getter returns it, the OPTIONS file records
/// it) but does not act on it yet (obsolete files are deleted as soon as nothing uses them).
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_delete_obsolete_files_period_micros(
    options: *mut rocksdb_options_t,
    v: u64,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_delete_obsolete_files_period_micros",
            |o| o.db.delete_obsolete_files_period_micros = v,
        )
    }
}

/// Returns `delete_obsolete_files_period_micros` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_delete_obsolete_files_period_micros(
    options: *mut rocksdb_options_t,
) -> u64 {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_delete_obsolete_files_period_micros",
            |o| o.db.delete_obsolete_files_period_micros,
        )
    }
}

/// Sets `disable_auto_compactions`; the engine honours it (`engine::options`).
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_disable_auto_compactions(
    options: *mut rocksdb_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_disable_auto_compactions",
            |o| o.cf.disable_auto_compactions = v != 0,
        )
    }
}

/// Returns `disable_auto_compactions` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_disable_auto_compactions(
    options: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_disable_auto_compactions",
            |o| ffi::to_c_bool(o.cf.disable_auto_compactions),
        )
    }
}

/// Sets `dump_malloc_stats`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_dump_malloc_stats(
    options: *mut rocksdb_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_dump_malloc_stats", |o| {
            o.s.dump_malloc_stats = ffi::c_bool(v)
        })
    }
}

/// Sets `enable_blob_files`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_enable_blob_files(
    opt: *mut rocksdb_options_t,
    val: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_enable_blob_files", |o| {
            o.s.enable_blob_files = ffi::c_bool(val)
        })
    }
}

/// Returns `enable_blob_files` as last set, or RocksDB's default. 0 for a NULL `opt`.
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_enable_blob_files(
    opt: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(opt, "rocksdb_options_get_enable_blob_files", |o| {
            ffi::to_c_bool(o.s.enable_blob_files)
        })
    }
}

/// Sets `enable_blob_gc`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_enable_blob_gc(
    opt: *mut rocksdb_options_t,
    val: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_enable_blob_gc", |o| {
            o.s.enable_blob_gc = ffi::c_bool(val)
        })
    }
}

/// Returns `enable_blob_gc` as last set, or RocksDB's default. 0 for a NULL `opt`.
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_enable_blob_gc(
    opt: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(opt, "rocksdb_options_get_enable_blob_gc", |o| {
            ffi::to_c_bool(o.s.enable_blob_gc)
        })
    }
}

/// Sets `enable_pipelined_write`. solistore keeps the value (its getter returns it, the OPTIONS file records
/// it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_enable_pipelined_write(
    options: *mut rocksdb_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_enable_pipelined_write", |o| {
            o.db.enable_pipelined_write = ffi::c_bool(v)
        })
    }
}

/// Returns `enable_pipelined_write` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_enable_pipelined_write(
    options: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_enable_pipelined_write", |o| {
            ffi::to_c_bool(o.db.enable_pipelined_write)
        })
    }
}

/// Sets `enable_write_thread_adaptive_yield`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_enable_write_thread_adaptive_yield(
    options: *mut rocksdb_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_enable_write_thread_adaptive_yield",
            |o| o.s.enable_write_thread_adaptive_yield = ffi::c_bool(v),
        )
    }
}

/// Returns `enable_write_thread_adaptive_yield` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_enable_write_thread_adaptive_yield(
    options: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_enable_write_thread_adaptive_yield",
            |o| ffi::to_c_bool(o.s.enable_write_thread_adaptive_yield),
        )
    }
}

/// Sets `error_if_exists`; the engine honours it (`engine::options`).
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_error_if_exists(
    options: *mut rocksdb_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_error_if_exists", |o| {
            o.db.error_if_exists = ffi::c_bool(v)
        })
    }
}

/// Returns `error_if_exists` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_error_if_exists(
    options: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_error_if_exists", |o| {
            ffi::to_c_bool(o.db.error_if_exists)
        })
    }
}

/// Sets `experimental_mempurge_threshold`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_experimental_mempurge_threshold(
    options: *mut rocksdb_options_t,
    v: f64,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_experimental_mempurge_threshold",
            |o| o.s.experimental_mempurge_threshold = v,
        )
    }
}

/// Returns `experimental_mempurge_threshold` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_experimental_mempurge_threshold(
    options: *mut rocksdb_options_t,
) -> f64 {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_experimental_mempurge_threshold",
            |o| o.s.experimental_mempurge_threshold,
        )
    }
}

/// Sets `hard_pending_compaction_bytes_limit` (a write stall trigger; copied to the engine at open).
///
/// # Safety
/// `opt` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_hard_pending_compaction_bytes_limit(
    opt: *mut rocksdb_options_t,
    v: usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            opt,
            "rocksdb_options_set_hard_pending_compaction_bytes_limit",
            |o| o.s.hard_pending_compaction_bytes_limit = v,
        )
    }
}

/// Returns `hard_pending_compaction_bytes_limit` as last set, or RocksDB's default. 0 for a NULL `opt`.
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_hard_pending_compaction_bytes_limit(
    opt: *mut rocksdb_options_t,
) -> usize {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            opt,
            "rocksdb_options_get_hard_pending_compaction_bytes_limit",
            |o| o.s.hard_pending_compaction_bytes_limit,
        )
    }
}

/// Sets `info_log_level`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_info_log_level(
    options: *mut rocksdb_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_info_log_level", |o| {
            o.s.info_log_level = v
        })
    }
}

/// Returns `info_log_level` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_info_log_level(
    options: *mut rocksdb_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_info_log_level", |o| {
            o.s.info_log_level
        })
    }
}

/// Sets `inplace_update_num_locks`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_inplace_update_num_locks(
    options: *mut rocksdb_options_t,
    v: usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_inplace_update_num_locks",
            |o| o.s.inplace_update_num_locks = v,
        )
    }
}

/// Returns `inplace_update_num_locks` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_inplace_update_num_locks(
    options: *mut rocksdb_options_t,
) -> usize {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_inplace_update_num_locks",
            |o| o.s.inplace_update_num_locks,
        )
    }
}

/// Sets `inplace_update_support`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_inplace_update_support(
    options: *mut rocksdb_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_inplace_update_support", |o| {
            o.s.inplace_update_support = ffi::c_bool(v)
        })
    }
}

/// Returns `inplace_update_support` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_inplace_update_support(
    options: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_inplace_update_support", |o| {
            ffi::to_c_bool(o.s.inplace_update_support)
        })
    }
}

/// Sets `is_fd_close_on_exec`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_is_fd_close_on_exec(
    options: *mut rocksdb_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_is_fd_close_on_exec", |o| {
            o.s.is_fd_close_on_exec = ffi::c_bool(v)
        })
    }
}

/// Returns `is_fd_close_on_exec` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_is_fd_close_on_exec(
    options: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_is_fd_close_on_exec", |o| {
            ffi::to_c_bool(o.s.is_fd_close_on_exec)
        })
    }
}

/// Sets `keep_log_file_num`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_keep_log_file_num(
    options: *mut rocksdb_options_t,
    v: usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_keep_log_file_num", |o| {
            o.s.keep_log_file_num = v
        })
    }
}

/// Returns `keep_log_file_num` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_keep_log_file_num(
    options: *mut rocksdb_options_t,
) -> usize {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_keep_log_file_num", |o| {
            o.s.keep_log_file_num
        })
    }
}

/// Sets `level0_file_num_compaction_trigger`; the engine honours it (`engine::options`).
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_level0_file_num_compaction_trigger(
    options: *mut rocksdb_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_level0_file_num_compaction_trigger",
            |o| o.cf.level0_file_num_compaction_trigger = v,
        )
    }
}

/// Returns `level0_file_num_compaction_trigger` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_level0_file_num_compaction_trigger(
    options: *mut rocksdb_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_level0_file_num_compaction_trigger",
            |o| o.cf.level0_file_num_compaction_trigger,
        )
    }
}

/// Sets `level0_slowdown_writes_trigger`; the engine honours it (`engine::options`).
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_level0_slowdown_writes_trigger(
    options: *mut rocksdb_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_level0_slowdown_writes_trigger",
            |o| o.cf.level0_slowdown_writes_trigger = v,
        )
    }
}

/// Returns `level0_slowdown_writes_trigger` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_level0_slowdown_writes_trigger(
    options: *mut rocksdb_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_level0_slowdown_writes_trigger",
            |o| o.cf.level0_slowdown_writes_trigger,
        )
    }
}

/// Sets `level0_stop_writes_trigger`; the engine honours it (`engine::options`).
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_level0_stop_writes_trigger(
    options: *mut rocksdb_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_level0_stop_writes_trigger",
            |o| o.cf.level0_stop_writes_trigger = v,
        )
    }
}

/// Returns `level0_stop_writes_trigger` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_level0_stop_writes_trigger(
    options: *mut rocksdb_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_level0_stop_writes_trigger",
            |o| o.cf.level0_stop_writes_trigger,
        )
    }
}

/// Sets `level_compaction_dynamic_level_bytes`; the engine honours it (`engine::options`).
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_level_compaction_dynamic_level_bytes(
    options: *mut rocksdb_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_level_compaction_dynamic_level_bytes",
            |o| o.cf.level_compaction_dynamic_level_bytes = ffi::c_bool(v),
        )
    }
}

/// Returns `level_compaction_dynamic_level_bytes` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_level_compaction_dynamic_level_bytes(
    options: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_level_compaction_dynamic_level_bytes",
            |o| ffi::to_c_bool(o.cf.level_compaction_dynamic_level_bytes),
        )
    }
}

/// Sets `log_file_time_to_roll`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_log_file_time_to_roll(
    options: *mut rocksdb_options_t,
    v: usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_log_file_time_to_roll", |o| {
            o.s.log_file_time_to_roll = v
        })
    }
}

/// Returns `log_file_time_to_roll` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_log_file_time_to_roll(
    options: *mut rocksdb_options_t,
) -> usize {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_log_file_time_to_roll", |o| {
            o.s.log_file_time_to_roll
        })
    }
}

/// Sets `manifest_preallocation_size`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_manifest_preallocation_size(
    options: *mut rocksdb_options_t,
    v: usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_manifest_preallocation_size",
            |o| o.s.manifest_preallocation_size = v,
        )
    }
}

/// Returns `manifest_preallocation_size` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_manifest_preallocation_size(
    options: *mut rocksdb_options_t,
) -> usize {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_manifest_preallocation_size",
            |o| o.s.manifest_preallocation_size,
        )
    }
}

/// Sets `manual_wal_flush`; the engine honours it (`engine::options`).
///
/// # Safety
/// `opt` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_manual_wal_flush(
    opt: *mut rocksdb_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_manual_wal_flush", |o| {
            o.db.manual_wal_flush = ffi::c_bool(v)
        })
    }
}

/// Returns `manual_wal_flush` as last set, or RocksDB's default. 0 for a NULL `opt`.
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_manual_wal_flush(
    opt: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(opt, "rocksdb_options_get_manual_wal_flush", |o| {
            ffi::to_c_bool(o.db.manual_wal_flush)
        })
    }
}

/// Sets `max_background_compactions` (the engine's compaction slots (RocksDB's `GetBGJobLimits`); copied to the engine at open).
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_max_background_compactions(
    options: *mut rocksdb_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_max_background_compactions",
            |o| o.s.max_background_compactions = v,
        )
    }
}

/// Returns `max_background_compactions` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_max_background_compactions(
    options: *mut rocksdb_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_max_background_compactions",
            |o| o.s.max_background_compactions,
        )
    }
}

/// Sets `max_background_flushes` (the engine's flush slots (RocksDB's `GetBGJobLimits`); copied to the engine at open).
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_max_background_flushes(
    options: *mut rocksdb_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_max_background_flushes", |o| {
            o.s.max_background_flushes = v
        })
    }
}

/// Returns `max_background_flushes` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_max_background_flushes(
    options: *mut rocksdb_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_max_background_flushes", |o| {
            o.s.max_background_flushes
        })
    }
}

/// Sets `max_background_jobs`. solistore keeps the value (its getter returns it, the OPTIONS file records
/// it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_max_background_jobs(
    options: *mut rocksdb_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_max_background_jobs", |o| {
            o.db.max_background_jobs = v
        })
    }
}

/// Returns `max_background_jobs` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_max_background_jobs(
    options: *mut rocksdb_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_max_background_jobs", |o| {
            o.db.max_background_jobs
        })
    }
}

/// Sets `max_bytes_for_level_base`; the engine honours it (`engine::options`).
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_max_bytes_for_level_base(
    options: *mut rocksdb_options_t,
    v: u64,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_max_bytes_for_level_base",
            |o| o.cf.max_bytes_for_level_base = v,
        )
    }
}

/// Returns `max_bytes_for_level_base` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_max_bytes_for_level_base(
    options: *mut rocksdb_options_t,
) -> u64 {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_max_bytes_for_level_base",
            |o| o.cf.max_bytes_for_level_base,
        )
    }
}

/// Sets `max_bytes_for_level_multiplier`; the engine honours it (`engine::options`).
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_max_bytes_for_level_multiplier(
    options: *mut rocksdb_options_t,
    v: f64,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_max_bytes_for_level_multiplier",
            |o| o.cf.max_bytes_for_level_multiplier = v,
        )
    }
}

/// Returns `max_bytes_for_level_multiplier` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_max_bytes_for_level_multiplier(
    options: *mut rocksdb_options_t,
) -> f64 {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_max_bytes_for_level_multiplier",
            |o| o.cf.max_bytes_for_level_multiplier,
        )
    }
}

/// Sets `max_compaction_bytes`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_max_compaction_bytes(
    options: *mut rocksdb_options_t,
    v: u64,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_max_compaction_bytes", |o| {
            o.s.max_compaction_bytes = v
        })
    }
}

/// Returns `max_compaction_bytes` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_max_compaction_bytes(
    options: *mut rocksdb_options_t,
) -> u64 {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_max_compaction_bytes", |o| {
            o.s.max_compaction_bytes
        })
    }
}

/// Sets `max_file_opening_threads`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_max_file_opening_threads(
    options: *mut rocksdb_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_max_file_opening_threads",
            |o| o.s.max_file_opening_threads = v,
        )
    }
}

/// Returns `max_file_opening_threads` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_max_file_opening_threads(
    options: *mut rocksdb_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_max_file_opening_threads",
            |o| o.s.max_file_opening_threads,
        )
    }
}

/// Sets `max_log_file_size`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_max_log_file_size(
    options: *mut rocksdb_options_t,
    v: usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_max_log_file_size", |o| {
            o.s.max_log_file_size = v
        })
    }
}

/// Returns `max_log_file_size` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_max_log_file_size(
    options: *mut rocksdb_options_t,
) -> usize {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_max_log_file_size", |o| {
            o.s.max_log_file_size
        })
    }
}

/// Sets `max_manifest_file_size`. solistore keeps the value (its getter returns it, the OPTIONS file records
/// it) but does not act on it yet (a new MANIFEST is started at each open only).
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_max_manifest_file_size(
    options: *mut rocksdb_options_t,
    v: usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_max_manifest_file_size", |o| {
            o.db.max_manifest_file_size = u64::try_from(v).unwrap_or(u64::MAX)
        })
    }
}

/// Returns `max_manifest_file_size` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_max_manifest_file_size(
    options: *mut rocksdb_options_t,
) -> usize {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_max_manifest_file_size", |o| {
            usize::try_from(o.db.max_manifest_file_size).unwrap_or(usize::MAX)
        })
    }
}

/// Sets `max_open_files`. solistore keeps the value (its getter returns it, the OPTIONS file records
/// it) but does not act on it yet (every live table stays open, as with -1).
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_max_open_files(
    options: *mut rocksdb_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_max_open_files", |o| {
            o.db.max_open_files = v
        })
    }
}

/// Returns `max_open_files` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_max_open_files(
    options: *mut rocksdb_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_max_open_files", |o| {
            o.db.max_open_files
        })
    }
}

/// Sets `max_sequential_skip_in_iterations`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_max_sequential_skip_in_iterations(
    options: *mut rocksdb_options_t,
    v: u64,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_max_sequential_skip_in_iterations",
            |o| o.s.max_sequential_skip_in_iterations = v,
        )
    }
}

/// Returns `max_sequential_skip_in_iterations` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_max_sequential_skip_in_iterations(
    options: *mut rocksdb_options_t,
) -> u64 {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_max_sequential_skip_in_iterations",
            |o| o.s.max_sequential_skip_in_iterations,
        )
    }
}

/// Sets `max_subcompactions` (the engine splits L0 and manual compactions over this many threads; copied to the engine at open).
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_max_subcompactions(
    options: *mut rocksdb_options_t,
    v: u32,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_max_subcompactions", |o| {
            o.s.max_subcompactions = v
        })
    }
}

/// Returns `max_subcompactions` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_max_subcompactions(
    options: *mut rocksdb_options_t,
) -> u32 {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_max_subcompactions", |o| {
            o.s.max_subcompactions
        })
    }
}

/// Sets `max_successive_merges`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_max_successive_merges(
    options: *mut rocksdb_options_t,
    v: usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_max_successive_merges", |o| {
            o.s.max_successive_merges = v
        })
    }
}

/// Returns `max_successive_merges` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_max_successive_merges(
    options: *mut rocksdb_options_t,
) -> usize {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_max_successive_merges", |o| {
            o.s.max_successive_merges
        })
    }
}

/// Sets `max_total_wal_size`. solistore keeps the value (its getter returns it, the OPTIONS file records
/// it) but does not act on it yet (a WAL is deleted once every family has flushed what it
/// holds; no flush is forced by the WALs' total size).
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_max_total_wal_size(
    opt: *mut rocksdb_options_t,
    n: u64,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_max_total_wal_size", |o| {
            o.db.max_total_wal_size = n
        })
    }
}

/// Returns `max_total_wal_size` as last set, or RocksDB's default. 0 for a NULL `opt`.
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_max_total_wal_size(
    opt: *mut rocksdb_options_t,
) -> u64 {
    // SAFETY: forwarded contract.
    unsafe {
        get(opt, "rocksdb_options_get_max_total_wal_size", |o| {
            o.db.max_total_wal_size
        })
    }
}

/// Sets `max_write_buffer_number`; the engine honours it (`engine::options`).
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_max_write_buffer_number(
    options: *mut rocksdb_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_max_write_buffer_number",
            |o| o.cf.max_write_buffer_number = v,
        )
    }
}

/// Returns `max_write_buffer_number` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_max_write_buffer_number(
    options: *mut rocksdb_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_max_write_buffer_number",
            |o| o.cf.max_write_buffer_number,
        )
    }
}

/// Sets `max_write_buffer_number_to_maintain`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_max_write_buffer_number_to_maintain(
    options: *mut rocksdb_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_max_write_buffer_number_to_maintain",
            |o| o.s.max_write_buffer_number_to_maintain = v,
        )
    }
}

/// Returns `max_write_buffer_number_to_maintain` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_max_write_buffer_number_to_maintain(
    options: *mut rocksdb_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_max_write_buffer_number_to_maintain",
            |o| o.s.max_write_buffer_number_to_maintain,
        )
    }
}

/// Sets `max_write_buffer_size_to_maintain`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_max_write_buffer_size_to_maintain(
    options: *mut rocksdb_options_t,
    v: i64,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_max_write_buffer_size_to_maintain",
            |o| o.s.max_write_buffer_size_to_maintain = v,
        )
    }
}

/// Returns `max_write_buffer_size_to_maintain` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_max_write_buffer_size_to_maintain(
    options: *mut rocksdb_options_t,
) -> i64 {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_max_write_buffer_size_to_maintain",
            |o| o.s.max_write_buffer_size_to_maintain,
        )
    }
}

/// Sets `memtable_avg_op_scan_flush_trigger`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_memtable_avg_op_scan_flush_trigger(
    options: *mut rocksdb_options_t,
    v: u32,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_memtable_avg_op_scan_flush_trigger",
            |o| o.s.memtable_avg_op_scan_flush_trigger = v,
        )
    }
}

/// Returns `memtable_avg_op_scan_flush_trigger` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_memtable_avg_op_scan_flush_trigger(
    options: *mut rocksdb_options_t,
) -> u32 {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_memtable_avg_op_scan_flush_trigger",
            |o| o.s.memtable_avg_op_scan_flush_trigger,
        )
    }
}

/// Sets `memtable_huge_page_size`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_memtable_huge_page_size(
    options: *mut rocksdb_options_t,
    v: usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_memtable_huge_page_size",
            |o| o.s.memtable_huge_page_size = v,
        )
    }
}

/// Returns `memtable_huge_page_size` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_memtable_huge_page_size(
    options: *mut rocksdb_options_t,
) -> usize {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_memtable_huge_page_size",
            |o| o.s.memtable_huge_page_size,
        )
    }
}

/// Sets `memtable_op_scan_flush_trigger`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_memtable_op_scan_flush_trigger(
    options: *mut rocksdb_options_t,
    v: u32,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_memtable_op_scan_flush_trigger",
            |o| o.s.memtable_op_scan_flush_trigger = v,
        )
    }
}

/// Returns `memtable_op_scan_flush_trigger` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_memtable_op_scan_flush_trigger(
    options: *mut rocksdb_options_t,
) -> u32 {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_memtable_op_scan_flush_trigger",
            |o| o.s.memtable_op_scan_flush_trigger,
        )
    }
}

/// Sets `memtable_prefix_bloom_size_ratio`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_memtable_prefix_bloom_size_ratio(
    options: *mut rocksdb_options_t,
    v: f64,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_memtable_prefix_bloom_size_ratio",
            |o| o.s.memtable_prefix_bloom_size_ratio = v,
        )
    }
}

/// Returns `memtable_prefix_bloom_size_ratio` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_memtable_prefix_bloom_size_ratio(
    options: *mut rocksdb_options_t,
) -> f64 {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_memtable_prefix_bloom_size_ratio",
            |o| o.s.memtable_prefix_bloom_size_ratio,
        )
    }
}

/// Sets `memtable_whole_key_filtering`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_memtable_whole_key_filtering(
    options: *mut rocksdb_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_memtable_whole_key_filtering",
            |o| o.s.memtable_whole_key_filtering = ffi::c_bool(v),
        )
    }
}

/// Sets `min_blob_size`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_min_blob_size(opt: *mut rocksdb_options_t, val: u64) {
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_min_blob_size", |o| {
            o.s.min_blob_size = val
        })
    }
}

/// Returns `min_blob_size` as last set, or RocksDB's default. 0 for a NULL `opt`.
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_min_blob_size(opt: *mut rocksdb_options_t) -> u64 {
    // SAFETY: forwarded contract.
    unsafe {
        get(opt, "rocksdb_options_get_min_blob_size", |o| {
            o.s.min_blob_size
        })
    }
}

/// Sets `min_write_buffer_number_to_merge`. solistore keeps the value (its getter returns it, the OPTIONS file records
/// it) but does not act on it yet (each immutable memtable is flushed on its own).
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_min_write_buffer_number_to_merge(
    options: *mut rocksdb_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_min_write_buffer_number_to_merge",
            |o| o.cf.min_write_buffer_number_to_merge = v,
        )
    }
}

/// Returns `min_write_buffer_number_to_merge` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_min_write_buffer_number_to_merge(
    options: *mut rocksdb_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_min_write_buffer_number_to_merge",
            |o| o.cf.min_write_buffer_number_to_merge,
        )
    }
}

/// Sets `num_levels`; the engine honours it (`engine::options`).
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_num_levels(options: *mut rocksdb_options_t, v: c_int) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_num_levels", |o| {
            o.cf.num_levels = v
        })
    }
}

/// Returns `num_levels` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_num_levels(options: *mut rocksdb_options_t) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_num_levels", |o| {
            o.cf.num_levels
        })
    }
}

/// Sets `open_files_async`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_open_files_async(
    options: *mut rocksdb_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_open_files_async", |o| {
            o.s.open_files_async = ffi::c_bool(v)
        })
    }
}

/// Returns `open_files_async` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_open_files_async(
    options: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_open_files_async", |o| {
            ffi::to_c_bool(o.s.open_files_async)
        })
    }
}

/// Sets `optimize_filters_for_hits`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_optimize_filters_for_hits(
    options: *mut rocksdb_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_optimize_filters_for_hits",
            |o| o.s.optimize_filters_for_hits = v != 0,
        )
    }
}

/// Returns `optimize_filters_for_hits` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_optimize_filters_for_hits(
    options: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_optimize_filters_for_hits",
            |o| ffi::to_c_bool(o.s.optimize_filters_for_hits),
        )
    }
}

/// Sets `paranoid_checks`. solistore keeps the value (its getter returns it, the OPTIONS file records
/// it) but does not act on it yet (background errors always stop writes, as with true;
/// docs/design/differences-from-rocksdb.md).
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_paranoid_checks(
    options: *mut rocksdb_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_paranoid_checks", |o| {
            o.db.paranoid_checks = ffi::c_bool(v)
        })
    }
}

/// Returns `paranoid_checks` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_paranoid_checks(
    options: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_paranoid_checks", |o| {
            ffi::to_c_bool(o.db.paranoid_checks)
        })
    }
}

/// Sets `periodic_compaction_seconds`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_periodic_compaction_seconds(
    options: *mut rocksdb_options_t,
    v: u64,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_periodic_compaction_seconds",
            |o| o.s.periodic_compaction_seconds = v,
        )
    }
}

/// Returns `periodic_compaction_seconds` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_periodic_compaction_seconds(
    options: *mut rocksdb_options_t,
) -> u64 {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_periodic_compaction_seconds",
            |o| o.s.periodic_compaction_seconds,
        )
    }
}

/// Sets `prepopulate_blob_cache`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_prepopulate_blob_cache(
    opt: *mut rocksdb_options_t,
    val: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_prepopulate_blob_cache", |o| {
            o.s.prepopulate_blob_cache = val
        })
    }
}

/// Returns `prepopulate_blob_cache` as last set, or RocksDB's default. 0 for a NULL `opt`.
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_prepopulate_blob_cache(
    opt: *mut rocksdb_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(opt, "rocksdb_options_get_prepopulate_blob_cache", |o| {
            o.s.prepopulate_blob_cache
        })
    }
}

/// Sets `recycle_log_file_num`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_recycle_log_file_num(
    options: *mut rocksdb_options_t,
    v: usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_recycle_log_file_num", |o| {
            o.s.recycle_log_file_num = v
        })
    }
}

/// Returns `recycle_log_file_num` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_recycle_log_file_num(
    options: *mut rocksdb_options_t,
) -> usize {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_recycle_log_file_num", |o| {
            o.s.recycle_log_file_num
        })
    }
}

/// Sets `report_bg_io_stats`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_report_bg_io_stats(
    options: *mut rocksdb_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_report_bg_io_stats", |o| {
            o.s.report_bg_io_stats = v != 0
        })
    }
}

/// Returns `report_bg_io_stats` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_report_bg_io_stats(
    options: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_report_bg_io_stats", |o| {
            ffi::to_c_bool(o.s.report_bg_io_stats)
        })
    }
}

/// Sets `skip_checking_sst_file_sizes_on_db_open`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_skip_checking_sst_file_sizes_on_db_open(
    opt: *mut rocksdb_options_t,
    val: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            opt,
            "rocksdb_options_set_skip_checking_sst_file_sizes_on_db_open",
            |o| o.s.skip_checking_sst_file_sizes_on_db_open = ffi::c_bool(val),
        )
    }
}

/// Returns `skip_checking_sst_file_sizes_on_db_open` as last set, or RocksDB's default. 0 for a NULL `opt`.
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_skip_checking_sst_file_sizes_on_db_open(
    opt: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            opt,
            "rocksdb_options_get_skip_checking_sst_file_sizes_on_db_open",
            |o| ffi::to_c_bool(o.s.skip_checking_sst_file_sizes_on_db_open),
        )
    }
}

/// Sets `skip_stats_update_on_db_open`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_skip_stats_update_on_db_open(
    opt: *mut rocksdb_options_t,
    val: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            opt,
            "rocksdb_options_set_skip_stats_update_on_db_open",
            |o| o.s.skip_stats_update_on_db_open = ffi::c_bool(val),
        )
    }
}

/// Returns `skip_stats_update_on_db_open` as last set, or RocksDB's default. 0 for a NULL `opt`.
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_skip_stats_update_on_db_open(
    opt: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            opt,
            "rocksdb_options_get_skip_stats_update_on_db_open",
            |o| ffi::to_c_bool(o.s.skip_stats_update_on_db_open),
        )
    }
}

/// Sets `soft_pending_compaction_bytes_limit` (a write stall trigger; copied to the engine at open).
///
/// # Safety
/// `opt` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_soft_pending_compaction_bytes_limit(
    opt: *mut rocksdb_options_t,
    v: usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            opt,
            "rocksdb_options_set_soft_pending_compaction_bytes_limit",
            |o| o.s.soft_pending_compaction_bytes_limit = v,
        )
    }
}

/// Returns `soft_pending_compaction_bytes_limit` as last set, or RocksDB's default. 0 for a NULL `opt`.
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_soft_pending_compaction_bytes_limit(
    opt: *mut rocksdb_options_t,
) -> usize {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            opt,
            "rocksdb_options_get_soft_pending_compaction_bytes_limit",
            |o| o.s.soft_pending_compaction_bytes_limit,
        )
    }
}

/// Sets `stats_dump_period_sec`. solistore keeps the value (its getter returns it, the OPTIONS file records
/// it) but does not act on it yet (there is no LOG file to dump statistics to).
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_stats_dump_period_sec(
    options: *mut rocksdb_options_t,
    v: c_uint,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_stats_dump_period_sec", |o| {
            o.db.stats_dump_period_sec = v
        })
    }
}

/// Returns `stats_dump_period_sec` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_stats_dump_period_sec(
    options: *mut rocksdb_options_t,
) -> c_uint {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_stats_dump_period_sec", |o| {
            o.db.stats_dump_period_sec
        })
    }
}

/// Sets `stats_persist_period_sec`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_stats_persist_period_sec(
    options: *mut rocksdb_options_t,
    v: c_uint,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_stats_persist_period_sec",
            |o| o.s.stats_persist_period_sec = v,
        )
    }
}

/// Returns `stats_persist_period_sec` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_stats_persist_period_sec(
    options: *mut rocksdb_options_t,
) -> c_uint {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_stats_persist_period_sec",
            |o| o.s.stats_persist_period_sec,
        )
    }
}

/// Sets `table_cache_numshardbits`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_table_cache_numshardbits(
    options: *mut rocksdb_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_table_cache_numshardbits",
            |o| o.s.table_cache_numshardbits = v,
        )
    }
}

/// Returns `table_cache_numshardbits` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_table_cache_numshardbits(
    options: *mut rocksdb_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_table_cache_numshardbits",
            |o| o.s.table_cache_numshardbits,
        )
    }
}

/// Sets `target_file_size_base`; the engine honours it (`engine::options`).
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_target_file_size_base(
    options: *mut rocksdb_options_t,
    v: u64,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_target_file_size_base", |o| {
            o.cf.target_file_size_base = v
        })
    }
}

/// Returns `target_file_size_base` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_target_file_size_base(
    options: *mut rocksdb_options_t,
) -> u64 {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_target_file_size_base", |o| {
            o.cf.target_file_size_base
        })
    }
}

/// Sets `target_file_size_multiplier`; the engine honours it (`engine::options`).
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_target_file_size_multiplier(
    options: *mut rocksdb_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_target_file_size_multiplier",
            |o| o.cf.target_file_size_multiplier = v,
        )
    }
}

/// Returns `target_file_size_multiplier` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_target_file_size_multiplier(
    options: *mut rocksdb_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_target_file_size_multiplier",
            |o| o.cf.target_file_size_multiplier,
        )
    }
}

/// Sets `track_and_verify_wals_in_manifest`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_track_and_verify_wals_in_manifest(
    options: *mut rocksdb_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_track_and_verify_wals_in_manifest",
            |o| o.s.track_and_verify_wals_in_manifest = ffi::c_bool(v),
        )
    }
}

/// Returns `track_and_verify_wals_in_manifest` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_track_and_verify_wals_in_manifest(
    options: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_track_and_verify_wals_in_manifest",
            |o| ffi::to_c_bool(o.s.track_and_verify_wals_in_manifest),
        )
    }
}

/// Sets `ttl`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_ttl(options: *mut rocksdb_options_t, v: u64) {
    // SAFETY: forwarded contract.
    unsafe { set(options, "rocksdb_options_set_ttl", |o| o.s.ttl = v) }
}

/// Returns `ttl` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_ttl(options: *mut rocksdb_options_t) -> u64 {
    // SAFETY: forwarded contract.
    unsafe { get(options, "rocksdb_options_get_ttl", |o| o.s.ttl) }
}

/// Sets `unordered_write`. solistore keeps the value (its getter returns it, the OPTIONS file records
/// it) but does not act on it yet (writes are always ordered).
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_unordered_write(
    options: *mut rocksdb_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_unordered_write", |o| {
            o.db.unordered_write = ffi::c_bool(v)
        })
    }
}

/// Returns `unordered_write` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_unordered_write(
    options: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_unordered_write", |o| {
            ffi::to_c_bool(o.db.unordered_write)
        })
    }
}

/// Sets `use_adaptive_mutex`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_use_adaptive_mutex(
    options: *mut rocksdb_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_use_adaptive_mutex", |o| {
            o.s.use_adaptive_mutex = ffi::c_bool(v)
        })
    }
}

/// Returns `use_adaptive_mutex` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_use_adaptive_mutex(
    options: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_use_adaptive_mutex", |o| {
            ffi::to_c_bool(o.s.use_adaptive_mutex)
        })
    }
}

/// Sets `use_direct_io_for_flush_and_compaction`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_use_direct_io_for_flush_and_compaction(
    options: *mut rocksdb_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_use_direct_io_for_flush_and_compaction",
            |o| o.s.use_direct_io_for_flush_and_compaction = ffi::c_bool(v),
        )
    }
}

/// Returns `use_direct_io_for_flush_and_compaction` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_use_direct_io_for_flush_and_compaction(
    options: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_use_direct_io_for_flush_and_compaction",
            |o| ffi::to_c_bool(o.s.use_direct_io_for_flush_and_compaction),
        )
    }
}

/// Sets `use_direct_reads`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_use_direct_reads(
    options: *mut rocksdb_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_use_direct_reads", |o| {
            o.s.use_direct_reads = ffi::c_bool(v)
        })
    }
}

/// Returns `use_direct_reads` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_use_direct_reads(
    options: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_use_direct_reads", |o| {
            ffi::to_c_bool(o.s.use_direct_reads)
        })
    }
}

/// Sets `use_fsync`. solistore keeps the value (its getter returns it, the OPTIONS file records
/// it) but does not act on it yet (syncs use fdatasync).
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_use_fsync(options: *mut rocksdb_options_t, v: c_int) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_use_fsync", |o| {
            o.db.use_fsync = v != 0
        })
    }
}

/// Returns `use_fsync` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_use_fsync(options: *mut rocksdb_options_t) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_use_fsync", |o| {
            c_int::from(o.db.use_fsync)
        })
    }
}

/// Sets `wal_bytes_per_sync`. solistore keeps the value (its getter returns it, the OPTIONS file records
/// it) but does not act on it yet (the WAL is synced only when a write asks for it).
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_wal_bytes_per_sync(
    options: *mut rocksdb_options_t,
    v: u64,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_wal_bytes_per_sync", |o| {
            o.db.wal_bytes_per_sync = v
        })
    }
}

/// Returns `wal_bytes_per_sync` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_wal_bytes_per_sync(
    options: *mut rocksdb_options_t,
) -> u64 {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_wal_bytes_per_sync", |o| {
            o.db.wal_bytes_per_sync
        })
    }
}

/// Sets `wal_compression`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_wal_compression(
    opt: *mut rocksdb_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_wal_compression", |o| {
            o.s.wal_compression = v
        })
    }
}

/// Returns `wal_compression` as last set, or RocksDB's default. 0 for a NULL `opt`.
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_wal_compression(opt: *mut rocksdb_options_t) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(opt, "rocksdb_options_get_wal_compression", |o| {
            o.s.wal_compression
        })
    }
}

/// Sets `writable_file_max_buffer_size`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_writable_file_max_buffer_size(
    options: *mut rocksdb_options_t,
    v: u64,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_options_set_writable_file_max_buffer_size",
            |o| o.s.writable_file_max_buffer_size = v,
        )
    }
}

/// Returns `writable_file_max_buffer_size` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_writable_file_max_buffer_size(
    options: *mut rocksdb_options_t,
) -> u64 {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            options,
            "rocksdb_options_get_writable_file_max_buffer_size",
            |o| o.s.writable_file_max_buffer_size,
        )
    }
}

/// Sets `write_buffer_size`; the engine honours it (`engine::options`).
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_write_buffer_size(
    options: *mut rocksdb_options_t,
    v: usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_write_buffer_size", |o| {
            o.cf.write_buffer_size = v
        })
    }
}

/// Returns `write_buffer_size` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_write_buffer_size(
    options: *mut rocksdb_options_t,
) -> usize {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_write_buffer_size", |o| {
            o.cf.write_buffer_size
        })
    }
}

/// Sets `write_dbid_to_manifest`; the engine honours it (`engine::options`).
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_write_dbid_to_manifest(
    options: *mut rocksdb_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_write_dbid_to_manifest", |o| {
            o.db.write_dbid_to_manifest = ffi::c_bool(v)
        })
    }
}

/// Returns `write_dbid_to_manifest` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_write_dbid_to_manifest(
    options: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_write_dbid_to_manifest", |o| {
            ffi::to_c_bool(o.db.write_dbid_to_manifest)
        })
    }
}

/// Sets `write_identity_file`. solistore keeps the value (its getter returns it) but does not act on it yet.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_write_identity_file(
    options: *mut rocksdb_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_options_set_write_identity_file", |o| {
            o.s.write_identity_file = ffi::c_bool(v)
        })
    }
}

/// Returns `write_identity_file` as last set, or RocksDB's default. 0 for a NULL `options`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_write_identity_file(
    options: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(options, "rocksdb_options_get_write_identity_file", |o| {
            ffi::to_c_bool(o.s.write_identity_file)
        })
    }
}
