// SPDX-License-Identifier: Apache-2.0
//! `rocksdb_options_*`: the DB and default column family options handed to `rocksdb_open*`
//! and `rocksdb_create_column_family`.

use engine::options::{ColumnFamilyOptions, DbOptions};

/// Options for opening a DB or creating a column family. Ownership: owned by the caller
/// (`rocksdb_options_create` / `rocksdb_options_destroy`); `rocksdb_open*` copies it, so it
/// may be changed or destroyed right after.
#[derive(Clone, Default)]
#[allow(dead_code, reason = "read by rocksdb_open*, being written now")]
pub struct rocksdb_options_t {
    /// DB-wide options.
    pub(crate) db: DbOptions,
    /// Column family options (comparator, merge operator, write buffers, ...).
    pub(crate) cf: ColumnFamilyOptions,
}
