#!/bin/sh
# two_subscribers.sh - build research/evidence/two_subscribers.cu (and its
# Sanitizer half, two_subscribers_san.c) and run it
# in each order, one process each; the log goes to $OUT (default the
# current folder) as two_subscribers.log.  Needs nvcc, CUPTI and the
# Sanitizer API (SANITIZER_HOME: compute-sanitizer's folder, or
# build/sanitizer-api/nvidia/cu13); a GPU to run.
set -u
here=$(cd "$(dirname "$0")" && pwd)
S=${SANITIZER_HOME:-/usr/local/cuda/compute-sanitizer}
[ -d "$S/include" ] || { echo "two_subscribers.sh: no Sanitizer API under $S" >&2; exit 2; }
L=$S; [ -f "$L/libsanitizer-public.so" ] || L=$S/lib
C=$(dirname "$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")")
bin=${TMPDIR:-/tmp}/two_subscribers
log=${OUT:-.}/two_subscribers.log
cc -O2 -c -o "$bin-san.o" "$here/two_subscribers_san.c" -I"$S/include" -I"$C/include" || exit 2
nvcc -O2 -o "$bin" "$here/two_subscribers.cu" "$bin-san.o" -I"$C/extras/CUPTI/include" \
	-L"$C/lib64" -L"$C/extras/CUPTI/lib64" -L"$L" -lcupti -lsanitizer-public \
	-Xlinker -rpath -Xlinker "$L" || exit 2
[ "${1:-}" = build ] && exit 0
: > "$log"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> "$log" 2>&1
for o in cupti-only sanitizer-only cupti-first sanitizer-first; do
	echo "=== $o" >> "$log"
	timeout 60 "$bin" "$o" >> "$log" 2>&1
	echo "exit $?" >> "$log"
done
cat "$log"
