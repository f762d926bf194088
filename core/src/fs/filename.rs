// SPDX-License-Identifier: Apache-2.0
//! RocksDB's file names in a DB directory (`file/filename.cc`): `CURRENT`, `IDENTITY`,
//! `LOCK`, `MANIFEST-%06u`, `%06u.log`, `%06u.sst`, `OPTIONS-%06u`, `%06u.dbtmp`.

use std::path::{Path, PathBuf};

/// What a DB directory entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileType {
    Current,
    Identity,
    Lock,
    Manifest(u64),
    Wal(u64),
    Table(u64),
    Options(u64),
    OptionsTemp(u64),
    Temp(u64),
    InfoLog,
    Blob(u64),
}

pub fn current_file(db: &Path) -> PathBuf {
    db.join("CURRENT")
}
pub fn identity_file(db: &Path) -> PathBuf {
    db.join("IDENTITY")
}
pub fn lock_file(db: &Path) -> PathBuf {
    db.join("LOCK")
}
pub fn manifest_name(number: u64) -> String {
    format!("MANIFEST-{number:06}")
}
pub fn manifest_file(db: &Path, number: u64) -> PathBuf {
    db.join(manifest_name(number))
}
pub fn wal_file(dir: &Path, number: u64) -> PathBuf {
    dir.join(format!("{number:06}.log"))
}
pub fn table_file(db: &Path, number: u64) -> PathBuf {
    db.join(format!("{number:06}.sst"))
}
pub fn options_file(db: &Path, number: u64) -> PathBuf {
    db.join(format!("OPTIONS-{number:06}"))
}
pub fn temp_file(db: &Path, number: u64) -> PathBuf {
    db.join(format!("{number:06}.dbtmp"))
}

fn parse_number(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// Classifies a directory entry's name, or None when it is not one of RocksDB's files.
pub fn parse_file_name(name: &str) -> Option<FileType> {
    match name {
        "CURRENT" => return Some(FileType::Current),
        "IDENTITY" => return Some(FileType::Identity),
        "LOCK" => return Some(FileType::Lock),
        "LOG" => return Some(FileType::InfoLog),
        _ => {}
    }
    if name.starts_with("LOG.old.") {
        return Some(FileType::InfoLog);
    }
    if let Some(rest) = name.strip_prefix("MANIFEST-") {
        return parse_number(rest).map(FileType::Manifest);
    }
    if let Some(rest) = name.strip_prefix("OPTIONS-") {
        if let Some(num) = rest.strip_suffix(".dbtmp") {
            return parse_number(num).map(FileType::OptionsTemp);
        }
        return parse_number(rest).map(FileType::Options);
    }
    let (num, ext) = name.split_once('.')?;
    let n = parse_number(num)?;
    match ext {
        "log" => Some(FileType::Wal(n)),
        "sst" | "ldb" => Some(FileType::Table(n)),
        "dbtmp" => Some(FileType::Temp(n)),
        "blob" => Some(FileType::Blob(n)),
        _ => None,
    }
}

/// Parses CURRENT's content (`MANIFEST-000005\n`) into the manifest number.
pub fn parse_current(content: &[u8]) -> Option<u64> {
    let text = std::str::from_utf8(content).ok()?;
    let name = text.strip_suffix('\n')?;
    match parse_file_name(name)? {
        FileType::Manifest(n) => Some(n),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        assert_eq!(manifest_name(5), "MANIFEST-000005");
        assert_eq!(
            parse_file_name("MANIFEST-000005"),
            Some(FileType::Manifest(5))
        );
        assert_eq!(
            parse_file_name("1234567.log"),
            Some(FileType::Wal(1_234_567))
        );
        assert_eq!(parse_file_name("000012.sst"), Some(FileType::Table(12)));
        assert_eq!(parse_file_name("000012.ldb"), Some(FileType::Table(12)));
        assert_eq!(
            parse_file_name("OPTIONS-000007"),
            Some(FileType::Options(7))
        );
        assert_eq!(
            parse_file_name("OPTIONS-000007.dbtmp"),
            Some(FileType::OptionsTemp(7))
        );
        assert_eq!(parse_file_name("x.log"), None);
        assert_eq!(parse_current(b"MANIFEST-000001\n"), Some(1));
        assert_eq!(parse_current(b"MANIFEST-000001"), None);
    }
}
