// SPDX-License-Identifier: Apache-2.0
//! Compatibility with Debian's RocksDB 7.8.3, both ways, for the write path:
//! - a directory written by librocksdb through its C API (tests-c/compat/rocksdb_writer.c,
//!   exited without closing, so everything lives in the WAL) recovers in solistore with every
//!   key and column family;
//! - `ldb dump_wal` lists exactly the batches solistore wrote to its WAL;
//! - `ldb scan` (RocksDB opening our directory) lists exactly our data, per column family.
//!
//! Each test is skipped (with a message) when the tools are missing, unless
//! `SOLISTORE_REQUIRE_ROCKSDB=1` (set by CI), which turns a missing tool into a failure.

use std::path::{Path, PathBuf};
use std::process::Command;

use solistore::batch::WriteBatch;
use solistore::db::Db;
use solistore::options::{ColumnFamilyOptions, DbOptions, ReadOptions, WriteOptions};

fn required() -> bool {
    std::env::var("SOLISTORE_REQUIRE_ROCKSDB").is_ok_and(|v| v == "1")
}

/// True when `tool` runs; otherwise skips (or fails under CI).
fn have(tool: &str, probe: &[&str]) -> bool {
    let ok = Command::new(tool).args(probe).output().is_ok();
    if !ok {
        assert!(
            !required(),
            "{tool} is required (SOLISTORE_REQUIRE_ROCKSDB=1) but missing"
        );
        eprintln!("skipping: {tool} is not installed");
    }
    ok
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("core has a parent")
        .to_path_buf()
}

fn build_writer(out: &Path) -> bool {
    if !have("gcc", &["--version"]) || !Path::new("/usr/include/rocksdb/c.h").exists() {
        assert!(!required(), "librocksdb-dev is required but missing");
        return false;
    }
    let src = repo_root().join("tests-c/compat/rocksdb_writer.c");
    let status = Command::new("gcc")
        .args(["-O1", "-Wall", "-Wextra", "-Werror", "-o"])
        .arg(out)
        .arg(&src)
        .arg("-lrocksdb")
        .status()
        .expect("run gcc");
    assert!(status.success(), "compiling {}", src.display());
    true
}

fn all_cfs() -> Vec<(String, ColumnFamilyOptions)> {
    ["default", "cf1", "cf2"]
        .iter()
        .map(|n| (n.to_string(), ColumnFamilyOptions::default()))
        .collect()
}

#[test]
fn directory_written_by_rocksdb_recovers_every_key() {
    let dir = tempfile::tempdir().expect("tempdir");
    let exe = dir.path().join("rocksdb_writer");
    if !build_writer(&exe) {
        return;
    }
    let db_path = dir.path().join("db");
    let n: usize = 500;
    let status = Command::new(&exe)
        .arg(&db_path)
        .arg(n.to_string())
        .status()
        .expect("run writer");
    assert!(status.success());
    let path = db_path.to_string_lossy().into_owned();
    assert_eq!(
        Db::list_column_families(&path).expect("list"),
        vec!["default", "cf1", "cf2"]
    );
    let opts = DbOptions::default();
    let (db, h) = Db::open_cf(&opts, &path, all_cfs()).expect("open a RocksDB directory");
    let ro = ReadOptions::default();
    let get = |i: usize, k: String| db.get(&ro, &h[i], k.as_bytes()).expect("get");
    for i in 0..n {
        let want = (i % 7 != 0).then(|| format!("value{i:06}").into_bytes());
        assert_eq!(get(0, format!("key{i:06}")), want, "default key{i:06}");
        let want = (!(100..200).contains(&i)).then(|| format!("v1-{i:06}").into_bytes());
        assert_eq!(get(1, format!("k1-{i:06}")), want, "cf1 k1-{i:06}");
        assert_eq!(
            get(2, format!("k2-{i:06}")),
            Some(format!("v2-{i:06}").into_bytes()),
            "cf2"
        );
    }
    // Counts by scan match the writer's content exactly.
    let count = |i: usize| {
        let mut it = db.iter(&ro, &h[i]).expect("iter");
        it.seek_to_first();
        let mut c = 0;
        while it.valid() {
            c += 1;
            it.next();
        }
        c
    };
    assert_eq!(
        count(0),
        n - n.div_ceil(7) + 1,
        "default has the batch marker too"
    );
    assert_eq!(count(1), n - 100);
    assert_eq!(count(2), n);
    // Writes go on after recovery, with sequence numbers after RocksDB's.
    let before = db.latest_sequence_number();
    assert!(before >= (3 * n) as u64);
    db.put(&WriteOptions::default(), &h[0], b"after", b"x")
        .expect("put");
    assert_eq!(db.latest_sequence_number(), before + 1);
    db.close().expect("close");
}

/// Parses `ldb dump_wal --print_value` lines: `seq,count,size,offset,OPS...`.
fn dump_wal(wal: &Path) -> Vec<(u64, u64, String)> {
    let out = Command::new("ldb")
        .arg("dump_wal")
        .arg(format!("--walfile={}", wal.display()))
        .arg("--print_value")
        .output()
        .expect("run ldb");
    assert!(
        out.status.success(),
        "ldb dump_wal failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .map(|l| {
            let mut parts = l.splitn(5, ',');
            let seq = parts.next().and_then(|s| s.parse().ok()).expect("seq");
            let count = parts.next().and_then(|s| s.parse().ok()).expect("count");
            let _size = parts.next();
            let _offset = parts.next();
            (seq, count, parts.next().unwrap_or("").trim().to_string())
        })
        .collect()
}

fn hex(b: &[u8]) -> String {
    let h: String = b.iter().map(|x| format!("{x:02X}")).collect();
    format!("0x{h}")
}

fn newest_wal(dir: &Path) -> PathBuf {
    let mut wals: Vec<_> = std::fs::read_dir(dir)
        .expect("read_dir")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "log"))
        .collect();
    wals.sort();
    wals.pop().expect("a WAL")
}

#[test]
fn ldb_dump_wal_shows_our_batches() {
    if !have("ldb", &["--version"]) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("db").to_string_lossy().into_owned();
    let opts = DbOptions {
        create_if_missing: true,
        create_missing_column_families: true,
        ..Default::default()
    };
    let cfs = vec![
        ("default".to_string(), ColumnFamilyOptions::default()),
        ("cf1".to_string(), ColumnFamilyOptions::default()),
    ];
    let (db, h) = Db::open_cf(&opts, &path, cfs).expect("open");
    let wo = WriteOptions::default();
    db.put(&wo, &h[0], b"a", b"1").expect("put");
    let mut b = WriteBatch::new();
    b.put(h[1].id(), b"b", b"2");
    b.delete(0, b"a");
    b.delete_range(h[1].id(), b"c", b"d");
    b.single_delete(0, b"e");
    db.write(&wo, &b).expect("write");
    let big = vec![b'z'; 100_000]; // spans several 32 KiB blocks
    db.put(
        &WriteOptions {
            sync: true,
            ..Default::default()
        },
        &h[1],
        b"big",
        &big,
    )
    .expect("put big");
    db.close().expect("close");
    let got = dump_wal(&newest_wal(Path::new(&path)));
    let expected = vec![
        (1, 1, format!("PUT(0) : {} : {}", hex(b"a"), hex(b"1"))),
        (
            2,
            4,
            format!(
                "PUT(1) : {} : {} DELETE(0) : {} DELETE_RANGE(1) : {} {} SINGLE_DELETE(0) : {}",
                hex(b"b"),
                hex(b"2"),
                hex(b"a"),
                hex(b"c"),
                hex(b"d"),
                hex(b"e")
            ),
        ),
        (6, 1, format!("PUT(1) : {} : {}", hex(b"big"), hex(&big))),
    ];
    assert_eq!(got.len(), expected.len(), "{got:?}");
    for (g, e) in got.iter().zip(&expected) {
        assert_eq!((g.0, g.1), (e.0, e.1));
        assert_eq!(
            g.2.split_whitespace().collect::<Vec<_>>(),
            e.2.split_whitespace().collect::<Vec<_>>()
        );
    }
}

#[test]
fn rocksdb_opens_our_directory_and_scans_our_data() {
    if !have("ldb", &["--version"]) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("db").to_string_lossy().into_owned();
    let opts = DbOptions {
        create_if_missing: true,
        create_missing_column_families: true,
        ..Default::default()
    };
    let cfs = vec![
        ("default".to_string(), ColumnFamilyOptions::default()),
        ("cf1".to_string(), ColumnFamilyOptions::default()),
    ];
    {
        let (db, h) = Db::open_cf(&opts, &path, cfs.clone()).expect("open");
        let wo = WriteOptions::default();
        for i in 0..200u32 {
            db.put(
                &wo,
                &h[0],
                format!("d{i:04}").as_bytes(),
                format!("x{i}").as_bytes(),
            )
            .expect("put");
            db.put(
                &wo,
                &h[1],
                format!("c{i:04}").as_bytes(),
                format!("y{i}").as_bytes(),
            )
            .expect("put");
        }
        db.delete_range(&wo, &h[0], b"d0100", b"d0150")
            .expect("delete_range");
        db.close().expect("close");
    }
    // Reopen once in solistore too, so RocksDB sees a directory with two WALs.
    {
        let (db, h) = Db::open_cf(&opts, &path, cfs).expect("reopen");
        db.put(&WriteOptions::default(), &h[1], b"c9999", b"late")
            .expect("put");
        db.close().expect("close");
    }
    let scan = |cf: &str| {
        let out = Command::new("ldb")
            .arg(format!("--db={path}"))
            .arg(format!("--column_family={cf}"))
            .arg("scan")
            .output()
            .expect("ldb");
        assert!(
            out.status.success(),
            "ldb scan {cf}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let want0: Vec<String> = (0..200u32)
        .filter(|i| !(100..150).contains(i))
        .map(|i| format!("d{i:04} : x{i}"))
        .collect();
    assert_eq!(scan("default"), want0);
    let mut want1: Vec<String> = (0..200u32).map(|i| format!("c{i:04} : y{i}")).collect();
    want1.push("c9999 : late".into());
    assert_eq!(scan("cf1"), want1);
}
