#!/usr/bin/env python3
"""compare_profile_ncu.py PROFILE.csv NCU-SOURCE.csv - bankscope profile's
per-instruction counts against Nsight Compute's SourceCounters.

PROFILE.csv is `bankscope profile --format csv`; NCU-SOURCE.csv is
`ncu -i REPORT --page source --print-source sass --csv` of the same
kernels (one launch each, concatenated).  Instructions are matched by
kernel (template arguments normalized) and pc offset from the kernel's
first instruction; wavefronts and ideal wavefronts are compared per
execution, since the two may have measured different numbers of launches.
"""
import collections
import csv
import re
import sys


def norm(kernel):
    k = kernel.replace("(int)", "").replace(" ", "")
    return re.sub(r"^void", "", k).split("(")[0]


def ncu_counts(path):
    out = collections.defaultdict(dict)
    kern = idx = base = None
    for r in csv.reader(open(path)):
        if r and r[0] == "Kernel Name":
            kern, base = norm(r[1]), None
        elif r and r[0] == "Address":
            idx = {n: i for i, n in enumerate(r)}
        elif r and idx and r[0].startswith("0x"):
            a = int(r[0], 16)
            base = a if base is None else base
            if re.match(r"(@\S+ )?(LDS|STS)", r[1].strip()):
                out[kern][a - base] = tuple(int(r[idx[n]]) for n in (
                    "Instructions Executed", "L1 Wavefronts Shared",
                    "L1 Wavefronts Shared Ideal"))
    return out


ncu = ncu_counts(sys.argv[2])
lines = [l for l in open(sys.argv[1]) if not l.startswith("#")]
agree, differ, missing = 0, [], 0
for r in csv.DictReader(lines):
    n = ncu.get(norm(r["kernel"]), {}).get(int(r["pc"], 16))
    if n is None:
        missing += 1
        continue
    e, w, i = (int(r[k]) for k in ("executions", "wavefronts", "ideal"))
    if abs(w / e - n[1] / n[0]) < 1e-9 and abs(i / e - n[2] / n[0]) < 1e-9:
        agree += 1
    else:
        differ.append((r["kernel"], r["pc"], (e, w, i), n))
print(f"{len(ncu)} kernels in the ncu report; {agree} instructions agree, "
      f"{len(differ)} differ, {missing} not in the ncu report "
      "(wavefronts and ideal per execution)")
for d in differ[:20]:
    print("  differ:", *d)
