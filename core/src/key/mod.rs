// SPDX-License-Identifier: Apache-2.0
//! Keys: sequence numbers, value types, internal keys and comparators.
//!
//! An internal key is `user_key ++ fixed64((seq << 8) | type)`; it orders by user key
//! ascending (user comparator), then by the packed trailer descending, so the newest entry
//! for a user key comes first (`db/dbformat.h`).

pub mod comparator;
pub mod internal_key;

pub use comparator::{BytewiseComparator, Comparator, InternalKeyComparator};
pub use internal_key::{
    append_internal_key, pack_seq_and_type, parse_internal_key, unpack_seq_and_type,
    ParsedInternalKey, SequenceNumber, ValueType, MAX_SEQUENCE_NUMBER, VALUE_TYPE_FOR_SEEK,
};
