/*
 * predict.c - from one warp access to wavefronts, conflicts and latency.
 *
 * An access is priced by the architecture's rule for its kind and width
 * (bs_arch_rule; an architecture without one is an error).  A bank-slot rule
 * cuts the warp into phases of its phase_lanes lanes, or of its
 * packed_lanes when the request is pairwise uniform under one of its
 * pack_partners (then it is packed).  In each phase every active lane
 * touches width/bank_bytes consecutive bank words (at least one); a bank
 * delivers one distinct word per slot, so the phase costs as many slots
 * as the busiest bank has distinct words, and a slot costs slot_waves
 * wavefronts.  Lanes that want the same word share it (multicast) at no
 * cost, unless same_word=serial serves each on its own.  The access costs
 * the sum over phases; the ideal is what the phases would cost if no bank
 * had to deliver twice: ceil(distinct words / banks) slots per phase, or
 * with ideal=lanes ceil(active lanes x words per lane / banks).  Bank
 * conflicts are the slots beyond the ideal; the latency is lat_base (or
 * lat_packed when packed) + lat_slope x wavefronts.  A retry-loop rule
 * (loop=cas, predict_loop) and a copy by lines (copy=lines, copy.c)
 * are priced their own way.  bs_predict counts the common rules on a
 * counts-only path (described below, before it); bs_predict_detail and
 * the other rules walk per-bank lists.
 */
#include <math.h>
#include <string.h>

#include "bs_model.h"
#include "model.h"

/* SSE2 is part of x86-64; other targets take the plain loops. */
#if defined(__SSE2__) && !defined(BS_NO_SIMD)
#include <emmintrin.h>
#define USE_SSE2 1
#endif

int bs_access_check(const bs_access *a, bs_error *err)
{
	const bs_kind_info *k = bs_kind_get(a->kind);
	uint32_t outside;

	if (bs_kind_check_width(a->kind, a->width, a->name, err) < 0)
		return -1;
	outside = a->active & ~k->addr_lanes;
	if (outside)
		return bs_error_set(err, a->name, 0, 0, "lane %d: %s takes "
				    "addresses from lanes 0-%d only",
				    __builtin_ctz(outside), k->name,
				    31 - __builtin_clz(k->addr_lanes));
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

/* The architecture's rule for the access, or NULL with err. */
static const bs_rule *rule_for(const bs_arch *p, const bs_access *a,
			       bs_error *err)
{
	const bs_rule *r = bs_arch_rule(p, a->kind, a->width);

	if (!r)
		bs_error_set(err, a->name, 0, 0, "arch %s does not model "
			     "%u-byte %s accesses (bankscope archs %s lists "
			     "what it does)", p->name, a->width,
			     bs_kind_name(a->kind), p->name);
	return r;
}

/* x with the bit of each lane l moved to lane l ^ m (m < 32). */
static uint32_t partner_bits(uint32_t x, unsigned m)
{
	static const uint32_t keep[5] = { 0x55555555u, 0x33333333u,
					  0x0f0f0f0fu, 0x00ff00ffu,
					  0x0000ffffu };

	for (unsigned b = 0; b < 5; b++)
		if (m >> b & 1)
			x = (x >> (1u << b) & keep[b]) |
			    (x & keep[b]) << (1u << b);
	return x;
}

#ifdef USE_SSE2
/* The four lanes of v reordered so that lane j holds lane j ^ (m & 3). */
static inline __m128i xor_lanes(__m128i v, unsigned m)
{
	switch (m & 3) {
	case 1: return _mm_shuffle_epi32(v, 0xb1);
	case 2: return _mm_shuffle_epi32(v, 0x4e);
	case 3: return _mm_shuffle_epi32(v, 0x1b);
	}
	return v;
}
#endif

int bs_pairwise_uniform(const bs_access *a, unsigned m)
{
	uint32_t both;

	if (m == 0 || m >= BS_LANES)
		return 0;
	/* the lanes that are active and whose partner is active too */
	both = a->active == UINT32_MAX ? UINT32_MAX
				       : a->active & partner_bits(a->active, m);
#ifdef USE_SSE2
	/* four lanes at a time; a random request fails on the first four */
	for (unsigned i = 0; i < BS_LANES / 4; i++) {
		__m128i v, w;
		uint32_t eq;

		if (!(both >> 4 * i & 15))
			continue;
		v = _mm_loadu_si128((const __m128i *)&a->addr[4 * i]);
		w = _mm_loadu_si128((const __m128i *)
				    &a->addr[4 * (i ^ (m >> 2))]);
		eq = (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(
			_mm_cmpeq_epi32(v, xor_lanes(w, m))));
		if (both >> 4 * i & ~eq & 15)
			return 0;
	}
#else
	for (unsigned l = 0; l < BS_LANES; l++)
		if ((both >> l & 1) && a->addr[l] != a->addr[l ^ m])
			return 0;
#endif
	return 1;
}

/* Phase width for this access under its rule; sets *packed. */
static inline __attribute__((always_inline))
unsigned phase_width(const bs_rule *r, const bs_access *a, int *packed)
{
	*packed = 0;
	if (r->packed_lanes) {
		for (uint32_t m = r->pack_partners; m; m &= m - 1)
			if (bs_pairwise_uniform(a, (unsigned)__builtin_ctz(m))) {
				*packed = 1;
				return r->packed_lanes;
			}
	}
	return r->phase_lanes;
}

double model_latency(const bs_rule *r, int packed, unsigned wavefronts)
{
	double base = packed ? r->lat_packed : r->lat_base;

	/* No wavefront (no lane active): nothing to wait for, where the
	 * rule has a latency at all; a kind without one has none still. */
	if (wavefronts == 0)
		return isnan(base) ? NAN : 0.0;
	return base + r->lat_slope * wavefronts;   /* NaN when not modeled */
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
 * its distinct word count in *words.  Under a serial rule no two lanes
 * share an entry: every lane's word is a word of its own to deliver.
 */
static unsigned walk_phase(const bs_arch *p, const bs_access *a,
			   uint32_t active, unsigned words_per_lane,
			   int serial, bank_lists *b, unsigned *words)
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
			unsigned n = b->count[bank], i = n;

			if (!serial)
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

static int predict(const bs_arch *p, const bs_access *a, bs_summary *s,
		   bs_detail *d, bs_error *err);
static int predict_slots(const bs_arch *p, const bs_access *a,
			 const bs_rule *r, bs_summary *s, bs_detail *d,
			 int nopack);

/*
 * A loop rule (BS_LOOP_CAS, bs_model.h): the retry loop pass by pass.
 * Each pass the pending lanes load (the architecture's ld rule of the width);
 * then in each phase of the rule, lane by lane from the lowest, the first
 * pending lane of every bank group tries, and succeeds unless a lane of
 * a lower phase stored to its word in this pass.  The lowest pending lane
 * of the lowest phase always succeeds, so at most 32 passes.  d (may be
 * NULL) gets the passes and the first pass's load map.
 */
static int predict_loop(const bs_arch *p, const bs_access *a,
			const bs_rule *r, bs_summary *s, bs_detail *d,
			bs_error *err)
{
	const bs_rule *ld = bs_arch_rule(p, BS_KIND_LD, a->width);
	unsigned plen = r->phase_lanes ? r->phase_lanes : BS_LANES;
	unsigned slot = r->slot_waves ? r->slot_waves : 1;
	unsigned wpl = a->width > p->bank_bytes ? a->width / p->bank_bytes : 1;
	unsigned groups = p->banks / wpl ? p->banks / wpl : 1;
	uint32_t pmask = plen >= BS_LANES ? UINT32_MAX : (1u << plen) - 1;
	uint32_t pending = a->active;
	bs_access la = *a;
	bs_summary ls;

	if (!ld)
		return bs_error_set(err, a->name, 0, 0, "arch %s models "
				    "%u-byte %s as a loop of loads and "
				    "compare-and-stores, and has no rule for "
				    "its loads (%u-byte ld)", p->name,
				    a->width, bs_kind_name(a->kind),
				    a->width);
	memset(s, 0, sizeof *s);
	s->active_lanes = (unsigned)__builtin_popcount(a->active);
	if (d)
		d->npasses = 0;
	la.kind = BS_KIND_LD;
	while (pending) {
		uint32_t done = 0, wrote[BS_LANES];
		unsigned nwrote = 0, cas = 0;

		la.active = pending;
		/*
		 * The loop's load packs only when, packed, it takes one
		 * wavefront: on the H100 and H200 a request the ld rule packs
		 * into more is served in phases, also in the first pass on a
		 * full warp.  Without this, 3 of the 88 atom.add.u64 rows of
		 * each nine-family run and 7 of the exploration's 106 come out
		 * one to three load wavefronts short; with it all agree, and
		 * so do the 48 drawn after (data/h100-sxm/holdout-20261124/).
		 * A standalone LDS.64 of the same lanes packs into several
		 * (data/h200/sparse-ld-20261124/); why the loop's does not is
		 * not known.
		 */
		if (predict_slots(p, &la, ld, &ls, d && !s->passes ? d : NULL,
				  0) < 0 ||
		    (ls.packed && ls.wavefronts > 1 &&
		     predict_slots(p, &la, ld, &ls, d && !s->passes ? d : NULL,
				   1) < 0))
			return -1;
		if (!s->passes) {
			s->packed = ls.packed;
			s->ideal_wavefronts = ls.ideal_wavefronts;
		}
		s->load_wavefronts += ls.wavefronts;
		if (ls.max_way > s->max_way)
			s->max_way = ls.max_way;
		for (unsigned lo = 0; lo < BS_LANES; lo += plen) {
			uint32_t ph = pending & pmask << lo;
			uint64_t tried = 0;
			unsigned lower = nwrote;   /* words of lower phases */

			if (!ph)
				continue;
			cas++;
			while (ph) {
				unsigned l = (unsigned)__builtin_ctz(ph), i;
				uint32_t unit = a->addr[l] / a->width;
				unsigned g = a->addr[l] / p->bank_bytes %
					     p->banks / wpl % groups;

				ph &= ph - 1;
				if (tried >> g & 1)
					continue;
				tried |= 1ull << g;
				for (i = 0; i < lower; i++)
					if (wrote[i] == unit)
						break;
				if (i < lower)
					continue;
				done |= 1u << l;
				wrote[nwrote++] = unit;
			}
		}
		if (!s->passes) {
			s->phases = cas;
			s->ideal_wavefronts += cas * slot;
		}
		s->cas_wavefronts += cas * slot;
		if (d)
			d->pass[d->npasses++] = (bs_pass){
				.pending = pending, .done = done,
				.load_wavefronts = ls.wavefronts,
				.cas_phases = cas, .cas_wavefronts = cas * slot };
		s->passes++;
		pending &= ~done;
	}
	s->wavefronts = s->load_wavefronts + s->cas_wavefronts;
	s->bank_conflicts = s->wavefronts > s->ideal_wavefronts
		? s->wavefronts - s->ideal_wavefronts : 0;
	s->latency_cycles = model_latency(r, 0, s->wavefronts);
	return 0;
}


static int predict_slots(const bs_arch *p, const bs_access *a,
			 const bs_rule *r, bs_summary *s, bs_detail *d,
			 int nopack);

/* Shared by both entry points; d may be NULL (counts only). */
static int predict(const bs_arch *p, const bs_access *a, bs_summary *s,
		   bs_detail *d, bs_error *err)
{
	const bs_rule *r;

	if (bs_access_check(a, err) < 0 || !(r = rule_for(p, a, err)))
		return -1;
	if (r->remote) {
		if (d)
			memset(d, 0, sizeof *d);
		if (bs_remote_predict(r, a, s) < 0)
			return bs_error_set(err, a->name, 0, 0, "the access "
					    "runs past 4 GiB");
		return 0;
	}
	if (r->loop)
		return predict_loop(p, a, r, s, d, err);
	if (r->copy == BS_COPY_LINES)
		return model_predict_copy(p, a, r, s, d, err);
	return predict_slots(p, a, r, s, d, 0);
}

/*
 * copy=words: the most active lanes of act on one 4-byte word of their
 * sources' 128-byte windows (bs_model.h, BS_COPY_WORDS); 1 without
 * sources.
 */
static unsigned source_way(const bs_access *a, uint32_t act)
{
	unsigned char n[32] = { 0 };
	unsigned way = 1, wpl = a->width / 4;

	if (!a->src)
		return 1;
	for (uint32_t m = act; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);

		for (unsigned w = 0; w < wpl; w++) {
			unsigned k = (a->src[l] % 128 / 4 + w) % 32;

			if (++n[k] > way)
				way = n[k];
		}
	}
	return way;
}

/* The bank-slot rules: phases, bank lists, slots; nopack: as if the
 * rule never packed. */
static int predict_slots(const bs_arch *p, const bs_access *a,
			 const bs_rule *r, bs_summary *s, bs_detail *d,
			 int nopack)
{
	bank_lists b;
	unsigned width, nph, wpl, slot;
	int packed;

	if (d) {
		d->npasses = 0;
		d->copy = 0;
	}
	if (nopack) {
		packed = 0;
		width = r->phase_lanes;
	} else
		width = phase_width(r, a, &packed);
	slot = r->slot_waves ? r->slot_waves : 1;
	nph = BS_LANES / width;
	wpl = a->width > p->bank_bytes ? a->width / p->bank_bytes : 1;

	memset(s, 0, sizeof *s);
	s->packed = packed;
	s->active_lanes = (unsigned)__builtin_popcount(a->active);
	if (d) {
		d->nphases = nph;
		d->ncells = 0;
		d->serial = r->same_word == BS_SAME_WORD_SERIAL;
	}
	for (unsigned ph = 0; ph < nph; ph++) {
		uint32_t mask = width == 32 ? UINT32_MAX
					    : ((1u << width) - 1) << (ph * width);
		uint32_t act = a->active & mask;
		unsigned words = 0, way = 0, extra = 0;

		if (act) {
			unsigned need = r->ideal == BS_IDEAL_LANES
				? (unsigned)__builtin_popcount(act) * wpl : 0;

			way = walk_phase(p, a, act, wpl,
					 r->same_word == BS_SAME_WORD_SERIAL,
					 &b, &words);
			if (r->copy == BS_COPY_WORDS)
				extra = source_way(a, act) - 1;
			if (r->ideal != BS_IDEAL_LANES)
				need = words;
			s->phases++;
			s->wavefronts += (way + extra) * slot;
			s->ideal_wavefronts += (need + p->banks - 1) / p->banks *
					       slot;
			if (way > s->max_way)
				s->max_way = way;
		}
		if (!d)
			continue;
		d->phase[ph] = (bs_phase){ .lanes = mask, .active = act,
					   .slots = way,
					   .waits = extra,
					   .wavefronts = (way + extra) * slot,
					   .words = words,
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
	/* an ideal by lanes can exceed what multicast achieves: no conflict */
	s->bank_conflicts = s->wavefronts > s->ideal_wavefronts
		? (s->wavefronts - s->ideal_wavefronts) / slot : 0;
	s->latency_cycles = model_latency(r, packed, s->wavefronts);
	return 0;
}

/*
 * The counts-only path (bs_predict), one unit per lane.  An access of
 * W >= bank_bytes bytes is aligned to W, so it covers W/bank_bytes
 * consecutive banks that start at a multiple of W/bank_bytes: a bank
 * group.  Every bank of a group sees the same distinct units, so a phase
 * costs the largest number of distinct units in any group, and its
 * distinct words are its distinct units times W/bank_bytes.  Narrower
 * accesses take one word per lane: then unit = word and group = bank.
 *
 * Every lane gets a key, its unit modulo KEY_SLOTS, and a bin, phase *
 * groups + group.  Each phase is counted in two sweeps over its lanes
 * through a byte table indexed by key, on the stack:
 *
 *   1. every lane writes its lane number into slot[key]; then each slot
 *      holds the last lane of the phase with that key;
 *   2. every lane that finds its own number there adds one to its bin.
 *
 * When different units of a phase have different keys, each distinct unit
 * is so counted once, in its group.  That is sure when the access's units
 * agree above their low log2(KEY_SLOTS) bits, which the OR and the AND of
 * the addresses tell; otherwise sweep 2 also checks that the lane holding
 * its slot wants the same unit, and an access where two units met in a
 * slot (rare) takes the general path.
 *
 * The table is never cleared: a lane reads only the slot it wrote in the
 * same phase, and the phases are swept one after another.  No branch
 * depends on the addresses, so broadcasts, multicasts and random requests
 * cost the same.  A phase's wavefronts are then its largest bin, its
 * distinct words the sum of its bins times W/bank_bytes.  The bins are
 * kept in COPIES copies, lane l counting into copy l % COPIES, so that
 * lanes of one bank do not wait on one another's increments.  An inactive
 * lane takes the address of an active lane of its phase: a unit the phase
 * counts anyway.
 *
 * With SSE2 (every x86-64), the keys and bins, the OR and the AND, the
 * inactive lanes' addresses, the pairwise-uniform test and the bins'
 * maxima and sums take four lanes at a time; elsewhere plain loops do the
 * same.  The general path takes misaligned accesses (it names the lane),
 * accesses with no active lane, and architectures whose banks or bank width
 * are not powers of two, whose phases are not a power of two of at least
 * COPIES lanes, or that would need more than MAX_BINS bins.
 */
#define KEY_SLOTS 16384         /* a lane's key: its unit modulo this */
#define MAX_BINS BS_LANES       /* phases x groups: at most a group a lane */
#define COPIES 4

/* The sizes of the counting, as log2 of each. */
typedef struct {
	unsigned unit;          /* bytes of a unit: it is address >> unit */
	unsigned wpu;           /* bank words per unit */
	unsigned groups;        /* bank groups */
	unsigned plen;          /* lanes per phase */
	unsigned banks;
} lane_shape;

typedef struct {
	_Alignas(16) uint32_t key[BS_LANES];   /* unit % KEY_SLOTS */
	_Alignas(16) uint32_t bin[BS_LANES];   /* group (the phase is added) */
} lane_keys;

typedef struct {
	_Alignas(16) uint8_t n[COPIES][MAX_BINS];   /* [copy][phase x group] */
} bin_copies;

static int is_pow2(unsigned x)
{
	return x && !(x & (x - 1));
}

static unsigned log2u(unsigned x)
{
	return (unsigned)__builtin_ctz(x);
}

static unsigned popcount32(uint32_t v)
{
	v = v - ((v >> 1) & 0x55555555u);
	v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
	return (((v + (v >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

/*
 * Every lane's key and bin from its address; returns the OR of the
 * addresses in *any and their AND in *every.
 */
static inline __attribute__((always_inline))
void plan_lanes(const uint32_t *addr, lane_shape sh, lane_keys *k,
		uint32_t *any, uint32_t *every)
{
#ifdef USE_SSE2
	const __m128i ushift = _mm_cvtsi32_si128((int)sh.unit);
	const __m128i kmask = _mm_set1_epi32(KEY_SLOTS - 1);
	const __m128i gmask = _mm_set1_epi32((int)((1u << sh.groups) - 1));
	__m128i vor = _mm_setzero_si128(), vand = _mm_set1_epi32(-1);

#pragma GCC unroll 8
	for (unsigned i = 0; i < BS_LANES / 4; i++) {
		__m128i ad = _mm_loadu_si128((const __m128i *)&addr[4 * i]);
		__m128i u = _mm_srl_epi32(ad, ushift);

		vor = _mm_or_si128(vor, ad);
		vand = _mm_and_si128(vand, ad);
		_mm_store_si128((__m128i *)&k->key[4 * i],
				_mm_and_si128(u, kmask));
		_mm_store_si128((__m128i *)&k->bin[4 * i],
				_mm_and_si128(u, gmask));
	}
	vor = _mm_or_si128(vor, _mm_shuffle_epi32(vor, 0x4e));
	vor = _mm_or_si128(vor, _mm_shuffle_epi32(vor, 0xb1));
	vand = _mm_and_si128(vand, _mm_shuffle_epi32(vand, 0x4e));
	vand = _mm_and_si128(vand, _mm_shuffle_epi32(vand, 0xb1));
	*any = (uint32_t)_mm_cvtsi128_si32(vor);
	*every = (uint32_t)_mm_cvtsi128_si32(vand);
#else
	uint32_t o = 0, n = UINT32_MAX;

	for (unsigned l = 0; l < BS_LANES; l++) {
		uint32_t u = addr[l] >> sh.unit;

		o |= addr[l];
		n &= addr[l];
		k->key[l] = u & (KEY_SLOTS - 1);
		k->bin[l] = u & ((1u << sh.groups) - 1);
	}
	*any = o;
	*every = n;
#endif
}

/*
 * a's addresses with every inactive lane given the address of an active
 * lane of its phase, a unit the phase counts anyway (or, in a phase with
 * no active lane, of any active lane: such a phase is not counted).  No
 * branch on the lanes: random masks would mispredict half of them.
 */
static void fill_inactive(const bs_access *a, unsigned plen, uint32_t *addr)
{
	uint32_t any = a->addr[__builtin_ctz(a->active)];
	uint32_t pmask = UINT32_MAX >> (BS_LANES - plen);

	for (unsigned lo = 0; lo < BS_LANES; lo += plen) {
		uint32_t act = a->active >> lo & pmask;
		uint32_t fill = act ? a->addr[lo + (unsigned)__builtin_ctz(act)]
				    : any;
#ifdef USE_SSE2
		/* plen is a multiple of 4: vectors of 4 lanes, one phase */
		const __m128i lane_bit = _mm_setr_epi32(1, 2, 4, 8);
		const __m128i vfill = _mm_set1_epi32((int)fill);

		for (unsigned l = lo; l < lo + plen; l += 4) {
			__m128i on = _mm_set1_epi32((int)(a->active >> l));
			__m128i x = _mm_loadu_si128(
				(const __m128i *)&a->addr[l]);

			on = _mm_cmpeq_epi32(_mm_and_si128(on, lane_bit),
					     lane_bit);
			_mm_storeu_si128((__m128i *)&addr[l], _mm_or_si128(
				_mm_and_si128(on, x),
				_mm_andnot_si128(on, vfill)));
		}
#else
		for (unsigned l = lo; l < lo + plen; l++) {
			uint32_t on = 0u - (a->active >> l & 1);

			addr[l] = (a->addr[l] & on) | (fill & ~on);
		}
#endif
	}
}

/*
 * The two sweeps over every phase of plen lanes: each phase's distinct
 * units into its bins.  Inlined for each common phase length, so that the
 * loops unroll into straight code with the lane numbers as constants.
 *
 * With addr (units that may share a key), every lane also checks that the
 * lane holding its slot wants the same unit, address >> shift: the OR of
 * the differences it returns is 0 when no two units of a phase met in a
 * slot, that is when the counts are right.
 */
static inline __attribute__((always_inline))
uint32_t sweep_phases(const lane_keys *k, unsigned plen, unsigned groups,
		      bin_copies *b, const uint32_t *addr)
{
	uint8_t slot[KEY_SLOTS];
	uint32_t clash = 0;

	/*
	 * Each sweep loads the keys from k: cheaper than taking them out of
	 * vector registers or keeping 32 of them in general ones, which the
	 * compiler would do without these barriers.
	 */
	__asm__ volatile("" ::: "memory");
#pragma GCC unroll 4
	for (unsigned lo = 0; lo < BS_LANES; lo += plen) {
		unsigned base = lo / plen * groups;   /* the phase's bins */

#pragma GCC unroll 32
		for (unsigned l = lo; l < lo + plen; l++)
			slot[k->key[l]] = (uint8_t)l;
		__asm__ volatile("" ::: "memory");
		/*
		 * A slot holds the last of the lanes that wrote it, so never
		 * less than l: "<= l" is "== l" (and compiles shorter).
		 */
#pragma GCC unroll 32
		for (unsigned l = lo; l < lo + plen; l++) {
			unsigned last = slot[k->key[l]];

			b->n[l % COPIES][base + k->bin[l]] += last <= l;
			if (addr)
				clash |= addr[last] ^ addr[l];
		}
	}
	return clash;
}

/* sweep_phases for the phase length of sh; returns the clashes. */
static inline __attribute__((always_inline))
uint32_t count_units(const lane_keys *k, lane_shape sh, bin_copies *b,
		     const uint32_t *addr)
{
	unsigned groups = 1u << sh.groups;

	if (addr)
		return sweep_phases(k, 1u << sh.plen, groups, b, addr) >>
		       sh.unit;
	switch (sh.plen) {
	case 5: return sweep_phases(k, 32, groups, b, NULL);
	case 4: return sweep_phases(k, 16, groups, b, NULL);
	case 3: return sweep_phases(k, 8, groups, b, NULL);
	}
	return sweep_phases(k, 1u << sh.plen, groups, b, NULL);
}

/*
 * Each phase's largest bin, its wavefronts, into way[phase], and the sum of
 * its bins, its distinct units, into units[phase].
 */
static void reduce_bins(const bin_copies *b, lane_shape sh, unsigned *way,
			unsigned *units)
{
	unsigned groups = 1u << sh.groups, nph = BS_LANES >> sh.plen;

#ifdef USE_SSE2
	if (groups == MAX_BINS) {
		/* one phase of all the bins: the largest and the sum */
		__m128i t[2], m, s;

		for (unsigned h = 0; h < 2; h++) {
			t[h] = _mm_load_si128((const __m128i *)&b->n[0][16 * h]);
			for (unsigned c = 1; c < COPIES; c++)
				t[h] = _mm_add_epi8(t[h], _mm_load_si128(
					(const __m128i *)&b->n[c][16 * h]));
		}
		s = _mm_add_epi64(_mm_sad_epu8(t[0], _mm_setzero_si128()),
				  _mm_sad_epu8(t[1], _mm_setzero_si128()));
		m = _mm_max_epu8(t[0], t[1]);
		m = _mm_max_epu8(m, _mm_srli_si128(m, 8));
		m = _mm_max_epu8(m, _mm_srli_si128(m, 4));
		m = _mm_max_epu8(m, _mm_srli_si128(m, 2));
		m = _mm_max_epu8(m, _mm_srli_si128(m, 1));
		way[0] = (unsigned)_mm_cvtsi128_si32(m) & 255;
		units[0] = (unsigned)_mm_cvtsi128_si32(
			_mm_add_epi64(s, _mm_srli_si128(s, 8)));
		return;
	}
	if (groups >= 8) {
		/*
		 * 8 or 16 bins a phase, in t[0] (bins 0..15) and t[1]
		 * (16..31): the largest of each phase's bins ends up in its
		 * first byte, their sum in the first of its 64-bit lanes.
		 */
		_Alignas(16) uint8_t most[MAX_BINS];
		_Alignas(16) uint64_t sum[MAX_BINS / 8];
		__m128i t[2], s[2];

		for (unsigned h = 0; h < 2; h++) {
			t[h] = _mm_load_si128((const __m128i *)&b->n[0][16 * h]);
			for (unsigned c = 1; c < COPIES; c++)
				t[h] = _mm_add_epi8(t[h], _mm_load_si128(
					(const __m128i *)&b->n[c][16 * h]));
			s[h] = _mm_sad_epu8(t[h], _mm_setzero_si128());
			t[h] = _mm_max_epu8(t[h], _mm_srli_epi64(t[h], 32));
			t[h] = _mm_max_epu8(t[h], _mm_srli_epi64(t[h], 16));
			t[h] = _mm_max_epu8(t[h], _mm_srli_epi64(t[h], 8));
			if (groups >= 16) {
				t[h] = _mm_max_epu8(t[h],
						    _mm_srli_si128(t[h], 8));
				s[h] = _mm_add_epi64(s[h],
						     _mm_srli_si128(s[h], 8));
			}
		}
		_mm_store_si128((__m128i *)&most[0], t[0]);
		_mm_store_si128((__m128i *)&most[16], t[1]);
		_mm_store_si128((__m128i *)&sum[0], s[0]);
		_mm_store_si128((__m128i *)&sum[2], s[1]);
		for (unsigned ph = 0; ph < nph; ph++) {
			way[ph] = most[ph * groups];
			units[ph] = (unsigned)sum[ph * groups / 8];
		}
		return;
	}
#endif
	for (unsigned ph = 0; ph < nph; ph++) {
		way[ph] = units[ph] = 0;
		for (unsigned bin = ph * groups; bin < (ph + 1) * groups;
		     bin++) {
			unsigned n = 0;

			for (unsigned c = 0; c < COPIES; c++)
				n += b->n[c][bin];
			way[ph] = n > way[ph] ? n : way[ph];
			units[ph] += n;
		}
	}
}

int bs_predict(const bs_arch *p, const bs_access *a, bs_summary *out,
	       bs_error *err)
{
	unsigned wbits, bbits, nph, way[BS_LANES / COPIES];
	unsigned units[BS_LANES / COPIES];
	unsigned phases = 0, waves = 0, ideal = 0, max_way = 0;
	uint32_t any, every, pmask, filled[BS_LANES];
	const uint32_t *addr = a->addr;
	lane_shape sh;
	lane_keys k;
	bin_copies bins;
	const bs_rule *r;
	const bs_kind_info *ki;
	int packed;

	/*
	 * The general path names what is wrong with an access, and takes
	 * the rules this path does not count: serial words, ideal by lanes,
	 * slots of several wavefronts.
	 */
	r = bs_arch_rule(p, a->kind, a->width);
	ki = bs_kind_get(a->kind);
	if (!r || !ki || (a->active & ~ki->addr_lanes) || !a->active ||
	    r->same_word != BS_SAME_WORD_SHARE || r->ideal != BS_IDEAL_WORDS ||
	    r->slot_waves > 1 || r->loop || r->copy || r->remote ||
	    !is_pow2(p->banks) || !is_pow2(p->bank_bytes))
		return predict(p, a, out, NULL, err);
	wbits = log2u(a->width);
	bbits = log2u(p->bank_bytes);
	sh.banks = log2u(p->banks);
	sh.unit = wbits > bbits ? wbits : bbits;
	sh.wpu = sh.unit - bbits;
	sh.plen = phase_width(r, a, &packed);
	if (sh.wpu > sh.banks || !is_pow2(sh.plen) || sh.plen < COPIES ||
	    sh.plen > BS_LANES)
		return predict(p, a, out, NULL, err);
	sh.plen = log2u(sh.plen);
	nph = BS_LANES >> sh.plen;
	sh.groups = sh.banks - sh.wpu;
	/* phases x groups <= MAX_BINS = lanes: groups <= lanes per phase */
	if (sh.groups > sh.plen)
		return predict(p, a, out, NULL, err);
	if (a->active != UINT32_MAX) {
		fill_inactive(a, 1u << sh.plen, filled);
		addr = filled;
	}
	plan_lanes(addr, sh, &k, &any, &every);
	/*
	 * An address aligned to the width cannot run past the 32-bit window;
	 * a misaligned one takes the general path, which names the lane.
	 */
	if (any & (a->width - 1))
		return predict(p, a, out, NULL, err);
#ifdef USE_SSE2
	/* (a plain loop or memset becomes a slow "rep stos") */
#pragma GCC unroll 16
	for (unsigned i = 0; i < sizeof bins / 16; i++)
		_mm_store_si128((__m128i *)&bins.n[0][0] + i,
				_mm_setzero_si128());
#else
	memset(&bins, 0, sizeof bins);
#endif
	/*
	 * Units that agree above their low log2(KEY_SLOTS) bits have distinct
	 * keys; others are checked, and two that meet in a slot (rare) send
	 * the access to the general path.
	 */
	if ((any ^ every) >> sh.unit < KEY_SLOTS)
		count_units(&k, sh, &bins, NULL);
	else if (count_units(&k, sh, &bins, addr))
		return predict(p, a, out, NULL, err);
	reduce_bins(&bins, sh, way, units);

	pmask = UINT32_MAX >> (BS_LANES - (1u << sh.plen));
	for (unsigned ph = 0; ph < nph; ph++) {
		if (!(a->active >> (ph << sh.plen) & pmask))
			continue;
		phases++;
		waves += way[ph];
		ideal += ((units[ph] << sh.wpu) + (1u << sh.banks) - 1) >>
			 sh.banks;
		max_way = way[ph] > max_way ? way[ph] : max_way;
	}
	out->active_lanes = a->active == UINT32_MAX ? BS_LANES
						 : popcount32(a->active);
	out->wavefronts = waves;
	out->ideal_wavefronts = ideal;
	out->bank_conflicts = waves - ideal;
	out->max_way = max_way;
	out->phases = phases;
	out->packed = packed;
	out->passes = out->load_wavefronts = out->cas_wavefronts = 0;
	out->sectors = out->lines = 0;     /* a bank rule's: none */
	out->latency_cycles = model_latency(r, packed, waves);
	return 0;
}

unsigned bs_counters_differ(double wavefronts, double conflicts,
			    const bs_summary *s)
{
	unsigned d = 0;

	if (!(fabs(wavefronts - s->wavefronts) <= BS_COUNT_TOL))
		d |= BS_DIFFER_WAVEFRONTS;
	if (!isnan(conflicts) &&
	    !(fabs(conflicts - s->bank_conflicts) <= BS_COUNT_TOL))
		d |= BS_DIFFER_CONFLICTS;
	return d;
}

unsigned bs_sectors_differ(double sectors, const bs_summary *s)
{
	if (isnan(sectors) || fabs(sectors - s->sectors) <= BS_COUNT_TOL)
		return 0;
	return BS_DIFFER_SECTORS;
}

int bs_predict_detail(const bs_arch *p, const bs_access *a, bs_detail *out,
		      bs_error *err)
{
	return predict(p, a, &out->sum, out, err);
}
