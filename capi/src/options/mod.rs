// SPDX-License-Identifier: Apache-2.0
//! `rocksdb_options_*`: the DB and default column family options handed to `rocksdb_open*`
//! and `rocksdb_create_column_family` (config path).
//!
//! A `rocksdb_options_t` is the engine's [`DbOptions`] and [`ColumnFamilyOptions`] plus
//! [`StoredOptions`], the values the engine does not act on yet. Setters for options the engine
//! has write the engine field; the rest are kept so that their getters return them (their doc
//! carries the "stores value only" marker). The plain setter/getter pairs are in `accessors`;
//! this file has the ones with structure: callback objects, shared objects, tables, compression,
//! statistics, and the `optimize_*` presets.
//!
//! Ownership (c-api-conventions.md §4–5):
//! - the options are copied by `rocksdb_open*` and `rocksdb_options_create_copy`
//!   (`Clone`; shared objects are `Arc`s, so copies share them as RocksDB's `shared_ptr`s do);
//! - merge operator, prefix extractor and compaction filter factory: ownership moves to the
//!   options (`transfer`): setting consumes the handle; the caller must not destroy it, and a
//!   destroy anyway is a no-op;
//! - comparator and compaction filter: borrowed; the caller destroys them after the last DB
//!   using them is closed, which runs their destructor;
//! - caches, rate limiter, write buffer manager, env: shared; the caller may destroy its
//!   handle right after setting.

pub(crate) mod accessors;
pub mod cuckoo_options;
pub mod dbpath;
pub mod fifo_compaction_options;
pub(crate) mod open;
pub(crate) mod statistics;
pub(crate) mod stored;
#[cfg(test)]
mod tests;
pub(crate) mod transfer;
pub mod universal_compaction_options;

use std::ffi::{c_char, c_int, c_uchar};
use std::sync::Arc;

use engine::merge::UInt64AddOperator;
use engine::options::{ColumnFamilyOptions, DbOptions, WalRecoveryMode};

use crate::block_based_options::{BlockBasedTableOptions, DataBlockIndexType};
use crate::cache::{rocksdb_cache_t, Cache};
use crate::compactionfilter::{rocksdb_compactionfilter_t, rocksdb_compactionfilterfactory_t};
use crate::comparator::rocksdb_comparator_t;
use crate::env::{rocksdb_env_t, Env, Priority};
use crate::ffi::{self, FailValue};
use crate::filterpolicy::FilterPolicy;
use crate::mergeoperator::rocksdb_mergeoperator_t;
use crate::ratelimiter::rocksdb_ratelimiter_t;
use crate::slicetransform::rocksdb_slicetransform_t;
use crate::types::{
    rocksdb_compactionservice_t, rocksdb_eventlistener_t, rocksdb_file_checksum_gen_factory_t,
    rocksdb_logger_t, rocksdb_sst_file_manager_t, rocksdb_sst_partitioner_factory_t,
    rocksdb_statistics_histogram_data_t, rocksdb_table_properties_collector_factory_t,
};
use crate::write_buffer_manager::rocksdb_write_buffer_manager_t;

use self::cuckoo_options::rocksdb_cuckoo_table_options_t;
use self::dbpath::rocksdb_dbpath_t;
use self::fifo_compaction_options::rocksdb_fifo_compaction_options_t;
use self::statistics::Statistics;
use self::stored::{
    CompactOnDeletion, DbPath, MemtableRep, PlainTableOptions, StoredOptions, TableFactory,
};
use self::universal_compaction_options::rocksdb_universal_compaction_options_t;

/// Options for opening a DB or creating a column family. Ownership: owned by the caller
/// (`rocksdb_options_create` / `rocksdb_options_destroy`); `rocksdb_open*` copies it, so it
/// may be changed or destroyed right after.
#[derive(Clone, Default)]
pub struct rocksdb_options_t {
    /// DB-wide options.
    pub(crate) db: DbOptions,
    /// Column family options (comparator, merge operator, write buffers, ...).
    pub(crate) cf: ColumnFamilyOptions,
    /// Values the engine does not act on yet (tables, compression, compaction styles, ...).
    pub(crate) s: StoredOptions,
}

/// Runs a setter body on the object behind `opt` (options and the other plain option
/// objects); a NULL `opt` makes the call a no-op.
///
/// # Safety
/// `opt` must be NULL or a live handle of type `T` not borrowed elsewhere.
pub(crate) unsafe fn set<T>(opt: *mut T, name: &'static str, f: impl FnOnce(&mut T)) {
    ffi::guarded_no_err(name, || {
        // SAFETY: guaranteed by the caller.
        let o = unsafe { ffi::borrow_mut(opt, "opt")? };
        f(o);
        Ok(())
    })
}

/// Runs a getter body on the object behind `opt`; a NULL `opt` returns the fail value.
///
/// # Safety
/// `opt` must be NULL or a live handle of type `T`.
pub(crate) unsafe fn get<T, R: FailValue>(
    opt: *const T,
    name: &'static str,
    f: impl FnOnce(&T) -> R,
) -> R {
    ffi::guarded_no_err(name, || {
        // SAFETY: guaranteed by the caller.
        let o = unsafe { ffi::borrow(opt, "opt")? };
        Ok(f(o))
    })
}

/// Reads `len` entries of a C array; `(NULL, _)` is empty, and so is a `len` no array can
/// have (more than `isize::MAX` bytes; see `ffi`'s length rules).
///
/// # Safety
/// `ptr` must be NULL or address `len` readable `T`s.
unsafe fn c_array<'a, T>(ptr: *const T, len: usize) -> &'a [T] {
    if ptr.is_null() || len == 0 || !ffi::array_len_ok::<T>(len) {
        return &[];
    }
    // SAFETY: non-NULL with `len` readable entries per the contract.
    unsafe { std::slice::from_raw_parts(ptr, len) }
}

/// Creates options with RocksDB's defaults. Release with `rocksdb_options_destroy`.
///
/// # Safety
/// No pointer arguments: always safe to call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_create() -> *mut rocksdb_options_t {
    ffi::guarded_no_err("rocksdb_options_create", || {
        Ok(ffi::into_handle(rocksdb_options_t::default()))
    })
}

/// Returns an independent copy of `options` (shared objects such as caches, the merge
/// operator and statistics are shared, as RocksDB shares its `shared_ptr`s). NULL gives NULL.
/// Release with `rocksdb_options_destroy`.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_create_copy(
    options: *mut rocksdb_options_t,
) -> *mut rocksdb_options_t {
    ffi::guarded_no_err("rocksdb_options_create_copy", || {
        // SAFETY: forwarded contract.
        let o = unsafe { ffi::borrow(options, "options")? };
        Ok(ffi::into_handle(o.clone()))
    })
}

/// Destroys options. NULL is a no-op. Objects whose ownership was transferred to them (merge
/// operator, prefix extractor, compaction filter factory) are released when no other options
/// or DB holds them.
///
/// # Safety
/// `options` must be NULL or a live `rocksdb_options_t`, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_destroy(options: *mut rocksdb_options_t) {
    ffi::guarded_no_err("rocksdb_options_destroy", || {
        // SAFETY: forwarded contract.
        drop(unsafe { ffi::from_handle(options) });
        Ok(())
    })
}

/// Sets the WAL recovery mode (`rocksdb_*_recovery`, 0..=3); the engine honours it. Values
/// outside that range are ignored (RocksDB would store an invalid enum).
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_wal_recovery_mode(
    opt: *mut rocksdb_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_wal_recovery_mode", |o| {
            if let Some(mode) = WalRecoveryMode::from_i32(v) {
                o.db.wal_recovery_mode = mode;
            }
        })
    }
}

/// Returns the WAL recovery mode (default 2, point in time). 0 for NULL.
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_wal_recovery_mode(
    opt: *mut rocksdb_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(opt, "rocksdb_options_get_wal_recovery_mode", |o| {
            o.db.wal_recovery_mode as c_int
        })
    }
}

/// Sets the WAL directory (copied; written to the OPTIONS file). An empty string or NULL means
/// "in the DB directory". solistore keeps the WAL in the DB directory: `rocksdb_open*` fails
/// with `Not implemented: wal_dir <dir>: the WAL is always in the DB directory` for any other
/// directory, rather than ignore the logs that RocksDB would look for there.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`; `arg1` NULL or a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_wal_dir(
    opt: *mut rocksdb_options_t,
    arg1: *const c_char,
) {
    // SAFETY: forwarded contract.
    let dir = unsafe { ffi::cstr(arg1, "wal_dir") }
        .ok()
        .map(str::to_owned);
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_wal_dir", |o| {
            o.db.wal_dir = dir.filter(|d| !d.is_empty());
        })
    }
}

/// Sets the info log directory (copied). solistore writes no info log yet.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`; `arg1` NULL or a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_db_log_dir(
    opt: *mut rocksdb_options_t,
    arg1: *const c_char,
) {
    // SAFETY: forwarded contract.
    let dir = unsafe { ffi::cstr(arg1, "db_log_dir") }
        .unwrap_or("")
        .to_owned();
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_db_log_dir", |o| {
            o.s.db_log_dir = dir
        })
    }
}

/// Sets the user-key comparator; the engine orders keys with it and persists its name.
/// Borrowed: the caller keeps `comparator` alive until every DB opened with these options is
/// closed, then calls `rocksdb_comparator_destroy`. NULL restores the bytewise comparator.
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`; `comparator` NULL or a live
/// comparator.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_comparator(
    opt: *mut rocksdb_options_t,
    comparator: *mut rocksdb_comparator_t,
) {
    // SAFETY: forwarded contract.
    let cmp = unsafe { comparator.as_ref() }.map(rocksdb_comparator_t::engine_comparator);
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_comparator", |o| {
            o.cf.comparator = cmp.unwrap_or_else(|| Arc::new(engine::key::BytewiseComparator));
        })
    }
}

/// Sets the merge operator; the engine uses it for merges. Ownership moves to the options:
/// the handle is consumed, so the caller must not destroy it afterwards (doing so anyway
/// is a no-op).
/// Its destructor runs when the last options or DB holding it goes. NULL clears it.
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`; `mergeoperator` NULL or a
/// handle from `rocksdb_mergeoperator_create`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_merge_operator(
    opt: *mut rocksdb_options_t,
    mergeoperator: *mut rocksdb_mergeoperator_t,
) {
    ffi::guarded_no_err("rocksdb_options_set_merge_operator", || {
        // SAFETY: forwarded contract.
        let o = unsafe { ffi::borrow_mut(opt, "opt")? };
        // SAFETY: forwarded contract.
        let op = unsafe { transfer::install(mergeoperator) };
        o.cf.merge_operator = op.map(|op| op as Arc<dyn engine::merge::MergeOperator>);
        Ok(())
    })
}

/// Installs RocksDB's built-in `UInt64AddOperator` (little-endian u64 values that add up).
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_uint64add_merge_operator(opt: *mut rocksdb_options_t) {
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_uint64add_merge_operator", |o| {
            o.cf.merge_operator = Some(Arc::new(UInt64AddOperator));
        })
    }
}

/// Sets the compaction filter; compactions of DBs opened with these options call it for
/// every entry they rewrite. Borrowed: the caller destroys it after the last DB using it is
/// closed. It takes precedence over a compaction filter factory. NULL clears it.
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`; `compactionfilter` NULL or a
/// live compaction filter.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_compaction_filter(
    opt: *mut rocksdb_options_t,
    compactionfilter: *mut rocksdb_compactionfilter_t,
) {
    // SAFETY: forwarded contract.
    let filter = unsafe { compactionfilter.as_ref() }.map(|f| Arc::clone(&f.inner));
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_compaction_filter", |o| {
            o.s.compaction_filter = filter;
        })
    }
}

/// Sets the compaction filter factory; ownership moves to the options (see
/// `rocksdb_options_set_merge_operator`). Each compaction of DBs opened with these options
/// asks it for a filter (the context says whether the compaction is full and manual) and
/// destroys that filter when it ends. NULL clears it.
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`; `compactionfilterfactory` NULL
/// or a handle from `rocksdb_compactionfilterfactory_create`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_compaction_filter_factory(
    opt: *mut rocksdb_options_t,
    compactionfilterfactory: *mut rocksdb_compactionfilterfactory_t,
) {
    ffi::guarded_no_err("rocksdb_options_set_compaction_filter_factory", || {
        // SAFETY: forwarded contract.
        let o = unsafe { ffi::borrow_mut(opt, "opt")? };
        // SAFETY: forwarded contract.
        o.s.compaction_filter_factory = unsafe { transfer::install(compactionfilterfactory) };
        Ok(())
    })
}

/// Sets the prefix extractor; ownership moves to the options (see
/// `rocksdb_options_set_merge_operator`). The engine has no prefix seek or prefix bloom yet.
/// NULL clears it.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`; `slicetransform` NULL or a
/// handle from `rocksdb_slicetransform_create*`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_prefix_extractor(
    opt: *mut rocksdb_options_t,
    slicetransform: *mut rocksdb_slicetransform_t,
) {
    ffi::guarded_no_err("rocksdb_options_set_prefix_extractor", || {
        // SAFETY: forwarded contract.
        let o = unsafe { ffi::borrow_mut(opt, "opt")? };
        // SAFETY: forwarded contract.
        o.s.prefix_extractor = unsafe { transfer::install(slicetransform) };
        Ok(())
    })
}

/// Uses the block-based table format with a copy of `table_options` (later changes to it need
/// another call). NULL is ignored. DBs opened with these options write their tables with its
/// block size, filter policy (bloom; with `whole_key_filtering`), block cache (RocksDB's 8 MiB
/// default when none is set, unless `no_block_cache`) and `cache_index_and_filter_blocks`;
/// the other table options are kept for their getters.
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`; `table_options` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_block_based_table_factory(
    opt: *mut rocksdb_options_t,
    table_options: *mut crate::block_based_options::rocksdb_block_based_table_options_t,
) {
    // SAFETY: forwarded contract.
    let t = unsafe { table_options.as_ref() }.map(|t| t.opts.clone());
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_block_based_table_factory", |o| {
            if let Some(t) = t {
                o.s.table_factory = TableFactory::BlockBased(t);
                o.s.default_block_cache = open::DefaultBlockCache::default();
            }
        })
    }
}

/// Selects the cuckoo table format with a copy of `table_options`. NULL is ignored. solistore
/// writes only block-based tables.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`; `table_options` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_cuckoo_table_factory(
    opt: *mut rocksdb_options_t,
    table_options: *mut rocksdb_cuckoo_table_options_t,
) {
    // SAFETY: forwarded contract.
    let t = unsafe { table_options.as_ref() }.map(|t| t.opts.clone());
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_cuckoo_table_factory", |o| {
            if let Some(t) = t {
                o.s.table_factory = TableFactory::Cuckoo(t);
            }
        })
    }
}

/// Selects the plain table format (11.1.2's nine-parameter form). solistore writes only
/// block-based tables.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_plain_table_factory(
    opt: *mut rocksdb_options_t,
    user_key_len: u32,
    bloom_bits_per_key: c_int,
    hash_table_ratio: f64,
    index_sparseness: usize,
    huge_page_tlb_size: usize,
    encoding_type: c_char,
    full_scan_mode: c_uchar,
    store_index_in_file: c_uchar,
) {
    let t = PlainTableOptions {
        user_key_len,
        bloom_bits_per_key,
        hash_table_ratio,
        index_sparseness,
        huge_page_tlb_size,
        encoding_type,
        full_scan_mode: ffi::c_bool(full_scan_mode),
        store_index_in_file: ffi::c_bool(store_index_in_file),
    };
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_plain_table_factory", |o| {
            o.s.table_factory = TableFactory::Plain(t);
        })
    }
}

/// Sets window bits, level, strategy and max dict bytes of the compression options.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_compression_options(
    opt: *mut rocksdb_options_t,
    w_bits: c_int,
    level: c_int,
    strategy: c_int,
    max_dict_bytes: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_compression_options", |o| {
            let c = &mut o.s.compression_opts;
            (c.window_bits, c.level, c.strategy, c.max_dict_bytes) =
                (w_bits, level, strategy, max_dict_bytes);
        })
    }
}

/// Sets the compression options' `zstd_max_train_bytes`.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_compression_options_zstd_max_train_bytes(
    opt: *mut rocksdb_options_t,
    zstd_max_train_bytes: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            opt,
            "rocksdb_options_set_compression_options_zstd_max_train_bytes",
            |o| o.s.compression_opts.zstd_max_train_bytes = zstd_max_train_bytes,
        )
    }
}

/// Returns the compression options' `zstd_max_train_bytes` (default 0).
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_compression_options_zstd_max_train_bytes(
    opt: *mut rocksdb_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            opt,
            "rocksdb_options_get_compression_options_zstd_max_train_bytes",
            |o| o.s.compression_opts.zstd_max_train_bytes,
        )
    }
}

/// Sets the compression options' `use_zstd_dict_trainer`.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_compression_options_use_zstd_dict_trainer(
    opt: *mut rocksdb_options_t,
    use_zstd_dict_trainer: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            opt,
            "rocksdb_options_set_compression_options_use_zstd_dict_trainer",
            |o| o.s.compression_opts.use_zstd_dict_trainer = ffi::c_bool(use_zstd_dict_trainer),
        )
    }
}

/// Returns the compression options' `use_zstd_dict_trainer` (default 1).
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_compression_options_use_zstd_dict_trainer(
    opt: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            opt,
            "rocksdb_options_get_compression_options_use_zstd_dict_trainer",
            |o| ffi::to_c_bool(o.s.compression_opts.use_zstd_dict_trainer),
        )
    }
}

/// Sets the compression options' `parallel_threads`.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_compression_options_parallel_threads(
    opt: *mut rocksdb_options_t,
    value: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            opt,
            "rocksdb_options_set_compression_options_parallel_threads",
            |o| o.s.compression_opts.parallel_threads = value,
        )
    }
}

/// Returns the compression options' `parallel_threads` (default 1).
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_compression_options_parallel_threads(
    opt: *mut rocksdb_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            opt,
            "rocksdb_options_get_compression_options_parallel_threads",
            |o| o.s.compression_opts.parallel_threads,
        )
    }
}

/// Sets the compression options' `max_dict_buffer_bytes`.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_compression_options_max_dict_buffer_bytes(
    opt: *mut rocksdb_options_t,
    max_dict_buffer_bytes: u64,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            opt,
            "rocksdb_options_set_compression_options_max_dict_buffer_bytes",
            |o| o.s.compression_opts.max_dict_buffer_bytes = max_dict_buffer_bytes,
        )
    }
}

/// Returns the compression options' `max_dict_buffer_bytes` (default 0).
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_compression_options_max_dict_buffer_bytes(
    opt: *mut rocksdb_options_t,
) -> u64 {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            opt,
            "rocksdb_options_get_compression_options_max_dict_buffer_bytes",
            |o| o.s.compression_opts.max_dict_buffer_bytes,
        )
    }
}

/// Sets window bits, level, strategy, max dict bytes and `enabled` of the bottommost level's
/// compression options.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_bottommost_compression_options(
    opt: *mut rocksdb_options_t,
    w_bits: c_int,
    level: c_int,
    strategy: c_int,
    max_dict_bytes: c_int,
    enabled: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            opt,
            "rocksdb_options_set_bottommost_compression_options",
            |o| {
                let c = &mut o.s.bottommost_compression_opts;
                (c.window_bits, c.level, c.strategy, c.max_dict_bytes) =
                    (w_bits, level, strategy, max_dict_bytes);
                c.enabled = ffi::c_bool(enabled);
            },
        )
    }
}

/// Sets the bottommost compression options' `zstd_max_train_bytes` and `enabled`.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_bottommost_compression_options_zstd_max_train_bytes(
    opt: *mut rocksdb_options_t,
    zstd_max_train_bytes: c_int,
    enabled: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            opt,
            "rocksdb_options_set_bottommost_compression_options_zstd_max_train_bytes",
            |o| {
                let c = &mut o.s.bottommost_compression_opts;
                c.zstd_max_train_bytes = zstd_max_train_bytes;
                c.enabled = ffi::c_bool(enabled);
            },
        )
    }
}

/// Sets the bottommost compression options' `use_zstd_dict_trainer` and `enabled`.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_bottommost_compression_options_use_zstd_dict_trainer(
    opt: *mut rocksdb_options_t,
    use_zstd_dict_trainer: c_uchar,
    enabled: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            opt,
            "rocksdb_options_set_bottommost_compression_options_use_zstd_dict_trainer",
            |o| {
                let c = &mut o.s.bottommost_compression_opts;
                c.use_zstd_dict_trainer = ffi::c_bool(use_zstd_dict_trainer);
                c.enabled = ffi::c_bool(enabled);
            },
        )
    }
}

/// Returns the bottommost compression options' `use_zstd_dict_trainer` (default 1).
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_bottommost_compression_options_use_zstd_dict_trainer(
    opt: *mut rocksdb_options_t,
) -> c_uchar {
    // SAFETY: forwarded contract.
    unsafe {
        get(
            opt,
            "rocksdb_options_get_bottommost_compression_options_use_zstd_dict_trainer",
            |o| ffi::to_c_bool(o.s.bottommost_compression_opts.use_zstd_dict_trainer),
        )
    }
}

/// Sets the bottommost compression options' `max_dict_buffer_bytes` and `enabled`.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_bottommost_compression_options_max_dict_buffer_bytes(
    opt: *mut rocksdb_options_t,
    max_dict_buffer_bytes: u64,
    enabled: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            opt,
            "rocksdb_options_set_bottommost_compression_options_max_dict_buffer_bytes",
            |o| {
                let c = &mut o.s.bottommost_compression_opts;
                c.max_dict_buffer_bytes = max_dict_buffer_bytes;
                c.enabled = ffi::c_bool(enabled);
            },
        )
    }
}

/// Sets a compression type per level (copied; `num_levels` entries; level `i` uses entry
/// `min(i, len - 1)`). While set, it replaces `compression`. Types solistore cannot write
/// (only 0 none, 1 snappy and 4 LZ4 can be) make `rocksdb_open*` fail with `Invalid argument:
/// Compression type <name> is not linked with the binary.`, as in RocksDB.
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`; `level_values` NULL or
/// `num_levels` readable ints.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_compression_per_level(
    opt: *mut rocksdb_options_t,
    level_values: *const c_int,
    num_levels: usize,
) {
    // SAFETY: forwarded contract.
    let levels = unsafe { c_array(level_values, num_levels) }.to_vec();
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_compression_per_level", |o| {
            o.s.compression_per_level = levels;
        })
    }
}

/// Leaves levels below `level` uncompressed and uses the current compression type from
/// `level` on (rewrites the per-level compression list, as RocksDB does; the engine honours
/// it). A negative level does nothing.
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_min_level_to_compress(
    opt: *mut rocksdb_options_t,
    level: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_min_level_to_compress", |o| {
            if level < 0 {
                return;
            }
            let n = usize::try_from(o.cf.num_levels).unwrap_or(0);
            let from = usize::try_from(level).unwrap_or(0);
            o.s.compression_per_level = (0..n)
                .map(|i| if i < from { 0 } else { o.s.compression })
                .collect();
        })
    }
}

/// Sets the per-level extra multipliers of the level size targets (copied).
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`; `level_values` NULL or
/// `num_levels` readable ints.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_max_bytes_for_level_multiplier_additional(
    opt: *mut rocksdb_options_t,
    level_values: *mut c_int,
    num_levels: usize,
) {
    // SAFETY: forwarded contract.
    let levels = unsafe { c_array(level_values, num_levels) }.to_vec();
    // SAFETY: forwarded contract.
    unsafe {
        set(
            opt,
            "rocksdb_options_set_max_bytes_for_level_multiplier_additional",
            |o| o.s.max_bytes_for_level_multiplier_additional = levels,
        )
    }
}

/// Selects the vector memtable. solistore always uses its skiplist memtable.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_memtable_vector_rep(opt: *mut rocksdb_options_t) {
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_memtable_vector_rep", |o| {
            o.s.memtable_rep = MemtableRep::Vector;
        })
    }
}

/// Selects the hash skiplist memtable. solistore always uses its skiplist memtable.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_hash_skip_list_rep(
    opt: *mut rocksdb_options_t,
    bucket_count: usize,
    skiplist_height: i32,
    skiplist_branching_factor: i32,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_hash_skip_list_rep", |o| {
            o.s.memtable_rep = MemtableRep::HashSkipList {
                bucket_count,
                skiplist_height,
                skiplist_branching_factor,
            };
        })
    }
}

/// Selects the hash linked-list memtable. solistore always uses its skiplist memtable.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_hash_link_list_rep(
    opt: *mut rocksdb_options_t,
    bucket_count: usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_hash_link_list_rep", |o| {
            o.s.memtable_rep = MemtableRep::HashLinkList { bucket_count };
        })
    }
}

/// Copies `num_paths` db paths.
///
/// # Safety
/// `paths` must be NULL or hold `num_paths` pointers, each NULL (skipped) or a live dbpath.
unsafe fn copy_paths(paths: *mut *const rocksdb_dbpath_t, num_paths: usize) -> Vec<DbPath> {
    // SAFETY: forwarded contract.
    let list = unsafe { c_array(paths.cast_const(), num_paths) };
    list.iter()
        // SAFETY: each entry is NULL or a live dbpath per the contract.
        .filter_map(|p| unsafe { p.as_ref() })
        .map(|p| p.path.clone())
        .collect()
}

/// Sets the data directories with their target sizes (copied). solistore keeps every file in
/// the DB directory.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`; `path_values` NULL or
/// `num_paths` pointers to live dbpaths.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_db_paths(
    opt: *mut rocksdb_options_t,
    path_values: *mut *const rocksdb_dbpath_t,
    num_paths: usize,
) {
    // SAFETY: forwarded contract.
    let paths = unsafe { copy_paths(path_values, num_paths) };
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_db_paths", |o| {
            o.s.db_paths = paths
        })
    }
}

/// Sets the column family's data directories (copied). solistore keeps every file in the DB
/// directory.
/// solistore: stores value only
///
/// # Safety
/// As `rocksdb_options_set_db_paths`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_cf_paths(
    opt: *mut rocksdb_options_t,
    path_values: *mut *const rocksdb_dbpath_t,
    num_paths: usize,
) {
    // SAFETY: forwarded contract.
    let paths = unsafe { copy_paths(path_values, num_paths) };
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_cf_paths", |o| {
            o.s.cf_paths = paths
        })
    }
}

/// Sets the universal compaction options (copied). NULL is ignored.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`; the other argument NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_universal_compaction_options(
    opt: *mut rocksdb_options_t,
    universal_compaction_options: *mut rocksdb_universal_compaction_options_t,
) {
    // SAFETY: forwarded contract.
    let u = unsafe { universal_compaction_options.as_ref() }.map(|u| u.opts.clone());
    // SAFETY: forwarded contract.
    unsafe {
        set(
            opt,
            "rocksdb_options_set_universal_compaction_options",
            |o| {
                if let Some(u) = u {
                    o.s.universal_compaction = u;
                }
            },
        )
    }
}

/// Sets the FIFO compaction options (copied). NULL is ignored.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`; `fifo` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_fifo_compaction_options(
    opt: *mut rocksdb_options_t,
    fifo: *mut rocksdb_fifo_compaction_options_t,
) {
    // SAFETY: forwarded contract.
    let f = unsafe { fifo.as_ref() }.map(|f| f.opts.clone());
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_fifo_compaction_options", |o| {
            if let Some(f) = f {
                o.s.fifo_compaction = f;
            }
        })
    }
}

/// Shares `cache` from a cache handle (NULL gives None).
///
/// # Safety
/// `cache` must be NULL or a live cache handle.
unsafe fn share_cache(cache: *mut rocksdb_cache_t) -> Option<Arc<Cache>> {
    // SAFETY: forwarded contract.
    unsafe { cache.as_ref() }.map(|c| Arc::clone(&c.inner))
}

/// Sets the row cache. Shared: the caller may destroy its handle right after. NULL is
/// ignored. solistore has no row cache yet.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`; `cache` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_row_cache(
    opt: *mut rocksdb_options_t,
    cache: *mut rocksdb_cache_t,
) {
    // SAFETY: forwarded contract.
    let c = unsafe { share_cache(cache) };
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_row_cache", |o| {
            if c.is_some() {
                o.s.row_cache = c;
            }
        })
    }
}

/// Sets the blob cache. Shared, like the row cache. solistore stores no blobs.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`; `blob_cache` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_blob_cache(
    opt: *mut rocksdb_options_t,
    blob_cache: *mut rocksdb_cache_t,
) {
    // SAFETY: forwarded contract.
    let c = unsafe { share_cache(blob_cache) };
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_blob_cache", |o| {
            if c.is_some() {
                o.s.blob_cache = c;
            }
        })
    }
}

/// Sets the rate limiter. Shared: the caller may destroy its handle right after (c_test
/// does). NULL is ignored. DBs opened with these options pace their flush and compaction
/// writes through it (one bucket for every DB sharing the limiter).
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`; `limiter` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_ratelimiter(
    opt: *mut rocksdb_options_t,
    limiter: *mut rocksdb_ratelimiter_t,
) {
    // SAFETY: forwarded contract.
    let l = unsafe { limiter.as_ref() }.map(|l| Arc::clone(&l.inner));
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_ratelimiter", |o| {
            if l.is_some() {
                o.s.rate_limiter = l;
            }
        })
    }
}

/// Sets the write buffer manager (the engine's object, kept as
/// `StoredOptions::write_buffer_manager` and handed to the DB at open). Shared: the caller may
/// destroy its handle right after. NULL is ignored. Every DB opened with it charges its
/// memtables to it (and through it to its cache), and switches its largest memtable when the
/// manager's budget asks for a flush.
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`; `wbm` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_write_buffer_manager(
    opt: *mut rocksdb_options_t,
    wbm: *mut rocksdb_write_buffer_manager_t,
) {
    // SAFETY: forwarded contract.
    let w = unsafe { wbm.as_ref() }.map(|w| Arc::clone(&w.inner));
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_write_buffer_manager", |o| {
            if w.is_some() {
                o.s.write_buffer_manager = w;
            }
        })
    }
}

/// Sets the environment; NULL restores the default. solistore always uses the POSIX file
/// system (a memory env's DB is still written to disk).
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`; `env` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_env(
    opt: *mut rocksdb_options_t,
    env: *mut rocksdb_env_t,
) {
    // SAFETY: forwarded contract.
    let e = unsafe { env.as_ref() }.map(|e| Arc::clone(&e.inner));
    // SAFETY: forwarded contract.
    unsafe { set(opt, "rocksdb_options_set_env", |o| o.s.env = e) }
}

/// Sets the info logger. solistore has no logger objects (`rocksdb_logger_create_*` are not
/// implemented), so only NULL can be passed, which RocksDB also ignores.
/// solistore: not implemented
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_info_log(
    opt: *mut rocksdb_options_t,
    logger: *mut rocksdb_logger_t,
) {
    let _ = (opt, logger);
    ffi::guarded_no_err("rocksdb_options_set_info_log", || Ok(()))
}

/// Returns the info logger. solistore has no logger objects: returns NULL.
/// solistore: not implemented
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_info_log(
    opt: *mut rocksdb_options_t,
) -> *mut rocksdb_logger_t {
    let _ = opt;
    ffi::guarded_no_err("rocksdb_options_get_info_log", || Ok(std::ptr::null_mut()))
}

/// Turns statistics on: a fresh statistics object shared by copies of these options. The
/// tickers the engine counts (keys and bytes written and read, multi-gets, WAL syncs, block
/// cache hits, misses and inserts; `options::statistics`) are reported once the DB opened
/// with these options attaches its counters.
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_enable_statistics(opt: *mut rocksdb_options_t) {
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_enable_statistics", |o| {
            o.s.statistics = Some(Arc::new(Statistics::default()));
        })
    }
}

/// Sets the statistics level (clamped to 0..=5); ignored while statistics are off, as in
/// RocksDB. solistore counts the same tickers at every level.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_statistics_level(
    opt: *mut rocksdb_options_t,
    level: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_set_statistics_level", |o| {
            if let Some(s) = &o.s.statistics {
                s.set_level(level);
            }
        })
    }
}

/// Returns the statistics level: 0 (`disable_all`) while statistics are off, otherwise the
/// level set (default 3, `except_detailed_timers`).
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_get_statistics_level(
    opt: *mut rocksdb_options_t,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        get(opt, "rocksdb_options_get_statistics_level", |o| {
            o.s.statistics.as_ref().map_or(0, |s| s.level())
        })
    }
}

/// Returns the statistics as RocksDB's text (`<ticker name> COUNT : <n>` lines), malloc()ed;
/// release with `rocksdb_free`. NULL when statistics are off. Only the tickers the engine
/// counts are listed.
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_statistics_get_string(
    opt: *mut rocksdb_options_t,
) -> *mut c_char {
    // SAFETY: forwarded contract.
    unsafe {
        get(opt, "rocksdb_options_statistics_get_string", |o| {
            o.s.statistics.as_ref().map_or(std::ptr::null_mut(), |s| {
                crate::alloc::malloc_cstring(s.to_text())
            })
        })
    }
}

/// Returns a ticker's count. Ticker ids are RocksDB 11.1.2's enum ordinals (the ABI the hosts
/// bind; `BYTES_WRITTEN` is 61). 0 when statistics are off or for tickers the engine does not
/// count.
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_statistics_get_ticker_count(
    opt: *mut rocksdb_options_t,
    ticker_type: u32,
) -> u64 {
    // SAFETY: forwarded contract.
    unsafe {
        get(opt, "rocksdb_options_statistics_get_ticker_count", |o| {
            o.s.statistics
                .as_ref()
                .map_or(0, |s| s.ticker_count(ticker_type))
        })
    }
}

/// Fills a histogram. solistore keeps no histograms, and histogram data objects cannot be
/// created yet (`rocksdb_statistics_histogram_data_create` is not implemented): does nothing.
/// solistore: not implemented
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_statistics_get_histogram_data(
    opt: *mut rocksdb_options_t,
    histogram_type: u32,
    data: *mut rocksdb_statistics_histogram_data_t,
) {
    let _ = (opt, histogram_type, data);
    ffi::guarded_no_err("rocksdb_options_statistics_get_histogram_data", || Ok(()))
}

/// RocksDB's `IncreaseParallelism`: `max_background_jobs = total_threads`, and the env's
/// low-priority pool gets `total_threads` threads and the high-priority pool one (the env
/// set with `rocksdb_options_set_env`, else the default env).
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_increase_parallelism(
    opt: *mut rocksdb_options_t,
    total_threads: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_increase_parallelism", |o| {
            o.db.max_background_jobs = total_threads;
            let env = o.s.env.clone().unwrap_or_else(Env::default_env);
            env.set_threads(Priority::Low, total_threads);
            env.set_threads(Priority::High, 1);
        })
    }
}

/// RocksDB's `OptimizeForPointLookup`: a block-based table with a `block_cache_size_mb` MiB
/// LRU cache, a 10-bit bloom filter and a binary-and-hash data block index, plus a memtable
/// prefix bloom (ratio 0.02) with whole-key filtering. Nothing the engine acts on yet.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_optimize_for_point_lookup(
    opt: *mut rocksdb_options_t,
    block_cache_size_mb: u64,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_optimize_for_point_lookup", |o| {
            let bytes = block_cache_size_mb.saturating_mul(1024 * 1024);
            let t = BlockBasedTableOptions {
                data_block_index_type: DataBlockIndexType::BinaryAndHash as c_int,
                data_block_hash_ratio: 0.75,
                filter_policy: Some(Arc::new(FilterPolicy::bloom(10.0, false))),
                block_cache: Some(Arc::new(Cache::lru(
                    usize::try_from(bytes).unwrap_or(usize::MAX),
                    false,
                ))),
                ..BlockBasedTableOptions::default()
            };
            o.s.table_factory = TableFactory::BlockBased(t);
            o.s.memtable_prefix_bloom_size_ratio = 0.02;
            o.s.memtable_whole_key_filtering = true;
        })
    }
}

/// RocksDB's `OptimizeLevelStyleCompaction`: memtables of a quarter of the budget (six of
/// them, two merged per flush), L0 compaction at two files, target file size budget/8, L1
/// size = budget, level compaction, no compression on L0 and L1 and LZ4 below. The engine
/// honours the memtable and level sizes; compression is stored.
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_optimize_level_style_compaction(
    opt: *mut rocksdb_options_t,
    memtable_memory_budget: u64,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            opt,
            "rocksdb_options_optimize_level_style_compaction",
            |o| {
                o.cf.write_buffer_size =
                    usize::try_from(memtable_memory_budget / 4).unwrap_or(usize::MAX);
                o.cf.min_write_buffer_number_to_merge = 2;
                o.cf.max_write_buffer_number = 6;
                o.cf.level0_file_num_compaction_trigger = 2;
                o.cf.target_file_size_base = memtable_memory_budget / 8;
                o.cf.max_bytes_for_level_base = memtable_memory_budget;
                o.s.compaction_style = crate::constants::rocksdb_level_compaction;
                let n = usize::try_from(o.cf.num_levels).unwrap_or(0);
                o.s.compression_per_level = (0..n)
                    .map(|i| {
                        if i < 2 {
                            crate::constants::rocksdb_no_compression
                        } else {
                            crate::constants::rocksdb_lz4_compression
                        }
                    })
                    .collect();
            },
        )
    }
}

/// RocksDB's `OptimizeUniversalStyleCompaction`: memtables of a quarter of the budget (six,
/// two merged per flush), universal compaction with `compression_size_percent = 80`.
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_optimize_universal_style_compaction(
    opt: *mut rocksdb_options_t,
    memtable_memory_budget: u64,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            opt,
            "rocksdb_options_optimize_universal_style_compaction",
            |o| {
                o.cf.write_buffer_size =
                    usize::try_from(memtable_memory_budget / 4).unwrap_or(usize::MAX);
                o.cf.min_write_buffer_number_to_merge = 2;
                o.cf.max_write_buffer_number = 6;
                o.s.compaction_style = crate::constants::rocksdb_universal_compaction;
                o.s.universal_compaction.compression_size_percent = 80;
            },
        )
    }
}

/// RocksDB's `PrepareForBulkLoad`: no L0 triggers or pending-bytes limits, auto compactions
/// off, `max_compaction_bytes = 2^60`, two levels, six memtables (one merged per flush), four
/// background flushes and two compactions, 256 MiB target files.
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_prepare_for_bulk_load(opt: *mut rocksdb_options_t) {
    // SAFETY: forwarded contract.
    unsafe {
        set(opt, "rocksdb_options_prepare_for_bulk_load", |o| {
            o.cf.level0_file_num_compaction_trigger = 1 << 30;
            o.cf.level0_slowdown_writes_trigger = 1 << 30;
            o.cf.level0_stop_writes_trigger = 1 << 30;
            o.s.soft_pending_compaction_bytes_limit = 0;
            o.s.hard_pending_compaction_bytes_limit = 0;
            o.cf.disable_auto_compactions = true;
            o.s.max_compaction_bytes = 1 << 60;
            o.cf.num_levels = 2;
            o.cf.max_write_buffer_number = 6;
            o.cf.min_write_buffer_number_to_merge = 1;
            o.s.max_background_flushes = 4;
            o.s.max_background_compactions = 2;
            o.cf.target_file_size_base = 256 << 20;
        })
    }
}

/// Adds a compact-on-deletion table properties collector. Kept for compaction (issue 3).
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_add_compact_on_deletion_collector_factory(
    opt: *mut rocksdb_options_t,
    window_size: usize,
    num_dels_trigger: usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        rocksdb_options_add_compact_on_deletion_collector_factory_min_file_size(
            opt,
            window_size,
            num_dels_trigger,
            0.0,
            0,
        )
    }
}

/// As `rocksdb_options_add_compact_on_deletion_collector_factory`, with a deletion ratio.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_add_compact_on_deletion_collector_factory_del_ratio(
    opt: *mut rocksdb_options_t,
    window_size: usize,
    num_dels_trigger: usize,
    deletion_ratio: f64,
) {
    // SAFETY: forwarded contract.
    unsafe {
        rocksdb_options_add_compact_on_deletion_collector_factory_min_file_size(
            opt,
            window_size,
            num_dels_trigger,
            deletion_ratio,
            0,
        )
    }
}

/// As `rocksdb_options_add_compact_on_deletion_collector_factory`, with a deletion ratio and
/// a minimum file size.
/// solistore: stores value only
///
/// # Safety
/// `opt` must be NULL (ignored) or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_add_compact_on_deletion_collector_factory_min_file_size(
    opt: *mut rocksdb_options_t,
    window_size: usize,
    num_dels_trigger: usize,
    deletion_ratio: f64,
    min_file_size: u64,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            opt,
            "rocksdb_options_add_compact_on_deletion_collector_factory",
            |o| {
                o.s.compact_on_deletion.push(CompactOnDeletion {
                    window_size,
                    num_dels_trigger,
                    deletion_ratio,
                    min_file_size,
                });
            },
        )
    }
}

/// Adds an event listener. Listener objects cannot be created yet
/// (`rocksdb_eventlistener_create` is not implemented): ignored.
/// solistore: not implemented
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_add_eventlistener(
    opt: *mut rocksdb_options_t,
    eventlistener: *mut rocksdb_eventlistener_t,
) {
    let _ = (opt, eventlistener);
    ffi::guarded_no_err("rocksdb_options_add_eventlistener", || Ok(()))
}

/// Adds a table properties collector factory. Such objects cannot be created yet: ignored.
/// solistore: not implemented
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_add_table_properties_collector_factory(
    opt: *mut rocksdb_options_t,
    table_properties_collector_factory: *mut rocksdb_table_properties_collector_factory_t,
) {
    let _ = (opt, table_properties_collector_factory);
    ffi::guarded_no_err(
        "rocksdb_options_add_table_properties_collector_factory",
        || Ok(()),
    )
}

/// Sets a remote compaction service. Such objects cannot be created yet: ignored.
/// solistore: not implemented
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_compaction_service(
    opt: *mut rocksdb_options_t,
    service: *mut rocksdb_compactionservice_t,
) {
    let _ = (opt, service);
    ffi::guarded_no_err("rocksdb_options_set_compaction_service", || Ok(()))
}

/// Sets a file checksum generator factory. Such objects cannot be created yet: ignored.
/// solistore: not implemented
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_file_checksum_gen_factory(
    opt: *mut rocksdb_options_t,
    file_checksum_gen_factory: *mut rocksdb_file_checksum_gen_factory_t,
) {
    let _ = (opt, file_checksum_gen_factory);
    ffi::guarded_no_err("rocksdb_options_set_file_checksum_gen_factory", || Ok(()))
}

/// Sets an SST file manager. Such objects cannot be created yet: ignored.
/// solistore: not implemented
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_sst_file_manager(
    opt: *mut rocksdb_options_t,
    sfm: *mut rocksdb_sst_file_manager_t,
) {
    let _ = (opt, sfm);
    ffi::guarded_no_err("rocksdb_options_set_sst_file_manager", || Ok(()))
}

/// Sets an SST partitioner factory. Such objects cannot be created yet: ignored.
/// solistore: not implemented
///
/// # Safety
/// `opt` must be NULL or a live `rocksdb_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_options_set_sst_partitioner_factory(
    opt: *mut rocksdb_options_t,
    sst_partitioner_factory: *mut rocksdb_sst_partitioner_factory_t,
) {
    let _ = (opt, sst_partitioner_factory);
    ffi::guarded_no_err("rocksdb_options_set_sst_partitioner_factory", || Ok(()))
}
