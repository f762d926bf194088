// SPDX-License-Identifier: Apache-2.0
//! Tests of the VersionEdit codec: golden bytes, error texts, property tests, and oracle
//! tests against RocksDB 7.8.3's `ldb` (skipped when `ldb` is not installed).

use super::*;
use crate::key::{append_internal_key, ValueType};
use crate::util::coding::put_fixed16;
use crate::util::coding::put_fixed32;
use crate::util::crc;
use proptest::collection::vec;
use proptest::prelude::*;
use std::path::Path;
use std::process::Command;

fn ikey(user: &[u8], seq: u64) -> Vec<u8> {
    let mut k = Vec::new();
    append_internal_key(&mut k, user, seq, ValueType::Value);
    k
}

fn encoded(e: &VersionEdit) -> Vec<u8> {
    let mut out = Vec::new();
    e.encode(&mut out);
    out
}

fn err_text(bytes: &[u8]) -> String {
    match VersionEdit::decode(bytes) {
        Ok(e) => panic!("expected an error, decoded {e:?}"),
        Err(e) => {
            assert!(e.is_corruption(), "{e}");
            e.message().to_string()
        }
    }
}

#[test]
fn newdb_edit_golden_bytes() {
    let e = VersionEdit {
        log_number: Some(0),
        next_file_number: Some(2),
        last_sequence: Some(0),
        ..VersionEdit::default()
    };
    let bytes = encoded(&e);
    assert_eq!(bytes, [0x02, 0x00, 0x03, 0x02, 0x04, 0x00]);
    assert_eq!(VersionEdit::decode(&bytes).expect("golden edit decodes"), e);
}

#[test]
fn db_id_edit_as_rocksdb_11_writes_it() {
    let id = "0123456789abcdef0123456789abcdef0123";
    let mut bytes = vec![0x81, 0x40, 36];
    bytes.extend_from_slice(id.as_bytes());
    bytes.extend_from_slice(&[0x02, 0x00, 0x03, 0x02, 0x04, 0x00]);
    let e = VersionEdit::decode(&bytes).expect("db id edit decodes");
    assert_eq!(e.db_id.as_deref(), Some(id));
    assert_eq!(e.next_file_number, Some(2));
    assert_eq!(encoded(&e), bytes);
}

#[test]
fn column_family_add_golden_bytes() {
    let e = VersionEdit {
        comparator: Some("leveldb.BytewiseComparator".into()),
        column_family: 1,
        column_family_add: Some("cf1".into()),
        ..VersionEdit::default()
    };
    let mut want = vec![0x01, 26];
    want.extend_from_slice(b"leveldb.BytewiseComparator");
    want.extend_from_slice(&[0xc8, 0x01, 0x01, 0xc9, 0x01, 0x03, b'c', b'f', b'1']);
    assert_eq!(encoded(&e), want);
    assert_eq!(VersionEdit::decode(&want).expect("decodes"), e);
}

#[test]
fn new_file4_golden_bytes() {
    let f = FileMetaData {
        number: 7,
        file_size: 300,
        smallest: ikey(b"a", 1),
        largest: ikey(b"b", 2),
        smallest_seqno: 1,
        largest_seqno: 2,
        oldest_ancester_time: 5,
        file_creation_time: 6,
        ..FileMetaData::default()
    };
    let e = VersionEdit {
        new_files: vec![(0, f)],
        ..VersionEdit::default()
    };
    let mut want = vec![103, 0, 7, 0xac, 0x02, 9, b'a'];
    want.extend_from_slice(&((1u64 << 8) | 1).to_le_bytes());
    want.extend_from_slice(&[9, b'b']);
    want.extend_from_slice(&((2u64 << 8) | 1).to_le_bytes());
    want.extend_from_slice(&[1, 2]); // seqnos
    want.extend_from_slice(&[5, 1, 5, 6, 1, 6]); // ancester time, creation time
    want.extend_from_slice(&[7, 0, 8, 7]); // empty checksum, func name "Unknown"
    want.extend_from_slice(b"Unknown");
    want.push(1); // terminate
    assert_eq!(encoded(&e), want);
    assert_eq!(VersionEdit::decode(&want).expect("decodes"), e);
}

#[test]
fn new_file4_optional_custom_fields() {
    let f = FileMetaData {
        number: 9,
        path_id: 2,
        file_size: 1,
        smallest: ikey(b"a", 1),
        largest: ikey(b"a", 1),
        marked_for_compaction: true,
        temperature: 0x08,
        oldest_blob_file_number: 4,
        epoch_number: 3,
        ..FileMetaData::default()
    };
    let e = VersionEdit {
        min_log_number_to_keep: Some(11),
        new_files: vec![(1, f.clone()), (2, f)],
        ..VersionEdit::default()
    };
    let bytes = encoded(&e);
    // The min-log-number hack is attached to the first file only.
    let hack = [3u8, 8, 11, 0, 0, 0, 0, 0, 0, 0];
    assert_eq!(bytes.windows(hack.len()).filter(|w| *w == hack).count(), 1);
    assert!(bytes.windows(3).any(|w| w == [65, 1, 2]), "path id field");
    assert_eq!(VersionEdit::decode(&bytes).expect("decodes"), e);

    // The hack alone (no tag 10) still sets min_log_number_to_keep.
    let mut only_hack = encoded(&VersionEdit {
        new_files: e.new_files[..1].to_vec(),
        ..VersionEdit::default()
    });
    let term = only_hack.pop();
    assert_eq!(term, Some(1));
    only_hack.extend_from_slice(&hack);
    only_hack.push(1);
    let d = VersionEdit::decode(&only_hack).expect("decodes");
    assert_eq!(d.min_log_number_to_keep, Some(11));
}

#[test]
fn unique_id_is_decoded_but_never_written() {
    let mut f = FileMetaData {
        number: 1,
        smallest: ikey(b"k", 1),
        largest: ikey(b"k", 1),
        ..FileMetaData::default()
    };
    let mut bytes = encoded(&VersionEdit {
        new_files: vec![(0, f.clone())],
        ..VersionEdit::default()
    });
    bytes.pop();
    bytes.extend_from_slice(&[12, 16]);
    bytes.extend_from_slice(&[0xab; 16]);
    bytes.push(1);
    let d = VersionEdit::decode(&bytes).expect("decodes");
    f.unique_id = Some([0xab; 16]);
    assert_eq!(d.new_files[0].1, f);
    let again = encoded(&d);
    assert!(!again.windows(2).any(|w| w == [12, 16]), "tag 12 written");
    assert_eq!(again.len(), bytes.len() - 18);

    let mut bad = bytes.clone();
    let at = bad.len() - 19;
    bad[at + 1] = 15;
    bad.remove(at + 2);
    assert_eq!(err_text(&bad), "VersionEdit: invalid unique id");
}

#[test]
fn legacy_new_file_forms_decode() {
    let (a, z) = (ikey(b"a", 3), ikey(b"z", 4));
    let mut body = Vec::new();
    put_length_prefixed(&mut body, &a);
    put_length_prefixed(&mut body, &z);

    let mut v1 = vec![7, 1, 5, 100];
    v1.extend_from_slice(&body);
    let e = VersionEdit::decode(&v1).expect("kNewFile");
    let f = &e.new_files[0].1;
    assert_eq!((e.new_files[0].0, f.number, f.file_size), (1, 5, 100));
    assert_eq!(
        (f.smallest_seqno, f.largest_seqno),
        (MAX_SEQUENCE_NUMBER, 0)
    );

    let mut v2 = vec![100, 2, 6, 101];
    v2.extend_from_slice(&body);
    v2.extend_from_slice(&[3, 4]);
    let e = VersionEdit::decode(&v2).expect("kNewFile2");
    let f = &e.new_files[0].1;
    assert_eq!((f.number, f.smallest_seqno, f.largest_seqno), (6, 3, 4));

    let mut v3 = vec![102, 3, 8, 1, 102];
    v3.extend_from_slice(&body);
    v3.extend_from_slice(&[3, 4]);
    let e = VersionEdit::decode(&v3).expect("kNewFile3");
    let f = &e.new_files[0].1;
    assert_eq!(
        (e.new_files[0].0, f.number, f.path_id, f.file_size),
        (3, 8, 1, 102)
    );
    assert_eq!(f.smallest, a);
    assert_eq!(f.largest, z);

    assert_eq!(
        err_text(&v3[..v3.len() - 1]),
        "VersionEdit: new-file3 entry"
    );
    assert_eq!(err_text(&v1[..6]), "VersionEdit: new-file entry");
}

#[test]
fn wal_records_in_both_forms() {
    let e = VersionEdit {
        wal_additions: vec![(5, None), (6, Some(4096))],
        wal_deletion: Some(4),
        ..VersionEdit::default()
    };
    let bytes = encoded(&e);
    // 8199 = varint 0x87 0x40; body: 05 01.
    assert_eq!(&bytes[..5], &[0x87, 0x40, 2, 5, 1]);
    assert_eq!(VersionEdit::decode(&bytes).expect("decodes"), e);

    // Legacy 8196/8197: bodies without a length prefix.
    let legacy = [0x84, 0x40, 9, 2, 0x80, 0x20, 1, 0x85, 0x40, 3];
    let d = VersionEdit::decode(&legacy).expect("legacy wal records");
    assert_eq!(d.wal_additions, vec![(9, Some(4096))]);
    assert_eq!(d.wal_deletion, Some(3));

    assert_eq!(
        err_text(&[0x84, 0x40, 9, 7, 1]),
        "WalAddition: Unknown tag 7"
    );
    assert_eq!(
        err_text(&[0x84, 0x40, 9]),
        "WalAddition: Error decoding tag"
    );
    assert_eq!(
        err_text(&[0x87, 0x40, 5, 1]),
        "VersionEdit: WalAddition not prefixed by length"
    );
    assert_eq!(
        err_text(&[0x88, 0x40, 0]),
        "WalDeletion: Error decoding WAL log number"
    );
}

#[test]
fn blob_records_round_trip() {
    let e = VersionEdit {
        blob_file_additions: vec![BlobFileAddition {
            blob_file_number: 12,
            total_blob_count: 3,
            total_blob_bytes: 99,
            checksum_method: b"crc".to_vec(),
            checksum_value: vec![1, 2],
        }],
        blob_file_garbages: vec![BlobFileGarbage {
            blob_file_number: 12,
            garbage_blob_count: 1,
            garbage_blob_bytes: 33,
        }],
        ..VersionEdit::default()
    };
    let bytes = encoded(&e);
    assert_eq!(VersionEdit::decode(&bytes).expect("decodes"), e);
    // Deprecated tag with a skippable custom field.
    let d = VersionEdit::decode(&[0x83, 0x40, 1, 2, 3, 5, 1, 0xff, 0]).expect("decodes");
    assert_eq!(d.blob_file_garbages[0].garbage_blob_bytes, 3);
    assert_eq!(
        err_text(&[0x91, 0x03, 1, 2, 3, 0x41, 0, 0]),
        "BlobFileGarbage: Forward incompatible custom field encountered"
    );
}

#[test]
fn safe_ignore_tags_are_skipped() {
    // 8201 (11.1.2 kPersistUserDefinedTimestamps) with a 1-byte body, then last seq.
    let d = VersionEdit::decode(&[0x89, 0x40, 1, 1, 4, 7]).expect("decodes");
    assert_eq!(d.last_sequence, Some(7));
    // The bare mask value is skippable too.
    assert!(VersionEdit::decode(&[0x80, 0x40, 0]).is_ok());
    assert_eq!(
        err_text(&[0x89, 0x40, 5, 1]),
        "VersionEdit: safely ignoreable tag length error"
    );
}

#[test]
fn error_texts_match_rocksdb() {
    assert_eq!(err_text(&[8]), "VersionEdit: unknown tag");
    assert_eq!(err_text(&[99, 0]), "VersionEdit: unknown tag");
    assert_eq!(err_text(&[0x80]), "VersionEdit: invalid tag");
    assert_eq!(err_text(&[2]), "VersionEdit: log number");
    assert_eq!(err_text(&[3, 0x80]), "VersionEdit: next file number");
    assert_eq!(err_text(&[1, 5, b'a']), "VersionEdit: comparator name");
    assert_eq!(err_text(&[10]), "VersionEdit: min log number to kee");
    assert_eq!(err_text(&[0xc9, 0x01]), "VersionEdit: column family add");
    assert_eq!(
        err_text(&[0x86, 0x40, 0]),
        "VersionEdit: full_history_ts_low: empty"
    );
    assert_eq!(
        err_text(&[5, 0, 2, b'a', b'b']),
        "VersionEdit: compaction cursor"
    );
    // Deleted-file tag with an invalid internal key is still fine, but a bad cursor key is not.
    let mut bad_key = vec![5, 0, 8];
    bad_key.extend_from_slice(&((1u64 << 8) | 0x33).to_le_bytes());
    assert_eq!(err_text(&bad_key), "VersionEdit: compaction cursor");

    let base = encoded(&VersionEdit {
        new_files: vec![(
            0,
            FileMetaData {
                number: 1,
                smallest: ikey(b"a", 1),
                largest: ikey(b"a", 1),
                ..FileMetaData::default()
            },
        )],
        ..VersionEdit::default()
    });
    let with_custom = |field: &[u8]| {
        let mut b = base.clone();
        b.pop();
        b.extend_from_slice(field);
        b.push(1);
        b
    };
    assert_eq!(
        err_text(&with_custom(&[0x45, 1, 0])),
        "VersionEdit: new-file4 custom field not supported"
    );
    // An unknown custom tag without bit 0x40 is skipped (e.g. 11.1.2's tail size, 15).
    assert!(VersionEdit::decode(&with_custom(&[15, 2, 0x80, 0x01])).is_ok());
    assert_eq!(
        err_text(&with_custom(&[65, 1, 4])),
        "VersionEdit: path_id wrong vaue"
    );
    assert_eq!(
        err_text(&with_custom(&[65, 2, 0, 0])),
        "VersionEdit: path_id field wrong size"
    );
    assert_eq!(
        err_text(&with_custom(&[2, 0])),
        "VersionEdit: need_compaction field wrong size"
    );
    assert_eq!(
        err_text(&with_custom(&[9, 0])),
        "VersionEdit: temperature field wrong size"
    );
    assert_eq!(
        err_text(&with_custom(&[5, 1, 0x80])),
        "VersionEdit: invalid oldest ancester time"
    );
    assert_eq!(
        err_text(&with_custom(&[3, 1, 0])),
        "VersionEdit: deleted log number malformatted"
    );
    assert_eq!(
        err_text(&base[..base.len() - 1]),
        "VersionEdit: new-file4 custom field"
    );
    assert_eq!(
        err_text(&with_custom(&[7, 9])),
        "VersionEdit: new-file4 custom field length prefixed slice error"
    );
    assert_eq!(err_text(&base[..5]), "VersionEdit: new-file4 entry");
    // A temperature above kCold reads as unknown.
    let d = VersionEdit::decode(&with_custom(&[9, 1, 0x20])).expect("decodes");
    assert_eq!(d.new_files[0].1.temperature, 0);
}

#[test]
fn empty_edit_is_empty() {
    assert!(encoded(&VersionEdit::default()).is_empty());
    assert_eq!(
        VersionEdit::decode(&[]).expect("empty edit"),
        VersionEdit::default()
    );
}

// ---------------------------------------------------------------------------------------
// Property tests.

fn arb_ikey() -> impl Strategy<Value = Vec<u8>> {
    let types = prop::sample::select(vec![0u8, 1, 2, 7, 0x0f, 0x11, 0x14, 0x16]);
    (vec(any::<u8>(), 0..10), 0..=MAX_SEQUENCE_NUMBER, types).prop_map(|(mut k, seq, t)| {
        k.extend_from_slice(&((seq << 8) | u64::from(t)).to_le_bytes());
        k
    })
}

fn arb_file() -> impl Strategy<Value = FileMetaData> {
    (
        (any::<u64>(), 0u32..4, any::<u64>(), arb_ikey(), arb_ikey()),
        (any::<u64>(), any::<u64>(), any::<bool>(), any::<u64>()),
        (any::<u64>(), any::<u64>(), vec(any::<u8>(), 0..8), ".{0,8}"),
        (0u8..=MAX_KNOWN_TEMPERATURE, any::<u64>()),
    )
        .prop_map(|(a, b, c, d)| FileMetaData {
            number: a.0,
            path_id: a.1,
            file_size: a.2,
            smallest: a.3,
            largest: a.4,
            smallest_seqno: b.0,
            largest_seqno: b.1,
            marked_for_compaction: b.2,
            oldest_blob_file_number: b.3,
            oldest_ancester_time: c.0,
            file_creation_time: c.1,
            file_checksum: c.2,
            file_checksum_func_name: c.3,
            temperature: d.0,
            unique_id: None,
            epoch_number: d.1,
            reader: Default::default(),
        })
}

fn arb_edit() -> impl Strategy<Value = VersionEdit> {
    let opt64 = || proptest::option::of(any::<u64>());
    (
        (
            proptest::option::of(".{0,12}"),
            proptest::option::of(".{0,12}"),
            opt64(),
            opt64(),
            opt64(),
            proptest::option::of(any::<u32>()),
            opt64(),
            opt64(),
        ),
        (
            vec((any::<u32>(), arb_ikey()), 0..3),
            vec((any::<u32>(), any::<u64>()), 0..3),
            vec((any::<u32>(), arb_file()), 0..3),
            vec(
                (
                    any::<u64>(),
                    any::<u64>(),
                    any::<u64>(),
                    vec(any::<u8>(), 0..4),
                ),
                0..2,
            ),
            vec((any::<u64>(), any::<u64>(), any::<u64>()), 0..2),
        ),
        (
            any::<u32>(),
            proptest::option::of(".{0,8}"),
            any::<bool>(),
            proptest::option::of(any::<u32>()),
            proptest::option::of(vec(any::<u8>(), 1..6)),
            vec((any::<u64>(), opt64()), 0..3),
            opt64(),
        ),
    )
        .prop_map(|(a, b, c)| VersionEdit {
            db_id: a.0,
            comparator: a.1,
            log_number: a.2,
            prev_log_number: a.3,
            next_file_number: a.4,
            max_column_family: a.5,
            min_log_number_to_keep: a.6,
            last_sequence: a.7,
            compact_cursors: b.0,
            deleted_files: b.1,
            new_files: b.2,
            blob_file_additions: b
                .3
                .into_iter()
                .map(|(n, c, by, v)| BlobFileAddition {
                    blob_file_number: n,
                    total_blob_count: c,
                    total_blob_bytes: by,
                    checksum_method: v.clone(),
                    checksum_value: v,
                })
                .collect(),
            blob_file_garbages: b
                .4
                .into_iter()
                .map(|(n, c, by)| BlobFileGarbage {
                    blob_file_number: n,
                    garbage_blob_count: c,
                    garbage_blob_bytes: by,
                })
                .collect(),
            column_family: c.0,
            column_family_add: c.1,
            column_family_drop: c.2,
            remaining_in_atomic_group: c.3,
            full_history_ts_low: c.4,
            wal_additions: c.5,
            wal_deletion: c.6,
        })
}

proptest! {
    #[test]
    fn encode_then_decode_is_identity(e in arb_edit()) {
        let bytes = encoded(&e);
        let d = VersionEdit::decode(&bytes);
        prop_assert_eq!(d, Ok(e));
    }

    #[test]
    fn decode_never_panics_on_random_bytes(bytes in vec(any::<u8>(), 0..200)) {
        let _ = VersionEdit::decode(&bytes);
    }

    #[test]
    fn decode_never_panics_on_mutated_edits(
        e in arb_edit(),
        flips in vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
        cut in any::<prop::sample::Index>(),
    ) {
        let mut bytes = encoded(&e);
        if bytes.is_empty() {
            return Ok(());
        }
        for (at, v) in flips {
            let i = at.index(bytes.len());
            bytes[i] = v;
        }
        let _ = VersionEdit::decode(&bytes);
        let _ = VersionEdit::decode(&bytes[..cut.index(bytes.len())]);
    }
}

// ---------------------------------------------------------------------------------------
// Oracle tests against RocksDB 7.8.3's `ldb`, with a minimal test-only log framer
// (the engine's own log writer lives in `wal`).

const BLOCK_SIZE: usize = 32768;
const HEADER_SIZE: usize = 7;

/// Frames `records` as RocksDB log records (legacy 7-byte headers).
fn frame_log(records: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for rec in records {
        let mut left: &[u8] = rec;
        let mut first = true;
        loop {
            let avail = BLOCK_SIZE - out.len() % BLOCK_SIZE;
            if avail < HEADER_SIZE {
                out.resize(out.len() + avail, 0);
                continue;
            }
            let n = left.len().min(avail - HEADER_SIZE);
            let last = n == left.len();
            let t: u8 = match (first, last) {
                (true, true) => 1,
                (true, false) => 2,
                (false, false) => 3,
                (false, true) => 4,
            };
            let crc = crc::mask(crc::extend(crc::value(&[t]), &left[..n]));
            put_fixed32(&mut out, crc);
            put_fixed16(&mut out, u16::try_from(n).expect("fragment fits a block"));
            out.push(t);
            out.extend_from_slice(&left[..n]);
            left = &left[n..];
            first = false;
            if last {
                break;
            }
        }
    }
    out
}

/// Reads back every logical record of a log file; panics on any damage.
fn read_log(data: &[u8]) -> Vec<Vec<u8>> {
    let mut records = Vec::new();
    let mut pending: Option<Vec<u8>> = None;
    let mut pos = 0;
    while pos < data.len() {
        let in_block = BLOCK_SIZE - pos % BLOCK_SIZE;
        if in_block < HEADER_SIZE || data.len() - pos < HEADER_SIZE {
            pos += in_block;
            continue;
        }
        let h = &data[pos..pos + HEADER_SIZE];
        let len = usize::from(u16::from_le_bytes([h[4], h[5]]));
        let t = h[6];
        if t == 0 && len == 0 {
            pos += in_block;
            continue;
        }
        let payload = &data[pos + HEADER_SIZE..pos + HEADER_SIZE + len];
        let want = u32::from_le_bytes([h[0], h[1], h[2], h[3]]);
        assert_eq!(
            crc::unmask(want),
            crc::extend(crc::value(&[t]), payload),
            "crc"
        );
        match t {
            1 => records.push(payload.to_vec()),
            2 => pending = Some(payload.to_vec()),
            3 => pending
                .as_mut()
                .expect("middle after first")
                .extend_from_slice(payload),
            4 => {
                let mut r = pending.take().expect("last after first");
                r.extend_from_slice(payload);
                records.push(r);
            }
            other => panic!("unexpected record type {other}"),
        }
        pos += HEADER_SIZE + len;
    }
    records
}

#[test]
fn test_framer_round_trips_and_fragments() {
    let recs = vec![
        vec![1u8; 10],
        vec![2u8; 70_000],
        Vec::new(),
        vec![3u8; 32768 - 7 - 17 - 7 - 3],
    ];
    let framed = frame_log(&recs);
    assert_eq!(read_log(&framed), recs);
    // The NewDB record as formats.md §6.4 shows it.
    let one = frame_log(&[vec![2, 0, 3, 2, 4, 0]]);
    assert_eq!(&one[4..], &[6, 0, 1, 2, 0, 3, 2, 4, 0]);
}

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

#[test]
fn ldb_dumps_a_handwritten_manifest() {
    if !ldb_available() {
        eprintln!("skipped: ldb not installed");
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let cmp = "leveldb.BytewiseComparator".to_string();
    let file = FileMetaData {
        number: 7,
        file_size: 12345,
        smallest: ikey(b"apple", 5),
        largest: ikey(b"zebra", 9),
        smallest_seqno: 5,
        largest_seqno: 9,
        oldest_ancester_time: 1_700_000_000,
        file_creation_time: 1_700_000_001,
        ..FileMetaData::default()
    };
    let edits = [
        VersionEdit {
            comparator: Some(cmp.clone()),
            ..VersionEdit::default()
        },
        VersionEdit {
            comparator: Some(cmp),
            column_family: 1,
            column_family_add: Some("cf1".into()),
            ..VersionEdit::default()
        },
        VersionEdit {
            column_family: 1,
            new_files: vec![(2, file)],
            log_number: Some(3),
            ..VersionEdit::default()
        },
        VersionEdit {
            log_number: Some(3),
            next_file_number: Some(10),
            last_sequence: Some(9),
            max_column_family: Some(1),
            ..VersionEdit::default()
        },
    ];
    let records: Vec<Vec<u8>> = edits.iter().map(encoded).collect();
    let manifest = dir.path().join("MANIFEST-000001");
    std::fs::write(&manifest, frame_log(&records)).expect("write manifest");
    std::fs::write(dir.path().join("CURRENT"), "MANIFEST-000001\n").expect("write CURRENT");

    let path = format!("--path={}", manifest.display());
    let out = ldb(&["manifest_dump", &path, "--verbose"]);
    assert!(out.contains("ColumnFamilyAdd: cf1"), "{out}");
    assert!(out.contains("Column family \"cf1\"  (ID 1)"), "{out}");
    assert!(
        out.contains("AddFile: 2 7 12345 'apple' seq:5, type:1 .. 'zebra' seq:9, type:1"),
        "{out}"
    );
    assert!(out.contains("oldest_ancester_time:1700000000"), "{out}");
    assert!(out.contains("file_creation_time:1700000001"), "{out}");
    assert!(out.contains(" 7:12345[5 .. 9]['apple' seq:5"), "{out}");
    assert!(out.contains("NextFileNumber: 10"), "{out}");
    assert!(out.contains("LastSeq: 9"), "{out}");
    // The summary line shows the recovered counter, which ldb reports one past the stored
    // next-file number (it also reserves a number for the manifest it would write).
    assert!(out.contains("next_file_number 11 last_sequence 9"), "{out}");
    assert!(out.contains("max_column_family 1"), "{out}");
    assert!(!out.contains("Corruption"), "{out}");
}

/// Removes every `12 16 <16 bytes>` unique-id custom field we know is in `record`.
fn strip_unique_ids(record: &[u8], edit: &VersionEdit) -> Vec<u8> {
    let mut out = record.to_vec();
    for (_, f) in &edit.new_files {
        if let Some(id) = f.unique_id {
            let mut pat = vec![12u8, 16];
            pat.extend_from_slice(&id);
            let at = out
                .windows(pat.len())
                .position(|w| w == pat)
                .expect("unique id field is present");
            out.drain(at..at + pat.len());
        }
    }
    out
}

fn real_db(dir: &Path) {
    let db = format!("--db={}", dir.display());
    ldb(&[&db, "--create_if_missing", "put", "a", "b"]);
    ldb(&[&db, "create_column_family", "cf1"]);
    ldb(&[&db, "create_column_family", "cf2"]);
    ldb(&[&db, "--column_family=cf1", "put", "k1", "v1"]);
    ldb(&[&db, "--column_family=cf2", "put", "k2", "v2"]);
    ldb(&[&db, "--column_family=cf1", "compact"]);
    ldb(&[&db, "compact"]);
}

fn current_manifest(dir: &Path) -> std::path::PathBuf {
    let current = std::fs::read_to_string(dir.join("CURRENT")).expect("CURRENT");
    dir.join(current.trim_end_matches('\n'))
}

#[test]
fn decodes_every_record_of_a_rocksdb_manifest() {
    if !ldb_available() {
        eprintln!("skipped: ldb not installed");
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    real_db(dir.path());
    let data = std::fs::read(current_manifest(dir.path())).expect("read manifest");
    let records = read_log(&data);
    assert!(records.len() >= 4);

    let mut cf_names = std::collections::BTreeMap::new();
    cf_names.insert(0u32, "default".to_string());
    let mut live = std::collections::BTreeMap::new();
    let (mut saw_cmp, mut saw_log, mut saw_next, mut saw_seq) = (false, false, false, false);
    for rec in &records {
        let e = VersionEdit::decode(rec).expect("RocksDB's records decode");
        saw_cmp |= e.comparator.as_deref() == Some("leveldb.BytewiseComparator");
        saw_log |= e.log_number.is_some();
        saw_next |= e.next_file_number.is_some();
        saw_seq |= e.last_sequence.is_some();
        if let Some(name) = &e.column_family_add {
            cf_names.insert(e.column_family, name.clone());
        }
        for (_, n) in &e.deleted_files {
            live.remove(n);
        }
        for (_, f) in &e.new_files {
            assert!(f.unique_id.is_some(), "7.8.3 writes unique ids");
            live.insert(f.number, (e.column_family, f.clone()));
        }
        // Our encoding of the decoded edit is byte-identical to RocksDB's, minus tag 12.
        assert_eq!(encoded(&e), strip_unique_ids(rec, &e), "{e:?}");
    }
    assert!(saw_cmp && saw_log && saw_next && saw_seq);
    let names: Vec<&str> = cf_names.values().map(String::as_str).collect();
    assert_eq!(names, ["default", "cf1", "cf2"]);

    // Every live file in the MANIFEST exists with exactly the recorded size.
    let mut on_disk: Vec<u64> = std::fs::read_dir(dir.path())
        .expect("list")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".sst")?.parse().ok()
        })
        .collect();
    on_disk.sort_unstable();
    let in_manifest: Vec<u64> = live.keys().copied().collect();
    assert_eq!(in_manifest, on_disk);
    for (n, (_, f)) in &live {
        let len = std::fs::metadata(dir.path().join(format!("{n:06}.sst")))
            .expect("sst")
            .len();
        assert_eq!(f.file_size, len);
    }
    let cfs_with_files: std::collections::BTreeSet<u32> = live.values().map(|(c, _)| *c).collect();
    assert!(cfs_with_files.contains(&0) && cfs_with_files.contains(&1));
}

#[test]
fn rocksdb_opens_a_db_whose_manifest_we_rewrote() {
    if !ldb_available() {
        eprintln!("skipped: ldb not installed");
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    real_db(dir.path());
    let data = std::fs::read(current_manifest(dir.path())).expect("read manifest");
    let mut max_number = 0;
    let records: Vec<Vec<u8>> = read_log(&data)
        .iter()
        .map(|r| {
            let e = VersionEdit::decode(r).expect("decodes");
            max_number = max_number.max(e.next_file_number.unwrap_or(0));
            encoded(&e)
        })
        .collect();
    // Write our re-encoding (no unique ids) as a new, higher-numbered MANIFEST.
    let name = format!("MANIFEST-{:06}", max_number + 100);
    let bump = VersionEdit {
        next_file_number: Some(max_number + 101),
        ..VersionEdit::default()
    };
    let mut all = records;
    all.push(encoded(&bump));
    std::fs::write(dir.path().join(&name), frame_log(&all)).expect("write");
    std::fs::write(dir.path().join("CURRENT"), format!("{name}\n")).expect("CURRENT");

    let db = format!("--db={}", dir.path().display());
    assert_eq!(ldb(&[&db, "get", "a"]).trim(), "b");
    assert_eq!(ldb(&[&db, "--column_family=cf1", "get", "k1"]).trim(), "v1");
    assert_eq!(ldb(&[&db, "--column_family=cf2", "get", "k2"]).trim(), "v2");
}

/// Found by the version_edit fuzz target (core/fuzz/seeds/version_edit/regression-newfile3-path-id):
/// a legacy new-file3 entry with a path id above 3 decoded, but NewFile4 (what we write)
/// holds only 0..=3, so the re-encoded MANIFEST failed to decode ("path_id wrong vaue").
#[test]
fn new_file3_path_id_beyond_new_file4_is_refused() {
    let entry = |path_id: u8| {
        let mut b = vec![102u8, 0, 5, path_id, 10];
        for k in [ikey(b"a", 1), ikey(b"b", 2)] {
            b.push(k.len() as u8);
            b.extend_from_slice(&k);
        }
        b.extend_from_slice(&[1, 2]);
        b
    };
    let ok = VersionEdit::decode(&entry(3)).expect("path id 3 decodes");
    assert_eq!(ok.new_files[0].1.path_id, 3);
    assert_eq!(VersionEdit::decode(&encoded(&ok)).expect("re-encoded"), ok);
    assert_eq!(err_text(&entry(4)), "VersionEdit: new-file3 entry");
    let seed = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/seeds/version_edit/regression-newfile3-path-id");
    let bytes = std::fs::read(seed).expect("regression seed");
    if let Ok(e) = VersionEdit::decode(&bytes) {
        assert_eq!(VersionEdit::decode(&encoded(&e)).expect("re-encoded"), e);
    }
}
