#!/bin/sh
# hw-all.sh OUT: on the GPU machine, inside a bundle made by hw-bundle.sh, the whole H200 run
# recorded in passthrough_h200.txt: the deliberate-mismatch program and the timing comparison
# through musa-sim-diff (32-lane profile, MUSA_SIM_REPORT as JSON), then every program in hw
# mode and in diff mode (MUSA_SIM_PROFILE=h200). Each part writes its own file in OUT.
set -u
out=$1
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
"$here/hw-run.sh" hw "$out/hw" vector_add > /dev/null 2>&1 # unpacks the libraries once
export LD_LIBRARY_PATH="$here/libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
for p in diff_race diff_features; do
  { echo "# MUSA_SIM_PROFILE=h200 musa-sim-diff bin/$p"
    MUSA_SIM_PROFILE=h200 timeout 60 "$here/musa-sim-diff" "$here/bin/$p" 2>&1; echo "exit=$?"
  } > "$out/mismatch_$p.txt"
done
for p in vector_add tiled_matmul block_reduce graph_quickstart; do
  { echo "# MUSA_SIM_PROFILE=h200 MUSA_SIM_REPORT=$p.json musa-sim-diff bin/$p"
    MUSA_SIM_PROFILE=h200 MUSA_SIM_REPORT="$out/$p.json" timeout 60 "$here/musa-sim-diff" \
      "$here/bin/$p" 2>&1; echo "exit=$?"
  } > "$out/timing_$p.txt"
done
"$here/hw-run.sh" hw "$out/hw" > "$out/hw.txt" 2>&1
MUSA_SIM_PROFILE=h200 "$here/hw-run.sh" diff "$out/diff32" > "$out/diff32.txt" 2>&1
