#!/bin/sh
# hw-run.sh MODE OUT [PROGRAMS...]: on the GPU machine, inside a bundle made by hw-bundle.sh:
# runs each program with MUSA_SIM_BACKEND=MODE (hw or diff), one log per program in OUT, and
# prints one line per program (PASS: exit 0 and no FAIL line) and a count.
set -u
mode=$1; out=$2; shift 2
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -d "$here/libs" ]; then
  mkdir -p "$here/libs"
  [ -f "$here/libpack.tar.xz" ] && tar xJf "$here/libpack.tar.xz" -C "$here/libs"
  cp "$here"/lib/* "$here/libs/"
fi
export LD_LIBRARY_PATH="$here/libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
mkdir -p "$out"
programs=${*:-$(ls "$here/bin" | grep -v '\.log$')}
pass=0; fail=0
for p in $programs; do
  args=""
  [ "$p" = graph_vector_add ] && args="$out/graph.dot"
  start=$(date +%s.%N)
  MUSA_SIM_BACKEND=$mode MUSA_SIM_DIFF_REPORT=$out/$p.diff timeout 30 "$here/bin/$p" $args \
    > "$out/$p.log" 2>&1
  rc=$?
  secs=$(echo "$(date +%s.%N) - $start" | bc 2>/dev/null || echo "?")
  ok=0
  case $p in
    guide_errors) # exits 1 on purpose, after the guide's error message
      [ $rc -eq 1 ] && grep -q "invalid configuration argument" "$out/$p.log" && ok=1 ;;
    *) [ $rc -eq 0 ] && ! grep -q FAIL "$out/$p.log" && ok=1 ;;
  esac
  [ "$mode" = diff ] && grep -q "MISMATCH" "$out/$p.log" && ok=0
  if [ $ok -eq 1 ]; then
    pass=$((pass + 1)); echo "PASS $p (${secs}s)"
  else
    fail=$((fail + 1)); echo "FAIL $p (exit $rc): $(grep -m2 -i 'fail\|error\|musa-sim' "$out/$p.log" | tr '\n' ' ' | cut -c1-300)"
  fi
done
echo "$mode: $pass passed, $fail failed"
