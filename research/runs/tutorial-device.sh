#!/bin/bash
# tutorial-device.sh - the tutorial kernels and bankscope profile on a GPU.
#
# Builds the CLI, the injection library, bankscope-tutorial and the
# transpose sample there, then
#   bankscope-tutorial, bare: its timing CSV (cycles of the micro-kernels,
#     ms and GB/s or GFLOP/s of the transposes and products)
#   bankscope profile --keep on it: every kernel's shared-memory
#     instructions, one program run per kernel; then --replay with the
#     tutorial's own patterns joined, as text, csv and a dataset that
#     bankscope check verifies
#   bankscope profile on the transpose sample (both kernels: the re-run of
#     the program for the second kernel)
#   Nsight Compute (--clock-control none), SourceCounters of the first
#     launch of every tutorial kernel, per SASS instruction, to compare
# Everything lands in $OUT (default build/tutorial-out): summary.txt,
# tutorial-timing.csv, profile-tutorial.{txt,csv}, data/, ncu-source.csv
# and a tarball of the kept directories.
set -u
OUT=${OUT:-build/tutorial-out}
mkdir -p "$OUT/data"
. research/runs/common.sh
run_log "$OUT/summary.txt" "$(date -u +%FT%TZ)"
build "$OUT/build.log" -j8 build/bankscope build/libbankscope_inject.so \
	build/bankscope-tutorial build/tests/transpose || exit 1
B=build/bankscope
P=build/bankscope-tutorial
W=$OUT/work
mkdir -p "$W"

say "bankscope-tutorial, bare"
/usr/bin/time -f '%e s wall' $P | tee "$OUT/tutorial-timing.csv"
echo "rc ${PIPESTATUS[0]}"
$P --patterns > "$W/tutorial.patterns"

say "bankscope profile -- bankscope-tutorial"
/usr/bin/time -f '%e s wall' $B profile --keep "$W/rec-tutorial" -- $P > "$W/profile-first.txt"
echo "rc $?"
cat "$W/rec-tutorial/status.txt"; cat "$W/rec-tutorial/launches.tsv" | cut -f1,2,3 | head -60
$B profile --replay "$W/rec-tutorial" --patterns "$W/tutorial.patterns" | tee "$OUT/profile-tutorial.txt"
$B profile --replay "$W/rec-tutorial" --patterns "$W/tutorial.patterns" --format csv > "$OUT/profile-tutorial.csv"
$B profile --replay "$W/rec-tutorial" --patterns "$W/tutorial.patterns" \
	--dataset "$OUT/data/profile-tutorial.csv" > /dev/null
$B check "$OUT"/data/profile-tutorial*.csv | tail -4

say "bankscope profile -- the transpose sample (two kernels)"
$B profile --keep "$W/rec-transpose" -- build/tests/transpose
echo "rc $?"

say "ncu SourceCounters, first launch of each tutorial kernel"
ncu_sass "$W" ncu-tutorial "$OUT/ncu-source.csv" --kernel-id ::regex:.*:1 $P
grep -cE 'LDS|STS' "$OUT/ncu-source.csv"
tar -C "$W" -czf "$OUT/tutorial-run.tar.gz" .
say "done $(date -u +%FT%TZ)"
