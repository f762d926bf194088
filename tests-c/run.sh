#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Builds (unless --no-build) and runs the tests-c programs in one or more modes:
#   rocksdb             build/rocksdb/*   (Debian 7.8.3 header, -lrocksdb): the reference run
#   solistore           build/solistore/* (solistore header, libsolistore.so via rpath)
#   dropin              build/rocksdb/*   with LD_LIBRARY_PATH=build/dropin (librocksdb.so.7.8 -> libsolistore.so)
#   valgrind-solistore  build/solistore/* under valgrind memcheck (memory errors and definite or
#                       indirect leaks fail the phase, in the forked child where they happen)
#   valgrind-rocksdb    build/rocksdb/*   under valgrind, for comparison
#   asan                build/asan/*      (solistore, -fsanitize=address,undefined, LeakSanitizer on:
#                       ASan's allocator serves the Rust library's malloc too, so leaks on either
#                       side of the API fail the phase)
#   sanitize            asan valgrind-solistore (what `make test` runs)
#   all                 rocksdb solistore dropin (the default)
# PROGS="test_open test_iter" selects programs. stdout shows each phase's verdict; the stderr of
# each run goes to build/logs/<mode>/<prog>.log (its tail is shown when a program fails).
# Exit status: 0 iff every program of every mode passed.
set -u
cd "$(dirname "$0")"
build=1
if [ "${1:-}" = "--no-build" ]; then build=0; shift; fi
modes="$*"
[ -z "$modes" ] && modes=all
expanded=""
for m in $modes; do
  case $m in
    all) expanded="$expanded rocksdb solistore dropin" ;;
    sanitize) expanded="$expanded asan valgrind-solistore" ;;
    *) expanded="$expanded $m" ;;
  esac
done
modes=$expanded
PROGS="${PROGS:-test_open test_putget test_writebatch test_iter test_snapshot test_cf test_merge test_comparator test_compaction_filter test_checkpoint test_options test_properties test_misuse test_hosts}"
if [ $build = 1 ]; then
  make -s build PROGS="$PROGS" || exit 2
fi

total_fail=0
summary=""
for mode in $modes; do
  case $mode in
    all) continue ;;
    rocksdb|valgrind-rocksdb) dir=build/rocksdb ;;
    solistore|valgrind-solistore) dir=build/solistore ;;
    dropin) dir=build/rocksdb ;;
    asan) dir=build/asan
      [ $build = 1 ] && { make -s build-asan PROGS="$PROGS" || exit 2; } ;;
    *) echo "run.sh: unknown mode $mode" >&2; exit 2 ;;
  esac
  mkdir -p "build/logs/$mode"
  pass=0; fail=0; failed_progs=""
  echo "######## mode $mode"
  for p in $PROGS; do
    log="build/logs/$mode/$p.log"
    case $mode in
      dropin) LD_LIBRARY_PATH="$PWD/build/dropin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "./$dir/$p" 2>"$log" ;;
      valgrind-*)
        # --fair-sched=yes: valgrind runs one thread at a time, and its default lock let a
        # busy reader thread (test_hosts' scan_reader) starve the writers it waits for.
        TESTC_TIMEOUT="${TESTC_TIMEOUT:-1800}" valgrind -q --fair-sched=yes --error-exitcode=1 --leak-check=full \
          --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
          --suppressions="$PWD/valgrind.supp" "./$dir/$p" 2>"$log" ;;
      asan) ASAN_OPTIONS="detect_leaks=1:abort_on_error=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
        UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" "./$dir/$p" 2>"$log" ;;
      *) "./$dir/$p" 2>"$log" ;;
    esac
    rc=$?
    if [ $rc = 0 ]; then
      pass=$((pass + 1))
    else
      fail=$((fail + 1)); failed_progs="$failed_progs $p"
      echo "---- $p exited $rc; last lines of $log:"
      tail -n 25 "$log" | sed 's/^/    /'
    fi
  done
  line="mode $mode: programs: $pass passed, $fail failed${failed_progs:+ (}${failed_progs# }${failed_progs:+)}"
  echo "$line"
  summary="$summary$line
"
  total_fail=$((total_fail + fail))
done
echo "######## summary"
printf '%s' "$summary"
[ $total_fail = 0 ]
