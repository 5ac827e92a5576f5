#!/bin/sh
# nvcc-arch.sh NVCC - the nvcc targets for the GPU of this machine, and why.
#
# Prints one line: the targets, comma-separated, then a blank and the
# reason in words.  sm_XY is machine code for compute capability X.Y;
# compute_XY is PTX, which the driver compiles (JIT) for any GPU of X.Y
# or newer.  The Makefile runs this when NVCC_ARCH is not set, at most
# once per make, and prints what it chose.
#
#   1. nvidia-smi --query-gpu=compute_cap: the capability of every GPU
#      here (each distinct one once);
#   2. else the toolkit's own query, __nvcc_device_query beside NVCC (what
#      nvcc -arch=native uses);
#   3. else sm_90 plus compute_90 PTX: the Hopper GPUs this suite was
#      measured on, and through the JIT any newer one.
#
# A capability newer than this nvcc knows (nvcc --list-gpu-code) is built
# as the newest one it knows, plus that one's PTX for the driver to JIT.
# Exit status 0 whatever it finds.
set -u
nvcc=${1:-nvcc}
default="sm_90,compute_90"

# "9.0" or "90" lines -> 90, one per line, sorted, distinct
numbers() {
	tr ', ' '\n\n' | sed -n 's/^\([0-9][0-9]*\)\.\([0-9]\)$/\1\2/p; s/^\([0-9][0-9]*\)$/\1/p' |
		sort -n -u
}

how=""
caps=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | numbers)
if [ -n "$caps" ]; then
	how="nvidia-smi"
else
	query=$(dirname "$(command -v "$nvcc" 2>/dev/null || echo "$nvcc")")/__nvcc_device_query
	if [ -x "$query" ]; then
		caps=$("$query" 2>/dev/null | numbers)
		[ -n "$caps" ] && how="__nvcc_device_query"
	fi
fi
if [ -z "$caps" ]; then
	echo "$default no GPU found (neither nvidia-smi nor __nvcc_device_query names one): sm_90 machine code plus compute_90 PTX, which the driver compiles for newer GPUs"
	exit 0
fi

known=$("$nvcc" --list-gpu-code 2>/dev/null | sed -n 's/^sm_\([0-9][0-9]*\)$/\1/p' | sort -n -u)
targets=""
notes=""
for c in $caps; do
	t="sm_$c"
	if [ -n "$known" ] && ! echo "$known" | grep -qx "$c"; then
		newest=""
		for k in $known; do
			[ "$k" -le "$c" ] && newest=$k
		done
		if [ -n "$newest" ]; then
			t="sm_$newest,compute_$newest"
			notes="$notes; this nvcc knows no sm_$c, so sm_$newest and its PTX, which the driver compiles for $((c / 10)).$((c % 10))"
		fi
	fi
	targets="$targets${targets:+,}$t"
done
list=$(echo "$caps" | awk '{ printf("%s%d.%d", (NR > 1) ? ", " : "", int($1 / 10), $1 % 10) }')
echo "$targets the GPU here (compute capability $list, from $how)$notes"
