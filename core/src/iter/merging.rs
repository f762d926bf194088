// SPDX-License-Identifier: Apache-2.0
//! The merging iterator (read path, and compaction on the background path): one cursor over
//! the union of several sorted children (memtables, L0 files, level iterators).
//!
//! The children's current positions sit in a binary heap of child indices: a min-heap by
//! internal key while moving forward, a max-heap while moving backward; the top is the
//! current entry. `next` advances the top child and sifts it down, O(log n) per step.
//!
//! Direction changes follow RocksDB's `MergingIterator`: the current child stays where it is
//! and every other child is re-positioned relative to the current key `k` (forward: the
//! first entry `> k`; backward: the last entry `< k`), then the heap is rebuilt the other way
//! round. After that, `next`/`prev` step from `k` exactly as if the whole union were one
//! sorted list.
//!
//! Children are expected not to share an identical internal key (user key, sequence and
//! type); the write path guarantees this. Ties, if any, are broken by child index.
//!
//! Errors: a child that turns invalid with an error makes the merging cursor invalid; the
//! first such error is reported by `status` until the next seek. `status` also reports any
//! child's error.

use std::cmp::Ordering;

use crate::error::{Error, Result};
use crate::iter::InternalIterator;
use crate::key::InternalKeyComparator;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Direction {
    Forward,
    Backward,
}

/// A cursor over the merged entries of several sorted children; see the module docs.
pub struct MergingIterator {
    children: Vec<Box<dyn InternalIterator>>,
    icmp: InternalKeyComparator,
    /// Indices of the valid children, heap-ordered for `direction`; `heap[0]` is current.
    heap: Vec<usize>,
    direction: Direction,
    /// The first child error seen since the last seek.
    err: Option<Error>,
    /// Holds the current key while children are re-positioned on a direction change.
    scratch: Vec<u8>,
}

impl MergingIterator {
    pub fn new(children: Vec<Box<dyn InternalIterator>>, icmp: InternalKeyComparator) -> Self {
        let n = children.len();
        MergingIterator {
            children,
            icmp,
            heap: Vec::with_capacity(n),
            direction: Direction::Forward,
            err: None,
            scratch: Vec::new(),
        }
    }

    /// Rebuilds the heap from every valid child, for `dir`.
    fn rebuild(&mut self, dir: Direction) {
        self.direction = dir;
        self.heap.clear();
        for i in 0..self.children.len() {
            if self.children[i].valid() {
                self.heap.push(i);
            } else {
                self.note_status(i);
            }
        }
        let h = &mut Heap {
            children: &self.children,
            icmp: &self.icmp,
            dir,
        };
        for i in (0..self.heap.len() / 2).rev() {
            h.sift_down(&mut self.heap, i);
        }
    }

    /// Records child `i`'s error, if it has one and none was recorded yet.
    fn note_status(&mut self, i: usize) {
        if self.err.is_none() {
            if let Err(e) = self.children[i].status() {
                self.err = Some(e);
            }
        }
    }

    /// Restores the heap after the top child moved.
    fn fix_top(&mut self) {
        let Some(&top) = self.heap.first() else {
            return;
        };
        if !self.children[top].valid() {
            self.note_status(top);
            self.heap.swap_remove(0);
        }
        let h = &mut Heap {
            children: &self.children,
            icmp: &self.icmp,
            dir: self.direction,
        };
        h.sift_down(&mut self.heap, 0);
    }

    /// Re-positions every child but the current one relative to the current key, for
    /// moving `dir`-wards, and rebuilds the heap.
    fn switch_direction(&mut self, dir: Direction) {
        let Some(&cur) = self.heap.first() else {
            return;
        };
        let mut key = std::mem::take(&mut self.scratch);
        key.clear();
        key.extend_from_slice(self.children[cur].key());
        for (i, child) in self.children.iter_mut().enumerate() {
            if i == cur {
                continue;
            }
            match dir {
                Direction::Forward => {
                    child.seek(&key);
                    if child.valid() && self.icmp.compare(child.key(), &key) == Ordering::Equal {
                        child.next();
                    }
                }
                Direction::Backward => {
                    child.seek_for_prev(&key);
                    if child.valid() && self.icmp.compare(child.key(), &key) == Ordering::Equal {
                        child.prev();
                    }
                }
            }
        }
        self.scratch = key;
        self.rebuild(dir);
        debug_assert_eq!(self.heap.first(), Some(&cur));
    }
}

/// Heap ordering over child indices: by current key, ascending when moving forward and
/// descending when moving backward; ties by child index in the same sense.
struct Heap<'a> {
    children: &'a [Box<dyn InternalIterator>],
    icmp: &'a InternalKeyComparator,
    dir: Direction,
}

impl Heap<'_> {
    /// Whether child `a` belongs above child `b`.
    #[inline]
    fn above(&self, a: usize, b: usize) -> bool {
        let o = self
            .icmp
            .compare(self.children[a].key(), self.children[b].key())
            .then(a.cmp(&b));
        match self.dir {
            Direction::Forward => o == Ordering::Less,
            Direction::Backward => o == Ordering::Greater,
        }
    }

    fn sift_down(&self, heap: &mut [usize], mut i: usize) {
        let n = heap.len();
        loop {
            let l = 2 * i + 1;
            if l >= n {
                return;
            }
            let r = l + 1;
            let c = if r < n && self.above(heap[r], heap[l]) {
                r
            } else {
                l
            };
            if !self.above(heap[c], heap[i]) {
                return;
            }
            heap.swap(i, c);
            i = c;
        }
    }
}

impl InternalIterator for MergingIterator {
    fn valid(&self) -> bool {
        self.err.is_none() && !self.heap.is_empty()
    }
    fn seek_to_first(&mut self) {
        self.err = None;
        for c in &mut self.children {
            c.seek_to_first();
        }
        self.rebuild(Direction::Forward);
    }
    fn seek_to_last(&mut self) {
        self.err = None;
        for c in &mut self.children {
            c.seek_to_last();
        }
        self.rebuild(Direction::Backward);
    }
    fn seek(&mut self, target: &[u8]) {
        self.err = None;
        for c in &mut self.children {
            c.seek(target);
        }
        self.rebuild(Direction::Forward);
    }
    fn seek_for_prev(&mut self, target: &[u8]) {
        self.err = None;
        for c in &mut self.children {
            c.seek_for_prev(target);
        }
        self.rebuild(Direction::Backward);
    }
    fn next(&mut self) {
        if !self.valid() {
            return;
        }
        if self.direction != Direction::Forward {
            self.switch_direction(Direction::Forward);
        }
        if let Some(&top) = self.heap.first() {
            self.children[top].next();
            self.fix_top();
        }
    }
    fn prev(&mut self) {
        if !self.valid() {
            return;
        }
        if self.direction != Direction::Backward {
            self.switch_direction(Direction::Backward);
        }
        if let Some(&top) = self.heap.first() {
            self.children[top].prev();
            self.fix_top();
        }
    }
    fn key(&self) -> &[u8] {
        match self.heap.first() {
            Some(&i) => self.children[i].key(),
            None => &[],
        }
    }
    fn value(&self) -> &[u8] {
        match self.heap.first() {
            Some(&i) => self.children[i].value(),
            None => &[],
        }
    }
    fn status(&self) -> Result<()> {
        if let Some(e) = &self.err {
            return Err(e.clone());
        }
        for c in &self.children {
            c.status()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::iter::cursor::VecIterator;
    use crate::key::{append_internal_key, ValueType};
    use proptest::prelude::*;

    fn ik(k: &[u8], s: u64, t: ValueType) -> Vec<u8> {
        let mut v = Vec::new();
        append_internal_key(&mut v, k, s, t);
        v
    }

    type Entries = Vec<(Vec<u8>, Vec<u8>)>;

    /// Builds a merging iterator over `children` (each sorted here) and the sorted union.
    fn build(children: Vec<Entries>) -> (MergingIterator, Entries) {
        let icmp = InternalKeyComparator::default();
        let mut all = Vec::new();
        let mut its: Vec<Box<dyn InternalIterator>> = Vec::new();
        for mut c in children {
            c.sort_by(|a, b| icmp.compare(&a.0, &b.0));
            all.extend(c.iter().cloned());
            its.push(Box::new(VecIterator::new(c, icmp.clone())));
        }
        all.sort_by(|a, b| icmp.compare(&a.0, &b.0));
        (MergingIterator::new(its, icmp), all)
    }

    #[test]
    fn merges_and_switches_direction() {
        let (mut it, all) = build(vec![
            vec![
                (ik(b"a", 1, ValueType::Value), b"a1".to_vec()),
                (ik(b"c", 5, ValueType::Value), b"c5".to_vec()),
            ],
            vec![
                (ik(b"b", 2, ValueType::Value), b"b2".to_vec()),
                (ik(b"c", 7, ValueType::Deletion), Vec::new()),
                (ik(b"c", 3, ValueType::Value), b"c3".to_vec()),
            ],
            vec![],
        ]);
        it.seek_to_first();
        let mut seen = Vec::new();
        while it.valid() {
            seen.push((it.key().to_vec(), it.value().to_vec()));
            it.next();
        }
        assert_eq!(seen, all);
        // c@7 < c@5 < c@3 in internal order.
        it.seek(&ik(b"c", 100, ValueType::Value));
        assert_eq!(it.key(), ik(b"c", 7, ValueType::Deletion));
        it.next();
        assert_eq!(it.value(), b"c5");
        it.prev();
        assert_eq!(it.key(), ik(b"c", 7, ValueType::Deletion));
        it.prev();
        assert_eq!(it.value(), b"b2");
        it.next();
        assert_eq!(it.key(), ik(b"c", 7, ValueType::Deletion));
        it.seek_to_last();
        assert_eq!(it.value(), b"c3");
        it.next();
        assert!(!it.valid());
        assert!(it.status().is_ok());
    }

    /// A child that fails on its first move.
    struct Failing;
    impl InternalIterator for Failing {
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
            Err(Error::corruption("bad block"))
        }
    }

    #[test]
    fn child_error_invalidates_and_is_reported() {
        let icmp = InternalKeyComparator::default();
        let good = VecIterator::new(
            vec![(ik(b"a", 1, ValueType::Value), b"x".to_vec())],
            icmp.clone(),
        );
        let mut it = MergingIterator::new(vec![Box::new(good), Box::new(Failing)], icmp);
        it.seek_to_first();
        assert!(!it.valid());
        let err = it
            .status()
            .expect_err("the failing child's error is reported");
        assert!(err.is_corruption());
    }

    #[derive(Debug, Clone)]
    enum Op {
        First,
        Last,
        Seek(u8, u64),
        SeekForPrev(u8, u64),
        Next,
        Prev,
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            1 => Just(Op::First),
            1 => Just(Op::Last),
            2 => (0u8..12, 0u64..12).prop_map(|(k, s)| Op::Seek(k, s)),
            2 => (0u8..12, 0u64..12).prop_map(|(k, s)| Op::SeekForPrev(k, s)),
            5 => Just(Op::Next),
            5 => Just(Op::Prev),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn matches_sorted_union(
            // (user key, seq) pairs, deduplicated below, each given to a random child.
            entries in proptest::collection::vec((0u8..10, 1u64..10, 0usize..4), 0..40),
            nchildren in 1usize..5,
            ops in proptest::collection::vec(op(), 1..60),
        ) {
            let mut children = vec![Vec::new(); nchildren];
            let mut used = std::collections::HashSet::new();
            for (k, s, c) in entries {
                if used.insert((k, s)) {
                    let key = ik(&[b'k', k], s, ValueType::Value);
                    children[c % nchildren].push((key, vec![k, s as u8, c as u8]));
                }
            }
            let (mut it, all) = build(children);
            let icmp = InternalKeyComparator::default();
            let mut pos: Option<usize> = None;
            for op in ops {
                match op {
                    Op::First => {
                        it.seek_to_first();
                        pos = (!all.is_empty()).then_some(0);
                    }
                    Op::Last => {
                        it.seek_to_last();
                        pos = all.len().checked_sub(1);
                    }
                    Op::Seek(k, s) => {
                        let t = ik(&[b'k', k], s, ValueType::Value);
                        it.seek(&t);
                        let i = all.partition_point(|e| icmp.compare(&e.0, &t).is_lt());
                        pos = (i < all.len()).then_some(i);
                    }
                    Op::SeekForPrev(k, s) => {
                        let t = ik(&[b'k', k], s, ValueType::Value);
                        it.seek_for_prev(&t);
                        let i = all.partition_point(|e| icmp.compare(&e.0, &t).is_le());
                        pos = i.checked_sub(1);
                    }
                    Op::Next => {
                        if pos.is_none() { continue; }
                        it.next();
                        pos = pos.and_then(|p| (p + 1 < all.len()).then_some(p + 1));
                    }
                    Op::Prev => {
                        if pos.is_none() { continue; }
                        it.prev();
                        pos = pos.and_then(|p| p.checked_sub(1));
                    }
                }
                prop_assert_eq!(it.valid(), pos.is_some());
                if let Some(p) = pos {
                    prop_assert_eq!(it.key(), all[p].0.as_slice());
                    prop_assert_eq!(it.value(), all[p].1.as_slice());
                }
            }
            prop_assert!(it.status().is_ok());
        }
    }
}
