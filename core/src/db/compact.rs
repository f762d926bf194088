// SPDX-License-Identifier: Apache-2.0
//! Compaction mechanism (background path): asks the pure policy (`crate::compaction::picker`)
//! what to compact, then merges the input files into new tables at the output level and
//! installs the result (a VersionEdit). A trivial move re-files a table one level down
//! without reading it.
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

use std::sync::Arc;

use super::column_family::ColumnFamilyData;
use super::super_version::SuperVersion;
use super::DbInner;
use crate::compaction::manual::{plan_manual, ManualNext};
use crate::compaction::picker::{self, CompactionTask, FileSummary, LevelsSummary, PickerOptions};
use crate::error::{Error, Result};
use crate::fs::filename;
use crate::iter::merging::MergingIterator;
use crate::iter::InternalIterator;
use crate::key::internal_key::user_key;
use crate::key::{
    append_internal_key, parse_internal_key, SequenceNumber, ValueType, MAX_SEQUENCE_NUMBER,
};
use crate::merge::MERGE_FAILED_MESSAGE;
use crate::range_del::{FragmentedRangeTombstones, RangeTombstone};
use crate::sst::builder::{TableBuilder, TableInfo};
use crate::version::edit::{FileMetaData, VersionEdit};
use crate::version::version::Version;

impl DbInner {
    /// Runs the compactions the policy asks for, one after another, until none is needed.
    pub(crate) fn run_compactions(&self) -> Result<()> {
        loop {
            if self.closed.load(std::sync::atomic::Ordering::Acquire) {
                return Ok(());
            }
            let cfds: Vec<Arc<ColumnFamilyData>> = self.cfs.read().iter().cloned().collect();
            let mut did = false;
            for cfd in cfds {
                if cfd.options.disable_auto_compactions || cfd.is_dropped() {
                    continue;
                }
                // The summary is taken from a view that is dropped before the job runs: a
                // view held across it would keep the inputs from being deleted.
                let summary = summarize(&cfd.super_version().version);
                if let Some(task) = picker::pick(
                    &summary,
                    &PickerOptions::from_cf_options(&cfd.options),
                    cfd.options.comparator.as_ref(),
                ) {
                    self.execute_compaction(&cfd, &task)?;
                    did = true;
                }
            }
            if !did {
                return Ok(());
            }
        }
    }

    /// Manual compaction of `[begin, end]` in one column family (RocksDB's `CompactRange`):
    /// afterwards the range sits in one level and deleted data is physically gone.
    pub(crate) fn compact_range(
        &self,
        cfd: &Arc<ColumnFamilyData>,
        begin: Option<&[u8]>,
        end: Option<&[u8]>,
    ) -> Result<()> {
        let o = PickerOptions::from_cf_options(&cfd.options);
        let ucmp = cfd.options.comparator.clone();
        let mut plan = plan_manual(
            &summarize(&cfd.super_version().version),
            &o,
            begin,
            end,
            ucmp.as_ref(),
        );
        loop {
            let summary = summarize(&cfd.super_version().version);
            match plan.next_task(&summary, &o, ucmp.as_ref()) {
                ManualNext::Task(mut task) => {
                    if cfd.options.compaction_filter.is_some()
                        || cfd.options.compaction_filter_factory.is_some()
                    {
                        task.trivial_move = false; // the filter must see every value
                    }
                    self.execute_compaction(cfd, &task)?;
                }
                // Compactions run one at a time (`compaction_lock`), so a conflict cannot
                // last; the next call sees the finished state.
                ManualNext::Conflict => std::thread::yield_now(),
                ManualNext::Done => {
                    self.delete_obsolete_tables();
                    return Ok(());
                }
            }
        }
    }

    /// Executes one compaction task and installs its result.
    pub(crate) fn execute_compaction(
        &self,
        cfd: &Arc<ColumnFamilyData>,
        task: &CompactionTask,
    ) -> Result<()> {
        let _guard = self.compaction_lock.lock();
        let sv = cfd.super_version();
        let inputs: Vec<(usize, Arc<FileMetaData>)> = task
            .inputs
            .iter()
            .flat_map(|(level, numbers)| {
                let files = sv.version.files(*level);
                numbers.iter().filter_map(move |n| {
                    files
                        .iter()
                        .find(|f| f.number == *n)
                        .map(|f| (*level, f.clone()))
                })
            })
            .collect();
        if inputs.is_empty() {
            return Ok(());
        }
        let mut edit = VersionEdit {
            column_family: cfd.id,
            ..Default::default()
        };
        for (level, f) in &inputs {
            edit.deleted_files.push((*level as u32, f.number));
        }
        if task.trivial_move {
            for (_, f) in &inputs {
                edit.new_files
                    .push((task.output_level as u32, (**f).clone()));
            }
        } else {
            for meta in self.merge_files(cfd, &inputs, task)? {
                edit.new_files.push((task.output_level as u32, meta));
            }
        }
        drop(sv);
        self.install_compaction(cfd, edit, inputs)
    }

    fn install_compaction(
        &self,
        cfd: &Arc<ColumnFamilyData>,
        edit: VersionEdit,
        inputs: Vec<(usize, Arc<FileMetaData>)>,
    ) -> Result<()> {
        let mut vs = self.versions.lock();
        self.sync_last_sequence(&mut vs);
        vs.log_and_apply(edit.clone())?;
        let sv = cfd.super_version();
        cfd.install(SuperVersion::new(
            sv.mem.clone(),
            sv.imms.clone(),
            Arc::new(sv.version.apply(&edit)),
        ));
        drop(vs);
        drop(sv);
        // Inputs that left the version are deleted once no reader holds a view naming them.
        let moved: std::collections::HashSet<u64> =
            edit.new_files.iter().map(|(_, f)| f.number).collect();
        for (_, f) in inputs {
            if !moved.contains(&f.number) {
                self.obsolete_tables.lock().push(f);
            }
        }
        self.delete_obsolete_tables();
        Ok(())
    }

    /// Deletes table files that are in no version any reader can still hold.
    pub(crate) fn delete_obsolete_tables(&self) {
        if self
            .deletions_disabled
            .load(std::sync::atomic::Ordering::Acquire)
            > 0
        {
            return;
        }
        let mut pending = self.obsolete_tables.lock();
        pending.retain(|f| {
            // The version set's own reference plus ours: nobody else can reach it.
            if Arc::strong_count(f) > 1 {
                return true;
            }
            self.table_cache.evict(f.number);
            let _ = self
                .fs
                .remove_file(&filename::table_file(&self.path, f.number));
            false
        });
    }

    /// Merges `inputs` into new tables; returns their metadata (output-level order).
    fn merge_files(
        &self,
        cfd: &Arc<ColumnFamilyData>,
        inputs: &[(usize, Arc<FileMetaData>)],
        task: &CompactionTask,
    ) -> Result<Vec<FileMetaData>> {
        let ucmp = cfd.options.comparator.clone();
        let mut children: Vec<Box<dyn InternalIterator>> = Vec::new();
        let mut tombstones: Vec<RangeTombstone> = Vec::new();
        for (_, f) in inputs {
            let table = self.table_cache.get(f, &cfd.options)?;
            tombstones.extend(table.range_tombstones().iter().cloned());
            children.push(Box::new(table.iter_with(false)));
        }
        let mut input = MergingIterator::new(children, cfd.icmp.clone());
        let snapshots = self.snapshots.all();
        let earliest = snapshots.first().copied().unwrap_or(MAX_SEQUENCE_NUMBER);
        let frag = FragmentedRangeTombstones::new(tombstones.clone(), ucmp.clone());
        // At the bottom, a tombstone every reader sees has done its work: the data it
        // deletes is dropped below and nothing older lies deeper.
        let kept_tombstones: Vec<RangeTombstone> = tombstones
            .into_iter()
            .filter(|t| !(task.bottommost && t.seq <= earliest))
            .filter(|t| ucmp.compare(&t.start, &t.end).is_lt())
            .collect();
        let single_output = !kept_tombstones.is_empty();
        let mut out = Outputs::new(self, cfd, task, single_output)?;
        for t in &kept_tombstones {
            out.tombstone(t)?;
        }
        let merge_op = cfd.options.merge_operator.clone();
        let filter = cfd.compaction_filter(task);
        // The largest user key of the inputs keeps its sequence numbers (RocksDB's rule: its
        // versions may continue in a neighbouring file outside this compaction).
        let largest_user_key: &[u8] = inputs
            .iter()
            .map(|(_, f)| user_key(&f.largest))
            .max_by(|a, b| cfd.icmp.compare_user(a, b))
            .unwrap_or(&[]);
        input.seek_to_first();
        // The entries of one user key, newest first, gathered before deciding.
        let mut group: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
        loop {
            let next_user_key_differs = match (input.valid(), group.first()) {
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
                    &snapshots,
                    earliest,
                    &frag,
                    task.bottommost,
                    merge_op.as_deref(),
                    filter.as_deref(),
                    task.output_level,
                )?;
                for (mut k, v) in kept {
                    if task.bottommost {
                        zero_sequence_at_bottom(&mut k, earliest, largest_user_key, &cfd.icmp);
                    }
                    out.add(&k, &v)?;
                }
            }
            if !input.valid() {
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
fn stripe(snapshots: &[SequenceNumber], seq: SequenceNumber) -> usize {
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
}

impl<'a> Outputs<'a> {
    fn new(
        db: &'a DbInner,
        cfd: &'a Arc<ColumnFamilyData>,
        task: &CompactionTask,
        single: bool,
    ) -> Result<Self> {
        Ok(Outputs {
            db,
            cfd,
            level: task.output_level,
            target: task.target_file_size.max(1),
            single,
            builder: None,
            last_user_key: Vec::new(),
            done: Vec::new(),
            pending_tombstones: Vec::new(),
        })
    }

    fn open(&mut self) -> Result<()> {
        let number = self.db.versions.lock().new_file_number();
        let path = filename::table_file(&self.db.path, number);
        let opts = self.db.table_builder_options(self.cfd, self.level);
        let mut b = TableBuilder::new(opts, self.db.fs.new_writable(&path)?)?;
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
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        self.done.push(FileMetaData {
            number,
            file_size: info.file_size,
            smallest: info.smallest,
            largest: info.largest,
            smallest_seqno: info.smallest_seqno,
            largest_seqno: info.largest_seqno,
            oldest_ancester_time: now,
            file_creation_time: now,
            ..Default::default()
        });
        Ok(())
    }

    fn finish(mut self) -> Result<Vec<FileMetaData>> {
        if self.builder.is_none() && !self.pending_tombstones.is_empty() {
            self.open()?;
        }
        self.close()?;
        Ok(self.done)
    }
}

/// The policy's view of a version.
pub(crate) fn summarize(v: &Version) -> LevelsSummary {
    LevelsSummary::new(
        (0..v.num_levels())
            .map(|l| {
                v.files(l)
                    .iter()
                    .map(|f| FileSummary {
                        number: f.number,
                        size: f.file_size,
                        smallest: user_key(&f.smallest).to_vec(),
                        largest: user_key(&f.largest).to_vec(),
                        smallest_seqno: f.smallest_seqno,
                        largest_seqno: f.largest_seqno,
                        being_compacted: false,
                        num_entries: 0,
                        num_deletions: 0,
                    })
                    .collect()
            })
            .collect(),
    )
}
