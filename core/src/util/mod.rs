// SPDX-License-Identifier: Apache-2.0
//! Small shared pieces: integer coding, masked crc32c, seeded randomness, the write pacer,
//! huge-page word buffers, software prefetch, XXH3 with a vectorised long path.

pub mod coding;
pub mod crc;
pub mod huge_pages;
pub(crate) mod prefetch;
pub mod rate_limiter;
pub mod xxh3;
