# SPDX-License-Identifier: Apache-2.0
"""Hypothesis state machine: the same random operations on libsolistore, librocksdb 7.8 and a dict model,
in one process; every read is compared across all three. HYPOTHESIS_EXAMPLES bounds the run (default 20)."""

import os
import shutil
import tempfile

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import settings, strategies as st  # noqa: E402
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule  # noqa: E402

import solistore  # noqa: E402
from conftest import _load  # noqa: E402

keys = st.binary(min_size=0, max_size=3).map(lambda b: b.replace(b"\x03", b"\xff"))
values = st.binary(max_size=8)


class Differential(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.libs = [_load("solistore")[0], _load("rocksdb")[0]]
        self.dir = tempfile.mkdtemp()
        self.paths = [os.path.join(self.dir, f"db{i}") for i in range(2)]
        self.dbs = [solistore.DB(p, create_if_missing=True, lib=lib) for p, lib in zip(self.paths, self.libs)]
        self.model = {}
        self.snaps = []  # (snapshots per db, model copy)

    def teardown(self):
        for db in self.dbs:
            db.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    @rule(k=keys, v=values)
    def put(self, k, v):
        for db in self.dbs:
            db.put(k, v)
        self.model[k] = v

    @rule(k=keys)
    def delete(self, k):
        for db in self.dbs:
            db.delete(k)
        self.model.pop(k, None)

    @rule(a=keys, b=keys)
    def delete_range(self, a, b):
        if a >= b:
            return
        for db in self.dbs:
            db.delete_range(a, b)
        for k in [k for k in self.model if a <= k < b]:
            del self.model[k]

    @rule(ops=st.lists(st.tuples(st.booleans(), keys, values), max_size=6))
    def batch(self, ops):
        for db in self.dbs:
            with db.write_batch() as wb:
                for is_put, k, v in ops:
                    wb.put(k, v) if is_put else wb.delete(k)
        for is_put, k, v in ops:
            if is_put:
                self.model[k] = v
            else:
                self.model.pop(k, None)

    @precondition(lambda self: len(self.snaps) < 3)
    @rule()
    def snapshot(self):
        self.snaps.append(([db.snapshot() for db in self.dbs], dict(self.model)))

    @precondition(lambda self: self.snaps)
    @rule()
    def release(self):
        snaps, _ = self.snaps.pop(0)
        for s in snaps:
            s.close()

    @rule()
    def reopen(self):
        for snaps, _ in self.snaps:
            for s in snaps:
                s.close()
        self.snaps = []
        for db in self.dbs:
            db.close()
        self.dbs = [solistore.DB(p, lib=lib) for p, lib in zip(self.paths, self.libs)]

    @rule(k=keys)
    def get(self, k):
        want = self.model.get(k)
        assert [db.get(k) for db in self.dbs] == [want, want]

    @rule(start=st.none() | keys, stop=st.none() | keys, rev=st.booleans(), inc=st.booleans())
    def iterate(self, start, stop, rev, inc):
        want = sorted(k for k in self.model if (start is None or k >= start) and
                      (stop is None or k < stop or (inc and k == stop)))
        if rev:
            want.reverse()
        want = [(k, self.model[k]) for k in want]
        for db in self.dbs:
            assert list(db.iterator(start=start, stop=stop, include_stop=inc, reverse=rev)) == want

    @invariant()
    def snapshots_hold(self):
        for snaps, model in self.snaps:
            want = sorted(model.items())
            for s in snaps:
                assert list(s.iterator()) == want


def test_differential(both_libs):
    n = int(os.environ.get("HYPOTHESIS_EXAMPLES", "20"))
    Differential.TestCase.settings = settings(max_examples=n, stateful_step_count=30, deadline=None)
    Differential.TestCase().runTest()
