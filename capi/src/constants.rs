// SPDX-License-Identifier: Apache-2.0
//! The integer constants of RocksDB's `c.h` (its anonymous `enum { ... }` blocks, v11.1.2,
//! which include every v7.8.3 value). Values are ABI: C passes them as `int`, and they were
//! checked against upstream's header by compiling a program that prints each one.
//!
//! cbindgen renders each as `#define <name> <value>`; for C and C++ code that uses the names
//! as values (`rocksdb_options_set_compression(o, rocksdb_lz4_compression)`, `case` labels)
//! that is equivalent to upstream's enumerators.

use std::ffi::c_int;

// Values for `rocksdb_approximate_sizes_cf_with_flags` flags (bit set).
pub const rocksdb_size_approximation_flags_none: c_int = 0;
pub const rocksdb_size_approximation_flags_include_memtable: c_int = 1;
pub const rocksdb_size_approximation_flags_include_files: c_int = 2;

// Values for `rocksdb_block_based_options_set_index_type`.
pub const rocksdb_block_based_table_index_type_binary_search: c_int = 0;
pub const rocksdb_block_based_table_index_type_hash_search: c_int = 1;
pub const rocksdb_block_based_table_index_type_two_level_index_search: c_int = 2;

// Values for `rocksdb_block_based_options_set_data_block_index_type`.
pub const rocksdb_block_based_table_data_block_index_type_binary_search: c_int = 0;
pub const rocksdb_block_based_table_data_block_index_type_binary_search_and_hash: c_int = 1;

// Values for `rocksdb_block_based_options_set_index_block_search_type`.
pub const rocksdb_block_based_table_index_block_search_type_binary: c_int = 0;
pub const rocksdb_block_based_table_index_block_search_type_interpolation: c_int = 1;

// Values for `rocksdb_block_based_options_set_*_pinning_tier`.
pub const rocksdb_block_based_k_fallback_pinning_tier: c_int = 0;
pub const rocksdb_block_based_k_none_pinning_tier: c_int = 1;
pub const rocksdb_block_based_k_flush_and_similar_pinning_tier: c_int = 2;
pub const rocksdb_block_based_k_all_pinning_tier: c_int = 3;

// Values for `rocksdb_options_set_statistics_level` (`except_tickers` is an alias of `except_histogram_or_timers`).
pub const rocksdb_statistics_level_disable_all: c_int = 0;
pub const rocksdb_statistics_level_except_tickers: c_int = 0;
pub const rocksdb_statistics_level_except_histogram_or_timers: c_int = 1;
pub const rocksdb_statistics_level_except_timers: c_int = 2;
pub const rocksdb_statistics_level_except_detailed_timers: c_int = 3;
pub const rocksdb_statistics_level_except_time_for_mutex: c_int = 4;
pub const rocksdb_statistics_level_all: c_int = 5;

// Values for `rocksdb_options_set_prepopulate_blob_cache`.
pub const rocksdb_prepopulate_blob_disable: c_int = 0;
pub const rocksdb_prepopulate_blob_flush_only: c_int = 1;

// Values for `rocksdb_options_set_wal_recovery_mode`.
pub const rocksdb_tolerate_corrupted_tail_records_recovery: c_int = 0;
pub const rocksdb_absolute_consistency_recovery: c_int = 1;
pub const rocksdb_point_in_time_recovery: c_int = 2;
pub const rocksdb_skip_any_corrupted_records_recovery: c_int = 3;

// Values for `rocksdb_options_set_compression` and friends (the values are RocksDB's on-disk compression type bytes).
pub const rocksdb_no_compression: c_int = 0;
pub const rocksdb_snappy_compression: c_int = 1;
pub const rocksdb_zlib_compression: c_int = 2;
pub const rocksdb_bz2_compression: c_int = 3;
pub const rocksdb_lz4_compression: c_int = 4;
pub const rocksdb_lz4hc_compression: c_int = 5;
pub const rocksdb_xpress_compression: c_int = 6;
pub const rocksdb_zstd_compression: c_int = 7;

// Values for `rocksdb_options_set_compaction_style`.
pub const rocksdb_level_compaction: c_int = 0;
pub const rocksdb_universal_compaction: c_int = 1;
pub const rocksdb_fifo_compaction: c_int = 2;

// Values for `rocksdb_options_set_compaction_pri`.
pub const rocksdb_k_by_compensated_size_compaction_pri: c_int = 0;
pub const rocksdb_k_oldest_largest_seq_first_compaction_pri: c_int = 1;
pub const rocksdb_k_oldest_smallest_seq_first_compaction_pri: c_int = 2;
pub const rocksdb_k_min_overlapping_ratio_compaction_pri: c_int = 3;
pub const rocksdb_k_round_robin_compaction_pri: c_int = 4;

// Values for `rocksdb_set_perf_level`.
pub const rocksdb_uninitialized: c_int = 0;
pub const rocksdb_disable: c_int = 1;
pub const rocksdb_enable_count: c_int = 2;
pub const rocksdb_enable_time_except_for_mutex: c_int = 3;
pub const rocksdb_enable_time: c_int = 4;
pub const rocksdb_out_of_bounds: c_int = 5;

// Values for `rocksdb_perfcontext_metric` ids.
pub const rocksdb_user_key_comparison_count: c_int = 0;
pub const rocksdb_block_cache_hit_count: c_int = 1;
pub const rocksdb_block_read_count: c_int = 2;
pub const rocksdb_block_read_byte: c_int = 3;
pub const rocksdb_block_read_time: c_int = 4;
pub const rocksdb_block_checksum_time: c_int = 5;
pub const rocksdb_block_decompress_time: c_int = 6;
pub const rocksdb_get_read_bytes: c_int = 7;
pub const rocksdb_multiget_read_bytes: c_int = 8;
pub const rocksdb_iter_read_bytes: c_int = 9;
pub const rocksdb_internal_key_skipped_count: c_int = 10;
pub const rocksdb_internal_delete_skipped_count: c_int = 11;
pub const rocksdb_internal_recent_skipped_count: c_int = 12;
pub const rocksdb_internal_merge_count: c_int = 13;
pub const rocksdb_get_snapshot_time: c_int = 14;
pub const rocksdb_get_from_memtable_time: c_int = 15;
pub const rocksdb_get_from_memtable_count: c_int = 16;
pub const rocksdb_get_post_process_time: c_int = 17;
pub const rocksdb_get_from_output_files_time: c_int = 18;
pub const rocksdb_seek_on_memtable_time: c_int = 19;
pub const rocksdb_seek_on_memtable_count: c_int = 20;
pub const rocksdb_next_on_memtable_count: c_int = 21;
pub const rocksdb_prev_on_memtable_count: c_int = 22;
pub const rocksdb_seek_child_seek_time: c_int = 23;
pub const rocksdb_seek_child_seek_count: c_int = 24;
pub const rocksdb_seek_min_heap_time: c_int = 25;
pub const rocksdb_seek_max_heap_time: c_int = 26;
pub const rocksdb_seek_internal_seek_time: c_int = 27;
pub const rocksdb_find_next_user_entry_time: c_int = 28;
pub const rocksdb_write_wal_time: c_int = 29;
pub const rocksdb_write_memtable_time: c_int = 30;
pub const rocksdb_write_delay_time: c_int = 31;
pub const rocksdb_write_pre_and_post_process_time: c_int = 32;
pub const rocksdb_db_mutex_lock_nanos: c_int = 33;
pub const rocksdb_db_condition_wait_nanos: c_int = 34;
pub const rocksdb_merge_operator_time_nanos: c_int = 35;
pub const rocksdb_read_index_block_nanos: c_int = 36;
pub const rocksdb_read_filter_block_nanos: c_int = 37;
pub const rocksdb_new_table_block_iter_nanos: c_int = 38;
pub const rocksdb_new_table_iterator_nanos: c_int = 39;
pub const rocksdb_block_seek_nanos: c_int = 40;
pub const rocksdb_find_table_nanos: c_int = 41;
pub const rocksdb_bloom_memtable_hit_count: c_int = 42;
pub const rocksdb_bloom_memtable_miss_count: c_int = 43;
pub const rocksdb_bloom_sst_hit_count: c_int = 44;
pub const rocksdb_bloom_sst_miss_count: c_int = 45;
pub const rocksdb_key_lock_wait_time: c_int = 46;
pub const rocksdb_key_lock_wait_count: c_int = 47;
pub const rocksdb_env_new_sequential_file_nanos: c_int = 48;
pub const rocksdb_env_new_random_access_file_nanos: c_int = 49;
pub const rocksdb_env_new_writable_file_nanos: c_int = 50;
pub const rocksdb_env_reuse_writable_file_nanos: c_int = 51;
pub const rocksdb_env_new_random_rw_file_nanos: c_int = 52;
pub const rocksdb_env_new_directory_nanos: c_int = 53;
pub const rocksdb_env_file_exists_nanos: c_int = 54;
pub const rocksdb_env_get_children_nanos: c_int = 55;
pub const rocksdb_env_get_children_file_attributes_nanos: c_int = 56;
pub const rocksdb_env_delete_file_nanos: c_int = 57;
pub const rocksdb_env_create_dir_nanos: c_int = 58;
pub const rocksdb_env_create_dir_if_missing_nanos: c_int = 59;
pub const rocksdb_env_delete_dir_nanos: c_int = 60;
pub const rocksdb_env_get_file_size_nanos: c_int = 61;
pub const rocksdb_env_get_file_modification_time_nanos: c_int = 62;
pub const rocksdb_env_rename_file_nanos: c_int = 63;
pub const rocksdb_env_link_file_nanos: c_int = 64;
pub const rocksdb_env_lock_file_nanos: c_int = 65;
pub const rocksdb_env_unlock_file_nanos: c_int = 66;
pub const rocksdb_env_new_logger_nanos: c_int = 67;
pub const rocksdb_number_async_seek: c_int = 68;
pub const rocksdb_blob_cache_hit_count: c_int = 69;
pub const rocksdb_blob_read_count: c_int = 70;
pub const rocksdb_blob_read_byte: c_int = 71;
pub const rocksdb_blob_read_time: c_int = 72;
pub const rocksdb_blob_checksum_time: c_int = 73;
pub const rocksdb_blob_decompress_time: c_int = 74;
pub const rocksdb_internal_range_del_reseek_count: c_int = 75;
pub const rocksdb_block_read_cpu_time: c_int = 76;
pub const rocksdb_internal_merge_point_lookup_count: c_int = 77;
pub const rocksdb_data_block_read_byte: c_int = 78;
pub const rocksdb_index_block_read_byte: c_int = 79;
pub const rocksdb_filter_block_read_byte: c_int = 80;
pub const rocksdb_compression_dict_block_read_byte: c_int = 81;
pub const rocksdb_metadata_block_read_byte: c_int = 82;
pub const rocksdb_total_metric_count: c_int = 85;

// Values for `rocksdb_universal_compaction_options_set_stop_style`.
pub const rocksdb_similar_size_compaction_stop_style: c_int = 0;
pub const rocksdb_total_size_compaction_stop_style: c_int = 1;

// Values for `rocksdb_compactionservice_scheduleresponse_create_with_status` job statuses.
pub const rocksdb_compactionservice_jobstatus_success: c_int = 0;
pub const rocksdb_compactionservice_jobstatus_failure: c_int = 1;
pub const rocksdb_compactionservice_jobstatus_aborted: c_int = 2;
pub const rocksdb_compactionservice_jobstatus_use_local: c_int = 3;
