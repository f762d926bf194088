// SPDX-License-Identifier: Apache-2.0
//! `cargo x gen-stubs [--check]`: writes `capi/src/generated/stubs.rs`, one
//! `Not implemented` stub per RocksDB C function that `capi/src` does not define by hand.
//!
//! Inputs: the prototype lists (types, the ABI truth; 11.1.2's signature wins where 7.8.3
//! differs), `xtask/data/param-names.txt` (upstream's parameter names, for a readable header),
//! and the hand-written sources (any `fn rocksdb_x(` outside `generated/` removes `rocksdb_x`'s
//! stub). The text is passed through rustfmt so that `cargo fmt` leaves it unchanged.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::paths;
use crate::protos::{self, CType, Proto};

pub const STUBS: &str = "capi/src/generated/stubs.rs";

/// Functions without errptr whose neutral value is not the type's zero.
const NEUTRAL_OVERRIDES: &[(&str, &str, &str)] = &[
    // 0 would claim success and leave `*out_val` unset; upstream returns -1 on failure.
    (
        "rocksdb_property_int",
        "-1",
        "returns -1 (property unknown)",
    ),
    (
        "rocksdb_property_int_cf",
        "-1",
        "returns -1 (property unknown)",
    ),
];

const RUST_KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate",
    "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl",
    "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref",
    "return", "self", "static", "struct", "super", "trait", "true", "try", "type", "typeof",
    "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// Every `fn rocksdb_x(` in the `.rs` files under `dir`, except under `generated/`.
pub fn hand_written(dir: &Path) -> Result<BTreeMap<String, PathBuf>, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).map_err(|e| format!("{}: {e}", d.display()))?;
        for entry in entries {
            let path = entry.map_err(|e| e.to_string())?.path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "generated") {
                    stack.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = paths::read(&path)?;
                for (at, _) in text.match_indices("fn rocksdb_") {
                    let rest = &text[at + 3..];
                    let end = rest
                        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                        .unwrap_or(rest.len());
                    if rest[end..].trim_start().starts_with('(') {
                        out.insert(rest[..end].to_string(), path.clone());
                    }
                }
            }
        }
    }
    Ok(out)
}

/// Upstream parameter names: function → names ("-" for unnamed).
fn load_param_names(path: &Path) -> Result<BTreeMap<String, Vec<String>>, String> {
    let mut out = BTreeMap::new();
    for line in paths::read(path)?.lines() {
        if line.starts_with('#') {
            continue;
        }
        let mut words = line.split_whitespace();
        if let Some(name) = words.next() {
            out.insert(name.to_string(), words.map(str::to_string).collect());
        }
    }
    Ok(out)
}

/// The name for parameter `i` when upstream leaves it unnamed.
fn fallback_name(ty: &CType, i: usize, last: bool) -> String {
    if last && ty.is_char_ptr_ptr() {
        return "errptr".into();
    }
    if let CType::Ptr { to, .. } = ty {
        if let CType::Base { name, .. } = to.as_ref() {
            if let Some(stem) = name
                .strip_prefix("rocksdb_")
                .and_then(|n| n.strip_suffix("_t"))
            {
                return stem.to_string();
            }
        }
    }
    if matches!(ty, CType::Base { .. }) {
        return "v".into();
    }
    format!("arg{i}")
}

fn param_names(p: &Proto, upstream: Option<&Vec<String>>) -> Vec<String> {
    let upstream = upstream.filter(|u| u.len() == p.params.len());
    let mut seen = BTreeSet::new();
    let n = p.params.len();
    p.params
        .iter()
        .enumerate()
        .map(|(i, ty)| {
            let mut name = match upstream.map(|u| u[i].as_str()) {
                Some(u) if u != "-" => u.to_string(),
                _ => fallback_name(ty, i, i + 1 == n),
            };
            if RUST_KEYWORDS.contains(&name.as_str()) {
                name.push('_');
            }
            if !seen.insert(name.clone()) {
                name = format!("{name}_{i}");
                seen.insert(name.clone());
            }
            name
        })
        .collect()
}

/// What a stub without errptr gives back, in words.
fn neutral_words(ret: &CType) -> &'static str {
    match ret {
        t if t.is_void() => "does nothing",
        t if t.is_pointer() => "returns NULL",
        CType::Base { name, .. } if name == "_Bool" => "returns false",
        CType::Base { name, .. } if name == "rocksdb_slice_t" => {
            "returns an empty slice `{NULL, 0}`"
        }
        _ => "returns 0",
    }
}

fn stub(p: &Proto, upstream: Option<&Vec<String>>) -> Result<String, String> {
    let names = param_names(p, upstream);
    let has_errptr = names.last().is_some_and(|n| n == "errptr")
        && p.params.last().is_some_and(CType::is_char_ptr_ptr);
    let mut params = String::new();
    for (name, ty) in names.iter().zip(&p.params) {
        params.push_str(&format!(
            "{name}: {}, ",
            ty.rust().map_err(|e| format!("{}: {e}", p.name))?
        ));
    }
    let ret = if p.ret.is_void() {
        String::new()
    } else {
        format!(
            " -> {}",
            p.ret.rust().map_err(|e| format!("{}: {e}", p.name))?
        )
    };
    let name = &p.name;
    let (doc, body) = if has_errptr {
        let what = match neutral_words(&p.ret) {
            "does nothing" => String::new(),
            w => format!(" and {w}"),
        };
        (
            format!("stores `Not implemented: {name}` in `*errptr`{what}."),
            format!("ffi::guarded(errptr, \"{name}\", || Err(Error::not_supported(\"{name}\")))"),
        )
    } else if let Some(body) = per_key_body(p, &names) {
        (
            format!("stores `Not implemented: {name}` in every `errs[i]`, NULL in every value (and timestamp) entry and 0 in every size entry."),
            body,
        )
    } else if let Some((_, value, words)) = NEUTRAL_OVERRIDES.iter().find(|o| o.0 == name) {
        (
            format!("{words}."),
            format!("ffi::guarded_no_err(\"{name}\", || Ok({value}))"),
        )
    } else if name.ends_with("_destroy") && p.ret.is_void() {
        (
            "does nothing (no such object can exist yet); NULL is accepted.".to_string(),
            format!("ffi::guarded_no_err(\"{name}\", || Ok(()))"),
        )
    } else {
        (
            format!("{}.", neutral_words(&p.ret)),
            format!("ffi::guarded_no_err(\"{name}\", || Err(Error::not_supported(\"{name}\")))"),
        )
    };
    Ok(format!(
        "/// Not implemented in solistore: {doc}\n#[unsafe(no_mangle)]\npub unsafe extern \"C\" fn {name}({params}){ret} {{\n    {body}\n}}\n\n"
    ))
}

/// Multi-gets report per key through `errs` (`char**`, `num_keys` entries) instead of an
/// errptr; their callers read every output entry, so the stub must fill them all.
fn per_key_body(p: &Proto, names: &[String]) -> Option<String> {
    let has = |n: &str| names.iter().any(|x| x == n);
    if !(has("errs") && has("num_keys")) {
        return None;
    }
    let mut ptrs = Vec::new();
    let mut lens = Vec::new();
    for (name, ty) in names.iter().zip(&p.params) {
        if name == "errs" {
            continue;
        }
        match ty.rust().ok()?.as_str() {
            t if t.starts_with("*mut *mut ") => ptrs.push(format!("{name}.cast()")),
            "*mut usize" => lens.push(name.clone()),
            _ => {}
        }
    }
    let name = &p.name;
    Some(format!(
        "ffi::guarded_no_err(\"{name}\", || {{
        // SAFETY: c.h: `errs` and every output array hold `num_keys` entries.
        unsafe {{ ffi::fail_each_key(&Error::not_supported(\"{name}\"), num_keys, errs, &[{}], &[{}]) }};
        Ok(())
    }})",
        ptrs.join(", "),
        lens.join(", ")
    ))
}

/// Runs `rustfmt` over `text` (edition 2021, the workspace's).
pub fn rustfmt(text: &str) -> Result<String, String> {
    let mut child = Command::new("rustfmt")
        .args(["--edition", "2021", "--emit", "stdout"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("rustfmt: {e}"))?;
    child
        .stdin
        .take()
        .ok_or("rustfmt: no stdin")?
        .write_all(text.as_bytes())
        .map_err(|e| format!("rustfmt: {e}"))?;
    let out = child
        .wait_with_output()
        .map_err(|e| format!("rustfmt: {e}"))?;
    if !out.status.success() {
        return Err("rustfmt failed on the generated text".into());
    }
    String::from_utf8(out.stdout).map_err(|e| e.to_string())
}

/// The generated file's text.
pub fn generate() -> Result<(String, usize), String> {
    let root = paths::repo_root();
    let target = protos::load_target()?;
    let names = load_param_names(&root.join("xtask/data/param-names.txt"))?;
    let hand = hand_written(&root.join("capi/src"))?;
    let mut body = String::new();
    let mut count = 0;
    for (name, p) in &target.protos {
        if hand.contains_key(name) {
            continue;
        }
        body.push_str(&stub(p, names.get(name))?);
        count += 1;
    }
    let mut ffi_types: Vec<&str> = ["c_char", "c_int", "c_uchar", "c_uint", "c_void"]
        .into_iter()
        .filter(|t| body.contains(t))
        .collect();
    ffi_types.sort_unstable();
    let header = format!(
        "// SPDX-License-Identifier: Apache-2.0
//! Stubs for every RocksDB C API function that `capi/src` does not define by hand ({count}).
//!
//! GENERATED by `cargo x gen-stubs` from `api-11.1.2.prototypes.txt` and
//! `api-7.8.3.prototypes.txt` (11.1.2's signature wins where both have one) with parameter
//! names from `xtask/data/param-names.txt`. Do not edit: write the function by hand in the
//! module of its C prefix and regenerate, and its stub disappears.
//!
//! A stub with an errptr stores `Not implemented: <name>` there (c.h convention 3) and returns
//! its failure value. One without returns a neutral value (NULL, 0, false, an empty slice, or
//! nothing); `*_destroy` stubs do nothing, so any argument, NULL included, is safe.
#![expect(unused_variables, reason = \"stubs ignore their arguments\")]
#![expect(
    clippy::missing_safety_doc,
    reason = \"stubs dereference none of their arguments; the header documents the C contract\"
)]

use std::ffi::{{{}}};

use engine::Error;

use crate::ffi;
use crate::types::*;

",
        ffi_types.join(", ")
    );
    Ok((rustfmt(&(header + &body))?, count))
}

pub fn run(check: bool) -> Result<(), String> {
    let (text, count) = generate()?;
    let path = paths::repo_root().join(STUBS);
    paths::write_or_check(&path, &text, check, "cargo x gen-stubs")?;
    if !check {
        println!("{count} stubs");
    }
    Ok(())
}
