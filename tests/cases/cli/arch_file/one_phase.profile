# 8-byte loads in one phase of 32 lanes: a made-up GPU
profile one_phase
description made up for a test: 8-byte loads in one phase
banks 32
bank_bytes 4
source test invented, not measured
rule ld 8 phase=32 lat_base=20 lat_slope=1 source=test
