"""explain-recount.py OUTPUT.txt... - the verdicts of `bankscope profile
--explain` text outputs, counted per file, under the rule the output was
written with and under the rule for predicated instructions added after
the H100 run of 2026-11-24 (cli/explain.c, predicated_off: a
DISAGREES whose instruction is predicated, whose samples all predict P
wavefronts with ideal I, and whose counters' wavefronts per execution,
divided by the share of executions with a lane on (the counters' ideal
per execution over I), equal P within 0.005, agrees).  Prints CSV:
file, verdict, as_written, recounted.  Reads only the text: the numbers
it uses are the ones printed there."""
import re
import sys
from collections import Counter

TOL = 0.005
head = re.compile(r"^\S.*  0x[0-9a-f]{4,}  (.*?)  \S+$")
counters = re.compile(r"^  counters: (?:wavefronts per execution )?([0-9.]+)"
                      r"(?: wavefronts per execution)?, ideal ([0-9.]+)")
model = re.compile(r"^  model:    (\d+) wavefronts?, ideal (\d+), ")
verdict = re.compile(r"^  verdict:  ([A-Z -]+?)(?::|$)")

print("file,verdict,as_written,recounted")
for path in sys.argv[1:]:
    written, recounted = Counter(), Counter()
    sass = m = i = p = ideal = None
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        h = head.match(line)
        if h:
            sass, m, i, p, ideal = h.group(1), None, None, None, None
            continue
        c = counters.match(line)
        if c:
            m, i = float(c.group(1)), float(c.group(2))
            continue
        c = model.match(line)
        if c:
            p, ideal = int(c.group(1)), int(c.group(2))
            continue
        v = verdict.match(line)
        if not v:
            continue
        name = v.group(1)
        written[name] += 1
        again = name
        if (name == "DISAGREES" and sass and sass.startswith("@")
                and p is not None and ideal and m is not None
                and i is not None and i < ideal - TOL and i > 0
                and abs(m / (i / ideal) - p) < TOL):
            again = "AGREES"
        recounted[again] += 1
    for name in sorted(set(written) | set(recounted)):
        print(f"{path},{name},{written[name]},{recounted[name]}")
