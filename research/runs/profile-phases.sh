#!/bin/bash
# profile-phases.sh - where bankscope profile's time goes on a GPU
# machine (run by the device tool from .carry/d, the CUDA samples'
# sources in ../d-samples, like profile-bench.sh).  For each program:
# bankscope profile --verbose --explain --keep keep/NAME (the phases'
# wall-clock times on stderr), then the kept directory's cubin sizes;
# the kept directories go into $OUT/keep.tar.gz with cubins over 1 MB
# and disassemblies over 2 MB removed (listed in cubins.txt first).  Writes $OUT/summary.txt,
# $OUT/NAME.txt (the report) and $OUT/NAME.err (the phases).
set -u
OUT=${OUT:-/tmp/out}
W=$OUT/work
mkdir -p "$W/keep"
SAMPLES=$(cd ../d-samples && pwd)
export SANITIZER_HOME=/usr/local/cuda/compute-sanitizer
export PYTHONUNBUFFERED=1
say() { echo "== $*" | tee -a "$OUT/summary.txt"; }
make -j16 build/bankscope build/libbankscope_inject.so explain \
	> "$W/build.log" 2>&1 || tail -30 "$W/build.log"
B=$W/bin; mkdir -p "$B"
CM="-arch=sm_90 -lineinfo -O3 -I$SAMPLES/Common"
H=$SAMPLES/Samples/2_Concepts_and_Techniques/histogram
nvcc $CM -o "$B/histogram" $H/histogram64.cu $H/histogram256.cu $H/main.cpp $H/histogram_gold.cpp >> "$W/build.log" 2>&1 &
S=$SAMPLES/Samples/2_Concepts_and_Techniques/sortingNetworks
nvcc $CM -o "$B/sortingNetworks" $S/bitonicSort.cu $S/oddEvenMergeSort.cu $S/main.cpp $S/sortingNetworks_validate.cpp >> "$W/build.log" 2>&1 &
wait
BS=$PWD/build/bankscope
for p in "histogram $B/histogram" "sortingNetworks $B/sortingNetworks" \
	 "torch python3 scripts/bench/torch_ops.py" \
	 "triton python3 scripts/bench/triton_matmul.py"; do
	set -- $p
	name=$1; shift
	s=$(date +%s%N)
	timeout 200 $BS profile --verbose --explain --keep "$W/keep/$name" \
		-- "$@" > "$OUT/$name.txt" 2> "$OUT/$name.err"
	rc=$?
	say "$name: exit $rc, $(( ($(date +%s%N) - s) / 1000000 )) ms"
	grep 'bankscope: profile:' "$OUT/$name.err" | tee -a "$OUT/summary.txt"
	ls -la "$W/keep/$name" | awk '$5 > 100000' >> "$W/cubins.txt"
done
find "$W/keep" -name "cubin-*.cubin" -size +1M -delete
find "$W/keep" -name "cubin-*.sass" -size +2M -delete
cp "$W/cubins.txt" "$OUT/" 2>/dev/null
tar -C "$W" -czf "$OUT/keep.tar.gz" keep
ls -la "$OUT"
