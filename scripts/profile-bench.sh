#!/bin/bash
# profile-bench.sh - issue 11's benchmark and fixture recording on a GPU
# machine (run by the device tool from .carry/d, the CUDA samples'
# sources in ../d-samples).  Writes under $OUT:
#   summary.txt             what ran, in order, one line each
#   profile-bench.csv       program, mode, run, wall_s, exit_status
#   results.tar.gz          every output (profile text, stderr, ncu
#                           reports) and the kept directories: fixtures/
#                           (tests/cuda/transpose re-recorded; the CUDA
#                           sample transpose with --explain) and tutorial/
# Modes: bare (the program alone, twice, first and last), profile
# (`bankscope profile --verbose`, its defaults: the first launch of each
# kernel, --jobs = processors up to 16; the phases' times in runs/*.err),
# explain (`bankscope profile --explain`, default sample 2x8x4, its
# directory kept in keep/NAME), ncu (`ncu --clock-control none --section
# SourceCounters --kernel-id :::1`: the first launch of each kernel, the
# launches the profile measures).  Wall-clock seconds from date +%s%N,
# one run per mode (two for bare): the device time is short.
set -u
OUT=${OUT:-/tmp/out}
W=$OUT/work
mkdir -p "$W/fixtures" "$W/runs" "$W/keep"
SAMPLES=$(cd ../d-samples && pwd)
export SANITIZER_HOME=/usr/local/cuda/compute-sanitizer
export PYTHONUNBUFFERED=1
say() { echo "== $*" | tee -a "$OUT/summary.txt"; }
ms() { date +%s%N; }
echo "program,mode,run,wall_s,exit_status" > "$OUT/profile-bench.csv"

{
	nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
	nvcc --version | tail -1
	ncu --version | tail -1
	nproc
	python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'
	git log -1 --format=%H 2>/dev/null || true
} > "$W/env.txt" 2>&1
cat "$W/env.txt"

t0=$(ms)
make -j16 build/bankscope build/libbankscope_inject.so build/bankscope-tutorial \
	build/tests/transpose explain > "$W/build.log" 2>&1 || tail -30 "$W/build.log"
B=$W/bin; mkdir -p "$B"
CM="-arch=sm_90 -lineinfo -O3 -I$SAMPLES/Common"
nvcc $CM -o "$B/transpose" "$SAMPLES/Samples/6_Performance/transpose/transpose.cu" >> "$W/build.log" 2>&1 &
H=$SAMPLES/Samples/2_Concepts_and_Techniques/histogram
nvcc $CM -o "$B/histogram" $H/histogram64.cu $H/histogram256.cu $H/main.cpp $H/histogram_gold.cpp >> "$W/build.log" 2>&1 &
S=$SAMPLES/Samples/2_Concepts_and_Techniques/sortingNetworks
nvcc $CM -o "$B/sortingNetworks" $S/bitonicSort.cu $S/oddEvenMergeSort.cu $S/main.cpp $S/sortingNetworks_validate.cpp >> "$W/build.log" 2>&1 &
wait
say "build $(( ($(ms) - t0) / 1000000 )) ms"
BS=$PWD/build/bankscope

# timed NAME MODE RUN -- COMMAND...: one wall-clock line in the CSV
timed() {
	local name=$1 mode=$2 run=$3; shift 4
	local o=$W/runs/$name-$mode-$run
	local s=$(ms)
	timeout 200 "$@" > "$o.out" 2> "$o.err"
	local rc=$?
	local e=$(( $(ms) - s ))
	local secs=$(printf '%d.%03d' $((e / 1000000000)) $(( (e / 1000000) % 1000 )))
	echo "$name,$mode,$run,$secs,$rc" >> "$OUT/profile-bench.csv"
	say "$name $mode $run: $secs s, exit $rc"
}

# fixtures first: the stale transpose fixture, then the sample with explain
$BS profile --keep "$W/fixtures/transpose" -- build/tests/transpose \
	> "$W/fixtures/transpose.txt" 2> "$W/fixtures/transpose.err"
say "fixture transpose: exit $?, $(head -3 "$W/fixtures/transpose.txt" | tail -1)"
cuobjdump -sass build/tests/transpose > "$W/fixtures/transpose-cuobjdump-sass.txt" 2>&1
$BS profile --explain --keep "$W/fixtures/sample-transpose" -- "$B/transpose" \
	> "$W/fixtures/sample-transpose.txt" 2> "$W/fixtures/sample-transpose.err"
say "fixture sample transpose --explain: exit $?, $(grep -c '^  verdict' "$W/fixtures/sample-transpose.txt") verdicts"

for p in "transpose $B/transpose" "histogram $B/histogram" \
	 "sortingNetworks $B/sortingNetworks" \
	 "torch python3 scripts/bench/torch_ops.py" \
	 "triton python3 scripts/bench/triton_matmul.py"; do
	set -- $p
	name=$1; shift
	timed $name bare 1 -- "$@"
	timed $name profile 1 -- $BS profile --verbose -- "$@"
	timed $name explain 1 -- $BS profile --verbose --explain \
		--keep "$W/keep/$name" -- "$@"
	timed $name ncu 1 -- ncu --clock-control none --section SourceCounters --kernel-id :::1 "$@"
	timed $name bare 2 -- "$@"
	say "$name: $(grep -h -E 'launches of' "$W/runs/$name-profile-1.out" "$W/runs/$name-explain-1.out" | tr '\n' ' ')"
done

$BS profile --explain --keep "$W/tutorial" -- build/bankscope-tutorial \
	> "$W/tutorial.txt" 2> "$W/tutorial.err"
say "tutorial --explain: exit $?, $(grep -c '^  verdict:  AGREES' "$W/tutorial.txt") agree, $(grep -c '^  verdict:  DISAGREES' "$W/tutorial.txt") disagree, $(grep -c '^  verdict' "$W/tutorial.txt") verdicts"
$BS profile --replay "$W/tutorial" --explain --format csv > "$W/tutorial-explain.csv" 2>&1

find "$W" -name "cubin-*.cubin" -size +1M -delete
find "$W" -name "cubin-*.sass" -size +2M -delete
rm -rf "$B"
cd "$OUT" && tar czf results.tar.gz work && rm -rf work
ls -la "$OUT"
cat "$OUT/summary.txt"
