#!/bin/sh
# program.sh - stands in for a CUDA program and the injection library
# together, so the profile command's runs can be tested without a GPU.
# It "launches" kernels a, b, a, c (indexes 0..3) and writes what
# libbankscope_inject.so would with CUPTI 13.0: the launches the
# selection picks (BANKSCOPE_PROFILE_KERNEL, an extended regular
# expression; _SKIP, _COUNT) are marked "*", and only the first selected
# kernel gets a record, summed over its selected launches (one execution
# each, wavefronts 10 + launch index, ideal 10), with launch "-".  It
# writes status.txt once, prints "run KERNEL" (the first selected kernel)
# and exits with $FAKE_EXIT (0).  Not a measurement.
d=$BANKSCOPE_PROFILE_DIR
re=${BANKSCOPE_PROFILE_KERNEL:-.}
skip=${BANKSCOPE_PROFILE_SKIP:-0}
count=${BANKSCOPE_PROFILE_COUNT:-1000}
tab=$(printf '\t')
[ -e "$d/status.txt" ] || echo ok > "$d/status.txt"
[ -e "$d/records.tsv" ] || printf 'kernel\tlaunch\tcubin_crc\tfunction_index\tfunction\tpc_offset\tinst_executed\twavefronts\twavefronts_ideal\n' > "$d/records.tsv"
[ -e "$d/launches.tsv" ] || printf 'launch\tkernel\tpc_records\n' > "$d/launches.tsv"
i=0 m=0 first= exec=0 wf=0
lines=
for k in a b a c; do
	mark=-
	if printf '%s\n' "$k()" | grep -Eq -- "$re"; then
		if [ "$m" -ge "$skip" ] && [ "$((m - skip))" -lt "$count" ]; then
			mark='*'
			[ -z "$first" ] && first=$k
			if [ "$k" = "$first" ]; then
				exec=$((exec + 1))
				wf=$((wf + 10 + i))
			fi
		fi
		m=$((m + 1))
	fi
	echo "$i${tab}$k()${tab}$mark" >> "$d/launches.tsv"
	i=$((i + 1))
done
if [ -n "$first" ]; then
	echo "$first()${tab}-${tab}7${tab}0${tab}_Z1${first}v${tab}0x10${tab}$exec${tab}$wf${tab}$((10 * exec))" >> "$d/records.tsv"
fi
echo "run $first"
exit "${FAKE_EXIT:-0}"
