# SPDX-License-Identifier: Apache-2.0
"""DB, ColumnFamily, Snapshot, WriteBatch, Iterator and RawIterator over the RocksDB C API.

Lifetimes: a DB owns a ``_DbState`` holding the native handle, the column family handles and a registry
of the finalizers of its live iterators and snapshots. ``DB.close()`` (or garbage collection of the DB, or
interpreter exit) runs those finalizers first (iterators, then snapshots), then destroys the column family
handles, then calls ``rocksdb_close``. Every method checks that its handle is still open and raises
``DbClosedError`` otherwise; no NULL handle ever reaches the library. Closing a DB while another thread is
inside a call on it is, as in C++, the caller's error.

Threads: a DB is thread-safe; an Iterator, RawIterator or WriteBatch must be used by one thread at a time.
Out-parameters (errptr, lengths) are per thread.
"""

from __future__ import annotations

import os
import threading
import weakref
from ctypes import byref, c_char_p, c_size_t, c_uint64, c_void_p, string_at

from ._lib import Library, as_library
from .errors import DbClosedError, Error, InvalidArgument, error_from_message
from .options import Options, ReadOptions, WriteOptions

__all__ = ["DB", "ColumnFamily", "Snapshot", "WriteBatch", "Iterator", "RawIterator",
           "destroy_db", "repair_db", "list_column_families"]

_ITER_CHUNK = 128

_tls = threading.local()


def _scratch():
    """Per-thread (err, byref(err), n, byref(n)) out-parameters."""
    try:
        return _tls.s
    except AttributeError:
        err = c_void_p()
        n = c_size_t()
        s = _tls.s = (err, byref(err), n, byref(n))
        return s


def _raise(lib: Library, err: c_void_p):
    p = err.value
    err.value = None
    msg = string_at(p).decode("utf-8", "replace")
    lib.rocksdb_free(p)
    raise error_from_message(msg)


def _key(k) -> bytes:
    if type(k) is bytes:
        return k
    if isinstance(k, str):
        raise TypeError("keys and values must be bytes, not str; encode str explicitly")
    if isinstance(k, (bytearray, memoryview)):
        return bytes(k)
    raise TypeError(f"keys and values must be bytes, not {type(k).__name__}")


def _path(p) -> bytes:
    return os.fsencode(p)


def _successor(prefix: bytes) -> bytes | None:
    """The smallest key greater than every key starting with ``prefix`` (None: no such key)."""
    p = prefix.rstrip(b"\xff")
    if not p:
        return None
    return p[:-1] + bytes([p[-1] + 1])


# --------------------------------------------------------------------------------------------------
# DB state and child registry


class _DbState:
    """Native handles of one open DB; referenced by the DB's finalizer, never by children's finalizers
    in a way that keeps the DB alive."""

    def __init__(self, lib: Library):
        self.lib = lib
        self.h = None                 # rocksdb_t*
        self.cf_handles: list = []   # every rocksdb_column_family_handle_t* still to destroy
        self.keep: list = []          # option holders the DB was opened with
        self.iters: dict = {}         # id -> weakref.finalize of live iterators
        self.snaps: dict = {}         # id -> weakref.finalize of live snapshots
        self.lock = threading.RLock()

    def close(self):
        with self.lock:
            if self.h is None:
                return
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
            h, self.h = self.h, None
            lib.rocksdb_close(h)
            for k in self.keep:
                k.close()
            self.keep.clear()


def _destroy_iter(state: _DbState, key: int, it):
    with state.lock:
        state.iters.pop(key, None)
        if state.h is not None:
            state.lib.rocksdb_iter_destroy(it)


def _release_snap(state: _DbState, key: int, snap):
    with state.lock:
        state.snaps.pop(key, None)
        if state.h is not None:
            state.lib.rocksdb_release_snapshot(state.h, snap)


# --------------------------------------------------------------------------------------------------
# Operations shared by DB and ColumnFamily


class _Ops:
    """Key-value methods; subclasses provide ``_target() -> (db, db_handle, cf_handle)``."""

    def get(self, key, default=None, *, snapshot=None, fill_cache=None, verify_checksums=None):
        db, h, cf = self._target()
        key = _key(key)
        lib = db._lib
        ro = db._ro_holder(snapshot, fill_cache, verify_checksums)
        err, berr, n, bn = _scratch()
        p = lib.rocksdb_get_cf(h, ro.h, cf, key, len(key), bn, berr)
        if err.value:
            _raise(lib, err)
        if p is None:
            return default
        v = string_at(p, n.value)
        lib.rocksdb_free(p)
        return v

    def __getitem__(self, key):
        v = self.get(key)
        if v is None:
            raise KeyError(key)
        return v

    def __contains__(self, key):
        return self.get(key) is not None

    def put(self, key, value, *, sync=None, disable_wal=None):
        db, h, cf = self._target()
        key = _key(key)
        value = _key(value)
        lib = db._lib
        wo = db._wo_holder(sync, disable_wal)
        err, berr, _, _ = _scratch()
        lib.rocksdb_put_cf(h, wo.h, cf, key, len(key), value, len(value), berr)
        if err.value:
            _raise(lib, err)

    __setitem__ = put

    def delete(self, key, *, sync=None, disable_wal=None):
        db, h, cf = self._target()
        key = _key(key)
        lib = db._lib
        wo = db._wo_holder(sync, disable_wal)
        err, berr, _, _ = _scratch()
        lib.rocksdb_delete_cf(h, wo.h, cf, key, len(key), berr)
        if err.value:
            _raise(lib, err)

    def __delitem__(self, key):
        self.delete(key)

    def delete_range(self, begin, end, *, sync=None, disable_wal=None):
        """Delete every key in [begin, end)."""
        db, h, cf = self._target()
        begin, end = _key(begin), _key(end)
        lib = db._lib
        wo = db._wo_holder(sync, disable_wal)
        err, berr, _, _ = _scratch()
        lib.rocksdb_delete_range_cf(h, wo.h, cf, begin, len(begin), end, len(end), berr)
        if err.value:
            _raise(lib, err)

    def merge(self, key, value, *, sync=None, disable_wal=None):
        db, h, cf = self._target()
        key, value = _key(key), _key(value)
        lib = db._lib
        wo = db._wo_holder(sync, disable_wal)
        err, berr, _, _ = _scratch()
        lib.rocksdb_merge_cf(h, wo.h, cf, key, len(key), value, len(value), berr)
        if err.value:
            _raise(lib, err)

    def multi_get(self, keys, *, snapshot=None, fill_cache=None, verify_checksums=None) -> list:
        """Values (or None) for ``keys``, in order, read in one C call."""
        keys = [_key(k) for k in keys]
        db, h, cf = self._target()
        n = len(keys)
        if n == 0:
            return []
        lib = db._lib
        ro = db._ro_holder(snapshot, fill_cache, verify_checksums)
        cfs = (c_void_p * n)(*([cf] * n))
        karr = (c_char_p * n)(*keys)
        klen = (c_size_t * n)(*map(len, keys))
        vals = (c_void_p * n)()
        vlen = (c_size_t * n)()
        errs = (c_void_p * n)()
        lib.rocksdb_multi_get_cf(h, ro.h, cfs, n, karr, klen, vals, vlen, errs)
        out = []
        first_err = None
        free = lib.rocksdb_free
        for i in range(n):
            e = errs[i]
            if e:
                msg = string_at(e).decode("utf-8", "replace")
                free(e)
                if first_err is None:
                    first_err = msg
            p = vals[i]
            if p:
                out.append(string_at(p, vlen[i]))
                free(p)
            else:
                out.append(None)
        if first_err is not None:
            raise error_from_message(first_err)
        return out

    def iterator(self, *, start=None, stop=None, prefix=None, include_start=True, include_stop=False,
                 reverse=False, include_key=True, include_value=True, snapshot=None, fill_cache=None,
                 verify_checksums=None) -> "Iterator":
        db, h, cf = self._target()
        return Iterator(db, cf, start=start, stop=stop, prefix=prefix, include_start=include_start,
                        include_stop=include_stop, reverse=reverse, include_key=include_key,
                        include_value=include_value, snapshot=snapshot, fill_cache=fill_cache,
                        verify_checksums=verify_checksums)

    def __iter__(self):
        return iter(self.iterator())

    def keys(self, **kw):
        return self.iterator(include_value=False, **kw)

    def values(self, **kw):
        return self.iterator(include_key=False, **kw)

    def items(self, **kw):
        return self.iterator(**kw)

    def raw_iterator(self, *, lower_bound=None, upper_bound=None, snapshot=None, fill_cache=None,
                     verify_checksums=None, total_order_seek=None, prefix_same_as_start=None) -> "RawIterator":
        db, h, cf = self._target()
        ro = ReadOptions(iterate_lower_bound=lower_bound, iterate_upper_bound=upper_bound, fill_cache=fill_cache,
                         verify_checksums=verify_checksums, total_order_seek=total_order_seek,
                         prefix_same_as_start=prefix_same_as_start)
        if snapshot is not None:
            ro.snapshot = snapshot
        return RawIterator(db, cf, ro)

    def get_property(self, name: str) -> str | None:
        db, h, cf = self._target()
        lib = db._lib
        p = lib.rocksdb_property_value_cf(h, cf, name.encode())
        if p is None:
            return None
        v = string_at(p).decode("utf-8", "replace")
        lib.rocksdb_free(p)
        return v

    def flush(self, wait: bool = True):
        db, h, cf = self._target()
        lib = db._lib
        fo = lib.rocksdb_flushoptions_create()
        try:
            lib.rocksdb_flushoptions_set_wait(fo, int(bool(wait)))
            err, berr, _, _ = _scratch()
            lib.rocksdb_flush_cf(h, fo, cf, berr)
            if err.value:
                _raise(lib, err)
        finally:
            lib.rocksdb_flushoptions_destroy(fo)

    def compact_range(self, begin=None, end=None):
        """Compact the keys in [begin, end] (None: open-ended). The C API reports no errors here."""
        db, h, cf = self._target()
        b = None if begin is None else _key(begin)
        e = None if end is None else _key(end)
        db._lib.rocksdb_compact_range_cf(h, cf, b, 0 if b is None else len(b), e, 0 if e is None else len(e))

    def approximate_sizes(self, *ranges) -> list:
        """Approximate on-disk bytes of each ``(start, limit)`` range."""
        db, h, cf = self._target()
        rs = [(_key(a), _key(b)) for a, b in ranges]
        n = len(rs)
        if n == 0:
            return []
        lib = db._lib
        starts = (c_char_p * n)(*[a for a, _ in rs])
        slen = (c_size_t * n)(*[len(a) for a, _ in rs])
        limits = (c_char_p * n)(*[b for _, b in rs])
        llen = (c_size_t * n)(*[len(b) for _, b in rs])
        sizes = (c_uint64 * n)()
        err, berr, _, _ = _scratch()
        lib.rocksdb_approximate_sizes_cf(h, cf, n, starts, slen, limits, llen, sizes, berr)
        if err.value:
            _raise(lib, err)
        return list(sizes)

    def approximate_size(self, start, stop) -> int:
        return self.approximate_sizes((start, stop))[0]


# --------------------------------------------------------------------------------------------------


class DB(_Ops):
    """An open database.

    ``DB(path, options=None, *, create_if_missing=None, error_if_exists=None, column_families=None,
    read_only=False, error_if_wal_file_exists=False, read_options=None, write_options=None, lib=None,
    **options)``. ``column_families`` is None (open every column family the DB has), or a list of names /
    dict name -> Options (the default family is always opened). Extra keyword arguments are ``Options``
    fields.
    """

    def __init__(self, path, options: Options | None = None, *, create_if_missing=None, error_if_exists=None,
                 column_families=None, read_only=False, error_if_wal_file_exists=False,
                 read_options: ReadOptions | None = None, write_options: WriteOptions | None = None,
                 lib=None, **option_kwargs):
        self._lib = lib = as_library(lib)
        self._state = st = _DbState(lib)
        self._h = None
        self._fin = weakref.finalize(self, _DbState.close, st)
        self.name = os.fsdecode(os.fspath(path))
        self.read_only = bool(read_only)
        if create_if_missing is not None:
            option_kwargs["create_if_missing"] = create_if_missing
        if error_if_exists is not None:
            option_kwargs["error_if_exists"] = error_if_exists
        opts = options.copy(**option_kwargs) if options is not None else Options(**option_kwargs)
        self.options = opts
        self._ropts = read_options if read_options is not None else ReadOptions()
        self._wopts = write_options if write_options is not None else WriteOptions()
        self._wo_cache: dict = {}

        bpath = _path(path)
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
        cfs.pop("default", None)
        cf_items = [("default", (column_families or {}).get("default") if isinstance(column_families, dict)
                     else None)] + list(cfs.items())
        n = len(cf_items)
        dbopt = opts._handle(lib)
        st.keep.append(dbopt)
        cf_opt_holders = []
        for _, o in cf_items:
            hold = (o if o is not None else opts)._handle(lib)
            cf_opt_holders.append(hold)
        names_arr = (c_char_p * n)(*[nm.encode() for nm, _ in cf_items])
        opt_arr = (c_void_p * n)(*[hd.h for hd in cf_opt_holders])
        handles = (c_void_p * n)()
        err, berr, _, _ = _scratch()
        if read_only:
            h = lib.rocksdb_open_for_read_only_column_families(
                dbopt.h, bpath, n, names_arr, opt_arr, handles, int(bool(error_if_wal_file_exists)), berr)
        else:
            h = lib.rocksdb_open_column_families(dbopt.h, bpath, n, names_arr, opt_arr, handles, berr)
        if err.value:
            st.keep.clear()
            _raise(lib, err)
        if not h:
            raise Error(f"opening {self.name!r} returned no handle and no error")
        st.h = self._h = h
        st.keep.extend(cf_opt_holders)
        self._cfs: dict[str, ColumnFamily] = {}
        for i, (nm, o) in enumerate(cf_items):
            cfh = handles[i]
            st.cf_handles.append(cfh)
            self._cfs[nm] = ColumnFamily(self, nm, cfh, o)
        self._cf = handles[0]
        self._ro_default = self._ropts._handle(lib)
        self._wo_default = self._wopts._handle(lib)

    # -- plumbing
    def _target(self):
        h = self._h
        if h is None:
            raise DbClosedError("DB instance already closed")
        return self, h, self._cf

    def _check(self):
        h = self._h
        if h is None:
            raise DbClosedError("DB instance already closed")
        return h

    def _ro_holder(self, snapshot, fill_cache, verify_checksums):
        if snapshot is None and fill_cache is None and verify_checksums is None:
            return self._ro_default
        ro = self._ropts.copy()
        if snapshot is not None:
            ro.snapshot = snapshot
        if fill_cache is not None:
            ro.fill_cache = fill_cache
        if verify_checksums is not None:
            ro.verify_checksums = verify_checksums
        return ro._build(self._lib)

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

    # -- writes of batches
    def write(self, batch: "WriteBatch", *, sync=None, disable_wal=None):
        h = self._check()
        if batch._lib is not self._lib:
            raise InvalidArgument("Invalid argument: the batch was made for another library")
        bh = batch._checked()
        wo = self._wo_holder(sync, disable_wal)
        err, berr, _, _ = _scratch()
        self._lib.rocksdb_write(h, wo.h, bh, berr)
        if err.value:
            _raise(self._lib, err)

    def write_batch(self, *, transaction=False, sync=None, disable_wal=None) -> "WriteBatch":
        self._check()
        return WriteBatch(db=self, transaction=transaction, sync=sync, disable_wal=disable_wal)

    def snapshot(self) -> "Snapshot":
        return Snapshot(self)

    # -- column families
    def create_column_family(self, name: str, options: Options | None = None) -> "ColumnFamily":
        h = self._check()
        lib = self._lib
        hold = (options if options is not None else self.options)._handle(lib)
        err, berr, _, _ = _scratch()
        cfh = lib.rocksdb_create_column_family(h, hold.h, name.encode(), berr)
        if err.value:
            _raise(lib, err)
        with self._state.lock:
            self._state.cf_handles.append(cfh)
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
        h = self._check()
        if isinstance(cf, str):
            cf = self.get_column_family(cf)
        cfh = cf._h
        if cfh is None or cf._db is not self:
            raise InvalidArgument("Invalid argument: column family is not open in this DB")
        lib = self._lib
        err, berr, _, _ = _scratch()
        lib.rocksdb_drop_column_family(h, cfh, berr)
        if err.value:
            _raise(lib, err)
        with self._state.lock:
            cf._h = None
            self._state.cf_handles.remove(cfh)
            lib.rocksdb_column_family_handle_destroy(cfh)
        self._cfs.pop(cf.name, None)

    # -- maintenance
    def flush_wal(self, sync: bool = True):
        h = self._check()
        err, berr, _, _ = _scratch()
        self._lib.rocksdb_flush_wal(h, int(bool(sync)), berr)
        if err.value:
            _raise(self._lib, err)

    def checkpoint(self, path):
        """Write a consistent copy of the DB into the new directory ``path``."""
        h = self._check()
        lib = self._lib
        err, berr, _, _ = _scratch()
        cp = lib.rocksdb_checkpoint_object_create(h, berr)
        if err.value:
            _raise(lib, err)
        try:
            lib.rocksdb_checkpoint_create(cp, _path(path), 0, berr)
            if err.value:
                _raise(lib, err)
        finally:
            if cp:
                lib.rocksdb_checkpoint_object_destroy(cp)

    def latest_sequence_number(self) -> int:
        return self._lib.rocksdb_get_latest_sequence_number(self._check())

    # -- lifecycle
    def close(self):
        """Close iterators, snapshots and column families, then the DB. Idempotent."""
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

    def __init__(self, db: DB, name: str, handle, options):
        self._db = db
        self.name = name
        self._h = handle
        self.options = options

    def _target(self):
        db = self._db
        h = db._h
        if h is None:
            raise DbClosedError("DB instance already closed")
        cf = self._h
        if cf is None:
            raise DbClosedError(f"column family {self.name!r} was dropped or closed")
        return db, h, cf

    @property
    def db(self) -> DB:
        return self._db

    @property
    def closed(self) -> bool:
        return self._h is None or self._db._h is None

    @property
    def id(self) -> int:
        db, h, cf = self._target()
        return db._lib.rocksdb_column_family_handle_get_id(cf)

    def write_batch(self, *, transaction=False, sync=None, disable_wal=None) -> "WriteBatch":
        self._target()
        return WriteBatch(db=self._db, transaction=transaction, sync=sync, disable_wal=disable_wal,
                          column_family=self)

    def drop(self):
        self._db.drop_column_family(self)

    def __repr__(self):
        return f"<solistore.ColumnFamily {self.name!r}{' closed' if self.closed else ''}>"


# --------------------------------------------------------------------------------------------------


class Snapshot:
    """A consistent read view; release with ``close()`` or by leaving the ``with`` block."""

    def __init__(self, db: DB):
        h = db._check()
        self._db = db
        self._lib = db._lib
        st = db._state
        snap = self._lib.rocksdb_create_snapshot(h)
        if not snap:
            raise Error("rocksdb_create_snapshot returned NULL")
        self._h = snap
        key = id(self)
        self._fin = weakref.finalize(self, _release_snap, st, key, snap)
        with st.lock:
            st.snaps[key] = self._fin

    def _checked_handle(self, lib):
        if self._h is None or self._db._h is None:
            raise DbClosedError("snapshot already released")
        if lib is not self._lib:
            raise InvalidArgument("Invalid argument: snapshot belongs to another library")
        return self._h

    @property
    def sequence_number(self) -> int:
        return self._lib.rocksdb_snapshot_get_sequence_number(self._checked_handle(self._lib))

    def get(self, key, default=None, *, column_family=None, **kw):
        return (column_family or self._db).get(key, default, snapshot=self, **kw)

    def multi_get(self, keys, *, column_family=None, **kw):
        return (column_family or self._db).multi_get(keys, snapshot=self, **kw)

    def iterator(self, *, column_family=None, **kw):
        return (column_family or self._db).iterator(snapshot=self, **kw)

    def raw_iterator(self, *, column_family=None, **kw):
        return (column_family or self._db).raw_iterator(snapshot=self, **kw)

    def __getitem__(self, key):
        v = self.get(key)
        if v is None:
            raise KeyError(key)
        return v

    def __contains__(self, key):
        return self.get(key) is not None

    def close(self):
        self._h = None
        self._fin()

    release = close

    @property
    def closed(self) -> bool:
        return self._h is None or self._db._h is None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# --------------------------------------------------------------------------------------------------


class WriteBatch:
    """Updates applied atomically by ``DB.write(batch)``.

    ``db.write_batch()`` returns one bound to the DB: as a context manager it is written when the block
    ends; with ``transaction=True`` it is discarded if the block raises. ``WriteBatch(lib=...)`` makes a
    free-standing batch.
    """

    def __init__(self, *, db: DB | None = None, lib=None, transaction=False, sync=None, disable_wal=None,
                 column_family: ColumnFamily | None = None, data: bytes | None = None):
        self._db = db
        self._lib = lib = db._lib if db is not None else as_library(lib)
        if data is not None:
            data = _key(data)
            h = lib.rocksdb_writebatch_create_from(data, len(data))
        else:
            h = lib.rocksdb_writebatch_create()
        if not h:
            raise Error("could not create a write batch")
        self._h = h
        self._fin = weakref.finalize(self, lib.rocksdb_writebatch_destroy, h)
        self._transaction = transaction
        self._sync = sync
        self._disable_wal = disable_wal
        self._cf = column_family

    def _checked(self):
        h = self._h
        if h is None:
            raise DbClosedError("write batch already closed")
        return h

    def _cfh(self, column_family):
        cf = column_family if column_family is not None else self._cf
        if cf is None:
            return None
        if isinstance(cf, str):
            if self._db is None:
                raise InvalidArgument("Invalid argument: a column family name needs a DB-bound batch")
            cf = self._db.get_column_family(cf)
        _, _, cfh = cf._target()
        return cfh

    def put(self, key, value, *, column_family=None):
        h = self._checked()
        key, value = _key(key), _key(value)
        cfh = self._cfh(column_family)
        if cfh is None:
            self._lib.rocksdb_writebatch_put(h, key, len(key), value, len(value))
        else:
            self._lib.rocksdb_writebatch_put_cf(h, cfh, key, len(key), value, len(value))

    __setitem__ = put

    def delete(self, key, *, column_family=None):
        h = self._checked()
        key = _key(key)
        cfh = self._cfh(column_family)
        if cfh is None:
            self._lib.rocksdb_writebatch_delete(h, key, len(key))
        else:
            self._lib.rocksdb_writebatch_delete_cf(h, cfh, key, len(key))

    __delitem__ = delete

    def delete_range(self, begin, end, *, column_family=None):
        h = self._checked()
        begin, end = _key(begin), _key(end)
        cfh = self._cfh(column_family)
        if cfh is None:
            self._lib.rocksdb_writebatch_delete_range(h, begin, len(begin), end, len(end))
        else:
            self._lib.rocksdb_writebatch_delete_range_cf(h, cfh, begin, len(begin), end, len(end))

    def merge(self, key, value, *, column_family=None):
        h = self._checked()
        key, value = _key(key), _key(value)
        cfh = self._cfh(column_family)
        if cfh is None:
            self._lib.rocksdb_writebatch_merge(h, key, len(key), value, len(value))
        else:
            self._lib.rocksdb_writebatch_merge_cf(h, cfh, key, len(key), value, len(value))

    def clear(self):
        self._lib.rocksdb_writebatch_clear(self._checked())

    def __len__(self):
        return self._lib.rocksdb_writebatch_count(self._checked())

    def data(self) -> bytes:
        """The batch in RocksDB's WriteBatch rep format."""
        n = c_size_t()
        p = self._lib.rocksdb_writebatch_data(self._checked(), byref(n))
        return string_at(p, n.value) if p else b""

    def write(self):
        if self._db is None:
            raise InvalidArgument("Invalid argument: free-standing batch: use db.write(batch)")
        self._db.write(self, sync=self._sync, disable_wal=self._disable_wal)

    def close(self):
        self._h = None
        self._fin()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        try:
            if exc_type is None or not self._transaction:
                self.write()
        finally:
            self.close()


# --------------------------------------------------------------------------------------------------


class _CIter:
    """Shared plumbing of Iterator and RawIterator: the native iterator and its read options."""

    def _open(self, db: DB, cf, ro: ReadOptions):
        h = db._check()
        lib = self._lib = db._lib
        self._db = db
        self._ro = ro._build(lib)  # keeps bound bytes and the snapshot referenced
        it = lib.rocksdb_create_iterator_cf(h, self._ro.h, cf)
        if not it:
            raise Error("rocksdb_create_iterator_cf returned NULL")
        st = db._state
        key = id(self)
        self._it = it
        self._fin = weakref.finalize(self, _destroy_iter, st, key, it)
        with st.lock:
            st.iters[key] = self._fin
        self._kl = c_size_t()
        self._vl = c_size_t()
        self._bkl = byref(self._kl)
        self._bvl = byref(self._vl)

    def _checked(self):
        it = self._it
        if it is None or self._db._h is None:
            self._it = None
            raise DbClosedError("iterator already closed")
        return it

    def _check_error(self, it):
        err, berr, _, _ = _scratch()
        self._lib.rocksdb_iter_get_error(it, berr)
        if err.value:
            _raise(self._lib, err)

    def close(self):
        self._it = None
        fin = getattr(self, "_fin", None)
        if fin is not None:
            fin()

    @property
    def closed(self) -> bool:
        return self._it is None or self._db._h is None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Iterator(_CIter):
    """Python iterator over a key range; ``start``/``stop``/``prefix`` become iterate bounds.

    Yields ``(key, value)``, ``key`` or ``value``. Closes itself when exhausted; after its DB closes,
    ``next()`` raises DbClosedError.
    """

    def __init__(self, db: DB, cf, *, start=None, stop=None, prefix=None, include_start=True, include_stop=False,
                 reverse=False, include_key=True, include_value=True, snapshot=None, fill_cache=None,
                 verify_checksums=None):
        if not include_key and not include_value:
            raise TypeError("include_key and include_value cannot both be False")
        if prefix is not None and (start is not None or stop is not None):
            raise TypeError("'prefix' cannot be used together with 'start' or 'stop'")
        lower = upper = None
        if prefix is not None:
            prefix = _key(prefix)
            lower = prefix
            upper = _successor(prefix)
        else:
            if start is not None:
                start = _key(start)
                lower = start if include_start else start + b"\x00"
            if stop is not None:
                stop = _key(stop)
                upper = stop + b"\x00" if include_stop else stop
        self._empty = lower is not None and upper is not None and lower >= upper
        ro = ReadOptions(iterate_lower_bound=lower, iterate_upper_bound=upper, snapshot=snapshot,
                         fill_cache=fill_cache, verify_checksums=verify_checksums)
        self._it = None
        self._open(db, cf, ro)
        self._reverse = reverse
        self._mode = (1 if include_key else 0) | (2 if include_value else 0)
        self._gen = self._run()

    def _chunk(self, it, first):
        lib = self._lib
        valid = lib.rocksdb_iter_valid
        key = lib.rocksdb_iter_key
        value = lib.rocksdb_iter_value
        step = lib.rocksdb_iter_prev if self._reverse else lib.rocksdb_iter_next
        kl, vl, bkl, bvl = self._kl, self._vl, self._bkl, self._bvl
        mode = self._mode
        out = []
        append = out.append
        if not first:
            step(it)
        for i in range(_ITER_CHUNK):
            if not valid(it):
                return out, True
            if mode == 3:
                k = key(it, bkl)[:kl.value]
                append((k, value(it, bvl)[:vl.value]))
            elif mode == 1:
                append(key(it, bkl)[:kl.value])
            else:
                append(value(it, bvl)[:vl.value])
            if i != _ITER_CHUNK - 1:
                step(it)
        return out, False

    def _run(self):
        it = self._checked()
        if self._empty:
            self.close()
            return
        if self._reverse:
            self._lib.rocksdb_iter_seek_to_last(it)
        else:
            self._lib.rocksdb_iter_seek_to_first(it)
        first = True
        while True:
            it = self._checked()
            out, done = self._chunk(it, first)
            first = False
            if done:
                self._check_error(it)
                self.close()
                self._exhausted = True
                yield from out
                return
            yield from out

    def __iter__(self):
        return self._gen

    def __next__(self):
        if (self._it is None or self._db._h is None) and not getattr(self, "_exhausted", False):
            self._it = None
            raise DbClosedError("iterator already closed")
        return next(self._gen)


class RawIterator(_CIter):
    """The C cursor: valid/seek_to_first/seek_to_last/seek/seek_for_prev/next/prev/key/value/status."""

    def __init__(self, db: DB, cf, ro: ReadOptions):
        self._it = None
        self._open(db, cf, ro)

    def valid(self) -> bool:
        return bool(self._lib.rocksdb_iter_valid(self._checked()))

    def seek_to_first(self):
        self._lib.rocksdb_iter_seek_to_first(self._checked())

    def seek_to_last(self):
        self._lib.rocksdb_iter_seek_to_last(self._checked())

    def seek(self, key):
        key = _key(key)
        self._lib.rocksdb_iter_seek(self._checked(), key, len(key))

    def seek_for_prev(self, key):
        key = _key(key)
        self._lib.rocksdb_iter_seek_for_prev(self._checked(), key, len(key))

    def _valid_it(self):
        it = self._checked()
        if not self._lib.rocksdb_iter_valid(it):
            raise InvalidArgument("Invalid argument: iterator is not positioned on an entry")
        return it

    def next(self):
        self._lib.rocksdb_iter_next(self._valid_it())

    def prev(self):
        self._lib.rocksdb_iter_prev(self._valid_it())

    def key(self) -> bytes:
        it = self._valid_it()
        p = self._lib.rocksdb_iter_key(it, self._bkl)
        return p[:self._kl.value]

    def value(self) -> bytes:
        it = self._valid_it()
        p = self._lib.rocksdb_iter_value(it, self._bvl)
        return p[:self._vl.value]

    def item(self) -> tuple:
        return self.key(), self.value()

    def status(self):
        """Raise the iterator's error, if any (the mapped exception)."""
        self._check_error(self._checked())


# --------------------------------------------------------------------------------------------------


def _opts(options, lib, kw):
    if options is None:
        return Options(**kw)
    return options.copy(**kw) if kw else options


def destroy_db(path, options: Options | None = None, *, lib=None, **kw):
    lib = as_library(lib)
    hold = _opts(options, lib, kw)._handle(lib)
    err, berr, _, _ = _scratch()
    lib.rocksdb_destroy_db(hold.h, _path(path), berr)
    if err.value:
        _raise(lib, err)


def repair_db(path, options: Options | None = None, *, lib=None, **kw):
    lib = as_library(lib)
    hold = _opts(options, lib, kw)._handle(lib)
    err, berr, _, _ = _scratch()
    lib.rocksdb_repair_db(hold.h, _path(path), berr)
    if err.value:
        _raise(lib, err)


def list_column_families(path, options: Options | None = None, *, lib=None, **kw) -> list:
    lib = as_library(lib)
    hold = _opts(options, lib, kw)._handle(lib)
    err, berr, _, _ = _scratch()
    n = c_size_t()
    lst = lib.rocksdb_list_column_families(hold.h, _path(path), byref(n), berr)
    if err.value:
        _raise(lib, err)
    if not lst:
        return []
    names = [lst[i].decode("utf-8", "replace") for i in range(n.value)]
    lib.rocksdb_list_column_families_destroy(lst, n.value)
    return names
