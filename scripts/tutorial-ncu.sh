#!/bin/bash
# tutorial-ncu.sh - Nsight Compute's per-instruction shared-memory counts
# for the first launch of each tutorial kernel, one ncu run per kernel
# (--clock-control none), and a trace of the injection library measuring
# a later launch (BANKSCOPE_PROFILE_LAUNCH=5, the first transpose), for
# comparison with what bankscope profile collects.  Output in $OUT
# (default build/tutorial-ncu): ncu-source-<i>.csv merged into
# ncu-tutorial-source.csv, summary.txt, inject-trace.tar.gz.
set -u
OUT=${OUT:-build/tutorial-ncu}
mkdir -p "$OUT"
exec > >(tee "$OUT/summary.txt") 2>&1
export PATH=$PATH:/usr/local/cuda/bin
make -j8 build/bankscope build/libbankscope_inject.so build/bankscope-tutorial \
	>"$OUT/build.log" 2>&1 || { echo "build failed"; tail -20 "$OUT/build.log"; exit 1; }
P=build/bankscope-tutorial
i=0
: > "$OUT/ncu-tutorial-source.csv"
for k in 'micro_inc<0>' 'micro_inc<1>' 'micro_inc<2>' 'micro_struct<plain_s>' \
	 'micro_struct<padded_s>' 'transpose_static<0, 0>' 'transpose_static<1, 0>' \
	 'transpose_static<0, 1>' 'transpose_dynamic' 'matmul_static<16>' \
	 'matmul_static<32>' 'matmul_dynamic<16>' 'matmul_dynamic<32>'; do
	rx=$(printf '%s' "$k" | sed 's/[<>]/./g; s/ /.*/g')
	ncu --clock-control none --section SourceCounters -k "regex:^$rx" -c 1 \
		-f -o /tmp/ncu-$i $P > /tmp/ncu-$i.log 2>&1
	echo "$k: ncu rc $?"
	ncu -i /tmp/ncu-$i.ncu-rep --page source --print-source sass --csv \
		>> "$OUT/ncu-tutorial-source.csv" 2>/dev/null
	i=$((i + 1))
done
grep -c '"Kernel Name"' "$OUT/ncu-tutorial-source.csv"
mkdir -p /tmp/trace
CUDA_INJECTION64_PATH=$PWD/build/libbankscope_inject.so BANKSCOPE_PROFILE_DIR=/tmp/trace \
	BANKSCOPE_PROFILE_LAUNCH=5 BANKSCOPE_INJECT_LOG=1 $P > /dev/null
echo "trace run rc $?"
cat /tmp/trace/status.txt; wc -l /tmp/trace/records.tsv; tail -30 /tmp/trace/inject.log
tar -C /tmp/trace -czf "$OUT/inject-trace.tar.gz" status.txt records.tsv launches.tsv inject.log
echo "done $(date -u +%FT%TZ)"
