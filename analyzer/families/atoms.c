/*
 * atoms.c - probe-atoms: every shared atomic kind of the kinds table.
 *
 * The kinds: atom.add.u32, red.add.u32 (the same addition, result
 * unused), atom.cas.b32, atom.exch.b32, atom.min.s32, red.add1.u32
 * (atomicAdd(p, 1) with the result unused: ATOMS.POPC.INC), atom.add.f32
 * and atom.add.u64 (on sm_90 a retry loop of LDS and ATOMS.CAST.SPIN,
 * measured per source-level operation).  Each gets the element cases of
 * cases.c, words of 4 bytes (8 for u64): lane l on word l*s for s =
 * 0..33; k lanes per address, grouped (l/k) or interleaved (l % (32/k)),
 * with the 32/k addresses in different banks or all in one (samebank);
 * k lanes per bank on words of their own (kbank<k>); partial warps (the
 * low or high half, even lanes, lanes 0-7, one lane, two lanes in
 * different phases or the same, each on stride 1 or all on one word, and
 * three seeded random masks); and seeded random accesses without two
 * lanes on one word (rnd_distinct), from 64 words (rnd_any64: lanes
 * collide) and from 4 (rnd_few4).  The same cases with every kind, so
 * that kinds can be compared row by row: 88 points each, 704 in all.
 *
 * The question each asks (docs/notes/kinds-h100.md has the H100's
 * answers): are lanes on one word served together (a load's multicast)
 * or one at a time (an atomic's every update applies), and how does a
 * retry loop's cost grow with the lanes that collide?  Names:
 * <kind with _ for .>_<case>, e.g. atom_add_u32_s0, red_add1_u32_k4_grouped.
 */
#include <stdio.h>

#include "families.h"

static const struct {
	const char *kind;
	unsigned width;
} atoms[] = {
	{ "atom.add.u32", 4 },  { "red.add.u32", 4 },  { "atom.cas.b32", 4 },
	{ "atom.exch.b32", 4 }, { "atom.min.s32", 4 }, { "red.add1.u32", 4 },
	{ "atom.add.f32", 4 },  { "atom.add.u64", 8 },
};

void family_atoms(bs_points *pl)
{
	for (size_t i = 0; i < sizeof atoms / sizeof *atoms; i++) {
		char prefix[32];

		snprintf(prefix, sizeof prefix, "%s", atoms[i].kind);
		for (char *p = prefix; *p; p++)
			if (*p == '.')
				*p = '_';
		/* the same seed for every kind: the same random cases */
		family_elements(pl, prefix, atoms[i].kind, atoms[i].width,
				0xa70a5u);
	}
}
