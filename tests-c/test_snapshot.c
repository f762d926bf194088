/* SPDX-License-Identifier: Apache-2.0
 * rocksdb_snapshot_t: point-in-time gets, multi_get and iterators at a snapshot, nested
 * snapshots released out of order, consistency across column families, and sequence numbers
 * (rocksdb_get_latest_sequence_number, rocksdb_snapshot_get_sequence_number). */
#include "common.h"

struct fixture {
  const char *path;
  rocksdb_options_t *o;
  rocksdb_writeoptions_t *wo;
  rocksdb_readoptions_t *ro;
  rocksdb_t *db;
  rocksdb_column_family_handle_t *cfs[2];
};

static struct fixture setup(void) {
  struct fixture f;
  f.path = db_path("db");
  f.o = opts_create();
  rocksdb_options_set_create_missing_column_families(f.o, 1);
  f.wo = rocksdb_writeoptions_create();
  f.ro = rocksdb_readoptions_create();
  const char *names[2] = {"default", "other"};
  const rocksdb_options_t *cf_opts[2] = {f.o, f.o};
  char *err = NULL;
  f.db = rocksdb_open_column_families(f.o, f.path, 2, names, cf_opts, f.cfs, &err);
  EXPECT_NO_ERR(err);
  EXPECT(f.db != NULL);
  return f;
}

static void teardown(struct fixture *f) {
  rocksdb_column_family_handle_destroy(f->cfs[0]);
  rocksdb_column_family_handle_destroy(f->cfs[1]);
  rocksdb_close(f->db);
  rocksdb_readoptions_destroy(f->ro);
  rocksdb_writeoptions_destroy(f->wo);
  rocksdb_options_destroy(f->o);
}

static rocksdb_readoptions_t *at(const rocksdb_snapshot_t *s) {
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  rocksdb_readoptions_set_snapshot(ro, s);
  return ro;
}

static void get_at_snapshot(void) {
  struct fixture f = setup();
  char *err = NULL;
  put_ok(f.db, f.wo, "a", "1");
  put_ok(f.db, f.wo, "b", "1");
  const rocksdb_snapshot_t *s = rocksdb_create_snapshot(f.db);
  EXPECT(s != NULL);
  put_ok(f.db, f.wo, "a", "2");
  rocksdb_delete(f.db, f.wo, S("b"), &err);
  EXPECT_NO_ERR(err);
  put_ok(f.db, f.wo, "c", "2");
  rocksdb_delete_range_cf(f.db, f.wo, f.cfs[0], S("a"), S("b"), &err);
  EXPECT_NO_ERR(err);
  rocksdb_readoptions_t *ro = at(s);
  EXPECT_GET(f.db, ro, "a", "1");
  EXPECT_GET(f.db, ro, "b", "1");
  EXPECT_GET(f.db, ro, "c", NULL);
  EXPECT_GET(f.db, f.ro, "a", NULL);
  EXPECT_GET(f.db, f.ro, "b", NULL);
  EXPECT_GET(f.db, f.ro, "c", "2");
  /* Pinned gets honour the snapshot too. */
  rocksdb_pinnableslice_t *ps = rocksdb_get_pinned(f.db, ro, S("a"), &err);
  EXPECT_NO_ERR(err);
  EXPECT(ps != NULL);
  size_t len = 0;
  const char *v = rocksdb_pinnableslice_value(ps, &len);
  EXPECT_BYTES(v, len, "1");
  rocksdb_pinnableslice_destroy(ps);
  rocksdb_readoptions_destroy(ro);
  rocksdb_release_snapshot(f.db, s);
  teardown(&f);
}

static void nested_snapshots_released_out_of_order(void) {
  struct fixture f = setup();
  enum { N = 6 };
  const rocksdb_snapshot_t *snaps[N];
  char v[16];
  for (int i = 0; i < N; i++) {
    snprintf(v, sizeof v, "v%d", i);
    put_ok(f.db, f.wo, "k", v);
    snaps[i] = rocksdb_create_snapshot(f.db);
  }
  put_ok(f.db, f.wo, "k", "latest");
  /* Release 1, 4, 0 first; the rest keep their views. */
  const int release_order[N] = {1, 4, 0, 5, 2, 3};
  int released[N] = {0};
  for (int r = 0; r < N; r++) {
    for (int i = 0; i < N; i++) {
      if (released[i]) continue;
      rocksdb_readoptions_t *ro = at(snaps[i]);
      snprintf(v, sizeof v, "v%d", i);
      EXPECT_GET(f.db, ro, "k", v);
      rocksdb_readoptions_destroy(ro);
    }
    rocksdb_release_snapshot(f.db, snaps[release_order[r]]);
    released[release_order[r]] = 1;
    put_ok(f.db, f.wo, "k", "latest");
  }
  EXPECT_GET(f.db, f.ro, "k", "latest");
  teardown(&f);
}

static void snapshot_survives_many_overwrites(void) {
  struct fixture f = setup();
  put_ok(f.db, f.wo, "hot", "original");
  const rocksdb_snapshot_t *s = rocksdb_create_snapshot(f.db);
  char v[32];
  for (int i = 0; i < 5000; i++) {
    snprintf(v, sizeof v, "v%d", i);
    put_ok(f.db, f.wo, "hot", v);
  }
  rocksdb_readoptions_t *ro = at(s);
  EXPECT_GET(f.db, ro, "hot", "original");
  EXPECT_GET(f.db, f.ro, "hot", "v4999");
  rocksdb_iterator_t *it = rocksdb_create_iterator(f.db, ro);
  rocksdb_iter_seek_to_first(it);
  EXPECT_ITER(it, "hot", "original");
  rocksdb_iter_next(it);
  EXPECT(!rocksdb_iter_valid(it));
  rocksdb_iter_destroy(it);
  rocksdb_readoptions_destroy(ro);
  rocksdb_release_snapshot(f.db, s);
  teardown(&f);
}

static void consistent_across_column_families(void) {
  struct fixture f = setup();
  char *err = NULL;
  rocksdb_writebatch_t *b = rocksdb_writebatch_create();
  rocksdb_writebatch_put_cf(b, f.cfs[0], S("x"), S("1"));
  rocksdb_writebatch_put_cf(b, f.cfs[1], S("y"), S("1"));
  rocksdb_write(f.db, f.wo, b, &err);
  EXPECT_NO_ERR(err);
  const rocksdb_snapshot_t *s = rocksdb_create_snapshot(f.db);
  rocksdb_writebatch_clear(b);
  rocksdb_writebatch_put_cf(b, f.cfs[0], S("x"), S("2"));
  rocksdb_writebatch_put_cf(b, f.cfs[1], S("y"), S("2"));
  rocksdb_write(f.db, f.wo, b, &err);
  EXPECT_NO_ERR(err);
  rocksdb_writebatch_destroy(b);
  rocksdb_readoptions_t *ro = at(s);
  EXPECT_GET_CF(f.db, ro, f.cfs[0], "x", "1");
  EXPECT_GET_CF(f.db, ro, f.cfs[1], "y", "1");
  EXPECT_GET_CF(f.db, f.ro, f.cfs[0], "x", "2");
  EXPECT_GET_CF(f.db, f.ro, f.cfs[1], "y", "2");
  /* multi_get_cf at the snapshot. */
  const rocksdb_column_family_handle_t *mcfs[3] = {f.cfs[0], f.cfs[1], f.cfs[1]};
  const char *keys[3] = {"x", "y", "x"};
  const size_t klens[3] = {1, 1, 1};
  char *vals[3];
  size_t vlens[3];
  char *errs[3];
  rocksdb_multi_get_cf(f.db, ro, mcfs, 3, keys, klens, vals, vlens, errs);
  for (int i = 0; i < 3; i++) EXPECT_NO_ERR(errs[i]);
  EXPECT_BYTES(vals[0], vlens[0], "1");
  EXPECT_BYTES(vals[1], vlens[1], "1");
  EXPECT(vals[2] == NULL); /* "x" is not in "other" */
  free(vals[0]);
  free(vals[1]);
  /* multi_get (default CF) at the snapshot. */
  rocksdb_multi_get(f.db, ro, 2, keys, klens, vals, vlens, errs);
  EXPECT_NO_ERR(errs[0]);
  EXPECT_NO_ERR(errs[1]);
  EXPECT_BYTES(vals[0], vlens[0], "1");
  EXPECT(vals[1] == NULL);
  free(vals[0]);
  rocksdb_readoptions_destroy(ro);
  rocksdb_release_snapshot(f.db, s);
  teardown(&f);
}

static void latest_sequence_number(void) {
  struct fixture f = setup();
  char *err = NULL;
  uint64_t s0 = rocksdb_get_latest_sequence_number(f.db);
  put_ok(f.db, f.wo, "a", "1");
  EXPECT(rocksdb_get_latest_sequence_number(f.db) == s0 + 1);
  rocksdb_delete(f.db, f.wo, S("a"), &err);
  EXPECT_NO_ERR(err);
  EXPECT(rocksdb_get_latest_sequence_number(f.db) == s0 + 2);
  /* A batch takes one sequence number per record. */
  rocksdb_writebatch_t *b = rocksdb_writebatch_create();
  rocksdb_writebatch_put(b, S("x"), S("1"));
  rocksdb_writebatch_put_cf(b, f.cfs[1], S("y"), S("1"));
  rocksdb_writebatch_delete(b, S("z"));
  rocksdb_write(f.db, f.wo, b, &err);
  EXPECT_NO_ERR(err);
  EXPECT(rocksdb_get_latest_sequence_number(f.db) == s0 + 5);
  /* An empty batch takes none. */
  rocksdb_writebatch_clear(b);
  rocksdb_write(f.db, f.wo, b, &err);
  EXPECT_NO_ERR(err);
  EXPECT(rocksdb_get_latest_sequence_number(f.db) == s0 + 5);
  rocksdb_writebatch_destroy(b);
  /* Reads and snapshots do not advance it. */
  const rocksdb_snapshot_t *s = rocksdb_create_snapshot(f.db);
  EXPECT_GET(f.db, f.ro, "x", "1");
  EXPECT(rocksdb_get_latest_sequence_number(f.db) == s0 + 5);
  rocksdb_release_snapshot(f.db, s);
  /* Sequence numbers survive reopen (never go backwards). */
  rocksdb_column_family_handle_destroy(f.cfs[0]);
  rocksdb_column_family_handle_destroy(f.cfs[1]);
  rocksdb_close(f.db);
  const char *names[2] = {"default", "other"};
  const rocksdb_options_t *cf_opts[2] = {f.o, f.o};
  f.db = rocksdb_open_column_families(f.o, f.path, 2, names, cf_opts, f.cfs, &err);
  EXPECT_NO_ERR(err);
  EXPECT(rocksdb_get_latest_sequence_number(f.db) == s0 + 5);
  put_ok(f.db, f.wo, "after", "1");
  EXPECT(rocksdb_get_latest_sequence_number(f.db) == s0 + 6);
  teardown(&f);
}

static void snapshot_sequence_number(void) {
  REQUIRE_V11_HEADER("rocksdb_snapshot_get_sequence_number");
#ifdef TESTC_HEADER_V11
  struct fixture f = setup();
  put_ok(f.db, f.wo, "a", "1");
  put_ok(f.db, f.wo, "b", "1");
  const rocksdb_snapshot_t *s1 = rocksdb_create_snapshot(f.db);
  EXPECT(rocksdb_snapshot_get_sequence_number(s1) == rocksdb_get_latest_sequence_number(f.db));
  put_ok(f.db, f.wo, "c", "1");
  const rocksdb_snapshot_t *s2 = rocksdb_create_snapshot(f.db);
  EXPECT(rocksdb_snapshot_get_sequence_number(s2) == rocksdb_snapshot_get_sequence_number(s1) + 1);
  rocksdb_release_snapshot(f.db, s1);
  rocksdb_release_snapshot(f.db, s2);
  teardown(&f);
#endif
}

TESTC_MAIN("test_snapshot", P(get_at_snapshot), P(nested_snapshots_released_out_of_order),
           P(snapshot_survives_many_overwrites), P(consistent_across_column_families),
           P(latest_sequence_number), P(snapshot_sequence_number))
