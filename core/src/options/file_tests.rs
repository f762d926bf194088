// SPDX-License-Identifier: Apache-2.0
//! Tests of the OPTIONS file renderer and parser, including oracle tests against RocksDB
//! 7.8.3's `ldb` (skipped when `ldb` is not installed).

use super::*;
use crate::merge::UInt64AddOperator;
use proptest::prelude::*;
use std::path::Path;
use std::process::Command;
use std::sync::Arc;

fn err_of(text: &str) -> Error {
    match parse_options_file(text) {
        Ok(p) => panic!("expected an error, parsed {p:?}"),
        Err(e) => e,
    }
}

const MINIMAL: &str = "[DBOptions]\n[CFOptions \"default\"]\n";

#[test]
fn rendered_file_parses_with_our_values() {
    let db = DbOptions {
        create_if_missing: true,
        wal_recovery_mode: WalRecoveryMode::AbsoluteConsistency,
        max_total_wal_size: 1 << 30,
        wal_dir: Some("/w#a:l".into()),
        ..DbOptions::default()
    };
    let cf1 = ColumnFamilyOptions {
        merge_operator: Some(Arc::new(UInt64AddOperator)),
        write_buffer_size: 8 << 20,
        max_bytes_for_level_multiplier: 8.5,
        ..ColumnFamilyOptions::default()
    };
    let default = ColumnFamilyOptions::default();
    // "default" is written first even when given later.
    let text = render_options_file(&db, &[("cf:1", &cf1), ("default", &default)]);
    assert!(text.contains("  rocksdb_version=7.8.3\n  options_file_version=1.1\n"));
    let p = parse_options_file(&text).expect("our file parses");
    assert_eq!(column_family_names(&p), ["default", "cf:1"]);
    assert!(text.contains("[CFOptions \"cf\\:1\"]"));

    let dbs = p.db_options().expect("DBOptions");
    assert_eq!(dbs.get("create_if_missing"), Some("true"));
    assert_eq!(dbs.get("wal_recovery_mode"), Some("kAbsoluteConsistency"));
    assert_eq!(dbs.get("max_total_wal_size"), Some("1073741824"));
    assert_eq!(dbs.get("paranoid_checks"), Some("true"));
    assert_eq!(
        dbs.get("wal_dir").map(unescape_option_string).as_deref(),
        Some("/w#a:l")
    );

    let d = p.cf_options("default").expect("default CF");
    assert_eq!(d.get("comparator"), Some("leveldb.BytewiseComparator"));
    assert_eq!(d.get("merge_operator"), Some("nullptr"));
    assert_eq!(d.get("write_buffer_size"), Some("67108864"));
    assert_eq!(d.get("level0_stop_writes_trigger"), Some("36"));
    let c = p.cf_options("cf:1").expect("cf:1");
    assert_eq!(c.get("merge_operator"), Some("UInt64AddOperator"));
    assert_eq!(c.get("write_buffer_size"), Some("8388608"));
    assert_eq!(c.get("max_bytes_for_level_multiplier"), Some("8.500000"));

    let t = p.table_options("cf:1").expect("table section");
    assert_eq!(t.kind, SectionKind::TableOptions("BlockBasedTable".into()));
    assert_eq!(t.get("format_version"), Some("5"));
    assert_eq!(t.get("checksum"), Some("kXXH3"));
    assert_eq!(t.get("filter_policy"), Some("nullptr"));
}

#[test]
fn comments_trimming_and_escapes() {
    let text = "x=ignored before any section\n\
                # comment\n  [DBOptions]   # trailing\n\
                \ta = b\\#c # cut here\n\
                [CFOptions \"de\\fault\"]\n";
    let p = parse_options_file(text).expect("parses");
    assert_eq!(p.sections.len(), 2);
    assert_eq!(
        p.sections[0].entries,
        vec![("a".to_string(), "b\\#c".to_string())]
    );
    assert_eq!(p.sections[1].arg.as_deref(), Some("default"));
    assert_eq!(unescape_option_string("a\\:b\\nc\\\\"), "a:b\nc\\");
    assert_eq!(escape_option_string("a:b\nc\\#"), "a\\:b\\nc\\\\\\#");
}

#[test]
fn structural_errors_use_rocksdb_texts() {
    let e = err_of("[DBOptions]\n[CFOptions \"x\"]\n");
    assert_eq!(
        e.to_string(),
        "Invalid argument: [RocksDBOptionsParser Error] : Default column family must be the first CFOptions section in the option config file (at line 2)"
    );
    let e = err_of("[DBOptions]\n[CFOptions \"default\"]\n[CFOptions \"a\"]\n[CFOptions \"a\"]\n");
    assert!(e.message().contains("Two identical column families"), "{e}");
    assert!(e.message().ends_with("(at line 4)"), "{e}");
    let e = err_of("[DBOptions]\n[CFOptions \"default\"]\n[CFOptions \"default\"]\n");
    assert!(e.message().contains("optio/n config file"), "{e}");
    let e = err_of(
        "[DBOptions]\n[TableOptions/BlockBasedTable \"default\"]\n[CFOptions \"default\"]\n",
    );
    assert!(
        e.message().contains("Does not find a matched column family name in TableOptions section.  Column Family Name:default"),
        "{e}"
    );
    let e = err_of("[DBOptions]\n[DBOptions]\n[CFOptions \"default\"]\n");
    assert!(
        e.message().contains("More than one DBOption section"),
        "{e}"
    );
    let e = err_of("[Version]\n[Version]\n");
    assert!(e.message().contains("More than one Version section"), "{e}");
    let e = err_of("[CFOptions \"default\"]\n");
    assert!(e.is_corruption());
    assert_eq!(
        e.message(),
        "A RocksDB Option file must have a single DBOptions section"
    );
    let e = err_of("[DBOptions]\n");
    assert_eq!(
        e.message(),
        "A RocksDB Option file must have a single CFOptions:default section"
    );
    let e = err_of("[DBOptions]\nnovalue\n");
    assert_eq!(
        e.message(),
        "[RocksDBOptionsParser Error] : A valid statement must have a '='. (at line 2)"
    );
    let e = err_of("[DBOptions]\n =1\n");
    assert!(
        e.message()
            .contains("must have a variable name. (at line 2)"),
        "{e}"
    );
    let e = err_of("[Options]\n");
    assert_eq!(e.to_string(), "Invalid argument: Unknown section [Options]");
    let e = err_of("[TableOptions/]\n");
    assert!(e.message().starts_with("Unknown section"), "{e}");
    let e = err_of("[CFOptions \"default]\n");
    assert!(e.message().starts_with("Unknown section"), "{e}");
}

#[test]
fn version_section_rules() {
    let with = |v: &str| format!("[Version]\n{v}\n{MINIMAL}");
    assert!(parse_options_file(&with("rocksdb_version=11.1.2\noptions_file_version=1.1")).is_ok());
    let e = err_of(&with("rocksdb_version=1.2.3.4"));
    assert_eq!(
        e.message(),
        "A valid rocksdb_version can only contains at most 2 dots."
    );
    let e = err_of(&with("rocksdb_version=7.x"));
    assert_eq!(
        e.message(),
        "A valid rocksdb_version can only contains dots and numbers."
    );
    let e = err_of(&with("rocksdb_version=7."));
    assert_eq!(
        e.message(),
        "A valid rocksdb_version must have at least one digit after each dot."
    );
    let e = err_of(&with("options_file_version=.1"));
    assert_eq!(
        e.message(),
        "A valid options_file_version must have at least one digit before each dot."
    );
    let e = err_of(&with("options_file_version=0.9"));
    assert_eq!(
        e.message(),
        "A valid options_file_version must be at least 1."
    );
    // Version is optional; a huge number saturates instead of overflowing.
    assert!(parse_options_file(MINIMAL).is_ok());
    assert!(parse_options_file(&with("rocksdb_version=99999999999999999999999.1.1")).is_ok());
}

proptest! {
    #[test]
    fn parse_never_panics(text in "(\\[|\\]|\"|=|#|\\\\|\n| |[a-zA-Z/]|é){0,120}") {
        let _ = parse_options_file(&text);
    }

    #[test]
    fn parse_never_panics_on_mutated_rendered_files(at in any::<prop::sample::Index>(), c in any::<char>()) {
        let text = render_options_file(&DbOptions::default(), &[("default", &ColumnFamilyOptions::default())]);
        let mut chars: Vec<char> = text.chars().collect();
        let i = at.index(chars.len());
        chars[i] = c;
        let mutated: String = chars.into_iter().collect();
        let _ = parse_options_file(&mutated);
        let _ = parse_options_file(&mutated[..mutated.char_indices().nth(i).map_or(0, |(b, _)| b)]);
    }

    #[test]
    fn escape_round_trips(s in ".{0,20}") {
        prop_assert_eq!(unescape_option_string(&escape_option_string(&s)), s);
    }
}

// ---------------------------------------------------------------------------------------
// Oracle tests against RocksDB 7.8.3's `ldb`.

fn ldb_available() -> bool {
    Command::new("ldb")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

fn ldb(args: &[&str]) -> String {
    let out = Command::new("ldb").args(args).output().expect("ldb runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "ldb {args:?} failed: {text}");
    text
}

/// `OPTIONS-*` files in `dir`, ordered by number.
fn options_files(dir: &Path) -> Vec<(u64, std::path::PathBuf)> {
    let mut v: Vec<(u64, std::path::PathBuf)> = std::fs::read_dir(dir)
        .expect("list dir")
        .filter_map(|e| {
            let e = e.ok()?;
            let n = e.file_name().into_string().ok()?;
            Some((n.strip_prefix("OPTIONS-")?.parse().ok()?, e.path()))
        })
        .collect();
    v.sort();
    v
}

#[test]
fn rocksdb_parses_its_own_options_files_with_our_parser() {
    if !ldb_available() {
        eprintln!("skipped: ldb not installed");
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let db = format!("--db={}", dir.path().display());
    ldb(&[&db, "--create_if_missing", "put", "k", "v"]);
    ldb(&[&db, "create_column_family", "cf1"]);
    let files = options_files(dir.path());
    assert!(!files.is_empty());
    for (_, path) in &files {
        let text = std::fs::read_to_string(path).expect("read OPTIONS");
        let p = parse_options_file(&text).expect("RocksDB's OPTIONS parses");
        let v = p.sections.first().expect("sections");
        assert_eq!(v.kind, SectionKind::Version);
        assert_eq!(v.get("rocksdb_version"), Some("7.8.3"));
        let d = p.db_options().expect("DBOptions");
        assert_eq!(d.get("wal_recovery_mode"), Some("kPointInTimeRecovery"));
        let c = p.cf_options("default").expect("default CF");
        assert_eq!(c.get("comparator"), Some("leveldb.BytewiseComparator"));
        let t = p.table_options("default").expect("table options");
        assert_eq!(t.get("format_version"), Some("5"));
    }
    let (_, newest) = files.last().expect("one file");
    let p = parse_options_file(&std::fs::read_to_string(newest).expect("read")).expect("parses");
    assert_eq!(column_family_names(&p), ["default", "cf1"]);
    // Every option name we write is one RocksDB writes itself.
    let ours = parse_options_file(&render_options_file(
        &DbOptions {
            wal_dir: Some("/x".into()),
            ..DbOptions::default()
        },
        &[("default", &ColumnFamilyOptions::default())],
    ))
    .expect("ours parses");
    for (kind_of, theirs, mine) in [
        ("DBOptions", p.db_options(), ours.db_options()),
        (
            "CFOptions",
            p.cf_options("default"),
            ours.cf_options("default"),
        ),
        (
            "TableOptions",
            p.table_options("default"),
            ours.table_options("default"),
        ),
    ] {
        let (theirs, mine) = (theirs.expect("theirs"), mine.expect("mine"));
        for (name, _) in &mine.entries {
            assert!(
                theirs.get(name).is_some() || name == "wal_dir",
                "{kind_of} option {name} is not one RocksDB 7.8.3 writes"
            );
        }
    }
}

#[test]
fn ldb_loads_our_options_file() {
    if !ldb_available() {
        eprintln!("skipped: ldb not installed");
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let db = format!("--db={}", dir.path().display());
    ldb(&[&db, "--create_if_missing", "put", "k", "v"]);
    ldb(&[&db, "create_column_family", "cf1"]);
    ldb(&[&db, "--column_family=cf1", "put", "k1", "v1"]);

    let mut highest = 0;
    for (n, path) in options_files(dir.path()) {
        highest = highest.max(n);
        std::fs::remove_file(path).expect("remove OPTIONS");
    }
    let dbo = DbOptions {
        max_total_wal_size: 123_456_789,
        ..DbOptions::default()
    };
    let cf1 = ColumnFamilyOptions {
        merge_operator: Some(Arc::new(UInt64AddOperator)),
        write_buffer_size: 12 << 20,
        level0_file_num_compaction_trigger: 6,
        ..ColumnFamilyOptions::default()
    };
    let text = render_options_file(
        &dbo,
        &[("default", &ColumnFamilyOptions::default()), ("cf1", &cf1)],
    );
    let ours = dir.path().join(format!("OPTIONS-{:06}", highest + 1));
    std::fs::write(&ours, &text).expect("write OPTIONS");

    assert_eq!(ldb(&[&db, "get", "k"]).trim(), "v");
    assert_eq!(
        ldb(&[
            &db,
            "--try_load_options",
            "--column_family=cf1",
            "get",
            "k1"
        ])
        .trim(),
        "v1"
    );
    // A bad option in our file would have failed the command: prove ldb really read it.
    let broken = dir.path().join(format!("OPTIONS-{:06}", highest + 1000));
    std::fs::write(&broken, text.replace("max_open_files=", "max_open_filez=")).expect("write");
    let out = Command::new("ldb")
        .args([db.as_str(), "get", "k"])
        .output()
        .expect("ldb runs");
    assert!(!out.status.success(), "ldb accepted an unknown option");
    std::fs::remove_file(&broken).expect("remove");

    // A read-write open (`get` is read-only) makes RocksDB write a fresh OPTIONS file from
    // the options it loaded, i.e. ours.
    ldb(&[&db, "put", "k2", "v2"]);
    let theirs = options_files(dir.path())
        .into_iter()
        .filter_map(|(_, path)| std::fs::read_to_string(path).ok())
        .rfind(|t| *t != text)
        .expect("RocksDB wrote an OPTIONS file of its own");
    let p = parse_options_file(&theirs).expect("parses");
    assert_eq!(column_family_names(&p), ["default", "cf1"]);
    let d = p.db_options().expect("DBOptions");
    assert_eq!(d.get("max_total_wal_size"), Some("123456789"));
    let c = p.cf_options("cf1").expect("cf1");
    assert_eq!(c.get("write_buffer_size"), Some("12582912"));
    assert_eq!(c.get("level0_file_num_compaction_trigger"), Some("6"));
}

#[test]
fn the_data_block_index_type_written_is_the_one_tables_get() {
    struct Reversed;
    impl crate::key::Comparator for Reversed {
        fn compare(&self, a: &[u8], b: &[u8]) -> std::cmp::Ordering {
            b.cmp(a)
        }
        fn name(&self) -> &str {
            "test.Reversed"
        }
    }
    let line = |cf: &ColumnFamilyOptions| {
        let text = render_options_file(&DbOptions::default(), &[("default", cf)]);
        let pick = |name: &str| {
            text.lines()
                .find_map(|l| l.trim().strip_prefix(name).map(str::to_string))
                .expect("line present")
        };
        (
            pick("data_block_index_type="),
            pick("data_block_hash_table_util_ratio="),
        )
    };
    let hashed = ColumnFamilyOptions {
        data_block_hash_ratio: Some(0.75),
        ..ColumnFamilyOptions::default()
    };
    assert_eq!(
        line(&hashed),
        ("kDataBlockBinaryAndHash".into(), "0.750000".into())
    );
    assert_eq!(
        line(&ColumnFamilyOptions::default()).0,
        "kDataBlockBinarySearch"
    );
    let odd_ratio = ColumnFamilyOptions {
        data_block_hash_ratio: Some(f64::NAN),
        ..ColumnFamilyOptions::default()
    };
    assert_eq!(odd_ratio.effective_data_block_hash_ratio(), Some(0.75));
    let plain = ColumnFamilyOptions {
        data_block_hash_ratio: None,
        ..ColumnFamilyOptions::default()
    };
    assert_eq!(line(&plain).0, "kDataBlockBinarySearch");
    let custom = ColumnFamilyOptions {
        comparator: Arc::new(Reversed),
        ..ColumnFamilyOptions::default()
    };
    assert_eq!(custom.effective_data_block_hash_ratio(), None);
    assert_eq!(line(&custom).0, "kDataBlockBinarySearch");
}
