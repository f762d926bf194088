// SPDX-License-Identifier: Apache-2.0
//! Versions: the metadata describing which SST files make up each column family (metadata
//! path, used by recovery, flush and compaction).
//!
//! Today this module holds the MANIFEST record codec ([`edit`]); it will also hold the
//! version set (the current `Version` per column family, `log_and_apply` and the MANIFEST
//! writer) and the refcounted read views built on it.

pub mod edit;

pub use edit::{BlobFileAddition, BlobFileGarbage, FileMetaData, VersionEdit};
