# bankscope-dsmem --file refuses an address whose end wraps past 2^32
wrap 4 dsmem.ld 0 4294967292 - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -
