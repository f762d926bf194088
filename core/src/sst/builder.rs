// SPDX-License-Identifier: Apache-2.0
//! Writes a block-based table from sorted internal keys (background path: flush and
//! compaction; also SST file writers).
//!
//! Order of what lands in the file (RocksDB's `BlockBasedTableBuilder::Finish`):
//!
//! ```text
//! data block* | filter ("fullfilter.<name>")? | index | range_del? | properties | metaindex | footer
//! ```
//!
//! Each block is followed by its 5-byte trailer. A data block is cut before an entry when the
//! block already holds `block_size` bytes, or when the entry would push it past `block_size` and
//! it is already above 90 % of it (`FlushBlockBySizePolicy`). Each cut emits one index entry whose
//! key separates the block's last key from the next block's first key.

use std::sync::Arc;

use super::block::BlockBuilder;
use super::compression::{CompressionType, Compressor};
use super::filter_api::{FilterBlockBuilder, FULL_FILTER_PREFIX};
use super::format::{block_trailer, BlockHandle, ChecksumType, Footer};
use super::properties::{self, names, TableProperties, UNKNOWN_COLUMN_FAMILY_ID};
use crate::error::{Error, Result};
use crate::fs::WritableFile;
use crate::key::internal_key::user_key;
use crate::key::{
    append_internal_key, pack_seq_and_type, parse_internal_key, BytewiseComparator, Comparator,
    InternalKeyComparator, SequenceNumber, ValueType, MAX_SEQUENCE_NUMBER, VALUE_TYPE_FOR_SEEK,
};
use crate::util::coding::put_varint64;

/// Metaindex name of the range-deletion block.
pub const RANGE_DEL_BLOCK: &str = "rocksdb.range_del";
/// Metaindex name of the index block (format_version >= 6 only).
pub const INDEX_BLOCK: &str = "rocksdb.index";

/// `rocksdb.compression_options` for RocksDB's default `CompressionOptions`.
pub const DEFAULT_COMPRESSION_OPTIONS: &str = "window_bits=-14; level=32767; strategy=0; \
max_dict_bytes=0; zstd_max_train_bytes=0; enabled=0; max_dict_buffer_bytes=0; \
use_zstd_dict_trainer=1; ";

/// Settings of one table being built. Defaults follow RocksDB 7.8.3's
/// `BlockBasedTableOptions` and `ColumnFamilyOptions`.
pub struct TableBuilderOptions {
    /// The user comparator; its name goes into `rocksdb.comparator`.
    pub comparator: Arc<dyn Comparator>,
    pub block_size: usize,
    /// Percentage of `block_size` below which a block is never cut early.
    pub block_size_deviation: usize,
    pub block_restart_interval: usize,
    pub index_block_restart_interval: usize,
    /// Data blocks get a hash index with this utilisation ratio (see
    /// [`super::block::BlockBuilder::with_hash_index`]); honoured only under the bytewise
    /// comparator.
    pub data_block_hash_ratio: Option<f64>,
    /// 2..=5 are readable by RocksDB 7.8.3; 6 adds context checksums (RocksDB >= 8.6).
    pub format_version: u32,
    pub checksum: ChecksumType,
    /// None, Snappy or LZ4 (others are rejected by `TableBuilder::new`).
    pub compression: CompressionType,
    pub compression_options: String,
    pub enable_index_compression: bool,
    /// `None` is written as RocksDB writes a missing merge operator: `nullptr`.
    pub merge_operator_name: Option<String>,
    pub column_family_id: u64,
    pub column_family_name: String,
    pub prefix_extractor_name: Option<String>,
    pub filter: Option<Box<dyn FilterBlockBuilder>>,
    pub whole_key_filtering: bool,
    pub creation_time: u64,
    pub oldest_key_time: u64,
    pub file_creation_time: u64,
    pub db_id: String,
    pub db_session_id: String,
    pub db_host_id: String,
    pub orig_file_number: u64,
    /// Shorten index separators (`kShortenSeparators`, RocksDB's default).
    pub shorten_index_keys: bool,
    /// Extra properties stored as they are (e.g. `rocksdb.external_sst_file.version` for an
    /// SST file writer); built-in names win over these.
    pub user_properties: std::collections::BTreeMap<String, Vec<u8>>,
}

impl Default for TableBuilderOptions {
    fn default() -> Self {
        TableBuilderOptions {
            comparator: Arc::new(BytewiseComparator),
            block_size: 4096,
            block_size_deviation: 10,
            block_restart_interval: 16,
            index_block_restart_interval: 1,
            data_block_hash_ratio: None,
            format_version: 5,
            checksum: ChecksumType::Xxh3,
            compression: CompressionType::Snappy,
            compression_options: DEFAULT_COMPRESSION_OPTIONS.to_string(),
            enable_index_compression: true,
            merge_operator_name: None,
            column_family_id: UNKNOWN_COLUMN_FAMILY_ID,
            column_family_name: String::new(),
            prefix_extractor_name: None,
            filter: None,
            whole_key_filtering: true,
            creation_time: 0,
            oldest_key_time: 0,
            file_creation_time: 0,
            db_id: String::new(),
            db_session_id: String::new(),
            db_host_id: String::new(),
            orig_file_number: 0,
            shorten_index_keys: true,
            user_properties: std::collections::BTreeMap::new(),
        }
    }
}

impl std::fmt::Debug for TableBuilderOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TableBuilderOptions")
            .field("comparator", &self.comparator.name())
            .field("block_size", &self.block_size)
            .field("format_version", &self.format_version)
            .field("checksum", &self.checksum)
            .field("compression", &self.compression)
            .field("filter", &self.filter.as_ref().map(|f| f.name()))
            .finish_non_exhaustive()
    }
}

/// What a finished table holds, for the MANIFEST entry and the caller's statistics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableInfo {
    pub file_size: u64,
    /// Smallest and largest internal keys, covering range tombstones (a tombstone's end is
    /// represented by `end@MAX_SEQ` of type RangeDeletion); empty for an empty table.
    pub smallest: Vec<u8>,
    pub largest: Vec<u8>,
    /// Smallest and largest sequence numbers of all entries (0, 0 when empty).
    pub smallest_seqno: SequenceNumber,
    pub largest_seqno: SequenceNumber,
    pub num_entries: u64,
    pub num_deletions: u64,
    pub num_range_deletions: u64,
    pub num_merge_operands: u64,
    pub raw_key_size: u64,
    pub raw_value_size: u64,
    pub properties: TableProperties,
}

/// Writes one table. Call [`add`](Self::add) with strictly increasing internal keys, then
/// [`finish`](Self::finish) (or drop to abandon).
pub struct TableBuilder {
    opts: TableBuilderOptions,
    icmp: InternalKeyComparator,
    file: Box<dyn WritableFile>,
    offset: u64,
    data_block: BlockBuilder,
    deviation_limit: usize,
    index_with_seq: BlockBuilder,
    index_user_keys: BlockBuilder,
    separator_is_key_plus_seq: bool,
    value_delta: bool,
    last_index_handle: Option<BlockHandle>,
    pending_handle: Option<BlockHandle>,
    last_key: Vec<u8>,
    last_filter_key: Option<Vec<u8>>,
    range_dels: Vec<(Vec<u8>, Vec<u8>)>,
    props: TableProperties,
    smallest: Option<Vec<u8>>,
    largest: Option<Vec<u8>>,
    smallest_seqno: SequenceNumber,
    largest_seqno: SequenceNumber,
    base_context_checksum: u32,
    closed: bool,
    /// Codec state and output space, reused for every block.
    compressor: Compressor,
    /// The finished data block, reused for every block.
    raw_block: Vec<u8>,
    /// A block and its trailer as appended, reused for every block.
    write_buf: Vec<u8>,
}

impl std::fmt::Debug for TableBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TableBuilder")
            .field("opts", &self.opts)
            .field("offset", &self.offset)
            .field("num_entries", &self.props.num_entries)
            .finish_non_exhaustive()
    }
}

/// Appends `contents` and its trailer (type `ctype`, checksum of kind `checksum.0` with base
/// context `checksum.1`) to `file` at `*offset`, through `buf`; returns the block's handle.
fn append_block(
    file: &mut dyn WritableFile,
    offset: &mut u64,
    buf: &mut Vec<u8>,
    checksum: (ChecksumType, u32),
    contents: &[u8],
    ctype: u8,
) -> Result<BlockHandle> {
    let handle = BlockHandle::new(*offset, contents.len() as u64);
    let trailer = block_trailer(checksum.0, contents, ctype, checksum.1, handle.offset);
    buf.clear();
    buf.extend_from_slice(contents);
    buf.extend_from_slice(&trailer);
    file.append(buf)?;
    *offset += buf.len() as u64;
    Ok(handle)
}

fn random_nonzero_u32() -> u32 {
    use std::collections::hash_map::RandomState;
    use std::hash::{BuildHasher, Hasher};
    loop {
        let mut h = RandomState::new().build_hasher();
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0),
        );
        let v = h.finish() as u32;
        if v != 0 {
            return v;
        }
    }
}

impl TableBuilder {
    /// Starts a table that is written to `file` (which should be empty).
    ///
    /// # Errors
    /// InvalidArgument for a format_version outside 2..=6, or a compression type this crate
    /// cannot write.
    pub fn new(opts: TableBuilderOptions, file: Box<dyn WritableFile>) -> Result<TableBuilder> {
        if !(2..=6).contains(&opts.format_version) {
            return Err(Error::invalid_argument(format!(
                "cannot write format_version {}",
                opts.format_version
            )));
        }
        if !opts.compression.can_write() {
            return Err(Error::invalid_argument(format!(
                "{} compression is not supported by this build",
                opts.compression.name()
            )));
        }
        let icmp = InternalKeyComparator::new(Arc::clone(&opts.comparator));
        let value_delta = opts.format_version >= 4;
        let mk_index = || {
            if value_delta {
                BlockBuilder::new_value_delta(opts.index_block_restart_interval)
            } else {
                BlockBuilder::new(opts.index_block_restart_interval)
            }
        };
        let index_with_seq = mk_index();
        let index_user_keys = mk_index();
        let deviation_limit =
            (opts.block_size * (100 - opts.block_size_deviation.min(100))).div_ceil(100);
        let mut props = TableProperties {
            column_family_id: opts.column_family_id,
            column_family_name: opts.column_family_name.clone(),
            creation_time: opts.creation_time,
            oldest_key_time: opts.oldest_key_time,
            file_creation_time: opts.file_creation_time,
            orig_file_number: opts.orig_file_number,
            db_id: opts.db_id.clone(),
            db_session_id: opts.db_session_id.clone(),
            db_host_id: opts.db_host_id.clone(),
            ..Default::default()
        };
        props.comparator_name = opts.comparator.name().to_string();
        let base_context_checksum = if opts.format_version >= 6 {
            random_nonzero_u32()
        } else {
            0
        };
        Ok(TableBuilder {
            data_block: match opts.data_block_hash_ratio {
                Some(ratio) if opts.comparator.is_bytewise() => {
                    BlockBuilder::new(opts.block_restart_interval).with_hash_index(ratio)
                }
                _ => BlockBuilder::new(opts.block_restart_interval),
            },
            deviation_limit,
            index_with_seq,
            index_user_keys,
            separator_is_key_plus_seq: opts.format_version <= 2,
            value_delta,
            last_index_handle: None,
            pending_handle: None,
            last_key: Vec::new(),
            last_filter_key: None,
            range_dels: Vec::new(),
            props,
            smallest: None,
            largest: None,
            smallest_seqno: MAX_SEQUENCE_NUMBER,
            largest_seqno: 0,
            base_context_checksum,
            closed: false,
            compressor: Compressor::new(),
            raw_block: Vec::new(),
            write_buf: Vec::new(),
            icmp,
            file,
            offset: 0,
            opts,
        })
    }

    /// Entries added so far (points and range tombstones).
    pub fn num_entries(&self) -> u64 {
        self.props.num_entries
    }

    /// Bytes written so far; the final file is somewhat larger.
    pub fn file_size(&self) -> u64 {
        self.offset
    }

    fn note_bounds(&mut self, lo: &[u8], hi: &[u8], seq: SequenceNumber) {
        if self
            .smallest
            .as_ref()
            .is_none_or(|s| self.icmp.compare(lo, s).is_lt())
        {
            self.smallest = Some(lo.to_vec());
        }
        if self
            .largest
            .as_ref()
            .is_none_or(|l| self.icmp.compare(hi, l).is_gt())
        {
            self.largest = Some(hi.to_vec());
        }
        self.smallest_seqno = self.smallest_seqno.min(seq);
        self.largest_seqno = self.largest_seqno.max(seq);
    }

    /// Adds an entry. Point keys must be strictly increasing in internal-key order; an entry of
    /// type RangeDeletion (key `start@seq`, value the exclusive end) goes to the range-deletion
    /// block instead, in any order.
    ///
    /// # Errors
    /// InvalidArgument for a malformed or out-of-order key; I/O errors from the file.
    pub fn add(&mut self, key: &[u8], value: &[u8]) -> Result<()> {
        if self.closed {
            return Err(Error::invalid_argument("table builder already finished"));
        }
        let parsed = parse_internal_key(key).map_err(|e| Error::invalid_argument(e.message()))?;
        let seq = parsed.sequence;
        match parsed.value_type {
            ValueType::RangeDeletion => {
                let mut end = Vec::with_capacity(value.len() + 8);
                append_internal_key(
                    &mut end,
                    value,
                    MAX_SEQUENCE_NUMBER,
                    ValueType::RangeDeletion,
                );
                self.note_bounds(key, &end, seq);
                self.range_dels.push((key.to_vec(), value.to_vec()));
                self.props.num_deletions += 1;
                self.props.num_range_deletions += 1;
            }
            t => {
                if self.props.num_entries > self.props.num_range_deletions
                    && !self.icmp.compare(key, &self.last_key).is_gt()
                {
                    return Err(Error::invalid_argument(
                        "keys must be added to a table in increasing order",
                    ));
                }
                if !self.data_block.is_empty() && self.should_cut(key, value) {
                    self.flush_data_block()?;
                }
                if let Some(handle) = self.pending_handle.take() {
                    self.add_index_entry(Some(key), handle);
                }
                if let Some(f) = self.opts.filter.as_mut() {
                    if self.opts.whole_key_filtering {
                        let uk = parsed.user_key;
                        if self.last_filter_key.as_deref() != Some(uk) {
                            f.add_key(uk);
                            self.props.num_filter_entries += 1;
                            self.last_filter_key = Some(uk.to_vec());
                        }
                    }
                }
                self.data_block.add(key, value);
                self.last_key.clear();
                self.last_key.extend_from_slice(key);
                self.note_bounds(key, key, seq);
                match t {
                    ValueType::Deletion | ValueType::SingleDeletion => {
                        self.props.num_deletions += 1
                    }
                    ValueType::Merge => self.props.num_merge_operands += 1,
                    _ => {}
                }
            }
        }
        self.props.num_entries += 1;
        self.props.raw_key_size += key.len() as u64;
        self.props.raw_value_size += value.len() as u64;
        Ok(())
    }

    /// Adds the range tombstone `[start, end)` at `seq`.
    ///
    /// # Errors
    /// As [`add`](Self::add).
    pub fn add_range_tombstone(
        &mut self,
        start: &[u8],
        end: &[u8],
        seq: SequenceNumber,
    ) -> Result<()> {
        if seq > MAX_SEQUENCE_NUMBER {
            return Err(Error::invalid_argument("sequence number too large"));
        }
        let mut key = Vec::with_capacity(start.len() + 8);
        append_internal_key(&mut key, start, seq, ValueType::RangeDeletion);
        self.add(&key, end)
    }

    fn should_cut(&self, key: &[u8], value: &[u8]) -> bool {
        let cur = self.data_block.current_size_estimate();
        if cur >= self.opts.block_size {
            return true;
        }
        if self.deviation_limit == 0 {
            return false;
        }
        self.data_block.estimate_size_after(key, value) > self.opts.block_size
            && cur > self.deviation_limit
    }

    /// Writes `contents` (already compressed or not) with its trailer; returns its handle.
    fn write_raw_block(&mut self, contents: &[u8], ctype: u8) -> Result<BlockHandle> {
        append_block(
            &mut *self.file,
            &mut self.offset,
            &mut self.write_buf,
            (self.opts.checksum, self.base_context_checksum),
            contents,
            ctype,
        )
    }

    fn write_block(&mut self, raw: &[u8], compress: bool) -> Result<BlockHandle> {
        let t = self.opts.compression;
        let stored = if compress && t != CompressionType::None {
            self.compressor.compress(raw, t)
        } else {
            None
        };
        let (contents, ctype) = match stored {
            Some(c) => (c, t as u8),
            None => (raw, 0),
        };
        append_block(
            &mut *self.file,
            &mut self.offset,
            &mut self.write_buf,
            (self.opts.checksum, self.base_context_checksum),
            contents,
            ctype,
        )
    }

    fn flush_data_block(&mut self) -> Result<()> {
        if self.data_block.is_empty() {
            return Ok(());
        }
        let mut raw = std::mem::take(&mut self.raw_block);
        self.data_block.finish_into(&mut raw);
        let written = self.write_block(&raw, true);
        self.raw_block = raw;
        let handle = written?;
        self.props.data_size = self.offset;
        self.props.num_data_blocks += 1;
        self.pending_handle = Some(handle);
        Ok(())
    }

    /// Emits the index entry for the block that ended with `self.last_key`.
    fn add_index_entry(&mut self, next_first_key: Option<&[u8]>, handle: BlockHandle) {
        let mut sep = self.last_key.clone();
        if let Some(next) = next_first_key {
            if self.opts.shorten_index_keys {
                self.shorten_separator(&mut sep, next);
            }
            if !self.separator_is_key_plus_seq
                && self
                    .icmp
                    .compare_user(user_key(&self.last_key), user_key(next))
                    .is_eq()
            {
                self.separator_is_key_plus_seq = true;
            }
        }
        let full = handle.encoded();
        let mut delta = Vec::new();
        if let (true, Some(prev)) = (self.value_delta, self.last_index_handle) {
            let d = handle.size.wrapping_sub(prev.size) as i64;
            put_varint64(&mut delta, ((d << 1) ^ (d >> 63)) as u64);
        }
        self.last_index_handle = Some(handle);
        self.index_with_seq.add_with_delta(&sep, &full, &delta);
        if !self.separator_is_key_plus_seq {
            self.index_user_keys
                .add_with_delta(user_key(&sep), &full, &delta);
        }
    }

    /// RocksDB's `FindShortestInternalKeySeparator`: shorten the user key when that keeps it
    /// between the two keys, and give it the earliest possible trailer.
    fn shorten_separator(&self, start: &mut Vec<u8>, limit: &[u8]) {
        let ustart = user_key(start);
        let mut tmp = ustart.to_vec();
        self.opts
            .comparator
            .find_shortest_separator(&mut tmp, user_key(limit));
        if tmp.len() <= ustart.len() && self.opts.comparator.compare(ustart, &tmp).is_lt() {
            tmp.extend_from_slice(
                &pack_seq_and_type(MAX_SEQUENCE_NUMBER, VALUE_TYPE_FOR_SEEK).to_le_bytes(),
            );
            *start = tmp;
        }
    }

    /// Writes the remaining blocks and the footer, flushes the file (a buffering file hands
    /// its bytes to the file system) but syncs nothing (the caller decides), and
    /// returns what the table holds.
    ///
    /// # Errors
    /// I/O errors from the file.
    pub fn finish(mut self) -> Result<TableInfo> {
        if self.closed {
            return Err(Error::invalid_argument("table builder already finished"));
        }
        self.closed = true;
        let had_data = !self.data_block.is_empty();
        self.flush_data_block()?;
        if had_data {
            if let Some(handle) = self.pending_handle.take() {
                self.add_index_entry(None, handle);
            }
        }
        let mut meta: Vec<(String, BlockHandle)> = Vec::new();

        // 1. Filter.
        if let Some(mut f) = self.opts.filter.take() {
            if self.props.num_filter_entries > 0 {
                let contents = f.finish();
                self.props.filter_size = contents.len() as u64;
                self.props.filter_policy_name = f.policy_name();
                let h = self.write_raw_block(&contents, 0)?;
                meta.push((format!("{FULL_FILTER_PREFIX}{}", f.name()), h));
            }
        }

        // 2. Index.
        let index_raw = if self.separator_is_key_plus_seq {
            self.index_with_seq.finish()
        } else {
            self.index_user_keys.finish()
        };
        self.props.index_size = (index_raw.len() + super::format::BLOCK_TRAILER_SIZE) as u64;
        self.props.index_key_is_user_key = u64::from(!self.separator_is_key_plus_seq);
        self.props.index_value_is_delta_encoded = u64::from(self.value_delta);
        let index_handle = self.write_block(&index_raw, self.opts.enable_index_compression)?;
        if self.opts.format_version >= 6 {
            meta.push((INDEX_BLOCK.to_string(), index_handle));
        }

        // 3. Range deletions, sorted by internal key.
        if !self.range_dels.is_empty() {
            let icmp = self.icmp.clone();
            let mut dels = std::mem::take(&mut self.range_dels);
            dels.sort_by(|a, b| icmp.compare(&a.0, &b.0));
            let mut b = BlockBuilder::new(1);
            for (k, v) in &dels {
                b.add(k, v);
            }
            let raw = b.finish();
            let h = self.write_raw_block(&raw, 0)?;
            meta.push((RANGE_DEL_BLOCK.to_string(), h));
        }

        // 4. Properties.
        self.fill_properties();
        let props_raw = self.props.encode_block();
        let h = self.write_raw_block(&props_raw, 0)?;
        meta.push((properties::PROPERTIES_BLOCK.to_string(), h));

        // 5. Metaindex, sorted by name.
        meta.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        let mut mb = BlockBuilder::new(1);
        for (name, h) in &meta {
            mb.add(name.as_bytes(), &h.encoded());
        }
        let meta_raw = mb.finish();
        let metaindex_handle = self.write_raw_block(&meta_raw, 0)?;

        // 6. Footer.
        let footer = Footer {
            format_version: self.opts.format_version,
            checksum_type: self.opts.checksum,
            metaindex_handle,
            index_handle: (self.opts.format_version < 6).then_some(index_handle),
            base_context_checksum: self.base_context_checksum,
        };
        let enc = footer.encode(self.offset)?;
        self.file.append(&enc)?;
        self.offset += enc.len() as u64;
        self.file.flush()?;

        let empty = self.props.num_entries == 0;
        Ok(TableInfo {
            file_size: self.offset,
            smallest: self.smallest.take().unwrap_or_default(),
            largest: self.largest.take().unwrap_or_default(),
            smallest_seqno: if empty { 0 } else { self.smallest_seqno },
            largest_seqno: self.largest_seqno,
            num_entries: self.props.num_entries,
            num_deletions: self.props.num_deletions,
            num_range_deletions: self.props.num_range_deletions,
            num_merge_operands: self.props.num_merge_operands,
            raw_key_size: self.props.raw_key_size,
            raw_value_size: self.props.raw_value_size,
            properties: self.props.clone(),
        })
    }

    fn fill_properties(&mut self) {
        let o = &self.opts;
        let p = &mut self.props;
        for (k, v) in &o.user_properties {
            p.user_collected.insert(k.clone(), v.clone());
        }
        p.merge_operator_name = o
            .merge_operator_name
            .clone()
            .unwrap_or_else(|| "nullptr".to_string());
        p.prefix_extractor_name = o
            .prefix_extractor_name
            .clone()
            .unwrap_or_else(|| "nullptr".to_string());
        p.property_collectors_names = "[]".to_string();
        p.compression_name = o.compression.name().to_string();
        p.compression_options = o.compression_options.clone();
        p.user_collected.insert(
            names::INDEX_TYPE.to_string(),
            super::properties::INDEX_TYPE_BINARY_SEARCH
                .to_le_bytes()
                .to_vec(),
        );
        p.user_collected.insert(
            names::WHOLE_KEY_FILTERING.to_string(),
            if o.whole_key_filtering {
                b"1".to_vec()
            } else {
                b"0".to_vec()
            },
        );
        p.user_collected.insert(
            names::PREFIX_FILTERING.to_string(),
            if o.prefix_extractor_name.is_some() {
                b"1".to_vec()
            } else {
                b"0".to_vec()
            },
        );
    }
}
