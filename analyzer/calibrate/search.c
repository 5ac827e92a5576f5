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

/* A candidate's shape, the fields of bs_rule the search tries. */
typedef struct {
	uint8_t same_word, slot_waves, phase_lanes, packed_lanes, loop, copy;
	uint32_t pack_partners;
} shape;

/*
 * The candidates in the order calib_best_rule tries them: NBASE wavefront
 * rules, then NLOOP retry loops (an atomic's), then copy=lines (a 16-byte
 * write's).  Built once: a candidate is looked up, not counted out again.
 */
#define NBASE (2 * 2 * (6 + 31 * (5 + 4 + 3 + 2 + 1)))
#define NLOOP (2 * 6)
static shape shapes[NBASE + NLOOP + 1];
static unsigned nshapes;

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
 * The candidates, simplest first: shared words before serial, a bank slot
 * of one wavefront before two, then for each phase width 32 down to 1, no
 * packing, then for each wider packed phase the partner sets.  The retry
 * loops next: a slot of one wavefront before two, phases of 32 down to 1;
 * copy=lines last of all.
 */
static void make_shapes(void)
{
	static const unsigned phases[] = { 32, 16, 8, 4, 2, 1 };

	if (nshapes)
		return;
	make_partner_sets();
	for (unsigned sw = 0; sw < 2; sw++)
		for (unsigned slot = 1; slot <= 2; slot++)
			for (unsigned p = 0; p < 6; p++) {
				unsigned P = phases[p];

				shapes[nshapes++] = (shape){ .same_word = sw,
					.slot_waves = slot, .phase_lanes = P };
				for (unsigned Q = 2 * P; Q <= 32; Q *= 2)
					for (unsigned k = 0; k < npartner_sets;
					     k++)
						shapes[nshapes++] = (shape){
							.same_word = sw,
							.slot_waves = slot,
							.phase_lanes = P,
							.packed_lanes = Q,
							.pack_partners =
								partner_sets[k] };
			}
	for (unsigned slot = 1; slot <= 2; slot++)
		for (unsigned p = 0; p < 6; p++)
			shapes[nshapes++] = (shape){ .loop = BS_LOOP_CAS,
				.same_word = BS_SAME_WORD_SHARE,
				.slot_waves = slot, .phase_lanes = phases[p] };
	shapes[nshapes++] = (shape){ .copy = BS_COPY_LINES,
		.same_word = BS_SAME_WORD_SHARE, .slot_waves = 1,
		.phase_lanes = 8 };
}

/*
 * Candidate i of the wavefront rules (make_shapes' order) into r's shape:
 * for an atomic (extra & 1) the retry loops too, for a 16-byte write
 * (extra & 2) copy=lines.  0 past the last.
 */
static int candidate(unsigned i, bs_rule *r, unsigned extra)
{
	const shape *s;

	make_shapes();
	if (i >= NBASE && !(extra & 1))
		i += NLOOP;
	if (i >= NBASE + NLOOP && !(extra & 2))
		return 0;
	if (i >= nshapes)
		return 0;
	s = &shapes[i];
	r->same_word = s->same_word;
	r->slot_waves = s->slot_waves;
	r->phase_lanes = s->phase_lanes;
	r->packed_lanes = s->packed_lanes;
	r->pack_partners = s->pack_partners;
	r->loop = s->loop;
	r->copy = s->copy;
	return 1;
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

void calib_set_group(group *g, size_t *idx, size_t n)
{
	for (unsigned k = 0; k < g->nwit; k++)
		g->c->row[g->wit[k]].witness = 0;
	g->nwit = 0;
	g->tally_geo = NULL;
	g->idx = idx;
	g->n = n;
}

/* Does the rule of g->scratch give the row its wavefronts? */
static int fits(group *g, size_t row)
{
	const mrow *m = &g->c->row[row];
	bs_summary s;

	g->c->judged++;
	return bs_predict(&g->scratch, &m->a, &s, NULL) == 0 &&
	       fabs(s.wavefronts - m->wf) < 1e-6;
}

/* The rows in new[0..n) become the first witnesses; the last ones
 * make room. */
static void add_witnesses(group *g, const size_t *new, unsigned n)
{
	unsigned keep = g->nwit + n > CALIB_WITNESSES ? CALIB_WITNESSES - n
						       : g->nwit;

	for (unsigned k = keep; k < g->nwit; k++)
		g->c->row[g->wit[k]].witness = 0;
	memmove(g->wit + n, g->wit, keep * sizeof *g->wit);
	for (unsigned k = 0; k < n; k++) {
		g->wit[k] = new[k];
		g->c->row[new[k]].witness = 1;
	}
	g->nwit = keep + n;
}

/*
 * Rows of the group whose wavefronts the rule gives; the count stops
 * short (below g->n - max_miss) once more than max_miss rows are missed.
 * The witnesses are tried first, a witness that misses moved to the
 * front; a row of the others that misses becomes one.
 */
static size_t explained(group *g, const geometry *geo, const bs_rule *r,
			size_t max_miss)
{
	size_t ok = 0, miss = 0, new[CALIB_WITNESSES];
	unsigned nnew = 0;

	calib_one_rule(g, geo, r);
	for (unsigned k = 0; k < g->nwit && miss <= max_miss; k++) {
		size_t w = g->wit[k];

		if (fits(g, w)) {
			ok++;
			continue;
		}
		miss++;
		memmove(g->wit + 1, g->wit, k * sizeof *g->wit);
		g->wit[0] = w;
	}
	for (size_t i = 0; i < g->n && miss <= max_miss; i++) {
		size_t row = g->idx[i];

		if (g->c->row[row].witness)
			continue;
		if (fits(g, row)) {
			ok++;
			continue;
		}
		miss++;
		if (nnew < CALIB_WITNESSES)
			new[nnew++] = row;
	}
	add_witnesses(g, new, nnew);
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

/* The index of a phase width in make_shapes' phases (32 ... 1). */
static unsigned phase_index(unsigned lanes)
{
	return 5 - (unsigned)__builtin_ctz(lanes);
}

/*
 * g->fit under geo: for each unpacked candidate (lanes sharing a word or
 * serial, a slot of 1 or 2 wavefronts, phases of 32 ... 1), the rows it
 * gives their wavefronts, by the partners the rows are pairwise uniform
 * under (mrow.uniform).  A packed candidate serves a row in its packed
 * phases when the row is pairwise uniform under one of its partners, in
 * its phases otherwise, and nothing else of its prediction differs from
 * the unpacked candidate's of those phases: the tally counts every one
 * of the wavefront candidates (all but loops and copy=lines) from 24
 * predictions a row.
 */
static void tally(group *g, const geometry *geo)
{
	bs_rule r;

	if (g->tally_geo == geo)
		return;
	memset(g->fit, 0, sizeof g->fit);
	memset(&r, 0, sizeof r);
	r.kind = g->kind;
	r.width = (uint8_t)g->width;
	r.lat_base = r.lat_packed = r.lat_slope = r.tp_bytes_per_clk = NAN;
	for (unsigned sw = 0; sw < 2; sw++)
		for (unsigned slot = 1; slot <= 2; slot++)
			for (unsigned p = 0; p < 6; p++) {
				r.same_word = (uint8_t)sw;
				r.slot_waves = (uint8_t)slot;
				r.phase_lanes = (uint8_t)(32 >> p);
				calib_one_rule(g, geo, &r);
				for (size_t i = 0; i < g->n; i++)
					if (fits(g, g->idx[i]))
						g->fit[sw][slot - 1]
						      [g->c->row[g->idx[i]].uniform]
						      [p]++;
			}
	g->tally_geo = geo;
}

/* The rows the wavefront candidate r gives their wavefronts, from the
 * tally. */
static size_t tallied(const group *g, const bs_rule *r)
{
	unsigned part = 0, p = phase_index(r->phase_lanes);
	unsigned q = r->packed_lanes ? phase_index(r->packed_lanes) : p;
	size_t ok = 0;

	for (unsigned b = 0; b < 5; b++)
		part |= (r->pack_partners >> (1u << b) & 1) << b;
	for (unsigned u = 0; u < 32; u++)
		ok += g->fit[r->same_word][r->slot_waves - 1][u]
			    [u & part ? q : p];
	return ok;
}

/* Is r one of the candidates the tally counts? */
static int wavefront_candidate(const bs_rule *r)
{
	return !r->loop && !r->copy;
}

/*
 * The best wavefront rule of a group under one geometry: the first
 * candidate that explains every row, else the one that explains most
 * (the first of equals).  Counters alone decide: cycles are noisy, and a
 * rule they picked would hide what the counters leave open.
 *
 * First each candidate is asked only whether it explains every row,
 * which the witnesses mostly answer at once, as long as that costs no
 * more than a few passes over the rows.  Then, if no candidate was found
 * so, the tally counts the wavefront candidates, and the loops and
 * copy=lines are counted row by row, each cut off once it has missed
 * more rows than the best so far.  Returns the rows the rule explains.
 */
size_t calib_best_rule_within(group *g, const geometry *geo, bs_rule *best,
			      size_t max_miss)
{
	unsigned extra = calib_extra_kinds(g);
	size_t most = 0, effort = g->c->judged + 4 * g->n + 64;
	int found = 0;
	bs_rule r;

	memset(&r, 0, sizeof r);
	r.kind = g->kind;
	r.width = (uint8_t)g->width;
	r.lat_base = r.lat_packed = r.lat_slope = r.tp_bytes_per_clk = NAN;
	candidate(0, &r, extra);
	*best = r;
	if (g->tally_geo != geo) {
		for (unsigned i = 0; candidate(i, &r, extra); i++) {
			if (explained(g, geo, &r, 0) == g->n) {
				*best = r;
				return g->n;
			}
			if (g->c->judged > effort)
				break;
		}
		if (g->c->judged <= effort && !max_miss)
			return 0;   /* none explains every row */
		tally(g, geo);
	}
	for (unsigned i = 0; candidate(i, &r, extra); i++) {
		/* the misses that still beat the best (the first of equals
		   is kept), within max_miss */
		size_t limit = found ? g->n - most - 1 : g->n, k;

		if (limit > max_miss)
			limit = max_miss;
		k = wavefront_candidate(&r) ? tallied(g, &r)
					    : explained(g, geo, &r, limit);
		if (k == g->n) {
			*best = r;
			return k;
		}
		if (k + limit < g->n || (found && k <= most))
			continue;
		found = 1;
		most = k;
		*best = r;
	}
	return found ? most : 0;
}

size_t calib_best_rule(group *g, const geometry *geo, bs_rule *best)
{
	return calib_best_rule_within(g, geo, best, g->n);
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
		if ((g->tally_geo == geo && wavefront_candidate(&r)
			     ? tallied(g, &r) : explained(g, geo, &r, 0)) != g->n)
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
