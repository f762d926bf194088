// SPDX-License-Identifier: Apache-2.0
//! Opens a block-based table and reads its blocks (read path: gets, iterators; background:
//! compaction inputs).
//!
//! Open reads, in order: the footer (last 53 bytes), the metaindex block, the properties block
//! (which says how the index is laid out), the index block, the range-deletion block, and, if
//! asked, the filter block. Data blocks are read on demand by [`super::TableIterator`],
//! through the block cache when the options name one (see [`super::block_cache`]).

use std::collections::BTreeMap;
use std::sync::Arc;

use super::block::{Block, BlockIter, IndexFormat, KeyOrder};
use super::block_cache::{
    block_charge, BlockCacheTickers, BlockKind, CachedFilter, TableCacheSlot,
};
use super::builder::{INDEX_BLOCK, RANGE_DEL_BLOCK};
use super::compression::{decompress_block, CompressionType};
use super::filter_api::{FilterBlockReader, FilterProbe, FilterReaderFactory, FULL_FILTER_PREFIX};
use super::format::{verify_block, BlockHandle, Footer, BLOCK_TRAILER_SIZE, FOOTER_LEN};
use super::point_lookup::HeldBlock;
use super::properties::{
    self, TableProperties, INDEX_TYPE_BINARY_SEARCH, INDEX_TYPE_BINARY_SEARCH_WITH_FIRST_KEY,
    INDEX_TYPE_HASH_SEARCH,
};
use super::table_iter::TableIterator;
use crate::cache::{Handle, LruCache, Priority};
use crate::error::{Error, Result};
use crate::iter::InternalIterator;
use crate::key::{
    parse_internal_key, BytewiseComparator, Comparator, InternalKeyComparator, SequenceNumber,
    ValueType, MAX_SEQUENCE_NUMBER,
};
use crate::range_del::RangeTombstone;

pub use crate::fs::posix::PosixRandomAccessFile;
pub use crate::fs::RandomAccessFile;

impl RandomAccessFile for Vec<u8> {
    fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>> {
        let start = usize::try_from(offset).unwrap_or(usize::MAX);
        match start.checked_add(len).and_then(|end| self.get(start..end)) {
            Some(b) => Ok(b.to_vec()),
            None => Err(Error::corruption(format!(
                "truncated block read at offset {offset}, expected {len} bytes"
            ))),
        }
    }
    fn size(&self) -> Result<u64> {
        Ok(self.len() as u64)
    }
}

/// Largest block read (with its trailer) that goes through the thread's scratch buffer;
/// larger ones, rare and mostly read once at open (index, filter), get a buffer of their own.
const MAX_SCRATCH_READ: usize = 64 << 10;

thread_local! {
    /// Each thread's buffer for a block's stored bytes (see `read_block_contents`).
    static SCRATCH: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// How to open a table.
#[derive(Clone)]
pub struct TableReaderOptions {
    /// The user comparator the table was written with.
    pub comparator: Arc<dyn Comparator>,
    /// Verify block checksums on every read (RocksDB's `ReadOptions::verify_checksums`,
    /// default true). The footer and meta blocks are always verified.
    pub verify_checksums: bool,
    /// The largest sequence number the MANIFEST records for the file, or `MAX_SEQUENCE_NUMBER`
    /// when unknown. An ingested external file (property `rocksdb.external_sst_file.version`
    /// of 2 or more) stores its keys with sequence 0 and is read as if every key had this
    /// sequence (or the file's `rocksdb.external_sst_file.global_seqno` when that is non-zero).
    pub largest_seqno: SequenceNumber,
    /// The table's file number: the middle part of its blocks' cache keys.
    pub file_number: u64,
    /// The shared cache for this table's blocks; `None` reads every block from the file.
    pub block_cache: Option<Arc<LruCache>>,
    /// The namespace of this table's blocks in `block_cache` (a [`LruCache::new_id`] value
    /// shared by the tables of one DB).
    pub cache_prefix: u64,
    /// Whether reads put the blocks they miss into the cache (RocksDB's
    /// `ReadOptions::fill_cache`, default true); [`Table::iter_with`] overrides it per
    /// iterator.
    pub fill_cache: bool,
    /// Keep the index block and the filter in `block_cache`, charged to it, instead of
    /// outside it.
    pub cache_index_and_filter_blocks: bool,
    /// With `cache_index_and_filter_blocks`: the open table holds pins on its index and
    /// filter blocks for its whole life. The DB sets it for level 0 tables when
    /// `pin_l0_filter_and_index_blocks_in_cache` is on (see [`super::block_cache`]).
    pub pin_index_and_filter_blocks: bool,
    /// Where to count cache hits, misses and inserts (one set per DB).
    pub block_cache_tickers: Option<Arc<BlockCacheTickers>>,
}

impl Default for TableReaderOptions {
    fn default() -> Self {
        TableReaderOptions {
            comparator: Arc::new(BytewiseComparator),
            verify_checksums: true,
            largest_seqno: MAX_SEQUENCE_NUMBER,
            file_number: 0,
            block_cache: None,
            cache_prefix: 0,
            fill_cache: true,
            cache_index_and_filter_blocks: false,
            pin_index_and_filter_blocks: false,
            block_cache_tickers: None,
        }
    }
}

/// Property holding an external (SstFileWriter) file's format version, fixed32.
pub const EXTERNAL_SST_VERSION: &str = "rocksdb.external_sst_file.version";
/// Property holding an external file's global sequence number, fixed64.
pub const EXTERNAL_SST_GLOBAL_SEQNO: &str = "rocksdb.external_sst_file.global_seqno";

/// The sequence number that replaces every key's in an ingested file, as RocksDB's
/// `GetGlobalSequenceNumber` (block_based_table_reader.cc) decides it.
fn global_seqno(
    raw: &BTreeMap<String, Vec<u8>>,
    largest_seqno: SequenceNumber,
) -> Result<Option<SequenceNumber>> {
    let fixed = |v: &Vec<u8>, n: usize| -> Result<u64> {
        let b = v
            .get(..n)
            .ok_or_else(|| Error::corruption("bad external sst file property"))?;
        let mut a = [0u8; 8];
        a[..n].copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    };
    let seqno_prop = raw.get(EXTERNAL_SST_GLOBAL_SEQNO);
    let Some(version) = raw.get(EXTERNAL_SST_VERSION) else {
        if seqno_prop.is_some() {
            return Err(Error::corruption(
                "A non-external sst file have global seqno property",
            ));
        }
        return Ok(None);
    };
    let version = fixed(version, 4)?;
    if version < 2 {
        if seqno_prop.is_some() || version != 1 {
            return Err(Error::corruption(format!(
                "An external sst file with version {version} have global seqno property"
            )));
        }
        return Ok(None);
    }
    let mut g = match seqno_prop {
        Some(v) => fixed(v, 8)?,
        None => 0,
    };
    if largest_seqno < MAX_SEQUENCE_NUMBER {
        if g == 0 {
            g = largest_seqno;
        }
        if g != largest_seqno {
            return Err(Error::corruption(format!(
                "An external sst file with version {version} have global seqno property with value {g}, while largest seqno in the file is {largest_seqno}"
            )));
        }
    }
    if g > MAX_SEQUENCE_NUMBER {
        return Err(Error::corruption(format!(
            "An external sst file with version {version} have global seqno property with value {g}, which is greater than kMaxSequenceNumber"
        )));
    }
    Ok(Some(g))
}

impl std::fmt::Debug for TableReaderOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TableReaderOptions")
            .field("comparator", &self.comparator.name())
            .field("verify_checksums", &self.verify_checksums)
            .field("file_number", &self.file_number)
            .field("block_cache", &self.block_cache.is_some())
            .field("cache_prefix", &self.cache_prefix)
            .field("fill_cache", &self.fill_cache)
            .field(
                "cache_index_and_filter_blocks",
                &self.cache_index_and_filter_blocks,
            )
            .finish_non_exhaustive()
    }
}

/// An open table. Share it as `Arc<Table>`; iterators keep it alive.
pub struct Table {
    file: Arc<dyn RandomAccessFile>,
    file_size: u64,
    opts: TableReaderOptions,
    icmp: InternalKeyComparator,
    footer: Footer,
    metaindex: BTreeMap<String, BlockHandle>,
    properties: TableProperties,
    raw_properties: BTreeMap<String, Vec<u8>>,
    index_block: Arc<Block>,
    index_order: KeyOrder,
    index_format: IndexFormat,
    /// How data block keys compare: internal keys under `icmp` (kept to lend, not clone).
    data_order: KeyOrder,
    range_tombstones: Vec<RangeTombstone>,
    filter_name: Option<String>,
    filter: Option<Arc<CachedFilter>>,
    global_seqno: Option<SequenceNumber>,
    /// The table was written without compression (property `rocksdb.compression` is
    /// `NoCompression`), so its blocks are read straight into buffers of their own.
    plain_blocks: bool,
    /// Where the blocks go in the block cache, when there is one.
    cache: Option<TableCacheSlot>,
    /// Pins on the cached index block and filter, held for the table's life.
    pinned_meta: Vec<Handle>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("file_size", &self.file_size)
            .field("footer", &self.footer)
            .field("num_entries", &self.properties.num_entries)
            .finish_non_exhaustive()
    }
}

impl Table {
    /// Opens the table held by `file`, whose size is `file_size` (from the MANIFEST or a stat).
    ///
    /// # Errors
    /// Corruption for a damaged footer, metaindex, properties or index block; NotSupported for
    /// table kinds and index types this reader does not handle.
    pub fn open(
        file: Arc<dyn RandomAccessFile>,
        file_size: u64,
        opts: TableReaderOptions,
    ) -> Result<Table> {
        Self::open_with_filter(file, file_size, opts, None)
    }

    /// Like [`open`](Self::open), also building a filter reader from the table's full filter
    /// block with `filter_factory`.
    ///
    /// # Errors
    /// As [`open`](Self::open).
    pub fn open_with_filter(
        file: Arc<dyn RandomAccessFile>,
        file_size: u64,
        opts: TableReaderOptions,
        filter_factory: Option<FilterReaderFactory<'_>>,
    ) -> Result<Table> {
        let tail_len = file_size.min(FOOTER_LEN as u64);
        let tail = file.read_at(file_size - tail_len, tail_len as usize)?;
        let footer = Footer::decode(&tail, file_size)?;
        let icmp = InternalKeyComparator::new(Arc::clone(&opts.comparator));
        let cache = opts.block_cache.as_ref().map(|c| TableCacheSlot {
            cache: Arc::clone(c),
            prefix: opts.cache_prefix,
            file_number: opts.file_number,
            tickers: opts.block_cache_tickers.clone(),
        });
        let mut table = Table {
            file,
            file_size,
            icmp: icmp.clone(),
            opts,
            footer,
            metaindex: BTreeMap::new(),
            properties: TableProperties::default(),
            raw_properties: BTreeMap::new(),
            index_block: Arc::new(Block::new(vec![0, 0, 0, 0, 1, 0, 0, 0])?),
            index_order: KeyOrder::Internal(icmp.clone()),
            index_format: IndexFormat::default(),
            data_order: KeyOrder::Internal(icmp),
            range_tombstones: Vec::new(),
            filter_name: None,
            filter: None,
            global_seqno: None,
            plain_blocks: false,
            cache,
            pinned_meta: Vec::new(),
        };

        // Metaindex.
        let meta_block = table.read_block(table.footer.metaindex_handle, true)?;
        let mut it = BlockIter::new(Arc::new(meta_block), KeyOrder::Bytewise, None);
        it.seek_to_first();
        while it.valid() {
            let h = BlockHandle::decode(it.value())?;
            table
                .metaindex
                .insert(String::from_utf8_lossy(it.key()).into_owned(), h);
            it.next();
        }
        it.status()?;

        // Properties.
        let props_handle = table
            .metaindex
            .get(properties::PROPERTIES_BLOCK)
            .or_else(|| table.metaindex.get(properties::LEGACY_PROPERTIES_BLOCK))
            .copied();
        if let Some(h) = props_handle {
            let block = table.read_block(h, true)?;
            table.raw_properties = properties::decode_block(block)?;
            table.properties = TableProperties::from_map(&table.raw_properties)?;
            table.global_seqno = global_seqno(&table.raw_properties, table.opts.largest_seqno)?;
            table.plain_blocks = table.properties.compression_name == CompressionType::None.name();
        }

        // Index.
        let index_type = table.properties.index_type();
        let has_first_key = match index_type {
            INDEX_TYPE_BINARY_SEARCH | INDEX_TYPE_HASH_SEARCH => false,
            INDEX_TYPE_BINARY_SEARCH_WITH_FIRST_KEY => true,
            other => {
                return Err(Error::not_supported(format!(
                    "index type {other} (partitioned index) is not supported"
                )))
            }
        };
        table.index_format = IndexFormat {
            value_delta_encoded: table.properties.index_value_is_delta_encoded != 0,
            has_first_key,
        };
        if table.properties.index_key_is_user_key != 0 {
            table.index_order = KeyOrder::UserKeys(table.icmp.clone());
        }
        let index_handle = match table.footer.index_handle {
            Some(h) => h,
            None => *table
                .metaindex
                .get(INDEX_BLOCK)
                .ok_or_else(|| Error::corruption("Index block handle not found in metaindex"))?,
        };
        table.index_block = table.meta_through_cache(index_handle, BlockKind::Index, |t| {
            let block = t
                .read_block(index_handle, true)?
                .with_restart_prefixes(&t.index_order, t.index_format);
            let charge = block_charge(&block);
            Ok((block, charge))
        })?;

        // Range deletions.
        if let Some(h) = table.metaindex.get(RANGE_DEL_BLOCK).copied() {
            let block = table.read_block(h, true)?;
            let mut it = BlockIter::new(
                Arc::new(block),
                KeyOrder::Internal(table.icmp.clone()),
                None,
            );
            it.seek_to_first();
            while it.valid() {
                let p = parse_internal_key(it.key())?;
                if p.value_type != ValueType::RangeDeletion {
                    return Err(Error::corruption(
                        "range-deletion block holds a key of another type",
                    ));
                }
                table.range_tombstones.push(RangeTombstone {
                    start: p.user_key.to_vec(),
                    end: it.value().to_vec(),
                    seq: p.sequence,
                });
                it.next();
            }
            it.status()?;
        }

        // Filter.
        let filter = table
            .metaindex
            .iter()
            .find(|(k, _)| k.starts_with(FULL_FILTER_PREFIX))
            .map(|(k, h)| (k[FULL_FILTER_PREFIX.len()..].to_string(), *h));
        if let Some((name, h)) = filter {
            let mut filter = table.meta_through_cache(h, BlockKind::Filter, |t| {
                let block = t.read_block_contents(h, true)?;
                let reader = filter_factory.and_then(|factory| factory(&block));
                let filter = CachedFilter { block, reader };
                let charge = filter.charge();
                Ok((filter, charge))
            })?;
            if filter.reader.is_none() {
                // Cached by a reader opened without a factory: build ours outside the cache.
                if let Some(reader) = filter_factory.and_then(|factory| factory(&filter.block)) {
                    filter = Arc::new(CachedFilter {
                        block: filter.block.clone(),
                        reader: Some(reader),
                    });
                }
            }
            table.filter_name = Some(name);
            table.filter = Some(filter);
        }
        Ok(table)
    }

    /// Loads a meta block (index or filter) at open. With `cache_index_and_filter_blocks`
    /// and a cache, it is looked up first and inserted after a read, and the table pins it
    /// when `pin_index_and_filter_blocks`; otherwise (or when the cache refuses it) the
    /// table alone holds it.
    fn meta_through_cache<T: std::any::Any + Send + Sync>(
        &mut self,
        h: BlockHandle,
        kind: BlockKind,
        read: impl FnOnce(&Table) -> Result<(T, usize)>,
    ) -> Result<Arc<T>> {
        let slot = match &self.cache {
            Some(slot) if self.opts.cache_index_and_filter_blocks => slot.clone(),
            _ => return Ok(Arc::new(read(self)?.0)),
        };
        let keep_pin = self.opts.pin_index_and_filter_blocks;
        if let Some((value, pin)) = slot.lookup::<T>(h.offset, kind) {
            if keep_pin {
                self.pinned_meta.push(pin);
            }
            return Ok(value);
        }
        let (value, charge) = read(self)?;
        let value = Arc::new(value);
        if let Some(pin) = slot.insert(h.offset, &value, charge, Priority::High) {
            if keep_pin {
                self.pinned_meta.push(pin);
            }
        }
        Ok(value)
    }

    /// Reads a block's stored bytes and trailer, verifies the checksum when asked, and returns
    /// the uncompressed contents.
    pub(crate) fn read_block_contents(&self, h: BlockHandle, verify: bool) -> Result<Vec<u8>> {
        let end = h.end_with_trailer();
        if end > self.file_size || h.size > usize::MAX as u64 {
            return Err(Error::corruption(format!(
                "block handle (offset {}, size {}) points past the end of the file ({} bytes)",
                h.offset, h.size, self.file_size
            )));
        }
        let len = h.size as usize + BLOCK_TRAILER_SIZE;
        if len <= MAX_SCRATCH_READ && !self.plain_blocks {
            // Stored bytes that decompress are needed only until they have: read them into
            // the thread's scratch buffer instead of a new zeroed allocation of their own.
            let done = SCRATCH.with(|s| {
                let mut s = s.try_borrow_mut().ok()?;
                if s.len() < len {
                    s.resize(len, 0);
                }
                Some(self.block_contents_from(h, verify, &mut s[..len]))
            });
            if let Some(done) = done {
                return done;
            }
        }
        // Read into a buffer of the block's own: a table written without compression stores
        // its blocks as they are used, so the buffer becomes the block (the trailer cut off)
        // with no copy out of the scratch buffer; blocks over MAX_SCRATCH_READ, and reads
        // that find the scratch buffer in use, come here too.
        let mut raw = vec![0u8; len];
        self.read_verified(h, verify, &mut raw)?;
        let n = h.size as usize;
        if raw[n] == 0 {
            raw.truncate(n);
            return Ok(raw);
        }
        decompress_block(&raw[..n], raw[n], self.footer.format_version)
    }

    /// Reads the block at `h` with its trailer into `raw` (exactly that long), verifies it
    /// when asked, and returns its uncompressed contents.
    fn block_contents_from(&self, h: BlockHandle, verify: bool, raw: &mut [u8]) -> Result<Vec<u8>> {
        self.read_verified(h, verify, raw)?;
        let n = h.size as usize;
        // Type 0 (stored as is) comes back as a copy.
        decompress_block(&raw[..n], raw[n], self.footer.format_version)
    }

    /// Reads the block at `h` with its trailer into `raw` (exactly that long) and verifies
    /// its checksum when asked.
    fn read_verified(&self, h: BlockHandle, verify: bool, raw: &mut [u8]) -> Result<()> {
        self.file.read_into(h.offset, raw)?;
        if verify {
            verify_block(
                self.footer.checksum_type,
                raw,
                self.footer.base_context_checksum,
                h.offset,
            )?;
        }
        Ok(())
    }

    pub(crate) fn read_block(&self, h: BlockHandle, verify: bool) -> Result<Block> {
        Block::new(self.read_block_contents(h, verify)?)
    }

    /// The data block at `h`: from the block cache when it is there, else read from the file
    /// (verifying per the options) and, when `fill_cache`, inserted. The handle, when any,
    /// pins the cached block; hold it while using the block.
    ///
    /// # Errors
    /// Corruption or I/O errors of the read; a cache that refuses the block is not an error.
    pub(crate) fn data_block(
        &self,
        h: BlockHandle,
        fill_cache: bool,
    ) -> Result<(Arc<Block>, Option<Handle>)> {
        let Some(slot) = &self.cache else {
            return Ok((
                Arc::new(self.read_block(h, self.opts.verify_checksums)?),
                None,
            ));
        };
        if let Some((block, pin)) = slot.lookup::<Block>(h.offset, BlockKind::Data) {
            return Ok((block, Some(pin)));
        }
        let block = Arc::new(self.read_block(h, self.opts.verify_checksums)?);
        let pin = if fill_cache {
            slot.insert(h.offset, &block, block_charge(&block), Priority::Low)
        } else {
            None
        };
        Ok((block, pin))
    }

    /// RocksDB's `ApproximateOffsetOf`: where keys at or after `key` (an internal key) begin
    /// in the file. The offset of the data block the index sends `key` to (the end of the last
    /// data block past the end), scaled from the data blocks' extent to the file size, so that
    /// the index, filter and properties count in proportion.
    pub fn approximate_offset_of(&self, key: &[u8]) -> u64 {
        let mut idx = self.new_index_iter();
        idx.seek_to_last();
        let data_size = if idx.valid() {
            let last = idx.block_handle();
            last.offset + last.size
        } else {
            0
        };
        if data_size == 0 {
            return 0;
        }
        idx.seek(key);
        let offset = if idx.valid() {
            idx.block_handle().offset
        } else {
            data_size
        };
        ((offset as f64 / data_size as f64) * self.file_size() as f64) as u64
    }

    /// The data block at `h` for a point lookup: borrowed from the block cache when it is
    /// there; else read from the file (verified per the options) and, when `fill_cache`,
    /// inserted unpinned.
    ///
    /// # Errors
    /// Corruption or I/O errors of the read; a cache that refuses the block is not an error.
    pub(crate) fn hold_data_block(&self, h: BlockHandle, fill_cache: bool) -> Result<HeldBlock> {
        let Some(slot) = &self.cache else {
            return Ok(HeldBlock::Owned(
                self.read_block(h, self.opts.verify_checksums)?,
            ));
        };
        if let Some(block) = slot.borrow::<Block>(h.offset, BlockKind::Data) {
            block.make_run_words(self.data_order(), self.global_seqno());
            return Ok(HeldBlock::Shared(block));
        }
        let block = Arc::new(self.read_block(h, self.opts.verify_checksums)?);
        if fill_cache {
            let hint = block.restart_array_addr();
            slot.insert_unpinned(h.offset, &block, hint, block_charge(&block), Priority::Low);
        }
        Ok(HeldBlock::Shared(block))
    }

    /// Starts loading the block cache bucket a [`Self::hold_data_block`] of `h` reads first.
    pub(crate) fn prefetch_data_block(&self, h: BlockHandle) {
        if let Some(slot) = &self.cache {
            slot.prefetch(h.offset);
        }
    }

    /// The index block, how its keys compare and how its values are laid out.
    pub(crate) fn index_parts(&self) -> (&Block, &KeyOrder, IndexFormat) {
        (&self.index_block, &self.index_order, self.index_format)
    }

    /// How data block keys compare.
    pub(crate) fn data_order(&self) -> &KeyOrder {
        &self.data_order
    }

    pub(crate) fn new_index_iter(&self) -> BlockIter {
        BlockIter::new(
            Arc::clone(&self.index_block),
            self.index_order.clone(),
            Some(self.index_format),
        )
    }

    /// The data blocks' index separators as user keys, each with its block's size: every
    /// key of a block is at most its separator (compaction uses them to cut subcompaction
    /// ranges by bytes).
    ///
    /// # Errors
    /// Corruption of the index block.
    pub(crate) fn data_block_anchors(&self) -> Result<Vec<(Vec<u8>, u64)>> {
        let user_keys = self.properties.index_key_is_user_key != 0;
        let mut out = Vec::new();
        let mut it = self.new_index_iter();
        it.seek_to_first();
        while it.valid() {
            let key = if user_keys {
                it.key().to_vec()
            } else {
                crate::key::internal_key::user_key(it.key()).to_vec()
            };
            out.push((key, it.block_handle().size));
            it.next();
        }
        it.status()?;
        Ok(out)
    }

    /// The sequence number every key is read with, for ingested external files.
    pub fn global_seqno(&self) -> Option<SequenceNumber> {
        self.global_seqno
    }

    pub(crate) fn internal_comparator(&self) -> &InternalKeyComparator {
        &self.icmp
    }

    /// A two-level cursor over every point entry; misses fill the cache per the options'
    /// `fill_cache`.
    pub fn iter(self: &Arc<Self>) -> TableIterator {
        TableIterator::new(Arc::clone(self), self.opts.fill_cache)
    }

    /// A cursor like [`iter`](Self::iter) that fills the block cache on misses only when
    /// `fill_cache` (RocksDB's `ReadOptions::fill_cache`; false for compaction inputs and
    /// one-off scans).
    pub fn iter_with(self: &Arc<Self>, fill_cache: bool) -> TableIterator {
        TableIterator::new(Arc::clone(self), fill_cache)
    }

    /// The table's file number, as given in the options.
    pub fn file_number(&self) -> u64 {
        self.opts.file_number
    }

    /// The block cache the table reads through, if any.
    pub fn block_cache(&self) -> Option<&Arc<LruCache>> {
        self.opts.block_cache.as_ref()
    }

    /// Bytes of index and filter blocks this table pins in the block cache (zero unless
    /// `cache_index_and_filter_blocks`).
    pub fn pinned_meta_charge(&self) -> usize {
        self.pinned_meta.iter().map(Handle::charge).sum()
    }

    /// A cursor positioned at the first entry whose internal key is `>= target`.
    pub fn seek(self: &Arc<Self>, target: &[u8]) -> TableIterator {
        let mut it = self.iter();
        it.seek(target);
        it
    }

    /// The first entry at or after `target` (an internal seek key), or `None` past the end.
    ///
    /// # Errors
    /// Corruption or I/O errors met while reading blocks.
    pub fn get(self: &Arc<Self>, target: &[u8]) -> Result<Option<(Vec<u8>, Vec<u8>)>> {
        let it = self.seek(target);
        it.status()?;
        Ok(it.valid().then(|| (it.key().to_vec(), it.value().to_vec())))
    }

    /// Checks every block's checksum (data, index, meta blocks), as `sst_dump
    /// --command=check --verify_checksum` does.
    ///
    /// # Errors
    /// The first corruption met.
    pub fn verify_checksums(&self) -> Result<()> {
        let mut idx = self.new_index_iter();
        idx.seek_to_first();
        while idx.valid() {
            self.read_block_contents(idx.block_handle(), true)?;
            idx.next();
        }
        idx.status()?;
        for h in self.metaindex.values() {
            self.read_block_contents(*h, true)?;
        }
        Ok(())
    }

    pub fn properties(&self) -> &TableProperties {
        &self.properties
    }

    /// Every property as stored, by name.
    pub fn raw_properties(&self) -> &BTreeMap<String, Vec<u8>> {
        &self.raw_properties
    }

    pub fn footer(&self) -> &Footer {
        &self.footer
    }

    pub fn file_size(&self) -> u64 {
        self.file_size
    }

    /// Metaindex entries: block name → handle.
    pub fn metaindex(&self) -> &BTreeMap<String, BlockHandle> {
        &self.metaindex
    }

    /// The table's range tombstones, in stored (internal-key) order, unfragmented.
    pub fn range_tombstones(&self) -> &[RangeTombstone] {
        &self.range_tombstones
    }

    /// The full filter block's contents, if the table has one.
    pub fn filter_block(&self) -> Option<&[u8]> {
        self.filter.as_ref().map(|f| f.block.as_slice())
    }

    /// The name after `fullfilter.` in the metaindex, e.g. `rocksdb.BuiltinBloomFilter`.
    pub fn filter_name(&self) -> Option<&str> {
        self.filter_name.as_deref()
    }

    /// False only when the filter proves `key` (a user key) absent. Without a filter reader,
    /// always true.
    pub fn key_may_match(&self, key: &[u8]) -> bool {
        self.filter_reader().is_none_or(|r| r.key_may_match(key))
    }

    /// [`Self::key_may_match`] of `probe`'s key.
    pub(crate) fn probe_may_match(&self, probe: &FilterProbe<'_>) -> bool {
        self.filter_reader()
            .is_none_or(|r| r.probe_may_match(probe))
    }

    /// Starts loading the filter line a [`Self::probe_may_match`] of `probe` reads.
    pub(crate) fn prefetch_filter(&self, probe: &FilterProbe<'_>) {
        if let Some(r) = self.filter_reader() {
            r.prefetch_probe(probe);
        }
    }

    fn filter_reader(&self) -> Option<&dyn FilterBlockReader> {
        self.filter.as_ref().and_then(|f| f.reader.as_deref())
    }
}
