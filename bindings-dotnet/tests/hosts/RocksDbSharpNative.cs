// SPDX-License-Identifier: Apache-2.0
// The 63 native functions Kommander 1.2.12 and Kahuna 1.2.8 reach through RocksDbSharp 11.1.2
// (shared/rocksdb-compat/hosts-used.txt), declared with the parameter and return types of the
// RocksDbSharp overloads those hosts' calls end in (curiosity-ai/rocksdb-sharp 7bca73a,
// csharp/src/Native.cs): byte for unsigned char/bool, UIntPtr for size_t, out IntPtr errptr,
// IntPtr handles, byte[] (marshaller-pinned) and byte* (span) key/value overloads, string[] CF
// names with IntPtr[] option and handle arrays for open_column_families, IntPtr[]/UIntPtr[]
// arrays for multi_get_cf, a UTF-8 IntPtr path for open and a string directory for checkpoints,
// and the Recovery enum for wal_recovery_mode. RocksDbSharp binds them through delegates made
// by GetDelegateForFunctionPointer over dlopen/dlsym; the default marshalling of those delegates
// is the same as DllImport's, which is what this file uses ("rocksdb": librocksdb.so).
using System;
using System.Runtime.InteropServices;

namespace Solistore.Tests.Hosts
{
    /// <summary>RocksDbSharp's Recovery enum (marshalled as int).</summary>
    public enum Recovery
    {
        TolerateCorruptedTailRecords = 0,
        AbsoluteConsistency = 1,
        PointInTime = 2,
        SkipAnyCorruptedRecords = 3,
    }

    public static unsafe class RocksDbSharpNative
    {
        const string L = "rocksdb";

        /// <summary>hosts-used.txt.</summary>
        public static readonly string[] HostFunctions =
        {
            "rocksdb_block_based_options_create", "rocksdb_block_based_options_destroy",
            "rocksdb_block_based_options_set_block_cache", "rocksdb_block_based_options_set_cache_index_and_filter_blocks",
            "rocksdb_block_based_options_set_filter_policy", "rocksdb_block_based_options_set_pin_l0_filter_and_index_blocks_in_cache",
            "rocksdb_block_based_options_set_whole_key_filtering", "rocksdb_cache_create_lru", "rocksdb_cache_destroy",
            "rocksdb_checkpoint_create", "rocksdb_checkpoint_object_create", "rocksdb_checkpoint_object_destroy",
            "rocksdb_close", "rocksdb_column_family_handle_destroy", "rocksdb_compact_range_cf",
            "rocksdb_create_iterator_cf", "rocksdb_delete_cf", "rocksdb_filterpolicy_create_bloom_full", "rocksdb_free",
            "rocksdb_get_cf", "rocksdb_iter_destroy", "rocksdb_iter_key", "rocksdb_iter_next", "rocksdb_iter_prev",
            "rocksdb_iter_seek", "rocksdb_iter_seek_to_first", "rocksdb_iter_seek_to_last", "rocksdb_iter_valid",
            "rocksdb_iter_value", "rocksdb_multi_get_cf", "rocksdb_open_column_families", "rocksdb_options_create",
            "rocksdb_options_destroy", "rocksdb_options_enable_statistics", "rocksdb_options_increase_parallelism",
            "rocksdb_options_set_allow_concurrent_memtable_write", "rocksdb_options_set_block_based_table_factory",
            "rocksdb_options_set_create_if_missing", "rocksdb_options_set_create_missing_column_families",
            "rocksdb_options_set_max_background_compactions", "rocksdb_options_set_max_background_flushes",
            "rocksdb_options_set_max_write_buffer_number", "rocksdb_options_set_min_write_buffer_number_to_merge",
            "rocksdb_options_set_stats_dump_period_sec", "rocksdb_options_set_use_direct_reads",
            "rocksdb_options_set_wal_recovery_mode", "rocksdb_options_set_write_buffer_manager",
            "rocksdb_options_set_write_buffer_size", "rocksdb_put_cf", "rocksdb_readoptions_create",
            "rocksdb_readoptions_destroy", "rocksdb_readoptions_set_fill_cache", "rocksdb_write",
            "rocksdb_write_buffer_manager_create_with_cache", "rocksdb_write_buffer_manager_destroy",
            "rocksdb_write_buffer_manager_memory_usage", "rocksdb_writebatch_create", "rocksdb_writebatch_delete_cf",
            "rocksdb_writebatch_destroy", "rocksdb_writebatch_put_cf", "rocksdb_writeoptions_create",
            "rocksdb_writeoptions_destroy", "rocksdb_writeoptions_set_sync",
        };

        /// <summary>The four that Debian's librocksdb 7.8.3 does not export.</summary>
        public static readonly string[] MissingIn783 =
        {
            "rocksdb_options_set_write_buffer_manager", "rocksdb_write_buffer_manager_create_with_cache",
            "rocksdb_write_buffer_manager_destroy", "rocksdb_write_buffer_manager_memory_usage",
        };

        [DllImport(L)] public static extern IntPtr rocksdb_block_based_options_create();
        [DllImport(L)] public static extern void rocksdb_block_based_options_destroy(IntPtr options);
        [DllImport(L)] public static extern void rocksdb_block_based_options_set_block_cache(IntPtr options, IntPtr block_cache);
        [DllImport(L)] public static extern void rocksdb_block_based_options_set_cache_index_and_filter_blocks(IntPtr block_based_table_options, byte cache_index_and_filter_blocks);
        [DllImport(L)] public static extern void rocksdb_block_based_options_set_filter_policy(IntPtr options, IntPtr filter_policy);
        [DllImport(L)] public static extern void rocksdb_block_based_options_set_pin_l0_filter_and_index_blocks_in_cache(IntPtr block_based_table_options, byte pin_l0_filter_and_index_blocks_in_cache);
        [DllImport(L)] public static extern void rocksdb_block_based_options_set_whole_key_filtering(IntPtr block_based_table_options, byte whole_key_filtering);
        [DllImport(L)] public static extern IntPtr rocksdb_cache_create_lru(UIntPtr capacity);
        [DllImport(L)] public static extern void rocksdb_cache_destroy(IntPtr cache);
        [DllImport(L)] public static extern void rocksdb_checkpoint_create(IntPtr checkpoint, string checkpoint_dir, ulong log_size_for_flush, out IntPtr errptr);
        [DllImport(L)] public static extern IntPtr rocksdb_checkpoint_object_create(IntPtr db, out IntPtr errptr);
        [DllImport(L)] public static extern void rocksdb_checkpoint_object_destroy(IntPtr checkpoint);
        [DllImport(L)] public static extern void rocksdb_close(IntPtr db);
        [DllImport(L)] public static extern void rocksdb_column_family_handle_destroy(IntPtr column_family_handle);
        [DllImport(L)] public static extern void rocksdb_compact_range_cf(IntPtr db, IntPtr column_family, byte[] start_key, UIntPtr start_key_len, byte[] limit_key, UIntPtr limit_key_len);
        [DllImport(L)] public static extern IntPtr rocksdb_create_iterator_cf(IntPtr db, IntPtr options, IntPtr column_family);
        [DllImport(L)] public static extern void rocksdb_delete_cf(IntPtr db, IntPtr options, IntPtr column_family, byte[] key, UIntPtr keylen, out IntPtr errptr);
        [DllImport(L)] public static extern IntPtr rocksdb_filterpolicy_create_bloom_full(double bits_per_key);
        [DllImport(L)] public static extern void rocksdb_free(IntPtr ptr);
        [DllImport(L)] public static extern IntPtr rocksdb_get_cf(IntPtr db, IntPtr options, IntPtr column_family, byte[] key, UIntPtr keylen, out UIntPtr vallen, out IntPtr errptr);
        [DllImport(L)] public static extern IntPtr rocksdb_get_cf(IntPtr db, IntPtr options, IntPtr column_family, byte* key, UIntPtr keylen, out UIntPtr vallen, out IntPtr errptr);
        [DllImport(L)] public static extern void rocksdb_iter_destroy(IntPtr iterator);
        [DllImport(L)] public static extern IntPtr rocksdb_iter_key(IntPtr iterator, out UIntPtr klen);
        [DllImport(L)] public static extern void rocksdb_iter_next(IntPtr iterator);
        [DllImport(L)] public static extern void rocksdb_iter_prev(IntPtr iterator);
        [DllImport(L)] public static extern void rocksdb_iter_seek(IntPtr iterator, byte[] k, UIntPtr klen);
        [DllImport(L)] public static extern void rocksdb_iter_seek(IntPtr iterator, byte* k, UIntPtr klen);
        [DllImport(L)] public static extern void rocksdb_iter_seek_to_first(IntPtr iterator);
        [DllImport(L)] public static extern void rocksdb_iter_seek_to_last(IntPtr iterator);
        [DllImport(L)] public static extern byte rocksdb_iter_valid(IntPtr iterator);
        [DllImport(L)] public static extern IntPtr rocksdb_iter_value(IntPtr iterator, out UIntPtr vlen);
        [DllImport(L)] public static extern void rocksdb_multi_get_cf(IntPtr db, IntPtr options, IntPtr[] column_families, UIntPtr num_keys, IntPtr[] keys_list, UIntPtr[] keys_list_sizes, IntPtr[] values_list, UIntPtr[] values_list_sizes, IntPtr[] errs);
        [DllImport(L)] public static extern IntPtr rocksdb_open_column_families(IntPtr options, IntPtr name, int num_column_families, string[] column_family_names, IntPtr[] column_family_options, IntPtr[] column_family_handles, out IntPtr errptr);
        [DllImport(L)] public static extern IntPtr rocksdb_options_create();
        [DllImport(L)] public static extern void rocksdb_options_destroy(IntPtr options);
        [DllImport(L)] public static extern void rocksdb_options_enable_statistics(IntPtr options);
        [DllImport(L)] public static extern void rocksdb_options_increase_parallelism(IntPtr opt, int total_threads);
        [DllImport(L)] public static extern void rocksdb_options_set_allow_concurrent_memtable_write(IntPtr options, byte allow_concurrent_memtable_write);
        [DllImport(L)] public static extern void rocksdb_options_set_block_based_table_factory(IntPtr opt, IntPtr table_options);
        [DllImport(L)] public static extern void rocksdb_options_set_create_if_missing(IntPtr options, byte create_if_missing);
        [DllImport(L)] public static extern void rocksdb_options_set_create_missing_column_families(IntPtr options, byte create_missing_column_families);
        [DllImport(L)] public static extern void rocksdb_options_set_max_background_compactions(IntPtr options, int max_background_compactions);
        [DllImport(L)] public static extern void rocksdb_options_set_max_background_flushes(IntPtr options, int max_background_flushes);
        [DllImport(L)] public static extern void rocksdb_options_set_max_write_buffer_number(IntPtr options, int max_write_buffer_number);
        [DllImport(L)] public static extern void rocksdb_options_set_min_write_buffer_number_to_merge(IntPtr options, int min_write_buffer_number_to_merge);
        [DllImport(L)] public static extern void rocksdb_options_set_stats_dump_period_sec(IntPtr options, uint stats_dump_period_sec);
        [DllImport(L)] public static extern void rocksdb_options_set_use_direct_reads(IntPtr options, byte use_direct_reads);
        [DllImport(L)] public static extern void rocksdb_options_set_wal_recovery_mode(IntPtr options, Recovery wal_recovery_mode);
        [DllImport(L)] public static extern void rocksdb_options_set_write_buffer_manager(IntPtr opt, IntPtr wbm);
        [DllImport(L)] public static extern void rocksdb_options_set_write_buffer_size(IntPtr options, UIntPtr write_buffer_size);
        [DllImport(L)] public static extern void rocksdb_put_cf(IntPtr db, IntPtr options, IntPtr column_family, byte[] key, UIntPtr keylen, byte[] val, UIntPtr vallen, out IntPtr errptr);
        [DllImport(L)] public static extern void rocksdb_put_cf(IntPtr db, IntPtr options, IntPtr column_family, byte* key, UIntPtr keylen, byte* val, UIntPtr vallen, out IntPtr errptr);
        [DllImport(L)] public static extern IntPtr rocksdb_readoptions_create();
        [DllImport(L)] public static extern void rocksdb_readoptions_destroy(IntPtr readoptions);
        [DllImport(L)] public static extern void rocksdb_readoptions_set_fill_cache(IntPtr readoptions, byte fill_cache);
        [DllImport(L)] public static extern void rocksdb_write(IntPtr db, IntPtr options, IntPtr batch, out IntPtr errptr);
        [DllImport(L)] public static extern IntPtr rocksdb_write_buffer_manager_create_with_cache(UIntPtr buffer_size, IntPtr cache, byte allow_stall);
        [DllImport(L)] public static extern void rocksdb_write_buffer_manager_destroy(IntPtr wbm);
        [DllImport(L)] public static extern UIntPtr rocksdb_write_buffer_manager_memory_usage(IntPtr wbm);
        [DllImport(L)] public static extern IntPtr rocksdb_writebatch_create();
        [DllImport(L)] public static extern void rocksdb_writebatch_delete_cf(IntPtr writebatch, IntPtr column_family, byte[] key, UIntPtr klen);
        [DllImport(L)] public static extern void rocksdb_writebatch_delete_cf(IntPtr writebatch, IntPtr column_family, byte* key, UIntPtr klen);
        [DllImport(L)] public static extern void rocksdb_writebatch_destroy(IntPtr writebatch);
        [DllImport(L)] public static extern void rocksdb_writebatch_put_cf(IntPtr writebatch, IntPtr column_family, byte[] key, UIntPtr klen, byte[] val, UIntPtr vlen);
        [DllImport(L)] public static extern void rocksdb_writebatch_put_cf(IntPtr writebatch, IntPtr column_family, byte* key, UIntPtr klen, byte* val, UIntPtr vlen);
        [DllImport(L)] public static extern IntPtr rocksdb_writeoptions_create();
        [DllImport(L)] public static extern void rocksdb_writeoptions_destroy(IntPtr writeoptions);
        [DllImport(L)] public static extern void rocksdb_writeoptions_set_sync(IntPtr writeoptions, byte sync);
    }
}
