/* SPDX-License-Identifier: Apache-2.0
 * What every workload shares: the flags (struct config), the workload table, key and value
 * generation, a per-thread random generator and a thread runner that times each op.
 *
 * A workload runs in its own child process (see main.c): it opens the DB, runs its measured
 * phase between report.phase_start and report.phase_end, closes the DB and fills the report. */
#ifndef BENCH_WORKLOAD_H
#define BENCH_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "measure.h"

struct config {
    const char *engine_path;
    char label[64];
    char db_root[1024];
    const char *json_path;
    /* db_bench's flags */
    long num;          /* keys in the db_bench DB */
    long reads;        /* ops of read workloads (-1: num) */
    long seeks;        /* seekrandom ops (-1: num / 10) */
    long deletes;      /* deleterandom ops (-1: num / 2) */
    int key_size;
    int value_size;
    int threads;
    int compression;   /* COMPRESSION_* */
    char compression_name[16];
    int bloom_bits;
    int data_block_hash; /* -1: engine default; 0/1: rocksdb_block_based_options_set_data_block_index_type */
    long cache_mb;
    long write_buffer_mb;
    int max_write_buffer_number; /* 0: the engine's default (2) */
    int multiget;      /* keys per multi_get call */
    int batched;       /* multireadrandom through rocksdb_batched_multi_get_cf (pinned values) */
    int seek_nexts;    /* next() calls after each seek */
    /* time-bounded workloads (WAL shapes, synced writes, Kahuna's batches) */
    double duration;
    long max_ops;      /* cap for time-bounded workloads */
    /* Kommander */
    int writers;
    int readers;
    int sync;
    int wal_value;
    int checkpoint_every;
    /* Kahuna */
    char dataset[16];  /* small | large | history */
    long kahuna_small_keys, kahuna_large_keys, kahuna_history_keys;
    int kahuna_versions;
    long kahuna_reads;
    int kahuna_checkpoints;
    int direct_reads;
    int batch;         /* keys per batch (Kahuna batch workloads) */
    int settle_before; /* 1: flush and wait for compactions after the open, before the phase */
    int warm;          /* 1: iterate the whole DB once after the open (fills the block cache) */
    /* the disk probe */
    double disk_seconds;
    /* output */
    int progress_s;
    unsigned long seed;
    int verbose;
};

/* Parses one `--name=value` (or `name=value`) flag into c. Returns 0, or -1 if unknown/bad. */
int config_set(struct config *c, const char *flag);
void config_defaults(struct config *c);
/* The flags as a JSON object (malloc'ed). */
char *config_json(const struct config *c);

/* A workload: fills r; the DB directory is c->db_root/<subdir>. */
struct workload {
    const char *name;
    const char *subdir;  /* DB directory under db_root ("" for none) */
    int fresh;           /* 1: the directory is removed before the workload runs */
    void (*run)(const struct config *c, struct report *r, const char *dir);
    const char *help;
};
extern const struct workload WORKLOADS[];
const struct workload *workload_find(const char *name);

/* ---- keys and values ---- */

/* key `i` as a zero-padded decimal of exactly `width` bytes (no NUL written). */
void key_decimal(char *out, uint64_t i, int width);

/* A pool of value bytes like db_bench's: each run of 100 bytes is half random, half a copy of
 * that half, so that Snappy/LZ4 compress it to about 50%. */
struct values {
    char *buf;
    size_t len;
};
void values_init(struct values *v, unsigned long seed);
/* A value of `size` bytes (size <= 64 KiB) at a position chosen by `r`. */
const char *values_get(const struct values *v, uint64_t r, size_t size);

/* xorshift64* */
static inline uint64_t rng_next(uint64_t *s) {
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 2685821657736338717ull;
}
static inline uint64_t rng_below(uint64_t *s, uint64_t n) { return n ? rng_next(s) % n : 0; }
uint64_t rng_seed(unsigned long seed, int stream);

/* A random permutation of [0, n). */
uint32_t *permutation(uint64_t n, unsigned long seed);

/* ---- threads ---- */

/* One worker's state; `op` is called until it returns 0 or the budget is used up. */
struct worker {
    int id;
    const struct config *c;
    void *shared;
    uint64_t rng;
    uint64_t ops;        /* ops done */
    uint64_t budget;     /* ops to do (0: until the deadline) */
    uint64_t deadline;   /* now_ns() limit (0: none) */
    uint64_t found;
    uint64_t bytes;      /* key + value bytes written */
    uint64_t aux;        /* workload-specific count */
    uint64_t base;       /* workload-specific start (e.g. first key index) */
    void *local;         /* workload-specific per-thread state */
    struct hist lat;
    int time_ops;        /* 1: record per-op latency */
    int no_progress;     /* 1: not counted in the progress line (e.g. a background writer) */
    uint64_t t_start, t_end; /* set by run_workers: this worker's first and last instant */
};
typedef int (*op_fn)(struct worker *w);

/* Runs n workers (each calls `op` repeatedly, timing every call); returns the wall time of the
 * whole phase in seconds: from the first worker's start to the last worker's end. `setup` (may be NULL) runs in each thread before the start barrier. */
double run_workers(struct worker *ws, int n, op_fn op, void (*setup)(struct worker *));

/* The phase bracket every workload uses: samples counters and starts/stops the progress line. */
void phase_begin(const struct config *c, struct report *r, uint64_t total, double duration);
void phase_end(struct report *r);
/* Merges the workers' histograms and counters into r. */
void report_workers(struct report *r, struct worker *ws, int n);

/* Standard DB options from the flags (compression, bloom, cache, write buffer). */
void dbbench_options(const struct config *c, struct db_options *o);

#endif
