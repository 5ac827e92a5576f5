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

/*
 * The counts-only path, one unit per lane.  An access of W >= bank_bytes
 * bytes is aligned to W, so it covers W/bank_bytes consecutive banks that
 * start at a multiple of W/bank_bytes: a bank group.  Every bank of a group
 * sees the same distinct units, so a phase costs the largest number of
 * distinct units in any group, and its distinct words are the distinct
 * units times W/bank_bytes.  Narrower accesses take one word per lane: then
 * unit = word and group = bank.
 *
 * Each group keeps a count and a 64-bit filter of its units' rows (row =
 * unit / groups, two 6-bit slices of it folded into a bit number): a unit
 * whose bit is clear is new for sure.
 * Only when the bit is set are the phase's earlier lanes searched for the
 * same unit; random accesses rarely get there, broadcasts always do, and
 * either way the branch is well predicted.  Needs banks and bank_bytes
 * powers of two and at most MAX_GROUPS groups; bs_predict takes the
 * general path otherwise.
 */
#define MAX_GROUPS 32

static int is_pow2(unsigned x)
{
	return x && !(x & (x - 1));
}

/* Does an active lane of [lo, l) of the access hold unit x? */
static int seen_before(const bs_access *a, uint32_t act, unsigned lo,
		       unsigned l, unsigned shift, uint32_t x)
{
	for (unsigned j = lo; j < l; j++)
		if ((act >> j & 1) && a->addr[j] >> shift == x)
			return 1;
	return 0;
}

static unsigned popcount32(uint32_t v)
{
	v = v - ((v >> 1) & 0x55555555u);
	v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
	return (((v + (v >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

/* Count lane l's unit into its group; returns 1 when it was a repeat. */
static inline unsigned count_lane(const bs_access *a, uint32_t act,
				  unsigned lo, unsigned l, unsigned shift,
				  unsigned gshift, uint32_t gmask,
				  uint64_t *filter, uint8_t *count)
{
	uint32_t x = a->addr[l] >> shift, g = x & gmask, row = x >> gshift;
	uint64_t bit = 1ull << ((row ^ (row >> 6)) & 63);

	if ((filter[g] & bit) && seen_before(a, act, lo, l, shift, x))
		return 1;
	filter[g] |= bit;
	count[g]++;
	return 0;
}

static void fast_counts(const bs_profile *p, const bs_access *a,
			unsigned width, bs_summary *s)
{
	unsigned ub = a->width > p->bank_bytes ? a->width : p->bank_bytes;
	unsigned wpu = ub / p->bank_bytes, groups = p->banks / wpu;
	unsigned shift = (unsigned)__builtin_ctz(ub);
	unsigned gshift = (unsigned)__builtin_ctz(groups);
	uint32_t gmask = groups - 1;
	uint64_t filter[MAX_GROUPS];
	uint8_t count[MAX_GROUPS];

	for (unsigned lo = 0; lo < BS_LANES; lo += width) {
		uint32_t mask = width == 32 ? UINT32_MAX
					    : ((1u << width) - 1) << lo;
		uint32_t act = a->active & mask;
		unsigned way = 0, dups = 0;

		if (!act)
			continue;
		memset(filter, 0, sizeof filter);
		memset(count, 0, sizeof count);
		if (act == mask) {
			for (unsigned l = lo; l < lo + width; l++)
				dups += count_lane(a, act, lo, l, shift, gshift,
						   gmask, filter, count);
		} else {
			for (uint32_t m = act; m; m &= m - 1)
				dups += count_lane(a, act, lo,
						   (unsigned)__builtin_ctz(m),
						   shift, gshift, gmask, filter,
						   count);
		}
		for (unsigned g = 0; g < MAX_GROUPS; g++)
			way = count[g] > way ? count[g] : way;
		s->phases++;
		s->wavefronts += way;
		s->ideal_wavefronts += ((popcount32(act) - dups) * wpu +
					p->banks - 1) / p->banks;
		if (way > s->max_way)
			s->max_way = way;
	}
}

int bs_predict(const bs_profile *p, const bs_access *a, bs_summary *out,
	       bs_error *err)
{
	uint32_t bits = 0;
	int wi = bs_width_index(a->width), packed;
	unsigned width;

	if (wi < 0 || (a->op != BS_LOAD && a->op != BS_STORE) ||
	    !is_pow2(p->banks) || !is_pow2(p->bank_bytes) ||
	    p->banks > MAX_GROUPS * (a->width > p->bank_bytes
				     ? a->width / p->bank_bytes : 1))
		return predict(p, a, out, NULL, err);
	/*
	 * An address aligned to the width cannot run past the 32-bit window;
	 * a misaligned one takes the general path, which names the lane.
	 */
	if (a->active == UINT32_MAX) {
		for (unsigned l = 0; l < BS_LANES; l++)
			bits |= a->addr[l];
	} else {
		for (unsigned l = 0; l < BS_LANES; l++)
			bits |= a->addr[l] & (0u - (a->active >> l & 1));
	}
	if (bits & (a->width - 1))
		return predict(p, a, out, NULL, err);
	width = phase_width(p, a, wi, &packed);
	memset(out, 0, sizeof *out);
	out->packed = packed;
	out->active_lanes = popcount32(a->active);
	fast_counts(p, a, width, out);
	out->bank_conflicts = out->wavefronts - out->ideal_wavefronts;
	out->latency_cycles = latency(p, a, wi, packed, out->wavefronts);
	return 0;
}

int bs_predict_detail(const bs_profile *p, const bs_access *a, bs_detail *out,
		      bs_error *err)
{
	return predict(p, a, &out->sum, out, err);
}
