// SPDX-License-Identifier: Apache-2.0
//! A panic in the write path (here: inside a user comparator during the memtable insert) is
//! caught by the write leader, fails that write with `Operation aborted: ...`, and poisons
//! the DB: later writes fail with the same stored error instead of running on a state that
//! is unknown. (The C API's `ffi::guarded` catches panics at the boundary as well; this is the
//! engine's own guard, which also covers writers whose batch rode in the leader's group.)

use std::cmp::Ordering;
use std::sync::Arc;

use solistore::db::Db;
use solistore::key::Comparator;
use solistore::options::{ColumnFamilyOptions, DbOptions, WriteOptions};

struct PanicsOnBoom;

impl Comparator for PanicsOnBoom {
    fn name(&self) -> &str {
        "test.PanicsOnBoom"
    }
    fn compare(&self, a: &[u8], b: &[u8]) -> Ordering {
        assert!(a != b"boom" && b != b"boom", "comparator refuses boom");
        a.cmp(b)
    }
}

#[test]
fn a_panic_mid_write_fails_the_write_and_poisons_the_db() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path().join("db").to_string_lossy().into_owned();
    let opts = DbOptions {
        create_if_missing: true,
        ..Default::default()
    };
    let cf_opts = ColumnFamilyOptions {
        comparator: Arc::new(PanicsOnBoom),
        ..Default::default()
    };
    let db = Db::open(&opts, cf_opts, &p).expect("open");
    let cf = db.default_cf();
    let wo = WriteOptions::default();
    db.put(&wo, &cf, b"a", b"1").expect("a plain write");
    let err = db
        .put(&wo, &cf, b"boom", b"2")
        .expect_err("the comparator panics");
    assert!(err.to_string().starts_with("Operation aborted: "), "{err}");
    let later = db.put(&wo, &cf, b"c", b"3").expect_err("poisoned");
    assert_eq!(later.to_string(), err.to_string());
    assert!(db.background_error().is_some());
}
