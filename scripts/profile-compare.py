#!/usr/bin/env python3
"""profile-compare.py BANKSCOPE DIR_A DIR_B [DIR_A2] - do two kept
`bankscope profile` directories of one program hold the same profile?

Each directory is replayed (`BANKSCOPE profile --replay DIR --format csv`)
and compared instruction by instruction, keyed by (kernel, function, cubin
CRC, pc): executions, wavefronts and ideal wavefronts must be equal, and
so must the header's launches, measured launches, kernels and
instructions.  Each header is also checked against its own launches.tsv:
the launches are its distinct launch indexes, the kernels its distinct
kernel names (whole names, however long).  DIR_A2, a second run made
like DIR_A, tells the program's own run-to-run variation apart: an
instruction whose counts differ between DIR_A and DIR_A2 is listed as
varying, not as a finding.  Prints one line per finding and a last line
"same: N instructions (V vary from run to run)" or "DIFFERENT: ..."; exit
status 0 when the same, 1 when not, 2 on bad use.
"""
import csv
import io
import os
import subprocess
import sys


def replay(bankscope, d):
    out = subprocess.run([bankscope, "profile", "--replay", d, "--format",
                          "csv"], capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit("profile-compare: replay of %s failed (%d): %s"
                 % (d, out.returncode, out.stderr.strip()))
    head, rows = {}, {}
    body = []
    for line in out.stdout.splitlines():
        if line.startswith("# ") and ": " in line:
            k, v = line[2:].split(": ", 1)
            head[k] = v
        else:
            body.append(line)
    for r in csv.DictReader(io.StringIO("\n".join(body))):
        key = (r["kernel"], r["function"], r["cubin_crc"], r["pc"])
        rows[key] = (int(r["executions"]), int(r["wavefronts"]),
                     int(r["ideal"]))
    return head, rows


def launches_tsv(d):
    idx, names = set(), set()
    with open(os.path.join(d, "launches.tsv"), encoding="utf-8",
              errors="replace") as f:
        next(f)
        for line in f:
            fld = line.rstrip("\n").split("\t")
            if len(fld) == 3:
                idx.add(fld[0])
                names.add(fld[1])
    return len(idx), len(names), max((len(n) for n in names), default=0)


def main():
    if len(sys.argv) not in (4, 5):
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        return 2
    bankscope, a, b = sys.argv[1:4]
    ha, ra = replay(bankscope, a)
    hb, rb = replay(bankscope, b)
    vary = set()
    if len(sys.argv) == 5:
        _, ra2 = replay(bankscope, sys.argv[4])
        vary = {k for k in set(ra) | set(ra2) if ra.get(k) != ra2.get(k)}
    bad = 0
    for d, h in ((a, ha), (b, hb)):
        nl, nk, longest = launches_tsv(d)
        print("%s: %s launches, %s kernels (launches.tsv: %d, %d; longest "
              "name %d characters)" % (d, h.get("launches"),
                                       h.get("kernels"), nl, nk, longest))
        if str(nl) != h.get("launches") or str(nk) != h.get("kernels"):
            print("  header disagrees with launches.tsv")
            bad += 1
    for k in ("launches", "measured_launches", "kernels", "instructions"):
        if ha.get(k) != hb.get(k):
            print("header %s: %s against %s" % (k, ha.get(k), hb.get(k)))
            bad += 1
    nvary = 0
    for key in sorted(set(ra) | set(rb)):
        if ra.get(key) != rb.get(key):
            varies = key in vary and key in ra and key in rb
            print("%s%s %s pc %s: %s against %s (executions, wavefronts, "
                  "ideal)" % ("varies from run to run: " if varies else "",
                              key[0][:60], key[2], key[3], ra.get(key),
                              rb.get(key)))
            nvary += varies
            bad += not varies
    if bad:
        print("DIFFERENT: %d findings over %d and %d instructions"
              % (bad, len(ra), len(rb)))
        return 1
    print("same: %d instructions (%d vary from run to run)"
          % (len(ra), nvary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
