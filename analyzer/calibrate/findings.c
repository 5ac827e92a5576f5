/*
 * findings.c - what calibrate's result names: the rules the rows leave
 * open and the distinct accesses the derived architecture does not explain.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate.h"

int calib_add_open(bs_calib_result *res, bs_kind kind, unsigned width,
		   const bs_points *ref, long point, const char *fmt, ...)
{
	bs_calib_open *o = realloc(res->open, (res->nopen + 1) * sizeof *o);
	va_list ap;

	if (!o)
		return -1;
	res->open = o;
	o = &o[res->nopen++];
	memset(o, 0, sizeof *o);
	o->kind = kind;
	o->width = width;
	va_start(ap, fmt);
	vsnprintf(o->what, sizeof o->what, fmt, ap);
	va_end(ap);
	if (point >= 0) {
		snprintf(o->family, sizeof o->family, "%s",
			 ref->family_of[point]);
		snprintf(o->example, sizeof o->example, "%s",
			 ref->v[point].name);
	}
	return 0;
}

/* A finding on the access m, of all its rows or (rows 1) one of them. */
bs_calib_miss *calib_add_miss(const bs_calib *c, bs_calib_result *res,
			      mrow *m, const bs_rule *r, size_t rows)
{
	bs_calib_miss *x = realloc(res->miss, (res->nmiss + 1) * sizeof *x);

	if (!x)
		return NULL;
	res->miss = x;
	x = &x[res->nmiss++];
	memset(x, 0, sizeof *x);
	snprintf(x->file, sizeof x->file, "%s", c->files[m->file]);
	x->line = m->line;
	x->rows = rows;
	if (rows < m->count)
		res->miss_rows += rows;
	else if (!m->named)
		res->miss_rows += m->count;
	m->named |= rows == m->count;
	snprintf(x->name, sizeof x->name, "%s", m->a.name);
	x->kind = m->a.kind;
	x->width = m->a.width;
	calib_rule_text(r, x->rule, sizeof x->rule);
	return x;
}

void bs_calib_result_free(bs_calib_result *res)
{
	free(res->miss);
	free(res->open);
	memset(res, 0, sizeof *res);
}

/*
 * The rows of the group whose counters the rule does not give, judged as
 * check judges them.
 */
int calib_list_misses(group *g, const geometry *geo, const bs_rule *r,
		      bs_calib_result *res)
{
	bs_summary s;

	calib_one_rule(g, geo, r);
	for (size_t i = 0; i < g->n; i++) {
		mrow *m = &g->c->row[g->idx[i]];
		unsigned d = BS_DIFFER_WAVEFRONTS;
		bs_calib_miss *x;

		if (bs_predict(&g->scratch, &m->a, &s, NULL) == 0 &&
		    !(d = bs_counters_differ(m->wf, m->bc, &s)))
			continue;
		m->off_x = 1;
		if (!(x = calib_add_miss(g->c, res, m, r, m->count)))
			return -1;
		if (d & BS_DIFFER_WAVEFRONTS)
			snprintf(x->what, sizeof x->what, "measured %g "
				 "wavefronts, the nearest rule gives %u",
				 m->wf, s.wavefronts);
		else
			snprintf(x->what, sizeof x->what, "measured %g bank "
				 "conflicts in %g wavefronts, the rule gives "
				 "%u", m->bc, m->wf, s.bank_conflicts);
	}
	return 0;
}
