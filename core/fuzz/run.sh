#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each, JOBS at a time (default 2, the CI machine's
# cores), on the stable toolchain: cargo-fuzz needs nightly flags (-Zsanitizer=address,
# sancov passes), which RUSTC_BOOTSTRAP=1 unlocks on stable. Each run starts from the
# committed seeds (seeds/<target>) plus the local corpus (corpus/<target>, not committed).
# A crash, a hang (-timeout, 10 s per input), a single allocation over 512 MiB
# (-malloc_limit_mb) or RSS over 2 GiB fails the target; libFuzzer saves the input under
# artifacts/<target>/. Exit status: non-zero when any target failed.
#
# usage: core/fuzz/run.sh [SECONDS] [JOBS] [TARGET...]
set -uo pipefail
cd "$(dirname "$0")"
secs=${1:-60}
jobs=${2:-2}
shift $(( $# > 2 ? 2 : $# ))
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(wal_reader write_batch version_edit block filter footer properties options_file table)
fi
export RUSTC_BOOTSTRAP=1
start=$(date +%s)
cargo fuzz build -O >build.log 2>&1 || { cat build.log; exit 1; }
echo "fuzz: built ${#targets[@]} targets in $(( $(date +%s) - start ))s"
mkdir -p logs
run_one() {
  local t=$1
  mkdir -p "corpus/$t" "artifacts/$t"
  cargo fuzz run -O "$t" "corpus/$t" "seeds/$t" -- \
    -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512 \
    -print_final_stats=1 >"logs/$t.log" 2>&1
  local rc=$?
  local runs
  runs=$(grep -m1 -oE 'stat::number_of_executed_units: *[0-9]+' "logs/$t.log" | grep -oE '[0-9]+$')
  if [ $rc -eq 0 ]; then
    echo "fuzz: $t ok, ${runs:-?} runs in ${secs}s"
  else
    echo "fuzz: $t FAILED (exit $rc), see core/fuzz/logs/$t.log and core/fuzz/artifacts/$t/"
    grep -E 'panicked|SUMMARY|ERROR' "logs/$t.log" | head -5
  fi
  return $rc
}
fail=0
pids=()
for t in "${targets[@]}"; do
  run_one "$t" &
  pids+=($!)
  if [ ${#pids[@]} -ge "$jobs" ]; then
    wait "${pids[0]}" || fail=1
    pids=("${pids[@]:1}")
  fi
done
for p in "${pids[@]}"; do wait "$p" || fail=1; done
total=$(( $(date +%s) - start ))
echo "fuzz: ${secs}s per target, $jobs at a time, ${total}s with the build"
if [ $fail -eq 0 ]; then
  echo "fuzz: ${#targets[@]} passed, 0 failed"
else
  echo "fuzz: at least one target failed (see above)"
fi
exit $fail
