// SPDX-License-Identifier: Apache-2.0
//! The compaction job (background path): merges a task's input tables into new tables at
//! the output level. Scheduling, registration and installing the result live in
//! `db::compact`; this file owns what happens to the entries.
//!
//! What a merge keeps (RocksDB's `CompactionIterator`, simplified):
//! - Live snapshots cut the sequence space into stripes; of several versions of a key in one
//!   stripe only the newest can be read by anybody, so the older ones are dropped.
//! - An entry covered by a range tombstone of the same stripe is dropped.
//! - Merge operands are folded into their base value (full merge) when the base is in the
//!   same stripe, or when the output is the bottommost level and nothing lies below.
//! - A deletion in the oldest stripe is dropped when the output is the bottommost level.
//! - The compaction filter runs only while no snapshot exists (or with `ignore_snapshots`),
//!   as RocksDB 7.8.3 does; "remove" turns the value into
//!   a deletion (older versions below stay hidden), "change" replaces it.
//! - Range tombstones are carried into the output unless the output is the bottommost level
//!   and no snapshot can see what they delete. While any are carried, the compaction writes
//!   a single output file so that its key range covers every tombstone.
//!
//! Two shortcuts:
//! - **Covered inputs are dropped unread.** Inputs are opened newest first. An input whose
//!   whole key range lies under one range tombstone of a newer input, with the tombstone's
//!   sequence number above every key of the file and no live snapshot at or above the
//!   file's smallest sequence number and below the tombstone's, holds nothing any reader can
//!   see (and its own tombstones are subsumed by the newer one): it is neither opened nor
//!   read, and leaves the version with the other inputs.
//! - **Subcompactions.** A compaction from L0 into a lower level, or a manual one, may split
//!   its key range into up to `max_subcompactions` ranges at input file boundaries, balanced
//!   by input bytes, and merge them on that many threads; each range writes its own output
//!   files and the caller installs all of them in one VersionEdit. A range never splits a
//!   user key (ranges are cut between user keys). Not split: compactions that carry range
//!   tombstones (their single output must cover every tombstone), and those whose inputs
//!   fill fewer than two output files.

use std::sync::atomic::Ordering as AtomicOrdering;
use std::sync::Arc;

use super::column_family::ColumnFamilyData;
use super::DbInner;
use crate::compaction::picker::{CompactionReason, CompactionTask};
use crate::error::{Error, Result};
use crate::fs::filename;
use crate::iter::merging::MergingIterator;
use crate::iter::InternalIterator;
use crate::key::internal_key::user_key;
use crate::key::{
    append_internal_key, parse_internal_key, Comparator, SequenceNumber, ValueType,
    MAX_SEQUENCE_NUMBER, VALUE_TYPE_FOR_SEEK,
};
use crate::merge::MERGE_FAILED_MESSAGE;
use crate::range_del::{FragmentedRangeTombstones, RangeTombstone};
use crate::sst::builder::{TableBuilder, TableInfo};
use crate::sst::reader::Table;
use crate::version::edit::FileMetaData;

/// How many input entries a compaction merges between two looks at whether the DB is
/// closing (RocksDB's compaction iterator checks its `shutting_down` flag on every key; a
/// relaxed load every 1,024 costs nothing measurable and ends a close's wait within
/// about a millisecond of merging).
const STOP_CHECK_EVERY: u32 = 1024;

/// A user key and the input bytes at or below it (see [`subcompaction_boundaries`]).
type Anchor = (Vec<u8>, u64);

/// RocksDB's `min_file_fill_percent` in `GenSubcompactionBoundaries`: a range should fill at
/// least this share of an output file.
const MIN_FILE_FILL: f64 = 0.8;

/// Everything one merge needs besides its key range.
struct MergeContext<'a> {
    cfd: &'a Arc<ColumnFamilyData>,
    task: &'a CompactionTask,
    tables: &'a [Arc<Table>],
    snapshots: &'a [SequenceNumber],
    earliest: SequenceNumber,
    tombstones: &'a FragmentedRangeTombstones,
    kept_tombstones: &'a [RangeTombstone],
    /// The largest user key of the inputs: it keeps its sequence numbers at the bottom.
    largest_user_key: &'a [u8],
}

/// Does a tombstone of `tombstones` make `f` invisible to every reader?
fn covered_by_tombstone(
    f: &FileMetaData,
    tombstones: &[RangeTombstone],
    snapshots: &[SequenceNumber],
    ucmp: &dyn Comparator,
) -> bool {
    let lo = user_key(&f.smallest);
    let hi = user_key(&f.largest);
    tombstones.iter().any(|t| {
        t.seq > f.largest_seqno
            && ucmp.compare(&t.start, lo).is_le()
            && ucmp.compare(hi, &t.end).is_lt()
            && !snapshots
                .iter()
                .any(|&s| s >= f.smallest_seqno && s < t.seq)
    })
}

/// Up to `max - 1` user keys that cut the inputs into ranges of similar input bytes.
/// `anchors` are (user key, bytes) pairs: every byte counted at a key belongs to entries at
/// or below it (data blocks at their index separators, or whole files at their largest
/// keys). A cut is placed once a range holds its share; a cut key starts the next range.
pub(crate) fn subcompaction_boundaries(
    anchors: &[Anchor],
    max: usize,
    ucmp: &dyn Comparator,
) -> Vec<Vec<u8>> {
    if max < 2 || anchors.len() < 2 {
        return Vec::new();
    }
    let mut by_key: Vec<&Anchor> = anchors.iter().collect();
    by_key.sort_by(|a, b| ucmp.compare(&a.0, &b.0));
    let total: u64 = by_key.iter().map(|(_, s)| *s).sum();
    let share = total / max as u64;
    let mut cuts: Vec<Vec<u8>> = Vec::new();
    let mut acc = 0u64;
    // The last key ends the last range; it cannot start a new one.
    let last = by_key.last().map(|(k, _)| k.clone()).unwrap_or_default();
    for (k, size) in by_key {
        acc += size;
        if cuts.len() + 1 >= max {
            break;
        }
        if acc >= share.max(1) && ucmp.compare(k, &last).is_lt() {
            // Keys above this file's largest start the next range.
            let mut cut = k.clone();
            cut.push(0);
            if cuts.last().is_none_or(|c| ucmp.compare(c, &cut).is_lt()) {
                cuts.push(cut);
            }
            acc = 0;
        }
    }
    cuts
}

impl DbInner {
    /// Merges `inputs` into new tables; returns their metadata (output-level order) and the
    /// inputs' numbers that were dropped unread.
    pub(crate) fn merge_files(
        &self,
        cfd: &Arc<ColumnFamilyData>,
        inputs: &[(usize, Arc<FileMetaData>)],
        task: &CompactionTask,
    ) -> Result<Vec<FileMetaData>> {
        let ucmp = cfd.options.comparator.clone();
        let snapshots = self.snapshots.all();
        let earliest = snapshots.first().copied().unwrap_or(MAX_SEQUENCE_NUMBER);
        // Newest first, so that a tombstone is known before the files it may cover.
        let mut order: Vec<&(usize, Arc<FileMetaData>)> = inputs.iter().collect();
        order.sort_by_key(|(_, f)| std::cmp::Reverse(f.largest_seqno));
        let mut tables: Vec<Arc<Table>> = Vec::new();
        let mut tombstones: Vec<RangeTombstone> = Vec::new();
        let mut read_files: Vec<Anchor> = Vec::new();
        for (level, f) in order {
            if covered_by_tombstone(f, &tombstones, &snapshots, ucmp.as_ref()) {
                self.stats
                    .files_dropped_by_range_tombstone
                    .fetch_add(1, AtomicOrdering::Relaxed);
                continue;
            }
            let table = self.table_cache.get(f, *level, &cfd.options)?;
            tombstones.extend(table.range_tombstones().iter().cloned());
            self.stats
                .compact_read_bytes
                .fetch_add(f.file_size, AtomicOrdering::Relaxed);
            read_files.push((user_key(&f.largest).to_vec(), f.file_size));
            tables.push(table);
        }
        let frag = FragmentedRangeTombstones::new(tombstones.clone(), ucmp.clone());
        // At the bottom, a tombstone every reader sees has done its work: the data it
        // deletes is dropped below and nothing older lies deeper.
        let kept_tombstones: Vec<RangeTombstone> = tombstones
            .into_iter()
            .filter(|t| !(task.bottommost && t.seq <= earliest))
            .filter(|t| ucmp.compare(&t.start, &t.end).is_lt())
            .collect();
        // The largest user key of the inputs keeps its sequence numbers (RocksDB's rule: its
        // versions may continue in a neighbouring file outside this compaction).
        let largest_user_key: &[u8] = inputs
            .iter()
            .map(|(_, f)| user_key(&f.largest))
            .max_by(|a, b| cfd.icmp.compare_user(a, b))
            .unwrap_or(&[]);
        let ctx = MergeContext {
            cfd,
            task,
            tables: &tables,
            snapshots: &snapshots,
            earliest,
            tombstones: &frag,
            kept_tombstones: &kept_tombstones,
            largest_user_key,
        };
        let may_split = kept_tombstones.is_empty()
            && ((task.start_level == 0 && task.output_level > 0)
                || task.reason == CompactionReason::ManualCompaction);
        let input_bytes: u64 = read_files.iter().map(|(_, s)| s).sum();
        let max_outputs =
            (input_bytes as f64 / MIN_FILE_FILL / task.target_file_size.max(1) as f64).ceil();
        let max_subs = usize::try_from(self.options.max_subcompactions)
            .unwrap_or(1)
            .min(max_outputs as usize);
        let cuts = if may_split && max_subs > 1 {
            // Cut at data block boundaries, weighted by block bytes; without them (a bad
            // index), at the files' largest keys.
            let anchors: Result<Vec<Vec<Anchor>>> =
                tables.iter().map(|t| t.data_block_anchors()).collect();
            let anchors = anchors.map_or_else(|_| read_files.clone(), |a| a.concat());
            subcompaction_boundaries(&anchors, max_subs, ucmp.as_ref())
        } else {
            Vec::new()
        };
        if cuts.is_empty() {
            return self.merge_range(&ctx, None, None);
        }
        let mut bounds: Vec<Option<&[u8]>> = vec![None];
        bounds.extend(cuts.iter().map(|c| Some(c.as_slice())));
        bounds.push(None);
        self.stats
            .subcompactions
            .fetch_add(bounds.len() as u64 - 1, AtomicOrdering::Relaxed);
        let results: Vec<Result<Vec<FileMetaData>>> = std::thread::scope(|s| {
            let handles: Vec<_> = bounds
                .windows(2)
                .map(|w| {
                    let (lo, hi) = (w[0], w[1]);
                    let ctx = &ctx;
                    s.spawn(move || self.merge_range(ctx, lo, hi))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err(Error::aborted("panic in a subcompaction")))
                })
                .collect()
        });
        let mut out = Vec::new();
        let mut first_err = None;
        for r in results {
            match r {
                Ok(files) => out.extend(files),
                Err(e) => {
                    first_err.get_or_insert(e);
                }
            }
        }
        if let Some(e) = first_err {
            // The outputs are in no version: remove them.
            for f in &out {
                let _ = self
                    .fs
                    .remove_file(&filename::table_file(&self.path, f.number));
            }
            return Err(e);
        }
        Ok(out)
    }

    /// Merges the entries with user keys in `[lo, hi)` (None = unbounded) into new tables.
    fn merge_range(
        &self,
        ctx: &MergeContext<'_>,
        lo: Option<&[u8]>,
        hi: Option<&[u8]>,
    ) -> Result<Vec<FileMetaData>> {
        let cfd = ctx.cfd;
        let task = ctx.task;
        let children: Vec<Box<dyn InternalIterator>> = ctx
            .tables
            .iter()
            .map(|t| Box::new(t.iter_with(false)) as Box<dyn InternalIterator>)
            .collect();
        let mut input = MergingIterator::new(children, cfd.icmp.clone());
        let single_output = !ctx.kept_tombstones.is_empty();
        let mut out = Outputs::new(self, cfd, task, single_output);
        for t in ctx.kept_tombstones {
            out.tombstone(t)?;
        }
        let merge_op = cfd.options.merge_operator.clone();
        let filter = cfd.compaction_filter(task);
        match lo {
            Some(lo) => {
                let mut target = Vec::with_capacity(lo.len() + 8);
                append_internal_key(&mut target, lo, MAX_SEQUENCE_NUMBER, VALUE_TYPE_FOR_SEEK);
                input.seek(&target);
            }
            None => input.seek_to_first(),
        }
        let in_range =
            |ikey: &[u8]| hi.is_none_or(|h| cfd.icmp.compare_user(user_key(ikey), h).is_lt());
        // The entries of one user key, newest first, gathered before deciding.
        let mut group: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
        let mut since_stop_check = 0u32;
        loop {
            since_stop_check += 1;
            if since_stop_check == STOP_CHECK_EVERY {
                since_stop_check = 0;
                if self.background.is_stopping() {
                    // `out` deletes the files it created when dropped unfinished.
                    return Err(Error::shutdown_in_progress("Database shutdown"));
                }
            }
            let valid = input.valid() && in_range(input.key());
            let next_user_key_differs = match (valid, group.first()) {
                (true, Some((k, _))) => cfd
                    .icmp
                    .compare_user(user_key(k), user_key(input.key()))
                    .is_ne(),
                (true, None) => false,
                (false, _) => true,
            };
            if next_user_key_differs && !group.is_empty() {
                let entries = std::mem::take(&mut group);
                let kept = gc_key(
                    &entries,
                    ctx.snapshots,
                    ctx.earliest,
                    ctx.tombstones,
                    task.bottommost,
                    merge_op.as_deref(),
                    filter.as_deref(),
                    task.output_level,
                )?;
                for (mut k, v) in kept {
                    if task.bottommost {
                        zero_sequence_at_bottom(
                            &mut k,
                            ctx.earliest,
                            ctx.largest_user_key,
                            &cfd.icmp,
                        );
                    }
                    out.add(&k, &v)?;
                }
            }
            if !valid {
                break;
            }
            group.push((input.key().to_vec(), input.value().to_vec()));
            input.next();
        }
        input.status()?;
        out.finish()
    }
}

/// At the bottom of the tree, a Put that every reader sees (sequence at or below the oldest
/// snapshot) is written with sequence 0, as RocksDB's compaction does: nothing older can
/// exist below it, so its sequence tells no reader anything, and zeros compress (a smaller
/// table, less to write and read). Merges keep theirs; deletions that old are dropped
/// before they get here; so does the inputs' largest user key (see the caller).
fn zero_sequence_at_bottom(
    ikey: &mut [u8],
    earliest: SequenceNumber,
    largest_user_key: &[u8],
    icmp: &crate::key::InternalKeyComparator,
) {
    let Ok(p) = parse_internal_key(ikey) else {
        return;
    };
    if p.value_type != ValueType::Value
        || p.sequence == 0
        || p.sequence > earliest
        || icmp.compare_user(p.user_key, largest_user_key).is_eq()
    {
        return;
    }
    let n = ikey.len();
    ikey[n - 8..]
        .copy_from_slice(&crate::key::pack_seq_and_type(0, ValueType::Value).to_le_bytes());
}

/// Which snapshot stripe `seq` falls in: 0 below (or at) the oldest snapshot, and so on.
pub(super) fn stripe(snapshots: &[SequenceNumber], seq: SequenceNumber) -> usize {
    snapshots.partition_point(|s| *s < seq)
}

/// The highest sequence number a reader of `seq`'s stripe can read at.
fn stripe_ceiling(snapshots: &[SequenceNumber], seq: SequenceNumber) -> SequenceNumber {
    snapshots
        .get(stripe(snapshots, seq))
        .copied()
        .unwrap_or(MAX_SEQUENCE_NUMBER)
}

/// Decides what survives of one user key's entries (`entries` newest first).
#[expect(
    clippy::too_many_arguments,
    reason = "one call site; the inputs are the compaction's context"
)]
fn gc_key(
    entries: &[(Vec<u8>, Vec<u8>)],
    snapshots: &[SequenceNumber],
    earliest: SequenceNumber,
    tombstones: &FragmentedRangeTombstones,
    bottommost: bool,
    merge_op: Option<&dyn crate::merge::MergeOperator>,
    filter: Option<&dyn crate::compaction::filter::CompactionFilter>,
    level: usize,
) -> Result<Vec<(Vec<u8>, Vec<u8>)>> {
    let mut out: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
    let mut last_stripe: Option<usize> = None;
    let mut i = 0;
    while i < entries.len() {
        let (ikey, value) = &entries[i];
        let p = parse_internal_key(ikey)?;
        let s = stripe(snapshots, p.sequence);
        if last_stripe == Some(s) {
            i += 1; // hidden by a newer entry of the same stripe
            continue;
        }
        let covering =
            tombstones.max_covering_seq(p.user_key, stripe_ceiling(snapshots, p.sequence));
        if covering > p.sequence {
            // Deleted by a tombstone every reader of this stripe sees: a deletion in effect.
            last_stripe = Some(s);
            i += 1;
            continue;
        }
        match p.value_type {
            ValueType::Deletion | ValueType::SingleDeletion => {
                last_stripe = Some(s);
                if !(bottommost && p.sequence <= earliest) {
                    out.push((ikey.clone(), value.clone()));
                }
                i += 1;
            }
            ValueType::Merge => {
                // Gather the operands of this stripe (newest first), then look at what ends them.
                let mut operands: Vec<&[u8]> = Vec::new();
                let mut j = i;
                let mut base: Option<Option<&[u8]>> = None; // Some(None) = deleted base
                while j < entries.len() {
                    let q = parse_internal_key(&entries[j].0)?;
                    if stripe(snapshots, q.sequence) != s {
                        break;
                    }
                    let covered = tombstones
                        .max_covering_seq(q.user_key, stripe_ceiling(snapshots, q.sequence))
                        > q.sequence;
                    match q.value_type {
                        _ if covered => {
                            base = Some(None);
                            break;
                        }
                        ValueType::Merge => operands.push(&entries[j].1),
                        ValueType::Value => {
                            base = Some(Some(&entries[j].1));
                            break;
                        }
                        ValueType::Deletion | ValueType::SingleDeletion => {
                            base = Some(None);
                            break;
                        }
                        _ => break,
                    }
                    j += 1;
                }
                let reached_end = j >= entries.len();
                let fold = match (base, merge_op) {
                    (Some(b), Some(op)) => Some((b, op)),
                    (None, Some(op)) if reached_end && bottommost => Some((None, op)),
                    _ => None,
                };
                match fold {
                    Some((b, op)) => {
                        let oldest_first: Vec<&[u8]> = operands.iter().rev().copied().collect();
                        let merged = op
                            .full_merge(p.user_key, b, &oldest_first)
                            .ok_or_else(|| Error::corruption(MERGE_FAILED_MESSAGE))?;
                        let mut k = Vec::with_capacity(ikey.len());
                        append_internal_key(&mut k, p.user_key, p.sequence, ValueType::Value);
                        out.push((k, merged));
                        last_stripe = Some(s);
                        // Skip the operands and the base they consumed.
                        i = if base.is_some() { j + 1 } else { j };
                    }
                    None => {
                        for (k, v) in &entries[i..i + operands.len()] {
                            out.push((k.clone(), v.clone()));
                        }
                        i += operands.len();
                        // The base (if any, of another stripe) is decided on its own.
                        last_stripe = None;
                        if i < entries.len()
                            && stripe(snapshots, parse_internal_key(&entries[i].0)?.sequence) == s
                        {
                            last_stripe = Some(s);
                        }
                    }
                }
            }
            ValueType::Value => {
                last_stripe = Some(s);
                let mut v = value.clone();
                let mut t = ValueType::Value;
                if let Some(f) = filter {
                    if earliest == MAX_SEQUENCE_NUMBER || f.ignore_snapshots() {
                        match f.filter(level, p.user_key, value) {
                            crate::compaction::filter::Decision::Keep => {}
                            crate::compaction::filter::Decision::Remove => {
                                t = ValueType::Deletion;
                                v.clear();
                            }
                            crate::compaction::filter::Decision::ChangeValue(nv) => v = nv,
                        }
                    }
                }
                if t == ValueType::Deletion && bottommost && p.sequence <= earliest {
                    i += 1;
                    continue;
                }
                let mut k = Vec::with_capacity(ikey.len());
                append_internal_key(&mut k, p.user_key, p.sequence, t);
                out.push((k, v));
                i += 1;
            }
            _ => {
                last_stripe = Some(s);
                out.push((ikey.clone(), value.clone()));
                i += 1;
            }
        }
    }
    Ok(out)
}

/// The output tables of one compaction, cut at `target_file_size` between user keys.
struct Outputs<'a> {
    db: &'a DbInner,
    cfd: &'a Arc<ColumnFamilyData>,
    level: usize,
    target: u64,
    single: bool,
    builder: Option<(u64, TableBuilder)>,
    last_user_key: Vec<u8>,
    done: Vec<FileMetaData>,
    pending_tombstones: Vec<RangeTombstone>,
    /// Every table file this output stream created; deleted on drop unless `finish`
    /// succeeded (nothing names them before the result is installed).
    created: Vec<u64>,
    finished: bool,
}

impl Drop for Outputs<'_> {
    fn drop(&mut self) {
        if !self.finished {
            for number in &self.created {
                let _ = self
                    .db
                    .fs
                    .remove_file(&filename::table_file(&self.db.path, *number));
            }
        }
    }
}

impl<'a> Outputs<'a> {
    fn new(
        db: &'a DbInner,
        cfd: &'a Arc<ColumnFamilyData>,
        task: &CompactionTask,
        single: bool,
    ) -> Self {
        Outputs {
            db,
            cfd,
            level: task.output_level,
            target: task.target_file_size.max(1),
            single,
            builder: None,
            last_user_key: Vec::new(),
            done: Vec::new(),
            pending_tombstones: Vec::new(),
            created: Vec::new(),
            finished: false,
        }
    }

    fn open(&mut self) -> Result<()> {
        let number = self.db.versions.lock().new_file_number();
        self.created.push(number);
        let path = filename::table_file(&self.db.path, number);
        let opts = self.db.table_builder_options(self.cfd, self.level);
        let mut b = TableBuilder::new(opts, self.db.new_table_writer(&path)?)?;
        for t in self.pending_tombstones.drain(..) {
            b.add_range_tombstone(&t.start, &t.end, t.seq)?;
        }
        self.builder = Some((number, b));
        Ok(())
    }

    fn tombstone(&mut self, t: &RangeTombstone) -> Result<()> {
        match &mut self.builder {
            Some((_, b)) => b.add_range_tombstone(&t.start, &t.end, t.seq),
            None => {
                self.pending_tombstones.push(t.clone());
                Ok(())
            }
        }
    }

    fn add(&mut self, ikey: &[u8], value: &[u8]) -> Result<()> {
        let uk = user_key(ikey);
        let cut = !self.single
            && self
                .builder
                .as_ref()
                .is_some_and(|(_, b)| b.file_size() >= self.target)
            && self.cfd.icmp.compare_user(uk, &self.last_user_key).is_ne();
        if cut {
            self.close()?;
        }
        if self.builder.is_none() {
            self.open()?;
        }
        if let Some((_, b)) = &mut self.builder {
            b.add(ikey, value)?;
        }
        self.last_user_key.clear();
        self.last_user_key.extend_from_slice(uk);
        Ok(())
    }

    fn close(&mut self) -> Result<()> {
        let Some((number, b)) = self.builder.take() else {
            return Ok(());
        };
        let info: TableInfo = b.finish()?;
        let path = filename::table_file(&self.db.path, number);
        if info.num_entries == 0 && info.num_range_deletions == 0 {
            let _ = self.db.fs.remove_file(&path);
            return Ok(());
        }
        self.db.fs.reopen_writable(&path)?.sync()?;
        self.db
            .stats
            .compact_write_bytes
            .fetch_add(info.file_size, AtomicOrdering::Relaxed);
        self.done
            .push(super::table_file::new_table_meta(number, info));
        Ok(())
    }

    fn finish(mut self) -> Result<Vec<FileMetaData>> {
        if self.builder.is_none() && !self.pending_tombstones.is_empty() {
            self.open()?;
        }
        self.close()?;
        if !self.done.is_empty() {
            // The outputs' names must be durable before the MANIFEST names them.
            self.db.fs.sync_dir(&self.db.path)?;
        }
        self.finished = true;
        Ok(std::mem::take(&mut self.done))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::BytewiseComparator;

    fn files(list: &[(&str, u64)]) -> Vec<(Vec<u8>, u64)> {
        list.iter()
            .map(|(k, s)| (k.as_bytes().to_vec(), *s))
            .collect()
    }

    #[test]
    fn boundaries_balance_bytes_and_never_cut_at_the_last_key() {
        let c = BytewiseComparator;
        let f = files(&[("d", 10), ("b", 10), ("h", 10), ("f", 10)]);
        // Sorted by key: b d f h; two ranges of 20 bytes each: cut after d.
        assert_eq!(subcompaction_boundaries(&f, 2, &c), vec![b"d\0".to_vec()]);
        assert_eq!(
            subcompaction_boundaries(&f, 4, &c),
            vec![b"b\0".to_vec(), b"d\0".to_vec(), b"f\0".to_vec()]
        );
        // Asking for more ranges than files gives one range per file at most.
        assert_eq!(subcompaction_boundaries(&f, 9, &c).len(), 3);
        assert!(subcompaction_boundaries(&f, 1, &c).is_empty());
        assert!(subcompaction_boundaries(&f[..1], 4, &c).is_empty());
        // Equal largest keys (the same key range in two levels) give one cut, not two.
        let f = files(&[("m", 10), ("m", 10), ("z", 1)]);
        assert_eq!(subcompaction_boundaries(&f, 3, &c), vec![b"m\0".to_vec()]);
    }

    fn meta(lo: &str, hi: &str, seqs: (u64, u64)) -> FileMetaData {
        let mut smallest = Vec::new();
        append_internal_key(&mut smallest, lo.as_bytes(), seqs.0, ValueType::Value);
        let mut largest = Vec::new();
        append_internal_key(&mut largest, hi.as_bytes(), seqs.1, ValueType::Value);
        FileMetaData {
            smallest,
            largest,
            smallest_seqno: seqs.0,
            largest_seqno: seqs.1,
            ..Default::default()
        }
    }

    #[test]
    fn coverage_needs_range_seq_and_no_snapshot_between() {
        let c = BytewiseComparator;
        let t = |s: &str, e: &str, seq| RangeTombstone {
            start: s.as_bytes().to_vec(),
            end: e.as_bytes().to_vec(),
            seq,
        };
        let f = meta("c", "m", (10, 20));
        assert!(covered_by_tombstone(&f, &[t("a", "z", 30)], &[], &c));
        assert!(covered_by_tombstone(&f, &[t("c", "n", 30)], &[], &c));
        // The end is exclusive: a tombstone ending at the file's largest key misses it.
        assert!(!covered_by_tombstone(&f, &[t("a", "m", 30)], &[], &c));
        assert!(!covered_by_tombstone(&f, &[t("d", "z", 30)], &[], &c));
        // Not newer than every key of the file.
        assert!(!covered_by_tombstone(&f, &[t("a", "z", 20)], &[], &c));
        // A snapshot between the file's keys and the tombstone still reads the file.
        assert!(!covered_by_tombstone(&f, &[t("a", "z", 30)], &[15], &c));
        assert!(!covered_by_tombstone(&f, &[t("a", "z", 30)], &[25], &c));
        // Snapshots older than the file, or at/after the tombstone, do not.
        assert!(covered_by_tombstone(
            &f,
            &[t("a", "z", 30)],
            &[5, 30, 40],
            &c
        ));
    }
}
