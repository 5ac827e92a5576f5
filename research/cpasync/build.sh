#!/bin/sh
# build.sh - research/cpasync/srcprobe from the repository root, with the
# project's counters (probes/counters.c, probes/cupti_reason.c); the
# binary goes to build/srcprobe.
set -eu
C=${CUDA_HOME:-/usr/local/cuda}
mkdir -p build/obj/research
nvcc -O2 -arch=sm_90 -Iprobes -Icudabase -c research/cpasync/srcprobe.cu -o build/obj/research/srcprobe.o
for f in counters cupti_reason; do
	src=probes/$f.c; [ -f "$src" ] || src=cudabase/$f.c
	gcc -std=c11 -O2 -Iprobes -Icudabase -Iprobes/cinclude -I"$C/include" -c "$src" -o build/obj/research/$f.o
done
nvcc -o build/srcprobe build/obj/research/srcprobe.o build/obj/research/counters.o build/obj/research/cupti_reason.o \
	-L"$C/lib64" -Xlinker --disable-new-dtags -Xlinker -rpath -Xlinker "$C/lib64" -lcupti -lcuda
