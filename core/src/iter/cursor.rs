// SPDX-License-Identifier: Apache-2.0
//! The cursor trait every internal iterator implements (memtable, table, merging).

use crate::error::Result;

/// A cursor over entries ordered by internal key (user key ascending, then sequence and type
/// descending; see `key::InternalKeyComparator`).
///
/// Positioning calls leave the cursor either on an entry (`valid()` true) or off the end.
/// `key`/`value` may only be called while `valid()`; the slices they return stay valid until
/// the cursor moves. An error makes `valid()` false and is reported by `status()`.
pub trait InternalIterator: Send {
    fn valid(&self) -> bool;
    fn seek_to_first(&mut self);
    fn seek_to_last(&mut self);
    /// Positions at the first entry whose internal key is `>= target`.
    fn seek(&mut self, target: &[u8]);
    /// Positions at the last entry whose internal key is `<= target`.
    fn seek_for_prev(&mut self, target: &[u8]);
    fn next(&mut self);
    fn prev(&mut self);
    /// The current entry's internal key.
    fn key(&self) -> &[u8];
    fn value(&self) -> &[u8];
    fn status(&self) -> Result<()>;
}

/// An iterator over an in-memory sorted list of `(internal key, value)` entries; used by tests
/// of the merging and DB iterators, and wherever a small sorted vector needs a cursor.
pub struct VecIterator {
    entries: Vec<(Vec<u8>, Vec<u8>)>,
    cmp: crate::key::InternalKeyComparator,
    pos: Option<usize>,
}

impl VecIterator {
    /// `entries` must already be sorted by `cmp`.
    pub fn new(entries: Vec<(Vec<u8>, Vec<u8>)>, cmp: crate::key::InternalKeyComparator) -> Self {
        VecIterator {
            entries,
            cmp,
            pos: None,
        }
    }
}

impl InternalIterator for VecIterator {
    fn valid(&self) -> bool {
        self.pos.is_some()
    }
    fn seek_to_first(&mut self) {
        self.pos = if self.entries.is_empty() {
            None
        } else {
            Some(0)
        };
    }
    fn seek_to_last(&mut self) {
        self.pos = self.entries.len().checked_sub(1);
    }
    fn seek(&mut self, target: &[u8]) {
        let i = self
            .entries
            .partition_point(|(k, _)| self.cmp.compare(k, target).is_lt());
        self.pos = (i < self.entries.len()).then_some(i);
    }
    fn seek_for_prev(&mut self, target: &[u8]) {
        let i = self
            .entries
            .partition_point(|(k, _)| self.cmp.compare(k, target).is_le());
        self.pos = i.checked_sub(1);
    }
    fn next(&mut self) {
        self.pos = self
            .pos
            .and_then(|p| (p + 1 < self.entries.len()).then_some(p + 1));
    }
    fn prev(&mut self) {
        self.pos = self.pos.and_then(|p| p.checked_sub(1));
    }
    fn key(&self) -> &[u8] {
        self.pos
            .map(|p| self.entries[p].0.as_slice())
            .unwrap_or(&[])
    }
    fn value(&self) -> &[u8] {
        self.pos
            .map(|p| self.entries[p].1.as_slice())
            .unwrap_or(&[])
    }
    fn status(&self) -> Result<()> {
        Ok(())
    }
}
