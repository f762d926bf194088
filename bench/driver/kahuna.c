/* SPDX-License-Identifier: Apache-2.0
 * Kahuna's key-value backend on the engine, as its RocksDbPersistenceBackend drives it
 * (hosts-dotnet-calls.md): column families `default, kv, locks`; a 256 MiB LRU cache, a full
 * bloom filter of 10 bits, index and filter blocks in the cache with L0's pinned, whole-key
 * filtering, 64 MiB write buffers (3 of them), increase_parallelism(max(2, nproc)), two
 * background flushes and compactions, wal_recovery_mode=1; every write synced.
 * (Kahuna's default also sets use_direct_reads=1; here that is the `direct_reads` flag, off by
 * default, so both engines read through the page cache.)
 *
 * A logical write of key K at revision R puts the serialized entry (the value plus 32 bytes
 * of metadata) twice in one batch: under `K~CURRENT` and under `K~R`. Keys are
 * `pNNNNN/kNNNNNNNN` (16 bytes): one prefix `pNNNNN/` per 100 keys.
 *
 * Datasets (`dataset=`): small = kahuna_small_keys (200,000) keys of 256 B; large =
 * kahuna_large_keys keys of 1 KiB (Kahuna's shape is 2,000,000; the default here is 250,000,
 * which still exceeds the 256 MiB cache; pass kahuna_large_keys=2000000 for the full size);
 * history = kahuna_history_keys (10,000) keys of 256 B, each written kahuna_versions (8) times.
 *
 * Workloads, on `<db>/kahuna-<dataset>`:
 *   kahuna_load        fresh DB; every key (every version, round by round, keys in random order)
 *                      in synced batches of `batch` keys; throughput in keys/s
 *   kahuna_get         get_cf(kv, K~CURRENT) of random existing keys from `threads` threads
 *   kahuna_getmiss     the same for keys that do not exist (`pNNNNN/mNNNNNNNN`)
 *   kahuna_scan        Kahuna's prefix scan: Seek(prefix), walk the prefix, decode the 100
 *                      `~CURRENT` entries (skipping the revision entries between them)
 *   kahuna_batch       synced batches of `batch` keys (64, 1,024): new revisions of random keys,
 *                      for `duration` seconds, then a settle; throughput in keys/s, latency per batch
 *   kahuna_checkpoint  `kahuna_checkpoints` times: a synced batch of 64 keys, then
 *                      rocksdb_checkpoint_create(dir, log_size_for_flush=0) (timed), removed after */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workload.h"

#define NAME_LEN 16
#define CURRENT "~CURRENT"
#define CURRENT_LEN 8
#define META_BYTES 32
#define CF_KV 1

static const char *const CF_NAMES[] = {"default", "kv", "locks"};

struct kahuna {
    const struct config *c;
    struct db d;
    rocksdb_writeoptions_t *wo;
    rocksdb_readoptions_t *ro;
    struct values v;
    uint64_t keys;
    int versions;
    size_t msg;
    uint32_t *perm;
    double settled_s; /* settle_before: how long the settle after the open took */
};

static void dataset(const struct config *c, uint64_t *keys, int *versions, int *value) {
    if (strcmp(c->dataset, "large") == 0) {
        *keys = (uint64_t)c->kahuna_large_keys;
        *versions = 1;
        *value = 1024;
    } else if (strcmp(c->dataset, "history") == 0) {
        *keys = (uint64_t)c->kahuna_history_keys;
        *versions = c->kahuna_versions;
        *value = 256;
    } else if (strcmp(c->dataset, "small") == 0) {
        *keys = (uint64_t)c->kahuna_small_keys;
        *versions = 1;
        *value = 256;
    } else {
        fprintf(stderr, "dataset must be small, large or history\n");
        exit(2);
    }
}

static void name_of(char *out, uint64_t i, char kind) {
    out[0] = 'p';
    key_decimal(out + 1, i / 100, 5);
    out[6] = '/';
    out[7] = kind;
    key_decimal(out + 8, i, 8);
}

static void kahuna_open(struct kahuna *s, const struct config *c, const char *dir) {
    memset(s, 0, sizeof *s);
    s->c = c;
    int value = 0;
    dataset(c, &s->keys, &s->versions, &value);
    s->msg = (size_t)value + META_BYTES;
    struct db_options o;
    memset(&o, 0, sizeof o);
    o.data_block_hash = c->data_block_hash;
    o.compression = -1;
    o.bloom_bits = 10;
    o.cache_bytes = 256u << 20;
    o.write_buffer = 64u << 20;
    o.max_write_buffers = 3;
    long np = sysconf(_SC_NPROCESSORS_ONLN);
    o.parallelism = np > 2 ? (int)np : 2;
    o.kahuna_tables = 1;
    o.direct_reads = c->direct_reads;
    db_open_cfs(&s->d, dir, &o, 3, CF_NAMES);
    s->wo = E.writeoptions_create();
    E.writeoptions_set_sync(s->wo, 1);
    s->ro = E.readoptions_create();
    values_init(&s->v, c->seed);
    if (c->settle_before) s->settled_s = db_settle(&s->d, 120);
}

static void kahuna_close(struct kahuna *s, struct report *r) {
    if (s->c->settle_before) report_extra(r, "settle_before_s", s->settled_s);
    E.writeoptions_destroy(s->wo);
    E.readoptions_destroy(s->ro);
    db_close(&s->d);
    free(s->v.buf);
    free(s->perm);
}

/* Adds key i at revision rev (both entries) to b. */
static uint64_t batch_key(struct kahuna *s, struct worker *w, rocksdb_writebatch_t *b, uint64_t i, uint64_t rev) {
    char k[NAME_LEN + 24];
    name_of(k, i, 'k');
    const char *val = values_get(&s->v, rng_next(&w->rng), s->msg);
    memcpy(k + NAME_LEN, CURRENT, CURRENT_LEN);
    E.writebatch_put_cf(b, s->d.cf[CF_KV], k, NAME_LEN + CURRENT_LEN, val, s->msg);
    int rl = snprintf(k + NAME_LEN, 24, "~%llu", (unsigned long long)rev);
    E.writebatch_put_cf(b, s->d.cf[CF_KV], k, (size_t)(NAME_LEN + rl), val, s->msg);
    return 2 * NAME_LEN + CURRENT_LEN + (uint64_t)rl + 2 * s->msg;
}

static void write_batch(struct kahuna *s, rocksdb_writebatch_t *b) {
    char *err = NULL;
    E.write(s->d.db, s->wo, b, &err);
    engine_check(err, "write (synced batch)");
}

/* The one writer of a single-threaded Kahuna workload, with its own write batch. */
static void single_writer(struct worker *w, const struct config *c, struct kahuna *s) {
    memset(w, 0, sizeof *w);
    w->c = c;
    w->shared = s;
    w->rng = rng_seed(c->seed, 1);
    w->time_ops = 1;
    w->local = E.writebatch_create();
}

/* ---- load ---- */

static int op_load(struct worker *w) {
    struct kahuna *s = w->shared;
    rocksdb_writebatch_t *b = w->local;
    uint64_t total = s->keys * (uint64_t)s->versions, done = w->ops;
    if (done >= total) return 0;
    uint64_t n = (uint64_t)w->c->batch;
    if (n > total - done) n = total - done;
    E.writebatch_clear(b);
    for (uint64_t j = 0; j < n; j++) {
        uint64_t pos = done + j, round = pos / s->keys;
        uint64_t key = s->perm[(pos % s->keys + round * 7919) % s->keys];
        w->bytes += batch_key(s, w, b, key, round + 1);
    }
    write_batch(s, b);
    return (int)n;
}

void w_kahuna_load(const struct config *c, struct report *r, const char *dir) {
    struct kahuna s;
    kahuna_open(&s, c, dir);
    s.perm = permutation(s.keys, c->seed);
    struct worker w;
    single_writer(&w, c, &s);
    uint64_t total = s.keys * (uint64_t)s.versions;
    phase_begin(c, r, total, 0);
    r->seconds = run_workers(&w, 1, op_load, NULL);
    phase_end(r);
    report_workers(r, &w, 1);
    r->unit = "key";
    r->lat_unit = "batch";
    E.writebatch_destroy(w.local);
    r->settle_s = db_settle(&s.d, 120);
    report_extra(r, "keys", (double)s.keys);
    report_extra(r, "versions", s.versions);
    kahuna_close(&s, r);
}

/* ---- point reads ---- */

static int get_name(struct worker *w, uint64_t i, char kind) {
    struct kahuna *s = w->shared;
    char k[NAME_LEN + CURRENT_LEN];
    name_of(k, i, kind);
    memcpy(k + NAME_LEN, CURRENT, CURRENT_LEN);
    size_t vl = 0;
    char *err = NULL;
    char *v = E.get_cf(s->d.db, s->ro, s->d.cf[CF_KV], k, sizeof k, &vl, &err);
    engine_check(err, "get_cf");
    if (v != NULL) {
        if (vl == s->msg) w->found++;
        E.free(v);
    }
    return 1;
}

static int op_get(struct worker *w) {
    struct kahuna *s = w->shared;
    return get_name(w, rng_below(&w->rng, s->keys), 'k');
}

static int op_getmiss(struct worker *w) {
    struct kahuna *s = w->shared;
    return get_name(w, rng_below(&w->rng, s->keys), 'm');
}

static void kahuna_threads(const struct config *c, struct report *r, struct kahuna *s, uint64_t total, op_fn op) {
    int t = c->threads < 1 ? 1 : c->threads;
    struct worker *ws = calloc((size_t)t, sizeof *ws);
    if (ws == NULL) abort();
    for (int i = 0; i < t; i++) {
        ws[i].id = i;
        ws[i].c = c;
        ws[i].shared = s;
        ws[i].rng = rng_seed(c->seed, i + 1);
        ws[i].budget = total * (uint64_t)(i + 1) / (uint64_t)t - total * (uint64_t)i / (uint64_t)t;
        ws[i].time_ops = 1;
    }
    phase_begin(c, r, total, 0);
    r->seconds = run_workers(ws, t, op, NULL);
    phase_end(r);
    report_workers(r, ws, t);
    free(ws);
}

static void gets(const struct config *c, struct report *r, const char *dir, int missing) {
    struct kahuna s;
    kahuna_open(&s, c, dir);
    kahuna_threads(c, r, &s, (uint64_t)c->kahuna_reads, missing ? op_getmiss : op_get);
    r->unit = "get";
    r->expected_found = missing ? 0 : r->ops;
    if (r->found != r->expected_found)
        snprintf(r->error, sizeof r->error, "found %llu of %llu keys (expected %llu)", (unsigned long long)r->found,
                 (unsigned long long)r->ops, (unsigned long long)r->expected_found);
    kahuna_close(&s, r);
}

void w_kahuna_get(const struct config *c, struct report *r, const char *dir) { gets(c, r, dir, 0); }
void w_kahuna_getmiss(const struct config *c, struct report *r, const char *dir) { gets(c, r, dir, 1); }

/* ---- prefix scan ---- */

static int op_scan(struct worker *w) {
    struct kahuna *s = w->shared;
    uint64_t prefixes = s->keys / 100;
    char prefix[7];
    prefix[0] = 'p';
    key_decimal(prefix + 1, rng_below(&w->rng, prefixes ? prefixes : 1), 5);
    prefix[6] = '/';
    rocksdb_iterator_t *it = E.create_iterator_cf(s->d.db, s->ro, s->d.cf[CF_KV]);
    E.iter_seek(it, prefix, sizeof prefix);
    int current = 0;
    while (E.iter_valid(it) && current < 100) {
        size_t kl = 0, vl = 0;
        const char *k = E.iter_key(it, &kl);
        if (kl < sizeof prefix || memcmp(k, prefix, sizeof prefix) != 0) break;
        if (kl >= CURRENT_LEN && memcmp(k + kl - CURRENT_LEN, CURRENT, CURRENT_LEN) == 0) {
            const char *v = E.iter_value(it, &vl);
            if (vl == s->msg) current++;
            w->aux += (uint64_t)(unsigned char)v[0];
        }
        E.iter_next(it);
    }
    char *err = NULL;
    E.iter_get_error(it, &err);
    engine_check(err, "iterator (scan)");
    E.iter_destroy(it);
    w->found += (uint64_t)current;
    return 1;
}

void w_kahuna_scan(const struct config *c, struct report *r, const char *dir) {
    struct kahuna s;
    kahuna_open(&s, c, dir);
    uint64_t scans = (uint64_t)c->kahuna_reads / 50;
    if (scans < 1) scans = 1;
    kahuna_threads(c, r, &s, scans, op_scan);
    r->unit = "scan";
    r->expected_found = r->ops * 100;
    report_extra(r, "keys_per_scan", 100);
    if (r->found != r->expected_found)
        snprintf(r->error, sizeof r->error, "scans found %llu of %llu keys", (unsigned long long)r->found,
                 (unsigned long long)r->expected_found);
    kahuna_close(&s, r);
}

/* ---- synced batches of new revisions ---- */

static int op_batch(struct worker *w) {
    struct kahuna *s = w->shared;
    rocksdb_writebatch_t *b = w->local;
    E.writebatch_clear(b);
    for (int j = 0; j < w->c->batch; j++)
        w->bytes += batch_key(s, w, b, rng_below(&w->rng, s->keys), 1000000u + w->aux++);
    write_batch(s, b);
    return w->c->batch;
}

void w_kahuna_batch(const struct config *c, struct report *r, const char *dir) {
    struct kahuna s;
    kahuna_open(&s, c, dir);
    struct worker w;
    single_writer(&w, c, &s);
    phase_begin(c, r, 0, c->duration);
    unsigned long s0 = atomic_load(&g_fdatasyncs) + atomic_load(&g_fsyncs);
    w.deadline = now_ns() + (uint64_t)(c->duration * 1e9);
    if (c->max_ops > 0) w.budget = (uint64_t)c->max_ops;
    sync_trace_begin();
    r->seconds = run_workers(&w, 1, op_batch, NULL);
    sync_trace_report(r);
    unsigned long syncs = atomic_load(&g_fdatasyncs) + atomic_load(&g_fsyncs) - s0;
    phase_end(r);
    report_workers(r, &w, 1);
    r->unit = "key";
    r->lat_unit = "batch";
    report_extra(r, "keys_per_batch", c->batch);
    report_extra(r, "batches_per_s", (double)r->ops / (double)c->batch / r->seconds);
    report_extra(r, "engine_syncs", (double)syncs);
    E.writebatch_destroy(w.local);
    /* As the other writers: the flushes and compactions the batches made count as their bytes. */
    r->settle_s = db_settle(&s.d, 120);
    kahuna_close(&s, r);
}

/* ---- checkpoints ---- */

void w_kahuna_checkpoint(const struct config *c, struct report *r, const char *dir) {
    struct kahuna s;
    kahuna_open(&s, c, dir);
    struct worker w;
    single_writer(&w, c, &s);
    rocksdb_writebatch_t *b = w.local;
    char cp[1200];
    uint64_t cp_bytes = 0;
    double timed = 0;
    phase_begin(c, r, (uint64_t)c->kahuna_checkpoints, 0);
    for (int i = 0; i < c->kahuna_checkpoints; i++) {
        E.writebatch_clear(b);
        for (int j = 0; j < 64; j++) w.bytes += batch_key(&s, &w, b, rng_below(&w.rng, s.keys), 2000000u + w.aux++);
        write_batch(&s, b);
        snprintf(cp, sizeof cp, "%s.checkpoint-%d", dir, i);
        remove_tree(cp);
        char *err = NULL;
        uint64_t t0 = now_ns();
        rocksdb_checkpoint_t *ck = E.checkpoint_object_create(s.d.db, &err);
        engine_check(err, "checkpoint_object_create");
        E.checkpoint_create(ck, cp, 0, &err);
        engine_check(err, "checkpoint_create");
        E.checkpoint_object_destroy(ck);
        uint64_t t1 = now_ns();
        hist_add(&r->lat, t1 - t0);
        timed += (double)(t1 - t0) / 1e9;
        cp_bytes += dir_bytes(cp);
        remove_tree(cp);
        r->ops++;
        atomic_fetch_add(&g_progress_done, 1);
    }
    phase_end(r);
    r->seconds = timed;
    r->user_bytes = w.bytes;
    r->unit = "checkpoint";
    report_extra(r, "checkpoint_mb", c->kahuna_checkpoints ? (double)cp_bytes / c->kahuna_checkpoints / 1048576.0 : 0);
    E.writebatch_destroy(w.local);
    kahuna_close(&s, r);
}
