// SPDX-License-Identifier: Apache-2.0
//! Compaction (background path).
//!
//! - `picker`: the leveled *policy*, a pure function from a [`picker::LevelsSummary`] of the
//!   current version to the next [`picker::CompactionTask`]; no I/O, so it is tested on
//!   synthetic versions and in a simulator.
//! - `manual`: the `CompactRange` policy, an incremental plan over the same summary.
//!
//! The *mechanism* (merging iterators, writing SSTs, logging the VersionEdit) belongs in a
//! separate job module that consumes these tasks. Design notes: `docs/design/compaction.md`.

pub mod filter;
pub mod manual;
pub mod picker;

pub use manual::{plan_manual, ManualCompaction, ManualNext, ManualOutput, ManualStep};
pub use picker::{
    compaction_scores, level_targets, pick, CompactionReason, CompactionTask, FileSummary,
    LevelTargets, LevelsSummary, PickerOptions, RunningCompaction,
};
