/* SPDX-License-Identifier: Apache-2.0
 * Durable commits against the disk's own limit.
 *
 * `disk`: the disk alone: append 100 B to a file and fdatasync it, again and again, for
 * `disk_seconds`; syncs/s = count / elapsed. One synced writer cannot commit faster than that;
 * T writers sharing every fdatasync (group commit) can reach T times that. A second thread
 * spins while the probe runs: on a loaded machine a process whose only thread sleeps in
 * fdatasync is woken up to a scheduler tick (4 ms here) after the disk has answered, so a lone
 * probe measures the scheduler, not the disk (the engines always have threads running). The
 * lone-thread figure is reported too (`lone_syncs_per_s`).
 *
 * `fillsync`: `threads` writers, each putting its own keys (16 B keys, `value_size` values)
 * with sync=1, for `duration` seconds, on a fresh DB. The workload probes the disk itself for
 * one second before opening the DB and for one second after closing it, so that every result
 * carries the bound measured next to it (the mean of the two rates; the disk of a shared
 * machine varies from second to second): bound = disk syncs/s x threads (one fdatasync per
 * group of `threads` commits). The driver also
 * counts the engine's fdatasync/fsync calls, so the achieved group size (commits per sync) is
 * reported too.
 *
 * The probe appends, so each of its fdatasyncs also writes the file's new size. An engine
 * whose log overwrites blocks written ahead (solistore's WAL, once synced) has cheaper syncs;
 * `disk` and `fillsync` therefore also probe that kind (`in_place_syncs_per_s`: zeros
 * written 1 MiB ahead, a page per write, then the same appends over them), and fillsync
 * reports its rate against both (`of_bound`, `of_in_place_bound`). */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workload.h"

static atomic_int g_spin_stop;
static void *spinner(void *arg) {
    (void)arg;
    while (!atomic_load_explicit(&g_spin_stop, memory_order_relaxed)) {
    }
    return NULL;
}

/* Appends and fdatasyncs a small record to `dir`/disk-probe for `seconds`; fills h. With
 * `spin`, a second thread keeps a CPU busy meanwhile (see the header). */
static double probe_disk_once(const char *dir, double seconds, struct hist *h, uint64_t *count,
                              int in_place);
static double probe_disk_kind(const char *dir, double seconds, struct hist *h, uint64_t *count,
                              int spin, int in_place) {
    pthread_t t;
    atomic_store(&g_spin_stop, 0); /* before the spinner starts: a stop left set would end it */
    int spinning = spin && pthread_create(&t, NULL, spinner, NULL) == 0;
    double secs = probe_disk_once(dir, seconds, h, count, in_place);
    if (spinning) {
        atomic_store(&g_spin_stop, 1);
        pthread_join(t, NULL);
    }
    return secs;
}

static double probe_disk(const char *dir, double seconds, struct hist *h, uint64_t *count, int spin) {
    return probe_disk_kind(dir, seconds, h, count, spin, 0);
}

/* Syncs/s of the in-place kind (see the header), with a spinner. */
static double probe_in_place(const char *dir, double seconds) {
    struct hist h;
    memset(&h, 0, sizeof h);
    uint64_t n = 0;
    double secs = probe_disk_kind(dir, seconds, &h, &n, 1, 1);
    return secs > 0 ? (double)n / secs : 0;
}

static double probe_disk_once(const char *dir, double seconds, struct hist *h, uint64_t *count,
                              int in_place) {
    char path[1200];
    snprintf(path, sizeof path, "%s/disk-probe", dir);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | (in_place ? 0 : O_APPEND), 0644);
    if (fd < 0) {
        perror(path);
        exit(2);
    }
    char rec[100];
    memset(rec, 'd', sizeof rec);
    static const char zeros[4096];
    off_t end = 0, zeroed = 0;
    uint64_t t0 = now_ns(), deadline = t0 + (uint64_t)(seconds * 1e9), n = 0, t = t0;
    while (t < deadline && n < 200000) {
        if (in_place && zeroed < end + (off_t)sizeof rec) {
            for (off_t target = end + (1 << 20); zeroed < target; zeroed += (off_t)sizeof zeros) {
                if (pwrite(fd, zeros, sizeof zeros, zeroed) != (ssize_t)sizeof zeros) {
                    perror("pwrite");
                    exit(2);
                }
            }
        }
        end += (off_t)sizeof rec;
        if (write(fd, rec, sizeof rec) != (ssize_t)sizeof rec) {
            perror("write");
            exit(2);
        }
        if (fdatasync(fd) != 0) {
            perror("fdatasync");
            exit(2);
        }
        uint64_t t2 = now_ns();
        hist_add(h, t2 - t);
        t = t2;
        n++;
    }
    close(fd);
    unlink(path);
    *count = n;
    return (double)(t - t0) / 1e9;
}

void w_disk(const struct config *c, struct report *r, const char *dir) {
    struct hist lone;
    memset(&lone, 0, sizeof lone);
    uint64_t n = 0;
    double secs = probe_disk(dir, c->disk_seconds / 2, &lone, &n, 0);
    phase_begin(c, r, 0, c->disk_seconds);
    r->seconds = probe_disk(dir, c->disk_seconds, &r->lat, &r->ops, 1);
    phase_end(r);
    r->unit = "sync";
    report_extra(r, "append_bytes", 100);
    report_extra(r, "lone_syncs_per_s", secs > 0 ? (double)n / secs : 0);
    report_extra(r, "lone_sync_p50_us", (double)hist_quantile(&lone, 0.5) / 1e3);
    report_extra(r, "in_place_syncs_per_s", probe_in_place(dir, c->disk_seconds / 2));
}

struct fsync_state {
    struct db d;
    rocksdb_writeoptions_t *wo;
    struct values v;
};

static int op_fillsync(struct worker *w) {
    struct fsync_state *s = w->shared;
    char key[16];
    key_decimal(key, w->base + w->ops, 16);
    const char *val = values_get(&s->v, rng_next(&w->rng), (size_t)w->c->value_size);
    char *err = NULL;
    E.put(s->d.db, s->wo, key, 16, val, (size_t)w->c->value_size, &err);
    engine_check(err, "put (sync)");
    w->bytes += 16 + (uint64_t)w->c->value_size;
    return 1;
}

void w_fillsync(const struct config *c, struct report *r, const char *dir) {
    struct hist h;
    memset(&h, 0, sizeof h);
    uint64_t n_before = 0, n_after = 0;
    double probe_s = c->disk_seconds < 1 ? c->disk_seconds : 1;
    double secs = probe_disk(dir, probe_s, &h, &n_before, 1);
    double rate_before = secs > 0 ? (double)n_before / secs : 0;

    struct fsync_state s;
    memset(&s, 0, sizeof s);
    struct db_options o;
    dbbench_options(c, &o);
    db_open(&s.d, dir, &o);
    s.wo = E.writeoptions_create();
    E.writeoptions_set_sync(s.wo, 1);
    values_init(&s.v, c->seed);
    int t = c->threads;
    struct worker *ws = calloc((size_t)t, sizeof *ws);
    if (ws == NULL) abort();
    for (int i = 0; i < t; i++) {
        ws[i].id = i;
        ws[i].c = c;
        ws[i].shared = &s;
        ws[i].rng = rng_seed(c->seed, i + 1);
        ws[i].base = (uint64_t)i * 100000000ull;
        ws[i].time_ops = 1;
    }
    phase_begin(c, r, 0, c->duration);
    unsigned long fd0 = atomic_load(&g_fdatasyncs), fs0 = atomic_load(&g_fsyncs);
    uint64_t deadline = now_ns() + (uint64_t)(c->duration * 1e9);
    for (int i = 0; i < t; i++) {
        ws[i].deadline = deadline;
        ws[i].budget = c->max_ops > 0 ? (uint64_t)c->max_ops / (uint64_t)t : 0;
    }
    sync_trace_begin();
    r->seconds = run_workers(ws, t, op_fillsync, NULL);
    sync_trace_report(r);
    unsigned long syncs = (atomic_load(&g_fdatasyncs) - fd0) + (atomic_load(&g_fsyncs) - fs0);
    phase_end(r);
    report_workers(r, ws, t);
    r->unit = "commit";
    E.writeoptions_destroy(s.wo);
    db_close(&s.d);
    secs = probe_disk(dir, probe_s, &h, &n_after, 1);
    double rate_after = secs > 0 ? (double)n_after / secs : 0;
    double in_place = probe_in_place(dir, probe_s);
    double disk_rate = (rate_before + rate_after) / 2;
    double rate = (double)r->ops / r->seconds;
    report_extra(r, "disk_syncs_per_s", disk_rate);
    report_extra(r, "disk_syncs_per_s_before", rate_before);
    report_extra(r, "disk_syncs_per_s_after", rate_after);
    report_extra(r, "disk_sync_p50_us", (double)hist_quantile(&h, 0.5) / 1e3);
    report_extra(r, "bound_commits_per_s", disk_rate * t);
    report_extra(r, "of_bound", disk_rate > 0 ? rate / (disk_rate * t) : 0);
    report_extra(r, "in_place_syncs_per_s", in_place);
    report_extra(r, "of_in_place_bound", in_place > 0 ? rate / (in_place * t) : 0);
    report_extra(r, "engine_syncs", (double)syncs);
    report_extra(r, "commits_per_sync", syncs ? (double)r->ops / (double)syncs : 0);
    free(s.v.buf);
    free(ws);
}
