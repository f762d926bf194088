// SPDX-License-Identifier: Apache-2.0
//! The user-visible iterator (RocksDB's `DBIter`, `db/db_iter.cc` in 7.8.3): turns a cursor
//! over internal entries into a cursor over user keys. Read path.
//!
//! # What the user sees
//!
//! For each user key, only entries with `seq <= read_seq` exist, and the newest of them
//! decides:
//! - `Value`: shown.
//! - `Deletion`, `SingleDeletion`: the key is hidden.
//! - `Merge`: operands are collected newest to oldest until a `Value` (merged into it), a
//!   deletion, an entry hidden by a range tombstone, or the end of the key (merged with no
//!   base); the merge result is shown.
//! - An entry whose sequence is below a covering range tombstone visible at `read_seq` is
//!   hidden. In RocksDB 7.8.3 the merging iterator drops such entries before `DBIter` sees
//!   them; here the iterator asks [`FragmentedRangeTombstones`] once per user key. Since
//!   coverage is "every entry older than the tombstone", a covered entry behaves exactly like
//!   a deletion at that position.
//!
//! Bounds: the lower bound is inclusive, the upper bound exclusive; `seek` below the lower
//! bound starts at it, `seek_for_prev` at or above the upper bound starts just below it.
//!
//! # Positioning invariants (the same state machine as RocksDB)
//!
//! - `Forward`: the inner cursor is on the entry that produced the current key, or, when the
//!   value is a merge result, just past the entries that were merged.
//! - `Reverse`: the inner cursor is on the last entry *before* every entry of the current
//!   user key (or off the front).
//!
//! Switching direction re-establishes the other invariant by stepping (or re-seeking when the
//! inner cursor fell off an end). Long runs of versions of one user key are skipped with a
//! re-seek after `max_sequential_skip` steps (RocksDB's `max_sequential_skip_in_iterations`,
//! default 8).
//!
//! # Cost
//!
//! The current user key lives in a reused buffer. Moving forward onto a plain value copies
//! only the user key; `value()` then borrows the inner cursor's value. Merge results and
//! values found while moving backwards (where the inner cursor has already moved on) are kept
//! in a reused value buffer.

use std::cmp::Ordering;
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::iter::InternalIterator;
use crate::key::internal_key::user_key;
use crate::key::{
    append_internal_key, parse_internal_key, InternalKeyComparator, SequenceNumber, ValueType,
    MAX_SEQUENCE_NUMBER, VALUE_TYPE_FOR_SEEK,
};
use crate::merge::{MergeOperator, MERGE_FAILED_MESSAGE};
use crate::range_del::FragmentedRangeTombstones;

/// RocksDB's default `max_sequential_skip_in_iterations`.
pub const DEFAULT_MAX_SEQUENTIAL_SKIP: u64 = 8;

/// The status text RocksDB 7.8.3's `DBIter` reports for a merge entry without an operator.
const NO_MERGE_OPERATOR_MESSAGE: &str = "merge_operator_ must be set.";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Direction {
    Forward,
    Reverse,
}

/// What one visible entry means for its user key, range tombstones applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Value,
    Deleted,
    Merge,
    /// Blob indexes and wide-column entities, which this engine does not read.
    Unsupported(ValueType),
    /// A type that never appears among point entries (a range deletion).
    Unknown(ValueType),
}

fn classify(t: ValueType, covered: bool) -> Kind {
    if covered {
        return Kind::Deleted;
    }
    match t {
        ValueType::Value => Kind::Value,
        ValueType::Deletion | ValueType::SingleDeletion | ValueType::DeletionWithTimestamp => {
            Kind::Deleted
        }
        ValueType::Merge => Kind::Merge,
        ValueType::BlobIndex | ValueType::WideColumnEntity => Kind::Unsupported(t),
        ValueType::RangeDeletion => Kind::Unknown(t),
    }
}

fn kind_error(kind: Kind) -> Error {
    match kind {
        Kind::Unsupported(ValueType::BlobIndex) => {
            Error::not_supported("Blob index entries are not supported by this engine")
        }
        Kind::Unsupported(_) => {
            Error::not_supported("Wide-column entities are not supported by this engine")
        }
        Kind::Unknown(t) => Error::corruption(format!("Unknown value type: {}", t as u8)),
        Kind::Value | Kind::Deleted | Kind::Merge => {
            Error::corruption("internal error: no error for this entry kind")
        }
    }
}

/// RocksDB wraps key parse failures as `Status::Corruption("In DBIter: ", state)`.
fn parse_error(e: &Error) -> Error {
    Error::corruption(format!("In DBIter: : {}", e.message()))
}

/// Writes the internal key `(ukey, seq, t)` into `buf`.
fn set_internal_key(buf: &mut Vec<u8>, ukey: &[u8], seq: SequenceNumber, t: ValueType) {
    buf.clear();
    append_internal_key(buf, ukey, seq, t);
}

/// The user-visible iterator over one read view; see the module docs.
///
/// `key`/`value` may be called only while `valid()`; the slices stay valid until the iterator
/// moves. Moving (`next`/`prev`) while not valid does nothing; a seek always restarts, and
/// clears an earlier error.
pub struct DbIter {
    inner: Box<dyn InternalIterator>,
    icmp: InternalKeyComparator,
    /// Entries with a larger sequence are invisible. At most `MAX_SEQUENCE_NUMBER`.
    read_seq: SequenceNumber,
    merge_operator: Option<Arc<dyn MergeOperator>>,
    tombstones: Arc<FragmentedRangeTombstones>,
    lower_bound: Option<Vec<u8>>,
    upper_bound: Option<Vec<u8>>,
    max_skip: u64,

    direction: Direction,
    valid: bool,
    /// The first error hit since the last seek; `status()` falls back to the inner cursor's.
    status: Result<()>,
    /// The current user key while valid; while scanning, the key being skipped.
    saved_key: Vec<u8>,
    /// The current value when it is not borrowed from the inner cursor (merge results and
    /// reverse iteration).
    saved_value: Vec<u8>,
    /// The current entry is a merge result (in forward mode the inner cursor is past it).
    merged: bool,
    /// Merge operands, concatenated; `operand_ranges` splits them.
    operands: Vec<u8>,
    operand_ranges: Vec<(usize, usize)>,
    /// Whether `operand_ranges` runs newest first (forward collection) or oldest first.
    operands_newest_first: bool,
    /// Reused buffer for seek keys.
    seek_key: Vec<u8>,
}

impl DbIter {
    /// Wraps `inner` (entries ordered by `icmp`) as seen at `read_seq`.
    ///
    /// `tombstones` are the range tombstones of every source under `inner`; `lower_bound` is
    /// inclusive, `upper_bound` exclusive (user keys). The iterator starts unpositioned.
    pub fn new(
        inner: Box<dyn InternalIterator>,
        icmp: InternalKeyComparator,
        read_seq: SequenceNumber,
        merge_operator: Option<Arc<dyn MergeOperator>>,
        tombstones: Arc<FragmentedRangeTombstones>,
        lower_bound: Option<Vec<u8>>,
        upper_bound: Option<Vec<u8>>,
    ) -> Self {
        DbIter {
            inner,
            icmp,
            read_seq: read_seq.min(MAX_SEQUENCE_NUMBER),
            merge_operator,
            tombstones,
            lower_bound,
            upper_bound,
            max_skip: DEFAULT_MAX_SEQUENTIAL_SKIP,
            direction: Direction::Forward,
            valid: false,
            status: Ok(()),
            saved_key: Vec::new(),
            saved_value: Vec::new(),
            merged: false,
            operands: Vec::new(),
            operand_ranges: Vec::new(),
            operands_newest_first: true,
            seek_key: Vec::new(),
        }
    }

    /// Sets how many versions of one user key are stepped over before re-seeking
    /// (RocksDB's `max_sequential_skip_in_iterations`).
    pub fn set_max_sequential_skip(&mut self, n: u64) {
        self.max_skip = n;
    }

    pub fn valid(&self) -> bool {
        self.valid
    }

    /// The current user key; valid until the iterator moves.
    pub fn key(&self) -> &[u8] {
        if self.valid {
            &self.saved_key
        } else {
            &[]
        }
    }

    /// The current value; valid until the iterator moves.
    pub fn value(&self) -> &[u8] {
        if !self.valid {
            &[]
        } else if self.direction == Direction::Forward && !self.merged {
            self.inner.value()
        } else {
            &self.saved_value
        }
    }

    /// The first error since the last seek, else the inner cursor's status.
    ///
    /// # Errors
    /// Corruption for a failed merge (`Error: Could not perform merge.`) or a malformed key,
    /// InvalidArgument for a merge entry without a merge operator, NotSupported for blob and
    /// wide-column entries, or whatever the inner cursor reports.
    pub fn status(&self) -> Result<()> {
        self.status.clone()?;
        self.inner.status()
    }

    pub fn seek_to_first(&mut self) {
        if let Some(lower) = self.lower_bound.take() {
            self.seek(&lower);
            self.lower_bound = Some(lower);
            return;
        }
        self.reset();
        self.direction = Direction::Forward;
        self.inner.seek_to_first();
        if self.inner.valid() {
            self.find_next_user_entry(false);
        } else {
            self.valid = false;
        }
    }

    pub fn seek_to_last(&mut self) {
        if let Some(upper) = self.upper_bound.clone() {
            self.seek_for_prev(&upper);
            // The clamped seek already lands below the bound; this mirrors RocksDB's guard.
            while self.valid && self.icmp.compare_user(&upper, &self.saved_key).is_eq() {
                self.prev_internal();
            }
            return;
        }
        self.reset();
        self.direction = Direction::Reverse;
        self.inner.seek_to_last();
        self.prev_internal();
    }

    /// Positions at the first visible key `>= user_key` (and `>=` the lower bound).
    pub fn seek(&mut self, user_key: &[u8]) {
        self.reset();
        let target = match &self.lower_bound {
            Some(lower) if self.icmp.compare_user(user_key, lower).is_lt() => lower.as_slice(),
            _ => user_key,
        };
        set_internal_key(
            &mut self.seek_key,
            target,
            self.read_seq,
            VALUE_TYPE_FOR_SEEK,
        );
        self.inner.seek(&self.seek_key);
        if !self.inner.valid() {
            self.valid = false;
            return;
        }
        self.direction = Direction::Forward;
        self.find_next_user_entry(false);
    }

    /// Positions at the last visible key `<= user_key` (and below the upper bound).
    pub fn seek_for_prev(&mut self, user_key: &[u8]) {
        self.reset();
        match &self.upper_bound {
            Some(upper) if self.icmp.compare_user(user_key, upper).is_ge() => {
                // Sorts before every entry of `upper`: lands on the last entry below it.
                set_internal_key(
                    &mut self.seek_key,
                    upper,
                    MAX_SEQUENCE_NUMBER,
                    ValueType::Deletion,
                );
            }
            // Sequence 0 and the smallest type sort after every entry of `user_key`.
            _ => set_internal_key(&mut self.seek_key, user_key, 0, ValueType::Deletion),
        }
        self.inner.seek_for_prev(&self.seek_key);
        if !self.inner.valid() {
            self.valid = false;
            return;
        }
        self.direction = Direction::Reverse;
        self.prev_internal();
    }

    pub fn next(&mut self) {
        if !self.valid {
            return;
        }
        if self.direction == Direction::Reverse {
            if !self.reverse_to_forward() {
                self.valid = false;
                return;
            }
        } else if !self.merged {
            // The inner cursor is on the entry just shown; a merge already moved past it.
            self.inner.next();
        }
        if self.inner.valid() {
            self.find_next_user_entry(true);
        } else {
            self.valid = false;
        }
    }

    pub fn prev(&mut self) {
        if !self.valid {
            return;
        }
        if self.direction == Direction::Forward && !self.reverse_to_backward() {
            return;
        }
        self.prev_internal();
    }

    // ---- shared helpers ----

    fn reset(&mut self) {
        self.status = Ok(());
        self.merged = false;
        self.valid = false;
    }

    fn fail(&mut self, e: Error) {
        self.status = Err(e);
        self.valid = false;
    }

    /// Records an error from the inner cursor, if any; true when it is healthy.
    fn inner_ok(&mut self) -> bool {
        if self.inner.status().is_err() {
            self.valid = false;
            return false;
        }
        true
    }

    /// The newest visible tombstone covering `ukey`, or 0.
    fn covering_seq(&self, ukey: &[u8]) -> SequenceNumber {
        if self.tombstones.is_empty() {
            0
        } else {
            self.tombstones.max_covering_seq(ukey, self.read_seq)
        }
    }

    fn clear_operands(&mut self, newest_first: bool) {
        self.operands.clear();
        self.operand_ranges.clear();
        self.operands_newest_first = newest_first;
    }

    /// Appends the inner cursor's value as a merge operand.
    fn push_inner_operand(&mut self) {
        let start = self.operands.len();
        self.operands.extend_from_slice(self.inner.value());
        self.operand_ranges.push((start, self.operands.len()));
    }

    /// Runs the full merge of the collected operands for `saved_key` into `saved_value`.
    /// `base` is the existing value: none, the inner cursor's value, or `saved_value`.
    /// Sets `valid`, or fails with RocksDB's status.
    fn full_merge(&mut self, base: Base) {
        let Some(op) = self.merge_operator.as_ref() else {
            self.fail(Error::invalid_argument(NO_MERGE_OPERATOR_MESSAGE));
            return;
        };
        let mut ops: Vec<&[u8]> = self
            .operand_ranges
            .iter()
            .map(|&(s, e)| &self.operands[s..e])
            .collect();
        if self.operands_newest_first {
            ops.reverse();
        }
        let existing = match base {
            Base::None => None,
            Base::Inner => Some(self.inner.value()),
            Base::Saved => Some(self.saved_value.as_slice()),
        };
        let result = op.full_merge(&self.saved_key, existing, &ops);
        drop(ops);
        match result {
            Some(v) => {
                self.saved_value = v;
                self.valid = true;
            }
            None => self.fail(Error::corruption(MERGE_FAILED_MESSAGE)),
        }
    }

    // ---- forward ----

    /// Moves forward from the inner cursor's position to the first user key with a visible
    /// value. With `skipping`, entries of user keys `<= saved_key` are passed over.
    fn find_next_user_entry(&mut self, mut skipping: bool) {
        debug_assert_eq!(self.direction, Direction::Forward);
        self.merged = false;
        // Consecutive entries passed over for the same key (`saved_key`).
        let mut num_skipped = 0u64;
        let mut reseek_done = false;
        while self.inner.valid() {
            let ikey = match parse_internal_key(self.inner.key()) {
                Ok(k) => k,
                Err(e) => {
                    self.fail(parse_error(&e));
                    return;
                }
            };
            if let Some(upper) = &self.upper_bound {
                if self.icmp.compare_user(ikey.user_key, upper).is_ge() {
                    break;
                }
            }
            if ikey.sequence <= self.read_seq {
                if skipping
                    && self
                        .icmp
                        .compare_user(ikey.user_key, &self.saved_key)
                        .is_le()
                {
                    num_skipped += 1;
                } else {
                    num_skipped = 0;
                    reseek_done = false;
                    let covered = ikey.sequence < self.covering_seq(ikey.user_key);
                    self.saved_key.clear();
                    self.saved_key.extend_from_slice(ikey.user_key);
                    match classify(ikey.value_type, covered) {
                        Kind::Deleted => skipping = true,
                        Kind::Value => {
                            self.valid = true;
                            return;
                        }
                        Kind::Merge => {
                            self.merge_values_new_to_old();
                            return;
                        }
                        kind @ (Kind::Unsupported(_) | Kind::Unknown(_)) => {
                            self.fail(kind_error(kind));
                            return;
                        }
                    }
                }
            } else {
                // Written after the snapshot. Count runs of one key so a key rewritten many
                // times since the snapshot is jumped over with a seek.
                let cmp = self.icmp.compare_user(ikey.user_key, &self.saved_key);
                if cmp == Ordering::Equal || (skipping && cmp == Ordering::Less) {
                    num_skipped += 1;
                } else {
                    self.saved_key.clear();
                    self.saved_key.extend_from_slice(ikey.user_key);
                    skipping = false;
                    num_skipped = 0;
                    reseek_done = false;
                }
            }
            if num_skipped > self.max_skip && !reseek_done {
                num_skipped = 0;
                reseek_done = true;
                if skipping {
                    // Past every entry of `saved_key`: sequence 0 with the smallest type.
                    set_internal_key(&mut self.seek_key, &self.saved_key, 0, ValueType::Deletion);
                } else {
                    // To the newest entry of `saved_key` inside the snapshot.
                    set_internal_key(
                        &mut self.seek_key,
                        &self.saved_key,
                        self.read_seq,
                        VALUE_TYPE_FOR_SEEK,
                    );
                }
                self.inner.seek(&self.seek_key);
            } else {
                self.inner.next();
            }
        }
        self.valid = false;
    }

    /// PRE: the inner cursor is on the newest visible entry of `saved_key`, a merge operand.
    /// POST: `saved_value` holds the merge result and the inner cursor is past the entries
    /// used, or the iterator failed.
    fn merge_values_new_to_old(&mut self) {
        self.merged = true;
        if self.merge_operator.is_none() {
            self.fail(Error::invalid_argument(NO_MERGE_OPERATOR_MESSAGE));
            return;
        }
        let cover = self.covering_seq(&self.saved_key);
        self.clear_operands(true);
        self.push_inner_operand();
        self.inner.next();
        while self.inner.valid() {
            let ikey = match parse_internal_key(self.inner.key()) {
                Ok(k) => k,
                Err(e) => {
                    self.fail(parse_error(&e));
                    return;
                }
            };
            if !self
                .icmp
                .compare_user(ikey.user_key, &self.saved_key)
                .is_eq()
            {
                break;
            }
            // Older than the first operand, hence inside the snapshot.
            match classify(ikey.value_type, ikey.sequence < cover) {
                Kind::Deleted => {
                    self.inner.next();
                    break;
                }
                Kind::Value => {
                    self.full_merge(Base::Inner);
                    if self.valid {
                        self.inner.next();
                        self.inner_ok();
                    }
                    return;
                }
                Kind::Merge => self.push_inner_operand(),
                kind @ (Kind::Unsupported(_) | Kind::Unknown(_)) => {
                    self.fail(kind_error(kind));
                    return;
                }
            }
            self.inner.next();
        }
        if !self.inner_ok() {
            return;
        }
        self.full_merge(Base::None);
    }

    /// Turns a reverse position into a forward one: the inner cursor ends on the first entry
    /// with user key `>= saved_key`. False on error.
    fn reverse_to_forward(&mut self) -> bool {
        if !self.inner.valid() {
            set_internal_key(
                &mut self.seek_key,
                &self.saved_key,
                MAX_SEQUENCE_NUMBER,
                VALUE_TYPE_FOR_SEEK,
            );
            self.inner.seek(&self.seek_key);
        }
        self.direction = Direction::Forward;
        while self.inner.valid() {
            let ukey_cmp = match parse_internal_key(self.inner.key()) {
                Ok(k) => self.icmp.compare_user(k.user_key, &self.saved_key),
                Err(e) => {
                    self.fail(parse_error(&e));
                    return false;
                }
            };
            if ukey_cmp.is_ge() {
                return true;
            }
            self.inner.next();
        }
        self.inner_ok()
    }

    // ---- reverse ----

    /// Turns a forward position into a reverse one: the inner cursor ends just before every
    /// entry of `saved_key`. False on error.
    fn reverse_to_backward(&mut self) -> bool {
        if self.merged && !self.inner.valid() {
            // The merge ran off the end; come back to the current key.
            set_internal_key(
                &mut self.seek_key,
                &self.saved_key,
                MAX_SEQUENCE_NUMBER,
                VALUE_TYPE_FOR_SEEK,
            );
            self.inner.seek(&self.seek_key);
            if !self.inner.valid() && self.inner.status().is_ok() {
                self.inner.seek_to_last();
            }
        }
        self.direction = Direction::Reverse;
        self.find_user_key_before_saved_key()
    }

    /// Moves the inner cursor back to the last entry whose user key is `< saved_key`.
    /// Does not change `valid` unless it returns false (an error).
    fn find_user_key_before_saved_key(&mut self) -> bool {
        let mut num_skipped = 0u64;
        while self.inner.valid() {
            let ukey_cmp = match parse_internal_key(self.inner.key()) {
                Ok(k) => self.icmp.compare_user(k.user_key, &self.saved_key),
                Err(e) => {
                    self.fail(parse_error(&e));
                    return false;
                }
            };
            if ukey_cmp.is_lt() {
                return true;
            }
            if num_skipped >= self.max_skip {
                num_skipped = 0;
                // Jump to the newest entry of `saved_key`; the step below leaves it.
                set_internal_key(
                    &mut self.seek_key,
                    &self.saved_key,
                    MAX_SEQUENCE_NUMBER,
                    VALUE_TYPE_FOR_SEEK,
                );
                self.inner.seek(&self.seek_key);
                if !self.inner.valid() {
                    break;
                }
            } else {
                num_skipped += 1;
            }
            self.inner.prev();
        }
        self.inner_ok()
    }

    /// Moves backward from the inner cursor's position to the previous user key with a
    /// visible value, stopping below the lower bound.
    fn prev_internal(&mut self) {
        while self.inner.valid() {
            self.saved_key.clear();
            self.saved_key.extend_from_slice(user_key(self.inner.key()));
            if let Some(lower) = &self.lower_bound {
                if self.icmp.compare_user(&self.saved_key, lower).is_lt() {
                    self.valid = false;
                    return;
                }
            }
            if !self.find_value_for_current_key() {
                return;
            }
            // Whether or not the key had a value, leave the inner cursor below it.
            if !self.find_user_key_before_saved_key() {
                return;
            }
            if self.valid {
                return;
            }
        }
        self.valid = false;
    }

    /// Walks the entries of `saved_key` from oldest to newest (the inner cursor starts on the
    /// oldest) and works out its visible value. Sets `valid` to whether the key has one.
    /// Returns false on error.
    fn find_value_for_current_key(&mut self) -> bool {
        self.clear_operands(false);
        self.merged = false;
        let cover = self.covering_seq(&self.saved_key);
        // The newest entry so far, and the newest non-merge entry so far.
        let mut last_kind = Kind::Deleted;
        let mut last_not_merge = Kind::Deleted;
        let mut num_skipped = 0u64;
        while self.inner.valid() {
            let ikey = match parse_internal_key(self.inner.key()) {
                Ok(k) => k,
                Err(e) => {
                    self.fail(parse_error(&e));
                    return false;
                }
            };
            if !self
                .icmp
                .compare_user(ikey.user_key, &self.saved_key)
                .is_eq()
            {
                break;
            }
            if ikey.sequence > self.read_seq {
                // Every newer entry is invisible too.
                break;
            }
            if num_skipped >= self.max_skip {
                // Many versions: look the value up newest-first instead.
                return self.find_value_for_current_key_using_seek();
            }
            let kind = classify(ikey.value_type, ikey.sequence < cover);
            match kind {
                Kind::Value => {
                    self.saved_value.clear();
                    self.saved_value.extend_from_slice(self.inner.value());
                    self.clear_operands(false);
                    last_not_merge = kind;
                }
                Kind::Deleted | Kind::Unsupported(_) => {
                    self.clear_operands(false);
                    last_not_merge = kind;
                }
                Kind::Merge => self.push_inner_operand(),
                Kind::Unknown(_) => {
                    self.fail(kind_error(kind));
                    return false;
                }
            }
            last_kind = kind;
            self.inner.prev();
            num_skipped += 1;
        }
        if !self.inner_ok() {
            return false;
        }
        match last_kind {
            Kind::Deleted => {
                self.valid = false;
                true
            }
            Kind::Value => {
                self.valid = true;
                true
            }
            Kind::Merge => {
                self.merged = true;
                match last_not_merge {
                    Kind::Value => self.full_merge(Base::Saved),
                    Kind::Deleted => self.full_merge(Base::None),
                    other => self.fail(kind_error(other)),
                }
                self.status.is_ok()
            }
            other => {
                self.fail(kind_error(other));
                false
            }
        }
    }

    /// `find_value_for_current_key` for keys with many versions: seeks to the newest visible
    /// entry of `saved_key` and reads forward from there. Returns false on error.
    fn find_value_for_current_key_using_seek(&mut self) -> bool {
        set_internal_key(
            &mut self.seek_key,
            &self.saved_key,
            self.read_seq,
            VALUE_TYPE_FOR_SEEK,
        );
        self.inner.seek(&self.seek_key);
        let cover = self.covering_seq(&self.saved_key);
        // The seek skips every entry newer than the snapshot.
        if !self.inner.valid() {
            self.valid = false;
            return self.inner_ok();
        }
        let first = match parse_internal_key(self.inner.key()) {
            Ok(k) => {
                if !self.icmp.compare_user(k.user_key, &self.saved_key).is_eq() {
                    None
                } else {
                    Some(classify(k.value_type, k.sequence < cover))
                }
            }
            Err(e) => {
                self.fail(parse_error(&e));
                return false;
            }
        };
        match first {
            None | Some(Kind::Deleted) => {
                self.valid = false;
                return true;
            }
            Some(Kind::Value) => {
                self.saved_value.clear();
                self.saved_value.extend_from_slice(self.inner.value());
                self.valid = true;
                return true;
            }
            Some(Kind::Merge) => {}
            Some(kind) => {
                self.fail(kind_error(kind));
                return false;
            }
        }
        self.merged = true;
        self.clear_operands(true);
        self.push_inner_operand();
        loop {
            self.inner.next();
            if !self.inner.valid() {
                if !self.inner_ok() {
                    return false;
                }
                break;
            }
            let kind = match parse_internal_key(self.inner.key()) {
                Ok(k) => {
                    if !self.icmp.compare_user(k.user_key, &self.saved_key).is_eq() {
                        break;
                    }
                    classify(k.value_type, k.sequence < cover)
                }
                Err(e) => {
                    self.fail(parse_error(&e));
                    return false;
                }
            };
            match kind {
                Kind::Deleted => break,
                Kind::Value => {
                    self.full_merge(Base::Inner);
                    return self.status.is_ok();
                }
                Kind::Merge => self.push_inner_operand(),
                other => {
                    self.fail(kind_error(other));
                    return false;
                }
            }
        }
        self.full_merge(Base::None);
        if self.status.is_err() {
            return false;
        }
        // Leave the inner cursor on or after an entry of `saved_key`, as the caller expects.
        if !self.inner.valid() {
            self.inner.seek(&self.seek_key);
            if !self.inner.valid() && self.inner.status().is_ok() {
                self.inner.seek_to_last();
            }
        }
        true
    }
}

/// The existing value a merge applies to.
#[derive(Debug, Clone, Copy)]
enum Base {
    None,
    Inner,
    Saved,
}

#[cfg(test)]
#[path = "db_iter_tests.rs"]
mod tests;
