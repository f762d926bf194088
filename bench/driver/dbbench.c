/* SPDX-License-Identifier: Apache-2.0
 * db_bench's workloads on one DB (`<db>/dbbench`): fillseq, fillrandom, overwrite, readrandom,
 * readmissing, readseq, readreverse, seekrandom, multireadrandom, readwhilewriting,
 * deleterandom. Keys are `key_size` decimal digits of the key number in [0, num); values come
 * from the half-compressible pool (workload.c).
 *
 * Differences from db_bench, on purpose: fillrandom writes every key exactly once (a random
 * permutation), so readrandom's keys are all found (its found count is checked); a missing key
 * is an existing key with its last digit replaced by 'x', so it sorts between existing keys
 * and only a filter or a block lookup can reject it. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

#define KEY_MAX 256

struct dbb {
    const struct config *c;
    struct db d;
    rocksdb_writeoptions_t *wo;
    rocksdb_readoptions_t *ro;
    struct values v;
    uint32_t *perm;
    atomic_int readers_done;
    int nreaders;
    double settled_s; /* settle_before: how long the settle after the open took */
};

static void dbb_open(struct dbb *s, const struct config *c, const char *dir) {
    memset(s, 0, sizeof *s);
    s->c = c;
    if (c->key_size < 1 || c->key_size > KEY_MAX || c->value_size < 0 || c->value_size > 65536) {
        fprintf(stderr, "key_size must be 1..%d, value_size 0..65536\n", KEY_MAX);
        exit(2);
    }
    struct db_options o;
    dbbench_options(c, &o);
    if (c->batched) {
        /* rocksdb_batched_multi_get_cf needs the default family's handle, which 7.8.3's C API
         * gives only to a DB opened with its column families named. */
        static const char *const names[] = {"default"};
        db_open_cfs(&s->d, dir, &o, 1, names);
    } else {
        db_open(&s->d, dir, &o);
    }
    s->wo = E.writeoptions_create();
    E.writeoptions_set_sync(s->wo, (unsigned char)c->sync);
    s->ro = E.readoptions_create();
    values_init(&s->v, c->seed);
    if (c->settle_before) s->settled_s = db_settle(&s->d, 120);
    if (c->warm) {
        rocksdb_iterator_t *it = E.create_iterator(s->d.db, s->ro);
        for (E.iter_seek_to_first(it); E.iter_valid(it); E.iter_next(it)) {
        }
        E.iter_destroy(it);
    }
}

static void dbb_close(struct dbb *s, struct report *r, int settle) {
    if (s->c->settle_before) report_extra(r, "settle_before_s", s->settled_s);
    if (settle) r->settle_s = db_settle(&s->d, 120);
    E.writeoptions_destroy(s->wo);
    E.readoptions_destroy(s->ro);
    db_close(&s->d);
    free(s->v.buf);
    free(s->perm);
}

/* Splits `total` ops over n workers; worker i gets keys [base, base + budget). */
static void split(struct worker *ws, int n, struct dbb *s, uint64_t total) {
    for (int i = 0; i < n; i++) {
        memset(&ws[i], 0, sizeof ws[i]);
        ws[i].id = i;
        ws[i].c = s->c;
        ws[i].shared = s;
        ws[i].rng = rng_seed(s->c->seed, i + 1);
        ws[i].base = total * (uint64_t)i / (uint64_t)n;
        ws[i].budget = total * (uint64_t)(i + 1) / (uint64_t)n - ws[i].base;
        ws[i].time_ops = 1;
    }
}

static long reads_of(const struct config *c) { return c->reads >= 0 ? c->reads : c->num; }

static void run_phase(struct report *r, struct dbb *s, struct worker *ws, int n, uint64_t total, op_fn op,
                      void (*setup)(struct worker *)) {
    phase_begin(s->c, r, total, 0);
    r->seconds = run_workers(ws, n, op, setup);
    phase_end(r);
    report_workers(r, ws, n);
}

static struct worker *workers(int n) {
    struct worker *ws = calloc((size_t)n, sizeof *ws);
    if (ws == NULL) abort();
    return ws;
}

/* ---- writes ---- */

static int put_key(struct worker *w, uint64_t k) {
    struct dbb *s = w->shared;
    char key[KEY_MAX];
    key_decimal(key, k, s->c->key_size);
    const char *val = values_get(&s->v, rng_next(&w->rng), (size_t)s->c->value_size);
    char *err = NULL;
    E.put(s->d.db, s->wo, key, (size_t)s->c->key_size, val, (size_t)s->c->value_size, &err);
    engine_check(err, "put");
    w->bytes += (uint64_t)(s->c->key_size + s->c->value_size);
    return 1;
}

static int op_fillseq(struct worker *w) { return put_key(w, w->base + w->ops); }
static int op_fillrandom(struct worker *w) {
    struct dbb *s = w->shared;
    return put_key(w, s->perm[w->base + w->ops]);
}
static int op_overwrite(struct worker *w) {
    struct dbb *s = w->shared;
    return put_key(w, rng_below(&w->rng, (uint64_t)s->c->num));
}

static void fill(const struct config *c, struct report *r, const char *dir, int random) {
    struct dbb s;
    dbb_open(&s, c, dir);
    if (random) s.perm = permutation((uint64_t)c->num, c->seed);
    struct worker *ws = workers(c->threads);
    split(ws, c->threads, &s, (uint64_t)c->num);
    run_phase(r, &s, ws, c->threads, (uint64_t)c->num, random ? op_fillrandom : op_fillseq, NULL);
    dbb_close(&s, r, 1);
    free(ws);
}

void w_fillseq(const struct config *c, struct report *r, const char *dir) { fill(c, r, dir, 0); }
void w_fillrandom(const struct config *c, struct report *r, const char *dir) { fill(c, r, dir, 1); }

void w_overwrite(const struct config *c, struct report *r, const char *dir) {
    struct dbb s;
    dbb_open(&s, c, dir);
    struct worker *ws = workers(c->threads);
    split(ws, c->threads, &s, (uint64_t)c->num);
    run_phase(r, &s, ws, c->threads, (uint64_t)c->num, op_overwrite, NULL);
    dbb_close(&s, r, 1);
    free(ws);
}

static int op_delete(struct worker *w) {
    struct dbb *s = w->shared;
    char key[KEY_MAX];
    key_decimal(key, rng_below(&w->rng, (uint64_t)s->c->num), s->c->key_size);
    char *err = NULL;
    E.delete(s->d.db, s->wo, key, (size_t)s->c->key_size, &err);
    engine_check(err, "delete");
    w->bytes += (uint64_t)s->c->key_size;
    return 1;
}

void w_deleterandom(const struct config *c, struct report *r, const char *dir) {
    struct dbb s;
    dbb_open(&s, c, dir);
    uint64_t n = (uint64_t)(c->deletes >= 0 ? c->deletes : c->num / 2);
    struct worker *ws = workers(c->threads);
    split(ws, c->threads, &s, n);
    run_phase(r, &s, ws, c->threads, n, op_delete, NULL);
    dbb_close(&s, r, 1);
    free(ws);
}

/* ---- point reads ---- */

static int get_key(struct worker *w, const char *key) {
    struct dbb *s = w->shared;
    size_t vlen = 0;
    char *err = NULL;
    char *v = E.get(s->d.db, s->ro, key, (size_t)s->c->key_size, &vlen, &err);
    engine_check(err, "get");
    if (v != NULL) {
        if (vlen == (size_t)s->c->value_size) w->found++;
        E.free(v);
    }
    return 1;
}

static int op_readrandom(struct worker *w) {
    struct dbb *s = w->shared;
    char key[KEY_MAX];
    key_decimal(key, rng_below(&w->rng, (uint64_t)s->c->num), s->c->key_size);
    int n = get_key(w, key);
    if (s->nreaders && w->ops + 1 >= w->budget) atomic_fetch_add(&s->readers_done, 1);
    return n;
}

static int op_readmissing(struct worker *w) {
    struct dbb *s = w->shared;
    char key[KEY_MAX];
    key_decimal(key, rng_below(&w->rng, (uint64_t)s->c->num), s->c->key_size);
    key[s->c->key_size - 1] = 'x';
    return get_key(w, key);
}

static void point_reads(const struct config *c, struct report *r, const char *dir, int missing) {
    struct dbb s;
    dbb_open(&s, c, dir);
    uint64_t n = (uint64_t)reads_of(c);
    struct worker *ws = workers(c->threads);
    split(ws, c->threads, &s, n);
    run_phase(r, &s, ws, c->threads, n, missing ? op_readmissing : op_readrandom, NULL);
    r->expected_found = missing ? 0 : r->ops;
    if (r->found != r->expected_found)
        snprintf(r->error, sizeof r->error, "found %llu of %llu keys (expected %llu)", (unsigned long long)r->found,
                 (unsigned long long)r->ops, (unsigned long long)r->expected_found);
    dbb_close(&s, r, 0);
    free(ws);
}

void w_readrandom(const struct config *c, struct report *r, const char *dir) { point_reads(c, r, dir, 0); }
void w_readmissing(const struct config *c, struct report *r, const char *dir) { point_reads(c, r, dir, 1); }

static int op_multiget(struct worker *w) {
    struct dbb *s = w->shared;
    int n = s->c->multiget;
    char keys[256][KEY_MAX];
    const char *kp[256] = {0};
    size_t kl[256] = {0}, vl[256];
    char *vals[256], *errs[256];
    if (n > 256) n = 256;
    if (n < 1) n = 1;
    for (int i = 0; i < n; i++) {
        key_decimal(keys[i], rng_below(&w->rng, (uint64_t)s->c->num), s->c->key_size);
        kp[i] = keys[i];
        kl[i] = (size_t)s->c->key_size;
    }
    if (s->c->batched) {
        rocksdb_pinnableslice_t *pins[256];
        E.batched_multi_get_cf(s->d.db, s->ro, s->d.cf[0], (size_t)n, kp, kl, pins, errs, 0);
        for (int i = 0; i < n; i++) {
            engine_check(errs[i], "batched_multi_get_cf");
            if (pins[i] != NULL) {
                size_t len = 0;
                if (E.pinnableslice_value(pins[i], &len) != NULL && len == (size_t)s->c->value_size) w->found++;
                E.pinnableslice_destroy(pins[i]);
            }
        }
        return n;
    }
    E.multi_get(s->d.db, s->ro, (size_t)n, kp, kl, vals, vl, errs);
    for (int i = 0; i < n; i++) {
        engine_check(errs[i], "multi_get");
        if (vals[i] != NULL) {
            if (vl[i] == (size_t)s->c->value_size) w->found++;
            E.free(vals[i]);
        }
    }
    return n;
}

void w_multireadrandom(const struct config *c, struct report *r, const char *dir) {
    struct dbb s;
    dbb_open(&s, c, dir);
    uint64_t n = (uint64_t)reads_of(c);
    struct worker *ws = workers(c->threads);
    split(ws, c->threads, &s, n);
    run_phase(r, &s, ws, c->threads, n, op_multiget, NULL);
    r->lat_unit = "call";
    r->expected_found = r->ops;
    report_extra(r, "keys_per_call", c->multiget);
    report_extra(r, "batched", c->batched);
    if (r->found != r->expected_found)
        snprintf(r->error, sizeof r->error, "found %llu of %llu keys", (unsigned long long)r->found,
                 (unsigned long long)r->ops);
    dbb_close(&s, r, 0);
    free(ws);
}

/* ---- iterators ---- */

static void iter_setup(struct worker *w) {
    struct dbb *s = w->shared;
    w->local = E.create_iterator(s->d.db, s->ro);
}

static void iter_teardown(struct worker *ws, int n) {
    for (int i = 0; i < n; i++) {
        rocksdb_iterator_t *it = ws[i].local;
        char *err = NULL;
        E.iter_get_error(it, &err);
        engine_check(err, "iterator");
        E.iter_destroy(it);
    }
}

static int touch_entry(struct worker *w, rocksdb_iterator_t *it) {
    size_t kl = 0, vl = 0;
    const char *k = E.iter_key(it, &kl);
    const char *v = E.iter_value(it, &vl);
    w->aux += (uint64_t)(unsigned char)k[0] + (vl ? (uint64_t)(unsigned char)v[0] : 0);
    if (vl == (size_t)w->c->value_size) w->found++;
    return 1;
}

static int op_readseq(struct worker *w) {
    rocksdb_iterator_t *it = w->local;
    if (w->ops == 0) E.iter_seek_to_first(it);
    else E.iter_next(it);
    if (!E.iter_valid(it)) return 0;
    return touch_entry(w, it);
}

static int op_readreverse(struct worker *w) {
    rocksdb_iterator_t *it = w->local;
    if (w->ops == 0) E.iter_seek_to_last(it);
    else E.iter_prev(it);
    if (!E.iter_valid(it)) return 0;
    return touch_entry(w, it);
}

static void scan(const struct config *c, struct report *r, const char *dir, int reverse) {
    struct dbb s;
    dbb_open(&s, c, dir);
    uint64_t n = (uint64_t)reads_of(c);
    if (n > (uint64_t)c->num) n = (uint64_t)c->num;
    struct worker *ws = workers(c->threads);
    split(ws, c->threads, &s, n);
    for (int i = 0; i < c->threads; i++) ws[i].budget = n; /* each thread scans like db_bench */
    run_phase(r, &s, ws, c->threads, n * (uint64_t)c->threads, reverse ? op_readreverse : op_readseq,
              iter_setup);
    iter_teardown(ws, c->threads);
    r->expected_found = r->ops;
    if (r->ops < n * (uint64_t)c->threads)
        snprintf(r->error, sizeof r->error, "iterator ended after %llu of %llu entries", (unsigned long long)r->ops,
                 (unsigned long long)(n * (uint64_t)c->threads));
    dbb_close(&s, r, 0);
    free(ws);
}

void w_readseq(const struct config *c, struct report *r, const char *dir) { scan(c, r, dir, 0); }
void w_readreverse(const struct config *c, struct report *r, const char *dir) { scan(c, r, dir, 1); }

static int op_seekrandom(struct worker *w) {
    struct dbb *s = w->shared;
    rocksdb_iterator_t *it = w->local;
    char key[KEY_MAX];
    uint64_t k = rng_below(&w->rng, (uint64_t)s->c->num);
    key_decimal(key, k, s->c->key_size);
    E.iter_seek(it, key, (size_t)s->c->key_size);
    if (E.iter_valid(it)) {
        size_t kl = 0;
        const char *got = E.iter_key(it, &kl);
        if (kl == (size_t)s->c->key_size && memcmp(got, key, kl) == 0) w->found++;
    }
    for (int i = 0; i < s->c->seek_nexts && E.iter_valid(it); i++) {
        size_t vl = 0;
        const char *v = E.iter_value(it, &vl);
        w->aux += vl ? (uint64_t)(unsigned char)v[0] : 0;
        E.iter_next(it);
    }
    return 1;
}

void w_seekrandom(const struct config *c, struct report *r, const char *dir) {
    struct dbb s;
    dbb_open(&s, c, dir);
    uint64_t n = (uint64_t)(c->seeks >= 0 ? c->seeks : c->num / 10);
    struct worker *ws = workers(c->threads);
    split(ws, c->threads, &s, n);
    run_phase(r, &s, ws, c->threads, n, op_seekrandom, iter_setup);
    iter_teardown(ws, c->threads);
    r->expected_found = r->ops;
    report_extra(r, "nexts_per_seek", c->seek_nexts);
    if (r->found != r->expected_found)
        snprintf(r->error, sizeof r->error, "seek found %llu of %llu keys", (unsigned long long)r->found,
                 (unsigned long long)r->ops);
    dbb_close(&s, r, 0);
    free(ws);
}

/* ---- readwhilewriting: `threads` readers doing readrandom, one writer overwriting ---- */

static int op_rww(struct worker *w) {
    struct dbb *s = w->shared;
    if (w->id < s->nreaders) return op_readrandom(w);
    if (atomic_load(&s->readers_done) >= s->nreaders) return 0;
    return op_overwrite(w);
}

void w_readwhilewriting(const struct config *c, struct report *r, const char *dir) {
    struct dbb s;
    dbb_open(&s, c, dir);
    uint64_t n = (uint64_t)reads_of(c);
    int nr = c->threads;
    s.nreaders = nr;
    struct worker *ws = workers(nr + 1);
    split(ws, nr, &s, n);
    memset(&ws[nr], 0, sizeof ws[nr]);
    ws[nr].id = nr;
    ws[nr].c = c;
    ws[nr].shared = &s;
    ws[nr].rng = rng_seed(c->seed, 99);
    ws[nr].time_ops = 1;
    ws[nr].no_progress = 1;
    phase_begin(c, r, n, 0);
    r->seconds = run_workers(ws, nr + 1, op_rww, NULL);
    phase_end(r);
    report_workers(r, ws, nr);
    r->user_bytes = ws[nr].bytes;
    r->expected_found = r->ops;
    report_extra(r, "writer_ops_per_s", (double)ws[nr].ops / r->seconds);
    report_extra(r, "writer_p99_us", (double)hist_quantile(&ws[nr].lat, 0.99) / 1e3);
    if (r->found != r->expected_found)
        snprintf(r->error, sizeof r->error, "found %llu of %llu keys", (unsigned long long)r->found,
                 (unsigned long long)r->ops);
    dbb_close(&s, r, 1);
    free(ws);
}
