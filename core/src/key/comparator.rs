// SPDX-License-Identifier: Apache-2.0
//! User-key comparators and the internal-key comparator built on one.
//!
//! A comparator's `name` is stored in the MANIFEST; reopening with a different name fails
//! (`Invalid argument: <new>: does not match existing comparator <old>`).

use std::cmp::Ordering;
use std::sync::Arc;

use super::internal_key::{trailer, user_key};

/// A total order over user keys. Implementations must be thread-safe and deterministic.
pub trait Comparator: Send + Sync {
    /// The name persisted with the DB (RocksDB's default is `leveldb.BytewiseComparator`).
    fn name(&self) -> &str;
    fn compare(&self, a: &[u8], b: &[u8]) -> Ordering;
    /// True when this comparator orders exactly like `memcmp`; lets hot paths skip dynamic calls.
    fn is_bytewise(&self) -> bool {
        false
    }
    /// Shortens `start` to a key in `[start, limit)`; the default leaves it as is.
    fn find_shortest_separator(&self, _start: &mut Vec<u8>, _limit: &[u8]) {}
    /// Shortens `key` to a key `>= key`; the default leaves it as is.
    fn find_short_successor(&self, _key: &mut Vec<u8>) {}
}

/// The first 8 bytes of `bytes` (fewer are zero-padded) as a big-endian word: words compare
/// as the bytewise order compares those bytes, except that a string and its extension by
/// zero bytes compare equal. Used to compare keys a word at a time (the memtable's nodes, an
/// index block's restart prefixes).
#[inline]
pub fn bytewise_word(bytes: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    let n = bytes.len().min(8);
    w[..n].copy_from_slice(&bytes[..n]);
    u64::from_be_bytes(w)
}

/// RocksDB's default comparator: lexicographic bytes.
#[derive(Debug, Default, Clone, Copy)]
pub struct BytewiseComparator;

impl Comparator for BytewiseComparator {
    fn name(&self) -> &str {
        "leveldb.BytewiseComparator"
    }
    fn compare(&self, a: &[u8], b: &[u8]) -> Ordering {
        a.cmp(b)
    }
    fn is_bytewise(&self) -> bool {
        true
    }
    fn find_shortest_separator(&self, start: &mut Vec<u8>, limit: &[u8]) {
        let min_len = start.len().min(limit.len());
        let diff = start.iter().zip(limit).take_while(|(a, b)| a == b).count();
        if diff >= min_len {
            return; // one is a prefix of the other
        }
        let byte = start[diff];
        if byte < 0xff && byte + 1 < limit[diff] {
            start[diff] += 1;
            start.truncate(diff + 1);
        }
    }
    fn find_short_successor(&self, key: &mut Vec<u8>) {
        if let Some(i) = key.iter().position(|&b| b != 0xff) {
            key[i] += 1;
            key.truncate(i + 1);
        }
    }
}

/// Orders internal keys: user key ascending by `user`, then trailer descending.
#[derive(Clone)]
pub struct InternalKeyComparator {
    user: Arc<dyn Comparator>,
    bytewise: bool,
}

impl std::fmt::Debug for InternalKeyComparator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InternalKeyComparator")
            .field("user", &self.user.name())
            .finish()
    }
}

impl InternalKeyComparator {
    pub fn new(user: Arc<dyn Comparator>) -> Self {
        let bytewise = user.is_bytewise();
        InternalKeyComparator { user, bytewise }
    }
    pub fn user_comparator(&self) -> &Arc<dyn Comparator> {
        &self.user
    }
    /// True when user keys order like `memcmp` (the comparator said so).
    #[inline]
    pub fn is_bytewise(&self) -> bool {
        self.bytewise
    }
    /// Compares two user keys with the user comparator.
    #[inline]
    pub fn compare_user(&self, a: &[u8], b: &[u8]) -> Ordering {
        if self.bytewise {
            a.cmp(b)
        } else {
            self.user.compare(a, b)
        }
    }
    /// Compares two internal keys.
    #[inline]
    pub fn compare(&self, a: &[u8], b: &[u8]) -> Ordering {
        match self.compare_user(user_key(a), user_key(b)) {
            Ordering::Equal => trailer(b).cmp(&trailer(a)),
            o => o,
        }
    }
}

impl Default for InternalKeyComparator {
    fn default() -> Self {
        Self::new(Arc::new(BytewiseComparator))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::internal_key::{append_internal_key, ValueType};

    fn ik(k: &[u8], s: u64, t: ValueType) -> Vec<u8> {
        let mut v = Vec::new();
        append_internal_key(&mut v, k, s, t);
        v
    }

    #[test]
    fn newer_sequence_sorts_first() {
        let c = InternalKeyComparator::default();
        assert_eq!(
            c.compare(
                &ik(b"a", 5, ValueType::Value),
                &ik(b"a", 3, ValueType::Value)
            ),
            Ordering::Less
        );
        assert_eq!(
            c.compare(
                &ik(b"a", 1, ValueType::Value),
                &ik(b"b", 9, ValueType::Value)
            ),
            Ordering::Less
        );
        assert_eq!(
            c.compare(
                &ik(b"a", 5, ValueType::Value),
                &ik(b"a", 5, ValueType::Deletion)
            ),
            Ordering::Less
        );
    }

    #[test]
    fn bytewise_shortening() {
        let c = BytewiseComparator;
        let mut s = b"abcdef".to_vec();
        c.find_shortest_separator(&mut s, b"abzz");
        assert_eq!(s, b"abd");
        let mut s = b"abc".to_vec();
        c.find_shortest_separator(&mut s, b"abcd");
        assert_eq!(s, b"abc");
        let mut k = vec![0xff, 0x01, 0x02];
        c.find_short_successor(&mut k);
        assert_eq!(k, vec![0xff, 0x02]);
    }
}
