/* SPDX-License-Identifier: Apache-2.0
 * Checkpoints: an openable copy of a live DB in a new directory. What the copy holds (flushed
 * and unflushed data, every column family, nothing written later), the target directory
 * rules ("Invalid argument: Directory exists"), log_size_for_flush (0 flushes the memtables
 * first; a huge value copies the WAL instead and flushes nothing), tables hard-linked on the
 * same file system, independence from the source (later writes, compactions, destroy_db of
 * the source), one checkpoint object reused, a checkpoint of a checkpoint, and a read-only
 * open of a copy.
 * The phase checkpoint_object_outlives_db is solistore only: RocksDB would use the closed
 * DB's freed memory. */
#include "common.h"

/* ------------------------------------------------------------------ helpers */

/* Total size in bytes of the entries of `dir` ending with `suffix`. */
static long long size_of_files(const char *dir, const char *suffix) {
  DIR *d = opendir(dir);
  EXPECTF(d != NULL, "opendir %s", dir);
  long long total = 0;
  size_t sl = strlen(suffix);
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    size_t l = strlen(e->d_name);
    if (l < sl || strcmp(e->d_name + l - sl, suffix) != 0) continue;
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    struct stat st;
    EXPECT(stat(p, &st) == 0);
    total += (long long)st.st_size;
  }
  closedir(d);
  return total;
}

static void checkpoint_ok(rocksdb_t *db, const char *dir, uint64_t log_size_for_flush) {
  char *err = NULL;
  rocksdb_checkpoint_t *cp = rocksdb_checkpoint_object_create(db, &err);
  EXPECT_NO_ERR(err);
  EXPECT(cp != NULL);
  rocksdb_checkpoint_create(cp, dir, log_size_for_flush, &err);
  EXPECT_NO_ERR(err);
  rocksdb_checkpoint_object_destroy(cp);
}

/* Opens (creating) `path` with `o` and writes keys k000..k<n-1> = `value`, flushed. */
static rocksdb_t *open_with_flushed_keys(const rocksdb_options_t *o, const char *path, int n,
                                         const char *value) {
  rocksdb_t *db = open_ok(o, path);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  char k[32];
  for (int i = 0; i < n; i++) {
    snprintf(k, sizeof k, "k%03d", i);
    put_ok(db, wo, k, value);
  }
  rocksdb_writeoptions_destroy(wo);
  flush_ok(db);
  return db;
}

/* Options for opening a copy: it must exist already. */
static rocksdb_options_t *opts_existing(void) {
  rocksdb_options_t *o = rocksdb_options_create();
  rocksdb_options_set_create_if_missing(o, 0);
  return o;
}

/* ------------------------------------------------------------------ phases */

static void copy_holds_flushed_and_unflushed_data(void) {
  const char *src = db_path("src");
  const char *cpd = db_path("cp");
  rocksdb_options_t *o = opts_create();
  rocksdb_t *db = open_ok(o, src);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  put_ok(db, wo, "flushed", "1");
  put_ok(db, wo, "deleted", "x");
  flush_ok(db);
  put_ok(db, wo, "memtable", "2");
  char *err = NULL;
  rocksdb_delete(db, wo, S("deleted"), &err);
  EXPECT_NO_ERR(err);
  EXPECT(!testc_path_exists(cpd));
  checkpoint_ok(db, cpd, 0);
  EXPECT(testc_path_exists(cpd));
  /* Written after the checkpoint: in the source only. */
  put_ok(db, wo, "later", "3");
  rocksdb_options_t *oe = opts_existing();
  rocksdb_t *copy = open_ok(oe, cpd);
  EXPECT_GET(copy, ro, "flushed", "1");
  EXPECT_GET(copy, ro, "memtable", "2");
  EXPECT_GET(copy, ro, "deleted", NULL);
  EXPECT_GET(copy, ro, "later", NULL);
  /* Written to the copy: in the copy only. */
  put_ok(copy, wo, "in-copy", "4");
  EXPECT_GET(db, ro, "in-copy", NULL);
  EXPECT_GET(db, ro, "later", "3");
  rocksdb_close(copy);
  copy = open_ok(oe, cpd);
  EXPECT_GET(copy, ro, "in-copy", "4");
  EXPECT_GET(copy, ro, "memtable", "2");
  rocksdb_close(copy);
  rocksdb_close(db);
  rocksdb_options_destroy(oe);
  rocksdb_options_destroy(o);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
}

static void existing_directory_refused(void) {
  const char *src = db_path("src");
  const char *cpd = db_path("cp");
  rocksdb_options_t *o = opts_create();
  rocksdb_t *db = open_ok(o, src);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  put_ok(db, wo, "k", "v");
  /* An existing directory, even an empty one, is refused and left as it was. */
  EXPECT(mkdir(cpd, 0755) == 0);
  char *err = NULL;
  rocksdb_checkpoint_t *cp = rocksdb_checkpoint_object_create(db, &err);
  EXPECT_NO_ERR(err);
  rocksdb_checkpoint_create(cp, cpd, 0, &err);
  EXPECT_ERR_EQ(err, "Invalid argument: Directory exists");
  EXPECT(count_files(cpd, "", NULL) == 2); /* "." and ".." */
  /* The same object then works for a fresh directory; the source is untouched. */
  const char *cpd2 = db_path("cp2");
  rocksdb_checkpoint_create(cp, cpd2, 0, &err);
  EXPECT_NO_ERR(err);
  /* And a second checkpoint into that one is refused too. */
  rocksdb_checkpoint_create(cp, cpd2, 0, &err);
  EXPECT_ERR_EQ(err, "Invalid argument: Directory exists");
  rocksdb_checkpoint_object_destroy(cp);
  put_ok(db, wo, "k2", "v2");
  rocksdb_close(db);
  rocksdb_options_t *oe = opts_existing();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  rocksdb_t *copy = open_ok(oe, cpd2);
  EXPECT_GET(copy, ro, "k", "v");
  EXPECT_GET(copy, ro, "k2", NULL);
  rocksdb_close(copy);
  rocksdb_readoptions_destroy(ro);
  rocksdb_options_destroy(oe);
  rocksdb_options_destroy(o);
  rocksdb_writeoptions_destroy(wo);
}

static void log_size_for_flush(void) {
  /* 0: the memtables are flushed first (the source gains a table). UINT64_MAX: nothing is
   * flushed; the WAL is copied and the copy recovers the writes from it. */
  const char *src = db_path("src");
  rocksdb_options_t *o = opts_create();
  rocksdb_t *db = open_ok(o, src);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  put_ok(db, wo, "a", "1");
  EXPECT(count_files(src, ".sst", NULL) == 0);
  const char *walcp = db_path("walcp");
  checkpoint_ok(db, walcp, UINT64_MAX);
  EXPECTF(count_files(src, ".sst", NULL) == 0, "the source was flushed");
  EXPECT(count_files(walcp, ".sst", NULL) == 0);
  EXPECTF(size_of_files(walcp, ".log") > 0, "no WAL bytes in the copy");
  put_ok(db, wo, "b", "2");
  const char *flushcp = db_path("flushcp");
  checkpoint_ok(db, flushcp, 0);
  EXPECTF(count_files(src, ".sst", NULL) >= 1, "log_size_for_flush = 0 did not flush");
  EXPECT(count_files(flushcp, ".sst", NULL) >= 1);
  rocksdb_close(db);
  rocksdb_options_t *oe = opts_existing();
  rocksdb_t *copy = open_ok(oe, walcp);
  EXPECT_GET(copy, ro, "a", "1");
  EXPECT_GET(copy, ro, "b", NULL);
  rocksdb_close(copy);
  copy = open_ok(oe, flushcp);
  EXPECT_GET(copy, ro, "a", "1");
  EXPECT_GET(copy, ro, "b", "2");
  rocksdb_close(copy);
  rocksdb_options_destroy(oe);
  rocksdb_options_destroy(o);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
}

static void column_families_in_copy(void) {
  const char *src = db_path("src");
  const char *cpd = db_path("cp");
  rocksdb_options_t *o = opts_create();
  rocksdb_options_set_create_missing_column_families(o, 1);
  const char *names[3] = {"default", "meta", "data"};
  const rocksdb_options_t *cf_opts[3] = {o, o, o};
  rocksdb_column_family_handle_t *hs[3];
  char *err = NULL;
  rocksdb_t *db = rocksdb_open_column_families(o, src, 3, names, cf_opts, hs, &err);
  EXPECT_NO_ERR(err);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  rocksdb_writebatch_t *b = rocksdb_writebatch_create();
  rocksdb_writebatch_put_cf(b, hs[1], S("m"), S("meta-v"));
  rocksdb_writebatch_put_cf(b, hs[2], S("d"), S("data-v"));
  rocksdb_write(db, wo, b, &err);
  EXPECT_NO_ERR(err);
  rocksdb_writebatch_destroy(b);
  flush_cf_ok(db, hs[2]);
  rocksdb_put_cf(db, wo, hs[2], S("d2"), S("unflushed"), &err);
  EXPECT_NO_ERR(err);
  checkpoint_ok(db, cpd, 0);
  for (int i = 0; i < 3; i++) rocksdb_column_family_handle_destroy(hs[i]);
  rocksdb_close(db);
  /* The copy lists the same column families and opens with all of them. */
  size_t n = 0;
  char **listed = rocksdb_list_column_families(o, cpd, &n, &err);
  EXPECT_NO_ERR(err);
  EXPECT(n == 3);
  int seen = 0;
  for (size_t i = 0; i < n; i++)
    for (int j = 0; j < 3; j++)
      if (strcmp(listed[i], names[j]) == 0) seen |= 1 << j;
  EXPECT(seen == 7);
  rocksdb_list_column_families_destroy(listed, n);
  rocksdb_options_t *oe = opts_existing();
  const rocksdb_options_t *cf_oe[3] = {oe, oe, oe};
  db = rocksdb_open_column_families(oe, cpd, 3, names, cf_oe, hs, &err);
  EXPECT_NO_ERR(err);
  EXPECT_GET_CF(db, ro, hs[1], "m", "meta-v");
  EXPECT_GET_CF(db, ro, hs[2], "d", "data-v");
  EXPECT_GET_CF(db, ro, hs[2], "d2", "unflushed");
  EXPECT_GET_CF(db, ro, hs[0], "m", NULL);
  for (int i = 0; i < 3; i++) rocksdb_column_family_handle_destroy(hs[i]);
  rocksdb_close(db);
  rocksdb_options_destroy(oe);
  rocksdb_options_destroy(o);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
}

static void tables_hard_linked(void) {
  /* On the same file system the copy's tables are hard links to the source's. */
  const char *src = db_path("src");
  const char *cpd = db_path("cp");
  rocksdb_options_t *o = opts_create();
  rocksdb_t *db = open_with_flushed_keys(o, src, 100, "value");
  checkpoint_ok(db, cpd, 0);
  nlink_t links = 0;
  int n = count_files(cpd, ".sst", &links);
  EXPECT(n >= 1);
  EXPECTF(links >= 2, "a table in the checkpoint has %u link(s), wanted a hard link",
          (unsigned)links);
  rocksdb_close(db);
  rocksdb_options_destroy(o);
}

static void copy_independent_of_source(void) {
  /* After the checkpoint the source deletes and compacts (its old tables go), then is
   * destroyed: the copy still has the data of the moment it was made. */
  const char *src = db_path("src");
  const char *cpd = db_path("cp");
  rocksdb_options_t *o = opts_create();
  rocksdb_t *db = open_with_flushed_keys(o, src, 200, "before");
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  char k[32];
  checkpoint_ok(db, cpd, 0);
  char *err = NULL;
  for (int i = 0; i < 200; i += 2) {
    snprintf(k, sizeof k, "k%03d", i);
    rocksdb_delete(db, wo, S(k), &err);
    EXPECT_NO_ERR(err);
  }
  flush_ok(db);
  rocksdb_compact_range(db, NULL, 0, NULL, 0);
  EXPECT_GET(db, ro, "k000", NULL);
  rocksdb_close(db);
  rocksdb_destroy_db(o, src, &err);
  EXPECT_NO_ERR(err);
  rocksdb_options_t *oe = opts_existing();
  rocksdb_t *copy = open_ok(oe, cpd);
  for (int i = 0; i < 200; i++) {
    snprintf(k, sizeof k, "k%03d", i);
    EXPECT_GET(copy, ro, k, "before");
  }
  rocksdb_close(copy);
  rocksdb_options_destroy(oe);
  rocksdb_options_destroy(o);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
}

static void checkpoint_of_a_checkpoint_and_read_only(void) {
  const char *src = db_path("src");
  const char *cp1 = db_path("cp1");
  const char *cp2 = db_path("cp2");
  rocksdb_options_t *o = opts_create();
  rocksdb_t *db = open_ok(o, src);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  put_ok(db, wo, "k", "v1");
  checkpoint_ok(db, cp1, 0);
  rocksdb_close(db);
  rocksdb_options_t *oe = opts_existing();
  rocksdb_t *copy = open_ok(oe, cp1);
  put_ok(copy, wo, "k", "v2");
  checkpoint_ok(copy, cp2, UINT64_MAX);
  rocksdb_close(copy);
  /* Read-only opens of both copies. */
  char *err = NULL;
  rocksdb_t *r1 = rocksdb_open_for_read_only(oe, cp1, 0, &err);
  EXPECT_NO_ERR(err);
  rocksdb_t *r2 = rocksdb_open_for_read_only(oe, cp2, 0, &err);
  EXPECT_NO_ERR(err);
  EXPECT_GET(r1, ro, "k", "v2");
  EXPECT_GET(r2, ro, "k", "v2");
  rocksdb_close(r2);
  rocksdb_close(r1);
  rocksdb_options_destroy(oe);
  rocksdb_options_destroy(o);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
}

static void checkpoint_object_outlives_db(void) {
  REQUIRE_SOLISTORE("RocksDB uses the closed DB's freed memory");
  const char *src = db_path("src");
  rocksdb_options_t *o = opts_create();
  rocksdb_t *db = open_ok(o, src);
  char *err = NULL;
  rocksdb_checkpoint_t *cp = rocksdb_checkpoint_object_create(db, &err);
  EXPECT_NO_ERR(err);
  rocksdb_close(db);
  const char *cpd = db_path("cp");
  rocksdb_checkpoint_create(cp, cpd, 0, &err);
  EXPECT_ERR_PREFIX(err, "Invalid argument: ");
  EXPECT(!testc_path_exists(cpd));
  rocksdb_checkpoint_object_destroy(cp);
  /* NULL handles and a NULL directory are errors, not crashes. */
  EXPECT(rocksdb_checkpoint_object_create(NULL, &err) == NULL);
  EXPECT_ERR_PREFIX(err, "Invalid argument: ");
  rocksdb_checkpoint_create(NULL, cpd, 0, &err);
  EXPECT_ERR_PREFIX(err, "Invalid argument: ");
  db = open_ok(o, src);
  cp = rocksdb_checkpoint_object_create(db, &err);
  EXPECT_NO_ERR(err);
  rocksdb_checkpoint_create(cp, NULL, 0, &err);
  EXPECT_ERR_PREFIX(err, "Invalid argument: ");
  rocksdb_checkpoint_object_destroy(cp);
  rocksdb_checkpoint_object_destroy(NULL);
  rocksdb_close(db);
  rocksdb_options_destroy(o);
}

TESTC_MAIN("test_checkpoint", P(copy_holds_flushed_and_unflushed_data),
           P(existing_directory_refused), P(log_size_for_flush), P(column_families_in_copy),
           P(tables_hard_linked), P(copy_independent_of_source),
           P(checkpoint_of_a_checkpoint_and_read_only), P(checkpoint_object_outlives_db))
