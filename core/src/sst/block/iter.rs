// SPDX-License-Identifier: Apache-2.0
//! The cursor over one block's entries (read path), an `InternalIterator` over an owned
//! `Arc<Block>`. The decoding itself is [`super::cursor`]'s: seeks binary-search the restart
//! array for the last restart key below the target and then scan forward; `prev` decodes the
//! restart run before the current entry once and then steps back through what it kept.
//!
//! One type serves every block kind; [`KeyOrder`] says how keys compare (internal keys for data
//! blocks, user keys for an index with `index_key_is_user_key`, raw bytes for meta blocks) and
//! [`IndexFormat`] says how index values are laid out.

use std::cmp::Ordering;
use std::sync::Arc;

use super::cursor::{BlockCursor, Layout};
use super::Block;
use crate::error::Result;
use crate::iter::InternalIterator;
use crate::key::internal_key::{trailer, user_key};
use crate::key::InternalKeyComparator;
use crate::sst::format::BlockHandle;

/// How a block's keys are ordered and compared with seek targets.
#[derive(Clone)]
pub enum KeyOrder {
    /// Keys and targets are internal keys (data blocks, index blocks with internal keys).
    Internal(InternalKeyComparator),
    /// Keys are user keys, targets are internal keys whose user key part is compared (index
    /// blocks with `index_key_is_user_key`) with the comparator's user-key order.
    UserKeys(InternalKeyComparator),
    /// Keys and targets compare as raw bytes (metaindex, properties).
    Bytewise,
}

impl std::fmt::Debug for KeyOrder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeyOrder::Internal(_) => f.write_str("Internal"),
            KeyOrder::UserKeys(c) => write!(f, "UserKeys({})", c.user_comparator().name()),
            KeyOrder::Bytewise => f.write_str("Bytewise"),
        }
    }
}

impl KeyOrder {
    #[inline]
    pub(crate) fn compare(&self, entry_key: &[u8], target: &[u8]) -> Ordering {
        match self {
            KeyOrder::Internal(c) if c.is_bytewise() => {
                bytewise_cmp(user_key(entry_key), user_key(target))
                    .then_with(|| trailer(target).cmp(&trailer(entry_key)))
            }
            KeyOrder::Internal(c) => c.compare(entry_key, target),
            KeyOrder::UserKeys(c) if c.is_bytewise() => bytewise_cmp(entry_key, user_key(target)),
            KeyOrder::UserKeys(c) => c.compare_user(entry_key, user_key(target)),
            KeyOrder::Bytewise => entry_key.cmp(target),
        }
    }
}

/// `memcmp` order of two byte strings, eight bytes at a time for short ones: block keys are
/// mostly a few dozen bytes, where a call into libc's `memcmp` costs more than the loop.
#[inline]
pub(crate) fn bytewise_cmp(a: &[u8], b: &[u8]) -> Ordering {
    if a.len().min(b.len()) > 64 {
        return a.cmp(b);
    }
    let (mut x, mut y) = (a, b);
    while let (Some(p), Some(q)) = (x.first_chunk::<8>(), y.first_chunk::<8>()) {
        let (p, q) = (u64::from_be_bytes(*p), u64::from_be_bytes(*q));
        if p != q {
            return p.cmp(&q);
        }
        x = &x[8..];
        y = &y[8..];
    }
    for (p, q) in x.iter().zip(y) {
        if p != q {
            return p.cmp(q);
        }
    }
    x.len().cmp(&y.len())
}

/// Layout of index-block values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct IndexFormat {
    /// format_version >= 4: no value_len field; entries sharing a key prefix store only the
    /// size delta (zigzag varint) and their offset follows the previous block.
    pub value_delta_encoded: bool,
    /// `kBinarySearchWithFirstKey`: each value also carries the block's first internal key.
    pub has_first_key: bool,
}

/// A cursor over one block.
///
/// It owns a reference to its block and wraps the borrowed-block [`BlockCursor`]. Going
/// backwards, entries can only be decoded forwards from a restart point, so the first `prev`
/// into a restart run decodes the run once and keeps its entries (keys copied, values as
/// offsets); the following `prev`s in that run step through what was kept instead of
/// rescanning (RocksDB's `prev_entries_` cache). Index blocks (one entry per run by default)
/// rescan.
pub struct BlockIter {
    block: Arc<Block>,
    order: KeyOrder,
    index: Option<IndexFormat>,
    cur: BlockCursor,
    /// Index mode: the current handle, encoded (what `value()` returns).
    index_value_buf: Vec<u8>,
    /// Sequence number that replaces every key's own (ingested external files); `key()` then
    /// returns `adjusted`, while the cursor keeps the stored bytes that later entries share.
    global_seqno: Option<u64>,
    adjusted: Vec<u8>,
    prev_run: PrevRun,
}

/// One entry of the restart run a backward walk is in.
#[derive(Clone, Copy)]
struct RunEntry {
    /// The key's bytes in `PrevRun::keys`.
    key: (usize, usize),
    current: usize,
    next: usize,
    value: (usize, usize),
}

/// The decoded entries of the restart run before the current position (data blocks only).
#[derive(Default)]
struct PrevRun {
    entries: Vec<RunEntry>,
    keys: Vec<u8>,
    /// The entry of `entries` the cursor is on, while it walks backwards through the run;
    /// `None` once it moved any other way.
    pos: Option<usize>,
    restart_index: usize,
}

impl BlockIter {
    /// A cursor over a data, meta or (with `index` set) index block.
    pub fn new(block: Arc<Block>, order: KeyOrder, index: Option<IndexFormat>) -> Self {
        let cur = BlockCursor::new(&block);
        BlockIter {
            block,
            order,
            index,
            cur,
            index_value_buf: Vec::new(),
            global_seqno: None,
            adjusted: Vec::new(),
            prev_run: PrevRun::default(),
        }
    }

    /// Makes the cursor report every internal key with sequence number `seqno` (RocksDB's
    /// global sequence number of ingested files). Only for data blocks of internal keys.
    pub fn with_global_seqno(mut self, seqno: Option<u64>) -> Self {
        self.global_seqno = seqno;
        self
    }

    fn layout(&self) -> Layout<'_> {
        Layout {
            order: &self.order,
            index: self.index,
            global_seqno: self.global_seqno,
        }
    }

    /// The cursor, with the block and layout it walks.
    fn parts(&mut self) -> (&mut BlockCursor, &Block, Layout<'_>) {
        let layout = Layout {
            order: &self.order,
            index: self.index,
            global_seqno: self.global_seqno,
        };
        (&mut self.cur, &self.block, layout)
    }

    /// The block handle of the current index entry (index mode only).
    pub fn block_handle(&self) -> BlockHandle {
        self.cur.handle
    }

    /// The first internal key of the block the current index entry points at, when the index
    /// stores it (`kBinarySearchWithFirstKey`).
    pub fn first_internal_key(&self) -> Option<&[u8]> {
        match self.index {
            Some(f) if f.has_first_key => {
                Some(&self.block.data()[self.cur.first_key.0..self.cur.first_key.1])
            }
            _ => None,
        }
    }

    /// Brings what `key()` and `value()` return in line with the cursor after a move.
    fn moved(&mut self) {
        if !self.cur.valid {
            return;
        }
        if self.index.is_some() {
            self.index_value_buf.clear();
            self.cur.handle.encode_to(&mut self.index_value_buf);
        }
        if let Some(g) = self.global_seqno {
            self.adjusted.clear();
            self.adjusted.extend_from_slice(self.cur.key.as_slice());
            let n = self.adjusted.len();
            if n >= 8 {
                let t = (g << 8) | u64::from(self.adjusted[n - 8]);
                self.adjusted[n - 8..].copy_from_slice(&t.to_le_bytes());
            }
        }
    }

    /// Moves to entry `i` of the kept restart run.
    fn restore_run_entry(&mut self, i: usize) {
        let e = self.prev_run.entries[i];
        self.cur.key.set(&self.prev_run.keys[e.key.0..e.key.1]);
        self.cur.current = e.current;
        self.cur.next = e.next;
        self.cur.value = e.value;
        self.cur.restart_index = self.prev_run.restart_index;
        self.cur.valid = true;
        self.prev_run.pos = Some(i);
    }

    /// `prev` for data blocks: decodes the run before the current entry once and keeps it.
    fn prev_through_run(&mut self) {
        if let Some(i) = self.prev_run.pos {
            if i > 0 {
                self.restore_run_entry(i - 1);
                return;
            }
        }
        self.prev_run.pos = None;
        let original = self.cur.current;
        if !self.cur.seek_to_interval_before(&self.block, original) {
            return;
        }
        let layout = Layout {
            order: &self.order,
            index: self.index,
            global_seqno: self.global_seqno,
        };
        let run = &mut self.prev_run;
        run.entries.clear();
        run.keys.clear();
        run.restart_index = self.cur.restart_index;
        while self.cur.parse_next(&self.block, layout) {
            let key = self.cur.key();
            let start = run.keys.len();
            run.keys.extend_from_slice(key);
            run.entries.push(RunEntry {
                key: (start, run.keys.len()),
                current: self.cur.current,
                next: self.cur.next,
                value: self.cur.value,
            });
            if self.cur.next >= original {
                run.pos = Some(run.entries.len() - 1);
                break;
            }
        }
    }
}

impl InternalIterator for BlockIter {
    fn valid(&self) -> bool {
        self.cur.valid
    }

    fn seek_to_first(&mut self) {
        self.prev_run.pos = None;
        let (cur, block, layout) = self.parts();
        cur.seek_to_first(block, layout);
        self.moved();
    }

    fn seek_to_last(&mut self) {
        self.prev_run.pos = None;
        let (cur, block, layout) = self.parts();
        cur.seek_to_last(block, layout);
        self.moved();
    }

    fn seek(&mut self, target: &[u8]) {
        self.prev_run.pos = None;
        let (cur, block, layout) = self.parts();
        cur.seek(block, layout, target);
        self.moved();
    }

    fn seek_for_prev(&mut self, target: &[u8]) {
        self.seek(target);
        if !self.cur.valid {
            if self.cur.status.is_err() {
                return;
            }
            self.seek_to_last();
        }
        while self.cur.valid
            && self
                .layout()
                .compare_stored(self.cur.key.as_slice(), target)
                == Ordering::Greater
        {
            self.prev();
        }
    }

    fn next(&mut self) {
        self.prev_run.pos = None;
        let (cur, block, layout) = self.parts();
        cur.next(block, layout);
        self.moved();
    }

    fn prev(&mut self) {
        if !self.cur.valid {
            return;
        }
        if self.index.is_none() {
            self.prev_through_run();
        } else {
            let (cur, block, layout) = self.parts();
            cur.prev(block, layout);
        }
        self.moved();
    }

    fn key(&self) -> &[u8] {
        if self.global_seqno.is_some() {
            return &self.adjusted;
        }
        self.cur.key.as_slice()
    }

    fn value(&self) -> &[u8] {
        if self.index.is_some() {
            return &self.index_value_buf;
        }
        self.cur.value(&self.block)
    }

    fn status(&self) -> Result<()> {
        self.cur.status()
    }
}

#[cfg(test)]
mod tests {
    use super::super::BlockBuilder;
    use super::*;
    use crate::key::{append_internal_key, ValueType};
    use proptest::prelude::*;

    fn ik(k: &[u8], seq: u64) -> Vec<u8> {
        let mut v = Vec::new();
        append_internal_key(&mut v, k, seq, ValueType::Value);
        v
    }

    fn build(entries: &[(Vec<u8>, Vec<u8>)], interval: usize) -> Arc<Block> {
        let mut b = BlockBuilder::new(interval);
        for (k, v) in entries {
            b.add(k, v);
        }
        Arc::new(Block::new(b.finish()).expect("built block parses"))
    }

    fn collect_forward(it: &mut BlockIter) -> Vec<(Vec<u8>, Vec<u8>)> {
        let mut out = Vec::new();
        it.seek_to_first();
        while it.valid() {
            out.push((it.key().to_vec(), it.value().to_vec()));
            it.next();
        }
        out
    }

    #[test]
    fn empty_block_is_never_valid() {
        let mut it = BlockIter::new(build(&[], 16), KeyOrder::Bytewise, None);
        it.seek_to_first();
        assert!(!it.valid());
        it.seek_to_last();
        assert!(!it.valid());
        it.seek(b"x");
        assert!(!it.valid());
        assert!(it.status().is_ok());
    }

    #[test]
    fn index_values_delta_decode() {
        let mut b = BlockBuilder::new_value_delta(4);
        let handles = [
            BlockHandle::new(0, 100),
            BlockHandle::new(105, 90),
            BlockHandle::new(200, 120),
        ];
        let mut prev: Option<BlockHandle> = None;
        for (i, h) in handles.iter().enumerate() {
            let full = h.encoded();
            let mut delta = Vec::new();
            if let Some(p) = prev {
                let d = h.size as i64 - p.size as i64;
                crate::util::coding::put_varint64(&mut delta, ((d << 1) ^ (d >> 63)) as u64);
            }
            b.add_with_delta(format!("key{i}").as_bytes(), &full, &delta);
            prev = Some(*h);
        }
        let block = Arc::new(Block::new(b.finish()).expect("parses"));
        let fmt = IndexFormat {
            value_delta_encoded: true,
            has_first_key: false,
        };
        let mut it = BlockIter::new(block, KeyOrder::Bytewise, Some(fmt));
        it.seek_to_first();
        let mut got = Vec::new();
        while it.valid() {
            got.push(it.block_handle());
            assert_eq!(it.value(), it.block_handle().encoded());
            it.next();
        }
        assert_eq!(got, handles);
        it.seek_to_last();
        assert_eq!(it.block_handle(), handles[2]);
        it.prev();
        assert_eq!(it.block_handle(), handles[1]);
    }

    #[test]
    fn corrupt_entry_sets_status() {
        let entries = vec![
            (b"a".to_vec(), b"1".to_vec()),
            (b"b".to_vec(), b"2".to_vec()),
        ];
        let mut raw = {
            let mut b = BlockBuilder::new(16);
            for (k, v) in &entries {
                b.add(k, v);
            }
            b.finish()
        };
        raw[5] = 9; // second entry: shared = 9 > previous key length
        let mut it = BlockIter::new(
            Arc::new(Block::new(raw).expect("parses")),
            KeyOrder::Bytewise,
            None,
        );
        it.seek_to_first();
        assert!(it.valid());
        it.next();
        assert!(!it.valid());
        assert!(it.status().expect_err("corrupt").is_corruption());
    }

    proptest! {
        #[test]
        fn bytewise_cmp_is_memcmp_order(
            a in proptest::collection::vec(0u8..4, 0..90),
            b in proptest::collection::vec(0u8..4, 0..90),
        ) {
            prop_assert_eq!(bytewise_cmp(&a, &b), a.cmp(&b));
            let mut c = a.clone();
            c.extend_from_slice(&b);
            prop_assert_eq!(bytewise_cmp(&a, &c), a.cmp(&c));
            prop_assert_eq!(bytewise_cmp(&c, &a), c.cmp(&a));
        }
    }

    proptest! {
        /// Any walk mixing steps both ways with seeks (and, through the kept restart runs,
        /// long backward stretches) agrees with a sorted vector.
        #[test]
        fn mixed_walks_match_sorted_vec(
            keys in proptest::collection::btree_set(proptest::collection::vec(0u8..8, 0..10), 1..150),
            interval in 1usize..20,
            ops in proptest::collection::vec((0u8..6, proptest::collection::vec(0u8..8, 0..10)), 1..80),
        ) {
            let entries: Vec<(Vec<u8>, Vec<u8>)> = keys
                .iter()
                .enumerate()
                .map(|(i, k)| (ik(k, 7), format!("value{i}").into_bytes()))
                .collect();
            let cmp = InternalKeyComparator::default();
            let mut it = BlockIter::new(build(&entries, interval), KeyOrder::Internal(cmp.clone()), None);
            let mut model = crate::iter::cursor::VecIterator::new(entries.clone(), cmp);
            for (op, k) in ops {
                let target = ik(&k, 7);
                match op {
                    0 => { it.seek(&target); model.seek(&target); }
                    1 => { it.seek_for_prev(&target); model.seek_for_prev(&target); }
                    2 => { it.seek_to_last(); model.seek_to_last(); }
                    3 if it.valid() => { it.next(); model.next(); }
                    _ if it.valid() => { it.prev(); model.prev(); }
                    _ => { it.seek_to_first(); model.seek_to_first(); }
                }
                prop_assert_eq!(it.valid(), model.valid());
                if it.valid() {
                    prop_assert_eq!(it.key(), model.key());
                    prop_assert_eq!(it.value(), model.value());
                }
            }
        }
    }

    proptest! {
        #[test]
        fn matches_sorted_vec(
            keys in proptest::collection::btree_set(proptest::collection::vec(0u8..4, 0..6), 0..120),
            interval in 1usize..20,
            probes in proptest::collection::vec((proptest::collection::vec(0u8..4, 0..6), 0u64..4), 1..20),
        ) {
            let entries: Vec<(Vec<u8>, Vec<u8>)> = keys
                .iter()
                .enumerate()
                .map(|(i, k)| (ik(k, 2), format!("v{i}").into_bytes()))
                .collect();
            let cmp = InternalKeyComparator::default();
            let mut it = BlockIter::new(build(&entries, interval), KeyOrder::Internal(cmp.clone()), None);
            prop_assert_eq!(collect_forward(&mut it), entries.clone());
            // Backwards.
            let mut back = Vec::new();
            it.seek_to_last();
            while it.valid() {
                back.push((it.key().to_vec(), it.value().to_vec()));
                it.prev();
            }
            back.reverse();
            prop_assert_eq!(&back, &entries);
            let mut model = crate::iter::cursor::VecIterator::new(entries.clone(), cmp);
            for (k, seq) in probes {
                let target = ik(&k, seq);
                it.seek(&target);
                model.seek(&target);
                prop_assert_eq!(it.valid(), model.valid());
                if it.valid() {
                    prop_assert_eq!(it.key(), model.key());
                    it.prev();
                    model.prev();
                    prop_assert_eq!(it.valid(), model.valid());
                    if it.valid() { prop_assert_eq!(it.key(), model.key()); }
                }
                it.seek_for_prev(&target);
                model.seek_for_prev(&target);
                prop_assert_eq!(it.valid(), model.valid());
                if it.valid() {
                    prop_assert_eq!(it.key(), model.key());
                    it.next();
                    model.next();
                    prop_assert_eq!(it.valid(), model.valid());
                    if it.valid() { prop_assert_eq!(it.key(), model.key()); }
                }
            }
        }
    }
}
