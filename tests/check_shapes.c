/*
 * check_shapes.c - tiles and arrays of structs, worked by hand.
 *
 * Each tile or struct row gives the addresses it must produce as a
 * formula over the active lanes,
 *   address(l) = first + l*lstep + (l ^ x)*xstep,
 * the access name, and the wavefronts sm_90 must charge for it.  The
 * comment on each row is the bank arithmetic (4-byte banks, 32 of them:
 * bank = (address / 4) % 32).  Error rows give the option the error must
 * name and words its sentence must contain.
 */
#include <check.h>
#include <string.h>

#include "bankscope.h"

#define ALL 0xffffffffu

typedef struct {
	bs_tile_spec spec;
	const char *name;
	uint32_t active;
	unsigned first, lstep, x, xstep;
	unsigned wavefronts;
} tile_row;

#define TILE(r, c, p, w, d, i, s, b) { .rows = r, .cols = c, .pad = p, \
	.width = w, .dir = d, .index = i, .swizzle = s, .base = b }
#define N BS_SWIZZLE_NONE
#define X BS_SWIZZLE_XOR

static const tile_row tiles[] = {
	/* words 32l: all in bank 0 */
	{ TILE(32, 32, 0, 4, BS_BY_COL, 0, N, 0), "tile32x32_col0", ALL,
	  0, 128, 0, 0, 32 },
	/* words 33l: bank l */
	{ TILE(32, 32, 1, 4, BS_BY_COL, 0, N, 0), "tile32x33_col0", ALL,
	  0, 132, 0, 0, 1 },
	/* row l stores column 0 at l ^ 0 = l: words 32l + l, bank l */
	{ TILE(32, 32, 0, 4, BS_BY_COL, 0, X, 0), "tile32x32_col0_xor", ALL,
	  0, 128, 0, 4, 1 },
	/* words 32l + 5: all in bank 5 */
	{ TILE(32, 32, 0, 4, BS_BY_COL, 5, N, 0), "tile32x32_col5", ALL,
	  20, 128, 0, 0, 32 },
	/* words 33l + 5: bank (l + 5) % 32 */
	{ TILE(32, 32, 1, 4, BS_BY_COL, 5, N, 0), "tile32x33_col5", ALL,
	  20, 132, 0, 0, 1 },
	/* words 32l + (5 ^ l): bank 5 ^ l */
	{ TILE(32, 32, 0, 4, BS_BY_COL, 5, X, 0), "tile32x32_col5_xor", ALL,
	  0, 128, 5, 4, 1 },
	/* row 3 of 32 floats: words 96 + l */
	{ TILE(32, 32, 0, 4, BS_BY_ROW, 3, N, 0), "tile32x32_row3", ALL,
	  384, 4, 0, 0, 1 },
	/* the same words, permuted: 96 + (l ^ 3) */
	{ TILE(32, 32, 0, 4, BS_BY_ROW, 3, X, 0), "tile32x32_row3_xor", ALL,
	  384, 0, 3, 4, 1 },
	/* row 3 starts at 3 * 33 words */
	{ TILE(32, 32, 1, 4, BS_BY_ROW, 3, N, 0), "tile32x33_row3", ALL,
	  396, 4, 0, 0, 1 },
	/* 16 columns: lanes 16..31 sit out */
	{ TILE(16, 16, 0, 4, BS_BY_ROW, 2, N, 0), "tile16x16_row2", 0xffff,
	  128, 4, 0, 0, 1 },
	/* 8 rows: lanes 8..31 sit out; words 64l + 1, all in bank 1 */
	{ TILE(8, 64, 0, 4, BS_BY_COL, 1, N, 0), "tile8x64_col1", 0xff,
	  4, 256, 0, 0, 8 },
	/* 8 bytes, 2 phases of 16: words 32l+6, 32l+7 in banks 6, 7 */
	{ TILE(64, 16, 0, 8, BS_BY_COL, 3, N, 0), "tile64x16_col3", ALL,
	  24, 128, 0, 0, 32 },
	/* words 34l+6, 34l+7: 16 lanes cover all 32 banks once */
	{ TILE(64, 16, 1, 8, BS_BY_COL, 3, N, 0), "tile64x17_col3", ALL,
	  24, 136, 0, 0, 2 },
	/* one lane, one 16-byte element */
	{ TILE(1, 1, 0, 16, BS_BY_ROW, 0, N, 4096), "tile1x1_row0", 0x1,
	  4096, 0, 0, 0, 1 },
	/* halves at 64 + 66l: words 16 + 16.5l, one per bank */
	{ TILE(32, 32, 1, 2, BS_BY_COL, 0, N, 64), "tile32x33_col0", ALL,
	  64, 66, 0, 0, 1 },
};

START_TEST(test_tile)
{
	const tile_row *r = &tiles[_i];
	const bs_profile *p = bs_profile_find("sm_90");
	bs_access a;
	bs_summary s;
	bs_error err;

	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(bs_tile_access(&r->spec, &a, &err), 0);
	ck_assert_str_eq(a.name, r->name);
	ck_assert_uint_eq(a.width, r->spec.width);
	ck_assert_uint_eq(a.active, r->active);
	for (unsigned l = 0; l < BS_LANES; l++)
		if (r->active >> l & 1)
			ck_assert_uint_eq(a.addr[l], r->first + l * r->lstep +
					  (l ^ r->x) * r->xstep);
	ck_assert_int_eq(bs_predict(p, &a, &s, &err), 0);
	ck_assert_uint_eq(s.wavefronts, r->wavefronts);
}
END_TEST

/*
 * 32x8 tile, column 3, swizzled: row l stores it at column (l % 8) ^ 3,
 * so address = 32l + 4((l % 8) ^ 3).  Words 8l + ((l % 8) ^ 3) fall in
 * banks 3, 10, 17, 24, 7, 14, 21, 28, repeating every 8 lanes: 4 words
 * per bank, 4 wavefronts; unswizzled, banks 3, 11, 19, 27 take 8 each.
 */
START_TEST(test_tile_xor_narrow)
{
	static const uint32_t want[BS_LANES] = {
		12, 40, 68, 96, 156, 184, 212, 240,
		268, 296, 324, 352, 412, 440, 468, 496,
		524, 552, 580, 608, 668, 696, 724, 752,
		780, 808, 836, 864, 924, 952, 980, 1008,
	};
	bs_tile_spec t = TILE(32, 8, 0, 4, BS_BY_COL, 3, X, 0);
	const bs_profile *p = bs_profile_find("sm_90");
	bs_access a;
	bs_summary s;
	bs_error err;

	t.kind = BS_KIND_ST;
	ck_assert_int_eq(bs_tile_access(&t, &a, &err), 0);
	ck_assert_uint_eq(a.active, ALL);
	ck_assert_int_eq(a.kind, BS_KIND_ST);
	for (unsigned l = 0; l < BS_LANES; l++)
		ck_assert_uint_eq(a.addr[l], want[l]);
	ck_assert_int_eq(bs_predict(p, &a, &s, &err), 0);
	ck_assert_uint_eq(s.wavefronts, 4);

	t.swizzle = N;
	ck_assert_int_eq(bs_tile_access(&t, &a, &err), 0);
	ck_assert_int_eq(bs_predict(p, &a, &s, &err), 0);
	ck_assert_uint_eq(s.wavefronts, 8);
}
END_TEST

START_TEST(test_tile_named)
{
	bs_tile_spec t = TILE(32, 32, 1, 4, BS_BY_COL, 0, N, 0);
	bs_access a;
	bs_error err;

	t.name = "transpose_read";
	ck_assert_int_eq(bs_tile_access(&t, &a, &err), 0);
	ck_assert_str_eq(a.name, "transpose_read");
}
END_TEST

typedef struct {
	bs_tile_spec spec;
	const char *source;
	const char *text;
} tile_error_row;

static const tile_error_row tile_errors[] = {
	{ TILE(0, 32, 0, 4, BS_BY_COL, 0, N, 0), "--tile",
	  "tile has 0 rows and 32 columns: both must be at least 1" },
	{ TILE(32, 0, 0, 4, BS_BY_ROW, 0, N, 0), "--tile",
	  "tile has 32 rows and 0 columns: both must be at least 1" },
	{ TILE(32, 32, 0, 4, (bs_tile_dir)7, 0, N, 0), "--tile",
	  "unknown tile direction 7" },
	{ TILE(32, 24, 0, 4, BS_BY_COL, 0, X, 0), "--swizzle",
	  "the XOR swizzle needs a power-of-two column count, not 24" },
	{ TILE(32, 32, 0, 4, BS_BY_COL, 0, (bs_swizzle)2, 0), "--swizzle",
	  "unknown swizzle 2" },
	{ TILE(32, 32, 0, 4, BS_BY_ROW, 32, N, 0), "--index",
	  "row 32 is outside the tile's 32 rows" },
	{ TILE(32, 33, 0, 4, BS_BY_COL, 33, N, 0), "--index",
	  "column 33 is outside the tile's 33 columns" },
	{ TILE(32, 32, 0, 3, BS_BY_COL, 0, N, 0), "--width",
	  "width 3 is not 1, 2, 4, 8 or 16 bytes" },
	{ TILE(32, 32, 0, 4, BS_BY_COL, 0, N, 2), "--base",
	  "base 2 is not aligned to the 4-byte width" },
	{ TILE(32, 32, 0, 4, BS_BY_COL, 0, N, 0x100000000), "--base",
	  "base 4294967296 is beyond the 32-bit shared window" },
	/* rows of 2^27 floats = 2^29 bytes: row 8 starts at 2^32 */
	{ TILE(32, 0x8000000, 0, 4, BS_BY_COL, 0, N, 0), "--tile",
	  "lane 8: tile[8][0] lies beyond the 32-bit shared window" },
	/* (2^32 - 2) * (2^33 - 2) elements overflows 64 bits */
	{ TILE(0xffffffff, 0xffffffff, 0xffffffff, 16, BS_BY_ROW, 0xfffffffe,
	       N, 0), "--tile",
	  "lane 0: tile[4294967294][0] lies beyond the 32-bit shared window" },
};

START_TEST(test_tile_error)
{
	const tile_error_row *r = &tile_errors[_i];
	bs_access a;
	bs_error err;

	ck_assert_int_eq(bs_tile_access(&r->spec, &a, &err), -1);
	ck_assert_str_eq(err.source, r->source);
	ck_assert_int_eq(err.line, 0);
	ck_assert_int_eq(err.column, 0);
	ck_assert_str_eq(err.text, r->text);
}
END_TEST

START_TEST(test_tile_long_name)
{
	bs_tile_spec t = TILE(32, 32, 0, 4, BS_BY_COL, 0, N, 0);
	char name[BS_NAME_MAX + 1];
	bs_access a;
	bs_error err;

	memset(name, 'n', BS_NAME_MAX);
	name[BS_NAME_MAX] = '\0';
	t.name = name;
	ck_assert_int_eq(bs_tile_access(&t, &a, &err), -1);
	ck_assert_str_eq(err.source, "--name");
	ck_assert_str_eq(err.text, "access name longer than 63 bytes");
	name[BS_NAME_MAX - 1] = '\0';
	ck_assert_int_eq(bs_tile_access(&t, &a, &err), 0);
	ck_assert_str_eq(a.name, name);
}
END_TEST

typedef struct {
	bs_struct_spec spec;
	const char *name;
	unsigned first, lstep;
	unsigned wavefronts;
} struct_row;

#define STRUCT(b, f, w, at) { .struct_bytes = b, .field = f, .width = w, \
	.base = at }

static const struct_row structs[] = {
	/* 33 floats: words 33l, bank l */
	{ STRUCT(132, 0, 4, 0), "struct132_f0", 0, 132, 1 },
	/* 32 floats: words 32l, all in bank 0 */
	{ STRUCT(128, 0, 4, 0), "struct128_f0", 0, 128, 32 },
	{ STRUCT(128, 4, 4, 0), "struct128_f4", 4, 128, 32 },
	/* float3 .y: words 3l + 1, 3 is odd so every bank once */
	{ STRUCT(12, 4, 4, 0), "struct12_f4", 4, 12, 1 },
	/* double at 8 of 16: per phase of 16, words 4l+2, 4l+3 hit
	   banks 2,3,6,7,..,30,31 twice: 2 + 2 */
	{ STRUCT(16, 8, 8, 0), "struct16_f8", 8, 16, 4 },
	/* float4: four phases of 8 lanes, 32 words each */
	{ STRUCT(16, 0, 16, 0), "struct16_f0", 0, 16, 4 },
	/* float2 .x: words 256 + 2l, even banks twice */
	{ STRUCT(8, 0, 4, 1024), "struct8_f0", 1024, 8, 2 },
	/* char array: 32 bytes in 8 words */
	{ STRUCT(1, 0, 1, 0), "struct1_f0", 0, 1, 1 },
	/* last float of 16: words 16l + 15, banks 15 and 31 */
	{ STRUCT(64, 60, 4, 0), "struct64_f60", 60, 64, 16 },
};

START_TEST(test_struct)
{
	const struct_row *r = &structs[_i];
	const bs_profile *p = bs_profile_find("sm_90");
	bs_access a;
	bs_summary s;
	bs_error err;

	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(bs_struct_access(&r->spec, &a, &err), 0);
	ck_assert_str_eq(a.name, r->name);
	ck_assert_uint_eq(a.width, r->spec.width);
	ck_assert_uint_eq(a.active, ALL);
	for (unsigned l = 0; l < BS_LANES; l++)
		ck_assert_uint_eq(a.addr[l], r->first + l * r->lstep);
	ck_assert_int_eq(bs_predict(p, &a, &s, &err), 0);
	ck_assert_uint_eq(s.wavefronts, r->wavefronts);
}
END_TEST

START_TEST(test_struct_named)
{
	bs_struct_spec st = STRUCT(8, 4, 4, 0);
	bs_access a;
	bs_error err;

	st.name = "particle_y";
	st.kind = BS_KIND_ST;
	ck_assert_int_eq(bs_struct_access(&st, &a, &err), 0);
	ck_assert_str_eq(a.name, "particle_y");
	ck_assert_int_eq(a.kind, BS_KIND_ST);
	ck_assert_uint_eq(a.addr[31], 31 * 8 + 4);
}
END_TEST

typedef struct {
	bs_struct_spec spec;
	const char *source;
	const char *text;
} struct_error_row;

static const struct_error_row struct_errors[] = {
	{ STRUCT(0, 0, 4, 0), "--struct",
	  "struct size must be at least 1 byte" },
	{ STRUCT(132, 0, 5, 0), "--width",
	  "width 5 is not 1, 2, 4, 8 or 16 bytes" },
	{ STRUCT(132, 0, 4, 2), "--base",
	  "base 2 is not aligned to the 4-byte width" },
	{ STRUCT(132, 130, 4, 0), "--field",
	  "a 4-byte field at offset 130 runs past the 132-byte struct" },
	{ STRUCT(132, 132, 4, 0), "--field",
	  "a 4-byte field at offset 132 runs past the 132-byte struct" },
	{ STRUCT(132, 2, 4, 0), "--field",
	  "field offset 2 is not aligned to the 4-byte width" },
	{ STRUCT(6, 0, 4, 0), "--struct",
	  "struct size 6 is not a multiple of the 4-byte width, so lane 1's "
	  "address is misaligned" },
	/* 31 * 2^28 = 8321499136 */
	{ STRUCT(0x10000000, 0, 4, 0), "--struct",
	  "lane 31: address 8321499136 is beyond the 32-bit shared window" },
};

START_TEST(test_struct_error)
{
	const struct_error_row *r = &struct_errors[_i];
	bs_access a;
	bs_error err;

	ck_assert_int_eq(bs_struct_access(&r->spec, &a, &err), -1);
	ck_assert_str_eq(err.source, r->source);
	ck_assert_int_eq(err.line, 0);
	ck_assert_int_eq(err.column, 0);
	ck_assert_str_eq(err.text, r->text);
}
END_TEST

/* The largest struct array that still fits: lane 31 at 2^32 - 4. */
START_TEST(test_struct_top_of_window)
{
	bs_struct_spec st = STRUCT(4, 0, 4, 0xffffff80);
	bs_access a;
	bs_error err;

	ck_assert_int_eq(bs_struct_access(&st, &a, &err), 0);
	ck_assert_uint_eq(a.addr[31], 0xfffffffcu);
	st.base += 4;
	ck_assert_int_eq(bs_struct_access(&st, &a, &err), -1);
	ck_assert_str_eq(err.text, "lane 31: address 4294967296 is beyond "
			 "the 32-bit shared window");
}
END_TEST

#define ROWS(t) ((int)(sizeof(t) / sizeof((t)[0])))

Suite *shapes_suite(void)
{
	Suite *s = suite_create("shapes");
	TCase *tc = tcase_create("tile");

	tcase_add_loop_test(tc, test_tile, 0, ROWS(tiles));
	tcase_add_test(tc, test_tile_xor_narrow);
	tcase_add_test(tc, test_tile_named);
	tcase_add_loop_test(tc, test_tile_error, 0, ROWS(tile_errors));
	tcase_add_test(tc, test_tile_long_name);
	suite_add_tcase(s, tc);

	tc = tcase_create("struct");
	tcase_add_loop_test(tc, test_struct, 0, ROWS(structs));
	tcase_add_test(tc, test_struct_named);
	tcase_add_loop_test(tc, test_struct_error, 0, ROWS(struct_errors));
	tcase_add_test(tc, test_struct_top_of_window);
	suite_add_tcase(s, tc);
	return s;
}
