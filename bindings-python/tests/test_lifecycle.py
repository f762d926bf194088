# SPDX-License-Identifier: Apache-2.0
import gc

import pytest

import solistore


def test_close_with_live_children(lib, db_path):
    db = solistore.DB(db_path, create_if_missing=True, lib=lib)
    for i in range(300):
        db.put(b"k%03d" % i, b"v")
    cf = db.create_column_family("cf")
    cf[b"a"] = b"b"
    it = db.iterator()
    next(it)
    raw = db.raw_iterator()
    raw.seek_to_first()
    cf_it = cf.raw_iterator()
    snap = db.snapshot()
    snap_it = snap.iterator()
    db.close()  # must close children first; librocksdb built with assertions aborts otherwise
    assert db.closed and it.closed and raw.closed and snap.closed and cf.closed
    for call in (lambda: next(it), raw.valid, raw.key, cf_it.seek_to_first, lambda: snap.get(b"a"),
                 lambda: next(snap_it), lambda: db.get(b"k000"), lambda: db.put(b"a", b"b"),
                 lambda: db[b"a"], lambda: db.iterator(), db.snapshot, db.write_batch, lambda: db.multi_get([b"a"]),
                 lambda: db.get_property("rocksdb.stats"), lambda: db.create_column_family("x"),
                 lambda: cf.get(b"a"), lambda: db.delete_range(b"a", b"b"), db.flush_wal):
        with pytest.raises(solistore.DbClosedError):
            call()
    it.close()
    raw.close()
    snap.close()
    db.close()  # idempotent
    del it, raw, snap, cf_it, snap_it
    gc.collect()


def test_reopen_right_after_close(lib, db_path):
    for i in range(5):
        with solistore.DB(db_path, create_if_missing=True, lib=lib) as db:
            db.put(b"n", b"%d" % i)
            if i:
                assert db.get(b"k%d" % (i - 1)) == b"x"
            db.put(b"k%d" % i, b"x")
    with solistore.DB(db_path, lib=lib) as db:
        assert db[b"n"] == b"4"


def test_garbage_collected_db_releases_lock(lib, db_path):
    db = solistore.DB(db_path, create_if_missing=True, lib=lib)
    db.put(b"k", b"v")
    it = db.iterator()
    del db, it
    gc.collect()
    with solistore.DB(db_path, lib=lib) as db:
        assert db[b"k"] == b"v"


def test_children_released_in_any_order(lib, db):
    db.put(b"k", b"v")
    its = [db.iterator() for _ in range(5)]
    snaps = [db.snapshot() for _ in range(5)]
    raws = [db.raw_iterator(snapshot=s) for s in snaps]
    snaps[2].close()
    its[3].close()
    del its[1], snaps[0]
    gc.collect()
    for r in raws[2:]:
        r.seek_to_first()
    assert raws[4].key() == b"k"
