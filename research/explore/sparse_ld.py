#!/usr/bin/env python3
"""Pattern file: 8- and 16-byte loads with sparse lane masks.

Why: the sm_90 rule 4 packs a load whose active lanes are pairwise
uniform (lane l's address equals lane l^1's, or l^2's, wherever both are
active).  The probes measured full warps, halves, even lanes and single
lanes, never a sparse mask whose active lanes have no active partner at
odd positions.  The atom.add.u64 retry loop issues exactly such loads
(the lanes still pending after each pass), and a pass-by-pass model of
the loop misses three random rows of the 2026-11-24 run by one wavefront
each, as if such a load did not pack.  This file asks the hardware.

  python3 research/explore/sparse_ld.py DATASET.csv > sparse-ld.patterns

Sections (the name's prefix):
  pair_W_A_B    two lanes A < 16 <= B (W = 8) or A < 8 <= B < 16 (W = 16)
                on distinct banks: packed, one wavefront; unpacked, two.
                Every parity of A and B.
  same_W_A_B    the same lanes on one address.
  odd_W_sS      the odd lanes only, stride S (the mirror of even lanes).
  rnd_W_K_I     K random lanes at random distinct elements (seeded).
  loop_NAME_pP  the load of pass P of the retry loop of dataset row NAME
                (atom.add.u64 rows), the lanes the pass-by-pass model
                leaves pending.
"""
import csv
import random
import sys


def line(name, width, addr):
    return "%s %d ld %s" % (name, width,
                            " ".join(str(addr[l]) if l in addr else "-"
                                     for l in range(32)))


def loop_passes(addrs, width):
    """The pending lanes of each pass of the CAS retry loop (model)."""
    pending = set(addrs)
    plen = 32 if width == 4 else 16
    out = []
    while pending:
        out.append({l: addrs[l] for l in pending})
        written, done = set(), set()
        for p0 in range(0, 32, plen):
            tried = {}
            for l in sorted(pending):
                if p0 <= l < p0 + plen:
                    tried.setdefault(addrs[l] // 4 % 32 // (width // 4), l)
            this = set()
            for l in tried.values():
                if addrs[l] not in written:
                    done.add(l)
                    this.add(addrs[l])
            written |= this
        pending -= done
    return out


def main():
    out = []
    for w, hi in ((8, range(16, 20)), (16, range(8, 12))):
        for a in range(4):
            for b in hi:
                # distinct bank groups: element 0 and element 3
                out.append(line("pair_%d_%d_%d" % (w, a, b), w,
                                {a: 0, b: 3 * w}))
                out.append(line("same_%d_%d_%d" % (w, a, b), w,
                                {a: 0, b: 0}))
        for s in (0, 1, 2):
            out.append(line("odd_%d_s%d" % (w, s), w,
                            {l: l * s * w for l in range(1, 32, 2)}))
    rng = random.Random(20261124)
    for w in (8, 16):
        for i in range(120):
            k = rng.randint(2, 8)
            lanes = rng.sample(range(32), k)
            elems = rng.sample(range(64), k)
            out.append(line("rnd_%d_%d_%d" % (w, k, i), w,
                            {l: e * w for l, e in zip(lanes, elems)}))
    seen = set()
    if len(sys.argv) > 1:
        with open(sys.argv[1]) as f:
            rows = csv.DictReader(l for l in f if not l.startswith("#"))
            for r in rows:
                if r["op"] != "atom.add.u64":
                    continue
                a = r["addresses"].split()
                addrs = {l: int(x) for l, x in enumerate(a) if x != "-"}
                for p, ad in enumerate(loop_passes(addrs, 8), 1):
                    key = tuple(sorted(ad.items()))
                    if p == 1 or key in seen:
                        continue  # pass 1 is the row's own full load
                    seen.add(key)
                    out.append(line("loop_%s_p%d" % (r["name"], p), 8, ad))
    print("# 8- and 16-byte loads with sparse lane masks: "
          "research/explore/sparse_ld.py")
    print("# name width op addr_lane0 ... addr_lane31   "
          "(byte addresses; '-' = inactive lane)")
    print("\n".join(out))


main()
