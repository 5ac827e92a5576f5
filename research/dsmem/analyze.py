#!/usr/bin/env python3
"""analyze.py DSMEM.csv [TIMING-REPEAT.csv] - what rules bankscope-dsmem's rows follow.

Candidates include those sm_90 took later: remote=writes for stores (a
line's sectors, 2 for a line whose one sector has both 16-byte halves
written) and, for atomics, the most lanes on one word as dshared
wavefronts when more than ceil(lines / 4).  Every candidate is tried on
every op.

For each op and target, compares the counters with what the warp's
addresses touch (distinct 32-byte sectors, 128-byte lines, 4-byte words,
the most lanes on one word of a sector), and fits the remote cycles of
loads as a line in the sectors (and the local wavefronts, which say the
remote SM's bank conflicts) on the systematic rows only, then reports the
fit on the held-out random rows (holdout=1) it never saw.  Pure Python.
"""
import csv
import statistics
import sys
from collections import Counter, defaultdict


def rows_of(path):
    with open(path) as f:
        return list(csv.DictReader(l for l in f if not l.startswith('#')))


def geometry(r):
    w = int(r['width'])
    offs = [int(x) for x in r['offsets'].split() if x != '-']
    sectors, lines, words = set(), set(), Counter()
    for o in offs:
        for b in range(o, o + w):
            sectors.add(b // 32)
            lines.add(b // 128)
        for b in range(o - o % 4, o + w, 4):
            words[b // 4] += 1
    # the most lanes on one word, per sector, summed over sectors
    worst = defaultdict(int)
    for wd, n in words.items():
        worst[wd * 4 // 32] = max(worst[wd * 4 // 32], n)
    # remote=writes: per 128-byte line its sectors, 2 for a line whose one
    # sector has both 16-byte halves written
    per_line, halves = defaultdict(set), defaultdict(set)
    for o in offs:
        for b in range(o, o + w):
            per_line[b // 128].add(b // 32)
            halves[b // 128].add(b // 16)
    written = sum(2 if len(per_line[l]) == 1 and len(halves[l]) == 2
                  else len(per_line[l]) for l in per_line)
    return dict(lanes=len(offs), sectors=len(sectors), lines=len(lines),
                words=len(words), sector_passes=sum(worst.values()),
                max_on_word=max(words.values()) if words else 0,
                written=written)


def num(r, k):
    v = r.get(k, '')
    return float(v) if v not in ('', None) else float('nan')


def solve(a, b):
    """Least squares a x = b by the normal equations (small n)."""
    n = len(a[0])
    m = [[sum(a[k][i] * a[k][j] for k in range(len(a))) for j in range(n)] +
         [sum(a[k][i] * b[k] for k in range(len(a)))] for i in range(n)]
    for i in range(n):
        p = max(range(i, n), key=lambda r: abs(m[r][i]))
        m[i], m[p] = m[p], m[i]
        for r in range(n):
            if r != i and m[i][i]:
                f = m[r][i] / m[i][i]
                m[r] = [x - f * y for x, y in zip(m[r], m[i])]
    return [m[i][n] / m[i][i] for i in range(n)]


OPS = {'ld': 'op_ld', 'st': 'op_st', 'red.add.u32': 'op_atom',
       'atom.add.u32': 'op_atom'}
RD = 'l1tex__m_xbar2l1tex_read_sectors_mem_dshared_%s.sum'
WR = 'l1tex__m_l1tex2xbar_write_sectors_mem_dshared_%s.sum'
WF = 'l1tex__t_output_wavefronts_pipe_lsu_mem_dshared_%s.sum'
LWF = 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum'


def main():
    rows = rows_of(sys.argv[1])
    print('== %s: %d rows; %s' % (sys.argv[1], len(rows),
          dict(Counter(r['check'] for r in rows))))
    same = sum(r['sm0'] == r['sm1'] for r in rows if r['target'] == 'remote')
    print('remote rows whose two CTAs shared an SM: %d' % same)

    print('\n== which counters see which target (rows with a nonzero value)')
    keys = [k for k in rows[0] if k.endswith('.sum')]
    for k in keys:
        seen = {t: sum(num(r, k) > 0 for r in rows if r['target'] == t)
                for t in ('local', 'self', 'remote')}
        print('  %-62s local %4d  self %4d  remote %4d' %
              (k, seen['local'], seen['self'], seen['remote']))

    print('\n== remote rows: counter = a quantity of the addresses '
          '(systematic / held-out rows that agree)')
    cands = {
        'read sectors = distinct sectors': (RD, 'sectors', 1),
        'read sectors = 2 x sector passes': (RD, 'sector_passes', 2),
        'write sectors = distinct sectors': (WR, 'sectors', 1),
        'write sectors = 2 x sector passes': (WR, 'sector_passes', 2),
        'read sectors = writes rule': (RD, 'written', 1),
        'wavefronts = ceil(lines / 4)': (WF, 'lines4', 1),
        'wavefronts = max(ceil(lines / 4), most on a word)': (WF, 'wf_rmw',
                                                             1),
    }
    for (op, w), grp in sorted(group(rows, 'remote').items()):
        line = []
        for lab, (metric, q, f) in cands.items():
            ok = [0, 0, 0, 0]
            for r in grp:
                g = geometry(r)
                g['lines4'] = -(-g['lines'] // 4)
                g['wf_rmw'] = max(g['lines4'], g['max_on_word'])
                h = r['holdout'] == '1'
                v = num(r, metric % OPS[op])
                ok[2 * h + 1] += 1
                ok[2 * h] += v == f * g[q]
            line.append('%s %d/%d, %d/%d' % (lab, ok[0], ok[1], ok[2], ok[3]))
        print('  %s %s:\n    ' % (op, w) + '\n    '.join(line))

    print('\n== remote load cycles: fitted on systematic rows, judged on '
          'held-out ones')
    local = {(r['op'], r['name']): r for r in rows if r['target'] == 'local'}
    for feats in (('sectors',), ('sectors', 'local_wf'),
                  ('sectors', 'local_wf', 'lines')):
        fit_rows, test_rows = [], []
        for r in rows:
            if r['op'] != 'ld' or r['target'] != 'remote':
                continue
            g = geometry(r)
            g['local_wf'] = num(local[('ld', r['name'])], LWF)
            x = [1.0] + [float(g[f]) for f in feats]
            (test_rows if r['holdout'] == '1' else fit_rows).append(
                (x, float(r['cycles_median']), r['name']))
        c = solve([x for x, _, _ in fit_rows], [y for _, y, _ in fit_rows])

        def err(rs):
            e = [abs(sum(a * b for a, b in zip(c, x)) - y) for x, y, _ in rs]
            return max(e), statistics.median(e)
        fe, te = err(fit_rows), err(test_rows)
        print('  cycles = %.1f + %s: systematic max %.1f median %.1f; '
              'held-out max %.1f median %.1f (%d rows)' %
              (c[0], ' + '.join('%.2f x %s' % (b, f)
                                for b, f in zip(c[1:], feats)),
               fe[0], fe[1], te[0], te[1], len(test_rows)))

    print('\n== remote cycles of each op against the sectors its rule '
          'moves (ld, st: distinct sectors; red, atom: 2 x passes), fitted '
          'on systematic rows, judged on held-out ones')
    for op in ('ld', 'st', 'red.add.u32', 'atom.add.u32'):
        fit_rows, test_rows = [], []
        for r in rows:
            if r['op'] != op or r['target'] != 'remote':
                continue
            g = geometry(r)
            moved = g['sectors'] if op in ('ld', 'st') else 2 * g['sector_passes']
            (test_rows if r['holdout'] == '1' else fit_rows).append(
                ([1.0, float(moved)], float(r['cycles_median']), r['name']))
        c = solve([x for x, _, _ in fit_rows], [y for _, y, _ in fit_rows])
        e = [abs(c[0] + c[1] * x[1] - y) for x, y, _ in fit_rows]
        t = [abs(c[0] + c[1] * x[1] - y) for x, y, _ in test_rows]
        print('  %-13s cycles = %.1f + %.2f x moved: systematic max %.1f '
              'median %.1f; held-out max %.1f median %.1f (%d rows)' %
              (op, c[0], c[1], max(e), statistics.median(e), max(t),
               statistics.median(t), len(t)))

    if len(sys.argv) > 2:
        other = {(r['op'], r['width'], r['name'], r['target']): r
                 for r in rows_of(sys.argv[2])}
        d = [abs(float(r['cycles_median']) - float(
            other[(r['op'], r['width'], r['name'], r['target'])]
            ['cycles_median'])) for r in rows
             if (r['op'], r['width'], r['name'], r['target']) in other]
        print('\n== repeat run: %d rows, cycles differ by at most %.2f, '
              '%d by more than 0.5' % (len(d), max(d),
                                       sum(x > 0.5 for x in d)))


def group(rows, target):
    g = defaultdict(list)
    for r in rows:
        if r['target'] == target:
            g[(r['op'], int(r['width']))].append(r)
    return g


if __name__ == '__main__':
    main()
