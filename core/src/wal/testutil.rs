// SPDX-License-Identifier: Apache-2.0
//! Test helpers for the log modules: an in-memory [`WritableFile`] that counts calls.

use std::sync::Arc;

use parking_lot::Mutex;

use crate::error::{Error, Result};
use crate::fs::WritableFile;

#[derive(Default)]
struct State {
    bytes: Vec<u8>,
    appends: usize,
    syncs: usize,
    /// File sizes at each `start_writeback`.
    writebacks: Vec<u64>,
    /// The lengths passed to `prepare_ahead`, in order.
    prepared: Vec<u64>,
    fail_appends: bool,
    fail_syncs: bool,
}

/// A shared in-memory file: clones see the same bytes.
#[derive(Clone, Default)]
pub(crate) struct MemFile(Arc<Mutex<State>>);

impl MemFile {
    pub(crate) fn contents(&self) -> Vec<u8> {
        self.0.lock().bytes.clone()
    }
    pub(crate) fn appends(&self) -> usize {
        self.0.lock().appends
    }
    pub(crate) fn syncs(&self) -> usize {
        self.0.lock().syncs
    }
    pub(crate) fn writebacks(&self) -> Vec<u64> {
        self.0.lock().writebacks.clone()
    }
    pub(crate) fn prepared(&self) -> Vec<u64> {
        self.0.lock().prepared.clone()
    }
    pub(crate) fn fail_appends(&self, on: bool) {
        self.0.lock().fail_appends = on;
    }
    pub(crate) fn fail_syncs(&self, on: bool) {
        self.0.lock().fail_syncs = on;
    }
}

impl WritableFile for MemFile {
    fn append(&mut self, data: &[u8]) -> Result<()> {
        let mut s = self.0.lock();
        if s.fail_appends {
            return Err(Error::io_error("injected append failure"));
        }
        s.bytes.extend_from_slice(data);
        s.appends += 1;
        Ok(())
    }
    fn sync(&mut self) -> Result<()> {
        let mut s = self.0.lock();
        if s.fail_syncs {
            return Err(Error::io_error("injected sync failure"));
        }
        s.syncs += 1;
        Ok(())
    }
    fn size(&self) -> u64 {
        self.0.lock().bytes.len() as u64
    }
    fn prepare_ahead(&mut self, len: u64) {
        self.0.lock().prepared.push(len);
    }
    fn start_writeback(&mut self) -> Result<()> {
        let mut s = self.0.lock();
        let size = s.bytes.len() as u64;
        s.writebacks.push(size);
        Ok(())
    }
}
