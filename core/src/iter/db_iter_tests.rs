// SPDX-License-Identifier: Apache-2.0
//! Tests of `DbIter`: named behaviours, then a model test against a sorted-map oracle.

use super::*;
use crate::iter::cursor::VecIterator;
use crate::key::{BytewiseComparator, Comparator};
use crate::merge::UInt64AddOperator;
use crate::range_del::RangeTombstone;
use crate::Code;

use ValueType::{Deletion as D, Merge as M, SingleDeletion as SD, Value as V};

/// Joins operands with ',' after the existing value; fails on an operand "X".
struct StringAppend;
impl MergeOperator for StringAppend {
    fn name(&self) -> &str {
        "test.StringAppend"
    }
    fn full_merge(
        &self,
        _key: &[u8],
        existing: Option<&[u8]>,
        operands: &[&[u8]],
    ) -> Option<Vec<u8>> {
        if operands.iter().any(|o| *o == b"X") {
            return None;
        }
        let mut parts: Vec<&[u8]> = existing.into_iter().collect();
        parts.extend_from_slice(operands);
        Some(parts.join(&b","[..]))
    }
}

struct Fixture {
    entries: Vec<(Vec<u8>, u64, ValueType, Vec<u8>)>,
    tombstones: Vec<RangeTombstone>,
    read_seq: SequenceNumber,
    op: Option<Arc<dyn MergeOperator>>,
    lower: Option<Vec<u8>>,
    upper: Option<Vec<u8>>,
    ucmp: Arc<dyn Comparator>,
    max_skip: u64,
}

impl Fixture {
    fn new(entries: &[(&str, u64, ValueType, &str)]) -> Self {
        Fixture {
            entries: entries
                .iter()
                .map(|&(k, s, t, v)| (k.as_bytes().to_vec(), s, t, v.as_bytes().to_vec()))
                .collect(),
            tombstones: Vec::new(),
            read_seq: MAX_SEQUENCE_NUMBER,
            op: Some(Arc::new(StringAppend)),
            lower: None,
            upper: None,
            ucmp: Arc::new(BytewiseComparator),
            max_skip: DEFAULT_MAX_SEQUENTIAL_SKIP,
        }
    }
    fn tombstone(mut self, start: &str, end: &str, seq: u64) -> Self {
        self.tombstones.push(RangeTombstone {
            start: start.as_bytes().to_vec(),
            end: end.as_bytes().to_vec(),
            seq,
        });
        self
    }
    fn read_seq(mut self, s: u64) -> Self {
        self.read_seq = s;
        self
    }
    fn bounds(mut self, lower: Option<&str>, upper: Option<&str>) -> Self {
        self.lower = lower.map(|s| s.as_bytes().to_vec());
        self.upper = upper.map(|s| s.as_bytes().to_vec());
        self
    }
    fn op(mut self, op: Option<Arc<dyn MergeOperator>>) -> Self {
        self.op = op;
        self
    }
    fn iter(&self) -> DbIter {
        let icmp = InternalKeyComparator::new(self.ucmp.clone());
        let mut sorted: Vec<(Vec<u8>, Vec<u8>)> = self
            .entries
            .iter()
            .map(|(k, s, t, v)| {
                let mut ik = Vec::new();
                append_internal_key(&mut ik, k, *s, *t);
                (ik, v.clone())
            })
            .collect();
        sorted.sort_by(|a, b| icmp.compare(&a.0, &b.0));
        let tombstones = Arc::new(FragmentedRangeTombstones::new(
            self.tombstones.clone(),
            self.ucmp.clone(),
        ));
        let mut it = DbIter::new(
            Box::new(VecIterator::new(sorted, icmp.clone())),
            icmp,
            self.read_seq,
            self.op.clone(),
            tombstones,
            self.lower.clone(),
            self.upper.clone(),
        );
        it.set_max_sequential_skip(self.max_skip);
        it
    }
}

fn cur(it: &DbIter) -> Option<(String, String)> {
    it.valid().then(|| {
        (
            String::from_utf8_lossy(it.key()).into_owned(),
            String::from_utf8_lossy(it.value()).into_owned(),
        )
    })
}

fn forward(it: &mut DbIter) -> Vec<(String, String)> {
    let mut out = Vec::new();
    it.seek_to_first();
    while let Some(kv) = cur(it) {
        out.push(kv);
        it.next();
    }
    assert!(it.status().is_ok(), "{:?}", it.status());
    out
}

fn backward(it: &mut DbIter) -> Vec<(String, String)> {
    let mut out = Vec::new();
    it.seek_to_last();
    while let Some(kv) = cur(it) {
        out.push(kv);
        it.prev();
    }
    assert!(it.status().is_ok(), "{:?}", it.status());
    out.reverse();
    out
}

fn kv(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn at(it: &DbIter, k: &str, v: &str) {
    assert_eq!(cur(it), Some((k.to_string(), v.to_string())));
}

#[test]
fn prev_across_tombstones() {
    let f = Fixture::new(&[
        ("a", 1, V, "a1"),
        ("b", 3, D, ""),
        ("b", 2, V, "b2"),
        ("c", 4, V, "c4"),
        ("d", 6, V, "d6"),
        ("d", 5, D, ""),
        ("e", 8, SD, ""),
        ("e", 7, V, "e7"),
        ("f", 9, D, ""),
    ])
    .tombstone("c", "d", 10);
    let mut it = f.iter();
    let want = kv(&[("a", "a1"), ("d", "d6")]);
    assert_eq!(forward(&mut it), want);
    assert_eq!(backward(&mut it), want);
    it.seek_for_prev("cz".as_bytes());
    at(&it, "a", "a1");
    it.seek_for_prev(b"z");
    at(&it, "d", "d6");
    it.prev();
    at(&it, "a", "a1");
    it.prev();
    assert!(!it.valid());
}

#[test]
fn merge_chains_forward_and_backward() {
    let f = Fixture::new(&[
        ("k", 3, M, "3"),
        ("k", 2, M, "2"),
        ("k", 1, V, "1"),
        ("m", 5, M, "y"),
        ("m", 4, M, "x"),
        ("n", 8, M, "q"),
        ("n", 7, D, ""),
        ("n", 6, V, "old"),
        ("p", 9, V, "p"),
    ]);
    let want = kv(&[("k", "1,2,3"), ("m", "x,y"), ("n", "q"), ("p", "p")]);
    let mut it = f.iter();
    assert_eq!(forward(&mut it), want);
    assert_eq!(backward(&mut it), want);
    // The same through the re-seeking paths.
    let mut f = f;
    f.max_skip = 0;
    let mut it = f.iter();
    assert_eq!(forward(&mut it), want);
    assert_eq!(backward(&mut it), want);
}

#[test]
fn uint64add_merges() {
    let n = |x: u64| String::from_utf8(x.to_le_bytes().to_vec()).expect("small numbers are utf8");
    let (one, two, five) = (n(1), n(2), n(5));
    let f = Fixture::new(&[
        ("a", 3, M, &one),
        ("a", 2, M, &two),
        ("a", 1, V, &five),
        ("b", 4, M, &two),
    ])
    .op(Some(Arc::new(UInt64AddOperator)));
    let want = vec![("a".to_string(), n(8)), ("b".to_string(), n(2))];
    let mut it = f.iter();
    assert_eq!(forward(&mut it), want);
    assert_eq!(backward(&mut it), want);
}

#[test]
fn snapshot_hides_newer_writes() {
    let f = Fixture::new(&[
        ("a", 5, V, "a5"),
        ("a", 1, V, "a1"),
        ("b", 6, V, "b6"),
        ("c", 7, D, ""),
        ("c", 2, V, "c2"),
        ("d", 8, M, "m8"),
        ("d", 3, V, "d3"),
        ("e", 9, V, "e9"),
    ])
    .tombstone("a", "z", 10)
    .read_seq(4);
    let want = kv(&[("a", "a1"), ("c", "c2"), ("d", "d3")]);
    let mut it = f.iter();
    assert_eq!(forward(&mut it), want);
    assert_eq!(backward(&mut it), want);
    it.seek(b"b");
    at(&it, "c", "c2");
    it.seek_for_prev(b"b");
    at(&it, "a", "a1");

    let mut it = f.read_seq(10).iter();
    assert_eq!(forward(&mut it), vec![]);
}

#[test]
fn bounds_both_ways() {
    let entries: Vec<(String, u64, ValueType, String)> = ["a", "b", "c", "d", "e", "f"]
        .iter()
        .enumerate()
        .map(|(i, k)| (k.to_string(), i as u64 + 1, V, k.to_uppercase()))
        .collect();
    let refs: Vec<(&str, u64, ValueType, &str)> = entries
        .iter()
        .map(|(k, s, t, v)| (k.as_str(), *s, *t, v.as_str()))
        .collect();
    let f = Fixture::new(&refs).bounds(Some("b"), Some("e"));
    let mut it = f.iter();
    let want = kv(&[("b", "B"), ("c", "C"), ("d", "D")]);
    assert_eq!(forward(&mut it), want);
    assert_eq!(backward(&mut it), want);
    it.seek(b"a");
    at(&it, "b", "B");
    it.prev();
    assert!(!it.valid());
    it.seek(b"e");
    assert!(!it.valid());
    it.seek(b"dd");
    assert!(!it.valid());
    it.seek_for_prev(b"z");
    at(&it, "d", "D");
    it.next();
    assert!(!it.valid());
    it.seek_for_prev(b"e");
    at(&it, "d", "D");
    it.seek_for_prev(b"a");
    assert!(!it.valid());
    it.seek_for_prev(b"bb");
    at(&it, "b", "B");

    // Only a lower bound, or only an upper bound.
    let mut it = Fixture::new(&refs).bounds(Some("e"), None).iter();
    assert_eq!(backward(&mut it), kv(&[("e", "E"), ("f", "F")]));
    let mut it = Fixture::new(&refs).bounds(None, Some("b")).iter();
    assert_eq!(forward(&mut it), kv(&[("a", "A")]));
    assert_eq!(backward(&mut it), kv(&[("a", "A")]));
}

#[test]
fn direction_switching_at_the_ends() {
    let f = Fixture::new(&[
        ("a", 2, M, "a2"),
        ("a", 1, M, "a1"),
        ("b", 3, V, "b"),
        ("z", 5, M, "z5"),
        ("z", 4, M, "z4"),
    ]);
    let mut it = f.iter();
    it.seek_to_first();
    at(&it, "a", "a1,a2");
    it.prev();
    assert!(!it.valid());
    it.seek_to_last();
    at(&it, "z", "z4,z5");
    it.next();
    assert!(!it.valid());

    // Forward onto a merged last key (inner cursor exhausted), then back.
    it.seek(b"b");
    it.next();
    at(&it, "z", "z4,z5");
    it.prev();
    at(&it, "b", "b");
    it.prev();
    at(&it, "a", "a1,a2");
    it.next();
    at(&it, "b", "b");
    it.next();
    at(&it, "z", "z4,z5");
    it.prev();
    it.prev();
    at(&it, "a", "a1,a2");
    // Reverse onto the first key (inner cursor off the front), then forward.
    it.next();
    at(&it, "b", "b");
    it.prev();
    at(&it, "a", "a1,a2");
    it.next();
    it.next();
    it.prev();
    at(&it, "b", "b");
}

#[test]
fn range_tombstone_covering_merge_chains_middle() {
    let f = Fixture::new(&[
        ("k", 6, M, "4"),
        ("k", 4, M, "3"),
        ("k", 2, M, "2"),
        ("k", 1, V, "1"),
        ("l", 7, V, "l"),
    ])
    .tombstone("j", "ka", 3);
    for max_skip in [0, 8] {
        let mut f = f.clone_shallow();
        f.max_skip = max_skip;
        let mut it = f.iter();
        let want = kv(&[("k", "3,4"), ("l", "l")]);
        assert_eq!(forward(&mut it), want);
        assert_eq!(backward(&mut it), want);
        let mut it = f.clone_shallow().read_seq(5).iter();
        assert_eq!(forward(&mut it), kv(&[("k", "3")]));
        assert_eq!(backward(&mut it), kv(&[("k", "3")]));
        let mut it = f.clone_shallow().read_seq(2).iter();
        assert_eq!(forward(&mut it), kv(&[("k", "1,2")]));
        assert_eq!(backward(&mut it), kv(&[("k", "1,2")]));
    }
}

impl Fixture {
    fn clone_shallow(&self) -> Fixture {
        Fixture {
            entries: self.entries.clone(),
            tombstones: self.tombstones.clone(),
            read_seq: self.read_seq,
            op: self.op.clone(),
            lower: self.lower.clone(),
            upper: self.upper.clone(),
            ucmp: self.ucmp.clone(),
            max_skip: self.max_skip,
        }
    }
}

#[test]
fn merge_failure_reports_corruption() {
    let f = Fixture::new(&[
        ("a", 1, V, "a"),
        ("b", 3, M, "X"),
        ("b", 2, V, "b"),
        ("c", 4, V, "c"),
    ]);
    let mut it = f.iter();
    it.seek_to_first();
    at(&it, "a", "a");
    it.next();
    assert!(!it.valid());
    let err = it.status().expect_err("merge must fail");
    assert_eq!(err.code(), Code::Corruption);
    assert_eq!(err.message(), MERGE_FAILED_MESSAGE);
    // Moving an invalid iterator does nothing; a seek clears the error.
    it.next();
    assert!(!it.valid());
    it.seek(b"c");
    at(&it, "c", "c");
    assert!(it.status().is_ok());
    it.prev();
    assert!(!it.valid());
    assert_eq!(
        it.status().expect_err("merge must fail").message(),
        MERGE_FAILED_MESSAGE
    );
}

#[test]
fn merge_without_operator_is_invalid_argument() {
    let f = Fixture::new(&[("a", 1, V, "a"), ("b", 2, M, "m"), ("c", 3, V, "c")]).op(None);
    let mut it = f.iter();
    it.seek_to_first();
    at(&it, "a", "a");
    it.next();
    assert!(!it.valid());
    let err = it.status().expect_err("no operator");
    assert_eq!(err.code(), Code::InvalidArgument);
    assert_eq!(
        err.to_string(),
        "Invalid argument: merge_operator_ must be set."
    );
    it.seek_to_last();
    at(&it, "c", "c");
    it.prev();
    assert!(!it.valid());
    assert_eq!(
        it.status().expect_err("no operator").code(),
        Code::InvalidArgument
    );
}

#[test]
fn blob_and_wide_column_entries_are_not_supported() {
    for t in [ValueType::BlobIndex, ValueType::WideColumnEntity] {
        let mut it = Fixture::new(&[("a", 1, t, "x")]).iter();
        it.seek_to_first();
        assert!(!it.valid());
        assert_eq!(
            it.status().expect_err("unsupported").code(),
            Code::NotSupported
        );
        it.seek_to_last();
        assert!(!it.valid());
        assert_eq!(
            it.status().expect_err("unsupported").code(),
            Code::NotSupported
        );
        // A newer value hides the entry entirely.
        let mut it = Fixture::new(&[("a", 2, V, "v"), ("a", 1, t, "x")]).iter();
        assert_eq!(forward(&mut it), kv(&[("a", "v")]));
        assert_eq!(backward(&mut it), kv(&[("a", "v")]));
    }
}

#[test]
fn corrupt_internal_key_is_reported() {
    let icmp = InternalKeyComparator::default();
    let inner = VecIterator::new(vec![(b"abc".to_vec(), b"v".to_vec())], icmp.clone());
    let mut it = DbIter::new(
        Box::new(inner),
        icmp.clone(),
        100,
        None,
        Arc::new(FragmentedRangeTombstones::empty(Arc::new(
            BytewiseComparator,
        ))),
        None,
        None,
    );
    it.seek_to_first();
    assert!(!it.valid());
    let err = it.status().expect_err("corrupt key");
    assert_eq!(err.code(), Code::Corruption);
    assert!(err.message().starts_with("In DBIter: "), "{err}");
}

/// An inner cursor that is always exhausted with an I/O error.
struct Broken;
impl InternalIterator for Broken {
    fn valid(&self) -> bool {
        false
    }
    fn seek_to_first(&mut self) {}
    fn seek_to_last(&mut self) {}
    fn seek(&mut self, _: &[u8]) {}
    fn seek_for_prev(&mut self, _: &[u8]) {}
    fn next(&mut self) {}
    fn prev(&mut self) {}
    fn key(&self) -> &[u8] {
        &[]
    }
    fn value(&self) -> &[u8] {
        &[]
    }
    fn status(&self) -> Result<()> {
        Err(Error::io_error("disk on fire"))
    }
}

#[test]
fn inner_error_surfaces_in_status() {
    let mut it = DbIter::new(
        Box::new(Broken),
        InternalKeyComparator::default(),
        5,
        None,
        Arc::new(FragmentedRangeTombstones::empty(Arc::new(
            BytewiseComparator,
        ))),
        None,
        None,
    );
    it.seek_to_first();
    assert!(!it.valid());
    assert_eq!(it.status().expect_err("inner error").code(), Code::IoError);
    it.seek_for_prev(b"k");
    assert!(!it.valid());
    assert_eq!(it.status().expect_err("inner error").code(), Code::IoError);
}

#[test]
fn many_versions_use_reseek() {
    let mut entries: Vec<(String, u64, ValueType, String)> = (1..=40)
        .map(|s| {
            (
                "k".to_string(),
                s,
                if s % 3 == 0 { M } else { V },
                format!("v{s}"),
            )
        })
        .collect();
    entries.push(("a".into(), 0, V, "a".into()));
    entries.push(("z".into(), 51, V, "z".into()));
    let refs: Vec<(&str, u64, ValueType, &str)> = entries
        .iter()
        .map(|(k, s, t, v)| (k.as_str(), *s, *t, v.as_str()))
        .collect();
    let f = Fixture::new(&refs).read_seq(36);
    let want = kv(&[("a", "a"), ("k", "v35,v36")]);
    let mut it = f.iter();
    assert_eq!(forward(&mut it), want);
    assert_eq!(backward(&mut it), want);
    let mut it = f.read_seq(60).iter();
    let want = kv(&[("a", "a"), ("k", "v40"), ("z", "z")]);
    assert_eq!(forward(&mut it), want);
    assert_eq!(backward(&mut it), want);
}

/// Orders keys by reversed bytes.
struct Reverse;
impl Comparator for Reverse {
    fn name(&self) -> &str {
        "test.Reverse"
    }
    fn compare(&self, a: &[u8], b: &[u8]) -> std::cmp::Ordering {
        b.cmp(a)
    }
}

#[test]
fn custom_comparator_orders_keys_and_tombstones() {
    let mut f = Fixture::new(&[
        ("a", 1, V, "a"),
        ("b", 2, V, "b"),
        ("c", 3, V, "c"),
        ("d", 4, V, "d"),
    ])
    .tombstone("c", "b", 10) // under Reverse: covers "c" only
    .bounds(None, Some("a"));
    f.ucmp = Arc::new(Reverse);
    let mut it = f.iter();
    let want = kv(&[("d", "d"), ("b", "b")]);
    assert_eq!(forward(&mut it), want);
    assert_eq!(backward(&mut it), want);
}

// ---- model test ----

mod model {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    const KEYS: [&str; 6] = ["", "a", "b", "c", "d", "e"];
    const TARGETS: [&str; 10] = ["", "a", "aa", "b", "c", "cc", "d", "e", "ee", "f"];

    #[derive(Debug, Clone, Copy)]
    enum OpKind {
        Add,
        Append,
        None,
    }

    #[derive(Debug, Clone)]
    enum Step {
        First,
        Last,
        Seek(usize),
        SeekForPrev(usize),
        Next,
        Prev,
    }

    fn step() -> impl Strategy<Value = Step> {
        prop_oneof![
            1 => Just(Step::First),
            1 => Just(Step::Last),
            2 => (0..TARGETS.len()).prop_map(Step::Seek),
            2 => (0..TARGETS.len()).prop_map(Step::SeekForPrev),
            4 => Just(Step::Next),
            4 => Just(Step::Prev),
        ]
    }

    fn value_type() -> impl Strategy<Value = ValueType> {
        prop_oneof![3 => Just(V), 1 => Just(D), 1 => Just(SD), 3 => Just(M)]
    }

    fn bound() -> impl Strategy<Value = Option<usize>> {
        prop_oneof![2 => Just(None), 1 => (0..TARGETS.len()).prop_map(Some)]
    }

    fn encode(op: OpKind, v: u8) -> Vec<u8> {
        match op {
            OpKind::Add => u64::from(v).to_le_bytes().to_vec(),
            // Roughly one value in sixteen makes the merge fail.
            _ if v.is_multiple_of(16) => b"X".to_vec(),
            _ => vec![b'a' + v % 26],
        }
    }

    /// What the model says a user key shows: a value, or an error (merge failure or no
    /// merge operator).
    type Shown = std::result::Result<Vec<u8>, Code>;

    /// The visible view: user key -> shown value, within the bounds.
    fn expected(
        entries: &[(Vec<u8>, u64, ValueType, Vec<u8>)],
        tombstones: &[RangeTombstone],
        read_seq: u64,
        op: Option<&dyn MergeOperator>,
        lower: Option<&[u8]>,
        upper: Option<&[u8]>,
    ) -> Vec<(Vec<u8>, Shown)> {
        // user key -> (seq, type, value) versions
        type Versions = Vec<(u64, ValueType, Vec<u8>)>;
        let mut by_key: BTreeMap<Vec<u8>, Versions> = BTreeMap::new();
        for (k, s, t, v) in entries {
            by_key
                .entry(k.clone())
                .or_default()
                .push((*s, *t, v.clone()));
        }
        let mut out = Vec::new();
        for (k, mut versions) in by_key {
            if lower.is_some_and(|l| k.as_slice() < l) || upper.is_some_and(|u| k.as_slice() >= u) {
                continue;
            }
            let cover = tombstones
                .iter()
                .filter(|t| t.start <= k && k < t.end && t.seq <= read_seq)
                .map(|t| t.seq)
                .max()
                .unwrap_or(0);
            versions.sort_by_key(|v| std::cmp::Reverse(v.0));
            let mut operands: Vec<Vec<u8>> = Vec::new(); // newest first
            let mut base: Option<Vec<u8>> = None;
            let mut any = false;
            for (s, t, v) in versions {
                if s > read_seq {
                    continue;
                }
                if s < cover {
                    break;
                }
                match t {
                    V => {
                        base = Some(v);
                        any = true;
                        break;
                    }
                    M => {
                        operands.push(v);
                        any = true;
                    }
                    _ => break,
                }
            }
            if !any {
                continue;
            }
            let shown = if operands.is_empty() {
                Ok(base.expect("a visible value without operands"))
            } else {
                match op {
                    None => Err(Code::InvalidArgument),
                    Some(op) => {
                        let ops: Vec<&[u8]> = operands.iter().rev().map(|o| o.as_slice()).collect();
                        op.full_merge(&k, base.as_deref(), &ops)
                            .ok_or(Code::Corruption)
                    }
                }
            };
            out.push((k, shown));
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn db_iter_matches_model(
            raw in proptest::collection::vec((0..KEYS.len(), 1u64..80, value_type(), any::<u8>()), 0..24),
            raw_tombstones in proptest::collection::vec((0..KEYS.len(), 0..KEYS.len(), 1u64..80), 0..3),
            read_seq in 0u64..85,
            op_kind in prop_oneof![4 => Just(OpKind::Add), 4 => Just(OpKind::Append), 1 => Just(OpKind::None)],
            lower in bound(),
            upper in bound(),
            max_skip in prop_oneof![Just(0u64), Just(1), Just(2), Just(8)],
            steps in proptest::collection::vec(step(), 1..40),
        ) {
            // Sequence numbers are unique across point entries and tombstones.
            let mut used = std::collections::HashSet::new();
            let entries: Vec<(Vec<u8>, u64, ValueType, Vec<u8>)> = raw
                .iter()
                .filter(|(_, s, _, _)| used.insert(*s))
                .map(|&(k, s, t, v)| (KEYS[k].as_bytes().to_vec(), s, t, encode(op_kind, v)))
                .collect();
            let tombstones: Vec<RangeTombstone> = raw_tombstones
                .iter()
                .filter(|(_, _, s)| used.insert(*s))
                .map(|&(a, b, s)| RangeTombstone {
                    start: KEYS[a].as_bytes().to_vec(),
                    end: KEYS[b].as_bytes().to_vec(),
                    seq: s,
                })
                .collect();
            let op: Option<Arc<dyn MergeOperator>> = match op_kind {
                OpKind::Add => Some(Arc::new(UInt64AddOperator)),
                OpKind::Append => Some(Arc::new(StringAppend)),
                OpKind::None => None,
            };
            let lower_key = lower.map(|i| TARGETS[i].as_bytes().to_vec());
            let upper_key = upper.map(|i| TARGETS[i].as_bytes().to_vec());
            let view = expected(
                &entries,
                &tombstones,
                read_seq,
                op.as_deref(),
                lower_key.as_deref(),
                upper_key.as_deref(),
            );
            let fixture = Fixture {
                entries,
                tombstones,
                read_seq,
                op,
                lower: lower_key.clone(),
                upper: upper_key.clone(),
                ucmp: Arc::new(BytewiseComparator),
                max_skip,
            };
            let mut it = fixture.iter();

            // Model cursor: a position in `view`, and the error code it hit, if any.
            let mut pos: Option<usize> = None;
            let mut err: Option<Code> = None;
            for (n, step) in steps.iter().enumerate() {
                let land = |p: Option<usize>, err: &mut Option<Code>| -> Option<usize> {
                    match p {
                        Some(i) => match &view[i].1 {
                            Ok(_) => Some(i),
                            Err(code) => {
                                *err = Some(*code);
                                None
                            }
                        },
                        None => None,
                    }
                };
                match step {
                    Step::First => {
                        it.seek_to_first();
                        err = None;
                        pos = land((!view.is_empty()).then_some(0), &mut err);
                    }
                    Step::Last => {
                        it.seek_to_last();
                        err = None;
                        pos = land(view.len().checked_sub(1), &mut err);
                    }
                    Step::Seek(t) => {
                        let target = TARGETS[*t].as_bytes();
                        it.seek(target);
                        err = None;
                        let i = view.partition_point(|(k, _)| k.as_slice() < target);
                        pos = land((i < view.len()).then_some(i), &mut err);
                    }
                    Step::SeekForPrev(t) => {
                        let target = TARGETS[*t].as_bytes();
                        it.seek_for_prev(target);
                        err = None;
                        let i = view.partition_point(|(k, _)| k.as_slice() <= target);
                        pos = land(i.checked_sub(1), &mut err);
                    }
                    Step::Next => {
                        it.next();
                        if let Some(i) = pos {
                            pos = land((i + 1 < view.len()).then_some(i + 1), &mut err);
                        }
                    }
                    Step::Prev => {
                        it.prev();
                        if let Some(i) = pos {
                            pos = land(i.checked_sub(1), &mut err);
                        }
                    }
                }
                let got = cur(&it).map(|(k, v)| (k.into_bytes(), v));
                let want = pos.map(|i| {
                    let v = view[i].1.clone().expect("landed on a value");
                    (view[i].0.clone(), String::from_utf8_lossy(&v).into_owned())
                });
                prop_assert_eq!(got, want, "step {} {:?}; view {:?}", n, step, view);
                prop_assert_eq!(it.status().err().map(|e| e.code()), err, "step {} {:?}", n, step);
                if it.valid() {
                    // The raw value matches too (UInt64Add values are not UTF-8 safe).
                    let i = pos.expect("valid");
                    prop_assert_eq!(Ok(it.value().to_vec()), view[i].1.clone());
                }
            }
        }
    }
}

#[test]
fn thread_safety_markers() {
    fn send<T: Send>() {}
    fn send_sync<T: Send + Sync>() {}
    send::<DbIter>();
    send_sync::<FragmentedRangeTombstones>();
}
