// SPDX-License-Identifier: Apache-2.0
//! XXH3-64 (seed 0, default secret) with a vectorised long-input loop chosen at run time.
//!
//! Tables checksummed with kXXH3 (RocksDB's default) hold an XXH3 of every block, and a block
//! read from the file (a block cache miss) is verified before use, so the hash of a 4 KiB
//! block sits on the read path's miss cost. The `xxhash-rust` crate picks its SIMD width at
//! compile time; a portable build gets SSE2 (two lanes a step). On a CPU with AVX2 (four
//! lanes) or AVX-512 (all eight), this module runs the same accumulation with those, for
//! inputs longer than 240 bytes (XXH3's long path); shorter inputs, and CPUs without either
//! extension, go to the crate. The result is the same 64-bit value either way (tests compare
//! the long path, with every width the CPU has and with portable steps, against the crate).
//! AVX-512 is preferred when present; on the oldest AVX-512 Xeons (Skylake-SP) its
//! multiplies may lower the core's clock for a while, a cost not measured here (valgrind,
//! behind the callgrind figures, runs the AVX2 path).
//!
//! The long path, per the XXH3 specification: eight 64-bit accumulators start at fixed
//! primes. The input is cut into 64-byte stripes; each stripe adds, lane by lane, its own
//! words (to the neighbouring lane) and the 32x32-bit product of the two halves of
//! `word ^ secret word` (to its lane), the secret window sliding by 8 bytes per stripe. After
//! 16 stripes (one 1 KiB block) the accumulators are scrambled with the secret's last 64
//! bytes. The last partial block's whole stripes follow, then the input's last 64 bytes as a
//! stripe of their own (secret at offset 121); the accumulators are merged pairwise with
//! 128-bit multiplies, seeded by `len * PRIME64_1`, and the sum avalanched.

#[cfg(target_arch = "x86_64")]
use std::sync::atomic::{AtomicU8, Ordering};

use super::coding::decode_fixed64;

pub(crate) const PRIME32_1: u64 = 0x9E37_79B1;
pub(crate) const PRIME32_2: u64 = 0x85EB_CA77;
pub(crate) const PRIME32_3: u64 = 0xC2B2_AE3D;
pub(crate) const PRIME64_1: u64 = 0x9E37_79B1_85EB_CA87;
pub(crate) const PRIME64_2: u64 = 0xC2B2_AE3D_27D4_EB4F;
pub(crate) const PRIME64_3: u64 = 0x1656_67B1_9E37_79F9;
pub(crate) const PRIME64_4: u64 = 0x85EB_CA77_C2B2_AE63;
pub(crate) const PRIME64_5: u64 = 0x27D4_EB2F_1656_67C5;
/// The final avalanche's multiplier.
const PRIME_MX1: u64 = 0x1656_6791_9E37_79F9;

const STRIPE: usize = 64;
/// Inputs up to this length take XXH3's short and mid paths (left to the crate).
const MID_SIZE_MAX: usize = 240;
/// The secret window moves this far per stripe.
const SECRET_STEP: usize = 8;
/// XXH3's default secret (`kSecret` of the specification), 192 bytes. With the primes
/// above it also defines the filters' hash (`sst/filter/hash.rs`), which is part of the
/// on-disk format: never change either.
pub(crate) const SECRET: [u8; 192] = [
    0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
    0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
    0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
    0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
    0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
    0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
    0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
    0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
    0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
    0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e,
    0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce,
    0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
];
/// Stripes per block: as many 8-byte steps as fit a stripe-wide window in the secret.
const STRIPES_PER_BLOCK: usize = (SECRET.len() - STRIPE) / SECRET_STEP;
const BLOCK: usize = STRIPE * STRIPES_PER_BLOCK;
/// Where the scramble's key starts in the secret.
const SCRAMBLE_AT: usize = SECRET.len() - STRIPE;
/// Where the last stripe's key starts (deliberately not 8-aligned).
const LAST_STRIPE_AT: usize = SECRET.len() - STRIPE - 7;
/// Where the merge's keys start.
const MERGE_AT: usize = 11;

/// XXH3-64 of `input` with seed 0: the value `xxhash_rust::xxh3::xxh3_64` returns.
pub fn xxh3_64(input: &[u8]) -> u64 {
    if input.len() > MID_SIZE_MAX {
        if let Some(h) = long_vectorised(input) {
            return h;
        }
    }
    xxhash_rust::xxh3::xxh3_64(input)
}

/// The SIMD widths this module can use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
enum Width {
    Avx2,
    Avx512,
}

#[cfg(target_arch = "x86_64")]
/// 0 = not probed yet, 1 = neither, 2 = AVX2, 3 = AVX-512.
static DETECTED: AtomicU8 = AtomicU8::new(0);

/// The widest extension the CPU has, probed once.
fn best_width() -> Option<Width> {
    #[cfg(target_arch = "x86_64")]
    {
        let mut d = DETECTED.load(Ordering::Relaxed);
        if d == 0 {
            d = if std::arch::is_x86_feature_detected!("avx512f") {
                3
            } else if std::arch::is_x86_feature_detected!("avx2") {
                2
            } else {
                1
            };
            DETECTED.store(d, Ordering::Relaxed);
        }
        match d {
            3 => Some(Width::Avx512),
            2 => Some(Width::Avx2),
            _ => None,
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    None
}

/// The long-path hash with the CPU's widest extension; `None` without one.
fn long_vectorised(input: &[u8]) -> Option<u64> {
    #[allow(unsafe_code)]
    // SAFETY: `best_width` names only an extension the CPU reported (UNSAFE.md).
    best_width().map(|w| unsafe { long_with(input, w) })
}

/// The long-path hash of `input` (longer than [`MID_SIZE_MAX`]) with the width `w`.
///
/// # Safety
/// The CPU must have `w`'s extension (as `is_x86_feature_detected!` reports it): the steps
/// are compiled for it, and running them without it is undefined behaviour.
#[allow(unsafe_code)]
unsafe fn long_with(input: &[u8], w: Width) -> u64 {
    debug_assert!(input.len() > MID_SIZE_MAX);
    #[cfg(target_arch = "x86_64")]
    match w {
        // SAFETY: the caller guarantees AVX2 (this function's contract).
        Width::Avx2 => unsafe { x86::long_avx2(input) },
        // SAFETY: the caller guarantees AVX-512F (this function's contract).
        Width::Avx512 => unsafe { x86::long_avx512(input) },
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = w;
        xxhash_rust::xxh3::xxh3_64(input)
    }
}

/// The long path's walk: `accumulate` takes one stripe (64 bytes of input, 64 of secret)
/// into the accumulators, `scramble` mixes them with 64 bytes of secret after each block;
/// then the merge. Inlined into each width's function, so that its steps inline too.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline(always)]
fn walk(
    input: &[u8],
    mut accumulate: impl FnMut(&mut [u64; 8], &[u8], &[u8]),
    mut scramble: impl FnMut(&mut [u64; 8], &[u8]),
) -> u64 {
    let mut acc: [u64; 8] = [
        PRIME32_3, PRIME64_1, PRIME64_2, PRIME64_3, PRIME64_4, PRIME32_2, PRIME64_5, PRIME32_1,
    ];
    let len = input.len();
    let full_blocks = (len - 1) / BLOCK;
    for block in input.chunks_exact(BLOCK).take(full_blocks) {
        for (s, stripe) in block.chunks_exact(STRIPE).enumerate() {
            accumulate(&mut acc, stripe, &SECRET[s * SECRET_STEP..]);
        }
        scramble(&mut acc, &SECRET[SCRAMBLE_AT..]);
    }
    let tail = &input[full_blocks * BLOCK..];
    let tail_stripes = (tail.len() - 1) / STRIPE;
    for (s, stripe) in tail.chunks_exact(STRIPE).take(tail_stripes).enumerate() {
        accumulate(&mut acc, stripe, &SECRET[s * SECRET_STEP..]);
    }
    accumulate(&mut acc, &input[len - STRIPE..], &SECRET[LAST_STRIPE_AT..]);
    let mut h = (len as u64).wrapping_mul(PRIME64_1);
    for i in 0..4 {
        let at = MERGE_AT + 16 * i;
        let a = u128::from(acc[2 * i] ^ decode_fixed64(&SECRET[at..]));
        let b = u128::from(acc[2 * i + 1] ^ decode_fixed64(&SECRET[at + 8..]));
        let p = a * b;
        h = h.wrapping_add((p as u64) ^ ((p >> 64) as u64));
    }
    h ^= h >> 37;
    h = h.wrapping_mul(PRIME_MX1);
    h ^ (h >> 32)
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86 {
    //! The stripe and scramble steps in AVX2 and AVX-512. Each function needs its extension
    //! (calling it is `unsafe` for that reason alone); every load and store is of a slice
    //! or array checked to hold the bytes it touches.
    use std::arch::x86_64::*;

    #[target_feature(enable = "avx2")]
    fn load256(b: &[u8], at: usize) -> __m256i {
        let s = &b[at..at + 32];
        // SAFETY: `s` holds the 32 bytes read; the load has no alignment requirement.
        unsafe { _mm256_loadu_si256(s.as_ptr().cast()) }
    }

    #[target_feature(enable = "avx2")]
    fn load_acc256(acc: &[u64; 8], half: usize) -> __m256i {
        let s = &acc[4 * half..4 * half + 4];
        // SAFETY: `s` holds the 32 bytes read; the load has no alignment requirement.
        unsafe { _mm256_loadu_si256(s.as_ptr().cast()) }
    }

    #[target_feature(enable = "avx2")]
    fn store_acc256(acc: &mut [u64; 8], half: usize, v: __m256i) {
        let s = &mut acc[4 * half..4 * half + 4];
        // SAFETY: `s` is the 32 bytes written, borrowed mutably; no alignment requirement.
        unsafe { _mm256_storeu_si256(s.as_mut_ptr().cast(), v) }
    }

    /// Per 64-bit lane: `acc[i ^ 1] += d[i]; acc[i] += lo32(d[i] ^ k[i]) * hi32(d[i] ^ k[i])`.
    #[target_feature(enable = "avx2")]
    fn accumulate_avx2(acc: &mut [u64; 8], data: &[u8], key: &[u8]) {
        for half in 0..2 {
            let d = load256(data, 32 * half);
            let dk = _mm256_xor_si256(d, load256(key, 32 * half));
            let product = _mm256_mul_epu32(dk, _mm256_srli_epi64::<32>(dk));
            let swapped = _mm256_shuffle_epi32::<0b0100_1110>(d);
            let sum = _mm256_add_epi64(_mm256_add_epi64(load_acc256(acc, half), swapped), product);
            store_acc256(acc, half, sum);
        }
    }

    /// Per lane: `acc = (acc ^ (acc >> 47) ^ k) * PRIME32_1` (mod 2^64).
    #[target_feature(enable = "avx2")]
    fn scramble_avx2(acc: &mut [u64; 8], key: &[u8]) {
        let prime = _mm256_set1_epi32(super::PRIME32_1 as u32 as i32);
        for half in 0..2 {
            let cur = load_acc256(acc, half);
            let x = _mm256_xor_si256(
                _mm256_xor_si256(cur, _mm256_srli_epi64::<47>(cur)),
                load256(key, 32 * half),
            );
            let lo = _mm256_mul_epu32(x, prime);
            let hi = _mm256_mul_epu32(_mm256_srli_epi64::<32>(x), prime);
            store_acc256(acc, half, _mm256_add_epi64(lo, _mm256_slli_epi64::<32>(hi)));
        }
    }

    #[target_feature(enable = "avx512f")]
    fn load512(b: &[u8]) -> __m512i {
        let s = &b[..64];
        // SAFETY: `s` holds the 64 bytes read; the load has no alignment requirement.
        unsafe { _mm512_loadu_si512(s.as_ptr().cast()) }
    }

    #[target_feature(enable = "avx512f")]
    fn load_acc512(acc: &[u64; 8]) -> __m512i {
        // SAFETY: `acc` is the 64 bytes read; the load has no alignment requirement.
        unsafe { _mm512_loadu_si512(acc.as_ptr().cast()) }
    }

    #[target_feature(enable = "avx512f")]
    fn store_acc512(acc: &mut [u64; 8], v: __m512i) {
        // SAFETY: `acc` is the 64 bytes written, borrowed mutably; no alignment requirement.
        unsafe { _mm512_storeu_si512(acc.as_mut_ptr().cast(), v) }
    }

    /// As [`accumulate_avx2`], all eight lanes at once.
    #[target_feature(enable = "avx512f")]
    fn accumulate_avx512(acc: &mut [u64; 8], data: &[u8], key: &[u8]) {
        let d = load512(data);
        let dk = _mm512_xor_si512(d, load512(key));
        let product = _mm512_mul_epu32(dk, _mm512_srli_epi64::<32>(dk));
        let swapped = _mm512_shuffle_epi32::<0b0100_1110>(d);
        store_acc512(
            acc,
            _mm512_add_epi64(_mm512_add_epi64(load_acc512(acc), swapped), product),
        );
    }

    /// The long path with AVX2 steps.
    #[target_feature(enable = "avx2")]
    pub(super) fn long_avx2(input: &[u8]) -> u64 {
        super::walk(
            input,
            |a, d, k| accumulate_avx2(a, d, k),
            |a, k| scramble_avx2(a, k),
        )
    }

    /// The long path with AVX-512 steps.
    #[target_feature(enable = "avx512f")]
    pub(super) fn long_avx512(input: &[u8]) -> u64 {
        super::walk(
            input,
            |a, d, k| accumulate_avx512(a, d, k),
            |a, k| scramble_avx512(a, k),
        )
    }

    /// As [`scramble_avx2`], all eight lanes at once.
    #[target_feature(enable = "avx512f")]
    fn scramble_avx512(acc: &mut [u64; 8], key: &[u8]) {
        let prime = _mm512_set1_epi32(super::PRIME32_1 as u32 as i32);
        let cur = load_acc512(acc);
        let x = _mm512_xor_si512(
            _mm512_xor_si512(cur, _mm512_srli_epi64::<47>(cur)),
            load512(key),
        );
        let lo = _mm512_mul_epu32(x, prime);
        let hi = _mm512_mul_epu32(_mm512_srli_epi64::<32>(x), prime);
        store_acc512(acc, _mm512_add_epi64(lo, _mm512_slli_epi64::<32>(hi)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every width this CPU offers (only those: `long_with` needs the extension).
    fn widths() -> Vec<Width> {
        #[allow(unused_mut)]
        let mut out = Vec::new();
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                out.push(Width::Avx2);
            }
            if std::arch::is_x86_feature_detected!("avx512f") {
                out.push(Width::Avx512);
            }
        }
        out
    }

    fn bytes(len: usize, seed: u64) -> Vec<u8> {
        let mut x = seed | 1;
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 24) as u8
            })
            .collect()
    }

    /// The long path with the stripe and scramble steps in plain Rust, so that `walk`'s
    /// block, tail and merge logic is checked on any CPU.
    fn long_portable(input: &[u8]) -> u64 {
        walk(
            input,
            |acc, data, key| {
                for i in 0..8 {
                    let d = decode_fixed64(&data[8 * i..]);
                    let dk = d ^ decode_fixed64(&key[8 * i..]);
                    acc[i ^ 1] = acc[i ^ 1].wrapping_add(d);
                    acc[i] = acc[i].wrapping_add((dk & 0xffff_ffff) * (dk >> 32));
                }
            },
            |acc, key| {
                for (i, a) in acc.iter_mut().enumerate() {
                    let x = *a ^ (*a >> 47) ^ decode_fixed64(&key[8 * i..]);
                    *a = x.wrapping_mul(PRIME32_1);
                }
            },
        )
    }

    /// `long_with` for a width `widths()` listed.
    fn long_checked(input: &[u8], w: Width) -> u64 {
        #[allow(unsafe_code)]
        // SAFETY: `w` comes from `widths()`, which lists only detected extensions.
        unsafe {
            long_with(input, w)
        }
    }

    #[test]
    fn every_length_class_matches_the_crate() {
        // Around every boundary of the long path: just past the mid path, stripe and block
        // edges, and block-sized inputs like a table's data blocks.
        let mut lens: Vec<usize> = (241..=1100).collect();
        for base in [2048usize, 4096, 4101, 8192, 16 * 1024, 65 * 1024] {
            lens.extend(base.saturating_sub(70)..base + 70);
        }
        for &len in &lens {
            let b = bytes(len, len as u64);
            let want = xxhash_rust::xxh3::xxh3_64(&b);
            assert_eq!(long_portable(&b), want, "portable steps, {len} bytes");
            for w in widths() {
                assert_eq!(long_checked(&b, w), want, "{w:?}, {len} bytes");
            }
        }
        for len in [0usize, 1, 3, 16, 17, 128, 129, 240, 241, 4096] {
            let b = bytes(len, 7);
            assert_eq!(xxh3_64(&b), xxhash_rust::xxh3::xxh3_64(&b), "{len} bytes");
        }
    }

    #[test]
    fn this_machine_takes_a_vectorised_path_when_it_has_one() {
        // A CPU with AVX2 must not fall back silently (that would lose the point of the
        // module without failing the comparison test).
        let expected = widths().last().copied();
        assert_eq!(best_width(), expected);
    }

    proptest! {
        #[test]
        fn arbitrary_inputs_match_the_crate(data in proptest::collection::vec(any::<u8>(), 241..6000)) {
            let want = xxhash_rust::xxh3::xxh3_64(&data);
            prop_assert_eq!(long_portable(&data), want);
            for w in widths() {
                prop_assert_eq!(long_checked(&data, w), want);
            }
            prop_assert_eq!(xxh3_64(&data), xxhash_rust::xxh3::xxh3_64(&data));
        }
    }
}
