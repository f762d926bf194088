// SPDX-License-Identifier: Apache-2.0
//! `cargo x coverage [--check]`: writes `docs/api-coverage.md` from the code, classifying
//! every exported `rocksdb_*` function:
//! - not implemented: a stub in `generated/stubs.rs`, or a hand-written function whose doc
//!   comment carries the marker line `/// solistore: not implemented`;
//! - stores value only: a hand-written function marked `/// solistore: stores value only`
//!   (a setter whose value is kept and returned by its getter but not yet acted on);
//! - implemented: every other hand-written function.
//!
//! Each function's row names the test files that call it (`callers`). An implemented
//! function must have one: "a function counts as implemented only if a test calls it"
//! (issue 4), so `--check` also fails while any implemented function has no caller.
//!
//! Exported `solistore_*` extensions (`capi/src/solistore_ext.rs`) are listed in a section of
//! their own, outside the counts.

use std::collections::BTreeMap;
use std::path::Path;

use crate::{callers, paths};

pub const COVERAGE: &str = "docs/api-coverage.md";
pub const MARK_STORES: &str = "solistore: stores value only";
pub const MARK_NOT_IMPL: &str = "solistore: not implemented";

/// Exports of our own beside RocksDB's API (`capi/src/solistore_ext.rs`).
pub const EXTENSION_PREFIX: &str = "solistore_";

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    Implemented,
    StoresValueOnly,
    NotImplemented,
    /// A `solistore_*` function: not part of RocksDB's API, listed apart.
    Extension,
}

impl Status {
    fn label(self) -> &'static str {
        match self {
            Status::Implemented => "implemented",
            Status::StoresValueOnly => "stores value only",
            Status::NotImplemented => "not implemented",
            Status::Extension => "solistore extensions",
        }
    }
}

/// Exported functions found in the sources under `dir`: name → (status, file relative to `root`).
pub fn scan(root: &Path, dir: &Path) -> Result<BTreeMap<String, (Status, String)>, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).map_err(|e| format!("{}: {e}", d.display()))? {
            let path = entry.map_err(|e| e.to_string())?.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .display()
                .to_string();
            let generated = rel.contains("/generated/");
            let text = paths::read(&path)?;
            let mut docs: Vec<&str> = Vec::new();
            let mut exported = false;
            for line in text.lines() {
                let t = line.trim();
                if let Some(doc) = t.strip_prefix("///") {
                    docs.push(doc.trim());
                } else if t == "#[unsafe(no_mangle)]" {
                    exported = true;
                } else if let Some(rest) = t.strip_prefix("pub unsafe extern \"C\" fn ") {
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    if exported && name.starts_with(EXTENSION_PREFIX) {
                        out.insert(name, (Status::Extension, rel.clone()));
                    } else if exported && name.starts_with("rocksdb_") {
                        let status = if generated || docs.contains(&MARK_NOT_IMPL) {
                            Status::NotImplemented
                        } else if docs.contains(&MARK_STORES) {
                            Status::StoresValueOnly
                        } else {
                            Status::Implemented
                        };
                        out.insert(name, (status, rel.clone()));
                    }
                    docs.clear();
                    exported = false;
                } else if !t.starts_with("#[") {
                    docs.clear();
                    exported = false;
                }
            }
        }
    }
    Ok(out)
}

/// Implemented functions that no test calls.
pub fn uncalled(
    funcs: &BTreeMap<String, (Status, String)>,
    callers: &callers::Callers,
) -> Vec<String> {
    funcs
        .iter()
        .filter(|(name, (st, _))| *st == Status::Implemented && !callers.contains_key(*name))
        .map(|(name, _)| name.clone())
        .collect()
}

/// The test files calling `name`, for a table cell.
fn tests_cell(callers: &callers::Callers, name: &str) -> String {
    match callers.get(name) {
        None => "**none**".to_owned(),
        Some(files) => files
            .iter()
            .map(|f| format!("`{f}`"))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

pub fn generate() -> Result<(String, Vec<String>), String> {
    let root = paths::repo_root();
    let funcs = scan(&root, &root.join("capi/src"))?;
    let callers = callers::scan(&root)?;
    let count = |s: Status| funcs.values().filter(|(st, _)| *st == s).count();
    let called = |s: Status| {
        funcs
            .iter()
            .filter(|(name, (st, _))| *st == s && callers.contains_key(*name))
            .count()
    };
    let mut md = String::new();
    md.push_str("# C API coverage\n\n");
    md.push_str("GENERATED by `cargo x coverage` from `capi/src`; do not edit (CI runs `cargo x coverage --check`).\n\n");
    md.push_str("Every `rocksdb_*` function that `libsolistore.so` exports (RocksDB 11.1.2's C API plus the functions only 7.8.3 has), with what it does today:\n\n");
    md.push_str("- **implemented**: a hand-written function that does what RocksDB's does.\n");
    md.push_str(&format!("- **stores value only**: a hand-written function whose doc comment has the line `/// {MARK_STORES}`: the value is kept (and returned by its getter) but the engine does not act on it yet.\n"));
    md.push_str(&format!("- **not implemented**: a stub in `capi/src/generated/stubs.rs` (made by `cargo x gen-stubs`), or a hand-written function marked `/// {MARK_NOT_IMPL}`. With an errptr it reports `Not implemented: <function name>`; without one it returns NULL, 0, false, an empty slice or nothing (the header says which), and `*_destroy` stubs do nothing.\n\n"));
    md.push_str("A function counts as implemented only if a test calls it: each row names the test files that call the function (a call outside comments and strings in `tests-c/test_*.c` and `tests-c/*.h`, the capi crate's `#[cfg(test)]` modules and `capi/tests/`, `bindings-python/tests/`, `bindings-dotnet/tests/`), and `cargo x coverage --check` fails while an implemented function has none.\n\n");
    md.push_str("| status | functions | called by a test |\n|---|---:|---:|\n");
    for s in [
        Status::Implemented,
        Status::StoresValueOnly,
        Status::NotImplemented,
    ] {
        md.push_str(&format!(
            "| {} | {} | {} |\n",
            s.label(),
            count(s),
            called(s)
        ));
    }
    let all_called = funcs.keys().filter(|n| callers.contains_key(*n)).count();
    md.push_str(&format!(
        "| **total exported** | **{}** | **{all_called}** |\n\n",
        funcs.len() - count(Status::Extension)
    ));
    for s in [
        Status::Implemented,
        Status::StoresValueOnly,
        Status::NotImplemented,
    ] {
        md.push_str(&format!("## {} ({})\n\n", s.label(), count(s)));
        if count(s) == 0 {
            md.push_str("(none)\n\n");
            continue;
        }
        md.push_str("| function | file | called by |\n|---|---|---|\n");
        for (name, (_, file)) in funcs.iter().filter(|(_, (st, _))| *st == s) {
            let tests = tests_cell(&callers, name);
            md.push_str(&format!("| `{name}` | `{file}` | {tests} |\n"));
        }
        md.push('\n');
    }
    md.push_str(&format!(
        "## {} ({})\n\n",
        Status::Extension.label(),
        count(Status::Extension)
    ));
    md.push_str("Not in RocksDB's C API and not counted above: exported beside it for bindings that look them up at run time and fall back to `rocksdb_*` calls without them.\n\n| function | file |\n|---|---|\n");
    for (name, (_, file)) in funcs.iter().filter(|(_, (st, _))| *st == Status::Extension) {
        md.push_str(&format!("| `{name}` | `{file}` |\n"));
    }
    Ok((md, uncalled(&funcs, &callers)))
}

pub fn run(check: bool) -> Result<(), String> {
    let (text, uncalled) = generate()?;
    paths::write_or_check(
        &paths::repo_root().join(COVERAGE),
        &text,
        check,
        "cargo x coverage",
    )?;
    if uncalled.is_empty() {
        return Ok(());
    }
    let msg = format!(
        "{} implemented function(s) no test calls (add a test, or mark the function `/// {MARK_NOT_IMPL}` and make it return `Not implemented: `):\n  {}",
        uncalled.len(),
        uncalled.join("\n  ")
    );
    if check {
        Err(msg)
    } else {
        eprintln!("warning: {msg}");
        Ok(())
    }
}
