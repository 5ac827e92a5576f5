#!/usr/bin/env python3
"""compare_kinds.py REFERENCE.csv DATASET.csv... - measured rows against
earlier measurements of the same accesses.

A row of a DATASET matches the REFERENCE rows with the same kind (the
`op` or `kind` column), width and lane addresses, whatever their names.
Per kind: how many rows matched, on how many the wavefronts and the bank
conflicts per instruction are equal (both measured), the largest
difference of the latency median in cycles (and on how many rows it is
above 0.5), and the largest relative difference of the throughput in
bytes per clock per SM.  Rows without a match are counted, not compared.
"""
import csv
import sys
from collections import defaultdict


def rows(path):
    with open(path) as f:
        body = [line for line in f if not line.startswith("#")]
    for r in csv.DictReader(body):
        r["kind"] = r.get("kind") or r["op"]
        yield r


def num(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def key(r):
    return (r["kind"], r["width"], r["addresses"])


def main():
    ref = defaultdict(list)
    for r in rows(sys.argv[1]):
        ref[key(r)].append(r)
    st = defaultdict(lambda: dict(n=0, unmatched=0, wf=0, wfn=0, bc=0, bcn=0,
                                  lat=0.0, latn=0, lat_big=0, tp=0.0,
                                  tpn=0, worst_lat="", worst_tp=""))
    for path in sys.argv[2:]:
        for r in rows(path):
            s = st[r["kind"]]
            m = ref.get(key(r))
            if not m:
                s["unmatched"] += 1
                continue
            e = m[0]
            s["n"] += 1
            a, b = num(r["wavefronts_measured"]), num(e["wavefronts_measured"])
            if a is not None and b is not None:
                s["wfn"] += 1
                s["wf"] += a == b
            a, b = num(r["bank_conflicts_measured"]), num(e["bank_conflicts_measured"])
            if a is not None and b is not None:
                s["bcn"] += 1
                s["bc"] += a == b
            a, b = num(r["cycles_per_access_median"]), num(e["cycles_per_access_median"])
            if a is not None and b is not None:
                d = abs(a - b)
                s["latn"] += 1
                s["lat_big"] += d > 0.5
                if d >= s["lat"]:
                    s["lat"], s["worst_lat"] = d, f"{r['name']} {a:.2f}/{b:.2f}"
            a, b = num(r["tp_bytes_per_clk_per_sm"]), num(e["tp_bytes_per_clk_per_sm"])
            if a and b:
                d = abs(a - b) / b
                s["tpn"] += 1
                if d >= s["tp"]:
                    s["tp"], s["worst_tp"] = d, f"{r['name']} {a:.3f}/{b:.3f}"
    print(f"against {sys.argv[1]}")
    for k in sorted(st):
        s = st[k]
        print(f"{k}: {s['n']} rows matched ({s['unmatched']} without a match); "
              f"wavefronts equal on {s['wf']} of {s['wfn']}, conflicts on "
              f"{s['bc']} of {s['bcn']}; latency median: largest difference "
              f"{s['lat']:.2f} cycles ({s['worst_lat']}), {s['lat_big']} of "
              f"{s['latn']} above 0.5; throughput: largest relative "
              f"difference {100 * s['tp']:.2f} % ({s['worst_tp']})")


if __name__ == "__main__":
    main()
