#!/bin/bash
# run.sh smoke|full - the kinds exploration, start to end, on a GPU machine.
#
# Builds research/explore/kinds (nvcc, CUPTI: counters.c + cupti_reason.c,
# linked as the Makefile links bankscope-probe), dumps its SASS, writes the
# patterns (gen_patterns.py; smoke: a few per kind), then
#   plan      which candidate metrics the range profiler accepts on the
#             chip, grouped first-fit into one-pass groups; the chip's base
#             metric list
#   timing    latency / issue interval and throughput of every pattern
#   counters  every pattern once per metric group (in-process CUPTI)
#   ncu       Nsight Compute (--clock-control none --cache-control none) on
#             the --ncu subset of the patterns, in chunks: the SASS metrics
#             it knows of the candidates (raw page, kernel totals) and the
#             SourceCounters section (source page: per instruction
#             wavefronts, ideal, excessive)
#   merge     one CSV, explore-kinds-<UTC time>.csv
# Every stage has its own time limit (NCU_SECONDS for ncu as a whole);
# NCU_FLAG picks the ncu subset (gen_patterns.py --ncu, or --ncu-byp).
# Raw files are made in $WORK (default /tmp/explore-work); $OUT (default
# build/explore-out) gets run.log, the merged CSV and
# explore-<mode>-<time>.tar.gz with every raw file, rewritten after each
# stage, so a run cut off keeps what it made.
set -u
mode=${1:-smoke}
OUT=${OUT:-build/explore-out}
NCU_SECONDS=${NCU_SECONDS:-120}
CHUNK=${CHUNK:-60}
T=$(date -u +%Y%m%d-%H%M%S)
W=${WORK:-/tmp/explore-work}
rm -rf "$W"
mkdir -p "$W"
exec > >(tee "$OUT/run.log") 2>&1
export PATH=$PATH:/usr/local/cuda/bin
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
D=research/explore
K=build/explore/kinds
start=$(date +%s.%N)
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
say() { printf '== %6s s  %s\n' "$(since $start)" "$*"; }
pack() { tar czf "$OUT/explore-$mode-$T.tar.gz" -C "$W" . ; }

say "mode $mode, $T UTC, $(hostname)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv
nvcc --version | tail -2

# ---- build -------------------------------------------------------------------
mkdir -p build/explore
CFLAGS="-std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -O2 -Iprobes/cinclude -I$CUDA_HOME/include"
set -e
gcc $CFLAGS -c probes/counters.c -o build/explore/counters.o
gcc $CFLAGS -c probes/cupti_reason.c -o build/explore/cupti_reason.o
nvcc -std=c++17 -O3 -gencode=arch=compute_90,code=sm_90 -Iprobes -Xptxas -v \
	-c $D/kinds.cu -o build/explore/kinds.o 2> "$W/ptxas.log"
nvcc -gencode=arch=compute_90,code=sm_90 -o $K build/explore/kinds.o \
	build/explore/counters.o build/explore/cupti_reason.o -L$CUDA_HOME/lib64 \
	-Xlinker --disable-new-dtags -Xlinker -rpath=$CUDA_HOME/lib64 -lcupti
set +e
say "built"
$K --mode kinds > "$W/kinds.txt"
cuobjdump -sass build/explore/kinds.o > "$W/kinds.sass"
python3 $D/sass_table.py "$W/kinds.sass" "$W/kinds.txt" > "$W/sass-opcodes.csv"
awk -F, '$1 != "k_warm" && $5 ~ /^(LDS|STS|LDSM|STSM|ATOMS|LDGSTS|RED|ATOM|BRA|POPC|VOTE|MATCH)/ {printf "%s/%s %s:%s:%s\n", $3, $4, $1, $5, $6}' \
	"$W/sass-opcodes.csv" | sort | awk '{a[$1]=a[$1] " " $2} END {for (k in a) print "  sass", k, a[k]}' | sort
say "sass"

# ---- patterns ------------------------------------------------------------------
sm=""; [ "$mode" = smoke ] && sm=--smoke
python3 $D/gen_patterns.py $sm > "$W/patterns.txt"
python3 $D/gen_patterns.py $sm ${NCU_FLAG:---ncu} > "$W/patterns-ncu-all.txt"
$K --mode check --patterns "$W/patterns.txt"
pack

# ---- metric plan ------------------------------------------------------------------
WF=l1tex__data_pipe_lsu_wavefronts_mem_shared
BC=l1tex__data_bank_conflicts_pipe_lsu_mem_shared
SW=smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared
SB=smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared
CAND="$WF.sum ${WF}_op_ld.sum ${WF}_op_st.sum ${WF}_op_atom.sum ${WF}_op_misc.sum
 ${WF}_op_gmma.sum ${WF}_op_ipa.sum ${WF}_op_ldgsts.sum ${WF}_op_ldsm.sum ${WF}_op_stsm.sum
 ${WF}_cmd_read.sum ${WF}_cmd_write.sum l1tex__data_pipe_lsu_wavefronts.sum
 $BC.sum ${BC}_op_ld.sum ${BC}_op_st.sum ${BC}_op_atom.sum ${BC}_op_ldgsts.sum ${BC}_op_misc.sum
 ${BC}_op_gmma.sum ${BC}_op_ldsm.sum ${BC}_op_stsm.sum
 smsp__inst_executed.sum smsp__inst_executed_op_shared_ld.sum smsp__inst_executed_op_shared_st.sum
 smsp__inst_executed_op_shared_atom.sum smsp__inst_executed_op_shared_atom_dot_alu.sum
 smsp__inst_executed_op_shared_atom_dot_cas.sum smsp__inst_executed_op_ldsm.sum
 smsp__inst_executed_op_shared_stsm.sum smsp__inst_executed_op_ldgsts.sum
 smsp__inst_executed_op_generic_atom.sum sm__inst_executed_pipe_lsu_mem_shared_cmd_read.sum
 l1tex__lsuin_requests.sum
 smsp__sass_inst_executed_op_shared.sum smsp__sass_inst_executed_op_shared_ld.sum
 smsp__sass_inst_executed_op_shared_st.sum smsp__sass_inst_executed_op_shared_atom.sum
 smsp__sass_inst_executed_op_ldsm.sum smsp__sass_inst_executed_op_shared_stsm.sum
 smsp__sass_inst_executed_op_ldgsts.sum smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum
 ${SW}_op_ld.sum ${SW}_op_st.sum ${SW}_op_atom.sum ${SW}_op_ldsm.sum ${SW}_op_stsm.sum
 ${SW}_op_ldgsts.sum ${SW}_op_ldgsts_cache_access.sum ${SW}_op_ldgsts_cache_bypass.sum
 ${SB}_op_ldsm.sum ${SB}_op_stsm.sum ${SB}_op_ldgsts.sum ${SB}_op_ldgsts_cache_access.sum
 ${SB}_op_ldgsts_cache_bypass.sum smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal.sum"
$K --mode plan --list "$W/metrics-gh100.txt" $CAND > "$W/plan.txt"
cat "$W/plan.txt" | cut -c1-220
say "plan: $(grep -c ^GROUP "$W/plan.txt") groups"

# ---- timing ---------------------------------------------------------------------------
timeout 200 $K --mode timing --patterns "$W/patterns.txt" --out "$W/timing.csv" 2> "$W/timing.err"
say "timing rc $?, $(($(wc -l < "$W/timing.csv") - 1)) rows"; tail -3 "$W/timing.err"
pack

# ---- counters ----------------------------------------------------------------------------
i=0
grep ^GROUP "$W/plan.txt" | while read -r _ g; do
	timeout 120 $K --mode counters --patterns "$W/patterns.txt" --metrics "$g" \
		--out "$W/counters-g$i.csv" 2> "$W/counters-g$i.err"
	say "counters group $i rc $?, $(($(wc -l < "$W/counters-g$i.csv") - 1)) rows"
	grep -v "^kinds: NVIDIA\|refused\|not 16-byte" "$W/counters-g$i.err" | tail -2
	i=$((i + 1))
done
pack

# ---- ncu ------------------------------------------------------------------------------------
NCU=$(command -v ncu || echo $CUDA_HOME/bin/ncu)
$NCU --query-metrics --chip gh100 > "$W/ncu-query.txt" 2>&1
NM=""
for m in $CAND; do
	b=${m%.sum}
	grep -qw "^$b" "$W/ncu-query.txt" && NM="$NM,$m"
done
NM=${NM#,}
echo "ncu metrics: $NM" | cut -c1-400
echo "$NM" > "$W/ncu-metrics.txt"
grep -v '^#' "$W/patterns-ncu-all.txt" | split -d -a 2 -l $CHUNK - "$W/chunk-"
ncu_end=$(( $(date +%s) + NCU_SECONDS ))
for c in "$W"/chunk-*; do
	nn=${c##*-}
	left=$(( ncu_end - $(date +%s) ))
	[ $left -lt 10 ] && { say "ncu: out of time before chunk $nn"; break; }
	mv "$c" "$W/patterns-ncu-$nn.txt"
	t0=$(date +%s.%N)
	timeout $left $NCU --clock-control none --cache-control none -k regex:k_counted \
		--section SourceCounters ${NM:+--metrics "$NM"} -f -o "$W/ncu-$nn" \
		$K --mode launch --patterns "$W/patterns-ncu-$nn.txt" > "$W/ncu-$nn.log" 2>&1
	rc=$?
	$NCU -i "$W/ncu-$nn.ncu-rep" --page raw --csv --print-units base > "$W/ncu-raw-$nn.csv" 2>/dev/null
	$NCU -i "$W/ncu-$nn.ncu-rep" --page source --print-source sass --csv > "$W/ncu-source-$nn.csv" 2>/dev/null
	rm -f "$W/ncu-$nn.ncu-rep"
	say "ncu chunk $nn rc $rc, $(grep -c . "$W/patterns-ncu-$nn.txt") patterns, $(since $t0) s"
	[ $rc -ne 0 ] && tail -5 "$W/ncu-$nn.log"
done
rm -f "$W"/chunk-*
pack

# ---- merge -------------------------------------------------------------------------------------
python3 $D/merge.py "$W" "$OUT/explore-kinds-$T.csv"
say "done"
pack
