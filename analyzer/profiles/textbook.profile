# bankscope architecture profile (format: docs/model.md, "Profile files")
profile textbook
description the tutorial model: 32 banks x 4 B, one phase of 32 lanes for every width, no packing, no timing
banks 32
bank_bytes 4
source tutorials assumed from the picture most tutorials draw, not measured
rule ld 1 phase=32 source=tutorials
rule ld 2 phase=32 source=tutorials
rule ld 4 phase=32 source=tutorials
rule ld 8 phase=32 source=tutorials
rule ld 16 phase=32 source=tutorials
rule st 1 phase=32 source=tutorials
rule st 2 phase=32 source=tutorials
rule st 4 phase=32 source=tutorials
rule st 8 phase=32 source=tutorials
rule st 16 phase=32 source=tutorials
