# SPDX-License-Identifier: Apache-2.0
"""Loading the shared library (libsolistore or a real librocksdb) and the prototype table.

Every C function the package calls is listed in ``_PROTOTYPES`` with its ``restype`` and ``argtypes``, so
no pointer is ever truncated to a C ``int``. Functions the loaded library does not export are recorded in
``Library.missing``; calling one raises :class:`NotSupported` instead of crashing. The option setters come
from the generated ``_option_table``.

``Library.fast`` holds second, untyped function objects for the hottest calls (get, put, delete, free and
the iterator cursor): without ``argtypes`` a ctypes call costs about half as much. They are only ever called
with ``c_void_p`` (or other ctypes pointer) objects, ``bytes``, and Python ints below 2**31 in the first six
argument positions. An untyped Python int is passed as a C ``int``: on x86-64 libffi sign-extends it to
64 bits in the six argument registers, but writes only 4 of the 8 bytes of a stack slot, so an integer
argument from the seventh on is passed as a ``c_size_t`` object. Callers use the typed functions
otherwise.

``solistore_*`` functions are optional extensions (``capi/src/solistore_ext.rs``): ``Library.has(name)``
tells whether the library exports one, and the package falls back to plain ``rocksdb_*`` calls without it,
so a real librocksdb works unchanged.

Choice of the default library, first match wins:

1. ``set_default_library(...)`` (a ``lib=`` argument always wins for that call);
2. ``SOLISTORE_LIB``: a path, or a soname such as ``librocksdb.so.7.8``;
3. the in-repo build: ``target/release/libsolistore.so`` in the checkout the package source lives in;
4. ``$CARGO_TARGET_DIR/release/libsolistore.so``;
5. ``ctypes.util.find_library("solistore")``.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import threading
from ctypes import (POINTER, c_char, c_char_p, c_double, c_int, c_int64, c_size_t, c_ubyte, c_uint, c_uint32,
                    c_uint64, c_void_p)
from pathlib import Path

from .errors import NotSupported

__all__ = ["Library", "get_default_library", "set_default_library", "LibraryNotFound"]

P = c_void_p           # opaque handles, and malloc'd results we copy then free
B = c_char_p           # input bytes / C strings (zero-copy for bytes)
S = c_size_t
E = POINTER(c_void_p)  # char** errptr
PS = POINTER(c_size_t)
PP = POINTER(c_void_p)
PB = POINTER(c_char_p)
PC = POINTER(c_char)  # borrowed binary data, copied by slicing
U = c_ubyte
I = c_int
U64 = c_uint64

# name: (restype, argtypes)
_PROTOTYPES: dict[str, tuple] = {
    "rocksdb_free": (None, [P]),
    # open / close / maintenance
    "rocksdb_open": (P, [P, B, E]),
    "rocksdb_open_column_families": (P, [P, B, I, PB, PP, PP, E]),
    "rocksdb_open_for_read_only_column_families": (P, [P, B, I, PB, PP, PP, U, E]),
    "rocksdb_close": (None, [P]),
    "rocksdb_destroy_db": (None, [P, B, E]),
    "rocksdb_repair_db": (None, [P, B, E]),
    "rocksdb_list_column_families": (PB, [P, B, PS, E]),
    "rocksdb_list_column_families_destroy": (None, [PB, S]),
    "rocksdb_create_column_family": (P, [P, P, B, E]),
    "rocksdb_drop_column_family": (None, [P, P, E]),
    "rocksdb_column_family_handle_destroy": (None, [P]),
    "rocksdb_column_family_handle_get_id": (c_uint32, [P]),
    "rocksdb_property_value_cf": (P, [P, P, B]),
    "rocksdb_flush_cf": (None, [P, P, P, E]),
    "rocksdb_flush_wal": (None, [P, U, E]),
    "rocksdb_compact_range_cf": (None, [P, P, B, S, B, S]),
    "rocksdb_approximate_sizes_cf": (None, [P, P, I, PB, PS, PB, PS, POINTER(c_uint64), E]),
    "rocksdb_checkpoint_object_create": (P, [P, E]),
    "rocksdb_checkpoint_create": (None, [P, B, U64, E]),
    "rocksdb_checkpoint_object_destroy": (None, [P]),
    "rocksdb_get_latest_sequence_number": (U64, [P]),
    # point operations
    "rocksdb_put": (None, [P, P, B, S, B, S, E]),
    "rocksdb_delete": (None, [P, P, B, S, E]),
    "rocksdb_get": (P, [P, P, B, S, PS, E]),
    "rocksdb_put_cf": (None, [P, P, P, B, S, B, S, E]),
    "rocksdb_delete_cf": (None, [P, P, P, B, S, E]),
    "rocksdb_delete_range_cf": (None, [P, P, P, B, S, B, S, E]),
    "rocksdb_merge_cf": (None, [P, P, P, B, S, B, S, E]),
    "rocksdb_get_cf": (P, [P, P, P, B, S, PS, E]),
    # keys, key lengths: arrays built by multi_get; values: an array of POINTER(c_char)
    "rocksdb_multi_get_cf": (None, [P, P, PP, S, P, P, P, PS, PP]),
    "rocksdb_write": (None, [P, P, P, E]),
    # write batches
    "rocksdb_writebatch_create": (P, []),
    "rocksdb_writebatch_create_from": (P, [B, S]),
    "rocksdb_writebatch_destroy": (None, [P]),
    "rocksdb_writebatch_clear": (None, [P]),
    "rocksdb_writebatch_count": (I, [P]),
    "rocksdb_writebatch_data": (P, [P, PS]),
    "rocksdb_writebatch_put_cf": (None, [P, P, B, S, B, S]),
    "rocksdb_writebatch_delete_cf": (None, [P, P, B, S]),
    "rocksdb_writebatch_delete_range_cf": (None, [P, P, B, S, B, S]),
    "rocksdb_writebatch_merge_cf": (None, [P, P, B, S, B, S]),
    "rocksdb_writebatch_put": (None, [P, B, S, B, S]),
    "rocksdb_writebatch_delete": (None, [P, B, S]),
    "rocksdb_writebatch_delete_range": (None, [P, B, S, B, S]),
    "rocksdb_writebatch_merge": (None, [P, B, S, B, S]),
    # snapshots
    "rocksdb_create_snapshot": (P, [P]),
    "rocksdb_release_snapshot": (None, [P, P]),
    "rocksdb_snapshot_get_sequence_number": (U64, [P]),
    # iterators
    "rocksdb_create_iterator_cf": (P, [P, P, P]),
    "rocksdb_iter_destroy": (None, [P]),
    "rocksdb_iter_valid": (U, [P]),
    "rocksdb_iter_seek_to_first": (None, [P]),
    "rocksdb_iter_seek_to_last": (None, [P]),
    "rocksdb_iter_seek": (None, [P, B, S]),
    "rocksdb_iter_seek_for_prev": (None, [P, B, S]),
    "rocksdb_iter_next": (None, [P]),
    "rocksdb_iter_prev": (None, [P]),
    "rocksdb_iter_key": (PC, [P, PS]),  # sliced: p[:n] copies faster than string_at
    "rocksdb_iter_value": (PC, [P, PS]),
    "rocksdb_iter_get_error": (None, [P, E]),
    # options
    "rocksdb_options_create": (P, []),
    "rocksdb_options_destroy": (None, [P]),
    "rocksdb_options_set_block_based_table_factory": (None, [P, P]),
    "rocksdb_options_set_uint64add_merge_operator": (None, [P]),
    "rocksdb_options_set_prefix_extractor": (None, [P, P]),
    "rocksdb_slicetransform_create_fixed_prefix": (P, [S]),
    "rocksdb_block_based_options_create": (P, []),
    "rocksdb_block_based_options_destroy": (None, [P]),
    "rocksdb_block_based_options_set_filter_policy": (None, [P, P]),
    "rocksdb_block_based_options_set_block_cache": (None, [P, P]),
    "rocksdb_block_based_options_set_block_size": (None, [P, S]),
    "rocksdb_block_based_options_set_cache_index_and_filter_blocks": (None, [P, U]),
    "rocksdb_block_based_options_set_no_block_cache": (None, [P, U]),
    "rocksdb_filterpolicy_create_bloom": (P, [c_double]),
    "rocksdb_filterpolicy_create_bloom_full": (P, [c_double]),
    "rocksdb_cache_create_lru": (P, [S]),
    "rocksdb_cache_destroy": (None, [P]),
    "rocksdb_readoptions_create": (P, []),
    "rocksdb_readoptions_destroy": (None, [P]),
    "rocksdb_readoptions_set_snapshot": (None, [P, P]),
    "rocksdb_readoptions_set_iterate_lower_bound": (None, [P, B, S]),
    "rocksdb_readoptions_set_iterate_upper_bound": (None, [P, B, S]),
    "rocksdb_writeoptions_create": (P, []),
    "rocksdb_writeoptions_destroy": (None, [P]),
    "rocksdb_writeoptions_disable_WAL": (None, [P, I]),
    "rocksdb_flushoptions_create": (P, []),
    "rocksdb_flushoptions_destroy": (None, [P]),
    "rocksdb_flushoptions_set_wait": (None, [P, U]),
    # further DB calls
    "rocksdb_singledelete_cf": (None, [P, P, P, B, S, E]),
    "rocksdb_property_int_cf": (I, [P, P, B, POINTER(c_uint64)]),
    "rocksdb_key_may_exist_cf": (U, [P, P, P, B, S, PP, PS, B, S, POINTER(U)]),
    "rocksdb_open_as_secondary_column_families": (P, [P, B, B, I, PB, PP, PP, E]),
    "rocksdb_open_column_families_with_ttl": (P, [P, B, I, PB, PP, PP, POINTER(c_int), E]),
    "rocksdb_try_catch_up_with_primary": (None, [P, E]),
    "rocksdb_set_options_cf": (None, [P, P, I, PB, PB, E]),
    "rocksdb_cancel_all_background_work": (None, [P, U]),
    "rocksdb_column_family_handle_get_name": (P, [P, PS]),
    # options that are not a plain setter
    "rocksdb_options_create_copy": (P, [P]),
    "rocksdb_get_options_from_string": (None, [P, B, P, E]),
    "rocksdb_options_increase_parallelism": (None, [P, I]),
    "rocksdb_options_optimize_for_point_lookup": (None, [P, U64]),
    "rocksdb_options_optimize_level_style_compaction": (None, [P, U64]),
    "rocksdb_options_optimize_universal_style_compaction": (None, [P, U64]),
    "rocksdb_options_prepare_for_bulk_load": (None, [P]),
    "rocksdb_options_enable_statistics": (None, [P]),
    "rocksdb_options_statistics_get_string": (P, [P]),
    "rocksdb_options_set_compression_per_level": (None, [P, POINTER(c_int), S]),
    "rocksdb_options_set_row_cache": (None, [P, P]),
    "rocksdb_slicetransform_create_noop": (P, []),
    # solistore extensions (optional; see capi/src/solistore_ext.rs)
    "solistore_iter_next_batch": (S, [P, c_uint, S, P, S, POINTER(c_uint64), PS, E]),
}

# Untyped twins of the hottest functions (see the module docstring): name -> restype.
_FAST = {
    "rocksdb_get": PC, "rocksdb_put": None, "rocksdb_delete": None,
    "rocksdb_get_cf": PC, "rocksdb_put_cf": None, "rocksdb_delete_cf": None, "rocksdb_free": None,
    "rocksdb_iter_valid": U, "rocksdb_iter_next": None, "rocksdb_iter_prev": None,
    "rocksdb_iter_key": PC, "rocksdb_iter_value": PC, "solistore_iter_next_batch": S,
}

_CTYPES = {"bool": U, "int": I, "uint": c_uint32, "u64": U64, "size": S, "float": c_double, "i64": c_int64,
           "str": B}


def _add_option_accessors() -> None:
    """Prototypes of every option setter and getter in the generated table."""
    from ._option_table import OPTION_TABLE

    for _kind, _name, vtype, setter, getter in OPTION_TABLE:
        if vtype == "bytes":
            _PROTOTYPES[setter] = (None, [P, B, S])
            continue
        ct = _CTYPES[vtype]
        _PROTOTYPES.setdefault(setter, (None, [P, ct]))
        if getter:
            _PROTOTYPES.setdefault(getter, (P if vtype == "str" else ct, [P]))


_add_option_accessors()


class LibraryNotFound(ImportError):
    """No shared library could be found; set SOLISTORE_LIB or pass lib=."""


def _missing_stub(name: str, path: str):
    def stub(*_args, **_kw):
        raise NotSupported(f"Not implemented: {name} is not exported by {path}")

    stub.__name__ = name
    return stub


class Library:
    """A loaded libsolistore or librocksdb, with prototypes applied.

    ``Library(path_or_soname)`` returns the same object for the same argument. ``path`` is what was
    loaded, ``missing`` the sorted names of the functions in the prototype table that it does not export,
    ``is_solistore`` whether it exports ``solistore_*`` extensions or calls itself solistore.
    """

    _cache: dict[str, "Library"] = {}
    _cache_lock = threading.Lock()

    def __new__(cls, path: str | os.PathLike):
        key = os.fspath(path)
        with cls._cache_lock:
            lib = cls._cache.get(key)
            if lib is None:
                lib = super().__new__(cls)
                lib._load(key)
                cls._cache[key] = lib
            return lib

    def _load(self, path: str) -> None:
        self.path = path
        # RTLD_LOCAL (the default): two libraries exporting the same rocksdb_* names stay isolated.
        self.cdll = ctypes.CDLL(path)
        missing = []
        for name, (restype, argtypes) in _PROTOTYPES.items():
            try:
                fn = getattr(self.cdll, name)
            except AttributeError:
                missing.append(name)
                setattr(self, name, _missing_stub(name, path))
                continue
            fn.restype = restype
            fn.argtypes = argtypes
            setattr(self, name, fn)
        self.missing = sorted(missing)
        self._missing = frozenset(missing)
        self.fast = _Fast(self.cdll, self._missing)
        # libsolistore exports solistore_* extensions; a real librocksdb does not.
        self.is_solistore = "solistore_iter_next_batch" not in self._missing

    def has(self, name: str) -> bool:
        """Whether the library exports ``name`` (a function of the prototype table)."""
        return name not in self._missing

    def __repr__(self) -> str:
        return f"<solistore.Library {self.path!r} ({len(self.missing)} missing)>"


class _Fast:
    """Untyped function objects for the hot paths (attributes without the ``rocksdb_`` prefix:
    ``fast.get_cf``, ``fast.iter_next``...); None where the library lacks the function."""

    def __init__(self, cdll, missing):
        for name, restype in _FAST.items():
            short = name.split("_", 1)[1]
            if name in missing:
                setattr(self, short, None)
                continue
            fn = cdll[name]  # a new function object, independent of the typed one
            fn.restype = restype
            setattr(self, short, fn)


_default: Library | None = None
_default_lock = threading.Lock()


def _candidates() -> list[str]:
    out = []
    env = os.environ.get("SOLISTORE_LIB")
    if env:
        out.append(env)
    here = Path(__file__).resolve().parent
    # src/solistore -> bindings-python/src -> bindings-python -> repository root
    for up in (here.parents[1], here.parents[2]):
        cand = up / "target" / "release" / "libsolistore.so"
        if cand.exists():
            out.append(str(cand))
    tdir = os.environ.get("CARGO_TARGET_DIR")
    if tdir:
        cand = Path(tdir) / "release" / "libsolistore.so"
        if cand.exists():
            out.append(str(cand))
    found = ctypes.util.find_library("solistore")
    if found:
        out.append(found)
    return out


def set_default_library(lib: Library | str | os.PathLike | None) -> None:
    """Make ``lib`` the library used when no ``lib=`` argument is given (None: resolve again)."""
    global _default
    with _default_lock:
        _default = None if lib is None else as_library(lib)


def get_default_library() -> Library:
    global _default
    with _default_lock:
        if _default is None:
            errors = []
            for cand in _candidates():
                try:
                    _default = Library(cand)
                    break
                except OSError as e:
                    if cand == os.environ.get("SOLISTORE_LIB"):
                        raise LibraryNotFound(f"SOLISTORE_LIB={cand!r} cannot be loaded: {e}") from e
                    errors.append(f"{cand}: {e}")
            else:
                raise LibraryNotFound(
                    "no libsolistore found: build it with `cargo build --release -p solistore-capi` or set "
                    "SOLISTORE_LIB to a path or soname (e.g. librocksdb.so.7.8)" + "".join("; " + x for x in errors))
        return _default


def as_library(lib) -> Library:
    if lib is None:
        return get_default_library()
    if isinstance(lib, Library):
        return lib
    return Library(lib)
