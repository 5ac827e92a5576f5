#!/bin/sh
# web_test.sh - the browser lab (build/web/index.html) in headless Chromium.
#
# The page is given a list of accesses (every kind and width, the tile
# swizzles, structs, address lists, bad expressions and addresses) in a
# test copy of itself; it draws each through its own form, as a user's
# input would, and writes what it shows into the page, which Chromium
# dumps.  Each must equal build/bankscope predict --format csv on the same
# access (columns 4-11), or, for bad input, bankscope's own message.  The
# same run opens a dataset over 1 MB, a malformed one and one with markup
# in its names (as bankscope check judges them), and times every redraw
# (performance.now around the form-to-map path, layout included): the
# slowest must fit in one frame, 16 ms.  The page must be under 1 MB and
# no input may add markup to it.  Last, tests/web_ui.js drives a copy of
# the page as a user would, in windows of fixed sizes (the layout, the
# dsmem numbers, the tile, predict first, the words, the labs' links from
# a copy elsewhere, the keyboard, the colours, the charts, the state in
# the URL); what it shows must equal tests/web_ui_expect.sh.
cd "$(dirname "$0")/.." || exit 1
BANKSCOPE=${BANKSCOPE:-build/bankscope}
PAGE=${PAGE:-build/web/index.html}
FRAME_MS=${FRAME_MS:-16}
T=build/web-test
LOG=$T/chromium.log
fails=0
set -f

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

ok() {
	echo "ok: $*"
}

t0=$(date +%s)
rm -rf "$T"
mkdir -p "$T"
[ -f "$PAGE" ] || {
	echo "FAIL: no $PAGE (make web)"
	exit 1
}
size=$(wc -c <"$PAGE")
if [ "$size" -lt 1000000 ]; then
	ok "$PAGE: $size bytes, under 1 MB"
else
	fail "$PAGE: $size bytes, not under 1 MB"
fi
grep -q -E '(src|href)="https?:' "$PAGE" && fail "$PAGE refers to the network"

# ---- the accesses: CLI options, or @NAME WIDTH KIND A0..A31 -------------------
C=$T/cases.txt
$BANKSCOPE archs --kinds | awk 'NR > 1 { print $1, $3 }' >"$T/kinds.txt"
while read -r kind widths; do
	for w in $(echo "$widths" | tr ',' ' '); do
		for e in lane 'lane*2' 'lane*3' 'lane*8' 'lane*33' \
			'(lane%8)*32+lane/8' 'lane/2' 'lane^(lane>>3)'; do
			echo "--kind $kind --width $w --expr $e"
		done
		echo "--kind $kind --width $w --expr lane*4 --active lane%3"
		echo "--kind $kind --width $w --expr tid*2 --warp 1 --base 4096"
		echo "--kind $kind --width $w --struct $((w * 3)) --field $w"
	done
done <"$T/kinds.txt" >"$C"
for sw in none xor tma32 tma64 tma128 cute:1,4,3 cute:2,4,3 cute:3,4,3 cute:2,3,4; do
	for k in ldsm.x4 ldsm.x2.t stsm.x4 cp.async.cg; do
		echo "--kind $k --tile 64x64 --elem 2 --swizzle $sw"
		echo "--kind $k --tile 64x64 --elem 2 --swizzle $sw --access mma --index 8 --column 16"
	done
	echo "--kind ld --width 16 --tile 32x64 --elem 2 --swizzle $sw --access row --index 3"
	echo "--kind ld --width 4 --tile 32x32 --swizzle $sw"
	echo "--kind st --width 8 --tile 16x16 --swizzle $sw --access chunks --index 2"
done >>"$C"
echo "--kind ld --width 4 --tile 32x32 --pad 1" >>"$C"
echo "--kind atom.add.u32 --tile 32x32 --access col --index 5" >>"$C"
# address lists: a few fixed, and 40 random ones (every kind)
awk 'BEGIN { srand(19) }
NR == FNR { k[++n] = $1; split($2, ws, ","); w[n] = ws[length(ws)]; next }
END {
	for (i = 0; i < 40; i++) {
		j = i % n + 1
		line = "@rand" i " " w[j] " " k[j]
		for (l = 0; l < 32; l++)
			line = line " " (rand() < 0.1 ? "-" : int(rand() * 64) * w[j])
		print line
	}
}' "$T/kinds.txt" "$T/kinds.txt" >>"$C"
cat >>"$C" <<'EOF'
@bcast 4 ld 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
@u64pairs 8 ld 0 0 8 8 16 16 24 24 32 32 40 40 48 48 56 56 64 64 72 72 80 80 88 88 96 96 104 104 112 112 120 120
@atomsame 4 atom.add.u32 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
@badaddr 4 ld 0 4 8 x 16 20 24 28 32 36 40 44 48 52 56 60 64 68 72 76 80 84 88 92 96 100 104 108 112 116 120 124
@misaligned 4 ld 0 4 8 13 16 20 24 28 32 36 40 44 48 52 56 60 64 68 72 76 80 84 88 92 96 100 104 108 112 116 120 124
@short 4 ld 0 4 8
--kind ld --width 4 --expr lane*
--kind ld --width 4 --expr lane/0
--kind ld --width 4 --expr (lane+2
--kind ld --width 4 --expr <b>lane</b>
--kind ld --width 4 --expr lane --name <img/src=x/onerror=document.title='PWNED'>
--kind ld --width 4 --expr lane --active lane<
--kind ldsm.x4 --tile 64x64 --elem 2 --swizzle cute:9,4,3
--kind ldsm.x4 --tile 64x64 --elem 2 --swizzle tma256
--kind ld --width 4 --tile 32 --swizzle xor
--kind ld --width 4 --expr lane*2
EOF
# every access the labs link into the page: its options from the link
labs=$(find docs/labs -maxdepth 1 -name 'lab*.md' | sort)
grep -h -o 'index\.html#[^)]*' $labs | sed 's/^index\.html#//' |
	tr '&' '\n' | awk -F= '
	/^(mode|textbook|fix|predict|arch|tab|a|b)=/ { next }
	$0 == "" { next }
	/^kind=/ && line != "" { print line; line = "" }
	{ line = line (line == "" ? "" : " ") "--" $1 " " substr($0, length($1) + 2) }
	END { if (line != "") print line }' | while IFS= read -r l; do
	printf '%b\n' "$(echo "$l" | sed 's/%\([0-9A-Fa-f][0-9A-Fa-f]\)/\\x\1/g')"
done >"$T/lab-links.txt"
nlinks=$(grep -h -o 'index\.html#' $labs | wc -l)
[ "$(wc -l <"$T/lab-links.txt")" -eq "$nlinks" ] && [ "$nlinks" -ge 14 ] ||
	fail "the labs' $nlinks links gave $(wc -l <"$T/lab-links.txt") accesses"
cat "$T/lab-links.txt" >>"$C"
ncases=$(wc -l <"$C")

# What bankscope gives for each: columns 4-11 of predict --format csv, or
# ERROR and its message.
E=$T/expected.txt
: >"$E"
while IFS= read -r c; do
	case $c in
	@*)
		echo "${c#@}" >"$T/one.pattern"
		set -- "$T/one.pattern"
		;;
	*) set -- $c ;;
	esac
	if out=$($BANKSCOPE predict --format csv "$@" 2>"$T/err"); then
		echo "$out" | sed -n 2p | cut -d, -f4-11 >>"$E"
	else
		msg=$(grep -v '^bankscope: warning:' "$T/err" | sed 's/^bankscope: //')
		# a pattern file's name is the page's --addrs field
		# a pattern file is the page's --addrs field; its columns count
		# the name, width and kind too, so only the page's are checked
		echo "ERROR $msg" | sed "s|^ERROR $T/one.pattern:1:[0-9:]* |ERROR --addrs: |" >>"$E"
	fi
done <"$C"
nerr=$(grep -c '^ERROR' "$E")
[ "$ncases" -ge 200 ] || fail "only $ncases accesses"

# ---- datasets: over 1 MB, malformed, with markup in its names -----------------
SRC=data/h100-sxm/all-20261124-153149.csv
{
	cat "$SRC"
	grep -v '^#' "$SRC" | sed 1d | sed 's/^stride,/stride2,/'
} >"$T/big.csv"
head -40 "$SRC" >"$T/bad.csv"
sed -i '37s/^stride,\([^,]*\),1,/stride,\1,x,/' "$T/bad.csv"
{
	head -36 "$SRC"
	sed -n 37p "$SRC" | sed 's/^stride,[^,]*,1,ld,32,[0-9]*,/stride,<img src=x onerror=document.title=1>,1,ld,32,7,/'
} >"$T/markup.csv"
dsets=""
for d in big bad markup; do
	dsets="$dsets{ name: \"$d.csv\", b64: \"$(base64 -w0 <"$T/$d.csv")\" },"
done
bigsize=$(wc -c <"$T/big.csv")
[ "$bigsize" -gt 1048576 ] || fail "big.csv is $bigsize bytes, not over 1 MB"
for d in big bad markup; do
	if v=$($BANKSCOPE check "$T/$d.csv" 2>"$T/err" | sed -n 's/^verdict: //p'); [ -n "$v" ]; then
		echo "DATASET $d.csv $v"
	else
		echo "DATASET $d.csv ERROR $(sed 's/^bankscope: //; s|build/web-test/||' "$T/err")"
	fi
done >"$T/expected-data.txt"

# ---- arch files: a good one (the textbook's, renamed) and a bad one ---------
sed 's/^arch textbook$/arch mine/' analyzer/archs/textbook.arch >"$T/mine.profile"
printf 'arch x\nbanks 33\n' >"$T/bad.profile"
pcases="--kind ld --width 8 --expr lane|--kind st --width 16 --expr 0|--kind ld --width 4 --tile 32x32|--kind atom.add.u32 --width 4 --expr lane"
{
	echo "PROFILE bad.profile ERROR $($BANKSCOPE predict --arch "$T/bad.profile" --expr lane 2>&1 |
		sed 's/^bankscope: //; s|build/web-test/||')"
	echo "$pcases" | tr '|' '\n' | while IFS= read -r c; do
		if out=$($BANKSCOPE predict --format csv --arch "$T/mine.profile" $c 2>"$T/err"); then
			# an access the architecture does not model: predict writes the
			# row without predictions and a note, the page its message
			note=$(echo "$out" | sed -n 's/^# not modeled: arch [^ ]* has no rule for \([^ ]* [^ ]*\) .*/\1/p')
			if [ -n "$note" ]; then
				echo "PROFILE mine.profile NOT MODELED $note"
			else
				echo "PROFILE mine.profile $(echo "$out" | sed -n 2p | cut -d, -f5,7-9)"
			fi
		else
			echo "PROFILE mine.profile ERROR $(sed 's/^bankscope: //' "$T/err")"
		fi
	done
} >"$T/expected-profile.txt"
jsq() {
	printf '"%s"' "$(sed 's/\\/\\\\/g; s/"/\\"/g; s/</\\u003c/g' "$1" | awk '{ printf "%s\\n", $0 }')"
}
profiles="{ name: \"bad.profile\", text: $(jsq "$T/bad.profile"), cases: [] },
{ name: \"mine.profile\", text: $(jsq "$T/mine.profile"), cases: [\"$(echo "$pcases" | sed 's/|/", "/g')\"] }"

# ---- the test copy of the page --------------------------------------------------
# JSON strings, '<' written \u003c so that nothing closes the script.
json_lines() {
	sed 's/\\/\\\\/g; s/"/\\"/g; s/</\\u003c/g; s/^/"/; s/$/",/' "$1"
}
{
	printf '<script>\nwindow.BS_SELFTEST = { cases: [\n'
	json_lines "$C"
	printf '], datasets: [%s],\nprofiles: [%s],\n' "$dsets" "$profiles"
	# timed with the textbook picture and the fix (reported only)
	printf 'extras: ["--kind ld --width 4 --tile 32x32 --textbook 1 --fix 1",\n'
	printf '"--kind ldsm.x4 --tile 64x64 --elem 2 --access mma --textbook 1 --fix 1",\n'
	printf '"--kind ld --width 4 --struct 128 --textbook 1 --fix 1"] };\n</script>\n'
} >"$T/selftest.js"
awk -v f="$T/selftest.js" '
/^<!--@SELFTEST@-->$/ { while ((getline l < f) > 0) print l; next }
{ print }' "$PAGE" >"$T/index.html"

if ! command -v chromium >/dev/null 2>&1; then
	scripts/deps.sh chromium || {
		echo "FAIL: chromium is missing and cannot be installed"
		exit 1
	}
fi
chrome="chromium --headless --no-sandbox --disable-gpu --hide-scrollbars"
# Real time (--timeout), not virtual time: virtual time stops the clock
# that performance.now() reads, and the redraws are timed.
dump() {
	$chrome --timeout="${WEB_TIMEOUT_MS:-20000}" --dump-dom "$1" 2>>"$LOG"
}
unescape() {
	sed 's/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&#39;/'"'"'/g; s/&amp;/\&/g'
}
dump "file://$PWD/$T/index.html" >"$T/dom.html"
tr '\n' '\001' <"$T/dom.html" |
	sed -n 's/.*<pre id="selftest">\([^<]*\)<\/pre>.*/\1/p' |
	tr '\001' '\n' | unescape >"$T/page-raw.txt"
sed 's/^ERROR --addrs: column [0-9]*: /ERROR --addrs: /' "$T/page-raw.txt" >"$T/page.txt"
grep -q -x -F "ERROR --addrs: column 7: lane 3: 'x' is not an address (decimal, 0x hex, or - for inactive)" "$T/page-raw.txt" ||
	fail "the page does not name column 7 of the addresses for lane 3's 'x'"
[ -s "$T/page.txt" ] || fail "the page wrote no results (see $LOG, $T/dom.html)"

# ---- compare ---------------------------------------------------------------------
head -n "$ncases" "$T/page.txt" >"$T/page-cases.txt"
if cmp -s "$E" "$T/page-cases.txt"; then
	ok "$ncases accesses ($((ncases - nerr)) predictions, $nerr errors): the page equals bankscope predict"
else
	fail "the page and bankscope predict differ on these accesses (case: expected | page):"
	paste -d'|' "$E" "$T/page-cases.txt" | awk -F'|' '$1 != $2 { print NR ": " $0 }' |
		head -20 | while IFS= read -r l; do
			n=${l%%:*}
			echo "  $(sed -n "${n}p" "$C")"
			echo "    $l"
		done
fi
grep -q 'and a result shown' "$T/page.txt" &&
	fail "an error left a result on the page: $(grep -c 'and a result shown' "$T/page.txt") times"

timing=$(grep '^TIMING ' "$T/page.txt")
max=$(echo "$timing" | sed -n 's/.* max=\([0-9.]*\).*/\1/p')
if [ -z "$max" ]; then
	fail "no timing from the page"
elif awk -v m="$max" -v f="$FRAME_MS" 'BEGIN { exit !(m < f) }'; then
	ok "every redraw within one frame: $timing ms"
	sed -n 's/^SLOWEST /  slowest: /p' "$T/page.txt"
	sed -n 's/^EXTRA /  with the textbook picture and the fix: /p' "$T/page.txt"
else
	fail "a redraw took longer than $FRAME_MS ms: $timing ms"
	grep '^SLOWEST ' "$T/page.txt"
fi

grep '^DATASET ' "$T/page.txt" >"$T/page-data.txt"
if cmp -s "$T/expected-data.txt" "$T/page-data.txt"; then
	while IFS= read -r l; do
		ok "$l"
	done <"$T/page-data.txt"
else
	fail "the datasets differ from bankscope check:"
	diff "$T/expected-data.txt" "$T/page-data.txt"
fi
grep '^PROFILE ' "$T/page.txt" |
	sed 's/ ERROR [^:]*: arch [^ ]* does not model \([^ ]* [^ ]*\) accesses .*/ NOT MODELED \1/' >"$T/page-profile.txt"
if cmp -s "$T/expected-profile.txt" "$T/page-profile.txt"; then
	ok "arch files: $(grep -c . "$T/page-profile.txt") results as bankscope predict --arch FILE gives them"
else
	fail "arch files: the page differs from bankscope predict --arch FILE:"
	diff "$T/expected-profile.txt" "$T/page-profile.txt"
fi
grep -q '^DATASET bad.csv ERROR bad.csv:37:' "$T/page-data.txt" ||
	fail "the malformed dataset's message does not name line 37"

# no input made markup: the page's own count, and the dump
markup=$(grep '^MARKUP ' "$T/page.txt")
if [ "$markup" = "MARKUP 0 title=bankscope lab" ]; then
	ok "no markup from the inputs ($markup)"
else
	fail "markup from the inputs: ${markup:-no MARKUP line}"
fi
grep -q -i '<img' "$T/dom.html" && fail "an <img> element in the page's DOM"
grep -q -F '&lt;img src=x onerror=document.title=1&gt;' "$T/dom.html" ||
	fail "the markup dataset's row name is not shown as text"

# The state in the URL: a case opened by its link, markup in it shown as text.
url="file://$PWD/$PAGE#kind=ld&width=8&mode=tile&tile=32x32&swizzle=cute%3A2%2C4%2C3&name=%3Cimg%20src%3Dx%20onerror%3Ddocument.title%3D2%3E"
dump "$url" >"$T/url.html"
want=$($BANKSCOPE predict --format csv --kind ld --width 8 --tile 32x32 --swizzle cute:2,4,3 | sed -n 2p | cut -d, -f7)
got=$(sed -n 's/.*<dd id="out-wavefronts">\([0-9]*\)<.*/\1/p' "$T/url.html")
if [ -n "$got" ] && [ "$got" = "$want" ]; then
	ok "a link opens its case: $got wavefronts, as bankscope predict"
else
	fail "the link's case shows '${got}' wavefronts, bankscope predict $want"
fi
if grep -q -i '<img' "$T/url.html" || grep -q '<title>2</title>' "$T/url.html"; then
	fail "markup in the URL reached the page"
elif grep -q -F '&lt;img src=x onerror=document.title=2&gt;' "$T/url.html"; then
	ok "markup in the URL is shown as text"
else
	fail "the URL's name is not shown"
fi

# A remote kind (another CTA's shared memory) by its link: the sector map
# in place of the bank map, with the sectors bankscope predict --format
# map lists, and fix's words that padding cannot help.
url="file://$PWD/$PAGE#kind=dsmem.ld&width=4&mode=tile&tile=32x32&pad=1&fix=1"
dump "$url" >"$T/remote.html"
want=$($BANKSCOPE predict --format map --kind dsmem.ld --width 4 --tile 32x32 --pad 1 | sed -n '3,$p' | wc -l)
got=$(tr '\n' ' ' <"$T/remote.html" | sed 's|</td>|\n|g' | grep -c 'class="moved"' || :)
if [ "$got" = "$want" ] && grep -q '32 sectors of 32 bytes moved' "$T/remote.html" &&
	grep -q 'paid by sectors, not banks' "$T/remote.html"; then
	ok "a remote kind shows its $got sectors (bankscope predict --format map: $want) and why padding cannot help"
else
	fail "the remote case shows ${got} moved sectors, bankscope predict $want, or lacks the note"
fi

# The built-in H100 and H200 side by side: the table bankscope report
# prints for the two.  The datasets are unpacked after the load event, so
# this dump runs on virtual time.
$chrome --virtual-time-budget=20000 --dump-dom "file://$PWD/$PAGE#tab=data" \
	>"$T/data.html" 2>>"$LOG"
tr '\n' ' ' <"$T/data.html" | sed -n 's/.*<table class="rows" id="d-compare">\(.*\)/\1/p' |
	sed 's|</table>.*||; s|</tr>|\n|g' |
	sed 's|<t[hd]>|\| |g; s|</t[hd]>| |g; s|<tr>||g; s|$|\||; s/ *$//' |
	grep '^|' >"$T/compare-page.txt"
$BANKSCOPE report data/h100-sxm/all-20261124-153149.csv data/h200/all-20261124-153809.csv |
	grep '^| ' >"$T/compare-cli.txt"
if [ -s "$T/compare-page.txt" ] && cmp -s "$T/compare-cli.txt" "$T/compare-page.txt"; then
	ok "H100 and H200 side by side: $(($(wc -l <"$T/compare-page.txt") - 1)) kinds and widths, as bankscope report prints them"
else
	fail "the page's side-by-side differs from bankscope report's:"
	diff "$T/compare-cli.txt" "$T/compare-page.txt" | head -10
fi
grep -q -F '<p class="verdict" id="d-verdict">AGREES: 3889 rows, 3889 measured, 3889 agree, 0 disagree, 0 skipped, 0 timing only (arch sm_90)</p>' "$T/data.html" ||
	fail "the built-in H100 dataset's verdict is not bankscope check's"

# ---- the page as a user meets it (tests/web_ui.js) ----------------------------
# A copy of the page with tests/web_ui.js at its end, opened in iframes of
# fixed sizes (the window's own can be no narrower than 500 px), one a
# scenario; a second copy lies in another folder under another name, as a
# copy on a laptop would.  Each scenario writes "what: value" lines;
# tests/web_ui_expect.sh holds the values they must have.
U=$T/ui
mkdir -p "$U/laptop"
awk -v f=tests/web_ui.js '
/^<\/body>$/ { print "<script>"; while ((getline l < f) > 0) print l; print "</script>" }
{ print }' "$PAGE" >"$U/page.html"
cp "$U/page.html" "$U/laptop/bankscope lab.html"
# three lanes on bank 0: lanes 0 and 1 share word 0, lane 2 reads word 32
# (a wavefront beyond the ideal); lanes 3-31 one word each
addrs="0%200%20128"
l=3
while [ "$l" -lt 32 ]; do
	addrs="$addrs%20$((4 * l))"
	l=$((l + 1))
done
{
	echo '<!DOCTYPE html><html><body>'
	while read -r name w h src; do
		echo "<iframe src=\"$src\" width=\"$w\" height=\"$h\"></iframe><pre id=\"ui-$name\"></pre>"
	done <<EOF
w1024 1024 768 page.html?w1024#kind=ld&amp;width=4&amp;expr=lane
w390 390 844 page.html?w390#kind=ld&amp;width=4&amp;expr=lane
dsmem 1280 1000 page.html?dsmem#kind=dsmem.ld&amp;width=4&amp;mode=tile&amp;tile=32x32&amp;pad=1&amp;fix=1
fixnone 1280 900 page.html?fixnone#kind=ld&amp;width=4&amp;expr=lane&amp;fix=1
fixpad 1280 900 page.html?fixpad#kind=ld&amp;width=4&amp;mode=tile&amp;tile=32x32&amp;fix=1
tilepad 1280 900 page.html?tilepad#kind=ld&amp;width=4&amp;mode=tile&amp;tile=32x32&amp;pad=1&amp;access=col&amp;index=5
tilecol 1280 900 page.html?tilecol#kind=ld&amp;width=4&amp;mode=tile&amp;tile=32x32&amp;access=col&amp;index=5
swizzle 1280 900 page.html?swizzle#kind=ldsm.x4&amp;width=16&amp;mode=tile&amp;tile=64x64&amp;elem=2&amp;access=mma&amp;swizzle=tma128
predict 1280 900 page.html?predict#kind=ld&amp;width=4&amp;expr=lane*2&amp;predict=1
predictdsmem 1280 900 page.html?predictdsmem#kind=dsmem.ld&amp;width=4&amp;mode=tile&amp;tile=32x32&amp;pad=1&amp;predict=1
words 1280 900 page.html?words#kind=ld&amp;width=4&amp;expr=lane*2
labs 1280 900 laptop/bankscope%20lab.html?labs
a11y 1280 900 page.html?a11y#kind=ld&amp;width=4&amp;expr=lane*2
colours 1280 900 page.html?colours#kind=ld&amp;width=4&amp;mode=addrs&amp;addrs=$addrs
charts 1280 1000 page.html?charts#tab=data&amp;b=none
state 1280 900 page.html?state
restore 1280 900 page.html?restore#tab=data&amp;a=1&amp;b=none
EOF
	echo '</body></html>'
} >"$U/run.html"
$chrome --allow-file-access-from-files --virtual-time-budget=60000 \
	--dump-dom "file://$PWD/$U/run.html" >"$U/run.dom" 2>>"$LOG"
tr '\n' '\001' <"$U/run.dom" | sed 's|</pre>|</pre>\n|g' |
	sed -n 's/.*<pre id="ui-\([a-z0-9]*\)">\([^<]*\)<\/pre>.*/\1 \2/p' >"$U/all.txt"
# ui_check SCENARIO WHAT <WANTED: the scenario's lines must be these
ui_check() {
	got=$(sed -n "s/^$1 //p" "$U/all.txt" | tr '\001' '\n' | unescape)
	want=$(cat)
	if [ "$got" = "$want" ]; then
		ok "$2"
	else
		fail "$2: the page shows otherwise (- wanted, + shown):"
		printf '%s\n' "$want" >"$U/$1.want"
		printf '%s\n' "$got" >"$U/$1.got"
		diff "$U/$1.want" "$U/$1.got" | sed -n 's/^</  -/p; s/^>/  +/p' | head -40
	fi
}
. tests/web_ui_expect.sh

echo "web_test: $(($(date +%s) - t0)) s"
if [ "$fails" -gt 0 ]; then
	echo "$fails check(s) failed"
	exit 1
fi
echo "web_test: every check passed"
