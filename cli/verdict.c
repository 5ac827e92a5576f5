/*
 * verdict.c - when a measured row agrees with the prediction, as check
 * and report both judge it.  Counts (wavefronts, conflicts, the stored
 * prediction columns) agree within 1e-6; a stored latency within 0.005
 * cycles, since it is written with 2 decimals.  A remote kind (distributed
 * shared memory) is judged by its sectors too; a bank kind moves none, so
 * its measured sectors are not compared, and a stored sectors_predicted
 * is stale (not modeled).  A stored prediction that differs from today's
 * (stale) counts as a disagreement too.
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

static int is_remote(const bs_row *r)
{
	const bs_kind_info *k = bs_kind_get(r->access.kind);

	return k && k->remote;
}

/* bs_counters_differ, and a remote kind's sectors (a bank kind's sectors
 * are none of the model's business). */
static unsigned differ(const bs_row *r, const bs_summary *s)
{
	unsigned d = bs_counters_differ(r->wavefronts_measured,
					r->bank_conflicts_measured, s);

	if (is_remote(r))
		d |= bs_sectors_differ(r->sectors_measured, s);
	return d;
}

int verdict_counters_agree(const bs_row *r, const bs_summary *s)
{
	return !differ(r, s);
}

size_t verdict_counters(const bs_row *r, const bs_summary *s,
			verdict_field out[VERDICT_COUNTERS])
{
	double wm = r->wavefronts_measured, cm = r->bank_conflicts_measured;
	unsigned d = differ(r, s);
	size_t n = 0;

	if (d & BS_DIFFER_WAVEFRONTS)
		out[n++] = (verdict_field){ "wavefronts_measured", wm,
					    s->wavefronts };
	if (d & BS_DIFFER_CONFLICTS)
		out[n++] = (verdict_field){ "bank_conflicts_measured", cm,
					    s->bank_conflicts };
	if (d & BS_DIFFER_SECTORS)
		out[n++] = (verdict_field){ "sectors_measured",
					    r->sectors_measured, s->sectors };
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
		{ "sectors_predicted", r->sectors_predicted,
		  is_remote(r) ? s->sectors : NAN },
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
