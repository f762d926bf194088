// SPDX-License-Identifier: Apache-2.0
//! The two hash functions that RocksDB's filters store results of (read and background paths).
//!
//! - [`hash64`]: RocksDB's `Hash64`/`GetSliceHash64`, which is `XXPH3_64bits` with seed 0.
//!   XXPH3 is the *preview* XXH3 from xxHash 0.7.2 that RocksDB froze in `util/xxph3.h`
//!   (it differs from the final XXH3 of xxHash ≥ 0.8 in the short-input mixers and the long
//!   accumulator), plus one RocksDB change: an empty input hashes the seed instead of
//!   returning a constant. FastLocalBloom (format_version ≥ 5) and Ribbon filters use it.
//! - [`hash32`]: RocksDB's `Hash` (`util/hash.cc`), a MurmurHash1 variant whose trailing
//!   bytes are *sign-extended*. The legacy Bloom filter (format_version < 5) uses it with seed
//!   [`LEGACY_BLOOM_SEED`]; the data-block hash index uses seed 397.
//!
//! Both are part of the on-disk format: a change here makes every filter in existing files
//! answer wrongly. The tests pin them to the values RocksDB's own `util/hash_test.cc` checks.

// The primes and the 192-byte default secret are the same in xxHash 0.7.2 and the final
// XXH3 (which block checksums use).
use crate::util::xxh3::{
    PRIME32_1, PRIME32_2, PRIME32_3, PRIME64_1, PRIME64_2, PRIME64_3, PRIME64_4, PRIME64_5, SECRET,
};

const SECRET_LEN: usize = SECRET.len();
/// The smallest secret xxHash allows; the 129..=240 path indexes relative to it.
const SECRET_SIZE_MIN: usize = 136;
const STRIPE_LEN: usize = 64;
/// Secret bytes consumed per stripe.
const SECRET_CONSUME_RATE: usize = 8;
const MIDSIZE_MAX: usize = 240;

/// Seed of RocksDB's `BloomHash`, the legacy Bloom filter's hash.
pub const LEGACY_BLOOM_SEED: u32 = 0xbc9f_1d34;

/// RocksDB's `Hash64(data, n)` = `GetSliceHash64`: preview XXH3, 64-bit, seed 0.
pub fn hash64(data: &[u8]) -> u64 {
    hash64_with_seed(data, 0)
}

/// RocksDB's `Hash64(data, n, seed)` = `XXPH3_64bits_withSeed`.
pub fn hash64_with_seed(data: &[u8], seed: u64) -> u64 {
    let len = data.len();
    if len <= 16 {
        len_0to16(data, seed)
    } else if len <= 128 {
        len_17to128(data, seed)
    } else if len <= MIDSIZE_MAX {
        len_129to240(data, seed)
    } else if seed == 0 {
        hash_long(data, &SECRET)
    } else {
        // Long inputs with a seed use a secret derived from it.
        let mut secret = [0u8; SECRET_LEN];
        for i in 0..SECRET_LEN / 16 {
            let lo = read64(&SECRET, 16 * i).wrapping_add(seed);
            let hi = read64(&SECRET, 16 * i + 8).wrapping_sub(seed);
            secret[16 * i..16 * i + 8].copy_from_slice(&lo.to_le_bytes());
            secret[16 * i + 8..16 * i + 16].copy_from_slice(&hi.to_le_bytes());
        }
        hash_long(data, &secret)
    }
}

/// RocksDB's 32-bit `Hash(data, n, seed)` (`util/hash.cc`): MurmurHash1 with m = 0xc6a4a793,
/// r = 24, reading 4-byte little-endian words; the 1–3 trailing bytes are added as *signed*
/// chars (sign-extended to 32 bits), which the format inherited from LevelDB.
pub fn hash32(data: &[u8], seed: u32) -> u32 {
    const M: u32 = 0xc6a4_a793;
    const R: u32 = 24;
    // `n * m` is computed in size_t and then truncated, so only the low 32 bits of n matter.
    let mut h = seed ^ (data.len() as u32).wrapping_mul(M);
    let mut words = data.chunks_exact(4);
    for w in &mut words {
        let w = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
        h = h.wrapping_add(w).wrapping_mul(M);
        h ^= h >> 16;
    }
    let rest = words.remainder();
    let signed = |i: usize| rest[i] as i8 as i32 as u32;
    if rest.len() >= 3 {
        h = h.wrapping_add(signed(2) << 16);
    }
    if rest.len() >= 2 {
        h = h.wrapping_add(signed(1) << 8);
    }
    if !rest.is_empty() {
        h = h.wrapping_add(signed(0));
        h = h.wrapping_mul(M);
        h ^= h >> R;
    }
    h
}

/// Little-endian u64 at `at`; callers guarantee `at + 8 <= b.len()`.
fn read64(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

/// Little-endian u32 at `at`; callers guarantee `at + 4 <= b.len()`.
fn read32(b: &[u8], at: usize) -> u32 {
    let mut a = [0u8; 4];
    a.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(a)
}

/// The 128-bit product of `a` and `b`, folded by xoring its halves.
fn mul128_fold64(a: u64, b: u64) -> u64 {
    let p = u128::from(a) * u128::from(b);
    (p as u64) ^ ((p >> 64) as u64)
}

fn avalanche(mut h: u64) -> u64 {
    h ^= h >> 37;
    h = h.wrapping_mul(PRIME64_3);
    h ^ (h >> 32)
}

fn len_0to16(input: &[u8], seed: u64) -> u64 {
    let len = input.len();
    if len > 8 {
        let lo = read64(input, 0) ^ read64(&SECRET, 0).wrapping_add(seed);
        let hi = read64(input, len - 8) ^ read64(&SECRET, 8).wrapping_sub(seed);
        let acc = (len as u64)
            .wrapping_add(lo.wrapping_add(hi))
            .wrapping_add(mul128_fold64(lo, hi));
        avalanche(acc)
    } else if len >= 4 {
        let lo = u64::from(read32(input, 0));
        let hi = u64::from(read32(input, len - 4));
        let keyed = (lo | (hi << 32)) ^ read64(&SECRET, 0).wrapping_add(seed);
        let mix = (len as u64).wrapping_add((keyed ^ (keyed >> 51)).wrapping_mul(PRIME32_1));
        avalanche((mix ^ (mix >> 47)).wrapping_mul(PRIME64_2))
    } else if len > 0 {
        let c1 = u32::from(input[0]);
        let c2 = u32::from(input[len >> 1]);
        let c3 = u32::from(input[len - 1]);
        let combined = c1 | (c2 << 8) | (c3 << 16) | ((len as u32) << 24);
        let keyed = u64::from(combined) ^ u64::from(read32(&SECRET, 0)).wrapping_add(seed);
        avalanche(keyed.wrapping_mul(PRIME64_1))
    } else {
        // RocksDB's change to the preview: hash the seed rather than return a constant.
        mul128_fold64(seed.wrapping_add(read64(&SECRET, 0)), PRIME64_2)
    }
}

/// Mixes 16 input bytes at `at` with 16 secret bytes at `s`.
fn mix16(input: &[u8], at: usize, s: usize, seed: u64) -> u64 {
    mul128_fold64(
        read64(input, at) ^ read64(&SECRET, s).wrapping_add(seed),
        read64(input, at + 8) ^ read64(&SECRET, s + 8).wrapping_sub(seed),
    )
}

fn len_17to128(input: &[u8], seed: u64) -> u64 {
    let len = input.len();
    let mut acc = (len as u64).wrapping_mul(PRIME64_1);
    if len > 32 {
        if len > 64 {
            if len > 96 {
                acc = acc.wrapping_add(mix16(input, 48, 96, seed));
                acc = acc.wrapping_add(mix16(input, len - 64, 112, seed));
            }
            acc = acc.wrapping_add(mix16(input, 32, 64, seed));
            acc = acc.wrapping_add(mix16(input, len - 48, 80, seed));
        }
        acc = acc.wrapping_add(mix16(input, 16, 32, seed));
        acc = acc.wrapping_add(mix16(input, len - 32, 48, seed));
    }
    acc = acc.wrapping_add(mix16(input, 0, 0, seed));
    acc = acc.wrapping_add(mix16(input, len - 16, 16, seed));
    avalanche(acc)
}

fn len_129to240(input: &[u8], seed: u64) -> u64 {
    const START_OFFSET: usize = 3;
    const LAST_OFFSET: usize = 17;
    let len = input.len();
    let mut acc = (len as u64).wrapping_mul(PRIME64_1);
    for i in 0..8 {
        acc = acc.wrapping_add(mix16(input, 16 * i, 16 * i, seed));
    }
    acc = avalanche(acc);
    for i in 8..len / 16 {
        acc = acc.wrapping_add(mix16(input, 16 * i, 16 * (i - 8) + START_OFFSET, seed));
    }
    acc = acc.wrapping_add(mix16(input, len - 16, SECRET_SIZE_MIN - LAST_OFFSET, seed));
    avalanche(acc)
}

/// One 64-byte stripe into the eight accumulators (the preview's 64-bit-wide variant: each
/// lane adds its own input word, no lane swap).
fn accumulate_512(acc: &mut [u64; 8], input: &[u8], secret: &[u8]) {
    for (i, lane) in acc.iter_mut().enumerate() {
        let data = read64(input, 8 * i);
        let key = data ^ read64(secret, 8 * i);
        *lane = lane
            .wrapping_add(data)
            .wrapping_add((key & 0xffff_ffff).wrapping_mul(key >> 32));
    }
}

fn scramble(acc: &mut [u64; 8], secret: &[u8]) {
    for (i, lane) in acc.iter_mut().enumerate() {
        let mut a = *lane;
        a ^= a >> 47;
        a ^= read64(secret, 8 * i);
        *lane = a.wrapping_mul(PRIME32_1);
    }
}

/// Inputs longer than 240 bytes: stripes of 64 bytes, blocks of 16 stripes, a scramble after
/// each full block, a final overlapping stripe, then a merge of the accumulators.
fn hash_long(input: &[u8], secret: &[u8; SECRET_LEN]) -> u64 {
    const LAST_ACC_START: usize = 7;
    const MERGE_ACCS_START: usize = 11;
    let len = input.len();
    let mut acc = [
        PRIME32_3, PRIME64_1, PRIME64_2, PRIME64_3, PRIME64_4, PRIME32_2, PRIME64_5, PRIME32_1,
    ];
    let stripes_per_block = (SECRET_LEN - STRIPE_LEN) / SECRET_CONSUME_RATE;
    let block_len = STRIPE_LEN * stripes_per_block;
    let blocks = len / block_len;
    for b in 0..blocks {
        for s in 0..stripes_per_block {
            let at = b * block_len + s * STRIPE_LEN;
            accumulate_512(
                &mut acc,
                &input[at..at + STRIPE_LEN],
                &secret[s * SECRET_CONSUME_RATE..],
            );
        }
        scramble(&mut acc, &secret[SECRET_LEN - STRIPE_LEN..]);
    }
    let tail_stripes = (len - blocks * block_len) / STRIPE_LEN;
    for s in 0..tail_stripes {
        let at = blocks * block_len + s * STRIPE_LEN;
        accumulate_512(
            &mut acc,
            &input[at..at + STRIPE_LEN],
            &secret[s * SECRET_CONSUME_RATE..],
        );
    }
    if !len.is_multiple_of(STRIPE_LEN) {
        accumulate_512(
            &mut acc,
            &input[len - STRIPE_LEN..],
            &secret[SECRET_LEN - STRIPE_LEN - LAST_ACC_START..],
        );
    }
    let mut result = (len as u64).wrapping_mul(PRIME64_1);
    for i in 0..4 {
        let s = MERGE_ACCS_START + 16 * i;
        result = result.wrapping_add(mul128_fold64(
            acc[2 * i] ^ read64(secret, s),
            acc[2 * i + 1] ^ read64(secret, s + 8),
        ));
    }
    avalanche(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Vectors from RocksDB v7.8.3 util/hash_test.cc (HashTest.Hash64SmallValueSchema).
    #[test]
    fn hash64_matches_rocksdb_small_value_schema() {
        let cases: &[(&[u8], u64)] = &[
            (b"", 5999572062939766020),
            (b"\x08", 583283813901344696),
            (b"\x17", 16175549975585474943),
            (b"\x9a", 16322991629225003903),
            (b"\x1c", 13269285487706833447),
            (b"\x4d\x76", 6859542833406258115),
            (b"\x52\xd5", 4919611532550636959),
            (b"\x91\xf7", 14199427467559720719),
            (b"\xd6\x27", 12292689282614532691),
            (b"\x30\x46\x0b", 11404699285340020889),
            (b"\x56\xdc\xd6", 12404347133785524237),
            (b"\xd4\x52\x33", 15853805298481534034),
            (b"\x6a\xb5\xf4", 16863488758399383382),
            (b"\x67\x53\x81\x1c", 9010661983527562386),
            (b"\x69\xb8\xc0\x88", 6611781377647041447),
            (b"\x1e\x84\xaf\x2d", 15290969111616346501),
            (b"\x46\xdc\x54\xbe", 7063754590279313623),
            (b"\xd0\x7a\x6e\xea\x56", 6384167718754869899),
            (b"\x86\x83\xd5\xa4\xd8", 16874407254108011067),
            (b"\xb7\x46\xbb\x77\xce", 16809880630149135206),
            (b"\x6c\xa8\xbc\xe5\x99", 1249038833153141148),
            (b"\x5c\x5e\xe1\xa0\x73\x81", 17358142495308219330),
            (b"\x08\x5d\x73\x1c\xe5\x2e", 4237646583134806322),
            (b"\x42\xfb\xf2\x52\xb4\x10", 4373664924115234051),
            (b"\x73\xe1\xff\x56\x9c\xce", 12012981210634596029),
            (b"\x5c\xbe\x97\x75\x54\x9a\x52", 5716522398211028826),
            (b"\x16\x82\x39\x49\x88\x2b\x36", 15604531309862565013),
            (b"\x59\x77\xf0\xa7\x24\xf4\x78", 8601330687345614172),
            (b"\xd3\xa5\x7c\x0e\xc0\x02\x07", 8088079329364056942),
            (b"\x31\x1b\x98\x75\x96\x22\xd3\x9a", 9844314944338447628),
            (b"\x38\xd6\xf7\x28\x20\xb4\x8a\xe9", 10973293517982163143),
            (b"\xbb\x18\x5d\xf4\x12\x03\xf7\x99", 9986007080564743219),
            (b"\x80\xd4\x3b\x3b\xae\x22\xa2\x78", 1729303145008254458),
            (
                b"\x1a\xb5\xd0\xfe\xab\xc3\x61\xb2\x99",
                13253403748084181481,
            ),
            (b"\x8e\x4a\xc3\x18\x20\x2f\x06\xe6\x3c", 7768754303876232188),
            (b"\xb6\xc0\xdd\x05\x3f\xc4\x86\x4c\xef", 12439346786701492),
            (
                b"\x9a\x5f\x78\x0d\xaf\x50\xe1\x1f\x55",
                10841838338450144690,
            ),
            (
                b"\x22\x6f\x39\x1f\xf8\xdd\x4f\x52\x17\x94",
                12883919702069153152,
            ),
            (
                b"\x32\x89\x2a\x75\x48\x3a\x4a\x02\x69\xdd",
                12692903507676842188,
            ),
            (
                b"\x06\x92\x5c\xf4\x88\x0e\x7e\x68\x38\x3e",
                6540985900674032620,
            ),
            (
                b"\xbd\x2c\x63\x38\xbf\xe9\x78\xb7\xbf\x15",
                10551812464348219044,
            ),
        ];
        for (input, want) in cases {
            assert_eq!(hash64(input), *want, "input {input:02x?}");
        }
    }

    /// RocksDB's `Hash64TestDescriptor`: one base-61 character per prefix length of a
    /// repeated pattern, covering every size class up to the long (> 240 bytes) path.
    fn descriptor(repeat: &[u8], limit: usize) -> String {
        const ENC: &[u8] = b"abcdefghijklmnopqrstuvwxyz123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
        let input: Vec<u8> = repeat.iter().copied().cycle().take(limit).collect();
        (0..limit)
            .map(|i| ENC[(hash64(&input[..i]) % 61) as usize] as char)
            .collect()
    }

    // Vectors from RocksDB v7.8.3 util/hash_test.cc (HashTest.Hash64LargeValueSchema).
    #[test]
    fn hash64_matches_rocksdb_large_value_schema() {
        assert_eq!(
            descriptor(b"foo", 430),
            concat!(
                "cRhyWsY67B6klRA1udmOuiYuX7IthyGBKqbeosz2hzVglWCmQx8nEdnpkvPfYX56Up2OWOTV",
                "lTzfAoYwvtqKzjD8E9xttR2unelbXbIV67NUe6bOO23BxaSFRcA3njGu5cUWfgwOqNoTsszp",
                "uPvKRP6qaUR5VdoBkJUCFIefd7edlNK5mv6JYWaGdwxehg65hTkTmjZoPKxTZo4PLyzbL9U4",
                "xt12ITSfeP2MfBHuLI2z2pDlBb44UQKVMx27LEoAHsdLp3WfWfgH3sdRBRCHm33UxCM4QmE2",
                "xJ7gqSvNwTeH7v9GlC8zWbGroyD3UVNeShMLx29O7tH1biemLULwAHyIw8zdtLMDpEJ8m2ic",
                "l6Lb4fDuuFNAs1GCVUthjK8CV8SWI8Rsz5THSwn5CGhpqUwSZcFknjwWIl5rNCvDxXJqYr",
            )
        );
        assert_eq!(
            descriptor(b"Rocks", 430),
            concat!(
                "c1EeRkrzgOYWLA8PuhJrwTePJewoB44WdXYDfhbk3ZxTqqg25WlPExDl7IKIQLJvnA6gJxxn",
                "9TCSLkFGfJeXehaSS1GBqWSzfhEH4VXiXIUCuxJXxtKXcSC6FrNIQGTZbYDiUOLD6Y5inzrF",
                "9etwQhXUBanw55xAUdNMFQAm2GjJ6UDWp2mISLiMMkLjANWMKLaZMqaFLX37qB4MRO1ooVRv",
                "zSvaNRSCLxlggQCasQq8icWjzf3HjBlZtU6pd4rkaUxSzHqmo9oM5MghbU5Rtxg8wEfO7lVN",
                "5wdMONYecslQTwjZUpO1K3LDf3K3XK6sUXM6ShQQ3RHmMn2acB4YtTZ3QQcHYJSOHn2DuWpa",
                "Q8RqzX5lab92YmOLaCdOHq1BPsM7SIBzMdLgePNsJ1vvMALxAaoDUHPxoFLO2wx18IXnyX",
            )
        );
        assert_eq!(
            descriptor(b"RocksDB", 430),
            concat!(
                "c1EeRkukbkb28wLTahwD2sfUhZzaBEnF8SVrxnPVB6A7b8CaAl3UKsDZISF92GSq2wDCukOq",
                "Jgrsp7A3KZhDiLW8dFXp8UPqPxMCRlMdZeVeJ2dJxrmA6cyt99zkQFj7ELbut6jAeVqARFnw",
                "fnWVXOsaLrq7bDCbMcns2DKvTaaqTCLMYxI7nhtLpFN1jR755FRQFcOzrrDbh7QhypjdvlYw",
                "cdAMSZgp9JMHxbM23wPSuH6BOFgxejz35PScZfhDPvTOxIy1jc3MZsWrMC3P324zNolO7JdW",
                "CX2I5UDKjjaEJfxbgVgJIXxtQGlmj2xkO5sPpjULQV4X2HlY7FQleJ4QRaJIB4buhCA4vUTF",
                "eMFlxCIYUpTCsal2qsmnGOWa8WCcefrohMjDj1fjzSvSaQwlpyR1GZHF2uPOoQagiCpHpm",
            )
        );
    }

    #[test]
    fn hash64_seed_changes_every_size_class() {
        for len in [
            0usize, 1, 3, 4, 8, 9, 16, 17, 128, 129, 240, 241, 1024, 1100, 3000,
        ] {
            let data: Vec<u8> = (0..len).map(|i| (i * 7 + 1) as u8).collect();
            assert_eq!(hash64_with_seed(&data, 0), hash64(&data));
            assert_ne!(hash64_with_seed(&data, 1), hash64(&data), "len {len}");
        }
    }

    // Vectors from RocksDB v7.8.3 util/hash_test.cc (HashTest.Values, seed of BloomHash).
    #[test]
    fn hash32_matches_rocksdb_values() {
        let cases: &[(&[u8], u32)] = &[
            (b"", 3164544308),
            (b"\x08", 422599524),
            (b"\x17", 3168152998),
            (b"\x9a", 3195034349),
            (b"\x1c", 2651681383),
            (b"\x4d\x76", 2447836956),
            (b"\x52\xd5", 3854228105),
            (b"\x91\xf7", 31066776),
            (b"\xd6\x27", 1806091603),
            (b"\x30\x46\x0b", 3808221797),
            (b"\x56\xdc\xd6", 2157698265),
            (b"\xd4\x52\x33", 1721992661),
            (b"\x6a\xb5\xf4", 2469105222),
            (b"\x67\x53\x81\x1c", 118283265),
            (b"\x69\xb8\xc0\x88", 3416318611),
            (b"\x1e\x84\xaf\x2d", 3315003572),
            (b"\x46\xdc\x54\xbe", 447346355),
            (b"\xd0\x7a\x6e\xea\x56", 4255445370),
            (b"\x86\x83\xd5\xa4\xd8", 2390603402),
            (b"\xb7\x46\xbb\x77\xce", 2048907743),
            (b"\x6c\xa8\xbc\xe5\x99", 2177978500),
            (b"\x5c\x5e\xe1\xa0\x73\x81", 1036846008),
            (b"\x08\x5d\x73\x1c\xe5\x2e", 229980482),
            (b"\x42\xfb\xf2\x52\xb4\x10", 3655585422),
            (b"\x73\xe1\xff\x56\x9c\xce", 3502708029),
            (b"\x5c\xbe\x97\x75\x54\x9a\x52", 815120748),
            (b"\x16\x82\x39\x49\x88\x2b\x36", 3056033698),
            (b"\x59\x77\xf0\xa7\x24\xf4\x78", 587205227),
            (b"\xd3\xa5\x7c\x0e\xc0\x02\x07", 2030937252),
            (b"\x31\x1b\x98\x75\x96\x22\xd3\x9a", 469635402),
            (b"\x38\xd6\xf7\x28\x20\xb4\x8a\xe9", 3530274698),
            (b"\xbb\x18\x5d\xf4\x12\x03\xf7\x99", 1974545809),
            (b"\x80\xd4\x3b\x3b\xae\x22\xa2\x78", 3563570120),
            (b"\x1a\xb5\xd0\xfe\xab\xc3\x61\xb2\x99", 2706087434),
            (b"\x8e\x4a\xc3\x18\x20\x2f\x06\xe6\x3c", 1534654151),
            (b"\xb6\xc0\xdd\x05\x3f\xc4\x86\x4c\xef", 2355554696),
            (b"\x9a\x5f\x78\x0d\xaf\x50\xe1\x1f\x55", 1400800912),
            (b"\x22\x6f\x39\x1f\xf8\xdd\x4f\x52\x17\x94", 3420325137),
            (b"\x32\x89\x2a\x75\x48\x3a\x4a\x02\x69\xdd", 3427803584),
            (b"\x06\x92\x5c\xf4\x88\x0e\x7e\x68\x38\x3e", 1152407945),
            (b"\xbd\x2c\x63\x38\xbf\xe9\x78\xb7\xbf\x15", 3382479516),
        ];
        for (input, want) in cases {
            assert_eq!(
                hash32(input, LEGACY_BLOOM_SEED),
                *want,
                "input {input:02x?}"
            );
        }
    }
}
