/* SPDX-License-Identifier: Apache-2.0
 * The driver's flags: defaults, `--name=value` parsing and the JSON copy recorded with every
 * result. A benchmark spec `name@flag=value@flag=value` sets flags for one workload. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

void config_defaults(struct config *c) {
    memset(c, 0, sizeof *c);
    snprintf(c->db_root, sizeof c->db_root, "/tmp/enginebench");
    c->num = 1000000;
    c->reads = -1;
    c->seeks = -1;
    c->deletes = -1;
    c->key_size = 16;
    c->value_size = 100;
    c->threads = 1;
    c->compression = COMPRESSION_SNAPPY;
    snprintf(c->compression_name, sizeof c->compression_name, "snappy");
    c->bloom_bits = 10;
    c->data_block_hash = -1;
    c->cache_mb = 512;
    c->write_buffer_mb = 64;
    c->multiget = 32;
    c->seek_nexts = 10;
    c->duration = 3;
    c->max_ops = 0;
    c->writers = 1;
    c->readers = 1;
    c->sync = 0;
    c->wal_value = 1024;
    c->checkpoint_every = 1000;
    snprintf(c->dataset, sizeof c->dataset, "small");
    c->kahuna_small_keys = 200000;
    c->kahuna_large_keys = 250000;
    c->kahuna_history_keys = 10000;
    c->kahuna_versions = 8;
    c->kahuna_reads = 200000;
    c->kahuna_checkpoints = 100; /* five left the row at the mercy of one slow flush (pair ranges 0.71-1.57); twenty still gave 0.78-2.09 */
    c->direct_reads = 0;
    c->batch = 64;
    c->disk_seconds = 2;
    c->progress_s = 10;
    c->seed = 301;
}

enum kind { K_LONG, K_INT, K_DOUBLE, K_ULONG, K_STR };
struct flag {
    const char *name;
    enum kind kind;
    size_t off;
    size_t size; /* K_STR: buffer size */
};
#define F(n, k, field) {n, k, offsetof(struct config, field), sizeof(((struct config *)0)->field)}
static const struct flag FLAGS[] = {
    F("num", K_LONG, num),
    F("reads", K_LONG, reads),
    F("seeks", K_LONG, seeks),
    F("deletes", K_LONG, deletes),
    F("key_size", K_INT, key_size),
    F("value_size", K_INT, value_size),
    F("threads", K_INT, threads),
    F("bloom_bits", K_INT, bloom_bits),
    F("data_block_hash", K_INT, data_block_hash),
    F("cache_mb", K_LONG, cache_mb),
    F("write_buffer_mb", K_LONG, write_buffer_mb),
    F("max_write_buffer_number", K_INT, max_write_buffer_number),
    F("multiget", K_INT, multiget),
    F("batched", K_INT, batched),
    F("seek_nexts", K_INT, seek_nexts),
    F("duration", K_DOUBLE, duration),
    F("max_ops", K_LONG, max_ops),
    F("writers", K_INT, writers),
    F("readers", K_INT, readers),
    F("sync", K_INT, sync),
    F("wal_value", K_INT, wal_value),
    F("checkpoint_every", K_INT, checkpoint_every),
    F("dataset", K_STR, dataset),
    F("kahuna_small_keys", K_LONG, kahuna_small_keys),
    F("kahuna_large_keys", K_LONG, kahuna_large_keys),
    F("kahuna_history_keys", K_LONG, kahuna_history_keys),
    F("kahuna_versions", K_INT, kahuna_versions),
    F("kahuna_reads", K_LONG, kahuna_reads),
    F("kahuna_checkpoints", K_INT, kahuna_checkpoints),
    F("direct_reads", K_INT, direct_reads),
    F("batch", K_INT, batch),
    F("disk_seconds", K_DOUBLE, disk_seconds),
    F("settle_before", K_INT, settle_before),
    F("warm", K_INT, warm),
    F("progress", K_INT, progress_s),
    F("seed", K_ULONG, seed),
    F("label", K_STR, label),
    F("db", K_STR, db_root),
};
#undef F

int config_set(struct config *c, const char *flag) {
    while (*flag == '-') flag++;
    const char *eq = strchr(flag, '=');
    if (eq == NULL) return -1;
    size_t nlen = (size_t)(eq - flag);
    const char *v = eq + 1;
    if (nlen == 11 && strncmp(flag, "compression", 11) == 0) {
        if (strcmp(v, "none") == 0) c->compression = COMPRESSION_NONE;
        else if (strcmp(v, "snappy") == 0) c->compression = COMPRESSION_SNAPPY;
        else if (strcmp(v, "lz4") == 0) c->compression = COMPRESSION_LZ4;
        else if (strcmp(v, "zstd") == 0) c->compression = COMPRESSION_ZSTD;
        else return -1;
        snprintf(c->compression_name, sizeof c->compression_name, "%s", v);
        return 0;
    }
    if (nlen == 6 && strncmp(flag, "engine", 6) == 0) {
        c->engine_path = v;
        return 0;
    }
    if (nlen == 4 && strncmp(flag, "json", 4) == 0) {
        c->json_path = v;
        return 0;
    }
    for (size_t i = 0; i < sizeof FLAGS / sizeof FLAGS[0]; i++) {
        const struct flag *f = &FLAGS[i];
        if (strlen(f->name) != nlen || strncmp(flag, f->name, nlen) != 0) continue;
        char *end = NULL;
        char *p = (char *)c + f->off;
        switch (f->kind) {
        case K_LONG: *(long *)p = strtol(v, &end, 10); break;
        case K_INT: *(int *)p = (int)strtol(v, &end, 10); break;
        case K_ULONG: *(unsigned long *)p = strtoul(v, &end, 10); break;
        case K_DOUBLE: *(double *)p = strtod(v, &end); break;
        case K_STR:
            if (strlen(v) >= f->size) return -1;
            memcpy(p, v, strlen(v) + 1);
            return 0;
        }
        return (end != NULL && *end == '\0' && end != v) ? 0 : -1;
    }
    return -1;
}

char *config_json(const struct config *c) {
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (f == NULL) abort();
    fprintf(f, "{\"compression\":\"%s\"", c->compression_name);
    for (size_t i = 0; i < sizeof FLAGS / sizeof FLAGS[0]; i++) {
        const struct flag *fl = &FLAGS[i];
        const char *p = (const char *)c + fl->off;
        if (strcmp(fl->name, "label") == 0 || strcmp(fl->name, "db") == 0) continue;
        fprintf(f, ",\"%s\":", fl->name);
        switch (fl->kind) {
        case K_LONG: fprintf(f, "%ld", *(const long *)p); break;
        case K_INT: fprintf(f, "%d", *(const int *)p); break;
        case K_ULONG: fprintf(f, "%lu", *(const unsigned long *)p); break;
        case K_DOUBLE: fprintf(f, "%g", *(const double *)p); break;
        case K_STR: fprintf(f, "\"%s\"", p); break;
        }
    }
    fprintf(f, "}");
    fclose(f);
    return out;
}
