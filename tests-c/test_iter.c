/* SPDX-License-Identifier: Apache-2.0
 * rocksdb_iterator_t: seek/seek_for_prev/seek_to_first/last, next/prev and direction changes,
 * tombstones, bytewise order of binary keys, iterate_lower/upper_bound (and clearing them),
 * point-in-time views (implicit and through a snapshot), per-CF iterators, iter_get_error. */
#include "common.h"

struct fixture {
  const char *path;
  rocksdb_options_t *o;
  rocksdb_writeoptions_t *wo;
  rocksdb_readoptions_t *ro;
  rocksdb_t *db;
};

static struct fixture setup(void) {
  struct fixture f;
  f.path = db_path("db");
  f.o = opts_create();
  f.wo = rocksdb_writeoptions_create();
  f.ro = rocksdb_readoptions_create();
  f.db = open_ok(f.o, f.path);
  return f;
}

static void teardown(struct fixture *f) {
  rocksdb_close(f->db);
  rocksdb_readoptions_destroy(f->ro);
  rocksdb_writeoptions_destroy(f->wo);
  rocksdb_options_destroy(f->o);
}

static void reopen(struct fixture *f) {
  rocksdb_close(f->db);
  f->db = open_ok(f->o, f->path);
}

static void expect_no_iter_error(rocksdb_iterator_t *it) {
  char *err = NULL;
  rocksdb_iter_get_error(it, &err);
  EXPECT_NO_ERR(err);
}

/* Collects the keys seen walking forward from the current position into "k1,k2,...". */
static const char *walk(rocksdb_iterator_t *it, int forward, char *buf, size_t cap) {
  size_t len = 0;
  buf[0] = '\0';
  for (; rocksdb_iter_valid(it); forward ? rocksdb_iter_next(it) : rocksdb_iter_prev(it)) {
    size_t kl = 0;
    const char *k = rocksdb_iter_key(it, &kl);
    int n = snprintf(buf + len, cap - len, "%s%.*s", len ? "," : "", (int)kl, k);
    if (n < 0 || (size_t)n >= cap - len) break;
    len += (size_t)n;
  }
  return buf;
}

#define EXPECT_WALK(it, forward, want)                                                 \
  do {                                                                                 \
    char walk_buf_[512];                                                               \
    const char *got_ = walk((it), (forward), walk_buf_, sizeof walk_buf_);             \
    EXPECTF(strcmp(got_, (want)) == 0, "walked \"%s\", wanted \"%s\"", got_, (want));  \
  } while (0)

static void empty_db(void) {
  struct fixture f = setup();
  rocksdb_iterator_t *it = rocksdb_create_iterator(f.db, f.ro);
  EXPECT(it != NULL);
  EXPECT(!rocksdb_iter_valid(it));
  rocksdb_iter_seek_to_first(it);
  EXPECT(!rocksdb_iter_valid(it));
  rocksdb_iter_seek_to_last(it);
  EXPECT(!rocksdb_iter_valid(it));
  rocksdb_iter_seek(it, S("a"));
  EXPECT(!rocksdb_iter_valid(it));
  rocksdb_iter_seek_for_prev(it, S("a"));
  EXPECT(!rocksdb_iter_valid(it));
  rocksdb_iter_seek(it, NULL, 0); /* (NULL, 0) = the empty key */
  EXPECT(!rocksdb_iter_valid(it));
  expect_no_iter_error(it);
  rocksdb_iter_destroy(it);
  teardown(&f);
}

static void seek_next_prev(void) {
  struct fixture f = setup();
  const char *keys[] = {"e", "a", "c", "b", "d"};
  for (int i = 0; i < 5; i++) {
    char v[8];
    snprintf(v, sizeof v, "v%s", keys[i]);
    put_ok(f.db, f.wo, keys[i], v);
  }
  for (int round = 0; round < 2; round++) {
    rocksdb_iterator_t *it = rocksdb_create_iterator(f.db, f.ro);
    rocksdb_iter_seek_to_first(it);
    EXPECT_ITER(it, "a", "va");
    EXPECT_WALK(it, 1, "a,b,c,d,e");
    EXPECT(!rocksdb_iter_valid(it));
    rocksdb_iter_seek_to_last(it);
    EXPECT_ITER(it, "e", "ve");
    EXPECT_WALK(it, 0, "e,d,c,b,a");
    rocksdb_iter_seek(it, S("c"));
    EXPECT_ITER(it, "c", "vc");
    rocksdb_iter_seek(it, S("bb"));
    EXPECT_ITER(it, "c", "vc");
    rocksdb_iter_seek(it, S("z"));
    EXPECT(!rocksdb_iter_valid(it));
    rocksdb_iter_seek(it, NULL, 0);
    EXPECT_ITER(it, "a", "va");
    rocksdb_iter_seek_for_prev(it, S("bb"));
    EXPECT_ITER(it, "b", "vb");
    rocksdb_iter_seek_for_prev(it, S("c"));
    EXPECT_ITER(it, "c", "vc");
    rocksdb_iter_seek_for_prev(it, S("0"));
    EXPECT(!rocksdb_iter_valid(it));
    rocksdb_iter_seek_for_prev(it, S("zzz"));
    EXPECT_ITER(it, "e", "ve");
    /* Direction changes. */
    rocksdb_iter_seek(it, S("c"));
    rocksdb_iter_prev(it);
    EXPECT_ITER(it, "b", "vb");
    rocksdb_iter_next(it);
    EXPECT_ITER(it, "c", "vc");
    rocksdb_iter_next(it);
    EXPECT_ITER(it, "d", "vd");
    rocksdb_iter_prev(it);
    rocksdb_iter_prev(it);
    EXPECT_ITER(it, "b", "vb");
    /* Off either end: invalid; a seek revives it. */
    rocksdb_iter_seek_to_first(it);
    rocksdb_iter_prev(it);
    EXPECT(!rocksdb_iter_valid(it));
    rocksdb_iter_seek_to_last(it);
    rocksdb_iter_next(it);
    EXPECT(!rocksdb_iter_valid(it));
    rocksdb_iter_seek(it, S("d"));
    EXPECT_ITER(it, "d", "vd");
    expect_no_iter_error(it);
    rocksdb_iter_destroy(it);
    reopen(&f);
  }
  teardown(&f);
}

static void tombstones_and_overwrites(void) {
  struct fixture f = setup();
  char *err = NULL;
  const char *keys[] = {"a", "b", "c", "d", "e", "f"};
  for (int i = 0; i < 6; i++) put_ok(f.db, f.wo, keys[i], "old");
  put_ok(f.db, f.wo, "c", "new");
  rocksdb_delete(f.db, f.wo, S("b"), &err);
  EXPECT_NO_ERR(err);
  rocksdb_delete(f.db, f.wo, S("f"), &err);
  EXPECT_NO_ERR(err);
  rocksdb_delete(f.db, f.wo, S("zz"), &err); /* tombstone for a key never written */
  EXPECT_NO_ERR(err);
  {
    rocksdb_column_family_handle_t *cf = NULL;
    /* delete_range needs a CF handle: reopen through open_column_families. */
    rocksdb_close(f.db);
    f.db = open_default_cf(f.o, f.path, &cf);
    rocksdb_delete_range_cf(f.db, f.wo, cf, S("d"), S("e"), &err);
    EXPECT_NO_ERR(err);
    rocksdb_column_family_handle_destroy(cf);
  }
  for (int round = 0; round < 2; round++) {
    rocksdb_iterator_t *it = rocksdb_create_iterator(f.db, f.ro);
    rocksdb_iter_seek_to_first(it);
    EXPECT_WALK(it, 1, "a,c,e");
    rocksdb_iter_seek_to_last(it);
    EXPECT_WALK(it, 0, "e,c,a");
    rocksdb_iter_seek(it, S("b"));
    EXPECT_ITER(it, "c", "new");
    rocksdb_iter_seek_for_prev(it, S("d"));
    EXPECT_ITER(it, "c", "new");
    rocksdb_iter_seek_for_prev(it, S("b"));
    EXPECT_ITER(it, "a", "old");
    rocksdb_iter_seek(it, S("f"));
    EXPECT(!rocksdb_iter_valid(it));
    rocksdb_iter_destroy(it);
    reopen(&f);
  }
  teardown(&f);
}

static void bytewise_order_of_binary_keys(void) {
  struct fixture f = setup();
  char *err = NULL;
  /* Inserted out of order; expected order is unsigned bytewise, shorter prefix first. */
  const char *ks[] = {"b", "a\x01", "\xff", "a", "a\0", "\x80z", "", "A"};
  const size_t kl[] = {1, 2, 1, 1, 2, 2, 0, 1};
  const int order[] = {6, 7, 3, 4, 1, 0, 5, 2}; /* "", "A", "a", "a\0", "a\1", "b", "\x80z", "\xff" */
  for (int i = 0; i < 8; i++) {
    rocksdb_put(f.db, f.wo, ks[i], kl[i], "v", 1, &err);
    EXPECT_NO_ERR(err);
  }
  rocksdb_iterator_t *it = rocksdb_create_iterator(f.db, f.ro);
  rocksdb_iter_seek_to_first(it);
  for (int i = 0; i < 8; i++) {
    size_t len = 0;
    EXPECTF(rocksdb_iter_valid(it), "ended after %d keys", i);
    const char *k = rocksdb_iter_key(it, &len);
    EXPECTF(len == kl[order[i]] && memcmp(k, ks[order[i]], len) == 0, "position %d", i);
    rocksdb_iter_next(it);
  }
  EXPECT(!rocksdb_iter_valid(it));
  rocksdb_iter_seek_to_last(it);
  for (int i = 7; i >= 0; i--) {
    size_t len = 0;
    EXPECT(rocksdb_iter_valid(it));
    const char *k = rocksdb_iter_key(it, &len);
    EXPECTF(len == kl[order[i]] && memcmp(k, ks[order[i]], len) == 0, "position %d", i);
    rocksdb_iter_prev(it);
  }
  EXPECT(!rocksdb_iter_valid(it));
  /* Seek to "a\0" lands on "a\0", not "a". */
  rocksdb_iter_seek(it, "a\0", 2);
  {
    size_t len = 0;
    const char *k = rocksdb_iter_key(it, &len);
    EXPECT(len == 2 && memcmp(k, "a\0", 2) == 0);
  }
  rocksdb_iter_destroy(it);
  teardown(&f);
}

static void many_keys_sorted(void) {
  struct fixture f = setup();
  const int n = 5000;
  char k[32], v[32];
  /* A permutation of 0..n-1 (n is not a multiple of 7919's factors). */
  for (int i = 0; i < n; i++) {
    int j = (int)(((long)i * 7919) % n);
    snprintf(k, sizeof k, "k%06d", j);
    snprintf(v, sizeof v, "v%d", j);
    put_ok(f.db, f.wo, k, v);
  }
  rocksdb_iterator_t *it = rocksdb_create_iterator(f.db, f.ro);
  int i = 0;
  for (rocksdb_iter_seek_to_first(it); rocksdb_iter_valid(it); rocksdb_iter_next(it), i++) {
    snprintf(k, sizeof k, "k%06d", i);
    snprintf(v, sizeof v, "v%d", i);
    EXPECT_ITER(it, k, v);
  }
  EXPECT(i == n);
  for (rocksdb_iter_seek_to_last(it); rocksdb_iter_valid(it); rocksdb_iter_prev(it)) i--;
  EXPECT(i == 0);
  expect_no_iter_error(it);
  rocksdb_iter_destroy(it);
  teardown(&f);
}

static void upper_bound(void) {
  static const char upper[] = "d";
  struct fixture f = setup();
  const char *keys[] = {"a", "b", "c", "d", "e"};
  for (int i = 0; i < 5; i++) put_ok(f.db, f.wo, keys[i], "v");
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  rocksdb_readoptions_set_iterate_upper_bound(ro, upper, 1);
  rocksdb_iterator_t *it = rocksdb_create_iterator(f.db, ro);
  rocksdb_iter_seek_to_first(it);
  EXPECT_WALK(it, 1, "a,b,c");
  rocksdb_iter_seek_to_last(it);
  EXPECT_WALK(it, 0, "c,b,a");
  rocksdb_iter_seek(it, S("c"));
  EXPECT_ITER(it, "c", "v");
  rocksdb_iter_next(it);
  EXPECT(!rocksdb_iter_valid(it));
  rocksdb_iter_seek(it, S("d"));
  EXPECT(!rocksdb_iter_valid(it));
  rocksdb_iter_seek_for_prev(it, S("c"));
  EXPECT_ITER(it, "c", "v");
  rocksdb_iter_destroy(it);
  /* (NULL, 0) clears the bound. */
  rocksdb_readoptions_set_iterate_upper_bound(ro, NULL, 0);
  it = rocksdb_create_iterator(f.db, ro);
  rocksdb_iter_seek_to_first(it);
  EXPECT_WALK(it, 1, "a,b,c,d,e");
  rocksdb_iter_destroy(it);
  rocksdb_readoptions_destroy(ro);
  teardown(&f);
}

static void lower_bound(void) {
  static const char lower[] = "b";
  struct fixture f = setup();
  const char *keys[] = {"a", "b", "c", "d", "e"};
  for (int i = 0; i < 5; i++) put_ok(f.db, f.wo, keys[i], "v");
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  rocksdb_readoptions_set_iterate_lower_bound(ro, lower, 1);
  rocksdb_iterator_t *it = rocksdb_create_iterator(f.db, ro);
  rocksdb_iter_seek_to_first(it);
  EXPECT_WALK(it, 1, "b,c,d,e");
  rocksdb_iter_seek_to_last(it);
  EXPECT_WALK(it, 0, "e,d,c,b");
  rocksdb_iter_seek(it, S("b"));
  rocksdb_iter_prev(it);
  EXPECT(!rocksdb_iter_valid(it));
  rocksdb_iter_seek_for_prev(it, S("b"));
  EXPECT_ITER(it, "b", "v");
  rocksdb_iter_seek_for_prev(it, S("a"));
  EXPECT(!rocksdb_iter_valid(it));
  rocksdb_iter_destroy(it);
  rocksdb_readoptions_set_iterate_lower_bound(ro, NULL, 0);
  it = rocksdb_create_iterator(f.db, ro);
  rocksdb_iter_seek_to_last(it);
  EXPECT_WALK(it, 0, "e,d,c,b,a");
  rocksdb_iter_destroy(it);
  rocksdb_readoptions_destroy(ro);
  teardown(&f);
}

static void both_bounds(void) {
  static const char lower[] = "b";
  static const char upper[] = "e";
  struct fixture f = setup();
  const char *keys[] = {"a", "b", "c", "d", "e", "f"};
  for (int i = 0; i < 6; i++) put_ok(f.db, f.wo, keys[i], "v");
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  rocksdb_readoptions_set_iterate_lower_bound(ro, lower, 1);
  rocksdb_readoptions_set_iterate_upper_bound(ro, upper, 1);
  rocksdb_iterator_t *it = rocksdb_create_iterator(f.db, ro);
  rocksdb_iter_seek_to_first(it);
  EXPECT_WALK(it, 1, "b,c,d");
  rocksdb_iter_seek_to_last(it);
  EXPECT_WALK(it, 0, "d,c,b");
  /* Writes after creation are invisible to this iterator, bounds or not. */
  put_ok(f.db, f.wo, "bb", "v");
  rocksdb_iter_seek_to_first(it);
  EXPECT_WALK(it, 1, "b,c,d");
  rocksdb_iter_destroy(it);
  it = rocksdb_create_iterator(f.db, ro);
  rocksdb_iter_seek_to_first(it);
  EXPECT_WALK(it, 1, "b,bb,c,d");
  rocksdb_iter_destroy(it);
  rocksdb_readoptions_destroy(ro);
  teardown(&f);
}

static void point_in_time_view(void) {
  struct fixture f = setup();
  char *err = NULL;
  put_ok(f.db, f.wo, "a", "1");
  put_ok(f.db, f.wo, "b", "1");
  put_ok(f.db, f.wo, "c", "1");
  rocksdb_iterator_t *it = rocksdb_create_iterator(f.db, f.ro);
  /* Writes after the iterator was created: not seen by it. */
  put_ok(f.db, f.wo, "a", "2");
  put_ok(f.db, f.wo, "bb", "2");
  rocksdb_delete(f.db, f.wo, S("c"), &err);
  EXPECT_NO_ERR(err);
  rocksdb_iter_seek_to_first(it);
  EXPECT_ITER(it, "a", "1");
  rocksdb_iter_next(it);
  EXPECT_ITER(it, "b", "1");
  /* Writes while the iterator walks (Kahuna writes batches during its scan). */
  for (int i = 0; i < 100; i++) {
    char k[16];
    snprintf(k, sizeof k, "b%03d", i);
    put_ok(f.db, f.wo, k, "during");
  }
  rocksdb_iter_next(it);
  EXPECT_ITER(it, "c", "1");
  rocksdb_iter_next(it);
  EXPECT(!rocksdb_iter_valid(it));
  rocksdb_iter_destroy(it);
  /* A new iterator sees everything. */
  it = rocksdb_create_iterator(f.db, f.ro);
  rocksdb_iter_seek_to_first(it);
  EXPECT_ITER(it, "a", "2");
  rocksdb_iter_seek(it, S("c"));
  EXPECT(!rocksdb_iter_valid(it));
  rocksdb_iter_destroy(it);
  teardown(&f);
}

static void snapshot_view(void) {
  struct fixture f = setup();
  char *err = NULL;
  put_ok(f.db, f.wo, "a", "1");
  put_ok(f.db, f.wo, "b", "1");
  const rocksdb_snapshot_t *snap = rocksdb_create_snapshot(f.db);
  EXPECT(snap != NULL);
  put_ok(f.db, f.wo, "a", "2");
  put_ok(f.db, f.wo, "c", "2");
  rocksdb_delete(f.db, f.wo, S("b"), &err);
  EXPECT_NO_ERR(err);
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  rocksdb_readoptions_set_snapshot(ro, snap);
  /* Created after the writes, but reading at the snapshot. */
  rocksdb_iterator_t *it = rocksdb_create_iterator(f.db, ro);
  rocksdb_iter_seek_to_first(it);
  EXPECT_ITER(it, "a", "1");
  EXPECT_WALK(it, 1, "a,b");
  rocksdb_iter_seek_to_last(it);
  EXPECT_ITER(it, "b", "1");
  rocksdb_iter_destroy(it);
  /* NULL clears the snapshot. */
  rocksdb_readoptions_set_snapshot(ro, NULL);
  it = rocksdb_create_iterator(f.db, ro);
  rocksdb_iter_seek_to_first(it);
  EXPECT_WALK(it, 1, "a,c");
  rocksdb_iter_destroy(it);
  rocksdb_readoptions_destroy(ro);
  rocksdb_release_snapshot(f.db, snap);
  teardown(&f);
}

static void key_and_value_valid_together(void) {
  /* Key and value pointers stay valid together until the next move (RocksDbSharp reads both
   * spans in place). */
  struct fixture f = setup();
  put_ok(f.db, f.wo, "k1", "value-one");
  put_ok(f.db, f.wo, "k2", "value-two");
  rocksdb_iterator_t *it = rocksdb_create_iterator(f.db, f.ro);
  rocksdb_iter_seek_to_first(it);
  size_t kl = 0, vl = 0;
  const char *k = rocksdb_iter_key(it, &kl);
  const char *v = rocksdb_iter_value(it, &vl);
  const char *k2 = rocksdb_iter_key(it, &kl); /* asking again is fine */
  EXPECT_BYTES(k, kl, "k1");
  EXPECT_BYTES(k2, kl, "k1");
  EXPECT_BYTES(v, vl, "value-one");
  put_ok(f.db, f.wo, "k1", "changed");
  EXPECT_BYTES(k, kl, "k1");
  EXPECT_BYTES(v, vl, "value-one");
  rocksdb_iter_destroy(it);
  teardown(&f);
}

static void cf_iterators(void) {
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_options_set_create_missing_column_families(o, 1);
  const char *names[3] = {"default", "one", "two"};
  const rocksdb_options_t *cf_opts[3] = {o, o, o};
  rocksdb_column_family_handle_t *cfs[3] = {NULL, NULL, NULL};
  char *err = NULL;
  rocksdb_t *db = rocksdb_open_column_families(o, path, 3, names, cf_opts, cfs, &err);
  EXPECT_NO_ERR(err);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  for (int c = 0; c < 3; c++) {
    for (int i = 0; i <= c; i++) {
      char k[16];
      snprintf(k, sizeof k, "%s-%d", names[c], i);
      rocksdb_put_cf(db, wo, cfs[c], S(k), S("v"), &err);
      EXPECT_NO_ERR(err);
    }
  }
  rocksdb_iterator_t *it = rocksdb_create_iterator_cf(db, ro, cfs[2]);
  rocksdb_iter_seek_to_first(it);
  EXPECT_WALK(it, 1, "two-0,two-1,two-2");
  rocksdb_iter_destroy(it);
  rocksdb_iterator_t *its[3] = {NULL, NULL, NULL};
  rocksdb_create_iterators(db, ro, cfs, its, 3, &err);
  EXPECT_NO_ERR(err);
  rocksdb_iter_seek_to_last(its[0]);
  EXPECT_WALK(its[0], 0, "default-0");
  rocksdb_iter_seek_to_first(its[1]);
  EXPECT_WALK(its[1], 1, "one-0,one-1");
  rocksdb_iter_seek(its[2], S("two-1"));
  EXPECT_WALK(its[2], 1, "two-1,two-2");
  for (int c = 0; c < 3; c++) {
    rocksdb_iter_destroy(its[c]);
    rocksdb_column_family_handle_destroy(cfs[c]);
  }
  rocksdb_close(db);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
}

static void get_error_leaves_preset_message(void) {
  struct fixture f = setup();
  put_ok(f.db, f.wo, "a", "1");
  rocksdb_iterator_t *it = rocksdb_create_iterator(f.db, f.ro);
  rocksdb_iter_seek_to_first(it);
  char *err = strdup("old error");
  rocksdb_iter_get_error(it, &err);
  EXPECT(err != NULL && strcmp(err, "old error") == 0);
  free(err);
  rocksdb_iter_destroy(it);
  teardown(&f);
}

static void slices_and_refresh(void) {
  REQUIRE_V11_HEADER("rocksdb_iter_key_slice, rocksdb_iter_refresh");
#ifdef TESTC_HEADER_V11
  struct fixture f = setup();
  put_ok(f.db, f.wo, "a", "1");
  rocksdb_iterator_t *it = rocksdb_create_iterator(f.db, f.ro);
  rocksdb_iter_seek_to_first(it);
  rocksdb_slice_t k = rocksdb_iter_key_slice(it);
  rocksdb_slice_t v = rocksdb_iter_value_slice(it);
  EXPECT_BYTES(k.data, k.size, "a");
  EXPECT_BYTES(v.data, v.size, "1");
  /* No user-defined timestamps: the timestamp slice is empty. */
  rocksdb_slice_t ts = rocksdb_iter_timestamp_slice(it);
  EXPECT(ts.size == 0);
  put_ok(f.db, f.wo, "b", "2");
  char *err = NULL;
  rocksdb_iter_refresh(it, &err);
  EXPECT_NO_ERR(err);
  rocksdb_iter_seek_to_first(it);
  EXPECT_WALK(it, 1, "a,b");
  rocksdb_iter_destroy(it);
  teardown(&f);
#endif
}

TESTC_MAIN("test_iter", P(empty_db), P(seek_next_prev), P(tombstones_and_overwrites),
           P(bytewise_order_of_binary_keys), P(many_keys_sorted), P(upper_bound),
           P(lower_bound), P(both_bounds), P(point_in_time_view), P(snapshot_view),
           P(key_and_value_valid_together), P(cf_iterators),
           P(get_error_leaves_preset_message), P(slices_and_refresh))
