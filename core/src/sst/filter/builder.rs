// SPDX-License-Identifier: Apache-2.0
//! Full-filter builder (background path: flush and compaction write one per SST).
//!
//! Collects the 64-bit hash of every added key (collapsing *adjacent* equal hashes, as
//! RocksDB's `XXPH3FilterBitsBuilder::AddKey` does), then lays out a FastLocalBloom filter
//! in [`FullFilterBuilder::finish`]. The output is byte-identical to what RocksDB 7.8.3
//! writes with `format_version = 5`, a Bloom policy and `optimize_filters_for_memory = false`
//! (its default). Grammar: see the module docs of [`super`].

use super::bloom::{add_hash, choose_num_probes, millibits_per_key, CACHE_LINE_BYTES};
use super::hash::hash64;
use super::{BUILTIN_FILTER_NAME, METADATA_LEN, NEW_BLOOM_MARKER, SUB_IMPL_FAST_LOCAL_BLOOM};

/// Largest bit-array length RocksDB's FastLocalBloom supports (bytes, before rounding).
const MAX_RAW_LEN: u64 = 0xffff_ffc0;

/// Hashes per chunk of [`HashChunks`]: 64 KiB, under glibc's initial mmap threshold (128 KiB).
const HASH_CHUNK: usize = 8192;

/// The collected hashes, in chunks of [`HASH_CHUNK`] (RocksDB keeps them in a `std::deque`).
/// One growing vector reached 4 MiB for a 64 MiB table, through reallocations of 1, 2 and
/// 4 MiB; freeing blocks that large raises glibc's mmap threshold to their size for the rest
/// of the process, after which the memtable's 512 KiB blocks and the table buffers came
/// from malloc's arenas, where freed memory stays resident: driver fillrandom and overwrite
/// peaked at 104-105 MB RSS with the vector, against 98-99 MB for RocksDB.
#[derive(Debug, Clone, Default)]
struct HashChunks {
    /// Full chunks, then the one being filled.
    chunks: Vec<Vec<u64>>,
}

impl HashChunks {
    fn push(&mut self, h: u64) {
        match self.chunks.last_mut() {
            Some(c) if c.len() < HASH_CHUNK => c.push(h),
            _ => {
                let mut c = Vec::with_capacity(HASH_CHUNK);
                c.push(h);
                self.chunks.push(c);
            }
        }
    }

    fn last(&self) -> Option<u64> {
        self.chunks.last().and_then(|c| c.last()).copied()
    }

    fn len(&self) -> usize {
        self.chunks.len().saturating_sub(1) * HASH_CHUNK + self.chunks.last().map_or(0, Vec::len)
    }

    fn is_empty(&self) -> bool {
        self.chunks.is_empty()
    }

    fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.chunks.iter().flatten().copied()
    }
}

/// Builds one full filter block; see the module docs.
#[derive(Debug, Clone)]
pub struct FullFilterBuilder {
    /// Target allocation per key in thousandths of a bit (≥ 1000).
    millibits_per_key: u32,
    /// Whether whole user keys go into the filter (RocksDB `whole_key_filtering`, default on).
    whole_key_filtering: bool,
    /// Hashes in insertion order, adjacent duplicates collapsed.
    hashes: HashChunks,
    /// Last whole key / prefix added by [`Self::add_user_key`] since the last `finish`;
    /// only consulted when both whole keys and prefixes go in (they interleave, so the
    /// adjacent-hash collapse cannot see repeats).
    last_whole_key: Option<Vec<u8>>,
    last_prefix: Option<Vec<u8>>,
}

impl FullFilterBuilder {
    /// A builder for a Bloom policy of `bits_per_key` (RocksDB `NewBloomFilterPolicy`).
    /// Returns `None` when the policy builds no filter: `bits_per_key < 0.5` (RocksDB's
    /// "no filter" case). Values below 1 count as 1 and values of 100 or more as 100.
    pub fn new(bits_per_key: f64) -> Option<Self> {
        let millibits_per_key = millibits_per_key(bits_per_key);
        (millibits_per_key != 0).then(|| Self {
            millibits_per_key,
            whole_key_filtering: true,
            hashes: HashChunks::default(),
            last_whole_key: None,
            last_prefix: None,
        })
    }

    /// Sets RocksDB's `whole_key_filtering` for [`Self::add_user_key`] (default true).
    pub fn with_whole_key_filtering(mut self, on: bool) -> Self {
        self.whole_key_filtering = on;
        self
    }

    /// The number of probes every key gets (from the millibits, as RocksDB does when
    /// `optimize_filters_for_memory` is off).
    pub fn num_probes(&self) -> u32 {
        choose_num_probes(self.millibits_per_key)
    }

    /// Adds one entry (a whole user key or a prefix) as RocksDB's `FilterBitsBuilder::AddKey`
    /// does: its hash is skipped when it equals the previous entry's.
    pub fn add_key(&mut self, key_or_prefix: &[u8]) {
        let h = hash64(key_or_prefix);
        if self.hashes.last() != Some(h) {
            self.hashes.push(h);
        }
    }

    /// Adds the filter entries for one table key, as RocksDB's `FullFilterBlockBuilder::Add`:
    /// `user_key` has no internal-key trailer and no timestamp; `prefix` is
    /// `Some(extractor.transform(user_key))` when a prefix extractor is configured and the key
    /// is in its domain, else `None`. With whole-key filtering the key goes in; the prefix goes
    /// in too when present. When both go in, each is skipped if equal to the last one of its
    /// kind.
    pub fn add_user_key(&mut self, user_key: &[u8], prefix: Option<&[u8]>) {
        if self.whole_key_filtering {
            match prefix {
                None => self.add_key(user_key),
                Some(_) => {
                    if self.last_whole_key.as_deref() != Some(user_key) {
                        self.add_key(user_key);
                        self.last_whole_key = Some(user_key.to_vec());
                    }
                }
            }
        }
        if let Some(prefix) = prefix {
            if !self.whole_key_filtering {
                self.add_key(prefix);
            } else if self.last_prefix.as_deref() != Some(prefix) {
                self.add_key(prefix);
                self.last_prefix = Some(prefix.to_vec());
            }
        }
    }

    /// Entries (distinct adjacent hashes) added since the last `finish`; this is what RocksDB
    /// reports as the table property `rocksdb.num.filter.entries`.
    pub fn num_entries(&self) -> usize {
        self.hashes.len()
    }

    /// True when nothing was added since the last `finish`. RocksDB writes no filter block
    /// (and no metaindex entry) for such a table.
    pub fn is_empty(&self) -> bool {
        self.hashes.is_empty()
    }

    /// The filter block contents (bit array plus 5-byte metadata, without the block trailer),
    /// or an empty vector when nothing was added (write no filter block then). Resets the
    /// builder for the next table.
    pub fn finish(&mut self) -> Vec<u8> {
        self.last_whole_key = None;
        self.last_prefix = None;
        let hashes = std::mem::take(&mut self.hashes);
        if hashes.is_empty() {
            return Vec::new();
        }
        let len = filter_len(hashes.len(), self.millibits_per_key);
        let num_probes = self.num_probes();
        let mut out = vec![0u8; len + METADATA_LEN];
        let (bits, meta) = out.split_at_mut(len);
        for h in hashes.iter() {
            add_hash(h, num_probes, bits);
        }
        meta[0] = NEW_BLOOM_MARKER;
        meta[1] = SUB_IMPL_FAST_LOCAL_BLOOM;
        // Low 5 bits: probes; top 3 bits: log2(cache line bytes) - 6 = 0. The last two bytes
        // are reserved (zero).
        meta[2] = num_probes as u8;
        out
    }

    /// The policy's compatibility name; the metaindex key is `"fullfilter." + name`.
    pub fn name(&self) -> String {
        BUILTIN_FILTER_NAME.to_string()
    }
}

/// Bit-array bytes for `n` entries (RocksDB `FastLocalBloomBitsBuilder::CalculateSpace`):
/// `ceil(n * millibits / 8000)`, capped, rounded up to whole 64-byte cache lines.
fn filter_len(n: usize, millibits_per_key: u32) -> usize {
    let raw = (n as u64)
        .saturating_mul(u64::from(millibits_per_key))
        .saturating_add(7999)
        / 8000;
    let raw = raw.min(MAX_RAW_LEN);
    let line = u64::from(CACHE_LINE_BYTES);
    (raw.div_ceil(line) * line) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_rounds_to_cache_lines() {
        assert_eq!(filter_len(1, 10_000), 64);
        assert_eq!(filter_len(51, 10_000), 64);
        assert_eq!(filter_len(52, 10_000), 128);
        assert_eq!(filter_len(100, 10_000), 128);
        assert_eq!(filter_len(10_000, 10_000), 12_544);
        assert_eq!(filter_len(1, 1_000), 64);
    }

    #[test]
    fn no_filter_below_half_a_bit() {
        assert!(FullFilterBuilder::new(0.4).is_none());
        assert!(FullFilterBuilder::new(0.5).is_some());
    }

    #[test]
    fn empty_builder_writes_nothing() {
        let mut b = FullFilterBuilder::new(10.0).expect("policy");
        assert!(b.is_empty());
        assert!(b.finish().is_empty());
    }

    #[test]
    fn metadata_trailer_layout() {
        let mut b = FullFilterBuilder::new(10.0).expect("policy");
        b.add_key(b"a");
        let f = b.finish();
        assert_eq!(f.len(), 64 + 5);
        assert_eq!(&f[64..], &[0xff, 0x00, 6, 0, 0]);
        assert!(b.is_empty(), "finish resets");
    }

    #[test]
    fn adjacent_duplicates_collapse() {
        let mut b = FullFilterBuilder::new(10.0).expect("policy");
        for k in [&b"x"[..], b"x", b"y", b"x"] {
            b.add_key(k);
        }
        assert_eq!(b.num_entries(), 3);
    }

    /// Hashes span several chunks: every key is counted once (duplicates across a chunk
    /// boundary collapse too) and every key matches the finished filter.
    #[test]
    fn keys_across_hash_chunks_all_match() {
        let mut b = FullFilterBuilder::new(10.0).expect("policy");
        let n = 3 * HASH_CHUNK + 5;
        for i in 0..n {
            let k = format!("key{i:08}");
            b.add_key(k.as_bytes());
            if i == HASH_CHUNK - 1 {
                b.add_key(k.as_bytes()); // the duplicate would start the second chunk
            }
        }
        assert_eq!(b.num_entries(), n);
        let r = super::super::reader::FullFilterReader::new(b.finish());
        assert!((0..n).all(|i| r.key_may_match(format!("key{i:08}").as_bytes())));
        assert!(b.is_empty(), "finish resets");
    }

    #[test]
    fn user_keys_with_prefixes_dedup_per_kind() {
        let mut b = FullFilterBuilder::new(10.0).expect("policy");
        // Three versions of "ab1" then "ab2", prefix "ab": entries ab1, ab, ab2.
        for k in [&b"ab1"[..], b"ab1", b"ab1", b"ab2"] {
            b.add_user_key(k, Some(&k[..2]));
        }
        assert_eq!(b.num_entries(), 3);

        let mut p = FullFilterBuilder::new(10.0)
            .expect("policy")
            .with_whole_key_filtering(false);
        for k in [&b"ab1"[..], b"ab2", b"ac1", b"zz"] {
            p.add_user_key(k, (k.len() == 3).then(|| &k[..2]));
        }
        assert_eq!(p.num_entries(), 2, "only prefixes ab, ac");
    }
}
