// SPDX-License-Identifier: Apache-2.0
//! RocksDB's C API over the solistore engine, built as `libsolistore.so`. The header is
//! `include/rocksdb/c.h`, generated from this crate by `cargo x header` and never edited by
//! hand; `cargo x abi-check` proves it matches RocksDB 11.1.2's prototypes.
//!
//! Layout (STYLE.md §3): `ffi` is the boundary (panic catch, pointer conversions), `alloc`
//! the C-allocator buffers handed to callers, `status` the errptr protocol, `types` and
//! `constants` the C types and enum values, one module per C prefix for hand-written
//! functions, and `generated::stubs` for every function not written by hand yet: each
//! returns `Not implemented: <name>` through errptr, or a neutral value
//! (`cargo x gen-stubs` regenerates it; `docs/api-coverage.md` counts both kinds).
#![allow(
    non_camel_case_types,
    non_upper_case_globals,
    reason = "C names (`rocksdb_t`, `rocksdb_no_compression`) are the API"
)]

pub mod alloc;

/// Rust's heap in this library is the C heap, so that buffers the engine fills can be
/// handed to C callers, who free them with `free()` (see `alloc`).
#[global_allocator]
static C_HEAP: alloc::CHeap = alloc::CHeap;
pub mod block_based_options;
pub mod cache;
pub mod checkpoint;
pub mod column_family;
pub mod compactionfilter;
pub mod compactoptions;
pub mod comparator;
pub mod constants;
pub mod db;
pub mod env;
pub(crate) mod ffi;
pub mod filterpolicy;
pub mod flushoptions;
pub mod generated;
pub mod iter;
pub mod mergeoperator;
pub mod options;
pub mod ratelimiter;
pub mod readoptions;
pub mod slicetransform;
pub mod snapshot;
pub mod solistore_ext;
pub(crate) mod status;
pub mod types;
pub mod write_buffer_manager;
pub mod writebatch;
pub mod writeoptions;
