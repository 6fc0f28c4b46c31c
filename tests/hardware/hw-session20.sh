#!/bin/sh
# hw-session20.sh OUT: the twentieth session's device run: tests/hardware/probes/virtual_memory.cu
# (the driver API's virtual memory management), also in its two faulting modes. Results in
# OUT/results.txt.
set -u
out=$1
mkdir -p "$out" /tmp/s20
{
  nvidia-smi --query-gpu=name,driver_version --format=csv
  nvcc -O2 -arch=sm_90 tests/hardware/probes/virtual_memory.cu -o /tmp/s20/vmm -lcuda 2>&1
  echo "== virtual_memory"; timeout 60 /tmp/s20/vmm; echo "rc=$?"
  for m in noaccess readonly; do
    echo "== virtual_memory $m"; timeout 60 /tmp/s20/vmm $m; echo "rc=$?"
  done
} >"$out/results.txt" 2>&1
cat "$out/results.txt"
