// SPDX-License-Identifier: Apache-2.0
//! Code written by `cargo x gen-stubs`; never edited by hand.

pub mod stubs;
