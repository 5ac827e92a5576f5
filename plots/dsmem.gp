# dsmem.gp - distributed shared memory: remote load latency against the
# sectors moved, with the architecture's line, and the local latency of
# the same addresses on the same axes.
#
# data is not the dataset but its dsmem plot data, which `bankscope report
# --dsmem-plot-data` writes (make plots does, from the bankscope-dsmem file
# it shows): one row per remote row and per local row of probe dsmem
# without a note, with target (remote or local), kind, width, sectors (the
# 32-byte sectors the row's addresses move remotely: measured on a remote
# row, else predicted; a local row's addresses counted the same way),
# cycles_per_access_median and the architecture's line (lat_base,
# lat_slope; empty without one).
#
# Rows: kind dsmem.ld (remote, filled markers) and ld (local, open
# markers) with a median, one color per width; the local loads of a name
# sit at the sectors its remote load moves.  The architecture's line of
# each width is drawn once: widths that share it share one line, in the
# color of the first of them when there are several lines (sm_90 has a
# line per width since issue 30), else dark grey.  No
# remote load with cycles: the chart is not drawn (exit status SKIP, see
# common.gp).
#
#   gnuplot -e "data='DSMEM-PLOT-DATA.csv'; out='build/plots/dsmem'; gpu='NAME'" plots/dsmem.gp
chart = "dsmem"
here(s) = strstrt(s, "/") ? s[1:strstrt(s, "/")] . here(s[strstrt(s, "/") + 1:]) : ""
load here(ARG0) . "common.gp"

widths = "1 2 4 8 16"
colors = "#1b9e77 #d95f02 #7570b3 #e7298a #66a61e"
isnum(v) = v == v
max(a, b) = a > b ? a : b
is_row(t, k, w) = strcol("target") eq t && strcol("kind") eq k && column("width") == w \
	&& isnum(column("cycles_per_access_median")) && isnum(column("sectors"))
remote(w) = is_row("remote", "dsmem.ld", w)
local(w) = is_row("local", "ld", w)

# Per width: remote and local points, and the line (has 0 without one).
array nr[5]
array nl[5]
array base[5]
array slope[5]
array has[5]
total = 0
xmax = 1
ymax = 1
arch = "the architecture"
do for [i = 1:5] {
	w = int(word(widths, i))
	r = 0; l = 0; b = NaN; s = NaN
	stats data using (remote(w) ? (r = r + 1, b = column("lat_base"), s = column("lat_slope"), \
		arch = "arch " . strcol("arch"), xmax = max(xmax, column("sectors")), \
		ymax = max(ymax, column("cycles_per_access_median")), 0) : \
		local(w) ? (l = l + 1, ymax = max(ymax, column("cycles_per_access_median")), 0) : 0) nooutput
	nr[i] = r; nl[i] = l; base[i] = b; slope[i] = s
	has[i] = r > 0 && isnum(b) && isnum(s)
	total = total + r
}
if (total == 0) { print "no remote loads (dsmem.ld rows with cycles) in the dataset or a bankscope-dsmem file beside it"; exit status SKIP }

# The distinct lines: each width's, unless an earlier width has the same.
lines = ""
array lw[5]
do for [i = 1:5] {
	lw[i] = ""
	first = 0
	do for [j = 1:i] {
		if (first == 0 && has[j] && has[i] && base[j] == base[i] && slope[j] == slope[i]) { first = j }
	}
	if (first == i) { lines = lines . sprintf(" %d", i) }
	if (first > 0) { lw[first] = lw[first] . (strlen(lw[first]) ? ", " : "") . word(widths, i) }
}
linetitle(i) = sprintf("%s: %g + %g x sectors cycles (%s-byte)", arch, base[i], slope[i], lw[i])
nlines = words(lines)

do for [fmt in "png svg"] {
	eval term(fmt, 1200, 800)
	set title sprintf("Distributed shared memory: load latency against sectors moved, %s", gpu) font ",13"
	set grid
	set xlabel "32-byte sectors moved per warp instruction (measured; local loads: the sectors their addresses move remotely)"
	set ylabel "latency, cycles per load (median of a dependent chain)"
	set xrange [0:xmax + 2]
	set yrange [0:ymax * 1.1]
	# in the band between the local points (below) and the remote ones
	set key at graph 0.02, graph 0.62 left top Left reverse box opaque spacing 1.1
	plot for [i = 1:5] data using (nr[i] ? (remote(int(word(widths, i))) ? column("sectors") : NaN) : NaN):(column("cycles_per_access_median")) \
		with points pt 7 ps 1.3 lc rgb word(colors, i) \
		title (nr[i] ? sprintf("%s-byte remote (%d rows)", word(widths, i), nr[i]) : ""), \
	     for [i = 1:5] data using (nl[i] ? (local(int(word(widths, i))) ? column("sectors") : NaN) : NaN):(column("cycles_per_access_median")) \
		with points pt 6 ps 1.6 lw 1.4 lc rgb word(colors, i) \
		title (nl[i] ? sprintf("%s-byte local, same addresses (%d rows)", word(widths, i), nl[i]) : ""), \
	     for [k = 1:(nlines > 0 ? nlines : 1)] (nlines > 0 ? base[int(word(lines, k))] + slope[int(word(lines, k))] * x : NaN) \
		with lines lw 2 dt 2 lc rgb (nlines > 1 ? word(colors, int(word(lines, k))) : "#333333") \
		title (nlines > 0 ? linetitle(int(word(lines, k))) : "")
	unset output
}
