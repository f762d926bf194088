// SPDX-License-Identifier: Apache-2.0
//! Shared by the differential recovery tests (`wal_recovery_modes`, `corruption_sweep`,
//! `lock_interop`): building the C drivers in tests-c/compat against Debian's librocksdb
//! once per test process, running the reader (one job per process, or many through
//! `--batch`), parsing its output, copying DB directories and listing their files.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

/// True when CI asked for the RocksDB oracle (`SOLISTORE_REQUIRE_ROCKSDB=1`): a missing
/// librocksdb is then a failure, not a skip.
pub fn rocksdb_required() -> bool {
    std::env::var("SOLISTORE_REQUIRE_ROCKSDB").is_ok_and(|v| v == "1")
}

/// Compiles `tests-c/compat/<name>.c` against librocksdb into a per-process temp file, or
/// returns None when librocksdb-dev is missing (and not required).
pub fn build_c_driver(name: &str) -> Option<PathBuf> {
    if !Path::new("/usr/include/rocksdb/c.h").exists() {
        assert!(
            !rocksdb_required(),
            "librocksdb-dev is required but missing"
        );
        return None;
    }
    let out = std::env::temp_dir().join(format!("solistore-{name}-{}", std::process::id()));
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../tests-c/compat/{name}.c"));
    let ok = Command::new("gcc")
        .args(["-O1", "-Wall", "-Wextra", "-Werror", "-o"])
        .arg(&out)
        .arg(&src)
        .arg("-lrocksdb")
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok || !rocksdb_required(), "could not build {name}");
    ok.then_some(out)
}

/// The RocksDB reader, built once per test process (tests run in parallel; building it in
/// each of them raced with another's exec: "Text file busy").
pub fn reader_binary() -> Option<PathBuf> {
    static BUILT: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| build_c_driver("rocksdb_reader"))
        .clone()
}

/// One entry as the reader prints it: column family name, key, value.
pub type Entry = (String, Vec<u8>, Vec<u8>);

/// What RocksDB made of a directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RocksOutcome {
    OpenError(String),
    /// Entries in column family order, and the iterator errors (`<cf> <message>`).
    Read {
        entries: Vec<Entry>,
        iter_errors: Vec<String>,
    },
}

pub fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

/// Parses one job's lines (up to and including `END`, or the `OPEN-ERROR` line).
fn parse(lines: &[String]) -> RocksOutcome {
    if let Some(first) = lines.first() {
        if let Some(msg) = first.strip_prefix("OPEN-ERROR ") {
            return RocksOutcome::OpenError(msg.to_string());
        }
    }
    let mut entries = Vec::new();
    let mut iter_errors = Vec::new();
    for line in lines.iter().take_while(|l| *l != "END") {
        if let Some(msg) = line.strip_prefix("ITER-ERROR ") {
            iter_errors.push(msg.to_string());
            continue;
        }
        let mut parts = line.split(' ');
        let (cf, k, v) = (
            parts.next().expect("cf"),
            parts.next().expect("k"),
            parts.next().unwrap_or(""),
        );
        entries.push((cf.to_string(), unhex(k), unhex(v)));
    }
    RocksOutcome::Read {
        entries,
        iter_errors,
    }
}

/// Runs the reader once on `dir` (which it may change: RocksDB recovers into it).
pub fn rocksdb_read(
    bin: &Path,
    dir: &Path,
    mode: i32,
    paranoid: bool,
    verify: bool,
) -> RocksOutcome {
    let out = Command::new(bin)
        .arg(dir)
        .arg(mode.to_string())
        .arg(u8::from(paranoid).to_string())
        .arg(u8::from(verify).to_string())
        .output()
        .expect("run reader");
    assert!(
        out.status.success(),
        "reader crashed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    parse(&lines)
}

/// A long-lived reader process fed one job per line (`rocksdb_reader --batch`): one
/// process start for thousands of opens. When RocksDB dies on a job (an assertion in
/// Debian's build) or takes longer than `JOB_TIMEOUT` (it spins), the process is killed, the
/// job reports why, and a new process takes the next one.
pub struct BatchReader {
    bin: PathBuf,
    /// The process, its stdin, and its stdout lines (read by a thread, so that a job can
    /// time out).
    proc: Option<(Child, ChildStdin, Receiver<String>)>,
}

/// Why RocksDB gave no answer to a job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoAnswer {
    Crashed,
    TimedOut,
}

/// How long one RocksDB open of a small damaged DB may take.
pub const JOB_TIMEOUT: Duration = Duration::from_secs(20);

impl BatchReader {
    pub fn new(bin: &Path) -> Self {
        BatchReader {
            bin: bin.to_path_buf(),
            proc: None,
        }
    }

    pub fn read(
        &mut self,
        dir: &Path,
        mode: i32,
        paranoid: bool,
        verify: bool,
    ) -> Result<RocksOutcome, NoAnswer> {
        if self.proc.is_none() {
            let mut child = Command::new(&self.bin)
                .arg("--batch")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .expect("spawn reader");
            let stdin = child.stdin.take().expect("stdin");
            let stdout = BufReader::new(child.stdout.take().expect("stdout"));
            let (tx, rx) = std::sync::mpsc::channel();
            std::thread::spawn(move || {
                for line in stdout.lines() {
                    let Ok(line) = line else { break };
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
            self.proc = Some((child, stdin, rx));
        }
        let (_, stdin, rx) = self.proc.as_mut().expect("reader");
        let job = format!(
            "{} {mode} {} {}\n",
            dir.display(),
            u8::from(paranoid),
            u8::from(verify)
        );
        let mut lines = Vec::new();
        let mut result = if stdin
            .write_all(job.as_bytes())
            .and_then(|()| stdin.flush())
            .is_ok()
        {
            Ok(())
        } else {
            Err(NoAnswer::Crashed)
        };
        while result.is_ok() {
            match rx.recv_timeout(JOB_TIMEOUT) {
                Ok(line) => {
                    let last = line == "END" || line.starts_with("OPEN-ERROR ");
                    lines.push(line);
                    if last {
                        break;
                    }
                }
                Err(RecvTimeoutError::Timeout) => result = Err(NoAnswer::TimedOut),
                Err(RecvTimeoutError::Disconnected) => result = Err(NoAnswer::Crashed),
            }
        }
        if let Err(why) = result {
            if let Some((mut child, _, _)) = self.proc.take() {
                let _ = child.kill();
                let _ = child.wait();
            }
            return Err(why);
        }
        Ok(parse(&lines))
    }
}

impl Drop for BatchReader {
    fn drop(&mut self) {
        if let Some((mut child, stdin, _)) = self.proc.take() {
            drop(stdin);
            let _ = child.wait();
        }
    }
}

/// Copies a DB directory's files (not `LOCK`).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir") {
        let e = e.expect("entry");
        if e.file_name() != "LOCK" {
            std::fs::copy(e.path(), to.join(e.file_name())).expect("copy");
        }
    }
}

/// Cuts the file at `path` to `len` bytes (a power cut's lost tail, a torn record).
pub fn truncate_file(path: &Path, len: u64) {
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .expect("open")
        .set_len(len)
        .expect("truncate");
}

/// The files in `dir` whose extension is `ext` ("log", "sst"), sorted by name.
pub fn files_with_extension(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    v.sort();
    v
}
