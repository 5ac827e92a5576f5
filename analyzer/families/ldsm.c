/*
 * ldsm.c - probe-ldsm: ldmatrix, every variant (x1, x2, x4, and .t).
 *
 * An ldmatrix of X 8x8 matrices takes one 16-byte row address from each
 * of lanes 0..8X-1: lanes 0-7 give matrix 0's rows, 8-15 matrix 1's, and
 * so on (the other lanes take no part).  The cases, for each variant:
 *
 *   stacked_p<P>  lane l's row at l*P: the rows of each matrix P bytes
 *                 apart and the matrices one after another, P = 16..528 in
 *                 16-byte steps (33 pitches; P = 128 puts all 8 rows of a
 *                 matrix in one bank group: 8-way)
 *   side_p<P>     (x2, x4) the matrices side by side in one row of 16X
 *                 bytes: (l%8)*P + (l/8)*16
 *   mma_p<P>      (x4) the 2x2 order of an mma A fragment: rows 0-15 of
 *                 two 16-byte columns, (l%16)*P + (l/16)*16
 *   sw<R>_c<C>, noswz<R>_c<C>   8 rows of R = 128, 64, 32 bytes, column
 *                 chunk C, with the TMA swizzle of R bytes (SWIZZLE_128B:
 *                 byte-address bits [4,7) ^= bits [7,10)) and without;
 *                 sw<R>_mma_c<C> and noswz<R>_mma_c<C> (x4) the mma order
 *                 in such a tile, sw<R>_side (x2, x4) side by side
 *   bc_*          broadcast rows: all lanes one row (all0), each matrix
 *                 one row (matrow_spread, in four bank groups;
 *                 matrow_samebank, in one), pairs and quads of lanes on
 *                 one row, rows 16 or 128 bytes apart, lane l reading
 *                 l^1's row, and (x2, x4) every matrix the same 8 rows
 *                 (mod8), (x4) the same 16 (mod16)
 *   rnd<N>, rnd_few4_<N>   seeded random rows in the first 8 KiB, and
 *                 rows drawn from 4 (the same rows for .t as without)
 *
 * 81 points for x1, 119 for x2, 167 for x4, each with and without .t:
 * 734 in all.  What the H100 does with them is in docs/notes/kinds-h100.md
 * (one phase per matrix, lanes on one row share it, no packing).  Names:
 * ldsm_x<X>[t]_<case>.  stsm.c makes the same points for stmatrix.
 */
#include <stdio.h>

#include "families.h"

static const struct {
	unsigned b, row;
} tiles[] = { { 3, 128 }, { 2, 64 }, { 1, 32 } };

typedef struct {
	bs_points *pl;
	const char *prefix, *kind;
	unsigned x;
} matrix_ctx;

/* One point: lane l (l < 8x) at addr[l]. */
static void add(const matrix_ctx *c, const char *what,
		const uint32_t addr[BS_LANES])
{
	char name[BS_NAME_MAX];
	uint32_t active = c->x == 4 ? 0xffffffffu : (1u << (8 * c->x)) - 1;

	snprintf(name, sizeof name, "%s_%s", c->prefix, what);
	family_add(c->pl, name, c->kind, 16, active, addr);
}

static void pitches(const matrix_ctx *c)
{
	char what[32];
	uint32_t a[BS_LANES];

	for (unsigned p = 16; p <= 528; p += 16) {
		for (unsigned l = 0; l < BS_LANES; l++)
			a[l] = l * p;
		snprintf(what, sizeof what, "stacked_p%u", p);
		add(c, what, a);
	}
	for (unsigned p = 16; c->x > 1 && p <= 528; p += 16) {
		for (unsigned l = 0; l < BS_LANES; l++)
			a[l] = l % 8 * p + l / 8 * 16;
		snprintf(what, sizeof what, "side_p%u", p);
		add(c, what, a);
	}
	for (unsigned p = 16; c->x == 4 && p <= 528; p += 16) {
		for (unsigned l = 0; l < BS_LANES; l++)
			a[l] = l % 16 * p + l / 16 * 16;
		snprintf(what, sizeof what, "mma_p%u", p);
		add(c, what, a);
	}
}

static void swizzled(const matrix_ctx *c)
{
	char what[32];
	uint32_t a[BS_LANES];

	for (size_t t = 0; t < sizeof tiles / sizeof *tiles; t++) {
		unsigned b = tiles[t].b, row = tiles[t].row, chunks = row / 16;

		for (unsigned ch = 0; ch < chunks; ch++)
			for (int sw = 1; sw >= 0; sw--) {
				for (unsigned l = 0; l < BS_LANES; l++) {
					a[l] = l * row + ch * 16;
					if (sw)
						a[l] = family_swizzle(a[l], b);
				}
				snprintf(what, sizeof what, "%s%u_c%u",
					 sw ? "sw" : "noswz", row, ch);
				add(c, what, a);
			}
		for (unsigned ch = 0; c->x == 4 && ch < chunks; ch += 2)
			for (int sw = 1; sw >= 0; sw--) {
				for (unsigned l = 0; l < BS_LANES; l++) {
					a[l] = l % 16 * row + (ch + l / 16) * 16;
					if (sw)
						a[l] = family_swizzle(a[l], b);
				}
				snprintf(what, sizeof what, "%s%u_mma_c%u",
					 sw ? "sw" : "noswz", row, ch);
				add(c, what, a);
			}
		if (c->x > 1 && chunks >= c->x) {
			for (unsigned l = 0; l < BS_LANES; l++)
				a[l] = family_swizzle(l % 8 * row + l / 8 * 16,
						      b);
			snprintf(what, sizeof what, "sw%u_side", row);
			add(c, what, a);
		}
	}
}

static void broadcasts(const matrix_ctx *c)
{
	static const struct {
		const char *what;
		unsigned min_x, div, mod, xor_, step;
	} bc[] = {
		/* lane l's row: ((l ^ xor_) / div % mod) * step */
		{ "bc_all0", 1, 32, 1, 0, 16 },
		{ "bc_matrow_spread", 1, 8, 32, 0, 16 },
		{ "bc_matrow_samebank", 1, 8, 32, 0, 128 },
		{ "bc_pairs", 1, 2, 32, 0, 16 },
		{ "bc_pairs_p128", 1, 2, 32, 0, 128 },
		{ "bc_quads", 1, 4, 32, 0, 16 },
		{ "bc_quads_p128", 1, 4, 32, 0, 128 },
		{ "bc_xor1", 1, 1, 32, 1, 16 },
		{ "bc_mod8", 2, 1, 8, 0, 16 },
		{ "bc_mod8_p128", 2, 1, 8, 0, 128 },
		{ "bc_mod16", 4, 1, 16, 0, 16 },
		{ "bc_mod16_p128", 4, 1, 16, 0, 128 },
	};
	uint32_t a[BS_LANES];

	for (size_t i = 0; i < sizeof bc / sizeof *bc; i++) {
		if (c->x < bc[i].min_x)
			continue;
		for (unsigned l = 0; l < BS_LANES; l++)
			a[l] = (l ^ bc[i].xor_) / bc[i].div % bc[i].mod *
			       bc[i].step;
		add(c, bc[i].what, a);
	}
}

static void randoms(const matrix_ctx *c)
{
	char what[32];
	uint32_t a[BS_LANES], few[4];
	uint64_t st = 0x5eed0000u + c->x;

	for (unsigned r = 0; r < 8; r++) {
		for (unsigned l = 0; l < BS_LANES; l++)
			a[l] = family_rand(&st) % 512 * 16;
		snprintf(what, sizeof what, "rnd%u", r);
		add(c, what, a);
	}
	for (unsigned r = 0; r < 4; r++) {
		for (unsigned i = 0; i < 4; i++)
			few[i] = family_rand(&st) % 512 * 16;
		for (unsigned l = 0; l < BS_LANES; l++)
			a[l] = few[family_rand(&st) % 4];
		snprintf(what, sizeof what, "rnd_few4_%u", r);
		add(c, what, a);
	}
}

void family_matrix(bs_points *pl, const char *op)
{
	char prefix[16], kind[16];

	for (unsigned x = 1; x <= 4; x *= 2)
		for (int t = 0; t < 2; t++) {
			matrix_ctx c = { pl, prefix, kind, x };

			snprintf(prefix, sizeof prefix, "%s_x%u%s", op, x,
				 t ? "t" : "");
			snprintf(kind, sizeof kind, "%s.x%u%s", op, x,
				 t ? ".t" : "");
			pitches(&c);
			swizzled(&c);
			broadcasts(&c);
			randoms(&c);
		}
}

void family_ldsm(bs_points *pl)
{
	family_matrix(pl, "ldsm");
}
