/* SPDX-License-Identifier: Apache-2.0
 * Point writes and reads: put/get/delete/singledelete/delete_range_cf, empty values and keys,
 * (NULL, 0) slices, NUL bytes, a 1 MiB value, pinned gets, recovery after reopen, and the
 * errptr conventions (untouched on success, freed and replaced on failure). */
#include "common.h"

struct fixture {
  const char *path;
  rocksdb_options_t *o;
  rocksdb_writeoptions_t *wo;
  rocksdb_readoptions_t *ro;
  rocksdb_t *db;
  rocksdb_column_family_handle_t *cf; /* "default" */
};

static struct fixture setup(void) {
  struct fixture f;
  f.path = db_path("db");
  f.o = opts_create();
  f.wo = rocksdb_writeoptions_create();
  f.ro = rocksdb_readoptions_create();
  f.db = open_default_cf(f.o, f.path, &f.cf);
  return f;
}

static void reopen(struct fixture *f) {
  rocksdb_column_family_handle_destroy(f->cf);
  rocksdb_close(f->db);
  f->db = open_default_cf(f->o, f->path, &f->cf);
}

static void teardown(struct fixture *f) {
  rocksdb_column_family_handle_destroy(f->cf);
  rocksdb_close(f->db);
  rocksdb_readoptions_destroy(f->ro);
  rocksdb_writeoptions_destroy(f->wo);
  rocksdb_options_destroy(f->o);
}

static void put_get_overwrite_delete(void) {
  struct fixture f = setup();
  char *err = NULL;
  EXPECT_GET(f.db, f.ro, "k1", NULL);
  put_ok(f.db, f.wo, "k1", "v1");
  put_ok(f.db, f.wo, "k2", "v2");
  EXPECT_GET(f.db, f.ro, "k1", "v1");
  EXPECT_GET(f.db, f.ro, "k2", "v2");
  put_ok(f.db, f.wo, "k1", "v1-new");
  EXPECT_GET(f.db, f.ro, "k1", "v1-new");
  rocksdb_delete(f.db, f.wo, S("k1"), &err);
  EXPECT_NO_ERR(err);
  EXPECT_GET(f.db, f.ro, "k1", NULL);
  EXPECT_GET(f.db, f.ro, "k2", "v2");
  /* Deleting a missing key is not an error. */
  rocksdb_delete(f.db, f.wo, S("never-there"), &err);
  EXPECT_NO_ERR(err);
  /* Keys are exact: prefixes and extensions do not match. */
  EXPECT_GET(f.db, f.ro, "k", NULL);
  EXPECT_GET(f.db, f.ro, "k22", NULL);
  reopen(&f);
  EXPECT_GET(f.db, f.ro, "k1", NULL);
  EXPECT_GET(f.db, f.ro, "k2", "v2");
  teardown(&f);
}

static void cf_variants_on_default(void) {
  struct fixture f = setup();
  char *err = NULL;
  rocksdb_put_cf(f.db, f.wo, f.cf, S("a"), S("1"), &err);
  EXPECT_NO_ERR(err);
  EXPECT_GET_CF(f.db, f.ro, f.cf, "a", "1");
  EXPECT_GET(f.db, f.ro, "a", "1"); /* the same column family */
  put_ok(f.db, f.wo, "b", "2");
  EXPECT_GET_CF(f.db, f.ro, f.cf, "b", "2");
  rocksdb_delete_cf(f.db, f.wo, f.cf, S("a"), &err);
  EXPECT_NO_ERR(err);
  EXPECT_GET_CF(f.db, f.ro, f.cf, "a", NULL);
  EXPECT_GET(f.db, f.ro, "a", NULL);
  teardown(&f);
}

static void singledelete(void) {
  struct fixture f = setup();
  char *err = NULL;
  put_ok(f.db, f.wo, "s1", "v");
  put_ok(f.db, f.wo, "s2", "v");
  rocksdb_singledelete(f.db, f.wo, S("s1"), &err);
  EXPECT_NO_ERR(err);
  EXPECT_GET(f.db, f.ro, "s1", NULL);
  rocksdb_singledelete_cf(f.db, f.wo, f.cf, S("s2"), &err);
  EXPECT_NO_ERR(err);
  EXPECT_GET(f.db, f.ro, "s2", NULL);
  /* A key written once again after its single delete is visible. */
  put_ok(f.db, f.wo, "s1", "again");
  EXPECT_GET(f.db, f.ro, "s1", "again");
  reopen(&f);
  EXPECT_GET(f.db, f.ro, "s1", "again");
  EXPECT_GET(f.db, f.ro, "s2", NULL);
  teardown(&f);
}

static void delete_range_cf(void) {
  struct fixture f = setup();
  char *err = NULL;
  const char *keys[] = {"a", "b", "ba", "c", "cz", "d", "e"};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) put_ok(f.db, f.wo, keys[i], "v");
  /* [b, d): removes b, ba, c, cz; keeps a, d, e. */
  rocksdb_delete_range_cf(f.db, f.wo, f.cf, S("b"), S("d"), &err);
  EXPECT_NO_ERR(err);
  EXPECT_GET(f.db, f.ro, "a", "v");
  EXPECT_GET(f.db, f.ro, "b", NULL);
  EXPECT_GET(f.db, f.ro, "ba", NULL);
  EXPECT_GET(f.db, f.ro, "c", NULL);
  EXPECT_GET(f.db, f.ro, "cz", NULL);
  EXPECT_GET(f.db, f.ro, "d", "v");
  EXPECT_GET(f.db, f.ro, "e", "v");
  /* Writes after the range tombstone are visible. */
  put_ok(f.db, f.wo, "c", "new");
  EXPECT_GET(f.db, f.ro, "c", "new");
  /* An empty range [x, x) deletes nothing. */
  rocksdb_delete_range_cf(f.db, f.wo, f.cf, S("e"), S("e"), &err);
  EXPECT_NO_ERR(err);
  EXPECT_GET(f.db, f.ro, "e", "v");
  /* The tombstone survives recovery. */
  reopen(&f);
  EXPECT_GET(f.db, f.ro, "a", "v");
  EXPECT_GET(f.db, f.ro, "b", NULL);
  EXPECT_GET(f.db, f.ro, "cz", NULL);
  EXPECT_GET(f.db, f.ro, "c", "new");
  EXPECT_GET(f.db, f.ro, "d", "v");
  teardown(&f);
}

static void empty_value_is_non_null(void) {
  struct fixture f = setup();
  char *err = NULL;
  size_t len = 99;
  rocksdb_put(f.db, f.wo, S("empty"), "", 0, &err);
  EXPECT_NO_ERR(err);
  /* (NULL, 0) is the empty slice too. */
  rocksdb_put(f.db, f.wo, S("nullval"), NULL, 0, &err);
  EXPECT_NO_ERR(err);
  char *v = rocksdb_get(f.db, f.ro, S("empty"), &len, &err);
  EXPECT_NO_ERR(err);
  EXPECTF(v != NULL, "a present empty value came back NULL (means missing)");
  EXPECT(len == 0);
  free(v);
  len = 99;
  v = rocksdb_get_cf(f.db, f.ro, f.cf, S("nullval"), &len, &err);
  EXPECT_NO_ERR(err);
  EXPECT(v != NULL);
  EXPECT(len == 0);
  free(v);
  /* Missing: NULL and *vallen = 0. */
  len = 99;
  v = rocksdb_get(f.db, f.ro, S("missing"), &len, &err);
  EXPECT_NO_ERR(err);
  EXPECT(v == NULL);
  EXPECT(len == 0);
  reopen(&f);
  len = 99;
  v = rocksdb_get(f.db, f.ro, S("empty"), &len, &err);
  EXPECT_NO_ERR(err);
  EXPECT(v != NULL && len == 0);
  free(v);
  teardown(&f);
}

static void empty_key(void) {
  struct fixture f = setup();
  char *err = NULL;
  size_t len = 0;
  rocksdb_put(f.db, f.wo, NULL, 0, S("for-empty-key"), &err);
  EXPECT_NO_ERR(err);
  char *v = rocksdb_get(f.db, f.ro, "", 0, &len, &err);
  EXPECT_NO_ERR(err);
  EXPECT_BYTES(v, len, "for-empty-key");
  free(v);
  v = rocksdb_get(f.db, f.ro, NULL, 0, &len, &err);
  EXPECT_NO_ERR(err);
  EXPECT_BYTES(v, len, "for-empty-key");
  free(v);
  rocksdb_delete(f.db, f.wo, NULL, 0, &err);
  EXPECT_NO_ERR(err);
  v = rocksdb_get(f.db, f.ro, "", 0, &len, &err);
  EXPECT_NO_ERR(err);
  EXPECT(v == NULL);
  teardown(&f);
}

static void nul_bytes_in_keys_and_values(void) {
  struct fixture f = setup();
  char *err = NULL;
  size_t len = 0;
  const char k1[] = {'a', '\0', 'b'};
  const char k2[] = {'a', '\0', 'c'};
  const char k3[] = {'\0'};
  const char v1[] = {'x', '\0', 'y', '\0'};
  const char v3[] = {'\0', '\0', '\0'};
  rocksdb_put(f.db, f.wo, k1, sizeof k1, v1, sizeof v1, &err);
  EXPECT_NO_ERR(err);
  rocksdb_put(f.db, f.wo, k2, sizeof k2, S("second"), &err);
  EXPECT_NO_ERR(err);
  rocksdb_put(f.db, f.wo, k3, sizeof k3, v3, sizeof v3, &err);
  EXPECT_NO_ERR(err);
  for (int round = 0; round < 2; round++) {
    char *v = rocksdb_get(f.db, f.ro, k1, sizeof k1, &len, &err);
    EXPECT_NO_ERR(err);
    EXPECT(v != NULL && len == sizeof v1 && memcmp(v, v1, len) == 0);
    free(v);
    v = rocksdb_get(f.db, f.ro, k2, sizeof k2, &len, &err);
    EXPECT_NO_ERR(err);
    EXPECT_BYTES(v, len, "second");
    free(v);
    v = rocksdb_get(f.db, f.ro, k3, sizeof k3, &len, &err);
    EXPECT_NO_ERR(err);
    EXPECT(v != NULL && len == 3 && memcmp(v, v3, 3) == 0);
    free(v);
    /* "a" (the C-string view of k1) is a different key. */
    EXPECT_GET(f.db, f.ro, "a", NULL);
    /* the empty key is not "\0" */
    v = rocksdb_get(f.db, f.ro, "", 0, &len, &err);
    EXPECT_NO_ERR(err);
    EXPECT(v == NULL);
    reopen(&f);
  }
  teardown(&f);
}

static void one_mib_value(void) {
  struct fixture f = setup();
  char *err = NULL;
  size_t n = 1u << 20;
  char *big = malloc(n);
  EXPECT(big != NULL);
  for (size_t i = 0; i < n; i++) big[i] = (char)((i * 2654435761u) >> 13);
  rocksdb_put(f.db, f.wo, S("big"), big, n, &err);
  EXPECT_NO_ERR(err);
  /* A 4 MiB + 1 value as well (Raft payloads can be several MB). */
  size_t n4 = (4u << 20) + 1;
  char *big4 = malloc(n4);
  EXPECT(big4 != NULL);
  for (size_t i = 0; i < n4; i++) big4[i] = (char)(i % 251);
  rocksdb_put(f.db, f.wo, S("big4"), big4, n4, &err);
  EXPECT_NO_ERR(err);
  put_ok(f.db, f.wo, "small-after", "s");
  for (int round = 0; round < 2; round++) {
    size_t len = 0;
    char *v = rocksdb_get(f.db, f.ro, S("big"), &len, &err);
    EXPECT_NO_ERR(err);
    EXPECT(v != NULL && len == n && memcmp(v, big, n) == 0);
    free(v);
    v = rocksdb_get(f.db, f.ro, S("big4"), &len, &err);
    EXPECT_NO_ERR(err);
    EXPECT(v != NULL && len == n4 && memcmp(v, big4, n4) == 0);
    free(v);
    EXPECT_GET(f.db, f.ro, "small-after", "s");
    reopen(&f);
  }
  free(big);
  free(big4);
  teardown(&f);
}

static void pinned_get(void) {
  struct fixture f = setup();
  char *err = NULL;
  size_t len = 0;
  put_ok(f.db, f.wo, "p", "pinned-value");
  rocksdb_pinnableslice_t *ps = rocksdb_get_pinned(f.db, f.ro, S("p"), &err);
  EXPECT_NO_ERR(err);
  EXPECT(ps != NULL);
  const char *v = rocksdb_pinnableslice_value(ps, &len);
  EXPECT_BYTES(v, len, "pinned-value");
  /* A later overwrite does not change the pinned bytes. */
  put_ok(f.db, f.wo, "p", "other");
  v = rocksdb_pinnableslice_value(ps, &len);
  EXPECT_BYTES(v, len, "pinned-value");
  rocksdb_pinnableslice_destroy(ps);
  ps = rocksdb_get_pinned_cf(f.db, f.ro, f.cf, S("missing"), &err);
  EXPECT_NO_ERR(err);
  EXPECT(ps == NULL);
  teardown(&f);
}

static void many_keys_survive_reopen(void) {
  struct fixture f = setup();
  char k[32], v[64];
  const int n = 20000;
  for (int i = 0; i < n; i++) {
    snprintf(k, sizeof k, "key%08d", i);
    snprintf(v, sizeof v, "value-%d-%d", i, i * 7);
    put_ok(f.db, f.wo, k, v);
  }
  for (int i = 0; i < n; i += 3) {
    char *err = NULL;
    snprintf(k, sizeof k, "key%08d", i);
    rocksdb_delete(f.db, f.wo, S(k), &err);
    EXPECT_NO_ERR(err);
  }
  for (int round = 0; round < 2; round++) {
    for (int i = 0; i < n; i++) {
      snprintf(k, sizeof k, "key%08d", i);
      snprintf(v, sizeof v, "value-%d-%d", i, i * 7);
      EXPECT_GET(f.db, f.ro, k, i % 3 == 0 ? NULL : v);
    }
    reopen(&f);
  }
  teardown(&f);
}

static void sync_and_disable_wal_writes(void) {
  struct fixture f = setup();
  rocksdb_writeoptions_t *sync = rocksdb_writeoptions_create();
  rocksdb_writeoptions_set_sync(sync, 1);
  put_ok(f.db, sync, "synced", "1");
  EXPECT_GET(f.db, f.ro, "synced", "1");
  rocksdb_writeoptions_t *nowal = rocksdb_writeoptions_create();
  rocksdb_writeoptions_disable_WAL(nowal, 1);
  put_ok(f.db, nowal, "nowal", "1");
  EXPECT_GET(f.db, f.ro, "nowal", "1");
  reopen(&f);
  EXPECT_GET(f.db, f.ro, "synced", "1");
  rocksdb_writeoptions_destroy(nowal);
  rocksdb_writeoptions_destroy(sync);
  teardown(&f);
}

static void errptr_preset_untouched_on_success(void) {
  struct fixture f = setup();
  char *err = strdup("old error");
  size_t len = 0;
  rocksdb_put(f.db, f.wo, S("k"), S("v"), &err);
  EXPECT(err != NULL && strcmp(err, "old error") == 0);
  char *v = rocksdb_get(f.db, f.ro, S("k"), &len, &err);
  EXPECT_BYTES(v, len, "v");
  free(v);
  EXPECT(err != NULL && strcmp(err, "old error") == 0);
  v = rocksdb_get(f.db, f.ro, S("missing"), &len, &err);
  EXPECT(v == NULL && len == 0);
  EXPECT(err != NULL && strcmp(err, "old error") == 0);
  rocksdb_delete(f.db, f.wo, S("k"), &err);
  EXPECT(err != NULL && strcmp(err, "old error") == 0);
  rocksdb_put_cf(f.db, f.wo, f.cf, S("k"), S("v"), &err);
  EXPECT(err != NULL && strcmp(err, "old error") == 0);
  rocksdb_delete_range_cf(f.db, f.wo, f.cf, S("a"), S("b"), &err);
  EXPECT(err != NULL && strcmp(err, "old error") == 0);
  rocksdb_writebatch_t *b = rocksdb_writebatch_create();
  rocksdb_writebatch_put(b, S("w"), S("1"));
  rocksdb_write(f.db, f.wo, b, &err);
  EXPECT(err != NULL && strcmp(err, "old error") == 0);
  rocksdb_writebatch_destroy(b);
  EXPECT_GET(f.db, f.ro, "w", "1");
  free(err);
  teardown(&f);
}

static void errptr_failure_frees_and_replaces(void) {
  /* Merge without a merge operator fails; the old message is freed (valgrind/ASan check
   * that) and replaced. */
  struct fixture f = setup();
  char *err = strdup("old error");
  rocksdb_merge(f.db, f.wo, S("k"), S("v"), &err);
  EXPECT_ERR_EQ(err, "Not implemented: Provide a merge_operator when opening DB");
  /* The failed write left nothing behind. */
  EXPECT_GET(f.db, f.ro, "k", NULL);
  /* Two failures in a row with the same errptr. */
  rocksdb_merge(f.db, f.wo, S("k"), S("v"), &err);
  EXPECT(err != NULL);
  rocksdb_merge_cf(f.db, f.wo, f.cf, S("k"), S("v"), &err);
  EXPECT_ERR_PREFIX(err, "Not implemented: ");
  teardown(&f);
}

static void get_into_buffer(void) {
  REQUIRE_V11_HEADER("rocksdb_get_into_buffer");
#ifdef TESTC_HEADER_V11
  struct fixture f = setup();
  char *err = NULL;
  char buf[8];
  size_t len = 0;
  unsigned char found = 9;
  put_ok(f.db, f.wo, "short", "abc");
  put_ok(f.db, f.wo, "long", "0123456789");
  EXPECT(rocksdb_get_into_buffer(f.db, f.ro, S("short"), buf, sizeof buf, &len, &found, &err) == 1);
  EXPECT_NO_ERR(err);
  EXPECT(found == 1 && len == 3 && memcmp(buf, "abc", 3) == 0);
  EXPECT(rocksdb_get_into_buffer(f.db, f.ro, S("long"), buf, sizeof buf, &len, &found, &err) == 0);
  EXPECT_NO_ERR(err);
  EXPECT(found == 1 && len == 10);
  EXPECT(rocksdb_get_into_buffer(f.db, f.ro, S("none"), buf, sizeof buf, &len, &found, &err) == 0);
  EXPECT_NO_ERR(err);
  EXPECT(found == 0);
  teardown(&f);
#endif
}

static void column_family_point_reads(void) {
  /* key_may_exist_cf, and (11.x) get_into_buffer_cf and get_pinned_cf_v2, on a non-default
   * column family that holds a key the default one does not. */
  struct fixture f = setup();
  char *err = NULL;
  rocksdb_column_family_handle_t *cf1 = rocksdb_create_column_family(f.db, f.o, "cf1", &err);
  EXPECT_NO_ERR(err);
  rocksdb_put_cf(f.db, f.wo, cf1, S("k"), S("value"), &err);
  EXPECT_NO_ERR(err);
  rocksdb_put_cf(f.db, f.wo, cf1, S("empty"), "", 0, &err);
  EXPECT_NO_ERR(err);
  /* A key in the memtable may exist, and its value comes with the answer. */
  char *val = NULL;
  size_t vlen = 0;
  unsigned char found = 0;
  EXPECT(rocksdb_key_may_exist_cf(f.db, f.ro, cf1, S("k"), &val, &vlen, NULL, 0, &found) == 1);
  EXPECT(found == 1);
  EXPECT_BYTES(val, vlen, "value");
  free(val);
  /* NULL outputs are allowed. */
  EXPECT(rocksdb_key_may_exist_cf(f.db, f.ro, cf1, S("k"), NULL, NULL, NULL, 0, NULL) == 1);
  /* Absent from a DB that has only memtables: certainly absent. (RocksDB 7.8.3 may still
   * hand back an empty malloc()ed value here: its found flag is left set on NotFound.) */
  found = 7;
  val = NULL;
  EXPECT(rocksdb_key_may_exist_cf(f.db, f.ro, cf1, S("nope"), &val, &vlen, NULL, 0, &found) == 0);
  if (found) free(val);
  /* The default column family does not have cf1's key. */
  EXPECT(rocksdb_key_may_exist_cf(f.db, f.ro, f.cf, S("k"), NULL, NULL, NULL, 0, NULL) == 0);
  /* In a table whose blocks are not cached: RocksDB says "may exist" without the value (it
   * reads nothing from disk); solistore looks the key up, so it answers exactly and hands the
   * value back (docs/design/differences-from-rocksdb.md). */
  flush_cf_ok(f.db, cf1);
  found = 7;
  val = NULL;
  EXPECT(rocksdb_key_may_exist_cf(f.db, f.ro, cf1, S("k"), &val, &vlen, NULL, 0, &found) == 1);
  if (testc_is_solistore()) {
    EXPECT(found == 1);
    EXPECT_BYTES(val, vlen, "value");
  }
  if (found) free(val);
  if (testc_is_solistore()) {
    found = 7;
    val = NULL;
    EXPECT(rocksdb_key_may_exist_cf(f.db, f.ro, cf1, S("nope"), &val, &vlen, NULL, 0, &found) ==
           0);
    EXPECT(found == 0 && val == NULL);
  }
#ifdef TESTC_HEADER_V11
  char buf[8];
  size_t len = 99;
  found = 9;
  EXPECT(rocksdb_get_into_buffer_cf(f.db, f.ro, cf1, S("k"), buf, sizeof buf, &len, &found,
                                    &err) == 1);
  EXPECT_NO_ERR(err);
  EXPECT(found == 1 && len == 5 && memcmp(buf, "value", 5) == 0);
  EXPECT(rocksdb_get_into_buffer_cf(f.db, f.ro, cf1, S("k"), buf, 3, &len, &found, &err) == 0);
  EXPECT_NO_ERR(err);
  EXPECT(found == 1 && len == 5); /* too small: nothing copied, real size reported */
  EXPECT(rocksdb_get_into_buffer_cf(f.db, f.ro, f.cf, S("k"), buf, sizeof buf, &len, &found,
                                    &err) == 0);
  EXPECT_NO_ERR(err);
  EXPECT(found == 0);
  rocksdb_pinnable_handle_t *h = rocksdb_get_pinned_cf_v2(f.db, f.ro, cf1, S("k"), &err);
  EXPECT_NO_ERR(err);
  EXPECT(h != NULL);
  size_t hl = 0;
  const char *hv = rocksdb_pinnable_handle_get_value(h, &hl);
  /* The handle's value stays valid across later writes to the same key. */
  rocksdb_put_cf(f.db, f.wo, cf1, S("k"), S("other"), &err);
  EXPECT_NO_ERR(err);
  EXPECT_BYTES(hv, hl, "value");
  rocksdb_pinnable_handle_destroy(h);
  h = rocksdb_get_pinned_cf_v2(f.db, f.ro, cf1, S("empty"), &err);
  EXPECT_NO_ERR(err);
  EXPECT(h != NULL);
  hv = rocksdb_pinnable_handle_get_value(h, &hl);
  EXPECT(hv != NULL && hl == 0);
  rocksdb_pinnable_handle_destroy(h);
  EXPECT(rocksdb_get_pinned_cf_v2(f.db, f.ro, f.cf, S("k"), &err) == NULL);
  EXPECT_NO_ERR(err);
#endif
  rocksdb_column_family_handle_destroy(cf1);
  teardown(&f);
}

TESTC_MAIN("test_putget", P(put_get_overwrite_delete), P(cf_variants_on_default), P(singledelete),
           P(delete_range_cf), P(empty_value_is_non_null), P(empty_key),
           P(nul_bytes_in_keys_and_values), P(one_mib_value), P(pinned_get),
           P(many_keys_survive_reopen), P(sync_and_disable_wal_writes),
           P(errptr_preset_untouched_on_success), P(errptr_failure_frees_and_replaces),
           P(get_into_buffer), P(column_family_point_reads))
