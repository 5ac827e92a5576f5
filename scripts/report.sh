#!/bin/sh
# report.sh - the shell side of make plots and make report.
#
#   report.sh dsmem DATA     print the bankscope-dsmem file a report of DATA
#                            shows beside it (below), or nothing
#   report.sh newest         print the committed dataset a report shows when
#                            no GPU is here: the newest data/h100-sxm/all-*.csv
#                            (the reference machine), else the newest
#                            data/*/all-*.csv, by the time in the file name
#                            (all-YYYYMMDD-HHMMSS[-N].csv), among those whose
#                            "# counters:" line says they were read (a
#                            timing-only rerun such as data/*/repeatability/
#                            has none and is never chosen); exit 1 if none
#   report.sh validate DATA  exit 2 with a message unless DATA is a dataset
#                            that `bankscope check --quiet` reads (its own
#                            exit status 2 means malformed; 1, rows that
#                            disagree, does not stop the charts); messages
#                            start with $WHO (default "report")
#   report.sh plots DATA     make plots: the charts DATA supports, into
#                            $PLOTS_DIR
#   report.sh report         make report: environment DATA, DATA_ORIGIN (make's
#                            $(origin DATA)), CLI (the bankscope binary), MAKE,
#                            GNUPLOT, REPORT_OUT, PLOTS_DIR, NVIDIA_SMI
#
# make plots: the charts are drawn into a new folder of this run's own
# beside $PLOTS_DIR, which then takes $PLOTS_DIR's place whole (the old
# one moved aside and removed), so two runs at once never draw into one
# folder; make report's page takes its charts from that folder before it
# is moved, so a page always shows its own dataset's charts.  The charts
# are those of the report's table, which `bankscope report --list-charts`
# prints (cli/report/charts.c, the one list), in its order.  Each chart
# but the bank maps (plots/NAME.gp) is drawn when the dataset has the
# columns it reads (stride: probe, op, width, addresses, the wavefront
# columns, the median cycles, ...) and the rows: a script
# that finds none of its rows prints why and exits with status 3 (SKIP in
# plots/common.gp).  Such a chart, or one that lacks a column, is listed in
# $PLOTS_DIR/not-drawn.txt as "NAME: reason", which `bankscope report`
# shows on the page; the terminal lists them too.  Any other gnuplot
# failure stops make plots.  The kind charts (kinds-*: kinds-matrix,
# kinds-atomics, kinds-cpasync, plots/kinds.gp) do not read the dataset but
# its plot data, $PLOTS_DIR/kinds.csv, which `bankscope report --plot-data`
# writes first: every row with its kind's group and the architecture's
# prediction, so that they group rows by kind (the dataset's op column),
# never by probe or row name; their columns are checked in that file, and
# a dataset without rows of a chart's group lists it as not drawn.  The
# bank maps (bankmap-*, the access of each in draw_bankmap) are
# predictions by the dataset's architecture (`bankscope predict --format
# map --arch ARCH`), drawn last, whatever the rows.  The dsmem chart reads
# $PLOTS_DIR/dsmem.csv, which `bankscope report --dsmem-plot-data` writes
# from the bankscope-dsmem file of the report (below), else from DATA.
#
# Distributed shared memory: bankscope-dsmem writes files of its own
# (docs/probes/dsmem.md), measured apart from the probe runner's datasets.
# A report of DATA shows the newest of them from DATA's folder (the GPU's
# data folder, data/h100-sxm/ or data/h200/): the files dsmem-*.csv
# there or one folder down, in dsmem-*/ (bankscope-dsmem's runs are kept
# in a folder of their own, data/h100-sxm/dsmem-20261128/dsmem-h100.csv),
# whose first line is "# bankscope-dsmem:" and whose first "# counters:"
# line says they were read (not "off"), the newest by their "# date:"
# line (ISO 8601, so the text sorts by time).  DSMEM_DATA=FILE (make
# report DSMEM_DATA=...) names one instead, DSMEM_DATA=none none; a DATA
# that is itself a bankscope-dsmem file shows its own rows.  The report gets it with
# --dsmem, and the terminal and the page name it.
#
# make report: with DATA given (command line or environment) that dataset is
# reported.  Otherwise, when `$NVIDIA_SMI -L` succeeds (NVIDIA_SMI defaults
# to nvidia-smi), the probe runner is built and `bankscope-probe --probe
# all` measures a new dataset into data/<gpu>/, which is reported; if it
# finds no CUDA device after all, or no nvidia-smi is here, the newest
# committed dataset is reported, and both the terminal and the top of the
# page say "no GPU here: this report shows the committed dataset X".
# A dataset whose GPU no built-in architecture covers ("# arch: none
# (sm_XY)"; "# profile:" in older datasets) is calibrated first: `bankscope
# calibrate` writes DATA's arch file beside it (DATA with .arch for .csv),
# and the check, the bank maps and the report use that file (--arch); the
# terminal and the page say so.
# Then gnuplot (installed through scripts/deps.sh gnuplot-nox when missing)
# draws $PLOTS_DIR (default build/plots) and `bankscope report` writes
# $REPORT_OUT (default build/report), replacing the previous report whole
# once the new one is complete.  When make report fails after choosing its
# dataset (the dataset is invalid, a chart fails, the report cannot be
# written), the previous $REPORT_OUT and $PLOTS_DIR are removed, and the
# terminal says so, so that an old report is never taken for one of DATA.
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
NVIDIA_SMI=${NVIDIA_SMI:-nvidia-smi}
OUT=${REPORT_OUT:-build/report}
PLOTS=${PLOTS_DIR:-build/plots}
PROBE=build/bankscope-probe
SKIP=3
nl='
'

die() {
	echo "${WHO:-report}: $*" >&2
	exit "${RC:-2}"
}

# The value of metadata key $2 of dataset $1 (the lines before the header).
meta() {
	sed -n "/^#/!q; s/^# $2: *//p" "$1" | head -n 1
}

# The architecture dataset $1 was predicted with: "# arch:", else the
# "# profile:" that older datasets wrote.
arch_of() {
	a=$(meta "$1" arch)
	[ -n "$a" ] || a=$(meta "$1" profile)
	echo "$a"
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

is_dsmem() {
	head -n 1 "$1" | grep -q '^# bankscope-dsmem:'
}

# Newest of the bankscope-dsmem files given, with counters, by "# date:".
newest_dsmem() {
	for f in "$@"; do
		[ -f "$f" ] && is_dsmem "$f" || continue
		case $(meta "$f" counters) in
		"" | off | "not read"*) continue ;;
		esac
		d=$(meta "$f" date)
		[ -n "$d" ] && printf '%s %s\n' "$d" "$f"
	done | sort | tail -n 1 | cut -d' ' -f2-
}

# The bankscope-dsmem file a report of $1 shows beside it, or nothing.
dsmem_of() {
	case ${DSMEM_DATA:-} in
	none) return 0 ;;
	"") ;;
	*) echo "$DSMEM_DATA"; return 0 ;;
	esac
	[ -f "$1" ] && ! is_dsmem "$1" || return 0
	dir=$(dirname "$1")
	newest_dsmem "$dir"/dsmem-*.csv "$dir"/dsmem-*/dsmem-*.csv
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
	*"$nl"*) die "a dataset path with a line break cannot be handed to gnuplot" ;;
	esac
	"$CLI" check --quiet ${ARCH:+--arch "$ARCH"} "$1" >/dev/null
	rc=$?
	[ "$rc" -le 1 ] || die "$1 is not a valid dataset (bankscope check exits $rc): nothing drawn"
}

# The dataset's name for the titles, ready for a '' gnuplot string.
gpu_name() {
	g=$(meta "$1" gpu)
	printf '%s\n' "${g:-unknown GPU}" | sed "s/'/''/g"
}

# The columns chart $1 reads.
chart_columns() {
	case $1 in
	stride) echo "probe op width addresses wavefronts_predicted wavefronts_measured cycles_per_access_median" ;;
	latency) echo "op note width packed_predicted cycles_per_access_median wavefronts_measured wavefronts_predicted" ;;
	throughput) echo "probe op note width addresses tp_bytes_per_clk_per_sm wavefronts_measured wavefronts_predicted ideal_wavefronts_predicted" ;;
	padding) echo "probe op name wavefronts_measured wavefronts_predicted cycles_per_access_median" ;;
	wide) echo "probe op name width wavefronts_measured wavefronts_predicted" ;;
	kinds-*) echo "group series label returns modeled noted wavefronts_measured wavefronts_predicted cycles_per_access_median profile" ;;
	dsmem) echo "target kind width sectors cycles_per_access_median lat_base lat_slope arch" ;;
	esac
}

# The first column of chart $1 that dataset $2's header lacks, if any.
lacking() {
	header=,$(grep -m 1 -v '^#' "$2" | tr -d '\r'),
	for col in $(chart_columns "$1"); do
		case $header in
		*,"$col",*) ;;
		*) echo "$col"; return ;;
		esac
	done
}

# $1 ready for a '' gnuplot string: its quotes doubled.
gq() {
	printf '%s\n' "$1" | sed "s/'/''/g"
}

# gnuplot SCRIPT INPUT OUT: 0 drawn, $SKIP not drawn (reason in $why),
# anything else a failure (gnuplot's messages on stderr).
draw() {
	err=$("$GNUPLOT" -e "data='$(gq "$2")'; out='$(gq "$3")'; gpu='$gpu'" "plots/$1.gp" 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" = "$SKIP" ]; then
		why=$(printf '%s\n' "$err" | grep . | tail -n 1)
		rm -f "$3.png" "$3.svg"
		return "$SKIP"
	fi
	if [ "$rc" != 0 ]; then
		printf '%s\n' "$err" >&2
		rm -f "$3.png" "$3.svg"
		return "$rc"
	fi
	[ -z "$err" ] || printf '%s\n' "$err" >&2
	return 0
}

# bankmap NAME PREDICT-OPTIONS...: the predicted bank map of one access.
bankmap() {
	name=$1
	shift
	"$CLI" predict --format map ${arch:+--arch "$arch"} "$@" >"$into/bankmap-$name.csv" ||
		die "bankscope predict --format map $* failed"
	draw bankmap "$into/bankmap-$name.csv" "$into/bankmap-$name" ||
		die "plots/bankmap.gp failed on $PLOTS/bankmap-$name.csv"
	drawn="$drawn bankmap-$name"
}

# draw_bankmap NAME: chart bankmap-NAME of the report's table, the access
# it maps.
draw_bankmap() {
	case $1 in
	lane2) bankmap lane2 --expr 'lane*2' --name f32_ld_s2 ;;
	tile) bankmap tile --tile 32x32 --access col ;;
	*) die "chart bankmap-$1 of bankscope report --list-charts: report.sh has no access to map for it" ;;
	esac
}

# A new private folder beside $PLOTS for one run's charts, in $SCRATCH,
# removed when the script ends unless published.  Two runs never share one.
scratch() {
	case $PLOTS in
	"" | / | .) die "PLOTS_DIR='$PLOTS' is not a folder make plots may empty" ;;
	esac
	parent=$(dirname "$PLOTS")
	mkdir -p "$parent" &&
		SCRATCH=$(mktemp -d "$parent/.$(basename "$PLOTS").new.XXXXXX") &&
		chmod "$(printf '%o' $((0777 & ~0$(umask))))" "$SCRATCH" ||
		die "cannot make a folder beside $PLOTS"
	trap 'rm -rf "$SCRATCH"' EXIT
	trap 'exit 129' HUP
	trap 'exit 130' INT
	trap 'exit 143' TERM
}

# Put the charts of $SCRATCH in $PLOTS' place: the old folder moved aside
# and removed, the new one renamed in (mv -T never moves it into a folder
# another run put there first; then that one is moved aside too).  Another
# run may move $PLOTS aside and put its own there between any two steps
# here, so a step that fails is tried again, whatever $PLOTS is then; only
# 50 failures in a row give up.
publish() {
	aside=$(mktemp -d "$SCRATCH.old.XXXXXX") || die "cannot make a folder beside $PLOTS"
	tries=0
	until mv -T "$SCRATCH" "$PLOTS" 2>/dev/null; do
		tries=$((tries + 1))
		if [ "$tries" -gt 50 ]; then
			rm -rf "$aside"
			die "cannot put the charts in $PLOTS"
		fi
		mv -T "$PLOTS" "$aside/$tries" 2>/dev/null
	done
	rm -rf "$aside"
}

# plots DATA: draw DATA's charts into $SCRATCH; the messages name $PLOTS,
# where they are published.
plots() {
	data=$1
	validate "$data"
	into=$SCRATCH
	gpu=$(gpu_name "$data")
	drawn=""
	skipped=""
	: >"$into/not-drawn.txt"
	charts=$("$CLI" report --list-charts) ||
		die "bankscope report --list-charts failed"
	"$CLI" report --plot-data "$into/kinds.csv" ${ARCH:+--arch "$ARCH"} "$data" ||
		die "bankscope report --plot-data $PLOTS/kinds.csv $data failed"
	ds=$(dsmem_of "$data")
	"$CLI" report --dsmem-plot-data "$into/dsmem.csv" ${ARCH:+--arch "$ARCH"} "${ds:-$data}" ||
		die "bankscope report --dsmem-plot-data $PLOTS/dsmem.csv ${ds:-$data} failed"
	for c in $charts; do
		input=$data
		case $c in
		bankmap-*) continue ;;
		kinds-*) input=$into/kinds.csv ;;
		dsmem) input=$into/dsmem.csv ;;
		esac
		col=$(lacking "$c" "$input")
		if [ -n "$col" ]; then
			why="the dataset has no column $col"
		elif draw "$c" "$input" "$into/$c"; then
			drawn="$drawn $c"
			continue
		elif [ "$rc" != "$SKIP" ]; then
			die "plots/$c.gp failed on $input (gnuplot exit status $rc)"
		fi
		echo "$c: $why" >>"$into/not-drawn.txt"
		skipped="$skipped; $c ($why)"
	done
	arch=${ARCH:-$(arch_of "$data")}
	for c in $charts; do
		case $c in
		bankmap-*) draw_bankmap "${c#bankmap-}" ;;
		esac
	done
	echo "plots: $PLOTS/ from $data: drawn:$drawn"
	[ -z "$skipped" ] || echo "plots: not drawn: ${skipped#; }"
	return 0
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

# A failure after the dataset is chosen: the previous report and charts go,
# so that no report of another dataset stays.  $1: the message, or ""
# when the failing step said it already.
fail() {
	for d in "$OUT" "$PLOTS"; do
		[ -e "$d" ] || continue
		rm -rf "$d"
		echo "report: removed the previous $d/, so that it is not taken for one on ${DATA:-the dataset asked for}" >&2
	done
	[ -z "$1" ] || echo "report: $1" >&2
	exit 2
}

# No built-in architecture for DATA's GPU: derive one from DATA into $ARCH.
calibrate_first() {
	case $(arch_of "$DATA") in
	none*) ;;
	*) return 0 ;;
	esac
	ARCH=${DATA%.csv}.arch
	"$CLI" calibrate "$DATA" >"$ARCH" 2>"$ARCH.log"
	crc=$?
	cat "$ARCH.log" >&2
	rm -f "$ARCH.log"
	[ "$crc" -le 1 ] || { rm -f "$ARCH"; fail "bankscope calibrate $DATA failed (exit status $crc)"; }
	cnote="no built-in architecture for this GPU ($(arch_of "$DATA")): the report compares with $ARCH, which bankscope calibrate derived from this dataset"
	[ "$crc" = 0 ] || cnote="$cnote; calibrate left rows unexplained or rules open (its messages are on the terminal)"
	echo "report: $cnote" >&2
	note=${note:+$note; }$cnote
	export ARCH
}

report() {
	note=""
	ARCH=""
	case ${DATA_ORIGIN:-file} in
	file | undefined | default)
		if command -v "$NVIDIA_SMI" >/dev/null 2>&1 && "$NVIDIA_SMI" -L >/dev/null 2>&1 && measure; then
			:
		else
			DATA=$(newest)
			note="no GPU here: this report shows the committed dataset $DATA"
			echo "report: $note" >&2
		fi
		;;
	esac
	case $OUT in
	"" | / | .) die "REPORT_OUT='$OUT' is not a folder make report may replace" ;;
	esac
	[ -f "$DATA" ] && calibrate_first
	(validate "$DATA") || fail ""
	dsmem=$(dsmem_of "$DATA")
	if [ -n "$dsmem" ]; then
		[ -f "$dsmem" ] || fail "DSMEM_DATA=$dsmem: no such file"
		echo "report: distributed shared memory from $dsmem" >&2
	fi
	if ! command -v "$GNUPLOT" >/dev/null 2>&1 &&
		! { scripts/deps.sh gnuplot-nox && command -v "$GNUPLOT" >/dev/null 2>&1; }; then
		"$CLI" report --out "$OUT" ${ARCH:+--arch "$ARCH"} ${dsmem:+--dsmem "$dsmem"} --note "${note:+$note; }gnuplot is missing here, so this report has no charts" "$DATA" ||
			fail ""
		RC=1 die "gnuplot is missing and cannot be installed here; $OUT/ has the tables without charts: copy $DATA to a machine with gnuplot and run make report DATA=$DATA"
	fi
	# The page takes its charts from this run's own folder, never from
	# $PLOTS, which a second make report may be drawing into.
	scratch
	(plots "$DATA") || fail ""
	if [ -n "$note" ]; then
		"$CLI" report --charts "$SCRATCH" --out "$OUT" ${ARCH:+--arch "$ARCH"} ${dsmem:+--dsmem "$dsmem"} --note "$note" "$DATA" ||
			fail ""
	else
		"$CLI" report --charts "$SCRATCH" --out "$OUT" ${ARCH:+--arch "$ARCH"} ${dsmem:+--dsmem "$dsmem"} "$DATA" ||
			fail ""
	fi
	publish
	echo "report: $OUT/index.html and $OUT/report.md, on $DATA"
	[ -z "$note" ] || echo "report: note: $note"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
newest) newest || exit 1 ;;
dsmem) dsmem_of "${1:-}" ;;
validate) validate "${1:-}" ;;
plots) scratch && plots "${1:-}" && publish ;;
report) report ;;
*) echo "usage: report.sh newest | dsmem DATA | validate DATA | plots DATA | report" >&2; exit 2 ;;
esac
