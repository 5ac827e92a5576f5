# padding.gp - what padding does: arrays of structs and 2-D tiles.
#
# Rows: probe "padding".  The struct rows are loads named struct_n<N>_p<P>:
# lane l reads word 0 of array[l], a struct of N data words and P words of
# padding, so the stride is N + P words.  Top left: measured wavefronts per
# warp instruction against P, one line per N; top right: the median cycles
# per access, the same lines.  (The few struct stores, struct_..._st, are
# left out; the tile panel shows stores behave alike.)  The tile rows are
# loads named <type>_tile<R>x<C>[_xor]_<row|col><I>_ld: T tile[R][C], a
# row or a column read across the warp, 32x33 being the padded tile and
# _xor the swizzled one; bottom: one group of bars per tile, measured and
# predicted wavefronts, and the cycles per access on the right axis.  No
# struct row or no tile row is an error (exit status 1).
#
#   gnuplot -e "data='DATA.csv'; out='build/plots/padding'; gpu='NAME'" plots/padding.gp
chart = "padding"
here(s) = strstrt(s, "/") ? s[1:strstrt(s, "/")] . here(s[strstrt(s, "/") + 1:]) : ""
load here(ARG0) . "common.gp"

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
if (words(ns) == 0) { exit error missing("struct loads (probe padding, names struct_n<N>_p<P>)") }
if (words(tiles) == 0) { exit error missing("tile loads (probe padding, names <type>_tile<R>x<C>..._ld)") }
nt = words(tiles)

tx(s) = is_tile(s) ? idx(tiles, tile_case(s), 1) : NaN
sx(s, n) = is_struct(s) && struct_n(s) == n ? struct_p(s) : NaN
colors = "#1b9e77 #d95f02 #7570b3 #e7298a #66a61e #e6ab02 #a6761d #666666"
ncolor(i) = word(colors, (i - 1) % 8 + 1)

do for [fmt in "png svg"] {
	eval term(fmt, 1400, 1000)
	set multiplot title sprintf("Padding: arrays of structs and 2-D tiles, %s", gpu) font ",13"
	set grid
	set key outside right top Left reverse box title "struct words N"

	set origin 0, 0.5
	set size 0.5, 0.46
	set title "struct loads: wavefronts"
	set xlabel "padding in 4-byte words (P)"
	set ylabel "wavefronts per warp instruction"
	set logscale y 2
	set yrange [0.8:48]
	set ytics (1, 2, 4, 8, 16, 32)
	set xrange [-0.3:*]
	set xtics 1
	plot for [i = 1:words(ns)] data using (sx(strcol("name"), int(word(ns, i)))):(column("wavefronts_measured")) \
		with linespoints pt 7 ps 1.1 lw 1.5 lc rgb ncolor(i) title sprintf("N = %s", word(ns, i))

	set origin 0.5, 0.5
	set title "struct loads: latency"
	set ylabel "cycles per access (median)"
	unset logscale y
	set yrange [0:*]
	set ytics autofreq
	plot for [i = 1:words(ns)] data using (sx(strcol("name"), int(word(ns, i)))):(column("cycles_per_access_median")) \
		with linespoints pt 7 ps 1.1 lw 1.5 lc rgb ncolor(i) title sprintf("N = %s", word(ns, i))

	set origin 0, 0
	set size 1, 0.5
	set title "tile loads: one column or row read across the warp (32x33: padded by one element; xor: swizzled)"
	set xlabel ""
	set ylabel "wavefronts per warp instruction"
	set y2label "cycles per access (median)"
	set ytics nomirror
	set y2tics
	set yrange [0:34]
	set y2range [0:*]
	set xrange [0.4:nt + 0.6]
	set xtics () rotate by 20 right scale 0 font ",9"
	do for [i = 1:nt] { set xtics add (tile_label(word(tiles, i)) i) }
	set style fill solid 0.85 border -1
	set boxwidth 0.3
	set key outside right top Left reverse box title ""
	plot data using (tx(strcol("name")) - 0.16):(column("wavefronts_measured")) \
		with boxes lc rgb "#08519c" title "measured wavefronts", \
	     '' using (tx(strcol("name")) + 0.16):(column("wavefronts_predicted")) \
		with boxes lc rgb "#9ecae1" title "predicted wavefronts", \
	     '' using (tx(strcol("name"))):(column("cycles_per_access_median")) axes x1y2 \
		with points pt 9 ps 1.6 lc rgb "#d94801" title "cycles per access (right axis)"
	unset multiplot
	unset output
}
