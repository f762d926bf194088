// SPDX-License-Identifier: Apache-2.0
//! Tests of the options surface through the exported functions: every setter/getter pair,
//! RocksDB's defaults (against Debian's librocksdb 7.8.3 when it is installed), and the
//! shared, transferred and borrowed objects set on options.
#![expect(
    clippy::multiple_unsafe_ops_per_block,
    reason = "each test drives many C calls on handles it owns; one SAFETY note covers them"
)]

use std::ffi::{c_char, c_int, c_uchar, c_void, CStr};
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};

use engine::db::Db;
use engine::options::{ReadOptions, WriteOptions};

use super::accessors::*;
use super::*;
use crate::block_based_options::*;
use crate::cache::*;
use crate::compactionfilter::*;
use crate::comparator::*;
use crate::env::*;
use crate::filterpolicy::*;
use crate::mergeoperator::*;
use crate::ratelimiter::*;
use crate::slicetransform::*;
use crate::write_buffer_manager::*;

/// A fresh options handle, destroyed when the guard drops.
struct Opts(*mut rocksdb_options_t);

impl Opts {
    fn new() -> Self {
        // SAFETY: no preconditions.
        Opts(unsafe { rocksdb_options_create() })
    }
    fn get(&self) -> &rocksdb_options_t {
        // SAFETY: a live handle owned by this guard.
        unsafe { &*self.0 }
    }
}

impl Drop for Opts {
    fn drop(&mut self) {
        // SAFETY: created by `new`, destroyed once.
        unsafe { rocksdb_options_destroy(self.0) };
    }
}

/// A bool option: toggles it (writing 2 for true, to check any non-zero counts) and expects
/// exactly 0 or 1 back.
macro_rules! bool_pair {
    ($o:expr, $set:ident, $get:ident) => {{
        // SAFETY: live options handle.
        let d = unsafe { $get($o) };
        assert!(d == 0 || d == 1, "{} default {}", stringify!($get), d);
        let v = if d == 0 { 2 } else { 0 };
        // SAFETY: as above.
        unsafe { $set($o, v) };
        // SAFETY: as above.
        let got = unsafe { $get($o) };
        assert_eq!(got, if v == 0 { 0 } else { 1 }, "{}", stringify!($set));
    }};
}

/// An integer option: writes a value other than the current one and reads it back.
macro_rules! int_pair {
    ($o:expr, $set:ident, $get:ident) => {{
        // SAFETY: live options handle.
        let d = unsafe { $get($o) };
        let v = d.wrapping_add(3);
        // SAFETY: as above.
        unsafe { $set($o, v) };
        // SAFETY: as above.
        assert_eq!(unsafe { $get($o) }, v, "{}", stringify!($set));
    }};
}

macro_rules! float_pair {
    ($o:expr, $set:ident, $get:ident) => {{
        // SAFETY: live options handle.
        let d = unsafe { $get($o) };
        let v = d + 1.5;
        // SAFETY: as above.
        unsafe { $set($o, v) };
        // SAFETY: as above.
        assert_eq!(unsafe { $get($o) }, v, "{}", stringify!($set));
    }};
}

#[test]
fn every_setter_getter_pair_round_trips() {
    let opts = Opts::new();
    let o = opts.0;
    int_pair!(
        o,
        rocksdb_options_set_WAL_size_limit_MB,
        rocksdb_options_get_WAL_size_limit_MB
    );
    int_pair!(
        o,
        rocksdb_options_set_WAL_ttl_seconds,
        rocksdb_options_get_WAL_ttl_seconds
    );
    int_pair!(
        o,
        rocksdb_options_set_access_hint_on_compaction_start,
        rocksdb_options_get_access_hint_on_compaction_start
    );
    bool_pair!(
        o,
        rocksdb_options_set_advise_random_on_open,
        rocksdb_options_get_advise_random_on_open
    );
    bool_pair!(
        o,
        rocksdb_options_set_allow_concurrent_memtable_write,
        rocksdb_options_get_allow_concurrent_memtable_write
    );
    bool_pair!(
        o,
        rocksdb_options_set_allow_ingest_behind,
        rocksdb_options_get_allow_ingest_behind
    );
    bool_pair!(
        o,
        rocksdb_options_set_allow_mmap_reads,
        rocksdb_options_get_allow_mmap_reads
    );
    bool_pair!(
        o,
        rocksdb_options_set_allow_mmap_writes,
        rocksdb_options_get_allow_mmap_writes
    );
    int_pair!(
        o,
        rocksdb_options_set_arena_block_size,
        rocksdb_options_get_arena_block_size
    );
    bool_pair!(
        o,
        rocksdb_options_set_atomic_flush,
        rocksdb_options_get_atomic_flush
    );
    bool_pair!(
        o,
        rocksdb_options_set_avoid_unnecessary_blocking_io,
        rocksdb_options_get_avoid_unnecessary_blocking_io
    );
    int_pair!(
        o,
        rocksdb_options_set_blob_compaction_readahead_size,
        rocksdb_options_get_blob_compaction_readahead_size
    );
    int_pair!(
        o,
        rocksdb_options_set_blob_compression_type,
        rocksdb_options_get_blob_compression_type
    );
    int_pair!(
        o,
        rocksdb_options_set_blob_file_size,
        rocksdb_options_get_blob_file_size
    );
    int_pair!(
        o,
        rocksdb_options_set_blob_file_starting_level,
        rocksdb_options_get_blob_file_starting_level
    );
    float_pair!(
        o,
        rocksdb_options_set_blob_gc_age_cutoff,
        rocksdb_options_get_blob_gc_age_cutoff
    );
    float_pair!(
        o,
        rocksdb_options_set_blob_gc_force_threshold,
        rocksdb_options_get_blob_gc_force_threshold
    );
    int_pair!(
        o,
        rocksdb_options_set_bloom_locality,
        rocksdb_options_get_bloom_locality
    );
    int_pair!(
        o,
        rocksdb_options_set_bottommost_compression,
        rocksdb_options_get_bottommost_compression
    );
    int_pair!(
        o,
        rocksdb_options_set_bytes_per_sync,
        rocksdb_options_get_bytes_per_sync
    );
    int_pair!(
        o,
        rocksdb_options_set_compaction_pri,
        rocksdb_options_get_compaction_pri
    );
    int_pair!(
        o,
        rocksdb_options_compaction_readahead_size,
        rocksdb_options_get_compaction_readahead_size
    );
    int_pair!(
        o,
        rocksdb_options_set_compaction_style,
        rocksdb_options_get_compaction_style
    );
    int_pair!(
        o,
        rocksdb_options_set_compression,
        rocksdb_options_get_compression
    );
    bool_pair!(
        o,
        rocksdb_options_set_create_if_missing,
        rocksdb_options_get_create_if_missing
    );
    bool_pair!(
        o,
        rocksdb_options_set_create_missing_column_families,
        rocksdb_options_get_create_missing_column_families
    );
    int_pair!(
        o,
        rocksdb_options_set_db_write_buffer_size,
        rocksdb_options_get_db_write_buffer_size
    );
    int_pair!(
        o,
        rocksdb_options_set_delete_obsolete_files_period_micros,
        rocksdb_options_get_delete_obsolete_files_period_micros
    );
    bool_pair!(
        o,
        rocksdb_options_set_disable_auto_compactions,
        rocksdb_options_get_disable_auto_compactions
    );
    bool_pair!(
        o,
        rocksdb_options_set_enable_blob_files,
        rocksdb_options_get_enable_blob_files
    );
    bool_pair!(
        o,
        rocksdb_options_set_enable_blob_gc,
        rocksdb_options_get_enable_blob_gc
    );
    bool_pair!(
        o,
        rocksdb_options_set_enable_pipelined_write,
        rocksdb_options_get_enable_pipelined_write
    );
    bool_pair!(
        o,
        rocksdb_options_set_enable_write_thread_adaptive_yield,
        rocksdb_options_get_enable_write_thread_adaptive_yield
    );
    bool_pair!(
        o,
        rocksdb_options_set_error_if_exists,
        rocksdb_options_get_error_if_exists
    );
    float_pair!(
        o,
        rocksdb_options_set_experimental_mempurge_threshold,
        rocksdb_options_get_experimental_mempurge_threshold
    );
    int_pair!(
        o,
        rocksdb_options_set_hard_pending_compaction_bytes_limit,
        rocksdb_options_get_hard_pending_compaction_bytes_limit
    );
    int_pair!(
        o,
        rocksdb_options_set_info_log_level,
        rocksdb_options_get_info_log_level
    );
    int_pair!(
        o,
        rocksdb_options_set_inplace_update_num_locks,
        rocksdb_options_get_inplace_update_num_locks
    );
    bool_pair!(
        o,
        rocksdb_options_set_inplace_update_support,
        rocksdb_options_get_inplace_update_support
    );
    bool_pair!(
        o,
        rocksdb_options_set_is_fd_close_on_exec,
        rocksdb_options_get_is_fd_close_on_exec
    );
    int_pair!(
        o,
        rocksdb_options_set_keep_log_file_num,
        rocksdb_options_get_keep_log_file_num
    );
    int_pair!(
        o,
        rocksdb_options_set_level0_file_num_compaction_trigger,
        rocksdb_options_get_level0_file_num_compaction_trigger
    );
    int_pair!(
        o,
        rocksdb_options_set_level0_slowdown_writes_trigger,
        rocksdb_options_get_level0_slowdown_writes_trigger
    );
    int_pair!(
        o,
        rocksdb_options_set_level0_stop_writes_trigger,
        rocksdb_options_get_level0_stop_writes_trigger
    );
    bool_pair!(
        o,
        rocksdb_options_set_level_compaction_dynamic_level_bytes,
        rocksdb_options_get_level_compaction_dynamic_level_bytes
    );
    int_pair!(
        o,
        rocksdb_options_set_log_file_time_to_roll,
        rocksdb_options_get_log_file_time_to_roll
    );
    int_pair!(
        o,
        rocksdb_options_set_manifest_preallocation_size,
        rocksdb_options_get_manifest_preallocation_size
    );
    bool_pair!(
        o,
        rocksdb_options_set_manual_wal_flush,
        rocksdb_options_get_manual_wal_flush
    );
    int_pair!(
        o,
        rocksdb_options_set_max_background_compactions,
        rocksdb_options_get_max_background_compactions
    );
    int_pair!(
        o,
        rocksdb_options_set_max_background_flushes,
        rocksdb_options_get_max_background_flushes
    );
    int_pair!(
        o,
        rocksdb_options_set_max_background_jobs,
        rocksdb_options_get_max_background_jobs
    );
    int_pair!(
        o,
        rocksdb_options_set_max_bytes_for_level_base,
        rocksdb_options_get_max_bytes_for_level_base
    );
    float_pair!(
        o,
        rocksdb_options_set_max_bytes_for_level_multiplier,
        rocksdb_options_get_max_bytes_for_level_multiplier
    );
    int_pair!(
        o,
        rocksdb_options_set_max_compaction_bytes,
        rocksdb_options_get_max_compaction_bytes
    );
    int_pair!(
        o,
        rocksdb_options_set_max_file_opening_threads,
        rocksdb_options_get_max_file_opening_threads
    );
    int_pair!(
        o,
        rocksdb_options_set_max_log_file_size,
        rocksdb_options_get_max_log_file_size
    );
    int_pair!(
        o,
        rocksdb_options_set_max_manifest_file_size,
        rocksdb_options_get_max_manifest_file_size
    );
    int_pair!(
        o,
        rocksdb_options_set_max_open_files,
        rocksdb_options_get_max_open_files
    );
    int_pair!(
        o,
        rocksdb_options_set_max_sequential_skip_in_iterations,
        rocksdb_options_get_max_sequential_skip_in_iterations
    );
    int_pair!(
        o,
        rocksdb_options_set_max_subcompactions,
        rocksdb_options_get_max_subcompactions
    );
    int_pair!(
        o,
        rocksdb_options_set_max_successive_merges,
        rocksdb_options_get_max_successive_merges
    );
    int_pair!(
        o,
        rocksdb_options_set_max_total_wal_size,
        rocksdb_options_get_max_total_wal_size
    );
    int_pair!(
        o,
        rocksdb_options_set_max_write_buffer_number,
        rocksdb_options_get_max_write_buffer_number
    );
    int_pair!(
        o,
        rocksdb_options_set_max_write_buffer_number_to_maintain,
        rocksdb_options_get_max_write_buffer_number_to_maintain
    );
    int_pair!(
        o,
        rocksdb_options_set_max_write_buffer_size_to_maintain,
        rocksdb_options_get_max_write_buffer_size_to_maintain
    );
    int_pair!(
        o,
        rocksdb_options_set_memtable_avg_op_scan_flush_trigger,
        rocksdb_options_get_memtable_avg_op_scan_flush_trigger
    );
    int_pair!(
        o,
        rocksdb_options_set_memtable_huge_page_size,
        rocksdb_options_get_memtable_huge_page_size
    );
    int_pair!(
        o,
        rocksdb_options_set_memtable_op_scan_flush_trigger,
        rocksdb_options_get_memtable_op_scan_flush_trigger
    );
    float_pair!(
        o,
        rocksdb_options_set_memtable_prefix_bloom_size_ratio,
        rocksdb_options_get_memtable_prefix_bloom_size_ratio
    );
    int_pair!(
        o,
        rocksdb_options_set_min_blob_size,
        rocksdb_options_get_min_blob_size
    );
    int_pair!(
        o,
        rocksdb_options_set_min_write_buffer_number_to_merge,
        rocksdb_options_get_min_write_buffer_number_to_merge
    );
    int_pair!(
        o,
        rocksdb_options_set_num_levels,
        rocksdb_options_get_num_levels
    );
    bool_pair!(
        o,
        rocksdb_options_set_open_files_async,
        rocksdb_options_get_open_files_async
    );
    bool_pair!(
        o,
        rocksdb_options_set_optimize_filters_for_hits,
        rocksdb_options_get_optimize_filters_for_hits
    );
    bool_pair!(
        o,
        rocksdb_options_set_paranoid_checks,
        rocksdb_options_get_paranoid_checks
    );
    int_pair!(
        o,
        rocksdb_options_set_periodic_compaction_seconds,
        rocksdb_options_get_periodic_compaction_seconds
    );
    int_pair!(
        o,
        rocksdb_options_set_prepopulate_blob_cache,
        rocksdb_options_get_prepopulate_blob_cache
    );
    int_pair!(
        o,
        rocksdb_options_set_recycle_log_file_num,
        rocksdb_options_get_recycle_log_file_num
    );
    bool_pair!(
        o,
        rocksdb_options_set_report_bg_io_stats,
        rocksdb_options_get_report_bg_io_stats
    );
    bool_pair!(
        o,
        rocksdb_options_set_skip_checking_sst_file_sizes_on_db_open,
        rocksdb_options_get_skip_checking_sst_file_sizes_on_db_open
    );
    bool_pair!(
        o,
        rocksdb_options_set_skip_stats_update_on_db_open,
        rocksdb_options_get_skip_stats_update_on_db_open
    );
    int_pair!(
        o,
        rocksdb_options_set_soft_pending_compaction_bytes_limit,
        rocksdb_options_get_soft_pending_compaction_bytes_limit
    );
    int_pair!(
        o,
        rocksdb_options_set_stats_dump_period_sec,
        rocksdb_options_get_stats_dump_period_sec
    );
    int_pair!(
        o,
        rocksdb_options_set_stats_persist_period_sec,
        rocksdb_options_get_stats_persist_period_sec
    );
    int_pair!(
        o,
        rocksdb_options_set_table_cache_numshardbits,
        rocksdb_options_get_table_cache_numshardbits
    );
    int_pair!(
        o,
        rocksdb_options_set_target_file_size_base,
        rocksdb_options_get_target_file_size_base
    );
    int_pair!(
        o,
        rocksdb_options_set_target_file_size_multiplier,
        rocksdb_options_get_target_file_size_multiplier
    );
    bool_pair!(
        o,
        rocksdb_options_set_track_and_verify_wals_in_manifest,
        rocksdb_options_get_track_and_verify_wals_in_manifest
    );
    int_pair!(o, rocksdb_options_set_ttl, rocksdb_options_get_ttl);
    bool_pair!(
        o,
        rocksdb_options_set_unordered_write,
        rocksdb_options_get_unordered_write
    );
    bool_pair!(
        o,
        rocksdb_options_set_use_adaptive_mutex,
        rocksdb_options_get_use_adaptive_mutex
    );
    bool_pair!(
        o,
        rocksdb_options_set_use_direct_io_for_flush_and_compaction,
        rocksdb_options_get_use_direct_io_for_flush_and_compaction
    );
    bool_pair!(
        o,
        rocksdb_options_set_use_direct_reads,
        rocksdb_options_get_use_direct_reads
    );
    bool_pair!(
        o,
        rocksdb_options_set_use_fsync,
        rocksdb_options_get_use_fsync
    );
    int_pair!(
        o,
        rocksdb_options_set_wal_bytes_per_sync,
        rocksdb_options_get_wal_bytes_per_sync
    );
    int_pair!(
        o,
        rocksdb_options_set_wal_compression,
        rocksdb_options_get_wal_compression
    );
    int_pair!(
        o,
        rocksdb_options_set_writable_file_max_buffer_size,
        rocksdb_options_get_writable_file_max_buffer_size
    );
    int_pair!(
        o,
        rocksdb_options_set_write_buffer_size,
        rocksdb_options_get_write_buffer_size
    );
    bool_pair!(
        o,
        rocksdb_options_set_write_dbid_to_manifest,
        rocksdb_options_get_write_dbid_to_manifest
    );
    bool_pair!(
        o,
        rocksdb_options_set_write_identity_file,
        rocksdb_options_get_write_identity_file
    );
    bool_pair!(
        o,
        rocksdb_options_set_compression_options_use_zstd_dict_trainer,
        rocksdb_options_get_compression_options_use_zstd_dict_trainer
    );
    int_pair!(
        o,
        rocksdb_options_set_compression_options_parallel_threads,
        rocksdb_options_get_compression_options_parallel_threads
    );
    int_pair!(
        o,
        rocksdb_options_set_compression_options_zstd_max_train_bytes,
        rocksdb_options_get_compression_options_zstd_max_train_bytes
    );
    int_pair!(
        o,
        rocksdb_options_set_compression_options_max_dict_buffer_bytes,
        rocksdb_options_get_compression_options_max_dict_buffer_bytes
    );

    // The pairs with structure.
    // SAFETY: live options handle.
    unsafe {
        assert_eq!(rocksdb_options_get_wal_recovery_mode(o), 2);
        rocksdb_options_set_wal_recovery_mode(o, 1);
        assert_eq!(rocksdb_options_get_wal_recovery_mode(o), 1);
        rocksdb_options_set_wal_recovery_mode(o, 9);
        assert_eq!(
            rocksdb_options_get_wal_recovery_mode(o),
            1,
            "invalid mode ignored"
        );

        assert_eq!(
            rocksdb_options_get_bottommost_compression_options_use_zstd_dict_trainer(o),
            1
        );
        rocksdb_options_set_bottommost_compression_options_use_zstd_dict_trainer(o, 0, 1);
        assert_eq!(
            rocksdb_options_get_bottommost_compression_options_use_zstd_dict_trainer(o),
            0
        );
        assert!(opts.get().s.bottommost_compression_opts.enabled);

        assert_eq!(rocksdb_options_get_statistics_level(o), 0, "no statistics");
        rocksdb_options_set_statistics_level(o, 5);
        assert_eq!(
            rocksdb_options_get_statistics_level(o),
            0,
            "ignored without statistics"
        );
        rocksdb_options_enable_statistics(o);
        assert_eq!(rocksdb_options_get_statistics_level(o), 3);
        rocksdb_options_set_statistics_level(o, 1);
        assert_eq!(rocksdb_options_get_statistics_level(o), 1);
        rocksdb_options_set_statistics_level(o, 99);
        assert_eq!(rocksdb_options_get_statistics_level(o), 5, "clamped");
    }
    // Engine-backed values landed in the engine's structs.
    let e = opts.get();
    assert!(e.db.create_if_missing && e.db.use_fsync && e.cf.disable_auto_compactions);
    assert_eq!(e.cf.write_buffer_size, (64 << 20) + 3);
    assert_eq!(e.db.max_background_jobs, 5);
}

#[test]
fn null_options_are_tolerated() {
    // SAFETY: NULL is accepted by every options function.
    unsafe {
        rocksdb_options_set_create_if_missing(ptr::null_mut(), 1);
        assert_eq!(rocksdb_options_get_create_if_missing(ptr::null_mut()), 0);
        assert!(rocksdb_options_create_copy(ptr::null_mut()).is_null());
        rocksdb_options_destroy(ptr::null_mut());
        assert!(rocksdb_options_statistics_get_string(ptr::null_mut()).is_null());
        rocksdb_options_set_prefix_extractor(ptr::null_mut(), ptr::null_mut());
        rocksdb_options_set_info_log(ptr::null_mut(), ptr::null_mut());
    }
}

/// A getter's value, as the C probe prints it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum V {
    I(i128),
    F(f64),
}

type Getter = fn(*mut rocksdb_options_t) -> V;

/// A `(name, getter)` entry of the defaults table.
macro_rules! getter {
    ($f:ident, I) => {{
        fn g(o: *mut rocksdb_options_t) -> V {
            // SAFETY: the table is only called with live options handles.
            V::I(unsafe { $f(o) } as i128)
        }
        (stringify!($f), g as Getter)
    }};
    ($f:ident, F) => {{
        fn g(o: *mut rocksdb_options_t) -> V {
            // SAFETY: the table is only called with live options handles.
            V::F(unsafe { $f(o) })
        }
        (stringify!($f), g as Getter)
    }};
}

/// Every `rocksdb_options_get_*` of RocksDB 7.8.3's header that returns a number.
fn getters_783() -> Vec<(&'static str, Getter)> {
    vec![
        getter!(rocksdb_options_get_WAL_size_limit_MB, I),
        getter!(rocksdb_options_get_WAL_ttl_seconds, I),
        getter!(rocksdb_options_get_access_hint_on_compaction_start, I),
        getter!(rocksdb_options_get_advise_random_on_open, I),
        getter!(rocksdb_options_get_allow_concurrent_memtable_write, I),
        getter!(rocksdb_options_get_allow_ingest_behind, I),
        getter!(rocksdb_options_get_allow_mmap_reads, I),
        getter!(rocksdb_options_get_allow_mmap_writes, I),
        getter!(rocksdb_options_get_arena_block_size, I),
        getter!(rocksdb_options_get_atomic_flush, I),
        getter!(rocksdb_options_get_avoid_unnecessary_blocking_io, I),
        getter!(rocksdb_options_get_blob_compaction_readahead_size, I),
        getter!(rocksdb_options_get_blob_compression_type, I),
        getter!(rocksdb_options_get_blob_file_size, I),
        getter!(rocksdb_options_get_blob_file_starting_level, I),
        getter!(rocksdb_options_get_blob_gc_age_cutoff, F),
        getter!(rocksdb_options_get_blob_gc_force_threshold, F),
        getter!(rocksdb_options_get_bloom_locality, I),
        getter!(rocksdb_options_get_bottommost_compression, I),
        getter!(
            rocksdb_options_get_bottommost_compression_options_use_zstd_dict_trainer,
            I
        ),
        getter!(rocksdb_options_get_bytes_per_sync, I),
        getter!(rocksdb_options_get_compaction_readahead_size, I),
        getter!(rocksdb_options_get_compaction_style, I),
        getter!(rocksdb_options_get_compression, I),
        getter!(
            rocksdb_options_get_compression_options_max_dict_buffer_bytes,
            I
        ),
        getter!(rocksdb_options_get_compression_options_parallel_threads, I),
        getter!(
            rocksdb_options_get_compression_options_use_zstd_dict_trainer,
            I
        ),
        getter!(
            rocksdb_options_get_compression_options_zstd_max_train_bytes,
            I
        ),
        getter!(rocksdb_options_get_create_if_missing, I),
        getter!(rocksdb_options_get_create_missing_column_families, I),
        getter!(rocksdb_options_get_db_write_buffer_size, I),
        getter!(rocksdb_options_get_delete_obsolete_files_period_micros, I),
        getter!(rocksdb_options_get_disable_auto_compactions, I),
        getter!(rocksdb_options_get_enable_blob_files, I),
        getter!(rocksdb_options_get_enable_blob_gc, I),
        getter!(rocksdb_options_get_enable_pipelined_write, I),
        getter!(rocksdb_options_get_enable_write_thread_adaptive_yield, I),
        getter!(rocksdb_options_get_error_if_exists, I),
        getter!(rocksdb_options_get_experimental_mempurge_threshold, F),
        getter!(rocksdb_options_get_hard_pending_compaction_bytes_limit, I),
        getter!(rocksdb_options_get_info_log_level, I),
        getter!(rocksdb_options_get_inplace_update_num_locks, I),
        getter!(rocksdb_options_get_inplace_update_support, I),
        getter!(rocksdb_options_get_is_fd_close_on_exec, I),
        getter!(rocksdb_options_get_keep_log_file_num, I),
        getter!(rocksdb_options_get_level0_file_num_compaction_trigger, I),
        getter!(rocksdb_options_get_level0_slowdown_writes_trigger, I),
        getter!(rocksdb_options_get_level0_stop_writes_trigger, I),
        getter!(rocksdb_options_get_level_compaction_dynamic_level_bytes, I),
        getter!(rocksdb_options_get_log_file_time_to_roll, I),
        getter!(rocksdb_options_get_manifest_preallocation_size, I),
        getter!(rocksdb_options_get_manual_wal_flush, I),
        getter!(rocksdb_options_get_max_background_compactions, I),
        getter!(rocksdb_options_get_max_background_flushes, I),
        getter!(rocksdb_options_get_max_background_jobs, I),
        getter!(rocksdb_options_get_max_bytes_for_level_base, I),
        getter!(rocksdb_options_get_max_bytes_for_level_multiplier, F),
        getter!(rocksdb_options_get_max_compaction_bytes, I),
        getter!(rocksdb_options_get_max_file_opening_threads, I),
        getter!(rocksdb_options_get_max_log_file_size, I),
        getter!(rocksdb_options_get_max_manifest_file_size, I),
        getter!(rocksdb_options_get_max_open_files, I),
        getter!(rocksdb_options_get_max_sequential_skip_in_iterations, I),
        getter!(rocksdb_options_get_max_subcompactions, I),
        getter!(rocksdb_options_get_max_successive_merges, I),
        getter!(rocksdb_options_get_max_total_wal_size, I),
        getter!(rocksdb_options_get_max_write_buffer_number, I),
        getter!(rocksdb_options_get_max_write_buffer_number_to_maintain, I),
        getter!(rocksdb_options_get_max_write_buffer_size_to_maintain, I),
        getter!(rocksdb_options_get_memtable_huge_page_size, I),
        getter!(rocksdb_options_get_memtable_prefix_bloom_size_ratio, F),
        getter!(rocksdb_options_get_min_blob_size, I),
        getter!(rocksdb_options_get_min_write_buffer_number_to_merge, I),
        getter!(rocksdb_options_get_num_levels, I),
        getter!(rocksdb_options_get_optimize_filters_for_hits, I),
        getter!(rocksdb_options_get_paranoid_checks, I),
        getter!(rocksdb_options_get_prepopulate_blob_cache, I),
        getter!(rocksdb_options_get_recycle_log_file_num, I),
        getter!(rocksdb_options_get_report_bg_io_stats, I),
        getter!(
            rocksdb_options_get_skip_checking_sst_file_sizes_on_db_open,
            I
        ),
        getter!(rocksdb_options_get_skip_stats_update_on_db_open, I),
        getter!(rocksdb_options_get_soft_pending_compaction_bytes_limit, I),
        getter!(rocksdb_options_get_stats_dump_period_sec, I),
        getter!(rocksdb_options_get_stats_persist_period_sec, I),
        getter!(rocksdb_options_get_table_cache_numshardbits, I),
        getter!(rocksdb_options_get_target_file_size_base, I),
        getter!(rocksdb_options_get_target_file_size_multiplier, I),
        getter!(rocksdb_options_get_unordered_write, I),
        getter!(rocksdb_options_get_use_adaptive_mutex, I),
        getter!(
            rocksdb_options_get_use_direct_io_for_flush_and_compaction,
            I
        ),
        getter!(rocksdb_options_get_use_direct_reads, I),
        getter!(rocksdb_options_get_use_fsync, I),
        getter!(rocksdb_options_get_wal_bytes_per_sync, I),
        getter!(rocksdb_options_get_wal_compression, I),
        getter!(rocksdb_options_get_wal_recovery_mode, I),
        getter!(rocksdb_options_get_writable_file_max_buffer_size, I),
        getter!(rocksdb_options_get_write_buffer_size, I),
    ]
}

/// Known RocksDB 7.8.3 defaults, verified with the C probe in `defaults_match_librocksdb`.
#[test]
fn defaults_are_rocksdbs() {
    let opts = Opts::new();
    let o = opts.0;
    // SAFETY: live options handle.
    unsafe {
        assert_eq!(rocksdb_options_get_create_if_missing(o), 0);
        assert_eq!(rocksdb_options_get_paranoid_checks(o), 1);
        assert_eq!(rocksdb_options_get_write_buffer_size(o), 64 << 20);
        assert_eq!(rocksdb_options_get_max_write_buffer_number(o), 2);
        assert_eq!(rocksdb_options_get_max_open_files(o), -1);
        assert_eq!(rocksdb_options_get_max_background_jobs(o), 2);
        assert_eq!(rocksdb_options_get_max_background_compactions(o), -1);
        assert_eq!(rocksdb_options_get_num_levels(o), 7);
        assert_eq!(rocksdb_options_get_level0_stop_writes_trigger(o), 36);
        assert_eq!(rocksdb_options_get_target_file_size_base(o), 64 << 20);
        assert_eq!(rocksdb_options_get_max_bytes_for_level_base(o), 256 << 20);
        assert_eq!(rocksdb_options_get_max_bytes_for_level_multiplier(o), 10.0);
        assert_eq!(rocksdb_options_get_compression(o), 1);
        assert_eq!(rocksdb_options_get_bottommost_compression(o), 0xff);
        assert_eq!(rocksdb_options_get_compaction_pri(o), 3);
        assert_eq!(rocksdb_options_get_max_manifest_file_size(o), 1 << 30);
        assert_eq!(
            rocksdb_options_get_delete_obsolete_files_period_micros(o),
            21_600_000_000
        );
        assert_eq!(
            rocksdb_options_get_hard_pending_compaction_bytes_limit(o),
            256 << 30
        );
        assert_eq!(
            rocksdb_options_get_soft_pending_compaction_bytes_limit(o),
            64 << 30
        );
        assert_eq!(rocksdb_options_get_keep_log_file_num(o), 1000);
        assert_eq!(rocksdb_options_get_manifest_preallocation_size(o), 4 << 20);
        assert_eq!(rocksdb_options_get_blob_gc_age_cutoff(o), 0.25);
        assert_eq!(rocksdb_options_get_wal_recovery_mode(o), 2);
        assert_eq!(rocksdb_options_get_is_fd_close_on_exec(o), 1);
        assert_eq!(rocksdb_options_get_ttl(o), 0xffff_ffff_ffff_fffe);
        assert_eq!(rocksdb_options_get_write_identity_file(o), 1);
        assert_eq!(rocksdb_options_get_info_log_level(o), 1);
    }
}

/// Compiles a C program against Debian's librocksdb 7.8.3 that prints the default of every
/// numeric getter, and compares with ours. Skipped when `cc` or librocksdb is missing.
#[test]
fn defaults_match_librocksdb() {
    let getters = getters_783();
    let dir = std::env::temp_dir().join(format!("solistore-capiopts-probe-{}", std::process::id()));
    if std::fs::create_dir_all(&dir).is_err() {
        return;
    }
    let mut c = String::from(
        "#include <rocksdb/c.h>\n#include <stdio.h>\nint main(void) {\n  rocksdb_options_t* o = rocksdb_options_create();\n",
    );
    let opts = Opts::new();
    for (name, g) in &getters {
        let fmt = match g(opts.0) {
            V::I(_) => format!("  printf(\"{name} %lld\\n\", (long long){name}(o));\n"),
            V::F(_) => format!("  printf(\"{name} %.17g\\n\", (double){name}(o));\n"),
        };
        c.push_str(&fmt);
    }
    c.push_str("  rocksdb_options_destroy(o);\n  return 0;\n}\n");
    let src = dir.join("probe.c");
    let exe = dir.join("probe");
    if std::fs::write(&src, c).is_err() {
        return;
    }
    let built = std::process::Command::new("cc")
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .arg("-lrocksdb")
        .output();
    let Ok(built) = built else {
        eprintln!("skipped: no C compiler");
        return;
    };
    if !built.status.success() {
        eprintln!("skipped: librocksdb not available");
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    let out = std::process::Command::new(&exe)
        .output()
        .expect("the probe was just built");
    let _ = std::fs::remove_dir_all(&dir);
    let text = String::from_utf8_lossy(&out.stdout);
    let mut compared = 0;
    for line in text.lines() {
        let (name, value) = line.split_once(' ').expect("probe prints `name value`");
        // Debian's build has assertions on, so its default is DEBUG_LEVEL; ours is the
        // release default INFO_LEVEL (stored.rs).
        if name == "rocksdb_options_get_info_log_level" {
            continue;
        }
        let (_, g) = getters
            .iter()
            .find(|(n, _)| *n == name)
            .expect("probe prints only listed getters");
        match g(opts.0) {
            V::I(ours) => assert_eq!(ours, value.parse::<i128>().expect("integer"), "{name}"),
            V::F(ours) => assert_eq!(ours, value.parse::<f64>().expect("float"), "{name}"),
        }
        compared += 1;
    }
    assert_eq!(compared, getters.len() - 1, "every getter compared");
}

#[test]
fn copy_is_independent_but_shares_objects() {
    let a = Opts::new();
    // SAFETY: live handles; the cache handle is destroyed right after setting, as c_test does
    // with rate limiters.
    unsafe {
        rocksdb_options_set_write_buffer_size(a.0, 1234);
        rocksdb_options_enable_statistics(a.0);
        let cache = rocksdb_cache_create_lru(4096);
        rocksdb_options_set_row_cache(a.0, cache);
        rocksdb_cache_destroy(cache);
        let rl = rocksdb_ratelimiter_create(1000, 100_000, 10);
        rocksdb_options_set_ratelimiter(a.0, rl);
        rocksdb_ratelimiter_destroy(rl);
        let b = Opts(rocksdb_options_create_copy(a.0));
        rocksdb_options_set_write_buffer_size(a.0, 1);
        assert_eq!(rocksdb_options_get_write_buffer_size(b.0), 1234);
        let (sa, sb) = (a.get(), b.get());
        let ca = sa.s.row_cache.as_ref().expect("row cache set");
        assert!(Arc::ptr_eq(ca, sb.s.row_cache.as_ref().expect("copied")));
        assert_eq!(ca.capacity(), 4096);
        let rl = sb.s.rate_limiter.as_ref().expect("copied");
        assert_eq!(rl.bucket.bytes_per_second(), 1000);
        assert!(Arc::ptr_eq(
            sa.s.statistics.as_ref().expect("on"),
            sb.s.statistics.as_ref().expect("shared")
        ));
        // Two options and no handle: the cache lives while either options does.
        assert_eq!(Arc::strong_count(ca), 2);
    }
}

#[test]
fn block_based_table_options_are_copied_at_set() {
    let o = Opts::new();
    // SAFETY: live handles; the filter policy's ownership moves to the table options.
    unsafe {
        let t = rocksdb_block_based_options_create();
        let cache = rocksdb_cache_create_lru(1 << 20);
        rocksdb_block_based_options_set_block_cache(t, cache);
        rocksdb_cache_destroy(cache);
        rocksdb_block_based_options_set_block_size(t, 16 << 10);
        let fp = rocksdb_filterpolicy_create_bloom_full(10.0);
        rocksdb_block_based_options_set_filter_policy(t, fp);
        rocksdb_options_set_block_based_table_factory(o.0, t);
        rocksdb_block_based_options_set_block_size(t, 1);
        // A caller that (wrongly) destroys the installed policy does nothing.
        rocksdb_filterpolicy_destroy(fp);
        rocksdb_block_based_options_set_filter_policy(t, ptr::null_mut());
        rocksdb_block_based_options_destroy(t);
    }
    let stored::TableFactory::BlockBased(t) = &o.get().s.table_factory else {
        panic!("block-based table factory expected");
    };
    assert_eq!(t.block_size, 16 << 10);
    assert_eq!(t.block_cache.as_ref().map(|c| c.capacity()), Some(1 << 20));
    assert_eq!(
        t.filter_policy.as_deref(),
        Some(&FilterPolicy::bloom(10.0, false))
    );
}

#[test]
fn presets_apply_rocksdbs_values() {
    let o = Opts::new();
    // SAFETY: live handle.
    unsafe {
        rocksdb_options_increase_parallelism(o.0, 8);
        assert_eq!(rocksdb_options_get_max_background_jobs(o.0), 8);
        let env = rocksdb_create_default_env();
        assert_eq!(rocksdb_env_get_background_threads(env), 8);
        assert_eq!(rocksdb_env_get_high_priority_background_threads(env), 1);
        rocksdb_env_destroy(env);

        rocksdb_options_optimize_level_style_compaction(o.0, 512 << 20);
        assert_eq!(rocksdb_options_get_write_buffer_size(o.0), 128 << 20);
        assert_eq!(rocksdb_options_get_max_bytes_for_level_base(o.0), 512 << 20);
        assert_eq!(o.get().s.compression_per_level, vec![0, 0, 4, 4, 4, 4, 4]);

        rocksdb_options_prepare_for_bulk_load(o.0);
        assert_eq!(rocksdb_options_get_num_levels(o.0), 2);
        assert_eq!(rocksdb_options_get_disable_auto_compactions(o.0), 1);
        assert_eq!(rocksdb_options_get_max_background_flushes(o.0), 4);
        assert_eq!(
            rocksdb_options_get_level0_file_num_compaction_trigger(o.0),
            1 << 30
        );

        rocksdb_options_set_compression(o.0, 7);
        rocksdb_options_set_min_level_to_compress(o.0, 1);
        assert_eq!(o.get().s.compression_per_level, vec![0, 7]);

        rocksdb_options_optimize_for_point_lookup(o.0, 2);
        let stored::TableFactory::BlockBased(t) = &o.get().s.table_factory else {
            panic!("block-based table factory expected");
        };
        assert_eq!(t.block_cache.as_ref().map(|c| c.capacity()), Some(2 << 20));
        assert_eq!(t.data_block_index_type, 1);
    }
}

// ---- comparator ---------------------------------------------------------------------------

static CMP_DESTROYED: AtomicUsize = AtomicUsize::new(0);
static CMP_CALLS: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn reverse_compare(
    _state: *mut c_void,
    a: *const c_char,
    alen: usize,
    b: *const c_char,
    blen: usize,
) -> c_int {
    CMP_CALLS.fetch_add(1, Ordering::SeqCst);
    // SAFETY: the engine passes valid (ptr, len) pairs.
    let (a, b) = unsafe {
        (
            std::slice::from_raw_parts(a.cast::<u8>(), alen),
            std::slice::from_raw_parts(b.cast::<u8>(), blen),
        )
    };
    match b.cmp(a) {
        std::cmp::Ordering::Less => -1,
        std::cmp::Ordering::Equal => 0,
        std::cmp::Ordering::Greater => 1,
    }
}

unsafe extern "C" fn reverse_name(_state: *mut c_void) -> *const c_char {
    c"test.reverse".as_ptr()
}

unsafe extern "C" fn null_name(_state: *mut c_void) -> *const c_char {
    ptr::null()
}

unsafe extern "C" fn count_cmp_destroy(_state: *mut c_void) {
    CMP_DESTROYED.fetch_add(1, Ordering::SeqCst);
}

fn temp_db_dir(tag: &str) -> String {
    let dir = std::env::temp_dir().join(format!(
        "solistore-capiopts-{tag}-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir.to_string_lossy().into_owned()
}

#[test]
fn comparator_orders_the_engine_and_is_destroyed_once() {
    let o = Opts::new();
    // SAFETY: valid callbacks with a NULL state they never read.
    let cmp = unsafe {
        rocksdb_comparator_create(
            ptr::null_mut(),
            Some(count_cmp_destroy),
            Some(reverse_compare),
            Some(reverse_name),
        )
    };
    assert!(!cmp.is_null());
    // SAFETY: live handles.
    unsafe {
        rocksdb_options_set_comparator(o.0, cmp);
        rocksdb_options_set_create_if_missing(o.0, 1);
    }
    let path = temp_db_dir("cmp");
    let db = Db::open(&o.get().db, o.get().cf.clone(), &path).expect("open");
    let cf = db.default_cf();
    let wo = WriteOptions::default();
    for k in [b"a", b"c", b"b"] {
        db.put(&wo, &cf, k, b"v").expect("put");
    }
    let mut it = db.iter(&ReadOptions::default(), &cf).expect("iter");
    it.seek_to_first();
    let mut keys = Vec::new();
    while it.valid() {
        keys.push(it.key().to_vec());
        it.next();
    }
    assert_eq!(keys, vec![b"c".to_vec(), b"b".to_vec(), b"a".to_vec()]);
    assert!(
        CMP_CALLS.load(Ordering::SeqCst) > 0,
        "the engine called the C compare"
    );
    drop(it);
    db.close().expect("close");
    drop(db);
    let _ = std::fs::remove_dir_all(&path);
    assert_eq!(CMP_DESTROYED.load(Ordering::SeqCst), 0);
    // SAFETY: created above, destroyed once, after the last DB closed.
    unsafe { rocksdb_comparator_destroy(cmp) };
    assert_eq!(CMP_DESTROYED.load(Ordering::SeqCst), 1);
    // The options still hold the adapter: it no longer calls into the destroyed state, and
    // dropping the options does not run the destructor again.
    let calls = CMP_CALLS.load(Ordering::SeqCst);
    assert_eq!(
        o.get().cf.comparator.compare(b"a", b"b"),
        std::cmp::Ordering::Less
    );
    assert_eq!(o.get().cf.comparator.name(), "test.reverse");
    assert_eq!(CMP_CALLS.load(Ordering::SeqCst), calls);
    drop(o);
    assert_eq!(CMP_DESTROYED.load(Ordering::SeqCst), 1);
}

#[test]
fn comparator_without_name_is_rejected() {
    // SAFETY: valid callbacks.
    unsafe {
        let c = rocksdb_comparator_create(
            ptr::null_mut(),
            None,
            Some(reverse_compare),
            Some(null_name),
        );
        assert!(c.is_null());
        let c = rocksdb_comparator_create(ptr::null_mut(), None, Some(reverse_compare), None);
        assert!(c.is_null());
    }
}

// ---- merge operator -----------------------------------------------------------------------

/// Per-test state for the merge callbacks (tests run in parallel: no globals).
#[derive(Default)]
struct MergeState {
    destroyed: AtomicUsize,
    deleted: AtomicUsize,
    fail: bool,
}

unsafe extern "C" fn concat_full_merge(
    state: *mut c_void,
    _key: *const c_char,
    _key_len: usize,
    existing: *const c_char,
    existing_len: usize,
    operands: *const *const c_char,
    operand_lens: *const usize,
    num_operands: c_int,
    success: *mut c_uchar,
    new_value_len: *mut usize,
) -> *mut c_char {
    // SAFETY: `state` is the test's `MergeState`.
    let st = unsafe { &*state.cast::<MergeState>() };
    let mut out = Vec::new();
    if !existing.is_null() {
        // SAFETY: (existing, existing_len) is a valid byte range.
        out.extend_from_slice(unsafe {
            std::slice::from_raw_parts(existing.cast::<u8>(), existing_len)
        });
    }
    for i in 0..usize::try_from(num_operands).unwrap_or(0) {
        // SAFETY: the arrays hold `num_operands` entries, each a valid byte range.
        let op = unsafe {
            std::slice::from_raw_parts((*operands.add(i)).cast::<u8>(), *operand_lens.add(i))
        };
        out.push(b',');
        out.extend_from_slice(op);
    }
    // SAFETY: out-parameters are valid; the buffer is malloc()ed as the contract allows.
    unsafe {
        *success = c_uchar::from(!st.fail);
        *new_value_len = out.len();
        crate::alloc::malloc_copy(&out)
    }
}

unsafe extern "C" fn count_delete_value(state: *mut c_void, value: *const c_char, _len: usize) {
    // SAFETY: `state` is the test's `MergeState`; `value` came from `malloc_copy`.
    unsafe {
        (*state.cast::<MergeState>())
            .deleted
            .fetch_add(1, Ordering::SeqCst);
        libc::free(value.cast_mut().cast());
    }
}

unsafe extern "C" fn count_merge_destroy(state: *mut c_void) {
    // SAFETY: `state` is the test's `MergeState`, alive for the whole test.
    unsafe {
        (*state.cast::<MergeState>())
            .destroyed
            .fetch_add(1, Ordering::SeqCst)
    };
}

unsafe extern "C" fn merge_name(_state: *mut c_void) -> *const c_char {
    c"test.concat".as_ptr()
}

fn merge_op(st: &MergeState, with_delete_value: bool) -> *mut rocksdb_mergeoperator_t {
    let state = ptr::from_ref(st).cast_mut().cast::<c_void>();
    // SAFETY: valid callbacks; `st` outlives every use in the tests.
    unsafe {
        rocksdb_mergeoperator_create(
            state,
            Some(count_merge_destroy),
            Some(concat_full_merge),
            None,
            if with_delete_value {
                Some(count_delete_value)
            } else {
                None
            },
            Some(merge_name),
        )
    }
}

#[test]
fn merge_operator_full_merge_through_the_engine() {
    for with_delete_value in [true, false] {
        let st = MergeState::default();
        let o = Opts::new();
        let m = merge_op(&st, with_delete_value);
        // SAFETY: live handles; ownership of `m` moves to the options.
        unsafe {
            rocksdb_options_set_merge_operator(o.0, m);
            rocksdb_options_set_create_if_missing(o.0, 1);
        }
        let path = temp_db_dir(if with_delete_value {
            "merge-dv"
        } else {
            "merge-free"
        });
        let db = Db::open(&o.get().db, o.get().cf.clone(), &path).expect("open");
        let cf = db.default_cf();
        let wo = WriteOptions::default();
        db.put(&wo, &cf, b"k", b"base").expect("put");
        db.merge(&wo, &cf, b"k", b"x").expect("merge");
        db.merge(&wo, &cf, b"k", b"y").expect("merge");
        let v = db.get(&ReadOptions::default(), &cf, b"k").expect("get");
        assert_eq!(v.as_deref(), Some(&b"base,x,y"[..]));
        let expected_deletes = usize::from(with_delete_value);
        assert!(st.deleted.load(Ordering::SeqCst) >= expected_deletes);
        if !with_delete_value {
            // The buffer went to libc free(); delete_value was never involved.
            assert_eq!(st.deleted.load(Ordering::SeqCst), 0);
        }
        db.close().expect("close");
        drop((cf, db));
        let _ = std::fs::remove_dir_all(&path);
        // A (forbidden) destroy after installing is a no-op: the handle was consumed.
        // SAFETY: `m` was consumed by the set above, which `destroy` recognises.
        unsafe { rocksdb_mergeoperator_destroy(m) };
        assert_eq!(
            st.destroyed.load(Ordering::SeqCst),
            0,
            "options still hold it"
        );
        drop(o);
        assert_eq!(st.destroyed.load(Ordering::SeqCst), 1, "last holder gone");
    }
}

#[test]
fn merge_operator_failure_releases_the_buffer_and_fails_the_read() {
    let st = MergeState {
        fail: true,
        ..MergeState::default()
    };
    let m = merge_op(&st, true);
    let o = Opts::new();
    // SAFETY: live handles.
    unsafe { rocksdb_options_set_merge_operator(o.0, m) };
    let op = o.get().cf.merge_operator.clone().expect("set");
    assert_eq!(op.name(), "test.concat");
    assert_eq!(op.full_merge(b"k", None, &[b"a"]), None);
    assert_eq!(
        st.deleted.load(Ordering::SeqCst),
        1,
        "released even on failure"
    );
    assert_eq!(
        op.partial_merge(b"k", &[b"a", b"b"]),
        None,
        "no partial merge"
    );
    drop(op);
    drop(o);
    assert_eq!(st.destroyed.load(Ordering::SeqCst), 1);
    // SAFETY: `m` was consumed by the set above, which `destroy` recognises.
    unsafe { rocksdb_mergeoperator_destroy(m) };
    assert_eq!(st.destroyed.load(Ordering::SeqCst), 1);
}

#[test]
fn merge_operator_set_twice_is_shared_and_destroyed_once() {
    let st = MergeState::default();
    let m = merge_op(&st, false);
    let (a, b) = (Opts::new(), Opts::new());
    // SAFETY: `m` is live, then consumed; setting it again is recognised.
    unsafe {
        rocksdb_options_set_merge_operator(a.0, m);
        rocksdb_options_set_merge_operator(b.0, m);
    }
    let (ma, mb) = (
        a.get().cf.merge_operator.clone().expect("set"),
        b.get().cf.merge_operator.clone().expect("shared"),
    );
    assert!(Arc::ptr_eq(&ma, &mb));
    drop((ma, mb, a));
    assert_eq!(st.destroyed.load(Ordering::SeqCst), 0);
    drop(b);
    assert_eq!(st.destroyed.load(Ordering::SeqCst), 1);
    // A new handle may reuse the consumed address: it is live and destroyable.
    let m2 = merge_op(&st, false);
    // SAFETY: live handle, not used again.
    unsafe { rocksdb_mergeoperator_destroy(m2) };
    assert_eq!(st.destroyed.load(Ordering::SeqCst), 2);
}

#[test]
fn merge_operator_never_set_is_destroyed_by_destroy() {
    let st = MergeState::default();
    let m = merge_op(&st, false);
    // SAFETY: live handle, not used again.
    unsafe { rocksdb_mergeoperator_destroy(m) };
    assert_eq!(st.destroyed.load(Ordering::SeqCst), 1);
}

#[test]
fn uint64add_merge_operator_is_installed() {
    let o = Opts::new();
    // SAFETY: live handle.
    unsafe { rocksdb_options_set_uint64add_merge_operator(o.0) };
    let op = o.get().cf.merge_operator.clone().expect("set");
    assert_eq!(op.name(), "UInt64AddOperator");
    let out = op
        .full_merge(b"k", Some(&2u64.to_le_bytes()), &[&3u64.to_le_bytes()])
        .expect("never fails");
    assert_eq!(out, 5u64.to_le_bytes());
}

// ---- compaction filter --------------------------------------------------------------------

#[derive(Default)]
struct FilterState {
    destroyed: AtomicUsize,
    factory_destroyed: AtomicUsize,
}

unsafe extern "C" fn test_filter(
    _state: *mut c_void,
    _level: c_int,
    key: *const c_char,
    key_len: usize,
    _value: *const c_char,
    _value_len: usize,
    new_value: *mut *mut c_char,
    new_value_len: *mut usize,
    value_changed: *mut c_uchar,
) -> c_uchar {
    // SAFETY: the adapter passes a valid key and out-parameters.
    unsafe {
        match std::slice::from_raw_parts(key.cast::<u8>(), key_len) {
            b"drop" => 1,
            b"change" => {
                *new_value = c"new".as_ptr().cast_mut();
                *new_value_len = 3;
                *value_changed = 1;
                0
            }
            _ => 0,
        }
    }
}

unsafe extern "C" fn count_filter_destroy(state: *mut c_void) {
    // SAFETY: `state` is the test's `FilterState`.
    unsafe {
        (*state.cast::<FilterState>())
            .destroyed
            .fetch_add(1, Ordering::SeqCst)
    };
}

unsafe extern "C" fn count_factory_destroy(state: *mut c_void) {
    // SAFETY: `state` is the test's `FilterState`.
    unsafe {
        (*state.cast::<FilterState>())
            .factory_destroyed
            .fetch_add(1, Ordering::SeqCst)
    };
}

unsafe extern "C" fn filter_name(_state: *mut c_void) -> *const c_char {
    c"test.filter".as_ptr()
}

unsafe extern "C" fn make_filter(
    state: *mut c_void,
    context: *mut rocksdb_compactionfiltercontext_t,
) -> *mut rocksdb_compactionfilter_t {
    // SAFETY: `context` is the adapter's; the callbacks are valid.
    unsafe {
        assert_eq!(
            rocksdb_compactionfiltercontext_is_manual_compaction(context),
            1
        );
        assert_eq!(
            rocksdb_compactionfiltercontext_is_full_compaction(context),
            0
        );
        rocksdb_compactionfilter_create(
            state,
            Some(count_filter_destroy),
            Some(test_filter),
            Some(filter_name),
        )
    }
}

#[test]
fn compaction_filter_decisions_and_destructor() {
    let st = FilterState::default();
    let state = ptr::from_ref(&st).cast_mut().cast::<c_void>();
    let o = Opts::new();
    // SAFETY: valid callbacks; `st` outlives the filter.
    let f = unsafe {
        rocksdb_compactionfilter_create(
            state,
            Some(count_filter_destroy),
            Some(test_filter),
            Some(filter_name),
        )
    };
    // SAFETY: live handles.
    unsafe {
        rocksdb_compactionfilter_set_ignore_snapshots(f, 0);
        rocksdb_options_set_compaction_filter(o.0, f);
    }
    let adapter = o.get().s.compaction_filter.clone().expect("set");
    assert_eq!(adapter.name(), "test.filter");
    assert!(!adapter.ignore_snapshots());
    assert_eq!(adapter.filter(1, b"drop", b"v"), FilterDecision::Remove);
    assert_eq!(adapter.filter(1, b"keep", b"v"), FilterDecision::Keep);
    assert_eq!(
        adapter.filter(1, b"change", b"v"),
        FilterDecision::ChangeValue(b"new".to_vec())
    );
    assert_eq!(st.destroyed.load(Ordering::SeqCst), 0);
    // SAFETY: live handle, destroyed once.
    unsafe { rocksdb_compactionfilter_destroy(f) };
    assert_eq!(st.destroyed.load(Ordering::SeqCst), 1);
    // The options' share no longer calls the dead state, and never destroys again.
    assert_eq!(adapter.filter(1, b"drop", b"v"), FilterDecision::Keep);
    drop(adapter);
    drop(o);
    assert_eq!(st.destroyed.load(Ordering::SeqCst), 1);
}

#[test]
fn compaction_filter_factory_owns_its_filters() {
    let st = FilterState::default();
    let state = ptr::from_ref(&st).cast_mut().cast::<c_void>();
    let o = Opts::new();
    // SAFETY: valid callbacks; `st` outlives the factory.
    unsafe {
        let fac = rocksdb_compactionfilterfactory_create(
            state,
            Some(count_factory_destroy),
            Some(make_filter),
            Some(filter_name),
        );
        rocksdb_options_set_compaction_filter_factory(o.0, fac);
        // Forbidden by RocksDB, harmless here: the handle was consumed.
        rocksdb_compactionfilterfactory_destroy(fac);
    }
    let fac = o.get().s.compaction_filter_factory.clone().expect("set");
    assert_eq!(fac.name(), "test.filter");
    let filter = fac
        .create_filter(rocksdb_compactionfiltercontext_t {
            is_full_compaction: false,
            is_manual_compaction: true,
        })
        .expect("the callback made a filter");
    assert_eq!(filter.inner.filter(0, b"drop", b""), FilterDecision::Remove);
    drop(filter);
    assert_eq!(
        st.destroyed.load(Ordering::SeqCst),
        1,
        "library-owned filter destroyed"
    );
    drop(fac);
    assert_eq!(st.factory_destroyed.load(Ordering::SeqCst), 0);
    drop(o);
    assert_eq!(st.factory_destroyed.load(Ordering::SeqCst), 1);
}

// ---- slice transform, statistics, env, write buffer manager --------------------------------

unsafe extern "C" fn two_byte_prefix(
    _state: *mut c_void,
    key: *const c_char,
    _len: usize,
    dst_len: *mut usize,
) -> *mut c_char {
    // SAFETY: valid out-parameter; the prefix points into the key.
    unsafe { *dst_len = 2 };
    key.cast_mut()
}

unsafe extern "C" fn long_enough(_state: *mut c_void, _key: *const c_char, len: usize) -> c_uchar {
    c_uchar::from(len >= 2)
}

#[test]
fn prefix_extractors() {
    let o = Opts::new();
    // SAFETY: valid callbacks; live handles.
    unsafe {
        let t = rocksdb_slicetransform_create_fixed_prefix(3);
        rocksdb_options_set_prefix_extractor(o.0, t);
        let p = o.get().s.prefix_extractor.clone().expect("set");
        assert_eq!(p.name, "rocksdb.FixedPrefix.3");
        assert_eq!(p.transform(b"abcdef"), Some(b"abc".to_vec()));
        assert!(!p.in_domain(b"ab"));

        let t = rocksdb_slicetransform_create(
            ptr::null_mut(),
            None,
            Some(two_byte_prefix),
            Some(long_enough),
            Some(filter_name),
        );
        rocksdb_options_set_prefix_extractor(o.0, t);
        let p = o.get().s.prefix_extractor.clone().expect("set");
        assert_eq!(p.transform(b"xyz"), Some(b"xy".to_vec()));
        assert!(p.in_domain(b"xy") && !p.in_domain(b"x"));

        let noop = rocksdb_slicetransform_create_noop();
        rocksdb_slicetransform_destroy(noop);
        rocksdb_options_set_prefix_extractor(o.0, ptr::null_mut());
        assert!(o.get().s.prefix_extractor.is_none());
    }
}

#[test]
fn statistics_report_attached_db_counters() {
    let o = Opts::new();
    // SAFETY: live handle.
    unsafe {
        assert!(rocksdb_options_statistics_get_string(o.0).is_null());
        assert_eq!(rocksdb_options_statistics_get_ticker_count(o.0, 61), 0);
        rocksdb_options_enable_statistics(o.0);
        rocksdb_options_set_create_if_missing(o.0, 1);
    }
    let path = temp_db_dir("stats");
    let db = Db::open(&o.get().db, o.get().cf.clone(), &path).expect("open");
    o.get().s.statistics.as_ref().expect("on").attach(&db);
    db.put(&WriteOptions::default(), &db.default_cf(), b"key", b"value")
        .expect("put");
    // SAFETY: live handle; the string is malloc()ed.
    unsafe {
        assert_eq!(rocksdb_options_statistics_get_ticker_count(o.0, 58), 1);
        assert!(rocksdb_options_statistics_get_ticker_count(o.0, 61) > 0);
        assert_eq!(rocksdb_options_statistics_get_ticker_count(o.0, 0), 0);
        let s = rocksdb_options_statistics_get_string(o.0);
        let text = CStr::from_ptr(s).to_string_lossy().into_owned();
        crate::alloc::rocksdb_free(s.cast());
        assert!(
            text.contains("rocksdb.number.keys.written COUNT : 1\n"),
            "{text}"
        );
    }
    db.close().expect("close");
    drop(db);
    let _ = std::fs::remove_dir_all(&path);
}

#[test]
fn env_and_write_buffer_manager() {
    // SAFETY: handles created and destroyed here.
    unsafe {
        let mem = rocksdb_create_mem_env();
        rocksdb_env_set_bottom_priority_background_threads(mem, 3);
        let def = rocksdb_create_default_env();
        assert_eq!(
            rocksdb_env_get_bottom_priority_background_threads(def),
            3,
            "process-wide"
        );
        let o = Opts::new();
        rocksdb_options_set_env(o.0, mem);
        rocksdb_env_destroy(mem);
        assert_eq!(
            o.get().s.env.as_ref().map(|e| e.kind),
            Some(EnvKind::Memory)
        );
        rocksdb_options_set_env(o.0, ptr::null_mut());
        assert!(o.get().s.env.is_none());
        rocksdb_env_join_all_threads(def);
        rocksdb_env_destroy(def);

        let cache = rocksdb_cache_create_lru(100);
        let w = rocksdb_write_buffer_manager_create_with_cache(1000, cache, true);
        rocksdb_cache_destroy(cache);
        assert!(rocksdb_write_buffer_manager_enabled(w));
        assert!(rocksdb_write_buffer_manager_cost_to_cache(w));
        rocksdb_write_buffer_manager_set_buffer_size(w, 0);
        rocksdb_write_buffer_manager_set_allow_stall(w, false);
        rocksdb_options_set_write_buffer_manager(o.0, w);
        rocksdb_write_buffer_manager_destroy(w);
        let wbm = o.get().s.write_buffer_manager.clone().expect("set");
        assert_eq!(wbm.buffer_size(), 0);
        assert!(!wbm.should_stall());
        assert!(wbm.cost_to_cache());
    }
}

#[test]
fn cache_capacity_is_shared() {
    // SAFETY: handles created and destroyed here.
    unsafe {
        let c = rocksdb_cache_create_lru_with_strict_capacity_limit(10);
        let t = rocksdb_block_based_options_create();
        rocksdb_block_based_options_set_block_cache(t, c);
        rocksdb_cache_set_capacity(c, 20);
        assert_eq!(rocksdb_cache_get_capacity(c), 20);
        assert_eq!(rocksdb_cache_get_usage(c), 0);
        assert_eq!(
            (&*t).opts.block_cache.as_ref().map(|c| c.capacity()),
            Some(20)
        );
        assert!((&*c).inner.strict_capacity_limit());
        rocksdb_cache_destroy(c);
        rocksdb_block_based_options_destroy(t);
        let lo = rocksdb_lru_cache_options_create();
        rocksdb_lru_cache_options_set_capacity(lo, 77);
        let c = rocksdb_cache_create_lru_opts(lo);
        rocksdb_lru_cache_options_destroy(lo);
        assert_eq!(rocksdb_cache_get_capacity(c), 77);
        rocksdb_cache_destroy(c);
        let ho = rocksdb_hyper_clock_cache_options_create(5, 1);
        let c = rocksdb_cache_create_hyper_clock_opts(ho);
        rocksdb_hyper_clock_cache_options_destroy(ho);
        assert_eq!((&*c).inner.kind, CacheKind::HyperClock);
        rocksdb_cache_destroy(c);
    }
}
