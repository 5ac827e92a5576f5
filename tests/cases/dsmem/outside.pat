# bankscope-dsmem --file refuses an access past its 48 KiB window
edge 4 dsmem.ld 49148 49152 - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -
