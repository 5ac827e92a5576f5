#!/bin/bash
# combine.sh OUT.csv MAIN.tar.gz [EARLIER.tar.gz ...] - one CSV from the
# raw files of several run.sh runs.
#
# MAIN gives every pattern, the timing and the counters; each EARLIER run
# adds only its Nsight Compute chunks (patterns-ncu-NN.txt, ncu-raw-NN.csv,
# ncu-source-NN.csv), renumbered so they do not collide.  merge.py keys the
# ncu rows by (kind, width, name), which the pattern generator keeps the
# same from run to run, so an earlier run's ncu columns land on the same
# accesses; the counted kernel they profiled is the same code.
#
# data/h100-sxm/explore-kinds-20261124-142552.csv was made by
#   research/explore/combine.sh data/h100-sxm/explore-kinds-20261124-142552.csv \
#     data/h100-sxm/explore-full-20261124-142552.tar.gz \
#     data/h100-sxm/explore-full-20261124-141911.tar.gz \
#     data/h100-sxm/explore-smoke-20261124-141044.tar.gz
set -eu
out=$1
main=$2
shift 2
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
tar xzf "$main" -C "$w"
n=1
for t in "$@"; do
	e=$w/earlier-$n
	mkdir -p "$e"
	tar xzf "$t" -C "$e"
	for p in "$e"/patterns-ncu-[0-9]*.txt; do
		[ -e "$p" ] || continue
		k=${p##*/patterns-ncu-}
		k=${k%.txt}
		for f in patterns-ncu-$k.txt ncu-raw-$k.csv ncu-source-$k.csv; do
			[ -e "$e/$f" ] && cp "$e/$f" "$w/${f/-$k./-$n$k.}"
		done
	done
	n=$((n + 1))
done
python3 "$(dirname "$0")/merge.py" "$w" "$out"
