#!/bin/bash
# explain-bench.sh - `bankscope profile --explain` on programs nobody here
# wrote, against Nsight Compute per instruction (issue 27), on a GPU
# machine, from the repository root.  Sources: the CUDA samples in
# $SAMPLES (default .carry/samples: Common/ and the Samples/ folders named
# below, from NVIDIA/cuda-samples), the CUDA Programming Guide's cluster
# histogram in $CLUSTER (default .carry/cluster: dist-memory.cu and
# cuda_utils.cuh, from github.com/jazracherif/nvidia), and
# scripts/bench/torch_small.py and triton_mm.py.  Every program is built
# `nvcc -arch=sm_90 -lineinfo -O3` (the samples with -I$SAMPLES/Common).
#
# Per program, each wall-clock timed, one run each:
#   bare     the program alone
#   profile  bankscope profile --keep (the counters, one run)
#   explain  bankscope profile --explain --keep (the sampled addresses)
#   ncu      ncu --clock-control none --section SourceCounters
#            --kernel-id :::1 -o REP (the launches profile measures), then
#            its source page as CSV (not timed)
# and, untimed: the profile's CSV against ncu's per instruction
# (scripts/ncu_source_compare.py), and the explain verdicts counted.
# Writes under $OUT (default build/explain-bench):
#   summary.txt         what ran, in order, and the tables
#   times.csv           program,mode,wall_s,exit_status
#   verdicts.csv        program,rows,AGREES,DISAGREES,DATA-DEPENDENT,
#                       LANES OFF,NOT MODELED,BAD SAMPLES,REMOTE,
#                       NO SAMPLE
#   ncu.csv             program,compared,equal,differ,missing (the join)
#   keep.tar.gz         every kept directory (records, explain.tsv,
#                       explain-counts.tsv, statuses, the disassemblies;
#                       no cubin) and the profile and explain CSVs
#   ncu-source.tar.gz   ncu's source pages (CSV)
# ONLY="NAME ..." runs those programs alone.  Clocks are left alone; needs
# root for the counters.
set -u
OUT=${OUT:-build/explain-bench}
SAMPLES=$(cd "${SAMPLES:-.carry/samples}" && pwd) || { echo "explain-bench.sh: SAMPLES: no CUDA samples there" >&2; exit 2; }
CLUSTER=$(cd "${CLUSTER:-.carry/cluster}" && pwd) || { echo "explain-bench.sh: CLUSTER: no cluster histogram there" >&2; exit 2; }
W=$OUT/work
mkdir -p "$W/runs" "$W/keep" "$W/ncu" "$W/bin"
export PATH=$PATH:/usr/local/cuda/bin
export SANITIZER_HOME=${SANITIZER_HOME:-/usr/local/cuda/compute-sanitizer}
export PYTHONUNBUFFERED=1
say() { echo "== $*" | tee -a "$OUT/summary.txt"; }
ms() { date +%s%N; }
echo "program,mode,wall_s,exit_status" > "$OUT/times.csv"
echo "program,rows,AGREES,DISAGREES,DATA-DEPENDENT,LANES OFF,NOT MODELED,BAD SAMPLES,REMOTE,NO SAMPLE" > "$OUT/verdicts.csv"
echo "program,summary" > "$OUT/ncu.csv"

{
	date -u +%FT%TZ
	nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
	nvcc --version | tail -1
	ncu --version | tail -1
	python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'
	git log -1 --format='bankscope %h %s' 2>/dev/null
} 2>&1 | tee -a "$OUT/summary.txt"

t0=$(ms)
make -j16 build/bankscope build/libbankscope_inject.so explain \
	> "$W/build.log" 2>&1 || { tail -30 "$W/build.log"; exit 1; }
B=$W/bin
CM="-arch=sm_90 -lineinfo -O3 -I$SAMPLES/Common"
S=$SAMPLES/Samples
C2=$S/2_Concepts_and_Techniques
C5=$S/5_Domain_Specific
build() { local n=$1; shift; nvcc $CM -o "$B/$n" "$@" >> "$W/build.log" 2>&1 || echo "build of $n failed" >> "$W/build.log"; }
build transpose $S/6_Performance/transpose/transpose.cu &
build histogram $C2/histogram/histogram64.cu $C2/histogram/histogram256.cu $C2/histogram/main.cpp $C2/histogram/histogram_gold.cpp &
build sortingNetworks $C2/sortingNetworks/bitonicSort.cu $C2/sortingNetworks/oddEvenMergeSort.cu $C2/sortingNetworks/main.cpp $C2/sortingNetworks/sortingNetworks_validate.cpp &
build matrixMul $S/0_Introduction/matrixMul/matrixMul.cu &
build reduction $C2/reduction/reduction.cpp $C2/reduction/reduction_kernel.cu &
build convolutionSeparable $C2/convolutionSeparable/convolutionSeparable.cu $C2/convolutionSeparable/main.cpp $C2/convolutionSeparable/convolutionSeparable_gold.cpp &
build scan $C2/scan/scan.cu $C2/scan/main.cpp $C2/scan/scan_gold.cpp &
build fastWalshTransform $C5/fastWalshTransform/fastWalshTransform.cu $C5/fastWalshTransform/fastWalshTransform_gold.cpp &
build binomialOptions $C5/binomialOptions/binomialOptions.cpp $C5/binomialOptions/binomialOptions_kernel.cu $C5/binomialOptions/binomialOptions_gold.cpp &
build cudaTensorCoreGemm $S/3_CUDA_Features/cudaTensorCoreGemm/cudaTensorCoreGemm.cu &
build globalToShmemAsyncCopy $S/3_CUDA_Features/globalToShmemAsyncCopy/globalToShmemAsyncCopy.cu &
(cd "$CLUSTER" && nvcc -arch=sm_90 -lineinfo -O3 -o "$B/clusterHist" dist-memory.cu >> "$W/build.log" 2>&1) &
wait
say "build $(( ($(ms) - t0) / 1000000 )) ms; $(ls $B | wc -l) programs"
grep -h 'failed' "$W/build.log" | tee -a "$OUT/summary.txt"
BS=$PWD/build/bankscope

# timed NAME MODE -- COMMAND...: one wall-clock line in times.csv
timed() {
	local name=$1 mode=$2; shift 3
	local o=$W/runs/$name-$mode
	local s=$(ms)
	timeout ${LIMIT:-150} "$@" > "$o.out" 2> "$o.err"
	local rc=$?
	local e=$(( $(ms) - s ))
	local secs=$(printf '%d.%03d' $((e / 1000000000)) $(( (e / 1000000) % 1000 )))
	echo "$name,$mode,$secs,$rc" >> "$OUT/times.csv"
	say "$name $mode: $secs s, exit $rc"
}

count() { grep -c -E ",$1(,|\$)" "$2"; }
for p in "transpose $B/transpose" "histogram $B/histogram" \
	 "sortingNetworks $B/sortingNetworks" "matrixMul $B/matrixMul" \
	 "reduction $B/reduction" "convolutionSeparable $B/convolutionSeparable" \
	 "scan $B/scan" "fastWalshTransform $B/fastWalshTransform" \
	 "binomialOptions $B/binomialOptions" \
	 "cudaTensorCoreGemm $B/cudaTensorCoreGemm" \
	 "globalToShmemAsyncCopy $B/globalToShmemAsyncCopy" \
	 "clusterHist $B/clusterHist" \
	 "torch python3 scripts/bench/torch_small.py" \
	 "triton python3 scripts/bench/triton_mm.py"; do
	set -- $p
	name=$1; shift
	K=$W/keep/$name
	case " ${ONLY:-$name} " in *" $name "*) ;; *) continue ;; esac
	if [ $(( ($(ms) - t0) / 1000000000 )) -gt ${BUDGET:-470} ]; then
		say "$name skipped: the call's budget of ${BUDGET:-470} s is spent"
		continue
	fi
	timed $name bare -- "$@"
	timed $name profile -- $BS profile --keep $K -- "$@"
	timed $name explain -- $BS profile --explain --verbose --keep $K-x -- "$@"
	timed $name ncu -- ncu --clock-control none --section SourceCounters \
		--kernel-id :::1 -f -o "$W/ncu/$name" "$@"
	ncu -i "$W/ncu/$name.ncu-rep" --page source --print-source sass --csv \
		> "$W/ncu/$name-source.csv" 2> "$W/ncu/$name-source.err"
	rm -f "$W/ncu/$name.ncu-rep"
	$BS profile --replay $K --format csv > "$W/runs/$name-profile.csv" 2> "$W/runs/$name-profile-csv.err"
	$BS profile --replay $K-x --explain --format csv > "$W/runs/$name-explain.csv" 2> "$W/runs/$name-explain-csv.err"
	cmp=$(python3 scripts/ncu_source_compare.py "$W/runs/$name-profile.csv" \
		"$W/ncu/$name-source.csv" 2> "$W/runs/$name-ncu-compare.err")
	echo "$name,\"$cmp\"" >> "$OUT/ncu.csv"
	say "$name against ncu: $cmp"
	x=$W/runs/$name-explain.csv
	rows=$(grep -v '^#' "$x" | tail -n +2 | wc -l)
	echo "$name,$rows,$(count AGREES $x),$(count DISAGREES $x),$(count DATA-DEPENDENT $x),$(count 'LANES OFF' $x),$(count 'NOT MODELED' $x),$(count 'BAD SAMPLES' $x),$(count REMOTE $x),$(count 'NO SAMPLE' $x)" >> "$OUT/verdicts.csv"
	say "$name verdicts: $(tail -1 "$OUT/verdicts.csv")"
	grep -h 'records' "$K-x/explain-status.txt" 2>/dev/null | head -3 | sed 's/^/   /' | tee -a "$OUT/summary.txt"
done

say "times (s)"
tr , "\t" < "$OUT/times.csv" | tee -a "$OUT/summary.txt"
say "verdicts"
tr , "\t" < "$OUT/verdicts.csv" | tee -a "$OUT/summary.txt"
find "$W/keep" -name "cubin-*.cubin" -delete
(cd "$W" && tar czf "$OUT/keep.tar.gz" keep runs build.log)
(cd "$W" && tar czf "$OUT/ncu-source.tar.gz" ncu)
rm -rf "$W"
ls -la "$OUT"
