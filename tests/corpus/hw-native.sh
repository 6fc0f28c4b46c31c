#!/bin/sh
# hw-native.sh OUT: on a machine with an NVIDIA GPU and nvcc, builds every corpus program as
# CUDA (each musa/MUSA name spelled cuda/CUDA: the APIs are one-to-one) and runs it, so that
# the programs' own checks are tried against hardware. One line per program in OUT/summary.txt:
# PASS (exit 0 and a line ending in PASSED), FAIL, BUILD (nvcc refused it) or TIMEOUT, with the
# program's last output line; OUT/<name>.log holds the build and run output.
# Run from the repository root; NVCC_ARCH (default sm_90) picks the target.
set -u
out=$1
here=$(cd "$(dirname "$0")" && pwd)
proj=$here/project
arch=${NVCC_ARCH:-sm_90}
work=$(mktemp -d)
mkdir -p "$out"
to_cuda() { sed -e 's/musa/cuda/g' -e 's/MUSA/CUDA/g' -e 's/Musa/Cuda/g' "$1" >"$2"; }

# The names between `set(LIST` and the line holding only `)`, comments left out.
list_of() {
  awk -v list="$1" '$0 ~ "set\\(" list { on = 1; next } on && /^\)/ { on = 0 }
                    on && !/^ *#/ { print $1 }' "$proj/programs.cmake"
}
programs=$(list_of CORPUS_MU_PROGRAMS)
hosts=$(list_of CORPUS_HOST_PROGRAMS)

mkdir -p "$work/lib"
to_cuda "$proj/lib/vector_kernels.h" "$work/lib/vector_kernels.h"
to_cuda "$proj/lib/vector_kernels.mu" "$work/lib/vector_kernels.cu"
for p in $programs; do to_cuda "$proj/$p.mu" "$work/$p.cu"; done
for p in $hosts; do to_cuda "$proj/host/$p.cpp" "$work/$p.cu"; done

for p in $programs $hosts; do
  extra=""
  [ "$p" = host_kernel_library ] && extra="$work/lib/vector_kernels.cu"
  printf '%s\n' "$p${extra:+ $extra}" # no trailing blank: xargs -L would join lines
done | xargs -P "$(nproc)" -L 1 sh -c '
  p=$1; shift
  nvcc -O2 -std=c++17 -arch='"$arch"' -I '"$work"'/lib '"$work"'/$p.cu "$@" -o '"$work"'/$p \
    >'"$out"'/$p.log 2>&1' sh

pass=0; fail=0
: >"$out/summary.txt"
for p in $programs $hosts; do
  if [ ! -x "$work/$p" ]; then
    fail=$((fail + 1)); echo "BUILD $p: $(grep -m1 error "$out/$p.log")" >>"$out/summary.txt"
    continue
  fi
  timeout 60 "$work/$p" >>"$out/$p.log" 2>&1
  rc=$?
  last=$(grep -v '^$' "$out/$p.log" | tail -n 1)
  if [ $rc -eq 124 ]; then
    fail=$((fail + 1)); echo "TIMEOUT $p" >>"$out/summary.txt"
  elif [ $rc -eq 0 ] && grep -q 'PASSED$' "$out/$p.log"; then
    pass=$((pass + 1)); echo "PASS $p: $last" >>"$out/summary.txt"
  else
    fail=$((fail + 1)); echo "FAIL $p (exit $rc): $last" >>"$out/summary.txt"
  fi
done
echo "passed $pass, failed $fail" >>"$out/summary.txt"
cat "$out/summary.txt"
rm -rf "$work"
