// SPDX-License-Identifier: Apache-2.0
//! Option values the C API accepts but the engine does not act on yet (config path): kept
//! so that every `rocksdb_options_get_*` returns what its setter stored, the OPTIONS file
//! can later record them, and the table and compaction work (issue 3) can honour them.
//!
//! Defaults are RocksDB 7.8.3's (`include/rocksdb/options.h`, `advanced_options.h`), checked
//! against Debian's librocksdb 7.8.3 by `tests::defaults_match_librocksdb`; options that 7.8.3
//! lacks take 11.1.2's. One exception: `info_log_level` is `INFO_LEVEL` (1), the release-build
//! default, where Debian's assertion-enabled build reports `DEBUG_LEVEL` (0).

use std::ffi::{c_int, c_uint};
use std::sync::Arc;

use crate::block_based_options::BlockBasedTableOptions;
use crate::cache::Cache;
use crate::compactionfilter::{CallbackCompactionFilter, CallbackCompactionFilterFactory};
use crate::env::Env;
use crate::ratelimiter::RateLimiter;
use crate::slicetransform::SliceTransform;

use super::open::DefaultBlockCache;
use super::statistics::Statistics;

/// `CompressionOptions` as the C API sets them (`rocksdb_options_set_compression_options*`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct CompressionOptions {
    pub(crate) window_bits: c_int,
    pub(crate) level: c_int,
    pub(crate) strategy: c_int,
    pub(crate) max_dict_bytes: c_int,
    pub(crate) zstd_max_train_bytes: c_int,
    pub(crate) parallel_threads: c_int,
    pub(crate) enabled: bool,
    pub(crate) max_dict_buffer_bytes: u64,
    pub(crate) use_zstd_dict_trainer: bool,
}

impl Default for CompressionOptions {
    fn default() -> Self {
        CompressionOptions {
            window_bits: -14,
            // RocksDB's `kDefaultCompressionLevel`.
            level: 32767,
            strategy: 0,
            max_dict_bytes: 0,
            zstd_max_train_bytes: 0,
            parallel_threads: 1,
            enabled: false,
            max_dict_buffer_bytes: 0,
            use_zstd_dict_trainer: true,
        }
    }
}

/// The table format chosen with `rocksdb_options_set_*_table_factory` (a copy taken at the
/// call, as RocksDB copies the table options into the factory).
#[derive(Clone, Debug)]
#[allow(
    dead_code,
    reason = "cuckoo and plain options are kept for their getters' sake; tables are block-based"
)]
pub(crate) enum TableFactory {
    BlockBased(BlockBasedTableOptions),
    Cuckoo(CuckooTableOptions),
    Plain(PlainTableOptions),
}

/// `CuckooTableOptions`, RocksDB's defaults.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct CuckooTableOptions {
    pub(crate) hash_table_ratio: f64,
    pub(crate) max_search_depth: u32,
    pub(crate) cuckoo_block_size: u32,
    pub(crate) identity_as_first_hash: bool,
    pub(crate) use_module_hash: bool,
}

impl Default for CuckooTableOptions {
    fn default() -> Self {
        CuckooTableOptions {
            hash_table_ratio: 0.9,
            max_search_depth: 100,
            cuckoo_block_size: 5,
            identity_as_first_hash: false,
            use_module_hash: true,
        }
    }
}

/// `PlainTableOptions` as `rocksdb_options_set_plain_table_factory` passes them.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PlainTableOptions {
    pub(crate) user_key_len: u32,
    pub(crate) bloom_bits_per_key: c_int,
    pub(crate) hash_table_ratio: f64,
    pub(crate) index_sparseness: usize,
    pub(crate) huge_page_tlb_size: usize,
    pub(crate) encoding_type: std::ffi::c_char,
    pub(crate) full_scan_mode: bool,
    pub(crate) store_index_in_file: bool,
}

/// The memtable representation (`rocksdb_options_set_memtable_vector_rep`, `_hash_*_rep`).
#[derive(Clone, Debug, PartialEq, Default)]
pub(crate) enum MemtableRep {
    #[default]
    SkipList,
    Vector,
    HashSkipList {
        bucket_count: usize,
        skiplist_height: i32,
        skiplist_branching_factor: i32,
    },
    HashLinkList {
        bucket_count: usize,
    },
}

/// `CompactionOptionsUniversal`, RocksDB's defaults.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct UniversalCompactionOptions {
    pub(crate) size_ratio: c_int,
    pub(crate) min_merge_width: c_int,
    pub(crate) max_merge_width: c_int,
    pub(crate) max_size_amplification_percent: c_int,
    pub(crate) compression_size_percent: c_int,
    pub(crate) stop_style: c_int,
}

impl Default for UniversalCompactionOptions {
    fn default() -> Self {
        UniversalCompactionOptions {
            size_ratio: 1,
            min_merge_width: 2,
            // UINT_MAX in RocksDB; the C getter returns it as int.
            max_merge_width: -1,
            max_size_amplification_percent: 200,
            compression_size_percent: -1,
            // kCompactionStopStyleTotalSize
            stop_style: 1,
        }
    }
}

/// `CompactionOptionsFIFO`, RocksDB's defaults.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FifoCompactionOptions {
    pub(crate) max_table_files_size: u64,
    pub(crate) allow_compaction: bool,
    pub(crate) max_data_files_size: u64,
    pub(crate) use_kv_ratio_compaction: bool,
}

impl Default for FifoCompactionOptions {
    fn default() -> Self {
        FifoCompactionOptions {
            max_table_files_size: 1 << 30,
            allow_compaction: false,
            max_data_files_size: 0,
            use_kv_ratio_compaction: false,
        }
    }
}

/// One `DbPath` (`rocksdb_dbpath_create`): a directory and its target size.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct DbPath {
    pub(crate) path: String,
    pub(crate) target_size: u64,
}

/// `NewCompactOnDeletionCollectorFactory` parameters
/// (`rocksdb_options_add_compact_on_deletion_collector_factory*`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct CompactOnDeletion {
    pub(crate) window_size: usize,
    pub(crate) num_dels_trigger: usize,
    pub(crate) deletion_ratio: f64,
    pub(crate) min_file_size: u64,
}

/// Everything `rocksdb_options_t` keeps besides the engine's own option structs. Plain values
/// are named after their C setter; shared objects are `Arc`s (copied with the options).
#[derive(Clone)]
pub(crate) struct StoredOptions {
    pub(crate) wal_size_limit_mb: u64,
    pub(crate) wal_ttl_seconds: u64,
    pub(crate) access_hint_on_compaction_start: c_int,
    pub(crate) advise_random_on_open: bool,
    pub(crate) allow_ingest_behind: bool,
    pub(crate) allow_mmap_reads: bool,
    pub(crate) allow_mmap_writes: bool,
    pub(crate) arena_block_size: usize,
    pub(crate) atomic_flush: bool,
    pub(crate) avoid_unnecessary_blocking_io: bool,
    pub(crate) blob_compaction_readahead_size: u64,
    pub(crate) blob_compression_type: c_int,
    pub(crate) blob_file_size: u64,
    pub(crate) blob_file_starting_level: c_int,
    pub(crate) blob_gc_age_cutoff: f64,
    pub(crate) blob_gc_force_threshold: f64,
    pub(crate) bloom_locality: u32,
    pub(crate) bottommost_compression: c_int,
    pub(crate) compaction_pri: c_int,
    pub(crate) compaction_readahead_size: usize,
    pub(crate) compaction_style: c_int,
    pub(crate) compression: c_int,
    pub(crate) dump_malloc_stats: bool,
    pub(crate) enable_blob_files: bool,
    pub(crate) enable_blob_gc: bool,
    pub(crate) enable_write_thread_adaptive_yield: bool,
    pub(crate) experimental_mempurge_threshold: f64,
    pub(crate) hard_pending_compaction_bytes_limit: usize,
    pub(crate) info_log_level: c_int,
    pub(crate) inplace_update_num_locks: usize,
    pub(crate) inplace_update_support: bool,
    pub(crate) is_fd_close_on_exec: bool,
    pub(crate) keep_log_file_num: usize,
    pub(crate) log_file_time_to_roll: usize,
    pub(crate) manifest_preallocation_size: usize,
    pub(crate) max_background_compactions: c_int,
    pub(crate) max_background_flushes: c_int,
    pub(crate) max_compaction_bytes: u64,
    pub(crate) max_file_opening_threads: c_int,
    pub(crate) max_log_file_size: usize,
    pub(crate) max_sequential_skip_in_iterations: u64,
    pub(crate) max_subcompactions: u32,
    pub(crate) max_successive_merges: usize,
    pub(crate) max_write_buffer_number_to_maintain: c_int,
    pub(crate) max_write_buffer_size_to_maintain: i64,
    pub(crate) memtable_avg_op_scan_flush_trigger: u32,
    pub(crate) memtable_huge_page_size: usize,
    pub(crate) memtable_op_scan_flush_trigger: u32,
    pub(crate) memtable_prefix_bloom_size_ratio: f64,
    pub(crate) memtable_whole_key_filtering: bool,
    pub(crate) min_blob_size: u64,
    pub(crate) open_files_async: bool,
    pub(crate) optimize_filters_for_hits: bool,
    pub(crate) periodic_compaction_seconds: u64,
    pub(crate) prepopulate_blob_cache: c_int,
    pub(crate) recycle_log_file_num: usize,
    pub(crate) report_bg_io_stats: bool,
    pub(crate) skip_checking_sst_file_sizes_on_db_open: bool,
    pub(crate) skip_stats_update_on_db_open: bool,
    pub(crate) soft_pending_compaction_bytes_limit: usize,
    pub(crate) stats_persist_period_sec: c_uint,
    pub(crate) table_cache_numshardbits: c_int,
    pub(crate) track_and_verify_wals_in_manifest: bool,
    pub(crate) ttl: u64,
    pub(crate) use_adaptive_mutex: bool,
    pub(crate) use_direct_io_for_flush_and_compaction: bool,
    pub(crate) use_direct_reads: bool,
    pub(crate) wal_compression: c_int,
    pub(crate) writable_file_max_buffer_size: u64,
    pub(crate) write_identity_file: bool,
    pub(crate) compression_opts: CompressionOptions,
    pub(crate) bottommost_compression_opts: CompressionOptions,
    /// Empty until `set_compression_per_level` / `set_min_level_to_compress`.
    pub(crate) compression_per_level: Vec<c_int>,
    pub(crate) max_bytes_for_level_multiplier_additional: Vec<c_int>,
    pub(crate) db_log_dir: String,
    pub(crate) table_factory: TableFactory,
    pub(crate) memtable_rep: MemtableRep,
    pub(crate) universal_compaction: UniversalCompactionOptions,
    pub(crate) fifo_compaction: FifoCompactionOptions,
    pub(crate) db_paths: Vec<DbPath>,
    pub(crate) cf_paths: Vec<DbPath>,
    pub(crate) compact_on_deletion: Vec<CompactOnDeletion>,
    /// Owned by the options (ownership transferred by `set_prefix_extractor`).
    pub(crate) prefix_extractor: Option<Arc<SliceTransform>>,
    /// Borrowed in RocksDB (raw pointer); here a share of the filter's adapter.
    pub(crate) compaction_filter: Option<Arc<CallbackCompactionFilter>>,
    /// Owned by the options (ownership transferred).
    pub(crate) compaction_filter_factory: Option<Arc<CallbackCompactionFilterFactory>>,
    pub(crate) row_cache: Option<Arc<Cache>>,
    pub(crate) blob_cache: Option<Arc<Cache>>,
    pub(crate) rate_limiter: Option<Arc<RateLimiter>>,
    /// The engine's manager, shared with every holder (`rocksdb_options_set_write_buffer_manager`).
    /// The write path picks it up from here (memtable memory accounting).
    pub(crate) write_buffer_manager: Option<Arc<engine::cache::WriteBufferManager>>,
    pub(crate) env: Option<Arc<Env>>,
    /// Shared by copies, as RocksDB's `shared_ptr<Statistics>` is.
    pub(crate) statistics: Option<Arc<Statistics>>,
    /// The block cache the block-based table factory makes when none is set; a new table
    /// factory gets a new cell (see `open`).
    pub(crate) default_block_cache: DefaultBlockCache,
}

impl Default for StoredOptions {
    fn default() -> Self {
        StoredOptions {
            wal_size_limit_mb: 0,
            wal_ttl_seconds: 0,
            access_hint_on_compaction_start: 1,
            advise_random_on_open: true,
            allow_ingest_behind: false,
            allow_mmap_reads: false,
            allow_mmap_writes: false,
            arena_block_size: 0,
            atomic_flush: false,
            avoid_unnecessary_blocking_io: false,
            blob_compaction_readahead_size: 0,
            blob_compression_type: 0,
            blob_file_size: 256 << 20,
            blob_file_starting_level: 0,
            blob_gc_age_cutoff: 0.25,
            blob_gc_force_threshold: 1.0,
            bloom_locality: 0,
            bottommost_compression: 0xff,
            compaction_pri: 3,
            compaction_readahead_size: 0,
            compaction_style: 0,
            compression: 1,
            dump_malloc_stats: false,
            enable_blob_files: false,
            enable_blob_gc: false,
            enable_write_thread_adaptive_yield: true,
            experimental_mempurge_threshold: 0.0,
            hard_pending_compaction_bytes_limit: 256 << 30,
            info_log_level: 1,
            inplace_update_num_locks: 10000,
            inplace_update_support: false,
            is_fd_close_on_exec: true,
            keep_log_file_num: 1000,
            log_file_time_to_roll: 0,
            manifest_preallocation_size: 4 << 20,
            max_background_compactions: -1,
            max_background_flushes: -1,
            max_compaction_bytes: 0,
            max_file_opening_threads: 16,
            max_log_file_size: 0,
            max_sequential_skip_in_iterations: 8,
            max_subcompactions: 1,
            max_successive_merges: 0,
            max_write_buffer_number_to_maintain: 0,
            max_write_buffer_size_to_maintain: 0,
            memtable_avg_op_scan_flush_trigger: 0,
            memtable_huge_page_size: 0,
            memtable_op_scan_flush_trigger: 0,
            memtable_prefix_bloom_size_ratio: 0.0,
            memtable_whole_key_filtering: false,
            min_blob_size: 0,
            open_files_async: false,
            optimize_filters_for_hits: false,
            periodic_compaction_seconds: 0xffff_ffff_ffff_fffe,
            prepopulate_blob_cache: 0,
            recycle_log_file_num: 0,
            report_bg_io_stats: false,
            skip_checking_sst_file_sizes_on_db_open: false,
            skip_stats_update_on_db_open: false,
            soft_pending_compaction_bytes_limit: 64 << 30,
            stats_persist_period_sec: 600,
            table_cache_numshardbits: 6,
            track_and_verify_wals_in_manifest: false,
            ttl: 0xffff_ffff_ffff_fffe,
            use_adaptive_mutex: false,
            use_direct_io_for_flush_and_compaction: false,
            use_direct_reads: false,
            wal_compression: 0,
            writable_file_max_buffer_size: 1 << 20,
            write_identity_file: true,
            compression_opts: CompressionOptions::default(),
            bottommost_compression_opts: CompressionOptions::default(),
            compression_per_level: Vec::new(),
            max_bytes_for_level_multiplier_additional: vec![1; 7],
            db_log_dir: String::new(),
            table_factory: TableFactory::BlockBased(BlockBasedTableOptions::default()),
            memtable_rep: MemtableRep::default(),
            universal_compaction: UniversalCompactionOptions::default(),
            fifo_compaction: FifoCompactionOptions::default(),
            db_paths: Vec::new(),
            cf_paths: Vec::new(),
            compact_on_deletion: Vec::new(),
            prefix_extractor: None,
            compaction_filter: None,
            compaction_filter_factory: None,
            row_cache: None,
            blob_cache: None,
            rate_limiter: None,
            write_buffer_manager: None,
            env: None,
            statistics: None,
            default_block_cache: DefaultBlockCache::default(),
        }
    }
}
