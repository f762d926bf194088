// SPDX-License-Identifier: Apache-2.0
//! Bloom filter bit layouts (read and background paths): where a hash's probes land.
//!
//! FastLocalBloom (format_version ≥ 5, `util/bloom_impl.h` `FastLocalBloomImpl`): the filter
//! is `len` bytes, a whole number of 64-byte cache lines. A 64-bit key hash `h` splits into
//! `h1 = low 32 bits`, which picks the line by multiply-shift (`(h1 * lines) >> 32`,
//! RocksDB's `FastRange32`), and `h2 = high 32 bits`, which drives the probes inside that
//! line: each probe sets/tests bit `x >> 23` (0..=511, bytes LSB-first) of the line, then
//! `x *= 0x9e3779b9` (golden ratio, mod 2^32).
//!
//! Legacy Bloom (format_version < 5, `LegacyLocalityBloomImpl<false>`): a 32-bit hash `h`
//! picks line `h % num_lines`; each probe tests bit `h mod line_bits` of that line, then
//! `h += rotate_right(h, 17)` (the delta is computed once, from the original hash).

/// Bytes per cache line of a FastLocalBloom filter (the only size RocksDB writes or reads).
pub const CACHE_LINE_BYTES: u32 = 64;

/// Golden-ratio multiplier that advances a FastLocalBloom probe.
const PROBE_MULTIPLIER: u32 = 0x9e37_79b9;

/// Converts a configured bits-per-key into RocksDB's millibits, as `BloomLikeFilterPolicy`
/// does: below 0.5 means "no filter" (0), below 1 rounds up to 1, 100 or more (and NaN)
/// clamps to 100, then `trunc(bits * 1000 + 0.500001)`.
pub fn millibits_per_key(bits_per_key: f64) -> u32 {
    let bits = if bits_per_key < 0.5 {
        return 0;
    } else if bits_per_key < 1.0 {
        1.0
    } else if bits_per_key >= 100.0 || bits_per_key.is_nan() {
        100.0
    } else {
        bits_per_key
    };
    // In range 1000.5..=100000.5 after clamping, so the cast cannot saturate.
    (bits * 1000.0 + 0.500001) as u32
}

/// RocksDB's `FastLocalBloomImpl::ChooseNumProbes`: the probe count that minimises the
/// false-positive rate of a cache-local Bloom filter at `millibits` per key.
pub fn choose_num_probes(millibits: u32) -> u32 {
    match millibits {
        0..=2080 => 1,
        2081..=3580 => 2,
        3581..=5100 => 3,
        5101..=6640 => 4,
        6641..=8300 => 5,
        8301..=10070 => 6,
        10071..=11720 => 7,
        11721..=14001 => 8,
        14002..=16050 => 9,
        16051..=18300 => 10,
        18301..=22001 => 11,
        22002..=25501 => 12,
        25502..=50000 => (millibits - 1) / 2000 - 1,
        _ => 24,
    }
}

/// Byte offset of the cache line that `h1` selects in a filter of `len` bytes.
pub(crate) fn line_offset(h1: u32, len: u32) -> usize {
    let lines = u64::from(len / CACHE_LINE_BYTES);
    (((u64::from(h1) * lines) >> 32) as usize) * CACHE_LINE_BYTES as usize
}

/// Sets the probe bits of hash `h` in `data` (a FastLocalBloom bit array, without metadata).
///
/// # Panics
/// If `data` is shorter than 64 bytes or not a whole number of cache lines; the builder sizes
/// it from `CalculateSpace`, which guarantees both.
pub fn add_hash(h: u64, num_probes: u32, data: &mut [u8]) {
    let len = u32::try_from(data.len()).expect("filter length fits in u32 (capped at 0xffffffc0)");
    let at = line_offset(h as u32, len);
    let line = &mut data[at..at + CACHE_LINE_BYTES as usize];
    let mut x = (h >> 32) as u32;
    for _ in 0..num_probes {
        let bit = (x >> 23) as usize;
        line[bit >> 3] |= 1 << (bit & 7);
        x = x.wrapping_mul(PROBE_MULTIPLIER);
    }
}

/// Whether every probe bit of hash `h` is set in `data`. Returns true (may match) when
/// `data` holds no whole cache line, which RocksDB never writes.
pub fn hash_may_match(h: u64, num_probes: u32, data: &[u8]) -> bool {
    let Ok(len) = u32::try_from(data.len()) else {
        return true;
    };
    if len < CACHE_LINE_BYTES {
        return true;
    }
    let at = line_offset(h as u32, len);
    let line = &data[at..at + CACHE_LINE_BYTES as usize];
    let mut x = (h >> 32) as u32;
    for _ in 0..num_probes {
        let bit = (x >> 23) as usize;
        if line[bit >> 3] & (1 << (bit & 7)) == 0 {
            return false;
        }
        x = x.wrapping_mul(PROBE_MULTIPLIER);
    }
    true
}

/// The legacy (format_version < 5) layout: `num_lines` lines of `1 << log2_line_bytes` bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LegacyGeometry {
    pub num_probes: u32,
    pub num_lines: u32,
    pub log2_line_bytes: u32,
}

impl LegacyGeometry {
    fn line_at(&self, h: u32) -> usize {
        ((h % self.num_lines) as usize) << self.log2_line_bytes
    }

    fn bit_mask(&self) -> u32 {
        let bits = self.log2_line_bytes + 3;
        if bits >= 32 {
            u32::MAX
        } else {
            (1u32 << bits) - 1
        }
    }

    /// Sets the probe bits of the 32-bit legacy hash `h` (`LegacyBloomImpl::AddHash`).
    ///
    /// # Panics
    /// If `data` is shorter than `num_lines << log2_line_bytes` bytes.
    pub fn add_hash(&self, mut h: u32, data: &mut [u8]) {
        let base = self.line_at(h);
        let delta = h.rotate_right(17);
        for _ in 0..self.num_probes {
            let bit = (h & self.bit_mask()) as usize;
            data[base + bit / 8] |= 1 << (bit % 8);
            h = h.wrapping_add(delta);
        }
    }

    /// Whether every probe bit of `h` is set (`LegacyBloomImpl::HashMayMatch`). Out-of-range
    /// positions (a geometry not validated against `data`) answer "may match".
    pub fn hash_may_match(&self, mut h: u32, data: &[u8]) -> bool {
        let base = self.line_at(h);
        let delta = h.rotate_right(17);
        for _ in 0..self.num_probes {
            let bit = (h & self.bit_mask()) as usize;
            match data.get(base + bit / 8) {
                Some(byte) if byte & (1 << (bit % 8)) == 0 => return false,
                Some(_) => {}
                None => return true,
            }
            h = h.wrapping_add(delta);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn millibits_follow_rocksdb_sanitising() {
        assert_eq!(millibits_per_key(0.0), 0);
        assert_eq!(millibits_per_key(0.49), 0);
        assert_eq!(millibits_per_key(0.5), 1000);
        assert_eq!(millibits_per_key(1.0), 1000);
        assert_eq!(millibits_per_key(9.9999), 10000);
        assert_eq!(millibits_per_key(10.0), 10000);
        assert_eq!(millibits_per_key(7.4999999999999), 7500);
        assert_eq!(millibits_per_key(150.0), 100000);
        assert_eq!(millibits_per_key(f64::NAN), 100000);
        assert_eq!(millibits_per_key(f64::NEG_INFINITY), 0);
    }

    #[test]
    fn probes_follow_rocksdb_table() {
        let cases = [
            (1000, 1),
            (2080, 1),
            (2081, 2),
            (5000, 3),
            (10000, 6),
            (10070, 6),
            (10071, 7),
            (14001, 8),
            (20000, 11),
            (25501, 12),
            (25502, 11),
            (30000, 13),
            (50000, 23),
            (50001, 24),
            (100000, 24),
        ];
        for (m, p) in cases {
            assert_eq!(choose_num_probes(m), p, "millibits {m}");
        }
    }

    #[test]
    fn added_hashes_match_and_stay_in_their_line() {
        let mut data = vec![0u8; 4 * 64];
        let hashes: Vec<u64> = (0..40u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x1234_5678)
            .collect();
        for &h in &hashes {
            let before = data.clone();
            add_hash(h, 6, &mut data);
            let line = line_offset(h as u32, 256);
            for (i, (a, b)) in before.iter().zip(&data).enumerate() {
                if a != b {
                    assert!((line..line + 64).contains(&i), "bit outside line");
                }
            }
        }
        for &h in &hashes {
            assert!(hash_may_match(h, 6, &data));
        }
        assert!(!hash_may_match(0xdead_beef_0000_0001, 6, &vec![0u8; 256]));
        assert!(hash_may_match(1, 6, &[0u8; 63]), "no whole line: may match");
    }

    #[test]
    fn line_choice_is_multiply_shift() {
        assert_eq!(line_offset(0, 640), 0);
        assert_eq!(line_offset(u32::MAX, 640), 9 * 64);
        assert_eq!(line_offset(1 << 31, 640), 5 * 64);
    }

    #[test]
    fn legacy_probes_match_after_add() {
        let g = LegacyGeometry {
            num_probes: 6,
            num_lines: 3,
            log2_line_bytes: 6,
        };
        let mut data = vec![0u8; 3 * 64];
        for h in [1u32, 77, 0xffff_ffff, 0x8000_0000, 123_456_789] {
            g.add_hash(h, &mut data);
            assert!(g.hash_may_match(h, &data));
        }
        assert!(!g.hash_may_match(5, &[0u8; 192]));
    }
}
