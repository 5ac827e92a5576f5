#!/usr/bin/env python3
"""sass_forms.py LISTING[.gz] [BANKSCOPE] - the warpgroup MMAs of
bankscope-gmma's kernels (cuobjdump -sass, as scripts/gmma-sweep.sh keeps
it in gmma-sass.txt.gz) against what `bankscope gmma --sass` reads from
each, and which uniform registers the code writes before each one.

Every kernel is gm_kernel<fam, N, rs, ta, tb> (probes/gmma/gmma_dev.cuh:
fam 0 f16, 1 s8, 2 e4m3; A from registers; A, B MN-major), its template
arguments in its mangled name.  For each HGMMA/IGMMA/QGMMA the script
prints nothing when `bankscope gmma --format csv --sass TEXT` gives the
kernel's family, SS/RS, N and majors, and the instruction otherwise;
then a count of the forms (operands with registers numbered alike).

Descriptor registers: gdesc[URn] names four uniform registers.  Going
back from each instruction to the one before it, a branch or the
function's start, the script collects which of URn .. URn+3 are written
(R2UR, UMOV, ...), per SS and RS: where the code puts the descriptors
it passes (A in n, n+1 and B in n+2, n+3 if both are written anew).
Last, what `bankscope gmma --sass-file` says of each MMA's B descriptor
(its words traced back to constants, or why not), tallied.
BANKSCOPE defaults to build/bankscope.
"""
import collections
import gzip
import re
import subprocess
import sys
import tempfile

FAMS = {0: 'hgmma', 1: 'igmma', 2: 'qgmma'}
INSN = re.compile(r'/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;')
MMA = re.compile(r'^(@!?U?P\w+\s+)?[HIQ]GMMA\.')
NAME = re.compile(r'gm_kernelILi(\d+)ELi(\d+)ELi(\d+)ELi(\d+)ELi(\d+)EE')
GDESC = re.compile(r'gdesc\[UR(\d+)\]')
CONTROL = re.compile(r'^(@!?U?P\w+\s+)?(BRA|BRX|JMP|JMX|CALL|RET|EXIT|BSSY|'
                     r'BSYNC|BREAK|KILL)\b')
DEST_UR = re.compile(r'^(?:@!?U?P\w+\s+)?([A-Z0-9_.]+)\s+UR(\d+)\b')


def functions(path):
    op = gzip.open if path.endswith('.gz') else open
    fn, body = None, []
    with op(path, 'rt') as f:
        for line in f:
            if 'Function : ' in line:
                if fn:
                    yield fn, body
                fn, body = line.split('Function : ')[1].strip(), []
                continue
            m = INSN.search(line)
            if m and fn:
                body.append(m.group(2))
    if fn:
        yield fn, body


def written(body, i, base):
    """Offsets 0..3 from base of the URs written before body[i], back to
    the previous MMA, a branch or the start."""
    out = set()
    for t in reversed(body[:i]):
        if MMA.match(t) or CONTROL.match(t):
            break
        m = DEST_UR.match(t)
        if not m:
            continue
        d = int(m.group(2))
        width = 2 if '.64' in m.group(1) else 1
        for u in range(d, d + width):
            if base <= u < base + 4:
                out.add(u - base)
    return out


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit('usage: sass_forms.py LISTING[.gz] [BANKSCOPE]')
    cli = sys.argv[2] if len(sys.argv) == 3 else 'build/bankscope'
    cache = {}
    forms = collections.Counter()
    regs = collections.defaultdict(collections.Counter)
    nmma = nfn = bad = 0
    for fn, body in functions(sys.argv[1]):
        m = NAME.search(fn)
        if not m:
            continue
        nfn += 1
        fam, n, rs, ta, tb = (int(x) for x in m.groups())
        want = [FAMS[fam], 'rs' if rs else 'ss', str(n),
                'reg' if rs else ('mn' if ta else 'k'), 'mn' if tb else 'k']
        for i, t in enumerate(body):
            if not MMA.match(t):
                continue
            nmma += 1
            forms[re.sub(r'\bU?R\d+', lambda x: x.group(0).rstrip(
                '0123456789'), t)] += 1
            if t not in cache:
                p = subprocess.run([cli, 'gmma', '--format', 'csv', '--sass',
                                    t], capture_output=True, text=True)
                cache[t] = (p.stdout.splitlines()[1].split(',')[:5]
                            if p.returncode == 0 else ['rc %d: %s' % (
                                p.returncode, p.stderr.strip())])
            if cache[t] != want:
                bad += 1
                print('%s: %s: bankscope reads %s, the kernel is %s' %
                      (fn, t, ','.join(cache[t]), ','.join(want)))
            base = int(GDESC.search(t).group(1))
            w = written(body, i, base)
            regs[want[1]][' '.join('n+%d' % o for o in sorted(w)) or
                          'none'] += 1
    print('%d gm_kernel functions, %d warpgroup MMAs; bankscope gmma --sass '
          'gives the kernel\'s family, SS/RS, N and majors for %d, not for '
          '%d' % (nfn, nmma, nmma - bad, bad))
    print('forms (%d):' % len(forms))
    for f, c in sorted(forms.items()):
        print('  %5d  %s' % (c, f))
    for src in sorted(regs):
        print('%s: uniform registers of gdesc[URn] written since the last '
              'MMA, branch or start:' % src)
        for k, c in regs[src].most_common():
            print('  %5d  %s' % (c, k))
    op = gzip.open if sys.argv[1].endswith('.gz') else open
    with op(sys.argv[1], 'rt') as f, tempfile.NamedTemporaryFile(
            'w', suffix='.sass') as t:
        t.write(f.read())
        t.flush()
        p = subprocess.run([cli, 'gmma', '--sass-file', t.name],
                           capture_output=True, text=True)
    said = collections.Counter(
        re.sub(r"'.*", '', re.sub(r'0x[0-9a-f]+|\d+', '#', l.strip()))
        for l in p.stdout.splitlines() if l.startswith('    B ('))
    print('bankscope gmma --sass-file (exit status %d), B descriptors:' %
          p.returncode)
    for k, c in said.most_common():
        print('  %5d  %s' % (c, k))


if __name__ == '__main__':
    main()
