#!/bin/sh
# dsmem-device.sh - one call on the lent GPU machine for distributed
# shared memory: builds build/bankscope-dsmem, keeps its SASS (which
# instruction each target compiles to), runs it twice (the second run
# says how well the cycles repeat), and cross-checks a few rows' counters
# with Nsight Compute (--clock-control none).  Everything goes to $OUT.
set -u
OUT=${OUT:-build/dsmem-out}
mkdir -p "$OUT"
log=$OUT/dsmem-device.log
exec 2>>"$log"
{
	date -u
	nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
	make -j8 build/bankscope-dsmem build/bankscope 2>&1 | tail -3
	cuobjdump -sass build/obj/probes/dsmem/dsmem.o > "$OUT/dsmem.sass" 2>&1
	grep -oE '(LDS|STS|ATOMS|LD|ST|ATOM|RED|MAPA)(\.[A-Z0-9_]+)*' "$OUT/dsmem.sass" | sort | uniq -c
} >>"$log" 2>&1
t0=$(date +%s)
build/bankscope-dsmem --out "$OUT/dsmem-a.csv" >>"$log" 2>&1
echo "run a: rc=$? $(( $(date +%s) - t0 )) s" >>"$log"
t0=$(date +%s)
build/bankscope-dsmem --no-counters --out "$OUT/dsmem-b.csv" >>"$log" 2>&1
echo "run b (timing only): rc=$? $(( $(date +%s) - t0 )) s" >>"$log"
# Nsight Compute on the counted launches of the first points (ld1 ...):
# the remote dshared sectors and wavefronts per launch.
if command -v ncu >/dev/null 2>&1; then
	timeout 240 ncu --clock-control none --csv --page raw \
		--metrics l1tex__t_output_wavefronts_pipe_lsu_mem_dshared_op_ld.sum,l1tex__m_xbar2l1tex_read_sectors_mem_dshared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum \
		--launch-count 60 build/bankscope-dsmem --quick --no-counters \
		--out "$OUT/dsmem-ncu-run.csv" >"$OUT/dsmem-ncu.csv" 2>>"$log"
	echo "ncu: rc=$?" >>"$log"
fi
ls -la "$OUT" >>"$log"
