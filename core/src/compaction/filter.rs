// SPDX-License-Identifier: Apache-2.0
//! Compaction filters: user code that sees each value a compaction rewrites and may keep,
//! remove or change it (RocksDB's `CompactionFilter` and `CompactionFilterFactory`).

/// What a filter decides for one value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    Keep,
    /// The value becomes a deletion (older versions stay hidden).
    Remove,
    ChangeValue(Vec<u8>),
}

/// Called for values that no snapshot protects (or for all values with `ignore_snapshots`).
/// Implementations must be thread-safe: compactions may run concurrently.
pub trait CompactionFilter: Send + Sync {
    fn name(&self) -> &str;
    fn filter(&self, level: usize, key: &[u8], value: &[u8]) -> Decision;
    fn ignore_snapshots(&self) -> bool {
        false
    }
}

/// What a factory learns about the compaction it makes a filter for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FilterContext {
    pub is_full_compaction: bool,
    pub is_manual_compaction: bool,
}

/// Makes one filter per compaction.
pub trait CompactionFilterFactory: Send + Sync {
    fn name(&self) -> &str;
    fn create(&self, context: &FilterContext) -> Option<Box<dyn CompactionFilter>>;
}
