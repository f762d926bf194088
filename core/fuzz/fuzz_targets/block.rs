// SPDX-License-Identifier: Apache-2.0
//! Data and index blocks: byte 0 picks how the block is read (internal keys as in a data
//! block, user keys or internal keys with the index value layouts, or bytewise as meta
//! blocks); byte 1 and on are the block. The cursor walks forward and backward and seeks.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use solistore::iter::cursor::InternalIterator;
use solistore::key::{BytewiseComparator, InternalKeyComparator};
use solistore::sst::block::{Block, BlockIter, IndexFormat, KeyOrder};

fuzz_target!(|data: &[u8]| {
    let Some((&how, body)) = data.split_first() else {
        return;
    };
    let Ok(block) = Block::new(body.to_vec()) else {
        return;
    };
    let order = match how & 3 {
        0 | 1 => KeyOrder::Internal(InternalKeyComparator::new(Arc::new(BytewiseComparator))),
        2 => KeyOrder::UserKeys(InternalKeyComparator::new(Arc::new(BytewiseComparator))),
        _ => KeyOrder::Bytewise,
    };
    let index = (how & 3 != 0 && how & 3 != 3).then_some(IndexFormat {
        value_delta_encoded: how & 4 != 0,
        has_first_key: how & 8 != 0,
    });
    let is_index = index.is_some();
    let mut it = BlockIter::new(Arc::new(block), order, index);
    // Every entry takes at least one byte, so the block's length bounds each walk.
    let bound = body.len() + 1;
    it.seek_to_first();
    let mut n = 0;
    let mut last_key = Vec::new();
    while it.valid() && n < bound {
        last_key = it.key().to_vec();
        let _ = it.value();
        if is_index {
            let _ = (it.block_handle(), it.first_internal_key());
        }
        it.next();
        n += 1;
    }
    assert!(n < bound, "forward walk did not end");
    let _ = it.status();
    it.seek_to_last();
    let mut m = 0;
    while it.valid() && m < bound {
        it.prev();
        m += 1;
    }
    assert!(m < bound, "backward walk did not end");
    for target in [&last_key[..], b"", b"\xff\xff\xff\xff\xff\xff\xff\xff\xff"] {
        it.seek(target);
        if it.valid() {
            let _ = it.key();
        }
        it.seek_for_prev(target);
    }
});
