#!/usr/bin/env python3
"""wavefronts.py - the pattern file of a bankscope-dsmem --file run that
asks what a remote access's dshared wavefronts follow (docs/model.md,
"Distributed shared memory": ceil(lines / 4) fits strided accesses but
misses the random ones over the whole 48 KiB window).  4-byte loads
(dsmem.ld), one lane a line at its start unless said:

  wf_s{S}_n{N}     lanes 0..N-1 on lines 0, S, 2S, ..., lines of 128 bytes
                   (S = 1, 2, 3, 4, 5, 7, 8, 16, 32, 64, 128; N = 1..32,
                   all inside the window)
  wf_rnd{K}_orig   the family's ld4_rnd49152_K itself, as the run
                   measured it
  wf_rnd{K}        its distinct lines, one lane each, in lane order
  wf_rnd{K}_sorted the same lines, ascending over the lanes
  wf_rnd{K}_rev    descending
  wf_off{O}_n8     8 lanes on lines 0..7 at byte O of each line (O = 4,
                   32, 64, 96, 124): does the offset in the line matter
  wf_two_n{N}      N lanes, each pair of lanes on one line (N/2 lines)

Writes the pattern file on stdout.  Pure Python; offsets of ld4_rnd49152_K
are read from the committed H100 run.
"""
import csv
import sys

WINDOW = 48 * 1024
LINES = WINDOW // 128
RUN = 'data/h100-sxm/dsmem-20261128/dsmem-h100.csv'


def line(name, offs):
    lanes = [str(o) for o in offs] + ['-'] * (32 - len(offs))
    print(name, 4, 'dsmem.ld', ' '.join(lanes))


def main():
    for s in (1, 2, 3, 4, 5, 7, 8, 16, 32, 64, 128):
        for n in range(1, 33):
            if (n - 1) * s >= LINES:
                break
            line('wf_s%d_n%d' % (s, n), [128 * s * l for l in range(n)])
    rows = [r for r in csv.DictReader(l for l in open(RUN)
                                      if not l.startswith('#'))]
    for k in range(4):
        name = 'ld4_rnd49152_%d' % k
        r = next(r for r in rows if r['name'] == name and
                 r['target'] == 'remote')
        print('wf_rnd%d_orig 4 dsmem.ld %s' % (k, r['offsets']))
        offs = [int(x) for x in r['offsets'].split() if x != '-']
        lines = []
        for o in offs:
            if o // 128 not in lines:
                lines.append(o // 128)
        line('wf_rnd%d' % k, [128 * x for x in lines])
        line('wf_rnd%d_sorted' % k, [128 * x for x in sorted(lines)])
        line('wf_rnd%d_rev' % k, [128 * x for x in sorted(lines)[::-1]])
    for o in (4, 32, 64, 96, 124):
        line('wf_off%d_n8' % o, [128 * l + o for l in range(8)])
    for n in (8, 16, 32):
        line('wf_two_n%d' % n, [128 * (l // 2) + 4 * (l % 2)
                                for l in range(n)])


if __name__ == '__main__':
    sys.exit(main())
