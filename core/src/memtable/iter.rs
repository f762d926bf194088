// SPDX-License-Identifier: Apache-2.0
//! The memtable cursor (read path, and flush on the background path).
//!
//! The cursor owns an `Arc<MemTable>` and the reference of the skiplist node it is on (node
//! references stay valid as long as the memtable lives; nodes never move or go away), and a
//! copy of that node's internal key and value, which `key` and `value` return. `next` follows
//! the level-0 link; `prev` searches for the last node before the current key (O(log n), as
//! RocksDB's skiplist `Prev` does), since the list has no backward links.
//!
//! Moving forward, the cursor starts loading the nodes two steps ahead and the value one step
//! ahead ([`MemTableIterator::look_ahead`]). A memtable's nodes and values lie in insertion
//! order, so in key order every step is a cache miss or two; a flush, which reads every
//! entry and does a table builder's work between steps, then rarely waits for one. In the
//! driver's fillrandom (1M keys, 64 MiB memtables), reading the memtables had been about
//! half of the flushes' CPU time; with the look-ahead the background threads used 35% less
//! CPU, and as the flushes finished sooner, fewer entries piled up in the next memtable
//! meanwhile: peak RSS fell from 102-109 to 97 MB (3 alternating runs each).
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
        self.look_ahead(r);
        self.land(r);
    }

    /// Before landing on `r` going forward: starts loading the value of the node after `r`
    /// and the node after that (reading the first, which the previous step asked for). See
    /// the module docs.
    fn look_ahead(&self, r: u64) {
        if r == 0 {
            return;
        }
        let list = &self.mem.list;
        let next = list.next(r);
        if next != 0 {
            list.prefetch_value(next);
            list.prefetch_node(list.next(next));
        }
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
