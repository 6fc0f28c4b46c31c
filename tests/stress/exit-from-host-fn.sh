#!/bin/sh
# exit-from-host-fn.sh PROGRAM RUNS: each run must exit with the host function's status 7,
# print nothing on stderr and take well under the exit handler's 2 s wait for workers.
set -u
program=$1
runs=$2
err=$(mktemp)
trap 'rm -f "$err"' EXIT
i=0
while [ "$i" -lt "$runs" ]; do
  start=$(date +%s%N)
  out=$("$program" 2>"$err")
  status=$?
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  if [ "$status" -ne 7 ] || [ -s "$err" ] || [ -n "$out" ] || [ "$ms" -ge 1500 ]; then
    echo "FAIL run $i: status $status (want 7), $ms ms, stdout '$out', stderr:"
    cat "$err"
    exit 1
  fi
  i=$((i + 1))
done
echo "exit from a host function: $runs runs clean"
