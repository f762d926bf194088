# SPDX-License-Identifier: Apache-2.0
"""solistore: RocksDB-compatible key-value storage from Python, over the C API via ctypes.

Works with libsolistore and with a real librocksdb (pass ``lib=`` or set ``SOLISTORE_LIB``); both can be
open in one process. Facades for code written against other bindings: ``solistore.compat.plyvel``
(plyvel's API) and ``solistore.rocksdict`` (rocksdict's raw mode).
"""

from ._lib import Library, LibraryNotFound, get_default_library, set_default_library
from .batch import WriteBatch
from .db import DB, ColumnFamily, destroy_db, list_column_families, repair_db
from .errors import *  # noqa: F401,F403
from .errors import __all__ as _errors_all
from .iterator import Iterator, RawIterator
from .options import (COMPACTION_STYLES, COMPRESSION, WAL_RECOVERY_MODES, BlockBasedTableOptions, Options,
                      ReadOptions, WriteOptions)
from .snapshot import Snapshot

__version__ = "0.2.0"

__all__ = [
    "DB", "ColumnFamily", "Iterator", "RawIterator", "Snapshot", "WriteBatch", "Options", "ReadOptions",
    "WriteOptions", "BlockBasedTableOptions", "Library", "LibraryNotFound", "get_default_library",
    "set_default_library", "destroy_db", "repair_db", "list_column_families", "COMPRESSION",
    "WAL_RECOVERY_MODES", "COMPACTION_STYLES", "__version__",
] + list(_errors_all)
