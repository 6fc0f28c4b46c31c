#!/bin/sh
# hw-session8.sh OUT: the device run of 2026-12-05 (eighth session), from the repository root
# on the GPU machine: the public timing suite measured twice (21 repeats, medians), the
# corpus built and run as CUDA (tests/corpus/hw-native.sh), and two e2e programs as CUDA.
out=$1
mkdir -p "$out"
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; nvcc --version | tail -2; } >"$out/gpu.txt" 2>&1
nvcc -O2 -arch=sm_90 -x cu -I tests/validation/cuda tests/validation/timing_public.mu -o /tmp/tpub >"$out/public_build.txt" 2>&1
(
  mkdir -p /tmp/he
  for f in tests/e2e/half_extras.mu tests/e2e/managed_variables.mu; do
    sed 's/musa/cuda/g;s/MUSA/CUDA/g;s/Musa/Cuda/g' "$f" >/tmp/he/$(basename "$f" .mu).cu
  done
  sed 's/musa/cuda/g;s/MUSA/CUDA/g;s/Musa/Cuda/g' tests/e2e/check.h >/tmp/he/check.h
  for t in half_extras managed_variables; do
    nvcc -O2 -arch=sm_90 -I/tmp/he /tmp/he/$t.cu -o /tmp/he/$t 2>&1 | grep -v warning | head -20
    /tmp/he/$t
  done
) >"$out/e2e_native.txt" 2>&1 &
sh tests/corpus/hw-native.sh "$out/corpus" >/dev/null 2>&1 &
wait
# Timing runs after the builds, with nothing else on the GPU.
/tmp/tpub 21 >"$out/h200_public.txt" 2>&1
/tmp/tpub 21 >"$out/h200_public_run2.txt" 2>&1
nvidia-smi --query-gpu=clocks.sm --format=csv >>"$out/gpu.txt" 2>&1
