#!/bin/sh
# explain-replay.sh KEEP.tar.gz [BANKSCOPE] - the verdict counts of every
# kept explain directory in a tarball of scripts/explain-bench.sh
# (keep/NAME-x), replayed with this tree's bankscope (default
# build/bankscope), so a change to the verdicts can be checked on the
# recorded programs without a GPU.  Prints CSV:
#   program,rows,AGREES,DISAGREES,DATA-DEPENDENT,LANES OFF,NOT MODELED,
#   BAD SAMPLES,REMOTE,NO SAMPLE
set -eu
[ $# -ge 1 ] || { echo "usage: explain-replay.sh KEEP.tar.gz [BANKSCOPE]" >&2; exit 2; }
tgz=$1
bs=$(cd "$(dirname "${2:-build/bankscope}")" && pwd)/$(basename "${2:-build/bankscope}")
[ -x "$bs" ] || { echo "explain-replay.sh: $bs: not built (make)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
tar xzf "$tgz" -C "$tmp" keep
echo "program,rows,AGREES,DISAGREES,DATA-DEPENDENT,LANES OFF,NOT MODELED,BAD SAMPLES,REMOTE,NO SAMPLE"
for d in "$tmp"/keep/*-x; do
	name=$(basename "$d" -x)
	"$bs" profile --replay "$d" --explain --format csv > "$tmp/x.csv" 2>/dev/null || true
	grep -v '^#' "$tmp/x.csv" | tail -n +2 > "$tmp/rows" || true
	c() { grep -c -E ",$1(,|\$)" "$tmp/rows" || true; }
	echo "$name,$(wc -l < "$tmp/rows" | tr -d ' '),$(c AGREES),$(c DISAGREES),$(c DATA-DEPENDENT),$(c 'LANES OFF'),$(c 'NOT MODELED'),$(c 'BAD SAMPLES'),$(c REMOTE),$(c 'NO SAMPLE')"
done
