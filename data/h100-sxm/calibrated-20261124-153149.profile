# bankscope architecture profile (format: docs/model.md, "Profile files")
profile sm_90-calibrated
description derived by bankscope calibrate from 3889 measured rows of NVIDIA H100 80GB HBM3
compute_capability 9.0
banks 32
bank_bytes 4
source measured measured on NVIDIA H100 80GB HBM3: /root/out/data/all-20261124-153149.csv
rule ld 1 phase=32 lat_base=31 lat_slope=2 tp=31.76 source=measured
rule ld 2 phase=32 lat_base=31 lat_slope=2 tp=63.52 source=measured
rule ld 4 phase=32 lat_base=31 lat_slope=2 tp=127.04 source=measured
rule ld 8 phase=16 packed=32 partners=1,2 lat_base=32 lat_packed=31 lat_slope=2 tp=127.55 source=measured
rule ld 16 phase=8 packed=16 partners=1,2 lat_base=34 lat_packed=32 lat_slope=2 tp=127.77 source=measured
rule st 1 phase=32 tp=31.72 source=measured
rule st 2 phase=32 tp=63.45 source=measured
rule st 4 phase=32 tp=126.9 source=measured
rule st 8 phase=16 tp=127.64 source=measured
rule st 16 phase=8 tp=127.81 source=measured
rule ldsm.x1 16 phase=32 lat_base=31 lat_slope=2 tp=127.32 source=measured
rule ldsm.x2 16 phase=8 lat_base=31 lat_slope=2 tp=127.8 source=measured
rule ldsm.x4 16 phase=8 lat_base=31 lat_slope=2 tp=127.92 source=measured
rule ldsm.x1.t 16 phase=32 lat_base=31 lat_slope=2 tp=127.33 source=measured
rule ldsm.x2.t 16 phase=8 lat_base=31 lat_slope=2 tp=127.8 source=measured
rule ldsm.x4.t 16 phase=8 lat_base=31 lat_slope=2 tp=127.92 source=measured
rule stsm.x1 16 phase=32 tp=127.36 source=measured
rule stsm.x2 16 phase=8 tp=127.76 source=measured
rule stsm.x4 16 phase=8 tp=127.89 source=measured
rule stsm.x1.t 16 phase=32 tp=127.36 source=measured
rule stsm.x2.t 16 phase=8 tp=127.76 source=measured
rule stsm.x4.t 16 phase=8 tp=127.89 source=measured
rule atom.add.u32 4 phase=32 same_word=serial lat_base=34 lat_slope=2 tp=127.25 source=measured
rule red.add.u32 4 phase=32 same_word=serial tp=127.43 source=measured
rule atom.cas.b32 4 phase=32 same_word=serial slot_waves=2 lat_base=36 lat_slope=2 tp=63.89 source=measured
rule atom.exch.b32 4 phase=32 same_word=serial lat_base=34 lat_slope=2 tp=127.25 source=measured
rule atom.min.s32 4 phase=32 same_word=serial lat_base=34 lat_slope=2 tp=127.25 source=measured
rule red.add1.u32 4 phase=32 tp=127.05 source=measured
rule atom.add.f32 4 phase=8 slot_waves=2 lat_base=335.45 lat_slope=8.03 source=measured
rule atom.add.u64 8 phase=8 slot_waves=2 lat_base=280.3 lat_slope=8.58 source=measured
rule cp.async.ca 4 phase=32 same_word=serial tp=40.02 source=measured
rule cp.async.ca 8 phase=16 same_word=serial tp=68.52 source=measured
rule cp.async.ca 16 phase=8 same_word=serial tp=99.39 source=measured
rule cp.async.cg 16 phase=1 packed=32 partners=1,16 source=measured
