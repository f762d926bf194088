# SPDX-License-Identifier: Apache-2.0
"""rocksdict's API in raw mode, over solistore: code written for rocksdict's raw mode runs unchanged.

    from solistore.rocksdict import Rdict, Options, WriteBatch, ReadOptions, WriteOptions
    db = Rdict("/tmp/db", Options(raw_mode=True))
    db[b"k"] = b"v"

or, for code that must keep ``import rocksdict``: ``solistore.rocksdict.install_alias()`` first.

What is rocksdict's (0.3): ``Rdict(path, options=None, column_families=None, access_type=...)`` (the
directory is created; an existing DB opens with all its column families); ``get`` (a key or a list of
keys, ``default``, ``read_opt``), ``put``, ``delete``, ``[]`` (a list of keys reads them in one call),
``in``, ``key_may_exist``, ``delete_range``, ``write(WriteBatch)``, ``iter()`` (an ``RdictIter`` cursor),
``items/keys/values(backwards=False, from_key=None, read_opt=None)``, ``snapshot()``, column families
(``create_column_family``, ``get_column_family`` (an Rdict bound to it), ``get_column_family_handle``,
``drop_column_family``, ``Rdict.list_cf``), ``flush``, ``flush_wal``, ``compact_range``,
``property_value``, ``property_int_value``, ``latest_sequence_number``, ``set_options``,
``set_read_options``, ``set_write_options``, ``path``, ``close`` (flushes first), ``Rdict.destroy``,
``Rdict.repair``; ``Options`` (with its ``set_*`` methods), ``ReadOptions``, ``WriteOptions``,
``WriteBatch``, ``AccessType``, ``Snapshot``, ``Checkpoint``, ``ColumnFamily``, ``BlockBasedOptions``,
``Cache``, ``SliceTransform``, the enum-like ``DBCompressionType``, ``DBCompactionStyle``,
``DBRecoveryMode``; ``DbClosedError``. As in raw mode, keys and values are bytes: another key type raises
an error that is both rocksdict's ``KeyError`` and a ``TypeError``, another value type both
``ValueError`` and ``TypeError``.

The differences: only raw mode (``Options(raw_mode=True)``, which is also what ``Rdict(path)`` without
options gives here; rocksdict's default pickle mode needs its own comparator, a Python-side encoding this
facade does not offer: opening an Rdict with ``Options()`` raises NotSupported, while ``destroy``,
``repair`` and ``list_cf`` accept it); errors are solistore's exceptions (rocksdict raises bare
``Exception``; solistore's are subclasses of it); wide columns, SST file writers, TTL on solistore, secondary
instances on solistore and the options without a C API setter raise NotSupported; ``Options.load_latest``
returns raw-mode options without reading the OPTIONS file; closing an Rdict closes its column family views
too (rocksdict keeps the DB open until every view is gone).
"""

from __future__ import annotations

import json
import os
import sys

from .batch import WriteBatch as _CoreBatch
from .db import DB as _CoreDB
from .db import destroy_db as _destroy_db
from .db import list_column_families as _list_cf
from .db import repair_db as _repair_db
from .errors import DbClosedError, Error, NotSupported
from .options import BlockBasedTableOptions as _CoreTable
from .options import Options as _CoreOptions
from .options import ReadOptions as _CoreRead
from .options import WriteOptions as _CoreWrite

__all__ = ["Rdict", "RdictIter", "Options", "ReadOptions", "WriteOptions", "WriteBatch", "AccessType",
           "Snapshot", "Checkpoint", "ColumnFamily", "BlockBasedOptions", "Cache", "SliceTransform",
           "DBCompressionType", "DBCompactionStyle", "DBRecoveryMode", "DbClosedError", "Env", "CompactOptions",
           "FlushOptions", "install_alias"]

ROCKSDICT_CONFIG_FILE = "rocksdict-config.json"


def install_alias(*, replace: bool = False):
    """Make ``import rocksdict`` return this module (unless a real rocksdict is already imported)."""
    from .compat import install_alias as _install
    return _install(sys.modules[__name__], "rocksdict", replace=replace)


class _RawKeyError(TypeError, KeyError):
    """A key that is not bytes, in raw mode (rocksdict raises KeyError; solistore TypeError)."""


class _RawValueError(TypeError, ValueError):
    """A value that is not bytes, in raw mode (rocksdict raises ValueError; solistore TypeError)."""


def _key(k):
    if type(k) is not bytes:
        raise _RawKeyError("raw mode only support bytes")
    return k


def _value(v):
    if type(v) is not bytes:
        raise _RawValueError("raw mode only support bytes")
    return v


# -- enum-like option values --------------------------------------------------------------------------

class _Enum:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __eq__(self, other):
        return type(other) is type(self) and other.value == self.value

    def __hash__(self):
        return hash((type(self), self.value))

    def __repr__(self):
        return f"{type(self).__name__}({self.value!r})"


def _enum(name, members):
    ns = {"__slots__": ()}
    for m, v in members.items():
        ns[m] = staticmethod(lambda v=v: cls(v))  # noqa: B023 - bound below
    cls = type(name, (_Enum,), ns)
    return cls


DBCompressionType = _enum("DBCompressionType", {"none": 0, "snappy": 1, "zlib": 2, "bz2": 3, "lz4": 4,
                                                "lz4hc": 5, "zstd": 7})
DBCompactionStyle = _enum("DBCompactionStyle", {"level": 0, "universal": 1, "fifo": 2})
DBRecoveryMode = _enum("DBRecoveryMode", {"tolerate_corrupted_tail_records": 0, "absolute_consistency": 1,
                                          "point_in_time": 2, "skip_any_corrupted_record": 3})


class AccessType:
    """How an Rdict opens its DB: ``read_write()``, ``read_only(error_if_log_file_exist=False)``,
    ``secondary(secondary_path)``, ``with_ttl(duration)``."""

    __slots__ = ("kind", "arg")

    def __init__(self, kind="read_write", arg=None):
        self.kind, self.arg = kind, arg

    @staticmethod
    def read_write():
        return AccessType("read_write")

    @staticmethod
    def read_only(error_if_log_file_exist: bool = False):
        return AccessType("read_only", bool(error_if_log_file_exist))

    @staticmethod
    def secondary(secondary_path: str):
        return AccessType("secondary", os.fspath(secondary_path))

    @staticmethod
    def with_ttl(duration: int):
        return AccessType("ttl", int(duration))

    def __repr__(self):
        return f"AccessType.{self.kind}({'' if self.arg is None else repr(self.arg)})"


class Env:
    """The default environment (the only one: ``Env.mem_env()`` raises NotSupported)."""

    @staticmethod
    def mem_env():
        raise NotSupported("Not implemented: Env.mem_env")


class Cache:
    """An LRU cache of ``capacity`` bytes, for ``BlockBasedOptions.set_block_cache`` and
    ``Options.set_row_cache``."""

    def __init__(self, capacity: int):
        self.capacity = int(capacity)

    @staticmethod
    def new_hyper_clock_cache(capacity: int, estimated_entry_charge: int):
        return Cache(capacity)


class SliceTransform:
    """Prefix extractors: ``create_fixed_prefix(n)``, ``create_noop()``."""

    __slots__ = ("spec",)

    def __init__(self, spec):
        self.spec = spec

    @staticmethod
    def create_fixed_prefix(len: int):  # noqa: A002 - rocksdict's parameter name
        return SliceTransform(int(len))

    @staticmethod
    def create_noop():
        return SliceTransform("noop")

    @staticmethod
    def create_max_len_prefix(len: int):  # noqa: A002
        raise NotSupported("Not implemented: SliceTransform.create_max_len_prefix (no C API equivalent)")


# -- options ------------------------------------------------------------------------------------------

def _setters(core_cls, renames):
    """``set_<name>`` methods for every option of ``core_cls`` (rocksdict's names where they differ)."""
    table = dict(core_cls._table)
    out = {n: n for n in table}
    out.update(renames)
    return out


# rocksdict methods whose options the C API cannot set (or solistore does not offer).
_UNSUPPORTED = frozenset({
    "set_ratelimiter", "set_auto_tuned_ratelimiter", "set_memtable_factory", "set_plain_table_factory",
    "set_cuckoo_table_factory", "set_universal_compaction_options", "set_fifo_compaction_options",
    "set_db_paths", "set_compression_options", "set_max_bytes_for_level_multiplier_additional",
    "set_write_buffer_manager", "add_compact_on_deletion_collector_factory", "set_data_block_index_type",
    "set_index_type", "set_checksum_type",
})


class _SetterBase:
    _core = None
    _names: dict = {}

    def __getattr__(self, attr):
        if attr in _UNSUPPORTED:
            def unsupported(*args, **kw):
                raise NotSupported(f"Not implemented: {type(self).__name__}.{attr} (solistore.rocksdict)")
            return unsupported
        if attr.startswith("set_"):
            name = self._names.get(attr[4:])
            if name is not None:
                def setter(value, _name=name):
                    if isinstance(value, _Enum):
                        value = value.value
                    setattr(self._core, _name, value)
                setter.__name__ = attr
                return setter
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {attr!r}")


class Options(_SetterBase):
    """rocksdict's Options: ``Options(raw_mode=False)`` and method-style setters (``set_*``,
    ``create_if_missing``, ``increase_parallelism``...). ``raw_mode=True`` is the mode this facade opens
    DBs in. ``create_if_missing`` defaults to True, as in rocksdict."""

    _names = _setters(_CoreOptions, {
        "level_zero_file_num_compaction_trigger": "level0_file_num_compaction_trigger",
        "level_zero_slowdown_writes_trigger": "level0_slowdown_writes_trigger",
        "level_zero_stop_writes_trigger": "level0_stop_writes_trigger",
        "min_write_buffer_number": "min_write_buffer_number_to_merge",
        "compression_type": "compression",
    })

    def __init__(self, raw_mode: bool = False):
        self.raw_mode = bool(raw_mode)
        self._core = _CoreOptions(create_if_missing=True)

    def create_if_missing(self, create_if_missing: bool):
        self._core.create_if_missing = create_if_missing

    def create_missing_column_families(self, create_missing_cfs: bool):
        self._core.create_missing_column_families = create_missing_cfs

    def set_error_if_exists(self, enabled: bool):
        self._core.error_if_exists = enabled

    def increase_parallelism(self, parallelism: int):
        self._core.increase_parallelism(parallelism)

    def optimize_for_point_lookup(self, cache_size: int):
        self._core.optimize_for_point_lookup(cache_size)

    def optimize_level_style_compaction(self, memtable_memory_budget: int):
        self._core.optimize_level_style_compaction(memtable_memory_budget)

    def optimize_universal_style_compaction(self, memtable_memory_budget: int):
        self._core.optimize_universal_style_compaction(memtable_memory_budget)

    def prepare_for_bulk_load(self):
        self._core.prepare_for_bulk_load()

    def enable_statistics(self):
        self._core.enable_statistics()

    def get_statistics(self):
        """The statistics text (of the C options object the DB was opened with)."""
        return self._core.statistics(self._lib) if getattr(self, "_lib", None) else None

    def set_compression_type(self, t: DBCompressionType):
        self._core.compression = t.value

    def set_compression_per_level(self, level_types: list):
        self._core.compression_per_level = [t.value for t in level_types]

    def set_wal_recovery_mode(self, mode: DBRecoveryMode):
        self._core.wal_recovery_mode = mode.value

    def set_compaction_style(self, style: DBCompactionStyle):
        self._core.compaction_style = style.value

    def set_block_based_table_factory(self, factory: "BlockBasedOptions"):
        self._core.block_based_table_factory = factory._core.copy()

    def set_prefix_extractor(self, prefix_extractor: SliceTransform):
        self._core.prefix_extractor = prefix_extractor.spec

    def set_row_cache(self, cache: Cache):
        self._core.row_cache_size = cache.capacity

    def set_env(self, env: Env):
        if not isinstance(env, Env):
            raise TypeError("set_env takes an Env")  # the default environment: nothing to set

    def set_use_fsync(self, useit: bool):
        self._core.use_fsync = int(bool(useit))

    @staticmethod
    def load_latest(path, env=None, ignore_unknown_options=False, cache=None):
        """``(Options, {column family: Options})`` for the DB at ``path``, in raw mode. Unlike rocksdict the
        OPTIONS file's values are not read (the C API cannot hand them back to Python)."""
        names = _list_cf(path, _CoreOptions())
        return Options(raw_mode=True), {n: Options(raw_mode=True) for n in names}

    def _for_open(self):
        if not self.raw_mode:
            raise NotSupported("Not implemented: solistore.rocksdict supports raw mode only; use "
                               "Options(raw_mode=True)")
        return self._core


class ReadOptions(_SetterBase):
    """rocksdict's ReadOptions: ``set_iterate_lower_bound``/``upper_bound`` (bytes), ``fill_cache``,
    ``set_*`` for every C read option."""

    _names = _setters(_CoreRead, {})

    def __init__(self, raw_mode: bool = False):
        self._core = _CoreRead()

    def fill_cache(self, v: bool = True):
        self._core.fill_cache = v

    def set_iterate_lower_bound(self, key):
        self._core.iterate_lower_bound = _key(key)

    def set_iterate_upper_bound(self, key):
        self._core.iterate_upper_bound = _key(key)


class WriteOptions:
    """rocksdict's WriteOptions: the properties ``sync``, ``low_pri``, ``no_slowdown``,
    ``ignore_missing_column_families``, ``memtable_insert_hint_per_batch``; ``disable_wal(bool)``."""

    def __init__(self):
        object.__setattr__(self, "_core", _CoreWrite())

    def disable_wal(self, disable: bool):
        self._core.disable_wal = disable

    def set_sync(self, sync: bool):
        self._core.sync = sync

    def __getattr__(self, name):
        if name in ("sync", "low_pri", "no_slowdown", "ignore_missing_column_families",
                    "memtable_insert_hint_per_batch"):
            return bool(getattr(self._core, name))
        raise AttributeError(name)

    def __setattr__(self, name, value):
        if name in ("sync", "low_pri", "no_slowdown", "ignore_missing_column_families",
                    "memtable_insert_hint_per_batch"):
            setattr(self._core, name, bool(value))
        else:
            raise AttributeError(f"'WriteOptions' object has no attribute {name!r}")


class FlushOptions:
    def __init__(self):
        self.wait = True


class CompactOptions:
    """Accepted for signature compatibility; ``compact_range`` compacts with RocksDB's defaults."""

    def __init__(self):
        pass

    def set_exclusive_manual_compaction(self, v):
        pass

    def set_change_level(self, v):
        pass

    def set_target_level(self, lvl):
        pass

    def set_bottommost_level_compaction(self, lvl):
        pass


class BlockBasedOptions(_SetterBase):
    """rocksdict's BlockBasedOptions: ``set_block_size``, ``set_bloom_filter(bits, block_based)``,
    ``set_block_cache(Cache)``, ``disable_cache()``, ``set_cache_index_and_filter_blocks`` and the other
    C block-based table options."""

    _names = _setters(_CoreTable, {})

    def __init__(self):
        self._core = _CoreTable()

    def set_bloom_filter(self, bits_per_key, block_based: bool):
        self._core.bloom_bits = bits_per_key
        self._core.bloom_block_based = block_based

    def set_block_cache(self, cache: Cache):
        self._core.block_cache_size = cache.capacity

    def disable_cache(self):
        self._core.no_block_cache = True


# -- the database -------------------------------------------------------------------------------------

class ColumnFamily:
    """A column family handle (``Rdict.get_column_family_handle``), for ``WriteBatch``."""

    def __init__(self, core_cf):
        self._cf = core_cf


def _read_config(path):
    try:
        with open(os.path.join(path, ROCKSDICT_CONFIG_FILE)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


class Rdict:
    """A DB (or one of its column families) as a dict of bytes; see the module docstring."""

    def __init__(self, path, options: Options | None = None, column_families: dict | None = None,
                 access_type: AccessType | None = None, *, lib=None):
        path = os.fspath(path)
        if access_type is None:
            access_type = AccessType.read_write()
        config = _read_config(path)
        if config is not None and config.get("raw_mode") is False:
            raise NotSupported("Not implemented: this DB was written by rocksdict in its default (pickle) mode; "
                               "solistore.rocksdict reads raw mode only")
        opts = Options(raw_mode=True) if options is None else options
        core_opts = opts._for_open()
        cfs = None
        if column_families is not None:
            cfs = {}
            for name, o in column_families.items():
                cfs[name] = (o if o is not None else Options(raw_mode=True))._for_open()
            if "default" not in cfs:
                cfs["default"] = core_opts
        kw = {}
        if access_type.kind == "read_only":
            kw = {"read_only": True, "error_if_wal_file_exists": access_type.arg}
        elif access_type.kind == "secondary":
            kw = {"secondary_path": access_type.arg}
        elif access_type.kind == "ttl":
            kw = {"ttl": access_type.arg}
        if access_type.kind == "read_write":
            os.makedirs(path, exist_ok=True)
        self._db = _CoreDB(path, core_opts, column_families=cfs, lib=lib, **kw)
        opts._lib = self._db.lib
        if access_type.kind in ("read_write", "ttl"):
            try:
                with open(os.path.join(path, ROCKSDICT_CONFIG_FILE), "w") as f:
                    json.dump({"raw_mode": True, "prefix_extractors": {}}, f)
            except OSError:
                pass
        self._target = self._db
        self._access = access_type
        self._read_opt = None
        self._write_opt = None
        self._closed_view = False

    @classmethod
    def _view(cls, parent: "Rdict", cf):
        self = cls.__new__(cls)
        self._db = parent._db
        self._target = cf
        self._access = parent._access
        self._read_opt = parent._read_opt
        self._write_opt = parent._write_opt
        self._closed_view = False
        return self

    def _t(self):
        if self._closed_view:
            raise DbClosedError("DB instance already closed")
        if self._db.closed:
            raise DbClosedError("DB instance already closed")
        return self._target

    # -- configuration
    def set_dumps(self, dumps):
        """Accepted; raw mode stores bytes as they are, as in rocksdict."""

    def set_loads(self, loads):
        """Accepted; raw mode returns bytes as they are, as in rocksdict."""

    def set_read_options(self, read_opt: ReadOptions):
        self._read_opt = read_opt

    def set_write_options(self, write_opt: WriteOptions):
        self._write_opt = write_opt

    def _ro(self, read_opt):
        ro = read_opt if read_opt is not None else self._read_opt
        return None if ro is None else ro._core

    def _wkw(self, write_opt):
        wo = write_opt if write_opt is not None else self._write_opt
        if wo is None:
            return {}
        c = wo._core
        return {"sync": bool(c.sync), "disable_wal": bool(c.disable_wal)}

    # -- reads
    def _get(self, t, key, default, read_opt):
        ro = self._ro(read_opt)
        if isinstance(key, list):
            return t.multi_get([_key(k) for k in key], read_options=ro)
        v = t.get(_key(key), read_options=ro)
        return default if v is None else v

    def get(self, key, default=None, read_opt: ReadOptions | None = None):
        """The value of ``key`` (``default`` when it has none), or the list of values of a list of keys
        (None for each missing one), read in one call."""
        return self._get(self._t(), key, default, read_opt)

    def __getitem__(self, key):
        v = self.get(key)
        if v is None and not isinstance(key, list):
            raise KeyError(f"key {key} not found")
        return v

    def __contains__(self, key):
        t = self._t()
        key = _key(key)
        return t.key_may_exist(key) and t.get(key) is not None

    def key_may_exist(self, key, fetch: bool = False, read_opt: ReadOptions | None = None):
        return self._t().key_may_exist(_key(key), fetch=fetch, read_options=self._ro(read_opt))

    # -- writes
    def put(self, key, value, write_opt: WriteOptions | None = None):
        self._t().put(_key(key), _value(value), **self._wkw(write_opt))

    def __setitem__(self, key, value):
        self.put(key, value)

    def delete(self, key, write_opt: WriteOptions | None = None):
        self._t().delete(_key(key), **self._wkw(write_opt))

    def __delitem__(self, key):
        self.delete(key)

    def delete_range(self, begin, end, write_opt: WriteOptions | None = None):
        self._t().delete_range(_key(begin), _key(end), **self._wkw(write_opt))

    def write(self, write_batch: "WriteBatch", write_opt: WriteOptions | None = None):
        self._t()
        if not write_batch.raw_mode:
            raise Error("must set raw_mode=True for WriteBatch")
        self._db.write(write_batch._wb, **self._wkw(write_opt))
        write_batch._wb.clear()  # rocksdict's write consumes the batch

    # -- iteration
    def iter(self, read_opt: ReadOptions | None = None) -> "RdictIter":
        t = self._t()
        return RdictIter(t.raw_iterator(read_options=self._ro(read_opt)))

    def _range(self, include_key, include_value, backwards, from_key, read_opt, snapshot=None):
        t = self._t()
        kw = {}
        if from_key is not None:
            from_key = _key(from_key)
            if backwards:
                kw = {"stop": from_key, "include_stop": True}
            else:
                kw = {"start": from_key}
        return _Items(t.iterator(reverse=backwards, include_key=include_key, include_value=include_value,
                                 read_options=self._ro(read_opt), snapshot=snapshot, **kw))

    def items(self, backwards: bool = False, from_key=None, read_opt: ReadOptions | None = None):
        return self._range(True, True, backwards, from_key, read_opt)

    def keys(self, backwards: bool = False, from_key=None, read_opt: ReadOptions | None = None):
        return self._range(True, False, backwards, from_key, read_opt)

    def values(self, backwards: bool = False, from_key=None, read_opt: ReadOptions | None = None):
        return self._range(False, True, backwards, from_key, read_opt)

    def __iter__(self):
        return self.keys()

    def snapshot(self) -> "Snapshot":
        self._t()
        return Snapshot(self)

    # -- column families
    def create_column_family(self, name: str, options: Options | None = None) -> "Rdict":
        self._t()
        cf = self._db.create_column_family(name, (options or Options(raw_mode=True))._for_open())
        return Rdict._view(self, cf)

    def get_column_family(self, name: str) -> "Rdict":
        self._t()
        try:
            cf = self._db.get_column_family(name)
        except KeyError:
            raise Error(f"column name `{name}` does not exist, use `create_cf` to creat it") from None
        return Rdict._view(self, cf)

    def get_column_family_handle(self, name: str) -> ColumnFamily:
        self._t()
        try:
            return ColumnFamily(self._db.get_column_family(name))
        except KeyError:
            raise Error(f"column name `{name}` does not exist, use `create_cf` to creat it") from None

    def drop_column_family(self, name: str):
        self._t()
        self._db.drop_column_family(name)

    # -- maintenance
    def path(self) -> str:
        self._t()
        return self._db.name

    def set_options(self, options: dict):
        self._t().set_options(options)

    def property_value(self, name: str):
        return self._t().get_property(name)

    def property_int_value(self, name: str):
        return self._t().get_property_int(name)

    def latest_sequence_number(self) -> int:
        self._t()
        return self._db.latest_sequence_number()

    def live_files(self):
        raise NotSupported("Not implemented: Rdict.live_files")

    def compact_range(self, begin, end, compact_opt: CompactOptions | None = None):
        self._t().compact_range(None if begin is None else _key(begin), None if end is None else _key(end))

    def try_catch_up_with_primary(self):
        self._t()
        self._db.try_catch_up_with_primary()

    def cancel_all_background(self, wait: bool):
        self._t()
        self._db.cancel_all_background_work(wait)

    def flush(self, wait: bool = True):
        self._t().flush(wait)

    def flush_wal(self, sync: bool = True):
        self._t()
        self._db.flush_wal(sync)

    def ingest_external_file(self, paths, opts=None):
        raise NotSupported("Not implemented: Rdict.ingest_external_file")

    def put_entity(self, *args, **kw):
        raise NotSupported("Not implemented: wide columns (put_entity)")

    def get_entity(self, *args, **kw):
        raise NotSupported("Not implemented: wide columns (get_entity)")

    def close(self):
        """Flush the WAL and the memtable (not for read-only or secondary instances), then close: the
        whole DB for the Rdict opened on a path, only this view for a column family view."""
        if self._closed_view or self._db.closed:
            self._closed_view = True
            return
        try:
            if self._access.kind not in ("read_only", "secondary"):
                self._db.flush_wal(True)
                self._target.flush(True)
        finally:
            self._closed_view = True
            if self._target is self._db:
                self._db.close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.close()

    @staticmethod
    def destroy(path, options: Options | None = None, *, lib=None):
        """Delete the DB at ``path`` (and rocksdict's config file)."""
        try:
            os.remove(os.path.join(os.fspath(path), ROCKSDICT_CONFIG_FILE))
        except OSError:
            pass
        _destroy_db(path, (options._core if options is not None else None), lib=lib)

    @staticmethod
    def repair(path, options: Options | None = None, *, lib=None):
        _repair_db(path, (options._core if options is not None else None), lib=lib)

    @staticmethod
    def list_cf(path, options: Options | None = None, *, lib=None) -> list:
        return _list_cf(path, (options._core if options is not None else None), lib=lib)


class _Items:
    """rocksdict's RdictItems / RdictKeys / RdictValues: a one-way iterator."""

    __slots__ = ("_it", "_gen")

    def __init__(self, it):
        self._it = it
        self._gen = iter(it)

    def __iter__(self):
        return self._gen

    def __next__(self):
        return next(self._gen)


class RdictIter:
    """rocksdict's cursor: ``valid``, ``status``, ``seek_to_first``, ``seek_to_last``, ``seek``,
    ``seek_for_prev``, ``next``, ``prev``, ``key``, ``value`` (None when not valid)."""

    def __init__(self, raw):
        self._raw = raw

    def valid(self) -> bool:
        return self._raw.valid()

    def status(self):
        self._raw.status()

    def seek_to_first(self):
        self._raw.seek_to_first()

    def seek_to_last(self):
        self._raw.seek_to_last()

    def seek(self, key):
        self._raw.seek(_key(key))

    def seek_for_prev(self, key):
        self._raw.seek_for_prev(_key(key))

    def next(self):
        if self._raw.valid():  # RocksDB asserts on an invalid cursor; rocksdict's callers rely on valid()
            self._raw.next()

    def prev(self):
        if self._raw.valid():
            self._raw.prev()

    def key(self):
        return self._raw.key() if self._raw.valid() else None

    def value(self):
        return self._raw.value() if self._raw.valid() else None


class Snapshot:
    """rocksdict's snapshot: ``[]``, ``iter``, ``items``, ``keys``, ``values``; released when collected."""

    def __init__(self, rdict: Rdict):
        self._rdict = rdict
        self._snap = rdict._db.snapshot()

    def __getitem__(self, key):
        v = self._rdict._t().get(_key(key), snapshot=self._snap)
        if v is None:
            raise KeyError(f"key {key} not found")
        return v

    def get(self, key, default=None):
        v = self._rdict._t().get(_key(key), snapshot=self._snap)
        return default if v is None else v

    def iter(self, read_opt: ReadOptions | None = None) -> RdictIter:
        t = self._rdict._t()
        return RdictIter(t.raw_iterator(read_options=self._rdict._ro(read_opt), snapshot=self._snap))

    def items(self, backwards: bool = False, from_key=None, read_opt: ReadOptions | None = None):
        return self._rdict._range(True, True, backwards, from_key, read_opt, self._snap)

    def keys(self, backwards: bool = False, from_key=None, read_opt: ReadOptions | None = None):
        return self._rdict._range(True, False, backwards, from_key, read_opt, self._snap)

    def values(self, backwards: bool = False, from_key=None, read_opt: ReadOptions | None = None):
        return self._rdict._range(False, True, backwards, from_key, read_opt, self._snap)

    def close(self):
        self._snap.close()


class WriteBatch:
    """rocksdict's WriteBatch: ``put(key, value, column_family=None)``, ``delete``, ``delete_range``,
    ``[]=``, ``del []``, ``set_default_column_family``, ``len``, ``size_in_bytes``, ``is_empty``,
    ``clear``. Raw mode only (``WriteBatch(raw_mode=True)``)."""

    def __init__(self, raw_mode: bool = False):
        self.raw_mode = bool(raw_mode)
        self._wb = _CoreBatch()
        self._default_cf = None

    def _check(self):
        if not self.raw_mode:
            raise NotSupported("Not implemented: solistore.rocksdict supports raw mode only; use "
                               "WriteBatch(raw_mode=True)")

    def _cf(self, column_family):
        cf = column_family if column_family is not None else self._default_cf
        return None if cf is None else cf._cf

    def set_dumps(self, dumps):
        """Accepted; raw mode stores bytes as they are."""

    def set_default_column_family(self, column_family: ColumnFamily | None):
        self._default_cf = column_family

    def put(self, key, value, column_family: ColumnFamily | None = None):
        self._check()
        self._wb.put(_key(key), _value(value), column_family=self._cf(column_family))

    def __setitem__(self, key, value):
        self.put(key, value)

    def delete(self, key, column_family: ColumnFamily | None = None):
        self._check()
        self._wb.delete(_key(key), column_family=self._cf(column_family))

    def __delitem__(self, key):
        self.delete(key)

    def delete_range(self, begin, end, column_family: ColumnFamily | None = None):
        self._check()
        self._wb.delete_range(_key(begin), _key(end), column_family=self._cf(column_family))

    def put_entity(self, *args, **kw):
        raise NotSupported("Not implemented: wide columns (put_entity)")

    def __len__(self):
        return len(self._wb)

    def len(self) -> int:
        return len(self._wb)

    def size_in_bytes(self) -> int:
        return self._wb.size_in_bytes()

    def is_empty(self) -> bool:
        return len(self._wb) == 0

    def clear(self):
        self._wb.clear()


class Checkpoint:
    """``Checkpoint(db).create_checkpoint(path)``: a consistent copy of the DB in a new directory."""

    def __init__(self, db: Rdict):
        db._t()
        self._db = db._db

    def create_checkpoint(self, path):
        self._db.checkpoint(path)
