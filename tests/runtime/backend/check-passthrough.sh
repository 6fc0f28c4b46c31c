#!/bin/sh
# check-passthrough.sh PROGRAM FAKE_LIBRARY LOG cuda|musa: runs PROGRAM with the hw backend
# forwarding to the fake vendor library, then checks the calls it recorded, in order.
set -u
program=$1; lib=$2; log=$3; target=$4
rm -f "$log"
out=$(FAKE_VENDOR_LOG="$log" MUSA_SIM_BACKEND=hw MUSA_SIM_HW_TARGET=$target \
      MUSA_SIM_HW_RUNTIME_LIB="$lib" MUSA_SIM_HW_DRIVER_LIB="$lib" "$program" 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || { echo "FAIL: program exited $rc"; exit 1; }
if [ "$target" = musa ]; then rt=musa; drv=mu; image=mubin; else rt=cuda; drv=cu; image=ptx; fi
# The MUSA target loads the device image the (fake) mcc wrote when the driver built PROGRAM.
if [ "$target" = musa ]; then
  grep -q "^mcc mp_22 device-only=1 passthrough.mu" "$(dirname "$program")/mcc.log" ||
    { echo "FAIL: the driver did not run mcc for the device image"; exit 1; }
fi
# The sequence the program's calls must produce (a subsequence of the log).
expected="${rt}GetDeviceCount
${rt}Malloc 4000
${rt}Memcpy 4000 kind 1
${drv}DevicePrimaryCtxRetain
${drv}ModuleLoadDataEx $image
${drv}ModuleGetGlobal bias
${rt}Memcpy 4 kind 1
${drv}ModuleGetFunction _Z6addOnePii
${drv}LaunchKernel _Z6addOnePii grid 4 block 256 stream (nil)
${rt}DeviceSynchronize
${rt}Memcpy 4000 kind 2
${rt}SetDevice 7
${rt}Free"
echo "$expected" | awk -v file="$log" '
  BEGIN { while ((getline line < file) > 0) calls[n++] = line }
  { want = $0; found = 0
    while (i < n) { if (calls[i++] == want) { found = 1; break } }
    if (!found) { print "FAIL: expected call not recorded (in order): " want; bad = 1; exit 1 } }
  END { if (!bad) print "call sequence ok" }' || { echo "--- recorded:"; cat "$log"; exit 1; }
