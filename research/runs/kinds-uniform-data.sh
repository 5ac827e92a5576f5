#!/bin/bash
# kinds-uniform-data.sh - an experiment, on the lent GPU: does the issue
# interval of stmatrix and of red.add.u32 depend on the data they store?
#
# The probe kernels' chains store each lane's own address as data (as st
# always has); research/explore stored a kernel argument equal to 1 in every
# lane, and measured shorter intervals at many wavefronts for these two
# kinds only.  This builds a copy of the tree whose chains store the
# kernel argument zero + 1 instead (the same in every lane, unknown to the
# compiler; a literal 1 would not do: ptxas turns red.add of 1 into
# ATOMS.POPC.INC), and times probe-stsm and probe-atoms with it (latency
# only: the chains of kinds without a value back), labelled
# stsm-uniform-data and atoms-uniform-data, into $OUT/data.  Not a probe
# of the suite: the copy is thrown away.
set -u
OUT=${OUT:-build/device-out}
W=/tmp/uniform-data
rm -rf "$W"
mkdir -p "$W" "$OUT/data"
tar cf - --exclude=./build --exclude=./.git . | tar xf - -C "$W"
python3 - "$W/probes/kernels.cu" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
old = """		else
			A::go(a, a);"""
assert s.count(old) == 1
s = s.replace(old, """		else
			A::go(a, zero + 1u);""")
open(p, "w").write(s)
PY
(cd "$W" && make -j16 NVCC_ARCH=${NVCC_ARCH:-sm_90} build/bankscope-probe \
	${GIT_DESCRIBE:+GIT_DESCRIBE=$GIT_DESCRIBE-uniform-data} >build.log 2>&1) ||
	{ echo "uniform-data: build failed"; tail -20 "$W/build.log"; exit 1; }
for fam in stsm atoms; do
	"$W/build/bankscope-probe" --probe $fam --measure latency \
		--label $fam-uniform-data --out "$OUT/data"
done
