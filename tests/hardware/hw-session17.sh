#!/bin/sh
# hw-session17.sh OUT: the device run of the seventeenth session, from the repository root on
# the GPU machine: warp-synchronous code whose lanes diverge between volatile shared exchanges
# (e2e warp_synchronous_divergent.mu and the corpus's repro_ws_*.mu built as CUDA), and, if
# the card is an H200, the samples suite's times (timing_samples.mu, twice, 21 repeats each).
# Everything lands in OUT/results.txt (the device tool returns few files).
set -u
out=$1
mkdir -p "$out" /tmp/s17
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv >"$out/gpu.txt" 2>&1
cuda() { sed -e 's/musa/cuda/g' -e 's/MUSA/CUDA/g' -e 's/Musa/Cuda/g' "$1" >"$2"; }
cuda tests/e2e/check.h /tmp/s17/check.h
cuda tests/e2e/warp_synchronous_divergent.mu /tmp/s17/warp_synchronous_divergent.cu
progs=warp_synchronous_divergent
for f in tests/corpus/repros/repro_ws_*.mu; do
  p=$(basename "$f" .mu)
  cuda "$f" /tmp/s17/$p.cu
  progs="$progs $p"
done
for p in $progs; do
  nvcc -O2 -arch=sm_90 -I /tmp/s17 /tmp/s17/$p.cu -o /tmp/s17/$p >/tmp/s17/build_$p.txt 2>&1 &
done
if grep -q H200 "$out/gpu.txt"; then
  nvcc -O2 -arch=sm_90 -x cu -I tests/validation/cuda tests/validation/timing_samples.mu \
    -o /tmp/s17/samples >/tmp/s17/build_samples.txt 2>&1 &
fi
wait
{
  cat "$out/gpu.txt"
  for p in $progs; do
    echo "== $p"
    cat /tmp/s17/build_$p.txt
    timeout 60 /tmp/s17/$p 2>&1
    echo "rc=$?"
  done
} >"$out/results.txt" 2>&1
if [ -x /tmp/s17/samples ]; then
  timeout 200 /tmp/s17/samples 21 >"$out/samples.txt" 2>&1; echo "rc=$?" >>"$out/samples.txt"
  timeout 200 /tmp/s17/samples 21 >"$out/samples_run2.txt" 2>&1; echo "rc=$?" >>"$out/samples_run2.txt"
fi
