// SPDX-License-Identifier: Apache-2.0
//! A properties block: parse the block, read its entries, and decode the known properties.
#![no_main]

use libfuzzer_sys::fuzz_target;
use solistore::sst::block::Block;
use solistore::sst::properties::{decode_block, TableProperties};

fuzz_target!(|data: &[u8]| {
    let Ok(block) = Block::new(data.to_vec()) else {
        return;
    };
    let Ok(map) = decode_block(block) else {
        return;
    };
    if let Ok(p) = TableProperties::from_map(&map) {
        let _ = p.index_type();
        let _ = p.to_map();
    }
});
