# accesses of no active lane, priced alike whatever the kind (issue 30, item 14):
# no phase, no wavefront, and a latency only where the kind has one
none_ld 4 ld - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -
none_st 4 st - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -
none_dsmem.ld 4 dsmem.ld - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -
none_dsmem.st 4 dsmem.st - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -
none_atom.add.u32 4 atom.add.u32 - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -
none_ldsm.x4 16 ldsm.x4 - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -
