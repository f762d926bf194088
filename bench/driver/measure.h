/* SPDX-License-Identifier: Apache-2.0
 * What the driver measures and how it reports it: a clock, a latency histogram, the process's
 * CPU time, peak RSS and I/O counters, the size of a directory, a count of the engine's
 * fdatasync/fsync calls, a progress line for long runs, and the JSON line + summary line that
 * every workload emits. */
#ifndef BENCH_MEASURE_H
#define BENCH_MEASURE_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

uint64_t now_ns(void);

/* Log-linear latency histogram in nanoseconds: exact below 64 ns, then 32 buckets per power of
 * two (a bucket is at most 1/32 = 3.1% wide). */
#define HIST_BUCKETS 1920
struct hist {
    uint64_t count, sum, max;
    uint64_t b[HIST_BUCKETS];
};
void hist_add(struct hist *h, uint64_t ns);
void hist_merge(struct hist *into, const struct hist *from);
/* The value below which fraction q of the samples fall (the midpoint of that bucket). */
uint64_t hist_quantile(const struct hist *h, double q);

/* Process counters at one instant. */
struct proc_sample {
    uint64_t t_ns;
    double cpu_user, cpu_sys; /* seconds, all threads of the process */
    uint64_t write_bytes;     /* /proc/self/io: bytes this process caused to be written to storage */
    uint64_t cancelled_write_bytes;
    uint64_t wchar;           /* /proc/self/io: bytes passed to write(2) and friends */
    uint64_t read_bytes;
    long max_rss_kb;
};
void proc_sample(struct proc_sample *s);

/* Bytes written to the block device that holds `path`, since boot (sectors written, field 7 of
 * /sys/dev/block/MAJ:MIN/stat, times 512), or -1 where there is no such device (tmpfs,
 * overlay, no sysfs). It counts what reaches the device: data, and the filesystem's own
 * metadata (inodes, extent trees, journal), which /proc/self/io's write_bytes leaves out; and
 * every process's writes, so it is only meaningful on an otherwise idle disk. */
int64_t device_written_bytes(const char *path);

/* Sum of the apparent sizes of the regular files under `path` (0 if it does not exist). */
uint64_t dir_bytes(const char *path);
/* rm -rf path. */
void remove_tree(const char *path);

/* fdatasync(2) and fsync(2) calls made by anything in this process (the driver exports its own
 * fdatasync/fsync, which count and forward to libc; the engine's calls bind to them). */
extern atomic_ulong g_fdatasyncs, g_fsyncs;
/* While tracing, every sync's duration and the gap since the previous sync ended (the time
 * the disk sat idle between two syncs of the engine) go into histograms. */
void sync_trace_begin(void);
/* Stops tracing; adds the p50, p99 and mean of both (engine_sync_*_us, sync_gap_*_us) to r. */
struct report;
void sync_trace_report(struct report *r);

/* Progress: workers add to g_progress_done; a thread prints a line to stderr every
 * `interval_s` seconds while a phase runs. */
extern atomic_ulong g_progress_done;
void progress_start(const char *label, const char *workload, uint64_t total, double duration_s,
                    int interval_s);
void progress_stop(void);

/* The result of one workload, filled by the workload and printed by report_emit(). */
#define REPORT_EXTRA_MAX 24
struct report {
    const char *workload;      /* e.g. "readrandom" */
    char spec[160];            /* the benchmark spec as given, e.g. "wal_append@writers=4@sync=1" */
    const char *unit;          /* what one op is: "op", "key", "entry", "batch", "scan", ... */
    uint64_t ops;              /* ops in the measured phase */
    double seconds;            /* measured phase wall time */
    struct hist lat;           /* per-op (or per-call, see lat_unit) latency */
    const char *lat_unit;      /* what one latency sample covers */
    uint64_t user_bytes;       /* key + value bytes the workload wrote (0 for readers) */
    uint64_t found, expected_found; /* reads: keys found, keys that should have been found */
    struct proc_sample start, phase_start, phase_end, end;
    double settle_s;
    uint64_t db_bytes;         /* size of the DB directory after close */
    int64_t dev_start, dev_end; /* device_written_bytes before the open and after the close and
                                 * a syncfs of the DB's filesystem (-1: no device counter) */
    int nextra;
    struct {
        char key[40];
        double value;
    } extra[REPORT_EXTRA_MAX];
    char error[200];
};
void report_extra(struct report *r, const char *key, double value);
/* Prints the summary line to stdout and appends the JSON line to `json_path` (if not NULL). */
void report_emit(const struct report *r, const char *engine_label, const char *engine_path,
                 const char *params_json, const char *json_path);

#endif
