#!/bin/bash
# device-run.sh smoke|full - what one call on the lent GPU machine does.
#
# Builds the CLI and the probe runner there, then
#   smoke: the wide family and the calibration patterns, with counters,
#          and the probes' SASS;
#   full:  probe-all with counters (timed), a second timing-only run for
#          repeatability, the counter pass alone against Nsight Compute
#          collecting the same six metrics on the same kernels
#          (--clock-control none), and the two sets of counts compared.
# Everything lands in $OUT (default build/device-out): the datasets, the
# logs and a summary, packed in one tarball as well.
set -u
OUT=${OUT:-build/device-out}
mode=${1:-smoke}
mkdir -p "$OUT/data"
exec > >(tee "$OUT/run.log") 2>&1
say() { printf '== %s\n' "$*" | tee -a "$OUT/summary.txt"; }
now() { date +%s.%N; }
sub() { awk "BEGIN { printf \"%.2f\", $1 - $2 }"; }

say "mode $mode, $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv 2>&1 | tee -a "$OUT/summary.txt"
export PATH=$PATH:/usr/local/cuda/bin
make -j8 build/bankscope build/bankscope-probe ${GIT_DESCRIBE:+GIT_DESCRIBE=$GIT_DESCRIBE} >"$OUT/build.log" 2>&1 || { say "build failed"; tail -30 "$OUT/build.log"; exit 1; }
say "built: $(nvcc --version | tail -1)"
P=build/bankscope-probe
B=build/bankscope

run_probe() {  # run_probe LABEL ARGS... : time it, check it
	local label=$1; shift
	local t0 t1 f
	t0=$(now)
	f=$($P "$@" --out "$OUT/data")
	local rc=$?
	t1=$(now)
	say "$label: rc $rc, $(sub $t1 $t0) s wall, file ${f:-none}"
	[ -n "$f" ] && $B check --quiet "$f" | tail -3 | tee -a "$OUT/summary.txt"
	LAST=$f
}

if [ "$mode" = smoke ]; then
	run_probe "wide" --probe wide
	run_probe "calibration file" --file tests/calibration/h100.patterns
	make sass >"$OUT/sass.log" 2>&1; cp build/sass/kernels.sass "$OUT/" 2>/dev/null
	tail -12 "$OUT/sass.log" | tee -a "$OUT/summary.txt"
else
	run_probe "probe-all, counters" --probe all
	ALL=$LAST
	run_probe "probe-all again, timing only" --probe all --measure latency,throughput
	AGAIN=$LAST
	# repeatability of the latency medians between the two runs
	python3 scripts/compare_runs.py "$ALL" "$AGAIN" | tee -a "$OUT/summary.txt"
	# the architecture the run itself gives (compared with sm_90's rules here,
	# where the kinds sm_90 leaves unmodeled can be set apart)
	$B calibrate "$ALL" > "$OUT/data/calibrated.arch" 2> "$OUT/calibrate.log"
	say "calibrate rc $?: $(tail -1 "$OUT/calibrate.log")"
	run_probe "stride family alone" --probe stride
	run_probe "calibration patterns" --file tests/calibration/h100.patterns --label calibration
	t0=$(now); $P --probe all --measure launch --out /tmp/bare >/dev/null; t1=$(now)
	bare=$(sub $t1 $t0)
	t0=$(now); $P --probe all --measure counters --out /tmp/inproc >/dev/null; t1=$(now)
	inproc=$(sub $t1 $t0)
	M=$(scripts/metrics.sh kernel)
	NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
	t0=$(now)
	timeout 400 "$NCU" --clock-control none -k regex:k_counted --metrics "$M" --csv --page raw \
		--log-file "$OUT/ncu.csv" $P --probe all --measure launch --out /tmp/ncu >/dev/null 2>"$OUT/ncu.err"
	say "ncu rc $?"
	t1=$(now)
	ncu=$(sub $t1 $t0)
	say "counters, $(ls /tmp/inproc/*.csv | head -1 | xargs grep -vc '^#') rows: bare launches $bare s, in-process CUPTI $inproc s, Nsight Compute $ncu s"
	python3 - "$bare" "$inproc" "$ncu" <<'EOF' | tee -a "$OUT/summary.txt"
import sys
bare, inproc, ncu = map(float, sys.argv[1:])
print(f"ratio ncu/in-process (whole commands): {ncu/inproc:.2f}")
print(f"ratio of collection cost over bare launches: {(ncu-bare)/max(inproc-bare,1e-9):.2f}")
EOF
	python3 scripts/compare_ncu.py "$ALL" "$OUT/ncu.csv" | tee -a "$OUT/summary.txt"
fi
say "done $(date -u +%FT%TZ)"
tar czf "$OUT/device-$mode.tar.gz" -C "$OUT" data run.log summary.txt $(cd "$OUT" && ls ncu.csv ncu.err kernels.sass sass.log build.log calibrate.log 2>/dev/null)
