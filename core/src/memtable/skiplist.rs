// SPDX-License-Identifier: Apache-2.0
//! The memtable's ordered index: a skiplist whose nodes live in the word [`Arena`], with one
//! writer at a time (a mutex) and any number of lock-free readers.
//!
//! # Design
//!
//! A node is a run of arena words, addressed by the reference of its level-0 link (RocksDB's
//! `InlineSkipList` layout, so a reader needs no node height):
//!
//! ```text
//! r - (h-1) .. r - 1   links for levels h-1 .. 1     (level i is the word at r - i)
//! r                    level-0 link
//! r + 1                user key length (low 32 bits) | value length (high 32 bits)
//! r + 2                trailer: (sequence << 8) | type
//! r + 3 ..             user key, 8 bytes a word, big-endian, the last word zero-padded
//! then                 the value's reference (0 for an empty value)
//! ```
//!
//! The value itself (8 bytes a word, little-endian, the last word zero-padded) is in blocks
//! of its own, filled by a second writer stream of the same arena. Keeping values out of the
//! nodes keeps the nodes dense: with 16-byte keys and 100-byte values a node takes 48 bytes
//! instead of 152, so the nodes a search walks through share cache lines and pages, and
//! inserts (a search from the top each) miss the cache less. A value is read once per hit.
//!
//! Links hold node references (0 = none). With the bytewise comparator a key comparison is a
//! loop over whole words (big-endian words of zero-padded keys compare like the bytes; when
//! all shared words are equal the shorter key sorts first), reading the node's key right
//! next to the link that led to it: about one cache miss per node visited. Other
//! comparators copy the node's user key out to a stack buffer and call the comparator.
//!
//! Writers: `insert` holds the writer mutex (callers insert from one thread, the write group
//! leader, so it is uncontended). It finds the node's place, writes every word of the node
//! (its links pointing at its successors), and only then links it in, level 0 first, with
//! release stores; a reader that reaches the node through any link (acquire load) sees it
//! complete, and nodes are never changed or removed afterwards. The writer remembers where
//! its last insert went (the "splice"); a key that falls in the same gap at level 0 (keys
//! inserted in order, as a sequential fill does) skips the search from the top.
//!
//! Readers: `seek_ge`, `seek_lt`, `last` and `next` walk the links; they hold no lock and
//! take no reference counts. Entries are never removed, so there is no reclamation either:
//! the arena goes away with the memtable.
//!
//! Height: 1 + the number of leading base-4 zero digits of a random word, at most
//! [`MAX_HEIGHT`] (12), RocksDB's defaults (about 1.33 links per node).

use std::cmp::Ordering;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering as AtomicOrdering};
use std::sync::Arc;

use parking_lot::Mutex;

use super::arena::{load, Arena, ArenaWriter, WordRef};
use crate::error::{Error, Result};
use crate::key::comparator::bytewise_word;
use crate::key::Comparator;
use crate::util::prefetch::prefetch_line;

/// The tallest tower.
pub(super) const MAX_HEIGHT: usize = 12;
/// The head's pseudo-reference (the head's links are not in the arena).
const HEAD: WordRef = u64::MAX;
/// Offsets from a node's reference.
const LENS: usize = 1;
const TRAILER: usize = 2;
const KEY: usize = 3;
/// Probe keys up to this many words are kept on the stack.
const INLINE_WORDS: usize = 8;
/// User keys up to this many bytes are copied to the stack for a custom comparator.
const INLINE_KEY_BYTES: usize = 128;

/// Never linked to anything; stands in for a link of a reference that does not exist.
static NO_LINK: AtomicU64 = AtomicU64::new(0);

/// How user keys compare.
pub(super) enum Order {
    /// Unsigned bytes (RocksDB's default comparator): whole-word comparisons.
    Bytewise,
    Custom(Arc<dyn Comparator>),
}

/// A search key: a user key and trailer, with the user key in word form for the bytewise
/// order.
pub(super) struct Probe<'a> {
    ukey: &'a [u8],
    trailer: u64,
    inline: [u64; INLINE_WORDS],
    heap: Vec<u64>,
    words: usize,
}

impl<'a> Probe<'a> {
    pub(super) fn new(ukey: &'a [u8], trailer: u64) -> Self {
        let words = ukey.len().div_ceil(8);
        let mut p = Probe {
            ukey,
            trailer,
            inline: [0; INLINE_WORDS],
            heap: Vec::new(),
            words,
        };
        if words <= INLINE_WORDS {
            for (w, chunk) in p.inline.iter_mut().zip(ukey.chunks(8)) {
                *w = bytewise_word(chunk);
            }
        } else {
            p.heap = ukey.chunks(8).map(bytewise_word).collect();
        }
        p
    }

    /// A probe for an internal key (user key + 8-byte trailer; a shorter key has trailer 0).
    pub(super) fn internal(ikey: &'a [u8]) -> Self {
        Probe::new(
            crate::key::internal_key::user_key(ikey),
            crate::key::internal_key::trailer(ikey),
        )
    }

    #[inline]
    fn words(&self) -> &[u64] {
        if self.words <= INLINE_WORDS {
            &self.inline[..self.words]
        } else {
            &self.heap
        }
    }
}

/// Up to 8 value bytes as a little-endian word, zero-padded.
#[inline]
fn value_word(chunk: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    b[..chunk.len()].copy_from_slice(chunk);
    u64::from_le_bytes(b)
}

/// A node's words: the block it is in and the offset of its level-0 link.
#[derive(Clone, Copy)]
struct Node<'a> {
    block: &'a [AtomicU64],
    at: usize,
}

impl<'a> Node<'a> {
    /// The link at `level` (the node must be at least `level + 1` high).
    #[inline(always)]
    fn link(self, level: usize) -> &'a AtomicU64 {
        self.at
            .checked_sub(level)
            .and_then(|i| self.block.get(i))
            .unwrap_or(&NO_LINK)
    }
    #[inline]
    fn lens(self) -> (usize, usize) {
        let l = load(self.block, self.at + LENS);
        ((l & 0xffff_ffff) as usize, (l >> 32) as usize)
    }
    #[inline]
    fn trailer(self) -> u64 {
        load(self.block, self.at + TRAILER)
    }
    #[inline]
    fn key_words(self, n: usize) -> &'a [AtomicU64] {
        let start = self.at + KEY;
        self.block.get(start..start + n).unwrap_or(&[])
    }
    /// Appends the user key's bytes to `dst`.
    fn user_key_into(self, dst: &mut Vec<u8>) {
        let (klen, _) = self.lens();
        let start = dst.len();
        for w in self.key_words(klen.div_ceil(8)) {
            dst.extend_from_slice(&w.load(AtomicOrdering::Relaxed).to_be_bytes());
        }
        dst.truncate(start + klen);
    }
    /// The value's reference and length.
    #[inline]
    fn value_ref(self) -> (WordRef, usize) {
        let (klen, vlen) = self.lens();
        (load(self.block, self.at + KEY + klen.div_ceil(8)), vlen)
    }
}

/// Starts loading the line of `block[i]` (nothing when out of range).
#[inline(always)]
fn prefetch_word(block: &[AtomicU64], i: usize) {
    if let Some(w) = block.get(i) {
        prefetch_line(w.as_ptr().cast::<u8>().cast_const());
    }
}

/// Appends the `vlen` value bytes in `arena` at `r` to `dst`.
fn value_bytes_into(arena: &Arena, r: WordRef, vlen: usize, dst: &mut Vec<u8>) {
    if vlen > 0 {
        let (block, start) = arena.locate(r);
        let words = block.get(start..start + vlen.div_ceil(8)).unwrap_or(&[]);
        let base = dst.len();
        dst.reserve(words.len() * 8);
        for w in words {
            dst.extend_from_slice(&w.load(AtomicOrdering::Relaxed).to_le_bytes());
        }
        dst.truncate(base + vlen);
    }
}

/// Compares node `n`'s user key with the probe's, a word at a time (see the module docs).
#[inline(always)]
fn compare_bytewise(n: Node<'_>, p: &Probe<'_>) -> Ordering {
    let (klen, _) = n.lens();
    for (a, &b) in n.key_words(klen.div_ceil(8)).iter().zip(p.words()) {
        let a = a.load(AtomicOrdering::Relaxed);
        if a != b {
            return a.cmp(&b);
        }
    }
    klen.cmp(&p.ukey.len())
}

/// Compares node `n`'s user key with the probe's through a user comparator.
#[inline(never)]
fn compare_custom(c: &dyn Comparator, n: Node<'_>, p: &Probe<'_>) -> Ordering {
    let (klen, _) = n.lens();
    if klen <= INLINE_KEY_BYTES {
        let mut buf = [0u8; INLINE_KEY_BYTES];
        for (dst, w) in buf.chunks_mut(8).zip(n.key_words(klen.div_ceil(8))) {
            dst.copy_from_slice(&w.load(AtomicOrdering::Relaxed).to_be_bytes());
        }
        c.compare(buf.get(..klen).unwrap_or(&[]), p.ukey)
    } else {
        let mut key = Vec::with_capacity(klen);
        n.user_key_into(&mut key);
        c.compare(&key, p.ukey)
    }
}

/// The writer's state: its arena position, its random source and the splice (where the last
/// insert went: at every level, the node before it and the one after).
struct Writer {
    /// The stream the nodes go to, and the one the values go to.
    nodes: ArenaWriter,
    values: ArenaWriter,
    rng: u64,
    prev: [WordRef; MAX_HEIGHT],
    next: [WordRef; MAX_HEIGHT],
    /// Whether `prev`/`next` hold a valid splice.
    splice: bool,
}

/// The skiplist. See the module docs.
pub(super) struct SkipList {
    arena: Arena,
    head: [AtomicU64; MAX_HEIGHT],
    /// The tallest tower so far; links of the head above it are 0.
    height: AtomicUsize,
    order: Order,
    writer: Mutex<Writer>,
}

impl SkipList {
    pub(super) fn new(order: Order) -> Self {
        SkipList {
            arena: Arena::new(),
            head: std::array::from_fn(|_| AtomicU64::new(0)),
            height: AtomicUsize::new(1),
            order,
            writer: Mutex::new(Writer {
                nodes: ArenaWriter::default(),
                values: ArenaWriter::for_values(),
                rng: 0x9e37_79b9_7f4a_7c15,
                prev: [HEAD; MAX_HEIGHT],
                next: [0; MAX_HEIGHT],
                splice: false,
            }),
        }
    }

    #[inline]
    fn node(&self, r: WordRef) -> Node<'_> {
        let (block, at) = self.arena.locate(r);
        Node { block, at }
    }

    /// The link of node `x` (or the head) at `level`.
    #[inline]
    fn link(&self, x: WordRef, level: usize) -> &AtomicU64 {
        if x == HEAD {
            return self.head.get(level).unwrap_or(&NO_LINK);
        }
        self.node(x).link(level)
    }

    #[inline]
    fn next_at(&self, x: WordRef, level: usize) -> WordRef {
        self.link(x, level).load(AtomicOrdering::Acquire)
    }

    /// Compares node `n` with the probe in internal key order (user key ascending, trailer
    /// descending). `user_only` stops after the user keys.
    #[inline(always)]
    fn compare(&self, n: Node<'_>, p: &Probe<'_>, user_only: bool) -> Ordering {
        let o = match &self.order {
            Order::Bytewise => compare_bytewise(n, p),
            Order::Custom(c) => compare_custom(c.as_ref(), n, p),
        };
        if o != Ordering::Equal || user_only {
            return o;
        }
        p.trailer.cmp(&n.trailer())
    }

    /// Whether node `r`'s user key equals the probe's.
    pub(super) fn same_user_key(&self, r: WordRef, p: &Probe<'_>) -> bool {
        self.compare(self.node(r), p, true) == Ordering::Equal
    }

    /// Whether node `r` equals the probe (same user key and trailer).
    pub(super) fn equals(&self, r: WordRef, p: &Probe<'_>) -> bool {
        self.compare(self.node(r), p, false) == Ordering::Equal
    }

    /// The first node, or 0 when empty.
    pub(super) fn first(&self) -> WordRef {
        self.next_at(HEAD, 0)
    }

    /// The node after `r`, or 0 at the end.
    #[inline]
    pub(super) fn next(&self, r: WordRef) -> WordRef {
        self.next_at(r, 0)
    }

    /// The link of `x` (a node, or the head for None) at `level`.
    #[inline(always)]
    fn link_of<'a>(&'a self, x: Option<Node<'a>>, level: usize) -> &'a AtomicU64 {
        match x {
            None => self.head.get(level).unwrap_or(&NO_LINK),
            Some(n) => n.link(level),
        }
    }

    /// Starts loading the node after `x` one level below `level`, which the search compares
    /// next whenever the comparison at `level` stops it: the two cache misses then overlap
    /// instead of following each other (the load is independent of the comparison).
    #[inline(always)]
    fn touch_below(&self, x: Option<Node<'_>>, level: usize) {
        if level == 0 {
            return;
        }
        let below = self.link_of(x, level - 1).load(AtomicOrdering::Relaxed);
        if below != 0 {
            std::hint::black_box(self.node(below).lens());
        }
    }

    /// Walks down from the head: at each level moves right while the next node sorts before
    /// the probe. Returns the last node before the probe (or `HEAD`) and the node after it.
    fn descend(&self, p: &Probe<'_>) -> (WordRef, WordRef) {
        let (mut x, mut x_ref) = (None, HEAD);
        let mut level = self.height.load(AtomicOrdering::Relaxed).max(1) - 1;
        // The node last found not to sort before the probe: compared once, not per level.
        let mut not_before = 0;
        loop {
            let next = self.link_of(x, level).load(AtomicOrdering::Acquire);
            if next != 0 && next != not_before {
                self.touch_below(x, level);
                let n = self.node(next);
                if self.compare(n, p, false) == Ordering::Less {
                    (x, x_ref) = (Some(n), next);
                    continue;
                }
            }
            not_before = next;
            if level == 0 {
                return (x_ref, next);
            }
            level -= 1;
        }
    }

    /// The first node at or after the probe, or 0.
    pub(super) fn seek_ge(&self, p: &Probe<'_>) -> WordRef {
        self.descend(p).1
    }

    /// The last node before the probe, or 0.
    pub(super) fn seek_lt(&self, p: &Probe<'_>) -> WordRef {
        match self.descend(p).0 {
            HEAD => 0,
            x => x,
        }
    }

    /// The last node, or 0 when empty.
    pub(super) fn last(&self) -> WordRef {
        let mut x = HEAD;
        let mut level = self.height.load(AtomicOrdering::Relaxed).max(1) - 1;
        loop {
            let next = self.next_at(x, level);
            if next != 0 {
                x = next;
                continue;
            }
            if level == 0 {
                return if x == HEAD { 0 } else { x };
            }
            level -= 1;
        }
    }

    /// Starts loading node `r` (0: nothing): its level-0 link, lengths, trailer and key,
    /// what a cursor stepping onto it reads.
    #[inline]
    pub(super) fn prefetch_node(&self, r: WordRef) {
        if r != 0 {
            let (block, at) = self.arena.locate(r);
            prefetch_word(block, at);
            prefetch_word(block, at + KEY + 1);
        }
    }

    /// Starts loading node `r`'s value. Reads the node (so call it a step after
    /// [`Self::prefetch_node`]).
    #[inline]
    pub(super) fn prefetch_value(&self, r: WordRef) {
        let (v, vlen) = self.node(r).value_ref();
        if vlen > 0 {
            let (block, start) = self.arena.locate(v);
            prefetch_word(block, start);
            prefetch_word(block, start + (vlen - 1) / 8);
        }
    }

    /// Node `r`'s trailer.
    #[inline]
    pub(super) fn trailer(&self, r: WordRef) -> u64 {
        self.node(r).trailer()
    }

    /// Replaces `dst` with node `r`'s internal key (user key ++ trailer).
    pub(super) fn internal_key_into(&self, r: WordRef, dst: &mut Vec<u8>) {
        let n = self.node(r);
        dst.clear();
        n.user_key_into(dst);
        dst.extend_from_slice(&n.trailer().to_le_bytes());
    }

    /// Replaces `dst` with node `r`'s value.
    pub(super) fn value_into(&self, r: WordRef, dst: &mut Vec<u8>) {
        dst.clear();
        let (v, vlen) = self.node(r).value_ref();
        value_bytes_into(&self.arena, v, vlen, dst);
    }

    /// Inserts `(ukey, trailer) -> value` unless an entry with the same user key and trailer
    /// exists. Returns the bytes the node takes, or None for such a duplicate.
    ///
    /// # Errors
    /// InvalidArgument for a key or value of 4 GiB or more; Aborted if the arena is full.
    pub(super) fn insert(&self, ukey: &[u8], trailer: u64, value: &[u8]) -> Result<Option<usize>> {
        let (Ok(klen), Ok(vlen)) = (u32::try_from(ukey.len()), u32::try_from(value.len())) else {
            return Err(Error::invalid_argument("key or value is too large"));
        };
        let p = Probe::new(ukey, trailer);
        let mut guard = self.writer.lock();
        let w = &mut *guard;
        let fits_splice = w.splice
            && (w.prev[0] == HEAD || self.compare(self.node(w.prev[0]), &p, false).is_lt())
            && (w.next[0] == 0 || !self.compare(self.node(w.next[0]), &p, false).is_lt());
        if !fits_splice {
            let height = self.height.load(AtomicOrdering::Relaxed);
            let (mut x, mut x_ref) = (None, HEAD);
            let mut not_before = 0;
            for level in (0..MAX_HEIGHT).rev() {
                if level >= height {
                    w.prev[level] = HEAD;
                    w.next[level] = 0;
                    continue;
                }
                loop {
                    let next = self.link_of(x, level).load(AtomicOrdering::Acquire);
                    if next != 0 && next != not_before {
                        self.touch_below(x, level);
                        let n = self.node(next);
                        if self.compare(n, &p, false) == Ordering::Less {
                            (x, x_ref) = (Some(n), next);
                            continue;
                        }
                    }
                    not_before = next;
                    w.prev[level] = x_ref;
                    w.next[level] = next;
                    break;
                }
            }
            w.splice = true;
        }
        if w.next[0] != 0 && self.compare(self.node(w.next[0]), &p, false).is_eq() {
            return Ok(None);
        }
        let h = random_height(&mut w.rng);
        let key_words = ukey.len().div_ceil(8);
        let value_words = value.len().div_ceil(8);
        let value_ref = if value_words == 0 {
            0
        } else {
            let (v, block) = self.arena.alloc(&mut w.values, value_words)?;
            let base = (v & 0xffff_ffff) as usize;
            for (i, chunk) in value.chunks(8).enumerate() {
                if let Some(word) = block.get(base + i) {
                    word.store(value_word(chunk), AtomicOrdering::Relaxed);
                }
            }
            v
        };
        let words = h + 2 + key_words + 1;
        let (start, block) = self.arena.alloc(&mut w.nodes, words)?;
        let base = (start & 0xffff_ffff) as usize;
        let r = start + (h as u64 - 1);
        let at = base + h - 1;
        let store = |i: usize, v: u64| {
            if let Some(word) = block.get(i) {
                word.store(v, AtomicOrdering::Relaxed);
            }
        };
        for level in 0..h {
            store(at - level, w.next[level]);
        }
        store(at + LENS, u64::from(klen) | u64::from(vlen) << 32);
        store(at + TRAILER, trailer);
        for (i, chunk) in ukey.chunks(8).enumerate() {
            store(at + KEY + i, bytewise_word(chunk));
        }
        store(at + KEY + key_words, value_ref);
        if h > self.height.load(AtomicOrdering::Relaxed) {
            // prev/next above the old height are the head and nothing (see the search).
            self.height.store(h, AtomicOrdering::Relaxed);
        }
        // Publish, bottom up: the node is complete before any link names it.
        for level in 0..h {
            self.link(w.prev[level], level)
                .store(r, AtomicOrdering::Release);
            w.prev[level] = r;
        }
        // The tail of a block this node did not fit in is memory the memtable holds too.
        let wasted = w.nodes.take_wasted() + w.values.take_wasted();
        Ok(Some((words + value_words + wasted) * 8))
    }
}

/// A tower height: P(h > k) = 4^-k.
fn random_height(rng: &mut u64) -> usize {
    // xorshift64*
    let mut x = *rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *rng = x;
    let r = x.wrapping_mul(0x2545_f491_4f6c_dd1d);
    let zero_digits = (r.trailing_zeros() / 2) as usize;
    (1 + zero_digits).min(MAX_HEIGHT)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ukeys(list: &SkipList) -> Vec<(Vec<u8>, u64)> {
        let mut out = Vec::new();
        let mut r = list.first();
        let mut k = Vec::new();
        while r != 0 {
            list.internal_key_into(r, &mut k);
            out.push((k[..k.len() - 8].to_vec(), list.trailer(r)));
            r = list.next(r);
        }
        out
    }

    #[test]
    fn word_order_is_byte_order() {
        let keys: Vec<&[u8]> = vec![
            b"",
            b"\0",
            b"\0\0",
            b"a",
            b"a\0",
            b"abcdefgh",
            b"abcdefgh\0",
            b"abcdefgh\x01",
            b"abcdefgi",
            b"b",
            b"\xff",
            b"\xff\xff\xff\xff\xff\xff\xff\xff\xff",
        ];
        let list = SkipList::new(Order::Bytewise);
        for (i, k) in keys.iter().enumerate().rev() {
            assert!(list.insert(k, i as u64, b"v").expect("insert").is_some());
        }
        let got: Vec<Vec<u8>> = ukeys(&list).into_iter().map(|(k, _)| k).collect();
        let want: Vec<Vec<u8>> = keys.iter().map(|k| k.to_vec()).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn values_round_trip_and_duplicates_are_refused() {
        let list = SkipList::new(Order::Bytewise);
        for n in [0usize, 1, 7, 8, 9, 100, 70_000 * 8] {
            let v: Vec<u8> = (0..n).map(|i| i as u8).collect();
            let key = format!("k{n:08}");
            assert!(list
                .insert(key.as_bytes(), 5, &v)
                .expect("insert")
                .is_some());
            assert!(list
                .insert(key.as_bytes(), 5, b"other")
                .expect("insert")
                .is_none());
            let r = list.seek_ge(&Probe::new(key.as_bytes(), u64::MAX));
            let mut got = Vec::new();
            list.value_into(r, &mut got);
            assert_eq!(got, v);
        }
    }

    #[test]
    fn seeks_and_the_splice_agree_with_a_model() {
        let list = SkipList::new(Order::Bytewise);
        let mut model = std::collections::BTreeSet::new();
        let mut rng = 7u64;
        // Runs of ascending keys (the splice path) mixed with random ones.
        for i in 0..4000u64 {
            let k = if i % 500 < 250 {
                i
            } else {
                random_height(&mut rng) as u64 * 997 % 5000
            };
            let key = format!("{k:06}");
            let fresh = model.insert(key.clone());
            assert_eq!(
                list.insert(key.as_bytes(), 1, b"")
                    .expect("insert")
                    .is_some(),
                fresh
            );
        }
        let got: Vec<String> = ukeys(&list)
            .into_iter()
            .map(|(k, _)| String::from_utf8(k).expect("ascii"))
            .collect();
        assert_eq!(got, model.iter().cloned().collect::<Vec<_>>());
        for probe in ["000000", "000500", "004999", "009999", "0"] {
            let p = Probe::new(probe.as_bytes(), 1);
            let ge = list.seek_ge(&p);
            let want = model.range(probe.to_string()..).next();
            let mut k = Vec::new();
            if ge != 0 {
                list.internal_key_into(ge, &mut k);
            }
            assert_eq!(
                want.map(|s| s.as_bytes().to_vec()),
                (ge != 0).then(|| k[..k.len() - 8].to_vec())
            );
            let lt = list.seek_lt(&p);
            let want = model.range(..probe.to_string()).next_back();
            assert_eq!(want.is_some(), lt != 0);
        }
        let last = list.last();
        let mut k = Vec::new();
        list.internal_key_into(last, &mut k);
        assert_eq!(
            &k[..k.len() - 8],
            model.iter().next_back().expect("some").as_bytes()
        );
    }

    #[test]
    fn heights_follow_the_branching_factor() {
        let mut rng = 1u64;
        let mut counts = [0usize; MAX_HEIGHT + 1];
        for _ in 0..100_000 {
            counts[random_height(&mut rng)] += 1;
        }
        assert!(counts[1] > 70_000 && counts[1] < 80_000, "{counts:?}");
        assert!(counts[2] > 15_000 && counts[2] < 22_000, "{counts:?}");
    }
}
