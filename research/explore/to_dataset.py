#!/usr/bin/env python3
"""to_dataset.py EXPLORE.csv OUT.csv - the exploration's rows as a dataset.

Turns the merged exploration CSV (merge.py, combine.sh) into a bankscope
dataset (analyzer/input/bs_input.h, BS_DATASET_COLUMNS) that `bankscope check`
and `bankscope calibrate` read.  Per kind, the counters that are exact per
instruction (docs/notes/kinds-h100.md, "Which counter sees which kind"),
all read in process by the CUPTI range profiler:

  ld, st         l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st} and
                 ..._bank_conflicts_..._op_{ld,st} over
                 smsp__inst_executed_op_shared_{ld,st}
  ldsm.*, stsm.* smsp__sass_..._wavefronts_mem_shared_op_{ldsm,stsm} and
                 smsp__sass_..._bank_conflicts_..._op_{ldsm,stsm} over
                 smsp__sass_inst_executed_op_{ldsm,shared_stsm}
  the ATOMS kinds smsp__sass_..._wavefronts_..._op_atom and
                 l1tex__data_bank_conflicts_..._op_atom over
                 smsp__sass_inst_executed_op_shared_atom
  cp.async.ca    smsp__sass_..._wavefronts_..._op_ldgsts and
                 smsp__sass_..._bank_conflicts_..._op_ldgsts over
                 smsp__sass_inst_executed_op_ldgsts
  cp.async.cg    the same wavefronts; conflicts not read: every conflict
                 counter reads 0 for LDGSTS.BYPASS (as the probe runner's
                 counters_cp.async.cg says)
  the f32/u64    (smsp__sass_..._op_ld + _op_atom) over the 64 source
  retry loops    operations of the counted launch; conflicts not read

Kind names: the exploration's cuda.inc (atomicAdd(p, 1), result unused:
ATOMS.POPC.INC.32) is red.add1.u32; cuda.inc.ret (result used: ATOMS.ADD)
is atom.add.u32.  The lanes an x1 or x2 matrix kind takes no address from
(8-31, 16-31) are written '-': the hardware ignores what they hold (the
junk.unused_conflict rows show it), and a pattern names only the lanes
that count.  cycles_per_access_min/median are the exploration's
chain: a latency for kinds that return a value, an interval for the
others.  The rows the exploration refused (ldmatrix rows not 16-byte
aligned) are left out: a dataset holds accesses, and those are none.
"""
import csv
import math
import sys

NAMES = {"cuda.inc": "red.add1.u32", "cuda.inc.ret": "atom.add.u32"}
C = "cupti:"
SW = C + "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_"
SB = C + "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_"
SI = C + "smsp__sass_inst_executed_op_"


def num(row, key):
    v = row.get(key, "")
    return float(v) if v not in ("", None) else math.nan


def counts(kind, row):
    """(wavefronts, conflicts, instructions) per instruction, or NaN."""
    if kind in ("ld", "st"):
        inst = num(row, C + "smsp__inst_executed_op_shared_" + kind + ".sum")
        wf = num(row, C + "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_"
                 + kind + ".sum")
        bc = num(row, C + "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_"
                 + kind + ".sum")
        return wf / inst, bc / inst, inst
    if kind.startswith("ldsm") or kind.startswith("stsm"):
        op = kind[:4]
        inst = num(row, SI + ("ldsm" if op == "ldsm" else "shared_stsm")
                   + ".sum")
        return (num(row, SW + op + ".sum") / inst,
                num(row, SB + op + ".sum") / inst, inst)
    if kind in ("atom.add.f32", "atom.add.u64"):
        ops = 64.0
        return ((num(row, SW + "ld.sum") + num(row, SW + "atom.sum")) / ops,
                math.nan, ops)
    if kind.startswith("cp.async"):
        inst = num(row, SI + "ldgsts.sum")
        return (num(row, SW + "ldgsts.sum") / inst,
                math.nan if kind == "cp.async.cg"
                else num(row, SB + "ldgsts.sum") / inst, inst)
    inst = num(row, SI + "shared_atom.sum")
    return (num(row, SW + "atom.sum") / inst,
            num(row, C + "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_"
                "atom.sum") / inst, inst)


def fmt(v, digits):
    if math.isnan(v):
        return ""
    s = "%.*f" % (digits, v)
    if digits and "." in s:
        s = s.rstrip("0").rstrip(".")
    return s


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: to_dataset.py EXPLORE.csv OUT.csv")
    rows = list(csv.DictReader(open(sys.argv[1])))
    with open(sys.argv[2], "w", newline="") as f:
        f.write("# gpu: NVIDIA H100 80GB HBM3\n"
                "# compute_capability: 9.0\n"
                "# arch: sm_90\n"
                "# probe: explore\n"
                "# source: " + sys.argv[1] + " (research/explore/, "
                "converted by research/explore/to_dataset.py)\n"
                "# counter_method: one warp, 64 operations, CUPTI range "
                "profiler; the counters of each kind as to_dataset.py says\n"
                "# latency_method: (t(96) - t(32)) / 64, dependent chain for "
                "kinds that return a value, the interval for the others\n")
        f.write("probe,name,width,op,active_lanes,wavefronts_measured,"
                "bank_conflicts_measured,instructions,cycles_per_access_min,"
                "cycles_per_access_median,tp_bytes_per_clk_per_sm,"
                "tp_wavefronts_per_clk_per_sm,note,addresses\n")
        for row in rows:
            if row["status"] != "ok":
                continue
            kind = NAMES.get(row["kind"], row["kind"])
            lanes = 8 if ".x1" in kind else 16 if ".x2" in kind else 32
            addr = " ".join(row["a%d" % i] if i < lanes else "-"
                            for i in range(32))
            wf, bc, inst = counts(kind, row)
            cmin = num(row, "lat_cycles_min")
            cmed = num(row, "lat_cycles_median")
            tp = num(row, "tp_bytes_per_clk_per_sm")
            tpw = num(row, "tp_wavefronts_per_clk_per_sm")
            note = ""
            f.write(",".join([
                row["family"], row["kind"] + "." + row["name"],
                row["width"], kind,
                str(sum(a != "-" for a in addr.split())), fmt(wf, 4),
                fmt(bc, 4), fmt(inst, 0), fmt(cmin, 2), fmt(cmed, 2),
                fmt(tp, 3), fmt(tpw, 3), note, addr]) + "\n")


main()
