#!/bin/sh
# program.sh - stands in for a CUDA program and the injection library
# together, so the profile command's runs can be tested without a GPU.
# It "launches" kernels a, b, a, c (indexes 0..3) and writes what
# libbankscope_inject.so would (profiler/inject/inject.c): the selection
# (BANKSCOPE_PROFILE_KERNEL, an extended regular expression; _SKIP,
# _COUNT) picks launches; the window opens at the first selected launch
# (at the start without a selection) and closes after the last one.
# BANKSCOPE_PROFILE_LAUNCH=first: the first selected launch of each
# kernel is flushed alone, its records carry its index and its launch
# line their count; other launches are "-".  =all (or unset): without a
# selection every launch is "*" and one drain at the end writes the sums
# with launch "-"; with one, every launch in the window is flushed and a
# selected one keeps its records.  A launch executes once, with
# wavefronts 10 + its index and ideal 10.  FAKE_ONE_KERNEL=1 plays
# CUPTI without the module-profiled callback: only the first kernel
# launched in the window gets records.  It writes status.txt once,
# prints "run KERNELS" (those with records) and exits with $FAKE_EXIT
# (0).  Not a measurement.
d=$BANKSCOPE_PROFILE_DIR
re=${BANKSCOPE_PROFILE_KERNEL:-.}
skip=${BANKSCOPE_PROFILE_SKIP:-0}
count=${BANKSCOPE_PROFILE_COUNT:-1000}
each=${BANKSCOPE_PROFILE_LAUNCH:-all}
selecting=
[ -n "$BANKSCOPE_PROFILE_KERNEL$BANKSCOPE_PROFILE_SKIP$BANKSCOPE_PROFILE_COUNT" ] && selecting=1
tab=$(printf '\t')
[ -e "$d/status.txt" ] || echo ok > "$d/status.txt"
[ -e "$d/records.tsv" ] || printf 'kernel\tlaunch\tcubin_crc\tfunction_index\tfunction\tpc_offset\tinst_executed\twavefronts\twavefronts_ideal\n' > "$d/records.tsv"
[ -e "$d/launches.tsv" ] || printf 'launch\tkernel\tpc_records\n' > "$d/launches.tsv"
record() { # KERNEL LAUNCH EXECUTIONS WAVEFRONTS
	echo "$1()${tab}$2${tab}7${tab}0${tab}_Z1$1v${tab}0x10${tab}$3${tab}$4${tab}$((10 * $3))" >> "$d/records.tsv"
}
i=0 m=0 open= closed= patched= tried= ran=
sums=
[ -z "$selecting" ] && open=1
for k in a b a c; do
	sel=
	if printf '%s\n' "$k()" | grep -Eq -- "$re"; then
		if [ "$m" -ge "$skip" ] && [ "$((m - skip))" -lt "$count" ]; then
			sel=1
			[ -z "$closed" ] && open=1
		fi
		m=$((m + 1))
	fi
	mark=-
	if [ -n "$open" ] && [ -z "$closed" ]; then
		[ -z "$patched" ] && patched=$k
		gets=1
		[ -n "$FAKE_ONE_KERNEL" ] && [ "$k" != "$patched" ] && gets=
		if [ "$each" = first ]; then
			case " $tried " in
			*" $k "*) ;;
			*)	if [ -n "$sel" ]; then
					tried="$tried $k"
					mark=0
					if [ -n "$gets" ]; then
						record $k $i 1 $((10 + i))
						mark=1 ran="$ran$k"
					fi
				fi ;;
			esac
		elif [ -n "$selecting" ]; then
			if [ -n "$sel" ]; then
				mark=0
				if [ -n "$gets" ]; then
					record $k $i 1 $((10 + i))
					mark=1 ran="$ran$k"
				fi
			fi
		else
			mark='*'
			[ -n "$gets" ] && sums="$sums $k:$i"
		fi
		[ -n "$sel" ] && [ "$((m - skip))" -eq "$count" ] && closed=1
	fi
	echo "$i${tab}$k()${tab}$mark" >> "$d/launches.tsv"
	i=$((i + 1))
done
for k in a b c; do # the drain of a window without a selection
	e=0 w=0
	for s in $sums; do
		[ "${s%:*}" = "$k" ] && e=$((e + 1)) w=$((w + 10 + ${s#*:}))
	done
	[ "$e" -gt 0 ] && record $k - $e $w && ran="$ran$k"
done
echo "run $ran"
exit "${FAKE_EXIT:-0}"
