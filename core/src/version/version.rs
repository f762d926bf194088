// SPDX-License-Identifier: Apache-2.0
//! A `Version`: the table files of one column family, per level, at one point in time.
//! Immutable once built; a change (flush, compaction) builds a new one from the old plus a
//! `VersionEdit`. Readers hold an `Arc<Version>` inside their `SuperVersion`, so a file a
//! reader may still open is never deleted under it.
//!
//! Level 0 files may overlap and are ordered newest first (by largest sequence number, then
//! file number); every other level is sorted by smallest key and its files do not overlap.

use std::cmp::Ordering;
use std::sync::Arc;

use crate::key::internal_key::user_key;
use crate::key::InternalKeyComparator;
use crate::version::edit::{FileMetaData, VersionEdit};

/// The files of one column family, per level.
#[derive(Debug, Clone)]
pub struct Version {
    pub(crate) levels: Vec<Vec<Arc<FileMetaData>>>,
    pub(crate) icmp: InternalKeyComparator,
}

impl Version {
    pub fn new(num_levels: usize, icmp: InternalKeyComparator) -> Self {
        Version {
            levels: vec![Vec::new(); num_levels.max(1)],
            icmp,
        }
    }

    /// Builds the version from the MANIFEST's per-level file lists.
    pub fn from_files(
        num_levels: usize,
        icmp: InternalKeyComparator,
        files: &std::collections::BTreeMap<u32, Vec<FileMetaData>>,
    ) -> Self {
        let deepest = files
            .keys()
            .copied()
            .max()
            .map(|l| l as usize + 1)
            .unwrap_or(0);
        let mut v = Version::new(num_levels.max(deepest), icmp);
        for (level, list) in files {
            v.levels[*level as usize].extend(list.iter().cloned().map(Arc::new));
        }
        v.sort();
        v
    }

    fn sort(&mut self) {
        let icmp = self.icmp.clone();
        if let Some(l0) = self.levels.first_mut() {
            l0.sort_by(|a, b| {
                b.largest_seqno
                    .cmp(&a.largest_seqno)
                    .then(b.number.cmp(&a.number))
            });
        }
        for level in self.levels.iter_mut().skip(1) {
            level.sort_by(|a, b| icmp.compare(&a.smallest, &b.smallest));
        }
    }

    /// A new version: this one with `edit`'s deleted files removed and new files added.
    ///
    /// A table the edit deletes and adds again unchanged (a trivial move to another level)
    /// keeps its `Arc`: the DB deletes a table once nothing but its obsolete list holds the
    /// `Arc` (`DbInner::delete_obsolete_tables`), so every view naming the table, from
    /// before or after the move, must hold the same one.
    pub fn apply(&self, edit: &VersionEdit) -> Version {
        let mut v = self.clone();
        let mut removed: Vec<Arc<FileMetaData>> = Vec::new();
        for (level, number) in &edit.deleted_files {
            if let Some(files) = v.levels.get_mut(*level as usize) {
                files.retain(|f| {
                    if f.number == *number {
                        removed.push(f.clone());
                        return false;
                    }
                    true
                });
            }
        }
        for (level, f) in &edit.new_files {
            let level = *level as usize;
            if level >= v.levels.len() {
                v.levels.resize(level + 1, Vec::new());
            }
            let file = match removed.iter().position(|r| **r == *f) {
                Some(i) => removed.swap_remove(i),
                None => Arc::new(f.clone()),
            };
            v.levels[level].push(file);
        }
        v.sort();
        v
    }

    pub fn num_levels(&self) -> usize {
        self.levels.len()
    }
    pub fn files(&self, level: usize) -> &[Arc<FileMetaData>] {
        self.levels.get(level).map(Vec::as_slice).unwrap_or(&[])
    }
    pub fn num_files(&self, level: usize) -> usize {
        self.files(level).len()
    }
    pub fn level_bytes(&self, level: usize) -> u64 {
        self.files(level).iter().map(|f| f.file_size).sum()
    }
    pub fn total_files(&self) -> usize {
        self.levels.iter().map(Vec::len).sum()
    }
    pub fn total_bytes(&self) -> u64 {
        (0..self.levels.len()).map(|l| self.level_bytes(l)).sum()
    }
    pub fn all_files(&self) -> impl Iterator<Item = (usize, &Arc<FileMetaData>)> {
        self.levels
            .iter()
            .enumerate()
            .flat_map(|(l, fs)| fs.iter().map(move |f| (l, f)))
    }

    fn ucmp(&self, a: &[u8], b: &[u8]) -> Ordering {
        self.icmp.compare_user(a, b)
    }

    fn contains(&self, f: &FileMetaData, key: &[u8]) -> bool {
        self.ucmp(key, user_key(&f.smallest)) != Ordering::Less
            && self.ucmp(key, user_key(&f.largest)) != Ordering::Greater
    }

    /// The files that may hold `key`, in the order a point lookup must search them: every
    /// overlapping level 0 file newest first, then at most one file per deeper level.
    pub fn files_for_key<'a>(
        &'a self,
        key: &'a [u8],
    ) -> impl Iterator<Item = &'a Arc<FileMetaData>> + 'a {
        let l0 = self.files(0).iter().filter(move |f| self.contains(f, key));
        let deeper = self.levels.iter().skip(1).filter_map(move |files| {
            let i =
                files.partition_point(|f| self.ucmp(user_key(&f.largest), key) == Ordering::Less);
            files.get(i).filter(|f| self.contains(f, key))
        });
        l0.chain(deeper)
    }

    /// Files of `level` whose user-key range intersects `[begin, end]` (None = unbounded).
    pub fn overlapping(
        &self,
        level: usize,
        begin: Option<&[u8]>,
        end: Option<&[u8]>,
    ) -> Vec<Arc<FileMetaData>> {
        self.files(level)
            .iter()
            .filter(|f| {
                begin.is_none_or(|b| self.ucmp(user_key(&f.largest), b) != Ordering::Less)
                    && end.is_none_or(|e| self.ucmp(user_key(&f.smallest), e) != Ordering::Greater)
            })
            .cloned()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::{append_internal_key, ValueType};

    fn file(number: u64, lo: &str, hi: &str, seq: u64) -> FileMetaData {
        let mut smallest = Vec::new();
        append_internal_key(&mut smallest, lo.as_bytes(), seq, ValueType::Value);
        let mut largest = Vec::new();
        append_internal_key(&mut largest, hi.as_bytes(), seq, ValueType::Value);
        FileMetaData {
            number,
            file_size: 100,
            smallest,
            largest,
            smallest_seqno: seq,
            largest_seqno: seq,
            ..Default::default()
        }
    }

    #[test]
    fn point_lookup_order_and_overlap() {
        let mut edit = VersionEdit::default();
        edit.new_files.push((0, file(1, "a", "m", 5)));
        edit.new_files.push((0, file(2, "c", "z", 9)));
        edit.new_files.push((1, file(3, "a", "f", 1)));
        edit.new_files.push((1, file(4, "g", "p", 1)));
        let v = Version::new(7, InternalKeyComparator::default()).apply(&edit);
        let order: Vec<u64> = v.files_for_key(b"d").map(|f| f.number).collect();
        assert_eq!(order, vec![2, 1, 3]);
        let order: Vec<u64> = v.files_for_key(b"q").map(|f| f.number).collect();
        assert_eq!(order, vec![2]);
        assert_eq!(v.overlapping(1, Some(b"e"), Some(b"h")).len(), 2);
        let mut del = VersionEdit::default();
        del.deleted_files.push((0, 2));
        let v2 = v.apply(&del);
        assert_eq!(v2.num_files(0), 1);
        assert_eq!(v.num_files(0), 2, "the old version is unchanged");
    }

    #[test]
    fn a_moved_file_keeps_its_arc_and_a_rewritten_one_does_not() {
        let mut add = VersionEdit::default();
        add.new_files.push((1, file(7, "a", "c", 3)));
        let v = Version::new(7, InternalKeyComparator::default()).apply(&add);
        let mut mv = VersionEdit::default();
        mv.deleted_files.push((1, 7));
        mv.new_files.push((2, file(7, "a", "c", 3)));
        let moved = v.apply(&mv);
        assert_eq!(moved.num_files(1), 0);
        assert!(Arc::ptr_eq(&v.files(1)[0], &moved.files(2)[0]));
        let mut changed = file(7, "a", "c", 3);
        changed.marked_for_compaction = true;
        let mut rw = VersionEdit::default();
        rw.deleted_files.push((2, 7));
        rw.new_files.push((2, changed.clone()));
        let rewritten = moved.apply(&rw);
        assert_eq!(*rewritten.files(2)[0], changed);
        assert!(!Arc::ptr_eq(&moved.files(2)[0], &rewritten.files(2)[0]));
    }
}
