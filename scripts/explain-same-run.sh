#!/bin/bash
# explain-same-run.sh - can the explain library (CUDA Sanitizer API) sample
# in the same process as the injection library (CUPTI)?  On a GPU machine,
# from the repository root, the CUDA samples' sources in $SAMPLES (default
# .carry/samples).  Each variant profiles the transpose sample with
# --explain and counts explain.tsv's record lines; the variants differ in
# one thing each from `BANKSCOPE_PROFILE_EXPLAIN_RUN=same`:
#   separate      the explain library in a run of its own (the control)
#   same          loaded by the injection library after its CUPTI set-up
#   same-first    loaded before the CUPTI subscription
#   same-nosub    no CUPTI subscription at all (nothing measured)
#   same-nosass   subscribed, SASS metrics never enabled
# Then the explain library alone on the matrixMul sample
# (CUDA_INJECTION64_PATH, 30 s limit), its trace kept; bankscope profile
# --explain on matrixMul and on the tutorial kernels, verdicts counted.  Output in $OUT
# (default build/explain-same-run): summary.txt, logs.tar.gz.
set -u
OUT=${OUT:-build/explain-same-run}
SAMPLES=$(cd "${SAMPLES:-.carry/samples}" && pwd) || exit 2
W=$OUT/work; mkdir -p "$W"
export PATH=$PATH:/usr/local/cuda/bin
export SANITIZER_HOME=${SANITIZER_HOME:-/usr/local/cuda/compute-sanitizer}
say() { echo "== $*" | tee -a "$OUT/summary.txt"; }
make -j16 build/bankscope build/libbankscope_inject.so explain > "$W/build.log" 2>&1 || { tail -20 "$W/build.log"; exit 1; }
CM="-arch=sm_90 -lineinfo -O3 -I$SAMPLES/Common"
nvcc $CM -o "$W/transpose" "$SAMPLES/Samples/6_Performance/transpose/transpose.cu" &&
nvcc $CM -o "$W/matrixMul" "$SAMPLES/Samples/0_Introduction/matrixMul/matrixMul.cu" || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$OUT/summary.txt"
v() { # NAME VAR=VALUE...
	local name=$1; shift
	env BANKSCOPE_EXPLAIN_LOG=1 BANKSCOPE_INJECT_LOG=1 "$@" timeout 60 \
		build/bankscope profile --explain --keep "$W/$name" -- "$W/transpose" \
		> "$W/$name.out" 2> "$W/$name.err"
	say "$name: exit $?, $(($(grep -c . "$W/$name/explain.tsv") - 1)) explain records, $(grep -c 'begin' "$W/$name/explain.log" 2>/dev/null) launch callbacks seen by the Sanitizer, $(grep -c 'armed' "$W/$name/explain.log" 2>/dev/null) armed; $(sed -n 3p "$W/$name.out")"
}
v separate BANKSCOPE_PROFILE_EXPLAIN_RUN=separate
v same BANKSCOPE_PROFILE_EXPLAIN_RUN=same
v same-first BANKSCOPE_PROFILE_EXPLAIN_RUN=same BANKSCOPE_INJECT_EXPLAIN_FIRST=1
v same-nosub BANKSCOPE_PROFILE_EXPLAIN_RUN=same BANKSCOPE_INJECT_SUBSCRIBE=0
v same-nosass BANKSCOPE_PROFILE_EXPLAIN_RUN=same BANKSCOPE_INJECT_SASS=0
mkdir -p "$W/matrixMul-alone"
env CUDA_INJECTION64_PATH=$PWD/build/libbankscope_explain.so BANKSCOPE_EXPLAIN_DIR=$W/matrixMul-alone \
	BANKSCOPE_EXPLAIN_PATCH=$PWD/build/bankscope_explain_patch.fatbin BANKSCOPE_EXPLAIN_LOG=1 \
	timeout 30 "$W/matrixMul" > "$W/matrixMul-alone.out" 2>&1
say "matrixMul, the explain library alone: exit $?; its trace:"
sed 's/^/   /' "$W/matrixMul-alone/explain.log" | head -20 | tee -a "$OUT/summary.txt"
timeout 60 build/bankscope profile --explain --keep "$W/matrixMul-profile" -- "$W/matrixMul" \
	> "$W/matrixMul-profile.out" 2> "$W/matrixMul-profile.err"
say "matrixMul, bankscope profile --explain: exit $?, $(grep -c '^  verdict:  AGREES' "$W/matrixMul-profile.out") agree, $(grep -c '^  verdict:  DISAGREES' "$W/matrixMul-profile.out") disagree, $(grep -c '^  verdict' "$W/matrixMul-profile.out") verdicts"
make -j16 build/bankscope-tutorial >> "$W/build.log" 2>&1
timeout 120 build/bankscope profile --explain --keep "$W/tutorial" -- build/bankscope-tutorial \
	> "$W/tutorial.out" 2> "$W/tutorial.err"
say "tutorial, bankscope profile --explain: exit $?, $(grep -c '^  verdict:  AGREES' "$W/tutorial.out") agree, $(grep -c '^  verdict:  DISAGREES' "$W/tutorial.out") disagree"
rm -f "$W/transpose" "$W/matrixMul" "$W"/*/cubin-*
(cd "$OUT" && tar czf logs.tar.gz work && rm -rf work)
