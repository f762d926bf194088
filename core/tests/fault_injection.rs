// SPDX-License-Identifier: Apache-2.0
//! Error injection (issue 8): what a failed WAL write or sync, a full disk during a flush,
//! compaction or MANIFEST write, a failed read and a read-only file system do to the DB,
//! with RocksDB 7.8.3's semantics (`core/src/db/error_handler.rs`):
//! - a failed WAL write or fsync (EIO) stops writes with the stored error, reads go on,
//!   `resume` refuses, and a reopen recovers (the failed write may or may not be there);
//! - a full disk during a WAL write, flush or MANIFEST write stops writes too, but the DB
//!   recovers at run time once space returns (by itself, or at once with `resume`), losing
//!   nothing that was acknowledged;
//! - a full disk during a compaction is soft: writes go on, the compaction is retried;
//! - every such failed flush or compaction is counted by `rocksdb.background-errors`;
//! - a read error is returned to the reader and stops nothing;
//! - a read-only file system gives a clean open error (and a read-only open works);
//! - an error sweep fails every I/O operation of scripted workloads in turn (once) and
//!   checks the reopened DB against the model.

mod fault_support;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use fault_support::{
    count_panics, env_or, panics, put, random_steps, report, run, verify, Op, Scenario, Step,
};
use solistore::batch::WriteBatch;
use solistore::db::{ColumnFamilyHandle, Db};
use solistore::fs::fault::{CrashMode, Fault, FaultError, FaultFs, OpKind};
use solistore::fs::posix::PosixFs;
use solistore::fs::FileSystem;
use solistore::options::{ColumnFamilyOptions, DbOptions, ReadOptions, WriteOptions};

const PATH: &str = "/fault/db";

fn options(fs: &Arc<FaultFs>) -> DbOptions {
    DbOptions {
        create_if_missing: true,
        file_system: Some(fs.clone() as Arc<dyn FileSystem>),
        // Tests ask for recovery with `resume`; the automatic retry is tested on its own.
        bg_error_recovery_interval: None,
        ..Default::default()
    }
}

fn cf_options() -> ColumnFamilyOptions {
    ColumnFamilyOptions {
        disable_auto_compactions: true,
        ..Default::default()
    }
}

fn open(fs: &Arc<FaultFs>) -> Db {
    Db::open(&options(fs), cf_options(), PATH).expect("open")
}

fn synced() -> WriteOptions {
    WriteOptions {
        sync: true,
        ..Default::default()
    }
}

fn get(db: &Db, key: &str) -> Option<String> {
    db.get(&ReadOptions::default(), &db.default_cf(), key.as_bytes())
        .expect("reads go on")
        .map(|v| String::from_utf8_lossy(&v).into_owned())
}

fn put_keys(db: &Db, prefix: &str, n: usize) {
    for i in 0..n {
        let wo = if i % 2 == 0 {
            synced()
        } else {
            WriteOptions::default()
        };
        db.put(
            &wo,
            &db.default_cf(),
            format!("{prefix}{i:03}").as_bytes(),
            b"v",
        )
        .expect("put");
    }
}

fn assert_keys(db: &Db, prefix: &str, n: usize) {
    for i in 0..n {
        assert_eq!(
            get(db, &format!("{prefix}{i:03}")).as_deref(),
            Some("v"),
            "{prefix}{i:03} lost"
        );
    }
}

fn background_errors(db: &Db) -> u64 {
    db.property(&db.default_cf(), "rocksdb.background-errors")
        .and_then(|v| v.parse().ok())
        .expect("rocksdb.background-errors is known")
}

fn tables(fs: &Arc<FaultFs>) -> usize {
    fs.list_dir(Path::new(PATH))
        .expect("ls")
        .iter()
        .filter(|n| n.ends_with(".sst"))
        .count()
}

fn get_in(db: &Db, cf: &ColumnFamilyHandle, key: &[u8]) -> Option<Vec<u8>> {
    db.get(&ReadOptions::default(), cf, key).expect("get")
}

fn current_wal(fs: &Arc<FaultFs>) -> String {
    let mut logs: Vec<String> = fs
        .list_dir(Path::new(PATH))
        .expect("ls")
        .into_iter()
        .filter(|n| n.ends_with(".log"))
        .collect();
    logs.sort();
    logs.pop().expect("a WAL exists")
}

#[test]
fn failed_wal_write_stops_writes_reads_go_on_and_reopen_recovers() {
    for fault in [
        Fault::nth(OpKind::Write, 0).on_path(".log"),
        Fault::nth(OpKind::Sync, 0).on_path(".log"),
    ] {
        let fs = FaultFs::in_memory();
        let db = open(&fs);
        put_keys(&db, "k", 10);
        fs.inject(fault.clone());
        let err = db
            .put(&synced(), &db.default_cf(), b"failed", b"x")
            .expect_err("the injected fault");
        let text = err.to_string();
        assert!(
            text.starts_with("IO error: While ") && text.ends_with(".log: Input/output error"),
            "{text}"
        );
        // Later writes fail with the stored error, even though the file system works again.
        for _ in 0..3 {
            let again = db
                .put(&WriteOptions::default(), &db.default_cf(), b"later", b"y")
                .expect_err("writes stay stopped");
            assert_eq!(again, err);
        }
        assert_eq!(db.background_error(), Some(err.clone()));
        assert_eq!(db.resume().expect_err("fatal: only a reopen recovers"), err);
        assert_keys(&db, "k", 10);
        assert_eq!(get(&db, "later"), None);
        assert_eq!(
            background_errors(&db),
            0,
            "a WAL write is not a background job"
        );
        let _ = db.close();
        drop(db);
        let db = open(&fs);
        assert_keys(&db, "k", 10);
        let failed = get(&db, "failed");
        assert!(failed.is_none() || failed.as_deref() == Some("x"));
        assert_eq!(get(&db, "later"), None);
        db.put(&synced(), &db.default_cf(), b"after", b"z")
            .expect("writable after reopen");
        db.close().expect("close");
    }
}

#[test]
fn failed_wal_sync_then_power_cut_keeps_every_acknowledged_synced_write() {
    let fs = FaultFs::in_memory();
    let db = open(&fs);
    put_keys(&db, "k", 9);
    fs.inject(Fault::nth(OpKind::Sync, 0).on_path(".log"));
    db.put(&synced(), &db.default_cf(), b"failed", b"x")
        .expect_err("sync fails");
    db.simulate_crash();
    drop(db);
    fs.crash(CrashMode::DropUnsynced).expect("crash");
    let db = open(&fs);
    // k000..k008: the even ones were synced, and k008 was the last write acknowledged.
    assert_keys(&db, "k", 9);
    db.close().expect("close");
}

#[test]
fn full_disk_during_wal_write_is_recovered_at_run_time() {
    let fs = FaultFs::in_memory();
    fs.set_torn_failed_writes(true);
    let db = open(&fs);
    let cf_a = db
        .create_column_family(cf_options(), "a")
        .expect("create a");
    put_keys(&db, "k", 10);
    db.put(&WriteOptions::default(), &cf_a, b"in-a", b"1")
        .expect("put");
    fs.set_no_space(true);
    let err = db
        .put(&synced(), &db.default_cf(), b"failed", b"x")
        .expect_err("disk full");
    assert!(err.is_no_space(), "{err}");
    assert!(err
        .to_string()
        .starts_with("IO error: No space left on device: While appending to file: /fault/db/"));
    assert_eq!(
        db.put(&WriteOptions::default(), &db.default_cf(), b"later", b"y")
            .expect_err("stopped"),
        err
    );
    // Still full: the attempt fails with ENOSPC and the error stays recoverable.
    assert!(db.resume().expect_err("still full").is_no_space());
    fs.set_no_space(false);
    db.resume().expect("space is back");
    assert_eq!(db.background_error(), None);
    assert_keys(&db, "k", 10);
    // The failed write never reached a memtable, and recovery left its WAL behind.
    assert_eq!(get(&db, "failed"), None);
    db.put(&synced(), &db.default_cf(), b"after", b"z")
        .expect("writes go through again");
    db.simulate_crash();
    drop(db);
    fs.crash(CrashMode::DropUnsynced).expect("power cut");
    let (db, handles) = Db::open_cf(
        &options(&fs),
        PATH,
        vec![("default".into(), cf_options()), ("a".into(), cf_options())],
    )
    .expect("reopen");
    assert_keys(&db, "k", 10);
    assert_eq!(get(&db, "failed"), None, "an abandoned WAL was replayed");
    assert_eq!(get(&db, "after").as_deref(), Some("z"));
    assert_eq!(get_in(&db, &handles[1], b"in-a"), Some(b"1".to_vec()));
    db.close().expect("close");
}

#[test]
fn full_disk_during_flush_stops_writes_until_space_returns() {
    let fs = FaultFs::in_memory();
    let db = open(&fs);
    put_keys(&db, "k", 20);
    fs.set_no_space(true);
    let err = db
        .flush(&db.default_cf(), true)
        .expect_err("the flush fails");
    assert!(err.is_no_space(), "{err}");
    assert_eq!(db.background_error(), Some(err.clone()));
    assert!(background_errors(&db) >= 1);
    assert_eq!(
        db.put(&WriteOptions::default(), &db.default_cf(), b"x", b"y")
            .expect_err("writes stop with the stored error"),
        err
    );
    assert_keys(&db, "k", 20);
    fs.set_no_space(false);
    db.resume().expect("recovers");
    assert_eq!(db.background_error(), None);
    let tables = tables(&fs);
    assert_eq!(tables, 1, "recovery flushed the memtable into one table");
    put_keys(&db, "m", 4);
    db.flush(&db.default_cf(), true).expect("flush works again");
    db.close().expect("close");
    drop(db);
    fs.crash(CrashMode::DropUnsynced).expect("power cut");
    let db = open(&fs);
    assert_keys(&db, "k", 20);
    assert_keys(&db, "m", 4);
    db.close().expect("close");
}

#[test]
fn full_disk_recovery_happens_by_itself() {
    let fs = FaultFs::in_memory();
    let opts = DbOptions {
        bg_error_recovery_interval: Some(Duration::from_millis(20)),
        ..options(&fs)
    };
    let db = Db::open(&opts, cf_options(), PATH).expect("open");
    put_keys(&db, "k", 5);
    fs.set_no_space(true);
    db.flush(&db.default_cf(), true).expect_err("full");
    assert!(db.background_error().is_some());
    fs.set_no_space(false);
    let deadline = Instant::now() + Duration::from_secs(20);
    while db.background_error().is_some() {
        assert!(Instant::now() < deadline, "no automatic recovery");
        std::thread::sleep(Duration::from_millis(10));
    }
    db.put(&synced(), &db.default_cf(), b"after", b"v")
        .expect("writable again");
    assert_keys(&db, "k", 5);
    db.close().expect("close");
}

#[test]
fn failed_flush_write_is_fatal_until_reopen() {
    let fs = FaultFs::in_memory();
    let db = open(&fs);
    put_keys(&db, "k", 20);
    fs.inject(Fault::nth(OpKind::Write, 0).on_path(".sst"));
    let err = db.flush(&db.default_cf(), true).expect_err("fails");
    assert!(err.is_io_error() && !err.is_no_space(), "{err}");
    assert_eq!(db.resume().expect_err("fatal"), err);
    assert_eq!(background_errors(&db), 1);
    assert_keys(&db, "k", 20);
    assert_eq!(tables(&fs), 0, "the partial table was removed");
    let _ = db.close();
    drop(db);
    let db = open(&fs);
    assert_keys(&db, "k", 20);
    db.close().expect("close");
}

#[test]
fn full_disk_during_compaction_is_soft_and_retried() {
    let fs = FaultFs::in_memory();
    let db = open(&fs);
    for round in 0..3 {
        // Overlapping tables, so that the compaction writes a new one.
        put_keys(&db, "k", 10);
        put_keys(&db, &format!("r{round}-"), 10);
        db.flush(&db.default_cf(), true).expect("flush");
    }
    fs.set_no_space(true);
    let err = db
        .compact_range(&db.default_cf(), None, None)
        .expect_err("no space for the output");
    assert!(err.is_no_space(), "{err}");
    assert_eq!(db.background_error(), None, "a soft error stops no write");
    assert_eq!(background_errors(&db), 1);
    fs.set_no_space(false);
    db.put(&synced(), &db.default_cf(), b"during", b"v")
        .expect("writes go on");
    db.compact_range(&db.default_cf(), None, None)
        .expect("the retry succeeds");
    for round in 0..3 {
        assert_keys(&db, &format!("r{round}-"), 10);
    }
    let l0 = db
        .property(&db.default_cf(), "rocksdb.num-files-at-level0")
        .expect("known");
    assert_eq!(l0, "0");
    db.close().expect("close");
}

#[test]
fn failed_compaction_write_is_fatal_and_loses_nothing() {
    let fs = FaultFs::in_memory();
    let db = open(&fs);
    for round in 0..2 {
        put_keys(&db, "k", 10);
        put_keys(&db, &format!("r{round}-"), 10);
        db.flush(&db.default_cf(), true).expect("flush");
    }
    fs.inject(Fault::nth(OpKind::Write, 0).on_path(".sst"));
    let err = db
        .compact_range(&db.default_cf(), None, None)
        .expect_err("fails");
    assert!(!err.is_no_space(), "{err}");
    assert_eq!(db.background_error(), Some(err));
    assert_eq!(background_errors(&db), 1);
    let tables = tables(&fs);
    assert_eq!(tables, 2, "the partial output was removed");
    for round in 0..2 {
        assert_keys(&db, &format!("r{round}-"), 10);
    }
    let _ = db.close();
    drop(db);
    let db = open(&fs);
    assert_keys(&db, "k", 10);
    for round in 0..2 {
        assert_keys(&db, &format!("r{round}-"), 10);
    }
    db.compact_range(&db.default_cf(), None, None)
        .expect("compacts after reopen");
    db.close().expect("close");
}

#[test]
fn failed_manifest_write_is_recovered_by_a_new_manifest() {
    let fs = FaultFs::in_memory();
    let db = open(&fs);
    put_keys(&db, "k", 4);
    fs.inject(
        Fault::nth(OpKind::Write, 0)
            .on_path("MANIFEST")
            .with_error(FaultError::NoSpace),
    );
    fs.set_torn_failed_writes(true);
    let err = db
        .create_column_family(cf_options(), "a")
        .expect_err("MANIFEST append fails");
    assert!(err.is_no_space(), "{err}");
    assert_eq!(db.background_error(), Some(err));
    db.resume().expect("a new MANIFEST");
    let a = db
        .create_column_family(cf_options(), "a")
        .expect("create after recovery");
    db.put(&synced(), &a, b"x", b"1").expect("put");
    db.close().expect("close");
    drop(db);
    fs.crash(CrashMode::DropUnsynced).expect("power cut");
    let names = Db::list_column_families_with(&options(&fs), PATH).expect("list");
    assert_eq!(names, vec!["default".to_string(), "a".to_string()]);
    let (db, handles) = Db::open_cf(
        &options(&fs),
        PATH,
        names.iter().map(|n| (n.clone(), cf_options())).collect(),
    )
    .expect("reopen");
    assert_keys(&db, "k", 4);
    assert_eq!(get_in(&db, &handles[1], b"x"), Some(b"1".to_vec()));
    db.close().expect("close");
}

#[test]
fn read_errors_are_returned_and_stop_nothing() {
    let fs = FaultFs::in_memory();
    let db = open(&fs);
    put_keys(&db, "k", 10);
    db.flush(&db.default_cf(), true).expect("flush");
    fs.inject(Fault::nth(OpKind::Read, 0).on_path(".sst"));
    let mut failures = 0;
    for i in 0..10 {
        match db.get(
            &ReadOptions::default(),
            &db.default_cf(),
            format!("k{i:03}").as_bytes(),
        ) {
            Ok(v) => assert_eq!(v.as_deref(), Some(&b"v"[..])),
            Err(e) => {
                assert!(e.is_io_error(), "{e}");
                failures += 1;
            }
        }
    }
    assert!(failures <= 1);
    assert_eq!(db.background_error(), None);
    db.put(&synced(), &db.default_cf(), b"after", b"v")
        .expect("writes go on");
    assert_keys(&db, "k", 10);
    db.close().expect("close");
}

#[test]
fn read_only_file_system_gives_a_clean_open_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("db");
    let path = path.to_str().expect("utf-8");
    let fs = FaultFs::new(Arc::new(PosixFs));
    let opts = DbOptions {
        file_system: Some(fs.clone() as Arc<dyn FileSystem>),
        ..options(&fs)
    };
    let db = Db::open(&opts, cf_options(), path).expect("create");
    db.put(&synced(), &db.default_cf(), b"k", b"v")
        .expect("put");
    db.close().expect("close");
    drop(db);
    fs.set_read_only(true);
    let err = Db::open(&opts, cf_options(), path).expect_err("read-only");
    assert_eq!(
        err.to_string(),
        format!("IO error: while open a file for lock: {path}/LOCK: Read-only file system")
    );
    let (db, handles) =
        Db::open_cf_read_only(&opts, path, vec![("default".into(), cf_options())], false)
            .expect("a read-only open writes nothing");
    assert_eq!(get_in(&db, &handles[0], b"k"), Some(b"v".to_vec()));
    drop(db);
    fs.set_read_only(false);
    let db = Db::open(&opts, cf_options(), path).expect("writable again");
    assert_eq!(get(&db, "k").as_deref(), Some("v"));
    db.close().expect("close");
}

#[test]
fn full_disk_at_open_is_a_clean_open_error() {
    let fs = FaultFs::in_memory();
    let db = open(&fs);
    put_keys(&db, "k", 6);
    db.close().expect("close");
    drop(db);
    fs.set_no_space(true);
    let err = Db::open(&options(&fs), cf_options(), PATH).expect_err("full");
    assert!(err.is_no_space(), "{err}");
    fs.set_no_space(false);
    let db = open(&fs);
    assert_keys(&db, "k", 6);
    db.close().expect("close");
}

#[test]
fn a_new_wal_is_durable_in_its_directory_at_once() {
    let fs = FaultFs::in_memory();
    let db = open(&fs);
    put_keys(&db, "k", 3);
    // The flush's table cannot be created, so nothing else syncs the directory.
    fs.inject(Fault::nth(OpKind::Open, 0).forever().on_path(".sst"));
    db.flush(&db.default_cf(), true).expect_err("no table");
    let wal = format!("{PATH}/{}", current_wal(&fs));
    let mem = fs.memory().expect("in memory");
    assert!(mem.entry_is_durable(Path::new(&wal)), "{wal} not durable");
    let _ = db.close();
}

fn error_sweep(sc: &Scenario) {
    count_panics();
    let clean = FaultFs::in_memory();
    let (rec, db) = run(&clean, sc);
    assert!(rec.error.is_none(), "clean run failed: {:?}", rec.error);
    drop(db);
    let total: u64 = OpKind::ALL.iter().map(|k| clean.count(*k)).sum();
    let mut failures = Vec::new();
    for k in 0..total {
        let fs = FaultFs::in_memory();
        fs.inject(Fault {
            kind: None,
            nth: k,
            forever: false,
            error: if k % 2 == 0 {
                FaultError::Io
            } else {
                FaultError::NoSpace
            },
            path_contains: None,
        });
        let (rec, db) = run(&fs, sc);
        if let Some(db) = db {
            let _ = db.close();
        }
        // No crash: everything written is still there, so every acknowledged write must be.
        fs.crash(CrashMode::KeepUnsynced).expect("in memory");
        if let Err(msg) = verify(&fs, sc, &rec, CrashMode::KeepUnsynced) {
            failures.push(format!(
                "{}: op {k}/{total} failed ({:?}): {msg}",
                sc.name, rec.error
            ));
        }
        if failures.len() >= 5 {
            break;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(panics(), 0, "{}: the engine panicked", sc.name);
    report(&format!(
        "error_sweep {}: {total} operations failed one at a time, all recovered",
        sc.name
    ));
}

fn no_tweak(_: &mut DbOptions, _: &mut ColumnFamilyOptions) {}

#[test]
fn error_sweep_writes_flushes_compactions_and_families() {
    let mut steps = vec![Step::CreateCf("a")];
    for i in 0..6 {
        steps.push(Step::Write {
            ops: vec![
                ("default", Op::Put(format!("k{i}"), format!("d{i}"))),
                ("a", Op::Put(format!("k{i}"), format!("a{i}"))),
            ],
            sync: i % 2 == 0,
        });
        if i % 2 == 1 {
            steps.push(Step::Flush("default"));
        }
    }
    steps.push(Step::Compact("default"));
    steps.push(put("a", "x", "1", false));
    steps.push(Step::Reopen);
    steps.push(Step::DropCf("a"));
    steps.push(put("default", "end", "1", true));
    error_sweep(&Scenario {
        name: "writes_flushes_compactions_and_families",
        steps,
        tweak: no_tweak,
    });
}

#[test]
fn error_sweep_checkpoint() {
    let steps = vec![
        put("default", "a", "1", false),
        put("default", "b", "2", true),
        Step::Checkpoint {
            name: "cp",
            log_size_for_flush: 0,
        },
        put("default", "c", "3", false),
        Step::Checkpoint {
            name: "cp-wal",
            log_size_for_flush: u64::MAX,
        },
    ];
    error_sweep(&Scenario {
        name: "checkpoint",
        steps,
        tweak: no_tweak,
    });
}

fn tiny_buffers(_: &mut DbOptions, cf: &mut ColumnFamilyOptions) {
    cf.write_buffer_size = 1024;
    cf.disable_auto_compactions = false;
    cf.level0_file_num_compaction_trigger = 2;
}

/// `SOLISTORE_ERROR_SWEEP_RANDOM` random workloads (1 in CI) from `SOLISTORE_SWEEP_SEED`.
#[test]
fn error_sweep_random_workloads() {
    let count = env_or("SOLISTORE_ERROR_SWEEP_RANDOM", 1);
    let first = env_or("SOLISTORE_SWEEP_SEED", 1);
    report(&format!(
        "error_sweep random: {count} workloads from seed {first} (SOLISTORE_SWEEP_SEED)"
    ));
    for seed in first..first + count {
        let name: &'static str = Box::leak(format!("random-{seed}").into_boxed_str());
        error_sweep(&Scenario {
            name,
            steps: random_steps(seed, 24),
            tweak: if seed % 2 == 0 {
                no_tweak
            } else {
                tiny_buffers
            },
        });
    }
}

/// Opens the DB at `PATH` with the families "default" and "a" (creating them if missing).
fn open_two_families(fs: &Arc<FaultFs>) -> Result<(Db, Vec<ColumnFamilyHandle>), String> {
    let opts = DbOptions {
        create_missing_column_families: true,
        ..options(fs)
    };
    Db::open_cf(
        &opts,
        PATH,
        vec![("default".into(), cf_options()), ("a".into(), cf_options())],
    )
    .map_err(|e| format!("reopen: {e}"))
}

/// Two families with synced writes (one family flushed), then a WAL write that failed for
/// lack of space (half of it written), then the space back: where a recovery starts.
fn stopped_by_a_full_disk() -> (Arc<FaultFs>, Db) {
    let fs = FaultFs::in_memory();
    fs.set_torn_failed_writes(true);
    let (db, handles) = open_two_families(&fs).expect("open");
    for i in 0..8 {
        db.put(&synced(), &handles[0], format!("k{i:03}").as_bytes(), b"v")
            .expect("put");
        db.put(&synced(), &handles[1], format!("a{i:03}").as_bytes(), b"v")
            .expect("put");
        if i == 3 {
            db.flush(&handles[1], true).expect("flush a");
        }
    }
    fs.set_no_space(true);
    db.put(&synced(), &handles[0], b"failed", b"x")
        .expect_err("disk full");
    fs.set_no_space(false);
    (fs, db)
}

fn check_recovered(fs: &Arc<FaultFs>) -> Result<(), String> {
    for round in 0..2 {
        let (db, handles) = open_two_families(fs)?;
        let ro = ReadOptions::default();
        for i in 0..8 {
            for (h, p) in [(&handles[0], "k"), (&handles[1], "a")] {
                let key = format!("{p}{i:03}");
                if db.get(&ro, h, key.as_bytes()).map_err(|e| e.to_string())? != Some(b"v".to_vec())
                {
                    return Err(format!("{key} lost (round {round})"));
                }
            }
        }
        let failed = db
            .get(&ro, &handles[0], b"failed")
            .map_err(|e| e.to_string())?;
        if failed.is_some_and(|v| v != b"x") {
            return Err("the failed write came back changed".into());
        }
        db.put(&synced(), &handles[1], b"after", b"1")
            .map_err(|e| format!("write after recovery: {e}"))?;
        db.close().map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Runs `resume` on a DB `stopped` made, then again on fresh ones with a power cut at each
/// of the mutating operations that recovery performed, and `check`s the DB each cut leaves
/// (after a crash in each of `modes`). Returns the number of operations and the failures.
fn sweep_recovery(
    stopped: fn() -> (Arc<FaultFs>, Db),
    modes: &[CrashMode],
    check: fn(&Arc<FaultFs>) -> Result<(), String>,
) -> (u64, Vec<String>) {
    let (fs, db) = stopped();
    let start = fs.mutating_ops();
    db.resume().expect("a clean recovery");
    let steps = fs.mutating_ops() - start;
    db.close().expect("close");
    let mut failures = Vec::new();
    for k in 0..steps {
        let (fs, db) = stopped();
        fs.crash_at(fs.mutating_ops() + k);
        // Fails, unless only best-effort deletions were left when the machine stopped.
        let _ = db.resume();
        db.simulate_crash();
        drop(db);
        for &mode in modes {
            let copy = fs.snapshot().expect("copy");
            copy.crash(mode).expect("crash");
            if let Err(msg) = check(&copy) {
                failures.push(format!(
                    "crash at recovery op {k}/{steps} ({mode:?}): {msg}"
                ));
            }
        }
    }
    (steps, failures)
}

#[test]
fn recovery_from_a_full_disk_is_crash_safe_at_every_step() {
    count_panics();
    let modes = [
        CrashMode::DropUnsynced,
        CrashMode::TornUnsynced,
        CrashMode::KeepUnsynced,
    ];
    let (steps, failures) = sweep_recovery(stopped_by_a_full_disk, &modes, check_recovered);
    assert!(
        steps >= 8,
        "a recovery writes a MANIFEST, a WAL and a table"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(panics(), 0);
    report(&format!(
        "recovery crash sweep: {steps} crash points x 3 crash modes, all recovered"
    ));
}

/// Two families, unsynced batches writing to both, then a flush of one that failed for
/// lack of space after its memtable switch: the WAL holding those batches is closed and
/// was never synced.
fn flush_stopped_by_a_full_disk() -> (Arc<FaultFs>, Db) {
    let fs = FaultFs::in_memory();
    let (db, handles) = open_two_families(&fs).expect("open");
    for i in 0..8 {
        let mut b = WriteBatch::new();
        for h in &handles {
            b.put(h.id(), format!("b{i:03}").as_bytes(), b"v");
        }
        db.write(&WriteOptions::default(), &b).expect("write");
    }
    fs.set_no_space(true);
    db.flush(&handles[1], true).expect_err("disk full");
    fs.set_no_space(false);
    (fs, db)
}

/// Each batch of `flush_stopped_by_a_full_disk` is in both families or in neither, and the
/// ones kept are a prefix of the history.
fn check_batches_whole(fs: &Arc<FaultFs>) -> Result<(), String> {
    let (db, handles) = open_two_families(fs)?;
    let ro = ReadOptions::default();
    let mut kept = Vec::new();
    for i in 0..8 {
        let key = format!("b{i:03}");
        let mut found = Vec::new();
        for h in &handles {
            found.push(
                db.get(&ro, h, key.as_bytes())
                    .map_err(|e| e.to_string())?
                    .is_some(),
            );
        }
        if found[0] != found[1] {
            return Err(format!("batch {key} is half there: {found:?}"));
        }
        kept.push(found[0]);
    }
    if kept.windows(2).any(|w| !w[0] && w[1]) {
        return Err(format!("the batches kept are not a prefix: {kept:?}"));
    }
    db.close().map_err(|e| e.to_string())?;
    Ok(())
}

/// Recovery from a hard error starts a new WAL and flushes each family in turn; the WAL it
/// leaves behind must be durable before the first of those flushes, or a power cut between
/// them keeps one family's half of a batch (in its table) and loses the other's (in the
/// unsynced WAL).
#[test]
fn recovery_keeps_batches_across_families_whole_at_every_step() {
    count_panics();
    let modes = [CrashMode::DropUnsynced, CrashMode::TornUnsynced];
    let (steps, failures) =
        sweep_recovery(flush_stopped_by_a_full_disk, &modes, check_batches_whole);
    assert!(steps >= 8, "a recovery writes a MANIFEST, a WAL and tables");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(panics(), 0);
}
