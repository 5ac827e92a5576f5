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
#include <stdio.h>
#include <string.h>

#include "bankscope.h"
#include "testutil.h"

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
	const bs_arch *p = bs_arch_find("sm_90");
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
	const bs_arch *p = bs_arch_find("sm_90");
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
	{ TILE(32, 32, 0, 4, BS_BY_COL, 0, (bs_swizzle)9, 0), "--swizzle",
	  "unknown swizzle 9" },
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
	tu_error_is(&err, r->source, 0, 0, r->text);
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
	const bs_arch *p = bs_arch_find("sm_90");
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
	tu_error_is(&err, r->source, 0, 0, r->text);
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

/* ---- element sizes, matrix and chunk modes, byte swizzles ------------
 *
 * Worked by hand under tests/cases/tiles16.arch (rules chosen for the
 * tests, not measured: 16-byte rows in phases of 8 lanes, 4-byte accesses
 * in one phase of 32).  A phase of 8 16-byte rows is conflict-free when
 * its rows sit in 8 different 16-byte columns of the 128-byte bank line,
 * (address / 16) % 8.  Every swizzle acts on the byte address: tma32,
 * tma64, tma128 XOR bits [7,7+B) into bits [4,4+B), B = 1, 2, 3, so with
 * rows of 128 bytes (a 64x64 half tile) row r's 16-byte column c moves
 * to c ^ (r & 1), c ^ (r & 3), c ^ (r & 7).
 */
static const bs_arch *tiles16(void)
{
	static bs_arch p;
	static int loaded;
	bs_error err;
	FILE *f;

	if (!loaded) {
		f = fopen("tests/cases/tiles16.arch", "r");
		ck_assert_ptr_nonnull(f);
		ck_assert_msg(bs_arch_read(f, "tiles16.arch", &p, &err) ==
			      0, "%s", err.text);
		fclose(f);
		loaded = 1;
	}
	return &p;
}

static bs_kind kind_of(const char *name)
{
	bs_kind k;

	ck_assert_msg(bs_kind_find(name, &k) == 0, "no kind %s", name);
	return k;
}

typedef struct {
	bs_tile_spec spec;
	const char *kind;
	const char *name;
	uint32_t active;
	struct {
		unsigned lane;
		uint32_t addr;
	} at[4];                 /* hand-worked lanes; addr 0 past the end
				    unless lane is 0 */
	unsigned wavefronts;
} mtile_row;

#define MT(r, c, e, w, d, i) .rows = r, .cols = c, .elem = e, .width = w, \
	.dir = d, .index = i
#define SW(s) .swizzle = BS_SWIZZLE_##s
#define CUTE(b, m, s) .swizzle = BS_SWIZZLE_CUTE, .cute = { b, m, s }

static const mtile_row mtiles[] = {
	/* half tile[64][64]: row l at 128 l, banks 0-3 for all 8 rows of
	   a phase: 8-way, 4 phases */
	{ { MT(64, 64, 2, 16, BS_MAT_STACK, 0) }, "ldsm.x4",
	  "tile64x64e2_stack0", ALL,
	  { { 0, 0 }, { 1, 128 }, { 9, 1152 }, { 31, 3968 } }, 32 },
	/* tma32: 128 l + 16 (l & 1): columns 0, 1, 0, 1, ...: 4-way */
	{ { MT(64, 64, 2, 16, BS_MAT_STACK, 0), SW(TMA32) }, "ldsm.x4",
	  "tile64x64e2_stack0_tma32", ALL,
	  { { 1, 144 }, { 2, 256 }, { 3, 400 }, { 31, 3984 } }, 16 },
	/* tma64: 128 l + 16 (l & 3): columns 0-3 twice: 2-way */
	{ { MT(64, 64, 2, 16, BS_MAT_STACK, 0), SW(TMA64) }, "ldsm.x4",
	  "tile64x64e2_stack0_tma64", ALL,
	  { { 3, 432 }, { 5, 656 }, { 6, 800 }, { 31, 4016 } }, 8 },
	/* tma128: 128 l + 16 (l & 7): columns 0-7 once per phase */
	{ { MT(64, 64, 2, 16, BS_MAT_STACK, 0), SW(TMA128) }, "ldsm.x4",
	  "tile64x64e2_stack0_tma128", ALL,
	  { { 7, 1008 }, { 9, 1168 }, { 14, 1888 }, { 31, 4080 } }, 4 },
	/* CuTe's Swizzle<3,4,3> is tma128 */
	{ { MT(64, 64, 2, 16, BS_MAT_STACK, 0), CUTE(3, 4, 3) }, "ldsm.x4",
	  "tile64x64e2_stack0_cute3_4_3", ALL,
	  { { 7, 1008 }, { 9, 1168 }, { 14, 1888 }, { 31, 4080 } }, 4 },
	/* the base is swizzled too: 128 (l+1) + 16 ((l+1) & 7) */
	{ { MT(64, 64, 2, 16, BS_MAT_STACK, 0), SW(TMA128), .base = 128 },
	  "ldsm.x4", "tile64x64e2_stack0_tma128", ALL,
	  { { 0, 144 }, { 6, 896 + 112 }, { 7, 1024 }, { 31, 4096 } }, 4 },
	/* half tile[64][128]: rows of 256 bytes; tma128 XORs bits 7-9 =
	   2l & 7 in: 256 l + 32 (l & 3), columns 0 2 4 6 twice: 2-way */
	{ { MT(64, 128, 2, 16, BS_MAT_STACK, 0), SW(TMA128) }, "ldsm.x4",
	  "tile64x128e2_stack0_tma128", ALL,
	  { { 1, 288 }, { 2, 576 }, { 3, 864 }, { 5, 1312 } }, 8 },
	/* Swizzle<3,4,4> XORs bits 8-10 = l & 7 in: 256 l + 16 (l & 7) */
	{ { MT(64, 128, 2, 16, BS_MAT_STACK, 0), CUTE(3, 4, 4) }, "ldsm.x4",
	  "tile64x128e2_stack0_cute3_4_4", ALL,
	  { { 1, 272 }, { 7, 1904 }, { 8, 2048 }, { 31, 8048 } }, 4 },
	/* side by side: lane 8m+i at 128 i + 16 m, a phase is one
	   matrix: 8 rows in one column, 8-way */
	{ { MT(64, 64, 2, 16, BS_MAT_SIDE, 0) }, "ldsm.x4",
	  "tile64x64e2_side0", ALL,
	  { { 0, 0 }, { 9, 144 }, { 10, 272 }, { 31, 944 } }, 32 },
	/* tma128: column m ^ i */
	{ { MT(64, 64, 2, 16, BS_MAT_SIDE, 0), SW(TMA128) }, "stsm.x4",
	  "tile64x64e2_side0_tma128", ALL,
	  { { 0, 0 }, { 9, 128 }, { 10, 304 }, { 31, 960 } }, 4 },
	/* the mma A order from row 16, column 8 (byte 16): matrix m at
	   rows 16 + 8 (m % 2), 16-byte column 1 + m / 2, moved to
	   column ^ (row & 7) */
	{ { MT(64, 64, 2, 16, BS_MAT_MMA, 16), .column = 8, SW(TMA128) },
	  "ldsm.x4", "tile64x64e2_mma16c8_tma128", ALL,
	  { { 0, 2064 }, { 8, 3088 }, { 16, 2080 }, { 27, 3472 } }, 4 },
	/* transposed: the same addresses; unswizzled, each matrix's rows
	   share a column: 8-way */
	{ { MT(64, 64, 2, 16, BS_MAT_MMA, 0) }, "ldsm.x4.t",
	  "tile64x64e2_mma0", ALL,
	  { { 8, 1024 }, { 16, 16 }, { 27, 1936 - 512 }, { 31, 1936 } },
	  32 },
	/* x2 stacked: lanes 0-15, rows 0-15 of column 0 */
	{ { MT(16, 64, 2, 16, BS_MAT_STACK, 0) }, "stsm.x2",
	  "tile16x64e2_stack0", 0xffff,
	  { { 0, 0 }, { 8, 1024 }, { 15, 1920 }, { 0, 0 } }, 16 },
	/* x1 from an aligned base: rows 0-7, 1024 + 144 i */
	{ { MT(8, 64, 2, 16, BS_MAT_STACK, 0), SW(TMA128), .base = 1024 },
	  "ldsm.x1", "tile8x64e2_stack0_tma128", 0xff,
	  { { 0, 1024 }, { 1, 1168 }, { 7, 2032 }, { 0, 0 } }, 1 },
	/* uint4 tile[32][8] with the element XOR: column l % 8, as tma128 */
	{ { MT(32, 8, 0, 16, BS_MAT_STACK, 0), SW(XOR) }, "ldsm.x4",
	  "tile32x8_stack0_xor", ALL,
	  { { 1, 144 }, { 7, 1008 }, { 8, 1024 }, { 31, 4080 } }, 4 },
	/* cp.async of 16 bytes, the tile's chunks row by row from row 2:
	   lane l to row 2 + l/8, column (l % 8) ^ (row & 7) */
	{ { MT(64, 64, 2, 16, BS_BY_CHUNKS, 2), SW(TMA128) }, "cp.async.ca",
	  "tile64x64e2_chunks2_tma128", ALL,
	  { { 0, 288 }, { 5, 368 }, { 8, 432 }, { 31, 672 } }, 4 },
	/* rows of 64 bytes: the chunks are contiguous, 16 l */
	{ { MT(32, 32, 2, 16, BS_BY_CHUNKS, 0) }, "cp.async.cg",
	  "tile32x32e2_chunks0", ALL,
	  { { 1, 16 }, { 4, 64 }, { 31, 496 }, { 0, 0 } }, 4 },
	/* float tile[32][32] by column under tma128: 128 l + 16 (l & 7),
	   word 32 l + 4 (l & 7): lanes j, j+8, j+16, j+24 share a bank */
	{ { MT(32, 32, 0, 4, BS_BY_COL, 0), SW(TMA128) }, "ld",
	  "tile32x32_col0_tma128", ALL,
	  { { 1, 144 }, { 8, 1024 }, { 31, 4080 }, { 0, 0 } }, 4 },
	/* 4-byte reads of a half row: row 1 at 128, 2 halves a lane */
	{ { MT(32, 64, 2, 4, BS_BY_ROW, 1) }, "ld", "tile32x64e2_row1", ALL,
	  { { 0, 128 }, { 1, 132 }, { 31, 252 }, { 0, 0 } }, 1 },
	/* 16-byte reads down column 8 (byte 16): 128 l + 16, 8-way */
	{ { MT(64, 64, 2, 16, BS_BY_COL, 8) }, "ld", "tile64x64e2_col8", ALL,
	  { { 0, 16 }, { 1, 144 }, { 31, 3984 }, { 0, 0 } }, 32 },
};

START_TEST(test_matrix_tile)
{
	const mtile_row *r = &mtiles[_i];
	bs_tile_spec t = r->spec;
	bs_access a;
	bs_summary s;
	bs_error err;

	t.kind = kind_of(r->kind);
	ck_assert_msg(bs_tile_access(&t, &a, &err) == 0, "%s: %s", r->name,
		      err.text);
	ck_assert_str_eq(a.name, r->name);
	ck_assert_uint_eq(a.active, r->active);
	for (int k = 0; k < 4; k++) {
		if (k && !r->at[k].lane && !r->at[k].addr)
			break;
		ck_assert_msg(a.addr[r->at[k].lane] == r->at[k].addr,
			      "%s lane %u: %u, not %u", r->name, r->at[k].lane,
			      a.addr[r->at[k].lane], r->at[k].addr);
	}
	ck_assert_int_eq(bs_predict(tiles16(), &a, &s, &err), 0);
	ck_assert_msg(s.wavefronts == r->wavefronts, "%s: %u wavefronts",
		      r->name, s.wavefronts);
}
END_TEST

/*
 * The bank map of one whole access: ldmatrix x4 over half tile[64][64]
 * with tma128.  Lane 8p+i reads 16 bytes at 1024 p + 144 i, words
 * 256 p + 36 i .. +3, banks 4i .. 4i+3: each phase fills the 32 banks
 * once, lane i of the phase on banks 4i-4i+3.  Unswizzled, phase 0's
 * words 32 i .. +3 sit in banks 0-3, one row per wavefront.
 */
START_TEST(test_matrix_bank_map)
{
	bs_tile_spec t = { MT(64, 64, 2, 16, BS_MAT_STACK, 0), SW(TMA128) };
	static bs_detail d;
	bs_access a;
	bs_error err;

	t.kind = kind_of("ldsm.x4");
	ck_assert_int_eq(bs_tile_access(&t, &a, &err), 0);
	ck_assert_int_eq(bs_predict_detail(tiles16(), &a, &d, &err), 0);
	ck_assert_uint_eq(d.nphases, 4);
	ck_assert_uint_eq(d.ncells, 128);
	for (unsigned p = 0; p < 4; p++) {
		ck_assert_uint_eq(d.phase[p].wavefronts, 1);
		ck_assert_uint_eq(d.phase[p].ncells, 32);
		for (unsigned b = 0; b < 32; b++) {
			const bs_cell *c = &d.cell[d.phase[p].first_cell + b];

			ck_assert_uint_eq(c->wave, 0);
			ck_assert_uint_eq(c->bank, b);
			ck_assert_uint_eq(c->lanes, 1u << (8 * p + b / 4));
			ck_assert_uint_eq(c->word, 256 * p + 36 * (b / 4) +
					  b % 4);
		}
	}
	t.swizzle = BS_SWIZZLE_NONE;
	ck_assert_int_eq(bs_tile_access(&t, &a, &err), 0);
	ck_assert_int_eq(bs_predict_detail(tiles16(), &a, &d, &err), 0);
	ck_assert_uint_eq(d.phase[0].wavefronts, 8);
	for (unsigned k = 0; k < d.phase[0].ncells; k++) {
		const bs_cell *c = &d.cell[k];

		ck_assert_uint_lt(c->bank, 4);
		ck_assert_uint_eq(c->lanes, 1u << c->wave);
		ck_assert_uint_eq(c->word, 32 * c->wave + c->bank);
	}
}
END_TEST

/* Swizzle<B,M,S> on byte addresses, worked bit by bit. */
static const struct {
	bs_cute c;
	uint32_t x, y;
} applies[] = {
	/* 0x80: bit 7 set, moved to bit 4 by every TMA mode */
	{ { 1, 4, 3 }, 0x80, 0x90 }, { { 2, 4, 3 }, 0x80, 0x90 },
	{ { 3, 4, 3 }, 0x80, 0x90 },
	/* 0x3a0: bits 7-9 = 7, bits 4-6 = 2 */
	{ { 1, 4, 3 }, 0x3a0, 0x3b0 }, { { 2, 4, 3 }, 0x3a0, 0x390 },
	{ { 3, 4, 3 }, 0x3a0, 0x3d0 },
	/* 0x2c5: bits 7-9 = 5, bits 4-6 = 4; bits 0-3 stay */
	{ { 1, 4, 3 }, 0x2c5, 0x2d5 }, { { 2, 4, 3 }, 0x2c5, 0x2d5 },
	{ { 3, 4, 3 }, 0x2c5, 0x295 },
	/* 1024: the 128B pattern repeats every 1024 bytes */
	{ { 3, 4, 3 }, 0x400, 0x400 },
	/* a negative shift: bits 7-9 XORed into bits 10-12 */
	{ { 3, 7, -3 }, 0x80, 0x480 }, { { 3, 7, -3 }, 0x2c5, 0x16c5 },
	/* M = 5: 32-byte units, bits 7-8 into bits 5-6 */
	{ { 2, 5, 2 }, 0x3a0, 0x3c0 },
	/* B = 0 is the identity */
	{ { 0, 4, 3 }, 0x3a0, 0x3a0 },
};

START_TEST(test_cute_apply)
{
	ck_assert_uint_eq(bs_cute_apply(applies[_i].c, applies[_i].x),
			  applies[_i].y);
}
END_TEST

static const struct {
	const char *text;
	int ok;
	bs_swizzle sw;
	bs_cute cute;
	long column;
	const char *msg;          /* the error, or the name written back */
} parses[] = {
	{ "none", 1, BS_SWIZZLE_NONE, { 0, 0, 0 }, 0, "none" },
	{ "xor", 1, BS_SWIZZLE_XOR, { 0, 0, 0 }, 0, "xor" },
	{ "tma32", 1, BS_SWIZZLE_TMA32, { 0, 0, 0 }, 0, "tma32" },
	{ "tma64", 1, BS_SWIZZLE_TMA64, { 0, 0, 0 }, 0, "tma64" },
	{ "tma128", 1, BS_SWIZZLE_TMA128, { 0, 0, 0 }, 0, "tma128" },
	{ "cute:3,4,3", 1, BS_SWIZZLE_CUTE, { 3, 4, 3 }, 0, "cute:3,4,3" },
	{ "cute:0,4,3", 1, BS_SWIZZLE_CUTE, { 0, 4, 3 }, 0, "cute:0,4,3" },
	{ "cute:3,7,-3", 1, BS_SWIZZLE_CUTE, { 3, 7, -3 }, 0,
	  "cute:3,7,-3" },
	/* bits 0..17 exactly */
	{ "cute:1,0,17", 1, BS_SWIZZLE_CUTE, { 1, 0, 17 }, 0, "cute:1,0,17" },
	{ "cute:1,0,18", 0, 0, { 0, 0, 0 }, 0, "cute:1,0,18 reaches address "
	  "bit 18: shared memory ends below bit 18 (256 KB), so M + |S| + B "
	  "must be at most 18" },
	{ "cute:9,9,9", 0, 0, { 0, 0, 0 }, 0, "cute:9,9,9 reaches address "
	  "bit 26: shared memory ends below bit 18 (256 KB), so M + |S| + B "
	  "must be at most 18" },
	{ "cute:3,4,2", 0, 0, { 0, 0, 0 }, 0, "cute:3,4,2: |S| = 2 is less "
	  "than B = 3, so the bits it reads overlap the bits it writes (CuTe "
	  "requires abs(S) >= B)" },
	{ "cute:3,4,-2", 0, 0, { 0, 0, 0 }, 0, "cute:3,4,-2: |S| = 2 is less "
	  "than B = 3, so the bits it reads overlap the bits it writes (CuTe "
	  "requires abs(S) >= B)" },
	{ "cute:", 0, 0, { 0, 0, 0 }, 6, "expected B (bits), a number" },
	{ "cute:3", 0, 0, { 0, 0, 0 }, 7, "expected ',' after B (bits): "
	  "cute:B,M,S takes three numbers" },
	{ "cute:3,-4,3", 0, 0, { 0, 0, 0 }, 8, "expected M (base), a number" },
	{ "cute:3,4,-", 0, 0, { 0, 0, 0 }, 10, "expected S (shift), a number "
	  "(may be negative)" },
	{ "cute:3,4,3x", 0, 0, { 0, 0, 0 }, 11, "unexpected text after S: "
	  "cute:B,M,S takes three numbers" },
	{ "cute:99999,4,3", 0, 0, { 0, 0, 0 }, 6, "B (bits) is larger than "
	  "18: shared memory addresses have 18 bits" },
	{ "tma16", 0, 0, { 0, 0, 0 }, 0, "'tma16' is not none, xor, tma32, "
	  "tma64, tma128 or cute:B,M,S" },
	{ "TMA128", 0, 0, { 0, 0, 0 }, 0, "'TMA128' is not none, xor, tma32, "
	  "tma64, tma128 or cute:B,M,S" },
	{ "", 0, 0, { 0, 0, 0 }, 0, "'' is not none, xor, tma32, tma64, "
	  "tma128 or cute:B,M,S" },
};

START_TEST(test_swizzle_parse)
{
	bs_swizzle sw = (bs_swizzle)7;
	bs_cute c = { 9, 9, 9 };
	bs_error err;
	char name[32];

	if (!parses[_i].ok) {
		ck_assert_int_eq(bs_swizzle_parse(parses[_i].text, "--swizzle",
						  &sw, &c, &err), -1);
		tu_error_is(&err, "--swizzle", 0, parses[_i].column,
			    parses[_i].msg);
		return;
	}
	ck_assert_int_eq(bs_swizzle_parse(parses[_i].text, "--swizzle", &sw,
					  &c, &err), 0);
	ck_assert_int_eq(sw, parses[_i].sw);
	ck_assert_int_eq(c.bits, parses[_i].cute.bits);
	ck_assert_int_eq(c.base, parses[_i].cute.base);
	ck_assert_int_eq(c.shift, parses[_i].cute.shift);
	bs_swizzle_name(sw, c, name, sizeof name);
	ck_assert_str_eq(name, parses[_i].msg);
}
END_TEST

/* Modes and names: every mode round-trips, others are refused. */
START_TEST(test_tile_dir_names)
{
	static const char *const names[] = { "row", "col", "chunks", "stack",
					     "side", "mma" };
	bs_tile_dir d;

	for (unsigned i = 0; i < 6; i++) {
		ck_assert_int_eq(bs_tile_dir_find(names[i], &d), 0);
		ck_assert_int_eq(d, (int)i);
		ck_assert_str_eq(bs_tile_dir_name(d), names[i]);
	}
	ck_assert_int_eq(bs_tile_dir_find("column", &d), -1);
	ck_assert_str_eq(bs_tile_dir_name((bs_tile_dir)6), "?");
	ck_assert(bs_kind_is_matrix(kind_of("ldsm.x2.t")));
	ck_assert(bs_kind_is_matrix(kind_of("stsm.x4")));
	ck_assert(!bs_kind_is_matrix(kind_of("cp.async.cg")));
	ck_assert(!bs_kind_is_matrix(BS_KIND_LD));
}
END_TEST

typedef struct {
	bs_tile_spec spec;
	const char *kind;
	const char *source;
	const char *text;
} mtile_error_row;

static const mtile_error_row mtile_errors[] = {
	{ { MT(64, 64, 3, 16, BS_MAT_STACK, 0) }, "ldsm.x4", "--elem",
	  "elements of 3 bytes: not 1, 2, 4, 8 or 16" },
	{ { MT(64, 64, 4, 2, BS_BY_COL, 0) }, "ld", "--elem",
	  "elements of 4 bytes are wider than the 2-byte access: an access "
	  "holds whole elements" },
	{ { MT(64, 64, 2, 4, BS_MAT_STACK, 0) }, "ld", "--access",
	  "stack places the 8x8 matrices of ldmatrix and stmatrix (ldsm.*, "
	  "stsm.*), not ld accesses: use row, col or chunks" },
	{ { MT(64, 64, 2, 16, BS_BY_COL, 0) }, "ldsm.x4", "--access",
	  "ldsm.x4 gives the 16-byte rows of 8x8 matrices: use stack, side "
	  "or mma, not col" },
	{ { MT(64, 64, 2, 16, BS_BY_CHUNKS, 0), .column = 8 }, "cp.async.ca",
	  "--column", "a first column goes with the matrix modes (stack, side, "
	  "mma); chunks uses --index" },
	{ { MT(64, 64, 2, 16, BS_MAT_STACK, 0), SW(XOR) }, "ldsm.x4",
	  "--swizzle", "xor moves single elements: it needs elements as wide "
	  "as the 16-byte access, not 2 bytes (tma32, tma64, tma128 and "
	  "cute:B,M,S move 16-byte units)" },
	{ { MT(64, 64, 2, 16, BS_MAT_STACK, 0), CUTE(2, 2, 3) }, "ldsm.x4",
	  "--swizzle", "cute:2,2,3 moves 4-byte units, narrower than the "
	  "16-byte access, which it would split: M must be at least 4" },
	{ { MT(64, 64, 2, 16, BS_MAT_STACK, 0), CUTE(3, 4, 2) }, "ldsm.x4",
	  "--swizzle", "cute:3,4,2: |S| = 2 is less than B = 3, so the bits it "
	  "reads overlap the bits it writes (CuTe requires abs(S) >= B)" },
	/* rows of 120 bytes: row 1's matrix row at byte 120 */
	{ { MT(64, 60, 2, 16, BS_MAT_STACK, 0) }, "ldsm.x4", "--tile",
	  "rows of 120 bytes (60 + 0 elements of 2 bytes) are not a multiple "
	  "of the 16-byte access, so rows after the first start misaligned" },
	{ { MT(64, 64, 2, 16, BS_MAT_STACK, 0), .pad = 4 }, "ldsm.x4",
	  "--pad", "rows of 136 bytes (64 + 4 elements of 2 bytes) are not a "
	  "multiple of the 16-byte access, so rows after the first start "
	  "misaligned" },
	{ { MT(64, 64, 2, 16, BS_MAT_SIDE, 0), .column = 4 }, "ldsm.x4",
	  "--column", "column 4 starts 8 bytes into a 16-byte unit: the rows "
	  "ldsm.x4 gives must be 16-byte aligned (columns in steps of 8)" },
	{ { MT(16, 64, 2, 16, BS_MAT_STACK, 0) }, "ldsm.x4", "--tile",
	  "ldsm.x4 with --access stack covers 32 rows of 16 bytes: the tile "
	  "has 16 rows of 128 bytes" },
	{ { MT(64, 16, 2, 16, BS_MAT_SIDE, 0) }, "stsm.x4", "--tile",
	  "stsm.x4 with --access side covers 8 rows of 64 bytes: the tile has "
	  "64 rows of 32 bytes" },
	{ { MT(64, 64, 2, 16, BS_MAT_STACK, 40) }, "ldsm.x4", "--index",
	  "ldsm.x4 from row 40 covers rows 40-71: the tile has 64" },
	{ { MT(64, 64, 2, 16, BS_MAT_MMA, 0), .column = 56 }, "ldsm.x4",
	  "--column", "ldsm.x4 from column 56 covers bytes 112-143 of a row: "
	  "the tile's rows hold 128" },
	{ { MT(8, 10, 2, 16, BS_BY_CHUNKS, 0) }, "cp.async.cg", "--tile",
	  "rows of 20 bytes (10 elements of 2 bytes) do not split into "
	  "16-byte chunks" },
	{ { MT(64, 64, 2, 16, BS_BY_COL, 3) }, "ld", "--index",
	  "column 3 starts 6 bytes into a 16-byte unit: a 16-byte access must "
	  "be aligned (columns in steps of 8)" },
	/* rows of 120 + 8 bytes: bytes 112-127 hold padding */
	{ { MT(64, 60, 2, 16, BS_BY_COL, 56), .pad = 4 }, "ld", "--index",
	  "a 16-byte access at column 56 runs past the tile's 60 columns" },
	{ { MT(64, 64, 2, 16, BS_BY_CHUNKS, 64) }, "cp.async.cg", "--index",
	  "row 64 is outside the tile's 64 rows" },
	{ { MT(64, 64, 2, 16, (bs_tile_dir)6, 0) }, "ldsm.x4", "--tile",
	  "unknown tile direction 6" },
};

START_TEST(test_matrix_tile_error)
{
	const mtile_error_row *r = &mtile_errors[_i];
	bs_tile_spec t = r->spec;
	bs_access a;
	bs_error err;

	t.kind = kind_of(r->kind);
	ck_assert_int_eq(bs_tile_access(&t, &a, &err), -1);
	ck_assert_str_eq(err.source, r->source);
	ck_assert_int_eq(err.column, 0);
	ck_assert_str_eq(err.text, r->text);
}
END_TEST

static const struct {
	bs_tile_spec spec;
	const char *text;         /* "" when nothing to warn of */
} warnings[] = {
	{ { MT(64, 64, 2, 16, BS_MAT_STACK, 0), SW(TMA128) }, "" },
	{ { MT(64, 64, 2, 16, BS_MAT_STACK, 0), SW(TMA128), .base = 1024 },
	  "" },
	{ { MT(32, 32, 0, 4, BS_BY_COL, 0), SW(XOR), .base = 4 }, "" },
	{ { MT(64, 64, 2, 16, BS_MAT_STACK, 0), CUTE(0, 4, 3), .base = 16 },
	  "" },
	{ { MT(64, 64, 2, 16, BS_MAT_STACK, 0), SW(TMA128), .base = 128 },
	  "base 128 is not a multiple of 1024 bytes, the repeat of tma128: "
	  "the swizzle acts on shared addresses (as TMA writes them), so the "
	  "tile's pattern starts part-way in, and code that swizzles offsets "
	  "from the base disagrees with it; align the tile to 1024 bytes" },
	{ { MT(64, 64, 2, 16, BS_MAT_STACK, 0), SW(TMA32), .base = 512 },
	  "rows of 128 bytes are wider than the 32-byte span of tma32: no one "
	  "TMA box writes them (cuTensorMapEncodeTiled needs boxDim[0] x "
	  "element size <= 32 bytes); CUTLASS builds such tiles from "
	  "32-byte-wide atoms" },
	{ { MT(64, 128, 2, 16, BS_MAT_STACK, 0), SW(TMA64), .base = 256 },
	  "base 256 is not a multiple of 512 bytes, the repeat of tma64: the "
	  "swizzle acts on shared addresses (as TMA writes them), so the "
	  "tile's pattern starts part-way in, and code that swizzles offsets "
	  "from the base disagrees with it; align the tile to 512 bytes; rows "
	  "of 256 bytes are wider than the 64-byte span of tma64: no one TMA "
	  "box writes them (cuTensorMapEncodeTiled needs boxDim[0] x element "
	  "size <= 64 bytes); CUTLASS builds such tiles from 64-byte-wide "
	  "atoms" },
	/* a CuTe swizzle has no span; Swizzle<3,4,4> repeats every 2048 */
	{ { MT(64, 128, 2, 16, BS_MAT_STACK, 0), CUTE(3, 4, 4),
	    .base = 1024 },
	  "base 1024 is not a multiple of 2048 bytes, the repeat of "
	  "cute:3,4,4: the swizzle acts on shared addresses (as TMA writes "
	  "them), so the tile's pattern starts part-way in, and code that "
	  "swizzles offsets from the base disagrees with it; align the tile "
	  "to 2048 bytes" },
};

START_TEST(test_tile_warning)
{
	char buf[640];
	size_t n = bs_tile_warning(&warnings[_i].spec, buf, sizeof buf);

	ck_assert_str_eq(buf, warnings[_i].text);
	ck_assert_uint_eq(n, strlen(warnings[_i].text));
	/* a short buffer is cut, never overrun */
	n = bs_tile_warning(&warnings[_i].spec, buf, 8);
	ck_assert_uint_le(n, 7);
	ck_assert_uint_eq(strlen(buf), n);
}
END_TEST

#define ROWS(t) ((int)(sizeof(t) / sizeof((t)[0])))

Suite *shapes_suite(void)
{
	Suite *s = suite_create("shapes");

	tu_add_tcase(s, "tile", 0, (const tu_test[]){
		{ test_tile, TU_ROWS(tiles) }, { test_tile_xor_narrow, 1 },
		{ test_tile_named, 1 },
		{ test_tile_error, TU_ROWS(tile_errors) },
		{ test_tile_long_name, 1 }, { NULL, 0 } });
	tu_add_tcase(s, "matrix", 0, (const tu_test[]){
		{ test_matrix_tile, TU_ROWS(mtiles) },
		{ test_matrix_bank_map, 1 },
		{ test_cute_apply, TU_ROWS(applies) },
		{ test_swizzle_parse, TU_ROWS(parses) },
		{ test_tile_dir_names, 1 },
		{ test_matrix_tile_error, TU_ROWS(mtile_errors) },
		{ test_tile_warning, TU_ROWS(warnings) }, { NULL, 0 } });
	tu_add_tcase(s, "struct", 0, (const tu_test[]){
		{ test_struct, TU_ROWS(structs) }, { test_struct_named, 1 },
		{ test_struct_error, TU_ROWS(struct_errors) },
		{ test_struct_top_of_window, 1 }, { NULL, 0 } });
	return s;
}
