// SPDX-License-Identifier: Apache-2.0
//! solistore: an embedded, ordered key-value store built as an LSM tree, reading and writing
//! RocksDB's on-disk formats.
//!
//! # Architecture
//!
//! Write path: a [`batch::WriteBatch`] enters `db::write`, where concurrent writers queue
//! behind a leader (group commit). The leader appends the group to the WAL (`wal`) as one
//! record, syncs once if any writer asked for it, inserts every batch into the column
//! families' memtables (`memtable`), and publishes the group's last sequence number, which
//! makes the whole group visible to readers at once.
//!
//! Read path: `db::read` takes a consistent view (the current memtables of each column family
//! and a sequence number), looks a key up newest-first, or builds a cursor that merges the
//! sources (`iter::merging`) and turns internal entries into the user's view
//! (`iter::db_iter`).
//!
//! Recovery: `db::open` takes the `LOCK`, reads `CURRENT` and replays the MANIFEST
//! (`version`), then replays the WALs newer than the recovered state into memtables,
//! honouring the WAL recovery mode.
//!
//! All file I/O goes through `fs::FileSystem`. Errors are `error::Error`, whose codes and
//! texts mirror RocksDB's `Status`.

#![deny(unsafe_code)]

pub mod batch;
pub mod cache;
pub mod compaction;
pub mod db;
pub mod error;
pub mod fs;
pub mod iter;
pub mod key;
pub mod memtable;
pub mod merge;
pub mod options;
pub mod range_del;
pub mod sst;
pub mod util;
pub mod version;
pub mod wal;

pub use error::{Code, Error, Result};
