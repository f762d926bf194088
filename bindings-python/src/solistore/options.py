# SPDX-License-Identifier: Apache-2.0
"""Options, ReadOptions, WriteOptions and BlockBasedTableOptions: keyword arguments and attributes for
every option RocksDB's C API has a setter for.

The names are the C setters' names without ``rocksdb_<object>_set_``, in lower case
(``rocksdb_options_set_WAL_ttl_seconds`` is ``wal_ttl_seconds``, ``rocksdb_writeoptions_disable_WAL`` is
``disable_wal``); the generated ``_option_table`` lists them, ``Options.names()`` returns them. A few
options whose C setter takes an object get a Python spelling (see each class).

An options object is plain Python data until used: each use builds (and caches, per loaded library) the
C object, so one ``Options`` works with libsolistore and librocksdb alike. Setting an attribute drops the
cached C objects. Reading an attribute returns what was set, else the library's default (through the C
getter, when there is one and a library can be loaded), else None. Unknown names raise TypeError
(constructor) or AttributeError (attribute); an option whose setter the library lacks raises NotSupported
when the C object is built. Settings apply in the order they were made (setting one again moves it last),
which matters for the calls that set several options at once (``increase_parallelism`` and friends).
"""

from __future__ import annotations

import os
import threading
import weakref
from ctypes import c_int, c_void_p, string_at

from ._call import key_bytes, scratch, raise_error
from ._option_table import OPTION_TABLE
from .errors import Error, InvalidArgument

__all__ = ["Options", "ReadOptions", "WriteOptions", "BlockBasedTableOptions", "COMPRESSION",
           "WAL_RECOVERY_MODES", "COMPACTION_STYLES"]

COMPRESSION = {"none": 0, "snappy": 1, "zlib": 2, "bz2": 3, "lz4": 4, "lz4hc": 5, "xpress": 6, "zstd": 7,
               "disable": 0xFF}
WAL_RECOVERY_MODES = {
    "tolerate_corrupted_tail_records": 0, "absolute_consistency": 1, "point_in_time": 2,
    "skip_any_corrupted_records": 3,
}
COMPACTION_STYLES = {"level": 0, "universal": 1, "fifo": 2, "none": 3}
_NAMED = {"compression": COMPRESSION, "bottommost_compression": COMPRESSION, "blob_compression_type": COMPRESSION,
          "wal_recovery_mode": WAL_RECOVERY_MODES, "compaction_style": COMPACTION_STYLES}

_RANGES = {"int": (-(1 << 31), (1 << 31) - 1), "uint": (0, (1 << 32) - 1), "u64": (0, (1 << 64) - 1),
           "size": (0, (1 << 64) - 1), "i64": (-(1 << 63), (1 << 63) - 1), "bool": (None, None)}


def _table(kind):
    return {name: (vtype, setter, getter) for k, name, vtype, setter, getter in OPTION_TABLE if k == kind}


class _Handle:
    """An owned C object (a ``c_void_p`` in ``h``), destroyed by ``destroy`` when this holder is collected
    or closed. ``keep`` holds the Python objects the C object points into (bound bytes, a snapshot)."""

    __slots__ = ("h", "keep", "_fin", "__weakref__")

    def __init__(self, h, destroy, keep=()):
        self.h = h
        self.keep = keep
        self._fin = weakref.finalize(self, destroy, h)

    def close(self):
        self._fin()


def _convert(name, vtype, value):
    """A Python value as the C setter takes it (raises TypeError / InvalidArgument)."""
    if vtype == "bool":
        return 1 if value else 0
    if vtype == "float":
        if not isinstance(value, (int, float)):
            raise TypeError(f"option {name!r} takes a number, not {type(value).__name__}")
        return float(value)
    if vtype == "str":
        return os.fsencode(value)
    if vtype == "bytes":
        return key_bytes(value)
    if isinstance(value, str) and name in _NAMED:
        try:
            return _NAMED[name][value.lower().replace("_compression", "")]
        except KeyError:
            raise InvalidArgument(f"Invalid argument: unknown {name} {value!r}") from None
    if not isinstance(value, int):
        if not hasattr(value, "__index__"):
            raise TypeError(f"option {name!r} takes an int, not {type(value).__name__}")
        value = value.__index__()
    value = int(value)  # True/False as 1/0
    lo, hi = _RANGES[vtype]
    if not lo <= value <= hi:
        raise InvalidArgument(f"Invalid argument: {name}={value} is out of range")
    return value


class _Base:
    _kind = ""
    _table: dict = {}
    _special: frozenset = frozenset()
    _methods: frozenset = frozenset()
    _destroy = ""
    _create = ""
    _default_cache: dict = {}
    _default_lock = threading.Lock()

    def __init__(self, **kwargs):
        object.__setattr__(self, "_values", {})
        object.__setattr__(self, "_cache", {})
        for k, v in kwargs.items():
            if k not in self._table and k not in self._special:
                raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument {k!r}")
            setattr(self, k, v)

    @classmethod
    def names(cls) -> list:
        """Every option name this class takes."""
        return sorted(set(cls._table) | cls._special)

    def __setattr__(self, name, value):
        if name not in self._table and name not in self._special:
            raise AttributeError(f"{type(self).__name__} has no option {name!r}")
        value = self._normalise(name, value)
        self._values.pop(name, None)
        if value is not None:
            self._values[name] = value
        self._cache.clear()

    def __delattr__(self, name):
        self._values.pop(name, None)
        self._cache.clear()

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if name in self._values:
            return self._values[name]
        if name in self._table or name in self._special:
            return self._library_default(name)
        raise AttributeError(f"{type(self).__name__} has no option {name!r}")

    def _normalise(self, name, value):
        if value is None or name not in self._table:
            return value
        vtype = self._table[name][0]
        c = _convert(name, vtype, value)  # validates now, not at first use
        if vtype == "bool":
            return bool(c)
        if vtype == "str":
            return os.fsdecode(c)
        return c

    def _record_call(self, name, *args):
        key = "@" + name
        self._values.pop(key, None)
        self._values[key] = args
        self._cache.clear()

    def _library_default(self, name):
        entry = self._table.get(name)
        if entry is None or entry[2] is None:
            return None
        from ._lib import get_default_library  # late: _lib does not import this module
        try:
            lib = get_default_library()
        except Exception:  # noqa: BLE001 - no library: no default to report
            return None
        key = (type(self), lib.path)
        with self._default_lock:
            h = self._default_cache.get(key)
            if h is None:
                h = self._default_cache[key] = _Handle(c_void_p(getattr(lib, self._create)()),
                                                       getattr(lib, self._destroy))
        try:
            v = getattr(lib, entry[2])(h.h)
        except Error:
            return None
        vtype = entry[0]
        return bool(v) if vtype == "bool" else v

    def copy(self, **overrides):
        new = type(self)()
        new._values.update(self._values)
        for k, v in overrides.items():
            if k not in self._table and k not in self._special:
                raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument {k!r}")
            setattr(new, k, v)
        return new

    def as_dict(self) -> dict:
        """The options set so far (not the calls such as ``increase_parallelism``)."""
        return {k: v for k, v in self._values.items() if not k.startswith("@")}

    def __eq__(self, other):
        return type(other) is type(self) and other._values == self._values

    __hash__ = None

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self.as_dict().items())
        return f"{type(self).__name__}({args})"

    def _handle(self, lib) -> _Handle:
        h = self._cache.get(lib.path)
        if h is None:
            h = self._build(lib)
            self._cache[lib.path] = h
        return h

    def _set_plain(self, lib, h, name, value):
        vtype, setter, _ = self._table[name]
        fn = getattr(lib, setter)
        if vtype == "bytes":
            fn(h, value, len(value))
        else:
            fn(h, _convert(name, vtype, value))

    def _new(self, lib):
        h = c_void_p(getattr(lib, self._create)())
        if not h.value:
            raise Error(f"{self._create} returned NULL")
        return _Handle(h, getattr(lib, self._destroy))


class BlockBasedTableOptions(_Base):
    """Block-based table options (``rocksdb_block_based_options_*``), given to
    ``Options(block_based_table_factory=...)``. Besides the C setters' names: ``bloom_bits`` (bits per key
    of a full bloom filter), ``bloom_block_based`` (True: the older block-based bloom format),
    ``block_cache_size`` (bytes of an LRU block cache; 0 disables the block cache)."""

    _kind = "block_based_options"
    _table = _table("block_based_options")
    _special = frozenset({"bloom_bits", "bloom_block_based", "block_cache_size"})
    _create = "rocksdb_block_based_options_create"
    _destroy = "rocksdb_block_based_options_destroy"

    def _normalise(self, name, value):
        if value is not None and name in ("bloom_bits", "block_cache_size") and (
                isinstance(value, bool) or not isinstance(value, (int, float))):
            raise TypeError(f"option {name!r} takes a number, not {type(value).__name__}")
        if name == "bloom_block_based" and value is not None:
            return bool(value)
        return super()._normalise(name, value)

    def _build(self, lib) -> _Handle:
        holder = self._new(lib)
        h = holder.h
        v = self._values
        for k, val in v.items():
            if k in self._table:
                self._set_plain(lib, h, k, val)
        if v.get("bloom_bits") is not None:
            make = (lib.rocksdb_filterpolicy_create_bloom if v.get("bloom_block_based")
                    else lib.rocksdb_filterpolicy_create_bloom_full)
            lib.rocksdb_block_based_options_set_filter_policy(h, make(float(v["bloom_bits"])))  # owned by h
        if v.get("block_cache_size") is not None:
            size = int(v["block_cache_size"])
            if size == 0:
                lib.rocksdb_block_based_options_set_no_block_cache(h, 1)
            else:
                cache = lib.rocksdb_cache_create_lru(size)
                lib.rocksdb_block_based_options_set_block_cache(h, cache)  # shared: ours may go
                lib.rocksdb_cache_destroy(cache)
        return holder


_TABLE_SHORTCUTS = ("bloom_bits", "block_cache_size", "block_size", "cache_index_and_filter_blocks")


class Options(_Base):
    """DB and column family options: ``Options(create_if_missing=True, write_buffer_size=64 << 20)``.

    Every ``rocksdb_options_set_*`` with a scalar or string argument is an option (``Options.names()``).
    Named values: ``compression`` / ``bottommost_compression`` / ``blob_compression_type`` (an int or
    ``"none"``, ``"snappy"``, ``"zlib"``, ``"lz4"``, ``"zstd"``...), ``wal_recovery_mode``
    (``"point_in_time"``...), ``compaction_style`` (``"level"``, ``"universal"``, ``"fifo"``).
    Object-valued options: ``merge_operator="uint64add"`` (the C API's built-in; Python callbacks are not
    offered), ``prefix_extractor`` (an int n: fixed n-byte prefixes; ``"noop"``), ``prefix_length`` (same
    as an int ``prefix_extractor``), ``block_based_table_factory`` (a :class:`BlockBasedTableOptions`),
    the shortcuts ``bloom_bits``, ``block_cache_size``, ``block_size``, ``cache_index_and_filter_blocks``
    (they amend the block-based table options), ``row_cache_size`` (bytes of an LRU row cache),
    ``compression_per_level`` (a list of compression values).
    Calls that set several options at once, applied in order with the rest: ``increase_parallelism(n)``,
    ``optimize_for_point_lookup(block_cache_mb)``, ``optimize_level_style_compaction(budget)``,
    ``optimize_universal_style_compaction(budget)``, ``prepare_for_bulk_load()``, ``enable_statistics()``,
    ``set_from_string("key=value;...")`` (RocksDB's option-string syntax).
    """

    _kind = "options"
    _table = _table("options")
    _special = frozenset({"merge_operator", "prefix_extractor", "prefix_length", "block_based_table_factory",
                          "row_cache_size", "compression_per_level"} | set(_TABLE_SHORTCUTS))
    _create = "rocksdb_options_create"
    _destroy = "rocksdb_options_destroy"

    def _normalise(self, name, value):
        if value is None:
            return None
        if name == "merge_operator" and value != "uint64add":
            raise InvalidArgument("Invalid argument: merge_operator must be 'uint64add' (Python callbacks are "
                                  "not offered)")
        if name == "prefix_length":
            name, value = "prefix_extractor", int(value)
        if name == "prefix_extractor" and not (value == "noop" or isinstance(value, int) and value > 0):
            raise InvalidArgument("Invalid argument: prefix_extractor is a prefix length (int > 0) or 'noop'")
        if name == "block_based_table_factory" and not isinstance(value, BlockBasedTableOptions):
            raise TypeError("block_based_table_factory takes a BlockBasedTableOptions")
        if name == "compression_per_level":
            return [_convert("compression", "int", c) for c in value]
        if name in ("row_cache_size", "bloom_bits", "block_cache_size", "block_size") and (
                isinstance(value, bool) or not isinstance(value, (int, float))):
            raise TypeError(f"option {name!r} takes a number")
        if name == "cache_index_and_filter_blocks":
            return bool(value)
        return super()._normalise(name, value)

    def __setattr__(self, name, value):
        if name == "prefix_length":
            name = "prefix_extractor"
        super().__setattr__(name, value)

    def __getattr__(self, name):
        if name == "prefix_length":
            v = self._values.get("prefix_extractor")
            return v if isinstance(v, int) else None
        return super().__getattr__(name)

    # calls that set several options at once
    def increase_parallelism(self, total_threads: int = 16):
        self._record_call("increase_parallelism", int(total_threads))

    def optimize_for_point_lookup(self, block_cache_size_mb: int):
        self._record_call("optimize_for_point_lookup", int(block_cache_size_mb))

    def optimize_level_style_compaction(self, memtable_memory_budget: int = 512 << 20):
        self._record_call("optimize_level_style_compaction", int(memtable_memory_budget))

    def optimize_universal_style_compaction(self, memtable_memory_budget: int = 512 << 20):
        self._record_call("optimize_universal_style_compaction", int(memtable_memory_budget))

    def prepare_for_bulk_load(self):
        self._record_call("prepare_for_bulk_load")

    def enable_statistics(self):
        self._record_call("enable_statistics")

    def set_from_string(self, text: str):
        """Apply RocksDB's option string (``"write_buffer_size=1048576;max_open_files=100"``)."""
        if not isinstance(text, str):
            raise TypeError("set_from_string takes a str")
        self._record_call("from_string", text)

    def _table_options(self):
        v = self._values
        base = v.get("block_based_table_factory")
        short = {k: v[k] for k in _TABLE_SHORTCUTS if k in v}
        if base is None and not short:
            return None
        return (base or BlockBasedTableOptions()).copy(**short)

    def _build(self, lib) -> _Handle:
        holder = self._new(lib)
        h = holder.h
        for k, val in self._values.items():
            if k in self._table:
                self._set_plain(lib, h, k, val)
            elif k.startswith("@"):
                h = self._apply_call(lib, holder, k[1:], val)
            elif k == "merge_operator":
                lib.rocksdb_options_set_uint64add_merge_operator(h)
            elif k == "prefix_extractor":
                st = (lib.rocksdb_slicetransform_create_noop() if val == "noop"
                      else lib.rocksdb_slicetransform_create_fixed_prefix(val))
                lib.rocksdb_options_set_prefix_extractor(h, st)  # owned by the options
            elif k == "row_cache_size":
                cache = lib.rocksdb_cache_create_lru(int(val))
                lib.rocksdb_options_set_row_cache(h, cache)  # shared: ours may go
                lib.rocksdb_cache_destroy(cache)
            elif k == "compression_per_level":
                arr = (c_int * len(val))(*val)
                lib.rocksdb_options_set_compression_per_level(h, arr, len(val))
        table = self._table_options()
        if table is not None:
            th = table._build(lib)
            lib.rocksdb_options_set_block_based_table_factory(h, th.h)  # copied
            th.close()
        return holder

    @staticmethod
    def _apply_call(lib, holder, name, args):
        h = holder.h
        if name != "from_string":
            getattr(lib, f"rocksdb_options_{name}")(h, *args)
            return h
        new = c_void_p(lib.rocksdb_options_create())
        err, berr, _, _ = scratch()
        lib.rocksdb_get_options_from_string(h, args[0].encode(), new, berr)
        if err.value:
            lib.rocksdb_options_destroy(new)
            raise_error(lib, err)
        # The holder now owns the new object; the old one goes.
        old = holder.h
        holder._fin.detach()
        lib.rocksdb_options_destroy(old)
        holder.h = new
        holder._fin = weakref.finalize(holder, lib.rocksdb_options_destroy, new)
        return new

    def statistics(self, lib=None):
        """The statistics text of these options' C object on ``lib`` (None when statistics are off)."""
        from ._lib import as_library  # late: _lib does not import this module
        lib = as_library(lib)
        p = lib.rocksdb_options_statistics_get_string(self._handle(lib).h)
        if not p:
            return None
        s = string_at(p).decode("utf-8", "replace")
        lib.rocksdb_free(p)
        return s


class ReadOptions(_Base):
    """Read options: every ``rocksdb_readoptions_set_*`` (``verify_checksums``, ``fill_cache``,
    ``read_tier``, ``tailing``, ``readahead_size``, ``prefix_same_as_start``, ``pin_data``,
    ``total_order_seek``, ``ignore_range_deletions``, ``deadline``, ``io_timeout``, ``async_io``...);
    ``iterate_lower_bound`` / ``iterate_upper_bound`` (bytes, kept referenced while the C object lives);
    ``snapshot`` (a Snapshot of the DB the options are used with)."""

    _kind = "readoptions"
    _table = _table("readoptions")
    _special = frozenset({"snapshot"})
    _create = "rocksdb_readoptions_create"
    _destroy = "rocksdb_readoptions_destroy"

    def _build(self, lib, snapshot_handle=None) -> _Handle:
        holder = self._new(lib)
        h = holder.h
        keep = []
        for k, val in self._values.items():
            if k in self._table:
                self._set_plain(lib, h, k, val)
                if self._table[k][0] == "bytes":
                    keep.append(val)  # the C object points into these bytes
        snap = self._values.get("snapshot")
        if snap is not None:
            sh = snapshot_handle if snapshot_handle is not None else snap._checked_handle(lib)
            lib.rocksdb_readoptions_set_snapshot(h, sh)
            keep.append(sh)
        holder.keep = keep
        return holder


class WriteOptions(_Base):
    """Write options: ``sync``, ``disable_wal``, ``ignore_missing_column_families``, ``no_slowdown``,
    ``low_pri``, ``memtable_insert_hint_per_batch``."""

    _kind = "writeoptions"
    # disable_WAL takes a C int used as a flag: a bool here.
    _table = {k: (("bool",) + v[1:] if k == "disable_wal" else v) for k, v in _table("writeoptions").items()}
    _create = "rocksdb_writeoptions_create"
    _destroy = "rocksdb_writeoptions_destroy"

    def _build(self, lib) -> _Handle:
        holder = self._new(lib)
        for k, val in self._values.items():
            self._set_plain(lib, holder.h, k, val)
        return holder
