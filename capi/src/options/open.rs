// SPDX-License-Identifier: Apache-2.0
//! What `rocksdb_open*` and `rocksdb_create_column_family` take from a `rocksdb_options_t`
//! (config path, at open): the engine's [`ColumnFamilyOptions`] completed with the stored
//! values the engine now honours.
//!
//! - Block-based table options (`rocksdb_options_set_block_based_table_factory`): the filter
//!   policy's bits per key (bloom; a ribbon policy writes a bloom filter of the same
//!   bits-per-key, which RocksDB readers accept), no filter without `whole_key_filtering`
//!   (solistore has no prefix filters), `block_size`, `cache_index_and_filter_blocks`, and the
//!   block cache: the one set, none with `no_block_cache`, else RocksDB's default of an 8 MiB
//!   LRU cache per table factory (shared by copies of the options, as RocksDB's factory is).
//!   Cuckoo and plain table factories are stored only: tables are block-based.
//! - Compression (`rocksdb_options_set_compression`, `_set_compression_per_level`): RocksDB's
//!   type codes; types solistore cannot write fail the open as RocksDB fails for a library not
//!   linked in (`Invalid argument: Compression type ZSTD is not linked with the binary.`),
//!   checking the per-level list when it is set and the single type otherwise, as RocksDB's
//!   `CheckCompressionSupported` does.
//! - The compaction filter and compaction filter factory (C callback adapters).

use std::ffi::c_int;
use std::sync::{Arc, OnceLock};

use engine::cache::LruCache;
use engine::compaction::filter::{CompactionFilter, CompactionFilterFactory};
use engine::options::ColumnFamilyOptions;
use engine::sst::CompressionType;
use engine::Error;

use super::rocksdb_options_t;
use super::stored::TableFactory;
use crate::filterpolicy::FilterPolicy;

/// RocksDB's block cache when a block-based table factory has none: 8 MiB, LRU.
const DEFAULT_BLOCK_CACHE_BYTES: usize = 8 << 20;

/// RocksDB's `kDisableCompressionOption`, the "unset" value of `bottommost_compression`.
const DISABLE_COMPRESSION_OPTION: c_int = 0xff;

/// The block cache RocksDB's table factory makes for itself when none is set: created at the
/// first open that needs it and shared by every copy of the options holding this cell (a
/// new table factory gets a new cell).
pub(crate) type DefaultBlockCache = Arc<OnceLock<Arc<LruCache>>>;

/// RocksDB's `CompressionTypeToString` for a C compression code.
fn compression_name(code: c_int) -> &'static str {
    if code == DISABLE_COMPRESSION_OPTION {
        return "DisableOption";
    }
    u8::try_from(code)
        .ok()
        .and_then(CompressionType::from_u8)
        .map_or("", CompressionType::name)
}

/// The engine's compression type for a RocksDB compression code (`rocksdb_*_compression`).
///
/// # Errors
/// `Invalid argument: Compression type <name> is not linked with the binary.` for a type the
/// engine cannot write (zlib, bzip2, LZ4HC, xpress, ZSTD) or an unknown code.
pub(crate) fn compression_type(code: c_int) -> Result<CompressionType, Error> {
    match u8::try_from(code).ok().and_then(CompressionType::from_u8) {
        Some(t) if t.can_write() => Ok(t),
        _ => Err(Error::invalid_argument(format!(
            "Compression type {} is not linked with the binary.",
            compression_name(code)
        ))),
    }
}

/// Bits per key of the filter a policy makes; None when no filter is written.
fn filter_bits(policy: &FilterPolicy, whole_key_filtering: bool) -> Option<f64> {
    // Without whole-key filtering RocksDB would filter prefixes only, and solistore has no
    // prefix filters: write none rather than an empty one.
    whole_key_filtering.then_some(policy.bits_per_key)
}

impl rocksdb_options_t {
    /// The column family options an open (or a column family creation) hands the engine.
    ///
    /// # Errors
    /// An unsupported compression type (see [`compression_type`]).
    pub(crate) fn engine_cf_options(&self) -> Result<ColumnFamilyOptions, Error> {
        let mut cf = self.cf.clone();
        let s = &self.s;
        if s.compression_per_level.is_empty() {
            cf.compression = compression_type(s.compression)?;
            cf.compression_per_level = Vec::new();
        } else {
            cf.compression_per_level = s
                .compression_per_level
                .iter()
                .map(|&c| compression_type(c))
                .collect::<Result<_, _>>()?;
            // Unused while the per-level list is set (RocksDB does not check it then either).
            cf.compression = compression_type(s.compression).unwrap_or(CompressionType::None);
        }
        if let TableFactory::BlockBased(t) = &s.table_factory {
            cf.block_size = t.block_size;
            cf.data_block_hash_ratio = (t.data_block_index_type
                == crate::constants::rocksdb_block_based_table_data_block_index_type_binary_search_and_hash)
                .then_some(t.data_block_hash_ratio);
            cf.cache_index_and_filter_blocks = t.cache_index_and_filter_blocks;
            cf.pin_l0_filter_and_index_blocks_in_cache = t.pin_l0_filter_and_index_blocks_in_cache;
            cf.bloom_bits_per_key = t
                .filter_policy
                .as_deref()
                .and_then(|p| filter_bits(p, t.whole_key_filtering));
            cf.block_cache = if t.no_block_cache {
                None
            } else {
                Some(match &t.block_cache {
                    Some(c) => Arc::clone(&c.lru),
                    None => Arc::clone(s.default_block_cache.get_or_init(|| {
                        Arc::new(LruCache::with_capacity(DEFAULT_BLOCK_CACHE_BYTES))
                    })),
                })
            };
        }
        cf.soft_pending_compaction_bytes_limit = s.soft_pending_compaction_bytes_limit as u64;
        cf.hard_pending_compaction_bytes_limit = s.hard_pending_compaction_bytes_limit as u64;
        cf.compaction_filter = s
            .compaction_filter
            .clone()
            .map(|f| f as Arc<dyn CompactionFilter>);
        cf.compaction_filter_factory = s
            .compaction_filter_factory
            .clone()
            .map(|f| f as Arc<dyn CompactionFilterFactory>);
        Ok(cf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block_based_options::BlockBasedTableOptions;
    use crate::cache::Cache;

    #[test]
    fn compression_codes() {
        assert_eq!(compression_type(0), Ok(CompressionType::None));
        assert_eq!(compression_type(1), Ok(CompressionType::Snappy));
        assert_eq!(compression_type(4), Ok(CompressionType::Lz4));
        for (code, name) in [
            (2, "Zlib"),
            (3, "BZip2"),
            (5, "LZ4HC"),
            (6, "Xpress"),
            (7, "ZSTD"),
            (0xff, "DisableOption"),
            (99, ""),
            (-1, ""),
        ] {
            let e = compression_type(code).expect_err("not writable");
            assert_eq!(
                e.to_string(),
                format!("Invalid argument: Compression type {name} is not linked with the binary.")
            );
        }
    }

    #[test]
    fn per_level_list_is_checked_instead_of_the_single_type() {
        let mut o = rocksdb_options_t::default();
        o.s.compression = 7;
        assert!(o.engine_cf_options().is_err());
        o.s.compression_per_level = vec![0, 1, 4];
        let cf = o.engine_cf_options().expect("per-level types are writable");
        assert_eq!(
            cf.compression_per_level,
            vec![
                CompressionType::None,
                CompressionType::Snappy,
                CompressionType::Lz4
            ]
        );
        o.s.compression_per_level = vec![0, 2];
        let e = o.engine_cf_options().expect_err("zlib");
        assert!(e.to_string().contains("Zlib"), "{e}");
    }

    #[test]
    fn block_based_options_reach_the_engine() {
        let mut o = rocksdb_options_t::default();
        let cf = o.engine_cf_options().expect("defaults open");
        assert_eq!(cf.compression, CompressionType::Snappy);
        assert_eq!(cf.bloom_bits_per_key, None);
        let default_cache = cf.block_cache.expect("RocksDB's default block cache");
        assert_eq!(default_cache.capacity(), DEFAULT_BLOCK_CACHE_BYTES);
        // A copy of the options shares the default cache, as it shares RocksDB's factory.
        let again = o.clone().engine_cf_options().expect("opens");
        assert!(Arc::ptr_eq(
            &default_cache,
            again.block_cache.as_ref().expect("cache")
        ));

        let cache = Arc::new(Cache::lru(1 << 20, false));
        o.s.table_factory = TableFactory::BlockBased(BlockBasedTableOptions {
            block_size: 16 * 1024,
            cache_index_and_filter_blocks: true,
            pin_l0_filter_and_index_blocks_in_cache: true,
            filter_policy: Some(Arc::new(FilterPolicy::bloom(10.0, false))),
            block_cache: Some(Arc::clone(&cache)),
            ..BlockBasedTableOptions::default()
        });
        let cf = o.engine_cf_options().expect("opens");
        assert_eq!(cf.block_size, 16 * 1024);
        assert!(cf.cache_index_and_filter_blocks);
        assert!(cf.pin_l0_filter_and_index_blocks_in_cache);
        assert_eq!(cf.bloom_bits_per_key, Some(10.0));
        assert!(Arc::ptr_eq(
            cf.block_cache.as_ref().expect("cache"),
            &cache.lru
        ));

        if let TableFactory::BlockBased(t) = &mut o.s.table_factory {
            t.whole_key_filtering = false;
            t.no_block_cache = true;
        }
        let cf = o.engine_cf_options().expect("opens");
        assert_eq!(cf.bloom_bits_per_key, None);
        assert!(cf.block_cache.is_none());
    }
}
