# a remote access of no active lane: nothing to fix, said so (issue 30, item 14)
none 4 dsmem.ld - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -
