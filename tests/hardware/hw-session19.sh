#!/bin/sh
# hw-session19.sh OUT: the device run of the nineteenth session, from the repository root on the
# GPU machine: tests/e2e/named_barriers.mu built as CUDA (its deadlock case skipped, as on any
# GPU) and a probe of how a GPU counts a named barrier's arrivals (tests/hardware/probes/
# named_barrier_arrivals.cu). Everything lands in OUT/results.txt.
set -u
out=$1
mkdir -p "$out" /tmp/s19
cuda() { sed -e 's/musa/cuda/g' -e 's/MUSA/CUDA/g' -e 's/Musa/Cuda/g' "$1" >"$2"; }
cuda tests/e2e/check.h /tmp/s19/check.h
cuda tests/e2e/named_barriers.mu /tmp/s19/named_barriers.cu
{
  nvidia-smi --query-gpu=name,driver_version --format=csv
  echo "== named_barriers"
  nvcc -O2 -arch=sm_90 -I /tmp/s19 /tmp/s19/named_barriers.cu -o /tmp/s19/named_barriers 2>&1
  # check.h as CUDA reads CUDA_SIM_BACKEND: hw skips the deadlock case
  CUDA_SIM_BACKEND=hw timeout 60 /tmp/s19/named_barriers; echo "rc=$?"
  echo "== named_barrier_arrivals"
  nvcc -O2 -arch=sm_90 tests/hardware/probes/named_barrier_arrivals.cu -o /tmp/s19/arrivals 2>&1
  for c in partial exited exitedcount; do
    timeout 20 /tmp/s19/arrivals $c; echo "$c rc=$? (124: hung until the timeout)"
  done
} >"$out/results.txt" 2>&1
cat "$out/results.txt"
# Every function CUDA 13's runtime header declares, to find what the simulator still lacks.
{
  echo "== cuda_runtime_api.h functions"
  h=$(dirname "$(command -v nvcc)")/../include/cuda_runtime_api.h
  grep -o "cuda[A-Z][A-Za-z0-9_]*(" "$h" | tr -d '(' | sort -u | tr '\n' ' '
  echo
} >>"$out/results.txt" 2>&1
