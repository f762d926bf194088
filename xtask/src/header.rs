// SPDX-License-Identifier: Apache-2.0
//! `cargo x header [--check]`: runs the pinned cbindgen (as a library) over `capi/` with
//! `capi/cbindgen.toml` and writes `include/rocksdb/c.h`.
//!
//! One addition to plain cbindgen: the integer constants of `capi/src/constants.rs` are
//! emitted as anonymous `enum { ... };` blocks, one per `// Values for ...` group, as
//! upstream's header declares them (cbindgen alone would make each a `#define`, which would
//! rewrite any same-named identifier in a consumer's code).

use crate::paths;

pub const HEADER: &str = "include/rocksdb/c.h";
pub const CONSTANTS: &str = "capi/src/constants.rs";

/// The enum blocks for `constants.rs`, and the constant names (to keep cbindgen from also
/// emitting them as macros).
fn enum_blocks(src: &str) -> Result<(String, Vec<String>), String> {
    let mut text = String::new();
    let mut names = Vec::new();
    let mut open = false;
    for line in src.lines() {
        let t = line.trim();
        if let Some(group) = t.strip_prefix("// Values for ") {
            if open {
                text.push_str("};\n\n");
            }
            text.push_str(&format!(
                "/* Values for {} */\nenum {{\n",
                group.trim_end_matches('.')
            ));
            open = true;
        } else if let Some(rest) = t.strip_prefix("pub const ") {
            let (name, value) = rest.split_once(": c_int = ").ok_or_else(|| {
                format!("{CONSTANTS}: expected `pub const NAME: c_int = V;`: {t}")
            })?;
            let value = value.trim_end_matches(';');
            if !open {
                return Err(format!(
                    "{CONSTANTS}: {name} precedes any `// Values for` group"
                ));
            }
            text.push_str(&format!("  {name} = {value},\n"));
            names.push(name.to_string());
        }
    }
    if open {
        text.push_str("};\n");
    }
    Ok((text, names))
}

pub fn generate() -> Result<String, String> {
    let root = paths::repo_root();
    let mut config = cbindgen::Config::from_file(root.join("capi/cbindgen.toml"))
        .map_err(|e| format!("capi/cbindgen.toml: {e}"))?;
    let (enums, names) = enum_blocks(&paths::read(&root.join(CONSTANTS))?)?;
    config.after_includes = Some(format!(
        "\n/* Constants (from capi/src/constants.rs). */\n\n{enums}"
    ));
    config.export.exclude.extend(names);
    let bindings = cbindgen::Builder::new()
        .with_crate(root.join("capi"))
        .with_config(config)
        .generate()
        .map_err(|e| format!("cbindgen: {e}"))?;
    let mut out = Vec::new();
    bindings.write(&mut out);
    String::from_utf8(out).map_err(|e| e.to_string())
}

pub fn run(check: bool) -> Result<(), String> {
    let text = generate()?;
    paths::write_or_check(
        &paths::repo_root().join(HEADER),
        &text,
        check,
        "cargo x header",
    )
}
