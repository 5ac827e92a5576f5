# stride.gp - wavefronts and cycles against element stride, one panel per
# width.
#
# Rows: probe "stride", loads (names <type>_ld_s<stride>, type u8, u16,
# f32, u64, v4 for 1, 2, 4, 8, 16 bytes).  The stride, in elements, comes
# from the addresses column: (address of lane 1 - address of lane 0) /
# width.  Left axis: measured wavefronts per warp instruction (points) and
# the profile's prediction stored in the row (line); right axis: the median
# cycles per access of the dependent chain.  A width with no stride loads
# is an error (exit status 1), never an empty panel.
#
#   gnuplot -e "data='DATA.csv'; out='build/plots/stride'; gpu='NAME'" plots/stride.gp
chart = "stride"
here(s) = strstrt(s, "/") ? s[1:strstrt(s, "/")] . here(s[strstrt(s, "/") + 1:]) : ""
load here(ARG0) . "common.gp"

widths = "1 2 4 8 16"
types = "u8 u16 f32 u64 v4"
is_row(w) = strcol("probe") eq "stride" && strcol("op") eq "ld" && column("width") == w
lane(a, i) = word(a, i) eq "-" ? NaN : real(word(a, i))
stride(a, w) = (lane(a, 2) - lane(a, 1)) / w

do for [i = 1:5] {
	w = int(word(widths, i))
	n = 0
	stats data using (is_row(w) ? (n = n + 1, 0) : 0) nooutput
	if (n == 0) { exit error missing(sprintf("stride loads of width %d (probe stride, op ld)", w)) }
}

do for [fmt in "png svg"] {
	eval term(fmt, 1500, 900)
	set multiplot layout 2, 3 title sprintf("Shared-memory loads by element stride, %s", gpu) font ",13"
	set grid
	set xrange [-1:65]
	set xtics 0, 8, 64
	set mxtics 2
	set yrange [0:*]
	set y2range [0:*]
	set offsets 0, 0, graph 0.06, 0
	set ytics nomirror
	set y2tics
	set xlabel "element stride (elements between lanes)"
	set ylabel "wavefronts per warp instruction"
	set y2label "cycles per access (median)"
	unset key
	do for [i = 1:5] {
		w = int(word(widths, i))
		set title sprintf("%d-byte loads (%s)", w, word(types, i))
		plot data using (is_row(w) ? stride(strcol("addresses"), w) : NaN):(column("wavefronts_predicted")) \
			with histeps lw 2 lc rgb "#9ecae1", \
		     '' using (is_row(w) ? stride(strcol("addresses"), w) : NaN):(column("wavefronts_measured")) \
			with points pt 7 ps 0.6 lc rgb "#08519c", \
		     '' using (is_row(w) ? stride(strcol("addresses"), w) : NaN):(column("cycles_per_access_median")) \
			axes x1y2 with lines lw 1 lc rgb "#d94801"
	}
	# The sixth cell holds the legend for all five panels.
	unset title
	unset border
	unset tics
	unset grid
	unset xlabel
	unset ylabel
	unset y2label
	set key center center box spacing 1.6 width 2 font ",11"
	set xrange [0:1]
	set yrange [0:1]
	plot NaN with histeps lw 2 lc rgb "#9ecae1" title "predicted wavefronts (profile in the row)", \
	     NaN with points pt 7 ps 0.8 lc rgb "#08519c" title "measured wavefronts (counters)", \
	     NaN with lines lw 1 lc rgb "#d94801" title "cycles per access, median (right axis)"
	unset multiplot
	unset output
}
