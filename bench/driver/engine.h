/* SPDX-License-Identifier: Apache-2.0
 * The engine under test: a librocksdb-compatible shared library (libsolistore.so, or any
 * librocksdb.so) loaded at run time with dlopen(path), its C API functions resolved with dlsym
 * into one table (`E`), and the open/close helpers every workload shares.
 *
 * Only functions whose prototypes are the same in RocksDB 7.8.3 and 11.1.2 are used, so one
 * binary drives Debian's librocksdb.so.7.8 and libsolistore.so alike. Nothing here includes a
 * RocksDB header: the handle types are opaque and the prototypes are declared below. */
#ifndef BENCH_ENGINE_H
#define BENCH_ENGINE_H

#include <stddef.h>
#include <stdint.h>

typedef struct rocksdb_t rocksdb_t;
typedef struct rocksdb_options_t rocksdb_options_t;
typedef struct rocksdb_block_based_table_options_t rocksdb_block_based_table_options_t;
typedef struct rocksdb_cache_t rocksdb_cache_t;
typedef struct rocksdb_filterpolicy_t rocksdb_filterpolicy_t;
typedef struct rocksdb_writeoptions_t rocksdb_writeoptions_t;
typedef struct rocksdb_readoptions_t rocksdb_readoptions_t;
typedef struct rocksdb_flushoptions_t rocksdb_flushoptions_t;
typedef struct rocksdb_writebatch_t rocksdb_writebatch_t;
typedef struct rocksdb_iterator_t rocksdb_iterator_t;
typedef struct rocksdb_column_family_handle_t rocksdb_column_family_handle_t;
typedef struct rocksdb_checkpoint_t rocksdb_checkpoint_t;
typedef struct rocksdb_pinnableslice_t rocksdb_pinnableslice_t;

/* X(return type, name without the rocksdb_ prefix, parameter list) */
#define BENCH_ENGINE_FUNCTIONS(X)                                                                  \
    X(void, free, (void *))                                                                        \
    X(rocksdb_options_t *, options_create, (void))                                                 \
    X(void, options_destroy, (rocksdb_options_t *))                                                \
    X(void, options_set_create_if_missing, (rocksdb_options_t *, unsigned char))                   \
    X(void, options_set_create_missing_column_families, (rocksdb_options_t *, unsigned char))      \
    X(void, options_set_compression, (rocksdb_options_t *, int))                                   \
    X(void, options_increase_parallelism, (rocksdb_options_t *, int))                              \
    X(void, options_set_write_buffer_size, (rocksdb_options_t *, size_t))                          \
    X(void, options_set_max_write_buffer_number, (rocksdb_options_t *, int))                       \
    X(void, options_set_min_write_buffer_number_to_merge, (rocksdb_options_t *, int))              \
    X(void, options_set_block_based_table_factory,                                                 \
      (rocksdb_options_t *, rocksdb_block_based_table_options_t *))                                \
    X(void, options_set_wal_recovery_mode, (rocksdb_options_t *, int))                             \
    X(void, options_set_allow_concurrent_memtable_write, (rocksdb_options_t *, unsigned char))     \
    X(void, options_set_use_direct_reads, (rocksdb_options_t *, unsigned char))                    \
    X(void, options_set_max_background_flushes, (rocksdb_options_t *, int))                        \
    X(void, options_set_max_background_compactions, (rocksdb_options_t *, int))                    \
    X(rocksdb_block_based_table_options_t *, block_based_options_create, (void))                   \
    X(void, block_based_options_destroy, (rocksdb_block_based_table_options_t *))                  \
    X(void, block_based_options_set_block_cache,                                                   \
      (rocksdb_block_based_table_options_t *, rocksdb_cache_t *))                                  \
    X(void, block_based_options_set_filter_policy,                                                 \
      (rocksdb_block_based_table_options_t *, rocksdb_filterpolicy_t *))                           \
    X(void, block_based_options_set_data_block_index_type,                                         \
      (rocksdb_block_based_table_options_t *, int))                                                \
    X(void, block_based_options_set_cache_index_and_filter_blocks,                                 \
      (rocksdb_block_based_table_options_t *, unsigned char))                                      \
    X(void, block_based_options_set_pin_l0_filter_and_index_blocks_in_cache,                       \
      (rocksdb_block_based_table_options_t *, unsigned char))                                      \
    X(void, block_based_options_set_whole_key_filtering,                                           \
      (rocksdb_block_based_table_options_t *, unsigned char))                                      \
    X(rocksdb_filterpolicy_t *, filterpolicy_create_bloom_full, (double))                          \
    X(rocksdb_cache_t *, cache_create_lru, (size_t))                                               \
    X(void, cache_destroy, (rocksdb_cache_t *))                                                    \
    X(rocksdb_t *, open, (const rocksdb_options_t *, const char *, char **))                       \
    X(rocksdb_t *, open_column_families,                                                           \
      (const rocksdb_options_t *, const char *, int, const char *const *,                          \
       const rocksdb_options_t *const *, rocksdb_column_family_handle_t **, char **))              \
    X(void, close, (rocksdb_t *))                                                                  \
    X(void, column_family_handle_destroy, (rocksdb_column_family_handle_t *))                      \
    X(void, put,                                                                                   \
      (rocksdb_t *, const rocksdb_writeoptions_t *, const char *, size_t, const char *, size_t,    \
       char **))                                                                                   \
    X(void, put_cf,                                                                                \
      (rocksdb_t *, const rocksdb_writeoptions_t *, rocksdb_column_family_handle_t *,              \
       const char *, size_t, const char *, size_t, char **))                                       \
    X(void, delete, (rocksdb_t *, const rocksdb_writeoptions_t *, const char *, size_t, char **))  \
    X(void, write, (rocksdb_t *, const rocksdb_writeoptions_t *, rocksdb_writebatch_t *, char **)) \
    X(char *, get,                                                                                 \
      (rocksdb_t *, const rocksdb_readoptions_t *, const char *, size_t, size_t *, char **))       \
    X(char *, get_cf,                                                                              \
      (rocksdb_t *, const rocksdb_readoptions_t *, rocksdb_column_family_handle_t *,               \
       const char *, size_t, size_t *, char **))                                                   \
    X(void, multi_get,                                                                             \
      (rocksdb_t *, const rocksdb_readoptions_t *, size_t, const char *const *, const size_t *,    \
       char **, size_t *, char **))                                                                \
    X(void, batched_multi_get_cf,                                                                  \
      (rocksdb_t *, const rocksdb_readoptions_t *, rocksdb_column_family_handle_t *, size_t,       \
       const char *const *, const size_t *, rocksdb_pinnableslice_t **, char **, const _Bool))     \
    X(const char *, pinnableslice_value, (const rocksdb_pinnableslice_t *, size_t *))              \
    X(void, pinnableslice_destroy, (rocksdb_pinnableslice_t *))                                    \
    X(rocksdb_writebatch_t *, writebatch_create, (void))                                           \
    X(void, writebatch_destroy, (rocksdb_writebatch_t *))                                          \
    X(void, writebatch_clear, (rocksdb_writebatch_t *))                                            \
    X(void, writebatch_put_cf,                                                                     \
      (rocksdb_writebatch_t *, rocksdb_column_family_handle_t *, const char *, size_t,             \
       const char *, size_t))                                                                      \
    X(void, writebatch_delete_cf,                                                                  \
      (rocksdb_writebatch_t *, rocksdb_column_family_handle_t *, const char *, size_t))            \
    X(rocksdb_writeoptions_t *, writeoptions_create, (void))                                       \
    X(void, writeoptions_destroy, (rocksdb_writeoptions_t *))                                      \
    X(void, writeoptions_set_sync, (rocksdb_writeoptions_t *, unsigned char))                      \
    X(rocksdb_readoptions_t *, readoptions_create, (void))                                         \
    X(void, readoptions_destroy, (rocksdb_readoptions_t *))                                        \
    X(void, readoptions_set_fill_cache, (rocksdb_readoptions_t *, unsigned char))                  \
    X(rocksdb_iterator_t *, create_iterator, (rocksdb_t *, const rocksdb_readoptions_t *))         \
    X(rocksdb_iterator_t *, create_iterator_cf,                                                    \
      (rocksdb_t *, const rocksdb_readoptions_t *, rocksdb_column_family_handle_t *))              \
    X(void, iter_destroy, (rocksdb_iterator_t *))                                                  \
    X(unsigned char, iter_valid, (const rocksdb_iterator_t *))                                     \
    X(void, iter_seek_to_first, (rocksdb_iterator_t *))                                            \
    X(void, iter_seek_to_last, (rocksdb_iterator_t *))                                             \
    X(void, iter_seek, (rocksdb_iterator_t *, const char *, size_t))                               \
    X(void, iter_next, (rocksdb_iterator_t *))                                                     \
    X(void, iter_prev, (rocksdb_iterator_t *))                                                     \
    X(const char *, iter_key, (const rocksdb_iterator_t *, size_t *))                              \
    X(const char *, iter_value, (const rocksdb_iterator_t *, size_t *))                            \
    X(void, iter_get_error, (const rocksdb_iterator_t *, char **))                                 \
    X(rocksdb_checkpoint_t *, checkpoint_object_create, (rocksdb_t *, char **))                    \
    X(void, checkpoint_create, (rocksdb_checkpoint_t *, const char *, uint64_t, char **))          \
    X(void, checkpoint_object_destroy, (rocksdb_checkpoint_t *))                                   \
    X(rocksdb_flushoptions_t *, flushoptions_create, (void))                                       \
    X(void, flushoptions_destroy, (rocksdb_flushoptions_t *))                                      \
    X(void, flushoptions_set_wait, (rocksdb_flushoptions_t *, unsigned char))                      \
    X(void, flush, (rocksdb_t *, const rocksdb_flushoptions_t *, char **))                         \
    X(void, flush_cf,                                                                              \
      (rocksdb_t *, const rocksdb_flushoptions_t *, rocksdb_column_family_handle_t *, char **))    \
    X(char *, property_value, (rocksdb_t *, const char *))                                         \
    X(int, property_int, (rocksdb_t *, const char *, uint64_t *))                                  \
    X(void, compact_range_cf,                                                                      \
      (rocksdb_t *, rocksdb_column_family_handle_t *, const char *, size_t, const char *, size_t))

#define BENCH_ENGINE_FIELD(ret, name, params) ret(*name) params;
struct engine_api {
    BENCH_ENGINE_FUNCTIONS(BENCH_ENGINE_FIELD)
};
#undef BENCH_ENGINE_FIELD

/* The loaded engine's functions (valid after engine_load). */
extern struct engine_api E;

/* RocksDB's compression type numbers (c.h enum). */
enum { COMPRESSION_NONE = 0, COMPRESSION_SNAPPY = 1, COMPRESSION_LZ4 = 4, COMPRESSION_ZSTD = 7 };

/* dlopen(path) and resolve every function above; exits with a message if one is missing. */
void engine_load(const char *path);

/* Exits the process with `what: err` when err is set. */
void engine_check(char *err, const char *what);

/* How a workload wants its database opened. */
struct db_options {
    int compression;       /* COMPRESSION_*, or -1 for the engine's default */
    int bloom_bits;        /* 0: no filter */
    int data_block_hash;   /* -1: the engine's default; 0: binary search; 1: binary and hash */
    size_t cache_bytes;    /* 0: no block cache configured (the engine's default applies) */
    size_t write_buffer;   /* 0: engine default */
    int max_write_buffers; /* 0: engine default */
    int direct_reads;
    int parallelism;       /* increase_parallelism(n); 0: not called */
    int kahuna_tables;     /* Kahuna's table options: cache index/filter blocks, pin L0 */
    int kommander;         /* Kommander's DB options (concurrent memtable writes, recovery mode 1) */
};

/* An open database: the handle, its column families and everything to free at close. */
#define BENCH_MAX_CFS 16
struct db {
    rocksdb_t *db;
    int ncf;
    rocksdb_column_family_handle_t *cf[BENCH_MAX_CFS];
    rocksdb_options_t *opts;
    rocksdb_options_t *cf_opts[BENCH_MAX_CFS];
    rocksdb_block_based_table_options_t *table;
    rocksdb_cache_t *cache;
};

/* Opens `path` (created if missing) with the default column family only. */
void db_open(struct db *d, const char *path, const struct db_options *o);
/* Opens `path` with the named column families (names[0] must be "default"), creating missing ones. */
void db_open_cfs(struct db *d, const char *path, const struct db_options *o, int n, const char *const *names);
/* Flushes every column family and waits until no flush or compaction is pending or running
 * (at most `max_seconds`). Returns the seconds it took. */
double db_settle(struct db *d, double max_seconds);
/* Closes the DB and frees its options, table options and cache. */
void db_close(struct db *d);

#endif
