/*
 * fits.c - what check and report fit: median cycles per access against
 * wavefronts per warp instruction, one least-squares line per width, kind
 * and packing, and the latency model's largest deviation from the timed
 * rows.  x is the measured wavefronts, or the predicted ones in a row
 * without counters; for a remote kind (distributed shared memory, whose
 * cost follows the sectors the network moves) the sectors, measured or
 * else predicted.  Rows without a median are left out.  Streamed: each
 * group keeps running sums (bs_fit_add), not its points, so the memory
 * does not grow with the dataset.
 */
#include <math.h>
#include <string.h>

#include "cli.h"


int fits_remote(int kind)
{
	const bs_kind_info *k = bs_kind_get((bs_kind)kind);

	return k && k->remote;
}

/* The row's x: measured, else predicted; sectors for a remote kind. */
static double fit_x(const bs_row *r, const bs_summary *s)
{
	if (fits_remote(r->access.kind))
		return isnan(r->sectors_measured) ? s->sectors
						  : r->sectors_measured;
	return isnan(r->wavefronts_measured) ? s->wavefronts
					      : r->wavefronts_measured;
}

int fits_add(latency_fits *f, const bs_row *r, const bs_summary *s)
{
	double x = fit_x(r, s), y = r->cycles_per_access_median, dev;

	if (isnan(y))
		return 0;
	bs_fit_add(&f->by[bs_width_index(r->access.width)][r->access.kind]
			 [s->packed], x, y);
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

int fits_line(const fit_series *s, bs_fit *out)
{
	return bs_fit_end(s, out);
}

void fits_free(latency_fits *f)
{
	memset(f, 0, sizeof *f);
}
