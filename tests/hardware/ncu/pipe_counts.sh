#!/bin/bash
# Per-kernel warp instructions by pipe and warp stall reasons on the H200, from Nsight Compute,
# for kernels of the four validation suites (run on the device machine from the repository root;
# writes to $OUT). Used to check the model's instruction counts and issue assumptions against
# what the hardware executed; output: tests/hardware/ncu/pipe_counts.h200.csv
set -e
OUT=${OUT:-/tmp/ncu_out}; mkdir -p $OUT
for s in ${SUITES:-suite mechanisms workloads holdout fresh}; do
  nvcc -O2 -arch=sm_90 -x cu -I tests/validation/cuda tests/validation/timing_$s.mu -o /tmp/t_$s &
done
wait
M=gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__warps_active.avg.per_cycle_active
for p in alu fma fmaheavy fmalite xu lsu fp64 fp16 adu cbu uniform tex; do M=$M,smsp__inst_executed_pipe_$p.sum; done
for r in long_scoreboard short_scoreboard wait barrier math_pipe_throttle mio_throttle lg_throttle not_selected selected no_instruction dispatch_stall branch_resolving membar drain sleeping tex_throttle imc_miss; do
  M=$M,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio; done
for s in ${SUITES:-suite mechanisms workloads holdout fresh}; do
  timeout 140 ncu --metrics $M --csv --page raw -k "regex:${KERNELS:-.}" --launch-count ${COUNT:-400} /tmp/t_$s 1 > $OUT/ncu_$s.csv 2> $OUT/ncu_$s.err || echo "ncu $s rc=$?"
done
