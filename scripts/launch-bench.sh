#!/bin/bash
# launch-bench.sh - what a launch costs under `bankscope profile` (issue
# 28), on a GPU machine, from the repository root.  Programs:
# scripts/bench/launches.cu (`short N`: N short launches of three kernels,
# N = 1, 10^3, 10^4, 10^5; `long 100`: one long kernel launched 100 times;
# `procs N`: two child processes on the GPU), and where $SAMPLES holds
# them (default .carry/samples, NVIDIA/cuda-samples) the samples scan,
# globalToShmemAsyncCopy and matrixMul.  All built `nvcc -arch=sm_90
# -lineinfo -O3`.
#
# Modes, each wall-clock timed, one run each:
#   bare        the program alone
#   profile     bankscope profile (first launch of each kernel)
#   explain     bankscope profile --explain (a second run, the explain
#               library's)
#   ncu         ncu --clock-control none --section SourceCounters
#               --kernel-id :::1
#   all         bankscope profile --launches all (every launch measured)
# and, where $DIAG is 1 (default), the parts of the cost apart:
#   nosub       the injection library loaded, nothing subscribed
#               (BANKSCOPE_INJECT_SUBSCRIBE=0)
#   nosass      the launch callbacks, no SASS metrics (BANKSCOPE_INJECT_SASS=0)
# and, on 20,000 launches or fewer, the ways before issue 28:
#   nopause     profile with the window never paused (BANKSCOPE_INJECT_PAUSE=0)
#   xwhole      --explain with the explain run let run to its end
#               (BANKSCOPE_PROFILE_EXPLAIN_WHOLE=1)
# Checks: profile's CSV equals nopause's, explain's verdicts equal
# xwhole's (pausing and ending the explain run early change no figure).
# Then the Sanitizer API's unpatching from a launch callback, on the
# smallest program (`launches nbstream 30`, a non-blocking stream, against
# `launches short 30`, the default stream; BANKSCOPE_EXPLAIN_UNPATCH=end
# and =0), and two processes (`launches procs 300`, and
# scripts/bench/mp_torch.py, two spawned PyTorch processes).
# Writes under $OUT (default build/launch-bench):
#   summary.txt   what ran, and the per-launch costs
#   times.csv     case,launches,mode,wall_s,exit_status
#   cost.csv      case,launches,measured,bare_s,mode,wall_s,
#                 extra_s (wall - bare),per_unmeasured_us (extra over the
#                 launches not measured), ncu_s
#   keep.tar.gz   the kept directories' small files and the CSVs
# LIMIT (default 120) caps each run in seconds; BUDGET (default 540) the
# whole call; CASES picks cases, SKIPMODES leaves modes out.  Clocks are left alone; needs root for the counters.
set -u
OUT=${OUT:-build/launch-bench}
W=$OUT/work
mkdir -p "$W/runs" "$W/keep" "$W/bin"
export PATH=$PATH:/usr/local/cuda/bin
export SANITIZER_HOME=${SANITIZER_HOME:-/usr/local/cuda/compute-sanitizer}
say() { echo "== $*" | tee -a "$OUT/summary.txt"; }
ms() { date +%s%N; }
echo "case,launches,mode,wall_s,exit_status" > "$OUT/times.csv"
echo "case,launches,measured,bare_s,mode,wall_s,extra_s,per_unmeasured_us,ncu_s" > "$OUT/cost.csv"
{
	date -u +%FT%TZ
	nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
	nvcc --version | tail -1
	ncu --version | tail -1
	git log -1 --format='bankscope %h %s' 2>/dev/null
} 2>&1 | tee -a "$OUT/summary.txt"

t0=$(ms)
make -j16 build/bankscope build/libbankscope_inject.so explain \
	> "$W/build.log" 2>&1 || { tail -30 "$W/build.log"; exit 1; }
B=$W/bin
nvcc -arch=sm_90 -lineinfo -O3 -o "$B/launches" scripts/bench/launches.cu >> "$W/build.log" 2>&1 || { tail "$W/build.log"; exit 1; }
SAMPLES=${SAMPLES:-.carry/samples}
if [ -d "$SAMPLES/Common" ]; then
	CM="-arch=sm_90 -lineinfo -O3 -I$SAMPLES/Common"
	S=$SAMPLES/Samples
	C2=$S/2_Concepts_and_Techniques
	nvcc $CM -o "$B/scan" $C2/scan/scan.cu $C2/scan/main.cpp $C2/scan/scan_gold.cpp >> "$W/build.log" 2>&1 &
	nvcc $CM -o "$B/globalToShmemAsyncCopy" $S/3_CUDA_Features/globalToShmemAsyncCopy/globalToShmemAsyncCopy.cu >> "$W/build.log" 2>&1 &
	nvcc $CM -o "$B/matrixMul" $S/0_Introduction/matrixMul/matrixMul.cu >> "$W/build.log" 2>&1 &
	wait
fi
say "build $(( ($(ms) - t0) / 1000000 )) ms"
BS=$PWD/build/bankscope

# timed CASE N MODE -- COMMAND...: one line of times.csv
timed() {
	local c=$1 n=$2 mode=$3; shift 4
	local o=$W/runs/$c-$mode
	case " ${SKIPMODES:-} " in *" $mode "*) return ;; esac
	if [ $(( ($(ms) - t0) / 1000000000 )) -gt ${BUDGET:-540} ]; then
		say "$c $mode skipped: the call's budget is spent"
		return
	fi
	local s=$(ms)
	timeout ${LIMIT:-120} "$@" > "$o.out" 2> "$o.err"
	local rc=$?
	local e=$(( $(ms) - s ))
	local secs=$(printf '%d.%03d' $((e / 1000000000)) $(( (e / 1000000) % 1000 )))
	echo "$c,$n,$mode,$secs,$rc" >> "$OUT/times.csv"
	say "$c $mode: $secs s, exit $rc"
}
secs() { awk -F, -v c="$1" -v m="$2" '$1==c && $3==m {print $4}' "$OUT/times.csv"; }

# case launches measured command...
bench() {
	local c=$1 n=$2 meas=$3; shift 3
	local K=$W/keep/$c
	timed $c $n bare -- "$@"
	timed $c $n profile -- $BS profile --keep $K -- "$@"
	if [ "$n" = 0 ] && [ -f $K/launches.tsv ]; then
		n=$(tail -n +2 $K/launches.tsv | wc -l)
		meas=$(tail -n +2 $K/launches.tsv | cut -f2 | sort -u | wc -l)
		say "$c: $n launches of $meas kernels"
	fi
	timed $c $n explain -- $BS profile --explain --verbose --keep $K-x -- "$@"
	timed $c $n ncu -- ncu --clock-control none --section SourceCounters --kernel-id :::1 "$@"
	if [ "${DIAG:-1}" = 1 ]; then
		timed $c $n nosub -- env BANKSCOPE_INJECT_SUBSCRIBE=0 $BS profile -- "$@"
		timed $c $n nosass -- env BANKSCOPE_INJECT_SASS=0 $BS profile -- "$@"
	fi
	if [ "$n" -le 20000 ]; then
		timed $c $n nopause -- env BANKSCOPE_INJECT_PAUSE=0 $BS profile --keep $K-np -- "$@"
		timed $c $n xwhole -- env BANKSCOPE_PROFILE_EXPLAIN_WHOLE=1 $BS profile --explain --keep $K-xnu -- "$@"
	fi
	[ "$n" -le 20000 ] && timed $c $n all -- $BS profile --launches all -- "$@"
	grep -h 'explain run' $W/runs/$c-explain.err 2>/dev/null | head -2 | sed 's/^/   /' 
	local b=$(secs $c bare) nc=$(secs $c ncu)
	for m in profile explain nosub nosass nopause xwhole all; do
		local t=$(secs $c $m)
		[ -n "$t" ] || continue
		awk -v c=$c -v n=$n -v k=$meas -v b=$b -v m=$m -v t=$t -v nc=${nc:-0} 'BEGIN {
			u = n - k; x = t - b; per = "-"
			if (u > 0) per = sprintf("%.1f", x / u * 1e6)
			printf "%s,%d,%d,%.3f,%s,%.3f,%.3f,%s,%.3f\n", c, n, k, b, m, t, x, per, nc }' >> "$OUT/cost.csv"
	done
	if [ -d $K-np ]; then
		$BS profile --replay $K --format csv 2>/dev/null | grep -v '^#' > $W/runs/$c-p.csv
		$BS profile --replay $K-np --format csv 2>/dev/null | grep -v '^#' > $W/runs/$c-np.csv
		say "$c: profile against nopause: $(cmp -s $W/runs/$c-p.csv $W/runs/$c-np.csv && echo same || echo DIFFER) ($(wc -l < $W/runs/$c-p.csv) lines)"
	fi
	if [ -d $K-xnu ]; then
		for d in x xnu; do
			$BS profile --replay $K-$d --explain --format csv 2>/dev/null | grep -v '^#' |
				grep -o -E ',(AGREES|DISAGREES|DATA-DEPENDENT|LANES OFF|NOT MODELED|BAD SAMPLES|REMOTE|NO SAMPLE)(,|$)' |
				sort | uniq -c | tr -s ' \n,' ' ' > $W/runs/$c-$d.verdicts
		done
		say "$c: explain verdicts $(cat $W/runs/$c-x.verdicts); run to its end $(cat $W/runs/$c-xnu.verdicts)"
	fi
	grep -h -i 'pause\|patch' $K/inject-*.log $K-x/explain.log 2>/dev/null | tail -2 | sed 's/^/   /'
}

# CASES="NAME ..." runs those cases alone
want() { case " ${CASES:-$1} " in *" $1 "*) return 0 ;; esac; return 1; }
want short1 && bench short1 1 1 $B/launches short 1
want short1k && bench short1k 1000 3 $B/launches short 1000
want long100 && bench long100 100 1 $B/launches long 100
want short10k && bench short10k 10000 3 $B/launches short 10000
for s in scan globalToShmemAsyncCopy matrixMul; do
	[ -x $B/$s ] && want $s || continue
	bench $s 0 0 $B/$s
done
want short100k && bench short100k 100000 3 $B/launches short 100000

# unpatching from a launch callback: the smallest program, with and
# without the non-blocking stream, with and without the unpatching
LIMIT=40
for v in "nbstream end" "short end" "nbstream 0"; do
	set -- $v
	timed unpatch-$1-$2 30 explain -- env BANKSCOPE_EXPLAIN_UNPATCH=$2 BANKSCOPE_EXPLAIN_LOG=1 \
		BANKSCOPE_PROFILE_EXPLAIN_WHOLE=1 BANKSCOPE_EXPLAIN_IDLE=2 \
		$BS profile --explain --keep $W/keep/unpatch-$1-$2 -- $B/launches $1 30
	tail -2 $W/keep/unpatch-$1-$2/explain.log 2>/dev/null | sed 's/^/   /' | tee -a "$OUT/summary.txt"
done
LIMIT=${LIMIT0:-120}

# two processes
timed procs 2 bare -- $B/launches procs 300
timed procs 2 profile -- $BS profile --keep $W/keep/procs -- $B/launches procs 300
timed procs 2 explain -- $BS profile --explain --keep $W/keep/procs-x -- $B/launches procs 300
timed procs 2 apponly -- $BS profile --target-processes application-only -- $B/launches procs 300
timed procs 2 ncu -- ncu --clock-control none --section SourceCounters --kernel-id :::1 --target-processes all $B/launches procs 300
for m in profile explain apponly; do
	say "procs $m:"; grep -E '^(program|process|runs|[0-9]+ launch)|bankscope:' $W/runs/procs-$m.out $W/runs/procs-$m.err | sed 's/^/   /' | tee -a "$OUT/summary.txt"
done
if python3 -c 'import torch' 2>/dev/null; then
	timed mptorch 2 bare -- python3 scripts/bench/mp_torch.py
	timed mptorch 2 profile -- $BS profile --keep $W/keep/mptorch -- python3 scripts/bench/mp_torch.py
	timed mptorch 2 explain -- $BS profile --explain --format csv -o $W/runs/mptorch-%p.csv --keep $W/keep/mptorch-x -- python3 scripts/bench/mp_torch.py
	timed mptorch 2 ncu -- ncu --clock-control none --section SourceCounters --kernel-id :::1 --target-processes all python3 scripts/bench/mp_torch.py
	say "mptorch profile:"; grep -E '^(program|process|runs|[0-9]+ launch)|bankscope:' $W/runs/mptorch-profile.out $W/runs/mptorch-profile.err | sed 's/^/   /' | tee -a "$OUT/summary.txt"
	say "mptorch explain: $(cat $W/runs/mptorch-explain.err | tr '\n' ' ')"
	for f in $W/runs/mptorch-[0-9]*.csv; do
		say "$(basename $f): $(grep '^# process\|^# command' $f | tr '\n' ' ') $(grep -o -E ',(AGREES|DISAGREES|DATA-DEPENDENT|LANES OFF|NOT MODELED|REMOTE|NO SAMPLE)(,|$)' $f | sort | uniq -c | tr -s ' \n,' ' ')"
	done
fi

say "launches per kept run"
for d in $W/keep/*; do
	[ -f $d/launches.tsv ] && echo "$(basename $d) $(( $(wc -l < $d/launches.tsv) - 1 ))"
done | tee -a "$OUT/summary.txt"
say "cost"
tr , "\t" < "$OUT/cost.csv" | tee -a "$OUT/summary.txt"
find "$W/keep" -name "cubin-*" -delete
find "$W/keep" -name "explain.tsv" -size +2M -delete
(cd "$W" && tar czf "$OUT/keep.tar.gz" keep runs build.log)
rm -rf "$W"
ls -la "$OUT"
