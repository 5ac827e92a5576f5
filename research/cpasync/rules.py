#!/usr/bin/env python3
"""rules.py SRCPROBE.csv - candidate rules for cp.async's shared-memory
wavefronts when the global source varies (research/cpasync/srcprobe.cu's
rows), tried on the systematic set ("sys") first; the held-out set ("held")
is scored only for the rule chosen on "sys" (--held), so it is not tuned
on.  Prints, per kind and rule, how many accesses the rule predicts
exactly, and the first misses."""
import collections
import csv
import sys

PHASE = {4: 32, 8: 16, 16: 8}


def lanes(field):
    return [None if t == '-' else int(t) for t in field.split()]


def bank_wf(items, w):
    """A store's wavefronts for one phase's lanes (dst offsets), lanes on
    one word served one by one (same_word=serial): the most lanes on one
    bank."""
    per = collections.Counter()
    for d in items:
        for b in range(w // 4):
            per[(d // 4 + b) % 32] += 1
    return max(per.values()) if per else 0


def phases(acc):
    w = acc['w']
    n = PHASE[w]
    for lo in range(0, 32, n):
        ls = [l for l in range(lo, lo + n) if acc['dst'][l] is not None]
        if ls:
            yield ls


def rule_banks(acc):
    return sum(bank_wf([acc['dst'][l] for l in ls], acc['w'])
               for ls in phases(acc))


def by_unit(unit):
    def rule(acc):
        t = 0
        for ls in phases(acc):
            g = collections.defaultdict(list)
            for l in ls:
                g[acc['src'][l] // unit].append(acc['dst'][l])
            t += sum(bank_wf(v, acc['w']) for v in g.values())
        return t
    return rule


def by_unit_max(unit):
    """max(banks, distinct units) per phase."""
    def rule(acc):
        t = 0
        for ls in phases(acc):
            u = {acc['src'][l] // unit for l in ls}
            t += max(bank_wf([acc['dst'][l] for l in ls], acc['w']), len(u))
        return t
    return rule


def whole_warp_units(unit):
    """distinct units over the warp, or the banks' phases if more."""
    def rule(acc):
        u = {acc['src'][l] // unit for l in range(32) if acc['dst'][l] is not None}
        return max(len(u), rule_banks(acc))
    return rule


RULES = {
    'banks': rule_banks,
    'line-groups': by_unit(128),
    'sector-groups': by_unit(32),
    'max(banks,lines)/phase': by_unit_max(128),
    'max(banks,sectors)/phase': by_unit_max(32),
    'max(banks,warp lines)': whole_warp_units(128),
}


def greedy(phase_lanes, src_mod=128, whole=False, order=None):
    """Wavefronts as a greedy packing: a lane joins the first wavefront
    where none of its source words (the source's offset in a src_mod-byte
    window, 4-byte words) and none of its destination banks is taken; lanes
    in lane order, within each store phase (or the whole warp)."""
    def rule(acc):
        w = acc['w']
        n = 32 if whole else (phase_lanes or PHASE[w])
        total = 0
        for lo in range(0, 32, n):
            waves = []
            for l in range(lo, lo + n):
                d = acc['dst'][l]
                if d is None:
                    continue
                s = acc['src'][l]
                sw = {((s % src_mod) // 4 + b) for b in range(w // 4)}
                db = {(d // 4 + b) % 32 for b in range(w // 4)}
                for wv in waves:
                    if not (wv[0] & sw) and not (wv[1] & db):
                        wv[0].update(sw); wv[1].update(db)
                        break
                else:
                    waves.append([set(sw), set(db)])
            total += len(waves)
        return total
    return rule


RULES.update({
    'greedy src128+banks/phase': greedy(None),
    'greedy src128+banks/warp': greedy(None, whole=True),
    'greedy src32+banks/phase': greedy(None, 32),
})


def src_way(items, w, src_mod=128):
    """The most lanes on one source word (4-byte word of the source's
    offset in a src_mod-byte window)."""
    per = collections.Counter()
    for s in items:
        for b in range(w // 4):
            per[(s % src_mod) // 4 + b] += 1
    return max(per.values()) if per else 0


def sum_rule(phase_lanes=None, src_mod=128):
    """Per store phase: the source's way plus the destination's bank
    wavefronts, less one (each at least one)."""
    def rule(acc):
        w = acc['w']
        n = phase_lanes or PHASE[w]
        t = 0
        for lo in range(0, 32, n):
            ls = [l for l in range(lo, lo + n) if acc['dst'][l] is not None]
            if not ls:
                continue
            t += src_way([acc['src'][l] for l in ls], w, src_mod) + \
                bank_wf([acc['dst'][l] for l in ls], w) - 1
        return t
    return rule


RULES.update({
    'source way + banks - 1 /phase': sum_rule(),
    'source way + banks - 1 /warp': sum_rule(32),
})


def load(path):
    acc = collections.OrderedDict()
    for r in csv.DictReader(open(path)):
        a = acc.setdefault(r['name'], {
            'set': r['set'], 'kind': r['kind'], 'w': int(r['width']),
            'dst': lanes(r['dst']), 'src': lanes(r['src']), 'wf': set()})
        a['wf'].add(int(float(r['wavefronts'])))
    return acc


def main():
    acc = load(sys.argv[1])
    held = '--held' in sys.argv
    for kind in ('cp.async.ca/4', 'cp.async.ca/8', 'cp.async.ca/16',
                 'cp.async.cg/16'):
        k, w = kind.split('/')
        rows = [a for a in acc.values() if a['kind'] == k and a['w'] == int(w)
                and a['set'] == ('held' if held else 'sys')]
        if not rows:
            continue
        print(f'{kind}: {len(rows)} accesses ({"held-out" if held else "systematic"})')
        for name, rule in RULES.items():
            ok = sum(1 for a in rows if rule(a) in a['wf'])
            print(f'  {name:28s} {ok:4d} of {len(rows)}')
    return 0


if __name__ == '__main__':
    sys.exit(main())

