#!/bin/sh
# hw-run.sh MODE OUT [PROGRAMS...]: on the GPU machine, inside a bundle made by hw-bundle.sh:
# runs each program with MUSA_SIM_BACKEND=MODE (hw or diff), one log per program in OUT, and
# prints one line per program (PASS: exit 0 and no FAIL line) and a count.
set -u
mode=$1; out=$2; shift 2
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -d "$here/libs" ]; then
  mkdir -p "$here/libs"
  [ -f "$here/libpack.tar.xz" ] && tar xJf "$here/libpack.tar.xz" -C "$here/libs"
  cp "$here"/lib/* "$here/libs/"
fi
export LD_LIBRARY_PATH="$here/libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
mkdir -p "$out"
programs=${*:-$(ls "$here/bin" | grep -v '\.log$')}
pass=0; fail=0
# Programs left out of the hw run, and why (they pass with the simulator and in diff mode,
# where the program sees the simulator's results).
hw_excluded() {
  case $1 in
    device_math_std|math_atomics) echo "no PTX: libm calls need CUDA's libdevice at build time, and the build machine has no CUDA toolkit" ;;
    graph_conditional) echo "no PTX: the NVPTX back end refuses its release atomic store" ;;
    graph_semaphores) echo "external semaphores do not forward (the simulator's semaphore is a musa-sim extension)" ;;
    occupancy) echo "checks the profile's occupancy numbers (the H200 reserves 1 KiB of shared memory per block)" ;;
    graph_update) echo "checks the simulator's refusal of a kernel node's function change, which CUDA accepts" ;;
    graph_capture) echo "checks the simulator's error codes for an unjoined fork and odd capture-to-graph edges, where CUDA answers differently" ;;
    graph_memory) echo "checks the simulator's graph memory pool sizes; crashed on the H200 (forwarding gap, open)" ;;
    *) return 1 ;;
  esac
}
# Programs left out of the diff run, and why: their results differ between two correct runs.
diff_excluded() {
  case $1 in
    clocks|noinline_specials) echo "its output is clock64() readings: the simulated clock against the GPU's" ;;
    reset_race) echo "resets the device while other threads use it: undefined on hardware, results differ by design" ;;
    complex_arith) echo "(1e30+1e30i)^2 in double cancels exactly: the GPU and the host each fuse a different product of a*c-b*d into an fma (both allowed), giving +8.8e43 and -8.8e43" ;;
    cg_extras) echo "filterPositive's warp-aggregated compaction writes in the order warps arrive (different on each run, on both sides)" ;;
    *) return 1 ;;
  esac
}
skipped=0
for p in $programs; do
  if [ "$mode" = diff ] && { [ "$p" = diff_race ] || [ "$p" = diff_features ]; }; then
    echo "SKIP $p: deliberate mismatches (run it through musa-sim-diff)"; continue
  fi
  case $p in *.fatbin) continue ;; esac
  if [ "$mode" = hw ] && why=$(hw_excluded "$p"); then
    skipped=$((skipped + 1)); echo "SKIP $p: $why"; continue
  fi
  if [ "$mode" = diff ] && why=$(diff_excluded "$p"); then
    skipped=$((skipped + 1)); echo "SKIP $p: $why"; continue
  fi
  args=""
  [ "$p" = graph_vector_add ] && args="$out/graph.dot"
  [ "$p" = driver_api ] && args="$here/bin/kernels.fatbin"
  start=$(date +%s.%N)
  devices=1 # the programs that exercise the simulator's second device get it in diff mode
  case $p in guide_device|guide_memory) [ "$mode" = diff ] && devices=2 ;; esac
  MUSA_SIM_DEVICE_COUNT=$devices MUSA_SIM_BACKEND=$mode MUSA_SIM_DIFF_REPORT=$out/$p.diff \
    timeout 30 "$here/bin/$p" $args \
    > "$out/$p.log" 2>&1
  rc=$?
  secs=$(echo "$(date +%s.%N) - $start" | bc 2>/dev/null || echo "?")
  ok=0
  case $p in
    guide_errors) # exits 1 on purpose, after the guide's error message
      [ $rc -eq 1 ] && grep -q "invalid configuration argument" "$out/$p.log" && ok=1 ;;
    *) [ $rc -eq 0 ] && ! grep -q FAIL "$out/$p.log" && ok=1 ;;
  esac
  [ "$mode" = diff ] && grep -q "MISMATCH" "$out/$p.log" && ok=0
  if [ $ok -eq 1 ]; then
    pass=$((pass + 1)); echo "PASS $p (${secs}s)"
  else
    fail=$((fail + 1)); echo "FAIL $p (exit $rc): $(grep -m2 -i 'fail\|error\|musa-sim' "$out/$p.log" | tr '\n' ' ' | cut -c1-300)"
  fi
done
echo "$mode: $pass passed, $fail failed, $skipped left out"
