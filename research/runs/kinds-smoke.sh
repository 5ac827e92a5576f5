#!/bin/bash
# kinds-smoke.sh OLD_KERNELS_O - the probes of the other kinds (ldmatrix,
# stmatrix, the shared atomics, cp.async) on the lent GPU, one call.
#
# Builds the CLI and the probe runner there (NVCC_ARCH, sm_90 by default),
# compares the machine code of every kernel of OLD_KERNELS_O (kernels.o of
# the build before these kinds, same flags) with the new build's
# (research/runs/sass_compare.py: the ld/st kernels must be unchanged), counts
# the shared-memory opcodes of the new kernels, then runs probe-stride (to
# compare its ld/st rows with the committed runs) and the four new
# families with every measurement, and `bankscope check` on each file.
# Everything lands in $OUT (default build/device-out): run.log, and one
# tarball with the datasets, the SASS and the comparison.
set -u
OUT=${OUT:-build/device-out}
OLD=${1:?usage: kinds-smoke.sh OLD_KERNELS_O}
mkdir -p "$OUT/data"
exec > >(tee "$OUT/run.log") 2>&1
say() { printf '== %s\n' "$*"; }
now() { date +%s.%N; }
sub() { awk "BEGIN { printf \"%.2f\", $1 - $2 }"; }

say "$(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv
export PATH=$PATH:/usr/local/cuda/bin
t0=$(now)
make -j16 NVCC_ARCH=${NVCC_ARCH:-sm_90} build/bankscope build/bankscope-probe \
	${GIT_DESCRIBE:+GIT_DESCRIBE=$GIT_DESCRIBE} >"$OUT/build.log" 2>&1 ||
	{ say "build failed"; tail -30 "$OUT/build.log"; exit 1; }
say "built in $(sub $(now) $t0) s: $(nvcc --version | tail -1)"
cuobjdump -sass "$OLD" >"$OUT/kernels-old.sass"
cuobjdump -sass build/obj/probes/kernels.o >"$OUT/kernels.sass"
python3 research/runs/sass_compare.py "$OUT/kernels-old.sass" "$OUT/kernels.sass" >"$OUT/sass-compare.txt"
say "sass compare rc $?: $(head -1 "$OUT/sass-compare.txt")"
grep -oE '(LDSM|STSM|LDS|STS|ATOMS|LDGSTS)(\.[A-Z0-9]+)*' "$OUT/kernels.sass" | sort | uniq -c

P=build/bankscope-probe
B=build/bankscope
for fam in stride ldsm stsm atoms cpasync; do
	t0=$(now)
	f=$($P --probe $fam --out "$OUT/data")
	rc=$?
	say "$fam: rc $rc, $(sub $(now) $t0) s wall, file ${f:-none}"
	[ -n "$f" ] && $B check --quiet "$f"
done
say "done $(date -u +%FT%TZ)"
tar czf "$OUT/kinds-smoke.tar.gz" -C "$OUT" data build.log kernels.sass kernels-old.sass sass-compare.txt run.log
