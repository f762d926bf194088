// SPDX-License-Identifier: Apache-2.0
//! The table files of an open DB, per column family and level (read path, metadata only):
//! what `rocksdb_approximate_sizes*` are computed from, taken from the engine's live view
//! (`Db::live_files`).

use std::cmp::Ordering;
use std::collections::BTreeMap;

use engine::db::{ColumnFamilyHandle, Db};
use engine::key::internal_key::user_key;
use engine::key::Comparator;
use engine::version::edit::FileMetaData;
use engine::Error;

/// One live table file.
#[derive(Debug, Clone)]
pub(crate) struct LiveFile {
    pub(crate) meta: FileMetaData,
}

/// The live table files of every column family, by column family id.
///
/// # Errors
/// None today; the signature leaves room for a view that can fail.
pub(crate) fn live_files(db: &Db) -> Result<BTreeMap<u32, Vec<LiveFile>>, Error> {
    let mut out: BTreeMap<u32, Vec<LiveFile>> = BTreeMap::new();
    for (cf, _level, meta) in db.live_files() {
        out.entry(cf).or_default().push(LiveFile { meta });
    }
    Ok(out)
}

/// The live table files of one column family.
pub(crate) fn cf_files(db: &Db, cf: &ColumnFamilyHandle) -> Result<Vec<LiveFile>, Error> {
    Ok(live_files(db)?.remove(&cf.id()).unwrap_or_default())
}

/// The bytes of `files` holding keys in `[start, limit)`: the whole size of each file inside
/// the range, and for a file the range cuts, the share of its key span the range covers
/// (interpolated on the first eight bytes after the file's common key prefix, with the
/// bytewise comparator; the whole file with another comparator). An empty or inverted range
/// is 0.
pub(crate) fn approximate_size(
    files: &[LiveFile],
    cmp: &dyn Comparator,
    start: &[u8],
    limit: &[u8],
) -> u64 {
    if cmp.compare(start, limit) != Ordering::Less {
        return 0;
    }
    let bytewise = cmp.name() == "leveldb.BytewiseComparator";
    files
        .iter()
        .map(|f| {
            let smallest = user_key(&f.meta.smallest);
            let largest = user_key(&f.meta.largest);
            if cmp.compare(largest, start) == Ordering::Less
                || cmp.compare(smallest, limit) != Ordering::Less
            {
                return 0;
            }
            let inside = cmp.compare(start, smallest) != Ordering::Greater
                && cmp.compare(largest, limit) == Ordering::Less;
            if inside || !bytewise {
                return f.meta.file_size;
            }
            let lo = if start > smallest { start } else { smallest };
            let hi = if limit < largest { limit } else { largest };
            let share = key_span_share(smallest, largest, lo, hi);
            // A cut file holds at least some of the range's keys: never report 0 for it.
            ((f.meta.file_size as f64) * share).round().max(1.0) as u64
        })
        .sum()
}

/// The share of `[smallest, largest]` that `[lo, hi]` covers, keys read as numbers.
fn key_span_share(smallest: &[u8], largest: &[u8], lo: &[u8], hi: &[u8]) -> f64 {
    let prefix = smallest
        .iter()
        .zip(largest)
        .take_while(|(a, b)| a == b)
        .count();
    let pos = |k: &[u8]| -> f64 {
        let mut word = [0u8; 8];
        for (dst, src) in word.iter_mut().zip(k.iter().skip(prefix)) {
            *dst = *src;
        }
        u64::from_be_bytes(word) as f64
    };
    let span = pos(largest) - pos(smallest);
    if span <= 0.0 {
        return 1.0;
    }
    ((pos(hi) - pos(lo)) / span).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::key::{BytewiseComparator, ValueType};

    fn file(level: u32, smallest: &[u8], largest: &[u8], size: u64) -> LiveFile {
        let ikey = |k: &[u8]| {
            let mut v = Vec::new();
            engine::key::append_internal_key(&mut v, k, 1, ValueType::Value);
            v
        };
        let _ = level;
        LiveFile {
            meta: FileMetaData {
                file_size: size,
                smallest: ikey(smallest),
                largest: ikey(largest),
                ..FileMetaData::default()
            },
        }
    }

    #[test]
    fn sizes_count_overlapping_files() {
        let files = [
            file(0, b"a", b"c", 100),
            file(1, b"d", b"f", 1000),
            file(1, b"x", b"z", 10),
        ];
        let c = BytewiseComparator;
        assert_eq!(approximate_size(&files, &c, b"a", b"zz"), 1110);
        assert_eq!(approximate_size(&files, &c, b"a", b"d"), 100);
        assert_eq!(approximate_size(&files, &c, b"g", b"w"), 0);
        assert_eq!(approximate_size(&files, &c, b"z", b"a"), 0);
        assert_eq!(approximate_size(&files, &c, b"b", b"b"), 0);
        // Half of d..f's span.
        let half = approximate_size(&files, &c, b"e", b"g");
        assert_eq!(half, 500);
        // A cut file never counts as 0.
        assert!(approximate_size(&files, &c, b"f", b"g") >= 1);
    }

    #[test]
    fn key_share_uses_bytes_after_the_common_prefix() {
        let share = key_span_share(b"key\x10\x00", b"key\x30\x00", b"key\x10", b"key\x20\x00");
        assert!((share - 0.5).abs() < 1e-9, "{share}");
        assert_eq!(key_span_share(b"same", b"same", b"same", b"same"), 1.0);
    }
}
