# SPDX-License-Identifier: Apache-2.0
"""Per-operation cost of the binding: python3 bench/bench_ops.py [LIB ...] (default: libsolistore).

Prints µs per item for put, batch put, get, multi_get and iteration (items/keys, forward/reverse).
"""

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
import solistore  # noqa: E402

N = 100_000


def best(fn, reps=3):
    t = min(_time(fn) for _ in range(reps))
    return t / N * 1e6


def _time(fn):
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def run(libpath):
    lib = solistore.Library(libpath) if libpath else solistore.get_default_library()
    keys = [b"key%012d" % i for i in range(N)]
    val = b"v" * 100
    with tempfile.TemporaryDirectory() as d, solistore.DB(os.path.join(d, "db"), create_if_missing=True,
                                                         lib=lib) as db:
        res = {}
        res["put"] = best(lambda: [db.put(k, val) for k in keys], 1)

        def batch():
            with db.write_batch() as wb:
                for k in keys:
                    wb.put(k, val)
        res["write_batch put"] = best(batch, 1)
        res["get"] = best(lambda: [db.get(k) for k in keys])
        res["multi_get (1000/call)"] = best(lambda: [db.multi_get(keys[i:i + 1000]) for i in range(0, N, 1000)])
        res["iterate items"] = best(lambda: sum(1 for _ in db.iterator()))
        res["iterate keys"] = best(lambda: sum(1 for _ in db.iterator(include_value=False)))
        res["iterate items reverse"] = best(lambda: sum(1 for _ in db.iterator(reverse=True)))
        print(f"{lib.path}: {N} keys of 15 B, values of 100 B, memtable only")
        for k, v in res.items():
            print(f"  {k:24s} {v:6.2f} µs/item")


if __name__ == "__main__":
    for p in sys.argv[1:] or [None]:
        run(p)
