#!/bin/sh
# Builds the conformance corpus as a user would: `cmake --install` of the simulator into a
# fresh prefix, then the corpus project (project/) configured against it with Ninja and built.
# The programs are run by the per-program CTest tests. Usage: corpus-test.sh BUILD_DIR SRC WORK
set -eu
build=$1; src=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
prefix=$work/musa
cmake --install "$build" --prefix "$prefix" >/dev/null
export MUSA_HOME="$prefix"
cmake -S "$src/project" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/build" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
echo "corpus built: $(ls "$work/build/bin" | wc -l) programs"
