// SPDX-License-Identifier: Apache-2.0
//! A VersionEdit (one MANIFEST record): decode; an edit that decodes must encode to bytes
//! that decode to the same edit, except for SST unique ids, which are read but never written
//! (docs/format/manifest.md).
#![no_main]

use libfuzzer_sys::fuzz_target;
use solistore::version::edit::VersionEdit;

fuzz_target!(|data: &[u8]| {
    let Ok(mut edit) = VersionEdit::decode(data) else {
        return;
    };
    for (_, f) in &mut edit.new_files {
        f.unique_id = None;
    }
    let mut again = Vec::new();
    edit.encode(&mut again);
    let back = VersionEdit::decode(&again).expect("a decoded edit re-encodes to a valid one");
    assert_eq!(back, edit);
});
