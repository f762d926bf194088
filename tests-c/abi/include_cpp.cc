// SPDX-License-Identifier: Apache-2.0
// Include gate (C++): the header compiles twice in a C++ unit (extern "C" guards) under
// -std=c++11 -Wall -Wextra -Wpedantic -Werror. Built by `cargo x abi-check`.
#include <rocksdb/c.h>
#include <rocksdb/c.h>

int include_cpp_uses_header();

int include_cpp_uses_header() {
  rocksdb_slice_t s = {nullptr, 0};
  int compression = rocksdb_snappy_compression;
  void (*f)(void*) = rocksdb_free;
  rocksdb_t* (*open)(const rocksdb_options_t*, const char*, char**) = rocksdb_open;
  return static_cast<int>(s.size) + compression + (f != nullptr) + (open != nullptr);
}
