#!/usr/bin/env python3
"""analyze.py EXPLORE.csv [--rows] - what the kinds exploration shows.

Reads a CSV of merge.py and prints, per kind and width:
  - which in-process counters see the kind, and which equal the SASS-level
    wavefront count exactly on every row (per operation = sum / 64);
  - how many rows each candidate wavefront model gets right, with the
    first rows it gets wrong:
      lds    the LDS/STS model of docs/model.md (phases by width, lanes on
             one word share it, pairwise-uniform loads pack); for
             ldmatrix/stmatrix applied to the lanes the kind uses, as
             16-byte accesses that never pack
      serial the same phases, but every lane counts on every bank it
             touches, whether or not another lane wants the same word
      (for cp.async and atom.cas: 2 x those)
  - CUPTI's per-instruction ideal (Nsight Compute source page) against
    the lds model's ideal, where ncu measured the row;
  - latency (or issue interval): a least-squares line of
    lat_cycles_median against SASS wavefronts per operation, and the
    largest deviation from it;
  - conflict-free throughput (rows whose wavefronts equal the ideal).
--rows prints every row with its model predictions.
Only the standard library; every figure comes from the CSV.
"""
import collections
import csv
import math
import re
import sys

OPS = 64
SASS_WF = "cupti:smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum"


def lanes_of(r):
    out = []
    for l in range(32):
        v = r[f"a{l}"]
        out.append(None if v == "-" else int(v))
    return out


def kind_class(kind):
    if re.match(r"ldsm\.", kind):
        return "ldsm"
    if re.match(r"stsm\.", kind):
        return "stsm"
    if kind.startswith("cp.async"):
        return "cpasync"
    if kind in ("ld", "st"):
        return kind
    return "atom"


def matrices(kind):
    m = re.match(r"[ls][dt]sm\.x(\d)", kind)
    return int(m.group(1)) if m else 0


def phase_groups(width, packed=False):
    if width <= 4:
        return [range(0, 32)]
    if width == 8:
        return [range(0, 32)] if packed else [range(0, 16), range(16, 32)]
    return ([range(0, 16), range(16, 32)] if packed else
            [range(i, i + 8) for i in range(0, 32, 8)])


def words(a, width):
    return [a // 4 + i for i in range(max(1, width // 4))]


def pairwise_uniform(addr):
    for d in (1, 2):
        if all(addr[l] is None or addr[l ^ d] is None or addr[l] == addr[l ^ d]
               for l in range(32)):
            return True
    return False


def model(addr, width, multicast=True, packed=False):
    """(wavefronts, ideal, max lanes on one bank) over the phases."""
    wf = ideal = 0
    for ph in phase_groups(width, packed):
        banks = collections.defaultdict(list)
        distinct = set()
        for l in ph:
            if addr[l] is None:
                continue
            for w in words(addr[l], width):
                banks[w % 32].append(w)
                distinct.add(w)
        if not banks:
            continue
        if multicast:
            wf += max(len(set(v)) for v in banks.values())
        else:
            wf += max(len(v) for v in banks.values())
        ideal += math.ceil(len(distinct) / 32)
    return wf, ideal


def casloop(addr, width):
    """The retry loop atom.add.f32 / atom.add.u64 compile to (LDS, then
    ATOMS.CAST.SPIN until it succeeds), as the data suggest it runs:
    every pending lane loads (LDS, counted by the lds model, packed if
    pairwise uniform); then in each phase (one of 32 lanes for 4 bytes,
    two of 16 for 8) the lowest pending lane of every bank group is tried,
    costing 2 wavefronts per phase that tries one; a tried lane succeeds
    unless a lower phase's lane succeeded on the same address in this
    pass.  Returns (LDS wavefronts, CAS wavefronts, passes)."""
    pending = [l for l in range(32) if addr[l] is not None]
    ld = at = passes = 0
    while pending:
        passes += 1
        pa = [addr[l] if l in pending else None for l in range(32)]
        ld += model(pa, width, packed=pairwise_uniform(pa))[0]
        done, written = set(), set()
        for ph in phase_groups(width):
            taken, tried = set(), []
            for l in ph:
                if l not in pending:
                    continue
                banks = {w % 32 for w in words(addr[l], width)}
                if banks & taken:
                    continue
                taken |= banks
                tried.append(l)
            if tried:
                at += 2
            for l in tried:
                if addr[l] not in written:
                    done.add(l)
            written |= {addr[l] for l in tried}
        pending = [l for l in pending if l not in done]
    return ld, at, passes


def predictions(r):
    """Candidate models for a row: {name: (wavefronts, ideal)}."""
    kind, width = r["kind"], int(r["width"])
    addr = lanes_of(r)
    cls = kind_class(kind)
    if cls in ("ldsm", "stsm"):
        n = 8 * matrices(kind)
        addr = [a if l < n else None for l, a in enumerate(addr)]
        return {"lds": model(addr, 16), "serial": model(addr, 16, multicast=False)}
    packed = cls == "ld" and width >= 8 and pairwise_uniform(addr)
    lds = model(addr, width, packed=packed)
    ser = model(addr, width, multicast=False)
    out = {"lds": lds, "serial": ser}
    if kind == "atom.cas.b32":
        out["2xserial"] = (2 * ser[0], 2 * ser[1])
    if kind in ("atom.add.f32", "atom.add.u64"):
        ld, at, passes = casloop(addr, width)
        out["casloop"] = (ld + at, passes)
    return out


def cupti_ideal_guess(r):
    """What CUPTI's ideal looks like per kind (checked against ncu below):
    ceil(bytes / 128) over the active lanes for LDGSTS (cache access),
    over the distinct 16-byte destinations for LDGSTS.BYPASS."""
    addr = [a for a in lanes_of(r) if a is not None]
    width = int(r["width"])
    if r["kind"] == "cp.async.ca":
        return math.ceil(len(addr) * width / 128)
    if r["kind"] == "cp.async.cg":
        return math.ceil(len(set(addr)) * width / 128)
    return None


def num(r, c):
    v = r.get(c, "")
    if v in ("", None):
        return None
    try:
        return float(v)
    except ValueError:
        return None


def ncu_src(r, what):
    """Per-instruction value of the kind's own opcodes from the ncu source
    page (wavefronts or ideal), summed over opcodes that are shared-memory
    instructions of this kind."""
    tot, inst = 0.0, None
    for c in r:
        m = re.match(r"ncu_src:([^:]+):(\w+)$", c)
        if not m or r[c] == "":
            continue
        op, field = m.groups()
        if field == what:
            tot += float(r[c])
        if field == "inst" and re.match(r"(LDSM|STSM|ATOMS|LDGSTS|LDS|STS)", op):
            inst = float(r[c]) if inst is None else inst
    return None if inst is None else tot / OPS


def fit(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return 0.0, my, max(abs(y - my) for y in ys)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    a = my - b * mx
    return b, a, max(abs(y - (a + b * x)) for x, y in zip(xs, ys))


def main():
    path = sys.argv[1]
    show_rows = "--rows" in sys.argv[2:]
    rows = [r for r in csv.DictReader(open(path)) if r["status"] == "ok"]
    by = collections.OrderedDict()
    for r in rows:
        by.setdefault((r["kind"], r["width"]), []).append(r)
    cupti = [c for c in rows[0] if c.startswith("cupti:")]
    print(f"# {path}: {len(rows)} rows measured")
    for (kind, width), rs in by.items():
        print(f"\n## {kind} width {width}: {len(rs)} rows; SASS {rs[0]['sass_counted']}"
              f"{' (retry loop)' if rs[0]['sass_loop'] == '1' else ''}")
        wf = {id(r): (num(r, SASS_WF) or 0) / OPS for r in rs}
        # counters
        seen, exact = [], []
        for c in cupti:
            vals = [num(r, c) for r in rs]
            if all(v is None for v in vals):
                continue
            if any(v for v in vals):
                seen.append(c[6:].replace(".sum", ""))
            if "wavefronts" in c and c != SASS_WF and all(
                    v is not None and v / OPS == wf[id(r)] for v, r in zip(vals, rs)):
                exact.append(c[6:])
        print("counters that see it:", ", ".join(seen))
        print("equal to the SASS wavefront count on every row:", ", ".join(exact) or "none")
        # instruction counters per operation, and the per-launch extras
        for c in cupti:
            if "inst_executed" not in c and "op_misc" not in c and "lsuin" not in c:
                continue
            vals = collections.Counter(f"{(num(r, c) or 0):g}" for r in rs)
            if set(vals) != {"0"}:
                print(f"  {c[6:]}: {dict(vals.most_common(4))}{' ...' if len(vals) > 4 else ''}"
                      " (sum over the launch; its values and how many rows)")
        # models
        preds = {id(r): predictions(r) for r in rs}
        for m in preds[id(rs[0])]:
            ok = [r for r in rs if preds[id(r)][m][0] == wf[id(r)]]
            bad = [r for r in rs if preds[id(r)][m][0] != wf[id(r)]]
            ex = "; ".join(f"{r['name']} {wf[id(r)]:g} vs {preds[id(r)][m][0]}" for r in bad[:4])
            print(f"model {m:9s}: {len(ok)}/{len(rs)} rows agree"
                  + (f" (wrong: {ex}{' ...' if len(bad) > 4 else ''})" if bad else ""))
        # ideal
        ideal_rows = [(r, ncu_src(r, "ideal"), ncu_src(r, "wavefronts")) for r in rs]
        ideal_rows = [x for x in ideal_rows if x[1] is not None]
        if ideal_rows:
            agree = sum(1 for r, i, w in ideal_rows if i == preds[id(r)]["lds"][1])
            vals = collections.Counter(f"{i:g}" for r, i, w in ideal_rows)
            wfa = sum(1 for r, i, w in ideal_rows if abs(w - wf[id(r)]) < 1e-9)
            guess = sum(1 for r, i, w in ideal_rows if cupti_ideal_guess(r) == i)
            print(f"ncu: {len(ideal_rows)} rows; source-page wavefronts = in-process SASS count on {wfa}; "
                  f"ideal per instruction values {dict(vals)}; = lds-model ideal on {agree}"
                  + (f"; = ceil(bytes/128) guess on {guess}" if cupti_ideal_guess(rs[0]) is not None else ""))
        # the bank-conflict counters against wavefronts - ideal
        for c in cupti:
            if "bank_conflicts" not in c:
                continue
            vals = [num(r, c) for r in rs]
            if not any(vals):
                continue
            cands = {"lds-ideal": lambda r: preds[id(r)]["lds"][1],
                     "cupti-ideal-guess": lambda r: cupti_ideal_guess(r),
                     "1": lambda r: 1}
            res = []
            for nm, f in cands.items():
                ok = sum(1 for v, r in zip(vals, rs) if f(r) is not None
                         and v / OPS == wf[id(r)] - f(r))
                res.append(f"{nm} {ok}")
            print(f"  {c[6:]} / 64 = wavefronts - X on: " + ", ".join(res) + f" of {len(rs)}")
        # latency
        pts = [(wf[id(r)], num(r, "lat_cycles_median")) for r in rs
               if num(r, "lat_cycles_median") is not None]
        if pts:
            b, a, dev = fit([p[0] for p in pts], [p[1] for p in pts])
            print(f"cycles per op vs wavefronts: {a:.2f} + {b:.3f} x wf, max deviation {dev:.2f} "
                  f"({len(pts)} rows, wf {min(p[0] for p in pts):g}..{max(p[0] for p in pts):g})")
        # throughput: SM cycles per operation against wavefronts
        tp = [(wf[id(r)], 1 / num(r, "tp_ops_per_clk_per_sm")) for r in rs
              if num(r, "tp_ops_per_clk_per_sm")]
        if tp:
            b, a, dev = fit([p[0] for p in tp], [p[1] for p in tp])
            print(f"throughput, SM cycles per op vs wavefronts: {a:.2f} + {b:.3f} x wf, "
                  f"max deviation {dev:.2f} ({len(tp)} rows)")
        if rs[0]["kind"] in ("atom.add.f32", "atom.add.u64"):
            pp = [(casloop(lanes_of(r), int(r["width"]))[2], num(r, "lat_cycles_median")) for r in rs]
            b, a, dev = fit([p[0] for p in pp], [p[1] for p in pp])
            print(f"cycles per op vs passes of the loop: {a:.2f} + {b:.3f} x passes, "
                  f"max deviation {dev:.2f} (passes {min(p[0] for p in pp)}..{max(p[0] for p in pp)})")
            for comp, col in (("LDS", "cupti:smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
                              ("ATOMS", "cupti:smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_atom.sum")):
                i = 0 if comp == "LDS" else 1
                ok = sum(1 for r in rs if casloop(lanes_of(r), int(r["width"]))[i] == (num(r, col) or 0) / OPS)
                print(f"casloop {comp} part: {ok}/{len(rs)} rows agree")
        # throughput, conflict-free
        cf = [r for r in rs if preds[id(r)]["lds"][0] == preds[id(r)]["lds"][1]
              and wf[id(r)] == preds[id(r)]["lds"][1] and num(r, "tp_bytes_per_clk_per_sm")]
        if cf:
            best = max(cf, key=lambda r: num(r, "tp_bytes_per_clk_per_sm"))
            print(f"conflict-free throughput: {len(cf)} rows, best {best['name']} "
                  f"{num(best, 'tp_bytes_per_clk_per_sm'):.2f} B/clk/SM, "
                  f"{num(best, 'tp_wavefronts_per_clk_per_sm'):.3f} wf/clk/SM, "
                  f"{num(best, 'tp_ops_per_clk_per_sm'):.4f} ops/clk/SM")
        if show_rows:
            for r in rs:
                p = preds[id(r)]
                print(f"  {r['name']:28s} wf {wf[id(r)]:6g} lat {r['lat_cycles_median']:>8s} "
                      + " ".join(f"{m}={v[0]}/{v[1]}" for m, v in p.items()))


if __name__ == "__main__":
    main()
