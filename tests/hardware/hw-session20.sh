#!/bin/sh
# hw-session20.sh OUT: the twentieth session's device run: tests/hardware/probes/virtual_memory.cu
# (the driver API's virtual memory management), also in its two faulting modes, and the e2e
# programs virtual_memory, driver_calls, batch_copies, pool_sharing and per_thread_stream
# built as CUDA (musa -> cuda, mu* -> cu*, MU* -> CU*). Results in OUT/results.txt.
set -u
out=$1
mkdir -p "$out" /tmp/s20
. tests/hardware/as-cuda.sh
cuda tests/e2e/check.h /tmp/s20/check.h
{
  nvidia-smi --query-gpu=name,driver_version --format=csv
  nvcc -O2 -arch=sm_90 tests/hardware/probes/virtual_memory.cu -o /tmp/s20/vmm -lcuda 2>&1
  echo "== virtual_memory"; timeout 60 /tmp/s20/vmm; echo "rc=$?"
  for m in noaccess readonly; do
    echo "== virtual_memory $m"; timeout 60 /tmp/s20/vmm $m; echo "rc=$?"
  done
  for p in virtual_memory driver_calls batch_copies pool_sharing; do
    echo "== e2e $p"
    cuda tests/e2e/$p.mu /tmp/s20/$p.cu
    nvcc -O2 -arch=sm_90 -I /tmp/s20 /tmp/s20/$p.cu -o /tmp/s20/$p -lcuda 2>&1
    CUDA_SIM_BACKEND=hw timeout 60 /tmp/s20/$p; echo "rc=$?"
  done
  echo "== e2e per_thread_stream"
  cuda tests/e2e/per_thread_stream.mu /tmp/s20/per_thread_stream.cu
  nvcc -O2 -arch=sm_90 --default-stream per-thread -I /tmp/s20 /tmp/s20/per_thread_stream.cu \
    -o /tmp/s20/per_thread_stream 2>&1
  CUDA_SIM_BACKEND=hw timeout 60 /tmp/s20/per_thread_stream; echo "rc=$?"
} >"$out/results.txt" 2>&1
cat "$out/results.txt"
