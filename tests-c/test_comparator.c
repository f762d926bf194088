/* SPDX-License-Identifier: Apache-2.0
 * Custom comparators (rocksdb_comparator_create): ordering for iteration and seeks, key
 * equality defined by the comparator, persistence of the comparator name (reopen with another
 * name fails with the exact "<new>: does not match existing comparator <old>" text), and the
 * borrowed-object lifetime (destructor runs once, in rocksdb_comparator_destroy). */
#include "common.h"

#include <ctype.h>
#include <stdatomic.h>

struct cmp_state {
  atomic_int compares;
  atomic_int destroyed;
  const char *name;
};

static int bytewise(const char *a, size_t al, const char *b, size_t bl) {
  size_t n = al < bl ? al : bl;
  int r = memcmp(a, b, n);
  if (r != 0) return r;
  return al < bl ? -1 : al > bl ? 1 : 0;
}

static int reverse_compare(void *st, const char *a, size_t al, const char *b, size_t bl) {
  struct cmp_state *s = st;
  atomic_fetch_add(&s->compares, 1);
  return -bytewise(a, al, b, bl);
}

/* ASCII case-insensitive: "A" and "a" are the same key. */
static int nocase_compare(void *st, const char *a, size_t al, const char *b, size_t bl) {
  struct cmp_state *s = st;
  atomic_fetch_add(&s->compares, 1);
  size_t n = al < bl ? al : bl;
  for (size_t i = 0; i < n; i++) {
    int ca = tolower((unsigned char)a[i]), cb = tolower((unsigned char)b[i]);
    if (ca != cb) return ca < cb ? -1 : 1;
  }
  return al < bl ? -1 : al > bl ? 1 : 0;
}

static void cmp_destroy(void *st) {
  struct cmp_state *s = st;
  atomic_fetch_add(&s->destroyed, 1);
}

static const char *cmp_name(void *st) {
  struct cmp_state *s = st;
  return s->name;
}

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

static void reverse_order(void) {
  const char *path = db_path("db");
  static struct cmp_state s;
  s.name = "testc.Reverse";
  rocksdb_comparator_t *cmp = rocksdb_comparator_create(&s, cmp_destroy, reverse_compare, cmp_name);
  EXPECT(cmp != NULL);
  rocksdb_options_t *o = opts_create();
  rocksdb_options_set_comparator(o, cmp);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  rocksdb_t *db = open_ok(o, path);
  const char *keys[] = {"b", "d", "a", "c", "e"};
  for (int i = 0; i < 5; i++) put_ok(db, wo, keys[i], keys[i]);
  char *err = NULL;
  rocksdb_delete(db, wo, S("c"), &err);
  EXPECT_NO_ERR(err);
  for (int round = 0; round < 2; round++) {
    EXPECT_GET(db, ro, "a", "a");
    EXPECT_GET(db, ro, "c", NULL);
    rocksdb_iterator_t *it = rocksdb_create_iterator(db, ro);
    rocksdb_iter_seek_to_first(it);
    EXPECT_WALK(it, 1, "e,d,b,a");
    rocksdb_iter_seek_to_last(it);
    EXPECT_WALK(it, 0, "a,b,d,e");
    /* Seek: first key >= target in comparator order ("c" sorts between "d" and "b"). */
    rocksdb_iter_seek(it, S("c"));
    EXPECT_ITER(it, "b", "b");
    rocksdb_iter_seek_for_prev(it, S("c"));
    EXPECT_ITER(it, "d", "d");
    rocksdb_iter_destroy(it);
    rocksdb_close(db);
    db = open_ok(o, path); /* same comparator name: fine */
  }
  EXPECT(atomic_load(&s.compares) > 0);
  rocksdb_close(db);
  rocksdb_options_destroy(o);
  /* Borrowed: the comparator outlives DB and options, and the caller destroys it. */
  EXPECT(atomic_load(&s.destroyed) == 0);
  rocksdb_comparator_destroy(cmp);
  EXPECT(atomic_load(&s.destroyed) == 1);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
}

static void equality_defined_by_comparator(void) {
  const char *path = db_path("db");
  static struct cmp_state s;
  s.name = "testc.NoCase";
  rocksdb_comparator_t *cmp = rocksdb_comparator_create(&s, cmp_destroy, nocase_compare, cmp_name);
  rocksdb_options_t *o = opts_create();
  rocksdb_options_set_comparator(o, cmp);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  rocksdb_t *db = open_ok(o, path);
  put_ok(db, wo, "Key", "first");
  put_ok(db, wo, "KEY", "second"); /* same key: overwrites */
  put_ok(db, wo, "other", "x");
  for (int round = 0; round < 2; round++) {
    EXPECT_GET(db, ro, "key", "second");
    EXPECT_GET(db, ro, "kEy", "second");
    EXPECT_GET(db, ro, "OTHER", "x");
    rocksdb_iterator_t *it = rocksdb_create_iterator(db, ro);
    rocksdb_iter_seek_to_first(it);
    size_t kl = 0;
    EXPECT(rocksdb_iter_valid(it));
    rocksdb_iter_key(it, &kl);
    EXPECT(kl == 3);
    rocksdb_iter_next(it);
    EXPECT_ITER(it, "other", "x");
    rocksdb_iter_next(it);
    EXPECT(!rocksdb_iter_valid(it)); /* only two keys */
    rocksdb_iter_destroy(it);
    rocksdb_close(db);
    db = open_ok(o, path);
  }
  char *err = NULL;
  rocksdb_delete(db, wo, S("KeY"), &err);
  EXPECT_NO_ERR(err);
  EXPECT_GET(db, ro, "Key", NULL);
  rocksdb_close(db);
  rocksdb_options_destroy(o);
  rocksdb_comparator_destroy(cmp);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
}

static void reopen_with_other_name_fails(void) {
  const char *path = db_path("db");
  static struct cmp_state rev, other;
  rev.name = "testc.Reverse";
  other.name = "testc.SomethingElse";
  rocksdb_comparator_t *rcmp = rocksdb_comparator_create(&rev, cmp_destroy, reverse_compare, cmp_name);
  rocksdb_comparator_t *ocmp = rocksdb_comparator_create(&other, cmp_destroy, reverse_compare, cmp_name);
  rocksdb_options_t *o = opts_create();
  rocksdb_options_set_comparator(o, rcmp);
  rocksdb_t *db = open_ok(o, path);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  put_ok(db, wo, "k", "v");
  rocksdb_close(db);
  /* Default comparator on a DB created with testc.Reverse. */
  rocksdb_options_t *plain = opts_create();
  char *err = NULL;
  db = rocksdb_open(plain, path, &err);
  EXPECT(db == NULL);
  EXPECT_ERR_EQ(err, "Invalid argument: leveldb.BytewiseComparator: does not match existing "
                     "comparator testc.Reverse");
  /* Another custom name (same ordering, different name): also refused. */
  rocksdb_options_set_comparator(plain, ocmp);
  db = rocksdb_open(plain, path, &err);
  EXPECT(db == NULL);
  EXPECT_ERR_EQ(err, "Invalid argument: testc.SomethingElse: does not match existing comparator "
                     "testc.Reverse");
  /* The right one still opens. */
  db = open_ok(o, path);
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  EXPECT_GET(db, ro, "k", "v");
  rocksdb_close(db);
  /* And the reverse case: a default-comparator DB opened with a custom comparator. */
  const char *path2 = db_path("db2");
  rocksdb_options_t *plain2 = opts_create();
  db = open_ok(plain2, path2);
  rocksdb_close(db);
  db = rocksdb_open(o, path2, &err);
  EXPECT(db == NULL);
  EXPECT_ERR_EQ(err, "Invalid argument: testc.Reverse: does not match existing comparator "
                     "leveldb.BytewiseComparator");
  rocksdb_options_destroy(plain2);
  rocksdb_options_destroy(plain);
  rocksdb_options_destroy(o);
  rocksdb_comparator_destroy(rcmp);
  rocksdb_comparator_destroy(ocmp);
  EXPECT(atomic_load(&rev.destroyed) == 1 && atomic_load(&other.destroyed) == 1);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
}

static void comparator_per_column_family(void) {
  const char *path = db_path("db");
  static struct cmp_state s;
  s.name = "testc.Reverse";
  rocksdb_comparator_t *cmp = rocksdb_comparator_create(&s, cmp_destroy, reverse_compare, cmp_name);
  rocksdb_options_t *o = opts_create();
  rocksdb_options_set_create_missing_column_families(o, 1);
  rocksdb_options_t *rev = rocksdb_options_create();
  rocksdb_options_set_comparator(rev, cmp);
  const char *names[2] = {"default", "reversed"};
  const rocksdb_options_t *cf_opts[2] = {o, rev};
  rocksdb_column_family_handle_t *hs[2];
  char *err = NULL;
  rocksdb_t *db = rocksdb_open_column_families(o, path, 2, names, cf_opts, hs, &err);
  EXPECT_NO_ERR(err);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  const char *keys[] = {"b", "a", "c"};
  for (int c = 0; c < 2; c++) {
    for (int i = 0; i < 3; i++) {
      rocksdb_put_cf(db, wo, hs[c], S(keys[i]), S("v"), &err);
      EXPECT_NO_ERR(err);
    }
  }
  rocksdb_iterator_t *it = rocksdb_create_iterator_cf(db, ro, hs[0]);
  rocksdb_iter_seek_to_first(it);
  EXPECT_WALK(it, 1, "a,b,c");
  rocksdb_iter_destroy(it);
  it = rocksdb_create_iterator_cf(db, ro, hs[1]);
  rocksdb_iter_seek_to_first(it);
  EXPECT_WALK(it, 1, "c,b,a");
  rocksdb_iter_destroy(it);
  rocksdb_column_family_handle_destroy(hs[0]);
  rocksdb_column_family_handle_destroy(hs[1]);
  rocksdb_close(db);
  /* Reopening the CF without its comparator fails. */
  const rocksdb_options_t *wrong[2] = {o, o};
  db = rocksdb_open_column_families(o, path, 2, names, wrong, hs, &err);
  EXPECT(db == NULL);
  EXPECT_ERR_EQ(err, "Invalid argument: leveldb.BytewiseComparator: does not match existing "
                     "comparator testc.Reverse");
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(rev);
  rocksdb_options_destroy(o);
  rocksdb_comparator_destroy(cmp);
}

TESTC_MAIN("test_comparator", P(reverse_order), P(equality_defined_by_comparator),
           P(reopen_with_other_name_fails), P(comparator_per_column_family))
