// SPDX-License-Identifier: Apache-2.0
//! Restart prefixes: an in-memory search aid for a block a table keeps open for its whole
//! life, its index block (read path: every get and every seek of the table).
//!
//! A seek binary-searches the restart keys where they lie in the block. In an index block
//! (one restart per entry, thousands of entries spread over hundreds of KiB) each step of
//! that search reads the restart array and then a key somewhere else in the block: two
//! cache misses per step, about 28 for a 64 MiB table. This aid keeps, per restart point, 8
//! bytes of its user key in one contiguous array, so the search runs over `u64`s instead:
//! its first steps always touch the same few cache lines (they stay cached across lookups)
//! and no step decodes a key.
//!
//! The 8 bytes are those right after the prefix all the block's keys share (the common
//! prefix of its first and last restart keys; under the bytewise order every key between
//! them starts with it too), big-endian and padded with zeros, so that the words compare
//! as the keys' bytes there. A word strictly below the target's means that restart key is
//! strictly below the target (whatever follows); strictly above, strictly above. Only words
//! equal to the target's leave the order open: [`RestartPrefixes::narrow`] hands that range
//! (usually empty) back to the ordinary key-comparing search, which therefore gets the same
//! answer it would have found over the whole array.
//!
//! Built only for the bytewise comparator (the words' order is the bytes' order) and only
//! for blocks the table holds (its index block); data blocks come and go through the block
//! cache and are searched in place. The cost is 8 bytes per restart point of the index block
//! (per data block of the table, with the default index restart interval of 1), plus the
//! common prefix.
//!
//! A data block in the block cache gets a small copy of the same aid, [`RunWords`], kept
//! inline in its `Block` (no allocation of its own) at its first cache hit, when it has at
//! most [`RUN_WORDS`] restart points and its common prefix is at most [`RUN_WORDS_COMMON`]
//! bytes: a 4 KiB block of 100-byte values has three. A get's search of a cached data block
//! then chooses its restart run from the block's header, which the block cache starts
//! loading at the lookup together with the restart array (the bucket's prefetch hint,
//! `cache::lru_table`), instead of first loading the restart entries: one dependent cache
//! miss fewer per get.
//!
//! Not part of any file format: nothing of it is written.

use super::cursor::{restart_key, BlockCursor, Layout};
use super::iter::KeyOrder;
use super::Block;
use crate::key::comparator::bytewise_word;
use crate::key::internal_key::user_key;

/// Per restart point of one block, the 8 user-key bytes after the shared prefix.
#[derive(Debug)]
pub(crate) struct RestartPrefixes {
    /// The bytes every user key of the block starts with.
    common: Box<[u8]>,
    /// Restart `i`'s user key bytes `common.len()..common.len() + 8`, as a
    /// [`bytewise_word`](crate::key::comparator::bytewise_word).
    words: Box<[u64]>,
    /// Whether the stored keys are internal keys (a trailer follows the user key) or user
    /// keys: the order the words were taken under.
    internal: bool,
    /// Whether every restart run holds one entry (an index block's default restart interval
    /// of 1): a seek the words decide then lands on a restart entry, see
    /// [`RestartPrefixes::first_at_or_after`].
    single_entry_runs: bool,
}

/// Whether `order` compares user keys bytewise (the case the words stand for), and whether
/// its stored keys carry an internal key trailer.
fn bytewise_keys(order: &KeyOrder) -> Option<bool> {
    match order {
        KeyOrder::Internal(c) if c.is_bytewise() => Some(true),
        KeyOrder::UserKeys(c) if c.is_bytewise() => Some(false),
        _ => None,
    }
}

impl RestartPrefixes {
    /// Builds the aid for `block` read with `layout`; None when the order is not bytewise,
    /// the block has fewer than two restarts (nothing to search), or a restart key does not
    /// decode or, as an internal key, is shorter than its trailer (the block is then
    /// searched the ordinary way, which reports or tolerates such keys as it always did).
    pub(crate) fn build(block: &Block, layout: Layout<'_>) -> Option<RestartPrefixes> {
        let internal = bytewise_keys(layout.order)?;
        let n = block.num_restarts();
        if n < 2 {
            return None;
        }
        let user_at = |i: usize| -> Option<&[u8]> {
            let k = restart_key(block, layout, i)?;
            if internal {
                k.len().checked_sub(8).map(|len| &k[..len])
            } else {
                Some(k)
            }
        };
        let (first, last) = (user_at(0)?, user_at(n - 1)?);
        let shared = first.iter().zip(last).take_while(|(a, b)| a == b).count();
        let mut words = Vec::with_capacity(n);
        for i in 0..n {
            let k = user_at(i)?;
            words.push(bytewise_word(k.get(shared..).unwrap_or(&[])));
        }
        Some(RestartPrefixes {
            common: first[..shared].into(),
            words: words.into_boxed_slice(),
            internal,
            single_entry_runs: entries_up_to(block, layout, n + 1) == Some(n),
        })
    }

    /// For a seek of `target` under `order` in a block whose every restart run holds one
    /// entry: the index of the first entry `>= target` (the number of restarts when every
    /// entry is below it), when the words alone decide it. They do unless a restart's word
    /// equals the target's (or the order is not the aid's, or runs hold several entries):
    /// then None, and the seek searches `narrow`'s range.
    ///
    /// With `lo` the first word not below the target's and that word above it, restart
    /// `lo - 1`'s user key is below the target's and restart `lo`'s above (a strictly smaller
    /// or larger word decides the keys' order, trailers aside), so entry `lo` is the one.
    #[inline]
    pub(crate) fn first_at_or_after(&self, order: &KeyOrder, target: &[u8]) -> Option<usize> {
        if !self.single_entry_runs {
            return None;
        }
        match self.place(order, target)? {
            Placement::BeforeAll => Some(0),
            Placement::AfterAll => Some(self.words.len()),
            Placement::Word(tw) => {
                let lo = partition_point_looking_ahead(&self.words, |w| w < tw);
                (self.words.get(lo) != Some(&tw)).then_some(lo)
            }
        }
    }

    /// Where `target`'s user key stands against the restarts: below them all or above them
    /// all when the common prefix decides it (a key that is a proper prefix of the common
    /// prefix is below), else its word after the prefix. None when `order` is not the one
    /// the aid stands for.
    #[inline]
    fn place(&self, order: &KeyOrder, target: &[u8]) -> Option<Placement> {
        place(&self.common, self.internal, order, target)
    }

    /// The heap bytes the aid takes (for the block's cache charge).
    pub(crate) fn heap_size(&self) -> usize {
        self.common.len() + 8 * self.words.len()
    }

    /// For a seek of `target` (an internal key) under `order`, the range `[left, right]` of
    /// restart indexes that holds the last restart whose key is below the target (or 0 when
    /// none is): everything before `left` is known to be below it, everything after `right`
    /// above. None when `order` is not the one the aid stands for.
    #[inline]
    pub(crate) fn narrow(&self, order: &KeyOrder, target: &[u8]) -> Option<(usize, usize)> {
        narrow(&self.words, self.place(order, target)?)
    }
}

/// Most restart points of a data block that gets [`RunWords`].
pub(crate) const RUN_WORDS: usize = 4;

/// Longest common prefix of a data block that gets [`RunWords`].
pub(crate) const RUN_WORDS_COMMON: usize = 16;

/// The restart prefixes of a data block, inline: at most [`RUN_WORDS`] words and a common
/// prefix of at most [`RUN_WORDS_COMMON`] bytes (see the module docs). Data blocks hold
/// internal keys, so the words are always of user keys before a trailer.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RunWords {
    words: [u64; RUN_WORDS],
    common: [u8; RUN_WORDS_COMMON],
    /// Restart points (words used): at least 2, or 0 for [`Self::NONE`].
    len: u8,
    common_len: u8,
}

impl RunWords {
    /// The aid of a block it does not apply to.
    pub(crate) const NONE: RunWords = RunWords {
        words: [0; RUN_WORDS],
        common: [0; RUN_WORDS_COMMON],
        len: 0,
        common_len: 0,
    };

    /// Whether this is an aid (not [`Self::NONE`]).
    #[inline]
    pub(crate) fn applies(&self) -> bool {
        self.len >= 2
    }

    /// Builds the aid for data block `block` read with `layout`; None where it does not
    /// apply: another order than bytewise internal keys, fewer than two or more than
    /// [`RUN_WORDS`] restarts, a longer common prefix, or a restart key that does not decode
    /// (the block is then searched the ordinary way, which reports it).
    pub(crate) fn build(block: &Block, layout: Layout<'_>) -> Option<RunWords> {
        if !bytewise_keys(layout.order)? || layout.index.is_some() {
            return None;
        }
        let n = block.num_restarts();
        if !(2..=RUN_WORDS).contains(&n) {
            return None;
        }
        // Each restart key decoded once (this runs once for every data block the cache hits).
        let mut keys: [&[u8]; RUN_WORDS] = [&[]; RUN_WORDS];
        for (i, k) in keys.iter_mut().take(n).enumerate() {
            let stored = restart_key(block, layout, i)?;
            *k = &stored[..stored.len().checked_sub(8)?];
        }
        let (first, last) = (keys[0], keys[n - 1]);
        let shared = first.iter().zip(last).take_while(|(a, b)| a == b).count();
        if shared > RUN_WORDS_COMMON {
            return None;
        }
        let mut aid = RunWords {
            words: [0; RUN_WORDS],
            common: [0; RUN_WORDS_COMMON],
            len: n as u8,
            common_len: shared as u8,
        };
        aid.common[..shared].copy_from_slice(&first[..shared]);
        for (w, k) in aid.words.iter_mut().zip(&keys[..n]) {
            *w = bytewise_word(k.get(shared..).unwrap_or(&[]));
        }
        Some(aid)
    }

    /// [`RestartPrefixes::narrow`] for the data block.
    #[inline]
    pub(crate) fn narrow(&self, order: &KeyOrder, target: &[u8]) -> Option<(usize, usize)> {
        let common = &self.common[..usize::from(self.common_len)];
        narrow(
            &self.words[..usize::from(self.len)],
            place(common, true, order, target)?,
        )
    }
}

/// Where `target`'s user key stands against restart keys whose user keys all start with
/// `common` and whose stored keys are internal keys when `internal`: below them all or above
/// them all when the common prefix decides it (a key that is a proper prefix of the common
/// prefix is below), else its word after the prefix. None when `order` is not the one the
/// words were taken under.
#[inline]
fn place(common: &[u8], internal: bool, order: &KeyOrder, target: &[u8]) -> Option<Placement> {
    if bytewise_keys(order)? != internal {
        return None;
    }
    let t = user_key(target);
    let l = common.len();
    let head = &t[..l.min(t.len())];
    Some(match head.cmp(&common[..head.len()]) {
        std::cmp::Ordering::Less => Placement::BeforeAll,
        std::cmp::Ordering::Greater => Placement::AfterAll,
        std::cmp::Ordering::Equal if t.len() < l => Placement::BeforeAll,
        std::cmp::Ordering::Equal => Placement::Word(bytewise_word(&t[l..])),
    })
}

/// The range `[left, right]` of restart indexes that holds the last restart whose key is
/// below a target placed at `at` among restarts with `words` (or 0 when none is); None when
/// there are no words.
#[inline]
fn narrow(words: &[u64], at: Placement) -> Option<(usize, usize)> {
    let last = words.len().checked_sub(1)?;
    let tw = match at {
        Placement::BeforeAll => return Some((0, 0)),
        Placement::AfterAll => return Some((last, last)),
        Placement::Word(tw) => tw,
    };
    let lo = partition_point_looking_ahead(words, |w| w < tw);
    let hi = lo + end_of_equal_words(&words[lo..], tw);
    let left = lo.saturating_sub(1);
    Some((left, hi.saturating_sub(1).max(left)))
}

/// A seek target's place among a block's restart keys (`RestartPrefixes::place`).
enum Placement {
    BeforeAll,
    AfterAll,
    /// The 8 bytes of the target's user key after the common prefix, as a word.
    Word(u64),
}

/// How many entries `block` holds, counting up to `cap`; None when they do not decode.
fn entries_up_to(block: &Block, layout: Layout<'_>, cap: usize) -> Option<usize> {
    let mut c = BlockCursor::new(block);
    c.seek_to_restart(block, 0);
    let mut n = 0;
    while n < cap && c.parse_next(block, layout) {
        n += 1;
    }
    c.status().ok().map(|()| n)
}

/// How many words at the start of `words` (which are `>= tw`, ascending) equal `tw`: a few
/// steps forward, as restart keys rarely share their word, else a binary search of the rest.
#[inline]
fn end_of_equal_words(words: &[u64], tw: u64) -> usize {
    const SCANNED: usize = 4;
    match words.iter().take(SCANNED).position(|&w| w != tw) {
        Some(n) => n,
        None if words.len() <= SCANNED => words.len(),
        None => SCANNED + partition_point_looking_ahead(&words[SCANNED..], |w| w <= tw),
    }
}

/// `words.partition_point(pred)` (`pred` true on a prefix of `words`), a binary search that
/// loads both midpoints the next step may compare while it compares this step's, so that on
/// a large index the cache misses of consecutive steps overlap instead of queueing.
#[inline]
fn partition_point_looking_ahead(words: &[u64], pred: impl Fn(u64) -> bool) -> usize {
    let (mut base, mut size) = (0usize, words.len());
    while size > 1 {
        let half = size / 2;
        let next_half = (size - half) / 2;
        // Both lie inside `base..base + size`: next_half <= half and half + next_half < size.
        if let (Some(&a), Some(&b)) = (
            words.get(base + next_half),
            words.get(base + half + next_half),
        ) {
            std::hint::black_box((a, b));
        }
        let mid = base + half;
        // Written as a select, which the compiler makes a conditional move (checked in
        // the release build's code); a branch would be mispredicted half the time.
        base = if words.get(mid).is_some_and(|&w| pred(w)) {
            mid
        } else {
            base
        };
        size -= half;
    }
    base + usize::from(words.get(base).is_some_and(|&w| pred(w)))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::sync::Arc;

    use proptest::prelude::*;

    use super::*;
    use crate::key::{
        append_internal_key, pack_seq_and_type, BytewiseComparator, InternalKeyComparator,
        ValueType, VALUE_TYPE_FOR_SEEK,
    };
    use crate::sst::block::cursor::BlockCursor;
    use crate::sst::block::BlockBuilder;

    #[test]
    fn the_end_of_equal_words_is_the_partition_point_of_not_above() {
        for len in 0..=20usize {
            for equal in 0..=len {
                // `equal` words of 7, then larger ones.
                let words: Vec<u64> = (0..len)
                    .map(|i| if i < equal { 7 } else { 8 + i as u64 })
                    .collect();
                assert_eq!(
                    end_of_equal_words(&words, 7),
                    words.partition_point(|&w| w <= 7),
                    "len {len}, equal {equal}"
                );
            }
        }
    }

    #[test]
    fn the_look_ahead_search_matches_partition_point_at_every_small_length() {
        for len in 0..=64u64 {
            let words: Vec<u64> = (0..len).map(|i| 2 * i).collect();
            for t in 0..=2 * len + 1 {
                assert_eq!(
                    partition_point_looking_ahead(&words, |w| w < t),
                    words.partition_point(|&w| w < t),
                    "len {len}, target {t}"
                );
            }
        }
    }

    proptest! {
        #[test]
        fn the_look_ahead_search_lands_where_partition_point_does(
            mut words in prop::collection::vec(0u64..40, 0..300),
            t in 0u64..45,
        ) {
            words.sort_unstable();
            prop_assert_eq!(
                partition_point_looking_ahead(&words, |w| w < t),
                words.partition_point(|&w| w < t)
            );
            prop_assert_eq!(
                partition_point_looking_ahead(&words, |w| w <= t),
                words.partition_point(|&w| w <= t)
            );
        }
    }

    fn bytewise() -> InternalKeyComparator {
        InternalKeyComparator::new(Arc::new(BytewiseComparator))
    }

    fn target(uk: &[u8], seq: u64) -> Vec<u8> {
        let mut t = uk.to_vec();
        t.extend_from_slice(&pack_seq_and_type(seq, VALUE_TYPE_FOR_SEEK).to_le_bytes());
        t
    }

    /// Two copies of one block, the second with restart prefixes for `order`.
    fn plain_and_aided(bytes: Vec<u8>, order: &KeyOrder) -> (Block, Block) {
        let plain = Block::new(bytes.clone()).expect("built block parses");
        let mut aided = Block::new(bytes).expect("built block parses");
        let layout = Layout {
            order,
            index: None,
            global_seqno: None,
        };
        aided.prefixes = RestartPrefixes::build(&aided, layout).map(Box::new);
        (plain, aided)
    }

    /// A block of two internal keys (sequences 9 and 4) per user key `head ++ tail`, with
    /// restart interval `interval`, and its user keys.
    fn internal_block(
        head: &[u8],
        tails: &BTreeSet<Vec<u8>>,
        interval: usize,
    ) -> (Vec<u8>, Vec<Vec<u8>>) {
        let mut b = BlockBuilder::new(interval);
        let mut users = Vec::new();
        for tail in tails {
            let uk = [head, tail].concat();
            for seq in [9u64, 4] {
                let mut k = Vec::new();
                append_internal_key(&mut k, &uk, seq, ValueType::Value);
                b.add(&k, format!("{seq}").as_bytes());
            }
            users.push(uk);
        }
        (b.finish(), users)
    }

    /// Seek targets (user key, sequence): the probes, the probes after the block's head, and
    /// every user key at sequences above, between and below its entries'.
    fn seek_targets(
        head: &[u8],
        users: &[Vec<u8>],
        probes: Vec<(Vec<u8>, u64)>,
    ) -> Vec<(Vec<u8>, u64)> {
        let heads: Vec<_> = probes
            .iter()
            .map(|(p, s)| ([head, p].concat(), *s))
            .collect();
        let every = users
            .iter()
            .flat_map(|u| [(u.clone(), 12), (u.clone(), 6), (u.clone(), 1)]);
        probes.into_iter().chain(heads).chain(every).collect()
    }

    /// Checks that a seek of each target in `aided` (a point lookup's `seek_for_get` when
    /// `for_get`) lands on the entry the plain seek of `plain` lands on.
    fn same_seeks(
        plain: &Block,
        aided: &Block,
        order: &KeyOrder,
        targets: &[(Vec<u8>, u64)],
        for_get: bool,
    ) -> Result<(), TestCaseError> {
        let layout = Layout {
            order,
            index: None,
            global_seqno: None,
        };
        for (uk, seq) in targets {
            let t = target(uk, *seq);
            let mut a = BlockCursor::new(plain);
            a.seek(plain, layout, &t);
            let mut b = BlockCursor::new(aided);
            if for_get {
                b.seek_for_get(aided, layout, &t);
            } else {
                b.seek(aided, layout, &t);
            }
            prop_assert!(b.status().is_ok());
            prop_assert_eq!(a.valid(), b.valid(), "target {:?}", uk);
            if a.valid() {
                prop_assert_eq!(a.key(), b.key());
            }
        }
        Ok(())
    }

    /// Keys of a few bytes around a common head, with zero bytes and lengths on both sides
    /// of the 8 bytes a word holds.
    fn keys() -> impl Strategy<Value = (Vec<u8>, BTreeSet<Vec<u8>>)> {
        (
            proptest::collection::vec(prop_oneof![Just(0u8), Just(7u8), Just(255u8)], 0..4),
            proptest::collection::btree_set(
                proptest::collection::vec(prop_oneof![Just(0u8), Just(1u8), Just(255u8)], 0..12),
                2..80,
            ),
        )
    }

    fn probe() -> impl Strategy<Value = (Vec<u8>, u64)> {
        (
            proptest::collection::vec(
                prop_oneof![Just(0u8), Just(1u8), Just(7u8), Just(255u8)],
                0..14,
            ),
            0u64..12,
        )
    }

    proptest! {
        /// A seek over internal keys lands where the plain binary search lands, for targets
        /// inside, around and outside the block's common prefix.
        #[test]
        fn an_aided_seek_agrees_with_the_plain_one(
            (head, tails) in keys(),
            probes in proptest::collection::vec(probe(), 1..40),
            interval in 1usize..4,
        ) {
            let (bytes, users) = internal_block(&head, &tails, interval);
            let order = KeyOrder::Internal(bytewise());
            let (plain, aided) = plain_and_aided(bytes, &order);
            prop_assert!(aided.restart_prefixes().is_some());
            same_seeks(&plain, &aided, &order, &seek_targets(&head, &users, probes), false)?;
        }

        /// A data block's inline run words choose the run the plain search chooses: a seek
        /// lands on the same entry, for targets inside, around and outside the common prefix.
        #[test]
        fn a_seek_with_run_words_agrees_with_the_plain_one(
            (head, tails) in (
                proptest::collection::vec(prop_oneof![Just(0u8), Just(7u8), Just(255u8)], 0..4),
                proptest::collection::btree_set(
                    proptest::collection::vec(prop_oneof![Just(0u8), Just(1u8), Just(255u8)], 0..12),
                    2..12,
                ),
            ),
            probes in proptest::collection::vec(probe(), 1..40),
            runs in 2usize..=RUN_WORDS,
        ) {
            // Two entries per user key; an interval that makes `runs` restarts or fewer.
            let (bytes, users) = internal_block(&head, &tails, (2 * tails.len()).div_ceil(runs));
            let order = KeyOrder::Internal(bytewise());
            let plain = Block::new(bytes.clone()).expect("built block parses");
            let aided = Block::new(bytes).expect("built block parses").with_run_words(&order, None);
            prop_assert_eq!(aided.run_words().is_some(), plain.num_restarts() >= 2);
            same_seeks(&plain, &aided, &order, &seek_targets(&head, &users, probes), true)?;
        }

        /// The same over user keys (index blocks with `index_key_is_user_key`).
        #[test]
        fn an_aided_seek_over_user_keys_agrees_with_the_plain_one(
            (head, tails) in keys(),
            probes in proptest::collection::vec(probe(), 1..40),
        ) {
            let mut b = BlockBuilder::new(1);
            for tail in &tails {
                b.add(&[head.as_slice(), tail].concat(), b"v");
            }
            let order = KeyOrder::UserKeys(bytewise());
            let (plain, aided) = plain_and_aided(b.finish(), &order);
            prop_assert!(aided.restart_prefixes().is_some());
            let layout = Layout { order: &order, index: None, global_seqno: None };
            let every = tails.iter().map(|t| ([head.as_slice(), t].concat(), 3));
            for (uk, seq) in probes.into_iter().chain(every) {
                let t = target(&uk, seq);
                let mut a = BlockCursor::new(&plain);
                a.seek(&plain, layout, &t);
                let mut b = BlockCursor::new(&aided);
                b.seek(&aided, layout, &t);
                prop_assert_eq!(a.valid(), b.valid(), "target {:?}", uk);
                if a.valid() {
                    prop_assert_eq!(a.key(), b.key());
                }
            }
        }
    }

    #[test]
    fn words_order_as_bytes_up_to_zero_padding() {
        assert!(bytewise_word(b"a") < bytewise_word(b"b"));
        assert!(bytewise_word(b"ab") > bytewise_word(b"a"));
        assert_eq!(
            bytewise_word(b"a"),
            bytewise_word(b"a\0"),
            "zero padding leaves these to the key search"
        );
        assert_eq!(
            bytewise_word(b"abcdefgh"),
            bytewise_word(b"abcdefghZ"),
            "only 8 bytes count"
        );
        assert!(bytewise_word(&[0xff]) > bytewise_word(&[0x7f, 0xff, 0xff]));
    }

    #[test]
    fn run_words_need_few_restarts_and_a_short_common_prefix() {
        let order = KeyOrder::Internal(bytewise());
        let block = |interval: usize, head: &[u8], n: u8| {
            let mut b = BlockBuilder::new(interval);
            for i in 0..n {
                let mut k = Vec::new();
                append_internal_key(&mut k, &[head, &[i]].concat(), 1, ValueType::Value);
                b.add(&k, b"v");
            }
            Block::new(b.finish()).expect("built block parses")
        };
        let words = |b: Block| b.with_run_words(&order, None).run_words().is_some();
        assert!(
            words(block(4, b"0123456789abcdef", 16)),
            "4 restarts, 16 common bytes"
        );
        assert!(!words(block(3, b"k", 16)), "6 restarts");
        assert!(!words(block(16, b"k", 16)), "1 restart: nothing to choose");
        assert!(
            !words(block(8, b"0123456789abcdefg", 16)),
            "17 common bytes"
        );
        let user_keys = KeyOrder::UserKeys(bytewise());
        let b = block(8, b"k", 16).with_run_words(&user_keys, None);
        assert!(b.run_words().is_none(), "data blocks hold internal keys");
    }

    #[test]
    fn other_comparators_and_single_restarts_get_none() {
        let mut b = BlockBuilder::new(1);
        b.add(b"a", b"1");
        b.add(b"b", b"2");
        let bytes = b.finish();
        let block = Block::new(bytes.clone()).expect("parses");
        let raw = Layout {
            order: &KeyOrder::Bytewise,
            index: None,
            global_seqno: None,
        };
        assert!(
            RestartPrefixes::build(&block, raw).is_none(),
            "metaindex order"
        );
        let mut one = BlockBuilder::new(16);
        one.add(b"a", b"1");
        one.add(b"b", b"2");
        let one = Block::new(one.finish()).expect("parses");
        let users = KeyOrder::UserKeys(bytewise());
        let layout = Layout {
            order: &users,
            index: None,
            global_seqno: None,
        };
        assert!(
            RestartPrefixes::build(&one, layout).is_none(),
            "one restart"
        );
        let p = RestartPrefixes::build(&block, layout).expect("two restarts");
        assert_eq!(p.words.len(), 2);
        assert_eq!(p.heap_size(), 16, "no common prefix, two words");
        let t = [b"a".as_slice(), &[0u8; 8]].concat();
        assert!(
            p.narrow(&users, &t).is_some(),
            "the order it was built under"
        );
        let internal = KeyOrder::Internal(bytewise());
        assert!(
            p.narrow(&internal, &t).is_none(),
            "user-key words mean nothing there"
        );
    }

    /// A seek jumps straight to a restart entry only when every run holds one entry and the
    /// words decide; an equal word, or runs of two, leave it to the ordinary search.
    #[test]
    fn only_single_entry_runs_let_the_words_decide_a_seek() {
        let users = KeyOrder::UserKeys(bytewise());
        let layout = Layout {
            order: &users,
            index: None,
            global_seqno: None,
        };
        let build = |interval: usize| {
            let mut b = BlockBuilder::new(interval);
            for k in ["k100", "k200", "k300", "k400"] {
                b.add(k.as_bytes(), b"v");
            }
            let block = Block::new(b.finish()).expect("parses");
            RestartPrefixes::build(&block, layout).expect("several restarts")
        };
        let single = build(1);
        let t = |uk: &str| target(uk.as_bytes(), 5);
        assert_eq!(single.first_at_or_after(&users, &t("k150")), Some(1));
        assert_eq!(single.first_at_or_after(&users, &t("k0")), Some(0));
        assert_eq!(
            single.first_at_or_after(&users, &t("k9")),
            Some(4),
            "past the end"
        );
        assert_eq!(
            single.first_at_or_after(&users, &t("j")),
            Some(0),
            "below the head"
        );
        assert_eq!(
            single.first_at_or_after(&users, &t("k200")),
            None,
            "equal word"
        );
        let internal = KeyOrder::Internal(bytewise());
        assert_eq!(single.first_at_or_after(&internal, &t("k150")), None);
        assert_eq!(build(2).first_at_or_after(&users, &t("k150")), None);
    }
}
