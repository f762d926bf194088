/* SPDX-License-Identifier: Apache-2.0
 * Kommander's Raft WAL on the engine, as its RocksDbWAL drives it (hosts-dotnet-calls.md):
 * column families `default, metadata, shard0..shard7`, DB options create_if_missing,
 * create_missing_column_families, allow_concurrent_memtable_write=1, wal_recovery_mode=1,
 * engine defaults otherwise; log keys `PPPPPPPPPP:IIIIIIIIIIIIIIIIIIII` (partition, id) in
 * `shard<partition % 8>`; `wal_value`-byte entries (1 KiB).
 *
 * `writers` threads each own one partition and write for `duration` seconds, synced
 * (`sync=1`) or not, and the DB settles (flush, wait for compactions) before its close:
 *   wal_append   one entry per write (put_cf, Kommander's single-entry fast path);
 *   wal_commit   the entry, then its commit marker: the entry rewritten as committed, never
 *                synced (Kommander's lazy markers, made durable by the next synced write);
 *   wal_batch64  64 entries per write batch;
 *   wal_mixed    append + commit; every `checkpoint_every` entries a checkpoint (the entry and
 *                the partition's last-checkpoint id in `metadata`, one batch) and a compaction
 *                (iterate the partition from the last compacted id, delete every entry below the
 *                checkpoint in one batch); beside them `readers` threads read the last 64 entries
 *                of a random partition (Seek(partition + ';'), Prev or SeekToLast, then Prev).
 * Throughput counts log entries; latency is per write call (per batch for wal_batch64, per
 * append + marker for wal_commit and wal_mixed). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

#define SHARDS 8
#define KEY_LEN 31 /* 10 + ':' + 20 */

static const char *const CF_NAMES[] = {"default", "metadata", "shard0", "shard1", "shard2",
                                       "shard3",  "shard4",   "shard5", "shard6", "shard7"};
#define CF_METADATA 1
#define CF_SHARD0 2

enum shape { APPEND, COMMIT, BATCH64, MIXED };

struct wal {
    const struct config *c;
    enum shape shape;
    struct db d;
    rocksdb_writeoptions_t *wo;     /* the workload's sync setting */
    rocksdb_writeoptions_t *nosync; /* commit markers */
    rocksdb_readoptions_t *ro;
    struct values v;
    int writers;
    atomic_int writers_done; /* writers that used up their op budget (max_ops) */
    unsigned long checkpoints, compacted;
    atomic_ulong entries_read;
};

struct partition {
    int id;
    uint64_t next_id, since_checkpoint, compacted_to;
    rocksdb_writebatch_t *batch;
};

static void log_key(char *k, int partition, uint64_t id) {
    key_decimal(k, (uint64_t)partition, 10);
    k[10] = ':';
    key_decimal(k + 11, id, 20);
}

static rocksdb_column_family_handle_t *shard(struct wal *s, int partition) {
    return s->d.cf[CF_SHARD0 + partition % SHARDS];
}

static void put_entry(struct wal *s, struct worker *w, struct partition *p, uint64_t id,
                      const rocksdb_writeoptions_t *wo) {
    char k[KEY_LEN];
    log_key(k, p->id, id);
    const char *val = values_get(&s->v, rng_next(&w->rng), (size_t)s->c->wal_value);
    char *err = NULL;
    E.put_cf(s->d.db, wo, shard(s, p->id), k, KEY_LEN, val, (size_t)s->c->wal_value, &err);
    engine_check(err, "put_cf (log entry)");
    w->bytes += KEY_LEN + (uint64_t)s->c->wal_value;
}

/* Checkpoint at the partition's latest id, then delete everything below it. */
static void checkpoint_and_compact(struct wal *s, struct worker *w, struct partition *p) {
    uint64_t cp = p->next_id - 1;
    char k[KEY_LEN], meta[64];
    char *err = NULL;
    rocksdb_writebatch_t *b = p->batch;
    E.writebatch_clear(b);
    log_key(k, p->id, cp);
    E.writebatch_put_cf(b, shard(s, p->id), k, KEY_LEN, values_get(&s->v, rng_next(&w->rng), (size_t)s->c->wal_value),
                        (size_t)s->c->wal_value);
    int ml = snprintf(meta, sizeof meta, "raft_last_checkpoint_p%d", p->id);
    char idv[20];
    key_decimal(idv, cp, 20);
    E.writebatch_put_cf(b, s->d.cf[CF_METADATA], meta, (size_t)ml, idv, sizeof idv);
    E.write(s->d.db, s->wo, b, &err);
    engine_check(err, "write (checkpoint)");
    w->bytes += 2 * KEY_LEN + (uint64_t)s->c->wal_value + sizeof idv;

    E.writebatch_clear(b);
    rocksdb_iterator_t *it = E.create_iterator_cf(s->d.db, s->ro, shard(s, p->id));
    log_key(k, p->id, p->compacted_to);
    E.iter_seek(it, k, KEY_LEN);
    uint64_t removed = 0;
    while (E.iter_valid(it)) {
        size_t kl = 0;
        const char *got = E.iter_key(it, &kl);
        if (kl != KEY_LEN || memcmp(got, k, 11) != 0) break; /* another partition */
        uint64_t id = 0;
        for (int i = 11; i < KEY_LEN; i++) id = id * 10 + (uint64_t)(got[i] - '0');
        if (id >= cp) break;
        E.writebatch_delete_cf(b, shard(s, p->id), got, kl);
        removed++;
        E.iter_next(it);
    }
    err = NULL;
    E.iter_get_error(it, &err);
    engine_check(err, "iterator (compaction)");
    E.iter_destroy(it);
    if (removed > 0) {
        E.write(s->d.db, s->wo, b, &err);
        engine_check(err, "write (compaction)");
        w->bytes += removed * KEY_LEN;
    }
    p->compacted_to = cp;
    w->aux += removed;
}

static int op_writer(struct worker *w) {
    struct wal *s = w->shared;
    struct partition *p = w->local;
    char *err = NULL;
    switch (s->shape) {
    case APPEND:
        put_entry(s, w, p, p->next_id++, s->wo);
        return 1;
    case COMMIT:
        put_entry(s, w, p, p->next_id, s->wo);
        put_entry(s, w, p, p->next_id++, s->nosync);
        return 1;
    case BATCH64: {
        E.writebatch_clear(p->batch);
        for (int i = 0; i < 64; i++) {
            char k[KEY_LEN];
            log_key(k, p->id, p->next_id++);
            E.writebatch_put_cf(p->batch, shard(s, p->id), k, KEY_LEN,
                                values_get(&s->v, rng_next(&w->rng), (size_t)s->c->wal_value),
                                (size_t)s->c->wal_value);
            w->bytes += KEY_LEN + (uint64_t)s->c->wal_value;
        }
        E.write(s->d.db, s->wo, p->batch, &err);
        engine_check(err, "write (batch of 64)");
        return 64;
    }
    case MIXED:
        put_entry(s, w, p, p->next_id, s->wo);
        put_entry(s, w, p, p->next_id++, s->nosync);
        if (++p->since_checkpoint >= (uint64_t)s->c->checkpoint_every) {
            p->since_checkpoint = 0;
            p->next_id++; /* the checkpoint entry's id */
            checkpoint_and_compact(s, w, p);
        }
        return 1;
    }
    return 0;
}

/* Reads the last 64 entries of a random partition, newest first. */
static int op_reader(struct worker *w) {
    struct wal *s = w->shared;
    int part = 1 + (int)rng_below(&w->rng, (uint64_t)s->writers);
    rocksdb_iterator_t *it = E.create_iterator_cf(s->d.db, s->ro, shard(s, part));
    char upper[11], prefix[11];
    key_decimal(upper, (uint64_t)part, 10);
    memcpy(prefix, upper, 10);
    upper[10] = ';';
    prefix[10] = ':';
    E.iter_seek(it, upper, sizeof upper);
    if (E.iter_valid(it)) E.iter_prev(it);
    else E.iter_seek_to_last(it);
    int n = 0;
    while (n < 64 && E.iter_valid(it)) {
        size_t kl = 0, vl = 0;
        const char *k = E.iter_key(it, &kl);
        if (kl < 11 || memcmp(k, prefix, 11) != 0) break;
        const char *v = E.iter_value(it, &vl);
        w->aux += vl ? (uint64_t)(unsigned char)v[0] : 0;
        n++;
        E.iter_prev(it);
    }
    char *err = NULL;
    E.iter_get_error(it, &err);
    engine_check(err, "iterator (reader)");
    E.iter_destroy(it);
    w->found += (uint64_t)n;
    return 1;
}

/* With an op budget (max_ops: the same work for both engines, see compare.py), the readers
 * stop once every writer has used its budget up, so that the run ends with the writes. */
static int op_any(struct worker *w) {
    struct wal *s = w->shared;
    if (w->id < s->writers) {
        int n = op_writer(w);
        if (n > 0 && w->budget && w->ops + (uint64_t)n >= w->budget) atomic_fetch_add(&s->writers_done, 1);
        return n;
    }
    if (atomic_load(&s->writers_done) >= s->writers) return 0;
    return op_reader(w);
}

static void wal_run(const struct config *c, struct report *r, const char *dir, enum shape shape) {
    struct wal s;
    memset(&s, 0, sizeof s);
    s.c = c;
    s.shape = shape;
    s.writers = c->writers < 1 ? 1 : c->writers;
    struct db_options o;
    memset(&o, 0, sizeof o);
    o.data_block_hash = c->data_block_hash;
    o.compression = -1;
    o.kommander = 1;
    o.direct_reads = c->direct_reads;
    db_open_cfs(&s.d, dir, &o, 10, CF_NAMES);
    s.wo = E.writeoptions_create();
    E.writeoptions_set_sync(s.wo, (unsigned char)c->sync);
    s.nosync = E.writeoptions_create();
    s.ro = E.readoptions_create();
    values_init(&s.v, c->seed);

    int nr = shape == MIXED ? c->readers : 0, n = s.writers + nr;
    struct worker *ws = calloc((size_t)n, sizeof *ws);
    struct partition *parts = calloc((size_t)s.writers, sizeof *parts);
    if (ws == NULL || parts == NULL) abort();
    for (int i = 0; i < n; i++) {
        ws[i].id = i;
        ws[i].c = c;
        ws[i].shared = &s;
        ws[i].rng = rng_seed(c->seed, i + 1);
        ws[i].time_ops = 1;
        ws[i].no_progress = i >= s.writers;
        if (i < s.writers) {
            parts[i].id = i + 1;
            parts[i].next_id = 1;
            parts[i].batch = E.writebatch_create();
            ws[i].local = &parts[i];
        }
    }
    phase_begin(c, r, 0, c->duration);
    unsigned long fd0 = atomic_load(&g_fdatasyncs) + atomic_load(&g_fsyncs);
    uint64_t deadline = now_ns() + (uint64_t)(c->duration * 1e9);
    for (int i = 0; i < n; i++) {
        ws[i].deadline = deadline;
        if (i < s.writers && c->max_ops > 0) ws[i].budget = (uint64_t)c->max_ops / (uint64_t)s.writers;
    }
    if (c->sync) sync_trace_begin();
    r->seconds = run_workers(ws, n, op_any, NULL);
    if (c->sync) sync_trace_report(r);
    unsigned long syncs = atomic_load(&g_fdatasyncs) + atomic_load(&g_fsyncs) - fd0;
    phase_end(r);
    report_workers(r, ws, s.writers);
    r->unit = "entry";
    r->lat_unit = shape == BATCH64 ? "batch" : "write";
    if (c->sync) {
        report_extra(r, "engine_syncs", (double)syncs);
        report_extra(r, "entries_per_sync", syncs ? (double)r->ops / (double)syncs : 0);
    }
    if (shape == MIXED) {
        uint64_t removed = 0;
        for (int i = 0; i < s.writers; i++) removed += ws[i].aux;
        report_extra(r, "entries_compacted", (double)removed);
        if (nr > 0) {
            struct hist rh;
            memset(&rh, 0, sizeof rh);
            uint64_t reads = 0, got = 0;
            for (int i = s.writers; i < n; i++) {
                hist_merge(&rh, &ws[i].lat);
                reads += ws[i].ops;
                got += ws[i].found;
            }
            report_extra(r, "reader_reads_per_s", (double)reads / r->seconds);
            report_extra(r, "reader_entries_per_read", reads ? (double)got / (double)reads : 0);
            report_extra(r, "reader_p99_us", (double)hist_quantile(&rh, 0.99) / 1e3);
        }
    }
    /* The flushes and compactions these writes made are part of their bytes written, whichever
     * engine would have left more of them for later (see bench/README.md). */
    r->settle_s = db_settle(&s.d, 120);
    for (int i = 0; i < s.writers; i++) E.writebatch_destroy(parts[i].batch);
    E.writeoptions_destroy(s.wo);
    E.writeoptions_destroy(s.nosync);
    E.readoptions_destroy(s.ro);
    db_close(&s.d);
    free(s.v.buf);
    free(ws);
    free(parts);
}

void w_wal_append(const struct config *c, struct report *r, const char *dir) { wal_run(c, r, dir, APPEND); }
void w_wal_commit(const struct config *c, struct report *r, const char *dir) { wal_run(c, r, dir, COMMIT); }
void w_wal_batch64(const struct config *c, struct report *r, const char *dir) { wal_run(c, r, dir, BATCH64); }
void w_wal_mixed(const struct config *c, struct report *r, const char *dir) { wal_run(c, r, dir, MIXED); }
