// SPDX-License-Identifier: Apache-2.0
//! Tests of the write buffer manager.

use std::sync::Arc;
use std::time::Duration;

use super::*;

const K: usize = 1024;
const D: usize = DUMMY_ENTRY_SIZE;

/// A cache without the metadata charge: usage is exactly the dummy entries' sizes.
fn cache(capacity: usize, strict: bool) -> Arc<LruCache> {
    Arc::new(crate::cache::uncharged(capacity, 0, strict, 0.5))
}

#[test]
fn accounts_mutable_and_total_memory() {
    let wbm = WriteBufferManager::new(1000, None, false);
    assert!(wbm.enabled());
    assert!(!wbm.cost_to_cache());
    wbm.reserve_mem(300);
    wbm.reserve_mem(200);
    assert_eq!(wbm.memory_usage(), 500);
    assert_eq!(wbm.mutable_memtable_memory_usage(), 500);
    wbm.schedule_free_mem(300);
    assert_eq!(wbm.memory_usage(), 500);
    assert_eq!(wbm.mutable_memtable_memory_usage(), 200);
    wbm.free_mem(300);
    assert_eq!(wbm.memory_usage(), 200);
    assert_eq!(wbm.dummy_entries_in_cache_usage(), 0);
    // Over-freeing saturates at zero instead of wrapping.
    wbm.free_mem(1000);
    wbm.schedule_free_mem(1000);
    assert_eq!(wbm.memory_usage(), 0);
    assert_eq!(wbm.mutable_memtable_memory_usage(), 0);
}

#[test]
fn disabled_manager_without_cache_counts_nothing() {
    let wbm = WriteBufferManager::new(0, None, true);
    assert!(!wbm.enabled());
    wbm.reserve_mem(1 << 30);
    assert_eq!(wbm.memory_usage(), 0);
    assert_eq!(wbm.mutable_memtable_memory_usage(), 0);
    assert!(!wbm.should_flush());
    assert!(!wbm.should_stall());
}

#[test]
fn should_flush_when_mutable_passes_seven_eighths() {
    let wbm = WriteBufferManager::new(1000, None, false);
    wbm.reserve_mem(875);
    assert!(!wbm.should_flush(), "875 is exactly 7/8: not above it");
    wbm.reserve_mem(1);
    assert!(wbm.should_flush());
    wbm.schedule_free_mem(876);
    assert!(!wbm.should_flush());
    wbm.free_mem(876);
    // Lowering the budget moves the limit.
    wbm.reserve_mem(100);
    wbm.set_buffer_size(100);
    assert_eq!(wbm.buffer_size(), 100);
    assert!(wbm.should_flush());
}

#[test]
fn should_flush_when_full_and_half_is_mutable() {
    let wbm = WriteBufferManager::new(1000, None, false);
    wbm.reserve_mem(600);
    wbm.schedule_free_mem(600); // being flushed
    wbm.reserve_mem(399);
    assert!(!wbm.should_flush(), "total 999 is below the budget");
    wbm.reserve_mem(1);
    assert_eq!(wbm.memory_usage(), 1000);
    assert_eq!(wbm.mutable_memtable_memory_usage(), 400);
    assert!(
        !wbm.should_flush(),
        "full, but most memory is already being flushed"
    );
    wbm.reserve_mem(100);
    assert_eq!(wbm.mutable_memtable_memory_usage(), 500);
    assert!(wbm.should_flush(), "full and half of the budget is mutable");
}

#[test]
fn cache_usage_rises_and_falls_in_dummy_entries() {
    let cache = cache(64 << 20, false);
    let wbm = WriteBufferManager::new(16 << 20, Some(Arc::clone(&cache)), false);
    assert!(wbm.cost_to_cache());
    wbm.reserve_mem(100);
    assert_eq!(cache.usage(), D);
    assert_eq!(cache.pinned_usage(), D);
    assert_eq!(wbm.dummy_entries_in_cache_usage(), D);
    wbm.reserve_mem(D);
    assert_eq!(cache.usage(), 2 * D, "D + 100 needs two entries");
    wbm.reserve_mem(D - 100);
    assert_eq!(cache.usage(), 2 * D, "exactly 2 D fits in two");
    wbm.reserve_mem(2 * D);
    assert_eq!(cache.usage(), 4 * D);
    assert_eq!(wbm.memory_usage(), 4 * D);
    // Delayed decrease: nothing is released until usage drops below 3/4 of 4 D.
    wbm.free_mem(D);
    assert_eq!(wbm.memory_usage(), 3 * D);
    assert_eq!(cache.usage(), 4 * D);
    wbm.free_mem(1);
    // 3 D - 1 is below 3 D: shrink to the smallest multiple covering it.
    assert_eq!(cache.usage(), 3 * D);
    wbm.free_mem(3 * D - 101);
    assert_eq!(wbm.memory_usage(), 100);
    assert_eq!(cache.usage(), D);
    wbm.free_mem(100);
    assert_eq!(wbm.memory_usage(), 0);
    assert_eq!(cache.usage(), 0);
    assert_eq!(
        cache.entries(),
        0,
        "dummy entries erased, not left unpinned"
    );
}

#[test]
fn cache_charging_works_with_the_budget_disabled() {
    let cache = cache(64 << 20, false);
    let wbm = WriteBufferManager::new(0, Some(Arc::clone(&cache)), false);
    wbm.reserve_mem(300 * K);
    assert_eq!(wbm.memory_usage(), 300 * K);
    assert_eq!(
        wbm.mutable_memtable_memory_usage(),
        0,
        "not tracked when disabled"
    );
    assert_eq!(cache.usage(), 2 * D);
    assert!(!wbm.should_flush());
}

#[test]
fn dropping_the_manager_releases_its_charge() {
    let cache = cache(64 << 20, false);
    {
        let wbm = WriteBufferManager::new(16 << 20, Some(Arc::clone(&cache)), false);
        wbm.reserve_mem(5 * D);
        assert_eq!(cache.usage(), 5 * D);
    }
    assert_eq!(cache.usage(), 0);
    assert_eq!(cache.entries(), 0);
}

#[test]
fn memtable_charge_evicts_blocks_from_a_shared_cache() {
    let cache = cache(4 * D, false);
    let ns = cache.new_id();
    for offset in 0..4u64 {
        cache.insert_detached(
            CacheKey::new(ns, 1, offset),
            Arc::new(offset),
            D,
            Priority::Low,
        );
    }
    assert_eq!(cache.usage(), 4 * D);
    let wbm = WriteBufferManager::new(16 << 20, Some(Arc::clone(&cache)), false);
    wbm.reserve_mem(2 * D);
    assert_eq!(cache.usage(), 4 * D);
    assert_eq!(cache.pinned_usage(), 2 * D);
    assert!(
        cache.lookup(&CacheKey::new(ns, 1, 0)).is_none(),
        "coldest block evicted"
    );
    assert!(cache.lookup(&CacheKey::new(ns, 1, 3)).is_some());
    // Non-strict: the charge may exceed the capacity.
    wbm.reserve_mem(4 * D);
    assert_eq!(cache.usage(), 6 * D);
}

#[test]
fn full_strict_cache_refuses_the_charge_but_memory_is_counted() {
    let cache = cache(2 * D, true);
    let wbm = WriteBufferManager::new(16 << 20, Some(Arc::clone(&cache)), false);
    wbm.reserve_mem(3 * D);
    assert_eq!(wbm.memory_usage(), 3 * D);
    assert_eq!(wbm.dummy_entries_in_cache_usage(), 2 * D);
    assert_eq!(cache.usage(), 2 * D);
    wbm.free_mem(3 * D);
    assert_eq!(cache.usage(), 0);
}

#[test]
fn stall_threshold_follows_allow_stall_and_budget() {
    let wbm = WriteBufferManager::new(1000, None, true);
    wbm.reserve_mem(999);
    assert!(!wbm.should_stall());
    wbm.reserve_mem(1);
    assert!(wbm.is_stall_threshold_exceeded());
    assert!(wbm.should_stall());
    let no_stall = WriteBufferManager::new(1000, None, false);
    no_stall.reserve_mem(5000);
    assert!(!no_stall.should_stall());
    assert!(no_stall.wait_while_stalled(None));
}

#[test]
fn stalled_writer_resumes_when_memory_is_freed() {
    let wbm = Arc::new(WriteBufferManager::new(1000, None, true));
    wbm.reserve_mem(1200);
    assert!(wbm.begin_write_stall());
    assert!(wbm.is_stall_active());
    assert!(
        !wbm.wait_while_stalled(Some(Duration::from_millis(5))),
        "still stalled after the timeout"
    );
    let writer = {
        let wbm = Arc::clone(&wbm);
        std::thread::spawn(move || wbm.wait_while_stalled(None))
    };
    // Freeing a little keeps memory over the budget: the stall goes on.
    wbm.free_mem(100);
    assert!(wbm.is_stall_active());
    wbm.free_mem(200);
    assert!(!wbm.is_stall_active());
    assert!(writer.join().expect("writer panicked"));
    assert!(!wbm.should_stall());
}

#[test]
fn raising_the_budget_or_disabling_stalls_ends_a_stall() {
    let wbm = WriteBufferManager::new(1000, None, true);
    wbm.reserve_mem(1000);
    assert!(wbm.begin_write_stall());
    wbm.set_buffer_size(2000);
    assert!(!wbm.is_stall_active());
    wbm.reserve_mem(1000);
    assert!(wbm.begin_write_stall());
    wbm.set_allow_stall(false);
    assert!(!wbm.is_stall_active());
    assert!(!wbm.should_stall());
    wbm.set_allow_stall(true);
    assert!(wbm.begin_write_stall());
    wbm.set_buffer_size(0);
    assert!(!wbm.is_stall_active(), "a disabled budget never stalls");
}
