// SPDX-License-Identifier: Apache-2.0
//! Table reads through the block cache: hits and misses, tiny and strict caches, usage bounds,
//! pinning of index and filter blocks, and a point-get micro benchmark (ignored by default).

use std::sync::Arc;

use super::*;
use crate::cache::{CacheKey, LruCache, Priority};
use crate::iter::InternalIterator;
use crate::key::{ValueType, MAX_SEQUENCE_NUMBER};
use crate::options::ColumnFamilyOptions;
use crate::sst::tests::{build, ik, sample_entries};
use crate::sst::{
    CompressionType, RandomAccessFile, Table, TableBuilderOptions, TableReaderOptions,
};

type Entries = Vec<(Vec<u8>, Vec<u8>)>;

/// A table of `n` user keys in small (about 256-byte) Snappy blocks, with a Bloom filter.
fn table_bytes(n: usize) -> (Vec<u8>, Entries) {
    let entries = sample_entries(n, 40);
    let cf = ColumnFamilyOptions {
        bloom_bits_per_key: Some(10.0),
        ..Default::default()
    };
    let opts = TableBuilderOptions {
        block_size: 256,
        compression: CompressionType::Snappy,
        filter: crate::sst::filter::builder_for(&cf),
        ..Default::default()
    };
    (build(&entries, opts).0, entries)
}

fn open_cached(
    bytes: &Arc<Vec<u8>>,
    cache: Option<&Arc<LruCache>>,
    prefix: u64,
    cache_index_and_filter_blocks: bool,
    tickers: Option<&Arc<BlockCacheTickers>>,
) -> Arc<Table> {
    let opts = TableReaderOptions {
        file_number: 9,
        block_cache: cache.cloned(),
        cache_prefix: prefix,
        cache_index_and_filter_blocks,
        pin_index_and_filter_blocks: true,
        block_cache_tickers: tickers.cloned(),
        ..Default::default()
    };
    let factory = |block: &[u8]| crate::sst::filter::reader_for(block);
    let file: Arc<dyn RandomAccessFile> = Arc::clone(bytes) as _;
    Arc::new(
        Table::open_with_filter(file, bytes.len() as u64, opts, Some(&factory)).expect("opens"),
    )
}

fn scan(t: &Arc<Table>) -> Entries {
    let mut it = t.iter();
    let mut out = Vec::new();
    it.seek_to_first();
    while it.valid() {
        out.push((it.key().to_vec(), it.value().to_vec()));
        it.next();
    }
    it.status().expect("clean scan");
    out
}

fn scan_backward(t: &Arc<Table>) -> Entries {
    let mut it = t.iter();
    let mut out = Vec::new();
    it.seek_to_last();
    while it.valid() {
        out.push((it.key().to_vec(), it.value().to_vec()));
        it.prev();
    }
    it.status().expect("clean scan");
    out.reverse();
    out
}

fn data_blocks(t: &Table) -> u64 {
    let mut idx = t.new_index_iter();
    idx.seek_to_first();
    let mut n = 0;
    while idx.valid() {
        n += 1;
        idx.next();
    }
    n
}

/// Every entry found by a point seek on its own key.
fn check_point_reads(t: &Arc<Table>, entries: &[(Vec<u8>, Vec<u8>)]) {
    for (k, v) in entries {
        let (fk, fv) = t.get(k).expect("reads").expect("present");
        assert_eq!((&fk, &fv), (k, v));
    }
}

#[test]
fn second_scan_hits_every_data_block() {
    let (bytes, entries) = table_bytes(300);
    let bytes = Arc::new(bytes);
    let cache = Arc::new(LruCache::new(1 << 20, 0, false, 0.5));
    let tickers = Arc::new(BlockCacheTickers::default());
    let t = open_cached(&bytes, Some(&cache), cache.new_id(), false, Some(&tickers));
    let blocks = data_blocks(&t);
    assert!(blocks > 20, "small blocks: {blocks}");

    assert_eq!(scan(&t), entries);
    let first = tickers.snapshot();
    assert_eq!((first.data_hit, first.data_miss), (0, blocks));
    assert_eq!(first.add, blocks);
    assert_eq!(cache.stats().misses, blocks);
    assert_eq!(cache.entries() as u64, blocks);

    assert_eq!(scan(&t), entries);
    let second = tickers.snapshot();
    assert_eq!((second.data_hit, second.data_miss), (blocks, blocks));
    assert_eq!(second.add, blocks, "nothing inserted twice");
    assert_eq!(cache.stats().hits, blocks);
    assert_eq!(second.hit, second.data_hit);
    assert_eq!(
        second.bytes_write as usize + blocks as usize * cache.metadata_charge(),
        cache.usage(),
        "usage is exactly the charges inserted, each with the cache's bookkeeping"
    );

    // Backward scans and point reads are served from the cache too.
    assert_eq!(scan_backward(&t), entries);
    check_point_reads(&t, &entries);
    assert_eq!(tickers.snapshot().data_miss, blocks);
}

#[test]
fn usage_rises_with_reads_and_stays_within_capacity() {
    let (bytes, entries) = table_bytes(300);
    let bytes = Arc::new(bytes);
    let capacity = 4096;
    let cache = Arc::new(LruCache::new(capacity, 0, false, 0.5));
    let t = open_cached(&bytes, Some(&cache), cache.new_id(), false, None);
    assert_eq!(cache.usage(), 0, "nothing read yet");

    let mut it = t.iter();
    it.seek_to_first();
    assert!(it.valid());
    let one = cache.usage();
    assert!(one > 0, "the first block is cached");
    assert_eq!(cache.pinned_usage(), one, "the iterator pins its block");
    let mut rows = 0;
    let mut max_usage = 0;
    while it.valid() {
        rows += 1;
        max_usage = max_usage.max(cache.usage());
        it.next();
    }
    drop(it);
    assert_eq!(rows, entries.len());
    assert!(
        max_usage <= capacity,
        "one pinned block at a time: {max_usage} > {capacity}"
    );
    assert!(cache.usage() <= capacity);
    assert!(cache.usage() > capacity / 2, "the cache is in use");
    assert_eq!(cache.pinned_usage(), 0);
    assert!(cache.stats().evictions > 0);
}

#[test]
fn tiny_caches_still_return_the_data() {
    let (bytes, entries) = table_bytes(200);
    let bytes = Arc::new(bytes);
    for capacity in [0, 1024] {
        for bits in [0, 2] {
            let cache = Arc::new(LruCache::new(capacity, bits, false, 0.5));
            let t = open_cached(&bytes, Some(&cache), cache.new_id(), true, None);
            assert_eq!(scan(&t), entries, "capacity {capacity}");
            assert_eq!(scan_backward(&t), entries, "capacity {capacity}");
            check_point_reads(&t, &entries);
            for (k, _) in &entries {
                let uk = crate::key::internal_key::user_key(k);
                assert!(t.key_may_match(uk));
            }
            drop(t);
            assert!(cache.usage() <= capacity, "capacity {capacity}");
            assert_eq!(cache.pinned_usage(), 0);
        }
    }
}

#[test]
fn strict_full_cache_reads_uncached() {
    let (bytes, entries) = table_bytes(200);
    let bytes = Arc::new(bytes);
    let cache = Arc::new(LruCache::new(8192, 0, true, 0.5));
    // Fill the cache with pinned entries of another user (1 KiB each with the bookkeeping).
    let other = cache.new_id();
    let pins: Vec<_> = (0..8)
        .map(|i| {
            cache
                .insert(
                    CacheKey::new(other, 1, i),
                    Arc::new(()),
                    1024 - cache.metadata_charge(),
                    Priority::Low,
                )
                .expect("fits")
        })
        .collect();
    assert_eq!(cache.pinned_usage(), 8192);

    let tickers = Arc::new(BlockCacheTickers::default());
    let t = open_cached(&bytes, Some(&cache), cache.new_id(), true, Some(&tickers));
    assert_eq!(
        t.pinned_meta_charge(),
        0,
        "index and filter stay with the table"
    );
    assert_eq!(scan(&t), entries);
    assert_eq!(scan_backward(&t), entries);
    check_point_reads(&t, &entries);
    let counts = tickers.snapshot();
    assert_eq!(counts.add, 0);
    assert!(counts.add_failures >= data_blocks(&t) + 2);
    assert_eq!(cache.stats().insert_failures, counts.add_failures);
    assert_eq!(cache.usage(), 8192);

    // Room again: reads fill the cache.
    drop(pins);
    cache.erase_unpinned();
    assert_eq!(scan(&t), entries);
    assert!(tickers.snapshot().add > 0);
    assert!(cache.usage() > 0);
}

#[test]
fn index_and_filter_blocks_are_charged_and_pinned() {
    let (bytes, entries) = table_bytes(300);
    let bytes = Arc::new(bytes);
    let cache = Arc::new(LruCache::new(1 << 20, 0, false, 0.5));
    let prefix = cache.new_id();

    // Without the option: nothing in the cache until data blocks are read.
    let plain = open_cached(&bytes, Some(&cache), prefix, false, None);
    assert_eq!(cache.usage(), 0);
    assert_eq!(plain.pinned_meta_charge(), 0);
    drop(plain);

    let tickers = Arc::new(BlockCacheTickers::default());
    let t = open_cached(&bytes, Some(&cache), prefix, true, Some(&tickers));
    let meta = t.pinned_meta_charge();
    let filter = t.filter_block().map_or(0, <[u8]>::len);
    assert!(filter > 0, "table has a filter");
    assert!(meta > filter, "index and filter: {meta}");
    // The two entries, each with the cache's bookkeeping.
    let meta = meta + 2 * cache.metadata_charge();
    assert_eq!(cache.pinned_usage(), meta);
    assert_eq!(cache.usage(), meta);
    let c = tickers.snapshot();
    assert_eq!((c.index_miss, c.filter_miss, c.add), (1, 1, 2));

    // Data blocks come and go; the meta blocks stay pinned even when everything unpinned is
    // dropped.
    assert_eq!(scan(&t), entries);
    assert!(cache.usage() > meta);
    cache.erase_unpinned();
    assert_eq!(cache.usage(), meta);
    assert!(t.key_may_match(crate::key::internal_key::user_key(&entries[0].0)));

    // A second reader of the same file (same prefix) finds them.
    let t2 = open_cached(&bytes, Some(&cache), prefix, true, Some(&tickers));
    let c = tickers.snapshot();
    assert_eq!((c.index_hit, c.filter_hit), (1, 1));
    assert_eq!(cache.pinned_usage(), meta, "same entries pinned twice");
    assert_eq!(scan(&t2), entries);

    drop(t);
    drop(t2);
    assert_eq!(cache.pinned_usage(), 0, "unpinned when the tables close");
    assert_eq!(
        cache.entries(),
        2 + data_blocks(&open_cached(&bytes, None, 0, false, None)) as usize
    );
}

#[test]
fn fill_cache_false_reads_without_inserting() {
    let (bytes, entries) = table_bytes(100);
    let bytes = Arc::new(bytes);
    let cache = Arc::new(LruCache::new(1 << 20, 0, false, 0.5));
    let t = open_cached(&bytes, Some(&cache), cache.new_id(), false, None);
    let mut it = t.iter_with(false);
    it.seek_to_first();
    let mut n = 0;
    while it.valid() {
        n += 1;
        it.next();
    }
    it.status().expect("clean");
    assert_eq!(n, entries.len());
    assert_eq!(cache.usage(), 0);
    assert_eq!(cache.stats().inserts, 0);
    assert_eq!(cache.stats().misses, data_blocks(&t));

    // A filling read, then the non-filling cursor hits.
    assert_eq!(scan(&t), entries);
    let before = cache.stats().hits;
    let mut it = t.iter_with(false);
    it.seek_to_first();
    assert!(it.valid());
    assert_eq!(cache.stats().hits, before + 1);
}

#[test]
fn prefixes_keep_tables_of_one_file_number_apart() {
    // Two DBs' tables with the same file number and different contents share a cache.
    let (a_bytes, a_entries) = table_bytes(150);
    let b_entries: Vec<_> = (0..150)
        .map(|i| {
            (
                ik(format!("other{i:05}").as_bytes(), 5, ValueType::Value),
                vec![b'b'; 30],
            )
        })
        .collect();
    let b_bytes = build(
        &b_entries,
        TableBuilderOptions {
            block_size: 256,
            ..Default::default()
        },
    )
    .0;
    let cache = Arc::new(LruCache::new(1 << 20, 2, false, 0.5));
    let a = open_cached(&Arc::new(a_bytes), Some(&cache), cache.new_id(), true, None);
    let b = open_cached(&Arc::new(b_bytes), Some(&cache), cache.new_id(), true, None);
    for _ in 0..2 {
        assert_eq!(scan(&a), a_entries);
        assert_eq!(scan(&b), b_entries);
    }
    assert_eq!(cache.stats().hits, data_blocks(&a) + data_blocks(&b));
}

#[test]
fn corrupt_block_is_not_cached() {
    let (mut bytes, _) = table_bytes(100);
    let t0 = open_cached(&Arc::new(bytes.clone()), None, 0, false, None);
    let mut idx = t0.new_index_iter();
    idx.seek_to_first();
    let h = idx.block_handle();
    bytes[h.offset as usize + 1] ^= 0xff;
    let cache = Arc::new(LruCache::new(1 << 20, 0, false, 0.5));
    let t = open_cached(&Arc::new(bytes), Some(&cache), cache.new_id(), false, None);
    for _ in 0..2 {
        let mut it = t.iter();
        it.seek_to_first();
        assert!(it.status().is_err_and(|e| e.is_corruption()));
    }
    assert_eq!(cache.usage(), 0);
}

/// `cargo test -p solistore --release block_cache::tests::bench -- --ignored --nocapture`
#[test]
#[ignore = "micro benchmark"]
fn bench_point_gets_with_and_without_cache() {
    use std::time::Instant;
    let n = 20_000;
    let entries: Vec<_> = (0..n)
        .map(|i| {
            (
                ik(format!("key{i:08}").as_bytes(), 7, ValueType::Value),
                format!("value-{i}-").repeat(10).into_bytes(),
            )
        })
        .collect();
    let opts = TableBuilderOptions {
        compression: CompressionType::Snappy,
        ..Default::default()
    };
    let bytes = build(&entries, opts).0;
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("000009.sst");
    std::fs::write(&path, &bytes).expect("write");
    let file: Arc<dyn RandomAccessFile> =
        Arc::new(crate::sst::PosixRandomAccessFile::open(&path).expect("open"));
    let size = bytes.len() as u64;
    let gets = 200_000;
    for cached in [false, true] {
        let cache = Arc::new(LruCache::new(64 << 20, -1, false, 0.5));
        let opts = TableReaderOptions {
            file_number: 9,
            block_cache: cached.then(|| Arc::clone(&cache)),
            cache_prefix: cache.new_id(),
            ..Default::default()
        };
        let t = Arc::new(Table::open(Arc::clone(&file), size, opts).expect("opens"));
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let start = Instant::now();
        for _ in 0..gets {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (k, v) = &entries[(x % n as u64) as usize];
            let mut target = Vec::new();
            crate::key::append_internal_key(
                &mut target,
                crate::key::internal_key::user_key(k),
                MAX_SEQUENCE_NUMBER,
                crate::key::VALUE_TYPE_FOR_SEEK,
            );
            let got = t.get(&target).expect("reads").expect("present");
            assert_eq!(&got.1, v);
        }
        let el = start.elapsed();
        println!(
            "point gets, cache {}: {gets} in {:?} = {:.2} us/get; hits {} misses {} usage {} KiB",
            if cached { "on " } else { "off" },
            el,
            el.as_secs_f64() * 1e6 / f64::from(gets),
            cache.stats().hits,
            cache.stats().misses,
            cache.usage() / 1024,
        );
    }
}
