# bankmap.gp - the bank map of one warp access, as a heatmap.
#
# Reads the output of `bankscope predict --format map` for one access:
#   # access: NAME, W-byte load, arch P, N wavefronts, ideal I, C bank conflicts
#   wavefront,phase,bank,word,first_lane,lane_count,lanes
#   0,0,0,0,0,1,0
# one row per word a bank delivers: x is the bank (0..banks-1; banks is 32
# unless given with -e "banks=N" or a row names a higher bank), y the
# wavefront counted over all phases from 0 at the top, the colour the
# number of lanes the word serves (log scale: 1, 2, 4 ... 32 lanes) and
# the number printed in the cell the lowest of those lanes.  An empty cell
# is a bank idle in that wavefront.  The map is a prediction of the
# architecture the "# access:" line names, not a measurement: the title says
# so, and names no GPU (gpu is required by common.gp but not shown).  A
# file with no rows is an error (exit status 1).
#
#   gnuplot -e "data='MAP.csv'; out='build/plots/bankmap'; gpu='NAME'" plots/bankmap.gp
chart = "bankmap"
here(s) = strstrt(s, "/") ? s[1:strstrt(s, "/")] . here(s[strstrt(s, "/") + 1:]) : ""
load here(ARG0) . "common.gp"

shq(s) = strstrt(s, "'") ? s[1:strstrt(s, "'") - 1] . "'\\''" . shq(s[strstrt(s, "'") + 1:]) : s
access = system("sed -n 's/^# access: //p' '" . shq(data) . "' | head -n 1")

array phase_of[1024]
cells = 0
maxw = 0
maxb = 0
maxl = 1
stats data using (cells = cells + 1, \
	maxw = column("wavefront") > maxw ? column("wavefront") : maxw, \
	maxb = column("bank") > maxb ? column("bank") : maxb, \
	maxl = column("lane_count") > maxl ? column("lane_count") : maxl, \
	phase_of[int(column("wavefront")) % 1024 + 1] = column("phase"), 0) nooutput
if (cells == 0) { exit error missing("cells (rows wavefront,phase,bank,word,first_lane,lane_count,lanes)") }
if (!exists("banks")) { banks = 32 }
if (maxb + 1 > banks) { banks = maxb + 1 }
nw = int(maxw) + 1

do for [fmt in "png svg"] {
	eval term(fmt, 1400, 300 + 34 * nw)
	set title sprintf("Bank map, predicted by the architecture (not a measurement):\n%s", access eq "" ? "(no # access: line)" : access) font ",12"
	set xrange [-0.5:banks - 0.5]
	set yrange [nw - 0.5:-0.5]
	set xtics 0, 1, banks - 1 scale 0 font ",9"
	set ytics () scale 0
	do for [w = 0:nw - 1] { set ytics add (sprintf("%d (phase %d)", w, phase_of[w % 1024 + 1]) w) }
	set xlabel "bank (index, 0 to banks - 1)"
	set ylabel "wavefront of the warp instruction (from 0 at the top)"
	set for [b = 0:banks] arrow from b - 0.5, graph 0 to b - 0.5, graph 1 nohead lc rgb "#d9d9d9" back
	set for [w = 0:nw] arrow from graph 0, first w - 0.5 to graph 1, first w - 0.5 nohead lc rgb "#d9d9d9" back
	set logscale cb 2
	set cbrange [1:32]
	set cbtics (1, 2, 4, 8, 16, 32)
	set cblabel "lanes served by the word (count)"
	set palette defined (0 "#fff7bc", 1 "#fec44f", 2 "#ec7014")
	set style fill solid 1.0 border lc rgb "#525252"
	set key below box height 0.5
	set bmargin 6
	plot data using (column("bank")):(column("wavefront")):(0.5):(0.5):(column("lane_count")) \
		with boxxyerror fc palette title "a word a bank delivers (colour: lanes served)", \
	     '' using (column("bank")):(column("wavefront")):(sprintf("%d", column("first_lane"))) \
		with labels font ",9" tc rgb "#000000" title "number: the lowest lane it serves"
	unset output
}
