#!/bin/sh
# hw-session24.sh OUT: the twenty-fourth session's first device run: the tensor-core probe
# (tests/hardware/probes/tensor_rate.cu) and the SASS a wmma GEMM compiles to
# (tests/hardware/probes/wmma_naive.mu, timed at N = 512, 1024, 2048), then the tensor suite.
set -u
out=$1
mkdir -p "$out"
. tests/hardware/as-cuda.sh
cuda tests/hardware/probes/wmma_naive.mu /tmp/wn.cu
nvcc -O2 -arch=sm_90 tests/hardware/probes/tensor_rate.cu -o /tmp/tr &
nvcc -O2 -arch=sm_90 -I tests/validation/cuda /tmp/wn.cu -o /tmp/wn &
nvcc -O2 -arch=sm_90 -x cu -I tests/validation/cuda tests/validation/timing_tensor.mu -o /tmp/tt &
wait
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv | tee "$out/tensor_rate.txt"
/tmp/tr | tee -a "$out/tensor_rate.txt"
for n in 512 1024 2048; do /tmp/wn $n; done | tee "$out/wmma_naive.txt"
cuobjdump -sass /tmp/tr > "$out/tensor_rate.sass"
cuobjdump -sass /tmp/wn > "$out/wmma_naive.sass"
grep -o "[HID]MMA[A-Z0-9.]*" "$out/tensor_rate.sass" | sort | uniq -c
grep -o "\(LDG\|LDS\|STG\|STS\|HMMA\)[A-Z0-9.]*" "$out/wmma_naive.sass" | sort | uniq -c
# The ninth timing suite (tests/validation/timing_tensor.mu, wmma kernels, written by a helper
# that did not read the model; its predictions stored before this run), twice, 21 repeats.
/tmp/tt 21 | tee "$out/tensor.txt"
/tmp/tt 21 > "$out/tensor_run2.txt"
