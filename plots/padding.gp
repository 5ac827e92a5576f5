# padding.gp - what padding does: arrays of structs and 2-D tiles.
#
# Rows: probe "padding".  The struct rows are loads named struct_n<N>_p<P>:
# lane l reads word 0 of array[l], a struct of N data words and P words of
# padding, so the stride is N + P words.  Top left: measured wavefronts per
# warp instruction against P, one line per N; top right: the median cycles
# per load, the same lines.  Lines of different N often coincide (N = 8,
# 16 and 32 agree from P = 1 on): each N has its own marker, size and dash
# pattern, the larger N drawn first with the larger marker, so that every
# line stays visible.  (The few struct stores, struct_..._st, are left
# out; the tile panels show stores behave alike.)  The tile rows are loads
# named <type>_tile<R>x<C>[_xor]_<row|col><I>_ld: T tile[R][C], a row or a
# column read across the warp, 32x33 being the padded tile and _xor the
# swizzled one; middle: one pair of bars per tile, measured and predicted
# wavefronts; bottom: the median cycles per load of each tile access, on
# its own axis (wavefronts and cycles are not one scale).  The struct
# panels are drawn when there are struct rows, the tile panels when there
# are tile rows; neither: the chart is not drawn (exit status SKIP, see
# common.gp).
#
#   gnuplot -e "data='DATA.csv'; out='build/plots/padding'; gpu='NAME'" plots/padding.gp
chart = "padding"
here(s) = strstrt(s, "/") ? s[1:strstrt(s, "/")] . here(s[strstrt(s, "/") + 1:]) : ""
load here(ARG0) . "common.gp"

isnum(v) = v == v
is_struct(s) = strcol("probe") eq "padding" && strcol("op") eq "ld" && s[1:8] eq "struct_n" \
	&& strstrt(s, "_p") > 0
struct_n(s) = int(s[9:strstrt(s, "_p") - 1])
struct_p(s) = int(s[strstrt(s, "_p") + 2:])
is_tile(s) = strcol("probe") eq "padding" && strcol("op") eq "ld" && strstrt(s, "_tile") > 0
tile_case(s) = s[1:strlen(s) - 3]
tile_label(s) = s[1:strstrt(s, "_tile") - 1] . " " . s[strstrt(s, "_tile") + 5:]
has(list, w) = strstrt(list, " " . w . " ") > 0
idx(list, w, i) = i > words(list) ? 0 : (word(list, i) eq w ? i : idx(list, w, i + 1))

# The N of the struct rows and the tiles, in the order of the file.
ns = " "
tiles = " "
stats data using (is_struct(strcol("name")) \
	? (has(ns, sprintf("%d", struct_n(strcol("name")))) ? 0 : (ns = ns . sprintf("%d ", struct_n(strcol("name"))), 0)) \
	: is_tile(strcol("name")) \
	? (has(tiles, tile_case(strcol("name"))) ? 0 : (tiles = tiles . tile_case(strcol("name")) . " ", 0)) \
	: 0) nooutput
nn = words(ns)
nt = words(tiles)
if (nn == 0 && nt == 0) { print nodata("struct or tile loads of probe padding"); exit status SKIP }

tx(s) = is_tile(s) ? idx(tiles, tile_case(s), 1) : NaN
sx(s, n) = is_struct(s) && struct_n(s) == n ? struct_p(s) : NaN
colors = "#1b9e77 #d95f02 #7570b3 #e7298a #66a61e #e6ab02 #a6761d #666666"
ncolor(i) = word(colors, (i - 1) % 8 + 1)
# Line i of nn: the last (largest N) is drawn first and largest.
ptypes = "7 5 9 13 11 15 4 6"
ptype(i) = int(word(ptypes, (i - 1) % 8 + 1))
psize(i) = 0.9 + 0.35 * (i - 1)
dtype(i) = (i - 1) % 5 + 1

# Heights: the struct row 0.42 of the page, the tile rows 0.27 each.
sh = nn ? 0.42 : 0
th = nt ? 0.27 : 0
scale = 0.95 / (sh + 2 * th)

do for [fmt in "png svg"] {
	eval term(fmt, 1400, 450 + (nn ? 450 : 0) + (nt ? 500 : 0))
	set multiplot title sprintf("Padding: arrays of structs and 2-D tiles, %s", gpu) font ",13"
	set grid
	if (nn) {
		set key outside right top Left reverse box title "struct words N" spacing 1.2
		set origin 0, (2 * th) * scale
		set size 0.5, sh * scale
		set title "struct loads: wavefronts"
		set xlabel "padding P (4-byte words)"
		set ylabel "wavefronts per warp instruction"
		set logscale y 2
		set yrange [0.8:48]
		set ytics (1, 2, 4, 8, 16, 32)
		set xrange [-0.3:*]
		set xtics 1
		plot for [i = nn:1:-1] data using (sx(strcol("name"), int(word(ns, i)))):(column("wavefronts_measured")) \
			with linespoints pt ptype(i) ps psize(i) lw 1.5 dt dtype(i) lc rgb ncolor(i) title sprintf("N = %s", word(ns, i))

		set origin 0.5, (2 * th) * scale
		set title "struct loads: latency"
		set ylabel "cycles per load (median)"
		unset logscale y
		set yrange [0:*]
		set ytics autofreq
		plot for [i = nn:1:-1] data using (sx(strcol("name"), int(word(ns, i)))):(column("cycles_per_access_median")) \
			with linespoints pt ptype(i) ps psize(i) lw 1.5 dt dtype(i) lc rgb ncolor(i) title sprintf("N = %s", word(ns, i))
	}
	if (nt) {
		unset logscale y
		set key outside right top Left reverse box title "" spacing 1.2
		# Margins at fixed screen positions: the two tile panels share
		# their x axis, one above the other, clear of each other.
		set lmargin at screen 0.07
		set rmargin at screen 0.86
		set tmargin at screen 2 * th * scale - 0.035
		set bmargin at screen th * scale + 0.03
		set title "tile loads: one column or row read across the warp (32x33: padded by one element; xor: swizzled)"
		set xlabel ""
		set ylabel "wavefronts per warp instruction"
		set yrange [0:34]
		set ytics autofreq
		set xrange [0.4:nt + 0.6]
		set xtics () scale 0 font ",9"
		do for [i = 1:nt] { set xtics add ("" i) }
		set style fill solid 0.85 border -1
		set boxwidth 0.3
		plot data using (tx(strcol("name")) - 0.16):(column("wavefronts_measured")) \
			with boxes lc rgb "#08519c" title "measured", \
		     '' using (tx(strcol("name")) + 0.16):(column("wavefronts_predicted")) \
			with boxes lc rgb "#9ecae1" title "predicted"

		set tmargin at screen th * scale - 0.01
		set bmargin at screen 0.1 * th / 0.27 * scale
		set title ""
		set ylabel "cycles per load (median)"
		set yrange [0:*]
		set ytics 0, 20
		set xtics () rotate by 20 right scale 0 font ",9"
		do for [i = 1:nt] { set xtics add (tile_label(word(tiles, i)) i) }
		set xlabel "tile access (element type, tile, row or column read)"
		plot data using (tx(strcol("name"))):(column("cycles_per_access_median")) \
			with impulses lw 3 lc rgb "#d94801" notitle, \
		     '' using (tx(strcol("name"))):(column("cycles_per_access_median")) \
			with points pt 7 ps 1.2 lc rgb "#d94801" title "cycles per load"
	}
	unset multiplot
	unset output
}
