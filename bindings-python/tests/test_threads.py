# SPDX-License-Identifier: Apache-2.0
import threading


def test_threads_write_and_iterate(db):
    n_threads, n_keys = 4, 500
    errors = []

    def worker(t):
        try:
            pre = b"t%d-" % t
            for i in range(n_keys):
                if i % 2:
                    db.put(pre + b"%05d" % i, b"%d" % i)
                else:
                    with db.write_batch() as wb:
                        wb.put(pre + b"%05d" % i, b"%d" % i)
                if i % 100 == 99:
                    got = list(db.iterator(prefix=pre, include_value=False))
                    assert got == [pre + b"%05d" % j for j in range(i + 1)], t
                    assert db.multi_get([pre + b"%05d" % i]) == [b"%d" % i]
            # also scan everything while others write
            keys = list(db.iterator(include_value=False))
            assert keys == sorted(keys)
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert sum(1 for _ in db.iterator(include_value=False)) == n_threads * n_keys
