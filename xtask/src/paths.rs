// SPDX-License-Identifier: Apache-2.0
//! Where things are: the repository root, the shared RocksDB reference lists, the target dir.

use std::path::{Path, PathBuf};

/// The workspace root (the parent of `xtask/`).
pub fn repo_root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| here.to_path_buf())
}

/// The folder holding `api-*.txt` and `api-*.prototypes.txt`: `$SOLISTORE_COMPAT_DIR` if set,
/// else `shared/rocksdb-compat` beside the repository (`<root>/../shared/rocksdb-compat`, as
/// in CI and the main checkout) or beside one of its ancestors (a worktree under `wt/`).
pub fn compat_dir() -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os("SOLISTORE_COMPAT_DIR") {
        return Ok(PathBuf::from(dir));
    }
    let root = repo_root();
    for ancestor in root.ancestors().skip(1) {
        let candidate = ancestor.join("shared").join("rocksdb-compat");
        if candidate.join("api-11.1.2.prototypes.txt").is_file() {
            return Ok(candidate);
        }
    }
    Err(format!(
        "cannot find shared/rocksdb-compat beside {} or its ancestors; set SOLISTORE_COMPAT_DIR",
        root.display()
    ))
}

/// Cargo's target directory: `$CARGO_TARGET_DIR` or `<root>/target`.
pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => {
            let dir = PathBuf::from(dir);
            if dir.is_absolute() {
                dir
            } else {
                repo_root().join(dir)
            }
        }
        None => repo_root().join("target"),
    }
}

/// Reads a file, naming it in the error.
pub fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes `text` to `path`, or with `check` only compares and fails when they differ.
pub fn write_or_check(path: &Path, text: &str, check: bool, regen: &str) -> Result<(), String> {
    if check {
        let old = std::fs::read_to_string(path).unwrap_or_default();
        if old != text {
            return Err(format!(
                "{} is stale: run `{regen}` and commit it",
                path.display()
            ));
        }
        println!("{} is up to date", path.display());
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    println!("wrote {}", path.display());
    Ok(())
}
