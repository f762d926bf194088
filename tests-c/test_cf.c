/* SPDX-License-Identifier: Apache-2.0
 * Column families: create/drop/list, handle name and id, open_column_families with every CF,
 * the "Column families not opened" / "Column family not found" / "already exists" / "Can't
 * drop default" texts, create_missing_column_families, isolation between CFs, multi_get_cf. */
#include "common.h"

/* Lists the column families of `path` as "a,b,c" (in the library's order). */
static const char *list_cfs(const rocksdb_options_t *o, const char *path, char *buf, size_t cap) {
  char *err = NULL;
  size_t n = 0;
  char **names = rocksdb_list_column_families(o, path, &n, &err);
  EXPECT_NO_ERR(err);
  EXPECT(names != NULL);
  size_t len = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < n; i++) {
    int w = snprintf(buf + len, cap - len, "%s%s", i ? "," : "", names[i]);
    EXPECT(w > 0 && (size_t)w < cap - len);
    len += (size_t)w;
  }
  rocksdb_list_column_families_destroy(names, n);
  return buf;
}

#define EXPECT_CFS(o, path, want)                                                       \
  do {                                                                                  \
    char cfs_buf_[512];                                                                 \
    const char *got_ = list_cfs((o), (path), cfs_buf_, sizeof cfs_buf_);                \
    EXPECTF(strcmp(got_, (want)) == 0, "column families \"%s\", wanted \"%s\"", got_, (want)); \
  } while (0)

static rocksdb_t *open_cfs(const rocksdb_options_t *o, const char *path, int n,
                           const char *const *names, rocksdb_column_family_handle_t **hs,
                           char **err) {
  const rocksdb_options_t *cf_opts[16];
  EXPECT(n <= 16);
  for (int i = 0; i < n; i++) cf_opts[i] = o;
  return rocksdb_open_column_families(o, path, n, names, cf_opts, hs, err);
}

static void destroy_handles(rocksdb_column_family_handle_t **hs, int n) {
  for (int i = 0; i < n; i++) rocksdb_column_family_handle_destroy(hs[i]);
}

static void create_list_drop(void) {
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_t *db = open_ok(o, path);
  char *err = NULL;
  EXPECT_CFS(o, path, "default");
  rocksdb_column_family_handle_t *cf1 = rocksdb_create_column_family(db, o, "cf1", &err);
  EXPECT_NO_ERR(err);
  EXPECT(cf1 != NULL);
  rocksdb_column_family_handle_t *cf2 = rocksdb_create_column_family(db, o, "cf2", &err);
  EXPECT_NO_ERR(err);
  EXPECT(cf2 != NULL);
  /* Listing works while the DB is open. */
  EXPECT_CFS(o, path, "default,cf1,cf2");
  /* Name (malloc'd, not NUL-terminated) and id. */
  size_t nl = 0;
  char *name = rocksdb_column_family_handle_get_name(cf2, &nl);
  EXPECT_BYTES(name, nl, "cf2");
  free(name);
  EXPECT(rocksdb_column_family_handle_get_id(cf1) == 1);
  EXPECT(rocksdb_column_family_handle_get_id(cf2) == 2);
  rocksdb_drop_column_family(db, cf1, &err);
  EXPECT_NO_ERR(err);
  EXPECT_CFS(o, path, "default,cf2");
  /* A dropped CF's handle is still destroyable. */
  rocksdb_column_family_handle_destroy(cf1);
  /* Ids are not reused. */
  rocksdb_column_family_handle_t *cf3 = rocksdb_create_column_family(db, o, "cf3", &err);
  EXPECT_NO_ERR(err);
  EXPECT(rocksdb_column_family_handle_get_id(cf3) == 3);
  rocksdb_column_family_handle_destroy(cf2);
  rocksdb_column_family_handle_destroy(cf3);
  rocksdb_close(db);
  EXPECT_CFS(o, path, "default,cf2,cf3");
  rocksdb_options_destroy(o);
}

static void create_errors(void) {
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_column_family_handle_t *def = NULL;
  rocksdb_t *db = open_default_cf(o, path, &def);
  char *err = NULL;
  rocksdb_column_family_handle_t *cf1 = rocksdb_create_column_family(db, o, "cf1", &err);
  EXPECT_NO_ERR(err);
  rocksdb_column_family_handle_t *again = rocksdb_create_column_family(db, o, "cf1", &err);
  EXPECT_ERR_EQ(err, "Invalid argument: Column family already exists");
  /* 7.8.3 leaks a non-NULL handle here; newer RocksDB (and solistore) return NULL. */
  if (testc_is_solistore()) EXPECT(again == NULL);
  if (again != NULL) rocksdb_column_family_handle_destroy(again);
  again = rocksdb_create_column_family(db, o, "default", &err);
  EXPECT_ERR_EQ(err, "Invalid argument: Column family already exists");
  if (testc_is_solistore()) EXPECT(again == NULL);
  if (again != NULL) rocksdb_column_family_handle_destroy(again);
  rocksdb_drop_column_family(db, def, &err);
  EXPECT_ERR_EQ(err, "Invalid argument: Can't drop default column family");
  /* Still usable after the failures. */
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_put_cf(db, wo, cf1, S("k"), S("v"), &err);
  EXPECT_NO_ERR(err);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_column_family_handle_destroy(cf1);
  rocksdb_column_family_handle_destroy(def);
  rocksdb_close(db);
  EXPECT_CFS(o, path, "default,cf1");
  rocksdb_options_destroy(o);
}

static void isolation_and_reopen_with_all(void) {
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_options_set_create_missing_column_families(o, 1);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  const char *names[4] = {"default", "alpha", "beta", "gamma"};
  rocksdb_column_family_handle_t *hs[4];
  char *err = NULL;
  rocksdb_t *db = open_cfs(o, path, 4, names, hs, &err);
  EXPECT_NO_ERR(err);
  for (int c = 0; c < 4; c++) {
    rocksdb_put_cf(db, wo, hs[c], S("shared"), S(names[c]), &err);
    EXPECT_NO_ERR(err);
    rocksdb_put_cf(db, wo, hs[c], S(names[c]), S("own"), &err);
    EXPECT_NO_ERR(err);
  }
  rocksdb_delete_cf(db, wo, hs[2], S("shared"), &err);
  EXPECT_NO_ERR(err);
  for (int round = 0; round < 2; round++) {
    for (int c = 0; c < 4; c++) {
      EXPECT_GET_CF(db, ro, hs[c], "shared", c == 2 ? NULL : names[c]);
      for (int d = 0; d < 4; d++) EXPECT_GET_CF(db, ro, hs[c], names[d], c == d ? "own" : NULL);
    }
    EXPECT_GET(db, ro, "shared", "default");
    destroy_handles(hs, 4);
    rocksdb_close(db);
    /* Reopen with every CF (create_missing off), in a different order than created. */
    rocksdb_options_t *o2 = rocksdb_options_create();
    const char *reordered[4] = {"gamma", "default", "beta", "alpha"};
    rocksdb_column_family_handle_t *tmp[4];
    db = open_cfs(o2, path, 4, reordered, tmp, &err);
    EXPECT_NO_ERR(err);
    hs[3] = tmp[0];
    hs[0] = tmp[1];
    hs[2] = tmp[2];
    hs[1] = tmp[3];
    rocksdb_options_destroy(o2);
  }
  destroy_handles(hs, 4);
  rocksdb_close(db);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
}

static void not_opened_and_not_found_texts(void) {
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_options_set_create_missing_column_families(o, 1);
  const char *names[3] = {"default", "cf1", "cf2"};
  rocksdb_column_family_handle_t *hs[3];
  char *err = NULL;
  rocksdb_t *db = open_cfs(o, path, 3, names, hs, &err);
  EXPECT_NO_ERR(err);
  destroy_handles(hs, 3);
  rocksdb_close(db);

  rocksdb_options_t *plain = rocksdb_options_create(); /* no create_missing_column_families */
  /* Leaving out one existing CF. */
  const char *two[2] = {"default", "cf1"};
  db = open_cfs(plain, path, 2, two, hs, &err);
  EXPECT(db == NULL);
  EXPECT_ERR_EQ(err, "Invalid argument: Column families not opened: cf2");
  /* Leaving out two: both named, comma-separated. */
  const char *one[1] = {"default"};
  db = open_cfs(plain, path, 1, one, hs, &err);
  EXPECT(db == NULL);
  EXPECTF(err != NULL, "open without cf1, cf2 succeeded");
  EXPECT(strncmp(err, "Invalid argument: Column families not opened: ", 46) == 0);
  EXPECT(strstr(err, "cf1") != NULL && strstr(err, "cf2") != NULL && strstr(err, ", ") != NULL);
  free(err);
  err = NULL;
  /* rocksdb_open (default only) on a DB with more CFs fails the same way. */
  db = rocksdb_open(plain, path, &err);
  EXPECT(db == NULL);
  EXPECT_ERR_PREFIX(err, "Invalid argument: Column families not opened: ");
  /* Naming a CF that does not exist without create_missing_column_families. */
  const char *four[4] = {"default", "cf1", "cf2", "nocf"};
  rocksdb_column_family_handle_t *h4[4];
  db = open_cfs(plain, path, 4, four, h4, &err);
  EXPECT(db == NULL);
  EXPECT_ERR_EQ(err, "Invalid argument: Column family not found: nocf");
  /* With it, nocf is created. */
  rocksdb_options_set_create_missing_column_families(plain, 1);
  db = open_cfs(plain, path, 4, four, h4, &err);
  EXPECT_NO_ERR(err);
  EXPECT(db != NULL);
  destroy_handles(h4, 4);
  rocksdb_close(db);
  EXPECT_CFS(o, path, "default,cf1,cf2,nocf");
  rocksdb_options_destroy(plain);
  rocksdb_options_destroy(o);
}

static void list_missing_db(void) {
  const char *path = db_path("missing");
  rocksdb_options_t *o = rocksdb_options_create();
  char *err = NULL;
  size_t n = 99;
  char **names = rocksdb_list_column_families(o, path, &n, &err);
  EXPECT(n == 0);
  char want[PATH_MAX + 200];
  snprintf(want, sizeof want,
           "IO error: No such file or directory: While opening a file for sequentially reading: "
           "%s/CURRENT: No such file or directory",
           path);
  EXPECT_ERR_EQ(err, want);
  /* Destroy accepts whatever came back with length 0. */
  rocksdb_list_column_families_destroy(names, 0);
  rocksdb_options_destroy(o);
}

static void dropped_cf_gone_after_reopen(void) {
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_options_set_create_missing_column_families(o, 1);
  const char *names[3] = {"default", "keep", "drop"};
  rocksdb_column_family_handle_t *hs[3];
  char *err = NULL;
  rocksdb_t *db = open_cfs(o, path, 3, names, hs, &err);
  EXPECT_NO_ERR(err);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  rocksdb_put_cf(db, wo, hs[1], S("k"), S("keep"), &err);
  EXPECT_NO_ERR(err);
  rocksdb_put_cf(db, wo, hs[2], S("k"), S("drop"), &err);
  EXPECT_NO_ERR(err);
  rocksdb_drop_column_family(db, hs[2], &err);
  EXPECT_NO_ERR(err);
  destroy_handles(hs, 3);
  rocksdb_close(db);
  EXPECT_CFS(o, path, "default,keep");
  rocksdb_options_t *plain = rocksdb_options_create();
  db = open_cfs(plain, path, 3, names, hs, &err);
  EXPECT(db == NULL);
  EXPECT_ERR_EQ(err, "Invalid argument: Column family not found: drop");
  /* Recreating it (create_missing) gives an empty CF. */
  db = open_cfs(o, path, 3, names, hs, &err);
  EXPECT_NO_ERR(err);
  EXPECT_GET_CF(db, ro, hs[1], "k", "keep");
  EXPECT_GET_CF(db, ro, hs[2], "k", NULL);
  destroy_handles(hs, 3);
  rocksdb_close(db);
  rocksdb_options_destroy(plain);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
}

static void multi_get_cf(void) {
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_options_set_create_missing_column_families(o, 1);
  const char *names[3] = {"default", "kv", "locks"};
  rocksdb_column_family_handle_t *hs[3];
  char *err = NULL;
  rocksdb_t *db = open_cfs(o, path, 3, names, hs, &err);
  EXPECT_NO_ERR(err);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  rocksdb_put_cf(db, wo, hs[1], S("a"), S("kv-a"), &err);
  EXPECT_NO_ERR(err);
  rocksdb_put_cf(db, wo, hs[1], S("b"), "", 0, &err);
  EXPECT_NO_ERR(err);
  rocksdb_put_cf(db, wo, hs[2], S("a"), S("locks-a"), &err);
  EXPECT_NO_ERR(err);
  rocksdb_put_cf(db, wo, hs[0], S("a"), S("default-a"), &err);
  EXPECT_NO_ERR(err);
  enum { N = 7 };
  const rocksdb_column_family_handle_t *cfs[N] = {hs[1], hs[2], hs[1], hs[1], hs[0], hs[2], hs[1]};
  const char *keys[N] = {"a", "a", "missing", "b", "a", "b", "a"};
  size_t klens[N];
  for (int i = 0; i < N; i++) klens[i] = strlen(keys[i]);
  char *vals[N];
  size_t vlens[N];
  char *errs[N];
  for (int i = 0; i < N; i++) {
    vals[i] = (char *)"garbage";
    vlens[i] = 999;
    errs[i] = (char *)"garbage";
  }
  rocksdb_multi_get_cf(db, ro, cfs, N, keys, klens, vals, vlens, errs);
  for (int i = 0; i < N; i++) EXPECTF(errs[i] == NULL, "errs[%d] = %s", i, errs[i]);
  EXPECT_BYTES(vals[0], vlens[0], "kv-a");
  EXPECT_BYTES(vals[1], vlens[1], "locks-a");
  EXPECT(vals[2] == NULL && vlens[2] == 0);
  EXPECT(vals[3] != NULL && vlens[3] == 0); /* present, empty */
  EXPECT_BYTES(vals[4], vlens[4], "default-a");
  EXPECT(vals[5] == NULL && vlens[5] == 0);
  EXPECT_BYTES(vals[6], vlens[6], "kv-a");
  for (int i = 0; i < N; i++) free(vals[i]);
  /* Zero keys is a no-op. */
  rocksdb_multi_get_cf(db, ro, cfs, 0, keys, klens, vals, vlens, errs);
  destroy_handles(hs, 3);
  rocksdb_close(db);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
}

static void bulk_create_and_default_handle(void) {
  REQUIRE_V11_HEADER("rocksdb_create_column_families, rocksdb_get_default_column_family_handle");
#ifdef TESTC_HEADER_V11
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_t *db = open_ok(o, path);
  char *err = NULL;
  const char *names[3] = {"x", "y", "z"};
  size_t n = 0;
  rocksdb_column_family_handle_t **hs = rocksdb_create_column_families(db, o, 3, names, &n, &err);
  EXPECT_NO_ERR(err);
  EXPECT(hs != NULL && n == 3);
  for (size_t i = 0; i < n; i++) {
    size_t nl = 0;
    char *name = rocksdb_column_family_handle_get_name(hs[i], &nl);
    EXPECT_BYTES(name, nl, names[i]);
    free(name);
  }
  rocksdb_column_family_handle_t *def = rocksdb_get_default_column_family_handle(db);
  EXPECT(def != NULL);
  EXPECT(rocksdb_column_family_handle_get_id(def) == 0);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  rocksdb_put_cf(db, wo, def, S("d"), S("1"), &err);
  EXPECT_NO_ERR(err);
  EXPECT_GET(db, ro, "d", "1");
  rocksdb_column_family_handle_destroy(def);
  for (size_t i = 0; i < n; i++) rocksdb_column_family_handle_destroy(hs[i]);
  rocksdb_create_column_families_destroy(hs);
  /* The default handle wrapper was destroyed; the DB is still fine. */
  EXPECT_GET(db, ro, "d", "1");
  rocksdb_close(db);
  EXPECT_CFS(o, path, "default,x,y,z");
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
#endif
}

static void read_only_with_column_families(void) {
  /* open_for_read_only_column_families: every CF readable, writes refused with RocksDB's
   * read-only text, and a CF list missing one of the DB's CFs is fine read-only (RocksDB
   * allows opening a subset read-only). */
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_options_set_create_missing_column_families(o, 1);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  const char *names[3] = {"default", "cf1", "cf2"};
  rocksdb_column_family_handle_t *hs[3];
  char *err = NULL;
  rocksdb_t *db = open_cfs(o, path, 3, names, hs, &err);
  EXPECT_NO_ERR(err);
  rocksdb_put_cf(db, wo, hs[1], S("k1"), S("v1"), &err);
  EXPECT_NO_ERR(err);
  rocksdb_put_cf(db, wo, hs[2], S("k2"), S("v2"), &err);
  EXPECT_NO_ERR(err);
  destroy_handles(hs, 3);
  rocksdb_close(db);
  const rocksdb_options_t *cf_opts[3] = {o, o, o};
  rocksdb_column_family_handle_t *rh[3];
  rocksdb_t *rdb =
      rocksdb_open_for_read_only_column_families(o, path, 3, names, cf_opts, rh, 0, &err);
  EXPECT_NO_ERR(err);
  EXPECT(rdb != NULL);
  EXPECT_GET_CF(rdb, ro, rh[1], "k1", "v1");
  EXPECT_GET_CF(rdb, ro, rh[2], "k2", "v2");
  EXPECT_GET_CF(rdb, ro, rh[0], "k1", NULL);
  rocksdb_put_cf(rdb, wo, rh[1], S("k3"), S("v3"), &err);
  EXPECT_ERR_EQ(err, "Not implemented: Not supported operation in read only mode.");
  destroy_handles(rh, 3);
  rocksdb_close(rdb);
  /* A subset (default and cf2). */
  const char *some[2] = {"default", "cf2"};
  rdb = rocksdb_open_for_read_only_column_families(o, path, 2, some, cf_opts, rh, 0, &err);
  EXPECT_NO_ERR(err);
  EXPECT_GET_CF(rdb, ro, rh[1], "k2", "v2");
  destroy_handles(rh, 2);
  rocksdb_close(rdb);
  /* A CF the DB does not have. */
  const char *bad[2] = {"default", "nocf"};
  rdb = rocksdb_open_for_read_only_column_families(o, path, 2, bad, cf_opts, rh, 0, &err);
  EXPECT(rdb == NULL);
  EXPECT_ERR_EQ(err, "Invalid argument: Column family not found: nocf");
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
}

TESTC_MAIN("test_cf", P(create_list_drop), P(create_errors), P(isolation_and_reopen_with_all),
           P(not_opened_and_not_found_texts), P(list_missing_db), P(dropped_cf_gone_after_reopen),
           P(multi_get_cf), P(bulk_create_and_default_handle), P(read_only_with_column_families))
