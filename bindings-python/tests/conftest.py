# SPDX-License-Identifier: Apache-2.0
"""Every test runs against libsolistore and against Debian's librocksdb.so.7.8 (skipped when absent).

libsolistore: SOLISTORE_LIB if set, else the in-repo build (target/release/libsolistore.so), else
$CARGO_TARGET_DIR/release/libsolistore.so. librocksdb: ROCKSDB_LIB if set, else librocksdb.so.7.8.
"""

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import solistore  # noqa: E402
from solistore import _lib  # noqa: E402

_loaded = {}


def _load(which):
    if which in _loaded:
        return _loaded[which]
    lib, why = None, None
    if which == "solistore":
        cands = _lib._candidates()
        for c in cands:
            try:
                lib = solistore.Library(c)
                break
            except OSError as e:
                why = f"{c}: {e}"
        else:
            why = why or "libsolistore not built (cargo build --release -p solistore-capi) and SOLISTORE_LIB unset"
    else:
        cands = [os.environ["ROCKSDB_LIB"]] if os.environ.get("ROCKSDB_LIB") else [
            "/usr/lib/x86_64-linux-gnu/librocksdb.so.7.8", "librocksdb.so.7.8"]
        for c in cands:
            if "/" in c and not os.path.exists(c):
                continue
            try:
                lib = solistore.Library(c)
                break
            except OSError as e:
                why = f"{c}: {e}"
        else:
            why = why or "librocksdb.so.7.8 not installed (apt-get install librocksdb7.8)"
        if lib is not None and "solistore" in os.path.realpath(lib.path):
            lib, why = None, f"{lib.path} is libsolistore, not RocksDB"
    _loaded[which] = (lib, why)
    return lib, why


LIB_NAMES = ["solistore", "rocksdb"]


@pytest.fixture(scope="session", params=LIB_NAMES)
def lib(request):
    lib, why = _load(request.param)
    if lib is None:
        pytest.skip(why)
    return lib


@pytest.fixture
def db_path(tmp_path):
    return str(tmp_path / "db")


@pytest.fixture
def db(lib, db_path):
    d = solistore.DB(db_path, create_if_missing=True, lib=lib)
    yield d
    d.close()


@pytest.fixture
def both_libs():
    s, why_s = _load("solistore")
    r, why_r = _load("rocksdb")
    if s is None or r is None:
        pytest.skip(why_s or why_r)
    return s, r


def is_solistore(lib):
    return "solistore" in os.path.realpath(lib.path)


def call_or_skip(lib, fn, *args, **kw):
    """Run fn; a function the library lacks or does not implement yet skips the test with the reason."""
    try:
        return fn(*args, **kw)
    except solistore.NotSupported as e:
        pytest.skip(f"{os.path.basename(lib.path)}: {e.message}")
