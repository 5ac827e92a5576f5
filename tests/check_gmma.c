/*
 * check_gmma.c - the wgmma matrix descriptor (analyzer/model/gmma.c):
 * its fields, CUTLASS's canonical descriptors, the addresses they place,
 * the operand bytes and the arch file's gmma rules, and SASS: the
 * instruction's shape and the descriptor words built from constants.
 *
 * The expected descriptors are CUTLASS's make_gmma_desc's
 * (include/cute/atom/mma_traits_sm90_gmma.hpp, cute::GmmaDescriptor's
 * bitfield): a K-major 128B-swizzled tile of 64 rows at 0x400 is
 * start_address_ 0x40, leading_byte_offset_ 1, stride_byte_offset_ 64,
 * layout_type_ B128 (1), the same fields hand-written kernels set for
 * Swizzle<3,4,3>; Triton's HGMMA on an H200 sets high words 0x80000020
 * (64B swizzle, SBO 512: K-major A) and 0x40000040 (128B, SBO 1024)
 * (tests/cases/profile/triton-cg/cubin-869870910.sass).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bankscope.h"
#include "testutil.h"

START_TEST(test_decode)
{
	bs_gmma_desc d;

	bs_gmma_decode(0x4000004000010040ull, &d);
	ck_assert_uint_eq(d.start, 0x400);
	ck_assert_uint_eq(d.lbo, 16);
	ck_assert_uint_eq(d.sbo, 1024);
	ck_assert_uint_eq(d.base_offset, 0);
	ck_assert_uint_eq(d.layout, BS_GMMA_B128);
	ck_assert(d.stray == 0);
	ck_assert_str_eq(bs_gmma_layout_name(d.layout), "128B");

	/* Triton's A: high word 0x80000020, low word from the address */
	bs_gmma_decode(0x8000002000000000ull, &d);
	ck_assert_uint_eq(d.layout, BS_GMMA_B64);
	ck_assert_uint_eq(d.sbo, 512);
	ck_assert_uint_eq(bs_gmma_swizzle_bytes(d.layout), 64);

	/* every field at its most, the base offset, and stray bits */
	bs_gmma_decode(0x3fffull | 0x3fffull << 16 | 0x3fffull << 32 |
		       5ull << 49 | 3ull << 62 | 1ull << 14 | 1ull << 47 |
		       1ull << 55, &d);
	ck_assert_uint_eq(d.start, 0x3fff0);
	ck_assert_uint_eq(d.lbo, 0x3fff0);
	ck_assert_uint_eq(d.sbo, 0x3fff0);
	ck_assert_uint_eq(d.base_offset, 5);
	ck_assert_uint_eq(d.layout, BS_GMMA_B32);
	ck_assert(d.stray == (1ull << 14 | 1ull << 47 | 1ull << 55));
}
END_TEST

START_TEST(test_encode)
{
	uint64_t raw = 0;
	bs_error err;

	ck_assert_int_eq(bs_gmma_encode(0x400, 16, 1024, 0, BS_GMMA_B128, &raw,
					"t", &err), 0);
	ck_assert(raw == 0x4000004000010040ull);
	ck_assert_int_eq(bs_gmma_encode(0x401, 16, 1024, 0, 1, &raw, "--desc",
					&err), -1);
	tu_error_is(&err, "--desc", 0, 0, "start address 1025 is not a "
		    "multiple of 16 bytes");
	ck_assert_int_eq(bs_gmma_encode(0, 0x40000, 16, 0, 1, &raw, "t", &err),
			 -1);
	tu_error_is(&err, "t", 0, 0, "leading byte offset 262144 does not fit "
		    "the descriptor's 14 bits (at most 262128 bytes)");
	ck_assert_int_eq(bs_gmma_encode(0, 16, 16, 8, 1, &raw, "t", &err), -1);
	tu_error_is(&err, "t", 0, 0, "base offset 8 is not 0 to 7");
	ck_assert_int_eq(bs_gmma_encode(0, 16, 16, 0, 4, &raw, "t", &err), -1);
	tu_error_is(&err, "t", 0, 0, "layout type 4 is not 0 to 3");
	ck_assert_int_eq(bs_gmma_layout_of_swizzle(128), (int)BS_GMMA_B128);
	ck_assert_int_eq(bs_gmma_layout_of_swizzle(32), (int)BS_GMMA_B32);
	ck_assert_int_eq(bs_gmma_layout_of_swizzle(0), (int)BS_GMMA_INTERLEAVE);
	ck_assert_int_eq(bs_gmma_layout_of_swizzle(16), -1);
}
END_TEST

/* CUTLASS's canonical tiles: layout, major, rows, element bytes, start,
 * and the descriptor with its LBO and SBO in bytes. */
static const struct {
	unsigned layout;
	int mn;
	unsigned rows, eb;
	uint32_t start;
	uint64_t raw;
	uint32_t lbo, sbo, span;
} canon[] = {
	/* K-major: swizzled LBO "assumed 1", SBO = 8 rows of the span */
	{ BS_GMMA_B128, 0, 64, 2, 0x400, 0x4000004000010040ull, 16, 1024, 8192 },
	{ BS_GMMA_B64, 0, 64, 2, 0x1000, 0x8000002000010100ull, 16, 512, 4096 },
	{ BS_GMMA_B32, 0, 64, 1, 0, 0xc000001000010000ull, 16, 256, 2048 },
	/* interleave: core matrices along M/N first, SBO 128, LBO rows x 16 */
	{ BS_GMMA_INTERLEAVE, 0, 128, 2, 0, 0x0000000800800000ull, 2048, 128,
	  4096 },
	/* MN-major: LBO the next atom across M/N, SBO the next 8 of K */
	{ BS_GMMA_B64, 1, 128, 2, 0, 0x8000008000200000ull, 512, 2048, 4096 },
	{ BS_GMMA_B128, 1, 64, 2, 0, 0x4000004000400000ull, 1024, 1024, 2048 },
	{ BS_GMMA_B32, 1, 8, 2, 0x800, 0xc000001000100080ull, 256, 256, 512 },
};

START_TEST(test_canonical)
{
	bs_gmma_desc d;
	bs_error err;

	ck_assert_int_eq(bs_gmma_canonical(canon[_i].layout, canon[_i].mn,
					   canon[_i].rows, canon[_i].eb,
					   canon[_i].start, &d, &err), 0);
	ck_assert_msg(d.raw == canon[_i].raw, "row %d: 0x%016llx", _i,
		      (unsigned long long)d.raw);
	ck_assert_uint_eq(d.lbo, canon[_i].lbo);
	ck_assert_uint_eq(d.sbo, canon[_i].sbo);
	ck_assert_uint_eq(bs_gmma_canonical_span(canon[_i].layout,
						 canon[_i].mn, canon[_i].rows),
			  canon[_i].span);
}
END_TEST

START_TEST(test_canonical_refused)
{
	bs_gmma_desc d;
	bs_error err;

	ck_assert_int_eq(bs_gmma_canonical(1, 0, 12, 2, 0, &d, &err), -1);
	tu_error_is(&err, "gmma", 0, 0, "12 rows: a wgmma operand has a "
		    "multiple of 8 from 8 to 256");
	ck_assert_int_eq(bs_gmma_canonical(1, 1, 64, 1, 0, &d, &err), -1);
	tu_error_is(&err, "gmma", 0, 0, "an MN-major (transposed) operand has "
		    "16-bit elements, not 1-byte ones");
}
END_TEST

/* Element addresses, worked by hand from the canonical layouts. */
START_TEST(test_addr)
{
	bs_gmma_desc d;
	bs_error err;

	/* K-major 128B: row r at r x 128, bits 4-6 XOR bits 7-9 */
	ck_assert_int_eq(bs_gmma_canonical(BS_GMMA_B128, 0, 64, 2, 0, &d, &err),
			 0);
	ck_assert_uint_eq(bs_gmma_addr(&d, 0, 2, 1, 0), 144);   /* 128 ^ 16 */
	ck_assert_uint_eq(bs_gmma_addr(&d, 0, 2, 0, 8), 16);    /* chunk 1 */
	ck_assert_uint_eq(bs_gmma_addr(&d, 0, 2, 9, 8), 1152);  /* 1168 ^ 16 */
	ck_assert_uint_eq(bs_gmma_addr(&d, 0, 2, 7, 15), 1006); /* 926: 1 ^ 7 */
	/* K-major interleave, 128 rows: (r%8) 16 + (r/8) 128 + c 2048 + e */
	ck_assert_int_eq(bs_gmma_canonical(BS_GMMA_INTERLEAVE, 0, 128, 2, 0, &d,
					   &err), 0);
	ck_assert_uint_eq(bs_gmma_addr(&d, 0, 2, 9, 8), 2192);
	/* MN-major 128B, 128 rows: (70, 9) = 12 + atom 1024 + k0 128 + SBO
	   2048 = 3212, bits 4-6 0 ^ 1 */
	ck_assert_int_eq(bs_gmma_canonical(BS_GMMA_B128, 1, 128, 2, 0, &d,
					   &err), 0);
	ck_assert_uint_eq(bs_gmma_addr(&d, 1, 2, 70, 9), 3228);
	ck_assert_uint_eq(bs_gmma_addr(&d, 1, 2, 1, 0), 2);
	ck_assert_uint_eq(bs_gmma_addr(&d, 1, 2, 0, 1), 144);
	/* MN-major interleave, 64 rows: 2 + u 128 + k0 16 + k1 1024 */
	ck_assert_int_eq(bs_gmma_canonical(BS_GMMA_INTERLEAVE, 1, 64, 2, 0, &d,
					   &err), 0);
	ck_assert_uint_eq(bs_gmma_addr(&d, 1, 2, 9, 9), 1170);
}
END_TEST

/* Every canonical tile is a one-to-one map into its span from start. */
START_TEST(test_canonical_bijective)
{
	static const unsigned rows[] = { 8, 24, 64, 128, 256 };
	const bs_arch *p = bs_arch_default();
	bs_gmma_instr g;
	bs_gmma_summary s;
	bs_error err;

	for (unsigned l = 0; l < 4; l++)
		for (int mn = 0; mn < 2; mn++)
			for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
				uint32_t start = 0x2000;

				memset(&g, 0, sizeof g);
				g.op = BS_GMMA_OP_H16;
				g.n = rows[i];
				g.a_mn = mn;
				g.b_mn = mn;
				g.have_a = g.have_b = 1;
				ck_assert_int_eq(bs_gmma_canonical(l, mn, 64, 2,
								   start, &g.a,
								   &err), 0);
				ck_assert_int_eq(bs_gmma_canonical(l, mn,
								   rows[i], 2,
								   start, &g.b,
								   &err), 0);
				ck_assert_int_eq(bs_gmma_predict(p, &g, &s,
								 &err), 0);
				ck_assert_uint_eq(s.a_overlap, 0);
				ck_assert_uint_eq(s.b_overlap, 0);
				ck_assert_uint_ge(s.b_lo, start);
				ck_assert_uint_le(s.b_hi, start +
					bs_gmma_canonical_span(l, mn, rows[i]));
			}
}
END_TEST

START_TEST(test_predict)
{
	const bs_arch *p = bs_arch_default();
	bs_gmma_instr g;
	bs_gmma_summary s;
	bs_error err;

	/* HGMMA.64x128x16 SS: A 2 KB + B 4 KB = 48 wavefronts of 128 bytes */
	memset(&g, 0, sizeof g);
	g.op = BS_GMMA_OP_H16;
	g.n = 128;
	ck_assert_int_eq(bs_gmma_predict(p, &g, &s, &err), 0);
	ck_assert_uint_eq(s.a_bytes, 2048);
	ck_assert_uint_eq(s.b_bytes, 4096);
	ck_assert_uint_eq(s.bytes, 6144);
	ck_assert_uint_eq(s.wavefronts, 48);
	ck_assert_uint_eq(s.ideal_wavefronts, 48);
	ck_assert_int_eq(s.measured, 1);
	/* RS: B alone */
	g.a_regs = 1;
	g.n = 8;
	ck_assert_int_eq(bs_gmma_predict(p, &g, &s, &err), 0);
	ck_assert_uint_eq(s.a_bytes, 0);
	ck_assert_uint_eq(s.b_bytes, 256);
	ck_assert_uint_eq(s.wavefronts, 2);
	/* IGMMA k32: the same 32 bytes of K */
	g.op = BS_GMMA_OP_I8;
	g.a_regs = 0;
	g.n = 256;
	ck_assert_int_eq(bs_gmma_predict(p, &g, &s, &err), 0);
	ck_assert_uint_eq(s.bytes, 2048 + 8192);
	ck_assert_uint_eq(s.wavefronts, 80);
	/* an interleave whose SBO is 0: every 8 rows on the same bytes */
	g.op = BS_GMMA_OP_H16;
	g.n = 64;
	g.have_b = 1;
	bs_gmma_decode(0x0000000000400000ull, &g.b);  /* LBO 1024, SBO 0 */
	ck_assert_int_eq(bs_gmma_predict(p, &g, &s, &err), 0);
	ck_assert_uint_eq(s.b_overlap, 64 * 16);
	ck_assert_uint_eq(s.b_lo, 0);
	ck_assert_uint_eq(s.b_hi, 1024 + 128);
}
END_TEST

START_TEST(test_predict_refused)
{
	const bs_arch *p = bs_arch_default();
	bs_gmma_instr g;
	bs_gmma_summary s;
	bs_error err;

	memset(&g, 0, sizeof g);
	g.op = BS_GMMA_OP_H16;
	g.n = 12;
	ck_assert_int_eq(bs_gmma_predict(p, &g, &s, &err), -1);
	tu_error_is(&err, "--n", 0, 0, "N 12: wgmma's N is a multiple of 8 "
		    "from 8 to 256");
	g.n = 64;
	g.op = BS_GMMA_OP_I8;
	g.b_mn = 1;
	ck_assert_int_eq(bs_gmma_predict(p, &g, &s, &err), -1);
	tu_error_is(&err, "--major", 0, 0, "igmma cannot transpose: only "
		    "16-bit operands (f16, bf16) may be MN-major");
	g.b_mn = 0;
	g.op = BS_GMMA_OP_TF32;
	ck_assert_int_eq(bs_gmma_predict(p, &g, &s, &err), -1);
	tu_error_is(&err, "gmma", 0, 0, "architecture sm_90 has no gmma rule "
		    "for hgmma.tf32 ss");
}
END_TEST

/* ---- the arch file's gmma lines ----------------------------------------- */

#define HEAD "arch t\nbanks 32\nbank_bytes 4\nsource s guessed\n"

START_TEST(test_arch_rule)
{
	const bs_arch *p = tu_arch(HEAD "gmma hgmma ss wave_bytes=256 "
				   "b_copies=4 measured=yes source=s\n"
				   "gmma qgmma rs wave_bytes=128 measured=no "
				   "source=s\n");
	const bs_gmma_rule *r = bs_arch_gmma_rule(p, BS_GMMA_OP_H16, 0);
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->wave_bytes, 256);
	ck_assert_uint_eq(r->a_copies, 1);
	ck_assert_uint_eq(r->b_copies, 4);
	ck_assert_uint_eq(r->measured, 1);
	ck_assert_ptr_null(bs_arch_gmma_rule(p, BS_GMMA_OP_H16, 1));
	r = bs_arch_gmma_rule(p, BS_GMMA_OP_F8, 1);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->measured, 0);
	/* written back as it reads */
	f = open_memstream(&text, &len);
	ck_assert_int_eq(bs_arch_write(f, p), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "gmma hgmma ss wave_bytes=256 "
				     "a_copies=1 b_copies=4 measured=yes "
				     "source=s\ngmma qgmma rs wave_bytes=128 "
				     "a_copies=1 b_copies=1 measured=no "
				     "source=s\n"));
	free(text);
	/* the built-in sm_90: every rule measured (the H200 run of
	 * data/h200/gmma-20261202/), 128/1/1 */
	p = bs_arch_default();
	ck_assert_uint_eq(p->ngmma, 6);
	for (unsigned i = 0; i < p->ngmma; i++) {
		ck_assert_uint_eq(p->gmma[i].measured, 1);
		ck_assert_uint_eq(p->gmma[i].wave_bytes, 128);
		ck_assert_uint_eq(p->gmma[i].a_copies, 1);
		ck_assert_uint_eq(p->gmma[i].b_copies, 1);
		ck_assert_str_eq(p->source[p->gmma[i].source].tag, "h200gmma");
	}
}
END_TEST

static const struct {
	const char *line;
	long col;
	const char *text;
} bad_rules[] = {
	{ "gmma bgmma ss wave_bytes=128 measured=no source=s", 6,
	  "gmma needs a wgmma family: hgmma, hgmma.tf32, igmma or qgmma, "
	  "not 'bgmma'" },
	{ "gmma hgmma xs wave_bytes=128 measured=no source=s", 12,
	  "gmma hgmma needs ss (A and B in shared memory) or rs (A in "
	  "registers)" },
	{ "gmma hgmma ss wave_bytes=0 measured=no source=s", 26,
	  "wave_bytes: '0' is not a whole number from 1 to 4096" },
	{ "gmma hgmma ss wave_bytes=128 measured=maybe source=s", 39,
	  "measured is yes or no" },
	{ "gmma hgmma ss wave_bytes=128 source=s", 38,
	  "gmma hgmma ss needs measured=" },
	{ "gmma hgmma ss wave_bytes=128 phase=32 measured=no source=s", 30,
	  "unknown gmma key 'phase' (wave_bytes, a_copies, b_copies, "
	  "measured, source)" },
	{ "gmma hgmma ss wave_bytes=128 measured=no source=nowhere", 49,
	  "source 'nowhere' is not declared by a 'source nowhere ...' line" },
};

START_TEST(test_arch_rule_bad)
{
	char text[512];
	bs_arch p;
	bs_error err;

	snprintf(text, sizeof text, HEAD "%s\n", bad_rules[_i].line);
	ck_assert_int_eq(bs_arch_parse(text, "t.arch", &p, &err), -1);
	tu_error_is(&err, "t.arch", 5, bad_rules[_i].col, bad_rules[_i].text);
}
END_TEST

START_TEST(test_arch_rule_twice)
{
	bs_arch p;
	bs_error err;

	ck_assert_int_eq(bs_arch_parse(HEAD "gmma hgmma ss wave_bytes=128 "
				       "measured=no source=s\ngmma hgmma ss "
				       "wave_bytes=64 measured=no source=s\n",
				       "t.arch", &p, &err), -1);
	tu_error_is(&err, "t.arch", 6, 12, "a second gmma rule for hgmma ss");
}
END_TEST

/* ---- SASS ------------------------------------------------------------------ */

static const struct {
	const char *sass;
	int is;
	unsigned op, n, ur;
	int rs, a_mn, b_mn;
} sass[] = {
	{ "HGMMA.64x128x16.F32 R24, gdesc[UR4], R24", 1, BS_GMMA_OP_H16, 128,
	  4, 0, 0, 0 },
	{ "HGMMA.64x64x16.F32 R24, R152, gdesc[UR8], R24, gsb0", 1,
	  BS_GMMA_OP_H16, 64, 8, 1, 0, 0 },
	{ "HGMMA.64x128x16.F32 R88, gdesc[UR8].tnspB, R88", 1, BS_GMMA_OP_H16,
	  128, 8, 0, 0, 1 },
	{ "HGMMA.64x256x16.F32.BF16 R24, gdesc[UR12].tnspA.tnspB, RZ, !UPT, "
	  "gsb0", 1, BS_GMMA_OP_H16, 256, 12, 0, 1, 1 },
	{ "@P0 HGMMA.64x8x16.F32 R0, gdesc[UR4], R0", 1, BS_GMMA_OP_H16, 8, 4,
	  0, 0, 0 },
	{ "HGMMA.64x64x8.F32.TF32 R24, gdesc[UR4], R24", 1, BS_GMMA_OP_TF32, 64,
	  4, 0, 0, 0 },
	{ "IGMMA.64x64x32.S8.S8 R24, gdesc[UR4], R24", 1, BS_GMMA_OP_I8, 64, 4,
	  0, 0, 0 },
	{ "QGMMA.64x192x32.F32.E4M3.E4M3 R24, R8, gdesc[UR6], R24", 1,
	  BS_GMMA_OP_F8, 192, 6, 1, 0, 0 },
	{ "HGMMA.64x128x32.F32.SP R24, gdesc[UR4], R24", 0, 0, 0, 0, 0, 0, 0 },
	{ "HGMMA.64x128x32.F32 R24, gdesc[UR4], R24", 0, 0, 0, 0, 0, 0, 0 },
	{ "HMMA.16816.F32 R4, R8, R12, R4", 0, 0, 0, 0, 0, 0, 0 },
	{ "LDS R0, [R1]", 0, 0, 0, 0, 0, 0, 0 },
	{ "HGMMA.64x128x16.F32 R24, R8, R9, R24", 0, 0, 0, 0, 0, 0, 0 },
};

START_TEST(test_sass_gmma)
{
	bs_gmma_instr g;
	unsigned ur = 99;

	ck_assert_int_eq(bs_sass_gmma(sass[_i].sass, &g, &ur), sass[_i].is);
	if (!sass[_i].is)
		return;
	ck_assert_uint_eq(g.op, sass[_i].op);
	ck_assert_uint_eq(g.n, sass[_i].n);
	ck_assert_uint_eq(ur, sass[_i].ur);
	ck_assert_int_eq(g.a_regs, sass[_i].rs);
	ck_assert_int_eq(g.a_mn, sass[_i].a_mn);
	ck_assert_int_eq(g.b_mn, sass[_i].b_mn);
}
END_TEST

/* Triton's mm on an H200 (tests/cases/profile/triton-cg/), cut down. */
static const char *const triton[] = {
	"ULDC.64 UR8, c[0x0][0x218]",
	"UMOV UR9, 0x80000020",
	"UMOV UR11, 0x40000040",
	"USHF.R.U32.HI UR8, URZ, 0x4, UR5",
	"USGXT.U32 UR8, UR8, 0xe",
	"UIADD3 UR12, UP0, UR8, 0x2, URZ",
	"ULOP3.LUT UR10, UR6, 0x1000000, URZ, 0xfc, !UPT",
	"HGMMA.64x128x16.F32 R88, gdesc[UR8].tnspB, R88",
	"UMOV UR14, 0x400",
	"UMOV UR15, URZ",
	"UMOV UR10, UR14",
	"UMOV UR11, UR15",
	"HGMMA.64x128x16.F32 R24, gdesc[UR8].tnspB, R24, gsb0",
	"BRA 0x1520",
	"HGMMA.64x128x16.F32 R24, gdesc[UR8].tnspB, R24, gsb0",
};

START_TEST(test_sass_desc)
{
	uint64_t raw;
	char why[320];

	/* A: the high word a constant, the low one from the address */
	ck_assert_uint_eq(bs_gmma_sass_desc(triton, 7, 8, &raw, why,
					    sizeof why), 2);
	ck_assert(raw == 0x8000002000000000ull);
	ck_assert_str_eq(why, "UR8 is not built from constants: 'USGXT.U32 "
			 "UR8, UR8, 0xe' writes it");
	/* B: 0x40000040 high, the low word from ULOP3 */
	ck_assert_uint_eq(bs_gmma_sass_desc(triton, 7, 10, &raw, why,
					    sizeof why), 2);
	ck_assert(raw == 0x4000004000000000ull);
	/* after UMOV UR10, UR14 (0x400) and UMOV UR11, UR15 (URZ): both */
	ck_assert_uint_eq(bs_gmma_sass_desc(triton, 12, 10, &raw, why,
					    sizeof why), 3);
	ck_assert(raw == 0x400ull);
	ck_assert_str_eq(why, "");
	/* a branch in between: not traced past */
	ck_assert_uint_eq(bs_gmma_sass_desc(triton, 14, 10, &raw, why,
					    sizeof why), 0);
	ck_assert_str_eq(why, "UR10 is not set on the straight line before "
			 "it: 'BRA 0x1520' comes between");
	/* ULDC.64 writes UR8 and UR9 */
	ck_assert_uint_eq(bs_gmma_sass_desc(triton, 1, 8, &raw, why,
					    sizeof why), 0);
	ck_assert_str_eq(why, "UR8 is not built from constants: 'ULDC.64 UR8, "
			 "c[0x0][0x218]' writes it");
	ck_assert_uint_eq(bs_gmma_sass_desc(triton, 0, 20, &raw, why,
					    sizeof why), 0);
	ck_assert_str_eq(why, "UR20 is not written before it in this "
			 "function");
}
END_TEST

Suite *gmma_suite(void)
{
	return tu_suite("gmma", "descriptor", 0, (const tu_test[]){
		{ test_decode, 1 },
		{ test_encode, 1 },
		{ test_canonical, TU_ROWS(canon) },
		{ test_canonical_refused, 1 },
		{ test_addr, 1 },
		{ test_canonical_bijective, 1 },
		{ test_predict, 1 },
		{ test_predict_refused, 1 },
		{ test_arch_rule, 1 },
		{ test_arch_rule_bad, TU_ROWS(bad_rules) },
		{ test_arch_rule_twice, 1 },
		{ test_sass_gmma, TU_ROWS(sass) },
		{ test_sass_desc, 1 },
		{ NULL, 0 },
	});
}
