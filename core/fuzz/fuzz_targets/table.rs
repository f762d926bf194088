// SPDX-License-Identifier: Apache-2.0
//! A whole table file held in memory: footer, metaindex, properties, index, filter, range
//! tombstones and (compressed) data blocks, with checksums off so that damaged blocks reach
//! the decoders. Opens it, scans it, and looks keys up.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use solistore::iter::cursor::InternalIterator;
use solistore::sst::reader::{RandomAccessFile, Table, TableReaderOptions};
use solistore::Error;

struct Mem(Vec<u8>);

impl RandomAccessFile for Mem {
    fn read_at(&self, offset: u64, len: usize) -> solistore::Result<Vec<u8>> {
        let start = usize::try_from(offset).map_err(|_| Error::corruption("offset"))?;
        let end = start.checked_add(len).filter(|e| *e <= self.0.len());
        match end {
            Some(end) => Ok(self.0[start..end].to_vec()),
            None => Err(Error::corruption("read past the end of the file")),
        }
    }
    fn size(&self) -> solistore::Result<u64> {
        Ok(self.0.len() as u64)
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, file)) = data.split_first() else {
        return;
    };
    let opts = TableReaderOptions {
        verify_checksums: flags & 1 != 0,
        ..Default::default()
    };
    let Ok(table) = Table::open(Arc::new(Mem(file.to_vec())), file.len() as u64, opts) else {
        return;
    };
    let table = Arc::new(table);
    let _ = (
        table.properties(),
        table.range_tombstones(),
        table.filter_block(),
    );
    let mut it = table.iter();
    it.seek_to_first();
    let mut keys = Vec::new();
    // Every entry takes at least one byte of the file.
    while it.valid() && keys.len() <= file.len() {
        keys.push(it.key().to_vec());
        let _ = it.value();
        it.next();
    }
    let _ = it.status();
    for k in keys.iter().take(16) {
        let _ = table.get(k);
        let _ = table.key_may_match(k);
    }
    let _ = table.verify_checksums();
});
