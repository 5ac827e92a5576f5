# a file that calls itself by a built-in's name: refused, to be renamed
profile sm_90
description one phase for everything
banks 32
bank_bytes 4
source test invented, not measured
rule ld 4 phase=32 source=test
