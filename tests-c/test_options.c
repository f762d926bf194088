/* SPDX-License-Identifier: Apache-2.0
 * Option objects: defaults, set/get round trips on rocksdb_options_t (~40 options),
 * readoptions and writeoptions, create_copy independence, copy-at-open and copy-at-set for
 * block-based table options, LRU cache capacity, and a DB opening with everything set. */
#include "common.h"

/* set_X(o, v) then get_X(o) == v. */
#define RT(obj, name, value)                                                              \
  do {                                                                                    \
    rocksdb_options_set_##name((obj), (value));                                           \
    EXPECTF(rocksdb_options_get_##name(obj) == (value), "options %s did not round-trip", #name); \
  } while (0)

#define RT_READ(obj, name, value)                                                         \
  do {                                                                                    \
    rocksdb_readoptions_set_##name((obj), (value));                                       \
    EXPECTF(rocksdb_readoptions_get_##name(obj) == (value), "readoptions %s", #name);     \
  } while (0)

#define RT_WRITE(obj, name, value)                                                        \
  do {                                                                                    \
    rocksdb_writeoptions_set_##name((obj), (value));                                      \
    EXPECTF(rocksdb_writeoptions_get_##name(obj) == (value), "writeoptions %s", #name);   \
  } while (0)

#define EXPECT_DEFAULT(obj, name, value)                                                  \
  EXPECTF(rocksdb_options_get_##name(obj) == (value), "default of %s", #name)

static void defaults(void) {
  /* Defaults that are the same in RocksDB 7.8.3 and 11.x. */
  rocksdb_options_t *o = rocksdb_options_create();
  EXPECT_DEFAULT(o, create_if_missing, 0);
  EXPECT_DEFAULT(o, create_missing_column_families, 0);
  EXPECT_DEFAULT(o, error_if_exists, 0);
  EXPECT_DEFAULT(o, paranoid_checks, 1);
  EXPECT_DEFAULT(o, write_buffer_size, (size_t)64 << 20);
  EXPECT_DEFAULT(o, max_write_buffer_number, 2);
  EXPECT_DEFAULT(o, min_write_buffer_number_to_merge, 1);
  EXPECT_DEFAULT(o, max_open_files, -1);
  EXPECT_DEFAULT(o, num_levels, 7);
  EXPECT_DEFAULT(o, level0_file_num_compaction_trigger, 4);
  EXPECT_DEFAULT(o, wal_recovery_mode, 2); /* kPointInTimeRecovery */
  EXPECT_DEFAULT(o, use_fsync, 0);
  EXPECT_DEFAULT(o, allow_concurrent_memtable_write, 1);
  EXPECT_DEFAULT(o, enable_pipelined_write, 0);
  EXPECT_DEFAULT(o, max_total_wal_size, 0);
  EXPECT_DEFAULT(o, db_write_buffer_size, 0);
  EXPECT_DEFAULT(o, target_file_size_base, (uint64_t)64 << 20);
  EXPECT_DEFAULT(o, max_bytes_for_level_base, (uint64_t)256 << 20);
  EXPECT_DEFAULT(o, max_background_jobs, 2);
  EXPECT_DEFAULT(o, manual_wal_flush, 0);
  EXPECT_DEFAULT(o, atomic_flush, 0);
  EXPECT_DEFAULT(o, disable_auto_compactions, 0);
  EXPECT_DEFAULT(o, compaction_style, 0); /* level */
  EXPECT_DEFAULT(o, use_direct_reads, 0);
  EXPECT_DEFAULT(o, wal_compression, 0);
  rocksdb_options_destroy(o);
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  EXPECT(rocksdb_readoptions_get_verify_checksums(ro) == 1);
  EXPECT(rocksdb_readoptions_get_fill_cache(ro) == 1);
  EXPECT(rocksdb_readoptions_get_tailing(ro) == 0);
  EXPECT(rocksdb_readoptions_get_total_order_seek(ro) == 0);
  EXPECT(rocksdb_readoptions_get_pin_data(ro) == 0);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  EXPECT(rocksdb_writeoptions_get_sync(wo) == 0);
  EXPECT(rocksdb_writeoptions_get_disable_WAL(wo) == 0);
  EXPECT(rocksdb_writeoptions_get_no_slowdown(wo) == 0);
  rocksdb_writeoptions_destroy(wo);
}

static void options_round_trip(void) {
  rocksdb_options_t *o = rocksdb_options_create();
  RT(o, create_if_missing, 1);
  RT(o, create_missing_column_families, 1);
  RT(o, error_if_exists, 1);
  RT(o, paranoid_checks, 0);
  RT(o, write_buffer_size, (size_t)8 << 20);
  RT(o, db_write_buffer_size, (size_t)128 << 20);
  RT(o, max_write_buffer_number, 3);
  RT(o, min_write_buffer_number_to_merge, 2);
  RT(o, max_open_files, 500);
  RT(o, max_total_wal_size, (uint64_t)1 << 30);
  RT(o, num_levels, 5);
  RT(o, level0_file_num_compaction_trigger, 8);
  RT(o, level0_slowdown_writes_trigger, 30);
  RT(o, level0_stop_writes_trigger, 40);
  RT(o, target_file_size_base, (uint64_t)32 << 20);
  RT(o, target_file_size_multiplier, 2);
  RT(o, max_bytes_for_level_base, (uint64_t)512 << 20);
  RT(o, max_bytes_for_level_multiplier, 7.5);
  RT(o, level_compaction_dynamic_level_bytes, 1);
  RT(o, max_background_jobs, 6);
  RT(o, max_background_compactions, 4);
  RT(o, max_background_flushes, 2);
  RT(o, max_subcompactions, 3);
  RT(o, use_fsync, 1);
  RT(o, use_direct_reads, 1);
  RT(o, use_direct_io_for_flush_and_compaction, 1);
  RT(o, allow_concurrent_memtable_write, 0);
  RT(o, enable_pipelined_write, 1);
  RT(o, wal_recovery_mode, 1);
  RT(o, wal_recovery_mode, 3);
  RT(o, wal_recovery_mode, 0);
  RT(o, compression, 0);
  RT(o, compression, 4); /* lz4 */
  RT(o, compaction_style, 1);
  RT(o, disable_auto_compactions, 1);
  RT(o, stats_dump_period_sec, 60u);
  RT(o, bytes_per_sync, (uint64_t)1 << 20);
  RT(o, wal_bytes_per_sync, (uint64_t)512 << 10);
  RT(o, keep_log_file_num, (size_t)10);
  RT(o, max_log_file_size, (size_t)1 << 20);
  RT(o, WAL_ttl_seconds, (uint64_t)3600);
  RT(o, WAL_size_limit_MB, (uint64_t)64);
  RT(o, manual_wal_flush, 1);
  RT(o, atomic_flush, 1);
  RT(o, max_successive_merges, (size_t)5);
  RT(o, arena_block_size, (size_t)1 << 20);
  RT(o, info_log_level, 2);
  RT(o, recycle_log_file_num, (size_t)2);
  RT(o, soft_pending_compaction_bytes_limit, (size_t)1 << 30);
  RT(o, hard_pending_compaction_bytes_limit, (size_t)4 << 30);
  RT(o, max_manifest_file_size, (size_t)64 << 20);
  RT(o, memtable_prefix_bloom_size_ratio, 0.25);
  RT(o, optimize_filters_for_hits, 1);
  RT(o, unordered_write, 1);
  RT(o, wal_compression, 0);
  RT(o, avoid_unnecessary_blocking_io, 1);
  RT(o, delete_obsolete_files_period_micros, (uint64_t)1000000);
  rocksdb_options_destroy(o);
}

static void read_write_options_round_trip(void) {
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  RT_READ(ro, verify_checksums, 0);
  RT_READ(ro, fill_cache, 0);
  RT_READ(ro, tailing, 1);
  RT_READ(ro, total_order_seek, 1);
  RT_READ(ro, pin_data, 1);
  RT_READ(ro, prefix_same_as_start, 1);
  RT_READ(ro, readahead_size, (size_t)2 << 20);
  RT_READ(ro, read_tier, 1);
  RT_READ(ro, ignore_range_deletions, 1);
  RT_READ(ro, background_purge_on_iterator_cleanup, 1);
  RT_READ(ro, max_skippable_internal_keys, (uint64_t)100);
  RT_READ(ro, deadline, (uint64_t)123456);
  RT_READ(ro, io_timeout, (uint64_t)654321);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  RT_WRITE(wo, sync, 1);
  RT_WRITE(wo, no_slowdown, 1);
  RT_WRITE(wo, low_pri, 1);
  RT_WRITE(wo, ignore_missing_column_families, 1);
  RT_WRITE(wo, memtable_insert_hint_per_batch, 1);
  rocksdb_writeoptions_disable_WAL(wo, 1);
  EXPECT(rocksdb_writeoptions_get_disable_WAL(wo) == 1);
  rocksdb_writeoptions_disable_WAL(wo, 0);
  EXPECT(rocksdb_writeoptions_get_disable_WAL(wo) == 0);
  rocksdb_writeoptions_destroy(wo);
}

static void booleans_any_nonzero_is_true(void) {
  /* unsigned char booleans: any non-zero value is true and reads back as 1. */
  rocksdb_options_t *o = rocksdb_options_create();
  rocksdb_options_set_create_if_missing(o, 7);
  EXPECT(rocksdb_options_get_create_if_missing(o) == 1);
  rocksdb_options_set_error_if_exists(o, 255);
  EXPECT(rocksdb_options_get_error_if_exists(o) == 1);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_writeoptions_set_sync(wo, 2);
  EXPECT(rocksdb_writeoptions_get_sync(wo) == 1);
  rocksdb_writeoptions_destroy(wo);
  /* And the value is honoured: create_if_missing=7 creates. */
  const char *path = db_path("db");
  char *err = NULL;
  rocksdb_options_set_error_if_exists(o, 0);
  rocksdb_t *db = rocksdb_open(o, path, &err);
  EXPECT_NO_ERR(err);
  rocksdb_close(db);
  rocksdb_options_destroy(o);
}

static void create_copy_is_independent(void) {
  rocksdb_options_t *o = rocksdb_options_create();
  rocksdb_options_set_write_buffer_size(o, (size_t)4 << 20);
  rocksdb_options_set_create_if_missing(o, 1);
  rocksdb_options_set_max_open_files(o, 77);
  rocksdb_options_t *c = rocksdb_options_create_copy(o);
  EXPECT(c != NULL);
  EXPECT(rocksdb_options_get_write_buffer_size(c) == (size_t)4 << 20);
  EXPECT(rocksdb_options_get_create_if_missing(c) == 1);
  EXPECT(rocksdb_options_get_max_open_files(c) == 77);
  rocksdb_options_set_write_buffer_size(o, (size_t)1 << 20);
  rocksdb_options_set_max_open_files(c, 99);
  EXPECT(rocksdb_options_get_write_buffer_size(c) == (size_t)4 << 20);
  EXPECT(rocksdb_options_get_max_open_files(o) == 77);
  rocksdb_options_destroy(o);
  /* The copy outlives the original. */
  EXPECT(rocksdb_options_get_max_open_files(c) == 99);
  rocksdb_options_destroy(c);
}

static void table_options_copied_at_set(void) {
  rocksdb_cache_t *cache = rocksdb_cache_create_lru((size_t)8 << 20);
  EXPECT(cache != NULL);
  EXPECT(rocksdb_cache_get_capacity(cache) == (size_t)8 << 20);
  rocksdb_cache_set_capacity(cache, (size_t)16 << 20);
  EXPECT(rocksdb_cache_get_capacity(cache) == (size_t)16 << 20);
  EXPECT(rocksdb_cache_get_usage(cache) <= (size_t)16 << 20);
  rocksdb_block_based_table_options_t *t = rocksdb_block_based_options_create();
  rocksdb_block_based_options_set_block_size(t, 16 << 10);
  rocksdb_block_based_options_set_block_cache(t, cache);
  rocksdb_block_based_options_set_filter_policy(t, rocksdb_filterpolicy_create_bloom_full(10));
  rocksdb_block_based_options_set_cache_index_and_filter_blocks(t, 1);
  rocksdb_block_based_options_set_pin_l0_filter_and_index_blocks_in_cache(t, 1);
  rocksdb_block_based_options_set_whole_key_filtering(t, 1);
  rocksdb_block_based_options_set_format_version(t, 5);
  rocksdb_options_t *o = opts_create();
  rocksdb_options_set_block_based_table_factory(o, t);
  /* Copied: the caller's table options, cache and filter can go right away. */
  rocksdb_block_based_options_destroy(t);
  rocksdb_cache_destroy(cache);
  const char *path = db_path("db");
  rocksdb_t *db = open_ok(o, path);
  rocksdb_options_destroy(o);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  put_ok(db, wo, "k", "v");
  EXPECT_GET(db, ro, "k", "v");
  rocksdb_close(db);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
}

static void options_mutated_between_opens(void) {
  /* rocksdb_open copies its options: changing them afterwards has no effect on the open DB
   * but applies to the next open (c_test reuses one options object). */
  const char *p1 = db_path("one");
  const char *p2 = db_path("two");
  rocksdb_options_t *o = opts_create();
  rocksdb_t *db1 = open_ok(o, p1);
  rocksdb_options_set_create_if_missing(o, 0);
  char *err = NULL;
  rocksdb_t *db2 = rocksdb_open(o, p2, &err);
  EXPECT(db2 == NULL);
  EXPECT_ERR_CONTAINS(err, "does not exist");
  rocksdb_options_set_create_if_missing(o, 1);
  db2 = open_ok(o, p2);
  rocksdb_close(db2);
  rocksdb_close(db1);
  rocksdb_options_destroy(o);
}

static void db_opens_with_everything_set(void) {
  rocksdb_options_t *o = opts_create();
  rocksdb_options_increase_parallelism(o, 4);
  rocksdb_options_optimize_level_style_compaction(o, (uint64_t)64 << 20);
  rocksdb_options_set_max_background_flushes(o, 2);
  rocksdb_options_set_max_background_compactions(o, 2);
  rocksdb_options_set_write_buffer_size(o, (size_t)1 << 20);
  rocksdb_options_set_max_write_buffer_number(o, 3);
  rocksdb_options_set_min_write_buffer_number_to_merge(o, 1);
  rocksdb_options_set_wal_recovery_mode(o, rocksdb_absolute_consistency_recovery);
  rocksdb_options_set_allow_concurrent_memtable_write(o, 1);
  rocksdb_options_set_use_direct_reads(o, 1);
  rocksdb_options_enable_statistics(o);
  rocksdb_options_set_stats_dump_period_sec(o, 60);
  rocksdb_options_set_info_log_level(o, 4); /* header-level only */
  rocksdb_options_set_keep_log_file_num(o, 2);
  rocksdb_options_set_max_open_files(o, 100);
  rocksdb_options_set_bytes_per_sync(o, (uint64_t)1 << 20);
  rocksdb_options_set_compression(o, 0);
  const char *path = db_path("db");
  rocksdb_t *db = open_ok(o, path);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  rocksdb_readoptions_set_fill_cache(ro, 0);
  rocksdb_readoptions_set_verify_checksums(ro, 1);
  /* Enough data to pass the 1 MiB write buffer several times. */
  char k[32], v[512];
  memset(v, 'x', sizeof v - 1);
  v[sizeof v - 1] = '\0';
  for (int i = 0; i < 8000; i++) {
    char *err = NULL;
    snprintf(k, sizeof k, "k%06d", i);
    rocksdb_put(db, wo, S(k), S(v), &err);
    SKIP_IF_NOT_IMPLEMENTED(err); /* memtable switches need flush (issue 3) */
    EXPECT_NO_ERR(err);
  }
  EXPECT_GET(db, ro, "k000000", v);
  EXPECT_GET(db, ro, "k007999", v);
  rocksdb_close(db);
  db = open_ok(o, path);
  EXPECT_GET(db, ro, "k004000", v);
  rocksdb_close(db);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
}

static void compaction_option_objects(void) {
  /* Universal compaction options: RocksDB's defaults (CompactionOptionsUniversal), round
   * trips, and copy-at-set onto options. */
  rocksdb_universal_compaction_options_t *u = rocksdb_universal_compaction_options_create();
  EXPECT(u != NULL);
  EXPECT(rocksdb_universal_compaction_options_get_size_ratio(u) == 1);
  EXPECT(rocksdb_universal_compaction_options_get_min_merge_width(u) == 2);
  EXPECT(rocksdb_universal_compaction_options_get_max_merge_width(u) == (int)UINT_MAX);
  EXPECT(rocksdb_universal_compaction_options_get_max_size_amplification_percent(u) == 200);
  EXPECT(rocksdb_universal_compaction_options_get_compression_size_percent(u) == -1);
  EXPECT(rocksdb_universal_compaction_options_get_stop_style(u) ==
         rocksdb_total_size_compaction_stop_style);
  rocksdb_universal_compaction_options_set_size_ratio(u, 5);
  rocksdb_universal_compaction_options_set_min_merge_width(u, 3);
  rocksdb_universal_compaction_options_set_max_merge_width(u, 9);
  rocksdb_universal_compaction_options_set_max_size_amplification_percent(u, 150);
  rocksdb_universal_compaction_options_set_compression_size_percent(u, 60);
  rocksdb_universal_compaction_options_set_stop_style(u, rocksdb_similar_size_compaction_stop_style);
  EXPECT(rocksdb_universal_compaction_options_get_size_ratio(u) == 5);
  EXPECT(rocksdb_universal_compaction_options_get_min_merge_width(u) == 3);
  EXPECT(rocksdb_universal_compaction_options_get_max_merge_width(u) == 9);
  EXPECT(rocksdb_universal_compaction_options_get_max_size_amplification_percent(u) == 150);
  EXPECT(rocksdb_universal_compaction_options_get_compression_size_percent(u) == 60);
  EXPECT(rocksdb_universal_compaction_options_get_stop_style(u) ==
         rocksdb_similar_size_compaction_stop_style);
  rocksdb_options_t *o = opts_create();
  rocksdb_options_set_universal_compaction_options(o, u);
  rocksdb_universal_compaction_options_destroy(u); /* copied at set */
  /* FIFO compaction options. */
  rocksdb_fifo_compaction_options_t *f = rocksdb_fifo_compaction_options_create();
  EXPECT(f != NULL);
  EXPECT(rocksdb_fifo_compaction_options_get_max_table_files_size(f) == (uint64_t)1 << 30);
  rocksdb_fifo_compaction_options_set_max_table_files_size(f, (uint64_t)5 << 20);
  EXPECT(rocksdb_fifo_compaction_options_get_max_table_files_size(f) == (uint64_t)5 << 20);
#ifdef TESTC_HEADER_V11
  EXPECT(rocksdb_fifo_compaction_options_get_allow_compaction(f) == 0);
  EXPECT(rocksdb_fifo_compaction_options_get_max_data_files_size(f) == 0);
  EXPECT(rocksdb_fifo_compaction_options_get_use_kv_ratio_compaction(f) == 0);
  rocksdb_fifo_compaction_options_set_allow_compaction(f, 3);
  rocksdb_fifo_compaction_options_set_max_data_files_size(f, (uint64_t)7 << 20);
  rocksdb_fifo_compaction_options_set_use_kv_ratio_compaction(f, 1);
  EXPECT(rocksdb_fifo_compaction_options_get_allow_compaction(f) == 1);
  EXPECT(rocksdb_fifo_compaction_options_get_max_data_files_size(f) == (uint64_t)7 << 20);
  EXPECT(rocksdb_fifo_compaction_options_get_use_kv_ratio_compaction(f) == 1);
#endif
  rocksdb_options_set_fifo_compaction_options(o, f);
  rocksdb_fifo_compaction_options_destroy(f);
  /* OptimizeUniversalStyleCompaction(budget): a quarter of the budget per memtable, six
   * memtables, two merged per flush, universal style. */
  rocksdb_options_optimize_universal_style_compaction(o, (uint64_t)512 << 20);
  EXPECT(rocksdb_options_get_compaction_style(o) == rocksdb_universal_compaction);
  EXPECT(rocksdb_options_get_write_buffer_size(o) == (size_t)128 << 20);
  EXPECT(rocksdb_options_get_max_write_buffer_number(o) == 6);
  EXPECT(rocksdb_options_get_min_write_buffer_number_to_merge(o) == 2);
  /* A DB opens with these options and keeps data. */
  rocksdb_options_set_compaction_style(o, rocksdb_level_compaction);
  const char *path = db_path("db");
  rocksdb_t *db = open_ok(o, path);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  put_ok(db, wo, "k", "v");
  EXPECT_GET(db, ro, "k", "v");
  rocksdb_close(db);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
}

static void table_and_path_objects(void) {
  /* Cuckoo table options: every setter, copy-at-set onto options (not opened: solistore
   * writes block-based tables only), destroy. */
  rocksdb_cuckoo_table_options_t *c = rocksdb_cuckoo_options_create();
  EXPECT(c != NULL);
  rocksdb_cuckoo_options_set_hash_ratio(c, 0.75);
  rocksdb_cuckoo_options_set_max_search_depth(c, 50);
  rocksdb_cuckoo_options_set_cuckoo_block_size(c, 4);
  rocksdb_cuckoo_options_set_identity_as_first_hash(c, 1);
  rocksdb_cuckoo_options_set_use_module_hash(c, 0);
  rocksdb_options_t *scratch = rocksdb_options_create();
  rocksdb_options_set_cuckoo_table_factory(scratch, c);
  rocksdb_cuckoo_options_destroy(c);
  rocksdb_options_destroy(scratch);
  /* DB paths: created, copied into options by set_db_paths, destroyed right after; a DB
   * opens with them and keeps its data across a reopen. */
  const char *path = db_path("db");
  const char *extra = db_path("extra");
  rocksdb_dbpath_t *dp[2];
  dp[0] = rocksdb_dbpath_create(path, (uint64_t)1 << 30);
  dp[1] = rocksdb_dbpath_create(extra, (uint64_t)1 << 30);
  EXPECT(dp[0] != NULL && dp[1] != NULL);
  rocksdb_options_t *o = opts_create();
  rocksdb_options_set_db_paths(o, (const rocksdb_dbpath_t **)dp, 2);
  rocksdb_dbpath_destroy(dp[0]);
  rocksdb_dbpath_destroy(dp[1]);
  rocksdb_t *db = open_ok(o, path);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  put_ok(db, wo, "k", "v");
  rocksdb_close(db);
  db = open_ok(o, path);
  EXPECT_GET(db, ro, "k", "v");
  rocksdb_close(db);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
}

static void env_thread_pools(void) {
  /* The default env's pool sizes are process-wide: what is set reads back (this phase runs in
   * its own process). */
  rocksdb_env_t *env = rocksdb_create_default_env();
  EXPECT(env != NULL);
  rocksdb_env_set_background_threads(env, 3);
  EXPECT(rocksdb_env_get_background_threads(env) == 3);
  rocksdb_env_set_low_priority_background_threads(env, 4);
  EXPECT(rocksdb_env_get_low_priority_background_threads(env) == 4);
  EXPECT(rocksdb_env_get_background_threads(env) == 4); /* the same LOW pool */
  rocksdb_env_set_high_priority_background_threads(env, 2);
  EXPECT(rocksdb_env_get_high_priority_background_threads(env) == 2);
  rocksdb_env_set_bottom_priority_background_threads(env, 1);
  EXPECT(rocksdb_env_get_bottom_priority_background_threads(env) == 1);
  rocksdb_options_t *o = opts_create();
  rocksdb_options_set_env(o, env);
  const char *path = db_path("db");
  rocksdb_t *db = open_ok(o, path);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  put_ok(db, wo, "k", "v");
  EXPECT_GET(db, ro, "k", "v");
  rocksdb_close(db);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
  rocksdb_env_join_all_threads(env);
  rocksdb_env_destroy(env);
}

/* Writes n keys with 100-byte values, flushes them into a table, then reads them all back. */
static void fill_flush_read(rocksdb_t *db, int n) {
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  char k[32], v[101];
  memset(v, 'v', 100);
  v[100] = '\0';
  for (int i = 0; i < n; i++) {
    snprintf(k, sizeof k, "key%06d", i);
    put_ok(db, wo, k, v);
  }
  flush_ok(db);
  for (int i = 0; i < n; i++) {
    snprintf(k, sizeof k, "key%06d", i);
    EXPECT_GET(db, ro, k, v);
  }
  /* Absent keys, inside and outside the table's key range. */
  EXPECT_GET(db, ro, "key000000x", NULL);
  EXPECT_GET(db, ro, "kez", NULL);
  EXPECT_GET(db, ro, "a", NULL);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
}

static void block_cache_and_no_block_cache(void) {
  /* Reads of a flushed table fill the block cache; with no_block_cache the cache that is
   * also set is ignored and stays empty. LRU options with explicit shard bits. */
  rocksdb_lru_cache_options_t *lo = rocksdb_lru_cache_options_create();
  rocksdb_lru_cache_options_set_capacity(lo, (size_t)4 << 20);
  rocksdb_lru_cache_options_set_num_shard_bits(lo, 2);
  for (int no_cache = 0; no_cache <= 1; no_cache++) {
    rocksdb_cache_t *cache = rocksdb_cache_create_lru_opts(lo);
    EXPECT(cache != NULL);
    EXPECT(rocksdb_cache_get_capacity(cache) == (size_t)4 << 20);
    EXPECT(rocksdb_cache_get_usage(cache) == 0);
    rocksdb_block_based_table_options_t *t = rocksdb_block_based_options_create();
    rocksdb_block_based_options_set_block_cache(t, cache);
    rocksdb_block_based_options_set_no_block_cache(t, (unsigned char)no_cache);
    rocksdb_options_t *o = opts_create();
    rocksdb_options_set_block_based_table_factory(o, t);
    rocksdb_block_based_options_destroy(t);
    const char *path = db_path(no_cache ? "nocache" : "cache");
    rocksdb_t *db = open_ok(o, path);
    fill_flush_read(db, 500);
    size_t usage = rocksdb_cache_get_usage(cache);
    if (no_cache) {
      EXPECTF(usage == 0, "no_block_cache: the ignored cache holds %zu bytes", usage);
    } else {
      EXPECTF(usage > 0, "table reads left the block cache empty");
    }
    rocksdb_close(db);
    rocksdb_options_destroy(o);
    /* disown_data: the cache may leak its entries at exit; it stays usable until destroyed. */
    rocksdb_cache_disown_data(cache);
    EXPECT(rocksdb_cache_get_capacity(cache) == (size_t)4 << 20);
    rocksdb_cache_destroy(cache);
  }
  rocksdb_lru_cache_options_destroy(lo);
}

static void gets_honour_fill_cache_and_ignore_range_deletions(void) {
  /* Get with fill_cache off reads a table without putting its data blocks in the block
   * cache; with it on they go in. Get with ignore_range_deletions sees values a range
   * deletion in the memtable covers. (Once flushed, what it sees is up to the engine: a
   * RocksDB flush drops the covered values, solistore's keeps them until compaction.) */
  const char *path = db_path("readopts");
  char v[101];
  memset(v, 'v', 100);
  v[100] = '\0';
  rocksdb_readoptions_t *nofill = rocksdb_readoptions_create();
  rocksdb_readoptions_set_fill_cache(nofill, 0);
  rocksdb_readoptions_t *fill = rocksdb_readoptions_create();
  for (int round = 0; round < 2; round++) {
    rocksdb_cache_t *cache = rocksdb_cache_create_lru((size_t)4 << 20);
    rocksdb_block_based_table_options_t *t = rocksdb_block_based_options_create();
    rocksdb_block_based_options_set_block_cache(t, cache);
    rocksdb_options_t *o = opts_create();
    rocksdb_options_set_block_based_table_factory(o, t);
    rocksdb_block_based_options_destroy(t);
    rocksdb_t *db = open_ok(o, path);
    if (round == 0) {
      fill_flush_read(db, 500); /* the table, then a reopen with an empty cache */
    } else {
      size_t before = rocksdb_cache_get_usage(cache);
      char k[32];
      for (int i = 0; i < 500; i += 7) {
        snprintf(k, sizeof k, "key%06d", i);
        EXPECT_GET(db, nofill, k, v);
      }
      size_t after_nofill = rocksdb_cache_get_usage(cache);
      EXPECTF(after_nofill == before, "fill_cache off: cache usage %zu -> %zu", before,
              after_nofill);
      for (int i = 0; i < 500; i += 7) {
        snprintf(k, sizeof k, "key%06d", i);
        EXPECT_GET(db, fill, k, v);
      }
      size_t after_fill = rocksdb_cache_get_usage(cache);
      EXPECTF(after_fill > after_nofill, "fill_cache on: cache usage stayed %zu", after_fill);
    }
    rocksdb_close(db);
    rocksdb_options_destroy(o);
    rocksdb_cache_destroy(cache);
  }
  rocksdb_readoptions_t *ignore = rocksdb_readoptions_create();
  rocksdb_readoptions_set_ignore_range_deletions(ignore, 1);
  rocksdb_options_t *o = opts_create();
  rocksdb_t *db = open_ok(o, db_path("rangedel"));
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  put_ok(db, wo, "a", "1");
  put_ok(db, wo, "b", "2");
  put_ok(db, wo, "c", "3");
  for (int flushed = 0; flushed < 2; flushed++) {
    if (flushed) {
      flush_ok(db);
    } else {
      rocksdb_writebatch_t *b = rocksdb_writebatch_create();
      rocksdb_writebatch_delete_range(b, S("b"), S("c"));
      char *err = NULL;
      rocksdb_write(db, wo, b, &err);
      EXPECT_NO_ERR(err);
      rocksdb_writebatch_destroy(b);
    }
    EXPECT_GET(db, fill, "b", NULL);
    if (!flushed) {
      EXPECT_GET(db, ignore, "b", "2");
    }
    EXPECT_GET(db, ignore, "a", "1");
    EXPECT_GET(db, fill, "c", "3");
  }
  rocksdb_close(db);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
  rocksdb_readoptions_destroy(ignore);
  rocksdb_readoptions_destroy(fill);
  rocksdb_readoptions_destroy(nofill);
}

static void hyper_clock_caches(void) {
  REQUIRE_V11_HEADER("rocksdb_cache_create_hyper_clock and its options");
#ifdef TESTC_HEADER_V11
  rocksdb_cache_t *c1 = rocksdb_cache_create_hyper_clock((size_t)2 << 20, 4096);
  EXPECT(c1 != NULL);
  EXPECT(rocksdb_cache_get_capacity(c1) == (size_t)2 << 20);
  EXPECT(rocksdb_cache_get_usage(c1) == 0);
  EXPECT(rocksdb_cache_get_table_address_count(c1) > 0);
  rocksdb_hyper_clock_cache_options_t *ho =
      rocksdb_hyper_clock_cache_options_create((size_t)1 << 20, 4096);
  rocksdb_hyper_clock_cache_options_set_capacity(ho, (size_t)3 << 20);
  rocksdb_hyper_clock_cache_options_set_num_shard_bits(ho, 1);
  rocksdb_cache_t *c2 = rocksdb_cache_create_hyper_clock_opts(ho);
  rocksdb_hyper_clock_cache_options_destroy(ho);
  EXPECT(c2 != NULL);
  EXPECT(rocksdb_cache_get_capacity(c2) == (size_t)3 << 20);
  /* Used as a block cache, it fills with table reads. */
  rocksdb_block_based_table_options_t *t = rocksdb_block_based_options_create();
  rocksdb_block_based_options_set_block_cache(t, c2);
  rocksdb_options_t *o = opts_create();
  rocksdb_options_set_block_based_table_factory(o, t);
  rocksdb_block_based_options_destroy(t);
  rocksdb_t *db = open_ok(o, db_path("db"));
  fill_flush_read(db, 300);
  EXPECT(rocksdb_cache_get_usage(c2) > 0);
  EXPECT(rocksdb_cache_get_occupancy_count(c2) > 0);
  EXPECT(rocksdb_cache_get_table_address_count(c2) >= rocksdb_cache_get_occupancy_count(c2));
  rocksdb_close(db);
  rocksdb_options_destroy(o);
  rocksdb_cache_destroy(c2);
  rocksdb_cache_destroy(c1);
#endif
}

static void filter_policies(void) {
  /* Each filter policy constructor gives tables that answer present and absent keys
   * correctly (the filter must never hide a present key). Ownership of the policy moves to
   * the table options at set. */
  for (int kind = 0; kind < 4; kind++) {
    rocksdb_filterpolicy_t *fp =
        kind == 0   ? rocksdb_filterpolicy_create_bloom(10)
        : kind == 1 ? rocksdb_filterpolicy_create_bloom_full(10)
        : kind == 2 ? rocksdb_filterpolicy_create_ribbon(9.9)
                    : rocksdb_filterpolicy_create_ribbon_hybrid(9.9, 1);
    EXPECT(fp != NULL);
    rocksdb_block_based_table_options_t *t = rocksdb_block_based_options_create();
    rocksdb_block_based_options_set_filter_policy(t, fp);
    rocksdb_block_based_options_set_whole_key_filtering(t, 1);
    rocksdb_options_t *o = opts_create();
    rocksdb_options_set_block_based_table_factory(o, t);
    rocksdb_block_based_options_destroy(t);
    char tag[16];
    snprintf(tag, sizeof tag, "fp%d", kind);
    rocksdb_t *db = open_ok(o, db_path(tag));
    fill_flush_read(db, 1000);
    rocksdb_close(db);
    rocksdb_options_destroy(o);
  }
  /* A policy never set is the caller's to destroy. */
  rocksdb_filterpolicy_destroy(rocksdb_filterpolicy_create_ribbon(10));
}

static void write_buffer_manager_objects(void) {
  REQUIRE_V11_HEADER("rocksdb_write_buffer_manager_*");
#ifdef TESTC_HEADER_V11
  rocksdb_write_buffer_manager_t *w = rocksdb_write_buffer_manager_create((size_t)64 << 20, 0);
  EXPECT(w != NULL);
  EXPECT(rocksdb_write_buffer_manager_enabled(w));
  EXPECT(rocksdb_write_buffer_manager_buffer_size(w) == (size_t)64 << 20);
  EXPECT(!rocksdb_write_buffer_manager_cost_to_cache(w));
  rocksdb_write_buffer_manager_set_buffer_size(w, (size_t)32 << 20);
  EXPECT(rocksdb_write_buffer_manager_buffer_size(w) == (size_t)32 << 20);
  size_t before = rocksdb_write_buffer_manager_memory_usage(w);
  rocksdb_options_t *o = opts_create();
  rocksdb_options_set_write_buffer_manager(o, w);
  rocksdb_t *db = open_ok(o, db_path("db"));
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  char k[32], v[1001];
  memset(v, 'w', 1000);
  v[1000] = '\0';
  for (int i = 0; i < 200; i++) {
    snprintf(k, sizeof k, "k%04d", i);
    put_ok(db, wo, k, v);
  }
  size_t after = rocksdb_write_buffer_manager_memory_usage(w);
  EXPECTF(after >= before + 200 * 1000, "memtable usage %zu -> %zu after 200 KB", before, after);
  rocksdb_close(db);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
  rocksdb_write_buffer_manager_destroy(w);
  /* Budget 0: accounting only, not enabled. */
  w = rocksdb_write_buffer_manager_create(0, 1);
  EXPECT(!rocksdb_write_buffer_manager_enabled(w));
  rocksdb_write_buffer_manager_destroy(w);
#endif
}

static void destroy_accepts_null(void) {
  /* c.h convention used by bindings' finalizers: destroying NULL is harmless. RocksDB 7.8.3
   * does `delete NULL` for these, which is fine; solistore promises it for every destroy. */
  rocksdb_options_destroy(NULL);
  rocksdb_readoptions_destroy(NULL);
  rocksdb_writeoptions_destroy(NULL);
  rocksdb_writebatch_destroy(NULL);
  rocksdb_block_based_options_destroy(NULL);
  rocksdb_pinnableslice_destroy(NULL);
  rocksdb_free(NULL);
}

TESTC_MAIN("test_options", P(defaults), P(options_round_trip), P(read_write_options_round_trip),
           P(booleans_any_nonzero_is_true), P(create_copy_is_independent),
           P(table_options_copied_at_set), P(options_mutated_between_opens),
           P(db_opens_with_everything_set), P(compaction_option_objects),
           P(table_and_path_objects), P(env_thread_pools), P(block_cache_and_no_block_cache),
           P(gets_honour_fill_cache_and_ignore_range_deletions),
           P(hyper_clock_caches), P(filter_policies), P(write_buffer_manager_objects),
           P(destroy_accepts_null))
