/*
 * check_predict.c - the prediction rules, case by case, worked by hand.
 *
 * Each row is an access built from a formula,
 *   address(l) = ((l >> shift) * mul + (l & mask) * mul2) * width + off,
 * over the lanes in `active`, and the counts the architecture must give.  The
 * comment on each row is the hand calculation.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bankscope.h"
#include "testutil.h"

typedef struct {
	const char *what;
	const char *profile;
	unsigned width;
	bs_kind op;
	uint32_t active;
	unsigned shift, mul, mask, mul2, off;
	unsigned wavefronts, ideal, conflicts, max_way;
	int packed;
	double latency;     /* NaN: not modeled */
} row;

#define ALL 0xffffffffu
#define LO 0x0000ffffu
#define HI 0xffff0000u
/* stride s elements: shift 0, mul s, mask 0 */
#define STRIDE(s) 0, s, 0, 0, 0

static const row rows[] = {
	/* rule 1: widths 1, 2, 4 in one phase of 32 lanes */
	{ "4B stride 1: words 0..31, one per bank", "sm_90", 4, BS_KIND_LD, ALL,
	  STRIDE(1), 1, 1, 0, 1, 0, 33.0 },
	{ "4B stride 0: one word, multicast", "sm_90", 4, BS_KIND_LD, ALL,
	  STRIDE(0), 1, 1, 0, 1, 0, 33.0 },
	{ "4B stride 2: words 2l, banks 0,2,..,30 twice", "sm_90", 4,
	  BS_KIND_LD, ALL, STRIDE(2), 2, 1, 1, 2, 0, 35.0 },
	{ "4B stride 3: odd stride, all banks once", "sm_90", 4, BS_KIND_LD, ALL,
	  STRIDE(3), 1, 1, 0, 1, 0, 33.0 },
	{ "4B stride 32: all in bank 0", "sm_90", 4, BS_KIND_LD, ALL, STRIDE(32),
	  32, 1, 31, 32, 0, 95.0 },
	{ "4B stride 33: padded column", "sm_90", 4, BS_KIND_LD, ALL, STRIDE(33),
	  1, 1, 0, 1, 0, 33.0 },
	{ "4B stride 2 store", "sm_90", 4, BS_KIND_ST, ALL, STRIDE(2), 2, 1, 1,
	  2, 0, NAN },
	{ "1B stride 1: 32 bytes in 8 words", "sm_90", 1, BS_KIND_LD, ALL,
	  STRIDE(1), 1, 1, 0, 1, 0, 33.0 },
	{ "1B stride 8: words 2l", "sm_90", 1, BS_KIND_LD, ALL, STRIDE(8), 2, 1,
	  1, 2, 0, 35.0 },
	{ "2B stride 2: words l", "sm_90", 2, BS_KIND_LD, ALL, STRIDE(2), 1, 1, 0,
	  1, 0, 33.0 },
	{ "2B stride 4: words 2l", "sm_90", 2, BS_KIND_LD, ALL, STRIDE(4), 2, 1,
	  1, 2, 0, 35.0 },
	{ "4B (l%4)*32: 4 words in bank 0, 8 lanes each", "sm_90", 4,
	  BS_KIND_LD, ALL, 0, 0, 3, 32, 0, 4, 1, 3, 4, 0, 39.0 },
	{ "4B half warp stride 2: words 0..30 even", "sm_90", 4, BS_KIND_LD, LO,
	  STRIDE(2), 1, 1, 0, 1, 0, 33.0 },
	{ "no active lane: nothing to do", "sm_90", 4, BS_KIND_LD, 0, STRIDE(1),
	  0, 0, 0, 0, 0, 0.0 },
	/* rule 2: 8 bytes, two phases of 16, pairwise-uniform loads pack */
	{ "8B stride 1: 32 words per phase", "sm_90", 8, BS_KIND_LD, ALL,
	  STRIDE(1), 2, 2, 0, 1, 0, 36.0 },
	{ "8B stride 0: packed, 2 words", "sm_90", 8, BS_KIND_LD, ALL, STRIDE(0),
	  1, 1, 0, 1, 1, 33.0 },
	{ "8B l/2: pairs share, packed into 32 words", "sm_90", 8, BS_KIND_LD,
	  ALL, 1, 1, 0, 0, 0, 1, 1, 0, 1, 1, 33.0 },
	{ "8B l%16: halves repeat, not pairwise", "sm_90", 8, BS_KIND_LD, ALL,
	  0, 0, 15, 1, 0, 2, 2, 0, 1, 0, 36.0 },
	{ "8B lanes l,l^2 share: packed", "sm_90", 8, BS_KIND_LD, ALL, 2, 2, 1,
	  1, 0, 1, 1, 0, 1, 1, 33.0 },
	{ "8B stride 2: banks 0,1,4,5.. twice per phase", "sm_90", 8, BS_KIND_LD,
	  ALL, STRIDE(2), 4, 2, 2, 2, 0, 40.0 },
	{ "8B stride 16: banks 0,1 sixteen times per phase", "sm_90", 8,
	  BS_KIND_LD, ALL, STRIDE(16), 32, 2, 30, 16, 0, 96.0 },
	{ "8B l/2 stride 2: packed, 2 words per bank", "sm_90", 8, BS_KIND_LD,
	  ALL, 1, 2, 0, 0, 0, 2, 1, 1, 2, 1, 35.0 },
	{ "8B stride 0 store: stores never pack", "sm_90", 8, BS_KIND_ST, ALL,
	  STRIDE(0), 2, 2, 0, 1, 0, NAN },
	{ "8B upper half only: one phase", "sm_90", 8, BS_KIND_LD, HI, STRIDE(1),
	  1, 1, 0, 1, 0, 34.0 },
	/* rule 3: 16 bytes, four phases of 8, packed loads in two of 16 */
	{ "16B stride 1: 32 words per phase", "sm_90", 16, BS_KIND_LD, ALL,
	  STRIDE(1), 4, 4, 0, 1, 0, 42.0 },
	{ "16B stride 0: packed, never fewer than 2", "sm_90", 16, BS_KIND_LD,
	  ALL, STRIDE(0), 2, 2, 0, 1, 1, 36.0 },
	{ "16B stride 2: banks 0-3,8-11,.. twice", "sm_90", 16, BS_KIND_LD, ALL,
	  STRIDE(2), 8, 4, 4, 2, 0, 50.0 },
	{ "16B stride 8: banks 0-3, 8 times per phase", "sm_90", 16, BS_KIND_LD,
	  ALL, STRIDE(8), 32, 4, 28, 8, 0, 98.0 },
	{ "16B l/4: quads share, packed", "sm_90", 16, BS_KIND_LD, ALL, 2, 1, 0,
	  0, 0, 2, 2, 0, 1, 1, 36.0 },
	{ "16B stride 1 store", "sm_90", 16, BS_KIND_ST, ALL, STRIDE(1), 4, 4,
	  0, 1, 0, NAN },
	{ "16B stride 0 store: 4 phases", "sm_90", 16, BS_KIND_ST, ALL,
	  STRIDE(0), 4, 4, 0, 1, 0, NAN },
	{ "16B lanes 0 and 8 alone: trivially uniform, packed", "sm_90", 16,
	  BS_KIND_LD, 0x101, 3, 1, 0, 0, 0, 1, 1, 0, 1, 1, 34.0 },
	/* the textbook architecture: one phase of 32 lanes for every width */
	{ "textbook 8B stride 1: 64 words, 2 per bank", "textbook", 8,
	  BS_KIND_LD, ALL, STRIDE(1), 2, 2, 0, 2, 0, NAN },
	{ "textbook 16B stride 1: 128 words", "textbook", 16, BS_KIND_LD, ALL,
	  STRIDE(1), 4, 4, 0, 4, 0, NAN },
	{ "textbook 16B stride 0: 4 words, 1 wavefront", "textbook", 16,
	  BS_KIND_LD, ALL, STRIDE(0), 1, 1, 0, 1, 0, NAN },
	{ "textbook 8B l%16: 32 words", "textbook", 8, BS_KIND_LD, ALL, 0, 0, 15,
	  1, 0, 1, 1, 0, 1, 0, NAN },
	{ "textbook 8B stride 2: 64 words in 16 banks", "textbook", 8,
	  BS_KIND_LD, ALL, STRIDE(2), 4, 2, 2, 4, 0, NAN },
	{ "textbook 4B stride 2", "textbook", 4, BS_KIND_LD, ALL, STRIDE(2), 2, 1,
	  1, 2, 0, NAN },
};

static void build(const row *r, bs_access *a)
{
	memset(a, 0, sizeof *a);
	snprintf(a->name, sizeof a->name, "t");
	a->width = r->width;
	a->kind = r->op;
	a->active = r->active;
	for (unsigned l = 0; l < BS_LANES; l++)
		a->addr[l] = ((l >> r->shift) * r->mul + (l & r->mask) * r->mul2)
			     * r->width + r->off;
}

START_TEST(test_rule_rows)
{
	const row *r = &rows[_i];
	const bs_arch *p = bs_arch_find(r->profile);
	bs_access a;
	bs_summary s;
	bs_error err;

	ck_assert_ptr_nonnull(p);
	build(r, &a);
	ck_assert_int_eq(bs_predict(p, &a, &s, &err), 0);
	ck_assert_msg(s.wavefronts == r->wavefronts,
		      "%s: wavefronts %u, expected %u", r->what, s.wavefronts,
		      r->wavefronts);
	ck_assert_msg(s.ideal_wavefronts == r->ideal, "%s: ideal %u, expected %u",
		      r->what, s.ideal_wavefronts, r->ideal);
	ck_assert_msg(s.bank_conflicts == r->conflicts,
		      "%s: conflicts %u, expected %u", r->what,
		      s.bank_conflicts, r->conflicts);
	ck_assert_msg(s.max_way == r->max_way, "%s: max_way %u, expected %u",
		      r->what, s.max_way, r->max_way);
	ck_assert_msg(s.packed == r->packed, "%s: packed %d", r->what,
		      s.packed);
	if (isnan(r->latency))
		ck_assert_msg(isnan(s.latency_cycles), "%s: latency %.2f, "
			      "expected not modeled", r->what,
			      s.latency_cycles);
	else
		ck_assert_msg(fabs(s.latency_cycles - r->latency) < 1e-9,
			      "%s: latency %.2f, expected %.2f", r->what,
			      s.latency_cycles, r->latency);
}
END_TEST

/* A warp access of the kind named, width bytes, no lane active yet. */
static bs_access kind_access(const char *kind, unsigned width)
{
	bs_access a;

	memset(&a, 0, sizeof a);
	ck_assert_msg(bs_kind_find(kind, &a.kind) == 0, "kind %s", kind);
	a.width = width;
	return a;
}

/*
 * cp.async.cg under copy=lines, against rows the H100 measured
 * (data/h100-sxm/explore-kinds-20261124-142552-dataset.csv: name,
 * wavefronts measured, the ideal by the rule's definition (the source
 * lines, groups of 8 lanes, left with a lane after repeated destinations
 * are dropped: shuffled.s1 keeps lanes 0-4, 8, 9 and 13), the 32
 * destinations; '-' = -1): the prediction is the measured count, and the
 * detail path's phases and cells add up to it.
 */
static const struct {
	const char *name;
	unsigned wavefronts, ideal;
	int addr[BS_LANES];
} cg_rows[] = {
	{ "cp.async.cg.stride.s0", 1, 1, { 0 } },
	{ "cp.async.cg.stride.s3", 24, 4, {
	  0, 48, 96, 144, 192, 240, 288, 336, 384, 432, 480, 528, 576, 624,
	  672, 720, 768, 816, 864, 912, 960, 1008, 1056, 1104, 1152, 1200,
	  1248, 1296, 1344, 1392, 1440, 1488 } },
	{ "cp.async.cg.byp.k4_shuffled.s1", 8, 2, {
	  48, 0, 112, 80, 96, 112, 48, 48, 64, 32, 64, 96, 0, 16, 16, 0, 32,
	  48, 0, 64, 16, 80, 32, 112, 112, 80, 96, 32, 96, 64, 80, 16 } },
	{ "cp.async.cg.tile.l8.p144", 10, 4, {
	  0, 16, 32, 48, 64, 80, 96, 112, 144, 160, 176, 192, 208, 224, 240,
	  256, 288, 304, 320, 336, 352, 368, 384, 400, 432, 448, 464, 480,
	  496, 512, 528, 544 } },
	{ "cp.async.cg.partial.rnd0_s1", 7, 4, {
	  -1, 16, 32, 48, -1, 80, -1, 112, 128, 144, 160, 176, 192, -1, -1,
	  -1, -1, -1, 288, -1, -1, -1, 352, 368, 384, -1, -1, -1, 448, -1, -1,
	  -1 } },
	{ "cp.async.cg.rnd.any64.s0", 26, 4, {
	  16, 720, 272, 816, 864, 832, 400, 208, 80, 1008, 560, 608, 656, 80,
	  384, 480, 528, 864, 800, 544, 640, 544, 48, 880, 880, 368, 192, 224,
	  48, 96, 800, 912 } },
};

/*
 * d's phases add up: their wavefronts to wavefronts, and their words
 * (copy=lines: a cell per word) or else their cells to d's cells.
 */
static void phases_add_up(const bs_detail *d, unsigned wavefronts,
			  int words)
{
	unsigned waves = 0, cells = 0;

	for (unsigned ph = 0; ph < d->nphases; ph++) {
		waves += d->phase[ph].wavefronts;
		cells += words ? d->phase[ph].words : d->phase[ph].ncells;
	}
	ck_assert_uint_eq(waves, wavefronts);
	ck_assert_uint_eq(cells, d->ncells);
}

START_TEST(test_copy_lines_rows)
{
	const bs_arch *p = bs_arch_find("sm_90");
	static bs_detail d;
	bs_access a;
	bs_summary s;
	bs_error err;

	a = kind_access("cp.async.cg", 16);
	snprintf(a.name, sizeof a.name, "%s", cg_rows[_i].name);
	for (unsigned l = 0; l < BS_LANES; l++)
		if (cg_rows[_i].addr[l] >= 0) {
			a.active |= 1u << l;
			a.addr[l] = (uint32_t)cg_rows[_i].addr[l];
		}
	ck_assert_int_eq(bs_predict(p, &a, &s, &err), 0);
	ck_assert_msg(s.wavefronts == cg_rows[_i].wavefronts,
		      "%s: %u wavefronts, measured %u", cg_rows[_i].name,
		      s.wavefronts, cg_rows[_i].wavefronts);
	ck_assert_uint_eq(s.ideal_wavefronts, cg_rows[_i].ideal);
	ck_assert_uint_eq(s.bank_conflicts, s.wavefronts - s.ideal_wavefronts);
	ck_assert_int_eq(bs_predict_detail(p, &a, &d, &err), 0);
	ck_assert_int_eq(d.copy, 1);
	ck_assert_uint_eq(d.sum.wavefronts, s.wavefronts);
	phases_add_up(&d, s.wavefronts, 1);
}
END_TEST

/*
 * The 64-bit atomicAdd loop's loads pack only to one wavefront.  Holdout
 * rows the H100 measured (data/h100-sxm/holdout-20261124/, Nsight
 * Compute's split in its README): ho_u64_pair_1_0, every lane on the
 * word of lane ^ 1, 18 passes, 50 load and 56 compare-and-store
 * wavefronts, 106 in all; ho_u64_rnd_32_1, 31.  The first pass of
 * pair_1_0 would pack into 2 wavefronts; the loop serves it in phases,
 * 4.
 */
START_TEST(test_u64_loop_rows)
{
	static const int pair[BS_LANES] = {
		984, 984, 576, 576, 576, 576, 576, 576, 984, 984, 448, 448,
		984, 984, 576, 576, 576, 576, 984, 984, 984, 984, 984, 984,
		576, 576, 576, 576, 448, 448, 448, 448 };
	const bs_arch *p = bs_arch_find("sm_90");
	static bs_detail d;
	bs_access a;

	a = kind_access("atom.add.u64", 8);
	a.active = UINT32_MAX;
	for (unsigned l = 0; l < BS_LANES; l++)
		a.addr[l] = (uint32_t)pair[l];
	ck_assert_int_eq(bs_predict_detail(p, &a, &d, NULL), 0);
	ck_assert_uint_eq(d.sum.passes, 18);
	ck_assert_uint_eq(d.sum.load_wavefronts, 50);
	ck_assert_uint_eq(d.sum.cas_wavefronts, 56);
	ck_assert_uint_eq(d.sum.wavefronts, 106);
	ck_assert_uint_eq(d.pass[0].load_wavefronts, 4);
}
END_TEST

/*
 * copy=lines with the lanes' own sources.  The Triton fp16 matmul's
 * LDGSTS.E.BYPASS.128 at pc 0x1580 (tests/cases/profile/triton-cg,
 * H100): block 0, warp 0, execution 0, every lane's shared destination
 * and global source (low 32 bits) as the explain library recorded them.
 * Four lanes copy each 64-byte row, so eight source lines: 8 wavefronts,
 * the counters' 8 per execution over all 65536; taken for base + 16
 * lane the same destinations would cost 4.
 */
START_TEST(test_copy_lines_sources)
{
	static const uint32_t dst[BS_LANES] = {
		17408, 17424, 17440, 17456, 17472, 17488, 17504, 17520,
		17552, 17536, 17584, 17568, 17616, 17600, 17648, 17632,
		17696, 17712, 17664, 17680, 17760, 17776, 17728, 17744,
		17840, 17824, 17808, 17792, 17904, 17888, 17872, 17856 };
	static const uint32_t src[BS_LANES] = {
		1216348288, 1216348304, 1216348320, 1216348336, 1216352384,
		1216352400, 1216352416, 1216352432, 1216356480, 1216356496,
		1216356512, 1216356528, 1216360576, 1216360592, 1216360608,
		1216360624, 1216364672, 1216364688, 1216364704, 1216364720,
		1216368768, 1216368784, 1216368800, 1216368816, 1216372864,
		1216372880, 1216372896, 1216372912, 1216376960, 1216376976,
		1216376992, 1216377008 };
	const bs_arch *p = bs_arch_find("sm_90");
	static bs_detail d;
	bs_access a;
	bs_summary s;

	a = kind_access("cp.async.cg", 16);
	a.active = UINT32_MAX;
	memcpy(a.addr, dst, sizeof dst);
	ck_assert_int_eq(bs_predict(p, &a, &s, NULL), 0);
	ck_assert_uint_eq(s.wavefronts, 4);
	a.src = src;
	ck_assert_int_eq(bs_predict(p, &a, &s, NULL), 0);
	ck_assert_uint_eq(s.wavefronts, 8);
	ck_assert_uint_eq(s.ideal_wavefronts, 8);
	ck_assert_int_eq(bs_predict_detail(p, &a, &d, NULL), 0);
	ck_assert_uint_eq(d.nphases, 8);
	ck_assert_uint_eq(d.phase[1].lanes, 0xf0u);
	ck_assert_uint_eq(d.phase[1].wavefronts, 1);
	ck_assert_uint_eq(d.sum.wavefronts, 8);
}
END_TEST

/* copy=lines keeps the lowest lane of a destination: the others ride
 * along in its cells.  Lanes 0-3 at 0, 4-7 at 64..112: lane 0 alone
 * writes half 0 of sector 0 (mask 01), 4-7 fill sectors 2 and 3 (mask
 * 11), one source line, one shared line, k 0: two wavefronts. */
START_TEST(test_copy_lines_duplicates)
{
	const bs_arch *p = bs_arch_find("sm_90");
	static bs_detail d;
	bs_access a;

	a = kind_access("cp.async.cg", 16);
	a.active = 0xff;
	for (unsigned l = 4; l < 8; l++)
		a.addr[l] = 16 * l;
	ck_assert_int_eq(bs_predict_detail(p, &a, &d, NULL), 0);
	ck_assert_uint_eq(d.sum.wavefronts, 2);
	ck_assert_uint_eq(d.sum.ideal_wavefronts, 1);
	ck_assert_uint_eq(d.phase[0].words, 20);
	ck_assert_uint_eq(d.cell[0].lanes, 0xf);     /* lanes 0-3, word 0 */
	ck_assert_uint_eq(d.cell[0].wave, 0);
	ck_assert_uint_eq(d.cell[4].lanes, 0x10);    /* lane 4, word 16 */
	ck_assert_uint_eq(d.cell[4].wave, 1);
	ck_assert_uint_eq(d.cell[4].bank, 16);
}
END_TEST

/* The detail path gives the same counts as the fast path, on every row. */
START_TEST(test_detail_agrees)
{
	const row *r = &rows[_i];
	const bs_arch *p = bs_arch_find(r->profile);
	static bs_detail d;
	bs_access a;
	bs_summary s;

	build(r, &a);
	ck_assert_int_eq(bs_predict(p, &a, &s, NULL), 0);
	ck_assert_int_eq(bs_predict_detail(p, &a, &d, NULL), 0);
	ck_assert_int_eq(d.sum.wavefronts, s.wavefronts);
	ck_assert_int_eq(d.sum.ideal_wavefronts, s.ideal_wavefronts);
	phases_add_up(&d, s.wavefronts, 0);
}
END_TEST

/* The detail of row r under the default arch, which must predict it. */
static const bs_detail *detail_of(const row *r)
{
	static bs_detail d;
	bs_access a;

	build(r, &a);
	ck_assert_int_eq(bs_predict_detail(bs_arch_default(), &a, &d, NULL),
			 0);
	return &d;
}

/* 4-byte stride 2: bank 0 delivers word 0 to lane 0, then word 32 to 16. */
START_TEST(test_detail_cells_stride2)
{
	row r = { .profile = "sm_90", .width = 4, .active = ALL, .mul = 2 };
	const bs_detail *d = detail_of(&r);

	ck_assert_int_eq(d->nphases, 1);
	ck_assert_int_eq(d->phase[0].words, 32);
	ck_assert_int_eq(d->ncells, 32);
	/* sorted by wave, then bank: wave 0 holds banks 0,2,..,30 */
	ck_assert_int_eq(d->cell[0].wave, 0);
	ck_assert_int_eq(d->cell[0].bank, 0);
	ck_assert_int_eq(d->cell[0].word, 0);
	ck_assert_uint_eq(d->cell[0].lanes, 1u << 0);
	ck_assert_int_eq(d->cell[1].bank, 2);
	ck_assert_uint_eq(d->cell[1].lanes, 1u << 1);
	ck_assert_int_eq(d->cell[16].wave, 1);
	ck_assert_int_eq(d->cell[16].bank, 0);
	ck_assert_int_eq(d->cell[16].word, 32);
	ck_assert_uint_eq(d->cell[16].lanes, 1u << 16);
}
END_TEST

/* A broadcast is one cell wanted by every lane. */
START_TEST(test_detail_broadcast)
{
	row r = { .profile = "sm_90", .width = 4, .active = ALL, .off = 64 };
	const bs_detail *d = detail_of(&r);

	ck_assert_int_eq(d->ncells, 1);
	ck_assert_int_eq(d->cell[0].bank, 16);
	ck_assert_int_eq(d->cell[0].word, 16);
	ck_assert_uint_eq(d->cell[0].lanes, ALL);
}
END_TEST

/* 8-byte stride 1: phase 1 serves lanes 16..31, words 32..63. */
START_TEST(test_detail_phases_8byte)
{
	row r = { .profile = "sm_90", .width = 8, .active = ALL, .mul = 1 };
	const bs_detail *d = detail_of(&r);

	ck_assert_int_eq(d->nphases, 2);
	ck_assert_uint_eq(d->phase[0].lanes, LO);
	ck_assert_uint_eq(d->phase[1].lanes, HI);
	ck_assert_int_eq(d->phase[1].ncells, 32);
	/* lane 16 reads bytes 128..135: words 32 and 33 in banks 0 and 1 */
	ck_assert_int_eq(d->cell[32].word, 32);
	ck_assert_uint_eq(d->cell[32].lanes, 1u << 16);
	ck_assert_int_eq(d->cell[33].word, 33);
	ck_assert_uint_eq(d->cell[33].lanes, 1u << 16);
}
END_TEST

typedef struct {
	unsigned width;
	uint32_t active;
	uint32_t lane, addr;
	const char *expect;   /* a phrase of the message */
} bad_access;

static const bad_access bad[] = {
	{ 3, ALL, 0, 0, "width 3" },
	{ 4, ALL, 5, 6, "lane 5: address 6 is not aligned" },
	{ 16, ALL, 31, 8, "lane 31: address 8 is not aligned" },
	{ 8, ALL, 2, 0xfffffff8u, "" },   /* the last aligned 8 bytes: fine */
};

START_TEST(test_invalid_access)
{
	const bad_access *b = &bad[_i];
	bs_access a = { .width = b->width, .kind = BS_KIND_LD, .active = b->active };
	bs_summary s;
	bs_error err;
	int rc;

	for (unsigned l = 0; l < BS_LANES; l++)
		a.addr[l] = l * 16;
	a.addr[b->lane] = b->addr;
	rc = bs_predict(bs_arch_default(), &a, &s, &err);
	if (!b->expect[0]) {
		ck_assert_int_eq(rc, 0);
		return;
	}
	ck_assert_int_eq(rc, -1);
	ck_assert_msg(strstr(err.text, b->expect), "message '%s' lacks '%s'",
		      err.text, b->expect);
}
END_TEST

START_TEST(test_pairwise_uniform)
{
	bs_access a = { .width = 8, .active = ALL };

	for (unsigned l = 0; l < BS_LANES; l++)
		a.addr[l] = (l / 2) * 8;
	ck_assert(bs_pairwise_uniform(&a, 1));
	ck_assert(!bs_pairwise_uniform(&a, 2));
	/* an inactive partner does not break uniformity */
	a.addr[3] = 512;
	ck_assert(!bs_pairwise_uniform(&a, 1));
	a.active &= ~(1u << 3);
	ck_assert(bs_pairwise_uniform(&a, 1));
	ck_assert(!bs_pairwise_uniform(&a, 0));
}
END_TEST

/*
 * bs_predict's counts-only path against the general path that
 * bs_predict_detail takes, on random accesses of every width and op, both
 * architectures: random lanes, few distinct addresses (multicast), pairwise
 * uniform requests and random active masks.
 */
START_TEST(test_fast_path_agrees)
{
	static bs_detail d;
	uint64_t rng = 0x9e3779b97f4a7c15ull + (uint64_t)_i;

	for (int n = 0; n < 20000; n++) {
		bs_access a = { .kind = (bs_kind)(n & 1) };
		const bs_arch *p = bs_archs()[(n >> 1) & 1];
		unsigned kind = (unsigned)(n >> 2) % 4, span;
		bs_summary s;

		a.width = bs_widths[(n >> 4) % 5];
		/* random masks over a wide and over a narrow range */
		span = kind == 1 ? 3 : kind == 3 ? ((n >> 5) & 1 ? 65536 : 48)
			: 512;
		for (unsigned l = 0; l < BS_LANES; l++) {
			rng ^= rng << 13;
			rng ^= rng >> 7;
			rng ^= rng << 17;
			a.addr[l] = (uint32_t)(rng % span) * a.width * (kind == 1 ? 33 : 1);
		}
		if (kind == 2)
			for (unsigned l = 0; l < BS_LANES; l++)
				if (l & ((n >> 3 & 1) + 1))
					a.addr[l] = a.addr[l ^ ((n >> 3 & 1) + 1)];
		a.active = kind == 3 ? (uint32_t)(rng >> 32) : UINT32_MAX;
		ck_assert_int_eq(bs_predict(p, &a, &s, NULL), 0);
		ck_assert_int_eq(bs_predict_detail(p, &a, &d, NULL), 0);
		ck_assert_int_eq(s.wavefronts, d.sum.wavefronts);
		ck_assert_int_eq(s.ideal_wavefronts, d.sum.ideal_wavefronts);
		ck_assert_int_eq(s.bank_conflicts, d.sum.bank_conflicts);
		ck_assert_int_eq(s.max_way, d.sum.max_way);
		ck_assert_int_eq(s.phases, d.sum.phases);
		ck_assert_int_eq(s.packed, d.sum.packed);
		ck_assert_int_eq(s.active_lanes, d.sum.active_lanes);
	}
}
END_TEST

START_TEST(test_profiles)
{
	ck_assert_str_eq(bs_arch_default()->name, "sm_90");
	ck_assert_ptr_nonnull(bs_arch_find("textbook"));
	ck_assert_ptr_null(bs_arch_find("sm_91"));
	ck_assert_int_eq(bs_width_index(16), 4);
	ck_assert_int_eq(bs_width_index(12), -1);
}
END_TEST

Suite *predict_suite(void)
{
	return tu_suite("predict", "rules", 0, (const tu_test[]){
		{ test_rule_rows, TU_ROWS(rows) },
		{ test_detail_agrees, TU_ROWS(rows) },
		{ test_detail_cells_stride2, 1 },
		{ test_copy_lines_rows, TU_ROWS(cg_rows) },
		{ test_copy_lines_duplicates, 1 }, { test_u64_loop_rows, 1 },
		{ test_copy_lines_sources, 1 }, { test_detail_broadcast, 1 },
		{ test_detail_phases_8byte, 1 },
		{ test_invalid_access, TU_ROWS(bad) },
		{ test_pairwise_uniform, 1 }, { test_profiles, 1 },
		{ test_fast_path_agrees, 4 }, { NULL, 0 } });
}
