# SPDX-License-Identifier: Apache-2.0
import gc
import threading
import time

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


def _in_thread(fn):
    """Run fn in a thread; return (thread, box) where box collects its outcome."""
    box = []

    def run():
        try:
            box.append(("ok", fn()))
        except BaseException as e:  # noqa: BLE001 - reported to the test
            box.append(("err", e))

    t = threading.Thread(target=run)
    t.start()
    return t, box


@pytest.mark.parametrize("work", ["get", "multi_get", "iterate", "raw", "batch", "snapshot_get"])
def test_close_while_another_thread_is_busy(lib, db_path, work):
    db = solistore.DB(db_path, create_if_missing=True, lib=lib)
    keys = [b"k%05d" % i for i in range(3000)]
    db.put_many((k, b"v" * 50) for k in keys)
    started = threading.Event()

    def hammer():
        n = 0
        try:
            while True:
                if work == "get":
                    db.get(keys[n % len(keys)])
                elif work == "multi_get":
                    db.multi_get(keys)
                elif work == "iterate":
                    for _ in db.iterator():
                        pass
                elif work == "raw":
                    it = db.raw_iterator()
                    it.seek_to_first()
                    while it.valid():
                        it.next()
                elif work == "batch":
                    with db.write_batch() as wb:
                        wb.put(b"x%d" % n, b"y")
                else:
                    with db.snapshot() as s:
                        s.get(keys[0])
                n += 1
                started.set()
        except solistore.DbClosedError:
            return n

    t, box = _in_thread(hammer)
    assert started.wait(30)
    db.close()  # must wait for the call in flight, then close iterators, snapshots, handles
    t.join(30)
    assert not t.is_alive()
    assert box and box[0][0] == "ok", box
    assert db.closed
    with solistore.DB(db_path, lib=lib) as again:  # the LOCK file was released
        assert again.get(keys[-1]) == b"v" * 50


def test_exceptions_holding_frames_do_not_block_close(lib, db_path):
    db = solistore.DB(db_path, create_if_missing=True, lib=lib)
    kept = []
    for call in (lambda: db.get("str"), lambda: db.put(b"k", "v"), lambda: db.delete(1),
                 lambda: db.multi_get([b"a", "b"]), lambda: db.create_column_family("default")):
        try:
            call()
        except (TypeError, solistore.Error) as e:
            kept.append(e)  # keeps the traceback, and with it the frames of the failed calls
    assert len(kept) == 5
    t, box = _in_thread(db.close)
    t.join(30)
    assert not t.is_alive() and box == [("ok", None)]
    solistore.DB(db_path, lib=lib).close()


def test_snapshot_release_while_another_thread_reads_it(lib, db):
    db.put(b"k", b"v1")
    snap = db.snapshot()
    db.put(b"k", b"v2")
    started = threading.Event()

    def reader():
        n = 0
        try:
            while True:
                assert snap.get(b"k") == b"v1"
                assert list(snap.iterator()) == [(b"k", b"v1")]
                n += 1
                started.set()
        except solistore.DbClosedError:
            return n

    t, box = _in_thread(reader)
    assert started.wait(30)
    snap.close()
    t.join(30)
    assert box and box[0][0] == "ok", box
    assert db.get(b"k") == b"v2"


def test_one_iterator_shared_by_threads(lib, db):
    db.put_many((b"%05d" % i, b"v") for i in range(2000))
    raw = db.raw_iterator()
    stop = threading.Event()

    def mover(seek):
        try:
            while not stop.is_set():
                seek()
                for _ in range(50):
                    if not raw.valid():
                        break
                    try:
                        raw.key()
                        raw.next()
                    except solistore.InvalidArgument:  # the other thread moved it past the end
                        pass
        except solistore.DbClosedError:
            return "closed"

    runs = [_in_thread(lambda f=f: mover(f)) for f in (raw.seek_to_first, raw.seek_to_last)]
    time.sleep(0.3)
    raw.close()  # waits for the call in flight
    stop.set()
    for t, box in runs:
        t.join(30)
        assert box in ([("ok", "closed")], [("ok", None)]), box
    assert raw.closed


def test_iteration_interrupted_by_close(lib, db):
    db.put_many((b"%05d" % i, b"v") for i in range(1000))
    it = db.iterator()
    assert next(it)[0] == b"00000"
    db.close()
    with pytest.raises(solistore.DbClosedError):
        for _ in it:
            pass


def test_failed_open_leaves_nothing_behind(lib, db_path):
    for _ in range(3):
        with pytest.raises(solistore.InvalidArgument):
            solistore.DB(db_path, lib=lib)
    gc.collect()
    with solistore.DB(db_path, create_if_missing=True, lib=lib) as db:
        db.put(b"k", b"v")
