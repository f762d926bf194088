#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Builds the .NET binding and its tests with Mono's mcs and runs them with NUnit 2.6
# (nunit-console), once per engine, each in its own process:
#   solistore  LD_LIBRARY_PATH=<target>/release/dropin:<target>/release, where `make build` put
#              libsolistore.so and its drop-in names (librocksdb.so -> libsolistore.so). The
#              binding's DllImport("solistore") and the host replay's DllImport("rocksdb") both
#              resolve there. The placement kit tests (category Kit) run in this pass only.
#   rocksdb    LD_LIBRARY_PATH=out/engine-rocksdb, holding libsolistore.so and librocksdb.so
#              links to Debian's librocksdb.so.7.8 ($ROCKSDB_LIB): every test again on RocksDB.
# Each pass first checks that the libraries loaded are that engine's (tests/Engine.cs).
#   ./run-tests.sh [solistore] [rocksdb]      (default: both)
# Missing mono/mcs/nunit-console: a skip with a message, or a failure when
# SOLISTORE_REQUIRE_DOTNET=1 (CI). Missing librocksdb.so.7.8: the rocksdb pass is skipped, or
# fails when SOLISTORE_REQUIRE_ROCKSDB=1. Ignored tests (functions RocksDB 7.8.3 lacks) are
# listed with their reasons after each pass. Logs: out/logs/<engine>.log, out/TestResult-<engine>.xml.
# Scratch databases: out/tmp (SOLISTORE_DOTNET_TMP), removed after each test (SOLISTORE_DOTNET_KEEP=1 keeps them).
set -u
cd "$(dirname "$0")"
here=$(pwd)
root=$(cd .. && pwd)
profile=${PROFILE:-release}
target=${CARGO_TARGET_DIR:-$root/target}
libdir=$(cd "$target/$profile" 2>/dev/null && pwd || echo "$target/$profile")
rocksdb_lib=${ROCKSDB_LIB:-/usr/lib/x86_64-linux-gnu/librocksdb.so.7.8}
engines="$*"
[ -z "$engines" ] && engines="solistore rocksdb"

missing=
for tool in mono mcs nunit-console; do
  command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
done
if [ -n "$missing" ]; then
  if [ "${SOLISTORE_REQUIRE_DOTNET:-0}" = 1 ]; then
    echo "test-dotnet: FAIL: missing$missing (apt-get install mono-devel nunit-console), and SOLISTORE_REQUIRE_DOTNET=1" >&2
    exit 1
  fi
  echo "test-dotnet: SKIP: missing$missing (apt-get install mono-devel nunit-console to run the .NET tests)"
  exit 0
fi

make -s all || exit 1

status=0
for engine in $engines; do
  case $engine in
    solistore)
      if [ ! -f "$libdir/libsolistore.so" ] || [ ! -e "$libdir/dropin/librocksdb.so" ]; then
        echo "test-dotnet: FAIL: $libdir/libsolistore.so or its dropin/ names missing (run 'make build')" >&2
        status=1; continue
      fi
      ldpath="$libdir/dropin:$libdir"
      filter= ;;
    rocksdb)
      if [ ! -e "$rocksdb_lib" ]; then
        if [ "${SOLISTORE_REQUIRE_ROCKSDB:-0}" = 1 ]; then
          echo "test-dotnet: FAIL: $rocksdb_lib not installed and SOLISTORE_REQUIRE_ROCKSDB=1" >&2
          status=1
        else
          echo "test-dotnet: SKIP engine rocksdb: $rocksdb_lib not installed (apt-get install librocksdb7.8)"
        fi
        continue
      fi
      mkdir -p out/engine-rocksdb
      ln -sf "$rocksdb_lib" out/engine-rocksdb/librocksdb.so
      ln -sf "$rocksdb_lib" out/engine-rocksdb/libsolistore.so
      ldpath="$here/out/engine-rocksdb"
      filter=-exclude=Kit ;;
    *) echo "run-tests.sh: unknown engine $engine" >&2; exit 2 ;;
  esac
  mkdir -p out/logs
  log="out/logs/$engine.log"
  start=$(date +%s)
  echo "== test-dotnet: engine $engine (LD_LIBRARY_PATH=$ldpath)"
  mkdir -p out/tmp
  (cd out && SOLISTORE_DOTNET_TMP="${SOLISTORE_DOTNET_TMP:-$here/out/tmp}" SOLISTORE_DOTNET_ENGINE=$engine SOLISTORE_LIB="$libdir/libsolistore.so" SOLISTORE_DOTNET_KIT="$here/kit" \
     LD_LIBRARY_PATH="$ldpath" timeout "${SOLISTORE_DOTNET_TIMEOUT:-900}" \
     nunit-console Solistore.Tests.dll -nologo -labels -result="TestResult-$engine.xml" $filter) >"$log" 2>&1
  rc=$?
  grep -E '^engine ' "$log" | head -1
  sed -n 's/^\(Tests run:.*\)/\1/p; s/^\(  Not run:.*\)/\1/p' "$log"
  # Make every skip visible: the ignored tests and their reasons.
  awk '/^[0-9]+\) (Ignored|NotRunnable) :/ { print "  " $0; getline; print "     " $0 }' "$log"
  if [ $rc != 0 ]; then
    echo "test-dotnet: engine $engine FAILED (nunit-console exit $rc); from $log:"
    awk '/^Errors and Failures:/ { on = 1 } /^Tests Not Run:/ { on = 0 } on' "$log" | head -n 80
    grep -q '^Tests run:' "$log" || tail -n 40 "$log"
    status=1
  fi
  echo "== test-dotnet: engine $engine took $(( $(date +%s) - start ))s"
done
exit $status
