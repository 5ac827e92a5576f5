# kinds-cpasync.gp - cp.async: the chart kinds.gp draws, for this group.
#
#   gnuplot -e "data='PLOT-DATA.csv'; out='build/plots/kinds-cpasync'; gpu='NAME'" plots/kinds-cpasync.gp
#
# data is the plot data of bankscope report --plot-data, not the dataset.
group = "cpasync"
what = "cp.async"
rowname = "cp.async rows"
returning = "cp.async that returns a value"
silent = "cp.async (returns nothing)"
here(s) = strstrt(s, "/") ? s[1:strstrt(s, "/")] . here(s[strstrt(s, "/") + 1:]) : ""
load here(ARG0) . "kinds.gp"
