/*
 * check_families.c - the probe families' points, without a GPU.
 *
 * Each family has a fixed number of points, every point is an access the
 * analyzer accepts (bs_access_check), no two points of one family share a
 * name, and two calls give the same points (the generators are seeded,
 * the datasets reproducible).  A few points of the families of the other
 * kinds are checked lane by lane against addresses worked out by hand
 * from their definitions (ldsm.c, atoms.c, cpasync.c, cases.c).
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "bankscope.h"
#include "testutil.h"

static const struct {
	const char *family;
	size_t points;
} counts[] = {
	{ "stride", 650 }, { "broadcast", 210 }, { "padding", 65 },
	{ "wide", 84 },    { "random", 300 },    { "ldsm", 734 },
	{ "stsm", 734 },   { "atoms", 704 },     { "cpasync", 408 },
	{ "dsmem", 398 },
};

/* Field by field: the padding of bs_access is not part of a point. */
static int same(const bs_access *a, const bs_access *b)
{
	return !strcmp(a->name, b->name) && a->width == b->width &&
	       a->kind == b->kind && a->active == b->active &&
	       !memcmp(a->addr, b->addr, sizeof a->addr);
}

START_TEST(test_counts)
{
	bs_points pts = { 0 }, again = { 0 };
	const char *f = counts[_i].family;

	ck_assert_ptr_nonnull(bs_family_find(f));
	ck_assert_int_eq(bs_family_points(f, &pts), 0);
	ck_assert_uint_eq(pts.n, counts[_i].points);
	for (size_t i = 0; i < pts.n; i++) {
		bs_error err;

		ck_assert_msg(bs_access_check(&pts.v[i], &err) == 0,
			      "%s: %s: %s", f, pts.v[i].name, err.text);
		ck_assert_str_eq(pts.family_of[i], f);
	}
	ck_assert_int_eq(bs_family_points(f, &again), 0);
	ck_assert_uint_eq(again.n, pts.n);
	for (size_t i = 0; i < pts.n; i++)
		ck_assert_msg(same(&again.v[i], &pts.v[i]), "%s: a second "
			      "call gives another point %zu", f, i);
	bs_points_free(&pts);
	bs_points_free(&again);
}
END_TEST

/* The families of the new kinds: no name twice (the old ones repeat
 * u64/v4 s0..s2 between stride and wide, by design). */
START_TEST(test_unique_names)
{
	static const char *const fams[] = { "ldsm", "stsm", "atoms",
					    "cpasync" };
	bs_points pts = { 0 };

	for (size_t f = 0; f < sizeof fams / sizeof *fams; f++)
		ck_assert_int_eq(bs_family_points(fams[f], &pts), 0);
	for (size_t i = 0; i < pts.n; i++)
		for (size_t j = i + 1; j < pts.n; j++)
			ck_assert_msg(strcmp(pts.v[i].name, pts.v[j].name),
				      "%s twice", pts.v[i].name);
	bs_points_free(&pts);
}
END_TEST

START_TEST(test_all)
{
	bs_points pts = { 0 };
	size_t want = 0;

	for (size_t i = 0; i < sizeof counts / sizeof *counts; i++)
		want += counts[i].points;
	ck_assert_int_eq(bs_family_points(NULL, &pts), 0);
	ck_assert_uint_eq(pts.n, want);
	ck_assert_uint_eq(pts.n, 4287);
	bs_points_free(&pts);
	/* what bankscope-probe --probe all measures: the families it runs */
	want = 0;
	for (const bs_family *f = bs_families; f->name; f++)
		if (!f->runner) {
			ck_assert_int_eq(bs_family_points(f->name, &pts), 0);
			want = pts.n;
		}
	ck_assert_uint_eq(want, 3889);
	ck_assert_str_eq(bs_family_find("dsmem")->runner, "bankscope-dsmem");
	bs_points_free(&pts);
}
END_TEST

/* Points of each kind in the families of the other kinds. */
START_TEST(test_kinds_covered)
{
	static const struct {
		const char *family, *kind;
		size_t n;
	} per[] = {
		{ "ldsm", "ldsm.x1", 81 },       { "ldsm", "ldsm.x1.t", 81 },
		{ "ldsm", "ldsm.x2", 119 },      { "ldsm", "ldsm.x2.t", 119 },
		{ "ldsm", "ldsm.x4", 167 },      { "ldsm", "ldsm.x4.t", 167 },
		{ "stsm", "stsm.x1", 81 },       { "stsm", "stsm.x4.t", 167 },
		{ "atoms", "atom.add.u32", 88 }, { "atoms", "red.add.u32", 88 },
		{ "atoms", "atom.cas.b32", 88 }, { "atoms", "atom.exch.b32", 88 },
		{ "atoms", "atom.min.s32", 88 }, { "atoms", "red.add1.u32", 88 },
		{ "atoms", "atom.add.f32", 88 }, { "atoms", "atom.add.u64", 88 },
		{ "cpasync", "cp.async.ca", 292 },
		{ "cpasync", "cp.async.cg", 116 },
	};
	bs_points pts = { 0 };
	bs_kind k;
	size_t n = 0;

	ck_assert_int_eq(bs_kind_find(per[_i].kind, &k), 0);
	ck_assert_int_eq(bs_family_points(per[_i].family, &pts), 0);
	for (size_t i = 0; i < pts.n; i++)
		n += pts.v[i].kind == k;
	ck_assert_uint_eq(n, per[_i].n);
	bs_points_free(&pts);
}
END_TEST

/* One point by name, with its kind and width. */
static bs_access point(const char *family, const char *name,
		       const char *kind, unsigned width, uint32_t active)
{
	bs_points pts = { 0 };
	bs_access a;
	bs_kind k;
	size_t i;

	ck_assert_int_eq(bs_family_points(family, &pts), 0);
	for (i = 0; i < pts.n && strcmp(pts.v[i].name, name); i++)
		;
	ck_assert_msg(i < pts.n, "%s: no point %s", family, name);
	a = pts.v[i];
	bs_points_free(&pts);
	ck_assert_int_eq(bs_kind_find(kind, &k), 0);
	ck_assert_msg(a.kind == k, "%s: kind %s", name, bs_kind_name(a.kind));
	ck_assert_uint_eq(a.width, width);
	ck_assert_uint_eq(a.active, active);
	return a;
}

/* Lane l's address, worked out by hand from the case's definition. */
static const struct {
	const char *family, *name, *kind;
	unsigned width;
	uint32_t active;
	unsigned lane, addr;
} lanes[] = {
	/* l * 128: all eight rows of each matrix in bank group 0 */
	{ "ldsm", "ldsm_x4_stacked_p128", "ldsm.x4", 16, ~0u, 1, 128 },
	{ "ldsm", "ldsm_x4_stacked_p128", "ldsm.x4", 16, ~0u, 31, 3968 },
	/* x1: lanes 0-7 only, the others inactive at 0 */
	{ "ldsm", "ldsm_x1_stacked_p16", "ldsm.x1", 16, 0xffu, 7, 112 },
	{ "ldsm", "ldsm_x1_stacked_p16", "ldsm.x1", 16, 0xffu, 8, 0 },
	/* mma order: (l%16)*144 + (l/16)*16 */
	{ "ldsm", "ldsm_x4t_mma_p144", "ldsm.x4.t", 16, ~0u, 15, 2160 },
	{ "ldsm", "ldsm_x4t_mma_p144", "ldsm.x4.t", 16, ~0u, 17, 160 },
	/* 128-byte swizzle, chunk 3, row 5: 688 ^ (5 << 4) = 736 */
	{ "ldsm", "ldsm_x2_sw128_c3", "ldsm.x2", 16, 0xffffu, 5, 736 },
	{ "ldsm", "ldsm_x2_noswz128_c3", "ldsm.x2", 16, 0xffffu, 5, 688 },
	/* every matrix one row: (l/8)*128 */
	{ "ldsm", "ldsm_x4_bc_matrow_samebank", "ldsm.x4", 16, ~0u, 27, 384 },
	/* side by side: (l%8)*48 + (l/8)*16 */
	{ "stsm", "stsm_x2t_side_p48", "stsm.x2.t", 16, 0xffffu, 9, 64 },
	/* word strides: l * s words of the width */
	{ "atoms", "atom_add_u64_s3", "atom.add.u64", 8, ~0u, 2, 48 },
	{ "atoms", "atom_add_u32_s0", "atom.add.u32", 4, ~0u, 31, 0 },
	/* 4 lanes per word, the 8 words 128 bytes apart: (l/4)*128 */
	{ "atoms", "atom_cas_b32_k4_samebank", "atom.cas.b32", 4, ~0u, 9, 256 },
	/* 8 lanes per bank: word (l/4)*32 + l%4 */
	{ "atoms", "red_add1_u32_kbank8", "red.add1.u32", 4, ~0u, 13, 388 },
	/* interleaved: l % 16 */
	{ "atoms", "atom_add_f32_k2_interleaved", "atom.add.f32", 4, ~0u, 17,
	  4 },
	{ "cpasync", "cpa_ca8_lanes0_16_s1", "cp.async.ca", 8, 0x00010001u, 16,
	  128 },
	{ "cpasync", "cpa_ca16_half_hi_s0", "cp.async.ca", 16, 0xffff0000u, 20,
	  0 },
	/* 4 lanes per 64-byte row, rows 80 bytes apart */
	{ "cpasync", "cpa_cg16_tile_l4_p80", "cp.async.cg", 16, ~0u, 6, 112 },
	/* 64-byte swizzle: lane 9 at 144, bit 7 set, so chunk 1 ^ 1 = 0 */
	{ "cpasync", "cpa_cg16_tile_sw64", "cp.async.cg", 16, ~0u, 9, 128 },
	{ "cpasync", "cpa_cg16_tile_sw64", "cp.async.cg", 16, ~0u, 5, 80 },
};

START_TEST(test_lanes)
{
	bs_access a = point(lanes[_i].family, lanes[_i].name, lanes[_i].kind,
			    lanes[_i].width, lanes[_i].active);

	ck_assert_msg(a.addr[lanes[_i].lane] == lanes[_i].addr,
		      "%s: lane %u at %u, not %u", a.name, lanes[_i].lane,
		      a.addr[lanes[_i].lane], lanes[_i].addr);
}
END_TEST

/* permline: each group of 8 lanes writes the 8 chunks of one line. */
START_TEST(test_permline)
{
	char name[32];

	for (unsigned r = 0; r < 10; r++) {
		bs_access a;

		snprintf(name, sizeof name, "cpa_cg16_permline%u", r);
		a = point("cpasync", name, "cp.async.cg", 16, ~0u);
		for (unsigned g = 0; g < 4; g++) {
			unsigned seen = 0, line = a.addr[8 * g] / 128;

			for (unsigned l = 8 * g; l < 8 * g + 8; l++) {
				ck_assert_uint_eq(a.addr[l] / 128, line);
				seen |= 1u << (a.addr[l] % 128 / 16);
			}
			ck_assert_msg(seen == 0xff, "%s: group %u", name, g);
		}
	}
}
END_TEST

Suite *families_suite(void)
{
	return tu_suite("families", "points", 60, (const tu_test[]){
		{ test_counts, TU_ROWS(counts) }, { test_unique_names, 1 },
		{ test_all, 1 }, { test_kinds_covered, 18 },
		{ test_lanes, TU_ROWS(lanes) }, { test_permline, 1 },
		{ NULL, 0 } });
}
