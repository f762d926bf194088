/* SPDX-License-Identifier: Apache-2.0 */
/* Test oracle for core/src/sst/filter (built and run by oracle_tests.rs against librocksdb).
 *
 *   rocksdb_filter_oracle SST N BITS FORMAT_VERSION POLICY [DB QUERIES]
 *
 * Writes SST with rocksdb_sstfilewriter_*: keys "key%06d" for 0..N, values "v%d", block-based
 * table with the given format_version and filter policy (bloom | bloom_full | ribbon).
 * With DB, ingests the file into a fresh DB opened with the same table options and asks
 * RocksDB itself which absent keys its filter lets through: for QUERIES keys
 * "key%06d.%d" (j % (N-1), j), each inside the file's key range, a Get that reads any data
 * block (perf context block_cache_hit_count + block_read_count > 0) passed the filter.
 * Prints "fp J" per such key, then "useful U" (the rocksdb.bloom.filter.useful ticker) and
 * "found K" (how many of the N written keys Get found). */
#include <rocksdb/c.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(char *err, const char *what) {
    if (err != NULL) {
        fprintf(stderr, "%s: %s\n", what, err);
        exit(1);
    }
}

static unsigned long long ticker(rocksdb_options_t *opts, const char *name) {
    char *s = rocksdb_options_statistics_get_string(opts);
    char *at = s ? strstr(s, name) : NULL;
    unsigned long long v = 0;
    if (at == NULL) {
        fprintf(stderr, "ticker %s not found\n", name);
        exit(1);
    }
    at = strstr(at, "COUNT : ");
    if (at != NULL) v = strtoull(at + 8, NULL, 10);
    rocksdb_free(s);
    return v;
}

int main(int argc, char **argv) {
    if (argc != 6 && argc != 8) {
        fprintf(stderr, "usage: %s SST N BITS FORMAT_VERSION POLICY [DB QUERIES]\n", argv[0]);
        return 2;
    }
    const char *sst = argv[1];
    int n = atoi(argv[2]);
    double bits = atof(argv[3]);
    int fv = atoi(argv[4]);
    const char *policy = argv[5];
    char *err = NULL;
    char key[64], val[64];

    rocksdb_filterpolicy_t *fp;
    if (strcmp(policy, "bloom") == 0) {
        fp = rocksdb_filterpolicy_create_bloom(bits);
    } else if (strcmp(policy, "bloom_full") == 0) {
        fp = rocksdb_filterpolicy_create_bloom_full(bits);
    } else if (strcmp(policy, "ribbon") == 0) {
        fp = rocksdb_filterpolicy_create_ribbon(bits);
    } else {
        fprintf(stderr, "unknown policy %s\n", policy);
        return 2;
    }
    rocksdb_block_based_table_options_t *bbto = rocksdb_block_based_options_create();
    rocksdb_block_based_options_set_filter_policy(bbto, fp); /* bbto owns fp now */
    rocksdb_block_based_options_set_format_version(bbto, fv);
    rocksdb_options_t *opts = rocksdb_options_create();
    rocksdb_options_set_block_based_table_factory(opts, bbto);
    rocksdb_options_set_create_if_missing(opts, 1);

    rocksdb_envoptions_t *env = rocksdb_envoptions_create();
    rocksdb_sstfilewriter_t *w = rocksdb_sstfilewriter_create(env, opts);
    rocksdb_sstfilewriter_open(w, sst, &err);
    check(err, "open sst");
    for (int i = 0; i < n; i++) {
        int kl = snprintf(key, sizeof key, "key%06d", i);
        int vl = snprintf(val, sizeof val, "v%d", i);
        rocksdb_sstfilewriter_put(w, key, (size_t)kl, val, (size_t)vl, &err);
        check(err, "put");
    }
    rocksdb_sstfilewriter_finish(w, &err);
    check(err, "finish");
    rocksdb_sstfilewriter_destroy(w);
    rocksdb_envoptions_destroy(env);

    if (argc == 8) {
        const char *dbpath = argv[6];
        int queries = atoi(argv[7]);
        rocksdb_options_enable_statistics(opts);
        rocksdb_t *db = rocksdb_open(opts, dbpath, &err);
        check(err, "open db");
        rocksdb_ingestexternalfileoptions_t *io = rocksdb_ingestexternalfileoptions_create();
        const char *files[1] = {sst};
        rocksdb_ingest_external_file(db, files, 1, io, &err);
        check(err, "ingest");
        rocksdb_ingestexternalfileoptions_destroy(io);

        rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
        int found = 0;
        for (int i = 0; i < n; i++) {
            int kl = snprintf(key, sizeof key, "key%06d", i);
            size_t vlen = 0;
            char *v = rocksdb_get(db, ro, key, (size_t)kl, &vlen, &err);
            check(err, "get present");
            if (v != NULL) found++;
            rocksdb_free(v);
        }
        unsigned long long useful_before = ticker(opts, "rocksdb.bloom.filter.useful ");
        rocksdb_set_perf_level(2); /* rocksdb_enable_count */
        rocksdb_perfcontext_t *pc = rocksdb_perfcontext_create();
        for (int j = 0; j < queries; j++) {
            int kl = snprintf(key, sizeof key, "key%06d.%d", j % (n - 1), j);
            size_t vlen = 0;
            rocksdb_perfcontext_reset(pc);
            char *v = rocksdb_get(db, ro, key, (size_t)kl, &vlen, &err);
            check(err, "get absent");
            if (v != NULL) {
                fprintf(stderr, "absent key %s found\n", key);
                return 1;
            }
            uint64_t blocks = rocksdb_perfcontext_metric(pc, rocksdb_block_cache_hit_count) +
                              rocksdb_perfcontext_metric(pc, rocksdb_block_read_count);
            if (blocks > 0) printf("fp %d\n", j);
        }
        rocksdb_perfcontext_destroy(pc);
        printf("useful %llu\n", ticker(opts, "rocksdb.bloom.filter.useful ") - useful_before);
        printf("found %d\n", found);
        rocksdb_readoptions_destroy(ro);
        rocksdb_close(db);
    }
    rocksdb_options_destroy(opts);
    rocksdb_block_based_options_destroy(bbto);
    return 0;
}
