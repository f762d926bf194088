/* SPDX-License-Identifier: Apache-2.0
 * Merge: the built-in uint64add operator, a C callback operator (rocksdb_mergeoperator_create:
 * state, existing value NULL when absent, returned buffers freed with delete_value or free(),
 * destructor exactly once when the last owner goes), a failing operator (Corruption through
 * get and iter_get_error), and merge without an operator. */
#include "common.h"

#include <stdatomic.h>

static const char *u64le(uint64_t v, char out[8]) {
  for (int i = 0; i < 8; i++) out[i] = (char)(v >> (8 * i));
  return out;
}

static uint64_t get_u64(rocksdb_t *db, const rocksdb_readoptions_t *ro, const char *k) {
  char *err = NULL;
  size_t len = 0;
  char *v = rocksdb_get(db, ro, S(k), &len, &err);
  EXPECT_NO_ERR(err);
  EXPECTF(v != NULL && len == 8, "%s: %s, %zu bytes", k, v ? "present" : "absent", len);
  uint64_t r = 0;
  for (int i = 0; i < 8; i++) r |= (uint64_t)(unsigned char)v[i] << (8 * i);
  free(v);
  return r;
}

static void merge_u64(rocksdb_t *db, const rocksdb_writeoptions_t *wo, const char *k, uint64_t d) {
  char buf[8], *err = NULL;
  rocksdb_merge(db, wo, S(k), u64le(d, buf), 8, &err);
  EXPECT_NO_ERR(err);
}

static void uint64add(void) {
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_options_set_uint64add_merge_operator(o);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  rocksdb_t *db = open_ok(o, path);
  char buf[8], *err = NULL;
  /* Onto nothing. */
  merge_u64(db, wo, "counter", 5);
  EXPECT(get_u64(db, ro, "counter") == 5);
  merge_u64(db, wo, "counter", 7);
  merge_u64(db, wo, "counter", 30);
  EXPECT(get_u64(db, ro, "counter") == 42);
  /* Onto a put value. */
  rocksdb_put(db, wo, S("base"), u64le(1000, buf), 8, &err);
  EXPECT_NO_ERR(err);
  merge_u64(db, wo, "base", 1);
  EXPECT(get_u64(db, ro, "base") == 1001);
  /* Wrap-around is modular. */
  merge_u64(db, wo, "wrap", UINT64_MAX);
  merge_u64(db, wo, "wrap", 2);
  EXPECT(get_u64(db, ro, "wrap") == 1);
  /* Delete resets; merge after delete starts from nothing. */
  rocksdb_delete(db, wo, S("base"), &err);
  EXPECT_NO_ERR(err);
  EXPECT_GET(db, ro, "base", NULL);
  merge_u64(db, wo, "base", 3);
  EXPECT(get_u64(db, ro, "base") == 3);
  /* In a batch, several merges to one key. */
  rocksdb_writebatch_t *b = rocksdb_writebatch_create();
  for (int i = 1; i <= 10; i++) rocksdb_writebatch_merge(b, S("batch"), u64le((uint64_t)i, buf), 8);
  rocksdb_write(db, wo, b, &err);
  EXPECT_NO_ERR(err);
  rocksdb_writebatch_destroy(b);
  EXPECT(get_u64(db, ro, "batch") == 55);
  /* A snapshot sees the merge result as of its time. */
  const rocksdb_snapshot_t *s = rocksdb_create_snapshot(db);
  merge_u64(db, wo, "counter", 100);
  rocksdb_readoptions_t *sro = rocksdb_readoptions_create();
  rocksdb_readoptions_set_snapshot(sro, s);
  EXPECT(get_u64(db, sro, "counter") == 42);
  EXPECT(get_u64(db, ro, "counter") == 142);
  rocksdb_readoptions_destroy(sro);
  rocksdb_release_snapshot(db, s);
  /* The iterator shows merged values. */
  rocksdb_iterator_t *it = rocksdb_create_iterator(db, ro);
  rocksdb_iter_seek(it, S("counter"));
  EXPECT(rocksdb_iter_valid(it));
  size_t vl = 0;
  const char *v = rocksdb_iter_value(it, &vl);
  EXPECT(vl == 8 && memcmp(v, u64le(142, buf), 8) == 0);
  rocksdb_iter_destroy(it);
  /* Recovery replays merge records. */
  rocksdb_close(db);
  db = open_ok(o, path);
  EXPECT(get_u64(db, ro, "counter") == 142);
  EXPECT(get_u64(db, ro, "batch") == 55);
  merge_u64(db, wo, "batch", 45);
  EXPECT(get_u64(db, ro, "batch") == 100);
  rocksdb_close(db);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
}

/* A C merge operator: joins existing value and operands with '+'. Fails (success = 0) when
 * an operand is "fail". Counters are atomic: RocksDB may call from background threads. */
struct join_state {
  atomic_int full_calls;
  atomic_int partial_calls;
  atomic_int deletes;
  atomic_int destroyed;
  atomic_int name_calls;
  atomic_int saw_null_existing;
  int use_delete_value;
};

static char *join_parts(const char *first, size_t first_len, const char *const *ops,
                        const size_t *op_lens, int n, unsigned char *success, size_t *out_len) {
  size_t total = first_len;
  for (int i = 0; i < n; i++) total += op_lens[i] + 1;
  char *out = malloc(total + 1);
  size_t len = 0;
  if (out == NULL) abort();
  *success = 1;
  if (first != NULL) {
    memcpy(out, first, first_len);
    len = first_len;
  }
  for (int i = 0; i < n; i++) {
    if (op_lens[i] == 4 && memcmp(ops[i], "fail", 4) == 0) *success = 0;
    if (first != NULL || i > 0) out[len++] = '+';
    memcpy(out + len, ops[i], op_lens[i]);
    len += op_lens[i];
  }
  *out_len = len;
  return out; /* returned even on failure: the library must still release it */
}

static char *join_full(void *st, const char *key, size_t key_len, const char *existing,
                       size_t existing_len, const char *const *ops, const size_t *op_lens,
                       int n, unsigned char *success, size_t *out_len) {
  struct join_state *s = st;
  (void)key;
  (void)key_len;
  atomic_fetch_add(&s->full_calls, 1);
  if (existing == NULL) atomic_fetch_add(&s->saw_null_existing, 1);
  return join_parts(existing, existing_len, ops, op_lens, n, success, out_len);
}

static char *join_partial(void *st, const char *key, size_t key_len, const char *const *ops,
                          const size_t *op_lens, int n, unsigned char *success, size_t *out_len) {
  struct join_state *s = st;
  (void)key;
  (void)key_len;
  atomic_fetch_add(&s->partial_calls, 1);
  return join_parts(NULL, 0, ops, op_lens, n, success, out_len);
}

static void join_delete_value(void *st, const char *value, size_t len) {
  struct join_state *s = st;
  (void)len;
  atomic_fetch_add(&s->deletes, 1);
  free((void *)value);
}

static void join_destroy(void *st) {
  struct join_state *s = st;
  atomic_fetch_add(&s->destroyed, 1);
}

static const char *join_name(void *st) {
  struct join_state *s = st;
  atomic_fetch_add(&s->name_calls, 1);
  return "testc.JoinOperator";
}

static rocksdb_mergeoperator_t *join_operator(struct join_state *s) {
  return rocksdb_mergeoperator_create(s, join_destroy, join_full, join_partial,
                                      s->use_delete_value ? join_delete_value : NULL, join_name);
}

static void merge_value(rocksdb_t *db, const rocksdb_writeoptions_t *wo, const char *k,
                        const char *v) {
  char *err = NULL;
  rocksdb_merge(db, wo, S(k), S(v), &err);
  EXPECT_NO_ERR(err);
}

static void run_join(int use_delete_value) {
  const char *path = db_path("db");
  static struct join_state s; /* zero-initialised: atomics start at 0 */
  s.use_delete_value = use_delete_value;
  rocksdb_options_t *o = opts_create();
  rocksdb_options_set_merge_operator(o, join_operator(&s));
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  rocksdb_t *db = open_ok(o, path);
  merge_value(db, wo, "k", "a");
  EXPECT_GET(db, ro, "k", "a");
  EXPECT(atomic_load(&s.saw_null_existing) >= 1);
  merge_value(db, wo, "k", "b");
  merge_value(db, wo, "k", "c");
  EXPECT_GET(db, ro, "k", "a+b+c");
  put_ok(db, wo, "p", "base");
  merge_value(db, wo, "p", "x");
  EXPECT_GET(db, ro, "p", "base+x");
  /* Empty operands and values survive. */
  put_ok(db, wo, "e", "");
  merge_value(db, wo, "e", "z");
  EXPECT_GET(db, ro, "e", "+z");
  rocksdb_iterator_t *it = rocksdb_create_iterator(db, ro);
  rocksdb_iter_seek_to_first(it);
  EXPECT_ITER(it, "e", "+z");
  rocksdb_iter_next(it);
  EXPECT_ITER(it, "k", "a+b+c");
  rocksdb_iter_next(it);
  EXPECT_ITER(it, "p", "base+x");
  rocksdb_iter_destroy(it);
  EXPECT(atomic_load(&s.full_calls) >= 4);
  if (use_delete_value) {
    /* Every buffer returned by a merge callback came back through delete_value. */
    EXPECT(atomic_load(&s.deletes) == atomic_load(&s.full_calls) + atomic_load(&s.partial_calls));
  } else {
    EXPECT(atomic_load(&s.deletes) == 0); /* the library used free() (valgrind checks) */
  }
  rocksdb_close(db);
  /* Reopen with the same operator object still installed in `o`. */
  db = open_ok(o, path);
  EXPECT_GET(db, ro, "k", "a+b+c");
  merge_value(db, wo, "k", "d");
  EXPECT_GET(db, ro, "k", "a+b+c+d");
  rocksdb_close(db);
  EXPECT(atomic_load(&s.destroyed) == 0); /* `o` still owns it */
  rocksdb_options_destroy(o);
  EXPECT(atomic_load(&s.destroyed) == 1); /* last owner gone: destructor exactly once */
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
}

static void callback_operator_free(void) { run_join(0); }
static void callback_operator_delete_value(void) { run_join(1); }

static void destructor_after_db_closes(void) {
  /* Options destroyed right after open: the DB keeps the operator alive until close. */
  const char *path = db_path("db");
  static struct join_state s;
  rocksdb_options_t *o = opts_create();
  rocksdb_options_set_merge_operator(o, join_operator(&s));
  rocksdb_t *db = open_ok(o, path);
  rocksdb_options_destroy(o);
  EXPECT(atomic_load(&s.destroyed) == 0);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  merge_value(db, wo, "k", "1");
  merge_value(db, wo, "k", "2");
  EXPECT_GET(db, ro, "k", "1+2");
  rocksdb_close(db);
  EXPECT(atomic_load(&s.destroyed) == 1);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
}

static void failing_operator(void) {
  const char *path = db_path("db");
  static struct join_state s;
  rocksdb_options_t *o = opts_create();
  rocksdb_options_set_merge_operator(o, join_operator(&s));
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  rocksdb_t *db = open_ok(o, path);
  put_ok(db, wo, "a", "fine");
  merge_value(db, wo, "bad", "x");
  merge_value(db, wo, "bad", "fail"); /* the write succeeds; reads fail */
  char *err = NULL;
  size_t len = 7;
  char *v = rocksdb_get(db, ro, S("bad"), &len, &err);
  EXPECT(v == NULL);
  EXPECTF(err != NULL, "get of a failing merge succeeded");
  /* 7.8.3: "Corruption: Error: Could not perform merge."; newer: "Corruption: Merge operator failed" */
  EXPECTF(strcmp(err, "Corruption: Error: Could not perform merge.") == 0 ||
              strcmp(err, "Corruption: Merge operator failed") == 0,
          "got \"%s\"", err);
  free(err);
  err = NULL;
  EXPECT_GET(db, ro, "a", "fine"); /* other keys unaffected */
  /* The iterator: invalid at the bad key, error through iter_get_error. */
  rocksdb_iterator_t *it = rocksdb_create_iterator(db, ro);
  rocksdb_iter_seek(it, S("bad"));
  EXPECT(!rocksdb_iter_valid(it));
  rocksdb_iter_get_error(it, &err);
  EXPECT_ERR_PREFIX(err, "Corruption: ");
  rocksdb_iter_destroy(it);
  /* A put over the bad key heals it. */
  put_ok(db, wo, "bad", "healed");
  EXPECT_GET(db, ro, "bad", "healed");
  rocksdb_close(db);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
}

static void merge_without_operator(void) {
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_t *db = open_ok(o, path);
  char *err = NULL;
  rocksdb_merge(db, wo, S("k"), S("v"), &err);
  EXPECT_ERR_EQ(err, "Not implemented: Provide a merge_operator when opening DB");
  /* Through a batch the check happens at memtable insertion, with another text (observed
   * 7.8.3; the source string is unchanged in 11.x). What else of the batch got applied is
   * not specified, so only the message is checked. */
  rocksdb_writebatch_t *b = rocksdb_writebatch_create();
  rocksdb_writebatch_merge(b, S("k"), S("v"));
  rocksdb_write(db, wo, b, &err);
  EXPECT_ERR_EQ(err, "Invalid argument: Merge requires `ColumnFamilyOptions::merge_operator != nullptr`");
  rocksdb_writebatch_destroy(b);
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  EXPECT_GET(db, ro, "k", NULL);
  rocksdb_readoptions_destroy(ro);
  rocksdb_close(db);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
}

static void merge_cf_per_family_operator(void) {
  /* uint64add on one CF, none on the other. */
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_options_set_create_missing_column_families(o, 1);
  rocksdb_options_t *counters = rocksdb_options_create();
  rocksdb_options_set_uint64add_merge_operator(counters);
  const char *names[2] = {"default", "counters"};
  const rocksdb_options_t *cf_opts[2] = {o, counters};
  rocksdb_column_family_handle_t *hs[2];
  char *err = NULL;
  rocksdb_t *db = rocksdb_open_column_families(o, path, 2, names, cf_opts, hs, &err);
  EXPECT_NO_ERR(err);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  char buf[8];
  rocksdb_merge_cf(db, wo, hs[1], S("n"), u64le(2, buf), 8, &err);
  EXPECT_NO_ERR(err);
  rocksdb_merge_cf(db, wo, hs[1], S("n"), u64le(3, buf), 8, &err);
  EXPECT_NO_ERR(err);
  size_t len = 0;
  char *v = rocksdb_get_cf(db, ro, hs[1], S("n"), &len, &err);
  EXPECT_NO_ERR(err);
  EXPECT(v != NULL && len == 8 && memcmp(v, u64le(5, buf), 8) == 0);
  free(v);
  rocksdb_merge_cf(db, wo, hs[0], S("n"), u64le(3, buf), 8, &err);
  EXPECT_ERR_EQ(err, "Not implemented: Provide a merge_operator when opening DB");
  rocksdb_column_family_handle_destroy(hs[0]);
  rocksdb_column_family_handle_destroy(hs[1]);
  rocksdb_close(db);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(counters);
  rocksdb_options_destroy(o);
}

TESTC_MAIN("test_merge", P(uint64add), P(callback_operator_free),
           P(callback_operator_delete_value), P(destructor_after_db_closes), P(failing_operator),
           P(merge_without_operator), P(merge_cf_per_family_operator))
