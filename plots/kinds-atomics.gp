# kinds-atomics.gp - Shared atomics: the chart kinds.gp draws, for this group.
#
#   gnuplot -e "data='PLOT-DATA.csv'; out='build/plots/kinds-atomics'; gpu='NAME'" plots/kinds-atomics.gp
#
# data is the plot data of bankscope report --plot-data, not the dataset.
group = "atomics"
what = "Shared atomics"
rowname = "shared atomic rows"
returning = "atom.* (return the old value)"
silent = "red.* (return nothing)"
here(s) = strstrt(s, "/") ? s[1:strstrt(s, "/")] . here(s[strstrt(s, "/") + 1:]) : ""
load here(ARG0) . "kinds.gp"
