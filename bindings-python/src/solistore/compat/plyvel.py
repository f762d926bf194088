# SPDX-License-Identifier: Apache-2.0
"""plyvel's API over solistore: code written for plyvel runs unchanged.

    import solistore.compat.plyvel as plyvel
    db = plyvel.DB("/tmp/db", create_if_missing=True)

or, for code that must keep ``import plyvel``: ``solistore.compat.plyvel.install_alias()`` first.

What is plyvel's (1.5): ``DB(name, *, create_if_missing, error_if_exists, paranoid_checks,
write_buffer_size, max_open_files, lru_cache_size, block_size, block_restart_interval, max_file_size,
compression='snappy', bloom_filter_bits=0, comparator=None, comparator_name=None)``; ``get(key,
default=None, *, verify_checksums, fill_cache)``, ``put(key, value, *, sync)``, ``delete(key, *, sync)``,
``write_batch(*, transaction, sync)``, ``iterator(*, reverse, start, stop, include_start, include_stop,
prefix, include_key, include_value, verify_checksums, fill_cache)``, ``raw_iterator(...)``, ``snapshot()``,
``get_property(name)`` (bytes in, bytes out), ``compact_range(*, start, stop)``,
``approximate_size(start, stop)``, ``approximate_sizes(*ranges)``, ``prefixed_db(prefix)``, ``close()``,
``closed``, ``name``; ``repair_db``, ``destroy_db``; ``Error``, ``IOError``, ``CorruptionError``,
``IteratorInvalidError``. As plyvel: keys are bytes (``str`` raises TypeError), ``in`` raises TypeError (use
``get``), a write batch used in ``with`` is written (and emptied) when the block ends, and using a closed DB
or iterator raises RuntimeError (solistore's DbClosedError is one).

The differences: the store is RocksDB's, so property names are RocksDB's (``b"leveldb.<x>"`` is read as
``rocksdb.<x>``); ``comparator=`` (a Python callback) is not offered (NotSupported); ``compression`` may also
name RocksDB's other codecs (``"zstd"``, ``"lz4"``...); the extra keyword ``lib=`` picks the library. The
exceptions are solistore's, so ``except plyvel.Error`` also catches ``solistore.InvalidArgument`` and the
others.
"""

from __future__ import annotations

import sys

from .. import errors as _errors
from .._call import successor
from ..db import DB as _CoreDB
from ..db import destroy_db as _destroy_db
from ..db import repair_db as _repair_db
from ..errors import DbClosedError
from ..iterator import range_bounds
from ..options import BlockBasedTableOptions, Options

__all__ = ["DB", "PrefixedDB", "WriteBatch", "Snapshot", "Iterator", "RawIterator", "Error", "IOError",
           "CorruptionError", "IteratorInvalidError", "repair_db", "destroy_db", "install_alias",
           "__version__", "__leveldb_version__"]

__version__ = "1.5.1"          # the plyvel API this facade follows
__leveldb_version__ = "1.23"   # what plyvel reports for the LevelDB it wraps; a RocksDB-format store here

Error = _errors.Error
IOError = _errors.IOError  # noqa: A001 - plyvel's name
CorruptionError = _errors.Corruption


class IteratorInvalidError(Error):
    """A RawIterator method needing a current entry was called on an invalid iterator."""

    code = "IteratorInvalid"


def install_alias(*, replace: bool = False):
    """Make ``import plyvel`` return this module (unless a real plyvel is already imported)."""
    from . import install_alias as _install
    return _install(sys.modules[__name__], "plyvel", replace=replace)


def _contains_unsupported():
    raise TypeError("__contains__ is not supported ('in' and 'not in' operators)")


def _strict_bytes(name, v):
    if not isinstance(v, bytes):
        raise TypeError(f"'{name}' must be bytes, not {type(v).__name__}")
    return v


def _options(create_if_missing=False, error_if_exists=False, paranoid_checks=None, write_buffer_size=None,
             max_open_files=None, lru_cache_size=None, block_size=None, block_restart_interval=None,
             max_file_size=None, compression="snappy", bloom_filter_bits=0, comparator=None,
             comparator_name=None) -> Options:
    o = Options(create_if_missing=bool(create_if_missing), error_if_exists=bool(error_if_exists))
    if paranoid_checks is not None:
        o.paranoid_checks = paranoid_checks
    if write_buffer_size is not None:
        o.write_buffer_size = write_buffer_size
    if max_open_files is not None:
        o.max_open_files = max_open_files
    if max_file_size is not None:
        o.target_file_size_base = max_file_size
    if compression is None:
        o.compression = "none"
    else:
        if isinstance(compression, bytes):
            compression = compression.decode("utf-8")
        if not isinstance(compression, str):
            raise TypeError("'compression' must be None or a string")
        if compression.lower() not in ("snappy", "none", "zlib", "bz2", "lz4", "lz4hc", "zstd"):
            raise ValueError("'compression' must be None or 'snappy'")
        o.compression = compression
    table = BlockBasedTableOptions()
    if lru_cache_size is not None:
        table.block_cache_size = lru_cache_size
    if block_size is not None:
        table.block_size = block_size
    if block_restart_interval is not None:
        table.block_restart_interval = block_restart_interval
    if bloom_filter_bits and bloom_filter_bits > 0:
        table.bloom_bits = bloom_filter_bits
    if table.as_dict():
        o.block_based_table_factory = table
    if comparator_name is not None and not isinstance(comparator_name, bytes):
        raise TypeError("'comparator_name' must be bytes")
    if (comparator is None) != (comparator_name is None):
        raise ValueError("'comparator' and 'comparator_name' must be specified together")
    if comparator is not None:
        if not callable(comparator):
            raise TypeError("custom comparator object must be callable")
        raise _errors.NotSupported("Not implemented: custom comparators (Python callbacks) are not offered by "
                                   "solistore.compat.plyvel")
    return o


def _property_name(name: bytes) -> str:
    text = _strict_bytes("name", name).decode("utf-8")
    if text.startswith("leveldb."):
        text = "rocksdb." + text[len("leveldb."):]
    return text


class _Reads:
    """get / iterator / snapshot / prefixed_db for DB and PrefixedDB (``_core`` and ``_prefix``)."""

    _prefix = b""

    def get(self, key, default=None, *, verify_checksums=False, fill_cache=True):
        key = _strict_bytes("key", key)
        return self._core.get(self._prefix + key, default, fill_cache=None if fill_cache else False,
                              verify_checksums=True if verify_checksums else None)

    def put(self, key, value, *, sync=False):
        key = _strict_bytes("key", key)
        if value is None:
            raise TypeError("value must not be None")
        self._core.put(self._prefix + key, value, sync=True if sync else None)

    def delete(self, key, *, sync=False):
        key = _strict_bytes("key", key)
        self._core.delete(self._prefix + key, sync=True if sync else None)

    def write_batch(self, *, transaction=False, sync=False):
        self._core._check()
        return WriteBatch(self._core, self._prefix, transaction, sync)

    def __contains__(self, key):
        _contains_unsupported()

    def __iter__(self):
        self._core._check()
        return self.iterator()

    def iterator(self, *, reverse=False, start=None, stop=None, include_start=True, include_stop=False,
                 prefix=None, include_key=True, include_value=True, verify_checksums=False, fill_cache=True):
        return Iterator(self._core, self._prefix or None, reverse, start, stop, include_start, include_stop,
                        prefix, include_key, include_value, verify_checksums, fill_cache, None)

    def snapshot(self):
        return Snapshot(self._core, self._prefix or None)

    def prefixed_db(self, prefix):
        return PrefixedDB(db=self._db_obj(), prefix=self._prefix + _strict_bytes("prefix", prefix))


class DB(_Reads):
    """A database (plyvel's ``DB``); see the module docstring for the arguments."""

    def __init__(self, name, *, create_if_missing=False, error_if_exists=False, paranoid_checks=None,
                 write_buffer_size=None, max_open_files=None, lru_cache_size=None, block_size=None,
                 block_restart_interval=None, max_file_size=None, compression="snappy", bloom_filter_bits=0,
                 comparator=None, comparator_name=None, lib=None):
        self._core = None
        if not isinstance(name, (str, bytes)):
            raise TypeError("'name' arg must be a byte string or a unicode string")
        self._name = name
        opts = _options(create_if_missing, error_if_exists, paranoid_checks, write_buffer_size, max_open_files,
                        lru_cache_size, block_size, block_restart_interval, max_file_size, compression,
                        bloom_filter_bits, comparator, comparator_name)
        self._core = _CoreDB(name, opts, lib=lib)

    def _db_obj(self):
        return self

    @property
    def name(self):
        return self._name

    @property
    def closed(self) -> bool:
        return self._core is None or self._core.closed

    def close(self):
        if self._core is not None:
            self._core.close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.close()

    def __repr__(self):
        return f"<plyvel.DB with name {self._name!r}{' (closed)' if self.closed else ''} at {hex(id(self))}>"

    def raw_iterator(self, *, verify_checksums=False, fill_cache=True):
        return RawIterator(self._core, verify_checksums, fill_cache, None)

    def get_property(self, name):
        v = self._core.get_property(_property_name(name))
        return None if v is None else v.encode("utf-8")

    def compact_range(self, *, start=None, stop=None):
        if start is not None:
            _strict_bytes("start", start)
        if stop is not None:
            _strict_bytes("stop", stop)
        self._core.compact_range(start, stop)

    def approximate_size(self, start, stop):
        return self.approximate_sizes((start, stop))[0]

    def approximate_sizes(self, *ranges):
        for start, stop in ranges:
            if not isinstance(start, bytes) or not isinstance(stop, bytes):
                raise TypeError("Start and stop of range must be byte strings")
        return self._core.approximate_sizes(*ranges)


class PrefixedDB(_Reads):
    """A DB view that puts ``prefix`` in front of every key (plyvel's ``DB.prefixed_db``)."""

    def __init__(self, *, db: DB, prefix: bytes):
        self._db = db
        self._core = db._core
        self._prefix = _strict_bytes("prefix", prefix)

    def _db_obj(self):
        return self._db

    @property
    def db(self) -> DB:
        return self._db

    @property
    def prefix(self) -> bytes:
        return self._prefix

    def __repr__(self):
        return f"<plyvel.PrefixedDB with prefix {self._prefix!r} at {hex(id(self))}>"


def repair_db(name, *, paranoid_checks=None, write_buffer_size=None, max_open_files=None, lru_cache_size=None,
              block_size=None, block_restart_interval=None, max_file_size=None, compression="snappy",
              bloom_filter_bits=0, comparator=None, comparator_name=None, lib=None):
    opts = _options(False, True, paranoid_checks, write_buffer_size, max_open_files, lru_cache_size, block_size,
                    block_restart_interval, max_file_size, compression, bloom_filter_bits, comparator,
                    comparator_name)
    _repair_db(name, opts, lib=lib)


def destroy_db(name, *, lib=None):
    _destroy_db(name, lib=lib)


class WriteBatch:
    """plyvel's write batch: ``put``, ``delete``, ``clear``, ``write``, ``approximate_size``, ``append``;
    in ``with``, written when the block ends (not when a ``transaction=True`` block raises), then
    emptied."""

    def __init__(self, core, prefix, transaction, sync):
        from ..batch import WriteBatch as _CoreBatch
        self._core = core
        self._prefix = prefix or b""
        self._transaction = bool(transaction)
        self._sync = True if sync else None
        self._wb = _CoreBatch()

    def _check(self):
        self._core._check()

    def put(self, key, value):
        self._check()
        if value is None:
            raise TypeError("value must not be None")
        self._wb.put(self._prefix + _strict_bytes("key", key), value)

    def delete(self, key):
        self._check()
        self._wb.delete(self._prefix + _strict_bytes("key", key))

    def clear(self):
        self._check()
        self._wb.clear()

    def write(self):
        self._check()
        self._core.write(self._wb, sync=self._sync)

    def approximate_size(self):
        self._check()
        return self._wb.size_in_bytes()

    def append(self, source: "WriteBatch"):
        self._check()
        if not isinstance(source, WriteBatch):
            raise TypeError("append() takes a plyvel WriteBatch")
        self._wb.append(source._wb)

    def __enter__(self):
        self._check()
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self._check()
        if self._transaction and exc_type is not None:
            self.clear()
            return
        self.write()
        self.clear()


class Snapshot:
    """plyvel's snapshot: ``get``, ``iterator``, ``raw_iterator``, ``close``/``release``, ``with``."""

    def __init__(self, core, prefix):
        self._core = core
        self._prefix = prefix or b""
        self._snap = core.snapshot()

    def _check(self):
        if self._snap.closed:
            raise RuntimeError("Database or snapshot is closed")

    def close(self):
        if not self._core.closed:
            self._snap.close()

    release = close

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.close()
        return False

    def get(self, key, default=None, *, verify_checksums=False, fill_cache=True):
        self._check()
        key = _strict_bytes("key", key)
        return self._core.get(self._prefix + key, default, snapshot=self._snap,
                              fill_cache=None if fill_cache else False,
                              verify_checksums=True if verify_checksums else None)

    def __contains__(self, key):
        _contains_unsupported()

    def __iter__(self):
        return self.iterator()

    def iterator(self, *, reverse=False, start=None, stop=None, include_start=True, include_stop=False,
                 prefix=None, include_key=True, include_value=True, verify_checksums=False, fill_cache=True):
        self._check()
        return Iterator(self._core, self._prefix or None, reverse, start, stop, include_start, include_stop,
                        prefix, include_key, include_value, verify_checksums, fill_cache, self._snap)

    def raw_iterator(self, *, verify_checksums=False, fill_cache=True):
        self._check()
        return RawIterator(self._core, verify_checksums, fill_cache, self._snap)


# -- iterators ---------------------------------------------------------------------------------------

def _raw(core, lower, upper, verify_checksums, fill_cache, snapshot):
    if core.closed:
        raise RuntimeError("Database or iterator is closed")
    return core.raw_iterator(lower_bound=lower, upper_bound=upper, snapshot=snapshot,
                             fill_cache=None if fill_cache else False,
                             verify_checksums=True if verify_checksums else None)


class _Base:
    _raw = None

    def close(self):
        if self._raw is not None:
            self._raw.close()

    def _checked(self):
        r = self._raw
        if r is None or r.closed:
            raise RuntimeError("Database or iterator is closed")
        return r

    def __contains__(self, key):
        _contains_unsupported()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.close()
        return False


# Where the iterator's gap (between two entries) is. AT_BEFORE / AT_AFTER: just before / after the
# cursor's entry; AHEAD: just before ``_ahead[0]`` (entries read in advance in the direction of
# iteration), the cursor past them.
_BEFORE_START, _AFTER_STOP, _AT_BEFORE, _AT_AFTER, _AHEAD = range(5)
_FIRST_READ, _MAX_READ = 16, 2048


class Iterator(_Base):
    """plyvel's iterator: a Python iterator over a range, with ``prev()``, ``seek_to_start()``,
    ``seek_to_stop()``, ``seek(target)`` and ``close()``.

    It sits in a gap between two entries: ``next()`` returns the entry after the gap and moves past it,
    ``prev()`` the entry before it (so ``next()`` then ``prev()`` return the same entry); a reverse
    iterator swaps the two. Start, stop and prefix become the native iterate bounds. While only ``next()``
    is called, entries are read ahead in batches (one C call per batch on libsolistore); any other move
    first puts the cursor back where the gap is.
    """

    def __init__(self, core, db_prefix, reverse, start, stop, include_start, include_stop, prefix,
                 include_key, include_value, verify_checksums, fill_cache, snapshot):
        for nm, v in (("start", start), ("stop", stop), ("prefix", prefix)):
            if v is not None:
                _strict_bytes(nm, v)
        self._db_prefix = db_prefix or b""
        self._strip = len(self._db_prefix)
        if db_prefix:
            if prefix is not None:
                prefix = db_prefix + prefix
            else:
                if start is None:
                    start, include_start = db_prefix, True
                else:
                    start = db_prefix + start
                if stop is None:
                    stop, include_stop = successor(db_prefix), False
                else:
                    stop = db_prefix + stop
        lower, upper = range_bounds(start, stop, prefix, include_start, include_stop)
        self._empty = lower is not None and upper is not None and lower >= upper
        self._lower, self._upper = lower, upper
        self._raw = _raw(core, lower, upper, verify_checksums, fill_cache, snapshot)
        self._reverse = bool(reverse)
        self._include_key, self._include_value = bool(include_key), bool(include_value)
        self._state = _AFTER_STOP if self._reverse else _BEFORE_START
        self._ahead: list = []
        self._read = _FIRST_READ

    def __iter__(self):
        return self

    def _out(self, entry):
        k, v = entry
        if self._include_key:
            k = k[self._strip:] if self._strip else k
            return (k, v) if self._include_value else k
        return v if self._include_value else None

    # -- moving the gap forwards and backwards, whatever the iteration direction
    def _sync(self, raw):
        """After reading ahead, put the cursor back at the gap (on the entry next to it)."""
        if self._state != _AHEAD:
            return
        ahead, self._ahead = self._ahead, []
        self._read = _FIRST_READ
        if ahead:
            raw.seek(ahead[-1][0])  # the next entry to return; it exists: the view does not change
            self._state = _AT_AFTER if self._reverse else _AT_BEFORE
        elif raw.valid():  # the cursor already is on the entry next to the gap
            self._state = _AT_AFTER if self._reverse else _AT_BEFORE
        else:
            self._state = _BEFORE_START if self._reverse else _AFTER_STOP

    def _read_ahead(self, raw, reverse):
        got = raw.next_batch(self._read, reverse=reverse)
        self._read = min(self._read * 4, _MAX_READ)
        if not got:
            self._state = _BEFORE_START if reverse else _AFTER_STOP
            raw.status()
            raise StopIteration
        got.reverse()  # popped from the end
        self._ahead = got
        self._state = _AHEAD
        return got.pop()

    def _forward(self, raw):
        """The entry after the gap; the gap moves past it."""
        if self._state == _AHEAD and self._reverse:
            self._sync(raw)
        st = self._state
        if st == _AHEAD and self._ahead:
            return self._ahead.pop()
        if st == _AFTER_STOP or self._empty:
            raise StopIteration
        if st == _AT_AFTER:
            raw.next()
        elif st == _BEFORE_START:
            raw.seek_to_first()
        # The cursor is on the entry after the gap, or invalid.
        if not self._reverse:
            return self._read_ahead(raw, False)
        if not raw.valid():
            self._state = _AFTER_STOP
            raw.status()
            raise StopIteration
        self._state = _AT_AFTER
        return raw.item()

    def _backward(self, raw):
        """The entry before the gap; the gap moves before it."""
        if self._state == _AHEAD and not self._reverse:
            self._sync(raw)
        st = self._state
        if st == _AHEAD and self._ahead:
            return self._ahead.pop()
        if st == _BEFORE_START or self._empty:
            raise StopIteration
        if st == _AT_BEFORE:
            raw.prev()
        elif st == _AFTER_STOP:
            raw.seek_to_last()
        # The cursor is on the entry before the gap, or invalid.
        if self._reverse:
            return self._read_ahead(raw, True)
        if not raw.valid():
            self._state = _BEFORE_START
            raw.status()
            raise StopIteration
        self._state = _AT_BEFORE
        return raw.item()

    def __next__(self):
        raw = self._checked()
        entry = self._backward(raw) if self._reverse else self._forward(raw)
        return self._out(entry)

    def prev(self):
        raw = self._checked()
        entry = self._forward(raw) if self._reverse else self._backward(raw)
        return self._out(entry)

    def seek_to_start(self):
        self._checked()
        self._ahead = []
        self._read = _FIRST_READ
        self._state = _BEFORE_START

    def seek_to_stop(self):
        self._checked()
        self._ahead = []
        self._read = _FIRST_READ
        self._state = _AFTER_STOP

    def seek(self, target):
        raw = self._checked()
        target = _strict_bytes("target", target)
        if self._strip:
            target = self._db_prefix + target
        self._ahead = []
        self._read = _FIRST_READ
        if self._empty:
            self._state = _AFTER_STOP
            return
        if self._lower is not None and target < self._lower:
            target = self._lower
        if self._upper is not None and target >= self._upper:
            self._state = _AFTER_STOP
            return
        raw.seek(target)
        if raw.valid():
            self._state = _AT_BEFORE
        else:
            raw.status()
            self._state = _AFTER_STOP

    def __repr__(self):
        return f"<plyvel.Iterator at {hex(id(self))}>"


class RawIterator(_Base):
    """plyvel's raw iterator: the cursor (``valid``, ``seek_to_first``, ``seek_to_last``, ``seek``,
    ``next``, ``prev``, ``key``, ``value``, ``item``, ``close``); ``next``/``prev``/``key``/``value`` on an
    invalid iterator raise IteratorInvalidError."""

    def __init__(self, core, verify_checksums, fill_cache, snapshot):
        self._raw = _raw(core, None, None, verify_checksums, fill_cache, snapshot)

    def valid(self):
        return self._checked().valid()

    def seek_to_first(self):
        r = self._checked()
        r.seek_to_first()
        r.status()

    def seek_to_last(self):
        r = self._checked()
        r.seek_to_last()
        r.status()

    def seek(self, target):
        r = self._checked()
        r.seek(_strict_bytes("target", target))
        r.status()

    def seek_for_prev(self, target):
        r = self._checked()
        r.seek_for_prev(_strict_bytes("target", target))
        r.status()

    def _valid(self):
        r = self._checked()
        if not r.valid():
            raise IteratorInvalidError()
        return r

    def next(self):
        r = self._valid()
        r.next()
        r.status()

    def prev(self):
        r = self._valid()
        r.prev()
        r.status()

    def key(self):
        return self._valid().key()

    def value(self):
        return self._valid().value()

    def item(self):
        r = self._valid()
        return r.key(), r.value()

    def __repr__(self):
        return f"<plyvel.RawIterator at {hex(id(self))}>"


# plyvel's DB raises RuntimeError on a closed DB; solistore's DbClosedError is one.
assert issubclass(DbClosedError, RuntimeError)
