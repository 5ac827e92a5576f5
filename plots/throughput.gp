# throughput.gp - bytes per clock per SM against the conflict degree, with
# the 128 B/clk/SM roof.
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
# degree) are drawn as lines.  The degree is a whole number, so the points
# of the ten series (5 widths, loads and stores) are set a little apart
# sideways around it (dodged) instead of hiding one another.  No such row
# is an error (exit status 1).
#
#   gnuplot -e "data='DATA.csv'; out='build/plots/throughput'; gpu='NAME'" plots/throughput.gp
chart = "throughput"
here(s) = strstrt(s, "/") ? s[1:strstrt(s, "/")] . here(s[strstrt(s, "/") + 1:]) : ""
load here(ARG0) . "common.gp"

roof = 128
widths = "1 2 4 8 16"
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
dodge(i, st) = 2 ** (0.055 * (2 * (i - 3) + st))

n = 0
stats data using (is_row(1, "ld") || is_row(2, "ld") || is_row(4, "ld") || is_row(8, "ld") \
	|| is_row(16, "ld") ? (n = n + 1, 0) : 0) nooutput
if (n == 0) { exit error missing("timed loads of probe stride with stride >= 1") }

do for [fmt in "png svg"] {
	eval term(fmt, 1300, 800)
	set title sprintf("Shared-memory throughput against conflict degree, %s", gpu) font ",13"
	set grid
	set logscale xy 2
	set xrange [0.8:40]
	set yrange [0.5:400]
	set xtics (1, 2, 4, 8, 16, 32)
	set ytics (1, 2, 4, 8, 16, 32, 64, 128, 256)
	set xlabel "conflict degree (measured wavefronts / ideal wavefronts per warp instruction)"
	set ylabel "throughput, bytes per clock per SM (requested)"
	set key outside right top Left reverse box spacing 1.2 \
		title "probe stride, stride >= 1\n(multicast rows left out)"
	set label 1 sprintf("%d B/clk/SM roof: 32 banks x 4 bytes per clock", roof) \
		at first 1.2, first roof * 1.15 tc rgb "#cb181d"
	plot roof with lines lw 2 lc rgb "#cb181d" title sprintf("roof, %d B/clk/SM", roof), \
	     roof / x with lines lw 1 dt 2 lc rgb "#737373" title "roof / degree", \
	     for [i = 1:5] data using (degree(int(word(widths, i)), "ld") * dodge(i, 0)):(column("tp_bytes_per_clk_per_sm")) \
		with points pt 7 ps 1.3 lc rgb word(colors, i) \
		title sprintf("%s-byte loads", word(widths, i)), \
	     for [i = 1:5] data using (degree(int(word(widths, i)), "st") * dodge(i, 1)):(column("tp_bytes_per_clk_per_sm")) \
		with points pt 6 ps 1.3 lw 1.5 lc rgb word(colors, i) \
		title sprintf("%s-byte stores", word(widths, i))
	unset label 1
	unset output
}
