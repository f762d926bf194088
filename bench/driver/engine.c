/* SPDX-License-Identifier: Apache-2.0
 * Loading the engine (dlopen + dlsym of the C API table) and the DB open/settle/close helpers. */
#include "engine.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct engine_api E;

void engine_load(const char *path) {
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
        exit(2);
    }
#define BENCH_ENGINE_RESOLVE(ret, name, params)                                                    \
    do {                                                                                           \
        void *sym = dlsym(h, "rocksdb_" #name);                                                    \
        if (sym == NULL) {                                                                         \
            fprintf(stderr, "%s does not export rocksdb_%s\n", path, #name);                       \
            exit(2);                                                                               \
        }                                                                                          \
        memcpy(&E.name, &sym, sizeof sym);                                                         \
    } while (0);
    BENCH_ENGINE_FUNCTIONS(BENCH_ENGINE_RESOLVE)
#undef BENCH_ENGINE_RESOLVE
}

void engine_check(char *err, const char *what) {
    if (err != NULL) {
        fprintf(stderr, "error: %s: %s\n", what, err);
        fflush(stderr);
        _exit(3);
    }
}

static rocksdb_options_t *make_options(struct db *d, const struct db_options *o) {
    rocksdb_options_t *opt = E.options_create();
    E.options_set_create_if_missing(opt, 1);
    E.options_set_create_missing_column_families(opt, 1);
    if (o->compression >= 0) E.options_set_compression(opt, o->compression);
    if (o->parallelism > 0) E.options_increase_parallelism(opt, o->parallelism);
    if (o->write_buffer > 0) E.options_set_write_buffer_size(opt, o->write_buffer);
    if (o->max_write_buffers > 0) E.options_set_max_write_buffer_number(opt, o->max_write_buffers);
    if (o->direct_reads) E.options_set_use_direct_reads(opt, 1);
    if (o->kommander) {
        E.options_set_allow_concurrent_memtable_write(opt, 1);
        E.options_set_wal_recovery_mode(opt, 1);
    }
    if (o->kahuna_tables) {
        E.options_set_wal_recovery_mode(opt, 1);
        E.options_set_max_background_flushes(opt, 2);
        E.options_set_max_background_compactions(opt, 2);
        E.options_set_min_write_buffer_number_to_merge(opt, 1);
    }
    if (o->cache_bytes > 0 || o->bloom_bits > 0 || o->kahuna_tables || o->data_block_hash >= 0) {
        if (d->table == NULL) {
            d->table = E.block_based_options_create();
            if (o->cache_bytes > 0) {
                d->cache = E.cache_create_lru(o->cache_bytes);
                E.block_based_options_set_block_cache(d->table, d->cache);
            }
            if (o->bloom_bits > 0)
                E.block_based_options_set_filter_policy(d->table,
                                                        E.filterpolicy_create_bloom_full(o->bloom_bits));
            if (o->data_block_hash >= 0)
                E.block_based_options_set_data_block_index_type(d->table, o->data_block_hash);
            if (o->kahuna_tables) {
                E.block_based_options_set_cache_index_and_filter_blocks(d->table, 1);
                E.block_based_options_set_pin_l0_filter_and_index_blocks_in_cache(d->table, 1);
                E.block_based_options_set_whole_key_filtering(d->table, 1);
            }
        }
        E.options_set_block_based_table_factory(opt, d->table);
    }
    return opt;
}

void db_open(struct db *d, const char *path, const struct db_options *o) {
    memset(d, 0, sizeof *d);
    d->opts = make_options(d, o);
    char *err = NULL;
    d->db = E.open(d->opts, path, &err);
    engine_check(err, "open");
    d->ncf = 0;
}

void db_open_cfs(struct db *d, const char *path, const struct db_options *o, int n, const char *const *names) {
    memset(d, 0, sizeof *d);
    if (n > BENCH_MAX_CFS) {
        fprintf(stderr, "too many column families\n");
        exit(2);
    }
    d->opts = make_options(d, o);
    for (int i = 0; i < n; i++) d->cf_opts[i] = make_options(d, o);
    char *err = NULL;
    d->db = E.open_column_families(d->opts, path, n, names, (const rocksdb_options_t *const *)d->cf_opts,
                                   d->cf, &err);
    engine_check(err, "open_column_families");
    d->ncf = n;
}

static uint64_t prop(struct db *d, const char *name) {
    uint64_t v = 0;
    if (E.property_int(d->db, name, &v) != 0) return 0;
    return v;
}

double db_settle(struct db *d, double max_seconds) {
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    rocksdb_flushoptions_t *fo = E.flushoptions_create();
    E.flushoptions_set_wait(fo, 1);
    char *err = NULL;
    if (d->ncf == 0) {
        E.flush(d->db, fo, &err);
        engine_check(err, "flush");
    } else {
        for (int i = 0; i < d->ncf; i++) {
            E.flush_cf(d->db, fo, d->cf[i], &err);
            engine_check(err, "flush_cf");
        }
    }
    E.flushoptions_destroy(fo);
    /* Quiet means: no pending or running flush or compaction, twice in a row 50 ms apart. */
    int quiet = 0;
    double t = 0;
    while (quiet < 2) {
        uint64_t busy = prop(d, "rocksdb.compaction-pending") + prop(d, "rocksdb.num-running-compactions") +
                        prop(d, "rocksdb.num-running-flushes") + prop(d, "rocksdb.mem-table-flush-pending");
        quiet = busy == 0 ? quiet + 1 : 0;
        clock_gettime(CLOCK_MONOTONIC, &b);
        t = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
        if (t > max_seconds) break;
        if (quiet < 2) usleep(50000);
    }
    return t;
}

void db_close(struct db *d) {
    for (int i = 0; i < d->ncf; i++) E.column_family_handle_destroy(d->cf[i]);
    E.close(d->db);
    for (int i = 0; i < d->ncf; i++) E.options_destroy(d->cf_opts[i]);
    E.options_destroy(d->opts);
    if (d->table != NULL) E.block_based_options_destroy(d->table);
    if (d->cache != NULL) E.cache_destroy(d->cache);
    memset(d, 0, sizeof *d);
}
