# latency.gp - dependent-chain latency against wavefronts, with the fitted
# line of every width and packing.
#
# Rows: loads without a note that have cycles_per_access_median, grouped by
# width and packed_predicted (the architecture packs some 8- and 16-byte loads
# into fewer phases; they have their own line).  x is wavefronts_measured,
# or wavefronts_predicted in a row without counters: the points
# `bankscope check` and `bankscope report` fit (they take the packing from
# the architecture, which is packed_predicted unless the row is stale).  Each group's least-squares
# line comes from gnuplot's stats over those points; its slope (cycles per
# wavefront), intercept and n are printed in the key.  A group with fewer
# than 2 points is drawn without a line.  No timed load at all: the chart
# is not drawn (exit status SKIP, see common.gp).
#
#   gnuplot -e "data='DATA.csv'; out='build/plots/latency'; gpu='NAME'" plots/latency.gp
chart = "latency"
here(s) = strstrt(s, "/") ? s[1:strstrt(s, "/")] . here(s[strstrt(s, "/") + 1:]) : ""
load here(ARG0) . "common.gp"

widths = "1 2 4 8 16"
isnum(v) = v == v
is_row(w, p) = strcol("op") eq "ld" && strcol("note") eq "" && column("width") == w \
	&& column("packed_predicted") == p && isnum(column("cycles_per_access_median"))
wf(m, p) = isnum(m) ? m : p
xval(w, p) = is_row(w, p) ? wf(column("wavefronts_measured"), column("wavefronts_predicted")) : NaN
yval(w, p) = is_row(w, p) ? column("cycles_per_access_median") : NaN

# Groups: index g = 2*(i-1) + p + 1 for width i (1..5) and packing p (0, 1).
array cnt[10]
array slope[10]
array icept[10]
total = 0
do for [g = 1:10] {
	w = int(word(widths, (g - 1) / 2 + 1))
	p = (g - 1) % 2
	n = 0
	stats data using (is_row(w, p) ? (n = n + 1, 0) : 0) nooutput
	cnt[g] = n
	total = total + n
	if (n >= 2) {
		stats data using (xval(w, p)):(yval(w, p)) nooutput
		slope[g] = STATS_slope
		icept[g] = STATS_intercept
	}
}
if (total == 0) { print nodata("timed loads (op ld with cycles_per_access_median)"); exit status SKIP }

colors = "#1b9e77 #d95f02 #7570b3 #e7298a #66a61e"
ptype(p) = p ? 8 : 6
label(g, w, p) = cnt[g] >= 2 \
	? sprintf("%d-byte%s: slope %.3f cycles/wavefront, intercept %.2f, n %d", w, p ? " packed" : "", slope[g], icept[g], cnt[g]) \
	: sprintf("%d-byte%s: n %d (no fit)", w, p ? " packed" : "", cnt[g])

groups = ""
fits = ""
do for [g = 1:10] {
	if (cnt[g] > 0) { groups = groups . sprintf(" %d", g) }
	if (cnt[g] >= 2) { fits = fits . sprintf(" %d", g) }
}
gw(g) = int(word(widths, (g - 1) / 2 + 1))
gp(g) = (g - 1) % 2
gc(g) = word(colors, (g - 1) / 2 + 1)

do for [fmt in "png svg"] {
	eval term(fmt, 1200, 800)
	set title sprintf("Load latency against wavefronts, dependent chain, %s", gpu) font ",13"
	set grid
	set xlabel "wavefronts per warp instruction"
	set ylabel "latency, cycles per access (median)"
	set xrange [0:*]
	set autoscale y
	set key bottom right Left reverse box opaque spacing 1.3 title "least-squares fit: cycles = slope x wavefronts + intercept"
	plot for [gs in groups] data \
		using (xval(gw(int(gs)), gp(int(gs)))):(yval(gw(int(gs)), gp(int(gs)))) \
		with points pt ptype(gp(int(gs))) ps (2.6 - 0.45 * ((int(gs) - 1) / 2)) lw 1.5 \
		lc rgb gc(int(gs)) title label(int(gs), gw(int(gs)), gp(int(gs))), \
	     for [gs in fits] slope[int(gs)] * x + icept[int(gs)] \
		with lines lw 1.2 dt gp(int(gs)) + 1 lc rgb gc(int(gs)) notitle
	unset output
}
