/*
 * cpasync.c - probe-cpasync: cp.async into shared memory (sm_80).
 *
 * The address of a point is the shared destination of each lane's copy
 * (the source is the same coalesced global buffer for every point).  The
 * kinds and widths: cp.async.ca of 4, 8 and 16 bytes (LDGSTS.E, .64,
 * .128) and cp.async.cg of 16 (LDGSTS.E.BYPASS.128), named cpa_ca4,
 * cpa_ca8, cpa_ca16, cpa_cg16.  Each gets the element cases of cases.c
 * (strides 0..33, k lanes per destination, i.e. broadcast destinations,
 * and per bank, partial warps, seeded random; see atoms.c): 88 points at
 * 4 and 8 bytes, 87 at 16.  The 16-byte kinds add:
 *
 *   tile_l<L>_p<P>   tiles filled the way GEMM kernels fill them: L lanes
 *                    per row of L*16 bytes, rows P bytes apart (L = 2, 4,
 *                    8; P the row itself, one chunk more, 128, 144, 256)
 *   tile_sw<R>       rows of R = 128, 64, 32 bytes with the TMA swizzle
 *                    of R bytes; tile_l8_p128_sw<R> rows of 128 bytes
 *                    with the swizzle atom of R
 *   permline<N>      each 8-lane group writes one whole 128-byte line in a
 *                    seeded random order (no two lanes in one bank): the
 *                    lane order LDGSTS.BYPASS was seen to care about
 *
 * 19 tiles and 10 permline cases: 116 points per 16-byte kind, 408 in
 * all.  Several lanes copying to one destination (stride 0, k lanes per
 * address) is allowed by the PTX ISA; which lane's bytes land is not
 * defined and not looked at.  Names: cpa_<ca|cg><width>_<case>.
 */
#include <stdio.h>

#include "families.h"

static const struct {
	const char *kind, *prefix;
	unsigned width;
} cps[] = {
	{ "cp.async.ca", "cpa_ca4", 4 },
	{ "cp.async.ca", "cpa_ca8", 8 },
	{ "cp.async.ca", "cpa_ca16", 16 },
	{ "cp.async.cg", "cpa_cg16", 16 },
};

static void add(bs_points *pl, const char *prefix, const char *kind,
		const char *what, const uint32_t a[BS_LANES])
{
	char name[BS_NAME_MAX];

	snprintf(name, sizeof name, "%s_%s", prefix, what);
	family_add(pl, name, kind, 16, 0xffffffffu, a);
}

static void tiles(bs_points *pl, const char *prefix, const char *kind)
{
	static const unsigned lanes[] = { 2, 4, 8 };
	char what[32];
	uint32_t a[BS_LANES];

	for (size_t i = 0; i < 3; i++) {
		unsigned L = lanes[i], rowb = L * 16;
		unsigned cand[] = { rowb, rowb + 16, 128, 144, 256 };

		for (size_t j = 0; j < 5; j++) {
			unsigned p = cand[j];
			size_t k;

			/* each pitch once, none shorter than the row */
			for (k = 0; k < j && cand[k] != p; k++)
				;
			if (k < j || p < rowb)
				continue;
			for (unsigned l = 0; l < BS_LANES; l++)
				a[l] = l / L * p + l % L * 16;
			snprintf(what, sizeof what, "tile_l%u_p%u", L, p);
			add(pl, prefix, kind, what, a);
		}
	}
	for (unsigned b = 3; b >= 1; b--) {
		unsigned row = 16u << b, L = row / 16;

		for (unsigned l = 0; l < BS_LANES; l++)
			a[l] = family_swizzle(l / L * row + l % L * 16, b);
		snprintf(what, sizeof what, "tile_sw%u", row);
		add(pl, prefix, kind, what, a);
		for (unsigned l = 0; l < BS_LANES; l++)
			a[l] = family_swizzle(l / 8 * 128 + l % 8 * 16, b);
		snprintf(what, sizeof what, "tile_l8_p128_sw%u", row);
		add(pl, prefix, kind, what, a);
	}
}

static void permlines(bs_points *pl, const char *prefix, const char *kind)
{
	char what[32];
	uint32_t a[BS_LANES];
	uint64_t st = 0xb1a55u;   /* the same lines for .ca and .cg */

	for (unsigned r = 0; r < 10; r++) {
		for (unsigned g = 0; g < 4; g++) {
			unsigned line = family_rand(&st) % 32, perm[8];

			for (unsigned i = 0; i < 8; i++)
				perm[i] = i;
			for (unsigned i = 7; i > 0; i--) {
				unsigned j = family_rand(&st) % (i + 1), t;

				t = perm[i];
				perm[i] = perm[j];
				perm[j] = t;
			}
			for (unsigned i = 0; i < 8; i++)
				a[g * 8 + i] = (line * 8 + perm[i]) * 16;
		}
		snprintf(what, sizeof what, "permline%u", r);
		add(pl, prefix, kind, what, a);
	}
}

void family_cpasync(bs_points *pl)
{
	for (size_t i = 0; i < sizeof cps / sizeof *cps; i++) {
		family_elements(pl, cps[i].prefix, cps[i].kind, cps[i].width,
				0xc0a5u);
		if (cps[i].width == 16) {
			tiles(pl, cps[i].prefix, cps[i].kind);
			permlines(pl, cps[i].prefix, cps[i].kind);
		}
	}
}
