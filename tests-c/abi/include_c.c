/* SPDX-License-Identifier: Apache-2.0
 * Include gate (C): the header is self-contained, idempotent (included twice) and clean under
 * -std=c11 -Wall -Wextra -Wpedantic -Werror. Built by `cargo x abi-check`. */
#include <rocksdb/c.h>
#include <rocksdb/c.h>

int include_c_uses_header(void);

int include_c_uses_header(void) {
  rocksdb_slice_t s = {0, 0};
  int compression = rocksdb_lz4_compression;
  void (*f)(void*) = rocksdb_free;
  return (int)s.size + compression + (f != 0);
}
