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
