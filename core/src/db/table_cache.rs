// SPDX-License-Identifier: Apache-2.0
//! Open table readers, by file number, and point lookups inside one table.
//!
//! Path: read (and compaction inputs). A table is opened on first use and kept open until
//! its file becomes obsolete (`evict`); RocksDB's `max_open_files = -1` behaviour.
//!
//! Block cache: a table is opened with its column family's `block_cache` and
//! `cache_index_and_filter_blocks`. Every block cache this DB reads through gets one
//! cache-key prefix ([`LruCache::new_id`], taken on first use), so DBs sharing a cache never
//! collide; file numbers are unique within the DB. The options a table is opened with stay
//! with it: callers must pass the column family's options (not only its comparator) for its
//! blocks to be cached.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use parking_lot::Mutex;

use crate::cache::LruCache;
use crate::error::Result;
use crate::fs::{filename, FileSystem};
use crate::key::{Comparator, SequenceNumber, ValueType};
use crate::options::ColumnFamilyOptions;
use crate::sst::block_cache::{BlockCacheCounts, BlockCacheTickers};
use crate::sst::filter_api::FilterProbe;
use crate::sst::reader::{Table, TableReaderOptions};
use crate::version::edit::FileMetaData;

/// What opening a table needs from its column family: a whole [`ColumnFamilyOptions`]
/// (comparator and block cache settings), or only a comparator (no block cache).
pub(crate) trait TableOpenOptions {
    fn comparator(&self) -> &Arc<dyn Comparator>;
    fn block_cache(&self) -> Option<&Arc<LruCache>>;
    fn cache_index_and_filter_blocks(&self) -> bool;
    fn pin_l0_filter_and_index_blocks_in_cache(&self) -> bool;
}

impl TableOpenOptions for ColumnFamilyOptions {
    fn comparator(&self) -> &Arc<dyn Comparator> {
        &self.comparator
    }
    fn block_cache(&self) -> Option<&Arc<LruCache>> {
        self.block_cache.as_ref()
    }
    fn cache_index_and_filter_blocks(&self) -> bool {
        self.cache_index_and_filter_blocks
    }
    fn pin_l0_filter_and_index_blocks_in_cache(&self) -> bool {
        self.pin_l0_filter_and_index_blocks_in_cache
    }
}

impl TableOpenOptions for Arc<dyn Comparator> {
    fn comparator(&self) -> &Arc<dyn Comparator> {
        self
    }
    fn block_cache(&self) -> Option<&Arc<LruCache>> {
        None
    }
    fn cache_index_and_filter_blocks(&self) -> bool {
        false
    }
    fn pin_l0_filter_and_index_blocks_in_cache(&self) -> bool {
        false
    }
}

/// Hashes file numbers for the table map: one multiply (SipHash, the std default, costs
/// more than the rest of a filter-negative table probe).
#[derive(Default)]
struct FileNumberHasher(u64);

impl std::hash::Hasher for FileNumberHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn write_u64(&mut self, n: u64) {
        // Fibonacci hashing: the high bits (hashbrown's tags) and the low bits (its buckets)
        // both depend on every bit of the file number.
        let h = n.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = h ^ (h >> 29);
    }
}

type TableMap = HashMap<u64, Arc<Table>, std::hash::BuildHasherDefault<FileNumberHasher>>;

/// The open tables of one DB.
pub(crate) struct TableCache {
    /// The DB's file system; tables are opened through it. Immutable.
    fs: Arc<dyn FileSystem>,
    db_path: PathBuf,
    tables: Mutex<TableMap>,
    /// This DB's cache-key prefix in each block cache it has used (few: one per cache).
    prefixes: Mutex<Vec<(Arc<LruCache>, u64)>>,
    /// Block cache hits, misses and inserts of this DB's tables.
    tickers: Arc<BlockCacheTickers>,
    /// Tables opened so far (each open reads the footer, index and metadata).
    opens: std::sync::atomic::AtomicU64,
}

impl TableCache {
    pub(crate) fn new(fs: Arc<dyn FileSystem>, db_path: PathBuf) -> Self {
        TableCache {
            fs,
            db_path,
            tables: Mutex::new(TableMap::default()),
            prefixes: Mutex::new(Vec::new()),
            tickers: Arc::default(),
            opens: Default::default(),
        }
    }

    /// This DB's key prefix in `cache`, taken from the cache on first use.
    fn prefix_for(&self, cache: &Arc<LruCache>) -> u64 {
        let mut prefixes = self.prefixes.lock();
        if let Some((_, p)) = prefixes.iter().find(|(c, _)| Arc::ptr_eq(c, cache)) {
            return *p;
        }
        let p = cache.new_id();
        prefixes.push((Arc::clone(cache), p));
        p
    }

    /// Block cache counters of this DB's table reads (RocksDB's `BLOCK_CACHE_*` tickers).
    pub(crate) fn block_cache_counts(&self) -> BlockCacheCounts {
        self.tickers.snapshot()
    }

    /// The reader of `f`, a table of `level`, opening it on first use with `options` (a
    /// column family's options, or only its comparator for a table read without the block
    /// cache). The level decides whether its index and filter blocks are pinned
    /// (`pin_l0_filter_and_index_blocks_in_cache`).
    pub(crate) fn get(
        &self,
        f: &FileMetaData,
        level: usize,
        options: &impl TableOpenOptions,
    ) -> Result<Arc<Table>> {
        if let Some(t) = self.tables.lock().get(&f.number) {
            return Ok(t.clone());
        }
        let path = filename::table_file(&self.db_path, f.number);
        self.opens
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let file = self.fs.new_random_access(&path)?;
        let block_cache = options.block_cache().cloned();
        let cache_prefix = block_cache.as_ref().map_or(0, |c| self.prefix_for(c));
        let opts = TableReaderOptions {
            comparator: options.comparator().clone(),
            verify_checksums: true,
            largest_seqno: f.largest_seqno,
            file_number: f.number,
            block_cache,
            cache_prefix,
            fill_cache: true,
            cache_index_and_filter_blocks: options.cache_index_and_filter_blocks(),
            pin_index_and_filter_blocks: level == 0
                && options.pin_l0_filter_and_index_blocks_in_cache(),
            block_cache_tickers: Some(Arc::clone(&self.tickers)),
        };
        let factory = |block: &[u8]| crate::sst::filter::reader_for(block);
        let table = Arc::new(Table::open_with_filter(
            file,
            f.file_size,
            opts,
            Some(&factory),
        )?);
        Ok(self.tables.lock().entry(f.number).or_insert(table).clone())
    }

    /// `f`'s table for a point lookup: the reader its metadata keeps, opened (through
    /// [`get`](Self::get), at the level `level` names) and kept there on first use. The
    /// borrow lives as long as the metadata, which the caller's version holds.
    ///
    /// # Errors
    /// As `get`.
    pub(crate) fn table_for<'f>(
        &self,
        f: &'f FileMetaData,
        level: impl FnOnce() -> usize,
        options: &impl TableOpenOptions,
    ) -> Result<&'f Table> {
        if let Some(t) = f.reader.get() {
            return Ok(t);
        }
        Ok(f.reader.keep(self.get(f, level(), options)?))
    }

    /// Tables opened so far.
    pub(crate) fn opens(&self) -> u64 {
        self.opens.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Forgets a table whose file is obsolete.
    pub(crate) fn evict(&self, number: u64) {
        self.tables.lock().remove(&number);
    }
}

/// Calls `f(seq, type, value)` for the entries of `probe`'s user key in `table` with
/// `seq <= read_seq`, newest first, until `f` returns false; returns false when `f` stopped.
/// `target` is the lookup key: `user_key` + `(read_seq, VALUE_TYPE_FOR_SEEK)`. Data blocks
/// read from the file go into the block cache only with `fill_cache`.
pub(crate) fn table_get(
    table: &Table,
    probe: &FilterProbe<'_>,
    target: &[u8],
    fill_cache: bool,
    f: &mut dyn FnMut(SequenceNumber, ValueType, &[u8]) -> bool,
) -> Result<bool> {
    table.point_lookup(probe, target, fill_cache, f)
}

#[cfg(test)]
mod tests {
    use crate::options::{ReadOptions, WriteOptions};

    #[test]
    fn a_get_keeps_the_table_with_its_metadata_and_opens_it_once() {
        let (_dir, _, db) = crate::db::test_support::fresh_db();
        let (wo, ro, cf) = (
            WriteOptions::default(),
            ReadOptions::default(),
            db.default_cf(),
        );
        db.put(&wo, &cf, b"k", b"v").expect("put");
        db.flush(&cf, true).expect("flush");
        let files = || cf.cfd.super_version().version.files(0).to_vec();
        assert_eq!(files().len(), 1);
        assert!(files()[0].reader.get().is_none(), "no lookup opened it yet");
        let opens = db.table_opens();
        for _ in 0..3 {
            assert_eq!(db.get(&ro, &cf, b"k").expect("get"), Some(b"v".to_vec()));
            assert_eq!(db.get(&ro, &cf, b"absent").expect("get"), None);
        }
        assert!(
            files()[0].reader.get().is_some(),
            "the lookup kept its table"
        );
        assert_eq!(db.table_opens(), opens + 1, "six gets, one open");
    }
}
