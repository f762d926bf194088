// SPDX-License-Identifier: Apache-2.0
//! A table footer: bytes 0..8 are the file size it is read for, the rest the file's tail. A
//! footer that decodes encodes back (its handles are in range).
#![no_main]

use libfuzzer_sys::fuzz_target;
use solistore::sst::format::Footer;

fuzz_target!(|data: &[u8]| {
    if data.len() < 8 {
        return;
    }
    let mut size = [0u8; 8];
    size.copy_from_slice(&data[..8]);
    let tail = &data[8..];
    // The file is at least as long as its tail.
    let file_size = u64::from_le_bytes(size).max(tail.len() as u64);
    if let Ok(f) = Footer::decode(tail, file_size) {
        let _ = f.encode(file_size - tail.len().min(file_size as usize) as u64);
    }
});
