# wide.gp - the wide-access cases: measured against predicted wavefronts.
#
# Rows: probe "wide", widths 8 and 16, loads and stores, named
# <type>_<ld|st>_<case> (u64_ld_pairs, v4_st_half_lo_s1, ...).  One panel
# per width present, one group of four bars per case, in the order of the
# file: load measured, load predicted, store measured, store predicted
# wavefronts per warp instruction.  Loads of a pairwise-uniform request
# (pairs, quads, s0) take fewer wavefronts than the stores of the same
# addresses: the architecture's packing.  Each case is labelled with the
# element index of lane l that defines it (the table `cases` below, from
# analyzer/families/wide.c; its active lanes when not all 32), so the chart reads on
# its own; the report lists the cases in full under the chart.  No wide
# row at all: the chart is not drawn (exit status SKIP, see common.gp).
#
#   gnuplot -e "data='DATA.csv'; out='build/plots/wide'; gpu='NAME'" plots/wide.gp
chart = "wide"
here(s) = strstrt(s, "/") ? s[1:strstrt(s, "/")] . here(s[strstrt(s, "/") + 1:]) : ""
load here(ARG0) . "common.gp"

widths = "8 16"
types = "u64 v4"
after(s) = s[strstrt(s, "_") + 1:]
case(s) = after(after(s))
is_row(w) = strcol("probe") eq "wide" && column("width") == w
has(list, w) = strstrt(list, " " . w . " ") > 0
idx(list, w, i) = i > words(list) ? 0 : (word(list, i) eq w ? i : idx(list, w, i + 1))

# case=element index of lane l[@active lanes], one word each (no blanks).
cases_known = "s1=l s0=0 s2=2*l pairs=l/2 quads=l/4 mod16=l%16 mod8=l%8 " \
	. "xor1=l^1 pairs_s2=l/2*2 pairs_s4=l/2*4 pairs_s8=l/2*8 " \
	. "partner2=(l>>2)*2+(l&1) quads_s2=l/4*2 half_lo_s1=l@0-15 " \
	. "half_hi_s1=l@16-31 even_s1=l@even odd_s1=l@odd lane0=l@0 " \
	. "lanes_0_8=l/8@0,8 lanes_0_16=l/8@0,16 lanes_0_1_diff=l@0,1"
def_of(c, i) = i > words(cases_known) ? "" \
	: strstrt(word(cases_known, i), c . "=") == 1 \
	? word(cases_known, i)[strlen(c) + 2:] : def_of(c, i + 1)
at(d) = strstrt(d, "@") ? d[1:strstrt(d, "@") - 1] . ", lanes " . d[strstrt(d, "@") + 1:] : d
tic(c) = def_of(c, 1) eq "" ? c : sprintf("%s: %s", c, at(def_of(c, 1)))
# A tic label is a format: its % doubled.
pct(s) = strstrt(s, "%") ? s[1:strstrt(s, "%")] . "%" . pct(s[strstrt(s, "%") + 1:]) : s

cases = " "
n8 = 0
n16 = 0
stats data using (is_row(8) || is_row(16) \
	? (n8 = n8 + is_row(8), n16 = n16 + is_row(16), \
	   has(cases, case(strcol("name"))) ? 0 : (cases = cases . case(strcol("name")) . " ", 0)) \
	: 0) nooutput
if (n8 + n16 == 0) { print nodata("8- or 16-byte rows of probe wide"); exit status SKIP }
present = (n8 ? "8 " : "") . (n16 ? "16" : "")
np = words(present)
nc = words(cases)
cx(w, op) = is_row(w) && strcol("op") eq op ? idx(cases, case(strcol("name")), 1) : NaN

do for [fmt in "png svg"] {
	eval term(fmt, 1500, 150 + 470 * np)
	set multiplot layout np, 1 title sprintf("Wide accesses (8 and 16 bytes per lane): measured and predicted, %s", gpu) font ",13"
	set grid ytics
	set style fill solid 0.9 border -1
	set boxwidth 0.19
	set xrange [0.4:nc + 0.6]
	set yrange [0:*]
	set offsets 0, 0, graph 0.06, 0
	set ylabel "wavefronts per warp instruction"
	set xtics () rotate by 30 right scale 0 font ",9"
	do for [i = 1:nc] { set xtics add (pct(tic(word(cases, i))) i) }
	set key outside right top Left reverse box
	do for [k = 1:np] {
		w = int(word(present, k))
		t = word(types, w == 8 ? 1 : 2)
		set title sprintf("%d-byte accesses (%s_ld_CASE, %s_st_CASE)", w, t, t)
		set bmargin (k == np ? 10 : 8)
		set xlabel (k == np ? "case: element index of lane l (all 32 lanes active unless lanes are named)" : "")
		plot data using (cx(w, "ld") - 0.3):(column("wavefronts_measured")) \
			with boxes lc rgb "#08519c" title "load, measured", \
		     '' using (cx(w, "ld") - 0.1):(column("wavefronts_predicted")) \
			with boxes lc rgb "#9ecae1" title "load, predicted", \
		     '' using (cx(w, "st") + 0.1):(column("wavefronts_measured")) \
			with boxes lc rgb "#a63603" title "store, measured", \
		     '' using (cx(w, "st") + 0.3):(column("wavefronts_predicted")) \
			with boxes lc rgb "#fdae6b" title "store, predicted"
	}
	unset multiplot
	unset output
}
