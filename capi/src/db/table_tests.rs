// SPDX-License-Identifier: Apache-2.0
//! Tests of the C API over tables, through the exported functions as a C caller uses them:
//! flush, manual compaction (with compaction filters), checkpoints, approximate sizes, the
//! table options that reach the engine at open (filter policy, compression), statistics,
//! caches and write buffer managers.
#![expect(
    clippy::multiple_unsafe_ops_per_block,
    reason = "tests drive the C API the way a C caller does: many calls per block, one contract"
)]

use std::ffi::{c_char, c_int, c_uchar, c_void, CStr, CString};
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::maintenance::*;
use super::tests::{free_options, take, take_value, test_options, TempDir};
use super::*;
use crate::block_based_options::*;
use crate::cache::*;
use crate::checkpoint::*;
use crate::compactionfilter::*;
use crate::compactoptions::*;
use crate::filterpolicy::*;
use crate::flushoptions::*;
use crate::options::accessors::rocksdb_options_set_compression;
use crate::options::*;
use crate::readoptions::*;
use crate::write_buffer_manager::*;
use crate::writeoptions::*;

/// A DB in a temp dir, opened with the options a test prepared.
struct TestDb {
    dir: TempDir,
    path: CString,
    db: *mut rocksdb_t,
    ro: *mut rocksdb_readoptions_t,
    wo: *mut rocksdb_writeoptions_t,
}

impl TestDb {
    /// Opens a new DB with `o` (destroyed here).
    fn open(o: *mut rocksdb_options_t) -> Self {
        let dir = TempDir::new();
        let path = CString::new(dir.path().join("db").to_str().expect("utf-8 path"))
            .expect("no NUL in a temp path");
        let mut err = ptr::null_mut();
        // SAFETY: live options, C string path, valid errptr.
        let db = unsafe { rocksdb_open(o, path.as_ptr(), &mut err) };
        assert_eq!(take(&mut err), None);
        free_options(o);
        // SAFETY: no arguments.
        let (ro, wo) = unsafe { (rocksdb_readoptions_create(), rocksdb_writeoptions_create()) };
        TestDb {
            dir,
            path,
            db,
            ro,
            wo,
        }
    }

    fn dir(&self) -> std::path::PathBuf {
        self.dir.path().join("db")
    }

    fn put(&self, k: &str, v: &str) {
        let mut err = ptr::null_mut();
        // SAFETY: live handles; the slices address their lengths.
        unsafe {
            rocksdb_put(
                self.db,
                self.wo,
                k.as_ptr().cast(),
                k.len(),
                v.as_ptr().cast(),
                v.len(),
                &mut err,
            )
        };
        assert_eq!(take(&mut err), None);
    }

    fn delete(&self, k: &str) {
        let mut err = ptr::null_mut();
        // SAFETY: live handles; the key addresses its length.
        unsafe { rocksdb_delete(self.db, self.wo, k.as_ptr().cast(), k.len(), &mut err) };
        assert_eq!(take(&mut err), None);
    }

    fn get(&self, k: &str) -> Option<String> {
        let (mut err, mut len) = (ptr::null_mut(), 0);
        // SAFETY: live handles; the key addresses its length.
        let v = unsafe {
            rocksdb_get(
                self.db,
                self.ro,
                k.as_ptr().cast(),
                k.len(),
                &mut len,
                &mut err,
            )
        };
        assert_eq!(take(&mut err), None);
        take_value(v, len).map(|v| String::from_utf8(v).expect("test values are text"))
    }

    fn flush(&self) {
        let mut err = ptr::null_mut();
        // SAFETY: live handles; the flush options are created and destroyed here.
        unsafe {
            let fo = rocksdb_flushoptions_create();
            rocksdb_flush(self.db, fo, &mut err);
            rocksdb_flushoptions_destroy(fo);
        }
        assert_eq!(take(&mut err), None);
    }

    fn compact_all(&self) {
        // SAFETY: live handles; (NULL, 0) bounds are unbounded.
        unsafe {
            let cf = rocksdb_get_default_column_family_handle(self.db);
            rocksdb_compact_range_cf(self.db, cf, ptr::null(), 0, ptr::null(), 0);
            rocksdb_column_family_handle_destroy(cf);
        }
    }

    /// A text property parsed as a number (`rocksdb.num-files-at-level<N>` is text-only in
    /// RocksDB: `rocksdb_property_int` refuses it).
    fn property_num(&self, name: &CStr) -> Option<u64> {
        self.property_text(name)?.parse().ok()
    }

    /// A text property as a string.
    fn property_text(&self, name: &CStr) -> Option<String> {
        // SAFETY: live handle, C string; the result is freed below.
        let p = unsafe { rocksdb_property_value(self.db, name.as_ptr()) };
        if p.is_null() {
            return None;
        }
        // SAFETY: non-NULL C string from the library.
        let v = unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned();
        // SAFETY: malloc'd by the library, freed once.
        unsafe { crate::alloc::rocksdb_free(p.cast()) };
        Some(v)
    }

    fn property_int(&self, name: &CStr) -> Option<u64> {
        let mut v = 0;
        // SAFETY: live handle, C string, writable out.
        let rc = unsafe { rocksdb_property_int(self.db, name.as_ptr(), &mut v) };
        (rc == 0).then_some(v)
    }

    /// The bytes of the table files the MANIFEST lists.
    fn live_sst_bytes(&self) -> Vec<Vec<u8>> {
        // SAFETY: a live handle.
        let engine_db = unsafe { &(&*self.db).db };
        engine_db
            .live_files()
            .iter()
            .map(|(_, _, f)| {
                let p = self.dir().join(format!("{:06}.sst", f.number));
                std::fs::read(p).expect("live table exists")
            })
            .collect()
    }

    /// The bytes of every table file in the DB directory.
    fn sst_bytes(&self) -> Vec<Vec<u8>> {
        std::fs::read_dir(self.dir())
            .expect("the DB dir exists")
            .map(|e| e.expect("readable dir entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "sst"))
            .map(|p| std::fs::read(p).expect("readable table"))
            .collect()
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        // SAFETY: the handles are live and not used again.
        unsafe {
            rocksdb_close(self.db);
            rocksdb_readoptions_destroy(self.ro);
            rocksdb_writeoptions_destroy(self.wo);
        }
    }
}

use crate::column_family::{
    rocksdb_column_family_handle_destroy, rocksdb_get_default_column_family_handle,
};

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// Options that write uncompressed tables, so that values appear literally in the files.
fn uncompressed() -> *mut rocksdb_options_t {
    let o = test_options(true);
    // SAFETY: live handle.
    unsafe { rocksdb_options_set_compression(o, 0) };
    o
}

/// `rocksdb.sstables` (plyvel's `leveldb.sstables`) exists, as in RocksDB: one header per level
/// and one line per table file with its key range (regression: it was an unknown property).
#[test]
fn sstables_property_lists_levels_and_files() {
    let db = TestDb::open(test_options(true));
    let empty = db
        .property_text(c"rocksdb.sstables")
        .expect("a known property");
    assert_eq!(empty.lines().count(), 7, "{empty}");
    assert!(
        empty.starts_with("--- level 0 --- version# 1 ---\n"),
        "{empty}"
    );
    db.put("a", "1");
    db.put("b", "2");
    db.flush();
    let text = db
        .property_text(c"rocksdb.sstables")
        .expect("a known property");
    let file_lines: Vec<&str> = text.lines().filter(|l| l.starts_with(' ')).collect();
    assert_eq!(file_lines.len(), 1, "{text}");
    assert!(
        file_lines[0].contains("[1 .. 2]['61' seq:1, type:1 .. '62' seq:2, type:1](0)"),
        "{text}"
    );
    assert_eq!(db.property_int(c"rocksdb.sstables"), None); // text only
}

#[test]
fn flush_adds_a_level0_file() {
    let db = TestDb::open(test_options(true));
    assert_eq!(db.property_num(c"rocksdb.num-files-at-level0"), Some(0));
    assert_eq!(db.property_int(c"rocksdb.total-sst-files-size"), Some(0));
    db.put("a", "1");
    db.flush();
    assert_eq!(db.property_num(c"rocksdb.num-files-at-level0"), Some(1));
    assert!(
        db.property_int(c"rocksdb.total-sst-files-size")
            .unwrap_or(0)
            > 0
    );
    // Flushing an empty memtable adds nothing.
    db.flush();
    assert_eq!(db.property_num(c"rocksdb.num-files-at-level0"), Some(1));
    // A level beyond num_levels is unknown, as in RocksDB.
    assert_eq!(db.property_num(c"rocksdb.num-files-at-level7"), None);

    // flush_cf and flush_cfs, without waiting and then waiting.
    db.put("b", "2");
    let mut err = ptr::null_mut();
    // SAFETY: live handles; the handle array holds one entry.
    unsafe {
        let fo = rocksdb_flushoptions_create();
        rocksdb_flushoptions_set_wait(fo, 0);
        let mut cf = rocksdb_get_default_column_family_handle(db.db);
        rocksdb_flush_cf(db.db, fo, cf, &mut err);
        assert_eq!(take(&mut err), None);
        // The flush goes on in the background. Until its job starts, a second switch
        // would let one job write both memtables into one table (as RocksDB's may), so
        // wait for its table before the next write.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while db.property_num(c"rocksdb.num-files-at-level0") != Some(2) {
            assert!(
                std::time::Instant::now() < deadline,
                "a flush without waiting never finished"
            );
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        db.put("c", "3");
        rocksdb_flushoptions_set_wait(fo, 1);
        rocksdb_flush_cfs(db.db, fo, &mut cf, 1, &mut err);
        assert_eq!(take(&mut err), None);
        rocksdb_flush(db.db, ptr::null(), &mut err);
        assert_eq!(
            take(&mut err).as_deref(),
            Some("Invalid argument: options is NULL")
        );
        rocksdb_flush(ptr::null_mut(), fo, &mut err);
        assert_eq!(
            take(&mut err).as_deref(),
            Some("Invalid argument: db is NULL")
        );
        rocksdb_column_family_handle_destroy(cf);
        rocksdb_flushoptions_destroy(fo);
    }
    assert_eq!(db.property_num(c"rocksdb.num-files-at-level0"), Some(3));
    assert_eq!(db.get("a").as_deref(), Some("1"));
    assert_eq!(db.get("c").as_deref(), Some("3"));
}

#[test]
fn compact_range_purges_deleted_values_from_tables() {
    let db = TestDb::open(uncompressed());
    let gone = "GONE-VALUE-".repeat(8);
    let kept = "KEPT-VALUE-".repeat(8);
    db.put("k1", &gone);
    db.put("k2", &kept);
    db.flush();
    assert!(db.sst_bytes().iter().any(|t| contains(t, gone.as_bytes())));
    db.delete("k1");
    db.flush();
    db.compact_all();
    let live = db.live_sst_bytes();
    assert!(!live.is_empty());
    assert!(live.iter().all(|t| !contains(t, gone.as_bytes())));
    assert!(live.iter().any(|t| contains(t, kept.as_bytes())));
    assert_eq!(db.get("k1"), None);
    assert_eq!(db.get("k2").as_deref(), Some(kept.as_str()));
    // Everything now sits in one level below 0.
    assert_eq!(db.property_num(c"rocksdb.num-files-at-level0"), Some(0));

    // Bounded and option-taking forms, and NULL handles, return quietly.
    db.put("k3", "v3");
    // SAFETY: live handles; keys address their lengths; NULLs are tolerated.
    unsafe {
        let o = rocksdb_compactoptions_create();
        rocksdb_compact_range_opt(db.db, o, c"k0".as_ptr(), 2, c"k9".as_ptr(), 2);
        rocksdb_compact_range(db.db, c"k".as_ptr(), 1, ptr::null(), 0);
        rocksdb_compact_range(ptr::null_mut(), ptr::null(), 0, ptr::null(), 0);
        rocksdb_compact_range_cf_opt(db.db, ptr::null_mut(), o, ptr::null(), 0, ptr::null(), 0);
        rocksdb_compactoptions_destroy(o);
    }
    assert_eq!(db.get("k3").as_deref(), Some("v3"));
    assert_eq!(db.property_num(c"rocksdb.num-files-at-level0"), Some(0));
}

#[test]
fn compact_range_leaves_no_deleted_value_in_any_table_file() {
    let db = TestDb::open(uncompressed());
    let gone = "GONE-VALUE-".repeat(8);
    db.put("k1", &gone);
    db.put("k2", "kept");
    db.flush();
    db.delete("k1");
    db.compact_all();
    let tables = db.sst_bytes();
    assert!(tables.iter().all(|t| !contains(t, gone.as_bytes())));
}

/// Counts callbacks of the test compaction filters.
#[derive(Default)]
struct Calls {
    filtered: AtomicUsize,
    destroyed: AtomicUsize,
    created: AtomicUsize,
}

fn calls<'a>(state: *mut c_void) -> &'a Calls {
    // SAFETY: every test passes a `Calls` that outlives the filter.
    unsafe { &*state.cast::<Calls>() }
}

/// Removes `drop-*`, changes `chg-*` to `changed`, keeps the rest.
unsafe extern "C" fn prefix_filter(
    state: *mut c_void,
    _level: c_int,
    key: *const c_char,
    key_len: usize,
    _value: *const c_char,
    _value_len: usize,
    new_value: *mut *mut c_char,
    new_value_len: *mut usize,
    value_changed: *mut c_uchar,
) -> c_uchar {
    calls(state).filtered.fetch_add(1, Ordering::SeqCst);
    // SAFETY: the engine passes a valid key and out-parameters.
    let key = unsafe { std::slice::from_raw_parts(key.cast::<u8>(), key_len) };
    if key.starts_with(b"drop-") {
        return 1;
    }
    if key.starts_with(b"chg-") {
        // SAFETY: as above; the new value is a static string (never freed by the library).
        unsafe {
            *new_value = c"changed".as_ptr().cast_mut();
            *new_value_len = 7;
            *value_changed = 1;
        }
    }
    0
}

unsafe extern "C" fn count_destroy(state: *mut c_void) {
    calls(state).destroyed.fetch_add(1, Ordering::SeqCst);
}

unsafe extern "C" fn filter_name(_state: *mut c_void) -> *const c_char {
    c"prefix.filter".as_ptr()
}

fn write_filter_input(db: &TestDb) {
    for k in ["drop-1", "drop-2", "chg-1", "keep-1"] {
        db.put(k, "original");
    }
    db.flush();
    db.put("chg-2", "original");
}

fn assert_filtered(db: &TestDb) {
    assert_eq!(db.get("drop-1"), None);
    assert_eq!(db.get("drop-2"), None);
    assert_eq!(db.get("chg-1").as_deref(), Some("changed"));
    assert_eq!(db.get("chg-2").as_deref(), Some("changed"));
    assert_eq!(db.get("keep-1").as_deref(), Some("original"));
}

#[test]
fn compaction_filter_removes_and_changes_values() {
    let st = Calls::default();
    let state = ptr::from_ref(&st).cast_mut().cast::<c_void>();
    let o = test_options(true);
    // SAFETY: valid callbacks; `st` outlives the filter, destroyed after the DB closes.
    let f = unsafe {
        rocksdb_compactionfilter_create(
            state,
            Some(count_destroy),
            Some(prefix_filter),
            Some(filter_name),
        )
    };
    // SAFETY: live handles.
    unsafe { rocksdb_options_set_compaction_filter(o, f) };
    {
        let db = TestDb::open(o);
        write_filter_input(&db);
        assert_eq!(db.get("drop-1").as_deref(), Some("original"));
        db.compact_all();
        assert_filtered(&db);
        assert!(st.filtered.load(Ordering::SeqCst) >= 5);
    }
    assert_eq!(st.destroyed.load(Ordering::SeqCst), 0, "borrowed by the DB");
    // SAFETY: the DB using it is closed.
    unsafe { rocksdb_compactionfilter_destroy(f) };
    assert_eq!(st.destroyed.load(Ordering::SeqCst), 1);
}

#[test]
fn compaction_filter_spares_snapshot_data_unless_it_ignores_snapshots() {
    for ignore in [0u8, 1] {
        let st = Calls::default();
        let state = ptr::from_ref(&st).cast_mut().cast::<c_void>();
        let o = test_options(true);
        // SAFETY: valid callbacks; `st` outlives the filter, destroyed after the DB closes.
        let f = unsafe {
            let f = rocksdb_compactionfilter_create(
                state,
                None,
                Some(prefix_filter),
                Some(filter_name),
            );
            rocksdb_compactionfilter_set_ignore_snapshots(f, ignore);
            rocksdb_options_set_compaction_filter(o, f);
            f
        };
        {
            let db = TestDb::open(o);
            db.put("drop-1", "original");
            // SAFETY: live handle; the snapshot is released before the DB closes.
            let snap = unsafe { crate::snapshot::rocksdb_create_snapshot(db.db) };
            db.compact_all();
            let expected = if ignore == 0 { Some("original") } else { None };
            assert_eq!(
                db.get("drop-1").as_deref(),
                expected,
                "ignore_snapshots={ignore}"
            );
            // SAFETY: live handles.
            unsafe { crate::snapshot::rocksdb_release_snapshot(db.db, snap) };
        }
        // SAFETY: the DB using it is closed.
        unsafe { rocksdb_compactionfilter_destroy(f) };
    }
}

unsafe extern "C" fn make_filter(
    state: *mut c_void,
    context: *mut rocksdb_compactionfiltercontext_t,
) -> *mut rocksdb_compactionfilter_t {
    // SAFETY: `context` is the library's for this call; the callbacks are valid.
    unsafe {
        assert_eq!(
            rocksdb_compactionfiltercontext_is_manual_compaction(context),
            1
        );
        calls(state).created.fetch_add(1, Ordering::SeqCst);
        rocksdb_compactionfilter_create(
            state,
            Some(count_destroy),
            Some(prefix_filter),
            Some(filter_name),
        )
    }
}

#[test]
fn compaction_filter_factory_makes_one_filter_per_compaction() {
    let st = Calls::default();
    let state = ptr::from_ref(&st).cast_mut().cast::<c_void>();
    let o = test_options(true);
    // SAFETY: valid callbacks; `st` outlives the factory (no factory destructor is given).
    unsafe {
        let fac = rocksdb_compactionfilterfactory_create(
            state,
            None,
            Some(make_filter),
            Some(filter_name),
        );
        rocksdb_options_set_compaction_filter_factory(o, fac);
    }
    let db = TestDb::open(o);
    write_filter_input(&db);
    db.compact_all();
    assert_filtered(&db);
    let created = st.created.load(Ordering::SeqCst);
    assert!(created >= 1);
    assert_eq!(
        st.destroyed.load(Ordering::SeqCst),
        created,
        "each compaction destroys its filter"
    );
}

#[test]
fn checkpoint_opens_with_the_data() {
    let db = TestDb::open(test_options(true));
    db.put("flushed", "1");
    db.flush();
    db.put("in-memtable", "2");
    let cp_dir = db.dir.path().join("cp");
    let cp_path = CString::new(cp_dir.to_str().expect("utf-8")).expect("no NUL");
    let mut err = ptr::null_mut();
    // SAFETY: live handles, C strings, valid errptr.
    unsafe {
        let cp = rocksdb_checkpoint_object_create(db.db, &mut err);
        assert_eq!(take(&mut err), None);
        rocksdb_checkpoint_create(cp, cp_path.as_ptr(), 0, &mut err);
        assert_eq!(take(&mut err), None);
        rocksdb_checkpoint_create(cp, cp_path.as_ptr(), 0, &mut err);
        assert_eq!(
            take(&mut err).as_deref(),
            Some("Invalid argument: Directory exists")
        );
        rocksdb_checkpoint_object_destroy(cp);
        assert!(rocksdb_checkpoint_object_create(ptr::null_mut(), &mut err).is_null());
        assert_eq!(
            take(&mut err).as_deref(),
            Some("Invalid argument: db is NULL")
        );
    }
    db.put("after", "3");
    let o = test_options(false);
    // SAFETY: live options, C string path, valid errptr.
    let copy = unsafe { rocksdb_open(o, cp_path.as_ptr(), &mut err) };
    free_options(o);
    assert_eq!(take(&mut err), None);
    let mut get = |k: &str| {
        let mut len = 0;
        // SAFETY: live handles; the key addresses its length.
        let v = unsafe { rocksdb_get(copy, db.ro, k.as_ptr().cast(), k.len(), &mut len, &mut err) };
        take_value(v, len)
    };
    assert_eq!(get("flushed"), Some(b"1".to_vec()));
    assert_eq!(get("in-memtable"), Some(b"2".to_vec()));
    assert_eq!(get("after"), None);
    assert_eq!(take(&mut err), None);
    // SAFETY: live handle, not used again.
    unsafe { rocksdb_close(copy) };
    let _ = &db.path;
}

/// `rocksdb_approximate_sizes` over `ranges`.
fn sizes(db: &TestDb, ranges: &[(&str, &str)]) -> Result<Vec<u64>, String> {
    let starts: Vec<*const c_char> = ranges.iter().map(|r| r.0.as_ptr().cast()).collect();
    let start_lens: Vec<usize> = ranges.iter().map(|r| r.0.len()).collect();
    let limits: Vec<*const c_char> = ranges.iter().map(|r| r.1.as_ptr().cast()).collect();
    let limit_lens: Vec<usize> = ranges.iter().map(|r| r.1.len()).collect();
    let mut out = vec![u64::MAX; ranges.len()];
    let mut err = ptr::null_mut();
    // SAFETY: live handle; every array holds `ranges.len()` entries.
    unsafe {
        rocksdb_approximate_sizes(
            db.db,
            c_int::try_from(ranges.len()).expect("few ranges"),
            starts.as_ptr(),
            start_lens.as_ptr(),
            limits.as_ptr(),
            limit_lens.as_ptr(),
            out.as_mut_ptr(),
            &mut err,
        )
    };
    take(&mut err).map_or(Ok(out), Err)
}

#[test]
fn approximate_sizes_count_table_files() {
    let db = TestDb::open(uncompressed());
    assert_eq!(sizes(&db, &[("a", "z")]), Ok(vec![0]));
    for i in 0..200 {
        db.put(&format!("key{i:03}"), &"v".repeat(100));
    }
    assert_eq!(
        sizes(&db, &[("a", "z")]),
        Ok(vec![0]),
        "memtables do not count"
    );
    db.flush();
    let s = sizes(
        &db,
        &[("a", "z"), ("key000", "key100"), ("x", "y"), ("z", "a")],
    )
    .expect("no error");
    assert!(s[0] > 20_000, "{s:?}");
    assert!(s[1] > 0 && s[1] < s[0], "{s:?}");
    assert_eq!(s[2], 0);
    assert_eq!(s[3], 0);

    let mut out = [0u64; 1];
    let mut err = ptr::null_mut();
    let (start, limit): (*const c_char, *const c_char) = (c"a".as_ptr(), c"z".as_ptr());
    // SAFETY: live handles; one range of one-byte keys.
    unsafe {
        let cf = rocksdb_get_default_column_family_handle(db.db);
        rocksdb_approximate_sizes_cf_with_flags(
            db.db,
            cf,
            1,
            &start,
            &1,
            &limit,
            &1,
            2,
            out.as_mut_ptr(),
            &mut err,
        );
        assert_eq!(take(&mut err), None);
        assert_eq!(out[0], s[0]);
        rocksdb_approximate_sizes_cf_with_flags(
            db.db,
            cf,
            1,
            &start,
            &1,
            &limit,
            &1,
            0,
            out.as_mut_ptr(),
            &mut err,
        );
        assert_eq!(
            take(&mut err).as_deref(),
            Some("Invalid argument: Invalid options")
        );
        rocksdb_approximate_sizes_cf(
            db.db,
            cf,
            1,
            &start,
            &1,
            &limit,
            &1,
            ptr::null_mut(),
            &mut err,
        );
        assert_eq!(
            take(&mut err).as_deref(),
            Some("Invalid argument: sizes is NULL")
        );
        rocksdb_column_family_handle_destroy(cf);
    }
}

#[test]
fn bloom_filter_policy_writes_a_full_filter() {
    let with_filter = |policy: bool| {
        let o = uncompressed();
        // SAFETY: live handles; the policy's ownership moves to the table options, which are
        // copied into `o` and destroyed.
        unsafe {
            let t = rocksdb_block_based_options_create();
            if policy {
                rocksdb_block_based_options_set_filter_policy(
                    t,
                    rocksdb_filterpolicy_create_bloom_full(10.0),
                );
            }
            rocksdb_options_set_block_based_table_factory(o, t);
            rocksdb_block_based_options_destroy(t);
        }
        let db = TestDb::open(o);
        db.put("a", "1");
        db.flush();
        assert_eq!(db.get("a").as_deref(), Some("1"));
        let tables = db.sst_bytes();
        assert_eq!(tables.len(), 1);
        contains(&tables[0], b"fullfilter.rocksdb.BuiltinBloomFilter")
    };
    assert!(with_filter(true));
    assert!(!with_filter(false));
}

/// `set_data_block_index_type` and `set_data_block_hash_ratio` reach the data blocks: a table
/// of one key "a" starts with its 13-byte entry and the 4-byte restart array, then either the
/// footer (`num_restarts` 1) or the hash index (one bucket naming run 0, the others empty, the
/// bucket count) and the footer with bit 31 set. The default is binary search, as in RocksDB.
#[test]
fn data_block_index_type_and_hash_ratio_shape_the_data_blocks() {
    let first_block_tail = |index_type: Option<c_int>| {
        let o = uncompressed();
        // SAFETY: live handles; the table options are copied into `o` and destroyed.
        unsafe {
            let t = rocksdb_block_based_options_create();
            if let Some(v) = index_type {
                rocksdb_block_based_options_set_data_block_index_type(t, v);
                rocksdb_block_based_options_set_data_block_hash_ratio(t, 0.5);
            }
            rocksdb_options_set_block_based_table_factory(o, t);
            rocksdb_block_based_options_destroy(t);
        }
        let db = TestDb::open(o);
        db.put("a", "1");
        db.flush();
        assert_eq!(db.get("a").as_deref(), Some("1"));
        assert_eq!(db.get("b"), None);
        let tables = db.sst_bytes();
        assert_eq!(tables.len(), 1);
        tables[0][13..24].to_vec()
    };
    let binary = first_block_tail(Some(0));
    assert_eq!(&binary[..8], &[0, 0, 0, 0, 1, 0, 0, 0]);
    let hashed = first_block_tail(Some(1));
    assert_eq!(&hashed[..4], &[0, 0, 0, 0], "restart array");
    // Ratio 0.5: 1 key / 0.5 = 2 buckets, made odd: 3.
    let buckets = &hashed[4..7];
    assert_eq!(
        buckets.iter().filter(|&&b| b == 0).count(),
        1,
        "{buckets:?}"
    );
    assert_eq!(
        buckets.iter().filter(|&&b| b == 255).count(),
        2,
        "{buckets:?}"
    );
    assert_eq!(&hashed[7..11], &[3, 0, 1, 0]);
    assert_eq!(first_block_tail(None)[..8], binary[..8]);
}

#[test]
fn unsupported_compression_fails_open_as_in_rocksdb() {
    let o = test_options(true);
    let dir = TempDir::new();
    let path = CString::new(dir.path().to_str().expect("utf-8")).expect("no NUL");
    let mut err = ptr::null_mut();
    // SAFETY: live options, C string path, valid errptr.
    unsafe {
        rocksdb_options_set_compression(o, 7);
        assert!(rocksdb_open(o, path.as_ptr(), &mut err).is_null());
        assert_eq!(
            take(&mut err).as_deref(),
            Some("Invalid argument: Compression type ZSTD is not linked with the binary.")
        );
        let levels = [0, 4, 3];
        rocksdb_options_set_compression_per_level(o, levels.as_ptr(), 3);
        assert!(rocksdb_open(o, path.as_ptr(), &mut err).is_null());
        assert_eq!(
            take(&mut err).as_deref(),
            Some("Invalid argument: Compression type BZip2 is not linked with the binary.")
        );
        let levels = [0, 1, 4];
        rocksdb_options_set_compression_per_level(o, levels.as_ptr(), 3);
        let db = rocksdb_open(o, path.as_ptr(), &mut err);
        assert_eq!(take(&mut err), None);
        rocksdb_close(db);
    }
    free_options(o);
}

/// RocksDB 11.1.2's `NUMBER_KEYS_WRITTEN` ticker.
const NUMBER_KEYS_WRITTEN: u32 = 58;

#[test]
fn statistics_count_the_db_opened_with_them() {
    let o = test_options(true);
    // SAFETY: live handle.
    unsafe { rocksdb_options_enable_statistics(o) };
    // SAFETY: live handle; the copy keeps the statistics after `Db::open` destroys `o`.
    let stats = unsafe { rocksdb_options_create_copy(o) };
    let db = TestDb::open(o);
    db.put("a", "1");
    db.put("b", "2");
    db.put("c", "3");
    // SAFETY: live handle; the string is malloc()ed and freed here.
    unsafe {
        assert_eq!(
            rocksdb_options_statistics_get_ticker_count(stats, NUMBER_KEYS_WRITTEN),
            3
        );
        let text = rocksdb_options_statistics_get_string(stats);
        let s = CStr::from_ptr(text).to_string_lossy().into_owned();
        crate::alloc::rocksdb_free(text.cast());
        assert!(s.contains("rocksdb.number.keys.written COUNT : 3"), "{s}");
    }
    free_options(stats);
}

#[test]
fn caches_and_write_buffer_managers_are_the_engine_objects() {
    // SAFETY: handles created, used and destroyed here.
    unsafe {
        let cache = rocksdb_cache_create_lru(1 << 20);
        assert_eq!(rocksdb_cache_get_capacity(cache), 1 << 20);
        assert_eq!(rocksdb_cache_get_usage(cache), 0);
        let lru = std::sync::Arc::clone(&(&*cache).inner.lru);
        let key = engine::cache::CacheKey::new(lru.new_id(), 1, 0);
        let value: std::sync::Arc<dyn std::any::Any + Send + Sync> = std::sync::Arc::new(1u8);
        let h = lru
            .insert(key, value, 100, engine::cache::Priority::Low)
            .expect("fits");
        // The charge plus the cache's bookkeeping (RocksDB's default metadata charge).
        let charged = 100 + lru.metadata_charge();
        assert_eq!(rocksdb_cache_get_usage(cache), charged);
        assert_eq!(rocksdb_cache_get_pinned_usage(cache), charged);
        assert_eq!(rocksdb_cache_get_occupancy_count(cache), 1);
        drop(h);
        assert_eq!(rocksdb_cache_get_pinned_usage(cache), 0);
        rocksdb_cache_set_capacity(cache, 10);
        assert_eq!(lru.capacity(), 10);
        assert_eq!(rocksdb_cache_get_usage(cache), 0, "evicted to fit");

        rocksdb_cache_set_capacity(cache, 1 << 30);
        let wbm = rocksdb_write_buffer_manager_create_with_cache(1 << 20, cache, false);
        rocksdb_cache_destroy(cache);
        assert!(rocksdb_write_buffer_manager_enabled(wbm));
        assert!(rocksdb_write_buffer_manager_cost_to_cache(wbm));
        (&*wbm).inner.reserve_mem(1000);
        assert_eq!(rocksdb_write_buffer_manager_memory_usage(wbm), 1000);
        assert_eq!(
            rocksdb_write_buffer_manager_mutable_memtable_memory_usage(wbm),
            1000
        );
        assert_eq!(
            rocksdb_write_buffer_manager_dummy_entries_in_cache_usage(wbm),
            256 * 1024
        );
        assert_eq!(
            lru.usage(),
            256 * 1024 + lru.metadata_charge(),
            "charged to the shared cache"
        );
        rocksdb_write_buffer_manager_set_buffer_size(wbm, 0);
        assert!(!rocksdb_write_buffer_manager_enabled(wbm));
        let o = rocksdb_options_create();
        rocksdb_options_set_write_buffer_manager(o, wbm);
        rocksdb_write_buffer_manager_destroy(wbm);
        let shared = (&*o).s.write_buffer_manager.clone().expect("set");
        assert_eq!(shared.memory_usage(), 1000);
        rocksdb_options_destroy(o);
    }
}

#[test]
fn block_cache_reaches_the_column_family() {
    let o = test_options(true);
    // SAFETY: live handles; the cache is shared, so its handle may go at once.
    let lru = unsafe {
        let cache = rocksdb_cache_create_lru(4 << 20);
        let t = rocksdb_block_based_options_create();
        rocksdb_block_based_options_set_block_cache(t, cache);
        rocksdb_block_based_options_set_cache_index_and_filter_blocks(t, 1);
        rocksdb_block_based_options_set_block_size(t, 1024);
        rocksdb_options_set_block_based_table_factory(o, t);
        rocksdb_block_based_options_destroy(t);
        let lru = std::sync::Arc::clone(&(&*cache).inner.lru);
        rocksdb_cache_destroy(cache);
        lru
    };
    let db = TestDb::open(o);
    // SAFETY: live handle.
    let cf = unsafe { rocksdb_get_default_column_family_handle(db.db) };
    {
        // SAFETY: live handle.
        let opts = unsafe { crate::column_family::borrow_cf(cf) }
            .expect("live")
            .options();
        assert!(std::sync::Arc::ptr_eq(
            opts.block_cache.as_ref().expect("set"),
            &lru
        ));
        assert!(opts.cache_index_and_filter_blocks);
        assert_eq!(opts.block_size, 1024);
    }
    // SAFETY: live handle, not used again.
    unsafe { rocksdb_column_family_handle_destroy(cf) };
}

#[test]
fn file_deletion_switches_and_cancel_are_accepted() {
    let db = TestDb::open(test_options(true));
    let mut err = ptr::null_mut();
    // SAFETY: live handle, valid errptr.
    unsafe {
        rocksdb_disable_file_deletions(db.db, &mut err);
        rocksdb_disable_file_deletions(db.db, &mut err);
        assert_eq!((&*db.db).file_deletions_disabled.load(Ordering::SeqCst), 2);
        rocksdb_enable_file_deletions(db.db, &mut err);
        rocksdb_enable_file_deletions(db.db, &mut err);
        rocksdb_enable_file_deletions(db.db, &mut err);
        assert_eq!((&*db.db).file_deletions_disabled.load(Ordering::SeqCst), 0);
        assert_eq!(take(&mut err), None);
        rocksdb_enable_file_deletions(ptr::null_mut(), &mut err);
        assert_eq!(
            take(&mut err).as_deref(),
            Some("Invalid argument: db is NULL")
        );
        rocksdb_cancel_all_background_work(db.db, 1);
    }
    db.put("a", "1");
    assert_eq!(db.get("a").as_deref(), Some("1"));
}
