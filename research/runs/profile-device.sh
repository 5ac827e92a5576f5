#!/bin/bash
# profile-device.sh - the profile command on a GPU machine.
#
# Builds build/bankscope, build/libbankscope_inject.so and the sample
# build/tests/transpose, then
#   bankscope profile --keep $OUT/work/rec -- build/tests/transpose (text,
#     with the injection library's trace, inject.log)
#   bankscope profile --replay of that directory as csv and json
#   bankscope profile --launches all (one run per launch)
#   Nsight Compute (--clock-control none) on the same program: the
#     SourceCounters section per SASS instruction (--page source
#     --print-source sass --csv), and per kernel the hardware counters of
#     shared wavefronts, bank conflicts and shared instructions
# Everything lands in $OUT (default build/profile-out): summary.txt,
# profile.txt, profile.csv, ncu-source.csv, ncu-kernels.csv and
# profile-run.tar.gz with the kept directories.  Needs root (counters),
# nvcc, nvdisasm and ncu in /usr/local/cuda/bin; the clocks are left alone.
set -u
OUT=${OUT:-build/profile-out}
. research/runs/common.sh
run_log "$OUT/summary.txt" "$(date -u +%FT%TZ) $(uname -n)"
build "$OUT/build.log" -j8 build/bankscope build/libbankscope_inject.so build/tests/transpose || exit 1
say "built: $(nvcc --version | tail -1)"
ldd build/libbankscope_inject.so | grep -E 'cupti|not found'
B=build/bankscope
T=build/tests/transpose
W=$OUT/work
mkdir -p "$W"

say "bare run"
/usr/bin/time -f '%e s' $T

say "bankscope profile, text"
BANKSCOPE_INJECT_LOG=1 /usr/bin/time -f '%e s' \
	$B profile --keep "$W/rec" -- $T | tee "$OUT/profile.txt"
echo "rc ${PIPESTATUS[0]}"
cat "$W/rec/launches.tsv" "$W/rec/inject.log"
say "csv and json from the kept directory"
$B profile --replay "$W/rec" --format csv | tee "$OUT/profile.csv"
$B profile --replay "$W/rec" --format json > "$W/profile.json"
say "bankscope profile --launches all"
/usr/bin/time -f '%e s' $B profile --launches all --keep "$W/rec-all" -- $T
echo "rc $?"

say "ncu, SourceCounters per SASS instruction"
ncu_sass "$W" ncu-source "$OUT/ncu-source.csv" $T
head -c 600 "$W/ncu-source.err"
grep -E '"Kernel Name"|LDS|STS' "$OUT/ncu-source.csv" | cut -c1-300
say "ncu, hardware counters per kernel"
M=$(scripts/metrics.sh kernel)
ncu --clock-control none --metrics $M --csv $T > "$OUT/ncu-kernels.csv" 2>&1
echo "rc $?"
grep -v '^==PROF==' "$OUT/ncu-kernels.csv" | head -40

nvdisasm --version | tail -1
tar -C "$W" -czf "$OUT/profile-run.tar.gz" .
say "done $(date -u +%FT%TZ)"
