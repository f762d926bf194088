/* SPDX-License-Identifier: Apache-2.0
 * DB properties: rocksdb_property_value(_cf) (strdup'd string, NULL when unknown) and
 * rocksdb_property_int(_cf) (0 and *out_val on success, -1 when unknown or not an integer)
 * for the memtable, snapshot and level counters a memtable-only DB can answer; the DB
 * identity (IDENTITY file / rocksdb_get_db_identity); statistics tickers
 * (rocksdb_options_statistics_get_string, and on 11.x the ticker counts by ordinal). */
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

/* One ticker's count in rocksdb_options_statistics_get_string's text ("<name> COUNT : <n>"). */
static uint64_t ticker(rocksdb_options_t *o, const char *name) {
  char *text = rocksdb_options_statistics_get_string(o);
  EXPECTF(text != NULL, "statistics string is NULL");
  char want[128];
  snprintf(want, sizeof want, "%s COUNT : ", name);
  const char *at = strstr(text, want);
  EXPECTF(at != NULL, "no \"%s\" line in the statistics string", name);
  uint64_t v = strtoull(at + strlen(want), NULL, 10);
#ifdef TESTC_HEADER_V11
  /* 11.x: the same count by the ticker's RocksDB 11.1.2 ordinal. */
  static const struct { const char *name; uint32_t id; } ids[] = {
      {"rocksdb.block.cache.miss", 0},        {"rocksdb.block.cache.hit", 1},
      {"rocksdb.block.cache.data.miss", 12},  {"rocksdb.block.cache.data.hit", 13},
      {"rocksdb.number.keys.written", 58},    {"rocksdb.number.keys.read", 59},
      {"rocksdb.bytes.written", 61},          {"rocksdb.bytes.read", 62},
      {"rocksdb.number.multiget.get", 78},    {"rocksdb.number.multiget.keys.read", 79},
      {"rocksdb.number.multiget.bytes.read", 80}, {"rocksdb.number.multiget.keys.found", 81},
      {"rocksdb.wal.synced", 84}};
  for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
    if (strcmp(ids[i].name, name) == 0) {
      uint64_t by_id = rocksdb_options_statistics_get_ticker_count(o, ids[i].id);
      EXPECTF(by_id == v, "%s: ticker %u = %llu, string %llu", name, ids[i].id,
              (unsigned long long)by_id, (unsigned long long)v);
    }
#endif
  free(text);
  return v;
}

#define EXPECT_TICKER(o, name, want)                                                     \
  do {                                                                                   \
    uint64_t got_ = ticker((o), (name));                                                 \
    EXPECTF(got_ == (uint64_t)(want), "%s = %llu, want %llu", (name),                    \
            (unsigned long long)got_, (unsigned long long)(want));                       \
  } while (0)

/* The tickers RocksDB 7.8.3 and solistore both count, with the values RocksDB gives:
 * keys and bytes written (each batch's rep, 12-byte header included), WAL syncs, every get
 * counted as a key read and the found values' bytes, multi-gets apart, and block cache data
 * hits and misses of table reads. */
static void statistics_tickers(void) {
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_options_set_compression(o, 0);
  rocksdb_options_enable_statistics(o);
  rocksdb_cache_t *cache = rocksdb_cache_create_lru((size_t)1 << 20);
  rocksdb_block_based_table_options_t *t = rocksdb_block_based_options_create();
  rocksdb_block_based_options_set_block_cache(t, cache);
  rocksdb_options_set_block_based_table_factory(o, t);
  rocksdb_t *db = open_ok(o, path);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_writeoptions_t *sync = rocksdb_writeoptions_create();
  rocksdb_writeoptions_set_sync(sync, 1);
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  EXPECT_TICKER(o, "rocksdb.number.keys.written", 0);
  EXPECT_TICKER(o, "rocksdb.block.cache.miss", 0);
  put_ok(db, wo, "k1", "value1");   /* rep 12 + 11 bytes */
  put_ok(db, sync, "k2", "v2");     /* rep 12 + 7 */
  rocksdb_writebatch_t *b = rocksdb_writebatch_create();
  rocksdb_writebatch_put(b, S("k3"), S("v3"));
  rocksdb_writebatch_delete(b, S("k4"));
  char *err = NULL;
  rocksdb_write(db, wo, b, &err); /* rep 12 + 7 + 4 */
  EXPECT_NO_ERR(err);
  rocksdb_writebatch_destroy(b);
  EXPECT_TICKER(o, "rocksdb.number.keys.written", 4);
  EXPECT_TICKER(o, "rocksdb.bytes.written", 65);
  EXPECT_TICKER(o, "rocksdb.wal.synced", 1);
  EXPECT_GET(db, ro, "k1", "value1");
  EXPECT_GET(db, ro, "nokey", NULL);
  EXPECT_TICKER(o, "rocksdb.number.keys.read", 2); /* found or not */
  EXPECT_TICKER(o, "rocksdb.bytes.read", 6);
  flush_ok(db);
  EXPECT_GET(db, ro, "k1", "value1"); /* the data block: a miss, then a hit */
  EXPECT_GET(db, ro, "k1", "value1");
  EXPECT_TICKER(o, "rocksdb.number.keys.read", 4);
  EXPECT_TICKER(o, "rocksdb.bytes.read", 18);
  EXPECT_TICKER(o, "rocksdb.block.cache.data.miss", 1);
  EXPECT_TICKER(o, "rocksdb.block.cache.data.hit", 1);
  const char *keys[3] = {"k1", "k2", "none"};
  size_t klens[3] = {2, 2, 4};
  char *vals[3];
  size_t vlens[3];
  char *errs[3];
  rocksdb_multi_get(db, ro, 3, keys, klens, vals, vlens, errs);
  for (int i = 0; i < 3; i++) {
    EXPECT_NO_ERR(errs[i]);
    free(vals[i]);
  }
  EXPECT_TICKER(o, "rocksdb.number.keys.read", 4); /* multi-gets count apart */
  EXPECT_TICKER(o, "rocksdb.bytes.read", 18);
  EXPECT_TICKER(o, "rocksdb.number.multiget.keys.read", 3);
  EXPECT_TICKER(o, "rocksdb.number.multiget.bytes.read", 8);
  EXPECT_TICKER(o, "rocksdb.block.cache.data.miss", 1);
  EXPECT(ticker(o, "rocksdb.block.cache.data.hit") >= 2);
  EXPECT(ticker(o, "rocksdb.block.cache.hit") >= ticker(o, "rocksdb.block.cache.data.hit"));
  EXPECT(ticker(o, "rocksdb.block.cache.miss") >= 1);
  rocksdb_close(db);
  /* A closed DB's counts stay in the statistics. */
  EXPECT_TICKER(o, "rocksdb.number.keys.written", 4);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(sync);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_block_based_options_destroy(t);
  rocksdb_cache_destroy(cache);
  rocksdb_options_destroy(o);
}

/* rocksdb_approximate_sizes of ranges inside one table follow its index blocks, as in
 * RocksDB: two halves of a file of decimal keys get about half the bytes each (a guess from
 * the keys' bytes would give the first half nearly all of them). */
static void approximate_sizes_follow_the_index(void) {
  const char *path = db_path("db");
  rocksdb_options_t *o = opts_create();
  rocksdb_options_set_compression(o, 0);
  rocksdb_t *db = open_ok(o, path);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  char k[16], v[1000];
  memset(v, 'x', sizeof v);
  for (int i = 0; i < 2000; i++) {
    char *err = NULL;
    snprintf(k, sizeof k, "k%05d", i);
    rocksdb_put(db, wo, k, strlen(k), v, sizeof v, &err);
    EXPECT_NO_ERR(err);
  }
  flush_ok(db);
  uint64_t total = prop_int(db, "rocksdb.total-sst-files-size");
  const char *starts[4] = {"k00000", "k01000", "a", "0"};
  const char *limits[4] = {"k01000", "k02000", "b", "z"};
  size_t slen[4] = {6, 6, 1, 1}, llen[4] = {6, 6, 1, 1};
  uint64_t sizes[4] = {0};
  char *err = NULL;
  rocksdb_approximate_sizes(db, 4, starts, slen, limits, llen, sizes, &err);
  EXPECT_NO_ERR(err);
  for (int i = 0; i < 2; i++)
    EXPECTF(sizes[i] > total * 4 / 10 && sizes[i] < total * 6 / 10,
            "range %d: %llu of %llu bytes, wanted about half", i,
            (unsigned long long)sizes[i], (unsigned long long)total);
  EXPECTF(sizes[2] == 0, "a range before every key: %llu", (unsigned long long)sizes[2]);
  EXPECTF(sizes[3] == total, "a range around every key: %llu of %llu",
          (unsigned long long)sizes[3], (unsigned long long)total);
  if (testc_is_solistore()) {
    /* RocksDB asserts on an inverted range; solistore answers 0. */
    rocksdb_approximate_sizes(db, 1, limits, llen, starts, slen, sizes, &err);
    EXPECT_NO_ERR(err);
    EXPECT(sizes[0] == 0);
  }
  rocksdb_close(db);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_options_destroy(o);
}

TESTC_MAIN("test_properties", P(unknown_properties), P(memtable_counters), P(per_cf_counters),
           P(snapshot_and_level_counters), P(identity), P(statistics_tickers),
           P(approximate_sizes_follow_the_index))
