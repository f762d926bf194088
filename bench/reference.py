#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""RocksDB's own numbers beside the driver's: Debian's `db_bench` (rocksdb-tools) and
`enginebench` both drive the same librocksdb through the db_bench group's workloads, with the
same options, alternately, and the ratio of the two says whether the driver reaches the speed
RocksDB's own tool gets out of the library (a driver that handicapped RocksDB would inflate
every solistore ratio). Writes `bench/results/<date>-<name>.md` and the raw runs as JSON lines.

    python3 bench/reference.py --name dbbench-ref [--repeats 3] [--num 1000000]

Each workload runs in a fresh process of its tool, on the database the workloads before it left
(as `compare.py` runs them). The options are the driver's for this group (`bench/README.md`):
Snappy, a 512 MiB LRU block cache (8 MiB for the small-cache row), a full Bloom filter of 10
bits a key, 64 MiB write buffers, two background jobs. What the two tools do differently is
listed in the results file (`DIFFERENCES`).
"""

import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import time

import compare

DB_BENCH = "/usr/bin/db_bench"

# (driver spec, db_bench benchmark, db_bench flags beyond the common ones); in run order.
WORKLOADS = [
    ("fillrandom", "fillrandom", []),
    ("overwrite", "overwrite", []),
    ("readrandom", "readrandom", []),
    ("readmissing", "readmissing", []),
    ("readseq", "readseq", []),
    ("readreverse", "readreverse", []),
    ("seekrandom", "seekrandom", ["--seek_nexts=10", "--reads={seeks}"]),
    ("multireadrandom@reads=500000", "multireadrandom",
     ["--batch_size=32", "--multiread_batched=1", "--reads=500000"]),
    ("readrandom@cache_mb=8@reads=300000", "readrandom", ["--cache_size=8388608", "--reads=300000"]),
    ("readwhilewriting@reads=200000", "readwhilewriting", ["--reads=200000"]),
    ("deleterandom", "deleterandom", ["--deletes={deletes}"]),
]

DIFFERENCES = """\
- **Keys:** `db_bench` writes a 16-byte key as the key number's 8 big-endian bytes padded with
  `0` characters, and the driver writes the number in decimal, zero-padded. Both are 16 bytes,
  and in both a key's order follows its number.
- **Which keys exist:** `db_bench`'s `fillrandom` draws its keys at random with replacement,
  so about 63% of the key numbers get written. The driver's `fillrandom` writes every key
  exactly once, in random order. `db_bench`'s database therefore holds about a third fewer
  entries, and a smaller database is kinder to the 8 MiB-cache row.
- **Which keys are read:** with the fixed `--seed=1`, each `db_bench` workload draws the same
  key sequence from the start. Its `overwrite` rewrites exactly the keys `fillrandom` wrote,
  and its `readrandom` reads them, so every read finds its key (`found` 1.00), as in the
  driver. Workloads that draw keys differently (`seekrandom`, `multireadrandom`,
  `readwhilewriting`) find only the fraction in the `found` column. A miss that the Bloom
  filter rejects costs less than a hit, so their mix is easier than the driver's all-hits.
- **`multireadrandom`:** `db_bench` calls the batched C++ `MultiGet` (`--multiread_batched`).
  The driver calls `rocksdb_multi_get`, which in 7.8.3 loops over the keys, unless it is
  given `batched=1`, which uses `rocksdb_batched_multi_get_cf`.
- **`readmissing`:** `db_bench` appends a byte to an existing key (17 bytes). The driver
  replaces the last digit (16 bytes, sorting between existing keys).
- **Values:** both generate values that compress to about half (`--compression_ratio=0.5`).
- **Timing:** `db_bench` divides its operations by its own elapsed time. The driver times the
  same phase, after the open.
"""


def common_flags(num):
    return [f"--num={num}", "--key_size=16", "--value_size=100", "--compression_type=snappy",
            "--compression_ratio=0.5", "--cache_size=536870912", "--bloom_bits=10",
            "--write_buffer_size=67108864", "--max_background_jobs=2", "--threads=1",
            "--seed=1", "--stats_interval_seconds=0"]


LINE = re.compile(r"^(\w+)\s*:\s*([\d.]+) micros/op (\d+) ops/sec.*?(?:\((\d+) of (\d+) found\))?\s*$")


def run_db_bench(db, num, repeat):
    """The workloads in order with db_bench on a fresh `db`; one record per workload."""
    shutil.rmtree(db, ignore_errors=True)
    out = []
    for i, (spec, bench, extra) in enumerate(WORKLOADS):
        flags = [f.format(seeks=num // 10, deletes=num // 2) for f in extra]
        # A later flag wins, so a row's own cache size overrides the common one.
        cmd = [DB_BENCH, f"--db={db}", f"--use_existing_db={0 if i == 0 else 1}",
               f"--benchmarks={bench}"] + common_flags(num) + flags
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        rec = {"tool": "db_bench", "repeat": repeat, "spec": spec, "ops_per_s": None, "found": None,
               "error": None}
        for line in p.stdout.splitlines():
            m = LINE.match(line.strip())
            if m and m.group(1) == bench:
                rec["ops_per_s"] = float(m.group(3))
                if m.group(4):
                    rec["found"] = int(m.group(4)) / max(int(m.group(5)), 1)
        if p.returncode != 0 or rec["ops_per_s"] is None:
            rec["error"] = f"exit {p.returncode}: " + " | ".join(p.stdout.strip().splitlines()[-3:])
        print(f"db_bench     {spec:40} {rec['ops_per_s'] or 0:>12,.0f} ops/s"
              + (f"  found {rec['found']:.2f}" if rec["found"] is not None else "")
              + (f"  ERROR {rec['error']}" if rec["error"] else ""))
        sys.stdout.flush()
        out.append(rec)
    return out


def run_driver(lib, db, num, repeat, tmp_jsonl):
    """The same workloads through enginebench on `lib`, on a fresh `db`."""
    shutil.rmtree(db, ignore_errors=True)
    if os.path.exists(tmp_jsonl):
        os.remove(tmp_jsonl)
    specs = [w[0] for w in WORKLOADS]
    compare.run_group(lib, "rocksdb", db, [f"--num={num}", "--progress=0"], specs, tmp_jsonl, [])
    got = {}
    if os.path.exists(tmp_jsonl):
        with open(tmp_jsonl) as f:
            for line in f:
                r = json.loads(line)
                got[r["spec"]] = r
    out = []
    for spec in specs:
        r = got.get(spec)
        out.append({"tool": "enginebench", "repeat": repeat, "spec": spec,
                    "ops_per_s": r["ops_per_s"] if r and not r.get("error") else None, "found": None,
                    "error": None if r and not r.get("error") else (r or {}).get("error", "no result")})
    return out


def render(meta, records, md, notes):
    def med(tool, spec, key="ops_per_s"):
        xs = [r[key] for r in records if r["tool"] == tool and r["spec"] == spec and r[key] is not None]
        return compare.median(xs) if xs else None

    lines = ["| workload | db_bench ops/s | enginebench ops/s | enginebench / db_bench | db_bench found |",
             "|---|---:|---:|---:|---:|"]
    for spec, _, _ in WORKLOADS:
        d, e, found = med("db_bench", spec), med("enginebench", spec), med("db_bench", spec, "found")
        ratio = e / d if d and e else None
        lines.append(f"| `{spec}` | {compare.fmt_rate(d)} | {compare.fmt_rate(e)} | "
                     f"{compare.fmt_num(ratio)} | {compare.fmt_num(found)} |")
    errors = [f"- {r['tool']} {r['spec']} (run {r['repeat'] + 1}): {r['error']}" for r in records if r["error"]]
    m = meta["machine"]
    text = [f"# {meta['date']}: RocksDB {meta['rocksdb']['realpath']} through db_bench and through enginebench",
            "",
            f"Generated by `bench/reference.py`; the raw runs are in `{os.path.basename(md)[:-3]}.jsonl`.",
            "",
            "## Machine and run", "",
            f"- machine: {m['nproc']} CPUs, {m['cpu']}, {m['memory']}, kernel {m['kernel']}",
            f"- load average (1/5/15 min): {meta['load_start']} at start, {meta['load_end']} at end",
            f"- {meta['repeats']} runs per tool, alternating (the first tool swapped every run), medians; "
            f"{meta['seconds']:.0f} s; `--num={meta['num']}`",
            f"- db_bench: `{DB_BENCH}` ({meta['db_bench_version']}); library: `{meta['rocksdb']['realpath']}` "
            f"(sha256 {meta['rocksdb']['sha256']}…)",
            f"- commit: `{meta['git']['commit']}`{' (dirty)' if meta['git']['dirty'] else ''}",
            f"- common db_bench flags: `{' '.join(common_flags(meta['num']))}`",
            "",
            "## Throughput", "",
            "A ratio near 1 means that the driver gets out of librocksdb what RocksDB's own tool gets; "
            "below 1, the driver would be handicapping RocksDB in every comparison.", "",
            *lines, "",
            "## What the two tools do differently", "", DIFFERENCES]
    if errors:
        text += ["## Errors", "", *errors, ""]
    if notes:
        text += ["## Notes", "", notes.strip(), ""]
    with open(md, "w") as f:
        f.write("\n".join(text))
    print("\n".join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--name", default="dbbench-ref")
    ap.add_argument("--rocksdb", default="/usr/lib/x86_64-linux-gnu/librocksdb.so.7.8")
    ap.add_argument("--db", default="/tmp/enginebench-ref")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--num", type=int, default=1000000)
    ap.add_argument("--out", default=os.path.join(compare.HERE, "results"))
    ap.add_argument("--from", dest="from_jsonl", help="re-render a results file from its JSON lines")
    ap.add_argument("--notes", help="a Markdown file whose text becomes the results file's notes")
    a = ap.parse_args()
    notes = open(a.notes).read() if a.notes else ""
    if a.from_jsonl:
        with open(a.from_jsonl) as f:
            rows = [json.loads(line) for line in f]
        render(rows[0], rows[1:], a.from_jsonl[:-len(".jsonl")] + ".md", notes)
        return 0
    if not os.access(DB_BENCH, os.X_OK):
        print(f"{DB_BENCH} not found: apt-get install rocksdb-tools", file=sys.stderr)
        return 2
    version = subprocess.run([DB_BENCH, "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True).stdout.strip().splitlines()
    date = datetime.date.today().isoformat()
    meta = {"date": date, "machine": compare.machine(), "repeats": a.repeats, "num": a.num,
            "rocksdb": compare.lib_info(a.rocksdb), "db_bench_version": version[0] if version else "?",
            "git": {"commit": compare.sh("git -C %s rev-parse HEAD" % compare.HERE),
                    "dirty": bool(compare.sh("git -C %s status --porcelain" % compare.HERE))},
            "load_start": compare.loadavg()}
    os.makedirs(a.db, exist_ok=True)
    t0 = time.time()
    records = []
    tmp_jsonl = os.path.join(a.db, "driver.jsonl")
    for repeat in range(a.repeats):
        tools = ["db_bench", "enginebench"] if repeat % 2 == 0 else ["enginebench", "db_bench"]
        for tool in tools:
            print(f"== {tool}, run {repeat + 1}/{a.repeats}")
            db = os.path.join(a.db, "db")
            if tool == "db_bench":
                records += run_db_bench(db, a.num, repeat)
            else:
                records += run_driver(a.rocksdb, db, a.num, repeat, tmp_jsonl)
    shutil.rmtree(os.path.join(a.db, "db"), ignore_errors=True)
    meta["load_end"] = compare.loadavg()
    meta["seconds"] = time.time() - t0
    os.makedirs(a.out, exist_ok=True)
    base = os.path.join(a.out, f"{date}-{a.name}")
    with open(base + ".jsonl", "w") as f:
        for r in [meta] + records:
            f.write(json.dumps(r) + "\n")
    render(meta, records, base + ".md", notes)
    print(f"wrote {base}.md")
    return 1 if any(r["error"] for r in records) else 0


if __name__ == "__main__":
    sys.exit(main())
