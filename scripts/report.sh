#!/bin/sh
# report.sh - the shell side of make plots and make report.
#
#   report.sh newest         print the committed dataset a report shows when
#                            no GPU is here: the newest data/h100-sxm/all-*.csv
#                            (the reference machine), else the newest
#                            data/*/all-*.csv, by the time in the file name
#                            (all-YYYYMMDD-HHMMSS[-N].csv), among those whose
#                            "# counters:" line says they were read (a
#                            timing-only rerun such as data/*/repeatability/
#                            has none and is never chosen); exit 1 if none
#   report.sh gpu DATA       the "# gpu:" value, ready for a '' gnuplot string
#   report.sh validate DATA  exit 2 with a message unless DATA is a dataset
#                            that `bankscope check --quiet` reads (its own
#                            exit status 2 means malformed; 1, rows that
#                            disagree, does not stop the charts); messages
#                            start with $WHO (default "report")
#   report.sh report         make report: environment DATA, DATA_ORIGIN (make's
#                            $(origin DATA)), CLI (the bankscope binary), MAKE,
#                            GNUPLOT
#
# make report: with DATA given (command line or environment) that dataset is
# reported.  Otherwise, when `nvidia-smi -L` succeeds, the probe runner is
# built and `bankscope-probe --probe all` measures a new dataset into
# data/<gpu>/, which is reported; if it finds no CUDA device after all, or
# no nvidia-smi is here, the newest committed dataset is reported with the
# note "no GPU here: this report shows the committed dataset X" on top.
# Then gnuplot (installed through scripts/deps.sh gnuplot-nox when missing)
# draws build/plots/ (make plots) and `bankscope report` writes
# build/report/.
#
# Without gnuplot and no way to install it (a GPU machine with no package
# registry), the measured dataset is already written; the report is still
# written, tables only, and one line says how to draw the charts elsewhere;
# the exit status is then 1, so that a build that wanted the charts does not
# pass silently without them.
set -u

CLI=${CLI:-build/bankscope}
MAKE=${MAKE:-make}
GNUPLOT=${GNUPLOT:-gnuplot}
OUT=build/report
PLOTS=build/plots
PROBE=build/bankscope-probe

die() {
	echo "${WHO:-report}: $*" >&2
	exit "${RC:-2}"
}

# The value of metadata key $2 of dataset $1 (the lines before the header).
meta() {
	sed -n "/^#/!q; s/^# $2: *//p" "$1" | head -n 1
}

has_counters() {
	c=$(meta "$1" counters)
	case $c in
	"" | "not read"*) return 1 ;;
	esac
	return 0
}

# Newest of the files given, by the time in their names; nothing if none.
pick() {
	for f in "$@"; do
		[ -f "$f" ] && has_counters "$f" || continue
		key=$(basename "$f" | sed -n 's/^all-\([0-9]\{8\}\)-\([0-9]\{6\}\)\(-\([0-9]*\)\)\{0,1\}\.csv$/\1\2 0\4/p')
		[ -n "$key" ] && echo "$key $f"
	done | sort -k1,1 -k2,2n | tail -n 1 | cut -d' ' -f3-
}

newest() {
	f=$(pick data/h100-sxm/all-*.csv)
	[ -n "$f" ] || f=$(pick data/*/all-*.csv)
	[ -n "$f" ] && echo "$f"
}

validate() {
	[ -n "$1" ] || die "no dataset: no data/*/all-*.csv with counters here; give one with DATA=path"
	[ -f "$1" ] || die "$1: no such dataset"
	case $1 in
	*\'* | *\"*) die "$1: a dataset path with a quote cannot be handed to gnuplot" ;;
	esac
	"$CLI" check --quiet "$1" >/dev/null
	rc=$?
	[ "$rc" -le 1 ] || die "$1 is not a valid dataset (bankscope check exits $rc): nothing drawn"
}

gpu_name() {
	g=$(meta "$1" gpu)
	printf '%s\n' "${g:-unknown GPU}" | sed "s/'/''/g"
}

# Measure with the probe runner; the new dataset's path in $DATA, or
# nothing when there is no CUDA device after all.
measure() {
	$MAKE --no-print-directory "$PROBE" >&2 ||
		RC=1 die "building $PROBE failed; make report DATA=data/... reports a committed dataset instead"
	err=$(mktemp)
	f=$("$PROBE" --probe all 2>"$err")
	rc=$?
	cat "$err" >&2
	if [ "$rc" = 1 ] && grep -q 'no CUDA device' "$err"; then
		rm -f "$err"
		return 1
	fi
	rm -f "$err"
	[ "$rc" = 0 ] && [ -n "$f" ] ||
		RC=1 die "$PROBE --probe all failed (exit status $rc)${f:+; it wrote $f}"
	DATA=$f
	echo "report: measured $DATA" >&2
}

report() {
	note=""
	case ${DATA_ORIGIN:-file} in
	file | undefined | default)
		if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 && measure; then
			:
		else
			DATA=$(newest)
			note="no GPU here: this report shows the committed dataset $DATA"
		fi
		;;
	esac
	validate "$DATA"
	if ! command -v "$GNUPLOT" >/dev/null 2>&1 &&
		! { scripts/deps.sh gnuplot-nox && command -v "$GNUPLOT" >/dev/null 2>&1; }; then
		rm -rf "$OUT"
		"$CLI" report --out "$OUT" --note "${note:+$note; }gnuplot is missing here, so this report has no charts" "$DATA" || exit
		RC=1 die "gnuplot is missing and cannot be installed here; $OUT/ has the tables without charts: copy $DATA to a machine with gnuplot and run make report DATA=$DATA"
	fi
	$MAKE --no-print-directory plots DATA="$DATA" || exit
	rm -rf "$OUT"
	if [ -n "$note" ]; then
		"$CLI" report --charts "$PLOTS" --out "$OUT" --note "$note" "$DATA" || exit
	else
		"$CLI" report --charts "$PLOTS" --out "$OUT" "$DATA" || exit
	fi
	echo "report: $OUT/index.html and $OUT/report.md, on $DATA"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
newest) newest || exit 1 ;;
gpu) gpu_name "$1" ;;
validate) validate "${1:-}" ;;
report) report ;;
*) echo "usage: report.sh newest | gpu DATA | validate DATA | report" >&2; exit 2 ;;
esac
