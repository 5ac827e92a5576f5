/*
 * fix.c - the fix advisor: the cheapest layout change that makes one
 * shared-memory access conflict-free.
 *
 * The search is exhaustive over a small space and every candidate is
 * priced by bs_predict() under the caller's profile, so the advice follows
 * the profile's rules (phases by width, packing) rather than a rule of
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bs_fix.h"

#define NKINDS 4
#define STRUCTS_PER_WARP 32

typedef struct {
	const bs_arch *p;
	const bs_fix_input *in;
	bs_fix *out;
	unsigned row;            /* FROM_ACCESS: the row length used */
	int have[NKINDS];
	bs_fix_change ideal[NKINDS];  /* cheapest ideal change of each kind */
	int have_low;
	bs_fix_change low;       /* fewest wavefronts among the others */
	int bytes;               /* the byte-layout search (bs_fix.h) */
	unsigned elem;           /* FROM_TILE: element bytes */
} search;

const char *bs_fix_kind_name(bs_fix_kind kind)
{
	switch (kind) {
	case BS_FIX_PAD: return "pad";
	case BS_FIX_SWIZZLE: return "swizzle";
	case BS_FIX_WIDEN: return "widen";
	default: return "none";
	}
}

static const char *type_name(unsigned width)
{
	switch (width) {
	case 1: return "char";
	case 2: return "short";
	case 4: return "float";
	case 8: return "double";
	default: return "float4";
	}
}

/* The CUDA vector type of W bytes that holds W/width elements. */
static const char *vector_name(unsigned width, unsigned w)
{
	static const struct {
		unsigned width, w;
		const char *name;
	} v[] = {
		{ 1, 2, "char2" }, { 1, 4, "char4" }, { 1, 8, "uint2" },
		{ 1, 16, "uint4" }, { 2, 4, "short2" }, { 2, 8, "short4" },
		{ 2, 16, "uint4" }, { 4, 8, "float2" }, { 4, 16, "float4" },
		{ 8, 16, "double2" },
	};

	for (size_t i = 0; i < sizeof v / sizeof *v; i++)
		if (v[i].width == width && v[i].w == w)
			return v[i].name;
	return "uint4";
}

/* "1 float", "3 floats". */
static const char *count_of(char *buf, size_t size, unsigned n,
			    unsigned width)
{
	snprintf(buf, size, "%u %s%s", n, type_name(width), n == 1 ? "" : "s");
	return buf;
}

static void rename_access(bs_access *a, const char *base, const char *suffix)
{
	int keep = BS_NAME_MAX - 1 - (int)strlen(suffix);

	snprintf(a->name, sizeof a->name, "%.*s%s", keep < 0 ? 0 : keep, base,
		 suffix);
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

static int lower(const search *s, const bs_fix_change *a,
		 const bs_fix_change *b)
{
	if (a->sum.wavefronts != b->sum.wavefronts)
		return a->sum.wavefronts < b->sum.wavefronts;
	if (a->kind != b->kind)
		return kind_rank(s, a->kind) < kind_rank(s, b->kind);
	return cheaper(s, a, b);
}

/* Price one change and keep it when it is the best of its class. */
static void consider(search *s, bs_fix_change *c)
{
	unsigned before = s->out->sum_before.wavefronts;
	int ideal;

	if (bs_predict(s->p, &c->access, &c->sum, NULL) < 0)
		return;
	s->out->tried++;
	if (c->kind == BS_FIX_WIDEN)
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
	if (c->kind == BS_FIX_WIDEN || c->sum.wavefronts >= before)
		return;
	if (!s->have_low || lower(s, c, &s->low)) {
		s->low = *c;
		s->have_low = 1;
	}
}

static void new_change(bs_fix_change *c, bs_fix_kind kind, unsigned pad,
		       bs_swizzle swizzle, unsigned width)
{
	memset(c, 0, sizeof *c);
	c->kind = kind;
	c->pad = pad;
	c->swizzle = swizzle;
	c->width = width;
	c->merged = 1;
}

/*
 * One widening: lane l reads the W-byte chunk at chunk[l] whole, against
 * the W/width accesses that read its elements one by one.
 */
static void try_widen(search *s, const uint32_t *chunk, unsigned w,
		      unsigned pad, bs_swizzle swizzle)
{
	const bs_access *a = &s->out->before;
	bs_fix_change c;
	bs_access narrow = *a;
	bs_summary sum;
	char suffix[16];

	/* only to a width the kind has and the profile models */
	if (!bs_arch_rule(s->p, a->kind, w))
		return;
	new_change(&c, BS_FIX_WIDEN, pad, swizzle, w);
	c.merged = w / a->width;
	for (unsigned i = 0; i < c.merged; i++) {
		for (unsigned l = 0; l < BS_LANES; l++)
			if (a->active >> l & 1)
				narrow.addr[l] = chunk[l] + i * a->width;
		if (bs_predict(s->p, &narrow, &sum, NULL) < 0)
			return;
		c.merged_wavefronts += sum.wavefronts;
		c.merged_ideal += sum.ideal_wavefronts;
	}
	c.access = *a;
	c.access.width = w;
	for (unsigned l = 0; l < BS_LANES; l++)
		if (a->active >> l & 1)
			c.access.addr[l] = chunk[l];
	snprintf(suffix, sizeof suffix, "_%s", vector_name(a->width, w));
	rename_access(&c.access, a->name, suffix);
	consider(s, &c);
}

static void tile_changes(search *s)
{
	const bs_tile_spec *t = &s->in->tile;
	const bs_access *a = &s->out->before;
	int pow2 = !(t->cols & (t->cols - 1));

	for (int sw = BS_SWIZZLE_NONE; sw <= BS_SWIZZLE_XOR; sw++) {
		if (sw == BS_SWIZZLE_XOR && !pow2)
			continue;
		for (unsigned k = 0; k <= s->out->max_pad; k++) {
			bs_tile_spec n = *t;
			bs_fix_change c;

			if (k == t->pad && (bs_swizzle)sw == t->swizzle)
				continue;
			new_change(&c, (bs_swizzle)sw == t->swizzle ?
				   BS_FIX_PAD : BS_FIX_SWIZZLE, k,
				   (bs_swizzle)sw, t->width);
			n.pad = k;
			n.swizzle = (bs_swizzle)sw;
			n.name = NULL;
			if (bs_tile_access(&n, &c.access, NULL) < 0)
				continue;
			if (t->name) {
				char suffix[40];

				snprintf(suffix, sizeof suffix, "_pad%u%s", k,
					 sw == BS_SWIZZLE_XOR ? "_xor" : "");
				rename_access(&c.access, t->name, suffix);
			}
			c.extra_bytes = (int64_t)t->rows *
					((int64_t)k - t->pad) * t->width;
			consider(s, &c);
		}
	}
	if (!pow2)
		snprintf(s->out->explanation, sizeof s->out->explanation,
			 "the XOR swizzle needs a power-of-two column count, "
			 "not %u", t->cols);
	if (t->swizzle != BS_SWIZZLE_NONE ||
	    (t->dir != BS_BY_ROW && t->dir != BS_BY_COL))
		return;
	for (unsigned w = 2 * t->width; w <= 16; w *= 2) {
		unsigned g = w / t->width;
		uint64_t row = ((uint64_t)t->cols + t->pad) * t->width;
		uint32_t chunk[BS_LANES] = { 0 };
		int ok = t->base % w == 0 && row % w == 0;

		for (unsigned l = 0; ok && l < BS_LANES; l++) {
			unsigned c = t->dir == BS_BY_ROW ? l : t->index;

			if (!(a->active >> l & 1))
				continue;
			ok = c - c % g + g <= t->cols;
			chunk[l] = a->addr[l] - (c % g) * t->width;
		}
		if (ok)
			try_widen(s, chunk, w, t->pad, BS_SWIZZLE_NONE);
	}
}

/* One byte-layout candidate: the tile with padding k and swizzle sw. */
static void try_layout(search *s, bs_fix_kind kind, unsigned k, bs_swizzle sw,
		       bs_cute cute)
{
	const bs_tile_spec *t = &s->in->tile;
	bs_tile_spec n = *t;
	bs_fix_change c;
	char name[32], suffix[48];

	if (k == t->pad && sw == t->swizzle &&
	    (sw != BS_SWIZZLE_CUTE || !memcmp(&cute, &t->cute, sizeof cute)))
		return;
	new_change(&c, kind, k, sw, t->width);
	c.cute = cute;
	n.pad = k;
	n.swizzle = sw;
	n.cute = cute;
	n.name = NULL;
	if (bs_tile_access(&n, &c.access, NULL) < 0)
		return;
	if (t->name) {
		if (sw == BS_SWIZZLE_CUTE)
			snprintf(name, sizeof name, "_cute%d_%d_%d", cute.bits,
				 cute.base, cute.shift);
		else if (sw != BS_SWIZZLE_NONE)
			snprintf(name, sizeof name, "_%s", sw == BS_SWIZZLE_TMA32
				 ? "tma32" : sw == BS_SWIZZLE_TMA64 ? "tma64"
				 : "tma128");
		else
			name[0] = '\0';
		snprintf(suffix, sizeof suffix, "_pad%u%s", k, name);
		rename_access(&c.access, t->name, suffix);
	}
	c.extra_bytes = (int64_t)t->rows * ((int64_t)k - t->pad) * s->elem;
	consider(s, &c);
}

/*
 * The byte-layout search (bs_fix.h): TMA and CuTe swizzles, with the
 * tile's padding or none, and padding by multiples of the access width.
 */
static void tile_byte_changes(search *s)
{
	static const bs_swizzle tma[] = { BS_SWIZZLE_TMA32, BS_SWIZZLE_TMA64,
					  BS_SWIZZLE_TMA128 };
	const bs_tile_spec *t = &s->in->tile;
	unsigned w = t->width, step = t->width / s->elem;
	unsigned pads[2] = { t->pad, 0 }, npads = t->pad ? 2 : 1;
	unsigned mmin = (unsigned)__builtin_ctz(w);
	uint64_t end = t->base + (uint64_t)t->rows *
				 ((uint64_t)t->cols + t->pad) * s->elem;
	const bs_cute none = { 0, 0, 0 };

	for (unsigned p = 0; p < npads; p++) {
		uint64_t row = ((uint64_t)t->cols + pads[p]) * s->elem;

		/*
		 * Rows wider than a TMA mode's span are no TMA box: the same
		 * bits are then the CuTe swizzle Swizzle<B,4,3>, for code.
		 */
		for (unsigned i = 0; i < sizeof tma / sizeof *tma; i++) {
			bs_cute c = { (int8_t)(i + 1), 4, 3 };

			if (row > 32u << i)
				try_layout(s, BS_FIX_SWIZZLE, pads[p],
					   BS_SWIZZLE_CUTE, c);
			else
				try_layout(s, BS_FIX_SWIZZLE, pads[p], tma[i],
					   none);
		}
		for (unsigned m = mmin; m + 1 <= 7; m++)
			for (unsigned b = 1; m + b <= 7; b++)
				for (unsigned sh = b; m + sh + b <= 18; sh++) {
					bs_cute c = { (int8_t)b, (int8_t)m,
						      (int8_t)sh };

					/* tried above, or reading bits above
					   every address of the tile */
					if ((m == 4 && sh == 3) ||
					    1ull << (m + sh) >= end)
						continue;
					try_layout(s, BS_FIX_SWIZZLE, pads[p],
						   BS_SWIZZLE_CUTE, c);
				}
	}
	for (unsigned k = 0; k <= s->out->max_pad; k += step)
		try_layout(s, BS_FIX_PAD, k, BS_SWIZZLE_NONE, none);
}

static void struct_changes(search *s)
{
	const bs_struct_spec *st = &s->in->strct;
	const bs_access *a = &s->out->before;

	for (unsigned k = 1; k <= s->out->max_pad; k++) {
		bs_struct_spec n = *st;
		bs_fix_change c;

		new_change(&c, BS_FIX_PAD, k, BS_SWIZZLE_NONE, st->width);
		n.struct_bytes = st->struct_bytes + k * st->width;
		n.name = NULL;
		if (bs_struct_access(&n, &c.access, NULL) < 0)
			continue;
		if (st->name) {
			char suffix[24];

			snprintf(suffix, sizeof suffix, "_pad%u", k);
			rename_access(&c.access, st->name, suffix);
		}
		c.extra_bytes = (int64_t)STRUCTS_PER_WARP * k * st->width;
		consider(s, &c);
	}
	for (unsigned w = 2 * st->width; w <= 16; w *= 2) {
		uint32_t chunk[BS_LANES];

		if (st->base % w || st->struct_bytes % w)
			continue;
		for (unsigned l = 0; l < BS_LANES; l++)
			chunk[l] = a->addr[l] - st->field % w;
		try_widen(s, chunk, w, 0, BS_SWIZZLE_NONE);
	}
}

/* The row length in elements when the active lanes read a constant stride. */
static unsigned lane_stride(const bs_access *a)
{
	int64_t first = -1, stride = 0;
	unsigned l0 = 0;

	for (unsigned l = 0; l < BS_LANES; l++) {
		if (!(a->active >> l & 1))
			continue;
		if (first < 0) {
			first = a->addr[l];
			l0 = l;
			continue;
		}
		if (!stride) {
			int64_t d = (int64_t)a->addr[l] - first;

			if (d <= 0 || d % (l - l0))
				return 0;
			stride = d / (l - l0);
		}
		if ((int64_t)a->addr[l] != first + (int64_t)(l - l0) * stride)
			return 0;
	}
	if (!stride || stride % a->width || stride / a->width > 1 << 20)
		return 0;
	return (unsigned)(stride / a->width);
}

/* Rows of `row` elements become rows of `next`, optionally XOR-swizzled. */
static int remap(const search *s, unsigned next, int swizzle, bs_access *out)
{
	const bs_access *a = &s->out->before;
	uint64_t base = s->in->base;

	*out = *a;
	for (unsigned l = 0; l < BS_LANES; l++) {
		uint64_t e, r, c, addr;

		if (!(a->active >> l & 1))
			continue;
		e = (a->addr[l] - base) / a->width;
		r = e / s->row;
		c = e % s->row;
		if (swizzle)
			c ^= r % s->row;
		addr = base + (r * next + c) * a->width;
		if (addr + a->width - 1 > UINT32_MAX)
			return -1;
		out->addr[l] = (uint32_t)addr;
	}
	return 0;
}

static void access_changes(search *s)
{
	const bs_access *a = &s->out->before;
	uint64_t base = s->in->base, rmin = UINT64_MAX, rmax = 0;
	char *why = s->out->explanation;
	size_t wsize = sizeof s->out->explanation;
	int pow2;

	s->row = s->in->row_elems ? s->in->row_elems : lane_stride(a);
	if (!s->row) {
		snprintf(why, wsize, "the addresses are not base + lane * stride "
			 "and no row length was given (--row), so there are "
			 "no rows to pad, swizzle or widen");
		return;
	}
	for (unsigned l = 0; l < BS_LANES; l++) {
		uint64_t r;

		if (!(a->active >> l & 1))
			continue;
		if (a->addr[l] < base || (a->addr[l] - base) % a->width) {
			snprintf(why, wsize, "lane %u's address %u is not an "
				 "element of an array at base %llu", l,
				 (unsigned)a->addr[l],
				 (unsigned long long)base);
			s->row = 0;
			return;
		}
		r = (a->addr[l] - base) / a->width / s->row;
		rmin = r < rmin ? r : rmin;
		rmax = r > rmax ? r : rmax;
	}
	pow2 = s->row >= 2 && !(s->row & (s->row - 1));
	for (int sw = BS_SWIZZLE_NONE; sw <= BS_SWIZZLE_XOR; sw++) {
		if (sw == BS_SWIZZLE_XOR && !pow2)
			continue;
		for (unsigned k = 0; k <= s->out->max_pad; k++) {
			bs_fix_change c;
			char suffix[40];

			if (!k && sw == BS_SWIZZLE_NONE)
				continue;
			new_change(&c, sw ? BS_FIX_SWIZZLE : BS_FIX_PAD, k,
				   (bs_swizzle)sw, a->width);
			if (remap(s, s->row + k, sw, &c.access) < 0)
				continue;
			if (k)
				snprintf(suffix, sizeof suffix, "%s_pad%u",
					 sw ? "_xor" : "", k);
			else
				snprintf(suffix, sizeof suffix, "_xor");
			rename_access(&c.access, a->name, suffix);
			c.extra_bytes = (int64_t)(rmax - rmin + 1) * k * a->width;
			consider(s, &c);
		}
	}
	if (!pow2)
		snprintf(why, wsize, "the XOR swizzle needs a power-of-two row "
			 "length, not %u", s->row);
	for (unsigned w = 2 * a->width; w <= 16; w *= 2) {
		unsigned g = w / a->width;
		uint32_t chunk[BS_LANES] = { 0 };

		if (base % w || ((uint64_t)s->row * a->width) % w)
			continue;
		for (unsigned l = 0; l < BS_LANES; l++)
			if (a->active >> l & 1)
				chunk[l] = a->addr[l] -
					   (uint32_t)(((a->addr[l] - base) /
						       a->width) % g * a->width);
		try_widen(s, chunk, w, 0, BS_SWIZZLE_NONE);
	}
}

/* "pad rows by 1 float", "pad rows by 1 float instead of 3", ... */
static void pad_phrase(char *buf, size_t size, const char *what,
		       unsigned from, unsigned to, unsigned width)
{
	char n[32], m[32];

	if (!from)
		snprintf(buf, size, "pad %s by %s", what,
			 count_of(n, sizeof n, to, width));
	else if (!to)
		snprintf(buf, size, "drop the padding of %s",
			 count_of(n, sizeof n, from, width));
	else
		snprintf(buf, size, "pad %s by %s instead of %s", what,
			 count_of(n, sizeof n, to, width),
			 count_of(m, sizeof m, from, width));
}

/* Label of a pad or swizzle change on rows padded by `from` elements. */
static void layout_label(bs_fix_change *c, unsigned from, bs_swizzle was)
{
	char pad[96] = "";

	if (c->pad != from)
		pad_phrase(pad, sizeof pad, "rows", from, c->pad, c->width);
	if (c->kind == BS_FIX_PAD) {
		snprintf(c->label, sizeof c->label, "%s", pad);
		return;
	}
	snprintf(c->label, sizeof c->label, "%s%s%s",
		 was == BS_SWIZZLE_NONE ? "XOR-swizzle the columns"
					: "drop the XOR swizzle",
		 *pad ? ", " : "", pad);
}

/* cp.async: an LDGSTS writes its shared destination. */
static int tensor_copy(bs_kind kind)
{
	const bs_kind_info *k = bs_kind_get(kind);

	return k && !strncmp(k->sass, "LDGSTS", 6);
}

/* The access writes shared memory (a store, or cp.async's destination). */
static int writes(bs_kind kind)
{
	const bs_kind_info *k = bs_kind_get(kind);

	return k && k->direction == BS_WRITES;
}

static void widen_label(bs_fix_change *c, unsigned width, bs_kind kind)
{
	snprintf(c->label, sizeof c->label, "%s %u %ss per lane as one %s",
		 writes(kind) ? "write" : "read", c->merged,
		 type_name(width), vector_name(width, c->width));
}

static void widen_note(bs_fix_change *c, unsigned width, const char *what)
{
	char all[16] = "both";

	if (c->merged > 2)
		snprintf(all, sizeof all, "all %u", c->merged);
	snprintf(c->note, sizeof c->note, "v holds %s: one %u-byte access "
		 "instead of %u %u-byte ones, which cost %u wavefronts "
		 "together; it pays only if the code uses %s",
		 what, c->width, c->merged, width, c->merged_wavefronts, all);
}

static void widen_index(bs_fix_change *c, unsigned width, bs_kind kind,
			const char *ptr, const char *at)
{
	const char *v = vector_name(width, c->width);

	if (writes(kind))
		snprintf(c->index_change, sizeof c->index_change,
			 "reinterpret_cast<%s *>(%s)[%s] = v;", v, ptr, at);
	else
		snprintf(c->index_change, sizeof c->index_change,
			 "%s v = reinterpret_cast<const %s *>(%s)[%s];", v, v,
			 ptr, at);
}

static void describe_tile(const bs_tile_spec *t, bs_fix_change *c)
{
	const char *type = type_name(t->width);
	unsigned cols = t->cols + c->pad, was = t->cols + t->pad;
	char at[32], what[96];

	if (c->kind == BS_FIX_WIDEN) {
		widen_label(c, t->width, t->kind);
		snprintf(c->declaration, sizeof c->declaration,
			 "__shared__ __align__(%u) %s tile[%u][%u];  "
			 "/* alignment only: +0 bytes */", c->width, type,
			 t->rows, cols);
		snprintf(at, sizeof at, "c / %u", c->merged);
		widen_index(c, t->width, t->kind, "tile[r]", at);
		snprintf(what, sizeof what, "tile[r][c - c %% %u] to "
			 "tile[r][c - c %% %u + %u]", c->merged, c->merged,
			 c->merged - 1);
		widen_note(c, t->width, what);
		return;
	}
	layout_label(c, t->pad, t->swizzle);
	if (cols != was)
		snprintf(c->declaration, sizeof c->declaration,
			 "__shared__ %s tile[%u][%u];  /* was [%u][%u]: "
			 "%+lld bytes */", type, t->rows, cols, t->rows, was,
			 (long long)c->extra_bytes);
	else
		snprintf(c->declaration, sizeof c->declaration,
			 "__shared__ %s tile[%u][%u];  /* unchanged: +0 bytes */",
			 type, t->rows, cols);
	if (c->kind == BS_FIX_PAD) {
		snprintf(c->note, sizeof c->note, "only the declaration "
			 "changes; every index stays as it is");
		return;
	}
	if (c->swizzle == BS_SWIZZLE_XOR)
		snprintf(c->index_change, sizeof c->index_change,
			 "tile[r][c ^ (r %% %u)]  /* was tile[r][c] */",
			 t->cols);
	else
		snprintf(c->index_change, sizeof c->index_change,
			 "tile[r][c]  /* was tile[r][c ^ (r %% %u)] */",
			 t->cols);
	snprintf(c->note, sizeof c->note, "every access to tile, stores "
		 "included, must use the new column index, or reads and "
		 "writes disagree on where an element lives");
}

static void describe_struct(const bs_struct_spec *st, bs_fix_change *c)
{
	const char *type = type_name(st->width);
	unsigned size = st->struct_bytes + c->pad * st->width;
	char at[32], what[96];

	if (c->kind == BS_FIX_WIDEN) {
		widen_label(c, st->width, st->kind);
		snprintf(c->declaration, sizeof c->declaration,
			 "struct __align__(%u) S { /* fields: %u bytes */ };  "
			 "/* alignment only: +0 bytes */", c->width,
			 st->struct_bytes);
		snprintf(at, sizeof at, "%u", st->field / c->width);
		widen_index(c, st->width, st->kind, "&arr[l]", at);
		snprintf(what, sizeof what, "bytes %u..%u of the struct, "
			 "the field and its neighbors",
			 st->field - st->field % c->width,
			 st->field - st->field % c->width + c->width - 1);
		widen_note(c, st->width, what);
		return;
	}
	pad_phrase(c->label, sizeof c->label, "the struct", 0, c->pad,
		   st->width);
	snprintf(c->declaration, sizeof c->declaration,
		 "struct S { /* fields: %u bytes */ %s pad[%u]; };  /* sizeof %u -> "
		 "%u: %+lld bytes for 32 structs */", st->struct_bytes, type,
		 c->pad, st->struct_bytes, size, (long long)c->extra_bytes);
	snprintf(c->note, sizeof c->note, "the fields keep their offsets; "
		 "each struct grows by %u bytes, counted for the 32 one warp "
		 "reads (an array of N structs: N * %u)", c->pad * st->width,
		 c->pad * st->width);
}

static void describe_access(const search *s, bs_fix_change *c)
{
	const bs_access *a = &s->out->before;
	const char *type = type_name(a->width);
	unsigned row = s->row + c->pad, per = c->pad * a->width;
	unsigned rows = per ? (unsigned)(c->extra_bytes / per) : 0;
	char at[32], what[96];

	if (c->kind == BS_FIX_WIDEN) {
		widen_label(c, a->width, a->kind);
		snprintf(c->declaration, sizeof c->declaration,
			 "__shared__ __align__(%u) %s a[ROWS][%u];  "
			 "/* alignment only: +0 bytes */", c->width, type,
			 s->row);
		snprintf(at, sizeof at, "c / %u", c->merged);
		widen_index(c, a->width, a->kind, "a[r]", at);
		snprintf(what, sizeof what, "a[r][c - c %% %u] to "
			 "a[r][c - c %% %u + %u]", c->merged, c->merged,
			 c->merged - 1);
		widen_note(c, a->width, what);
		return;
	}
	layout_label(c, 0, BS_SWIZZLE_NONE);
	if (c->pad)
		snprintf(c->declaration, sizeof c->declaration,
			 "__shared__ %s a[ROWS][%u];  /* was [ROWS][%u]: +%u "
			 "bytes a row, %+lld for the %u rows the warp spans */",
			 type, row, s->row, per, (long long)c->extra_bytes,
			 rows);
	else
		snprintf(c->declaration, sizeof c->declaration,
			 "__shared__ %s a[ROWS][%u];  /* unchanged: +0 bytes */",
			 type, row);
	if (c->swizzle == BS_SWIZZLE_XOR)
		snprintf(c->index_change, sizeof c->index_change,
			 "a[r][c ^ (r %% %u)], flat (r * %u + (c ^ (r %% %u)))"
			 "  /* was a[r][c] */", s->row, row, s->row);
	else
		snprintf(c->index_change, sizeof c->index_change,
			 "flat index r * %u + c  /* was r * %u + c; a[r][c] "
			 "stays */", row, s->row);
	snprintf(c->note, sizeof c->note, "the access is read as rows of "
		 "%u %ss from base %llu (%s), element e at row e / %u, column "
		 "e %% %u%s", s->row, type, (unsigned long long)s->in->base,
		 s->in->row_elems ? "--row" : "the lane stride", s->row,
		 s->row, c->swizzle == BS_SWIZZLE_XOR ?
		 "; every access to a, stores included, must use the new "
		 "column" : "");
}

/* Element types of byte-layout tiles, by size: "half", "halves". */
static const char *elem_name(unsigned e, int plural)
{
	switch (e) {
	case 1: return plural ? "chars" : "char";
	case 2: return plural ? "halves" : "half";
	case 4: return plural ? "floats" : "float";
	case 8: return plural ? "doubles" : "double";
	default: return plural ? "uint4s" : "uint4";
	}
}

/* "8 halves (16 bytes)" */
static const char *amount(char *buf, size_t size, unsigned n, unsigned e)
{
	snprintf(buf, size, "%u %s (%u bytes)", n, elem_name(e, n != 1),
		 n * e);
	return buf;
}

/* "o ^ ((o >> 3) & 0x70)": Swizzle<B,M,S> on byte offset o. */
static void xor_text(char *buf, size_t size, bs_cute x)
{
	unsigned ones = (1u << x.bits) - 1;

	if (x.shift >= 0)
		snprintf(buf, size, "o ^ ((o >> %d) & 0x%x)", x.shift,
			 ones << x.base);
	else
		snprintf(buf, size, "o ^ ((o << %d) & 0x%x)", -x.shift,
			 ones << (x.base - x.shift));
}

static void describe_tile_bytes(const search *s, bs_fix_change *c)
{
	const bs_tile_spec *t = &s->in->tile;
	unsigned e = s->elem, cols = t->cols + c->pad, was = t->cols + t->pad;
	unsigned long long row = (unsigned long long)cols * e, repeat;
	const char *type = elem_name(e, 0);
	char pad[96] = "", n1[48], n2[48], old[32], shape[48], ox[48];
	size_t len;
	bs_cute x;

	if (c->pad != t->pad && !c->pad)
		snprintf(pad, sizeof pad, "drop the padding of %s",
			 amount(n1, sizeof n1, t->pad, e));
	else if (c->pad != t->pad && !t->pad)
		snprintf(pad, sizeof pad, "pad rows by %s",
			 amount(n1, sizeof n1, c->pad, e));
	else if (c->pad != t->pad)
		snprintf(pad, sizeof pad, "pad rows by %s instead of %s",
			 amount(n1, sizeof n1, c->pad, e),
			 amount(n2, sizeof n2, t->pad, e));
	bs_swizzle_name(t->swizzle, t->cute, old, sizeof old);
	if (cols != was)
		snprintf(shape, sizeof shape, "was [%u][%u]: %+lld bytes",
			 t->rows, was, (long long)c->extra_bytes);
	else
		snprintf(shape, sizeof shape, "unchanged: +0 bytes");
	if (c->kind == BS_FIX_PAD) {
		if (t->swizzle != BS_SWIZZLE_NONE)
			snprintf(c->label, sizeof c->label, "drop the %s "
				 "swizzle%s%s", old, *pad ? ", " : "", pad);
		else
			snprintf(c->label, sizeof c->label, "%s", pad);
		snprintf(c->declaration, sizeof c->declaration,
			 "__shared__ %s tile[%u][%u];  /* %s */", type,
			 t->rows, cols, shape);
		if (t->swizzle != BS_SWIZZLE_NONE)
			snprintf(c->index_change, sizeof c->index_change,
				 "tile[r][c] at byte r * %llu + c * %u, "
				 "unswizzled  /* was swizzled with %s */", row,
				 e, old);
		snprintf(c->note, sizeof c->note, "costs shared memory, and "
			 "TMA cannot fill a padded tile: it writes each box "
			 "densely, rows of boxDim[0] x element size bytes; no "
			 "TMA or wgmma swizzle atom has rows of %llu bytes", row);
		return;
	}
	bs_swizzle_bytes(c->swizzle, c->cute, &x);
	repeat = 1ull << (x.base + abs(x.shift) + x.bits);
	if (c->swizzle == BS_SWIZZLE_CUTE)
		len = (size_t)snprintf(c->label, sizeof c->label, "swizzle with "
				       "CuTe Swizzle<%d,%d,%d> (no TMA mode)",
				       x.bits, x.base, x.shift);
	else
		len = (size_t)snprintf(c->label, sizeof c->label, "swizzle with "
				       "TMA SWIZZLE_%uB (CuTe Swizzle<%d,%d,%d>)",
				       16u << x.bits, x.bits, x.base, x.shift);
	if (t->swizzle != BS_SWIZZLE_NONE && len < sizeof c->label)
		len += (size_t)snprintf(c->label + len, sizeof c->label - len,
					" instead of %s", old);
	if (*pad && len < sizeof c->label)
		snprintf(c->label + len, sizeof c->label - len, ", %s", pad);
	snprintf(c->declaration, sizeof c->declaration,
		 "__shared__ __align__(%llu) %s tile[%u][%u];  /* %s; aligned "
		 "to the %llu-byte repeat */", repeat, type, t->rows, cols,
		 shape, repeat);
	xor_text(ox, sizeof ox, x);
	snprintf(c->index_change, sizeof c->index_change, "tile[r][c] at byte "
		 "o = r * %llu + c * %u is stored at %s", row, e, ox);
	if (c->swizzle == BS_SWIZZLE_CUTE) {
		snprintf(c->note, sizeof c->note, "no TMA mode writes this "
			 "pattern%s and no wgmma descriptor reads it: the code "
			 "that fills the tile and the code that reads it must "
			 "both XOR these bits, from a base that is a multiple "
			 "of %llu bytes", x.base == 4 && x.shift == 3 ?
			 " (its rows are wider than the mode's span)" : "",
			 repeat);
		return;
	}
	snprintf(c->note, sizeof c->note, "a TMA load writes this layout with "
		 "CU_TENSOR_MAP_SWIZZLE_%uB; code that addresses the tile "
		 "itself (ldmatrix, stmatrix, cp.async, ld, st) must XOR the "
		 "same bits, from a base that is a multiple of %llu bytes",
		 16u << x.bits, repeat);
	snprintf(c->warning, sizeof c->warning, "the sm_90 wgmma matrix "
		 "descriptor numbers swizzle modes in the reverse order of "
		 "CUtensorMapSwizzle (descriptor bits 62-63: 128B 1, 64B 2, "
		 "32B 3, none 0; TMA: NONE 0, 32B 1, 64B 2, 128B 3): this tile "
		 "is CU_TENSOR_MAP_SWIZZLE_%uB = %d for TMA and layout type %d "
		 "for wgmma", 16u << x.bits, x.bits, 4 - x.bits);
}

static void describe(const search *s, bs_fix_change *c)
{
	switch (c->kind == BS_FIX_NONE ? -1 : (int)s->in->source) {
	case BS_FIX_FROM_TILE:
		if (s->bytes)
			describe_tile_bytes(s, c);
		else
			describe_tile(&s->in->tile, c);
		break;
	case BS_FIX_FROM_STRUCT:
		describe_struct(&s->in->strct, c);
		break;
	case BS_FIX_FROM_ACCESS:
		describe_access(s, c);
		break;
	default:
		break;
	}
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
	if (out->sum_before.bank_conflicts == 0) {
		out->already_ideal = 1;
		out->reaches_ideal = 1;
		return 0;
	}
	if (in->source == BS_FIX_FROM_TILE && s.bytes)
		tile_byte_changes(&s);
	else if (in->source == BS_FIX_FROM_TILE)
		tile_changes(&s);
	else if (in->source == BS_FIX_FROM_STRUCT)
		struct_changes(&s);
	else
		access_changes(&s);

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
	describe(&s, &out->best);
	describe(&s, &out->alternative);
	return 0;
}
