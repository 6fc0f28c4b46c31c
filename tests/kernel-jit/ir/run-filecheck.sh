#!/bin/sh
# Runs one IR test: run-filecheck.sh OPT FILECHECK PLUGIN TEST.ll
# The test's `; PASSES: ...` line names the pass pipeline; its CHECK lines judge the output.
set -eu
opt=$1; filecheck=$2; plugin=$3; test=$4
passes=$(sed -n 's/^; PASSES: //p' "$test")
"$opt" -load-pass-plugin="$plugin" -passes="$passes" -S "$test" -o - | "$filecheck" "$test"
