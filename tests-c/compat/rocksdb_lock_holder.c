/* SPDX-License-Identifier: Apache-2.0 */
/* Opens a DB with Debian's librocksdb 7.8.3 so that core/tests/lock_interop.rs can check that
 * solistore and RocksDB exclude each other through the LOCK file across processes.
 *
 * usage: rocksdb_lock_holder <dir> hold   open (creating it), print "OPEN-OK", then wait to
 *                                         be killed; or print "OPEN-ERROR <message>"
 *        rocksdb_lock_holder <dir> try    open, print "OPEN-OK <ms>" or
 *                                         "OPEN-ERROR <ms> <message>" (ms: time the open
 *                                         took), close and exit */
#include <rocksdb/c.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    if (argc != 3 || (strcmp(argv[2], "hold") != 0 && strcmp(argv[2], "try") != 0)) {
        fprintf(stderr, "usage: %s <dir> hold|try\n", argv[0]);
        return 2;
    }
    int hold = strcmp(argv[2], "hold") == 0;
    rocksdb_options_t *opts = rocksdb_options_create();
    rocksdb_options_set_create_if_missing(opts, 1);
    char *err = NULL;
    double start = now_ms();
    rocksdb_t *db = rocksdb_open(opts, argv[1], &err);
    double took = now_ms() - start;
    if (err != NULL) {
        if (hold)
            printf("OPEN-ERROR %s\n", err);
        else
            printf("OPEN-ERROR %.1f %s\n", took, err);
        rocksdb_free(err);
        rocksdb_options_destroy(opts);
        return 0;
    }
    if (hold) {
        printf("OPEN-OK\n");
        fflush(stdout);
        for (;;) pause();
    }
    printf("OPEN-OK %.1f\n", took);
    rocksdb_close(db);
    rocksdb_options_destroy(opts);
    return 0;
}
