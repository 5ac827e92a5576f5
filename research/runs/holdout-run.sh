#!/bin/bash
# holdout-run.sh - one call on the lent GPU: measure the accesses of
# research/explore/holdout.py (drawn after sm_90's atom.add.u64 and
# cp.async.cg rules were fitted; their predictions are committed beside
# the pattern file in data/h100-sxm/holdout-20261124/) and check them.
# Builds the CLI and the runner, then
#   bankscope-probe --file holdout.patterns (latency, throughput, counters)
#   bankscope check of the dataset, text and csv
#   Nsight Compute (--clock-control none) on the counted launches: the
#     LDS and the ATOMS wavefronts of each loop row apart (the in-process
#     pass reads their sum), and LDGSTS wavefronts
# The dataset and run.log land in $OUT, the rest in one tarball there.
set -u
TOP=${OUT:-build/device-out}
OUT=$TOP/w
PAT=${PAT:-data/h100-sxm/holdout-20261124/holdout.patterns}
mkdir -p "$OUT/data"
. research/runs/common.sh
run_log "$TOP/run.log" "holdout, $(date -u +%FT%TZ)"
build "$OUT/build.log" -j16 build/bankscope build/bankscope-probe || exit 1
P=build/bankscope-probe
B=build/bankscope
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
s=$(date +%s%N)
f=$($P --file "$PAT" --label holdout --out "$OUT/data")
say "holdout: rc $?, file $f, $(( ($(date +%s%N) - s) / 1000000 )) ms"
cp "$f" "$TOP/"
$B check --quiet "$f"
$B check --format csv "$f" >"$OUT/check.csv" 2>"$OUT/check.err"
say "check csv rc $?: $(wc -l < "$OUT/check.csv") lines"
M=smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_atom.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,smsp__sass_inst_executed_op_ldgsts.sum
timeout 300 "$NCU" --clock-control none -k regex:k_counted --metrics "$M" \
	--csv --page raw --log-file "$OUT/ncu-holdout.csv" \
	$P --file "$PAT" --measure launch --out /tmp/ncu1 >/dev/null 2>"$OUT/ncu-holdout.err"
say "ncu rc $?: $(wc -l < "$OUT/ncu-holdout.csv") lines"
tar -C "$OUT" -czf "$TOP/holdout-run.tar.gz" .
say "done $(date -u +%FT%TZ)"
