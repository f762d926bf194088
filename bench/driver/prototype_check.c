/* SPDX-License-Identifier: Apache-2.0
 * Not part of the driver: a compile-time check (`make -C bench check-prototypes`, run by
 * `make -C bench smoke`) that every prototype in engine.h matches the real header. Compiled
 * with -fsyntax-only against solistore's include/rocksdb/c.h and against Debian's
 * /usr/include/rocksdb/c.h (RocksDB 7.8.3): an assignment of a function to a table slot of
 * another type fails under -Werror. */
#include <rocksdb/c.h>

#include "engine.h"

void prototype_check(struct engine_api *t);
void prototype_check(struct engine_api *t) {
#define BENCH_ENGINE_ASSIGN(ret, name, params) t->name = rocksdb_##name;
    BENCH_ENGINE_FUNCTIONS(BENCH_ENGINE_ASSIGN)
#undef BENCH_ENGINE_ASSIGN
}
