// SPDX-License-Identifier: Apache-2.0
//! Corruption sweep (issue 8): a small DB (three column families, flushed tables in two
//! levels of age, a range tombstone in a table and one in the WAL, unflushed batches in the
//! WAL) is damaged one way at a time, reopened and read back:
//!
//! - every byte of the WALs, the MANIFEST, CURRENT and the OPTIONS file flipped, and every
//!   truncation length of each;
//! - every 7th byte of each table flipped (and every byte of its footer), and truncations at
//!   a stride of 31 bytes (and every length within the footer).
//!
//! Each damaged directory is opened in the four WAL recovery modes, with `paranoid_checks`
//! on and off, and read with `verify_checksums` on and off (a scan of every column family and
//! a point lookup of every key the workload ever wrote). The rules:
//!
//! - never a panic (each case runs under `catch_unwind`) and never a hang (a watchdog);
//! - never a wrong value. Every batch writes a marker key into each column family, so what a
//!   column family holds names the batches it recovered; the content must then equal the
//!   model's state after exactly those batches. Flushed batches must survive WAL and OPTIONS
//!   damage; a batch nothing flushed is all there or all gone in every family; with
//!   `paranoid_checks` in modes 0..2 the recovered batches of WAL damage are a prefix.
//!   Table damage: every lookup returns the right value or an error, and a scan returns a
//!   prefix of the right entries and then an error.
//! - the same outcome as Debian's RocksDB 7.8.3 (tests-c/compat/rocksdb_reader.c, run as one
//!   long-lived `--batch` process per worker) on the same damaged directory: both refuse to
//!   open, or both recover exactly the same entries. Compared for the WAL, MANIFEST and
//!   CURRENT cases (in CI at a stride, see `Plan`), not for tables (RocksDB verifies tables at
//!   open where solistore opens them on first read) nor OPTIONS (neither engine reads it to
//!   open; solistore's parser is run on the damaged text instead). A RocksDB job that
//!   crashes or takes over 20 s (7.8.3 spins on some WALs in SkipAny mode) is listed as
//!   `NO ANSWER` and not compared.
//!
//! `SOLISTORE_SWEEP_FULL=1` (`make soak`) flips every byte of every table, truncates at every
//! length and asks RocksDB about every case. The figures (cases, opens, seconds) are printed.

mod common;

use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{copy_dir, reader_binary, BatchReader, RocksOutcome};
use solistore::batch::WriteBatch;
use solistore::db::Db;
use solistore::options::{
    ColumnFamilyOptions, DbOptions, ReadOptions, WalRecoveryMode, WriteOptions,
};
use solistore::sst::CompressionType;
use solistore::wal::reader::{LogReader, ReadOutcome};

const CFS: [&str; 3] = ["default", "cf1", "cf2"];
const KEYS: usize = 24;
/// Batches before this are flushed in every family.
const FLUSH_ALL_AT: usize = 4;
/// Batches before this are flushed in `default` and `cf1` (not `cf2`).
const FLUSH_TWO_AT: usize = 7;
const BATCHES: usize = 14;

#[derive(Clone, Debug)]
enum Op {
    Put(usize, Vec<u8>, Vec<u8>),
    Delete(usize, Vec<u8>),
    DeleteRange(usize, Vec<u8>, Vec<u8>),
}

fn key(i: usize) -> Vec<u8> {
    format!("k{i:03}").into_bytes()
}

fn marker(b: usize) -> Vec<u8> {
    format!("m{b:02}").into_bytes()
}

/// Values that do not compress to nothing, so that data blocks have substance.
fn value(b: usize, cf: usize, i: usize, len: usize) -> Vec<u8> {
    let mut x = (b * 7919 + cf * 104_729 + i * 31) as u64 | 1;
    let mut v = format!("v{b}-{cf}-{i}-").into_bytes();
    while v.len() < len {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v.push(b'a' + (x % 26) as u8);
    }
    v
}

/// The workload: batch `b` writes marker `m<b>` into every family plus the ops below.
fn workload() -> Vec<Vec<Op>> {
    let mut out = Vec::new();
    for b in 0..BATCHES {
        let mut ops = Vec::new();
        for cf in 0..CFS.len() {
            ops.push(Op::Put(cf, marker(b), format!("batch {b}").into_bytes()));
        }
        if b < FLUSH_ALL_AT {
            for cf in 0..CFS.len() {
                for i in b * 6..b * 6 + 6 {
                    ops.push(Op::Put(cf, key(i), value(b, cf, i, 40)));
                }
            }
            if b == 3 {
                ops.push(Op::Delete(0, key(5)));
                ops.push(Op::DeleteRange(1, key(8), key(13)));
            }
        } else if b < FLUSH_TWO_AT {
            for cf in 0..CFS.len() {
                for i in (b % 4..KEYS).step_by(4) {
                    ops.push(Op::Put(cf, key(i), value(b, cf, i, 30)));
                }
            }
            if b == 5 {
                ops.push(Op::DeleteRange(0, key(14), key(19)));
            }
        } else {
            for cf in 0..CFS.len() {
                for i in [(b * 5) % KEYS, (b * 11 + cf) % KEYS] {
                    ops.push(Op::Put(cf, key(i), value(b, cf, i, 20)));
                }
            }
            if b == 9 {
                ops.push(Op::DeleteRange(2, key(18), key(22)));
            }
            if b == 10 {
                ops.push(Op::Delete(1, key(1)));
            }
        }
        out.push(ops);
    }
    out
}

type State = Vec<BTreeMap<Vec<u8>, Vec<u8>>>;

/// The model state of column family `cf` after the batches in `set`, in order.
fn apply(workload: &[Vec<Op>], cf: usize, set: &[usize]) -> BTreeMap<Vec<u8>, Vec<u8>> {
    let mut m = BTreeMap::new();
    for &b in set {
        for op in &workload[b] {
            match op {
                Op::Put(c, k, v) if *c == cf => {
                    m.insert(k.clone(), v.clone());
                }
                Op::Delete(c, k) if *c == cf => {
                    m.remove(k);
                }
                Op::DeleteRange(c, lo, hi) if *c == cf => {
                    m.retain(|k, _| k < lo || k >= hi);
                }
                _ => {}
            }
        }
    }
    m
}

/// Batches flushed into tables for `cf`.
fn flushed(cf: usize) -> usize {
    if cf == 2 {
        FLUSH_ALL_AT
    } else {
        FLUSH_TWO_AT
    }
}

fn cf_options(cf: usize) -> ColumnFamilyOptions {
    let mut o = ColumnFamilyOptions::default();
    match cf {
        0 => {
            o.block_size = 256;
            o.bloom_bits_per_key = Some(10.0);
        }
        1 => o.block_size = 512,
        _ => o.compression = CompressionType::None,
    }
    o
}

fn descs() -> Vec<(String, ColumnFamilyOptions)> {
    CFS.iter()
        .enumerate()
        .map(|(i, n)| (n.to_string(), cf_options(i)))
        .collect()
}

/// Writes the base DB and closes it (the unflushed batches stay in the WAL). Returns the
/// WAL file that holds each batch.
fn build_base(dir: &Path, workload: &[Vec<Op>]) -> Vec<String> {
    let opts = DbOptions {
        create_if_missing: true,
        create_missing_column_families: true,
        ..Default::default()
    };
    let (db, h) = Db::open_cf(&opts, &dir.to_string_lossy(), descs()).expect("open base");
    let mut first_seq = Vec::new();
    for (b, ops) in workload.iter().enumerate() {
        if b == FLUSH_ALL_AT {
            db.flush_all(true).expect("flush all");
        }
        if b == FLUSH_TWO_AT {
            db.flush(&h[0], true).expect("flush");
            db.flush(&h[1], true).expect("flush");
        }
        let mut wb = WriteBatch::new();
        for op in ops {
            match op {
                Op::Put(cf, k, v) => wb.put(h[*cf].id(), k, v),
                Op::Delete(cf, k) => wb.delete(h[*cf].id(), k),
                Op::DeleteRange(cf, lo, hi) => wb.delete_range(h[*cf].id(), lo, hi),
            }
        }
        first_seq.push(db.latest_sequence_number() + 1);
        db.write(&WriteOptions::default(), &wb).expect("write");
    }
    db.close().expect("close base");
    let mut wal_of = vec![String::new(); workload.len()];
    for e in std::fs::read_dir(dir).expect("base") {
        let name = e.expect("entry").file_name().to_string_lossy().into_owned();
        if !name.ends_with(".log") {
            continue;
        }
        let file = std::fs::File::open(dir.join(&name)).expect("wal");
        let mut reader = LogReader::new(file, 0, WalRecoveryMode::AbsoluteConsistency);
        let mut rec = Vec::new();
        while let ReadOutcome::Record = reader.read_record(&mut rec).expect("read wal") {
            let seq = WriteBatch::from_rep(rec.clone()).expect("batch").sequence();
            if let Some(b) = first_seq.iter().position(|s| *s == seq) {
                wal_of[b] = name.clone();
            }
        }
    }
    assert!(
        wal_of[FLUSH_ALL_AT..].iter().all(|w| !w.is_empty()),
        "every batch not flushed everywhere is in a WAL: {wal_of:?}"
    );
    wal_of
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Wal,
    Manifest,
    Current,
    Options,
    Table,
}

#[derive(Clone, Copy, Debug)]
enum Damage {
    /// XOR the byte at the offset with the mask.
    Flip(usize, u8),
    Truncate(usize),
}

#[derive(Clone, Debug)]
struct Case {
    file: String,
    kind: Kind,
    damage: Damage,
    /// Ask RocksDB about this case too.
    with_rocksdb: bool,
}

/// Every byte flip alternates a whole-byte flip and a single-bit flip (the bit cycling).
fn mask(offset: usize) -> u8 {
    if offset.is_multiple_of(2) {
        0xff
    } else {
        1 << ((offset / 2) % 8)
    }
}

/// How much of the sweep runs.
struct Plan {
    full: bool,
}

impl Plan {
    fn table_flip(&self, off: usize, len: usize) -> bool {
        self.full || off.is_multiple_of(7) || off + 53 >= len
    }
    fn table_truncate(&self, n: usize, len: usize) -> bool {
        self.full || n.is_multiple_of(31) || n + 64 >= len
    }
    /// RocksDB is asked about WAL cases at every 4th offset in CI (all four modes and both
    /// paranoid settings each), and about every MANIFEST and CURRENT case.
    fn rocksdb(&self, kind: Kind, off: usize) -> bool {
        match kind {
            Kind::Manifest | Kind::Current => true,
            Kind::Wal => self.full || off.is_multiple_of(4),
            Kind::Options | Kind::Table => false,
        }
    }
}

fn kind_of(name: &str) -> Option<Kind> {
    if name.ends_with(".log") {
        Some(Kind::Wal)
    } else if name.starts_with("MANIFEST-") {
        Some(Kind::Manifest)
    } else if name == "CURRENT" {
        Some(Kind::Current)
    } else if name.starts_with("OPTIONS-") {
        Some(Kind::Options)
    } else if name.ends_with(".sst") {
        Some(Kind::Table)
    } else {
        None
    }
}

fn cases(base: &Path, plan: &Plan) -> Vec<Case> {
    let mut names: Vec<String> = std::fs::read_dir(base)
        .expect("read base")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut out = Vec::new();
    for name in names {
        let Some(kind) = kind_of(&name) else { continue };
        let len = std::fs::metadata(base.join(&name)).expect("stat").len() as usize;
        for off in 0..len {
            if kind != Kind::Table || plan.table_flip(off, len) {
                out.push(Case {
                    file: name.clone(),
                    kind,
                    damage: Damage::Flip(off, mask(off)),
                    with_rocksdb: plan.rocksdb(kind, off),
                });
            }
        }
        for n in 0..len {
            if kind != Kind::Table || plan.table_truncate(n, len) {
                out.push(Case {
                    file: name.clone(),
                    kind,
                    damage: Damage::Truncate(n),
                    with_rocksdb: plan.rocksdb(kind, n),
                });
            }
        }
    }
    out
}

/// The open configurations a case is tried in: (mode, paranoid_checks).
fn configs(kind: Kind) -> Vec<(WalRecoveryMode, bool)> {
    const MODES: [WalRecoveryMode; 4] = [
        WalRecoveryMode::TolerateCorruptedTailRecords,
        WalRecoveryMode::AbsoluteConsistency,
        WalRecoveryMode::PointInTimeRecovery,
        WalRecoveryMode::SkipAnyCorruptedRecords,
    ];
    match kind {
        // OPTIONS is read by neither engine's open (solistore's parser gets every damaged
        // text on its own): one open in the default configuration.
        Kind::Options => vec![(WalRecoveryMode::PointInTimeRecovery, true)],
        // Tables are not read by WAL replay, so the mode cannot matter: each is opened in
        // the default mode and in the strictest, with paranoid on and off.
        Kind::Table => vec![
            (WalRecoveryMode::PointInTimeRecovery, true),
            (WalRecoveryMode::AbsoluteConsistency, false),
        ],
        _ => MODES
            .iter()
            .flat_map(|m| [(*m, true), (*m, false)])
            .collect(),
    }
}

/// A family's scan: its entries, and the error that ended it, if any.
type Scan = (Vec<(Vec<u8>, Vec<u8>)>, Option<String>);
/// A point lookup: key, verify_checksums, result.
type Lookup = (Vec<u8>, bool, Result<Option<Vec<u8>>, String>);

/// What solistore made of a damaged directory.
#[derive(Debug)]
enum Ours {
    OpenError(String),
    Read {
        /// The families the MANIFEST lists, in its order (the reader opens the same).
        names: Vec<String>,
        /// Per family: the scanned entries and the error that ended the scan, if any.
        scans: Vec<Scan>,
        /// Per family: (key, verify_checksums, result) of each point lookup.
        gets: Vec<Vec<Lookup>>,
    },
}

fn universe() -> Vec<Vec<u8>> {
    (0..KEYS).map(key).chain((0..BATCHES).map(marker)).collect()
}

/// Opens and reads a damaged copy as the RocksDB reader does: the column families the
/// MANIFEST lists, then each of them. Point lookups run with `verify_checksums` on and, for
/// table damage (the only kind where it can matter), off too.
fn read_ours(dir: &Path, kind: Kind, mode: WalRecoveryMode, paranoid: bool) -> Ours {
    let opts = DbOptions {
        wal_recovery_mode: mode,
        paranoid_checks: paranoid,
        ..Default::default()
    };
    let path = dir.to_string_lossy();
    let names = match Db::list_column_families(&path) {
        Ok(n) => n,
        Err(e) => return Ours::OpenError(e.to_string()),
    };
    let descs: Vec<(String, ColumnFamilyOptions)> = names
        .iter()
        .map(|n| {
            let o = CFS
                .iter()
                .position(|c| c == n)
                .map(cf_options)
                .unwrap_or_default();
            (n.clone(), o)
        })
        .collect();
    let (db, handles) = match Db::open_cf(&opts, &path, descs) {
        Ok(x) => x,
        Err(e) => return Ours::OpenError(e.to_string()),
    };
    let mut scans = Vec::new();
    let mut gets = Vec::new();
    for h in &handles {
        let ro = ReadOptions::default();
        let mut entries = Vec::new();
        let err = match db.iter(&ro, h) {
            Err(e) => Some(e.to_string()),
            Ok(mut it) => {
                it.seek_to_first();
                while it.valid() {
                    entries.push((it.key().to_vec(), it.value().to_vec()));
                    it.next();
                }
                it.status().err().map(|e| e.to_string())
            }
        };
        scans.push((entries, err));
        let mut g = Vec::new();
        let verifies: &[bool] = if kind == Kind::Table {
            &[true, false]
        } else {
            &[true]
        };
        for &verify in verifies {
            let ro = ReadOptions {
                verify_checksums: verify,
                ..Default::default()
            };
            for k in universe() {
                let r = db.get(&ro, h, &k).map_err(|e| e.to_string());
                g.push((k, verify, r));
            }
        }
        gets.push(g);
    }
    let _ = db.close();
    Ours::Read { names, scans, gets }
}

/// Checks solistore's outcome against the model; returns the violation, if any.
fn check_model(
    workload: &[Vec<Op>],
    full: &State,
    wal_of: &[String],
    kind: Kind,
    mode: WalRecoveryMode,
    paranoid: bool,
    ours: &Ours,
) -> Result<(), String> {
    let Ours::Read { names, scans, gets } = ours else {
        if kind == Kind::Options {
            return Err("open failed on OPTIONS damage, which open does not read".into());
        }
        return Ok(());
    };
    // Line the families up with the model's; a damaged MANIFEST may have lost some (the
    // RocksDB comparison then decides), nothing else may.
    let mut by_cf = Vec::new();
    for name in CFS {
        match names.iter().position(|n| n == name) {
            Some(i) => by_cf.push(i),
            None if kind == Kind::Manifest => return Ok(()),
            None => return Err(format!("family {name} is not listed: {names:?}")),
        }
    }
    if names.len() != CFS.len() {
        return Err(format!("unexpected families {names:?}"));
    }
    let scans: Vec<_> = by_cf.iter().map(|i| &scans[*i]).collect();
    let gets: Vec<_> = by_cf.iter().map(|i| &gets[*i]).collect();
    if kind == Kind::Table {
        for (cf, (entries, err)) in scans.iter().copied().enumerate() {
            let want: Vec<(Vec<u8>, Vec<u8>)> = full[cf]
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            if entries.len() > want.len() || entries[..] != want[..entries.len()] {
                return Err(format!(
                    "{}: scan returned entries the model does not have",
                    CFS[cf]
                ));
            }
            if entries.len() < want.len() && err.is_none() {
                return Err(format!(
                    "{}: scan ended after {} of {} entries without an error",
                    CFS[cf],
                    entries.len(),
                    want.len()
                ));
            }
        }
        for (cf, g) in gets.iter().enumerate() {
            for (k, verify, r) in g.iter() {
                if let Ok(v) = r {
                    if v.as_ref() != full[cf].get(k) {
                        return Err(format!(
                            "{}: get {} (verify_checksums {verify}) returned {:?}, model {:?}",
                            CFS[cf],
                            String::from_utf8_lossy(k),
                            v.as_ref().map(|v| String::from_utf8_lossy(v).into_owned()),
                            full[cf]
                                .get(k)
                                .map(|v| String::from_utf8_lossy(v).into_owned()),
                        ));
                    }
                }
            }
        }
        return Ok(());
    }
    // Not a table: reads see whole files, so nothing may fail after a clean open.
    let mut sets = Vec::new();
    for (cf, (entries, err)) in scans.iter().copied().enumerate() {
        if let Some(e) = err {
            return Err(format!("{}: scan failed: {e}", CFS[cf]));
        }
        let content: BTreeMap<Vec<u8>, Vec<u8>> = entries.iter().cloned().collect();
        let set: Vec<usize> = (0..BATCHES)
            .filter(|b| content.contains_key(&marker(*b)))
            .collect();
        let want = apply(workload, cf, &set);
        if content != want {
            return Err(format!(
                "{}: content is not the model's state after batches {set:?}",
                CFS[cf]
            ));
        }
        for (k, verify, r) in gets[cf] {
            match r {
                Ok(v) if v.as_ref() == want.get(k) => {}
                other => {
                    return Err(format!(
                    "{}: get {} (verify_checksums {verify}) gave {other:?} where the scan has {:?}",
                    CFS[cf],
                    String::from_utf8_lossy(k),
                    want.get(k).map(|v| String::from_utf8_lossy(v).into_owned())
                ))
                }
            }
        }
        if matches!(kind, Kind::Wal | Kind::Options) && (0..flushed(cf)).any(|b| !set.contains(&b))
        {
            return Err(format!("{}: lost flushed batches (has {set:?})", CFS[cf]));
        }
        // What one WAL gives back is a prefix of what it holds. (A WAL cut or damaged at a
        // record boundary can look cleanly ended: then a later WAL still replays, in
        // RocksDB as here, and the family has a hole at the end of the earlier WAL.)
        let prefix_required =
            kind == Kind::Wal && paranoid && mode != WalRecoveryMode::SkipAnyCorruptedRecords;
        for wal in wal_of.iter().collect::<std::collections::BTreeSet<_>>() {
            let held: Vec<usize> = (flushed(cf)..BATCHES)
                .filter(|b| &wal_of[*b] == wal)
                .collect();
            let got: Vec<usize> = held.iter().copied().filter(|b| set.contains(b)).collect();
            if prefix_required && got[..] != held[..got.len()] {
                return Err(format!(
                    "{}: recovered batches {got:?} of {wal} are not a prefix of {held:?}",
                    CFS[cf]
                ));
            }
        }
        sets.push(set);
    }
    for b in FLUSH_TWO_AT..BATCHES {
        let present: Vec<bool> = sets.iter().map(|s| s.contains(&b)).collect();
        if present.iter().any(|p| *p != present[0]) {
            return Err(format!("batch {b} is in some families only: {present:?}"));
        }
    }
    if kind == Kind::Options
        && sets
            .iter()
            .enumerate()
            .any(|(cf, s)| s.len() != BATCHES || apply(workload, cf, s) != full[cf])
    {
        return Err("OPTIONS damage changed the content".into());
    }
    Ok(())
}

/// Compares with RocksDB: both refuse to open, or both read exactly the same entries.
fn compare_rocksdb(ours: &Ours, theirs: &RocksOutcome) -> Result<(), String> {
    match (ours, theirs) {
        (Ours::OpenError(_), RocksOutcome::OpenError(_)) => Ok(()),
        (Ours::OpenError(e), RocksOutcome::Read { .. }) => {
            Err(format!("solistore refused to open ({e}), RocksDB opened"))
        }
        (Ours::Read { .. }, RocksOutcome::OpenError(e)) => {
            Err(format!("RocksDB refused to open ({e}), solistore opened"))
        }
        (
            Ours::Read { names, scans, .. },
            RocksOutcome::Read {
                entries,
                iter_errors,
            },
        ) => {
            let mine: Vec<(String, Vec<u8>, Vec<u8>)> = scans
                .iter()
                .zip(names)
                .flat_map(|((e, _), name)| {
                    e.iter()
                        .map(move |(k, v)| (name.clone(), k.clone(), v.clone()))
                })
                .collect();
            let my_errors = scans.iter().filter(|(_, e)| e.is_some()).count();
            if my_errors != iter_errors.len() {
                return Err(format!(
                    "scan errors: solistore {my_errors}, RocksDB {iter_errors:?}"
                ));
            }
            if &mine != entries {
                let first = (0..mine.len().max(entries.len()))
                    .find(|&i| mine.get(i) != entries.get(i))
                    .map(|i| {
                        let show = |e: Option<&(String, Vec<u8>, Vec<u8>)>| {
                            e.map(|(c, k, _)| format!("{c}/{}", String::from_utf8_lossy(k)))
                        };
                        (show(mine.get(i)), show(entries.get(i)))
                    });
                return Err(format!(
                    "content differs: solistore {} entries, RocksDB {}; first difference (ours, theirs) {first:?}",
                    mine.len(),
                    entries.len()
                ));
            }
            Ok(())
        }
    }
}

fn damage(dst: &Path, base_bytes: &[u8], d: Damage) {
    let bytes = match d {
        Damage::Flip(off, m) => {
            let mut b = base_bytes.to_vec();
            b[off] ^= m;
            b
        }
        Damage::Truncate(n) => base_bytes[..n].to_vec(),
    };
    std::fs::write(dst, bytes).expect("write damaged file");
}

/// Runs solistore's OPTIONS parser on damaged text (it must return, not panic).
fn parse_options(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let _ = solistore::options::file::parse_options_file(&text);
}

#[derive(Default)]
struct Tally {
    cases: AtomicUsize,
    opens: AtomicUsize,
    open_errors: AtomicUsize,
    rocksdb_opens: AtomicUsize,
    rocksdb_crashes: AtomicUsize,
    bytes_flipped: AtomicUsize,
    truncations: AtomicUsize,
    /// Per kind (in `KINDS` order): opens, refused opens, opens whose reads hit an error.
    per_kind: [[AtomicUsize; 3]; 5],
}

const KINDS: [Kind; 5] = [
    Kind::Wal,
    Kind::Manifest,
    Kind::Current,
    Kind::Options,
    Kind::Table,
];

fn scratch_root() -> PathBuf {
    // tmpfs when there is one: the sweep opens tens of thousands of DBs, each with fsyncs.
    let shm = Path::new("/dev/shm");
    let parent = if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    };
    parent.join(format!("solistore-sweep-{}", std::process::id()))
}

#[test]
fn corruption_sweep() {
    let full = std::env::var("SOLISTORE_SWEEP_FULL").is_ok_and(|v| v == "1");
    let plan = Plan { full };
    let started = Instant::now();
    let root = scratch_root();
    let _ = std::fs::remove_dir_all(&root);
    let base = root.join("base");
    let wl = workload();
    let wal_of = build_base(&base, &wl);
    let full_state: State = (0..CFS.len())
        .map(|cf| apply(&wl, cf, &(0..BATCHES).collect::<Vec<_>>()))
        .collect();
    // SOLISTORE_SWEEP_KINDS=wal,manifest,... limits the sweep (while debugging one kind).
    let kinds = std::env::var("SOLISTORE_SWEEP_KINDS").unwrap_or_default();
    // SOLISTORE_SWEEP_ONLY="000005.log Flip(1493, 4)" runs one case (as failures name it).
    let only = std::env::var("SOLISTORE_SWEEP_ONLY").unwrap_or_default();
    let all: Vec<Case> = cases(&base, &plan)
        .into_iter()
        .filter(|c| {
            kinds.is_empty()
                || kinds
                    .split(',')
                    .any(|k| format!("{:?}", c.kind).eq_ignore_ascii_case(k))
        })
        .filter(|c| only.is_empty() || format!("{} {:?}", c.file, c.damage) == only)
        .collect();
    let files: BTreeMap<String, Vec<u8>> = std::fs::read_dir(&base)
        .expect("base")
        .map(|e| e.expect("entry"))
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).expect("read"),
            )
        })
        .collect();
    for (name, bytes) in &files {
        eprintln!("base file {name}: {} bytes", bytes.len());
    }
    let bin = reader_binary();
    let tally = Tally::default();
    let failures: Mutex<Vec<String>> = Mutex::new(Vec::new());
    // Cases RocksDB gave no answer on (it crashed, or spun past JOB_TIMEOUT): not compared.
    let no_answer: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let next = AtomicUsize::new(0);
    let workers = 2;
    // The watchdog: a case stuck for a minute is a hang; name it and abort.
    let current: Arc<Mutex<Vec<(Instant, String)>>> =
        Arc::new(Mutex::new(vec![(Instant::now(), String::new()); workers]));
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watchdog = {
        let (current, done) = (current.clone(), done.clone());
        std::thread::spawn(move || {
            while !done.load(Ordering::Acquire) {
                std::thread::sleep(Duration::from_millis(500));
                for (since, what) in current.lock().expect("watchdog").iter() {
                    if !what.is_empty() && since.elapsed() > Duration::from_secs(60) {
                        eprintln!("HANG: {what} has run for {:?}", since.elapsed());
                        std::process::abort();
                    }
                }
            }
        })
    };
    std::thread::scope(|s| {
        for w in 0..workers {
            let (
                all,
                files,
                tally,
                failures,
                next,
                bin,
                wl,
                full_state,
                root,
                current,
                base,
                wal_of,
                no_answer,
            ) = (
                &all,
                &files,
                &tally,
                &failures,
                &next,
                &bin,
                &wl,
                &full_state,
                &root,
                &current,
                &base,
                &wal_of,
                &no_answer,
            );
            s.spawn(move || {
                let mut rocks = bin.as_ref().map(|b| BatchReader::new(b));
                let work = root.join(format!("w{w}"));
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(case) = all.get(i) else { break };
                    tally.cases.fetch_add(1, Ordering::Relaxed);
                    match case.damage {
                        Damage::Flip(..) => tally.bytes_flipped.fetch_add(1, Ordering::Relaxed),
                        Damage::Truncate(_) => tally.truncations.fetch_add(1, Ordering::Relaxed),
                    };
                    let base_bytes = &files[&case.file];
                    if case.kind == Kind::Options {
                        let mut b = base_bytes.clone();
                        match case.damage {
                            Damage::Flip(off, m) => b[off] ^= m,
                            Damage::Truncate(n) => b.truncate(n),
                        }
                        if std::panic::catch_unwind(|| parse_options(&b)).is_err() {
                            failures.lock().expect("failures").push(format!(
                                "{} {:?}: the OPTIONS parser panicked",
                                case.file, case.damage
                            ));
                        }
                    }
                    for (mode, paranoid) in configs(case.kind) {
                        let what = format!(
                            "{} {:?}, mode {}, paranoid_checks {paranoid}",
                            case.file, case.damage, mode as i32
                        );
                        current.lock().expect("current")[w] = (Instant::now(), what.clone());
                        let ours_dir = work.join("ours");
                        let _ = std::fs::remove_dir_all(&work);
                        copy_dir(base, &ours_dir);
                        damage(&ours_dir.join(&case.file), base_bytes, case.damage);
                        let theirs_dir = work.join("theirs");
                        if case.with_rocksdb && rocks.is_some() {
                            copy_dir(&ours_dir, &theirs_dir);
                        }
                        tally.opens.fetch_add(1, Ordering::Relaxed);
                        let ours = std::panic::catch_unwind(AssertUnwindSafe(|| {
                            read_ours(&ours_dir, case.kind, mode, paranoid)
                        }));
                        let ours = match ours {
                            Ok(o) => o,
                            Err(p) => {
                                let msg = p
                                    .downcast_ref::<String>()
                                    .cloned()
                                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                                    .unwrap_or_default();
                                failures
                                    .lock()
                                    .expect("failures")
                                    .push(format!("{what}: PANIC {msg}"));
                                continue;
                            }
                        };
                        let k = &tally.per_kind
                            [KINDS.iter().position(|k| *k == case.kind).unwrap_or(0)];
                        k[0].fetch_add(1, Ordering::Relaxed);
                        match &ours {
                            Ours::OpenError(_) => {
                                tally.open_errors.fetch_add(1, Ordering::Relaxed);
                                k[1].fetch_add(1, Ordering::Relaxed);
                            }
                            Ours::Read { scans, gets, .. } => {
                                let failed = scans.iter().any(|(_, e)| e.is_some())
                                    || gets.iter().flatten().any(|(_, _, r)| r.is_err());
                                if failed {
                                    k[2].fetch_add(1, Ordering::Relaxed);
                                }
                            }
                        }
                        if let Err(e) =
                            check_model(wl, full_state, wal_of, case.kind, mode, paranoid, &ours)
                        {
                            failures
                                .lock()
                                .expect("failures")
                                .push(format!("{what}: {e}"));
                        }
                        if let (true, Some(r)) = (case.with_rocksdb, rocks.as_mut()) {
                            tally.rocksdb_opens.fetch_add(1, Ordering::Relaxed);
                            match r.read(&theirs_dir, mode as i32, paranoid, true) {
                                Err(why) => {
                                    tally.rocksdb_crashes.fetch_add(1, Ordering::Relaxed);
                                    no_answer
                                        .lock()
                                        .expect("no_answer")
                                        .push(format!("{what}: RocksDB {why:?}"));
                                }
                                Ok(theirs) => {
                                    if let Err(e) = compare_rocksdb(&ours, &theirs) {
                                        failures
                                            .lock()
                                            .expect("failures")
                                            .push(format!("{what}: vs RocksDB: {e}"));
                                    }
                                }
                            }
                        }
                    }
                    current.lock().expect("current")[w].1.clear();
                }
            });
        }
    });
    done.store(true, Ordering::Release);
    let _ = watchdog.join();
    let _ = std::fs::remove_dir_all(&root);
    let failures = failures.into_inner().expect("failures");
    eprintln!(
        "corruption sweep ({}): {} cases ({} byte flips, {} truncations), {} solistore opens ({} refused), {} RocksDB opens ({} without an answer), {} failures, {:.1} s",
        if full { "full" } else { "CI" },
        tally.cases.load(Ordering::Relaxed),
        tally.bytes_flipped.load(Ordering::Relaxed),
        tally.truncations.load(Ordering::Relaxed),
        tally.opens.load(Ordering::Relaxed),
        tally.open_errors.load(Ordering::Relaxed),
        tally.rocksdb_opens.load(Ordering::Relaxed),
        tally.rocksdb_crashes.load(Ordering::Relaxed),
        failures.len(),
        started.elapsed().as_secs_f64()
    );
    for n in no_answer.lock().expect("no_answer").iter() {
        eprintln!("NO ANSWER {n}");
    }
    for (kind, k) in KINDS.iter().zip(&tally.per_kind) {
        eprintln!(
            "  {kind:?}: {} opens, {} refused, {} with a read error, the rest passed the model check",
            k[0].load(Ordering::Relaxed),
            k[1].load(Ordering::Relaxed),
            k[2].load(Ordering::Relaxed)
        );
    }
    if let Ok(log) = std::env::var("SOLISTORE_SWEEP_LOG") {
        std::fs::write(log, failures.join("\n")).expect("write sweep log");
    }
    for f in failures.iter().take(40) {
        eprintln!("FAIL {f}");
    }
    assert!(
        failures.is_empty(),
        "{} corruption sweep failures",
        failures.len()
    );
}
