# a load that packs with 31 lane partners: every partner the reader takes
profile many_partners
description made up for a test: packing with every lane partner
banks 32
bank_bytes 4
source test invented, not measured
rule ld 8 phase=1 packed=32 partners=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31 source=test
