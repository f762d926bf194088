// SPDX-License-Identifier: Apache-2.0
//! Status text at the C boundary: stores an `engine::Error` in a caller's `char** errptr`
//! the way RocksDB's `SaveError` does, and turns a caught panic into an error.
//!
//! `engine::Error`'s `Display` already prints RocksDB's `Status::ToString()` text
//! (`"IO error: ..."`, `"Not implemented: ..."`), so this module only owns the errptr protocol
//! (c.h convention 3): on failure free the old `*errptr`, store a fresh malloc()ed copy; on
//! success (never called) `*errptr` is left untouched.

use std::any::Any;
use std::ffi::c_char;

use engine::Error;

use crate::alloc;

/// Stores `err`'s RocksDB status text in `*errptr`, freeing any message already there.
/// A NULL `errptr` is tolerated: nothing is stored (STYLE.md §4.4).
///
/// # Safety
/// `errptr` must be NULL or point at a writable `char*` that is NULL or was malloc()ed
/// (by this library or by the caller with the C allocator).
pub(crate) unsafe fn store_error(errptr: *mut *mut c_char, err: &Error) {
    if errptr.is_null() {
        return;
    }
    let text = alloc::malloc_cstring(err.to_string());
    // SAFETY: `errptr` is non-NULL and points at a readable `char*` per the contract.
    let old = unsafe { errptr.read() };
    // SAFETY: `old` is NULL or a C-allocator pointer, which `libc::free` accepts.
    unsafe { libc::free(old.cast()) };
    // SAFETY: `errptr` is non-NULL and writable per the contract.
    unsafe { errptr.write(text) };
}

/// The error a caught panic in the C function `name` is reported as:
/// `Operation aborted: panic in <name>: <payload>`.
pub(crate) fn panic_error(name: &str, payload: &(dyn Any + Send)) -> Error {
    let text = if let Some(s) = payload.downcast_ref::<&'static str>() {
        s
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.as_str()
    } else {
        "unknown panic payload"
    };
    Error::aborted(format!("panic in {name}: {text}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;
    use std::ptr;

    fn read_and_free(p: *mut c_char) -> String {
        // SAFETY: `p` is a NUL-terminated malloc()ed string made by `store_error`.
        let s = unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned();
        // SAFETY: malloc()ed by `alloc::malloc_cstring`.
        unsafe { libc::free(p.cast()) };
        s
    }

    #[test]
    fn store_error_replaces_old_message() {
        let mut err: *mut c_char = alloc::malloc_cstring("old error");
        // SAFETY: `err` holds a malloc()ed message.
        unsafe { store_error(&mut err, &Error::not_supported("x")) };
        assert_eq!(read_and_free(err), "Not implemented: x");
    }

    #[test]
    fn store_error_tolerates_null_errptr() {
        // SAFETY: NULL is allowed.
        unsafe { store_error(ptr::null_mut(), &Error::not_supported("x")) };
    }

    #[test]
    fn panic_payloads_become_aborted_errors() {
        let e = panic_error("rocksdb_x", &"boom");
        assert_eq!(e.to_string(), "Operation aborted: panic in rocksdb_x: boom");
        let e = panic_error("rocksdb_y", &String::from("bang"));
        assert_eq!(e.to_string(), "Operation aborted: panic in rocksdb_y: bang");
        let e = panic_error("rocksdb_z", &42_i32);
        assert_eq!(
            e.to_string(),
            "Operation aborted: panic in rocksdb_z: unknown panic payload"
        );
    }
}
