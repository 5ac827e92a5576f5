#!/bin/sh
# wavefronts-device.sh - one call on a GPU machine: bankscope-dsmem --file
# research/dsmem/wavefronts.pat (made by wavefronts.py), the accesses that
# ask what remote dshared wavefronts follow.  The CSV and the log go to
# $OUT.
set -u
OUT=${OUT:-build/dsmem-out}
mkdir -p "$OUT"
{
	date -u
	nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
	make -j8 build/bankscope-dsmem build/bankscope 2>&1 | tail -2
	t0=$(date +%s)
	build/bankscope-dsmem --file research/dsmem/wavefronts.pat \
		--out "$OUT/wavefronts.csv"
	echo "rc=$? $(( $(date +%s) - t0 )) s"
	build/bankscope check --quiet "$OUT/wavefronts.csv"
	echo "check rc=$?"
} > "$OUT/wavefronts.log" 2>&1
