// SPDX-License-Identifier: Apache-2.0
//! Compatibility with Debian's RocksDB 7.8.3 for tables (flush and compaction outputs), both
//! ways:
//! - `sst_dump --command=check --verify_checksum` accepts every table solistore writes
//!   (compression None, Snappy, LZ4; with and without a Bloom filter; with range tombstones),
//!   and its properties name the compression and filter we asked for;
//! - `ldb scan` and librocksdb's C API (tests-c/compat/rocksdb_reader.c) list exactly our data,
//!   per column family, from a directory that solistore flushed and compacted; solistore then
//!   reopens the directory RocksDB has written to;
//! - solistore opens a directory that librocksdb flushed and compacted
//!   (tests-c/compat/rocksdb_table_writer.c: none/Snappy/LZ4/ZSTD, Bloom filters, range deletions,
//!   closed or not) and reads every key by get and by scan both ways;
//! - a checkpoint made while the source is being written opens as an ordinary DB with its
//!   own lock, and `ldb scan` reads it.
//!
//! Each test is skipped (with a message) when the tools are missing, unless
//! `SOLISTORE_REQUIRE_ROCKSDB=1` (set by CI), which turns a missing tool into a failure.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use solistore::db::{ColumnFamilyHandle, Db};
use solistore::options::{ColumnFamilyOptions, DbOptions, ReadOptions, WriteOptions};
use solistore::sst::CompressionType;

type Kv = BTreeMap<Vec<u8>, Vec<u8>>;

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

/// Builds `tests-c/compat/<name>.c` against librocksdb into `out`; false means skip.
fn build_c(name: &str, out: &Path) -> bool {
    if !have("gcc", &["--version"]) || !Path::new("/usr/include/rocksdb/c.h").exists() {
        assert!(!required(), "librocksdb-dev is required but missing");
        eprintln!("skipping: librocksdb-dev is not installed");
        return false;
    }
    let src = repo_root().join(format!("tests-c/compat/{name}.c"));
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

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().expect("spawn");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{cmd:?} failed:\n{text}");
    text
}

fn sst_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .expect("read_dir")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "sst"))
        .collect();
    v.sort();
    v
}

/// A DB and a model of it: every write goes to both.
struct Writer {
    db: Db,
    names: Vec<String>,
    h: Vec<ColumnFamilyHandle>,
    model: Vec<Kv>,
}

impl Writer {
    fn open(path: &str, cfs: &[&str], cf_opts: &ColumnFamilyOptions) -> Writer {
        let opts = DbOptions {
            create_if_missing: true,
            create_missing_column_families: true,
            ..Default::default()
        };
        let descs = cfs
            .iter()
            .map(|n| (n.to_string(), cf_opts.clone()))
            .collect();
        let (db, h) = Db::open_cf(&opts, path, descs).expect("open");
        Writer {
            db,
            names: cfs.iter().map(|s| s.to_string()).collect(),
            h,
            model: vec![Kv::new(); cfs.len()],
        }
    }

    fn put(&mut self, cf: usize, k: &str, v: &str) {
        let wo = WriteOptions::default();
        self.db
            .put(&wo, &self.h[cf], k.as_bytes(), v.as_bytes())
            .expect("put");
        self.model[cf].insert(k.into(), v.into());
    }

    fn delete(&mut self, cf: usize, k: &str) {
        let wo = WriteOptions::default();
        self.db
            .delete(&wo, &self.h[cf], k.as_bytes())
            .expect("delete");
        self.model[cf].remove(k.as_bytes());
    }

    fn delete_range(&mut self, cf: usize, a: &str, b: &str) {
        let wo = WriteOptions::default();
        self.db
            .delete_range(&wo, &self.h[cf], a.as_bytes(), b.as_bytes())
            .expect("delete_range");
        let doomed: Vec<_> = self.model[cf]
            .range(a.as_bytes().to_vec()..b.as_bytes().to_vec())
            .map(|(k, _)| k.clone())
            .collect();
        for k in doomed {
            self.model[cf].remove(&k);
        }
    }

    fn flush(&self, cf: usize) {
        self.db.flush(&self.h[cf], true).expect("flush");
    }

    fn compact(&self, cf: usize, a: Option<&str>, b: Option<&str>) {
        self.db
            .compact_range(&self.h[cf], a.map(str::as_bytes), b.map(str::as_bytes))
            .expect("compact_range");
    }

    /// A load that leaves flushed level-0 tables, compacted tables in deeper levels (manual
    /// and automatic), point and range tombstones in tables, and a memtable tail.
    fn standard_load(&mut self, n: usize) {
        let ncf = self.h.len();
        for round in 0..3 {
            for i in 0..n {
                let cf = i % ncf;
                let k = format!("key{:06}", (i * 7919 + round * 31) % n);
                let v = format!("r{round}-v{i}-{}", "p".repeat(i % 23));
                self.put(cf, &k, &v);
            }
            for i in (round..n).step_by(9) {
                self.delete(i % ncf, &format!("key{i:06}"));
            }
            // A range tombstone over data already in tables and over the memtable.
            let lo = n / 5 * (round + 1);
            self.delete_range(
                round % ncf,
                &format!("key{lo:06}"),
                &format!("key{:06}", lo + n / 20),
            );
            for cf in 0..ncf {
                self.flush(cf);
            }
            if round == 1 {
                self.compact(0, None, None);
                if ncf > 1 {
                    let (a, b) = (format!("key{:06}", n / 3), format!("key{:06}", n / 2));
                    self.compact(1, Some(&a), Some(&b));
                }
            }
        }
        // Left in the memtable (and WAL): a tombstone over tables, some puts.
        self.delete_range(
            0,
            &format!("key{:06}", n / 2),
            &format!("key{:06}", n / 2 + 7),
        );
        for i in 0..20 {
            self.put(ncf - 1, &format!("key{:06}", i * 3), &format!("tail{i}"));
        }
    }

    /// Every key by get, and full scans both ways, equal the model.
    fn verify(&self) {
        verify_db(&self.db, &self.h, &self.names, &self.model);
    }
}

fn verify_db(db: &Db, h: &[ColumnFamilyHandle], names: &[String], model: &[Kv]) {
    let ro = ReadOptions::default();
    for (cf, want) in model.iter().enumerate() {
        let mut it = db.iter(&ro, &h[cf]).expect("iter");
        let mut got = Vec::new();
        it.seek_to_first();
        while it.valid() {
            got.push((it.key().to_vec(), it.value().to_vec()));
            it.next();
        }
        it.status().expect("forward scan status");
        let want_v: Vec<_> = want.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        assert!(
            got == want_v,
            "cf {}: forward scan differs ({} vs {} entries); first difference: {:?}",
            names[cf],
            got.len(),
            want_v.len(),
            first_difference(&got, &want_v)
        );
        let mut back = Vec::new();
        it.seek_to_last();
        while it.valid() {
            back.push((it.key().to_vec(), it.value().to_vec()));
            it.prev();
        }
        it.status().expect("reverse scan status");
        back.reverse();
        assert!(back == want_v, "cf {}: reverse scan differs", names[cf]);
    }
}

fn first_difference(
    got: &[(Vec<u8>, Vec<u8>)],
    want: &[(Vec<u8>, Vec<u8>)],
) -> Option<(String, String)> {
    let show = |e: Option<&(Vec<u8>, Vec<u8>)>| match e {
        Some((k, v)) => format!(
            "{} => {}",
            String::from_utf8_lossy(k),
            String::from_utf8_lossy(v)
        ),
        None => "<end>".into(),
    };
    (0..got.len().max(want.len()))
        .find(|&i| got.get(i) != want.get(i))
        .map(|i| (show(got.get(i)), show(want.get(i))))
}

/// Runs `sst_dump --command=check --verify_checksum` over the directory and fails on any
/// complaint (sst_dump exits 0 even on corruption, so its text is what counts). Returns the
/// `--show_properties` text of every table.
fn sst_dump_check(dir: &Path) -> String {
    let files = sst_files(dir);
    assert!(!files.is_empty(), "no tables in {}", dir.display());
    let text = run(Command::new("sst_dump")
        .arg(format!("--file={}", dir.display()))
        .arg("--command=check")
        .arg("--verify_checksum"));
    for line in text.lines() {
        let l = line.to_ascii_lowercase();
        assert!(
            !(l.contains("corruption") || l.contains("mismatch") || l.contains("error")),
            "sst_dump check complains: {line}\nfull output:\n{text}"
        );
    }
    for f in &files {
        let name = f.file_name().expect("name").to_string_lossy().into_owned();
        assert!(
            text.lines()
                .any(|l| l.starts_with("Process ") && l.ends_with(&name)),
            "sst_dump did not process {name}:\n{text}"
        );
    }
    run(Command::new("sst_dump")
        .arg(format!("--file={}", dir.display()))
        .arg("--show_properties"))
}

/// sst_dump's `--show_properties` listing split per table: `name -> value` maps.
fn table_properties(props: &str) -> Vec<BTreeMap<String, String>> {
    let mut tables: Vec<BTreeMap<String, String>> = Vec::new();
    for line in props.lines() {
        if line.starts_with("Process ") {
            tables.push(BTreeMap::new());
        } else if let (Some(t), Some((k, v))) = (tables.last_mut(), line.split_once(": ")) {
            t.entry(k.trim().to_string())
                .or_insert_with(|| v.trim().to_string());
        }
    }
    tables
}

fn small_cf_options(compression: CompressionType, bloom: Option<f64>) -> ColumnFamilyOptions {
    ColumnFamilyOptions {
        compression,
        bloom_bits_per_key: bloom,
        write_buffer_size: 64 << 10,
        target_file_size_base: 16 << 10,
        max_bytes_for_level_base: 128 << 10,
        level0_file_num_compaction_trigger: 2,
        ..Default::default()
    }
}

#[test]
fn sst_dump_verifies_every_table_we_write() {
    if !have("sst_dump", &["--help"]) {
        return;
    }
    let cases = [
        (CompressionType::None, "NoCompression"),
        (CompressionType::Snappy, "Snappy"),
        (CompressionType::Lz4, "LZ4"),
    ];
    for (compression, algo) in cases {
        for bloom in [None, Some(10.0)] {
            let dir = tempfile::tempdir().expect("tempdir");
            let path = dir.path().join("db");
            let p = path.to_string_lossy().into_owned();
            let mut w = Writer::open(
                &p,
                &["default", "other"],
                &small_cf_options(compression, bloom),
            );
            w.standard_load(6000);
            // Compaction may drop tombstones at the bottom; one newer than a live snapshot
            // must stay, so some table surely holds a range tombstone.
            let snap = w.db.snapshot();
            w.delete_range(1, "key000100", "key000200");
            w.flush(0);
            w.flush(1);
            w.verify();
            w.db.close().expect("close");
            drop(snap);
            let props = table_properties(&sst_dump_check(&path));
            let tables = sst_files(&path).len();
            let ctx = format!("{compression:?} bloom {bloom:?}");
            assert!(tables >= 4, "{ctx}: only {tables} tables");
            assert_eq!(props.len(), tables, "{ctx}: one property listing per table");
            let filter = if bloom.is_some() {
                "bloomfilter"
            } else {
                "N/A"
            };
            let mut range_dels = 0;
            for t in &props {
                let get = |k: &str| t.get(k).map(String::as_str).unwrap_or("<missing>");
                assert_eq!(get("SST file compression algo"), algo, "{ctx}: {t:?}");
                // A table of range tombstones only has no keys to filter.
                if get("# data blocks") != "0" {
                    assert_eq!(get("filter policy name"), filter, "{ctx}: {t:?}");
                }
                range_dels += get("# range deletions").parse::<u64>().expect("count");
            }
            assert!(range_dels > 0, "{ctx}: no table holds a range tombstone");
        }
    }
}

fn ldb_scan(path: &str, cf: &str) -> Vec<String> {
    let text = {
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
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    text.lines().map(str::to_string).collect()
}

fn model_lines(kv: &Kv) -> Vec<String> {
    kv.iter()
        .map(|(k, v)| {
            format!(
                "{} : {}",
                String::from_utf8_lossy(k),
                String::from_utf8_lossy(v)
            )
        })
        .collect()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Runs rocksdb_reader (point-in-time recovery) and returns its lines.
fn rocksdb_read(exe: &Path, path: &str) -> Vec<String> {
    let text = run(Command::new(exe).arg(path).arg("2"));
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    assert!(
        !lines.iter().any(|l| l.starts_with("OPEN-ERROR")),
        "librocksdb could not open {path}:\n{text}"
    );
    assert_eq!(lines.last().map(String::as_str), Some("END"), "{text}");
    lines
}

#[test]
fn rocksdb_reads_our_flushed_and_compacted_directory() {
    if !have("ldb", &["--version"]) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let reader = dir.path().join("rocksdb_reader");
    if !build_c("rocksdb_reader", &reader) {
        return;
    }
    let path = dir.path().join("db").to_string_lossy().into_owned();
    let cfs = ["default", "cf1", "cf2"];
    let mut w = Writer::open(
        &path,
        &cfs,
        &small_cf_options(CompressionType::Snappy, Some(10.0)),
    );
    w.standard_load(9000);
    w.verify();
    let (names, model) = (w.names.clone(), w.model.clone());
    w.db.close().expect("close");
    drop(w);
    // Every table the MANIFEST names exists with the size it records.
    let ok = run(Command::new("ldb")
        .arg(format!("--db={path}"))
        .arg("checkconsistency"));
    assert_eq!(ok.trim(), "OK", "ldb checkconsistency");

    // ldb, per column family.
    for (cf, name) in cfs.iter().enumerate() {
        let got = ldb_scan(&path, name);
        let want = model_lines(&model[cf]);
        assert!(
            got == want,
            "ldb scan {name}: {} lines, want {}; first difference {:?}",
            got.len(),
            want.len(),
            (0..got.len().max(want.len()))
                .find(|&i| got.get(i) != want.get(i))
                .map(|i| (got.get(i), want.get(i)))
        );
    }

    // librocksdb through its C API, all families in one open.
    let got = rocksdb_read(&reader, &path);
    let mut want = Vec::new();
    for (cf, name) in cfs.iter().enumerate() {
        for (k, v) in &model[cf] {
            want.push(format!("{name} {} {}", hex(k), hex(v)));
        }
    }
    want.push("END".into());
    assert!(
        got == want,
        "rocksdb_reader: {} lines, want {}",
        got.len(),
        want.len()
    );

    // RocksDB has now recovered our WAL into its own table and MANIFEST: we read that back.
    let descs = cfs
        .iter()
        .map(|n| (n.to_string(), ColumnFamilyOptions::default()))
        .collect();
    let (db, h) = Db::open_cf(&DbOptions::default(), &path, descs).expect("reopen");
    verify_db(&db, &h, &names, &model);
    db.close().expect("close");
}

/// The content rocksdb_table_writer.c writes (see its header), per column family.
fn table_writer_model(n: usize) -> Vec<Kv> {
    let mut m = vec![Kv::new(); 3];
    let key = |p: char, i: usize| format!("{p}{i:07}").into_bytes();
    for i in 0..n {
        m[0].insert(
            key('a', i),
            format!("va{i}{}", "x".repeat(i % 10)).into_bytes(),
        );
        m[1].insert(key('b', i), format!("vb{i}").into_bytes());
        m[2].insert(key('c', i), format!("vc{i}").into_bytes());
    }
    for i in (0..n).step_by(5) {
        m[0].remove(&key('a', i));
    }
    for i in n / 4..n / 2 {
        m[1].remove(&key('b', i));
    }
    for i in (0..n).step_by(3) {
        m[0].insert(key('a', i), format!("new{i}").into_bytes());
    }
    for i in 3 * n / 4..(3 * n / 4 + 50).min(n) {
        m[0].remove(&key('a', i));
    }
    for i in (1..n).step_by(4) {
        m[2].remove(&key('c', i));
    }
    for i in n / 4..(n / 4 + 10).min(n) {
        m[1].insert(key('b', i), format!("again{i}").into_bytes());
    }
    for i in (0..n).step_by(2) {
        m[2].insert(key('c', i), format!("late{i}").into_bytes());
    }
    for i in (0..n).step_by(11) {
        m[0].remove(&key('a', i));
    }
    m
}

#[test]
fn solistore_reads_tables_written_and_compacted_by_rocksdb() {
    let dir = tempfile::tempdir().expect("tempdir");
    let exe = dir.path().join("rocksdb_table_writer");
    if !build_c("rocksdb_table_writer", &exe) {
        return;
    }
    let n = 10_000;
    let model = table_writer_model(n);
    let names: Vec<String> = ["default", "cf1", "cf2"].map(String::from).to_vec();
    let cases = [
        ("default", 1),
        ("0", 0),
        ("0", 1),
        ("1", 0),
        ("1", 1),
        ("4", 0),
        ("4", 1),
        // ZSTD (RocksDB's code 7): read with the pure-Rust decoder, rewritten as Snappy.
        ("7", 0),
        ("7", 1),
    ];
    for (compression, close) in cases {
        let ctx = format!("compression {compression}, close {close}");
        let db_path = dir.path().join(format!("db-{compression}-{close}"));
        let path = db_path.to_string_lossy().into_owned();
        run(Command::new(&exe)
            .arg(&path)
            .arg(compression)
            .arg(n.to_string())
            .arg(close.to_string()));
        let tables = sst_files(&db_path).len();
        assert!(tables >= 3, "{ctx}: RocksDB left only {tables} tables");
        let has_sst_dump = have("sst_dump", &["--help"]);
        if has_sst_dump && compression == "default" {
            // With default options nothing compacts the level-0 table holding the phase-2
            // range deletion: solistore must apply RocksDB's range tombstone block.
            let range_dels: u64 = table_properties(&sst_dump_check(&db_path))
                .iter()
                .filter_map(|t| t.get("# range deletions")?.parse::<u64>().ok())
                .sum();
            assert!(
                range_dels > 0,
                "{ctx}: no RocksDB table holds a range tombstone"
            );
        }
        if has_sst_dump && compression == "7" {
            let zstd = table_properties(&sst_dump_check(&db_path))
                .iter()
                .filter(|t| t.get("SST file compression algo").map(String::as_str) == Some("ZSTD"))
                .count();
            assert!(zstd > 0, "{ctx}: RocksDB wrote no ZSTD table");
        }
        assert_eq!(Db::list_column_families(&path).expect("list"), names);
        let descs = names
            .iter()
            .map(|n| (n.clone(), ColumnFamilyOptions::default()))
            .collect();
        let (db, h) = Db::open_cf(&DbOptions::default(), &path, descs).expect("open");
        // Point reads, including absent and deleted keys (the Bloom filter path).
        let ro = ReadOptions::default();
        for (cf, p) in ['a', 'b', 'c'].into_iter().enumerate() {
            for i in 0..n + 20 {
                let k = format!("{p}{i:07}").into_bytes();
                let got = db.get(&ro, &h[cf], &k).expect("get");
                assert_eq!(
                    got.as_ref(),
                    model[cf].get(&k),
                    "{ctx}: get {}",
                    String::from_utf8_lossy(&k)
                );
            }
        }
        verify_db(&db, &h, &names, &model);
        // Our compaction reads RocksDB's tables and rewrites them; the data stays.
        for cf in &h {
            db.compact_range(cf, None, None).expect("compact_range");
        }
        verify_db(&db, &h, &names, &model);
        db.close().expect("close");
        if has_sst_dump {
            sst_dump_check(&db_path);
        }
    }
}

/// Sequential writer for the checkpoint test: key i is `k{i:08}` -> `v{i}`, in order.
fn ckpt_key(i: u64) -> Vec<u8> {
    format!("k{i:08}").into_bytes()
}

/// The checkpoint holds exactly keys 0..m for one m (a prefix of the writer's sequence);
/// returns m.
fn ckpt_prefix(db: &Db, h: &ColumnFamilyHandle) -> u64 {
    let mut it = db.iter(&ReadOptions::default(), h).expect("iter");
    it.seek_to_first();
    let mut m = 0;
    while it.valid() {
        assert_eq!(it.key(), ckpt_key(m).as_slice(), "gap in the checkpoint");
        assert_eq!(it.value(), format!("v{m}").as_bytes());
        m += 1;
        it.next();
    }
    it.status().expect("scan");
    m
}

/// Checkpoints (flushed first, and with WALs copied) of an open source DB. With
/// `concurrent`, a thread keeps writing while they are made; otherwise the writer pauses
/// around each checkpoint. Each checkpoint must open as an ordinary DB with its own lock
/// while the source stays open, hold a prefix of the writer's sequence that includes every
/// write acknowledged before the checkpoint started, and `ldb scan` must read it.
fn checkpoint_case(concurrent: bool) {
    if !have("ldb", &["--version"]) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path().join("src").to_string_lossy().into_owned();
    let opts = DbOptions {
        create_if_missing: true,
        ..Default::default()
    };
    let cf_opts = small_cf_options(CompressionType::Snappy, Some(10.0));
    let db = Db::open(&opts, cf_opts.clone(), &src).expect("open");
    let written = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let goal = Arc::new(AtomicU64::new(20_000));
    let writer = {
        let (db, written, stop, goal) = (db.clone(), written.clone(), stop.clone(), goal.clone());
        std::thread::spawn(move || {
            let h = db.default_cf();
            let wo = WriteOptions::default();
            let mut i = 0u64;
            while !stop.load(Ordering::Acquire) {
                if !concurrent && i >= goal.load(Ordering::Acquire) {
                    std::thread::yield_now();
                    continue;
                }
                db.put(&wo, &h, &ckpt_key(i), format!("v{i}").as_bytes())
                    .expect("put");
                i += 1;
                written.store(i, Ordering::Release);
            }
        })
    };
    // 0: flush first (tables only); u64::MAX: copy the WALs too.
    let mut ckpts = Vec::new();
    for (round, log_size_for_flush) in [0u64, u64::MAX].into_iter().enumerate() {
        let target = 20_000 * (round as u64 + 1);
        while written.load(Ordering::Acquire) < target {
            std::thread::yield_now();
        }
        let before = written.load(Ordering::Acquire);
        let ck = dir.path().join(format!("ckpt{round}"));
        let ck_s = ck.to_string_lossy().into_owned();
        let res = db.create_checkpoint(&ck_s, log_size_for_flush);
        let after = written.load(Ordering::Acquire);
        goal.store(target + 20_000, Ordering::Release);
        if let Err(e) = res {
            stop.store(true, Ordering::Release);
            panic!("checkpoint (log_size_for_flush {log_size_for_flush}): {e}");
        }
        ckpts.push((ck_s, before, after));
    }
    stop.store(true, Ordering::Release);
    writer.join().expect("writer");
    for (ck, before, after) in &ckpts {
        // An ordinary DB with its own lock, opened while the source is still open.
        let cdb = Db::open(&DbOptions::default(), cf_opts.clone(), ck).expect("open checkpoint");
        assert!(
            Db::open(&DbOptions::default(), cf_opts.clone(), ck).is_err(),
            "a second open of the checkpoint must fail on its lock"
        );
        let m = ckpt_prefix(&cdb, &cdb.default_cf());
        // The writer counts a put after it returns, so the checkpoint may hold one put
        // that `after` had not counted yet.
        assert!(
            *before <= m && m <= *after + 1,
            "checkpoint {ck} holds {m} keys, written {before}..{after}"
        );
        cdb.put(&WriteOptions::default(), &cdb.default_cf(), b"zz", b"own")
            .expect("the checkpoint is writable");
        cdb.close().expect("close checkpoint");
        let lines = ldb_scan(ck, "default");
        assert_eq!(lines.len() as u64, m + 1, "ldb scan of {ck}");
        assert_eq!(lines[0], "k00000000 : v0");
        assert_eq!(lines[lines.len() - 1], "zz : own");
    }
    // The source did not see the checkpoints' writes and still works.
    let h = db.default_cf();
    assert_eq!(
        db.get(&ReadOptions::default(), &h, b"zz").expect("get"),
        None
    );
    assert_eq!(ckpt_prefix(&db, &h), written.load(Ordering::Acquire));
    db.close().expect("close");
}

#[test]
fn checkpoint_of_an_open_db_opens_with_its_own_lock_and_ldb_scans_it() {
    checkpoint_case(false);
}

#[test]
fn checkpoint_while_the_source_is_being_written() {
    checkpoint_case(true);
}
