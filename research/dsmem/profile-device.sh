#!/bin/bash
# profile-device.sh - one call on a GPU machine: the injection and explain
# libraries on distributed shared memory.  Runs, with the libraries loaded
# directly (the variables `bankscope profile` sets) so that every file they
# write is kept whatever the CLI makes of it:
#   - build/bankscope-dsmem --quick --no-counters, the kernels of ld 4 B
#     and red.add.u32 (every launch): its remote accesses are known, row by
#     row, from the dataset it writes;
#   - a program nobody here wrote: the CUDA Programming Guide's cluster
#     histogram as github.com/jazracherif/nvidia completes it
#     (cuda_programming_guide_13_1/src/2.2.3.8-dist-memory.cu, fetched
#     into .carry/dsmem-programs/, never committed), built with
#     nvcc -O2 -arch=sm_90 -lineinfo;
#   - Nsight Compute (--clock-control none) on the histogram: the kernel's
#     dshared sectors, wavefronts and instructions.
# The explain run is a run of its own, as profile --explain makes it.
# (The run of data/h200/dsmem-profile-20261128 also patched every generic
# access, kept when isspacep.shared::cluster and not .shared::cta: none
# was; the remote-shared-memory callback saw every remote access.)
# Everything lands in $OUT/dsmem-profile.tar.gz and $OUT/summary.txt.
set -u
OUT=${OUT:-/tmp/out}
W=$OUT/w
mkdir -p "$W"
export SANITIZER_HOME=/usr/local/cuda/compute-sanitizer
. research/runs/common.sh
run_log "$OUT/summary.txt" "$(date -u +%FT%TZ) $(uname -n)"
build "$W/build.log" -j16 build/bankscope build/bankscope-dsmem \
	build/libbankscope_inject.so explain || exit 1
P=.carry/dsmem-programs
cat $P/SOURCE
nvcc -O2 -arch=sm_90 -lineinfo -o "$W/dist-memory" $P/dist-memory.cu
cuobjdump -sass "$W/dist-memory" > "$W/dist-memory.sass"
grep -E 'RED|ATOM|MAPA|LD\.|ST\.' "$W/dist-memory.sass" | head -20

# inject DIR: the variables of profile's first run (every launch measured)
inject() {
	mkdir -p "$1"
	echo env CUDA_INJECTION64_PATH=$PWD/build/libbankscope_inject.so \
		BANKSCOPE_PROFILE_DIR=$1 BANKSCOPE_PROFILE_LAUNCH=all
}
# explain DIR SAMPLE: those of its explain run (a run of its own, as
# profile --explain runs it)
explain() {
	echo env CUDA_INJECTION64_PATH=$PWD/build/libbankscope_explain.so \
		BANKSCOPE_EXPLAIN_DIR=$1 \
		BANKSCOPE_EXPLAIN_PATCH=$PWD/build/bankscope_explain_patch.fatbin \
		BANKSCOPE_EXPLAIN_SAMPLE=$2 \
		BANKSCOPE_EXPLAIN_LOG=1
}
# disasm DIR: each kept cubin's nvdisasm -c -g, as profile names it
disasm() {
	for c in "$1"/cubin-*.cubin; do
		[ -e "$c" ] || continue
		nvdisasm -c -g "$c" > "${c%.cubin}.sass" 2>/dev/null
	done
	ls -la "$1"; cat "$1"/status.txt "$1"/explain-status.txt 2>/dev/null
	tail -5 "$1"/explain.log
	grep -c . "$1"/records.tsv "$1"/explain.tsv
	awk -F'\t' 'NR>1 {print $5, $6}' "$1"/explain.tsv | sort | uniq -c
}

say "histogram, bare"
"$W/dist-memory"; echo "rc $?"
say "histogram, injection, then explain (all 32 blocks, 1 warp, 4 executions)"
$(inject "$W/hist") "$W/dist-memory"; echo "rc $?"
$(explain "$W/hist" 32x1x4) "$W/dist-memory"; echo "rc $?"
disasm "$W/hist"
awk -F'\t' 'NR==1 || $8>0 || $10>0' "$W/hist/records.tsv" | cut -f2,6-10
say "histogram, ncu"
ncu --clock-control none --csv --page raw --metrics \
l1tex__m_xbar2l1tex_read_sectors_mem_dshared_op_atom.sum,\
l1tex__m_l1tex2xbar_write_sectors_mem_dshared_op_atom.sum,\
l1tex__t_output_wavefronts_pipe_lsu_mem_dshared_op_atom.sum,\
sm__sass_inst_executed_op_dshared_atom.sum,\
smsp__inst_executed_op_generic_atom.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum \
	"$W/dist-memory" > "$W/hist-ncu.csv" 2> "$W/hist-ncu.err"
echo "rc $?"
python3 - "$W/hist-ncu.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h = next(r for r in rows if 'Kernel Name' in r)
for r in rows[rows.index(h) + 2:]:
    for k, v in zip(h, r):
        if '__' in k and ('dshared' in k or 'generic' in k or 'shared_op' in k):
            print(k, v)
PY

say "bankscope-dsmem, ld 4 B and red.add.u32 kernels, every launch"
for k in 0,4 2,4; do
	d=$W/dsmem-${k/,/-}
	sel="dsmem_kernel<${k/,/, }>"
	$(inject "$d") BANKSCOPE_PROFILE_KERNEL="$sel" \
		build/bankscope-dsmem --quick --no-counters --out "$d.csv"
	echo "rc $?"
	$(explain "$d" 2x1x4) BANKSCOPE_PROFILE_KERNEL="$sel" \
		build/bankscope-dsmem --quick --no-counters --out "$d-x.csv"
	echo "rc $?"
	disasm "$d"
	# the records of instructions that moved something, not all
	awk -F'\t' 'NR==1 || $8>0 || $10>0' "$d/records.tsv" > "$d/moved.tsv"
	rm -f "$d/records.tsv"
done
tar -C "$W" -czf "$OUT/dsmem-profile.tar.gz" .
say "done $(date -u +%FT%TZ)"
