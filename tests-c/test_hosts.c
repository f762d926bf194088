/* SPDX-License-Identifier: Apache-2.0
 * The call sequences of the two .NET hosts (shared/rocksdb-compat/hosts-dotnet-calls.md,
 * hosts-dotnet.md §6), replayed in C:
 *   - Kommander RocksDbWAL: CFs default, metadata, shard0..7 (each with fresh options), log
 *     entries as batches spanning shardN + metadata, synced and unsynced, from several threads;
 *     SeekToLastPartitionKey = Seek(partition + ';') then Prev, else SeekToLast; range reads by
 *     prefix; reopen at the same path; prefix durability of a sync write across SIGKILL.
 *   - Kahuna RocksDbPersistenceBackend: CFs default, kv, locks with block-based table options
 *     shared between the two CFs (LRU cache, bloom filter), sync writes, multi_get_cf, scans
 *     from an empty prefix with fill_cache off, "~CURRENT"/"~<rev>"/"~NOREV" keys.
 *   - Shared resources: one LRU cache and one write buffer manager across two DBs (11.x only).
 * The last phase, tables_checkpoint_compaction, replays Kahuna's PITR checkpoint: checkpoint,
 * trim with batches, compact_range_cf(NULL, 0, NULL, 0), no file holding a trimmed value's
 * bytes while the kept value is there literally, reopen; then block cache usage after table
 * reads. (It would report SKIP, never PASS, if solistore answered "Not implemented: ".) */
#include "common.h"

#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>

/* ------------------------------------------------------------------ Kommander */

#define KOMMANDER_CFS 10
static const char *const kommander_names[KOMMANDER_CFS] = {
    "default", "metadata", "shard0", "shard1", "shard2", "shard3", "shard4", "shard5", "shard6", "shard7"};

struct kommander {
  rocksdb_options_t *dbo;
  rocksdb_options_t *cfo[KOMMANDER_CFS];
  rocksdb_column_family_handle_t *cf[KOMMANDER_CFS];
  rocksdb_t *db;
  rocksdb_writeoptions_t *wo_sync, *wo_nosync, *wo_default;
  rocksdb_readoptions_t *ro;
};

/* RocksDbWAL.cs:178-222. `path` is <dir>/<revision>, created (0700, empty) before Open as
 * Kommander's WalStoragePaths.EnsureDirectory does. */
static void kommander_open(struct kommander *k, const char *path) {
  if (!testc_path_exists(path)) EXPECT(mkdir(path, 0700) == 0);
  k->dbo = rocksdb_options_create();
  rocksdb_options_set_create_if_missing(k->dbo, 1);
  rocksdb_options_set_create_missing_column_families(k->dbo, 1);
  rocksdb_options_set_allow_concurrent_memtable_write(k->dbo, 1);
  rocksdb_options_set_wal_recovery_mode(k->dbo, rocksdb_absolute_consistency_recovery);
  for (int i = 0; i < KOMMANDER_CFS; i++) k->cfo[i] = rocksdb_options_create();
  char *err = NULL;
  k->db = rocksdb_open_column_families(k->dbo, path, KOMMANDER_CFS, kommander_names,
                                       (const rocksdb_options_t *const *)k->cfo, k->cf, &err);
  EXPECT_NO_ERR(err);
  EXPECT(k->db != NULL);
  k->wo_sync = rocksdb_writeoptions_create();
  rocksdb_writeoptions_set_sync(k->wo_sync, 1);
  k->wo_nosync = rocksdb_writeoptions_create();
  rocksdb_writeoptions_set_sync(k->wo_nosync, 0);
  k->wo_default = rocksdb_writeoptions_create();
  k->ro = rocksdb_readoptions_create();
}

/* db.Dispose(): the handles, then close; the finalizers destroy the option objects later, in
 * no particular order. */
static void kommander_close(struct kommander *k) {
  for (int i = 0; i < KOMMANDER_CFS; i++) rocksdb_column_family_handle_destroy(k->cf[i]);
  rocksdb_close(k->db);
  rocksdb_readoptions_destroy(k->ro);
  rocksdb_writeoptions_destroy(k->wo_default);
  for (int i = KOMMANDER_CFS - 1; i >= 5; i--) rocksdb_options_destroy(k->cfo[i]);
  rocksdb_writeoptions_destroy(k->wo_nosync);
  rocksdb_options_destroy(k->dbo);
  for (int i = 0; i < 5; i++) rocksdb_options_destroy(k->cfo[i]);
  rocksdb_writeoptions_destroy(k->wo_sync);
}

static rocksdb_column_family_handle_t *shard_of(struct kommander *k, int partition) {
  return k->cf[2 + partition % 8];
}

/* Kommander's zero-padded "PPPPPPPPPP:IIIIIIIIIIIIIIIIIIII". */
static void log_key(char *buf, size_t cap, int partition, long long id) {
  snprintf(buf, cap, "%010d:%020lld", partition, id);
}

static void log_value(char *buf, size_t cap, int partition, long long id) {
  snprintf(buf, cap, "entry p%d i%lld term %lld", partition, id, id / 10);
}

/* One log append: the entry into shardN and the checkpoint marker into metadata, one batch. */
static void kommander_append(struct kommander *k, const rocksdb_writeoptions_t *wo, int partition,
                             long long id) {
  char key[64], val[96], meta[32], last[32];
  log_key(key, sizeof key, partition, id);
  log_value(val, sizeof val, partition, id);
  snprintf(meta, sizeof meta, "last-%d", partition);
  snprintf(last, sizeof last, "%lld", id);
  rocksdb_writebatch_t *b = rocksdb_writebatch_create();
  rocksdb_writebatch_put_cf(b, shard_of(k, partition), S(key), S(val));
  rocksdb_writebatch_put_cf(b, k->cf[1], S(meta), S(last));
  char *err = NULL;
  rocksdb_write(k->db, wo, b, &err);
  rocksdb_writebatch_destroy(b);
  EXPECT_NO_ERR(err);
}

/* SeekToLastPartitionKey: Seek(partition + ';'); Prev() if valid, else SeekToLast(); then
 * check the key starts with the partition prefix. Returns the id or -1. */
static long long kommander_last_id(struct kommander *k, int partition) {
  char prefix[16], seek[16];
  snprintf(prefix, sizeof prefix, "%010d:", partition);
  snprintf(seek, sizeof seek, "%010d;", partition);
  rocksdb_iterator_t *it = rocksdb_create_iterator_cf(k->db, k->ro, shard_of(k, partition));
  rocksdb_iter_seek(it, S(seek));
  if (rocksdb_iter_valid(it)) rocksdb_iter_prev(it);
  else rocksdb_iter_seek_to_last(it);
  long long id = -1;
  if (rocksdb_iter_valid(it)) {
    size_t kl = 0;
    const char *key = rocksdb_iter_key(it, &kl);
    if (kl == 31 && memcmp(key, prefix, 11) == 0) {
      char digits[21];
      memcpy(digits, key + 11, 20);
      digits[20] = '\0';
      id = atoll(digits);
    }
  }
  char *err = NULL;
  rocksdb_iter_get_error(it, &err);
  EXPECT_NO_ERR(err);
  rocksdb_iter_destroy(it);
  return id;
}

/* ReadLogRange: Seek(partition:from) and walk while the prefix matches. Returns the count,
 * stores the first id found in `*first` (-1 if none), and checks that the ids are
 * consecutive and the values intact. */
static long long kommander_read(struct kommander *k, int partition, long long from,
                                long long *first) {
  char prefix[16], start[64];
  snprintf(prefix, sizeof prefix, "%010d:", partition);
  log_key(start, sizeof start, partition, from);
  rocksdb_iterator_t *it = rocksdb_create_iterator_cf(k->db, k->ro, shard_of(k, partition));
  long long n = 0;
  *first = -1;
  for (rocksdb_iter_seek(it, S(start)); rocksdb_iter_valid(it); rocksdb_iter_next(it)) {
    size_t kl = 0, vl = 0;
    const char *key = rocksdb_iter_key(it, &kl);
    const char *val = rocksdb_iter_value(it, &vl);
    if (kl != 31 || memcmp(key, prefix, 11) != 0) break;
    if (*first < 0) {
      char digits[21];
      memcpy(digits, key + 11, 20);
      digits[20] = '\0';
      *first = atoll(digits);
      EXPECT(*first >= from);
    }
    char want_k[64], want_v[96];
    log_key(want_k, sizeof want_k, partition, *first + n);
    log_value(want_v, sizeof want_v, partition, *first + n);
    EXPECT_BYTES(key, kl, want_k);
    EXPECT_BYTES(val, vl, want_v);
    n++;
  }
  rocksdb_iter_destroy(it);
  return n;
}

/* The same, requiring the range to start exactly at `from` (or be empty). */
static long long kommander_read_from(struct kommander *k, int partition, long long from) {
  long long first = -1;
  long long n = kommander_read(k, partition, from, &first);
  EXPECTF(n == 0 || first == from, "partition %d: range starts at %lld, wanted %lld", partition,
          first, from);
  return n;
}

static const char *kommander_path(void) {
  const char *dir = db_path("wal");
  EXPECT(mkdir(dir, 0700) == 0);
  static char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/rev1", dir);
  return path;
}

static void kommander_wal(void) {
  const char *path = kommander_path();
  struct kommander k;
  kommander_open(&k, path);
  /* A fresh WAL: no entries anywhere. */
  for (int p = 0; p < 16; p++) EXPECT(kommander_last_id(&k, p) == -1);
  EXPECT_GET_CF(k.db, k.ro, k.cf[1], "version", NULL);
  /* SetMetaData with the default write options. */
  char *err = NULL;
  rocksdb_put_cf(k.db, k.wo_default, k.cf[1], S("version"), S("2.0.0"), &err);
  EXPECT_NO_ERR(err);
  /* Partitions 1..12 (several share a shard), 1..40 entries each, alternating sync. */
  for (int p = 1; p <= 12; p++) {
    for (long long id = 1; id <= 3 * p + 4; id++)
      kommander_append(&k, (id % 5 == 0) ? k.wo_sync : k.wo_nosync, p, id);
  }
  /* The single-entry fast path: db.Put into the shard. */
  {
    char key[64], val[96];
    log_key(key, sizeof key, 3, 14);
    log_value(val, sizeof val, 3, 14);
    rocksdb_put_cf(k.db, k.wo_sync, shard_of(&k, 3), S(key), S(val), &err);
    EXPECT_NO_ERR(err);
  }
  for (int round = 0; round < 3; round++) {
    EXPECT_GET_CF(k.db, k.ro, k.cf[1], "version", "2.0.0");
    for (int p = 1; p <= 12; p++) {
      long long last = 3 * p + 4 + (p == 3 ? 1 : 0);
      EXPECTF(kommander_last_id(&k, p) == last, "partition %d: last id %lld, wanted %lld", p,
              kommander_last_id(&k, p), last);
      EXPECT(kommander_read_from(&k, p, 1) == last);
      EXPECT(kommander_read_from(&k, p, last - 2) == 3);
      char meta[32], want[32];
      snprintf(meta, sizeof meta, "last-%d", p);
      snprintf(want, sizeof want, "%lld", 3 * p + 4LL);
      EXPECT_GET_CF(k.db, k.ro, k.cf[1], meta, want);
    }
    /* Partitions without entries, below and above those with entries. */
    EXPECT(kommander_last_id(&k, 0) == -1);
    EXPECT(kommander_last_id(&k, 13) == -1);
    EXPECT(kommander_last_id(&k, 999999) == -1);
    /* GetTermAt for a missing id: NULL, no error. */
    char key[64];
    log_key(key, sizeof key, 1, 999);
    EXPECT_GET_CF(k.db, k.ro, shard_of(&k, 1), key, NULL);
    /* Reopen at the same path (Close must release the lock and persist everything). */
    kommander_close(&k);
    kommander_open(&k, path);
  }
  /* Log compaction: delete entries below an index with a batch of deletes, then Remove. */
  rocksdb_writebatch_t *b = rocksdb_writebatch_create();
  for (long long id = 1; id <= 10; id++) {
    char key[64];
    log_key(key, sizeof key, 8, id);
    rocksdb_writebatch_delete_cf(b, shard_of(&k, 8), S(key));
  }
  rocksdb_write(k.db, k.wo_sync, b, &err);
  EXPECT_NO_ERR(err);
  rocksdb_writebatch_destroy(b);
  rocksdb_delete_cf(k.db, k.wo_sync, k.cf[1], S("last-8"), &err);
  EXPECT_NO_ERR(err);
  {
    long long first = 0;
    EXPECT(kommander_read(&k, 8, 1, &first) == 18 && first == 11);
  }
  EXPECT(kommander_read_from(&k, 8, 11) == 18);
  EXPECT(kommander_last_id(&k, 8) == 28);
  EXPECT_GET_CF(k.db, k.ro, k.cf[1], "last-8", NULL);
  /* Truncate the tail of a partition (Raft log conflict): the last id moves back. */
  b = rocksdb_writebatch_create();
  for (long long id = 30; id <= 40; id++) {
    char key[64];
    log_key(key, sizeof key, 12, id);
    rocksdb_writebatch_delete_cf(b, shard_of(&k, 12), S(key));
  }
  rocksdb_write(k.db, k.wo_nosync, b, &err);
  EXPECT_NO_ERR(err);
  rocksdb_writebatch_destroy(b);
  EXPECT(kommander_last_id(&k, 12) == 29);
  /* Partition 4 shares shard4 with partition 12: unaffected. */
  EXPECT(kommander_last_id(&k, 4) == 16);
  /* Empty batches are accepted. */
  b = rocksdb_writebatch_create();
  rocksdb_write(k.db, k.wo_sync, b, &err);
  EXPECT_NO_ERR(err);
  rocksdb_writebatch_destroy(b);
  kommander_close(&k);
  kommander_open(&k, path);
  EXPECT(kommander_last_id(&k, 8) == 28);
  EXPECT(kommander_last_id(&k, 12) == 29);
  kommander_close(&k);
}

/* Several WAL workers appending (synced and unsynced) while a reader thread iterates. */
struct worker {
  struct kommander *k;
  int partition;
  int sync;
  int entries;
  int failed;
};

static void *append_worker(void *p) {
  struct worker *w = p;
  for (long long id = 1; id <= w->entries && !w->failed; id++) {
    char key[64], val[96], meta[32], last[32];
    log_key(key, sizeof key, w->partition, id);
    log_value(val, sizeof val, w->partition, id);
    snprintf(meta, sizeof meta, "last-%d", w->partition);
    snprintf(last, sizeof last, "%lld", id);
    rocksdb_writebatch_t *b = rocksdb_writebatch_create();
    rocksdb_writebatch_put_cf(b, shard_of(w->k, w->partition), S(key), S(val));
    rocksdb_writebatch_put_cf(b, w->k->cf[1], S(meta), S(last));
    char *err = NULL;
    rocksdb_write(w->k->db, w->sync ? w->k->wo_sync : w->k->wo_nosync, b, &err);
    rocksdb_writebatch_destroy(b);
    if (err != NULL) {
      fprintf(stderr, "worker %d: %s\n", w->partition, err);
      free(err);
      w->failed = 1;
    }
  }
  return NULL;
}

struct reader {
  struct kommander *k;
  atomic_int stop;
  int scans;
  int bad;
};

static int bytecmp(const char *a, size_t al, const char *b, size_t bl) {
  int r = memcmp(a, b, al < bl ? al : bl);
  if (r != 0) return r;
  return al < bl ? -1 : al > bl ? 1 : 0;
}

static void *scan_reader(void *p) {
  struct reader *r = p;
  while (!atomic_load(&r->stop)) {
    for (int s = 0; s < 8; s++) {
      /* Each shard scan must see strictly increasing keys (a consistent view). */
      rocksdb_iterator_t *it = rocksdb_create_iterator_cf(r->k->db, r->k->ro, r->k->cf[2 + s]);
      char prev[64];
      size_t prev_len = 0;
      int have_prev = 0;
      for (rocksdb_iter_seek_to_first(it); rocksdb_iter_valid(it); rocksdb_iter_next(it)) {
        size_t kl = 0;
        const char *key = rocksdb_iter_key(it, &kl);
        if (kl > sizeof prev || (have_prev && bytecmp(prev, prev_len, key, kl) >= 0)) {
          r->bad++;
          break;
        }
        memcpy(prev, key, kl);
        prev_len = kl;
        have_prev = 1;
      }
      rocksdb_iter_destroy(it);
    }
    r->scans++;
  }
  return NULL;
}

static void concurrent_synced_and_unsynced_writers(void) {
  const char *path = kommander_path();
  struct kommander k;
  kommander_open(&k, path);
  enum { W = 8 };
  pthread_t th[W], rt;
  struct worker ws[W];
  struct reader rd;
  rd.k = &k;
  atomic_init(&rd.stop, 0);
  rd.scans = 0;
  rd.bad = 0;
  EXPECT(pthread_create(&rt, NULL, scan_reader, &rd) == 0);
  for (int i = 0; i < W; i++) {
    ws[i].k = &k;
    ws[i].partition = i + 1;
    ws[i].sync = i % 2;
    ws[i].entries = 250;
    ws[i].failed = 0;
    EXPECT(pthread_create(&th[i], NULL, append_worker, &ws[i]) == 0);
  }
  for (int i = 0; i < W; i++) EXPECT(pthread_join(th[i], NULL) == 0);
  atomic_store(&rd.stop, 1);
  EXPECT(pthread_join(rt, NULL) == 0);
  for (int i = 0; i < W; i++) EXPECT(!ws[i].failed);
  EXPECT(rd.bad == 0);
  for (int round = 0; round < 2; round++) {
    for (int i = 0; i < W; i++) {
      EXPECT(kommander_last_id(&k, i + 1) == 250);
      EXPECT(kommander_read_from(&k, i + 1, 1) == 250);
      char meta[32];
      snprintf(meta, sizeof meta, "last-%d", i + 1);
      EXPECT_GET_CF(k.db, k.ro, k.cf[1], meta, "250");
    }
    kommander_close(&k);
    kommander_open(&k, path);
  }
  kommander_close(&k);
}

/* The child opens the WAL, writes, reports through `fd`, and kills itself (no close, no
 * flush): a process crash. */
static void crash_child(const char *path, int fd, int trailing_unsynced) {
  struct kommander k;
  kommander_open(&k, path);
  for (long long id = 1; id <= 300; id++) kommander_append(&k, k.wo_nosync, 1 + (int)(id % 3), id);
  kommander_append(&k, k.wo_sync, 7, 1); /* the sync write that makes the prefix durable */
  for (long long id = 2; id <= 1 + trailing_unsynced; id++) kommander_append(&k, k.wo_nosync, 7, id);
  char c = 'd';
  if (write(fd, &c, 1) != 1) _exit(3);
  /* Die the hard way: no close, no atexit, no destructors (and, under valgrind, no leak
   * report for the objects a crash abandons). */
  raise(SIGKILL);
  _exit(4);
}

static void run_crash(int trailing_unsynced) {
  const char *path = kommander_path();
  int fds[2];
  EXPECT(pipe(fds) == 0);
  fflush(stderr);
  pid_t pid = fork();
  EXPECT(pid >= 0);
  if (pid == 0) {
    close(fds[0]);
    crash_child(path, fds[1], trailing_unsynced);
  }
  close(fds[1]);
  char c = 0;
  EXPECT(read(fds[0], &c, 1) == 1 && c == 'd');
  close(fds[0]);
  int ws = 0;
  EXPECT(waitpid(pid, &ws, 0) == pid && WIFSIGNALED(ws) && WTERMSIG(ws) == SIGKILL);
  struct kommander k;
  kommander_open(&k, path);
  /* Every write before the sync write, and the sync write itself, survived. */
  for (int p = 1; p <= 3; p++) {
    long long n = 0;
    for (long long id = p == 1 ? 3 : p - 1; id <= 300; id += 3) { /* 1 + id % 3 == p */
      char key[64], val[96];
      log_key(key, sizeof key, p, id);
      log_value(val, sizeof val, p, id);
      EXPECT_GET_CF(k.db, k.ro, shard_of(&k, p), key, val);
      n++;
    }
    EXPECT(n == 100);
  }
  EXPECT(kommander_last_id(&k, 7) == 1 + trailing_unsynced);
  kommander_close(&k);
}

static void prefix_durability_of_sync_write(void) {
  /* unsynced x300, synced x1, SIGKILL without close: all 301 are there after reopen. */
  run_crash(0);
}

static void process_crash_keeps_unsynced_writes(void) {
  /* RocksDB hands every write to the OS before returning (manual_wal_flush=false), so a
   * process crash (not a power loss) loses nothing, not even unsynced writes after the last
   * sync. Checked to keep solistore equally forgiving. */
  run_crash(20);
}

/* A child appends batches (shard entry + metadata marker, one batch) until killed with
 * SIGKILL; after recovery each batch is all-or-nothing and the survivors are a prefix. */
static void batches_atomic_across_kill(void) {
  const char *path = kommander_path();
  int fds[2];
  EXPECT(pipe(fds) == 0);
  fflush(stderr);
  pid_t pid = fork();
  EXPECT(pid >= 0);
  if (pid == 0) {
    close(fds[0]);
    struct kommander k;
    kommander_open(&k, path);
    for (long long id = 1;; id++) {
      kommander_append(&k, id % 16 == 0 ? k.wo_sync : k.wo_nosync, 5, id);
      if (id % 50 == 0) {
        char c = 'p';
        if (write(fds[1], &c, 1) != 1) _exit(3);
      }
    }
  }
  close(fds[1]);
  /* Kill after 40 progress reports (~2000 batches), without sleeping. */
  for (int i = 0; i < 40; i++) {
    char c = 0;
    EXPECT(read(fds[0], &c, 1) == 1);
  }
  kill(pid, SIGKILL);
  int ws = 0;
  EXPECT(waitpid(pid, &ws, 0) == pid);
  close(fds[0]);
  struct kommander k;
  kommander_open(&k, path);
  long long last = kommander_last_id(&k, 5);
  EXPECT(last >= 2000);
  EXPECT(kommander_read_from(&k, 5, 1) == last); /* no holes */
  char want[32];
  snprintf(want, sizeof want, "%lld", last);
  EXPECT_GET_CF(k.db, k.ro, k.cf[1], "last-5", want); /* the same batch's other half */
  /* The WAL keeps working after recovery. */
  kommander_append(&k, k.wo_sync, 5, last + 1);
  EXPECT(kommander_last_id(&k, 5) == last + 1);
  kommander_close(&k);
}

static void many_instances_and_reopens(void) {
  /* Several DBs at once in one process (WAL + KV + copies), and open/close cycles. */
  struct kommander k[3];
  char paths[3][PATH_MAX];
  for (int i = 0; i < 3; i++) {
    char tag[16];
    snprintf(tag, sizeof tag, "inst%d", i);
    snprintf(paths[i], sizeof paths[i], "%s", db_path(tag));
    kommander_open(&k[i], paths[i]);
  }
  for (int round = 0; round < 10; round++) {
    for (int i = 0; i < 3; i++) kommander_append(&k[i], k[i].wo_sync, 1, round + 1 + 100 * i);
    int victim = round % 3;
    kommander_close(&k[victim]);
    kommander_open(&k[victim], paths[victim]);
  }
  for (int i = 0; i < 3; i++) {
    EXPECT(kommander_last_id(&k[i], 1) == 10 + 100 * i);
    EXPECT(kommander_read_from(&k[i], 1, 1 + 100 * i) == 10);
    kommander_close(&k[i]);
  }
}

/* ------------------------------------------------------------------ Kahuna */

struct kahuna {
  rocksdb_cache_t *cache;
  rocksdb_options_t *dbo, *def_o, *kv_o, *locks_o;
  rocksdb_block_based_table_options_t *bbto;
  rocksdb_column_family_handle_t *cf[3]; /* default, kv, locks */
  rocksdb_t *db;
  rocksdb_writeoptions_t *wo_sync, *wo_default;
  rocksdb_readoptions_t *ro, *ro_maintenance;
};

/* RocksDbPersistenceBackend.cs:156-237 (`create` = 1 for the normal open, 0 for the
 * checkpoint-style reopen). */
static void kahuna_open_opts(struct kahuna *h, const char *path, int create, char **err) {
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  if (ncpu < 1) ncpu = 1;
  h->cache = rocksdb_cache_create_lru((size_t)256 << 20);
  h->dbo = rocksdb_options_create();
  rocksdb_options_set_create_if_missing(h->dbo, (unsigned char)create);
  rocksdb_options_set_create_missing_column_families(h->dbo, (unsigned char)create);
  rocksdb_options_set_wal_recovery_mode(h->dbo, rocksdb_absolute_consistency_recovery);
  rocksdb_options_increase_parallelism(h->dbo, ncpu > 2 ? (int)ncpu : 2);
  rocksdb_options_set_max_background_flushes(h->dbo, 2);
  rocksdb_options_set_max_background_compactions(h->dbo, ncpu / 2 > 2 ? (int)(ncpu / 2) : 2);
  rocksdb_options_enable_statistics(h->dbo);
  rocksdb_options_set_stats_dump_period_sec(h->dbo, 60);
  rocksdb_options_set_use_direct_reads(h->dbo, 1);
  h->bbto = rocksdb_block_based_options_create();
  rocksdb_block_based_options_set_block_cache(h->bbto, h->cache);
  rocksdb_block_based_options_set_filter_policy(h->bbto, rocksdb_filterpolicy_create_bloom_full(10));
  rocksdb_block_based_options_set_cache_index_and_filter_blocks(h->bbto, 1);
  rocksdb_block_based_options_set_pin_l0_filter_and_index_blocks_in_cache(h->bbto, 1);
  rocksdb_block_based_options_set_whole_key_filtering(h->bbto, 1);
  h->kv_o = rocksdb_options_create();
  rocksdb_options_set_block_based_table_factory(h->kv_o, h->bbto);
  rocksdb_options_set_write_buffer_size(h->kv_o, (size_t)64 << 20);
  rocksdb_options_set_max_write_buffer_number(h->kv_o, 3);
  rocksdb_options_set_min_write_buffer_number_to_merge(h->kv_o, 1);
  h->locks_o = rocksdb_options_create();
  rocksdb_options_set_block_based_table_factory(h->locks_o, h->bbto); /* the same BBTO */
  rocksdb_options_set_write_buffer_size(h->locks_o, (size_t)8 << 20);
  rocksdb_options_set_max_write_buffer_number(h->locks_o, 2);
  rocksdb_options_set_min_write_buffer_number_to_merge(h->locks_o, 1);
  h->def_o = rocksdb_options_create();
  const char *names[3] = {"default", "kv", "locks"};
  const rocksdb_options_t *cf_opts[3] = {h->def_o, h->kv_o, h->locks_o};
  h->db = rocksdb_open_column_families(h->dbo, path, 3, names, cf_opts, h->cf, err);
  h->wo_sync = rocksdb_writeoptions_create();
  rocksdb_writeoptions_set_sync(h->wo_sync, 1);
  h->wo_default = rocksdb_writeoptions_create();
  h->ro = rocksdb_readoptions_create();
  h->ro_maintenance = rocksdb_readoptions_create();
  rocksdb_readoptions_set_fill_cache(h->ro_maintenance, 0);
}

static void kahuna_open(struct kahuna *h, const char *path) {
  char *err = NULL;
  kahuna_open_opts(h, path, 1, &err);
  EXPECT_NO_ERR(err);
  EXPECT(h->db != NULL);
}

/* Dispose order as the finalizers may run it: handles + close, then the option objects,
 * cache and BBTO in arbitrary order (the filter policy is never destroyed by the binding). */
static void kahuna_close(struct kahuna *h) {
  if (h->db != NULL) {
    for (int i = 0; i < 3; i++) rocksdb_column_family_handle_destroy(h->cf[i]);
    rocksdb_close(h->db);
  }
  rocksdb_cache_destroy(h->cache);
  rocksdb_options_destroy(h->kv_o);
  rocksdb_readoptions_destroy(h->ro_maintenance);
  rocksdb_block_based_options_destroy(h->bbto);
  rocksdb_options_destroy(h->dbo);
  rocksdb_writeoptions_destroy(h->wo_sync);
  rocksdb_options_destroy(h->locks_o);
  rocksdb_readoptions_destroy(h->ro);
  rocksdb_options_destroy(h->def_o);
  rocksdb_writeoptions_destroy(h->wo_default);
}

static void kahuna_put(struct kahuna *h, int cf, const char *k, size_t kl, const char *v, size_t vl) {
  rocksdb_writebatch_t *b = rocksdb_writebatch_create();
  rocksdb_writebatch_put_cf(b, h->cf[cf], k, kl, v, vl);
  char *err = NULL;
  rocksdb_write(h->db, h->wo_sync, b, &err);
  rocksdb_writebatch_destroy(b);
  EXPECT_NO_ERR(err);
}

/* Kahuna's key-value revisions: "<key>~CURRENT" plus "<key>~<revision>" history. */
static void kahuna_set(struct kahuna *h, const char *key, int rev, const char *value) {
  char cur[128], hist[128];
  snprintf(cur, sizeof cur, "%s~CURRENT", key);
  snprintf(hist, sizeof hist, "%s~%010d", key, rev);
  rocksdb_writebatch_t *b = rocksdb_writebatch_create();
  rocksdb_writebatch_put_cf(b, h->cf[1], S(cur), S(value));
  rocksdb_writebatch_put_cf(b, h->cf[1], S(hist), S(value));
  char *err = NULL;
  rocksdb_write(h->db, h->wo_sync, b, &err);
  rocksdb_writebatch_destroy(b);
  EXPECT_NO_ERR(err);
}

/* GetKeyValueByRange: Seek(prefix) (NULL,0 for the empty prefix) and collect "~CURRENT" keys
 * while the prefix matches. */
static int kahuna_scan_current(struct kahuna *h, const char *prefix, char *out, size_t cap) {
  size_t pl = strlen(prefix);
  rocksdb_iterator_t *it = rocksdb_create_iterator_cf(h->db, h->ro_maintenance, h->cf[1]);
  if (pl == 0) rocksdb_iter_seek(it, NULL, 0);
  else rocksdb_iter_seek(it, prefix, pl);
  int n = 0;
  size_t len = 0;
  out[0] = '\0';
  for (; rocksdb_iter_valid(it); rocksdb_iter_next(it)) {
    size_t kl = 0;
    const char *k = rocksdb_iter_key(it, &kl);
    if (kl < pl || memcmp(k, prefix, pl) != 0) break;
    if (kl > 8 && memcmp(k + kl - 8, "~CURRENT", 8) == 0) {
      int w = snprintf(out + len, cap - len, "%s%.*s", n ? "," : "", (int)(kl - 8), k);
      if (w > 0 && (size_t)w < cap - len) len += (size_t)w;
      n++;
    }
  }
  char *err = NULL;
  rocksdb_iter_get_error(it, &err);
  EXPECT_NO_ERR(err);
  rocksdb_iter_destroy(it);
  return n;
}

static void kahuna_backend(void) {
  const char *dir = db_path("kahuna");
  EXPECT(mkdir(dir, 0700) == 0);
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/rev1", dir);
  struct kahuna h;
  kahuna_open(&h, path);
  char *err = NULL;
  kahuna_set(&h, "users/alice", 1, "a1");
  kahuna_set(&h, "users/alice", 2, "a2");
  kahuna_set(&h, "users/bob", 1, "b1");
  kahuna_set(&h, "config", 7, "c7");
  /* An empty value written from an empty span: (NULL, 0). */
  kahuna_put(&h, 1, S("empty~CURRENT"), NULL, 0);
  /* Locks CF, the NOREV marker and the special floors. */
  kahuna_put(&h, 2, S("lock/x"), S("owner=1"));
  kahuna_put(&h, 1, S("users/bob~NOREV"), S(""));
  kahuna_put(&h, 0, "\0pitr_pruned_history_floor", 26, S("12345"));
  {
    char floor_key[64];
    snprintf(floor_key, sizeof floor_key, " durability_floor_%d", (int)getpid());
    kahuna_put(&h, 0, S(floor_key), S("99"));
  }
  for (int round = 0; round < 2; round++) {
    EXPECT_GET_CF(h.db, h.ro, h.cf[1], "users/alice~CURRENT", "a2");
    EXPECT_GET_CF(h.db, h.ro, h.cf[1], "users/alice~0000000001", "a1");
    EXPECT_GET_CF(h.db, h.ro, h.cf[1], "users/carol~CURRENT", NULL);
    EXPECT_GET_CF(h.db, h.ro, h.cf[2], "lock/x", "owner=1");
    EXPECT_GET_CF(h.db, h.ro, h.cf[1], "lock/x", NULL); /* CFs are separate */
    size_t len = 9;
    char *v = rocksdb_get_cf(h.db, h.ro, h.cf[1], S("empty~CURRENT"), &len, &err);
    EXPECT_NO_ERR(err);
    EXPECT(v != NULL && len == 0); /* present and empty: non-NULL */
    free(v);
    v = rocksdb_get_cf(h.db, h.ro, h.cf[0], "\0pitr_pruned_history_floor", 26, &len, &err);
    EXPECT_NO_ERR(err);
    EXPECT_BYTES(v, len, "12345");
    free(v);
    /* Scans: the empty prefix (NULL, 0) sees every key; "users/" only the users. */
    char buf[512];
    EXPECT(kahuna_scan_current(&h, "", buf, sizeof buf) == 4);
    EXPECTF(strcmp(buf, "config,empty,users/alice,users/bob") == 0, "scan \"%s\"", buf);
    EXPECT(kahuna_scan_current(&h, "users/", buf, sizeof buf) == 2);
    EXPECT(strcmp(buf, "users/alice,users/bob") == 0);
    /* Revisions and NOREV of one key are contiguous after its CURRENT key... in byte order:
     * "~0..." < "~CURRENT" < "~NOREV". */
    rocksdb_iterator_t *it = rocksdb_create_iterator_cf(h.db, h.ro, h.cf[1]);
    rocksdb_iter_seek(it, S("users/bob~"));
    EXPECT_ITER(it, "users/bob~0000000001", "b1");
    rocksdb_iter_next(it);
    EXPECT_ITER(it, "users/bob~CURRENT", "b1");
    rocksdb_iter_next(it);
    EXPECT_ITER(it, "users/bob~NOREV", "");
    rocksdb_iter_destroy(it);
    /* MultiGet over kv, in input order, NULL for missing. */
    const char *keys[5] = {"users/bob~CURRENT", "nope", "users/alice~CURRENT", "empty~CURRENT",
                           "config~CURRENT"};
    const rocksdb_column_family_handle_t *cfs[5] = {h.cf[1], h.cf[1], h.cf[1], h.cf[1], h.cf[1]};
    size_t klens[5], vlens[5];
    char *vals[5], *errs[5];
    for (int i = 0; i < 5; i++) klens[i] = strlen(keys[i]);
    rocksdb_multi_get_cf(h.db, h.ro, cfs, 5, keys, klens, vals, vlens, errs);
    for (int i = 0; i < 5; i++) EXPECT_NO_ERR(errs[i]);
    EXPECT_BYTES(vals[0], vlens[0], "b1");
    EXPECT(vals[1] == NULL);
    EXPECT_BYTES(vals[2], vlens[2], "a2");
    EXPECT(vals[3] != NULL && vlens[3] == 0);
    EXPECT_BYTES(vals[4], vlens[4], "c7");
    for (int i = 0; i < 5; i++) rocksdb_free(vals[i]);
    kahuna_close(&h);
    kahuna_open(&h, path);
  }
  /* Remove (delete_cf with default write options) and batch deletes. */
  rocksdb_delete_cf(h.db, h.wo_default, h.cf[2], S("lock/x"), &err);
  EXPECT_NO_ERR(err);
  rocksdb_writebatch_t *b = rocksdb_writebatch_create();
  rocksdb_writebatch_delete_cf(b, h.cf[1], S("users/alice~CURRENT"));
  rocksdb_writebatch_delete_cf(b, h.cf[1], S("users/alice~0000000001"));
  rocksdb_writebatch_delete_cf(b, h.cf[1], S("users/alice~0000000002"));
  rocksdb_write(h.db, h.wo_default, b, &err);
  EXPECT_NO_ERR(err);
  rocksdb_writebatch_destroy(b);
  kahuna_close(&h);
  /* The checkpoint-style reopen: create_if_missing = create_missing_column_families = 0. */
  kahuna_open_opts(&h, path, 0, &err);
  EXPECT_NO_ERR(err);
  EXPECT(h.db != NULL);
  EXPECT_GET_CF(h.db, h.ro, h.cf[2], "lock/x", NULL);
  EXPECT_GET_CF(h.db, h.ro, h.cf[1], "users/alice~CURRENT", NULL);
  EXPECT_GET_CF(h.db, h.ro, h.cf[1], "users/bob~CURRENT", "b1");
  /* Kahuna.Server.Tests: raw Put into kv after such an open. */
  rocksdb_put_cf(h.db, h.wo_default, h.cf[1], S("raw"), S("1"), &err);
  EXPECT_NO_ERR(err);
  kahuna_close(&h);
  /* And on a directory that does not hold a DB, that reopen fails cleanly. */
  const char *missing = db_path("no-db");
  kahuna_open_opts(&h, missing, 0, &err);
  EXPECT(h.db == NULL);
  EXPECT_ERR_CONTAINS(err, "does not exist");
  kahuna_close(&h);
}

static void large_values_and_multi_get(void) {
  /* Raft payloads up to several MB; multi_get of many keys. */
  const char *path = db_path("db");
  struct kahuna h;
  kahuna_open(&h, path);
  size_t big_n = (size_t)3 << 20;
  char *big = malloc(big_n);
  EXPECT(big != NULL);
  for (size_t i = 0; i < big_n; i++) big[i] = (char)(i * 31 + (i >> 11));
  kahuna_put(&h, 1, S("big"), big, big_n);
  enum { N = 200 };
  for (int i = 0; i < N; i += 2) {
    char k[32], v[32];
    snprintf(k, sizeof k, "k%04d", i);
    snprintf(v, sizeof v, "v%04d", i);
    kahuna_put(&h, 1, S(k), S(v));
  }
  const char *keys[N + 1];
  size_t klens[N + 1], vlens[N + 1];
  char *vals[N + 1], *errs[N + 1];
  const rocksdb_column_family_handle_t *cfs[N + 1];
  static char keybuf[N][16];
  for (int i = 0; i < N; i++) {
    snprintf(keybuf[i], sizeof keybuf[i], "k%04d", N - 1 - i); /* reverse order */
    keys[i] = keybuf[i];
    klens[i] = strlen(keybuf[i]);
    cfs[i] = h.cf[1];
  }
  keys[N] = "big";
  klens[N] = 3;
  cfs[N] = h.cf[1];
  rocksdb_multi_get_cf(h.db, h.ro, cfs, N + 1, keys, klens, vals, vlens, errs);
  for (int i = 0; i < N; i++) {
    int key = N - 1 - i;
    EXPECT_NO_ERR(errs[i]);
    if (key % 2 == 0) {
      char v[32];
      snprintf(v, sizeof v, "v%04d", key);
      EXPECT_BYTES(vals[i], vlens[i], v);
    } else {
      EXPECT(vals[i] == NULL && vlens[i] == 0);
    }
    rocksdb_free(vals[i]);
  }
  EXPECT_NO_ERR(errs[N]);
  EXPECT(vals[N] != NULL && vlens[N] == big_n && memcmp(vals[N], big, big_n) == 0);
  rocksdb_free(vals[N]);
  kahuna_close(&h);
  kahuna_open(&h, path);
  size_t len = 0;
  char *err = NULL;
  char *v = rocksdb_get_cf(h.db, h.ro, h.cf[1], S("big"), &len, &err);
  EXPECT_NO_ERR(err);
  EXPECT(v != NULL && len == big_n && memcmp(v, big, big_n) == 0);
  rocksdb_free(v);
  free(big);
  kahuna_close(&h);
}

/* ------------------------------------------------------------------ shared resources */

static void shared_cache_and_write_buffer_manager(void) {
  REQUIRE_V11_HEADER("rocksdb_write_buffer_manager_* (RocksDbSharedResources)");
#ifdef TESTC_HEADER_V11
  /* RocksDbSharedResources: one LRU cache + one WBM (allow_stall = 0) for a WAL DB and a KV
   * DB. Memtable usage must rise after unsynced 1 KiB writes into either DB, and disposing the
   * bundle before the databases must be safe. */
  rocksdb_cache_t *cache = rocksdb_cache_create_lru((size_t)64 << 20);
  rocksdb_write_buffer_manager_t *wbm =
      rocksdb_write_buffer_manager_create_with_cache((size_t)32 << 20, cache, false);
  EXPECTF(wbm != NULL, "rocksdb_write_buffer_manager_create_with_cache returned NULL");
  rocksdb_options_t *o = opts_create();
  rocksdb_options_set_write_buffer_manager(o, wbm);
  rocksdb_block_based_table_options_t *t = rocksdb_block_based_options_create();
  rocksdb_block_based_options_set_block_cache(t, cache);
  rocksdb_options_set_block_based_table_factory(o, t);
  rocksdb_block_based_options_destroy(t);
  rocksdb_t *wal = open_ok(o, db_path("wal"));
  rocksdb_t *kv = open_ok(o, db_path("kv"));
  rocksdb_options_destroy(o);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  char v[1024];
  memset(v, 'v', sizeof v - 1);
  v[sizeof v - 1] = '\0';
  size_t u0 = rocksdb_write_buffer_manager_memory_usage(wbm);
  size_t c0 = rocksdb_cache_get_usage(cache);
  for (int i = 0; i < 400; i++) {
    char k[32];
    snprintf(k, sizeof k, "wal-%05d", i);
    put_ok(wal, wo, k, v);
  }
  size_t u1 = rocksdb_write_buffer_manager_memory_usage(wbm);
  EXPECTF(u1 > u0, "usage %zu -> %zu after WAL-DB writes", u0, u1);
  for (int i = 0; i < 400; i++) {
    char k[32];
    snprintf(k, sizeof k, "kv-%05d", i);
    put_ok(kv, wo, k, v);
  }
  size_t u2 = rocksdb_write_buffer_manager_memory_usage(wbm);
  EXPECTF(u2 > u1, "usage %zu -> %zu after KV-DB writes", u1, u2);
  /* The manager charges the memtables to the shared cache: its usage rises too. */
  size_t c2 = rocksdb_cache_get_usage(cache);
  EXPECTF(c2 > c0, "shared cache usage %zu -> %zu after 800 KiB of memtable writes", c0, c2);
  /* DisposeOrder_BundleFirst_ThenDatabases_DoesNotCrash. */
  rocksdb_write_buffer_manager_destroy(wbm);
  rocksdb_cache_destroy(cache);
  put_ok(wal, wo, "after-bundle", "1");
  put_ok(kv, wo, "after-bundle", "1");
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  EXPECT_GET(kv, ro, "kv-00399", v);
  EXPECT_GET(wal, ro, "after-bundle", "1");
  rocksdb_close(wal);
  rocksdb_close(kv);
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
#endif
}

/* ------------------------------------------------------------------ needs tables (issue 3) */

static int file_contains(const char *file, const char *needle, size_t nlen) {
  FILE *fp = fopen(file, "rb");
  if (fp == NULL) return 0;
  fseek(fp, 0, SEEK_END);
  long size = ftell(fp);
  fseek(fp, 0, SEEK_SET);
  int found = 0;
  if (size > 0) {
    char *buf = malloc((size_t)size);
    if (buf != NULL && fread(buf, 1, (size_t)size, fp) == (size_t)size)
      found = memmem(buf, (size_t)size, needle, nlen) != NULL;
    free(buf);
  }
  fclose(fp);
  return found;
}

/* Number of regular files under `dir` holding `needle`; `*files` counts the files scanned. */
static int count_files_containing(const char *dir, const char *needle, int *files) {
  DIR *d = opendir(dir);
  EXPECTF(d != NULL, "opendir %s", dir);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    struct stat st;
    if (stat(p, &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      n += count_files_containing(p, needle, files);
    } else if (S_ISREG(st.st_mode)) {
      (*files)++;
      n += file_contains(p, needle, strlen(needle));
    }
  }
  closedir(d);
  return n;
}

static void tables_checkpoint_compaction(void) {
  /* Kahuna PITR (TestPitrCheckpoint.RocksDb_CreateCheckpointAsOf_PhysicallyPurgesPostCutBytes):
   * checkpoint the open DB, move it, open the copy (create_if_missing = 0), trim post-cut keys
   * with batches while iterating, compact_range_cf(NULL, 0, NULL, 0) both CFs, close; the
   * post-cut value bytes must be gone from every file and the pre-cut sentinel present
   * literally. Also: block cache usage rises after reads from tables. */
  static const char pre_cut[] = "PRECUT-7f3a91c2e4b85d06-sentinel";
  static const char post_cut[] = "POSTCUT-c81e5a2f9d0b7346-must-vanish";
  const char *dir = db_path("src");
  struct kahuna h;
  kahuna_open(&h, dir);
  kahuna_put(&h, 1, S("a~0000000001"), S(pre_cut));
  for (int i = 0; i < 200; i++) {
    char k[32];
    snprintf(k, sizeof k, "b~%010d", i + 2);
    kahuna_put(&h, 1, S(k), S(post_cut));
  }
  kahuna_put(&h, 2, S("lock/y"), S(pre_cut));
  char *err = NULL;
  /* Checkpoint: the target must not exist; the call creates it. */
  rocksdb_checkpoint_t *cp = rocksdb_checkpoint_object_create(h.db, &err);
  SKIP_IF_NOT_IMPLEMENTED(err);
  EXPECT_NO_ERR(err);
  const char *tmp = db_path("checkpoint.tmp");
  rocksdb_checkpoint_create(cp, tmp, 0, &err);
  SKIP_IF_NOT_IMPLEMENTED(err);
  EXPECT_NO_ERR(err);
  rocksdb_checkpoint_object_destroy(cp);
  EXPECT(testc_path_exists(tmp));
  /* Checkpoint into an existing directory fails. */
  cp = rocksdb_checkpoint_object_create(h.db, &err);
  EXPECT_NO_ERR(err);
  rocksdb_checkpoint_create(cp, tmp, 0, &err);
  EXPECT_ERR_EQ(err, "Invalid argument: Directory exists");
  rocksdb_checkpoint_object_destroy(cp);
  /* The source stays open and usable. */
  kahuna_put(&h, 1, S("after-checkpoint"), S("1"));
  /* A foreign file inside, then Directory.Move. */
  {
    char manifest[PATH_MAX];
    snprintf(manifest, sizeof manifest, "%s/checkpoint.manifest", tmp);
    FILE *fp = fopen(manifest, "w");
    EXPECT(fp != NULL);
    fputs("{\"cut\": 1}\n", fp);
    fclose(fp);
  }
  const char *copy = db_path("checkpoint");
  EXPECT(rename(tmp, copy) == 0);
  struct kahuna c;
  kahuna_open_opts(&c, copy, 0, &err);
  EXPECT_NO_ERR(err);
  EXPECT_GET_CF(c.db, c.ro, c.cf[1], "a~0000000001", pre_cut);
  EXPECT_GET_CF(c.db, c.ro, c.cf[1], "after-checkpoint", NULL);
  /* Trim: walk kv and delete post-cut revisions in batches (FlushIfLarge) while iterating. */
  rocksdb_iterator_t *it = rocksdb_create_iterator_cf(c.db, c.ro_maintenance, c.cf[1]);
  rocksdb_writebatch_t *b = rocksdb_writebatch_create();
  int deleted = 0;
  for (rocksdb_iter_seek_to_first(it); rocksdb_iter_valid(it); rocksdb_iter_next(it)) {
    size_t kl = 0;
    const char *k = rocksdb_iter_key(it, &kl);
    if (kl > 2 && k[0] == 'b') {
      rocksdb_writebatch_delete_cf(b, c.cf[1], k, kl);
      deleted++;
      if (rocksdb_writebatch_count(b) >= 32) {
        rocksdb_write(c.db, c.wo_default, b, &err);
        EXPECT_NO_ERR(err);
        rocksdb_writebatch_clear(b);
      }
    }
  }
  rocksdb_write(c.db, c.wo_default, b, &err);
  EXPECT_NO_ERR(err);
  rocksdb_writebatch_destroy(b);
  rocksdb_iter_destroy(it);
  EXPECT(deleted == 200);
  rocksdb_compact_range_cf(c.db, c.cf[1], NULL, 0, NULL, 0);
  rocksdb_compact_range_cf(c.db, c.cf[2], NULL, 0, NULL, 0);
  EXPECT_GET_CF(c.db, c.ro, c.cf[1], "b~0000000002", NULL);
  kahuna_close(&c);
  int files = 0;
  int with_post = count_files_containing(copy, post_cut, &files);
  int with_pre = count_files_containing(copy, pre_cut, &files);
  EXPECTF(with_post == 0, "%d file(s) in the trimmed checkpoint still hold post-cut bytes",
          with_post);
  EXPECTF(with_pre >= 1, "pre-cut sentinel not found literally in any of %d files", files);
  /* Reopen the trimmed copy: the kept values are there, the trimmed ones stay gone. */
  kahuna_open_opts(&c, copy, 0, &err);
  EXPECT_NO_ERR(err);
  EXPECT_GET_CF(c.db, c.ro, c.cf[1], "a~0000000001", pre_cut);
  EXPECT_GET_CF(c.db, c.ro, c.cf[2], "lock/y", pre_cut);
  EXPECT_GET_CF(c.db, c.ro, c.cf[1], "b~0000000002", NULL);
  EXPECT_GET_CF(c.db, c.ro, c.cf[1], "b~0000000201", NULL);
  kahuna_close(&c);
  /* Block cache usage rises after reads that hit tables. */
  rocksdb_flushoptions_t *fo = rocksdb_flushoptions_create();
  rocksdb_flushoptions_set_wait(fo, 1);
  rocksdb_flush_cf(h.db, fo, h.cf[1], &err);
  rocksdb_flushoptions_destroy(fo);
  SKIP_IF_NOT_IMPLEMENTED(err);
  EXPECT_NO_ERR(err);
  size_t before = rocksdb_cache_get_usage(h.cache);
  EXPECT_GET_CF(h.db, h.ro, h.cf[1], "b~0000000100", post_cut);
  EXPECT_GET_CF(h.db, h.ro, h.cf[1], "a~0000000001", pre_cut);
  size_t after = rocksdb_cache_get_usage(h.cache);
  EXPECTF(after > before, "block cache usage %zu -> %zu", before, after);
  kahuna_close(&h);
}

TESTC_MAIN("test_hosts", P(kommander_wal), P(concurrent_synced_and_unsynced_writers),
           P(prefix_durability_of_sync_write), P(process_crash_keeps_unsynced_writes),
           P(batches_atomic_across_kill), P(many_instances_and_reopens), P(kahuna_backend),
           P(large_values_and_multi_get), P(shared_cache_and_write_buffer_manager),
           P(tables_checkpoint_compaction))
