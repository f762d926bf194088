// SPDX-License-Identifier: Apache-2.0
//! A cursor over one sorted level (level 1 and deeper): its files do not overlap and are in
//! key order, so the level reads as one sorted run. Only the file under the cursor is open as
//! a cursor; seeks pick the file by binary search over the files' largest keys.

use crate::error::Result;
use crate::iter::InternalIterator;
use crate::key::InternalKeyComparator;

/// Opens the cursor of file `i` of the level.
pub type OpenFile = Box<dyn Fn(usize) -> Result<Box<dyn InternalIterator>> + Send>;

/// Concatenation of the files of one level.
pub struct LevelIterator {
    /// Each file's (smallest, largest) internal key, in level order.
    bounds: Vec<(Vec<u8>, Vec<u8>)>,
    open: OpenFile,
    icmp: InternalKeyComparator,
    current: Option<(usize, Box<dyn InternalIterator>)>,
    status: Result<()>,
}

impl LevelIterator {
    pub fn new(
        bounds: Vec<(Vec<u8>, Vec<u8>)>,
        open: OpenFile,
        icmp: InternalKeyComparator,
    ) -> Self {
        LevelIterator {
            bounds,
            open,
            icmp,
            current: None,
            status: Ok(()),
        }
    }

    /// Makes file `i` current (None past either end); returns false on an open error.
    fn set_file(&mut self, i: Option<usize>) -> bool {
        match i {
            Some(i) if i < self.bounds.len() => {
                if self.current.as_ref().is_some_and(|(j, _)| *j == i) {
                    return true;
                }
                match (self.open)(i) {
                    Ok(it) => {
                        self.current = Some((i, it));
                        true
                    }
                    Err(e) => {
                        self.status = Err(e);
                        self.current = None;
                        false
                    }
                }
            }
            _ => {
                self.current = None;
                false
            }
        }
    }

    fn cur(&mut self) -> Option<&mut Box<dyn InternalIterator>> {
        self.current.as_mut().map(|(_, it)| it)
    }

    /// Moves forward over exhausted files.
    fn skip_forward(&mut self) {
        while let Some((i, it)) = &self.current {
            if it.valid() {
                return;
            }
            if let Err(e) = it.status() {
                self.status = Err(e);
                self.current = None;
                return;
            }
            let next = i + 1;
            if !self.set_file(Some(next)) {
                return;
            }
            if let Some(it) = self.cur() {
                it.seek_to_first();
            }
        }
    }

    /// Moves backward over exhausted files.
    fn skip_backward(&mut self) {
        while let Some((i, it)) = &self.current {
            if it.valid() {
                return;
            }
            if let Err(e) = it.status() {
                self.status = Err(e);
                self.current = None;
                return;
            }
            let Some(prev) = i.checked_sub(1) else {
                self.current = None;
                return;
            };
            if !self.set_file(Some(prev)) {
                return;
            }
            if let Some(it) = self.cur() {
                it.seek_to_last();
            }
        }
    }
}

impl InternalIterator for LevelIterator {
    fn valid(&self) -> bool {
        self.current.as_ref().is_some_and(|(_, it)| it.valid())
    }
    fn seek_to_first(&mut self) {
        self.status = Ok(());
        if self.set_file(Some(0)) {
            if let Some(it) = self.cur() {
                it.seek_to_first();
            }
            self.skip_forward();
        }
    }
    fn seek_to_last(&mut self) {
        self.status = Ok(());
        if self.set_file(self.bounds.len().checked_sub(1)) {
            if let Some(it) = self.cur() {
                it.seek_to_last();
            }
            self.skip_backward();
        }
    }
    fn seek(&mut self, target: &[u8]) {
        self.status = Ok(());
        let i = self
            .bounds
            .partition_point(|(_, largest)| self.icmp.compare(largest, target).is_lt());
        if self.set_file(Some(i)) {
            if let Some(it) = self.cur() {
                it.seek(target);
            }
            self.skip_forward();
        }
    }
    fn seek_for_prev(&mut self, target: &[u8]) {
        self.status = Ok(());
        let i = self
            .bounds
            .partition_point(|(smallest, _)| self.icmp.compare(smallest, target).is_le());
        if self.set_file(i.checked_sub(1)) {
            if let Some(it) = self.cur() {
                it.seek_for_prev(target);
            }
            self.skip_backward();
        }
    }
    fn next(&mut self) {
        if let Some(it) = self.cur() {
            it.next();
        }
        self.skip_forward();
    }
    fn prev(&mut self) {
        if let Some(it) = self.cur() {
            it.prev();
        }
        self.skip_backward();
    }
    fn key(&self) -> &[u8] {
        self.current.as_ref().map(|(_, it)| it.key()).unwrap_or(&[])
    }
    fn value(&self) -> &[u8] {
        self.current
            .as_ref()
            .map(|(_, it)| it.value())
            .unwrap_or(&[])
    }
    fn status(&self) -> Result<()> {
        self.status.clone()?;
        match &self.current {
            Some((_, it)) => it.status(),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::iter::cursor::VecIterator;
    use crate::key::{append_internal_key, ValueType};

    fn ik(k: &str) -> Vec<u8> {
        let mut v = Vec::new();
        append_internal_key(&mut v, k.as_bytes(), 1, ValueType::Value);
        v
    }

    fn level(files: &[&[&str]]) -> LevelIterator {
        let icmp = InternalKeyComparator::default();
        let data: Vec<Vec<(Vec<u8>, Vec<u8>)>> = files
            .iter()
            .map(|f| f.iter().map(|k| (ik(k), k.as_bytes().to_vec())).collect())
            .collect();
        let bounds = data
            .iter()
            .map(|f| (f[0].0.clone(), f[f.len() - 1].0.clone()))
            .collect();
        let icmp2 = icmp.clone();
        let open: OpenFile = Box::new(move |i| {
            Ok(Box::new(VecIterator::new(data[i].clone(), icmp2.clone()))
                as Box<dyn InternalIterator>)
        });
        LevelIterator::new(bounds, open, icmp)
    }

    fn collect_fwd(it: &mut LevelIterator) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        while it.valid() {
            out.push(it.value().to_vec());
            it.next();
        }
        out
    }

    #[test]
    fn walks_files_both_ways_and_seeks_across_gaps() {
        let mut it = level(&[&["a", "c"], &["e", "g"], &["k"]]);
        it.seek_to_first();
        assert_eq!(
            collect_fwd(&mut it),
            vec![
                b"a".to_vec(),
                b"c".to_vec(),
                b"e".to_vec(),
                b"g".to_vec(),
                b"k".to_vec()
            ]
        );
        it.seek_to_last();
        let mut back = Vec::new();
        while it.valid() {
            back.push(it.value().to_vec());
            it.prev();
        }
        assert_eq!(back.len(), 5);
        assert_eq!(back[0], b"k");
        it.seek(&ik("d"));
        assert_eq!(it.value(), b"e");
        it.prev();
        assert_eq!(it.value(), b"c");
        it.seek_for_prev(&ik("h"));
        assert_eq!(it.value(), b"g");
        it.next();
        assert_eq!(it.value(), b"k");
        it.seek(&ik("z"));
        assert!(!it.valid());
        it.seek_for_prev(&ik("0"));
        assert!(!it.valid());
    }
}
