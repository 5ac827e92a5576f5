/*
 * fits.c - what check and report fit: median cycles per access against
 * wavefronts per warp instruction, one least-squares line per width, kind
 * and packing, and the latency model's largest deviation from the timed
 * rows.  x is the measured wavefronts, or the predicted ones in a row
 * without counters; rows without a median are left out.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int add_point(fit_series *s, double x, double y)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		double *nx = realloc(s->x, cap * sizeof *nx), *ny;

		if (!nx)
			return -1;
		s->x = nx;
		ny = realloc(s->y, cap * sizeof *ny);
		if (!ny)
			return -1;
		s->y = ny;
		s->cap = cap;
	}
	s->x[s->n] = x;
	s->y[s->n] = y;
	s->n++;
	return 0;
}

int fits_add(latency_fits *f, const bs_row *r, const bs_summary *s)
{
	double x = isnan(r->wavefronts_measured) ? s->wavefronts
						  : r->wavefronts_measured;
	double y = r->cycles_per_access_median, dev;

	if (isnan(y))
		return 0;
	if (add_point(&f->by[bs_width_index(r->access.width)][r->access.kind]
			    [s->packed], x, y) < 0)
		return -1;
	if (isnan(s->latency_cycles))
		return 0;
	dev = fabs(y - s->latency_cycles);
	if (f->lat_n++ && dev <= f->lat_max)
		return 0;
	f->lat_max = dev;
	return 1;
}

const fit_series *fits_group(const latency_fits *f, int w, int kind,
			     int packed)
{
	return &f->by[w][kind][packed];
}

void fits_free(latency_fits *f)
{
	for (int w = 0; w < BS_NWIDTHS; w++)
		for (int o = 0; o < BS_MAX_KINDS; o++)
			for (int k = 0; k < 2; k++) {
				free(f->by[w][o][k].x);
				free(f->by[w][o][k].y);
			}
	memset(f, 0, sizeof *f);
}
