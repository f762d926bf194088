// SPDX-License-Identifier: Apache-2.0
//! Project tasks: `cargo x <task>`.
fn main() {
    eprintln!("usage: cargo x <task>");
    std::process::exit(2);
}
