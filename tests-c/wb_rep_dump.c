/* SPDX-License-Identifier: Apache-2.0 */
/* Dumps the WriteBatch reps librocksdb builds for fixed operation sequences, one
 * "<name> <hex>" line each, so core/src/batch/differential.rs can compare solistore's reps
 * byte for byte. Build: gcc tests-c/wb_rep_dump.c -lrocksdb; run: ./a.out <scratch-db-dir>.
 * Column families come from a real DB so their ids are the ones RocksDB assigns. */
#include <rocksdb/c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(err) do { if ((err) != NULL) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, (err)); exit(1); } } while (0)
#define S(x) (x), strlen(x)

/* The number of column families to create; the last gets id NUM_CFS, which needs a
 * two-byte varint32. */
#define NUM_CFS 130

static void dump(const char *name, rocksdb_writebatch_t *b) {
  size_t len = 0;
  const char *rep = rocksdb_writebatch_data(b, &len);
  printf("%s ", name);
  for (size_t i = 0; i < len; i++) printf("%02x", (unsigned char)rep[i]);
  printf("\n");
}

/* rocksdb_writebatch_iterate callbacks: append "P:k=v " / "D:k " to a buffer. */
struct trace { char buf[4096]; };
static void on_put(void *s, const char *k, size_t kl, const char *v, size_t vl) {
  struct trace *t = s;
  size_t n = strlen(t->buf);
  snprintf(t->buf + n, sizeof t->buf - n, "P:%.*s=%.*s,", (int)kl, k, (int)vl, v);
}
static void on_del(void *s, const char *k, size_t kl) {
  struct trace *t = s;
  size_t n = strlen(t->buf);
  snprintf(t->buf + n, sizeof t->buf - n, "D:%.*s,", (int)kl, k);
}

int main(int argc, char **argv) {
  if (argc != 2) { fprintf(stderr, "usage: %s <db-dir>\n", argv[0]); return 2; }
  char *err = NULL;
  rocksdb_options_t *opts = rocksdb_options_create();
  rocksdb_options_set_create_if_missing(opts, 1);
  /* Create the families, then reopen with all of them to get a handle for "default". */
  rocksdb_t *db = rocksdb_open(opts, argv[1], &err);
  CHECK(err);
  char names[NUM_CFS + 1][32];
  const char *name_ptrs[NUM_CFS + 1];
  const rocksdb_options_t *cf_opts[NUM_CFS + 1];
  rocksdb_column_family_handle_t *cfs[NUM_CFS + 1];
  snprintf(names[0], sizeof names[0], "default");
  for (int i = 1; i <= NUM_CFS; i++) {
    snprintf(names[i], sizeof names[i], "cf%d", i);
    rocksdb_column_family_handle_t *h = rocksdb_create_column_family(db, opts, names[i], &err);
    CHECK(err);
    rocksdb_column_family_handle_destroy(h);
  }
  rocksdb_close(db);
  for (int i = 0; i <= NUM_CFS; i++) { name_ptrs[i] = names[i]; cf_opts[i] = opts; }
  db = rocksdb_open_column_families(opts, argv[1], NUM_CFS + 1, name_ptrs, cf_opts, cfs, &err);
  CHECK(err);
  for (int i = 0; i <= NUM_CFS; i++) {
    if (rocksdb_column_family_handle_get_id(cfs[i]) != (uint32_t)i) {
      fprintf(stderr, "unexpected id %u for %s\n", rocksdb_column_family_handle_get_id(cfs[i]), names[i]);
      return 1;
    }
  }
  rocksdb_column_family_handle_t *cf1 = cfs[1], *cfbig = cfs[NUM_CFS];
  printf("big_cf_id %d\n", NUM_CFS);

  rocksdb_writebatch_t *b = rocksdb_writebatch_create();
  dump("empty", b);

  rocksdb_writebatch_put(b, S("key1"), S("value1"));
  rocksdb_writebatch_delete(b, S("key2"));
  rocksdb_writebatch_merge(b, S("key3"), S("m"));
  rocksdb_writebatch_singledelete(b, S("key4"));
  rocksdb_writebatch_delete_range(b, S("a"), S("z"));
  rocksdb_writebatch_put_log_data(b, S("blob"));
  rocksdb_writebatch_put(b, "", 0, "", 0);
  dump("basic", b);

  /* create_from copies the rep unvalidated; later calls append to it. */
  size_t len = 0;
  const char *rep = rocksdb_writebatch_data(b, &len);
  rocksdb_writebatch_t *c = rocksdb_writebatch_create_from(rep, len);
  rocksdb_writebatch_put(c, S("more"), S("x"));
  dump("create_from", c);
  rocksdb_writebatch_destroy(c);

  rocksdb_writebatch_clear(b);
  dump("cleared", b);

  rocksdb_column_family_handle_t *dflt = cfs[0];
  rocksdb_writebatch_put_cf(b, cf1, S("k"), S("v"));
  rocksdb_writebatch_delete_cf(b, cf1, S("k"));
  rocksdb_writebatch_merge_cf(b, cf1, S("k"), S("m"));
  rocksdb_writebatch_singledelete_cf(b, cf1, S("k"));
  rocksdb_writebatch_delete_range_cf(b, cf1, S("b"), S("e"));
  rocksdb_writebatch_put_cf(b, dflt, S("d"), S("v"));
  rocksdb_writebatch_put_cf(b, cfbig, S("big"), S("id"));
  rocksdb_writebatch_delete_cf(b, cfbig, S("big"));
  dump("cf", b);
  rocksdb_writebatch_clear(b);

  {
    const char *k[] = {"ab", "cd"}; size_t kl[] = {2, 2};
    const char *v[] = {"1", "23", "456"}; size_t vl[] = {1, 2, 3};
    const char *s[] = {"a", "b"}; size_t sl[] = {1, 1};
    const char *e[] = {"y", "z"}; size_t el[] = {1, 1};
    rocksdb_writebatch_putv(b, 2, k, kl, 3, v, vl);
    rocksdb_writebatch_deletev(b, 2, k, kl);
    rocksdb_writebatch_mergev(b, 2, k, kl, 3, v, vl);
    rocksdb_writebatch_delete_rangev(b, 2, s, sl, e, el);
    rocksdb_writebatch_putv_cf(b, cf1, 2, k, kl, 3, v, vl);
    rocksdb_writebatch_deletev_cf(b, cf1, 2, k, kl);
    rocksdb_writebatch_mergev_cf(b, cf1, 2, k, kl, 3, v, vl);
    rocksdb_writebatch_delete_rangev_cf(b, cf1, 2, s, sl, e, el);
    rocksdb_writebatch_putv(b, 0, k, kl, 0, v, vl);
    dump("vectors", b);
    rocksdb_writebatch_clear(b);
  }

  {
    char key[200], *value = malloc(20000);
    memset(key, 'k', sizeof key);
    for (int i = 0; i < 20000; i++) value[i] = (char)((i * 7) % 251);
    rocksdb_writebatch_put(b, key, sizeof key, value, 20000);
    rocksdb_writebatch_put_log_data(b, value, 300);
    dump("long", b);
    rocksdb_writebatch_clear(b);
    free(value);
  }

  rocksdb_writebatch_put(b, S("a"), S("1"));
  rocksdb_writebatch_set_save_point(b);
  rocksdb_writebatch_put(b, S("b"), S("2"));
  rocksdb_writebatch_set_save_point(b);
  rocksdb_writebatch_delete(b, S("c"));
  rocksdb_writebatch_rollback_to_save_point(b, &err);
  CHECK(err);
  rocksdb_writebatch_put(b, S("d"), S("4"));
  rocksdb_writebatch_rollback_to_save_point(b, &err);
  CHECK(err);
  rocksdb_writebatch_put(b, S("e"), S("5"));
  rocksdb_writebatch_set_save_point(b);
  rocksdb_writebatch_pop_save_point(b, &err);
  CHECK(err);
  rocksdb_writebatch_merge(b, S("f"), S("6"));
  rocksdb_writebatch_set_save_point(b);
  rocksdb_writebatch_rollback_to_save_point(b, &err); /* nothing added: no-op */
  CHECK(err);
  dump("savepoints", b);
  rocksdb_writebatch_rollback_to_save_point(b, &err);
  printf("rollback_without_savepoint %s\n", err ? err : "(ok)");
  rocksdb_free(err);
  err = NULL;
  rocksdb_writebatch_pop_save_point(b, &err);
  printf("pop_without_savepoint %s\n", err ? err : "(ok)");
  rocksdb_free(err);
  err = NULL;
  rocksdb_writebatch_clear(b);

  /* Iterate semantics of the C API (default WriteBatch::Handler methods). */
  {
    struct trace t = {{0}};
    rocksdb_writebatch_put(b, S("a"), S("1"));
    rocksdb_writebatch_merge(b, S("b"), S("2"));
    rocksdb_writebatch_singledelete(b, S("c"));
    rocksdb_writebatch_put_log_data(b, S("blob"));
    rocksdb_writebatch_delete(b, S("d"));
    rocksdb_writebatch_put_cf(b, cf1, S("e"), S("5"));
    rocksdb_writebatch_put(b, S("f"), S("6"));
    rocksdb_writebatch_iterate(b, &t, on_put, on_del);
    printf("iterate_stops_at_cf %s\n", t.buf);
    rocksdb_writebatch_clear(b);
    memset(&t, 0, sizeof t);
    rocksdb_writebatch_put(b, S("a"), S("1"));
    rocksdb_writebatch_delete_range(b, S("b"), S("c"));
    rocksdb_writebatch_put(b, S("f"), S("6"));
    rocksdb_writebatch_iterate(b, &t, on_put, on_del);
    printf("iterate_stops_at_range %s\n", t.buf);
    rocksdb_writebatch_clear(b);
  }

  rocksdb_writebatch_destroy(b);
  for (int i = 0; i <= NUM_CFS; i++) rocksdb_column_family_handle_destroy(cfs[i]);
  rocksdb_close(db);
  rocksdb_options_destroy(opts);
  return 0;
}
