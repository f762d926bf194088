// SPDX-License-Identifier: Apache-2.0
// Solistore.Native: the raw layer. [DllImport] declarations of the RocksDB C API functions the
// idiomatic layer calls, named exactly as in include/rocksdb/c.h, with the marshalling shapes
// RocksDbSharp 11.1.2 uses for the same functions:
//   - unsigned char and bool parameters and results are `byte` (never a 4-byte BOOL);
//   - size_t is `UIntPtr`, and size_t* outputs are `out UIntPtr`;
//   - char** errptr is `out IntPtr`: it arrives zeroed and the library writes it only on error;
//     a non-zero value is a malloc'd C string for rocksdb_free (Errors.Check does both);
//   - handles are `IntPtr`; keys and values are `byte[]` (pinned by the marshaller) or `byte*`
//     (pinned by the caller, for spans), each with its length;
//   - arrays of pointers or sizes are `IntPtr[]`/`UIntPtr[]`: blittable, so the marshaller pins
//     them and the library fills output arrays (CF handles, multi_get values) in place;
//   - column family names are `string[]`, C strings such as property names and checkpoint
//     directories are `string` (UTF-8 on Linux), and database paths are UTF-8 buffers (`IntPtr`).
// Library: "solistore", i.e. libsolistore.so found through the platform's search (under Mono
// LD_LIBRARY_PATH or a dllmap; README.md). The same declarations run on a real librocksdb.
using System;
using System.Runtime.InteropServices;

namespace Solistore
{
    public static unsafe class Native
    {
        public const string Library = "solistore";

        [DllImport(Library)] public static extern void rocksdb_free(IntPtr ptr);

        // ------------------------------------------------------------ open, close, CFs
        [DllImport(Library)] public static extern IntPtr rocksdb_open(IntPtr options, IntPtr name, out IntPtr errptr);
        [DllImport(Library)] public static extern IntPtr rocksdb_open_column_families(IntPtr options, IntPtr name, int num_column_families, string[] column_family_names, IntPtr[] column_family_options, IntPtr[] column_family_handles, out IntPtr errptr);
        [DllImport(Library)] public static extern void rocksdb_close(IntPtr db);
        [DllImport(Library)] public static extern void rocksdb_destroy_db(IntPtr options, IntPtr name, out IntPtr errptr);
        [DllImport(Library)] public static extern IntPtr rocksdb_list_column_families(IntPtr options, IntPtr name, out UIntPtr lencf, out IntPtr errptr);
        [DllImport(Library)] public static extern void rocksdb_list_column_families_destroy(IntPtr list, UIntPtr len);
        [DllImport(Library)] public static extern IntPtr rocksdb_create_column_family(IntPtr db, IntPtr column_family_options, string column_family_name, out IntPtr errptr);
        [DllImport(Library)] public static extern void rocksdb_drop_column_family(IntPtr db, IntPtr handle, out IntPtr errptr);
        [DllImport(Library)] public static extern void rocksdb_column_family_handle_destroy(IntPtr column_family_handle);

        // ------------------------------------------------------------ reads and writes
        [DllImport(Library)] public static extern void rocksdb_put(IntPtr db, IntPtr options, byte[] key, UIntPtr keylen, byte[] val, UIntPtr vallen, out IntPtr errptr);
        [DllImport(Library)] public static extern void rocksdb_put(IntPtr db, IntPtr options, byte* key, UIntPtr keylen, byte* val, UIntPtr vallen, out IntPtr errptr);
        [DllImport(Library)] public static extern void rocksdb_put_cf(IntPtr db, IntPtr options, IntPtr column_family, byte[] key, UIntPtr keylen, byte[] val, UIntPtr vallen, out IntPtr errptr);
        [DllImport(Library)] public static extern void rocksdb_put_cf(IntPtr db, IntPtr options, IntPtr column_family, byte* key, UIntPtr keylen, byte* val, UIntPtr vallen, out IntPtr errptr);
        [DllImport(Library)] public static extern IntPtr rocksdb_get(IntPtr db, IntPtr options, byte[] key, UIntPtr keylen, out UIntPtr vallen, out IntPtr errptr);
        [DllImport(Library)] public static extern IntPtr rocksdb_get(IntPtr db, IntPtr options, byte* key, UIntPtr keylen, out UIntPtr vallen, out IntPtr errptr);
        [DllImport(Library)] public static extern IntPtr rocksdb_get_cf(IntPtr db, IntPtr options, IntPtr column_family, byte[] key, UIntPtr keylen, out UIntPtr vallen, out IntPtr errptr);
        [DllImport(Library)] public static extern IntPtr rocksdb_get_cf(IntPtr db, IntPtr options, IntPtr column_family, byte* key, UIntPtr keylen, out UIntPtr vallen, out IntPtr errptr);
        [DllImport(Library)] public static extern void rocksdb_delete(IntPtr db, IntPtr options, byte[] key, UIntPtr keylen, out IntPtr errptr);
        [DllImport(Library)] public static extern void rocksdb_delete(IntPtr db, IntPtr options, byte* key, UIntPtr keylen, out IntPtr errptr);
        [DllImport(Library)] public static extern void rocksdb_delete_cf(IntPtr db, IntPtr options, IntPtr column_family, byte[] key, UIntPtr keylen, out IntPtr errptr);
        [DllImport(Library)] public static extern void rocksdb_delete_cf(IntPtr db, IntPtr options, IntPtr column_family, byte* key, UIntPtr keylen, out IntPtr errptr);
        [DllImport(Library)] public static extern void rocksdb_delete_range_cf(IntPtr db, IntPtr options, IntPtr column_family, byte[] start_key, UIntPtr start_key_len, byte[] end_key, UIntPtr end_key_len, out IntPtr errptr);
        [DllImport(Library)] public static extern void rocksdb_write(IntPtr db, IntPtr options, IntPtr batch, out IntPtr errptr);
        [DllImport(Library)] public static extern void rocksdb_multi_get(IntPtr db, IntPtr options, UIntPtr num_keys, IntPtr[] keys_list, UIntPtr[] keys_list_sizes, IntPtr[] values_list, UIntPtr[] values_list_sizes, IntPtr[] errs);
        [DllImport(Library)] public static extern void rocksdb_multi_get_cf(IntPtr db, IntPtr options, IntPtr[] column_families, UIntPtr num_keys, IntPtr[] keys_list, UIntPtr[] keys_list_sizes, IntPtr[] values_list, UIntPtr[] values_list_sizes, IntPtr[] errs);

        // ------------------------------------------------------------ iterators, snapshots
        [DllImport(Library)] public static extern IntPtr rocksdb_create_iterator(IntPtr db, IntPtr options);
        [DllImport(Library)] public static extern IntPtr rocksdb_create_iterator_cf(IntPtr db, IntPtr options, IntPtr column_family);
        [DllImport(Library)] public static extern void rocksdb_iter_destroy(IntPtr iterator);
        [DllImport(Library)] public static extern byte rocksdb_iter_valid(IntPtr iterator);
        [DllImport(Library)] public static extern void rocksdb_iter_seek_to_first(IntPtr iterator);
        [DllImport(Library)] public static extern void rocksdb_iter_seek_to_last(IntPtr iterator);
        [DllImport(Library)] public static extern void rocksdb_iter_seek(IntPtr iterator, byte[] k, UIntPtr klen);
        [DllImport(Library)] public static extern void rocksdb_iter_seek(IntPtr iterator, byte* k, UIntPtr klen);
        [DllImport(Library)] public static extern void rocksdb_iter_seek_for_prev(IntPtr iterator, byte[] k, UIntPtr klen);
        [DllImport(Library)] public static extern void rocksdb_iter_seek_for_prev(IntPtr iterator, byte* k, UIntPtr klen);
        [DllImport(Library)] public static extern void rocksdb_iter_next(IntPtr iterator);
        [DllImport(Library)] public static extern void rocksdb_iter_prev(IntPtr iterator);
        [DllImport(Library)] public static extern IntPtr rocksdb_iter_key(IntPtr iterator, out UIntPtr klen);
        [DllImport(Library)] public static extern IntPtr rocksdb_iter_value(IntPtr iterator, out UIntPtr vlen);
        [DllImport(Library)] public static extern void rocksdb_iter_get_error(IntPtr iterator, out IntPtr errptr);
        [DllImport(Library)] public static extern IntPtr rocksdb_create_snapshot(IntPtr db);
        [DllImport(Library)] public static extern void rocksdb_release_snapshot(IntPtr db, IntPtr snapshot);

        // ------------------------------------------------------------ maintenance
        [DllImport(Library)] public static extern IntPtr rocksdb_flushoptions_create();
        [DllImport(Library)] public static extern void rocksdb_flushoptions_destroy(IntPtr options);
        [DllImport(Library)] public static extern void rocksdb_flushoptions_set_wait(IntPtr options, byte wait);
        [DllImport(Library)] public static extern void rocksdb_flush(IntPtr db, IntPtr options, out IntPtr errptr);
        [DllImport(Library)] public static extern void rocksdb_flush_cf(IntPtr db, IntPtr options, IntPtr column_family, out IntPtr errptr);
        [DllImport(Library)] public static extern void rocksdb_compact_range(IntPtr db, byte[] start_key, UIntPtr start_key_len, byte[] limit_key, UIntPtr limit_key_len);
        [DllImport(Library)] public static extern void rocksdb_compact_range_cf(IntPtr db, IntPtr column_family, byte[] start_key, UIntPtr start_key_len, byte[] limit_key, UIntPtr limit_key_len);
        [DllImport(Library)] public static extern IntPtr rocksdb_property_value(IntPtr db, string propname);
        [DllImport(Library)] public static extern IntPtr rocksdb_property_value_cf(IntPtr db, IntPtr column_family, string propname);
        [DllImport(Library)] public static extern IntPtr rocksdb_checkpoint_object_create(IntPtr db, out IntPtr errptr);
        [DllImport(Library)] public static extern void rocksdb_checkpoint_create(IntPtr checkpoint, string checkpoint_dir, ulong log_size_for_flush, out IntPtr errptr);
        [DllImport(Library)] public static extern void rocksdb_checkpoint_object_destroy(IntPtr checkpoint);

        // ------------------------------------------------------------ options
        [DllImport(Library)] public static extern IntPtr rocksdb_options_create();
        [DllImport(Library)] public static extern void rocksdb_options_destroy(IntPtr options);
        [DllImport(Library)] public static extern void rocksdb_options_set_create_if_missing(IntPtr options, byte value);
        [DllImport(Library)] public static extern void rocksdb_options_set_create_missing_column_families(IntPtr options, byte value);
        [DllImport(Library)] public static extern void rocksdb_options_set_error_if_exists(IntPtr options, byte value);
        [DllImport(Library)] public static extern void rocksdb_options_set_paranoid_checks(IntPtr options, byte value);
        [DllImport(Library)] public static extern void rocksdb_options_set_write_buffer_size(IntPtr options, UIntPtr value);
        [DllImport(Library)] public static extern void rocksdb_options_set_max_write_buffer_number(IntPtr options, int value);
        [DllImport(Library)] public static extern void rocksdb_options_set_min_write_buffer_number_to_merge(IntPtr options, int value);
        [DllImport(Library)] public static extern void rocksdb_options_set_wal_recovery_mode(IntPtr options, int value);
        [DllImport(Library)] public static extern void rocksdb_options_set_allow_concurrent_memtable_write(IntPtr options, byte value);
        [DllImport(Library)] public static extern void rocksdb_options_increase_parallelism(IntPtr options, int total_threads);
        [DllImport(Library)] public static extern void rocksdb_options_set_max_background_flushes(IntPtr options, int value);
        [DllImport(Library)] public static extern void rocksdb_options_set_max_background_compactions(IntPtr options, int value);
        [DllImport(Library)] public static extern void rocksdb_options_set_use_direct_reads(IntPtr options, byte value);
        [DllImport(Library)] public static extern void rocksdb_options_enable_statistics(IntPtr options);
        [DllImport(Library)] public static extern void rocksdb_options_set_stats_dump_period_sec(IntPtr options, uint value);
        [DllImport(Library)] public static extern void rocksdb_options_set_compression(IntPtr options, int value);
        [DllImport(Library)] public static extern void rocksdb_options_set_block_based_table_factory(IntPtr options, IntPtr table_options);
        [DllImport(Library)] public static extern void rocksdb_options_set_write_buffer_manager(IntPtr options, IntPtr wbm);

        [DllImport(Library)] public static extern IntPtr rocksdb_block_based_options_create();
        [DllImport(Library)] public static extern void rocksdb_block_based_options_destroy(IntPtr options);
        [DllImport(Library)] public static extern void rocksdb_block_based_options_set_block_cache(IntPtr options, IntPtr block_cache);
        [DllImport(Library)] public static extern void rocksdb_block_based_options_set_block_size(IntPtr options, UIntPtr block_size);
        [DllImport(Library)] public static extern void rocksdb_block_based_options_set_filter_policy(IntPtr options, IntPtr filter_policy);
        [DllImport(Library)] public static extern void rocksdb_block_based_options_set_cache_index_and_filter_blocks(IntPtr options, byte value);
        [DllImport(Library)] public static extern void rocksdb_block_based_options_set_pin_l0_filter_and_index_blocks_in_cache(IntPtr options, byte value);
        [DllImport(Library)] public static extern void rocksdb_block_based_options_set_whole_key_filtering(IntPtr options, byte value);
        [DllImport(Library)] public static extern IntPtr rocksdb_filterpolicy_create_bloom_full(double bits_per_key);

        [DllImport(Library)] public static extern IntPtr rocksdb_readoptions_create();
        [DllImport(Library)] public static extern void rocksdb_readoptions_destroy(IntPtr options);
        [DllImport(Library)] public static extern void rocksdb_readoptions_set_fill_cache(IntPtr options, byte value);
        [DllImport(Library)] public static extern void rocksdb_readoptions_set_verify_checksums(IntPtr options, byte value);
        [DllImport(Library)] public static extern void rocksdb_readoptions_set_snapshot(IntPtr options, IntPtr snapshot);
        [DllImport(Library)] public static extern void rocksdb_readoptions_set_iterate_upper_bound(IntPtr options, IntPtr key, UIntPtr keylen);
        [DllImport(Library)] public static extern void rocksdb_readoptions_set_iterate_lower_bound(IntPtr options, IntPtr key, UIntPtr keylen);

        [DllImport(Library)] public static extern IntPtr rocksdb_writeoptions_create();
        [DllImport(Library)] public static extern void rocksdb_writeoptions_destroy(IntPtr options);
        [DllImport(Library)] public static extern void rocksdb_writeoptions_set_sync(IntPtr options, byte value);
        [DllImport(Library)] public static extern void rocksdb_writeoptions_disable_WAL(IntPtr options, int disable);

        // ------------------------------------------------------------ write batches
        [DllImport(Library)] public static extern IntPtr rocksdb_writebatch_create();
        [DllImport(Library)] public static extern void rocksdb_writebatch_destroy(IntPtr batch);
        [DllImport(Library)] public static extern void rocksdb_writebatch_clear(IntPtr batch);
        [DllImport(Library)] public static extern int rocksdb_writebatch_count(IntPtr batch);
        [DllImport(Library)] public static extern void rocksdb_writebatch_put(IntPtr batch, byte[] key, UIntPtr klen, byte[] val, UIntPtr vlen);
        [DllImport(Library)] public static extern void rocksdb_writebatch_put(IntPtr batch, byte* key, UIntPtr klen, byte* val, UIntPtr vlen);
        [DllImport(Library)] public static extern void rocksdb_writebatch_put_cf(IntPtr batch, IntPtr column_family, byte[] key, UIntPtr klen, byte[] val, UIntPtr vlen);
        [DllImport(Library)] public static extern void rocksdb_writebatch_put_cf(IntPtr batch, IntPtr column_family, byte* key, UIntPtr klen, byte* val, UIntPtr vlen);
        [DllImport(Library)] public static extern void rocksdb_writebatch_delete(IntPtr batch, byte[] key, UIntPtr klen);
        [DllImport(Library)] public static extern void rocksdb_writebatch_delete(IntPtr batch, byte* key, UIntPtr klen);
        [DllImport(Library)] public static extern void rocksdb_writebatch_delete_cf(IntPtr batch, IntPtr column_family, byte[] key, UIntPtr klen);
        [DllImport(Library)] public static extern void rocksdb_writebatch_delete_cf(IntPtr batch, IntPtr column_family, byte* key, UIntPtr klen);

        // ------------------------------------------------------------ cache, write buffer manager
        [DllImport(Library)] public static extern IntPtr rocksdb_cache_create_lru(UIntPtr capacity);
        [DllImport(Library)] public static extern void rocksdb_cache_destroy(IntPtr cache);
        [DllImport(Library)] public static extern UIntPtr rocksdb_cache_get_usage(IntPtr cache);
        [DllImport(Library)] public static extern UIntPtr rocksdb_cache_get_capacity(IntPtr cache);
        [DllImport(Library)] public static extern IntPtr rocksdb_write_buffer_manager_create_with_cache(UIntPtr buffer_size, IntPtr cache, byte allow_stall);
        [DllImport(Library)] public static extern void rocksdb_write_buffer_manager_destroy(IntPtr wbm);
        [DllImport(Library)] public static extern UIntPtr rocksdb_write_buffer_manager_memory_usage(IntPtr wbm);
    }
}
