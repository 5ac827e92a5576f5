#!/usr/bin/env python3
"""compare_runs.py A.csv B.csv - how well two probe runs repeat.

Matches rows by (probe, name) and prints, for the latency medians and the
throughput figures, the largest difference and how many rows differ by more
than 0.5 cycles.  Used on the GPU machine by scripts/device-run.sh.
"""
import csv
import sys


def rows(path):
    with open(path) as f:
        body = [line for line in f if not line.startswith("#")]
    return {(r["probe"], r["name"]): r for r in csv.DictReader(body)}


def num(s):
    return float(s) if s not in ("", None) else None


a, b = rows(sys.argv[1]), rows(sys.argv[2])
keys = [k for k in a if k in b]
for col, unit, limit in (("cycles_per_access_median", "cycles", 0.5),
                         ("cycles_per_access_min", "cycles", 0.5),
                         ("tp_bytes_per_clk_per_sm", "B/clk/SM", None)):
    diffs = []
    for k in keys:
        x, y = num(a[k][col]), num(b[k][col])
        if x is not None and y is not None:
            diffs.append((abs(x - y), k, x, y))
    if not diffs:
        print(f"{col}: no rows in both runs")
        continue
    diffs.sort(reverse=True)
    worst = diffs[0]
    line = (f"{col}: {len(diffs)} rows in both runs, largest difference "
            f"{worst[0]:.3f} {unit} ({worst[1][1]}: {worst[2]:.2f} vs {worst[3]:.2f})")
    if limit is not None:
        over = sum(1 for d in diffs if d[0] > limit)
        line += f", {over} rows differ by more than {limit} {unit}"
    print(line)
