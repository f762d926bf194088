// SPDX-License-Identifier: Apache-2.0
//! Memory handed to C callers: every buffer or string a caller must release is allocated
//! with the C allocator (`libc::malloc`), because callers free it with `free()` or
//! `rocksdb_free` (c-api-conventions.md §2–3).
//!
//! The library's Rust heap is the C heap as well ([`CHeap`], its global allocator): a byte
//! vector the engine filled (a value a get found) is then handed to the caller as it is
//! ([`vec_to_c`]) instead of being copied into a second buffer. `CHeap` is what std's
//! `System` allocator does on Unix, written here so that the guarantee "a `Vec<u8>`'s
//! buffer came from `malloc` or `realloc`" is this crate's own and not an implementation
//! detail of std.

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::{c_char, c_void};
use std::ptr;

/// `malloc`s `len` bytes (at least one), aborting like Rust's own OOM handling on failure,
/// so callers never see a NULL that C would read as "not found".
fn malloc_nonnull(len: usize) -> *mut u8 {
    let size = len.max(1);
    // SAFETY: `malloc` has no preconditions; the result is checked for NULL below.
    let p = unsafe { libc::malloc(size) }.cast::<u8>();
    if p.is_null() {
        std::alloc::handle_alloc_error(
            Layout::from_size_align(size, 1).unwrap_or_else(|_| Layout::new::<u8>()),
        );
    }
    p
}

/// A malloc()ed copy of `data`, not NUL-terminated. Never NULL, even for an empty slice (a
/// found-but-empty value must not look like "not found"). Release with `rocksdb_free`.
pub(crate) fn malloc_copy(data: &[u8]) -> *mut c_char {
    let p = malloc_nonnull(data.len());
    // SAFETY: `p` has room for `data.len()` bytes and cannot overlap the borrowed `data`.
    unsafe { ptr::copy_nonoverlapping(data.as_ptr(), p, data.len()) };
    p.cast()
}

/// Hands a vector's buffer to C: the caller frees it with `free()` or `rocksdb_free`.
/// Never NULL, even for an empty vector (which owns no buffer: one byte is malloc()ed).
pub(crate) fn vec_to_c(value: Vec<u8>) -> *mut c_char {
    if value.capacity() == 0 {
        return malloc_nonnull(0).cast();
    }
    // The buffer of a `Vec<u8>` with a capacity was allocated under `CHeap` with alignment
    // 1, that is by `malloc` or `realloc` (see `CHeap::alloc`), which `free` releases
    // whatever the capacity. The vector is forgotten, so Rust never frees it too.
    std::mem::ManuallyDrop::new(value).as_mut_ptr().cast()
}

/// The C heap as Rust's global allocator (installed in `lib.rs`). Alignments up to the one
/// `malloc` guarantees go to `malloc` / `realloc` / `free`; larger ones to `posix_memalign`
/// (whose blocks `free` releases too).
pub struct CHeap;

/// What `malloc` aligns every block to on the platforms this library builds for (glibc's
/// `MALLOC_ALIGNMENT`, 16 on 64-bit targets; musl gives 16 as well).
const MALLOC_ALIGN: usize = 16;

impl CHeap {
    /// Whether `malloc(layout.size())` meets `layout`'s alignment. A block smaller than its
    /// alignment is not promised it by C (C11 §7.22.3: only objects that fit), so such a
    /// layout goes to `posix_memalign`.
    fn malloc_fits(layout: Layout) -> bool {
        layout.align() <= MALLOC_ALIGN && layout.align() <= layout.size()
    }

    /// `posix_memalign` for `layout`; NULL on failure.
    fn aligned(layout: Layout) -> *mut u8 {
        let mut out: *mut c_void = ptr::null_mut();
        let align = layout.align().max(std::mem::size_of::<usize>());
        // SAFETY: `out` is a valid place for the result; `align` is a power of two (a
        // `Layout`'s alignment, or the pointer size) and a multiple of the pointer size.
        let rc = unsafe { libc::posix_memalign(&mut out, align, layout.size()) };
        if rc == 0 {
            out.cast()
        } else {
            ptr::null_mut()
        }
    }
}

// SAFETY: every block comes from `malloc`, `realloc` or `posix_memalign` with at least the
// layout's size and alignment (see `malloc_fits`), and is released with `free`, which
// accepts all three; `realloc` keeps the contents up to the smaller size, as GlobalAlloc
// requires, in both of its branches.
unsafe impl GlobalAlloc for CHeap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if Self::malloc_fits(layout) {
            // SAFETY: `malloc` has no preconditions.
            unsafe { libc::malloc(layout.size()) }.cast()
        } else {
            Self::aligned(layout)
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: `ptr` came from this allocator (GlobalAlloc's contract), so from malloc,
        // realloc or posix_memalign.
        unsafe { libc::free(ptr.cast()) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new_layout = Layout::from_size_align(new_size, layout.align());
        match new_layout {
            Ok(new) if Self::malloc_fits(new) => {
                // SAFETY: `ptr` is a live block of this allocator (GlobalAlloc's contract);
                // `realloc` keeps its contents up to the smaller size.
                unsafe { libc::realloc(ptr.cast(), new_size) }.cast()
            }
            Ok(new) => {
                let out = Self::aligned(new);
                if !out.is_null() {
                    // SAFETY: both blocks are live and distinct, each at least
                    // `min(old, new)` bytes long.
                    unsafe { ptr::copy_nonoverlapping(ptr, out, layout.size().min(new_size)) };
                    // SAFETY: `ptr` is a live block of this allocator, no longer used.
                    unsafe { libc::free(ptr.cast()) };
                }
                out
            }
            Err(_) => ptr::null_mut(),
        }
    }
}

/// A malloc()ed NUL-terminated copy of `text` (a C string, like `strdup`). Never NULL.
/// A NUL inside `text` ends the string early for C readers. Release with `rocksdb_free`.
pub(crate) fn malloc_cstring(text: impl AsRef<[u8]>) -> *mut c_char {
    let bytes = text.as_ref();
    let p = malloc_nonnull(bytes.len() + 1);
    // SAFETY: `p` has room for `bytes.len() + 1` bytes and cannot overlap `bytes`.
    unsafe { ptr::copy_nonoverlapping(bytes.as_ptr(), p, bytes.len()) };
    // SAFETY: index `bytes.len()` is the last of the `bytes.len() + 1` allocated bytes.
    let end = unsafe { p.add(bytes.len()) };
    // SAFETY: `end` is in bounds of the allocation, see above.
    unsafe { end.write(0) };
    p.cast()
}

/// Frees a malloc()ed array of `len` malloc()ed C strings, then the array itself.
/// `(NULL, 0)` and NULL entries are tolerated.
///
/// # Safety
/// `list` must be NULL or a C-allocator array of at least `len` pointers, each NULL or
/// C-allocated, none used again afterwards.
pub(crate) unsafe fn free_cstring_array(list: *mut *mut c_char, len: usize) {
    if list.is_null() {
        return;
    }
    for i in 0..len {
        // SAFETY: `i < len` and `list` holds `len` readable entries per the contract.
        let slot = unsafe { list.add(i) };
        // SAFETY: `slot` is one of the `len` readable entries.
        let entry = unsafe { slot.read() };
        // SAFETY: each entry is NULL or C-allocated per the contract.
        unsafe { libc::free(entry.cast()) };
    }
    // SAFETY: `list` is C-allocated per the contract.
    unsafe { libc::free(list.cast()) };
}

/// Releases memory this library returned for the caller to free (values, strings, error
/// messages, arrays). Exactly C's `free()`: NULL is a no-op.
///
/// # Safety
/// `ptr` must be NULL or a pointer obtained from this library (or the C allocator) that
/// has not been freed yet.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rocksdb_free(ptr: *mut c_void) {
    // SAFETY: the caller passes NULL or a live C-allocator pointer.
    unsafe { libc::free(ptr) };
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    #[test]
    fn empty_copy_is_not_null() {
        let p = malloc_copy(b"");
        assert!(!p.is_null());
        // SAFETY: `p` came from malloc_copy.
        unsafe { rocksdb_free(p.cast()) };
    }

    #[test]
    fn copy_and_cstring_round_trip() {
        let p = malloc_copy(b"a\0b");
        // SAFETY: `p` holds the 3 bytes just copied.
        let got = unsafe { std::slice::from_raw_parts(p.cast::<u8>(), 3) };
        assert_eq!(got, b"a\0b");
        // SAFETY: `p` came from malloc_copy.
        unsafe { rocksdb_free(p.cast()) };
        let s = malloc_cstring("hello");
        // SAFETY: `s` is NUL-terminated.
        assert_eq!(unsafe { CStr::from_ptr(s) }.to_bytes(), b"hello");
        // SAFETY: `s` came from malloc_cstring.
        unsafe { rocksdb_free(s.cast()) };
    }

    #[test]
    fn a_vector_goes_to_c_as_it_is_and_free_releases_it() {
        // Grown by push (realloc), with spare capacity: the buffer is handed over, not
        // copied, and `free` accepts it.
        let mut v = Vec::new();
        for i in 0..1000u32 {
            v.push((i % 251) as u8);
        }
        assert!(v.capacity() > v.len());
        let (addr, expected) = (v.as_ptr(), v.clone());
        let p = vec_to_c(v);
        assert_eq!(p.cast::<u8>().cast_const(), addr);
        // SAFETY: `p` holds the vector's 1000 bytes.
        let got = unsafe { std::slice::from_raw_parts(p.cast::<u8>(), 1000) };
        assert_eq!(got, &expected[..]);
        // SAFETY: `p` came from vec_to_c.
        unsafe { rocksdb_free(p.cast()) };
        for empty in [Vec::new(), Vec::with_capacity(8)] {
            let p = vec_to_c(empty);
            assert!(!p.is_null());
            // SAFETY: `p` came from vec_to_c.
            unsafe { rocksdb_free(p.cast()) };
        }
    }

    #[test]
    fn the_c_heap_meets_every_alignment() {
        for (size, align) in [(1, 1), (8, 16), (24, 8), (8, 32), (100, 64), (5000, 4096)] {
            let layout = Layout::from_size_align(size, align).expect("layout");
            // SAFETY: the layout has a non-zero size.
            let p = unsafe { CHeap.alloc(layout) };
            assert!(!p.is_null());
            assert_eq!(p.addr() % align, 0, "size {size} align {align}");
            // SAFETY: `p` has `size` writable bytes.
            unsafe { p.write_bytes(0xab, size) };
            // SAFETY: `p` is live with `layout`; the new size is non-zero.
            let q = unsafe { CHeap.realloc(p, layout, size * 3) };
            assert!(!q.is_null());
            assert_eq!(q.addr() % align, 0, "realloc to {} align {align}", size * 3);
            // SAFETY: the first `size` bytes were kept.
            let kept = unsafe { std::slice::from_raw_parts(q, size) };
            assert!(kept.iter().all(|b| *b == 0xab));
            let grown = Layout::from_size_align(size * 3, align).expect("layout");
            // SAFETY: `q` is live with `grown`.
            unsafe { CHeap.dealloc(q, grown) };
        }
    }

    #[test]
    fn free_cstring_array_accepts_null_and_entries() {
        // SAFETY: NULL is allowed.
        unsafe { free_cstring_array(ptr::null_mut(), 0) };
        // SAFETY: malloc has no preconditions.
        let list = unsafe { libc::malloc(2 * size_of::<*mut c_char>()) }.cast::<*mut c_char>();
        assert!(!list.is_null());
        // SAFETY: `list` has room for two pointers.
        unsafe { list.write(malloc_cstring("a")) };
        // SAFETY: as above; index 1 is the second of the two.
        let second = unsafe { list.add(1) };
        // SAFETY: `second` is in bounds, see above.
        unsafe { second.write(ptr::null_mut()) };
        // SAFETY: `list` and its entries are C-allocated or NULL.
        unsafe { free_cstring_array(list, 2) };
    }
}
