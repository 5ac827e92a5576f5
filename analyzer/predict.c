/*
 * predict.c - from one warp access to wavefronts, conflicts and latency.
 *
 * The warp is cut into phases (profile->phase_lanes, or the packed width
 * for a pairwise-uniform load).  In each phase every active lane touches
 * width/bank_bytes consecutive bank words (at least one); a bank delivers
 * one distinct word per wavefront, so the phase costs as many wavefronts
 * as the busiest bank has distinct words.  Lanes that want the same word
 * share it (multicast) at no cost.  The access costs the sum over phases;
 * the ideal is what the phases would cost if no bank had to deliver twice:
 * ceil(distinct words / banks) per phase.
 */
#include <math.h>
#include <string.h>

#include "bankscope.h"

int bs_access_check(const bs_access *a, bs_error *err)
{
	if (bs_width_index(a->width) < 0)
		return bs_error_set(err, a->name, 0, 0,
				    "width %u is not 1, 2, 4, 8 or 16 bytes",
				    a->width);
	if (a->op != BS_LOAD && a->op != BS_STORE)
		return bs_error_set(err, a->name, 0, 0, "unknown op");
	for (unsigned l = 0; l < BS_LANES; l++) {
		if (!(a->active >> l & 1))
			continue;
		if (a->addr[l] % a->width)
			return bs_error_set(err, a->name, 0, 0,
					    "lane %u: address %u is not aligned "
					    "to the %u-byte width",
					    l, (unsigned)a->addr[l], a->width);
		if ((uint64_t)a->addr[l] + a->width - 1 > UINT32_MAX)
			return bs_error_set(err, a->name, 0, 0,
					    "lane %u: access at %u runs past the "
					    "32-bit shared window",
					    l, (unsigned)a->addr[l]);
	}
	return 0;
}

int bs_pairwise_uniform(const bs_access *a, unsigned m)
{
	if (m == 0 || m >= BS_LANES)
		return 0;
	for (unsigned l = 0; l < BS_LANES; l++) {
		unsigned o = l ^ m;
		if ((a->active >> l & 1) && (a->active >> o & 1) &&
		    a->addr[l] != a->addr[o])
			return 0;
	}
	return 1;
}

/* Phase width for this access under this profile; sets *packed. */
static unsigned phase_width(const bs_profile *p, const bs_access *a, int wi,
			    int *packed)
{
	*packed = 0;
	if (a->op == BS_LOAD && p->packed_phase_lanes[wi] &&
	    (bs_pairwise_uniform(a, p->pack_xor[0]) ||
	     bs_pairwise_uniform(a, p->pack_xor[1]))) {
		*packed = 1;
		return p->packed_phase_lanes[wi];
	}
	return p->phase_lanes[wi];
}

static double latency(const bs_profile *p, const bs_access *a, int wi,
		      int packed, unsigned wavefronts)
{
	double base, slope;

	if (wavefronts == 0)
		return 0.0;
	if (a->op == BS_LOAD) {
		base = packed ? p->load_base_packed[wi] : p->load_base[wi];
		slope = p->load_slope;
	} else {
		base = p->store_base[wi];
		slope = p->store_slope;
	}
	return base > 0 ? base + slope * wavefronts : NAN;
}

/*
 * Per-bank lists of the distinct words seen in the current phase.  A bank
 * can be asked for at most one word per lane and word slot, so 32 x 4
 * entries would be the bound across widths; one lane's words fall in
 * consecutive banks, so a bank sees at most one word per lane: 32.
 */
typedef struct {
	uint32_t word[BS_MAX_BANKS][BS_LANES];
	uint32_t lanes[BS_MAX_BANKS][BS_LANES];
	uint8_t count[BS_MAX_BANKS];
} bank_lists;

/*
 * Walk one phase: fill the bank lists, return the phase's wavefronts and
 * its distinct word count in *words.
 */
static unsigned walk_phase(const bs_profile *p, const bs_access *a,
			   uint32_t active, unsigned words_per_lane,
			   bank_lists *b, unsigned *words)
{
	unsigned way = 0, distinct = 0;

	memset(b->count, 0, p->banks);
	while (active) {
		unsigned l = (unsigned)__builtin_ctz(active);
		uint32_t w0 = a->addr[l] / p->bank_bytes;

		active &= active - 1;
		for (unsigned k = 0; k < words_per_lane; k++) {
			uint32_t w = w0 + k;
			unsigned bank = w % p->banks;
			unsigned n = b->count[bank], i;

			for (i = 0; i < n; i++)
				if (b->word[bank][i] == w)
					break;
			if (i == n) {
				b->word[bank][n] = w;
				b->lanes[bank][n] = 0;
				b->count[bank] = (uint8_t)(n + 1);
				distinct++;
				if (n + 1 > way)
					way = n + 1;
			}
			b->lanes[bank][i] |= 1u << l;
		}
	}
	*words = distinct;
	return way;
}

/* Shared by both entry points; d may be NULL (counts only). */
static int predict(const bs_profile *p, const bs_access *a, bs_summary *s,
		   bs_detail *d, bs_error *err)
{
	bank_lists b;
	unsigned width, nph, wpl;
	int wi, packed;

	if (bs_access_check(a, err) < 0)
		return -1;
	wi = bs_width_index(a->width);
	width = phase_width(p, a, wi, &packed);
	nph = BS_LANES / width;
	wpl = a->width > p->bank_bytes ? a->width / p->bank_bytes : 1;

	memset(s, 0, sizeof *s);
	s->packed = packed;
	s->active_lanes = (unsigned)__builtin_popcount(a->active);
	if (d) {
		d->nphases = nph;
		d->ncells = 0;
	}
	for (unsigned ph = 0; ph < nph; ph++) {
		uint32_t mask = width == 32 ? UINT32_MAX
					    : ((1u << width) - 1) << (ph * width);
		uint32_t act = a->active & mask;
		unsigned words = 0, way = 0;

		if (act) {
			way = walk_phase(p, a, act, wpl, &b, &words);
			s->phases++;
			s->wavefronts += way;
			s->ideal_wavefronts += (words + p->banks - 1) / p->banks;
			if (way > s->max_way)
				s->max_way = way;
		}
		if (!d)
			continue;
		d->phase[ph] = (bs_phase){ .lanes = mask, .active = act,
					   .wavefronts = way, .words = words,
					   .first_cell = d->ncells };
		for (unsigned w = 0; w < way; w++)
			for (unsigned bank = 0; bank < p->banks; bank++) {
				if (w >= b.count[bank])
					continue;
				d->cell[d->ncells++] = (bs_cell){
					.phase = (uint8_t)ph,
					.bank = (uint8_t)bank,
					.wave = (uint8_t)w,
					.word = b.word[bank][w],
					.lanes = b.lanes[bank][w] };
			}
		d->phase[ph].ncells = d->ncells - d->phase[ph].first_cell;
	}
	s->bank_conflicts = s->wavefronts - s->ideal_wavefronts;
	s->latency_cycles = latency(p, a, wi, packed, s->wavefronts);
	return 0;
}

int bs_predict(const bs_profile *p, const bs_access *a, bs_summary *out,
	       bs_error *err)
{
	return predict(p, a, out, NULL, err);
}

int bs_predict_detail(const bs_profile *p, const bs_access *a, bs_detail *out,
		      bs_error *err)
{
	return predict(p, a, &out->sum, out, err);
}
