# bankscope architecture profile (format: docs/model.md, "Profile files")
# Every rule is what `bankscope calibrate` derives from the H100 run
# below (the suite's nine probe families; its calibrated profile is
# data/h100-sxm/calibrated-20261124-153149.profile).  The earlier H100
# and H200 runs of the five ld/st families give the same ld and st rules
# (data/h200/all-20261122-052847.csv: throughput within 0.2 bytes per
# clock), the H200 run of all nine (data/h200/all-20261124-153809.csv)
# every rule, and the exploration of docs/notes/kinds-h100.md the same
# rules for the other kinds.  atom.add.f32 and atom.add.u64 compile to
# retry loops (LDS + ATOMS.CAST.SPIN): loop=cas counts them pass by pass
# (88 of 88 rows of each run for each; their cycles follow the passes, so
# no latency line); the 64-bit loop's loads pack only when, packed, they
# take one wavefront (predict.c, unexplained).  cp.async.cg
# (LDGSTS.E.BYPASS) is counted by lines, not bank slots: copy=lines (116
# of 116 rows of each run, 224 of 224 of the exploration), its source
# taken to be the coalesced one every probe copies from.  These two were
# derived after the runs, from their rows; 55 cg and 46 of 48 u64
# accesses drawn later came out as predicted, and the u64 reading here
# is the one that also gives the other two
# (data/h100-sxm/holdout-20261124/).
profile sm_90
description Hopper (H100, H200), measured: 32 banks x 4 B; 8-byte accesses in 2 phases, 16-byte in 4; pairwise-uniform loads pack; ldmatrix/stmatrix a phase per matrix; atomics serialize a word; float atomicAdd a CAS loop; cp.async.cg by lines
compute_capability 9.0
banks 32
bank_bytes 4
source h100 measured on NVIDIA H100 80GB HBM3 (CUDA 13.0, driver 580.159.04): data/h100-sxm/all-20261124-153149.csv
rule ld 1 phase=32 lat_base=31 lat_slope=2 tp=31.76 source=h100
rule ld 2 phase=32 lat_base=31 lat_slope=2 tp=63.52 source=h100
rule ld 4 phase=32 lat_base=31 lat_slope=2 tp=127.04 source=h100
rule ld 8 phase=16 packed=32 partners=1,2 lat_base=32 lat_packed=31 lat_slope=2 tp=127.55 source=h100
rule ld 16 phase=8 packed=16 partners=1,2 lat_base=34 lat_packed=32 lat_slope=2 tp=127.77 source=h100
rule st 1 phase=32 tp=31.72 source=h100
rule st 2 phase=32 tp=63.45 source=h100
rule st 4 phase=32 tp=126.9 source=h100
rule st 8 phase=16 tp=127.64 source=h100
rule st 16 phase=8 tp=127.81 source=h100
rule ldsm.x1 16 phase=32 lat_base=31 lat_slope=2 tp=127.32 source=h100
rule ldsm.x2 16 phase=8 lat_base=31 lat_slope=2 tp=127.8 source=h100
rule ldsm.x4 16 phase=8 lat_base=31 lat_slope=2 tp=127.92 source=h100
rule ldsm.x1.t 16 phase=32 lat_base=31 lat_slope=2 tp=127.33 source=h100
rule ldsm.x2.t 16 phase=8 lat_base=31 lat_slope=2 tp=127.8 source=h100
rule ldsm.x4.t 16 phase=8 lat_base=31 lat_slope=2 tp=127.92 source=h100
rule stsm.x1 16 phase=32 tp=127.36 source=h100
rule stsm.x2 16 phase=8 tp=127.76 source=h100
rule stsm.x4 16 phase=8 tp=127.89 source=h100
rule stsm.x1.t 16 phase=32 tp=127.36 source=h100
rule stsm.x2.t 16 phase=8 tp=127.76 source=h100
rule stsm.x4.t 16 phase=8 tp=127.89 source=h100
rule atom.add.u32 4 phase=32 same_word=serial lat_base=34 lat_slope=2 tp=127.25 source=h100
rule red.add.u32 4 phase=32 same_word=serial tp=127.43 source=h100
rule atom.cas.b32 4 phase=32 same_word=serial slot_waves=2 lat_base=36 lat_slope=2 tp=63.89 source=h100
rule atom.exch.b32 4 phase=32 same_word=serial lat_base=34 lat_slope=2 tp=127.25 source=h100
rule atom.min.s32 4 phase=32 same_word=serial lat_base=34 lat_slope=2 tp=127.25 source=h100
rule atom.add.f32 4 phase=32 slot_waves=2 loop=cas source=h100
rule atom.add.u64 8 phase=16 slot_waves=2 loop=cas source=h100
rule red.add1.u32 4 phase=32 tp=127.05 source=h100
rule cp.async.ca 4 phase=32 same_word=serial tp=40.02 source=h100
rule cp.async.ca 8 phase=16 same_word=serial tp=68.52 source=h100
rule cp.async.ca 16 phase=8 same_word=serial tp=99.39 source=h100
rule cp.async.cg 16 phase=8 copy=lines tp=63.11 source=h100
