# SPDX-License-Identifier: Apache-2.0
"""DB and ColumnFamily over the RocksDB C API, and the module functions destroy_db, repair_db and
list_column_families.

Lifetimes. A DB owns a ``_DbState``: the native handle, the column family handles, the option objects it
was opened with, and the finalizers of its live iterators and snapshots. ``DB.close()`` (or garbage
collection of the DB, or interpreter exit) marks the DB closed, so new calls raise DbClosedError; waits
for calls in flight on other threads to return (``_call.wait_idle``: every call that uses the handle is
registered in the DB's ``busy`` list meanwhile); destroys the iterators (each under its own lock), releases the snapshots, destroys the
column family handles, and only then calls ``rocksdb_close``, which releases the LOCK file. No NULL or
freed handle ever reaches the library, so no sequence of calls can crash the interpreter.

Threads. A DB and its column families are thread-safe (C calls release the GIL, so long calls run in
parallel). An iterator serialises its own calls; a WriteBatch is plain Python data for one thread at a
time. Out-parameters (errptr, lengths) are per thread.

Speed. get/put/delete go through untyped C function objects (``Library.fast``), about half the cost of a
typed ctypes call; ``multi_get`` is one C call for any number of keys; a WriteBatch is one C call to write
however many updates it holds; iteration copies entries in batches (see ``iterator``).
"""

from __future__ import annotations

import os
import sys
import threading
import weakref
from array import array
from itertools import accumulate
from ctypes import POINTER, byref, c_char, c_char_p, c_int, c_size_t, c_ubyte, c_uint64, c_void_p, cast, string_at

from ._call import FAST_LEN, TLS, handle, key_bytes, path_bytes, raise_error, scratch, wait_idle
from ._lib import Library, as_library
from .batch import WriteBatch
from .errors import DbClosedError, Error, InvalidArgument, error_from_message
from .iterator import Iterator, RawIterator
from .options import Options, ReadOptions, WriteOptions
from .snapshot import Snapshot

__all__ = ["DB", "ColumnFamily", "destroy_db", "repair_db", "list_column_families"]

_PC = POINTER(c_char)


class _DbState:
    """Native handles of one open DB, shared with the finalizers of the DB and its children. Every
    field is guarded by ``lock`` (an RLock, re-entered by the children's finalizers during close)."""

    def __init__(self, lib: Library):
        self.lib = lib
        self.h = None                 # rocksdb_t* (a c_void_p), None once closed
        self.busy: list = []          # one entry per call in flight on h (see _call.wait_idle)
        self.closing = False
        self.cf_handles: list = []    # rocksdb_column_family_handle_t* still to destroy
        self.keep: list = []          # option holders the DB was opened with
        self.iters: dict = {}         # id -> weakref.finalize of live iterators
        self.snaps: dict = {}         # id -> weakref.finalize of live snapshots
        self.lock = threading.RLock()

    def close(self):
        with self.lock:
            h = self.h
            if h is None or self.closing:
                return
            self.closing = True
        # DB._h is cleared (or the DB collected), so no new call starts; wait for those in flight.
        wait_idle(self.busy)
        with self.lock:
            for fin in list(self.iters.values()):
                fin()
            self.iters.clear()
            for fin in list(self.snaps.values()):
                fin()
            self.snaps.clear()
            lib = self.lib
            for cf in self.cf_handles:
                lib.rocksdb_column_family_handle_destroy(cf)
            self.cf_handles.clear()
            self.h = None
            lib.rocksdb_close(h)
            for k in self.keep:
                k.close()
            self.keep.clear()


def _error_text(lib, p) -> str:
    msg = string_at(p).decode("utf-8", "replace")
    lib.rocksdb_free(p)
    return msg


# --------------------------------------------------------------------------------------------------
# Operations shared by DB and ColumnFamily


class _Ops:
    """Key-value methods shared by DB and ColumnFamily. Subclasses provide ``_ctx() -> (db, cf handle)``;
    every C call on the DB handle runs through ``DB._run`` (or inlines its busy/closed protocol)."""

    def get(self, key, default=None, *, snapshot=None, fill_cache=None, verify_checksums=None,
            read_options=None):
        """The value of ``key``, or ``default`` when it has none. ``read_options`` (a ReadOptions)
        replaces the DB's for this call; the keyword arguments override it."""
        if type(key) is not bytes:
            key = key_bytes(key)
        db, cf = self._ctx()
        lib = db._lib
        err, berr, n, bn = scratch()
        kl = len(key)
        if kl < FAST_LEN:
            fn = lib.fast.get_cf
        else:
            def fn(*a):
                return cast(lib.rocksdb_get_cf(*a), _PC)
        p = db._with_read_options(snapshot, fill_cache, verify_checksums,
                                  lambda h, ro: fn(h, ro, cf, key, kl, bn, berr), read_options)
        if err.value:
            raise_error(lib, err)
        if not p:
            return default
        v = p[:n.value]
        lib.fast.free(p)
        return v

    def __getitem__(self, key):
        v = self.get(key)
        if v is None:
            raise KeyError(key)
        return v

    def __contains__(self, key):
        return self.get(key) is not None

    def put(self, key, value, *, sync=None, disable_wal=None):
        key, value = key_bytes(key), key_bytes(value)
        # rocksdb_put_cf's 7th argument (vallen) is passed on the stack: never an untyped int (see _lib).
        self._errptr_call(self._ctx()[0]._lib.rocksdb_put_cf, key, len(key), value, len(value), sync=sync,
                          disable_wal=disable_wal)

    def __setitem__(self, key, value):
        self.put(key, value)

    def delete(self, key, *, sync=None, disable_wal=None):
        key = key_bytes(key)
        self._errptr_call(self._ctx()[0]._lib.rocksdb_delete_cf, key, len(key), sync=sync,
                          disable_wal=disable_wal)

    def __delitem__(self, key):
        self.delete(key)

    def _errptr_call(self, fn, *args, sync=None, disable_wal=None):
        """``fn(db, wo, cf, *args, errptr)`` for a write call; raises its error."""
        db, cf = self._ctx()
        wo = db._wo_holder(sync, disable_wal)
        err, berr, _, _ = scratch()
        db._run(fn, wo.h, cf, *args, berr)
        if err.value:
            raise_error(db._lib, err)

    def single_delete(self, key, *, sync=None, disable_wal=None):
        """RocksDB's SingleDelete: for keys written once since their last deletion."""
        key = key_bytes(key)
        self._errptr_call(self._ctx()[0]._lib.rocksdb_singledelete_cf, key, len(key), sync=sync,
                          disable_wal=disable_wal)

    def delete_range(self, begin, end, *, sync=None, disable_wal=None):
        """Delete every key in [begin, end)."""
        begin, end = key_bytes(begin), key_bytes(end)
        self._errptr_call(self._ctx()[0]._lib.rocksdb_delete_range_cf, begin, len(begin), end, len(end),
                          sync=sync, disable_wal=disable_wal)

    def merge(self, key, value, *, sync=None, disable_wal=None):
        key, value = key_bytes(key), key_bytes(value)
        self._errptr_call(self._ctx()[0]._lib.rocksdb_merge_cf, key, len(key), value, len(value), sync=sync,
                          disable_wal=disable_wal)

    def put_many(self, items, *, sync=None, disable_wal=None):
        """Write every ``(key, value)`` of ``items`` atomically, in one write batch (one C call)."""
        wb = WriteBatch(column_family=self if isinstance(self, ColumnFamily) else None)
        wb.put_many(items)
        self._ctx()[0].write(wb, sync=sync, disable_wal=disable_wal)

    def multi_get(self, keys, *, snapshot=None, fill_cache=None, verify_checksums=None,
                  read_options=None) -> list:
        """Values (or None) for ``keys``, in order, read in one C call (``read_options`` as in get)."""
        keys = [k if type(k) is bytes else key_bytes(k) for k in keys]
        db, cf = self._ctx()
        n = len(keys)
        if n == 0:
            db._run(lambda h: None)  # still a closed-DB check
            return []
        lib = db._lib
        # The argument arrays, built without a ctypes conversion per key: the keys joined in one
        # buffer (kept alive by `blob` until the call returns) and their addresses computed from it.
        blob = b"".join(keys)
        lens = array("Q", map(len, keys))
        base = cast(c_char_p(blob), c_void_p).value or 0
        ptrs = array("Q", map(base.__add__, accumulate(lens, initial=0)))
        karr = (c_void_p * n).from_buffer(ptrs)
        klen = (c_size_t * n).from_buffer(lens)
        cfs = (c_void_p * n).from_buffer_copy(cf.value.to_bytes(8, sys.byteorder) * n)
        vals = (_PC * n)()
        vlen = (c_size_t * n)()
        errs = (c_void_p * n)()
        db._with_read_options(snapshot, fill_cache, verify_checksums, lambda h, ro: lib.rocksdb_multi_get_cf(
            h, ro, cfs, n, karr, klen, vals, vlen, errs), read_options)
        del blob, karr, klen, ptrs
        free = lib.fast.free
        lens = vlen[:]
        out = []
        append = out.append
        for i, p in enumerate(vals):
            if p:
                append(p[:lens[i]])
                free(p)
            else:
                append(None)
        if any(errs):
            msgs = [_error_text(lib, e) for e in errs if e]
            raise error_from_message(msgs[0])
        return out

    def key_may_exist(self, key, *, fetch=False, snapshot=None, read_options=None):
        """False when ``key`` surely has no value (cheap: memtables, bloom filters). With
        ``fetch=True``, ``(may_exist, value or None)``, the value when it was found on the way."""
        key = key_bytes(key)
        db, cf = self._ctx()
        lib = db._lib
        vp = c_void_p()
        vl = c_size_t()
        found = c_ubyte()
        may = db._with_read_options(snapshot, None, None, lambda h, ro: lib.rocksdb_key_may_exist_cf(
            h, ro, cf, key, len(key), byref(vp) if fetch else None, byref(vl), None, 0,
            byref(found) if fetch else None), read_options)
        if not fetch:
            return bool(may)
        value = None
        if vp.value:
            value = string_at(vp.value, vl.value) if found.value else None
            lib.rocksdb_free(vp)
        return bool(may), value

    def iterator(self, *, start=None, stop=None, prefix=None, include_start=True, include_stop=False,
                 reverse=False, include_key=True, include_value=True, snapshot=None, fill_cache=None,
                 verify_checksums=None, read_options=None) -> Iterator:
        """A Python iterator over [start, stop) (or the keys starting with ``prefix``); see Iterator."""
        db, cf = self._ctx()
        return Iterator(db, cf, start=start, stop=stop, prefix=prefix, include_start=include_start,
                        include_stop=include_stop, reverse=reverse, include_key=include_key,
                        include_value=include_value, snapshot=snapshot, fill_cache=fill_cache,
                        verify_checksums=verify_checksums, read_options=read_options)

    def __iter__(self):
        return iter(self.iterator())

    def keys(self, **kw):
        return self.iterator(include_value=False, **kw)

    def values(self, **kw):
        return self.iterator(include_key=False, **kw)

    def items(self, **kw):
        return self.iterator(**kw)

    def raw_iterator(self, *, lower_bound=None, upper_bound=None, snapshot=None, fill_cache=None,
                     verify_checksums=None, total_order_seek=None, prefix_same_as_start=None,
                     read_options=None) -> RawIterator:
        db, cf = self._ctx()
        ro = (read_options if read_options is not None else db._ropts).copy()
        for name, v in (("iterate_lower_bound", lower_bound), ("iterate_upper_bound", upper_bound),
                        ("fill_cache", fill_cache), ("verify_checksums", verify_checksums),
                        ("total_order_seek", total_order_seek), ("prefix_same_as_start", prefix_same_as_start),
                        ("snapshot", snapshot)):
            if v is not None:
                setattr(ro, name, v)
        return RawIterator(db, cf, ro)

    def get_property(self, name: str) -> str | None:
        """A property's text (``"rocksdb.estimate-num-keys"``...), or None when unknown."""
        db, cf = self._ctx()
        lib = db._lib
        p = db._run(lib.rocksdb_property_value_cf, cf, name.encode())
        if not p:
            return None
        return _error_text(lib, p)

    def get_property_int(self, name: str) -> int | None:
        """A numeric property, or None when unknown or not numeric."""
        db, cf = self._ctx()
        out = c_uint64()
        rc = db._run(db._lib.rocksdb_property_int_cf, cf, name.encode(), byref(out))
        return out.value if rc == 0 else None

    def flush(self, wait: bool = True):
        """Write the memtable to a table file."""
        db, cf = self._ctx()
        lib = db._lib
        fo = lib.rocksdb_flushoptions_create()
        try:
            lib.rocksdb_flushoptions_set_wait(fo, int(bool(wait)))
            err, berr, _, _ = scratch()
            db._run(lib.rocksdb_flush_cf, fo, cf, berr)
            if err.value:
                raise_error(lib, err)
        finally:
            lib.rocksdb_flushoptions_destroy(fo)

    def compact_range(self, begin=None, end=None):
        """Compact the keys in [begin, end] (None: open-ended). The C API reports no errors here."""
        db, cf = self._ctx()
        b = None if begin is None else key_bytes(begin)
        e = None if end is None else key_bytes(end)
        db._run(db._lib.rocksdb_compact_range_cf, cf, b, 0 if b is None else len(b), e, 0 if e is None else len(e))

    def approximate_sizes(self, *ranges) -> list:
        """Approximate on-disk bytes of each ``(start, limit)`` range."""
        rs = [(key_bytes(a), key_bytes(b)) for a, b in ranges]
        db, cf = self._ctx()
        n = len(rs)
        if n == 0:
            return []
        lib = db._lib
        starts = (c_char_p * n)(*[a for a, _ in rs])
        slen = (c_size_t * n)(*[len(a) for a, _ in rs])
        limits = (c_char_p * n)(*[b for _, b in rs])
        llen = (c_size_t * n)(*[len(b) for _, b in rs])
        sizes = (c_uint64 * n)()
        err, berr, _, _ = scratch()
        db._run(lib.rocksdb_approximate_sizes_cf, cf, n, starts, slen, limits, llen, sizes, berr)
        if err.value:
            raise_error(lib, err)
        return list(sizes)

    def approximate_size(self, start, stop) -> int:
        return self.approximate_sizes((start, stop))[0]

    def set_options(self, options: dict):
        """Change mutable options of the open DB: ``{"write_buffer_size": "1048576"}``."""
        db, cf = self._ctx()
        items = [(str(k).encode(), str(v).encode()) for k, v in options.items()]
        n = len(items)
        keys = (c_char_p * n)(*[k for k, _ in items])
        vals = (c_char_p * n)(*[v for _, v in items])
        err, berr, _, _ = scratch()
        db._run(db._lib.rocksdb_set_options_cf, cf, n, keys, vals, berr)
        if err.value:
            raise_error(db._lib, err)


# --------------------------------------------------------------------------------------------------


class DB(_Ops):
    """An open database.

    ``DB(path, options=None, *, create_if_missing=None, error_if_exists=None, column_families=None,
    read_only=False, secondary_path=None, error_if_wal_file_exists=False, ttl=None, read_options=None,
    write_options=None, lib=None, **options)``. ``column_families`` is None (open every column family the
    DB has), or a list of names / a dict name -> Options (the default family is always opened). Extra
    keyword arguments are ``Options`` fields (``write_buffer_size=...``). ``read_only=True`` opens
    read-only; ``secondary_path=`` opens as a secondary instance following the DB at ``path``;
    ``ttl=`` (seconds) opens with RocksDB's TTL compaction filter on every column family.
    ``lib`` is a :class:`Library`, a path or a soname; default: see ``solistore.get_default_library``.
    """

    def __init__(self, path, options: Options | None = None, *, create_if_missing=None, error_if_exists=None,
                 column_families=None, read_only=False, secondary_path=None, error_if_wal_file_exists=False,
                 ttl=None, read_options: ReadOptions | None = None, write_options: WriteOptions | None = None,
                 lib=None, **option_kwargs):
        self._h = None
        self._lib = lib = as_library(lib)
        self._state = st = _DbState(lib)
        self._fin = weakref.finalize(self, _DbState.close, st)
        self.name = os.fsdecode(os.fspath(path))
        self.read_only = bool(read_only)
        if create_if_missing is not None:
            option_kwargs["create_if_missing"] = create_if_missing
        if error_if_exists is not None:
            option_kwargs["error_if_exists"] = error_if_exists
        if options is not None and not isinstance(options, Options):
            raise TypeError("options must be a solistore.Options")
        opts = options.copy(**option_kwargs) if options is not None else Options(**option_kwargs)
        self.options = opts
        self._ropts = read_options if read_options is not None else ReadOptions()
        self._wopts = write_options if write_options is not None else WriteOptions()
        self._wo_cache: dict = {}
        cf_items = self._column_families(path, opts, column_families, lib)
        self._open(path, opts, cf_items, read_only, secondary_path, error_if_wal_file_exists, ttl)

    @staticmethod
    def _column_families(path, opts, column_families, lib):
        if column_families is None:
            try:
                names = list_column_families(path, opts, lib=lib)
            except Error:
                names = ["default"]
            cfs = {n: None for n in names}
        elif isinstance(column_families, dict):
            cfs = dict(column_families)
        else:
            cfs = {n: None for n in column_families}
        default = cfs.pop("default", None)
        return [("default", default)] + list(cfs.items())

    def _open(self, path, opts, cf_items, read_only, secondary_path, error_if_wal_file_exists, ttl):
        lib, st = self._lib, self._state
        n = len(cf_items)
        dbopt = opts._handle(lib)
        holders = [(o if o is not None else opts)._handle(lib) for _, o in cf_items]
        names = (c_char_p * n)(*[nm.encode() for nm, _ in cf_items])
        opt_arr = (c_void_p * n)(*[hd.h.value for hd in holders])
        handles = (c_void_p * n)()
        err, berr, _, _ = scratch()
        bpath = path_bytes(path)
        if ttl is not None:
            ttls = (c_int * n)(*([int(ttl)] * n))
            raw = lib.rocksdb_open_column_families_with_ttl(dbopt.h, bpath, n, names, opt_arr, handles, ttls, berr)
        elif secondary_path is not None:
            raw = lib.rocksdb_open_as_secondary_column_families(dbopt.h, bpath, path_bytes(secondary_path), n,
                                                                names, opt_arr, handles, berr)
        elif read_only:
            raw = lib.rocksdb_open_for_read_only_column_families(dbopt.h, bpath, n, names, opt_arr, handles,
                                                                 int(bool(error_if_wal_file_exists)), berr)
        else:
            raw = lib.rocksdb_open_column_families(dbopt.h, bpath, n, names, opt_arr, handles, berr)
        if err.value:
            raise_error(lib, err)
        h = handle(raw)
        if h is None:
            raise Error(f"opening {self.name!r} returned no handle and no error")
        st.keep.extend([dbopt] + holders)
        self._cfs: dict = {}
        for i, (nm, o) in enumerate(cf_items):
            cfh = handle(handles[i])
            st.cf_handles.append(cfh)
            self._cfs[nm] = ColumnFamily(self, nm, cfh, o)
        self._cf = self._cfs["default"]._h
        self._ro_default = self._ropts._handle(lib)
        self._wo_default = self._wopts._handle(lib)
        self._busy = st.busy
        f = lib.fast
        self._fast = (f.get, f.put, f.delete, f.free, self._ro_default.h, self._wo_default.h)
        st.h = self._h = h

    # -- point operations on the default column family: the leanest paths (rocksdb_get/put/delete
    # take every integer in an argument register, so the untyped calls need no c_size_t objects)
    def get(self, key, default=None, *, snapshot=None, fill_cache=None, verify_checksums=None,
            read_options=None):
        """The value of ``key``, or ``default`` when it has none (``read_options`` as in _Ops.get)."""
        if type(key) is not bytes:
            key = key_bytes(key)
        if snapshot is not None or fill_cache is not None or verify_checksums is not None or \
                read_options is not None or len(key) >= FAST_LEN:
            return _Ops.get(self, key, default, snapshot=snapshot, fill_cache=fill_cache,
                            verify_checksums=verify_checksums, read_options=read_options)
        try:
            err, berr, n, bn = TLS.s
        except AttributeError:
            err, berr, n, bn = scratch()
        fget, _, _, free, ro, _ = self._fast
        busy = self._busy
        busy.append(None)
        try:
            h = self._h
            if h is None:
                raise DbClosedError("DB instance already closed")
            p = fget(h, ro, key, len(key), bn, berr)
        finally:
            busy.pop()
        if err.value:
            raise_error(self._lib, err)
        if not p:
            return default
        v = p[:n.value]
        free(p)
        return v

    def put(self, key, value, *, sync=None, disable_wal=None):
        if type(key) is not bytes:
            key = key_bytes(key)
        if type(value) is not bytes:
            value = key_bytes(value)
        kl, vl = len(key), len(value)
        if sync is not None or disable_wal is not None or kl >= FAST_LEN or vl >= FAST_LEN:
            return _Ops.put(self, key, value, sync=sync, disable_wal=disable_wal)
        try:
            err, berr, _, _ = TLS.s
        except AttributeError:
            err, berr, _, _ = scratch()
        fput, wo = self._fast[1], self._fast[5]
        busy = self._busy
        busy.append(None)
        try:
            h = self._h
            if h is None:
                raise DbClosedError("DB instance already closed")
            fput(h, wo, key, kl, value, vl, berr)
        finally:
            busy.pop()
        if err.value:
            raise_error(self._lib, err)

    def delete(self, key, *, sync=None, disable_wal=None):
        if type(key) is not bytes:
            key = key_bytes(key)
        kl = len(key)
        if sync is not None or disable_wal is not None or kl >= FAST_LEN:
            return _Ops.delete(self, key, sync=sync, disable_wal=disable_wal)
        try:
            err, berr, _, _ = TLS.s
        except AttributeError:
            err, berr, _, _ = scratch()
        fdel, wo = self._fast[2], self._fast[5]
        busy = self._busy
        busy.append(None)
        try:
            h = self._h
            if h is None:
                raise DbClosedError("DB instance already closed")
            fdel(h, wo, key, kl, berr)
        finally:
            busy.pop()
        if err.value:
            raise_error(self._lib, err)

    # -- plumbing (__getitem__, __setitem__, __delitem__ come from _Ops)
    def _ctx(self):
        return self, self._cf

    def _run(self, fn, *args):
        """``fn(h, *args)`` with ``h`` the open DB handle, registered as a call in flight (close waits
        for it); DbClosedError once the DB is closed."""
        busy = self._busy
        busy.append(None)
        try:
            h = self._h
            if h is None:
                raise DbClosedError("DB instance already closed")
            return fn(h, *args)
        finally:
            busy.pop()

    def _check(self):
        if self._h is None:
            raise DbClosedError("DB instance already closed")

    def _with_read_options(self, snapshot, fill_cache, verify_checksums, fn, read_options=None):
        """``fn(h, ro)`` with C read options for one call: ``read_options`` (or the DB's) with the
        given overrides. A snapshot read is also registered as a call in flight on the snapshot,
        so releasing it waits."""
        if read_options is None and snapshot is None and fill_cache is None and verify_checksums is None:
            return self._run(fn, self._ro_default.h)
        ro = (read_options if read_options is not None else self._ropts).copy()
        if snapshot is None:
            snapshot = ro._values.pop("snapshot", None)
        if fill_cache is not None:
            ro.fill_cache = fill_cache
        if verify_checksums is not None:
            ro.verify_checksums = verify_checksums
        if snapshot is None:
            holder = ro._build(self._lib)  # referenced until the call returns: it owns the C object
            return self._run(fn, holder.h)
        ro.snapshot = snapshot
        sbusy = snapshot._busy
        sbusy.append(None)
        try:
            holder = ro._build(self._lib, snapshot._checked_handle(self._lib, self))
            return self._run(fn, holder.h)
        finally:
            sbusy.pop()

    def _wo_holder(self, sync, disable_wal):
        if sync is None and disable_wal is None:
            return self._wo_default
        key = (sync, disable_wal)
        hd = self._wo_cache.get(key)
        if hd is None:
            wo = self._wopts.copy()
            if sync is not None:
                wo.sync = sync
            if disable_wal is not None:
                wo.disable_wal = disable_wal
            hd = self._wo_cache[key] = wo._build(self._lib)
        return hd

    @property
    def lib(self) -> Library:
        return self._lib

    @property
    def closed(self) -> bool:
        return self._h is None

    # -- batches and snapshots
    def write(self, batch: WriteBatch, *, sync=None, disable_wal=None):
        """Apply every update of ``batch`` atomically (two C calls, whatever its size)."""
        if not isinstance(batch, WriteBatch):
            raise TypeError("write() takes a solistore.WriteBatch")
        self._check()
        rep = batch._rep_for(self)
        lib = self._lib
        wo = self._wo_holder(sync, disable_wal)
        buf = (c_char * len(rep)).from_buffer(rep)
        wb = lib.rocksdb_writebatch_create_from(buf, len(rep))
        del buf
        if not wb:
            raise Error("rocksdb_writebatch_create_from returned NULL")
        err, berr, _, _ = scratch()
        try:
            self._run(lib.rocksdb_write, wo.h, wb, berr)
        finally:
            lib.rocksdb_writebatch_destroy(wb)
        if err.value:
            raise_error(lib, err)

    def write_batch(self, *, transaction=False, sync=None, disable_wal=None) -> WriteBatch:
        """A batch bound to this DB: ``with db.write_batch() as wb: ...`` writes it when the block ends."""
        self._check()
        return WriteBatch(db=self, transaction=transaction, sync=sync, disable_wal=disable_wal)

    def snapshot(self) -> Snapshot:
        return Snapshot(self)

    # -- column families
    def create_column_family(self, name: str, options: Options | None = None) -> "ColumnFamily":
        lib = self._lib
        hold = (options if options is not None else self.options)._handle(lib)
        err, berr, _, _ = scratch()
        raw = self._run(lib.rocksdb_create_column_family, hold.h, name.encode(), berr)
        if err.value:
            raise_error(lib, err)
        cfh = handle(raw)
        with self._state.lock:
            self._state.cf_handles.append(cfh)
            self._state.keep.append(hold)
        cf = self._cfs[name] = ColumnFamily(self, name, cfh, options)
        return cf

    def get_column_family(self, name: str) -> "ColumnFamily":
        self._check()
        try:
            return self._cfs[name]
        except KeyError:
            raise KeyError(f"no open column family {name!r}") from None

    def column_family_names(self) -> list:
        self._check()
        return list(self._cfs)

    @property
    def column_families(self) -> dict:
        self._check()
        return dict(self._cfs)

    def drop_column_family(self, cf):
        if isinstance(cf, str):
            cf = self.get_column_family(cf)
        cfh = cf._h
        if cfh is None or cf._db is not self:
            raise InvalidArgument("Invalid argument: column family is not open in this DB")
        lib = self._lib
        err, berr, _, _ = scratch()
        self._run(lib.rocksdb_drop_column_family, cfh, berr)
        if err.value:
            raise_error(lib, err)
        # The handle stays until the DB closes: iterators and calls in flight may still use it.
        cf._h = None
        self._cfs.pop(cf.name, None)

    # -- maintenance
    def _errptr(self, fn, *args):
        err, berr, _, _ = scratch()
        r = self._run(fn, *args, berr)
        if err.value:
            raise_error(self._lib, err)
        return r

    def flush_wal(self, sync: bool = True):
        self._errptr(self._lib.rocksdb_flush_wal, int(bool(sync)))

    def checkpoint(self, path):
        """Write a consistent copy of the DB into the new directory ``path``."""
        lib = self._lib
        cp = self._errptr(lib.rocksdb_checkpoint_object_create)
        try:
            err, berr, _, _ = scratch()
            # The checkpoint object reads the DB: a call in flight.
            self._run(lambda h: lib.rocksdb_checkpoint_create(cp, path_bytes(path), 0, berr))
            if err.value:
                raise_error(lib, err)
        finally:
            if cp:
                lib.rocksdb_checkpoint_object_destroy(cp)

    def latest_sequence_number(self) -> int:
        return self._run(self._lib.rocksdb_get_latest_sequence_number)

    def try_catch_up_with_primary(self):
        """For a DB opened with ``secondary_path``: replay what the primary wrote since."""
        self._errptr(self._lib.rocksdb_try_catch_up_with_primary)

    def cancel_all_background_work(self, wait: bool = False):
        self._run(self._lib.rocksdb_cancel_all_background_work, int(bool(wait)))

    # -- lifecycle
    def close(self):
        """Close iterators, snapshots and column families, then the DB (idempotent). Waits for calls in
        flight on other threads; any later call raises DbClosedError."""
        if self._h is None:
            return
        self._h = None
        for cf in self._cfs.values():
            cf._h = None
        self._fin()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return f"<solistore.DB {self.name!r}{' closed' if self.closed else ''} lib={self._lib.path!r}>"


class ColumnFamily(_Ops):
    """A column family of an open DB, with the DB's key-value methods bound to it."""

    def __init__(self, db: DB, name: str, handle_, options):
        self._db = db
        self.name = name
        self._h = handle_
        self.options = options
        self._id = db._lib.rocksdb_column_family_handle_get_id(handle_)

    def _ctx(self):
        cf = self._h
        if cf is None:
            if self._db._h is None:
                raise DbClosedError("DB instance already closed")
            raise DbClosedError(f"column family {self.name!r} was dropped")
        return self._db, cf

    @property
    def db(self) -> DB:
        return self._db

    @property
    def closed(self) -> bool:
        return self._h is None or self._db._h is None

    @property
    def id(self) -> int:
        self._ctx()
        return self._id

    def write_batch(self, *, transaction=False, sync=None, disable_wal=None) -> WriteBatch:
        """A DB-bound batch whose updates go to this column family unless told otherwise."""
        self._ctx()
        return WriteBatch(db=self._db, transaction=transaction, sync=sync, disable_wal=disable_wal,
                          column_family=self)

    def drop(self):
        self._db.drop_column_family(self)

    def __repr__(self):
        return f"<solistore.ColumnFamily {self.name!r}{' closed' if self.closed else ''}>"


# --------------------------------------------------------------------------------------------------


def _opts(options, kw):
    if options is None:
        return Options(**kw)
    return options.copy(**kw) if kw else options


def _path_call(fn_name, path, options, lib, kw):
    lib = as_library(lib)
    hold = _opts(options, kw)._handle(lib)
    err, berr, _, _ = scratch()
    getattr(lib, fn_name)(hold.h, path_bytes(path), berr)
    if err.value:
        raise_error(lib, err)


def destroy_db(path, options: Options | None = None, *, lib=None, **kw):
    """Delete the DB at ``path`` and its files (a missing DB is fine)."""
    _path_call("rocksdb_destroy_db", path, options, lib, kw)


def repair_db(path, options: Options | None = None, *, lib=None, **kw):
    """Salvage what can be read of a damaged DB (RocksDB's RepairDB)."""
    _path_call("rocksdb_repair_db", path, options, lib, kw)


def list_column_families(path, options: Options | None = None, *, lib=None, **kw) -> list:
    """The names of the column families of the DB at ``path``."""
    lib = as_library(lib)
    hold = _opts(options, kw)._handle(lib)
    err, berr, _, _ = scratch()
    n = c_size_t()
    lst = lib.rocksdb_list_column_families(hold.h, path_bytes(path), byref(n), berr)
    if err.value:
        raise_error(lib, err)
    if not lst:
        return []
    names = [lst[i].decode("utf-8", "replace") for i in range(n.value)]
    lib.rocksdb_list_column_families_destroy(lst, n.value)
    return names
