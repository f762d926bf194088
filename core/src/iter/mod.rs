// SPDX-License-Identifier: Apache-2.0
//! Iterators on the read path, as cursors (`rocksdb_iter_*` are cursors too):
//! `cursor` defines [`InternalIterator`] over internal keys; `merging` merges several sorted
//! children; `db_iter` turns internal entries into the user's view (visibility by sequence,
//! deletions, merges, range tombstones, bounds).

pub mod cursor;
pub mod db_iter;
pub mod level;
pub mod merging;

pub use cursor::InternalIterator;
