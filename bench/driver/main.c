/* SPDX-License-Identifier: Apache-2.0
 * enginebench: one benchmark driver for any librocksdb-compatible library.
 *
 *   enginebench --engine=PATH [--label=NAME] [--db=DIR] [--json=FILE] [flags]
 *               --benchmarks=SPEC[,SPEC...]
 *   SPEC = workload[@flag=value...]    e.g. readrandom@cache_mb=8, wal_append@writers=4@sync=1
 *   enginebench --list                 the workloads and the flags with their defaults
 *
 * Every SPEC runs in a fresh child process that dlopen()s the engine, so each result's peak
 * RSS, CPU time and I/O counters belong to that workload and that engine alone. The child
 * prints one summary line to stdout and appends one JSON line to --json. The parent never
 * loads the engine. Exit status: 0 if every workload succeeded. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workload.h"

void w_fillseq(const struct config *, struct report *, const char *);
void w_fillrandom(const struct config *, struct report *, const char *);
void w_overwrite(const struct config *, struct report *, const char *);
void w_readrandom(const struct config *, struct report *, const char *);
void w_readmissing(const struct config *, struct report *, const char *);
void w_readseq(const struct config *, struct report *, const char *);
void w_readreverse(const struct config *, struct report *, const char *);
void w_seekrandom(const struct config *, struct report *, const char *);
void w_multireadrandom(const struct config *, struct report *, const char *);
void w_readwhilewriting(const struct config *, struct report *, const char *);
void w_deleterandom(const struct config *, struct report *, const char *);
void w_disk(const struct config *, struct report *, const char *);
void w_fillsync(const struct config *, struct report *, const char *);
void w_wal_append(const struct config *, struct report *, const char *);
void w_wal_commit(const struct config *, struct report *, const char *);
void w_wal_batch64(const struct config *, struct report *, const char *);
void w_wal_mixed(const struct config *, struct report *, const char *);
void w_kahuna_load(const struct config *, struct report *, const char *);
void w_kahuna_get(const struct config *, struct report *, const char *);
void w_kahuna_getmiss(const struct config *, struct report *, const char *);
void w_kahuna_scan(const struct config *, struct report *, const char *);
void w_kahuna_batch(const struct config *, struct report *, const char *);
void w_kahuna_checkpoint(const struct config *, struct report *, const char *);

const struct workload WORKLOADS[] = {
    {"fillseq", "dbbench", 1, w_fillseq, "num puts in key order into a fresh DB, then flush and settle"},
    {"fillrandom", "dbbench", 1, w_fillrandom, "num puts, every key once in random order, fresh DB, then settle"},
    {"overwrite", "dbbench", 0, w_overwrite, "num puts of random existing keys, then settle"},
    {"readrandom", "dbbench", 0, w_readrandom, "reads gets of random existing keys (all must be found)"},
    {"readmissing", "dbbench", 0, w_readmissing, "reads gets of absent keys that sort between existing ones"},
    {"readseq", "dbbench", 0, w_readseq, "iterate forward over min(reads, num) entries"},
    {"readreverse", "dbbench", 0, w_readreverse, "iterate backward over min(reads, num) entries"},
    {"seekrandom", "dbbench", 0, w_seekrandom, "seeks (num/10) seeks to random keys, each followed by seek_nexts nexts"},
    {"multireadrandom", "dbbench", 0, w_multireadrandom, "reads keys through multi_get calls of `multiget` keys"},
    {"readwhilewriting", "dbbench", 0, w_readwhilewriting,
     "threads readers doing readrandom while one writer overwrites"},
    {"deleterandom", "dbbench", 0, w_deleterandom, "deletes (num/2) deletes of random keys, then settle"},
    {"disk", "disk", 1, w_disk, "the disk alone: 100 B append + fdatasync for disk_seconds"},
    {"fillsync", "sync", 1, w_fillsync, "threads writers, sync=1 puts for duration s, beside the disk bound"},
    {"wal_append", "wal", 1, w_wal_append, "Kommander: one log entry per write"},
    {"wal_commit", "wal", 1, w_wal_commit, "Kommander: entry, then its (unsynced) commit marker"},
    {"wal_batch64", "wal", 1, w_wal_batch64, "Kommander: 64 entries per write batch"},
    {"wal_mixed", "wal", 1, w_wal_mixed, "Kommander: append+commit, checkpoint+compaction, readers"},
    {"kahuna_load", "kahuna-%s", 1, w_kahuna_load, "Kahuna: load the dataset in synced batches"},
    {"kahuna_get", "kahuna-%s", 0, w_kahuna_get, "Kahuna: gets of existing keys from `threads` threads"},
    {"kahuna_getmiss", "kahuna-%s", 0, w_kahuna_getmiss, "Kahuna: gets of absent keys"},
    {"kahuna_scan", "kahuna-%s", 0, w_kahuna_scan, "Kahuna: prefix scans of 100 keys"},
    {"kahuna_batch", "kahuna-%s", 0, w_kahuna_batch, "Kahuna: synced batches of `batch` keys"},
    {"kahuna_checkpoint", "kahuna-%s", 0, w_kahuna_checkpoint, "Kahuna: checkpoints after a synced batch"},
    {NULL, NULL, 0, NULL, NULL},
};

const struct workload *workload_find(const char *name) {
    for (const struct workload *w = WORKLOADS; w->name; w++)
        if (strcmp(w->name, name) == 0) return w;
    return NULL;
}

static void mkdirs(const char *path) {
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        mkdir(buf, 0755);
        *p = '/';
    }
    if (mkdir(buf, 0755) != 0 && errno != EEXIST) {
        perror(buf);
        exit(2);
    }
}

static void usage(void) {
    fprintf(stderr, "usage: enginebench --engine=PATH [--label=NAME] [--db=DIR] [--json=FILE] [--flag=value...] "
                    "--benchmarks=workload[@flag=value...][,...]\n       enginebench --list\n");
}

static void list(void) {
    printf("workloads:\n");
    for (const struct workload *w = WORKLOADS; w->name; w++) printf("  %-18s %s\n", w->name, w->help);
    struct config c;
    config_defaults(&c);
    char *j = config_json(&c);
    printf("flags and defaults: %s\n", j);
    free(j);
}

/* Runs one spec in a child; returns 0 on success. */
static int run_spec(const struct config *base, const char *spec) {
    struct config c = *base;
    char name[160];
    snprintf(name, sizeof name, "%s", spec);
    char *at = strchr(name, '@');
    if (at != NULL) {
        *at = 0;
        char *rest = at + 1;
        for (char *tok = strtok(rest, "@"); tok; tok = strtok(NULL, "@")) {
            if (config_set(&c, tok) != 0) {
                fprintf(stderr, "%s: bad flag %s\n", spec, tok);
                return 1;
            }
        }
    }
    const struct workload *w = workload_find(name);
    if (w == NULL) {
        fprintf(stderr, "unknown workload %s (--list)\n", name);
        return 1;
    }
    char dir[PATH_MAX], sub[64];
    snprintf(sub, sizeof sub, w->subdir, c.dataset);
    snprintf(dir, sizeof dir, "%s/%s", c.db_root, sub);
    if (w->fresh) remove_tree(dir);
    mkdirs(dir);
    /* Every run starts on a settled disk: no dirty pages of an earlier run, whichever engine
     * wrote them, are written back during this one. */
    sync();
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 1;
    }
    if (pid == 0) {
        static struct report r;
        memset(&r, 0, sizeof r);
        r.workload = w->name;
        r.unit = "op";
        snprintf(r.spec, sizeof r.spec, "%s", spec);
        r.dev_start = device_written_bytes(dir);
        proc_sample(&r.start);
        if (strcmp(w->name, "disk") != 0) engine_load(c.engine_path);
        w->run(&c, &r, dir);
        proc_sample(&r.end);
        /* What the workload left dirty reaches the device before it is counted. */
        int dfd = open(dir, O_RDONLY | O_DIRECTORY);
        if (dfd >= 0) {
            if (syncfs(dfd) != 0) r.dev_start = -1;
            close(dfd);
        }
        r.dev_end = r.dev_start >= 0 ? device_written_bytes(dir) : -1;
        r.db_bytes = dir_bytes(dir);
        char *params = config_json(&c);
        report_emit(&r, c.label, c.engine_path, params, c.json_path);
        free(params);
        fflush(stdout);
        _exit(r.error[0] ? 4 : 0);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
    if (WIFSIGNALED(status)) fprintf(stderr, "[%s] %s: killed by signal %d\n", c.label, spec, WTERMSIG(status));
    else fprintf(stderr, "[%s] %s: failed (exit %d)\n", c.label, spec, WEXITSTATUS(status));
    return 1;
}

int main(int argc, char **argv) {
    struct config c;
    config_defaults(&c);
    const char *benchmarks = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--list") == 0) {
            list();
            return 0;
        }
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage();
            return 0;
        }
        if (strncmp(argv[i], "--benchmarks=", 13) == 0) {
            benchmarks = argv[i] + 13;
            continue;
        }
        if (config_set(&c, argv[i]) != 0) {
            fprintf(stderr, "bad flag: %s\n", argv[i]);
            usage();
            return 2;
        }
    }
    if (c.engine_path == NULL || benchmarks == NULL) {
        usage();
        return 2;
    }
    if (c.label[0] == 0) {
        char real[PATH_MAX];
        const char *p = realpath(c.engine_path, real) ? real : c.engine_path;
        snprintf(c.label, sizeof c.label, "%s", strstr(p, "solistore") ? "solistore" : "rocksdb");
    }
    mkdirs(c.db_root);
    char *list_copy = strdup(benchmarks);
    int failures = 0;
    char *save = NULL;
    for (char *spec = strtok_r(list_copy, ",", &save); spec; spec = strtok_r(NULL, ",", &save))
        failures += run_spec(&c, spec);
    free(list_copy);
    return failures ? 1 : 0;
}
