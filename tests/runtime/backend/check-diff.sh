#!/bin/sh
# check-diff.sh MUSA_SIM_DIFF PROGRAM FAKE_LIBRARY WORKDIR: runs PROGRAM (diff_features.mu)
# through musa-sim-diff against the fake CUDA library, whose events report 0.125 ms, with the
# profile report as JSON; then checks what differential mode reported.
set -u
tool=$1; program=$2; lib=$3; work=$4
mkdir -p "$work"
rm -f "$work/report.json" "$work/calls.log"
out=$(FAKE_VENDOR_ELAPSED_MS=0.125 FAKE_VENDOR_LOG="$work/calls.log" \
      MUSA_SIM_REPORT="$work/report.json" MUSA_SIM_HW_RUNTIME_LIB="$lib" \
      MUSA_SIM_HW_DRIVER_LIB="$lib" "$tool" "$program" 2>&1)
rc=$?
echo "$out"
echo "exit=$rc"
bad=0
want() { # description, extended regular expression over the output
  if echo "$out" | grep -Eq -- "$2"; then echo "ok: $1"; else echo "FAIL: $1"; bad=1; fi
}
want "the program's own checks" "diff_features: all checks passed"
want "uninitialised global memory read: kernel and index" \
  "MISMATCH kernel 'copyOut\(int\*, int const\*, int\)': parameter 0 \(buffer 0x[0-9a-f]+, 1024 bytes\) word 0 \(byte 0\): simulator -1 \(-?nan\), hardware -1[0-9]+ \(-[0-9.e+-]+\)"
want "uninitialised shared memory read: kernel and index" \
  "MISMATCH kernel 'readShared\(int\*\)': parameter 0 \(buffer 0x[0-9a-f]+, 1024 bytes\) word 32 \(byte 128\): simulator -16843010 \(-1\.69[0-9]*e\+38\), hardware 0 \(0\)"
want "graph launches compared, no mismatch" "^graph launch \(1 kernel nodes\) +3 +0 "
want "unwritten memory copied into unwritten memory" "^copyOut\(int\*, int const\*, int\) +2 +2 "
want "kernels timed: model next to the hardware's 125 us" \
  "^addOne\(int\*, int\) +1 +0 +[0-9]+\.[0-9]+ +125\.00 +[0-9]+\.[0-9]+$"
want "three kernels with mismatches" "7 kernel launches, 3 with mismatches"
[ $rc -eq 3 ] && echo "ok: exit status 3" || { echo "FAIL: exit status $rc, not 3"; bad=1; }
if echo "$out" | grep -q "runs on the simulator only"; then
  echo "FAIL: a graph was not replayed on the hardware"; bad=1
fi
# The twin stream and events reached the fake; the graphs' copy, memsets and kernels too.
for call in "cudaStreamCreateWithFlags 1" "cudaEventCreate" "cudaStreamWaitEvent event" \
            "cudaMemset2DAsync 64 x 1" "cudaMemcpy 1024 kind 1" "cudaEventElapsedTime"; do
  grep -q "^$call" "$work/calls.log" && echo "ok: call $call" ||
    { echo "FAIL: no call '$call' recorded"; bad=1; }
done
# The profile report: the model's time and the hardware's for each launch.
if grep -Eq '"name": "addOne\(int\*, int\)".*"time_us": [0-9.]+.*"hw_time_us": 125\.000, "model_over_hw": [0-9.]+' "$work/report.json"; then
  echo "ok: profile report JSON has hw_time_us and model_over_hw"
else
  echo "FAIL: profile report JSON lacks the hardware time"; cat "$work/report.json"; bad=1
fi
[ $bad -eq 0 ] && echo "diff checks ok"
exit $bad
