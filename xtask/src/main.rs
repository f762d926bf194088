// SPDX-License-Identifier: Apache-2.0
//! Project tasks: `cargo x <task>`.
//!
//! - `gen-stubs [--check]`: regenerate `capi/src/generated/stubs.rs`
//! - `header [--check]`: regenerate `include/rocksdb/c.h` with the pinned cbindgen
//! - `coverage [--check]`: regenerate `docs/api-coverage.md` from the code
//! - `abi-check [--release]`: build libsolistore.so and run every ABI gate (see `abi_check`)
//!
//! `--check` writes nothing and fails when the checked-in file differs from a fresh one.

mod abi_check;
mod callers;
mod coverage;
mod gen_stubs;
mod header;
mod paths;
mod protos;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let check = args.iter().any(|a| a == "--check");
    let result = match args.first().map(String::as_str) {
        Some("gen-stubs") => gen_stubs::run(check),
        Some("header") => header::run(check),
        Some("coverage") => coverage::run(check),
        Some("abi-check") => abi_check::run(args.iter().any(|a| a == "--release")),
        _ => Err(
            "usage: cargo x <gen-stubs|header|coverage> [--check] | abi-check [--release]".into(),
        ),
    };
    if let Err(e) = result {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
