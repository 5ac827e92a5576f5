#!/usr/bin/env python3
"""sass_table.py KINDS.SASS KINDS-TABLE - the memory and control opcodes of
every kernel of research/explore/kinds.cu, from `cuobjdump -sass`.

KINDS-TABLE is `kinds --mode kinds` (id name width a line).  Prints CSV:
kernel,kind_id,kind,width,opcode,count - one row per opcode (with its
modifiers) that touches memory or control flow; ALU opcodes are left out.
"""
import collections
import csv
import re
import sys

KEEP = re.compile(r"^(LD|ST|ATOM|RED|LDGSTS|LDGDEPBAR|DEPBAR|BAR|BRA|BSSY|BSYNC|"
                  r"WARPSYNC|VOTE|POPC|MATCH|MEMBAR|FENCE|CCTL|YIELD|S2R|CS2R|EXIT)")
INSN = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)")


def main():
    kinds = {}
    for line in open(sys.argv[2]):
        i, name, width = line.split()
        kinds[int(i)] = (name, width)
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["kernel", "kind_id", "kind", "width", "opcode", "count"])
    fn, counts = None, collections.Counter()

    def flush():
        if fn is None:
            return
        m = re.search(r"_Z\d+(k_[a-z]+)ILi(\d+)E", fn)
        if not m:
            return
        kid = int(m.group(2))
        name, width = kinds.get(kid, ("?", "?"))
        for op, c in sorted(counts.items()):
            w.writerow([m.group(1), kid, name, width, op, c])

    for line in open(sys.argv[1]):
        m = re.search(r"Function : (\S+)", line)
        if m:
            flush()
            fn, counts = m.group(1), collections.Counter()
            continue
        m = INSN.search(line)
        if m and fn and KEEP.match(m.group(1)):
            counts[m.group(1)] += 1
    flush()


if __name__ == "__main__":
    main()
