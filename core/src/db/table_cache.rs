// SPDX-License-Identifier: Apache-2.0
//! Open table readers, by file number, and point lookups inside one table.
//!
//! Path: read (and compaction inputs). A table is opened on first use and kept open until
//! its file becomes obsolete (`evict`); RocksDB's `max_open_files = -1` behaviour.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use parking_lot::Mutex;

use crate::error::Result;
use crate::fs::filename;
use crate::iter::InternalIterator;
use crate::key::{
    append_internal_key, parse_internal_key, Comparator, SequenceNumber, ValueType,
    VALUE_TYPE_FOR_SEEK,
};
use crate::sst::reader::{PosixRandomAccessFile, Table, TableReaderOptions};
use crate::version::edit::FileMetaData;

/// The open tables of one DB.
pub(crate) struct TableCache {
    db_path: PathBuf,
    tables: Mutex<HashMap<u64, Arc<Table>>>,
}

impl TableCache {
    pub(crate) fn new(db_path: PathBuf) -> Self {
        TableCache {
            db_path,
            tables: Mutex::new(HashMap::new()),
        }
    }

    /// The reader of `f`, opening it on first use.
    pub(crate) fn get(&self, f: &FileMetaData, ucmp: &Arc<dyn Comparator>) -> Result<Arc<Table>> {
        if let Some(t) = self.tables.lock().get(&f.number) {
            return Ok(t.clone());
        }
        let path = filename::table_file(&self.db_path, f.number);
        let file = Arc::new(PosixRandomAccessFile::open(&path)?);
        let opts = TableReaderOptions {
            comparator: ucmp.clone(),
            verify_checksums: true,
            largest_seqno: f.largest_seqno,
        };
        let factory = |block: &[u8]| crate::sst::filter::reader_for(block);
        let table = Arc::new(Table::open_with_filter(
            file,
            f.file_size,
            opts,
            Some(&factory),
        )?);
        Ok(self.tables.lock().entry(f.number).or_insert(table).clone())
    }

    /// Forgets a table whose file is obsolete.
    pub(crate) fn evict(&self, number: u64) {
        self.tables.lock().remove(&number);
    }
}

/// Calls `f(seq, type, value)` for the entries of `user_key` in `table` with
/// `seq <= read_seq`, newest first, until `f` returns false; returns false when `f` stopped.
pub(crate) fn table_get(
    table: &Arc<Table>,
    user_key: &[u8],
    read_seq: SequenceNumber,
    f: &mut dyn FnMut(SequenceNumber, ValueType, &[u8]) -> bool,
) -> Result<bool> {
    if !table.key_may_match(user_key) {
        return Ok(true);
    }
    let mut target = Vec::with_capacity(user_key.len() + 8);
    append_internal_key(&mut target, user_key, read_seq, VALUE_TYPE_FOR_SEEK);
    let mut it = table.seek(&target);
    let ucmp = table.internal_comparator().clone();
    while it.valid() {
        let parsed = parse_internal_key(it.key())?;
        if ucmp.compare_user(parsed.user_key, user_key).is_ne() {
            break;
        }
        if !f(parsed.sequence, parsed.value_type, it.value()) {
            return Ok(false);
        }
        it.next();
    }
    it.status()?;
    Ok(true)
}
