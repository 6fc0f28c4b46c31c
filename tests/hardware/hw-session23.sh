#!/bin/sh
# hw-session23.sh OUT: the twenty-third session's device run (it came as an H100 80GB HBM3):
# the memory-fence cost probe, and which fence instructions nvcc emits for each scope.
set -u
out=$1
mkdir -p "$out"
nvcc -O2 -arch=sm_90 tests/hardware/probes/fence_cost.cu -o /tmp/fc &&
  nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv &&
  /tmp/fc | tee "$out/fence_cost.txt"
cuobjdump -sass /tmp/fc | grep -o "MEMBAR[A-Z.]*\|FENCE[A-Z.]*\|CCTL[A-Z.]*" | sort | uniq -c
# Then (same session, separate calls): the L1 tag-lookup rate and the L2 read bandwidth.
nvcc -O2 -arch=sm_90 tests/hardware/probes/l1_line_rate.cu -o /tmp/l1r && /tmp/l1r | tee "$out/l1_line_rate.txt"
nvcc -O2 -arch=sm_90 tests/hardware/probes/l2_bandwidth.cu -o /tmp/l2b && /tmp/l2b | tee "$out/l2_bandwidth.txt"
