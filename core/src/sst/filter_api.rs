// SPDX-License-Identifier: Apache-2.0
//! The seam between tables and filters. The table builder (write path, background) feeds user
//! keys (or prefixes) to a [`FilterBlockBuilder`] and stores what `finish` returns as the meta
//! block `fullfilter.<name>`; the table reader (read path) hands that block to a factory that
//! returns a [`FilterBlockReader`]. The filter implementations themselves (FastLocalBloom) live
//! in `sst::filter`.

/// Builds one table's full filter block.
pub trait FilterBlockBuilder: Send {
    /// Adds a user key (whole-key filtering) or a prefix. The table builder skips a key equal to
    /// the one added just before it.
    fn add_key(&mut self, key_or_prefix: &[u8]);
    /// Returns the filter block's contents and resets the builder.
    fn finish(&mut self) -> Vec<u8>;
    /// The name that follows `fullfilter.` in the metaindex, e.g. `rocksdb.BuiltinBloomFilter`
    /// (RocksDB's `FilterPolicy::CompatibilityName`).
    fn name(&self) -> String;
    /// The policy name stored in the `rocksdb.filter.policy` property (RocksDB's
    /// `FilterPolicy::Name`; `bloomfilter` for the built-in Bloom policy in 7.8.3). Defaults to
    /// [`name`](Self::name).
    fn policy_name(&self) -> String {
        self.name()
    }
}

/// Answers membership queries from one table's filter block.
pub trait FilterBlockReader: Send + Sync {
    /// False only when `key` (a user key or prefix) is certainly absent from the table.
    fn key_may_match(&self, key: &[u8]) -> bool;
    /// Starts loading what `key_may_match(key)` will read, for a caller that asks later
    /// (a hint: it may do nothing, as this default does).
    fn prefetch(&self, _key: &[u8]) {}
    /// [`Self::key_may_match`] of `probe`'s key; a reader whose hash `probe` computes
    /// takes it from there, so that a lookup hashes its key once for all its tables.
    fn probe_may_match(&self, probe: &FilterProbe<'_>) -> bool {
        self.key_may_match(probe.key())
    }
    /// [`Self::prefetch`] of `probe`'s key, with its hash as in [`Self::probe_may_match`].
    fn prefetch_probe(&self, probe: &FilterProbe<'_>) {
        self.prefetch(probe.key());
    }
}

/// A user key a point lookup asks filters about, with the 64-bit filter hash of it
/// (`sst::filter::hash::hash64`, which FastLocalBloom and Ribbon filters use) computed on
/// first use: the lookup asks every table on its way, and the hash is the same for all.
#[derive(Debug)]
pub struct FilterProbe<'a> {
    key: &'a [u8],
    hash64: std::cell::Cell<Option<u64>>,
}

impl<'a> FilterProbe<'a> {
    pub fn new(key: &'a [u8]) -> Self {
        FilterProbe {
            key,
            hash64: std::cell::Cell::new(None),
        }
    }

    pub fn key(&self) -> &'a [u8] {
        self.key
    }

    /// `hash64(key)`, computed once.
    pub fn hash64(&self) -> u64 {
        if let Some(h) = self.hash64.get() {
            return h;
        }
        let h = super::filter::hash::hash64(self.key);
        self.hash64.set(Some(h));
        h
    }
}

/// Builds a reader from the contents of a filter block; `None` when the block is not usable
/// (unknown or corrupt filter), which makes every lookup a "may match".
pub type FilterReaderFactory<'a> = &'a dyn Fn(&[u8]) -> Option<Box<dyn FilterBlockReader>>;

/// Metaindex key prefix of a full filter (`BlockBasedTable::kFullFilterBlockPrefix`).
pub const FULL_FILTER_PREFIX: &str = "fullfilter.";
/// Metaindex key prefix of a partitioned filter (not read by this crate).
pub const PARTITIONED_FILTER_PREFIX: &str = "partitionedfilter.";
