#!/usr/bin/env python3
"""width_latency.py FIT.csv [MORE.csv ...] - does a remote load's latency
depend on its width, and what do stores' issue intervals follow?

Loads (issue 30: one line for every width predicted the 16-byte loads
short).  The remote load rows of FIT.csv (bankscope-dsmem's layout) are
split by its own holdout column, written by the probe before any fit:
the systematic rows (holdout=0: strides 1 to 33, a broadcast, lanes
sharing words, partial warps and the like, 17 or 18 a width) are fitted,
the held-out ones (holdout=1: 16 a width, lanes at random offsets in
windows of 128 bytes to the whole window, drawn by the probe with a
fixed seed, docs/probes/dsmem.md) only judged.  Two models, each by least squares
on the systematic rows, cycles = base + slope x sectors (the distinct
32-byte sectors of the lanes' bytes, what remote=sectors moves):

  one line    every width together (sm_90's dsmem.ld rules before)
  per width   a line for each of 1, 2, 4, 8 and 16 bytes

Each is then judged, once and untuned, on the held-out rows of FIT.csv
and of every MORE.csv (the same points measured again, or on another
GPU; a file without held-out rows, as the designed wavefront run, is
judged whole): per width the rows, the error predicted - measured (min,
median, max), and the rows off by more than 5 % of the measured cycles.

Stores.  The rows give the issue interval of back-to-back remote stores
(cycles_median) and, per store, the sectors that crossed the network in
the store pipe's part (l1tex__m_l1tex2xbar_write_sectors_mem_dshared_op_st)
and the dshared sectors (l1tex__t_sectors_pipe_lsu_mem_dshared).  A line
in each is fitted on the systematic rows and its root-mean-square error
printed there and on the held-out rows.  The total crossbar write sectors
(l1tex__m_l1tex2xbar_write_sectors_mem_dshared.sum, every op together)
is fitted too when the file has that column; bankscope-dsmem recorded it
from counters group 7 on (probes/dsmem/dsmem.cu), so the committed runs
of 2026-11-27/28 lack it and the script says so.  Pure Python.
"""
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from analyze import geometry, rows_of, solve  # noqa: E402

WIDTHS = (1, 2, 4, 8, 16)
ST_OP = 'l1tex__m_l1tex2xbar_write_sectors_mem_dshared_op_st.sum'
ST_ALL = 'l1tex__m_l1tex2xbar_write_sectors_mem_dshared.sum'
T_SECTORS = 'l1tex__t_sectors_pipe_lsu_mem_dshared.sum'


def loads(path):
    """(width, sectors, cycles, held out) of each remote load row."""
    return [(int(r['width']), geometry(r)['sectors'],
             float(r['cycles_median']), r['holdout'] == '1')
            for r in rows_of(path)
            if r['op'] == 'ld' and r['target'] == 'remote']


def line(points):
    return solve([[1.0, float(x)] for x, _ in points],
                 [y for _, y in points])


def judge(name, rows, models):
    held = [r for r in rows if r[3]] or rows
    what = 'held-out' if any(r[3] for r in rows) else 'every (none held out)'
    print('\n%s: %s remote load rows' % (name, what))
    for w in WIDTHS:
        t = [r for r in held if r[0] == w]
        if not t:
            continue
        out = []
        for label, model in models:
            b, s = model(w)
            e = [b + s * x - y for _, x, y, _ in t]
            far = sum(abs(d) > 0.05 * y for d, (_, _, y, _) in zip(e, t))
            out.append('%s %+6.1f %+6.1f %+6.1f, %2d beyond 5 %%' %
                       (label, min(e), statistics.median(e), max(e), far))
        print('  %2d B, %3d rows: %s' % (w, len(t), ';  '.join(out)))


def rms(e):
    return math.sqrt(sum(x * x for x in e) / len(e)) if e else float('nan')


def stores(path):
    rows = [r for r in rows_of(path)
            if r['op'] == 'st' and r['target'] == 'remote']
    print('\n%s: remote store issue interval, a line in each count '
          '(fitted on the %d systematic rows; rms there and on the %d '
          'held-out ones)' % (path, sum(r['holdout'] == '0' for r in rows),
                              sum(r['holdout'] == '1' for r in rows)))
    counts = [('_op_st write sectors', lambda r: float(r[ST_OP])),
              ('dshared sectors (t_sectors)', lambda r: float(r[T_SECTORS])),
              ('remote=writes (the model)',
               lambda r: float(geometry(r)['written']))]
    if ST_ALL in rows[0]:
        counts.append(('total write sectors', lambda r: float(r[ST_ALL])))
    for label, f in counts:
        fit = [(f(r), float(r['cycles_median'])) for r in rows
               if r['holdout'] == '0']
        test = [(f(r), float(r['cycles_median'])) for r in rows
                if r['holdout'] == '1']
        b, s = line(fit)
        print('  %-28s cycles = %5.1f + %.2f x count: rms %.1f systematic, '
              '%.1f held out' % (label, b, s,
                                 rms([b + s * x - y for x, y in fit]),
                                 rms([b + s * x - y for x, y in test])))
    if ST_ALL not in rows[0]:
        print('  total write sectors: no column %s in this file (not '
              'measured)' % ST_ALL)


def main():
    if len(sys.argv) < 2:
        sys.exit('usage: width_latency.py FIT.csv [MORE.csv ...]')
    fit = loads(sys.argv[1])
    sys_rows = [r for r in fit if not r[3]]
    one = line([(x, y) for _, x, y, _ in sys_rows])
    per = {w: line([(x, y) for ww, x, y, _ in sys_rows if ww == w])
           for w in WIDTHS}
    print('%s: %d systematic remote load rows fitted, %d held out' %
          (sys.argv[1], len(sys_rows), len(fit) - len(sys_rows)))
    print('  one line:  cycles = %.2f + %.3f x sectors' % tuple(one))
    for w in WIDTHS:
        n = sum(r[0] == w for r in sys_rows)
        print('  %2d B (%d rows): cycles = %.2f + %.3f x sectors' %
              ((w, n) + tuple(per[w])))
    models = [('one line', lambda w: one), ('per width', lambda w: per[w])]
    for path in sys.argv[1:]:
        judge(path, fit if path == sys.argv[1] else loads(path), models)
    for path in sys.argv[1:]:
        if any(r['op'] == 'st' for r in rows_of(path)):
            stores(path)


if __name__ == '__main__':
    main()
