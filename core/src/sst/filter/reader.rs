// SPDX-License-Identifier: Apache-2.0
//! Full-filter reader (read path: point lookups consult it before reading data blocks).
//!
//! Recognises every built-in full-filter kind by its metadata trailer, exactly as RocksDB
//! 7.8.3's `BuiltinFilterPolicy::GetBuiltinFilterBitsReader` does, and answers as RocksDB
//! would: FastLocalBloom and legacy Bloom filters are probed; unknown or reserved encodings
//! answer "may match" (never a false negative); a block of 5 bytes or fewer means no keys.
//! Ribbon filters are recognised but not decoded yet: they answer "may match", which is
//! correct but filters nothing.

use super::bloom::{hash_may_match, line_offset, LegacyGeometry, CACHE_LINE_BYTES};
use super::hash::{hash32, LEGACY_BLOOM_SEED};
use super::{METADATA_LEN, NEW_BLOOM_MARKER, RIBBON_MARKER, SUB_IMPL_FAST_LOCAL_BLOOM};
use crate::sst::filter_api::FilterProbe;
use crate::util::prefetch::prefetch_byte;

/// What a filter block's metadata says it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FilterKind {
    /// Five bytes or fewer: a filter of zero keys; nothing matches.
    AlwaysFalse,
    /// Zero probes, a reserved marker or reserved metadata: everything may match.
    AlwaysTrue,
    /// format_version ≥ 5 Bloom over `len` bytes of 64-byte lines.
    FastLocalBloom { num_probes: u32, len: u32 },
    /// format_version < 5 Bloom.
    LegacyBloom(LegacyGeometry),
    /// Standard128Ribbon (RocksDB `NewRibbonFilterPolicy`); not decoded, may match.
    Ribbon,
}

/// A parsed full filter block; immutable and shareable across threads.
#[derive(Debug, Clone)]
pub struct FullFilterReader {
    block: Vec<u8>,
    kind: FilterKind,
}

impl FullFilterReader {
    /// Wraps the contents of a full filter block (without its 5-byte block trailer). Never
    /// fails: like RocksDB, any encoding it cannot use is read as "everything may match".
    pub fn new(block: Vec<u8>) -> Self {
        let kind = classify(&block);
        Self { block, kind }
    }

    pub fn kind(&self) -> FilterKind {
        self.kind
    }

    /// Whether `key` (a whole user key, or a prefix when the table was built with a prefix
    /// extractor) may be in the table. False means it is certainly absent.
    pub fn key_may_match(&self, key: &[u8]) -> bool {
        self.probe_may_match(&FilterProbe::new(key))
    }

    /// Starts loading the cache line `key_may_match(key)` will probe (a FastLocalBloom's one
    /// line; nothing for the other kinds).
    pub fn prefetch(&self, key: &[u8]) {
        self.prefetch_probe(&FilterProbe::new(key));
    }

    /// [`Self::key_may_match`] of `probe`'s key, with the hash it holds.
    pub fn probe_may_match(&self, probe: &FilterProbe<'_>) -> bool {
        match self.kind {
            FilterKind::LegacyBloom(g) => {
                g.hash_may_match(hash32(probe.key(), LEGACY_BLOOM_SEED), &self.block)
            }
            _ => self.hash_may_match(probe.hash64()),
        }
    }

    /// [`Self::prefetch`] of `probe`'s key, with the hash it holds.
    pub fn prefetch_probe(&self, probe: &FilterProbe<'_>) {
        if let FilterKind::FastLocalBloom { len, .. } = self.kind {
            if len >= CACHE_LINE_BYTES {
                prefetch_byte(&self.block, line_offset(probe.hash64() as u32, len));
            }
        }
    }

    /// Like [`Self::key_may_match`] for an already computed `hash64(key)`. Legacy filters use
    /// a different (32-bit) hash and answer true here.
    pub fn hash_may_match(&self, h: u64) -> bool {
        match self.kind {
            FilterKind::AlwaysFalse => false,
            FilterKind::FastLocalBloom { num_probes, len } => {
                hash_may_match(h, num_probes, &self.block[..len as usize])
            }
            FilterKind::AlwaysTrue | FilterKind::Ribbon | FilterKind::LegacyBloom(_) => true,
        }
    }
}

/// Reads the metadata trailer (see the module docs of [`super`]).
fn classify(block: &[u8]) -> FilterKind {
    let Ok(len_with_meta) = u32::try_from(block.len()) else {
        return FilterKind::AlwaysTrue;
    };
    if len_with_meta as usize <= METADATA_LEN {
        return FilterKind::AlwaysFalse;
    }
    let len = len_with_meta - METADATA_LEN as u32;
    let meta = &block[len as usize..];
    match meta[0] {
        0 => FilterKind::AlwaysTrue,
        NEW_BLOOM_MARKER => {
            let sub_impl = meta[1];
            let log2_line_bytes = u32::from((meta[2] >> 5) & 7) + 6;
            let num_probes = u32::from(meta[2] & 31);
            let reserved = u16::from_le_bytes([meta[3], meta[4]]);
            if !(1..=30).contains(&num_probes) || reserved != 0 {
                FilterKind::AlwaysTrue
            } else if sub_impl == SUB_IMPL_FAST_LOCAL_BLOOM
                && 1 << log2_line_bytes == CACHE_LINE_BYTES
            {
                FilterKind::FastLocalBloom { num_probes, len }
            } else {
                FilterKind::AlwaysTrue
            }
        }
        RIBBON_MARKER => {
            let num_blocks = u32::from_le_bytes([meta[2], meta[3], meta[4], 0]);
            if num_blocks < 2 {
                FilterKind::AlwaysTrue
            } else {
                FilterKind::Ribbon
            }
        }
        // Other negative markers are reserved.
        0x80..=0xff => FilterKind::AlwaysTrue,
        probes => legacy_geometry(u32::from(probes), len, meta),
    }
}

/// Legacy metadata: `num_probes:u8` then `num_lines:fixed32`. The line size is `len /
/// num_lines` and must be a power of two (64 bytes on the machines RocksDB wrote most files).
fn legacy_geometry(num_probes: u32, len: u32, meta: &[u8]) -> FilterKind {
    let num_lines = u32::from_le_bytes([meta[1], meta[2], meta[3], meta[4]]);
    if num_lines == 0 || !len.is_multiple_of(num_lines) {
        return FilterKind::AlwaysTrue;
    }
    let line_bytes = len / num_lines;
    if !line_bytes.is_power_of_two() {
        return FilterKind::AlwaysTrue;
    }
    FilterKind::LegacyBloom(LegacyGeometry {
        num_probes,
        num_lines,
        log2_line_bytes: line_bytes.trailing_zeros(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sst::filter::FullFilterBuilder;

    fn built(keys: &[&[u8]]) -> Vec<u8> {
        let mut b = FullFilterBuilder::new(10.0).expect("policy");
        for k in keys {
            b.add_key(k);
        }
        b.finish()
    }

    #[test]
    fn round_trip_and_kind() {
        let r = FullFilterReader::new(built(&[b"apple", b"banana"]));
        assert_eq!(
            r.kind(),
            FilterKind::FastLocalBloom {
                num_probes: 6,
                len: 64
            }
        );
        assert!(r.key_may_match(b"apple"));
        assert!(r.key_may_match(b"banana"));
    }

    #[test]
    fn short_blocks_match_nothing() {
        for n in 0..=5 {
            let r = FullFilterReader::new(vec![0xff; n]);
            assert_eq!(r.kind(), FilterKind::AlwaysFalse);
            assert!(!r.key_may_match(b"k"));
        }
    }

    #[test]
    fn reserved_metadata_matches_everything() {
        let good = built(&[b"k"]);
        let n = good.len();
        let mut cases = Vec::new();
        let mut c = good.clone();
        c[n - 3] = 0; // zero probes
        cases.push(c);
        let mut c = good.clone();
        c[n - 3] = 31; // probes 31 reserved
        cases.push(c);
        let mut c = good.clone();
        c[n - 1] = 1; // reserved bytes
        cases.push(c);
        let mut c = good.clone();
        c[n - 4] = 1; // other sub-implementation
        cases.push(c);
        let mut c = good.clone();
        c[n - 3] = 6 | (1 << 5); // 128-byte lines
        cases.push(c);
        let mut c = good.clone();
        c[n - 5] = 0; // "zero probes" legacy marker
        cases.push(c);
        let mut c = good;
        c[n - 5] = 0xfd; // reserved negative marker
        cases.push(c);
        for c in cases {
            let r = FullFilterReader::new(c);
            assert_eq!(r.kind(), FilterKind::AlwaysTrue);
            assert!(r.key_may_match(b"absent"));
        }
    }

    #[test]
    fn ribbon_is_recognised() {
        let mut block = vec![0u8; 64];
        block.extend_from_slice(&[0xfe, 7, 2, 0, 0]);
        assert_eq!(
            FullFilterReader::new(block.clone()).kind(),
            FilterKind::Ribbon
        );
        block[66] = 1;
        assert_eq!(FullFilterReader::new(block).kind(), FilterKind::AlwaysTrue);
    }

    #[test]
    fn fast_bloom_shorter_than_a_line_never_panics() {
        let r = FullFilterReader::new(vec![0, 0, 0, 0xff, 0, 6, 0, 0]);
        assert!(r.key_may_match(b"x"));
    }

    #[test]
    fn legacy_geometry_validation() {
        let mut block = vec![0u8; 192];
        block.push(6);
        block.extend_from_slice(&3u32.to_le_bytes());
        let g = LegacyGeometry {
            num_probes: 6,
            num_lines: 3,
            log2_line_bytes: 6,
        };
        assert_eq!(
            FullFilterReader::new(block.clone()).kind(),
            FilterKind::LegacyBloom(g)
        );
        for lines in [0u32, 5, 6] {
            let mut b = block.clone();
            b[193..197].copy_from_slice(&lines.to_le_bytes());
            // 0: invalid; 5: 192 % 5 != 0; 6: 32-byte lines are fine.
            let k = FullFilterReader::new(b).kind();
            if lines == 6 {
                assert!(matches!(k, FilterKind::LegacyBloom(g) if g.log2_line_bytes == 5));
            } else {
                assert_eq!(k, FilterKind::AlwaysTrue);
            }
        }
        let mut b = block;
        b[193..197].copy_from_slice(&2u32.to_le_bytes()); // 96-byte lines: not a power of two
        assert_eq!(FullFilterReader::new(b).kind(), FilterKind::AlwaysTrue);
    }

    proptest::proptest! {
        #[test]
        fn any_block_is_safe_to_probe(block in proptest::collection::vec(proptest::num::u8::ANY, 0..300), key in proptest::collection::vec(proptest::num::u8::ANY, 0..40)) {
            let r = FullFilterReader::new(block);
            let _ = r.key_may_match(&key);
            let _ = r.hash_may_match(super::super::hash::hash64(&key));
        }

        #[test]
        fn no_false_negatives(keys in proptest::collection::vec(proptest::collection::vec(proptest::num::u8::ANY, 0..300), 1..200), bits in 0.5f64..40.0) {
            let mut b = FullFilterBuilder::new(bits).expect("policy");
            for k in &keys {
                b.add_key(k);
            }
            let r = FullFilterReader::new(b.finish());
            for k in &keys {
                proptest::prop_assert!(r.key_may_match(k));
            }
        }
    }
}
