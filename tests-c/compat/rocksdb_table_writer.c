/* SPDX-License-Identifier: Apache-2.0 */
/* Writes a DB through Debian's librocksdb 7.8.3 that holds TABLES (flushed and compacted),
 * not only a WAL, so that core/tests/compat_tables.rs can check that solistore opens it and
 * reads every key. Small write buffers and file targets make RocksDB flush on its own and
 * compact into several levels; explicit flushes and CompactRange add the rest.
 *
 * usage: rocksdb_table_writer <dir> <compression 0|1|4|7|default> <n> <close 0|1>
 *   compression: 0 none, 1 Snappy, 4 LZ4, 7 ZSTD (RocksDB's CompressionType codes); "default" keeps
 *   RocksDB's default options for every CF (Snappy, no filter, 64 MiB write buffers), so only
 *   the explicit flushes and CompactRange calls make tables
 *   close: 1 closes the DB at the end; 0 exits without closing (phase 4 lives only in the WAL)
 *
 * Column families (unless "default"): "default" (no filter), "cf1" and "cf2" (Bloom filter,
 * 10 bits per key). All keys are ASCII.
 *
 * Content (deterministic; the Rust test recomputes it), for i in 0..n:
 *   phase 1: default "a%07d" -> "va%d" then i%10 copies of "x";
 *            cf1 "b%07d" -> "vb%d"; cf2 "c%07d" -> "vc%d"
 *            delete default "a%07d" for i%5 == 0;
 *            delete_range cf1 ["b%07d" n/4, "b%07d" n/2)
 *   flush every CF, CompactRange default and cf1 over everything.
 *   phase 2: default "a%07d" -> "new%d" for i%3 == 0;
 *            delete_range default ["a%07d" 3n/4, "a%07d" 3n/4+50);
 *            cf2 delete "c%07d" for i%4 == 1
 *   flush default and cf2 (level-0 tables over the compacted ones; RocksDB may also have
 *   compacted on its own).
 *   phase 3: cf1 "b%07d" -> "again%d" for n/4 <= i < n/4+10 (over the range tombstone);
 *            flush cf1; CompactRange cf2 over ["c%07d" 0, "c%07d" n/2].
 *   phase 4 (WAL only): cf2 "c%07d" -> "late%d" for i%2 == 0; delete default "a%07d" for
 *            i%11 == 0. */
#include <rocksdb/c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static rocksdb_t *db;
static rocksdb_writeoptions_t *wo;

static void check(char *err, const char *what) {
    if (err != NULL) {
        fprintf(stderr, "%s: %s\n", what, err);
        exit(1);
    }
}

static void put(rocksdb_column_family_handle_t *cf, const char *k, const char *v) {
    char *err = NULL;
    rocksdb_put_cf(db, wo, cf, k, strlen(k), v, strlen(v), &err);
    check(err, "put");
}

static void del(rocksdb_column_family_handle_t *cf, const char *k) {
    char *err = NULL;
    rocksdb_delete_cf(db, wo, cf, k, strlen(k), &err);
    check(err, "delete");
}

static void del_range(rocksdb_column_family_handle_t *cf, const char *b, const char *e) {
    char *err = NULL;
    rocksdb_delete_range_cf(db, wo, cf, b, strlen(b), e, strlen(e), &err);
    check(err, "delete_range");
}

static void flush(rocksdb_column_family_handle_t *cf) {
    char *err = NULL;
    rocksdb_flushoptions_t *fo = rocksdb_flushoptions_create();
    rocksdb_flushoptions_set_wait(fo, 1);
    rocksdb_flush_cf(db, fo, cf, &err);
    check(err, "flush");
    rocksdb_flushoptions_destroy(fo);
}

/* compression < 0: RocksDB's defaults. */
static rocksdb_options_t *cf_options(int compression, int bloom) {
    rocksdb_options_t *o = rocksdb_options_create();
    rocksdb_options_set_create_if_missing(o, 1);
    rocksdb_options_set_create_missing_column_families(o, 1);
    if (compression < 0) return o;
    rocksdb_options_set_compression(o, compression);
    rocksdb_options_set_write_buffer_size(o, 128 << 10);
    rocksdb_options_set_target_file_size_base(o, 64 << 10);
    rocksdb_options_set_max_bytes_for_level_base(o, 256 << 10);
    rocksdb_options_set_level0_file_num_compaction_trigger(o, 2);
    if (bloom) {
        rocksdb_block_based_table_options_t *t = rocksdb_block_based_options_create();
        rocksdb_block_based_options_set_filter_policy(t, rocksdb_filterpolicy_create_bloom(10));
        rocksdb_options_set_block_based_table_factory(o, t);
        rocksdb_block_based_options_destroy(t);
    }
    return o;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s <dir> <compression 0|1|4|7|default> <n> <close 0|1>\n", argv[0]);
        return 2;
    }
    const char *dir = argv[1];
    int compression = strcmp(argv[2], "default") == 0 ? -1 : atoi(argv[2]);
    int n = atoi(argv[3]);
    int do_close = atoi(argv[4]);
    char *err = NULL;
    const char *names[3] = {"default", "cf1", "cf2"};
    const rocksdb_options_t *opts[3] = {cf_options(compression, 0), cf_options(compression, 1),
                                        cf_options(compression, 1)};
    rocksdb_column_family_handle_t *h[3];
    db = rocksdb_open_column_families(opts[0], dir, 3, names, opts, h, &err);
    check(err, "open");
    wo = rocksdb_writeoptions_create();
    char k[64], e[64], v[128];

    /* phase 1 */
    for (int i = 0; i < n; i++) {
        snprintf(k, sizeof k, "a%07d", i);
        int len = snprintf(v, sizeof v, "va%d", i);
        for (int j = 0; j < i % 10; j++) v[len++] = 'x';
        v[len] = 0;
        put(h[0], k, v);
        snprintf(k, sizeof k, "b%07d", i);
        snprintf(v, sizeof v, "vb%d", i);
        put(h[1], k, v);
        snprintf(k, sizeof k, "c%07d", i);
        snprintf(v, sizeof v, "vc%d", i);
        put(h[2], k, v);
    }
    for (int i = 0; i < n; i += 5) {
        snprintf(k, sizeof k, "a%07d", i);
        del(h[0], k);
    }
    snprintf(k, sizeof k, "b%07d", n / 4);
    snprintf(e, sizeof e, "b%07d", n / 2);
    del_range(h[1], k, e);
    for (int c = 0; c < 3; c++) flush(h[c]);
    for (int c = 0; c < 2; c++) rocksdb_compact_range_cf(db, h[c], NULL, 0, NULL, 0);

    /* phase 2 */
    for (int i = 0; i < n; i += 3) {
        snprintf(k, sizeof k, "a%07d", i);
        snprintf(v, sizeof v, "new%d", i);
        put(h[0], k, v);
    }
    snprintf(k, sizeof k, "a%07d", 3 * n / 4);
    snprintf(e, sizeof e, "a%07d", 3 * n / 4 + 50);
    del_range(h[0], k, e);
    for (int i = 1; i < n; i += 4) {
        snprintf(k, sizeof k, "c%07d", i);
        del(h[2], k);
    }
    flush(h[0]);
    flush(h[2]);

    /* phase 3 */
    for (int i = n / 4; i < n / 4 + 10 && i < n; i++) {
        snprintf(k, sizeof k, "b%07d", i);
        snprintf(v, sizeof v, "again%d", i);
        put(h[1], k, v);
    }
    flush(h[1]);
    snprintf(k, sizeof k, "c%07d", 0);
    snprintf(e, sizeof e, "c%07d", n / 2);
    rocksdb_compact_range_cf(db, h[2], k, strlen(k), e, strlen(e));

    /* phase 4: WAL only */
    for (int i = 0; i < n; i += 2) {
        snprintf(k, sizeof k, "c%07d", i);
        snprintf(v, sizeof v, "late%d", i);
        put(h[2], k, v);
    }
    for (int i = 0; i < n; i += 11) {
        snprintf(k, sizeof k, "a%07d", i);
        del(h[0], k);
    }
    if (!do_close) {
        fflush(stdout);
        _exit(0); /* no close: phase 4 must come back from the WAL */
    }
    for (int c = 0; c < 3; c++) rocksdb_column_family_handle_destroy(h[c]);
    rocksdb_close(db);
    rocksdb_writeoptions_destroy(wo);
    for (int c = 0; c < 3; c++) rocksdb_options_destroy((rocksdb_options_t *)opts[c]);
    return 0;
}
