// SPDX-License-Identifier: Apache-2.0
//! Model-based test: random operation sequences against the engine and a `BTreeMap` model.
//!
//! Operations: put, delete, single delete, delete range, merge (uint64 add), batches across
//! column families (synced or not), get, multi_get, iterate both ways with bounds and seeks,
//! snapshots (reads through them later), column family create and drop, clean reopen, and
//! crash-reopen: the newest WAL is cut at a random offset between its last synced size and
//! its end (what a power loss may leave), then the DB is reopened and must equal the model as
//! of the last batch that lies wholly before the cut (never part of a batch); flush,
//! compact_range, and checkpoint-and-open: a checkpoint taken mid-sequence (with or without
//! flushing first) is opened as a DB of its own and must equal the model at that point,
//! while the source goes on.
//!
//! Tiny write buffers, target file sizes and level targets, a small `max_manifest_file_size`,
//! four background jobs and two subcompactions make every background path run in every
//! case: memtable switches, flushes, automatic and concurrent compactions, subcompactions and
//! MANIFEST roll-overs.
//!
//! `PROPTEST_CASES` sets the number of cases (CI runs at least 256); a failure prints the
//! seed and the minimal sequence.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use proptest::prelude::*;
use solistore::batch::WriteBatch;
use solistore::db::{ColumnFamilyHandle, Db, Snapshot};
use solistore::merge::UInt64AddOperator;
use solistore::options::{ColumnFamilyOptions, DbOptions, ReadOptions, WriteOptions};

type Kv = BTreeMap<Vec<u8>, Vec<u8>>;
type State = BTreeMap<String, Kv>;

const CF_POOL: [&str; 3] = ["default", "alpha", "beta"];

#[derive(Debug, Clone)]
enum Mutation {
    Put(usize, Vec<u8>, Vec<u8>),
    Delete(usize, Vec<u8>),
    SingleDelete(usize, Vec<u8>),
    DeleteRange(usize, Vec<u8>, Vec<u8>),
    Merge(usize, u64, Vec<u8>),
}

#[derive(Debug, Clone)]
enum Op {
    Write {
        muts: Vec<Mutation>,
        sync: bool,
    },
    Get(usize, Vec<u8>),
    MultiGet(Vec<(usize, Vec<u8>)>),
    Scan {
        cf: usize,
        lower: Option<Vec<u8>>,
        upper: Option<Vec<u8>>,
        seeks: Vec<Vec<u8>>,
    },
    TakeSnapshot,
    ReadSnapshot(usize, usize),
    ReleaseSnapshot(usize),
    CreateCf(usize),
    DropCf(usize),
    Reopen,
    CrashReopen(u16),
    Flush(usize),
    CompactRange(usize, Option<Vec<u8>>, Option<Vec<u8>>),
    /// A checkpoint opened and compared; true flushes the memtables first.
    Checkpoint(bool),
}

fn key() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => (0u8..24).prop_map(|i| vec![b'k', b'a' + i]),
        1 => proptest::collection::vec(any::<u8>(), 0..4),
    ]
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let cf = 0usize..3;
    prop_oneof![
        6 => (cf.clone(), key(), proptest::collection::vec(any::<u8>(), 0..12)).prop_map(|(c, k, v)| Mutation::Put(c, k, v)),
        2 => (cf.clone(), key()).prop_map(|(c, k)| Mutation::Delete(c, k)),
        1 => (cf.clone(), key()).prop_map(|(c, k)| Mutation::SingleDelete(c, k)),
        1 => (cf.clone(), key(), key()).prop_map(|(c, a, b)| Mutation::DeleteRange(c, a, b)),
        2 => (cf, 0u64..1000, key()).prop_map(|(c, n, k)| Mutation::Merge(c, n, k)),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        10 => (proptest::collection::vec(mutation(), 1..5), any::<bool>()).prop_map(|(muts, sync)| Op::Write { muts, sync }),
        4 => (0usize..3, key()).prop_map(|(c, k)| Op::Get(c, k)),
        1 => proptest::collection::vec((0usize..3, key()), 1..40).prop_map(Op::MultiGet),
        3 => (0usize..3, proptest::option::of(key()), proptest::option::of(key()), proptest::collection::vec(key(), 0..3))
            .prop_map(|(cf, lower, upper, seeks)| Op::Scan { cf, lower, upper, seeks }),
        1 => Just(Op::TakeSnapshot),
        2 => (0usize..4, 0usize..3).prop_map(|(s, c)| Op::ReadSnapshot(s, c)),
        1 => (0usize..4).prop_map(Op::ReleaseSnapshot),
        1 => (1usize..3).prop_map(Op::CreateCf),
        1 => (1usize..3).prop_map(Op::DropCf),
        1 => Just(Op::Reopen),
        1 => any::<u16>().prop_map(Op::CrashReopen),
        1 => (0usize..3).prop_map(Op::Flush),
        1 => (0usize..3, proptest::option::of(key()), proptest::option::of(key())).prop_map(|(c, a, b)| Op::CompactRange(c, a, b)),
        1 => any::<bool>().prop_map(Op::Checkpoint),
    ]
}

fn cf_opts() -> ColumnFamilyOptions {
    ColumnFamilyOptions {
        merge_operator: Some(Arc::new(UInt64AddOperator)),
        write_buffer_size: 2048,
        target_file_size_base: 1024,
        max_bytes_for_level_base: 4096,
        level0_file_num_compaction_trigger: 2,
        ..Default::default()
    }
}

fn db_opts() -> DbOptions {
    DbOptions {
        create_if_missing: true,
        max_background_jobs: 4,
        max_subcompactions: 2,
        max_manifest_file_size: 4096,
        ..Default::default()
    }
}

fn u64_of(v: &[u8]) -> u64 {
    <[u8; 8]>::try_from(v).map(u64::from_le_bytes).unwrap_or(0)
}

/// Applies one mutation to the model (no-op for a family that does not exist).
fn apply(state: &mut State, m: &Mutation) {
    let cf_of = |c: usize| CF_POOL[c].to_string();
    match m {
        Mutation::Put(c, k, v) => {
            if let Some(t) = state.get_mut(&cf_of(*c)) {
                t.insert(k.clone(), v.clone());
            }
        }
        Mutation::Delete(c, k) | Mutation::SingleDelete(c, k) => {
            if let Some(t) = state.get_mut(&cf_of(*c)) {
                t.remove(k);
            }
        }
        Mutation::DeleteRange(c, a, b) => {
            if let Some(t) = state.get_mut(&cf_of(*c)) {
                if a < b {
                    let doomed: Vec<_> = t
                        .range(a.clone()..b.clone())
                        .map(|(k, _)| k.clone())
                        .collect();
                    for k in doomed {
                        t.remove(&k);
                    }
                }
            }
        }
        Mutation::Merge(c, n, k) => {
            if let Some(t) = state.get_mut(&cf_of(*c)) {
                let base = t.get(k).map(|v| u64_of(v)).unwrap_or(0);
                t.insert(k.clone(), base.wrapping_add(*n).to_le_bytes().to_vec());
            }
        }
    }
}

struct Harness {
    dir: tempfile::TempDir,
    db: Option<Db>,
    handles: BTreeMap<String, ColumnFamilyHandle>,
    state: State,
    /// Crash bookkeeping: (WAL number, its end offset) after each write, with the state after
    /// it. Older WALs are whole files; only the newest one's unsynced tail can be cut.
    history: Vec<((u64, u64), State)>,
    /// (WAL number, size) at the last sync.
    synced: (u64, u64),
    snapshots: Vec<(Snapshot, State)>,
    checkpoints: usize,
}

impl Harness {
    fn new() -> Self {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut h = Harness {
            dir,
            db: None,
            handles: BTreeMap::new(),
            state: State::new(),
            history: Vec::new(),
            synced: (0, 0),
            snapshots: Vec::new(),
            checkpoints: 0,
        };
        h.state.insert("default".into(), Kv::new());
        h.open();
        h
    }

    fn path(&self) -> String {
        self.dir.path().join("db").to_string_lossy().into_owned()
    }

    fn open(&mut self) {
        let path = self.path();
        let opts = db_opts();
        let names = Db::list_column_families(&path).unwrap_or_else(|_| vec!["default".to_string()]);
        let descs = names.iter().map(|n| (n.clone(), cf_opts())).collect();
        let (db, handles) = Db::open_cf(&opts, &path, descs).expect("open");
        self.handles = names.into_iter().zip(handles).collect();
        let mut names: Vec<_> = self.handles.keys().cloned().collect();
        names.sort();
        let mut model: Vec<_> = self.state.keys().cloned().collect();
        model.sort();
        assert_eq!(names, model, "column families after open");
        self.db = Some(db);
        self.snapshots.clear();
        self.reset_history();
    }

    /// Treats everything written so far as durable and starts a new crash history.
    fn reset_history(&mut self) {
        self.synced = self.wal_pos();
        self.history = vec![(self.synced, self.state.clone())];
    }

    fn db(&self) -> &Db {
        self.db.as_ref().expect("db is open")
    }

    fn newest_wal(&self) -> Option<std::path::PathBuf> {
        let dir = Path::new(&self.path()).to_path_buf();
        let mut wals: Vec<_> = std::fs::read_dir(&dir)
            .expect("read_dir")
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".log"))
            .collect();
        wals.sort();
        wals.pop().map(|n| dir.join(n))
    }

    /// The newest WAL's number and size.
    /// The newest WAL's number and its appended bytes: the open DB's own account (a synced
    /// WAL's file is longer, by zeros written ahead), else the file's size.
    fn wal_pos(&self) -> (u64, u64) {
        if let Some(end) = self.db.as_ref().and_then(Db::wal_end) {
            return end;
        }
        let Some(p) = self.newest_wal() else {
            return (0, 0);
        };
        let number = p
            .file_stem()
            .and_then(|s| s.to_str())
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        (number, std::fs::metadata(&p).map(|m| m.len()).unwrap_or(0))
    }

    fn check_equal(
        &self,
        read: impl Fn(&Db, &ColumnFamilyHandle, &[u8]) -> Option<Vec<u8>>,
        state: &State,
    ) {
        for (cf, kv) in state {
            let Some(h) = self.handles.get(cf) else {
                continue;
            };
            // Every model key reads back, and a scan shows exactly the model.
            for (k, v) in kv {
                assert_eq!(read(self.db(), h, k).as_ref(), Some(v), "cf {cf} key {k:?}");
            }
        }
    }

    fn scan_all(&self, cf: &str, ro: &ReadOptions) -> Kv {
        let h = &self.handles[cf];
        let mut it = self.db().iter(ro, h).expect("iter");
        let mut out = Kv::new();
        it.seek_to_first();
        while it.valid() {
            out.insert(it.key().to_vec(), it.value().to_vec());
            it.next();
        }
        it.status().expect("scan status");
        out
    }

    fn run(&mut self, op: &Op) {
        match op {
            Op::Write { muts, sync } => {
                let mut batch = WriteBatch::new();
                let mut applied = Vec::new();
                for m in muts {
                    let c = match m {
                        Mutation::Put(c, ..)
                        | Mutation::Delete(c, _)
                        | Mutation::SingleDelete(c, _)
                        | Mutation::DeleteRange(c, ..)
                        | Mutation::Merge(c, ..) => *c,
                    };
                    let Some(h) = self.handles.get(CF_POOL[c]) else {
                        continue;
                    };
                    let id = h.id();
                    match m {
                        Mutation::Put(_, k, v) => batch.put(id, k, v),
                        Mutation::Delete(_, k) => batch.delete(id, k),
                        Mutation::SingleDelete(_, k) => batch.single_delete(id, k),
                        Mutation::DeleteRange(_, a, b) => batch.delete_range(id, a, b),
                        Mutation::Merge(_, n, k) => batch.merge(id, k, &n.to_le_bytes()),
                    }
                    applied.push(m.clone());
                }
                let wo = WriteOptions {
                    sync: *sync,
                    ..Default::default()
                };
                self.db().write(&wo, &batch).expect("write");
                for m in &applied {
                    apply(&mut self.state, m);
                }
                let pos = self.wal_pos();
                if *sync {
                    self.synced = pos;
                }
                self.history.push((pos, self.state.clone()));
            }
            Op::Get(c, k) => {
                let Some(h) = self.handles.get(CF_POOL[*c]) else {
                    return;
                };
                let got = self.db().get(&ReadOptions::default(), h, k).expect("get");
                assert_eq!(got.as_ref(), self.state[CF_POOL[*c]].get(k), "get {k:?}");
            }
            Op::MultiGet(keys) => {
                let present: Vec<_> = keys
                    .iter()
                    .filter(|(c, _)| self.handles.contains_key(CF_POOL[*c]))
                    .collect();
                let req: Vec<(&ColumnFamilyHandle, &[u8])> = present
                    .iter()
                    .map(|(c, k)| (&self.handles[CF_POOL[*c]], k.as_slice()))
                    .collect();
                let got = self.db().multi_get(&ReadOptions::default(), &req);
                for ((c, k), g) in present.iter().zip(got) {
                    assert_eq!(
                        g.expect("multi_get").as_ref(),
                        self.state[CF_POOL[*c]].get(k)
                    );
                }
            }
            Op::Scan {
                cf,
                lower,
                upper,
                seeks,
            } => {
                let name = CF_POOL[*cf];
                let Some(h) = self.handles.get(name) else {
                    return;
                };
                let ro = ReadOptions {
                    iterate_lower_bound: lower.clone(),
                    iterate_upper_bound: upper.clone(),
                    ..Default::default()
                };
                let expected: Vec<(Vec<u8>, Vec<u8>)> = self.state[name]
                    .iter()
                    .filter(|(k, _)| {
                        lower.as_ref().is_none_or(|l| *k >= l)
                            && upper.as_ref().is_none_or(|u| *k < u)
                    })
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                let mut it = self.db().iter(&ro, h).expect("iter");
                let mut fwd = Vec::new();
                it.seek_to_first();
                while it.valid() {
                    fwd.push((it.key().to_vec(), it.value().to_vec()));
                    it.next();
                }
                assert_eq!(fwd, expected, "forward scan");
                let mut back = Vec::new();
                it.seek_to_last();
                while it.valid() {
                    back.push((it.key().to_vec(), it.value().to_vec()));
                    it.prev();
                }
                back.reverse();
                assert_eq!(back, expected, "backward scan");
                for s in seeks {
                    it.seek(s);
                    let want = expected.iter().find(|(k, _)| k >= s);
                    assert_eq!(
                        it.valid()
                            .then(|| (it.key().to_vec(), it.value().to_vec()))
                            .as_ref(),
                        want,
                        "seek {s:?}"
                    );
                    if it.valid() {
                        it.prev();
                        let want_prev = expected.iter().rev().find(|(k, _)| k < s);
                        assert_eq!(
                            it.valid().then(|| it.key().to_vec()).as_ref(),
                            want_prev.map(|(k, _)| k),
                            "prev after seek"
                        );
                    }
                    it.seek_for_prev(s);
                    let want = expected.iter().rev().find(|(k, _)| k <= s);
                    assert_eq!(
                        it.valid()
                            .then(|| (it.key().to_vec(), it.value().to_vec()))
                            .as_ref(),
                        want,
                        "seek_for_prev {s:?}"
                    );
                    if it.valid() {
                        it.next();
                        let want_next = expected.iter().find(|(k, _)| k > s);
                        assert_eq!(
                            it.valid().then(|| it.key().to_vec()).as_ref(),
                            want_next.map(|(k, _)| k),
                            "next after seek_for_prev"
                        );
                    }
                }
                it.status().expect("iter status");
            }
            Op::TakeSnapshot => {
                if self.snapshots.len() < 4 {
                    let s = self.db().snapshot();
                    self.snapshots.push((s, self.state.clone()));
                }
            }
            Op::ReadSnapshot(i, c) => {
                let Some((snap, state)) = self.snapshots.get(*i) else {
                    return;
                };
                let name = CF_POOL[*c];
                let (Some(_), Some(expected)) = (self.handles.get(name), state.get(name)) else {
                    return;
                };
                let ro = ReadOptions {
                    snapshot: Some(snap.sequence()),
                    ..Default::default()
                };
                assert_eq!(&self.scan_all(name, &ro), expected, "snapshot scan");
                for (k, v) in expected {
                    assert_eq!(
                        self.db()
                            .get(&ro, &self.handles[name], k)
                            .expect("get")
                            .as_ref(),
                        Some(v)
                    );
                }
            }
            Op::ReleaseSnapshot(i) => {
                if *i < self.snapshots.len() {
                    self.snapshots.remove(*i);
                }
            }
            Op::CreateCf(c) => {
                let name = CF_POOL[*c];
                let res = self.db().create_column_family(cf_opts(), name);
                if self.state.contains_key(name) {
                    assert_eq!(
                        res.expect_err("exists").to_string(),
                        "Invalid argument: Column family already exists"
                    );
                } else {
                    self.handles
                        .insert(name.to_string(), res.expect("create cf"));
                    self.state.insert(name.to_string(), Kv::new());
                }
                self.reset_history();
            }
            Op::DropCf(c) => {
                let name = CF_POOL[*c];
                if let Some(h) = self.handles.remove(name) {
                    self.db().drop_column_family(&h).expect("drop cf");
                    self.state.remove(name);
                    self.snapshots.clear();
                }
                self.reset_history();
            }
            Op::Reopen => {
                self.snapshots.clear();
                let db = self.db.take().expect("open");
                db.close().expect("close");
                drop(db);
                self.handles.clear();
                self.open();
                self.check_equal(
                    |db, h, k| db.get(&ReadOptions::default(), h, k).expect("get"),
                    &self.state.clone(),
                );
                for cf in self.state.keys() {
                    assert_eq!(&self.scan_all(cf, &ReadOptions::default()), &self.state[cf]);
                }
            }
            Op::CrashReopen(r) => {
                self.snapshots.clear();
                let db = self.db.take().expect("open");
                let (number, size) = db.wal_end().unwrap_or_else(|| self.wal_pos());
                db.simulate_crash();
                // The file's length with the zeros written ahead, which the crash leaves and
                // a power loss leaves after whatever part of the tail survived.
                let zeroed = self
                    .newest_wal()
                    .and_then(|p| std::fs::metadata(p).ok())
                    .map_or(0, |m| m.len());
                drop(db);
                self.handles.clear();
                // Cut the newest WAL anywhere after its last synced byte.
                let floor = if self.synced.0 == number {
                    self.synced.1
                } else {
                    0
                };
                let floor = floor.min(size);
                let span = size - floor;
                let cut = floor
                    + if span == 0 {
                        0
                    } else {
                        u64::from(*r) % (span + 1)
                    };
                let mut cut = cut;
                if let Some(wal) = self.newest_wal() {
                    let bytes = std::fs::read(&wal).expect("read wal");
                    let f = std::fs::OpenOptions::new()
                        .write(true)
                        .open(&wal)
                        .expect("open wal");
                    f.set_len(cut).expect("truncate");
                    if zeroed > size {
                        f.set_len(zeroed).expect("zero tail");
                        // The zeros restore any zero bytes the cut removed: the file is
                        // intact up to the first nonzero byte lost.
                        cut += bytes
                            .get(cut as usize..)
                            .map_or(0, |rest| rest.iter().take_while(|&&b| b == 0).count())
                            as u64;
                    }
                }
                // The expected state: the last write that lies wholly in an older WAL or
                // before the cut (the history starts with a state known to be durable).
                let pos = self
                    .history
                    .iter()
                    .rposition(|((n, end), _)| *n < number || (*n == number && *end <= cut))
                    .expect("the base entry is durable");
                self.state = self.history[pos].1.clone();
                self.open();
                for cf in self.state.keys() {
                    assert_eq!(
                        &self.scan_all(cf, &ReadOptions::default()),
                        &self.state[cf],
                        "after crash, cf {cf}"
                    );
                }
            }
            Op::Flush(c) => {
                let Some(h) = self.handles.get(CF_POOL[*c]) else {
                    return;
                };
                self.db().flush(h, true).expect("flush");
            }
            Op::CompactRange(c, a, b) => {
                let Some(h) = self.handles.get(CF_POOL[*c]) else {
                    return;
                };
                self.db()
                    .compact_range(h, a.as_deref(), b.as_deref())
                    .expect("compact_range");
                assert_eq!(
                    &self.scan_all(CF_POOL[*c], &ReadOptions::default()),
                    &self.state[CF_POOL[*c]]
                );
            }
            Op::Checkpoint(flush_first) => {
                self.checkpoints += 1;
                let dir = self.dir.path().join(format!("ckpt{}", self.checkpoints));
                let dir = dir.to_string_lossy().into_owned();
                let log_size_for_flush = if *flush_first { 0 } else { u64::MAX };
                self.db()
                    .create_checkpoint(&dir, log_size_for_flush)
                    .expect("checkpoint");
                let names = Db::list_column_families(&dir).expect("checkpoint families");
                let descs = names.iter().map(|n| (n.clone(), cf_opts())).collect();
                let opts = DbOptions {
                    create_if_missing: false,
                    ..db_opts()
                };
                let (ck, handles) = Db::open_cf(&opts, &dir, descs).expect("open checkpoint");
                let mut listed: Vec<String> = names.clone();
                listed.sort();
                let model: Vec<String> = self.state.keys().cloned().collect();
                assert_eq!(listed, model, "checkpoint column families");
                for (name, h) in names.iter().zip(&handles) {
                    let mut it = ck.iter(&ReadOptions::default(), h).expect("iter");
                    let mut got = Kv::new();
                    it.seek_to_first();
                    while it.valid() {
                        got.insert(it.key().to_vec(), it.value().to_vec());
                        it.next();
                    }
                    it.status().expect("checkpoint scan");
                    assert_eq!(&got, &self.state[name], "checkpoint cf {name}");
                }
                ck.close().expect("close checkpoint");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(256), ..ProptestConfig::default() })]
    #[test]
    fn engine_matches_model(ops in proptest::collection::vec(op(), 1..60)) {
        let mut h = Harness::new();
        for op in &ops {
            h.run(op);
        }
    }
}
