// SPDX-License-Identifier: Apache-2.0
//! Blocks: the unit a table is read and written in. [`builder::BlockBuilder`] makes them (write
//! path); [`Block`] parses one and [`iter::BlockIter`] is its cursor (read path), built on the
//! borrowed-block decoding core in `cursor` that point lookups use directly.
//!
//! Reading the footer of a block (`block.cc`, `data_block_footer.cc`): the last fixed32 holds
//! `num_restarts` in its low 31 bits and the data-block index type in bit 31, except for blocks
//! larger than 64 KiB, where all 32 bits are `num_restarts`. With the hash index type
//! (`kDataBlockBinaryAndHash`), `buckets:u8[n] n:fixed16` sit between the restart array and the
//! footer; point lookups use them ([`Block::hash_restart`]), everything else binary-searches.
//! A block a table holds for its life (the index block) may also carry `restart_prefixes`,
//! an in-memory aid to that binary search (not part of the format), and a data block in the
//! block cache a small inline copy of it (`RunWords`), made at its first cache hit.

pub mod builder;
pub(crate) mod cursor;
pub mod iter;
pub mod key_buf;
pub(crate) mod restart_prefixes;

pub use builder::BlockBuilder;
pub use iter::{BlockIter, IndexFormat, KeyOrder};
use restart_prefixes::{RestartPrefixes, RunWords};

use std::sync::OnceLock;

use crate::error::{Error, Result};
use crate::util::coding::decode_fixed32;
use crate::util::prefetch::prefetch_byte;

/// Most restart entries [`Block::prefetch_restart_entries`] asks for.
const MAX_PREFETCHED_RESTARTS: usize = 16;

/// Most bytes of a restart run [`Block::prefetch_run`] asks for (a run of large values is
/// mostly values, which a lookup's scan skips).
const MAX_PREFETCHED_RUN: usize = 2048;

/// Largest block for which bit 31 of the footer is the index type.
const MAX_BLOCK_SIZE_WITH_INDEX_TYPE: usize = 1 << 16;

/// A parsed (uncompressed) block.
#[derive(Debug)]
pub struct Block {
    data: Vec<u8>,
    /// Offset of the restart array; entries live in `data[..restart_offset]`.
    restart_offset: usize,
    num_restarts: usize,
    /// The hash index's buckets: offset and count (0: the block has none).
    buckets: (usize, usize),
    /// The seek aid of a block its table holds open (see `restart_prefixes`).
    prefixes: Option<Box<RestartPrefixes>>,
    /// The inline seek aid of a data block (see `restart_prefixes`), once made
    /// ([`RunWords::NONE`] where it does not apply).
    run_words: OnceLock<RunWords>,
}

impl Block {
    /// Parses the block trailer part of `data`.
    ///
    /// # Errors
    /// Corruption when the restart array does not fit.
    pub fn new(data: Vec<u8>) -> Result<Block> {
        let bad = || Error::corruption("bad block contents");
        let n = data.len();
        if n < 4 {
            return Err(bad());
        }
        let footer = decode_fixed32(&data[n - 4..]);
        let (hash_index, num_restarts) = if n > MAX_BLOCK_SIZE_WITH_INDEX_TYPE {
            (false, footer as usize)
        } else {
            (footer >> 31 == 1, (footer & 0x7fff_ffff) as usize)
        };
        let (array_end, buckets) = if hash_index {
            if n < 6 {
                return Err(bad());
            }
            let count = usize::from(u16::from_le_bytes([data[n - 6], data[n - 5]]));
            let at = (n - 6).checked_sub(count).ok_or_else(bad)?;
            (at, (at, count))
        } else {
            (n - 4, (0, 0))
        };
        let restart_offset = num_restarts
            .checked_mul(4)
            .and_then(|len| array_end.checked_sub(len))
            .ok_or_else(bad)?;
        Ok(Block {
            data,
            restart_offset,
            num_restarts,
            buckets,
            prefixes: None,
            run_words: OnceLock::new(),
        })
    }

    /// The block with restart prefixes for seeks under `order` (see `restart_prefixes`):
    /// for a block that stays in memory as long as its table, its index block. Unchanged
    /// where they do not apply (another comparator, a single restart).
    pub(crate) fn with_restart_prefixes(mut self, order: &KeyOrder, index: IndexFormat) -> Block {
        let layout = cursor::Layout {
            order,
            index: Some(index),
            global_seqno: None,
        };
        self.prefixes = RestartPrefixes::build(&self, layout).map(Box::new);
        self
    }

    /// The data block with its inline restart words for seeks under `order` made.
    #[cfg(test)]
    pub(crate) fn with_run_words(self, order: &KeyOrder, global_seqno: Option<u64>) -> Block {
        self.make_run_words(order, global_seqno);
        self
    }

    /// Makes the data block's inline restart words for seeks under `order` (see
    /// `restart_prefixes`), unless they were made: where they apply (bytewise internal keys,
    /// 2 to `restart_prefixes::RUN_WORDS` restarts, a short common prefix), later seeks use
    /// them. The block cache's reader calls it at a hit, not when it reads the block: a block
    /// read for one get and evicted before the next (a cache much smaller than the data) does
    /// not pay for them (about 55 ns a block, 3% of such a get).
    pub(crate) fn make_run_words(&self, order: &KeyOrder, global_seqno: Option<u64>) {
        self.run_words.get_or_init(|| {
            let layout = cursor::Layout {
                order,
                index: None,
                global_seqno,
            };
            RunWords::build(self, layout).unwrap_or(RunWords::NONE)
        });
    }

    /// The data block's inline restart words, when they were made and apply.
    #[inline]
    pub(crate) fn run_words(&self) -> Option<&RunWords> {
        self.run_words.get().filter(|w| w.applies())
    }

    /// The block's restart prefixes, when it has them.
    #[inline]
    pub(crate) fn restart_prefixes(&self) -> Option<&RestartPrefixes> {
        self.prefixes.as_deref()
    }

    /// Heap bytes held besides the block's contents (the restart prefixes).
    pub(crate) fn aux_size(&self) -> usize {
        self.prefixes.as_ref().map_or(0, |p| p.heap_size())
    }

    /// Where a point lookup of `user_key` starts its scan, from the block's hash index: the
    /// restart run that holds the key's entries, or the last run when no key hashes to its
    /// bucket (the key is not in the block; a scan of the last run then ends the block, as
    /// RocksDB's `SeekForGet` does). None when the block has no hash index or the bucket is
    /// a collision (or names no run of the block): binary search then.
    pub(crate) fn hash_restart(&self, user_key: &[u8]) -> Option<usize> {
        let (at, count) = self.buckets;
        if count == 0 || self.num_restarts == 0 {
            return None;
        }
        let h = builder::hash_index_hash(user_key) as usize % count;
        match *self.data.get(at + h)? {
            builder::HASH_COLLISION => None,
            builder::HASH_NO_ENTRY => Some(self.num_restarts - 1),
            r => Some(usize::from(r)).filter(|&r| r < self.num_restarts),
        }
    }

    pub fn size(&self) -> usize {
        self.data.len()
    }

    pub fn num_restarts(&self) -> usize {
        self.num_restarts
    }

    pub(crate) fn data(&self) -> &[u8] {
        &self.data
    }

    pub(crate) fn restart_offset(&self) -> usize {
        self.restart_offset
    }

    /// The address of the restart array: what a point lookup reads first in the block (the
    /// block cache's prefetch hint for data blocks).
    pub(crate) fn restart_array_addr(&self) -> usize {
        self.data.as_ptr().addr() + self.restart_offset
    }

    /// Starts loading the restart array (a point lookup's first read of a data block).
    pub(crate) fn prefetch_restart_array(&self) {
        prefetch_byte(&self.data, self.restart_offset);
        prefetch_byte(&self.data, self.data.len().saturating_sub(1));
    }

    /// Starts loading the first entry of each restart run, when the block has at most
    /// `MAX_PREFETCHED_RESTARTS` (what a data-block seek reads next; a 4 KiB block of small
    /// entries has a handful). Reads the restart array.
    pub(crate) fn prefetch_restart_entries(&self) {
        if self.num_restarts <= MAX_PREFETCHED_RESTARTS {
            for i in 0..self.num_restarts {
                prefetch_byte(&self.data, self.restart_point(i));
            }
        }
    }

    /// Starts loading restart run `run` (< `num_restarts`), or its first `MAX_PREFETCHED_RUN`
    /// bytes: what a point lookup scans once it has chosen the run. Reads the restart array.
    pub(crate) fn prefetch_run(&self, run: usize) {
        let start = self.restart_point(run);
        let end = self
            .run_end(run)
            .min(start.saturating_add(MAX_PREFETCHED_RUN));
        for at in (start..end).step_by(64) {
            prefetch_byte(&self.data, at);
        }
        prefetch_byte(&self.data, end.saturating_sub(1));
    }

    /// Where restart run `run` (< `num_restarts`) ends: the next restart point, or the
    /// restart array after the last run.
    pub(crate) fn run_end(&self, run: usize) -> usize {
        if run + 1 < self.num_restarts {
            self.restart_point(run + 1).min(self.restart_offset)
        } else {
            self.restart_offset
        }
    }

    /// Offset of restart point `i` (< `num_restarts`).
    pub(crate) fn restart_point(&self, i: usize) -> usize {
        let at = self.restart_offset + 4 * i;
        decode_fixed32(&self.data[at..at + 4]) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_impossible_restart_counts() {
        assert!(Block::new(vec![1, 2, 3]).is_err());
        assert!(Block::new(vec![0, 0, 0, 0, 2, 0, 0, 0]).is_err());
        let b = Block::new(vec![0, 0, 0, 0, 1, 0, 0, 0]).expect("empty block");
        assert_eq!(b.num_restarts(), 1);
        assert_eq!(b.restart_offset(), 0);
    }

    #[test]
    fn a_block_description_fits_what_a_hinted_cache_lookup_prefetches() {
        // `cache::lru_table::HINTED_VALUE_BYTES`: a get finds the restart words there.
        assert!(std::mem::size_of::<Block>() <= 128);
    }

    #[test]
    fn hash_index_bit_is_stripped() {
        // restart[0]=0, one bucket (0xff), num_buckets=1, footer = 1 | 1<<31.
        let data = vec![0, 0, 0, 0, 0xff, 1, 0, 1, 0, 0, 0x80];
        let b = Block::new(data).expect("hash-index block");
        assert_eq!(b.num_restarts(), 1);
        assert_eq!(b.restart_offset(), 0);
        assert_eq!(
            b.hash_restart(b"any"),
            Some(0),
            "an empty bucket: the last run"
        );
    }
}
