#!/bin/sh
# hw-session16.sh OUT: the device run of the sixteenth session, from the repository root on
# the GPU machine: pre-Volta warp-synchronous code on the GPU (e2e warp_synchronous.mu and
# the corpus repro built as CUDA: volatile shared memory without __syncwarp, which the
# simulator now runs in lockstep), and, if the card is an H200, the samples suite's times
# (timing_samples.mu, twice, 21 repeats each), which only the H100 has timed so far.
set -u
out=$1
mkdir -p "$out" /tmp/s16
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv >"$out/gpu.txt" 2>&1
cuda() { sed -e 's/musa/cuda/g' -e 's/MUSA/CUDA/g' -e 's/Musa/Cuda/g' "$1" >"$2"; }
cuda tests/e2e/check.h /tmp/s16/check.h
cuda tests/e2e/warp_synchronous.mu /tmp/s16/warp_synchronous.cu
cuda tests/corpus/repros/repro_warp_synchronous_legacy.mu /tmp/s16/legacy.cu
for p in warp_synchronous legacy; do
  nvcc -O2 -arch=sm_90 -I /tmp/s16 /tmp/s16/$p.cu -o /tmp/s16/$p >"$out/build_$p.txt" 2>&1 &
done
if grep -q H200 "$out/gpu.txt"; then
  nvcc -O2 -arch=sm_90 -x cu -I tests/validation/cuda tests/validation/timing_samples.mu \
    -o /tmp/s16/samples >"$out/build_samples.txt" 2>&1 &
fi
wait
for p in warp_synchronous legacy; do
  timeout 60 /tmp/s16/$p >"$out/$p.txt" 2>&1; echo "rc=$?" >>"$out/$p.txt"
done
if [ -x /tmp/s16/samples ]; then
  timeout 200 /tmp/s16/samples 21 >"$out/samples.txt" 2>&1; echo "rc=$?" >>"$out/samples.txt"
  timeout 200 /tmp/s16/samples 21 >"$out/samples_run2.txt" 2>&1; echo "rc=$?" >>"$out/samples_run2.txt"
fi
