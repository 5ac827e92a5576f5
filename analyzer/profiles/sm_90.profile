# bankscope architecture profile (format: docs/model.md, "Profile files")
# The rules are what `bankscope calibrate` derives from the H100 dataset
# below; the H200 dataset (data/h200/all-20261122-052847.csv) gives the
# same rules, and throughput within 0.2 bytes per clock.
profile sm_90
description Hopper (H100, H200), measured: 32 banks x 4 B; 8-byte accesses in 2 phases, 16-byte in 4; pairwise-uniform loads pack
compute_capability 9.0
banks 32
bank_bytes 4
source h100 measured on NVIDIA H100 80GB HBM3 (CUDA 13.0, driver 580.159.04): data/h100-sxm/all-20261122-052715.csv
rule ld 1 phase=32 lat_base=31 lat_slope=2 tp=31.77 source=h100
rule ld 2 phase=32 lat_base=31 lat_slope=2 tp=63.53 source=h100
rule ld 4 phase=32 lat_base=31 lat_slope=2 tp=127.06 source=h100
rule ld 8 phase=16 packed=32 partners=1,2 lat_base=32 lat_packed=31 lat_slope=2 tp=127.56 source=h100
rule ld 16 phase=8 packed=16 partners=1,2 lat_base=34 lat_packed=32 lat_slope=2 tp=127.77 source=h100
rule st 1 phase=32 tp=31.72 source=h100
rule st 2 phase=32 tp=63.45 source=h100
rule st 4 phase=32 tp=126.91 source=h100
rule st 8 phase=16 tp=127.65 source=h100
rule st 16 phase=8 tp=127.82 source=h100
