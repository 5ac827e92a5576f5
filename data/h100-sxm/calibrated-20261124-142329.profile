# bankscope architecture profile (format: docs/model.md, "Profile files")
profile sm_90-calibrated
description derived by bankscope calibrate from 1309 measured rows of NVIDIA H100 80GB HBM3
compute_capability 9.0
banks 32
bank_bytes 4
source measured measured on NVIDIA H100 80GB HBM3: /root/out/data/all-20261124-142329.csv
rule ld 1 phase=32 lat_base=31 lat_slope=2 tp=31.77 source=measured
rule ld 2 phase=32 lat_base=31 lat_slope=2 tp=63.53 source=measured
rule ld 4 phase=32 lat_base=31 lat_slope=2 tp=127.07 source=measured
rule ld 8 phase=16 packed=32 partners=1,2 lat_base=32 lat_packed=31 lat_slope=2 tp=127.56 source=measured
rule ld 16 phase=8 packed=16 partners=1,2 lat_base=34 lat_packed=32 lat_slope=2 tp=127.77 source=measured
rule st 1 phase=32 tp=31.72 source=measured
rule st 2 phase=32 tp=63.45 source=measured
rule st 4 phase=32 tp=126.91 source=measured
rule st 8 phase=16 tp=127.64 source=measured
rule st 16 phase=8 tp=127.82 source=measured
