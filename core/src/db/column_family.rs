// SPDX-License-Identifier: Apache-2.0
//! Column families at run time: each one's options, comparator and memtable, the set of live
//! ones, and the handles users hold.
//!
//! Lock discipline: `ColumnFamilySet` is guarded by `DbInner::cfs` (a read-write lock; writers
//! of the set are create, drop and open). A family's read view (`SuperVersion`) sits behind
//! its own `sv` lock, held only long enough to clone or swap the `Arc`; every swap (memtable
//! switch, flush, compaction) happens with `DbInner::versions` held, so swaps never race.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use parking_lot::{Mutex, RwLock};

use super::super_version::SuperVersion;
use crate::key::InternalKeyComparator;
use crate::memtable::MemTable;
use crate::options::ColumnFamilyOptions;
use crate::range_del::FragmentedRangeTombstones;
use crate::version::version::Version;

/// An immutable memtable waiting for flush, with the WAL number that was started when it was
/// switched out: once it is in a table, WALs below that number hold nothing of this family.
#[derive(Clone)]
pub(crate) struct ImmMemTable {
    pub(crate) mem: Arc<MemTable>,
    pub(crate) next_log_number: u64,
}

/// One column family's live state.
pub struct ColumnFamilyData {
    /// The [`DbInner::id`](super::DbInner) of the DB this family belongs to: a handle is
    /// valid for that DB alone, which `DbInner::cfd` checks without a lock.
    pub(crate) db_id: u64,
    pub(crate) id: u32,
    pub(crate) name: String,
    pub(crate) options: ColumnFamilyOptions,
    pub(crate) icmp: InternalKeyComparator,
    /// The read view. Swapped under `DbInner::versions`.
    sv: RwLock<Arc<SuperVersion>>,
    /// Immutable memtables, oldest first. Guarded by `DbInner::versions`.
    pub(crate) imms: Mutex<Vec<ImmMemTable>>,
    /// Held by whoever flushes this family (a flush slot, or error recovery), so that two
    /// flushes never write the same immutable memtables.
    pub(crate) flush_lock: Mutex<()>,

    /// Set once the family is dropped; writes to it then fail.
    dropped: AtomicBool,
    /// Fragmented range tombstones of the active memtable, rebuilt when the memtable or its
    /// tombstone count changes (a count alone could match a switched-out memtable's).
    tombstones: Mutex<Option<TombstoneCache>>,
    /// The current version's estimate of bytes compactions still have to rewrite
    /// (`estimate_pending_compaction_bytes`), refreshed when a new version is installed.
    pending_compaction_bytes: std::sync::atomic::AtomicU64,
}

impl std::fmt::Debug for ColumnFamilyData {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ColumnFamilyData")
            .field("id", &self.id)
            .field("name", &self.name)
            .finish()
    }
}

/// The policy's estimate of bytes compactions still have to rewrite in `version`.
fn estimate_pending(options: &ColumnFamilyOptions, version: &Version) -> u64 {
    crate::compaction::picker::estimate_pending_compaction_bytes(
        &super::compact::summarize(version),
        &crate::compaction::picker::PickerOptions::from_cf_options(options),
    )
}

impl ColumnFamilyData {
    pub(crate) fn new(
        db_id: u64,
        id: u32,
        name: String,
        options: ColumnFamilyOptions,
        version: Version,
    ) -> Self {
        let icmp = InternalKeyComparator::new(options.comparator.clone());
        let mem = Arc::new(MemTable::new(icmp.clone()));
        let pending = estimate_pending(&options, &version);
        let sv = SuperVersion::new(mem, Vec::new(), Arc::new(version));
        ColumnFamilyData {
            db_id,
            id,
            name,
            options,
            icmp,
            sv: RwLock::new(Arc::new(sv)),
            imms: Mutex::new(Vec::new()),
            flush_lock: Mutex::new(()),
            dropped: AtomicBool::new(false),
            tombstones: Mutex::new(None),
            pending_compaction_bytes: pending.into(),
        }
    }

    pub fn id(&self) -> u32 {
        self.id
    }
    pub fn name(&self) -> &str {
        &self.name
    }
    pub fn options(&self) -> &ColumnFamilyOptions {
        &self.options
    }
    pub(crate) fn mem(&self) -> Arc<MemTable> {
        self.sv.read().mem.clone()
    }
    pub(crate) fn super_version(&self) -> Arc<SuperVersion> {
        self.sv.read().clone()
    }
    /// Level-0 files of the current view (without taking a reference to it).
    pub(crate) fn num_level0_files(&self) -> usize {
        self.sv.read().version.num_files(0)
    }
    /// The active memtable's memory (without taking a reference to it).
    pub(crate) fn mem_usage(&self) -> usize {
        self.sv.read().mem.approximate_memory_usage()
    }
    /// Installs a new read view. Call with `DbInner::versions` held.
    pub(crate) fn install(&self, sv: SuperVersion) {
        if !Arc::ptr_eq(&self.sv.read().version, &sv.version) {
            self.pending_compaction_bytes.store(
                estimate_pending(&self.options, &sv.version),
                Ordering::Relaxed,
            );
        }
        *self.sv.write() = Arc::new(sv);
    }

    /// Bytes compactions still have to rewrite, as of the current version.
    pub(crate) fn pending_compaction_bytes(&self) -> u64 {
        self.pending_compaction_bytes.load(Ordering::Relaxed)
    }
    /// The compaction filter for one compaction: the options' filter, or a new one from the
    /// factory.
    pub(crate) fn compaction_filter(
        &self,
        task: &crate::compaction::picker::CompactionTask,
    ) -> Option<Arc<dyn crate::compaction::filter::CompactionFilter>> {
        if let Some(f) = &self.options.compaction_filter {
            return Some(f.clone());
        }
        let factory = self.options.compaction_filter_factory.as_ref()?;
        let ctx = crate::compaction::filter::FilterContext {
            is_full_compaction: task.start_level == 0 && task.bottommost,
            is_manual_compaction: matches!(
                task.reason,
                crate::compaction::picker::CompactionReason::ManualCompaction
            ),
        };
        factory.create(&ctx).map(Arc::from)
    }

    /// A new empty memtable for this family.
    pub(crate) fn new_memtable(&self) -> Arc<MemTable> {
        Arc::new(MemTable::new(self.icmp.clone()))
    }
    pub(crate) fn is_dropped(&self) -> bool {
        self.dropped.load(Ordering::Acquire)
    }
    pub(crate) fn mark_dropped(&self) {
        self.dropped.store(true, Ordering::Release);
    }

    /// The range tombstones of `mem` in read form, or None when it has none.
    pub(crate) fn tombstones(&self, mem: &Arc<MemTable>) -> Option<Arc<FragmentedRangeTombstones>> {
        if !mem.has_range_tombstones() {
            return None;
        }
        let count = mem.num_range_deletes() as usize;
        let mut cache = self.tombstones.lock();
        if let Some((owner, n, frag)) = cache.as_ref() {
            if *n == count && std::ptr::eq(owner.as_ptr(), Arc::as_ptr(mem)) {
                return Some(frag.clone());
            }
        }
        let frag = Arc::new(FragmentedRangeTombstones::new(
            mem.range_tombstones(),
            self.options.comparator.clone(),
        ));
        *cache = Some((Arc::downgrade(mem), count, frag.clone()));
        Some(frag)
    }
}

/// The cached tombstones of one memtable: which memtable, at which tombstone count.
type TombstoneCache = (
    std::sync::Weak<MemTable>,
    usize,
    Arc<FragmentedRangeTombstones>,
);

/// A user's reference to a column family. Holding it keeps the family's data readable even
/// after the family is dropped or the DB is closed.
#[derive(Clone, Debug)]
pub struct ColumnFamilyHandle {
    pub(crate) cfd: Arc<ColumnFamilyData>,
}

impl ColumnFamilyHandle {
    pub fn id(&self) -> u32 {
        self.cfd.id
    }
    pub fn name(&self) -> &str {
        &self.cfd.name
    }
    pub fn options(&self) -> &ColumnFamilyOptions {
        &self.cfd.options
    }
}

/// The live column families, by id.
#[derive(Default, Debug)]
pub(crate) struct ColumnFamilySet {
    by_id: BTreeMap<u32, Arc<ColumnFamilyData>>,
}

impl ColumnFamilySet {
    pub(crate) fn insert(&mut self, cfd: Arc<ColumnFamilyData>) {
        self.by_id.insert(cfd.id, cfd);
    }
    pub(crate) fn remove(&mut self, id: u32) -> Option<Arc<ColumnFamilyData>> {
        self.by_id.remove(&id)
    }
    pub(crate) fn get(&self, id: u32) -> Option<&Arc<ColumnFamilyData>> {
        self.by_id.get(&id)
    }
    pub(crate) fn by_name(&self, name: &str) -> Option<&Arc<ColumnFamilyData>> {
        self.by_id.values().find(|c| c.name == name)
    }
    pub(crate) fn iter(&self) -> impl Iterator<Item = &Arc<ColumnFamilyData>> {
        self.by_id.values()
    }
}
