#!/bin/sh
# bench_check.sh BANKSCOPE - does `check` stream?  Peak memory and time on
# a dataset of about 1 GB.
#
#   sh tests/bench_check.sh build/bankscope
#
# The committed H100 dataset (1309 rows) has its rows repeated
# BENCH_REPEAT times (3600: 4.7 million rows, 1.02 GB) into a temporary
# file, which `BANKSCOPE check --quiet` reads twice under /usr/bin/time
# (Debian package `time`): as it is (every row agrees), and with
# --arch textbook (709200 rows disagree, so their lines are held until
# the file has been read).  Prints the peak resident set in KB and the
# time of each, next to the goal: under 10 MB, however large the file.
# The file is removed on exit.  Exit status 0 (the verdict is printed,
# not returned); 2 when /usr/bin/time is missing or the command fails.
set -eu

bin=${1:?usage: sh tests/bench_check.sh path/to/bankscope}
repeat=${BENCH_REPEAT:-3600}
src=data/h100-sxm/all-20261122-052715.csv
goal_kb=10240

[ -x /usr/bin/time ] || {
	echo "bench_check: needs /usr/bin/time (apt-get install time)" >&2
	exit 2
}
tmp=$(mktemp "${TMPDIR:-/tmp}/bankscope-check.XXXXXX")
stat="$tmp.time"
trap 'rm -f "$tmp" "$stat"' EXIT
trap 'exit 130' INT TERM

awk -v n="$repeat" '
	/^#/ && !head { print; next }
	!head { print; head = 1; next }
	{ rows[nrows++] = $0 }
	END { for (i = 0; i < n; i++) for (r = 0; r < nrows; r++) print rows[r] }
' "$src" > "$tmp"
lines=$(wc -l < "$tmp")
bytes=$(wc -c < "$tmp")
echo "check: $src rows x $repeat: $lines lines, $bytes bytes"

for arch in "" textbook; do
	rc=0
	/usr/bin/time -f '%M %e' -o "$stat" \
		"$bin" check --quiet ${arch:+--arch "$arch"} "$tmp" \
		> /dev/null || rc=$?
	[ "$rc" -le 1 ] || {
		echo "bench_check: $bin check failed ($rc)" >&2
		exit 2
	}
	# time writes "Command exited with non-zero status 1" first
	read -r kb secs <<-EOT
	$(tail -n 1 "$stat")
	EOT
	awk -v a="${arch:-file profile}" -v kb="$kb" -v s="$secs" \
	    -v g="$goal_kb" -v rc="$rc" 'BEGIN {
		printf "check (%s, exit %d): %.2f s, peak resident set %d KB" \
		       "   goal < %d KB (10 MB): %s\n", a, rc, s, kb, g,
		       kb < g ? "met" : "MISSED"
	}'
done
