// SPDX-License-Identifier: Apache-2.0
//! Differential tests against librocksdb 7.8.3: filters RocksDB writes (through
//! `rocksdb_sstfilewriter_*`, `testdata/rocksdb_filter_oracle.c`) must equal ours byte for
//! byte, and our reader must let through exactly the absent keys RocksDB's own reader lets
//! through. Skipped with a note when gcc or librocksdb is missing, unless
//! `SOLISTORE_REQUIRE_ROCKSDB=1`, which turns that into a failure.
//!
//! The SST is parsed here with a minimal, test-only reader (footer → metaindex →
//! `fullfilter.rocksdb.BuiltinBloomFilter`), independent of the table-format module.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use super::bloom::{millibits_per_key, LegacyGeometry};
use super::hash::{hash32, hash64, LEGACY_BLOOM_SEED};
use super::{FilterKind, FullFilterBuilder, FullFilterReader, METAINDEX_KEY};
use crate::util::coding::Decoder;

const ORACLE_C: &str = include_str!("testdata/rocksdb_filter_oracle.c");
const BLOCK_BASED_MAGIC: u64 = 0x88e2_41b7_85f4_cff7;
const FOOTER_LEN: usize = 53;
const QUERIES: usize = 100_000;

fn required() -> bool {
    std::env::var("SOLISTORE_REQUIRE_ROCKSDB").is_ok_and(|v| v == "1")
}

/// The compiled oracle, built once and cached in the temp dir; `None` when the toolchain is missing.
fn oracle() -> Option<&'static Path> {
    static EXE: OnceLock<Option<PathBuf>> = OnceLock::new();
    EXE.get_or_init(|| {
        if !Path::new("/usr/include/rocksdb/c.h").exists() {
            assert!(
                !required(),
                "librocksdb-dev is required but /usr/include/rocksdb/c.h is missing"
            );
            eprintln!("skipping: /usr/include/rocksdb/c.h not found");
            return None;
        }
        // Keyed by the source's hash so that runs reuse one build instead of piling up.
        let dir = std::env::temp_dir().join(format!(
            "solistore-filter-oracle-{:016x}",
            hash64(ORACLE_C.as_bytes())
        ));
        std::fs::create_dir_all(&dir).expect("create oracle dir");
        let exe = dir.join("rocksdb_filter_oracle");
        if exe.exists() {
            return Some(exe);
        }
        let pid = std::process::id();
        let src = dir.join(format!("rocksdb_filter_oracle.{pid}.c"));
        std::fs::write(&src, ORACLE_C).expect("write oracle source");
        let tmp_exe = dir.join(format!("rocksdb_filter_oracle.{pid}"));
        let out = match Command::new("gcc")
            .args(["-O1", "-Wall", "-Wextra", "-Werror", "-o"])
            .arg(&tmp_exe)
            .arg(&src)
            .arg("-lrocksdb")
            .output()
        {
            Ok(out) => out,
            Err(e) => {
                assert!(!required(), "gcc is required but cannot run: {e}");
                eprintln!("skipping: cannot run gcc: {e}");
                return None;
            }
        };
        let stderr = String::from_utf8_lossy(&out.stderr);
        if !out.status.success() {
            if stderr.contains("-lrocksdb") && !required() {
                eprintln!("skipping: librocksdb not linkable: {stderr}");
                return None;
            }
            panic!("rocksdb_filter_oracle.c failed to compile: {stderr}");
        }
        // Rename is atomic: a concurrent test process sees no binary or a whole one.
        std::fs::rename(&tmp_exe, &exe).expect("install oracle binary");
        let _ = std::fs::remove_file(&src);
        Some(exe)
    })
    .as_deref()
}

/// What one oracle run produced.
struct Run {
    /// The filter block contents (block trailer stripped), if the SST has one.
    filter: Option<Vec<u8>>,
    /// With a DB run: indices of absent query keys RocksDB's filter let through.
    rocksdb_fps: BTreeSet<usize>,
    useful: usize,
    found: usize,
}

/// Writes an SST of `n` keys with librocksdb and extracts its filter; with `query`, also asks
/// RocksDB which absent keys pass its filter.
fn run_oracle(exe: &Path, n: usize, bits: f64, fv: u32, policy: &str, query: bool) -> Run {
    let dir = tempfile::tempdir().expect("tempdir");
    let sst = dir.path().join("t.sst");
    let mut cmd = Command::new(exe);
    cmd.arg(&sst)
        .arg(n.to_string())
        .arg(bits.to_string())
        .arg(fv.to_string())
        .arg(policy);
    if query {
        cmd.arg(dir.path().join("db")).arg(QUERIES.to_string());
    }
    // Ingestion copies the file (move_files is off), so it is still there to read.
    let out = cmd.output().expect("run oracle");
    assert!(
        out.status.success(),
        "oracle failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let file = std::fs::read(&sst).expect("read sst");
    let mut run = Run {
        filter: extract_filter(&file, fv),
        rocksdb_fps: BTreeSet::new(),
        useful: 0,
        found: 0,
    };
    for line in String::from_utf8(out.stdout).expect("ascii").lines() {
        let (tag, v) = line.split_once(' ').expect("tagged line");
        let v: usize = v.parse().expect("number");
        match tag {
            "fp" => {
                run.rocksdb_fps.insert(v);
            }
            "useful" => run.useful = v,
            "found" => run.found = v,
            _ => panic!("unexpected oracle line {line}"),
        }
    }
    run
}

fn handle(d: &mut Decoder<'_>) -> (usize, usize) {
    let off = d.varint64().expect("handle offset");
    let size = d.varint64().expect("handle size");
    (off as usize, size as usize)
}

/// Footer (fv 1..=5: checksum type, two handles, format_version, magic) → metaindex block →
/// the full filter's handle → its contents.
fn extract_filter(file: &[u8], fv: u32) -> Option<Vec<u8>> {
    assert!(file.len() >= FOOTER_LEN, "file shorter than a footer");
    let footer = &file[file.len() - FOOTER_LEN..];
    let magic = u64::from_le_bytes(footer[45..53].try_into().expect("8 bytes"));
    assert_eq!(magic, BLOCK_BASED_MAGIC);
    let version = u32::from_le_bytes(footer[41..45].try_into().expect("4 bytes"));
    assert_eq!(version, fv);
    let (meta_off, meta_size) = handle(&mut Decoder::new(&footer[1..41]));
    let meta = &file[meta_off..meta_off + meta_size];
    assert_eq!(
        file[meta_off + meta_size],
        0,
        "metaindex is stored uncompressed"
    );

    // Block: entries, then restarts:fixed32[num], then num:fixed32.
    let num_restarts =
        u32::from_le_bytes(meta[meta.len() - 4..].try_into().expect("4 bytes")) as usize;
    let entries_end = meta.len() - 4 - 4 * num_restarts;
    let mut d = Decoder::new(&meta[..entries_end]);
    let mut key: Vec<u8> = Vec::new();
    let mut names = Vec::new();
    while !d.is_empty() {
        let shared = d.varint32().expect("shared") as usize;
        let non_shared = d.varint32().expect("non_shared") as usize;
        let value_len = d.varint32().expect("value_len") as usize;
        key.truncate(shared);
        key.extend_from_slice(d.bytes(non_shared).expect("key delta"));
        let value = d.bytes(value_len).expect("value");
        names.push(String::from_utf8_lossy(&key).into_owned());
        if key == METAINDEX_KEY.as_bytes() {
            let (off, size) = handle(&mut Decoder::new(value));
            assert_eq!(file[off + size], 0, "filter blocks are never compressed");
            return Some(file[off..off + size].to_vec());
        }
    }
    eprintln!("metaindex has no {METAINDEX_KEY}: {names:?}");
    None
}

fn key(i: usize) -> Vec<u8> {
    format!("key{i:06}").into_bytes()
}

/// The absent key the oracle queries as number `j`: inside the file's key range.
fn absent_key(j: usize, n: usize) -> Vec<u8> {
    format!("key{:06}.{j}", j % (n - 1)).into_bytes()
}

fn our_filter(n: usize, bits: f64) -> Vec<u8> {
    let mut b = FullFilterBuilder::new(bits).expect("policy builds a filter");
    for i in 0..n {
        b.add_user_key(&key(i), None);
    }
    b.finish()
}

#[test]
fn builder_is_byte_identical_to_rocksdb() {
    let Some(exe) = oracle() else { return };
    let mut cases: Vec<(usize, f64, &str)> = Vec::new();
    for n in [1, 100, 10_000, 100_000] {
        for bits in [5.0, 10.0, 20.0] {
            cases.push((n, bits, "bloom_full"));
        }
    }
    // Both C constructors make the same policy in 7.8.3; odd bits-per-key exercise the
    // millibits rounding and probe table.
    cases.extend([
        (100, 10.0, "bloom"),
        (10_000, 0.7, "bloom_full"),
        (10_000, 7.5, "bloom_full"),
        (10_000, 13.333, "bloom_full"),
        (10_000, 30.0, "bloom_full"),
        (3_000, 64.0, "bloom_full"),
    ]);
    for (n, bits, policy) in cases {
        let run = run_oracle(exe, n, bits, 5, policy, false);
        let theirs = run
            .filter
            .unwrap_or_else(|| panic!("no filter block for n={n} bits={bits}"));
        let ours = our_filter(n, bits);
        assert_eq!(
            ours.len(),
            theirs.len(),
            "length, n={n} bits={bits} {policy}"
        );
        assert!(
            ours == theirs,
            "filter bytes differ, n={n} bits={bits} {policy}"
        );
        eprintln!(
            "identical: n={n} bits={bits} {policy}: {} bytes, probes {}",
            ours.len(),
            ours[ours.len() - 3]
        );
    }
}

/// Fraction of `QUERIES` absent keys that `may_match` lets through, and which.
fn false_positives(n: usize, may_match: impl Fn(&[u8]) -> bool) -> BTreeSet<usize> {
    (0..QUERIES)
        .filter(|&j| may_match(&absent_key(j, n)))
        .collect()
}

#[test]
fn reader_agrees_with_rocksdb_on_every_query() {
    let Some(exe) = oracle() else { return };
    for (n, bits, lo, hi) in [
        (10_000, 10.0, 0.005, 0.015),
        (100_000, 10.0, 0.005, 0.015),
        (10_000, 20.0, 0.0, 0.001),
    ] {
        let run = run_oracle(exe, n, bits, 5, "bloom_full", true);
        assert_eq!(run.found, n, "RocksDB finds every written key");
        let block = run.filter.expect("filter block");
        let reader = FullFilterReader::new(block.clone());
        assert!(matches!(reader.kind(), FilterKind::FastLocalBloom { .. }));
        for i in 0..n {
            assert!(reader.key_may_match(&key(i)), "false negative for {i}");
        }
        let ours = false_positives(n, |k| reader.key_may_match(k));
        let via_hash = false_positives(n, |k| reader.hash_may_match(hash64(k)));
        assert_eq!(ours, via_hash);
        assert_eq!(
            run.useful + run.rocksdb_fps.len(),
            QUERIES,
            "every query consulted the filter"
        );
        assert_eq!(
            ours, run.rocksdb_fps,
            "same false positives as RocksDB, n={n} bits={bits}"
        );
        let rate = ours.len() as f64 / QUERIES as f64;
        eprintln!(
            "n={n} bits={bits}: FP rate {rate:.5} ({} of {QUERIES}), identical to RocksDB",
            ours.len()
        );
        assert!(
            (lo..=hi).contains(&rate),
            "FP rate {rate} outside {lo}..={hi}"
        );
        // Our own filter over the same keys answers identically (it is the same bytes).
        let mine = FullFilterReader::new(our_filter(n, bits));
        assert_eq!(
            false_positives(n, |k| mine.key_may_match(k)),
            run.rocksdb_fps
        );
    }
}

/// RocksDB's `LegacyBloomBitsBuilder` (format_version < 5), rebuilt here only to prove that
/// the legacy reader's geometry and probe sequence are RocksDB's.
fn legacy_filter(keys: impl Iterator<Item = Vec<u8>>, bits: f64) -> Vec<u8> {
    let whole_bits = (millibits_per_key(bits) + 500) / 1000;
    let num_probes = ((f64::from(whole_bits) * 0.69) as u32).clamp(1, 30);
    let mut hashes: Vec<u32> = Vec::new();
    for k in keys {
        let h = hash32(&k, LEGACY_BLOOM_SEED);
        if hashes.last() != Some(&h) {
            hashes.push(h);
        }
    }
    let total_bits = (hashes.len() as u64 * u64::from(whole_bits)).min(0xffff_0000) as u32;
    let mut num_lines = total_bits.div_ceil(512);
    if num_lines.is_multiple_of(2) {
        num_lines += 1;
    }
    let len = num_lines as usize * 64;
    let mut out = vec![0u8; len];
    let g = LegacyGeometry {
        num_probes,
        num_lines,
        log2_line_bytes: 6,
    };
    for h in hashes {
        g.add_hash(h, &mut out);
    }
    out.push(num_probes as u8);
    out.extend_from_slice(&num_lines.to_le_bytes());
    out
}

#[test]
fn legacy_bloom_from_format_version_4_is_read() {
    let Some(exe) = oracle() else { return };
    for (n, bits) in [(100, 10.0), (10_000, 10.0), (10_000, 16.0)] {
        let run = run_oracle(exe, n, bits, 4, "bloom_full", false);
        let block = run.filter.expect("filter block");
        assert!(
            legacy_filter((0..n).map(key), bits) == block,
            "legacy bytes differ, n={n}"
        );
        let reader = FullFilterReader::new(block);
        assert!(matches!(reader.kind(), FilterKind::LegacyBloom(g) if g.log2_line_bytes == 6));
        for i in 0..n {
            assert!(
                reader.key_may_match(&key(i)),
                "legacy false negative for {i}"
            );
        }
        let fps = false_positives(n, |k| reader.key_may_match(k)).len();
        let rate = fps as f64 / QUERIES as f64;
        eprintln!("legacy n={n} bits={bits}: FP rate {rate:.5}");
        assert!(rate < 0.03, "legacy FP rate {rate}");
    }
}

#[test]
fn ribbon_filter_is_recognised_and_safe() {
    let Some(exe) = oracle() else { return };
    let run = run_oracle(exe, 10_000, 10.0, 5, "ribbon", false);
    let reader = FullFilterReader::new(run.filter.expect("filter block"));
    assert_eq!(reader.kind(), FilterKind::Ribbon);
    assert!((0..100).all(|i| reader.key_may_match(&key(i))));
}
