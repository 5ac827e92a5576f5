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

typedef struct {
	const char *name;
	uint32_t active;
	unsigned (*elem)(unsigned l);
} wide_case;

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

static const wide_case cases[] = {
	{ "s1", 0xffffffffu, e_s1 },
	{ "s0", 0xffffffffu, e_s0 },
	{ "s2", 0xffffffffu, e_s2 },
	{ "pairs", 0xffffffffu, e_pairs },
	{ "quads", 0xffffffffu, e_quads },
	{ "mod16", 0xffffffffu, e_mod16 },
	{ "mod8", 0xffffffffu, e_mod8 },
	{ "xor1", 0xffffffffu, e_xor1 },
	{ "pairs_s2", 0xffffffffu, e_pairs_s2 },
	{ "pairs_s4", 0xffffffffu, e_pairs_s4 },
	{ "pairs_s8", 0xffffffffu, e_pairs_s8 },
	{ "partner2", 0xffffffffu, e_partner2 },
	{ "quads_s2", 0xffffffffu, e_quads_s2 },
	{ "half_lo_s1", 0x0000ffffu, e_s1 },
	{ "half_hi_s1", 0xffff0000u, e_s1 },
	{ "even_s1", 0x55555555u, e_s1 },
	{ "odd_s1", 0xaaaaaaaau, e_s1 },
	{ "lane0", 0x00000001u, e_s1 },
	{ "lanes_0_8", 0x00000101u, e_lanes_0_8 },
	{ "lanes_0_16", 0x00010001u, e_lanes_0_8 },
	{ "lanes_0_1_diff", 0x00000003u, e_s1 },
};

void family_wide(bs_points *pl)
{
	char name[BS_NAME_MAX];
	uint32_t elem[BS_LANES];

	for (int w = 3; w < BS_NWIDTHS; w++)
		for (int op = 0; op < 2; op++)
			for (size_t c = 0; c < sizeof cases / sizeof *cases;
			     c++) {
				for (unsigned l = 0; l < BS_LANES; l++)
					elem[l] = cases[c].elem(l);
				snprintf(name, sizeof name, "%s_%s_%s",
					 bs_type_name[w], op ? "st" : "ld",
					 cases[c].name);
				bs_points_add_elems(pl, name, bs_widths[w],
						 (bs_kind)op, cases[c].active,
						 elem);
			}
}
