/* SPDX-License-Identifier: Apache-2.0
 * Misuse that RocksDB answers with a crash but solistore promises to survive (solistore-only:
 * every phase SKIPs on librocksdb): NULL handles and NULL out-pointers, NULL errptr on failing
 * and succeeding calls, NULL data with a non-zero length, and closing a DB while iterators,
 * snapshots or column-family handles are still alive (close releases the LOCK; the dependent
 * objects stay safe to query and destroy), every DB-bound object used after close, lengths no
 * buffer can have (refused before a byte is read: see capi/src/ffi.rs), double destroys of
 * objects whose ownership moved to options, and a sweep of NULL handles across the families.
 * Run under AddressSanitizer and valgrind by `make test`: zero errors, zero leaks. */
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

static void huge_lengths_are_never_read(void) {
  REQUIRE_SOLISTORE("RocksDB reads SIZE_MAX bytes from the pointer and crashes");
  /* The rule (capi/src/ffi.rs): a key, value, bound or blob longer than 4294967295 bytes, or
   * an array or buffer larger than isize::MAX bytes, is refused before any byte is read. Every
   * call below passes a valid one-byte buffer with a length it cannot have; ASan and valgrind
   * would report a single byte read past it. */
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_t *db = open_ok(o, path);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  const char *one = "k"; /* one readable byte (plus its NUL) */
  const size_t huge[3] = {SIZE_MAX, (size_t)1 << 40, (size_t)UINT32_MAX + 1};
  char *err = NULL;
  put_ok(db, wo, "k", "v");
  for (int i = 0; i < 3; i++) {
    size_t n = huge[i];
    size_t len = 77;
    rocksdb_put(db, wo, one, n, S("v"), &err);
    EXPECT_ERR_PREFIX(err, "Invalid argument: length ");
    rocksdb_put(db, wo, S("k2"), one, n, &err);
    EXPECT_ERR_PREFIX(err, "Invalid argument: length ");
    rocksdb_merge(db, wo, one, n, S("v"), &err);
    EXPECT_ERR_PREFIX(err, "Invalid argument: ");
    rocksdb_delete(db, wo, one, n, &err);
    EXPECT_ERR_PREFIX(err, "Invalid argument: length ");
    rocksdb_singledelete(db, wo, one, n, &err);
    EXPECT_ERR_PREFIX(err, "Invalid argument: length ");
    EXPECT(rocksdb_get(db, ro, one, n, &len, &err) == NULL && len == 0);
    EXPECT_ERR_PREFIX(err, "Invalid argument: length ");
    EXPECT(rocksdb_get_pinned(db, ro, one, n, &err) == NULL);
    EXPECT_ERR_PREFIX(err, "Invalid argument: length ");
    EXPECT(rocksdb_key_may_exist(db, ro, one, n, NULL, NULL, NULL, 0, NULL) == 0);
    rocksdb_column_family_handle_t *cf = NULL;
    rocksdb_delete_range_cf(db, wo, NULL, one, n, S("z"), &err);
    EXPECT_ERR_PREFIX(err, "Invalid argument: ");
    (void)cf;
    /* Batches (no errptr: the record is not added). */
    rocksdb_writebatch_t *b = rocksdb_writebatch_create();
    rocksdb_writebatch_put(b, one, n, S("v"));
    rocksdb_writebatch_put(b, S("k"), one, n);
    rocksdb_writebatch_delete(b, one, n);
    rocksdb_writebatch_merge(b, one, n, S("v"));
    rocksdb_writebatch_put_log_data(b, one, n);
    EXPECT(rocksdb_writebatch_count(b) == 0);
    rocksdb_writebatch_destroy(b);
    /* A rep that size cannot be: no batch. */
    if (n > (size_t)PTRDIFF_MAX) EXPECT(rocksdb_writebatch_create_from(one, n) == NULL);
    /* Iterators: a seek with such a key leaves the iterator invalid with an error. */
    rocksdb_iterator_t *it = rocksdb_create_iterator(db, ro);
    rocksdb_iter_seek(it, one, n);
    EXPECT(!rocksdb_iter_valid(it));
    rocksdb_iter_seek_for_prev(it, one, n);
    EXPECT(!rocksdb_iter_valid(it));
    rocksdb_iter_destroy(it);
    /* Bounds and compaction ranges without errptr: refused, nothing read. */
    rocksdb_readoptions_t *rb = rocksdb_readoptions_create();
    rocksdb_readoptions_set_iterate_upper_bound(rb, one, n);
    rocksdb_readoptions_set_iterate_lower_bound(rb, one, n);
    it = rocksdb_create_iterator(db, rb);
    rocksdb_iter_seek_to_first(it);
    EXPECT_ITER(it, "k", "v"); /* no bound was set */
    rocksdb_iter_destroy(it);
    rocksdb_readoptions_destroy(rb);
    rocksdb_compact_range(db, one, n, NULL, 0);
    rocksdb_compact_range(db, NULL, 0, one, n);
    /* Multi-get: the bad key fails with an error, the arrays are filled as usual. */
    const char *keys[2] = {"k", one};
    size_t key_sizes[2] = {1, n};
    char *vals[2] = {(char *)1, (char *)1};
    size_t vsizes[2] = {9, 9};
    char *errs[2] = {NULL, NULL};
    rocksdb_multi_get(db, ro, 2, keys, key_sizes, vals, vsizes, errs);
    EXPECT(errs[1] != NULL && strncmp(errs[1], "Invalid argument: ", 18) == 0);
    EXPECT(vals[1] == NULL && vsizes[1] == 0);
    for (int j = 0; j < 2; j++) {
      free(errs[j]);
      free(vals[j]);
    }
  }
  /* A multi-get count no array can hold: nothing is written through the arrays (they hold
   * one entry each here). */
  {
    const char *keys[1] = {"k"};
    size_t key_sizes[1] = {1};
    char *vals[1] = {(char *)1};
    size_t vsizes[1] = {9};
    char *errs[1] = {(char *)1};
    rocksdb_multi_get(db, ro, SIZE_MAX, keys, key_sizes, vals, vsizes, errs);
    EXPECT(vals[0] == (char *)1 && vsizes[0] == 9 && errs[0] == (char *)1);
  }
  /* Negative counts. */
  const char *names[1] = {"default"};
  const rocksdb_options_t *cf_opts[1] = {o};
  rocksdb_column_family_handle_t *hs[1] = {NULL};
  rocksdb_close(db);
  EXPECT(rocksdb_open_column_families(o, path, -1, names, cf_opts, hs, &err) == NULL);
  EXPECT_ERR_PREFIX(err, "Invalid argument: ");
  db = open_ok(o, path);
  /* Nothing above was written. */
  EXPECT_GET(db, ro, "k", "v");
  EXPECT_GET(db, ro, "k2", NULL);
  rocksdb_close(db);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
}

static void children_used_after_close(void) {
  REQUIRE_SOLISTORE("RocksDB frees what these objects point into when the DB closes");
  /* Every kind of object tied to a DB, used after rocksdb_close: each answers from what it
   * kept or with an error, and each is destroyed afterwards without a leak. */
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
  put_ok(db, wo, "a", "1");
  rocksdb_put_cf(db, wo, hs[1], S("b"), S("2"), &err);
  EXPECT_NO_ERR(err);
  rocksdb_pinnableslice_t *pin = rocksdb_get_pinned(db, ro, S("a"), &err);
  EXPECT_NO_ERR(err);
  rocksdb_iterator_t *it = rocksdb_create_iterator_cf(db, ro, hs[1]);
  rocksdb_iter_seek_to_first(it);
  const rocksdb_snapshot_t *snap = rocksdb_create_snapshot(db);
  rocksdb_checkpoint_t *cp = rocksdb_checkpoint_object_create(db, &err);
  EXPECT_NO_ERR(err);
  rocksdb_writebatch_t *b = rocksdb_writebatch_create();
  rocksdb_writebatch_put_cf(b, hs[1], S("c"), S("3"));
  rocksdb_close(db);
  /* The pinned value was copied out: still readable. */
  size_t vl = 0;
  const char *v = rocksdb_pinnableslice_value(pin, &vl);
  EXPECT_BYTES(v, vl, "1");
  rocksdb_pinnableslice_destroy(pin);
  /* The iterator keeps its view or reports an error, and every call is safe. */
  if (rocksdb_iter_valid(it)) EXPECT_ITER(it, "b", "2");
  rocksdb_iter_next(it);
  rocksdb_iter_prev(it);
  rocksdb_iter_seek(it, S("a"));
  rocksdb_iter_seek_for_prev(it, S("z"));
  rocksdb_iter_seek_to_last(it);
  size_t kl = 0;
  (void)rocksdb_iter_key(it, &kl);
  (void)rocksdb_iter_value(it, &kl);
  rocksdb_iter_get_error(it, &err);
  free(err);
  err = NULL;
#ifdef TESTC_HEADER_V11
  rocksdb_iter_refresh(it, &err);
  free(err);
  err = NULL;
#endif
  rocksdb_iter_destroy(it);
  /* The checkpoint object refuses to work for a closed DB. */
  const char *cpd = db_path("cp");
  rocksdb_checkpoint_create(cp, cpd, 0, &err);
  EXPECT_ERR_PREFIX(err, "Invalid argument: ");
  EXPECT(!testc_path_exists(cpd));
  rocksdb_checkpoint_object_destroy(cp);
  /* Column family handles still know their name and id. */
  size_t nl = 0;
  char *name = rocksdb_column_family_handle_get_name(hs[1], &nl);
  EXPECT_BYTES(name, nl, "cf1");
  free(name);
  /* Reopen: a snapshot and CF handles of the old DB are refused by the new one. */
  rocksdb_column_family_handle_t *old[2] = {hs[0], hs[1]};
  db = rocksdb_open_column_families(o, path, 2, names, cf_opts, hs, &err);
  EXPECT_NO_ERR(err);
  rocksdb_put_cf(db, wo, old[1], S("stale"), S("x"), &err);
  EXPECTF(err != NULL, "a column family handle of the closed DB wrote to the new one");
  free(err);
  err = NULL;
  rocksdb_column_family_handle_destroy(old[0]);
  rocksdb_column_family_handle_destroy(old[1]);
  rocksdb_readoptions_t *at_snap = rocksdb_readoptions_create();
  rocksdb_readoptions_set_snapshot(at_snap, snap);
  size_t len = 0;
  char *got = rocksdb_get(db, at_snap, S("a"), &len, &err);
  /* Either refused, or answered at the old snapshot's sequence: never a crash. */
  if (err != NULL) {
    EXPECT(got == NULL);
    free(err);
    err = NULL;
  } else {
    free(got);
  }
  rocksdb_readoptions_destroy(at_snap);
  rocksdb_release_snapshot(db, snap);
  /* The batch names cf1 by id: written to the reopened DB it lands in its cf1. */
  rocksdb_write(db, wo, b, &err);
  EXPECT_NO_ERR(err);
  rocksdb_writebatch_destroy(b);
  EXPECT_GET_CF(db, ro, hs[1], "c", "3");
  rocksdb_column_family_handle_destroy(hs[0]);
  rocksdb_column_family_handle_destroy(hs[1]);
  rocksdb_close(db);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
}

#ifdef TESTC_HEADER_V11
/* Destructor counters for the ownership phase. */
static int g_destroyed[3];
static void count_destroy(void *p) { (*(int *)p)++; }
static const char *misuse_name(void *p) {
  (void)p;
  return "testc.misuse";
}
static char *misuse_full_merge(void *s, const char *k, size_t kl, const char *ev, size_t el,
                               const char *const *ops, const size_t *ol, int n,
                               unsigned char *ok, size_t *nl) {
  (void)s; (void)k; (void)kl; (void)ev; (void)el; (void)ops; (void)ol; (void)n;
  *ok = 1;
  *nl = 1;
  char *r = malloc(1);
  if (r != NULL) r[0] = 'm';
  return r;
}
static char *misuse_transform(void *s, const char *k, size_t l, size_t *dl) {
  (void)s;
  *dl = l < 2 ? l : 2;
  return (char *)k;
}
static unsigned char misuse_in_domain(void *s, const char *k, size_t l) {
  (void)s; (void)k; (void)l;
  return 1;
}
static rocksdb_compactionfilter_t *misuse_make_filter(void *s,
                                                      rocksdb_compactionfiltercontext_t *c) {
  (void)s; (void)c;
  return NULL;
}
#endif

static void double_destroy_of_transferred_objects(void) {
  REQUIRE_SOLISTORE("RocksDB double-frees an installed object destroyed by the caller");
  /* 7.8.3's rocksdb_slicetransform_create has an extra in_range callback (11.1.2's
   * signature is exported). */
  REQUIRE_V11_HEADER("rocksdb_slicetransform_create with 11.1.2's signature");
#ifdef TESTC_HEADER_V11
  /* Merge operators, prefix extractors, filter policies and compaction filter factories
   * belong to the options once set. Destroying one anyway (once or twice), or setting the
   * same handle on a second options object, is detectable: the destroy does nothing and the
   * second set shares the object. Each destructor runs exactly once, when the last holder
   * goes. */
  memset(g_destroyed, 0, sizeof g_destroyed);
  rocksdb_mergeoperator_t *mo = rocksdb_mergeoperator_create(
      &g_destroyed[0], count_destroy, misuse_full_merge, NULL, NULL, misuse_name);
  rocksdb_slicetransform_t *st = rocksdb_slicetransform_create(
      &g_destroyed[1], count_destroy, misuse_transform, misuse_in_domain, misuse_name);
  rocksdb_compactionfilterfactory_t *cf = rocksdb_compactionfilterfactory_create(
      &g_destroyed[2], count_destroy, misuse_make_filter, misuse_name);
  rocksdb_filterpolicy_t *fp = rocksdb_filterpolicy_create_bloom_full(10);
  rocksdb_options_t *o1 = opts_create();
  rocksdb_options_t *o2 = opts_create();
  rocksdb_block_based_table_options_t *t1 = rocksdb_block_based_options_create();
  rocksdb_block_based_table_options_t *t2 = rocksdb_block_based_options_create();
  rocksdb_options_set_merge_operator(o1, mo);
  rocksdb_options_set_prefix_extractor(o1, st);
  rocksdb_options_set_compaction_filter_factory(o1, cf);
  rocksdb_block_based_options_set_filter_policy(t1, fp);
  /* The same handles again, on other objects. */
  rocksdb_options_set_merge_operator(o2, mo);
  rocksdb_options_set_prefix_extractor(o2, st);
  rocksdb_options_set_compaction_filter_factory(o2, cf);
  rocksdb_block_based_options_set_filter_policy(t2, fp);
  /* Destroyed by the caller anyway, twice. */
  for (int i = 0; i < 2; i++) {
    rocksdb_mergeoperator_destroy(mo);
    rocksdb_slicetransform_destroy(st);
    rocksdb_compactionfilterfactory_destroy(cf);
    rocksdb_filterpolicy_destroy(fp);
  }
  EXPECT(g_destroyed[0] == 0 && g_destroyed[1] == 0 && g_destroyed[2] == 0);
  /* Both option objects still work: a DB merges with the shared operator. */
  rocksdb_options_set_block_based_table_factory(o2, t2);
  rocksdb_t *db = open_ok(o2, db_path("db"));
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  char *err = NULL;
  rocksdb_merge(db, wo, S("k"), S("x"), &err);
  EXPECT_NO_ERR(err);
  EXPECT_GET(db, ro, "k", "m");
  rocksdb_options_destroy(o1);
  rocksdb_block_based_options_destroy(t1);
  EXPECT(g_destroyed[0] == 0); /* o2 and the DB still hold it */
  rocksdb_options_destroy(o2);
  rocksdb_block_based_options_destroy(t2);
  EXPECT(g_destroyed[0] == 0); /* the DB still holds it */
  rocksdb_close(db);
  EXPECT(g_destroyed[0] == 1 && g_destroyed[1] == 1 && g_destroyed[2] == 1);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
#endif
}

static void null_handles_everywhere(void) {
  REQUIRE_SOLISTORE("RocksDB dereferences every one of these NULLs");
  /* A sweep of NULL handles across the object families: each call returns its failure value
   * or reports `Invalid argument: ... is NULL`, and nothing crashes. */
  char *err = NULL;
  size_t len = 5;
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_t *db = open_ok(o, path);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  /* DB-level calls with a NULL db. */
  rocksdb_merge(NULL, wo, S("k"), S("v"), &err);
  EXPECT_NULL_HANDLE_ERR(err);
  rocksdb_singledelete(NULL, wo, S("k"), &err);
  EXPECT_NULL_HANDLE_ERR(err);
  EXPECT(rocksdb_get_pinned(NULL, ro, S("k"), &err) == NULL);
  EXPECT_NULL_HANDLE_ERR(err);
  EXPECT(rocksdb_key_may_exist(NULL, ro, S("k"), NULL, NULL, NULL, 0, NULL) == 0);
  rocksdb_flushoptions_t *fo = rocksdb_flushoptions_create();
  rocksdb_flush(NULL, fo, &err);
  EXPECT_NULL_HANDLE_ERR(err);
  rocksdb_compact_range(NULL, NULL, 0, NULL, 0);
  EXPECT(rocksdb_checkpoint_object_create(NULL, &err) == NULL);
  EXPECT_NULL_HANDLE_ERR(err);
  EXPECT(rocksdb_create_column_family(NULL, o, "x", &err) == NULL);
  EXPECT_NULL_HANDLE_ERR(err);
  rocksdb_drop_column_family(NULL, NULL, &err);
  EXPECT_NULL_HANDLE_ERR(err);
  rocksdb_release_snapshot(NULL, NULL);
  EXPECT(rocksdb_get_latest_sequence_number(NULL) == 0);
  {
    const char *keys[2] = {"a", "b"};
    size_t ks[2] = {1, 1};
    char *vals[2] = {(char *)1, (char *)1};
    size_t vs[2] = {9, 9};
    char *errs[2] = {NULL, NULL};
    rocksdb_multi_get(NULL, ro, 2, keys, ks, vals, vs, errs);
    for (int i = 0; i < 2; i++) {
      EXPECT(vals[i] == NULL && vs[i] == 0);
      EXPECT_NULL_HANDLE_ERR(errs[i]);
    }
  }
  /* A live DB with NULL column families, names and options. */
  EXPECT(rocksdb_create_column_family(db, NULL, "x", &err) == NULL);
  EXPECT_NULL_HANDLE_ERR(err);
  EXPECT(rocksdb_create_column_family(db, o, NULL, &err) == NULL);
  EXPECT_NULL_HANDLE_ERR(err);
  rocksdb_drop_column_family(db, NULL, &err);
  EXPECT_NULL_HANDLE_ERR(err);
  rocksdb_put_cf(db, wo, NULL, S("k"), S("v"), &err);
  EXPECT_NULL_HANDLE_ERR(err);
  EXPECT(rocksdb_get_cf(db, ro, NULL, S("k"), &len, &err) == NULL);
  EXPECT_NULL_HANDLE_ERR(err);
  EXPECT(rocksdb_create_iterator_cf(db, ro, NULL) == NULL);
  rocksdb_flush(db, NULL, &err);
  EXPECT_NULL_HANDLE_ERR(err);
  EXPECT(rocksdb_property_value(db, NULL) == NULL);
  char **listed = rocksdb_list_column_families(o, NULL, &len, &err);
  EXPECT_NULL_HANDLE_ERR(err);
  EXPECT(len == 0);
  rocksdb_list_column_families_destroy(listed, len);
  rocksdb_destroy_db(o, NULL, &err);
  EXPECT_NULL_HANDLE_ERR(err);
  EXPECT(rocksdb_open(o, NULL, &err) == NULL);
  EXPECT_NULL_HANDLE_ERR(err);
  /* Option objects: NULL setters are ignored, NULL getters give 0. */
  rocksdb_options_set_write_buffer_size(NULL, 1);
  EXPECT(rocksdb_options_get_write_buffer_size(NULL) == 0);
  rocksdb_options_set_merge_operator(NULL, NULL);
  rocksdb_options_set_comparator(NULL, NULL);
  rocksdb_options_set_block_based_table_factory(NULL, NULL);
  rocksdb_options_set_block_based_table_factory(o, NULL);
  rocksdb_readoptions_set_fill_cache(NULL, 0);
  EXPECT(rocksdb_readoptions_get_fill_cache(NULL) == 0);
  rocksdb_writeoptions_set_sync(NULL, 1);
  EXPECT(rocksdb_writeoptions_get_sync(NULL) == 0);
  rocksdb_block_based_options_set_block_size(NULL, 1);
  rocksdb_block_based_options_set_filter_policy(NULL, NULL);
  rocksdb_block_based_options_set_block_cache(NULL, NULL);
  EXPECT(rocksdb_options_create_copy(NULL) == NULL);
  rocksdb_flushoptions_set_wait(NULL, 1);
  rocksdb_cache_set_capacity(NULL, 1);
  EXPECT(rocksdb_cache_get_usage(NULL) == 0 && rocksdb_cache_get_capacity(NULL) == 0);
  /* Batches and iterators. */
  rocksdb_writebatch_put_cf(NULL, NULL, S("k"), S("v"));
  rocksdb_writebatch_t *b = rocksdb_writebatch_create();
  rocksdb_writebatch_put_cf(b, NULL, S("k"), S("v"));
  rocksdb_writebatch_delete_cf(b, NULL, S("k"));
  EXPECT(rocksdb_writebatch_count(b) == 0);
  rocksdb_writebatch_iterate(NULL, NULL, NULL, NULL);
  rocksdb_writebatch_set_save_point(NULL);
  rocksdb_writebatch_pop_save_point(NULL, &err);
  EXPECT_NULL_HANDLE_ERR(err);
  rocksdb_writebatch_destroy(b);
  rocksdb_iter_seek(NULL, S("k"));
  rocksdb_iter_seek_for_prev(NULL, S("k"));
  rocksdb_iter_prev(NULL);
  rocksdb_iter_seek_to_last(NULL);
  len = 5;
  EXPECT(rocksdb_iter_value(NULL, &len) == NULL && len == 0);
  /* Snapshots, column family handles, checkpoints, pinnable slices. */
  EXPECT(rocksdb_column_family_handle_get_id(NULL) == 0);
  len = 5;
  EXPECT(rocksdb_column_family_handle_get_name(NULL, &len) == NULL);
  rocksdb_checkpoint_create(NULL, path, 0, &err);
  EXPECT_NULL_HANDLE_ERR(err);
  rocksdb_checkpoint_object_destroy(NULL);
  len = 5;
  EXPECT(rocksdb_pinnableslice_value(NULL, &len) == NULL && len == 0);
  /* Every call above left the DB as it was. */
  put_ok(db, wo, "k", "v");
  EXPECT_GET(db, ro, "k", "v");
  rocksdb_flushoptions_destroy(fo);
  rocksdb_close(db);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
  /* And the destroys of every family accept NULL. */
  rocksdb_flushoptions_destroy(NULL);
  rocksdb_cache_destroy(NULL);
  rocksdb_comparator_destroy(NULL);
  rocksdb_mergeoperator_destroy(NULL);
  rocksdb_compactionfilter_destroy(NULL);
  rocksdb_compactionfilterfactory_destroy(NULL);
  rocksdb_slicetransform_destroy(NULL);
  rocksdb_filterpolicy_destroy(NULL);
  rocksdb_universal_compaction_options_destroy(NULL);
  rocksdb_fifo_compaction_options_destroy(NULL);
  rocksdb_cuckoo_options_destroy(NULL);
  rocksdb_lru_cache_options_destroy(NULL);
  rocksdb_env_destroy(NULL);
  rocksdb_dbpath_destroy(NULL);
  rocksdb_compactoptions_destroy(NULL);
  rocksdb_column_family_handle_destroy(NULL);
  rocksdb_list_column_families_destroy(NULL, 0);
#ifdef TESTC_HEADER_V11
  rocksdb_write_buffer_manager_destroy(NULL);
  rocksdb_pinnable_handle_destroy(NULL);
#endif
}

TESTC_MAIN("test_misuse", P(null_db_handle), P(null_option_objects), P(null_object_arguments),
           P(null_out_pointers), P(null_errptr), P(null_data_with_length),
           P(close_with_live_iterator), P(close_with_live_snapshot),
           P(close_with_live_cf_handles), P(stale_cf_handle_on_new_db),
           P(huge_lengths_are_never_read), P(children_used_after_close),
           P(double_destroy_of_transferred_objects), P(null_handles_everywhere))
