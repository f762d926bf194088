// SPDX-License-Identifier: Apache-2.0
//! `multi_get` (read path): several keys at one sequence number, looked up in step.
//!
//! # Views and sequence
//! One view (SuperVersion) per column family and one sequence number for all keys: the
//! views are taken first, then the sequence, and all are taken again if a view changed in
//! between (a memtable switched), so that every write at or below the sequence is in the
//! views (RocksDB's MultiGet does the same). Keys of one family share its view.
//!
//! # Staging
//! On a large database a point lookup is a chain of cache misses: the filter line, the
//! index search, the block cache bucket, the block's description, its restart array, its
//! restart entries, the run it scans. Each depends on the one before, so one lookup cannot
//! overlap them; but the lookups of a batch are independent. So the keys go through the
//! table steps of `sst::point_lookup` together, in windows of [`WINDOW`] keys: each round
//! does the next step of every key still undecided and starts loading (prefetches) what
//! that key's following step will read. By the time a round comes back to a key, its line
//! has had a whole round's work to arrive. Prefetched: the filter line, the cache bucket,
//! and the data block's lines; the index search is one step of its own, not prefetched.
//! RocksDB batches its MultiGet in windows of 32 keys as well.
//!
//! A window holds the cache pins of up to [`WINDOW`] blocks at once (a lookup holds one):
//! with a small cache and `strict_capacity_limit`, inserts meanwhile are refused a little
//! more often (those blocks are used uncached); without it, the cache may run over its
//! capacity by those blocks until the window ends, as RocksDB's MultiGet may.
//!
//! A key's memtables are searched first, directly. Its tables are taken in lookup order
//! (`Version::files_for_key`), each with the same steps as `get`, so both give the same
//! answer: the per-key state (`read::KeyLookup`) is shared with `get`.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use super::column_family::{ColumnFamilyData, ColumnFamilyHandle};
use super::read::KeyLookup;
use super::super_version::SuperVersion;
use super::DbInner;
use crate::error::{Error, Result};
use crate::options::ReadOptions;
use crate::sst::format::BlockHandle;
use crate::sst::point_lookup::HeldBlock;
use crate::sst::Table;
use crate::version::edit::FileMetaData;

/// Keys that go through the steps together (RocksDB's `MultiGetContext::MAX_BATCH_SIZE`).
/// More would let a key's prefetched lines leave the first-level cache before its turn.
const WINDOW: usize = 32;

impl DbInner {
    pub(crate) fn multi_get(
        &self,
        ro: &ReadOptions,
        keys: &[(&ColumnFamilyHandle, &[u8])],
    ) -> Vec<Result<Option<Vec<u8>>>> {
        let (families, family_of) = self.families_of(keys);
        let (views, read_seq) = self.views_at_one_sequence(ro, &families);
        let mut out: Vec<Result<Option<Vec<u8>>>> = Vec::with_capacity(keys.len());
        let mut start = 0;
        while start < keys.len() {
            let end = (start + WINDOW).min(keys.len());
            let window = (start..end).map(|i| {
                let cf = family_of[i].map(|f| (&*families[f], &*views[f]));
                (cf, keys[i].1)
            });
            out.extend(self.lookup_window(ro, window, read_seq));
            start = end;
        }
        let found = out.iter().filter_map(|r| r.as_ref().ok()?.as_ref());
        let (n, bytes) = found.fold((0u64, 0u64), |(n, b), v| (n + 1, b + v.len() as u64));
        let s = &self.stats;
        s.multiget_calls.fetch_add(1, Ordering::Relaxed);
        s.multiget_keys_read
            .fetch_add(keys.len() as u64, Ordering::Relaxed);
        s.multiget_keys_found.fetch_add(n, Ordering::Relaxed);
        s.multiget_bytes_read.fetch_add(bytes, Ordering::Relaxed);
        out
    }

    /// The distinct families of `keys`, and for each key the index of its family (None for
    /// a handle that is no longer valid).
    fn families_of(
        &self,
        keys: &[(&ColumnFamilyHandle, &[u8])],
    ) -> (Vec<Arc<ColumnFamilyData>>, Vec<Option<usize>>) {
        let mut families: Vec<Arc<ColumnFamilyData>> = Vec::new();
        let family_of = keys
            .iter()
            .map(|(cf, _)| {
                if let Some(i) = families.iter().position(|c| Arc::ptr_eq(c, &cf.cfd)) {
                    return Some(i);
                }
                let cfd = self.cfd(cf).ok()?;
                families.push(cfd.clone());
                Some(families.len() - 1)
            })
            .collect();
        (families, family_of)
    }

    /// One view per family and the sequence number they all hold (see the module docs).
    fn views_at_one_sequence(
        &self,
        ro: &ReadOptions,
        families: &[Arc<ColumnFamilyData>],
    ) -> (Vec<Arc<SuperVersion>>, u64) {
        loop {
            let views: Vec<Arc<SuperVersion>> =
                families.iter().map(|c| c.super_version()).collect();
            let read_seq = self.read_seq(ro);
            let unchanged = families
                .iter()
                .zip(&views)
                .all(|(c, v)| Arc::ptr_eq(v, &c.super_version()));
            if unchanged || ro.snapshot.is_some() {
                return (views, read_seq);
            }
            std::thread::yield_now();
        }
    }

    /// Looks up one window of keys in step (see the module docs). A key without a family is
    /// an invalid handle.
    fn lookup_window<'v>(
        &self,
        ro: &ReadOptions,
        window: impl Iterator<Item = (Option<(&'v ColumnFamilyData, &'v SuperVersion)>, &'v [u8])>,
        read_seq: u64,
    ) -> Vec<Result<Option<Vec<u8>>>> {
        let mut pending: Vec<_> = window
            .map(|(cf, key)| match cf {
                None => Pending::failed(Error::invalid_argument("Invalid column family handle")),
                Some((cfd, sv)) => start_lookup(self, ro, cfd, sv, key, read_seq),
            })
            .collect();
        let mut undecided = true;
        while undecided {
            undecided = false;
            for p in pending.iter_mut().filter(|p| p.is_undecided()) {
                p.step(self, ro.fill_cache);
                undecided |= p.is_undecided();
            }
        }
        pending.into_iter().map(Pending::finish).collect()
    }
}

/// Where one key of a window is.
enum Stage<'v> {
    /// The filter line of this table (the key's next candidate) is on its way.
    Filter(&'v Table),
    /// The index chose this block; its cache bucket is on its way.
    Cache(&'v Table, BlockHandle),
    /// The block is held. `prefetched` counts the steps that started loading it: its
    /// description, then its restart array, then its restart entries, then the restart run
    /// the search scans (`run`); the search follows.
    Block {
        table: &'v Table,
        handle: BlockHandle,
        held: HeldBlock,
        prefetched: u8,
        run: Option<usize>,
    },
    /// No table is left to search, or the key is decided.
    Decided,
    /// The lookup failed.
    Failed(Error),
}

/// One key's lookup in a window. `I` walks the key's candidate tables
/// (`Version::files_for_key`; one type for every key of a window, so no allocation).
struct Pending<'v, I> {
    /// None only for a key whose lookup could not start (`Stage::Failed`).
    lookup: Option<KeyLookup<'v>>,
    cfd: Option<&'v ColumnFamilyData>,
    sv: Option<&'v SuperVersion>,
    /// The key's candidate tables not yet taken.
    files: Option<I>,
    stage: Stage<'v>,
}

/// Searches the memtables for `key` and, unless they decide it, takes its first table.
fn start_lookup<'v>(
    db: &DbInner,
    ro: &ReadOptions,
    cfd: &'v ColumnFamilyData,
    sv: &'v SuperVersion,
    key: &'v [u8],
    read_seq: u64,
) -> Pending<'v, impl Iterator<Item = &'v Arc<FileMetaData>> + 'v> {
    let files = sv
        .version
        .files_for_key(key)
        .filter(move |f| f.smallest_seqno <= read_seq);
    let mut lookup = match KeyLookup::new(db, ro, cfd, sv, key, read_seq) {
        Ok(l) => l,
        Err(e) => return Pending::failed(e),
    };
    let in_tables = lookup.search_memtables(sv);
    let mut p = Pending {
        lookup: Some(lookup),
        cfd: Some(cfd),
        sv: Some(sv),
        files: Some(files),
        stage: Stage::Decided,
    };
    if in_tables {
        p.next_table(db);
    }
    p
}

impl<'v, I: Iterator<Item = &'v Arc<FileMetaData>>> Pending<'v, I> {
    fn failed(e: Error) -> Self {
        Pending {
            lookup: None,
            cfd: None,
            sv: None,
            files: None,
            stage: Stage::Failed(e),
        }
    }

    fn is_undecided(&self) -> bool {
        !matches!(self.stage, Stage::Decided | Stage::Failed(_))
    }

    /// Moves to the key's next candidate table and starts loading its filter line.
    fn next_table(&mut self, db: &DbInner) {
        let (Some(cfd), Some(sv), Some(lookup)) = (self.cfd, self.sv, &self.lookup) else {
            return;
        };
        self.stage = match self.files.as_mut().and_then(Iterator::next) {
            None => Stage::Decided,
            Some(f) => match db.table_for(cfd, sv, f) {
                Ok(table) => {
                    table.prefetch_filter(&lookup.probe);
                    Stage::Filter(table)
                }
                Err(e) => Stage::Failed(e),
            },
        };
    }

    /// Does the key's next step (see [`Stage`]).
    fn step(&mut self, db: &DbInner, fill_cache: bool) {
        let Some(lookup) = self.lookup.as_mut() else {
            return;
        };
        let stage = std::mem::replace(&mut self.stage, Stage::Decided);
        self.stage = match stage {
            Stage::Filter(table) => match table.locate(&lookup.probe, lookup.target.as_slice()) {
                Ok(None) => return self.next_table(db),
                Ok(Some(h)) => {
                    table.prefetch_data_block(h);
                    Stage::Cache(table, h)
                }
                Err(e) => Stage::Failed(e),
            },
            Stage::Cache(table, handle) => match table.hold_data_block(handle, fill_cache) {
                Ok(held) => {
                    held.prefetch_header();
                    Stage::Block {
                        table,
                        handle,
                        held,
                        prefetched: 1,
                        run: None,
                    }
                }
                Err(e) => Stage::Failed(e),
            },
            Stage::Block {
                table,
                handle,
                held,
                prefetched,
                mut run,
            } if prefetched < 4 => {
                match prefetched {
                    1 => held.prefetch_restarts(),
                    2 => held.prefetch_restart_entries(),
                    _ => run = table.prefetch_run(&held, lookup.target.as_slice()),
                }
                Stage::Block {
                    table,
                    handle,
                    held,
                    prefetched: prefetched + 1,
                    run,
                }
            }
            Stage::Block {
                table,
                handle,
                held,
                run,
                ..
            } => {
                let (key, target) = (lookup.key, lookup.target.as_slice());
                let visit = &mut |s, t, v: &[u8]| lookup.state.visit(s, t, v);
                match table.search_held(&held, handle, run, key, target, fill_cache, visit) {
                    Ok(true) => {
                        drop(held);
                        return self.next_table(db);
                    }
                    Ok(false) => Stage::Decided,
                    Err(e) => Stage::Failed(e),
                }
            }
            done @ (Stage::Decided | Stage::Failed(_)) => done,
        };
    }

    /// The key's answer.
    fn finish(self) -> Result<Option<Vec<u8>>> {
        match (self.stage, self.lookup, self.cfd) {
            (Stage::Failed(e), _, _) => Err(e),
            (_, Some(lookup), Some(cfd)) => lookup.finish(cfd),
            _ => Err(Error::invalid_argument("Invalid column family handle")),
        }
    }
}
