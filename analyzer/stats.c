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
 */
#include <math.h>
#include <stdlib.h>

#include "bankscope.h"

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
