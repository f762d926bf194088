// SPDX-License-Identifier: Apache-2.0
//! Tests of the DB object family (db, column families, iterators, snapshots, write batches,
//! read and write options) through the exported functions, the way a C caller uses them.
//! Error texts are checked against c-api-conventions.md §6.
#![expect(
    clippy::multiple_unsafe_ops_per_block,
    reason = "tests drive the C API the way a C caller does: many calls per block, one contract"
)]

use std::ffi::{c_char, c_void, CStr, CString};
use std::ptr;

use super::*;
use crate::column_family::*;
use crate::iter::*;
use crate::readoptions::*;
use crate::snapshot::*;
use crate::writebatch::*;
use crate::writeoptions::*;

/// Options as `rocksdb_options_create` + `set_create_if_missing` make them.
pub(crate) fn test_options(create_if_missing: bool) -> *mut rocksdb_options_t {
    // SAFETY: no arguments; the handle is released by `free_options`.
    let o = unsafe { crate::options::rocksdb_options_create() };
    // SAFETY: `o` is the live handle just created.
    unsafe {
        crate::options::accessors::rocksdb_options_set_create_if_missing(
            o,
            u8::from(create_if_missing),
        )
    };
    o
}

pub(crate) fn free_options(o: *mut rocksdb_options_t) {
    // SAFETY: `o` came from `test_options` and is not used again.
    drop(unsafe { ffi::from_handle(o) });
}

/// Takes a C error string (if any) and frees it.
pub(crate) fn take(err: &mut *mut c_char) -> Option<String> {
    if err.is_null() {
        return None;
    }
    // SAFETY: `*err` is a malloc()ed C string made by this library.
    let s = unsafe { CStr::from_ptr(*err) }
        .to_string_lossy()
        .into_owned();
    // SAFETY: as above; reset so it is not freed twice.
    unsafe { alloc::rocksdb_free((*err).cast()) };
    *err = ptr::null_mut();
    Some(s)
}

/// Takes a malloc()ed value of `len` bytes (None for NULL) and frees it.
pub(crate) fn take_value(p: *mut c_char, len: usize) -> Option<Vec<u8>> {
    if p.is_null() {
        return None;
    }
    // SAFETY: `p` holds `len` bytes malloc()ed by this library.
    let v = unsafe { std::slice::from_raw_parts(p.cast::<u8>(), len) }.to_vec();
    // SAFETY: as above.
    unsafe { alloc::rocksdb_free(p.cast()) };
    Some(v)
}

/// A fresh directory under the system temp dir, removed on drop (capi has no `tempfile`
/// dev-dependency; a local stand-in keeps Cargo.toml untouched).
pub(crate) struct TempDir(std::path::PathBuf);

impl TempDir {
    pub(crate) fn new() -> Self {
        use std::sync::atomic::{AtomicU64, Ordering};
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let p = std::env::temp_dir().join(format!("solistore-capi-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).expect("the temp dir is expected to be writable");
        TempDir(p)
    }
    pub(crate) fn path(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

struct Fixture {
    _dir: TempDir,
    path: CString,
    db: *mut rocksdb_t,
    ro: *mut rocksdb_readoptions_t,
    wo: *mut rocksdb_writeoptions_t,
}

impl Fixture {
    fn new() -> Self {
        let dir = TempDir::new();
        let path = CString::new(dir.path().join("db").to_str().expect("utf-8 path"))
            .expect("no NUL in a temp path");
        let o = test_options(true);
        let mut err = ptr::null_mut();
        // SAFETY: live options, C string path, valid errptr.
        let db = unsafe { rocksdb_open(o, path.as_ptr(), &mut err) };
        assert_eq!(take(&mut err), None);
        assert!(!db.is_null());
        free_options(o);
        // SAFETY: no arguments.
        let (ro, wo) = unsafe { (rocksdb_readoptions_create(), rocksdb_writeoptions_create()) };
        Fixture {
            _dir: dir,
            path,
            db,
            ro,
            wo,
        }
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

    fn get(&self, k: &str) -> Option<Vec<u8>> {
        self.get_with(self.ro, k)
    }

    fn get_with(&self, ro: *const rocksdb_readoptions_t, k: &str) -> Option<Vec<u8>> {
        let (mut err, mut len) = (ptr::null_mut(), 99);
        // SAFETY: live handles; the key addresses its length.
        let v = unsafe { rocksdb_get(self.db, ro, k.as_ptr().cast(), k.len(), &mut len, &mut err) };
        assert_eq!(take(&mut err), None);
        if v.is_null() {
            assert_eq!(len, 0);
        }
        take_value(v, len)
    }

    fn reopen(&mut self, o: *const rocksdb_options_t) -> Option<String> {
        // SAFETY: the fixture's DB is live; it is replaced below.
        unsafe { rocksdb_close(self.db) };
        let mut err = ptr::null_mut();
        // SAFETY: live options, C string path, valid errptr.
        self.db = unsafe { rocksdb_open(o, self.path.as_ptr(), &mut err) };
        take(&mut err)
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        // SAFETY: the fixture's handles are live (or NULL) and not used again.
        unsafe {
            rocksdb_close(self.db);
            rocksdb_readoptions_destroy(self.ro);
            rocksdb_writeoptions_destroy(self.wo);
        }
    }
}

#[test]
fn open_put_get_close_round_trip() {
    let mut f = Fixture::new();
    f.put("k", "v");
    f.put("empty", "");
    assert_eq!(f.get("k"), Some(b"v".to_vec()));
    // A found empty value is a non-NULL pointer with length 0.
    let (mut err, mut len) = (ptr::null_mut(), 5);
    // SAFETY: live handles.
    let p = unsafe { rocksdb_get(f.db, f.ro, c"empty".as_ptr(), 5, &mut len, &mut err) };
    assert!(!p.is_null());
    assert_eq!(len, 0);
    assert_eq!(take_value(p, len), Some(vec![]));
    assert_eq!(f.get("missing"), None);
    let mut err = ptr::null_mut();
    // SAFETY: live handles.
    unsafe { rocksdb_delete(f.db, f.wo, c"k".as_ptr(), 1, &mut err) };
    assert_eq!(take(&mut err), None);
    assert_eq!(f.get("k"), None);
    // (NULL, 0) is the empty key.
    // SAFETY: live handles; NULL with length 0 is allowed.
    unsafe { rocksdb_put(f.db, f.wo, ptr::null(), 0, c"e".as_ptr(), 1, &mut err) };
    assert_eq!(take(&mut err), None);
    assert_eq!(f.get(""), Some(b"e".to_vec()));
    // Data survives a close and a reopen (WAL replay), without create_if_missing.
    let o = test_options(false);
    assert_eq!(f.reopen(o), None);
    free_options(o);
    assert_eq!(f.get("empty"), Some(vec![]));
    assert_eq!(f.get(""), Some(b"e".to_vec()));
    // SAFETY: live DB.
    assert_eq!(unsafe { rocksdb_get_latest_sequence_number(f.db) }, 4);
}

#[test]
fn errptr_is_kept_on_success_and_replaced_on_error() {
    let f = Fixture::new();
    let mut err = alloc::malloc_cstring("old error");
    // SAFETY: live handles; `err` holds a malloc()ed message.
    unsafe { rocksdb_put(f.db, f.wo, c"a".as_ptr(), 1, c"b".as_ptr(), 1, &mut err) };
    assert_eq!(take(&mut err).as_deref(), Some("old error"));
    let mut err = alloc::malloc_cstring("old error");
    // SAFETY: a NULL db is reported, the old message freed.
    unsafe {
        rocksdb_put(
            ptr::null_mut(),
            f.wo,
            c"a".as_ptr(),
            1,
            c"b".as_ptr(),
            1,
            &mut err,
        )
    };
    assert_eq!(
        take(&mut err).as_deref(),
        Some("Invalid argument: db is NULL")
    );
    // A NULL errptr is tolerated on failure.
    // SAFETY: as above.
    unsafe {
        rocksdb_put(
            ptr::null_mut(),
            f.wo,
            c"a".as_ptr(),
            1,
            ptr::null(),
            1,
            ptr::null_mut(),
        )
    };
    // A missing key leaves a pre-set error untouched.
    let (mut err, mut len) = (alloc::malloc_cstring("old"), 3);
    // SAFETY: live handles.
    let v = unsafe { rocksdb_get(f.db, f.ro, c"zz".as_ptr(), 2, &mut len, &mut err) };
    assert!(v.is_null());
    assert_eq!(len, 0);
    assert_eq!(take(&mut err).as_deref(), Some("old"));
}

#[test]
fn open_error_texts() {
    let dir = TempDir::new();
    let name = dir.path().join("x").to_str().expect("utf-8").to_string();
    let path = CString::new(name.clone()).expect("no NUL");
    let mut err = ptr::null_mut();
    let no_create = test_options(false);
    // SAFETY: live options, C string, valid errptr.
    let db = unsafe { rocksdb_open(no_create, path.as_ptr(), &mut err) };
    assert!(db.is_null());
    assert_eq!(
        take(&mut err),
        Some(format!(
            "Invalid argument: {name}/CURRENT: does not exist (create_if_missing is false)"
        ))
    );
    // Read-only open and listing a missing DB are IO errors.
    // SAFETY: as above.
    let db = unsafe { rocksdb_open_for_read_only(no_create, path.as_ptr(), 0, &mut err) };
    assert!(db.is_null());
    let e = take(&mut err).expect("read-only open of a missing DB fails");
    assert!(
        e.starts_with("IO error: No such file or directory: "),
        "{e}"
    );
    let mut n = 7;
    // SAFETY: as above.
    let list = unsafe { rocksdb_list_column_families(no_create, path.as_ptr(), &mut n, &mut err) };
    assert!(!list.is_null());
    assert_eq!(n, 0);
    assert_eq!(
        take(&mut err),
        Some(format!("IO error: No such file or directory: While opening a file for sequentially reading: {name}/CURRENT: No such file or directory"))
    );
    // SAFETY: the array came from rocksdb_list_column_families with count 0.
    unsafe { rocksdb_list_column_families_destroy(list, n) };

    let create = test_options(true);
    // SAFETY: as above.
    let db = unsafe { rocksdb_open(create, path.as_ptr(), &mut err) };
    assert_eq!(take(&mut err), None);
    // In-process second open: the lock is held.
    // SAFETY: as above.
    let second = unsafe { rocksdb_open(create, path.as_ptr(), &mut err) };
    assert!(second.is_null());
    let e = take(&mut err).expect("second open fails");
    assert!(
        e.starts_with("IO error: lock hold by current process"),
        "{e}"
    );
    assert!(
        e.ends_with(&format!("{name}/LOCK: No locks available")),
        "{e}"
    );
    // SAFETY: live handle, closed once.
    unsafe { rocksdb_close(db) };
    // error_if_exists.
    let exists = test_options(true);
    // SAFETY: `exists` is a live handle made here.
    unsafe { (*exists).db.error_if_exists = true };
    // SAFETY: as above.
    let db = unsafe { rocksdb_open(exists, path.as_ptr(), &mut err) };
    assert!(db.is_null());
    assert_eq!(
        take(&mut err),
        Some(format!(
            "Invalid argument: {name}: exists (error_if_exists is true)"
        ))
    );
    // The lock was released by the close: opening again works; read-only writes fail.
    // SAFETY: as above.
    let ro_db = unsafe { rocksdb_open_for_read_only(no_create, path.as_ptr(), 0, &mut err) };
    assert_eq!(take(&mut err), None);
    // SAFETY: live handles.
    unsafe {
        let wo = rocksdb_writeoptions_create();
        rocksdb_put(ro_db, wo, c"k".as_ptr(), 1, c"v".as_ptr(), 1, &mut err);
        rocksdb_writeoptions_destroy(wo);
        rocksdb_close(ro_db);
    }
    assert_eq!(
        take(&mut err).as_deref(),
        Some("Not implemented: Not supported operation in read only mode.")
    );
    // destroy_db on a missing path succeeds; on the DB it removes it.
    let missing = CString::new(format!("{name}-none")).expect("no NUL");
    // SAFETY: C strings, valid errptr; NULL options are tolerated.
    unsafe {
        rocksdb_destroy_db(ptr::null(), missing.as_ptr(), &mut err);
        assert_eq!(take(&mut err), None);
        rocksdb_destroy_db(create, path.as_ptr(), &mut err);
        assert_eq!(take(&mut err), None);
        assert!(rocksdb_open(no_create, path.as_ptr(), &mut err).is_null());
    }
    assert!(take(&mut err).is_some());
    for o in [no_create, create, exists] {
        free_options(o);
    }
}

/// Opens `path` with the listed families; returns the DB (or NULL) and the handles.
fn open_cfs(
    o: *const rocksdb_options_t,
    path: &CStr,
    names: &[&CStr],
    err: &mut *mut c_char,
) -> (*mut rocksdb_t, Vec<*mut rocksdb_column_family_handle_t>) {
    let name_ptrs: Vec<*const c_char> = names.iter().map(|n| n.as_ptr()).collect();
    let opts: Vec<*const rocksdb_options_t> = names.iter().map(|_| o).collect();
    let mut handles = vec![ptr::null_mut(); names.len()];
    // SAFETY: the arrays hold `names.len()` entries; live options; valid errptr.
    let db = unsafe {
        rocksdb_open_column_families(
            o,
            path.as_ptr(),
            names.len() as c_int,
            name_ptrs.as_ptr(),
            opts.as_ptr(),
            handles.as_mut_ptr(),
            err,
        )
    };
    (db, handles)
}

#[test]
fn column_families() {
    let mut f = Fixture::new();
    let mut err = ptr::null_mut();
    let o = test_options(true);
    // SAFETY: live handles throughout; every handle is destroyed once.
    unsafe {
        let cf1 = rocksdb_create_column_family(f.db, o, c"cf1".as_ptr(), &mut err);
        assert_eq!(take(&mut err), None);
        assert!(!cf1.is_null());
        let dup = rocksdb_create_column_family(f.db, o, c"cf1".as_ptr(), &mut err);
        assert!(dup.is_null());
        assert_eq!(
            take(&mut err).as_deref(),
            Some("Invalid argument: Column family already exists")
        );
        assert_eq!(rocksdb_column_family_handle_get_id(cf1), 1);
        let mut n = 0;
        let name = rocksdb_column_family_handle_get_name(cf1, &mut n);
        assert_eq!(take_value(name, n), Some(b"cf1".to_vec()));
        // Several at once; the array and count.
        let names = [c"cf2".as_ptr(), c"cf3".as_ptr()];
        let mut len = 0;
        let arr = rocksdb_create_column_families(f.db, o, 2, names.as_ptr(), &mut len, &mut err);
        assert_eq!(take(&mut err), None);
        assert_eq!(len, 2);
        let made = std::slice::from_raw_parts(arr, len).to_vec();
        rocksdb_create_column_families_destroy(arr);
        assert_eq!(rocksdb_column_family_handle_get_id(made[1]), 3);
        // Writes and reads per family.
        rocksdb_put_cf(
            f.db,
            f.wo,
            cf1,
            c"k".as_ptr(),
            1,
            c"one".as_ptr(),
            3,
            &mut err,
        );
        assert_eq!(take(&mut err), None);
        let mut vl = 0;
        let v = rocksdb_get_cf(f.db, f.ro, cf1, c"k".as_ptr(), 1, &mut vl, &mut err);
        assert_eq!(take_value(v, vl), Some(b"one".to_vec()));
        assert_eq!(f.get("k"), None);
        // The default handle and dropping.
        let def = rocksdb_get_default_column_family_handle(f.db);
        assert_eq!(rocksdb_column_family_handle_get_id(def), 0);
        rocksdb_drop_column_family(f.db, def, &mut err);
        assert_eq!(
            take(&mut err).as_deref(),
            Some("Invalid argument: Can't drop default column family")
        );
        rocksdb_drop_column_family(f.db, made[0], &mut err);
        assert_eq!(take(&mut err), None);
        // Writes to a dropped family fail; the handle still reads what it had.
        rocksdb_put_cf(
            f.db,
            f.wo,
            made[0],
            c"k".as_ptr(),
            1,
            c"v".as_ptr(),
            1,
            &mut err,
        );
        assert!(take(&mut err).is_some());
        let mut lc = 0;
        let list = rocksdb_list_column_families(o, f.path.as_ptr(), &mut lc, &mut err);
        assert_eq!(take(&mut err), None);
        let got: Vec<String> = std::slice::from_raw_parts(list, lc)
            .iter()
            .map(|&p| CStr::from_ptr(p).to_string_lossy().into_owned())
            .collect();
        assert_eq!(got, ["default", "cf1", "cf3"]);
        rocksdb_list_column_families_destroy(list, lc);
        for h in [cf1, def, made[0], made[1]] {
            rocksdb_column_family_handle_destroy(h);
        }
        // Reopening must list every family.
        rocksdb_close(f.db);
        let (db, _) = open_cfs(o, &f.path, &[c"default", c"cf1"], &mut err);
        assert!(db.is_null());
        assert_eq!(
            take(&mut err).as_deref(),
            Some("Invalid argument: Column families not opened: cf3")
        );
        let (db, _) = open_cfs(o, &f.path, &[c"default", c"cf1", c"cf3", c"nocf"], &mut err);
        assert!(db.is_null());
        assert_eq!(
            take(&mut err).as_deref(),
            Some("Invalid argument: Column family not found: nocf")
        );
        let (db, hs) = open_cfs(o, &f.path, &[c"default", c"cf1", c"cf3"], &mut err);
        assert_eq!(take(&mut err), None);
        assert_eq!(rocksdb_column_family_handle_get_id(hs[2]), 3);
        let v = rocksdb_get_cf(db, f.ro, hs[1], c"k".as_ptr(), 1, &mut vl, &mut err);
        assert_eq!(take_value(v, vl), Some(b"one".to_vec()));
        // create_missing_column_families creates the new one.
        rocksdb_close(db);
        (*o).db.create_missing_column_families = true;
        let (db, hs2) = open_cfs(o, &f.path, &[c"default", c"cf1", c"cf3", c"new"], &mut err);
        assert_eq!(take(&mut err), None);
        assert_eq!(rocksdb_column_family_handle_get_id(hs2[3]), 4);
        // Handles outlive the close.
        rocksdb_close(db);
        for h in hs.into_iter().chain(hs2) {
            rocksdb_column_family_handle_destroy(h);
        }
        // Already closed above: the fixture must not close it again.
        f.db = ptr::null_mut();
    }
    free_options(o);
}

#[test]
fn merge_needs_an_operator() {
    let f = Fixture::new();
    let mut err = ptr::null_mut();
    // SAFETY: live handles.
    unsafe { rocksdb_merge(f.db, f.wo, c"k".as_ptr(), 1, c"v".as_ptr(), 1, &mut err) };
    assert_eq!(
        take(&mut err).as_deref(),
        Some("Not implemented: Provide a merge_operator when opening DB")
    );
    // With the uint64 add operator, merges combine.
    let o = test_options(true);
    // SAFETY: `o` is a live handle made here.
    unsafe { (*o).cf.merge_operator = Some(std::sync::Arc::new(engine::merge::UInt64AddOperator)) };
    let dir = TempDir::new();
    let path = CString::new(dir.path().to_str().expect("utf-8")).expect("no NUL");
    // SAFETY: live handles.
    unsafe {
        let db = rocksdb_open(o, path.as_ptr(), &mut err);
        assert_eq!(take(&mut err), None);
        for n in [5u64, 7] {
            let b = n.to_le_bytes();
            rocksdb_merge(db, f.wo, c"k".as_ptr(), 1, b.as_ptr().cast(), 8, &mut err);
            assert_eq!(take(&mut err), None);
        }
        let mut vl = 0;
        let v = rocksdb_get(db, f.ro, c"k".as_ptr(), 1, &mut vl, &mut err);
        assert_eq!(take_value(v, vl), Some(12u64.to_le_bytes().to_vec()));
        rocksdb_close(db);
    }
    free_options(o);
}

/// Collects an iterator's entries, moving forward or backward.
fn collect(it: *mut rocksdb_iterator_t, forward: bool) -> Vec<(String, String)> {
    let mut out = Vec::new();
    // SAFETY: `it` is live; key/value pointers are read before the next move.
    unsafe {
        while rocksdb_iter_valid(it) != 0 {
            let (mut kl, mut vl) = (0, 0);
            let k = rocksdb_iter_key(it, &mut kl);
            let v = rocksdb_iter_value(it, &mut vl);
            let k = std::slice::from_raw_parts(k.cast::<u8>(), kl);
            let v = std::slice::from_raw_parts(v.cast::<u8>(), vl);
            out.push((
                String::from_utf8_lossy(k).into_owned(),
                String::from_utf8_lossy(v).into_owned(),
            ));
            if forward {
                rocksdb_iter_next(it);
            } else {
                rocksdb_iter_prev(it);
            }
        }
    }
    out
}

fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[test]
fn iterators_both_ways_with_bounds() {
    let f = Fixture::new();
    for (k, v) in [("a", "1"), ("b", "2"), ("c", "3"), ("d", "4")] {
        f.put(k, v);
    }
    // SAFETY: live handles; each iterator destroyed once.
    unsafe {
        let it = rocksdb_create_iterator(f.db, f.ro);
        assert_eq!(rocksdb_iter_valid(it), 0);
        rocksdb_iter_seek_to_first(it);
        assert_eq!(
            collect(it, true),
            pairs(&[("a", "1"), ("b", "2"), ("c", "3"), ("d", "4")])
        );
        rocksdb_iter_seek_to_last(it);
        assert_eq!(collect(it, false).len(), 4);
        rocksdb_iter_seek(it, c"bb".as_ptr(), 2);
        let ks = rocksdb_iter_key_slice(it);
        assert_eq!(
            std::slice::from_raw_parts(ks.data.cast::<u8>(), ks.size),
            b"c"
        );
        rocksdb_iter_seek_for_prev(it, c"bb".as_ptr(), 2);
        let vs = rocksdb_iter_value_slice(it);
        assert_eq!(
            std::slice::from_raw_parts(vs.data.cast::<u8>(), vs.size),
            b"2"
        );
        let mut tl = 9;
        assert!(!rocksdb_iter_timestamp(it, &mut tl).is_null());
        assert_eq!(tl, 0);
        // Later writes are invisible to an existing iterator; refresh shows them.
        f.put("e", "5");
        rocksdb_iter_seek(it, c"e".as_ptr(), 1);
        assert_eq!(rocksdb_iter_valid(it), 0);
        let mut err = ptr::null_mut();
        rocksdb_iter_refresh(it, &mut err);
        assert_eq!(take(&mut err), None);
        rocksdb_iter_seek(it, c"e".as_ptr(), 1);
        assert_eq!(rocksdb_iter_valid(it), 1);
        rocksdb_iter_get_error(it, &mut err);
        assert_eq!(take(&mut err), None);
        // Past the end: key is NULL with length 0.
        rocksdb_iter_next(it);
        let mut kl = 3;
        assert!(rocksdb_iter_key(it, &mut kl).is_null());
        assert_eq!(kl, 0);
        rocksdb_iter_destroy(it);

        // Bounds [b, d): the option's bytes are copied.
        let ro = rocksdb_readoptions_create();
        let (lo, hi) = (b"b".to_vec(), b"d".to_vec());
        rocksdb_readoptions_set_iterate_lower_bound(ro, lo.as_ptr().cast(), 1);
        rocksdb_readoptions_set_iterate_upper_bound(ro, hi.as_ptr().cast(), 1);
        drop((lo, hi));
        let it = rocksdb_create_iterator(f.db, ro);
        rocksdb_iter_seek_to_first(it);
        assert_eq!(collect(it, true), pairs(&[("b", "2"), ("c", "3")]));
        rocksdb_iter_seek_to_last(it);
        assert_eq!(collect(it, false), pairs(&[("c", "3"), ("b", "2")]));
        rocksdb_iter_destroy(it);
        rocksdb_readoptions_destroy(ro);

        // create_iterators: one per family, consistent.
        let def = rocksdb_get_default_column_family_handle(f.db);
        let mut cfs = [def, def];
        let mut its = [ptr::null_mut(); 2];
        rocksdb_create_iterators(f.db, f.ro, cfs.as_mut_ptr(), its.as_mut_ptr(), 2, &mut err);
        assert_eq!(take(&mut err), None);
        f.put("f", "6");
        for it in its {
            rocksdb_iter_seek_to_first(it);
            assert_eq!(collect(it, true).len(), 5);
            rocksdb_iter_destroy(it);
        }
        rocksdb_column_family_handle_destroy(def);
    }
}

#[test]
fn snapshots() {
    let f = Fixture::new();
    f.put("k", "old");
    // SAFETY: live handles; the snapshot and options are released once.
    unsafe {
        let snap = rocksdb_create_snapshot(f.db);
        assert_eq!(rocksdb_snapshot_get_sequence_number(snap), 1);
        f.put("k", "new");
        f.put("k2", "x");
        let ro = rocksdb_readoptions_create();
        rocksdb_readoptions_set_snapshot(ro, snap);
        assert_eq!(f.get_with(ro, "k"), Some(b"old".to_vec()));
        assert_eq!(f.get_with(ro, "k2"), None);
        let it = rocksdb_create_iterator(f.db, ro);
        rocksdb_iter_seek_to_first(it);
        assert_eq!(collect(it, true), pairs(&[("k", "old")]));
        // An iterator on a snapshot cannot be refreshed (RocksDB's text).
        let mut err = ptr::null_mut();
        rocksdb_iter_refresh(it, &mut err);
        assert_eq!(
            take(&mut err).as_deref(),
            Some("Not implemented: Creating renew iterator is not allowed.")
        );
        rocksdb_iter_destroy(it);
        let mut pv = 0;
        let p = rocksdb_property_value(f.db, c"rocksdb.num-snapshots".as_ptr());
        assert_eq!(CStr::from_ptr(p).to_str(), Ok("1"));
        alloc::rocksdb_free(p.cast());
        rocksdb_readoptions_set_snapshot(ro, ptr::null());
        assert_eq!(f.get_with(ro, "k"), Some(b"new".to_vec()));
        rocksdb_release_snapshot(f.db, snap);
        assert_eq!(
            rocksdb_property_int(f.db, c"rocksdb.num-snapshots".as_ptr(), &mut pv),
            0
        );
        assert_eq!(pv, 0);
        rocksdb_readoptions_destroy(ro);
    }
}

#[test]
fn multi_gets() {
    let f = Fixture::new();
    f.put("a", "1");
    f.put("b", "");
    let keys = [c"a".as_ptr(), c"b".as_ptr(), c"c".as_ptr()];
    let sizes = [1usize, 1, 1];
    let mut values = [ptr::dangling_mut::<c_char>(); 3];
    let mut vsizes = [9usize; 3];
    let mut errs = [ptr::dangling_mut::<c_char>(); 3];
    // SAFETY: every array has 3 entries; live handles.
    unsafe {
        rocksdb_multi_get(
            f.db,
            f.ro,
            3,
            keys.as_ptr(),
            sizes.as_ptr(),
            values.as_mut_ptr(),
            vsizes.as_mut_ptr(),
            errs.as_mut_ptr(),
        )
    };
    assert!(errs.iter().all(|e| e.is_null()));
    assert_eq!(take_value(values[0], vsizes[0]), Some(b"1".to_vec()));
    assert!(!values[1].is_null());
    assert_eq!(take_value(values[1], vsizes[1]), Some(vec![]));
    assert!(values[2].is_null());
    assert_eq!(vsizes[2], 0);

    // SAFETY: live handles; arrays of 3; the handle destroyed once.
    unsafe {
        let def = rocksdb_get_default_column_family_handle(f.db);
        let cfs = [def.cast_const(); 3];
        rocksdb_multi_get_cf(
            f.db,
            f.ro,
            cfs.as_ptr(),
            3,
            keys.as_ptr(),
            sizes.as_ptr(),
            values.as_mut_ptr(),
            vsizes.as_mut_ptr(),
            errs.as_mut_ptr(),
        );
        assert!(errs.iter().all(|e| e.is_null()));
        assert_eq!(take_value(values[0], vsizes[0]), Some(b"1".to_vec()));
        assert_eq!(take_value(values[1], vsizes[1]), Some(vec![]));
        assert!(values[2].is_null());

        // Batched, with pinnable slices.
        let mut pins = [ptr::null_mut::<rocksdb_pinnableslice_t>(); 3];
        rocksdb_batched_multi_get_cf(
            f.db,
            f.ro,
            def,
            3,
            keys.as_ptr(),
            sizes.as_ptr(),
            pins.as_mut_ptr(),
            errs.as_mut_ptr(),
            false,
        );
        let mut l = 0;
        let p = rocksdb_pinnableslice_value(pins[0], &mut l);
        assert_eq!(std::slice::from_raw_parts(p.cast::<u8>(), l), b"1");
        assert!(!rocksdb_pinnableslice_value(pins[1], &mut l).is_null());
        assert_eq!(l, 0);
        assert!(pins[2].is_null());
        assert!(rocksdb_pinnableslice_value(pins[2], &mut l).is_null());
        for p in pins {
            rocksdb_pinnableslice_destroy(p);
        }
        let slices = [rocksdb_slice_t {
            data: c"a".as_ptr(),
            size: 1,
        }];
        rocksdb_batched_multi_get_cf_slice(
            f.db,
            f.ro,
            def,
            1,
            slices.as_ptr(),
            pins.as_mut_ptr(),
            errs.as_mut_ptr(),
            true,
        );
        assert!(!pins[0].is_null() && errs[0].is_null());
        rocksdb_pinnableslice_destroy(pins[0]);

        // A NULL db fails every key with the message.
        rocksdb_multi_get_cf(
            ptr::null_mut(),
            f.ro,
            cfs.as_ptr(),
            3,
            keys.as_ptr(),
            sizes.as_ptr(),
            values.as_mut_ptr(),
            vsizes.as_mut_ptr(),
            errs.as_mut_ptr(),
        );
        for e in errs.iter_mut() {
            assert_eq!(take(e).as_deref(), Some("Invalid argument: db is NULL"));
        }
        assert!(values.iter().all(|v| v.is_null()));
        rocksdb_column_family_handle_destroy(def);
    }
}

#[test]
fn pinned_buffer_may_exist_properties_identity() {
    let f = Fixture::new();
    f.put("k", "value");
    let mut err = ptr::null_mut();
    // SAFETY: live handles; each returned object released once.
    unsafe {
        let p = rocksdb_get_pinned(f.db, f.ro, c"k".as_ptr(), 1, &mut err);
        let mut l = 0;
        let v = rocksdb_pinnableslice_value(p, &mut l);
        assert_eq!(std::slice::from_raw_parts(v.cast::<u8>(), l), b"value");
        rocksdb_pinnableslice_destroy(p);
        assert!(rocksdb_get_pinned(f.db, f.ro, c"x".as_ptr(), 1, &mut err).is_null());
        assert_eq!(take(&mut err), None);
        let h = rocksdb_get_pinned_v2(f.db, f.ro, c"k".as_ptr(), 1, &mut err);
        let v = rocksdb_pinnable_handle_get_value(h, &mut l);
        assert_eq!(std::slice::from_raw_parts(v.cast::<u8>(), l), b"value");
        rocksdb_pinnable_handle_destroy(h);

        // get_into_buffer: fits, too small, absent.
        let mut buf = [0u8; 8];
        let (mut vl, mut found) = (0, 0);
        let r = rocksdb_get_into_buffer(
            f.db,
            f.ro,
            c"k".as_ptr(),
            1,
            buf.as_mut_ptr().cast(),
            8,
            &mut vl,
            &mut found,
            &mut err,
        );
        assert_eq!((r, vl, found, &buf[..5]), (1, 5, 1, &b"value"[..]));
        let r = rocksdb_get_into_buffer(
            f.db,
            f.ro,
            c"k".as_ptr(),
            1,
            buf.as_mut_ptr().cast(),
            2,
            &mut vl,
            &mut found,
            &mut err,
        );
        assert_eq!((r, vl, found), (0, 5, 1));
        let r = rocksdb_get_into_buffer(
            f.db,
            f.ro,
            c"x".as_ptr(),
            1,
            buf.as_mut_ptr().cast(),
            8,
            &mut vl,
            &mut found,
            &mut err,
        );
        assert_eq!((r, vl, found), (0, 0, 0));
        assert_eq!(take(&mut err), None);

        // key_may_exist: all-NULL outputs, then with value.
        let no_ts = ptr::null();
        assert_eq!(
            rocksdb_key_may_exist(
                f.db,
                f.ro,
                c"k".as_ptr(),
                1,
                ptr::null_mut(),
                ptr::null_mut(),
                no_ts,
                0,
                ptr::null_mut()
            ),
            1
        );
        let (mut val, mut vlen, mut vf) = (ptr::null_mut(), 0, 0);
        let r = rocksdb_key_may_exist(
            f.db,
            f.ro,
            c"k".as_ptr(),
            1,
            &mut val,
            &mut vlen,
            no_ts,
            0,
            &mut vf,
        );
        assert_eq!((r, vf), (1, 1));
        assert_eq!(take_value(val, vlen), Some(b"value".to_vec()));
        let r = rocksdb_key_may_exist(
            f.db,
            f.ro,
            c"x".as_ptr(),
            1,
            &mut val,
            &mut vlen,
            no_ts,
            0,
            &mut vf,
        );
        assert_eq!((r, vf), (0, 0));

        // Properties.
        let p = rocksdb_property_value(f.db, c"rocksdb.estimate-num-keys".as_ptr());
        assert_eq!(CStr::from_ptr(p).to_str(), Ok("1"));
        alloc::rocksdb_free(p.cast());
        assert!(rocksdb_property_value(f.db, c"rocksdb.nope".as_ptr()).is_null());
        let mut n = 42;
        assert_eq!(
            rocksdb_property_int(f.db, c"rocksdb.nope".as_ptr(), &mut n),
            -1
        );
        assert_eq!(n, 42);
        let def = rocksdb_get_default_column_family_handle(f.db);
        assert_eq!(
            rocksdb_property_int_cf(
                f.db,
                def,
                c"rocksdb.num-entries-active-mem-table".as_ptr(),
                &mut n
            ),
            0
        );
        assert_eq!(n, 1);
        let p = rocksdb_property_value_cf(f.db, def, c"rocksdb.latest-sequence-number".as_ptr());
        assert_eq!(CStr::from_ptr(p).to_str(), Ok("1"));
        alloc::rocksdb_free(p.cast());
        rocksdb_column_family_handle_destroy(def);

        // Identity: not NUL-terminated, stable.
        let mut il = 0;
        let id = rocksdb_get_db_identity(f.db, &mut il);
        let id = take_value(id, il).expect("the DB has an identity");
        assert!(!id.is_empty());
        rocksdb_flush_wal(f.db, 1, &mut err);
        assert_eq!(take(&mut err), None);
    }
}

#[test]
fn writes_through_batches_and_write_options() {
    let f = Fixture::new();
    let mut err = ptr::null_mut();
    // SAFETY: live handles; the batch is destroyed once.
    unsafe {
        let b = rocksdb_writebatch_create();
        rocksdb_writebatch_put(b, c"a".as_ptr(), 1, c"1".as_ptr(), 1);
        rocksdb_writebatch_put(b, c"b".as_ptr(), 1, c"2".as_ptr(), 1);
        rocksdb_writebatch_delete(b, c"a".as_ptr(), 1);
        let kp = [c"k".as_ptr(), c"v".as_ptr()];
        let ks = [1usize, 1];
        let vp = [c"x".as_ptr(), c"yz".as_ptr()];
        let vs = [1usize, 2];
        rocksdb_writebatch_putv(b, 2, kp.as_ptr(), ks.as_ptr(), 2, vp.as_ptr(), vs.as_ptr());
        rocksdb_writebatch_put_log_data(b, c"blob".as_ptr(), 4);
        assert_eq!(rocksdb_writebatch_count(b), 4);
        rocksdb_writeoptions_set_sync(f.wo, 1);
        rocksdb_write(f.db, f.wo, b, &mut err);
        assert_eq!(take(&mut err), None);
        assert_eq!(f.get("a"), None);
        assert_eq!(f.get("b"), Some(b"2".to_vec()));
        assert_eq!(f.get("kv"), Some(b"xyz".to_vec()));
        // Range deletion through the batch and the DB.
        rocksdb_writebatch_clear(b);
        assert_eq!(rocksdb_writebatch_count(b), 0);
        rocksdb_writebatch_delete_range(b, c"b".as_ptr(), 1, c"c".as_ptr(), 1);
        rocksdb_write(f.db, f.wo, b, &mut err);
        assert_eq!(take(&mut err), None);
        assert_eq!(f.get("b"), None);
        let def = rocksdb_get_default_column_family_handle(f.db);
        rocksdb_delete_range_cf(
            f.db,
            f.wo,
            def,
            c"k".as_ptr(),
            1,
            c"l".as_ptr(),
            1,
            &mut err,
        );
        assert_eq!(take(&mut err), None);
        assert_eq!(f.get("kv"), None);
        // A reversed range is refused in RocksDB's words and writes nothing, and the DB stays
        // writable (regression: it was accepted; RocksDB 7.8.3 refuses it and then fails every
        // later write). An empty range is a no-op.
        f.put("m", "1");
        rocksdb_delete_range_cf(
            f.db,
            f.wo,
            def,
            c"n".as_ptr(),
            1,
            c"m".as_ptr(),
            1,
            &mut err,
        );
        assert_eq!(
            take(&mut err).as_deref(),
            Some("Invalid argument: end key comes before start key")
        );
        rocksdb_delete_range_cf(
            f.db,
            f.wo,
            def,
            c"m".as_ptr(),
            1,
            c"m".as_ptr(),
            1,
            &mut err,
        );
        assert_eq!(take(&mut err), None);
        assert_eq!(f.get("m"), Some(b"1".to_vec()));
        f.put("m2", "2");
        assert_eq!(f.get("m2"), Some(b"2".to_vec()));
        rocksdb_column_family_handle_destroy(def);
        // WAL-less writes still apply.
        rocksdb_writeoptions_disable_WAL(f.wo, 1);
        f.put("nowal", "1");
        assert_eq!(f.get("nowal"), Some(b"1".to_vec()));
        // A batch for a missing family fails unless ignored.
        rocksdb_writebatch_clear(b);
        let co = f.cf_opts();
        let gone = rocksdb_create_column_family(f.db, co, c"gone".as_ptr(), &mut err);
        free_options(co);
        rocksdb_drop_column_family(f.db, gone, &mut err);
        assert_eq!(take(&mut err), None);
        rocksdb_writebatch_put_cf(b, gone, c"k".as_ptr(), 1, c"v".as_ptr(), 1);
        rocksdb_writeoptions_disable_WAL(f.wo, 0);
        rocksdb_write(f.db, f.wo, b, &mut err);
        assert_eq!(
            take(&mut err).as_deref(),
            Some("Invalid argument: Invalid column family specified in write batch")
        );
        rocksdb_writeoptions_set_ignore_missing_column_families(f.wo, 1);
        rocksdb_write(f.db, f.wo, b, &mut err);
        assert_eq!(take(&mut err), None);
        rocksdb_column_family_handle_destroy(gone);
        rocksdb_writebatch_destroy(b);
    }
}

impl Fixture {
    /// Default column family options, owned by the fixture's test (freed with
    /// `free_options`).
    fn cf_opts(&self) -> *mut rocksdb_options_t {
        test_options(false)
    }
}

#[derive(Default)]
struct Seen {
    events: Vec<String>,
}

fn seen<'a>(state: *mut c_void) -> &'a mut Seen {
    // SAFETY: the tests pass a `&mut Seen` as state.
    unsafe { &mut *state.cast::<Seen>() }
}

fn text(p: *const c_char, n: usize) -> String {
    // SAFETY: the batch replay passes valid slices.
    String::from_utf8_lossy(unsafe { std::slice::from_raw_parts(p.cast::<u8>(), n) }).into_owned()
}

unsafe extern "C" fn on_put(
    s: *mut c_void,
    k: *const c_char,
    kl: usize,
    v: *const c_char,
    vl: usize,
) {
    seen(s)
        .events
        .push(format!("put {}={}", text(k, kl), text(v, vl)));
}
unsafe extern "C" fn on_del(s: *mut c_void, k: *const c_char, kl: usize) {
    seen(s).events.push(format!("del {}", text(k, kl)));
}
unsafe extern "C" fn on_log(s: *mut c_void, k: *const c_char, kl: usize) {
    seen(s).events.push(format!("log {}", text(k, kl)));
}
unsafe extern "C" fn on_put_cf(
    s: *mut c_void,
    cf: u32,
    k: *const c_char,
    kl: usize,
    v: *const c_char,
    vl: usize,
) {
    seen(s)
        .events
        .push(format!("put{cf} {}={}", text(k, kl), text(v, vl)));
}
unsafe extern "C" fn on_del_cf(s: *mut c_void, cf: u32, k: *const c_char, kl: usize) {
    seen(s).events.push(format!("del{cf} {}", text(k, kl)));
}
unsafe extern "C" fn on_merge_cf(
    s: *mut c_void,
    cf: u32,
    k: *const c_char,
    kl: usize,
    v: *const c_char,
    vl: usize,
) {
    seen(s)
        .events
        .push(format!("merge{cf} {}={}", text(k, kl), text(v, vl)));
}

#[test]
fn writebatch_rep_save_points_and_iterate() {
    let f = Fixture::new();
    let mut err = ptr::null_mut();
    // SAFETY: live handles; batches destroyed once; callbacks match their signatures and
    // receive a live `Seen`.
    unsafe {
        let co = f.cf_opts();
        let cf = rocksdb_create_column_family(f.db, co, c"cf".as_ptr(), &mut err);
        free_options(co);
        let b = rocksdb_writebatch_create();
        rocksdb_writebatch_put(b, c"a".as_ptr(), 1, c"1".as_ptr(), 1);
        rocksdb_writebatch_merge(b, c"m".as_ptr(), 1, c"x".as_ptr(), 1);
        rocksdb_writebatch_singledelete(b, c"s".as_ptr(), 1);
        rocksdb_writebatch_put_log_data(b, c"L".as_ptr(), 1);
        rocksdb_writebatch_delete(b, c"d".as_ptr(), 1);
        rocksdb_writebatch_put_cf(b, cf, c"c".as_ptr(), 1, c"2".as_ptr(), 1);
        rocksdb_writebatch_delete(b, c"after".as_ptr(), 5);

        // Default-family replay: merge/single delete skipped, stops at the other family.
        let mut s = Seen::default();
        let st = (&mut s as *mut Seen).cast();
        rocksdb_writebatch_iterate(b, st, Some(on_put), Some(on_del));
        assert_eq!(s.events, ["put a=1", "del d"]);
        s.events.clear();
        rocksdb_writebatch_iterate_ld(b, st, Some(on_put), Some(on_del), Some(on_log));
        assert_eq!(s.events, ["put a=1", "log L", "del d"]);
        s.events.clear();
        rocksdb_writebatch_iterate_cf(b, st, Some(on_put_cf), Some(on_del_cf), Some(on_merge_cf));
        assert_eq!(
            s.events,
            ["put0 a=1", "merge0 m=x", "del0 d", "put1 c=2", "del0 after"]
        );
        s.events.clear();
        rocksdb_writebatch_iterate_cf_ld(
            b,
            st,
            Some(on_put_cf),
            Some(on_del_cf),
            Some(on_merge_cf),
            Some(on_log),
        );
        assert_eq!(s.events.len(), 6);
        assert_eq!(s.events[2], "log L");

        // The rep round-trips through data/create_from byte for byte.
        let mut n = 0;
        let data = rocksdb_writebatch_data(b, &mut n);
        let rep = std::slice::from_raw_parts(data.cast::<u8>(), n).to_vec();
        assert_eq!(&rep[8..12], &6u32.to_le_bytes());
        let c = rocksdb_writebatch_create_from(rep.as_ptr().cast(), rep.len());
        assert_eq!(rocksdb_writebatch_count(c), 6);
        let mut n2 = 0;
        let d2 = rocksdb_writebatch_data(c, &mut n2);
        assert_eq!(std::slice::from_raw_parts(d2.cast::<u8>(), n2), &rep[..]);
        // Range deletions stop the plain replay too.
        rocksdb_writebatch_clear(c);
        rocksdb_writebatch_put(c, c"p".as_ptr(), 1, c"1".as_ptr(), 1);
        rocksdb_writebatch_delete_range(c, c"a".as_ptr(), 1, c"b".as_ptr(), 1);
        rocksdb_writebatch_put(c, c"q".as_ptr(), 1, c"2".as_ptr(), 1);
        s.events.clear();
        rocksdb_writebatch_iterate(c, st, Some(on_put), Some(on_del));
        assert_eq!(s.events, ["put p=1"]);
        rocksdb_writebatch_destroy(c);

        // Save points.
        rocksdb_writebatch_clear(b);
        rocksdb_writebatch_rollback_to_save_point(b, &mut err);
        assert_eq!(take(&mut err).as_deref(), Some("NotFound: "));
        rocksdb_writebatch_pop_save_point(b, &mut err);
        assert_eq!(take(&mut err).as_deref(), Some("NotFound: "));
        rocksdb_writebatch_put(b, c"x".as_ptr(), 1, c"1".as_ptr(), 1);
        rocksdb_writebatch_set_save_point(b);
        rocksdb_writebatch_put(b, c"y".as_ptr(), 1, c"2".as_ptr(), 1);
        rocksdb_writebatch_set_save_point(b);
        rocksdb_writebatch_put(b, c"z".as_ptr(), 1, c"3".as_ptr(), 1);
        rocksdb_writebatch_pop_save_point(b, &mut err);
        assert_eq!(take(&mut err), None);
        rocksdb_writebatch_rollback_to_save_point(b, &mut err);
        assert_eq!(take(&mut err), None);
        assert_eq!(rocksdb_writebatch_count(b), 1);
        rocksdb_write(f.db, f.wo, b, &mut err);
        assert_eq!(take(&mut err), None);
        assert_eq!(f.get("x"), Some(b"1".to_vec()));
        assert_eq!(f.get("y"), None);
        rocksdb_writebatch_destroy(b);

        // max_bytes refuses a record that would not fit, keeping the batch as it was.
        let m = rocksdb_writebatch_create_with_params(0, 20, 0, 0);
        rocksdb_writebatch_put(m, c"k".as_ptr(), 1, c"v".as_ptr(), 1);
        assert_eq!(rocksdb_writebatch_count(m), 1);
        rocksdb_writebatch_put(m, c"k2".as_ptr(), 2, c"v2".as_ptr(), 2);
        assert_eq!(rocksdb_writebatch_count(m), 1);
        rocksdb_writebatch_destroy(m);
        rocksdb_column_family_handle_destroy(cf);
    }
}

#[test]
fn null_handles_everywhere() {
    let f = Fixture::new();
    let mut err = ptr::null_mut();
    let mut len = 5;
    let null_db = ptr::null_mut::<rocksdb_t>();
    // SAFETY: every NULL is checked by the callee.
    unsafe {
        assert!(rocksdb_open(ptr::null(), f.path.as_ptr(), &mut err).is_null());
        assert_eq!(
            take(&mut err).as_deref(),
            Some("Invalid argument: options is NULL")
        );
        let o = test_options(true);
        assert!(rocksdb_open(o, ptr::null(), &mut err).is_null());
        assert_eq!(
            take(&mut err).as_deref(),
            Some("Invalid argument: name is NULL")
        );
        free_options(o);
        assert!(rocksdb_get(null_db, f.ro, c"k".as_ptr(), 1, &mut len, &mut err).is_null());
        assert_eq!(len, 0);
        assert_eq!(
            take(&mut err).as_deref(),
            Some("Invalid argument: db is NULL")
        );
        assert!(rocksdb_get(f.db, ptr::null(), c"k".as_ptr(), 1, &mut len, &mut err).is_null());
        assert_eq!(
            take(&mut err).as_deref(),
            Some("Invalid argument: options is NULL")
        );
        rocksdb_put_cf(
            f.db,
            f.wo,
            ptr::null_mut(),
            c"k".as_ptr(),
            1,
            c"v".as_ptr(),
            1,
            &mut err,
        );
        assert_eq!(
            take(&mut err).as_deref(),
            Some("Invalid argument: column_family is NULL")
        );
        rocksdb_put(f.db, f.wo, ptr::null(), 3, c"v".as_ptr(), 1, &mut err);
        assert!(take(&mut err).is_some_and(|e| e.starts_with("Invalid argument: ")));
        rocksdb_write(f.db, f.wo, ptr::null_mut(), &mut err);
        assert_eq!(
            take(&mut err).as_deref(),
            Some("Invalid argument: batch is NULL")
        );
        rocksdb_write(null_db, f.wo, ptr::null_mut(), ptr::null_mut());
        assert!(rocksdb_create_iterator(null_db, f.ro).is_null());
        assert!(rocksdb_create_iterator_cf(f.db, f.ro, ptr::null_mut()).is_null());
        assert!(rocksdb_create_snapshot(null_db).is_null());
        assert!(rocksdb_create_column_family(f.db, ptr::null(), c"x".as_ptr(), &mut err).is_null());
        assert_eq!(
            take(&mut err).as_deref(),
            Some("Invalid argument: column_family_options is NULL")
        );
        assert!(rocksdb_property_value(null_db, c"rocksdb.stats".as_ptr()).is_null());
        assert!(rocksdb_property_value(f.db, ptr::null()).is_null());
        let mut n = 3;
        assert_eq!(rocksdb_property_int(null_db, ptr::null(), &mut n), -1);
        assert_eq!(rocksdb_get_latest_sequence_number(null_db), 0);
        assert!(rocksdb_get_db_identity(null_db, &mut len).is_null());
        assert_eq!(
            rocksdb_key_may_exist(
                null_db,
                f.ro,
                ptr::null(),
                0,
                ptr::null_mut(),
                ptr::null_mut(),
                ptr::null(),
                0,
                ptr::null_mut()
            ),
            0
        );
        rocksdb_iter_seek_to_first(ptr::null_mut());
        rocksdb_iter_next(ptr::null_mut());
        assert_eq!(rocksdb_iter_valid(ptr::null()), 0);
        assert!(rocksdb_iter_key(ptr::null(), &mut len).is_null());
        rocksdb_iter_get_error(ptr::null(), &mut err);
        assert_eq!(
            take(&mut err).as_deref(),
            Some("Invalid argument: iter is NULL")
        );
        rocksdb_writebatch_put(ptr::null_mut(), c"k".as_ptr(), 1, c"v".as_ptr(), 1);
        rocksdb_writebatch_put_cf(
            ptr::null_mut(),
            ptr::null_mut(),
            c"k".as_ptr(),
            1,
            c"v".as_ptr(),
            1,
        );
        assert_eq!(rocksdb_writebatch_count(ptr::null_mut()), 0);
        assert!(rocksdb_writebatch_data(ptr::null_mut(), &mut len).is_null());
        rocksdb_writebatch_iterate(ptr::null_mut(), ptr::null_mut(), None, None);
        assert_eq!(rocksdb_column_family_handle_get_id(ptr::null_mut()), 0);
        assert!(rocksdb_column_family_handle_get_name(ptr::null_mut(), &mut len).is_null());
        assert_eq!(rocksdb_snapshot_get_sequence_number(ptr::null()), 0);
        let b = rocksdb_writebatch_create();
        rocksdb_writebatch_put_cf(b, ptr::null_mut(), c"k".as_ptr(), 1, c"v".as_ptr(), 1);
        assert_eq!(rocksdb_writebatch_count(b), 0);
        // A batch with NULL callbacks replays without calling anything.
        rocksdb_writebatch_put(b, c"k".as_ptr(), 1, c"v".as_ptr(), 1);
        rocksdb_writebatch_iterate(b, ptr::null_mut(), None, None);
        rocksdb_writebatch_destroy(b);
        // Destroys accept NULL.
        rocksdb_close(null_db);
        rocksdb_iter_destroy(ptr::null_mut());
        rocksdb_release_snapshot(null_db, ptr::null());
        rocksdb_column_family_handle_destroy(ptr::null_mut());
        rocksdb_pinnableslice_destroy(ptr::null_mut());
        rocksdb_pinnable_handle_destroy(ptr::null_mut());
        rocksdb_writebatch_destroy(ptr::null_mut());
        rocksdb_create_column_families_destroy(ptr::null_mut());
        rocksdb_list_column_families_destroy(ptr::null_mut(), 0);
    }
}

#[test]
fn handles_outlive_close() {
    let mut f = Fixture::new();
    f.put("a", "1");
    f.put("b", "2");
    let mut err = ptr::null_mut();
    // SAFETY: handles are live until destroyed below; the DB is closed first on purpose.
    unsafe {
        let it = rocksdb_create_iterator(f.db, f.ro);
        let snap = rocksdb_create_snapshot(f.db);
        let cf = rocksdb_get_default_column_family_handle(f.db);
        let o = test_options(true);
        let cf2 = rocksdb_create_column_family(f.db, o, c"two".as_ptr(), &mut err);
        assert_eq!(take(&mut err), None);
        rocksdb_close(f.db);
        f.db = ptr::null_mut();
        // The iterator still reads what it saw.
        rocksdb_iter_seek_to_first(it);
        assert_eq!(collect(it, true), pairs(&[("a", "1"), ("b", "2")]));
        rocksdb_iter_get_error(it, &mut err);
        assert_eq!(take(&mut err), None);
        assert_eq!(rocksdb_snapshot_get_sequence_number(snap), 2);
        assert_eq!(rocksdb_column_family_handle_get_id(cf2), 1);
        let mut n = 0;
        let name = rocksdb_column_family_handle_get_name(cf, &mut n);
        assert_eq!(take_value(name, n), Some(b"default".to_vec()));
        // The DB can be opened again at once (the lock was released), and the old handles
        // can be destroyed after it in any order.
        (*o).db.create_missing_column_families = true;
        let (db, hs) = open_cfs(o, &f.path, &[c"default", c"two"], &mut err);
        assert_eq!(take(&mut err), None);
        rocksdb_column_family_handle_destroy(cf);
        rocksdb_release_snapshot(ptr::null_mut(), snap);
        rocksdb_iter_destroy(it);
        rocksdb_column_family_handle_destroy(cf2);
        rocksdb_close(db);
        for h in hs {
            rocksdb_column_family_handle_destroy(h);
        }
        free_options(o);
    }
}

/// `rocksdb_options_set_ratelimiter` reaches the engine: two DBs opened with options
/// holding one limiter (the handle destroyed right after setting, as c_test does) pace
/// their writes from the same bucket; subcompaction and job limits are copied too.
#[test]
fn rate_limiter_and_job_limits_reach_the_engine() {
    let dirs = [TempDir::new(), TempDir::new()];
    let o = test_options(true);
    // SAFETY: live handles; the limiter handle is destroyed after setting, which is allowed.
    let dbs: Vec<*mut rocksdb_t> = unsafe {
        let rl = crate::ratelimiter::rocksdb_ratelimiter_create(1 << 20, 100_000, 10);
        crate::options::rocksdb_options_set_ratelimiter(o, rl);
        crate::ratelimiter::rocksdb_ratelimiter_destroy(rl);
        crate::options::accessors::rocksdb_options_set_max_subcompactions(o, 3);
        crate::options::accessors::rocksdb_options_set_max_background_compactions(o, 4);
        dirs.iter()
            .map(|d| {
                let path =
                    CString::new(d.path().join("db").to_str().expect("utf-8")).expect("path");
                let mut err = ptr::null_mut();
                let db = rocksdb_open(o, path.as_ptr(), &mut err);
                assert_eq!(take(&mut err), None);
                db
            })
            .collect()
    };
    free_options(o);
    // SAFETY: the handles were just opened and stay live until closed below.
    let (a, b) = unsafe { (&(*dbs[0]).db, &(*dbs[1]).db) };
    let la = a
        .options()
        .rate_limiter
        .clone()
        .expect("limiter reached the engine");
    let lb = b
        .options()
        .rate_limiter
        .clone()
        .expect("limiter reached the engine");
    assert!(std::sync::Arc::ptr_eq(&la, &lb), "one bucket for both DBs");
    assert_eq!(la.bytes_per_second(), 1 << 20);
    assert_eq!(a.options().max_subcompactions, 3);
    assert_eq!(a.options().max_background_compactions, 4);
    // A flush draws its table bytes from the shared bucket.
    let before = la.total_bytes_through();
    let h = a.default_cf();
    a.put(&Default::default(), &h, b"k", b"v").expect("put");
    a.flush(&h, true).expect("flush");
    assert!(la.total_bytes_through() > before);
    for db in dbs {
        // SAFETY: live handle, not used again.
        unsafe { rocksdb_close(db) };
    }
}
