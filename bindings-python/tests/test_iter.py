# SPDX-License-Identifier: Apache-2.0
import itertools

import pytest

import solistore

FULL = [b"", b"\x00", b"a", b"a\x00", b"ab", b"abc", b"ab\xff", b"b", b"b\xff", b"ba", b"c", b"\xff", b"\xff\xff"]
SHAPES = {"empty": [], "single": [b"ab"], "full": FULL}
BOUNDS = [None, b"", b"a", b"ab", b"abd", b"b", b"b\xff", b"c", b"\xff\xff\xff"]
PREFIXES = [b"", b"a", b"ab", b"b", b"\xff", b"\xff\xff", b"z"]


def _fill(db, keys):
    with db.write_batch() as wb:
        for k in keys:
            wb.put(k, b"v:" + k)


def _expect(keys, start=None, stop=None, prefix=None, include_start=True, include_stop=False, reverse=False):
    out = []
    for k in sorted(keys):
        if prefix is not None and not k.startswith(prefix):
            continue
        if start is not None and (k < start or (k == start and not include_start)):
            continue
        if stop is not None and (k > stop or (k == stop and not include_stop)):
            continue
        out.append(k)
    return out[::-1] if reverse else out


@pytest.mark.parametrize("shape", list(SHAPES))
def test_boundary_matrix(db, shape, iteration):
    keys = SHAPES[shape]
    _fill(db, keys)
    checked = 0
    for start, stop, inc_s, inc_e, rev in itertools.product(BOUNDS, BOUNDS, (True, False), (True, False),
                                                            (False, True)):
        got = list(db.iterator(start=start, stop=stop, include_start=inc_s, include_stop=inc_e, reverse=rev,
                               include_value=False))
        want = _expect(keys, start, stop, None, inc_s, inc_e, rev)
        assert got == want, (start, stop, inc_s, inc_e, rev)
        checked += 1
    for prefix, rev in itertools.product(PREFIXES, (False, True)):
        got = list(db.iterator(prefix=prefix, reverse=rev))
        want = _expect(keys, prefix=prefix, reverse=rev)
        assert got == [(k, b"v:" + k) for k in want], (prefix, rev)
    assert checked == len(BOUNDS) ** 2 * 8
    # include_key / include_value over the same ranges
    for start, stop in itertools.product(BOUNDS[:4], BOUNDS[4:]):
        want = _expect(keys, start, stop)
        assert list(db.iterator(start=start, stop=stop, include_key=False)) == [b"v:" + k for k in want]
        assert list(db.iterator(start=start, stop=stop)) == [(k, b"v:" + k) for k in want]


def test_include_key_value_modes(db):
    _fill(db, [b"a", b"b"])
    assert list(db.iterator()) == [(b"a", b"v:a"), (b"b", b"v:b")]
    assert list(db.iterator(include_value=False)) == [b"a", b"b"]
    assert list(db.iterator(include_key=False)) == [b"v:a", b"v:b"]
    assert list(db.keys()) == [b"a", b"b"] and list(db.values()) == [b"v:a", b"v:b"]
    with pytest.raises(TypeError):
        db.iterator(include_key=False, include_value=False)
    with pytest.raises(TypeError):
        db.iterator(prefix=b"a", start=b"a")


def test_many_items_cross_batches(db, iteration):
    keys = [b"%06d" % i for i in range(5000)]
    _fill(db, keys)
    assert list(db.iterator(include_value=False)) == keys
    assert list(db.iterator(include_value=False, reverse=True)) == keys[::-1]
    assert list(db.iterator(start=b"000100", stop=b"004900", include_value=False)) == keys[100:4900]
    assert list(db.iterator(include_key=False, reverse=True)) == [b"v:" + k for k in reversed(keys)]
    it = db.iterator()
    assert next(it) == (keys[0], b"v:" + keys[0])
    assert next(it)[0] == keys[1]


def test_large_entries_grow_the_batch_buffer(db, iteration):
    big = [bytes([i]) * (300 << 10) for i in range(1, 5)]  # larger than the first batch buffer
    for i, v in enumerate(big):
        db.put(b"k%d" % i, v)
    db.put(b"k9", b"small")
    assert list(db.iterator(include_key=False)) == big + [b"small"]
    assert list(db.iterator(reverse=True, include_key=False)) == [b"small"] + big[::-1]


def test_raw_iterator_next_batch(db, iteration):
    keys = [b"%04d" % i for i in range(3000)]
    _fill(db, keys)
    with db.raw_iterator() as it:
        it.seek(b"0100")
        got = it.next_batch(2500)
        assert [k for k, _ in got] == keys[100:2600]
        assert it.key() == b"2600"
        assert it.next_batch(3, values=False) == keys[2600:2603]
        assert it.next_batch(2, keys=False) == [b"v:2603", b"v:2604"]
        assert it.next_batch(10, reverse=True, values=False) == keys[2605:2595:-1]
        it.seek_to_last()
        assert len(it.next_batch(10_000)) == 1 and not it.valid()
        assert it.next_batch(5) == []
        with pytest.raises(TypeError):
            it.next_batch(1, keys=False, values=False)


def test_iterator_is_a_point_in_time_view(db):
    _fill(db, [b"a", b"b"])
    it = db.iterator(include_value=False)
    db.put(b"c", b"x")
    db.delete(b"a")
    assert list(it) == [b"a", b"b"]
    assert it.closed  # closed itself when exhausted


def test_iterator_with_snapshot(db):
    _fill(db, [b"a"])
    with db.snapshot() as snap:
        db.put(b"b", b"x")
        assert list(db.iterator(snapshot=snap, include_value=False)) == [b"a"]
        assert list(snap.iterator(include_value=False)) == [b"a"]
    assert list(db.iterator(include_value=False)) == [b"a", b"b"]


def test_raw_iterator(db, iteration):
    _fill(db, [b"a", b"c", b"e"])
    it = db.raw_iterator()
    assert not it.valid()
    with pytest.raises(solistore.InvalidArgument):
        it.key()
    with pytest.raises(solistore.InvalidArgument):
        it.next()
    it.seek_to_first()
    assert it.valid() and it.item() == (b"a", b"v:a")
    it.next()
    assert it.key() == b"c"
    it.prev()
    assert it.key() == b"a"
    it.prev()
    assert not it.valid()
    it.seek(b"b")
    assert it.key() == b"c"
    it.seek_for_prev(b"d")
    assert it.key() == b"c"
    it.seek_for_prev(b"0")
    assert not it.valid()
    it.seek(b"f")
    assert not it.valid()
    it.seek_to_last()
    assert it.value() == b"v:e"
    it.status()
    it.close()
    with pytest.raises(solistore.DbClosedError):
        it.valid()
    with db.raw_iterator(lower_bound=b"b", upper_bound=b"e") as it:
        it.seek_to_first()
        assert it.key() == b"c"
        it.next()
        assert not it.valid()
        it.seek_to_last()
        assert it.key() == b"c"


def test_column_family_iterator(db, iteration):
    cf = db.create_column_family("cf")
    _fill(cf, [b"x", b"y"])
    _fill(db, [b"a"])
    assert list(cf.keys()) == [b"x", b"y"]
    assert list(db.keys()) == [b"a"]
    assert list(cf.iterator(prefix=b"y")) == [(b"y", b"v:y")]
