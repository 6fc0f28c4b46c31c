#!/bin/sh
# hw-session12b.sh OUT: the end-to-end tests this session changed, built as CUDA with nvcc
# -rdc (dynamic parallelism, the device heap and limits, spin waits through __noinline__
# helpers), run on the GPU with their checks, to confirm what they expect is what it does.
set -u
out=$1
mkdir -p "$out" /tmp/s12b
cuda() { sed -e 's/musa/cuda/g' -e 's/MUSA/CUDA/g' -e 's/Musa/Cuda/g' "$1" >"$2"; }
cuda tests/e2e/check.h /tmp/s12b/check.h
for t in dynamic_parallelism spin_waits device_heap; do
  cuda tests/e2e/$t.mu /tmp/s12b/$t.cu
  nvcc -O2 -std=c++17 -arch=sm_90 -rdc=true -I /tmp/s12b /tmp/s12b/$t.cu -o /tmp/s12b/$t \
    -lcudadevrt >"$out/build_$t.txt" 2>&1 &
done
wait
nvidia-smi --query-gpu=name --format=csv,noheader >"$out/gpu.txt"
for t in dynamic_parallelism spin_waits device_heap; do
  { cat "$out/build_$t.txt"; CUDA_SIM_BACKEND=hw timeout 120 /tmp/s12b/$t; echo "rc=$?"; } \
    >"$out/e2e_$t.txt" 2>&1
  rm -f "$out/build_$t.txt"
done
