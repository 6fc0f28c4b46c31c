#!/bin/sh
# hw-session22.sh OUT: the twenty-second session's device run: random_host.mu as CUDA (cuRAND's
# device generators on the GPU against the host generators' values the test stores), blas.mu
# as CUDA against cuBLAS, then
# hw-session21b.sh's programs (per_thread_memcpy probe, driver_calls, device_random,
# per_thread_stream) and, with NOVEL=1 (the default), the novel timing suite.
set -u
out=$1
b=/tmp/s22
mkdir -p "$out" $b
. tests/hardware/as-cuda.sh
cuda tests/e2e/check.h $b/check.h
cp tests/e2e/random_host_expected.h tests/e2e/random_host_gpu.h $b/
cuda tests/e2e/random_host.mu $b/random_host.cu
nvcc -O2 -arch=sm_90 -I $b $b/random_host.cu -o $b/random_host -lcurand >$b/rh.log 2>&1 &
cuda tests/e2e/blas.mu $b/blas.cu
nvcc -O2 -arch=sm_90 -I $b $b/blas.cu -o $b/blas -lcublas >$b/blas.log 2>&1 &
sh tests/hardware/hw-session21b.sh "$out/s21b" >/dev/null 2>&1 &
wait
{
  cat $b/rh.log $b/blas.log
  echo "== e2e blas"; timeout 60 $b/blas; echo "rc=$?"
  echo "== e2e random_host"; timeout 60 $b/random_host; echo "rc=$?"
  echo "== random_host --print (device generators)"; timeout 60 $b/random_host --print
} >"$out/random_host.txt" 2>&1
cat "$out/random_host.txt" "$out/s21b/results.txt"
