# SPDX-License-Identifier: Apache-2.0
"""solistore.rocksdict, exercised the way rocksdict raw-mode users write code."""

import json
import os
import sys

import pytest

import solistore
from solistore.rocksdict import (AccessType, BlockBasedOptions, Cache, Checkpoint, DBCompactionStyle,
                                 DBCompressionType, DBRecoveryMode, DbClosedError, Options, Rdict, ReadOptions,
                                 SliceTransform, WriteBatch, WriteOptions)


def raw_options():
    opt = Options(raw_mode=True)
    opt.create_if_missing(True)
    return opt


@pytest.fixture
def rdb(lib, db_path):
    db = Rdict(db_path, raw_options(), lib=lib)
    yield db
    db.close()


def test_dict_interface(rdb):
    rdb[b"a"] = b"1"
    rdb.put(b"b", b"2")
    rdb.put(b"c", b"3", WriteOptions())
    assert rdb[b"a"] == b"1" and rdb.get(b"b") == b"2"
    assert rdb.get(b"zz") is None and rdb.get(b"zz", b"dflt") == b"dflt"
    assert b"a" in rdb and b"zz" not in rdb
    with pytest.raises(KeyError):
        rdb[b"zz"]
    assert rdb[[b"a", b"zz", b"c"]] == [b"1", None, b"3"]  # batched get
    assert rdb.get([b"b", b"a"]) == [b"2", b"1"]
    del rdb[b"a"]
    rdb.delete(b"b")
    assert rdb.get(b"a") is None and rdb.get(b"b") is None
    assert rdb.key_may_exist(b"c") is True
    may, value = rdb.key_may_exist(b"c", fetch=True)
    assert may and value in (None, b"3")
    assert rdb.key_may_exist(b"never") in (False, True)
    # raw mode: bytes only (KeyError in rocksdict, TypeError in solistore: the error is both)
    for bad in ("s", 1, 2.0, None):
        with pytest.raises(KeyError):
            rdb[bad] = b"v"
        with pytest.raises(TypeError):
            rdb.get(bad)
    with pytest.raises(ValueError):
        rdb[b"k"] = "str value"
    with pytest.raises(TypeError):
        rdb[b"k"] = 3


def test_read_options_reach_gets(rdb):
    # rocksdict passes its ReadOptions whole to each read: ignore_range_deletions shows the values a
    # range deletion in the memtable covers, in get, batched get and with set_read_options.
    rdb[b"a"] = b"1"
    rdb[b"b"] = b"2"
    rdb.delete_range(b"b", b"c")
    ro = ReadOptions()
    ro.set_ignore_range_deletions(True)
    assert rdb.get(b"b") is None
    assert rdb.get(b"b", read_opt=ro) == b"2"
    assert rdb.get([b"a", b"b"], read_opt=ro) == [b"1", b"2"]
    rdb.set_read_options(ro)
    assert rdb[b"b"] == b"2"


def test_items_keys_values(rdb):
    keys = [b"%03d" % i for i in range(0, 100, 5)]
    for k in keys:
        rdb[k] = b"v" + k
    assert list(rdb.keys()) == keys
    assert list(rdb.values()) == [b"v" + k for k in keys]
    assert list(rdb.items()) == [(k, b"v" + k) for k in keys]
    assert list(rdb.keys(backwards=True)) == keys[::-1]
    assert list(rdb.keys(from_key=b"042")) == [k for k in keys if k >= b"042"]
    assert list(rdb.keys(from_key=b"045")) == [k for k in keys if k >= b"045"]
    assert list(rdb.keys(backwards=True, from_key=b"042")) == [k for k in keys if k <= b"042"][::-1]
    assert list(rdb.keys(backwards=True, from_key=b"045")) == [k for k in keys if k <= b"045"][::-1]
    assert {k: v for k, v in rdb.items(from_key=b"090")} == {b"090": b"v090", b"095": b"v095"}
    ro = ReadOptions()
    ro.set_iterate_lower_bound(b"010")
    ro.set_iterate_upper_bound(b"030")
    assert list(rdb.keys(read_opt=ro)) == [b"010", b"015", b"020", b"025"]
    assert list(rdb.keys(read_opt=ro, backwards=True)) == [b"025", b"020", b"015", b"010"]
    assert list(rdb.keys(read_opt=ro, from_key=b"016")) == [b"020", b"025"]
    it = rdb.iter()
    it.seek_to_first()
    seen = []
    while it.valid():
        seen.append((it.key(), it.value()))
        it.next()
    assert seen == [(k, b"v" + k) for k in keys]
    assert it.key() is None and it.value() is None
    it.next()  # on an invalid cursor: nothing happens (RocksDB would abort)
    it.status()
    it.seek(b"041")
    assert it.key() == b"045"
    it.seek_for_prev(b"041")
    assert it.key() == b"040"
    it.prev()
    assert it.key() == b"035"
    it.seek_to_last()
    assert it.key() == b"095"
    it = rdb.iter(ro)
    it.seek_to_first()
    assert it.key() == b"010"


def test_write_batch_and_column_families(lib, db_path):
    opt = raw_options()
    opt.create_missing_column_families(True)
    db = Rdict(db_path, opt, column_families={"one": raw_options(), "two": raw_options()}, lib=lib)
    wb = WriteBatch(raw_mode=True)
    for i in range(10):
        wb.put(b"%d" % i, b"x%d" % i, db.get_column_family_handle("one"))
    wb.set_default_column_family(db.get_column_family_handle("two"))
    wb[b"t"] = b"two"
    wb.delete_range(b"0", b"1")
    assert len(wb) == 12 and wb.len() == 12 and not wb.is_empty() and wb.size_in_bytes() > 12
    db.write(wb)
    assert wb.is_empty()  # consumed
    one, two = db.get_column_family("one"), db.get_column_family("two")
    assert one[b"3"] == b"x3" and two[b"t"] == b"two" and db.get(b"t") is None
    assert list(one.keys()) == [b"%d" % i for i in range(10)]
    with pytest.raises(Exception, match="raw_mode=True"):
        db.write(WriteBatch())
    three = db.create_column_family("three", raw_options())
    three[b"k"] = b"3"
    assert sorted(Rdict.list_cf(db_path, lib=lib)) == ["default", "one", "three", "two"]
    db.drop_column_family("three")
    with pytest.raises(DbClosedError):
        three[b"k"]
    with pytest.raises(Exception):
        db.get_column_family("three")
    one.close()  # a view: the DB stays open
    with pytest.raises(DbClosedError):
        one[b"3"]
    assert db.get_column_family("one")[b"3"] == b"x3"
    db.close()
    with pytest.raises(DbClosedError):
        two[b"t"]
    # reopening finds the column families by itself
    db = Rdict(db_path, lib=lib)
    assert db.get_column_family("two")[b"t"] == b"two"
    assert sorted(Rdict.list_cf(db_path, lib=lib)) == ["default", "one", "two"]
    db.close()


def test_snapshot_checkpoint_and_maintenance(lib, rdb, tmp_path):
    rdb[b"a"] = b"1"
    snap = rdb.snapshot()
    rdb[b"a"] = b"2"
    rdb[b"b"] = b"3"
    assert snap[b"a"] == b"1"
    with pytest.raises(KeyError):
        snap[b"b"]
    assert list(snap.items()) == [(b"a", b"1")]
    assert list(snap.keys(backwards=True)) == [b"a"]
    assert list(snap.values(from_key=b"a")) == [b"1"]
    it = snap.iter()
    it.seek_to_first()
    assert (it.key(), it.value()) == (b"a", b"1")
    del snap, it
    rdb.flush()
    rdb.flush_wal()
    rdb.compact_range(None, None)
    rdb.compact_range(b"a", b"z")
    assert rdb.property_value("rocksdb.estimate-num-keys") is not None
    assert isinstance(rdb.property_int_value("rocksdb.estimate-num-keys"), int)
    assert rdb.property_value("rocksdb.no-such") is None
    assert rdb.latest_sequence_number() >= 3
    assert rdb.path() == os.fspath(rdb.path())
    cp = tmp_path / "cp"
    Checkpoint(rdb).create_checkpoint(str(cp))
    copy = Rdict(str(cp), lib=lib)
    assert copy[b"a"] == b"2" and copy[b"b"] == b"3"
    copy.close()


def test_options_setters(lib, db_path):
    opt = Options(raw_mode=True)
    opt.create_if_missing(True)
    opt.set_write_buffer_size(4 << 20)
    opt.set_max_write_buffer_number(3)
    opt.set_min_write_buffer_number(1)
    opt.set_level_zero_file_num_compaction_trigger(4)
    opt.set_max_background_jobs(2)
    opt.set_max_open_files(500)
    opt.set_compression_type(DBCompressionType.none())
    opt.set_wal_recovery_mode(DBRecoveryMode.point_in_time())
    opt.set_compaction_style(DBCompactionStyle.level())
    opt.set_target_file_size_base(8 << 20)
    opt.set_keep_log_file_num(5)
    opt.set_use_fsync(False)
    opt.set_paranoid_checks(True)
    opt.set_prefix_extractor(SliceTransform.create_fixed_prefix(2))
    opt.increase_parallelism(2)
    opt.optimize_level_style_compaction(64 << 20)
    table = BlockBasedOptions()
    table.set_block_size(8192)
    table.set_bloom_filter(10, False)
    table.set_block_cache(Cache(4 << 20))
    table.set_cache_index_and_filter_blocks(True)
    opt.set_block_based_table_factory(table)
    with pytest.raises(AttributeError):
        opt.set_no_such_option(1)
    with pytest.raises(solistore.NotSupported):
        opt.set_ratelimiter(1 << 20, 100000, 10)
    with Rdict(db_path, opt, lib=lib) as db:
        for i in range(100):
            db[b"p%03d" % i] = b"v"
        assert db[b"p050"] == b"v"
        wo = WriteOptions()
        wo.sync = True
        wo.disable_wal(False)
        assert wo.sync is True
        db.set_write_options(wo)
        db[b"synced"] = b"1"
        ro = ReadOptions()
        ro.fill_cache(False)
        db.set_read_options(ro)
        assert db[b"synced"] == b"1"
    # the default (pickle) mode is not offered: opening refuses it, clearly
    with pytest.raises(solistore.NotSupported, match="raw mode"):
        Rdict(db_path, Options(), lib=lib)


def test_close_destroy_config_and_access_types(lib, db_path):
    db = Rdict(db_path, lib=lib)  # no options: raw mode, created if missing
    db[b"k"] = b"v"
    with open(os.path.join(db_path, "rocksdict-config.json")) as f:
        assert json.load(f)["raw_mode"] is True
    db.close()
    db.close()
    with pytest.raises(DbClosedError):
        db[b"k"]
    with pytest.raises(DbClosedError):
        db.get(b"k")
    with Rdict(db_path, access_type=AccessType.read_only(), lib=lib) as ro:
        assert ro[b"k"] == b"v"
        with pytest.raises(solistore.Error):
            ro[b"x"] = b"y"
    with Rdict(db_path, lib=lib) as again:  # reopen right after close
        assert again[b"k"] == b"v"
    Rdict.destroy(db_path, raw_options(), lib=lib)
    assert not os.path.exists(os.path.join(db_path, "rocksdict-config.json"))
    os.makedirs(db_path + "-p", exist_ok=True)
    with open(os.path.join(db_path + "-p", "rocksdict-config.json"), "w") as f:
        json.dump({"raw_mode": False, "prefix_extractors": {}}, f)
    with pytest.raises(solistore.NotSupported):
        Rdict(db_path + "-p", lib=lib)


def test_install_alias():
    import solistore.compat.rocksdict as compat_facade
    import solistore.rocksdict as facade
    assert compat_facade is facade
    saved = sys.modules.pop("rocksdict", None)
    try:
        facade.install_alias()
        import rocksdict
        assert rocksdict is facade and rocksdict.Rdict is Rdict
    finally:
        sys.modules.pop("rocksdict", None)
        if saved is not None:
            sys.modules["rocksdict"] = saved
