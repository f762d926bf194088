// SPDX-License-Identifier: Apache-2.0
//! Point lookups inside one table (read path: `get`, `multi_get`).
//!
//! A get needs the entries of one user key, not a cursor that can go anywhere, so it skips
//! the [`super::TableIterator`] machinery (RocksDB's `BlockBasedTable::Get` does the same):
//!
//! 1. the filter, when the table has one, may prove the key absent;
//! 2. the index block is searched in place (binary search over its restart keys) for the
//!    first data block whose separator is `>=` the lookup key;
//! 3. that data block is taken from the block cache *borrowed* (the cache handle pins it
//!    while it is searched; no reference count is taken on the block) or read from the file;
//! 4. the block is searched the same way, or from the restart run its data-block hash index
//!    names (`BlockCursor::seek_for_get`), and its entries of the user key are handed to the
//!    caller newest first, moving on to the next data block while the key's entries go on.
//!
//! Both cursors live on the stack and rebuild keys in inline buffers
//! ([`super::block::key_buf::KeyBuf`]), so a lookup whose blocks are cached allocates
//! nothing.

use super::block::cursor::{BlockCursor, Layout};
use super::reader::Table;
use crate::error::Result;
use crate::key::{parse_internal_key, SequenceNumber, ValueType};

/// What the search of one data block decided.
enum Step {
    /// The key's entries ended (`true`) or the visitor stopped (`false`).
    Done(bool),
    /// The block ended while the key's entries may go on in the next one.
    NextBlock,
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
        user_key: &[u8],
        target: &[u8],
        fill_cache: bool,
        f: &mut dyn FnMut(SequenceNumber, ValueType, &[u8]) -> bool,
    ) -> Result<bool> {
        if !self.key_may_match(user_key) {
            return Ok(true);
        }
        let (index, index_order, index_format) = self.index_parts();
        let index_layout = Layout {
            order: index_order,
            index: Some(index_format),
            global_seqno: None,
        };
        let data_layout = Layout {
            order: self.data_order(),
            index: None,
            global_seqno: self.global_seqno(),
        };
        let icmp = self.internal_comparator();
        let mut idx = BlockCursor::new(index);
        idx.seek(index, index_layout, target);
        let mut data = BlockCursor::new(index);
        let mut first_block = true;
        while idx.valid() {
            let step =
                self.with_data_block(idx.handle, fill_cache, |block| -> Result<Step> {
                    data.reset(block);
                    if first_block {
                        data.seek_for_get(block, data_layout, target);
                    } else {
                        data.seek_to_first(block, data_layout);
                    }
                    while data.valid() {
                        let mut parsed = parse_internal_key(data.key())?;
                        if icmp.compare_user(parsed.user_key, user_key).is_ne() {
                            return Ok(Step::Done(true));
                        }
                        if let Some(g) = data_layout.global_seqno {
                            parsed.sequence = g;
                        }
                        if !f(parsed.sequence, parsed.value_type, data.value(block)) {
                            return Ok(Step::Done(false));
                        }
                        data.next(block, data_layout);
                    }
                    data.status()?;
                    Ok(Step::NextBlock)
                })??;
            match step {
                Step::Done(more) => return Ok(more),
                Step::NextBlock => {
                    first_block = false;
                    idx.next(index, index_layout);
                }
            }
        }
        idx.status()?;
        Ok(true)
    }
}
