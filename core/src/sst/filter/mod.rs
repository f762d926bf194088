// SPDX-License-Identifier: Apache-2.0
//! Full filter blocks of block-based tables (background path writes them, read path probes
//! them), bit-compatible with RocksDB 7.8.3 so that each side uses the other's filters.
//! Layout and rationale in `docs/format/filter.md`.
//!
//! ```text
//! filter_block  := bits[len] metadata[5]          (never compressed; plus the usual
//!                                                  5-byte block trailer in the file)
//! FastLocalBloom metadata (format_version >= 5):
//!   0xff                                  "new Bloom" marker (-1 as i8)
//!   0x00                                  sub-implementation: FastLocalBloom
//!   (log2(line_bytes) - 6) << 5 | probes  0 in the top 3 bits: 64-byte lines; probes 1..=30
//!   0x00 0x00                             reserved
//! legacy Bloom metadata (format_version < 5):
//!   num_probes:u8 (1..=127)  num_lines:fixed32
//! Standard128Ribbon metadata:
//!   0xfe  seed:u8  num_blocks:u24
//! ```
//!
//! - `len` is a multiple of 64: `round_up(ceil(n * millibits_per_key / 8000), 64)` for `n`
//!   entries ([`builder`]).
//! - Entry hash: [`hash::hash64`] (preview XXH3, seed 0) of the whole user key (no internal
//!   key trailer, no timestamp), and of its prefix when a prefix extractor is configured.
//! - Probe placement: [`bloom`].
//! - The metaindex key of the block is `"fullfilter.rocksdb.BuiltinBloomFilter"`
//!   ([`METAINDEX_KEY`]), for Bloom and Ribbon policies alike.

pub mod bloom;
pub mod builder;
pub mod hash;
pub mod reader;

#[cfg(test)]
mod oracle_tests;

pub use builder::FullFilterBuilder;
pub use reader::{FilterKind, FullFilterReader};

/// Bytes of filter metadata at the end of every built-in filter block.
pub const METADATA_LEN: usize = 5;
/// First metadata byte of FastLocalBloom (and future Bloom) filters: -1 as i8.
pub const NEW_BLOOM_MARKER: u8 = 0xff;
/// First metadata byte of Ribbon filters: -2 as i8.
pub const RIBBON_MARKER: u8 = 0xfe;
/// Second metadata byte of a FastLocalBloom filter.
pub const SUB_IMPL_FAST_LOCAL_BLOOM: u8 = 0;
/// Compatibility name of RocksDB's built-in filter policies (`kBuiltinFilterMetadataName`).
pub const BUILTIN_FILTER_NAME: &str = "rocksdb.BuiltinBloomFilter";
/// The metaindex entry pointing at a full (non-partitioned) built-in filter block.
pub const METAINDEX_KEY: &str = "fullfilter.rocksdb.BuiltinBloomFilter";

/// The filter reader for a table's full filter block (plugs into `Table::open_with_filter`).
pub fn reader_for(block: &[u8]) -> Option<Box<dyn crate::sst::filter_api::FilterBlockReader>> {
    Some(Box::new(FullFilterReader::new(block.to_vec())))
}

/// The filter builder new tables of a column family get: RocksDB's full Bloom filter when
/// `bloom_bits_per_key` is set.
pub fn builder_for(
    options: &crate::options::ColumnFamilyOptions,
) -> Option<Box<dyn crate::sst::filter_api::FilterBlockBuilder>> {
    let bits = options.bloom_bits_per_key?;
    FullFilterBuilder::new(bits)
        .map(|b| Box::new(b) as Box<dyn crate::sst::filter_api::FilterBlockBuilder>)
}

impl crate::sst::filter_api::FilterBlockBuilder for FullFilterBuilder {
    fn add_key(&mut self, key_or_prefix: &[u8]) {
        FullFilterBuilder::add_key(self, key_or_prefix)
    }
    fn finish(&mut self) -> Vec<u8> {
        FullFilterBuilder::finish(self)
    }
    fn name(&self) -> String {
        FullFilterBuilder::name(self)
    }
    fn policy_name(&self) -> String {
        "bloomfilter".to_string()
    }
}

impl crate::sst::filter_api::FilterBlockReader for FullFilterReader {
    fn key_may_match(&self, key: &[u8]) -> bool {
        FullFilterReader::key_may_match(self, key)
    }
    fn prefetch(&self, key: &[u8]) {
        FullFilterReader::prefetch(self, key)
    }
    fn probe_may_match(&self, probe: &crate::sst::filter_api::FilterProbe<'_>) -> bool {
        FullFilterReader::probe_may_match(self, probe)
    }
    fn prefetch_probe(&self, probe: &crate::sst::filter_api::FilterProbe<'_>) {
        FullFilterReader::prefetch_probe(self, probe)
    }
}
