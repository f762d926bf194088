// SPDX-License-Identifier: Apache-2.0
//! Which tests call which `rocksdb_*` function, for `cargo x coverage` ("a function counts as
//! implemented only if a test calls it", issue 4).
//!
//! Test sources, relative to the repository root:
//! - `tests-c/test_*.c` and `tests-c/*.h` (the C suite; `tests-c/compat/` and
//!   `tests-c/wb_rep_dump.c` drive librocksdb, not solistore, and do not count);
//! - the capi crate's Rust tests: files a `#[cfg(test)] mod name;` line names, the bodies of
//!   inline `#[cfg(test)] mod name { ... }` blocks, and `capi/tests/**/*.rs`;
//! - `bindings-python/tests/**/*.py` and `bindings-dotnet/tests/**/*.cs` (when present).
//!
//! What counts, outside comments and string literals:
//! - C: the name followed by `(`, in the output of the C preprocessor (`gcc -E`, with the
//!   solistore build's `-DTESTC_HEADER_V11`), so calls that macros build by token pasting
//!   (`rocksdb_options_set_##name(...)`) count, and code the solistore build leaves out does
//!   not; only lines that come from `tests-c/` count (not the header's prototypes);
//! - Rust: any use of the name as an identifier (a call, or an argument to a test macro that
//!   calls it), except in `use` items and in `#[ignore]`d tests;
//! - Python and C#: the name followed by `(`.
//!
//! Test files are taken as they are; whether a phase skips at run time is not seen here
//! (`tests-c` phases skip on solistore only for `Not implemented: ` answers).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::paths;

/// Source language, for comment and string syntax.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Lang {
    C,
    Rust,
    Python,
}

/// Function name → the test files (relative paths) that call it.
pub type Callers = BTreeMap<String, BTreeSet<String>>;

/// Scans every test source under `root`.
pub fn scan(root: &Path) -> Result<Callers, String> {
    let mut out = Callers::new();
    for (path, lang, code) in test_sources(root)? {
        let rel = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        let names = if lang == Lang::Rust {
            rust_uses(&code)
        } else {
            calls(&code)
        };
        for name in names {
            out.entry(name).or_default().insert(rel.clone());
        }
    }
    Ok(out)
}

/// (path, language, test code with comments and literals blanked) for every test source.
fn test_sources(root: &Path) -> Result<Vec<(PathBuf, Lang, String)>, String> {
    let mut out = Vec::new();
    let tests_c = root.join("tests-c");
    for path in list(&tests_c, false)? {
        let name = file_name(&path);
        if name.starts_with("test_") && name.ends_with(".c") {
            for (file, code) in preprocess(root, &path, &tests_c)? {
                out.push((file, Lang::C, strip(&code, Lang::C)));
            }
        }
    }
    for path in list(&root.join("capi/src"), true)? {
        if !file_name(&path).ends_with(".rs") {
            continue;
        }
        let code = strip(&paths::read(&path)?, Lang::Rust);
        for (module, body) in cfg_test_modules(&code) {
            match body {
                Some(body) => out.push((path.clone(), Lang::Rust, body)),
                None => {
                    let file = module_file(&path, &module);
                    if file.is_file() {
                        let text = strip(&paths::read(&file)?, Lang::Rust);
                        out.push((file, Lang::Rust, text));
                    }
                }
            }
        }
    }
    for (dir, ext, lang) in [
        ("capi/tests", ".rs", Lang::Rust),
        ("bindings-python/tests", ".py", Lang::Python),
        ("bindings-dotnet/tests", ".cs", Lang::C),
    ] {
        for path in list(&root.join(dir), true)? {
            if file_name(&path).ends_with(ext) {
                out.push((path.clone(), lang, strip(&paths::read(&path)?, lang)));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// Runs the C preprocessor over the test program `src` as the solistore build sees it and
/// returns the text of each file under `keep` (the program and its local headers).
fn preprocess(root: &Path, src: &Path, keep: &Path) -> Result<Vec<(PathBuf, String)>, String> {
    let out = Command::new("gcc")
        .args([
            "-E",
            "-std=c11",
            "-D_GNU_SOURCE",
            "-DTESTC_HEADER_V11",
            "-I",
        ])
        .arg(root.join("include"))
        .arg(src)
        .output()
        .map_err(|e| format!("gcc -E {}: {e}", src.display()))?;
    if !out.status.success() {
        return Err(format!(
            "gcc -E {} failed:\n{}",
            src.display(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let mut files: BTreeMap<PathBuf, String> = BTreeMap::new();
    let mut current: Option<PathBuf> = None;
    for line in text.lines() {
        // Line markers: `# <line> "<file>" <flags>`.
        if let Some(marker) = line.strip_prefix("# ") {
            if let Some((_, quoted)) = marker.split_once(' ') {
                let file = quoted.trim_start_matches('"');
                let file = file.split('"').next().unwrap_or_default();
                let path = PathBuf::from(file);
                let path = if path.is_absolute() {
                    path
                } else {
                    root.join(path)
                };
                current = path.starts_with(keep).then_some(path);
            }
            continue;
        }
        if let Some(file) = &current {
            let body = files.entry(file.clone()).or_default();
            body.push_str(line);
            body.push('\n');
        }
    }
    Ok(files.into_iter().collect())
}

/// Identifiers `rocksdb_*` in stripped Rust test code, leaving out `use` items and the
/// bodies of `#[ignore]`d functions.
fn rust_uses(code: &str) -> BTreeSet<String> {
    let mut text = code.to_owned();
    // Blank `#[ignore...] ... fn name(...) { body }`.
    let mut from = 0;
    while let Some(at) = text[from..].find("#[ignore") {
        let start = from + at;
        let Some(open) = text[start..].find('{').map(|o| start + o) else {
            break;
        };
        let mut depth = 0usize;
        let mut end = text.len();
        for (i, c) in text[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        let blanked: String = text[start..end]
            .chars()
            .map(|c| if c == '\n' { '\n' } else { ' ' })
            .collect();
        text.replace_range(start..end, &blanked);
        from = end;
    }
    let mut out = BTreeSet::new();
    let mut in_use = false;
    for token in tokens(&text) {
        match token {
            "use" => in_use = true,
            ";" => in_use = false,
            t if !in_use && t.starts_with("rocksdb_") => {
                out.insert(t.to_owned());
            }
            _ => {}
        }
    }
    out
}

/// Identifier tokens and `;` of stripped code, in order.
fn tokens(code: &str) -> impl Iterator<Item = &str> {
    let mut rest = code;
    std::iter::from_fn(move || loop {
        let c = rest.chars().next()?;
        if c == ';' {
            let t = &rest[..1];
            rest = &rest[1..];
            return Some(t);
        }
        if c.is_ascii_alphabetic() || c == '_' {
            let end = rest
                .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
                .unwrap_or(rest.len());
            let t = &rest[..end];
            rest = &rest[end..];
            return Some(t);
        }
        if c.is_ascii_digit() {
            let end = rest
                .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
                .unwrap_or(rest.len());
            rest = &rest[end..];
            continue;
        }
        rest = &rest[c.len_utf8()..];
    })
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Files under `dir` (recursively if asked); an absent directory has none.
fn list(dir: &Path, recursive: bool) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    if !dir.is_dir() {
        return Ok(out);
    }
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).map_err(|e| format!("{}: {e}", d.display()))? {
            let path = entry.map_err(|e| e.to_string())?.path();
            if path.is_dir() {
                if recursive {
                    stack.push(path);
                }
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The file a `mod module;` line in `parent` refers to (`foo.rs` and `foo/mod.rs` put their
/// children in `foo/`; no `#[path]` support, which capi does not use).
fn module_file(parent: &Path, module: &str) -> PathBuf {
    let dir = parent.parent().unwrap_or(Path::new("."));
    let stem = parent
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let base = if stem == "mod" || stem == "lib" || stem == "main" {
        dir.to_path_buf()
    } else {
        dir.join(stem)
    };
    let flat = base.join(format!("{module}.rs"));
    if flat.is_file() {
        flat
    } else {
        base.join(module).join("mod.rs")
    }
}

/// `#[cfg(test)]` modules in stripped Rust code: (name, Some(body)) for an inline module,
/// (name, None) for `mod name;`.
fn cfg_test_modules(code: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        rest = &rest[at + "#[cfg(test)]".len()..];
        let after = rest.trim_start();
        // Further attributes may sit between `#[cfg(test)]` and the item.
        let mut item = after;
        while item.starts_with("#[") {
            match item.find(']') {
                Some(end) => item = item[end + 1..].trim_start(),
                None => break,
            }
        }
        let Some(decl) = item.strip_prefix("mod ") else {
            continue;
        };
        let name: String = decl
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let tail = decl[name.len()..].trim_start();
        if tail.starts_with(';') {
            out.push((name, None));
        } else if tail.starts_with('{') {
            let mut depth = 0usize;
            let mut end = tail.len();
            for (i, c) in tail.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            end = i + 1;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            out.push((name, Some(tail[..end].to_owned())));
        }
    }
    out
}

/// Names `rocksdb_*` followed by `(` in stripped code.
fn calls(code: &str) -> BTreeSet<String> {
    let bytes = code.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut out = BTreeSet::new();
    let mut i = 0;
    while let Some(off) = code[i..].find("rocksdb_") {
        let start = i + off;
        let mut end = start;
        while end < bytes.len() && ident(bytes[end]) {
            end += 1;
        }
        let boundary = start == 0 || !ident(bytes[start - 1]);
        let mut j = end;
        while j < bytes.len() && (bytes[j] == b' ' || bytes[j] == b'\t' || bytes[j] == b'\n') {
            j += 1;
        }
        if boundary && j < bytes.len() && bytes[j] == b'(' {
            out.insert(code[start..end].to_owned());
        }
        i = end.max(start + 1);
    }
    out
}

/// `text` with comments and the contents of string and character literals replaced by
/// spaces (newlines kept), so that only code is searched.
fn strip(text: &str, lang: Lang) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |out: &mut String, c: char| out.push(if c == '\n' { '\n' } else { ' ' });
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied().unwrap_or('\0');
        // Line comments.
        if (lang != Lang::Python && c == '/' && next == '/') || (lang == Lang::Python && c == '#') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        // Block comments (nested in Rust).
        if lang != Lang::Python && c == '/' && next == '*' {
            let mut depth = 0usize;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 || lang == Lang::C {
                        break;
                    }
                } else {
                    blank(&mut out, chars[i]);
                    i += 1;
                }
            }
            continue;
        }
        // Rust raw strings: r"..." / r#"..."# (also br).
        if lang == Lang::Rust && c == 'r' && (next == '"' || next == '#') {
            let prev_ident = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
            let prev_ok =
                !prev_ident || (chars[i - 1] == 'b' && (i < 2 || !chars[i - 2].is_alphanumeric()));
            let mut hashes = 0;
            while chars.get(i + 1 + hashes) == Some(&'#') {
                hashes += 1;
            }
            if prev_ok && chars.get(i + 1 + hashes) == Some(&'"') {
                out.push('r');
                i += 2 + hashes;
                while i < chars.len() {
                    if chars[i] == '"' && (0..hashes).all(|h| chars.get(i + 1 + h) == Some(&'#')) {
                        i += 1 + hashes;
                        break;
                    }
                    blank(&mut out, chars[i]);
                    i += 1;
                }
                out.push('"');
                continue;
            }
        }
        // Python triple-quoted strings.
        if lang == Lang::Python
            && (c == '"' || c == '\'')
            && next == c
            && chars.get(i + 2) == Some(&c)
        {
            i += 3;
            while i < chars.len() {
                if chars[i] == '\\' {
                    i += 2;
                    continue;
                }
                if chars[i] == c && chars.get(i + 1) == Some(&c) && chars.get(i + 2) == Some(&c) {
                    i += 3;
                    break;
                }
                blank(&mut out, chars[i]);
                i += 1;
            }
            out.push_str("\"\"");
            continue;
        }
        // Character literals (C) versus lifetimes (Rust).
        if c == '\'' && lang == Lang::Rust {
            let is_char = next == '\\' || chars.get(i + 2) == Some(&'\'');
            if !is_char {
                out.push(c);
                i += 1;
                continue;
            }
        }
        if c == '"' || c == '\'' {
            i += 1;
            while i < chars.len() && chars[i] != c {
                if chars[i] == '\\' {
                    i += 1;
                }
                if lang == Lang::C && chars.get(i) == Some(&'\n') {
                    break;
                }
                if let Some(&ch) = chars.get(i) {
                    blank(&mut out, ch);
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_outside_comments_and_strings() {
        let c = "rocksdb_put(db);\n/* rocksdb_get(x) */ // rocksdb_delete(x)\n\
                 x = \"rocksdb_merge(\"; rocksdb_open (o); y = rocksdb_free; my_rocksdb_close(d);";
        let got = calls(&strip(c, Lang::C));
        let want: BTreeSet<String> = ["rocksdb_open", "rocksdb_put"]
            .into_iter()
            .map(String::from)
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn rust_lifetimes_chars_and_raw_strings() {
        let r = "fn f<'a>(x: &'a str) { let c = '\"'; rocksdb_put(x); \
                 let s = r#\"rocksdb_get(\"#; rocksdb_close(y); }";
        let got = calls(&strip(r, Lang::Rust));
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(got.contains("rocksdb_put") && got.contains("rocksdb_close"));
    }

    #[test]
    fn python_comments_and_docstrings() {
        let p = "\"\"\"rocksdb_get(x)\"\"\"\nlib.rocksdb_put(a)  # rocksdb_delete(b)\n";
        let got = calls(&strip(p, Lang::Python));
        assert_eq!(got.into_iter().collect::<Vec<_>>(), vec!["rocksdb_put"]);
    }

    #[test]
    fn rust_identifiers_but_not_imports_or_ignored_tests() {
        let r = "use crate::db::{rocksdb_open, rocksdb_close};\n\
                 #[test] fn a() { pair!(o, rocksdb_options_set_x, rocksdb_options_get_x); }\n\
                 #[test]\n#[ignore = \"later\"]\nfn b() { rocksdb_merge(db); }\n\
                 #[test] fn c() { rocksdb_close(db); }";
        let got = rust_uses(&strip(r, Lang::Rust));
        let want: BTreeSet<String> = [
            "rocksdb_close",
            "rocksdb_options_get_x",
            "rocksdb_options_set_x",
        ]
        .into_iter()
        .map(String::from)
        .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn cfg_test_module_bodies() {
        let code = "fn rocksdb_x() {}\n#[cfg(test)]\nmod tests { fn t() { rocksdb_y(); { } } }\n\
                    #[cfg(test)]\nmod other;\nfn after() { rocksdb_z(); }";
        let mods = cfg_test_modules(code);
        assert_eq!(mods.len(), 2);
        assert_eq!(mods[0].0, "tests");
        let body = mods[0].1.as_deref().unwrap_or("");
        assert!(body.contains("rocksdb_y") && !body.contains("rocksdb_z"));
        assert_eq!(mods[1], ("other".to_owned(), None));
    }
}
