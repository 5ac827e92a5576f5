/*
 * families.c - the family table: one row per probe family, the one place
 * that lists them.  `bankscope-probe --list` prints it, `make probe-NAME`
 * runs the row NAME, `bankscope calibrate` searches its points.
 */
#include <string.h>

#include "families.h"

const bs_family bs_families[] = {
	{ "stride", family_stride,
	  "lane l accesses element l*s: strides 0..64, widths 1..16 B, "
	  "loads and stores", NULL },
	{ "broadcast", family_broadcast,
	  "k distinct addresses among 32 lanes, grouped or interleaved, "
	  "spread over banks or in one", NULL },
	{ "padding", family_padding,
	  "arrays of structs with 0..4 padding floats; 32x32, 32x33 and "
	  "XOR-swizzled tiles by row and column", NULL },
	{ "wide", family_wide,
	  "8- and 16-byte accesses: phases, pairwise-uniform packing, "
	  "partial warps", NULL },
	{ "random", family_random, "300 seeded random accesses", NULL },
	{ "ldsm", family_ldsm,
	  "ldmatrix x1/x2/x4 and .t: row pitches 16..528 B, matrices "
	  "stacked, side by side and in mma order, swizzled tiles, broadcast "
	  "rows, seeded random", NULL },
	{ "stsm", family_stsm, "stmatrix x1/x2/x4 and .t (sm_90): the "
	  "points of ldsm", NULL },
	{ "atoms", family_atoms,
	  "shared atomics, every kind: word strides 0..33, k lanes per "
	  "address and per bank, partial warps, seeded random", NULL },
	{ "cpasync", family_cpasync,
	  "cp.async.ca 4/8/16 B and .cg 16 B into shared memory: strides, "
	  "broadcast destinations, partial warps, tiles, lane order, seeded "
	  "random", NULL },
	{ "dsmem", family_dsmem,
	  "another CTA's shared memory (sm_90 clusters): ld/st 1..16 B, "
	  "red and atom, strides, lanes per word, lines, seeded random",
	  "bankscope-dsmem" },
	{ NULL, NULL, NULL, NULL },
};

const bs_family *bs_family_find(const char *name)
{
	for (const bs_family *f = bs_families; f->name; f++)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}

int bs_family_points(const char *name, bs_points *pl)
{
	for (const bs_family *f = bs_families; f->name; f++) {
		if (name && strcmp(f->name, name))
			continue;
		pl->family = f->name;
		f->generate(pl);
	}
	return pl->failed ? -1 : 0;
}
