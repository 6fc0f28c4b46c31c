#!/bin/sh
# hw-session23b.sh OUT: the novel suite's julia_f64 and scan_lookback under Nsight Compute
# (instruction counts by pipe, fp64 operations, occupancy, registers, duration), to tell a
# count the model gets wrong from a rate it gets wrong.
set -u
out=$1
b=/tmp/s23b
mkdir -p "$out" $b
. tests/hardware/as-cuda.sh
for f in timing_novel.mu timing_novel_kernels.h suite_harness.h; do
  cuda tests/validation/$f $b/$(echo $f | sed 's/\.mu$/.cu/')
done
nvcc -O2 -arch=sm_90 -I $b $b/timing_novel.cu -o $b/tn >$b/build.log 2>&1 || cat $b/build.log
m=gpu__time_duration.sum,smsp__inst_executed.sum,sm__inst_executed_pipe_fp64.sum
m=$m,sm__sass_thread_inst_executed_op_dfma_pred_on.sum,sm__sass_thread_inst_executed_op_dmul_pred_on.sum
m=$m,sm__sass_thread_inst_executed_op_dadd_pred_on.sum,sm__warps_active.avg.pct_of_peak_sustained_active
m=$m,launch__registers_per_thread,launch__occupancy_limit_registers,smsp__thread_inst_executed_per_inst_executed.ratio
m=$m,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
m=$m,smsp__average_warps_issue_stalled_membar_per_issue_active.ratio
m=$m,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio
m=$m,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio
m=$m,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio
m=$m,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio
m=$m,smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio
m=$m,smsp__issue_active.avg.pct_of_peak_sustained_active
timeout 400 ncu --kernel-name regex:"julia_f64|scan_lookback|hist_u64|tricount" --launch-count 8 \
  --metrics $m --csv $b/tn 1 >"$out/ncu_novel.csv" 2>"$out/ncu_novel.err"
echo "ncu rc=$?"
cuobjdump -sass -fun julia_f64 $b/tn 2>/dev/null | grep -cE "DFMA|DMUL|DADD" >"$out/julia_sass_fp64_count.txt"
cuobjdump -sass $b/tn | awk '/Function : .*julia_f64/{p=1} p&&/EXIT/{print; p=0} p' >"$out/julia_sass.txt"
wc -l "$out"/*
