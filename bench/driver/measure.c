/* SPDX-License-Identifier: Apache-2.0
 * Clock, histogram, process counters, directory sizes, sync counting, progress and reports. */
#include "measure.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- histogram ---- */

static int bucket_of(uint64_t v) {
    if (v < 64) return (int)v;
    int msb = 63 - __builtin_clzll(v);
    int e = msb - 5; /* v >> e is in [32, 63] */
    return e * 32 + (int)(v >> e);
}

static uint64_t bucket_mid(int i) {
    if (i < 64) return (uint64_t)i;
    int e = i / 32 - 1;
    uint64_t m = (uint64_t)(i % 32 + 32);
    uint64_t lo = m << e, hi = ((m + 1) << e) - 1;
    return lo + (hi - lo) / 2;
}

void hist_add(struct hist *h, uint64_t ns) {
    h->count++;
    h->sum += ns;
    if (ns > h->max) h->max = ns;
    h->b[bucket_of(ns)]++;
}

void hist_merge(struct hist *into, const struct hist *from) {
    into->count += from->count;
    into->sum += from->sum;
    if (from->max > into->max) into->max = from->max;
    for (int i = 0; i < HIST_BUCKETS; i++) into->b[i] += from->b[i];
}

uint64_t hist_quantile(const struct hist *h, double q) {
    if (h->count == 0) return 0;
    uint64_t rank = (uint64_t)(q * (double)h->count);
    if (rank >= h->count) rank = h->count - 1;
    uint64_t seen = 0;
    for (int i = 0; i < HIST_BUCKETS; i++) {
        seen += h->b[i];
        if (seen > rank) {
            uint64_t v = bucket_mid(i);
            return v > h->max ? h->max : v;
        }
    }
    return h->max;
}

/* ---- process counters ---- */

void proc_sample(struct proc_sample *s) {
    memset(s, 0, sizeof *s);
    s->t_ns = now_ns();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    s->cpu_user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
    s->cpu_sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
    s->max_rss_kb = ru.ru_maxrss;
    FILE *f = fopen("/proc/self/io", "r");
    if (f == NULL) return;
    char name[64];
    unsigned long long v;
    while (fscanf(f, "%63[^:]: %llu\n", name, &v) == 2) {
        if (strcmp(name, "write_bytes") == 0) s->write_bytes = v;
        else if (strcmp(name, "cancelled_write_bytes") == 0) s->cancelled_write_bytes = v;
        else if (strcmp(name, "wchar") == 0) s->wchar = v;
        else if (strcmp(name, "read_bytes") == 0) s->read_bytes = v;
    }
    fclose(f);
}

/* ---- the block device ---- */

int64_t device_written_bytes(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0 || major(st.st_dev) == 0) return -1;
    char p[96];
    snprintf(p, sizeof p, "/sys/dev/block/%u:%u/stat", major(st.st_dev), minor(st.st_dev));
    FILE *f = fopen(p, "r");
    if (f == NULL) return -1;
    unsigned long long v[7];
    int n = fscanf(f, "%llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]);
    fclose(f);
    return n == 7 ? (int64_t)(v[6] * 512ull) : -1;
}

/* ---- directories ---- */

static uint64_t g_dir_sum;
static int add_size(const char *p, const struct stat *st, int type, struct FTW *ftw) {
    (void)p;
    (void)ftw;
    if (type == FTW_F) g_dir_sum += (uint64_t)st->st_size;
    return 0;
}

uint64_t dir_bytes(const char *path) {
    g_dir_sum = 0;
    nftw(path, add_size, 32, FTW_PHYS);
    return g_dir_sum;
}

static int rm_one(const char *p, const struct stat *st, int type, struct FTW *ftw) {
    (void)st;
    (void)type;
    (void)ftw;
    remove(p);
    return 0;
}

void remove_tree(const char *path) {
    nftw(path, rm_one, 32, FTW_DEPTH | FTW_PHYS);
}

/* ---- sync counting (interposes libc's fdatasync and fsync for the whole process) ---- */

atomic_ulong g_fdatasyncs, g_fsyncs;

static int (*real_fdatasync)(int);
static int (*real_fsync)(int);
static atomic_int g_sync_tracing;
static pthread_mutex_t g_sync_mu = PTHREAD_MUTEX_INITIALIZER;
static uint64_t g_last_sync_end;
static struct hist g_sync_dur, g_sync_gap;

static int traced_sync(int (*real)(int), int fd) {
    if (!atomic_load_explicit(&g_sync_tracing, memory_order_relaxed)) return real(fd);
    uint64_t t0 = now_ns();
    int rc = real(fd);
    uint64_t t1 = now_ns();
    pthread_mutex_lock(&g_sync_mu);
    hist_add(&g_sync_dur, t1 - t0);
    if (g_last_sync_end != 0 && t0 > g_last_sync_end) hist_add(&g_sync_gap, t0 - g_last_sync_end);
    g_last_sync_end = t1;
    pthread_mutex_unlock(&g_sync_mu);
    return rc;
}

int fdatasync(int fd) {
    if (real_fdatasync == NULL) {
        void *s = dlsym(RTLD_NEXT, "fdatasync");
        memcpy(&real_fdatasync, &s, sizeof s);
    }
    atomic_fetch_add_explicit(&g_fdatasyncs, 1, memory_order_relaxed);
    return traced_sync(real_fdatasync, fd);
}

int fsync(int fd) {
    if (real_fsync == NULL) {
        void *s = dlsym(RTLD_NEXT, "fsync");
        memcpy(&real_fsync, &s, sizeof s);
    }
    atomic_fetch_add_explicit(&g_fsyncs, 1, memory_order_relaxed);
    return traced_sync(real_fsync, fd);
}

void sync_trace_begin(void) {
    pthread_mutex_lock(&g_sync_mu);
    memset(&g_sync_dur, 0, sizeof g_sync_dur);
    memset(&g_sync_gap, 0, sizeof g_sync_gap);
    g_last_sync_end = 0;
    pthread_mutex_unlock(&g_sync_mu);
    atomic_store(&g_sync_tracing, 1);
}

void sync_trace_report(struct report *r) {
    atomic_store(&g_sync_tracing, 0);
    pthread_mutex_lock(&g_sync_mu);
    report_extra(r, "engine_sync_p50_us", (double)hist_quantile(&g_sync_dur, 0.5) / 1e3);
    report_extra(r, "engine_sync_p99_us", (double)hist_quantile(&g_sync_dur, 0.99) / 1e3);
    report_extra(r, "sync_gap_p50_us", (double)hist_quantile(&g_sync_gap, 0.5) / 1e3);
    report_extra(r, "sync_gap_p99_us", (double)hist_quantile(&g_sync_gap, 0.99) / 1e3);
    report_extra(r, "engine_sync_mean_us",
                 g_sync_dur.count ? (double)g_sync_dur.sum / (double)g_sync_dur.count / 1e3 : 0);
    report_extra(r, "sync_gap_mean_us", g_sync_gap.count ? (double)g_sync_gap.sum / (double)g_sync_gap.count / 1e3 : 0);
    pthread_mutex_unlock(&g_sync_mu);
}

/* ---- progress ---- */

atomic_ulong g_progress_done;
static pthread_t g_progress_thread;
static atomic_int g_progress_run;
static struct {
    char label[64], workload[160];
    uint64_t total;
    double duration;
    int interval;
    uint64_t t0;
} g_prog;

static void *progress_main(void *arg) {
    (void)arg;
    uint64_t last_t = g_prog.t0, last_n = 0;
    while (atomic_load(&g_progress_run)) {
        for (int i = 0; i < g_prog.interval * 10 && atomic_load(&g_progress_run); i++) usleep(100000);
        if (!atomic_load(&g_progress_run)) break;
        uint64_t t = now_ns(), n = atomic_load(&g_progress_done);
        double el = (double)(t - g_prog.t0) / 1e9, rate = (double)(n - last_n) / ((double)(t - last_t) / 1e9);
        char pct[48] = "";
        if (g_prog.total > 0) snprintf(pct, sizeof pct, "/%" PRIu64 " (%.0f%%)", g_prog.total, 100.0 * (double)n / (double)g_prog.total);
        else if (g_prog.duration > 0) snprintf(pct, sizeof pct, " (%.0f%% of %.0f s)", 100.0 * el / g_prog.duration, g_prog.duration);
        fprintf(stderr, "  .. [%s] %s: %" PRIu64 "%s, %.0f/s now, %.0f s\n", g_prog.label, g_prog.workload, n, pct,
                rate, el);
        last_t = t;
        last_n = n;
    }
    return NULL;
}

void progress_start(const char *label, const char *workload, uint64_t total, double duration_s, int interval_s) {
    atomic_store(&g_progress_done, 0);
    if (interval_s <= 0) return;
    snprintf(g_prog.label, sizeof g_prog.label, "%s", label);
    snprintf(g_prog.workload, sizeof g_prog.workload, "%s", workload);
    g_prog.total = total;
    g_prog.duration = duration_s;
    g_prog.interval = interval_s;
    g_prog.t0 = now_ns();
    atomic_store(&g_progress_run, 1);
    if (pthread_create(&g_progress_thread, NULL, progress_main, NULL) != 0) atomic_store(&g_progress_run, 0);
}

void progress_stop(void) {
    if (atomic_exchange(&g_progress_run, 0)) pthread_join(g_progress_thread, NULL);
}

/* ---- reports ---- */

void report_extra(struct report *r, const char *key, double value) {
    if (r->nextra >= REPORT_EXTRA_MAX) return;
    snprintf(r->extra[r->nextra].key, sizeof r->extra[r->nextra].key, "%s", key);
    r->extra[r->nextra].value = value;
    r->nextra++;
}

static void fmt_ns(char *buf, size_t n, uint64_t ns) {
    if (ns < 10000) snprintf(buf, n, "%.2f us", (double)ns / 1e3);
    else if (ns < 10000000) snprintf(buf, n, "%.0f us", (double)ns / 1e3);
    else snprintf(buf, n, "%.1f ms", (double)ns / 1e6);
}

static void json_str(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20) fprintf(f, "\\u%04x", *s);
        else fputc(*s, f);
    }
    fputc('"', f);
}

void report_emit(const struct report *r, const char *engine_label, const char *engine_path,
                 const char *params_json, const char *json_path) {
    double secs = r->seconds > 0 ? r->seconds : 1e-9;
    double ops_s = (double)r->ops / secs;
    double cpu = (r->phase_end.cpu_user - r->phase_start.cpu_user) + (r->phase_end.cpu_sys - r->phase_start.cpu_sys);
    double cpu_us_op = r->ops ? cpu * 1e6 / (double)r->ops : 0;
    uint64_t wb = r->end.write_bytes - r->start.write_bytes;
    uint64_t wcanc = r->end.cancelled_write_bytes - r->start.cancelled_write_bytes;
    uint64_t wchar = r->end.wchar - r->start.wchar;
    double wamp = r->user_bytes ? (double)wb / (double)r->user_bytes : 0;
    int have_dev = r->dev_start >= 0 && r->dev_end >= r->dev_start;
    uint64_t dwb = have_dev ? (uint64_t)(r->dev_end - r->dev_start) : 0;
    double dwamp = r->user_bytes ? (double)dwb / (double)r->user_bytes : 0;
    uint64_t p50 = hist_quantile(&r->lat, 0.50), p99 = hist_quantile(&r->lat, 0.99),
             p999 = hist_quantile(&r->lat, 0.999);

    char a[32], b[32], c[32], d[32];
    fmt_ns(a, sizeof a, p50);
    fmt_ns(b, sizeof b, p99);
    fmt_ns(c, sizeof c, p999);
    fmt_ns(d, sizeof d, r->lat.max);
    printf("%-10s %-34s %12.0f %s/s  p50 %s  p99 %s  p99.9 %s  max %s  cpu %.2f us/%s  rss %.0f MB", engine_label,
           r->spec, ops_s, r->unit, a, b, c, d, cpu_us_op, r->unit, (double)r->end.max_rss_kb / 1024.0);
    if (r->user_bytes) printf("  wamp %.2f", wamp);
    if (r->user_bytes && have_dev) printf("  dev-wamp %.2f", dwamp);
    printf("  db %.1f MB", (double)r->db_bytes / 1048576.0);
    if (r->expected_found || r->found) printf("  found %" PRIu64 "/%" PRIu64, r->found, r->expected_found);
    for (int i = 0; i < r->nextra; i++) printf("  %s %.4g", r->extra[i].key, r->extra[i].value);
    if (r->error[0]) printf("  ERROR %s", r->error);
    printf("\n");
    fflush(stdout);

    if (json_path == NULL) return;
    char *line = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&line, &len);
    if (f == NULL) return;
    fprintf(f, "{\"engine\":");
    json_str(f, engine_label);
    fprintf(f, ",\"engine_path\":");
    json_str(f, engine_path);
    fprintf(f, ",\"workload\":");
    json_str(f, r->workload);
    fprintf(f, ",\"spec\":");
    json_str(f, r->spec);
    fprintf(f, ",\"unit\":");
    json_str(f, r->unit);
    fprintf(f, ",\"lat_unit\":");
    json_str(f, r->lat_unit ? r->lat_unit : r->unit);
    fprintf(f,
            ",\"ops\":%" PRIu64 ",\"seconds\":%.6f,\"ops_per_s\":%.3f"
            ",\"lat_ns\":{\"mean\":%.1f,\"p50\":%" PRIu64 ",\"p99\":%" PRIu64 ",\"p999\":%" PRIu64 ",\"max\":%" PRIu64
            ",\"samples\":%" PRIu64 "}"
            ",\"cpu_s\":%.4f,\"cpu_us_per_op\":%.4f,\"max_rss_kb\":%ld"
            ",\"user_bytes\":%" PRIu64 ",\"write_bytes\":%" PRIu64 ",\"cancelled_write_bytes\":%" PRIu64
            ",\"wchar\":%" PRIu64 ",\"write_amp\":%.4f,\"db_bytes\":%" PRIu64 ",\"settle_s\":%.3f"
            ",\"found\":%" PRIu64 ",\"expected_found\":%" PRIu64 ",\"total_s\":%.3f",
            r->ops, r->seconds, ops_s, r->lat.count ? (double)r->lat.sum / (double)r->lat.count : 0.0, p50, p99, p999,
            r->lat.max, r->lat.count, cpu, cpu_us_op, r->end.max_rss_kb, r->user_bytes, wb, wcanc, wchar, wamp,
            r->db_bytes, r->settle_s, r->found, r->expected_found, (double)(r->end.t_ns - r->start.t_ns) / 1e9);
    if (have_dev)
        fprintf(f, ",\"device_write_bytes\":%" PRIu64 ",\"device_write_amp\":%.4f", dwb, dwamp);
    else
        fprintf(f, ",\"device_write_bytes\":null,\"device_write_amp\":null");
    fprintf(f, ",\"extra\":{");
    for (int i = 0; i < r->nextra; i++) {
        fprintf(f, "%s", i ? "," : "");
        json_str(f, r->extra[i].key);
        fprintf(f, ":%.6g", r->extra[i].value);
    }
    fprintf(f, "},\"params\":%s,\"error\":", params_json);
    json_str(f, r->error);
    fprintf(f, "}\n");
    fclose(f);
    int fd = open(json_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
        ssize_t w = write(fd, line, len);
        (void)w;
        close(fd);
    }
    free(line);
}
