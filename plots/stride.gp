# stride.gp - wavefronts and cycles against element stride, one column of
# panels per width.
#
# Rows: probe "stride", loads (names <type>_ld_s<stride>, type u8, u16,
# f32, u64, v4 for 1, 2, 4, 8, 16 bytes).  The stride, in elements, comes
# from the addresses column: (address of lane 1 - address of lane 0) /
# width.  Top row: measured wavefronts per warp instruction (points) and
# the architecture's prediction stored in the row (a step of width 1 centred on
# each stride, so the steps end at the first and last stride instead of
# dropping to 0).  Bottom row: the median cycles per load of the dependent
# chain, on its own axis (cycles and wavefronts are not one scale).  The
# panels of a row share their scale, so the widths compare by eye.  Only
# the widths that have stride loads get a column; a width without timed
# or counted rows shows an empty panel saying so.  No stride load at all:
# the chart is not drawn (exit status SKIP, see common.gp).
#
#   gnuplot -e "data='DATA.csv'; out='build/plots/stride'; gpu='NAME'" plots/stride.gp
chart = "stride"
here(s) = strstrt(s, "/") ? s[1:strstrt(s, "/")] . here(s[strstrt(s, "/") + 1:]) : ""
load here(ARG0) . "common.gp"

widths = "1 2 4 8 16"
types = "u8 u16 f32 u64 v4"
isnum(v) = v == v
is_row(w) = strcol("probe") eq "stride" && strcol("op") eq "ld" && column("width") == w
lane(a, i) = word(a, i) eq "-" ? NaN : real(word(a, i))
stride(a, w) = (lane(a, 2) - lane(a, 1)) / w
sx(w) = is_row(w) ? stride(strcol("addresses"), w) : NaN

# The widths present (indices into widths), per width the rows with a
# prediction, a measurement and a median, and the largest wavefronts and
# cycles: every panel of a row has the same scale.
present = ""
wmax = 1
cmax = 1
big(m, v) = isnum(v) && v > m ? v : m
array npred[5]
array nmeas[5]
array ncyc[5]
do for [i = 1:5] {
	w = int(word(widths, i))
	n = 0
	np = 0
	nm = 0
	nc = 0
	stats data using (is_row(w) ? (n = n + 1, \
		np = np + isnum(column("wavefronts_predicted")), \
		nm = nm + isnum(column("wavefronts_measured")), \
		nc = nc + isnum(column("cycles_per_access_median")), \
		wmax = big(big(wmax, column("wavefronts_predicted")), column("wavefronts_measured")), \
		cmax = big(cmax, column("cycles_per_access_median")), 0) : 0) nooutput
	npred[i] = np
	nmeas[i] = nm
	ncyc[i] = nc
	if (n > 0) { present = present . sprintf(" %d", i) }
}
if (words(present) == 0) { print nodata("stride loads (probe stride, op ld)"); exit status SKIP }
ncol = words(present)

keyh = 0.07
top = 0.93
rowh = (top - keyh) / 2
colw = 1.0 / ncol

do for [fmt in "png svg"] {
	eval term(fmt, 200 + 320 * ncol, 900)
	set multiplot title sprintf("Shared-memory loads by element stride, %s", gpu) font ",13"
	set grid
	set xrange [-1:65]
	set xtics 0, 8, 64
	set mxtics 2
	unset key
	do for [c = 1:ncol] {
		i = int(word(present, c))
		w = int(word(widths, i))

		set origin (c - 1) * colw, keyh + rowh
		set size colw, rowh
		set title sprintf("%d-byte loads (%s)", w, word(types, i))
		set xlabel "element stride (elements)"
		set ylabel "wavefronts per warp instruction"
		set yrange [0:wmax * 1.06]
		unset label 1
		if (npred[i] + nmeas[i] == 0) {
			set label 1 "no wavefront counted or predicted" at graph 0.5, 0.5 center
			plot 1 / 0 notitle
		} else {
			plot data using (npred[i] ? sx(w) - 0.5 : NaN):(column("wavefronts_predicted")) \
				with steps lw 2 lc rgb "#9ecae1", \
			     '' using (npred[i] ? sx(w) - 0.5 : NaN):(column("wavefronts_predicted")):(1):(0) \
				with vectors nohead lw 2 lc rgb "#9ecae1", \
			     '' using (nmeas[i] ? sx(w) : NaN):(column("wavefronts_measured")) \
				with points pt 7 ps 0.6 lc rgb "#08519c"
		}

		set origin (c - 1) * colw, keyh
		set title ""
		set ylabel "cycles per load (median)"
		set yrange [0:cmax * 1.06]
		unset label 1
		if (ncyc[i] == 0) {
			set label 1 "no timed load" at graph 0.5, 0.5 center
			plot 1 / 0 notitle
		} else {
			plot data using (sx(w)):(column("cycles_per_access_median")) \
				with linespoints pt 7 ps 0.4 lw 1 lc rgb "#d94801"
		}
	}
	# The strip at the bottom holds the legend for every panel.
	unset label 1
	set origin 0, 0
	set size 1, keyh
	unset title
	unset border
	unset tics
	unset grid
	unset xlabel
	unset ylabel
	unset mxtics
	set xrange [0:1]
	set yrange [0:1]
	set key center center horizontal spacing 1.2 width 2 font ",11"
	plot NaN with lines lw 2 lc rgb "#9ecae1" title "predicted wavefronts (top row; architecture in the row)", \
	     NaN with points pt 7 ps 0.8 lc rgb "#08519c" title "measured wavefronts (top row; counters)", \
	     NaN with linespoints pt 7 ps 0.5 lw 1 lc rgb "#d94801" title "cycles per load, dependent chain, median (bottom row)"
	unset multiplot
	unset output
}
