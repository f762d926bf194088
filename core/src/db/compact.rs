// SPDX-License-Identifier: Apache-2.0
//! Compaction scheduling and installation (background path): asks the pure policy
//! (`crate::compaction::picker`) what to compact, registers what the task owns, runs it
//! (`db::compaction_job` merges; a trivial move re-files a table one level down without
//! reading it) and installs the result as one VersionEdit.
//!
//! Concurrency: several compactions may run at once, on the background threads and in
//! `compact_range` callers. [`RunningCompactions`] records, per column family, the input
//! files and the output level and key range of every compaction in flight. A pick happens
//! under its lock, on a summary of the current version whose registered files carry
//! `being_compacted` and whose `running` lists the registered output ranges, so the policy
//! never hands out a file twice nor two overlapping outputs in one level, and keeps L0 to
//! the base level exclusive. The registration ends (and waiters wake) after the result is
//! installed, so a later pick always sees either the inputs or the outputs.
//!
//! A manual compaction is exclusive as in RocksDB (`exclusive_manual_compaction`, the
//! default): while one runs, the background threads pick nothing new; it waits for the
//! files it needs when a running compaction holds them.

use std::sync::atomic::Ordering as AtomicOrdering;
use std::sync::Arc;

use super::column_family::ColumnFamilyData;
use super::super_version::SuperVersion;
use super::DbInner;
use crate::compaction::manual::{plan_manual, ManualNext};
use crate::compaction::picker::{
    self, CompactionTask, FileSummary, LevelsSummary, PickerOptions, RunningCompaction,
};
use crate::error::Result;
use crate::fs::filename;
use crate::key::internal_key::user_key;
use crate::key::Comparator;
use crate::version::edit::{FileMetaData, VersionEdit};
use crate::version::version::Version;

/// One compaction in flight.
#[derive(Debug)]
struct Running {
    id: u64,
    cf: u32,
    files: Vec<u64>,
    output: RunningCompaction,
}

/// The compactions in flight in one DB (guarded by `DbInner::compactions`).
#[derive(Debug, Default)]
pub(crate) struct RunningCompactions {
    next_id: u64,
    list: Vec<Running>,
    /// Manual compactions running now; automatic picks wait while any does.
    manual: usize,
}

impl RunningCompactions {
    /// The policy's view of `v` (column family `cf`) with the registered work marked.
    fn summary(&self, cf: u32, v: &Version) -> LevelsSummary {
        let mut s = summarize(v);
        for r in self.list.iter().filter(|r| r.cf == cf) {
            for level in s.levels.iter_mut() {
                for f in level.iter_mut() {
                    if r.files.contains(&f.number) {
                        f.being_compacted = true;
                    }
                }
            }
            s.running.push(r.output.clone());
        }
        s
    }

    fn register(
        &mut self,
        cf: u32,
        task: &CompactionTask,
        summary: &LevelsSummary,
        ucmp: &dyn Comparator,
    ) -> u64 {
        let files: Vec<u64> = task.input_numbers().collect();
        let mut lo: Option<&[u8]> = None;
        let mut hi: Option<&[u8]> = None;
        for (level, numbers) in &task.inputs {
            for f in summary.files(*level) {
                if numbers.contains(&f.number) {
                    if lo.is_none_or(|x| ucmp.compare(&f.smallest, x).is_lt()) {
                        lo = Some(&f.smallest);
                    }
                    if hi.is_none_or(|x| ucmp.compare(&f.largest, x).is_gt()) {
                        hi = Some(&f.largest);
                    }
                }
            }
        }
        let id = self.next_id;
        self.next_id += 1;
        self.list.push(Running {
            id,
            cf,
            files,
            output: RunningCompaction {
                output_level: task.output_level,
                smallest: lo.unwrap_or_default().to_vec(),
                largest: hi.unwrap_or_default().to_vec(),
            },
        });
        id
    }
}

/// Ends a registration when dropped (also when the job fails or panics).
struct Registration<'a> {
    db: &'a DbInner,
    id: u64,
}

impl Drop for Registration<'_> {
    fn drop(&mut self) {
        let mut reg = self.db.compactions.lock();
        reg.list.retain(|r| r.id != self.id);
        drop(reg);
        self.db.compactions_done.notify_all();
    }
}

impl DbInner {
    /// Registers `task` of `cfd` (picked from `summary` under `reg`'s lock) and counts it.
    fn register<'a>(
        &'a self,
        reg: &mut RunningCompactions,
        cfd: &ColumnFamilyData,
        task: &CompactionTask,
        summary: &LevelsSummary,
    ) -> Registration<'a> {
        let id = reg.register(cfd.id, task, summary, cfd.options.comparator.as_ref());
        self.stats
            .max_running_compactions
            .fetch_max(reg.list.len() as u64, AtomicOrdering::Relaxed);
        Registration { db: self, id }
    }

    /// Compactions in flight now (background and manual).
    pub(crate) fn num_running_compactions(&self) -> usize {
        self.compactions.lock().list.len()
    }

    /// Picks one automatic compaction (of the first column family that needs one), runs and
    /// installs it. Returns whether one ran. Before running, asks the scheduler to look for
    /// more work, so that another thread can pick a disjoint compaction meanwhile.
    pub(crate) fn run_one_compaction(&self) -> Result<bool> {
        if self.closed.load(AtomicOrdering::Acquire) {
            return Ok(false);
        }
        let cfds: Vec<Arc<ColumnFamilyData>> = self.cfs.read().iter().cloned().collect();
        for cfd in cfds {
            if cfd.options.disable_auto_compactions || cfd.is_dropped() {
                continue;
            }
            let picked = {
                let mut reg = self.compactions.lock();
                if reg.manual > 0 {
                    return Ok(false);
                }
                // The summary's view is dropped before the job runs: a view held across it
                // would keep the inputs from being deleted.
                let summary = reg.summary(cfd.id, &cfd.super_version().version);
                picker::pick(
                    &summary,
                    &PickerOptions::from_cf_options(&cfd.options),
                    cfd.options.comparator.as_ref(),
                )
                .map(|task| {
                    let r = self.register(&mut reg, &cfd, &task, &summary);
                    (task, r)
                })
            };
            if let Some((task, registration)) = picked {
                self.background.schedule_compaction();
                self.execute_compaction(&cfd, &task)?;
                drop(registration);
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Manual compaction of `[begin, end]` in one column family (RocksDB's `CompactRange`):
    /// afterwards the range sits in one level and deleted data is physically gone.
    pub(crate) fn compact_range(
        &self,
        cfd: &Arc<ColumnFamilyData>,
        begin: Option<&[u8]>,
        end: Option<&[u8]>,
    ) -> Result<()> {
        self.compactions.lock().manual += 1;
        let res = self.compact_range_exclusive(cfd, begin, end);
        self.compactions.lock().manual -= 1;
        self.background.schedule_compaction();
        res
    }

    fn compact_range_exclusive(
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
            let next = {
                let mut reg = self.compactions.lock();
                let summary = reg.summary(cfd.id, &cfd.super_version().version);
                match plan.next_task(&summary, &o, ucmp.as_ref()) {
                    ManualNext::Task(task) => {
                        let r = self.register(&mut reg, cfd, &task, &summary);
                        Some((task, r))
                    }
                    ManualNext::Conflict => {
                        // A running compaction holds a needed file: wait for one to end.
                        self.compactions_done
                            .wait_for(&mut reg, std::time::Duration::from_millis(50));
                        continue;
                    }
                    ManualNext::Done => None,
                }
            };
            let Some((mut task, registration)) = next else {
                self.delete_obsolete_tables();
                return Ok(());
            };
            if cfd.options.compaction_filter.is_some()
                || cfd.options.compaction_filter_factory.is_some()
            {
                task.trivial_move = false; // the filter must see every value
            }
            self.execute_compaction(cfd, &task)?;
            drop(registration);
        }
    }

    /// Executes one registered compaction task and installs its result.
    pub(crate) fn execute_compaction(
        &self,
        cfd: &Arc<ColumnFamilyData>,
        task: &CompactionTask,
    ) -> Result<()> {
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
        drop(sv);
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
            self.stats
                .trivial_moves
                .fetch_add(1, AtomicOrdering::Relaxed);
            for (_, f) in &inputs {
                edit.new_files
                    .push((task.output_level as u32, (**f).clone()));
            }
        } else {
            for meta in self.merge_files(cfd, &inputs, task)? {
                edit.new_files.push((task.output_level as u32, meta));
            }
        }
        self.install_compaction(cfd, edit, inputs)?;
        self.stats.compactions.fetch_add(1, AtomicOrdering::Relaxed);
        Ok(())
    }

    fn install_compaction(
        &self,
        cfd: &Arc<ColumnFamilyData>,
        edit: VersionEdit,
        inputs: Vec<(usize, Arc<FileMetaData>)>,
    ) -> Result<()> {
        let mut vs = self.versions.lock();
        if cfd.is_dropped() {
            // Dropped while the compaction ran (drops happen under `versions`): its outputs
            // are in no version.
            drop(vs);
            let inputs: std::collections::HashSet<u64> =
                inputs.iter().map(|(_, f)| f.number).collect();
            for (_, f) in &edit.new_files {
                if !inputs.contains(&f.number) {
                    let _ = self
                        .fs
                        .remove_file(&filename::table_file(&self.path, f.number));
                }
            }
            return Ok(());
        }
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

    /// Deletes table files that are in no version any reader can still hold, and
    /// MANIFESTs that CURRENT no longer names.
    pub(crate) fn delete_obsolete_tables(&self) {
        let disabled = self.deletions_disabled.lock();
        if *disabled > 0 {
            return;
        }
        let manifests = std::mem::take(&mut self.versions.lock().obsolete_manifests);
        for n in manifests {
            // A failure leaves a stray file, removed at the next open.
            let _ = self.fs.remove_file(&filename::manifest_file(&self.path, n));
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

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::Arc;

    use crate::compaction::picker::{CompactionReason, CompactionTask};
    use crate::db::Db;
    use crate::fs::fault::{CrashMode, Fault, FaultFs, OpKind};
    use crate::fs::{filename, FileSystem};
    use crate::options::{ColumnFamilyOptions, DbOptions, ReadOptions, WriteOptions};

    fn open(fs: &Arc<FaultFs>) -> Db {
        let opts = DbOptions {
            create_if_missing: true,
            file_system: Some(fs.clone() as Arc<dyn FileSystem>),
            bg_error_recovery_interval: None,
            ..Default::default()
        };
        let cf_opts = ColumnFamilyOptions {
            disable_auto_compactions: true,
            ..Default::default()
        };
        Db::open(&opts, cf_opts, "/db").expect("open")
    }

    /// Two level-0 tables, holding `a` and `b`; returns their numbers.
    fn two_tables(db: &Db) -> Vec<u64> {
        let h = db.default_cf();
        for key in [b"a", b"b"] {
            db.put(&WriteOptions::default(), &h, key, b"v")
                .expect("put");
            db.flush(&h, true).expect("flush");
        }
        let numbers: Vec<u64> = db.live_files().iter().map(|(_, _, f)| f.number).collect();
        assert_eq!(numbers.len(), 2);
        // The second flush's job may still hold a version naming the first table after
        // `flush` returned; under load that kept a compaction's inputs on disk, which both
        // tests using these tables assert are deleted.
        db.wait_for_background_work();
        numbers
    }

    fn task(from: usize, to: usize, numbers: &[u64], trivial_move: bool) -> CompactionTask {
        CompactionTask {
            start_level: from,
            output_level: to,
            inputs: vec![(from, numbers.to_vec())],
            trivial_move,
            target_file_size: u64::MAX,
            bottommost: true,
            reason: CompactionReason::ManualCompaction,
            score: -1.0,
            grandparents: None,
            max_compaction_bytes: u64::MAX,
        }
    }

    /// Found by the crash sweep (`background_work`: a read after recovery failed with "No
    /// such file or directory" while the reopened DB compacted): a trivial move re-filed a
    /// table under a new metadata `Arc`, so a later compaction of the moved table found
    /// nobody else holding that `Arc` and deleted the file while an older view (an
    /// iterator opened before the move) still named it.
    #[test]
    fn a_moved_table_stays_on_disk_while_a_view_from_before_the_move_names_it() {
        let fs = FaultFs::in_memory();
        let db = open(&fs);
        let h = db.default_cf();
        let numbers = two_tables(&db);
        db.inner
            .execute_compaction(&h.cfd, &task(0, 1, &numbers, true))
            .expect("move to L1");
        // A view naming the tables at level 1 (opened lazily there).
        let mut it = db.iter(&ReadOptions::default(), &h).expect("iter");
        db.inner
            .execute_compaction(&h.cfd, &task(1, 2, &numbers, true))
            .expect("move to L2");
        db.inner
            .execute_compaction(&h.cfd, &task(2, 3, &numbers, false))
            .expect("rewrite into L3");
        let table = |n: u64| filename::table_file(Path::new("/db"), n);
        for &n in &numbers {
            assert!(fs.exists(&table(n)), "table {n} deleted under a live view");
        }
        it.seek_to_first();
        let mut keys = Vec::new();
        while it.valid() {
            keys.push(it.key().to_vec());
            it.next();
        }
        it.status().expect("the view reads its tables");
        assert_eq!(keys, vec![b"a".to_vec(), b"b".to_vec()]);
        drop(it);
        db.inner.delete_obsolete_tables();
        for &n in &numbers {
            assert!(!fs.exists(&table(n)), "table {n} outlived the last view");
        }
        db.close().expect("close");
    }

    /// A new MANIFEST whose CURRENT switch failed after the rename (the directory sync
    /// failed) may be the one CURRENT names: an edit appended to the previous MANIFEST
    /// afterwards was lost at the next open, and the tables it deleted were named again.
    #[test]
    fn an_edit_after_a_failed_current_switch_starts_a_new_manifest() {
        let fs = FaultFs::in_memory();
        let db = open(&fs);
        let h = db.default_cf();
        let numbers = two_tables(&db);
        // A hard error (a WAL write on a full disk) ...
        fs.set_no_space(true);
        let synced = WriteOptions {
            sync: true,
            ..Default::default()
        };
        db.put(&synced, &h, b"x", b"1").expect_err("disk full");
        fs.set_no_space(false);
        // ... whose recovery writes a new MANIFEST and renames CURRENT to it, but fails to
        // sync the directory (syncs: the MANIFEST, CURRENT's temp file, the directory).
        fs.inject(Fault::nth(OpKind::Sync, 2));
        db.resume().expect_err("the directory sync fails");
        let current = fs
            .read_all(&filename::current_file(Path::new("/db")))
            .expect("CURRENT");
        let in_memory = db.inner.versions.lock().manifest_number;
        assert_ne!(
            String::from_utf8_lossy(&current).trim_end(),
            filename::manifest_name(in_memory),
            "CURRENT names the recovery's MANIFEST"
        );
        // A compaction running meanwhile installs its result and deletes its inputs.
        db.inner
            .execute_compaction(&h.cfd, &task(0, 1, &numbers, false))
            .expect("the compaction");
        for &n in &numbers {
            assert!(!fs.exists(&filename::table_file(Path::new("/db"), n)));
        }
        db.simulate_crash();
        drop(db);
        fs.crash(CrashMode::KeepUnsynced).expect("crash");
        let db = open(&fs);
        let h = db.default_cf();
        for key in [b"a", b"b"] {
            assert_eq!(
                db.get(&ReadOptions::default(), &h, key).expect("get"),
                Some(b"v".to_vec())
            );
        }
        db.close().expect("close");
    }
}
