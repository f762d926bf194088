# SPDX-License-Identifier: Apache-2.0
"""Every test runs against libsolistore and against Debian's librocksdb.so.7.8.

libsolistore: SOLISTORE_LIB if set, else the in-repo build (target/release/libsolistore.so), else
$CARGO_TARGET_DIR/release/libsolistore.so. librocksdb: ROCKSDB_LIB if set, else librocksdb.so.7.8.
A missing library skips its half of the tests, except librocksdb when SOLISTORE_REQUIRE_ROCKSDB=1 (CI):
then its tests fail. The ``iteration`` fixture runs a test twice on libsolistore: through the
solistore_iter_next_batch export and through the plain cursor calls a real librocksdb gets.
"""

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import solistore  # noqa: E402
from solistore import _lib  # noqa: E402

_loaded = {}
REQUIRE_ROCKSDB = os.environ.get("SOLISTORE_REQUIRE_ROCKSDB") == "1"


def _load(which):
    if which in _loaded:
        return _loaded[which]
    lib, why = None, None
    if which == "solistore":
        for c in _lib._candidates():
            try:
                lib = solistore.Library(c)
                break
            except OSError as e:
                why = f"{c}: {e}"
        else:
            why = why or "libsolistore not built (cargo build --release -p solistore-capi) and SOLISTORE_LIB unset"
        if lib is not None and not lib.is_solistore:
            lib, why = None, f"{lib.path} is not libsolistore (it lacks the solistore_* exports)"
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
        if lib is not None and lib.is_solistore:
            lib, why = None, f"{lib.path} is libsolistore, not RocksDB"
    _loaded[which] = (lib, why)
    return lib, why


def _get(which):
    lib, why = _load(which)
    if lib is None:
        if which == "rocksdb" and REQUIRE_ROCKSDB:
            pytest.fail(f"SOLISTORE_REQUIRE_ROCKSDB=1 but {why}")
        pytest.skip(why)
    return lib


LIB_NAMES = ["solistore", "rocksdb"]


@pytest.fixture(scope="session", params=LIB_NAMES)
def lib(request):
    return _get(request.param)


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
    return _get("solistore"), _get("rocksdb")


@pytest.fixture(params=["batch", "cursor"])
def iteration(request, lib, monkeypatch):
    """``"batch"`` or ``"cursor"``: the way iterators copy entries (the cursor variant hides the
    solistore_iter_next_batch export from the package; on librocksdb, which lacks it, only "cursor")."""
    has = lib.has("solistore_iter_next_batch")
    if request.param == "batch" and not has:
        pytest.skip(f"{os.path.basename(lib.path)} has no batch iteration export")
    if request.param == "cursor" and has:
        monkeypatch.setattr(lib, "_missing", lib._missing | {"solistore_iter_next_batch"})
    return request.param


def is_solistore(lib):
    return lib.is_solistore


def call_or_skip(lib, fn, *args, **kw):
    """Run fn; a function librocksdb 7.8 lacks (NotSupported from the missing-symbol stub) skips the test.
    On libsolistore a NotSupported is a failure: every function the package calls must work there."""
    try:
        return fn(*args, **kw)
    except solistore.NotSupported as e:
        if lib.is_solistore:
            raise
        pytest.skip(f"{os.path.basename(lib.path)}: {e.message}")
