/* SPDX-License-Identifier: Apache-2.0
 * DB properties: rocksdb_property_value(_cf) (strdup'd string, NULL when unknown) and
 * rocksdb_property_int(_cf) (0 and *out_val on success, -1 when unknown or not an integer)
 * for the memtable, snapshot and level counters a memtable-only DB can answer; the DB
 * identity (IDENTITY file / rocksdb_get_db_identity). */
#include "common.h"

static uint64_t prop_int(rocksdb_t *db, const char *name) {
  uint64_t v = 0xdeadbeef;
  int rc = rocksdb_property_int(db, name, &v);
  EXPECTF(rc == 0, "rocksdb_property_int(%s) = %d", name, rc);
  /* The string form agrees. */
  char *s = rocksdb_property_value(db, name);
  EXPECTF(s != NULL, "rocksdb_property_value(%s) = NULL", name);
  char want[32];
  snprintf(want, sizeof want, "%llu", (unsigned long long)v);
  EXPECTF(strcmp(s, want) == 0, "%s: string \"%s\" vs int %s", name, s, want);
  free(s);
  return v;
}

static void unknown_properties(void) {
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_column_family_handle_t *cf = NULL;
  rocksdb_t *db = open_default_cf(o, path, &cf);
  EXPECT(rocksdb_property_value(db, "rocksdb.no-such-property") == NULL);
  EXPECT(rocksdb_property_value(db, "not-even-prefixed") == NULL);
  EXPECT(rocksdb_property_value(db, "") == NULL);
  EXPECT(rocksdb_property_value_cf(db, cf, "rocksdb.no-such-property") == NULL);
  uint64_t v = 0;
  EXPECT(rocksdb_property_int(db, "rocksdb.no-such-property", &v) == -1);
  EXPECT(rocksdb_property_int_cf(db, cf, "rocksdb.no-such-property", &v) == -1);
  /* A string-valued property has no integer form. */
  EXPECT(rocksdb_property_int(db, "rocksdb.stats", &v) == -1);
  rocksdb_column_family_handle_destroy(cf);
  rocksdb_close(db);
  rocksdb_options_destroy(o);
}

static void memtable_counters(void) {
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_column_family_handle_t *cf = NULL;
  rocksdb_t *db = open_default_cf(o, path, &cf);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  EXPECT(prop_int(db, "rocksdb.estimate-num-keys") == 0);
  EXPECT(prop_int(db, "rocksdb.num-entries-active-mem-table") == 0);
  uint64_t empty_size = prop_int(db, "rocksdb.cur-size-active-mem-table");
  char k[32];
  for (int i = 0; i < 100; i++) {
    snprintf(k, sizeof k, "key%03d", i);
    put_ok(db, wo, k, "value");
  }
  EXPECT(prop_int(db, "rocksdb.estimate-num-keys") == 100);
  EXPECT(prop_int(db, "rocksdb.num-entries-active-mem-table") == 100);
  EXPECT(prop_int(db, "rocksdb.num-deletes-active-mem-table") == 0);
  char *err = NULL;
  rocksdb_delete(db, wo, S("key000"), &err);
  EXPECT_NO_ERR(err);
  EXPECT(prop_int(db, "rocksdb.num-entries-active-mem-table") == 101);
  EXPECT(prop_int(db, "rocksdb.num-deletes-active-mem-table") == 1);
  uint64_t size = prop_int(db, "rocksdb.cur-size-active-mem-table");
  EXPECT(size > empty_size);
  EXPECT(prop_int(db, "rocksdb.size-all-mem-tables") >= size);
  EXPECT(prop_int(db, "rocksdb.cur-size-all-mem-tables") >= size);
  EXPECT(prop_int(db, "rocksdb.num-immutable-mem-table") == 0);
  /* The _cf forms on the default CF agree. */
  uint64_t v = 0;
  EXPECT(rocksdb_property_int_cf(db, cf, "rocksdb.num-entries-active-mem-table", &v) == 0);
  EXPECT(v == 101);
  char *s = rocksdb_property_value_cf(db, cf, "rocksdb.num-entries-active-mem-table");
  EXPECT(s != NULL && strcmp(s, "101") == 0);
  free(s);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_column_family_handle_destroy(cf);
  rocksdb_close(db);
  rocksdb_options_destroy(o);
}

static void per_cf_counters(void) {
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_options_set_create_missing_column_families(o, 1);
  const char *names[2] = {"default", "other"};
  const rocksdb_options_t *cf_opts[2] = {o, o};
  rocksdb_column_family_handle_t *hs[2];
  char *err = NULL;
  rocksdb_t *db = rocksdb_open_column_families(o, path, 2, names, cf_opts, hs, &err);
  EXPECT_NO_ERR(err);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  for (int i = 0; i < 7; i++) {
    char k[16];
    snprintf(k, sizeof k, "k%d", i);
    rocksdb_put_cf(db, wo, hs[1], S(k), S("v"), &err);
    EXPECT_NO_ERR(err);
  }
  put_ok(db, wo, "d", "v");
  uint64_t v = 0;
  EXPECT(rocksdb_property_int_cf(db, hs[1], "rocksdb.estimate-num-keys", &v) == 0 && v == 7);
  EXPECT(rocksdb_property_int_cf(db, hs[0], "rocksdb.estimate-num-keys", &v) == 0 && v == 1);
  EXPECT(rocksdb_property_int(db, "rocksdb.estimate-num-keys", &v) == 0 && v == 1);
  char *s = rocksdb_property_value_cf(db, hs[1], "rocksdb.num-entries-active-mem-table");
  EXPECT(s != NULL && strcmp(s, "7") == 0);
  free(s);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_column_family_handle_destroy(hs[0]);
  rocksdb_column_family_handle_destroy(hs[1]);
  rocksdb_close(db);
  rocksdb_options_destroy(o);
}

static void snapshot_and_level_counters(void) {
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_t *db = open_ok(o, path);
  EXPECT(prop_int(db, "rocksdb.num-snapshots") == 0);
  EXPECT(prop_int(db, "rocksdb.oldest-snapshot-time") == 0);
  const rocksdb_snapshot_t *s1 = rocksdb_create_snapshot(db);
  const rocksdb_snapshot_t *s2 = rocksdb_create_snapshot(db);
  EXPECT(prop_int(db, "rocksdb.num-snapshots") == 2);
  EXPECT(prop_int(db, "rocksdb.oldest-snapshot-time") > 0);
  rocksdb_release_snapshot(db, s1);
  EXPECT(prop_int(db, "rocksdb.num-snapshots") == 1);
  rocksdb_release_snapshot(db, s2);
  EXPECT(prop_int(db, "rocksdb.num-snapshots") == 0);
  /* No tables in a fresh DB. */
  /* String-only properties (no integer form). */
  uint64_t v = 0;
  EXPECT(rocksdb_property_int(db, "rocksdb.num-files-at-level0", &v) == -1);
  char *n0 = rocksdb_property_value(db, "rocksdb.num-files-at-level0");
  EXPECT(n0 != NULL && strcmp(n0, "0") == 0);
  free(n0);
  n0 = rocksdb_property_value(db, "rocksdb.num-files-at-level6");
  EXPECT(n0 != NULL && strcmp(n0, "0") == 0);
  free(n0);
  EXPECT(prop_int(db, "rocksdb.background-errors") == 0);
  EXPECT(prop_int(db, "rocksdb.is-write-stopped") == 0);
  EXPECT(prop_int(db, "rocksdb.estimate-pending-compaction-bytes") == 0);
  EXPECT(prop_int(db, "rocksdb.total-sst-files-size") == 0);
  EXPECT(prop_int(db, "rocksdb.live-sst-files-size") == 0);
  /* Free-form strings exist. */
  char *stats = rocksdb_property_value(db, "rocksdb.stats");
  EXPECT(stats != NULL && strlen(stats) > 0);
  free(stats);
  char *lv = rocksdb_property_value(db, "rocksdb.levelstats");
  EXPECT(lv != NULL && strstr(lv, "Level") != NULL);
  free(lv);
  rocksdb_close(db);
  rocksdb_options_destroy(o);
}

/* Reads the IDENTITY file (without a trailing newline). */
static void read_identity_file(const char *path, char *out, size_t cap) {
  char file[PATH_MAX];
  snprintf(file, sizeof file, "%s/IDENTITY", path);
  FILE *fp = fopen(file, "r");
  EXPECTF(fp != NULL, "no %s", file);
  size_t n = fread(out, 1, cap - 1, fp);
  fclose(fp);
  while (n > 0 && (out[n - 1] == '\n' || out[n - 1] == '\r')) n--;
  out[n] = '\0';
}

static void identity(void) {
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_t *db = open_ok(o, path);
  char id1[128], id2[128];
  read_identity_file(path, id1, sizeof id1);
  EXPECT(strlen(id1) >= 16);
#ifdef TESTC_HEADER_V11
  size_t len = 0;
  char *id = rocksdb_get_db_identity(db, &len);
  EXPECT_BYTES(id, len, id1);
  free(id);
#endif
  rocksdb_close(db);
  db = open_ok(o, path);
  read_identity_file(path, id2, sizeof id2);
  EXPECT(strcmp(id1, id2) == 0); /* stable across reopen */
  rocksdb_close(db);
  /* Another DB has another identity. */
  const char *other = db_path("other");
  db = open_ok(o, other);
  read_identity_file(other, id2, sizeof id2);
  EXPECT(strcmp(id1, id2) != 0);
  rocksdb_close(db);
  rocksdb_options_destroy(o);
}

TESTC_MAIN("test_properties", P(unknown_properties), P(memtable_counters), P(per_cf_counters),
           P(snapshot_and_level_counters), P(identity))
