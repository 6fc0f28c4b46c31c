#!/bin/sh
# hw-session11.sh OUT: the device run of 2026-12-05 (eleventh session), from the repository
# root on the GPU machine: semantics_probe2.mu as CUDA, and three end-to-end tests built as
# CUDA with nvcc -rdc=true (dynamic parallelism, spin waits with a persistent kernel's grid
# barrier, the device heap and limits), each with its checks, to confirm what the simulator's
# tests expect is what the GPU does.
set -u
out=$1
mkdir -p "$out" /tmp/s11
cuda() { sed -e 's/musa/cuda/g' -e 's/MUSA/CUDA/g' -e 's/Musa/Cuda/g' "$1" >"$2"; }
cuda tests/e2e/check.h /tmp/s11/check.h
cuda tests/hardware/semantics_probe2.mu /tmp/s11/sp2.cu
for t in dynamic_parallelism spin_waits device_heap; do
  cuda tests/e2e/$t.mu /tmp/s11/$t.cu
done
nvcc -O2 -arch=sm_90 /tmp/s11/sp2.cu -o /tmp/s11/sp2 >"$out/build_sp2.txt" 2>&1 &
for t in dynamic_parallelism spin_waits device_heap; do
  nvcc -O2 -std=c++17 -arch=sm_90 -rdc=true -I /tmp/s11 /tmp/s11/$t.cu -o /tmp/s11/$t -lcudadevrt \
    >"$out/build_$t.txt" 2>&1 &
done
wait
{ timeout 60 /tmp/s11/sp2; echo "rc=$?"; } >"$out/semantics2.txt" 2>&1
for t in dynamic_parallelism spin_waits device_heap; do
  { cat "$out/build_$t.txt"; CUDA_SIM_BACKEND=hw timeout 120 /tmp/s11/$t; echo "rc=$?"; } \
    >"$out/e2e_$t.txt" 2>&1
  rm -f "$out/build_$t.txt"
done
cat "$out/build_sp2.txt" >>"$out/semantics2.txt"; rm -f "$out/build_sp2.txt"
