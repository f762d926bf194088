/* SPDX-License-Identifier: Apache-2.0
 * Keys, values, random numbers, the thread runner and the phase bracket shared by workloads. */
#include "workload.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void key_decimal(char *out, uint64_t i, int width) {
    for (int p = width - 1; p >= 0; p--) {
        out[p] = (char)('0' + i % 10);
        i /= 10;
    }
}

#define VALUES_POOL (1u << 20)
#define VALUES_MAX (64u << 10)

uint64_t rng_seed(unsigned long seed, int stream) {
    uint64_t s = (uint64_t)seed * 0x9E3779B97F4A7C15ull + (uint64_t)(stream + 1) * 0xBF58476D1CE4E5B9ull;
    return s ? s : 1;
}

void values_init(struct values *v, unsigned long seed) {
    v->len = VALUES_POOL + VALUES_MAX;
    v->buf = malloc(v->len);
    if (v->buf == NULL) abort();
    uint64_t s = rng_seed(seed, 1000);
    for (size_t off = 0; off < v->len; off += 100) {
        size_t run = v->len - off < 100 ? v->len - off : 100;
        size_t half = (run + 1) / 2;
        for (size_t i = 0; i < half; i++) v->buf[off + i] = (char)(' ' + rng_below(&s, 95));
        for (size_t i = half; i < run; i++) v->buf[off + i] = v->buf[off + i - half];
    }
}

const char *values_get(const struct values *v, uint64_t r, size_t size) {
    (void)size;
    return v->buf + r % VALUES_POOL;
}

uint32_t *permutation(uint64_t n, unsigned long seed) {
    uint32_t *p = malloc((n ? n : 1) * sizeof *p);
    if (p == NULL) abort();
    for (uint64_t i = 0; i < n; i++) p[i] = (uint32_t)i;
    uint64_t s = rng_seed(seed, 2000);
    for (uint64_t i = n; i > 1; i--) {
        uint64_t j = rng_below(&s, i);
        uint32_t t = p[i - 1];
        p[i - 1] = p[j];
        p[j] = t;
    }
    return p;
}

/* ---- thread runner ---- */

struct runner {
    pthread_barrier_t start;
    op_fn op;
    void (*setup)(struct worker *);
};

struct thread_arg {
    struct runner *run;
    struct worker *w;
};

static void *worker_main(void *p) {
    struct thread_arg *a = p;
    struct worker *w = a->w;
    if (a->run->setup) a->run->setup(w);
    pthread_barrier_wait(&a->run->start);
    op_fn op = a->run->op;
    uint64_t t = now_ns();
    w->t_start = t;
    for (;;) {
        if (w->budget && w->ops >= w->budget) break;
        /* At least one op even when starting the threads took longer than the duration. */
        if (w->deadline && t >= w->deadline && w->ops > 0) break;
        int n = op(w);
        uint64_t t2 = now_ns();
        if (n <= 0) break;
        if (w->time_ops) hist_add(&w->lat, t2 - t);
        w->ops += (uint64_t)n;
        if (!w->no_progress) atomic_fetch_add_explicit(&g_progress_done, (unsigned long)n, memory_order_relaxed);
        t = t2;
    }
    w->t_end = t;
    return NULL;
}

double run_workers(struct worker *ws, int n, op_fn op, void (*setup)(struct worker *)) {
    struct runner run = {.op = op, .setup = setup};
    pthread_barrier_init(&run.start, NULL, (unsigned)n + 1);
    pthread_t *th = calloc((size_t)n, sizeof *th);
    struct thread_arg *args = calloc((size_t)n, sizeof *args);
    if (th == NULL || args == NULL) abort();
    for (int i = 0; i < n; i++) {
        args[i].run = &run;
        args[i].w = &ws[i];
        if (pthread_create(&th[i], NULL, worker_main, &args[i]) != 0) {
            perror("pthread_create");
            exit(2);
        }
    }
    pthread_barrier_wait(&run.start);
    for (int i = 0; i < n; i++) pthread_join(th[i], NULL);
    uint64_t t0 = UINT64_MAX, t1 = 0;
    for (int i = 0; i < n; i++) {
        if (ws[i].t_start < t0) t0 = ws[i].t_start;
        if (ws[i].t_end > t1) t1 = ws[i].t_end;
    }
    pthread_barrier_destroy(&run.start);
    free(th);
    free(args);
    return (double)(t1 - t0) / 1e9;
}

void phase_begin(const struct config *c, struct report *r, uint64_t total, double duration) {
    progress_start(c->label, r->spec, total, duration, c->progress_s);
    proc_sample(&r->phase_start);
}

void phase_end(struct report *r) {
    proc_sample(&r->phase_end);
    progress_stop();
}

void report_workers(struct report *r, struct worker *ws, int n) {
    for (int i = 0; i < n; i++) {
        hist_merge(&r->lat, &ws[i].lat);
        r->ops += ws[i].ops;
        r->found += ws[i].found;
        r->user_bytes += ws[i].bytes;
    }
}

void dbbench_options(const struct config *c, struct db_options *o) {
    memset(o, 0, sizeof *o);
    o->compression = c->compression;
    o->bloom_bits = c->bloom_bits;
    o->data_block_hash = c->data_block_hash;
    o->cache_bytes = (size_t)c->cache_mb << 20;
    o->write_buffer = (size_t)c->write_buffer_mb << 20;
    o->max_write_buffers = c->max_write_buffer_number;
    o->parallelism = 2;
    o->direct_reads = c->direct_reads;
}
