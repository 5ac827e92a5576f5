#!/usr/bin/env python3
"""compare_ncu.py DATASET.csv NCU.csv - our counters against Nsight Compute's.

NCU.csv is `ncu --csv --page raw` over `bankscope-probe --measure launch`,
which launches the counted kernel of every measured row, in row order.
Prints how many rows agree (wavefronts and bank conflicts per instruction,
instructions) and the first disagreements.  Only ld and st rows are
compared (the six metrics are theirs); rows of the other kinds keep their
place in the order and are counted as not compared.
"""
import csv
import os
import re
import sys


def kernel_metrics():
    """The per-kernel metric names, by macro name without BS_METRIC_
    (WAVEFRONTS_LD, ...), from probes/metrics.h: the one place they are
    written."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                        "probes", "metrics.h")
    with open(path) as f:
        return dict(re.findall(r'^#define BS_METRIC_(\w+) "([^"]+)"$',
                               f.read(), re.M))


METRICS = kernel_metrics()


def dataset(path):
    with open(path) as f:
        body = [line for line in f if not line.startswith("#")]
    return [r for r in csv.DictReader(body) if not r["note"]]


def ncu(path):
    with open(path) as f:
        lines = [line for line in f if not line.startswith("==")]
    rd = list(csv.DictReader(lines))
    # the first data row after the header holds the units
    return [r for r in rd if r.get("ID", "").strip().isdigit()]


def val(r, name):
    return float(r[name].replace(",", ""))


ours, theirs = dataset(sys.argv[1]), ncu(sys.argv[2])
print(f"ncu cross-check: {len(ours)} dataset rows, {len(theirs)} kernels profiled by ncu")
agree, bad, other = 0, [], 0
for r, k in zip(ours, theirs):
    # the six metrics are ld's and st's; the other kinds' counters are
    # other groups (probes/metrics.h), not collected here
    op = (r.get("kind") or r["op"]).upper()
    if op not in ("LD", "ST"):
        other += 1
        continue
    inst = val(k, METRICS["INSTRUCTIONS_" + op])
    wf = val(k, METRICS["WAVEFRONTS_" + op]) / inst if inst else float("nan")
    bc = val(k, METRICS["CONFLICTS_" + op]) / inst if inst else float("nan")
    mine = (float(r["wavefronts_measured"] or "nan"),
            float(r["bank_conflicts_measured"] or "nan"),
            float(r["instructions"] or "nan"))
    if abs(mine[0] - wf) < 1e-6 and abs(mine[1] - bc) < 1e-6 and mine[2] == inst:
        agree += 1
    else:
        bad.append((r["name"], mine, (wf, bc, inst)))
print(f"ncu cross-check: {agree} of {min(len(ours), len(theirs)) - other} rows agree "
      f"(wavefronts, conflicts per instruction, instructions)"
      + (f"; {other} rows of other kinds than ld and st not compared" if other else ""))
for name, mine, other in bad[:10]:
    print(f"  {name}: ours {mine}, ncu {other}")
