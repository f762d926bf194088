// SPDX-License-Identifier: Apache-2.0
//! The physical layout of RocksDB's log files (WAL and MANIFEST), shared by the writer (write
//! path) and the reader (recovery path). See `docs/format/wal.md`.
//!
//! ```text
//! file           := block* short_block?
//! block          := physical_record* zero_trailer      (exactly BLOCK_SIZE bytes)
//! zero_trailer   := 0x00{0..header_size-1}             (space too small for a header)
//! physical_record:= legacy_header payload | recyclable_header payload
//! legacy_header  := crc:fixed32  length:fixed16  type:u8                 (7 bytes)
//! recyclable_hdr := crc:fixed32  length:fixed16  type:u8  log_number:fixed32  (11 bytes)
//! crc            := mask(crc32c(type [log_number] payload))      length is not covered
//! ```
//!
//! A logical record is one Full physical record, or First Middle* Last. Records never cross a
//! block boundary. Facts checked against RocksDB v7.8.3 `db/log_format.h` and
//! `db/log_writer.cc`.

use crate::util::crc;

/// Size of a log block; physical records never straddle two blocks.
pub const BLOCK_SIZE: usize = 32768;
/// Legacy header: checksum (4), length (2), type (1).
pub const HEADER_SIZE: usize = 7;
/// Recyclable header: the legacy header plus the low 32 bits of the log number.
pub const RECYCLABLE_HEADER_SIZE: usize = 11;

/// The type byte of a physical record (`db/log_format.h`, v7.8.3 knows 0 to 9).
#[repr(u8)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RecordType {
    /// Reserved: preallocated (zeroed) file space.
    Zero = 0,
    Full = 1,
    First = 2,
    Middle = 3,
    Last = 4,
    RecyclableFull = 5,
    RecyclableFirst = 6,
    RecyclableMiddle = 7,
    RecyclableLast = 8,
    /// WAL compression marker (7-byte header, payload fixed32 compression type).
    SetCompression = 9,
}

impl RecordType {
    /// The type for `byte`, or `None` for a value RocksDB 7.8.3 does not know.
    pub fn from_u8(byte: u8) -> Option<Self> {
        Some(match byte {
            0 => Self::Zero,
            1 => Self::Full,
            2 => Self::First,
            3 => Self::Middle,
            4 => Self::Last,
            5 => Self::RecyclableFull,
            6 => Self::RecyclableFirst,
            7 => Self::RecyclableMiddle,
            8 => Self::RecyclableLast,
            9 => Self::SetCompression,
            _ => return None,
        })
    }

    /// Whether records of this type carry the 11-byte header with a log number.
    pub fn is_recyclable(self) -> bool {
        is_recyclable_type(self as u8)
    }

    /// The header size that records of this type use.
    pub fn header_size(self) -> usize {
        if self.is_recyclable() {
            RECYCLABLE_HEADER_SIZE
        } else {
            HEADER_SIZE
        }
    }
}

/// Whether the raw type byte `t` is one of the recyclable kinds (5 to 8).
pub fn is_recyclable_type(t: u8) -> bool {
    (RecordType::RecyclableFull as u8..=RecordType::RecyclableLast as u8).contains(&t)
}

/// RocksDB 11.1.2: an unknown record type with this bit set may be skipped silently
/// (`kRecordTypeSafeIgnoreMask`, used by 130/131, the predecessor-WAL-info records).
pub const RECORD_TYPE_SAFE_IGNORE_MASK: u8 = 0x80;

/// Whether a reader must parse an 11-byte header for the raw type byte `t`: the recyclable
/// kinds 5 to 8, plus 11.1.2's recyclable timestamp-size (11) and predecessor-info (131)
/// records, so that those are at least framed correctly.
pub fn uses_recyclable_header(t: u8) -> bool {
    is_recyclable_type(t) || t == 11 || t == 131
}

/// The masked checksum stored in a header: crc32c over the type byte, the log number bytes
/// (`log_number` is `Some` only for recyclable types) and the payload.
pub fn record_checksum(t: u8, log_number: Option<u32>, payload: &[u8]) -> u32 {
    let mut c = crc::value(&[t]);
    if let Some(n) = log_number {
        c = crc::extend(c, &n.to_le_bytes());
    }
    crc::mask(crc::extend(c, payload))
}

/// The crc32c of a physical record's type byte (and, for recyclable types, its log number),
/// to be extended over the payload and masked.
pub fn record_crc_seed(t: RecordType, log_number: u64) -> u32 {
    let c = crc::value(&[t as u8]);
    if t.is_recyclable() {
        // Only the low 32 bits of the log number are stored (`db/log_writer.cc`).
        crc::extend(c, &(log_number as u32).to_le_bytes())
    } else {
        c
    }
}

/// Appends a physical record's header for a payload of `len` bytes, with a zero checksum
/// that the caller overwrites (bytes 0..4) once it has the payload's crc.
///
/// # Panics
/// If `len` is over 65535; fragments are bounded by `BLOCK_SIZE`, so the writer never asks.
pub fn encode_physical_header(dst: &mut Vec<u8>, t: RecordType, log_number: u64, len: usize) {
    let len = u16::try_from(len).expect("a fragment is expected to fit in one block");
    dst.extend_from_slice(&[0; 4]);
    dst.extend_from_slice(&len.to_le_bytes());
    dst.push(t as u8);
    if t.is_recyclable() {
        dst.extend_from_slice(&(log_number as u32).to_le_bytes());
    }
}

/// Appends one physical record (header then payload) to `dst`.
///
/// # Panics
/// If `payload` is longer than 65535 bytes; fragments are bounded by `BLOCK_SIZE`, so the
/// writer never produces one.
pub fn encode_physical_record(dst: &mut Vec<u8>, t: RecordType, log_number: u64, payload: &[u8]) {
    let len = u16::try_from(payload.len()).expect("a fragment is expected to fit in one block");
    // Only the low 32 bits of the log number are stored (`db/log_writer.cc`).
    let lognum = t.is_recyclable().then_some(log_number as u32);
    dst.extend_from_slice(&record_checksum(t as u8, lognum, payload).to_le_bytes());
    dst.extend_from_slice(&len.to_le_bytes());
    dst.push(t as u8);
    if let Some(n) = lognum {
        dst.extend_from_slice(&n.to_le_bytes());
    }
    dst.extend_from_slice(payload);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_bytes_round_trip() {
        for b in 0..=9u8 {
            let t = RecordType::from_u8(b).expect("0..=9 are known types");
            assert_eq!(t as u8, b);
            assert_eq!(t.is_recyclable(), (5..=8).contains(&b));
        }
        assert_eq!(RecordType::from_u8(10), None);
        assert_eq!(RecordType::from_u8(255), None);
    }

    #[test]
    fn legacy_header_layout() {
        let mut buf = Vec::new();
        encode_physical_record(&mut buf, RecordType::Full, 77, b"abc");
        assert_eq!(buf.len(), HEADER_SIZE + 3);
        assert_eq!(&buf[4..7], &[3, 0, 1]);
        let stored = u32::from_le_bytes([buf[0], buf[1], buf[2], buf[3]]);
        assert_eq!(crc::unmask(stored), crc::value(&[1, b'a', b'b', b'c']));
        assert_eq!(&buf[7..], b"abc");
    }

    #[test]
    fn recyclable_header_layout_covers_log_number() {
        let mut buf = Vec::new();
        let lognum = 0x1_0000_0005u64; // only the low 32 bits are stored
        encode_physical_record(&mut buf, RecordType::RecyclableFull, lognum, b"xy");
        assert_eq!(buf.len(), RECYCLABLE_HEADER_SIZE + 2);
        assert_eq!(&buf[4..11], &[2, 0, 5, 5, 0, 0, 0]);
        let stored = u32::from_le_bytes([buf[0], buf[1], buf[2], buf[3]]);
        assert_eq!(
            crc::unmask(stored),
            crc::value(&[5, 5, 0, 0, 0, b'x', b'y'])
        );
    }
}
