# SPDX-License-Identifier: Apache-2.0
"""Per-operation cost of the Python binding on each library, same driver, one process.

    python3 bindings-python/bench/bench_ops.py [--runs 5] [--n 50000] [--markdown] [LIB ...]

LIB defaults to the in-repo libsolistore and Debian's librocksdb.so.7.8 (when installed). Each run opens a
fresh DB per library (runs alternate between the libraries), loads N keys of 16 B with 100 B values (all in
the memtable: no flush during the run), and times put, get, write-batch put, put_many, multi_get and
iteration. Prints, per library, the median over the runs of wall-clock and CPU (process) time per item in
µs; on a loaded machine the CPU column is the steadier one. ``--markdown`` prints a table.
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
import solistore  # noqa: E402
import solistore.compat.plyvel as plyvel  # noqa: E402
from solistore.rocksdict import Options as RdictOptions, Rdict  # noqa: E402

VALUE = b"v" * 100


def timed(fn, n):
    w0, c0 = time.perf_counter(), time.process_time()
    fn()
    return (time.perf_counter() - w0) / n * 1e6, (time.process_time() - c0) / n * 1e6


def _raw_walk(db):
    with db.raw_iterator() as it:
        it.seek_to_first()
        valid, nxt, key, value = it.valid, it.next, it.key, it.value
        while valid():
            key()
            value()
            nxt()


def one_run(lib, n):
    keys = [b"key%013d" % i for i in range(n)]
    rev = keys[::-1]
    res = {}
    with tempfile.TemporaryDirectory() as d:
        with solistore.DB(os.path.join(d, "a"), create_if_missing=True, lib=lib) as db:
            def puts():
                put = db.put
                for k in keys:
                    put(k, VALUE)
            res["put"] = timed(puts, n)

            def gets():
                get = db.get
                for k in rev:
                    get(k)
            res["get (hit)"] = timed(gets, n)
            res["get (miss)"] = timed(lambda: [db.get(k + b"x") for k in keys], n)
            res["multi_get, 1000 keys per call"] = timed(
                lambda: [db.multi_get(keys[i:i + 1000]) for i in range(0, n, 1000)], n)
            res["iterate items"] = timed(lambda: sum(1 for _ in db.iterator()), n)
            res["iterate keys"] = timed(lambda: sum(1 for _ in db.iterator(include_value=False)), n)
            res["iterate items, reverse"] = timed(lambda: sum(1 for _ in db.iterator(reverse=True)), n)
            res["raw_iterator next/key/value"] = timed(lambda: _raw_walk(db), n)
        with plyvel.DB(os.path.join(d, "a"), lib=lib) as pdb:
            res["plyvel facade: iterate items"] = timed(lambda: sum(1 for _ in pdb), n)
        rd = Rdict(os.path.join(d, "a"), RdictOptions(raw_mode=True), lib=lib)
        res["rocksdict facade: items()"] = timed(lambda: sum(1 for _ in rd.items()), n)
        rd.close()
        with solistore.DB(os.path.join(d, "b"), create_if_missing=True, lib=lib) as db:
            def batch():
                with db.write_batch() as wb:
                    put = wb.put
                    for k in keys:
                        put(k, VALUE)
            res["write batch put (one batch)"] = timed(batch, n)
        with solistore.DB(os.path.join(d, "c"), create_if_missing=True, lib=lib) as db:
            res["put_many, 1000 per call"] = timed(
                lambda: [db.put_many((k, VALUE) for k in keys[i:i + 1000]) for i in range(0, n, 1000)], n)
    return res


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--n", type=int, default=50_000)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("libs", nargs="*")
    a = ap.parse_args(argv)
    paths = a.libs
    if not paths:
        paths = [solistore.get_default_library().path]
        if os.path.exists("/usr/lib/x86_64-linux-gnu/librocksdb.so.7.8"):
            paths.append("/usr/lib/x86_64-linux-gnu/librocksdb.so.7.8")
    libs = [solistore.Library(p) for p in paths]
    runs = {lib.path: [] for lib in libs}
    for _ in range(a.runs):
        for lib in libs:
            runs[lib.path].append(one_run(lib, a.n))
    ops = list(runs[libs[0].path][0])
    med = {p: {op: (statistics.median(r[op][0] for r in rs), statistics.median(r[op][1] for r in rs))
               for op in ops} for p, rs in runs.items()}
    names = [os.path.basename(p) for p in paths]
    feats = ", ".join(f"{os.path.basename(lib.path)}: "
                      f"{'batch iteration export' if lib.has('solistore_iter_next_batch') else 'plain cursor'}"
                      for lib in libs)
    print(f"{a.runs} runs, {a.n} keys of 16 B, values of 100 B, memtable only; {feats}")
    if a.markdown:
        print("\n| operation, µs per item (median wall / CPU) | " + " | ".join(names) + " |")
        print("|---|" + "---:|" * len(names))
        for op in ops:
            print(f"| {op} | " + " | ".join(f"{med[p][op][0]:.2f} / {med[p][op][1]:.2f}" for p in paths) + " |")
    else:
        for p in paths:
            print(p)
            for op in ops:
                w, c = med[p][op]
                print(f"  {op:32s} {w:7.2f} µs wall  {c:7.2f} µs CPU")


if __name__ == "__main__":
    main(sys.argv[1:])
