# Rules chosen for the tile, swizzle and fix tests, NOT measured: the
# built-in sm_90 profile does not model ldmatrix, stmatrix or cp.async
# yet.  16-byte rows are served in phases of 8 lanes (each phase one
# 128-byte line of the 32 banks), 8-byte accesses in phases of 16 and
# 4-byte ones in one phase of 32, as sm_90 serves ld and st; no packing,
# no timing.  The tests' expected wavefronts are worked by hand from these
# rules (tests/check_shapes.c, tests/check_fix.c).
profile tiles16
description rules chosen for the tests, not measured: 16-byte rows in phases of 8 lanes
banks 32
bank_bytes 4
source chosen assumed for the tile and fix tests, not measured
rule ld 4 phase=32 source=chosen
rule ld 16 phase=8 source=chosen
rule st 16 phase=8 source=chosen
rule ldsm.x1 16 phase=8 source=chosen
rule ldsm.x2 16 phase=8 source=chosen
rule ldsm.x4 16 phase=8 source=chosen
rule ldsm.x4.t 16 phase=8 source=chosen
rule stsm.x2 16 phase=8 source=chosen
rule stsm.x4 16 phase=8 source=chosen
rule cp.async.ca 4 phase=32 source=chosen
rule cp.async.ca 8 phase=16 source=chosen
rule cp.async.ca 16 phase=8 source=chosen
rule cp.async.cg 16 phase=8 source=chosen
