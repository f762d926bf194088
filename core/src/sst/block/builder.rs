// SPDX-License-Identifier: Apache-2.0
//! Builds one block (data, index, metaindex, properties or range-deletion) in RocksDB's block
//! format; write path (table builder).
//!
//! ```text
//! block   := entry* restart:fixed32[num_restarts] footer:fixed32
//! entry   := shared:varint32 non_shared:varint32 value_len:varint32 key_delta value
//!          | shared:varint32 non_shared:varint32 key_delta value   (index, value_delta mode)
//! footer  := num_restarts | index_type << 31
//! ```
//!
//! Every `restart_interval`-th entry is a restart point: it stores its whole key (`shared` 0)
//! and its offset is listed in the restart array.
//!
//! A data block may carry a hash index (`index_type` 1, `kDataBlockBinaryAndHash`) between
//! its restart array and its footer: `bucket:u8[n] n:fixed16`, where the bucket of a user key
//! (`hash32(user_key, 397) % n`) holds the restart run of that key's entries, 255 when no key
//! falls there and 254 when keys of different runs do (`data_block_hash_index.cc`;
//! docs/format/sst.md). A point lookup then scans one run instead of binary-searching the
//! restarts. A block whose estimate, index included, is over 64 KiB gets none; so does every
//! block from the first one with a restart index above 253 to the end of the table (RocksDB
//! resets the hash builder between blocks only while it is valid).

use crate::sst::filter::hash::hash32;
use crate::util::coding::{put_fixed32, put_varint32, varint_length};

/// `hash32` seed of the data-block hash index (`GetSliceHash`).
pub(crate) const HASH_INDEX_SEED: u32 = 397;
/// The bucket hash of a user key, before `% num_buckets`.
pub(crate) fn hash_index_hash(user_key: &[u8]) -> u32 {
    hash32(user_key, HASH_INDEX_SEED)
}

/// Bucket value: no key hashes here.
pub(crate) const HASH_NO_ENTRY: u8 = 255;
/// Bucket value: keys of different restart runs hash here.
pub(crate) const HASH_COLLISION: u8 = 254;
/// The largest restart index a bucket can name.
const HASH_MAX_RESTART: usize = 253;
/// Blocks larger than this get no hash index (their footer has no room for the type bit).
const HASH_MAX_BLOCK_SIZE: usize = 1 << 16;

/// The hash index of the data block being built.
#[derive(Debug, Clone)]
struct HashIndexBuilder {
    /// `1 / util_ratio`, added up per key as RocksDB does (so the bucket count is its own).
    buckets_per_key: f64,
    estimated_buckets: f64,
    /// (hash of the user key, restart index) per entry.
    pairs: Vec<(u32, u8)>,
    /// False once a restart index went past what a bucket can name; it stays false for the
    /// rest of the table (RocksDB resets the hash builder only while it is valid).
    valid: bool,
}

impl HashIndexBuilder {
    fn num_buckets(&self) -> u16 {
        // RocksDB's float-to-uint16 conversion, then made odd (which also makes it at least 1).
        (self.estimated_buckets as u16) | 1
    }

    fn estimate_size(&self) -> usize {
        2 + usize::from(self.num_buckets())
    }

    fn add(&mut self, user_key: &[u8], restart: usize) {
        if !self.valid {
            return;
        }
        match u8::try_from(restart) {
            Ok(r) if restart <= HASH_MAX_RESTART => {
                self.pairs.push((hash_index_hash(user_key), r));
                self.estimated_buckets += self.buckets_per_key;
            }
            _ => self.valid = false,
        }
    }

    fn finish_into(&self, out: &mut Vec<u8>) {
        let n = self.num_buckets();
        let start = out.len();
        out.resize(start + usize::from(n), HASH_NO_ENTRY);
        for &(h, r) in &self.pairs {
            let b = &mut out[start + (h % u32::from(n)) as usize];
            if *b == HASH_NO_ENTRY {
                *b = r;
            } else if *b != r {
                *b = HASH_COLLISION;
            }
        }
        out.extend_from_slice(&n.to_le_bytes());
    }

    /// Readies the builder for the next block of the table (validity carries over).
    fn reset(&mut self) {
        self.estimated_buckets = 0.0;
        self.pairs.clear();
    }
}

/// Accumulates sorted entries into one block.
#[derive(Debug, Clone)]
pub struct BlockBuilder {
    buf: Vec<u8>,
    restarts: Vec<u32>,
    counter: usize,
    restart_interval: usize,
    last_key: Vec<u8>,
    /// Index blocks with format_version >= 4: no value_len field, and values of non-restart
    /// entries are given as deltas by the caller.
    value_delta: bool,
    /// Data blocks with a hash index: keys are internal keys, hashed by their user key.
    hash: Option<HashIndexBuilder>,
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).expect("block entries and offsets are far below 4 GiB")
}

impl BlockBuilder {
    /// `restart_interval` of 0 is treated as 1.
    pub fn new(restart_interval: usize) -> Self {
        BlockBuilder {
            buf: Vec::new(),
            restarts: vec![0],
            counter: 0,
            restart_interval: restart_interval.max(1),
            last_key: Vec::new(),
            value_delta: false,
            hash: None,
        }
    }

    /// A data block builder that also writes a hash index, `util_ratio` keys per bucket
    /// (RocksDB's `data_block_hash_table_util_ratio`, 0.75 by default); entries must then be
    /// internal keys. A ratio that is not positive and finite is read as the default
    /// ([`crate::options::usable_hash_ratio`]).
    #[must_use]
    pub fn with_hash_index(mut self, util_ratio: f64) -> Self {
        self.hash = Some(HashIndexBuilder {
            buckets_per_key: 1.0 / crate::options::usable_hash_ratio(util_ratio),
            estimated_buckets: 0.0,
            pairs: Vec::new(),
            valid: true,
        });
        self
    }

    /// A builder for index blocks whose values are delta encoded (format_version >= 4).
    pub fn new_value_delta(restart_interval: usize) -> Self {
        BlockBuilder {
            value_delta: true,
            ..Self::new(restart_interval)
        }
    }

    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// Bytes `finish` would return now.
    pub fn current_size_estimate(&self) -> usize {
        let hash = self
            .hash
            .as_ref()
            .filter(|h| h.valid)
            .map_or(0, HashIndexBuilder::estimate_size);
        self.buf.len() + 4 * self.restarts.len() + 4 + hash
    }

    /// The estimate after adding `key`/`value` (`BlockBuilder::EstimateSizeAfterKV`).
    pub fn estimate_size_after(&self, key: &[u8], value: &[u8]) -> usize {
        let mut e = self.current_size_estimate() + key.len();
        let restart = self.counter >= self.restart_interval;
        e += if !self.value_delta || restart {
            value.len()
        } else {
            value.len() / 2
        };
        if restart {
            e += 4;
        }
        e += 4 + varint_length(key.len() as u64);
        if !self.value_delta || restart {
            e += varint_length(value.len() as u64);
        }
        e
    }

    /// Appends an entry; keys must arrive in the block's order.
    pub fn add(&mut self, key: &[u8], value: &[u8]) {
        self.add_impl(key, value, value);
    }

    /// Appends an index entry in value-delta mode: `full` is stored at restart points (and
    /// whenever no key prefix is shared), `delta` otherwise.
    pub fn add_with_delta(&mut self, key: &[u8], full: &[u8], delta: &[u8]) {
        self.add_impl(key, full, delta);
    }

    fn add_impl(&mut self, key: &[u8], full: &[u8], delta: &[u8]) {
        let mut shared = 0;
        if self.counter >= self.restart_interval {
            self.restarts.push(to_u32(self.buf.len()));
            self.counter = 0;
        } else {
            shared = key
                .iter()
                .zip(&self.last_key)
                .take_while(|(a, b)| a == b)
                .count();
        }
        let non_shared = key.len() - shared;
        put_varint32(&mut self.buf, to_u32(shared));
        put_varint32(&mut self.buf, to_u32(non_shared));
        if !self.value_delta {
            put_varint32(&mut self.buf, to_u32(full.len()));
        }
        self.buf.extend_from_slice(&key[shared..]);
        if self.value_delta && shared != 0 {
            self.buf.extend_from_slice(delta);
        } else {
            self.buf.extend_from_slice(full);
        }
        self.last_key.clear();
        self.last_key.extend_from_slice(key);
        self.counter += 1;
        if let Some(h) = &mut self.hash {
            let user_key = &key[..key.len().saturating_sub(8)];
            h.add(user_key, self.restarts.len() - 1);
        }
    }

    /// Appends the restart array and footer, returns the block and resets the builder.
    pub fn finish(&mut self) -> Vec<u8> {
        let mut out = Vec::new();
        self.finish_into(&mut out);
        out
    }

    /// Like [`finish`](Self::finish), into `out` (cleared first); the builder keeps `out`'s
    /// old allocation for the next block, so two buffers serve a whole table.
    pub fn finish_into(&mut self, out: &mut Vec<u8>) {
        let with_hash = self
            .hash
            .as_ref()
            .is_some_and(|h| h.valid && self.current_size_estimate() <= HASH_MAX_BLOCK_SIZE);
        out.clear();
        std::mem::swap(out, &mut self.buf);
        for &r in &self.restarts {
            put_fixed32(out, r);
        }
        let mut footer = to_u32(self.restarts.len());
        if let Some(h) = &mut self.hash {
            if with_hash {
                h.finish_into(out);
                footer |= 1 << 31;
            }
            h.reset();
        }
        put_fixed32(out, footer);
        self.restarts.clear();
        self.restarts.push(0);
        self.counter = 0;
        self.last_key.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_block_is_one_restart() {
        let mut b = BlockBuilder::new(16);
        assert_eq!(b.current_size_estimate(), 8);
        assert_eq!(b.finish(), vec![0, 0, 0, 0, 1, 0, 0, 0]);
    }

    #[test]
    fn prefix_compression_and_restarts() {
        let mut b = BlockBuilder::new(2);
        b.add(b"apple", b"1");
        b.add(b"apricot", b"2");
        b.add(b"banana", b"3");
        let est = b.current_size_estimate();
        let block = b.finish();
        assert_eq!(block.len(), est);
        // entry 1: 0 5 1 "apple" "1"; entry 2: 2 5 1 "ricot" "2"; entry 3 restart.
        assert_eq!(&block[..9], b"\x00\x05\x01apple1");
        assert_eq!(&block[9..18], b"\x02\x05\x01ricot2");
        assert_eq!(&block[18..28], b"\x00\x06\x01banana3");
        let n = block.len();
        assert_eq!(&block[n - 12..], &[0, 0, 0, 0, 18, 0, 0, 0, 2, 0, 0, 0]);
    }

    #[test]
    fn value_delta_mode_omits_value_len() {
        let mut b = BlockBuilder::new_value_delta(4);
        b.add_with_delta(b"k1", b"FULL", b"d");
        b.add_with_delta(b"k2", b"FULL", b"d");
        let block = b.finish();
        assert_eq!(&block[..8], b"\x00\x02k1FULL");
        assert_eq!(&block[8..12], b"\x01\x01\x32d");
    }
}
