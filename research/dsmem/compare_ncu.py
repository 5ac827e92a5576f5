#!/usr/bin/env python3
"""compare_ncu.py NCU.csv - Nsight Compute's dshared counters for the first
launches of `bankscope-dsmem --quick --no-counters` (scripts/dsmem-device.sh).

With --no-counters, each row is two launches: the timed one (8 x (32 + 96)
accesses per active lane's chain) and the counted one (64 accesses).  The
rows come in order: (point, target) for local, self, remote of each point.
Prints, for the remote rows, the read sectors and dshared wavefronts per
access of both launches, so they can be set beside bankscope-dsmem's own
per-instruction counters (the same names in dsmem-a.csv).
"""
import csv
import sys

TIMED = 8 * (32 + 96)
COUNTED = 64
RD = 'l1tex__m_xbar2l1tex_read_sectors_mem_dshared_op_ld.sum'
WF = 'l1tex__t_output_wavefronts_pipe_lsu_mem_dshared_op_ld.sum'


def main():
    with open(sys.argv[1]) as f:
        lines = [l for l in f if l.startswith('"')]
    rows = list(csv.DictReader(lines))
    rows = [r for r in rows if r['ID'] != '' and 'dsmem_kernel' in r.get(
        'Kernel Name', '')]
    print('%d dsmem launches' % len(rows))
    for i in range(0, len(rows) - 1, 2):
        row = i // 2
        if row % 3 != 2:
            continue
        t, c = rows[i], rows[i + 1]
        num = lambda r, k: float(r[k].replace(',', ''))
        print('row %2d (point %2d, remote): read sectors/access timed %.3f '
              'counted %.3f; wavefronts/access timed %.3f counted %.3f' %
              (row, row // 3, num(t, RD) / TIMED, num(c, RD) / COUNTED,
               num(t, WF) / TIMED, num(c, WF) / COUNTED))


if __name__ == '__main__':
    main()
