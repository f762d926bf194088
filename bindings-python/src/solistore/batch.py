# SPDX-License-Identifier: Apache-2.0
"""WriteBatch: updates applied atomically, built in Python in RocksDB's WriteBatch rep format.

The batch is the rep itself (``docs/format/write_batch.md``): a 12-byte header (sequence number,
8 bytes little-endian, left 0; entry count, 4 bytes little-endian) and one record per update: a tag byte,
for column family records a varint32 column family id, then varint32-length-prefixed key (and value, or
end key for range deletions). Adding an update appends a few bytes to a ``bytearray``; writing the batch
hands the whole rep to the library in one ``rocksdb_writebatch_create_from`` call and writes it with
``rocksdb_write``, so a batch of n updates costs two C calls instead of n + 1. The same rep works on every
library, so a batch is not bound to one; a batch naming column families is bound to their DB (ids differ
between DBs).
"""

from __future__ import annotations

from ._call import key_bytes
from .errors import Corruption, DbClosedError, InvalidArgument

__all__ = ["WriteBatch"]

# Record tags (RocksDB's ValueType values used in WriteBatch reps).
_DELETE, _PUT, _MERGE = 0x0, 0x1, 0x2
_CF_DELETE, _CF_PUT, _CF_MERGE = 0x4, 0x5, 0x6
_SINGLE_DELETE, _CF_SINGLE_DELETE = 0x7, 0x8
_CF_RANGE_DELETE, _RANGE_DELETE = 0xE, 0xF

_HEADER = 12
_V1 = [bytes([i]) for i in range(128)]  # one-byte varints
_PUT1 = [bytes([_PUT, i]) for i in range(128)]  # a default-family put's tag and one-byte key length


def _varint(n: int) -> bytes:
    if n < 128:
        return _V1[n]
    if n >= 1 << 32:
        raise InvalidArgument(f"Invalid argument: {n} bytes do not fit a write batch record (limit 4 GiB)")
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


class WriteBatch:
    """A batch of puts, deletes, merges and range deletions, applied atomically by ``DB.write(batch)``.

    ``db.write_batch()`` returns one bound to the DB: as a context manager it is written when the block
    ends (and emptied, so it can be used again); with ``transaction=True`` it is discarded if the block
    raises. ``WriteBatch()`` makes a
    free-standing batch (``lib=`` is accepted for compatibility and not needed). ``WriteBatch(data=rep)``
    starts from a rep made by ``data()`` or by another RocksDB binding.

    Methods take ``column_family=`` (a ColumnFamily, or a name for a DB-bound batch). Not thread-safe:
    use a batch from one thread at a time.
    """

    def __init__(self, *, db=None, lib=None, transaction=False, sync=None, disable_wal=None,
                 column_family=None, data: bytes | None = None):
        del lib  # the rep needs no library
        self._db = db
        self._transaction = transaction
        self._sync = sync
        self._disable_wal = disable_wal
        self._cf = column_family
        self._cf_db = None       # the DB whose column family ids the rep holds, if any
        self._saves: list = []   # save points: (rep length, count)
        self._closed = False
        if data is None:
            self._rep = bytearray(_HEADER)
            self._count = 0
        else:
            data = key_bytes(data)
            if len(data) < _HEADER:
                raise Corruption("Corruption: malformed WriteBatch (too small)")
            self._rep = bytearray(data)
            self._count = int.from_bytes(data[8:12], "little")

    # -- building
    def _cf_id(self, column_family):
        """The column family id for a record (None: the default family, no id in the record)."""
        cf = column_family if column_family is not None else self._cf
        if cf is None:
            return None
        if isinstance(cf, str):
            if self._db is None:
                raise InvalidArgument("Invalid argument: a column family name needs a DB-bound batch")
            cf = self._db.get_column_family(cf)
        db, _ = cf._ctx()
        if self._cf_db is None:
            self._cf_db = db
        elif self._cf_db is not db:
            raise InvalidArgument("Invalid argument: the batch already holds column families of another DB")
        cid = cf._id
        return None if cid == 0 else cid

    def _check(self):
        if self._closed:
            raise DbClosedError("write batch already closed")

    def put(self, key, value, *, column_family=None):
        if self._closed:
            self._check()
        if type(key) is not bytes:
            key = key_bytes(key)
        if type(value) is not bytes:
            value = key_bytes(value)
        rep = self._rep
        kl, vl = len(key), len(value)
        if column_family is None and self._cf is None and kl < 128:
            rep += _PUT1[kl]
        else:
            cid = self._cf_id(column_family)
            rep += b"\x01" if cid is None else b"\x05" + _varint(cid)
            rep += _varint(kl)
        rep += key
        rep += _V1[vl] if vl < 128 else _varint(vl)
        rep += value
        self._count += 1

    __setitem__ = put

    def _record(self, tag, cf_tag, column_family, *parts):
        self._check()
        parts = [key_bytes(p) for p in parts]
        cid = self._cf_id(column_family)
        rep = self._rep
        if cid is None:
            rep.append(tag)
        else:
            rep.append(cf_tag)
            rep += _varint(cid)
        for p in parts:
            rep += _varint(len(p))
            rep += p
        self._count += 1

    def delete(self, key, *, column_family=None):
        self._record(_DELETE, _CF_DELETE, column_family, key)

    __delitem__ = delete

    def single_delete(self, key, *, column_family=None):
        self._record(_SINGLE_DELETE, _CF_SINGLE_DELETE, column_family, key)

    def delete_range(self, begin, end, *, column_family=None):
        """Delete every key in [begin, end)."""
        self._record(_RANGE_DELETE, _CF_RANGE_DELETE, column_family, begin, end)

    def merge(self, key, value, *, column_family=None):
        self._record(_MERGE, _CF_MERGE, column_family, key, value)

    def put_many(self, items, *, column_family=None):
        """``put`` every ``(key, value)`` of ``items``."""
        put = self.put
        for k, v in items:
            put(k, v, column_family=column_family)

    def append(self, other: "WriteBatch"):
        """Add ``other``'s updates after this batch's."""
        self._check()
        other._check()
        if other._cf_db is not None:
            if self._cf_db is None:
                self._cf_db = other._cf_db
            elif self._cf_db is not other._cf_db:
                raise InvalidArgument("Invalid argument: the batches hold column families of different DBs")
        self._rep += other._rep[_HEADER:]
        self._count += other._count

    def clear(self):
        self._check()
        del self._rep[_HEADER:]
        self._count = 0
        self._cf_db = None
        self._saves.clear()

    def set_save_point(self):
        self._check()
        self._saves.append((len(self._rep), self._count))

    def rollback_to_save_point(self):
        """Drop every update since the last save point (and the save point)."""
        self._check()
        if not self._saves:
            from .errors import NotFound
            raise NotFound("NotFound: ")
        n, self._count = self._saves.pop()
        del self._rep[n:]

    def pop_save_point(self):
        self._check()
        if not self._saves:
            from .errors import NotFound
            raise NotFound("NotFound: ")
        self._saves.pop()

    # -- reading
    def __len__(self):
        self._check()
        return self._count

    count = __len__

    def __bool__(self):
        return True  # a batch is an object, not a container, for truthiness

    def size_in_bytes(self) -> int:
        self._check()
        return len(self._rep)

    approximate_size = size_in_bytes

    def data(self) -> bytes:
        """The batch in RocksDB's WriteBatch rep format."""
        self._check()
        rep = self._rep
        rep[8:12] = self._count.to_bytes(4, "little")
        return bytes(rep)

    def _rep_for(self, db) -> bytearray:
        """The rep with its count filled in, for writing to ``db``."""
        self._check()
        if self._cf_db is not None and self._cf_db is not db:
            raise InvalidArgument("Invalid argument: the batch holds column families of another DB")
        rep = self._rep
        rep[8:12] = self._count.to_bytes(4, "little")
        return rep

    # -- writing
    def write(self):
        if self._db is None:
            raise InvalidArgument("Invalid argument: free-standing batch: use db.write(batch)")
        self._db.write(self, sync=self._sync, disable_wal=self._disable_wal)

    def close(self):
        self._closed = True
        self._rep = bytearray(_HEADER)
        self._count = 0

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self):
        self._check()
        return self

    def __exit__(self, exc_type, exc, tb):
        # Written (or, for a transaction that raised, dropped), then emptied for reuse, as plyvel does.
        try:
            if exc_type is None or not self._transaction:
                self.write()
        finally:
            if not self._closed:
                self.clear()

    def __repr__(self):
        return f"<solistore.WriteBatch {self._count} updates{' closed' if self._closed else ''}>"
