// SPDX-License-Identifier: Apache-2.0
//! Concurrency (issue 8): readers never see part of a batch across column families, and
//! iterators stay point-in-time, while writers, memtable switches, flushes and compactions
//! run.
//!
//! Two writer threads each commit batches that put the same value (`<counter>:<padding>`,
//! counter unique per batch, taken from a shared counter before the write starts) under
//! every key of every column family (3 families x 4 keys). Memtables are 32 KiB and level 0
//! compacts at 2 files, so memtables switch every few dozen batches and flushes and
//! compactions run all the time.
//!
//! The run lasts until there were at least 10^6 checks, 8,000 batches and 100 iterator
//! rounds (at most `SOLISTORE_CONCURRENCY_MAX_SECS`, 240 s by default).
//!
//! - Two reader threads alternately take a snapshot and `get` every key through it, or
//!   `multi_get` every key at once: all 12 values must be the same batch's. Each value
//!   compared is one check; CI runs at least 10^6 (`SOLISTORE_CONCURRENCY_CHECKS` sets it).
//! - An iterator thread opens one iterator per family (each at the latest sequence, or, every
//!   other round, all at one snapshot), then reads the counter of the next batch to start: no
//!   batch with that counter or later may show in the iterators. It reads half of each,
//!   flushes every family (a memtable switch under the iterator, and a new table that may set
//!   off a compaction), sleeps, and reads the rest: every entry of an iterator must come from
//!   one batch, older than the opening, and at one snapshot all three from the same batch.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use solistore::batch::WriteBatch;
use solistore::db::{ColumnFamilyHandle, Db};
use solistore::options::{ColumnFamilyOptions, DbOptions, ReadOptions, WriteOptions};

const CFS: [&str; 3] = ["default", "cf1", "cf2"];
const KEYS: usize = 4;

fn key(i: usize) -> Vec<u8> {
    format!("key{i}").into_bytes()
}

fn counter_of(value: &[u8]) -> u64 {
    let end = value.iter().position(|b| *b == b':').unwrap_or(value.len());
    std::str::from_utf8(&value[..end])
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(u64::MAX)
}

fn open(path: &str) -> (Db, Vec<ColumnFamilyHandle>) {
    let cf = ColumnFamilyOptions {
        write_buffer_size: 32 << 10,
        level0_file_num_compaction_trigger: 2,
        target_file_size_base: 64 << 10,
        max_bytes_for_level_base: 256 << 10,
        ..Default::default()
    };
    let opts = DbOptions {
        create_if_missing: true,
        create_missing_column_families: true,
        ..Default::default()
    };
    let descs = CFS.iter().map(|n| (n.to_string(), cf.clone())).collect();
    Db::open_cf(&opts, path, descs).expect("open")
}

#[test]
fn batches_are_atomic_across_families_and_iterators_are_point_in_time() {
    let want_checks: u64 = std::env::var("SOLISTORE_CONCURRENCY_CHECKS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let dir = tempfile::tempdir().expect("tempdir");
    let (db, handles) = open(&dir.path().to_string_lossy());
    let db = Arc::new(db);
    let handles = Arc::new(handles);
    // The first batch, so that every key exists before the readers start.
    let next_counter = Arc::new(AtomicU64::new(0));
    let write_one = {
        let (db, handles, next_counter) = (db.clone(), handles.clone(), next_counter.clone());
        move || {
            let c = next_counter.fetch_add(1, Ordering::SeqCst);
            let value = format!("{c}:{}", "p".repeat(60 + (c % 40) as usize));
            let mut b = WriteBatch::new();
            for h in handles.iter() {
                for i in 0..KEYS {
                    b.put(h.id(), &key(i), value.as_bytes());
                }
            }
            db.write(&WriteOptions::default(), &b).expect("write");
        }
    };
    write_one();
    let stop = Arc::new(AtomicBool::new(false));
    let checks = Arc::new(AtomicU64::new(0));
    let iterator_rounds = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let deadline = Duration::from_secs(
        std::env::var("SOLISTORE_CONCURRENCY_MAX_SECS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(240),
    );
    std::thread::scope(|s| {
        for _ in 0..2 {
            let (stop, write_one) = (stop.clone(), write_one.clone());
            s.spawn(move || {
                while !stop.load(Ordering::Acquire) {
                    write_one();
                }
            });
        }
        for r in 0..2u64 {
            let (db, handles, stop, checks) =
                (db.clone(), handles.clone(), stop.clone(), checks.clone());
            s.spawn(move || {
                let mut round = r;
                while !stop.load(Ordering::Acquire) {
                    round += 1;
                    let values: Vec<Vec<u8>> = if round % 2 == 0 {
                        let snap = db.snapshot();
                        let ro = ReadOptions {
                            snapshot: Some(snap.sequence()),
                            ..Default::default()
                        };
                        handles
                            .iter()
                            .flat_map(|h| (0..KEYS).map(move |i| (h, key(i))))
                            .map(|(h, k)| db.get(&ro, h, &k).expect("get").expect("present"))
                            .collect()
                    } else {
                        let keys: Vec<(&ColumnFamilyHandle, Vec<u8>)> = handles
                            .iter()
                            .flat_map(|h| (0..KEYS).map(move |i| (h, key(i))))
                            .collect();
                        let refs: Vec<(&ColumnFamilyHandle, &[u8])> =
                            keys.iter().map(|(h, k)| (*h, k.as_slice())).collect();
                        db.multi_get(&ReadOptions::default(), &refs)
                            .into_iter()
                            .map(|r| r.expect("multi_get").expect("present"))
                            .collect()
                    };
                    let first = counter_of(&values[0]);
                    for (i, v) in values.iter().enumerate() {
                        assert_eq!(
                            counter_of(v),
                            first,
                            "round {round} ({}): {}/{} is from batch {}, default/key0 from batch {first}",
                            if round % 2 == 0 { "snapshot gets" } else { "multi_get" },
                            CFS[i / KEYS],
                            String::from_utf8_lossy(&key(i % KEYS)),
                            counter_of(v)
                        );
                        assert_eq!(v, &values[0], "same batch, same bytes");
                    }
                    checks.fetch_add(values.len() as u64, Ordering::Relaxed);
                }
            });
        }
        {
            let (db, handles, stop, checks, rounds, next_counter) = (
                db.clone(),
                handles.clone(),
                stop.clone(),
                checks.clone(),
                iterator_rounds.clone(),
                next_counter.clone(),
            );
            s.spawn(move || {
                let mut round = 0u64;
                while !stop.load(Ordering::Acquire) {
                    round += 1;
                    // Odd rounds: each iterator at its own (latest) sequence. Even rounds:
                    // all three at one snapshot's sequence.
                    let snap = round.is_multiple_of(2).then(|| db.snapshot());
                    let ro = ReadOptions {
                        snapshot: snap.as_ref().map(|s| s.sequence()),
                        ..Default::default()
                    };
                    let mut its: Vec<_> = handles
                        .iter()
                        .map(|h| db.iter(&ro, h).expect("iter"))
                        .collect();
                    let limit = next_counter.load(Ordering::SeqCst);
                    let mut seen = Vec::new();
                    for it in &mut its {
                        it.seek_to_first();
                        for _ in 0..KEYS / 2 {
                            assert!(it.valid(), "iterator ended early: {:?}", it.status());
                            seen.push(counter_of(it.value()));
                            it.next();
                        }
                    }
                    for h in handles.iter() {
                        db.flush(h, true).expect("flush");
                    }
                    std::thread::sleep(Duration::from_millis(5));
                    for it in &mut its {
                        for _ in KEYS / 2..KEYS {
                            assert!(it.valid(), "iterator ended early: {:?}", it.status());
                            seen.push(counter_of(it.value()));
                            it.next();
                        }
                        assert!(!it.valid(), "an iterator grew a key");
                        it.status().expect("iterator status");
                    }
                    // `seen` holds each family's first half, then each family's second half.
                    let half = KEYS / 2;
                    for cf in 0..CFS.len() {
                        let mine: Vec<u64> = seen[cf * half..(cf + 1) * half]
                            .iter()
                            .chain(&seen[(CFS.len() + cf) * half..(CFS.len() + cf + 1) * half])
                            .copied()
                            .collect();
                        assert!(
                            mine.iter().all(|c| *c == mine[0]),
                            "round {round}: the {} iterator mixed batches: {mine:?}",
                            CFS[cf]
                        );
                        assert!(
                            mine[0] < limit,
                            "round {round}: the {} iterator saw batch {} started after it opened (next was {limit})",
                            CFS[cf],
                            mine[0]
                        );
                    }
                    if snap.is_some() {
                        assert!(
                            seen.iter().all(|c| *c == seen[0]),
                            "round {round}: iterators at one snapshot differ: {seen:?}"
                        );
                    }
                    checks.fetch_add(seen.len() as u64, Ordering::Relaxed);
                    rounds.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
        // Enough checks, and enough writing under them: 8,000 batches (about 10 MB, some
        // 300 memtable switches) and 100 iterator rounds (300 flushes under open iterators).
        let enough = || {
            checks.load(Ordering::Relaxed) >= want_checks
                && next_counter.load(Ordering::SeqCst) >= 8_000
                && iterator_rounds.load(Ordering::Relaxed) >= 100
        };
        while !enough() && started.elapsed() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        stop.store(true, Ordering::Release);
    });
    let done = checks.load(Ordering::Relaxed);
    let batches = next_counter.load(Ordering::SeqCst);
    let l0 = db.property(&handles[0], "rocksdb.num-files-at-level0");
    eprintln!(
        "concurrency: {done} checks, {} iterator rounds, {batches} batches, {:.1} s (default L0 files at the end: {l0:?})",
        iterator_rounds.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64()
    );
    assert!(done >= want_checks, "only {done} checks in {deadline:?}");
    assert!(
        iterator_rounds.load(Ordering::Relaxed) >= 100,
        "too few iterator rounds"
    );
    assert!(batches >= 8_000, "too few batches");
    let stats_compactions = db.property(&handles[0], "rocksdb.num-files-at-level1");
    assert!(
        stats_compactions.is_some_and(|n| n != "0"),
        "compactions ran (default has level-1 files)"
    );
    db.close().expect("close");
}
