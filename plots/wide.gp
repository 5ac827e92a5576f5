# wide.gp - the wide-access cases: measured against predicted wavefronts.
#
# Rows: probe "wide", widths 8 and 16, loads and stores, named
# <type>_<ld|st>_<case> (u64_ld_pairs, v4_st_half_lo_s1, ...).  One panel
# per width, one group of four bars per case, in the order of the file:
# load measured, load predicted, store measured, store predicted
# wavefronts per warp instruction.  Loads of a pairwise-uniform request
# (pairs, quads, s0) take fewer wavefronts than the stores of the same
# addresses: the profile's packing.  A width with no wide rows is an error
# (exit status 1).
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

cases = " "
n8 = 0
n16 = 0
stats data using (is_row(8) || is_row(16) \
	? (n8 = n8 + is_row(8), n16 = n16 + is_row(16), \
	   has(cases, case(strcol("name"))) ? 0 : (cases = cases . case(strcol("name")) . " ", 0)) \
	: 0) nooutput
if (n8 == 0) { exit error missing("8-byte rows of probe wide") }
if (n16 == 0) { exit error missing("16-byte rows of probe wide") }
nc = words(cases)
cx(w, op) = is_row(w) && strcol("op") eq op ? idx(cases, case(strcol("name")), 1) : NaN

do for [fmt in "png svg"] {
	eval term(fmt, 1500, 950)
	set multiplot layout 2, 1 title sprintf("Wide accesses (8 and 16 bytes per lane): measured and predicted, %s", gpu) font ",13"
	set grid ytics
	set style fill solid 0.9 border -1
	set boxwidth 0.19
	set xrange [0.4:nc + 0.6]
	set yrange [0:*]
	set offsets 0, 0, graph 0.06, 0
	set ylabel "wavefronts per warp instruction"
	set xtics () rotate by 25 right scale 0 font ",9"
	do for [i = 1:nc] { set xtics add (word(cases, i) i) }
	set key outside right top Left reverse box
	do for [k = 1:2] {
		w = int(word(widths, k))
		set title sprintf("%d-byte accesses (%s_ld_CASE, %s_st_CASE)", w, word(types, k), word(types, k))
		set xlabel (k == 2 ? "case (the access pattern's name)" : "")
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
