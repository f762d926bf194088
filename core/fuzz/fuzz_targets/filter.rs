// SPDX-License-Identifier: Apache-2.0
//! A full filter block (legacy Bloom, fast local Bloom, Ribbon or unknown metadata): parse
//! and probe keys, including keys taken from the input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use solistore::sst::filter::reader::FullFilterReader;

fuzz_target!(|data: &[u8]| {
    let f = FullFilterReader::new(data.to_vec());
    let _ = f.kind();
    for key in [&b""[..], b"k", b"key-000123", data.get(..8).unwrap_or(data)] {
        let _ = f.key_may_match(key);
    }
    for h in [0u64, 1, u64::MAX, 0x9e37_79b9_7f4a_7c15] {
        let _ = f.hash_may_match(h);
    }
});
