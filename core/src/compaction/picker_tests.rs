// SPDX-License-Identifier: Apache-2.0
//! Tests of the leveled policy on synthetic versions, and a simulator that runs it.

use super::*;
use crate::compaction::manual::{plan_manual, ManualNext, ManualOutput, ManualStep};
use crate::key::BytewiseComparator;

const MIB: u64 = 1 << 20;
const GIB: u64 = 1 << 30;
const CMP: BytewiseComparator = BytewiseComparator;

fn key(n: u64) -> Vec<u8> {
    n.to_be_bytes().to_vec()
}

fn unkey(k: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&k[..8]);
    u64::from_be_bytes(b)
}

fn file(number: u64, lo: u64, hi: u64, size: u64) -> FileSummary {
    FileSummary {
        number,
        size,
        smallest: key(lo),
        largest: key(hi),
        smallest_seqno: number * 100,
        largest_seqno: number * 100 + 99,
        being_compacted: false,
        num_entries: (size / 100).max(1),
        num_deletions: 0,
    }
}

fn levels(n: usize) -> Vec<Vec<FileSummary>> {
    vec![Vec::new(); n]
}

fn opts() -> PickerOptions {
    PickerOptions::default()
}

fn dynamic() -> PickerOptions {
    PickerOptions {
        level_compaction_dynamic_level_bytes: true,
        ..opts()
    }
}

fn score_of(scores: &[(usize, f64)], level: usize) -> f64 {
    scores
        .iter()
        .find(|(l, _)| *l == level)
        .map(|(_, s)| *s)
        .expect("every input level has a score")
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9 * b.abs().max(1.0)
}

#[test]
fn defaults_follow_rocksdb() {
    let o = opts();
    assert_eq!(o.num_levels, 7);
    assert_eq!(o.level0_file_num_compaction_trigger, 4);
    assert_eq!(o.max_bytes_for_level_base, 256 * MIB);
    assert_eq!(o.max_compaction_bytes, 25 * 64 * MIB);
    assert_eq!(o.target_file_size(1, 1), 64 * MIB);
    let grown = PickerOptions {
        target_file_size_multiplier: 2,
        ..opts()
    };
    assert_eq!(grown.target_file_size(1, 1), 64 * MIB);
    assert_eq!(grown.target_file_size(3, 1), 256 * MIB);
    let grown_dyn = PickerOptions {
        level_compaction_dynamic_level_bytes: true,
        ..grown
    };
    // Counted from the base level: base level 5 gets the base size.
    assert_eq!(grown_dyn.target_file_size(5, 5), 64 * MIB);
    assert_eq!(grown_dyn.target_file_size(6, 5), 64 * MIB);
    assert_eq!(grown_dyn.target_file_size(6, 4), 128 * MIB);
}

#[test]
fn l0_trigger_fires_at_trigger_count() {
    let mut lv = levels(7);
    for n in (1..=3).rev() {
        lv[0].push(file(n, 0, 1000, MIB));
    }
    let v = LevelsSummary::new(lv.clone());
    assert!(close(score_of(&compaction_scores(&v, &opts()), 0), 0.75));
    assert_eq!(pick(&v, &opts(), &CMP), None);

    lv[0].insert(0, file(4, 500, 2000, MIB));
    let v = LevelsSummary::new(lv);
    assert!(close(score_of(&compaction_scores(&v, &opts()), 0), 1.0));
    let t = pick(&v, &opts(), &CMP).expect("four L0 files reach the trigger");
    assert_eq!((t.start_level, t.output_level), (0, 1));
    assert_eq!(t.reason, CompactionReason::LevelL0FilesNum);
    assert_eq!(t.inputs, vec![(0, vec![4, 3, 2, 1])]);
    assert!(!t.trivial_move, "overlapping L0 files must be merged");
    assert!(t.bottommost);
    assert_eq!(t.target_file_size, 64 * MIB);

    let off = PickerOptions {
        disable_auto_compactions: true,
        ..opts()
    };
    assert_eq!(pick(&v, &off, &CMP), None);
}

#[test]
fn l0_score_counts_bytes_too() {
    let mut lv = levels(7);
    lv[0].push(file(1, 0, 10, 512 * MIB));
    let v = LevelsSummary::new(lv);
    // One file, but twice max_bytes_for_level_base.
    assert!(close(score_of(&compaction_scores(&v, &opts()), 0), 2.0));
}

#[test]
fn static_targets() {
    let v = LevelsSummary::new(levels(7));
    let t = level_targets(&v, &opts());
    assert_eq!(t.base_level, 1);
    assert_eq!(t.max_bytes[1], 256 * MIB);
    assert_eq!(t.max_bytes[2], 2560 * MIB);
    assert_eq!(t.max_bytes[3], 25600 * MIB);
    assert_eq!(t.max_bytes[6], 25_600_000 * MIB);
}

/// Worked examples of RocksDB's `CalculateBaseBytes` (base 256 MiB, multiplier 10, 7 levels).
#[test]
fn dynamic_targets_worked_examples() {
    let o = dynamic();
    // Empty: L0 goes straight to the last level.
    let t = level_targets(&LevelsSummary::new(levels(7)), &o);
    assert_eq!(t.base_level, 6);
    assert!(t.max_bytes.iter().all(|&b| b == u64::MAX));

    // 1 GiB in L6: 1 GiB / 10 = 107374182 <= 256 MiB, so the base level is L5.
    let mut lv = levels(7);
    lv[6].push(file(1, 0, 100, GIB));
    let t = level_targets(&LevelsSummary::new(lv), &o);
    assert_eq!(t.base_level, 5);
    assert_eq!(t.max_bytes[..5], [u64::MAX; 5]);
    assert_eq!(
        t.max_bytes[5],
        256 * MIB,
        "raised to max_bytes_for_level_base"
    );
    assert_eq!(t.max_bytes[6], 1_073_741_820);

    // 100 GiB in L6: 10 GiB, 1 GiB, 107374182 -> base level L3.
    let mut lv = levels(7);
    lv[6].push(file(1, 0, 100, 100 * GIB));
    let t = level_targets(&LevelsSummary::new(lv), &o);
    assert_eq!(t.base_level, 3);
    assert_eq!(t.max_bytes[3], 256 * MIB);
    assert_eq!(t.max_bytes[4], 1_073_741_820);
    assert_eq!(t.max_bytes[5], 10_737_418_200);
    assert_eq!(t.max_bytes[6], 107_374_182_000);

    // 10 MiB in L6 is under base/multiplier: base stays at L6 with target = base.
    let mut lv = levels(7);
    lv[6].push(file(1, 0, 100, 10 * MIB));
    let t = level_targets(&LevelsSummary::new(lv), &o);
    assert_eq!(t.base_level, 6);
    assert_eq!(t.max_bytes[6], 256 * MIB);

    // 200 TiB in L6: even L1 would be too big, so L1 is the base with target = base.
    let mut lv = levels(7);
    lv[6].push(file(1, 0, 100, 200 * 1024 * GIB));
    let t = level_targets(&LevelsSummary::new(lv), &o);
    assert_eq!(t.base_level, 1);
    assert_eq!(t.max_bytes[1], 256 * MIB);
    assert_eq!(t.max_bytes[2], 2560 * MIB);
}

#[test]
fn scores_static_and_dynamic() {
    let mut lv = levels(7);
    lv[1].push(file(1, 0, 10, 512 * MIB)); // 2x of 256 MiB
    lv[2].push(file(2, 0, 10, 1024 * MIB)); // 0.4 of 2560 MiB
    lv[6].push(file(3, 0, 10, GIB));
    let v = LevelsSummary::new(lv);
    let s = compaction_scores(&v, &opts());
    assert_eq!(s.len(), 6, "L0..L5 can be inputs");
    assert_eq!(s[0].0, 1);
    assert!(close(s[0].1, 2.0));
    assert!(close(score_of(&s, 2), 0.4));

    // Dynamic: the largest level holds 1 GiB but L1 already holds data, and 1 GiB / 10^5 is
    // below base / multiplier: more levels are in use than needed. The base stays L1 with
    // 25.6 MiB + 1 growing by 10x per level, and no target below 256 MiB.
    let s = compaction_scores(&v, &dynamic());
    let t = level_targets(&v, &dynamic());
    assert_eq!(t.base_level, 1);
    let base_min_plus_1 = 26_843_545 + 1;
    assert_eq!(t.max_bytes[1], 256 * MIB);
    assert_eq!(t.max_bytes[2], 256 * MIB + 4, "10 * 26843546");
    assert_eq!(t.max_bytes[3], base_min_plus_1 * 100);
    // L1: 512 MiB >= target: 512 / (256 + 0 incoming) * 10 = 20.
    assert!(close(score_of(&s, 1), 20.0));
    // L2: 1024 MiB, with L1's 256 MiB excess on its way down.
    let l2 = (GIB as f64) / ((256 * MIB + 4) as f64 + (256 * MIB) as f64) * 10.0;
    assert!(close(score_of(&s, 2), l2));

    // Dynamic L0: 5 files of 1 MiB = 1.25, scaled by 10 above 1.
    let mut lv = levels(7);
    for n in (1..=5).rev() {
        lv[0].push(file(n, 0, 10, MIB));
    }
    let s = compaction_scores(&LevelsSummary::new(lv.clone()), &dynamic());
    assert!(close(score_of(&s, 0), 12.5));
    lv[0].truncate(4);
    let s = compaction_scores(&LevelsSummary::new(lv), &dynamic());
    assert!(close(score_of(&s, 0), 1.0), "exactly 1 is not scaled");
}

#[test]
fn deletion_heavy_files_weigh_more() {
    let mut lv = levels(7);
    lv[1].push(file(1, 0, 10, 128 * MIB));
    lv[1].push(FileSummary {
        num_entries: 1_000_000,
        num_deletions: 1_000_000,
        ..file(2, 20, 30, 64 * MIB)
    });
    lv[2].push(file(3, 0, 100, 64 * MIB));
    let v = LevelsSummary::new(lv);
    // Plain bytes are 192 MiB < 256 MiB, but the tombstones push L1 over its target.
    assert!(score_of(&compaction_scores(&v, &opts()), 1) > 1.0);
}

#[test]
fn picks_the_level_with_the_highest_score() {
    let mut lv = levels(7);
    lv[1].push(file(1, 0, 10, 300 * MIB)); // 1.17
    lv[2].push(file(2, 0, 10, 4000 * MIB)); // 1.56
    lv[3].push(file(3, 0, 10, 100 * MIB));
    let v = LevelsSummary::new(lv);
    let t = pick(&v, &opts(), &CMP).expect("two levels are over target");
    assert_eq!((t.start_level, t.output_level), (2, 3));
    assert_eq!(t.reason, CompactionReason::LevelMaxLevelSize);
    assert_eq!(t.inputs, vec![(2, vec![2]), (3, vec![3])]);
    assert!(!t.trivial_move);
}

#[test]
fn picks_file_with_least_overlap_and_expands_to_clean_cut() {
    let mut lv = levels(7);
    // L1: a=[10,20] b=[20,30] share user key 20; c=[40,50]; d=[60,70].
    lv[1] = vec![
        file(1, 10, 20, 100 * MIB),
        file(2, 20, 30, 100 * MIB),
        file(3, 40, 50, 100 * MIB),
        file(4, 60, 70, 100 * MIB),
    ];
    // L2 overlaps c and d heavily, a and b lightly.
    lv[2] = vec![
        file(5, 25, 28, 10 * MIB),
        file(6, 40, 50, 500 * MIB),
        file(7, 60, 70, 500 * MIB),
    ];
    let v = LevelsSummary::new(lv.clone());
    let t = pick(&v, &opts(), &CMP).expect("L1 is over target");
    // `a` has no overlap: picked first; `b` shares key 20 so it must come along, and then
    // `b` brings file 5 of L2.
    assert_eq!(t.inputs, vec![(1, vec![1, 2]), (2, vec![5])]);

    // A being-compacted neighbour blocks the clean cut: the next best file is taken.
    lv[1][1].being_compacted = true;
    lv[2][0].being_compacted = true;
    let v = LevelsSummary::new(lv);
    let t = pick(&v, &opts(), &CMP).expect("c or d can still go");
    assert_eq!(t.inputs, vec![(1, vec![3]), (2, vec![6])]);
}

#[test]
fn being_compacted_files_are_skipped() {
    let mut lv = levels(7);
    lv[1] = vec![file(1, 0, 10, 200 * MIB), file(2, 20, 30, 200 * MIB)];
    lv[1][0].being_compacted = true;
    lv[2] = vec![file(3, 0, 30, 10 * MIB)];
    let v = LevelsSummary::new(lv.clone());
    // Only 200 MiB is idle: not over target.
    assert_eq!(pick(&v, &opts(), &CMP), None);
    lv[1][1].size = 300 * MIB;
    lv[2][0].being_compacted = true;
    let v = LevelsSummary::new(lv);
    assert_eq!(pick(&v, &opts(), &CMP), None, "its L2 overlap is busy");

    // One L0 compaction at a time; with trigger + 2 files, an intra-L0 merge of the newest
    // files is picked instead.
    let mut lv = levels(7);
    for n in (1..=6).rev() {
        lv[0].push(file(n, 0, 100, MIB));
    }
    lv[0][5].being_compacted = true; // the oldest
    let v = LevelsSummary::new(lv.clone());
    let t = pick(&v, &opts(), &CMP).expect("intra-L0");
    assert_eq!((t.start_level, t.output_level), (0, 0));
    assert_eq!(t.inputs, vec![(0, vec![6, 5, 4, 3, 2])]);
    assert_eq!(t.target_file_size, u64::MAX);
    assert!(!t.bottommost, "an older L0 file overlaps");
    lv[0].truncate(5);
    lv[0][4].being_compacted = true;
    assert_eq!(
        pick(&LevelsSummary::new(lv), &opts(), &CMP),
        None,
        "too few for intra-L0"
    );
}

#[test]
fn pending_compaction_bytes_follow_rocksdb() {
    let mut lv = levels(7);
    let v = LevelsSummary::new(lv.clone());
    assert_eq!(estimate_pending_compaction_bytes(&v, &opts()), 0);
    // Three L0 files: below the trigger, nothing pending.
    for n in 1..=3 {
        lv[0].push(file(n, 0, 100, 10 * MIB));
    }
    lv[1] = vec![file(10, 0, 100, 100 * MIB)];
    let v = LevelsSummary::new(lv.clone());
    assert_eq!(estimate_pending_compaction_bytes(&v, &opts()), 0);
    // The fourth triggers L0: all of L0 plus L1 (140 MiB, under L1's 256 MiB target).
    lv[0].insert(0, file(4, 0, 100, 10 * MIB));
    let v = LevelsSummary::new(lv.clone());
    assert_eq!(
        estimate_pending_compaction_bytes(&v, &opts()),
        40 * MIB + 100 * MIB
    );
    // L1 at 300 MiB, L2 at 600 MiB: L0 makes L1 340 MiB, 84 MiB over; the fan-out into L2 is
    // 600 / 340 + 1.
    lv[1][0].size = 300 * MIB;
    lv[2] = vec![file(11, 0, 100, 600 * MIB)];
    let v = LevelsSummary::new(lv.clone());
    let excess = 84 * MIB;
    let expected = 40 * MIB + 300 * MIB + (excess as f64 * (600.0 / 340.0 + 1.0)) as u64;
    assert_eq!(estimate_pending_compaction_bytes(&v, &opts()), expected);
}

/// The worked example of docs/design/compaction.md section 6: three picks in a row, each
/// seeing the earlier ones as running.
#[test]
fn worked_concurrent_example() {
    let mut lv = levels(7);
    for n in (1..=4).rev() {
        lv[0].push(file(20 + n, 0, 40, MIB));
    }
    lv[1] = vec![
        file(1, 0, 10, 100 * MIB),
        file(2, 20, 30, 100 * MIB),
        file(3, 50, 60, 100 * MIB),
        file(4, 70, 80, 100 * MIB),
        file(10, 90, 99, 100 * MIB),
    ];
    lv[2] = vec![file(5, 0, 30, 10 * MIB), file(6, 50, 99, 10 * MIB)];
    let mut v = LevelsSummary::new(lv);
    let start = |v: &mut LevelsSummary, t: &CompactionTask| {
        let range = task_range(v, t);
        for (level, numbers) in &t.inputs {
            for f in v.levels[*level].iter_mut() {
                f.being_compacted |= numbers.contains(&f.number);
            }
        }
        v.running.push(RunningCompaction {
            output_level: t.output_level,
            smallest: range.0,
            largest: range.1,
        });
    };
    let scores = compaction_scores(&v, &opts());
    assert_eq!(scores[0].0, 1);
    assert!(close(scores[0].1, 500.0 / 256.0));
    assert!(close(score_of(&scores, 0), 1.0));
    let first = pick(&v, &opts(), &CMP).expect("thread 1");
    assert_eq!(first.inputs, vec![(1, vec![1, 2]), (2, vec![5])]);
    start(&mut v, &first);
    assert!(close(
        score_of(&compaction_scores(&v, &opts()), 1),
        300.0 / 256.0
    ));
    let second = pick(&v, &opts(), &CMP).expect("thread 2");
    assert_eq!(second.inputs, vec![(1, vec![3, 4, 10]), (2, vec![6])]);
    start(&mut v, &second);
    assert_eq!(
        pick(&v, &opts(), &CMP),
        None,
        "thread 3: L0 -> L1 is blocked"
    );
}

#[test]
fn running_compaction_ranges_are_respected() {
    let mut lv = levels(7);
    lv[1] = vec![file(1, 0, 10, 300 * MIB)];
    let mut v = LevelsSummary::new(lv);
    v.running.push(RunningCompaction {
        output_level: 2,
        smallest: key(5),
        largest: key(50),
    });
    assert_eq!(pick(&v, &opts(), &CMP), None);
    v.running[0].output_level = 3;
    assert!(pick(&v, &opts(), &CMP).is_some());
}

#[test]
fn trivial_move_detection() {
    let mut lv = levels(7);
    lv[1] = vec![
        file(1, 0, 10, 100 * MIB),
        file(2, 20, 30, 100 * MIB),
        file(3, 40, 50, 100 * MIB),
    ];
    lv[2] = vec![file(4, 100, 200, 10 * MIB)];
    let v = LevelsSummary::new(lv.clone());
    let t = pick(&v, &opts(), &CMP).expect("L1 is over target");
    assert!(t.trivial_move);
    assert_eq!(
        t.inputs,
        vec![(1, vec![1, 2, 3])],
        "extended while still a move"
    );

    // Too much grandparent overlap in L3 for one file: rewrite instead of moving.
    lv[3] = vec![file(5, 0, 10, 2000 * MIB)];
    let v = LevelsSummary::new(lv);
    let t = pick(&v, &opts(), &CMP).expect("L1 is over target");
    assert!(!t.trivial_move);
    assert_eq!(t.grandparents, Some((3, vec![5])));
}

#[test]
fn l0_trivial_move_into_non_empty_base() {
    let mut lv = levels(7);
    // Oldest two L0 files sit above L1's range; the newest overlaps L1.
    lv[0] = vec![
        file(13, 5, 6, MIB),
        file(12, 300, 400, MIB),
        file(11, 200, 250, MIB),
        file(10, 100, 150, MIB),
    ];
    lv[1] = vec![file(1, 0, 50, MIB)];
    let v = LevelsSummary::new(lv);
    let t = pick(&v, &opts(), &CMP).expect("L0 at trigger");
    assert!(t.trivial_move);
    assert_eq!(t.inputs, vec![(0, vec![12, 11, 10])]);
}

/// Applies tasks by making up their outputs; checks shape invariants as it goes.
struct Sim {
    v: LevelsSummary,
    next_number: u64,
    seq: u64,
    rng: u64,
    bytes_rewritten: u64,
    bytes_moved: u64,
    tasks: usize,
}

impl Sim {
    fn new(num_levels: usize, seed: u64) -> Self {
        Sim {
            v: LevelsSummary::new(levels(num_levels)),
            next_number: 1,
            seq: 1,
            rng: seed | 1,
            bytes_rewritten: 0,
            bytes_moved: 0,
            tasks: 0,
        }
    }

    fn rand(&mut self) -> u64 {
        // xorshift64*
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        self.rng.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn new_file(&mut self, lo: u64, hi: u64, size: u64, seqs: (u64, u64)) -> FileSummary {
        let number = self.next_number;
        self.next_number += 1;
        FileSummary {
            smallest_seqno: seqs.0,
            largest_seqno: seqs.1,
            ..file(number, lo, hi, size)
        }
    }

    fn flush(&mut self, lo: u64, hi: u64, size: u64) {
        let seqs = (self.seq, self.seq + 999);
        self.seq += 1000;
        let f = self.new_file(lo, hi, size, seqs);
        self.v.levels[0].insert(0, f);
    }

    /// Marks a picked task's inputs busy and registers its output range.
    fn start(&mut self, t: &CompactionTask) {
        check_task(&self.v, t);
        let mut lo = u64::MAX;
        let mut hi = 0;
        for (level, numbers) in &t.inputs {
            for f in self.v.levels[*level].iter_mut() {
                if numbers.contains(&f.number) {
                    assert!(!f.being_compacted, "file {} picked twice", f.number);
                    f.being_compacted = true;
                    lo = lo.min(unkey(&f.smallest));
                    hi = hi.max(unkey(&f.largest));
                }
            }
        }
        self.v.running.push(RunningCompaction {
            output_level: t.output_level,
            smallest: key(lo),
            largest: key(hi),
        });
    }

    /// Replaces a started task's inputs by its outputs.
    fn finish(&mut self, t: &CompactionTask) {
        self.tasks += 1;
        let mut inputs = Vec::new();
        for (level, numbers) in &t.inputs {
            let files = &mut self.v.levels[*level];
            let (taken, kept): (Vec<_>, Vec<_>) =
                files.drain(..).partition(|f| numbers.contains(&f.number));
            *files = kept;
            assert_eq!(taken.len(), numbers.len(), "every input exists");
            inputs.extend(taken);
        }
        let lo = inputs
            .iter()
            .map(|f| unkey(&f.smallest))
            .min()
            .expect("inputs");
        let hi = inputs
            .iter()
            .map(|f| unkey(&f.largest))
            .max()
            .expect("inputs");
        self.v.running.retain(|r| {
            !(r.output_level == t.output_level && r.smallest == key(lo) && r.largest == key(hi))
        });
        let outputs = if t.trivial_move {
            self.bytes_moved += inputs.iter().map(|f| f.size).sum::<u64>();
            inputs
                .into_iter()
                .map(|f| FileSummary {
                    being_compacted: false,
                    ..f
                })
                .collect()
        } else {
            let size: u64 = inputs.iter().map(|f| f.size).sum();
            self.bytes_rewritten += size;
            let seqs = (
                inputs
                    .iter()
                    .map(|f| f.smallest_seqno)
                    .min()
                    .expect("inputs"),
                inputs
                    .iter()
                    .map(|f| f.largest_seqno)
                    .max()
                    .expect("inputs"),
            );
            let parts = size
                .div_ceil(t.target_file_size.max(1))
                .clamp(1, hi - lo + 1);
            let width = (hi - lo + 1) / parts;
            let mut out = Vec::new();
            for i in 0..parts {
                let a = lo + i * width;
                let b = if i + 1 == parts { hi } else { a + width - 1 };
                out.push(self.new_file(a, b, size / parts, seqs));
            }
            out
        };
        let level = &mut self.v.levels[t.output_level];
        level.extend(outputs);
        if t.output_level == 0 {
            level.sort_by_key(|f| std::cmp::Reverse(f.largest_seqno));
        } else {
            level.sort_by(|a, b| a.smallest.cmp(&b.smallest));
        }
        self.check_shape();
    }

    fn check_shape(&self) {
        let l0 = &self.v.levels[0];
        assert!(l0
            .windows(2)
            .all(|w| w[0].largest_seqno >= w[1].largest_seqno));
        for (n, files) in self.v.levels.iter().enumerate().skip(1) {
            for w in files.windows(2) {
                assert!(
                    w[0].largest < w[1].smallest,
                    "L{n} files {} and {} overlap",
                    w[0].number,
                    w[1].number
                );
            }
        }
    }

    /// Picks and applies until the picker is satisfied.
    fn settle(&mut self, o: &PickerOptions) {
        for _ in 0..10_000 {
            let Some(t) = pick(&self.v, o, &CMP) else {
                return;
            };
            self.start(&t);
            self.finish(&t);
        }
        panic!("the picker did not settle");
    }
}

/// Invariants of any task: inputs exist and are idle, L0 inputs take every older
/// overlapping L0 file, L1+ inputs are a clean cut, and the output level's overlap is all in.
fn check_task(v: &LevelsSummary, t: &CompactionTask) {
    let find = |level: usize, n: u64| -> &FileSummary {
        v.files(level)
            .iter()
            .find(|f| f.number == n)
            .expect("input exists in its level")
    };
    let overlaps =
        |a: &FileSummary, b: &FileSummary| a.smallest <= b.largest && b.smallest <= a.largest;
    assert_eq!(t.inputs[0].0, t.start_level);
    for (level, numbers) in &t.inputs {
        assert!(!numbers.is_empty());
        for &n in numbers {
            assert!(!find(*level, n).being_compacted, "picked busy file {n}");
        }
    }
    let (start, ins) = (&t.inputs[0].0, &t.inputs[0].1);
    let files = v.files(*start);
    if *start == 0 && t.output_level == 0 {
        // Intra-L0: a contiguous span, so the output's seqno range sits where the inputs were.
        let pos: Vec<usize> = (0..files.len())
            .filter(|&i| ins.contains(&files[i].number))
            .collect();
        assert!(
            pos.windows(2).all(|w| w[1] == w[0] + 1),
            "intra-L0 inputs not contiguous"
        );
    } else if *start == 0 {
        let oldest_input = files
            .iter()
            .rposition(|f| ins.contains(&f.number))
            .expect("input");
        for f in files.iter().filter(|f| ins.contains(&f.number)) {
            for g in &files[oldest_input..] {
                assert!(
                    !overlaps(f, g) || ins.contains(&g.number),
                    "older L0 file {} left above {}",
                    g.number,
                    f.number
                );
            }
        }
    } else {
        for f in files.iter().filter(|f| ins.contains(&f.number)) {
            for g in files.iter().filter(|g| !ins.contains(&g.number)) {
                assert!(
                    !overlaps(f, g),
                    "user key split between {} and {}",
                    f.number,
                    g.number
                );
            }
        }
    }
    if t.output_level != t.start_level {
        let all: Vec<&FileSummary> = t
            .inputs
            .iter()
            .flat_map(|(l, ns)| ns.iter().map(move |&n| find(*l, n)))
            .collect();
        let out_inputs: &[u64] = t.inputs.get(1).map_or(&[], |(_, ns)| ns.as_slice());
        for g in v.files(t.output_level) {
            if all.iter().any(|f| overlaps(f, g)) {
                assert!(
                    out_inputs.contains(&g.number),
                    "output file {} overlaps but is not input",
                    g.number
                );
            }
        }
        if t.trivial_move {
            assert!(out_inputs.is_empty());
        }
    }
}

fn sim_options(dynamic: bool) -> PickerOptions {
    PickerOptions {
        num_levels: 7,
        level0_file_num_compaction_trigger: 4,
        max_bytes_for_level_base: 4 * MIB,
        max_bytes_for_level_multiplier: 4.0,
        level_compaction_dynamic_level_bytes: dynamic,
        target_file_size_base: MIB,
        target_file_size_multiplier: 1,
        max_compaction_bytes: 25 * MIB,
        disable_auto_compactions: false,
    }
}

const KEY_SPACE: u64 = 1 << 32;

fn random_flush(sim: &mut Sim) {
    let width = 1_000_000 + sim.rand() % (KEY_SPACE / 2);
    let lo = sim.rand() % (KEY_SPACE - width);
    let size = MIB / 2 + sim.rand() % MIB;
    sim.flush(lo, lo + width, size);
}

fn assert_settled_shape(sim: &Sim, o: &PickerOptions) {
    let scores = compaction_scores(&sim.v, o);
    assert!(
        scores.iter().all(|&(_, s)| s < 1.0),
        "unsettled: {scores:?}"
    );
    let targets = level_targets(&sim.v, o);
    assert!(sim.v.files(0).len() < o.level0_file_num_compaction_trigger);
    for level in targets.base_level..o.num_levels - 1 {
        assert!(
            sim.v.level_bytes(level) <= targets.max_bytes[level],
            "L{level} holds {} > target {}",
            sim.v.level_bytes(level),
            targets.max_bytes[level]
        );
    }
    if o.level_compaction_dynamic_level_bytes {
        for level in 1..targets.base_level {
            assert!(
                sim.v.files(level).is_empty(),
                "L{level} above the base level holds data"
            );
        }
    }
}

fn run_random_sim(dynamic: bool, seed: u64) -> Sim {
    let o = sim_options(dynamic);
    let mut sim = Sim::new(7, seed);
    for _ in 0..400 {
        random_flush(&mut sim);
        sim.settle(&o);
    }
    assert_settled_shape(&sim, &o);
    sim
}

#[test]
fn simulator_random_flushes_static() {
    let sim = run_random_sim(false, 0x5eed);
    // 400 flushes of ~1 MiB reach past L3 (4, 16, 64 MiB targets).
    assert!(sim.v.files(4).iter().map(|f| f.size).sum::<u64>() > 0);
    assert!(sim.tasks > 50);
}

#[test]
fn simulator_random_flushes_dynamic() {
    let sim = run_random_sim(true, 0xd1ce);
    let t = level_targets(&sim.v, &sim_options(true));
    assert!(
        t.base_level < 6 && t.base_level > 1,
        "base level moved: {}",
        t.base_level
    );
    assert!(sim.v.level_bytes(6) > 0, "data collects in the last level");
}

/// The key range of a task's inputs (user keys of the synthetic version).
fn task_range(v: &LevelsSummary, t: &CompactionTask) -> (Vec<u8>, Vec<u8>) {
    let files: Vec<&FileSummary> = t
        .inputs
        .iter()
        .flat_map(|(l, ns)| v.files(*l).iter().filter(move |f| ns.contains(&f.number)))
        .collect();
    let lo = files
        .iter()
        .map(|f| f.smallest.clone())
        .min()
        .expect("inputs");
    let hi = files
        .iter()
        .map(|f| f.largest.clone())
        .max()
        .expect("inputs");
    (lo, hi)
}

/// A new pick against the tasks in flight: no shared input, no overlapping output range in
/// the same level, and at most one L0 to base compaction (intra-L0 merges of newer files may
/// run beside it, as in RocksDB).
fn check_disjoint_from_running(v: &LevelsSummary, running: &[CompactionTask], t: &CompactionTask) {
    let (lo, hi) = task_range(v, t);
    for r in running {
        for n in t.input_numbers() {
            assert!(!r.input_numbers().any(|m| m == n), "file {n} in two tasks");
        }
        assert!(
            !(t.start_level == 0 && t.output_level > 0 && r.start_level == 0 && r.output_level > 0),
            "two L0 to base compactions at once"
        );
        if r.output_level == t.output_level {
            let (rlo, rhi) = task_range(v, r);
            assert!(
                hi < rlo || rhi < lo,
                "outputs to L{} overlap: {lo:?}..{hi:?} and {rlo:?}..{rhi:?}",
                t.output_level
            );
        }
    }
}

/// Several compactions in flight at once: picks must never share files or produce
/// overlapping output, and the tree must still settle.
#[test]
fn simulator_concurrent_compactions() {
    for dynamic in [false, true] {
        let o = sim_options(dynamic);
        let mut sim = Sim::new(7, 0xc0ffee + u64::from(dynamic));
        let mut in_flight: Vec<CompactionTask> = Vec::new();
        let mut max_in_flight = 0;
        let (mut intra_l0, mut trivial) = (0usize, 0usize);
        for step in 0..1500 {
            if step % 3 == 0 {
                random_flush(&mut sim);
            }
            while in_flight.len() < 3 {
                let Some(t) = pick(&sim.v, &o, &CMP) else {
                    break;
                };
                check_disjoint_from_running(&sim.v, &in_flight, &t);
                intra_l0 += usize::from(t.output_level == 0);
                trivial += usize::from(t.trivial_move);
                sim.start(&t);
                in_flight.push(t);
            }
            max_in_flight = max_in_flight.max(in_flight.len());
            if !in_flight.is_empty() {
                // Finish a pseudo-random one, not always the oldest.
                let i = (sim.rand() % in_flight.len() as u64) as usize;
                let t = in_flight.remove(i);
                sim.finish(&t);
            }
        }
        for t in in_flight.drain(..) {
            sim.finish(&t);
        }
        sim.settle(&o);
        assert_settled_shape(&sim, &o);
        assert!(max_in_flight >= 2, "the test should overlap compactions");
        // The fixed seed makes L0 -> base wait often enough to need intra-L0 merges.
        assert!(
            intra_l0 > 0 && trivial > 0,
            "intra-L0 {intra_l0}, trivial {trivial}"
        );
    }
}

/// Append-only keys (a Raft log): every compaction is a trivial move.
#[test]
fn simulator_append_only_is_all_trivial_moves() {
    for dynamic in [false, true] {
        let o = sim_options(dynamic);
        let mut sim = Sim::new(7, 7);
        let mut next_key = 0u64;
        for _ in 0..500 {
            let n = 1000 + sim.rand() % 5000;
            let size = MIB / 2 + sim.rand() % MIB;
            sim.flush(next_key, next_key + n - 1, size);
            next_key += n;
            for _ in 0..1000 {
                let Some(t) = pick(&sim.v, &o, &CMP) else {
                    break;
                };
                assert!(t.trivial_move, "append-only compaction rewrote data: {t:?}");
                sim.start(&t);
                sim.finish(&t);
            }
        }
        assert_eq!(sim.bytes_rewritten, 0);
        assert!(sim.bytes_moved > 100 * MIB, "data moved down the tree");
        assert_settled_shape(&sim, &o);
    }
}

/// Drives a manual compaction to completion with the simulator's made-up outputs.
fn run_manual(
    sim: &mut Sim,
    o: &PickerOptions,
    begin: Option<u64>,
    end: Option<u64>,
) -> Vec<CompactionTask> {
    let (b, e) = (begin.map(key), end.map(key));
    let mut plan = plan_manual(&sim.v, o, b.as_deref(), e.as_deref(), &CMP);
    let mut done = Vec::new();
    for _ in 0..1000 {
        match plan.next_task(&sim.v, o, &CMP) {
            ManualNext::Task(t) => {
                assert_eq!(t.reason, CompactionReason::ManualCompaction);
                sim.start(&t);
                sim.finish(&t);
                done.push(t);
            }
            ManualNext::Done => return done,
            ManualNext::Conflict => panic!("nothing else is running"),
        }
    }
    panic!("manual compaction did not finish");
}

fn levels_holding(sim: &Sim, lo: u64, hi: u64) -> Vec<usize> {
    (0..sim.v.levels.len())
        .filter(|&l| {
            sim.v.levels[l]
                .iter()
                .any(|f| unkey(&f.smallest) <= hi && lo <= unkey(&f.largest))
        })
        .collect()
}

#[test]
fn plan_manual_pushes_the_range_into_one_level() {
    let o = sim_options(false);
    let mut sim = Sim::new(7, 11);
    for _ in 0..40 {
        random_flush(&mut sim);
        sim.settle(&o);
    }
    random_flush(&mut sim); // leave something in L0
    let before = levels_holding(&sim, 0, KEY_SPACE);
    let last = *before.last().expect("data");
    let plan = plan_manual(&sim.v, &o, None, None, &CMP);
    let expected: Vec<ManualStep> = (before[0]..last)
        .map(|l| ManualStep {
            input_level: l,
            output: ManualOutput::Level(l + 1),
        })
        .collect();
    assert_eq!(plan.steps(), expected.as_slice());
    run_manual(&mut sim, &o, None, None);
    assert_eq!(levels_holding(&sim, 0, KEY_SPACE), vec![last]);

    // Only L0: goes to L1.
    let mut sim = Sim::new(7, 12);
    sim.flush(10, 20, MIB);
    sim.flush(15, 30, MIB);
    let tasks = run_manual(&mut sim, &o, None, None);
    assert_eq!(tasks.len(), 1);
    assert!(!tasks[0].trivial_move, "overlapping L0 files are merged");
    assert_eq!(levels_holding(&sim, 0, 100), vec![1]);

    // Nothing in range: nothing to do.
    let plan = plan_manual(&sim.v, &o, Some(&key(1000)), Some(&key(2000)), &CMP);
    assert!(plan.steps().is_empty());
}

#[test]
fn plan_manual_dynamic_ends_in_last_level() {
    let o = sim_options(true);
    let mut sim = Sim::new(7, 13);
    sim.flush(10, 20, MIB);
    sim.flush(30, 40, MIB);
    let plan = plan_manual(&sim.v, &o, None, None, &CMP);
    assert_eq!(
        plan.steps(),
        &[ManualStep {
            input_level: 0,
            output: ManualOutput::BaseLevel
        }]
    );
    let tasks = run_manual(&mut sim, &o, None, None);
    assert!(tasks[0].trivial_move, "non-overlapping L0 moves");
    assert_eq!(levels_holding(&sim, 0, 100), vec![6]);
}

#[test]
fn plan_manual_range_only_touches_overlapping_files() {
    let o = sim_options(false);
    let mut sim = Sim::new(7, 14);
    sim.v.levels[1] = vec![
        file(100, 0, 99, MIB),
        file(101, 100, 199, MIB),
        file(102, 200, 299, MIB),
    ];
    sim.v.levels[2] = vec![file(103, 110, 140, 3 * MIB)];
    sim.next_number = 200;
    let tasks = run_manual(&mut sim, &o, Some(120), Some(150));
    assert_eq!(tasks.len(), 1);
    assert_eq!(tasks[0].inputs, vec![(1, vec![101]), (2, vec![103])]);
    let l1: Vec<u64> = sim.v.files(1).iter().map(|f| f.number).collect();
    assert_eq!(l1, vec![100, 102]);
}

#[test]
fn plan_manual_splits_big_steps() {
    let o = PickerOptions {
        max_compaction_bytes: 3 * MIB,
        ..sim_options(false)
    };
    let mut sim = Sim::new(7, 15);
    sim.v.levels[1] = (0..10)
        .map(|i| file(100 + i, i * 100, i * 100 + 99, MIB))
        .collect();
    sim.v.levels[2] = vec![file(99, 5000, 6000, MIB)];
    sim.next_number = 200;
    let tasks = run_manual(&mut sim, &o, None, None);
    assert!(
        tasks.len() >= 3,
        "split into several tasks: {}",
        tasks.len()
    );
    assert!(tasks
        .iter()
        .all(|t| t.start_level == 1 && t.output_level == 2));
    assert!(sim.v.files(1).is_empty());
    assert_eq!(sim.v.files(2).len(), 11);
}

#[test]
fn manual_conflicts_with_busy_files() {
    let o = sim_options(false);
    let mut lv = levels(7);
    lv[0] = vec![file(2, 0, 10, MIB)];
    lv[0][0].being_compacted = true;
    lv[1] = vec![file(1, 0, 10, MIB)];
    let v = LevelsSummary::new(lv);
    let mut plan = plan_manual(&v, &o, None, None, &CMP);
    assert_eq!(plan.next_task(&v, &o, &CMP), ManualNext::Conflict);
    assert_eq!(
        plan.next_task(&v, &o, &CMP),
        ManualNext::Conflict,
        "state unchanged"
    );
}
