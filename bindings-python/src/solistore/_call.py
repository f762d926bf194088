# SPDX-License-Identifier: Apache-2.0
"""Helpers every module uses around a C call: per-thread out-parameters, turning an errptr into
the mapped exception, argument conversion, and waiting for calls in flight on a handle.
"""

from __future__ import annotations

import os
import threading
import time
from ctypes import byref, c_size_t, c_void_p, string_at

from .errors import error_from_message

_tls = threading.local()

# Lengths up to this bound go through the untyped fast-path functions (ctypes passes an untyped
# Python int as a C int; see _lib.Library.fast). Longer buffers use the typed prototypes.
FAST_LEN = (1 << 31) - 1


# Hot paths read the scratch tuple inline: ``try: s = TLS.s`` / ``except AttributeError: s = scratch()``.
TLS = _tls


def scratch():
    """This thread's ``(err, byref(err), n, byref(n))`` out-parameters (errptr and a length)."""
    try:
        return _tls.s
    except AttributeError:
        err = c_void_p()
        n = c_size_t()
        s = _tls.s = (err, byref(err), n, byref(n))
        return s


def raise_error(lib, err: c_void_p):
    """Copy the message ``err`` points at, free it with the library's ``rocksdb_free``, reset
    ``err`` and raise the exception its status prefix names."""
    p = err.value
    err.value = None
    msg = string_at(p).decode("utf-8", "replace")
    lib.rocksdb_free(p)
    raise error_from_message(msg)


def key_bytes(k) -> bytes:
    """Keys and values: ``bytes`` as is, other buffers copied; ``str`` and the rest TypeError."""
    if type(k) is bytes:
        return k
    if isinstance(k, str):
        raise TypeError("keys and values must be bytes, not str; encode str explicitly")
    if isinstance(k, (bytes, bytearray, memoryview)):
        return bytes(k)
    raise TypeError(f"keys and values must be bytes, not {type(k).__name__}")


def path_bytes(p) -> bytes:
    return os.fsencode(p)


def successor(prefix: bytes) -> bytes | None:
    """The smallest key greater than every key starting with ``prefix`` (None: no such key)."""
    p = prefix.rstrip(b"\xff")
    if not p:
        return None
    return p[:-1] + bytes([p[-1] + 1])


def handle(value) -> c_void_p | None:
    """A pointer returned by a C function (an int or None) as a ``c_void_p`` object, or None."""
    return c_void_p(value) if value else None


def wait_idle(busy: list) -> None:
    """Wait until no call is in flight on a handle.

    Every call on a handle that closing would free appends to the handle's ``busy`` list before it
    reads the handle and pops in a ``finally`` after the C call (``list.append``/``pop`` are atomic
    under the GIL). Closing first clears the handle, so later calls raise DbClosedError, then waits here
    for the list to empty before freeing what the calls use.
    """
    delay = 0.0001
    while busy:
        time.sleep(delay)
        delay = min(delay * 2, 0.01)
