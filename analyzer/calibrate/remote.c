/*
 * remote.c - calibrate's search for a remote kind (distributed shared
 * memory, bs_kind_info.remote): no bank takes such an access, so its rule
 * is not a phase but what the SM-to-SM network moves (bs_remote_cost).
 * The candidates, simplest first: remote=sectors (the distinct 32-byte
 * sectors), remote=writes (a line's sectors, 2 for a line whose one
 * sector has both 16-byte halves written), then remote=rmw (a read and a
 * write of each sector per pass).  The measured sectors choose: the first
 * candidate that gives every row its sectors, else the one that gives the
 * most (the first of equals).  sectors and writes differ only on a line
 * with one sector written in both halves: when the rows have none, both
 * fit, and the rule is undetermined if a family point tells them apart
 * (dsmem's st1_s1, say).
 * The dshared wavefronts a remote rule predicts follow from its kind
 * (bs_remote_predict), so they cannot choose it; a row whose wavefronts
 * disagree is a miss like any other, judged as check judges it.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "calibrate.h"

static const uint8_t candidates[] = { BS_REMOTE_SECTORS, BS_REMOTE_WRITES,
				       BS_REMOTE_RMW };
#define NCAND (sizeof candidates / sizeof *candidates)

/* The rule of the group's kind and width that costs cost. */
static bs_rule remote_rule(const group *g, uint8_t cost)
{
	bs_rule r;

	memset(&r, 0, sizeof r);
	r.kind = g->kind;
	r.width = (uint8_t)g->width;
	r.remote = cost;
	r.slot_waves = 1;        /* as an arch file reads it back */
	r.lat_base = r.lat_packed = r.lat_slope = r.tp_bytes_per_clk = NAN;
	return r;
}

/* Rows of the group whose sectors the rule gives. */
static size_t sectors_agree(group *g, const bs_rule *r)
{
	size_t ok = 0;
	bs_summary s;

	for (size_t i = 0; i < g->n; i++) {
		const mrow *m = &g->c->row[g->idx[i]];

		ok += bs_remote_predict(r, &m->a, &s) == 0 &&
		      !bs_sectors_differ(m->sec, &s);
	}
	return ok;
}

/* The rows whose sectors or dshared wavefronts r does not give. */
static int list_misses(group *g, const bs_rule *r, bs_calib_result *res)
{
	bs_summary s;

	for (size_t i = 0; i < g->n; i++) {
		mrow *m = &g->c->row[g->idx[i]];
		unsigned d = BS_DIFFER_SECTORS;
		bs_calib_miss *x;

		if (bs_remote_predict(r, &m->a, &s) == 0 &&
		    !(d = bs_sectors_differ(m->sec, &s) |
			  bs_counters_differ(m->wf, m->bc, &s)))
			continue;
		m->off_x |= !!(d & BS_DIFFER_SECTORS);
		if (!(x = calib_add_miss(g->c, res, m, r, m->count)))
			return -1;
		if (d & BS_DIFFER_SECTORS)
			snprintf(x->what, sizeof x->what, "measured %g sectors, "
				 "the nearest rule gives %u", m->sec,
				 s.sectors);
		else if (d & BS_DIFFER_WAVEFRONTS)
			snprintf(x->what, sizeof x->what, "measured %g dshared "
				 "wavefronts, the rule gives %u", m->wf,
				 s.wavefronts);
		else
			snprintf(x->what, sizeof x->what, "measured %g bank "
				 "conflicts, the rule gives %u", m->bc,
				 s.bank_conflicts);
	}
	return 0;
}

/* The first family point of the group's kind and width whose sectors a
 * and b tell apart, or -1. */
static long diverging_point(const group *g, const bs_rule *a,
			    const bs_rule *b)
{
	bs_summary sa, sb;

	for (size_t i = 0; i < g->ref->n; i++) {
		const bs_access *p = &g->ref->v[i];

		if (p->kind != g->kind || p->width != g->width)
			continue;
		if (bs_remote_predict(a, p, &sa) == 0 &&
		    bs_remote_predict(b, p, &sb) == 0 &&
		    sa.sectors != sb.sectors)
			return (long)i;
	}
	return -1;
}

int calib_remote_rule(group *g, bs_rule *r, bs_calib_result *res)
{
	size_t most = 0, fits[NCAND] = { 0 };
	unsigned best = 0;

	/* rmw moves 2 x passes >= 2 x sectors, so it never fits a row that
	   one of the others fits; sectors and writes may both fit */
	for (unsigned i = 0; i < NCAND && most < g->n; i++) {
		bs_rule t = remote_rule(g, candidates[i]);

		fits[i] = sectors_agree(g, &t);
		if (fits[i] > most) {
			most = fits[i];
			best = i;
		}
	}
	*r = remote_rule(g, candidates[best]);
	if (best == 0 && most == g->n) {
		bs_rule w = remote_rule(g, BS_REMOTE_WRITES);
		long pt;

		if (sectors_agree(g, &w) == g->n &&
		    (pt = diverging_point(g, r, &w)) >= 0 &&
		    calib_add_open(res, g->kind, g->width, g->ref, pt,
				   "cost of %u-byte %s: the rows fit "
				   "remote=sectors and remote=writes alike",
				   g->width, bs_kind_name(g->kind)) < 0)
			return -1;
	}
	return list_misses(g, r, res);
}
