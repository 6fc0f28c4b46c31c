#!/bin/sh
# hw-session10.sh OUT PART: the device runs of 2026-12-05 (tenth session), from the repository
# root on the GPU machine. PART 1: the card (nvidia-smi, device query), the semantics probe
# (semantics_probe.mu as CUDA), every corpus program as CUDA (tests/corpus/hw-native.sh) and
# the eight timing suites, each run once with 21 repeats after all builds are done, nothing
# else on the GPU. PART 2: the hardware probes whose figures the profiles cite.
set -u
out=$1
part=$2
mkdir -p "$out" /tmp/s10
cuda() { sed -e 's/musa/cuda/g' -e 's/MUSA/CUDA/g' -e 's/Musa/Cuda/g' "$1" >"$2"; }
if [ "$part" = 1 ]; then
  { nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.max.mem,memory.total,driver_version --format=csv
    nvcc --version | tail -2
    nvcc -O2 -arch=sm_90 tests/hardware/device_query.cu -o /tmp/s10/dq && /tmp/s10/dq; } >"$out/gpu.txt" 2>&1
  cuda tests/hardware/semantics_probe.mu /tmp/s10/semantics_probe.cu
  nvcc -O2 -arch=sm_90 /tmp/s10/semantics_probe.cu -o /tmp/s10/sp >"$out/semantics.txt" 2>&1 &&
    /tmp/s10/sp >>"$out/semantics.txt" 2>&1
  for s in suite mechanisms workloads holdout fresh blind unseen public; do
    nvcc -O2 -arch=sm_90 -x cu -I tests/validation/cuda tests/validation/timing_$s.mu \
      -o /tmp/s10/t_$s >"$out/build_$s.txt" 2>&1 &
  done
  sh tests/corpus/hw-native.sh "$out/corpus" >/dev/null 2>&1 &
  wait
  for s in suite mechanisms workloads holdout fresh blind unseen public; do
    timeout 120 /tmp/s10/t_$s 21 >"$out/suites_$s.txt" 2>&1
  done
  nvidia-smi --query-gpu=clocks.sm --format=csv >>"$out/gpu.txt" 2>&1
  cat "$out"/build_*.txt > "$out/builds.txt"; rm -f "$out"/build_*.txt
  (cd "$out" && tar czf corpus.tgz corpus && rm -rf corpus && cat suites_*.txt > suites.txt && rm suites_*.txt)
else
  probes="memory_latency loaded_latency stream_bandwidth request_rates store_rates atomic_footprint
          block_turnover kernel_startup launch_gap pageable_copies shared_atomics mechanisms workload_probe"
  for p in $probes; do
    nvcc -O3 -arch=sm_90 -I tests/hardware tests/hardware/probes/$p.cu -o /tmp/s10/$p \
      >"$out/probe_build_$p.txt" 2>&1 &
  done
  wait
  mkdir -p "$out/probes"
  for p in $probes; do
    { cat "$out/probe_build_$p.txt"; timeout 90 /tmp/s10/$p; } >"$out/probes/$p.txt" 2>&1
    rm -f "$out/probe_build_$p.txt"
  done
  (cd "$out" && tar czf probes.tgz probes && rm -rf probes)
fi
