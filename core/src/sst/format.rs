// SPDX-License-Identifier: Apache-2.0
//! The fixed framing of a block-based table: block handles, the 5-byte block trailer with its
//! checksum, and the footer at the end of the file. Used on the write path (table builder,
//! background) and the read path (table open, every block read).
//!
//! Grammar (see docs/format/sst.md for the sources each fact was checked against):
//!
//! ```text
//! block_handle   := offset:varint64 size:varint64            (size excludes the trailer)
//! block_trailer  := compression_type:u8 checksum:fixed32     (checksum covers block ++ type)
//! footer (fv 0)  := handles_padded[40] legacy_magic:fixed64                    (48 bytes)
//! footer (1..5)  := checksum_type:u8 handles_padded[40] format_version:fixed32 magic:fixed64
//! footer (6, 7)  := checksum_type:u8 3e 00 7a 00 footer_checksum:fixed32
//!                   base_context_checksum:fixed32 metaindex_size:fixed32 zero[24]
//!                   format_version:fixed32 magic:fixed64                       (53 bytes)
//! handles_padded := metaindex:block_handle index:block_handle zero*
//! ```
//!
//! From format_version 6 on, every stored block checksum (and the footer checksum) has
//! `base_context_checksum ^ (lo32(offset) + hi32(offset))` added to it, so a block copied to
//! another offset or file fails verification.

use crate::error::{Error, Result};
use crate::util::coding::{put_varint64, Decoder};
use crate::util::crc;

/// Magic number of block-based tables with format_version >= 1 (`kBlockBasedTableMagicNumber`).
pub const BLOCK_BASED_TABLE_MAGIC: u64 = 0x88e2_41b7_85f4_cff7;
/// Magic number of format_version 0 block-based tables (`kLegacyBlockBasedTableMagicNumber`).
pub const LEGACY_BLOCK_BASED_TABLE_MAGIC: u64 = 0xdb47_7524_8b80_fb57;
/// Plain-table magic numbers, recognised only to report a precise error.
pub const PLAIN_TABLE_MAGIC: u64 = 0x8242_2296_63bf_9564;
pub const LEGACY_PLAIN_TABLE_MAGIC: u64 = 0x4f34_18eb_7a8f_13b8;
pub const CUCKOO_TABLE_MAGIC: u64 = 0x9267_89d0_c5f1_7873;

/// Bytes after every block: compression type and checksum.
pub const BLOCK_TRAILER_SIZE: usize = 5;
/// A varint64 takes at most 10 bytes, so a handle at most 20.
pub const MAX_BLOCK_HANDLE_LEN: usize = 20;
/// Footer of format_version 0 (legacy magic).
pub const LEGACY_FOOTER_LEN: usize = 48;
/// Footer of every later format_version.
pub const FOOTER_LEN: usize = 53;
/// The 4 bytes that open part 2 of a format_version >= 6 footer.
pub const EXTENDED_MAGIC: [u8; 4] = [0x3e, 0x00, 0x7a, 0x00];
/// The newest format_version this reader understands.
pub const MAX_READ_FORMAT_VERSION: u32 = 7;

/// Position and length (without trailer) of a block in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BlockHandle {
    pub offset: u64,
    pub size: u64,
}

impl BlockHandle {
    pub fn new(offset: u64, size: u64) -> Self {
        BlockHandle { offset, size }
    }

    pub fn encode_to(&self, dst: &mut Vec<u8>) {
        put_varint64(dst, self.offset);
        put_varint64(dst, self.size);
    }

    pub fn encoded(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(MAX_BLOCK_HANDLE_LEN);
        self.encode_to(&mut v);
        v
    }

    /// Reads a handle from the front of `d`.
    #[inline]
    pub fn decode_from(d: &mut Decoder<'_>) -> Result<BlockHandle> {
        let offset = d.varint64();
        let size = d.varint64();
        match (offset, size) {
            (Some(offset), Some(size)) => Ok(BlockHandle { offset, size }),
            _ => Err(Error::corruption("bad block handle")),
        }
    }

    /// Decodes a handle that must fill `bytes` exactly or be followed by ignorable bytes.
    pub fn decode(bytes: &[u8]) -> Result<BlockHandle> {
        Self::decode_from(&mut Decoder::new(bytes))
    }

    /// Offset one past the block's trailer.
    pub fn end_with_trailer(&self) -> u64 {
        self.offset
            .saturating_add(self.size)
            .saturating_add(BLOCK_TRAILER_SIZE as u64)
    }
}

/// How block contents are checksummed (`ChecksumType`, the footer's first byte).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum ChecksumType {
    NoChecksum = 0,
    Crc32c = 1,
    XxHash = 2,
    XxHash64 = 3,
    Xxh3 = 4,
}

impl Default for ChecksumType {
    /// RocksDB 7.8.3 and 11.1.2 both default to XXH3.
    fn default() -> Self {
        ChecksumType::Xxh3
    }
}

impl ChecksumType {
    pub fn from_u8(b: u8) -> Option<ChecksumType> {
        Some(match b {
            0 => ChecksumType::NoChecksum,
            1 => ChecksumType::Crc32c,
            2 => ChecksumType::XxHash,
            3 => ChecksumType::XxHash64,
            4 => ChecksumType::Xxh3,
            _ => return None,
        })
    }

    /// The name RocksDB's options use (`kCRC32c`, `kxxHash`, ...).
    pub fn name(self) -> &'static str {
        match self {
            ChecksumType::NoChecksum => "kNoChecksum",
            ChecksumType::Crc32c => "kCRC32c",
            ChecksumType::XxHash => "kxxHash",
            ChecksumType::XxHash64 => "kxxHash64",
            ChecksumType::Xxh3 => "kXXH3",
        }
    }
}

/// Multiplier that mixes the last byte into an XXH3 block checksum (`ModifyChecksumForLastByte`).
const XXH3_LAST_BYTE_PRIME: u32 = 0x6b90_83d9;

/// The checksum of `data ++ [last_byte]` as RocksDB's `ComputeBuiltinChecksumWithLastByte`
/// computes it (no context modifier). For blocks, `last_byte` is the compression type.
pub fn checksum_with_last_byte(t: ChecksumType, data: &[u8], last_byte: u8) -> u32 {
    match t {
        ChecksumType::NoChecksum => 0,
        ChecksumType::Crc32c => crc::mask(crc::extend(crc::value(data), &[last_byte])),
        ChecksumType::XxHash => {
            let mut h = xxhash_rust::xxh32::Xxh32::new(0);
            h.update(data);
            h.update(&[last_byte]);
            h.digest()
        }
        ChecksumType::XxHash64 => {
            let mut h = xxhash_rust::xxh64::Xxh64::new(0);
            h.update(data);
            h.update(&[last_byte]);
            h.digest() as u32
        }
        ChecksumType::Xxh3 => {
            let v = crate::util::xxh3::xxh3_64(data) as u32;
            v ^ u32::from(last_byte).wrapping_mul(XXH3_LAST_BYTE_PRIME)
        }
    }
}

/// The checksum of a whole buffer (`ComputeBuiltinChecksum`); for XXH3 the buffer's last byte
/// is mixed in separately, and an empty buffer hashes to 0.
pub fn checksum_of(t: ChecksumType, data: &[u8]) -> u32 {
    match data.split_last() {
        Some((&last, head)) => checksum_with_last_byte(t, head, last),
        None => match t {
            ChecksumType::NoChecksum | ChecksumType::Xxh3 => 0,
            ChecksumType::Crc32c => crc::mask(crc::value(&[])),
            ChecksumType::XxHash => xxhash_rust::xxh32::xxh32(&[], 0),
            ChecksumType::XxHash64 => xxhash_rust::xxh64::xxh64(&[], 0) as u32,
        },
    }
}

/// The value added to a stored checksum at `offset` in a format_version >= 6 file
/// (`ChecksumModifierForContext`); 0 when `base` is 0 (older versions).
pub fn context_modifier(base: u32, offset: u64) -> u32 {
    if base == 0 {
        return 0;
    }
    base ^ (offset as u32).wrapping_add((offset >> 32) as u32)
}

/// Builds the trailer for `contents` stored with compression byte `ctype` at `offset`.
pub fn block_trailer(
    t: ChecksumType,
    contents: &[u8],
    ctype: u8,
    base_context: u32,
    offset: u64,
) -> [u8; BLOCK_TRAILER_SIZE] {
    let sum = checksum_with_last_byte(t, contents, ctype)
        .wrapping_add(context_modifier(base_context, offset));
    let mut out = [0u8; BLOCK_TRAILER_SIZE];
    out[0] = ctype;
    out[1..].copy_from_slice(&sum.to_le_bytes());
    out
}

/// Checks the trailer that follows `contents` (which were read at `offset`). `raw` must hold the
/// block and its trailer.
pub fn verify_block(t: ChecksumType, raw: &[u8], base_context: u32, offset: u64) -> Result<()> {
    if raw.len() < BLOCK_TRAILER_SIZE {
        return Err(Error::corruption("truncated block read"));
    }
    if t == ChecksumType::NoChecksum {
        return Ok(());
    }
    let n = raw.len() - BLOCK_TRAILER_SIZE;
    let (contents, trailer) = raw.split_at(n);
    let ctype = trailer[0];
    let stored = u32::from_le_bytes([trailer[1], trailer[2], trailer[3], trailer[4]])
        .wrapping_sub(context_modifier(base_context, offset));
    let computed = checksum_with_last_byte(t, contents, ctype);
    if stored == computed {
        return Ok(());
    }
    let (s, c) = if t == ChecksumType::Crc32c {
        (crc::unmask(stored), crc::unmask(computed))
    } else {
        (stored, computed)
    };
    Err(Error::corruption(format!(
        "block checksum mismatch: stored = {s}, computed = {c}, type = {}  offset {offset} size {n}",
        t as u8
    )))
}

/// The decoded footer of a block-based table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Footer {
    pub format_version: u32,
    pub checksum_type: ChecksumType,
    pub metaindex_handle: BlockHandle,
    /// Absent (`None`) from format_version 6 on: the index is then named `rocksdb.index` in the
    /// metaindex.
    pub index_handle: Option<BlockHandle>,
    /// Non-zero exactly when format_version >= 6.
    pub base_context_checksum: u32,
}

impl Footer {
    /// Encodes a footer that starts at file offset `footer_offset`. Writes format_version 1..=7;
    /// for >= 6, `metaindex_handle` must end (with its trailer) at `footer_offset`.
    pub fn encode(&self, footer_offset: u64) -> Result<Vec<u8>> {
        let fv = self.format_version;
        if fv == 0 || fv > MAX_READ_FORMAT_VERSION {
            return Err(Error::invalid_argument(format!(
                "cannot write format_version {fv}"
            )));
        }
        let mut out = Vec::with_capacity(FOOTER_LEN);
        out.push(self.checksum_type as u8);
        if fv >= 6 {
            if self.base_context_checksum == 0 {
                return Err(Error::invalid_argument(
                    "format_version >= 6 needs a non-zero base context checksum",
                ));
            }
            let size = u32::try_from(self.metaindex_handle.size)
                .map_err(|_| Error::not_supported("Metaindex block size > 4GB"))?;
            out.extend_from_slice(&EXTENDED_MAGIC);
            out.extend_from_slice(&[0; 4]);
            out.extend_from_slice(&self.base_context_checksum.to_le_bytes());
            out.extend_from_slice(&size.to_le_bytes());
            out.resize(1 + 40, 0);
        } else {
            self.metaindex_handle.encode_to(&mut out);
            self.index_handle.unwrap_or_default().encode_to(&mut out);
            out.resize(1 + 40, 0);
        }
        out.extend_from_slice(&fv.to_le_bytes());
        out.extend_from_slice(&BLOCK_BASED_TABLE_MAGIC.to_le_bytes());
        if fv >= 6 && self.checksum_type != ChecksumType::NoChecksum {
            let sum = checksum_of(self.checksum_type, &out)
                .wrapping_add(context_modifier(self.base_context_checksum, footer_offset));
            out[5..9].copy_from_slice(&sum.to_le_bytes());
        }
        Ok(out)
    }

    /// Decodes the footer from `tail`, the last `min(53, file_size)` bytes of a file of
    /// `file_size` bytes.
    pub fn decode(tail: &[u8], file_size: u64) -> Result<Footer> {
        if tail.len() < LEGACY_FOOTER_LEN {
            return Err(Error::corruption(format!(
                "file is too short ({file_size} bytes) to be an sstable"
            )));
        }
        let n = tail.len();
        let mut magic_bytes = [0u8; 8];
        magic_bytes.copy_from_slice(&tail[n - 8..]);
        let magic = u64::from_le_bytes(magic_bytes);
        if magic == LEGACY_BLOCK_BASED_TABLE_MAGIC {
            let part2 = &tail[n - LEGACY_FOOTER_LEN..n - 8];
            let mut d = Decoder::new(part2);
            let metaindex_handle = BlockHandle::decode_from(&mut d)?;
            let index_handle = BlockHandle::decode_from(&mut d)?;
            return Ok(Footer {
                format_version: 0,
                checksum_type: ChecksumType::Crc32c,
                metaindex_handle,
                index_handle: Some(index_handle),
                base_context_checksum: 0,
            });
        }
        if magic != BLOCK_BASED_TABLE_MAGIC {
            let what = match magic {
                PLAIN_TABLE_MAGIC | LEGACY_PLAIN_TABLE_MAGIC => "a plain table",
                CUCKOO_TABLE_MAGIC => "a cuckoo table",
                _ => "",
            };
            if !what.is_empty() {
                return Err(Error::not_supported(format!(
                    "file is {what}; only block-based tables are supported"
                )));
            }
            return Err(Error::corruption(format!(
                "Bad table magic number: expected {BLOCK_BASED_TABLE_MAGIC}, found {magic}"
            )));
        }
        let fv = u32::from_le_bytes([tail[n - 12], tail[n - 11], tail[n - 10], tail[n - 9]]);
        if fv == 0 || fv > MAX_READ_FORMAT_VERSION {
            return Err(Error::corruption(format!(
                "Corrupt or unsupported format_version: {fv}"
            )));
        }
        if n < FOOTER_LEN {
            return Err(Error::corruption("Input is too short to be an SST file"));
        }
        let footer = &tail[n - FOOTER_LEN..];
        let footer_offset = file_size.saturating_sub(FOOTER_LEN as u64);
        let checksum_type = ChecksumType::from_u8(footer[0]).ok_or_else(|| {
            Error::corruption(format!(
                "Corrupt or unsupported checksum type: {}",
                footer[0]
            ))
        })?;
        if fv >= 6 {
            if footer[1..5] != EXTENDED_MAGIC {
                return Err(Error::corruption(format!(
                    "Bad extended magic number: 0x{}",
                    hex(&footer[1..5])
                )));
            }
            let stored = u32::from_le_bytes([footer[5], footer[6], footer[7], footer[8]]);
            let base = u32::from_le_bytes([footer[9], footer[10], footer[11], footer[12]]);
            if context_modifier(base, 0) == 0 {
                return Err(Error::corruption("Invalid base context checksum"));
            }
            if checksum_type != ChecksumType::NoChecksum {
                let mut copy = footer.to_vec();
                copy[5..9].fill(0);
                let computed = checksum_of(checksum_type, &copy)
                    .wrapping_add(context_modifier(base, footer_offset));
                if computed != stored {
                    return Err(Error::corruption(format!(
                        "Footer at {footer_offset} checksum mismatch"
                    )));
                }
            }
            let meta_size = u64::from(u32::from_le_bytes([
                footer[13], footer[14], footer[15], footer[16],
            ]));
            if footer[33..41].iter().any(|&b| b != 0) {
                return Err(Error::not_supported(
                    "File uses a future feature not supported in this version",
                ));
            }
            let meta_end = footer_offset
                .checked_sub(BLOCK_TRAILER_SIZE as u64)
                .and_then(|e| e.checked_sub(meta_size))
                .ok_or_else(|| Error::corruption("metaindex block does not fit in the file"))?;
            return Ok(Footer {
                format_version: fv,
                checksum_type,
                metaindex_handle: BlockHandle::new(meta_end, meta_size),
                index_handle: None,
                base_context_checksum: base,
            });
        }
        let mut d = Decoder::new(&footer[1..41]);
        let metaindex_handle = BlockHandle::decode_from(&mut d)?;
        let index_handle = BlockHandle::decode_from(&mut d)?;
        Ok(Footer {
            format_version: fv,
            checksum_type,
            metaindex_handle,
            index_handle: Some(index_handle),
            base_context_checksum: 0,
        })
    }
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02X}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handle_round_trip_and_truncation() {
        let h = BlockHandle::new(1 << 40, 4096);
        let enc = h.encoded();
        assert_eq!(BlockHandle::decode(&enc).expect("valid handle"), h);
        assert!(BlockHandle::decode(&enc[..enc.len() - 1]).is_err());
    }

    #[test]
    fn magic_is_little_endian_on_disk() {
        assert_eq!(
            BLOCK_BASED_TABLE_MAGIC.to_le_bytes(),
            [0xf7, 0xcf, 0xf4, 0x85, 0xb7, 0x41, 0xe2, 0x88]
        );
    }

    #[test]
    fn xxh3_mixes_type_byte_and_empty_is_zero() {
        let data = b"hello block";
        let plain = xxhash_rust::xxh3::xxh3_64(data) as u32;
        assert_eq!(checksum_with_last_byte(ChecksumType::Xxh3, data, 0), plain);
        assert_eq!(
            checksum_with_last_byte(ChecksumType::Xxh3, data, 1),
            plain ^ 0x6b90_83d9
        );
        assert_eq!(checksum_of(ChecksumType::Xxh3, &[]), 0);
        let mut whole = data.to_vec();
        whole.push(1);
        assert_eq!(
            checksum_of(ChecksumType::Xxh3, &whole),
            checksum_with_last_byte(ChecksumType::Xxh3, data, 1)
        );
    }

    #[test]
    fn crc32c_covers_type_byte_and_is_masked() {
        let data = b"abc";
        let expect = crc::mask(crc::value(b"abc\x01"));
        assert_eq!(
            checksum_with_last_byte(ChecksumType::Crc32c, data, 1),
            expect
        );
    }

    #[test]
    fn trailer_verifies_for_every_type_and_detects_flips() {
        for t in [
            ChecksumType::Crc32c,
            ChecksumType::XxHash,
            ChecksumType::XxHash64,
            ChecksumType::Xxh3,
        ] {
            for base in [0u32, 0x1234_5678] {
                let mut raw = b"some block contents".to_vec();
                raw.extend_from_slice(&block_trailer(t, &raw.clone(), 0, base, 77));
                verify_block(t, &raw, base, 77).expect("intact block verifies");
                if base != 0 {
                    assert!(verify_block(t, &raw, base, 78).is_err(), "{t:?} context");
                }
                raw[3] ^= 0x10;
                let e = verify_block(t, &raw, base, 77).expect_err("flipped bit");
                assert!(e.is_corruption());
            }
        }
    }

    #[test]
    fn footer_v5_round_trip() {
        let f = Footer {
            format_version: 5,
            checksum_type: ChecksumType::Crc32c,
            metaindex_handle: BlockHandle::new(1000, 50),
            index_handle: Some(BlockHandle::new(900, 95)),
            base_context_checksum: 0,
        };
        let enc = f.encode(1055).expect("encodable");
        assert_eq!(enc.len(), FOOTER_LEN);
        assert_eq!(Footer::decode(&enc, 1108).expect("decodes"), f);
    }

    #[test]
    fn footer_v6_checksum_and_implied_metaindex() {
        let f = Footer {
            format_version: 6,
            checksum_type: ChecksumType::Xxh3,
            metaindex_handle: BlockHandle::new(1000, 50),
            index_handle: None,
            base_context_checksum: 0xdead_beef,
        };
        let enc = f.encode(1055).expect("encodable");
        let mut file = vec![0u8; 1055];
        file.extend_from_slice(&enc);
        let got =
            Footer::decode(&file[file.len() - FOOTER_LEN..], file.len() as u64).expect("decodes");
        assert_eq!(got, f);
        let mut bad = enc.clone();
        bad[20] ^= 1;
        assert!(Footer::decode(&bad, 1108).is_err());
    }

    #[test]
    fn footer_rejects_garbage_without_panicking() {
        assert!(Footer::decode(&[0u8; 10], 10).is_err());
        assert!(Footer::decode(&[0xffu8; 53], 53).is_err());
        let mut legacy = vec![0u8; 48];
        legacy[40..].copy_from_slice(&LEGACY_BLOCK_BASED_TABLE_MAGIC.to_le_bytes());
        let f = Footer::decode(&legacy, 48).expect("zero handles decode");
        assert_eq!(f.format_version, 0);
        assert_eq!(f.checksum_type, ChecksumType::Crc32c);
    }
}
