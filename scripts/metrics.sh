#!/bin/sh
# metrics.sh kernel|atom|sassk|sass - the metric names of probes/metrics.h,
# the one place they are written, comma-separated in file order: `kernel`
# the six per-kernel shared-memory counters of ld and st (for ncu
# --metrics), `atom` and `sassk` the groups of the other kinds (the shared
# atomics; ldmatrix, stmatrix, cp.async and the CAS loops), `sass` the
# per-instruction SASS metrics.
set -eu
h=$(dirname "$0")/../probes/metrics.h
case ${1:-} in
kernel) prefix=BS_METRIC_ ;;
atom) prefix=BS_ATOM_METRIC_ ;;
sassk) prefix=BS_SASSK_METRIC_ ;;
sass) prefix=BS_SASS_METRIC_ ;;
*) echo "usage: metrics.sh kernel|atom|sassk|sass" >&2; exit 2 ;;
esac
sed -n "s/^#define ${prefix}[A-Z_]* \"\\([^\"]*\\)\"\$/\\1/p" "$h" | paste -sd, -
