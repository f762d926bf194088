// SPDX-License-Identifier: Apache-2.0
//! Zeroed word buffers for large, randomly accessed memory (the memtable arena's blocks),
//! backed by transparent huge pages where the kernel offers them.
//!
//! # Why
//!
//! A memtable search visits a few dozen nodes scattered over tens of MiB. Measured on the
//! 2-CPU VMs this project runs on (a C pointer chase over a 32 MiB buffer): 310 ns a hop
//! with 4 KiB pages, 228 ns with 2 MiB pages; over 128 MiB, 433 against 235 ns. Under a
//! hypervisor a TLB miss costs a two-dimensional page walk, so most of a cache miss's price
//! there is the walk, which a huge page removes.
//!
//! Debian and most distributions set `transparent_hugepage/enabled` to `madvise`: only
//! memory that asks with `madvise(MADV_HUGEPAGE)` gets huge pages, and only in 2 MiB
//! ranges aligned to 2 MiB. The allocator's memory is neither, so a buffer here is its own
//! anonymous mapping, trimmed to a 2 MiB boundary and advised. Where the kernel has no THP
//! the advice fails harmlessly and the buffer is an ordinary mapping.
//!
//! Other buffers of at least `PLAIN_MAP_MIN_BYTES` whole pages get a plain mapping of their
//! own, not advised: resident page by page as they are touched, and returned to the kernel
//! when dropped, where the allocator keeps a freed heap block for reuse (and maps large
//! allocations only up to a threshold that rises to the largest one freed). Smaller
//! buffers, and any whose mapping fails, come from the heap, so `ZeroedWords::new` never
//! fails for lack of a mapping. Off Linux the mappings are made but not advised.
//!
//! The cost: with the kernel's default `defrag` setting (`madvise`), the first touch of an
//! advised 2 MiB range may compact memory to find a huge page when memory is fragmented, so
//! one memtable insert can now and then take longer; and a touched huge page is resident
//! whole, even where the buffer's tail is not used yet.
//!
//! One of the modules of `core` with `unsafe` code (see UNSAFE.md): `mmap`, `madvise` and
//! `munmap` of a mapping this type owns, and the slice over it.
#![expect(
    unsafe_code,
    reason = "anonymous mappings with madvise are only available from libc"
)]

use std::ptr::NonNull;
use std::sync::atomic::AtomicU64;

/// The x86-64 and aarch64 (4 KiB base pages) PMD huge page size.
pub(crate) const HUGE_PAGE_BYTES: usize = 2 << 20;

/// A zero-filled, fixed-length buffer of atomic words.
pub(crate) struct ZeroedWords {
    inner: Inner,
}

enum Inner {
    Heap(Box<[AtomicU64]>),
    /// `words` words at `ptr`, a mapping of exactly `words * 8` bytes that this value owns.
    Mapped {
        ptr: NonNull<AtomicU64>,
        words: usize,
    },
}

// SAFETY: the mapping is owned by this value alone and holds only `AtomicU64`s, which are
// `Send` and `Sync`; no thread-affine state is involved.
unsafe impl Send for ZeroedWords {}
// SAFETY: shared access hands out `&[AtomicU64]`, which is safe to use from any thread.
unsafe impl Sync for ZeroedWords {}

impl std::fmt::Debug for ZeroedWords {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ZeroedWords")
            .field("words", &self.len())
            .field("mapped", &self.is_mapped())
            .finish()
    }
}

impl ZeroedWords {
    /// `words` zeroed words. A size that is a whole number of huge pages gets its own
    /// advised mapping, and another of at least `PLAIN_MAP_MIN_BYTES` whole pages its own
    /// plain one (their pages are zeroed by the kernel as they are first touched); any other
    /// size, or a failed mapping, is a heap buffer zeroed here.
    pub(crate) fn new(words: usize) -> Self {
        let bytes = words.saturating_mul(8);
        if bytes >= HUGE_PAGE_BYTES && bytes.is_multiple_of(HUGE_PAGE_BYTES) {
            if let Some(ptr) = map_huge(bytes) {
                return ZeroedWords {
                    inner: Inner::Mapped { ptr, words },
                };
            }
        }
        if bytes >= PLAIN_MAP_MIN_BYTES && bytes.is_multiple_of(PAGE_BYTES) {
            if let Some(ptr) = map_plain(bytes) {
                return ZeroedWords {
                    inner: Inner::Mapped { ptr, words },
                };
            }
        }
        ZeroedWords {
            inner: Inner::Heap((0..words).map(|_| AtomicU64::new(0)).collect()),
        }
    }

    /// Whether the buffer is a mapping of its own (advised or plain). Whether the kernel
    /// granted huge pages for an advised one is its own business (`AnonHugePages` in
    /// `/proc/self/smaps`).
    pub(crate) fn is_mapped(&self) -> bool {
        matches!(self.inner, Inner::Mapped { .. })
    }
}

impl std::ops::Deref for ZeroedWords {
    type Target = [AtomicU64];

    #[inline]
    fn deref(&self) -> &[AtomicU64] {
        match &self.inner {
            Inner::Heap(b) => b,
            // SAFETY: `ptr` is the start of a live, readable and writable mapping of
            // `words * 8` bytes, page aligned (so aligned for AtomicU64), zero-initialized
            // by the kernel (a valid AtomicU64 is any bit pattern), owned by `self` and
            // unmapped only in `drop`, after every borrow of `self` has ended. AtomicU64
            // allows mutation through shared references, so aliasing `&` slices is sound.
            Inner::Mapped { ptr, words } => unsafe {
                std::slice::from_raw_parts(ptr.as_ptr(), *words)
            },
        }
    }
}

impl Drop for ZeroedWords {
    fn drop(&mut self) {
        if let Inner::Mapped { ptr, words } = self.inner {
            // SAFETY: the range is exactly the mapping `map_huge` or `map_plain` returned for
            // this value, and no reference into it outlives `self`.
            unsafe {
                libc::munmap(ptr.as_ptr().cast(), words * 8);
            }
        }
    }
}

/// Maps `bytes` (a multiple of [`HUGE_PAGE_BYTES`]) of anonymous memory at a 2 MiB boundary
/// and advises huge pages for it; `None` if the kernel refuses the mapping.
fn map_huge(bytes: usize) -> Option<NonNull<AtomicU64>> {
    let span = bytes.checked_add(HUGE_PAGE_BYTES)?;
    let base = map_anonymous(span)?;
    let head = (base as usize).next_multiple_of(HUGE_PAGE_BYTES) - base as usize;
    let tail = span - head - bytes;
    let base = base.cast::<u8>();
    // SAFETY: `head < HUGE_PAGE_BYTES < span`: the result stays inside the mapping.
    let aligned = unsafe { base.add(head) };
    // Give back the parts before the boundary and after the buffer (page-aligned: mmap
    // returns page-aligned addresses and every length here is a multiple of the page size).
    if head > 0 {
        // SAFETY: `[base, base + head)` is the front of the mapping made above, unused.
        unsafe {
            libc::munmap(base.cast(), head);
        }
    }
    if tail > 0 {
        // SAFETY: `head + bytes + tail == span`: the end of the buffer is inside the mapping.
        let end = unsafe { aligned.add(bytes) };
        // SAFETY: `[end, end + tail)` is the end of the same mapping, unused.
        unsafe {
            libc::munmap(end.cast(), tail);
        }
    }
    advise_huge_pages(aligned, bytes, true);
    NonNull::new(aligned.cast::<AtomicU64>())
}

/// The base page size this module assumes for plain mappings (x86-64 and aarch64 Linux).
const PAGE_BYTES: usize = 4096;
/// Buffers of at least this many bytes (whole pages) that are not whole huge pages get a
/// plain mapping of their own.
const PLAIN_MAP_MIN_BYTES: usize = 64 << 10;

/// Maps `bytes` (a multiple of the page size) of anonymous memory; `None` if the kernel
/// refuses the mapping.
fn map_plain(bytes: usize) -> Option<NonNull<AtomicU64>> {
    let base = map_anonymous(bytes)?;
    // Where THP is on for all memory, the kernel could back (merged) plain mappings with
    // huge pages, resident whole as soon as they are touched.
    advise_huge_pages(base.cast(), bytes, false);
    NonNull::new(base.cast::<AtomicU64>())
}

/// A fresh private anonymous read-write mapping of `bytes`; `None` if the kernel refuses it.
fn map_anonymous(bytes: usize) -> Option<*mut libc::c_void> {
    // SAFETY: a fresh private anonymous mapping at an address of the kernel's choosing; no
    // existing memory is affected.
    let base = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            bytes,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    (base != libc::MAP_FAILED).then_some(base)
}

/// Asks for transparent huge pages (`huge`) or for base pages only over `[at, at + bytes)`,
/// a mapping of ours. Off Linux there is no such advice and the mapping stays an ordinary
/// one.
fn advise_huge_pages(at: *mut u8, bytes: usize, huge: bool) {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        let advice = if huge {
            libc::MADV_HUGEPAGE
        } else {
            libc::MADV_NOHUGEPAGE
        };
        // SAFETY: the range is a live mapping owned by the caller; advice changes no
        // contents, and an error (no THP in this kernel) leaves it as it is.
        unsafe {
            libc::madvise(at.cast(), bytes, advice);
        }
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    let _ = (at, bytes, huge);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    #[test]
    fn small_buffers_come_from_the_heap_and_are_zeroed() {
        let w = ZeroedWords::new(1000);
        assert!(!w.is_mapped());
        assert_eq!(w.len(), 1000);
        assert!(w.iter().all(|x| x.load(Ordering::Relaxed) == 0));
    }

    #[test]
    fn whole_huge_pages_are_an_aligned_mapping_that_reads_back_what_was_written() {
        let words = 2 * HUGE_PAGE_BYTES / 8;
        let w = ZeroedWords::new(words);
        // Where the mapping is refused (an address-space limit), the heap serves; the rest
        // of the test holds for both.
        if w.is_mapped() {
            assert_eq!(w.as_ptr() as usize % HUGE_PAGE_BYTES, 0);
        }
        assert_eq!(w.len(), words);
        assert_eq!(w[words - 1].load(Ordering::Relaxed), 0);
        for (i, x) in w.iter().enumerate().step_by(4096) {
            x.store(i as u64 + 1, Ordering::Relaxed);
        }
        let sum: u64 = w.iter().map(|x| x.load(Ordering::Relaxed)).sum();
        let expected: u64 = (0..words).step_by(4096).map(|i| i as u64 + 1).sum();
        assert_eq!(sum, expected);
        // Shared across threads like the arena's blocks are.
        let w = std::sync::Arc::new(w);
        let w2 = std::sync::Arc::clone(&w);
        std::thread::spawn(move || w2[7].store(5, Ordering::Relaxed))
            .join()
            .expect("thread");
        assert_eq!(w[7].load(Ordering::Relaxed), 5);
    }

    #[test]
    fn whole_pages_from_64_kib_are_a_plain_mapping_and_odd_sizes_the_heap() {
        let words = (512 << 10) / 8;
        let w = ZeroedWords::new(words);
        // Where the mapping is refused (an address-space limit), the heap serves.
        if w.is_mapped() {
            assert_eq!(w.as_ptr() as usize % PAGE_BYTES, 0);
        }
        assert!(w.iter().all(|x| x.load(Ordering::Relaxed) == 0));
        w[words - 1].store(9, Ordering::Relaxed);
        assert_eq!(w[words - 1].load(Ordering::Relaxed), 9);
        assert!(!ZeroedWords::new(PLAIN_MAP_MIN_BYTES / 8 - 512).is_mapped());
        assert!(!ZeroedWords::new(PLAIN_MAP_MIN_BYTES / 8 + 1).is_mapped());
    }

    #[test]
    fn odd_sizes_above_a_huge_page_use_the_heap() {
        let w = ZeroedWords::new(HUGE_PAGE_BYTES / 8 + 1);
        assert!(!w.is_mapped());
        assert_eq!(w.len(), HUGE_PAGE_BYTES / 8 + 1);
    }
}
