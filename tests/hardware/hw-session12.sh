#!/bin/sh
# hw-session12.sh OUT: the device run of the twelfth session, from the repository root on the
# GPU machine: the card, the ninth timing suite (timing_samples.mu, CUDA-samples style) twice
# with 21 repeats, probe_session11.mu with unbuffered output (grid.sync() in an ordinary
# launch last), and, when the card is an H100 rather than the H200 the profile describes,
# the first and eighth suites too (for checking a profile of that card).
set -u
out=$1
mkdir -p "$out" /tmp/s12
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,memory.total,driver_version \
    --format=csv; nvcc --version | tail -2; } >"$out/gpu.txt" 2>&1
nvcc -O2 -arch=sm_90 tests/hardware/device_query.cu -o /tmp/s12/dq >/dev/null 2>&1 &&
  /tmp/s12/dq >>"$out/gpu.txt" 2>&1
v=tests/validation
nvcc -O2 -arch=sm_90 -x cu -I $v/cuda $v/timing_samples.mu -o /tmp/s12/samples \
  >"$out/build_samples.txt" 2>&1 &
sed -e 's/musa/cuda/g' -e 's/MUSA/CUDA/g' tests/hardware/probe_session11.mu >/tmp/s12/p11.cu
nvcc -O2 -arch=sm_90 /tmp/s12/p11.cu -o /tmp/s12/p11 >"$out/build_p11.txt" 2>&1 &
h100=0
grep -q H100 "$out/gpu.txt" && h100=1
if [ $h100 = 1 ]; then
  for s in suite public; do
    nvcc -O2 -arch=sm_90 -x cu -I $v/cuda $v/timing_$s.mu -o /tmp/s12/$s >"$out/build_$s.txt" 2>&1 &
  done
fi
wait
timeout 240 /tmp/s12/samples 21 >"$out/samples.txt" 2>&1; echo "rc=$?" >>"$out/samples.txt"
timeout 240 /tmp/s12/samples 21 >"$out/samples_run2.txt" 2>&1; echo "rc=$?" >>"$out/samples_run2.txt"
{ timeout 60 stdbuf -o0 /tmp/s12/p11; echo "rc=$?"; } >"$out/probe_session11.txt" 2>&1
if [ $h100 = 1 ]; then
  for s in suite public; do
    timeout 200 /tmp/s12/$s 21 >"$out/h100_$s.txt" 2>&1; echo "rc=$?" >>"$out/h100_$s.txt"
  done
fi
nvidia-smi --query-gpu=name,clocks.sm,temperature.gpu --format=csv >>"$out/gpu.txt" 2>&1
