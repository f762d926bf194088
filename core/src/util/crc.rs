// SPDX-License-Identifier: Apache-2.0
//! crc32c and RocksDB's masking of stored checksums (`util/crc32c.h`).
//!
//! A crc stored next to data that itself contains crcs is masked, so that a crc of a crc is
//! not trivially weak: rotate right by 15 bits, then add `0xa282ead8` (wrapping).

const MASK_DELTA: u32 = 0xa282_ead8;

/// crc32c (Castagnoli) of `data`.
pub fn value(data: &[u8]) -> u32 {
    crc32c::crc32c(data)
}

/// Extends `crc` (a previous `value`/`extend` result) with `data`.
pub fn extend(crc: u32, data: &[u8]) -> u32 {
    crc32c::crc32c_append(crc, data)
}

pub fn mask(crc: u32) -> u32 {
    crc.rotate_right(15).wrapping_add(MASK_DELTA)
}

pub fn unmask(masked: u32) -> u32 {
    masked.wrapping_sub(MASK_DELTA).rotate_left(15)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_vectors() {
        // RFC 3720 B.4: 32 bytes of zeros.
        assert_eq!(value(&[0u8; 32]), 0x8a91_36aa);
        assert_eq!(value(b"123456789"), 0xe306_9283);
        assert_eq!(extend(value(b"1234"), b"56789"), value(b"123456789"));
    }

    #[test]
    fn mask_round_trips_and_changes_value() {
        let c = value(b"foo");
        assert_ne!(mask(c), c);
        assert_ne!(mask(mask(c)), c);
        assert_eq!(unmask(mask(c)), c);
        assert_eq!(unmask(unmask(mask(mask(c)))), c);
    }
}
