// SPDX-License-Identifier: Apache-2.0
//! Options: what a DB, a column family, a read and a write are configured with.
//!
//! Names and defaults follow RocksDB's `include/rocksdb/options.h` so that the C API's setters
//! map one to one and the OPTIONS file can be written with RocksDB's names.

pub mod file;

use std::sync::Arc;

use crate::compaction::filter::{CompactionFilter, CompactionFilterFactory};
use crate::key::{BytewiseComparator, Comparator, SequenceNumber};
use crate::merge::MergeOperator;

/// How WAL recovery treats corruption (`WALRecoveryMode`, codes as in RocksDB).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(i32)]
pub enum WalRecoveryMode {
    /// Ignore a torn tail, fail on corruption elsewhere.
    TolerateCorruptedTailRecords = 0,
    /// Fail on any corruption, including a torn tail.
    AbsoluteConsistency = 1,
    /// Replay up to the first corruption and stop there (RocksDB's default).
    #[default]
    PointInTimeRecovery = 2,
    /// Skip corrupted records and continue.
    SkipAnyCorruptedRecords = 3,
}

impl WalRecoveryMode {
    pub fn from_i32(v: i32) -> Option<Self> {
        Some(match v {
            0 => Self::TolerateCorruptedTailRecords,
            1 => Self::AbsoluteConsistency,
            2 => Self::PointInTimeRecovery,
            3 => Self::SkipAnyCorruptedRecords,
            _ => return None,
        })
    }
}

/// Options that apply to the whole DB (RocksDB's `DBOptions`).
#[derive(Clone, Debug)]
pub struct DbOptions {
    pub create_if_missing: bool,
    pub error_if_exists: bool,
    pub create_missing_column_families: bool,
    pub paranoid_checks: bool,
    pub wal_recovery_mode: WalRecoveryMode,
    /// When set, WAL writes stay in a user-space buffer until `flush_wal`.
    pub manual_wal_flush: bool,
    pub max_total_wal_size: u64,
    pub max_manifest_file_size: u64,
    pub max_background_jobs: i32,
    /// Legacy limits; when either is not -1 they replace the split of `max_background_jobs`
    /// (RocksDB's `GetBGJobLimits`).
    pub max_background_compactions: i32,
    pub max_background_flushes: i32,
    /// Threads one compaction (L0 to the base level, or manual) may split its key range over.
    pub max_subcompactions: u32,
    /// Paces flush and compaction writes; may be shared by several DBs.
    pub rate_limiter: Option<Arc<crate::util::rate_limiter::RateLimiter>>,
    pub max_open_files: i32,
    pub use_fsync: bool,
    pub bytes_per_sync: u64,
    pub wal_bytes_per_sync: u64,
    pub avoid_flush_during_shutdown: bool,
    pub avoid_flush_during_recovery: bool,
    pub enable_pipelined_write: bool,
    pub unordered_write: bool,
    pub allow_concurrent_memtable_write: bool,
    pub db_write_buffer_size: u64,
    /// Written to the OPTIONS file; open refuses any directory but the DB's own (the WAL
    /// always lives there).
    pub wal_dir: Option<String>,
    pub delete_obsolete_files_period_micros: u64,
    pub stats_dump_period_sec: u32,
    pub write_dbid_to_manifest: bool,
    /// A memtable budget shared with other DBs (and optionally charged to a block cache).
    /// When None and `db_write_buffer_size` > 0, the DB makes a private one.
    pub write_buffer_manager: Option<Arc<crate::cache::WriteBufferManager>>,
    /// The file system every file of the DB goes through (RocksDB's `Env`/`FileSystem`);
    /// None is the real one. Tests put a `fs::fault::FaultFs` here.
    pub file_system: Option<Arc<dyn crate::fs::FileSystem>>,
    /// How long automatic recovery from a full disk waits between attempts (RocksDB's
    /// `SstFileManager` retries every 5 seconds); None turns automatic recovery off (only
    /// `Db::resume` recovers; RocksDB's listeners can do the same). Tests set it.
    #[doc(hidden)]
    pub bg_error_recovery_interval: Option<std::time::Duration>,
}

impl DbOptions {
    /// The file system of these options: `file_system`, or the real one.
    pub fn fs(&self) -> Arc<dyn crate::fs::FileSystem> {
        self.file_system
            .clone()
            .unwrap_or_else(crate::fs::default_fs)
    }
}

impl Default for DbOptions {
    fn default() -> Self {
        DbOptions {
            create_if_missing: false,
            error_if_exists: false,
            create_missing_column_families: false,
            paranoid_checks: true,
            wal_recovery_mode: WalRecoveryMode::default(),
            manual_wal_flush: false,
            max_total_wal_size: 0,
            max_manifest_file_size: 1024 * 1024 * 1024,
            max_background_jobs: 2,
            max_background_compactions: -1,
            max_background_flushes: -1,
            max_subcompactions: 1,
            rate_limiter: None,
            max_open_files: -1,
            use_fsync: false,
            bytes_per_sync: 0,
            wal_bytes_per_sync: 0,
            avoid_flush_during_shutdown: false,
            avoid_flush_during_recovery: false,
            enable_pipelined_write: false,
            unordered_write: false,
            allow_concurrent_memtable_write: true,
            db_write_buffer_size: 0,
            wal_dir: None,
            delete_obsolete_files_period_micros: 6 * 60 * 60 * 1_000_000,
            stats_dump_period_sec: 600,
            write_dbid_to_manifest: false,
            write_buffer_manager: None,
            file_system: None,
            bg_error_recovery_interval: Some(std::time::Duration::from_secs(5)),
        }
    }
}

/// RocksDB's `data_block_hash_table_util_ratio` default.
pub const DEFAULT_DATA_BLOCK_HASH_RATIO: f64 = 0.75;

/// A data-block hash ratio as tables use it: one that is not positive and finite is read as
/// [`DEFAULT_DATA_BLOCK_HASH_RATIO`].
pub fn usable_hash_ratio(r: f64) -> f64 {
    if r.is_finite() && r > 0.0 {
        r
    } else {
        DEFAULT_DATA_BLOCK_HASH_RATIO
    }
}

/// Options of one column family (RocksDB's `ColumnFamilyOptions`).
#[derive(Clone)]
pub struct ColumnFamilyOptions {
    pub comparator: Arc<dyn Comparator>,
    pub merge_operator: Option<Arc<dyn MergeOperator>>,
    pub compaction_filter: Option<Arc<dyn CompactionFilter>>,
    pub compaction_filter_factory: Option<Arc<dyn CompactionFilterFactory>>,
    /// Bloom filter bits per key for new tables; None writes no filter.
    pub bloom_bits_per_key: Option<f64>,
    /// Compression of new tables' blocks (RocksDB's default: Snappy).
    pub compression: crate::sst::CompressionType,
    /// Per-level compression; when non-empty, level `i` uses entry `min(i, len - 1)`.
    pub compression_per_level: Vec<crate::sst::CompressionType>,
    /// The shared block cache for table blocks (None: no caching of blocks).
    pub block_cache: Option<Arc<crate::cache::LruCache>>,
    /// Charge index and filter blocks to the block cache (RocksDB's default: false, they
    /// are kept with the open table).
    pub cache_index_and_filter_blocks: bool,
    pub block_size: usize,
    /// The data-block hash index of new tables (`data_block_index_type =
    /// kDataBlockBinaryAndHash`) with this `data_block_hash_table_util_ratio`; None writes
    /// binary-search blocks only (`kDataBlockBinarySearch`, RocksDB's default). solistore
    /// writes it only under the bytewise comparator (RocksDB also under the reverse one; see
    /// [`Self::effective_data_block_hash_ratio`]). The default is RocksDB's, binary search
    /// only: with the index, 1M-key readrandom took 8% less CPU per key with a 512 MiB block
    /// cache but 15% more with an 8 MiB one (bench/results/2026-12-02-full-3.md).
    pub data_block_hash_ratio: Option<f64>,
    pub write_buffer_size: usize,
    pub max_write_buffer_number: i32,
    pub min_write_buffer_number_to_merge: i32,
    pub num_levels: i32,
    pub level0_file_num_compaction_trigger: i32,
    pub level0_slowdown_writes_trigger: i32,
    pub level0_stop_writes_trigger: i32,
    /// Writes slow down once compactions are this many bytes behind (0: never).
    pub soft_pending_compaction_bytes_limit: u64,
    /// Writes stop once compactions are this many bytes behind (0: never).
    pub hard_pending_compaction_bytes_limit: u64,
    pub target_file_size_base: u64,
    pub target_file_size_multiplier: i32,
    pub max_bytes_for_level_base: u64,
    pub max_bytes_for_level_multiplier: f64,
    pub level_compaction_dynamic_level_bytes: bool,
    pub disable_auto_compactions: bool,
    /// With `cache_index_and_filter_blocks`, keep level 0 tables' index and filter blocks
    /// pinned in the block cache (other levels' stay evictable).
    pub pin_l0_filter_and_index_blocks_in_cache: bool,
}

impl std::fmt::Debug for ColumnFamilyOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ColumnFamilyOptions")
            .field("comparator", &self.comparator.name())
            .field(
                "merge_operator",
                &self.merge_operator.as_ref().map(|m| m.name().to_string()),
            )
            .field("write_buffer_size", &self.write_buffer_size)
            .finish_non_exhaustive()
    }
}

impl ColumnFamilyOptions {
    /// The data-block hash index new tables really get: none under a comparator other than
    /// the bytewise one, and a ratio that is not positive and finite read as the default.
    pub fn effective_data_block_hash_ratio(&self) -> Option<f64> {
        let r = self.data_block_hash_ratio?;
        self.comparator.is_bytewise().then(|| usable_hash_ratio(r))
    }
}

impl Default for ColumnFamilyOptions {
    fn default() -> Self {
        ColumnFamilyOptions {
            comparator: Arc::new(BytewiseComparator),
            merge_operator: None,
            compaction_filter: None,
            compaction_filter_factory: None,
            bloom_bits_per_key: None,
            compression: crate::sst::CompressionType::Snappy,
            compression_per_level: Vec::new(),
            block_cache: None,
            cache_index_and_filter_blocks: false,
            block_size: 4096,
            data_block_hash_ratio: None,
            write_buffer_size: 64 << 20,
            max_write_buffer_number: 2,
            min_write_buffer_number_to_merge: 1,
            num_levels: 7,
            level0_file_num_compaction_trigger: 4,
            level0_slowdown_writes_trigger: 20,
            level0_stop_writes_trigger: 36,
            soft_pending_compaction_bytes_limit: 64 << 30,
            hard_pending_compaction_bytes_limit: 256 << 30,
            target_file_size_base: 64 << 20,
            target_file_size_multiplier: 1,
            max_bytes_for_level_base: 256 << 20,
            max_bytes_for_level_multiplier: 10.0,
            level_compaction_dynamic_level_bytes: false,
            disable_auto_compactions: false,
            pin_l0_filter_and_index_blocks_in_cache: false,
        }
    }
}

/// Options for one write (`WriteOptions`).
#[derive(Clone, Debug, Default)]
pub struct WriteOptions {
    /// fdatasync the WAL before the write returns.
    pub sync: bool,
    /// Skip the WAL: the write is lost on crash unless flushed.
    pub disable_wal: bool,
    pub ignore_missing_column_families: bool,
    pub no_slowdown: bool,
    pub low_pri: bool,
}

/// Options for one read or iterator (`ReadOptions`).
#[derive(Clone, Debug)]
pub struct ReadOptions {
    /// Read as of this sequence number (a snapshot); None reads the latest.
    pub snapshot: Option<SequenceNumber>,
    pub iterate_lower_bound: Option<Vec<u8>>,
    pub iterate_upper_bound: Option<Vec<u8>>,
    pub verify_checksums: bool,
    pub fill_cache: bool,
    pub total_order_seek: bool,
    pub prefix_same_as_start: bool,
    pub pin_data: bool,
    pub tailing: bool,
    pub readahead_size: usize,
    pub max_skippable_internal_keys: u64,
    pub ignore_range_deletions: bool,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            snapshot: None,
            iterate_lower_bound: None,
            iterate_upper_bound: None,
            verify_checksums: true,
            fill_cache: true,
            total_order_seek: false,
            prefix_same_as_start: false,
            pin_data: false,
            tailing: false,
            readahead_size: 0,
            max_skippable_internal_keys: 0,
            ignore_range_deletions: false,
        }
    }
}
