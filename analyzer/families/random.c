/*
 * random.c - probe-random: seeded random accesses, 300 points.
 *
 * For each width and op, 30 accesses from a fixed-seed xorshift generator:
 * 16 with every lane at a random aligned address in the first 4 KiB,
 * 6 more with a random set of active lanes, and 8 drawn from four
 * addresses only (heavy multicast; for 8 and 16 bytes, pairwise uniform by
 * construction: lane l copies lane l^1 or l^2).  The seed is fixed so the
 * dataset can be reproduced; names: rnd_<type>_<op>_<kind><n>.
 */
#include <stdio.h>

#include "families.h"

static uint64_t state = 0x9e3779b97f4a7c15ull;

static uint32_t next(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return (uint32_t)(state >> 16);
}

static void add_random(bs_points *pl, int w, int op, int kind, int n)
{
	static const char *const kinds[] = { "all", "mask", "few" };
	unsigned width = bs_widths[w];
	bs_access a = { 0 };

	snprintf(a.name, sizeof a.name, "rnd_%s_%s_%s%d", bs_type_name[w],
		 op ? "st" : "ld", kinds[kind], n);
	a.width = width;
	a.kind = (bs_kind)op;
	a.active = kind == 1 ? next() | 1u : 0xffffffffu;
	for (unsigned l = 0; l < BS_LANES; l++) {
		unsigned span = kind == 2 ? 4 : 4096 / width;

		a.addr[l] = next() % span * (kind == 2 ? 128 / width + 1 : 1)
			    * width;
	}
	if (kind == 2 && width >= 8) {
		unsigned m = next() & 1 ? 1 : 2;

		for (unsigned l = 0; l < BS_LANES; l++)
			if (l & m)
				a.addr[l] = a.addr[l ^ m];
	}
	for (unsigned l = 0; l < BS_LANES; l++)
		if (!(a.active >> l & 1))
			a.addr[l] = 0;
	bs_points_add(pl, &a);
}

void family_random(bs_points *pl)
{
	state = 0x9e3779b97f4a7c15ull;
	for (int w = 0; w < BS_NWIDTHS; w++)
		for (int op = 0; op < 2; op++)
			for (int i = 0; i < 30; i++)
				add_random(pl, w, op, i < 16 ? 0 : i < 22 ? 1 : 2,
					   i);
}
