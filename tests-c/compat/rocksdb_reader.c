/* SPDX-License-Identifier: Apache-2.0 */
/* Opens an existing DB with Debian's librocksdb in a given WAL recovery mode and prints what
 * it recovered, so that core/tests/wal_recovery_modes.rs can compare solistore's recovery
 * with RocksDB's on the same damaged directory.
 *
 * usage: rocksdb_reader <dir> <wal_recovery_mode 0..3>
 * output: "OPEN-ERROR <message>" and exit 0, or one line per entry
 *         "<cf name> <hex key> <hex value>" in column family order, then "END". */
#include <rocksdb/c.h>
#include <stdio.h>
#include <stdlib.h>

static void hex(const char *p, size_t n) {
    for (size_t i = 0; i < n; i++) printf("%02x", (unsigned char)p[i]);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s <dir> <mode>\n", argv[0]);
        return 2;
    }
    char *err = NULL;
    rocksdb_options_t *opts = rocksdb_options_create();
    rocksdb_options_set_wal_recovery_mode(opts, atoi(argv[2]));
    size_t ncf = 0;
    char **names = rocksdb_list_column_families(opts, argv[1], &ncf, &err);
    if (err != NULL) {
        printf("OPEN-ERROR %s\n", err);
        return 0;
    }
    const rocksdb_options_t **cf_opts = malloc(ncf * sizeof *cf_opts);
    rocksdb_column_family_handle_t **handles = malloc(ncf * sizeof *handles);
    for (size_t i = 0; i < ncf; i++) cf_opts[i] = opts;
    rocksdb_t *db = rocksdb_open_column_families(opts, argv[1], (int)ncf, (const char *const *)names, cf_opts,
                                                 handles, &err);
    if (err != NULL) {
        printf("OPEN-ERROR %s\n", err);
        return 0;
    }
    rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
    for (size_t i = 0; i < ncf; i++) {
        rocksdb_iterator_t *it = rocksdb_create_iterator_cf(db, ro, handles[i]);
        for (rocksdb_iter_seek_to_first(it); rocksdb_iter_valid(it); rocksdb_iter_next(it)) {
            size_t kl, vl;
            const char *k = rocksdb_iter_key(it, &kl);
            const char *v = rocksdb_iter_value(it, &vl);
            printf("%s ", names[i]);
            hex(k, kl);
            printf(" ");
            hex(v, vl);
            printf("\n");
        }
        rocksdb_iter_destroy(it);
        rocksdb_column_family_handle_destroy(handles[i]);
    }
    printf("END\n");
    rocksdb_close(db);
    return 0;
}
