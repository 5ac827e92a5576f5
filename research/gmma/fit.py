#!/usr/bin/env python3
"""fit.py DIR - the wgmma rules of sm_90 from a bankscope-gmma run, and
every figure docs/probes/gmma.md quotes from it.

DIR holds what scripts/gmma-sweep.sh left (data/h200/gmma-20261202/):
gmma.csv, metrics-available.txt and gmma-ncu.csv.  Pure Python; it
prints, in order:

 1. counters: each candidate metric of probes/metrics.h, accepted (its
    one-pass group) or refused by CUPTI on the device, and the columns
    of gmma.csv that hold no number;
 2. the fit, on the systematic rows only (holdout 0): per family and
    SS/RS, every (wave_bytes, a_copies, b_copies) of the rule format,
    wavefronts = a_copies x ceil(A / wave_bytes) + b_copies x ceil(B /
    wave_bytes), that gives every row's measured wavefronts exactly,
    and of those the ones whose copies also give the measured bank
    reads (copies x bytes / 4: a byte read twice is read from its bank
    twice); whether the wavefronts of one family, SS/RS and N differ
    with the layout, the majors or the warpgroups; and the bytes;
 3. the held-out rows (holdout 1), judged once by the rule chosen in 2;
 4. the other counters, against the bytes and wavefronts;
 5. cycles per wgmma, per family, SS/RS, N and warpgroups (every row:
    nothing is fitted to them), and a line tp = base + slope x N fitted
    on the systematic single-warpgroup rows, judged on the held-out N;
 6. Nsight Compute's counts (gmma-ncu.csv, the --quick rows' first
    launches) against the probe's own, per wgmma, on the same rows.
"""
import collections
import csv
import math
import os
import statistics
import sys

WF = 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum'
BY = 'smsp__sass_data_bytes_mem_shared_op_gmma.sum'
INST = 'smsp__sass_inst_executed_op_shared_gmma.sum'
READS = 'l1tex__data_bank_reads.sum'
TIMES = ('lat_cyc_med', 'tp_cyc_med', 'lat_tma_cyc_med', 'tp_tma_cyc_med')


def rows_of(path):
    with open(path) as f:
        return list(csv.DictReader(l for l in f if not l.startswith('#')))


def num(r, c):
    v = r.get(c, '')
    return float(v) if v not in ('', None) else None


def fmt(x):
    return ('%d' % x) if x == int(x) else ('%.4g' % x)


def span(vals):
    """'v' when all equal, else 'min..max (k values)'."""
    s = sorted(set(vals))
    if len(s) == 1:
        return fmt(s[0])
    return '%s..%s (%d values)' % (fmt(s[0]), fmt(s[-1]), len(s))


# ---- 1. counters ---------------------------------------------------------

def counters(d, rows):
    print('## 1. counters (metrics-available.txt, gmma.csv)')
    acc, ref = [], []
    with open(os.path.join(d, 'metrics-available.txt')) as f:
        for l in f:
            if not l.startswith('candidate '):
                continue
            name, rest = l.split()[1], l.split(None, 2)[2].strip()
            (acc if rest.startswith('group ') else ref).append((name, rest))
    print('accepted: %d of %d candidates' % (len(acc), len(acc) + len(ref)))
    for name, g in acc:
        print('  %-80s %s' % (name, g))
    print('refused: %d' % len(ref))
    for name, why in ref:
        print('  %s: %s' % (name, why))
    cols = [c for c in rows[0] if '__' in c]
    empty = [c for c in cols if all(r[c] == '' for r in rows)]
    print('gmma.csv: %d counter columns, %d empty in every row: %s' %
          (len(cols), len(empty), ', '.join(empty) or '-'))
    with open(os.path.join(d, 'metrics-available.txt')) as f:
        n = sum(1 for l in f if l.startswith('counter '))
    print('base metrics CUPTI lists for the chip: %d' % n)


# ---- 2. the fit --------------------------------------------------------------

def wavefronts(rule, a, b):
    w, ac, bc = rule
    return ac * math.ceil(a / w) + bc * math.ceil(b / w)


CANDIDATES = [(w, ac, bc) for w in (16, 32, 64, 128, 256, 512, 1024)
              for ac in (1, 2, 3, 4) for bc in (1, 2, 3, 4)]


def fit(rows):
    print('\n## 2. the fit, on the systematic rows (holdout 0)')
    sysr = [r for r in rows if r['holdout'] == '0']
    ok = [r for r in sysr if r['check'] == 'ok' and num(r, WF) is not None]
    print('systematic rows: %d, checked ok with counters: %d' %
          (len(sysr), len(ok)))
    chosen = {}
    groups = collections.defaultdict(list)
    for r in ok:
        groups[(r['family'], r['src'])].append(r)
    for key in sorted(groups):
        g = groups[key]
        ns = sorted({int(r['n']) for r in g})
        fits = []
        for c in CANDIDATES:
            if key[1] == 'rs' and c[1] != 1:
                continue        # no A: a_copies says nothing
            if all(wavefronts(c, int(r['a_bytes']), int(r['b_bytes'])) ==
                   num(r, WF) for r in g):
                fits.append(c)
        # bank reads: each copy reads its bytes from the banks again
        reads = []
        for c in fits:
            if all(num(r, READS) == (c[1] * int(r['a_bytes']) +
                                     c[2] * int(r['b_bytes'])) / 4
                   for r in g):
                reads.append(c)
        print('%s %s: %d rows, N %s; rules giving every row\'s wavefronts: '
              '%s; of those, giving the bank reads too: %s' %
              (key[0], key[1], len(g), ','.join(map(str, ns)),
               ' '.join('%d/%d/%d' % c for c in fits) or 'none',
               ' '.join('%d/%d/%d' % c for c in reads) or 'none'))
        if len(reads) == 1:
            chosen[key] = reads[0]
    print('(wave_bytes/a_copies/b_copies; rs rules: a_copies 1, unused)')
    # does anything but family, SS/RS and N move the wavefronts?
    by_n = collections.defaultdict(set)
    what = collections.defaultdict(set)
    for r in ok:
        k = (r['family'], r['src'], int(r['n']))
        by_n[k].add(num(r, WF))
        what[k].add((r['a_layout'], r['b_layout'], r['a_major'],
                     r['b_major'], r['nwg']))
    moved = [k for k in by_n if len(by_n[k]) > 1]
    print('(family, SS/RS, N) groups: %d; with more than one wavefront '
          'count among their layouts, majors and warpgroups: %d' %
          (len(by_n), len(moved)))
    for k in sorted(by_n):
        print('  %s %s n%-3d %2d variants (layout x majors x warpgroups): '
              'wavefronts %s' % (k[0], k[1], k[2], len(what[k]),
                                 span(by_n[k])))
    nb = sum(num(r, BY) == int(r['a_bytes']) + int(r['b_bytes'])
             for r in ok)
    print('bytes (%s) = A + B of the shape: %d of %d' % (BY, nb, len(ok)))
    return chosen


# ---- 3. held out -----------------------------------------------------------------

def held_out(rows, chosen):
    print('\n## 3. the held-out rows (holdout 1), judged by the rules of 2')
    h = [r for r in rows if r['holdout'] == '1']
    ok = [r for r in h if r['check'] == 'ok' and num(r, WF) is not None]
    print('held-out rows: %d, checked ok with counters: %d' % (len(h),
                                                             len(ok)))
    kinds = collections.Counter()
    for r in h:
        k = []
        if r['n'] in ('24', '96', '192'):
            k.append('N %s' % r['n'])
        if r['kblock'] != '0':
            k.append('k-block %s' % r['kblock'])
        if r['gap'] != '0':
            k.append('gapped interleave')
        if r['a_layout'] not in ('-', r['b_layout']):
            k.append('A %s, B %s' % (r['a_layout'], r['b_layout']))
        if r['nwg'] != '1':
            k.append('%s warpgroups' % r['nwg'])
        kinds[', '.join(k)] += 1
    for k, n in sorted(kinds.items()):
        print('  %2d rows: %s' % (n, k))
    wf_ok = by_ok = 0
    for r in ok:
        c = chosen.get((r['family'], r['src']))
        p = wavefronts(c, int(r['a_bytes']), int(r['b_bytes'])) if c else None
        wf_ok += p == num(r, WF)
        by_ok += num(r, BY) == int(r['a_bytes']) + int(r['b_bytes'])
        if p != num(r, WF):
            print('  off: %s wavefronts %s, rule %s' % (r['name'],
                                                       fmt(num(r, WF)), p))
    print('wavefronts as the rule: %d of %d; bytes as the shape: %d of %d' %
          (wf_ok, len(ok), by_ok, len(ok)))


# ---- 4. the other counters --------------------------------------------------------

def others(rows):
    print('\n## 4. the other counters, per warpgroup instruction, every row')
    ok = [r for r in rows if r['check'] == 'ok' and num(r, WF) is not None]
    n = len(ok)

    def count(label, f):
        good = [r for r in ok if f(r)]
        bad = [r for r in ok if not f(r)]
        print('  %-72s %3d of %d' % (label, len(good), n))
        for r in bad[:3]:
            print('      not: %s' % r['name'])

    e = lambda r, c: num(r, c)       # noqa: E731
    wf = lambda r: num(r, WF)        # noqa: E731
    by = lambda r: num(r, BY)        # noqa: E731
    count('l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma = 0',
          lambda r: e(r, 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma.sum') == 0)
    count('l1tex__data_bank_conflicts_pipe_lsu_mem_shared (every op) = 0',
          lambda r: e(r, 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum') == 0)
    count('l1tex__lsu_writeback_active_mem_shared_op_gmma = wavefronts',
          lambda r: e(r, 'l1tex__lsu_writeback_active_mem_shared_op_gmma.sum') == wf(r))
    count('sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_gmma = wavefronts',
          lambda r: e(r, 'sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum') == wf(r))
    count('l1tex__data_pipe_lsu_wavefronts_mem_shared (every op) = wavefronts',
          lambda r: e(r, 'l1tex__data_pipe_lsu_wavefronts_mem_shared.sum') == wf(r))
    dev = [abs(e(r, 'l1tex__data_pipe_lsu_wavefronts_mem_shared.sum') - wf(r))
           for r in ok]
    print('      (every op - gmma: at most %.3g a wgmma, %.3g a launch of '
          '64 x warpgroups: not wgmma reads)' %
          (max(dev), max(d * 64 * int(r['nwg']) for d, r in zip(dev, ok))))
    count('l1tex__data_bank_reads = bytes / 4',
          lambda r: e(r, READS) == by(r) / 4)
    count('l1tex__data_bank_writes = 0',
          lambda r: e(r, 'l1tex__data_bank_writes.sum') == 0)
    count('wavefronts x 128 = bytes', lambda r: wf(r) * 128 == by(r))
    for c in ('l1tex__lsuin_requests_op_gmma.sum',
              'smsp__l1tex_lsuin_requests_op_gmma.sum',
              'smsp__inst_executed_pipe_tensor_op_gmma.sum', INST):
        count('%s = 4 (a warp each)' % c.replace('.sum', ''),
              lambda r, c=c: e(r, c) == 4)
    t1 = 'sm__pipe_tensor_op_hmma_type_hmma_hgmma_qgmma_cycles_active.sum'
    t2 = 'sm__pipe_tensor_type_hmma_hgmma_qgmma_imma_igmma_bmma_bgmma_cycles_active.sum'
    count('%s = 2 N (hgmma, qgmma; igmma below)' % t1.replace('.sum', ''),
          lambda r: r['family'] == 'igmma' or e(r, t1) == 2 * int(r['n']))
    count('%s = 2 N' % t2.replace('.sum', ''),
          lambda r: e(r, t2) == 2 * int(r['n']))
    ig = sorted({(int(r['n']), e(r, t1)) for r in ok if r['family'] == 'igmma'})
    print('  igmma: %s by N: %s' % (t1.replace('.sum', ''),
                                    ', '.join('n%d %s' % (a, fmt(b))
                                              for a, b in ig)))
    st = [e(r, 'smsp__warps_issue_stalled_gmma.sum') for r in ok]
    print('  smsp__warps_issue_stalled_gmma: %s..%s, median %s (a '
          'difference of two launches: noise about 0)' %
          (fmt(min(st)), fmt(max(st)), fmt(statistics.median(st))))
    ce = [e(r, 'sm__cycles_elapsed.max') for r in ok]
    print('  sm__cycles_elapsed.max: %s..%s (the max of a difference: '
          'meaningless here)' % (fmt(min(ce)), fmt(max(ce))))
    tma = [c for c in ok[0] if 'tma' in c and c.endswith('.sum')]
    nz = sum(any(e(r, c) for c in tma) for r in ok)
    print('  the %d TMA counters: rows with any not 0: %d (the counted '
          'launches run no TMA warp)' % (len(tma), nz))


# ---- 5. cycles -----------------------------------------------------------------------

def cycles(rows):
    print('\n## 5. cycles per wgmma (clock64; medians of 5, per row), '
          'every row checked ok')
    ok = [r for r in rows if r['check'] == 'ok']
    g = collections.defaultdict(list)
    for r in ok:
        g[(r['family'], r['src'], int(r['n']), int(r['nwg']))].append(r)
    print('  %-6s %-2s %4s %2s %4s | %-20s %-20s | %-20s %-20s | %-6s %s' %
          ('family', 'AB', 'N', 'wg', 'rows', 'lat', 'tp', 'lat+tma',
           'tp+tma', 'tp-wN/2', 'tp+tma/tp'))
    for k in sorted(g):
        rs = g[k]
        cells = []
        for c in TIMES:
            v = [num(r, c) for r in rs]
            m = statistics.median(v)
            cells.append('%6.1f [%5.1f,%5.1f]' % (m, min(v), max(v)))
        tp = statistics.median(num(r, 'tp_cyc_med') for r in rs)
        ratio = statistics.median(num(r, 'tp_tma_cyc_med') /
                                  num(r, 'tp_cyc_med') for r in rs)
        print('  %-6s %-2s %4d %2d %4d | %s %s | %s %s | %6.1f %.3f' %
              (k[0], k[1], k[2], k[3], len(rs), cells[0], cells[1],
               cells[2], cells[3], tp - k[3] * k[2] / 2, ratio))
    print('  (each cell: the median over the rows of the row medians '
          '[lowest, highest row]; tp-wN/2: tp less warpgroups x N / 2, '
          'the tensor pipe\'s cycles a wgmma keeps each of the 4 '
          'sub-partitions busy (2 N over the SM, section 4))')
    # latency against N: a line on the systematic one-warpgroup rows
    for src in ('ss', 'rs'):
        for c in ('lat_cyc_med', 'lat_tma_cyc_med'):
            pts = [(int(r['n']), num(r, c)) for r in ok
                   if r['holdout'] == '0' and r['nwg'] == '1' and
                   r['src'] == src]
            n = len(pts)
            mx = sum(x for x, _ in pts) / n
            my = sum(y for _, y in pts) / n
            s = (sum((x - mx) * (y - my) for x, y in pts) /
                 sum((x - mx) ** 2 for x, _ in pts))
            b = my - s * mx
            res = [y - (b + s * x) for x, y in pts]
            test = [num(r, c) - (b + s * int(r['n'])) for r in ok
                    if r['holdout'] == '1' and r['nwg'] == '1' and
                    r['src'] == src]
            print('  %s %-15s = %6.2f + %.4f x N, least squares on %3d '
                  'systematic one-warpgroup rows: residual %+.1f..%+.1f; '
                  'held out (%d rows) %+.1f..%+.1f' %
                  (src, c, b, s, n, min(res), max(res), len(test),
                   min(test), max(test)))
    # the figures docs/model.md quotes
    med = {k: statistics.median(num(r, 'tp_cyc_med') for r in g[k])
           for k in g}
    for src in ('ss', 'rs'):
        over = [med[k] - k[2] / 2 for k in med
                if k[0] == 'hgmma' and k[1] == src and k[3] == 1 and
                k[2] >= 64]
        print('  hgmma %s, one warpgroup, N >= 64: tp - N/2 = %.1f..%.1f' %
              (src, min(over), max(over)))
    d = [(k[2], med[k] - med[('hgmma', 'rs', k[2], 1)]) for k in med
         if k[0] == 'hgmma' and k[1] == 'ss' and k[3] == 1 and
         ('hgmma', 'rs', k[2], 1) in med]
    print('  hgmma one warpgroup, tp SS - RS by N: %s' %
          ', '.join('n%d %.1f' % x for x in sorted(d)))
    for fam in ('igmma', 'qgmma'):
        for c in ('lat_cyc_med', 'tp_cyc_med'):
            m = {k: statistics.median(num(r, c) for r in g[k]) for k in g}
            d = [m[k] - m[('hgmma',) + k[1:]] for k in m
                 if k[0] == fam and ('hgmma',) + k[1:] in m]
            print('  %s - hgmma, %s, same SS/RS, N and warpgroups: '
                  '%+.1f..%+.1f (%d groups)' % (fam, c, min(d), max(d),
                                                 len(d)))
    low = {k: med[k] for k in med if k[0] == 'hgmma' and k[3] == 1 and
           k[2] < 64}
    for src in ('ss', 'rs'):
        v = [low[k] for k in low if k[1] == src]
        print('  hgmma %s, one warpgroup, N < 64: tp %.1f..%.1f' %
              (src, min(v), max(v)))
    for w in ('1', '2'):
        for a, b in (('lat_tma_cyc_med', 'lat_cyc_med'),
                     ('tp_tma_cyc_med', 'tp_cyc_med')):
            q = [num(r, a) / num(r, b) for r in ok if r['nwg'] == w]
            print('  %s warpgroup(s), %s / %s over the rows: %.3f..%.3f, '
                  'median %.3f' % (w, a, b, min(q), max(q),
                                   statistics.median(q)))
    rate = [num(r, 'tma_B_per_clk') for r in ok]
    print('  the TMA warp beside moved %.1f..%.1f bytes a clock (median '
          '%.1f)' % (min(rate), max(rate), statistics.median(rate)))


# ---- 6. Nsight Compute ---------------------------------------------------------------

QUICK = (
    # make_rows(1) of probes/gmma/gmma.cu, in its order
    ['hgmma_ss_n128_a%s_k_b%s_k_wg1', 'hgmma_rs_n64_areg_b%s_mn_wg1'],
    'hgmma_ss_n256_asw128_mn_bsw128_mn_wg2',
    'igmma_ss_n128_asw128_k_bsw128_k_wg1',
)


def quick_rows():
    out = []
    for lay in ('inter', 'sw128', 'sw64', 'sw32'):
        out.append(QUICK[0][0] % (lay, lay))
        out.append(QUICK[0][1] % lay)
    return out + [QUICK[1], QUICK[2]]


def ncu(d, rows):
    print('\n## 6. Nsight Compute (gmma-ncu.csv) against the probe')
    with open(os.path.join(d, 'gmma-ncu.csv')) as f:
        lines = [l for l in f if not l.startswith('==')]
    t = list(csv.reader(lines))
    head = t[0]
    data = [dict(zip(head, r)) for r in t[2:]]
    byname = {r['name']: r for r in rows}
    q = quick_rows()
    metrics = [c for c in head if c.endswith('.sum')]
    asked = [l for l in open(os.path.join(os.path.dirname(
        os.path.abspath(__file__)), '../../scripts/gmma-sweep.sh'))
        if '--metrics l1tex' in l][0].split('--metrics ')[1].split()[0]
    asked = asked.split(',')
    print('ncu --metrics of scripts/gmma-sweep.sh: %d; in the file: %d '
          '(%s)' % (len(asked), sum(m in head for m in asked),
                    ', '.join(m[:-4] for m in asked)))
    print('  its columns with .sum: %s' % ', '.join(m[:-4] for m in metrics))
    print('launches: %d; the first %d are the check launches of the %d '
          '--quick rows (one wgmma a warpgroup), the rest timing launches '
          '(clock64 loops) of the first rows' % (len(data), len(q), len(q)))

    def v(r, c):
        return float(r[c].replace(',', ''))

    agree = collections.Counter()
    total = 0
    for i, r in enumerate(data):
        row = byname[q[i] if i < len(q) else q[(i - len(q)) // 2]]
        nwg = int(row['nwg'])
        tma = r['Block Size'].startswith('(160') or (
            nwg == 2 and r['Block Size'].startswith('(288'))
        # wgmmas a warpgroup: the warp instructions / 4 warps / nwg
        per = v(r, INST) / 4 / nwg
        got = {m: v(r, m) / per / nwg for m in (WF, BY, INST)}
        got[INST] = v(r, INST) / per / nwg
        want = {m: num(row, m) for m in (WF, BY, INST)}
        same = all(got[m] == want[m] for m in got)
        total += 1
        agree[same] += 1
        print('  %2s %-34s %-40s %4s %5d wgmma/wg: wavefronts %s (probe %s), '
              'bytes %s (%s), inst %s (%s)%s' %
              (r['ID'], r['Kernel Name'].split('(')[0].replace('void ', ''),
               row['name'], 'tma' if tma else '', per,
               fmt(got[WF]), fmt(want[WF]), fmt(got[BY]), fmt(want[BY]),
               fmt(got[INST]), fmt(want[INST]), '' if same else '  DIFFER'))
    print('per wgmma, ncu = probe in wavefronts, bytes and instructions: %d '
          'of %d launches' % (agree[True], total))
    for i in range(len(q)):
        r = data[i]
        row = byname[q[i]]
        reads = v(r, READS)
        mine = num(row, READS) * int(row['nwg'])
        print('  check launch %2d: l1tex__data_bank_reads %s for the whole '
              'kernel, of which the wgmma %s (probe); data_bank_writes %s; '
              'sm__pipe_tma_cycles_active %s' %
              (i, fmt(reads), fmt(mine), fmt(v(r, 'l1tex__data_bank_writes.sum')),
               fmt(v(r, 'sm__pipe_tma_cycles_active.sum'))))


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: fit.py DIR (data/h200/gmma-20261202)')
    d = sys.argv[1]
    rows = rows_of(os.path.join(d, 'gmma.csv'))
    print('# research/gmma/fit.py %s: %d wgmma rows' % (d, len(rows)))
    counters(d, rows)
    chosen = fit(rows)
    held_out(rows, chosen)
    others(rows)
    cycles(rows)
    ncu(d, rows)


if __name__ == '__main__':
    main()
