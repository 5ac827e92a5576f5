# common.gp - loaded first by every chart script in this folder.
#
# Needs, given with gnuplot -e: data (the CSV to read), out (the output
# path without extension: out.png and out.svg are written) and gpu (the
# GPU's name, for the title).  Sets the CSV reading (comma separated, the
# first non-comment line is the header, so columns are taken by name; the
# "# key: value" lines are comments) and defines
#   term(fmt, w, h)   the commands that reset the settings of the previous
#                     format and open out.png (fmt "png", pngcairo) or
#                     out.svg (fmt "svg"), w x h pixels: eval them
#   quote(s)          s as the inside of a single-quoted gnuplot string
#   missing(what)     the message for rows the chart (variable chart, set
#                     before loading this) needs and cannot find
#   SKIP              the exit status of a chart the data cannot support:
#                     a script prints one line saying why (nodata(what))
#                     and ends with `exit status SKIP`; make plots then
#                     lists the chart as not drawn, with that line, instead
#                     of failing (any other error still fails)
# Text is not "enhanced": names like u64_ld_s1 print as they are.
if (!exists("data") || !exists("out") || !exists("gpu")) \
	exit error "usage: gnuplot -e \"data='DATA.csv'; out='PATH'; gpu='NAME'\" SCRIPT.gp"
csv = "set datafile separator comma; set datafile columnheaders"
eval csv
quote(s) = strstrt(s, "'") ? s[1:strstrt(s, "'")] . "'" . quote(s[strstrt(s, "'") + 1:]) : s
term(fmt, w, h) = "reset; " . csv . "; " . (fmt eq "png" \
	? sprintf("set terminal pngcairo size %d,%d noenhanced font 'Sans,10' linewidth 1.2; set output '%s.png'", w, h, quote(out)) \
	: sprintf("set terminal svg size %d,%d noenhanced font 'Sans,10' linewidth 1.2 background rgb 'white'; set output '%s.svg'", w, h, quote(out)))
missing(what) = sprintf("%s.gp: %s has no %s", chart, data, what)
SKIP = 3
nodata(what) = sprintf("the dataset has no %s", what)
