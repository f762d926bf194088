// SPDX-License-Identifier: Apache-2.0
//! Leveled compaction policy: which files to compact next, as a pure function of a summary of
//! the current version (background path; no I/O, no locks, no clock).
//!
//! The policy follows RocksDB 7.8.3's leveled picker with its default options
//! (`compaction_pri = kMinOverlappingRatio`): see `docs/design/compaction.md` for the prose
//! and a worked example. In short:
//!
//! 1. [`level_targets`] gives every level a byte target (static: `base * mult^(n-1)`; with
//!    `level_compaction_dynamic_level_bytes`, derived backwards from the largest level, which
//!    also moves the *base level* that L0 compacts into).
//! 2. [`compaction_scores`] rates each level that can be a compaction input: L0 by file count
//!    (and size), L1+ by bytes over target. A score of 1 or more means "needs compaction".
//! 3. [`pick`] walks levels by score, picks one file by overlap ratio with the next level,
//!    widens it to a clean cut (no user key split across the boundary, all overlapping L0
//!    files), adds the overlapping output-level files, and flags trivial moves (no overlap
//!    with the output level, so the job can move the file metadata instead of rewriting).
//!
//! Manual compaction (`CompactRange`) lives in `manual.rs`; it reuses [`Picker`] helpers.
//!
//! IMPORTANT: files with `being_compacted` are never returned, and a task never produces
//! output whose range overlaps a running compaction to the same level (`running`).

use std::cmp::Ordering;

use crate::key::Comparator;
use crate::options::ColumnFamilyOptions;

/// What the picker needs to know about one SST file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileSummary {
    pub number: u64,
    /// File size in bytes.
    pub size: u64,
    /// Smallest user key (not the internal key).
    pub smallest: Vec<u8>,
    /// Largest user key (not the internal key).
    pub largest: Vec<u8>,
    pub smallest_seqno: u64,
    pub largest_seqno: u64,
    /// True while a running compaction owns the file.
    pub being_compacted: bool,
    pub num_entries: u64,
    pub num_deletions: u64,
}

/// A compaction that is running now: the picker avoids producing overlapping output in the
/// same level (two compactions writing the same key range of one level).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunningCompaction {
    pub output_level: usize,
    /// Smallest user key over all of its inputs.
    pub smallest: Vec<u8>,
    /// Largest user key over all of its inputs.
    pub largest: Vec<u8>,
}

/// The files of one column family's current version, level by level.
///
/// Ordering contract (the builder must honour it):
/// - `levels[0]` (L0) is ordered **newest first**: by `largest_seqno` descending, which is
///   RocksDB's L0 order. L0 files may overlap each other.
/// - `levels[n]` for `n >= 1` is sorted by `smallest` (user comparator) and its files do not
///   overlap.
///
/// `levels` may be shorter than `num_levels`; missing levels are empty.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LevelsSummary {
    pub levels: Vec<Vec<FileSummary>>,
    /// Compactions that are running now (their input files carry `being_compacted`).
    pub running: Vec<RunningCompaction>,
}

impl LevelsSummary {
    /// A summary with no running compactions.
    pub fn new(levels: Vec<Vec<FileSummary>>) -> Self {
        LevelsSummary {
            levels,
            running: Vec::new(),
        }
    }

    /// The files of `level`; empty when the level is absent.
    pub fn files(&self, level: usize) -> &[FileSummary] {
        self.levels.get(level).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Total file bytes of `level`.
    pub fn level_bytes(&self, level: usize) -> u64 {
        self.files(level).iter().map(|f| f.size).sum()
    }
}

/// The column-family options the policy reads, already sanitized like RocksDB does.
#[derive(Clone, Debug, PartialEq)]
pub struct PickerOptions {
    pub num_levels: usize,
    pub level0_file_num_compaction_trigger: usize,
    pub max_bytes_for_level_base: u64,
    pub max_bytes_for_level_multiplier: f64,
    pub level_compaction_dynamic_level_bytes: bool,
    pub target_file_size_base: u64,
    pub target_file_size_multiplier: u64,
    /// Upper bound on one compaction's input bytes (RocksDB default: 25 * target_file_size_base).
    pub max_compaction_bytes: u64,
    pub disable_auto_compactions: bool,
}

impl PickerOptions {
    /// Reads the policy options from column-family options, applying RocksDB's sanitizing
    /// (`ColumnFamilyData` `SanitizeOptions`): trigger 0 becomes 1, multiplier <= 0 becomes 1,
    /// `max_compaction_bytes` 0 becomes `25 * target_file_size_base`.
    pub fn from_cf_options(o: &ColumnFamilyOptions) -> Self {
        let target_file_size_base = o.target_file_size_base.max(1);
        PickerOptions {
            num_levels: usize::try_from(o.num_levels).unwrap_or(1).max(1),
            level0_file_num_compaction_trigger: usize::try_from(
                o.level0_file_num_compaction_trigger,
            )
            .unwrap_or(1)
            .max(1),
            max_bytes_for_level_base: o.max_bytes_for_level_base.max(1),
            max_bytes_for_level_multiplier: if o.max_bytes_for_level_multiplier > 0.0 {
                o.max_bytes_for_level_multiplier
            } else {
                1.0
            },
            level_compaction_dynamic_level_bytes: o.level_compaction_dynamic_level_bytes,
            target_file_size_base,
            target_file_size_multiplier: u64::try_from(o.target_file_size_multiplier)
                .unwrap_or(1)
                .max(1),
            max_compaction_bytes: target_file_size_base.saturating_mul(25),
            disable_auto_compactions: o.disable_auto_compactions,
        }
    }

    /// Output file size limit for a compaction into `level` (RocksDB `MaxFileSizeForLevel`):
    /// `target_file_size_base * multiplier^(level-1)`, counted from the base level when
    /// dynamic level bytes is on.
    pub fn target_file_size(&self, level: usize, base_level: usize) -> u64 {
        let steps = if self.level_compaction_dynamic_level_bytes && level >= base_level {
            level - base_level
        } else {
            level
        };
        let mut size = self.target_file_size_base;
        for _ in 1..steps {
            size = multiply_check_overflow(size, self.target_file_size_multiplier as f64);
        }
        size
    }
}

impl Default for PickerOptions {
    fn default() -> Self {
        PickerOptions::from_cf_options(&ColumnFamilyOptions::default())
    }
}

/// Why a task was picked (RocksDB's `CompactionReason` subset).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompactionReason {
    /// L0 has too many files (or bytes).
    LevelL0FilesNum,
    /// An L1+ level is over its byte target.
    LevelMaxLevelSize,
    /// `CompactRange`.
    ManualCompaction,
}

/// One compaction for the job to run.
#[derive(Clone, Debug, PartialEq)]
pub struct CompactionTask {
    pub start_level: usize,
    pub output_level: usize,
    /// Input files by level, in ascending level order; within L0 newest first, within L1+ by
    /// key. The first entry is `start_level`; an `output_level` entry follows when the output
    /// level has overlapping files.
    pub inputs: Vec<(usize, Vec<u64>)>,
    /// The inputs can be moved to `output_level` unchanged (no overlap there, and not too
    /// much overlap with the level after it): rewrite nothing, log a VersionEdit only.
    pub trivial_move: bool,
    /// Cut output files at this size. `u64::MAX` for output to L0 (one output file).
    pub target_file_size: u64,
    /// No file in a later sorted run overlaps the task's key range: the job may drop
    /// tombstones and zero sequence numbers that no snapshot needs.
    pub bottommost: bool,
    pub reason: CompactionReason,
    /// The start level's score (scaled like RocksDB's; -1 for manual compactions).
    pub score: f64,
    /// Files of the first level after `output_level` that overlap the task's range (level,
    /// numbers). The job cuts an output file early once it overlaps more than
    /// `max_compaction_bytes` of these, so that the next compaction stays bounded.
    pub grandparents: Option<(usize, Vec<u64>)>,
    pub max_compaction_bytes: u64,
}

impl CompactionTask {
    /// Every input file number, all levels.
    pub fn input_numbers(&self) -> impl Iterator<Item = u64> + '_ {
        self.inputs
            .iter()
            .flat_map(|(_, files)| files.iter().copied())
    }
}

/// Byte targets per level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelTargets {
    /// The level L0 compacts into (1 unless dynamic level bytes moves it down).
    pub base_level: usize,
    /// Target bytes per level, `num_levels` entries. `u64::MAX` for levels that must not
    /// hold data (above the base level with dynamic level bytes).
    pub max_bytes: Vec<u64>,
}

/// RocksDB's `MultiplyCheckOverflow`: `op1 * op2` truncated, or `op1` when it would overflow.
fn multiply_check_overflow(op1: u64, op2: f64) -> u64 {
    if op1 == 0 || op2 <= 0.0 {
        return 0;
    }
    if (u64::MAX / op1) as f64 <= op2 {
        return op1;
    }
    (op1 as f64 * op2) as u64
}

fn num_levels(v: &LevelsSummary, o: &PickerOptions) -> usize {
    o.num_levels.max(v.levels.len()).max(1)
}

/// Byte targets per level and the base level (RocksDB `CalculateBaseBytes`).
///
/// Static: L1 gets `max_bytes_for_level_base`, each further level `multiplier` times more.
///
/// Dynamic: take the biggest L1+ level as the size the last level should have, divide by
/// the multiplier once per level going up; the first level whose share is at most
/// `max_bytes_for_level_base` becomes the base level. No level's target is below the base.
pub fn level_targets(v: &LevelsSummary, o: &PickerOptions) -> LevelTargets {
    let n = num_levels(v, o);
    let base = o.max_bytes_for_level_base;
    let mult = o.max_bytes_for_level_multiplier;
    if !o.level_compaction_dynamic_level_bytes {
        let mut max_bytes = vec![base; n];
        for i in 2..n {
            max_bytes[i] = multiply_check_overflow(max_bytes[i - 1], mult);
        }
        return LevelTargets {
            base_level: 1.min(n - 1),
            max_bytes,
        };
    }

    let mut max_bytes = vec![u64::MAX; n];
    let mut max_level_size = 0u64;
    let mut first_non_empty = None;
    for level in 1..n {
        let size = v.level_bytes(level);
        if size > 0 && first_non_empty.is_none() {
            first_non_empty = Some(level);
        }
        max_level_size = max_level_size.max(size);
    }
    let Some(first_non_empty) = first_non_empty else {
        // Nothing below L0: L0 compacts straight into the last level.
        return LevelTargets {
            base_level: n - 1,
            max_bytes,
        };
    };
    let base_min = (base as f64 / mult) as u64;
    let mut cur = max_level_size;
    for _ in first_non_empty..n - 1 {
        cur = (cur as f64 / mult) as u64;
    }
    let (base_level, base_level_size) = if cur <= base_min {
        // More levels hold data than the multiplier needs; keep the shape we have.
        (first_non_empty, base_min + 1)
    } else {
        let mut level = first_non_empty;
        while level > 1 && cur > base {
            level -= 1;
            cur = (cur as f64 / mult) as u64;
        }
        (level, cur.min(base))
    };
    let mut size = base_level_size;
    for (i, slot) in max_bytes.iter_mut().enumerate().skip(base_level) {
        if i > base_level {
            size = multiply_check_overflow(size, mult);
        }
        *slot = size.max(base);
    }
    LevelTargets {
        base_level,
        max_bytes,
    }
}

/// Scores above 1 are multiplied by this with dynamic level bytes, so that the incoming-bytes
/// discount can lower a score without dropping it under the trigger (RocksDB `kScoreScale`).
const SCORE_SCALE: f64 = 10.0;
/// A deletion-heavy file counts each surplus deletion this many times (RocksDB).
const DELETION_WEIGHT: u64 = 2;
/// Fewest L0 files an intra-L0 compaction merges.
const MIN_FILES_FOR_INTRA_L0: usize = 4;
/// Most files a non-L0 trivial move takes at once.
const MAX_MULTI_TRIVIAL_MOVE: usize = 4;

/// Compaction score of every level that can be a compaction input (L0 to the second-to-last
/// level), highest first; ties keep level order. A level needs compaction when its score is
/// at least 1.
pub fn compaction_scores(v: &LevelsSummary, o: &PickerOptions) -> Vec<(usize, f64)> {
    let targets = level_targets(v, o);
    let comp = CompensatedSizes::new(v);
    scores_with(v, o, &targets, &comp)
}

fn scores_with(
    v: &LevelsSummary,
    o: &PickerOptions,
    targets: &LevelTargets,
    comp: &CompensatedSizes,
) -> Vec<(usize, f64)> {
    let n = num_levels(v, o);
    if n < 2 {
        return Vec::new();
    }
    let mut scores = Vec::with_capacity(n - 1);
    let mut downcompact = 0f64;
    for level in 0..n - 1 {
        let files = v.files(level);
        let score = if level == 0 {
            let mut runs = 0usize;
            let mut size = 0u64;
            for f in files {
                downcompact += f.size as f64;
                if !f.being_compacted {
                    runs += 1;
                    size = size.saturating_add(comp.of(f));
                }
            }
            let mut score = runs as f64 / o.level0_file_num_compaction_trigger as f64;
            if o.level_compaction_dynamic_level_bytes {
                if size >= o.max_bytes_for_level_base {
                    score = score.max(1.01);
                }
                let base_target = targets.max_bytes[targets.base_level];
                if size > base_target {
                    let base_size: u64 =
                        v.files(targets.base_level).iter().map(|f| comp.of(f)).sum();
                    score = score.max(size as f64 / base_size.max(base_target) as f64);
                }
                if score > 1.0 {
                    score *= SCORE_SCALE;
                }
            } else {
                score = score.max(size as f64 / o.max_bytes_for_level_base as f64);
            }
            score
        } else {
            let target = targets.max_bytes[level];
            let total: u64 = files.iter().map(|f| f.size).sum();
            let idle: u64 = files
                .iter()
                .filter(|f| !f.being_compacted)
                .map(|f| comp.of(f))
                .sum();
            let score = if !o.level_compaction_dynamic_level_bytes || idle < target {
                idle as f64 / target as f64
            } else {
                // Much data on its way down into this level lowers its priority.
                idle as f64 / (target as f64 + downcompact) * SCORE_SCALE
            };
            if total > target {
                downcompact += (total - target) as f64;
            }
            score
        };
        scores.push((level, score));
    }
    // Stable: equal scores keep the lower level first, like RocksDB's bubble sort.
    scores.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap_or(Ordering::Equal));
    scores
}

/// File sizes boosted for deletion-heavy files (RocksDB `ComputeCompensatedSizes`).
///
/// NOTE: RocksDB estimates the average value size from table properties (raw value bytes);
/// we only have file sizes, so a deletion is weighted by the version's average file bytes
/// per non-deletion entry.
pub(crate) struct CompensatedSizes {
    avg_value: u64,
}

impl CompensatedSizes {
    pub(crate) fn new(v: &LevelsSummary) -> Self {
        let (mut bytes, mut live) = (0u64, 0u64);
        for f in v.levels.iter().flatten() {
            bytes = bytes.saturating_add(f.size);
            live = live.saturating_add(f.num_entries.saturating_sub(f.num_deletions));
        }
        CompensatedSizes {
            avg_value: bytes.checked_div(live).unwrap_or(0),
        }
    }

    pub(crate) fn of(&self, f: &FileSummary) -> u64 {
        let doubled = f.num_deletions.saturating_mul(2);
        if f.num_entries > 0 && doubled >= f.num_entries {
            let surplus = doubled - f.num_entries;
            f.size.saturating_add(
                surplus
                    .saturating_mul(self.avg_value)
                    .saturating_mul(DELETION_WEIGHT),
            )
        } else {
            f.size
        }
    }
}

/// Bytes that compactions still have to rewrite to bring every level within its target
/// (RocksDB's `EstimateCompactionBytesNeeded`, behind `rocksdb.estimate-pending-compaction-
/// bytes` and the pending-bytes write stalls).
///
/// L0 counts once it reaches its trigger (by files or by `max_bytes_for_level_base`): all of
/// L0 plus the base level it merges into. Then, from the base level down, a level over its
/// target passes its excess on to the next level and adds that excess times the fan-out it
/// will meet there (`next level bytes / this level bytes + 1`).
pub fn estimate_pending_compaction_bytes(v: &LevelsSummary, o: &PickerOptions) -> u64 {
    let n = num_levels(v, o);
    if n < 2 {
        return 0;
    }
    let targets = level_targets(v, o);
    let l0_bytes = v.level_bytes(0);
    let l0_triggered = v.files(0).len() >= o.level0_file_num_compaction_trigger
        || l0_bytes >= o.max_bytes_for_level_base;
    let mut estimate = if l0_triggered { l0_bytes } else { 0 };
    let mut to_next = if l0_triggered { l0_bytes } else { 0 };
    let mut next_bytes = 0u64;
    for level in targets.base_level..n - 1 {
        let mut size = if next_bytes > 0 {
            next_bytes
        } else {
            v.level_bytes(level)
        };
        next_bytes = 0;
        if level == targets.base_level && l0_triggered {
            estimate = estimate.saturating_add(size);
        }
        size = size.saturating_add(to_next);
        to_next = 0;
        let target = targets.max_bytes[level];
        if size > target {
            to_next = size - target;
            next_bytes = v.level_bytes(level + 1);
            if next_bytes > 0 {
                let fan_out = next_bytes as f64 / size as f64 + 1.0;
                estimate = estimate.saturating_add((to_next as f64 * fan_out) as u64);
            }
        }
    }
    estimate
}

/// Picks the next automatic compaction, or `None` when no level needs one (or every
/// candidate is blocked by running compactions).
///
/// The caller marks the returned inputs `being_compacted` (and adds a [`RunningCompaction`])
/// before picking again.
pub fn pick(
    v: &LevelsSummary,
    o: &PickerOptions,
    comparator: &dyn Comparator,
) -> Option<CompactionTask> {
    if o.disable_auto_compactions {
        return None;
    }
    let p = Picker::new(v, o, comparator);
    let scores = scores_with(v, o, &p.targets, &p.comp);
    let mut skipped_l0 = false;
    for (level, score) in scores {
        if score < 1.0 {
            break;
        }
        if skipped_l0 && level == p.targets.base_level {
            // L0 -> base is waiting; a base -> next compaction now would starve it.
            continue;
        }
        let output = if level == 0 {
            p.targets.base_level
        } else {
            level + 1
        };
        if let Some(task) = p.pick_level(level, output, score) {
            return Some(task);
        }
        if level == 0 {
            skipped_l0 = true;
            if let Some(task) = p.pick_intra_l0(score) {
                return Some(task);
            }
        }
    }
    None
}

/// Input file indexes at one level (indexes into `LevelsSummary::files(level)`).
pub(crate) type Inputs = Vec<usize>;

/// Shared state of one picking pass; also used by manual compaction.
pub(crate) struct Picker<'a> {
    pub(crate) v: &'a LevelsSummary,
    pub(crate) o: &'a PickerOptions,
    pub(crate) cmp: &'a dyn Comparator,
    pub(crate) n: usize,
    pub(crate) targets: LevelTargets,
    pub(crate) comp: CompensatedSizes,
}

impl<'a> Picker<'a> {
    pub(crate) fn new(v: &'a LevelsSummary, o: &'a PickerOptions, cmp: &'a dyn Comparator) -> Self {
        Picker {
            v,
            o,
            cmp,
            n: num_levels(v, o),
            targets: level_targets(v, o),
            comp: CompensatedSizes::new(v),
        }
    }

    fn lt(&self, a: &[u8], b: &[u8]) -> bool {
        self.cmp.compare(a, b) == Ordering::Less
    }

    /// Does `f` intersect `[lo, hi]` (inclusive; `None` is unbounded)?
    pub(crate) fn file_overlaps(
        &self,
        f: &FileSummary,
        lo: Option<&[u8]>,
        hi: Option<&[u8]>,
    ) -> bool {
        let before = lo.is_some_and(|lo| self.lt(&f.largest, lo));
        let after = hi.is_some_and(|hi| self.lt(hi, &f.smallest));
        !before && !after
    }

    /// Files of `level` intersecting `[lo, hi]`, in level order. For L0 the range grows to
    /// every file transitively overlapping it, so no overlapping L0 file is left behind.
    pub(crate) fn overlapping(&self, level: usize, lo: Option<&[u8]>, hi: Option<&[u8]>) -> Inputs {
        let files = self.v.files(level);
        if level > 0 {
            return (0..files.len())
                .filter(|&i| self.file_overlaps(&files[i], lo, hi))
                .collect();
        }
        let mut lo = lo.map(<[u8]>::to_vec);
        let mut hi = hi.map(<[u8]>::to_vec);
        loop {
            let picked: Inputs = (0..files.len())
                .filter(|&i| self.file_overlaps(&files[i], lo.as_deref(), hi.as_deref()))
                .collect();
            let mut grew = false;
            for &i in &picked {
                let f = &files[i];
                if lo.as_deref().is_some_and(|l| self.lt(&f.smallest, l)) {
                    lo = Some(f.smallest.clone());
                    grew = true;
                }
                if hi.as_deref().is_some_and(|h| self.lt(h, &f.largest)) {
                    hi = Some(f.largest.clone());
                    grew = true;
                }
            }
            if !grew {
                return picked;
            }
        }
    }

    /// Smallest and largest user key over the given inputs of several levels.
    pub(crate) fn range(&self, sets: &[(usize, &Inputs)]) -> Option<(Vec<u8>, Vec<u8>)> {
        let mut out: Option<(&[u8], &[u8])> = None;
        for &(level, idx) in sets {
            let files = self.v.files(level);
            for &i in idx {
                let f = &files[i];
                out = Some(match out {
                    None => (&f.smallest, &f.largest),
                    Some((lo, hi)) => (
                        if self.lt(&f.smallest, lo) {
                            &f.smallest
                        } else {
                            lo
                        },
                        if self.lt(hi, &f.largest) {
                            &f.largest
                        } else {
                            hi
                        },
                    ),
                });
            }
        }
        out.map(|(lo, hi)| (lo.to_vec(), hi.to_vec()))
    }

    /// Grows L1+ inputs until no user key straddles the boundary with a neighbour
    /// (RocksDB `ExpandInputsToCleanCut`). L0 needs no growing here.
    pub(crate) fn clean_cut(&self, level: usize, mut idx: Inputs) -> Inputs {
        if level == 0 || idx.is_empty() {
            return idx;
        }
        loop {
            let Some((lo, hi)) = self.range(&[(level, &idx)]) else {
                return idx;
            };
            let grown = self.overlapping(level, Some(&lo), Some(&hi));
            if grown.len() <= idx.len() {
                return idx;
            }
            idx = grown;
        }
    }

    pub(crate) fn busy(&self, level: usize, idx: &Inputs) -> bool {
        let files = self.v.files(level);
        idx.iter().any(|&i| files[i].being_compacted)
    }

    pub(crate) fn bytes(&self, level: usize, idx: &Inputs) -> u64 {
        let files = self.v.files(level);
        idx.iter().map(|&i| files[i].size).sum()
    }

    /// Would output to `level` over `[lo, hi]` overlap a running compaction's output?
    pub(crate) fn overlaps_running(&self, level: usize, lo: &[u8], hi: &[u8]) -> bool {
        self.v.running.iter().any(|r| {
            r.output_level == level && !self.lt(hi, &r.smallest) && !self.lt(&r.largest, lo)
        })
    }

    /// L0 files do not overlap each other (then an L0 file can move down as is).
    pub(crate) fn l0_non_overlapping(&self) -> bool {
        let mut files: Vec<&FileSummary> = self.v.files(0).iter().collect();
        files.sort_by(|a, b| self.cmp.compare(&a.smallest, &b.smallest));
        files
            .windows(2)
            .all(|w| self.lt(&w[0].largest, &w[1].smallest))
    }

    /// Order in which to try the files of `level` (`kMinOverlappingRatio`): least bytes
    /// overlapping in `level + 1` per compensated byte first; ties by smallest key.
    fn files_by_priority(&self, level: usize) -> Vec<usize> {
        let files = self.v.files(level);
        let next = self.v.files(level + 1);
        let mut keyed: Vec<(u128, usize)> = files
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let overlap: u64 = next
                    .iter()
                    .filter(|g| self.file_overlaps(g, Some(&f.smallest), Some(&f.largest)))
                    .map(|g| g.size)
                    .sum();
                let ratio = u128::from(overlap) * 1024 / u128::from(self.comp.of(f).max(1));
                (ratio, i)
            })
            .collect();
        keyed.sort_by(|a, b| {
            a.0.cmp(&b.0)
                .then_with(|| self.cmp.compare(&files[a.1].smallest, &files[b.1].smallest))
                .then_with(|| files[b.1].largest_seqno.cmp(&files[a.1].largest_seqno))
        });
        keyed.into_iter().map(|(_, i)| i).collect()
    }

    /// L0 -> non-empty output level without rewriting: the oldest L0 files, as long as they
    /// do not overlap each other nor the output level (RocksDB `TryPickL0TrivialMove`).
    fn l0_trivial_move(&self, output: usize) -> Inputs {
        let files = self.v.files(0);
        if output == 0 || self.v.files(output).is_empty() {
            return Vec::new();
        }
        let mut picked = Vec::new();
        let mut lo: &[u8] = &[];
        let mut hi: &[u8] = &[];
        for i in (0..files.len()).rev() {
            let f = &files[i];
            if f.being_compacted {
                break;
            }
            if picked.is_empty() {
                (lo, hi) = (&f.smallest, &f.largest);
            } else if self.lt(&f.largest, lo) {
                lo = &f.smallest;
            } else if self.lt(hi, &f.smallest) {
                hi = &f.largest;
            } else {
                break;
            }
            if !self.overlapping(output, Some(lo), Some(hi)).is_empty() {
                break;
            }
            picked.push(i);
        }
        // Newest first, like the level itself.
        picked.sort_unstable();
        picked
    }

    /// Extends a one-file L1+ trivial move to following files while it stays one
    /// (RocksDB `TryExtendNonL0TrivialMove`).
    fn extend_trivial_move(&self, level: usize, output: usize, first: usize) -> Inputs {
        let files = self.v.files(level);
        let mut picked = vec![first];
        let mut total = files[first].size;
        for j in first + 1..files.len() {
            if picked.len() >= MAX_MULTI_TRIVIAL_MOVE || files[j].being_compacted {
                break;
            }
            let lo = &files[first].smallest;
            let hi = &files[j].largest;
            if !self.overlapping(output, Some(lo), Some(hi)).is_empty()
                || self.overlaps_running(output, lo, hi)
            {
                break;
            }
            if j + 1 < files.len()
                && self.cmp.compare(&files[j].largest, &files[j + 1].smallest) == Ordering::Equal
            {
                break; // taking j would split a user key
            }
            total = total.saturating_add(files[j].size);
            if total > self.o.max_compaction_bytes {
                break;
            }
            picked.push(j);
        }
        picked
    }

    /// Picks the start-level inputs of an automatic `level -> output` compaction.
    /// Returns `(inputs, picked_as_l0_trivial_move)`.
    fn pick_start_inputs(&self, level: usize, output: usize) -> Option<(Inputs, bool)> {
        if level == 0 {
            if self.v.files(0).iter().any(|f| f.being_compacted) {
                return None; // one L0 compaction at a time
            }
            let moved = self.l0_trivial_move(output);
            if !moved.is_empty() {
                return Some((moved, true));
            }
        }
        let files = self.v.files(level);
        for i in self.files_by_priority(level) {
            if files[i].being_compacted {
                continue;
            }
            let mut inputs = self.clean_cut(level, vec![i]);
            if self.busy(level, &inputs) {
                continue;
            }
            let (lo, hi) = self.range(&[(level, &inputs)])?;
            if self.overlaps_running(output, &lo, &hi) {
                continue;
            }
            let out = self.overlapping(output, Some(&lo), Some(&hi));
            if out.is_empty() {
                if level > 0 && inputs.len() == 1 {
                    inputs = self.extend_trivial_move(level, output, i);
                }
            } else if self.busy(output, &self.clean_cut(output, out)) {
                continue;
            }
            return Some((inputs, false));
        }
        None
    }

    /// The full automatic task for `level -> output`, or `None` if it is blocked.
    fn pick_level(&self, level: usize, output: usize, score: f64) -> Option<CompactionTask> {
        let (mut start, l0_trivial) = self.pick_start_inputs(level, output)?;
        if level == 0 && !l0_trivial {
            // Every L0 file overlapping the pick comes along (older data must not stay above).
            let (lo, hi) = self.range(&[(0, &start)])?;
            start = self.overlapping(0, Some(&lo), Some(&hi));
            if self.busy(0, &start) {
                return None;
            }
        }
        let out = if l0_trivial {
            Vec::new()
        } else {
            self.setup_output_inputs(level, output, &mut start)?
        };
        let reason = if level == 0 {
            CompactionReason::LevelL0FilesNum
        } else {
            CompactionReason::LevelMaxLevelSize
        };
        let l0_might_overlap = level == 0 && !l0_trivial;
        Some(self.build_task(level, output, start, out, reason, score, l0_might_overlap))
    }

    /// Adds the output-level files overlapping `start`, then tries to take more start-level
    /// files that fit under the same output files (RocksDB `SetupOtherInputs`).
    /// `None` when an output file or the output range is busy.
    pub(crate) fn setup_output_inputs(
        &self,
        level: usize,
        output: usize,
        start: &mut Inputs,
    ) -> Option<Inputs> {
        if level == output {
            return Some(Vec::new());
        }
        let (lo, hi) = self.range(&[(level, start)])?;
        let mut out = self.overlapping(output, Some(&lo), Some(&hi));
        if self.busy(output, &out) {
            return None;
        }
        if !out.is_empty() {
            out = self.clean_cut(output, out);
            if self.busy(output, &out) {
                return None;
            }
            let (all_lo, all_hi) = self.range(&[(level, start), (output, &out)])?;
            let grown =
                self.clean_cut(level, self.overlapping(level, Some(&all_lo), Some(&all_hi)));
            let out_bytes = self.bytes(output, &out);
            if grown.len() > start.len()
                && !self.busy(level, &grown)
                && out_bytes.saturating_add(self.bytes(level, &grown)) < self.o.max_compaction_bytes
            {
                if let Some((nlo, nhi)) = self.range(&[(level, &grown)]) {
                    let new_out =
                        self.clean_cut(output, self.overlapping(output, Some(&nlo), Some(&nhi)));
                    if new_out.len() == out.len() && !self.busy(output, &new_out) {
                        *start = grown;
                    }
                }
            }
        }
        let (lo, hi) = self.range(&[(level, start), (output, &out)])?;
        if self.overlaps_running(output, &lo, &hi) {
            return None;
        }
        Some(out)
    }

    /// Merges up to the whole of L0 into one L0 file when L0 -> base is blocked and L0 keeps
    /// growing (RocksDB `PickIntraL0Compaction`): the newest files, while the bytes per
    /// removed file do not grow.
    fn pick_intra_l0(&self, score: f64) -> Option<CompactionTask> {
        let files = self.v.files(0);
        if files.len() < self.o.level0_file_num_compaction_trigger + 2 || files[0].being_compacted {
            return None;
        }
        let mut bytes = files[0].size;
        let mut per_file = u64::MAX;
        let mut limit = 1;
        while limit < files.len() {
            bytes = bytes.saturating_add(files[limit].size);
            let new_per_file = bytes / limit as u64;
            if files[limit].being_compacted
                || new_per_file > per_file
                || bytes > self.o.max_compaction_bytes
            {
                break;
            }
            per_file = new_per_file;
            limit += 1;
        }
        if limit < MIN_FILES_FOR_INTRA_L0 || per_file == u64::MAX {
            return None;
        }
        let start: Inputs = (0..limit).collect();
        Some(self.build_task(
            0,
            0,
            start,
            Vec::new(),
            CompactionReason::LevelL0FilesNum,
            score,
            true,
        ))
    }

    /// Might a key of `[lo, hi]` exist in a sorted run older than the output?
    /// `last_l0` is the oldest L0 input when the output is L0.
    fn range_exists_below(
        &self,
        output: usize,
        last_l0: Option<usize>,
        lo: &[u8],
        hi: &[u8],
    ) -> bool {
        if output == 0 {
            let files = self.v.files(0);
            let from = last_l0.map_or(0, |i| i + 1);
            if files[from.min(files.len())..]
                .iter()
                .any(|f| self.file_overlaps(f, Some(lo), Some(hi)))
            {
                return true;
            }
        }
        (output + 1..self.n).any(|l| !self.overlapping(l, Some(lo), Some(hi)).is_empty())
    }

    #[expect(
        clippy::too_many_arguments,
        reason = "internal constructor of a plain record"
    )]
    pub(crate) fn build_task(
        &self,
        level: usize,
        output: usize,
        start: Inputs,
        out: Inputs,
        reason: CompactionReason,
        score: f64,
        l0_might_overlap: bool,
    ) -> CompactionTask {
        let numbers = |l: usize, idx: &Inputs| -> Vec<u64> {
            let files = self.v.files(l);
            idx.iter().map(|&i| files[i].number).collect()
        };
        let (lo, hi) = self
            .range(&[(level, &start), (output, &out)])
            .unwrap_or_default();
        let grandparents = (output + 1..self.n).find_map(|l| {
            let idx = self.overlapping(l, Some(&lo), Some(&hi));
            (!idx.is_empty()).then(|| (l, numbers(l, &idx)))
        });
        let trivial_move = level != output
            && out.is_empty()
            && (level != 0 || !l0_might_overlap || self.l0_non_overlapping())
            && start.iter().all(|&i| {
                let f = &self.v.files(level)[i];
                let below: u64 = if output + 1 < self.n {
                    let idx = self.overlapping(output + 1, Some(&f.smallest), Some(&f.largest));
                    self.bytes(output + 1, &idx)
                } else {
                    0
                };
                f.size.saturating_add(below) <= self.o.max_compaction_bytes
            });
        let last_l0 = if level == 0 {
            start.iter().copied().max()
        } else {
            None
        };
        let bottommost = !self.range_exists_below(output, last_l0, &lo, &hi);
        let target_file_size = if output == 0 {
            u64::MAX
        } else {
            self.o.target_file_size(output, self.targets.base_level)
        };
        let mut inputs = vec![(level, numbers(level, &start))];
        if !out.is_empty() {
            inputs.push((output, numbers(output, &out)));
        }
        CompactionTask {
            start_level: level,
            output_level: output,
            inputs,
            trivial_move,
            target_file_size,
            bottommost,
            reason,
            score,
            grandparents,
            max_compaction_bytes: self.o.max_compaction_bytes,
        }
    }
}

#[cfg(test)]
#[path = "picker_tests.rs"]
mod tests;
