#!/usr/bin/env python3
"""make.py - writes this case's records (run from its folder): a kernel
whose instructions exercise the explain library's counts
(explain-counts.tsv) and grid samples (exec | 0x80000000):
  0x10 @!P0 STS  16 executions, 8 with a lane on (counts): 2 wavefronts
                 each by the model and by the counters over those 8
  0x20 LDS       8 executions, none with a lane on (no count line), no
                 wavefront: LANES OFF
  0x30 HGMMA     no callback records it: NOT MODELED
  0x40 LDS       grid samples of 1 and 2 wavefronts at indexes 0..3, 4,
                 6, 8, 12, ..., weighted by the executions each stands
                 for: DATA-DEPENDENT, consistent with the counters' 1.75
  0x50 LDS       40 samples of the warps' sample, each 1 wavefront, the
                 lanes' addresses varying; the counters say 1.3:
                 DISAGREES, 4.1 standard errors off
  0x60 LDS       counts above CUPTI's executions (an instrumented run
                 that did more): not used, the counters' mean over every
                 execution
"""
K, F = "k(float*)", "_Z1kPf"
GRID = 0x80000000


def lanes(v):
    return " ".join("-" if a is None else str(a) for a in v)


def rec(pc, kind, block, warp, ex, addr):
    return f"0\t{K}\t{F}\t0x{pc:x}\t{kind}\t4\t1\t{block}\t{warp}\t{ex}\t{lanes(addr)}\t-"


two_way = [4 * l if l < 16 else 128 + 4 * (l - 16) for l in range(32)]
one = [4 * l for l in range(32)]
rows = []
# 0x10: 15 of 32 lanes, 2-way
rows += [rec(0x10, "st", 0, w, 0, two_way) for w in range(2)]
# 0x40: grid samples; the value at index n: 2 from n >= 16, else 1
pts = [0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48]
for i, n in enumerate(pts):
    rows.append(rec(0x40, "ld", 2 + i, 0, GRID | n, two_way if n >= 16 else one))
# 0x50: 40 samples, each one wavefront, the lanes rotated by sample
for i in range(40):
    rows.append(rec(0x50, "ld", i // 8, i % 8, 0, [4 * ((l + i) % 32) for l in range(32)]))
rows += [rec(0x60, "ld", 0, 0, 0, one)]
with open("explain.tsv", "w") as f:
    f.write("launch\tkernel\tfunction\tpc_offset\tkind\twidth\tcount\tblock\t"
            "warp\texec\taddresses\tsources\n")
    f.write("\n".join(rows) + "\n")
with open("explain-counts.tsv", "w") as f:
    f.write("launch\tkernel\tfunction\tpc_offset\tactive\tremote\n")
    for pc, act in ((0x10, 8), (0x40, 64), (0x50, 40), (0x60, 9)):
        f.write(f"0\t{K}\t{F}\t0x{pc:x}\t{act}\t0\n")
with open("explain-status.txt", "w") as f:
    f.write("ok\nlaunch 0\tk(float*)\t53 records\t0 dropped\t0 pcs over the table\t12 grid records\t0 grid dropped\t0 grid pcs over the table\n")
recs = [(0x10, 16, 16, 8), (0x20, 8, 0, 0), (0x30, 4, 48, 48),
        (0x40, 64, 112, 64), (0x50, 40, 52, 40), (0x60, 8, 8, 8)]
with open("records.tsv", "w") as f:
    f.write("kernel\tlaunch\tcubin_crc\tfunction_index\tfunction\tpc_offset\t"
            "inst_executed\twavefronts\twavefronts_ideal\n")
    for pc, e, w, i in recs:
        f.write(f"{K}\t-\t7\t0\t{F}\t0x{pc:x}\t{e}\t{w}\t{i}\n")
with open("launches.tsv", "w") as f:
    f.write("launch\tkernel\tpc_records\n0\tk(float*)\t*\n")
with open("status.txt", "w") as f:
    f.write("ok\n")
sass = {0x10: "@!P0 STS [R8], R9", 0x20: "LDS R1, [R2]",
        0x30: "HGMMA.64x128x16.F32 R24, gdesc[UR16], R24",
        0x40: "LDS R3, [R4]", 0x50: "LDS R5, [R6]", 0x60: "LDS R7, [R8]"}
with open("cubin-7.sass", "w") as f:
    f.write("\tcode for sm_90\n\t\tFunction : _Z1kPf\n"
            '\t.headerflags\t@"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"\n')
    for pc, t in sass.items():
        f.write(f'        //## File "/src/fake.cu", line {pc >> 4}\n')
        f.write(f"        /*{pc:04x}*/                   {t} ;\n")
