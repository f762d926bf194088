// SPDX-License-Identifier: Apache-2.0
//! The decoding core of a block (read path): a cursor state that walks a *borrowed*
//! [`Block`], shared by [`super::BlockIter`] (which owns an `Arc<Block>` and implements
//! `InternalIterator` on top) and by table point lookups (which search a block that the
//! block cache pins for them, with cursors on the stack).
//!
//! Entry layout (`block_builder.cc`):
//!
//! ```text
//! entry := shared:varint32 non_shared:varint32 [value_len:varint32] key_delta:u8[non_shared] value
//! ```
//!
//! `value_len` is absent in index blocks with delta-encoded values (format_version >= 4).
//! A key is the previous key's first `shared` bytes followed by `key_delta`; restart points
//! store whole keys (`shared == 0`), so a seek binary-searches their keys where they lie in
//! the block and only then decodes forward.
//!
//! # Design
//!
//! The cursor holds offsets into the block and the current key (a [`KeyBuf`], inline for
//! short keys), never the block itself: every method takes the block and its [`Layout`]
//! as arguments. That way a point lookup decodes a cached block without taking a reference
//! count on it, and a cursor is just a few words of stack. The headers' common case (each
//! of the two or three varints below 128) decodes with one test (RocksDB's `DecodeEntry`
//! fast path).
//!
//! Cache misses: a cached data block is usually cold in the CPU cache, and a search reaches
//! its restart keys and then its entries one dependent load at a time. So a data-block seek
//! first reads the first byte of every restart entry (when the block has at most
//! `MAX_TOUCHED_RESTARTS` of them; a 4 KiB block of small entries has a few) and then one
//! byte of every cache line of the first 2 KiB of the run it scans, with loads that do not
//! depend on each other ([`touch`]), so the lines arrive together. An index block's search
//! is narrowed by its restart prefixes (`super::restart_prefixes`) instead, and a cached data
//! block's by its inline run words when it has them (then no restart entry is read first).

use std::cmp::Ordering;

use super::iter::{IndexFormat, KeyOrder};
use super::key_buf::KeyBuf;
use super::Block;
use crate::error::{Error, Result};
use crate::key::internal_key::{trailer, user_key};
use crate::sst::format::{BlockHandle, BLOCK_TRAILER_SIZE};
use crate::util::coding::Decoder;

/// How one block's entries are read: key order, index value layout (`None` for data and
/// meta blocks), and the global sequence number of an ingested file's data blocks.
#[derive(Clone, Copy)]
pub(crate) struct Layout<'a> {
    pub(crate) order: &'a KeyOrder,
    pub(crate) index: Option<IndexFormat>,
    pub(crate) global_seqno: Option<u64>,
}

impl Layout<'_> {
    /// Compares a stored key with `target`, as the key the cursor would report (with a
    /// global sequence number, the stored trailer's sequence is replaced by it).
    #[inline]
    pub(crate) fn compare_stored(&self, stored: &[u8], target: &[u8]) -> Ordering {
        match (self.global_seqno, self.order) {
            (Some(g), KeyOrder::Internal(icmp)) if stored.len() >= 8 => {
                let t = (g << 8) | u64::from(stored[stored.len() - 8]);
                icmp.compare_user(user_key(stored), user_key(target))
                    .then_with(|| trailer(target).cmp(&t))
            }
            _ => self.order.compare(stored, target),
        }
    }

    #[inline]
    fn value_delta(&self) -> bool {
        self.index.is_some_and(|f| f.value_delta_encoded)
    }
}

/// Decodes the header of the entry at `at` in `data` (the entries, without the restart
/// array): `(shared, non_shared, value_len, key_start)`; `value_len` is `None` when
/// `value_delta` (the entry has no such field). `None` when the header is truncated.
#[inline]
fn decode_header(
    data: &[u8],
    at: usize,
    value_delta: bool,
) -> Option<(usize, usize, Option<usize>, usize)> {
    let p = data.get(at..)?;
    if value_delta {
        if let [a, b, ..] = *p {
            if (a | b) < 0x80 {
                return Some((usize::from(a), usize::from(b), None, at + 2));
            }
        }
    } else if let [a, b, c, ..] = *p {
        if (a | b | c) < 0x80 {
            return Some((usize::from(a), usize::from(b), Some(usize::from(c)), at + 3));
        }
    }
    let mut d = Decoder::new(p);
    let shared = d.varint32()? as usize;
    let non_shared = d.varint32()? as usize;
    let value_len = if value_delta {
        None
    } else {
        Some(d.varint32()? as usize)
    };
    Some((shared, non_shared, value_len, data.len() - d.len()))
}

/// The key stored at restart point `i` of `block` (which shares nothing with its
/// predecessor); None when it does not decode.
pub(super) fn restart_key<'b>(block: &'b Block, layout: Layout<'_>, i: usize) -> Option<&'b [u8]> {
    let limit = block.restart_offset();
    let data = &block.data()[..limit];
    let (shared, non_shared, _, key_start) =
        decode_header(data, block.restart_point(i), layout.value_delta())?;
    if shared != 0 {
        return None;
    }
    data.get(key_start..key_start.checked_add(non_shared)?)
}

/// The most restart keys a data-block seek touches before its binary search.
const MAX_TOUCHED_RESTARTS: usize = 64;

/// The most bytes of a restart run a data-block seek touches before it scans the run (a run
/// of large values is mostly values, which the scan skips).
const MAX_TOUCHED_RUN: usize = 2048;

/// Reads the given bytes, independently of each other: their cache lines load in parallel
/// instead of one after the other as the search that follows would reach them.
#[inline]
fn touch<'a>(bytes: impl Iterator<Item = Option<&'a u8>>) {
    let mut acc = 0u8;
    for b in bytes.flatten() {
        acc ^= *b;
    }
    std::hint::black_box(acc);
}

/// Reads one byte of every cache line of `data[start..end]` (and its last byte), the loads
/// independent of each other, as [`touch`] does (a plain loop: this runs once per get).
#[inline]
fn touch_lines(data: &[u8], start: usize, end: usize) {
    let Some(run) = data.get(start..end) else {
        return;
    };
    let mut acc = 0u8;
    for chunk in run.chunks(64) {
        acc ^= chunk[0];
    }
    if let Some(last) = run.last() {
        acc ^= *last;
    }
    std::hint::black_box(acc);
}

/// A position in one block: which entry, its rebuilt key, where its value lies, and for
/// index blocks its decoded block handle.
pub(crate) struct BlockCursor {
    /// Offset of the current entry; the block's restart offset when not valid.
    pub(crate) current: usize,
    /// Offset just past the current entry.
    pub(crate) next: usize,
    /// The restart run that holds `current`.
    pub(crate) restart_index: usize,
    pub(crate) key: KeyBuf,
    /// The current value's byte range in the block.
    pub(crate) value: (usize, usize),
    /// Index mode: the decoded handle and first key of the current entry.
    pub(crate) handle: BlockHandle,
    pub(crate) first_key: (usize, usize),
    pub(crate) valid: bool,
    pub(crate) status: Result<()>,
}

impl BlockCursor {
    /// A cursor over `block`, positioned nowhere.
    pub(crate) fn new(block: &Block) -> Self {
        let current = block.restart_offset();
        BlockCursor {
            current,
            next: current,
            restart_index: 0,
            key: KeyBuf::new(),
            value: (0, 0),
            handle: BlockHandle::default(),
            first_key: (0, 0),
            valid: false,
            status: Ok(()),
        }
    }

    #[inline]
    pub(crate) fn valid(&self) -> bool {
        self.valid
    }

    /// The current entry's key as stored (without a global sequence number applied).
    #[inline]
    pub(crate) fn key(&self) -> &[u8] {
        self.key.as_slice()
    }

    /// The current entry's value as stored.
    #[inline]
    pub(crate) fn value<'b>(&self, block: &'b Block) -> &'b [u8] {
        &block.data()[self.value.0..self.value.1]
    }

    pub(crate) fn status(&self) -> Result<()> {
        self.status.clone()
    }

    pub(crate) fn corrupt(&mut self, block: &Block, what: &str) {
        self.invalidate(block);
        if self.status.is_ok() {
            self.status = Err(Error::corruption(format!("bad entry in block: {what}")));
        }
    }

    pub(crate) fn invalidate(&mut self, block: &Block) {
        self.valid = false;
        self.current = block.restart_offset();
        self.next = self.current;
    }

    pub(crate) fn seek_to_restart(&mut self, block: &Block, i: usize) {
        self.key.clear();
        self.restart_index = i;
        self.next = block.restart_point(i);
        self.valid = false;
    }

    /// Decodes the entry at `self.next`. Returns false at the end or on corruption.
    pub(crate) fn parse_next(&mut self, block: &Block, layout: Layout<'_>) -> bool {
        let limit = block.restart_offset();
        let at = self.next;
        if at >= limit {
            self.invalidate(block);
            return false;
        }
        let data = &block.data()[..limit];
        let Some((shared, non_shared, value_len, key_start)) =
            decode_header(data, at, layout.value_delta())
        else {
            self.corrupt(block, "truncated header");
            return false;
        };
        if shared > self.key.len() {
            self.corrupt(block, "shared prefix longer than the previous key");
            return false;
        }
        let Some(delta) = key_start
            .checked_add(non_shared)
            .and_then(|end| data.get(key_start..end))
        else {
            self.corrupt(block, "key runs past the restart array");
            return false;
        };
        self.key.truncate(shared);
        self.key.extend(delta);
        let value_start = key_start + non_shared;
        self.current = at;
        match layout.index {
            None => {
                let end = value_start + value_len.unwrap_or(0);
                if end > limit {
                    self.corrupt(block, "value runs past the restart array");
                    return false;
                }
                self.value = (value_start, end);
                self.next = end;
            }
            Some(fmt) => {
                if !self.parse_index_value(block, data, fmt, shared, value_start, value_len) {
                    return false;
                }
            }
        }
        while self.restart_index + 1 < block.num_restarts()
            && block.restart_point(self.restart_index + 1) <= at
        {
            self.restart_index += 1;
        }
        self.valid = true;
        true
    }

    /// Decodes an index entry's value (block handle, maybe delta-encoded, and maybe the
    /// block's first key) starting at `value_start`; sets `value`, `next` and `handle`.
    fn parse_index_value(
        &mut self,
        block: &Block,
        data: &[u8],
        fmt: IndexFormat,
        shared: usize,
        value_start: usize,
        value_len: Option<usize>,
    ) -> bool {
        let rest = &data[value_start..];
        let mut vd = match value_len {
            Some(n) => match rest.get(..n) {
                Some(v) => Decoder::new(v),
                None => {
                    self.corrupt(block, "value runs past the restart array");
                    return false;
                }
            },
            None => Decoder::new(rest),
        };
        let vd_len = vd.len();
        if fmt.value_delta_encoded && shared > 0 {
            let Some(z) = vd.varint64() else {
                self.corrupt(block, "bad delta-encoded index value");
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
            let (Some(offset), Some(size)) = (vd.varint64(), vd.varint64()) else {
                self.corrupt(block, "bad block handle");
                return false;
            };
            self.handle = BlockHandle::new(offset, size);
        }
        let mut end = value_start + (vd_len - vd.len());
        if fmt.has_first_key {
            let before = vd.len();
            let Some(fk) = vd.length_prefixed() else {
                self.corrupt(block, "bad first key in block info");
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
        true
    }

    fn restarts_ok(&mut self, block: &Block) -> bool {
        if block.num_restarts() == 0 {
            self.invalidate(block);
            return false;
        }
        true
    }

    pub(crate) fn seek_to_first(&mut self, block: &Block, layout: Layout<'_>) {
        if !self.restarts_ok(block) {
            return;
        }
        self.seek_to_restart(block, 0);
        self.parse_next(block, layout);
    }

    pub(crate) fn seek_to_last(&mut self, block: &Block, layout: Layout<'_>) {
        if !self.restarts_ok(block) {
            return;
        }
        self.seek_to_restart(block, block.num_restarts() - 1);
        while self.parse_next(block, layout) && self.next < block.restart_offset() {}
    }

    /// Positions at the first entry whose key is `>= target`: a binary search over the
    /// restart keys, in place (over the part of them the block's restart prefixes leave
    /// open, when it has them), then a forward scan from the last restart key below
    /// `target`.
    pub(crate) fn seek(&mut self, block: &Block, layout: Layout<'_>, target: &[u8]) {
        let decided = block
            .restart_prefixes()
            .and_then(|p| p.first_at_or_after(layout.order, target));
        if let Some(i) = decided {
            if i < block.num_restarts() {
                self.seek_to_restart(block, i);
                self.parse_next(block, layout);
            } else {
                self.invalidate(block);
            }
            return;
        }
        if let Some(run) = self.run_for_seek(block, layout, target) {
            self.seek_in_run(block, layout, target, run);
        }
    }

    /// The restart run a seek of `target` scans: the last one whose restart key is below
    /// `target` (or the first). None, with the cursor invalid (and its status set when
    /// the block is corrupt), when there is nothing to scan.
    pub(crate) fn run_for_seek(
        &mut self,
        block: &Block,
        layout: Layout<'_>,
        target: &[u8],
    ) -> Option<usize> {
        if !self.restarts_ok(block) {
            return None;
        }
        let words = match block.run_words() {
            Some(w) => w.narrow(layout.order, target),
            None => block
                .restart_prefixes()
                .and_then(|p| p.narrow(layout.order, target)),
        };
        if words.is_none() && layout.index.is_none() && block.num_restarts() <= MAX_TOUCHED_RESTARTS
        {
            let data = block.data();
            touch((0..block.num_restarts()).map(|i| data.get(block.restart_point(i))));
        }
        let whole = (0usize, block.num_restarts() - 1);
        let (mut left, mut right) = words.unwrap_or(whole);
        while left < right {
            let mid = (left + right).div_ceil(2);
            let Some(k) = restart_key(block, layout, mid) else {
                self.corrupt(block, "bad restart point");
                return None;
            };
            if layout.compare_stored(k, target) == Ordering::Less {
                left = mid;
            } else {
                right = mid - 1;
            }
        }
        Some(left)
    }

    /// The restart run a point lookup of `target`'s user key scans: the one the block's
    /// hash index names ([`Block::hash_restart`]), else [`Self::run_for_seek`]'s. Where the
    /// key is in the block, all its entries are in that run, every key before the run is
    /// smaller, and the scan finds what a seek would; where it is not, the scan ends at a
    /// larger key of another user key or past the end, which a point lookup reads as "not
    /// here" either way.
    pub(crate) fn run_for_get(
        &mut self,
        block: &Block,
        layout: Layout<'_>,
        target: &[u8],
    ) -> Option<usize> {
        let hashed = match layout.order {
            KeyOrder::Internal(icmp) if icmp.is_bytewise() && layout.index.is_none() => {
                block.hash_restart(user_key(target))
            }
            _ => None,
        };
        hashed.or_else(|| self.run_for_seek(block, layout, target))
    }

    /// A data-block seek for a point lookup of `target`'s user key: from the run
    /// [`Self::run_for_get`] chooses.
    pub(crate) fn seek_for_get(&mut self, block: &Block, layout: Layout<'_>, target: &[u8]) {
        if let Some(run) = self.run_for_get(block, layout, target) {
            self.seek_in_run(block, layout, target, run);
        }
    }

    /// Positions at the first entry `>= target` from the start of restart run `run` (which
    /// [`Self::run_for_seek`] or [`Self::run_for_get`] chose), scanning forward.
    pub(crate) fn seek_in_run(
        &mut self,
        block: &Block,
        layout: Layout<'_>,
        target: &[u8],
        run: usize,
    ) {
        self.seek_to_restart(block, run);
        if layout.index.is_none() {
            self.scan_data_to(block, layout, target);
            return;
        }
        while self.parse_next(block, layout) {
            if layout.compare_stored(self.key.as_slice(), target) != Ordering::Less {
                return;
            }
        }
    }

    /// The forward scan of a data-block seek, from the restart point in `self.next`: it
    /// rebuilds each key and compares it, and records the position only for the entry it
    /// stops at (what `parse_next` + compare would do, with less bookkeeping per entry).
    fn scan_data_to(&mut self, block: &Block, layout: Layout<'_>, target: &[u8]) {
        let limit = block.restart_offset();
        let data = &block.data()[..limit];
        let mut at = self.next;
        let mut prefix = match (layout.order, layout.global_seqno) {
            (KeyOrder::Internal(icmp), None) if icmp.is_bytewise() && target.len() >= 8 => {
                Some(SharedPrefixScan::new(target))
            }
            _ => None,
        };
        let touched_end = block
            .run_end(self.restart_index)
            .min(at.saturating_add(MAX_TOUCHED_RUN));
        touch_lines(data, at, touched_end);
        while at < limit {
            let Some((shared, non_shared, value_len, key_start)) = decode_header(data, at, false)
            else {
                self.corrupt(block, "truncated header");
                return;
            };
            if shared > self.key.len() {
                self.corrupt(block, "shared prefix longer than the previous key");
                return;
            }
            let key_end = key_start + non_shared;
            let Some(delta) = data.get(key_start..key_end) else {
                self.corrupt(block, "key runs past the restart array");
                return;
            };
            self.key.truncate(shared);
            self.key.extend_within(data, key_start, delta.len());
            let end = key_end + value_len.unwrap_or(0);
            if end > limit {
                self.corrupt(block, "value runs past the restart array");
                return;
            }
            let below = match &mut prefix {
                Some(p) => p.entry_below(self.key.as_slice(), shared),
                None => layout.compare_stored(self.key.as_slice(), target) == Ordering::Less,
            };
            if !below {
                self.current = at;
                self.value = (key_end, end);
                self.next = end;
                while self.restart_index + 1 < block.num_restarts()
                    && block.restart_point(self.restart_index + 1) <= at
                {
                    self.restart_index += 1;
                }
                self.valid = true;
                return;
            }
            at = end;
        }
        self.invalidate(block);
    }

    pub(crate) fn next(&mut self, block: &Block, layout: Layout<'_>) {
        if self.valid {
            self.parse_next(block, layout);
        }
    }

    /// Steps back one entry by rescanning from the restart point before the current entry.
    pub(crate) fn prev(&mut self, block: &Block, layout: Layout<'_>) {
        if !self.valid {
            return;
        }
        let original = self.current;
        if !self.seek_to_interval_before(block, original) {
            return;
        }
        while self.parse_next(block, layout) && self.next < original {}
    }

    /// Moves to the start of the restart run that holds the entry before the one at
    /// `original`; false (and invalid) when there is none.
    pub(crate) fn seek_to_interval_before(&mut self, block: &Block, original: usize) -> bool {
        while block.restart_point(self.restart_index) >= original {
            if self.restart_index == 0 {
                self.invalidate(block);
                return false;
            }
            self.restart_index -= 1;
        }
        self.seek_to_restart(block, self.restart_index);
        true
    }
}

/// The comparison of [`BlockCursor::scan_data_to`] for bytewise internal keys, which skips
/// most key bytes: a forward scan knows how many leading bytes each entry shares with the
/// entry before it (its `shared` count), so once it knows how many the previous entry
/// shared with the target (`lcp`), an entry that shares more than that with its
/// predecessor agrees with it at the byte where the predecessor fell below the target, and
/// is below the target too, unread. Otherwise the entry agrees with the target on its first
/// `min(shared, lcp)` bytes and only the bytes after them are compared.
///
/// Valid whatever the `shared` counts are (a writer need not share the longest prefix):
/// every step uses only "the first `shared` bytes equal the predecessor's". The shortcut
/// needs user keys of the target's length on both sides (then byte `lcp` of both is a
/// user-key byte); any other entry is compared in full and starts the chain again.
struct SharedPrefixScan<'t> {
    target: &'t [u8],
    /// The target's user key length.
    user_len: usize,
    /// Bytes the previous entry's user key shares with the target's, when that entry had a
    /// user key of the target's length and was below the target.
    lcp: Option<usize>,
}

impl<'t> SharedPrefixScan<'t> {
    fn new(target: &'t [u8]) -> Self {
        SharedPrefixScan {
            target,
            user_len: target.len() - 8,
            lcp: None,
        }
    }

    /// Whether `key` (an internal key that shares its first `shared` bytes with the
    /// previous entry's) sorts below the target; keeps `lcp` for the next entry.
    #[inline]
    fn entry_below(&mut self, key: &[u8], shared: usize) -> bool {
        let n = self.user_len;
        if key.len() != n + 8 {
            self.lcp = None;
            return self.full(key);
        }
        let start = match self.lcp {
            Some(p) if p < n && shared > p => return true,
            Some(p) => p.min(shared),
            None => 0,
        };
        let (k, t) = (&key[start..n], &self.target[start..n]);
        match k.iter().zip(t).position(|(a, b)| a != b) {
            Some(d) => {
                let below = k[d] < t[d];
                self.lcp = below.then_some(start + d);
                below
            }
            None => {
                // Same user key: the newer entry (larger trailer) sorts first.
                let below = trailer(key) > trailer(self.target);
                self.lcp = below.then_some(n);
                below
            }
        }
    }

    fn full(&self, key: &[u8]) -> bool {
        match user_key(key).cmp(user_key(self.target)) {
            Ordering::Equal => trailer(key) > trailer(self.target),
            o => o == Ordering::Less,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::sync::Arc;

    use proptest::prelude::*;

    use super::*;
    use crate::key::{
        append_internal_key, pack_seq_and_type, BytewiseComparator, InternalKeyComparator,
        ValueType, VALUE_TYPE_FOR_SEEK,
    };
    use crate::sst::block::BlockBuilder;

    fn target(uk: &[u8], seq: u64) -> Vec<u8> {
        let mut t = uk.to_vec();
        t.extend_from_slice(&pack_seq_and_type(seq, VALUE_TYPE_FOR_SEEK).to_le_bytes());
        t
    }

    /// A data block encoded by hand, each entry sharing `cut` fewer bytes with the one
    /// before than it could (never below 0), with a restart every `interval` entries.
    fn encode_sharing_less(
        entries: &[(Vec<u8>, Vec<u8>)],
        interval: usize,
        cuts: &[usize],
    ) -> Block {
        let (mut data, mut restarts, mut prev) = (Vec::new(), Vec::new(), Vec::<u8>::new());
        for (i, (k, v)) in entries.iter().enumerate() {
            let shared = if i % interval == 0 {
                restarts.push(u32::try_from(data.len()).expect("small block"));
                0
            } else {
                let longest = prev.iter().zip(k).take_while(|(a, b)| a == b).count();
                longest.saturating_sub(cuts[i % cuts.len()])
            };
            for n in [shared, k.len() - shared, v.len()] {
                data.push(u8::try_from(n).expect("one-byte varint"));
            }
            data.extend_from_slice(&k[shared..]);
            data.extend_from_slice(v);
            prev.clone_from(k);
        }
        for r in &restarts {
            data.extend_from_slice(&r.to_le_bytes());
        }
        let n = u32::try_from(restarts.len()).expect("few restarts");
        data.extend_from_slice(&n.to_le_bytes());
        Block::new(data).expect("hand-encoded block parses")
    }

    proptest! {
        /// A data-block seek over bytewise internal keys (several versions per user key,
        /// user keys mostly of one length) lands on the first entry not below the target, as
        /// the sorted entries say, also when the writer shares shorter prefixes than it
        /// could: the scan's shared-prefix shortcut must not assume the longest.
        #[test]
        fn a_data_seek_matches_the_sorted_entries_whatever_the_shared_prefixes(
            users in proptest::collection::btree_set(proptest::collection::vec(0u8..3, 2..5), 1..50),
            versions in 1u64..4,
            cuts in proptest::collection::vec(prop_oneof![Just(0usize), 0usize..6], 1..50),
            interval in 1usize..20,
            probes in proptest::collection::vec((proptest::collection::vec(0u8..3, 1..6), 0u64..12), 1..40),
        ) {
            let icmp = InternalKeyComparator::new(Arc::new(BytewiseComparator));
            let mut entries = Vec::new();
            for uk in &users {
                for v in 0..versions {
                    let seq = 10 - 3 * v;
                    let mut k = Vec::new();
                    append_internal_key(&mut k, uk, seq, ValueType::Value);
                    entries.push((k, format!("{seq}").into_bytes()));
                }
            }
            let block = encode_sharing_less(&entries, interval, &cuts);
            let order = KeyOrder::Internal(icmp.clone());
            let layout = Layout { order: &order, index: None, global_seqno: None };
            let every = users.iter().flat_map(|u| [(u.clone(), 11), (u.clone(), 7), (u.clone(), 2)]);
            for (uk, seq) in probes.into_iter().chain(every) {
                let t = target(&uk, seq);
                let want = entries.iter().find(|(k, _)| icmp.compare(k, &t) != Ordering::Less);
                let mut c = BlockCursor::new(&block);
                c.seek(&block, layout, &t);
                prop_assert!(c.status().is_ok());
                prop_assert_eq!(c.valid(), want.is_some(), "target {:?}@{}", uk, seq);
                if let Some((k, v)) = want {
                    prop_assert_eq!(c.key(), &k[..]);
                    prop_assert_eq!(c.value(&block), &v[..]);
                }
            }
        }

        /// Where the user key is in the block, the hashed seek lands where the binary-search
        /// seek does; where it is not, it lands on another user key or nowhere.
        #[test]
        fn a_hashed_seek_for_get_agrees_with_seek(
            keys in proptest::collection::btree_map(
                proptest::collection::vec(0u8..4, 1..4), 1usize..4, 1..60),
            probes in proptest::collection::vec(
                (proptest::collection::vec(0u8..4, 1..4), 0u64..12), 1..40),
            interval in 1usize..6,
            ratio in 0.3f64..1.5,
        ) {
            let mut b = BlockBuilder::new(interval).with_hash_index(ratio);
            let mut present = BTreeMap::new();
            for (uk, versions) in &keys {
                for v in 0..*versions {
                    let seq = 10 - 3 * v as u64;
                    let mut k = Vec::new();
                    append_internal_key(&mut k, uk, seq, ValueType::Value);
                    b.add(&k, format!("{seq}").as_bytes());
                }
                present.insert(uk.clone(), ());
            }
            let block = Block::new(b.finish()).expect("built block parses");
            prop_assert!(block.buckets.1 > 0, "the block has a hash index");
            let order = KeyOrder::Internal(InternalKeyComparator::new(Arc::new(BytewiseComparator)));
            let layout = Layout { order: &order, index: None, global_seqno: None };
            let every = keys.keys().map(|k| (k.clone(), 5u64));
            for (uk, seq) in probes.into_iter().chain(every) {
                let t = target(&uk, seq);
                let mut plain = BlockCursor::new(&block);
                plain.seek(&block, layout, &t);
                let mut hashed = BlockCursor::new(&block);
                hashed.seek_for_get(&block, layout, &t);
                prop_assert!(hashed.status().is_ok());
                if present.contains_key(&uk) {
                    prop_assert_eq!(plain.valid(), hashed.valid());
                    if plain.valid() {
                        prop_assert_eq!(plain.key(), hashed.key());
                        prop_assert_eq!(plain.value(&block), hashed.value(&block));
                    }
                } else if hashed.valid() {
                    prop_assert_ne!(user_key(hashed.key()), &uk[..]);
                }
            }
        }
    }

    #[test]
    fn blocks_of_over_253_restart_runs_get_no_hash_index() {
        let build = |n: u32| {
            let mut b = BlockBuilder::new(1).with_hash_index(0.75);
            for i in 0..n {
                let mut k = Vec::new();
                append_internal_key(&mut k, format!("k{i:04}").as_bytes(), 1, ValueType::Value);
                b.add(&k, b"v");
            }
            b.finish()
        };
        let footer = |blk: &[u8]| u32::from_le_bytes(blk[blk.len() - 4..].try_into().expect("4"));
        assert_eq!(footer(&build(254)) >> 31, 1, "restart indexes 0..=253 fit");
        assert_eq!(
            footer(&build(255)) >> 31,
            0,
            "index 254 would read as a collision"
        );
        let blk = Block::new(build(255)).expect("parses");
        assert_eq!(blk.hash_restart(b"k0001"), None);
        // As in RocksDB, the builder stays without an index for the rest of its table.
        let mut b = BlockBuilder::new(1).with_hash_index(0.75);
        for round in 0..2 {
            let n = if round == 0 { 255 } else { 3 };
            for i in 0..n {
                let mut k = Vec::new();
                append_internal_key(
                    &mut k,
                    format!("r{round}{i:04}").as_bytes(),
                    1,
                    ValueType::Value,
                );
                b.add(&k, b"v");
            }
            assert_eq!(footer(&b.finish()) >> 31, 0, "round {round}");
        }
    }
}
