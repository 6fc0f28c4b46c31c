#!/bin/sh
# The install prefix as users meet it: `cmake --install` into a fresh prefix, then a CMake
# project using find_package(MUSA) + musa_add_executable/musa_add_library, one using
# find_package(MUSAToolkit) + MUSA::musart, and `mcc main.mu -lmusart` with <prefix>/bin on
# PATH. Usage: toolkit-test.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -eu
build=$1; src=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
prefix=$work/musa
cmake --install "$build" --prefix "$prefix" >/dev/null
export MUSA_HOME="$prefix"
for project in find_musa find_musa_toolkit; do
  cmake -S "$src/$project" -B "$work/$project" -G Ninja >"$work/$project.configure.log" 2>&1 ||
    { cat "$work/$project.configure.log"; exit 1; }
  cmake --build "$work/$project" >"$work/$project.build.log" 2>&1 ||
    { cat "$work/$project.build.log"; exit 1; }
done
grep -q "MUSA 5.1.0 at $prefix" "$work/find_musa.configure.log" ||
  { echo "FAIL: FindMUSA did not report the prefix"; cat "$work/find_musa.configure.log"; exit 1; }
# MUSA_VERBOSE_BUILD shows mcc's commands.
grep -q -- "--cuda-device-only" "$work/find_musa.build.log" ||
  { echo "FAIL: MUSA_VERBOSE_BUILD printed no commands"; exit 1; }
"$work/find_musa/app"
"$work/find_musa_toolkit/host"
# mcc from PATH, as the toolkit's users call it.
cd "$work"
PATH="$prefix/bin:$PATH" mcc "$src/find_musa/main.mu" "$src/find_musa/scale.mu" -x musa \
  "$src/find_musa/offset.cpp" -I"$src/find_musa/include" -DSCALE_BY=3 -DAPP_ELEMENTS=100 \
  -lmusart -o mcc_app
./mcc_app
