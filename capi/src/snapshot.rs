// SPDX-License-Identifier: Apache-2.0
//! `rocksdb_create_snapshot`, `rocksdb_release_snapshot`, `rocksdb_snapshot_*` (read path).
//!
//! A snapshot handle owns an engine `Snapshot`, which keeps the DB's shared state alive, so
//! releasing it after `rocksdb_close` is safe (RocksDB requires the opposite order).

use crate::db::rocksdb_t;
use crate::ffi;

/// A point-in-time view. Ownership: owned by the caller from `rocksdb_create_snapshot` until
/// `rocksdb_release_snapshot`, which frees it. Read options borrow it
/// (`rocksdb_readoptions_set_snapshot`).
#[derive(Debug)]
pub struct rocksdb_snapshot_t {
    pub(crate) snap: engine::db::Snapshot,
}

/// Takes a snapshot of `db`'s current state. Returns a handle owned by the caller (release
/// it with `rocksdb_release_snapshot`), or NULL for a NULL `db`.
///
/// # Safety
/// `db` must be NULL or a live handle from `rocksdb_open*`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_create_snapshot(db: *mut rocksdb_t) -> *const rocksdb_snapshot_t {
    ffi::guarded_no_err("rocksdb_create_snapshot", || {
        // SAFETY: per this function's contract; NULL is checked.
        let db = unsafe { ffi::borrow(db, "db")? };
        let h: *const rocksdb_snapshot_t = ffi::into_handle(rocksdb_snapshot_t {
            snap: db.db.snapshot(),
        });
        Ok(h)
    })
}

/// Releases `snapshot` and frees its handle. `db` is not needed (it may even be closed
/// already); a NULL `snapshot` is a no-op.
///
/// # Safety
/// `snapshot` must be NULL or a handle from `rocksdb_create_snapshot`, not used again (nor
/// by read options that still name it).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_release_snapshot(
    db: *mut rocksdb_t,
    snapshot: *const rocksdb_snapshot_t,
) {
    let _ = db;
    ffi::guarded_no_err("rocksdb_release_snapshot", || {
        // SAFETY: per this function's contract; the handle came from `into_handle` as *mut.
        drop(unsafe { ffi::from_handle(snapshot.cast_mut()) });
        Ok(())
    })
}

/// The sequence number the snapshot reads at (0 for NULL).
///
/// # Safety
/// `snapshot` must be NULL or a live snapshot handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_snapshot_get_sequence_number(
    snapshot: *const rocksdb_snapshot_t,
) -> u64 {
    ffi::guarded_no_err("rocksdb_snapshot_get_sequence_number", || {
        // SAFETY: per this function's contract; NULL is checked.
        Ok(unsafe { ffi::borrow(snapshot, "snapshot")? }
            .snap
            .sequence())
    })
}
