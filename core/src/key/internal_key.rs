// SPDX-License-Identifier: Apache-2.0
//! Internal key encoding: user key, then an 8-byte little-endian trailer holding
//! `(sequence << 8) | value_type` (`db/dbformat.h`). Shared by memtables, WAL replay,
//! tables and the MANIFEST.

use crate::error::{Error, Result};
use crate::util::coding::decode_fixed64;

/// A RocksDB sequence number; only the low 56 bits are used.
pub type SequenceNumber = u64;

/// The largest sequence number: 2^56 - 1.
pub const MAX_SEQUENCE_NUMBER: SequenceNumber = (1 << 56) - 1;

/// Entry types stored in memtables and tables, with RocksDB's codes (`db/dbformat.h`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum ValueType {
    Deletion = 0x00,
    Value = 0x01,
    Merge = 0x02,
    SingleDeletion = 0x07,
    RangeDeletion = 0x0F,
    BlobIndex = 0x11,
    DeletionWithTimestamp = 0x14,
    WideColumnEntity = 0x16,
}

/// The type used in seek keys: the highest type a key can carry in 7.8.3, so a seek key for
/// `(user_key, seq)` sorts before every entry with that user key and sequence.
pub const VALUE_TYPE_FOR_SEEK: ValueType = ValueType::WideColumnEntity;

impl ValueType {
    /// Decodes a type byte, or `None` for a code that never appears in an internal key.
    pub fn from_u8(b: u8) -> Option<ValueType> {
        Some(match b {
            0x00 => ValueType::Deletion,
            0x01 => ValueType::Value,
            0x02 => ValueType::Merge,
            0x07 => ValueType::SingleDeletion,
            0x0F => ValueType::RangeDeletion,
            0x11 => ValueType::BlobIndex,
            0x14 => ValueType::DeletionWithTimestamp,
            0x16 => ValueType::WideColumnEntity,
            _ => return None,
        })
    }
}

pub fn pack_seq_and_type(seq: SequenceNumber, t: ValueType) -> u64 {
    debug_assert!(seq <= MAX_SEQUENCE_NUMBER);
    (seq << 8) | t as u64
}

/// Splits a packed trailer into sequence and raw type byte.
pub fn unpack_seq_and_type(packed: u64) -> (SequenceNumber, u8) {
    (packed >> 8, (packed & 0xff) as u8)
}

/// Appends `user_key ++ trailer(seq, t)` to `dst`.
pub fn append_internal_key(dst: &mut Vec<u8>, user_key: &[u8], seq: SequenceNumber, t: ValueType) {
    dst.extend_from_slice(user_key);
    dst.extend_from_slice(&pack_seq_and_type(seq, t).to_le_bytes());
}

/// A borrowed view of a decoded internal key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParsedInternalKey<'a> {
    pub user_key: &'a [u8],
    pub sequence: SequenceNumber,
    pub value_type: ValueType,
}

/// Splits an internal key, failing with Corruption on a short key or an unknown type.
pub fn parse_internal_key(ikey: &[u8]) -> Result<ParsedInternalKey<'_>> {
    if ikey.len() < 8 {
        return Err(Error::corruption(format!(
            "Corrupted Key: Internal Key too small. Size={}. ",
            ikey.len()
        )));
    }
    let (user_key, trailer) = ikey.split_at(ikey.len() - 8);
    let (sequence, t) = unpack_seq_and_type(decode_fixed64(trailer));
    let value_type = ValueType::from_u8(t)
        .ok_or_else(|| Error::corruption(format!("Corrupted Key: unknown value type {t}")))?;
    Ok(ParsedInternalKey {
        user_key,
        sequence,
        value_type,
    })
}

/// The user-key part of an internal key (everything but the 8-byte trailer).
pub fn user_key(ikey: &[u8]) -> &[u8] {
    &ikey[..ikey.len().saturating_sub(8)]
}

/// The packed trailer of an internal key, or 0 for a key shorter than 8 bytes.
pub fn trailer(ikey: &[u8]) -> u64 {
    if ikey.len() < 8 {
        return 0;
    }
    decode_fixed64(&ikey[ikey.len() - 8..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let mut k = Vec::new();
        append_internal_key(&mut k, b"abc", 42, ValueType::Merge);
        let p = parse_internal_key(&k).expect("valid key");
        assert_eq!(p.user_key, b"abc");
        assert_eq!(p.sequence, 42);
        assert_eq!(p.value_type, ValueType::Merge);
        assert_eq!(user_key(&k), b"abc");
        assert_eq!(&k[3..], &((42u64 << 8) | 2).to_le_bytes());
    }

    #[test]
    fn rejects_short_and_unknown() {
        assert!(parse_internal_key(b"abc").is_err());
        let mut k = b"k".to_vec();
        k.extend_from_slice(&((1u64 << 8) | 0x33).to_le_bytes());
        assert!(parse_internal_key(&k).is_err());
    }
}
