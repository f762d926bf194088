# SPDX-License-Identifier: Apache-2.0
import pytest

import solistore
from conftest import call_or_skip


def test_snapshot_isolation(lib, db):
    db.put(b"a", b"1")
    snap = db.snapshot()
    db.put(b"a", b"2")
    db.put(b"b", b"3")
    db.delete_range(b"a", b"b")
    assert snap.get(b"a") == b"1" and snap[b"a"] == b"1"
    assert snap.get(b"b") is None and b"b" not in snap
    assert snap.multi_get([b"a", b"b"]) == [b"1", None]
    assert db.get(b"a", snapshot=snap) == b"1"
    assert db.get(b"a") is None
    if "rocksdb_snapshot_get_sequence_number" not in lib.missing:
        assert snap.sequence_number >= 1
    snap.close()
    snap.close()  # idempotent
    with pytest.raises(solistore.DbClosedError):
        snap.get(b"a")


def test_read_options_reach_point_reads(lib, db):
    # A ReadOptions given to get / multi_get / key_may_exist is the one the C call reads with:
    # its snapshot and ignore_range_deletions (RocksDB honours both in Get), keyword overrides on top.
    db.put(b"a", b"1")
    db.put(b"b", b"2")
    snap = db.snapshot()
    db.put(b"a", b"new")
    db.delete_range(b"b", b"c")
    at_snap = solistore.ReadOptions(snapshot=snap)
    assert db.get(b"a", read_options=at_snap) == b"1"
    assert db.multi_get([b"a", b"b"], read_options=at_snap) == [b"1", b"2"]
    assert db.get(b"a", read_options=at_snap, snapshot=None) == b"1"  # None overrides nothing
    ignore = solistore.ReadOptions(ignore_range_deletions=True)
    assert db.get(b"b") is None
    assert db.get(b"b", read_options=ignore) == b"2"
    assert db.multi_get([b"a", b"b"], read_options=ignore) == [b"new", b"2"]
    assert db.key_may_exist(b"a", read_options=ignore)
    snap.close()


def test_column_families(lib, db_path):
    with solistore.DB(db_path, create_if_missing=True, lib=lib) as db:
        one = db.create_column_family("one")
        two = db.create_column_family("two")
        assert db.column_family_names() == ["default", "one", "two"]
        one[b"k"] = b"1"
        two.put(b"k", b"2")
        db[b"k"] = b"0"
        assert (db[b"k"], one[b"k"], two[b"k"]) == (b"0", b"1", b"2")
        assert one.multi_get([b"k", b"x"]) == [b"1", None]
        one.delete_range(b"a", b"z")
        assert one.get(b"k") is None
        assert db.get_column_family("two") is two
        with pytest.raises(KeyError):
            db.get_column_family("nope")
        with pytest.raises(solistore.InvalidArgument):
            db.create_column_family("one")
        with pytest.raises(solistore.InvalidArgument):
            db.drop_column_family("default")
        assert one.get_property("rocksdb.estimate-num-keys") is not None
        db.drop_column_family("one")
        with pytest.raises(solistore.DbClosedError):
            one.get(b"k")
        assert db.column_family_names() == ["default", "two"]
    assert solistore.list_column_families(db_path, lib=lib) == ["default", "two"]
    with solistore.DB(db_path, lib=lib) as db:  # opens every existing family
        assert db.get_column_family("two")[b"k"] == b"2"
    with pytest.raises(solistore.InvalidArgument, match="Column famil"):
        solistore.DB(db_path, column_families=["default"], lib=lib)
    with solistore.DB(db_path, column_families={"two": None, "three": solistore.Options()},
                      create_missing_column_families=True, lib=lib) as db:
        assert db.column_family_names() == ["default", "two", "three"]
        three = db.get_column_family("three")
        three[b"x"] = b"y"
        assert three.id > 0
        call_or_skip(lib, three.flush)


def test_column_family_after_close(db):
    cf = db.create_column_family("cf")
    db.close()
    assert cf.closed
    with pytest.raises(solistore.DbClosedError):
        cf.put(b"k", b"v")
