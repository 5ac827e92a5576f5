#!/bin/sh
# bench_calibrate.sh BANKSCOPE - does `calibrate` scale?  Time and peak
# memory on a large dataset.
#
#   sh tests/bench_calibrate.sh build/bankscope
#
# awk writes a dataset to a temporary file: the nine-family H100 run
# (data/h100-sxm/all-20261124-153149.csv, 3889 rows of 3644 distinct
# accesses), its data rows repeated until the file holds BENCH_MB
# megabytes (1024 unless set), each copy's cycles moved by up to a cycle
# either way as a noisy GPU's would be.  `BANKSCOPE calibrate FILE` runs
# under /usr/bin/time (Debian package `time`) for its peak resident set,
# elapsed time and CPU time (on a loaded machine the CPU time tells
# more).  Prints them next to the goals: under a minute and under 64 MB
# resident for 1 GB, and the rules it derived (all 34, every row
# explained).
#
# BENCH_DISTINCT=N asks the other question: N distinct accesses, none
# repeated.  Copy c of the run's rows has every address moved by
# c x 4096 bytes, which keeps each access's banks, lines and counters,
# so the rules are the same 34 and every row is still explained; its
# goals are under a minute and under 1 KB resident a distinct access
# (64 MB for the 3889 rows aside).  The file is removed on exit.  Exit
# status 0 (the verdict is printed, not returned); 2 when calibrate
# fails or /usr/bin/time is missing.
set -eu

bin=${1:?usage: sh tests/bench_calibrate.sh path/to/bankscope}
mb=${BENCH_MB:-1024}
distinct=${BENCH_DISTINCT:-0}
src=data/h100-sxm/all-20261124-153149.csv
goal_s=60
goal_kb=65536

[ -x /usr/bin/time ] || {
	echo "bench_calibrate: no /usr/bin/time (apt-get install time)" >&2
	exit 2
}
tmp=$(mktemp "${TMPDIR:-/tmp}/bankscope-calibrate.XXXXXX")
trap 'rm -f "$tmp" "$tmp.time" "$tmp.err" "$tmp.out"' EXIT
trap 'exit 130' INT TERM

awk -F, -v OFS=, -v want="$mb" -v distinct="$distinct" '
	/^#/ || /^probe,/ { if (!body) print; next }
	{ body = 1; row[n++] = $0 }
	END {
		srand(1)
		for (c = 0; distinct ? rows < distinct : bytes < want * 1048576; c++)
			for (i = 0; i < n; i++) {
				split(row[i], f, ",")
				if (f[15] != "")
					f[15] = sprintf("%.2f", f[15] + 2 * rand() - 1)
				if (distinct) {
					if (rows >= distinct)
						break
					k = split(f[23], a, " ")
					f[23] = ""
					for (j = 1; j <= k; j++)
						f[23] = f[23] (j > 1 ? " " : "") \
							(a[j] == "-" ? "-" : a[j] + c * 4096)
				}
				line = f[1]
				for (k = 2; k <= 23; k++)
					line = line "," f[k]
				print line
				bytes += length(line) + 1
				rows++
			}
	}' "$src" > "$tmp"
bytes=$(wc -c < "$tmp")
rows=$(grep -vc -e '^#' -e '^probe,' "$tmp")

/usr/bin/time -f '%M %e %U' -o "$tmp.time" "$bin" calibrate "$tmp" \
	> "$tmp.out" 2> "$tmp.err" || [ $? -eq 1 ] || {
	echo "bench_calibrate: $bin calibrate failed:" >&2
	cat "$tmp.err" >&2
	exit 2
}
# its last line: /usr/bin/time writes "Command exited with non-zero
# status 1" above it when a rule is left open
read -r kb secs user <<EOF
$(tail -n 1 "$tmp.time")
EOF
rules=$(grep -c '^rule ' "$tmp.out" || true)
tail -n 2 "$tmp.err"
echo "calibrate: $rules rules derived"
awk -v r="$rows" -v b="$bytes" -v kb="$kb" -v s="$secs" -v u="$user" \
    -v gs="$goal_s" -v distinct="$distinct" \
    -v gk="$goal_kb" 'BEGIN {
	rate = s > 0 ? r / s : 0
	if (distinct)
		gk += distinct
	verdict = distinct ? (s < gs ? "met" : "MISSED") \
		: b < 1073741824 ? "(the goal is for 1 GB)" \
		: s < gs ? "met" : "MISSED"
	printf "calibrate: %d rows (%.0f MB) in %.2f s = %.0f rows/s", r,
	       b / 1048576, s, rate
	printf "   goal < %d s for %s: %s\n", gs,
	       distinct ? r " rows, each copy distinct" : "1 GB", verdict
	printf "calibrate: %.2f s of CPU (user)\n", u
	verdict = kb < gk ? "met" : "MISSED"
	printf "calibrate: peak resident set %d KB   goal < %d KB: %s\n",
	       kb, gk, verdict
}'
