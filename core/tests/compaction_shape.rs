// SPDX-License-Identifier: Apache-2.0
//! The shape of the LSM tree that background and manual compaction leave behind, read from
//! our MANIFEST by RocksDB's own `ldb manifest_dump` (an independent decoder):
//! - a random-key load settles with L0 below the trigger, every level within its byte
//!   target, and no two files of one level (L1+) overlapping, and every key reads back;
//! - an append-only load (increasing keys) is compacted by trivial moves only: no table is
//!   ever rewritten (every table a compaction adds is one a flush made, same number and size);
//! - with `level_compaction_dynamic_level_bytes`, data collects in the last level and the
//!   levels above it shrink by the multiplier;
//! - `compact_range(None, None)` physically removes deleted and overwritten values: no live
//!   table holds their bytes (compression None, distinctive values), kept values are there,
//!   and no tombstone survives at the bottom; the replaced tables leave the disk;
//! - `rocksdb.num-files-at-level<N>` agrees with the MANIFEST.
//!
//! After the random loads, `ldb checkconsistency` checks that the MANIFEST's tables exist with
//! their recorded sizes.
//!
//! Background work is awaited by polling the MANIFEST with a timeout; sleeps only pace the
//! polling. Skipped (with a message) when `ldb` is missing, unless
//! `SOLISTORE_REQUIRE_ROCKSDB=1` (set by CI).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use solistore::db::{ColumnFamilyHandle, Db};
use solistore::options::{ColumnFamilyOptions, DbOptions, ReadOptions, WriteOptions};
use solistore::sst::CompressionType;

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

/// One table as `ldb manifest_dump` lists it.
#[derive(Clone, Debug)]
struct FileMeta {
    number: u64,
    size: u64,
    smallest: String,
    largest: String,
}

/// Parses ` 70:68319[0 .. 0]['a0' seq:0, type:1 .. 'a9' seq:0, type:1]`.
fn parse_file_line(line: &str) -> Option<FileMeta> {
    let (number, rest) = line.trim_start().split_once(':')?;
    let (size, rest) = rest.split_once('[')?;
    let mut quoted = rest.split('\'').skip(1).step_by(2);
    Some(FileMeta {
        number: number.parse().ok()?,
        size: size.parse().ok()?,
        smallest: quoted.next()?.to_string(),
        largest: quoted.next()?.to_string(),
    })
}

/// The current version of one column family, level by level (`ldb manifest_dump`). None when
/// ldb fails, e.g. because it caught the MANIFEST mid-rotation; callers poll again.
fn levels_of(path: &Path, cf: &str) -> Option<Vec<Vec<FileMeta>>> {
    let out = Command::new("ldb")
        .arg(format!("--db={}", path.display()))
        .arg("manifest_dump")
        .output()
        .expect("run ldb");
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let header = format!("Column family \"{cf}\"");
    let mut in_cf = false;
    let mut level = 0usize;
    let mut levels: Vec<Vec<FileMeta>> = Vec::new();
    for line in text.lines() {
        if line.starts_with("---------------") {
            in_cf = line.contains(&header);
        } else if let Some(rest) = line.strip_prefix("--- level ") {
            level = rest.split_whitespace().next()?.parse().ok()?;
        } else if in_cf && line.starts_with(' ') {
            let f = parse_file_line(line)?;
            if levels.len() <= level {
                levels.resize(level + 1, Vec::new());
            }
            levels[level].push(f);
        }
    }
    Some(levels)
}

/// One VersionEdit of `ldb manifest_dump --verbose`: added (level, number, size) and deleted
/// (level, number) files.
#[derive(Debug, Default)]
struct Edit {
    added: Vec<(usize, u64, u64)>,
    deleted: Vec<(usize, u64)>,
}

fn version_edits(path: &Path) -> Vec<Edit> {
    let out = Command::new("ldb")
        .arg(format!("--db={}", path.display()))
        .arg("manifest_dump")
        .arg("--verbose")
        .output()
        .expect("run ldb");
    assert!(out.status.success(), "ldb manifest_dump --verbose failed");
    let mut edits = Vec::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let line = line.trim();
        if line.starts_with("VersionEdit {") {
            edits.push(Edit::default());
            continue;
        }
        let nums = |s: &str, n: usize| -> Vec<u64> {
            s.split_whitespace()
                .take(n)
                .map(|x| x.parse().expect("number in edit"))
                .collect()
        };
        let Some(e) = edits.last_mut() else { continue };
        if let Some(rest) = line.strip_prefix("AddFile: ") {
            let v = nums(rest, 3);
            e.added.push((v[0] as usize, v[1], v[2]));
        } else if let Some(rest) = line.strip_prefix("DeleteFile: ") {
            let v = nums(rest, 2);
            e.deleted.push((v[0] as usize, v[1]));
        }
    }
    edits
}

fn describe(levels: &[Vec<FileMeta>]) -> String {
    levels
        .iter()
        .enumerate()
        .map(|(l, fs)| {
            format!(
                "L{l}: {} files, {} bytes",
                fs.len(),
                fs.iter().map(|f| f.size).sum::<u64>()
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Files of every level past L0 are disjoint and sorted by key.
fn assert_no_overlap(levels: &[Vec<FileMeta>]) {
    for (l, files) in levels.iter().enumerate().skip(1) {
        let mut fs = files.clone();
        fs.sort_by(|a, b| a.smallest.cmp(&b.smallest));
        for f in &fs {
            assert!(f.smallest <= f.largest, "L{l} file {f:?} is inverted");
        }
        for w in fs.windows(2) {
            assert!(
                w[0].largest < w[1].smallest,
                "L{l}: files {} and {} overlap: {:?} {:?}",
                w[0].number,
                w[1].number,
                w[0],
                w[1]
            );
        }
    }
}

/// Polls `f` until it returns Some, for at most `timeout`.
fn poll<T>(timeout: Duration, mut f: impl FnMut() -> Option<T>) -> Option<T> {
    let start = Instant::now();
    loop {
        if let Some(v) = f() {
            return Some(v);
        }
        if start.elapsed() > timeout {
            return None;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

const TRIGGER: usize = 4;
const BASE: u64 = 256 << 10;
const MULT: f64 = 10.0;
const NUM_LEVELS: usize = 7;

fn small_options(compression: CompressionType) -> ColumnFamilyOptions {
    ColumnFamilyOptions {
        compression,
        write_buffer_size: 64 << 10,
        target_file_size_base: 64 << 10,
        max_bytes_for_level_base: BASE,
        max_bytes_for_level_multiplier: MULT,
        level0_file_num_compaction_trigger: TRIGGER as i32,
        num_levels: NUM_LEVELS as i32,
        ..Default::default()
    }
}

fn open(path: &Path, cf: ColumnFamilyOptions) -> Db {
    let opts = DbOptions {
        create_if_missing: true,
        ..Default::default()
    };
    Db::open(&opts, cf, &path.to_string_lossy()).expect("open")
}

type Entries = Vec<(Vec<u8>, Vec<u8>)>;

fn scan_all(db: &Db, h: &ColumnFamilyHandle) -> Entries {
    let mut it = db.iter(&ReadOptions::default(), h).expect("iter");
    let mut out = Vec::new();
    it.seek_to_first();
    while it.valid() {
        out.push((it.key().to_vec(), it.value().to_vec()));
        it.next();
    }
    it.status().expect("scan");
    out
}

/// Static level targets: `BASE * MULT^(L-1)`.
fn target(level: usize) -> u64 {
    (BASE as f64 * MULT.powi(level as i32 - 1)) as u64
}

/// True when no level needs compaction: L0 below the trigger, L1..L(n-2) within target.
fn settled(levels: &[Vec<FileMeta>]) -> bool {
    levels.first().map_or(0, Vec::len) < TRIGGER
        && levels
            .iter()
            .enumerate()
            .take(NUM_LEVELS - 1)
            .skip(1)
            .all(|(l, fs)| fs.iter().map(|f| f.size).sum::<u64>() <= target(l))
}

/// Writes `n` random keys (with some overwrites) and returns the model, sorted.
fn random_load(db: &Db, n: u32) -> Entries {
    let h = db.default_cf();
    let wo = WriteOptions::default();
    let mut model = BTreeMap::new();
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for i in 0..n {
        // xorshift: random keys with repeats (overwrites) now and then
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let k = format!("{:012x}", x % (1 << 44)).into_bytes();
        let v = format!("value-{i:08}-{:016x}", x.rotate_left(17)).into_bytes();
        db.put(&wo, &h, &k, &v).expect("put");
        model.insert(k, v);
    }
    model.into_iter().collect()
}

/// Polls the MANIFEST until `done` holds for the current version, checking on every poll
/// that no level past L0 has overlapping files; fails after the timeout.
fn settle(path: &Path, done: impl Fn(&[Vec<FileMeta>]) -> bool) -> Vec<Vec<FileMeta>> {
    let mut last = Vec::new();
    poll(Duration::from_secs(90), || {
        let levels = levels_of(path, "default")?;
        assert_no_overlap(&levels);
        last = levels.clone();
        done(&levels).then_some(levels)
    })
    .unwrap_or_else(|| panic!("never settled: {}", describe(&last)))
}

fn level_bytes(levels: &[Vec<FileMeta>], l: usize) -> u64 {
    levels
        .get(l)
        .map_or(0, |fs| fs.iter().map(|f| f.size).sum())
}

/// Closes the DB and has RocksDB check that every table the MANIFEST names exists with its
/// recorded size.
fn close_and_check_consistency(db: Db, path: &Path) {
    db.close().expect("close");
    let out = Command::new("ldb")
        .arg(format!("--db={}", path.display()))
        .arg("checkconsistency")
        .output()
        .expect("ldb");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "OK",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn random_load_settles_into_level_targets_without_overlap() {
    if !have("ldb", &["--version"]) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("db");
    let db = open(&path, small_options(CompressionType::None));
    let want = random_load(&db, 200_000);
    let levels = settle(&path, settled);
    let deepest = levels.iter().rposition(|fs| !fs.is_empty()).unwrap_or(0);
    assert!(
        deepest >= 3,
        "8 MB over 256 KiB x10 targets should reach L3: {}",
        describe(&levels)
    );
    for (l, fs) in levels.iter().enumerate().skip(1) {
        for f in fs {
            // Outputs are cut near the target file size (one key-value of slack, and a
            // flush or trivially moved file can be a whole memtable).
            assert!(
                f.size <= 2 * (64 << 10),
                "L{l} file {} is {} bytes",
                f.number,
                f.size
            );
        }
    }
    let got = scan_all(&db, &db.default_cf());
    assert_eq!(got.len(), want.len());
    assert!(got == want, "scan after compaction differs from the model");
    close_and_check_consistency(db, &path);
}

/// With `level_compaction_dynamic_level_bytes`, targets are derived backwards from the last
/// level: data collects at the bottom, L0 compacts straight into the first non-empty level,
/// and each level above the last holds at most about 1/10 of the next one (or the base
/// size).
#[test]
fn random_load_with_dynamic_level_bytes_fills_the_last_level() {
    if !have("ldb", &["--version"]) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("db");
    let opts = ColumnFamilyOptions {
        level_compaction_dynamic_level_bytes: true,
        ..small_options(CompressionType::None)
    };
    let db = open(&path, opts);
    let want = random_load(&db, 120_000);
    let last = NUM_LEVELS - 1;
    let within = |levels: &[Vec<FileMeta>]| {
        let bottom = level_bytes(levels, last);
        (1..last).all(|l| {
            let t = (bottom as f64 / MULT.powi((last - l) as i32)).max(BASE as f64);
            level_bytes(levels, l) as f64 <= t * 1.1
        })
    };
    let levels = settle(&path, |lv| {
        lv.first().map_or(0, Vec::len) < TRIGGER && within(lv)
    });
    let bottom = level_bytes(&levels, last);
    let total: u64 = (0..levels.len()).map(|l| level_bytes(&levels, l)).sum();
    assert!(
        bottom * 10 >= total * 7,
        "the last level should hold most data: {}",
        describe(&levels)
    );
    let base = (1..=last)
        .find(|&l| level_bytes(&levels, l) > 0)
        .expect("data below L0");
    assert!(
        base > 1 && base < last,
        "the base level moves down for a small DB: {}",
        describe(&levels)
    );
    let got = scan_all(&db, &db.default_cf());
    assert!(got == want, "scan after compaction differs from the model");
    close_and_check_consistency(db, &path);
}

/// `rocksdb.num-files-at-level<N>` agrees with the MANIFEST once compaction has settled.
#[test]
fn level_file_count_properties_match_the_manifest() {
    if !have("ldb", &["--version"]) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("db");
    let db = open(&path, small_options(CompressionType::None));
    random_load(&db, 40_000);
    let levels = settle(&path, settled);
    let h = db.default_cf();
    for l in 0..NUM_LEVELS {
        let name = format!("rocksdb.num-files-at-level{l}");
        assert_eq!(
            db.property(&h, &name),
            Some(levels.get(l).map_or(0, Vec::len).to_string()),
            "{name}: {}",
            describe(&levels)
        );
    }
    db.close().expect("close");
}

#[test]
fn append_only_load_is_compacted_by_trivial_moves() {
    if !have("ldb", &["--version"]) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("db");
    let db = open(&path, small_options(CompressionType::Snappy));
    let h = db.default_cf();
    let wo = WriteOptions::default();
    let n = 100_000u64;
    for i in 0..n {
        let v = format!("entry-{i:010}-{}", "d".repeat((i % 40) as usize));
        db.put(&wo, &h, format!("log{i:012}").as_bytes(), v.as_bytes())
            .expect("put");
    }
    db.flush(&h, true).expect("flush");
    let mut last = Vec::new();
    let levels = poll(Duration::from_secs(60), || {
        let levels = levels_of(&path, "default")?;
        assert_no_overlap(&levels);
        last = levels.clone();
        settled(&levels).then_some(levels)
    })
    .unwrap_or_else(|| panic!("never settled: {}", describe(&last)));
    assert!(
        levels.iter().skip(2).any(|fs| !fs.is_empty()),
        "the load should reach L2: {}",
        describe(&levels)
    );

    // Every table added by an edit that deletes files (a compaction) must be one a flush
    // made earlier: same number, same size.
    let edits = version_edits(&path);
    let mut flushed: BTreeMap<u64, u64> = BTreeMap::new();
    let (mut moved, mut rewritten) = (0usize, Vec::new());
    for e in &edits {
        if e.deleted.is_empty() {
            for &(level, number, size) in &e.added {
                assert_eq!(level, 0, "a flush adds to L0: {e:?}");
                flushed.insert(number, size);
            }
            continue;
        }
        for &(_, number, size) in &e.added {
            if flushed.get(&number) == Some(&size) {
                moved += 1;
            } else {
                rewritten.push((number, size));
            }
        }
    }
    assert!(
        rewritten.is_empty(),
        "compaction rewrote {} tables ({} bytes): {rewritten:?}",
        rewritten.len(),
        rewritten.iter().map(|r| r.1).sum::<u64>()
    );
    assert!(
        moved > 10,
        "only {moved} moves for {} flushes",
        flushed.len()
    );
    // The live files are the flushed ones.
    let live: BTreeSet<u64> = levels.iter().flatten().map(|f| f.number).collect();
    assert!(live.iter().all(|n| flushed.contains_key(n)));
    assert_eq!(live.len(), flushed.len(), "no table was dropped or merged");
    let got = scan_all(&db, &h);
    assert_eq!(got.len() as u64, n);
    assert_eq!(got[0].0, b"log000000000000");
    db.close().expect("close");
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

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// A DB whose first tables hold values that later die: point deletes, overwrites, a range
/// deletion, and put+delete pairs inside one memtable; then `compact_range(None, None)`.
/// Dead values start with `GONE:`, live ones with `KEEP:` (compression None, so the bytes
/// are in the files as written). Returns the open DB and the model of what it holds.
fn load_then_full_compaction(path: &Path) -> (Db, Entries) {
    let db = open(path, small_options(CompressionType::None));
    let h = db.default_cf();
    let wo = WriteOptions::default();
    let n = 3000usize;
    let key = |i: usize| format!("d{i:05}").into_bytes();
    let gone = |i: usize| format!("GONE:{i:05}:{}", "g".repeat(i % 50)).into_bytes();
    let keep = |i: usize| format!("KEEP:{i:05}:{}", "k".repeat(i % 50)).into_bytes();
    let in_range = |i: usize| (1000..1500).contains(&i);
    let mut model = BTreeMap::new();
    for i in 0..n {
        let v = if i % 3 == 2 && !in_range(i) {
            keep(i)
        } else {
            gone(i)
        };
        db.put(&wo, &h, &key(i), &v).expect("put");
        model.insert(key(i), v);
    }
    db.flush(&h, true).expect("flush");
    for i in 0..n {
        if in_range(i) {
            continue;
        }
        if i % 3 == 0 {
            db.delete(&wo, &h, &key(i)).expect("delete");
            model.remove(&key(i));
        } else if i % 3 == 1 {
            db.put(&wo, &h, &key(i), &keep(i)).expect("put");
            model.insert(key(i), keep(i));
        }
    }
    db.delete_range(&wo, &h, &key(1000), &key(1500))
        .expect("delete_range");
    for i in 1000..1500 {
        model.remove(&key(i));
    }
    // Written and deleted inside one memtable: never worth a table byte.
    for i in 0..200 {
        let k = format!("m{i:05}").into_bytes();
        db.put(&wo, &h, &k, &gone(i)).expect("put");
        db.delete(&wo, &h, &k).expect("delete");
    }
    db.flush(&h, true).expect("flush");
    db.compact_range(&h, None, None).expect("compact_range");
    let model: Vec<_> = model.into_iter().collect();
    assert!(
        scan_all(&db, &h) == model,
        "scan after compact_range differs"
    );
    (db, model)
}

/// `GONE:` occurrences in the given tables, as `file: GONE:nnnnn`.
fn dead_values(tables: &[PathBuf]) -> Vec<String> {
    let mut found = Vec::new();
    for t in tables {
        let bytes = std::fs::read(t).expect("read table");
        for (at, _) in bytes.windows(5).enumerate().filter(|(_, w)| w == b"GONE:") {
            let end = (at + 10).min(bytes.len());
            found.push(format!(
                "{}: {}",
                t.file_name().expect("name").to_string_lossy(),
                String::from_utf8_lossy(&bytes[at..end])
            ));
        }
    }
    found
}

fn table_path(dir: &Path, number: u64) -> PathBuf {
    dir.join(format!("{number:06}.sst"))
}

#[test]
fn full_compact_range_leaves_only_live_values_in_live_tables() {
    if !have("ldb", &["--version"]) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("db");
    let (db, model) = load_then_full_compaction(&path);
    let levels = levels_of(&path, "default").expect("ldb manifest_dump");
    let non_empty: Vec<usize> = (0..levels.len())
        .filter(|&l| !levels[l].is_empty())
        .collect();
    assert_eq!(
        non_empty.len(),
        1,
        "one level after compact_range: {}",
        describe(&levels)
    );
    let live: Vec<PathBuf> = levels
        .iter()
        .flatten()
        .map(|f| table_path(&path, f.number))
        .collect();
    let dead = dead_values(&live);
    assert!(
        dead.is_empty(),
        "{} deleted or overwritten values are still in live tables, e.g. {:?}",
        dead.len(),
        &dead[..dead.len().min(8)]
    );
    let mut all = Vec::new();
    for t in &live {
        all.extend(std::fs::read(t).expect("read table"));
    }
    for (k, v) in &model {
        assert!(
            contains(&all, v),
            "kept value of {} is missing",
            String::from_utf8_lossy(k)
        );
    }
    db.close().expect("close");

    // At the bottom, with no snapshot, no tombstone is worth keeping either.
    if have("sst_dump", &["--help"]) {
        for t in &live {
            let out = Command::new("sst_dump")
                .arg(format!("--file={}", t.display()))
                .arg("--show_properties")
                .output()
                .expect("sst_dump");
            let text = String::from_utf8_lossy(&out.stdout);
            for name in ["# deletions", "# range deletions"] {
                let count = text
                    .lines()
                    .find_map(|l| l.trim_start().strip_prefix(&format!("{name}: ")))
                    .unwrap_or_else(|| panic!("no {name} in {text}"));
                assert_eq!(count.trim(), "0", "{name} in {}", t.display());
            }
        }
    }
}

/// Table files on disk that are in no version.
fn orphan_tables(path: &Path) -> Vec<PathBuf> {
    let levels = levels_of(path, "default").expect("ldb manifest_dump");
    let live: BTreeSet<PathBuf> = levels
        .iter()
        .flatten()
        .map(|f| table_path(path, f.number))
        .collect();
    sst_files(path)
        .into_iter()
        .filter(|p| !live.contains(p))
        .collect()
}

#[test]
fn compacted_tables_are_deleted_from_disk() {
    if !have("ldb", &["--version"]) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("db");
    let (db, _) = load_then_full_compaction(&path);
    // Deleted bytes are physically gone once compact_range has returned (polled briefly in
    // case deletion is handed to a background thread).
    let orphans = poll(Duration::from_secs(5), || {
        orphan_tables(&path).is_empty().then_some(())
    });
    let left = orphan_tables(&path);
    let dead = dead_values(&sst_files(&path));
    db.close().expect("close");
    // Whatever a crash or a lazy delete left behind, open removes tables no version names.
    let reopened = open(&path, small_options(CompressionType::None));
    let after_reopen = orphan_tables(&path);
    reopened.close().expect("close");
    assert!(
        orphans.is_some() && dead.is_empty() && after_reopen.is_empty(),
        "after compact_range, {} tables no version names ({left:?}) hold {} dead values; \
         after reopen, orphans: {after_reopen:?}",
        left.len(),
        dead.len()
    );
}
