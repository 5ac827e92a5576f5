#!/usr/bin/env python3
"""holdout.py [SEED] - a pattern file of accesses no rule was fitted to.

Why: sm_90's rules for atom.add.u64 (the retry loop whose loads pack
only when the pending lanes pair up whole or pack to one wavefront) and
cp.async.cg (copy=lines) were found by searching the rows of the
2026-11-24 runs: they fit those rows, which says little about rows they
were not fitted to.  This file draws new accesses from a seed no earlier
run used, so that `bankscope predict` on it, committed before the GPU
measures it, is a prediction, and `bankscope check` on the measurement
is its test.  atom.add.f32 rows ride along as a control (a rule fitted
earlier).

  python3 research/explore/holdout.py [SEED] > holdout.patterns

Sections (the name's prefix):
  ho_u64_rnd_K_I    atom.add.u64, K random lanes active, each on one of
                    a pool of random 8-byte words in 1 KB (K 4..32)
  ho_u64_pair_M_I   atom.add.u64, every lane on the word of its partner
                    lane ^ M (pairwise uniform, M 1 or 2), the pair words
                    random in a few bank pairs: loads that pack to more
                    than one wavefront, where the two rules the earlier
                    rows could not tell apart part (docs/model.md)
  ho_cg_perm_I      cp.async.cg, a random permutation of 32 chunks of
                    512 bytes
  ho_cg_rnd_I       cp.async.cg, random lanes on random 16-byte chunks
                    of 2 KB
  ho_cg_dup_I       cp.async.cg, every lane on one of a pool of 2..8
                    random chunks
  ho_cg_rot_R       cp.async.cg, in order, each 8-lane group rotated by R
                    chunks within its 128 bytes
  ho_cg_pad_P       cp.async.cg, 4 rows of 128 bytes plus a pad of P
                    bytes, in order
  ho_f32_rnd_K_I    atom.add.f32, K random lanes on a pool of words
"""
import random
import sys


def line(name, width, kind, addr):
    return "%s %d %s %s" % (name, width, kind,
                            " ".join(str(addr[l]) if l in addr else "-"
                                     for l in range(32)))


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 20261124_2
    rng = random.Random(seed)
    out = ["# holdout.py seed %d: accesses drawn after the rules were "
           "fitted" % seed]
    for k in (4, 8, 12, 16, 24, 32):
        for i in range(6):
            lanes = rng.sample(range(32), k)
            pool = rng.sample(range(128), rng.choice((2, 4, 8, 32, 64)))
            out.append(line("ho_u64_rnd_%d_%d" % (k, i), 8, "atom.add.u64",
                            {l: 8 * rng.choice(pool) for l in lanes}))
    for m in (1, 2):
        for i in range(6):
            pool = rng.sample(range(128), rng.choice((2, 3, 4, 6)))
            words = {}
            addr = {}
            for l in range(32):
                key = l & ~m
                if key not in words:
                    words[key] = rng.choice(pool)
                addr[l] = 8 * words[key]
            out.append(line("ho_u64_pair_%d_%d" % (m, i), 8, "atom.add.u64",
                            addr))
    for i in range(8):
        perm = list(range(32))
        rng.shuffle(perm)
        out.append(line("ho_cg_perm_%d" % i, 16, "cp.async.cg",
                        {l: 16 * perm[l] for l in range(32)}))
    for i in range(24):
        k = rng.choice((4, 8, 16, 24, 32))
        lanes = rng.sample(range(32), k)
        out.append(line("ho_cg_rnd_%d" % i, 16, "cp.async.cg",
                        {l: 16 * rng.randrange(128) for l in lanes}))
    for i in range(8):
        pool = rng.sample(range(128), rng.choice((2, 3, 4, 8)))
        out.append(line("ho_cg_dup_%d" % i, 16, "cp.async.cg",
                        {l: 16 * rng.choice(pool) for l in range(32)}))
    for r in range(1, 8):
        out.append(line("ho_cg_rot_%d" % r, 16, "cp.async.cg",
                        {l: 128 * (l // 8) + 16 * ((l % 8 + r) % 8)
                         for l in range(32)}))
    for p in (32, 48, 64, 80, 96, 112, 160, 272):
        out.append(line("ho_cg_pad_%d" % p, 16, "cp.async.cg",
                        {l: (128 + p) * (l // 8) + 16 * (l % 8)
                         for l in range(32)}))
    for k in (8, 16, 32):
        for i in range(4):
            lanes = rng.sample(range(32), k)
            pool = rng.sample(range(256), rng.choice((2, 8, 32)))
            out.append(line("ho_f32_rnd_%d_%d" % (k, i), 4, "atom.add.f32",
                            {l: 4 * rng.choice(pool) for l in lanes}))
    print("\n".join(out))


if __name__ == "__main__":
    main()
