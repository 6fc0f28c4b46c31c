#!/bin/sh
# The install prefix as users meet it: `cmake --install` into a fresh prefix, then a CMake
# project using find_package(MUSA) + musa_add_executable/musa_add_library, one using
# find_package(MUSAToolkit) + MUSA::musart, and `mcc main.mu -lmusart` with <prefix>/bin on
# PATH; the toolkit found through MUSA_PATH or MUSA_INSTALL_PATH alone; mcc building a shared
# library (-shared -fPIC) and relocatable device code (-rdc=true) directly.
# Usage: toolkit-test.sh BUILD_DIR SOURCE_DIR WORK_DIR
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
grep -q "MUSAToolkit_INCLUDE_DIRS: $prefix/include" "$work/find_musa_toolkit.configure.log" ||
  { echo "FAIL: MUSAToolkit_INCLUDE_DIRS"; cat "$work/find_musa_toolkit.configure.log"; exit 1; }
# MUSA_PATH and MUSA_INSTALL_PATH each find the toolkit without MUSA_HOME, the module copied
# away from the prefix so that its own location cannot.
mkdir -p "$work/modules"
cp "$prefix/cmake/FindMUSAToolkit.cmake" "$work/modules/"
for var in MUSA_PATH MUSA_INSTALL_PATH; do
  env -u MUSA_HOME "$var=$prefix" cmake -S "$src/find_musa_toolkit" -B "$work/by_$var" -G Ninja \
    -DCMAKE_MODULE_PATH="$work/modules" >"$work/by_$var.log" 2>&1 ||
    { echo "FAIL: configure with $var"; cat "$work/by_$var.log"; exit 1; }
  grep -q "MUSAToolkit_INCLUDE_DIRS: $prefix/include" "$work/by_$var.log" ||
    { echo "FAIL: $var did not find the prefix"; cat "$work/by_$var.log"; exit 1; }
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
# A shared library of kernels built by mcc itself, and relocatable device code compiled
# separately then linked.
PATH="$prefix/bin:$PATH" mcc -shared -fPIC "$src/find_musa/scale.mu" -I"$src/find_musa/include" \
  -DSCALE_BY=3 -o libscale_mcc.so
PATH="$prefix/bin:$PATH" mcc "$src/find_musa/main.mu" -x musa "$src/find_musa/offset.cpp" \
  -I"$src/find_musa/include" -DSCALE_BY=3 -DAPP_ELEMENTS=100 -L. -lscale_mcc -lmusart \
  -Wl,-rpath,"$work" -o shared_app
./shared_app
for f in main scale; do
  PATH="$prefix/bin:$PATH" mcc -rdc=true -c "$src/find_musa/$f.mu" -I"$src/find_musa/include" \
    -DSCALE_BY=3 -DAPP_ELEMENTS=100 -o "rdc_$f.o"
done
PATH="$prefix/bin:$PATH" mcc -rdc=true rdc_main.o rdc_scale.o -x musa "$src/find_musa/offset.cpp" \
  -I"$src/find_musa/include" -DSCALE_BY=3 -DAPP_ELEMENTS=100 -lmusart -o rdc_app
./rdc_app
