// SPDX-License-Identifier: Apache-2.0
//! The memtable cursor (read path, and flush on the background path).
//!
//! The cursor owns an `Arc<MemTable>` and the reference of the skiplist node it is on (node
//! references stay valid as long as the memtable lives; nodes never move or go away), and a
//! copy of that node's internal key and value, which `key` and `value` return. `next` follows
//! the level-0 link; `prev` searches for the last node before the current key (O(log n), as
//! RocksDB's skiplist `Prev` does), since the list has no backward links.
//!
//! Entries added after the cursor was positioned may or may not be seen by later moves.
//! Readers lose nothing by this: the write path publishes a sequence number only after its
//! entries are inserted, so an entry added later than the cursor's creation is newer than any
//! snapshot the cursor's user can hold.

use std::sync::Arc;

use super::skiplist::Probe;
use super::MemTable;
use crate::error::Result;
use crate::iter::InternalIterator;
use crate::key::ValueType;

/// A cursor over a memtable's entries in internal key order; see the module docs.
pub struct MemTableIterator {
    mem: Arc<MemTable>,
    /// Whether range deletion entries are yielded (flush) or skipped (reads).
    include_range_del: bool,
    /// The current node, 0 when not valid.
    node: u64,
    key: Vec<u8>,
    value: Vec<u8>,
}

impl MemTableIterator {
    pub(super) fn new(mem: Arc<MemTable>, include_range_del: bool) -> Self {
        MemTableIterator {
            mem,
            include_range_del,
            node: 0,
            key: Vec::new(),
            value: Vec::new(),
        }
    }

    fn skipped(&self, r: u64) -> bool {
        !self.include_range_del
            && self.mem.list.trailer(r) & 0xff == ValueType::RangeDeletion as u64
    }

    /// Positions on `r`, or on the first node after it that is not skipped.
    fn settle_forward(&mut self, mut r: u64) {
        while r != 0 && self.skipped(r) {
            r = self.mem.list.next(r);
        }
        self.land(r);
    }

    /// Positions on `r`, or on the last node before it that is not skipped.
    fn settle_backward(&mut self, mut r: u64) {
        while r != 0 && self.skipped(r) {
            self.mem.list.internal_key_into(r, &mut self.key);
            r = self.mem.list.seek_lt(&Probe::internal(&self.key));
        }
        self.land(r);
    }

    fn land(&mut self, r: u64) {
        self.node = r;
        if r == 0 {
            self.key.clear();
            self.value.clear();
        } else {
            self.mem.list.internal_key_into(r, &mut self.key);
            self.mem.list.value_into(r, &mut self.value);
        }
    }
}

impl InternalIterator for MemTableIterator {
    fn valid(&self) -> bool {
        self.node != 0
    }
    fn seek_to_first(&mut self) {
        let r = self.mem.list.first();
        self.settle_forward(r);
    }
    fn seek_to_last(&mut self) {
        let r = self.mem.list.last();
        self.settle_backward(r);
    }
    fn seek(&mut self, target: &[u8]) {
        let r = self.mem.list.seek_ge(&Probe::internal(target));
        self.settle_forward(r);
    }
    fn seek_for_prev(&mut self, target: &[u8]) {
        let p = Probe::internal(target);
        let list = &self.mem.list;
        let r = match list.seek_ge(&p) {
            r if r != 0 && list.equals(r, &p) => r,
            _ => list.seek_lt(&p),
        };
        self.settle_backward(r);
    }
    fn next(&mut self) {
        if self.node != 0 {
            let r = self.mem.list.next(self.node);
            self.settle_forward(r);
        }
    }
    fn prev(&mut self) {
        if self.node != 0 {
            let r = self.mem.list.seek_lt(&Probe::internal(&self.key));
            self.settle_backward(r);
        }
    }
    fn key(&self) -> &[u8] {
        &self.key
    }
    fn value(&self) -> &[u8] {
        &self.value
    }
    fn status(&self) -> Result<()> {
        Ok(())
    }
}
