// SPDX-License-Identifier: Apache-2.0
//! Tests for the memtable and its cursor.

use std::cmp::Ordering;
use std::sync::Arc;

use proptest::prelude::*;

use super::*;
use crate::iter::InternalIterator;
use crate::key::{
    append_internal_key, parse_internal_key, BytewiseComparator, Comparator, MAX_SEQUENCE_NUMBER,
};

fn ik(k: &[u8], s: u64, t: ValueType) -> Vec<u8> {
    let mut v = Vec::new();
    append_internal_key(&mut v, k, s, t);
    v
}

fn collect_get(m: &MemTable, k: &[u8], seq: u64) -> Vec<(u64, ValueType, Vec<u8>)> {
    let mut out = Vec::new();
    m.get(k, seq, &mut |s, t, v| {
        out.push((s, t, v.to_vec()));
        true
    });
    out
}

fn collect_iter(it: &mut dyn InternalIterator) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut out = Vec::new();
    it.seek_to_first();
    while it.valid() {
        out.push((it.key().to_vec(), it.value().to_vec()));
        it.next();
    }
    out
}

fn sample() -> MemTable {
    let m = MemTable::new(InternalKeyComparator::default());
    m.add(1, ValueType::Value, b"a", b"a1").expect("add");
    m.add(2, ValueType::Merge, b"a", b"a2").expect("add");
    m.add(3, ValueType::Deletion, b"a", b"").expect("add");
    m.add(4, ValueType::Value, b"a", b"a4").expect("add");
    m.add(5, ValueType::Value, b"", b"empty").expect("add");
    m.add(6, ValueType::Value, b"a\0", b"a0").expect("add");
    m.add(7, ValueType::SingleDeletion, b"ab", b"")
        .expect("add");
    m.add(8, ValueType::Value, b"abcdefghij", b"long")
        .expect("add");
    m.add(9, ValueType::Value, b"abcdefghi", b"long-1")
        .expect("add");
    m
}

#[test]
fn get_returns_versions_newest_first() {
    let m = sample();
    assert_eq!(
        collect_get(&m, b"a", MAX_SEQUENCE_NUMBER),
        vec![
            (4, ValueType::Value, b"a4".to_vec()),
            (3, ValueType::Deletion, Vec::new()),
            (2, ValueType::Merge, b"a2".to_vec()),
            (1, ValueType::Value, b"a1".to_vec()),
        ]
    );
    assert_eq!(
        collect_get(&m, b"", 100),
        vec![(5, ValueType::Value, b"empty".to_vec())]
    );
    assert_eq!(collect_get(&m, b"ab", 100)[0].1, ValueType::SingleDeletion);
    assert_eq!(collect_get(&m, b"abcdefghij", 100)[0].2, b"long");
    assert_eq!(collect_get(&m, b"abcdefghi", 100)[0].2, b"long-1");
    assert!(collect_get(&m, b"b", 100).is_empty());
    assert!(collect_get(&m, b"a\0\0", 100).is_empty());

    // The callback stops the walk.
    let mut calls = 0;
    m.get(b"a", 100, &mut |_, _, _| {
        calls += 1;
        false
    });
    assert_eq!(calls, 1);
}

#[test]
fn get_honours_read_sequence() {
    let m = sample();
    let seqs = |s| -> Vec<u64> { collect_get(&m, b"a", s).iter().map(|e| e.0).collect() };
    assert_eq!(seqs(3), vec![3, 2, 1]);
    assert_eq!(seqs(2), vec![2, 1]);
    assert_eq!(seqs(1), vec![1]);
    assert!(seqs(0).is_empty());
    assert!(collect_get(&m, b"a\0", 5).is_empty());
    assert_eq!(collect_get(&m, b"a\0", 6).len(), 1);
}

#[test]
fn range_deletions_are_listed_and_kept_out_of_reads() {
    let m = Arc::new(sample());
    assert!(!m.has_range_tombstones());
    assert!(m.range_tombstones().is_empty());
    m.add(10, ValueType::RangeDeletion, b"a", b"b")
        .expect("add");
    assert!(m.has_range_tombstones());
    assert_eq!(
        m.range_tombstones(),
        vec![RangeTombstone {
            start: b"a".to_vec(),
            end: b"b".to_vec(),
            seq: 10
        }]
    );
    assert_eq!(collect_get(&m, b"a", 100)[0].0, 4);
    let plain = collect_iter(&mut m.iter());
    assert_eq!(plain.len(), 9);
    let all = collect_iter(&mut m.iter_all());
    assert_eq!(all.len(), 10);
    // Newest entry of user key "a" comes first in internal order.
    let rd = all
        .iter()
        .position(|(k, _)| {
            parse_internal_key(k).expect("valid").value_type == ValueType::RangeDeletion
        })
        .expect("range deletion is yielded by iter_all");
    assert_eq!(
        all[rd],
        (ik(b"a", 10, ValueType::RangeDeletion), b"b".to_vec())
    );
    assert_eq!(all[rd + 1].0, ik(b"a", 4, ValueType::Value));
    assert_eq!(m.num_range_deletes(), 1);
    assert_eq!(m.num_entries(), 10);
}

#[test]
fn counters_and_sequences() {
    let m = MemTable::new(InternalKeyComparator::default());
    assert!(m.is_empty());
    assert_eq!(m.first_seq(), None);
    assert_eq!(m.largest_seq(), 0);
    assert_eq!(m.approximate_memory_usage(), 0);
    m.add(20, ValueType::Value, b"k", b"v").expect("add");
    let one = m.approximate_memory_usage();
    assert!(one > 1 + 8);
    m.add(15, ValueType::Deletion, b"k", b"").expect("add");
    m.add(30, ValueType::SingleDeletion, b"j", b"")
        .expect("add");
    m.add(31, ValueType::Value, b"big", &[7u8; 1000])
        .expect("add");
    assert!(m.approximate_memory_usage() >= one + 1000);
    assert_eq!(m.num_entries(), 4);
    assert_eq!(m.num_deletes(), 2);
    assert_eq!(m.first_seq(), Some(15));
    assert_eq!(m.largest_seq(), 31);
    assert!(!m.is_empty());
}

#[test]
fn identical_internal_key_keeps_the_first() {
    let m = MemTable::new(InternalKeyComparator::default());
    m.add(5, ValueType::Value, b"k", b"first").expect("add");
    let mem = m.approximate_memory_usage();
    m.add(5, ValueType::Value, b"k", b"second").expect("add");
    assert_eq!(
        collect_get(&m, b"k", 5),
        vec![(5, ValueType::Value, b"first".to_vec())]
    );
    assert_eq!(m.num_entries(), 1);
    assert_eq!(m.approximate_memory_usage(), mem);
    // Same key and sequence but another type is a different internal key.
    m.add(5, ValueType::Merge, b"k", b"m").expect("add");
    assert_eq!(collect_get(&m, b"k", 5).len(), 2);
}

struct ReverseComparator;
impl Comparator for ReverseComparator {
    fn name(&self) -> &str {
        "rev"
    }
    fn compare(&self, a: &[u8], b: &[u8]) -> Ordering {
        b.cmp(a)
    }
}

#[test]
fn custom_reverse_comparator() {
    let icmp = InternalKeyComparator::new(Arc::new(ReverseComparator));
    let m = Arc::new(MemTable::new(icmp.clone()));
    for (i, k) in [&b"b"[..], b"a", b"c", b"ab", b""].iter().enumerate() {
        m.add(i as u64 + 1, ValueType::Value, k, k).expect("add");
    }
    m.add(10, ValueType::Deletion, b"a", b"").expect("add");
    let keys: Vec<Vec<u8>> = collect_iter(&mut m.iter())
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    assert_eq!(
        keys,
        vec![
            ik(b"c", 3, ValueType::Value),
            ik(b"b", 1, ValueType::Value),
            ik(b"ab", 4, ValueType::Value),
            ik(b"a", 10, ValueType::Deletion),
            ik(b"a", 2, ValueType::Value),
            ik(b"", 5, ValueType::Value),
        ]
    );
    assert_eq!(
        collect_get(&m, b"a", 100),
        vec![
            (10, ValueType::Deletion, Vec::new()),
            (2, ValueType::Value, b"a".to_vec())
        ]
    );
    assert_eq!(collect_get(&m, b"a", 9).len(), 1);
    let mut it = m.iter();
    it.seek(&ik(b"bb", 100, ValueType::Value));
    assert_eq!(it.key(), ik(b"b", 1, ValueType::Value));
    it.seek_for_prev(&ik(b"bb", 100, ValueType::Value));
    assert_eq!(it.key(), ik(b"c", 3, ValueType::Value));
    it.prev();
    assert!(!it.valid());
}

#[test]
fn iterator_boundaries() {
    let m = Arc::new(sample());
    let mut it = m.iter();
    assert!(!it.valid());
    it.seek_to_first();
    assert_eq!(it.key(), ik(b"", 5, ValueType::Value));
    it.prev();
    assert!(!it.valid());
    it.seek_to_last();
    assert_eq!(it.key(), ik(b"abcdefghij", 8, ValueType::Value));
    it.next();
    assert!(!it.valid());
    it.seek(&ik(b"zzz", 100, ValueType::Value));
    assert!(!it.valid());
    it.seek_for_prev(&ik(b"", 6, ValueType::Value));
    assert!(!it.valid());
    it.seek_for_prev(&ik(b"", 5, ValueType::Value));
    assert_eq!(it.value(), b"empty");
    // Seeking into the middle of a user key's versions.
    it.seek(&ik(b"a", 3, VALUE_TYPE_FOR_SEEK));
    assert_eq!(it.key(), ik(b"a", 3, ValueType::Deletion));
    it.prev();
    assert_eq!(it.key(), ik(b"a", 4, ValueType::Value));
    it.next();
    it.next();
    assert_eq!(it.value(), b"a2");
    it.seek_for_prev(&ik(b"a", 2, ValueType::Value));
    assert_eq!(it.key(), ik(b"a", 2, ValueType::Merge));
    it.next();
    assert_eq!(it.value(), b"a1");
    it.next();
    assert_eq!(it.value(), b"a0");
    // Reverse scan visits everything.
    it.seek_to_last();
    let mut n = 0;
    while it.valid() {
        n += 1;
        it.prev();
    }
    assert_eq!(n, 9);
}

#[test]
fn iterator_outlives_handle() {
    let m = Arc::new(sample());
    let mut it = m.iter();
    drop(m);
    assert_eq!(collect_iter(&mut it).len(), 9);
}

#[test]
fn concurrent_inserts_with_readers() {
    const WRITERS: u64 = 4;
    const PER: u64 = 5_000;
    let m = Arc::new(MemTable::new(InternalKeyComparator::new(Arc::new(
        BytewiseComparator,
    ))));
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let reader = {
        let (m, done) = (Arc::clone(&m), Arc::clone(&done));
        std::thread::spawn(move || {
            let mut scans = 0;
            while !done.load(std::sync::atomic::Ordering::Acquire) || scans < 2 {
                let mut it = m.iter();
                let mut prev: Option<Vec<u8>> = None;
                it.seek_to_first();
                while it.valid() {
                    if let Some(p) = &prev {
                        assert!(m.comparator().compare(p, it.key()).is_lt());
                    }
                    prev = Some(it.key().to_vec());
                    it.next();
                }
                let _ = collect_get(&m, b"00000042-1", MAX_SEQUENCE_NUMBER);
                scans += 1;
            }
        })
    };
    let writers: Vec<_> = (0..WRITERS)
        .map(|w| {
            let m = Arc::clone(&m);
            std::thread::spawn(move || {
                for i in 0..PER {
                    let key = format!("{i:08}-{w}");
                    m.add(
                        w * PER + i + 1,
                        ValueType::Value,
                        key.as_bytes(),
                        &i.to_le_bytes(),
                    )
                    .expect("add");
                }
            })
        })
        .collect();
    for w in writers {
        w.join().expect("writer thread should not panic");
    }
    done.store(true, std::sync::atomic::Ordering::Release);
    reader.join().expect("reader thread should not panic");
    assert_eq!(m.num_entries(), WRITERS * PER);
    assert_eq!(m.first_seq(), Some(1));
    assert_eq!(m.largest_seq(), WRITERS * PER);
    for w in 0..WRITERS {
        for i in 0..PER {
            let key = format!("{i:08}-{w}");
            let got = collect_get(&m, key.as_bytes(), MAX_SEQUENCE_NUMBER);
            assert_eq!(
                got,
                vec![(w * PER + i + 1, ValueType::Value, i.to_le_bytes().to_vec())]
            );
        }
    }
    assert_eq!(collect_iter(&mut m.iter()).len() as u64, WRITERS * PER);
}

#[derive(Debug, Clone)]
enum Op {
    First,
    Last,
    Seek(u16, u64),
    SeekForPrev(u16, u64),
    Next(u16),
    Prev(u16),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        1 => Just(Op::First),
        1 => Just(Op::Last),
        2 => (0u16..400, 0u64..8).prop_map(|(k, s)| Op::Seek(k, s)),
        2 => (0u16..400, 0u64..8).prop_map(|(k, s)| Op::SeekForPrev(k, s)),
        4 => (1u16..300).prop_map(Op::Next),
        3 => (1u16..40).prop_map(Op::Prev),
    ]
}

fn ukey(k: u16) -> Vec<u8> {
    format!("{k:03}").into_bytes()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// The windowed cursor agrees with a sorted vector under any sequence of moves.
    #[test]
    fn iterator_matches_model(
        entries in proptest::collection::vec((0u16..400, 1u64..8, 0u8..8, 0usize..3), 0..700),
        ops in proptest::collection::vec(op(), 1..30),
    ) {
        let icmp = InternalKeyComparator::default();
        let m = Arc::new(MemTable::new(icmp.clone()));
        let mut model: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
        let mut all: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
        let mut used = std::collections::HashSet::new();
        for (k, s, t, vsize) in entries {
            if !used.insert((k, s)) {
                continue;
            }
            let t = match t {
                0 => ValueType::Deletion,
                1 => ValueType::Merge,
                2 => ValueType::RangeDeletion,
                _ => ValueType::Value,
            };
            // Some values are large so the window's byte cap is reached.
            let value = vec![k as u8; [3, 100, 9_000][vsize]];
            m.add(s, t, &ukey(k), &value).expect("add");
            let e = (ik(&ukey(k), s, t), value);
            if t != ValueType::RangeDeletion {
                model.push(e.clone());
            }
            all.push(e);
        }
        model.sort_by(|a, b| icmp.compare(&a.0, &b.0));
        all.sort_by(|a, b| icmp.compare(&a.0, &b.0));
        prop_assert_eq!(collect_iter(&mut m.iter_all()), all);
        let mut it = m.iter();
        let mut pos: Option<usize> = None;
        for op in ops {
            match op {
                Op::First => { it.seek_to_first(); pos = (!model.is_empty()).then_some(0); }
                Op::Last => { it.seek_to_last(); pos = model.len().checked_sub(1); }
                Op::Seek(k, s) => {
                    let t = ik(&ukey(k), s, ValueType::Value);
                    it.seek(&t);
                    let i = model.partition_point(|e| icmp.compare(&e.0, &t).is_lt());
                    pos = (i < model.len()).then_some(i);
                }
                Op::SeekForPrev(k, s) => {
                    let t = ik(&ukey(k), s, ValueType::Value);
                    it.seek_for_prev(&t);
                    let i = model.partition_point(|e| icmp.compare(&e.0, &t).is_le());
                    pos = i.checked_sub(1);
                }
                Op::Next(n) => {
                    for _ in 0..n {
                        if pos.is_none() { break; }
                        it.next();
                        pos = pos.and_then(|p| (p + 1 < model.len()).then_some(p + 1));
                        prop_assert_eq!(it.valid(), pos.is_some());
                    }
                }
                Op::Prev(n) => {
                    for _ in 0..n {
                        if pos.is_none() { break; }
                        it.prev();
                        pos = pos.and_then(|p| p.checked_sub(1));
                        prop_assert_eq!(it.valid(), pos.is_some());
                    }
                }
            }
            prop_assert_eq!(it.valid(), pos.is_some());
            if let Some(p) = pos {
                prop_assert_eq!(it.key(), model[p].0.as_slice());
                prop_assert_eq!(it.value(), model[p].1.as_slice());
            }
        }
    }
}

/// Micro benchmark: `cargo test --release -p solistore memtable::tests::bench -- --ignored --nocapture`.
#[test]
#[ignore = "benchmark; run explicitly in release mode"]
#[allow(non_snake_case)]
fn bench_insert_and_get_1m() {
    // MEMTABLE_BENCH_N overrides the size (smaller runs under valgrind).
    let n_env = std::env::var("MEMTABLE_BENCH_N")
        .ok()
        .and_then(|v| v.parse().ok());
    let N: usize = n_env.unwrap_or(1_000_000);
    // 16-byte keys in a pseudo-random order (xorshift), values of 16 bytes.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let keys: Vec<[u8; 16]> = (0..N)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mut k = [0u8; 16];
            k[..8].copy_from_slice(&x.to_be_bytes());
            k[8..].copy_from_slice(&x.rotate_left(29).to_le_bytes());
            k
        })
        .collect();
    // db_bench's keys: the key number in decimal, zero-padded to 16 bytes (a long shared prefix).
    let decimal: Vec<[u8; 16]> = keys
        .iter()
        .map(|k| {
            let n = u64::from_be_bytes(k[..8].try_into().expect("8 bytes")) % 1_000_000_000;
            let mut d = [0u8; 16];
            d.copy_from_slice(format!("{n:016}").as_bytes());
            d
        })
        .collect();
    for (kind, keys) in [("random keys", &keys), ("decimal keys", &decimal)] {
        for (name, icmp) in [
            ("bytewise", InternalKeyComparator::default()),
            (
                "custom (bytewise via dyn)",
                InternalKeyComparator::new(Arc::new(OpaqueBytewise)),
            ),
        ] {
            let m = Arc::new(MemTable::new(icmp));
            let c = thread_cpu_ns();
            let t = std::time::Instant::now();
            for (i, k) in keys.iter().enumerate() {
                m.add(i as u64 + 1, ValueType::Value, k, &k[..])
                    .expect("add");
            }
            let ins = t.elapsed();
            let ins_cpu = thread_cpu_ns() - c;
            let c = thread_cpu_ns();
            let t = std::time::Instant::now();
            let mut found = 0usize;
            for k in keys.iter().rev() {
                m.get(k, MAX_SEQUENCE_NUMBER, &mut |_, _, v| {
                    found += v.len();
                    false
                });
            }
            let get = t.elapsed();
            let get_cpu = thread_cpu_ns() - c;
            assert!(found >= N * 16 * 99 / 100);
            let c = thread_cpu_ns();
            let t = std::time::Instant::now();
            let mut it = m.iter();
            it.seek_to_first();
            let mut n = 0;
            while it.valid() {
                n += 1;
                it.next();
            }
            let scan = t.elapsed();
            let scan_cpu = thread_cpu_ns() - c;
            assert!(n >= N * 99 / 100);
            let per = |d: std::time::Duration| d.as_nanos() as f64 / N as f64;
            let per_cpu = |ns: u64| ns as f64 / N as f64;
            println!(
            "{kind}, {name}: ns per op, wall (thread cpu): insert {:.0} ({:.0}), get {:.0} ({:.0}), \
             scan {:.0} ({:.0}); accounted memory {} MB",
            per(ins),
            per_cpu(ins_cpu),
            per(get),
            per_cpu(get_cpu),
            per(scan),
            per_cpu(scan_cpu),
            m.approximate_memory_usage() >> 20
        );
        }
    }
}

/// CPU time of the calling thread in ns (from /proc; 0 if unavailable), so the benchmark is
/// meaningful on a machine shared with other jobs.
fn thread_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|f| f.parse().ok()))
        .unwrap_or(0)
}

/// Bytewise order without the `is_bytewise` fast path.
struct OpaqueBytewise;
impl Comparator for OpaqueBytewise {
    fn name(&self) -> &str {
        "opaque"
    }
    fn compare(&self, a: &[u8], b: &[u8]) -> Ordering {
        a.cmp(b)
    }
}

#[test]
fn merging_two_memtables_both_directions() {
    use crate::iter::merging::MergingIterator;
    let icmp = InternalKeyComparator::default();
    let old = Arc::new(MemTable::new(icmp.clone()));
    let new = Arc::new(MemTable::new(icmp.clone()));
    for i in 0..50u64 {
        let k = format!("k{:02}", i % 20);
        let m = if i % 3 == 0 { &new } else { &old };
        m.add(i + 1, ValueType::Value, k.as_bytes(), &i.to_le_bytes())
            .expect("add");
    }
    let mut it = MergingIterator::new(
        vec![Box::new(old.iter()), Box::new(new.iter())],
        icmp.clone(),
    );
    let fwd = collect_iter(&mut it);
    assert_eq!(fwd.len(), 50);
    assert!(fwd
        .windows(2)
        .all(|w| icmp.compare(&w[0].0, &w[1].0).is_lt()));
    let mut back = Vec::new();
    it.seek_to_last();
    while it.valid() {
        back.push((it.key().to_vec(), it.value().to_vec()));
        it.prev();
    }
    back.reverse();
    assert_eq!(back, fwd);
}
