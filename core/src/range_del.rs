// SPDX-License-Identifier: Apache-2.0
//! Range tombstones: `delete_range(start, end)` deletes every key in `[start, end)` written
//! with a lower sequence number.
//!
//! (The fragmented read-side structure is to be written.)

use crate::key::SequenceNumber;

/// One `delete_range` as stored: user keys `[start, end)` deleted at `seq`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RangeTombstone {
    pub start: Vec<u8>,
    pub end: Vec<u8>,
    pub seq: SequenceNumber,
}
