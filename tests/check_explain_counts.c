/*
 * check_explain_counts.c - what issue 27 added to profile --explain: the
 * explain library's counts (explain-counts.tsv) and grid samples, the
 * verdicts they allow (the counters' mean over the executions with a lane
 * on, LANES OFF, NOT MODELED for what no callback sees, the samples'
 * mean and standard error), profile's -o FILE, and cp.async.ca's
 * copy=words (lanes on one source word wait for one another).
 *
 * The fixture tests/cases/profile/explain-counts/ is made by its make.py
 * (a fake kernel whose six instructions each take one path); the
 * copy=words accesses are rows of the H200's srcprobe run
 * (data/h200/cpasync-src-20261202/srcprobe.csv) and cuBLAS's LDGSTS as
 * profile --explain recorded it (data/h200/explain-bench-20261202b/).
 */
#define _GNU_SOURCE
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bankscope.h"
#include "testutil.h"

#define CASE "tests/cases/profile/explain-counts"

/* ---- the counts reader --------------------------------------------------- */

#define CHEAD "launch\tkernel\tfunction\tpc_offset\tactive\tremote\n"

static bs_explain *counts_of(const char *text)
{
	bs_explain *e = bs_explain_new();
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	bs_error err;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(bs_explain_read_counts(e, f, "c", &err), 0);
	fclose(f);
	return e;
}

/* Two launches of f and one of g: sums over a function's launches, the
 * launches counted once each, an absent pc is 0 where the function has
 * counts and -1 where it has none. */
START_TEST(test_counts_read)
{
	bs_explain *e = counts_of(CHEAD
		"3\tk\tf\t0x10\t100\t0\n"
		"3\tk\tf\t0x20\t7\t5\n"
		"9\tk\tf\t0x10\t20\t1\n"
		"4\tk2\tg\t0x10\t1\t0\n");
	bs_explain_counts c;

	ck_assert_int_eq(bs_explain_has_counts(e), 1);
	ck_assert_int_eq(bs_explain_count(e, "f", 0x10, &c), 0);
	ck_assert_uint_eq(c.active, 120);
	ck_assert_uint_eq(c.remote, 1);
	ck_assert_uint_eq(c.launches, 2);
	ck_assert_int_eq(bs_explain_count(e, "f", 0x20, &c), 0);
	ck_assert_uint_eq(c.active, 7);
	ck_assert_uint_eq(c.remote, 5);
	ck_assert_int_eq(bs_explain_count(e, "f", 0x30, &c), 0);
	ck_assert_uint_eq(c.active, 0);
	ck_assert_uint_eq(c.launches, 2);
	ck_assert_int_eq(bs_explain_count(e, "g", 0x10, &c), 0);
	ck_assert_uint_eq(c.launches, 1);
	ck_assert_int_eq(bs_explain_count(e, "h", 0x10, &c), -1);
	bs_explain_free(e);
	e = bs_explain_new();
	ck_assert_int_eq(bs_explain_has_counts(e), 0);
	ck_assert_int_eq(bs_explain_count(e, "f", 0x10, &c), -1);
	bs_explain_free(e);
}
END_TEST

static const struct {
	const char *text, *want;
} bad_counts[] = {
	{ "launch\tkernel\n", "c:1:1: not the expected header line" },
	{ CHEAD "0\tk\tf\t0x10\t4\n", "c:2: 5 tab-separated fields, "
	  "expected 6" },
	{ CHEAD "0\tk\tf\t0x10\t4\t0\t1\n", "c:2:16: more than 6 "
	  "tab-separated fields" },
	{ CHEAD "0\tk\tf\t0x10\tmany\t0\n", "c:2:12: active: 'many' is not "
	  "a non-negative integer" },
	{ CHEAD "0\tk\tf\t0x10\t4\t5\n", "c:2:14: remote: 5 is larger than "
	  "4" },
	{ CHEAD "0\tk\t\t0x10\t4\t0\n", "c:2:5: function is empty" },
	{ CHEAD "x\tk\tf\t0x10\t4\t0\n", "c:2:1: launch: 'x' is not a "
	  "non-negative integer" },
	{ CHEAD "0\tk\tf\t0x10\t4\t0", "c:2: the last line has no newline: "
	  "the file is truncated" },
};

START_TEST(test_counts_bad)
{
	bs_explain *e = bs_explain_new();
	const char *t = bad_counts[_i].text;
	FILE *f = fmemopen((void *)t, strlen(t), "r");
	bs_error err;
	char buf[512];

	ck_assert_int_eq(bs_explain_read_counts(e, f, "c", &err), -1);
	bs_error_format(&err, buf, sizeof buf);
	ck_assert_str_eq(buf, bad_counts[_i].want);
	fclose(f);
	bs_explain_free(e);
}
END_TEST

/* ---- the verdicts on the fixture ------------------------------------------ */

typedef struct {
	bs_sassprof *sp;
	size_t n;
	bs_explain *e;
} fixture;

static void load(fixture *x)
{
	char status[256];
	bs_records_disasm d;
	bs_error err;

	x->sp = bs_sassprof_new();
	ck_assert_int_eq(bs_records_read_tables(CASE, x->sp, 1, &err), 0);
	memset(&d, 0, sizeof d);
	ck_assert_int_eq(bs_records_read_disasm(CASE, x->sp, NULL, NULL, &d,
						&err), 0);
	free(d.gap);
	x->n = bs_sassprof_finish(x->sp);
	ck_assert_int_eq(bs_records_read_explain(CASE, &x->e, status,
						 sizeof status, &err), 1);
	ck_assert_str_eq(status, "");
}

static void unload(fixture *x)
{
	bs_sassprof_free(x->sp);
	bs_explain_free(x->e);
}

static void judge_pc(fixture *x, uint32_t pc, bs_verdict_result *r)
{
	for (size_t i = 0; i < x->n; i++) {
		const bs_sass_insn *in = bs_sassprof_get(x->sp, i);

		if (in->pc == pc) {
			bs_explain_judge(bs_arch_find("sm_90"), x->e, in, NULL,
					 r, NULL);
			return;
		}
	}
	ck_abort_msg("no instruction at 0x%x", pc);
}

START_TEST(test_verdicts)
{
	fixture x;
	bs_verdict_result r;

	load(&x);
	/* @!P0 STS: 2 wavefronts over the 8 of 16 executions with a lane on */
	judge_pc(&x, 0x10, &r);
	ck_assert_int_eq(r.verdict, BS_VERDICT_AGREES);
	ck_assert_int_eq(r.counted, 1);
	ck_assert_uint_eq(r.active_execs, 8);
	ck_assert(fabs(r.measured_active - 2.0) < 1e-9);
	ck_assert(fabs(r.active - 0.5) < 1e-9);
	/* no count line, no wavefront: nothing moved */
	judge_pc(&x, 0x20, &r);
	ck_assert_int_eq(r.verdict, BS_VERDICT_LANES_OFF);
	ck_assert_uint_eq(r.samples, 0);
	/* HGMMA: no callback, whatever the counts say */
	judge_pc(&x, 0x30, &r);
	ck_assert_int_eq(r.verdict, BS_VERDICT_NOT_MODELED);
	ck_assert_int_eq(r.counted, 0);
	ck_assert_ptr_nonnull(r.unseen);
	/* grid samples weighted by what each stands for: 1 at 0 .. 15, 2 at
	   16 .. 63 of 64 executions: mean 1.75, the counters' */
	judge_pc(&x, 0x40, &r);
	ck_assert_int_eq(r.verdict, BS_VERDICT_DATA_DEPENDENT);
	ck_assert(fabs(r.judged_mean - 1.75) < 1e-9);
	ck_assert(fabs(r.mean_wf - 16.0 / 12) < 1e-9);
	ck_assert(r.z < 1e-9);
	ck_assert(r.neff > 5.98 && r.neff < 5.99);
	/* 40 samples of 1, lanes rotated, the counters 1.3: z = 0.3 /
	   sqrt(0.3 * 0.7 / 40) */
	judge_pc(&x, 0x50, &r);
	ck_assert_int_eq(r.verdict, BS_VERDICT_DISAGREES);
	ck_assert_int_eq(r.varies, 1);
	ck_assert(fabs(r.z - 0.3 / sqrt(0.21 / 40)) < 1e-9);
	/* counts above CUPTI's executions: left out */
	judge_pc(&x, 0x60, &r);
	ck_assert_int_eq(r.counted, 0);
	ck_assert_int_eq(r.verdict, BS_VERDICT_AGREES);
	ck_assert_str_eq(bs_verdict_name(BS_VERDICT_LANES_OFF), "LANES OFF");
	unload(&x);
}
END_TEST

/* ---- profile -o FILE --------------------------------------------------------- */

/* The report goes to the file, whole, and stdout stays empty; the same
 * bytes as without -o.  A file in a folder that is not there, or a
 * folder, is refused before anything runs, with exit status 2. */
START_TEST(test_output_option)
{
	char dir[256], file[300];
	char *a;
	const char *args[] = { "profile", "--replay", CASE, "--explain",
			       "--format", "csv", "-o", file, NULL };
	const char *bare[] = { "profile", "--replay", CASE, "--explain",
			       "--format", "csv", NULL };
	const char *nodir[] = { "profile", "--replay", CASE, "-o",
				"/nonexistent-bankscope/x.csv", NULL };
	const char *folder[] = { "profile", "--replay", CASE, "-o", dir,
				 NULL };
	tu_run_result r, b;

	snprintf(dir, sizeof dir, "/tmp/bankscope-counts-XXXXXX");
	tu_mkdtemp(dir);
	snprintf(file, sizeof file, "%s/report.csv", dir);
	r = tu_run_bankscope(args);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.out, "");
	b = tu_run_bankscope(bare);
	ck_assert_int_eq(b.status, 0);
	ck_assert_ptr_nonnull(a = tu_slurp(file, NULL));
	ck_assert_str_eq(a, b.out);
	ck_assert_ptr_nonnull(strstr(a, "LANES OFF"));
	free(a);
	free(r.out);
	free(r.err);
	free(b.out);
	free(b.err);
	r = tu_run_bankscope(nodir);
	ck_assert_int_eq(r.status, 2);
	ck_assert_str_eq(r.err, "bankscope: option -o: /nonexistent-bankscope/"
			 "x.csv: no folder /nonexistent-bankscope\n");
	free(r.out);
	free(r.err);
	r = tu_run_bankscope(folder);
	ck_assert_int_eq(r.status, 2);
	ck_assert_ptr_nonnull(strstr(r.err, "is a folder"));
	free(r.out);
	free(r.err);
	tu_remove(dir);
}
END_TEST

/* ---- cp.async.ca: copy=words ------------------------------------------------- */

/* Lane l copies 4 bytes from src(l) to dst(l). */
static bs_access copy4(uint32_t *src, int shape)
{
	bs_access a;

	memset(&a, 0, sizeof a);
	ck_assert_int_eq(bs_kind_find("cp.async.ca", &a.kind), 0);
	a.width = 4;
	a.active = UINT32_MAX;
	for (unsigned l = 0; l < 32; l++) {
		if (shape == 0) {
			/* cuBLAS's sm80 xmma LDGSTS.E.LTC128B as recorded
			   on the H200: 4 rows of 32 bytes, 4096 apart, to a
			   528-byte pitch */
			src[l] = 4096 * (l / 8) + 4 * (l % 8);
			a.addr[l] = 528 * (l % 8) + 4 * (l / 8);
		} else if (shape == 1) {
			/* srcprobe's ca4.p4.rs2064.o0.lin: a lane a row,
			   rows 2064 bytes apart: 8 source words, 4 lanes each */
			src[l] = 2064 * l;
			a.addr[l] = 4 * l;
		} else {
			src[l] = 4 * l;          /* coalesced */
			a.addr[l] = 4 * l;
		}
	}
	a.src = src;
	return a;
}

START_TEST(test_copy_words)
{
	const bs_arch *p = bs_arch_find("sm_90");
	uint32_t src[32];
	bs_access a;
	bs_summary s;
	bs_detail *d = malloc(sizeof *d);

	a = copy4(src, 0);
	ck_assert_int_eq(bs_predict(p, &a, &s, NULL), 0);
	ck_assert_uint_eq(s.wavefronts, 4);       /* counted: 4 */
	ck_assert_uint_eq(s.ideal_wavefronts, 1);
	ck_assert_uint_eq(s.max_way, 1);
	ck_assert_int_eq(bs_predict_detail(p, &a, d, NULL), 0);
	ck_assert_uint_eq(d->phase[0].waits, 3);
	ck_assert_uint_eq(d->phase[0].wavefronts, 4);
	a = copy4(src, 1);
	ck_assert_int_eq(bs_predict(p, &a, &s, NULL), 0);
	ck_assert_uint_eq(s.wavefronts, 4);       /* measured: 4 */
	a = copy4(src, 2);
	ck_assert_int_eq(bs_predict(p, &a, &s, NULL), 0);
	ck_assert_uint_eq(s.wavefronts, 1);
	a.src = NULL;                             /* the probes' source */
	ck_assert_int_eq(bs_predict(p, &a, &s, NULL), 0);
	ck_assert_uint_eq(s.wavefronts, 1);
	free(d);
}
END_TEST

static const struct {
	const char *rule, *want;
} bad_copy[] = {
	{ "rule ld 4 phase=32 copy=words source=s",
	  "copy=words is for copies of 4 to 16 bytes (cp.async.ca): ld 4 is "
	  "not one" },
	{ "rule cp.async.ca 4 phase=32 copy=pages source=s",
	  "copy is none, lines or words" },
};

START_TEST(test_copy_words_refused)
{
	char text[512], buf[512];
	static bs_arch p;
	bs_error err;

	snprintf(text, sizeof text, "arch t\nbanks 32\nbank_bytes 4\n"
		 "source s here\n%s\n", bad_copy[_i].rule);
	ck_assert_int_eq(bs_arch_parse(text, "a", &p, &err), -1);
	bs_error_format(&err, buf, sizeof buf);
	ck_assert_msg(strstr(buf, bad_copy[_i].want), "%s", buf);
}
END_TEST

Suite *explain_counts_suite(void)
{
	Suite *s = suite_create("explain_counts");
	TCase *t = tcase_create("core");

	tcase_add_test(t, test_counts_read);
	tcase_add_loop_test(t, test_counts_bad, 0,
			    sizeof bad_counts / sizeof *bad_counts);
	tcase_add_test(t, test_verdicts);
	tcase_add_test(t, test_output_option);
	tcase_add_test(t, test_copy_words);
	tcase_add_loop_test(t, test_copy_words_refused, 0,
			    sizeof bad_copy / sizeof *bad_copy);
	suite_add_tcase(s, t);
	return s;
}
