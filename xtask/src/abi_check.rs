// SPDX-License-Identifier: Apache-2.0
//! `cargo x abi-check [--release]`: builds `libsolistore.so` and runs every ABI gate; any
//! failure makes the command fail. The gates (STYLE.md §4.10):
//!
//! 0. freshness: `gen-stubs --check`, `header --check`, `coverage --check`;
//! 1. signature: `gcc -std=gnu11 -fsyntax-only -aux-info` over a file including our header;
//!    each prototype, in gcc's normal form, must equal `api-11.1.2.prototypes.txt`'s line for
//!    that name (`api-7.8.3.prototypes.txt`'s for the names only 7.8.3 has), up to top-level
//!    parameter qualifiers (not part of a function's type; cbindgen cannot spell them);
//!    every header type upstream declares (`types.rs`) must be typedef'd;
//!    `solistore_*` extensions are ours alone and skip this comparison;
//! 2. export: the `rocksdb_*` and `solistore_*` symbols `nm -D --defined-only` lists equal
//!    the header's functions and cover both name lists; `readelf -d` NEEDED holds only libc,
//!    libm, libpthread, libdl and the dynamic loader (no libgcc_s: the unwinder is static);
//! 3. include: the header compiles twice in one C unit (`-std=c11 -Wall -Wextra -Wpedantic
//!    -Werror`) and in one C++ unit (`-std=c++11`, same warnings);
//! 4. smoke: `tests-c/abi/smoke_notimpl.c`, linked against the library, runs and exits 0.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::coverage::{self, EXTENSION_PREFIX};
use crate::protos::{self, Proto};
use crate::{gen_stubs, header, paths};

// Exported functions of our own (`coverage::EXTENSION_PREFIX`, `capi/src/solistore_ext.rs`)
// are checked to be declared and exported like the rest, but matched against no RocksDB
// prototype.

/// The only libraries `libsolistore.so` may need (issue 4): libc, libm, libpthread and
/// libdl, plus the dynamic loader, which every dynamically linked process has loaded
/// already (glibc's TLS and unwinder lookups live there). libgcc_s is not allowed: the
/// unwinder is linked in statically (`capi/src/ffi.rs`).
const ALLOWED_NEEDED: &[&str] = &[
    "libc.so.6",
    "libm.so.6",
    "libpthread.so.0",
    "libdl.so.2",
    "ld-linux-x86-64.so.2",
];

fn run_cmd(cmd: &mut Command) -> Result<String, String> {
    let shown = format!("{cmd:?}");
    let out = cmd.output().map_err(|e| format!("{shown}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{shown} failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Our header's prototypes in gcc's normal form, by name.
fn header_protos(root: &Path, work: &Path) -> Result<BTreeMap<String, Proto>, String> {
    let src = work.join("aux_include.c");
    std::fs::write(&src, "#include <rocksdb/c.h>\n").map_err(|e| e.to_string())?;
    let aux = work.join("aux.txt");
    run_cmd(
        Command::new("gcc")
            .args(["-std=gnu11", "-fsyntax-only", "-I"])
            .arg(root.join("include"))
            .arg("-aux-info")
            .arg(&aux)
            .arg(&src),
    )?;
    let mut out = BTreeMap::new();
    for line in paths::read(&aux)?.lines() {
        // `/* <file>:<line>:<NC|OC|...> */ extern <prototype>`
        let Some((origin, rest)) = line.split_once(" */ ") else {
            continue;
        };
        if !origin.contains("rocksdb/c.h") {
            continue;
        }
        let proto = rest.strip_prefix("extern ").unwrap_or(rest);
        let p = protos::parse_proto(proto)?;
        out.insert(p.name.clone(), p);
    }
    Ok(out)
}

fn signature_gate(
    root: &Path,
    work: &Path,
    target: &protos::Target,
) -> Result<BTreeSet<String>, String> {
    let ours = header_protos(root, work)?;
    let mut failures = Vec::new();
    for (name, p) in &ours {
        if name.starts_with(EXTENSION_PREFIX) {
            continue; // ours alone: no RocksDB prototype to match (capi/src/solistore_ext.rs)
        }
        match target.protos.get(name) {
            None => failures.push(format!("{name}: in our header but in neither RocksDB list")),
            Some(want) if want.canonical() != p.canonical() => failures.push(format!(
                "{name}:\n  ours:    {}\n  rocksdb: {}",
                p.text, want.text
            )),
            Some(_) => {}
        }
    }
    for name in target.protos.keys() {
        if !ours.contains_key(name) {
            failures.push(format!("{name}: missing from our header"));
        }
    }
    // Every upstream type name is declared.
    let header = paths::read(&root.join(header::HEADER))?;
    let types = paths::read(&root.join("capi/src/types.rs"))?;
    for line in types.lines() {
        if let Some(rest) = line.strip_prefix("pub struct ") {
            let name = rest.trim_end_matches(" {").trim();
            if !header.contains(&format!("}} {name};"))
                && !header.contains(&format!("typedef struct {name} {name};"))
            {
                failures.push(format!("type {name}: no typedef in the header"));
            }
        }
    }
    if !failures.is_empty() {
        return Err(format!(
            "signature gate: {} mismatches\n{}",
            failures.len(),
            failures.join("\n")
        ));
    }
    let extensions = ours
        .keys()
        .filter(|n| n.starts_with(EXTENSION_PREFIX))
        .count();
    let matched = ours.len() - extensions;
    println!(
        "signature gate: {matched} prototypes match ({} against 11.1.2, {} against 7.8.3); \
         {extensions} solistore_* extensions declared",
        matched - target.only_783.len(),
        target.only_783.len()
    );
    Ok(ours.into_keys().collect())
}

fn export_gate(
    lib: &Path,
    header_fns: &BTreeSet<String>,
    target: &protos::Target,
) -> Result<(), String> {
    let nm = run_cmd(Command::new("nm").args(["-D", "--defined-only"]).arg(lib))?;
    let exported: BTreeSet<String> = nm
        .lines()
        .filter_map(|l| {
            let mut f = l.split_whitespace();
            let (_, kind, name) = (f.next()?, f.next()?, f.next()?);
            (kind == "T" && (name.starts_with("rocksdb_") || name.starts_with(EXTENSION_PREFIX)))
                .then(|| name.to_string())
        })
        .collect();
    let mut failures = Vec::new();
    for n in exported.difference(header_fns) {
        failures.push(format!("{n}: exported but not in the header"));
    }
    for n in header_fns.difference(&exported) {
        failures.push(format!("{n}: in the header but not exported"));
    }
    for n in target.names_11.iter().chain(&target.names_783) {
        if !exported.contains(n) {
            failures.push(format!("{n}: in a RocksDB name list but not exported"));
        }
    }
    let readelf = run_cmd(Command::new("readelf").arg("-d").arg(lib))?;
    let needed: Vec<&str> = readelf
        .lines()
        .filter(|l| l.contains("(NEEDED)"))
        .filter_map(|l| l.split('[').nth(1)?.split(']').next())
        .collect();
    for n in &needed {
        if !ALLOWED_NEEDED.contains(n) {
            failures.push(format!(
                "NEEDED {n}: not libc, libm, libpthread, libdl or the dynamic loader"
            ));
        }
    }
    failures.dedup();
    if !failures.is_empty() {
        return Err(format!(
            "export gate: {} problems\n{}",
            failures.len(),
            failures.join("\n")
        ));
    }
    println!(
        "export gate: {} rocksdb_*/solistore_* symbols == header; covers 11.1.2 ({}) and 7.8.3 ({}); NEEDED: {}",
        exported.len(),
        target.names_11.len(),
        target.names_783.len(),
        needed.join(", ")
    );
    Ok(())
}

fn include_gate(root: &Path, work: &Path) -> Result<(), String> {
    let inc = root.join("include");
    let dir = root.join("tests-c/abi");
    let warn = ["-Wall", "-Wextra", "-Wpedantic", "-Werror"];
    run_cmd(
        Command::new("gcc")
            .args(["-std=c11", "-c", "-o"])
            .arg(work.join("include_c.o"))
            .args(warn)
            .arg("-I")
            .arg(&inc)
            .arg(dir.join("include_c.c")),
    )?;
    run_cmd(
        Command::new("g++")
            .args(["-std=c++11", "-c", "-o"])
            .arg(work.join("include_cpp.o"))
            .args(warn)
            .arg("-I")
            .arg(&inc)
            .arg(dir.join("include_cpp.cc")),
    )?;
    println!("include gate: header compiles twice in C11 and C++11 with -Wall -Wextra -Wpedantic -Werror");
    Ok(())
}

fn smoke(root: &Path, work: &Path, libdir: &Path) -> Result<(), String> {
    let exe = work.join("smoke_notimpl");
    run_cmd(
        Command::new("gcc")
            .args([
                "-std=c11",
                "-Wall",
                "-Wextra",
                "-Wpedantic",
                "-Werror",
                "-o",
            ])
            .arg(&exe)
            .arg("-I")
            .arg(root.join("include"))
            .arg(root.join("tests-c/abi/smoke_notimpl.c"))
            .arg("-L")
            .arg(libdir)
            .arg(format!("-Wl,-rpath,{}", libdir.display()))
            .arg("-lsolistore"),
    )?;
    let out = run_cmd(&mut Command::new(&exe))?;
    print!("{out}");
    println!("smoke: tests-c/abi/smoke_notimpl passed");
    Ok(())
}

pub fn run(release: bool) -> Result<(), String> {
    let root = paths::repo_root();
    let mut build = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    build
        .current_dir(&root)
        .args(["build", "-q", "-p", "solistore-capi"]);
    if release {
        build.arg("--release");
    }
    run_cmd(&mut build)?;
    let libdir: PathBuf = paths::target_dir().join(if release { "release" } else { "debug" });
    let lib = libdir.join("libsolistore.so");
    let work = paths::target_dir().join("abi-check");
    std::fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;

    let mut failures = Vec::new();
    let mut gate = |r: Result<(), String>| {
        if let Err(e) = r {
            eprintln!("FAIL {e}");
            failures.push(());
        }
    };
    gate(gen_stubs::run(true));
    gate(header::run(true));
    gate(coverage::run(true));
    let target = protos::load_target()?;
    match signature_gate(&root, &work, &target) {
        Ok(header_fns) => gate(export_gate(&lib, &header_fns, &target)),
        Err(e) => gate(Err(e)),
    }
    gate(include_gate(&root, &work));
    gate(smoke(&root, &work, &libdir));
    if failures.is_empty() {
        println!("abi-check: all gates passed");
        Ok(())
    } else {
        Err(format!("abi-check: {} gate(s) failed", failures.len()))
    }
}
