/*
 * search.c - calibrate's rule space and its search: the candidate rules
 * simplest first, how a candidate is judged on a group of distinct
 * accesses (its wavefronts, its counters as check judges them), the best
 * rule of a group, and the rules the rows leave open.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate.h"

/* ---- candidates --------------------------------------------------------- */

const geometry calib_geometries[CALIB_NGEOM] = {
	{ 32, 4 }, { 16, 4 }, { 64, 4 }, { 32, 8 }, { 16, 8 },
};

/* Partner sets, fewest and smallest first. */
static uint32_t partner_sets[31];
static unsigned npartner_sets;

static void make_partner_sets(void)
{
	if (npartner_sets)
		return;
	for (int bits = 1; bits <= 5; bits++)
		for (unsigned s = 1; s < 32; s++)
			if (__builtin_popcount(s) == bits) {
				uint32_t set = 0;

				for (unsigned b = 0; b < 5; b++)
					if (s >> b & 1)
						set |= 1u << (1u << b);
				partner_sets[npartner_sets++] = set;
			}
}

/*
 * Candidate i of the wavefront rules, simplest first: shared words before
 * serial, a bank slot of one wavefront before two, then for each phase
 * width 32 down to 1, no packing, then for each wider packed phase the
 * partner sets.  For an atomic (extra & 1), the retry loops come last: a
 * slot of one wavefront before two, phases of 32 down to 1; for a 16-byte
 * write (extra & 2), copy=lines last of all.  0 past the last.
 */
static int candidate(unsigned i, bs_rule *r, unsigned extra)
{
	static const unsigned phases[] = { 32, 16, 8, 4, 2, 1 };

	make_partner_sets();
	r->loop = BS_LOOP_NONE;
	r->copy = BS_COPY_NONE;
	for (unsigned sw = 0; sw < 2; sw++)
		for (unsigned slot = 1; slot <= 2; slot++)
			for (unsigned p = 0; p < 6; p++) {
				unsigned P = phases[p];

				r->same_word = (uint8_t)sw;
				r->slot_waves = (uint8_t)slot;
				r->phase_lanes = (uint8_t)P;
				if (!i--) {
					r->packed_lanes = 0;
					r->pack_partners = 0;
					return 1;
				}
				for (unsigned Q = 2 * P; Q <= 32; Q *= 2)
					for (unsigned k = 0; k < npartner_sets;
					     k++)
						if (!i--) {
							r->packed_lanes =
								(uint8_t)Q;
							r->pack_partners =
								partner_sets[k];
							return 1;
						}
			}
	if (extra & 1)
		for (unsigned slot = 1; slot <= 2; slot++)
			for (unsigned p = 0; p < 6; p++)
				if (!i--) {
					r->loop = BS_LOOP_CAS;
					r->same_word = BS_SAME_WORD_SHARE;
					r->slot_waves = (uint8_t)slot;
					r->phase_lanes = (uint8_t)phases[p];
					r->packed_lanes = 0;
					r->pack_partners = 0;
					return 1;
				}
	if ((extra & 2) && !i--) {
		r->copy = BS_COPY_LINES;
		r->same_word = BS_SAME_WORD_SHARE;
		r->slot_waves = 1;
		r->phase_lanes = 8;
		r->packed_lanes = 0;
		r->pack_partners = 0;
		return 1;
	}
	return 0;
}

void calib_rule_text(const bs_rule *r, char *buf, size_t size)
{
	size_t n;

	if (r->remote) {   /* sectors, no bank keys */
		snprintf(buf, size, "rule %s %u remote=%s",
			 bs_kind_name(r->kind), r->width,
			 bs_remote_name(r->remote));
		return;
	}
	n = (size_t)snprintf(buf, size, "rule %s %u phase=%u",
			     bs_kind_name(r->kind), r->width, r->phase_lanes);

	if (r->packed_lanes && n < size) {
		n += (size_t)snprintf(buf + n, size - n, " packed=%u partners=",
				      r->packed_lanes);
		for (unsigned m = 1, k = 0; m < 32 && n < size; m++)
			if (r->pack_partners >> m & 1)
				n += (size_t)snprintf(buf + n, size - n, "%s%u",
						      k++ ? "," : "", m);
	}
	if (r->same_word && n < size)
		n += (size_t)snprintf(buf + n, size - n, " same_word=serial");
	if (r->slot_waves > 1 && n < size)
		n += (size_t)snprintf(buf + n, size - n, " slot_waves=%u",
				      r->slot_waves);
	if (r->ideal && n < size)
		n += (size_t)snprintf(buf + n, size - n, " ideal=lanes");
	if (r->loop && n < size)
		n += (size_t)snprintf(buf + n, size - n, " loop=%s",
				      bs_loop_name(r->loop));
	if (r->copy && n < size)
		snprintf(buf + n, size - n, " copy=%s", bs_copy_name(r->copy));
}

/* The ld rule a loop rule's loads need, from what is derived so far. */
static void add_loads(const group *g, bs_arch *p, const bs_rule *r)
{
	const bs_rule *ld;

	if (r->loop && g->built &&
	    (ld = bs_arch_rule(g->built, BS_KIND_LD, r->width)))
		bs_arch_set_rule(p, ld, NULL);
}

void calib_one_rule(group *g, const geometry *geo, const bs_rule *r)
{
	bs_arch_init(&g->scratch);
	g->scratch.banks = geo->banks;
	g->scratch.bank_bytes = geo->bank_bytes;
	snprintf(g->scratch.name, sizeof g->scratch.name, "candidate");
	add_loads(g, &g->scratch, r);
	bs_arch_set_rule(&g->scratch, r, NULL);
}

unsigned calib_extra_kinds(const group *g)
{
	unsigned d = bs_kind_get(g->kind)->direction;

	return (d == BS_UPDATES) | (d == BS_WRITES && g->width == 16) << 1;
}

/*
 * Rows of the group whose wavefronts the rule gives; the count stops
 * short (below g->n - max_miss) once more than max_miss rows are missed.
 */
static size_t explained(group *g, const geometry *geo, const bs_rule *r,
			size_t max_miss)
{
	size_t ok = 0, miss = 0;
	bs_summary s;

	calib_one_rule(g, geo, r);
	for (size_t i = 0; i < g->n && miss <= max_miss; i++) {
		const mrow *m = &g->c->row[g->idx[i]];

		if (bs_predict(&g->scratch, &m->a, &s, NULL) == 0 &&
		    fabs(s.wavefronts - m->wf) < 1e-6)
			ok++;
		else
			miss++;
	}
	return ok;
}

/*
 * Rows whose counters the rule gives, wavefronts and conflicts both, as
 * check judges them (bs_counters_differ), and whose ideal (wavefronts
 * less conflicts, where measured) it gives.
 */
static size_t counters_agree(group *g, const geometry *geo, const bs_rule *r)
{
	size_t ok = 0;
	bs_summary s;

	calib_one_rule(g, geo, r);
	for (size_t i = 0; i < g->n; i++) {
		const mrow *m = &g->c->row[g->idx[i]];

		ok += bs_predict(&g->scratch, &m->a, &s, NULL) == 0 &&
		      !bs_counters_differ(m->wf, m->bc, &s) &&
		      (isnan(m->bc) || fabs(s.ideal_wavefronts -
					    (m->wf - m->bc)) <= BS_COUNT_TOL);
	}
	return ok;
}

/*
 * The first family point of the group's kind and width that rules a and b
 * predict differently (wavefronts, or ideal when ideal is set), or -1.
 */
static long diverging_point(group *g, const geometry *ga, const bs_rule *a,
			    const geometry *gb, const bs_rule *b, int ideal)
{
	static bs_arch pa, pb;
	bs_summary sa, sb;

	bs_arch_init(&pa);
	pa.banks = ga->banks;
	pa.bank_bytes = ga->bank_bytes;
	add_loads(g, &pa, a);
	bs_arch_set_rule(&pa, a, NULL);
	bs_arch_init(&pb);
	pb.banks = gb->banks;
	pb.bank_bytes = gb->bank_bytes;
	add_loads(g, &pb, b);
	bs_arch_set_rule(&pb, b, NULL);
	for (size_t i = 0; i < g->ref->n; i++) {
		const bs_access *p = &g->ref->v[i];

		if (p->kind != g->kind || p->width != g->width)
			continue;
		if (bs_predict(&pa, p, &sa, NULL) < 0 ||
		    bs_predict(&pb, p, &sb, NULL) < 0)
			continue;
		if (ideal ? sa.ideal_wavefronts != sb.ideal_wavefronts
			  : sa.wavefronts != sb.wavefronts)
			return (long)i;
	}
	return -1;
}

/* ---- the search ------------------------------------------------------- */

/*
 * The best wavefront rule of a group under one geometry: the first
 * candidate that explains every row, else the one that explains most.
 * Counters alone decide: cycles are noisy, and a rule they picked would
 * hide what the counters leave open.  Returns the rows it explains.
 */
size_t calib_best_rule(group *g, const geometry *geo, bs_rule *best)
{
	size_t most = 0;
	bs_rule r;

	memset(&r, 0, sizeof r);
	r.kind = g->kind;
	r.width = (uint8_t)g->width;
	r.lat_base = r.lat_packed = r.lat_slope = r.tp_bytes_per_clk = NAN;
	*best = r;
	for (unsigned i = 0; candidate(i, &r, calib_extra_kinds(g)); i++) {
		/* past the best so far, or explaining all, is what counts */
		size_t k = explained(g, geo, &r, i ? g->n - most - 1 : g->n);

		if (k == g->n) {
			*best = r;
			return k;
		}
		if (k > most || i == 0) {
			most = k;
			*best = r;
		}
	}
	return most;
}

/* Is there another explaining rule that a family point tells apart? */
int calib_check_open(group *g, const geometry *geo, const bs_rule *chosen,
		      bs_calib_result *res)
{
	bs_rule r = *chosen;

	for (unsigned i = 0; candidate(i, &r, calib_extra_kinds(g)); i++) {
		long pt;

		if (r.phase_lanes == chosen->phase_lanes &&
		    r.packed_lanes == chosen->packed_lanes &&
		    r.pack_partners == chosen->pack_partners &&
		    r.same_word == chosen->same_word &&
		    r.slot_waves == chosen->slot_waves &&
		    r.loop == chosen->loop && r.copy == chosen->copy)
			continue;
		if (explained(g, geo, &r, 0) != g->n)
			continue;
		pt = diverging_point(g, geo, chosen, geo, &r, 0);
		if (pt >= 0) {
			char a[200], b[200];

			calib_rule_text(chosen, a, sizeof a);
			calib_rule_text(&r, b, sizeof b);
			return calib_add_open(res, g->kind, g->width, g->ref, pt,
					"phases of %u-byte %s: the rows fit "
					"'%s' and '%s' alike", g->width,
					bs_kind_name(g->kind), a + 5, b + 5);
		}
	}
	return 0;
}

/*
 * The ideal rule: words, unless lanes gives more rows their conflicts;
 * open when both explain every row and a family point tells them apart.
 */
int calib_choose_ideal(group *g, const geometry *geo, bs_rule *r,
			bs_calib_result *res)
{
	bs_rule w = *r, l = *r;
	size_t fw, fl;
	long pt;

	w.ideal = BS_IDEAL_WORDS;
	l.ideal = BS_IDEAL_LANES;
	fw = counters_agree(g, geo, &w);
	fl = counters_agree(g, geo, &l);
	r->ideal = fw >= fl ? BS_IDEAL_WORDS : BS_IDEAL_LANES;
	if (fw == g->n && fl == g->n &&
	    (pt = diverging_point(g, geo, &w, geo, &l, 1)) >= 0)
		return calib_add_open(res, g->kind, g->width, g->ref, pt,
				"ideal of %u-byte %s: the rows fit ideal=words "
				"and ideal=lanes alike", g->width,
				bs_kind_name(g->kind));
	return 0;
}
