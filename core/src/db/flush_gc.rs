// SPDX-License-Identifier: Apache-2.0
//! What a flush leaves out (background path): versions of a key that no reader can see.
//!
//! A memtable holds every version written to it; a key overwritten ten times before the
//! flush has ten entries. A reader at sequence `r` sees, per user key, only the newest
//! entry with `seq <= r`, so an entry is dead once a newer entry of the same user key
//! hides it from every possible reader: the readers are the live snapshots and "now", and
//! two entries `old < new` are told apart by some reader exactly when a snapshot `s` lies
//! in `old <= s < new` (they are in different snapshot *stripes*). RocksDB's flush runs its
//! compaction iterator over the memtables for this reason (`FlushJob` / `BuildTable`).
//!
//! The rule, per user key, newest entry first: an entry in the same stripe as a newer kept
//! Put, Delete or SingleDelete of the same key is dropped (the same rule `gc_key` in
//! `db::compaction_job` applies, so the flush only does early what the first compaction would).
//! A Merge hides nothing (its operands below are needed); the deletions themselves and
//! range deletions are always kept, since a flush is never the bottom of the tree.
//!
//! Snapshots are read once, when the flush starts: a snapshot taken later has a sequence at
//! or above every entry of the (immutable) memtables being flushed, so it cannot separate
//! two of them.

use std::cmp::Ordering;

use crate::key::{InternalKeyComparator, ParsedInternalKey, SequenceNumber, ValueType};

/// Decides, entry by entry in internal key order, whether a flush writes it.
pub(crate) struct ShadowFilter<'a> {
    icmp: &'a InternalKeyComparator,
    /// Live snapshots, ascending.
    snapshots: &'a [SequenceNumber],
    /// The user key of the entries seen last.
    last_key: Vec<u8>,
    has_last: bool,
    /// The stripe of the newest kept entry of `last_key` in its stripe.
    stripe: usize,
    /// Whether a kept Put or deletion of `last_key` hides the rest of `stripe`.
    hides: bool,
}

impl<'a> ShadowFilter<'a> {
    pub(crate) fn new(icmp: &'a InternalKeyComparator, snapshots: &'a [SequenceNumber]) -> Self {
        ShadowFilter {
            icmp,
            snapshots,
            last_key: Vec::new(),
            has_last: false,
            stripe: 0,
            hides: false,
        }
    }

    /// Whether the point entry `p` (not a range deletion) is written.
    pub(crate) fn keep(&mut self, p: &ParsedInternalKey<'_>) -> bool {
        let stripe = super::compaction_job::stripe(self.snapshots, p.sequence);
        let same_key =
            self.has_last && self.icmp.compare_user(&self.last_key, p.user_key) == Ordering::Equal;
        if !same_key {
            self.last_key.clear();
            self.last_key.extend_from_slice(p.user_key);
            self.has_last = true;
        } else if stripe == self.stripe && self.hides {
            return false;
        }
        if !same_key || stripe != self.stripe {
            self.stripe = stripe;
            self.hides = false;
        }
        if matches!(
            p.value_type,
            ValueType::Value | ValueType::Deletion | ValueType::SingleDeletion
        ) {
            self.hides = true;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(snapshots: &[u64], entries: &[(&[u8], u64, ValueType)]) -> Vec<u64> {
        let icmp = InternalKeyComparator::default();
        let mut f = ShadowFilter::new(&icmp, snapshots);
        entries
            .iter()
            .filter(|(k, s, t)| {
                f.keep(&ParsedInternalKey {
                    user_key: k,
                    sequence: *s,
                    value_type: *t,
                })
            })
            .map(|e| e.1)
            .collect()
    }

    use ValueType::{Deletion as D, Merge as M, SingleDeletion as SD, Value as V};

    #[test]
    fn newest_put_or_delete_hides_the_rest_without_snapshots() {
        assert_eq!(
            run(
                &[],
                &[(b"a", 9, V), (b"a", 5, V), (b"a", 2, D), (b"b", 3, V)]
            ),
            [9, 3]
        );
        assert_eq!(run(&[], &[(b"a", 9, D), (b"a", 5, V)]), [9]);
        assert_eq!(run(&[], &[(b"a", 9, SD), (b"a", 5, V)]), [9]);
    }

    #[test]
    fn merges_hide_nothing_but_a_put_under_them_does() {
        assert_eq!(
            run(
                &[],
                &[
                    (b"a", 9, M),
                    (b"a", 8, M),
                    (b"a", 5, V),
                    (b"a", 4, V),
                    (b"a", 1, M)
                ]
            ),
            [9, 8, 5]
        );
    }

    #[test]
    fn a_snapshot_between_two_versions_keeps_both() {
        // Snapshot 6 reads version 5; snapshot 9 reads version 9.
        assert_eq!(
            run(&[6], &[(b"a", 9, V), (b"a", 5, V), (b"a", 4, V)]),
            [9, 5]
        );
        assert_eq!(
            run(&[5], &[(b"a", 9, V), (b"a", 5, V), (b"a", 4, V)]),
            [9, 5]
        );
        assert_eq!(
            run(
                &[4, 8],
                &[(b"a", 9, V), (b"a", 7, V), (b"a", 5, D), (b"a", 3, V)]
            ),
            [9, 7, 3]
        );
        // A snapshot below every version changes nothing.
        assert_eq!(run(&[1], &[(b"a", 9, V), (b"a", 5, V)]), [9]);
    }
}
