# bankscope-dsmem --file: a name with a terminal escape is printed escaped
e[2Jxÿ 4 ld 0 4 8 12 16 20 24 28 32 36 40 44 48 52 56 60 64 68 72 76 80 84 88 92 96 100 104 108 112 116 120 124
