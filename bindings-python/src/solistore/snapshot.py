# SPDX-License-Identifier: Apache-2.0
"""Snapshot: a consistent read view of a DB (read path).

The DB registers every live snapshot and releases them (after its iterators, before its column
families) when it closes. Reads through a snapshot are registered in its ``busy`` list for the duration
of the C call; releasing waits for them (``_call.wait_idle``), so a release racing a read on another
thread never frees what the read uses.
"""

from __future__ import annotations

import weakref
from ctypes import c_void_p

from ._call import wait_idle
from .errors import DbClosedError, Error, InvalidArgument

__all__ = ["Snapshot"]


def _release_snap(state, key, snap, busy):
    """Finalizer: release the native snapshot once no read uses it."""
    with state.lock:
        state.snaps.pop(key, None)
    wait_idle(busy)
    with state.lock:
        if snap.value and state.h is not None:
            state.lib.rocksdb_release_snapshot(state.h, snap)
        snap.value = None


class Snapshot:
    """A consistent read view; release with ``close()`` (alias ``release()``) or by leaving the ``with``
    block. Reads: ``get``, ``multi_get``, ``iterator``, ``raw_iterator``, ``[]``, ``in``, each taking
    ``column_family=``. Use ``db.snapshot()``, not this constructor."""

    def __init__(self, db):
        self._db = db
        self._lib = db._lib
        self._busy: list = []
        st = db._state
        snap = c_void_p(db._run(self._lib.rocksdb_create_snapshot))
        if not snap.value:
            raise Error("rocksdb_create_snapshot returned NULL")
        key = id(self)
        self._h = snap
        self._fin = weakref.finalize(self, _release_snap, st, key, snap, self._busy)
        with st.lock:
            st.snaps[key] = self._fin

    def _checked_handle(self, lib, db=None):
        h = self._h
        if h is None or not h.value or self._db._h is None:
            raise DbClosedError("snapshot already released")
        if lib is not self._lib:
            raise InvalidArgument("Invalid argument: the snapshot belongs to another library")
        if db is not None and db is not self._db:
            raise InvalidArgument("Invalid argument: the snapshot belongs to another DB")
        return h

    @property
    def sequence_number(self) -> int:
        """The snapshot's sequence number (NotSupported on libraries without
        ``rocksdb_snapshot_get_sequence_number``, such as RocksDB 7.8)."""
        return self._lib.rocksdb_snapshot_get_sequence_number(self._checked_handle(self._lib))

    @property
    def db(self):
        return self._db

    def _on(self, column_family):
        return column_family if column_family is not None else self._db

    def get(self, key, default=None, *, column_family=None, **kw):
        return self._on(column_family).get(key, default, snapshot=self, **kw)

    def multi_get(self, keys, *, column_family=None, **kw):
        return self._on(column_family).multi_get(keys, snapshot=self, **kw)

    def iterator(self, *, column_family=None, **kw):
        return self._on(column_family).iterator(snapshot=self, **kw)

    def raw_iterator(self, *, column_family=None, **kw):
        return self._on(column_family).raw_iterator(snapshot=self, **kw)

    def __iter__(self):
        return iter(self.iterator())

    def __getitem__(self, key):
        v = self.get(key)
        if v is None:
            raise KeyError(key)
        return v

    def __contains__(self, key):
        return self.get(key) is not None

    def close(self):
        """Release the snapshot (idempotent); waits for reads through it in flight on other threads."""
        if self._h is None:
            return
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

    def __repr__(self):
        return f"<solistore.Snapshot{' released' if self.closed else ''} of {self._db.name!r}>"
