// SPDX-License-Identifier: Apache-2.0
//! The cursor over one block's entries (read path). Seeks binary-search the restart array for
//! the last restart key below the target and then scan forward; `prev` rescans from the restart
//! point before the current entry, since entries can only be decoded forwards.
//!
//! One type serves every block kind; [`KeyOrder`] says how keys compare (internal keys for data
//! blocks, user keys for an index with `index_key_is_user_key`, raw bytes for meta blocks) and
//! [`IndexFormat`] says how index values are laid out.

use std::cmp::Ordering;
use std::sync::Arc;

use super::Block;
use crate::error::{Error, Result};
use crate::iter::InternalIterator;
use crate::key::internal_key::user_key;
use crate::key::{Comparator, InternalKeyComparator};
use crate::sst::format::{BlockHandle, BLOCK_TRAILER_SIZE};
use crate::util::coding::Decoder;

/// How a block's keys are ordered and compared with seek targets.
#[derive(Clone)]
pub enum KeyOrder {
    /// Keys and targets are internal keys (data blocks, index blocks with internal keys).
    Internal(InternalKeyComparator),
    /// Keys are user keys, targets are internal keys whose user key part is compared (index
    /// blocks with `index_key_is_user_key`).
    UserKeys(Arc<dyn Comparator>),
    /// Keys and targets compare as raw bytes (metaindex, properties).
    Bytewise,
}

impl std::fmt::Debug for KeyOrder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeyOrder::Internal(_) => f.write_str("Internal"),
            KeyOrder::UserKeys(c) => write!(f, "UserKeys({})", c.name()),
            KeyOrder::Bytewise => f.write_str("Bytewise"),
        }
    }
}

impl KeyOrder {
    fn compare(&self, entry_key: &[u8], target: &[u8]) -> Ordering {
        match self {
            KeyOrder::Internal(c) => c.compare(entry_key, target),
            KeyOrder::UserKeys(c) => c.compare(entry_key, user_key(target)),
            KeyOrder::Bytewise => entry_key.cmp(target),
        }
    }
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
pub struct BlockIter {
    block: Arc<Block>,
    order: KeyOrder,
    index: Option<IndexFormat>,
    /// Offset of the current entry; `restart_offset` when not valid.
    current: usize,
    /// Offset just past the current entry.
    next: usize,
    /// The restart run that holds `current`.
    restart_index: usize,
    key: Vec<u8>,
    value: (usize, usize),
    /// Index mode: the decoded handle and first key of the current entry.
    handle: BlockHandle,
    first_key: (usize, usize),
    index_value_buf: Vec<u8>,
    valid: bool,
    status: Result<()>,
    /// Sequence number that replaces every key's own (ingested external files); `key()` then
    /// returns `adjusted`, while `key` keeps the stored bytes that later entries share.
    global_seqno: Option<u64>,
    adjusted: Vec<u8>,
}

impl BlockIter {
    /// A cursor over a data, meta or (with `index` set) index block.
    pub fn new(block: Arc<Block>, order: KeyOrder, index: Option<IndexFormat>) -> Self {
        let current = block.restart_offset();
        BlockIter {
            block,
            order,
            index,
            current,
            next: current,
            restart_index: 0,
            key: Vec::new(),
            value: (0, 0),
            handle: BlockHandle::default(),
            first_key: (0, 0),
            index_value_buf: Vec::new(),
            valid: false,
            status: Ok(()),
            global_seqno: None,
            adjusted: Vec::new(),
        }
    }

    /// Makes the cursor report every internal key with sequence number `seqno` (RocksDB's
    /// global sequence number of ingested files). Only for data blocks of internal keys.
    pub fn with_global_seqno(mut self, seqno: Option<u64>) -> Self {
        self.global_seqno = seqno;
        self
    }

    /// Compares a stored key with `target`, as the key the cursor would report.
    fn compare_stored(&self, stored: &[u8], target: &[u8]) -> Ordering {
        match (self.global_seqno, &self.order) {
            (Some(g), KeyOrder::Internal(icmp)) if stored.len() >= 8 => {
                let t = (g << 8) | u64::from(stored[stored.len() - 8]);
                icmp.compare_user(user_key(stored), user_key(target))
                    .then_with(|| crate::key::internal_key::trailer(target).cmp(&t))
            }
            _ => self.order.compare(stored, target),
        }
    }

    /// The block handle of the current index entry (index mode only).
    pub fn block_handle(&self) -> BlockHandle {
        self.handle
    }

    /// The first internal key of the block the current index entry points at, when the index
    /// stores it (`kBinarySearchWithFirstKey`).
    pub fn first_internal_key(&self) -> Option<&[u8]> {
        match self.index {
            Some(f) if f.has_first_key => {
                Some(&self.block.data()[self.first_key.0..self.first_key.1])
            }
            _ => None,
        }
    }

    fn corrupt(&mut self, what: &str) {
        self.valid = false;
        self.current = self.block.restart_offset();
        self.next = self.current;
        if self.status.is_ok() {
            self.status = Err(Error::corruption(format!("bad entry in block: {what}")));
        }
    }

    fn invalidate(&mut self) {
        self.valid = false;
        self.current = self.block.restart_offset();
        self.next = self.current;
    }

    fn seek_to_restart(&mut self, i: usize) {
        self.key.clear();
        self.restart_index = i;
        let p = self.block.restart_point(i);
        self.next = p;
        self.valid = false;
    }

    /// Decodes the entry at `self.next`. Returns false at the end or on corruption.
    fn parse_next(&mut self) -> bool {
        let limit = self.block.restart_offset();
        let at = self.next;
        if at >= limit {
            self.invalidate();
            return false;
        }
        let block = Arc::clone(&self.block);
        let data = &block.data()[..limit];
        let mut d = Decoder::new(&data[at..]);
        let value_delta = self.index.is_some_and(|f| f.value_delta_encoded);
        let (Some(shared), Some(non_shared)) = (d.varint32(), d.varint32()) else {
            self.corrupt("truncated header");
            return false;
        };
        let value_len = if value_delta {
            None
        } else {
            match d.varint32() {
                Some(v) => Some(v as usize),
                None => {
                    self.corrupt("truncated header");
                    return false;
                }
            }
        };
        let (shared, non_shared) = (shared as usize, non_shared as usize);
        if shared > self.key.len() {
            self.corrupt("shared prefix longer than the previous key");
            return false;
        }
        let Some(delta) = d.bytes(non_shared) else {
            self.corrupt("key runs past the restart array");
            return false;
        };
        self.key.truncate(shared);
        self.key.extend_from_slice(delta);
        let value_start = limit - d.len();
        self.current = at;
        match self.index {
            None => {
                let n = value_len.unwrap_or(0);
                if d.bytes(n).is_none() {
                    self.corrupt("value runs past the restart array");
                    return false;
                }
                self.value = (value_start, value_start + n);
                self.next = value_start + n;
            }
            Some(fmt) => {
                let mut vd = match value_len {
                    Some(n) => match d.bytes(n) {
                        Some(v) => Decoder::new(v),
                        None => {
                            self.corrupt("value runs past the restart array");
                            return false;
                        }
                    },
                    None => Decoder::new(d.remaining()),
                };
                let vd_len = vd.len();
                if fmt.value_delta_encoded && shared > 0 {
                    let Some(z) = vd.varint64() else {
                        self.corrupt("bad delta-encoded index value");
                        return false;
                    };
                    let delta = ((z >> 1) as i64) ^ -((z & 1) as i64);
                    let prev = self.handle;
                    self.handle = BlockHandle::new(
                        prev.offset
                            .wrapping_add(prev.size)
                            .wrapping_add(BLOCK_TRAILER_SIZE as u64),
                        prev.size.wrapping_add(delta as u64),
                    );
                } else {
                    match BlockHandle::decode_from(&mut vd) {
                        Ok(h) => self.handle = h,
                        Err(_) => {
                            self.corrupt("bad block handle");
                            return false;
                        }
                    }
                }
                let mut end = value_start + (vd_len - vd.len());
                if fmt.has_first_key {
                    let before = vd.len();
                    let Some(fk) = vd.length_prefixed() else {
                        self.corrupt("bad first key in block info");
                        return false;
                    };
                    let fk_end = end + (before - vd.len());
                    self.first_key = (fk_end - fk.len(), fk_end);
                    end = fk_end;
                }
                if let Some(n) = value_len {
                    end = value_start + n;
                }
                self.value = (value_start, end);
                self.next = end;
                self.index_value_buf.clear();
                self.handle.encode_to(&mut self.index_value_buf);
            }
        }
        while self.restart_index + 1 < self.block.num_restarts()
            && self.block.restart_point(self.restart_index + 1) <= at
        {
            self.restart_index += 1;
        }
        if let Some(g) = self.global_seqno {
            self.adjusted.clear();
            self.adjusted.extend_from_slice(&self.key);
            let n = self.adjusted.len();
            if n >= 8 {
                let t = (g << 8) | u64::from(self.adjusted[n - 8]);
                self.adjusted[n - 8..].copy_from_slice(&t.to_le_bytes());
            }
        }
        self.valid = true;
        true
    }

    /// The key stored at restart point `i` (which shares nothing with its predecessor).
    fn restart_key(&self, i: usize) -> Option<&[u8]> {
        let limit = self.block.restart_offset();
        let p = self.block.restart_point(i);
        let data = self.block.data().get(p..limit)?;
        let mut d = Decoder::new(data);
        let shared = d.varint32()?;
        let non_shared = d.varint32()? as usize;
        if !self.index.is_some_and(|f| f.value_delta_encoded) {
            d.varint32()?;
        }
        if shared != 0 {
            return None;
        }
        d.bytes(non_shared)
    }

    fn restarts_ok(&mut self) -> bool {
        if self.block.num_restarts() == 0 {
            self.invalidate();
            return false;
        }
        true
    }
}

impl InternalIterator for BlockIter {
    fn valid(&self) -> bool {
        self.valid
    }

    fn seek_to_first(&mut self) {
        if !self.restarts_ok() {
            return;
        }
        self.seek_to_restart(0);
        self.parse_next();
    }

    fn seek_to_last(&mut self) {
        if !self.restarts_ok() {
            return;
        }
        self.seek_to_restart(self.block.num_restarts() - 1);
        while self.parse_next() && self.next < self.block.restart_offset() {}
    }

    fn seek(&mut self, target: &[u8]) {
        if !self.restarts_ok() {
            return;
        }
        // Find the last restart point whose key is < target.
        let (mut left, mut right) = (0usize, self.block.num_restarts() - 1);
        while left < right {
            let mid = (left + right).div_ceil(2);
            let Some(k) = self.restart_key(mid) else {
                self.corrupt("bad restart point");
                return;
            };
            if self.compare_stored(k, target) == Ordering::Less {
                left = mid;
            } else {
                right = mid - 1;
            }
        }
        self.seek_to_restart(left);
        while self.parse_next() {
            if self.compare_stored(&self.key, target) != Ordering::Less {
                return;
            }
        }
    }

    fn seek_for_prev(&mut self, target: &[u8]) {
        self.seek(target);
        if !self.valid {
            if self.status.is_err() {
                return;
            }
            self.seek_to_last();
        }
        while self.valid && self.compare_stored(&self.key, target) == Ordering::Greater {
            self.prev();
        }
    }

    fn next(&mut self) {
        if self.valid {
            self.parse_next();
        }
    }

    fn prev(&mut self) {
        if !self.valid {
            return;
        }
        let original = self.current;
        while self.block.restart_point(self.restart_index) >= original {
            if self.restart_index == 0 {
                self.invalidate();
                return;
            }
            self.restart_index -= 1;
        }
        self.seek_to_restart(self.restart_index);
        while self.parse_next() && self.next < original {}
    }

    fn key(&self) -> &[u8] {
        if self.global_seqno.is_some() {
            return &self.adjusted;
        }
        &self.key
    }

    fn value(&self) -> &[u8] {
        if self.index.is_some() {
            return &self.index_value_buf;
        }
        &self.block.data()[self.value.0..self.value.1]
    }

    fn status(&self) -> Result<()> {
        self.status.clone()
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
