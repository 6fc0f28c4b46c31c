#!/bin/sh
# One-command set-up for a fresh Debian 12 machine (run as root, or with sudo available):
#   cmake/quickstart.sh demo   install what is missing, build, compile and run the vector-add demo
#   cmake/quickstart.sh test   install what is missing, build, run the whole test suite
#   cmake/quickstart.sh asan   the same in a separate AddressSanitizer build (build-asan)
#   cmake/quickstart.sh tsan   the same in a separate ThreadSanitizer build (build-tsan)
# Environment: BUILD_DIR (default build), JOBS (default: number of cores),
#              CTEST_ARGS (extra ctest arguments, e.g. "-LE benchmark").
set -eu
mode=${1:-demo}
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
jobs=${JOBS:-$(nproc)}

packages="clang-19 llvm-19-dev libtbb-dev libboost-context-dev googletest libgtest-dev
          cmake ninja-build g++ zlib1g-dev libzstd-dev libxml2-dev libedit-dev libffi-dev
          libcurl4-openssl-dev libclang-rt-19-dev graphviz"
missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  echo "quickstart: installing$missing"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
fi

sanitize=""
case "$mode" in
asan) sanitize=address; build=${BUILD_DIR:-$top/build-asan} ;;
tsan) sanitize=thread; build=${BUILD_DIR:-$top/build-tsan} ;;
esac
if [ -n "$sanitize" ]; then
  cmake -S "$top" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_C_COMPILER=clang-19 \
        -DMUSA_SIM_SANITIZE=$sanitize >/dev/null
else
  cmake -S "$top" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
ninja -C "$build" -j "$jobs"

case "$mode" in
demo)
  "$build/bin/musa-sim-cc" "$top/examples/vector_add.mu" -o "$build/vector_add"
  "$build/vector_add"
  ;;
test)
  cd "$build"
  # shellcheck disable=SC2086
  ctest --output-on-failure -j "$jobs" ${CTEST_ARGS:-}
  ;;
asan|tsan)
  cd "$build"
  # Sanitizer runs skip the benchmarks and the timing validation (slow there, and their
  # figures mean nothing under a sanitizer).
  export TSAN_OPTIONS="suppressions=$top/cmake/tsan.supp ${TSAN_OPTIONS:-}"
  # Device faults are ours to catch: ASan must leave SIGSEGV to the simulator.
  export ASAN_OPTIONS="handle_segv=0:allow_user_segv_handler=1:detect_stack_use_after_return=0 ${ASAN_OPTIONS:-}"
  export LSAN_OPTIONS="suppressions=$top/cmake/lsan.supp ${LSAN_OPTIONS:-}"
  # ThreadSanitizer is not told about fiber switches (simdevice/src/SanitizerFibers.h) and its
  # own bookkeeping grows unstable when every kernel runs as fibers: the tsan run leaves out
  # the equivalence variants that force MUSA_SIM_EXEC=fibers (the address sanitizer runs them).
  skip="benchmark|validation"
  [ "$mode" = tsan ] && skip="$skip|equivalence"
  # shellcheck disable=SC2086
  ctest --output-on-failure -j "$jobs" -LE "$skip" ${CTEST_ARGS:-}
  ;;
*)
  echo "usage: $0 demo|test|asan|tsan" >&2
  exit 2
  ;;
esac
