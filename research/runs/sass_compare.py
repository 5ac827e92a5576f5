#!/usr/bin/env python3
"""sass_compare.py OLD.sass NEW.sass - the machine code of two builds of
probes/kernels.cu, kernel by kernel (cuobjdump -sass output).

Prints, for every kernel of OLD, whether NEW has it with the very same
instructions (addresses and encodings included), then a count of the
shared-memory opcodes of every kernel of NEW that OLD lacks, by kernel
template and accessor: what `make sass` lists, split per kernel, so that
a reader can see e.g. 8 LDSM in each ldmatrix k_throughput.  Exit 1 when
a kernel of OLD differs or is missing in NEW.
"""
import re
import sys
from collections import Counter

OPS = re.compile(r"\b((?:LDSM|STSM|LDS|STS|ATOMS|LDGSTS)(?:\.[A-Z0-9]+)*)\b")


def functions(path):
    """{mangled name: [instruction lines]} of a cuobjdump -sass listing."""
    out, name = {}, None
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*Function : (\S+)", line)
            if m:
                name = m.group(1)
                out[name] = []
            elif name and re.match(r"\s*/\*[0-9a-f]{4,}\*/", line):
                out[name].append(line.strip())
            elif name and re.match(r"\s*/\* 0x[0-9a-f]+ \*/", line):
                out[name].append(line.strip())
    return out


def main():
    old, new = functions(sys.argv[1]), functions(sys.argv[2])
    same = [n for n in old if old[n] == new.get(n)]
    bad = [n for n in old if n not in same]
    print(f"sass: {len(old)} kernels in the old build, {len(new)} in the new; "
          f"{len(same)} of the old identical in the new (instructions and "
          f"encodings), {len(bad)} not")
    for n in bad:
        print(f"  DIFFERS or missing: {n}")
    for n in sorted(new):
        if n in old:
            continue
        c = Counter(m.group(1) for l in new[n] for m in OPS.finditer(l))
        ops = ", ".join(f"{k} {v}" for k, v in sorted(c.items()))
        print(f"  {n}: {ops}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
