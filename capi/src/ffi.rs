// SPDX-License-Identifier: Apache-2.0
//! The C boundary, and the only module that turns raw pointers into references.
//!
//! Every exported function's body is one call to [`guarded`] (the function has a
//! `char** errptr`) or [`guarded_no_err`] (it has none). Both catch panics, so a bug never
//! unwinds into C or aborts the host (STYLE.md §4.3):
//! - with errptr, an `Err` or a panic is stored as RocksDB status text and the function
//!   returns its [`FailValue`]; a panic reads `Operation aborted: panic in <name>: <payload>`;
//! - without errptr, the function returns its [`FailValue`] (NULL, 0, nothing), and a panic
//!   is also reported once on stderr.
//!
//! Pointer helpers (`borrow`, `bytes`, `cstr`, `write_out`, handles) return
//! `Result<_, Error>` so that a NULL from C becomes `Invalid argument: <param> is NULL`
//! instead of undefined behaviour (STYLE.md §4.4).
//!
//! Lengths and counts (c.h gives no limits; RocksDB reads whatever it is told): a length is
//! trusted as the size of the caller's buffer, except where it cannot be one. Such a length
//! is refused before any byte is read or written:
//! - a key, value, bound or blob longer than 4294967295 bytes (RocksDB's formats store these
//!   lengths in 32 bits; its writes refuse them as "key is too large" and the like) is
//!   `Invalid argument: length <n> is too large (at most 4294967295 bytes)`, so
//!   `keylen = SIZE_MAX` with a valid pointer fails cleanly where RocksDB's `rocksdb_get`
//!   would read past the buffer and crash;
//! - any other buffer (a WriteBatch rep) or array of `n` entries whose byte size exceeds
//!   `isize::MAX`, the most any allocation can hold, is refused the same way (a call without
//!   errptr then does nothing and returns its failure value; a multi-get with an impossible
//!   `num_keys` writes no per-key outputs, since its arrays cannot be that long).
//!
//! Below those bounds a caller that overstates a buffer's length still gets a read past its
//! end, as with RocksDB: that cannot be detected.

use std::ffi::{c_char, c_uchar, c_void, CStr};

// NOTE: the unwinder is linked in statically, so that `libsolistore.so` needs only the C
// runtime (libc, libm, libpthread, libdl and the dynamic loader) and `dlopen(RTLD_NOW)` works
// where libgcc_s is absent. Rust's std on linux-gnu asks for libgcc_s (`_Unwind_*`, which
// `catch_unwind` in `guarded` needs); taking every member of GCC's libgcc_eh.a here defines
// those symbols before the linker reaches `-lgcc_s`, which `--as-needed` then drops. The copy
// is private (the version script exports only `rocksdb_*`), and a Rust panic never leaves
// this library (`guarded`), so it never meets the host's unwinder: C++ exceptions in the
// host keep using the host's. `-bundle`: the archive is found by the C compiler driver at
// the final link (GCC's own library directory), not copied into the rlib.
#[link(name = "gcc_eh", kind = "static", modifiers = "+whole-archive,-bundle")]
unsafe extern "C" {}
use std::panic::{self, AssertUnwindSafe};
use std::ptr;
use std::sync::atomic::{AtomicBool, Ordering};

use engine::Error;

use crate::status;
use crate::types::rocksdb_slice_t;

/// What a failed call returns to C when it cannot (or also) report through errptr.
pub(crate) trait FailValue {
    fn fail_value() -> Self;
}

impl FailValue for () {
    fn fail_value() {}
}
impl<T> FailValue for *mut T {
    fn fail_value() -> Self {
        ptr::null_mut()
    }
}
impl<T> FailValue for *const T {
    fn fail_value() -> Self {
        ptr::null()
    }
}
impl FailValue for rocksdb_slice_t {
    fn fail_value() -> Self {
        rocksdb_slice_t {
            data: ptr::null(),
            size: 0,
        }
    }
}

macro_rules! zero_fail_value {
    ($($t:ty),*) => {$(
        impl FailValue for $t {
            fn fail_value() -> Self {
                Self::default()
            }
        }
    )*};
}
// `c_uchar` is `u8`, `c_int` is `i32`, `c_uint` is `u32`.
zero_fail_value!(u8, i32, u32, i64, u64, usize, f64, bool);

/// Runs `body` for the C function `name`. An `Err` or a panic becomes a RocksDB-style message
/// in `*errptr` (c.h convention 3: the old message is freed, a NULL errptr is tolerated) and
/// `R::fail_value()` is returned. On success `*errptr` is left untouched.
pub(crate) fn guarded<R: FailValue>(
    errptr: *mut *mut c_char,
    name: &'static str,
    body: impl FnOnce() -> Result<R, Error>,
) -> R {
    let outcome = panic::catch_unwind(AssertUnwindSafe(body))
        .unwrap_or_else(|payload| Err(status::panic_error(name, payload.as_ref())));
    outcome.unwrap_or_else(|err| {
        // SAFETY: per c.h, `errptr` is NULL or points at a `char*` that is NULL or was
        // malloc()ed; `store_error` frees it before replacing it.
        unsafe { status::store_error(errptr, &err) };
        R::fail_value()
    })
}

/// Set once the first panic without an errptr has been reported on stderr.
static PANIC_REPORTED: AtomicBool = AtomicBool::new(false);

/// Runs `body` for the C function `name`, which has no errptr. An `Err` returns
/// `R::fail_value()` silently (the C signature has no way to report it); a panic returns it
/// too and is reported on stderr (the first one only, to keep a host's log readable).
pub(crate) fn guarded_no_err<R: FailValue>(
    name: &'static str,
    body: impl FnOnce() -> Result<R, Error>,
) -> R {
    match panic::catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(value)) => value,
        Ok(Err(_)) => R::fail_value(),
        Err(payload) => {
            if !PANIC_REPORTED.swap(true, Ordering::Relaxed) {
                eprintln!(
                    "solistore: {} (returned the function's failure value)",
                    status::panic_error(name, payload.as_ref())
                );
            }
            R::fail_value()
        }
    }
}

fn null_error(param: &str) -> Error {
    Error::invalid_argument(format!("{param} is NULL"))
}

/// Borrows the Rust object behind a handle, turning NULL into `Invalid argument: <param> is NULL`.
///
/// # Safety
/// `ptr` must be NULL or a live handle created by this library, not mutably borrowed
/// elsewhere for `'a`.
pub(crate) unsafe fn borrow<'a, T>(ptr: *const T, param: &'static str) -> Result<&'a T, Error> {
    // SAFETY: guaranteed by the caller, see above.
    unsafe { ptr.as_ref() }.ok_or_else(|| null_error(param))
}

/// Mutably borrows the Rust object behind a handle; NULL becomes InvalidArgument.
///
/// # Safety
/// `ptr` must be NULL or a live handle created by this library, not otherwise borrowed
/// for `'a` (c.h objects other than the DB are not thread-safe, so callers serialise).
pub(crate) unsafe fn borrow_mut<'a, T>(
    ptr: *mut T,
    param: &'static str,
) -> Result<&'a mut T, Error> {
    // SAFETY: guaranteed by the caller, see above.
    unsafe { ptr.as_mut() }.ok_or_else(|| null_error(param))
}

/// Moves `value` to the heap and hands C the owning pointer (`*_create`, `rocksdb_open*`).
pub(crate) fn into_handle<T>(value: T) -> *mut T {
    Box::into_raw(Box::new(value))
}

/// Takes back ownership of a handle (`*_destroy`, `rocksdb_close`). NULL gives `None`, so
/// destroy functions are NULL-tolerant.
///
/// # Safety
/// `ptr` must be NULL or a pointer from [`into_handle`] for the same `T`, not used again.
pub(crate) unsafe fn from_handle<T>(ptr: *mut T) -> Option<Box<T>> {
    if ptr.is_null() {
        None
    } else {
        // SAFETY: non-NULL and from `Box::into_raw` per the contract.
        Some(unsafe { Box::from_raw(ptr) })
    }
}

/// The longest key, value, bound or blob accepted from C (lengths are 32-bit in RocksDB's
/// formats).
pub(crate) const MAX_SLICE_LEN: usize = u32::MAX as usize;

/// Whether `n` entries of `T` can exist in one allocation (their byte size is at most
/// `isize::MAX`); a count beyond that cannot describe a real C array.
pub(crate) fn array_len_ok<T>(n: usize) -> bool {
    n <= isize::MAX.unsigned_abs() / size_of::<T>().max(1)
}

fn too_large(len: usize, limit: usize) -> Error {
    Error::invalid_argument(format!("length {len} is too large (at most {limit} bytes)"))
}

/// Views the `(ptr, len)` byte pair C passes for keys and values. `(NULL, 0)` is the empty
/// slice (wasmtime's rule); NULL with `len > 0` is `Invalid argument`, and so is a length
/// above [`MAX_SLICE_LEN`] (refused before anything is read; see the module doc).
///
/// # Safety
/// If `ptr` is non-NULL it must address `len` readable bytes that stay unchanged for `'a`.
pub(crate) unsafe fn bytes<'a>(ptr: *const c_char, len: usize) -> Result<&'a [u8], Error> {
    if len > MAX_SLICE_LEN {
        return Err(too_large(len, MAX_SLICE_LEN));
    }
    // SAFETY: forwarded contract.
    unsafe { bytes_any(ptr, len) }
}

/// [`bytes`] for buffers that are not keys or values (a WriteBatch rep): only the allocation
/// bound (`isize::MAX` bytes) applies.
///
/// # Safety
/// As [`bytes`].
pub(crate) unsafe fn bytes_any<'a>(ptr: *const c_char, len: usize) -> Result<&'a [u8], Error> {
    if !array_len_ok::<u8>(len) {
        return Err(too_large(len, isize::MAX.unsigned_abs()));
    }
    if ptr.is_null() {
        if len == 0 {
            return Ok(&[]);
        }
        return Err(Error::invalid_argument(format!(
            "NULL data pointer with length {len}"
        )));
    }
    // SAFETY: non-NULL and `len` readable bytes per the contract; `len` is at most
    // isize::MAX (checked above).
    Ok(unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len) })
}

/// Views a caller's output array of `n` entries. `(NULL, 0)` is empty; NULL with `n > 0`
/// is `Invalid argument: <param> is NULL`.
///
/// # Safety
/// A non-NULL `ptr` must address `n` writable entries not otherwise accessed for `'a`.
pub(crate) unsafe fn array_mut<'a, T>(
    ptr: *mut T,
    n: usize,
    param: &'static str,
) -> Result<&'a mut [T], Error> {
    if n == 0 {
        return Ok(&mut []);
    }
    if !array_len_ok::<T>(n) {
        return Err(Error::invalid_argument(format!(
            "{param}: {n} entries is too many"
        )));
    }
    if ptr.is_null() {
        return Err(null_error(param));
    }
    // SAFETY: non-NULL with `n` writable, unaliased entries per the contract; `n` entries
    // span at most isize::MAX bytes (checked above).
    Ok(unsafe { std::slice::from_raw_parts_mut(ptr, n) })
}

/// Views a NUL-terminated C string as raw bytes (paths may be any bytes on Linux).
/// NULL becomes `Invalid argument: <param> is NULL`.
///
/// # Safety
/// `ptr` must be NULL or a NUL-terminated string unchanged for `'a`.
pub(crate) unsafe fn cstr_bytes<'a>(
    ptr: *const c_char,
    param: &'static str,
) -> Result<&'a [u8], Error> {
    if ptr.is_null() {
        return Err(null_error(param));
    }
    // SAFETY: non-NULL and NUL-terminated per the contract.
    Ok(unsafe { CStr::from_ptr(ptr) }.to_bytes())
}

/// Views a NUL-terminated C string as UTF-8 text (names, property names, option strings).
/// NULL or invalid UTF-8 becomes `Invalid argument`.
///
/// # Safety
/// `ptr` must be NULL or a NUL-terminated string unchanged for `'a`.
pub(crate) unsafe fn cstr<'a>(ptr: *const c_char, param: &'static str) -> Result<&'a str, Error> {
    // SAFETY: forwarded contract.
    let raw = unsafe { cstr_bytes(ptr, param)? };
    std::str::from_utf8(raw)
        .map_err(|_| Error::invalid_argument(format!("{param} is not valid UTF-8")))
}

/// Stores `value` in an out-parameter; a NULL `out` is ignored.
///
/// # Safety
/// `out` must be NULL or valid for a write of `T`.
pub(crate) unsafe fn write_out<T>(out: *mut T, value: T) {
    if !out.is_null() {
        // SAFETY: non-NULL and writable per the contract.
        unsafe { out.write(value) };
    }
}

/// Fails every key of a multi-get, which has per-key `errs` instead of an errptr: each
/// `errs[i]` gets a fresh malloc()ed copy of `err`'s text (entries are outputs: whatever was
/// there is not freed, as in RocksDB), each entry of the pointer arrays `ptr_outputs` (values,
/// pinnable slices, timestamps) becomes NULL, and each entry of `len_outputs` becomes 0.
/// NULL arrays are skipped, and so is everything when `num_keys` is more entries than any
/// array can hold (the count is then certainly wrong, and writing would overrun the arrays).
///
/// # Safety
/// `errs` and every array in `ptr_outputs` and `len_outputs` must be NULL or hold
/// `num_keys` writable entries.
pub(crate) unsafe fn fail_each_key(
    err: &Error,
    num_keys: usize,
    errs: *mut *mut c_char,
    ptr_outputs: &[*mut *mut c_void],
    len_outputs: &[*mut usize],
) {
    if !array_len_ok::<*mut c_char>(num_keys) {
        return;
    }
    let text = err.to_string();
    for i in 0..num_keys {
        if !errs.is_null() {
            // SAFETY: `errs` holds `num_keys` writable entries and `i < num_keys`.
            unsafe { write_out(errs.wrapping_add(i), crate::alloc::malloc_cstring(&text)) };
        }
        for &out in ptr_outputs.iter().filter(|p| !p.is_null()) {
            // SAFETY: as above, for each non-NULL pointer array.
            unsafe { write_out(out.wrapping_add(i), ptr::null_mut()) };
        }
        for &out in len_outputs.iter().filter(|p| !p.is_null()) {
            // SAFETY: as above, for each non-NULL length array.
            unsafe { write_out(out.wrapping_add(i), 0) };
        }
    }
}

/// C's `unsigned char` bool (convention 4): any non-zero value is true.
pub(crate) fn c_bool(v: c_uchar) -> bool {
    v != 0
}

/// A Rust bool as C's `unsigned char`: exactly 0 or 1.
pub(crate) fn to_c_bool(v: bool) -> c_uchar {
    c_uchar::from(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    fn take(err: *mut c_char) -> String {
        assert!(!err.is_null());
        // SAFETY: set by `store_error`: NUL-terminated and malloc()ed.
        let s = unsafe { CStr::from_ptr(err) }
            .to_string_lossy()
            .into_owned();
        // SAFETY: malloc()ed.
        unsafe { libc::free(err.cast()) };
        s
    }

    #[test]
    fn guarded_reports_errors_and_returns_fail_value() {
        let mut err = ptr::null_mut();
        let r: *mut u8 = guarded(&mut err, "rocksdb_x", || {
            Err(Error::not_supported("rocksdb_x"))
        });
        assert!(r.is_null());
        assert_eq!(take(err), "Not implemented: rocksdb_x");
    }

    #[test]
    fn guarded_leaves_errptr_alone_on_success() {
        let mut err = ptr::null_mut();
        let r = guarded(&mut err, "rocksdb_x", || Ok(7_u64));
        assert_eq!(r, 7);
        assert!(err.is_null());
    }

    #[test]
    fn guarded_turns_panics_into_aborted() {
        let mut err = ptr::null_mut();
        let r: c_uchar = guarded(&mut err, "rocksdb_x", || panic!("boom"));
        assert_eq!(r, 0);
        assert_eq!(take(err), "Operation aborted: panic in rocksdb_x: boom");
    }

    #[test]
    fn guarded_no_err_returns_fail_value_on_error_and_panic() {
        let r: i32 = guarded_no_err("rocksdb_x", || Err(Error::not_supported("x")));
        assert_eq!(r, 0);
        let r: *const u8 = guarded_no_err("rocksdb_x", || panic!("boom"));
        assert!(r.is_null());
        let r: rocksdb_slice_t = guarded_no_err("rocksdb_x", || panic!("boom"));
        assert!(r.data.is_null() && r.size == 0);
    }

    #[test]
    fn fail_each_key_fills_every_output() {
        let mut errs = [ptr::null_mut::<c_char>(); 2];
        let mut values = [ptr::dangling_mut::<c_char>(); 2];
        let mut sizes = [7_usize; 2];
        // SAFETY: each array has 2 entries.
        unsafe {
            fail_each_key(
                &Error::not_supported("rocksdb_multi_get"),
                2,
                errs.as_mut_ptr(),
                &[values.as_mut_ptr().cast(), ptr::null_mut()],
                &[sizes.as_mut_ptr()],
            )
        };
        assert!(values.iter().all(|v| v.is_null()));
        assert_eq!(sizes, [0, 0]);
        for e in errs {
            assert_eq!(take(e), "Not implemented: rocksdb_multi_get");
        }
    }

    #[test]
    fn bytes_rules() {
        // SAFETY: (NULL, 0) is allowed.
        assert_eq!(unsafe { bytes(ptr::null(), 0) }, Ok(&[][..]));
        // SAFETY: NULL is checked before any read.
        let e = unsafe { bytes(ptr::null(), 3) }.expect_err("NULL with a length is invalid");
        assert!(e.to_string().starts_with("Invalid argument: "));
        let data = b"abc";
        // SAFETY: `data` has 3 bytes.
        assert_eq!(unsafe { bytes(data.as_ptr().cast(), 3) }, Ok(&b"abc"[..]));
    }

    #[test]
    fn cstr_and_borrow_reject_null() {
        // SAFETY: NULL is checked.
        let e = unsafe { cstr(ptr::null(), "name") }.expect_err("NULL is invalid");
        assert_eq!(e.to_string(), "Invalid argument: name is NULL");
        // SAFETY: NUL-terminated literal.
        assert_eq!(unsafe { cstr(c"db".as_ptr(), "name") }, Ok("db"));
        // SAFETY: NULL is checked.
        let e = unsafe { borrow::<u32>(ptr::null(), "db") }.expect_err("NULL is invalid");
        assert_eq!(e.to_string(), "Invalid argument: db is NULL");
    }

    #[test]
    fn handles_and_out_params() {
        let h = into_handle(5_u32);
        // SAFETY: `h` is a live handle with no other borrow.
        if let Ok(v) = unsafe { borrow_mut(h, "h") } {
            *v = 5;
        }
        // SAFETY: `h` is a live handle.
        assert_eq!(unsafe { borrow(h, "h") }.copied(), Ok(5));
        // SAFETY: `h` came from into_handle and is not used again.
        assert_eq!(unsafe { from_handle(h) }.map(|b| *b), Some(5));
        // SAFETY: NULL is allowed.
        assert!(unsafe { from_handle::<u32>(ptr::null_mut()) }.is_none());
        let mut out = 1_usize;
        // SAFETY: `out` is writable; NULL is allowed.
        unsafe {
            write_out(&mut out, 9);
        }
        // SAFETY: NULL is allowed.
        unsafe { write_out(ptr::null_mut::<usize>(), 9) };
        assert_eq!(out, 9);
        assert!(c_bool(2) && !c_bool(0));
        assert_eq!(to_c_bool(true), 1);
    }
}
