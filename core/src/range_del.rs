// SPDX-License-Identifier: Apache-2.0
//! Range tombstones: `delete_range(start, end)` deletes every key in `[start, end)` written
//! with a lower sequence number. Read path (and, later, flush and compaction, which write the
//! fragments out).
//!
//! [`FragmentedRangeTombstones`] is the read-side view, in the spirit of RocksDB's
//! `FragmentedRangeTombstoneList` (`db/range_tombstone_fragmenter.h`): the tombstones are cut
//! at every start and end key into non-overlapping fragments, and each fragment keeps the
//! sequence numbers of all tombstones that span it, newest first. "Is this key deleted at this
//! snapshot?" is then two binary searches: one over fragments by start key, one over the
//! fragment's sequence numbers.
//!
//! Visibility rule (RocksDB 7.8.3, applied by its merging iterator): a point entry with
//! sequence `s` for user key `k` is hidden at read sequence `r` when some tombstone covering
//! `k` has sequence `t` with `s < t <= r`. Tombstones newer than the snapshot are ignored.

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::sync::Arc;

use crate::key::{Comparator, SequenceNumber};

/// One `delete_range` as stored: user keys `[start, end)` deleted at `seq`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RangeTombstone {
    pub start: Vec<u8>,
    pub end: Vec<u8>,
    pub seq: SequenceNumber,
}

/// One piece `[start, end)` of the fragmented set; `seq_begin..seq_end` indexes the shared
/// sequence list.
#[derive(Debug, Clone)]
struct Fragment {
    start: Vec<u8>,
    end: Vec<u8>,
    seq_begin: usize,
    seq_end: usize,
}

/// Immutable, fragmented view of a set of range tombstones for reads: non-overlapping
/// fragments sorted by start key, each with the sequence numbers of the tombstones covering
/// it, sorted descending and without duplicates.
///
/// Built once (per memtable or table, or per read view) and shared behind an `Arc`; it is
/// `Send + Sync` and never changes after [`FragmentedRangeTombstones::new`].
pub struct FragmentedRangeTombstones {
    fragments: Vec<Fragment>,
    /// Concatenated per-fragment sequence lists; fragment `f` owns
    /// `seqs[f.seq_begin..f.seq_end]`, sorted descending.
    seqs: Vec<SequenceNumber>,
    ucmp: Arc<dyn Comparator>,
}

impl std::fmt::Debug for FragmentedRangeTombstones {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FragmentedRangeTombstones")
            .field("fragments", &self.fragments.len())
            .field("comparator", &self.ucmp.name())
            .finish()
    }
}

impl FragmentedRangeTombstones {
    /// Fragments `tombstones` (in any order) under the user comparator `ucmp`.
    ///
    /// Tombstones whose `start >= end` are empty and dropped. Cost is O(n log n) plus the size
    /// of the output, which is O(n^2) only for pathological nestings (as in RocksDB).
    pub fn new(tombstones: Vec<RangeTombstone>, ucmp: Arc<dyn Comparator>) -> Self {
        let live: Vec<RangeTombstone> = tombstones
            .into_iter()
            .filter(|t| ucmp.compare(&t.start, &t.end) == Ordering::Less)
            .collect();
        if live.is_empty() {
            return Self::empty(ucmp);
        }

        // Every start and end key is a cut point.
        let mut bounds: Vec<&[u8]> = Vec::with_capacity(live.len() * 2);
        for t in &live {
            bounds.push(&t.start);
            bounds.push(&t.end);
        }
        bounds.sort_by(|a, b| ucmp.compare(a, b));
        bounds.dedup_by(|a, b| ucmp.compare(a, b) == Ordering::Equal);
        let index_of = |key: &[u8]| -> usize {
            // Every key was inserted above, so the search lands on an equal element.
            bounds.partition_point(|b| ucmp.compare(b, key) == Ordering::Less)
        };

        // Sweep the cut points, adding a tombstone's seq where it starts and dropping it
        // where it ends. `active` is a multiset: seq -> number of live tombstones with it.
        let mut starts_at: Vec<Vec<SequenceNumber>> = vec![Vec::new(); bounds.len()];
        let mut ends_at: Vec<Vec<SequenceNumber>> = vec![Vec::new(); bounds.len()];
        for t in &live {
            starts_at[index_of(&t.start)].push(t.seq);
            ends_at[index_of(&t.end)].push(t.seq);
        }
        let mut active: BTreeMap<SequenceNumber, usize> = BTreeMap::new();
        let mut fragments = Vec::new();
        let mut seqs = Vec::new();
        for i in 0..bounds.len() {
            for s in &ends_at[i] {
                if let Some(n) = active.get_mut(s) {
                    *n -= 1;
                    if *n == 0 {
                        active.remove(s);
                    }
                }
            }
            for s in &starts_at[i] {
                *active.entry(*s).or_insert(0) += 1;
            }
            if active.is_empty() || i + 1 == bounds.len() {
                continue;
            }
            let seq_begin = seqs.len();
            seqs.extend(active.keys().rev().copied());
            fragments.push(Fragment {
                start: bounds[i].to_vec(),
                end: bounds[i + 1].to_vec(),
                seq_begin,
                seq_end: seqs.len(),
            });
        }
        FragmentedRangeTombstones {
            fragments,
            seqs,
            ucmp,
        }
    }

    /// A set with no tombstones.
    pub fn empty(ucmp: Arc<dyn Comparator>) -> Self {
        FragmentedRangeTombstones {
            fragments: Vec::new(),
            seqs: Vec::new(),
            ucmp,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.fragments.is_empty()
    }

    /// The largest tombstone seq that is `<= read_seq` among tombstones covering `user_key`,
    /// or 0 when there is none. A point entry with sequence `s` is deleted at `read_seq` iff
    /// `s < max_covering_seq(key, read_seq)`. O(log n).
    pub fn max_covering_seq(&self, user_key: &[u8], read_seq: SequenceNumber) -> SequenceNumber {
        // The fragment with the greatest start <= user_key is the only candidate.
        let after = self
            .fragments
            .partition_point(|f| self.ucmp.compare(&f.start, user_key) != Ordering::Greater);
        let Some(frag) = after.checked_sub(1).map(|i| &self.fragments[i]) else {
            return 0;
        };
        if self.ucmp.compare(user_key, &frag.end) != Ordering::Less {
            return 0;
        }
        let seqs = &self.seqs[frag.seq_begin..frag.seq_end];
        let newer = seqs.partition_point(|&s| s > read_seq);
        seqs.get(newer).copied().unwrap_or(0)
    }

    /// Fragments in key order as `(start, end, seqs)`, seqs newest first; for flush and
    /// compaction, which write them out.
    pub fn fragments(&self) -> impl Iterator<Item = (&[u8], &[u8], &[SequenceNumber])> {
        self.fragments.iter().map(|f| {
            (
                f.start.as_slice(),
                f.end.as_slice(),
                &self.seqs[f.seq_begin..f.seq_end],
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::BytewiseComparator;

    fn t(start: &str, end: &str, seq: SequenceNumber) -> RangeTombstone {
        RangeTombstone {
            start: start.as_bytes().to_vec(),
            end: end.as_bytes().to_vec(),
            seq,
        }
    }

    fn frags(f: &FragmentedRangeTombstones) -> Vec<(String, String, Vec<SequenceNumber>)> {
        f.fragments()
            .map(|(s, e, q)| {
                (
                    String::from_utf8_lossy(s).into_owned(),
                    String::from_utf8_lossy(e).into_owned(),
                    q.to_vec(),
                )
            })
            .collect()
    }

    fn bytewise() -> Arc<dyn Comparator> {
        Arc::new(BytewiseComparator)
    }

    #[test]
    fn overlapping_tombstones_are_cut_into_fragments() {
        let f = FragmentedRangeTombstones::new(
            vec![
                t("c", "g", 5),
                t("a", "e", 10),
                t("f", "h", 3),
                t("a", "e", 10),
            ],
            bytewise(),
        );
        assert_eq!(
            frags(&f),
            vec![
                ("a".into(), "c".into(), vec![10]),
                ("c".into(), "e".into(), vec![10, 5]),
                ("e".into(), "f".into(), vec![5]),
                ("f".into(), "g".into(), vec![5, 3]),
                ("g".into(), "h".into(), vec![3]),
            ]
        );
        assert!(!f.is_empty());
    }

    #[test]
    fn gaps_produce_no_fragment_and_cover_nothing() {
        let f = FragmentedRangeTombstones::new(vec![t("a", "b", 4), t("d", "e", 6)], bytewise());
        assert_eq!(f.fragments().count(), 2);
        assert_eq!(f.max_covering_seq(b"a", 100), 4);
        assert_eq!(f.max_covering_seq(b"b", 100), 0); // end is exclusive
        assert_eq!(f.max_covering_seq(b"c", 100), 0);
        assert_eq!(f.max_covering_seq(b"d", 100), 6);
        assert_eq!(f.max_covering_seq(b"dzz", 100), 6);
        assert_eq!(f.max_covering_seq(b"e", 100), 0);
        assert_eq!(f.max_covering_seq(b"", 100), 0);
    }

    #[test]
    fn read_seq_selects_the_newest_visible_tombstone() {
        let f = FragmentedRangeTombstones::new(
            vec![t("a", "z", 5), t("a", "z", 9), t("k", "m", 20)],
            bytewise(),
        );
        assert_eq!(f.max_covering_seq(b"b", 4), 0);
        assert_eq!(f.max_covering_seq(b"b", 5), 5);
        assert_eq!(f.max_covering_seq(b"b", 8), 5);
        assert_eq!(f.max_covering_seq(b"b", 9), 9);
        assert_eq!(f.max_covering_seq(b"l", 19), 9);
        assert_eq!(f.max_covering_seq(b"l", 20), 20);
        assert_eq!(f.max_covering_seq(b"m", 20), 9);
    }

    #[test]
    fn empty_and_inverted_tombstones_are_ignored() {
        let f = FragmentedRangeTombstones::new(vec![t("b", "b", 3), t("c", "a", 4)], bytewise());
        assert!(f.is_empty());
        assert_eq!(f.max_covering_seq(b"b", 10), 0);
        assert!(FragmentedRangeTombstones::empty(bytewise()).is_empty());
    }

    /// Orders keys by reversed bytes, so "b" < "a".
    struct Reverse;
    impl Comparator for Reverse {
        fn name(&self) -> &str {
            "test.Reverse"
        }
        fn compare(&self, a: &[u8], b: &[u8]) -> Ordering {
            b.cmp(a)
        }
    }

    #[test]
    fn custom_comparator_orders_fragments() {
        // Under Reverse, ["d", "a") holds d, c, b; ["a", "d") is empty.
        let f = FragmentedRangeTombstones::new(
            vec![t("d", "a", 7), t("a", "d", 8), t("c", "", 2)],
            Arc::new(Reverse),
        );
        assert_eq!(
            frags(&f),
            vec![
                ("d".into(), "c".into(), vec![7]),
                ("c".into(), "a".into(), vec![7, 2]),
                ("a".into(), "".into(), vec![2]),
            ]
        );
        assert_eq!(f.max_covering_seq(b"d", 10), 7);
        assert_eq!(f.max_covering_seq(b"b", 10), 7);
        assert_eq!(f.max_covering_seq(b"a", 10), 2);
        assert_eq!(f.max_covering_seq(b"e", 10), 0);
        assert_eq!(f.max_covering_seq(b"", 10), 0);
    }

    #[test]
    fn matches_brute_force() {
        use proptest::prelude::*;
        let keys = ["", "a", "b", "c", "d", "e"];
        proptest!(|(raw in proptest::collection::vec((0usize..6, 0usize..6, 1u64..12), 0..8),
                    read_seq in 0u64..14)| {
            let ts: Vec<RangeTombstone> =
                raw.iter().map(|&(s, e, q)| t(keys[s], keys[e], q)).collect();
            let f = FragmentedRangeTombstones::new(ts.clone(), bytewise());
            for probe in ["", "a", "aa", "b", "c", "cc", "d", "e", "f"] {
                let want = ts
                    .iter()
                    .filter(|t| t.start.as_slice() <= probe.as_bytes()
                        && probe.as_bytes() < t.end.as_slice()
                        && t.seq <= read_seq)
                    .map(|t| t.seq)
                    .max()
                    .unwrap_or(0);
                prop_assert_eq!(f.max_covering_seq(probe.as_bytes(), read_seq), want);
            }
            // Fragments are sorted, disjoint, non-empty, and carry descending seqs.
            let list: Vec<_> = f.fragments().collect();
            for w in list.windows(2) {
                prop_assert!(w[0].1 <= w[1].0);
            }
            for (s, e, q) in list {
                prop_assert!(s < e);
                prop_assert!(!q.is_empty());
                prop_assert!(q.windows(2).all(|p| p[0] > p[1]));
            }
        });
    }
}
