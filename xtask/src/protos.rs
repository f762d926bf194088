// SPDX-License-Identifier: Apache-2.0
//! C prototypes in the normal form `gcc -aux-info` prints (parameter names dropped):
//! `rocksdb_t *rocksdb_open (const rocksdb_options_t *, const char *, char **);`.
//!
//! Parses them into a small type tree, renders Rust types that cbindgen turns back into the
//! same C, and renders a canonical C form for comparing two dumps (top-level qualifiers of
//! parameters dropped: C11 6.7.6.3p15 leaves them out of the function type, and cbindgen
//! cannot spell `const bool sorted_input`).

use std::collections::BTreeMap;
use std::path::Path;

use crate::paths;

/// A C type as it appears in a normalised prototype.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CType {
    /// A named type (`int`, `unsigned char`, `rocksdb_t`, `on_flush_begin_cb`).
    Base { name: String, konst: bool },
    /// A pointer; `konst` is the pointer's own qualifier (`char *const`).
    Ptr { to: Box<CType>, konst: bool },
    /// A pointer to function: `ret (*) (params)`.
    FnPtr { ret: Box<CType>, params: Vec<CType> },
}

impl CType {
    fn is_const(&self) -> bool {
        match self {
            CType::Base { konst, .. } | CType::Ptr { konst, .. } => *konst,
            CType::FnPtr { .. } => false,
        }
    }

    pub fn is_void(&self) -> bool {
        matches!(self, CType::Base { name, .. } if name == "void")
    }

    pub fn is_pointer(&self) -> bool {
        matches!(self, CType::Ptr { .. } | CType::FnPtr { .. })
    }

    /// `char **` (errptr's type).
    pub fn is_char_ptr_ptr(&self) -> bool {
        match self {
            CType::Ptr { to, .. } => match to.as_ref() {
                CType::Ptr { to, konst: false } => {
                    matches!(to.as_ref(), CType::Base { name, konst: false } if name == "char")
                }
                _ => false,
            },
            _ => false,
        }
    }

    /// The same type without its top-level qualifier.
    fn unqualified(&self) -> CType {
        match self {
            CType::Base { name, .. } => CType::Base {
                name: name.clone(),
                konst: false,
            },
            CType::Ptr { to, .. } => CType::Ptr {
                to: to.clone(),
                konst: false,
            },
            CType::FnPtr { .. } => self.clone(),
        }
    }

    /// The Rust spelling that cbindgen (with `usize_is_size_t`) renders back to this C type.
    pub fn rust(&self) -> Result<String, String> {
        Ok(match self {
            CType::Base { name, .. } => rust_base(name)?.to_string(),
            CType::Ptr { to, .. } => {
                let kind = if to.is_const() { "*const " } else { "*mut " };
                let inner = match to.as_ref() {
                    CType::Base { name, .. } if name == "void" => "c_void".to_string(),
                    other => other.rust()?,
                };
                format!("{kind}{inner}")
            }
            CType::FnPtr { ret, params } => {
                let params = params
                    .iter()
                    .map(CType::rust)
                    .collect::<Result<Vec<_>, _>>()?;
                let ret = if ret.is_void() {
                    String::new()
                } else {
                    format!(" -> {}", ret.rust()?)
                };
                format!("Option<unsafe extern \"C\" fn({}){ret}>", params.join(", "))
            }
        })
    }

    /// Canonical C text, as gcc's normal form prints it.
    pub fn c(&self) -> String {
        match self {
            CType::Base { name, konst } => {
                if *konst {
                    format!("const {name}")
                } else {
                    name.clone()
                }
            }
            CType::Ptr { to, konst } => {
                let inner = to.c();
                let sep = if inner.ends_with('*') { "" } else { " " };
                let q = if *konst { "const " } else { "" };
                // gcc writes `char *const *`: the qualifier follows its star.
                format!("{inner}{sep}*{q}").trim_end().to_string()
            }
            CType::FnPtr { ret, params } => {
                let ret = ret.c();
                let sep = if ret.ends_with('*') { "" } else { " " };
                format!("{ret}{sep}(*) ({})", c_params(params))
            }
        }
    }
}

fn c_params(params: &[CType]) -> String {
    if params.is_empty() {
        "void".to_string()
    } else {
        params.iter().map(CType::c).collect::<Vec<_>>().join(", ")
    }
}

/// Rust names for C's scalar and typedef names.
fn rust_base(name: &str) -> Result<&str, String> {
    Ok(match name {
        "char" => "c_char",
        "unsigned char" => "c_uchar",
        "int" => "c_int",
        "unsigned int" => "c_uint",
        "size_t" => "usize",
        "uint64_t" => "u64",
        "int64_t" => "i64",
        "uint32_t" => "u32",
        "int32_t" => "i32",
        "uint8_t" => "u8",
        "double" => "f64",
        "_Bool" => "bool",
        "void" => return Err("`void` as a value type".into()),
        other if other.starts_with("rocksdb_") || other.ends_with("_cb") => other,
        other => return Err(format!("no Rust mapping for C type `{other}`")),
    })
}

/// Splits `s` at commas outside parentheses.
fn split_top(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0_i32, 0);
    for (i, ch) in s.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = s[start..].trim();
    if !last.is_empty() {
        out.push(last);
    }
    out
}

/// Finds `(*)` outside any parentheses.
fn find_fnptr(s: &str) -> Option<usize> {
    let mut depth = 0_i32;
    for (i, ch) in s.char_indices() {
        if depth == 0 && s[i..].starts_with("(*)") {
            return Some(i);
        }
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Parses a parameter list's text (`void` is the empty list).
pub fn parse_params(s: &str) -> Result<Vec<CType>, String> {
    let s = s.trim();
    if s == "void" || s.is_empty() {
        return Ok(Vec::new());
    }
    split_top(s).into_iter().map(parse_type).collect()
}

/// Parses one C type in gcc's normal form.
pub fn parse_type(s: &str) -> Result<CType, String> {
    let s = s.trim();
    if let Some(at) = find_fnptr(s) {
        let ret = parse_type(&s[..at])?;
        let rest = s[at + 3..].trim();
        let inner = rest
            .strip_prefix('(')
            .and_then(|r| r.strip_suffix(')'))
            .ok_or_else(|| format!("bad function pointer type `{s}`"))?;
        return Ok(CType::FnPtr {
            ret: Box::new(ret),
            params: parse_params(inner)?,
        });
    }
    let spaced = s.replace('*', " * ");
    let mut tokens = spaced.split_whitespace().peekable();
    let mut konst = false;
    let mut words = Vec::new();
    while let Some(&tok) = tokens.peek() {
        if tok == "*" {
            break;
        }
        tokens.next();
        match tok {
            "const" => konst = true,
            "volatile" | "struct" => return Err(format!("unsupported qualifier in `{s}`")),
            word => words.push(word),
        }
    }
    if words.is_empty() {
        return Err(format!("no type name in `{s}`"));
    }
    let mut ty = CType::Base {
        name: words.join(" "),
        konst,
    };
    for tok in tokens {
        match tok {
            "*" => {
                ty = CType::Ptr {
                    to: Box::new(ty),
                    konst: false,
                }
            }
            "const" => match &mut ty {
                CType::Ptr { konst, .. } => *konst = true,
                _ => return Err(format!("misplaced const in `{s}`")),
            },
            other => return Err(format!("unexpected `{other}` in `{s}`")),
        }
    }
    Ok(ty)
}

/// One function prototype.
#[derive(Debug, Clone)]
pub struct Proto {
    pub name: String,
    pub ret: CType,
    pub params: Vec<CType>,
    /// The line as read (normal form).
    pub text: String,
}

impl Proto {
    /// Canonical text for comparison: parameters' top-level qualifiers dropped.
    pub fn canonical(&self) -> String {
        let params: Vec<CType> = self.params.iter().map(CType::unqualified).collect();
        let ret = self.ret.c();
        let sep = if ret.ends_with('*') { "" } else { " " };
        format!("{ret}{sep}{} ({});", self.name, c_params(&params))
    }
}

/// Parses `ret name (params);`.
pub fn parse_proto(line: &str) -> Result<Proto, String> {
    let text = line.trim().to_string();
    let body = text.strip_suffix(';').unwrap_or(&text).trim_end();
    let open = body
        .find(" (")
        .ok_or_else(|| format!("no parameter list in `{text}`"))?;
    let head = &body[..open];
    let params = body[open + 2..]
        .strip_suffix(')')
        .ok_or_else(|| format!("unterminated parameter list in `{text}`"))?;
    let name_start = head
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map(|i| i + 1)
        .unwrap_or(0);
    let name = head[name_start..].to_string();
    if name.is_empty() {
        return Err(format!("no function name in `{text}`"));
    }
    Ok(Proto {
        name,
        ret: parse_type(&head[..name_start])?,
        params: parse_params(params)?,
        text,
    })
}

/// Reads a prototype list (`#` lines are comments) into name → prototype.
pub fn load_protos(path: &Path) -> Result<BTreeMap<String, Proto>, String> {
    let mut out = BTreeMap::new();
    for line in paths::read(path)?.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let p = parse_proto(line).map_err(|e| format!("{}: {e}", path.display()))?;
        out.insert(p.name.clone(), p);
    }
    Ok(out)
}

/// Reads a name list (`#` lines are comments).
pub fn load_names(path: &Path) -> Result<Vec<String>, String> {
    Ok(paths::read(path)?
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.trim().to_string())
        .collect())
}

/// The export target: every name of 11.1.2 and 7.8.3, each with the prototype to export
/// (11.1.2's where both have one), plus the names only in 7.8.3 (the ones checked against
/// 7.8.3's list).
pub struct Target {
    pub protos: BTreeMap<String, Proto>,
    pub only_783: Vec<String>,
    pub names_11: Vec<String>,
    pub names_783: Vec<String>,
}

pub fn load_target() -> Result<Target, String> {
    let dir = paths::compat_dir()?;
    let p11 = load_protos(&dir.join("api-11.1.2.prototypes.txt"))?;
    let p783 = load_protos(&dir.join("api-7.8.3.prototypes.txt"))?;
    let names_11 = load_names(&dir.join("api-11.1.2.txt"))?;
    let names_783 = load_names(&dir.join("api-7.8.3.txt"))?;
    let mut protos = p11.clone();
    let mut only_783 = Vec::new();
    for (name, p) in p783 {
        if let std::collections::btree_map::Entry::Vacant(slot) = protos.entry(name.clone()) {
            only_783.push(name);
            slot.insert(p);
        }
    }
    for n in names_11.iter().chain(&names_783) {
        if !protos.contains_key(n) {
            return Err(format!("{n} is in a name list but has no prototype"));
        }
    }
    Ok(Target {
        protos,
        only_783,
        names_11,
        names_783,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(line: &str) {
        let p = parse_proto(line).expect("test prototypes are well formed");
        assert_eq!(p.canonical(), line);
    }

    #[test]
    fn canonical_form_reproduces_gcc_text() {
        round_trip("char **rocksdb_list_column_families (const rocksdb_options_t *, const char *, size_t *, char **);");
        round_trip("rocksdb_slice_t rocksdb_iter_key_slice (const rocksdb_iterator_t *);");
        round_trip(
            "rocksdb_block_based_table_options_t *rocksdb_block_based_options_create (void);",
        );
        round_trip("rocksdb_compactionfilter_t *rocksdb_compactionfilter_create (void *, void (*) (void *), unsigned char (*) (void *, int, const char *, size_t, const char *, size_t, char **, size_t *, unsigned char *), const char *(*) (void *));");
        round_trip("void rocksdb_multi_get_cf (rocksdb_t *, const rocksdb_readoptions_t *, const rocksdb_column_family_handle_t *const *, size_t, const char *const *, const size_t *, char **, size_t *, char **);");
    }

    #[test]
    fn top_level_qualifiers_are_dropped_for_comparison() {
        let p = parse_proto("void f (const _Bool , rocksdb_x_t *const);").expect("well formed");
        assert_eq!(p.canonical(), "void f (_Bool, rocksdb_x_t *);");
    }

    #[test]
    fn rust_types_mirror_c_types() {
        let t = |s: &str| parse_type(s).and_then(|t| t.rust()).expect("mappable");
        assert_eq!(t("const char *const *"), "*const *const c_char");
        assert_eq!(t("char **"), "*mut *mut c_char");
        assert_eq!(t("unsigned char"), "c_uchar");
        assert_eq!(t("void *"), "*mut c_void");
        assert_eq!(
            t("const rocksdb_column_family_handle_t *const *"),
            "*const *const rocksdb_column_family_handle_t"
        );
        assert_eq!(
            t("void (*) (void *)"),
            "Option<unsafe extern \"C\" fn(*mut c_void)>"
        );
        assert_eq!(
            t("const char *(*) (void *)"),
            "Option<unsafe extern \"C\" fn(*mut c_void) -> *const c_char>"
        );
        assert!(parse_type("long double").and_then(|t| t.rust()).is_err());
    }
}
