// SPDX-License-Identifier: Apache-2.0
//! The OPTIONS file (`OPTIONS-NNNNNN`): rendering ours and parsing any (config path; written
//! after open, read by tools). See `docs/format/options.md`.
//!
//! RocksDB 7.8.3's `DB::Open` does not read this file, but `ldb` does, and it refuses to run
//! on a file it cannot parse, so we write only option names 7.8.3 knows, in the string forms
//! its parser accepts. Facts from RocksDB v7.8.3 `options/options_parser.cc`,
//! `options/db_options.cc`, `options/cf_options.cc`, `util/string_util.cc` (escaping) and
//! `table/block_based/block_based_table_factory.cc`.
//!
//! ```text
//! file       := line*                      -- split on '\n'
//! line       := blank | comment | section | statement
//!               -- first an unescaped '#' ends the line, then it is trimmed
//! section    := '[' title [ '"' escaped_arg '"' ] ']'
//! title      := "Version" | "DBOptions" | "CFOptions" | "TableOptions/" factory_name
//! statement  := name '=' value             -- name and value trimmed
//! escaping   := '\' before '\', '#', ':', CR (as "\r"), LF (as "\n")
//! ```

use crate::error::{Error, Result};
use crate::options::{
    ColumnFamilyOptions, DbOptions, WalRecoveryMode, DEFAULT_DATA_BLOCK_HASH_RATIO,
};

/// The RocksDB release whose option names we write.
pub const ROCKSDB_VERSION: &str = "7.8.3";
/// `options_file_version` as RocksDB 7.8.3 writes it.
pub const OPTIONS_FILE_VERSION: &str = "1.1";
/// The name RocksDB gives the default column family.
pub const DEFAULT_COLUMN_FAMILY: &str = "default";

const HEADER: &str = "# This is a RocksDB option file.\n\
#\n\
# Written by solistore with RocksDB 7.8.3's option names; see\n\
# examples/rocksdb_option_file_example.ini in RocksDB for the format.\n\
#\n";

/// The block-based table options solistore's SST writer uses, as `name=value` pairs in the
/// string forms of `block_based_table_factory.cc`.
const BLOCK_BASED_TABLE_OPTIONS: &[(&str, &str)] = &[
    ("format_version", "5"),
    ("block_size", "4096"),
    ("block_size_deviation", "10"),
    ("block_restart_interval", "16"),
    ("index_block_restart_interval", "1"),
    ("metadata_block_size", "4096"),
    ("checksum", "kXXH3"),
    ("index_type", "kBinarySearch"),
    ("index_shortening", "kShortenSeparators"),
    ("filter_policy", "nullptr"),
    ("whole_key_filtering", "true"),
    ("partition_filters", "false"),
    ("optimize_filters_for_memory", "false"),
    ("no_block_cache", "false"),
    ("cache_index_and_filter_blocks", "false"),
    ("pin_l0_filter_and_index_blocks_in_cache", "false"),
    ("enable_index_compression", "true"),
    ("verify_compression", "false"),
    ("block_align", "false"),
    ("read_amp_bytes_per_bit", "0"),
    (
        "flush_block_policy_factory",
        "FlushBlockBySizePolicyFactory",
    ),
];

/// The kind of a section, from its title.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SectionKind {
    Version,
    DbOptions,
    CfOptions,
    /// `TableOptions/<factory>`; holds the factory name, e.g. `BlockBasedTable`.
    TableOptions(String),
}

/// One `[...]` section and its statements, in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    pub kind: SectionKind,
    /// The unescaped quoted argument (the column family name), if the title had one.
    pub arg: Option<String>,
    /// `(name, value)` as written (values still escaped, as RocksDB keeps them).
    pub entries: Vec<(String, String)>,
}

impl Section {
    /// The first value of `name` (RocksDB keeps the first of duplicates too).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A parsed OPTIONS file.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ParsedOptionsFile {
    pub sections: Vec<Section>,
}

impl ParsedOptionsFile {
    /// The `[DBOptions]` section (the parser guarantees there is exactly one).
    pub fn db_options(&self) -> Option<&Section> {
        self.sections
            .iter()
            .find(|s| s.kind == SectionKind::DbOptions)
    }

    /// The `[CFOptions "<name>"]` section.
    pub fn cf_options(&self, name: &str) -> Option<&Section> {
        self.sections
            .iter()
            .find(|s| s.kind == SectionKind::CfOptions && s.arg.as_deref() == Some(name))
    }

    /// The table-options section of column family `name`, whatever its factory.
    pub fn table_options(&self, name: &str) -> Option<&Section> {
        self.sections.iter().find(|s| {
            matches!(s.kind, SectionKind::TableOptions(_)) && s.arg.as_deref() == Some(name)
        })
    }
}

/// RocksDB's name for a WAL recovery mode (`WALRecoveryMode` enumerators).
pub fn wal_recovery_mode_name(mode: WalRecoveryMode) -> &'static str {
    match mode {
        WalRecoveryMode::TolerateCorruptedTailRecords => "kTolerateCorruptedTailRecords",
        WalRecoveryMode::AbsoluteConsistency => "kAbsoluteConsistency",
        WalRecoveryMode::PointInTimeRecovery => "kPointInTimeRecovery",
        WalRecoveryMode::SkipAnyCorruptedRecords => "kSkipAnyCorruptedRecords",
    }
}

/// Escapes a value the way RocksDB's `EscapeOptionString` does.
pub fn escape_option_string(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for c in raw.chars() {
        match c {
            '\\' | '#' | ':' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            _ => out.push(c),
        }
    }
    out
}

/// Reverses [`escape_option_string`] (`UnescapeOptionString`): a backslash takes the next
/// character literally, except that `\n` and `\r` become LF and CR.
pub fn unescape_option_string(escaped: &str) -> String {
    let mut out = String::with_capacity(escaped.len());
    let mut chars = escaped.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

fn push_entries(out: &mut String, entries: &[(&str, String)]) {
    for (name, value) in entries {
        out.push_str("  ");
        out.push_str(name);
        out.push('=');
        out.push_str(value);
        out.push('\n');
    }
}

fn db_entries(db: &DbOptions) -> Vec<(&'static str, String)> {
    let mut e = vec![
        ("create_if_missing", db.create_if_missing.to_string()),
        ("error_if_exists", db.error_if_exists.to_string()),
        (
            "create_missing_column_families",
            db.create_missing_column_families.to_string(),
        ),
        ("paranoid_checks", db.paranoid_checks.to_string()),
        (
            "wal_recovery_mode",
            wal_recovery_mode_name(db.wal_recovery_mode).to_string(),
        ),
        ("manual_wal_flush", db.manual_wal_flush.to_string()),
        ("max_total_wal_size", db.max_total_wal_size.to_string()),
        (
            "max_manifest_file_size",
            db.max_manifest_file_size.to_string(),
        ),
        ("max_background_jobs", db.max_background_jobs.to_string()),
        (
            "max_background_compactions",
            db.max_background_compactions.to_string(),
        ),
        (
            "max_background_flushes",
            db.max_background_flushes.to_string(),
        ),
        ("max_subcompactions", db.max_subcompactions.to_string()),
        ("max_open_files", db.max_open_files.to_string()),
        ("use_fsync", db.use_fsync.to_string()),
        ("bytes_per_sync", db.bytes_per_sync.to_string()),
        ("wal_bytes_per_sync", db.wal_bytes_per_sync.to_string()),
        (
            "avoid_flush_during_shutdown",
            db.avoid_flush_during_shutdown.to_string(),
        ),
        (
            "avoid_flush_during_recovery",
            db.avoid_flush_during_recovery.to_string(),
        ),
        (
            "enable_pipelined_write",
            db.enable_pipelined_write.to_string(),
        ),
        ("unordered_write", db.unordered_write.to_string()),
        (
            "allow_concurrent_memtable_write",
            db.allow_concurrent_memtable_write.to_string(),
        ),
        ("db_write_buffer_size", db.db_write_buffer_size.to_string()),
        (
            "delete_obsolete_files_period_micros",
            db.delete_obsolete_files_period_micros.to_string(),
        ),
        (
            "stats_dump_period_sec",
            db.stats_dump_period_sec.to_string(),
        ),
        (
            "write_dbid_to_manifest",
            db.write_dbid_to_manifest.to_string(),
        ),
        // solistore does not compress its WAL.
        ("wal_compression", "kNoCompression".to_string()),
    ];
    if let Some(dir) = &db.wal_dir {
        e.push(("wal_dir", escape_option_string(dir)));
    }
    e
}

fn cf_entries(cf: &ColumnFamilyOptions) -> Vec<(&'static str, String)> {
    let merge = cf
        .merge_operator
        .as_ref()
        .map_or_else(|| "nullptr".to_string(), |m| escape_option_string(m.name()));
    vec![
        ("comparator", escape_option_string(cf.comparator.name())),
        ("merge_operator", merge),
        ("table_factory", "BlockBasedTable".to_string()),
        ("write_buffer_size", cf.write_buffer_size.to_string()),
        (
            "max_write_buffer_number",
            cf.max_write_buffer_number.to_string(),
        ),
        (
            "min_write_buffer_number_to_merge",
            cf.min_write_buffer_number_to_merge.to_string(),
        ),
        ("num_levels", cf.num_levels.to_string()),
        (
            "level0_file_num_compaction_trigger",
            cf.level0_file_num_compaction_trigger.to_string(),
        ),
        (
            "level0_slowdown_writes_trigger",
            cf.level0_slowdown_writes_trigger.to_string(),
        ),
        (
            "level0_stop_writes_trigger",
            cf.level0_stop_writes_trigger.to_string(),
        ),
        (
            "target_file_size_base",
            cf.target_file_size_base.to_string(),
        ),
        (
            "target_file_size_multiplier",
            cf.target_file_size_multiplier.to_string(),
        ),
        (
            "max_bytes_for_level_base",
            cf.max_bytes_for_level_base.to_string(),
        ),
        (
            "max_bytes_for_level_multiplier",
            format!("{:.6}", cf.max_bytes_for_level_multiplier),
        ),
        (
            "level_compaction_dynamic_level_bytes",
            cf.level_compaction_dynamic_level_bytes.to_string(),
        ),
        (
            "disable_auto_compactions",
            cf.disable_auto_compactions.to_string(),
        ),
        ("compaction_style", "kCompactionStyleLevel".to_string()),
    ]
}

/// Renders an OPTIONS file that RocksDB 7.8.3's parser accepts (`ldb` loads it):
/// `[Version]` with `rocksdb_version=7.8.3` and `options_file_version=1.1`, `[DBOptions]`,
/// then for each column family `[CFOptions "<name>"]` and
/// `[TableOptions/BlockBasedTable "<name>"]`. Only option names 7.8.3 knows are written.
///
/// `cfs` must include `"default"`; it is written first whatever its position, the others
/// keep their order. Names are escaped as RocksDB escapes them.
pub fn render_options_file(db: &DbOptions, cfs: &[(&str, &ColumnFamilyOptions)]) -> String {
    let mut out = String::from(HEADER);
    out.push_str("\n[Version]\n");
    out.push_str(&format!("  rocksdb_version={ROCKSDB_VERSION}\n"));
    out.push_str(&format!("  options_file_version={OPTIONS_FILE_VERSION}\n"));
    out.push_str("\n[DBOptions]\n");
    push_entries(&mut out, &db_entries(db));

    let defaults = cfs.iter().filter(|(n, _)| *n == DEFAULT_COLUMN_FAMILY);
    let others = cfs.iter().filter(|(n, _)| *n != DEFAULT_COLUMN_FAMILY);
    for (name, cf) in defaults.take(1).chain(others) {
        let arg = escape_option_string(name);
        out.push_str(&format!("\n[CFOptions \"{arg}\"]\n"));
        push_entries(&mut out, &cf_entries(cf));
        out.push_str(&format!("\n[TableOptions/BlockBasedTable \"{arg}\"]\n"));
        for (k, v) in BLOCK_BASED_TABLE_OPTIONS {
            out.push_str(&format!("  {k}={v}\n"));
        }
        let (index_type, ratio) = match cf.effective_data_block_hash_ratio() {
            Some(r) => ("kDataBlockBinaryAndHash", r),
            None => ("kDataBlockBinarySearch", DEFAULT_DATA_BLOCK_HASH_RATIO),
        };
        out.push_str(&format!("  data_block_index_type={index_type}\n"));
        out.push_str(&format!("  data_block_hash_table_util_ratio={ratio:.6}\n"));
    }
    out
}

/// C's `isspace` in the "C" locale.
fn is_c_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r')
}

/// `TrimAndRemoveComment`: cut at the first `#` not preceded by `\` (unless `trim_only`),
/// then trim C whitespace.
fn trim_and_remove_comment(line: &str, trim_only: bool) -> &str {
    let mut end = line.len();
    if !trim_only {
        let bytes = line.as_bytes();
        if let Some(pos) =
            (0..bytes.len()).find(|&i| bytes[i] == b'#' && (i == 0 || bytes[i - 1] != b'\\'))
        {
            end = pos;
        }
    }
    // `end` is at a '#' (ASCII) or the end, so it is a char boundary.
    line.get(..end).unwrap_or(line).trim_matches(is_c_space)
}

fn parser_error(line_num: usize, message: &str) -> Error {
    Error::invalid_argument(format!(
        "[RocksDBOptionsParser Error] : {message} (at line {line_num})"
    ))
}

/// `ParseVersionNumber`: up to `max_count` dot-separated decimal numbers.
fn parse_version_number(name: &str, text: &str, max_count: usize) -> Result<Vec<u64>> {
    let mut parts = vec![0u64; max_count];
    let mut index = 0;
    let mut digits = 0;
    let mut has_dot = false;
    for c in text.chars() {
        if c == '.' {
            if index + 1 >= max_count {
                return Err(Error::invalid_argument(format!(
                    "A valid {name} can only contains at most {} dots.",
                    max_count - 1
                )));
            }
            if digits == 0 {
                return Err(Error::invalid_argument(format!(
                    "A valid {name} must have at least one digit before each dot."
                )));
            }
            index += 1;
            digits = 0;
            has_dot = true;
        } else if let Some(d) = c.to_digit(10) {
            parts[index] = parts[index].saturating_mul(10).saturating_add(u64::from(d));
            digits += 1;
        } else {
            return Err(Error::invalid_argument(format!(
                "A valid {name} can only contains dots and numbers."
            )));
        }
    }
    if has_dot && digits == 0 {
        return Err(Error::invalid_argument(format!(
            "A valid {name} must have at least one digit after each dot."
        )));
    }
    Ok(parts)
}

/// Checks a finished `[Version]` section (`EndSection`).
fn check_version_section(section: &Section) -> Result<()> {
    for (name, value) in &section.entries {
        if name == "rocksdb_version" {
            parse_version_number(name, value, 3)?;
        } else if name == "options_file_version" {
            let v = parse_version_number(name, value, 2)?;
            if v[0] < 1 {
                return Err(Error::invalid_argument(
                    "A valid options_file_version must be at least 1.",
                ));
            }
        }
    }
    Ok(())
}

/// Parses a section title line (`ParseSection` + `CheckSection`).
fn parse_section(line: &str, line_num: usize, done: &[Section]) -> Result<Section> {
    let quote_start = line.find('"');
    let quote_end = line.rfind('"');
    let inner = |a: usize, b: usize| line.get(a..b).unwrap_or("");
    let (title, arg) = match (quote_start, quote_end) {
        (Some(s), Some(e)) if s != e => (
            trim_and_remove_comment(inner(1, s), true),
            Some(unescape_option_string(inner(s + 1, e))),
        ),
        _ => (
            trim_and_remove_comment(inner(1, line.len().saturating_sub(1)), true),
            None,
        ),
    };
    let kind = match title {
        "Version" => SectionKind::Version,
        "DBOptions" => SectionKind::DbOptions,
        "CFOptions" => SectionKind::CfOptions,
        t => match t.strip_prefix("TableOptions/") {
            Some(factory) if !factory.is_empty() => SectionKind::TableOptions(factory.to_string()),
            _ => return Err(Error::invalid_argument(format!("Unknown section {line}"))),
        },
    };
    let arg_text = arg.as_deref().unwrap_or("");
    let has_cf = |name: &str| {
        done.iter()
            .any(|s| s.kind == SectionKind::CfOptions && s.arg.as_deref().unwrap_or("") == name)
    };
    match &kind {
        SectionKind::DbOptions if done.iter().any(|s| s.kind == SectionKind::DbOptions) => {
            return Err(parser_error(
                line_num,
                "More than one DBOption section found in the option config file",
            ));
        }
        SectionKind::CfOptions => {
            let is_default = arg_text == DEFAULT_COLUMN_FAMILY;
            let first = !done.iter().any(|s| s.kind == SectionKind::CfOptions);
            if first && !is_default {
                return Err(parser_error(
                    line_num,
                    "Default column family must be the first CFOptions section in the option config file",
                ));
            }
            if !first && is_default {
                // RocksDB 7.8.3's text, typo included.
                return Err(parser_error(
                    line_num,
                    "Default column family must be the first CFOptions section in the optio/n config file",
                ));
            }
            if has_cf(arg_text) {
                return Err(parser_error(
                    line_num,
                    "Two identical column families found in option config file",
                ));
            }
        }
        SectionKind::TableOptions(_) if !has_cf(arg_text) => {
            return Err(parser_error(
                line_num,
                &format!(
                    "Does not find a matched column family name in TableOptions section.  Column Family Name:{arg_text}"
                ),
            ));
        }
        SectionKind::Version if done.iter().any(|s| s.kind == SectionKind::Version) => {
            return Err(parser_error(
                line_num,
                "More than one Version section found in the option config file.",
            ));
        }
        _ => {}
    }
    Ok(Section {
        kind,
        arg,
        entries: Vec::new(),
    })
}

/// Parses an OPTIONS file (ours or RocksDB's) with RocksDB 7.8.3's structural rules: exactly
/// one `[DBOptions]`, `[CFOptions "default"]` first among the CF sections, no column family
/// twice, a table section only after its column family's section, at most one `[Version]`
/// with well-formed version numbers. Statements before the first section are ignored, as
/// RocksDB does. Option names and values are not checked against RocksDB's option tables.
///
/// # Errors
/// InvalidArgument or Corruption with RocksDB's texts, e.g.
/// `[RocksDBOptionsParser Error] : A valid statement must have a '='. (at line 3)` or
/// `A RocksDB Option file must have a single DBOptions section`. Never panics.
pub fn parse_options_file(text: &str) -> Result<ParsedOptionsFile> {
    let mut sections: Vec<Section> = Vec::new();
    let mut current: Option<Section> = None;
    for (i, raw) in text.split('\n').enumerate() {
        let line_num = i + 1;
        let line = trim_and_remove_comment(raw, false);
        if line.is_empty() {
            continue;
        }
        if line.len() >= 2 && line.starts_with('[') && line.ends_with(']') {
            if let Some(done) = current.take() {
                if done.kind == SectionKind::Version {
                    check_version_section(&done)?;
                }
                sections.push(done);
            }
            current = Some(parse_section(line, line_num, &sections)?);
            continue;
        }
        let Some(eq) = line.find('=') else {
            return Err(parser_error(line_num, "A valid statement must have a '='."));
        };
        let name = trim_and_remove_comment(&line[..eq], true);
        let value = trim_and_remove_comment(&line[eq + 1..], false);
        if name.is_empty() {
            return Err(parser_error(
                line_num,
                "A valid statement must have a variable name.",
            ));
        }
        if let Some(section) = current.as_mut() {
            section.entries.push((name.to_string(), value.to_string()));
        }
    }
    if let Some(done) = current.take() {
        if done.kind == SectionKind::Version {
            check_version_section(&done)?;
        }
        sections.push(done);
    }
    if !sections.iter().any(|s| s.kind == SectionKind::DbOptions) {
        return Err(Error::corruption(
            "A RocksDB Option file must have a single DBOptions section",
        ));
    }
    if !sections.iter().any(|s| {
        s.kind == SectionKind::CfOptions && s.arg.as_deref() == Some(DEFAULT_COLUMN_FAMILY)
    }) {
        return Err(Error::corruption(
            "A RocksDB Option file must have a single CFOptions:default section",
        ));
    }
    Ok(ParsedOptionsFile { sections })
}

/// The column family names of the `[CFOptions]` sections, in file order (default first).
pub fn column_family_names(p: &ParsedOptionsFile) -> Vec<String> {
    p.sections
        .iter()
        .filter(|s| s.kind == SectionKind::CfOptions)
        .map(|s| s.arg.clone().unwrap_or_default())
        .collect()
}

#[cfg(test)]
#[path = "file_tests.rs"]
mod tests;
