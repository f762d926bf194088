# SPDX-License-Identifier: Apache-2.0
"""solistore_iter_next_batch called directly through ctypes, the way any C caller would: its buffer
protocol (entries back to back, end offsets, the size a too-large entry needs), its directions and part
flags, and its errors. On librocksdb: the export is absent and the package falls back to the cursor."""

from ctypes import byref, c_size_t, c_uint64, create_string_buffer, string_at

import pytest

import solistore
from solistore._call import scratch

KEYS, VALUES, REVERSE = 1, 2, 4


def _call(lib, it, flags, max_items, buf, cap, ends):
    err, berr, _, _ = scratch()
    used = c_size_t(12345)
    n = lib.solistore_iter_next_batch(it, flags, max_items, buf, cap, ends, byref(used), berr)
    msg = None
    if err.value:
        msg = string_at(err.value).decode()
        lib.rocksdb_free(err.value)
        err.value = None
    return n, used.value, msg


def _key_at(lib, it):
    """The cursor's key through the C API (the cursor was moved behind RawIterator's back)."""
    n = c_size_t()
    p = lib.rocksdb_iter_key(it, byref(n))
    return p[:n.value] if lib.rocksdb_iter_valid(it) else None


def test_export_present_exactly_on_libsolistore(lib, db):
    if not lib.is_solistore:
        assert not lib.has("solistore_iter_next_batch")
        with pytest.raises(solistore.NotSupported):
            lib.solistore_iter_next_batch(None, 0, 0, None, 0, None, None, None)
        db.put(b"a", b"1")
        assert list(db.iterator()) == [(b"a", b"1")]  # the cursor fallback
        return
    assert lib.has("solistore_iter_next_batch")


def test_buffer_protocol(lib, db):
    if not lib.is_solistore:
        pytest.skip("librocksdb has no solistore_* exports (checked in test_export_present_exactly_on_libsolistore)")
    items = [(b"k%03d" % i, (b"v\x00%d" % i) * (i % 4)) for i in range(50)]
    with db.write_batch() as wb:
        for k, v in items:
            wb.put(k, v)
    raw = db.raw_iterator()
    it = raw._it
    cap = 64
    buf = create_string_buffer(cap)
    ends = (c_uint64 * 20)()

    # Unpositioned: nothing, nothing used.
    assert _call(lib, it, KEYS | VALUES, 10, buf, cap, ends) == (0, 0, None)

    raw.seek_to_first()
    got = []
    while True:
        n, used, msg = _call(lib, it, KEYS | VALUES, 10, buf, cap, ends)
        assert msg is None
        if n == 0:
            if used > cap:  # the next entry alone does not fit: grow and retry
                cap = used
                buf = create_string_buffer(cap)
                continue
            break
        data = string_at(buf, used)
        e = ends[:2 * n]
        starts = [0] + e[:-1]
        parts = [data[a:b] for a, b in zip(starts, e)]
        got += list(zip(parts[::2], parts[1::2]))
        assert e[-1] == used
    assert got == items
    assert not lib.rocksdb_iter_valid(it)

    # Keys only, backwards, and the cursor stays on the first entry not copied.
    raw.seek(b"k020")
    n, used, msg = _call(lib, it, KEYS | REVERSE, 3, buf, cap, ends)
    assert (n, msg) == (3, None)
    assert string_at(buf, used) == b"k020k019k018"
    assert ends[:3] == [4, 8, 12]
    assert _key_at(lib, it) == b"k017"

    # An entry larger than the buffer: nothing copied, its size reported, the cursor unmoved.
    raw.seek(b"k047")  # a key of 4 bytes, a value of 3 * 4
    n, used, msg = _call(lib, it, KEYS | VALUES, 5, buf, 4, ends)
    assert (n, used, msg) == (0, 4 + 12, None)
    assert _key_at(lib, it) == b"k047"

    # Errors, never a crash.
    assert _call(lib, None, KEYS, 1, buf, cap, ends)[2] == "Invalid argument: iter is NULL"
    assert _call(lib, it, KEYS, 1, None, 10, ends)[2] == "Invalid argument: buf is NULL"
    assert _call(lib, it, KEYS, 1, buf, cap, None)[2] == "Invalid argument: ends is NULL"
    raw.close()
    assert it.value is None
