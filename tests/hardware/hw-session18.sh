#!/bin/sh
# hw-session18.sh OUT [SUITE...]: the device run of the eighteenth session, from the repository root on
# the GPU machine: every validation suite built as CUDA and run once under Nsight Compute,
# counting each launch's warp instructions by pipe and its SASS memory operations, to compare
# with the timing model's instruction counts (MUSA_SIM_REPORT). Counts are the same on any
# sm_90 card (H100 or H200: the same SASS). Everything lands in OUT/results.txt.
set -u
out=$1
mkdir -p "$out" /tmp/s18
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv >"$out/gpu.txt" 2>&1
v=tests/validation
shift
suites=${*:-unseen public blind fresh holdout workloads mechanisms suite samples}
for s in $(echo $suites suite | tr " " "\n" | sort -u); do
  [ -x /tmp/s18/$s ] || nvcc -O2 -arch=sm_90 -x cu -I $v/cuda $v/timing_$s.mu -o /tmp/s18/$s >/tmp/s18/build_$s.txt 2>&1 &
done
wait
M=smsp__inst_executed.sum,smsp__thread_inst_executed.sum,sm__cycles_elapsed.max
for p in alu fma fmaheavy xu lsu fp64 adu cbu uniform fp16; do M=$M,smsp__inst_executed_pipe_$p.sum; done
S=smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_local_ld.sum,smsp__sass_inst_executed_op_local_st.sum,smsp__sass_inst_executed_op_global_atom.sum,smsp__sass_inst_executed_op_global_red.sum
# An unknown metric name fails the whole run: try the full set on one launch, else fall back.
M0=smsp__inst_executed.sum,sm__cycles_elapsed.max
for p in alu fma xu lsu fp64 adu cbu uniform; do M0=$M0,smsp__inst_executed_pipe_$p.sum; done
ALL=
for cand in "$M,$S" "$M0,$S" "$M0"; do
  if ncu --metrics "$cand" --csv --page raw -c 1 /tmp/s18/suite 1 >/tmp/s18/probe.txt 2>&1 &&
     ! grep -qi 'error' /tmp/s18/probe.txt; then ALL=$cand; break; fi
done
cuda() { sed -e 's/musa/cuda/g' -e 's/MUSA/CUDA/g' -e 's/Musa/Cuda/g' "$1" >"$2"; }
cuda tests/e2e/check.h /tmp/s18/check.h
cuda tests/e2e/mipmaps.mu /tmp/s18/mipmaps.cu
[ -x /tmp/s18/mipmaps ] || nvcc -O2 -arch=sm_90 -I /tmp/s18 /tmp/s18/mipmaps.cu -o /tmp/s18/mipmaps >/tmp/s18/build_mipmaps.txt 2>&1
{
  cat "$out/gpu.txt"
  echo "== mipmaps"; cat /tmp/s18/build_mipmaps.txt; timeout 60 /tmp/s18/mipmaps; echo "rc=$?"
  echo "metrics: $ALL"
  for s in $suites; do
    echo "== build $s"; cat /tmp/s18/build_$s.txt
  done
  for s in $suites; do
    echo "== ncu $s"
    timeout 85 ncu --metrics "$ALL" --csv --page raw -c 400 /tmp/s18/$s 1 2>&1 | grep -v '^==PROF==' | grep -v '^RESULT'
    echo "rc=$?"
  done
} >"$out/results.txt" 2>&1  # one command may run 10 minutes: a few suites a call
gzip -k "$out/results.txt"
ls -la "$out"
