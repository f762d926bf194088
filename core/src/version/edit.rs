// SPDX-License-Identifier: Apache-2.0
//! The VersionEdit codec: one MANIFEST record (metadata path; written by flush, compaction
//! and column-family changes, read by recovery).
//!
//! Each MANIFEST log record (framing: `docs/format/wal.md`) carries exactly one edit. The
//! layout follows RocksDB 7.8.3 `db/version_edit.{h,cc}` and `db/wal_edit.cc`; see
//! `docs/format/manifest.md` for the prose version.
//!
//! ```text
//! edit        := field*                      -- ends where the record ends
//! field       := tag:varint32 payload
//!   1  comparator            varstring
//!   2  log_number            varint64
//!   3  next_file_number      varint64
//!   4  last_sequence         varint64
//!   5  compact_cursor        level:varint32 internal_key:varstring
//!   6  deleted_file          level:varint32 number:varint64
//!   7  new_file  (LevelDB)   level:varint32 number:varint64 size:varint64 smallest:varstring largest:varstring
//!   9  prev_log_number       varint64
//!   10 min_log_number_to_keep varint64
//!   100 new_file2            as 7, then smallest_seqno:varint64 largest_seqno:varint64
//!   102 new_file3            level number path_id:varint32 size smallest largest smallest_seqno largest_seqno
//!   103 new_file4            level number size smallest largest smallest_seqno largest_seqno
//!                            (custom_tag:varint32 field:varstring)* 1:varint32
//!   200 column_family        varint32
//!   201 column_family_add    varstring (name)
//!   202 column_family_drop   (nothing)
//!   203 max_column_family    varint32
//!   300 in_atomic_group      remaining:varint32
//!   400 / 8194 blob_file_addition   number count bytes:varint64 method:varstring value:varstring
//!                                   (tag:varint32 varstring)* 0:varint32
//!   401 / 8195 blob_file_garbage    number count bytes:varint64 (tag:varint32 varstring)* 0:varint32
//!   8193 db_id               varstring
//!   8196 wal_addition (old)  wal_body (not length-prefixed)
//!   8197 wal_deletion (old)  number:varint64 (not length-prefixed)
//!   8198 full_history_ts_low varstring, non-empty
//!   8199 wal_addition2       varstring(wal_body)
//!   8200 wal_deletion2       varstring(number:varint64)
//!   other tag with bit 0x2000: len:varint32, len bytes skipped
//! wal_body    := number:varint64 (2 synced_size:varint64)* 1
//! ```
//!
//! NewFile4 custom tags: 2 need-compaction (1 byte), 3 min-log-number-to-keep hack (fixed64),
//! 4 oldest blob file (varint64), 5 oldest ancester time (varint64), 6 file creation time
//! (varint64), 7 checksum (bytes), 8 checksum function name, 9 temperature (1 byte),
//! 10/11 timestamps (ignored), 12 unique id (16 bytes), 13 epoch number (RocksDB 8+), 65 path
//! id (1 byte). An unknown custom tag with bit 0x40 set makes the record undecodable; any
//! other unknown custom tag is skipped.

use std::sync::Arc;

use crate::error::{Error, Result};
use crate::key::{parse_internal_key, MAX_SEQUENCE_NUMBER};
use crate::util::coding::{put_fixed64, put_length_prefixed, put_varint32, put_varint64, Decoder};

// Top-level tags (`enum Tag` in version_edit.h).
const COMPARATOR: u32 = 1;
const LOG_NUMBER: u32 = 2;
const NEXT_FILE_NUMBER: u32 = 3;
const LAST_SEQUENCE: u32 = 4;
const COMPACT_CURSOR: u32 = 5;
const DELETED_FILE: u32 = 6;
const NEW_FILE: u32 = 7;
const PREV_LOG_NUMBER: u32 = 9;
const MIN_LOG_NUMBER_TO_KEEP: u32 = 10;
const NEW_FILE2: u32 = 100;
const NEW_FILE3: u32 = 102;
const NEW_FILE4: u32 = 103;
const COLUMN_FAMILY: u32 = 200;
const COLUMN_FAMILY_ADD: u32 = 201;
const COLUMN_FAMILY_DROP: u32 = 202;
const MAX_COLUMN_FAMILY: u32 = 203;
const IN_ATOMIC_GROUP: u32 = 300;
const BLOB_FILE_ADDITION: u32 = 400;
const BLOB_FILE_GARBAGE: u32 = 401;
/// A top-level tag with this bit is followed by a varint32 length and may be skipped.
const TAG_SAFE_IGNORE_MASK: u32 = 1 << 13;
const DB_ID: u32 = TAG_SAFE_IGNORE_MASK + 1;
const BLOB_FILE_ADDITION_DEPRECATED: u32 = TAG_SAFE_IGNORE_MASK + 2;
const BLOB_FILE_GARBAGE_DEPRECATED: u32 = TAG_SAFE_IGNORE_MASK + 3;
const WAL_ADDITION: u32 = TAG_SAFE_IGNORE_MASK + 4;
const WAL_DELETION: u32 = TAG_SAFE_IGNORE_MASK + 5;
const FULL_HISTORY_TS_LOW: u32 = TAG_SAFE_IGNORE_MASK + 6;
const WAL_ADDITION2: u32 = TAG_SAFE_IGNORE_MASK + 7;
const WAL_DELETION2: u32 = TAG_SAFE_IGNORE_MASK + 8;

// NewFile4 custom tags (`enum NewFileCustomTag`).
const NF_TERMINATE: u32 = 1;
const NF_NEED_COMPACTION: u32 = 2;
const NF_MIN_LOG_NUMBER_TO_KEEP_HACK: u32 = 3;
const NF_OLDEST_BLOB_FILE_NUMBER: u32 = 4;
const NF_OLDEST_ANCESTER_TIME: u32 = 5;
const NF_FILE_CREATION_TIME: u32 = 6;
const NF_FILE_CHECKSUM: u32 = 7;
const NF_FILE_CHECKSUM_FUNC_NAME: u32 = 8;
const NF_TEMPERATURE: u32 = 9;
const NF_UNIQUE_ID: u32 = 12;
/// RocksDB 8+ (`kEpochNumber`); 7.8.3 skips it because bit 0x40 is clear.
const NF_EPOCH_NUMBER: u32 = 13;
/// An unknown custom tag with this bit must not be skipped.
const NF_NON_SAFE_IGNORE_MASK: u32 = 1 << 6;
const NF_PATH_ID: u32 = NF_NON_SAFE_IGNORE_MASK + 1;

// Tags inside a WAL addition body (`WalAdditionTag`).
const WAL_TERMINATE: u32 = 1;
const WAL_SYNCED_SIZE: u32 = 2;

/// Blob record custom fields end with tag 0; bit 0x40 marks fields that must be understood.
const BLOB_END_MARKER: u32 = 0;
const BLOB_FORWARD_INCOMPATIBLE_MASK: u32 = 1 << 6;

/// The largest temperature 7.8.3 keeps (`Temperature::kCold`); larger bytes read as unknown.
const MAX_KNOWN_TEMPERATURE: u8 = 0x0C;

/// The checksum function name RocksDB records when no checksum factory is configured.
pub const UNKNOWN_FILE_CHECKSUM_FUNC_NAME: &str = "Unknown";

/// The open reader of one table file, kept with its metadata once a point lookup opened it
/// (RocksDB's `FileDescriptor::table_reader`): a get then reaches the table through the
/// version it holds anyway, without the table cache's lock, map probe and reference count.
/// Not part of what the MANIFEST says of the file: a clone starts empty (so that a copy
/// handed out, say by `live_files`, holds no open file), and equality ignores it.
#[derive(Default)]
pub struct TableSlot(std::sync::OnceLock<Arc<crate::sst::reader::Table>>);

impl TableSlot {
    pub(crate) fn get(&self) -> Option<&crate::sst::reader::Table> {
        self.0.get().map(|t| &**t)
    }

    /// Keeps `table` (or the one another thread kept first) and returns it.
    pub(crate) fn keep(&self, table: Arc<crate::sst::reader::Table>) -> &crate::sst::reader::Table {
        self.0.get_or_init(|| table)
    }
}

impl Clone for TableSlot {
    fn clone(&self) -> Self {
        TableSlot::default()
    }
}

impl std::fmt::Debug for TableSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.get().is_some() {
            "open"
        } else {
            "closed"
        })
    }
}

impl PartialEq for TableSlot {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// One SST file as the MANIFEST describes it (`FileMetaData` + `FileDescriptor`).
#[derive(Clone, Debug, PartialEq)]
pub struct FileMetaData {
    /// The file number (`NNNNNN.sst`), without any packed path id.
    pub number: u64,
    /// Index into `db_paths`; 0 for the DB directory. Written as custom tag 65 when non-zero.
    pub path_id: u32,
    /// Exact on-disk size; RocksDB locates the footer from it.
    pub file_size: u64,
    /// Smallest internal key (user key + 8-byte trailer).
    pub smallest: Vec<u8>,
    /// Largest internal key.
    pub largest: Vec<u8>,
    pub smallest_seqno: u64,
    pub largest_seqno: u64,
    pub marked_for_compaction: bool,
    /// BlobDB only; 0 means none.
    pub oldest_blob_file_number: u64,
    /// Unix seconds of the oldest flush that fed this file; 0 = unknown.
    pub oldest_ancester_time: u64,
    /// Unix seconds; 0 = unknown.
    pub file_creation_time: u64,
    pub file_checksum: Vec<u8>,
    /// `"Unknown"` (the default) when no checksum was computed.
    pub file_checksum_func_name: String,
    /// `Temperature` byte; 0 = unknown.
    pub temperature: u8,
    /// The SST unique id (custom tag 12) as read. Never written: RocksDB would verify it
    /// against the table properties and refuse the file on mismatch.
    pub unique_id: Option<[u8; 16]>,
    /// RocksDB 8+'s L0 ordering number; 0 = unknown. Written (custom tag 13) only when
    /// non-zero.
    pub epoch_number: u64,
    /// The table's reader once a lookup opened it (never encoded).
    pub reader: TableSlot,
}

impl Default for FileMetaData {
    fn default() -> Self {
        FileMetaData {
            number: 0,
            path_id: 0,
            file_size: 0,
            smallest: Vec::new(),
            largest: Vec::new(),
            smallest_seqno: 0,
            largest_seqno: 0,
            marked_for_compaction: false,
            oldest_blob_file_number: 0,
            oldest_ancester_time: 0,
            file_creation_time: 0,
            file_checksum: Vec::new(),
            file_checksum_func_name: UNKNOWN_FILE_CHECKSUM_FUNC_NAME.to_string(),
            temperature: 0,
            unique_id: None,
            epoch_number: 0,
            reader: TableSlot::default(),
        }
    }
}

/// A BlobDB file added to a column family (tag 400). Kept so that edits round-trip; the
/// engine does not use blob files.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct BlobFileAddition {
    pub blob_file_number: u64,
    pub total_blob_count: u64,
    pub total_blob_bytes: u64,
    pub checksum_method: Vec<u8>,
    pub checksum_value: Vec<u8>,
}

/// Garbage recorded against a BlobDB file (tag 401).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct BlobFileGarbage {
    pub blob_file_number: u64,
    pub garbage_blob_count: u64,
    pub garbage_blob_bytes: u64,
}

/// One MANIFEST record: a delta applied to the version set.
///
/// Every `Option` field is written only when `Some`; `column_family` is written only when
/// non-zero (absent means the default column family).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct VersionEdit {
    pub db_id: Option<String>,
    pub comparator: Option<String>,
    pub log_number: Option<u64>,
    pub prev_log_number: Option<u64>,
    pub next_file_number: Option<u64>,
    pub max_column_family: Option<u32>,
    pub min_log_number_to_keep: Option<u64>,
    pub last_sequence: Option<u64>,
    /// (level, internal key) where the next round-robin compaction of that level starts.
    pub compact_cursors: Vec<(u32, Vec<u8>)>,
    /// (level, file number).
    pub deleted_files: Vec<(u32, u64)>,
    /// (level, file).
    pub new_files: Vec<(u32, FileMetaData)>,
    pub blob_file_additions: Vec<BlobFileAddition>,
    pub blob_file_garbages: Vec<BlobFileGarbage>,
    /// The column family the edit applies to.
    pub column_family: u32,
    /// Creates `column_family` with this name.
    pub column_family_add: Option<String>,
    pub column_family_drop: bool,
    /// Set on every edit of an atomic group: how many edits of the group follow this one.
    pub remaining_in_atomic_group: Option<u32>,
    /// Written only when non-empty (RocksDB rejects an empty value).
    pub full_history_ts_low: Option<Vec<u8>>,
    /// (WAL number, synced size if known).
    pub wal_additions: Vec<(u64, Option<u64>)>,
    /// Every WAL below this number is obsolete.
    pub wal_deletion: Option<u64>,
}

fn put_tag_varint64(dst: &mut Vec<u8>, tag: u32, v: u64) {
    put_varint32(dst, tag);
    put_varint64(dst, v);
}

fn put_custom_varint64(dst: &mut Vec<u8>, tag: u32, v: u64) {
    let mut field = Vec::with_capacity(10);
    put_varint64(&mut field, v);
    put_varint32(dst, tag);
    put_length_prefixed(dst, &field);
}

fn put_custom_byte(dst: &mut Vec<u8>, tag: u32, b: u8) {
    put_varint32(dst, tag);
    put_length_prefixed(dst, &[b]);
}

impl VersionEdit {
    /// Appends the encoded edit to `dst`, fields in the order RocksDB 7.8.3's
    /// `VersionEdit::EncodeTo` writes them. New files always use NewFile4 (tag 103); only
    /// tags 7.8.3 understands or may skip are written, and never the unique id (custom tag 12).
    ///
    /// # Panics
    /// If a string or key is 4 GiB or longer (not producible by the engine).
    pub fn encode(&self, dst: &mut Vec<u8>) {
        if let Some(id) = &self.db_id {
            put_varint32(dst, DB_ID);
            put_length_prefixed(dst, id.as_bytes());
        }
        if let Some(name) = &self.comparator {
            put_varint32(dst, COMPARATOR);
            put_length_prefixed(dst, name.as_bytes());
        }
        if let Some(v) = self.log_number {
            put_tag_varint64(dst, LOG_NUMBER, v);
        }
        if let Some(v) = self.prev_log_number {
            put_tag_varint64(dst, PREV_LOG_NUMBER, v);
        }
        if let Some(v) = self.next_file_number {
            put_tag_varint64(dst, NEXT_FILE_NUMBER, v);
        }
        if let Some(v) = self.max_column_family {
            put_varint32(dst, MAX_COLUMN_FAMILY);
            put_varint32(dst, v);
        }
        if let Some(v) = self.min_log_number_to_keep {
            put_tag_varint64(dst, MIN_LOG_NUMBER_TO_KEEP, v);
        }
        if let Some(v) = self.last_sequence {
            put_tag_varint64(dst, LAST_SEQUENCE, v);
        }
        for (level, key) in &self.compact_cursors {
            put_varint32(dst, COMPACT_CURSOR);
            put_varint32(dst, *level);
            put_length_prefixed(dst, key);
        }
        for (level, number) in &self.deleted_files {
            put_varint32(dst, DELETED_FILE);
            put_varint32(dst, *level);
            put_varint64(dst, *number);
        }
        // RocksDB repeats min_log_number_to_keep inside the first new file as a custom field,
        // so that readers predating tag 10 still see it.
        let mut min_log_hack = self.min_log_number_to_keep;
        for (level, f) in &self.new_files {
            encode_new_file4(dst, *level, f, min_log_hack.take());
        }
        for b in &self.blob_file_additions {
            put_varint32(dst, BLOB_FILE_ADDITION);
            put_varint64(dst, b.blob_file_number);
            put_varint64(dst, b.total_blob_count);
            put_varint64(dst, b.total_blob_bytes);
            put_length_prefixed(dst, &b.checksum_method);
            put_length_prefixed(dst, &b.checksum_value);
            put_varint32(dst, BLOB_END_MARKER);
        }
        for g in &self.blob_file_garbages {
            put_varint32(dst, BLOB_FILE_GARBAGE);
            put_varint64(dst, g.blob_file_number);
            put_varint64(dst, g.garbage_blob_count);
            put_varint64(dst, g.garbage_blob_bytes);
            put_varint32(dst, BLOB_END_MARKER);
        }
        for (number, synced) in &self.wal_additions {
            let mut body = Vec::new();
            put_varint64(&mut body, *number);
            if let Some(size) = synced {
                put_varint32(&mut body, WAL_SYNCED_SIZE);
                put_varint64(&mut body, *size);
            }
            put_varint32(&mut body, WAL_TERMINATE);
            put_varint32(dst, WAL_ADDITION2);
            put_length_prefixed(dst, &body);
        }
        if let Some(number) = self.wal_deletion {
            let mut body = Vec::new();
            put_varint64(&mut body, number);
            put_varint32(dst, WAL_DELETION2);
            put_length_prefixed(dst, &body);
        }
        if self.column_family != 0 {
            put_varint32(dst, COLUMN_FAMILY);
            put_varint32(dst, self.column_family);
        }
        if let Some(name) = &self.column_family_add {
            put_varint32(dst, COLUMN_FAMILY_ADD);
            put_length_prefixed(dst, name.as_bytes());
        }
        if self.column_family_drop {
            put_varint32(dst, COLUMN_FAMILY_DROP);
        }
        if let Some(remaining) = self.remaining_in_atomic_group {
            put_varint32(dst, IN_ATOMIC_GROUP);
            put_varint32(dst, remaining);
        }
        if let Some(ts) = self
            .full_history_ts_low
            .as_deref()
            .filter(|t| !t.is_empty())
        {
            put_varint32(dst, FULL_HISTORY_TS_LOW);
            put_length_prefixed(dst, ts);
        }
    }

    /// Decodes one MANIFEST record, accepting every tag RocksDB 7.8.3 reads plus the
    /// skippable ones later versions add.
    ///
    /// # Errors
    /// Corruption with RocksDB's text, e.g. `VersionEdit: unknown tag`,
    /// `VersionEdit: new-file4 custom field not supported`, `VersionEdit: invalid tag`,
    /// `WalAddition: Error decoding tag`. Never panics.
    pub fn decode(src: &[u8]) -> Result<VersionEdit> {
        let mut edit = VersionEdit::default();
        let mut d = Decoder::new(src);
        while !d.is_empty() {
            let Some(tag) = d.varint32() else {
                return Err(edit_corruption("invalid tag"));
            };
            if let Err(e) = edit.decode_field(tag, &mut d) {
                return Err(match e {
                    FieldError::Edit(msg) => edit_corruption(msg),
                    FieldError::Other(err) => err,
                });
            }
        }
        Ok(edit)
    }

    fn decode_field(&mut self, tag: u32, d: &mut Decoder<'_>) -> Result<(), FieldError> {
        match tag {
            DB_ID => self.db_id = Some(lossy(d.length_prefixed().ok_or("db id")?)),
            COMPARATOR => {
                self.comparator = Some(lossy(d.length_prefixed().ok_or("comparator name")?));
            }
            LOG_NUMBER => self.log_number = Some(d.varint64().ok_or("log number")?),
            PREV_LOG_NUMBER => {
                self.prev_log_number = Some(d.varint64().ok_or("previous log number")?);
            }
            NEXT_FILE_NUMBER => {
                self.next_file_number = Some(d.varint64().ok_or("next file number")?);
            }
            MAX_COLUMN_FAMILY => {
                self.max_column_family = Some(d.varint32().ok_or("max column family")?);
            }
            MIN_LOG_NUMBER_TO_KEEP => {
                // "kee" is RocksDB 7.8.3's text, truncation included.
                self.min_log_number_to_keep = Some(d.varint64().ok_or("min log number to kee")?);
            }
            LAST_SEQUENCE => {
                self.last_sequence = Some(d.varint64().ok_or("last sequence number")?);
            }
            COMPACT_CURSOR => {
                let level = d.varint32().ok_or("compaction cursor")?;
                let key = internal_key(d).ok_or("compaction cursor")?;
                self.compact_cursors.push((level, key));
            }
            DELETED_FILE => {
                let level = d.varint32().ok_or("deleted file")?;
                let number = d.varint64().ok_or("deleted file")?;
                self.deleted_files.push((level, number));
            }
            NEW_FILE | NEW_FILE2 | NEW_FILE3 => {
                let (msg, with_path, with_seqnos) = match tag {
                    NEW_FILE => ("new-file entry", false, false),
                    NEW_FILE2 => ("new-file2 entry", false, true),
                    _ => ("new-file3 entry", true, true),
                };
                let entry = decode_file_head(d, with_path, with_seqnos).ok_or(msg)?;
                self.new_files.push(entry);
            }
            NEW_FILE4 => {
                let entry = self.decode_new_file4(d)?;
                self.new_files.push(entry);
            }
            BLOB_FILE_ADDITION | BLOB_FILE_ADDITION_DEPRECATED => {
                let b = decode_blob_addition(d).map_err(FieldError::Other)?;
                self.blob_file_additions.push(b);
            }
            BLOB_FILE_GARBAGE | BLOB_FILE_GARBAGE_DEPRECATED => {
                let g = decode_blob_garbage(d).map_err(FieldError::Other)?;
                self.blob_file_garbages.push(g);
            }
            WAL_ADDITION => {
                let w = decode_wal_addition(d).map_err(FieldError::Other)?;
                self.wal_additions.push(w);
            }
            WAL_ADDITION2 => {
                let body = d
                    .length_prefixed()
                    .ok_or("WalAddition not prefixed by length")?;
                let w = decode_wal_addition(&mut Decoder::new(body)).map_err(FieldError::Other)?;
                self.wal_additions.push(w);
            }
            WAL_DELETION => {
                self.wal_deletion = Some(decode_wal_deletion(d).map_err(FieldError::Other)?);
            }
            WAL_DELETION2 => {
                let body = d
                    .length_prefixed()
                    .ok_or("WalDeletion not prefixed by length")?;
                let n = decode_wal_deletion(&mut Decoder::new(body)).map_err(FieldError::Other)?;
                self.wal_deletion = Some(n);
            }
            COLUMN_FAMILY => self.column_family = d.varint32().ok_or("set column family id")?,
            COLUMN_FAMILY_ADD => {
                self.column_family_add =
                    Some(lossy(d.length_prefixed().ok_or("column family add")?));
            }
            COLUMN_FAMILY_DROP => self.column_family_drop = true,
            IN_ATOMIC_GROUP => {
                self.remaining_in_atomic_group = Some(d.varint32().ok_or("remaining entries")?);
            }
            FULL_HISTORY_TS_LOW => {
                let ts = d.length_prefixed().ok_or("full_history_ts_low")?;
                if ts.is_empty() {
                    return Err("full_history_ts_low: empty".into());
                }
                self.full_history_ts_low = Some(ts.to_vec());
            }
            _ if tag & TAG_SAFE_IGNORE_MASK != 0 => {
                // A field from a newer version that declares itself skippable.
                let len = d.varint32().ok_or("safely ignoreable tag length error")?;
                let len = usize::try_from(len).map_err(|_| "safely ignoreable tag length error")?;
                d.bytes(len).ok_or("safely ignoreable tag length error")?;
            }
            _ => return Err("unknown tag".into()),
        }
        Ok(())
    }

    fn decode_new_file4(&mut self, d: &mut Decoder<'_>) -> Result<(u32, FileMetaData), FieldError> {
        let (level, mut f) = decode_file_head(d, false, true).ok_or("new-file4 entry")?;
        loop {
            let tag = d.varint32().ok_or("new-file4 custom field")?;
            if tag == NF_TERMINATE {
                break;
            }
            let field = d
                .length_prefixed()
                .ok_or("new-file4 custom field length prefixed slice error")?;
            let mut fd = Decoder::new(field);
            match tag {
                NF_PATH_ID => {
                    let [p] = field else {
                        return Err("path_id field wrong size".into());
                    };
                    if *p > 3 {
                        return Err("path_id wrong vaue".into());
                    }
                    f.path_id = u32::from(*p);
                }
                NF_OLDEST_ANCESTER_TIME => {
                    f.oldest_ancester_time = fd.varint64().ok_or("invalid oldest ancester time")?;
                }
                NF_FILE_CREATION_TIME => {
                    f.file_creation_time = fd.varint64().ok_or("invalid file creation time")?;
                }
                NF_FILE_CHECKSUM => f.file_checksum = field.to_vec(),
                NF_FILE_CHECKSUM_FUNC_NAME => f.file_checksum_func_name = lossy(field),
                NF_NEED_COMPACTION => {
                    let [b] = field else {
                        return Err("need_compaction field wrong size".into());
                    };
                    f.marked_for_compaction = *b == 1;
                }
                NF_MIN_LOG_NUMBER_TO_KEEP_HACK => {
                    let v = fd.fixed64().ok_or("deleted log number malformatted")?;
                    self.min_log_number_to_keep = Some(v);
                }
                NF_OLDEST_BLOB_FILE_NUMBER => {
                    f.oldest_blob_file_number =
                        fd.varint64().ok_or("invalid oldest blob file number")?;
                }
                NF_TEMPERATURE => {
                    let [t] = field else {
                        return Err("temperature field wrong size".into());
                    };
                    if *t <= MAX_KNOWN_TEMPERATURE {
                        f.temperature = *t;
                    }
                }
                NF_UNIQUE_ID => {
                    let id = <[u8; 16]>::try_from(field).map_err(|_| "invalid unique id")?;
                    f.unique_id = Some(id);
                }
                NF_EPOCH_NUMBER => {
                    f.epoch_number = fd.varint64().ok_or("invalid epoch number")?;
                }
                _ if tag & NF_NON_SAFE_IGNORE_MASK != 0 => {
                    return Err("new-file4 custom field not supported".into());
                }
                _ => {}
            }
        }
        Ok((level, f))
    }
}

/// Why a field failed: a `VersionEdit: <msg>` text, or a sub-record's own status.
enum FieldError {
    Edit(&'static str),
    Other(Error),
}

impl From<&'static str> for FieldError {
    fn from(msg: &'static str) -> Self {
        FieldError::Edit(msg)
    }
}

fn edit_corruption(msg: &str) -> Error {
    Error::corruption(format!("VersionEdit: {msg}"))
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A varstring that must hold a valid internal key (RocksDB's `GetInternalKey`).
fn internal_key(d: &mut Decoder<'_>) -> Option<Vec<u8>> {
    let k = d.length_prefixed()?;
    parse_internal_key(k).ok()?;
    Some(k.to_vec())
}

/// The fields shared by every new-file form: level, number, [path id], size, keys,
/// [seqnos]. Without seqnos RocksDB uses `[MAX_SEQUENCE_NUMBER, 0]`.
fn decode_file_head(
    d: &mut Decoder<'_>,
    with_path: bool,
    with_seqnos: bool,
) -> Option<(u32, FileMetaData)> {
    let level = d.varint32()?;
    let number = d.varint64()?;
    // A path id NewFile4 could not carry (its field is one byte, 0..=3) is refused here
    // too: accepted, it was re-encoded into a MANIFEST that no longer decoded.
    let path_id = if with_path {
        d.varint32().filter(|p| *p <= 3)?
    } else {
        0
    };
    let file_size = d.varint64()?;
    let smallest = internal_key(d)?;
    let largest = internal_key(d)?;
    let (smallest_seqno, largest_seqno) = if with_seqnos {
        (d.varint64()?, d.varint64()?)
    } else {
        (MAX_SEQUENCE_NUMBER, 0)
    };
    Some((
        level,
        FileMetaData {
            number,
            path_id,
            file_size,
            smallest,
            largest,
            smallest_seqno,
            largest_seqno,
            ..FileMetaData::default()
        },
    ))
}

fn encode_new_file4(dst: &mut Vec<u8>, level: u32, f: &FileMetaData, min_log: Option<u64>) {
    put_varint32(dst, NEW_FILE4);
    put_varint32(dst, level);
    put_varint64(dst, f.number);
    put_varint64(dst, f.file_size);
    put_length_prefixed(dst, &f.smallest);
    put_length_prefixed(dst, &f.largest);
    put_varint64(dst, f.smallest_seqno);
    put_varint64(dst, f.largest_seqno);
    // 7.8.3 always writes 5, 6, 7 and 8, then the optional ones.
    put_custom_varint64(dst, NF_OLDEST_ANCESTER_TIME, f.oldest_ancester_time);
    put_custom_varint64(dst, NF_FILE_CREATION_TIME, f.file_creation_time);
    put_varint32(dst, NF_FILE_CHECKSUM);
    put_length_prefixed(dst, &f.file_checksum);
    put_varint32(dst, NF_FILE_CHECKSUM_FUNC_NAME);
    put_length_prefixed(dst, f.file_checksum_func_name.as_bytes());
    if f.path_id != 0 {
        // Only 0..=3 decode; a larger id is a caller bug and is clamped into the byte.
        put_custom_byte(dst, NF_PATH_ID, u8::try_from(f.path_id).unwrap_or(u8::MAX));
    }
    if f.temperature != 0 {
        put_custom_byte(dst, NF_TEMPERATURE, f.temperature);
    }
    if f.marked_for_compaction {
        put_custom_byte(dst, NF_NEED_COMPACTION, 1);
    }
    if let Some(v) = min_log {
        let mut field = Vec::with_capacity(8);
        put_fixed64(&mut field, v);
        put_varint32(dst, NF_MIN_LOG_NUMBER_TO_KEEP_HACK);
        put_length_prefixed(dst, &field);
    }
    if f.oldest_blob_file_number != 0 {
        put_custom_varint64(dst, NF_OLDEST_BLOB_FILE_NUMBER, f.oldest_blob_file_number);
    }
    if f.epoch_number != 0 {
        put_custom_varint64(dst, NF_EPOCH_NUMBER, f.epoch_number);
    }
    put_varint32(dst, NF_TERMINATE);
}

fn sub_corruption(class: &str, msg: &str) -> Error {
    Error::corruption(format!("{class}: {msg}"))
}

/// `WalAddition::DecodeFrom`: number, then tagged fields up to the terminate tag.
fn decode_wal_addition(d: &mut Decoder<'_>) -> Result<(u64, Option<u64>)> {
    const CLASS: &str = "WalAddition";
    let number = d
        .varint64()
        .ok_or_else(|| sub_corruption(CLASS, "Error decoding WAL log number"))?;
    let mut synced = None;
    loop {
        let tag = d
            .varint32()
            .ok_or_else(|| sub_corruption(CLASS, "Error decoding tag"))?;
        match tag {
            WAL_SYNCED_SIZE => {
                let size = d
                    .varint64()
                    .ok_or_else(|| sub_corruption(CLASS, "Error decoding WAL file size"))?;
                synced = Some(size);
            }
            WAL_TERMINATE => return Ok((number, synced)),
            other => return Err(sub_corruption(CLASS, &format!("Unknown tag {other}"))),
        }
    }
}

fn decode_wal_deletion(d: &mut Decoder<'_>) -> Result<u64> {
    d.varint64()
        .ok_or_else(|| sub_corruption("WalDeletion", "Error decoding WAL log number"))
}

/// Skips blob custom fields up to the end marker.
fn skip_blob_custom_fields(d: &mut Decoder<'_>, class: &str) -> Result<()> {
    loop {
        let tag = d
            .varint32()
            .ok_or_else(|| sub_corruption(class, "Error decoding custom field tag"))?;
        if tag == BLOB_END_MARKER {
            return Ok(());
        }
        if tag & BLOB_FORWARD_INCOMPATIBLE_MASK != 0 {
            return Err(sub_corruption(
                class,
                "Forward incompatible custom field encountered",
            ));
        }
        d.length_prefixed()
            .ok_or_else(|| sub_corruption(class, "Error decoding custom field value"))?;
    }
}

fn decode_blob_addition(d: &mut Decoder<'_>) -> Result<BlobFileAddition> {
    const CLASS: &str = "BlobFileAddition";
    let err = |m: &str| sub_corruption(CLASS, m);
    let blob_file_number = d
        .varint64()
        .ok_or_else(|| err("Error decoding blob file number"))?;
    let total_blob_count = d
        .varint64()
        .ok_or_else(|| err("Error decoding total blob count"))?;
    let total_blob_bytes = d
        .varint64()
        .ok_or_else(|| err("Error decoding total blob bytes"))?;
    let checksum_method = d
        .length_prefixed()
        .ok_or_else(|| err("Error decoding checksum method"))?
        .to_vec();
    let checksum_value = d
        .length_prefixed()
        .ok_or_else(|| err("Error decoding checksum value"))?
        .to_vec();
    skip_blob_custom_fields(d, CLASS)?;
    Ok(BlobFileAddition {
        blob_file_number,
        total_blob_count,
        total_blob_bytes,
        checksum_method,
        checksum_value,
    })
}

fn decode_blob_garbage(d: &mut Decoder<'_>) -> Result<BlobFileGarbage> {
    const CLASS: &str = "BlobFileGarbage";
    let err = |m: &str| sub_corruption(CLASS, m);
    let blob_file_number = d
        .varint64()
        .ok_or_else(|| err("Error decoding blob file number"))?;
    let garbage_blob_count = d
        .varint64()
        .ok_or_else(|| err("Error decoding garbage blob count"))?;
    let garbage_blob_bytes = d
        .varint64()
        .ok_or_else(|| err("Error decoding garbage blob bytes"))?;
    skip_blob_custom_fields(d, CLASS)?;
    Ok(BlobFileGarbage {
        blob_file_number,
        garbage_blob_count,
        garbage_blob_bytes,
    })
}

#[cfg(test)]
#[path = "edit_tests.rs"]
mod tests;
