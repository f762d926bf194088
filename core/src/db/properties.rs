// SPDX-License-Identifier: Apache-2.0
//! DB properties (`GetProperty`): RocksDB's names, computed from the column family's current
//! read view, the version set and the shared block cache. Read path; takes no lock beyond
//! cloning the view.

use std::fmt::Write as _;
use std::sync::atomic::Ordering;

use super::column_family::ColumnFamilyHandle;
use super::compact::summarize;
use super::DbInner;
use crate::compaction::picker::{compaction_scores, PickerOptions};

/// A property's text value, or None for a name this engine does not know.
pub(crate) fn property(db: &DbInner, cf: &ColumnFamilyHandle, name: &str) -> Option<String> {
    let cfd = &cf.cfd;
    let sv = cfd.super_version();
    let version = &sv.version;
    let mems = || std::iter::once(&sv.mem).chain(sv.imms.iter());
    let all_mem_bytes: usize = mems().map(|m| m.approximate_memory_usage()).sum();
    let cache = cfd.options.block_cache.as_ref();
    let int = |v: u64| Some(v.to_string());
    match name {
        "rocksdb.num-entries-active-mem-table" => int(sv.mem.num_entries()),
        "rocksdb.num-deletes-active-mem-table" => int(sv.mem.num_deletes()),
        "rocksdb.num-entries-imm-mem-tables" => int(sv.imms.iter().map(|m| m.num_entries()).sum()),
        "rocksdb.num-deletes-imm-mem-tables" => int(sv.imms.iter().map(|m| m.num_deletes()).sum()),
        "rocksdb.cur-size-active-mem-table" => int(sv.mem.approximate_memory_usage() as u64),
        "rocksdb.cur-size-all-mem-tables" | "rocksdb.size-all-mem-tables" => {
            int(all_mem_bytes as u64)
        }
        "rocksdb.num-immutable-mem-table" => int(sv.imms.len() as u64),
        "rocksdb.num-immutable-mem-table-flushed" => int(0),
        "rocksdb.mem-table-flush-pending" => int(u64::from(!sv.imms.is_empty())),
        "rocksdb.num-running-flushes" => int(db.background.running().0 as u64),
        "rocksdb.num-running-compactions" => int(db.num_running_compactions() as u64),
        "rocksdb.estimate-num-keys" => {
            let mut entries: u64 = mems().map(|m| m.num_entries()).sum();
            let mut deletes: u64 = mems().map(|m| m.num_deletes()).sum();
            for (level, f) in version.all_files() {
                if let Ok(t) = db.table_cache.get(f, level, &cfd.options) {
                    entries += t.properties().num_entries;
                    deletes += t.properties().num_deletions;
                }
            }
            int(entries.saturating_sub(2 * deletes))
        }
        "rocksdb.num-snapshots" => int(db.snapshots.count() as u64),
        "rocksdb.oldest-snapshot-time" => int(db.snapshots.oldest_time()),
        "rocksdb.oldest-snapshot-sequence" => int(db.snapshots.oldest().unwrap_or(0)),
        "rocksdb.background-errors" => int(db.error_handler.failed_jobs()),
        "rocksdb.is-write-stopped" => int(u64::from(db.write_stopped.load(Ordering::Relaxed))),
        "rocksdb.actual-delayed-write-rate" => int(0),
        "rocksdb.compaction-pending" => {
            let o = PickerOptions::from_cf_options(&cfd.options);
            let pending = compaction_scores(&summarize(version), &o)
                .first()
                .is_some_and(|(_, s)| *s >= 1.0);
            int(u64::from(pending && !cfd.options.disable_auto_compactions))
        }
        "rocksdb.estimate-pending-compaction-bytes" => int(cfd.pending_compaction_bytes()),
        "rocksdb.total-sst-files-size"
        | "rocksdb.live-sst-files-size"
        | "rocksdb.estimate-live-data-size" => int(version.total_bytes()),
        "rocksdb.num-live-versions" | "rocksdb.current-super-version-number" => int(1),
        "rocksdb.latest-sequence-number" => int(db.last_sequence.load(Ordering::Acquire)),
        "rocksdb.base-level" => int((1..version.num_levels())
            .find(|l| version.num_files(*l) > 0)
            .unwrap_or(1) as u64),
        "rocksdb.block-cache-capacity" => int(cache.map(|c| c.capacity() as u64).unwrap_or(0)),
        "rocksdb.block-cache-usage" => int(cache.map(|c| c.usage() as u64).unwrap_or(0)),
        "rocksdb.block-cache-pinned-usage" => {
            int(cache.map(|c| c.pinned_usage() as u64).unwrap_or(0))
        }
        "rocksdb.levelstats" => {
            let mut out = String::from("Level Files Size(MB)\n--------------------\n");
            for l in 0..version.num_levels() {
                let _ = writeln!(
                    out,
                    "{l:>3} {:>8} {:>8.0}",
                    version.num_files(l),
                    version.level_bytes(l) as f64 / 1048576.0
                );
            }
            Some(out)
        }
        "rocksdb.stats" | "rocksdb.cfstats" => Some(stats_text(db, cf)),
        "rocksdb.sstables" => Some(sstables_text(version)),
        _ => {
            let level: usize = name
                .strip_prefix("rocksdb.num-files-at-level")?
                .parse()
                .ok()?;
            // RocksDB knows no such property for a level the family does not have.
            let levels = usize::try_from(cfd.options.num_levels)
                .unwrap_or(0)
                .max(version.num_levels());
            if level >= levels {
                return None;
            }
            int(version.num_files(level) as u64)
        }
    }
}

/// The `rocksdb.sstables` text, in the shape of RocksDB's `Version::DebugString(hex)`: per level a
/// `--- level N --- version# V ---` line (V is always 1 here, as `current-super-version-number`),
/// then one line per table file: ` number:size[smallest seq .. largest seq]['smallest key' seq:S,
/// type:T .. 'largest key' seq:S, type:T](oldest blob file)`, keys in hex.
fn sstables_text(v: &crate::version::version::Version) -> String {
    fn ikey(out: &mut String, k: &[u8]) {
        let user = crate::key::internal_key::user_key(k);
        let (seq, t) =
            crate::key::internal_key::unpack_seq_and_type(crate::key::internal_key::trailer(k));
        out.push('\'');
        for b in user {
            let _ = write!(out, "{b:02X}");
        }
        let _ = write!(out, "' seq:{seq}, type:{t}");
    }
    let mut out = String::new();
    for l in 0..v.num_levels() {
        let _ = writeln!(out, "--- level {l} --- version# 1 ---");
        for f in v.files(l) {
            let _ = write!(
                out,
                " {}:{}[{} .. {}][",
                f.number, f.file_size, f.smallest_seqno, f.largest_seqno
            );
            ikey(&mut out, &f.smallest);
            out.push_str(" .. ");
            ikey(&mut out, &f.largest);
            let _ = writeln!(out, "]({})", f.oldest_blob_file_number);
        }
    }
    out
}

/// The `rocksdb.stats` text: per-level files and sizes, then the DB's write and read counters.
fn stats_text(db: &DbInner, cf: &ColumnFamilyHandle) -> String {
    let sv = cf.cfd.super_version();
    let v = &sv.version;
    let mut out = format!("\n** Compaction Stats [{}] **\n", cf.cfd.name);
    out.push_str("Level    Files   Size(MB)\n");
    out.push_str("-------------------------\n");
    for l in 0..v.num_levels() {
        if v.num_files(l) > 0 {
            let _ = writeln!(
                out,
                "  L{l:<5} {:>5} {:>10.2}",
                v.num_files(l),
                v.level_bytes(l) as f64 / 1048576.0
            );
        }
    }
    let _ = writeln!(
        out,
        " Sum   {:>6} {:>10.2}",
        v.total_files(),
        v.total_bytes() as f64 / 1048576.0
    );
    let s = &db.stats;
    out.push_str("\n** DB Stats **\n");
    let _ = writeln!(
        out,
        "Cumulative writes: {} keys, {} bytes, {} WAL syncs",
        s.keys_written.load(Ordering::Relaxed),
        s.bytes_written.load(Ordering::Relaxed),
        s.wal_syncs.load(Ordering::Relaxed)
    );
    let _ = writeln!(
        out,
        "Cumulative reads: {} gets, {} bytes found",
        s.keys_read.load(Ordering::Relaxed),
        s.bytes_read.load(Ordering::Relaxed)
    );
    out
}
