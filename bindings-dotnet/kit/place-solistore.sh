#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# place-solistore.sh: make an unchanged RocksDbSharp host (Kommander, Kahuna, ...) load
# libsolistore.so instead of the librocksdb its NuGet package ships.
#
#   place-solistore.sh [--link] [--lib PATH] [--version V] [--slot DIR] OUTDIR...
#
# For each OUTDIR (a build output directory such as bin/Release/net10.0, or a publish directory)
# it places libsolistore.so under the file names RocksDbSharp V (default 11.1.2) probes:
#   OUTDIR/runtimes/linux-x64/native/librocksdb-V-jemalloc.so   probed first; no package ships it
#   OUTDIR/runtimes/linux-x64/native/librocksdb.so, librocksdb-jemalloc.so, librocksdb-musl.so
#                                 the package's own files, overwritten (belt and braces)
#   OUTDIR/librocksdb*.so         whatever librocksdb files a RID-specific publish flattened
#                                 into the root, overwritten
# --slot DIR also makes DIR/librocksdb-V-jemalloc.so, for LD_LIBRARY_PATH=DIR: then a host
# started from another working directory finds it by its bare name before any package file.
# Copies by default (a publish directory stays self-contained); --link makes absolute symlinks
# (development trees). An existing symlink at a destination is replaced, never written through.
# The library: --lib, else $SOLISTORE_LIB, else the in-repo build target/release/libsolistore.so.
# Prints one line per file placed. Exit status 2 on bad usage or a missing library.
set -eu

usage() {
  sed -n '3,21p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

here=$(cd "$(dirname "$0")" && pwd)
lib="${SOLISTORE_LIB:-}"
version=11.1.2
link=0
slot=
while [ $# -gt 0 ]; do
  case $1 in
    --link) link=1 ;;
    --lib) [ $# -ge 2 ] || usage; lib=$2; shift ;;
    --version) [ $# -ge 2 ] || usage; version=$2; shift ;;
    --slot) [ $# -ge 2 ] || usage; slot=$2; shift ;;
    -h|--help) usage ;;
    --) shift; break ;;
    -*) echo "place-solistore.sh: unknown option $1" >&2; usage ;;
    *) break ;;
  esac
  shift
done
[ $# -ge 1 ] || [ -n "$slot" ] || usage
if [ -z "$lib" ]; then
  for c in "$here/../../target/release/libsolistore.so" "$here/../runtimes/linux-x64/native/libsolistore.so"; do
    if [ -f "$c" ]; then lib=$c; break; fi
  done
fi
if [ -z "$lib" ] || [ ! -f "$lib" ]; then
  echo "place-solistore.sh: libsolistore.so not found (${lib:-no --lib, SOLISTORE_LIB unset, no in-repo build}); build it with 'make build' or pass --lib" >&2
  exit 2
fi
lib=$(readlink -f "$lib")

place() { # place DEST: DEST becomes libsolistore.so (a copy, or a symlink with --link)
  mkdir -p "$(dirname "$1")"
  rm -f "$1"
  if [ $link = 1 ]; then ln -s "$lib" "$1"; else cp "$lib" "$1"; fi
  echo "placed $1"
}

for out in "$@"; do
  if [ ! -d "$out" ]; then
    echo "place-solistore.sh: $out is not a directory" >&2
    exit 2
  fi
  native="$out/runtimes/linux-x64/native"
  place "$native/librocksdb-$version-jemalloc.so"
  for f in librocksdb.so librocksdb-jemalloc.so librocksdb-musl.so; do place "$native/$f"; done
  for f in "$out"/librocksdb*.so; do
    [ -e "$f" ] || [ -L "$f" ] || continue
    place "$f"
  done
done
if [ -n "$slot" ]; then
  place "$slot/librocksdb-$version-jemalloc.so"
  echo "export LD_LIBRARY_PATH=$(cd "$slot" && pwd)\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
fi
