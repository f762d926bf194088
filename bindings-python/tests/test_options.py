# SPDX-License-Identifier: Apache-2.0
"""Options, ReadOptions, WriteOptions and BlockBasedTableOptions: every C option setter is a keyword and an
attribute, and the value reaches the C object (read back through the C getter where there is one)."""

import re
from pathlib import Path

import pytest

import solistore
from solistore._option_table import OPTION_TABLE

HEADER = Path(__file__).resolve().parents[2] / "include" / "rocksdb" / "c.h"
CLASSES = {"options": solistore.Options, "readoptions": solistore.ReadOptions,
           "writeoptions": solistore.WriteOptions, "block_based_options": solistore.BlockBasedTableOptions}
# ints as 1: several C int options are flags (disable_auto_compactions, use_fsync) stored as 0/1.
SAMPLE = {"bool": True, "int": 1, "uint": 3, "u64": 4096, "size": 4096, "float": 2.5, "i64": 3,
          "str": "/tmp/solistore-options-test", "bytes": b"k\x00"}


@pytest.mark.skipif(not HEADER.exists(), reason="no checkout header")
def test_table_covers_every_scalar_setter_of_the_header():
    text = HEADER.read_text()
    protos = re.findall(r"void (rocksdb_(options|readoptions|writeoptions|block_based_options)_set_\w+)\(([^;]*)\);",
                        text)
    scalar = re.compile(r"^\s*(unsigned char|int|unsigned int|uint32_t|uint64_t|size_t|double|int32_t|int64_t|"
                        r"const char \*)\s*\w+\s*$")
    setters = {row[3] for row in OPTION_TABLE}
    wanted = []
    for name, _, args in protos:
        parts = [a.strip() for a in args.split(",")]
        if len(parts) == 2 and scalar.match(parts[1]):
            wanted.append(name)
    assert wanted, "no setters parsed from the header"
    missing = sorted(set(wanted) - setters)
    assert not missing, f"regenerate _option_table (tools/gen_option_table.py): {missing}"


@pytest.mark.parametrize("kind", list(CLASSES))
def test_every_option_is_keyword_attribute_and_reaches_the_c_object(lib, kind):
    cls = CLASSES[kind]
    rows = [r for r in OPTION_TABLE if r[0] == kind]
    names = cls.names()
    checked = 0
    for _, name, _, setter, getter in rows:
        assert name in names
        vtype = cls._table[name][0]  # the Python side's type (disable_wal: a bool over a C int)
        value = SAMPLE[vtype]
        o = cls(**{name: value})
        assert getattr(o, name) == value
        o2 = cls()
        setattr(o2, name, value)
        assert o2 == o and o.as_dict() == {name: value}
        if name == "statistics_level":  # applies only to options with statistics enabled
            o = cls()
            o.enable_statistics()
            setattr(o, name, value)
        if not lib.has(setter):
            with pytest.raises(solistore.NotSupported):
                o._handle(lib)
            continue
        h = o._handle(lib)
        if getter and lib.has(getter):
            got = getattr(lib, getter)(h.h)
            if vtype == "bool":
                got = bool(got)
            if vtype == "str":
                continue
            assert got == value, (name, got, value)
            checked += 1
    if kind == "options":
        assert checked > 50  # most Options setters have a getter


def test_unknown_and_bad_values():
    with pytest.raises(TypeError):
        solistore.Options(no_such_option=1)
    o = solistore.Options()
    with pytest.raises(AttributeError):
        o.no_such_option = 1
    with pytest.raises(AttributeError):
        o.no_such_option  # noqa: B018
    with pytest.raises(TypeError):
        o.write_buffer_size = "big"
    with pytest.raises(solistore.InvalidArgument):
        o.write_buffer_size = -1
    with pytest.raises(solistore.InvalidArgument):
        o.max_open_files = 1 << 40
    with pytest.raises(solistore.InvalidArgument):
        o.compression = "nope"
    with pytest.raises(solistore.InvalidArgument):
        o.merge_operator = "python"
    with pytest.raises(TypeError):
        o.block_based_table_factory = 3
    with pytest.raises(TypeError):
        solistore.BlockBasedTableOptions(block_cache_size="big")


def test_named_values_and_specials(lib, db_path):
    o = solistore.Options(create_if_missing=True, compression="zstd", wal_recovery_mode="point_in_time",
                          compaction_style="level", bloom_bits=10, block_cache_size=8 << 20, prefix_length=3,
                          row_cache_size=1 << 20, compression_per_level=["none", "none", "snappy"])
    assert o.compression == 7 and o.wal_recovery_mode == 2 and o.compaction_style == 0
    assert o.prefix_length == 3 and o.prefix_extractor == 3
    o.compression = "snappy"
    o.increase_parallelism(2)
    o.optimize_level_style_compaction(32 << 20)
    h = o._handle(lib)
    o.set_from_string("max_open_files=77")
    try:
        h = o._handle(lib)
    except solistore.NotSupported:
        assert lib.is_solistore  # rocksdb_get_options_from_string is a stub in libsolistore
        o = o.copy()
        del o.max_open_files
        o._values.pop("@from_string")
        h = o._handle(lib)
    else:
        assert lib.rocksdb_options_get_max_open_files(h.h) == 77
    with solistore.DB(db_path, o, lib=lib) as db:
        db.put(b"abc1", b"v")
        assert list(db.iterator(prefix=b"abc")) == [(b"abc1", b"v")]
    bad = solistore.Options()
    bad.set_from_string("no_such_option=1")
    with pytest.raises(solistore.NotSupported if lib.is_solistore else solistore.InvalidArgument):
        bad._handle(lib)


def test_library_defaults_through_getters(lib):
    solistore.set_default_library(lib)
    try:
        o = solistore.Options()
        assert o.create_if_missing is False
        assert isinstance(o.write_buffer_size, int) and o.write_buffer_size > 0
        ro = solistore.ReadOptions()
        assert ro.fill_cache is True and ro.verify_checksums is True
        wo = solistore.WriteOptions()
        assert wo.sync is False and wo.disable_wal is False
        o.write_buffer_size = 123456
        assert o.write_buffer_size == 123456
        del o.write_buffer_size
        assert o.write_buffer_size != 123456
    finally:
        solistore.set_default_library(None)


def test_read_and_write_options_in_calls(lib, db_path):
    ro = solistore.ReadOptions(fill_cache=False, verify_checksums=True, readahead_size=1 << 16)
    wo = solistore.WriteOptions(sync=True, disable_wal=False, no_slowdown=False)
    with solistore.DB(db_path, create_if_missing=True, read_options=ro, write_options=wo, lib=lib) as db:
        db.put(b"k", b"v")
        db.put(b"k2", b"v2", sync=False, disable_wal=True)
        assert db.get(b"k") == b"v"
        assert db.get(b"k", fill_cache=True) == b"v"
        assert db.get(b"k2", verify_checksums=False) == b"v2"
        assert db.multi_get([b"k", b"k2"], fill_cache=False) == [b"v", b"v2"]
        with db.snapshot() as s:
            assert db.get(b"k", snapshot=s, fill_cache=False) == b"v"
        bounded = solistore.ReadOptions(iterate_lower_bound=b"k2")
        assert list(db.iterator(read_options=bounded)) == [(b"k2", b"v2")]
        assert list(db.iterator(read_options=bounded, start=b"a", stop=b"z")) == [(b"k2", b"v2")]
