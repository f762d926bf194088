# SPDX-License-Identifier: Apache-2.0
"""Iterator (a Python iterator over a key range) and RawIterator (the C cursor), read path.

Both wrap one ``rocksdb_iterator_t``. Its native calls run under the iterator's own lock, so two threads
using one iterator cannot corrupt it and closing (by ``close()``, by the DB's close, by garbage collection)
waits for a call in flight. The DB registers every live iterator and destroys them before it closes.

Iterator copies entries in batches: through ``solistore_iter_next_batch`` when the library exports it
(one C call per batch, entries sliced out of one buffer), else through ``rocksdb_iter_valid/key/value/next``
(four calls per entry). Start, stop and prefix become the C iterate bounds (the lower bound inclusive,
the upper exclusive; ``include_start=False`` and ``include_stop=True`` move a bound to the key's
successor ``key + b"\\0"``), so the library never returns an entry outside the range.
"""

from __future__ import annotations

import threading
import weakref
from ctypes import byref, c_size_t, c_uint64, c_void_p, create_string_buffer, string_at

from ._call import key_bytes, raise_error, scratch, successor
from .errors import DbClosedError, Error, InvalidArgument
from .options import ReadOptions

__all__ = ["Iterator", "RawIterator"]

_KEYS, _VALUES, _REVERSE = 1, 2, 4     # solistore_iter_next_batch flags
_FIRST_BATCH, _MAX_BATCH = 16, 2048    # entries per batch: small first (next(it) once), then larger
_BUF = 64 << 10                        # initial batch buffer; grows for large entries


def _destroy_iter(state, key, it, lock):
    """Finalizer: destroy the native iterator (once), under its lock. Lock order: the DB state's
    lock is never taken while holding an iterator's (DB.close holds the state's and takes each
    iterator's)."""
    with state.lock:
        state.iters.pop(key, None)
    with lock:
        if it.value:
            state.lib.rocksdb_iter_destroy(it)
            it.value = None


class _Reader:
    """Copies entries out of a native iterator, many per lock hold: through one
    ``solistore_iter_next_batch`` call when the library has it, else through the cursor calls. Keeps the
    batch buffer between calls."""

    def __init__(self, lib, mode, reverse):
        self.lib = lib
        self.mode = mode
        self.nparts = 2 if mode == (_KEYS | _VALUES) else 1
        self.flags = mode | (_REVERSE if reverse else 0)
        self.reverse = reverse
        self.batch = lib.has("solistore_iter_next_batch")
        self.cap = 0
        self.buf = self.ends = None
        if not self.batch:
            self.kl, self.vl = c_size_t(), c_size_t()
            self.bkl, self.bvl = byref(self.kl), byref(self.vl)

    def read(self, it, want):
        """``(entries, at_end)``: up to ``want`` entries from ``it``'s position on (moving it past them):
        keys, values or ``(key, value)`` pairs by mode, and whether the range has no more. The caller
        holds the iterator's lock."""
        if not self.batch:
            return self._cursor(it, want)
        out = self._batch(it, want)
        return out, len(out) < want and not self.lib.fast.iter_valid(it)

    def _batch(self, it, want):
        lib = self.lib
        if self.buf is None:
            self.cap = _BUF
            self.buf = create_string_buffer(self.cap)
            self.ends = (c_uint64 * (_MAX_BATCH * self.nparts))()
            self.used = c_size_t()
            self.bused = byref(self.used)
        want = min(want, _MAX_BATCH)
        err, berr, _, _ = scratch()
        while True:
            n = lib.solistore_iter_next_batch(it, self.flags, want, self.buf, self.cap, self.ends, self.bused,
                                              berr)
            if err.value:
                raise_error(lib, err)
            if n or self.used.value <= self.cap:
                break
            self.cap = max(self.used.value, 2 * self.cap)  # the next entry needs a larger buffer
            self.buf = create_string_buffer(self.cap)
        if not n:
            return []
        data = string_at(self.buf, self.used.value)
        e = self.ends[:n * self.nparts]
        parts = list(map(data.__getitem__, map(slice, [0] + e, e)))
        if self.nparts == 1:
            return parts
        pairs = iter(parts)
        return list(zip(pairs, pairs))

    def _cursor(self, it, want):
        f = self.lib.fast
        valid, key, value = f.iter_valid, f.iter_key, f.iter_value
        step = f.iter_prev if self.reverse else f.iter_next
        kl, vl, bkl, bvl = self.kl, self.vl, self.bkl, self.bvl
        mode = self.mode
        out = []
        append = out.append
        for _ in range(want):
            if not valid(it):
                return out, True
            if mode == 3:
                k = key(it, bkl)[:kl.value]
                append((k, value(it, bvl)[:vl.value]))
            elif mode == 1:
                append(key(it, bkl)[:kl.value])
            else:
                append(value(it, bvl)[:vl.value])
            step(it)
        return out, False


class _CIter:
    """Plumbing shared by Iterator and RawIterator: the native iterator and its read options."""

    _it = None

    def _open(self, db, cf, ro: ReadOptions):
        lib = self._lib = db._lib
        self._db = db
        snap = ro._values.get("snapshot")
        if snap is None:
            holder = ro._build(lib)
            it = c_void_p(db._run(lib.rocksdb_create_iterator_cf, holder.h, cf))
        else:
            # Creating the iterator reads the snapshot: a call in flight on it too.
            snap._busy.append(None)
            try:
                sh = snap._checked_handle(lib, db)
                holder = ro._build(lib, sh)
                it = c_void_p(db._run(lib.rocksdb_create_iterator_cf, holder.h, cf))
            finally:
                snap._busy.pop()
            # The iterator copied the snapshot's sequence number: the snapshot may go meanwhile.
            holder.keep = [k for k in holder.keep if k is not sh]
        if not it.value:
            raise Error("rocksdb_create_iterator_cf returned NULL")
        # The iterator keeps its read options: the bounds point into them and into their bytes.
        self._ro = holder
        self._lock = lock = threading.Lock()
        st = db._state
        key = id(self)
        self._it = it
        self._fin = weakref.finalize(self, _destroy_iter, st, key, it, lock)
        with st.lock:
            st.iters[key] = self._fin

    def _closed_error(self):
        return DbClosedError("iterator already closed" if self._db._h is not None else
                             "DB instance already closed")

    def _check_error(self, it):
        err, berr, _, _ = scratch()
        self._lib.rocksdb_iter_get_error(it, berr)
        if err.value:
            raise_error(self._lib, err)

    def close(self):
        """Destroy the native iterator (idempotent)."""
        fin = getattr(self, "_fin", None)
        if fin is not None:
            fin()

    @property
    def closed(self) -> bool:
        it = self._it
        return it is None or not it.value

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def range_bounds(start, stop, prefix, include_start=True, include_stop=False):
    """The C iterate bounds ``(lower, upper)`` (inclusive, exclusive; None: open) of a range given by
    ``start``/``stop`` and their include flags, or by ``prefix``."""
    if prefix is not None:
        if start is not None or stop is not None:
            raise TypeError("'prefix' cannot be used together with 'start' or 'stop'")
        lower = key_bytes(prefix)
        return lower, successor(lower)
    lower = upper = None
    if start is not None:
        start = key_bytes(start)
        lower = start if include_start else start + b"\x00"
    if stop is not None:
        stop = key_bytes(stop)
        upper = stop + b"\x00" if include_stop else stop
    return lower, upper


def _bounded(lower, upper, ro_lower, ro_upper):
    """Intersect the range's bounds with bounds already in the read options."""
    if ro_lower is not None and (lower is None or ro_lower > lower):
        lower = ro_lower
    if ro_upper is not None and (upper is None or ro_upper < upper):
        upper = ro_upper
    return lower, upper


class Iterator(_CIter):
    """Python iterator over a key range of a DB, column family or snapshot.

    Yields ``(key, value)``, ``key`` (``include_value=False``) or ``value`` (``include_key=False``), in
    key order or reversed. Closes itself when exhausted; ``next()`` after the DB closed raises
    DbClosedError. Use ``db.iterator(...)``, not this constructor.
    """

    def __init__(self, db, cf, *, start=None, stop=None, prefix=None, include_start=True, include_stop=False,
                 reverse=False, include_key=True, include_value=True, snapshot=None, fill_cache=None,
                 verify_checksums=None, read_options: ReadOptions | None = None):
        if not include_key and not include_value:
            raise TypeError("include_key and include_value cannot both be False")
        lower, upper = range_bounds(start, stop, prefix, include_start, include_stop)
        ro = (read_options if read_options is not None else db._ropts).copy()
        lower, upper = _bounded(lower, upper, ro._values.get("iterate_lower_bound"),
                                ro._values.get("iterate_upper_bound"))
        self._empty = lower is not None and upper is not None and lower >= upper
        ro.iterate_lower_bound = lower
        ro.iterate_upper_bound = upper
        if snapshot is not None:
            ro.snapshot = snapshot
        if fill_cache is not None:
            ro.fill_cache = fill_cache
        if verify_checksums is not None:
            ro.verify_checksums = verify_checksums
        self._exhausted = False
        self._open(db, cf, ro)
        self._reverse = bool(reverse)
        self._mode = (_KEYS if include_key else 0) | (_VALUES if include_value else 0)
        self._gen = self._run()

    def _run(self):
        lock = self._lock
        with lock:
            it = self._it
            if it is None or not it.value:
                raise self._closed_error()
            if not self._empty:
                if self._reverse:
                    self._lib.rocksdb_iter_seek_to_last(it)
                else:
                    self._lib.rocksdb_iter_seek_to_first(it)
        reader = _Reader(self._lib, self._mode, self._reverse)
        want = _FIRST_BATCH
        while not self._empty:
            with lock:  # never held across a yield: the consumer may close the iterator meanwhile
                if not it.value:
                    raise self._closed_error()
                out, at_end = reader.read(it, want)
                if at_end:
                    self._check_error(it)
                    self._empty = True
            yield from out
            want = min(want * 4, _MAX_BATCH)
        self._exhausted = True
        self.close()

    def __iter__(self):
        return self._gen

    def __next__(self):
        if not self._exhausted and self.closed:
            raise self._closed_error()
        return next(self._gen)


class RawIterator(_CIter):
    """The C cursor: ``valid``, ``seek_to_first``, ``seek_to_last``, ``seek``, ``seek_for_prev``, ``next``,
    ``prev``, ``key``, ``value``, ``item``, ``status``. ``next``/``prev``/``key``/``value`` on an
    unpositioned cursor raise InvalidArgument (RocksDB would abort). Use ``db.raw_iterator(...)``."""

    def __init__(self, db, cf, ro: ReadOptions):
        self._open(db, cf, ro)
        self._readers: dict = {}
        # Whether the cursor is on an entry, as of its last move: moves happen only here, under the
        # lock, so key()/value() need no C call to check it. Invalid until the first seek.
        self._valid = False
        self._kl = c_size_t()
        self._vl = c_size_t()
        self._bkl = byref(self._kl)
        self._bvl = byref(self._vl)

    def _move(self, fn, *args):
        with self._lock:
            it = self._it
            if not it.value:
                raise self._closed_error()
            fn(it, *args)
            self._valid = bool(self._lib.fast.iter_valid(it))

    def valid(self) -> bool:
        if self._it is None or not self._it.value:
            raise self._closed_error()
        return self._valid

    def seek_to_first(self):
        self._move(self._lib.rocksdb_iter_seek_to_first)

    def seek_to_last(self):
        self._move(self._lib.rocksdb_iter_seek_to_last)

    def seek(self, key):
        key = key_bytes(key)
        self._move(self._lib.rocksdb_iter_seek, key, len(key))

    def seek_for_prev(self, key):
        key = key_bytes(key)
        self._move(self._lib.rocksdb_iter_seek_for_prev, key, len(key))

    def _step(self, fn):
        with self._lock:
            it = self._it
            if not it.value:
                raise self._closed_error()
            if not self._valid:
                raise InvalidArgument("Invalid argument: iterator is not positioned on an entry")
            fn(it)
            self._valid = bool(self._lib.fast.iter_valid(it))

    def next(self):
        self._step(self._lib.fast.iter_next)

    def prev(self):
        self._step(self._lib.fast.iter_prev)

    def key(self) -> bytes:
        with self._lock:
            it = self._it
            if not it.value:
                raise self._closed_error()
            if not self._valid:
                raise InvalidArgument("Invalid argument: iterator is not positioned on an entry")
            return self._lib.fast.iter_key(it, self._bkl)[:self._kl.value]

    def value(self) -> bytes:
        with self._lock:
            it = self._it
            if not it.value:
                raise self._closed_error()
            if not self._valid:
                raise InvalidArgument("Invalid argument: iterator is not positioned on an entry")
            return self._lib.fast.iter_value(it, self._bvl)[:self._vl.value]

    def item(self) -> tuple:
        with self._lock:
            it = self._it
            if not it.value:
                raise self._closed_error()
            if not self._valid:
                raise InvalidArgument("Invalid argument: iterator is not positioned on an entry")
            f = self._lib.fast
            k = f.iter_key(it, self._bkl)[:self._kl.value]
            return k, f.iter_value(it, self._bvl)[:self._vl.value]

    def next_batch(self, n: int, *, reverse=False, keys=True, values=True) -> list:
        """Up to ``n`` entries from the current one on, moving forwards (``reverse``: backwards) past
        them: ``(key, value)`` pairs, or keys or values alone. Fewer only at the end of the range; the
        cursor is left on the first entry not returned. One C call per up to 2048 entries where the
        library has ``solistore_iter_next_batch``."""
        mode = (_KEYS if keys else 0) | (_VALUES if values else 0)
        if not mode:
            raise TypeError("keys and values cannot both be False")
        r = self._readers.get((mode, reverse))
        if r is None:
            r = self._readers[(mode, reverse)] = _Reader(self._lib, mode, reverse)
        out = []
        with self._lock:
            it = self._it
            if not it.value:
                raise self._closed_error()
            while len(out) < n:
                got, at_end = r.read(it, n - len(out))
                out += got
                if at_end:
                    break
            self._valid = bool(self._lib.fast.iter_valid(it))
        return out

    def status(self):
        """Raise the iterator's error, if any (the mapped exception)."""
        with self._lock:
            it = self._it
            if not it.value:
                raise self._closed_error()
            self._check_error(it)
