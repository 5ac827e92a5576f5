#!/bin/bash
# atomics-explain.sh - profile --explain of tests/cuda/atomics on a GPU
# machine: the float and 64-bit atomicAdd retry loops, for the fixture
# tests/cases/profile/casloop.  Builds bankscope, the injection and
# explain libraries and build/tests/atomics, then runs
#   bankscope profile --explain --keep $OUT/w/rec -- build/tests/atomics
#   bankscope profile --replay of the kept directory, csv
#   ncu --clock-control none --section SourceCounters, per SASS instruction
# Everything lands in $OUT/atomics-explain.tar.gz (and summary.txt).
set -u
OUT=${OUT:-/tmp/out}
W=$OUT/w
mkdir -p "$W"
export SANITIZER_HOME=/usr/local/cuda/compute-sanitizer
. research/runs/common.sh
run_log "$OUT/summary.txt" "$(date -u +%FT%TZ) $(uname -n)"
git log -1 --format=%H 2>/dev/null
build "$W/build.log" -j16 build/bankscope build/libbankscope_inject.so \
	explain build/tests/atomics
B=build/bankscope
T=build/tests/atomics

say "bare run"
/usr/bin/time -f '%e s' $T; echo "rc $?"
say "bankscope profile --explain"
/usr/bin/time -f '%e s' $B profile --explain --keep "$W/rec" -- $T \
	> "$W/explain.txt" 2> "$W/explain.err"
echo "rc $?"; cat "$W/explain.txt" "$W/explain.err"
say "replay, csv"
$B profile --replay "$W/rec" --explain --format csv > "$W/explain.csv" 2>&1
echo "rc $?"
say "ncu, SourceCounters per SASS instruction"
ncu_sass "$W" ncu-source "$W/ncu-source.csv" $T
grep -E '"Kernel Name"|LDS|ATOMS' "$W/ncu-source.csv" | cut -c1-260
tar -C "$W" -czf "$OUT/atomics-explain.tar.gz" .
say "done $(date -u +%FT%TZ)"
