// SPDX-License-Identifier: Apache-2.0
//! `solistore_*` extensions: functions RocksDB's C API does not have, exported beside it so
//! that bindings can take a faster path when they find them (read path).
//!
//! Callers must feature-detect them (`dlsym`, ctypes `hasattr`) and keep a plain `rocksdb_*`
//! fallback, so that the same program still runs on a real librocksdb. `cargo x abi-check`
//! checks them apart from the RocksDB prototypes: declared in the header and exported, with no
//! RocksDB counterpart to match.
//!
//! - `solistore_iter_next_batch`: copies many iterator entries into one caller buffer per
//!   call, instead of the four calls per entry (`valid`, `key`, `value`, `next`) that the
//!   plain cursor needs; the Python binding iterates through it.

use std::ffi::{c_char, c_uint};

use engine::db::DbIterator;
use engine::Error;

use crate::ffi;
use crate::iter::rocksdb_iterator_t;

/// `flags` bit of `solistore_iter_next_batch`: copy keys.
pub const SOLISTORE_BATCH_KEYS: c_uint = 1;
/// `flags` bit of `solistore_iter_next_batch`: copy values.
pub const SOLISTORE_BATCH_VALUES: c_uint = 2;
/// `flags` bit of `solistore_iter_next_batch`: step backwards (`prev`) instead of forwards.
pub const SOLISTORE_BATCH_REVERSE: c_uint = 4;

/// What one batch call produced: entries copied, and bytes used (or, when not even the
/// first entry fitted, the bytes that entry needs).
#[derive(Debug, PartialEq, Eq)]
struct Batch {
    entries: usize,
    used: usize,
}

/// Copies entries from `it`'s current position into `buf`, recording each copied part's end
/// offset in `ends`, stepping after each entry; stops at the end, after `max_items`
/// entries, or before the first entry that does not fit (the cursor stays on it).
fn fill(
    it: &mut DbIterator,
    flags: c_uint,
    max_items: usize,
    buf: &mut [u8],
    ends: &mut [u64],
) -> Batch {
    let keys = flags & SOLISTORE_BATCH_KEYS != 0;
    let values = flags & SOLISTORE_BATCH_VALUES != 0;
    let reverse = flags & SOLISTORE_BATCH_REVERSE != 0;
    let parts = usize::from(keys) + usize::from(values);
    let mut used = 0;
    let mut entries = 0;
    while entries < max_items && it.valid() {
        let (k, v) = (it.key(), it.value());
        let need = if keys { k.len() } else { 0 } + if values { v.len() } else { 0 };
        if need > buf.len() - used {
            if entries == 0 {
                return Batch {
                    entries,
                    used: need,
                };
            }
            break;
        }
        let mut slot = entries * parts;
        for (wanted, part) in [(keys, k), (values, v)] {
            if wanted {
                buf[used..used + part.len()].copy_from_slice(part);
                used += part.len();
                ends[slot] = used as u64;
                slot += 1;
            }
        }
        entries += 1;
        if reverse {
            it.prev();
        } else {
            it.next();
        }
    }
    Batch { entries, used }
}

/// solistore extension (RocksDB has no such function; look it up with `dlsym` and fall back
/// to `rocksdb_iter_*` when it is absent).
///
/// Copies up to `max_items` entries, starting at the iterator's current entry, into `buf`
/// (`buflen` bytes), moving the iterator forwards after each one, or backwards when `flags`
/// has `SOLISTORE_BATCH_REVERSE` (4). `flags` bit 1 (`SOLISTORE_BATCH_KEYS`) copies keys,
/// bit 2 (`SOLISTORE_BATCH_VALUES`) copies values; for each copied entry, key then value,
/// the parts are written back to back with no separator, and `ends` receives the end offset
/// in `buf` of every part written (the first part starts at 0, every other one where the
/// previous ends). `ends` must hold `max_items` times the number of parts asked for.
///
/// Stops at the end of the range, after `max_items` entries, or before the first entry that
/// would overflow `buf`; the iterator is left on the first entry not copied (or invalid at
/// the end). Returns the number of entries copied and sets `*used` to the bytes written. When
/// the current entry alone does not fit, nothing is copied, 0 is returned, and `*used` is the
/// size that entry needs: grow the buffer and call again. An unpositioned iterator copies
/// nothing. Check `rocksdb_iter_get_error` once the iterator is no longer valid, as with
/// `rocksdb_iter_next`.
///
/// Errors (`*errptr`, 0 returned): NULL `iter`, NULL `buf` or `ends` with a non-zero size.
///
/// # Safety
/// `iter` must be NULL or a live iterator handle used by no other thread meanwhile; `buf`
/// must address `buflen` writable bytes; `ends` must address `max_items` times the part count
/// writable `uint64_t`s; `used` must be NULL or writable; `errptr` NULL or a valid errptr.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn solistore_iter_next_batch(
    iter: *mut rocksdb_iterator_t,
    flags: c_uint,
    max_items: usize,
    buf: *mut c_char,
    buflen: usize,
    ends: *mut u64,
    used: *mut usize,
    errptr: *mut *mut c_char,
) -> usize {
    ffi::guarded(errptr, "solistore_iter_next_batch", || {
        // SAFETY: per this function's contract; NULL is checked.
        let it = unsafe { ffi::borrow_mut(iter, "iter")? };
        let parts = usize::from(flags & SOLISTORE_BATCH_KEYS != 0)
            + usize::from(flags & SOLISTORE_BATCH_VALUES != 0);
        let nends = max_items
            .checked_mul(parts)
            .ok_or_else(|| Error::invalid_argument("max_items is too large"))?;
        // SAFETY: per this function's contract; NULL with a non-zero size is checked.
        let buf = unsafe { ffi::array_mut(buf.cast::<u8>(), buflen, "buf")? };
        // SAFETY: per this function's contract; NULL with a non-zero size is checked.
        let ends = unsafe { ffi::array_mut(ends, nends, "ends")? };
        let batch = fill(&mut it.iter, flags, max_items, buf, ends);
        // SAFETY: per this function's contract.
        unsafe { ffi::write_out(used, batch.used) };
        Ok(batch.entries)
    })
}

#[cfg(test)]
mod tests {
    #![expect(
        clippy::multiple_unsafe_ops_per_block,
        reason = "the test drives the C API the way a C caller does: many calls per block"
    )]

    use std::ptr;

    use super::*;
    use crate::db::*;
    use crate::iter::*;
    use crate::readoptions::*;
    use crate::writeoptions::*;

    /// Reads every entry through `solistore_iter_next_batch` with a `buflen`-byte buffer
    /// (grown when an entry needs more), `max` entries per call; returns the parts per entry.
    unsafe fn drain(
        it: *mut rocksdb_iterator_t,
        flags: c_uint,
        max: usize,
        mut buflen: usize,
    ) -> Vec<Vec<Vec<u8>>> {
        let parts = usize::from(flags & 1 != 0) + usize::from(flags & 2 != 0);
        let mut out = Vec::new();
        let mut ends = vec![0_u64; max * parts];
        loop {
            let mut buf = vec![0_u8; buflen];
            let (mut used, mut err) = (0, ptr::null_mut());
            // SAFETY: live iterator; buffers sized as passed.
            let n = unsafe {
                solistore_iter_next_batch(
                    it,
                    flags,
                    max,
                    buf.as_mut_ptr().cast(),
                    buf.len(),
                    ends.as_mut_ptr(),
                    &mut used,
                    &mut err,
                )
            };
            assert_eq!(take(&mut err), None);
            if n == 0 {
                // SAFETY: live iterator.
                if unsafe { rocksdb_iter_valid(it) } == 0 {
                    return out;
                }
                assert!(used > buflen, "no progress, yet the entry fits");
                buflen = used;
                continue;
            }
            let mut start = 0;
            for e in 0..n {
                let mut entry = Vec::new();
                for p in 0..parts {
                    let end = ends[e * parts + p] as usize;
                    entry.push(buf[start..end].to_vec());
                    start = end;
                }
                out.push(entry);
            }
            assert_eq!(start, used);
        }
    }

    #[test]
    fn batches_match_the_cursor_in_both_directions() {
        let dir = TempDir::new();
        let path = std::ffi::CString::new(dir.path().to_str().expect("utf-8 temp path"))
            .expect("no NUL in the temp path");
        let o = test_options(true);
        let mut err = ptr::null_mut();
        // SAFETY: live handles made here, destroyed at the end; lengths match the buffers.
        unsafe {
            let db = rocksdb_open(o, path.as_ptr(), &mut err);
            assert_eq!(take(&mut err), None);
            let wo = rocksdb_writeoptions_create();
            let mut want = Vec::new();
            for i in 0..300_u32 {
                let k = format!("k{i:04}").into_bytes();
                // Empty, small and one large value; a NUL inside keys.
                let v = match i {
                    7 => Vec::new(),
                    150 => vec![b'x'; 5000],
                    _ => format!("v\0{i}").into_bytes(),
                };
                rocksdb_put(
                    db,
                    wo,
                    k.as_ptr().cast(),
                    k.len(),
                    v.as_ptr().cast(),
                    v.len(),
                    &mut err,
                );
                assert_eq!(take(&mut err), None);
                want.push((k, v));
            }
            let ro = rocksdb_readoptions_create();
            let it = rocksdb_create_iterator(db, ro);

            // Unpositioned: nothing.
            let mut buf = [0_u8; 64];
            let mut ends = [0_u64; 8];
            let mut used = 99;
            let n = solistore_iter_next_batch(
                it,
                3,
                4,
                buf.as_mut_ptr().cast(),
                64,
                ends.as_mut_ptr(),
                &mut used,
                &mut err,
            );
            assert_eq!((n, used), (0, 0));

            rocksdb_iter_seek_to_first(it);
            let got = drain(it, 3, 7, 100);
            let both: Vec<Vec<Vec<u8>>> = want
                .iter()
                .map(|(k, v)| vec![k.clone(), v.clone()])
                .collect();
            assert_eq!(got, both);
            assert_eq!(rocksdb_iter_valid(it), 0);

            rocksdb_iter_seek_to_last(it);
            let got = drain(it, 1 | 4, 1000, 1 << 16);
            let keys: Vec<Vec<Vec<u8>>> = want.iter().rev().map(|(k, _)| vec![k.clone()]).collect();
            assert_eq!(got, keys);

            // Values only, from the middle; the cursor stays on the first entry not copied.
            rocksdb_iter_seek(it, c"k0100".as_ptr(), 5);
            let n = solistore_iter_next_batch(
                it,
                2,
                3,
                buf.as_mut_ptr().cast(),
                64,
                ends.as_mut_ptr(),
                &mut used,
                &mut err,
            );
            assert_eq!(n, 3);
            assert_eq!(&buf[..used], b"v\x00100v\x00101v\x00102");
            let mut klen = 0;
            let k = rocksdb_iter_key(it, &mut klen);
            assert_eq!(std::slice::from_raw_parts(k.cast::<u8>(), klen), b"k0103");

            // An entry larger than the buffer: nothing copied, the size it needs reported.
            rocksdb_iter_seek(it, c"k0150".as_ptr(), 5);
            let n = solistore_iter_next_batch(
                it,
                3,
                4,
                buf.as_mut_ptr().cast(),
                64,
                ends.as_mut_ptr(),
                &mut used,
                &mut err,
            );
            assert_eq!((n, used), (0, 5 + 5000));
            assert_eq!(rocksdb_iter_valid(it), 1);

            // Misuse is reported, never a crash.
            let n = solistore_iter_next_batch(
                ptr::null_mut(),
                3,
                4,
                buf.as_mut_ptr().cast(),
                64,
                ends.as_mut_ptr(),
                &mut used,
                &mut err,
            );
            assert_eq!(n, 0);
            assert_eq!(
                take(&mut err).as_deref(),
                Some("Invalid argument: iter is NULL")
            );
            let n = solistore_iter_next_batch(
                it,
                3,
                4,
                ptr::null_mut(),
                64,
                ends.as_mut_ptr(),
                &mut used,
                &mut err,
            );
            assert_eq!(n, 0);
            assert_eq!(
                take(&mut err).as_deref(),
                Some("Invalid argument: buf is NULL")
            );
            let n = solistore_iter_next_batch(
                it,
                3,
                usize::MAX,
                buf.as_mut_ptr().cast(),
                64,
                ends.as_mut_ptr(),
                &mut used,
                &mut err,
            );
            assert_eq!(n, 0);
            assert_eq!(
                take(&mut err).as_deref(),
                Some("Invalid argument: max_items is too large")
            );

            rocksdb_iter_destroy(it);
            rocksdb_readoptions_destroy(ro);
            rocksdb_writeoptions_destroy(wo);
            rocksdb_close(db);
        }
        free_options(o);
    }
}
