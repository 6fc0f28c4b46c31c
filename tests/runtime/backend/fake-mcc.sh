#!/bin/sh
# fake-mcc.sh: stands in for the MUSA toolkit's mcc where there is none (CI, this machine):
# musa-sim-cc --mcc=fake-mcc.sh runs it as the real one (mcc -x musa --offload-arch=mp_NN
# --cuda-device-only -O3 ... -c SOURCE -o IMAGE). The "device image" it writes is a marker line
# and the source, which the fake vendor library (fake_vendor.cpp, MUSA names) accepts and
# searches for kernel and variable names. FAKE_MCC_LOG: a line per call.
if [ "${1:-}" = --version ]; then echo "fake mcc (a MUSA toolkit stand-in for musa-sim's tests)"; exit 0; fi
out=""; src=""; arch=""; device_only=0
while [ $# -gt 0 ]; do
  case $1 in
    -o) out=$2; shift ;;
    --offload-arch=*) arch=${1#--offload-arch=} ;;
    --cuda-device-only) device_only=1 ;;
    *.mu|*.cu) src=$1 ;;
  esac
  shift
done
[ -n "${FAKE_MCC_LOG:-}" ] && echo "mcc $arch device-only=$device_only $(basename "$src")" >> "$FAKE_MCC_LOG"
[ -n "$out" ] && [ -f "$src" ] || { echo "fake-mcc: usage: ... -c SOURCE -o IMAGE" >&2; exit 1; }
{ printf 'FAKE-MUSA-IMAGE %s\n' "$arch"; cat "$src"; } > "$out"
