/*
 * check_stats.c - bs_min_median and bs_fit_line, on values worked by hand.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bankscope.h"
#include "testutil.h"

#define TOL 1e-12

typedef struct {
	const char *what;
	size_t n;
	double v[6];
	double min, median;
	double sorted[6];
} mm_case;

static const mm_case mm[] = {
	{ "one value", 1, { 5 }, 5, 5, { 5 } },
	{ "odd: the middle one", 3, { 3, 1, 2 }, 1, 2, { 1, 2, 3 } },
	{ "even: mean of the middle two", 4, { 4, 1, 3, 2 }, 1, 2.5,
	  { 1, 2, 3, 4 } },
	{ "even, two values", 2, { 34.89, 32.89 }, 32.89, 33.89,
	  { 32.89, 34.89 } },
	{ "repeats", 5, { 7, 7, 1, 7, 1 }, 1, 7, { 1, 1, 7, 7, 7 } },
	{ "negatives", 6, { -1, -3, 2, 0, -2, 1 }, -3, -0.5,
	  { -3, -2, -1, 0, 1, 2 } },
	{ "NaN sorts last", 3, { NAN, 3, 1 }, 1, 3, { 1, 3, NAN } },
};

START_TEST(test_min_median)
{
	const mm_case *c = &mm[_i];
	double v[6], min = -99, median = -99;

	for (size_t i = 0; i < c->n; i++)
		v[i] = c->v[i];
	ck_assert_int_eq(bs_min_median(v, c->n, &min, &median), 0);
	ck_assert_msg(fabs(min - c->min) < TOL, "%s: min %g, expected %g",
		      c->what, min, c->min);
	ck_assert_msg(fabs(median - c->median) < TOL,
		      "%s: median %g, expected %g", c->what, median,
		      c->median);
	for (size_t i = 0; i < c->n; i++)
		ck_assert_msg(isnan(c->sorted[i]) ? isnan(v[i])
						  : v[i] == c->sorted[i],
			      "%s: v[%zu] = %g after sorting, expected %g",
			      c->what, i, v[i], c->sorted[i]);
}
END_TEST

START_TEST(test_min_median_empty)
{
	double v[1] = { 4 }, min = -99, median = -99;

	ck_assert_int_eq(bs_min_median(v, 0, &min, &median), -1);
	ck_assert(min == -99 && median == -99);
	ck_assert_int_eq(bs_min_median(v, 1, NULL, &median), 0);
	ck_assert(median == 4);
}
END_TEST

typedef struct {
	const char *what;
	size_t n;
	double x[6], y[6];
	int rc;
	double slope, intercept, r2;
} fit_case;

static const fit_case fits[] = {
	/* the sm_90 4-byte load latency: 30.89 + 2 cycles per wavefront */
	{ "exact y = 2x + 30.89", 6, { 1, 2, 4, 8, 16, 32 },
	  { 32.89, 34.89, 38.89, 46.89, 62.89, 94.89 }, 0, 2, 30.89, 1 },
	/*
	 * mean x 2.5, mean y 35.75; Sxx = 5, Sxy = 9.5: slope 1.9,
	 * intercept 35.75 - 1.9 * 2.5 = 31; fitted 32.9 34.8 36.7 38.6,
	 * residuals .1 .2 -.7 .4: SSres = 0.7; SStot = 18.75;
	 * r2 = 1 - 0.7 / 18.75 = 361/375
	 */
	{ "noisy, by hand", 4, { 1, 2, 3, 4 }, { 33, 35, 36, 39 }, 0, 1.9,
	  31, 361.0 / 375.0 },
	/* slope 3.92 / 2 = 1.96, intercept 36 - 1.96 * 2 = 32.08 */
	{ "two points", 2, { 2, 4 }, { 36, 39.92 }, 0, 1.96, 32.08, 1 },
	/* x 0,0,2,2; y 1,3,1,3: slope 0, intercept 2, SSres = SStot = 4 */
	{ "no relation: r2 0", 4, { 0, 0, 2, 2 }, { 1, 3, 1, 3 }, 0, 0, 2, 0 },
	{ "y constant: flat line, r2 1", 3, { 1, 2, 3 }, { 0.1, 0.1, 0.1 }, 0,
	  0, 0.1, 1 },
	{ "no points", 0, { 0 }, { 0 }, -1, 0, 0, 0 },
	{ "one point", 1, { 1 }, { 32.89 }, -1, 0, 0, 0 },
	{ "x constant", 3, { 2, 2, 2 }, { 1, 2, 3 }, -1, 0, 0, 0 },
	{ "x constant, mean inexact", 3, { 0.1, 0.1, 0.1 }, { 1, 2, 3 }, -1, 0,
	  0, 0 },
};

/* f is case c's line, or untouched where c must fail: both fits' checks. */
static void expect_fit(const fit_case *c, const bs_fit *f)
{
	if (c->rc < 0) {
		ck_assert_msg(f->n == 99 && f->slope == 99, "%s: out written on "
			      "failure", c->what);
		return;
	}
	ck_assert_uint_eq(f->n, c->n);
	ck_assert_msg(fabs(f->slope - c->slope) < 1e-9,
		      "%s: slope %.15g, expected %.15g", c->what, f->slope,
		      c->slope);
	ck_assert_msg(fabs(f->intercept - c->intercept) < 1e-9,
		      "%s: intercept %.15g, expected %.15g", c->what,
		      f->intercept, c->intercept);
	ck_assert_msg(fabs(f->r2 - c->r2) < 1e-9, "%s: r2 %.15g, expected %.15g",
		      c->what, f->r2, c->r2);
}

START_TEST(test_fit_line)
{
	const fit_case *c = &fits[_i];
	bs_fit f = { 99, 99, 99, 99 };

	ck_assert_int_eq(bs_fit_line(c->x, c->y, c->n, &f), c->rc);
	expect_fit(c, &f);
}
END_TEST

/* The streamed fit gives the same line, point by point. */
START_TEST(test_fit_stream)
{
	const fit_case *c = &fits[_i];
	bs_fit_acc a;
	bs_fit f = { 99, 99, 99, 99 };

	memset(&a, 0, sizeof a);
	for (size_t i = 0; i < c->n; i++)
		bs_fit_add(&a, c->x[i], c->y[i]);
	ck_assert_int_eq(bs_fit_end(&a, &f), c->rc);
	expect_fit(c, &f);
}
END_TEST

/*
 * Large offsets keep their precision: a million points x = 1e6 + i,
 * y = 2x + 1e9 -+ 0.5 (the sign alternating), where sums of x^2 and x*y
 * taken in one pass would lose the slope's digits.  The streamed fit must
 * equal the two-pass bs_fit_line over the same points.
 */
START_TEST(test_fit_stream_offset)
{
	enum { N = 1000000 };
	double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
	bs_fit_acc a;
	bs_fit f, g;

	ck_assert(x && y);
	memset(&a, 0, sizeof a);
	for (int i = 0; i < N; i++) {
		x[i] = 1e6 + i;
		y[i] = 2 * x[i] + 1e9 + (i % 2 ? 0.5 : -0.5);
		bs_fit_add(&a, x[i], y[i]);
	}
	ck_assert_int_eq(bs_fit_line(x, y, N, &g), 0);
	ck_assert_int_eq(bs_fit_end(&a, &f), 0);
	ck_assert_msg(fabs(f.slope - g.slope) < 1e-9, "slope %.15g, two "
		      "passes %.15g", f.slope, g.slope);
	ck_assert_msg(fabs(f.intercept - g.intercept) < 1e-3, "intercept "
		      "%.15g, two passes %.15g", f.intercept, g.intercept);
	ck_assert_msg(fabs(f.r2 - g.r2) < 1e-9, "r2 %.15g, two passes %.15g",
		      f.r2, g.r2);
	free(x);
	free(y);
}
END_TEST

Suite *stats_suite(void)
{
	return tu_suite("stats", "stats", 0, (const tu_test[]){
		{ test_min_median, TU_ROWS(mm) }, { test_min_median_empty, 1 },
		{ test_fit_line, TU_ROWS(fits) },
		{ test_fit_stream, TU_ROWS(fits) },
		{ test_fit_stream_offset, 1 }, { NULL, 0 } });
}
