#!/bin/sh
# Builds the driver API test as a user would: the kernels as a device image
# (--cuda-device-only), the host program with the driver linking -lmusa, then runs it.
# Usage: driver-api-test.sh DRIVER SOURCE_DIR WORK_DIR
set -eu
cc=$1; src=$2; work=$3
mkdir -p "$work"; cd "$work"
"$cc" --cuda-device-only "$src/kernels.mu" -o kernels.fatbin
"$cc" "$src/driver_api.cpp" -lmusa -o driver_api_test
./driver_api_test kernels.fatbin
