/*
 * candidates.c - the layout changes the fix advisor tries, by where the
 * access comes from (fix.c says what each source may change): padding
 * and the XOR swizzle of a tile, a struct or an access's rows, the
 * byte-layout search's TMA and CuTe swizzles, and widening.  Each is
 * handed to fix_consider, which prices and ranks it.
 */
#include <stdio.h>
#include <string.h>

#include "fix.h"

#define STRUCTS_PER_WARP 32

static void rename_access(bs_access *a, const char *base, const char *suffix)
{
	int keep = BS_NAME_MAX - 1 - (int)strlen(suffix);

	snprintf(a->name, sizeof a->name, "%.*s%s", keep < 0 ? 0 : keep, base,
		 suffix);
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

	/* only to a width the kind has and the architecture models */
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
	snprintf(suffix, sizeof suffix, "_%s", fix_vector_name(a->width, w));
	rename_access(&c.access, a->name, suffix);
	fix_consider(s, &c);
}

void fix_tile_changes(search *s)
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
			fix_consider(s, &c);
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
	fix_consider(s, &c);
}

/*
 * The byte-layout search (bs_fix.h): TMA and CuTe swizzles, with the
 * tile's padding or none, and padding by multiples of the access width.
 */
void fix_tile_byte_changes(search *s)
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

void fix_struct_changes(search *s)
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
		fix_consider(s, &c);
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

void fix_access_changes(search *s)
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
			fix_consider(s, &c);
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
