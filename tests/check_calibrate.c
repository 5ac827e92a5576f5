/*
 * check_calibrate.c - bankscope calibrate: the architecture derived from
 * measured rows.
 *
 * The committed H100 and H200 runs must give back sm_90: the same rules
 * and the same prediction for every committed pattern.  Datasets
 * synthesized from an architecture (every probe family point, "measured"
 * as it predicts it) must give back that architecture, whether it is the
 * textbook one, one with 8-byte loads in one phase and stores that pack,
 * or one of 64 banks: the search finds rules, it does not look them up.
 * A dataset of one family leaves rules open and names the family that
 * would settle them; a row no rule explains is named with the nearest.
 * bankscope-dsmem's runs (H100, H200) give back sm_90's remote rules,
 * chosen by the sectors, and rows the sectors choose otherwise get the
 * other rule.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bankscope.h"
#include "testutil.h"

#define H100 "data/h100-sxm/all-20261122-052715.csv"
/* probe-all with the nine families: every kind */
#define H100_KINDS "data/h100-sxm/all-20261124-153149.csv"
#define H200 "data/h200/all-20261122-052847.csv"
#define PATTERNS "tests/calibration/h100.patterns"
/* bankscope-dsmem: local and remote accesses of one warp */
#define DSMEM_H100 "data/h100-sxm/dsmem-20261128/dsmem-h100.csv"
#define DSMEM_H200 "data/h200/dsmem-20261127/dsmem-a.csv"

static bs_arch derived;
static bs_calib_result res;

static void calibrate_file(const char *path)
{
	FILE *f = fopen(path, "r");
	bs_calib *c = bs_calib_new();
	bs_dataset *d;
	bs_error err;

	ck_assert_ptr_nonnull(f);
	d = bs_dataset_open(f, path, &err);
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(bs_calib_add_dataset(c, d, path, &err), 0);
	bs_dataset_close(d);
	fclose(f);
	ck_assert_msg(bs_calib_run(c, NULL, &derived, &res, &err) == 0, "%s",
		      err.text);
	bs_calib_free(c);
}

/*
 * A rule's copy as a dataset of the probes can show it: copy=words (the
 * source's part of cp.async.ca) changes nothing for their coalesced
 * sources, so calibrate derives copy=none where sm_90 has it.
 */
static unsigned copy_seen(unsigned copy)
{
	return copy == BS_COPY_WORDS ? BS_COPY_NONE : copy;
}

/*
 * Every rule of a is b's rule for its kind and width, in shape and latency
 * (not throughput, source); b may model more.  A remote rule of a that b
 * lacks is passed over: a dataset without remote rows derives none.
 */
static void same_rules(const bs_arch *a, const bs_arch *b)
{
	ck_assert_uint_eq(a->banks, b->banks);
	ck_assert_uint_eq(a->bank_bytes, b->bank_bytes);
	for (unsigned i = 0; i < a->nrules; i++) {
		const bs_rule *x = &a->rule[i];
		const bs_rule *y = bs_arch_rule(b, x->kind, x->width);
		char what[32];

		snprintf(what, sizeof what, "%s %u", bs_kind_name(x->kind),
			 x->width);
		if (x->remote && !y)
			continue;
		ck_assert_msg(y, "%s: no rule", what);
		ck_assert_msg(x->remote == y->remote, "%s: remote=%s/%s", what,
			      bs_remote_name(x->remote),
			      bs_remote_name(y->remote));
		ck_assert_msg(x->phase_lanes == y->phase_lanes &&
			      x->packed_lanes == y->packed_lanes &&
			      x->pack_partners == y->pack_partners &&
			      x->same_word == y->same_word &&
			      x->slot_waves == y->slot_waves &&
			      x->ideal == y->ideal && x->loop == y->loop &&
			      copy_seen(x->copy) == copy_seen(y->copy),
			      "%s: phases %u/%u packed "
			      "%u/%u partners %x/%x same %u/%u slot %u/%u "
			      "ideal %u/%u loop %u/%u copy %u/%u", what,
			      x->phase_lanes,
			      y->phase_lanes, x->packed_lanes, y->packed_lanes,
			      x->pack_partners, y->pack_partners,
			      x->same_word, y->same_word, x->slot_waves,
			      y->slot_waves, x->ideal, y->ideal, x->loop,
			      y->loop, x->copy, y->copy);
		ck_assert_msg((isnan(x->lat_base) && isnan(y->lat_base)) ||
			      x->lat_base == y->lat_base, "%s: lat_base %g/%g",
			      what, x->lat_base, y->lat_base);
		ck_assert_msg((isnan(x->lat_packed) && isnan(y->lat_packed)) ||
			      x->lat_packed == y->lat_packed,
			      "%s: lat_packed %g/%g", what, x->lat_packed,
			      y->lat_packed);
		ck_assert_msg((isnan(x->lat_slope) && isnan(y->lat_slope)) ||
			      x->lat_slope == y->lat_slope,
			      "%s: lat_slope %g/%g", what, x->lat_slope,
			      y->lat_slope);
	}
}

/* The same prediction under a and b for an access a models: 1; 0 when a
 * has no rule for it. */
static int same_prediction(const bs_arch *a, const bs_arch *b,
			   const bs_access *acc)
{
	bs_summary x, y;

	if (!bs_arch_rule(a, acc->kind, acc->width))
		return 0;
	ck_assert_int_eq(bs_predict(a, acc, &x, NULL), 0);
	ck_assert_int_eq(bs_predict(b, acc, &y, NULL), 0);
	ck_assert_msg(x.wavefronts == y.wavefronts &&
		      x.ideal_wavefronts == y.ideal_wavefronts &&
		      x.packed == y.packed &&
		      ((isnan(x.latency_cycles) && isnan(y.latency_cycles)) ||
		       x.latency_cycles == y.latency_cycles),
		      "%s: %u/%u wavefronts, %u/%u ideal, %.2f/%.2f cycles",
		      acc->name, x.wavefronts, y.wavefronts,
		      x.ideal_wavefronts, y.ideal_wavefronts,
		      x.latency_cycles, y.latency_cycles);
	return 1;
}

/*
 * Every committed pattern that a models: the probe families (4287 points,
 * `models` of them of kinds a has rules for), the datasets, the
 * calibration set.
 */
static void same_on_committed(const bs_arch *a, const bs_arch *b,
			      size_t models)
{
	const char *sets[] = { H100, H200 };
	bs_points pts = { 0 };
	bs_access acc;
	bs_error err;
	bs_reader *r;
	FILE *f;
	size_t n = 0;

	ck_assert_int_eq(bs_family_points(NULL, &pts), 0);
	ck_assert_uint_eq(pts.n, 4287);
	for (size_t i = 0; i < pts.n; i++)
		n += (size_t)same_prediction(a, b, &pts.v[i]);
	ck_assert_uint_eq(n, models);
	bs_points_free(&pts);
	for (size_t s = 0; s < 2; s++) {
		bs_dataset *d;
		bs_row row;

		f = fopen(sets[s], "r");
		d = bs_dataset_open(f, sets[s], &err);
		while (bs_dataset_next(d, &row, &err) > 0)
			same_prediction(a, b, &row.access);
		bs_dataset_close(d);
		fclose(f);
	}
	f = fopen(PATTERNS, "r");
	r = bs_reader_new(f, PATTERNS);
	while (bs_reader_next(r, &acc, &err) > 0)
		same_prediction(a, b, &acc);
	bs_reader_free(r);
	fclose(f);
}

START_TEST(test_measured_sm_90)
{
	const char *files[] = { H100, H200 };

	calibrate_file(files[_i]);
	ck_assert_uint_eq(res.rows, 1309);
	ck_assert_uint_eq(res.nmiss, 0);
	ck_assert_uint_eq(res.nopen, 0);
	ck_assert_str_eq(derived.name, "sm_90-calibrated");
	ck_assert_str_eq(derived.compute_capability, "9.0");
	/* every rule the run measures: ld and st at every width */
	ck_assert_uint_eq(derived.nrules, 10);
	same_rules(&derived, bs_arch_default());
	same_on_committed(&derived, bs_arch_default(), 1309);
	bs_calib_result_free(&res);
}
END_TEST

/*
 * The run of every kind gives back every rule of sm_90, both retry loops
 * and cp.async.cg's lines among them, and explains every row.
 */
START_TEST(test_measured_kinds)
{
	bs_kind f32, u64, cg;
	const bs_rule *r;

	calibrate_file(H100_KINDS);
	ck_assert_uint_eq(res.rows, 3889);
	ck_assert_uint_eq(res.nopen, 0);
	ck_assert_uint_eq(res.nmiss, 0);
	ck_assert_uint_eq(bs_arch_default()->nrules, 46);   /* 34 bank rules, 12 remote */
	ck_assert_uint_eq(derived.nrules, 34);
	same_rules(bs_arch_default(), &derived);
	ck_assert_int_eq(bs_kind_find("atom.add.f32", &f32), 0);
	ck_assert_int_eq(bs_kind_find("atom.add.u64", &u64), 0);
	ck_assert_int_eq(bs_kind_find("cp.async.cg", &cg), 0);
	r = bs_arch_rule(&derived, f32, 4);
	ck_assert_uint_eq(r->loop, BS_LOOP_CAS);
	ck_assert(isnan(r->lat_base));
	r = bs_arch_rule(&derived, u64, 8);
	ck_assert_uint_eq(r->loop, BS_LOOP_CAS);
	ck_assert_uint_eq(r->phase_lanes, 16);
	ck_assert_uint_eq(r->slot_waves, 2);
	r = bs_arch_rule(&derived, cg, 16);
	ck_assert_uint_eq(r->copy, BS_COPY_LINES);
	/* the conflict-free rows' median (the counter reads no conflicts
	   for LDGSTS.BYPASS: the rule's own ideal picks the rows) */
	ck_assert(fabs(r->tp_bytes_per_clk - 63.11) < 1e-9);
	bs_calib_result_free(&res);
}
END_TEST

/* ---- datasets synthesized from a profile ---------------------------------- */

static bs_calib *synthesize(const bs_arch *p, const char *family)
{
	bs_calib *c = bs_calib_new();
	bs_points pts = { 0 };

	ck_assert_int_eq(bs_family_points(family, &pts), 0);
	for (size_t i = 0; i < pts.n; i++) {
		bs_row row;
		bs_summary s;

		bs_row_init(&row);
		row.access = pts.v[i];
		snprintf(row.probe, sizeof row.probe, "%s", pts.family_of[i]);
		/* an architecture of ld and st says nothing of ldmatrix */
		if (!bs_arch_rule(p, row.access.kind, row.access.width))
			continue;
		ck_assert_int_eq(bs_predict(p, &row.access, &s, NULL), 0);
		row.wavefronts_measured = s.wavefronts;
		row.bank_conflicts_measured = s.bank_conflicts;
		row.cycles_per_access_median = s.latency_cycles;
		/* a remote row: dshared wavefronts and sectors, no bank */
		if (bs_kind_get(row.access.kind)->remote) {
			row.bank_conflicts_measured = NAN;
			row.sectors_measured = s.sectors;
		}
		ck_assert_int_eq(bs_calib_add_row(c, &row, "synthetic",
						  (long)i + 1), 0);
	}
	bs_points_free(&pts);
	return c;
}

static void run(bs_calib *c)
{
	bs_error err;

	ck_assert_msg(bs_calib_run(c, NULL, &derived, &res, &err) == 0, "%s",
		      err.text);
	bs_calib_free(c);
}

/*
 * Distinct accesses cost the search little each (issue 30, item 6): the
 * nine-family run four times over, copy c with every address moved by
 * c x 4096 bytes (banks, lines and counters unchanged), is 14,576
 * distinct accesses; calibrate gives back the same 34 rules, explains
 * every row, and predicts each access under a hundred times, not once per
 * candidate rule and geometry (about 9,000 times each before: 2 ms and a
 * minute for these, 625 s for 300,000).  Its time is make bench's
 * business (tests/bench_calibrate.sh, BENCH_DISTINCT).
 */
START_TEST(test_distinct_scale)
{
	bs_calib *c = bs_calib_new();
	bs_arch once;
	bs_error err;

	calibrate_file(H100_KINDS);
	once = derived;
	bs_calib_result_free(&res);
	for (unsigned copy = 0; copy < 4; copy++) {
		FILE *f = fopen(H100_KINDS, "r");
		bs_dataset *d = bs_dataset_open(f, H100_KINDS, &err);
		bs_row row;

		ck_assert_ptr_nonnull(d);
		while (bs_dataset_next(d, &row, &err) > 0) {
			for (unsigned l = 0; l < BS_LANES; l++)
				if (row.access.active >> l & 1)
					row.access.addr[l] += copy * 4096;
			ck_assert_int_eq(bs_calib_add_row(c, &row, H100_KINDS,
					 bs_dataset_line(d)), 0);
		}
		bs_dataset_close(d);
		fclose(f);
	}
	run(c);
	ck_assert_uint_eq(res.rows, 4 * 3889);
	ck_assert_uint_eq(res.distinct, 4 * 3644);
	ck_assert_uint_eq(res.nmiss, 0);
	ck_assert_uint_eq(res.nopen, 0);
	same_rules(&derived, &once);
	ck_assert_msg(res.judged < 100 * res.distinct, "%zu predictions for "
		      "%zu distinct accesses", res.judged, res.distinct);
	bs_calib_result_free(&res);
}
END_TEST

START_TEST(test_textbook)
{
	const bs_arch *t = bs_arch_find("textbook");

	run(synthesize(t, NULL));
	ck_assert_uint_eq(res.nmiss, 0);
	ck_assert_uint_eq(res.nopen, 0);
	ck_assert_uint_eq(derived.nrules, t->nrules);
	same_rules(&derived, t);
	ck_assert_str_eq(derived.name, "calibrated");
	bs_calib_result_free(&res);
}
END_TEST

static const char altered_text[] =
	"profile altered\nbanks 32\nbank_bytes 4\nsource s made up\n"
	"rule ld 1 phase=32 lat_base=20 lat_slope=3 source=s\n"
	"rule ld 2 phase=32 lat_base=20 lat_slope=3 source=s\n"
	"rule ld 4 phase=32 lat_base=20 lat_slope=3 source=s\n"
	/* 8-byte loads in one phase of 32 lanes */
	"rule ld 8 phase=32 lat_base=22 lat_slope=3 source=s\n"
	"rule ld 16 phase=8 packed=16 partners=1,2 lat_base=24 lat_packed=23 "
	"lat_slope=3 source=s\n"
	"rule st 1 phase=32 source=s\n"
	"rule st 2 phase=32 source=s\n"
	"rule st 4 phase=32 source=s\n"
	/* stores that pack: pairs of lanes, and quads for 16 bytes */
	"rule st 8 phase=16 packed=32 partners=1 source=s\n"
	"rule st 16 phase=8 packed=32 partners=1,2 source=s\n";

/*
 * A dataset synthesized from the architecture's text, every family's points
 * "measured" as it predicts them, calibrates back to its rules: none
 * missed, none left open.
 */
static void derives_back(const char *text)
{
	static bs_arch want;

	want = *tu_arch(text);
	run(synthesize(&want, NULL));
	ck_assert_uint_eq(res.nmiss, 0);
	ck_assert_uint_eq(res.nopen, 0);
	ck_assert_uint_eq(derived.nrules, want.nrules);
	same_rules(&derived, &want);
	bs_calib_result_free(&res);
}

START_TEST(test_altered)
{
	derives_back(altered_text);
}
END_TEST

/*
 * A retry loop is derived, not looked up: atomics whose loop tries in
 * phases of 16 lanes at one wavefront a phase, and float additions that
 * are single instructions (no loop), come back as such.
 */
START_TEST(test_altered_loops)
{
	const char *text =
		"profile loops\nbanks 32\nbank_bytes 4\nsource s made up\n"
		"rule ld 4 phase=32 source=s\n"
		"rule ld 8 phase=16 packed=32 partners=1,2 source=s\n"
		"rule atom.add.f32 4 phase=32 same_word=serial source=s\n"
		"rule atom.add.u64 8 phase=16 loop=cas source=s\n"
		"rule atom.min.s32 4 phase=16 slot_waves=2 loop=cas source=s\n";

	derives_back(text);
}
END_TEST

START_TEST(test_64_banks)
{
	const char *text =
		"profile wide\nbanks 64\nbank_bytes 4\nsource s made up\n"
		"rule ld 1 phase=32 source=s\nrule ld 2 phase=32 source=s\n"
		"rule ld 4 phase=32 source=s\nrule ld 8 phase=32 source=s\n"
		"rule ld 16 phase=16 source=s\nrule st 1 phase=32 source=s\n"
		"rule st 2 phase=32 source=s\nrule st 4 phase=32 source=s\n"
		"rule st 8 phase=32 source=s\nrule st 16 phase=16 source=s\n";

	derives_back(text);
}
END_TEST

/*
 * The families of the other kinds settle sm_90's rules for them: every
 * point of every family, "measured" as sm_90 predicts it, gives back the
 * rule of every kind and width sm_90 models, none left open, the remote
 * ones included.  dsmem.ld's line comes back in whole cycles, 196 + 2 x
 * sectors: against sm_90's 196.2 + 1.98 it moves no point (at most 32
 * sectors) by more than 0.44 cycles, within the 0.5 of exact rows.
 */
START_TEST(test_kinds_sm_90)
{
	const bs_arch *p = bs_arch_default();

	run(synthesize(p, NULL));
	for (size_t i = 0; i < res.nopen; i++)
		ck_assert_msg(0, "open: %s (%s)", res.open[i].what,
			      res.open[i].family);
	ck_assert_uint_eq(res.nmiss, 0);
	/* every point of every family: sm_90 models every kind */
	ck_assert_uint_eq(res.rows, 4287);
	ck_assert_uint_eq(res.remote_rows, 398);
	ck_assert(res.remote.cycles == BS_CALIB_CYCLES_TOL);
	ck_assert_uint_eq(derived.nrules, p->nrules);
	/* every rule back, the remote loads' lines per width exactly (no
	   whole-cycle line keeps their rows within the tolerance) */
	same_rules(&derived, p);
	bs_calib_result_free(&res);
}
END_TEST

/*
 * The stride family alone cannot tell whether 8- and 16-byte loads pack:
 * the counters decide, and where they cannot the rule is open (the
 * cycles, which differ, do not decide it).
 */
START_TEST(test_sparse)
{
	int ld8 = 0, ld16 = 0;

	run(synthesize(bs_arch_default(), "stride"));
	ck_assert_uint_eq(res.rows, 650);
	/* the first rule the counters allow does not pack, and the timing
	   of the broadcasts (which do) says so: named, not hidden */
	ck_assert_uint_eq(res.nmiss, 2);
	ck_assert_str_eq(res.miss[0].name, "u64_ld_s0");
	ck_assert_str_eq(res.miss[1].name, "v4_ld_s0");
	for (size_t i = 0; i < res.nopen; i++) {
		const bs_calib_open *o = &res.open[i];

		ck_assert_msg(o->kind == BS_KIND_LD && (o->width == 8 ||
							o->width == 16),
			      "open: %s", o->what);
		ck_assert_str_ne(o->family, "stride");
		ck_assert_str_ne(o->family, "");
		ck_assert_ptr_nonnull(strstr(o->what, "phases of"));
		ld8 += o->width == 8;
		ld16 += o->width == 16;
	}
	ck_assert_int_eq(ld8, 1);
	ck_assert_int_eq(ld16, 1);
	ck_assert_str_eq(res.open[0].what, "phases of 8-byte ld: the rows fit "
			 "'ld 8 phase=32' and 'ld 8 phase=16 packed=32 "
			 "partners=1' alike");
	ck_assert_str_eq(res.open[0].family, "broadcast");
	bs_calib_result_free(&res);
}
END_TEST

/* A row that no rule explains is named, with the nearest rule. */
START_TEST(test_unexplained)
{
	bs_calib *c = synthesize(bs_arch_default(), "stride");
	bs_row row;
	bs_access a = { .name = "odd_one", .width = 4, .kind = BS_KIND_LD,
			.active = ~0u };

	for (unsigned l = 0; l < BS_LANES; l++)
		a.addr[l] = 4 * l;
	bs_row_init(&row);
	row.access = a;
	row.wavefronts_measured = 3;   /* stride 1 costs 1 */
	row.bank_conflicts_measured = 2;
	ck_assert_int_eq(bs_calib_add_row(c, &row, "planted.csv", 42), 0);
	run(c);
	ck_assert_uint_eq(res.nmiss, 3);     /* and test_sparse's two */
	ck_assert_str_eq(res.miss[0].file, "planted.csv");
	ck_assert_int_eq(res.miss[0].line, 42);
	ck_assert_str_eq(res.miss[0].name, "odd_one");
	ck_assert_str_eq(res.miss[0].what, "measured 3 wavefronts, the nearest "
			 "rule gives 1");
	ck_assert_str_eq(res.miss[0].rule, "rule ld 4 phase=32");
	bs_calib_result_free(&res);
}
END_TEST

/*
 * Conflicts are held to the rule as check holds them: one wavefront with
 * 99 conflicts, and stride 2 (two lanes a bank: 2 wavefronts, 1
 * conflict) read with no conflict, are named although their wavefronts
 * agree.
 */
START_TEST(test_conflicts)
{
	static const struct {
		unsigned stride;
		double wf, bc;
		const char *what;
	} t[] = {
		{ 1, 1, 99, "measured 99 bank conflicts in 1 wavefronts, the "
			    "rule gives 0" },
		{ 2, 2, 0, "measured 0 bank conflicts in 2 wavefronts, the "
			   "rule gives 1" },
	};
	bs_calib *c = synthesize(bs_arch_default(), "stride");
	bs_row row;
	bs_access a = { .name = "planted", .width = 4, .kind = BS_KIND_LD,
			.active = ~0u };
	size_t found = 0;

	for (unsigned l = 0; l < BS_LANES; l++)
		a.addr[l] = 4 * t[_i].stride * l;
	bs_row_init(&row);
	row.access = a;
	row.wavefronts_measured = t[_i].wf;
	row.bank_conflicts_measured = t[_i].bc;
	ck_assert_int_eq(bs_calib_add_row(c, &row, "planted.csv", 7), 0);
	run(c);
	for (size_t i = 0; i < res.nmiss; i++) {
		if (strcmp(res.miss[i].name, "planted"))
			continue;
		found++;
		ck_assert_str_eq(res.miss[i].file, "planted.csv");
		ck_assert_int_eq(res.miss[i].line, 7);
		ck_assert_str_eq(res.miss[i].what, t[_i].what);
		ck_assert_str_eq(res.miss[i].rule, "rule ld 4 phase=32");
	}
	ck_assert_uint_eq(found, 1);
	bs_calib_result_free(&res);
}
END_TEST

/* ---- distributed shared memory ------------------------------------------ */

/* What calibrate gives on a bankscope-dsmem run, as it prints it. */
static const struct {
	const char *file;
	double ld_base[5], ld_slope[5];   /* 1, 2, 4, 8, 16 bytes */
	double atom_base, atom_slope, tol;
	size_t nmiss, miss_rows, latency;
} dsmem_runs[] = {
	{ DSMEM_H100, { 194.62, 194.53, 193.3, 196, 204 },
	  { 1.81, 1.84, 1.84, 2, 2 }, 215.93, 1.18, 6.19, 85, 78, 28 },
	{ DSMEM_H200, { 195.55, 195.37, 193.54, 196, 205.3 },
	  { 1.82, 1.86, 1.83, 2, 1.9 }, 219.94, 1.14, 5.82, 88, 81, 31 },
};

/* The derived rule of kind name and width: its cost, its line. */
static void remote_rule_is(const char *name, unsigned w, unsigned cost,
			   double base, double slope)
{
	const bs_rule *r;
	bs_kind k;

	ck_assert_int_eq(bs_kind_find(name, &k), 0);
	r = bs_arch_rule(&derived, k, w);
	ck_assert_msg(r, "%s %u: no rule", name, w);
	ck_assert_msg(r->remote == cost, "%s %u: remote=%s", name, w,
		      bs_remote_name(r->remote));
	ck_assert_msg((isnan(base) && isnan(r->lat_base)) ||
		      r->lat_base == base, "%s %u: lat_base %g, not %g", name,
		      w, r->lat_base, base);
	ck_assert_msg((isnan(slope) && isnan(r->lat_slope)) ||
		      r->lat_slope == slope, "%s %u: lat_slope %g, not %g",
		      name, w, r->lat_slope, slope);
}

/* Of the findings: misses of sectors (by kind name), of dshared
 * wavefronts, and of remote cycles. */
static void count_findings(size_t *st, size_t *atom, size_t *wf,
			   size_t *cycles)
{
	*st = *atom = *wf = *cycles = 0;
	for (size_t i = 0; i < res.nmiss; i++) {
		const bs_calib_miss *m = &res.miss[i];
		int sectors = strstr(m->what, " sectors, the nearest") != NULL;

		if (!bs_kind_get(m->kind)->remote)
			continue;
		if (m->latency)
			(*cycles)++;
		else if (sectors &&
			 !strcmp(bs_kind_name(m->kind), "dsmem.st"))
			*st += m->rows;
		else if (sectors)
			*atom += m->rows;
		else
			*wf += strstr(m->what, "dshared wavefronts") != NULL;
	}
}

/*
 * Every remote row of the file: the derived architecture predicts its
 * sectors and dshared wavefronts as sm_90 does, so check judges it the
 * same.  Every timed remote point of probe-dsmem: the derived latency is
 * within 6 cycles of sm_90's (loads 3.00 on the H100, 4.25 on the H200,
 * atomics 4.07 and 5.52; 8.44 and 9.02 for loads while sm_90 had one
 * line for every width).  sm_90's lines, fitted on the H200's
 * systematic rows, miss held-out rows by up to 21.9.
 */
static void judged_as_sm_90(const char *path)
{
	const bs_arch *p = bs_arch_default();
	FILE *f = fopen(path, "r");
	bs_points pts = { 0 };
	bs_dataset *d;
	bs_error err;
	bs_row row;
	size_t n = 0;

	d = bs_dataset_open(f, path, &err);
	ck_assert_ptr_nonnull(d);
	while (bs_dataset_next(d, &row, &err) > 0) {
		bs_summary x, y;

		if (!bs_kind_get(row.access.kind)->remote)
			continue;
		ck_assert_int_eq(bs_predict(&derived, &row.access, &x, NULL), 0);
		ck_assert_int_eq(bs_predict(p, &row.access, &y, NULL), 0);
		ck_assert_msg(x.sectors == y.sectors &&
			      x.wavefronts == y.wavefronts, "%s: %u/%u "
			      "sectors, %u/%u wavefronts", row.access.name,
			      x.sectors, y.sectors, x.wavefronts,
			      y.wavefronts);
		n++;
	}
	ck_assert_uint_eq(n, 398);
	bs_dataset_close(d);
	fclose(f);
	ck_assert_int_eq(bs_family_points("dsmem", &pts), 0);
	for (size_t i = 0; i < pts.n; i++) {
		bs_summary x, y;

		ck_assert_int_eq(bs_predict(&derived, &pts.v[i], &x, NULL), 0);
		ck_assert_int_eq(bs_predict(p, &pts.v[i], &y, NULL), 0);
		ck_assert(isnan(x.latency_cycles) == isnan(y.latency_cycles));
		ck_assert_msg(isnan(x.latency_cycles) ||
			      fabs(x.latency_cycles - y.latency_cycles) <= 6,
			      "%s: %.2f cycles, sm_90 %.2f", pts.v[i].name,
			      x.latency_cycles, y.latency_cycles);
	}
	bs_points_free(&pts);
}

/*
 * bankscope-dsmem's runs give back sm_90's remote rules: loads by their
 * distinct sectors, stores by remote=writes (remote=sectors fits 147 of
 * their 166 rows), red and atom read-modify-write, a latency line for
 * the kinds that return a value.  The sectors choose: every load and
 * store row fits, 64 of 66 atom rows (the 2 others are named); 55
 * accesses' dshared wavefronts miss (the held-out random ones, mostly)
 * and are named, not chosen by.
 */
START_TEST(test_measured_dsmem)
{
	static const unsigned widths[] = { 1, 2, 4, 8, 16 };
	size_t st, atom, wf, cycles;

	calibrate_file(dsmem_runs[_i].file);
	ck_assert_uint_eq(res.rows, 796);      /* 398 local, 398 remote */
	ck_assert_uint_eq(res.remote_rows, 398);
	ck_assert_uint_eq(res.skipped, 398);   /* the self rows */
	for (unsigned i = 0; i < 5; i++) {
		remote_rule_is("dsmem.ld", widths[i], BS_REMOTE_SECTORS,
			       dsmem_runs[_i].ld_base[i],
			       dsmem_runs[_i].ld_slope[i]);
		remote_rule_is("dsmem.st", widths[i], BS_REMOTE_WRITES, NAN,
			       NAN);
	}
	remote_rule_is("dsmem.red.add.u32", 4, BS_REMOTE_RMW, NAN, NAN);
	remote_rule_is("dsmem.atom.add.u32", 4, BS_REMOTE_RMW,
		       dsmem_runs[_i].atom_base, dsmem_runs[_i].atom_slope);
	ck_assert_msg(fabs(res.remote.cycles - dsmem_runs[_i].tol) < 0.005,
		      "remote tolerance %.4f", res.remote.cycles);
	ck_assert_uint_eq(res.cycles_tol, BS_CALIB_CYCLES_TOL);
	ck_assert_uint_eq(res.nmiss, dsmem_runs[_i].nmiss);
	ck_assert_uint_eq(res.miss_rows, dsmem_runs[_i].miss_rows);
	count_findings(&st, &atom, &wf, &cycles);
	ck_assert_uint_eq(st, 0);
	ck_assert_uint_eq(atom, 66 - 64);
	ck_assert_uint_eq(wf, 55);
	/* and one local atom's cycles */
	ck_assert_uint_eq(cycles + 1, dsmem_runs[_i].latency);
	/* the local rows leave ld 8 and 16's partners open, as before */
	ck_assert_uint_eq(res.nopen, 2);
	judged_as_sm_90(dsmem_runs[_i].file);
	bs_calib_result_free(&res);
}
END_TEST

/* One remote row: its access (lanes at lane x stride bytes, from 0),
 * "measured" sectors by cost, dshared wavefronts as that cost predicts. */
static void add_remote(bs_calib *c, const char *kind, unsigned width,
		       unsigned stride, unsigned cost, long line)
{
	bs_rule r = { .remote = (uint8_t)cost, .lat_base = NAN,
		      .lat_slope = NAN };
	bs_summary s;
	bs_row row;

	bs_row_init(&row);
	snprintf(row.access.name, sizeof row.access.name, "%s_%u", kind,
		 stride);
	ck_assert_int_eq(bs_kind_find(kind, &row.access.kind), 0);
	row.access.width = (uint8_t)width;
	row.access.active = ~0u;
	for (unsigned l = 0; l < BS_LANES; l++)
		row.access.addr[l] = l * stride;
	ck_assert_int_eq(bs_remote_predict(&r, &row.access, &s), 0);
	row.wavefronts_measured = s.wavefronts;
	row.sectors_measured = s.sectors;
	ck_assert_int_eq(bs_calib_add_row(c, &row, "remote.csv", line), 0);
}

/*
 * The sectors choose, not the kind: loads measured as read-modify-writes
 * get remote=rmw (remote=sectors gives none of them), atomics measured
 * by their distinct sectors remote=sectors, left undetermined against
 * remote=writes (no row writes one sector of a line in both halves; a
 * dsmem point does), and stores of which two rows fit rmw and one fits
 * sectors get the nearest, rmw, with that row named.
 */
START_TEST(test_remote_choice)
{
	static const struct {
		const char *kind;
		unsigned cost[3], want;
	} t[] = {
		{ "dsmem.ld", { BS_REMOTE_RMW, BS_REMOTE_RMW, BS_REMOTE_RMW },
		  BS_REMOTE_RMW },
		{ "dsmem.atom.add.u32", { BS_REMOTE_SECTORS, BS_REMOTE_SECTORS,
					  BS_REMOTE_SECTORS },
		  BS_REMOTE_SECTORS },
		{ "dsmem.st", { BS_REMOTE_RMW, BS_REMOTE_SECTORS,
				BS_REMOTE_RMW }, BS_REMOTE_RMW },
	};
	/* a word each (4 sectors), a sector each (32), all on one word */
	static const unsigned strides[3] = { 4, 32, 0 };
	bs_calib *c = bs_calib_new();

	for (unsigned i = 0; i < 3; i++)
		add_remote(c, t[_i].kind, 4, strides[i], t[_i].cost[i],
			   (long)i + 1);
	run(c);
	remote_rule_is(t[_i].kind, 4, t[_i].want, NAN, NAN);
	/* no bank row: the geometry is open, said so */
	ck_assert_uint_eq(res.nopen, _i == 1 ? 2 : 1);
	ck_assert_uint_eq(res.open[0].kind, BS_KIND_NONE);
	if (_i == 1) {
		ck_assert_str_eq(bs_kind_name(res.open[1].kind),
				 "dsmem.atom.add.u32");
		ck_assert_str_eq(res.open[1].family, "dsmem");
		ck_assert_msg(strstr(res.open[1].what, "remote=sectors and "
				     "remote=writes alike"), "%s",
			      res.open[1].what);
	}
	if (_i < 2) {
		ck_assert_uint_eq(res.nmiss, 0);
	} else {
		ck_assert_uint_eq(res.nmiss, 1);
		ck_assert_int_eq(res.miss[0].line, 2);
		ck_assert_str_eq(res.miss[0].what, "measured 32 sectors, the "
				 "nearest rule gives 64");
		ck_assert_str_eq(res.miss[0].rule, "rule dsmem.st 4 "
				 "remote=rmw");
	}
	bs_calib_result_free(&res);
}
END_TEST

/*
 * Loads that all move one sector leave the latency slope open, and say
 * what would settle it; the rule's cost is still derived.
 */
START_TEST(test_remote_one_x)
{
	bs_calib *c = bs_calib_new();
	bs_row row;
	bs_kind k;

	ck_assert_int_eq(bs_kind_find("dsmem.ld", &k), 0);
	for (unsigned n = 1; n <= 8; n++) {
		bs_row_init(&row);
		snprintf(row.access.name, sizeof row.access.name, "lanes%u", n);
		row.access.kind = k;
		row.access.width = 4;
		row.access.active = (uint32_t)((1ull << n) - 1);
		for (unsigned l = 0; l < n; l++)
			row.access.addr[l] = 4 * l;   /* one sector */
		row.wavefronts_measured = 1;
		row.sectors_measured = 1;
		row.cycles_per_access_median = 200 + n % 2;
		ck_assert_int_eq(bs_calib_add_row(c, &row, "one.csv", n), 0);
	}
	run(c);
	remote_rule_is("dsmem.ld", 4, BS_REMOTE_SECTORS, NAN, NAN);
	ck_assert_uint_eq(res.nmiss, 0);
	ck_assert_uint_eq(res.nopen, 2);     /* and the geometry */
	ck_assert_str_eq(res.open[1].what, "latency slope of 4-byte dsmem.ld: "
			 "every timed row has 1 sectors (rows of more "
			 "sectors, as probe-dsmem times, would settle it)");
	bs_calib_result_free(&res);
}
END_TEST

/* ---- noisy cycles ------------------------------------------------------- */

/*
 * The nine-family H100 run with its cycles changed by how(row, i) (i the
 * row's index), calibrated.
 */
static void calibrate_noisy(void (*how)(bs_row *, size_t))
{
	FILE *f = fopen(H100_KINDS, "r");
	bs_calib *c = bs_calib_new();
	bs_dataset *d;
	bs_error err;
	bs_row row;
	size_t i = 0;

	ck_assert_ptr_nonnull(f);
	d = bs_dataset_open(f, H100_KINDS, &err);
	ck_assert_ptr_nonnull(d);
	while (bs_dataset_next(d, &row, &err) > 0) {
		how(&row, i++);
		ck_assert_int_eq(bs_calib_add_row(c, &row, "noisy.csv",
						  bs_dataset_line(d)), 0);
	}
	bs_dataset_close(d);
	fclose(f);
	run(c);
}

/* Up to a cycle either way, min and median apart (lcg, fixed seed). */
static void jitter(bs_row *r, size_t i)
{
	static uint32_t x = 12345;

	(void)i;
	x = x * 1103515245u + 12345u;
	if (!isnan(r->cycles_per_access_median))
		r->cycles_per_access_median += (double)(x >> 8) / (1u << 23) - 1;
}

/*
 * Cycles within a cycle of the truth, within the repeatability the
 * README documents, change no rule and leave no row unexplained: the
 * tolerance follows the noise (the rows' spread) and says so.
 */
START_TEST(test_jitter)
{
	calibrate_noisy(jitter);
	ck_assert_uint_eq(res.nmiss, 0);
	ck_assert_uint_eq(res.nopen, 0);
	same_rules(bs_arch_default(), &derived);
	ck_assert(res.cycles_tol > 1 && res.cycles_tol < 3);
	ck_assert(res.spread > 0.8 && res.spread <= 1);
	bs_calib_result_free(&res);
}
END_TEST

/* 0 to 150 cycles more, fixed per access (FNV-1a of its kind, width,
 * lanes and addresses), so the rows of one access keep their spread of
 * about nothing. */
static void scatter(bs_row *r, size_t i)
{
	const bs_access *a = &r->access;
	uint32_t h = 2166136261u, v[3 + BS_LANES];

	(void)i;
	v[0] = a->kind;
	v[1] = a->width;
	v[2] = a->active;
	for (unsigned l = 0; l < BS_LANES; l++)
		v[3 + l] = a->active >> l & 1 ? a->addr[l] : 0;
	for (size_t k = 0; k < sizeof v; k++)
		h = (h ^ ((const unsigned char *)v)[k]) * 16777619u;
	if (!isnan(r->cycles_per_access_median))
		r->cycles_per_access_median += h % 151;
	if (!isnan(r->cycles_per_access_min))
		r->cycles_per_access_min += h % 151;
}

/*
 * Cycles scattered by up to 150 about the lines while each access's rows
 * agree (issue 30, item 5): the scatter is no noise to widen the
 * tolerance by but a finding, and the rows past the tolerance are
 * named; calibrate does not call them explained.
 */
START_TEST(test_scatter)
{
	size_t k = 0;

	calibrate_noisy(scatter);
	while (k < res.nopen && !strstr(res.open[k].what, "which their own "
					"spread"))
		k++;
	ck_assert_msg(k < res.nopen, "no finding of the scatter");
	ck_assert_msg(res.cycles_tol < 2, "tolerance %.2f", res.cycles_tol);
	ck_assert_uint_gt(res.nmiss, 0);
	bs_calib_result_free(&res);
}
END_TEST

/*
 * One row at 1e15 cycles among the rows of its access, and one of an
 * access measured once: both named as outliers, neither fitted; the
 * lines stay sm_90's.
 */
static void outliers(bs_row *r, size_t i)
{
	(void)i;
	if (!strcmp(r->access.name, "f32_ld_s3") ||
	    !strcmp(r->access.name, "rnd_f32_ld_few29"))
		r->cycles_per_access_median = 1e15;
}

START_TEST(test_outliers)
{
	calibrate_noisy(outliers);
	ck_assert_uint_eq(res.nopen, 0);
	ck_assert_uint_eq(res.nmiss, 2);
	ck_assert_str_eq(res.miss[0].name, "f32_ld_s3");
	ck_assert_int_eq(res.miss[0].latency, 1);
	ck_assert_str_eq(res.miss[0].what, "measured 1000000000000000.00 "
			 "cycles, the 4 rows of this access 33.00 (their "
			 "median): an outlier, left out of the fit");
	ck_assert_str_eq(res.miss[1].name, "rnd_f32_ld_few29");
	ck_assert_ptr_nonnull(strstr(res.miss[1].what, "an outlier, left out "
				     "of the fit"));
	ck_assert_uint_eq(res.miss_rows, 2);
	same_rules(bs_arch_default(), &derived);
	bs_calib_result_free(&res);
}
END_TEST

/* Loads that get faster the more wavefronts they take. */
static void falling(bs_row *r, size_t i)
{
	(void)i;
	if (!isnan(r->cycles_per_access_median))
		r->cycles_per_access_median = 200 - 6 *
			r->wavefronts_measured;
}

/*
 * A line no architecture holds (a negative slope) is not written: the
 * rule is open, and the architecture reads back as --arch reads it.
 */
START_TEST(test_negative_slope)
{
	static bs_arch back;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	bs_error err;
	const bs_rule *r;
	int ld4 = 0;

	calibrate_noisy(falling);
	for (size_t i = 0; i < res.nopen; i++)
		if (res.open[i].kind == BS_KIND_LD && res.open[i].width == 4) {
			ld4++;
			ck_assert_str_eq(res.open[i].what, "latency of 4-byte "
					 "ld: the timed rows give the line "
					 "200.00 + -6.00 x wavefronts, which "
					 "no arch file holds (cycles from 0 to "
					 "1e9): not written");
		}
	ck_assert_int_eq(ld4, 1);
	r = bs_arch_rule(&derived, BS_KIND_LD, 4);
	ck_assert(isnan(r->lat_base) && isnan(r->lat_slope));
	f = open_memstream(&text, &len);
	ck_assert_int_eq(bs_arch_write(f, &derived), 0);
	fclose(f);
	ck_assert_msg(bs_arch_parse(text, "back", &back, &err) == 0, "%s",
		      err.text);
	free(text);
	bs_calib_result_free(&res);
}
END_TEST

/* Throughputs past what an architecture holds. */
static void huge_tp(bs_row *r, size_t i)
{
	(void)i;
	if (r->access.kind == BS_KIND_ST && r->access.width == 4 &&
	    !isnan(r->tp_bytes_per_clk_per_sm))
		r->tp_bytes_per_clk_per_sm = 1e12;
}

/* A throughput no architecture holds is not written; the rest is. */
START_TEST(test_huge_tp)
{
	calibrate_noisy(huge_tp);
	ck_assert(isnan(bs_arch_rule(&derived, BS_KIND_ST, 4)
				->tp_bytes_per_clk));
	ck_assert(bs_arch_rule(&derived, BS_KIND_ST, 8)->tp_bytes_per_clk
		  > 100);
	ck_assert_uint_eq(res.nmiss, 0);
	bs_calib_result_free(&res);
}
END_TEST

START_TEST(test_no_rows)
{
	bs_calib *c = bs_calib_new();
	bs_row row;
	bs_error err;

	bs_row_init(&row);   /* no counters: skipped */
	ck_assert_int_eq(bs_calib_add_row(c, &row, "x", 1), 0);
	ck_assert_int_eq(bs_calib_run(c, NULL, &derived, &res, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.text, "no measured row"));
	bs_calib_free(c);
}
END_TEST

Suite *calibrate_suite(void)
{
	return tu_suite("calibrate", "derive", 300, (const tu_test[]){
		{ test_measured_sm_90, 2 }, { test_measured_kinds, 1 },
		{ test_distinct_scale, 1 },
		{ test_textbook, 1 }, { test_altered, 1 },
		{ test_altered_loops, 1 }, { test_64_banks, 1 },
		{ test_kinds_sm_90, 1 }, { test_sparse, 1 },
		{ test_unexplained, 1 }, { test_conflicts, 2 },
		{ test_jitter, 1 }, { test_scatter, 1 }, { test_outliers, 1 },
		{ test_negative_slope, 1 }, { test_huge_tp, 1 },
		{ test_no_rows, 1 }, { test_measured_dsmem, 2 },
		{ test_remote_choice, 3 }, { test_remote_one_x, 1 },
		{ NULL, 0 } });
}
