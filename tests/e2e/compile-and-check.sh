#!/bin/sh
# Compiles MUSA sources with the driver: compile-and-check.sh DRIVER OUTPUT SOURCES...
# Used by CTest fixtures so each program is built once and run under several profiles.
set -eu
driver=$1; out=$2; shift 2
mkdir -p "$(dirname "$out")"
exec "$driver" -O2 -Wall -I "$(dirname "$0")" "$@" -o "$out"
