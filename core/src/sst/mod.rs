// SPDX-License-Identifier: Apache-2.0
//! RocksDB's block-based table (`.sst`) format: writing tables (background path: flush,
//! compaction, SST file writer) and reading them (read path: gets and iterators).
//!
//! File layout (docs/format/sst.md has the byte-level grammar and the sources):
//!
//! ```text
//! [data block + trailer]* [filter]? [index] [range_del]? [properties] [metaindex] [footer]
//! ```
//!
//! - [`format`]: block handles, trailers and checksums, footer.
//! - [`compression`]: Snappy / LZ4 framing and the 12.5 % rule.
//! - [`block`]: the block format shared by every block kind, its builder and cursor, and the
//!   in-memory restart prefixes that speed up an index block's searches.
//! - [`properties`]: the `rocksdb.properties` block.
//! - [`filter_api`]: the traits a filter implementation plugs into; [`filter`]: RocksDB's
//!   full filter (FastLocalBloom) behind them.
//! - [`builder`]: [`TableBuilder`]; [`reader`]: [`Table`]; [`table_iter`]: [`TableIterator`];
//!   `point_lookup`: a get's search of one table, without an iterator.
//! - [`block_cache`]: table blocks in the shared block cache.

pub mod block;
pub mod block_cache;
pub mod builder;
pub mod compression;
pub mod filter;
pub mod filter_api;
pub mod format;
pub(crate) mod point_lookup;
pub mod properties;
pub mod reader;
pub mod table_iter;

#[cfg(test)]
mod oracle_tests;
#[cfg(test)]
mod tests;

pub use builder::{TableBuilder, TableBuilderOptions, TableInfo};
pub use compression::CompressionType;
pub use format::{BlockHandle, ChecksumType, Footer};
pub use properties::TableProperties;
pub use reader::{PosixRandomAccessFile, RandomAccessFile, Table, TableReaderOptions};
pub use table_iter::TableIterator;
