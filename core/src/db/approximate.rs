// SPDX-License-Identifier: Apache-2.0
//! Approximate sizes of key ranges in a column family's table files (RocksDB's
//! `GetApproximateSizes` with `INCLUDE_FILES`; read path, metadata and index blocks only).
//!
//! A file wholly inside `[start, limit)` counts its whole size. A file the range cuts counts
//! `offset_of(limit) - offset_of(start)`, each offset the table's
//! [`Table::approximate_offset_of`](crate::sst::Table::approximate_offset_of): the start of
//! the data block that would hold the key, scaled from the data blocks to the whole file, as
//! RocksDB's `BlockBasedTable::ApproximateOffsetOf` does.

use std::cmp::Ordering;

use super::column_family::ColumnFamilyData;
use super::DbInner;
use crate::error::Result;
use crate::key::internal_key::{user_key, MAX_SEQUENCE_NUMBER, VALUE_TYPE_FOR_SEEK};
use crate::key::{append_internal_key, Comparator};

/// The table bytes of each range `[start, limit)` (user keys); an empty or inverted range is 0.
pub(crate) fn file_sizes(
    db: &DbInner,
    cfd: &ColumnFamilyData,
    ranges: &[(&[u8], &[u8])],
) -> Result<Vec<u64>> {
    let sv = cfd.super_version();
    let cmp: &dyn Comparator = cfd.options.comparator.as_ref();
    let seek_key = |k: &[u8]| {
        let mut v = Vec::with_capacity(k.len() + 8);
        append_internal_key(&mut v, k, MAX_SEQUENCE_NUMBER, VALUE_TYPE_FOR_SEEK);
        v
    };
    let mut out = Vec::with_capacity(ranges.len());
    for (start, limit) in ranges {
        if cmp.compare(start, limit) != Ordering::Less {
            out.push(0);
            continue;
        }
        let mut total = 0u64;
        for (level, f) in sv.version.all_files() {
            let smallest = user_key(&f.smallest);
            let largest = user_key(&f.largest);
            if cmp.compare(largest, start) == Ordering::Less
                || cmp.compare(smallest, limit) != Ordering::Less
            {
                continue;
            }
            if cmp.compare(start, smallest) != Ordering::Greater
                && cmp.compare(largest, limit) == Ordering::Less
            {
                total += f.file_size;
                continue;
            }
            let table = db.table_cache.get(f, level, &cfd.options)?;
            let lo = if cmp.compare(start, smallest) == Ordering::Greater {
                table.approximate_offset_of(&seek_key(start))
            } else {
                0
            };
            let hi = if cmp.compare(limit, largest) == Ordering::Greater {
                f.file_size
            } else {
                table.approximate_offset_of(&seek_key(limit))
            };
            total += hi.saturating_sub(lo);
        }
        out.push(total);
    }
    Ok(out)
}
