// SPDX-License-Identifier: Apache-2.0
//! Memory handed to C callers: every buffer or string a caller must release is allocated
//! with the C allocator (`libc::malloc`), because callers free it with `free()` or
//! `rocksdb_free` (c-api-conventions.md §2–3). Rust's global allocator never backs such a
//! buffer.

use std::alloc::Layout;
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
