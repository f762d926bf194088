/* SPDX-License-Identifier: Apache-2.0
 * Misuse that RocksDB answers with a crash but solistore promises to survive (solistore-only:
 * every phase SKIPs on librocksdb): NULL handles and NULL out-pointers, NULL errptr on failing
 * and succeeding calls, NULL data with a non-zero length, and closing a DB while iterators,
 * snapshots or column-family handles are still alive (close releases the LOCK; the dependent
 * objects stay safe to query and destroy). */
#include "common.h"

/* The error a NULL handle produces: "Invalid argument: <param> is NULL". */
#define EXPECT_NULL_HANDLE_ERR(err)                                                     \
  do {                                                                                  \
    EXPECTF((err) != NULL, "no error for a NULL handle");                               \
    EXPECTF(strncmp((err), "Invalid argument: ", 18) == 0 && strstr((err), " is NULL"),   \
            "got \"%s\"", (err));                                                       \
    free(err);                                                                          \
    (err) = NULL;                                                                       \
  } while (0)

static void null_db_handle(void) {
  REQUIRE_SOLISTORE("RocksDB dereferences a NULL rocksdb_t*");
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  char *err = NULL;
  size_t len = 77;
  rocksdb_put(NULL, wo, S("k"), S("v"), &err);
  EXPECT_NULL_HANDLE_ERR(err);
  char *v = rocksdb_get(NULL, ro, S("k"), &len, &err);
  EXPECT(v == NULL && len == 0);
  EXPECT_NULL_HANDLE_ERR(err);
  rocksdb_delete(NULL, wo, S("k"), &err);
  EXPECT_NULL_HANDLE_ERR(err);
  rocksdb_writebatch_t *b = rocksdb_writebatch_create();
  rocksdb_write(NULL, wo, b, &err);
  EXPECT_NULL_HANDLE_ERR(err);
  rocksdb_writebatch_destroy(b);
  EXPECT(rocksdb_create_iterator(NULL, ro) == NULL);
  EXPECT(rocksdb_create_snapshot(NULL) == NULL);
  EXPECT(rocksdb_property_value(NULL, "rocksdb.estimate-num-keys") == NULL);
  uint64_t n = 0;
  EXPECT(rocksdb_property_int(NULL, "rocksdb.estimate-num-keys", &n) == -1);
  rocksdb_close(NULL);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
}

static void null_option_objects(void) {
  REQUIRE_SOLISTORE("RocksDB dereferences NULL option objects");
  const char *path = db_path("db");
  char *err = NULL;
  /* Either the defaults are used or InvalidArgument is reported: never both, never neither. */
  rocksdb_t *db = rocksdb_open(NULL, path, &err);
  EXPECT((db == NULL) != (err == NULL));
  if (db != NULL) rocksdb_close(db);
  free(err);
  err = NULL;
  rocksdb_options_t *o = opts_create();
  db = open_ok(o, path);
  rocksdb_put(db, NULL, S("k"), S("v"), &err);
  free(err);
  err = NULL;
  size_t len = 0;
  char *v = rocksdb_get(db, NULL, S("k"), &len, &err);
  EXPECT((v == NULL) || (err == NULL));
  free(v);
  free(err);
  err = NULL;
  rocksdb_iterator_t *it = rocksdb_create_iterator(db, NULL);
  if (it != NULL) {
    rocksdb_iter_seek_to_first(it);
    rocksdb_iter_destroy(it);
  }
  rocksdb_write(db, NULL, NULL, &err);
  EXPECT_NULL_HANDLE_ERR(err);
  rocksdb_close(db);
  rocksdb_options_destroy(o);
}

static void null_object_arguments(void) {
  REQUIRE_SOLISTORE("RocksDB dereferences NULL batches and iterators");
  char *err = NULL;
  size_t len = 5;
  /* Batches. */
  rocksdb_writebatch_put(NULL, S("k"), S("v"));
  rocksdb_writebatch_delete(NULL, S("k"));
  rocksdb_writebatch_clear(NULL);
  EXPECT(rocksdb_writebatch_count(NULL) == 0);
  EXPECT(rocksdb_writebatch_data(NULL, &len) == NULL && len == 0);
  rocksdb_writebatch_rollback_to_save_point(NULL, &err);
  EXPECT_NULL_HANDLE_ERR(err);
  /* Iterators. */
  EXPECT(rocksdb_iter_valid(NULL) == 0);
  rocksdb_iter_seek_to_first(NULL);
  rocksdb_iter_next(NULL);
  len = 5;
  EXPECT(rocksdb_iter_key(NULL, &len) == NULL && len == 0);
  rocksdb_iter_get_error(NULL, &err);
  EXPECT_NULL_HANDLE_ERR(err);
  rocksdb_iter_destroy(NULL);
  /* Column families and snapshots. */
  rocksdb_column_family_handle_destroy(NULL);
  rocksdb_readoptions_set_snapshot(NULL, NULL);
}

static void null_out_pointers(void) {
  REQUIRE_SOLISTORE("RocksDB writes through NULL out-pointers");
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_t *db = open_ok(o, path);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  char *err = NULL;
  put_ok(db, wo, "k", "value");
  /* NULL vallen: the value still comes back (its length is unknowable, but no crash). */
  char *v = rocksdb_get(db, ro, S("k"), NULL, &err);
  EXPECT_NO_ERR(err);
  EXPECT(v != NULL && memcmp(v, "value", 5) == 0);
  free(v);
  rocksdb_iterator_t *it = rocksdb_create_iterator(db, ro);
  rocksdb_iter_seek_to_first(it);
  EXPECT(rocksdb_iter_valid(it));
  EXPECT(rocksdb_iter_key(it, NULL) != NULL);
  EXPECT(rocksdb_iter_value(it, NULL) != NULL);
  rocksdb_iter_destroy(it);
  rocksdb_close(db);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
}

static void null_errptr(void) {
  REQUIRE_SOLISTORE("RocksDB writes the error through a NULL errptr");
  const char *path = db_path("db");
  rocksdb_options_t *o = rocksdb_options_create();
  /* Failing calls with a NULL errptr: the failure value comes back, nothing crashes. */
  EXPECT(rocksdb_open(o, path, NULL) == NULL);
  rocksdb_put(NULL, NULL, S("k"), S("v"), NULL);
  rocksdb_options_set_create_if_missing(o, 1);
  rocksdb_t *db = rocksdb_open(o, path, NULL);
  EXPECT(db != NULL);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  rocksdb_merge(db, wo, S("k"), S("v"), NULL); /* no merge operator: fails */
  /* Succeeding calls with a NULL errptr work normally. */
  rocksdb_put(db, wo, S("k"), S("v"), NULL);
  size_t len = 0;
  char *v = rocksdb_get(db, ro, S("k"), &len, NULL);
  EXPECT_BYTES(v, len, "v");
  free(v);
  rocksdb_close(db);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
}

static void null_data_with_length(void) {
  REQUIRE_SOLISTORE("RocksDB reads through the NULL pointer");
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_t *db = open_ok(o, path);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  char *err = NULL;
  size_t len = 0;
  rocksdb_put(db, wo, NULL, 5, S("v"), &err);
  EXPECT_ERR_PREFIX(err, "Invalid argument: ");
  rocksdb_put(db, wo, S("k"), NULL, 3, &err);
  EXPECT_ERR_PREFIX(err, "Invalid argument: ");
  EXPECT(rocksdb_get(db, ro, NULL, 2, &len, &err) == NULL);
  EXPECT_ERR_PREFIX(err, "Invalid argument: ");
  /* Nothing was written by the failed puts. */
  EXPECT_GET(db, ro, "k", NULL);
  rocksdb_close(db);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
}

static void close_with_live_iterator(void) {
  REQUIRE_SOLISTORE("RocksDB asserts/crashes when closing with live iterators");
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_t *db = open_ok(o, path);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  put_ok(db, wo, "a", "1");
  put_ok(db, wo, "b", "2");
  rocksdb_iterator_t *it = rocksdb_create_iterator(db, ro);
  rocksdb_iter_seek_to_first(it);
  EXPECT_ITER(it, "a", "1");
  rocksdb_close(db);
  /* The LOCK is released: the same process reopens at once. */
  db = open_ok(o, path);
  put_ok(db, wo, "c", "3");
  /* The old iterator is still safe to use: it either keeps its view or reports an error. */
  rocksdb_iter_next(it);
  if (rocksdb_iter_valid(it)) {
    EXPECT_ITER(it, "b", "2");
  } else {
    char *err = NULL;
    rocksdb_iter_get_error(it, &err);
    EXPECTF(err != NULL, "iterator over a closed DB became invalid without an error");
    free(err);
  }
  rocksdb_iter_seek_to_last(it);
  rocksdb_iter_destroy(it);
  EXPECT_GET(db, ro, "b", "2");
  EXPECT_GET(db, ro, "c", "3");
  rocksdb_close(db);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
}

static void close_with_live_snapshot(void) {
  REQUIRE_SOLISTORE("RocksDB asserts when closing with unreleased snapshots");
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_t *db = open_ok(o, path);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  put_ok(db, wo, "a", "1");
  const rocksdb_snapshot_t *snap = rocksdb_create_snapshot(db);
  EXPECT(snap != NULL);
  rocksdb_readoptions_set_snapshot(ro, snap);
  /* Close while the snapshot is live: close must cope. */
  rocksdb_close(db);
#ifdef TESTC_HEADER_V11
  /* The handle outlives its DB; it still knows its sequence number. */
  EXPECT(rocksdb_snapshot_get_sequence_number(snap) >= 1);
#endif
  db = open_ok(o, path);
  rocksdb_readoptions_set_snapshot(ro, NULL);
  EXPECT_GET(db, ro, "a", "1");
  /* solistore's release does not need the DB (documented on rocksdb_release_snapshot), so
   * the abandoned snapshot is freed without its closed rocksdb_t. */
  rocksdb_release_snapshot(NULL, snap);
  rocksdb_close(db);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
}

static void close_with_live_cf_handles(void) {
  REQUIRE_SOLISTORE("RocksDB asserts when closing with live column family handles");
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_options_set_create_missing_column_families(o, 1);
  const char *names[2] = {"default", "cf1"};
  const rocksdb_options_t *cf_opts[2] = {o, o};
  rocksdb_column_family_handle_t *hs[2];
  char *err = NULL;
  rocksdb_t *db = rocksdb_open_column_families(o, path, 2, names, cf_opts, hs, &err);
  EXPECT_NO_ERR(err);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  rocksdb_put_cf(db, wo, hs[1], S("k"), S("v"), &err);
  EXPECT_NO_ERR(err);
  /* Close first (the .NET finalizers run in any order), then destroy the handles. */
  rocksdb_close(db);
  size_t nl = 0;
  char *name = rocksdb_column_family_handle_get_name(hs[1], &nl);
  EXPECT_BYTES(name, nl, "cf1"); /* the handle still answers what it knows */
  free(name);
  rocksdb_column_family_handle_t *old[2] = {hs[0], hs[1]};
  db = rocksdb_open_column_families(o, path, 2, names, cf_opts, hs, &err);
  EXPECT_NO_ERR(err);
  rocksdb_column_family_handle_destroy(old[0]);
  rocksdb_column_family_handle_destroy(old[1]);
  EXPECT_GET_CF(db, ro, hs[1], "k", "v");
  rocksdb_column_family_handle_destroy(hs[0]);
  rocksdb_column_family_handle_destroy(hs[1]);
  rocksdb_close(db);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
}

static void stale_cf_handle_on_new_db(void) {
  REQUIRE_SOLISTORE("RocksDB uses the stale handle's freed memory");
  /* A CF handle from a closed DB passed to a write on a different open DB is refused. */
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_options_set_create_missing_column_families(o, 1);
  const char *names[2] = {"default", "cf1"};
  const rocksdb_options_t *cf_opts[2] = {o, o};
  rocksdb_column_family_handle_t *hs[2];
  char *err = NULL;
  rocksdb_t *db = rocksdb_open_column_families(o, path, 2, names, cf_opts, hs, &err);
  EXPECT_NO_ERR(err);
  rocksdb_close(db);
  const char *path2 = db_path("db2");
  db = open_ok(o, path2);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_put_cf(db, wo, hs[1], S("k"), S("v"), &err);
  EXPECTF(err != NULL, "write through a column family handle of another DB succeeded");
  free(err);
  rocksdb_column_family_handle_destroy(hs[0]);
  rocksdb_column_family_handle_destroy(hs[1]);
  rocksdb_close(db);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
}

TESTC_MAIN("test_misuse", P(null_db_handle), P(null_option_objects), P(null_object_arguments),
           P(null_out_pointers), P(null_errptr), P(null_data_with_length),
           P(close_with_live_iterator), P(close_with_live_snapshot),
           P(close_with_live_cf_handles), P(stale_cf_handle_on_new_db))
