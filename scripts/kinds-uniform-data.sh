#!/bin/bash
# kinds-uniform-data.sh - an experiment, on the lent GPU: does the issue
# interval of stmatrix and of red.add.u32 depend on the data they store?
#
# The probe kernels store each lane's own address as data (as st always
# has); probes/explore stored the constant 1 in every lane, and measured
# shorter intervals at many wavefronts for these two kinds only.  This
# builds a copy of the tree in which Stsm and the red.add.u32 accessor
# store 1 instead (nothing else changes), and times probe-stsm and
# probe-atoms with it (latency only), labelled stsm-uniform-data and
# atoms-uniform-data, into $OUT/data.  Not a probe of the suite: the
# copy is thrown away.
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
a = s.index("template <int X, bool T> struct Stsm")
b = s.index("enum { A_ADD_U32")
stsm = s[a:b].replace('"r"(a), "r"(v) : "memory"', '"r"(a), "r"(1u) : "memory"')
assert stsm.count('"r"(1u)') == 6
s = s[:a] + stsm + s[b:]
red = '''asm volatile("red.shared.add.u32 [%0], %1;"
				     : : "r"(a), "r"(v) : "memory");'''
assert red in s
s = s.replace(red, red.replace('"r"(v)', '"r"(1u)'))
open(p, "w").write(s)
PY
(cd "$W" && make -j16 NVCC_ARCH=${NVCC_ARCH:-sm_90} build/bankscope-probe \
	${GIT_DESCRIBE:+GIT_DESCRIBE=$GIT_DESCRIBE-uniform-data} >build.log 2>&1) ||
	{ echo "uniform-data: build failed"; tail -20 "$W/build.log"; exit 1; }
for fam in stsm atoms; do
	"$W/build/bankscope-probe" --probe $fam --measure latency \
		--label $fam-uniform-data --out "$OUT/data"
done
