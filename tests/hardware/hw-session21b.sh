#!/bin/sh
# hw-session21b.sh OUT: the second device run of the twenty-first session: device_random.mu and
# driver_calls.mu as CUDA again (after fixing the test's guard and its muMemAllocPitch reuse),
# the probe tests/hardware/probes/per_thread_memcpy.cu (where per-thread default-stream code
# waits for a held blocking stream), per_thread_stream.mu (its kernel now launched once before
# the stream is held), and the novel suite once more for run-to-run spread.
set -u
out=$1
b=/tmp/s21b
mkdir -p "$out" $b
. tests/hardware/as-cuda.sh
cuda tests/e2e/check.h $b/check.h
[ "${NOVEL:-1}" = 1 ] && nvcc -O2 -arch=sm_90 -x cu -I tests/validation/cuda \
  tests/validation/timing_novel.mu -o $b/tn >$b/tn.log 2>&1 &
nvcc -O2 -arch=sm_90 --default-stream per-thread tests/hardware/probes/per_thread_memcpy.cu \
  -o $b/ptm >$b/ptm.log 2>&1 &
for p in driver_calls device_random; do
  cuda tests/e2e/$p.mu $b/$p.cu
  nvcc -O2 -arch=sm_90 -I $b $b/$p.cu -o $b/$p -lcuda >$b/$p.log 2>&1 &
done
cuda tests/e2e/per_thread_stream.mu $b/per_thread_stream.cu
nvcc -O2 -arch=sm_90 --default-stream per-thread -I $b $b/per_thread_stream.cu \
  -o $b/per_thread_stream >$b/per_thread_stream.log 2>&1 &
wait
{
  nvidia-smi --query-gpu=name,driver_version --format=csv
  cat $b/*.log
  echo "== per_thread_memcpy"; timeout 30 $b/ptm; echo "rc=$?"
  for p in driver_calls device_random per_thread_stream; do
    echo "== e2e $p"; CUDA_SIM_BACKEND=hw timeout 30 $b/$p; echo "rc=$?"
  done
} >"$out/results.txt" 2>&1
if [ "${NOVEL:-1}" = 1 ]; then
  timeout 120 $b/tn 21 >"$out/novel_run2.txt" 2>&1; echo "rc=$?" >>"$out/novel_run2.txt"
fi
cat "$out/results.txt"
