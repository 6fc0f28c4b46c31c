#!/bin/sh
# hw-session15.sh OUT: the samples suite (timing_samples.mu) on the card that comes, twice
# (21 repeats each, medians), and the card's name and clocks.
set -u
out=$1
mkdir -p "$out" /tmp/s15
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv >"$out/gpu.txt" 2>&1
nvcc -O2 -arch=sm_90 -x cu -I tests/validation/cuda tests/validation/timing_samples.mu \
  -o /tmp/s15/samples >"$out/build_samples.txt" 2>&1
timeout 240 /tmp/s15/samples 21 >"$out/samples.txt" 2>&1; echo "rc=$?" >>"$out/samples.txt"
timeout 240 /tmp/s15/samples 21 >"$out/samples_run2.txt" 2>&1; echo "rc=$?" >>"$out/samples_run2.txt"
