#!/bin/bash
# profile-cli-device.sh - one call on a GPU machine: `bankscope profile
# --explain` itself, end to end, on distributed shared memory:
#   - the CUDA Programming Guide's cluster histogram as
#     github.com/jazracherif/nvidia completes it (.carry/dsmem-programs/,
#     never committed; see data/h200/dsmem-profile-20261128/README.txt),
#     every block sampled;
#   - build/bankscope-dsmem --quick --no-counters: the remote launches of
#     points ld4_s1, ld4_s32, ld4_s33 and ld16_s1, one profile each: the
#     REMOTE verdict's sectors are those of the points' addresses.
# Text and JSON of each, the kept records directories (cubins left out);
# everything under $OUT.
set -u
OUT=${OUT:-/tmp/out}
W=$OUT/w
mkdir -p "$W"
export SANITIZER_HOME=/usr/local/cuda/compute-sanitizer
. research/runs/common.sh
run_log "$OUT/summary.txt" "$(date -u +%FT%TZ) $(uname -n)"
build "$W/build.log" -j16 build/bankscope build/bankscope-dsmem \
	build/libbankscope_inject.so explain || exit 1
B=build/bankscope
nvcc -O2 -arch=sm_90 -lineinfo -o "$W/dist-memory" \
	.carry/dsmem-programs/dist-memory.cu || exit 1

say "histogram: bankscope profile --explain --sample 32x1x4"
/usr/bin/time -f '%e s' $B profile --explain --sample 32x1x4 \
	--keep "$W/hist" -- "$W/dist-memory" > "$OUT/hist.txt"
echo "rc $?"; cat "$OUT/hist.txt"
$B profile --replay "$W/hist" --explain --format json > "$OUT/hist.json"
echo "rc $?"

# the explain run samples the first selected launch of each kernel: skip
# to the remote row's launches (each point runs local, self and remote,
# two launches each: the point's remote launches are 6 x its index + 4)
for spec in "0, 4:4:ld4_s1" "0, 4:40:ld4_s32" "0, 4:46:ld4_s33" \
	"0, 16:4:ld16_s1"; do
	k=${spec%%:*}; rest=${spec#*:}; skip=${rest%%:*}; name=${rest#*:}
	say "bankscope-dsmem $name (remote): profile --explain, kernel dsmem_kernel<$k>, skip $skip"
	$B profile --explain --sample 2x1x4 --kernel "dsmem_kernel<$k>" \
		--launch-skip $skip --launch-count 2 --keep "$W/$name" -- \
		build/bankscope-dsmem --quick --no-counters \
		--out "$W/$name-run.csv" > "$W/$name.txt"
	echo "rc $?"
	grep -v '^ *bank \|^ *wave \|^ *phase ' "$W/$name.txt" | \
		grep -B2 -A12 'LD.E' | head -40
	grep -h "^$name," "$W/$name-run.csv" | cut -d, -f1-7
done
rm -f "$W"/*/cubin-*.cubin "$W/dist-memory"
tar -C "$W" -czf "$OUT/records.tar.gz" hist ld4_s1 ld4_s32 ld4_s33 ld16_s1 \
	ld4_s1.txt ld4_s32.txt ld4_s33.txt ld16_s1.txt ld4_s1-run.csv
say "done $(date -u +%FT%TZ)"
