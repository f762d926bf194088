// SPDX-License-Identifier: Apache-2.0
//! A WriteBatch rep (as WAL records carry them): parse, walk every record with a handler,
//! and re-walk through `records()`; a batch that parses must re-serialise to the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use solistore::batch::{Handler, WriteBatch};

struct Count(usize);

impl Handler for Count {
    fn put(&mut self, _: u32, _: &[u8], _: &[u8]) -> solistore::Result<()> {
        self.0 += 1;
        Ok(())
    }
    fn delete(&mut self, _: u32, _: &[u8]) -> solistore::Result<()> {
        self.0 += 1;
        Ok(())
    }
    fn single_delete(&mut self, _: u32, _: &[u8]) -> solistore::Result<()> {
        self.0 += 1;
        Ok(())
    }
    fn delete_range(&mut self, _: u32, _: &[u8], _: &[u8]) -> solistore::Result<()> {
        self.0 += 1;
        Ok(())
    }
    fn merge(&mut self, _: u32, _: &[u8], _: &[u8]) -> solistore::Result<()> {
        self.0 += 1;
        Ok(())
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(batch) = WriteBatch::from_rep(data.to_vec()) else {
        return;
    };
    let mut count = Count(0);
    let _ = batch.iterate(&mut count);
    let walked = batch.records().take_while(|r| r.is_ok()).count();
    assert!(walked <= data.len());
    let _ = (batch.count(), batch.sequence(), batch.has_put());
    assert_eq!(batch.data(), data);
});
