// SPDX-License-Identifier: Apache-2.0
//! The memtable's storage: an append-only arena of 64-bit words that one writer fills and any
//! number of readers read at the same time, without locks and without unsafe code of its own
//! (large blocks come from `util::huge_pages`, which has the one `unsafe` it takes).
//!
//! # Design
//!
//! Words are `AtomicU64`s in blocks. The writer (serialized by the skiplist's writer mutex)
//! takes words from the end of the current block and writes them with relaxed stores; it
//! then publishes the node they form with a release store of a link, and a reader that
//! loads that link with acquire ordering sees every word written before it. Nothing is ever
//! freed or rewritten except the links, so a reader can never see a word change under it
//! (links aside, which are atomic by design).
//!
//! A word is addressed by a [`WordRef`]: the block number in the high 32 bits and the offset
//! in the block in the low 32 bits. 0 is the null reference (offset 0 of block 0 is never
//! handed out). Blocks start small, so that an idle memtable (one per column family) costs a
//! few KiB, and double up to [`MAX_BLOCK_WORDS`] (2 MiB, one huge page); after every
//! [`BLOCKS_PER_DOUBLING`] standard blocks the size doubles again, [`MAX_DOUBLINGS`] times at
//! most (8 MiB blocks), so the directory below (131,072 blocks) runs out only past some
//! 16 GiB of entries, whatever their sizes (the worst case: every block a large node just
//! over 128 KiB). A node larger than [`LARGE_NODE_WORDS`] (128 KiB)
//! gets a block of its own size; it takes a directory slot but does not count towards the
//! doublings.
//!
//! Blocks of whole huge pages (a node stream's standard blocks from the 2 MiB one on, so
//! every node past the first 2 MiB of them) are mappings advised for transparent huge pages
//! (`util::huge_pages`): an insert or a get visits a few dozen nodes spread over the
//! memtable, and with 4 KiB pages each visit was a TLB miss as well as a cache miss. With
//! 2 MiB pages, the driver's fillrandom (1M keys, 4 runs, median) went from 130k to 136k
//! puts/s and from 8.7 to 8.2 µs of CPU per put. A mapped block is backed 2 MiB at a time as
//! the writer reaches it, so a memtable's resident memory can exceed its used words by up to
//! 2 MiB. A value stream's ramp ends at 512 KiB blocks without huge pages
//! (`MAX_VALUE_BLOCK_WORDS`; the slow doublings take them to 2 MiB, advised, only past
//! 1.5 GiB of values): with huge pages for values too, fillrandom's and overwrite's peak RSS
//! rose 5 and 11 MB over RocksDB's (full-7), for reads that touch a value once.
//!
//! Blocks of 64 KiB and more that are not whole huge pages are plain mappings of their own
//! (`util::huge_pages`), not heap buffers: their pages become resident as the writer reaches
//! them, and a dropped memtable gives them back to the kernel at once. From the heap, the
//! allocator kept freed blocks for reuse (its threshold for mapping an allocation rises to
//! the largest one freed), and Kahuna's large load peaked 13 MB higher.
//!
//! The unused tail of a block (a node that did not fit) is the only waste; the writer counts
//! it (`ArenaWriter::take_wasted`), so that the memtable's reported usage includes it.
//!
//! Blocks live in a two-level directory of `OnceLock`s (a block is created once, by the
//! writer, before any reference into it is published), so reading a word costs two
//! `OnceLock` loads and one bounds-checked index. Heap blocks (below 64 KiB) are zero-filled
//! when allocated; mapped ones are zeroed by the kernel page by page as the writer first
//! touches them.
//!
//! The alternative, a `Vec` per entry (what the crossbeam skiplist stored before), cost two
//! heap allocations per insert, a pointer chase per key comparison and about 70 bytes of
//! overhead per entry; freeing a flushed memtable freed every entry one by one.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::OnceLock;

use crate::error::{Error, Result};
use crate::util::huge_pages::{ZeroedWords, HUGE_PAGE_BYTES};

/// A word's address: `(block << 32) | offset`. 0 is null.
pub(super) type WordRef = u64;

/// The first block's size in words (8 KiB).
const FIRST_BLOCK_WORDS: usize = 1 << 10;
/// Blocks double up to this size (2 MiB: one huge page)...
const MAX_BLOCK_WORDS: usize = HUGE_PAGE_BYTES / 8;
/// ...and then double again after every this many standard blocks...
const BLOCKS_PER_DOUBLING: u32 = 1024;
/// ...this many times at most (8 MiB blocks).
const MAX_DOUBLINGS: u32 = 2;
/// A stream of values ([`ArenaWriter::for_values`]) ramps up to this size only (512 KiB;
/// the slow doublings still apply), without huge pages: values are read once per hit, so
/// huge pages buy them little, and a huge page is resident whole as soon as it is touched.
const MAX_VALUE_BLOCK_WORDS: usize = 1 << 16;
/// A node of more words than this (128 KiB) gets a block of its own.
const LARGE_NODE_WORDS: usize = 1 << 14;
/// Directory fan-out: `PAGES` pages of `PAGE_BLOCKS` blocks (a page is allocated when its
/// first block is).
const PAGE_BLOCKS: usize = 256;
const PAGES: usize = 512;

type Block = ZeroedWords;
type Page = Box<[OnceLock<Block>]>;

fn new_block(words: usize) -> Block {
    ZeroedWords::new(words)
}

/// The size of the `b`-th standard block (large nodes' blocks not counted) of a stream whose
/// ramp ends at `max` words, in words.
fn standard_block_words(b: u32, max: usize) -> usize {
    let ramp_steps = max.trailing_zeros() - FIRST_BLOCK_WORDS.trailing_zeros();
    let ramp = if b >= ramp_steps {
        max
    } else {
        FIRST_BLOCK_WORDS << b
    };
    let doublings = (b / BLOCKS_PER_DOUBLING).min(MAX_DOUBLINGS);
    ramp << doublings
}

/// The word storage. See the module docs.
pub(super) struct Arena {
    pages: Box<[OnceLock<Page>]>,
    /// The next block number to create, shared by every writer stream of the arena (only the
    /// one writer, under the skiplist's writer mutex, takes numbers).
    next_block: AtomicU32,
}

/// A writer stream's position: the block being filled. Owned by the skiplist's writer state;
/// one arena can have several streams (the skiplist keeps nodes and values apart), each with
/// its own blocks.
#[derive(Debug, Default)]
pub(super) struct ArenaWriter {
    /// The block being filled, if any.
    block: Option<u32>,
    /// Words used and available in it.
    used: usize,
    cap: usize,
    /// Standard blocks created so far (their sizes grow with it).
    standard_blocks: u32,
    /// Words left unused at the ends of abandoned blocks, not yet reported.
    wasted: usize,
    /// A value stream: smaller blocks, without huge pages until past 1.5 GiB of values
    /// (`MAX_VALUE_BLOCK_WORDS`).
    values: bool,
}

impl ArenaWriter {
    /// A stream for values (see `MAX_VALUE_BLOCK_WORDS`); `default()` is one for nodes.
    pub(super) fn for_values() -> Self {
        ArenaWriter {
            values: true,
            ..ArenaWriter::default()
        }
    }

    fn max_block_words(&self) -> usize {
        if self.values {
            MAX_VALUE_BLOCK_WORDS
        } else {
            MAX_BLOCK_WORDS
        }
    }

    /// The words wasted at block ends since the last call.
    pub(super) fn take_wasted(&mut self) -> usize {
        std::mem::take(&mut self.wasted)
    }
}

impl Arena {
    pub(super) fn new() -> Self {
        Arena {
            pages: (0..PAGES).map(|_| OnceLock::new()).collect(),
            next_block: AtomicU32::new(0),
        }
    }

    /// The block numbered `b`, if it was created.
    #[inline]
    pub(super) fn block(&self, b: u32) -> Option<&[AtomicU64]> {
        let b = b as usize;
        let page = self.pages.get(b / PAGE_BLOCKS)?.get()?;
        page.get(b % PAGE_BLOCKS)?.get().map(|blk| &blk[..])
    }

    /// The block and offset `r` points into (an empty slice for a reference that does not
    /// exist, which readers treat as zeros).
    #[inline]
    pub(super) fn locate(&self, r: WordRef) -> (&[AtomicU64], usize) {
        let block = self.block((r >> 32) as u32).unwrap_or(&[]);
        (block, (r & 0xffff_ffff) as usize)
    }

    /// Creates block `b` of `words` words. Only the writer calls this, once per block.
    fn create_block(&self, b: u32, words: usize) -> Result<&[AtomicU64]> {
        let full = || Error::aborted("memtable arena is full");
        let b = b as usize;
        let page = self
            .pages
            .get(b / PAGE_BLOCKS)
            .ok_or_else(full)?
            .get_or_init(|| (0..PAGE_BLOCKS).map(|_| OnceLock::new()).collect());
        let slot = page.get(b % PAGE_BLOCKS).ok_or_else(full)?;
        Ok(&slot.get_or_init(|| new_block(words))[..])
    }

    /// Reserves `n` contiguous words for the writer; returns their reference and the block
    /// they are in (the words are `block[offset..offset + n]`).
    ///
    /// # Errors
    /// Aborted when the directory is full (some 2^37 words: memory runs out first) or `n`
    /// cannot be addressed.
    pub(super) fn alloc<'a>(
        &'a self,
        w: &mut ArenaWriter,
        n: usize,
    ) -> Result<(WordRef, &'a [AtomicU64])> {
        if let Some(b) = w.block {
            if w.cap - w.used >= n {
                let off = w.used;
                w.used += n;
                let block = self.block(b).unwrap_or(&[]);
                return Ok((u64::from(b) << 32 | off as u64, block));
            }
        }
        let b = self.next_block.load(Ordering::Relaxed);
        let next = b
            .checked_add(1)
            .ok_or_else(|| Error::aborted("memtable arena is full"))?;
        self.next_block.store(next, Ordering::Relaxed);
        // Offset 0 of block 0 is the null reference: never hand it out.
        let off = usize::from(b == 0);
        // A large node gets a block of its own, and the current block goes on serving the
        // small ones; otherwise the new standard block becomes the current one.
        let large = n > LARGE_NODE_WORDS;
        let words = if large {
            off + n
        } else {
            standard_block_words(w.standard_blocks, w.max_block_words()).max(off + n)
        };
        if u32::try_from(words).is_err() {
            return Err(Error::aborted("memtable entry too large"));
        }
        let block = self.create_block(b, words)?;
        if !large {
            if w.block.is_some() {
                w.wasted += w.cap - w.used;
            }
            w.standard_blocks = w.standard_blocks.saturating_add(1);
            w.block = Some(b);
            w.cap = words;
            w.used = off + n;
        }
        Ok((u64::from(b) << 32 | off as u64, block))
    }
}

/// Reads word `i` of `block` (0 when out of range: never for a published node).
#[inline]
pub(super) fn load(block: &[AtomicU64], i: usize) -> u64 {
    block.get(i).map_or(0, |w| w.load(Ordering::Relaxed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_are_distinct_and_non_null() {
        let a = Arena::new();
        let mut w = ArenaWriter::default();
        let mut seen = std::collections::HashSet::new();
        for n in [1usize, 3, 1000, 5000, 70_000, 2, 2] {
            let (r, block) = a.alloc(&mut w, n).expect("alloc");
            assert_ne!(r, 0);
            let off = (r & 0xffff_ffff) as usize;
            assert!(off + n <= block.len());
            for i in 0..n {
                block[off + i].store((r << 20) + i as u64, Ordering::Relaxed);
            }
            assert!(seen.insert(r));
        }
        // Words written are read back through the reference.
        let (r, block) = a.alloc(&mut w, 4).expect("alloc");
        block[(r & 0xffff_ffff) as usize + 3].store(99, Ordering::Relaxed);
        let (blk, off) = a.locate(r);
        assert_eq!(load(blk, off + 3), 99);
    }

    #[test]
    fn two_streams_fill_blocks_of_their_own() {
        let a = Arena::new();
        let (mut nodes, mut values) = (ArenaWriter::default(), ArenaWriter::default());
        let (n1, _) = a.alloc(&mut nodes, 5).expect("alloc");
        let (v1, _) = a.alloc(&mut values, 13).expect("alloc");
        let (n2, _) = a.alloc(&mut nodes, 5).expect("alloc");
        let (v2, _) = a.alloc(&mut values, 13).expect("alloc");
        assert_ne!(n1 >> 32, v1 >> 32, "each stream has its own block");
        assert_eq!(n1 >> 32, n2 >> 32);
        assert_eq!(v1 >> 32, v2 >> 32);
        assert_eq!(n2 - n1, 5, "a stream's words are contiguous");
        assert_eq!(v2 - v1, 13);
    }

    #[test]
    fn a_large_node_does_not_waste_the_current_block() {
        let a = Arena::new();
        let mut w = ArenaWriter::default();
        let (r1, _) = a.alloc(&mut w, 10).expect("alloc");
        let (big, _) = a.alloc(&mut w, 200_000).expect("alloc");
        let (r2, _) = a.alloc(&mut w, 10).expect("alloc");
        assert_eq!(r1 >> 32, r2 >> 32, "small nodes go on in the first block");
        assert_ne!(big >> 32, r1 >> 32);
    }

    #[test]
    fn block_sizes_ramp_up_then_double_slowly() {
        let m = MAX_BLOCK_WORDS;
        assert_eq!(standard_block_words(0, m), FIRST_BLOCK_WORDS);
        assert_eq!(standard_block_words(1, m), 2 * FIRST_BLOCK_WORDS);
        assert_eq!(standard_block_words(8, m), m);
        assert_eq!(standard_block_words(7, m), m / 2);
        assert_eq!(standard_block_words(500, m), m);
        assert_eq!(standard_block_words(BLOCKS_PER_DOUBLING, m), 2 * m);
        assert_eq!(standard_block_words(60, m), m, "no shift overflow");
        assert_eq!(standard_block_words(u32::MAX, m), m << MAX_DOUBLINGS);
        let v = MAX_VALUE_BLOCK_WORDS;
        assert_eq!(standard_block_words(6, v), v);
        assert_eq!(standard_block_words(500, v), v);
        assert!(a_page_count_covers_the_offsets());
    }

    #[test]
    fn large_nodes_neither_speed_up_the_doubling_nor_fill_the_directory() {
        let a = Arena::new();
        let mut w = ArenaWriter::default();
        // More large nodes than the old directory had slots (16,384), each in its own block.
        let big = LARGE_NODE_WORDS + 1;
        for _ in 0..20_000 {
            a.alloc(&mut w, big).expect("a large node");
        }
        assert_eq!(w.standard_blocks, 0);
        let (_, block) = a.alloc(&mut w, 4).expect("alloc");
        assert_eq!(
            block.len(),
            FIRST_BLOCK_WORDS,
            "the first standard block is small"
        );
    }

    #[test]
    fn abandoned_block_tails_are_counted() {
        let a = Arena::new();
        let mut w = ArenaWriter::default();
        a.alloc(&mut w, FIRST_BLOCK_WORDS - 10).expect("alloc");
        assert_eq!(w.take_wasted(), 0);
        // 20 words do not fit in the 9 left (offset 0 is never handed out): a new block.
        a.alloc(&mut w, 20).expect("alloc");
        assert_eq!(w.take_wasted(), 9);
        assert_eq!(w.take_wasted(), 0);
    }

    fn a_page_count_covers_the_offsets() -> bool {
        // Every block number the directory can hold has a size addressable by 32 bits.
        let last = u32::try_from(PAGES * PAGE_BLOCKS - 1).expect("fits");
        standard_block_words(last, MAX_BLOCK_WORDS) <= u32::MAX as usize
    }
}
