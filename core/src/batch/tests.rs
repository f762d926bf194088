// SPDX-License-Identifier: Apache-2.0
//! Unit and property tests for `WriteBatch`. Golden reps are derived by hand from the grammar
//! in `docs/format/write_batch.md`; `differential.rs` checks the same against librocksdb.

use super::*;
use proptest::prelude::*;

fn unhex(s: &str) -> Vec<u8> {
    let s: String = s.split_whitespace().collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("valid hex"))
        .collect()
}

/// A rep with the given count and records (given as hex).
fn rep(count: u32, records: &str) -> Vec<u8> {
    let mut r = vec![0u8; 8];
    r.extend_from_slice(&count.to_le_bytes());
    r.extend_from_slice(&unhex(records));
    r
}

fn corruption_text(rep: Vec<u8>) -> String {
    let err = WriteBatch::from_rep(rep).expect_err("rep is malformed");
    assert!(err.is_corruption(), "{err}");
    err.message().to_string()
}

/// An owned copy of what a handler saw.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Op {
    Put(u32, Vec<u8>, Vec<u8>),
    Delete(u32, Vec<u8>),
    SingleDelete(u32, Vec<u8>),
    Merge(u32, Vec<u8>, Vec<u8>),
    DeleteRange(u32, Vec<u8>, Vec<u8>),
    LogData(Vec<u8>),
    Mark(String),
    BlobIndex(u32, Vec<u8>, Vec<u8>),
    Entity(u32, Vec<u8>, Vec<u8>),
}

#[derive(Default)]
struct Recorder {
    ops: Vec<Op>,
    /// Fail on the n-th call (0-based), if set.
    fail_at: Option<usize>,
    /// Accept blob index and entity records instead of using the defaults.
    accept_all: bool,
}

impl Recorder {
    fn push(&mut self, op: Op) -> Result<()> {
        if self.fail_at == Some(self.ops.len()) {
            return Err(Error::busy("handler says stop"));
        }
        self.ops.push(op);
        Ok(())
    }
}

impl Handler for Recorder {
    fn put(&mut self, cf: u32, key: &[u8], value: &[u8]) -> Result<()> {
        self.push(Op::Put(cf, key.to_vec(), value.to_vec()))
    }
    fn delete(&mut self, cf: u32, key: &[u8]) -> Result<()> {
        self.push(Op::Delete(cf, key.to_vec()))
    }
    fn single_delete(&mut self, cf: u32, key: &[u8]) -> Result<()> {
        self.push(Op::SingleDelete(cf, key.to_vec()))
    }
    fn merge(&mut self, cf: u32, key: &[u8], value: &[u8]) -> Result<()> {
        self.push(Op::Merge(cf, key.to_vec(), value.to_vec()))
    }
    fn delete_range(&mut self, cf: u32, begin: &[u8], end: &[u8]) -> Result<()> {
        self.push(Op::DeleteRange(cf, begin.to_vec(), end.to_vec()))
    }
    fn log_data(&mut self, blob: &[u8]) -> Result<()> {
        self.push(Op::LogData(blob.to_vec()))
    }
    fn put_blob_index(&mut self, cf: u32, key: &[u8], value: &[u8]) -> Result<()> {
        if !self.accept_all {
            return Err(Error::not_supported("blob index"));
        }
        self.push(Op::BlobIndex(cf, key.to_vec(), value.to_vec()))
    }
    fn put_entity(&mut self, cf: u32, key: &[u8], entity: &[u8]) -> Result<()> {
        if !self.accept_all {
            return Err(Error::not_supported("entity"));
        }
        self.push(Op::Entity(cf, key.to_vec(), entity.to_vec()))
    }
    fn mark(&mut self, marker: &Record<'_>) -> Result<()> {
        self.push(Op::Mark(format!("{marker:?}")))
    }
}

fn replay(b: &WriteBatch) -> Vec<Op> {
    let mut r = Recorder {
        accept_all: true,
        ..Recorder::default()
    };
    b.iterate(&mut r).expect("iterate");
    r.ops
}

#[test]
fn new_batch_is_twelve_zero_bytes() {
    let b = WriteBatch::new();
    assert_eq!(b.data(), &[0u8; HEADER_SIZE]);
    assert!(b.is_empty());
    assert_eq!((b.count(), b.sequence(), b.size_in_bytes()), (0, 0, 12));
    assert_eq!(WriteBatch::default().data(), b.data());
    assert_eq!(b.records().count(), 0);
    assert!(WriteBatch::from_rep(b.into_rep()).is_ok());
}

#[test]
fn header_is_little_endian_sequence_then_count() {
    let mut b = WriteBatch::new();
    b.set_sequence(0x0102_0304_0506_0708);
    b.set_count(0x0a0b_0c0d);
    assert_eq!(b.data(), unhex("0807060504030201 0d0c0b0a").as_slice());
    assert_eq!(b.sequence(), 0x0102_0304_0506_0708);
    assert_eq!(b.count(), 0x0a0b_0c0d);
}

#[test]
fn golden_default_cf_records() {
    let mut b = WriteBatch::new();
    b.set_sequence(100);
    b.put(0, b"k", b"v");
    b.delete(0, b"d");
    b.single_delete(0, b"s");
    b.merge(0, b"m", b"+1");
    b.delete_range(0, b"a", b"c");
    b.put_log_data(b"L");
    let want = "6400000000000000 05000000 \
                01 016b 0176 \
                00 0164 \
                07 0173 \
                02 016d 022b31 \
                0f 0161 0163 \
                03 014c";
    assert_eq!(b.data(), unhex(want).as_slice());
    assert_eq!(b.count(), 5);
    assert!(!b.is_empty());
}

#[test]
fn worked_example_in_format_doc() {
    let mut b = WriteBatch::new();
    b.set_sequence(100);
    b.put(0, b"k", b"v");
    b.delete(3, b"d");
    b.put_log_data(b"L");
    let want = "64 00 00 00 00 00 00 00  02 00 00 00  01 01 6b 01 76  04 03 01 64  03 01 4c";
    assert_eq!(b.data(), unhex(want).as_slice());
}

#[test]
fn golden_column_family_records() {
    let mut b = WriteBatch::new();
    b.put(1, b"k", b"v");
    b.delete(2, b"k");
    b.single_delete(3, b"k");
    b.merge(127, b"k", b"v");
    b.delete_range(128, b"a", b"b");
    b.put(300, b"", b"");
    let want = "0000000000000000 06000000 \
                05 01 016b 0176 \
                04 02 016b \
                08 03 016b \
                06 7f 016b 0176 \
                0e 8001 0161 0162 \
                05 ac02 00 00";
    assert_eq!(b.data(), unhex(want).as_slice());
}

#[test]
fn golden_parts_concatenate() {
    let mut b = WriteBatch::new();
    b.put_parts(0, &[b"ab", b"", b"c"], &[b"x", b"yz"]);
    b.delete_parts(4, &[b"q", b"r"]);
    b.single_delete_parts(0, &[]);
    b.merge_parts(0, &[b"m"], &[b"1", b"2"]);
    b.delete_range_parts(9, &[b"a", b"a"], &[b"z"]);
    let want = "0000000000000000 05000000 \
                01 03616263 0378797a \
                04 04 027172 \
                07 00 \
                02 016d 023132 \
                0e 09 026161 017a";
    assert_eq!(b.data(), unhex(want).as_slice());
}

#[test]
fn long_lengths_use_multibyte_varints() {
    let mut b = WriteBatch::new();
    let key = vec![7u8; 200];
    let value = vec![9u8; 20000];
    b.put(0, &key, &value);
    let d = b.data();
    // tag, varint32(200) = c8 01, key, varint32(20000) = a0 9c 01, value.
    assert_eq!(&d[12..15], &[0x01, 0xc8, 0x01]);
    assert_eq!(&d[215..218], &[0xa0, 0x9c, 0x01]);
    assert_eq!(d.len(), 12 + 1 + 2 + 200 + 3 + 20000);
    assert_eq!(replay(&b), vec![Op::Put(0, key, value)]);
}

/// A rep holding every tag 7.8.3 knows, each followed by its fields.
fn every_tag_rep() -> Vec<u8> {
    rep(
        14,
        "01 016b 0176 \
         05 07 016b 0176 \
         00 016b \
         04 07 016b \
         07 016b \
         08 07 016b \
         02 016b 0176 \
         06 07 016b 0176 \
         0f 0161 017a \
         0e 07 0161 017a \
         11 016b 0262 69 \
         10 07 016b 0262 69 \
         16 016b 0165 \
         17 07 016b 0165 \
         03 0462 6c6f62 \
         0d \
         09 \
         12 \
         13 \
         0a 0178 \
         0b 0178 \
         15 0174 0178 \
         0c 0178",
    )
}

#[test]
fn every_known_tag_decodes() {
    let b = WriteBatch::from_rep(every_tag_rep()).expect("valid");
    let recs: Vec<Record<'_>> = b.records().collect::<Result<_>>().expect("valid");
    let (k, v, x): (&[u8], &[u8], &[u8]) = (b"k", b"v", b"x");
    let want = vec![
        Record::Put {
            cf: 0,
            key: k,
            value: v,
        },
        Record::Put {
            cf: 7,
            key: k,
            value: v,
        },
        Record::Delete { cf: 0, key: k },
        Record::Delete { cf: 7, key: k },
        Record::SingleDelete { cf: 0, key: k },
        Record::SingleDelete { cf: 7, key: k },
        Record::Merge {
            cf: 0,
            key: k,
            value: v,
        },
        Record::Merge {
            cf: 7,
            key: k,
            value: v,
        },
        Record::DeleteRange {
            cf: 0,
            begin: b"a",
            end: b"z",
        },
        Record::DeleteRange {
            cf: 7,
            begin: b"a",
            end: b"z",
        },
        Record::BlobIndex {
            cf: 0,
            key: k,
            value: b"bi",
        },
        Record::BlobIndex {
            cf: 7,
            key: k,
            value: b"bi",
        },
        Record::WideColumnEntity {
            cf: 0,
            key: k,
            value: b"e",
        },
        Record::WideColumnEntity {
            cf: 7,
            key: k,
            value: b"e",
        },
        Record::LogData(b"blob"),
        Record::Noop,
        Record::BeginPrepare,
        Record::BeginPersistedPrepare,
        Record::BeginUnprepare,
        Record::EndPrepare(x),
        Record::Commit(x),
        Record::CommitWithTimestamp {
            xid: x,
            commit_ts: b"t",
        },
        Record::Rollback(x),
    ];
    assert_eq!(recs, want);
    let counted = recs.iter().filter(|r| r.is_counted()).count();
    assert_eq!(counted, 14);
    assert_eq!(recs[1].column_family(), Some(7));
    assert_eq!(Record::Noop.column_family(), None);
}

#[test]
fn iterate_dispatches_every_kind() {
    let b = WriteBatch::from_rep(every_tag_rep()).expect("valid");
    let ops = replay(&b);
    assert_eq!(ops.len(), 23);
    assert_eq!(ops[10], Op::BlobIndex(0, b"k".to_vec(), b"bi".to_vec()));
    assert_eq!(ops[13], Op::Entity(7, b"k".to_vec(), b"e".to_vec()));
    assert_eq!(ops[14], Op::LogData(b"blob".to_vec()));
    assert_eq!(ops[15], Op::Mark("Noop".into()));
    assert!(matches!(&ops[21], Op::Mark(m) if m.starts_with("CommitWithTimestamp")));
}

#[test]
fn default_handler_methods_follow_rocksdb() {
    struct Minimal;
    impl Handler for Minimal {
        fn put(&mut self, _: u32, _: &[u8], _: &[u8]) -> Result<()> {
            Ok(())
        }
        fn delete(&mut self, _: u32, _: &[u8]) -> Result<()> {
            Ok(())
        }
        fn single_delete(&mut self, _: u32, _: &[u8]) -> Result<()> {
            Ok(())
        }
        fn merge(&mut self, _: u32, _: &[u8], _: &[u8]) -> Result<()> {
            Ok(())
        }
        fn delete_range(&mut self, _: u32, _: &[u8], _: &[u8]) -> Result<()> {
            Ok(())
        }
    }
    // LogData, Noop and markers are skipped by default.
    let b = WriteBatch::from_rep(rep(1, "03 0162 0d 09 0a 0178 01 016b 0176 0b 0178")).expect("ok");
    assert_eq!(b.iterate(&mut Minimal), Ok(()));
    let blob = WriteBatch::from_rep(rep(1, "11 016b 0162")).expect("ok");
    let err = blob.iterate(&mut Minimal).expect_err("default refuses");
    assert_eq!(
        err.to_string(),
        "Invalid argument: PutBlobIndexCF not implemented"
    );
    let entity = WriteBatch::from_rep(rep(1, "17 05 016b 0165")).expect("ok");
    let err = entity.iterate(&mut Minimal).expect_err("default refuses");
    assert_eq!(
        err.to_string(),
        "Not implemented: PutEntityCF not implemented"
    );
}

#[test]
fn unknown_tags_are_corruption() {
    for t in [0x14u8, 0x18, 0x19, 0x1a, 0x7f, 0x80, 0xff] {
        let mut r = rep(0, "");
        r.push(t);
        r.extend_from_slice(&[1, b'k', 1, b'v']);
        assert_eq!(corruption_text(r), "unknown WriteBatch tag", "tag {t:#x}");
    }
}

#[test]
fn truncated_records_name_their_kind() {
    let cases = [
        ("01 016b", "bad WriteBatch Put"),
        ("05", "bad WriteBatch Put"),
        ("05 80", "bad WriteBatch Put"),
        ("00 026b", "bad WriteBatch Delete"),
        ("04 01", "bad WriteBatch Delete"),
        ("07", "bad WriteBatch Delete"),
        ("08 01 05", "bad WriteBatch Delete"),
        ("02 016b 05", "bad WriteBatch Merge"),
        ("06 ff", "bad WriteBatch Merge"),
        ("0f 0161", "bad WriteBatch DeleteRange"),
        ("0e 01 0161 02", "bad WriteBatch DeleteRange"),
        ("11 016b", "bad WriteBatch BlobIndex"),
        ("10", "bad WriteBatch BlobIndex"),
        ("16 016b", "bad WriteBatch PutEntity"),
        ("17 01 016b", "bad WriteBatch PutEntity"),
        ("03 05 6162", "bad WriteBatch Blob"),
        ("0a", "bad EndPrepare XID"),
        ("0b 02 78", "bad Commit XID"),
        ("15 0174", "bad Commit XID"),
        ("15 05", "bad commit timestamp"),
        ("0c ffffffffff", "bad Rollback XID"),
    ];
    for (records, want) in cases {
        assert_eq!(corruption_text(rep(1, records)), want, "records {records}");
    }
}

#[test]
fn short_rep_is_too_small() {
    for n in 0..HEADER_SIZE {
        assert_eq!(
            corruption_text(vec![0; n]),
            "malformed WriteBatch (too small)"
        );
        let b = WriteBatch::from_rep_unchecked(vec![0; n]);
        assert_eq!((b.count(), b.sequence()), (0, 0));
        let err = b.iterate(&mut Recorder::default()).expect_err("too small");
        assert_eq!(err.message(), "malformed WriteBatch (too small)");
        assert!(!b.has_put());
    }
}

#[test]
fn mutating_a_short_unchecked_rep_pads_the_header() {
    let mut b = WriteBatch::from_rep_unchecked(vec![5, 0, 0]);
    b.put(0, b"k", b"v");
    assert_eq!(
        b.data(),
        unhex("0500000000000000 01000000 01016b0176").as_slice()
    );
    assert!(WriteBatch::from_rep(b.into_rep()).is_ok());
}

#[test]
fn count_must_match_counted_records() {
    // LogData, Noop and markers are not counted.
    assert!(WriteBatch::from_rep(rep(0, "03 00 0d 09 0a 00 0b 00 0c 00 13 12")).is_ok());
    assert!(WriteBatch::from_rep(rep(2, "01 0161 00 03 00 00 0162")).is_ok());
    for n in [0, 1, 3, u32::MAX] {
        assert_eq!(
            corruption_text(rep(n, "01 0161 00 03 00 00 0162")),
            "WriteBatch has wrong count"
        );
    }
    // The count error comes only after every record was replayed.
    let b = WriteBatch::from_rep_unchecked(rep(5, "01 0161 00 00 0162"));
    let mut r = Recorder::default();
    let err = b.iterate(&mut r).expect_err("wrong count");
    assert_eq!(err.message(), "WriteBatch has wrong count");
    assert_eq!(r.ops.len(), 2);
    // A malformed record is reported instead of the count.
    assert_eq!(
        corruption_text(rep(5, "01 0161 00 01")),
        "bad WriteBatch Put"
    );
}

#[test]
fn records_yield_one_error_then_stop() {
    let b = WriteBatch::from_rep_unchecked(rep(9, "00 0161 ee 00 0162"));
    let items: Vec<_> = b.records().collect();
    assert_eq!(items.len(), 2);
    assert!(items[0].is_ok());
    assert_eq!(
        items[1].as_ref().expect_err("bad tag").message(),
        "unknown WriteBatch tag"
    );
    let b = WriteBatch::from_rep_unchecked(rep(9, "00 0161"));
    let items: Vec<_> = b.records().collect();
    assert_eq!(items.len(), 2);
    assert_eq!(
        items[1].as_ref().expect_err("count").message(),
        "WriteBatch has wrong count"
    );
}

#[test]
fn handler_error_stops_iteration_and_wins_over_count() {
    let mut b = WriteBatch::new();
    b.put(0, b"a", b"1");
    b.delete(0, b"b");
    b.merge(0, b"c", b"3");
    b.set_count(7);
    let mut r = Recorder {
        fail_at: Some(1),
        ..Recorder::default()
    };
    let err = b.iterate(&mut r).expect_err("handler fails");
    assert_eq!(err, Error::busy("handler says stop"));
    assert_eq!(r.ops, vec![Op::Put(0, b"a".to_vec(), b"1".to_vec())]);
}

#[test]
fn cf_varint_reads_like_rocksdb() {
    // Five bytes: the bits above 32 in the last byte are dropped, as GetVarint32Ptr does.
    let b = WriteBatch::from_rep(rep(2, "05 ffffffff0f 00 00 05 ffffffff7f 00 00")).expect("ok");
    let cfs: Vec<_> = b
        .records()
        .map(|r| r.expect("ok").column_family())
        .collect();
    assert_eq!(cfs, vec![Some(u32::MAX), Some(u32::MAX)]);
    // A sixth continuation byte is malformed.
    assert_eq!(
        corruption_text(rep(1, "05 ffffffffff01 00 00")),
        "bad WriteBatch Put"
    );
    // An explicit cf 0 in a CF tag is accepted and reads as the default family.
    let b = WriteBatch::from_rep(rep(1, "05 00 016b 0176")).expect("ok");
    assert_eq!(replay(&b), vec![Op::Put(0, b"k".to_vec(), b"v".to_vec())]);
}

#[test]
fn save_points_nest_and_roll_back() {
    let mut b = WriteBatch::new();
    b.set_sequence(42);
    b.put(0, b"a", b"1");
    let after_a = b.data().to_vec();
    b.set_save_point();
    b.put(1, b"b", b"2");
    let after_b = b.data().to_vec();
    b.set_save_point();
    b.delete(0, b"c");
    b.put_log_data(b"x");
    b.set_save_point(); // nothing after it
    assert_eq!(b.rollback_to_save_point(), Ok(()));
    assert_eq!(b.count(), 3);
    assert_eq!(b.rollback_to_save_point(), Ok(()));
    assert_eq!(b.data(), after_b.as_slice());
    assert_eq!(b.count(), 2);
    assert_eq!(b.rollback_to_save_point(), Ok(()));
    assert_eq!(b.data(), after_a.as_slice());
    assert_eq!((b.count(), b.sequence()), (1, 42));
    let err = b.rollback_to_save_point().expect_err("stack is empty");
    assert_eq!(err.to_string(), "NotFound: ");
    assert_eq!(
        b.pop_save_point().expect_err("empty").to_string(),
        "NotFound: "
    );
}

#[test]
fn pop_keeps_records_and_clear_drops_save_points() {
    let mut b = WriteBatch::new();
    b.set_save_point();
    b.put(0, b"a", b"1");
    b.set_save_point();
    b.put(0, b"b", b"2");
    assert_eq!(b.pop_save_point(), Ok(()));
    assert_eq!(b.count(), 2);
    assert_eq!(b.rollback_to_save_point(), Ok(()));
    assert!(b.is_empty());
    assert_eq!(b.data(), &[0u8; 12]);

    b.set_sequence(9);
    b.put(0, b"a", b"1");
    b.set_save_point();
    b.clear();
    assert_eq!(b.data(), &[0u8; 12], "clear zeroes the sequence too");
    assert!(b.rollback_to_save_point().is_err());
}

#[test]
fn append_concatenates_and_adds_counts() {
    let mut a = WriteBatch::new();
    a.set_sequence(10);
    a.put(0, b"a", b"1");
    let mut b = WriteBatch::new();
    b.set_sequence(99);
    b.delete(3, b"b");
    b.put_log_data(b"L");
    b.merge(0, b"c", b"2");
    a.append(&b);
    assert_eq!((a.count(), a.sequence()), (3, 10));
    assert_eq!(&a.data()[12..17], &unhex("01 0161 0131")[..]);
    assert_eq!(&a.data()[17..], &b.data()[12..]);
    assert!(WriteBatch::from_rep(a.data().to_vec()).is_ok());
    let before = a.data().to_vec();
    a.append(&WriteBatch::new());
    assert_eq!(a.data(), before.as_slice());
    let mut e = WriteBatch::new();
    e.append(&b);
    assert_eq!(&e.data()[8..], &b.data()[8..]);
    assert_eq!(e.sequence(), 0);
}

#[test]
fn content_queries() {
    let mut b = WriteBatch::new();
    assert!(!b.has_put() && !b.has_delete() && !b.has_merge());
    b.put_log_data(b"only log");
    assert!(!b.is_empty(), "a LogData-only batch is not empty");
    assert_eq!(b.count(), 0);
    b.put(2, b"k", b"v");
    assert!(b.has_put() && !b.has_delete());
    b.delete(0, b"k");
    b.single_delete(0, b"k");
    b.merge(0, b"k", b"v");
    b.delete_range(0, b"a", b"b");
    assert!(b.has_delete() && b.has_single_delete() && b.has_merge() && b.has_delete_range());
    assert!(!b.has_blob_index() && !b.has_put_entity() && !b.has_commit());
    let m = WriteBatch::from_rep(every_tag_rep()).expect("valid");
    assert!(m.has_blob_index() && m.has_put_entity());
    assert!(m.has_begin_prepare() && m.has_end_prepare() && m.has_commit() && m.has_rollback());
}

#[test]
fn check_sizes_uses_rocksdb_words() {
    assert_eq!(check_sizes(0, 0), Ok(()));
    assert_eq!(check_sizes(u32::MAX as usize, u32::MAX as usize), Ok(()));
    let big = u32::MAX as usize + 1;
    assert_eq!(
        check_sizes(big, 0).expect_err("too big").to_string(),
        "Invalid argument: key is too large"
    );
    assert_eq!(
        check_sizes(0, big).expect_err("too big").to_string(),
        "Invalid argument: value is too large"
    );
}

/// A random API call, as an owned op; `LogData` is included, markers are not (no API).
fn arb_op() -> impl Strategy<Value = Op> {
    let bytes = || proptest::collection::vec(any::<u8>(), 0..40);
    let cf = prop_oneof![Just(0u32), 1u32..200, any::<u32>()];
    prop_oneof![
        (cf.clone(), bytes(), bytes()).prop_map(|(c, k, v)| Op::Put(c, k, v)),
        (cf.clone(), bytes()).prop_map(|(c, k)| Op::Delete(c, k)),
        (cf.clone(), bytes()).prop_map(|(c, k)| Op::SingleDelete(c, k)),
        (cf.clone(), bytes(), bytes()).prop_map(|(c, k, v)| Op::Merge(c, k, v)),
        (cf, bytes(), bytes()).prop_map(|(c, k, v)| Op::DeleteRange(c, k, v)),
        bytes().prop_map(Op::LogData),
    ]
}

fn apply(b: &mut WriteBatch, op: &Op) {
    match op {
        Op::Put(c, k, v) => b.put(*c, k, v),
        Op::Delete(c, k) => b.delete(*c, k),
        Op::SingleDelete(c, k) => b.single_delete(*c, k),
        Op::Merge(c, k, v) => b.merge(*c, k, v),
        Op::DeleteRange(c, k, v) => b.delete_range(*c, k, v),
        Op::LogData(blob) => b.put_log_data(blob),
        _ => unreachable!("arb_op makes no markers"),
    }
}

/// Exercises every reader on an arbitrary rep; must not panic.
fn read_everything(rep: Vec<u8>) {
    let _ = WriteBatch::from_rep(rep.clone());
    let b = WriteBatch::from_rep_unchecked(rep);
    let _ = b.iterate(&mut Recorder::default());
    let _ = b.records().count();
    let _ = (
        b.has_put(),
        b.has_commit(),
        b.is_empty(),
        b.count(),
        b.sequence(),
    );
}

proptest! {
    #[test]
    fn api_batches_round_trip(seq in any::<u64>(), ops in proptest::collection::vec(arb_op(), 0..20)) {
        let mut b = WriteBatch::new();
        b.set_sequence(seq);
        for op in &ops {
            apply(&mut b, op);
        }
        let counted = ops.iter().filter(|o| !matches!(o, Op::LogData(_))).count();
        prop_assert_eq!(b.count() as usize, counted);
        let back = WriteBatch::from_rep(b.data().to_vec()).expect("API output is valid");
        prop_assert_eq!(back.sequence(), seq);
        prop_assert_eq!(replay(&back), ops);
    }

    #[test]
    fn parts_equal_concatenation(ops in proptest::collection::vec(arb_op(), 0..10), split in any::<prop::sample::Index>()) {
        let mut whole = WriteBatch::new();
        let mut parts = WriteBatch::new();
        for op in &ops {
            apply(&mut whole, op);
            let cut = |v: &Vec<u8>| split.index(v.len() + 1);
            match op {
                Op::Put(c, k, v) => {
                    let (a, b) = k.split_at(cut(k));
                    parts.put_parts(*c, &[a, b], &[v]);
                }
                Op::Delete(c, k) => {
                    let (a, b) = k.split_at(cut(k));
                    parts.delete_parts(*c, &[a, b]);
                }
                Op::SingleDelete(c, k) => parts.single_delete_parts(*c, &[k]),
                Op::Merge(c, k, v) => {
                    let (a, b) = v.split_at(cut(v));
                    parts.merge_parts(*c, &[k], &[a, b]);
                }
                Op::DeleteRange(c, k, v) => {
                    let (a, b) = v.split_at(cut(v));
                    parts.delete_range_parts(*c, &[k], &[a, b, &[]]);
                }
                other => apply(&mut parts, other),
            }
        }
        prop_assert_eq!(whole.data(), parts.data());
    }

    #[test]
    fn save_point_rollback_restores_exact_bytes(
        before in proptest::collection::vec(arb_op(), 0..6),
        after in proptest::collection::vec(arb_op(), 0..6),
    ) {
        let mut b = WriteBatch::new();
        for op in &before { apply(&mut b, op); }
        let snapshot = b.data().to_vec();
        b.set_save_point();
        for op in &after { apply(&mut b, op); }
        b.rollback_to_save_point().expect("one save point");
        prop_assert_eq!(b.data(), snapshot.as_slice());
    }

    #[test]
    fn from_rep_never_panics_on_arbitrary_bytes(rep in proptest::collection::vec(any::<u8>(), 0..200)) {
        read_everything(rep);
    }

    #[test]
    fn from_rep_never_panics_on_mutated_reps(
        ops in proptest::collection::vec(arb_op(), 1..8),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..4),
    ) {
        let mut b = WriteBatch::new();
        for op in &ops { apply(&mut b, op); }
        let mut rep = b.into_rep();
        for (at, byte, kind) in edits {
            let i = at.index(rep.len());
            match kind {
                0 => rep[i] = byte,
                1 => rep.truncate(i),
                _ => rep.insert(i, byte),
            }
            if rep.is_empty() { break; }
        }
        read_everything(rep);
    }
}
