# SPDX-License-Identifier: Apache-2.0
"""Exceptions named after RocksDB status codes.

The C API reports failures only as the text of ``Status::ToString()``, so the status code is recovered
from the fixed message prefix (``"IO error: "``, ``"Invalid argument: "``, ...). Every exception carries
``code`` (the RocksDB code name, e.g. ``"IOError"``), ``subcode`` (a known subcode text, or None) and
``message`` (the full status text as the library reported it).
"""

from __future__ import annotations

__all__ = [
    "Error", "NotFound", "Corruption", "CorruptionError", "NotSupported", "InvalidArgument", "IOError",
    "RocksIOError", "MergeInProgress", "Incomplete", "ShutdownInProgress", "TimedOut", "Aborted", "Busy",
    "Expired", "TryAgain", "CompactionTooLarge", "ColumnFamilyDropped", "DbClosedError", "error_from_message",
]


class Error(Exception):
    """Base class of every error raised by solistore (code ``"Unknown"`` when the prefix is not known)."""

    code = "Unknown"

    def __init__(self, message: str = "", subcode: str | None = None):
        super().__init__(message)
        self.message = message
        self.subcode = subcode


class NotFound(Error):
    code = "NotFound"


class Corruption(Error):
    code = "Corruption"


CorruptionError = Corruption  # plyvel's name


class NotSupported(Error):
    code = "NotSupported"


class InvalidArgument(Error, ValueError):
    code = "InvalidArgument"


class IOError(Error, OSError):  # noqa: A001 - the RocksDB name, deliberately shadowing the builtin alias
    code = "IOError"

    def __init__(self, message: str = "", subcode: str | None = None):
        Error.__init__(self, message, subcode)

    def __str__(self) -> str:
        return self.message


RocksIOError = IOError  # python-rocksdb's name


class MergeInProgress(Error):
    code = "MergeInProgress"


class Incomplete(Error):
    code = "Incomplete"


class ShutdownInProgress(Error):
    code = "ShutdownInProgress"


class TimedOut(Error, TimeoutError):
    code = "TimedOut"

    def __init__(self, message: str = "", subcode: str | None = None):
        Error.__init__(self, message, subcode)

    def __str__(self) -> str:
        return self.message


class Aborted(Error):
    code = "Aborted"


class Busy(Error):
    code = "Busy"


class Expired(Error):
    code = "Expired"


class TryAgain(Error):
    code = "TryAgain"


class CompactionTooLarge(Error):
    code = "CompactionTooLarge"


class ColumnFamilyDropped(Error):
    code = "ColumnFamilyDropped"


class DbClosedError(Error, RuntimeError):
    """The DB (or the iterator, snapshot, batch or column family) was already closed.

    Also a ``RuntimeError``, which is what plyvel raises for the same misuse."""

    code = "DbClosed"


# Status::ToString() prefixes (util/status.cc), identical in RocksDB 7.8.3 and later.
_PREFIXES = (
    ("NotFound: ", NotFound),
    ("Corruption: ", Corruption),
    ("Not implemented: ", NotSupported),
    ("Invalid argument: ", InvalidArgument),
    ("IO error: ", IOError),
    ("Merge in progress: ", MergeInProgress),
    ("Result incomplete: ", Incomplete),
    ("Shutdown in progress: ", ShutdownInProgress),
    ("Operation timed out: ", TimedOut),
    ("Operation aborted: ", Aborted),
    ("Resource busy: ", Busy),
    ("Operation expired: ", Expired),
    ("Operation failed. Try again.: ", TryAgain),
    ("Compaction too large: ", CompactionTooLarge),
    ("Column family dropped: ", ColumnFamilyDropped),
)

_SUBCODES = (
    "Timeout waiting to lock key", "Deadlock", "No space left on device", "Space limit reached",
    "Stale file handle", "Manual compaction paused", "Merge operator failed", "Memory limit reached",
    "No such file or directory", "Lock acquisition failed", "Insufficient capacity for merge operands",
)


def error_from_message(message: str) -> Error:
    """Build the exception whose class matches the status prefix of ``message``."""
    for prefix, cls in _PREFIXES:
        if message.startswith(prefix) or message == prefix.rstrip(" "):
            rest = message[len(prefix):]
            subcode = next((s for s in _SUBCODES if rest.startswith(s)), None)
            return cls(message, subcode)
    return Error(message)
