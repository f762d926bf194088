// SPDX-License-Identifier: Apache-2.0
//! Builds one block (data, index, metaindex, properties or range-deletion) in RocksDB's block
//! format; write path (table builder).
//!
//! ```text
//! block   := entry* restart:fixed32[num_restarts] footer:fixed32
//! entry   := shared:varint32 non_shared:varint32 value_len:varint32 key_delta value
//!          | shared:varint32 non_shared:varint32 key_delta value   (index, value_delta mode)
//! footer  := num_restarts | index_type << 31      (index_type is 0: no data-block hash index)
//! ```
//!
//! Every `restart_interval`-th entry is a restart point: it stores its whole key (`shared` 0)
//! and its offset is listed in the restart array.

use crate::util::coding::{put_fixed32, put_varint32, varint_length};

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
        }
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
        self.buf.len() + 4 * self.restarts.len() + 4
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
        out.clear();
        std::mem::swap(out, &mut self.buf);
        for &r in &self.restarts {
            put_fixed32(out, r);
        }
        put_fixed32(out, to_u32(self.restarts.len()));
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
