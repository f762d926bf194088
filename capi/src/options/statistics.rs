// SPDX-License-Identifier: Apache-2.0
//! The statistics object behind `rocksdb_options_enable_statistics` (config and read paths).
//!
//! RocksDB keeps its tickers in a `Statistics` object that the options own (shared by copies
//! and by every DB opened with them). solistore's counters live in each open DB
//! (`engine::db::Db::stats()`), so this object collects the DBs opened with these options:
//! `rocksdb_open*` calls [`Statistics::attach`], and tickers are summed over the attached DBs.
//!
//! Ticker ids are RocksDB 11.1.2's `Tickers` enum ordinals, the ABI the .NET hosts bind (they
//! differ from 7.8.3's, e.g. `BYTES_WRITTEN` is 61 in 11.1.2 and 43 in 7.8.3).

use std::ffi::c_int;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};
use std::sync::Mutex;

use engine::db::Db;

/// `rocksdb_statistics_level_except_detailed_timers`, RocksDB's default level.
const DEFAULT_LEVEL: c_int = 3;
/// `rocksdb_statistics_level_all`.
const MAX_LEVEL: c_int = 5;

/// Reads one counter of a DB.
type TickerReader = fn(&Db) -> u64;

fn counter(c: &AtomicU64) -> u64 {
    c.load(Ordering::Relaxed)
}

/// The tickers the engine counts: (11.1.2 ordinal, RocksDB name, reader), in ordinal order.
/// Block cache counts are this DB's table reads (a cache shared by several DBs counts each
/// DB's lookups in that DB's statistics, as in RocksDB).
const TICKERS: [(u32, &str, TickerReader); 20] = [
    (0, "rocksdb.block.cache.miss", |d| {
        d.block_cache_counts().miss
    }),
    (1, "rocksdb.block.cache.hit", |d| d.block_cache_counts().hit),
    (2, "rocksdb.block.cache.add", |d| d.block_cache_counts().add),
    (3, "rocksdb.block.cache.add.failures", |d| {
        d.block_cache_counts().add_failures
    }),
    (4, "rocksdb.block.cache.index.miss", |d| {
        d.block_cache_counts().index_miss
    }),
    (5, "rocksdb.block.cache.index.hit", |d| {
        d.block_cache_counts().index_hit
    }),
    (8, "rocksdb.block.cache.filter.miss", |d| {
        d.block_cache_counts().filter_miss
    }),
    (9, "rocksdb.block.cache.filter.hit", |d| {
        d.block_cache_counts().filter_hit
    }),
    (12, "rocksdb.block.cache.data.miss", |d| {
        d.block_cache_counts().data_miss
    }),
    (13, "rocksdb.block.cache.data.hit", |d| {
        d.block_cache_counts().data_hit
    }),
    (17, "rocksdb.block.cache.bytes.write", |d| {
        d.block_cache_counts().bytes_write
    }),
    (58, "rocksdb.number.keys.written", |d| {
        counter(&d.stats().keys_written)
    }),
    (59, "rocksdb.number.keys.read", |d| {
        counter(&d.stats().keys_read)
    }),
    (61, "rocksdb.bytes.written", |d| {
        counter(&d.stats().bytes_written)
    }),
    (62, "rocksdb.bytes.read", |d| counter(&d.stats().bytes_read)),
    (78, "rocksdb.number.multiget.get", |d| {
        counter(&d.stats().multiget_calls)
    }),
    (79, "rocksdb.number.multiget.keys.read", |d| {
        counter(&d.stats().multiget_keys_read)
    }),
    (80, "rocksdb.number.multiget.bytes.read", |d| {
        counter(&d.stats().multiget_bytes_read)
    }),
    (81, "rocksdb.number.multiget.keys.found", |d| {
        counter(&d.stats().multiget_keys_found)
    }),
    (84, "rocksdb.wal.synced", |d| counter(&d.stats().wal_syncs)),
];

/// Shared statistics of one `rocksdb_options_t` and its copies.
#[derive(Debug)]
pub(crate) struct Statistics {
    level: AtomicI32,
    /// DBs opened with these options; guarded by the mutex. A closed DB keeps its counts.
    dbs: Mutex<Vec<Db>>,
}

impl Default for Statistics {
    fn default() -> Self {
        Statistics {
            level: AtomicI32::new(DEFAULT_LEVEL),
            dbs: Mutex::new(Vec::new()),
        }
    }
}

impl Statistics {
    /// Records a DB opened with options carrying these statistics, so that its counters are
    /// reported. For `rocksdb_open*`.
    pub(crate) fn attach(&self, db: &Db) {
        if let Ok(mut dbs) = self.dbs.lock() {
            dbs.push(db.clone());
        }
    }

    pub(crate) fn set_level(&self, level: c_int) {
        self.level
            .store(level.clamp(0, MAX_LEVEL), Ordering::Relaxed);
    }

    pub(crate) fn level(&self) -> c_int {
        self.level.load(Ordering::Relaxed)
    }

    /// The sum of one ticker over the attached DBs; 0 for tickers the engine does not count.
    pub(crate) fn ticker_count(&self, ticker: u32) -> u64 {
        let Some((_, _, read)) = TICKERS.iter().find(|(id, _, _)| *id == ticker) else {
            return 0;
        };
        self.dbs.lock().map_or(0, |dbs| {
            dbs.iter().fold(0u64, |acc, db| acc.wrapping_add(read(db)))
        })
    }

    /// RocksDB's `Statistics::ToString` lines for the counted tickers.
    pub(crate) fn to_text(&self) -> String {
        TICKERS
            .iter()
            .map(|(id, name, _)| format!("{name} COUNT : {}\n", self.ticker_count(*id)))
            .collect()
    }
}
