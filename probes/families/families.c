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
	  "loads and stores" },
	{ "broadcast", family_broadcast,
	  "k distinct addresses among 32 lanes, grouped or interleaved, "
	  "spread over banks or in one" },
	{ "padding", family_padding,
	  "arrays of structs with 0..4 padding floats; 32x32, 32x33 and "
	  "XOR-swizzled tiles by row and column" },
	{ "wide", family_wide,
	  "8- and 16-byte accesses: phases, pairwise-uniform packing, "
	  "partial warps" },
	{ "random", family_random, "300 seeded random accesses" },
	{ NULL, NULL, NULL },
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
