// SPDX-License-Identifier: Apache-2.0
//! Writes the seed corpora of the fuzz targets (core/fuzz) from real files: a DB that
//! solistore writes here (three column families, Snappy and uncompressed tables, a Bloom
//! filter, range tombstones, a WAL with unflushed batches), plus any DB directories given
//! on the command line (`make fuzz-seeds` passes one that Debian's RocksDB 7.8.3 wrote).
//!
//! usage: fuzz_seeds <out dir> [db dir ...]
//! Each target gets `<out>/<target>/<origin>-<what>`; seeds longer than 16 KiB are cut.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use solistore::batch::WriteBatch;
use solistore::db::Db;
use solistore::options::{ColumnFamilyOptions, DbOptions, WalRecoveryMode, WriteOptions};
use solistore::sst::block::{Block, BlockIter, IndexFormat, KeyOrder};
use solistore::sst::compression::decompress_block;
use solistore::sst::format::BlockHandle;
use solistore::sst::reader::{PosixRandomAccessFile, Table, TableReaderOptions};
use solistore::sst::CompressionType;
use solistore::wal::reader::{LogReader, ReadOutcome};

const MAX_SEED: usize = 16 << 10;

fn write_seed(out: &Path, target: &str, name: &str, bytes: &[u8]) {
    let dir = out.join(target);
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(dir.join(name), &bytes[..bytes.len().min(MAX_SEED)]).expect("write seed");
}

/// The solistore DB the seeds come from.
fn write_db(dir: &Path) {
    let names = ["default", "cf1", "cf2"];
    let descs: Vec<(String, ColumnFamilyOptions)> = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let mut o = ColumnFamilyOptions {
                block_size: 512,
                ..Default::default()
            };
            if i == 1 {
                o.bloom_bits_per_key = Some(10.0);
            }
            if i == 2 {
                o.compression = CompressionType::None;
            }
            (n.to_string(), o)
        })
        .collect();
    let opts = DbOptions {
        create_if_missing: true,
        create_missing_column_families: true,
        ..Default::default()
    };
    let (db, h) = Db::open_cf(&opts, &dir.to_string_lossy(), descs).expect("open");
    for round in 0..3 {
        for b in 0..10 {
            let mut wb = WriteBatch::new();
            for (c, handle) in h.iter().enumerate() {
                for i in 0..8 {
                    let k = format!("key{:04}", b * 8 + i);
                    wb.put(
                        handle.id(),
                        k.as_bytes(),
                        format!("value-{round}-{c}-{k}").as_bytes(),
                    );
                }
            }
            if b == 3 {
                wb.delete(h[0].id(), b"key0005");
                wb.delete_range(h[1].id(), b"key0010", b"key0020");
            }
            db.write(&WriteOptions::default(), &wb).expect("write");
        }
        if round < 2 {
            db.flush_all(true).expect("flush");
        }
    }
    db.close().expect("close");
}

fn records(bytes: &[u8], mode: WalRecoveryMode) -> Vec<Vec<u8>> {
    let mut reader = LogReader::new(bytes, 0, mode);
    let mut out = Vec::new();
    let mut rec = Vec::new();
    while let Ok(ReadOutcome::Record) = reader.read_record(&mut rec) {
        out.push(rec.clone());
    }
    out
}

fn raw_block(file: &[u8], h: BlockHandle, format_version: u32) -> Option<Vec<u8>> {
    let start = usize::try_from(h.offset).ok()?;
    let end = start.checked_add(usize::try_from(h.size).ok()?)?;
    let ctype = *file.get(end)?;
    decompress_block(file.get(start..end)?, ctype, format_version).ok()
}

fn table_seeds(out: &Path, origin: &str, path: &Path) {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let bytes = std::fs::read(path).expect("read table");
    let Ok(file) = PosixRandomAccessFile::open(path) else {
        return;
    };
    let Ok(table) = Table::open(
        Arc::new(file),
        bytes.len() as u64,
        TableReaderOptions::default(),
    ) else {
        return;
    };
    let tag = format!("{origin}-{name}");
    if bytes.len() < MAX_SEED {
        let mut t = vec![1u8];
        t.extend_from_slice(&bytes);
        write_seed(out, "table", &tag, &t);
    }
    let footer_len = bytes.len().min(53);
    let mut f = (bytes.len() as u64).to_le_bytes().to_vec();
    f.extend_from_slice(&bytes[bytes.len() - footer_len..]);
    write_seed(out, "footer", &tag, &f);
    let footer = table.footer().clone();
    let fv = footer.format_version;
    if let Some(filter) = table.filter_block() {
        write_seed(out, "filter", &tag, filter);
    }
    for (meta, h) in table.metaindex() {
        if let Some(raw) = raw_block(&bytes, *h, fv) {
            let what = meta.replace(['/', '.'], "_");
            if meta == "rocksdb.properties" {
                write_seed(out, "properties", &tag, &raw);
            }
            let mut b = vec![3u8];
            b.extend_from_slice(&raw);
            write_seed(out, "block", &format!("{tag}-meta-{what}"), &b);
        }
    }
    let props = table.properties();
    let index_handle = footer
        .index_handle
        .or_else(|| table.metaindex().get("rocksdb.index").copied());
    let Some(ih) = index_handle else { return };
    let Some(index_raw) = raw_block(&bytes, ih, fv) else {
        return;
    };
    let delta = props.index_value_is_delta_encoded != 0;
    let first_key = props.index_type() == 3;
    let user_keys = props.index_key_is_user_key != 0;
    let how = (if user_keys { 2u8 } else { 1 })
        | if delta { 4 } else { 0 }
        | if first_key { 8 } else { 0 };
    let mut b = vec![how];
    b.extend_from_slice(&index_raw);
    write_seed(out, "block", &format!("{tag}-index"), &b);
    let Ok(index_block) = Block::new(index_raw) else {
        return;
    };
    let order = if user_keys {
        KeyOrder::UserKeys(solistore::key::InternalKeyComparator::new(Arc::new(
            solistore::key::BytewiseComparator,
        )))
    } else {
        KeyOrder::Internal(solistore::key::InternalKeyComparator::new(Arc::new(
            solistore::key::BytewiseComparator,
        )))
    };
    let mut it = BlockIter::new(
        Arc::new(index_block),
        order,
        Some(IndexFormat {
            value_delta_encoded: delta,
            has_first_key: first_key,
        }),
    );
    use solistore::iter::cursor::InternalIterator;
    it.seek_to_first();
    let mut n = 0;
    while it.valid() && n < 3 {
        if let Some(raw) = raw_block(&bytes, it.block_handle(), fv) {
            let mut b = vec![0u8];
            b.extend_from_slice(&raw);
            write_seed(out, "block", &format!("{tag}-data{n}"), &b);
        }
        it.next();
        n += 1;
    }
}

fn dir_seeds(out: &Path, origin: &str, dir: &Path) {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").path())
        .collect();
    names.sort();
    for path in names {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tag = format!("{origin}-{name}");
        if name.ends_with(".log") || name.starts_with("MANIFEST-") {
            let bytes = std::fs::read(&path).expect("read");
            for mode in [0u8, 2, 3] {
                let mut s = vec![mode, 0, 0, 0, 0];
                if name.ends_with(".log") {
                    let number: u32 = name.trim_end_matches(".log").parse().unwrap_or(0);
                    s[1..5].copy_from_slice(&number.to_le_bytes());
                }
                s.extend_from_slice(&bytes);
                write_seed(out, "wal_reader", &format!("{tag}-mode{mode}"), &s);
            }
            let recs = records(&bytes, WalRecoveryMode::TolerateCorruptedTailRecords);
            let target = if name.ends_with(".log") {
                "write_batch"
            } else {
                "version_edit"
            };
            for (i, r) in recs.iter().enumerate().take(12) {
                write_seed(out, target, &format!("{tag}-{i}"), r);
            }
        } else if name.starts_with("OPTIONS-") {
            write_seed(
                out,
                "options_file",
                &tag,
                &std::fs::read(&path).expect("read"),
            );
        } else if name.ends_with(".sst") {
            table_seeds(out, origin, &path);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(out) = args.first() else {
        eprintln!("usage: fuzz_seeds <out dir> [db dir ...]");
        std::process::exit(2);
    };
    let out = PathBuf::from(out);
    let tmp = std::env::temp_dir().join(format!("solistore-fuzz-seeds-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    write_db(&tmp);
    dir_seeds(&out, "solistore", &tmp);
    let _ = std::fs::remove_dir_all(&tmp);
    for (i, dir) in args[1..].iter().enumerate() {
        dir_seeds(&out, &format!("rocksdb{i}"), Path::new(dir));
    }
    for e in std::fs::read_dir(&out).expect("out") {
        let e = e.expect("entry");
        let n = std::fs::read_dir(e.path()).map(|d| d.count()).unwrap_or(0);
        println!("{}: {n} seeds", e.file_name().to_string_lossy());
    }
}
