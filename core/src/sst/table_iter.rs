// SPDX-License-Identifier: Apache-2.0
//! The two-level table cursor (read path): an index-block cursor picks the data block, a
//! data-block cursor walks inside it, and running off either end of a data block moves the
//! index cursor and loads the neighbouring block. Blocks are read on demand, one at a time,
//! through the table's block cache when it has one; the cursor pins the cached data block it
//! is positioned in (a [`Handle`]) until it moves to another block or is dropped.

use std::sync::Arc;

use super::block::{BlockIter, KeyOrder};
use super::format::BlockHandle;
use super::reader::Table;
use crate::cache::Handle;
use crate::error::Result;
use crate::iter::InternalIterator;

/// A cursor over a table's point entries in internal-key order.
pub struct TableIterator {
    table: Arc<Table>,
    index: BlockIter,
    data: Option<BlockIter>,
    data_handle: Option<BlockHandle>,
    /// The cache pin of the current data block, when it came from or went into the cache.
    data_pin: Option<Handle>,
    /// Whether blocks this cursor misses are inserted into the block cache.
    fill_cache: bool,
    status: Result<()>,
}

impl TableIterator {
    pub(crate) fn new(table: Arc<Table>, fill_cache: bool) -> Self {
        let index = table.new_index_iter();
        TableIterator {
            table,
            index,
            data: None,
            data_handle: None,
            data_pin: None,
            fill_cache,
            status: Ok(()),
        }
    }

    /// Drops the current data block (and its cache pin).
    fn clear_data(&mut self) {
        self.data = None;
        self.data_handle = None;
        self.data_pin = None;
    }

    /// Loads the data block the index cursor points at (reusing the current one if the same).
    fn init_data_block(&mut self) {
        if !self.index.valid() {
            self.clear_data();
            return;
        }
        let h = self.index.block_handle();
        if self.data.is_some() && self.data_handle == Some(h) {
            return;
        }
        // Unpin the old block before reading the next, so that a tiny cache can reuse it.
        self.clear_data();
        match self.table.data_block(h, self.fill_cache) {
            Ok((block, pin)) => {
                let order = KeyOrder::Internal(self.table.internal_comparator().clone());
                self.data = Some(
                    BlockIter::new(block, order, None).with_global_seqno(self.table.global_seqno()),
                );
                self.data_handle = Some(h);
                self.data_pin = pin;
            }
            Err(e) => {
                if self.status.is_ok() {
                    self.status = Err(e);
                }
            }
        }
    }

    /// True when the data cursor stopped because of an error, which then becomes ours.
    fn data_failed(&mut self) -> bool {
        if let Some(d) = &self.data {
            if let Err(e) = d.status() {
                if self.status.is_ok() {
                    self.status = Err(e);
                }
                self.clear_data();
                return true;
            }
        }
        self.status.is_err()
    }

    fn skip_empty_forward(&mut self) {
        while !self.data.as_ref().is_some_and(|d| d.valid()) {
            if self.data_failed() || !self.index.valid() {
                self.clear_data();
                return;
            }
            self.index.next();
            self.init_data_block();
            if let Some(d) = self.data.as_mut() {
                d.seek_to_first();
            }
        }
    }

    fn skip_empty_backward(&mut self) {
        while !self.data.as_ref().is_some_and(|d| d.valid()) {
            if self.data_failed() || !self.index.valid() {
                self.clear_data();
                return;
            }
            self.index.prev();
            self.init_data_block();
            if let Some(d) = self.data.as_mut() {
                d.seek_to_last();
            }
        }
    }
}

impl InternalIterator for TableIterator {
    fn valid(&self) -> bool {
        self.status.is_ok() && self.data.as_ref().is_some_and(|d| d.valid())
    }

    fn seek_to_first(&mut self) {
        self.status = Ok(());
        self.index.seek_to_first();
        self.init_data_block();
        if let Some(d) = self.data.as_mut() {
            d.seek_to_first();
        }
        self.skip_empty_forward();
    }

    fn seek_to_last(&mut self) {
        self.status = Ok(());
        self.index.seek_to_last();
        self.init_data_block();
        if let Some(d) = self.data.as_mut() {
            d.seek_to_last();
        }
        self.skip_empty_backward();
    }

    fn seek(&mut self, target: &[u8]) {
        self.status = Ok(());
        self.index.seek(target);
        self.init_data_block();
        if let Some(d) = self.data.as_mut() {
            d.seek(target);
        }
        self.skip_empty_forward();
    }

    fn seek_for_prev(&mut self, target: &[u8]) {
        self.seek(target);
        if !self.valid() {
            if self.status().is_err() {
                return;
            }
            self.seek_to_last();
        }
        let icmp = self.table.internal_comparator().clone();
        while self.valid() && icmp.compare(self.key(), target).is_gt() {
            self.prev();
        }
    }

    fn next(&mut self) {
        if let Some(d) = self.data.as_mut() {
            d.next();
        }
        self.skip_empty_forward();
    }

    fn prev(&mut self) {
        if let Some(d) = self.data.as_mut() {
            d.prev();
        }
        self.skip_empty_backward();
    }

    fn key(&self) -> &[u8] {
        self.data.as_ref().map_or(&[], |d| d.key())
    }

    fn value(&self) -> &[u8] {
        self.data.as_ref().map_or(&[], |d| d.value())
    }

    fn status(&self) -> Result<()> {
        self.status.clone()?;
        self.index.status()?;
        match &self.data {
            Some(d) => d.status(),
            None => Ok(()),
        }
    }
}
