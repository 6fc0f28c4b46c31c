#!/bin/sh
# hw-session18b.sh OUT: the eighteenth session's second device run, from the repository root on
# the GPU machine: the SASS instructions each launch of the validation suites executes, by
# opcode (Nsight Compute's sass__inst_executed_per_opcode, each opcode named), the data a
# SASS-like instruction count for the timing model (#11) would be checked against. The same
# SASS runs on H100 and H200 (sm_90). Everything lands in OUT/opcodes.txt.
set -u
out=$1
mkdir -p "$out" /tmp/s18b
nvidia-smi --query-gpu=name,driver_version --format=csv >"$out/gpu.txt" 2>&1
v=tests/validation
suites="unseen public blind fresh holdout workloads mechanisms suite samples"
for s in $suites; do
  nvcc -O2 -arch=sm_90 -x cu -I $v/cuda $v/timing_$s.mu -o /tmp/s18b/$s >/tmp/s18b/build_$s.txt 2>&1 &
done
wait
M=sass__inst_executed_per_opcode
I="--print-metric-instances details"
ncu --metrics $M $I --csv --page raw -c 1 /tmp/s18b/suite 1 >/tmp/s18b/probe.txt 2>&1 || I=
{
  cat "$out/gpu.txt"
  echo "instances: ${I:-none}"
  for s in $suites; do
    echo "== ncu $s"
    cat /tmp/s18b/build_$s.txt
    timeout 38 ncu --metrics $M $I --csv --page raw -c 60 /tmp/s18b/$s 1 2>&1 |
      grep -v '^==PROF==' | grep -v '^RESULT'
    echo "rc=$?"
  done
} >"$out/opcodes.txt" 2>&1
ls -la "$out"
