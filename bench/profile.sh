#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Profiles one workload of the driver on one engine with callgrind (instruction counts: this
# machine kind has no hardware counters for perf), and prints the hottest functions.
#
#   bench/profile.sh ENGINE_LIB OUT_DIR SETUP_SPECS PROFILED_SPEC [driver flags...]
#
# SETUP_SPECS (comma-separated, may be "-") run first at full speed to build the database;
# PROFILED_SPEC then runs under callgrind. With PHASE_ONLY=1 (the default) only the measured
# phase of the worker threads is counted (--toggle-collect=worker_main); PHASE_ONLY=0 counts the
# whole child process, background flushes and compactions included.
# Output: OUT_DIR/callgrind.out.<pid> and OUT_DIR/<label>.txt (inclusive and exclusive tops),
# plus the driver's JSON line in OUT_DIR/runs.jsonl (its ops count gives instructions per op).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lib=$1 out=$2 setup=$3 spec=$4
shift 4
mkdir -p "$out"
db="$out/db"
if [ "$setup" != "-" ]; then
  "$here/build/enginebench" --engine="$lib" --db="$db" --progress=0 "$@" --benchmarks="$setup" >/dev/null
fi
toggle=()
if [ "${PHASE_ONLY:-1}" = 1 ]; then toggle=(--toggle-collect=worker_main); fi
label=$(echo "$spec" | tr '@=/' '_-_')
mkdir -p "$out/$label"
rm -f "$out/$label"/callgrind.out.*
valgrind --tool=callgrind --trace-children=yes "${toggle[@]}" \
  --callgrind-out-file="$out/$label/callgrind.out.%p" -q \
  "$here/build/enginebench" --engine="$lib" --db="$db" --progress=0 --json="$out/$label/run.jsonl" "$@" \
  --benchmarks="$spec"
# The child that ran the workload wrote the larger profile (the parent's is empty or tiny).
prof=$(ls -S "$out/$label"/callgrind.out.* | head -1)
ir=$(grep -m1 '^summary:' "$prof" | awk '{print $2}')
ops=$(python3 -c "import json,sys; print(json.loads(open(sys.argv[1]).readline())['ops'])" "$out/$label/run.jsonl")
{
  echo "== $spec on $lib: $prof"
  echo "instructions: $ir for $ops ops = $((ir / (ops > 0 ? ops : 1))) per op"
  cat "$out/$label/run.jsonl"
  echo "== inclusive"
  callgrind_annotate --inclusive=yes "$prof" 2>/dev/null | head -60
  echo "== exclusive"
  callgrind_annotate "$prof" 2>/dev/null | head -45
} > "$out/$label.txt"
echo "$out/$label.txt"
