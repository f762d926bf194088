// SPDX-License-Identifier: Apache-2.0
//! Software prefetch: asks the CPU to start loading a cache line that a later step will read,
//! so that the misses of several independent lookups overlap (read path: the staged
//! `multi_get`, see `db/multi_get.rs`).
//!
//! A prefetch is only a hint. It never faults, not even for an address that is unmapped or
//! freed, and it changes no memory. So a caller may pass an address it computed from a stale
//! copy of a pointer: the worst case is a wasted load. Where the target has no prefetch
//! instruction in stable Rust, the hint does nothing.

/// Starts loading the cache line that holds `address` into every cache level.
#[inline(always)]
pub(crate) fn prefetch_line(address: *const u8) {
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    // SAFETY: PREFETCHT0 is a hint that performs no access in the language's sense: it
    // never faults, whatever the address, and writes nothing. SSE, which the intrinsic
    // names, is part of the x86_64 baseline.
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
            address.cast::<i8>(),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}

/// Prefetches the line of `bytes[at]`; nothing when `at` is out of range.
#[inline(always)]
pub(crate) fn prefetch_byte(bytes: &[u8], at: usize) {
    if let Some(b) = bytes.get(at) {
        prefetch_line(b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_address_is_a_harmless_hint() {
        let v = vec![7u8; 256];
        prefetch_byte(&v, 0);
        prefetch_byte(&v, 255);
        prefetch_byte(&v, 256); // out of range: nothing
        assert!(v.iter().all(|&b| b == 7), "a prefetch changes nothing");
        prefetch_line(std::ptr::null());
        prefetch_line(usize::MAX as *const u8);
        let freed = v.as_ptr();
        drop(v);
        prefetch_line(freed);
    }
}
