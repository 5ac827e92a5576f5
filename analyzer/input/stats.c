/*
 * stats.c - the two statistics the datasets need.
 *
 * bs_min_median() sorts in place (NaNs last) and returns the smallest
 * value and the median, the mean of the middle two for an even count;
 * -1 for an empty set.  bs_fit_line() is ordinary least squares with the
 * sums taken about the means (two passes, so large offsets such as cycle
 * counts near 30 keep their precision); r2 = 1 - SSres/SStot, and 1 when
 * every y is the same (the line through them is exact).  It fails when
 * there are fewer than two points or every x is the same.
 * bs_fit_add() and bs_fit_end() fit the same line over a stream: the means
 * and the sums of products of deviations are updated point by point
 * (Welford's method), so they keep the precision of the two passes without
 * holding the points; the residual sum of squares is Syy - Sxy^2 / Sxx.
 */
#include <math.h>
#include <stdlib.h>

#include "bs_input.h"

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	return (a > b) - (a < b);
}

int bs_min_median(double *v, size_t n, double *min, double *median)
{
	if (n == 0)
		return -1;
	qsort(v, n, sizeof *v, cmp_double);
	if (min)
		*min = v[0];
	if (median)
		*median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	return 0;
}

int bs_fit_line(const double *x, const double *y, size_t n, bs_fit *out)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0, ssres = 0, sstot = 0;
	size_t i;
	int xflat = 1, flat = 1;

	if (n < 2)
		return -1;
	for (i = 0; i < n; i++) {
		mx += x[i];
		my += y[i];
		if (x[i] != x[0])
			xflat = 0;
		if (y[i] != y[0])
			flat = 0;
	}
	if (xflat)
		return -1;
	mx /= (double)n;
	my /= (double)n;
	for (i = 0; i < n; i++) {
		sxx += (x[i] - mx) * (x[i] - mx);
		sxy += (x[i] - mx) * (y[i] - my);
	}
	if (sxx == 0)
		return -1;
	out->n = n;
	if (flat) {
		out->slope = 0;
		out->intercept = y[0];
		out->r2 = 1;
		return 0;
	}
	out->slope = sxy / sxx;
	out->intercept = my - out->slope * mx;
	for (i = 0; i < n; i++) {
		double r = y[i] - (out->slope * x[i] + out->intercept);

		ssres += r * r;
		sstot += (y[i] - my) * (y[i] - my);
	}
	out->r2 = 1 - ssres / sstot;
	return 0;
}

void bs_fit_add(bs_fit_acc *a, double x, double y)
{
	double dx, dy;

	if (a->n++ == 0) {
		a->x0 = x;
		a->y0 = y;
		a->xflat = a->yflat = 1;
	}
	if (x != a->x0)
		a->xflat = 0;
	if (y != a->y0)
		a->yflat = 0;
	dx = x - a->mx;
	a->mx += dx / (double)a->n;
	dy = y - a->my;
	a->my += dy / (double)a->n;
	a->sxx += dx * (x - a->mx);
	a->sxy += dx * (y - a->my);
	a->syy += dy * (y - a->my);
}

int bs_fit_end(const bs_fit_acc *a, bs_fit *out)
{
	double ssres;

	if (a->n < 2 || a->xflat || a->sxx == 0)
		return -1;
	out->n = a->n;
	if (a->yflat) {
		out->slope = 0;
		out->intercept = a->y0;
		out->r2 = 1;
		return 0;
	}
	out->slope = a->sxy / a->sxx;
	out->intercept = a->my - out->slope * a->mx;
	ssres = a->syy - out->slope * a->sxy;
	if (ssres < 0)
		ssres = 0;
	out->r2 = 1 - ssres / a->syy;
	return 0;
}
