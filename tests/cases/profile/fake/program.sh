#!/bin/sh
# program.sh - stands in for a CUDA program and the injection library
# together, so the profile command's runs can be tested without a GPU.
# It "launches" kernels a, b, a, c (indexes 0..3) and writes what
# libbankscope_inject.so would for launch $BANKSCOPE_PROFILE_LAUNCH (0 when
# unset): status.txt once, one made-up record for that launch (wavefronts
# = 10 + launch index, ideal 10, 1 execution), launches.tsv lines.  It
# prints "run T" and exits with $FAKE_EXIT (0).  Not a measurement.
d=$BANKSCOPE_PROFILE_DIR
t=${BANKSCOPE_PROFILE_LAUNCH:-0}
tab=$(printf '\t')
[ -e "$d/status.txt" ] || echo ok > "$d/status.txt"
[ -e "$d/records.tsv" ] || printf 'kernel\tlaunch\tcubin_crc\tfunction_index\tfunction\tpc_offset\tinst_executed\twavefronts\twavefronts_ideal\n' > "$d/records.tsv"
[ -e "$d/launches.tsv" ] || printf 'launch\tkernel\tpc_records\n' > "$d/launches.tsv"
i=0
for k in a b a c; do
	if [ "$i" = "$t" ]; then
		echo "$k()${tab}$i${tab}7${tab}0${tab}_Z1${k}v${tab}0x10${tab}1${tab}$((10 + i))${tab}10" >> "$d/records.tsv"
		echo "$i${tab}$k()${tab}1" >> "$d/launches.tsv"
	else
		echo "$i${tab}$k()${tab}-" >> "$d/launches.tsv"
	fi
	i=$((i + 1))
done
echo "run $t"
exit "${FAKE_EXIT:-0}"
