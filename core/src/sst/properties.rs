// SPDX-License-Identifier: Apache-2.0
//! The `rocksdb.properties` meta block: table statistics and settings as name → value pairs
//! (write path: table builder; read path: table open, `sst_dump --show_properties`).
//!
//! ```text
//! properties := block with restart interval INT32_MAX (one restart; every key shares a
//!               prefix with the one before), entries sorted by name bytewise
//! value      := varint64 (numbers) | raw bytes (strings) | fixed32 (index type)
//! ```
//!
//! Which names RocksDB 7.8.3 writes, and when, follows `PropertyBlockBuilder::AddTableProperty`
//! (`table/meta_blocks.cc`) and the block-based table's own collector
//! (`BlockBasedTablePropertiesCollector`).

use std::collections::BTreeMap;
use std::sync::Arc;

use super::block::{Block, BlockBuilder, BlockIter, KeyOrder};
use crate::error::{Error, Result};
use crate::iter::InternalIterator;
use crate::util::coding::{put_varint64, Decoder};

/// Property names (`TablePropertiesNames`, `BlockBasedTablePropertyNames`).
pub mod names {
    pub const DB_ID: &str = "rocksdb.creating.db.identity";
    pub const DB_SESSION_ID: &str = "rocksdb.creating.session.identity";
    pub const DB_HOST_ID: &str = "rocksdb.creating.host.identity";
    pub const ORIGINAL_FILE_NUMBER: &str = "rocksdb.original.file.number";
    pub const DATA_SIZE: &str = "rocksdb.data.size";
    pub const INDEX_SIZE: &str = "rocksdb.index.size";
    pub const INDEX_PARTITIONS: &str = "rocksdb.index.partitions";
    pub const TOP_LEVEL_INDEX_SIZE: &str = "rocksdb.top-level.index.size";
    pub const INDEX_KEY_IS_USER_KEY: &str = "rocksdb.index.key.is.user.key";
    pub const INDEX_VALUE_IS_DELTA_ENCODED: &str = "rocksdb.index.value.is.delta.encoded";
    pub const FILTER_SIZE: &str = "rocksdb.filter.size";
    pub const RAW_KEY_SIZE: &str = "rocksdb.raw.key.size";
    pub const RAW_VALUE_SIZE: &str = "rocksdb.raw.value.size";
    pub const NUM_DATA_BLOCKS: &str = "rocksdb.num.data.blocks";
    pub const NUM_ENTRIES: &str = "rocksdb.num.entries";
    pub const NUM_FILTER_ENTRIES: &str = "rocksdb.num.filter_entries";
    pub const DELETED_KEYS: &str = "rocksdb.deleted.keys";
    pub const MERGE_OPERANDS: &str = "rocksdb.merge.operands";
    pub const NUM_RANGE_DELETIONS: &str = "rocksdb.num.range-deletions";
    pub const FILTER_POLICY: &str = "rocksdb.filter.policy";
    pub const FORMAT_VERSION: &str = "rocksdb.format.version";
    pub const FIXED_KEY_LEN: &str = "rocksdb.fixed.key.length";
    pub const COLUMN_FAMILY_ID: &str = "rocksdb.column.family.id";
    pub const COLUMN_FAMILY_NAME: &str = "rocksdb.column.family.name";
    pub const COMPARATOR: &str = "rocksdb.comparator";
    pub const MERGE_OPERATOR: &str = "rocksdb.merge.operator";
    pub const PREFIX_EXTRACTOR_NAME: &str = "rocksdb.prefix.extractor.name";
    pub const PROPERTY_COLLECTORS: &str = "rocksdb.property.collectors";
    pub const COMPRESSION: &str = "rocksdb.compression";
    pub const COMPRESSION_OPTIONS: &str = "rocksdb.compression_options";
    pub const CREATION_TIME: &str = "rocksdb.creation.time";
    pub const OLDEST_KEY_TIME: &str = "rocksdb.oldest.key.time";
    pub const FILE_CREATION_TIME: &str = "rocksdb.file.creation.time";
    pub const SLOW_COMPRESSION_ESTIMATED_DATA_SIZE: &str =
        "rocksdb.sample_for_compression.slow.data.size";
    pub const FAST_COMPRESSION_ESTIMATED_DATA_SIZE: &str =
        "rocksdb.sample_for_compression.fast.data.size";
    pub const SEQNO_TIME_MAP: &str = "rocksdb.seqno.time.map";
    pub const INDEX_TYPE: &str = "rocksdb.block.based.table.index.type";
    pub const WHOLE_KEY_FILTERING: &str = "rocksdb.block.based.table.whole.key.filtering";
    pub const PREFIX_FILTERING: &str = "rocksdb.block.based.table.prefix.filtering";
}

/// Metaindex name of the properties block, and its pre-4.x name.
pub const PROPERTIES_BLOCK: &str = "rocksdb.properties";
pub const LEGACY_PROPERTIES_BLOCK: &str = "rocksdb.stats";

/// `rocksdb.column.family.id` of a table written outside a column family.
pub const UNKNOWN_COLUMN_FAMILY_ID: u64 = i32::MAX as u64;

/// The index types (`BlockBasedTableOptions::IndexType`).
pub const INDEX_TYPE_BINARY_SEARCH: u32 = 0;
pub const INDEX_TYPE_HASH_SEARCH: u32 = 1;
pub const INDEX_TYPE_TWO_LEVEL: u32 = 2;
pub const INDEX_TYPE_BINARY_SEARCH_WITH_FIRST_KEY: u32 = 3;

/// A table's properties. Numbers default to 0 and strings to empty when absent.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TableProperties {
    pub orig_file_number: u64,
    pub data_size: u64,
    pub index_size: u64,
    pub index_partitions: u64,
    pub top_level_index_size: u64,
    pub index_key_is_user_key: u64,
    pub index_value_is_delta_encoded: u64,
    pub filter_size: u64,
    pub raw_key_size: u64,
    pub raw_value_size: u64,
    pub num_data_blocks: u64,
    pub num_entries: u64,
    pub num_filter_entries: u64,
    pub num_deletions: u64,
    pub num_merge_operands: u64,
    pub num_range_deletions: u64,
    pub format_version: u64,
    pub fixed_key_len: u64,
    pub column_family_id: u64,
    pub creation_time: u64,
    pub oldest_key_time: u64,
    pub file_creation_time: u64,
    pub slow_compression_estimated_data_size: u64,
    pub fast_compression_estimated_data_size: u64,
    pub db_id: String,
    pub db_session_id: String,
    pub db_host_id: String,
    pub column_family_name: String,
    pub filter_policy_name: String,
    pub comparator_name: String,
    pub merge_operator_name: String,
    pub prefix_extractor_name: String,
    pub property_collectors_names: String,
    pub compression_name: String,
    pub compression_options: String,
    pub seqno_to_time_mapping: String,
    /// Every property that is not one of the fields above (user-collected ones, including the
    /// block-based table's index type and filtering flags).
    pub user_collected: BTreeMap<String, Vec<u8>>,
}

impl TableProperties {
    /// The index type from `rocksdb.block.based.table.index.type` (fixed32), binary search when
    /// absent.
    pub fn index_type(&self) -> u32 {
        match self.user_collected.get(names::INDEX_TYPE) {
            Some(v) if v.len() >= 4 => u32::from_le_bytes([v[0], v[1], v[2], v[3]]),
            _ => INDEX_TYPE_BINARY_SEARCH,
        }
    }

    /// Every property as RocksDB would store it, sorted by name.
    pub fn to_map(&self) -> BTreeMap<String, Vec<u8>> {
        let mut m: BTreeMap<String, Vec<u8>> = BTreeMap::new();
        let mut num = |name: &str, v: u64| {
            let mut b = Vec::new();
            put_varint64(&mut b, v);
            m.insert(name.to_string(), b);
        };
        use names::*;
        num(ORIGINAL_FILE_NUMBER, self.orig_file_number);
        num(RAW_KEY_SIZE, self.raw_key_size);
        num(RAW_VALUE_SIZE, self.raw_value_size);
        num(DATA_SIZE, self.data_size);
        num(INDEX_SIZE, self.index_size);
        if self.index_partitions != 0 {
            num(INDEX_PARTITIONS, self.index_partitions);
            num(TOP_LEVEL_INDEX_SIZE, self.top_level_index_size);
        }
        num(INDEX_KEY_IS_USER_KEY, self.index_key_is_user_key);
        num(
            INDEX_VALUE_IS_DELTA_ENCODED,
            self.index_value_is_delta_encoded,
        );
        num(NUM_ENTRIES, self.num_entries);
        num(NUM_FILTER_ENTRIES, self.num_filter_entries);
        num(DELETED_KEYS, self.num_deletions);
        num(MERGE_OPERANDS, self.num_merge_operands);
        num(NUM_RANGE_DELETIONS, self.num_range_deletions);
        num(NUM_DATA_BLOCKS, self.num_data_blocks);
        num(FILTER_SIZE, self.filter_size);
        num(FORMAT_VERSION, self.format_version);
        num(FIXED_KEY_LEN, self.fixed_key_len);
        num(COLUMN_FAMILY_ID, self.column_family_id);
        num(CREATION_TIME, self.creation_time);
        num(OLDEST_KEY_TIME, self.oldest_key_time);
        if self.file_creation_time > 0 {
            num(FILE_CREATION_TIME, self.file_creation_time);
        }
        if self.slow_compression_estimated_data_size > 0 {
            num(
                SLOW_COMPRESSION_ESTIMATED_DATA_SIZE,
                self.slow_compression_estimated_data_size,
            );
        }
        if self.fast_compression_estimated_data_size > 0 {
            num(
                FAST_COMPRESSION_ESTIMATED_DATA_SIZE,
                self.fast_compression_estimated_data_size,
            );
        }
        for (name, v) in [
            (DB_ID, &self.db_id),
            (DB_SESSION_ID, &self.db_session_id),
            (DB_HOST_ID, &self.db_host_id),
            (FILTER_POLICY, &self.filter_policy_name),
            (COMPARATOR, &self.comparator_name),
            (MERGE_OPERATOR, &self.merge_operator_name),
            (PREFIX_EXTRACTOR_NAME, &self.prefix_extractor_name),
            (PROPERTY_COLLECTORS, &self.property_collectors_names),
            (COLUMN_FAMILY_NAME, &self.column_family_name),
            (COMPRESSION, &self.compression_name),
            (COMPRESSION_OPTIONS, &self.compression_options),
            (SEQNO_TIME_MAP, &self.seqno_to_time_mapping),
        ] {
            if !v.is_empty() {
                m.insert(name.to_string(), v.as_bytes().to_vec());
            }
        }
        for (k, v) in &self.user_collected {
            m.entry(k.clone()).or_insert_with(|| v.clone());
        }
        m
    }

    /// The properties block's contents.
    pub fn encode_block(&self) -> Vec<u8> {
        let mut b = BlockBuilder::new(i32::MAX as usize);
        for (k, v) in self.to_map() {
            b.add(k.as_bytes(), &v);
        }
        b.finish()
    }

    /// Parses a raw name → value map. Unknown names go to `user_collected`; a malformed number
    /// is corruption.
    pub fn from_map(raw: &BTreeMap<String, Vec<u8>>) -> Result<TableProperties> {
        let mut p = TableProperties::default();
        for (name, v) in raw {
            let number = || -> Result<u64> {
                let mut d = Decoder::new(v);
                d.varint64()
                    .ok_or_else(|| Error::corruption(format!("bad property {name}")))
            };
            let text = || String::from_utf8_lossy(v).into_owned();
            use names::*;
            let slot: Option<&mut u64> = match name.as_str() {
                ORIGINAL_FILE_NUMBER => Some(&mut p.orig_file_number),
                DATA_SIZE => Some(&mut p.data_size),
                INDEX_SIZE => Some(&mut p.index_size),
                INDEX_PARTITIONS => Some(&mut p.index_partitions),
                TOP_LEVEL_INDEX_SIZE => Some(&mut p.top_level_index_size),
                INDEX_KEY_IS_USER_KEY => Some(&mut p.index_key_is_user_key),
                INDEX_VALUE_IS_DELTA_ENCODED => Some(&mut p.index_value_is_delta_encoded),
                FILTER_SIZE => Some(&mut p.filter_size),
                RAW_KEY_SIZE => Some(&mut p.raw_key_size),
                RAW_VALUE_SIZE => Some(&mut p.raw_value_size),
                NUM_DATA_BLOCKS => Some(&mut p.num_data_blocks),
                NUM_ENTRIES => Some(&mut p.num_entries),
                NUM_FILTER_ENTRIES => Some(&mut p.num_filter_entries),
                DELETED_KEYS => Some(&mut p.num_deletions),
                MERGE_OPERANDS => Some(&mut p.num_merge_operands),
                NUM_RANGE_DELETIONS => Some(&mut p.num_range_deletions),
                FORMAT_VERSION => Some(&mut p.format_version),
                FIXED_KEY_LEN => Some(&mut p.fixed_key_len),
                COLUMN_FAMILY_ID => Some(&mut p.column_family_id),
                CREATION_TIME => Some(&mut p.creation_time),
                OLDEST_KEY_TIME => Some(&mut p.oldest_key_time),
                FILE_CREATION_TIME => Some(&mut p.file_creation_time),
                SLOW_COMPRESSION_ESTIMATED_DATA_SIZE => {
                    Some(&mut p.slow_compression_estimated_data_size)
                }
                FAST_COMPRESSION_ESTIMATED_DATA_SIZE => {
                    Some(&mut p.fast_compression_estimated_data_size)
                }
                _ => None,
            };
            if let Some(slot) = slot {
                *slot = number()?;
                continue;
            }
            let s: Option<&mut String> = match name.as_str() {
                DB_ID => Some(&mut p.db_id),
                DB_SESSION_ID => Some(&mut p.db_session_id),
                DB_HOST_ID => Some(&mut p.db_host_id),
                FILTER_POLICY => Some(&mut p.filter_policy_name),
                COMPARATOR => Some(&mut p.comparator_name),
                MERGE_OPERATOR => Some(&mut p.merge_operator_name),
                PREFIX_EXTRACTOR_NAME => Some(&mut p.prefix_extractor_name),
                PROPERTY_COLLECTORS => Some(&mut p.property_collectors_names),
                COLUMN_FAMILY_NAME => Some(&mut p.column_family_name),
                COMPRESSION => Some(&mut p.compression_name),
                COMPRESSION_OPTIONS => Some(&mut p.compression_options),
                SEQNO_TIME_MAP => Some(&mut p.seqno_to_time_mapping),
                _ => None,
            };
            match s {
                Some(s) => *s = text(),
                None => {
                    p.user_collected.insert(name.clone(), v.clone());
                }
            }
        }
        Ok(p)
    }
}

/// Reads every entry of a properties (or any bytewise meta) block into a map.
pub fn decode_block(block: Block) -> Result<BTreeMap<String, Vec<u8>>> {
    let mut it = BlockIter::new(Arc::new(block), KeyOrder::Bytewise, None);
    let mut m = BTreeMap::new();
    it.seek_to_first();
    while it.valid() {
        m.insert(
            String::from_utf8_lossy(it.key()).into_owned(),
            it.value().to_vec(),
        );
        it.next();
    }
    it.status()?;
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_through_block() {
        let mut p = TableProperties {
            num_entries: 1234,
            raw_key_size: 1 << 40,
            column_family_id: UNKNOWN_COLUMN_FAMILY_ID,
            comparator_name: "leveldb.BytewiseComparator".into(),
            compression_name: "Snappy".into(),
            merge_operator_name: "nullptr".into(),
            ..Default::default()
        };
        p.user_collected
            .insert(names::INDEX_TYPE.into(), 0u32.to_le_bytes().to_vec());
        let block = Block::new(p.encode_block()).expect("parses");
        let raw = decode_block(block).expect("decodes");
        assert!(!raw.contains_key(names::FILE_CREATION_TIME), "conditional");
        assert!(!raw.contains_key(names::DB_ID), "conditional");
        assert_eq!(raw[names::COMPRESSION], b"Snappy");
        let back = TableProperties::from_map(&raw).expect("parses");
        assert_eq!(back, p);
        assert_eq!(back.index_type(), INDEX_TYPE_BINARY_SEARCH);
    }

    #[test]
    fn single_restart_point() {
        let p = TableProperties::default();
        let block = p.encode_block();
        let n = block.len();
        assert_eq!(&block[n - 8..], &[0, 0, 0, 0, 1, 0, 0, 0]);
    }

    #[test]
    fn malformed_number_is_corruption() {
        let mut raw = BTreeMap::new();
        raw.insert(names::NUM_ENTRIES.to_string(), vec![0x80]);
        assert!(TableProperties::from_map(&raw)
            .expect_err("bad varint")
            .is_corruption());
    }
}
