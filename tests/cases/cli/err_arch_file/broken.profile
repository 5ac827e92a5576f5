profile broken
banks 32
bank_bytes 4
source test invented
rule ld 8 phase=16 packed=32 source=test
