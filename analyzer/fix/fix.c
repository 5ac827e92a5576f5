/*
 * fix.c - the fix advisor: the cheapest layout change that makes one
 * shared-memory access conflict-free.  This file prices the changes and
 * ranks them; candidates.c makes them, describe.c writes their texts.
 *
 * The search is exhaustive over a small space and every candidate is
 * priced by bs_predict() under the caller's architecture, so the advice follows
 * the architecture's rules (phases by width, packing) rather than a rule of
 * thumb.  What can change depends on where the access comes from:
 *
 *   tile    T tile[ROWS][COLS+PAD]: every padding 0..max_pad, with and
 *           without the XOR swizzle (COLS a power of two), except the
 *           tile's own layout;
 *   struct  array[l].field: the struct grows by 1..max_pad elements of
 *           the field's width (keeping the field aligned; a struct with
 *           wider members would round sizeof up further);
 *   access  a pattern line or an expression: rows of ROW elements from
 *           base, ROW given or the constant lane stride; padding and the
 *           swizzle remap each lane's (row, column) as they would a tile.
 *
 * Widening (all three): the lane reads the aligned W-byte chunk of its
 * row or struct holding its element, W = 2w, 4w, ... <= 16 bytes, when
 * the rows (or the struct) and the base are W-aligned and the chunk stays
 * inside the row's columns; never on a swizzled tile, whose chunks hold
 * permuted columns.  Its price is compared with the W/w narrow accesses
 * that read the chunk's elements one at a time: it reaches the ideal when
 * the wide access has no bank conflict and costs fewer wavefronts than
 * those together, and no more than their ideals together.
 *
 * Padding from 0 to 128/width - 1 elements by default covers every bank
 * pattern padding can give: a row 128 bytes longer puts every word in the
 * bank it had.  The cost rule is the header's: kind (pad < swizzle <
 * widen), then extra shared memory, then padding, then width.  The texts
 * of a change are written only for the best and the alternative.
 */
#include <stdlib.h>
#include <string.h>

#include "fix.h"

const char *bs_fix_kind_name(bs_fix_kind kind)
{
	switch (kind) {
	case BS_FIX_PAD: return "pad";
	case BS_FIX_SWIZZLE: return "swizzle";
	case BS_FIX_WIDEN: return "widen";
	default: return "none";
	}
}

/*
 * The byte-layout search ranks swizzles: a TMA mode first, the smallest
 * first; then CuTe's by B, the repeat, M, S.  0 when a and b tie.
 */
static int swizzle_cmp(const bs_fix_change *a, const bs_fix_change *b)
{
	bs_cute x, y;
	int kx[5], ky[5];

	if (!bs_swizzle_bytes(a->swizzle, a->cute, &x) ||
	    !bs_swizzle_bytes(b->swizzle, b->cute, &y))
		return 0;
	kx[0] = a->swizzle == BS_SWIZZLE_CUTE;
	ky[0] = b->swizzle == BS_SWIZZLE_CUTE;
	kx[1] = x.bits;
	ky[1] = y.bits;
	kx[2] = x.base + abs(x.shift) + x.bits;
	ky[2] = y.base + abs(y.shift) + y.bits;
	kx[3] = x.base;
	ky[3] = y.base;
	kx[4] = x.shift;
	ky[4] = y.shift;
	for (int i = 0; i < 5; i++)
		if (kx[i] != ky[i])
			return kx[i] < ky[i] ? -1 : 1;
	return 0;
}

static int cheaper(const search *s, const bs_fix_change *a,
		   const bs_fix_change *b)
{
	if (s->bytes && a->kind == BS_FIX_SWIZZLE && b->kind == BS_FIX_SWIZZLE) {
		int r = swizzle_cmp(a, b);

		if (r)
			return r < 0;
	}
	if (a->extra_bytes != b->extra_bytes)
		return a->extra_bytes < b->extra_bytes;
	if (a->pad != b->pad)
		return a->pad < b->pad;
	return a->width < b->width;
}

/* The kinds in the order the cost rule tries them. */
static int kind_rank(const search *s, bs_fix_kind k)
{
	if (s->bytes)
		return k == BS_FIX_SWIZZLE ? 0 : k == BS_FIX_PAD ? 1 : 2;
	return (int)k;
}

unsigned fix_cost(const search *s, const bs_summary *sum)
{
	return s->remote ? sum->sectors : sum->wavefronts;
}

static int lower(const search *s, const bs_fix_change *a,
		 const bs_fix_change *b)
{
	if (fix_cost(s, &a->sum) != fix_cost(s, &b->sum))
		return fix_cost(s, &a->sum) < fix_cost(s, &b->sum);
	if (a->kind != b->kind)
		return kind_rank(s, a->kind) < kind_rank(s, b->kind);
	return cheaper(s, a, b);
}

/* Price one change and keep it when it is the best of its class. */
void fix_consider(search *s, bs_fix_change *c)
{
	unsigned before = fix_cost(s, &s->out->sum_before);
	int ideal;

	if (bs_predict(s->p, &c->access, &c->sum, NULL) < 0)
		return;
	s->out->tried++;
	if (s->remote)
		ideal = c->sum.sectors <= s->min_sectors &&
			c->sum.sectors < before;
	else if (c->kind == BS_FIX_WIDEN)
		ideal = c->sum.bank_conflicts == 0 &&
			c->sum.wavefronts < c->merged_wavefronts &&
			c->sum.wavefronts <= c->merged_ideal;
	else
		ideal = c->sum.bank_conflicts == 0 && c->sum.wavefronts < before;
	if (ideal) {
		if (!s->have[c->kind] || cheaper(s, c, &s->ideal[c->kind])) {
			s->ideal[c->kind] = *c;
			s->have[c->kind] = 1;
		}
		return;
	}
	if ((c->kind == BS_FIX_WIDEN && !s->remote) ||
	    fix_cost(s, &c->sum) >= before)
		return;
	if (!s->have_low || lower(s, c, &s->low)) {
		s->low = *c;
		s->have_low = 1;
	}
}

/* cp.async: an LDGSTS writes its shared destination. */
static int tensor_copy(bs_kind kind)
{
	const bs_kind_info *k = bs_kind_get(kind);

	return k && !strncmp(k->sass, "LDGSTS", 6);
}

/* The fewest 32-byte sectors that hold the bytes access a reads:
 * ceil(distinct bytes / 32). */
unsigned bs_fix_fewest_sectors(const bs_access *a)
{
	uint32_t start[BS_LANES];
	unsigned n = 0, bytes = 0;

	/* aligned accesses of one width: equal starts or no overlap */
	for (uint32_t m = a->active; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m), i;

		for (i = 0; i < n && start[i] != a->addr[l]; i++)
			;
		if (i == n) {
			start[n++] = a->addr[l];
			bytes += a->width;
		}
	}
	return (bytes + 31) / 32;
}

static int before_access(const bs_fix_input *in, bs_access *a, unsigned *w,
			 bs_error *err)
{
	switch (in->source) {
	case BS_FIX_FROM_TILE:
		*w = in->tile.width;
		return bs_tile_access(&in->tile, a, err);
	case BS_FIX_FROM_STRUCT:
		*w = in->strct.width;
		return bs_struct_access(&in->strct, a, err);
	case BS_FIX_FROM_ACCESS:
		*w = in->access.width;
		if (in->base > UINT32_MAX)
			return bs_error_set(err, "--base", 0, 0, "base %llu is "
					    "beyond the 32-bit shared window",
					    (unsigned long long)in->base);
		if (in->row_elems > 1u << 20)
			return bs_error_set(err, "--row", 0, 0, "row length %u "
					    "is larger than 1048576 elements",
					    in->row_elems);
		*a = in->access;
		return bs_access_check(a, err);
	}
	return bs_error_set(err, "fix", 0, 0, "unknown access source %d",
			    (int)in->source);
}

int bs_fix_search(const bs_arch *p, const bs_fix_input *in, bs_fix *out,
		  bs_error *err)
{
	static const bs_fix_kind order[2][3] = {
		{ BS_FIX_PAD, BS_FIX_SWIZZLE, BS_FIX_WIDEN },
		{ BS_FIX_SWIZZLE, BS_FIX_PAD, BS_FIX_WIDEN },
	};
	search s;
	unsigned width = 0;
	bs_cute sw;

	memset(out, 0, sizeof *out);
	memset(&s, 0, sizeof s);
	s.p = p;
	s.in = in;
	s.out = out;
	if (in->max_pad > BS_FIX_MAX_PAD)
		return bs_error_set(err, "--max-pad", 0, 0, "padding of %d "
				    "elements is more than the %d searched at "
				    "most", in->max_pad, BS_FIX_MAX_PAD);
	if (before_access(in, &out->before, &width, err) < 0 ||
	    bs_predict(p, &out->before, &out->sum_before, err) < 0)
		return -1;
	if (in->source == BS_FIX_FROM_TILE) {
		const bs_tile_spec *t = &in->tile;

		s.elem = t->elem ? t->elem : t->width;
		width = s.elem;
		s.bytes = bs_kind_is_matrix(t->kind) || tensor_copy(t->kind) ||
			  s.elem != t->width ||
			  bs_swizzle_bytes(t->swizzle, t->cute, &sw);
		out->byte_layout = s.bytes;
	}
	out->max_pad = in->max_pad < 0 ? 128 / width - 1
				       : (unsigned)in->max_pad;
	if (bs_kind_get(out->before.kind)->remote) {
		s.remote = out->remote = 1;
		s.min_sectors = out->min_sectors = bs_fix_fewest_sectors(&out->before);
	}
	if (s.remote ? out->sum_before.sectors <= s.min_sectors
		     : out->sum_before.bank_conflicts == 0) {
		out->already_ideal = 1;
		out->reaches_ideal = 1;
		return 0;
	}
	if (in->source == BS_FIX_FROM_TILE && s.bytes)
		fix_tile_byte_changes(&s);
	else if (in->source == BS_FIX_FROM_TILE)
		fix_tile_changes(&s);
	else if (in->source == BS_FIX_FROM_STRUCT)
		fix_struct_changes(&s);
	else
		fix_access_changes(&s);

	for (size_t i = 0; i < 3; i++) {
		bs_fix_kind k = order[s.bytes][i];

		if (!s.have[k])
			continue;
		if (!out->reaches_ideal) {
			out->best = s.ideal[k];
			out->reaches_ideal = 1;
		} else if (out->alternative.kind == BS_FIX_NONE ||
			   cheaper(&s, &s.ideal[k], &out->alternative)) {
			out->alternative = s.ideal[k];
		}
	}
	if (!out->reaches_ideal && s.have_low)
		out->best = s.low;
	if (s.remote && !out->reaches_ideal)
		snprintf(out->explanation, sizeof out->explanation,
			 "its bytes fit in %u sector%s: store them together "
			 "in the CTA that owns them, or copy the tile into "
			 "this CTA's shared memory once if it is read more "
			 "than once", s.min_sectors,
			 s.min_sectors == 1 ? "" : "s");
	fix_describe(&s, &out->best);
	fix_describe(&s, &out->alternative);
	return 0;
}
