// SPDX-License-Identifier: Apache-2.0
//! Block-based tables (SST files). Placeholder from the filter branch; the table-format
//! branch owns this file.

pub mod filter;
