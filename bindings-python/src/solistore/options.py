# SPDX-License-Identifier: Apache-2.0
"""Options, ReadOptions and WriteOptions: keyword arguments and attributes over the C option objects.

An options object is plain Python data until it is used: each use builds (and caches, per loaded
library) the C object, so one ``Options`` works with libsolistore and librocksdb alike. Setting an
attribute drops the cached C objects; the next use builds fresh ones. Unknown names raise TypeError
(constructor) or AttributeError (attribute); an option whose setter the library lacks raises NotSupported
when the C object is built.
"""

from __future__ import annotations

import weakref
from ctypes import c_int, c_size_t, c_ubyte, c_uint64

from .errors import InvalidArgument

__all__ = ["Options", "ReadOptions", "WriteOptions", "COMPRESSION", "WAL_RECOVERY_MODES", "SCALAR_SPECS"]

U, I, S, U64 = c_ubyte, c_int, c_size_t, c_uint64

# (kind, python name, C type, setter, getter or None)
_OPT = [
    ("create_if_missing", U), ("error_if_exists", U), ("create_missing_column_families", U),
    ("paranoid_checks", U), ("write_buffer_size", S), ("max_write_buffer_number", I),
    ("min_write_buffer_number_to_merge", I), ("max_open_files", I), ("compression", I),
    ("wal_recovery_mode", I), ("manual_wal_flush", U), ("use_fsync", I), ("max_background_jobs", I),
    ("target_file_size_base", U64), ("max_bytes_for_level_base", U64),
    ("level0_file_num_compaction_trigger", I), ("num_levels", I), ("disable_auto_compactions", I),
    ("db_write_buffer_size", S), ("max_total_wal_size", U64), ("atomic_flush", U),
    ("enable_pipelined_write", U), ("unordered_write", U), ("allow_concurrent_memtable_write", U),
    ("bytes_per_sync", U64), ("keep_log_file_num", S), ("max_log_file_size", S), ("info_log_level", I),
    ("level_compaction_dynamic_level_bytes", U), ("max_manifest_file_size", S),
]
_RO = [
    ("verify_checksums", U), ("fill_cache", U), ("total_order_seek", U), ("prefix_same_as_start", U),
    ("ignore_range_deletions", U), ("readahead_size", S), ("tailing", U), ("pin_data", U),
]
_WO = [("sync", U), ("ignore_missing_column_families", U), ("no_slowdown", U), ("low_pri", U)]

SCALAR_SPECS = (
    [("options", n, t, f"rocksdb_options_set_{n}", None) for n, t in _OPT]
    + [("read", n, t, f"rocksdb_readoptions_set_{n}", None) for n, t in _RO]
    + [("write", n, t, f"rocksdb_writeoptions_set_{n}", None) for n, t in _WO]
)

COMPRESSION = {"none": 0, "snappy": 1, "zlib": 2, "bz2": 3, "lz4": 4, "lz4hc": 5, "xpress": 6, "zstd": 7}
WAL_RECOVERY_MODES = {
    "tolerate_corrupted_tail_records": 0, "absolute_consistency": 1, "point_in_time": 2,
    "skip_any_corrupted_records": 3,
}

_BOOL_U = {n for n, t in _OPT + _RO + _WO if t is U}


class _Handle:
    """An owned C object destroyed by ``destroy(handle)`` when this holder is collected or closed."""

    __slots__ = ("h", "keep", "_fin", "__weakref__")

    def __init__(self, h, destroy, keep=()):
        self.h = h
        self.keep = keep  # Python objects the C object points into (bounds bytes, snapshots)
        self._fin = weakref.finalize(self, destroy, h)

    def close(self):
        self._fin()


class _Base:
    _names: frozenset = frozenset()
    _special: frozenset = frozenset()

    def __init__(self, **kwargs):
        object.__setattr__(self, "_values", {})
        object.__setattr__(self, "_cache", {})
        for k, v in kwargs.items():
            if k not in self._names and k not in self._special:
                raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument {k!r}")
            setattr(self, k, v)

    def __setattr__(self, name, value):
        if name not in self._names and name not in self._special:
            raise AttributeError(f"{type(self).__name__} has no option {name!r}")
        value = self._normalise(name, value)
        self._values[name] = value
        self._cache.clear()

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if name in self._names or name in self._special:
            return self._values.get(name, self._defaults.get(name))
        raise AttributeError(f"{type(self).__name__} has no option {name!r}")

    def _normalise(self, name, value):
        if name in _BOOL_U and value is not None:
            return bool(value)
        return value

    def copy(self, **overrides):
        new = type(self)(**self._values)
        for k, v in overrides.items():
            setattr(new, k, v)
        return new

    def as_dict(self) -> dict:
        return dict(self._values)

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self._values.items())
        return f"{type(self).__name__}({args})"

    def _handle(self, lib) -> _Handle:
        h = self._cache.get(id(lib))
        if h is None:
            h = self._build(lib)
            self._cache[id(lib)] = h
        return h


class Options(_Base):
    """DB and column family options: ``Options(create_if_missing=True, write_buffer_size=64 << 20)``.

    Besides the scalar options (see ``Options.names()``): ``compression`` (an int or one of
    ``COMPRESSION``'s names), ``wal_recovery_mode`` (int or name), ``merge_operator`` (``"uint64add"``),
    ``bloom_bits`` (bits per key of a block-based bloom filter), ``block_cache_size`` (bytes of an LRU
    block cache; 0 disables the block cache), ``block_size``, ``cache_index_and_filter_blocks``,
    ``prefix_length`` (fixed-prefix extractor), ``wal_dir``.
    """

    _names = frozenset(n for n, _ in _OPT)
    _special = frozenset({"merge_operator", "bloom_bits", "block_cache_size", "block_size",
                          "cache_index_and_filter_blocks", "prefix_length", "wal_dir"})
    _defaults: dict = {}

    @classmethod
    def names(cls) -> list[str]:
        return sorted(cls._names | cls._special)

    def _normalise(self, name, value):
        if name == "compression" and isinstance(value, str):
            try:
                return COMPRESSION[value.lower().replace("_compression", "")]
            except KeyError:
                raise InvalidArgument(f"Invalid argument: unknown compression {value!r}") from None
        if name == "wal_recovery_mode" and isinstance(value, str):
            try:
                return WAL_RECOVERY_MODES[value.lower()]
            except KeyError:
                raise InvalidArgument(f"Invalid argument: unknown wal_recovery_mode {value!r}") from None
        if name == "merge_operator" and value not in (None, "uint64add"):
            raise InvalidArgument("Invalid argument: merge_operator must be 'uint64add' (Python callbacks are "
                                  "not offered)")
        return super()._normalise(name, value)

    def _build(self, lib) -> _Handle:
        opt = lib.rocksdb_options_create()
        holder = _Handle(opt, lib.rocksdb_options_destroy)
        for k, v in self._values.items():
            if k in self._names and v is not None:
                getattr(lib, f"rocksdb_options_set_{k}")(opt, int(v))
        v = self._values
        if v.get("merge_operator") == "uint64add":
            lib.rocksdb_options_set_uint64add_merge_operator(opt)
        if v.get("prefix_length") is not None:
            lib.rocksdb_options_set_prefix_extractor(
                opt, lib.rocksdb_slicetransform_create_fixed_prefix(int(v["prefix_length"])))  # owned by opt
        if v.get("wal_dir") is not None:
            import os
            lib.rocksdb_options_set_wal_dir(opt, os.fsencode(v["wal_dir"]))
        table_keys = ("bloom_bits", "block_cache_size", "block_size", "cache_index_and_filter_blocks")
        if any(v.get(k) is not None for k in table_keys):
            bbo = lib.rocksdb_block_based_options_create()
            try:
                if v.get("bloom_bits") is not None:
                    lib.rocksdb_block_based_options_set_filter_policy(
                        bbo, lib.rocksdb_filterpolicy_create_bloom_full(float(v["bloom_bits"])))  # owned by bbo
                if v.get("block_cache_size") is not None:
                    size = int(v["block_cache_size"])
                    if size == 0:
                        lib.rocksdb_block_based_options_set_no_block_cache(bbo, 1)
                    else:
                        cache = lib.rocksdb_cache_create_lru(size)
                        lib.rocksdb_block_based_options_set_block_cache(bbo, cache)  # shared: ours may go
                        lib.rocksdb_cache_destroy(cache)
                if v.get("block_size") is not None:
                    lib.rocksdb_block_based_options_set_block_size(bbo, int(v["block_size"]))
                if v.get("cache_index_and_filter_blocks") is not None:
                    lib.rocksdb_block_based_options_set_cache_index_and_filter_blocks(
                        bbo, int(bool(v["cache_index_and_filter_blocks"])))
                lib.rocksdb_options_set_block_based_table_factory(opt, bbo)  # copied
            finally:
                lib.rocksdb_block_based_options_destroy(bbo)
        return holder




class ReadOptions(_Base):
    """Read options: ``verify_checksums``, ``fill_cache``, ``snapshot`` (a Snapshot), ``iterate_lower_bound``,
    ``iterate_upper_bound`` (bytes; kept referenced while the C object lives), ``total_order_seek``,
    ``prefix_same_as_start``, ``ignore_range_deletions``, ``readahead_size``, ``tailing``, ``pin_data``."""

    _names = frozenset(n for n, _ in _RO)
    _special = frozenset({"snapshot", "iterate_lower_bound", "iterate_upper_bound"})
    _defaults = {"fill_cache": True, "verify_checksums": True}

    def _normalise(self, name, value):
        if name in ("iterate_lower_bound", "iterate_upper_bound") and value is not None:
            from .db import _key
            value = _key(value)
        return super()._normalise(name, value)

    def _build(self, lib) -> _Handle:
        ro = lib.rocksdb_readoptions_create()
        v = self._values
        keep = (v.get("iterate_lower_bound"), v.get("iterate_upper_bound"), v.get("snapshot"))
        holder = _Handle(ro, lib.rocksdb_readoptions_destroy, keep)
        for k, val in v.items():
            if k in self._names and val is not None:
                getattr(lib, f"rocksdb_readoptions_set_{k}")(ro, int(val))
        if keep[0] is not None:
            lib.rocksdb_readoptions_set_iterate_lower_bound(ro, keep[0], len(keep[0]))
        if keep[1] is not None:
            lib.rocksdb_readoptions_set_iterate_upper_bound(ro, keep[1], len(keep[1]))
        if keep[2] is not None:
            lib.rocksdb_readoptions_set_snapshot(ro, keep[2]._checked_handle(lib))
        return holder


class WriteOptions(_Base):
    """Write options: ``sync``, ``disable_wal``, ``ignore_missing_column_families``, ``no_slowdown``,
    ``low_pri``."""

    _names = frozenset(n for n, _ in _WO)
    _special = frozenset({"disable_wal"})
    _defaults = {"sync": False, "disable_wal": False}

    def _build(self, lib) -> _Handle:
        wo = lib.rocksdb_writeoptions_create()
        holder = _Handle(wo, lib.rocksdb_writeoptions_destroy)
        for k, val in self._values.items():
            if k in self._names and val is not None:
                getattr(lib, f"rocksdb_writeoptions_set_{k}")(wo, int(val))
        if self._values.get("disable_wal"):
            lib.rocksdb_writeoptions_disable_WAL(wo, 1)
        return holder
