# kinds-matrix.gp - ldmatrix and stmatrix: the chart kinds.gp draws, for this group.
#
#   gnuplot -e "data='PLOT-DATA.csv'; out='build/plots/kinds-matrix'; gpu='NAME'" plots/kinds-matrix.gp
#
# data is the plot data of bankscope report --plot-data, not the dataset.
group = "matrix"
what = "ldmatrix and stmatrix"
rowname = "ldmatrix or stmatrix rows"
returning = "ldmatrix (returns the matrix)"
silent = "stmatrix (returns nothing)"
here(s) = strstrt(s, "/") ? s[1:strstrt(s, "/")] . here(s[strstrt(s, "/") + 1:]) : ""
load here(ARG0) . "kinds.gp"
