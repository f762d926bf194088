// SPDX-License-Identifier: Apache-2.0
//! The memtable cursor (read path, and flush on the background path).
//!
//! A crossbeam skiplist position (`Entry<'a>`) borrows the skiplist, and this cursor must own
//! an `Arc<MemTable>` and be `'static`, so it cannot keep a skiplist position without unsafe
//! code. Instead it copies a *window* of consecutive entries (`internal_key ++ value`) into
//! its own buffer and serves `key`/`value`/`next`/`prev` from it; leaving the window re-seeks
//! the skiplist relative to the window's edge key (O(log n)). Forward windows grow
//! geometrically (4, 8, ... 256 entries, capped at 32 KiB of copied bytes beyond the first
//! entry), so a long scan pays the re-seek rarely while a seek that reads one entry copies
//! little. Backward steps re-seek every time, like RocksDB's skiplist `Prev`.
//!
//! Entries added after a window was filled may be missing from it. Readers lose nothing by
//! this: the write path publishes a sequence number only after its entries are inserted, so
//! an entry added later than the cursor's creation is newer than any snapshot the cursor's
//! user can hold.

use std::ops::Bound;
use std::sync::Arc;

use crossbeam_skiplist::SkipSet;

use super::{with_table, MemEntry, MemTable};
use crate::error::Result;
use crate::iter::InternalIterator;
use crate::key::internal_key::trailer;
use crate::key::{InternalKeyComparator, ValueType};

const INITIAL_BATCH: usize = 4;
const MAX_BATCH: usize = 256;
const MAX_WINDOW_BYTES: usize = 32 * 1024;

/// Where a refill starts, relative to the seek key in `MemTableIterator::probe`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Start {
    /// The first (forward) or last (backward) entry.
    End,
    /// At or after (forward), at or before (backward) the probe.
    Including,
    /// Strictly after (forward), strictly before (backward) the probe.
    Excluding,
}

/// Consecutive entries copied out of the skiplist.
#[derive(Default)]
struct Window {
    data: Vec<u8>,
    /// `(offset in data, key length, value length)` per entry.
    spans: Vec<(usize, usize, usize)>,
}

impl Window {
    fn clear(&mut self) {
        self.data.clear();
        self.spans.clear();
    }
    fn push(&mut self, key: &[u8], value: &[u8]) {
        self.spans.push((self.data.len(), key.len(), value.len()));
        self.data.extend_from_slice(key);
        self.data.extend_from_slice(value);
    }
    fn key(&self, i: usize) -> &[u8] {
        match self.spans.get(i) {
            Some(&(off, klen, _)) => self.data.get(off..off + klen).unwrap_or(&[]),
            None => &[],
        }
    }
    fn value(&self, i: usize) -> &[u8] {
        match self.spans.get(i) {
            Some(&(off, klen, vlen)) => self.data.get(off + klen..off + klen + vlen).unwrap_or(&[]),
            None => &[],
        }
    }
}

/// A cursor over a memtable's entries in internal key order; see the module docs.
pub struct MemTableIterator {
    mem: Arc<MemTable>,
    /// Whether range deletion entries are yielded (flush) or skipped (reads).
    include_range_del: bool,
    window: Window,
    /// The current entry's index in `window`; valid iff `pos < window.spans.len()`.
    pos: usize,
    /// Entries the next forward refill copies.
    batch: usize,
    /// Reused buffer for seek keys.
    probe: Vec<u8>,
}

impl MemTableIterator {
    pub(super) fn new(mem: Arc<MemTable>, include_range_del: bool) -> Self {
        MemTableIterator {
            mem,
            include_range_del,
            window: Window::default(),
            pos: 0,
            batch: INITIAL_BATCH,
            probe: Vec::new(),
        }
    }

    /// Replaces the window with entries from the skiplist, starting as `from` says, going
    /// forward (up to `max` entries) or backward (one entry).
    fn refill(&mut self, from: Start, forward: bool, max: usize) {
        let probe = std::mem::take(&mut self.probe);
        let mem = &*self.mem;
        self.probe = with_table!(&mem.table, set => fill(
            set,
            probe,
            &mem.icmp,
            from,
            forward,
            if forward { max } else { 1 },
            self.include_range_del,
            &mut self.window,
        ));
        self.pos = 0;
    }

    fn set_probe(&mut self, key: &[u8]) {
        self.probe.clear();
        self.probe.extend_from_slice(key);
    }
}

fn is_range_del(ikey: &[u8]) -> bool {
    trailer(ikey) & 0xff == ValueType::RangeDeletion as u64
}

#[expect(
    clippy::too_many_arguments,
    reason = "one internal helper, called in one place"
)]
fn fill<E: MemEntry>(
    set: &SkipSet<E>,
    probe: Vec<u8>,
    icmp: &InternalKeyComparator,
    from: Start,
    forward: bool,
    max: usize,
    include_range_del: bool,
    window: &mut Window,
) -> Vec<u8> {
    let klen = probe.len();
    let probe = E::from_buf(probe, klen, icmp);
    let bound = match from {
        Start::End => Bound::Unbounded,
        Start::Including => Bound::Included(&probe),
        Start::Excluding => Bound::Excluded(&probe),
    };
    let mut cur = if forward {
        set.lower_bound(bound)
    } else {
        set.upper_bound(bound)
    };
    window.clear();
    while let Some(e) = cur {
        let (k, v) = e.value().parts();
        if include_range_del || !is_range_del(k) {
            window.push(k, v);
            if window.spans.len() >= max || window.data.len() >= MAX_WINDOW_BYTES {
                break;
            }
        }
        cur = if forward { e.next() } else { e.prev() };
    }
    probe.into_buf()
}

impl InternalIterator for MemTableIterator {
    fn valid(&self) -> bool {
        self.pos < self.window.spans.len()
    }
    fn seek_to_first(&mut self) {
        self.batch = INITIAL_BATCH;
        self.refill(Start::End, true, self.batch);
    }
    fn seek_to_last(&mut self) {
        self.batch = INITIAL_BATCH;
        self.refill(Start::End, false, 1);
    }
    fn seek(&mut self, target: &[u8]) {
        self.set_probe(target);
        self.batch = INITIAL_BATCH;
        self.refill(Start::Including, true, self.batch);
    }
    fn seek_for_prev(&mut self, target: &[u8]) {
        self.set_probe(target);
        self.batch = INITIAL_BATCH;
        self.refill(Start::Including, false, 1);
    }
    fn next(&mut self) {
        if !self.valid() {
            return;
        }
        if self.pos + 1 < self.window.spans.len() {
            self.pos += 1;
            return;
        }
        let mut probe = std::mem::take(&mut self.probe);
        probe.clear();
        probe.extend_from_slice(self.window.key(self.pos));
        self.probe = probe;
        self.batch = (self.batch * 2).min(MAX_BATCH);
        self.refill(Start::Excluding, true, self.batch);
    }
    fn prev(&mut self) {
        if !self.valid() {
            return;
        }
        if self.pos > 0 {
            self.pos -= 1;
            return;
        }
        let mut probe = std::mem::take(&mut self.probe);
        probe.clear();
        probe.extend_from_slice(self.window.key(self.pos));
        self.probe = probe;
        self.refill(Start::Excluding, false, 1);
    }
    fn key(&self) -> &[u8] {
        self.window.key(self.pos)
    }
    fn value(&self) -> &[u8] {
        self.window.value(self.pos)
    }
    fn status(&self) -> Result<()> {
        Ok(())
    }
}
