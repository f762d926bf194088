// SPDX-License-Identifier: Apache-2.0
//! The read view of one column family: its active memtable, its immutable memtables (newest
//! first) and its table files (`Version`), swapped as one `Arc` whenever any of them changes
//! (memtable switch, flush, compaction). A reader clones the `Arc` and needs no lock after
//! that; the memtables and files it names stay alive (and on disk) while it holds it.

use std::sync::{Arc, OnceLock};

use crate::memtable::MemTable;
use crate::range_del::{FragmentedRangeTombstones, RangeTombstone};
use crate::version::version::Version;

/// One consistent read view of a column family.
pub struct SuperVersion {
    pub(crate) mem: Arc<MemTable>,
    /// Immutable memtables, newest first.
    pub(crate) imms: Vec<Arc<MemTable>>,
    pub(crate) version: Arc<Version>,
    /// Range tombstones of the immutable memtables and the table files, built on first use
    /// (they never change for this view; the active memtable's are looked up separately).
    frozen_tombstones: OnceLock<Arc<FragmentedRangeTombstones>>,
}

impl std::fmt::Debug for SuperVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SuperVersion")
            .field("imms", &self.imms.len())
            .field("files", &self.version.total_files())
            .finish()
    }
}

impl SuperVersion {
    pub(crate) fn new(mem: Arc<MemTable>, imms: Vec<Arc<MemTable>>, version: Arc<Version>) -> Self {
        SuperVersion {
            mem,
            imms,
            version,
            frozen_tombstones: OnceLock::new(),
        }
    }

    /// The fragmented tombstones of everything but the active memtable; `table_tombstones`
    /// reads a table file's range-deletion block.
    pub(crate) fn frozen_tombstones(
        &self,
        ucmp: &Arc<dyn crate::key::Comparator>,
        table_tombstones: &dyn Fn(
            &crate::version::edit::FileMetaData,
            usize,
        ) -> crate::Result<Vec<RangeTombstone>>,
    ) -> crate::Result<Arc<FragmentedRangeTombstones>> {
        if let Some(t) = self.frozen_tombstones.get() {
            return Ok(t.clone());
        }
        let mut all = Vec::new();
        for imm in &self.imms {
            all.extend(imm.range_tombstones());
        }
        for (level, f) in self.version.all_files() {
            all.extend(table_tombstones(f, level)?);
        }
        let frag = Arc::new(FragmentedRangeTombstones::new(all, ucmp.clone()));
        Ok(self.frozen_tombstones.get_or_init(|| frag).clone())
    }
}
