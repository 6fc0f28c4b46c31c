#!/bin/sh
# Builds a test that loads device code as a user would: the kernels as a device image
# (--cuda-device-only), the host program with the driver (linking -lmusa), then runs it with
# the image. Usage: driver-api-test.sh DRIVER SOURCE_DIR WORK_DIR [PROGRAM]
# (PROGRAM: driver_api.cpp, the default, or library_api.mu, the runtime's libraries).
set -eu
cc=$1; src=$2; work=$3; program=${4:-driver_api.cpp}
mkdir -p "$work"; cd "$work"
"$cc" --cuda-device-only "$src/kernels.mu" -o kernels.fatbin
"$cc" "$src/$program" -lmusa -o test_program
./test_program kernels.fatbin
