#!/bin/sh
# metrics.sh kernel|sass - the metric names of probes/metrics.h, the one
# place they are written, comma-separated in file order: `kernel` the six
# per-kernel shared-memory counters (for ncu --metrics), `sass` the
# per-instruction SASS metrics.
set -eu
h=$(dirname "$0")/../probes/metrics.h
case ${1:-} in
kernel) prefix=BS_METRIC_ ;;
sass) prefix=BS_SASS_METRIC_ ;;
*) echo "usage: metrics.sh kernel|sass" >&2; exit 2 ;;
esac
sed -n "s/^#define ${prefix}[A-Z_]* \"\\([^\"]*\\)\"\$/\\1/p" "$h" | paste -sd, -
