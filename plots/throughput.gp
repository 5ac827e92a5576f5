# throughput.gp - bytes per clock per SM against the conflict degree, with
# the 128 B/clk/SM roof: loads on the left, stores on the right.
#
# Rows: probe "stride", loads and stores, stride >= 1 (the stride from the
# addresses column, (lane 1 - lane 0) / width), without a note.  The
# conflict degree is wavefronts_measured / ideal_wavefronts_predicted
# (wavefronts_predicted where there are no counters): 1 conflict-free, 32
# when every lane waits for its own wavefront.  Stride 0 and the broadcast,
# random and wide probes are left out on purpose: there many lanes read one
# word (multicast) or packed loads are served in fewer phases, and the
# requested bytes per clock (what tp_bytes_per_clk_per_sm counts) exceed
# the 128 bytes the 32 four-byte banks deliver per clock; mixing them in
# would put points above the roof that are not bank bandwidth.  The roof
# and roof/degree (what a full 128-byte wavefront per clock gives at that
# degree) are drawn as lines.  Every point sits at its own degree: widths
# whose points coincide are drawn as nested rings, the 1-byte one largest,
# so that each stays visible without moving it off its value.  A panel with
# no row says so; no such row at all: the chart is not drawn (exit status
# SKIP, see common.gp).
#
#   gnuplot -e "data='DATA.csv'; out='build/plots/throughput'; gpu='NAME'" plots/throughput.gp
chart = "throughput"
here(s) = strstrt(s, "/") ? s[1:strstrt(s, "/")] . here(s[strstrt(s, "/") + 1:]) : ""
load here(ARG0) . "common.gp"

roof = 128
widths = "1 2 4 8 16"
ops = "ld st"
colors = "#1b9e77 #d95f02 #7570b3 #e7298a #66a61e"
isnum(v) = v == v
lane(a, i) = word(a, i) eq "-" ? NaN : real(word(a, i))
stride(a, w) = (lane(a, 2) - lane(a, 1)) / w
is_row(w, op) = strcol("probe") eq "stride" && strcol("op") eq op && strcol("note") eq "" \
	&& column("width") == w && stride(strcol("addresses"), w) >= 1 \
	&& isnum(column("tp_bytes_per_clk_per_sm"))
wf(m, p) = isnum(m) ? m : p
degree(w, op) = is_row(w, op) \
	? wf(column("wavefronts_measured"), column("wavefronts_predicted")) / column("ideal_wavefronts_predicted") : NaN
# Ring size of width index i: 1-byte largest, 16-byte smallest.
ring(i) = word("4.2 3.2 2.3 1.5 0.8", i) + 0

array n[10]
total = 0
do for [k = 1:2] {
	do for [i = 1:5] {
		c = 0
		stats data using (is_row(int(word(widths, i)), word(ops, k)) ? (c = c + 1, 0) : 0) nooutput
		n[(k - 1) * 5 + i] = c
		total = total + c
	}
}
if (total == 0) { print nodata("timed accesses of probe stride at stride >= 1 with a throughput"); exit status SKIP }

do for [fmt in "png svg"] {
	eval term(fmt, 1600, 800)
	set multiplot layout 1, 2 title sprintf("Shared-memory throughput against conflict degree, %s (probe stride, stride >= 1; multicast rows left out)", gpu) font ",13"
	do for [k = 1:2] {
		op = word(ops, k)
		set grid
		set logscale xy 2
		set xrange [0.8:40]
		set yrange [1:320]
		set xtics (1, 2, 4, 8, 16, 32)
		set ytics (1, 2, 4, 8, 16, 32, 64, 128, 256)
		set title (k == 1 ? "loads" : "stores")
		set xlabel "conflict degree (measured / ideal wavefronts per warp instruction)"
		set ylabel "throughput, bytes per clock per SM (requested)"
		set key top right Left reverse box opaque spacing 1.3
		set label 1 sprintf("%d B/clk/SM roof: 32 banks x 4 bytes per clock", roof) \
			at first 1.2, first roof * 1.15 tc rgb "#cb181d"
		got = n[(k - 1) * 5 + 1] + n[(k - 1) * 5 + 2] + n[(k - 1) * 5 + 3] + n[(k - 1) * 5 + 4] + n[(k - 1) * 5 + 5]
		unset label 2
		if (got == 0) { set label 2 sprintf("no %s in the dataset", k == 1 ? "load" : "store") at graph 0.5, 0.5 center }
		plot roof with lines lw 2 lc rgb "#cb181d" title sprintf("roof, %d B/clk/SM", roof), \
		     roof / x with lines lw 1 dt 2 lc rgb "#737373" title "roof / degree", \
		     for [i = 1:5] data using (n[(k - 1) * 5 + i] ? degree(int(word(widths, i)), op) : NaN):(column("tp_bytes_per_clk_per_sm")) \
			with points pt 6 ps ring(i) lw 1.6 lc rgb word(colors, i) \
			title sprintf("%s-byte %s", word(widths, i), k == 1 ? "loads" : "stores")
	}
	unset multiplot
	unset output
}
