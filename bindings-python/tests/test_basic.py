# SPDX-License-Identifier: Apache-2.0
import os

import pytest

import solistore
from conftest import call_or_skip, is_solistore


def test_put_get_delete(db):
    assert db.get(b"k") is None
    assert db.get(b"k", b"dflt") == b"dflt"
    db.put(b"k", b"v")
    assert db.get(b"k") == b"v"
    assert db[b"k"] == b"v"
    assert b"k" in db and b"x" not in db
    db[b"k"] = b"v2"
    assert db[b"k"] == b"v2"
    del db[b"k"]
    with pytest.raises(KeyError):
        db[b"k"]
    db.delete(b"never-there")  # deleting a missing key is fine


def test_nul_bytes(db):
    keys = [b"\x00", b"\x00\x00", b"a\x00", b"a\x00b", b"a"]
    for i, k in enumerate(keys):
        db.put(k, b"v\x00" + bytes([i]) + b"\x00")
    for i, k in enumerate(keys):
        assert db[k] == b"v\x00" + bytes([i]) + b"\x00"
    assert [k for k, _ in db] == sorted(keys)


def test_empty_key_and_value(db):
    db.put(b"", b"")
    assert db.get(b"") == b""
    assert b"" in db
    db.put(b"x", b"")
    assert db.get(b"x") == b""
    assert list(db) == [(b"", b""), (b"x", b"")]
    db.delete(b"")
    assert db.get(b"") is None


def test_16mib_value(db):
    big = os.urandom(1 << 20) * 16
    db.put(b"big", big)
    assert db.get(b"big") == big
    assert db.multi_get([b"big"]) == [big]
    assert list(db.iterator(include_key=False)) == [big]


def test_multi_get(db):
    for i in range(100):
        db.put(b"k%03d" % i, b"v%d" % i)
    keys = [b"k005", b"nope", b"k099", b"k005", b""]
    assert db.multi_get(keys) == [b"v5", None, b"v99", b"v5", None]
    assert db.multi_get([]) == []
    assert db.multi_get(b"k%03d" % i for i in range(100)) == [b"v%d" % i for i in range(100)]


def test_buffers_accepted_str_rejected(db):
    db.put(bytearray(b"ba"), memoryview(b"mv"))
    assert db.get(b"ba") == b"mv"
    for bad in ("s", 1, None):
        with pytest.raises(TypeError):
            db.put(bad, b"v")
    with pytest.raises(TypeError):
        db.put(b"k", "v")
    with pytest.raises(TypeError):
        db.get("k")
    with pytest.raises(TypeError):
        db.delete("k")
    with pytest.raises(TypeError):
        db.multi_get([b"a", "b"])
    with pytest.raises(TypeError):
        db.iterator(start="a")
    with pytest.raises(TypeError):
        db["k"]
    with db.write_batch() as wb:
        with pytest.raises(TypeError):
            wb.put("k", b"v")


def test_delete_range(db):
    for c in b"abcdef":
        db.put(bytes([c]), b"1")
    db.delete_range(b"b", b"e")
    assert [k for k, _ in db] == [b"a", b"e", b"f"]
    db.put(b"c", b"2")
    assert db[b"c"] == b"2"


def test_merge_uint64add(lib, db_path):
    with solistore.DB(db_path, create_if_missing=True, merge_operator="uint64add", lib=lib) as db:
        one = (1).to_bytes(8, "little")
        for _ in range(5):
            db.merge(b"ctr", one)
        assert int.from_bytes(db[b"ctr"], "little") == 5
        with db.write_batch() as wb:
            wb.merge(b"ctr", (10).to_bytes(8, "little"))
        assert int.from_bytes(db[b"ctr"], "little") == 15


def test_merge_without_operator_rejected(db):
    with pytest.raises(solistore.NotSupported):
        db.merge(b"k2", b"x")
        db.get(b"k2")


def test_write_options(db):
    db.put(b"a", b"1", sync=True)
    db.put(b"b", b"2", disable_wal=True)
    db.delete(b"a", sync=True)
    assert db.get(b"a") is None and db[b"b"] == b"2"


def test_options_attributes(lib, db_path):
    o = solistore.Options(create_if_missing=True, write_buffer_size=1 << 20, compression="none",
                          wal_recovery_mode="point_in_time", bloom_bits=10, block_cache_size=8 << 20,
                          paranoid_checks=True, max_write_buffer_number=3, manual_wal_flush=False)
    assert o.create_if_missing is True and o.write_buffer_size == 1 << 20
    assert o.compression == 0 and o.wal_recovery_mode == 2 and o.bloom_bits == 10
    o.max_open_files = 100
    assert o.max_open_files == 100
    with pytest.raises(TypeError):
        solistore.Options(no_such_option=1)
    with pytest.raises(AttributeError):
        o.no_such_option = 1
    with pytest.raises(solistore.InvalidArgument):
        solistore.Options(compression="nope")
    with solistore.DB(db_path, o, lib=lib) as db:
        db.put(b"k", b"v")
        assert db[b"k"] == b"v"
    ro = solistore.ReadOptions(fill_cache=False, verify_checksums=True)
    wo = solistore.WriteOptions(sync=True, disable_wal=False)
    assert ro.fill_cache is False and wo.sync is True
    with solistore.DB(db_path, read_options=ro, write_options=wo, lib=lib) as db:
        db.put(b"k2", b"v2")
        assert db[b"k"] == b"v" and db[b"k2"] == b"v2"


def test_properties_and_maintenance(lib, db, tmp_path):
    for i in range(1000):
        db.put(b"k%04d" % i, b"v" * 100)
    assert db.get_property("rocksdb.no-such-property") is None
    n = db.get_property("rocksdb.estimate-num-keys")
    assert n is not None and int(n) > 0
    db.flush_wal(sync=True)
    db.compact_range()
    db.compact_range(b"k0100", b"k0200")
    call_or_skip(lib, db.flush)
    sizes = call_or_skip(lib, db.approximate_sizes, (b"k0000", b"k9999"), (b"x", b"y"))
    assert len(sizes) == 2 and sizes[0] >= 0
    call_or_skip(lib, db.checkpoint, tmp_path / "cp")
    with solistore.DB(tmp_path / "cp", lib=lib) as cp:
        assert cp[b"k0500"] == b"v" * 100


def test_read_only(lib, db_path):
    with solistore.DB(db_path, create_if_missing=True, lib=lib) as db:
        db.put(b"k", b"v")
    with solistore.DB(db_path, read_only=True, lib=lib) as ro:
        assert ro[b"k"] == b"v"
        with pytest.raises(solistore.NotSupported):
            ro.put(b"k", b"w")


def test_destroy_list_repair(lib, db_path):
    with solistore.DB(db_path, create_if_missing=True, lib=lib) as db:
        db.create_column_family("one")
        db.put(b"k", b"v")
    assert solistore.list_column_families(db_path, lib=lib) == ["default", "one"]
    try:
        solistore.repair_db(db_path, lib=lib)
    except solistore.NotSupported:
        assert is_solistore(lib)  # passed through from the library
    solistore.destroy_db(db_path, lib=lib)
    with pytest.raises(solistore.InvalidArgument):
        solistore.DB(db_path, lib=lib)
    solistore.destroy_db(db_path, lib=lib)  # destroying a missing DB succeeds


def test_library_info(lib):
    assert lib.path and os.path.exists(lib.path)
    assert isinstance(lib.missing, list) and lib.missing == sorted(lib.missing)
    assert solistore.Library(lib.path) is lib
    assert "rocksdb_put_cf" not in lib.missing and lib.has("rocksdb_put_cf")
    assert repr(lib).startswith("<solistore.Library")
    if lib.is_solistore:
        # libsolistore exports every function the package knows (RocksDB 11.1.2's API and the extension)
        assert lib.missing == [] and lib.has("solistore_iter_next_batch")
    else:
        # Debian's RocksDB 7.8 lacks what 11.x added and the solistore_* extensions; calling one is an
        # error, not a crash
        assert "solistore_iter_next_batch" in lib.missing
        assert "rocksdb_snapshot_get_sequence_number" in lib.missing
        with pytest.raises(solistore.NotSupported, match="not exported"):
            lib.rocksdb_snapshot_get_sequence_number(None)
    with pytest.raises(OSError):
        solistore.Library("/nonexistent/libnothing.so")


def test_default_library_choice(lib, monkeypatch, db_path):
    monkeypatch.setenv("SOLISTORE_LIB", lib.path)
    solistore.set_default_library(None)
    try:
        assert solistore.get_default_library() is lib
        with solistore.DB(db_path, create_if_missing=True) as db:  # no lib=: SOLISTORE_LIB
            assert db.lib is lib
        monkeypatch.setenv("SOLISTORE_LIB", "/nonexistent/libnothing.so")
        solistore.set_default_library(None)
        with pytest.raises(solistore.LibraryNotFound, match="SOLISTORE_LIB"):
            solistore.get_default_library()
        solistore.set_default_library(lib.path)
        assert solistore.get_default_library() is lib
    finally:
        solistore.set_default_library(None)


def test_more_point_operations(lib, db):
    db.put_many([(b"a", b"1"), (b"b", b"2"), (b"c", b"3")])
    assert db.multi_get([b"a", b"b", b"c"]) == [b"1", b"2", b"3"]
    db.single_delete(b"b")
    assert db.get(b"b") is None
    assert db.key_may_exist(b"a") is True
    may, value = db.key_may_exist(b"a", fetch=True)
    assert may is True and value in (None, b"1")
    n = db.get_property_int("rocksdb.estimate-num-keys")
    assert isinstance(n, int) and n >= 1
    assert db.get_property_int("rocksdb.no-such-property") is None
    assert db.get_property_int("rocksdb.stats") is None  # text only
    assert db.latest_sequence_number() >= 4
    try:
        db.set_options({"disable_auto_compactions": "true"})
    except solistore.NotSupported:
        assert lib.is_solistore  # rocksdb_set_options_cf is a stub in libsolistore (api-coverage.md)
    # reads with per-call options (each builds and frees its own C read options)
    for _ in range(3):
        assert db.get(b"a", fill_cache=False) == b"1"
        assert db.get(b"a", verify_checksums=True, fill_cache=True) == b"1"
        assert db.multi_get([b"a"], fill_cache=False) == [b"1"]


def test_both_libraries_in_one_process(both_libs, tmp_path):
    s, r = both_libs
    assert s.cdll._handle != r.cdll._handle
    with solistore.DB(tmp_path / "s", create_if_missing=True, lib=s) as a, \
            solistore.DB(tmp_path / "r", create_if_missing=True, lib=r) as b:
        a.put(b"k", b"from-solistore")
        b.put(b"k", b"from-rocksdb")
        assert a[b"k"] == b"from-solistore" and b[b"k"] == b"from-rocksdb"
    # a DB written by one library opens with the other
    with solistore.DB(tmp_path / "s", lib=r) as b:
        assert b[b"k"] == b"from-solistore"
    with solistore.DB(tmp_path / "r", lib=s) as a:
        assert a[b"k"] == b"from-rocksdb"
