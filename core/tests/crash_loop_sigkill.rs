// SPDX-License-Identifier: Apache-2.0
//! SIGKILL crash loop: a child process writes synced and unsynced batches across two column
//! families from several threads and prints an acknowledgement after each write returns; the
//! parent kills it at a random moment, reopens the DB and checks that every acknowledged
//! write is present (a process kill loses nothing that reached the OS, synced or not), that
//! no batch is partly visible, and that the data matches what the writers wrote.
//!
//! `crash_loop` syncs every fourth batch; `crash_loop_unsynced` never syncs, so that the
//! WAL's appends go through its mapping all along (`WritableFile::map_appends`, which a
//! WAL gives up at its first sync) and a kill can land in the middle of a store. Values
//! are up to 1.5 KiB, so a life's WAL crosses several mapped windows.
//!
//! `SOLISTORE_CRASH_ITERATIONS` sets the number of kills (default 50, 25 unsynced; `make
//! soak` runs 1,000 of each); `SOLISTORE_CRASH_SEED` replays a run (the seed is printed).

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use solistore::batch::WriteBatch;
use solistore::db::Db;
use solistore::options::{ColumnFamilyOptions, DbOptions, ReadOptions, WriteOptions};

const THREADS: u64 = 3;
const BATCHES_PER_LIFE: u64 = 400;
const CHILD_ENV: &str = "SOLISTORE_CRASH_CHILD_DIR";
/// The child syncs every this many batches (0: never).
const SYNC_ENV: &str = "SOLISTORE_CRASH_CHILD_SYNC_EVERY";

fn open(path: &str) -> (Db, Vec<solistore::db::ColumnFamilyHandle>) {
    let opts = DbOptions {
        create_if_missing: true,
        create_missing_column_families: true,
        ..Default::default()
    };
    let cfs = vec![
        ("default".to_string(), ColumnFamilyOptions::default()),
        ("other".to_string(), ColumnFamilyOptions::default()),
    ];
    Db::open_cf(&opts, path, cfs).expect("open")
}

fn key(tid: u64, n: u64) -> Vec<u8> {
    format!("t{tid}-{n:08}").into_bytes()
}

/// Batch `n`'s value: `n` in decimal, zero-padded to a length between 1 and 1,500 bytes.
fn value(n: u64) -> String {
    let width = (n.wrapping_mul(7919) % 1500) as usize + 1;
    format!("{n:0>width$}")
}

fn last_key(tid: u64) -> Vec<u8> {
    format!("t{tid}-last").into_bytes()
}

/// The child's body: runs only when the parent started this binary with `CHILD_ENV`.
#[test]
#[ignore = "run by crash_loop as a child process"]
fn crash_child() {
    let Ok(path) = std::env::var(CHILD_ENV) else {
        return;
    };
    let sync_every: u64 = std::env::var(SYNC_ENV)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4);
    let (db, handles) = open(&path);
    let out = Arc::new(Mutex::new(std::io::stdout()));
    let mut threads = Vec::new();
    for tid in 0..THREADS {
        let db = db.clone();
        let handles = handles.clone();
        let out = out.clone();
        threads.push(std::thread::spawn(move || {
            let start = db
                .get(&ReadOptions::default(), &handles[0], &last_key(tid))
                .expect("get")
                .map(|v| String::from_utf8_lossy(&v).parse::<u64>().expect("counter"))
                .unwrap_or(0);
            for n in start + 1..=start + BATCHES_PER_LIFE {
                let mut b = WriteBatch::new();
                let value = value(n);
                for h in &handles {
                    b.put(h.id(), &key(tid, n), value.as_bytes());
                    b.put(h.id(), &last_key(tid), value.as_bytes());
                }
                let wo = WriteOptions {
                    sync: sync_every > 0 && n % sync_every == 0,
                    ..Default::default()
                };
                db.write(&wo, &b).expect("write");
                let mut o = out.lock().expect("stdout lock");
                writeln!(o, "ack {tid} {n}").expect("stdout");
                o.flush().expect("flush");
            }
        }));
    }
    for t in threads {
        t.join().expect("writer thread");
    }
    std::thread::sleep(Duration::from_secs(30)); // wait to be killed
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn crash_loop() {
    run_crash_loop(4, 50);
}

#[test]
fn crash_loop_unsynced() {
    run_crash_loop(0, 25);
}

/// Kills a child that syncs every `sync_every` batches (0: never) `SOLISTORE_CRASH_ITERATIONS`
/// times (default `default_iterations`), checking the DB after each kill.
fn run_crash_loop(sync_every: u64, default_iterations: u64) {
    let iterations: u64 = std::env::var("SOLISTORE_CRASH_ITERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default_iterations);
    let seed = std::env::var("SOLISTORE_CRASH_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(1)
                | 1
        });
    println!("crash_loop (sync every {sync_every}): seed {seed}, {iterations} kills");
    let mut rng = Rng(seed);
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("db").to_string_lossy().into_owned();
    let exe = std::env::current_exe().expect("test binary");
    let mut acked: BTreeMap<u64, u64> = BTreeMap::new();
    let mut total_checked = 0u64;
    for iter in 0..iterations {
        let mut child = Command::new(&exe)
            .args([
                "--exact",
                "crash_child",
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_ENV, &path)
            .env(SYNC_ENV, sync_every.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn child");
        let stdout = child.stdout.take().expect("child stdout");
        let seen = Arc::new(Mutex::new(BTreeMap::<u64, u64>::new()));
        let seen2 = seen.clone();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let parts: Vec<&str> = line.split_whitespace().collect();
                if parts.len() == 3 && parts[0] == "ack" {
                    let (tid, n) = (
                        parts[1].parse::<u64>().expect("tid"),
                        parts[2].parse::<u64>().expect("n"),
                    );
                    let mut s = seen2.lock().expect("lock");
                    let e = s.entry(tid).or_insert(0);
                    *e = (*e).max(n);
                }
            }
        });
        std::thread::sleep(Duration::from_millis(5 + rng.next() % 120));
        child.kill().expect("kill");
        child.wait().expect("wait");
        reader.join().expect("reader");
        for (tid, n) in seen.lock().expect("lock").iter() {
            let e = acked.entry(*tid).or_insert(0);
            *e = (*e).max(*n);
        }
        // Verify.
        let (db, handles) = open(&path);
        let ro = ReadOptions::default();
        for tid in 0..THREADS {
            let want = acked.get(&tid).copied().unwrap_or(0);
            let lasts: Vec<Option<Vec<u8>>> = handles
                .iter()
                .map(|h| db.get(&ro, h, &last_key(tid)).expect("get"))
                .collect();
            assert_eq!(
                lasts[0], lasts[1],
                "iteration {iter}: a batch is partly visible (thread {tid})"
            );
            let last: u64 = lasts[0]
                .as_ref()
                .map(|v| String::from_utf8_lossy(v).parse().expect("n"))
                .unwrap_or(0);
            assert!(last >= want, "iteration {iter}: thread {tid} acknowledged {want} but only {last} survived (seed {seed})");
            for n in 1..=last {
                for h in &handles {
                    let got = db.get(&ro, h, &key(tid, n)).expect("get");
                    assert_eq!(
                        got,
                        Some(value(n).into_bytes()),
                        "iteration {iter}: missing t{tid}-{n} (seed {seed})"
                    );
                    total_checked += 1;
                }
            }
            assert_eq!(
                db.get(&ro, &handles[0], &key(tid, last + 1)).expect("get"),
                None,
                "a write beyond the last marker"
            );
            acked.insert(tid, last);
        }
        db.close().expect("close");
    }
    println!(
        "crash_loop: {iterations} kills, {total_checked} key checks, final counters {acked:?}"
    );
}
