# kinds.gp - one group of access kinds (ldmatrix and stmatrix, the shared
# atomics, cp.async): wavefronts measured against predicted, and cycles
# against wavefronts.  Loaded by kinds-matrix.gp, kinds-atomics.gp and
# kinds-cpasync.gp, which set
#   group   the group's id in the plot data ("matrix", "atomics", "cpasync")
#   what    what the chart is of ("ldmatrix and stmatrix")
#   rowname what the group's rows are called ("ldmatrix or stmatrix rows")
#   returning, silent  what its kinds that return a value, and those that
#           return nothing, are called ("ldmatrix", "stmatrix")
#
# data is not the dataset but its plot data, which `bankscope report
# --plot-data` writes (make plots does): one row per dataset row with its
# kind, the kind's group, its series (the kind and width's place in its
# group, from the kinds table, so a kind keeps its marker from one dataset
# to the next), whether the kind returns a value, whether the architecture
# models it, and the architecture's prediction (empty where it has none).  The
# grouping is by kind, never by probe or row name, so the exploration's
# datasets and the probe suite's draw alike.
#
# Rows: those of the group without a note.  One row of panels per class of
# kind that has rows, top to bottom:
#   modeled kinds that return a value   left: measured against predicted
#   (named by `returning`)              wavefronts per warp instruction
#                                       (the diagonal is agreement); right:
#                                       the median cycles of a dependent
#                                       chain (latency) against wavefronts
#                                       (measured; predicted in a row
#                                       without counters) with each kind's
#                                       least-squares line, as bankscope
#                                       report fits it
#   modeled kinds that return nothing   the same, the cycles being the
#   (named by `silent`)                 interval between back-to-back
#                                       instructions
#   kinds the arch does not model       apart, across the width: the cycles
#                                       against the measured wavefronts,
#                                       points only (no rule, no line)
# Kinds whose points coincide are drawn as nested markers, the first series
# largest.  No row of the group at all: the chart is not drawn (exit
# status SKIP, see common.gp).
if (!exists("group") || !exists("what") || !exists("rowname") || !exists("returning") || !exists("silent")) \
	exit error "kinds.gp draws for kinds-matrix.gp, kinds-atomics.gp and kinds-cpasync.gp: run one of them"
chart = "kinds-" . group
load here(ARG0) . "common.gp"

isnum(v) = v == v
in_group(z) = strcol("group") eq group && column("noted") == 0
in_series(s) = in_group(0) && column("series") == s
wfx(z) = isnum(column("wavefronts_measured")) ? column("wavefronts_measured") : column("wavefronts_predicted")
timed(s) = in_series(s) && isnum(column("cycles_per_access_median")) && isnum(wfx(0))
max(a, b) = a > b ? a : b

ns = 0
arch = "the architecture"
stats data using (in_group(0) ? (ns = max(ns, column("series")), arch = "arch " . strcol("profile"), 0) : 0) nooutput
ns = int(ns)
if (ns == 0) { print nodata(rowname); exit status SKIP }

# Per series: rows, label, class (1 modeled and returns a value, 2
# modeled and returns nothing, 3 not modeled), rows with measured
# wavefronts, rows on the diagonal, timed rows (for class 3: with measured
# wavefronts and cycles) and the fitted line (fitted 1).
array cnt[ns]
array lab[ns]
array cls[ns]
array ret[ns]
array nm[ns]
array diag[ns]
array nt[ns]
array fitted[ns]
array slope[ns]
array icept[ns]
array wmx[3]
array cmx[3]
array wmn[3]
array cmn[3]
do for [k = 1:3] { wmx[k] = 1; cmx[k] = 1; wmn[k] = 1e9; cmn[k] = 1e9 }
do for [s = 1:ns] {
	c = 0; d = 0; t = 0; u = 0; l = ""; r = 0; m = 1
	stats data using (in_series(s) ? (c = c + 1, l = strcol("label"), r = int(column("returns")), \
		m = int(column("modeled")), \
		u = u + isnum(column("wavefronts_measured")), \
		d = d + (column("wavefronts_measured") == column("wavefronts_predicted")), 0) : 0) nooutput
	cnt[s] = c; lab[s] = l; nm[s] = u; diag[s] = d
	cls[s] = m ? (r ? 1 : 2) : 3
	ret[s] = r
	k = cls[s]
	# class 3 has no prediction: its x is the measured wavefronts only
	stats data using (timed(s) && (k < 3 || isnum(column("wavefronts_measured"))) ? \
		(t = t + 1, wmx[k] = max(wmx[k], wfx(0)), wmn[k] = wfx(0) < wmn[k] ? wfx(0) : wmn[k], \
		 cmx[k] = max(cmx[k], column("cycles_per_access_median")), \
		 cmn[k] = column("cycles_per_access_median") < cmn[k] ? column("cycles_per_access_median") : cmn[k], 0) : 0) nooutput
	if (k < 3) {
		stats data using (in_series(s) ? (wmx[k] = max(wmx[k], column("wavefronts_predicted")), \
			wmx[k] = isnum(column("wavefronts_measured")) ? max(wmx[k], column("wavefronts_measured")) : wmx[k], 0) : 0) nooutput
	}
	nt[s] = t
	fitted[s] = 0
	if (k < 3 && t >= 2) {
		stats data using (timed(s) ? wfx(0) : NaN):(timed(s) ? column("cycles_per_access_median") : NaN) nooutput
		slope[s] = STATS_slope
		icept[s] = STATS_intercept
		fitted[s] = 1
	}
}

# The series each panel draws, as word lists: so that no plot command
# holds a series without a point (gnuplot would warn).
array scl[3]
array tml[3]
array rowl[3]
do for [k = 1:3] {
	scl[k] = ""; tml[k] = ""; rowl[k] = ""
	do for [s = 1:ns] {
		if (cls[s] == k && cnt[s] > 0) { rowl[k] = rowl[k] . sprintf(" %d", s) }
		if (cls[s] == k && k < 3 && nm[s] > 0) { scl[k] = scl[k] . sprintf(" %d", s) }
		if (cls[s] == k && nt[s] > 0) { tml[k] = tml[k] . sprintf(" %d", s) }
	}
}
shown(k) = (k < 3 && strlen(scl[k]) > 0) || strlen(tml[k]) > 0
if (!shown(1) && !shown(2) && !shown(3)) { print nodata(rowname . " with counters or cycles"); exit status SKIP }

colors = "#1b9e77 #d95f02 #7570b3 #e7298a #66a61e #e6ab02 #a6761d #1f78b4 #666666 #b2182b #6a3d9a #01665e"
ptypes = "6 4 8 10 12 14 6 4 8 10 12 14"
# Series s's rank among the series of its class with rows: its ring size.
rank(s) = sum [i = 1:s] (cnt[i] > 0 && cls[i] == cls[s] ? 1 : 0)
# Sizes spread from 2.8 (first) down to 0.9 (last) over the class's series.
inclass(s) = words(rowl[cls[s]])
ring(s) = inclass(s) <= 1 ? 2.2 : 0.9 + 1.9 * (inclass(s) - rank(s)) / (inclass(s) - 1.0)
colr(s) = word(colors, (s - 1) % 12 + 1)
ptype(s) = int(word(ptypes, (s - 1) % 12 + 1))
dtype(s) = (rank(s) - 1) % 5 + 1
ktype(s) = cls[s] < 3 ? dtype(s) : 1
class_name(k) = k == 1 ? returning : silent
fit(s) = fitted[s] \
	? sprintf("%.2f + %.3f x wavefronts cycles (n %d)", icept[s], slope[s], nt[s]) \
	: sprintf("no line (%d timed rows)", nt[s])
# The not-modeled kinds' cycles: latency, interval, or some of each.
nmret = sum [s = 1:ns] (cls[s] == 3 && nt[s] > 0 && ret[s] ? 1 : 0)
nmall = sum [s = 1:ns] (cls[s] == 3 && nt[s] > 0 ? 1 : 0)
nmy = nmret == nmall ? "latency, cycles (median)" : nmret == 0 ? "interval, cycles per instruction (median)" \
	: "cycles (median): latency, or the interval where nothing returns"
measured(s) = nm[s] == cnt[s] ? "" : sprintf(", %d measured", nm[s])
legend(s) = cls[s] < 3 \
	? sprintf("%s: %d rows%s, %d on the diagonal; %s", lab[s], cnt[s], measured(s), diag[s], fit(s)) \
	: sprintf("%s: %d rows, %d timed (%s), not modeled", lab[s], cnt[s], nt[s], ret[s] ? "latency" : "interval")

# Heights in pixels: the title, then per class a row of panels and, under
# it, the legend of its kinds in two columns (the panels carry none, so
# that no point hides behind one).
head = 50.0
foot = 8.0
panel = 400.0
# Two columns where the longest entry fits twice across the width, else
# one; gnuplot overestimates the width of text, hence the negative width.
array longest[3]
do for [k = 1:3] {
	longest[k] = 1
	do for [w in rowl[k]] { longest[k] = max(longest[k], strlen(legend(int(w)))) }
}
keycols(k) = longest[k] <= 90 ? 2 : 1
keyrows(k) = int((words(rowl[k]) + keycols(k) - 1) / keycols(k))
keyh(k) = 22.0 + 17.0 * keyrows(k)
H = head + foot + sum [k = 1:3] (shown(k) ? panel + keyh(k) : 0)
keystrip(k, y) = sprintf("set origin 0, %.6f; set size 1, %.6f", y / H, keyh(k) / H)

do for [fmt in "png svg"] {
	eval term(fmt, 1400, int(H))
	set multiplot title sprintf("%s on the %s: measured (points) against %s", what, gpu, arch) font ",14"
	top = H - head
	do for [k = 1:3] {
		if (shown(k)) {
			y0 = (top - panel) / H
			reset
			eval csv
			set grid
			if (k < 3) {
				# left: measured against predicted wavefronts
				wlim = 2 ** ceil(log(wmx[k]) / log(2) + 0.25)
				set origin 0, y0
				set size 0.5, panel / H
				set logscale xy 2
				set xrange [0.7:wlim]
				set yrange [0.7:wlim]
				set format x "%g"
				set format y "%g"
				set title sprintf("%s: measured against predicted wavefronts", class_name(k))
				set xlabel sprintf("predicted by %s, wavefronts per warp instruction", arch)
				set ylabel "measured, wavefronts per warp instruction"
				set label 1 "dashed line: measured = predicted" at graph 0.03, graph 0.93 tc rgb "#555555" font ",9"
				if (strlen(scl[k]) == 0) { set label 2 "no row has measured wavefronts" at graph 0.5, graph 0.5 center }
				unset key
				plot x with lines lw 1 dt 2 lc rgb "#737373", \
				     for [w in scl[k]] data using (in_series(int(w)) ? column("wavefronts_predicted") : NaN):(column("wavefronts_measured")) \
					with points pt ptype(int(w)) ps ring(int(w)) lw 1.5 lc rgb colr(int(w))
				unset label 1
				unset label 2
				# right: cycles against wavefronts, with the fitted lines
				set origin 0.5, y0
				set size 0.5, panel / H
				unset logscale
				set format x "% h"
				set format y "% h"
				set xrange [0:wmx[k] * 1.05]
				set yrange [0:cmx[k] * 1.1]
				set title sprintf("%s: %s against wavefronts, a line per kind", class_name(k), \
					k == 1 ? "latency" : "interval")
				set xlabel "wavefronts per warp instruction (measured)"
				set ylabel (k == 1 ? "latency, cycles (median)" : "interval, cycles per instruction (median)")
				if (strlen(tml[k]) == 0) {
					set label 2 "no row has cycles" at graph 0.5, graph 0.5 center
					plot NaN notitle
					unset label 2
				} else {
					plot for [w in tml[k]] data using (timed(int(w)) ? wfx(0) : NaN):(column("cycles_per_access_median")) \
						with points pt ptype(int(w)) ps ring(int(w)) lw 1.5 lc rgb colr(int(w)), \
					     for [w in tml[k]] (fitted[int(w)] ? slope[int(w)] * x + icept[int(w)] : NaN) \
						with lines lw 1.2 dt dtype(int(w)) lc rgb colr(int(w))
				}
			} else {
				set origin 0, y0
				set size 1, panel / H
				set logscale xy 2
				set xrange [wmn[3] / 1.3 : wmx[3] * 1.3]
				set yrange [cmn[3] / 1.3 : cmx[3] * 1.3]
				set format x "%g"
				set format y "%g"
				set title sprintf("not modeled: %s has no rule for these kinds, so no prediction; their cycles against their measured wavefronts (no line)", arch)
				set xlabel "measured, wavefronts per warp instruction"
				set ylabel nmy
				unset key
				plot for [w in tml[3]] data using (timed(int(w)) ? column("wavefronts_measured") : NaN):(column("cycles_per_access_median")) \
					with points pt ptype(int(w)) ps ring(int(w)) lw 1.5 lc rgb colr(int(w))
			}
			# the legend of the row: a plot of nothing but its key
			reset
			eval keystrip(k, top - panel - keyh(k))
			unset border
			unset tics
			set margins 0, 0, 0, 0
			set xrange [0:1]
			set yrange [0:1]
			set key center center Left reverse maxrows keyrows(k) width -int(longest[k] * 0.15) samplen 3 font ",10"
			plot for [w in rowl[k]] NaN \
				with linespoints pt ptype(int(w)) ps ring(int(w)) lw 1.5 lc rgb colr(int(w)) dt ktype(int(w)) \
				title legend(int(w))
			top = top - panel - keyh(k)
		}
	}
	unset multiplot
	unset output
}
