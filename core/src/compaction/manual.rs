// SPDX-License-Identifier: Apache-2.0
//! Manual compaction policy (`CompactRange`): the levels to push a key range through and,
//! step by step, the files of each step (background path; pure, no I/O).
//!
//! Like RocksDB 7.8.3's `DBImpl::CompactRangeInternal` with default `CompactRangeOptions`
//! (`bottommost_level_compaction = kIfHaveCompactionFilter`, no compaction filter): the
//! levels overlapping `[begin, end]` are found once, up front; then each of them, from the
//! first to the one before the last, is compacted into the next (L0 into the base level when
//! dynamic level bytes is on). The last overlapping level is the destination and is not
//! rewritten. When everything is in L0, L0 goes to L1 (or the base level).
//!
//! Each step is picked against the version *as it is then* (the previous step's outputs are
//! in place), so the driver is incremental: [`ManualCompaction::next_task`] after applying
//! each task. A step whose inputs exceed `max_compaction_bytes` is split: the task covers a
//! prefix and the next call resumes after it.

use super::picker::{
    CompactionReason, CompactionTask, Inputs, LevelsSummary, Picker, PickerOptions,
};
use crate::key::Comparator;

/// Where a manual step writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ManualOutput {
    Level(usize),
    /// The base level at the time the step runs (L0 with dynamic level bytes).
    BaseLevel,
}

/// One level of a manual compaction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ManualStep {
    pub input_level: usize,
    pub output: ManualOutput,
}

/// What to do next in a manual compaction.
#[derive(Clone, Debug, PartialEq)]
pub enum ManualNext {
    /// Run this, install its result, then call `next_task` again.
    Task(CompactionTask),
    /// Files the step needs are being compacted; call again once a compaction finishes.
    Conflict,
    /// The range now sits in one level.
    Done,
}

/// The state of one `CompactRange` call on one column family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManualCompaction {
    begin: Option<Vec<u8>>,
    end: Option<Vec<u8>>,
    steps: Vec<ManualStep>,
    next_step: usize,
    /// Where the current step resumes after a partial (size-capped) task.
    resume: Option<Vec<u8>>,
}

/// Plans a manual compaction of `[begin, end]` (`None` = unbounded): which levels, in which
/// order. Files are chosen by [`ManualCompaction::next_task`].
pub fn plan_manual(
    v: &LevelsSummary,
    o: &PickerOptions,
    begin: Option<&[u8]>,
    end: Option<&[u8]>,
    comparator: &dyn Comparator,
) -> ManualCompaction {
    let p = Picker::new(v, o, comparator);
    let mut steps = Vec::new();
    let overlapping: Vec<usize> = (0..p.n)
        .filter(|&l| v.files(l).iter().any(|f| p.file_overlaps(f, begin, end)))
        .collect();
    if let (Some(&first), Some(&last), true) = (overlapping.first(), overlapping.last(), p.n > 1) {
        for level in first..=last {
            if level == last && level > 0 {
                continue; // the destination: not rewritten without a compaction filter
            }
            let output = if level == 0 && o.level_compaction_dynamic_level_bytes {
                ManualOutput::BaseLevel
            } else {
                ManualOutput::Level(level + 1)
            };
            steps.push(ManualStep {
                input_level: level,
                output,
            });
        }
    }
    ManualCompaction {
        begin: begin.map(<[u8]>::to_vec),
        end: end.map(<[u8]>::to_vec),
        steps,
        next_step: 0,
        resume: None,
    }
}

impl ManualCompaction {
    /// The levels this compaction goes through, fixed when planned.
    pub fn steps(&self) -> &[ManualStep] {
        &self.steps
    }

    /// The next task against the current version `v`. Apply each returned task (install
    /// its VersionEdit) before calling again.
    ///
    /// NOTE: a returned task may be a trivial move. With a compaction filter configured,
    /// RocksDB rewrites instead; the job should then ignore `trivial_move` for manual tasks.
    pub fn next_task(
        &mut self,
        v: &LevelsSummary,
        o: &PickerOptions,
        comparator: &dyn Comparator,
    ) -> ManualNext {
        let p = Picker::new(v, o, comparator);
        while let Some(&step) = self.steps.get(self.next_step) {
            let lo = self.resume.as_deref().or(self.begin.as_deref());
            match pick_step(&p, step, lo, self.end.as_deref()) {
                Err(Conflict) => return ManualNext::Conflict,
                Ok(None) => {
                    self.next_step += 1;
                    self.resume = None;
                }
                Ok(Some((task, resume))) => {
                    if resume.is_none() {
                        self.next_step += 1;
                    }
                    self.resume = resume;
                    return ManualNext::Task(task);
                }
            }
        }
        ManualNext::Done
    }
}

struct Conflict;

/// A step's task and, when the step was cut short, the key to resume from.
type StepTask = (CompactionTask, Option<Vec<u8>>);

/// One step's task (RocksDB `CompactionPicker::CompactRange`), with the key to resume from
/// when the step was cut short by `max_compaction_bytes`.
fn pick_step(
    p: &Picker<'_>,
    step: ManualStep,
    lo: Option<&[u8]>,
    hi: Option<&[u8]>,
) -> Result<Option<StepTask>, Conflict> {
    let level = step.input_level;
    let output = match step.output {
        ManualOutput::Level(l) => l,
        ManualOutput::BaseLevel => p.targets.base_level,
    };
    if output >= p.n {
        return Ok(None);
    }
    let mut start: Inputs = p.overlapping(level, lo, hi);
    if start.is_empty() {
        return Ok(None);
    }
    if level == 0 && p.v.files(0).iter().any(|f| f.being_compacted) {
        return Err(Conflict);
    }
    let files = p.v.files(level);
    let mut partial = false;
    if level > 0 {
        // Bound one task's size; the first file is always taken so the step progresses.
        let mut total = 0u64;
        for k in 0..start.len() - 1 {
            let first = &files[start[0]].smallest;
            let last = &files[start[k]].largest;
            let out = p.overlapping(output, Some(first), Some(last));
            total = total.saturating_add(files[start[k]].size);
            if total.saturating_add(p.bytes(output, &out)) >= p.o.max_compaction_bytes {
                start.truncate(k + 1);
                partial = true;
                break;
            }
        }
    }
    start = p.clean_cut(level, start);
    if p.busy(level, &start) {
        return Err(Conflict);
    }
    let out = p
        .setup_output_inputs(level, output, &mut start)
        .ok_or(Conflict)?;
    let resume = if partial && level > 0 {
        start
            .iter()
            .max()
            .and_then(|&last| files.get(last + 1))
            .map(|f| f.smallest.clone())
    } else {
        None
    };
    let task = p.build_task(
        level,
        output,
        start,
        out,
        CompactionReason::ManualCompaction,
        -1.0,
        true,
    );
    Ok(Some((task, resume)))
}
