/* SPDX-License-Identifier: Apache-2.0
 * rocksdb_open / rocksdb_close / rocksdb_destroy_db: open errors and their messages, the
 * in-process lock, reopen after close, and opening into an existing empty directory. */
#include "common.h"

static void missing_db_without_create_if_missing(void) {
  const char *path = db_path("db");
  rocksdb_options_t *o = rocksdb_options_create();
  char *err = NULL;
  rocksdb_t *db = rocksdb_open(o, path, &err);
  EXPECT(db == NULL);
  /* Invalid argument: <db>/CURRENT: does not exist (create_if_missing is false) */
  EXPECTF(err != NULL, "opening a missing DB without create_if_missing succeeded");
  EXPECT(strstr(err, path) != NULL);
  EXPECT(strstr(err, "CURRENT") != NULL);
  EXPECT_ERR_CONTAINS(err, "does not exist (create_if_missing is false)");
  /* The exact text. */
  char want[PATH_MAX + 100];
  snprintf(want, sizeof want, "Invalid argument: %s/CURRENT: does not exist (create_if_missing is false)",
           path);
  db = rocksdb_open(o, path, &err);
  EXPECT(db == NULL);
  EXPECT_ERR_EQ(err, want);
  rocksdb_options_destroy(o);
}

static void error_if_exists(void) {
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_t *db = open_ok(o, path);
  rocksdb_close(db);
  rocksdb_options_set_error_if_exists(o, 1);
  char *err = NULL;
  db = rocksdb_open(o, path, &err);
  EXPECT(db == NULL);
  char want[PATH_MAX + 100];
  snprintf(want, sizeof want, "Invalid argument: %s: exists (error_if_exists is true)", path);
  EXPECT_ERR_EQ(err, want);
  /* Without the flag it opens again. */
  rocksdb_options_set_error_if_exists(o, 0);
  db = open_ok(o, path);
  rocksdb_close(db);
  rocksdb_options_destroy(o);
}

static void second_open_in_process_fails_on_lock(void) {
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_t *db = open_ok(o, path);
  char *err = NULL;
  rocksdb_t *db2 = rocksdb_open(o, path, &err);
  EXPECT(db2 == NULL);
  EXPECTF(err != NULL, "second open of a held DB succeeded");
  fprintf(stderr, "[%s] second open: %s\n", g_phase, err);
  EXPECT(strncmp(err, "IO error: ", 10) == 0);
  EXPECT(strstr(err, "lock") != NULL || strstr(err, "LOCK") != NULL);
  EXPECT_ERR_CONTAINS(err, "/LOCK");
  /* The first handle still works. */
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  put_ok(db, wo, "k", "v");
  EXPECT_GET(db, ro, "k", "v");
  rocksdb_close(db);
  /* After close the lock is released. */
  db = open_ok(o, path);
  EXPECT_GET(db, ro, "k", "v");
  rocksdb_close(db);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
}

static void open_held_by_other_process(void) {
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  int ready[2], done[2];
  EXPECT(pipe(ready) == 0 && pipe(done) == 0);
  fflush(stderr);
  pid_t pid = fork();
  EXPECT(pid >= 0);
  if (pid == 0) {
    char *err = NULL;
    rocksdb_t *db = rocksdb_open(o, path, &err);
    char c = (db != NULL && err == NULL) ? 'y' : 'n';
    if (write(ready[1], &c, 1) != 1) _exit(3);
    if (read(done[0], &c, 1) != 1) _exit(3);
    if (db != NULL) rocksdb_close(db);
    _exit(0);
  }
  char c = 0;
  EXPECT(read(ready[0], &c, 1) == 1);
  EXPECT(c == 'y');
  char *err = NULL;
  rocksdb_t *db = rocksdb_open(o, path, &err);
  EXPECT(db == NULL);
  EXPECTF(err != NULL, "open of a DB held by another process succeeded");
  /* IO error: While lock file: <db>/LOCK: Resource temporarily unavailable */
  char want[PATH_MAX + 100];
  snprintf(want, sizeof want, "IO error: While lock file: %s/LOCK: Resource temporarily unavailable",
           path);
  EXPECT_ERR_EQ(err, want);
  c = 'x';
  EXPECT(write(done[1], &c, 1) == 1);
  int ws = 0;
  EXPECT(waitpid(pid, &ws, 0) == pid && WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
  /* The child closed: now it opens. */
  db = open_ok(o, path);
  rocksdb_close(db);
  close(ready[0]);
  close(ready[1]);
  close(done[0]);
  close(done[1]);
  rocksdb_options_destroy(o);
}

static void destroy_db_of_missing_path_ok(void) {
  const char *path = db_path("never-created");
  rocksdb_options_t *o = rocksdb_options_create();
  char *err = NULL;
  rocksdb_destroy_db(o, path, &err);
  EXPECT_NO_ERR(err);
  EXPECT(!testc_path_exists(path));
  /* A missing parent directory too: nothing to destroy for solistore; RocksDB 7.8.3 fails to
   * create the LOCK there (docs/design/differences-from-rocksdb.md). */
  char deeper[PATH_MAX];
  snprintf(deeper, sizeof deeper, "%s/no/parent", path);
  rocksdb_destroy_db(o, deeper, &err);
  if (testc_is_solistore()) EXPECT_NO_ERR(err);
  else EXPECT_ERR_PREFIX(err, "IO error: No such file or directory: while open a file for lock: ");
  rocksdb_options_destroy(o);
}

static void destroy_db_removes_data(void) {
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  rocksdb_t *db = open_ok(o, path);
  put_ok(db, wo, "k", "v");
  rocksdb_close(db);
  char *err = NULL;
  rocksdb_destroy_db(o, path, &err);
  EXPECT_NO_ERR(err);
  /* Without create_if_missing it is gone; with it, it is empty. */
  rocksdb_options_t *noc = rocksdb_options_create();
  db = rocksdb_open(noc, path, &err);
  EXPECT(db == NULL);
  EXPECT_ERR_CONTAINS(err, "does not exist");
  db = open_ok(o, path);
  EXPECT_GET(db, ro, "k", NULL);
  rocksdb_close(db);
  rocksdb_options_destroy(noc);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
}

static void destroy_db_while_open_fails(void) {
  /* DestroyDB takes the LOCK first; the open DB holds it, so nothing is removed. */
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  rocksdb_t *db = open_ok(o, path);
  put_ok(db, wo, "k", "v");
  char *err = NULL;
  rocksdb_destroy_db(o, path, &err);
  EXPECTF(err != NULL, "destroy_db of an open DB succeeded");
  fprintf(stderr, "[%s] destroy while open: %s\n", g_phase, err);
  EXPECT(strncmp(err, "IO error: ", 10) == 0);
  EXPECT_ERR_CONTAINS(err, "LOCK");
  EXPECT_GET(db, ro, "k", "v");
  rocksdb_close(db);
  db = open_ok(o, path);
  EXPECT_GET(db, ro, "k", "v");
  rocksdb_close(db);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
}

static void read_only_open(void) {
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  char *err = NULL;
  /* A missing DB cannot be opened read-only, create_if_missing or not. */
  rocksdb_t *rdb = rocksdb_open_for_read_only(o, path, 0, &err);
  EXPECT(rdb == NULL);
  EXPECT_ERR_PREFIX(err, "IO error: ");
  rocksdb_t *db = open_ok(o, path);
  put_ok(db, wo, "k", "v");
  /* Read-only opens take no LOCK: allowed while the writer has it open. */
  rdb = rocksdb_open_for_read_only(o, path, 0, &err);
  EXPECT_NO_ERR(err);
  EXPECT(rdb != NULL);
  EXPECT_GET(rdb, ro, "k", "v"); /* recovered from the WAL */
  rocksdb_put(rdb, wo, S("k2"), S("v2"), &err);
  EXPECT_ERR_EQ(err, "Not implemented: Not supported operation in read only mode.");
  rocksdb_delete(rdb, wo, S("k"), &err);
  EXPECT_ERR_EQ(err, "Not implemented: Not supported operation in read only mode.");
  /* Its view is fixed at open. */
  put_ok(db, wo, "later", "1");
  EXPECT_GET(rdb, ro, "later", NULL);
  rocksdb_close(rdb);
  rocksdb_close(db);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
}

static void reopen_after_close_keeps_data(void) {
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  for (int round = 0; round < 5; round++) {
    rocksdb_t *db = open_ok(o, path);
    char k[32], v[32];
    for (int j = 0; j < round; j++) {
      snprintf(k, sizeof k, "key%d", j);
      snprintf(v, sizeof v, "value%d", j);
      EXPECT_GET(db, ro, k, v);
    }
    snprintf(k, sizeof k, "key%d", round);
    snprintf(v, sizeof v, "value%d", round);
    EXPECT_GET(db, ro, k, NULL);
    put_ok(db, wo, k, v);
    rocksdb_close(db);
  }
  /* Reopen without create_if_missing: it exists now. */
  rocksdb_options_set_create_if_missing(o, 0);
  rocksdb_t *db = open_ok(o, path);
  EXPECT_GET(db, ro, "key4", "value4");
  rocksdb_close(db);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
}

static void options_copied_at_open(void) {
  /* rocksdb_open copies the options: destroying them right after open is fine. */
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_t *db = open_ok(o, path);
  rocksdb_options_destroy(o);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  put_ok(db, wo, "a", "1");
  EXPECT_GET(db, ro, "a", "1");
  rocksdb_close(db);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
}

static void empty_existing_directory_opens_as_new(void) {
  const char *path = db_path("db");
  EXPECT(mkdir(path, 0700) == 0);
  /* Without create_if_missing an empty directory is still "missing". */
  rocksdb_options_t *o = rocksdb_options_create();
  char *err = NULL;
  rocksdb_t *db = rocksdb_open(o, path, &err);
  EXPECT(db == NULL);
  EXPECT_ERR_CONTAINS(err, "does not exist (create_if_missing is false)");
  rocksdb_options_set_create_if_missing(o, 1);
  db = open_ok(o, path);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  EXPECT_GET(db, ro, "k", NULL);
  put_ok(db, wo, "k", "v");
  rocksdb_close(db);
  db = open_ok(o, path);
  EXPECT_GET(db, ro, "k", "v");
  rocksdb_close(db);
  /* A nested path whose parent exists also works (Kommander's <path>/<revision>). */
  char nested[PATH_MAX];
  snprintf(nested, sizeof nested, "%s/rev1", path);
  EXPECT(mkdir(nested, 0700) == 0);
  db = open_ok(o, nested);
  put_ok(db, wo, "n", "1");
  rocksdb_close(db);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
}

static void create_if_missing_creates_directory(void) {
  /* create_if_missing creates the DB directory itself. */
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  EXPECT(!testc_path_exists(path));
  rocksdb_t *db = open_ok(o, path);
  EXPECT(testc_path_exists(path));
  char cur[PATH_MAX];
  snprintf(cur, sizeof cur, "%s/CURRENT", path);
  EXPECT(testc_path_exists(cur));
  snprintf(cur, sizeof cur, "%s/LOCK", path);
  EXPECT(testc_path_exists(cur));
  rocksdb_close(db);
  rocksdb_options_destroy(o);
}

static void open_error_replaces_preset_message(void) {
  /* errptr convention: a failing call frees the old message and stores a new one. */
  const char *path = db_path("db");
  rocksdb_options_t *o = rocksdb_options_create();
  char *err = strdup("old error");
  rocksdb_t *db = rocksdb_open(o, path, &err);
  EXPECT(db == NULL);
  EXPECT_ERR_PREFIX(err, "Invalid argument: ");
  /* A successful open leaves a pre-set message untouched. */
  rocksdb_options_set_create_if_missing(o, 1);
  err = strdup("old error");
  db = rocksdb_open(o, path, &err);
  EXPECT(db != NULL);
  EXPECT(err != NULL && strcmp(err, "old error") == 0);
  free(err);
  rocksdb_close(db);
  rocksdb_options_destroy(o);
}

static void wal_dir_holds_the_wal(void) {
  /* With wal_dir set, the WAL lives there (not in the DB directory) and recovery reads it.
   * solistore keeps the WAL in the DB directory: it accepts wal_dir = the DB directory and
   * refuses any other with `Not implemented: ` (rather than ignore it), creating nothing. */
  const char *path = db_path("db");
  const char *wal = db_path("wal");
  rocksdb_options_t *o = opts_create();
  rocksdb_options_set_wal_dir(o, wal);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  char *err = NULL;
  rocksdb_t *db = rocksdb_open(o, path, &err);
  if (testc_is_solistore()) {
    EXPECT(db == NULL);
    EXPECT_ERR_PREFIX(err, "Not implemented: wal_dir ");
    EXPECT(!testc_path_exists(path));
    rocksdb_options_set_wal_dir(o, path);
    db = open_ok(o, path);
    put_ok(db, wo, "k", "v");
    EXPECT(count_files(path, ".log", NULL) >= 1);
    rocksdb_close(db);
    rocksdb_options_set_wal_dir(o, "");
    db = open_ok(o, path);
    EXPECT_GET(db, ro, "k", "v");
    rocksdb_close(db);
    rocksdb_readoptions_destroy(ro);
    rocksdb_writeoptions_destroy(wo);
    rocksdb_options_destroy(o);
    return;
  }
  EXPECT_NO_ERR(err);
  put_ok(db, wo, "k", "v");
  EXPECTF(count_files(wal, ".log", NULL) >= 1, "no .log file in the wal_dir");
  EXPECTF(count_files(path, ".log", NULL) == 0, "a .log file in the DB directory despite wal_dir");
  rocksdb_close(db);
  db = open_ok(o, path);
  EXPECT_GET(db, ro, "k", "v");
  rocksdb_close(db);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
}

/* error_if_wal_file_exists: RocksDB's single-family read-only open ignores it; the
 * column-family form fails when any WAL file is in the directory, with RocksDB's exact text. */
static void read_only_error_if_wal_file_exists(void) {
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  char *err = NULL;
  rocksdb_t *db = open_ok(o, path);
  put_ok(db, wo, "k", "v");
  rocksdb_close(db);
  EXPECTF(count_files(path, ".log", NULL) >= 1, "no WAL file after a write");
  rocksdb_t *rdb = rocksdb_open_for_read_only(o, path, 1, &err);
  EXPECT_NO_ERR(err);
  EXPECT(rdb != NULL);
  EXPECT_GET(rdb, ro, "k", "v");
  rocksdb_close(rdb);
  const char *names[1] = {"default"};
  const rocksdb_options_t *cf_opts[1] = {o};
  rocksdb_column_family_handle_t *h[1] = {NULL};
  rdb = rocksdb_open_for_read_only_column_families(o, path, 1, names, cf_opts, h, 1, &err);
  EXPECT(rdb == NULL);
  EXPECT_ERR_EQ(err, "Corruption: The db was opened in readonly mode with error_if_wal_file_exists"
                     "flag but a WAL file already exists");
  rdb = rocksdb_open_for_read_only_column_families(o, path, 1, names, cf_opts, h, 0, &err);
  EXPECT_NO_ERR(err);
  EXPECT(rdb != NULL);
  EXPECT_GET_CF(rdb, ro, h[0], "k", "v");
  rocksdb_column_family_handle_destroy(h[0]);
  rocksdb_close(rdb);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
}

/* Removes every file of `dir` whose name starts with `prefix`; returns how many. */
static int remove_files_with_prefix(const char *dir, const char *prefix) {
  DIR *d = opendir(dir);
  EXPECTF(d != NULL, "opendir %s", dir);
  int n = 0;
  struct dirent *e;
  char p[PATH_MAX];
  while ((e = readdir(d)) != NULL) {
    if (strncmp(e->d_name, prefix, strlen(prefix)) != 0) continue;
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    EXPECTF(unlink(p) == 0, "unlink %s", p);
    n++;
  }
  closedir(d);
  return n;
}

/* rocksdb_repair_db rebuilds a lost MANIFEST as RocksDB's RepairDB does: tables come back in
 * the column family their properties name (created again), the WALs' unflushed writes are
 * kept, an unreadable table and the old MANIFEST go to <db>/lost/, and the DB then opens. */
static void repair_db_rebuilds_a_lost_manifest(void) {
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_options_set_create_missing_column_families(o, 1);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  char *err = NULL;
  rocksdb_t *db = open_ok(o, path);
  rocksdb_column_family_handle_t *cf = rocksdb_create_column_family(db, o, "cf1", &err);
  EXPECT_NO_ERR(err);
  put_ok(db, wo, "a", "A");
  rocksdb_put_cf(db, wo, cf, S("ca"), S("CA"), &err);
  EXPECT_NO_ERR(err);
  flush_ok(db);
  flush_cf_ok(db, cf);
  put_ok(db, wo, "b", "B");   /* only in the WAL */
  put_ok(db, wo, "a", "A2");  /* newer than the table's */
  rocksdb_put_cf(db, wo, cf, S("cb"), S("CB"), &err);
  EXPECT_NO_ERR(err);
  rocksdb_column_family_handle_destroy(cf);
  rocksdb_close(db);
  EXPECT(remove_files_with_prefix(path, "MANIFEST-") >= 1);
  char junk[PATH_MAX];
  snprintf(junk, sizeof junk, "%s/000999.sst", path);
  FILE *f = fopen(junk, "w");
  EXPECT(f != NULL);
  fputs("not a table", f);
  fclose(f);

  rocksdb_repair_db(o, path, &err);
  EXPECT_NO_ERR(err);
  char lost[PATH_MAX];
  snprintf(lost, sizeof lost, "%s/lost/000999.sst", path);
  EXPECTF(testc_path_exists(lost), "the unreadable table is not in lost/");
  EXPECTF(!testc_path_exists(junk), "the unreadable table is still in the DB");
  size_t n = 0;
  char **names = rocksdb_list_column_families(o, path, &n, &err);
  EXPECT_NO_ERR(err);
  EXPECT(n == 2 && strcmp(names[0], "default") == 0 && strcmp(names[1], "cf1") == 0);
  rocksdb_list_column_families_destroy(names, n);
  const char *cf_names[2] = {"default", "cf1"};
  const rocksdb_options_t *cf_opts[2] = {o, o};
  rocksdb_column_family_handle_t *h[2] = {NULL, NULL};
  db = rocksdb_open_column_families(o, path, 2, cf_names, cf_opts, h, &err);
  EXPECT_NO_ERR(err);
  EXPECT_GET(db, ro, "a", "A2");
  EXPECT_GET(db, ro, "b", "B");
  EXPECT_GET_CF(db, ro, h[1], "ca", "CA");
  EXPECT_GET_CF(db, ro, h[1], "cb", "CB");
  put_ok(db, wo, "c", "C");
  rocksdb_column_family_handle_destroy(h[0]);
  rocksdb_column_family_handle_destroy(h[1]);
  rocksdb_close(db);
  /* A healthy DB repairs to the same contents. */
  rocksdb_repair_db(o, path, &err);
  EXPECT_NO_ERR(err);
  db = rocksdb_open_column_families(o, path, 2, cf_names, cf_opts, h, &err);
  EXPECT_NO_ERR(err);
  EXPECT_GET(db, ro, "a", "A2");
  EXPECT_GET(db, ro, "c", "C");
  EXPECT_GET_CF(db, ro, h[1], "cb", "CB");
  /* Not while it is open (the LOCK), and not where there is no directory. */
  rocksdb_repair_db(o, path, &err);
  EXPECT_ERR_PREFIX(err, "IO error: lock hold by current process");
  rocksdb_column_family_handle_destroy(h[0]);
  rocksdb_column_family_handle_destroy(h[1]);
  rocksdb_close(db);
  char missing[PATH_MAX];
  snprintf(missing, sizeof missing, "%s/no/such/db", path);
  rocksdb_repair_db(o, missing, &err);
  EXPECT_ERR_PREFIX(err, "IO error: No such file or directory: while open a file for lock: ");
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
}

TESTC_MAIN("test_open", P(missing_db_without_create_if_missing), P(error_if_exists),
           P(second_open_in_process_fails_on_lock), P(open_held_by_other_process),
           P(destroy_db_of_missing_path_ok), P(destroy_db_removes_data), P(destroy_db_while_open_fails), P(read_only_open),
           P(read_only_error_if_wal_file_exists), P(repair_db_rebuilds_a_lost_manifest),
           P(reopen_after_close_keeps_data), P(options_copied_at_open),
           P(empty_existing_directory_opens_as_new),
           P(create_if_missing_creates_directory),
           P(open_error_replaces_preset_message), P(wal_dir_holds_the_wal))
