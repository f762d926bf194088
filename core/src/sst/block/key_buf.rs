// SPDX-License-Identifier: Apache-2.0
//! A growable key buffer that keeps short keys inline (read path: block cursors and point
//! lookups rebuild prefix-compressed keys in it).
//!
//! A point lookup makes a fresh cursor per table it searches; with a `Vec` each of them
//! would allocate on its first key. Keys up to [`INLINE_KEY`] bytes (every key of the
//! usual shapes: 16..40-byte user keys plus the 8-byte trailer) live in the struct itself,
//! so a lookup allocates nothing; longer keys spill to a heap buffer that is kept for reuse.
//! RocksDB's `IterKey` does the same with a 39-byte inline array.

/// Keys of at most this many bytes need no heap allocation.
pub const INLINE_KEY: usize = 64;

/// A key under construction. Invariant: while `len <= INLINE_KEY` the key is
/// `inline[..len]`, otherwise it is `heap[..len]` (`heap` may hold more bytes past `len`).
#[derive(Clone)]
pub struct KeyBuf {
    len: usize,
    inline: [u8; INLINE_KEY],
    heap: Vec<u8>,
}

impl Default for KeyBuf {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for KeyBuf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("KeyBuf").field(&self.as_slice()).finish()
    }
}

impl KeyBuf {
    /// An empty key.
    pub const fn new() -> Self {
        KeyBuf {
            len: 0,
            inline: [0; INLINE_KEY],
            heap: Vec::new(),
        }
    }

    /// The key's bytes.
    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        if self.len <= INLINE_KEY {
            &self.inline[..self.len]
        } else {
            &self.heap[..self.len]
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the first `n` bytes (no-op when the key is not longer).
    #[inline]
    pub fn truncate(&mut self, n: usize) {
        if n >= self.len {
            return;
        }
        if self.len > INLINE_KEY && n <= INLINE_KEY {
            self.inline[..n].copy_from_slice(&self.heap[..n]);
        }
        self.len = n;
    }

    /// Appends `more`.
    #[inline]
    pub fn extend(&mut self, more: &[u8]) {
        let new_len = self.len + more.len();
        if new_len <= INLINE_KEY {
            self.inline[self.len..new_len].copy_from_slice(more);
        } else {
            if self.len <= INLINE_KEY {
                self.heap.clear();
                self.heap.extend_from_slice(&self.inline[..self.len]);
            } else {
                self.heap.truncate(self.len);
            }
            self.heap.extend_from_slice(more);
        }
        self.len = new_len;
    }

    /// Replaces the key with `key`.
    /// `extend(&data[start..start + n])` (which must be in bounds), for the short key
    /// deltas of a block scan: when the inline buffer and `data` both have 16 bytes from
    /// there, it copies 16 fixed bytes (no call to `memcpy`); the bytes past the new
    /// length are not part of the key.
    #[inline]
    pub fn extend_within(&mut self, data: &[u8], start: usize, n: usize) {
        const WIDE: usize = 16;
        if n <= WIDE && self.len + WIDE <= INLINE_KEY {
            if let Some(src) = data.get(start..start + WIDE) {
                self.inline[self.len..self.len + WIDE].copy_from_slice(src);
                self.len += n;
                return;
            }
        }
        self.extend(&data[start..start + n]);
    }

    #[inline]
    pub fn set(&mut self, key: &[u8]) {
        self.len = 0;
        self.extend(key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Any sequence of truncations and appends leaves the same bytes as a `Vec` would.
        #[test]
        fn behaves_like_a_vec(
            ops in proptest::collection::vec((0usize..140, proptest::collection::vec(any::<u8>(), 0..70)), 0..40)
        ) {
            let mut k = KeyBuf::new();
            let mut model: Vec<u8> = Vec::new();
            for (cut, more) in ops {
                k.truncate(cut);
                model.truncate(cut);
                prop_assert_eq!(k.as_slice(), &model[..]);
                k.extend(&more);
                model.extend_from_slice(&more);
                prop_assert_eq!(k.as_slice(), &model[..]);
                prop_assert_eq!(k.len(), model.len());
                if cut % 7 == 0 {
                    k.set(&more);
                    model = more.clone();
                    prop_assert_eq!(k.as_slice(), &model[..]);
                }
            }
        }

        /// `extend_within` is `extend` of the sub-slice, whether or not 16 bytes follow
        /// the start in the source, and whatever the buffer held.
        #[test]
        fn extend_within_is_extend_of_the_slice(
            ops in proptest::collection::vec(
                (0usize..140, proptest::collection::vec(any::<u8>(), 0..40), 0usize..40, 0usize..40),
                0..40,
            )
        ) {
            let mut k = KeyBuf::new();
            let mut model: Vec<u8> = Vec::new();
            for (cut, data, a, b) in ops {
                k.truncate(cut);
                model.truncate(cut);
                let (start, n) = (a.min(data.len()), b.min(data.len() - a.min(data.len())));
                k.extend_within(&data, start, n);
                model.extend_from_slice(&data[start..start + n]);
                prop_assert_eq!(k.as_slice(), &model[..]);
            }
        }
    }
}
