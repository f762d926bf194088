// SPDX-License-Identifier: Apache-2.0
//! Shared by the fault-injection tests (`crash_sweep`, `fault_injection`): scripted workloads
//! ([`Step`]), a runner that records what the DB acknowledged ([`Record`]), and the model
//! check of a reopened DB ([`verify`]).
//!
//! The model. Writes reach the WAL in order and recovery replays a prefix of them, so a DB
//! recovered after a crash must hold exactly the first `p` attempted writes for some `p`
//! with `lo <= p <= attempted`, where `lo` counts the writes that had to survive:
//! - after a power cut ([`CrashMode::DropUnsynced`], [`CrashMode::TornUnsynced`]): every
//!   write acknowledged before the last acknowledged synced write, `sync_wal`, full flush or
//!   reopen;
//! - after a process kill ([`CrashMode::KeepUnsynced`]): every acknowledged write.
//!
//! The failed write itself may or may not be there; a batch is all there or not at all
//! (a state between two writes never matches). Column family creations and drops are
//! durable once acknowledged; the one in flight may have happened or not. An acknowledged
//! checkpoint opens with exactly the writes acknowledged before it; an unacknowledged one
//! either does not exist or is complete.

#![allow(dead_code, reason = "each test crate uses its own part of the harness")]

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Once};

use solistore::batch::WriteBatch;
use solistore::db::{ColumnFamilyHandle, Db};
use solistore::fs::fault::{CrashMode, FaultFs};
use solistore::fs::{filename, FileSystem};
use solistore::options::{ColumnFamilyOptions, DbOptions, ReadOptions, WriteOptions};
use solistore::version::set::VersionSet;
use solistore::Error;

/// Where the workloads' DB lives (in the in-memory file system).
pub const DB: &str = "/fault/db";

static PANICS: AtomicUsize = AtomicUsize::new(0);

/// Counts every panic of the engine in this test process from now on (the engine turns a
/// panic in a background job into an error, which a model check alone would not notice).
/// A failed assertion of a test itself (a panic raised in a `tests/` file) is not counted:
/// the counter is shared by every test of the process, and one test's failure must not be
/// reported as an engine panic in all the others.
pub fn count_panics() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let in_test = info
                .location()
                .is_some_and(|l| l.file().starts_with("tests/") || l.file().contains("/tests/"));
            if !in_test {
                PANICS.fetch_add(1, Ordering::Relaxed);
            }
            previous(info);
        }));
    });
}

/// Panics counted since [`count_panics`].
pub fn panics() -> usize {
    PANICS.load(Ordering::Relaxed)
}

/// Writes a summary line straight to stderr: the test harness captures `println!` of passing
/// tests, and CI logs should show the counts.
pub fn report(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// The number in environment variable `name`, or `default`.
pub fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// A small deterministic generator (xorshift64*), for random workloads.
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n.max(1)
    }
}

/// A random workload of `len` steps over families `default`, `a`, `b` and `c`.
pub fn random_steps(seed: u64, len: usize) -> Vec<Step> {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let pool = ["a", "b", "c"];
    let mut live: Vec<&'static str> = vec!["default"];
    let mut checkpoints = 0;
    let mut steps = Vec::new();
    let key = |rng: &mut Rng| format!("k{:02}", rng.below(24));
    for i in 0..len {
        let roll = rng.below(100);
        let pick = |rng: &mut Rng, live: &[&'static str]| live[rng.below(live.len())];
        let step = match roll {
            0..=54 => {
                let n = 1 + rng.below(3);
                let ops = (0..n)
                    .map(|j| {
                        let cf = pick(&mut rng, &live);
                        let op = match rng.below(10) {
                            0..=6 => Op::Put(key(&mut rng), format!("s{seed}-{i}-{j}")),
                            7 | 8 => Op::Del(key(&mut rng)),
                            _ => {
                                let b = rng.below(22);
                                Op::Range(format!("k{b:02}"), format!("k{:02}", b + 3))
                            }
                        };
                        (cf, op)
                    })
                    .collect();
                Step::Write {
                    ops,
                    sync: rng.below(4) == 0,
                }
            }
            55..=64 => Step::Flush(pick(&mut rng, &live)),
            65..=68 => Step::FlushAll,
            69..=74 => Step::Compact(pick(&mut rng, &live)),
            75..=80 => match pool.iter().find(|n| !live.contains(n)) {
                Some(n) => {
                    live.push(n);
                    Step::CreateCf(n)
                }
                None => Step::SyncWal,
            },
            81..=85 if live.len() > 1 => {
                let n = live.remove(1 + rng.below(live.len() - 1));
                Step::DropCf(n)
            }
            86..=88 if checkpoints < 2 => {
                checkpoints += 1;
                let name: &'static str = Box::leak(format!("cp-{seed}-{i}").into_boxed_str());
                Step::Checkpoint {
                    name,
                    log_size_for_flush: if rng.below(2) == 0 { 0 } else { u64::MAX },
                }
            }
            89..=93 => Step::SyncWal,
            _ => Step::Reopen,
        };
        steps.push(step);
    }
    steps
}

/// One operation of a write batch.
#[derive(Clone, Debug)]
pub enum Op {
    Put(String, String),
    Del(String),
    /// Deletes `[begin, end)`.
    Range(String, String),
}

/// One step of a scripted workload.
#[derive(Clone, Debug)]
pub enum Step {
    /// One atomic batch; its operations name column families by name.
    Write {
        ops: Vec<(&'static str, Op)>,
        sync: bool,
    },
    /// Flush one family and wait.
    Flush(&'static str),
    /// Start a flush of one family and go on: the memtable switches now, and the writes
    /// that follow go to the new WAL while the old memtable's table is still being written.
    FlushNoWait(&'static str),
    /// Flush every family and wait.
    FlushAll,
    /// Manual compaction of a whole family.
    Compact(&'static str),
    CreateCf(&'static str),
    DropCf(&'static str),
    /// A checkpoint in `/fault/<name>`.
    Checkpoint {
        name: &'static str,
        log_size_for_flush: u64,
    },
    /// `flush_wal(true)`.
    SyncWal,
    /// Close and open again (a new MANIFEST is written at every open).
    Reopen,
}

/// A put of `key` = `value` in `cf`.
pub fn put(cf: &'static str, key: &str, value: &str, sync: bool) -> Step {
    Step::Write {
        ops: vec![(cf, Op::Put(key.into(), value.into()))],
        sync,
    }
}

/// A scripted workload and the options it runs with.
pub struct Scenario {
    pub name: &'static str,
    pub steps: Vec<Step>,
    /// Adjusts the default options (small buffers, auto compactions, ...).
    pub tweak: fn(&mut DbOptions, &mut ColumnFamilyOptions),
}

/// A column family change that was in flight when the run failed.
#[derive(Clone, Debug)]
pub enum CfChange {
    Create(String),
    Drop(String),
}

/// A checkpoint the run asked for.
#[derive(Clone, Debug)]
pub struct CheckpointRecord {
    pub dir: String,
    /// Writes acknowledged before it (its exact content).
    pub writes: usize,
    pub cfs: BTreeMap<String, u32>,
    pub acked: bool,
}

/// What one run attempted and what the DB acknowledged.
#[derive(Clone, Debug, Default)]
pub struct Record {
    /// Every attempted write (the failed one last), by column family id.
    pub writes: Vec<Vec<(u32, Op)>>,
    pub acked: usize,
    /// Writes that must survive a power cut.
    pub durable: usize,
    /// Acknowledged live column families (name to id).
    pub cfs: BTreeMap<String, u32>,
    pub in_flight: Option<CfChange>,
    pub checkpoints: Vec<CheckpointRecord>,
    /// The first error, and at which step.
    pub error: Option<(usize, Error)>,
}

pub fn options(fs: &Arc<FaultFs>, sc: &Scenario) -> (DbOptions, ColumnFamilyOptions) {
    let mut db = DbOptions {
        create_if_missing: true,
        file_system: Some(fs.clone() as Arc<dyn FileSystem>),
        ..Default::default()
    };
    let mut cf = ColumnFamilyOptions {
        write_buffer_size: 1 << 20,
        disable_auto_compactions: true,
        ..Default::default()
    };
    (sc.tweak)(&mut db, &mut cf);
    (db, cf)
}

/// Opens `dir` with every family its MANIFEST lists (only `default` when there is none).
pub fn open_all(
    fs: &Arc<FaultFs>,
    sc: &Scenario,
    dir: &str,
) -> Result<(Db, BTreeMap<String, ColumnFamilyHandle>), Error> {
    let (opts, cf_opts) = options(fs, sc);
    let current = format!("{dir}/CURRENT");
    let names = if fs.exists(Path::new(&current)) {
        Db::list_column_families_with(&opts, dir)?
    } else {
        vec!["default".to_string()]
    };
    let descs = names.iter().map(|n| (n.clone(), cf_opts.clone())).collect();
    let (db, handles) = Db::open_cf(&opts, dir, descs)?;
    let map = names.into_iter().zip(handles).collect();
    Ok((db, map))
}

struct Runner<'a> {
    fs: &'a Arc<FaultFs>,
    sc: &'a Scenario,
    db: Option<Db>,
    handles: BTreeMap<String, ColumnFamilyHandle>,
    rec: Record,
}

impl Runner<'_> {
    fn step(&mut self, step: &Step) -> Result<(), Error> {
        let db = match &self.db {
            Some(db) => db.clone(),
            None => return Err(Error::invalid_argument("no open DB")),
        };
        match step {
            Step::Write { ops, sync } => {
                let mut batch = WriteBatch::new();
                let mut recorded = Vec::new();
                for (cf, op) in ops {
                    let h = &self.handles[*cf];
                    match op {
                        Op::Put(k, v) => batch.put(h.id(), k.as_bytes(), v.as_bytes()),
                        Op::Del(k) => batch.delete(h.id(), k.as_bytes()),
                        Op::Range(b, e) => batch.delete_range(h.id(), b.as_bytes(), e.as_bytes()),
                    }
                    recorded.push((h.id(), op.clone()));
                }
                self.rec.writes.push(recorded);
                let wo = WriteOptions {
                    sync: *sync,
                    ..Default::default()
                };
                db.write(&wo, &batch)?;
                self.rec.acked = self.rec.writes.len();
                if *sync {
                    self.rec.durable = self.rec.acked;
                }
            }
            Step::Flush(cf) => db.flush(&self.handles[*cf], true)?,
            Step::FlushNoWait(cf) => db.flush(&self.handles[*cf], false)?,
            Step::FlushAll => {
                db.flush_all(true)?;
                self.rec.durable = self.rec.acked;
            }
            Step::Compact(cf) => db.compact_range(&self.handles[*cf], None, None)?,
            Step::CreateCf(name) => {
                self.rec.in_flight = Some(CfChange::Create(name.to_string()));
                let (_, cf_opts) = options(self.fs, self.sc);
                let h = db.create_column_family(cf_opts, name)?;
                self.rec.cfs.insert(name.to_string(), h.id());
                self.handles.insert(name.to_string(), h);
                self.rec.in_flight = None;
            }
            Step::DropCf(name) => {
                self.rec.in_flight = Some(CfChange::Drop(name.to_string()));
                db.drop_column_family(&self.handles[*name])?;
                self.rec.cfs.remove(*name);
                self.handles.remove(*name);
                self.rec.in_flight = None;
            }
            Step::Checkpoint {
                name,
                log_size_for_flush,
            } => {
                let dir = format!("/fault/{name}");
                self.rec.checkpoints.push(CheckpointRecord {
                    dir: dir.clone(),
                    writes: self.rec.acked,
                    cfs: self.rec.cfs.clone(),
                    acked: false,
                });
                db.create_checkpoint(&dir, *log_size_for_flush)?;
                if let Some(c) = self.rec.checkpoints.last_mut() {
                    c.acked = true;
                }
                if *log_size_for_flush == 0 {
                    // The checkpoint flushed every family first.
                    self.rec.durable = self.rec.acked;
                }
            }
            Step::SyncWal => {
                db.flush_wal(true)?;
                self.rec.durable = self.rec.acked;
            }
            Step::Reopen => {
                self.db = None;
                self.handles.clear();
                db.close()?;
                drop(db);
                let (db, handles) = open_all(self.fs, self.sc, DB)?;
                self.db = Some(db);
                self.handles = handles;
                // Open flushed what the WAL held into synced tables.
                self.rec.durable = self.rec.acked;
            }
        }
        Ok(())
    }
}

/// Runs `sc` on `fs` until its end or its first error. Returns the record and the DB (still
/// open, for the caller to crash) when one is open.
pub fn run(fs: &Arc<FaultFs>, sc: &Scenario) -> (Record, Option<Db>) {
    let mut rec = Record::default();
    rec.cfs.insert("default".into(), 0);
    let (db, handles) = match open_all(fs, sc, DB) {
        Ok(x) => x,
        Err(e) => {
            rec.error = Some((0, e));
            return (rec, None);
        }
    };
    let mut runner = Runner {
        fs,
        sc,
        db: Some(db),
        handles,
        rec,
    };
    for (i, step) in sc.steps.iter().enumerate() {
        if let Err(e) = runner.step(step) {
            runner.rec.error = Some((i + 1, e));
            break;
        }
    }
    (runner.rec, runner.db)
}

/// Every key of every family of `db`, by family name.
pub fn read_all(
    db: &Db,
    handles: &BTreeMap<String, ColumnFamilyHandle>,
) -> Result<BTreeMap<String, BTreeMap<String, String>>, Error> {
    let mut out = BTreeMap::new();
    for (name, h) in handles {
        let mut it = db.iter(&ReadOptions::default(), h)?;
        it.seek_to_first();
        let mut m = BTreeMap::new();
        while it.valid() {
            m.insert(
                String::from_utf8_lossy(it.key()).into_owned(),
                String::from_utf8_lossy(it.value()).into_owned(),
            );
            it.next();
        }
        it.status()?;
        out.insert(name.clone(), m);
    }
    Ok(out)
}

fn apply(state: &mut BTreeMap<u32, BTreeMap<String, String>>, write: &[(u32, Op)]) {
    for (cf, op) in write {
        let m = state.entry(*cf).or_default();
        match op {
            Op::Put(k, v) => {
                m.insert(k.clone(), v.clone());
            }
            Op::Del(k) => {
                m.remove(k);
            }
            Op::Range(b, e) => m.retain(|k, _| !(k >= b && k < e)),
        }
    }
}

/// The model after the first `n` writes, by family id.
pub fn model_after(rec: &Record, n: usize) -> BTreeMap<u32, BTreeMap<String, String>> {
    let mut state = BTreeMap::new();
    for w in &rec.writes[..n] {
        apply(&mut state, w);
    }
    state
}

type Contents = BTreeMap<String, BTreeMap<String, String>>;

fn matches(
    got: &Contents,
    ids: &BTreeMap<String, u32>,
    model: &BTreeMap<u32, BTreeMap<String, String>>,
) -> bool {
    let empty = BTreeMap::new();
    got.iter().all(|(name, content)| {
        let want = ids.get(name).and_then(|id| model.get(id)).unwrap_or(&empty);
        content == want
    })
}

/// The families the reopened DB may and must have.
fn check_families(rec: &Record, got: &BTreeMap<String, u32>) -> Result<(), String> {
    let mut allowed = rec.cfs.clone();
    let mut required = rec.cfs.clone();
    match &rec.in_flight {
        Some(CfChange::Create(n)) => {
            if let Some(id) = got.get(n) {
                allowed.insert(n.clone(), *id);
            }
        }
        Some(CfChange::Drop(n)) => {
            required.remove(n);
        }
        None => {}
    }
    for (name, id) in &required {
        if got.get(name) != Some(id) {
            return Err(format!(
                "column family {name} (id {id}) missing after recovery; have {got:?}"
            ));
        }
    }
    for (name, id) in got {
        if allowed.get(name) != Some(id) {
            return Err(format!("unexpected column family {name} (id {id})"));
        }
    }
    Ok(())
}

/// The first write count that must survive a crash in `mode`.
pub fn lower_bound(rec: &Record, mode: CrashMode) -> usize {
    match mode {
        CrashMode::KeepUnsynced => rec.acked,
        CrashMode::DropUnsynced | CrashMode::TornUnsynced => rec.durable,
    }
}

/// Checks the crashed state itself, before anything reopens it: every table the MANIFEST
/// that CURRENT names lists must be on disk. (A table missing here was deleted too early by
/// the crashed run; one that goes missing later was lost by the reopened DB.)
pub fn check_crashed_tables(fs: &Arc<FaultFs>, dir: &str) -> Result<(), String> {
    let path = Path::new(dir);
    if !fs.exists(&path.join("CURRENT")) {
        return Ok(());
    }
    // A MANIFEST that does not read is the reopen's to report, with RocksDB's words.
    let Ok(vs) = VersionSet::recover(fs.clone() as Arc<dyn FileSystem>, path) else {
        return Ok(());
    };
    let mut missing = Vec::new();
    for meta in vs.column_families.values() {
        for (level, files) in &meta.files {
            for f in files {
                if !fs.exists(&filename::table_file(path, f.number)) {
                    missing.push(format!(
                        "{:06}.sst (family {}, L{level})",
                        f.number, meta.id
                    ));
                }
            }
        }
    }
    if missing.is_empty() {
        return Ok(());
    }
    Err(format!(
        "the crashed state's MANIFEST-{:06} names tables that are not on disk: {}",
        vs.manifest_number,
        missing.join(", ")
    ))
}

/// Reopens the DB on `fs` (already crashed) and checks it against the model; then writes a
/// marker to every family, reopens once more and checks again (recovery left a DB that
/// works). Also checks every checkpoint. Returns the matched prefix.
pub fn verify(
    fs: &Arc<FaultFs>,
    sc: &Scenario,
    rec: &Record,
    mode: CrashMode,
) -> Result<usize, String> {
    check_crashed_tables(fs, DB)?;
    let (db, handles) = open_all(fs, sc, DB).map_err(|e| format!("reopen failed: {e}"))?;
    let ids: BTreeMap<String, u32> = handles.iter().map(|(n, h)| (n.clone(), h.id())).collect();
    check_families(rec, &ids)?;
    let got = read_all(&db, &handles).map_err(|e| format!("read failed: {e}"))?;
    let lo = lower_bound(rec, mode);
    let mut model = model_after(rec, lo);
    let mut matched = None;
    for p in lo..=rec.writes.len() {
        if p > lo {
            apply(&mut model, &rec.writes[p - 1]);
        }
        if matches(&got, &ids, &model) {
            matched = Some(p);
            break;
        }
    }
    let Some(p) = matched else {
        return Err(format!(
            "no prefix in {lo}..={} of the writes matches the recovered DB (acked {}, durable {}):\n  got   {got:?}\n  model@{lo} {:?}",
            rec.writes.len(),
            rec.acked,
            rec.durable,
            model_after(rec, lo)
        ));
    };
    // Recovery must leave a working DB: a synced marker in every family survives a reopen.
    let wo = WriteOptions {
        sync: true,
        ..Default::default()
    };
    for h in handles.values() {
        db.put(&wo, h, b"~marker", b"m")
            .map_err(|e| format!("write after recovery failed: {e}"))?;
    }
    db.close()
        .map_err(|e| format!("close after recovery failed: {e}"))?;
    drop((db, handles));
    let (db, handles) = open_all(fs, sc, DB).map_err(|e| format!("second reopen failed: {e}"))?;
    let mut again = read_all(&db, &handles).map_err(|e| format!("read failed: {e}"))?;
    for (name, m) in again.iter_mut() {
        if m.remove("~marker").as_deref() != Some("m") {
            return Err(format!(
                "the marker written after recovery is missing in {name}"
            ));
        }
    }
    if again != got {
        return Err(format!(
            "the second reopen changed the data:\n  first  {got:?}\n  second {again:?}"
        ));
    }
    db.close().map_err(|e| format!("close failed: {e}"))?;
    drop((db, handles));
    for cp in &rec.checkpoints {
        verify_checkpoint(fs, sc, rec, cp)?;
    }
    Ok(p)
}

fn verify_checkpoint(
    fs: &Arc<FaultFs>,
    sc: &Scenario,
    rec: &Record,
    cp: &CheckpointRecord,
) -> Result<(), String> {
    if !fs.exists(Path::new(&cp.dir)) {
        if cp.acked {
            return Err(format!("acknowledged checkpoint {} is gone", cp.dir));
        }
        return Ok(());
    }
    let (db, handles) = open_all(fs, sc, &cp.dir)
        .map_err(|e| format!("checkpoint {} does not open: {e}", cp.dir))?;
    let ids: BTreeMap<String, u32> = handles.iter().map(|(n, h)| (n.clone(), h.id())).collect();
    if ids != cp.cfs {
        return Err(format!(
            "checkpoint {} has families {ids:?}, expected {:?}",
            cp.dir, cp.cfs
        ));
    }
    let got = read_all(&db, &handles).map_err(|e| format!("read failed: {e}"))?;
    if !matches(&got, &ids, &model_after(rec, cp.writes)) {
        return Err(format!(
            "checkpoint {} does not hold exactly the {} writes acknowledged before it: {got:?}",
            cp.dir, cp.writes
        ));
    }
    db.close().map_err(|e| format!("close failed: {e}"))?;
    Ok(())
}
