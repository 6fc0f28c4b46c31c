#!/bin/sh
# hw-session13.sh OUT: the device run of the thirteenth session, from the repository root on
# the GPU machine: Nsight Compute counters (instructions by pipe, stall reasons, L1/L2 hit
# rates, sectors per request, local-memory traffic) and the SASS of the kernels the model
# under-predicts most in the public and samples suites (latency-bound loops with few warps),
# the new e2e test timing_loop_samples built as CUDA (its two kernels' times), and the
# probe managed_ranges.mu (what musaMemRangeGetAttribute reads back), the samples suite's times
# (H200), and e2e directed_rounding.mu as CUDA (the directed modes against the host).
set -u
out=$1
mkdir -p "$out" /tmp/s13
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv >"$out/gpu.txt" 2>&1
v=tests/validation
for s in public samples unseen; do
  nvcc -O2 -arch=sm_90 -x cu -I $v/cuda $v/timing_$s.mu -o /tmp/s13/$s >"$out/build_$s.txt" 2>&1 &
done
cuda() { sed -e 's/musa/cuda/g' -e 's/MUSA/CUDA/g' -e 's/Musa/Cuda/g' "$1" >"$2"; }
cuda tests/e2e/check.h /tmp/s13/check.h
cuda tests/e2e/timing_loop_samples.mu /tmp/s13/loop_samples.cu
nvcc -O2 -arch=sm_90 -I /tmp/s13 /tmp/s13/loop_samples.cu -o /tmp/s13/loop_samples \
  >"$out/build_loop_samples.txt" 2>&1 &
cuda tests/e2e/directed_rounding.mu /tmp/s13/directed_rounding.cu
nvcc -O2 -arch=sm_90 -I /tmp/s13 /tmp/s13/directed_rounding.cu -o /tmp/s13/directed_rounding \
  >"$out/build_directed_rounding.txt" 2>&1 &
cuda tests/hardware/probes/managed_ranges.mu /tmp/s13/managed_ranges.cu
nvcc -O2 -arch=sm_90 /tmp/s13/managed_ranges.cu -o /tmp/s13/managed_ranges \
  >"$out/build_managed_ranges.txt" 2>&1 &
wait
timeout 240 /tmp/s13/samples 21 >"$out/samples.txt" 2>&1; echo "rc=$?" >>"$out/samples.txt"
timeout 60 /tmp/s13/directed_rounding >"$out/directed_rounding.txt" 2>&1; echo "rc=$?" >>"$out/directed_rounding.txt"
timeout 60 /tmp/s13/managed_ranges >"$out/managed_ranges.txt" 2>&1; echo "rc=$?" >>"$out/managed_ranges.txt"
for i in 1 2 3; do timeout 60 /tmp/s13/loop_samples; done >"$out/loop_samples.txt" 2>&1
M=gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__warps_active.avg.per_cycle_active
for p in alu fma xu lsu fp64 adu cbu uniform; do M=$M,smsp__inst_executed_pipe_$p.sum; done
for r in long_scoreboard short_scoreboard wait barrier math_pipe_throttle mio_throttle lg_throttle not_selected dispatch_stall branch_resolving no_instruction; do
  M=$M,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio; done
M=$M,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,dram__bytes_read.sum,dram__bytes_write.sum
K='regex:cov_covar|hough_vote|gs_update|integral_|pathfinder|md_lj|coulomb|recursive_gaussian|binomial|bsearch|bilateral|lavamd|backprop_layer|reduce6|reduce_single|box_x|cg_spmv|walk'
timeout 150 ncu --metrics $M --csv --page raw -k "$K" --launch-count 40 /tmp/s13/public 1 >"$out/ncu_public.csv" 2>"$out/ncu_public.err" || echo "rc=$?" >>"$out/ncu_public.err"
timeout 150 ncu --metrics $M --csv --page raw -k "$K" --launch-count 40 /tmp/s13/samples 1 >"$out/ncu_samples.csv" 2>"$out/ncu_samples.err" || echo "rc=$?" >>"$out/ncu_samples.err"
timeout 90 ncu --metrics $M --csv --page raw -k "regex:hough_vote|embedding" --launch-count 6 /tmp/s13/unseen 1 >"$out/ncu_unseen.csv" 2>"$out/ncu_unseen.err" || echo "rc=$?" >>"$out/ncu_unseen.err"
timeout 60 ncu --metrics $M --csv --page raw -k "$K" /tmp/s13/loop_samples >"$out/ncu_loop_samples.csv" 2>&1
for s in public samples unseen; do
  cuobjdump -sass /tmp/s13/$s | awk '/Function :/ {keep = ($0 ~ /cov_covar|integral_rows|integral_cols|pathfinder|md_lj|coulomb|recursive_gaussian|binomial_options|bsearch|reduce6|reduce_single_pass|hough_vote|embedding_bag|gs_update|coulomb_dcs/)} keep' \
    | grep -v '^\s*/\*[0-9a-f]*\*/\s*$' | sed -e 's@/\* 0x[0-9a-f]* \*/@@' >"$out/sass_$s.txt"
done
wc -c "$out"/* | tail -1
