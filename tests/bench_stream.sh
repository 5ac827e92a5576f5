#!/bin/sh
# bench_stream.sh BANKSCOPE - does `predict` stream?  Memory and speed on
# a 10-million-line pattern file.
#
#   sh tests/bench_stream.sh build/bankscope
#
# awk writes the file to a temporary file (a pool of 4096 random-ish
# accesses of every width, about one lane in 16 inactive, cycled;
# BENCH_LINES overrides the count), then
# `BANKSCOPE predict --format csv FILE > /dev/null` runs under
# /usr/bin/time (Debian package `time`) for its peak resident set,
# elapsed time and CPU time.  Without /usr/bin/time the peak is read from
# VmHWM in /proc/PID/status while the command runs.  Prints the lines per
# second and the peak in KB next to the goals: at least 5 million lines/s,
# and under 10 MB resident, however long the file; then the lines per
# second of CPU time (user + system), which other jobs on a loaded machine
# disturb less than the elapsed time.  The file is removed on exit.  Exit
# status: 0 (the verdict is printed, not returned), 2 when the command
# fails.
set -eu

bin=${1:?usage: sh tests/bench_stream.sh path/to/bankscope}
lines=${BENCH_LINES:-10000000}
goal_kb=10240
goal_rate=5

tmp=$(mktemp "${TMPDIR:-/tmp}/bankscope-stream.XXXXXX")
stat="$tmp.time"
trap 'rm -f "$tmp" "$stat"' EXIT
trap 'exit 130' INT TERM

awk -v n="$lines" 'BEGIN {
	srand(1)
	split("1 2 4 8 16", widths, " ")
	for (i = 0; i < 4096; i++) {
		w = widths[i % 5 + 1]
		line = "r" i " " w " " (i % 3 ? "ld" : "st")
		for (l = 0; l < 32; l++) {
			if (int(rand() * 16) == 0)
				line = line " -"
			else
				line = line " " int(rand() * 16384 / w) * w
		}
		pool[i] = line
	}
	for (i = 0; i < n; i++)
		print pool[i % 4096]
}' > "$tmp"
bytes=$(wc -c < "$tmp")

if [ -x /usr/bin/time ]; then
	/usr/bin/time -f '%M %e %U %S' -o "$stat" \
		"$bin" predict --format csv "$tmp" > /dev/null || {
		echo "bench_stream: $bin predict failed" >&2
		exit 2
	}
	read -r kb secs user sys < "$stat"
else
	echo "bench_stream: no /usr/bin/time (apt-get install time);" \
	     "reading VmHWM from /proc instead" >&2
	start=$(date +%s.%N)
	"$bin" predict --format csv "$tmp" > /dev/null &
	pid=$!
	kb=0
	while kill -0 "$pid" 2> /dev/null; do
		hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" \
		      2> /dev/null || true)
		[ -n "$hwm" ] && kb=$hwm
		sleep 0.05
	done
	wait "$pid" || {
		echo "bench_stream: $bin predict failed" >&2
		exit 2
	}
	secs=$(awk -v s="$start" -v e="$(date +%s.%N)" \
	       'BEGIN { printf "%.2f", e - s }')
	user= sys=
fi

awk -v n="$lines" -v b="$bytes" -v kb="$kb" -v s="$secs" -v g="$goal_kb" \
    -v gr="$goal_rate" -v u="$user" -v sy="$sys" 'BEGIN {
	rate = s > 0 ? n / s / 1e6 : 0
	verdict = kb < g ? "met" : "MISSED"
	printf "stream: %d lines (%.0f MB) in %.2f s = %.2f million lines/s" \
	       "   goal >= %d M/s: %s\n", n, b / 1048576, s, rate, gr,
	       (rate >= gr ? "met" : "MISSED")
	printf "stream: peak resident set %d KB   goal < %d KB (10 MB): %s\n",
	       kb, g, verdict
	if (u != "" && u + sy > 0)
		printf "stream: CPU %.2f s user + %.2f s system = %.2f" \
		       " million lines/s of CPU time\n", u, sy, n / (u + sy) / 1e6
}'
