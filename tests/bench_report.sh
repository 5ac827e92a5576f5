#!/bin/sh
# bench_report.sh BANKSCOPE [DATASET] - does `report` stream?  Memory and
# speed on a dataset of about 1 GB.
#
#   sh tests/bench_report.sh build/bankscope
#
# Writes a temporary dataset: the metadata and header of DATASET (default
# the committed H100 run) and its rows repeated BENCH_REPORT_COPIES times
# (default 3527: 4616861 rows, 1.0 GB), then runs
# `BANKSCOPE report --out DIR FILE` under /usr/bin/time (Debian package
# `time`) for its peak resident set and elapsed time, and prints them
# next to the goal: under 10 MB resident, however large the dataset.
# Everything it writes is removed on exit.  Exit status: 0 (the verdict is
# printed, not returned), 2 when the command fails or /usr/bin/time is
# missing.
set -eu

bin=${1:?usage: sh tests/bench_report.sh path/to/bankscope [DATASET]}
data=${2:-data/h100-sxm/all-20261122-052715.csv}
copies=${BENCH_REPORT_COPIES:-3527}
goal_kb=10240

[ -x /usr/bin/time ] || {
	echo "bench_report: needs /usr/bin/time (apt-get install time)" >&2
	exit 2
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bankscope-report-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

{
	sed -n '/^#/!q; p' "$data"
	grep -m 1 '^probe,' "$data"
} > "$tmp/big.csv"
sed '1,/^probe,/d' "$data" > "$tmp/rows.csv"
i=0
while [ "$i" -lt "$copies" ]; do
	cat "$tmp/rows.csv"
	i=$((i + 1))
done >> "$tmp/big.csv"
rows=$(($(wc -l < "$tmp/rows.csv") * copies))
bytes=$(wc -c < "$tmp/big.csv")

/usr/bin/time -f '%M %e' -o "$tmp/time" \
	"$bin" report --out "$tmp/out" "$tmp/big.csv" || {
	echo "bench_report: $bin report failed" >&2
	exit 2
}
read -r kb secs < "$tmp/time"

awk -v n="$rows" -v b="$bytes" -v kb="$kb" -v s="$secs" -v g="$goal_kb" \
    'BEGIN {
	rate = s > 0 ? n / s / 1e6 : 0
	verdict = kb < g ? "met" : "MISSED"
	printf "report: %d rows (%.0f MB) in %.2f s = %.2f million rows/s\n",
	       n, b / 1048576, s, rate
	printf "report: peak resident set %d KB   goal < %d KB (10 MB): %s\n",
	       kb, g, verdict
}'
