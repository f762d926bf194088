// SPDX-License-Identifier: Apache-2.0
//! The compaction machinery beyond the policy, observed through counters and files (not
//! timing, except where the rate itself is the behaviour):
//! - several compactions run at once when slots allow (`max_background_jobs`), and only one
//!   when they do not (`Stats::max_running_compactions`); automatic L0 compactions split
//!   into subcompactions;
//! - a subcompacted manual compaction (`max_subcompactions`) splits into several ranges, its
//!   outputs do not overlap, every key reads back, and RocksDB 7.8.3's `ldb scan` and
//!   `sst_dump --command=check` accept the result;
//! - the MANIFEST rolls over at `max_manifest_file_size` while the DB runs, the old one is
//!   deleted, and `ldb manifest_dump` reads the new one;
//! - a table wholly covered by a newer range tombstone is dropped without being opened, and
//!   is read when a snapshot still needs it;
//! - the rate limiter bounds flush and compaction write bytes per second, also for two DBs
//!   sharing one limiter;
//! - `rocksdb.estimate-pending-compaction-bytes` follows RocksDB's estimate, and a write past
//!   `hard_pending_compaction_bytes_limit` waits until compaction has caught up;
//! - with two flush slots, one family is never flushed by two jobs at once;
//! - close gives up a running compaction (as RocksDB's does) instead of finishing it: its
//!   inputs stay, its outputs are deleted, and every key reads back after reopen.
//!
//! The RocksDB parts are skipped (with a message) when the tools are missing, unless
//! `SOLISTORE_REQUIRE_ROCKSDB=1` (set by CI).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

use solistore::db::Db;
use solistore::options::{ColumnFamilyOptions, DbOptions, ReadOptions, WriteOptions};
use solistore::sst::CompressionType;
use solistore::util::rate_limiter::{RateLimiter, RateLimiterMode};

fn required() -> bool {
    std::env::var("SOLISTORE_REQUIRE_ROCKSDB").is_ok_and(|v| v == "1")
}

/// True when `tool` runs; otherwise skips (or fails under CI).
fn have(tool: &str) -> bool {
    let ok = Command::new(tool).arg("--help").output().is_ok();
    if !ok {
        assert!(!required(), "{tool} is required but missing");
        eprintln!("skipping: {tool} is not installed");
    }
    ok
}

fn ldb(args: &[String]) -> String {
    let out = Command::new("ldb").args(args).output().expect("run ldb");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "ldb {args:?}: {}{text}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// A pseudo-random, poorly compressible value of `len` bytes for key `i`.
fn value(i: u64, len: usize) -> Vec<u8> {
    let mut x = i.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            b'a' + (x % 26) as u8
        })
        .collect()
}

fn key(i: u64) -> Vec<u8> {
    format!("key{i:08}").into_bytes()
}

fn small_cf() -> ColumnFamilyOptions {
    ColumnFamilyOptions {
        compression: CompressionType::None,
        write_buffer_size: 256 << 10,
        target_file_size_base: 64 << 10,
        max_bytes_for_level_base: 512 << 10,
        ..ColumnFamilyOptions::default()
    }
}

fn open_cfs(
    path: &Path,
    opts: &DbOptions,
    cf: &ColumnFamilyOptions,
    names: &[&str],
) -> (Db, Vec<solistore::db::ColumnFamilyHandle>) {
    let opts = DbOptions {
        create_if_missing: true,
        create_missing_column_families: true,
        ..opts.clone()
    };
    Db::open_cf(
        &opts,
        path.to_str().expect("utf-8 path"),
        names.iter().map(|n| (n.to_string(), cf.clone())).collect(),
    )
    .expect("open")
}

/// Writes keys `0..n` into `cf` in `flushes` interleaved passes (every pass spans the whole
/// range, so the level 0 files overlap and compacting them rewrites them), flushing after
/// each.
fn load_overlapping(db: &Db, cf: &solistore::db::ColumnFamilyHandle, n: u64, flushes: u64) {
    let wo = WriteOptions::default();
    for pass in 0..flushes {
        for i in (pass..n).step_by(flushes as usize) {
            db.put(&wo, cf, &key(i), &value(i, 200)).expect("put");
        }
        db.flush(cf, true).expect("flush");
    }
}

/// Writes `n` keys from `from` into `cf` and flushes after every `per_flush`.
fn load(db: &Db, cf: &solistore::db::ColumnFamilyHandle, from: u64, n: u64, per_flush: u64) {
    let wo = WriteOptions::default();
    for i in from..from + n {
        db.put(&wo, cf, &key(i), &value(i, 200)).expect("put");
        if (i - from + 1).is_multiple_of(per_flush) {
            db.flush(cf, true).expect("flush");
        }
    }
    db.flush(cf, true).expect("flush");
}

/// Three families each get a pending L0 compaction while auto compactions are off; the DB
/// is reopened with them on and a slow shared rate limiter, so the compactions take long
/// enough for the scheduler to start all it may at once.
fn concurrent_case(jobs: i32) -> u64 {
    let dir = tempfile::tempdir().expect("tempdir");
    let names = ["default", "a", "b"];
    // One memtable per pass: four overlapping L0 files per family, the trigger.
    let off = ColumnFamilyOptions {
        disable_auto_compactions: true,
        write_buffer_size: 4 << 20,
        ..small_cf()
    };
    {
        let (db, h) = open_cfs(dir.path(), &DbOptions::default(), &off, &names);
        for cf in &h {
            load_overlapping(&db, cf, 4000, 4);
            assert_eq!(db.live_files().iter().filter(|f| f.0 == cf.id()).count(), 4);
        }
        db.close().expect("close");
    }
    let limiter = Arc::new(RateLimiter::new(
        2 << 20,
        50_000,
        10,
        RateLimiterMode::WritesOnly,
        false,
    ));
    let opts = DbOptions {
        max_background_jobs: jobs,
        max_subcompactions: 2,
        rate_limiter: Some(limiter),
        ..DbOptions::default()
    };
    let (db, h) = open_cfs(dir.path(), &opts, &small_cf(), &names);
    db.wait_for_background_work();
    for cf in &h {
        assert_eq!(
            db.property(cf, "rocksdb.num-files-at-level0").as_deref(),
            Some("0"),
            "every family compacted its L0"
        );
        for i in (0..4000).step_by(97) {
            assert_eq!(
                db.get(&ReadOptions::default(), cf, &key(i)).expect("get"),
                Some(value(i, 200))
            );
        }
    }
    let s = db.stats();
    assert!(s.compactions.load(Ordering::Relaxed) >= 3);
    // Every L0 -> L1 merge (about 800 KiB of input, 64 KiB target files) splits in two.
    assert!(
        s.subcompactions.load(Ordering::Relaxed) >= 6,
        "automatic subcompactions"
    );
    s.max_running_compactions.load(Ordering::Relaxed)
}

#[test]
fn several_compactions_run_at_once_when_slots_allow() {
    // 8 jobs: 2 flush slots and 6 compaction slots; the three families compact together.
    let many = concurrent_case(8);
    assert!(many >= 2, "at most {many} compaction ran at once");
    // 2 jobs (the default): one compaction slot.
    assert_eq!(concurrent_case(2), 1);
}

fn sst_dump_check(dir: &Path) {
    let out = Command::new("sst_dump")
        .arg(format!("--file={}", dir.display()))
        .args(["--command=check", "--verify_checksum"])
        .output()
        .expect("sst_dump");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "sst_dump: {text}");
    assert!(!text.contains("Corruption"), "sst_dump: {text}");
}

#[test]
fn subcompactions_split_a_manual_compaction_and_rocksdb_reads_the_result() {
    for subs in [1u32, 4] {
        let dir = tempfile::tempdir().expect("tempdir");
        let opts = DbOptions {
            max_subcompactions: subs,
            ..DbOptions::default()
        };
        let cf = ColumnFamilyOptions {
            disable_auto_compactions: true,
            ..small_cf()
        };
        let (db, h) = open_cfs(dir.path(), &opts, &cf, &["default"]);
        let mut model = BTreeMap::new();
        // Overlapping flushes: each one writes every third key of the whole range, then a
        // later pass overwrites some.
        let wo = WriteOptions::default();
        for pass in 0..6u64 {
            for i in (pass % 3..6000).step_by(3) {
                let v = value(i * 7 + pass, 150);
                db.put(&wo, &h[0], &key(i), &v).expect("put");
                model.insert(key(i), v);
            }
            db.flush(&h[0], true).expect("flush");
        }
        db.compact_range(&h[0], None, None).expect("compact_range");
        let ran = db.stats().subcompactions.load(Ordering::Relaxed);
        if subs == 1 {
            assert_eq!(ran, 0, "no split without max_subcompactions");
        } else {
            assert_eq!(
                ran,
                u64::from(subs),
                "the manual compaction split {subs} ways"
            );
        }
        let mut files: Vec<(Vec<u8>, Vec<u8>, u32)> = db
            .live_files()
            .into_iter()
            .map(|(_, level, f)| (f.smallest.clone(), f.largest.clone(), level))
            .collect();
        assert!(files.iter().all(|f| f.2 == files[0].2), "one level");
        assert!(files.len() > 4, "several outputs");
        files.sort();
        for w in files.windows(2) {
            let a = &w[0].1[..w[0].1.len() - 8];
            let b = &w[1].0[..w[1].0.len() - 8];
            assert!(a < b, "outputs overlap");
        }
        let mut got = BTreeMap::new();
        let mut it = db.iter(&ReadOptions::default(), &h[0]).expect("iter");
        it.seek_to_first();
        while it.valid() {
            got.insert(it.key().to_vec(), it.value().to_vec());
            it.next();
        }
        it.status().expect("scan");
        assert!(got == model, "scan differs from the model");
        db.close().expect("close");
        if have("ldb") && have("sst_dump") {
            sst_dump_check(dir.path());
            let text = ldb(&[format!("--db={}", dir.path().display()), "scan".into()]);
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines.len(), model.len(), "ldb scan lists every key");
            for (line, (k, v)) in lines.iter().zip(&model) {
                let want = format!(
                    "{} : {}",
                    String::from_utf8_lossy(k),
                    String::from_utf8_lossy(v)
                );
                assert_eq!(*line, want);
            }
        }
    }
}

fn manifests(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("read_dir")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("MANIFEST-"))
        .collect();
    v.sort();
    v
}

#[test]
fn the_manifest_rolls_over_while_the_db_runs() {
    let dir = tempfile::tempdir().expect("tempdir");
    let opts = DbOptions {
        max_manifest_file_size: 2048,
        ..DbOptions::default()
    };
    let cf = ColumnFamilyOptions {
        disable_auto_compactions: true,
        ..small_cf()
    };
    let (db, h) = open_cfs(dir.path(), &opts, &cf, &["default"]);
    let first = manifests(dir.path());
    assert_eq!(first.len(), 1);
    // Each flush logs one edit of about 100 bytes: 60 flushes pass 2 KiB a few times.
    let wo = WriteOptions::default();
    for i in 0..60u64 {
        db.put(&wo, &h[0], &key(i), &value(i, 100)).expect("put");
        db.flush(&h[0], true).expect("flush");
    }
    let now = manifests(dir.path());
    assert_eq!(now.len(), 1, "the old MANIFESTs are deleted: {now:?}");
    assert_ne!(now, first, "a new MANIFEST was started");
    let current = std::fs::read_to_string(dir.path().join("CURRENT")).expect("CURRENT");
    assert_eq!(current, format!("{}\n", now[0]));
    let size = std::fs::metadata(dir.path().join(&now[0]))
        .expect("stat")
        .len();
    assert!(size < 2048 + 4096, "the new MANIFEST is small: {size}");
    let live: Vec<u64> = db.live_files().iter().map(|f| f.2.number).collect();
    assert_eq!(live.len(), 60);
    if have("ldb") {
        let text = ldb(&[
            format!("--path={}", dir.path().join(&now[0]).display()),
            "manifest_dump".into(),
        ]);
        for n in &live {
            assert!(
                text.contains(&format!(" {n}:")),
                "ldb manifest_dump lists table {n}:\n{text}"
            );
        }
    }
    db.close().expect("close");
    let (db, h) = open_cfs(dir.path(), &opts, &cf, &["default"]);
    for i in 0..60u64 {
        assert_eq!(
            db.get(&ReadOptions::default(), &h[0], &key(i))
                .expect("get"),
            Some(value(i, 100))
        );
    }
}

/// L1 holds one table of keys 0..2000; a range tombstone over all of them is flushed to L0.
/// With `snapshot`, a snapshot taken before the deletion stays open.
fn covered_case(snapshot: bool) {
    let dir = tempfile::tempdir().expect("tempdir");
    let cf = ColumnFamilyOptions {
        disable_auto_compactions: true,
        write_buffer_size: 64 << 20,
        target_file_size_base: 64 << 20,
        ..small_cf()
    };
    {
        let (db, h) = open_cfs(dir.path(), &DbOptions::default(), &cf, &["default"]);
        load(&db, &h[0], 0, 2000, 5000);
        db.compact_range(&h[0], None, None).expect("compact_range");
        assert_eq!(db.live_files().len(), 1);
        db.close().expect("close");
    }
    let (db, h) = open_cfs(dir.path(), &DbOptions::default(), &cf, &["default"]);
    let snap = snapshot.then(|| db.snapshot());
    db.delete_range(&WriteOptions::default(), &h[0], b"key", b"kez")
        .expect("delete_range");
    db.flush(&h[0], true).expect("flush");
    assert_eq!(db.table_opens(), 0, "nothing read the tables yet");
    db.compact_range(&h[0], None, None).expect("compact_range");
    let opens = db.table_opens();
    let dropped = db
        .stats()
        .files_dropped_by_range_tombstone
        .load(Ordering::Relaxed);
    let ro = ReadOptions::default();
    assert_eq!(db.get(&ro, &h[0], &key(5)).expect("get"), None);
    if snapshot {
        assert_eq!(dropped, 0, "a snapshot needs the covered table");
        assert_eq!(opens, 2, "both inputs were read");
        let ro = ReadOptions {
            snapshot: snap.as_ref().map(|s| s.sequence()),
            ..ReadOptions::default()
        };
        assert_eq!(
            db.get(&ro, &h[0], &key(5)).expect("get"),
            Some(value(5, 200))
        );
    } else {
        assert_eq!(dropped, 1, "the covered table was dropped");
        assert_eq!(opens, 1, "only the tombstone's table was opened");
        assert!(
            db.live_files().is_empty(),
            "nothing is left: {:?}",
            db.live_files()
        );
    }
}

#[test]
fn a_table_under_a_newer_range_tombstone_is_dropped_unread() {
    covered_case(false);
    covered_case(true);
}

/// Flushes about `mb` MiB of poorly compressible data into `db`.
fn write_mb(db: &Db, mb: u64, salt: u64) {
    let h = db.default_cf();
    let wo = WriteOptions {
        disable_wal: true,
        ..WriteOptions::default()
    };
    for i in 0..mb * 1024 {
        db.put(&wo, &h, &key(i + salt), &value(i + salt, 1000))
            .expect("put");
    }
    db.flush(&h, true).expect("flush");
}

#[test]
fn the_rate_limiter_bounds_write_bytes_per_second() {
    const RATE: i64 = 2 << 20;
    let limiter = Arc::new(RateLimiter::new(
        RATE,
        100_000,
        10,
        RateLimiterMode::WritesOnly,
        false,
    ));
    let opts = DbOptions {
        rate_limiter: Some(limiter.clone()),
        ..DbOptions::default()
    };
    let cf = ColumnFamilyOptions {
        compression: CompressionType::None,
        write_buffer_size: 1 << 20,
        disable_auto_compactions: true,
        ..ColumnFamilyOptions::default()
    };
    let dirs = [
        tempfile::tempdir().expect("t"),
        tempfile::tempdir().expect("t"),
    ];
    let dbs: Vec<Db> = dirs
        .iter()
        .map(|d| open_cfs(d.path(), &opts, &cf, &["default"]).0)
        .collect();
    let start = Instant::now();
    std::thread::scope(|s| {
        for (i, db) in dbs.iter().enumerate() {
            s.spawn(move || write_mb(db, 3, i as u64 * 1_000_000));
        }
    });
    let secs = start.elapsed().as_secs_f64();
    let bytes = limiter.total_bytes_through() as f64;
    let tables: u64 = dbs
        .iter()
        .map(|d| d.stats().flush_write_bytes.load(Ordering::Relaxed))
        .sum();
    assert!(
        bytes >= tables as f64,
        "every table byte went through the limiter"
    );
    assert!(
        bytes > 5.0 * 1024.0 * 1024.0,
        "about 6 MiB written: {bytes}"
    );
    // One burst (a refill period's bytes) may go out before the clock starts to matter.
    let burst = limiter.single_burst_bytes() as f64;
    let rate = (bytes - burst) / secs;
    assert!(
        rate <= RATE as f64 * 1.1,
        "{rate:.0} B/s is above the limit of {RATE}"
    );
    // Far below the limit would mean the pacing waits too long (generous: loaded machine).
    assert!(
        rate >= RATE as f64 * 0.2,
        "{rate:.0} B/s is far below the limit"
    );
}

/// `rocksdb.estimate-pending-compaction-bytes` follows RocksDB's estimate, and a write past
/// `hard_pending_compaction_bytes_limit` waits until compactions have caught up (a slow rate
/// limiter makes the compaction take about a second, so without the stall the write would
/// return long before it ends).
#[test]
fn pending_compaction_bytes_stall_writes_until_compaction_catches_up() {
    let dir = tempfile::tempdir().expect("tempdir");
    let off = ColumnFamilyOptions {
        disable_auto_compactions: true,
        write_buffer_size: 4 << 20,
        ..small_cf()
    };
    {
        let (db, h) = open_cfs(dir.path(), &DbOptions::default(), &off, &["default"]);
        load_overlapping(&db, &h[0], 4000, 4);
        assert_eq!(db.live_files().len(), 4);
        let l0: u64 = db.live_files().iter().map(|f| f.2.file_size).sum();
        // L0 reached its trigger: all of L0 plus the (empty) base level is pending.
        let pending = db.property(&h[0], "rocksdb.estimate-pending-compaction-bytes");
        assert_eq!(pending, Some(l0.to_string()));
        db.close().expect("close");
    }
    let limiter = Arc::new(RateLimiter::new(
        1 << 20,
        50_000,
        10,
        RateLimiterMode::WritesOnly,
        false,
    ));
    let opts = DbOptions {
        rate_limiter: Some(limiter),
        ..DbOptions::default()
    };
    let cf = ColumnFamilyOptions {
        hard_pending_compaction_bytes_limit: 1,
        ..small_cf()
    };
    let (db, h) = open_cfs(dir.path(), &opts, &cf, &["default"]);
    db.put(&WriteOptions::default(), &h[0], b"after", b"stall")
        .expect("put");
    assert_eq!(
        db.property(&h[0], "rocksdb.num-files-at-level0").as_deref(),
        Some("0"),
        "the write returned only once L0 was compacted"
    );
    // The write resumed when the estimate fell to 0. That can happen with level 1 still
    // over its target (RocksDB's estimate counts a level's excess only when the next level
    // holds data, and level 2 is empty right after the L0 compaction), so the compactions
    // of level 1 into level 2 go on afterwards and may raise the estimate again for a
    // while: it is 0 once they are done.
    db.wait_for_background_work();
    assert_eq!(
        db.property(&h[0], "rocksdb.estimate-pending-compaction-bytes")
            .as_deref(),
        Some("0"),
        "{:?}",
        db.property(&h[0], "rocksdb.levelstats")
    );
    assert_eq!(
        db.property(&h[0], "rocksdb.is-write-stopped").as_deref(),
        Some("0")
    );
}

/// Two flush slots and one family: a second flush job of the family waits for the first
/// instead of writing the same immutable memtables again (this once panicked).
#[test]
fn two_flush_slots_never_flush_one_family_twice() {
    let dir = tempfile::tempdir().expect("tempdir");
    let opts = DbOptions {
        max_background_flushes: 2,
        max_background_compactions: 1,
        ..DbOptions::default()
    };
    let cf = ColumnFamilyOptions {
        write_buffer_size: 32 << 10,
        max_write_buffer_number: 6,
        ..small_cf()
    };
    let (db, h) = open_cfs(dir.path(), &opts, &cf, &["default"]);
    let wo = WriteOptions::default();
    for i in 0..20_000u64 {
        db.put(&wo, &h[0], &key(i), &value(i, 100)).expect("put");
    }
    db.flush(&h[0], true).expect("flush");
    assert!(
        db.background_error().is_none(),
        "{:?}",
        db.background_error()
    );
    for i in (0..20_000u64).step_by(101) {
        assert_eq!(
            db.get(&ReadOptions::default(), &h[0], &key(i))
                .expect("get"),
            Some(value(i, 100))
        );
    }
}

/// A compaction filter that keeps everything, slowly, counting the keys it saw.
struct SlowKeepFilter(Arc<std::sync::atomic::AtomicU64>);

impl solistore::compaction::filter::CompactionFilter for SlowKeepFilter {
    fn name(&self) -> &str {
        "SlowKeepFilter"
    }
    fn filter(
        &self,
        _level: usize,
        _key: &[u8],
        _value: &[u8],
    ) -> solistore::compaction::filter::Decision {
        self.0.fetch_add(1, Ordering::Relaxed);
        std::thread::sleep(std::time::Duration::from_micros(200));
        solistore::compaction::filter::Decision::Keep
    }
}

#[test]
fn close_gives_up_a_running_compaction() {
    let dir = tempfile::tempdir().expect("tempdir");
    let n = 20_000u64;
    let quiet = ColumnFamilyOptions {
        disable_auto_compactions: true,
        level0_file_num_compaction_trigger: 4,
        ..small_cf()
    };
    {
        let (db, h) = open_cfs(dir.path(), &DbOptions::default(), &quiet, &["default"]);
        load_overlapping(&db, &h[0], n, 4);
        db.close().expect("close");
    }
    let seen = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let slow = ColumnFamilyOptions {
        disable_auto_compactions: false,
        compaction_filter: Some(Arc::new(SlowKeepFilter(seen.clone()))),
        ..quiet.clone()
    };
    let (db, _h) = open_cfs(dir.path(), &DbOptions::default(), &slow, &["default"]);
    let l0_before: Vec<u64> = db.live_files().iter().map(|(_, _, f)| f.number).collect();
    assert!(l0_before.len() >= 4, "overlapping L0 files: {l0_before:?}");
    // The L0 compaction starts on its own (the files reach the trigger): wait until it is
    // well under way, then close.
    while seen.load(Ordering::Relaxed) < 200 {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    db.close().expect("close");
    let at_close = seen.load(Ordering::Relaxed);
    std::thread::sleep(std::time::Duration::from_millis(50));
    assert_eq!(
        seen.load(Ordering::Relaxed),
        at_close,
        "nothing runs after close"
    );
    assert!(
        at_close < n,
        "the compaction was given up, not finished: the filter saw {at_close} of {n} keys"
    );
    drop(db);
    // Reopened (auto compactions off): the inputs are still the files, no output of the
    // given-up compaction is left behind, and every key reads back.
    let (db, h) = open_cfs(dir.path(), &DbOptions::default(), &quiet, &["default"]);
    let mut live: Vec<u64> = db.live_files().iter().map(|(_, _, f)| f.number).collect();
    live.sort_unstable();
    let mut before = l0_before.clone();
    before.sort_unstable();
    assert_eq!(
        live, before,
        "the compaction's inputs are still the live files"
    );
    let mut tables: Vec<u64> = std::fs::read_dir(dir.path())
        .expect("read_dir")
        .filter_map(|e| {
            let name = e.expect("entry").file_name().to_string_lossy().into_owned();
            name.strip_suffix(".sst").and_then(|s| s.parse().ok())
        })
        .collect();
    tables.sort_unstable();
    assert_eq!(
        tables, before,
        "no output of the given-up compaction is left on disk"
    );
    let ro = ReadOptions::default();
    for i in 0..n {
        assert_eq!(
            db.get(&ro, &h[0], &key(i)).expect("get"),
            Some(value(i, 200))
        );
    }
    db.close().expect("close");
}
