/* SPDX-License-Identifier: Apache-2.0 */
/* Writes a small DB through the RocksDB C API and exits WITHOUT closing or flushing, so that
 * every write lives only in the WAL. core/tests/compat_rocksdb.rs builds this against
 * Debian's librocksdb 7.8.3 and checks that solistore recovers every key and column family.
 *
 * Content (deterministic; the Rust test recomputes it):
 *   for i in 0..n: default: "key%06d" -> "value%06d"; cf1: "k1-%06d" -> "v1-%06d"
 *   cf2: one batch per 10 keys spanning default, cf1 and cf2: "k2-%06d" -> "v2-%06d"
 *   then delete every 7th default key, and delete_range cf1 ["k1-000100", "k1-000200").
 * usage: rocksdb_writer <dir> <n> */
#include <rocksdb/c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void check(char *err, const char *what) {
    if (err != NULL) {
        fprintf(stderr, "%s: %s\n", what, err);
        exit(1);
    }
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s <dir> <n>\n", argv[0]);
        return 2;
    }
    const char *dir = argv[1];
    int n = atoi(argv[2]);
    char *err = NULL;
    rocksdb_options_t *opts = rocksdb_options_create();
    rocksdb_options_set_create_if_missing(opts, 1);
    rocksdb_t *db = rocksdb_open(opts, dir, &err);
    check(err, "open");
    rocksdb_column_family_handle_t *cf1 = rocksdb_create_column_family(db, opts, "cf1", &err);
    check(err, "create cf1");
    rocksdb_column_family_handle_t *cf2 = rocksdb_create_column_family(db, opts, "cf2", &err);
    check(err, "create cf2");
    rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
    char k[64], v[64];
    for (int i = 0; i < n; i++) {
        snprintf(k, sizeof k, "key%06d", i);
        snprintf(v, sizeof v, "value%06d", i);
        rocksdb_put(db, wo, k, strlen(k), v, strlen(v), &err);
        check(err, "put");
        snprintf(k, sizeof k, "k1-%06d", i);
        snprintf(v, sizeof v, "v1-%06d", i);
        rocksdb_put_cf(db, wo, cf1, k, strlen(k), v, strlen(v), &err);
        check(err, "put_cf");
    }
    for (int i = 0; i < n; i += 10) {
        rocksdb_writebatch_t *b = rocksdb_writebatch_create();
        for (int j = i; j < i + 10 && j < n; j++) {
            snprintf(k, sizeof k, "k2-%06d", j);
            snprintf(v, sizeof v, "v2-%06d", j);
            rocksdb_writebatch_put_cf(b, cf2, k, strlen(k), v, strlen(v));
        }
        rocksdb_writebatch_put(b, "batch-marker", 12, k, strlen(k));
        rocksdb_write(db, wo, b, &err);
        check(err, "write");
        rocksdb_writebatch_destroy(b);
    }
    for (int i = 0; i < n; i += 7) {
        snprintf(k, sizeof k, "key%06d", i);
        rocksdb_delete(db, wo, k, strlen(k), &err);
        check(err, "delete");
    }
    rocksdb_delete_range_cf(db, wo, cf1, "k1-000100", 9, "k1-000200", 9, &err);
    check(err, "delete_range");
    fflush(stdout);
    _exit(0); /* no close: the data must come back from the WAL alone */
}
