# SPDX-License-Identifier: Apache-2.0
import pytest

import solistore
from solistore.errors import error_from_message


def test_missing_db_without_create(lib, db_path):
    with pytest.raises(solistore.InvalidArgument) as ei:
        solistore.DB(db_path, lib=lib)
    e = ei.value
    assert isinstance(e, ValueError) and isinstance(e, solistore.Error)
    assert e.code == "InvalidArgument" and "does not exist" in e.message


def test_error_if_exists(lib, db_path):
    solistore.DB(db_path, create_if_missing=True, lib=lib).close()
    with pytest.raises(solistore.InvalidArgument, match="exists"):
        solistore.DB(db_path, error_if_exists=True, lib=lib)


def test_second_open_reports_lock(lib, db_path):
    with solistore.DB(db_path, create_if_missing=True, lib=lib):
        with pytest.raises(solistore.IOError) as ei:
            solistore.DB(db_path, lib=lib)
        assert isinstance(ei.value, OSError)
        assert ei.value.code == "IOError" and "lock" in ei.value.message.lower()


@pytest.mark.parametrize("msg,cls,code", [
    ("NotFound: ", solistore.NotFound, "NotFound"),
    ("Corruption: bad block", solistore.Corruption, "Corruption"),
    ("Not implemented: x", solistore.NotSupported, "NotSupported"),
    ("Invalid argument: x", solistore.InvalidArgument, "InvalidArgument"),
    ("IO error: No space left on device: /x", solistore.IOError, "IOError"),
    ("Operation timed out: Timeout waiting to lock key", solistore.TimedOut, "TimedOut"),
    ("Resource busy: ", solistore.Busy, "Busy"),
    ("Operation failed. Try again.: x", solistore.TryAgain, "TryAgain"),
    ("Column family dropped: ", solistore.ColumnFamilyDropped, "ColumnFamilyDropped"),
    ("something else", solistore.Error, "Unknown"),
])
def test_prefix_mapping(lib, msg, cls, code):
    e = error_from_message(msg)
    assert type(e) is cls and e.code == code and e.message == msg
    if code == "IOError":
        assert e.subcode == "No space left on device" and isinstance(e, OSError)
    if code == "TimedOut":
        assert e.subcode == "Timeout waiting to lock key" and isinstance(e, TimeoutError)


def test_errors_from_the_library_carry_code_and_message(lib, db_path):
    with solistore.DB(db_path, create_if_missing=True, lib=lib) as db:
        db.create_column_family("cf")
        with pytest.raises(solistore.InvalidArgument) as ei:
            db.create_column_family("cf")
        e = ei.value
        assert e.code == "InvalidArgument" and e.message.startswith("Invalid argument: ")
        assert str(e) == e.message and isinstance(e, ValueError)
        with pytest.raises(solistore.InvalidArgument, match="end key comes before start key"):
            db.delete_range(b"b", b"a")
    with solistore.DB(db_path, read_only=True, lib=lib) as ro:
        with pytest.raises(solistore.NotSupported) as ei:
            ro.put(b"k", b"v")
        assert ei.value.code == "NotSupported" and ei.value.message.startswith("Not implemented: ")


def test_corruption_is_reported_as_corruption(lib, tmp_path):
    path = tmp_path / "db"
    with solistore.DB(path, create_if_missing=True, lib=lib) as db:
        db.put(b"k", b"v")
    current = path / "CURRENT"
    manifest = path / current.read_text().strip()
    manifest.write_bytes(b"\x00garbage" * 64)
    with pytest.raises(solistore.Error) as ei:
        solistore.DB(path, lib=lib)
    assert isinstance(ei.value, (solistore.Corruption, solistore.IOError)), ei.value
    assert ei.value.code in ("Corruption", "IOError") and ei.value.message


def test_db_closed_error(lib, db_path):
    db = solistore.DB(db_path, create_if_missing=True, lib=lib)
    db.close()
    with pytest.raises(solistore.DbClosedError) as ei:
        db.get(b"k")
    e = ei.value
    assert isinstance(e, solistore.Error) and isinstance(e, RuntimeError)
    assert e.code == "DbClosed" and "closed" in e.message
