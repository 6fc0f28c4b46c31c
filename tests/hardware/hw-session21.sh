#!/bin/sh
# hw-session21.sh OUT: the twenty-first session's device run, everything built in parallel
# first: the twentieth session's VMM probe (tests/hardware/probes/virtual_memory.cu, also in its
# faulting modes) and e2e programs (virtual_memory, driver_calls, batch_copies, pool_sharing,
# per_thread_stream) as CUDA, this session's device_random.mu and math_extras.mu as CUDA, and
# the eighth timing suite (tests/validation/timing_novel.mu), run twice with 21 repeats.
# Results in OUT/results.txt, OUT/novel.txt and OUT/novel_run2.txt (NOVEL_RUNS=1: one run).
set -u
out=$1
b=/tmp/s21
mkdir -p "$out" $b
. tests/hardware/as-cuda.sh
cuda tests/e2e/check.h $b/check.h
nvcc -O2 -arch=sm_90 -x cu -I tests/validation/cuda tests/validation/timing_novel.mu -o $b/tn \
  >$b/tn.log 2>&1 &
nvcc -O2 -arch=sm_90 tests/hardware/probes/virtual_memory.cu -o $b/vmm -lcuda >$b/vmm.log 2>&1 &
for p in virtual_memory driver_calls batch_copies pool_sharing device_random math_extras; do
  cuda tests/e2e/$p.mu $b/$p.cu
  nvcc -O2 -arch=sm_90 -I $b $b/$p.cu -o $b/$p -lcuda >$b/$p.log 2>&1 &
done
cuda tests/e2e/per_thread_stream.mu $b/per_thread_stream.cu
nvcc -O2 -arch=sm_90 --default-stream per-thread -I $b $b/per_thread_stream.cu \
  -o $b/per_thread_stream >$b/per_thread_stream.log 2>&1 &
wait
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
  cat $b/*.log
  echo "== virtual_memory probe"; timeout 60 $b/vmm; echo "rc=$?"
  for m in noaccess readonly; do
    echo "== virtual_memory probe $m"; timeout 60 $b/vmm $m; echo "rc=$?"
  done
  for p in virtual_memory driver_calls batch_copies pool_sharing per_thread_stream \
           device_random math_extras; do
    echo "== e2e $p"; CUDA_SIM_BACKEND=hw timeout 60 $b/$p; echo "rc=$?"
  done
} >"$out/results.txt" 2>&1
timeout 150 $b/tn 21 >"$out/novel.txt" 2>&1; echo "rc=$?" >>"$out/novel.txt"
if [ "${NOVEL_RUNS:-2}" -gt 1 ]; then
  timeout 150 $b/tn 21 >"$out/novel_run2.txt" 2>&1; echo "rc=$?" >>"$out/novel_run2.txt"
fi
nvidia-smi --query-gpu=name,clocks.sm --format=csv >>"$out/results.txt"
tail -c 9000 "$out/results.txt"; tail -5 "$out/novel.txt"
