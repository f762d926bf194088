// SPDX-License-Identifier: Apache-2.0
//! RocksDB's C API over the solistore engine; the header is `include/rocksdb/c.h`.
