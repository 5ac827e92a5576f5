/*
 * check_fix.c - the fix advisor, its classics worked by hand.
 *
 * Each row is an access (a tile, a struct, an index expression or a
 * pattern line), the padding searched, and what bs_fix_search() must
 * answer under the row's architecture: the wavefronts before, the outcome, the
 * change (kind, padding, swizzle, width), the wavefronts after, the extra
 * shared memory, and the alternative.  The comment on each row is the
 * bank arithmetic with sm_90's rules (../shared/h100-measured.md): 32
 * banks of 4 bytes, bank = (address / 4) % 32; 1-, 2-, 4-byte accesses in
 * one phase of 32 lanes, 8-byte in two of 16, 16-byte in four of 8.
 *
 * A sweep checks the padding rule on every stride, and program rows run
 * $BANKSCOPE fix (make check sets it) and look for the lines that matter
 * and the exit status.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "bankscope.h"
#include "testutil.h"

enum outcome { IDEAL, ALREADY, IMPROVED, UNCHANGED };

typedef struct {
	const char *what;
	const char *profile;      /* NULL: sm_90 */
	bs_fix_input in;
	const char *expr;         /* FROM_ACCESS: index expression, or */
	const char *line;         /* a pattern line */
	unsigned width;           /* of the expression */
	int limit;                /* 0: default padding; else max_pad + 1 */
	unsigned before, ideal;
	enum outcome outcome;
	bs_fix_kind kind;
	unsigned pad;
	bs_swizzle swizzle;
	unsigned wide;            /* WIDEN: bytes after, and */
	unsigned merged_wavefronts;
	unsigned after;
	long long extra;
	bs_fix_kind alt;
	long long alt_extra;
	const char *explains;     /* words the explanation must hold */
	const char *tile_kind;    /* a tile's kind by name; NULL: ld */
	bs_cute cute;             /* SWIZZLE_CUTE: the B, M, S expected */
	const char *warns;        /* words the change's warning must hold;
				     NULL: it has none */
} fix_row;

#define TILE(r, c, p, w, d, i, s) .in = { .source = BS_FIX_FROM_TILE, \
	.tile = { .rows = r, .cols = c, .pad = p, .width = w, .dir = d, \
		  .index = i, .swizzle = s } }
#define STRUCT(b, f, w) .in = { .source = BS_FIX_FROM_STRUCT, \
	.strct = { .struct_bytes = b, .field = f, .width = w } }
#define EXPR(e, w, row) .in = { .source = BS_FIX_FROM_ACCESS, \
	.row_elems = row }, .expr = e, .width = w
#define LINE(l, row) .in = { .source = BS_FIX_FROM_ACCESS, \
	.row_elems = row }, .line = l
#define MAXPAD(n) .limit = (n) + 1
/* a tile of ELEM-byte elements read WIDTH bytes a lane by kind K */
#define BTILE(r, c, p, e, w, d, i, s, k) .in = { .source = BS_FIX_FROM_TILE, \
	.tile = { .rows = r, .cols = c, .pad = p, .elem = e, .width = w, \
		  .dir = d, .index = i, .swizzle = s } }, .tile_kind = k, \
	.profile = "tiles16"
#define STACK BS_MAT_STACK
#define SIDE BS_MAT_SIDE
#define TMA64 BS_SWIZZLE_TMA64
#define TMA128 BS_SWIZZLE_TMA128
#define CUTE BS_SWIZZLE_CUTE
#define COL BS_BY_COL
#define ROW BS_BY_ROW
#define NONE BS_SWIZZLE_NONE
#define XOR BS_SWIZZLE_XOR

static const fix_row rows[] = {
	{ "float tile[32][32] by column: words 32l all in bank 0, 32-way; "
	  "pad 1: words 33l, bank l; the swizzle: words 32l + l, bank l, "
	  "at no memory", NULL, TILE(32, 32, 0, 4, COL, 0, NONE),
	  .before = 32, .ideal = 1, .outcome = IDEAL, .kind = BS_FIX_PAD,
	  .pad = 1, .after = 1, .extra = 32 * 4, .alt = BS_FIX_SWIZZLE,
	  .alt_extra = 0 },
	{ "double tile[32][32] by column: a phase of 16 lanes reads words "
	  "64l + 2j, +1: banks 2j, 2j+1, 16-way, twice = 32; pad 1: row "
	  "264 B = 66 words, banks 2l and 2l+1 mod 32 for 16 lanes: all 32 "
	  "once, 1 + 1 = the ideal 2", NULL, TILE(32, 32, 0, 8, COL, 0, NONE),
	  .before = 32, .ideal = 2, .outcome = IDEAL, .kind = BS_FIX_PAD,
	  .pad = 1, .after = 2, .extra = 32 * 8, .alt = BS_FIX_SWIZZLE },
	{ "char tile[32][32] by column: lane l on word 8l, banks 0, 8, 16, "
	  "24 with 8 words each, 8-way; pad 1: byte 33l is word 8l + l/4, "
	  "bank 8(l%4) + l/4, all distinct", NULL,
	  TILE(32, 32, 0, 1, COL, 0, NONE), .before = 8, .ideal = 1,
	  .outcome = IDEAL, .kind = BS_FIX_PAD, .pad = 1, .after = 1,
	  .extra = 32, .alt = BS_FIX_SWIZZLE },
	{ "float tile[32][32], padding forbidden: the XOR swizzle, column 5 "
	  "of row l at 5 ^ l, bank 5 ^ l", NULL,
	  TILE(32, 32, 0, 4, COL, 5, NONE), MAXPAD(0), .before = 32,
	  .ideal = 1, .outcome = IDEAL, .kind = BS_FIX_SWIZZLE, .pad = 0,
	  .swizzle = XOR, .after = 1, .extra = 0, .alt = BS_FIX_NONE },
	{ "float tile[32][48] (pad 16): banks 16l % 32, 16-way; pad 1 "
	  "instead frees 15 floats a row; the swizzle without padding frees "
	  "all 16", NULL, TILE(32, 32, 16, 4, COL, 0, NONE), .before = 16,
	  .ideal = 1, .outcome = IDEAL, .kind = BS_FIX_PAD, .pad = 1,
	  .after = 1, .extra = -32 * 15 * 4, .alt = BS_FIX_SWIZZLE,
	  .alt_extra = -32 * 16 * 4 },
	{ "float tile[32][16] swizzled: words 16l + (l%16), lanes l and "
	  "l+16 share a bank, 2-way; keeping the swizzle, no padding 0..31 "
	  "does better (2-, 4-, 8- or 16-way); dropping it for pad 1: 17l, "
	  "bank 17l % 32 distinct", NULL, TILE(32, 16, 0, 4, COL, 0, XOR),
	  .before = 2, .ideal = 1, .outcome = IDEAL, .kind = BS_FIX_SWIZZLE,
	  .pad = 1, .swizzle = NONE, .after = 1, .extra = 32 * 4 },
	{ "float tile[32][48], padding forbidden: 16-way, 48 columns take "
	  "no XOR swizzle, a float2 read is 8-way per phase", NULL,
	  TILE(32, 48, 0, 4, COL, 0, NONE), MAXPAD(0), .before = 16,
	  .ideal = 1, .outcome = UNCHANGED, .kind = BS_FIX_NONE,
	  .after = 16, .explains = "power-of-two" },
	{ "float tile[32][32] by row: words l, 1 wavefront", NULL,
	  TILE(32, 32, 0, 4, ROW, 3, NONE), .before = 1, .ideal = 1,
	  .outcome = ALREADY },
	{ "float tile[32][2] column 1, padding forbidden: words 2l + 1, "
	  "2-way; both columns as one float2: 16 lanes on words 2l, 2l+1, "
	  "all banks once per phase, 2 against 2 + 2", NULL,
	  TILE(32, 2, 0, 4, COL, 1, NONE), MAXPAD(0), .before = 2,
	  .ideal = 1, .outcome = IDEAL, .kind = BS_FIX_WIDEN, .wide = 8,
	  .merged_wavefronts = 4, .after = 2, .extra = 0 },
	{ "struct of 32 floats at field 0: words 32l, bank 0, 32-way; pad 1 "
	  "float: 33l, bank l; +4 bytes x 32 structs", NULL,
	  STRUCT(128, 0, 4), .before = 32, .ideal = 1, .outcome = IDEAL,
	  .kind = BS_FIX_PAD, .pad = 1, .after = 1, .extra = 128,
	  .alt = BS_FIX_NONE },
	{ "struct of 33 floats: words 33l, bank l", NULL, STRUCT(132, 0, 4),
	  .before = 1, .ideal = 1, .outcome = ALREADY },
	{ "struct of 16 doubles at field 8: phase words 32l + 2, +3: 16-way "
	  "twice; pad 1 double: 34l + 2, banks 2l + 2, +3 distinct", NULL,
	  STRUCT(128, 8, 8), .before = 32, .ideal = 2, .outcome = IDEAL,
	  .kind = BS_FIX_PAD, .pad = 1, .after = 2, .extra = 32 * 8 },
	{ "struct {float x, y;} .x, padding forbidden: words 2l, 2-way; "
	  "read as float2: 1 + 1 against 2 + 2", NULL, STRUCT(8, 0, 4),
	  MAXPAD(0), .before = 2, .ideal = 1, .outcome = IDEAL,
	  .kind = BS_FIX_WIDEN, .wide = 8, .merged_wavefronts = 4,
	  .after = 2, .extra = 0 },
	{ "lane*32 + 5: rows of 32 floats by the lane stride, pad 1: words "
	  "33l + 5", NULL, EXPR("lane*32 + 5", 4, 0), .before = 32,
	  .ideal = 1, .outcome = IDEAL, .kind = BS_FIX_PAD, .pad = 1,
	  .after = 1, .extra = 128, .alt = BS_FIX_SWIZZLE },
	{ "lane*16 doubles: the u64 stride-16 case, 16-way per phase; pad 1: "
	  "34l, banks 2l", NULL, EXPR("lane*16", 8, 0), .before = 32,
	  .ideal = 2, .outcome = IDEAL, .kind = BS_FIX_PAD, .pad = 1,
	  .after = 2, .extra = 32 * 8, .alt = BS_FIX_SWIZZLE },
	{ "(lane%4)*32, rows of 32: 4 words in bank 0; pad 1: words 33r, "
	  "banks 0..3; the warp spans 4 rows", NULL,
	  EXPR("(lane%4)*32", 4, 32), .before = 4, .ideal = 1,
	  .outcome = IDEAL, .kind = BS_FIX_PAD, .pad = 1, .after = 1,
	  .extra = 16, .alt = BS_FIX_SWIZZLE },
	{ "lane*32 read as rows of 48: lanes 3m and 3m+1 read columns 0 and "
	  "32 of one row, 32 words apart: one bank whatever the padding; pad 1: "
	  "word 98m, 98m+32 in bank 2m, 2-way; rows 0..20", NULL,
	  EXPR("lane*32", 4, 48), .before = 32, .ideal = 1,
	  .outcome = IMPROVED, .kind = BS_FIX_PAD, .pad = 1, .after = 2,
	  .extra = 21 * 4 },
	{ "a random line: no constant stride, no row given", NULL,
	  LINE("rnd 4 ld 0 132 4 260 8 12 384 1000 16 20 24 28 32 36 40 44 "
	       "48 52 56 60 64 68 72 76 80 84 88 92 96 100 104 108", 0),
	  .before = 3, .ideal = 1, .outcome = UNCHANGED, .kind = BS_FIX_NONE,
	  .after = 3, .explains = "no row length" },
	{ "textbook, double tile[32][32]: one phase, 64 words in banks 2j, "
	  "2j+1, 32-way; pad 1: banks 2l mod 32 twice, 2 = ideal 2",
	  "textbook", TILE(32, 32, 0, 8, COL, 0, NONE), .before = 32,
	  .ideal = 2, .outcome = IDEAL, .kind = BS_FIX_PAD, .pad = 1,
	  .after = 2, .extra = 256, .alt = BS_FIX_SWIZZLE },

	/*
	 * The byte-layout search, under tests/cases/tiles16.arch (rules
	 * chosen for the tests, not measured: 16-byte rows in phases of 8
	 * lanes, 4-byte accesses in one phase of 32).  A phase of 8 16-byte
	 * rows is conflict-free when its rows sit in 8 different 16-byte
	 * columns, (address / 16) % 8.
	 */
	{ "ldmatrix x4 over half tile[64][64]: rows 128 bytes apart, all in "
	  "column 0, 8-way; tma32 and tma64 leave 4- and 2-way, tma128 moves "
	  "row r to column r & 7; padding 16 bytes: 144 r, column r % 8",
	  BTILE(64, 64, 0, 2, 16, STACK, 0, NONE, "ldsm.x4"), .before = 32,
	  .ideal = 4, .outcome = IDEAL, .kind = BS_FIX_SWIZZLE, .pad = 0,
	  .swizzle = TMA128, .after = 4, .extra = 0, .alt = BS_FIX_PAD,
	  .alt_extra = 64 * 16, .warns = "this tile is "
	  "CU_TENSOR_MAP_SWIZZLE_128B = 3 for TMA and layout type 1 for "
	  "wgmma" },
	{ "ldmatrix x4 over half tile[32][32]: rows 64 bytes apart, columns "
	  "0 and 4, 4-way; tma32 leaves 2-way, tma64 (bits 7-8 into 4-5) "
	  "puts rows 0-7 in columns 0 4 1 5 2 6 3 7", BTILE(32, 32, 0, 2, 16,
	  STACK, 0, NONE, "ldsm.x4"), .before = 16, .ideal = 4,
	  .outcome = IDEAL, .kind = BS_FIX_SWIZZLE, .swizzle = TMA64,
	  .after = 4, .alt = BS_FIX_PAD, .alt_extra = 32 * 16,
	  .warns = "= 2 for TMA and layout type 2 for wgmma" },
	{ "ldmatrix x4 over half tile[64][128]: rows of 256 bytes are no TMA "
	  "box; Swizzle<3,4,3> reads bits 7-9 = 2r & 7, 2-way; Swizzle<3,4,4> "
	  "reads bits 8-10 = r & 7", BTILE(64, 128, 0, 2, 16, STACK, 0, NONE,
	  "ldsm.x4"), .before = 32, .ideal = 4, .outcome = IDEAL,
	  .kind = BS_FIX_SWIZZLE, .swizzle = CUTE, .cute = { 3, 4, 4 },
	  .after = 4, .alt = BS_FIX_PAD, .alt_extra = 64 * 16 },
	{ "stmatrix x4 side by side over half tile[64][64+64]: rows of 256 "
	  "bytes, 8-way; tma128 without the padding frees 64 x 128 bytes, "
	  "16 bytes of padding instead of 128 frees 64 x 112",
	  BTILE(64, 64, 64, 2, 16, SIDE, 0, NONE, "stsm.x4"), .before = 32,
	  .ideal = 4, .outcome = IDEAL, .kind = BS_FIX_SWIZZLE, .pad = 0,
	  .swizzle = TMA128, .after = 4, .extra = -64 * 128,
	  .alt = BS_FIX_PAD, .alt_extra = -64 * 112,
	  .warns = "layout type 1 for wgmma" },
	{ "cp.async of 16 bytes down column 0 of half tile[64][64]: lane l "
	  "at 128 l, 8-way; tma128", BTILE(64, 64, 0, 2, 16, COL, 0, NONE,
	  "cp.async.cg"), .before = 32, .ideal = 4, .outcome = IDEAL,
	  .kind = BS_FIX_SWIZZLE, .swizzle = TMA128, .after = 4,
	  .alt = BS_FIX_PAD, .alt_extra = 64 * 16, .warns = "layout type 1" },
	{ "cp.async of 4 bytes down column 0 of float tile[32][32]: words 32 l "
	  "in bank 0; moving 4-byte units needs 5 XOR bits, Swizzle<5,2,5>: "
	  "word 32 l + l; padding 1 float costs 32 x 4 bytes",
	  BTILE(32, 32, 0, 4, 4, COL, 0, NONE, "cp.async.ca"), .before = 32,
	  .ideal = 1, .outcome = IDEAL, .kind = BS_FIX_SWIZZLE, .swizzle = CUTE,
	  .cute = { 5, 2, 5 }, .after = 1, .alt = BS_FIX_PAD,
	  .alt_extra = 128 },
	{ "the same, padding forbidden: the swizzle alone",
	  BTILE(32, 32, 0, 4, 4, COL, 0, NONE, "cp.async.ca"), MAXPAD(0),
	  .before = 32, .ideal = 1, .outcome = IDEAL, .kind = BS_FIX_SWIZZLE,
	  .swizzle = CUTE, .cute = { 5, 2, 5 }, .after = 1,
	  .alt = BS_FIX_NONE },
	{ "cp.async of the tile's chunks row by row: 128 contiguous bytes a "
	  "phase", BTILE(64, 64, 0, 2, 16, BS_BY_CHUNKS, 0, NONE,
	  "cp.async.cg"), .before = 4, .ideal = 4, .outcome = ALREADY },
	{ "ldmatrix x1 over rows of 128 KB: rows 0-7 differ in bits 17-19 "
	  "and a swizzle reads bits 0-17 only: 2 columns, 4-way at best, "
	  "Swizzle<1,4,13> first (B, then the repeat, then M)",
	  BTILE(8, 65536, 0, 2, 16, STACK, 0, NONE, "ldsm.x1"), MAXPAD(0),
	  .before = 8, .ideal = 1, .outcome = IMPROVED,
	  .kind = BS_FIX_SWIZZLE, .swizzle = CUTE, .cute = { 1, 4, 13 },
	  .after = 4 },
};

static const bs_arch *row_profile(const fix_row *r)
{
	static bs_arch tiles16;
	const bs_arch *p;
	bs_error err;
	FILE *f;

	if (r->profile && !strcmp(r->profile, "tiles16")) {
		f = fopen("tests/cases/tiles16.arch", "r");
		ck_assert_ptr_nonnull(f);
		ck_assert_msg(bs_arch_read(f, "tiles16.arch", &tiles16,
					      &err) == 0, "%s", err.text);
		fclose(f);
		return &tiles16;
	}
	p = r->profile ? bs_arch_find(r->profile) : bs_arch_default();

	ck_assert_ptr_nonnull(p);
	return p;
}

static void row_input(const fix_row *r, bs_fix_input *in)
{
	bs_error err;

	*in = r->in;
	in->max_pad = r->limit ? r->limit - 1 : -1;
	if (r->tile_kind)
		ck_assert_int_eq(bs_kind_find(r->tile_kind, &in->tile.kind), 0);
	if (r->expr) {
		bs_expr_spec s = { .name = "expr", .index = r->expr,
				   .width = r->width };

		ck_assert_msg(bs_access_from_expr(&s, &in->access, &err) == 0,
			      "%s: %s", r->expr, err.text);
	} else if (r->line) {
		ck_assert_int_eq(bs_parse_line(r->line, "row", 1, &in->access,
					       &err), 1);
	}
}

START_TEST(test_fix_rows)
{
	const fix_row *r = &rows[_i];
	const bs_arch *p = row_profile(r);
	static bs_fix f;
	bs_fix_input in;
	bs_summary again;
	bs_error err;
	const bs_fix_change *b = &f.best;

	row_input(r, &in);
	ck_assert_msg(bs_fix_search(p, &in, &f, &err) == 0, "%s: %s", r->what,
		      err.text);
	ck_assert_msg(f.sum_before.wavefronts == r->before &&
		      f.sum_before.ideal_wavefronts == r->ideal,
		      "%s: before %u (ideal %u)", r->what,
		      f.sum_before.wavefronts, f.sum_before.ideal_wavefronts);
	ck_assert_msg(f.already_ideal == (r->outcome == ALREADY), "%s",
		      r->what);
	ck_assert_msg(f.reaches_ideal == (r->outcome == IDEAL ||
					  r->outcome == ALREADY),
		      "%s: reaches_ideal %d", r->what, f.reaches_ideal);
	ck_assert_msg(b->kind == r->kind, "%s: kind %s", r->what,
		      bs_fix_kind_name(b->kind));
	if (r->outcome == ALREADY) {
		ck_assert_uint_eq(f.tried, 0);
		return;
	}
	if (r->kind == BS_FIX_NONE) {
		ck_assert_msg(strstr(f.explanation, r->explains), "%s: '%s'",
			      r->what, f.explanation);
		return;
	}
	ck_assert_msg(b->pad == r->pad && b->swizzle == r->swizzle,
		      "%s: pad %u swizzle %d", r->what, b->pad,
		      (int)b->swizzle);
	if (r->swizzle == BS_SWIZZLE_CUTE)
		ck_assert_msg(!memcmp(&b->cute, &r->cute, sizeof r->cute),
			      "%s: Swizzle<%d,%d,%d>", r->what, b->cute.bits,
			      b->cute.base, b->cute.shift);
	ck_assert_msg(r->warns ? strstr(b->warning, r->warns) != NULL
			       : !*b->warning, "%s: warning '%s'", r->what,
		      b->warning);
	ck_assert_int_eq(f.byte_layout, r->tile_kind != NULL);
	ck_assert_msg(b->sum.wavefronts == r->after, "%s: after %u", r->what,
		      b->sum.wavefronts);
	ck_assert_msg(b->extra_bytes == r->extra, "%s: extra %lld", r->what,
		      (long long)b->extra_bytes);
	ck_assert_uint_eq(b->width, r->wide ? r->wide : f.before.width);
	if (r->kind == BS_FIX_WIDEN) {
		ck_assert_uint_eq(b->merged, r->wide / f.before.width);
		ck_assert_uint_eq(b->merged_wavefronts, r->merged_wavefronts);
	}
	ck_assert_msg(f.alternative.kind == r->alt, "%s: alternative %s",
		      r->what, bs_fix_kind_name(f.alternative.kind));
	if (r->alt != BS_FIX_NONE)
		ck_assert_msg(f.alternative.extra_bytes == r->alt_extra,
			      "%s: alternative extra %lld", r->what,
			      (long long)f.alternative.extra_bytes);
	/* the access after is what the summary says */
	ck_assert_int_eq(bs_predict(p, &b->access, &again, NULL), 0);
	ck_assert_uint_eq(again.wavefronts, b->sum.wavefronts);
	ck_assert_msg(*b->label && *b->declaration && *b->note, "%s",
		      r->what);
	/* padding a tile or struct changes no index; a flat index changes */
	ck_assert_msg((b->kind != BS_FIX_PAD ||
		       r->in.source == BS_FIX_FROM_ACCESS) == !!*b->index_change,
		      "%s: index change '%s'", r->what, b->index_change);
}
END_TEST

/*
 * Lane stride S elements of 4, 8 or 16 bytes: a phase of 32, 16 or 8
 * lanes covers all 32 banks once exactly when S is odd, so an odd stride
 * needs nothing and an even one is fixed by 1 element of padding.
 */
START_TEST(test_stride_sweep)
{
	static const unsigned widths[] = { 4, 8, 16 };
	unsigned w = widths[_i];
	static bs_fix f;
	bs_error err;

	for (unsigned s = 1; s <= 64; s++) {
		bs_fix_input in = { .source = BS_FIX_FROM_ACCESS, .max_pad = -1 };
		char index[32];
		bs_expr_spec e = { .index = index, .width = w };

		snprintf(index, sizeof index, "lane*%u", s);
		ck_assert_int_eq(bs_access_from_expr(&e, &in.access, &err), 0);
		ck_assert_int_eq(bs_fix_search(bs_arch_default(), &in, &f,
					       &err), 0);
		ck_assert_uint_eq(f.max_pad, 128 / w - 1);
		ck_assert_msg(f.reaches_ideal, "width %u stride %u", w, s);
		ck_assert_msg(f.already_ideal == (int)(s % 2), "width %u stride %u",
			      w, s);
		if (s % 2)
			continue;
		ck_assert_msg(f.best.kind == BS_FIX_PAD && f.best.pad == 1 &&
			      f.best.extra_bytes == 32 * w,
			      "width %u stride %u: %s pad %u", w, s,
			      bs_fix_kind_name(f.best.kind), f.best.pad);
	}
}
END_TEST

static const struct {
	bs_fix_input in;
	const char *source;
} bad[] = {
	{ { .source = BS_FIX_FROM_TILE, .max_pad = -1,
	    .tile = { .rows = 0, .cols = 4, .width = 4 } }, "--tile" },
	{ { .source = BS_FIX_FROM_TILE, .max_pad = BS_FIX_MAX_PAD + 1,
	    .tile = { .rows = 4, .cols = 4, .width = 4 } }, "--max-pad" },
	{ { .source = BS_FIX_FROM_STRUCT, .max_pad = -1,
	    .strct = { .struct_bytes = 8, .field = 2, .width = 4 } },
	  "--field" },
	{ { .source = BS_FIX_FROM_ACCESS, .max_pad = -1, .row_elems = 1,
	    .base = 1ull << 33 }, "--base" },
	{ { .source = BS_FIX_FROM_ACCESS, .max_pad = -1,
	    .row_elems = (1u << 20) + 1 }, "--row" },
};

START_TEST(test_bad_input)
{
	static bs_fix f;
	bs_fix_input in = bad[_i].in;
	bs_error err = { .source = "" };

	in.access.width = 4;
	ck_assert_int_eq(bs_fix_search(bs_arch_default(), &in, &f, &err),
			 -1);
	ck_assert_str_eq(err.source, bad[_i].source);
	ck_assert_msg(*err.text, "no text for %s", bad[_i].source);
}
END_TEST

/* The program: arguments, exit status, and lines its output must hold. */
static const struct {
	const char *args;
	int status;
	const char *want[3];
} prog[] = {
	{ "fix --tile 32x32", 0,
	  { "  __shared__ float tile[32][33];  /* was [32][32]: +128 bytes */\n",
	    "\nfix: pad rows by 1 float: 32 -> 1 wavefronts (ideal 1), "
	    "+128 bytes of shared memory\n",
	    "\nalso reaches the ideal: XOR-swizzle the columns: 32 -> 1 "
	    "wavefronts (ideal 1), +0 bytes of shared memory\n" } },
	{ "fix --tile 32x32 --width 8", 0,
	  { "  __shared__ double tile[32][33];  /* was [32][32]: +256 "
	    "bytes */\n",
	    "\nfix: pad rows by 1 double: 32 -> 2 wavefronts (ideal 2), "
	    "+256 bytes of shared memory\n" } },
	{ "fix --tile 32x32 --max-pad 0", 0,
	  { "  tile[r][c ^ (r % 32)]  /* was tile[r][c] */\n",
	    "\nfix: XOR-swizzle the columns: 32 -> 1 wavefronts (ideal 1), "
	    "+0 bytes of shared memory\n" } },
	{ "fix --tile 32x32 --width 1", 0,
	  { "  __shared__ char tile[32][33];",
	    "\nfix: pad rows by 1 char: 8 -> 1 wavefronts (ideal 1), +32 "
	    "bytes of shared memory\n" } },
	{ "fix --struct 128", 0,
	  { "sizeof 128 -> 132: +128 bytes for 32 structs",
	    "\nfix: pad the struct by 1 float: 32 -> 1 wavefronts (ideal 1), "
	    "+128 bytes of shared memory\n" } },
	{ "fix --struct 132", 0,
	  { "\nno fix needed: 1 wavefront = ideal\n" } },
	{ "fix --tile 32x32 --access row --width 8", 0,
	  { "\nno fix needed: 2 wavefronts = ideal\n" } },
	{ "fix --tile 32x48 --max-pad 0", 0,
	  { "\nno change within pad 0..0, swizzle or widening reaches the "
	    "ideal of 1; best found: none, no change tried lowers the 16 "
	    "wavefronts; the XOR swizzle needs a power-of-two column count, "
	    "not 48\n" } },
	{ "fix --expr 'lane*32' --row 48", 0,
	  { "\nno change within pad 0..31, swizzle or widening reaches the "
	    "ideal of 1; best found: pad rows by 1 float: 32 -> 2 wavefronts "
	    "(ideal 1), +84 bytes of shared memory\n" } },
	{ "fix --struct 8 --max-pad 0", 0,
	  { "  float2 v = reinterpret_cast<const float2 *>(&arr[l])[0];\n",
	    "\nfix: read 2 floats per lane as one float2: 2 accesses, 4 "
	    "wavefronts -> 1 access, 2 wavefronts (ideal 2), +0 bytes of "
	    "shared memory\n" } },
	{ "fix --format json --struct 132", 0,
	  { "{\"profile\":\"sm_90\",\"outcome\":\"already_ideal\","
	    "\"reaches_ideal\":true,\"max_pad\":31,\"tried\":0,\"before\":"
	    "{\"name\":\"struct132_f0\"",
	    "\"change\":null,\"after\":null,\"alternative\":null,"
	    "\"explanation\":\"\"}\n" } },
	{ "fix --format json --tile 32x32", 0,
	  { "\"outcome\":\"ideal\"",
	    "\"change\":{\"kind\":\"pad\",\"label\":\"pad rows by 1 float\","
	    "\"pad\":1,\"swizzle\":\"none\",\"width\":4,\"extra_bytes\":128,"
	    "\"wavefronts\":1,\"ideal_wavefronts\":1,\"bank_conflicts\":0,",
	    "\"alternative\":{\"kind\":\"swizzle\"" } },
	{ "fix --help", 0, { "usage: bankscope fix [--arch NAME]" } },
	{ "fix --tile 32x32 --max-pad 5000", 2,
	  { "bankscope: option --max-pad: 5000 is larger than 4096\n" } },
	{ "fix --tile 32x32 --struct 128", 2,
	  { "bankscope: fix: --expr, --tile, --struct and pattern files each "
	    "describe the access: give one of them\n" } },
	{ "fix --row 4 --tile 4x4", 2,
	  { "bankscope: option --row goes with --expr or a pattern file" } },
	{ "fix", 2, { "bankscope: fix: no input" } },
	{ "fix --tile 32x32 --format csv", 2,
	  { "bankscope: option --format: 'csv' is not text or json\n" } },
	{ "fix tests/cases/no-such-file.pat", 2,
	  { "bankscope: tests/cases/no-such-file.pat: cannot open" } },
};

START_TEST(test_program)
{
	char cmd[512], out[65536];
	size_t n;
	FILE *p;
	int status;

	ck_assert_msg(getenv("BANKSCOPE") != NULL,
		      "BANKSCOPE is not set: run the tests with make check");
	snprintf(cmd, sizeof cmd, "\"$BANKSCOPE\" %s 2>&1", prog[_i].args);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	n = fread(out, 1, sizeof out - 1, p);
	out[n] = '\0';
	status = pclose(p);
	ck_assert_msg(WIFEXITED(status), "%s: did not exit", prog[_i].args);
	ck_assert_msg(WEXITSTATUS(status) == prog[_i].status,
		      "bankscope %s: exit %d, expected %d; output:\n%s",
		      prog[_i].args, WEXITSTATUS(status), prog[_i].status, out);
	for (int k = 0; k < 3 && prog[_i].want[k]; k++)
		ck_assert_msg(strstr(out, prog[_i].want[k]),
			      "bankscope %s: no '%s' in\n%s", prog[_i].args,
			      prog[_i].want[k], out);
}
END_TEST

Suite *fix_suite(void)
{
	Suite *s = suite_create("fix");

	tu_add_tcase(s, "search", 0, (const tu_test[]){
		{ test_fix_rows, TU_ROWS(rows) }, { test_stride_sweep, 3 },
		{ test_bad_input, TU_ROWS(bad) }, { NULL, 0 } });
	tu_add_tcase(s, "program", 0, (const tu_test[]){
		{ test_program, TU_ROWS(prog) }, { NULL, 0 } });
	return s;
}
