#!/bin/sh
# exit-in-flight.sh PROGRAM RUNS [STATUS [STDOUT]]: runs PROGRAM RUNS times; each run must
# exit with STATUS (default 0), print exactly STDOUT (default "main done"; "-": nothing, as
# CMake cannot pass an empty argument) and write nothing to stderr. The program gets a
# kernel length that cycles through four sizes, so that exit finds the work at different
# points (queued, running, nearly done).
set -u
program=$1
runs=$2
want_status=${3:-0}
want_out=${4:-main done}
[ "$want_out" = "-" ] && want_out=
err=$(mktemp)
trap 'rm -f "$err"' EXIT
i=0
while [ "$i" -lt "$runs" ]; do
  case $((i % 4)) in 0) iterations=0 ;; 1) iterations=300 ;; 2) iterations=3000 ;; *) iterations=20000 ;; esac
  start=$(date +%s%N)
  out=$("$program" "$iterations" 2>"$err")
  status=$?
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  if [ "$status" -ne "$want_status" ] || [ -s "$err" ] || [ "$out" != "$want_out" ]; then
    echo "FAIL run $i: status $status (want $want_status), $ms ms, stdout '$out', stderr:"
    cat "$err"
    exit 1
  fi
  i=$((i + 1))
done
echo "exit in flight: $runs runs clean"
