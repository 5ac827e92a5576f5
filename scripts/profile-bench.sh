#!/bin/bash
# profile-bench.sh - `bankscope profile` against the bare program and
# Nsight Compute, on a GPU machine, from the repository root; the CUDA
# samples' sources in $SAMPLES (default .carry/samples: Common/ and the
# Samples/ folders of transpose, histogram, sortingNetworks, matrixMul).
# Writes under $OUT (default build/profile-bench):
#   summary.txt        what ran, in order, then the ratios and the checks
#   profile-bench.csv  program, mode, run, wall_s, exit_status
#   ratios.csv         program, bare_s (the faster bare run), profile_s,
#                      ncu_s, profile_over_bare, profile_over_ncu,
#                      explain_s (the default explain run), same (the
#                      one-run profile equals the per-kernel runs: 1/0)
#   results.tar.gz     every command's output and the kept directories
#                      (cubins over 1 MB and disassemblies over 2 MB left
#                      out)
# Modes, each wall-clock timed (date +%s%N), one run each (two for bare):
#   bare      the program alone, first and last
#   profile   bankscope profile: every kernel in one run
#   perkernel the same with BANKSCOPE_INJECT_MODULE_PROFILED=0: the
#             injection library without the module-profiled callback,
#             so CUPTI patches one kernel per process and bankscope
#             reruns the program once per other kernel (the runs before)
#   explain   profile --explain (the explain library in a run of its own,
#             beside the first: CUPTI and the Sanitizer API do not share a
#             process, scripts/explain-same-run.sh)
#   ncu       ncu --clock-control none --section SourceCounters
#             --kernel-id :::1 (the first launch of each kernel, the
#             launches the profile measures)
# Checks (scripts/profile-compare.py): profile against perkernel (the same
# instructions, executions, wavefronts and ideal; the header against
# launches.tsv), with a second profile run telling the program's own
# run-to-run variation apart; the explain verdicts counted.
# Clocks are left alone; needs root for the counters.
set -u
OUT=${OUT:-build/profile-bench}
SAMPLES=$(cd "${SAMPLES:-.carry/samples}" && pwd) || { echo "profile-bench.sh: SAMPLES: no CUDA samples there" >&2; exit 2; }
W=$OUT/work
mkdir -p "$W/runs" "$W/keep"
export PATH=$PATH:/usr/local/cuda/bin
export SANITIZER_HOME=${SANITIZER_HOME:-/usr/local/cuda/compute-sanitizer}
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
} > "$W/env.txt" 2>&1
cat "$W/env.txt" | tee -a "$OUT/summary.txt"

t0=$(ms)
make -j16 build/bankscope build/libbankscope_inject.so build/bankscope-tutorial \
	explain > "$W/build.log" 2>&1 || { tail -30 "$W/build.log"; exit 1; }
B=$W/bin; mkdir -p "$B"
CM="-arch=sm_90 -lineinfo -O3 -I$SAMPLES/Common"
S=$SAMPLES/Samples
nvcc $CM -o "$B/transpose" $S/6_Performance/transpose/transpose.cu >> "$W/build.log" 2>&1 &
H=$S/2_Concepts_and_Techniques/histogram
nvcc $CM -o "$B/histogram" $H/histogram64.cu $H/histogram256.cu $H/main.cpp $H/histogram_gold.cpp >> "$W/build.log" 2>&1 &
N=$S/2_Concepts_and_Techniques/sortingNetworks
nvcc $CM -o "$B/sortingNetworks" $N/bitonicSort.cu $N/oddEvenMergeSort.cu $N/main.cpp $N/sortingNetworks_validate.cpp >> "$W/build.log" 2>&1 &
nvcc $CM -o "$B/matrixMul" $S/0_Introduction/matrixMul/matrixMul.cu >> "$W/build.log" 2>&1 &
wait
say "build $(( ($(ms) - t0) / 1000000 )) ms"
BS=$PWD/build/bankscope

# timed NAME MODE RUN -- COMMAND...: one wall-clock line in the CSV
timed() {
	local name=$1 mode=$2 run=$3; shift 4
	local o=$W/runs/$name-$mode-$run
	local s=$(ms)
	timeout ${LIMIT:-120} "$@" > "$o.out" 2> "$o.err"
	local rc=$?
	local e=$(( $(ms) - s ))
	local secs=$(printf '%d.%03d' $((e / 1000000000)) $(( (e / 1000000) % 1000 )))
	echo "$name,$mode,$run,$secs,$rc" >> "$OUT/profile-bench.csv"
	say "$name $mode $run: $secs s, exit $rc"
}
secs_of() { awk -F, -v n="$1" -v m="$2" -v r="$3" '$1==n && $2==m && $3==r {print $4}' "$OUT/profile-bench.csv"; }

echo "program,bare_s,profile_s,ncu_s,profile_over_bare,profile_over_ncu,explain_s,same" > "$OUT/ratios.csv"
for p in "transpose $B/transpose" "histogram $B/histogram" \
	 "sortingNetworks $B/sortingNetworks" "matrixMul $B/matrixMul" \
	 "torch python3 scripts/bench/torch_ops.py" \
	 "triton python3 scripts/bench/triton_matmul.py"; do
	set -- $p
	name=$1; shift
	K=$W/keep/$name
	timed $name bare 1 -- "$@"
	timed $name profile 1 -- $BS profile --verbose --keep $K-one -- "$@"
	timed $name profile 2 -- $BS profile --keep $K-one2 -- "$@"
	timed $name perkernel 1 -- env BANKSCOPE_INJECT_MODULE_PROFILED=0 \
		$BS profile --verbose --keep $K-per -- "$@"
	timed $name explain 1 -- $BS profile --verbose --explain --keep $K-x -- "$@"
	timed $name ncu 1 -- ncu --clock-control none --section SourceCounters --kernel-id :::1 "$@"
	timed $name bare 2 -- "$@"
	say "$name: $(grep -h -E '^runs:|launches of' $W/runs/$name-profile-1.out $W/runs/$name-perkernel-1.out | tr '\n' ' ')"
	grep -h 'gave no SASS records' $W/runs/$name-profile-1.err | sed 's/^/   profile: /' | tee -a "$OUT/summary.txt"
	python3 scripts/profile-compare.py $BS $K-one $K-per $K-one2 > $W/runs/$name-compare.txt 2>&1
	same=$?
	say "$name one run against per-kernel runs: $(tail -1 $W/runs/$name-compare.txt)"
	$BS profile --replay $K-x --explain --format csv > $W/runs/$name-x.csv 2>&1
	say "$name explain verdicts: $(grep -v '^#' $W/runs/$name-x.csv | grep -o -E ',(AGREES|DISAGREES|DATA-DEPENDENT|NOT MODELED|NO SAMPLE|BAD SAMPLES)(,|$)' | sort | uniq -c | tr -s ' \n,' ' ')"
	b1=$(secs_of $name bare 1); b2=$(secs_of $name bare 2)
	pr=$(secs_of $name profile 1); nc=$(secs_of $name ncu 1)
	xs=$(secs_of $name explain 1)
	awk -v n=$name -v b1=$b1 -v b2=$b2 -v p=$pr -v c=$nc -v x=$xs -v s=$((same == 0)) \
		'BEGIN { b = b1 < b2 ? b1 : b2; printf "%s,%.3f,%.3f,%.3f,%.2f,%.2f,%.3f,%d\n", n, b, p, c, p / b, p / c, x, s }' \
		>> "$OUT/ratios.csv"
done

$BS profile --explain --keep "$W/tutorial" -- build/bankscope-tutorial \
	> "$W/tutorial.txt" 2> "$W/tutorial.err"
say "tutorial --explain: exit $?, $(head -3 $W/tutorial.txt | tail -2 | tr '\n' ' '), $(grep -c '^  verdict:  AGREES' "$W/tutorial.txt") agree, $(grep -c '^  verdict:  DISAGREES' "$W/tutorial.txt") disagree"
say "ratios (profile_over_bare, profile_over_ncu: wall-clock seconds over seconds)"
tr , '\t' < "$OUT/ratios.csv" | tee -a "$OUT/summary.txt"

find "$W" -name "cubin-*.cubin" -size +1M -delete
find "$W" -name "cubin-*.sass" -size +2M -delete
rm -rf "$B"
(cd "$OUT" && tar czf results.tar.gz work && rm -rf work)
ls -la "$OUT"
