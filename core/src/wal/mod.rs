// SPDX-License-Identifier: Apache-2.0
//! RocksDB's log file format, used by the WAL (write path, recovery) and the MANIFEST
//! (metadata): logical records cut into checksummed physical records inside 32 KiB blocks.
//!
//! - [`format`]: block size, header sizes, record types, the physical record encoding.
//! - [`writer`]: [`LogWriter`], fragmenting records, one file append per record.
//! - [`reader`]: [`LogReader`], reassembling records and applying a [`WalRecoveryMode`].
//! - [`predecessor`]: the record that opens a WAL started at a memtable switch, naming the
//!   WAL before it and that WAL's length, by which recovery finds a lost unsynced tail.
//!
//! The byte layout and the per-mode behaviour are written down in `docs/format/wal.md`.

pub mod format;
pub mod predecessor;
pub mod reader;
pub mod writer;

pub use format::{RecordType, BLOCK_SIZE, HEADER_SIZE, RECYCLABLE_HEADER_SIZE};
pub use reader::{LogReader, ReadOutcome, WalRecoveryMode};
pub use writer::LogWriter;

#[cfg(test)]
mod corruption_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod testutil;
