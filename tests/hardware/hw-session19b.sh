#!/bin/sh
# hw-session19b.sh OUT: the second device run of the nineteenth session: tests/e2e/param_info.mu
# and graph_symbols.mu built as CUDA, and tests/hardware/probes/entry_points.cu. Results in
# OUT/results.txt.
set -u
out=$1
mkdir -p "$out" /tmp/s19
cuda() { sed -e 's/musa/cuda/g' -e 's/MUSA/CUDA/g' -e 's/Musa/Cuda/g' "$1" >"$2"; }
cuda tests/e2e/check.h /tmp/s19/check.h
{
  nvidia-smi --query-gpu=name,driver_version --format=csv
  for p in param_info graph_symbols; do
    echo "== $p"
    cuda tests/e2e/$p.mu /tmp/s19/$p.cu
    nvcc -O2 -arch=sm_90 -I /tmp/s19 /tmp/s19/$p.cu -o /tmp/s19/$p 2>&1
    CUDA_SIM_BACKEND=hw timeout 60 /tmp/s19/$p; echo "rc=$?"
  done
  echo "== entry_points"
  nvcc -O2 -arch=sm_90 tests/hardware/probes/entry_points.cu -o /tmp/s19/entry 2>&1
  timeout 60 /tmp/s19/entry; echo "rc=$?"
} >"$out/results.txt" 2>&1
cat "$out/results.txt"
