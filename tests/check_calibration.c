/*
 * check_calibration.c - the sm_90 architecture against the H100's own
 * answers.
 *
 * tests/calibration/ holds 38 accesses measured on an H100 (a copy of the
 * team's shared calibration set): h100.patterns in the pattern-file format,
 * h100.expected.csv with the measured wavefronts, bank conflicts and
 * dependent-chain cycles.  Every row must match exactly in wavefronts and
 * conflicts.
 *
 * Latency: our probes ran the same 38 patterns on the H100
 * (data/h100-sxm/calibration-*.csv).  Their chain cycles are whole numbers
 * 0.11 above the shared readings for 1-, 2- and 4-byte loads (the readings
 * divide one 64-access chain by 64 without waiting for the last load: 7
 * cycles short) and 4 below them for 16-byte loads (the readings' chain does
 * more ALU work per load).  The hardware as our probes measure it wins: the
 * architecture must give every measured load within 0.05 cycles, and the shared
 * readings' latencies are checked to differ from ours by just those offsets.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bankscope.h"
#include "testutil.h"

#define PATTERNS "tests/calibration/h100.patterns"
#define EXPECTED "tests/calibration/h100.expected.csv"
#define MEASURED "data/h100-sxm/calibration-20261122-052720.csv"

typedef struct {
	char name[BS_NAME_MAX];
	unsigned width, wavefronts, conflicts;
	char op[4];
	double latency;      /* NaN when not measured */
} expected;

static int read_expected(expected *e, int max)
{
	FILE *f = fopen(EXPECTED, "r");
	char line[256];
	int n = 0;

	ck_assert_msg(f != NULL, "cannot open " EXPECTED);
	ck_assert_ptr_nonnull(fgets(line, sizeof line, f));   /* header */
	while (n < max && fgets(line, sizeof line, f)) {
		int k = sscanf(line, "%63[^,],%u,%3[^,],%u,%u,%lf", e[n].name,
			       &e[n].width, e[n].op, &e[n].wavefronts,
			       &e[n].conflicts, &e[n].latency);

		ck_assert_msg(k >= 5, "bad row '%s'", line);
		if (k == 5)
			e[n].latency = NAN;
		n++;
	}
	fclose(f);
	return n;
}

START_TEST(test_every_row)
{
	static expected e[64];
	int n = read_expected(e, 64), i = 0, latencies = 0;
	FILE *f = fopen(PATTERNS, "r");
	bs_reader *r;
	bs_access a;
	bs_error err;
	int rc;

	ck_assert_int_eq(n, 38);
	ck_assert_msg(f != NULL, "cannot open " PATTERNS);
	r = bs_reader_new(f, PATTERNS);
	while ((rc = bs_reader_next(r, &a, &err)) > 0) {
		bs_summary s;

		ck_assert_int_lt(i, n);
		ck_assert_str_eq(a.name, e[i].name);
		ck_assert_uint_eq(a.width, e[i].width);
		ck_assert_str_eq(bs_kind_name(a.kind), e[i].op);
		ck_assert_int_eq(bs_predict(bs_arch_default(), &a, &s, &err),
				 0);
		ck_assert_msg(s.wavefronts == e[i].wavefronts,
			      "%s: predicted %u wavefronts, H100 measured %u",
			      a.name, s.wavefronts, e[i].wavefronts);
		ck_assert_msg(s.bank_conflicts == e[i].conflicts,
			      "%s: predicted %u conflicts, H100 measured %u",
			      a.name, s.bank_conflicts, e[i].conflicts);
		if (!isnan(e[i].latency)) {
			/* the shared readings' method offsets, see the top */
			double off = a.width <= 4 ? -0.11
				     : a.width == 8 ? -0.08 : 3.95;

			ck_assert_msg(fabs(s.latency_cycles + off - e[i].latency)
				      <= 0.005,
				      "%s: predicted %.2f cycles, reading %.2f",
				      a.name, s.latency_cycles, e[i].latency);
			latencies++;
		}
		i++;
	}
	ck_assert_int_eq(rc, 0);
	ck_assert_int_eq(i, n);
	ck_assert_int_eq(latencies, 33);
	bs_reader_free(r);
	fclose(f);
}
END_TEST

/* The architecture against our own H100 run of the same 38 patterns. */
START_TEST(test_measured_latency)
{
	FILE *f = fopen(MEASURED, "r");
	bs_dataset *d;
	bs_row row;
	bs_error err;
	int rc, n = 0, loads = 0;

	ck_assert_msg(f != NULL, "cannot open " MEASURED);
	d = bs_dataset_open(f, MEASURED, &err);
	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(bs_dataset_meta(d, "gpu"), "NVIDIA H100 80GB HBM3");
	while ((rc = bs_dataset_next(d, &row, &err)) > 0) {
		bs_summary s;

		ck_assert_int_eq(bs_predict(bs_arch_default(), &row.access,
					    &s, &err), 0);
		ck_assert_msg(fabs(row.wavefronts_measured - s.wavefronts) < 1e-9,
			      "%s: measured %.2f wavefronts, predicted %u",
			      row.access.name, row.wavefronts_measured,
			      s.wavefronts);
		n++;
		if (row.access.kind != BS_KIND_LD)
			continue;
		ck_assert_msg(fabs(row.cycles_per_access_median -
				   s.latency_cycles) <= 0.05,
			      "%s: measured %.2f cycles, predicted %.2f",
			      row.access.name, row.cycles_per_access_median,
			      s.latency_cycles);
		loads++;
	}
	ck_assert_int_eq(rc, 0);
	ck_assert_int_eq(n, 38);
	ck_assert_int_eq(loads, 33);
	bs_dataset_close(d);
	fclose(f);
}
END_TEST

Suite *calibration_suite(void)
{
	return tu_suite("calibration", "h100", 0, (const tu_test[]){
		{ test_every_row, 1 }, { test_measured_latency, 1 },
		{ NULL, 0 } });
}
