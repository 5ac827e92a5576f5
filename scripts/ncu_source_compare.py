#!/usr/bin/env python3
"""ncu_source_compare.py PROFILE.csv NCU_SRC.csv[.gz] - bankscope profile's
per-instruction counts (`profile --format csv`) against Nsight Compute's
SourceCounters of the same launches (`ncu -i REP --page source
--print-source sass --csv`), joined by kernel name and pc offset:
executions, wavefronts and ideal wavefronts.  Prints one summary line;
each instruction that differs or is missing goes to stderr.  (The
steering evidence's cmp_ncu.py, kept here so scripts/explain-bench.sh can
run it.)"""
import csv, gzip, sys, re

def norm(name):
    # the kernel's name without its parameters: ncu and c++filt spell const and spaces differently
    name = re.sub(r'^void\s+', '', name.strip())
    name = re.sub(r'\((?:unsigned )?(?:int|long|char|short|bool)\)(-?\d+)', r'\1', name)
    name = re.sub(r'\b(\d+)u\b', r'\1', name)
    name = re.sub(r'\bfalse\b', '0', re.sub(r'\btrue\b', '1', name))
    name = name.replace('(anonymousnamespace)', '<unnamed>').replace('(anonymous namespace)', '<unnamed>')
    depth = 0
    for i, c in enumerate(name):
        if c == '<': depth += 1
        elif c == '>': depth -= 1
        elif c == '(' and depth == 0: name = name[:i]; break
    return re.sub(r'\s+', '', name)

def profile_rows(path):
    lines = open(path, errors='replace').read().splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith('kernel,function'))
    body = [l for l in lines[start:] if l.strip() and not re.match(r'^[0-9.]+ rc=', l)]
    out = {}
    for r in csv.DictReader(body):
        out[(norm(r['kernel']), int(r['pc'], 16))] = r
    return out

def ncu_rows(path):
    op = gzip.open if path.endswith('.gz') else open
    out, seen, k, h, base = {}, set(), None, None, None
    for r in csv.reader(op(path, 'rt', errors='replace')):
        if r and r[0] == 'Kernel Name':
            k = norm(r[1]); h = None; base = None
            continue
        if r and r[0] == 'Address':
            h = r; continue
        if h and k and len(r) == len(h):
            d = dict(zip(h, r))
            a = int(d['Address'], 16)
            if base is None:
                base = a
                if k in seen: k = None; continue   # a second listing of a kernel already read
                seen.add(k)
            out[(k, a - base)] = d
    return out

p = profile_rows(sys.argv[1]); n = ncu_rows(sys.argv[2])
num = lambda s: float(str(s).replace(',', '') or 0)
ok = bad = missing = 0
for key, r in p.items():
    d = n.get(key)
    if d is None:
        missing += 1; print('no ncu row', key, file=sys.stderr); continue
    pw, nw = num(r['wavefronts']), num(d.get('L1 Wavefronts Shared', 0))
    pe, ne = num(r['executions']), num(d.get('Instructions Executed', 0))
    pi, ni = num(r['ideal']), num(d.get('L1 Wavefronts Shared Ideal', 0))
    if pw == nw and pe == ne and pi == ni: ok += 1
    else:
        bad += 1; print('differs', key, r['sass'], 'profile', pe, pw, pi, 'ncu', ne, nw, ni, file=sys.stderr)
# instructions ncu gives shared wavefronts that the profile does not list
extra = sum(1 for key, d in n.items() if key[0] in {k for k, _ in p} and key not in p and num(d.get('L1 Wavefronts Shared', 0)) > 0)
kern_p = {k for k, _ in p}; kern_n = {k for k, _ in n if any(num(d.get('L1 Wavefronts Shared', 0)) > 0 for kk, d in n.items() if kk[0] == k)}
print(f'{ok} of {len(p)} profile rows equal ncu (executions, wavefronts, ideal); {bad} differ; {missing} not in ncu; '
      f'{extra} ncu rows with shared wavefronts missing from profile; kernels with shared wavefronts: ncu {len(kern_n)}, profile {len(kern_p)}, ncu-only {len(kern_n - kern_p)}')
