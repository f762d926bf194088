// SPDX-License-Identifier: Apache-2.0
//! Round trips through `TableBuilder` and `Table`: every checksum and compression type,
//! corruption detection, and cursor movement across block boundaries against a sorted model.

use std::sync::{Arc, Mutex};

use proptest::prelude::*;

use super::*;
use crate::error::Result;
use crate::fs::WritableFile;
use crate::iter::cursor::VecIterator;
use crate::iter::InternalIterator;
use crate::key::{append_internal_key, InternalKeyComparator, ValueType};

/// An in-memory file whose bytes stay reachable after the builder consumed the handle.
#[derive(Clone, Default)]
pub(crate) struct MemFile(pub Arc<Mutex<Vec<u8>>>);

impl WritableFile for MemFile {
    fn append(&mut self, data: &[u8]) -> Result<()> {
        self.0.lock().expect("not poisoned").extend_from_slice(data);
        Ok(())
    }
    fn sync(&mut self) -> Result<()> {
        Ok(())
    }
    fn size(&self) -> u64 {
        self.0.lock().expect("not poisoned").len() as u64
    }
}

pub(crate) fn ik(k: &[u8], seq: u64, t: ValueType) -> Vec<u8> {
    let mut v = Vec::new();
    append_internal_key(&mut v, k, seq, t);
    v
}

pub(crate) fn build(
    entries: &[(Vec<u8>, Vec<u8>)],
    opts: TableBuilderOptions,
) -> (Vec<u8>, TableInfo) {
    let f = MemFile::default();
    let mut b = TableBuilder::new(opts, Box::new(f.clone())).expect("valid options");
    for (k, v) in entries {
        b.add(k, v).expect("in order");
    }
    let info = b.finish().expect("finish");
    let bytes = f.0.lock().expect("not poisoned").clone();
    (bytes, info)
}

pub(crate) fn open(bytes: Vec<u8>) -> Result<Arc<Table>> {
    let n = bytes.len() as u64;
    Ok(Arc::new(Table::open(
        Arc::new(bytes),
        n,
        TableReaderOptions::default(),
    )?))
}

fn scan(t: &Arc<Table>) -> Vec<(Vec<u8>, Vec<u8>)> {
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

/// Sorted entries: `n` user keys, some with several sequence numbers and types.
pub(crate) fn sample_entries(n: usize, value_len: usize) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut out = Vec::new();
    for i in 0..n {
        let uk = format!("key{:06}", i * 7).into_bytes();
        let versions = 1 + (i % 3);
        for v in 0..versions {
            let seq = 10_000 - (v as u64) * 10 - (i as u64 % 5);
            let t = match (i + v) % 11 {
                0 => ValueType::Deletion,
                5 => ValueType::Merge,
                _ => ValueType::Value,
            };
            let value = if t == ValueType::Deletion {
                Vec::new()
            } else {
                format!("value-{i}-{v}-")
                    .into_bytes()
                    .into_iter()
                    .cycle()
                    .take(value_len)
                    .collect()
            };
            out.push((ik(&uk, seq, t), value));
        }
    }
    out
}

#[test]
fn round_trip_every_checksum_and_compression() {
    let entries = sample_entries(800, 40);
    for checksum in [
        ChecksumType::NoChecksum,
        ChecksumType::Crc32c,
        ChecksumType::XxHash,
        ChecksumType::XxHash64,
        ChecksumType::Xxh3,
    ] {
        for compression in [
            CompressionType::None,
            CompressionType::Snappy,
            CompressionType::Lz4,
        ] {
            for format_version in [2, 3, 4, 5, 6] {
                let opts = TableBuilderOptions {
                    checksum,
                    compression,
                    format_version,
                    ..Default::default()
                };
                let (bytes, info) = build(&entries, opts);
                assert_eq!(info.file_size, bytes.len() as u64);
                let t = open(bytes).expect("opens");
                assert_eq!(t.footer().checksum_type, checksum);
                assert_eq!(t.footer().format_version, format_version);
                assert_eq!(
                    scan(&t),
                    entries,
                    "{checksum:?} {compression:?} fv{format_version}"
                );
                t.verify_checksums().expect("checksums verify");
                let p = t.properties();
                assert_eq!(p.num_entries, entries.len() as u64);
                assert_eq!(p.compression_name, compression.name());
                assert!(p.num_data_blocks > 10);
                assert_eq!(
                    p.index_value_is_delta_encoded,
                    u64::from(format_version >= 4)
                );
            }
        }
    }
}

#[test]
fn table_info_and_properties_count_entries() {
    let entries = sample_entries(300, 10);
    let f = MemFile::default();
    let mut b = TableBuilder::new(TableBuilderOptions::default(), Box::new(f.clone()))
        .expect("valid options");
    for (k, v) in &entries {
        b.add(k, v).expect("in order");
    }
    b.add_range_tombstone(b"key000100", b"key000200", 20_000)
        .expect("tombstone");
    b.add_range_tombstone(b"a", b"b", 5).expect("tombstone");
    let info = b.finish().expect("finish");
    let dels = entries
        .iter()
        .filter(|(k, _)| crate::key::internal_key::trailer(k) & 0xff == 0)
        .count() as u64;
    let merges = entries
        .iter()
        .filter(|(k, _)| crate::key::internal_key::trailer(k) & 0xff == 2)
        .count() as u64;
    assert_eq!(info.num_entries, entries.len() as u64 + 2);
    assert_eq!(info.num_deletions, dels + 2);
    assert_eq!(info.num_range_deletions, 2);
    assert_eq!(info.num_merge_operands, merges);
    assert_eq!(info.smallest, ik(b"a", 5, ValueType::RangeDeletion));
    assert_eq!(info.largest, entries.last().expect("non-empty").0);
    assert_eq!(info.largest_seqno, 20_000);
    assert_eq!(info.smallest_seqno, 5);
    let bytes = f.0.lock().expect("not poisoned").clone();
    let t = open(bytes).expect("opens");
    assert_eq!(scan(&t), entries, "tombstones are not point entries");
    let tombs = t.range_tombstones();
    assert_eq!(tombs.len(), 2);
    assert_eq!(tombs[0].start, b"a");
    assert_eq!(tombs[0].end, b"b");
    assert_eq!(tombs[1].seq, 20_000);
    assert_eq!(t.properties(), &info.properties);
    assert_eq!(t.properties().comparator_name, "leveldb.BytewiseComparator");
    assert_eq!(t.properties().merge_operator_name, "nullptr");
}

#[test]
fn empty_table_opens_and_iterates_nothing() {
    let (bytes, info) = build(&[], TableBuilderOptions::default());
    assert!(info.smallest.is_empty());
    let t = open(bytes).expect("opens");
    let mut it = t.iter();
    it.seek_to_first();
    assert!(!it.valid());
    it.seek_to_last();
    assert!(!it.valid());
    assert!(it.status().is_ok());
}

#[test]
fn out_of_order_keys_are_rejected() {
    let f = MemFile::default();
    let mut b = TableBuilder::new(TableBuilderOptions::default(), Box::new(f)).expect("opts");
    b.add(&ik(b"b", 1, ValueType::Value), b"x").expect("first");
    assert!(b.add(&ik(b"a", 1, ValueType::Value), b"x").is_err());
    assert!(
        b.add(&ik(b"b", 1, ValueType::Value), b"x").is_err(),
        "duplicate"
    );
    b.add(&ik(b"b", 0, ValueType::Value), b"x")
        .expect("older seq sorts after");
}

#[test]
fn index_uses_user_keys_unless_a_user_key_spans_blocks() {
    // Distinct user keys: user-key index.
    let distinct: Vec<_> = (0..500)
        .map(|i| {
            (
                ik(format!("k{i:05}").as_bytes(), 1, ValueType::Value),
                vec![b'v'; 50],
            )
        })
        .collect();
    let (bytes, _) = build(&distinct, TableBuilderOptions::default());
    let t = open(bytes).expect("opens");
    assert_eq!(t.properties().index_key_is_user_key, 1);
    assert_eq!(scan(&t), distinct);
    // One user key with many versions spans blocks: internal-key index.
    let versions: Vec<_> = (0..500u64)
        .map(|i| (ik(b"same", 1000 - i, ValueType::Value), vec![b'v'; 50]))
        .collect();
    let (bytes, _) = build(&versions, TableBuilderOptions::default());
    let t = open(bytes).expect("opens");
    assert_eq!(t.properties().index_key_is_user_key, 0);
    assert_eq!(scan(&t), versions);
    let mut it = t.iter();
    it.seek(&ik(b"same", 700, ValueType::Value));
    assert!(it.valid());
    assert_eq!(it.key(), &versions[300].0[..]);
}

#[test]
fn corrupted_block_is_reported_as_corruption() {
    let entries = sample_entries(400, 30);
    for checksum in [
        ChecksumType::Crc32c,
        ChecksumType::Xxh3,
        ChecksumType::XxHash64,
    ] {
        let (mut bytes, _) = build(
            &entries,
            TableBuilderOptions {
                checksum,
                compression: CompressionType::None,
                ..Default::default()
            },
        );
        bytes[100] ^= 0x01; // inside the first data block
        let t = open(bytes).expect("meta blocks are intact");
        let mut it = t.iter();
        it.seek_to_first();
        assert!(!it.valid());
        let err = it.status().expect_err("checksum mismatch");
        assert!(err.is_corruption(), "{err}");
        assert!(err.message().contains("checksum mismatch"), "{err}");
        assert!(t.verify_checksums().is_err());
    }
}

#[test]
fn corrupted_footer_or_metaindex_fails_open() {
    let (bytes, _) = build(&sample_entries(50, 10), TableBuilderOptions::default());
    let n = bytes.len();
    let mut bad_magic = bytes.clone();
    bad_magic[n - 1] ^= 0xff;
    assert!(open(bad_magic).expect_err("bad magic").is_corruption());
    let mut bad_meta = bytes.clone();
    bad_meta[n - 53 - 10] ^= 0x40; // inside the metaindex block
    assert!(open(bad_meta).expect_err("bad metaindex").is_corruption());
    assert!(open(bytes[..n - 1].to_vec()).is_err());
    assert!(open(Vec::new()).is_err());
}

#[test]
fn no_verify_skips_checksums() {
    let (mut bytes, _) = build(
        &sample_entries(50, 10),
        TableBuilderOptions {
            compression: CompressionType::None,
            ..Default::default()
        },
    );
    // Flip a byte of the first data block's stored checksum only.
    let t = open(bytes.clone()).expect("opens");
    let first = {
        let mut idx = t.new_index_iter();
        idx.seek_to_first();
        idx.block_handle()
    };
    bytes[(first.offset + first.size + 2) as usize] ^= 0xff;
    let n = bytes.len() as u64;
    let t = Arc::new(
        Table::open(
            Arc::new(bytes),
            n,
            TableReaderOptions {
                verify_checksums: false,
                ..Default::default()
            },
        )
        .expect("opens"),
    );
    assert_eq!(scan(&t).len(), sample_entries(50, 10).len());
}

#[test]
fn fuzzed_tables_never_panic() {
    let (bytes, _) = build(&sample_entries(60, 10), TableBuilderOptions::default());
    let mut x: u64 = 42;
    for _ in 0..300 {
        let mut b = bytes.clone();
        for _ in 0..4 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let i = (x as usize) % b.len();
            b[i] = (x >> 32) as u8;
        }
        let n = b.len() as u64;
        if let Ok(t) = Table::open(
            Arc::new(b),
            n,
            TableReaderOptions {
                verify_checksums: false,
                ..Default::default()
            },
        ) {
            let t = Arc::new(t);
            let mut it = t.iter();
            it.seek_to_first();
            let mut steps = 0;
            while it.valid() && steps < 10_000 {
                it.next();
                steps += 1;
            }
            it.seek_to_last();
            it.prev();
            it.seek(b"key000100\x01\x00\x00\x00\x00\x00\x00\x00");
        }
    }
}

#[test]
fn posix_file_reads_what_was_written() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("000001.sst");
    let entries = sample_entries(200, 20);
    let (bytes, info) = build(&entries, TableBuilderOptions::default());
    std::fs::write(&path, &bytes).expect("write");
    let file = PosixRandomAccessFile::open(&path).expect("open");
    assert_eq!(file.size().expect("size"), info.file_size);
    let t = Arc::new(
        Table::open(
            Arc::new(file),
            info.file_size,
            TableReaderOptions::default(),
        )
        .expect("opens"),
    );
    assert_eq!(scan(&t), entries);
    let (k, _) = t
        .get(&ik(
            b"key000700",
            crate::key::MAX_SEQUENCE_NUMBER,
            ValueType::Value,
        ))
        .expect("read")
        .expect("present");
    assert_eq!(crate::key::internal_key::user_key(&k), b"key000700");
}

struct CountingFilter {
    keys: Vec<Vec<u8>>,
}

impl filter_api::FilterBlockBuilder for CountingFilter {
    fn add_key(&mut self, key: &[u8]) {
        self.keys.push(key.to_vec());
    }
    fn finish(&mut self) -> Vec<u8> {
        let mut out = Vec::new();
        for k in self.keys.drain(..) {
            crate::util::coding::put_length_prefixed(&mut out, &k);
        }
        out
    }
    fn name(&self) -> String {
        "test.ExactFilter".into()
    }
}

struct ExactReader(std::collections::HashSet<Vec<u8>>);

impl filter_api::FilterBlockReader for ExactReader {
    fn key_may_match(&self, key: &[u8]) -> bool {
        self.0.contains(key)
    }
}

#[test]
fn filter_block_round_trip_through_metaindex() {
    let entries = sample_entries(100, 10);
    let opts = TableBuilderOptions {
        filter: Some(Box::new(CountingFilter { keys: Vec::new() })),
        ..Default::default()
    };
    let (bytes, info) = build(&entries, opts);
    assert_eq!(
        info.properties.num_filter_entries, 100,
        "one per distinct user key"
    );
    let n = bytes.len() as u64;
    let factory = |block: &[u8]| -> Option<Box<dyn filter_api::FilterBlockReader>> {
        let mut d = crate::util::coding::Decoder::new(block);
        let mut set = std::collections::HashSet::new();
        while !d.is_empty() {
            set.insert(d.length_prefixed()?.to_vec());
        }
        Some(Box::new(ExactReader(set)))
    };
    let t = Table::open_with_filter(
        Arc::new(bytes),
        n,
        TableReaderOptions::default(),
        Some(&factory),
    )
    .expect("opens");
    assert_eq!(t.filter_name(), Some("test.ExactFilter"));
    assert!(t.metaindex().contains_key("fullfilter.test.ExactFilter"));
    assert!(t.key_may_match(b"key000007"));
    assert!(!t.key_may_match(b"key000008"));
    assert_eq!(t.properties().filter_policy_name, "test.ExactFilter");
    assert_eq!(
        t.properties().filter_size,
        t.filter_block().map_or(0, |b| b.len() as u64)
    );
}

fn model_check(
    entries: Vec<(Vec<u8>, Vec<u8>)>,
    probes: Vec<(Vec<u8>, u64)>,
    opts: TableBuilderOptions,
) -> std::result::Result<(), TestCaseError> {
    let (bytes, _) = build(&entries, opts);
    let t = open(bytes).expect("opens");
    let cmp = InternalKeyComparator::default();
    let mut it = t.iter();
    let mut model = VecIterator::new(entries.clone(), cmp);
    let same = |it: &TableIterator, m: &VecIterator| -> std::result::Result<(), TestCaseError> {
        prop_assert_eq!(it.valid(), m.valid());
        if it.valid() {
            prop_assert_eq!(it.key(), m.key());
            prop_assert_eq!(it.value(), m.value());
        }
        Ok(())
    };
    // Whole backward scan.
    let mut back = Vec::new();
    it.seek_to_last();
    while it.valid() {
        back.push((it.key().to_vec(), it.value().to_vec()));
        it.prev();
    }
    back.reverse();
    prop_assert_eq!(&back, &entries);
    for (k, seq) in probes {
        let target = ik(&k, seq, ValueType::Value);
        it.seek(&target);
        model.seek(&target);
        same(&it, &model)?;
        for step in 0..3 {
            if step % 2 == 0 {
                it.prev();
                model.prev();
            } else {
                it.next();
                model.next();
            }
            same(&it, &model)?;
        }
        it.seek_for_prev(&target);
        model.seek_for_prev(&target);
        same(&it, &model)?;
        it.next();
        model.next();
        same(&it, &model)?;
        it.prev();
        model.prev();
        same(&it, &model)?;
    }
    Ok(())
}

fn arb_entries() -> impl Strategy<Value = Vec<(Vec<u8>, Vec<u8>)>> {
    proptest::collection::btree_map(
        (proptest::collection::vec(0u8..6, 1..5), 0u64..5),
        proptest::collection::vec(any::<u8>(), 0..60),
        0..400,
    )
    .prop_map(|m| {
        let mut v: Vec<(Vec<u8>, Vec<u8>)> = m
            .into_iter()
            .map(|((k, seq), val)| (ik(&k, seq, ValueType::Value), val))
            .collect();
        let cmp = InternalKeyComparator::default();
        v.sort_by(|a, b| cmp.compare(&a.0, &b.0));
        v
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn cursor_matches_sorted_vec(
        entries in arb_entries(),
        probes in proptest::collection::vec((proptest::collection::vec(0u8..6, 0..5), 0u64..6), 1..25),
        block_size in 64usize..1024,
        restart in 1usize..8,
        fv in 2u32..=6,
    ) {
        let opts = TableBuilderOptions {
            block_size,
            block_restart_interval: restart,
            index_block_restart_interval: restart,
            format_version: fv,
            compression: CompressionType::Lz4,
            ..Default::default()
        };
        model_check(entries, probes, opts)?;
    }
}

#[test]
fn external_file_keys_take_the_global_sequence_number() {
    let entries: Vec<_> = (0..400)
        .map(|i| {
            (
                ik(format!("e{i:05}").as_bytes(), 0, ValueType::Value),
                vec![b'x'; 30],
            )
        })
        .collect();
    let mut user_properties = std::collections::BTreeMap::new();
    user_properties.insert(
        reader::EXTERNAL_SST_VERSION.to_string(),
        2u32.to_le_bytes().to_vec(),
    );
    let opts = TableBuilderOptions {
        user_properties,
        ..Default::default()
    };
    let (bytes, _) = build(&entries, opts);
    let n = bytes.len() as u64;
    let bytes = Arc::new(bytes);
    let open_at = |largest_seqno| {
        Table::open(
            Arc::clone(&bytes) as Arc<dyn RandomAccessFile>,
            n,
            TableReaderOptions {
                largest_seqno,
                ..Default::default()
            },
        )
    };
    let t = Arc::new(open_at(9).expect("opens"));
    assert_eq!(t.global_seqno(), Some(9));
    let mut it = t.iter();
    it.seek_to_last();
    assert_eq!(it.key(), &ik(b"e00399", 9, ValueType::Value)[..]);
    it.seek_for_prev(&ik(b"e00100", 5, ValueType::Value));
    assert_eq!(it.key(), &ik(b"e00100", 9, ValueType::Value)[..]);
    it.seek(&ik(b"e00100", 5, ValueType::Value));
    assert_eq!(it.key(), &ik(b"e00101", 9, ValueType::Value)[..]);
    // Unknown largest seqno: the property's value (absent = 0) is used.
    let t = open_at(crate::key::MAX_SEQUENCE_NUMBER).expect("opens");
    assert_eq!(t.global_seqno(), Some(0));
}
