#!/bin/sh
# Runs math_pipes.cu under Nsight Compute on the device machine (repository root; writes
# $OUT/math_pipes.csv). math_pipes.h200.txt is that CSV reduced to warp instructions per call
# and pipe, each kernel less its baseline (copy, icopy, h2copy or dcopy).
set -e
nvcc -O3 -arch=sm_90 tests/hardware/probes/math_pipes.cu -o /tmp/mp
M=smsp__inst_executed.sum
for p in alu fma fmaheavy fmalite xu fp64 fp16 cbu adu lsu uniform; do M=$M,smsp__inst_executed_pipe_$p.sum; done
ncu --csv --page raw --metrics $M /tmp/mp > $OUT/math_pipes.csv 2>&1
