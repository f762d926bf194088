// SPDX-License-Identifier: Apache-2.0
//! (to be written)
