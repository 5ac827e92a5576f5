/*
 * copy.c - a copy=lines rule (BS_COPY_LINES, bs_model.h): cp.async.cg's
 * 16-byte copies counted by lines, not bank slots.
 *
 * The wavefronts are the distinct (source line, shared line, chunk XOR,
 * half mask) of the lanes left after dropping repeated destinations.  The
 * source is the access's own (src: profile --explain records it), else
 * base + 16 lane.  The detail (may be NULL) gets one phase per source
 * line, in the order of their first lanes (lanes 8g .. 8g+7 for the
 * assumed source), a wave per wavefront and a cell per 4-byte word each
 * kept lane writes, its lanes those with that destination.
 */
#include <string.h>

#include "model.h"

typedef struct { unsigned g, l, k, dsec, ssec, mask; } copy_item;
typedef struct { unsigned g, l, k, mask; } copy_wave;

/* What the steps below share: the lanes kept, their items and waves. */
typedef struct {
	copy_item it[BS_LANES];
	copy_wave wv[BS_LANES];
	unsigned nit, nwv, item_of[BS_LANES];
	unsigned phase_waves[BS_LANES], nph;
	uint32_t kept, dup[BS_LANES], line_of[BS_LANES];
	uint32_t phase_lanes[BS_LANES];
} copy_state;

/* The lowest lane of each destination is kept; the others ride along
 * in its dup[] mask. */
static void keep_lanes(const bs_access *a, copy_state *c)
{
	for (uint32_t m = a->active; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m), o;

		for (o = 0; o < l; o++)
			if ((c->kept >> o & 1) && a->addr[o] == a->addr[l])
				break;
		if (o < l) {
			c->dup[o] |= 1u << l;
			continue;
		}
		c->kept |= 1u << l;
		c->dup[l] |= 1u << l;
	}
}

/* Each kept lane's item: its source line's phase, shared line, chunk
 * XOR and the 32-byte sectors, a half mask per (dest, source) sector. */
static void items(const bs_access *a, copy_state *c)
{
	for (uint32_t m = c->kept; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m), i, g;
		uint32_t src = a->src ? a->src[l] : 16 * l;
		unsigned cs = src / 16 % 8, cd = a->addr[l] / 16 % 8;
		unsigned ln = a->addr[l] / 128, k = (cs ^ cd) & 3;

		for (g = 0; g < c->nph; g++)   /* the source line's phase */
			if (c->line_of[g] == src / 128)
				break;
		if (g == c->nph)
			c->line_of[c->nph++] = src / 128;
		c->phase_lanes[g] |= c->dup[l];
		for (i = 0; i < c->nit; i++)
			if (c->it[i].g == g && c->it[i].l == ln &&
			    c->it[i].k == k && c->it[i].dsec == cd / 2 &&
			    c->it[i].ssec == cs / 2)
				break;
		if (i == c->nit)
			c->it[c->nit++] = (copy_item){ g, ln, k, cd / 2,
						       cs / 2, 0 };
		c->it[i].mask |= 1u << (cd % 2);
		c->item_of[l] = i;
	}
}

/* The distinct (phase, line, XOR, mask): one wavefront each. */
static void waves(copy_state *c)
{
	for (unsigned i = 0; i < c->nit; i++) {
		const copy_item *x = &c->it[i];
		unsigned w;

		for (w = 0; w < c->nwv; w++)
			if (c->wv[w].g == x->g && c->wv[w].l == x->l &&
			    c->wv[w].k == x->k && c->wv[w].mask == x->mask)
				break;
		if (w == c->nwv) {
			c->wv[c->nwv++] = (copy_wave){ x->g, x->l, x->k,
						       x->mask };
			c->phase_waves[x->g]++;
		}
	}
}

/* Wave w's cells: a cell per 4-byte word of each kept lane of phase
 * index pg whose item is the wave's, sorted by bank. */
static void wave_cells(const bs_access *a, const copy_state *c,
		       const bs_phase *f, unsigned g, unsigned pg,
		       unsigned w, unsigned wave, bs_detail *d)
{
	unsigned c0 = d->ncells;

	for (uint32_t m = c->kept & f->lanes; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		const copy_item *x = &c->it[c->item_of[l]];

		if (x->g != pg || x->l != c->wv[w].l || x->k != c->wv[w].k ||
		    x->mask != c->wv[w].mask)
			continue;
		for (unsigned j = 0; j < 4; j++) {
			uint32_t word = a->addr[l] / 4 + j;

			d->cell[d->ncells++] = (bs_cell){
				.phase = (uint8_t)g,
				.bank = (uint8_t)(word % 32),
				.wave = (uint8_t)wave, .word = word,
				.lanes = c->dup[l] };
		}
	}
	/* a wave's cells by bank: its chunks are distinct */
	for (unsigned x = c0 + 1; x < d->ncells; x++)
		for (unsigned y = x; y > c0 &&
		     d->cell[y - 1].bank > d->cell[y].bank; y--) {
			bs_cell t = d->cell[y];
			d->cell[y] = d->cell[y - 1];
			d->cell[y - 1] = t;
		}
}

static void detail(const bs_access *a, const copy_state *c, bs_detail *d)
{
	d->npasses = 0;
	d->copy = 1;
	d->serial = 0;
	d->ncells = 0;
	/* the assumed source: the four 8-lane groups, empty ones too */
	d->nphases = a->src ? c->nph : 4;
	for (unsigned g = 0; g < d->nphases; g++) {
		bs_phase *f = &d->phase[g];
		unsigned wave = 0, pg = g;

		if (!a->src) {   /* phase index of the lanes 8g .. 8g+7 */
			f->lanes = 0xffu << (8 * g);
			for (pg = 0; pg < c->nph && c->line_of[pg] != g; pg++)
				;
		} else
			f->lanes = c->phase_lanes[g];
		f->active = a->active & f->lanes;
		f->slots = f->wavefronts = pg < c->nph ? c->phase_waves[pg]
						       : 0;
		f->words = 4 * (unsigned)__builtin_popcount(c->kept & f->lanes);
		f->first_cell = d->ncells;
		for (unsigned w = 0; w < c->nwv && pg < c->nph; w++)
			if (c->wv[w].g == pg)
				wave_cells(a, c, f, g, pg, w, wave++, d);
		f->ncells = d->ncells - f->first_cell;
	}
}

int model_predict_copy(const bs_arch *p, const bs_access *a,
		       const bs_rule *r, bs_summary *s, bs_detail *d,
		       bs_error *err)
{
	copy_state c;

	if (a->width != 16 || p->banks * p->bank_bytes != 128)
		return bs_error_set(err, a->name, 0, 0, "copy=lines counts "
				    "16-byte copies into 128-byte lines: a "
				    "%u-byte access under %u x %u-byte banks "
				    "is neither", a->width, p->banks,
				    p->bank_bytes);
	memset(&c, 0, sizeof c);
	keep_lanes(a, &c);
	items(a, &c);
	waves(&c);
	memset(s, 0, sizeof *s);
	s->active_lanes = (unsigned)__builtin_popcount(a->active);
	s->wavefronts = c.nwv;
	for (unsigned g = 0; g < c.nph; g++)
		if (c.phase_waves[g] > s->max_way)
			s->max_way = c.phase_waves[g];
	s->phases = c.nph;
	s->ideal_wavefronts = s->phases;
	s->bank_conflicts = s->wavefronts - s->ideal_wavefronts;
	s->latency_cycles = model_latency(r, 0, s->wavefronts);
	if (d)
		detail(a, &c, d);
	return 0;
}
