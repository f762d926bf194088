// SPDX-License-Identifier: Apache-2.0
//! Locks (issue 8): solistore and Debian's librocksdb 7.8.3 on one directory, from two
//! processes, in both orders, and solistore against solistore across processes. The second
//! open is refused with RocksDB's text, `IO error: While lock file: <dir>/LOCK: Resource
//! temporarily unavailable` (the same string from both engines), within 100 ms; once the
//! holder is killed with SIGKILL, the lock is gone and the next open succeeds.
//!
//! Holders are child processes: tests-c/compat/rocksdb_lock_holder.c for RocksDB, and this
//! test binary re-run as `lock_holder_child` (an ignored test that only acts as a holder when
//! `SOLISTORE_LOCK_HOLD_DIR` is set) for solistore.

mod common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use solistore::db::Db;
use solistore::options::{ColumnFamilyOptions, DbOptions};

const LIMIT: Duration = Duration::from_millis(100);

fn holder_binary() -> Option<PathBuf> {
    static BUILT: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| common::build_c_driver("rocksdb_lock_holder"))
        .clone()
}

fn opts() -> DbOptions {
    DbOptions {
        create_if_missing: true,
        ..Default::default()
    }
}

/// A holder process that has opened the DB (it printed `OPEN-OK`).
struct Holder(Child);

impl Holder {
    fn start(mut cmd: Command) -> Holder {
        let mut child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn holder");
        // A solistore holder is a test harness run: its `running 1 test` and `test ... `
        // come first, the latter on the holder's own line.
        let mut out = BufReader::new(child.stdout.take().expect("stdout"));
        let mut seen = Vec::new();
        loop {
            let mut line = String::new();
            if out.read_line(&mut line).expect("holder output") == 0 {
                panic!("the holder could not open the DB: {seen:?}");
            }
            if line.trim_end().ends_with("OPEN-OK") {
                break;
            }
            seen.push(line);
        }
        Holder(child)
    }

    fn solistore(dir: &Path) -> Holder {
        let mut cmd = Command::new(std::env::current_exe().expect("test binary"));
        cmd.args([
            "--exact",
            "lock_holder_child",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("SOLISTORE_LOCK_HOLD_DIR", dir);
        Holder::start(cmd)
    }

    fn rocksdb(bin: &Path, dir: &Path) -> Holder {
        let mut cmd = Command::new(bin);
        cmd.arg(dir).arg("hold");
        Holder::start(cmd)
    }

    /// SIGKILL, as a crash would end it: no destructor runs, the kernel drops the lock.
    fn kill(mut self) {
        self.0.kill().expect("SIGKILL the holder");
        self.0.wait().expect("reap the holder");
    }
}

impl Drop for Holder {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Not a test: the solistore holder process (see the module docs).
#[test]
#[ignore = "run by lock_interop's tests as a child process"]
fn lock_holder_child() {
    let Ok(dir) = std::env::var("SOLISTORE_LOCK_HOLD_DIR") else {
        return;
    };
    let db = Db::open(&opts(), ColumnFamilyOptions::default(), &dir).expect("holder open");
    println!("OPEN-OK");
    use std::io::Write;
    std::io::stdout().flush().expect("flush");
    loop {
        std::thread::sleep(Duration::from_secs(1));
        let _ = db.name();
    }
}

/// Opens in this process; returns the error text and how long the open took.
fn solistore_try(dir: &Path) -> (Result<(), String>, Duration) {
    let start = Instant::now();
    let res = Db::open(
        &opts(),
        ColumnFamilyOptions::default(),
        &dir.to_string_lossy(),
    )
    .map(|db| db.close().expect("close"))
    .map_err(|e| e.to_string());
    (res, start.elapsed())
}

/// Opens with librocksdb in another process; returns its error text and the open's time.
fn rocksdb_try(bin: &Path, dir: &Path) -> (Result<(), String>, Duration) {
    let out = Command::new(bin)
        .arg(dir)
        .arg("try")
        .output()
        .expect("run rocksdb_lock_holder");
    let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let (ok, rest) = if let Some(r) = text.strip_prefix("OPEN-OK ") {
        (true, r.to_string())
    } else if let Some(r) = text.strip_prefix("OPEN-ERROR ") {
        (false, r.to_string())
    } else {
        panic!("unexpected output {text:?}")
    };
    let (ms, msg) = rest.split_once(' ').unwrap_or((&rest, ""));
    let took = Duration::from_secs_f64(ms.parse::<f64>().expect("ms") / 1e3);
    (if ok { Ok(()) } else { Err(msg.to_string()) }, took)
}

fn expected_text(dir: &Path) -> String {
    format!(
        "IO error: While lock file: {}/LOCK: Resource temporarily unavailable",
        dir.display()
    )
}

fn refused_in_time(who: &str, (res, took): (Result<(), String>, Duration), dir: &Path) -> String {
    let err = res.expect_err(&format!("{who}: the second open must be refused"));
    assert_eq!(err, expected_text(dir), "{who}");
    assert!(took < LIMIT, "{who}: refused after {took:?}");
    err
}

#[test]
fn solistore_holder_in_another_process_refuses_solistore_then_its_kill_frees_the_lock() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("db");
    let holder = Holder::solistore(&dir);
    refused_in_time("solistore after solistore", solistore_try(&dir), &dir);
    holder.kill();
    solistore_try(&dir)
        .0
        .expect("open after the holder was killed");
}

#[test]
fn rocksdb_and_solistore_refuse_each_other_in_both_orders() {
    let Some(bin) = holder_binary() else { return };
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("db");

    // RocksDB holds; solistore and a second RocksDB are refused with the same text.
    let holder = Holder::rocksdb(&bin, &dir);
    let ours = refused_in_time("solistore after RocksDB", solistore_try(&dir), &dir);
    let theirs = refused_in_time("RocksDB after RocksDB", rocksdb_try(&bin, &dir), &dir);
    assert_eq!(ours, theirs, "solistore words the refusal as RocksDB does");
    holder.kill();
    solistore_try(&dir)
        .0
        .expect("solistore opens after RocksDB was killed");

    // solistore holds; RocksDB is refused, then opens once the holder is killed.
    let holder = Holder::solistore(&dir);
    refused_in_time("RocksDB after solistore", rocksdb_try(&bin, &dir), &dir);
    holder.kill();
    rocksdb_try(&bin, &dir)
        .0
        .expect("RocksDB opens after solistore was killed");
}
