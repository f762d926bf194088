# SPDX-License-Identifier: Apache-2.0
"""solistore: RocksDB-compatible key-value storage from Python, over the C API via ctypes.

Works with libsolistore and with a real librocksdb (pass ``lib=`` or set ``SOLISTORE_LIB``).
"""

from ._lib import Library, LibraryNotFound, get_default_library, set_default_library
from .db import (DB, ColumnFamily, Iterator, RawIterator, Snapshot, WriteBatch, destroy_db,
                 list_column_families, repair_db)
from .errors import *  # noqa: F401,F403
from .errors import __all__ as _errors_all
from .options import COMPRESSION, WAL_RECOVERY_MODES, Options, ReadOptions, WriteOptions

__version__ = "0.1.0"

__all__ = [
    "DB", "ColumnFamily", "Iterator", "RawIterator", "Snapshot", "WriteBatch", "Options", "ReadOptions",
    "WriteOptions", "Library", "LibraryNotFound", "get_default_library", "set_default_library", "destroy_db",
    "repair_db", "list_column_families", "COMPRESSION", "WAL_RECOVERY_MODES", "__version__",
] + list(_errors_all)
