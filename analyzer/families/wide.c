/*
 * wide.c - probe-wide: 8- and 16-byte accesses, their phases and packing.
 *
 * Each case is an element index per lane (elements of 8 or 16 bytes) and a
 * set of active lanes, loaded and stored.  The model under test: 8-byte
 * accesses run in two phases of 16 lanes, 16-byte in four of 8; a load
 * whose request is pairwise uniform (lane l and l^1, or l and l^2, want
 * the same address, where both are active) packs into phases twice as
 * wide; stores never pack; a phase with no active lane costs nothing.
 * The cases that tell these apart: l/2 and l/4 (pairs and quads share),
 * l%16 and l%8 (halves repeat: not pairwise), l^1 (a permutation: not
 * pairwise), pairs with conflicts (l/2*2, l/2*4), the l^2 partner, half
 * warps, even lanes alone and two lanes alone (trivially pairwise uniform:
 * does the hardware pack them?).  Names: <type>_<op>_<case>.
 */
#include <stdio.h>

#include "families.h"

/* elem[i](l): lane l's element index in case i (the table below). */
static unsigned e_s1(unsigned l) { return l; }
static unsigned e_s0(unsigned l) { (void)l; return 0; }
static unsigned e_s2(unsigned l) { return 2 * l; }
static unsigned e_pairs(unsigned l) { return l / 2; }
static unsigned e_quads(unsigned l) { return l / 4; }
static unsigned e_mod16(unsigned l) { return l % 16; }
static unsigned e_mod8(unsigned l) { return l % 8; }
static unsigned e_xor1(unsigned l) { return l ^ 1; }
static unsigned e_pairs_s2(unsigned l) { return l / 2 * 2; }
static unsigned e_pairs_s4(unsigned l) { return l / 2 * 4; }
static unsigned e_pairs_s8(unsigned l) { return l / 2 * 8; }
static unsigned e_partner2(unsigned l) { return (l >> 2) * 2 + (l & 1); }
static unsigned e_quads_s2(unsigned l) { return l / 4 * 2; }
static unsigned e_lanes_0_8(unsigned l) { return l / 8; }

/* Each case, with the words the report explains it in. */
const bs_wide_case bs_wide_cases[] = {
	{ "s1", 0xffffffffu, "all", "l", "stride 1: the ideal" },
	{ "s0", 0xffffffffu, "all", "0", "one address: packs" },
	{ "s2", 0xffffffffu, "all", "2*l", "2-way in each phase" },
	{ "pairs", 0xffffffffu, "all", "l/2", "pairs share (l, l^1): packs" },
	{ "quads", 0xffffffffu, "all", "l/4", "quads share: packs" },
	{ "mod16", 0xffffffffu, "all", "l%16",
	  "the halves repeat: not pairwise" },
	{ "mod8", 0xffffffffu, "all", "l%8",
	  "the quarters repeat: not pairwise" },
	{ "xor1", 0xffffffffu, "all", "l^1", "a permutation: not pairwise" },
	{ "pairs_s2", 0xffffffffu, "all", "l/2*2", "pairs, 2-way once packed" },
	{ "pairs_s4", 0xffffffffu, "all", "l/2*4", "pairs, 4-way once packed" },
	{ "pairs_s8", 0xffffffffu, "all", "l/2*8", "pairs, 8-way once packed" },
	{ "partner2", 0xffffffffu, "all", "(l>>2)*2 + (l&1)",
	  "lane l shares with l^2: packs" },
	{ "quads_s2", 0xffffffffu, "all", "l/4*2", "quads, spread" },
	{ "half_lo_s1", 0x0000ffffu, "0-15", "l", "second half idle" },
	{ "half_hi_s1", 0xffff0000u, "16-31", "l", "first half idle" },
	{ "even_s1", 0x55555555u, "even", "l", "trivially pairwise uniform" },
	{ "odd_s1", 0xaaaaaaaau, "odd", "l", "trivially pairwise uniform" },
	{ "lane0", 0x00000001u, "0", "l", "one lane" },
	{ "lanes_0_8", 0x00000101u, "0, 8", "l/8",
	  "two lanes, two 16-byte phases" },
	{ "lanes_0_16", 0x00010001u, "0, 16", "l/8", "two lanes, two halves" },
	{ "lanes_0_1_diff", 0x00000003u, "0, 1", "l",
	  "two lanes, two addresses" },
	{ NULL, 0, NULL, NULL, NULL },
};

static unsigned (*const elem_of[])(unsigned) = {
	e_s1, e_s0, e_s2, e_pairs, e_quads, e_mod16, e_mod8, e_xor1,
	e_pairs_s2, e_pairs_s4, e_pairs_s8, e_partner2, e_quads_s2, e_s1,
	e_s1, e_s1, e_s1, e_s1, e_lanes_0_8, e_lanes_0_8, e_s1,
};

_Static_assert(sizeof elem_of / sizeof *elem_of ==
	       sizeof bs_wide_cases / sizeof *bs_wide_cases - 1,
	       "one element function per wide case");

void family_wide(bs_points *pl)
{
	char name[BS_NAME_MAX];
	uint32_t elem[BS_LANES];

	for (int w = 3; w < BS_NWIDTHS; w++)
		for (int op = 0; op < 2; op++)
			for (size_t c = 0; bs_wide_cases[c].name; c++) {
				const bs_wide_case *wc = &bs_wide_cases[c];

				for (unsigned l = 0; l < BS_LANES; l++)
					elem[l] = elem_of[c](l);
				snprintf(name, sizeof name, "%s_%s_%s",
					 bs_type_name[w], op ? "st" : "ld",
					 wc->name);
				bs_points_add_elems(pl, name, bs_widths[w],
						    (bs_kind)op, wc->active,
						    elem);
			}
}
