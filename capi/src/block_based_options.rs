// SPDX-License-Identifier: Apache-2.0
//! `rocksdb_block_based_options_*`: block-based table options (config path). `rocksdb_open*`
//! hands the engine the block size, filter policy, block cache and
//! `cache_index_and_filter_blocks` (see `options::open`); the rest are kept for their getters.
//!
//! `rocksdb_options_set_block_based_table_factory` copies these options, so later changes need
//! another call (c-api-conventions.md §4). The block cache is shared; the filter policy's
//! ownership moves here when set.
//!
//! Defaults are RocksDB 7.8.3's `BlockBasedTableOptions` (checked with a C++ probe against
//! Debian's librocksdb 7.8.3: block size 4 KiB, restart interval 16, format version 5, XXH3
//! checksums, ...); `separate_key_value_in_data_block` and `index_block_search_type` are 11.x
//! options and take 11.1.2's defaults.

use std::ffi::{c_char, c_int, c_uchar};
use std::sync::Arc;

use crate::cache::{rocksdb_cache_t, Cache};
use crate::ffi;
use crate::filterpolicy::{rocksdb_filterpolicy_t, FilterPolicy};
use crate::options::set;

/// `BlockBasedTableOptions::DataBlockIndexType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(i32)]
#[allow(dead_code, reason = "the full enum, for the table builder (issue 3)")]
pub(crate) enum DataBlockIndexType {
    BinarySearch = 0,
    BinaryAndHash = 1,
}

/// The block-based table options (values named after their C setters).
#[derive(Clone, Debug)]
pub(crate) struct BlockBasedTableOptions {
    pub(crate) block_size: usize,
    pub(crate) block_size_deviation: c_int,
    pub(crate) block_restart_interval: c_int,
    pub(crate) index_block_restart_interval: c_int,
    pub(crate) metadata_block_size: u64,
    pub(crate) partition_filters: bool,
    pub(crate) optimize_filters_for_memory: bool,
    pub(crate) use_delta_encoding: bool,
    pub(crate) no_block_cache: bool,
    pub(crate) whole_key_filtering: bool,
    pub(crate) format_version: c_int,
    pub(crate) index_type: c_int,
    pub(crate) data_block_index_type: c_int,
    pub(crate) data_block_hash_ratio: f64,
    pub(crate) index_block_search_type: c_int,
    pub(crate) cache_index_and_filter_blocks: bool,
    pub(crate) cache_index_and_filter_blocks_with_high_priority: bool,
    pub(crate) pin_l0_filter_and_index_blocks_in_cache: bool,
    pub(crate) pin_top_level_index_and_filter: bool,
    pub(crate) top_level_index_pinning_tier: c_int,
    pub(crate) partition_pinning_tier: c_int,
    pub(crate) unpartitioned_pinning_tier: c_int,
    pub(crate) block_align: bool,
    pub(crate) separate_key_value_in_data_block: bool,
    pub(crate) checksum: c_char,
    /// Shared with every holder (RocksDB's `shared_ptr<Cache>`); None: RocksDB creates an
    /// 8 MiB LRU cache per table factory unless `no_block_cache`.
    pub(crate) block_cache: Option<Arc<Cache>>,
    /// 7.8.3 only; removed in RocksDB 8.
    pub(crate) block_cache_compressed: Option<Arc<Cache>>,
    pub(crate) filter_policy: Option<Arc<FilterPolicy>>,
}

impl Default for BlockBasedTableOptions {
    fn default() -> Self {
        BlockBasedTableOptions {
            block_size: 4 * 1024,
            block_size_deviation: 10,
            block_restart_interval: 16,
            index_block_restart_interval: 1,
            metadata_block_size: 4096,
            partition_filters: false,
            optimize_filters_for_memory: false,
            use_delta_encoding: true,
            no_block_cache: false,
            whole_key_filtering: true,
            format_version: 5,
            index_type: 0,
            data_block_index_type:
                crate::constants::rocksdb_block_based_table_data_block_index_type_binary_search,
            data_block_hash_ratio: 0.75,
            index_block_search_type: 0,
            cache_index_and_filter_blocks: false,
            cache_index_and_filter_blocks_with_high_priority: true,
            pin_l0_filter_and_index_blocks_in_cache: false,
            pin_top_level_index_and_filter: true,
            top_level_index_pinning_tier: 0,
            partition_pinning_tier: 0,
            unpartitioned_pinning_tier: 0,
            block_align: false,
            separate_key_value_in_data_block: false,
            checksum: 4,
            block_cache: None,
            block_cache_compressed: None,
            filter_policy: None,
        }
    }
}

/// Block-based table options. Ownership: owned by the caller
/// (`rocksdb_block_based_options_create` / `_destroy`); copied when set on options.
pub struct rocksdb_block_based_table_options_t {
    pub(crate) opts: BlockBasedTableOptions,
}

/// Creates block-based table options with RocksDB's defaults. Release with
/// `rocksdb_block_based_options_destroy`.
///
/// # Safety
/// No pointer arguments: always safe to call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_block_based_options_create(
) -> *mut rocksdb_block_based_table_options_t {
    ffi::guarded_no_err("rocksdb_block_based_options_create", || {
        Ok(ffi::into_handle(rocksdb_block_based_table_options_t {
            opts: BlockBasedTableOptions::default(),
        }))
    })
}

/// Destroys block-based table options (their filter policy goes with them unless options
/// hold a copy). NULL is a no-op.
///
/// # Safety
/// `options` must be NULL or live, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_block_based_options_destroy(
    options: *mut rocksdb_block_based_table_options_t,
) {
    ffi::guarded_no_err("rocksdb_block_based_options_destroy", || {
        // SAFETY: forwarded contract.
        drop(unsafe { ffi::from_handle(options) });
        Ok(())
    })
}

/// Sets the block cache (shared: the caller may destroy its handle right after); tables of
/// DBs opened with these options charge their blocks to it. NULL is ignored, as in RocksDB.
///
/// # Safety
/// `options` must be NULL (ignored) or live; `block_cache` NULL or a live cache handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_block_based_options_set_block_cache(
    options: *mut rocksdb_block_based_table_options_t,
    block_cache: *mut rocksdb_cache_t,
) {
    // SAFETY: forwarded contract.
    let cache = unsafe { block_cache.as_ref() }.map(|c| Arc::clone(&c.inner));
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_block_based_options_set_block_cache",
            |t| {
                if cache.is_some() {
                    t.opts.block_cache = cache;
                }
            },
        )
    }
}

/// Sets the compressed block cache (RocksDB 7.8.3 only; shared). NULL is ignored.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (ignored) or live; `block_cache_compressed` NULL or a live cache.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_block_based_options_set_block_cache_compressed(
    options: *mut rocksdb_block_based_table_options_t,
    block_cache_compressed: *mut rocksdb_cache_t,
) {
    // SAFETY: forwarded contract.
    let cache = unsafe { block_cache_compressed.as_ref() }.map(|c| Arc::clone(&c.inner));
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_block_based_options_set_block_cache_compressed",
            |t| {
                if cache.is_some() {
                    t.opts.block_cache_compressed = cache;
                }
            },
        )
    }
}

/// Sets the filter policy; its ownership moves to these options (the caller must not destroy
/// it). New tables get a full filter (`fullfilter.rocksdb.BuiltinBloomFilter`) with its bits
/// per key, when `whole_key_filtering` is on. NULL removes the filter.
///
/// # Safety
/// `options` must be NULL (ignored) or live; `filter_policy` NULL or a live handle from
/// `rocksdb_filterpolicy_create_*`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_block_based_options_set_filter_policy(
    options: *mut rocksdb_block_based_table_options_t,
    filter_policy: *mut rocksdb_filterpolicy_t,
) {
    ffi::guarded_no_err("rocksdb_block_based_options_set_filter_policy", || {
        // SAFETY: forwarded contract.
        let t = unsafe { ffi::borrow_mut(options, "options")? };
        // SAFETY: forwarded contract.
        t.opts.filter_policy = unsafe { crate::options::transfer::install(filter_policy) };
        Ok(())
    })
}

/// Target uncompressed data block size of new tables.
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_block_based_table_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_block_based_options_set_block_size(
    options: *mut rocksdb_block_based_table_options_t,
    block_size: usize,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(options, "rocksdb_block_based_options_set_block_size", |t| {
            t.opts.block_size = block_size
        })
    }
}

/// Percentage by which a block may fall short of `block_size` before it is closed.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_block_based_table_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_block_based_options_set_block_size_deviation(
    options: *mut rocksdb_block_based_table_options_t,
    block_size_deviation: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_block_based_options_set_block_size_deviation",
            |t| t.opts.block_size_deviation = block_size_deviation,
        )
    }
}

/// Keys between restart points in data blocks.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_block_based_table_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_block_based_options_set_block_restart_interval(
    options: *mut rocksdb_block_based_table_options_t,
    block_restart_interval: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_block_based_options_set_block_restart_interval",
            |t| t.opts.block_restart_interval = block_restart_interval,
        )
    }
}

/// Keys between restart points in index blocks.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_block_based_table_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_block_based_options_set_index_block_restart_interval(
    options: *mut rocksdb_block_based_table_options_t,
    index_block_restart_interval: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_block_based_options_set_index_block_restart_interval",
            |t| t.opts.index_block_restart_interval = index_block_restart_interval,
        )
    }
}

/// Target size of partitioned index and filter blocks.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_block_based_table_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_block_based_options_set_metadata_block_size(
    options: *mut rocksdb_block_based_table_options_t,
    metadata_block_size: u64,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_block_based_options_set_metadata_block_size",
            |t| t.opts.metadata_block_size = metadata_block_size,
        )
    }
}

/// Whether filters are partitioned.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_block_based_table_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_block_based_options_set_partition_filters(
    options: *mut rocksdb_block_based_table_options_t,
    partition_filters: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_block_based_options_set_partition_filters",
            |t| t.opts.partition_filters = ffi::c_bool(partition_filters),
        )
    }
}

/// Whether filter sizes are tuned to the allocator.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_block_based_table_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_block_based_options_set_optimize_filters_for_memory(
    options: *mut rocksdb_block_based_table_options_t,
    optimize_filters_for_memory: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_block_based_options_set_optimize_filters_for_memory",
            |t| t.opts.optimize_filters_for_memory = ffi::c_bool(optimize_filters_for_memory),
        )
    }
}

/// Whether keys in blocks share prefixes with the previous key.
/// solistore: stores value only
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_block_based_table_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_block_based_options_set_use_delta_encoding(
    options: *mut rocksdb_block_based_table_options_t,
    use_delta_encoding: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_block_based_options_set_use_delta_encoding",
            |t| t.opts.use_delta_encoding = ffi::c_bool(use_delta_encoding),
        )
    }
}

/// Whether tables use no block cache at all (not even RocksDB's default 8 MiB one).
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_block_based_table_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_block_based_options_set_no_block_cache(
    options: *mut rocksdb_block_based_table_options_t,
    no_block_cache: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_block_based_options_set_no_block_cache",
            |t| t.opts.no_block_cache = ffi::c_bool(no_block_cache),
        )
    }
}

/// Whether whole keys go into the filter. solistore has no prefix filters, so with 0 no
/// filter is written.
///
/// # Safety
/// `block_based_table_options` must be NULL (the call is then ignored) or a live `rocksdb_block_based_table_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_block_based_options_set_whole_key_filtering(
    block_based_table_options: *mut rocksdb_block_based_table_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            block_based_table_options,
            "rocksdb_block_based_options_set_whole_key_filtering",
            |t| t.opts.whole_key_filtering = ffi::c_bool(v),
        )
    }
}

/// Table format version (RocksDB 7.8.3 writes 5).
/// solistore: stores value only
///
/// # Safety
/// `block_based_table_options` must be NULL (the call is then ignored) or a live `rocksdb_block_based_table_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_block_based_options_set_format_version(
    block_based_table_options: *mut rocksdb_block_based_table_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            block_based_table_options,
            "rocksdb_block_based_options_set_format_version",
            |t| t.opts.format_version = v,
        )
    }
}

/// Index type (`rocksdb_block_based_table_index_type_*`).
/// solistore: stores value only
///
/// # Safety
/// `block_based_table_options` must be NULL (the call is then ignored) or a live `rocksdb_block_based_table_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_block_based_options_set_index_type(
    block_based_table_options: *mut rocksdb_block_based_table_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            block_based_table_options,
            "rocksdb_block_based_options_set_index_type",
            |t| t.opts.index_type = v,
        )
    }
}

/// Data block index (`rocksdb_block_based_table_data_block_index_type_*`): with
/// `..._binary_search_and_hash`, new tables' data blocks carry a hash index that point
/// lookups use (solistore writes it only under the bytewise comparator; RocksDB also under the
/// reverse bytewise one). The default is `..._binary_search`, as in RocksDB.
///
/// # Safety
/// `block_based_table_options` must be NULL (the call is then ignored) or a live `rocksdb_block_based_table_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_block_based_options_set_data_block_index_type(
    block_based_table_options: *mut rocksdb_block_based_table_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            block_based_table_options,
            "rocksdb_block_based_options_set_data_block_index_type",
            |t| t.opts.data_block_index_type = v,
        )
    }
}

/// Fill ratio of the data block hash index (keys per bucket, 0.75 by default).
///
/// # Safety
/// `options` must be NULL (the call is then ignored) or a live `rocksdb_block_based_table_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_block_based_options_set_data_block_hash_ratio(
    options: *mut rocksdb_block_based_table_options_t,
    v: f64,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            options,
            "rocksdb_block_based_options_set_data_block_hash_ratio",
            |t| t.opts.data_block_hash_ratio = v,
        )
    }
}

/// Index block search (`rocksdb_block_based_table_index_block_search_type_*`).
/// solistore: stores value only
///
/// # Safety
/// `block_based_table_options` must be NULL (the call is then ignored) or a live `rocksdb_block_based_table_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_block_based_options_set_index_block_search_type(
    block_based_table_options: *mut rocksdb_block_based_table_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            block_based_table_options,
            "rocksdb_block_based_options_set_index_block_search_type",
            |t| t.opts.index_block_search_type = v,
        )
    }
}

/// Whether index and filter blocks live in the block cache (charged to it) instead of with
/// the open table.
///
/// # Safety
/// `block_based_table_options` must be NULL (the call is then ignored) or a live `rocksdb_block_based_table_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_block_based_options_set_cache_index_and_filter_blocks(
    block_based_table_options: *mut rocksdb_block_based_table_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            block_based_table_options,
            "rocksdb_block_based_options_set_cache_index_and_filter_blocks",
            |t| t.opts.cache_index_and_filter_blocks = ffi::c_bool(v),
        )
    }
}

/// Whether cached index and filter blocks get high priority.
/// solistore: stores value only
///
/// # Safety
/// `block_based_table_options` must be NULL (the call is then ignored) or a live `rocksdb_block_based_table_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_block_based_options_set_cache_index_and_filter_blocks_with_high_priority(
    block_based_table_options: *mut rocksdb_block_based_table_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            block_based_table_options,
            "rocksdb_block_based_options_set_cache_index_and_filter_blocks_with_high_priority",
            |t| t.opts.cache_index_and_filter_blocks_with_high_priority = ffi::c_bool(v),
        )
    }
}

/// Whether L0 index and filter blocks stay pinned in the cache (with
/// `cache_index_and_filter_blocks`; other levels' stay evictable).
///
/// # Safety
/// `block_based_table_options` must be NULL (the call is then ignored) or a live `rocksdb_block_based_table_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_block_based_options_set_pin_l0_filter_and_index_blocks_in_cache(
    block_based_table_options: *mut rocksdb_block_based_table_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            block_based_table_options,
            "rocksdb_block_based_options_set_pin_l0_filter_and_index_blocks_in_cache",
            |t| t.opts.pin_l0_filter_and_index_blocks_in_cache = ffi::c_bool(v),
        )
    }
}

/// Whether top-level partitioned index and filter blocks stay pinned.
/// solistore: stores value only
///
/// # Safety
/// `block_based_table_options` must be NULL (the call is then ignored) or a live `rocksdb_block_based_table_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_block_based_options_set_pin_top_level_index_and_filter(
    block_based_table_options: *mut rocksdb_block_based_table_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            block_based_table_options,
            "rocksdb_block_based_options_set_pin_top_level_index_and_filter",
            |t| t.opts.pin_top_level_index_and_filter = ffi::c_bool(v),
        )
    }
}

/// Pinning tier of top-level index blocks (`rocksdb_block_based_k_*_pinning_tier`).
/// solistore: stores value only
///
/// # Safety
/// `block_based_table_options` must be NULL (the call is then ignored) or a live `rocksdb_block_based_table_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_block_based_options_set_top_level_index_pinning_tier(
    block_based_table_options: *mut rocksdb_block_based_table_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            block_based_table_options,
            "rocksdb_block_based_options_set_top_level_index_pinning_tier",
            |t| t.opts.top_level_index_pinning_tier = v,
        )
    }
}

/// Pinning tier of index and filter partitions.
/// solistore: stores value only
///
/// # Safety
/// `block_based_table_options` must be NULL (the call is then ignored) or a live `rocksdb_block_based_table_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_block_based_options_set_partition_pinning_tier(
    block_based_table_options: *mut rocksdb_block_based_table_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            block_based_table_options,
            "rocksdb_block_based_options_set_partition_pinning_tier",
            |t| t.opts.partition_pinning_tier = v,
        )
    }
}

/// Pinning tier of unpartitioned index and filter blocks.
/// solistore: stores value only
///
/// # Safety
/// `block_based_table_options` must be NULL (the call is then ignored) or a live `rocksdb_block_based_table_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_block_based_options_set_unpartitioned_pinning_tier(
    block_based_table_options: *mut rocksdb_block_based_table_options_t,
    v: c_int,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            block_based_table_options,
            "rocksdb_block_based_options_set_unpartitioned_pinning_tier",
            |t| t.opts.unpartitioned_pinning_tier = v,
        )
    }
}

/// Whether data blocks are aligned to the page size.
/// solistore: stores value only
///
/// # Safety
/// `block_based_table_options` must be NULL (the call is then ignored) or a live `rocksdb_block_based_table_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_block_based_options_set_block_align(
    block_based_table_options: *mut rocksdb_block_based_table_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            block_based_table_options,
            "rocksdb_block_based_options_set_block_align",
            |t| t.opts.block_align = ffi::c_bool(v),
        )
    }
}

/// Whether data blocks store keys and values apart (11.x).
/// solistore: stores value only
///
/// # Safety
/// `block_based_table_options` must be NULL (the call is then ignored) or a live `rocksdb_block_based_table_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_block_based_options_set_separate_key_value_in_data_block(
    block_based_table_options: *mut rocksdb_block_based_table_options_t,
    v: c_uchar,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            block_based_table_options,
            "rocksdb_block_based_options_set_separate_key_value_in_data_block",
            |t| t.opts.separate_key_value_in_data_block = ffi::c_bool(v),
        )
    }
}

/// Block checksum type (4: XXH3, RocksDB 7.8.3's default).
/// solistore: stores value only
///
/// # Safety
/// `block_based_table_options` must be NULL (the call is then ignored) or a live `rocksdb_block_based_table_options_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_block_based_options_set_checksum(
    block_based_table_options: *mut rocksdb_block_based_table_options_t,
    v: c_char,
) {
    // SAFETY: forwarded contract.
    unsafe {
        set(
            block_based_table_options,
            "rocksdb_block_based_options_set_checksum",
            |t| t.opts.checksum = v,
        )
    }
}
