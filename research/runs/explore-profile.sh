#!/bin/bash
# explore-profile.sh [STAGE] - issue 11's exploration calls on a GPU machine (run by
# the device tool from .carry/d, with the CUDA samples' sources in
# ../d-samples): which CUPTI SASS-metrics call sequence measures every
# kernel of a program in one run, and whether the Sanitizer API's patching
# records each lane's shared address.  Everything goes to $OUT/explore.tar.gz
# (directories kept by the injection libraries, logs, timings).  Not a
# benchmark: one run per case, wall-clock in ms from date +%s%N.  Stage 1
# (the first call): the call sequences of inject.c on the samples; stage 2:
# the loading and Enable variants, and the explain library's collection.
set -u
STAGE=${1:-1}
OUT=${OUT:-/tmp/out}
W=$OUT/explore$STAGE
mkdir -p "$W"
SAMPLES=$(cd ../d-samples && pwd)
export SANITIZER_HOME=/usr/local/cuda/compute-sanitizer
log() { echo "== $*" | tee -a "$W/summary.txt"; }
ms() { date +%s%N; }

{
	nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
	nvcc --version | tail -1
	ls /usr/local/cuda/compute-sanitizer | head -20
	ncu --version | tail -1
	python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'
} > "$W/env.txt" 2>&1
cat "$W/env.txt"

t0=$(ms)
make -j16 build/bankscope build/libbankscope_inject.so build/bankscope-tutorial \
	build/tests/transpose explain > "$W/build.log" 2>&1 || { tail -30 "$W/build.log"; }
B=$W/bin; mkdir -p "$B"
CM="-arch=sm_90 -lineinfo -O3 -I$SAMPLES/Common"
nvcc $CM -o "$B/transpose" "$SAMPLES/Samples/6_Performance/transpose/transpose.cu" >> "$W/build.log" 2>&1 &
H=$SAMPLES/Samples/2_Concepts_and_Techniques/histogram
nvcc $CM -o "$B/histogram" $H/histogram64.cu $H/histogram256.cu $H/main.cpp $H/histogram_gold.cpp >> "$W/build.log" 2>&1 &
S=$SAMPLES/Samples/2_Concepts_and_Techniques/sortingNetworks
nvcc $CM -o "$B/sortingNetworks" $S/bitonicSort.cu $S/oddEvenMergeSort.cu $S/main.cpp $S/sortingNetworks_validate.cpp >> "$W/build.log" 2>&1 &
wait
log "build $(( ($(ms) - t0) / 1000000 )) ms"; ls -la build "$B" >> "$W/build.log"

INJ=$PWD/build/libbankscope_inject.so
EXL=$PWD/build/libbankscope_explain.so
PATCH=$PWD/build/bankscope_explain_patch.fatbin

# case NAME ENVS... -- PROGRAM ARGS: a kept injection directory and the time
inject() {
	local name=$1; shift
	local envs=()
	while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
	local d=$W/$name; rm -rf "$d"; mkdir -p "$d"
	local s=$(ms)
	env "${envs[@]}" CUDA_INJECTION64_PATH=$INJ BANKSCOPE_PROFILE_DIR=$d BANKSCOPE_INJECT_LOG=1 \
		timeout 120 "$@" > "$d/stdout.txt" 2> "$d/stderr.txt"
	local rc=$?
	local e=$(( ($(ms) - s) / 1000000 ))
	local nl=$(( $(wc -l < "$d/launches.tsv" 2>/dev/null || echo 1) - 1 ))
	local nm=$(awk -F'\t' 'NR>1 && $3!="-"' "$d/launches.tsv" 2>/dev/null | wc -l)
	local nr=$(( $(wc -l < "$d/records.tsv" 2>/dev/null || echo 1) - 1 ))
	local nk=$(awk -F'\t' 'NR>1{print $5}' "$d/records.tsv" 2>/dev/null | sort -u | wc -l)
	local nkl=$(awk -F'\t' 'NR>1{print $2}' "$d/launches.tsv" 2>/dev/null | sort -u | wc -l)
	log "$name: rc $rc, $e ms, launches $nl (kernels $nkl), marked measured $nm, records $nr, record functions $nk, status $(head -1 "$d/status.txt" 2>/dev/null)"
}
bare() {
	local name=$1; shift
	local s=$(ms)
	timeout 120 "$@" > "$W/bare-$name.txt" 2>&1
	log "bare $name: rc $?, $(( ($(ms) - s) / 1000000 )) ms"
}
explain() {
	local name=$1 how=$2; shift 2
	local envs=()
	while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
	local d=$W/$name; rm -rf "$d"; mkdir -p "$d"
	local s=$(ms)
	if [ "$how" = preload ]; then
		env "${envs[@]}" LD_PRELOAD=$EXL BANKSCOPE_EXPLAIN_DIR=$d BANKSCOPE_EXPLAIN_PATCH=$PATCH \
			BANKSCOPE_EXPLAIN_LOG=1 timeout 120 "$@" > "$d/stdout.txt" 2> "$d/stderr.txt"
	else
		env "${envs[@]}" CUDA_INJECTION64_PATH=$EXL BANKSCOPE_EXPLAIN_DIR=$d BANKSCOPE_EXPLAIN_PATCH=$PATCH \
			BANKSCOPE_EXPLAIN_LOG=1 timeout 120 "$@" > "$d/stdout.txt" 2> "$d/stderr.txt"
	fi
	local rc=$?
	log "$name: rc $rc, $(( ($(ms) - s) / 1000000 )) ms, explain lines $(( $(wc -l < "$d/explain.tsv" 2>/dev/null || echo 1) - 1 )), status $(head -1 "$d/explain-status.txt" 2>/dev/null)"
}

T=$B/transpose; TUT=build/bankscope-tutorial; TT=build/tests/transpose
export PYTHONUNBUFFERED=1
TORCH="python3 scripts/bench/torch_ops.py"
TRITON="python3 scripts/bench/triton_matmul.py"
if [ "$STAGE" = 1 ]; then
bare transpose $T
inject tr-window -- $T
inject tr-lazy0 BANKSCOPE_INJECT_LAZY=0 -- $T
inject tr-lazy0-eager BANKSCOPE_INJECT_LAZY=0 CUDA_MODULE_LOADING=EAGER -- $T
inject tr-atlaunch BANKSCOPE_INJECT_ENABLE_AT=launch -- $T
inject tr-flusheach BANKSCOPE_INJECT_FLUSH_EACH=1 -- $T
inject tr-select BANKSCOPE_PROFILE_KERNEL=coalesced BANKSCOPE_PROFILE_SKIP=1 BANKSCOPE_PROFILE_COUNT=2 -- $T
inject tr-perlaunch0 BANKSCOPE_PROFILE_LAUNCH=0 -- $T
inject tr-perlaunch5 BANKSCOPE_PROFILE_LAUNCH=5 -- $T
bare tt $TT
inject tt-window -- $TT
bare tutorial $TUT
inject tut-window -- $TUT
bare histogram $B/histogram
inject hist-window -- $B/histogram
bare sorting $B/sortingNetworks
inject sort-window -- $B/sortingNetworks

explain tr-explain-preload preload -- $T
explain tr-explain-inject inject -- $T
explain tt-explain preload -- $TT
explain tut-explain preload -- $TUT
explain hist-explain preload -- $B/histogram
explain sort-explain preload -- $B/sortingNetworks

export PYTHONUNBUFFERED=1
bare torch python3 scripts/bench/torch_ops.py
inject torch-window -- python3 scripts/bench/torch_ops.py
inject torch-perlaunch0 BANKSCOPE_PROFILE_LAUNCH=0 -- python3 scripts/bench/torch_ops.py
explain torch-explain preload -- python3 scripts/bench/torch_ops.py
bare triton python3 scripts/bench/triton_matmul.py
inject triton-window -- python3 scripts/bench/triton_matmul.py
explain triton-explain preload -- python3 scripts/bench/triton_matmul.py

else
# stage 2: which Enable sees every kernel (stage 1: only the first kernel
# launched after Enable had records, whatever the flush pattern)
for p in "tr T" "torch TORCH" "triton TRITON" "hist HIST" "sort SORT"; do
	set -- $p
	case $2 in
	T) prog=$T ;; TORCH) prog=$TORCH ;; TRITON) prog=$TRITON ;;
	HIST) prog=$B/histogram ;; SORT) prog=$B/sortingNetworks ;;
	esac
	inject $1-eager-lazy1 CUDA_MODULE_LOADING=EAGER -- $prog
	inject $1-eager-lazy0 CUDA_MODULE_LOADING=EAGER BANKSCOPE_INJECT_LAZY=0 -- $prog
	inject $1-loadall-lazy1 BANKSCOPE_INJECT_LOAD_ALL=1 -- $prog
	inject $1-loadall-lazy0 BANKSCOPE_INJECT_LOAD_ALL=1 BANKSCOPE_INJECT_LAZY=0 -- $prog
	inject $1-reenable BANKSCOPE_INJECT_LOAD_ALL=1 BANKSCOPE_INJECT_LAZY=0 BANKSCOPE_INJECT_REENABLE=1 -- $prog
done
explain tr-explain preload -- $T
explain tr-explain-inject inject -- $T
explain tt-explain preload -- $TT
explain tut-explain preload -- $TUT
explain hist-explain preload -- $B/histogram
explain sort-explain preload -- $B/sortingNetworks
explain torch-explain preload -- $TORCH
explain triton-explain preload -- $TRITON
fi

# the disassembly of the sample transpose's cubins, for matching pcs
for c in $W/tr-*/cubin-*.cubin $W/tut-*/cubin-*.cubin $W/hist-*/cubin-*.cubin $W/sort-*/cubin-*.cubin; do
	nvdisasm -c -g "$c" > "${c%.cubin}.sass" 2>/dev/null
done
find "$W" -name "cubin-*.cubin" -size +2M -printf "%p %s\n" -delete > "$W/big-cubins-dropped.txt"
cd "$OUT" && tar czf explore$STAGE.tar.gz explore$STAGE && ls -la "$OUT"
cat "$W/summary.txt"
