// SPDX-License-Identifier: Apache-2.0
//! Point lookups inside one table (read path: `get`, `multi_get`).
//!
//! A get needs the entries of one user key, not a cursor that can go anywhere, so it skips
//! the [`super::TableIterator`] machinery (RocksDB's `BlockBasedTable::Get` does the same):
//!
//! 1. the filter, when the table has one, may prove the key absent;
//! 2. the index block is searched in place (binary search over its restart keys) for the
//!    first data block whose separator is `>=` the lookup key ([`Table::locate`]);
//! 3. that data block is held: borrowed from the block cache (a reference to the block, not
//!    a pin: see `cache::lru`) or read from the file (`Table::hold_data_block`, in
//!    `reader.rs`);
//! 4. the block is searched the same way, or from the restart run its data-block hash index
//!    names (`BlockCursor::run_for_get`), and its entries of the user key are handed to the
//!    caller newest first, moving on to the next data block while the key's entries go on
//!    ([`Table::search_held`]).
//!
//! [`Table::point_lookup`] runs the steps back to back. A multi_get runs them for a batch of
//! keys, one step of every key at a time, and between steps starts loading what the next
//! step will read (the tables' and [`HeldBlock`]'s `prefetch_*` methods), so that the keys'
//! cache misses overlap (`db/multi_get.rs`).
//!
//! Cursors live on the stack and rebuild keys in inline buffers
//! ([`super::block::key_buf::KeyBuf`]), so a lookup whose blocks are cached allocates
//! nothing.

use std::sync::Arc;

use super::block::cursor::{BlockCursor, Layout};
use super::block::Block;
use super::filter_api::FilterProbe;
use super::format::BlockHandle;
use super::reader::Table;
use crate::error::Result;
use crate::key::{parse_internal_key, SequenceNumber, ValueType};
use crate::util::prefetch::prefetch_line;

/// What the search of one data block decided.
enum Step {
    /// The key's entries ended (`true`) or the visitor stopped (`false`).
    Done(bool),
    /// The block ended while the key's entries may go on in the next one.
    NextBlock,
}

/// Where the search of a data block starts.
#[derive(Clone, Copy)]
enum Start {
    /// At the lookup key, in the first block of a lookup.
    Lookup,
    /// At the lookup key, scanning from this restart run ([`Table::prefetch_run`]'s).
    Run(usize),
    /// At the block's first entry, in the blocks after the first.
    First,
}

/// A data block held for a lookup.
pub(crate) enum HeldBlock {
    /// Borrowed from the block cache, or read from the file by a table with a cache
    /// (whether or not the cache took it).
    Shared(Arc<Block>),
    /// Read from the file by a table without a block cache.
    Owned(Block),
}

impl HeldBlock {
    fn block(&self) -> &Block {
        match self {
            HeldBlock::Shared(b) => b,
            HeldBlock::Owned(b) => b,
        }
    }

    /// Starts loading the block's description (where its bytes and restart array are).
    pub(crate) fn prefetch_header(&self) {
        if let HeldBlock::Shared(b) = self {
            prefetch_line(Arc::as_ptr(b).cast::<u8>());
        }
    }

    /// Starts loading the block's restart array (needs the description: call a step after
    /// [`Self::prefetch_header`]).
    pub(crate) fn prefetch_restarts(&self) {
        self.block().prefetch_restart_array();
    }

    /// Starts loading the first entry of each restart run (needs the restart array).
    pub(crate) fn prefetch_restart_entries(&self) {
        self.block().prefetch_restart_entries();
    }
}

impl Table {
    /// Calls `f(seq, type, value)` for the entries of `user_key` with an internal key `>=
    /// target` (the lookup key `user_key` + `(read_seq, VALUE_TYPE_FOR_SEEK)`), newest first,
    /// until `f` returns false; returns false when `f` stopped. Data blocks it misses go
    /// into the block cache only when `fill_cache`.
    ///
    /// # Errors
    /// Corruption or I/O errors met on the way.
    pub(crate) fn point_lookup(
        &self,
        probe: &FilterProbe<'_>,
        target: &[u8],
        fill_cache: bool,
        f: &mut dyn FnMut(SequenceNumber, ValueType, &[u8]) -> bool,
    ) -> Result<bool> {
        let user_key = probe.key();
        let Some(h) = self.locate(probe, target)? else {
            return Ok(true);
        };
        let held = self.hold_data_block(h, fill_cache)?;
        self.search_held(&held, h, None, user_key, target, fill_cache, f)
    }

    /// Steps 1 and 2: the first data block that may hold entries `>= target` of `user_key`,
    /// or None when the filter rules the key out or every key of the table is smaller.
    ///
    /// # Errors
    /// Corruption of the index block.
    pub(crate) fn locate(
        &self,
        probe: &FilterProbe<'_>,
        target: &[u8],
    ) -> Result<Option<BlockHandle>> {
        if !self.probe_may_match(probe) {
            return Ok(None);
        }
        let (index, layout) = self.index_layout();
        let mut idx = BlockCursor::new(index);
        idx.seek(index, layout, target);
        idx.status()?;
        Ok(idx.valid().then_some(idx.handle))
    }

    /// The restart run of `held` where a lookup of `target` scans (what step 4 would
    /// choose), with its lines asked for (it reads the restart array and entries). None when
    /// the block has nothing to scan or is corrupt: step 4 then finds out again.
    pub(crate) fn prefetch_run(&self, held: &HeldBlock, target: &[u8]) -> Option<usize> {
        let block = held.block();
        let run = BlockCursor::new(block).run_for_get(block, self.data_layout(), target)?;
        block.prefetch_run(run);
        Some(run)
    }

    /// Step 4: hands `f` the entries of `user_key` `>= target` in `held` (the block at `h`
    /// that [`Self::locate`] chose; its scan starts at restart run `run` when given, which
    /// must be [`Self::prefetch_run`]'s) and, while they go on, in the blocks after it.
    /// Returns false when `f` stopped.
    ///
    /// # Errors
    /// Corruption or I/O errors met on the way.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn search_held(
        &self,
        held: &HeldBlock,
        h: BlockHandle,
        run: Option<usize>,
        user_key: &[u8],
        target: &[u8],
        fill_cache: bool,
        f: &mut dyn FnMut(SequenceNumber, ValueType, &[u8]) -> bool,
    ) -> Result<bool> {
        let block = held.block();
        let start = run.map_or(Start::Lookup, Start::Run);
        match self.search_block(block, start, user_key, target, f)? {
            Step::Done(more) => return Ok(more),
            Step::NextBlock => {}
        }
        // The key's entries may go on past the block: its scan reached the block's end (the
        // key's last entry is the block's last, or it has versions in the next block). Find
        // `h` again in the index (a second search of the index block, which is warm by
        // now) and walk the blocks after it.
        let (index, layout) = self.index_layout();
        let mut idx = BlockCursor::new(index);
        idx.seek(index, layout, target);
        debug_assert!(
            !idx.valid() || idx.handle == h,
            "the index seek finds `h` again"
        );
        while idx.valid() && idx.handle != h {
            idx.next(index, layout);
        }
        idx.next(index, layout);
        while idx.valid() {
            let held = self.hold_data_block(idx.handle, fill_cache)?;
            let step = self.search_block(held.block(), Start::First, user_key, target, f)?;
            match step {
                Step::Done(more) => return Ok(more),
                Step::NextBlock => idx.next(index, layout),
            }
        }
        idx.status()?;
        Ok(true)
    }

    /// Searches one data block from `start`.
    fn search_block(
        &self,
        block: &Block,
        start: Start,
        user_key: &[u8],
        target: &[u8],
        f: &mut dyn FnMut(SequenceNumber, ValueType, &[u8]) -> bool,
    ) -> Result<Step> {
        let layout = self.data_layout();
        let icmp = self.internal_comparator();
        let mut data = BlockCursor::new(block);
        match start {
            Start::Lookup => data.seek_for_get(block, layout, target),
            Start::Run(run) => data.seek_in_run(block, layout, target, run),
            Start::First => data.seek_to_first(block, layout),
        }
        while data.valid() {
            let mut parsed = parse_internal_key(data.key())?;
            if icmp.compare_user(parsed.user_key, user_key).is_ne() {
                return Ok(Step::Done(true));
            }
            if let Some(g) = layout.global_seqno {
                parsed.sequence = g;
            }
            if !f(parsed.sequence, parsed.value_type, data.value(block)) {
                return Ok(Step::Done(false));
            }
            data.next(block, layout);
        }
        data.status()?;
        Ok(Step::NextBlock)
    }

    /// How to read the table's data blocks.
    fn data_layout(&self) -> Layout<'_> {
        Layout {
            order: self.data_order(),
            index: None,
            global_seqno: self.global_seqno(),
        }
    }

    /// The index block and how to read it.
    fn index_layout(&self) -> (&Block, Layout<'_>) {
        let (index, order, format) = self.index_parts();
        let layout = Layout {
            order,
            index: Some(format),
            global_seqno: None,
        };
        (index, layout)
    }
}
