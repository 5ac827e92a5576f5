#!/usr/bin/env python3
"""wavefront_hash.py - is a remote load's dshared wavefront count a hash of
its lines into sets?  Tries, on the remote loads of the designed run
(data/h200/dsmem-wavefronts-20261128/wavefronts.csv) and of the H100
family run (data/h100-sxm/dsmem-20261128/dsmem-h100.csv):

  4 sets   set = (parity(line & m1), parity(line & m2)) for every pair of
           masks of the line number's bits 0-8; a wavefront takes one line
           of each set: wavefronts = the most lines in one set
  8 sets   three masks of up to 3 bits each; wavefronts = the larger of
           the most lines in one set and ceil(lines / 4)

and prints, for each, the most rows one candidate explains (the rows that
ceil(lines / 4) misses are tried first).  Pure Python; the 4-set search
takes minutes.  Result on 2026-11-28: none fits (at most 6 of the 459
rows, for 4 sets and for 8).
"""
import csv
import itertools


def rows_of(path):
    out = []
    with open(path) as f:
        for r in csv.DictReader(l for l in f if not l.startswith('#')):
            if r['target'] != 'remote' or r['op'] != 'ld':
                continue
            w = int(r['width'])
            lines = sorted({b // 128 for x in r['offsets'].split()
                            if x != '-' for b in range(int(x), int(x) + w)})
            wf = 'l1tex__t_output_wavefronts_pipe_lsu_mem_dshared_op_ld.sum'
            out.append((lines, int(float(r[wf]))))
    return out


def explained(rows, count):
    n = 0
    for lines, wf in rows:
        if count(lines) != wf:
            break
        n += 1
    return n


def main():
    rows = (rows_of('data/h200/dsmem-wavefronts-20261128/wavefronts.csv') +
            rows_of('data/h100-sxm/dsmem-20261128/dsmem-h100.csv'))
    ceil4 = lambda lines: -(-len(lines) // 4)
    rows = ([r for r in rows if r[1] != ceil4(r[0])] +
            [r for r in rows if r[1] == ceil4(r[0])])
    par = [[bin(l & m).count('1') & 1 for l in range(512)] for m in range(512)]

    def most(lines, masks):
        c = {}
        for l in lines:
            k = sum(par[m][l] << i for i, m in enumerate(masks))
            c[k] = c.get(k, 0) + 1
        return max(c.values()) if c else 0

    best4 = max(explained(rows, lambda ls, p=(a, b): most(ls, p))
                for a, b in itertools.combinations(range(1, 512), 2))
    small = [m for m in range(1, 512) if bin(m).count('1') <= 3]
    best8 = max(explained(rows, lambda ls, p=t: max(most(ls, p), ceil4(ls)))
                for t in itertools.combinations(small, 3))
    print('%d rows, %d not ceil(lines / 4); 4 sets: at most %d explained; '
          '8 sets: at most %d' % (len(rows), sum(r[1] != ceil4(r[0])
                                                  for r in rows),
                                  best4, best8))


if __name__ == '__main__':
    main()
