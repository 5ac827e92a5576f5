#!/bin/bash
# sparse-ld-run.sh - one call on the lent GPU: do 8- and 16-byte loads
# with sparse lane masks pack, and where do the atom.add.u64 retry loop's
# wavefronts go (LDS or CAS)?  See research/explore/sparse_ld.py.
#
# Builds the CLI and the runner, then measures
#   sparse-ld.patterns  (research/explore/sparse_ld.py) with counters, checked
#                       against sm_90, and its counts again under Nsight
#                       Compute (--clock-control none);
#   u64-loop.patterns   the 88 atom.add.u64 rows of the 2026-11-24 run, and
#                       under Nsight Compute the LDS and the CAS wavefronts
#                       of each apart (the in-process pass reads their sum).
# The datasets and run.log land in $OUT, everything else in one tarball
# there (the device tool brings back at most 8 files).
set -u
TOP=${OUT:-build/device-out}
OUT=$TOP/w
DATA=data/h100-sxm/all-20261124-153149.csv
mkdir -p "$OUT/data"
. research/runs/common.sh
run_log "$TOP/run.log" "sparse-ld, $(date -u +%FT%TZ)"
build "$OUT/build.log" -j8 build/bankscope build/bankscope-probe \
	${GIT_DESCRIBE:+GIT_DESCRIBE=$GIT_DESCRIBE} || exit 1
P=build/bankscope-probe
B=build/bankscope
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)

python3 research/explore/sparse_ld.py "$DATA" >"$OUT/sparse-ld.patterns"
python3 - "$DATA" >"$OUT/u64-loop.patterns" <<'PY'
import csv, sys
print("# the atom.add.u64 rows of", sys.argv[1])
with open(sys.argv[1]) as f:
    for r in csv.DictReader(l for l in f if not l.startswith("#")):
        if r["op"] == "atom.add.u64":
            print(r["name"], r["width"], r["op"], r["addresses"])
PY

f=$($P --file "$OUT/sparse-ld.patterns" --label sparse-ld --out "$OUT/data")
say "sparse-ld: rc $?, file $f"
$B check --quiet "$f"
$B check --format csv "$f" >"$OUT/sparse-ld-check.csv" 2>"$OUT/sparse-ld-check.err"
SPARSE=$f
f=$($P --file "$OUT/u64-loop.patterns" --label u64-loop --out "$OUT/data")
say "u64-loop: rc $?, file $f"

timeout 200 "$NCU" --clock-control none -k regex:k_counted --metrics "$(scripts/metrics.sh kernel)" \
	--csv --page raw --log-file "$OUT/ncu-sparse-ld.csv" \
	$P --file "$OUT/sparse-ld.patterns" --measure launch --out /tmp/ncu1 >/dev/null 2>"$OUT/ncu-sparse-ld.err"
say "ncu sparse-ld rc $?"
python3 scripts/compare_ncu.py "$SPARSE" "$OUT/ncu-sparse-ld.csv"

M=smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_atom.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum
timeout 200 "$NCU" --clock-control none -k regex:k_counted --metrics "$M" \
	--csv --page raw --log-file "$OUT/ncu-u64-loop.csv" \
	$P --file "$OUT/u64-loop.patterns" --measure launch --out /tmp/ncu2 >/dev/null 2>"$OUT/ncu-u64-loop.err"
say "ncu u64-loop rc $?"
say "done $(date -u +%FT%TZ)"
cp "$OUT"/data/*.csv "$TOP/"
tar czf "$TOP/sparse-ld-run.tar.gz" -C "$OUT" .
