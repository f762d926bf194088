// SPDX-License-Identifier: Apache-2.0
//! Small shared pieces: integer coding, masked crc32c, seeded randomness, the write pacer.

pub mod coding;
pub mod crc;
pub mod rate_limiter;
