/* SPDX-License-Identifier: Apache-2.0
 * rocksdb_writebatch_*: every operation applied through rocksdb_write, count, the serialized
 * rep (data / create_from round trip, 12-byte header), save points (including the bare
 * "NotFound: " text), rocksdb_writebatch_iterate's callback semantics, and batches from
 * several threads. */
#include "common.h"

#include <pthread.h>

struct fixture {
  const char *path;
  rocksdb_options_t *o;
  rocksdb_writeoptions_t *wo;
  rocksdb_readoptions_t *ro;
  rocksdb_t *db;
  rocksdb_column_family_handle_t *cfs[2]; /* default, cf1 */
};

static void open_fixture(struct fixture *f) {
  const char *names[2] = {"default", "cf1"};
  const rocksdb_options_t *cf_opts[2] = {f->o, f->o};
  char *err = NULL;
  f->db = rocksdb_open_column_families(f->o, f->path, 2, names, cf_opts, f->cfs, &err);
  EXPECT_NO_ERR(err);
  EXPECT(f->db != NULL);
}

static struct fixture setup(void) {
  struct fixture f;
  f.path = db_path("db");
  f.o = opts_create();
  rocksdb_options_set_create_missing_column_families(f.o, 1);
  rocksdb_options_set_uint64add_merge_operator(f.o);
  f.wo = rocksdb_writeoptions_create();
  f.ro = rocksdb_readoptions_create();
  open_fixture(&f);
  return f;
}

static void close_fixture(struct fixture *f) {
  rocksdb_column_family_handle_destroy(f->cfs[0]);
  rocksdb_column_family_handle_destroy(f->cfs[1]);
  rocksdb_close(f->db);
}

static void teardown(struct fixture *f) {
  close_fixture(f);
  rocksdb_readoptions_destroy(f->ro);
  rocksdb_writeoptions_destroy(f->wo);
  rocksdb_options_destroy(f->o);
}

static void write_ok(struct fixture *f, rocksdb_writebatch_t *b) {
  char *err = NULL;
  rocksdb_write(f->db, f->wo, b, &err);
  EXPECT_NO_ERR(err);
}

static const char *u64le(uint64_t v, char out[8]) {
  for (int i = 0; i < 8; i++) out[i] = (char)(v >> (8 * i));
  return out;
}

static void expect_u64(struct fixture *f, rocksdb_column_family_handle_t *cf, const char *k,
                       uint64_t want) {
  char *err = NULL;
  size_t len = 0;
  char *v = rocksdb_get_cf(f->db, f->ro, cf, S(k), &len, &err);
  EXPECT_NO_ERR(err);
  EXPECTF(v != NULL && len == 8, "%s: %s, len %zu", k, v ? "present" : "absent", len);
  uint64_t got = 0;
  for (int i = 0; i < 8; i++) got |= (uint64_t)(unsigned char)v[i] << (8 * i);
  EXPECTF(got == want, "%s = %llu, wanted %llu", k, (unsigned long long)got,
          (unsigned long long)want);
  free(v);
}

static void all_ops_apply(void) {
  struct fixture f = setup();
  rocksdb_column_family_handle_t *cf1 = f.cfs[1];
  char n8[8];
  /* Seed keys the batch deletes. */
  rocksdb_writebatch_t *seed = rocksdb_writebatch_create();
  const char *seeds[] = {"del", "sdel", "dv1", "dv2", "r1", "r2", "rv1", "rv2", "rz"};
  for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
    rocksdb_writebatch_put(seed, S(seeds[i]), S("seed"));
    rocksdb_writebatch_put_cf(seed, cf1, S(seeds[i]), S("seed"));
  }
  rocksdb_writebatch_put(seed, S("m"), u64le(40, n8), 8);
  write_ok(&f, seed);
  rocksdb_writebatch_destroy(seed);

  rocksdb_writebatch_t *b = rocksdb_writebatch_create();
  rocksdb_writebatch_put(b, S("p"), S("put"));
  rocksdb_writebatch_put_cf(b, cf1, S("p"), S("put-cf1"));
  {
    const char *parts_k[] = {"pv", "-", "key"};
    const size_t parts_kl[] = {2, 1, 3};
    const char *parts_v[] = {"glued", "", "value"};
    const size_t parts_vl[] = {5, 0, 5};
    rocksdb_writebatch_putv(b, 3, parts_k, parts_kl, 3, parts_v, parts_vl);
    rocksdb_writebatch_putv_cf(b, cf1, 3, parts_k, parts_kl, 3, parts_v, parts_vl);
  }
  rocksdb_writebatch_merge(b, S("m"), u64le(2, n8), 8);
  rocksdb_writebatch_merge_cf(b, cf1, S("m"), u64le(5, n8), 8);
  {
    const char *parts[] = {u64le(1, n8)};
    const size_t lens[] = {8};
    const char *mk[] = {"m"};
    const size_t mkl[] = {1};
    rocksdb_writebatch_mergev(b, 1, mk, mkl, 1, parts, lens);
    rocksdb_writebatch_mergev_cf(b, cf1, 1, mk, mkl, 1, parts, lens);
  }
  rocksdb_writebatch_delete(b, S("del"));
  rocksdb_writebatch_delete_cf(b, cf1, S("del"));
  rocksdb_writebatch_singledelete(b, S("sdel"));
  rocksdb_writebatch_singledelete_cf(b, cf1, S("sdel"));
  {
    /* The parts form ONE key: "dv" + "1". */
    const char *dk[] = {"dv", "1"};
    const size_t dkl[] = {2, 1};
    rocksdb_writebatch_deletev(b, 2, dk, dkl);
    rocksdb_writebatch_deletev_cf(b, cf1, 2, dk, dkl);
  }
  rocksdb_writebatch_delete_range(b, S("r1"), S("r3"));
  rocksdb_writebatch_delete_range_cf(b, cf1, S("r1"), S("r3"));
  {
    const char *sk[] = {"rv1"};
    const size_t skl[] = {3};
    const char *ek[] = {"rv3"};
    const size_t ekl[] = {3};
    rocksdb_writebatch_delete_rangev(b, 1, sk, skl, ek, ekl);
    rocksdb_writebatch_delete_rangev_cf(b, cf1, 1, sk, skl, ek, ekl);
  }
  rocksdb_writebatch_put_log_data(b, S("a log blob, not a record"));
  write_ok(&f, b);
  rocksdb_writebatch_destroy(b);

  for (int round = 0; round < 2; round++) {
    EXPECT_GET(f.db, f.ro, "p", "put");
    EXPECT_GET_CF(f.db, f.ro, cf1, "p", "put-cf1");
    EXPECT_GET(f.db, f.ro, "pv-key", "gluedvalue");
    EXPECT_GET_CF(f.db, f.ro, cf1, "pv-key", "gluedvalue");
    expect_u64(&f, f.cfs[0], "m", 43);
    expect_u64(&f, cf1, "m", 6);
    for (int c = 0; c < 2; c++) {
      EXPECT_GET_CF(f.db, f.ro, f.cfs[c], "del", NULL);
      EXPECT_GET_CF(f.db, f.ro, f.cfs[c], "sdel", NULL);
      EXPECT_GET_CF(f.db, f.ro, f.cfs[c], "dv1", NULL);
      EXPECT_GET_CF(f.db, f.ro, f.cfs[c], "dv2", "seed");
      EXPECT_GET_CF(f.db, f.ro, f.cfs[c], "r1", NULL);
      EXPECT_GET_CF(f.db, f.ro, f.cfs[c], "r2", NULL);
      EXPECT_GET_CF(f.db, f.ro, f.cfs[c], "rv1", NULL);
      EXPECT_GET_CF(f.db, f.ro, f.cfs[c], "rv2", NULL);
      EXPECT_GET_CF(f.db, f.ro, f.cfs[c], "rz", "seed");
    }
    /* Recovery replays the same batch from the WAL. */
    close_fixture(&f);
    open_fixture(&f);
    cf1 = f.cfs[1];
  }
  teardown(&f);
}

static void later_records_win_within_a_batch(void) {
  struct fixture f = setup();
  rocksdb_writebatch_t *b = rocksdb_writebatch_create();
  rocksdb_writebatch_put(b, S("k"), S("1"));
  rocksdb_writebatch_delete(b, S("k"));
  rocksdb_writebatch_put(b, S("k"), S("2"));
  rocksdb_writebatch_put(b, S("gone"), S("x"));
  rocksdb_writebatch_delete(b, S("gone"));
  rocksdb_writebatch_put(b, S("ra"), S("x"));
  rocksdb_writebatch_delete_range(b, S("r"), S("s"));
  rocksdb_writebatch_put(b, S("rb"), S("after-range"));
  write_ok(&f, b);
  rocksdb_writebatch_destroy(b);
  EXPECT_GET(f.db, f.ro, "k", "2");
  EXPECT_GET(f.db, f.ro, "gone", NULL);
  EXPECT_GET(f.db, f.ro, "ra", NULL);
  EXPECT_GET(f.db, f.ro, "rb", "after-range");
  teardown(&f);
}

static void count_and_clear(void) {
  struct fixture f = setup();
  rocksdb_writebatch_t *b = rocksdb_writebatch_create();
  EXPECT(rocksdb_writebatch_count(b) == 0);
  rocksdb_writebatch_put(b, S("a"), S("1"));
  EXPECT(rocksdb_writebatch_count(b) == 1);
  rocksdb_writebatch_put_cf(b, f.cfs[1], S("a"), S("1"));
  rocksdb_writebatch_delete(b, S("b"));
  rocksdb_writebatch_singledelete(b, S("c"));
  rocksdb_writebatch_delete_range(b, S("d"), S("e"));
  rocksdb_writebatch_merge(b, S("m"), "\1\0\0\0\0\0\0\0", 8);
  EXPECT(rocksdb_writebatch_count(b) == 6);
  /* Log data is not a record. */
  rocksdb_writebatch_put_log_data(b, S("blob"));
  EXPECT(rocksdb_writebatch_count(b) == 6);
  {
    const char *k[] = {"x", "y"};
    const size_t kl[] = {1, 1};
    rocksdb_writebatch_deletev(b, 2, k, kl); /* one record for the concatenated key */
  }
  EXPECT(rocksdb_writebatch_count(b) == 7);
  rocksdb_writebatch_clear(b);
  EXPECT(rocksdb_writebatch_count(b) == 0);
  size_t size = 0;
  const char *rep = rocksdb_writebatch_data(b, &size);
  EXPECT(rep != NULL && size == 12);
  /* Reusable after clear. */
  rocksdb_writebatch_put(b, S("after-clear"), S("1"));
  EXPECT(rocksdb_writebatch_count(b) == 1);
  write_ok(&f, b);
  EXPECT_GET(f.db, f.ro, "a", NULL);
  EXPECT_GET(f.db, f.ro, "after-clear", "1");
  rocksdb_writebatch_destroy(b);
  teardown(&f);
}

static void empty_batch_write_ok(void) {
  struct fixture f = setup();
  rocksdb_writebatch_t *b = rocksdb_writebatch_create();
  write_ok(&f, b);
  rocksdb_writeoptions_t *sync = rocksdb_writeoptions_create();
  rocksdb_writeoptions_set_sync(sync, 1);
  char *err = NULL;
  rocksdb_write(f.db, sync, b, &err);
  EXPECT_NO_ERR(err);
  rocksdb_writeoptions_destroy(sync);
  rocksdb_writebatch_destroy(b);
  close_fixture(&f);
  open_fixture(&f);
  EXPECT_GET(f.db, f.ro, "anything", NULL);
  teardown(&f);
}

static void data_create_from_round_trip(void) {
  struct fixture f = setup();
  rocksdb_writebatch_t *b = rocksdb_writebatch_create();
  size_t size = 0;
  const char *rep = rocksdb_writebatch_data(b, &size);
  /* Empty batch: 8-byte sequence + 4-byte count, all zero. */
  EXPECT(rep != NULL && size == 12);
  for (size_t i = 0; i < 12; i++) EXPECT(rep[i] == 0);
  rocksdb_writebatch_put(b, S("k1"), S("v1"));
  rocksdb_writebatch_delete(b, S("k0"));
  rocksdb_writebatch_put_cf(b, f.cfs[1], S("c"), S("cv"));
  const char nulk[] = {'n', '\0', 'k'};
  rocksdb_writebatch_put(b, nulk, sizeof nulk, "\0", 1);
  rep = rocksdb_writebatch_data(b, &size);
  EXPECT(size > 12);
  /* Header: count (little-endian fixed32 at offset 8) = 4. */
  EXPECT((unsigned char)rep[8] == 4 && rep[9] == 0 && rep[10] == 0 && rep[11] == 0);
  /* The rep is RocksDB's wire format: Put = tag 0x01, varint key, varint value. */
  EXPECT(rep[12] == 0x01 && rep[13] == 2 && memcmp(rep + 14, "k1", 2) == 0 && rep[16] == 2 &&
         memcmp(rep + 17, "v1", 2) == 0);
  EXPECT(rep[19] == 0x00 && rep[20] == 2 && memcmp(rep + 21, "k0", 2) == 0); /* Delete */
  EXPECT(rep[23] == 0x05 && rep[24] == 1); /* ColumnFamilyValue, cf id 1 */
  char *copy_bytes = malloc(size);
  EXPECT(copy_bytes != NULL);
  memcpy(copy_bytes, rep, size);
  rocksdb_writebatch_t *c = rocksdb_writebatch_create_from(copy_bytes, size);
  /* create_from copies: the caller's buffer can go. */
  memset(copy_bytes, 0xee, size);
  free(copy_bytes);
  EXPECT(rocksdb_writebatch_count(c) == 4);
  size_t csize = 0;
  const char *crep = rocksdb_writebatch_data(c, &csize);
  EXPECT(csize == size && memcmp(crep, rep, size) == 0);
  write_ok(&f, c);
  /* RocksDB stamps a written batch with its first sequence number; solistore leaves the rep
   * as it was built (docs/design/differences-from-rocksdb.md). */
  {
    const char *after = rocksdb_writebatch_data(c, &csize);
    uint64_t seq = 0;
    memcpy(&seq, after, sizeof seq);
    if (testc_is_solistore()) EXPECT(seq == 0);
    else EXPECT(seq != 0);
  }
  EXPECT_GET(f.db, f.ro, "k1", "v1");
  EXPECT_GET_CF(f.db, f.ro, f.cfs[1], "c", "cv");
  {
    char *err = NULL;
    size_t len = 0;
    char *v = rocksdb_get(f.db, f.ro, nulk, sizeof nulk, &len, &err);
    EXPECT_NO_ERR(err);
    EXPECT(v != NULL && len == 1 && v[0] == '\0');
    free(v);
  }
  /* Appending to a batch built from a rep works. */
  rocksdb_writebatch_put(c, S("k2"), S("v2"));
  EXPECT(rocksdb_writebatch_count(c) == 5);
  write_ok(&f, c);
  EXPECT_GET(f.db, f.ro, "k2", "v2");
  rocksdb_writebatch_destroy(c);
  rocksdb_writebatch_destroy(b);
  teardown(&f);
}

static void save_points(void) {
  struct fixture f = setup();
  char *err = NULL;
  rocksdb_writebatch_t *b = rocksdb_writebatch_create();
  /* No save point: NotFound with an empty state (exactly "NotFound: "). */
  rocksdb_writebatch_rollback_to_save_point(b, &err);
  EXPECT_ERR_EQ(err, "NotFound: ");
  rocksdb_writebatch_pop_save_point(b, &err);
  EXPECT_ERR_EQ(err, "NotFound: ");
  rocksdb_writebatch_put(b, S("a"), S("1"));
  rocksdb_writebatch_set_save_point(b); /* sp1: {a} */
  rocksdb_writebatch_put(b, S("b"), S("2"));
  rocksdb_writebatch_set_save_point(b); /* sp2: {a, b} */
  rocksdb_writebatch_put(b, S("c"), S("3"));
  rocksdb_writebatch_delete(b, S("a"));
  EXPECT(rocksdb_writebatch_count(b) == 4);
  rocksdb_writebatch_rollback_to_save_point(b, &err); /* back to sp2 */
  EXPECT_NO_ERR(err);
  EXPECT(rocksdb_writebatch_count(b) == 2);
  rocksdb_writebatch_put(b, S("d"), S("4"));
  rocksdb_writebatch_pop_save_point(b, &err); /* the rollback consumed sp2; this drops sp1 */
  EXPECT_NO_ERR(err);
  /* None left. */
  rocksdb_writebatch_rollback_to_save_point(b, &err);
  EXPECT_ERR_EQ(err, "NotFound: ");
  EXPECT(rocksdb_writebatch_count(b) == 3);
  /* Pre-set error untouched on success. */
  rocksdb_writebatch_set_save_point(b);
  rocksdb_writebatch_put(b, S("e"), S("5"));
  err = strdup("old error");
  rocksdb_writebatch_rollback_to_save_point(b, &err);
  EXPECT(err != NULL && strcmp(err, "old error") == 0);
  free(err);
  err = NULL;
  EXPECT(rocksdb_writebatch_count(b) == 3);
  write_ok(&f, b);
  EXPECT_GET(f.db, f.ro, "a", "1");
  EXPECT_GET(f.db, f.ro, "b", "2");
  EXPECT_GET(f.db, f.ro, "c", NULL);
  EXPECT_GET(f.db, f.ro, "d", "4");
  EXPECT_GET(f.db, f.ro, "e", NULL);
  /* Clear drops the save points as well. */
  rocksdb_writebatch_set_save_point(b);
  rocksdb_writebatch_clear(b);
  rocksdb_writebatch_rollback_to_save_point(b, &err);
  EXPECT_ERR_EQ(err, "NotFound: ");
  rocksdb_writebatch_destroy(b);
  teardown(&f);
}

struct trace {
  char buf[1024];
  size_t len;
};

static void trace_add(struct trace *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(t->buf + t->len, sizeof t->buf - t->len, fmt, ap);
  va_end(ap);
  if (n > 0) t->len += (size_t)n;
  if (t->len >= sizeof t->buf) t->len = sizeof t->buf - 1;
}

/* Appends raw bytes (keys and values may hold NUL). */
static void trace_bytes(struct trace *t, const char *p, size_t n) {
  if (n > sizeof t->buf - 1 - t->len) n = sizeof t->buf - 1 - t->len;
  memcpy(t->buf + t->len, p, n);
  t->len += n;
  t->buf[t->len] = '\0';
}

static void on_put(void *s, const char *k, size_t kl, const char *v, size_t vl) {
  trace_add(s, "P:");
  trace_bytes(s, k, kl);
  trace_add(s, "=");
  trace_bytes(s, v, vl);
  trace_add(s, " ");
}

static void on_delete(void *s, const char *k, size_t kl) {
  trace_add(s, "D:");
  trace_bytes(s, k, kl);
  trace_add(s, " ");
}

static const char *iterate(rocksdb_writebatch_t *b, struct trace *t) {
  t->len = 0;
  t->buf[0] = '\0';
  rocksdb_writebatch_iterate(b, t, on_put, on_delete);
  return t->buf;
}

static void iterate_callbacks(void) {
  struct fixture f = setup();
  struct trace t;
  rocksdb_writebatch_t *b = rocksdb_writebatch_create();
  EXPECT(strcmp(iterate(b, &t), "") == 0);
  /* Default-CF puts and deletes in order; merge, single delete and log data are skipped. */
  rocksdb_writebatch_put(b, S("a"), S("1"));
  rocksdb_writebatch_delete(b, S("b"));
  rocksdb_writebatch_merge(b, S("m"), S("x"));
  rocksdb_writebatch_singledelete(b, S("s"));
  rocksdb_writebatch_put_log_data(b, S("log"));
  rocksdb_writebatch_put(b, S("e"), "", 0);
  rocksdb_writebatch_put(b, S("a"), S("again"));
  EXPECTF(strcmp(iterate(b, &t), "P:a=1 D:b P:e= P:a=again ") == 0, "trace \"%s\"", t.buf);
  /* A record for another CF ends the iteration (Handler's InvalidArgument, ignored by c.cc). */
  rocksdb_writebatch_clear(b);
  rocksdb_writebatch_put(b, S("x"), S("1"));
  rocksdb_writebatch_put_cf(b, f.cfs[1], S("y"), S("2"));
  rocksdb_writebatch_put(b, S("z"), S("3"));
  EXPECTF(strcmp(iterate(b, &t), "P:x=1 ") == 0, "trace \"%s\"", t.buf);
  /* So does a delete-range record, even in the default CF. */
  rocksdb_writebatch_clear(b);
  rocksdb_writebatch_delete(b, S("x"));
  rocksdb_writebatch_delete_range(b, S("a"), S("b"));
  rocksdb_writebatch_put(b, S("z"), S("3"));
  EXPECTF(strcmp(iterate(b, &t), "D:x ") == 0, "trace \"%s\"", t.buf);
  /* Iterating twice gives the same result and does not modify the batch. */
  EXPECTF(strcmp(iterate(b, &t), "D:x ") == 0, "trace \"%s\"", t.buf);
  EXPECT(rocksdb_writebatch_count(b) == 3);
  /* Binary keys and values arrive with their lengths. */
  rocksdb_writebatch_clear(b);
  rocksdb_writebatch_put(b, "k\0z", 3, "v\0w", 3);
  iterate(b, &t);
  EXPECT(t.len == 10 && memcmp(t.buf, "P:k\0z=v\0w ", 10) == 0);
  rocksdb_writebatch_destroy(b);
  teardown(&f);
}

#ifdef TESTC_HEADER_V11
static void on_put_cf(void *s, uint32_t cf, const char *k, size_t kl, const char *v, size_t vl) {
  trace_add(s, "P%u:%.*s=%.*s ", (unsigned)cf, (int)kl, k, (int)vl, v);
}
static void on_delete_cf(void *s, uint32_t cf, const char *k, size_t kl) {
  trace_add(s, "D%u:%.*s ", (unsigned)cf, (int)kl, k);
}
static void on_merge_cf(void *s, uint32_t cf, const char *k, size_t kl, const char *v, size_t vl) {
  trace_add(s, "M%u:%.*s=%.*s ", (unsigned)cf, (int)kl, k, (int)vl, v);
}
#endif

static void iterate_cf_callbacks(void) {
  REQUIRE_V11_HEADER("rocksdb_writebatch_iterate_cf");
#ifdef TESTC_HEADER_V11
  struct fixture f = setup();
  struct trace t = {{0}, 0};
  rocksdb_writebatch_t *b = rocksdb_writebatch_create();
  rocksdb_writebatch_put(b, S("a"), S("1"));
  rocksdb_writebatch_put_cf(b, f.cfs[1], S("b"), S("2"));
  rocksdb_writebatch_delete_cf(b, f.cfs[1], S("c"));
  rocksdb_writebatch_merge(b, S("m"), S("x"));
  rocksdb_writebatch_merge_cf(b, f.cfs[1], S("n"), S("y"));
  rocksdb_writebatch_delete(b, S("d"));
  rocksdb_writebatch_iterate_cf(b, &t, on_put_cf, on_delete_cf, on_merge_cf);
  EXPECTF(strcmp(t.buf, "P0:a=1 P1:b=2 D1:c M0:m=x M1:n=y D0:d ") == 0, "trace \"%s\"", t.buf);
  rocksdb_writebatch_destroy(b);
  teardown(&f);
#endif
}

struct writer_arg {
  struct fixture *f;
  int id;
  int sync;
};

static void *writer(void *p) {
  struct writer_arg *a = p;
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_writeoptions_set_sync(wo, (unsigned char)a->sync);
  char k[32], v[32];
  for (int i = 0; i < 300; i++) {
    rocksdb_writebatch_t *b = rocksdb_writebatch_create();
    snprintf(k, sizeof k, "t%d-%04d", a->id, i);
    snprintf(v, sizeof v, "v%d", i);
    rocksdb_writebatch_put(b, S(k), S(v));
    rocksdb_writebatch_put_cf(b, a->f->cfs[1], S(k), S(v));
    char *err = NULL;
    rocksdb_write(a->f->db, wo, b, &err);
    rocksdb_writebatch_destroy(b);
    if (err != NULL) {
      fprintf(stderr, "writer %d: %s\n", a->id, err);
      free(err);
      rocksdb_writeoptions_destroy(wo);
      return (void *)1;
    }
  }
  rocksdb_writeoptions_destroy(wo);
  return NULL;
}

static void concurrent_batches(void) {
  struct fixture f = setup();
  enum { N = 6 };
  pthread_t th[N];
  struct writer_arg args[N];
  for (int i = 0; i < N; i++) {
    args[i].f = &f;
    args[i].id = i;
    args[i].sync = i % 2;
    EXPECT(pthread_create(&th[i], NULL, writer, &args[i]) == 0);
  }
  for (int i = 0; i < N; i++) {
    void *ret = NULL;
    EXPECT(pthread_join(th[i], &ret) == 0);
    EXPECT(ret == NULL);
  }
  for (int round = 0; round < 2; round++) {
    char k[32], v[32];
    for (int t = 0; t < N; t++) {
      for (int i = 0; i < 300; i++) {
        snprintf(k, sizeof k, "t%d-%04d", t, i);
        snprintf(v, sizeof v, "v%d", i);
        EXPECT_GET(f.db, f.ro, k, v);
        EXPECT_GET_CF(f.db, f.ro, f.cfs[1], k, v);
      }
    }
    close_fixture(&f);
    open_fixture(&f);
  }
  teardown(&f);
}

TESTC_MAIN("test_writebatch", P(all_ops_apply), P(later_records_win_within_a_batch),
           P(count_and_clear), P(empty_batch_write_ok), P(data_create_from_round_trip),
           P(save_points), P(iterate_callbacks), P(iterate_cf_callbacks), P(concurrent_batches))
