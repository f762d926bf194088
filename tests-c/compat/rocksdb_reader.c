/* SPDX-License-Identifier: Apache-2.0 */
/* Opens an existing DB with Debian's librocksdb in a given WAL recovery mode and prints what
 * it recovered, so that core/tests/wal_recovery_modes.rs and core/tests/corruption_sweep.rs
 * can compare solistore's recovery with RocksDB's on the same damaged directory.
 *
 * usage: rocksdb_reader <dir> <wal_recovery_mode 0..3> [paranoid_checks 0|1 [verify_checksums 0|1]]
 *        rocksdb_reader --batch    (one "<dir> <mode> <paranoid> <verify>" job per stdin line)
 * output per job: "OPEN-ERROR <message>", or one line per entry
 *         "<cf name> <hex key> <hex value>" in column family order, a line
 *         "ITER-ERROR <cf name> <message>" where a column family's iterator ended in an
 *         error, then "END". Defaults: paranoid_checks 1, verify_checksums 1. Batch mode
 *         opens with a 1 MiB write buffer and a 64 KiB MANIFEST preallocation (small DBs). */
#include <rocksdb/c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void hex(const char *p, size_t n) {
    for (size_t i = 0; i < n; i++) printf("%02x", (unsigned char)p[i]);
}

/* Prints an error message on one line. */
static void print_error(const char *what, const char *cf, char *err) {
    for (char *c = err; *c; c++)
        if (*c == '\n' || *c == '\r') *c = ' ';
    if (cf != NULL)
        printf("%s %s %s\n", what, cf, err);
    else
        printf("%s %s\n", what, err);
    rocksdb_free(err);
}

static int small_prealloc = 0;

static void run(const char *dir, int mode, int paranoid, int verify) {
    char *err = NULL;
    rocksdb_options_t *opts = rocksdb_options_create();
    rocksdb_options_set_wal_recovery_mode(opts, mode);
    rocksdb_options_set_paranoid_checks(opts, (unsigned char)paranoid);
    if (small_prealloc) {
        /* The sweeps open thousands of copies on tmpfs, where preallocating a WAL (1.1 x
         * write_buffer_size) and a MANIFEST (4 MiB) costs real pages. Their recovered data is
         * far below either size, so what is recovered does not change. */
        rocksdb_options_set_write_buffer_size(opts, 1 << 20);
        rocksdb_options_set_manifest_preallocation_size(opts, 64 << 10);
    }
    size_t ncf = 0;
    char **names = rocksdb_list_column_families(opts, dir, &ncf, &err);
    if (err != NULL) {
        print_error("OPEN-ERROR", NULL, err);
        rocksdb_options_destroy(opts);
        return;
    }
    const rocksdb_options_t **cf_opts = malloc(ncf * sizeof *cf_opts);
    rocksdb_column_family_handle_t **handles = malloc(ncf * sizeof *handles);
    for (size_t i = 0; i < ncf; i++) cf_opts[i] = opts;
    rocksdb_t *db = rocksdb_open_column_families(opts, dir, (int)ncf, (const char *const *)names, cf_opts,
                                                 handles, &err);
    if (err != NULL) {
        print_error("OPEN-ERROR", NULL, err);
    } else {
        rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
        rocksdb_readoptions_set_verify_checksums(ro, (unsigned char)verify);
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
            rocksdb_iter_get_error(it, &err);
            if (err != NULL) {
                print_error("ITER-ERROR", names[i], err);
                err = NULL;
            }
            rocksdb_iter_destroy(it);
            rocksdb_column_family_handle_destroy(handles[i]);
        }
        printf("END\n");
        rocksdb_readoptions_destroy(ro);
        rocksdb_close(db);
    }
    rocksdb_list_column_families_destroy(names, ncf);
    free(cf_opts);
    free(handles);
    rocksdb_options_destroy(opts);
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "--batch") == 0) {
        char line[4096], dir[4000];
        int mode, paranoid, verify;
        small_prealloc = 1;
        while (fgets(line, sizeof line, stdin) != NULL) {
            if (sscanf(line, "%3999s %d %d %d", dir, &mode, &paranoid, &verify) != 4) {
                fprintf(stderr, "bad job line: %s", line);
                return 2;
            }
            run(dir, mode, paranoid, verify);
            fflush(stdout);
        }
        return 0;
    }
    if (argc < 3 || argc > 5) {
        fprintf(stderr, "usage: %s <dir> <mode> [paranoid [verify]] | --batch\n", argv[0]);
        return 2;
    }
    run(argv[1], atoi(argv[2]), argc > 3 ? atoi(argv[3]) : 1, argc > 4 ? atoi(argv[4]) : 1);
    return 0;
}
