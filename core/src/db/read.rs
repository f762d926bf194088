// SPDX-License-Identifier: Apache-2.0
//! Read path: point lookups, iterators, snapshots and properties (`multi_get` has its own
//! file, `multi_get.rs`, and shares this file's per-key lookup state, [`KeyLookup`]).
//!
//! A read takes its view (the column family's SuperVersion: memtables and tables) first and
//! its sequence number (the snapshot's, or `last_sequence` now) second, so that everything
//! the sequence can see is in the view; no lock is held while it searches. Entries newer than
//! the read sequence are invisible, so a concurrent write never shows up half-done. A
//! multi_get over several families retakes the views until none changed while it read the
//! sequence, so one sequence is complete in all of them.

use std::collections::BTreeMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use parking_lot::Mutex;

use super::column_family::ColumnFamilyData;
use super::super_version::SuperVersion;
use super::table_cache::table_get;
use super::DbInner;
use crate::error::{Error, Result};
use crate::iter::db_iter::DbIter;
use crate::iter::level::{LevelIterator, OpenFile};
use crate::iter::merging::MergingIterator;
use crate::iter::InternalIterator;
use crate::key::{pack_seq_and_type, SequenceNumber, ValueType, VALUE_TYPE_FOR_SEEK};
use crate::merge::MERGE_FAILED_MESSAGE;
use crate::options::ReadOptions;
use crate::range_del::{FragmentedRangeTombstones, RangeTombstone};
use crate::sst::block::key_buf::KeyBuf;
use crate::sst::filter_api::FilterProbe;
use crate::sst::Table;
use crate::version::edit::FileMetaData;

/// Tables whose filter lines a get prefetches before it probes the first (level 0's
/// compaction trigger: a settled tree's level 0, or the first levels below a smaller one).
/// Prefetching for the tables after a hit costs a wasted load each.
const PREFETCHED_FILTERS: usize = 4;

/// Live snapshots: sequence number → how many snapshots hold it. Compaction (later) keeps
/// every version a snapshot can see.
#[derive(Debug, Default)]
pub(crate) struct SnapshotList {
    /// Sequence number → (how many snapshots hold it, unix seconds of the first one).
    live: Mutex<BTreeMap<SequenceNumber, (usize, u64)>>,
}

impl SnapshotList {
    /// Registers a snapshot at the sequence `current` returns, read under the list lock.
    ///
    /// IMPORTANT: the sequence must be read while the lock is held. A compaction reads this
    /// list once its inputs are fixed; if the sequence were read first and registered later,
    /// a compaction could start in between, see no snapshot, and drop versions this snapshot
    /// needs (its inputs may hold entries newer than the snapshot's sequence).
    fn acquire(&self, current: impl FnOnce() -> SequenceNumber) -> SequenceNumber {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let mut live = self.live.lock();
        let seq = current();
        live.entry(seq).or_insert((0, now)).0 += 1;
        seq
    }
    fn release(&self, seq: SequenceNumber) {
        let mut live = self.live.lock();
        if let Some((n, _)) = live.get_mut(&seq) {
            *n -= 1;
            if *n == 0 {
                live.remove(&seq);
            }
        }
    }
    pub(crate) fn count(&self) -> usize {
        self.live.lock().values().map(|(n, _)| n).sum()
    }
    /// Every live snapshot's sequence number, ascending (compaction keeps what they see).
    pub(crate) fn all(&self) -> Vec<SequenceNumber> {
        self.live.lock().keys().copied().collect()
    }
    /// When the oldest live snapshot was taken (unix seconds), 0 without snapshots.
    pub(crate) fn oldest_time(&self) -> u64 {
        self.live
            .lock()
            .values()
            .next()
            .map(|(_, t)| *t)
            .unwrap_or(0)
    }
    /// The oldest live snapshot's sequence number.
    pub(crate) fn oldest(&self) -> Option<SequenceNumber> {
        self.live.lock().keys().next().copied()
    }
}

/// A point-in-time view of the DB. Reads with `ReadOptions::snapshot = Some(s.sequence())`
/// see exactly the writes before it. Released when dropped.
pub struct Snapshot {
    seq: SequenceNumber,
    db: Arc<DbInner>,
}

impl std::fmt::Debug for Snapshot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Snapshot").field("seq", &self.seq).finish()
    }
}

impl Snapshot {
    pub fn sequence(&self) -> SequenceNumber {
        self.seq
    }
}

impl Drop for Snapshot {
    fn drop(&mut self) {
        self.db.snapshots.release(self.seq);
    }
}

pub(crate) fn take_snapshot(db: &Arc<DbInner>) -> Snapshot {
    // The sequence is read under the list lock, so that a snapshot is never older than what
    // a concurrent compaction believes is the oldest live one.
    let seq = db
        .snapshots
        .acquire(|| db.last_sequence.load(Ordering::Acquire));
    Snapshot {
        seq,
        db: db.clone(),
    }
}

/// What the newest visible entries of a key say.
enum Lookup {
    Found(Vec<u8>),
    Deleted,
    NotFound,
    Unsupported(ValueType),
}

impl DbInner {
    pub(super) fn read_seq(&self, ro: &ReadOptions) -> SequenceNumber {
        ro.snapshot
            .unwrap_or_else(|| self.last_sequence.load(Ordering::Acquire))
    }

    pub(crate) fn get(
        &self,
        ro: &ReadOptions,
        cfd: &ColumnFamilyData,
        key: &[u8],
    ) -> Result<Option<Vec<u8>>> {
        // The view first, then the sequence: everything at or below the sequence is then in
        // the view's memtables and tables (RocksDB's GetImpl order). The other order lets a
        // flush or compaction finish in between and drop the version the sequence sees.
        let sv = cfd.super_version();
        let read_seq = self.read_seq(ro);
        let res = self.get_in(ro, cfd, &sv, key, read_seq);
        self.stats.keys_read.fetch_add(1, Ordering::Relaxed);
        if let Ok(Some(v)) = &res {
            self.stats
                .bytes_read
                .fetch_add(v.len() as u64, Ordering::Relaxed);
        }
        res
    }
}

impl DbInner {
    /// The range tombstones of a table file of `level` (opening it if needed).
    pub(crate) fn table_tombstones(
        &self,
        cfd: &ColumnFamilyData,
        f: &FileMetaData,
        level: usize,
    ) -> Result<Vec<RangeTombstone>> {
        Ok(self
            .table_cache
            .get(f, level, &cfd.options)?
            .range_tombstones()
            .to_vec())
    }

    /// The range tombstones of `sv`'s immutable memtables and tables, fragmented (cached in
    /// the view after the first call).
    fn frozen_tombstones(
        &self,
        cfd: &ColumnFamilyData,
        sv: &SuperVersion,
    ) -> Result<Arc<FragmentedRangeTombstones>> {
        sv.frozen_tombstones(&cfd.options.comparator, &|f, level| {
            self.table_tombstones(cfd, f, level)
        })
    }

    /// All range tombstones `sv` can see: the frozen part (immutable memtables and tables)
    /// and the active memtable's.
    fn tombstones_of(
        &self,
        cfd: &ColumnFamilyData,
        sv: &SuperVersion,
    ) -> Result<Vec<Arc<FragmentedRangeTombstones>>> {
        let frozen = self.frozen_tombstones(cfd, sv)?;
        let mut out = Vec::with_capacity(2);
        if !frozen.is_empty() {
            out.push(frozen);
        }
        if let Some(t) = cfd.tombstones(&sv.mem) {
            out.push(t);
        }
        Ok(out)
    }

    /// The largest sequence number `<= read_seq` of the range tombstones of `sv` that cover
    /// `key` (0 for none): entries of `key` older than it are deleted.
    fn covering_tombstone_seq(
        &self,
        cfd: &ColumnFamilyData,
        sv: &SuperVersion,
        key: &[u8],
        read_seq: SequenceNumber,
    ) -> Result<SequenceNumber> {
        let mut seq = self
            .frozen_tombstones(cfd, sv)?
            .max_covering_seq(key, read_seq);
        if let Some(t) = cfd.tombstones(&sv.mem) {
            seq = seq.max(t.max_covering_seq(key, read_seq));
        }
        Ok(seq)
    }

    /// Looks `key` up in `cfd` as of `read_seq`: the active memtable, the immutable ones
    /// newest first, then the table files in lookup order; merge operands gather on the way.
    /// Of `ro`, it honours `fill_cache` (data blocks read from files go into the block cache
    /// only when set) and `ignore_range_deletions`, as RocksDB's Get does.
    pub(super) fn get_in(
        &self,
        ro: &ReadOptions,
        cfd: &ColumnFamilyData,
        sv: &SuperVersion,
        key: &[u8],
        read_seq: SequenceNumber,
    ) -> Result<Option<Vec<u8>>> {
        let mut lookup = KeyLookup::new(self, ro, cfd, sv, key, read_seq)?;
        if lookup.search_memtables(sv) {
            // One walk of the version's files: the first few are taken ahead, and their
            // filter lines asked for, so that the probes' cache misses overlap instead of
            // following each other (each probe's outcome decides whether the lookup goes
            // on, so the CPU cannot run ahead to the next one by itself).
            let mut files = sv
                .version
                .files_for_key(key)
                .filter(|f| f.smallest_seqno <= read_seq);
            let mut ahead: [Option<&Arc<FileMetaData>>; PREFETCHED_FILTERS] =
                [None; PREFETCHED_FILTERS];
            for slot in &mut ahead {
                *slot = files.next();
                // A table that fails to open is skipped here: the error is the lookup's,
                // if it gets that far.
                if let Some(Ok(table)) = slot.map(|f| self.table_for(cfd, sv, f)) {
                    table.prefetch_filter(&lookup.probe);
                }
            }
            for f in ahead.into_iter().flatten().chain(files) {
                let table = self.table_for(cfd, sv, f)?;
                let target = lookup.target.as_slice();
                let visit = &mut |s, t, v: &[u8]| lookup.state.visit(s, t, v);
                if !table_get(table, &lookup.probe, target, ro.fill_cache, visit)? {
                    break;
                }
            }
        }
        lookup.finish(cfd)
    }

    /// `f`'s table for a point lookup in `sv` (opened on first use).
    pub(super) fn table_for<'v>(
        &self,
        cfd: &ColumnFamilyData,
        sv: &SuperVersion,
        f: &'v FileMetaData,
    ) -> Result<&'v Table> {
        // Only a first open needs the level (an O(level 0) look).
        let level = || usize::from(!sv.version.files(0).iter().any(|g| std::ptr::eq(&**g, f)));
        self.table_cache.table_for(f, level, &cfd.options)
    }
}

/// One key's lookup as of a sequence number: its lookup key, and what its newest visible
/// entries said so far (`get` and the staged `multi_get` share it).
pub(super) struct KeyLookup<'k> {
    pub(super) key: &'k [u8],
    /// `key` for the tables' filters (its hash is computed once for all of them).
    pub(super) probe: FilterProbe<'k>,
    /// `key` + `(read_seq, VALUE_TYPE_FOR_SEEK)`: where the key's visible entries start.
    pub(super) target: KeyBuf,
    read_seq: SequenceNumber,
    pub(super) state: Visited,
}

/// What the entries a lookup visited say.
pub(super) struct Visited {
    /// Entries older than this are deleted by a range tombstone.
    covered_below: SequenceNumber,
    /// Merge operands, newest first.
    operands: Vec<Vec<u8>>,
    outcome: Lookup,
}

impl Visited {
    /// Takes the key's next entry (newest first); false once the key is decided.
    pub(super) fn visit(&mut self, seq: SequenceNumber, t: ValueType, value: &[u8]) -> bool {
        if seq < self.covered_below {
            self.outcome = Lookup::Deleted;
            return false;
        }
        match t {
            ValueType::Value => self.outcome = Lookup::Found(value.to_vec()),
            ValueType::Deletion | ValueType::SingleDeletion => self.outcome = Lookup::Deleted,
            ValueType::Merge => {
                self.operands.push(value.to_vec());
                return true;
            }
            other => self.outcome = Lookup::Unsupported(other),
        }
        false
    }
}

impl<'k> KeyLookup<'k> {
    /// A lookup of `key` in `sv` as of `read_seq`, with the range tombstones that cover it
    /// (unless `ro` ignores them).
    pub(super) fn new(
        db: &DbInner,
        ro: &ReadOptions,
        cfd: &ColumnFamilyData,
        sv: &SuperVersion,
        key: &'k [u8],
        read_seq: SequenceNumber,
    ) -> Result<Self> {
        let covered_below = if ro.ignore_range_deletions {
            0
        } else {
            db.covering_tombstone_seq(cfd, sv, key, read_seq)?
        };
        let mut target = KeyBuf::new();
        target.extend(key);
        target.extend(&pack_seq_and_type(read_seq, VALUE_TYPE_FOR_SEEK).to_le_bytes());
        Ok(KeyLookup {
            key,
            probe: FilterProbe::new(key),
            target,
            read_seq,
            state: Visited {
                covered_below,
                operands: Vec::new(),
                outcome: Lookup::NotFound,
            },
        })
    }

    /// Searches the active memtable, then the immutable ones newest first; false once the
    /// key is decided (the tables need not be searched).
    pub(super) fn search_memtables(&mut self, sv: &SuperVersion) -> bool {
        for mem in std::iter::once(&sv.mem).chain(sv.imms.iter()) {
            let mut more = true;
            mem.get(self.key, self.read_seq, &mut |s, t, v| {
                more = self.state.visit(s, t, v);
                more
            });
            if !more {
                return false;
            }
        }
        true
    }

    /// The value the visited entries make: the newest value, merged with the operands above
    /// it by `cfd`'s merge operator; None when deleted or absent.
    ///
    /// # Errors
    /// A value type reads do not support, merge operands without a merge operator, or a
    /// failed merge.
    pub(super) fn finish(self, cfd: &ColumnFamilyData) -> Result<Option<Vec<u8>>> {
        let Visited {
            mut operands,
            outcome,
            ..
        } = self.state;
        let base = match outcome {
            Lookup::Unsupported(t) => {
                return Err(Error::not_supported(format!(
                    "value type {t:?} is not supported"
                )))
            }
            Lookup::Found(v) if operands.is_empty() => return Ok(Some(v)),
            Lookup::Found(v) => Some(v),
            Lookup::Deleted | Lookup::NotFound if operands.is_empty() => return Ok(None),
            Lookup::Deleted | Lookup::NotFound => None,
        };
        let op = cfd
            .options
            .merge_operator
            .as_ref()
            .ok_or_else(|| Error::invalid_argument("merge_operator_ must be set."))?;
        operands.reverse(); // collected newest first; the operator wants oldest first
        let refs: Vec<&[u8]> = operands.iter().map(Vec::as_slice).collect();
        op.full_merge(self.key, base.as_deref(), &refs)
            .map(Some)
            .ok_or_else(|| Error::corruption(MERGE_FAILED_MESSAGE))
    }
}

/// A user iterator: a cursor over one column family at a fixed sequence number. It keeps the
/// memtables it reads (and the DB's shared state) alive until it is dropped.
pub struct DbIterator {
    iter: DbIter,
    /// Keeps the memtables and table files of the view alive.
    _sv: Arc<SuperVersion>,
    _db: Arc<DbInner>,
}

impl std::fmt::Debug for DbIterator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DbIterator")
            .field("valid", &self.iter.valid())
            .finish()
    }
}

impl DbIterator {
    pub fn valid(&self) -> bool {
        self.iter.valid()
    }
    pub fn seek_to_first(&mut self) {
        self.iter.seek_to_first()
    }
    pub fn seek_to_last(&mut self) {
        self.iter.seek_to_last()
    }
    pub fn seek(&mut self, key: &[u8]) {
        self.iter.seek(key)
    }
    pub fn seek_for_prev(&mut self, key: &[u8]) {
        self.iter.seek_for_prev(key)
    }
    pub fn next(&mut self) {
        self.iter.next()
    }
    pub fn prev(&mut self) {
        self.iter.prev()
    }
    /// The current user key; valid until the iterator moves.
    pub fn key(&self) -> &[u8] {
        self.iter.key()
    }
    pub fn value(&self) -> &[u8] {
        self.iter.value()
    }
    pub fn status(&self) -> Result<()> {
        self.iter.status()
    }
}

pub(crate) fn new_iterator(
    db: &Arc<DbInner>,
    ro: &ReadOptions,
    cfd: &ColumnFamilyData,
) -> Result<DbIterator> {
    // The view first, then the sequence (see `get`).
    let sv = cfd.super_version();
    let read_seq = db.read_seq(ro);
    let ucmp = cfd.options.comparator.clone();
    let tombstones = if ro.ignore_range_deletions {
        Arc::new(FragmentedRangeTombstones::empty(ucmp.clone()))
    } else {
        let parts = db.tombstones_of(cfd, &sv)?;
        match parts.len() {
            0 => Arc::new(FragmentedRangeTombstones::empty(ucmp.clone())),
            1 => parts[0].clone(),
            _ => {
                let mut all = Vec::new();
                for f in &parts {
                    for (start, end, seqs) in f.fragments() {
                        for &seq in seqs {
                            all.push(RangeTombstone {
                                start: start.to_vec(),
                                end: end.to_vec(),
                                seq,
                            });
                        }
                    }
                }
                Arc::new(FragmentedRangeTombstones::new(all, ucmp.clone()))
            }
        }
    };
    let mut children: Vec<Box<dyn InternalIterator>> = Vec::new();
    children.push(Box::new(sv.mem.iter()));
    for imm in &sv.imms {
        children.push(Box::new(imm.iter()));
    }
    for f in sv.version.files(0) {
        let table = db.table_cache.get(f, 0, &cfd.options)?;
        children.push(Box::new(table.iter_with(ro.fill_cache)));
    }
    for level in 1..sv.version.num_levels() {
        let files: Vec<Arc<FileMetaData>> = sv.version.files(level).to_vec();
        if files.is_empty() {
            continue;
        }
        let bounds = files
            .iter()
            .map(|f| (f.smallest.clone(), f.largest.clone()))
            .collect();
        let (db2, cf_options, fill_cache) = (db.clone(), cfd.options.clone(), ro.fill_cache);
        let open: OpenFile = Box::new(move |i| {
            let table = db2.table_cache.get(&files[i], level, &cf_options)?;
            Ok(Box::new(table.iter_with(fill_cache)) as Box<dyn InternalIterator>)
        });
        children.push(Box::new(LevelIterator::new(bounds, open, cfd.icmp.clone())));
    }
    let inner: Box<dyn InternalIterator> = if children.len() == 1 {
        children.pop().expect("one child")
    } else {
        Box::new(MergingIterator::new(children, cfd.icmp.clone()))
    };
    let iter = DbIter::new(
        inner,
        cfd.icmp.clone(),
        read_seq,
        cfd.options.merge_operator.clone(),
        tombstones,
        ro.iterate_lower_bound.clone(),
        ro.iterate_upper_bound.clone(),
    );
    Ok(DbIterator {
        iter,
        _sv: sv,
        _db: db.clone(),
    })
}
