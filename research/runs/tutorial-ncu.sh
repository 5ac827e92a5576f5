#!/bin/bash
# tutorial-ncu.sh - bankscope profile and Nsight Compute on the tutorial
# kernels, every kernel.
#
#   bankscope profile --keep on bankscope-tutorial (one program run per
#     kernel), replayed with the tutorial's patterns joined: text, csv and
#     a dataset for bankscope check
#   Nsight Compute (--clock-control none), SourceCounters of the first
#     launch of each kernel, selected by launch index (--launch-skip N
#     --launch-count 1: the indexes come from the profile's launches.tsv),
#     per SASS instruction, merged into ncu-tutorial-source.csv
# Output in $OUT (default build/tutorial-ncu).
set -u
OUT=${OUT:-build/tutorial-ncu}
mkdir -p "$OUT/data"
exec > >(tee "$OUT/summary.txt") 2>&1
export PATH=$PATH:/usr/local/cuda/bin
make -j8 build/bankscope build/libbankscope_inject.so build/bankscope-tutorial \
	>"$OUT/build.log" 2>&1 || { echo "build failed"; tail -20 "$OUT/build.log"; exit 1; }
B=build/bankscope
P=build/bankscope-tutorial
W=$OUT/work
mkdir -p "$W"
$P --patterns > "$W/tutorial.patterns"
/usr/bin/time -f '%e s wall' $B profile --keep "$W/rec" -- $P > /dev/null
echo "profile rc $?"
$B profile --replay "$W/rec" --patterns "$W/tutorial.patterns" > "$OUT/profile-tutorial.txt"
$B profile --replay "$W/rec" --patterns "$W/tutorial.patterns" --format csv > "$OUT/profile-tutorial.csv"
$B profile --replay "$W/rec" --patterns "$W/tutorial.patterns" --dataset "$OUT/data/profile-tutorial.csv" > /dev/null
$B check "$OUT"/data/profile-tutorial*.csv | tail -3
: > "$OUT/ncu-tutorial-source.csv"
awk -F'\t' 'NR > 1 && !seen[$2]++ { print $1 }' "$W/rec/launches.tsv" | while read -r n; do
	ncu --clock-control none --section SourceCounters --launch-skip "$n" \
		--launch-count 1 -f -o /tmp/ncu-$n $P > /tmp/ncu-$n.log 2>&1
	echo "launch $n: ncu rc $?"
	ncu -i /tmp/ncu-$n.ncu-rep --page source --print-source sass --csv \
		>> "$OUT/ncu-tutorial-source.csv" 2>&1
done
grep -c '"Kernel Name"' "$OUT/ncu-tutorial-source.csv"
tar -C "$W" -czf "$OUT/tutorial-rec.tar.gz" .
echo "done $(date -u +%FT%TZ)"
