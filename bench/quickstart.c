/* SPDX-License-Identifier: Apache-2.0 */
/* A short tour of the RocksDB C API, unchanged code that runs on libsolistore or librocksdb:
 * open with column families, put/get, a batch across families, an iterator, a snapshot, a
 * flush and a compaction, a checkpoint, properties. `make run` builds it against our header
 * and runs it on libsolistore, then runs the same binary on Debian's librocksdb when present.
 * usage: quickstart <scratch dir> */
#include <rocksdb/c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void check(char *err, const char *what) {
    if (err != NULL) {
        fprintf(stderr, "%s: %s\n", what, err);
        exit(1);
    }
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s <scratch dir>\n", argv[0]);
        return 2;
    }
    char path[4096], cp[4096];
    snprintf(path, sizeof path, "%s/db", argv[1]);
    snprintf(cp, sizeof cp, "%s/checkpoint", argv[1]);
    char *err = NULL;
    rocksdb_destroy_db(rocksdb_options_create(), path, &err);
    check(err, "destroy");

    rocksdb_options_t *o = rocksdb_options_create();
    rocksdb_options_set_create_if_missing(o, 1);
    rocksdb_options_set_create_missing_column_families(o, 1);
    const char *names[] = {"default", "users"};
    const rocksdb_options_t *cf_opts[] = {o, o};
    rocksdb_column_family_handle_t *cf[2];
    rocksdb_t *db = rocksdb_open_column_families(o, path, 2, names, cf_opts, cf, &err);
    check(err, "open");
    rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
    rocksdb_readoptions_t *ro = rocksdb_readoptions_create();

    rocksdb_put(db, wo, "hello", 5, "world", 5, &err);
    check(err, "put");
    size_t len = 0;
    char *v = rocksdb_get(db, ro, "hello", 5, &len, &err);
    check(err, "get");
    printf("get hello -> %.*s\n", (int)len, v);
    rocksdb_free(v);

    rocksdb_writebatch_t *b = rocksdb_writebatch_create();
    rocksdb_writebatch_put_cf(b, cf[1], "alice", 5, "admin", 5);
    rocksdb_writebatch_put_cf(b, cf[1], "bob", 3, "user", 4);
    rocksdb_writebatch_delete(b, "hello", 5);
    rocksdb_write(db, wo, b, &err);
    check(err, "write batch");
    printf("batch of %d records written atomically across 2 column families\n", rocksdb_writebatch_count(b));
    rocksdb_writebatch_destroy(b);

    const rocksdb_snapshot_t *snap = rocksdb_create_snapshot(db);
    rocksdb_put_cf(db, wo, cf[1], "carol", 5, "user", 4, &err);
    check(err, "put carol");
    rocksdb_readoptions_t *at_snap = rocksdb_readoptions_create();
    rocksdb_readoptions_set_snapshot(at_snap, snap);
    rocksdb_iterator_t *it = rocksdb_create_iterator_cf(db, at_snap, cf[1]);
    printf("users as of the snapshot:");
    for (rocksdb_iter_seek_to_first(it); rocksdb_iter_valid(it); rocksdb_iter_next(it)) {
        size_t kl, vl;
        const char *k = rocksdb_iter_key(it, &kl);
        const char *val = rocksdb_iter_value(it, &vl);
        printf(" %.*s=%.*s", (int)kl, k, (int)vl, val);
    }
    printf("\n");
    rocksdb_iter_destroy(it);
    rocksdb_readoptions_destroy(at_snap);
    rocksdb_release_snapshot(db, snap);

    double t0 = now();
    char key[32], val[128];
    memset(val, 'x', sizeof val);
    rocksdb_writebatch_t *bulk = rocksdb_writebatch_create();
    for (int i = 0; i < 100000; i++) {
        snprintf(key, sizeof key, "key%08d", i);
        rocksdb_writebatch_put(bulk, key, strlen(key), val, 100);
        if (i % 1000 == 999) {
            rocksdb_write(db, wo, bulk, &err);
            check(err, "bulk write");
            rocksdb_writebatch_clear(bulk);
        }
    }
    rocksdb_writebatch_destroy(bulk);
    double t1 = now();
    rocksdb_flushoptions_t *fo = rocksdb_flushoptions_create();
    rocksdb_flushoptions_set_wait(fo, 1);
    rocksdb_flush(db, fo, &err);
    check(err, "flush");
    rocksdb_compact_range(db, NULL, 0, NULL, 0);
    double t2 = now();
    printf("100000 puts in batches of 1000: %.0f ms; flush + full compaction: %.0f ms\n", (t1 - t0) * 1e3,
           (t2 - t1) * 1e3);
    char *p = rocksdb_property_value(db, "rocksdb.levelstats");
    printf("%s", p ? p : "(no levelstats)\n");
    rocksdb_free(p);

    rocksdb_checkpoint_t *c = rocksdb_checkpoint_object_create(db, &err);
    check(err, "checkpoint object");
    rocksdb_checkpoint_create(c, cp, 0, &err);
    check(err, "checkpoint");
    rocksdb_checkpoint_object_destroy(c);
    printf("checkpoint written to %s\n", cp);

    rocksdb_flushoptions_destroy(fo);
    rocksdb_column_family_handle_destroy(cf[0]);
    rocksdb_column_family_handle_destroy(cf[1]);
    rocksdb_writeoptions_destroy(wo);
    rocksdb_readoptions_destroy(ro);
    rocksdb_close(db);

    rocksdb_options_t *plain = rocksdb_options_create();
    size_t n = 0;
    char **list = rocksdb_list_column_families(plain, cp, &n, &err);
    check(err, "list checkpoint CFs");
    printf("the checkpoint opens as a DB with %zu column families\n", n);
    rocksdb_list_column_families_destroy(list, n);
    rocksdb_options_destroy(plain);
    rocksdb_options_destroy(o);
    return 0;
}
