#!/usr/bin/env python3
"""gen_patterns.py [--smoke] - the accesses research/explore/kinds measures.

Writes pattern lines, one warp access each, in the form issue 10 gives
the analyzer:

    NAME WIDTH KIND A0 ... A31

A lane field is the byte offset from the start of dynamic shared memory,
or '-' for a lane that takes no part.  NAME is FAMILY.DETAIL; the family
is what comes before the first '.'.

Kinds (WIDTH):
  ld, st (4, 8, 16)             LDS/STS controls, the model of docs/model.md
  ldsm.x1|x2|x4[.t] (16)        ldmatrix; lanes 0-7 give matrix 0's rows,
                                8-15 matrix 1, ...; x1 uses lanes 0-7 and
                                x2 lanes 0-15: the other lanes are '-' (the
                                program gives them address 0), except in
                                the 'junk' family, which names them
  stsm.x1|x2|x4[.t] (16)        stmatrix, the same lanes
  atom.add.u32 red.add.u32 atom.cas.b32 atom.exch.b32 atom.min.s32
  atom.add.f32 (4), atom.add.u64 (8)
  cuda.inc (4)                  atomicAdd(&s[i], 1u), result unused
  cuda.inc.ret (4)              atomicAdd(&s[i], 1u), result used
  cp.async.ca (4, 8, 16), cp.async.cg (16)
                                the address is the shared destination

The 'bad' family holds ldmatrix/stmatrix rows that are not 16-byte
aligned: the program must refuse them (and does not run them).

Random families are seeded (random.Random(seed)), so the file is the same
on every run.  --smoke writes a few accesses of each kind, to catch
mistakes before the full run; --ncu only the subset Nsight Compute
measures as well (with --smoke: of the smoke set); --ncu-byp the byp.*
accesses of cp.async.cg, every other one (what the second run gave ncu).
"""
import random
import re
import sys

LANES = 32
out = []


def emit(name, width, kind, addrs):
    f = ["-" if a is None else str(a) for a in addrs]
    assert len(f) == LANES
    out.append(f"{name} {width} {kind} {' '.join(f)}")


def swz(a, b):
    """TMA SWIZZLE_(16<<b)B on a byte address: bits [4,4+b) ^= bits [7,7+b)."""
    return a ^ (((a >> 7) & ((1 << b) - 1)) << 4)


# ---- ldmatrix / stmatrix ----------------------------------------------------

def matrix_patterns(x):
    """(name, addrs) for an x-matrix ldmatrix/stmatrix; lanes >= 8x are None."""
    n = 8 * x
    pats = []

    def lanes(f):
        return [f(l) if l < n else None for l in range(LANES)]

    for p in range(16, 529, 16):
        pats.append((f"stacked.p{p}", lanes(lambda l: l * p)))
        if x > 1:
            pats.append((f"side.p{p}", lanes(lambda l: (l % 8) * p + (l // 8) * 16)))
        if x == 4:
            pats.append((f"mma.p{p}", lanes(lambda l: (l % 16) * p + (l // 16) * 16)))
    # TMA swizzled tiles: rows of 128, 64, 32 bytes
    for b, row in ((3, 128), (2, 64), (1, 32)):
        chunks = row // 16
        for c in range(chunks):
            pats.append((f"sw{row}.stacked.c{c}",
                         lanes(lambda l: swz(l * row + c * 16, b))))
            pats.append((f"noswz{row}.stacked.c{c}",
                         lanes(lambda l: l * row + c * 16)))
        if x == 4 and chunks >= 2:
            for c in range(0, chunks, 2):
                pats.append((f"sw{row}.mma.c{c}",
                             lanes(lambda l: swz((l % 16) * row + (c + l // 16) * 16, b))))
                pats.append((f"noswz{row}.mma.c{c}",
                             lanes(lambda l: (l % 16) * row + (c + l // 16) * 16)))
        if x > 1 and chunks >= x:
            pats.append((f"sw{row}.side.c0",
                         lanes(lambda l: swz((l % 8) * row + (l // 8) * 16, b))))
    # broadcast rows
    pats.append(("bc.all0", lanes(lambda l: 0)))
    pats.append(("bc.matrow_spread", lanes(lambda l: (l // 8) * 16)))
    pats.append(("bc.matrow_samebank", lanes(lambda l: (l // 8) * 128)))
    pats.append(("bc.pairs", lanes(lambda l: (l // 2) * 16)))
    pats.append(("bc.pairs_p128", lanes(lambda l: (l // 2) * 128)))
    pats.append(("bc.quads", lanes(lambda l: (l // 4) * 16)))
    pats.append(("bc.quads_p128", lanes(lambda l: (l // 4) * 128)))
    pats.append(("bc.xor1", lanes(lambda l: (l ^ 1) * 16)))
    if x > 1:
        pats.append(("bc.mod8", lanes(lambda l: (l % 8) * 16)))
        pats.append(("bc.mod8_p128", lanes(lambda l: (l % 8) * 128)))
    if x == 4:
        pats.append(("bc.mod16", lanes(lambda l: (l % 16) * 16)))
        pats.append(("bc.mod16_p128", lanes(lambda l: (l % 16) * 128)))
    # unused lanes named: are they ignored?
    if x < 4:
        pats.append(("junk.unused_conflict",
                     [l * 16 if l < n else l * 128 for l in range(LANES)]))
        pats.append(("junk.unused_same",
                     [l * 16 if l < n else (l % n) * 16 for l in range(LANES)]))
    # random 16-byte-aligned rows
    for s in range(12):
        r = random.Random(1000 * x + s)
        pats.append((f"rnd.s{s}", lanes(lambda l: r.randrange(0, 512) * 16)))
    for s in range(6):
        r = random.Random(2000 * x + s)
        rows = [r.randrange(0, 512) * 16 for _ in range(4)]
        pats.append((f"rnd.few4.s{s}", lanes(lambda l: r.choice(rows))))
    return pats


def gen_matrix(smoke):
    for x in (1, 2, 4):
        pats = matrix_patterns(x)
        if smoke:
            keep = {"stacked.p16", "stacked.p128", "stacked.p144", "side.p128",
                    "mma.p128", "sw128.stacked.c0", "sw128.mma.c0", "bc.all0",
                    "bc.pairs", "junk.unused_conflict", "rnd.s0"}
            pats = [p for p in pats if p[0] in keep]
        for ld in ("ldsm", "stsm"):
            for t in ("", ".t"):
                kind = f"{ld}.x{x}{t}"
                for name, a in pats:
                    emit(name, 16, kind, a)
    # misaligned rows: must be refused, never run
    for kind in ("ldsm.x4", "stsm.x1"):
        emit("bad.align8", 16, kind, [l * 16 + 8 for l in range(LANES)])
        emit("bad.lane3_off4", 16, kind,
             [l * 16 + (4 if l == 3 else 0) for l in range(LANES)])


# ---- per-lane element patterns: atomics, cp.async, ld/st ----------------------

PARTIAL = {
    "half_lo": [l < 16 for l in range(LANES)],
    "half_hi": [l >= 16 for l in range(LANES)],
    "even": [l % 2 == 0 for l in range(LANES)],
    "q0": [l < 8 for l in range(LANES)],
    "lane0": [l == 0 for l in range(LANES)],
    "lanes0_16": [l in (0, 16) for l in range(LANES)],
    "lanes0_8": [l in (0, 8) for l in range(LANES)],
    "lanes0_1": [l in (0, 1) for l in range(LANES)],
}


def element_patterns(width, smoke, cp_async=False):
    """(name, addrs) with lane addresses in bytes; None = inactive."""
    pats = []
    per_row = 128 // width        # elements in 128 bytes

    def by_elem(f, mask=None):
        return [None if (mask and not mask[l]) else f(l) * width
                for l in range(LANES)]

    for s in range(0, 34):
        pats.append((f"stride.s{s}", by_elem(lambda l: l * s)))
    for k in (1, 2, 4, 8, 16, 32):
        pats.append((f"kaddr.k{k}_grouped", by_elem(lambda l: l // k)))
        pats.append((f"kaddr.k{k}_interleaved", by_elem(lambda l: l % (32 // k))))
        pats.append((f"kaddr.k{k}_samebank", by_elem(lambda l: (l // k) * per_row)))
    # k lanes per bank (per bank group of width/4 banks), distinct addresses
    groups = 128 // width
    for k in (1, 2, 4, 8, 16, 32):
        if 32 // k > groups:
            continue
        pats.append((f"kbank.k{k}",
                     by_elem(lambda l: (l // (32 // k)) * per_row + l % (32 // k))))
    for pname, mask in PARTIAL.items():
        pats.append((f"partial.{pname}_s1", by_elem(lambda l: l, mask)))
        pats.append((f"partial.{pname}_s{per_row}", by_elem(lambda l: l * per_row, mask)))
        pats.append((f"partial.{pname}_s0", by_elem(lambda l: 0, mask)))
    for s in range(3):
        r = random.Random(300 + s)
        mask = [r.random() < 0.5 for _ in range(LANES)]
        mask[r.randrange(LANES)] = True
        pats.append((f"partial.rnd{s}_s1", by_elem(lambda l: l, mask)))
    nel = 4096 // width
    for s in range(8):
        r = random.Random(10 * width + s)
        el = r.sample(range(nel), LANES)
        pats.append((f"rnd.distinct.s{s}", by_elem(lambda l: el[l])))
    for s in range(8):
        r = random.Random(100 * width + s)
        el = [r.randrange(64) for _ in range(LANES)]
        pats.append((f"rnd.any64.s{s}", by_elem(lambda l: el[l])))
    for s in range(6):
        r = random.Random(200 * width + s)
        few = r.sample(range(nel), 4)
        el = [r.choice(few) for _ in range(LANES)]
        pats.append((f"rnd.few4.s{s}", by_elem(lambda l: el[l])))
    if cp_async and width == 16:
        # tiles the way GEMM kernels fill them: L lanes per row of L*16 bytes
        for L in (2, 4, 8):
            rowb = L * 16
            for pitch in sorted({rowb, rowb + 16, 128, 144, 256}):
                if pitch < rowb:
                    continue
                pats.append((f"tile.l{L}.p{pitch}",
                             [(l // L) * pitch + (l % L) * 16 for l in range(LANES)]))
        for b, row in ((3, 128), (2, 64), (1, 32)):
            L = row // 16
            pats.append((f"tile.sw{row}",
                         [swz((l // L) * row + (l % L) * 16, b) for l in range(LANES)]))
            # rows of 128 bytes with a 64/32-byte swizzle atom
            pats.append((f"tile.l8.p128.sw{row}",
                         [swz((l // 8) * 128 + (l % 8) * 16, b) for l in range(LANES)]))
    if smoke:
        keep = {"stride.s0", "stride.s1", "stride.s2", "stride.s32", "kaddr.k2_grouped",
                "kaddr.k8_samebank", "kbank.k4", "partial.half_lo_s1", "partial.lane0_s0",
                "rnd.distinct.s0", "rnd.few4.s0", "tile.l4.p64", "tile.sw128"}
        pats = [p for p in pats if p[0] in keep]
    return pats


ATOMICS = [("atom.add.u32", 4), ("red.add.u32", 4), ("atom.cas.b32", 4),
           ("atom.exch.b32", 4), ("atom.min.s32", 4), ("atom.add.f32", 4),
           ("atom.add.u64", 8), ("cuda.inc", 4), ("cuda.inc.ret", 4)]
CPASYNC = [("cp.async.ca", 4), ("cp.async.ca", 8), ("cp.async.ca", 16),
           ("cp.async.cg", 16)]


def bypass_patterns():
    """Seeded 16-byte destinations in chunk units (16 B) of kinds the
    smaller families do not cover, to pin down how LDGSTS.BYPASS counts
    (byp.*): permuted full lines, lane pairs on 32-byte sectors in order,
    reversed or split, duplicates from small windows, per-group strides,
    half-line runs, shuffled k-lane groups."""
    pats = []
    for s in range(10):
        r = random.Random(5000 + s)
        ch = []
        for g in range(4):
            line = r.randrange(32)
            perm = list(range(8))
            r.shuffle(perm)
            ch += [line * 8 + c for c in perm]
        pats.append((f"byp.permline.s{s}", ch))
    for mode in ("inorder", "reversed", "mixed"):
        for s in range(8):
            r = random.Random(5100 + 10 * len(mode) + s)
            ch = []
            for i in range(16):
                sec = r.randrange(64)
                m = mode if mode != "mixed" else r.choice(("inorder", "reversed", "split"))
                if m == "inorder":
                    ch += [2 * sec, 2 * sec + 1]
                elif m == "reversed":
                    ch += [2 * sec + 1, 2 * sec]
                else:
                    ch += [r.randrange(128), r.randrange(128)]
            pats.append((f"byp.pairs_{mode}.s{s}", ch))
    for w in (2, 4, 8, 16, 32, 64):
        for s in range(5):
            r = random.Random(5200 + 10 * w + s)
            ch = [r.randrange(w) for _ in range(32)]
            pats.append((f"byp.window{w}.s{s}", ch))
    for st in (1, 2, 3, 4):
        for s in range(3):
            r = random.Random(5300 + 10 * st + s)
            bases = [r.randrange(0, 256) for _ in range(4)]
            pats.append((f"byp.groupstride{st}.s{s}",
                         [bases[l // 8] + (l % 8) * st for l in range(32)]))
    for aligned in (1, 0):
        for s in range(6):
            r = random.Random(5400 + 10 * aligned + s)
            ch = []
            for q in range(8):
                b = r.randrange(64) * 4 if aligned else r.randrange(256)
                ch += [b + i for i in range(4)]
            pats.append((f"byp.runs4_{'aligned' if aligned else 'any'}.s{s}", ch))
    for k in (2, 4, 8):
        for s in range(4):
            r = random.Random(5500 + 10 * k + s)
            ch = [l // k for l in range(32)]
            r.shuffle(ch)
            pats.append((f"byp.k{k}_shuffled.s{s}", ch))
    return pats


def gen_elements(smoke):
    for kind, w in ATOMICS:
        for name, a in element_patterns(w, smoke):
            emit(name, w, kind, a)
    for kind, w in CPASYNC:
        for name, a in element_patterns(w, smoke, cp_async=True):
            emit(name, w, kind, a)
    if not smoke:
        for kind in ("cp.async.cg", "cp.async.ca"):
            for name, ch in bypass_patterns():
                emit(name, 16, kind, [c * 16 for c in ch])
    # LDS/STS controls: rows docs/model.md has measured
    for w in (4, 8, 16):
        for op in ("ld", "st"):
            for s in (0, 1, 2, 32 // (w // 4) if w > 4 else 32):
                emit(f"ctl.s{s}", w, op, [l * s * w for l in range(LANES)])
            if w > 4:
                emit("ctl.pairs", w, op, [(l // 2) * w for l in range(LANES)])


# The subset Nsight Compute measures as well (about 0.5 s a pattern):
# cp.async first, then atomics, matrices, LDS/STS controls.
NCU_CPASYNC = re.compile(
    r"^(stride\.s(0|1|2|3|4|8|16|32)|kaddr\.k(2|4|8|32)_grouped|"
    r"kaddr\.k(2|8)_interleaved|kaddr\.k4_samebank|kbank\.k(2|4|8)|"
    r"partial\.(half_lo|lane0|lanes0_16|even|q0)_s1|"
    r"rnd\.(distinct|any64|few4)\.s0|tile\..*)$")
NCU_ATOM = re.compile(
    r"^(stride\.s(0|1|2|32)|kaddr\.k4_interleaved|kbank\.k8|"
    r"partial\.lanes0_16_s1|rnd\.few4\.s0)$")
NCU_MATRIX = re.compile(
    r"^(mma\.p(64|144)|sw(64|32)\.stacked\.c0|bc\.(mod8|mod16|quads|xor1)|junk\..*)$")
NCU_CTL = re.compile(r"^ctl\.(s0|s1|pairs)$")


def ncu_subset(lines):
    def pick(kinds_re, names_re, extra=lambda k: True):
        return [l for l in lines if re.match(kinds_re, l.split()[2])
                and extra(l.split()[2]) and names_re.match(l.split()[0])]
    return (pick(r"cp\.async", NCU_CPASYNC) +
            pick(r"(atom|red|cuda)\.", NCU_ATOM) +
            pick(r"(ld|st)sm\.", NCU_MATRIX, lambda k: ".x2" not in k) +
            pick(r"(ld|st)$", NCU_CTL))


def main():
    smoke = "--smoke" in sys.argv[1:]
    ncu = "--ncu" in sys.argv[1:]
    print("# research/explore/gen_patterns.py%s: NAME WIDTH KIND A0..A31 "
          "(byte offsets into dynamic shared memory; '-' no lane)"
          % "".join(" " + a for a in sys.argv[1:]))
    gen_matrix(smoke)
    gen_elements(smoke)
    if "--ncu-byp" in sys.argv[1:]:
        # the second run: the byp.* accesses of cp.async.cg, every other one
        sel = [l for l in out if l.split()[2] == "cp.async.cg" and l.startswith("byp.")]
        print("\n".join(sel[::2]))
        return
    print("\n".join(ncu_subset(out) if ncu else out))

if __name__ == "__main__":
    main()
