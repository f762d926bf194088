# SPDX-License-Identifier: Apache-2.0
"""solistore.compat.plyvel, exercised the way plyvel users write code (``import ... as plyvel``)."""

import random
import sys

import pytest

import solistore
import solistore.compat.plyvel as plyvel


@pytest.fixture
def pdb(lib, db_path):
    db = plyvel.DB(db_path, create_if_missing=True, lib=lib)
    yield db
    db.close()


def test_open_options_and_basics(lib, tmp_path):
    path = str(tmp_path / "db")
    with pytest.raises(plyvel.Error):  # missing DB without create_if_missing
        plyvel.DB(path, lib=lib)
    db = plyvel.DB(path, create_if_missing=True, error_if_exists=True, paranoid_checks=True,
                   write_buffer_size=1 << 20, max_open_files=100, lru_cache_size=8 << 20, block_size=4096,
                   block_restart_interval=8, max_file_size=4 << 20, compression=None, bloom_filter_bits=10,
                   lib=lib)
    assert db.name == path and not db.closed
    assert "plyvel.DB" in repr(db)
    db.put(b"key", b"value")
    db.put(b"key2", bytearray(b"buffer value"))
    assert db.get(b"key") == b"value"
    assert db.get(b"key2") == b"buffer value"
    assert db.get(b"nope") is None
    assert db.get(b"nope", b"default") == b"default"
    assert db.get(b"key", verify_checksums=True, fill_cache=False) == b"value"
    db.put(b"key", b"v2", sync=True)
    db.delete(b"key2", sync=True)
    assert db.get(b"key2") is None
    db.close()
    assert db.closed
    db.close()
    with pytest.raises(RuntimeError):
        db.get(b"key")
    with pytest.raises(RuntimeError):
        db.put(b"k", b"v")
    with pytest.raises(plyvel.Error):
        plyvel.DB(path, error_if_exists=True, lib=lib)
    with plyvel.DB(path, compression="snappy", lib=lib) as db:
        assert db.get(b"key") == b"v2"
    assert db.closed
    with pytest.raises(ValueError):
        plyvel.DB(path, compression="nope", lib=lib)
    with pytest.raises(TypeError):
        plyvel.DB(path, compression=3, lib=lib)
    with pytest.raises(TypeError):
        plyvel.DB(123, lib=lib)
    with pytest.raises(TypeError):
        plyvel.DB(path, write_buffer_size="big", lib=lib)
    with pytest.raises(TypeError):
        plyvel.DB(path, lru_cache_size="big", lib=lib)
    with pytest.raises(ValueError):
        plyvel.DB(path, comparator=lambda a, b: 0, lib=lib)  # comparator without comparator_name
    with pytest.raises(solistore.NotSupported):
        plyvel.DB(path, comparator=lambda a, b: 0, comparator_name=b"cmp", lib=lib)


def test_types_and_contains(pdb):
    for bad in ("str", 1, None):
        with pytest.raises(TypeError):
            pdb.put(bad, b"v")
        with pytest.raises(TypeError):
            pdb.get(bad)
        with pytest.raises(TypeError):
            pdb.delete(bad)
    with pytest.raises(TypeError):
        pdb.put(b"k", "str value")
    with pytest.raises(TypeError):
        pdb.put(b"k", None)
    with pytest.raises(TypeError):
        b"k" in pdb  # noqa: B015 - plyvel: use get()
    with pytest.raises(TypeError):
        pdb.iterator(start="a")


def test_lock_error_is_plyvel_ioerror(lib, pdb, db_path):
    with pytest.raises(plyvel.IOError) as ei:
        plyvel.DB(db_path, lib=lib)
    assert isinstance(ei.value, plyvel.Error) and isinstance(ei.value, IOError)
    assert "lock" in str(ei.value).lower()


def _fill(db, keys):
    with db.write_batch() as wb:
        for k in keys:
            wb.put(k, b"v" + k)


KEYS = [b"a", b"aa", b"ab", b"b", b"ba", b"c", b"d\xff", b"e"]


def test_iterator_parameters(pdb):
    _fill(pdb, KEYS)
    assert list(pdb) == [(k, b"v" + k) for k in KEYS]
    assert list(pdb.iterator(include_value=False)) == KEYS
    assert list(pdb.iterator(include_key=False)) == [b"v" + k for k in KEYS]
    assert list(pdb.iterator(include_key=False, include_value=False)) == [None] * len(KEYS)
    assert list(pdb.iterator(reverse=True, include_value=False)) == KEYS[::-1]
    assert list(pdb.iterator(start=b"ab", stop=b"c", include_value=False)) == [b"ab", b"b", b"ba"]
    assert list(pdb.iterator(start=b"ab", stop=b"c", include_start=False, include_stop=True,
                             include_value=False)) == [b"b", b"ba", b"c"]
    assert list(pdb.iterator(start=b"ab", stop=b"c", reverse=True, include_value=False)) == [b"ba", b"b", b"ab"]
    assert list(pdb.iterator(prefix=b"a", include_value=False)) == [b"a", b"aa", b"ab"]
    assert list(pdb.iterator(prefix=b"a", reverse=True, include_value=False)) == [b"ab", b"aa", b"a"]
    assert list(pdb.iterator(prefix=b"z")) == []
    assert list(pdb.iterator(start=b"c", stop=b"a")) == []
    assert list(pdb.iterator(verify_checksums=True, fill_cache=False, include_value=False)) == KEYS
    with pytest.raises(TypeError):
        pdb.iterator(prefix=b"a", start=b"a")


class GapModel:
    """plyvel's iterator semantics over a sorted list: the iterator sits in a gap; next() returns the
    entry after it and moves past it, prev() the one before it; a reverse iterator swaps them."""

    def __init__(self, keys, reverse):
        self.keys = keys
        self.reverse = reverse
        self.gap = len(keys) if reverse else 0  # entries before the gap

    def _fwd(self):
        if self.gap >= len(self.keys):
            raise StopIteration
        self.gap += 1
        return self.keys[self.gap - 1]

    def _back(self):
        if self.gap <= 0:
            raise StopIteration
        self.gap -= 1
        return self.keys[self.gap]

    def next(self):
        return self._back() if self.reverse else self._fwd()

    def prev(self):
        return self._fwd() if self.reverse else self._back()

    def seek(self, target):
        self.gap = sum(1 for k in self.keys if k < target)

    def seek_to_start(self):
        self.gap = 0

    def seek_to_stop(self):
        self.gap = len(self.keys)


@pytest.mark.parametrize("reverse", [False, True])
def test_iterator_moves_match_plyvel_semantics(pdb, reverse, iteration):
    keys = sorted({b"%03d" % random.Random(1).randrange(1000) for _ in range(300)} | {b"%03d" % i
                                                                                        for i in range(0, 999, 7)})
    _fill(pdb, keys)
    rng = random.Random(7 if reverse else 8)
    for case in range(40):
        start = None if rng.random() < 0.3 else b"%03d" % rng.randrange(1000)
        stop = None if rng.random() < 0.3 else b"%03d" % rng.randrange(1000)
        inc_s, inc_e = rng.random() < 0.5, rng.random() < 0.5
        in_range = [k for k in keys if (start is None or k > start or (inc_s and k == start))
                    and (stop is None or k < stop or (inc_e and k == stop))]
        it = pdb.iterator(start=start, stop=stop, include_start=inc_s, include_stop=inc_e, reverse=reverse,
                          include_value=False)
        model = GapModel(in_range, reverse)
        for step in range(200):
            op = rng.choice(["next"] * 6 + ["prev"] * 3 + ["seek", "seek_to_start", "seek_to_stop"])
            ctx = (case, step, op, start, stop, inc_s, inc_e)
            if op == "seek":
                t = b"%03d" % rng.randrange(1000)
                it.seek(t)
                model.seek(t)
                continue
            if op in ("seek_to_start", "seek_to_stop"):
                getattr(it, op)()
                getattr(model, op)()
                continue
            try:
                want = getattr(model, op)()
            except StopIteration:
                want = StopIteration
            try:
                got = next(it) if op == "next" else it.prev()
            except StopIteration:
                got = StopIteration
            assert got == want, ctx
        it.close()
        with pytest.raises(RuntimeError):
            next(it)


def test_prefixed_db(pdb):
    _fill(pdb, [b"x", b"p1-a", b"p1-b", b"p2-a"])
    p1 = pdb.prefixed_db(b"p1-")
    assert p1.prefix == b"p1-" and p1.db is pdb
    assert p1.get(b"a") == b"vp1-a" and p1.get(b"zz") is None and p1.get(b"zz", b"d") == b"d"
    p1.put(b"c", b"new")
    assert pdb.get(b"p1-c") == b"new"
    p1.delete(b"a")
    assert pdb.get(b"p1-a") is None
    assert list(p1) == [(b"b", b"vp1-b"), (b"c", b"new")]
    assert list(p1.iterator(reverse=True, include_value=False)) == [b"c", b"b"]
    assert list(p1.iterator(start=b"c", include_value=False)) == [b"c"]
    assert list(p1.iterator(prefix=b"b", include_value=False)) == [b"b"]
    it = p1.iterator(include_value=False)
    it.seek(b"c")
    assert next(it) == b"c"
    with p1.write_batch() as wb:
        wb.put(b"d", b"1")
        wb.delete(b"b")
    assert list(p1.iterator(include_value=False)) == [b"c", b"d"]
    with p1.snapshot() as snap:
        p1.put(b"e", b"2")
        assert snap.get(b"e") is None and snap.get(b"c") == b"new"
        assert list(snap.iterator(include_value=False)) == [b"c", b"d"]
    nested = p1.prefixed_db(b"n-")
    nested.put(b"k", b"v")
    assert pdb.get(b"p1-n-k") == b"v"
    with pytest.raises(TypeError):
        b"c" in p1  # noqa: B015
    # a prefix of 0xff bytes only has no successor: the range is open-ended
    ff = pdb.prefixed_db(b"\xff")
    ff.put(b"z", b"1")
    assert list(ff) == [(b"z", b"1")]


def test_write_batch(pdb):
    with pdb.write_batch() as wb:
        wb.put(b"a", b"1")
        wb.put(b"b", b"2")
        wb.delete(b"a")
        assert pdb.get(b"b") is None
    assert pdb.get(b"a") is None and pdb.get(b"b") == b"2"
    with pytest.raises(ValueError):
        with pdb.write_batch(transaction=True) as wb:
            wb.put(b"t", b"x")
            raise ValueError
    assert pdb.get(b"t") is None
    with pytest.raises(ValueError):
        with pdb.write_batch() as wb:
            wb.put(b"t", b"x")
            raise ValueError
    assert pdb.get(b"t") == b"x"  # not a transaction: written anyway
    wb = pdb.write_batch(sync=True)
    wb.put(b"c", b"3")
    size = wb.approximate_size()
    assert size > 12
    other = pdb.write_batch()
    other.put(b"d", b"4")
    wb.append(other)
    assert wb.approximate_size() > size
    wb.write()
    assert pdb.get(b"c") == b"3" and pdb.get(b"d") == b"4"
    wb.clear()
    wb.write()
    # a batch used in `with` is written, then empty: usable again
    with wb:
        wb.put(b"e", b"5")
    with wb:
        pass
    assert pdb.get(b"e") == b"5"
    with pytest.raises(TypeError):
        wb.put("k", b"v")
    pdb.close()
    with pytest.raises(RuntimeError):
        wb.put(b"k", b"v")


def test_snapshot(pdb):
    pdb.put(b"a", b"1")
    snap = pdb.snapshot()
    pdb.put(b"a", b"2")
    pdb.put(b"b", b"3")
    assert snap.get(b"a") == b"1" and snap.get(b"b") is None and snap.get(b"b", b"d") == b"d"
    assert list(snap) == [(b"a", b"1")]
    assert list(snap.iterator(reverse=True)) == [(b"a", b"1")]
    raw = snap.raw_iterator()
    raw.seek_to_first()
    assert raw.item() == (b"a", b"1")
    with pytest.raises(TypeError):
        b"a" in snap  # noqa: B015
    snap.release()
    snap.close()
    with pytest.raises(RuntimeError):
        snap.get(b"a")
    with pdb.snapshot() as s2:
        assert s2.get(b"a") == b"2"
    pdb.close()
    snap.close()  # after the DB closed: nothing to do, as in plyvel


def test_raw_iterator(pdb):
    _fill(pdb, [b"a", b"c"])
    it = pdb.raw_iterator()
    assert not it.valid()
    for fn in (it.next, it.prev, it.key, it.value, it.item):
        with pytest.raises(plyvel.IteratorInvalidError):
            fn()
    it.seek_to_first()
    assert it.item() == (b"a", b"va")
    it.next()
    assert it.key() == b"c"
    it.prev()
    assert it.value() == b"va"
    it.seek(b"b")
    assert it.key() == b"c"
    it.seek_to_last()
    assert it.key() == b"c"
    it.next()
    assert not it.valid()
    with pdb.raw_iterator(verify_checksums=True, fill_cache=False) as it2:
        it2.seek(b"z")
        assert not it2.valid()
    with pytest.raises(RuntimeError):
        it2.seek_to_first()
    pdb.close()
    with pytest.raises(RuntimeError):  # closing the DB closed its iterators
        it.valid()


def test_properties_compaction_sizes(pdb):
    for i in range(2000):
        pdb.put(b"k%05d" % i, b"x" * 100)
    assert pdb.get_property(b"does-not-exist") is None
    for name in (b"leveldb.stats", b"leveldb.sstables", b"leveldb.num-files-at-level0", b"rocksdb.stats"):
        assert isinstance(pdb.get_property(name), bytes), name
    with pytest.raises(TypeError):
        pdb.get_property("leveldb.stats")
    pdb.compact_range()
    pdb.compact_range(start=b"k00100", stop=b"k00200")
    with pytest.raises(TypeError):
        pdb.compact_range(b"a", b"b")  # keyword-only, as in plyvel
    assert pdb.approximate_size(b"k00000", b"k99999") >= 0
    sizes = pdb.approximate_sizes((b"k00000", b"k01000"), (b"x", b"y"))
    assert len(sizes) == 2 and all(s >= 0 for s in sizes)
    assert pdb.approximate_sizes() == []
    with pytest.raises(TypeError):
        pdb.approximate_sizes(("a", b"b"))


def test_destroy_and_repair(lib, db_path):
    with plyvel.DB(db_path, create_if_missing=True, lib=lib) as db:
        db.put(b"k", b"v")
    try:
        plyvel.repair_db(db_path, lib=lib)
        with plyvel.DB(db_path, lib=lib) as db:
            assert db.get(b"k") == b"v"
    except solistore.NotSupported:
        assert lib.is_solistore  # libsolistore does not implement RepairDB (api-coverage.md)
    plyvel.destroy_db(db_path, lib=lib)
    with pytest.raises(plyvel.Error):
        plyvel.DB(db_path, lib=lib)


def test_install_alias():
    saved = sys.modules.pop("plyvel", None)
    try:
        mod = plyvel.install_alias()
        import plyvel as aliased
        assert aliased is plyvel is mod
        assert aliased.DB is plyvel.DB
    finally:
        sys.modules.pop("plyvel", None)
        if saved is not None:
            sys.modules["plyvel"] = saved
