// SPDX-License-Identifier: Apache-2.0
//! The engine's one error type, whose codes and texts mirror RocksDB's `Status`.
//!
//! `Display` renders exactly what RocksDB's `Status::ToString()` prints (`"<prefix><message>"`),
//! so the C API can hand the text to callers that match on it (`IO error: While lock file: ...`).
//! Prefixes are from `util/status.cc` (see `../shared/rocksdb-compat/c-api-conventions.md` §6).

use std::fmt;

/// RocksDB's `Status::Code`, minus `kOk`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Code {
    NotFound,
    Corruption,
    NotSupported,
    InvalidArgument,
    IoError,
    MergeInProgress,
    Incomplete,
    ShutdownInProgress,
    TimedOut,
    Aborted,
    Busy,
    Expired,
    TryAgain,
    CompactionTooLarge,
    ColumnFamilyDropped,
}

impl Code {
    /// The exact prefix RocksDB prints for this code, trailing space included.
    pub fn prefix(self) -> &'static str {
        match self {
            Code::NotFound => "NotFound: ",
            Code::Corruption => "Corruption: ",
            Code::NotSupported => "Not implemented: ",
            Code::InvalidArgument => "Invalid argument: ",
            Code::IoError => "IO error: ",
            Code::MergeInProgress => "Merge in progress: ",
            Code::Incomplete => "Result incomplete: ",
            Code::ShutdownInProgress => "Shutdown in progress: ",
            Code::TimedOut => "Operation timed out: ",
            Code::Aborted => "Operation aborted: ",
            Code::Busy => "Resource busy: ",
            Code::Expired => "Operation expired: ",
            Code::TryAgain => "Operation failed. Try again.: ",
            Code::CompactionTooLarge => "Compaction too large: ",
            Code::ColumnFamilyDropped => "Column family dropped: ",
        }
    }
}

/// A failed operation: a RocksDB status code and the text after its prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    code: Code,
    message: String,
}

/// The engine's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An error with `code` and the text that follows the code's prefix.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Error {
            code,
            message: message.into(),
        }
    }
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(Code::NotFound, message)
    }
    pub fn corruption(message: impl Into<String>) -> Self {
        Self::new(Code::Corruption, message)
    }
    /// RocksDB's `NotSupported`, printed as `Not implemented: `.
    pub fn not_supported(message: impl Into<String>) -> Self {
        Self::new(Code::NotSupported, message)
    }
    pub fn invalid_argument(message: impl Into<String>) -> Self {
        Self::new(Code::InvalidArgument, message)
    }
    pub fn io_error(message: impl Into<String>) -> Self {
        Self::new(Code::IoError, message)
    }
    pub fn busy(message: impl Into<String>) -> Self {
        Self::new(Code::Busy, message)
    }
    pub fn aborted(message: impl Into<String>) -> Self {
        Self::new(Code::Aborted, message)
    }
    pub fn shutdown_in_progress(message: impl Into<String>) -> Self {
        Self::new(Code::ShutdownInProgress, message)
    }

    /// An I/O failure in RocksDB's words: `IO error: <context>: <path>: <strerror>`,
    /// and for a missing file `IO error: No such file or directory: <context>: <path>: ...`
    /// as `env/io_posix.h` `IOError()` formats it.
    pub fn from_io(context: &str, path: &std::path::Path, err: &std::io::Error) -> Self {
        let text = strerror_text(err);
        if err.kind() == std::io::ErrorKind::NotFound {
            Self::io_error(format!("{text}: {context}: {}: {text}", path.display()))
        } else if err.raw_os_error() == Some(libc::ENOSPC) {
            Self::io_error(format!(
                "No space left on device: {context}: {}: {text}",
                path.display()
            ))
        } else {
            Self::io_error(format!("{context}: {}: {text}", path.display()))
        }
    }

    pub fn code(&self) -> Code {
        self.code
    }
    /// The text after the code's prefix.
    pub fn message(&self) -> &str {
        &self.message
    }
    pub fn is_not_found(&self) -> bool {
        self.code == Code::NotFound
    }
    pub fn is_corruption(&self) -> bool {
        self.code == Code::Corruption
    }
    pub fn is_io_error(&self) -> bool {
        self.code == Code::IoError
    }
    /// An I/O error caused by a full disk: RocksDB's `IOError` with sub-code `kNoSpace`, whose
    /// text (as [`Error::from_io`] renders it) starts with the sub-code's message.
    pub fn is_no_space(&self) -> bool {
        self.code == Code::IoError && self.message.starts_with("No space left on device")
    }
}

/// The C library's text for an OS error (`strerror`), without Rust's " (os error N)" suffix.
fn strerror_text(err: &std::io::Error) -> String {
    let full = err.to_string();
    match full.find(" (os error ") {
        Some(cut) => full[..cut].to_string(),
        None => full,
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.code.prefix(), self.message)
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_matches_rocksdb_status_text() {
        assert_eq!(Error::not_supported("x").to_string(), "Not implemented: x");
        assert_eq!(Error::not_found("").to_string(), "NotFound: ");
        assert_eq!(
            Error::new(Code::TryAgain, "y").to_string(),
            "Operation failed. Try again.: y"
        );
    }

    #[test]
    fn io_errors_use_strerror_text() {
        let e = std::io::Error::from_raw_os_error(libc::EAGAIN);
        let err = Error::from_io("While lock file", std::path::Path::new("/d/LOCK"), &e);
        assert_eq!(
            err.to_string(),
            "IO error: While lock file: /d/LOCK: Resource temporarily unavailable"
        );
        let e = std::io::Error::from_raw_os_error(libc::ENOENT);
        let err = Error::from_io(
            "While opening a file for sequentially reading",
            std::path::Path::new("/d/CURRENT"),
            &e,
        );
        assert_eq!(
            err.to_string(),
            "IO error: No such file or directory: While opening a file for sequentially reading: /d/CURRENT: No such file or directory"
        );
    }
}
