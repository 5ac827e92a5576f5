#!/bin/bash
# gmma-sweep.sh - issue 29's one call on a lent H200 (sm_90a): build
# build/bankscope-gmma, keep its SASS, run the whole wgmma + TMA sweep with
# CUPTI counters, cross-check a few launches with Nsight Compute, and leave
# everything in $OUT (at most 8 files, as the device tool returns them):
#
#   gmma.csv               the wgmma rows (probes/gmma/gmma.cu says what each
#                          column is), '#' metadata first
#   tma.csv                the TMA rows
#   metrics-available.txt  each candidate metric: its one-pass group or why
#                          CUPTI refused it; then every base metric of the chip
#   skipped.txt            rows that broke the CUDA context or hung, with why
#                          (each run goes on without them)
#   gmma-sweep.log         the build, the runs, the SASS opcode counts
#   gmma-sass.txt.gz       the kernels' SASS (cuobjdump -sass)
#   gmma-ncu.csv           ncu --page raw on the --quick rows' first launches
#
# Robust to a failing row: a recoverable error is in its row's err column;
# a row that leaves the context broken (exit 3) or hangs (timeout) is
# appended to skipped.txt and the run is repeated without it.  Progress
# goes to stderr; the last lines are a short table.  Run from the
# repository's root:  OUT=/some/dir bash scripts/gmma-sweep.sh
set -u
OUT=${OUT:-build/gmma-out}
mkdir -p "$OUT"
log=$OUT/gmma-sweep.log
skip=$OUT/skipped.txt
prog=${TMPDIR:-/tmp}/gmma-progress.$$
bin=build/bankscope-gmma
t0=$(date +%s)
: >"$log"
: >"$skip"

say() { echo "gmma-sweep [$(( $(date +%s) - t0 )) s]: $*" | tee -a "$log" >&2; }
# seconds left of the whole call's budget (BUDGET, 285 by default)
left() { echo $(( ${BUDGET:-285} - ($(date +%s) - t0) )); }

{
	date -u
	nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm \
		--format=csv 2>&1
	nvcc --version 2>&1 | tail -1
	git log -1 --format='commit %H %s' 2>/dev/null
} >>"$log" 2>&1

say "building $bin (sm_90a) and the library ..."
if ! make -j16 "$bin" >>"$log" 2>&1; then
	say "the build failed; its last lines:"
	tail -25 "$log" >&2
	exit 1
fi
say "built"

if command -v cuobjdump >/dev/null 2>&1; then
	for o in build/obj/probes/gmma/kern_*.o; do
		echo "### $o"
		cuobjdump -sass "$o"
	done >"$OUT/gmma-sass.txt" 2>>"$log"
	{
		echo "## SASS opcodes of the gmma kernels (count, opcode with modifiers)"
		grep -oE '(HGMMA|IGMMA|QGMMA|UTMALDG|UTMASTG|UBLKCP|WARPGROUP)[.A-Za-z0-9x_]*' \
			"$OUT/gmma-sass.txt" | sort | uniq -c
	} >>"$log"
	gzip -f "$OUT/gmma-sass.txt"
	say "SASS kept in gmma-sass.txt.gz"
else
	say "no cuobjdump: no SASS kept"
fi

# 1. Preflight: every row's check launch alone, until none breaks the
# context or hangs (each breaker is skipped from then on).
for try in $(seq 1 40); do
	if [ "$(left)" -lt 150 ]; then
		say "preflight: out of time; the sweep goes on with what is skipped so far"
		break
	fi
	say "preflight $try: the check launch of every row"
	timeout 60 "$bin" --preflight --skip "$skip" --fatal "$skip" \
		--progress "$prog" 2>&1 | tee -a "$log" | tail -2 >&2
	rc=${PIPESTATUS[0]}
	if [ "$rc" = 3 ]; then
		say "preflight: skipping $(tail -1 "$skip")"
		continue
	fi
	if [ "$rc" = 124 ]; then
		echo "$(cat "$prog" 2>/dev/null || echo unknown-row) hang: its check did not end in 60 s" >>"$skip"
		say "preflight: a hang; skipping $(tail -1 "$skip")"
		continue
	fi
	[ "$rc" = 0 ] || say "preflight: exit status $rc (see the log)"
	break
done

# 2. The sweep: checks, timing, counters; again without any row that
# breaks the context here.
for try in 1 2 3; do
	t=$(( $(left) - 25 ))
	if [ "$t" -lt 30 ]; then
		say "sweep: out of time"
		break
	fi
	say "sweep $try: checks, clock64 timing, then the counter groups (at most $t s)"
	timeout "$t" "$bin" --skip "$skip" --fatal "$skip" --progress "$prog" \
		--out "$OUT/gmma.csv" --tma-out "$OUT/tma.csv" \
		--metrics-out "$OUT/metrics-available.txt" 2>&1 |
		tee -a "$log" | grep --line-buffered -E 'rows|group|done|lost|metric' >&2
	rc=${PIPESTATUS[0]}
	if [ "$rc" = 3 ]; then
		say "sweep: skipping $(tail -1 "$skip") and running again"
		continue
	fi
	if [ "$rc" = 124 ]; then
		echo "$(cat "$prog" 2>/dev/null || echo unknown-row) hang or time out in the sweep's launch" >>"$skip"
		say "sweep: timed out at $(tail -1 "$skip")"
		continue
	fi
	[ "$rc" = 0 ] || say "sweep: exit status $rc (see the log)"
	break
done
rm -f "$prog"

# 3. Nsight Compute on the first launches of the --quick rows (each row's
# check launch is one wgmma a warpgroup: its counts are per instruction).
if command -v ncu >/dev/null 2>&1 && [ "$(left)" -gt 70 ]; then
	say "ncu cross-check (at most 60 s)"
	timeout 60 ncu --clock-control none --csv --page raw \
		--metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum,smsp__sass_data_bytes_mem_shared_op_gmma.sum,smsp__sass_inst_executed_op_shared_gmma.sum,l1tex__data_bank_reads.sum,l1tex__data_bank_writes.sum,sm__pipe_tma_cycles_active.sum \
		--launch-count 24 "$bin" --quick --no-counters \
		--out /dev/null >"$OUT/gmma-ncu.csv" 2>>"$log"
	say "ncu: exit status $?"
fi

say "done; files in $OUT:"
ls -la "$OUT" >&2
ls -la "$OUT" >>"$log"

# A short table: per warpgroup instruction, a few rows.
if [ -s "$OUT/gmma.csv" ]; then
	awk -F, '
	/^#/ { next }
	!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	{ rows++; if ($c["check"] == "ok") ok++ }
	$c["nwg"] == 1 && $c["holdout"] == 0 && ($c["n"] == 64 || $c["n"] == 256) &&
	$c["family"] == "hgmma" && $c["a_major"] != "mn" && $c["b_major"] == "k" {
		t[++n] = sprintf("%-40s %-10s %9s %9s %8s %8s", $c["name"], $c["check"],
			$c["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum"],
			$c["smsp__sass_data_bytes_mem_shared_op_gmma.sum"],
			$c["tp_cyc_med"], $c["tp_tma_cyc_med"])
	}
	END {
		printf "gmma.csv: %d rows, %d with check ok\n", rows, ok
		printf "%-40s %-10s %9s %9s %8s %8s\n", "row", "check", "wavefr", "bytes", "tp_cyc", "tp+tma"
		for (i = 1; i <= n; i++) print t[i]
	}' "$OUT/gmma.csv" >&2
fi
[ -s "$OUT/tma.csv" ] && awk -F, '/^#/ { next } !h { h = 1; next } { n++; if ($9 == "ok") ok++ } END { printf "tma.csv: %d rows, %d ok\n", n, ok }' "$OUT/tma.csv" >&2
exit 0
