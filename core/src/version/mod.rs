// SPDX-License-Identifier: Apache-2.0
//! Versions: the metadata describing which SST files make up each column family (metadata
//! path, used by recovery, flush and compaction).
//!
//! [`edit`] is the MANIFEST record codec; [`set`] is the version set (column families, their
//! files and log numbers, `log_and_apply` and the MANIFEST writer). Per-level `Version`s and
//! the refcounted read views built on them come with tables.

pub mod edit;
pub mod set;
#[expect(
    clippy::module_inception,
    reason = "STYLE.md names the per-level file list `version/version.rs`, as LevelDB does"
)]
pub mod version;

pub use edit::{BlobFileAddition, BlobFileGarbage, FileMetaData, VersionEdit};
