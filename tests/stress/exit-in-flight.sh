#!/bin/sh
# exit-in-flight.sh PROGRAM RUNS: runs PROGRAM RUNS times; each run must exit with status 0,
# print "main done" and write nothing to stderr. The kernels' length cycles through four sizes
# so that exit finds the work at different points (queued, running, nearly done).
set -u
program=$1
runs=$2
err=$(mktemp)
trap 'rm -f "$err"' EXIT
i=0
while [ "$i" -lt "$runs" ]; do
  case $((i % 4)) in 0) iterations=0 ;; 1) iterations=300 ;; 2) iterations=3000 ;; *) iterations=20000 ;; esac
  out=$("$program" "$iterations" 2>"$err")
  status=$?
  if [ "$status" -ne 0 ] || [ -s "$err" ] || [ "$out" != "main done" ]; then
    echo "FAIL run $i: status $status, stdout '$out', stderr:"
    cat "$err"
    exit 1
  fi
  i=$((i + 1))
done
echo "exit in flight: $runs runs clean"
