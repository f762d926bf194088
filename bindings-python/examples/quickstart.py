# SPDX-License-Identifier: Apache-2.0
"""The solistore Python package in a few lines, run on libsolistore and then, unchanged, on a real
librocksdb when one is installed.

    python3 bindings-python/examples/quickstart.py [LIB ...]

LIB: paths or sonames of the libraries to run on (default: the package's default library, then
Debian's librocksdb.so.7.8 if present). Exits non-zero if any step gives an unexpected result.
"""

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
import solistore  # noqa: E402
import solistore.compat.plyvel as plyvel  # noqa: E402
from solistore.rocksdict import Options as RdictOptions, Rdict  # noqa: E402


def check(cond, what):
    if not cond:
        raise SystemExit(f"quickstart: unexpected result: {what}")


def run(lib: solistore.Library) -> None:
    kind = "libsolistore" if lib.is_solistore else "librocksdb"
    print(f"== {kind}: {lib.path}")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "db")
        with solistore.DB(path, create_if_missing=True, lib=lib) as db:
            db.put(b"greeting", b"hello")
            db[b"answer"] = b"42"
            check(db.get(b"greeting") == b"hello" and db[b"answer"] == b"42", "get")

            t0 = time.perf_counter()
            with db.write_batch() as wb:  # one C call writes the whole batch
                for i in range(100_000):
                    wb.put(b"user:%06d" % i, b"x" * 100)
            t1 = time.perf_counter()
            n = sum(1 for _ in db.iterator(prefix=b"user:"))
            t2 = time.perf_counter()
            check(n == 100_000, "prefix scan")
            print(f"   100,000 puts in one write batch: {(t1 - t0) * 1e3:.0f} ms; "
                  f"prefix scan of them: {(t2 - t1) * 1e3:.0f} ms")

            check(db.multi_get([b"user:000007", b"nope"]) == [b"x" * 100, None], "multi_get")
            with db.snapshot() as snap:
                db.delete_range(b"user:", b"user;")
                check(snap.get(b"user:000001") is not None and db.get(b"user:000001") is None, "snapshot")
            cf = db.create_column_family("meta")
            cf[b"schema"] = b"v1"
            check(list(cf.iterator()) == [(b"schema", b"v1")], "column family")
            print(f"   estimate-num-keys: {db.get_property('rocksdb.estimate-num-keys')}")
        with solistore.DB(path, lib=lib) as db:  # reopen: every column family comes back
            check(db.get_column_family("meta")[b"schema"] == b"v1", "reopen")

        # The same data through plyvel's and rocksdict's APIs.
        with plyvel.DB(path, lib=lib) as pdb:
            check(pdb.get(b"greeting") == b"hello", "plyvel facade")
        rd = Rdict(path, RdictOptions(raw_mode=True), lib=lib)
        check(rd[[b"greeting", b"answer"]] == [b"hello", b"42"], "rocksdict facade")
        rd.close()
    print("   ok")


def main(argv):
    libs = [solistore.Library(p) for p in argv]
    if not libs:
        libs = [solistore.get_default_library()]
        debian = "/usr/lib/x86_64-linux-gnu/librocksdb.so.7.8"
        if os.path.exists(debian) and libs[0].is_solistore:
            libs.append(solistore.Library(debian))
    for lib in libs:
        run(lib)


if __name__ == "__main__":
    main(sys.argv[1:])
