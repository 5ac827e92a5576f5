#!/bin/sh
# report_test.sh - make report end to end, on committed datasets, in its own
# folder: build/report-test/ (the user's build/report/ and build/plots/
# are never touched; the test checks that).
#
# 1. make report DATA=$DATA (the committed H100 run; gnuplot comes through
#    scripts/deps.sh when missing) into build/report-test/report/, with
#    the bankscope-dsmem file of its folder ($DSMEM, found by report.sh),
#    then:
#   - every chart of the report's table (bankscope report --list-charts,
#     the one list) but the kind charts: stride, latency, throughput,
#     padding, wide, dsmem and the two bank maps, is a PNG (magic bytes, over
#     5 KB, `file` says PNG image data 400..6000 pixels wide and
#     200..6000 high) and a well-formed SVG (xmllint --noout, else
#     python3's xml.etree) of over 5 KB;
#   - every src= and href= of index.html is a relative path to a file that
#     exists, and the page names no http(s) resource;
#   - index.html and report.md hold the dataset's numbers, and the
#     distributed shared memory section $DSMEM's; the dsmem chart's legend
#     names sm_90's line;
#   - in headless Chromium (Debian package chromium, installed through
#     scripts/deps.sh when missing) a test page build/report-test/images.html
#     loads every image index.html refers to with new Image(), counting
#     onload and onerror into the DOM, read back with --dump-dom: every
#     one must load, with a non-zero size;
#   - the page renders: build/report-test/screenshot.png, 1400 px wide, to
#     look at, and that of 6, screenshot-kinds.png; the images of 6 load
#     in the same test page.
# 2. A dataset of one probe family ($STRIDE, make probe-stride's file):
#    make report succeeds, draws stride, latency, throughput and the bank
#    maps, and says on the terminal and on the page that padding and wide
#    were not drawn, and why.
# 3. make report DATA=<a malformed dataset> into that same folder fails,
#    and removes the report that was there, saying so.
# 4. make report without DATA and NVIDIA_SMI=false (no GPU): the terminal
#    and the page both say the committed dataset is shown.
# 5. A dataset of a GPU no built-in architecture covers ("# profile: none
#    (sm_89)", the key older datasets wrote: the H100 run relabelled, in
#    $T): make report calibrates first, writes the arch file beside the
#    dataset, and the terminal and
#    the page say the report compares with it.  No bankscope-dsmem file
#    is beside it: no distributed shared memory section, and the dsmem
#    chart is named as not drawn, with why.
# 6. The dataset of every access kind ($KINDS, the exploration of
#    ldmatrix, stmatrix, the shared atomics and cp.async): the three kind
#    charts are drawn (PNG and SVG as in 1, their legends naming each
#    kind's rows and fitted line), the page holds its figures, and the
#    charts of loads and stores are named as not drawn, with why.  In 1
#    and 2 the kind charts are named as not drawn (no such rows).
# 7. Two make report at once, of the H100 run and of $KINDS, sharing one
#    PLOTS_DIR: both succeed, each page with its own charts, three times.
# 8. make plots whose folder another run replaces while it publishes (an
#    mv in PATH plays the other run): its charts are published all the
#    same.
# 9. make plots DATA="$T/it's.csv" draws; make report DATA="x'; touch
#    ...; echo '" runs nothing.
# 10. The README names the dataset that make report shows without a GPU.
# Run from the repository root (make check-report).  Exit status 0 when
# every check passed; each failure is one "FAIL: ..." line.
set -u
cd "$(dirname "$0")/.." || exit 1
DATA=${DATA:-data/h100-sxm/all-20261122-052715.csv}
STRIDE=${STRIDE:-data/h100-sxm/stride-20261122-052718.csv}
KINDS=${KINDS:-data/h100-sxm/explore-kinds-20261124-142552-dataset.csv}
DSMEM=${DSMEM:-data/h100-sxm/dsmem-20261128/dsmem-h100.csv}
MAKE=${MAKE:-make}
CLI=${CLI:-build/bankscope}
T=build/report-test
OUT=$T/report
SHOT=$T/screenshot.png
SHOT_KINDS=$T/screenshot-kinds.png
PAGE=$T/images.html
LOG=$T/chromium.log
fails=0

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

ok() {
	echo "ok: $*"
}

# What the user's own report and charts are before: they must stay so.
user_state() {
	for f in build/report/index.html build/report/report.md build/plots/stride.png; do
		if [ -f "$f" ]; then cksum <"$f"; else echo "no $f"; fi
	done
}

t0=$(date +%s)
before=$(user_state)
rm -rf "$T"
mkdir -p "$T"
# make report DIR DATA...: the report into $T/DIR, its terminal in $T/DIR.log.
report() {
	dir=$1
	shift
	$MAKE --no-print-directory report REPORT_OUT="$T/$dir" PLOTS_DIR="$T/$dir-plots" "$@" >"$T/$dir.log" 2>&1
}
report report DATA="$DATA" || {
	cat "$T/report.log"
	echo "FAIL: make report DATA=$DATA"
	exit 1
}
[ -f "$OUT/index.html" ] || fail "$OUT/index.html was not written"
[ -f "$OUT/report.md" ] || fail "$OUT/report.md was not written"

# The charts, from the report's own table: those of loads and stores
# with the bank maps ($charts; $data_charts without, $bank_maps alone),
# and the kind charts (kinds-*).
all_charts=$("$CLI" report --list-charts) || {
	echo "FAIL: $CLI report --list-charts"
	exit 1
}
charts=$(echo "$all_charts" | grep -v '^kinds-' | tr '\n' ' ')
data_charts=$(echo "$all_charts" | grep -v -e '^kinds-' -e '^bankmap-' -e '^dsmem$' | tr '\n' ' ')
bank_maps=$(echo "$all_charts" | grep '^bankmap-' | tr '\n' ' ')
kind_charts=$(echo "$all_charts" | grep '^kinds-' | tr '\n' ' ')

command -v file >/dev/null 2>&1 || scripts/deps.sh file || fail "no file(1)"
# check_charts DIR NAMES: each NAME.png in DIR a PNG, each NAME.svg an SVG.
check_charts() {
	for c in $2; do
		png=$1/$c.png
		svg=$1/$c.svg
		if [ ! -f "$png" ]; then
			fail "$png is missing"
		else
			magic=$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')
			size=$(wc -c <"$png")
			desc=$(file -b "$png")
			w=$(echo "$desc" | sed -n 's/^PNG image data, \([0-9]*\) x \([0-9]*\),.*/\1/p')
			h=$(echo "$desc" | sed -n 's/^PNG image data, \([0-9]*\) x \([0-9]*\),.*/\2/p')
			if [ "$magic" != 89504e470d0a1a0a ]; then
				fail "$png: not PNG magic bytes ($magic)"
			elif [ "$size" -le 5000 ]; then
				fail "$png: only $size bytes"
			elif [ -z "$w" ] || [ "$w" -lt 400 ] || [ "$w" -gt 6000 ] ||
				[ "$h" -lt 200 ] || [ "$h" -gt 6000 ]; then
				fail "$png: file says '$desc'"
			else
				ok "$png: $w x $h, $size bytes"
			fi
		fi
		if [ ! -f "$svg" ]; then
			fail "$svg is missing"
			continue
		fi
		size=$(wc -c <"$svg")
		if command -v xmllint >/dev/null 2>&1; then
			xmllint --noout "$svg" 2>&1 | head -3
			wellformed=$(xmllint --noout "$svg" >/dev/null 2>&1 && echo yes)
		else
			wellformed=$(python3 -c 'import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
print("yes" if r.tag.endswith("svg") else "no")' "$svg" 2>/dev/null)
		fi
		if [ "$wellformed" != yes ]; then
			fail "$svg is not well-formed XML"
		elif [ "$size" -le 5000 ] || ! grep -q '<svg' "$svg"; then
			fail "$svg: $size bytes, or no <svg> element"
		else
			ok "$svg: well-formed, $size bytes"
		fi
	done
}
check_charts "$OUT" "$charts"
for c in $kind_charts; do
	[ -e "$OUT/$c.png" ] && fail "$DATA has no row of $c's kinds, yet $c.png is in the report"
done

# Every file the page refers to, relative and present.  refs_of DIR.
refs_of() {
	grep -o -E '(src|href)="[^"]*"' "$1/index.html" | sed 's/^[a-z]*="//; s/"$//' | sort -u
}
# check_refs DIR CHARTS: the page in DIR refers to files there only, and
# shows each of CHARTS.
check_refs() {
	r_all=$(refs_of "$1")
	[ -n "$r_all" ] || fail "$1/index.html refers to no file"
	for r in $r_all; do
		case $r in
		/* | *:*) fail "$1/index.html refers to $r, not a relative path" ;;
		*) [ -f "$1/$r" ] || fail "$1/index.html refers to $r, which is not in $1/" ;;
		esac
	done
	grep -q -E 'https?:' "$1/index.html" && fail "$1/index.html names an http(s) resource"
	for c in $2; do
		echo "$r_all" | grep -qx "$c.png" || fail "$1/index.html does not show $c.png"
		grep -q "($c.png)" "$1/report.md" || fail "$1/report.md does not show $c.png"
	done
	ok "$1/index.html refers to $(echo "$r_all" | wc -l) files, all present"
}
refs=$(refs_of "$OUT")
check_refs "$OUT" "$charts"

# The tables hold the dataset's numbers.  holds_in DIR FILE TEXT.
holds_in() {
	if grep -q -F -- "$3" "$1/$2"; then
		ok "$1/$2 holds: $3"
	else
		fail "$1/$2 does not hold: $3"
	fi
}
holds() {
	holds_in "$OUT" "$1" "$2"
}
# terminal_says LOG LINE FAILURE: LOG (a make report's terminal) has LINE.
terminal_says() {
	if grep -q -x -F -- "$2" "$1"; then
		ok "terminal: $2"
	else
		fail "$3"
	fi
}
holds index.html '<title>bankscope report: NVIDIA H100 80GB HBM3</title>'
holds index.html '<td>1, 1, 1, 2, 4 (32, 32, 32, 16, 8 lanes per phase)</td>'
holds index.html '<tr><td>Bank count</td><td>32</td><td>same</td>'
holds index.html '<tr><td>4</td><td>ld</td><td>no</td><td>158</td><td>2.000</td><td>31.00</td><td>1.0000</td></tr>'
holds index.html '<strong>AGREES: 1309 rows, 1309 agree, 0 disagree</strong>'
holds index.html '<td><code>date</code></td><td>2026-11-22T05:27:13Z</td>'
holds report.md '| 4 | ld | no | 158 | 2.000 | 31.00 | 1.0000 |'
holds report.md '| Bank width | 4 bytes (128 bytes per wavefront) | same |'
holds report.md '**AGREES: 1309 rows, 1309 agree, 0 disagree**'
holds report.md '## Stores: interval between back-to-back stores'
holds report.md '| `cuda_driver_api_version` | 13.0 (written as driver\_version) |'
holds index.html '<tr><td><code>pairs</code></td><td>all</td><td><code>l/2</code></td>'
# distributed shared memory, from the bankscope-dsmem file beside $DATA
holds report.md '| all | 1, 2, 4, 8, 16 | 398 | 398 | 396 | 341 | 341 | 57 | 0 |'
holds report.md '| `ld4_s32` | lane l reads word 32 l: a sector per lane; in the CTA'"'"'s own shared memory one bank for all 32 | 32 | 32 | 273.484 | 255.16 | 96.969 | 32 |'
holds index.html '<figure id="chart-dsmem"><a href="dsmem.svg"><img src="dsmem.png" alt="Distributed shared memory: load latency against sectors"></a>'
terminal_says "$T/report.log" "report: distributed shared memory from $DSMEM" \
	"the terminal of make report DATA=$DATA does not name $DSMEM"
# a line per width since issue 30
if grep -q -F 'arch sm_90: 202.9 + 2.03 x sectors cycles (16-byte)' "$OUT/dsmem.svg" &&
	grep -q -F 'arch sm_90: 196.1 + 1.67 x sectors cycles (1-byte)' "$OUT/dsmem.svg" &&
	grep -q -F '4-byte local, same addresses (33 rows)' "$OUT/dsmem.svg"; then
	ok "the dsmem chart names sm_90's lines and the local loads"
else
	fail "$OUT/dsmem.svg does not name sm_90's lines or the local loads"
fi
# no row of another kind: the kind charts are named as not drawn, with why
holds report.md 'Not drawn: `kinds-matrix` (the dataset has no ldmatrix or stmatrix rows); `kinds-atomics` (the dataset has no shared atomic rows); `kinds-cpasync` (the dataset has no cp.async rows).'
grep -q -x -F "plots: not drawn: kinds-matrix (the dataset has no ldmatrix or stmatrix rows); kinds-atomics (the dataset has no shared atomic rows); kinds-cpasync (the dataset has no cp.async rows)" "$T/report.log" ||
	fail "the terminal of make report DATA=$DATA does not name the kind charts as not drawn"

# 2. One probe family: the charts it supports, the others named with why.
if report stride DATA="$STRIDE"; then
	for c in stride latency throughput bankmap-lane2 bankmap-tile; do
		[ -f "$T/stride/$c.png" ] || fail "$STRIDE: $c.png was not drawn"
	done
	for c in padding wide; do
		[ -e "$T/stride/$c.png" ] && fail "$STRIDE: $c.png is in the report"
	done
	for line in "plots: not drawn: padding (the dataset has no struct or tile loads of probe padding); wide (the dataset has no 8- or 16-byte rows of probe wide); kinds-matrix (the dataset has no ldmatrix or stmatrix rows); kinds-atomics (the dataset has no shared atomic rows); kinds-cpasync (the dataset has no cp.async rows)" \
		"report: $T/stride/index.html and $T/stride/report.md, on $STRIDE"; do
		terminal_says "$T/stride.log" "$line" "the terminal of make report DATA=$STRIDE lacks: $line"
	done
	holds_in "$T/stride" report.md 'Not drawn: `padding` (the dataset has no struct or tile loads of probe padding); `wide` (the dataset has no 8- or 16-byte rows of probe wide); `kinds-matrix` (the dataset has no ldmatrix or stmatrix rows);'
else
	cat "$T/stride.log"
	fail "make report DATA=$STRIDE"
fi

# 3. A failed make report leaves no report of another dataset behind.
printf 'probe,name,width,op,addresses\nstride,a,4,ld,0 1\n' >"$T/bad.csv"
if report stride DATA="$T/bad.csv"; then
	fail "make report DATA=$T/bad.csv succeeded"
elif [ -e "$T/stride" ] || [ -e "$T/stride-plots" ]; then
	fail "make report DATA=$T/bad.csv left the previous report in $T/stride"
elif grep -q -F "report: removed the previous $T/stride/, so that it is not taken for one on $T/bad.csv" "$T/stride.log"; then
	ok "a failed make report removes the previous report and says so"
else
	fail "make report DATA=$T/bad.csv did not say it removed $T/stride/"
fi

# 4. No GPU: the terminal says the committed dataset is shown, not only the page.
newest=$(scripts/report.sh newest)
if NVIDIA_SMI=false report fallback; then
	line="report: no GPU here: this report shows the committed dataset $newest"
	terminal_says "$T/fallback.log" "$line" "make report without a GPU does not say on the terminal: $line"
	holds_in "$T/fallback" index.html "<p class=\"note\">no GPU here: this report shows the committed dataset $newest</p>"
else
	cat "$T/fallback.log"
	fail "make report without DATA and without a GPU"
fi

# 5. No built-in architecture: calibrated first.
sed -e 's/^# compute_capability: .*/# compute_capability: 8.9/' \
	-e 's/^# profile: .*/# profile: none (sm_89)/' "$DATA" >"$T/sm89.csv"
if report sm89 DATA="$T/sm89.csv"; then
	line="report: no built-in architecture for this GPU (none (sm_89)): the report compares with $T/sm89.arch, which bankscope calibrate derived from this dataset"
	terminal_says "$T/sm89.log" "$line" "make report on an sm_89 dataset does not say: $line"
	grep -q '^rule ld 8 phase=16 packed=32 partners=1,2 ' "$T/sm89.arch" ||
		fail "$T/sm89.arch does not hold the H100's rule for 8-byte loads"
	holds_in "$T/sm89" index.html "the report compares with $T/sm89.arch"
	holds_in "$T/sm89" report.md '`dsmem` (no remote loads (dsmem.ld rows with cycles) in the dataset or a bankscope-dsmem file beside it).'
	grep -q 'Distributed shared memory' "$T/sm89/report.md" &&
		fail "$T/sm89/report.md has a distributed shared memory section, with no bankscope-dsmem file beside it"
else
	cat "$T/sm89.log"
	fail "make report DATA=$T/sm89.csv (no built-in architecture)"
fi

# 6. Every access kind (the exploration of issue 10): the kind charts are
#    drawn from the op column through the plot data, the sections hold its
#    figures, and the charts of loads and stores, which need columns this
#    dataset has not, are named as not drawn.
if report kinds DATA="$KINDS"; then
	check_charts "$T/kinds" "$kind_charts $bank_maps"
	check_refs "$T/kinds" "$kind_charts"
	for c in $data_charts; do
		[ -e "$T/kinds/$c.png" ] && fail "$KINDS: $c.png is in the report"
	done
	[ -f "$T/kinds-plots/kinds.csv" ] || fail "make plots left no $T/kinds-plots/kinds.csv"
	line="plots: $T/kinds-plots/ from $KINDS: drawn: kinds-matrix kinds-atomics kinds-cpasync dsmem bankmap-lane2 bankmap-tile"
	terminal_says "$T/kinds.log" "$line" "the terminal of make report DATA=$KINDS lacks: $line"
	holds_in "$T/kinds" report.md 'Not drawn: `stride` (the dataset has no column wavefronts\_predicted); `latency` (the dataset has no column packed\_predicted);'
	holds_in "$T/kinds" report.md '| `ldsm.x4` | 16 | latency (dependent chain) | 173 | 2.000 | 31.00 | 1.0000 | 31 + 2 x wavefronts |'
	holds_in "$T/kinds" report.md '| `atom.add.u32` | 4 | 40 | 127.131 | `cuda.inc.ret.kaddr.k1_interleaved` (line 2455) and `atom.add.u32.stride.s7` (line 1572), the middle two | 127.25 |'
	holds_in "$T/kinds" report.md '**AGREES: 3207 rows, 3207 agree, 0 disagree** (3207 measured, 0 skipped for a note, 0 timing only; arch sm\_90).'
	holds_in "$T/kinds" index.html '<figure id="chart-kinds-atomics"><a href="kinds-atomics.svg"><img src="kinds-atomics.png" alt="Shared atomics"></a>'
	# the legends the charts draw: each kind's rows and its fitted line
	for t in 'ldsm.x4: 173 rows, 173 on the diagonal; 31.00 + 2.000 x wavefronts cycles (n 173)' \
		'atom.cas.b32: 107 rows, 107 on the diagonal; 35.99 + 2.000 x wavefronts cycles (n 107)' \
		'atom.add.f32: 107 rows, 107 on the diagonal; ' \
		'atom.add.u64: 106 rows, 106 on the diagonal; ' \
		'cp.async.cg: 224 rows, 224 on the diagonal; ' \
		'predicted by arch sm_90, wavefronts per warp instruction'; do
		if grep -q -F -- "$t" "$T/kinds"/kinds-*.svg; then
			ok "a kind chart says: $t"
		else
			fail "no kind chart (SVG) says: $t"
		fi
	done
else
	cat "$T/kinds.log"
	fail "make report DATA=$KINDS"
fi

# The browser: every image loads; a screenshot to look at.
if ! command -v chromium >/dev/null 2>&1; then
	scripts/deps.sh chromium || {
		fail "chromium is missing and cannot be installed"
		echo "$fails check(s) failed"
		exit 1
	}
fi
list=""
for r in $refs; do
	case $r in
	*.png | *.svg) list="$list\"report/$r\"," ;;
	esac
done
if [ -f "$T/kinds/index.html" ]; then
	for r in $(refs_of "$T/kinds"); do
		case $r in
		*.png | *.svg) list="$list\"kinds/$r\"," ;;
		esac
	done
fi
cat >"$PAGE" <<EOF
<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>report images</title></head>
<body><pre id="result">RESULT pending</pre>
<script>
var files = [${list%,}], done = 0, good = 0, bad = [];
function finish() {
	if (++done === files.length)
		document.getElementById("result").textContent =
			"RESULT " + good + " of " + files.length + " loaded" +
			(bad.length ? "; failed: " + bad.join(" ") : "");
}
files.forEach(function (f) {
	var img = new Image();
	img.onload = function () {
		if (img.naturalWidth > 0 && img.naturalHeight > 0)
			good++;
		else
			bad.push(f + " (empty)");
		finish();
	};
	img.onerror = function () { bad.push(f); finish(); };
	img.src = f;
});
</script></body></html>
EOF
chrome="chromium --headless --no-sandbox --disable-gpu --hide-scrollbars"
result=$($chrome --virtual-time-budget=10000 --dump-dom "file://$PWD/$PAGE" 2>"$LOG" |
	sed -n 's/.*<pre id="result">\(RESULT[^<]*\)<\/pre>.*/\1/p')
nimg=$(echo "$list" | tr ',' '\n' | grep -c .)
case $result in
"RESULT $nimg of $nimg loaded") ok "chromium loaded all $nimg images" ;;
*) fail "chromium: ${result:-no result} (expected $nimg images; see $LOG)" ;;
esac
rm -f "$SHOT"
$chrome --screenshot="$SHOT" --window-size=1400,10000 "file://$PWD/$OUT/index.html" \
	>>"$LOG" 2>&1
rm -f "$SHOT_KINDS"
[ -f "$T/kinds/index.html" ] &&
	$chrome --screenshot="$SHOT_KINDS" --window-size=1400,16000 "file://$PWD/$T/kinds/index.html" \
		>>"$LOG" 2>&1
for shot in "$SHOT" "$SHOT_KINDS"; do
	if [ -f "$shot" ] && [ "$(head -c 8 "$shot" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; then
		ok "screenshot $shot ($(file -b "$shot" | cut -d, -f2 | tr -d ' '))"
	else
		fail "no screenshot $shot (see $LOG)"
	fi
done

# 7. Two make report at once in this tree, one PLOTS_DIR, two pages (issue
#    20: the stamps' temporaries and the charts were shared): both succeed,
#    each page has its own dataset's charts (the H100 run's stride, no kind
#    chart; $KINDS's kind charts, no stride), and no temporary is left.
for pair in 1 2 3; do
	$MAKE --no-print-directory report REPORT_OUT="$T/twin-a" PLOTS_DIR="$T/twin-plots" \
		DATA="$DATA" >"$T/twin-a.log" 2>&1 &
	pa=$!
	$MAKE --no-print-directory report REPORT_OUT="$T/twin-b" PLOTS_DIR="$T/twin-plots" \
		DATA="$KINDS" >"$T/twin-b.log" 2>&1 &
	pb=$!
	wait "$pa"
	ra=$?
	wait "$pb"
	rb=$?
	if [ "$ra" != 0 ] || [ "$rb" != 0 ]; then
		cat "$T/twin-a.log" "$T/twin-b.log"
		fail "two make report at once, pair $pair: exit $ra and $rb"
		break
	fi
	if [ ! -f "$T/twin-a/stride.png" ] || [ -e "$T/twin-a/kinds-matrix.png" ] ||
		[ ! -f "$T/twin-b/kinds-matrix.png" ] || [ -e "$T/twin-b/stride.png" ]; then
		fail "two make report at once, pair $pair: a page has charts not its own: $(ls "$T/twin-a" | tr '\n' ' ')/ $(ls "$T/twin-b" | tr '\n' ' ')"
		break
	fi
	left=$(ls -a "$T" build/stamp | grep -e '\.new\.' -e '\.tmp' -e '\.old\.')
	if [ -n "$left" ]; then
		fail "two make report at once, pair $pair: left behind: $left"
		break
	fi
	[ "$pair" = 3 ] && ok "two make report at once, 3 pairs: both pages whole, each with its own charts"
done

# 8. The race of 7 made certain (issue 30, item 8): when the charts are
#    published, another run moves $PLOTS aside and puts its own there just
#    as this one tries to (an mv earlier in PATH does it once, then fails
#    as mv then does).  This run's charts must still end up in $PLOTS.
real_mv=$(command -v mv)
race=$T/race
rm -rf "$race"
mkdir -p "$race/bin" "$race/plots"
: >"$race/plots/old"
cat >"$race/bin/mv" <<EOF
#!/bin/sh
if [ "\$1" = -T ] && [ "\$2" = "$race/plots" ] && [ ! -e "$race/raced" ]; then
	"$real_mv" -T "$race/plots" "$race/raced" && mkdir "$race/plots" &&
		: >"$race/plots/theirs"
	exit 1
fi
exec "$real_mv" "\$@"
EOF
chmod +x "$race/bin/mv"
if PATH="$PWD/$race/bin:$PATH" CLI=$CLI GNUPLOT=${GNUPLOT:-gnuplot} \
	PLOTS_DIR="$race/plots" WHO=plots sh scripts/report.sh plots "$STRIDE" \
	>"$race.log" 2>&1 && [ -e "$race/raced" ] && [ -f "$race/plots/stride.png" ] &&
	[ ! -e "$race/plots/theirs" ] && [ ! -e "$race/plots/old" ] && [ -z "$(ls -a "$race" | grep -e '\.new\.' -e '\.old\.')" ]; then
	ok "charts published while another run replaced the folder: this run's charts are there"
else
	cat "$race.log"
	fail "charts published while another run replaced the folder: $(ls "$race" "$race/plots" 2>&1 | tr '\n' ' ')"
fi
rm -rf "$race" "$race.log"

# 9. make's variables reach report.sh as data, never as shell code (issue
#    30, item 15): a dataset named with a quote is drawn, and a DATA that
#    is shell code runs nothing.
quoted="$T/it's.csv"
cp "$STRIDE" "$quoted"
if $MAKE --no-print-directory plots DATA="$quoted" PLOTS_DIR="$T/quote-plots" \
	>"$T/quote.log" 2>&1 && [ -f "$T/quote-plots/stride.png" ]; then
	ok "make plots of a dataset whose name holds a quote"
else
	cat "$T/quote.log"
	fail "make plots of a dataset whose name holds a quote"
fi
rm -rf "$quoted" "$T/quote-plots" "$T/quote.log"
rm -f "$T/PWNED"
$MAKE --no-print-directory report DATA="x'; touch $T/PWNED; echo '" \
	REPORT_OUT="$T/pwned-out" PLOTS_DIR="$T/pwned-plots" >"$T/pwned.log" 2>&1
rc=$?
if [ "$rc" != 0 ] && [ ! -e "$T/PWNED" ] && grep -q "no such dataset" "$T/pwned.log"; then
	ok "make report DATA=<shell code>: refused as no such dataset, nothing run"
else
	cat "$T/pwned.log"
	fail "make report DATA=<shell code>: exit $rc, $(ls "$T" | grep PWNED)"
fi
rm -rf "$T/PWNED" "$T/pwned.log" "$T/pwned-out" "$T/pwned-plots"

# 10. The README names the dataset make report shows without a GPU
#     (issue 30, item 21).
newest=$(sh scripts/report.sh newest)
if [ -n "$newest" ] && grep -qF "$newest" README.md; then
	ok "the README names $newest, the dataset make report shows without a GPU"
else
	fail "the README does not name $newest, the dataset make report shows without a GPU"
fi

if [ "$(user_state)" = "$before" ]; then
	ok "build/report/ and build/plots/ untouched"
else
	fail "the test changed the user's build/report/ or build/plots/"
fi

echo "report_test: $(($(date +%s) - t0)) s"
if [ "$fails" -gt 0 ]; then
	echo "$fails check(s) failed"
	exit 1
fi
echo "report_test: every check passed"
