/*
 * padding.c - probe-padding: arrays of structs and 2-D tiles.
 *
 * Structs: struct { float f[N]; float pad[P]; } s[32], lane l loads
 * s[l].f[0]; N = 1, 2, 3, 4, 8, 16, 32 and P = 0..4, loads; stores too for
 * the classic N = 32 (struct { float f[32]; float pad; } with P = 0 and
 * 1).  A row of N+P floats puts lane l at word l*(N+P): the conflict
 * degree is gcd(N+P, 32), so P = 1 frees N = 32.  Names: struct_n<N>_p<P>
 * (_st for stores).
 *
 * Tiles: T tile[32][32], tile[32][33] and tile[32][32] with an XOR swizzle
 * (column c of row r stored at c ^ r), T = float and double, read and
 * written by row (lane l: tile[0][l]) and by column (lane l: tile[l][0],
 * and tile[l][5] for the swizzle), the transpose's two sides.  Names as
 * the analyzer's bs_tile_access gives them, prefixed by the element type.
 */
#include <stdio.h>

#include "families.h"

static const unsigned ns[] = { 1, 2, 3, 4, 8, 16, 32 };

static void add_tile(bs_points *pl, unsigned width, bs_kind op, unsigned pad,
		     bs_swizzle sw, bs_tile_dir dir, unsigned index)
{
	char name[2 * BS_NAME_MAX];
	bs_tile_spec t = { .rows = 32, .cols = 32, .pad = pad,
			   .width = width, .dir = dir, .index = index,
			   .swizzle = sw, .kind = op };
	bs_access a;

	if (bs_tile_access(&t, &a, NULL) < 0)
		return;
	snprintf(name, sizeof name, "%s_%s_%s", width == 4 ? "f32" : "f64",
		 a.name, op == BS_KIND_ST ? "st" : "ld");
	snprintf(a.name, sizeof a.name, "%.*s", BS_NAME_MAX - 1, name);
	bs_points_add(pl, &a);
}

void family_padding(bs_points *pl)
{
	char name[BS_NAME_MAX];

	for (size_t i = 0; i < sizeof ns / sizeof *ns; i++)
		for (unsigned p = 0; p <= 4; p++) {
			snprintf(name, sizeof name, "struct_n%u_p%u", ns[i], p);
			bs_points_add_stride(pl, name, 4, BS_KIND_LD, ns[i] + p);
		}
	bs_points_add_stride(pl, "struct_n32_p0_st", 4, BS_KIND_ST, 32);
	bs_points_add_stride(pl, "struct_n32_p1_st", 4, BS_KIND_ST, 33);

	for (unsigned width = 4; width <= 8; width += 4)
		for (int op = 0; op < 2; op++) {
			bs_kind o = (bs_kind)op;

			add_tile(pl, width, o, 0, BS_SWIZZLE_NONE, BS_BY_ROW, 0);
			add_tile(pl, width, o, 0, BS_SWIZZLE_NONE, BS_BY_COL, 0);
			add_tile(pl, width, o, 1, BS_SWIZZLE_NONE, BS_BY_ROW, 0);
			add_tile(pl, width, o, 1, BS_SWIZZLE_NONE, BS_BY_COL, 0);
			add_tile(pl, width, o, 0, BS_SWIZZLE_XOR, BS_BY_ROW, 0);
			add_tile(pl, width, o, 0, BS_SWIZZLE_XOR, BS_BY_COL, 0);
			add_tile(pl, width, o, 0, BS_SWIZZLE_XOR, BS_BY_COL, 5);
		}
}
