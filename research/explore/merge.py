#!/usr/bin/env python3
"""merge.py DIR OUT.csv - one row per (kind, pattern) from what run.sh left
in DIR:

  patterns.txt          NAME WIDTH KIND A0..A31 (gen_patterns.py)
  timing.csv            kinds --mode timing
  counters-g*.csv       kinds --mode counters, one file per metric group
  patterns-ncu-NN.txt   the patterns ncu measured, in chunks
  ncu-raw-NN.csv        ncu --page raw --csv over kinds --mode launch of
                        chunk NN (its k_counted launches, in order)
  ncu-source-NN.csv     ncu --page source --print-source sass --csv, same
  sass-opcodes.csv      sass_table.py

Columns (units in the names; every counter is the raw sum over the counted
launch of 64 operations, one warp):
  kind,width,name,family,line,status,lanes_active,bytes_per_op,
  a0..a31 (the pattern's lane fields, '-' no lane),
  sass_counted (opcode:count in k_counted), sass_loop (1 if k_counted of
  this kind has more than 2 BRA: a retry loop; every kernel has 2, the
  skip of inactive lanes and the self-branch after EXIT),
  cupti:<metric> ... (range profiler, in-process),
  ncu:<metric> ... (Nsight Compute, raw page, kernel totals; the metrics
  of ncu-metrics.txt, the candidates ncu knows),
  ncu_src:<opcode>:{inst,wavefronts,ideal,excessive} (source page, summed
  per opcode over the kernel's instructions),
  lat_reps,lat_cycles_min,lat_cycles_median (cycles per operation),
  tp_iters,tp_ops_per_sm,tp_cycles_median,tp_cycles_min,
  tp_ops_per_clk_per_sm, tp_bytes_per_clk_per_sm,
  tp_wavefronts_per_clk_per_sm (wavefronts per op from
  cupti:smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum / 64: the
  SASS-level count, which sees every kind, LDGSTS.BYPASS too, and has no
  per-launch extra).
"""
import collections
import csv
import glob
import os
import re
import sys

OPS = 64


def read_patterns(path):
    rows = []
    for i, line in enumerate(open(path), 1):
        s = line.split("#")[0].split()
        if not s:
            continue
        rows.append({"line": i, "name": s[0], "width": s[1], "kind": s[2],
                     "lanes": s[3:35]})
    return rows


def key(kind, width, name):
    return (kind, str(width), name)


def read_keyed(path):
    out = {}
    if not os.path.exists(path):
        return out, []
    with open(path) as f:
        rd = csv.DictReader(f)
        for r in rd:
            out[key(r["kind"], r["width"], r["name"])] = r
        return out, rd.fieldnames or []


def ncu_raw(path, wanted):
    if not os.path.exists(path):
        return [], []
    with open(path) as f:
        lines = [l for l in f if not l.startswith("==")]
    rd = csv.DictReader(lines)
    rows = [r for r in rd if r.get("ID", "").strip().isdigit()]
    rows = [r for r in rows if "k_counted" in r.get("Kernel Name", "")]
    metrics = [c for c in (rd.fieldnames or []) if c in wanted]
    return rows, metrics


def ncu_source(path):
    """Per profiled kernel, in order: {opcode: [inst, wf, ideal, excessive]}."""
    if not os.path.exists(path):
        return []
    kernels, cur, idx = [], None, None
    for r in csv.reader(open(path)):
        if r and r[0] == "Kernel Name":
            cur = collections.defaultdict(lambda: [0, 0, 0, 0])
            kernels.append((r[1], cur))
            idx = None
        elif r and r[0] == "Address":
            idx = {n: i for i, n in enumerate(r)}
        elif r and idx and cur is not None and r[0].startswith("0x"):
            src = r[1].strip()
            m = re.match(r"(?:@!?U?P\S+\s+)?([A-Z][A-Z0-9_.]*)", src)
            if not m:
                continue
            op = m.group(1)

            def num(n):
                v = r[idx[n]] if n in idx else "0"
                try:
                    return float(v.replace(",", ""))
                except ValueError:
                    return 0.0
            wf = num("L1 Wavefronts Shared")
            if wf == 0 and num("L1 Wavefronts Shared Ideal") == 0 and not re.match(
                    r"(LDS|STS|LDSM|STSM|ATOMS|LDGSTS)", op):
                continue
            a = cur[op]
            a[0] += num("Instructions Executed")
            a[1] += wf
            a[2] += num("L1 Wavefronts Shared Ideal")
            a[3] += num("L1 Wavefronts Shared Excessive")
    return [k for k in kernels if "k_counted" in k[0]]


def sass(path):
    by = collections.defaultdict(list)
    loops = set()
    if not os.path.exists(path):
        return by, loops
    for r in csv.DictReader(open(path)):
        if r["kernel"] != "k_counted":
            continue
        k = (r["kind"], r["width"])
        if r["opcode"] == "BRA" and int(r["count"]) > 2:
            loops.add(k)
        if re.match(r"(LD|ST|ATOM|RED|DEPBAR|LDGDEPBAR|POPC|MATCH|VOTE)", r["opcode"]) \
                and not r["opcode"].startswith(("LDC", "LDG.E.CONSTANT")):
            by[k].append(f"{r['opcode']}:{r['count']}")
    return by, loops


def main():
    d, out = sys.argv[1], sys.argv[2]
    pats = read_patterns(os.path.join(d, "patterns.txt"))
    timing, _ = read_keyed(os.path.join(d, "timing.csv"))
    cupti, cupti_cols = {}, []
    for f in sorted(glob.glob(os.path.join(d, "counters-g*.csv"))):
        rows, cols = read_keyed(f)
        for c in cols[5:]:
            if c not in cupti_cols:
                cupti_cols.append(c)
        for k, r in rows.items():
            cupti.setdefault(k, {}).update({c: r[c] for c in cols[5:]})
    # ncu ran in chunks: patterns-ncu-NN.txt with ncu-raw-NN.csv and
    # ncu-source-NN.csv; a chunk's k_counted launches follow its accepted
    # patterns in order
    ncu_by, ncu_cols, src_by, src_ops = {}, [], {}, []
    dup = [0, 0]   # accesses ncu measured twice, and of those how many differ
    wanted = set()
    if os.path.exists(os.path.join(d, "ncu-metrics.txt")):
        wanted = set(open(os.path.join(d, "ncu-metrics.txt")).read().split(","))
        wanted = {m.strip() for m in wanted if m.strip()}
    for pf in sorted(glob.glob(os.path.join(d, "patterns-ncu-[0-9]*.txt"))):
        nn = re.search(r"patterns-ncu-(\d+)\.txt$", pf).group(1)
        # the program runs no refused pattern (runs before the kind
        # column was fixed wrote '?' for the kind of a refused row)
        cp = [p for p in read_patterns(pf)
              if timing.get(key(p["kind"], p["width"], p["name"]), {}).get("status", "ok") == "ok"
              and key("?", p["width"], p["name"]) not in timing]
        rows, cols = ncu_raw(os.path.join(d, f"ncu-raw-{nn}.csv"), wanted)
        for c in cols:
            if c not in ncu_cols:
                ncu_cols.append(c)
        if rows and len(rows) != len(cp):
            print(f"merge: chunk {nn}: {len(rows)} ncu kernels for {len(cp)} patterns: left out")
            rows = []
        # the first chunk (in file-name order) to measure an access wins
        for p, r in zip(cp, rows):
            k = key(p["kind"], p["width"], p["name"])
            if k in ncu_by:
                dup[0] += 1
                if any(ncu_by[k].get(c) != r.get(c) for c in cols if c in wanted):
                    dup[1] += 1
            ncu_by.setdefault(k, r)
        src = ncu_source(os.path.join(d, f"ncu-source-{nn}.csv"))
        if src and len(src) != len(cp):
            print(f"merge: chunk {nn}: {len(src)} ncu source kernels for {len(cp)} patterns: left out")
            src = []
        for p, (kname, ops) in zip(cp, src):
            src_by.setdefault(key(p["kind"], p["width"], p["name"]), ops)
            for op in ops:
                if op not in src_ops:
                    src_ops.append(op)
    sass_by, loops = sass(os.path.join(d, "sass-opcodes.csv"))

    seen = set()
    head = (["kind", "width", "name", "family", "line", "status", "lanes_active",
             "bytes_per_op"] + [f"a{l}" for l in range(32)] +
            ["sass_counted", "sass_loop"] + [f"cupti:{c}" for c in cupti_cols] +
            [f"ncu:{c}" for c in ncu_cols] +
            [f"ncu_src:{op}:{x}" for op in src_ops
             for x in ("inst", "wavefronts", "ideal", "excessive")] +
            ["lat_reps", "lat_cycles_min", "lat_cycles_median", "tp_iters",
             "tp_ops_per_sm", "tp_cycles_median", "tp_cycles_min",
             "tp_ops_per_clk_per_sm", "tp_bytes_per_clk_per_sm",
             "tp_wavefronts_per_clk_per_sm"])
    with open(out, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(head)
        for p in pats:
            k = key(p["kind"], p["width"], p["name"])
            if k in seen:
                sys.exit(f"merge: duplicate pattern {k}")
            seen.add(k)
            t = timing.get(k, {})
            status = t.get("status", "not run")
            named = [x != "-" for x in p["lanes"]]
            m = re.match(r"(ld|st)sm\.x(\d)", p["kind"])
            if m:
                lanes = 8 * int(m.group(2))
                bpo = 128 * int(m.group(2))
            else:
                lanes = sum(named)
                bpo = lanes * int(p["width"])
            row = [p["kind"], p["width"], p["name"], p["name"].split(".")[0],
                   p["line"], status, lanes, bpo] + p["lanes"]
            sk = (p["kind"], p["width"])
            row += [" ".join(sass_by.get(sk, [])), int(sk in loops)]
            c = cupti.get(k, {})
            row += [c.get(x, "") for x in cupti_cols]
            n = ncu_by.get(k, {})
            row += [n.get(x, "").replace(",", "") for x in ncu_cols]
            s = src_by.get(k)
            for op in src_ops:
                v = s.get(op) if s is not None and op in s else None
                row += ["%g" % x for x in v] if v else ["", "", "", ""]
            tp = {}
            try:
                ops_clk = float(t["tp_ops_per_sm"]) / float(t["tp_cycles_median"])
                tp["o"] = "%.4f" % ops_clk
                tp["b"] = "%.3f" % (ops_clk * bpo)
                wf = c.get("smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum", "")
                if wf != "":
                    tp["w"] = "%.4f" % (ops_clk * float(wf) / OPS)
            except (KeyError, ValueError, ZeroDivisionError):
                pass
            row += [t.get(x, "") for x in ("lat_reps", "lat_cycles_min", "lat_cycles_median",
                                           "tp_iters", "tp_ops_per_sm", "tp_cycles_median",
                                           "tp_cycles_min")]
            row += [tp.get("o", ""), tp.get("b", ""), tp.get("w", "")]
            w.writerow(row)
    print(f"merge: {len(pats)} patterns, {len(timing)} timed, {len(cupti)} with counters "
          f"({len(cupti_cols)} metrics), {len(ncu_by)} with ncu raw ({len(ncu_cols)} metrics), "
          f"{len(src_by)} with ncu source -> {out}")
    if dup[0]:
        print(f"merge: {dup[0]} accesses measured by ncu in two chunks; "
              f"{dup[1]} of them differ in a requested metric (the first is kept)")


if __name__ == "__main__":
    main()
