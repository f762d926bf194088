// SPDX-License-Identifier: Apache-2.0
//! The merge operator: how `merge` operands combine with an existing value (read path and,
//! later, compaction). RocksDB's `uint64add` operator is built in.

/// Combines merge operands. Implementations must be thread-safe and deterministic.
pub trait MergeOperator: Send + Sync {
    /// The name stored in table properties.
    fn name(&self) -> &str;

    /// Applies `operands` (oldest first) to `existing` (None when the key had no value or was
    /// deleted). Returns None when the merge fails; reads then report
    /// `Corruption: Error: Could not perform merge.`
    fn full_merge(
        &self,
        key: &[u8],
        existing: Option<&[u8]>,
        operands: &[&[u8]],
    ) -> Option<Vec<u8>>;

    /// Combines adjacent operands (oldest first) into one, or returns None when it cannot;
    /// the operands are then kept as they are.
    fn partial_merge(&self, _key: &[u8], _operands: &[&[u8]]) -> Option<Vec<u8>> {
        None
    }
}

/// The text of a failed merge, as RocksDB 7.8.3 reports it.
pub const MERGE_FAILED_MESSAGE: &str = "Error: Could not perform merge.";

/// RocksDB's `UInt64AddOperator`: values are little-endian u64s that add up (wrapping).
/// A value that is not 8 bytes long counts as 0, as in RocksDB.
#[derive(Debug, Default, Clone, Copy)]
pub struct UInt64AddOperator;

fn decode_u64(b: &[u8]) -> u64 {
    <[u8; 8]>::try_from(b).map(u64::from_le_bytes).unwrap_or(0)
}

impl MergeOperator for UInt64AddOperator {
    fn name(&self) -> &str {
        "UInt64AddOperator"
    }
    fn full_merge(
        &self,
        _key: &[u8],
        existing: Option<&[u8]>,
        operands: &[&[u8]],
    ) -> Option<Vec<u8>> {
        let base = existing.map(decode_u64).unwrap_or(0);
        let sum = operands
            .iter()
            .fold(base, |acc, op| acc.wrapping_add(decode_u64(op)));
        Some(sum.to_le_bytes().to_vec())
    }
    fn partial_merge(&self, key: &[u8], operands: &[&[u8]]) -> Option<Vec<u8>> {
        self.full_merge(key, None, operands)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uint64_add_sums_and_ignores_bad_lengths() {
        let op = UInt64AddOperator;
        let one = 1u64.to_le_bytes();
        let five = 5u64.to_le_bytes();
        let out = op
            .full_merge(b"k", Some(&five), &[&one, &one, b"bad"])
            .expect("uint64add never fails");
        assert_eq!(decode_u64(&out), 7);
    }
}
