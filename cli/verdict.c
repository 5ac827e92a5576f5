/*
 * verdict.c - when a measured row agrees with the prediction, as check
 * and report both judge it.  Counts (wavefronts, conflicts, the stored
 * prediction columns) agree within 1e-6; a stored latency within 0.005
 * cycles, since it is written with 2 decimals.  A stored prediction that
 * differs from today's (stale) counts as a disagreement too.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

#define TOL_COUNT BS_COUNT_TOL
#define TOL_CYCLES (0.005 + 1e-9)

void verdict_num(char *buf, size_t size, double v)
{
	char *e;

	snprintf(buf, size, "%.4f", v);
	e = buf + strlen(buf);
	while (strchr(buf, '.') && e[-1] == '0')
		*--e = '\0';
	if (e[-1] == '.')
		e[-1] = '\0';
	if (!strcmp(buf, "-0"))
		strcpy(buf, "0");
}

int verdict_counters_agree(const bs_row *r, const bs_summary *s)
{
	return !bs_counters_differ(r->wavefronts_measured,
				   r->bank_conflicts_measured, s);
}

size_t verdict_counters(const bs_row *r, const bs_summary *s,
			verdict_field out[2])
{
	double wm = r->wavefronts_measured, cm = r->bank_conflicts_measured;
	unsigned d = bs_counters_differ(wm, cm, s);
	size_t n = 0;

	if (d & BS_DIFFER_WAVEFRONTS)
		out[n++] = (verdict_field){ "wavefronts_measured", wm,
					    s->wavefronts };
	if (d & BS_DIFFER_CONFLICTS)
		out[n++] = (verdict_field){ "bank_conflicts_measured", cm,
					    s->bank_conflicts };
	return n;
}

size_t verdict_stale(const bs_row *r, const bs_summary *s,
		     verdict_field out[VERDICT_FIELDS])
{
	const verdict_field f[VERDICT_FIELDS] = {
		{ "wavefronts_predicted", r->wavefronts_predicted,
		  s->wavefronts },
		{ "ideal_wavefronts_predicted", r->ideal_wavefronts_predicted,
		  s->ideal_wavefronts },
		{ "bank_conflicts_predicted", r->bank_conflicts_predicted,
		  s->bank_conflicts },
		{ "max_way_predicted", r->max_way_predicted, s->max_way },
		{ "packed_predicted", r->packed_predicted, s->packed },
		{ "latency_cycles_predicted", r->latency_cycles_predicted,
		  s->latency_cycles },
	};
	size_t n = 0;

	for (size_t i = 0; i < VERDICT_FIELDS; i++) {
		double tol = i == VERDICT_FIELDS - 1 ? TOL_CYCLES : TOL_COUNT;

		if (isnan(f[i].stored) || (!isnan(f[i].now) &&
					   fabs(f[i].stored - f[i].now) <= tol))
			continue;
		out[n++] = f[i];
	}
	return n;
}
