/*
 * check_probe.c - the probe runner and the committed datasets, without a
 * GPU.
 *
 * The runner (env PROBE, set by make check) must name a missing CUDA device
 * in one line and exit 1, without advice to upgrade a driver that is not
 * there, and reject bad options with exit 2.  Where make check could not
 * build it (no CUDA toolkit), PROBE is empty and those tests are left
 * out, saying so on stderr.  The committed H100 and H200 datasets must
 * pass `bankscope check` (env BANKSCOPE) with every row agreeing, and
 * carry the metadata a reader needs.  The counters' metric groups must each
 * be one CUPTI pass (CUPTI's host API, no GPU).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bankscope.h"
#include "testutil.h"
#include "../probes/driver_version.h"

#define H100 "data/h100-sxm/all-20261122-052715.csv"
#define H200 "data/h200/all-20261122-052847.csv"

/* Run a shell command, capture stdout+stderr; return the exit status. */
static int run(const char *cmd, char *out, size_t size)
{
	FILE *p = popen(cmd, "r");
	size_t n = 0;
	int st;

	ck_assert_ptr_nonnull(p);
	while (n + 1 < size && fgets(out + n, (int)(size - n), p))
		n += strlen(out + n);
	out[n] = '\0';
	while (fgetc(p) != EOF)
		;
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static const char *env(const char *name)
{
	const char *v = getenv(name);

	ck_assert_msg(v && *v, "%s is not set (run through make check)", name);
	return v;
}

static char buf[1 << 16];

START_TEST(test_no_device)
{
	char cmd[1024];
	int rc;

	snprintf(cmd, sizeof cmd, "%s --probe stride --out build/probe-test 2>&1",
		 env("PROBE"));
	rc = run(cmd, buf, sizeof buf);
	if (rc == 0)
		return;   /* a GPU is here: the device runs are tested there */
	ck_assert_int_eq(rc, 1);
	ck_assert_msg(strncmp(buf, "bankscope-probe: no CUDA device (", 33) == 0,
		      "got '%s'", buf);
	ck_assert_msg(!strstr(buf, "insufficient"), "suggests a driver "
		      "upgrade: '%s'", buf);
	ck_assert_msg(strchr(buf, '\n') == buf + strlen(buf) - 1,
		      "more than one line: '%s'", buf);
}
END_TEST

typedef struct {
	const char *args;
	int status;
	const char *phrase;
} probe_case;

static const probe_case probe_cases[] = {
	{ "--probe nosuch", 2, "unknown probe 'nosuch'" },
	{ "--probe stride --reps 5", 2, "--reps: '5' is not a number from 11" },
	{ "--probe stride --measure nothing", 2, "--measure: 'nothing'" },
	{ "--bogus x", 2, "unknown option '--bogus'" },
	{ "", 2, "give --probe NAME|all or --file PATTERNS" },
	{ "--probe stride --file x", 2, "give --probe NAME|all or --file" },
	{ "--file tests/cases/no-such-file", 2, "cannot open" },
	{ "--file tests/calibration/h100.expected.csv", 2,
	  "h100.expected.csv:1:61: expected WIDTH KIND and 32 lane" },
	{ "--list", 0, "stride     lane l accesses element l*s" },
	{ "--probe dsmem", 2,
	  "probe 'dsmem' is measured by bankscope-dsmem: make probe-dsmem" },
	/* escaped as bankscope escapes (issue 30, item 10) */
	{ "--file 'tests/cases/no-such-\033[2J\377'", 2,
	  "bankscope-probe: tests/cases/no-such-\\x1b[2J\\xff: cannot open" },
	{ "--probe '\033[2J'", 2, "unknown probe '\\x1b[2J'" },
};

/* bankscope-dsmem's options: refused before any device is opened. */
static const probe_case dsmem_cases[] = {
	{ "--bogus", 2, "bankscope-dsmem: unknown option '--bogus'\n"
	  "usage: bankscope-dsmem [--quick]" },
	{ "--quick --out", 2, "bankscope-dsmem: --out needs FILE or -\n"
	  "usage:" },
	{ "--file", 2, "bankscope-dsmem: --file needs FILE or -\n" },
	{ "--quick --file research/dsmem/wavefronts.pat", 2,
	  "--quick keeps some of the family's points; --file gives its own" },
	{ "--file tests/cases/no-such-file", 2,
	  "bankscope-dsmem: tests/cases/no-such-file: cannot open" },
	{ "--file tests/cases/cli/predict_csv/accesses.pat", 2,
	  "accesses.pat:2: f32_s1: no kernel for 4-byte ld (dsmem.ld and "
	  "dsmem.st of 1 to 16 bytes" },
	{ "--file tests/cases/cli/err_33_lanes/lanes33.pat", 2,
	  "bankscope-dsmem: tests/cases/cli/err_33_lanes/lanes33.pat:" },
	{ "--file tests/cases/dsmem/outside.pat", 2,
	  "outside.pat:2: edge: lane 1's address 49152: a 4-byte access must "
	  "be aligned and end inside the 49152-byte window" },
	{ "--file tests/cases/dsmem/wrap.pat", 2,
	  "wrap.pat:2: wrap: lane 1's address 4294967292: a 4-byte access "
	  "must be aligned and end inside the 49152-byte window" },
	{ "--file /dev/null", 2,
	  "bankscope-dsmem: /dev/null: no access in it" },
	/* escaped as bankscope escapes (issue 30, item 10) */
	{ "--file 'tests/cases/no-such-\033[2J\377'", 2,
	  "bankscope-dsmem: tests/cases/no-such-\\x1b[2J\\xff: cannot open" },
	{ "--file tests/cases/dsmem/escape.pat", 2,
	  "escape.pat:2: e\\x1b[2Jx\\xff: no kernel for 4-byte ld" },
	/* --help, --version, an option given twice (issue 30, item 11) */
	{ "--help", 0, "usage: bankscope-dsmem [--quick]" },
	{ "--version", 0, "bankscope-dsmem " },
	{ "--file /dev/null --file tests/cases/dsmem/outside.pat", 2,
	  "bankscope-dsmem: --file given twice" },
	{ "--out a.csv --out b.csv", 2, "bankscope-dsmem: --out given twice" },
};

/* Run the program $var names with c's arguments: its exit status and a
 * phrase of what it printed. */
static void option_case(const char *var, const probe_case *c)
{
	char cmd[1024];
	int rc;

	snprintf(cmd, sizeof cmd, "%s %s 2>&1", env(var), c->args);
	rc = run(cmd, buf, sizeof buf);
	ck_assert_msg(rc == c->status, "%s: exit %d, expected %d: %s", c->args,
		      rc, c->status, buf);
	ck_assert_msg(strstr(buf, c->phrase), "%s: '%s' lacks '%s'", c->args,
		      buf, c->phrase);
}

/*
 * A --file of more accesses than bankscope-dsmem measures in one run
 * (65,536) is refused at the first one too many, before a device is
 * opened (issue 30, item 11).
 */
START_TEST(test_dsmem_many)
{
	char path[256], cmd[1024];
	FILE *f;
	int rc;

	f = fdopen(tu_mkstemp(path, sizeof path, "bankscope-dsmem"), "w");
	ck_assert_ptr_nonnull(f);
	for (int i = 0; i < 65537; i++) {
		fprintf(f, "p%d 4 dsmem.ld", i);
		for (int l = 0; l < 32; l++)
			fprintf(f, " %d", 4 * l);
		fputc('\n', f);
	}
	ck_assert_int_eq(fclose(f), 0);
	snprintf(cmd, sizeof cmd, "%s --file %s 2>&1", env("DSMEM"), path);
	rc = run(cmd, buf, sizeof buf);
	unlink(path);
	ck_assert_int_eq(rc, 2);
	snprintf(cmd, sizeof cmd, "bankscope-dsmem: %s:65537: more than 65536 "
		 "accesses: give them in several files\n", path);
	ck_assert_str_eq(buf, cmd);
}
END_TEST

/* bankscope-gmma with no device: its options and its host side (every
 * row's descriptors and operand image, --list). */
static const probe_case gmma_cases[] = {
	{ "--bogus", 2, "bankscope-gmma: unknown option '--bogus'\n"
	  "usage: bankscope-gmma [--quick]" },
	{ "--out", 2, "bankscope-gmma: --out needs a value\n" },
	{ "--out a --out b", 2, "bankscope-gmma: --out given twice\n" },
	{ "--list --only hgmma_ss_n128_asw128_k_bsw128_k_wg1", 0,
	  "hgmma_ss_n128_asw128_k_bsw128_k_wg1 holdout=0 "
	  "desc_a=0x4000004000010000 desc_b=0x4000004000010800 image=ok\n" },
	{ "--list --only _gap", 0, "hgmma_ss_n64_ainter_k_binter_k_wg1_gap "
	  "holdout=1 desc_a=0x0000001000080000 desc_b=0x0000001000080800 "
	  "image=ok\n" },
	{ "--list --only tma_mcast_64x64", 0, "tma_mcast_64x64_sw128 "
	  "holdout=0\ntma_mcast_64x64_none holdout=0\n" },
};

START_TEST(test_gmma_options)
{
	option_case("GMMA", &gmma_cases[_i]);
}
END_TEST

/* Every row's operand image lies in its region. */
START_TEST(test_gmma_images)
{
	char cmd[1024];
	int rc;

	snprintf(cmd, sizeof cmd, "%s --list | grep -c 'image=ok' 2>&1",
		 env("GMMA"));
	rc = run(cmd, buf, sizeof buf);
	ck_assert_int_eq(rc, 0);
	ck_assert_str_eq(buf, "385\n");
}
END_TEST

START_TEST(test_dsmem_options)
{
	option_case("DSMEM", &dsmem_cases[_i]);
}
END_TEST

START_TEST(test_probe_options)
{
	option_case("PROBE", &probe_cases[_i]);
}
END_TEST

typedef struct {
	const char *path, *gpu;
} dataset_case;

static const dataset_case datasets[] = {
	{ H100, "NVIDIA H100 80GB HBM3" },
	{ H200, "NVIDIA H200" },
};

/* Every row of the committed datasets agrees with the sm_90 architecture. */
START_TEST(test_committed_verdict)
{
	const dataset_case *c = &datasets[_i];
	char cmd[1024];
	int rc;

	snprintf(cmd, sizeof cmd, "%s check --quiet %s 2>&1", env("BANKSCOPE"),
		 c->path);
	rc = run(cmd, buf, sizeof buf);
	ck_assert_msg(rc == 0, "exit %d: %s", rc, buf);
	ck_assert_str_eq(buf, "verdict: AGREES: 1309 rows, 1309 measured, "
			 "1309 agree, 0 disagree, 0 skipped, 0 timing only "
			 "(arch sm_90)\n");
}
END_TEST

/* The metadata a reader needs, and the measured facts the docs quote. */
START_TEST(test_committed_metadata)
{
	const dataset_case *c = &datasets[_i];
	static const char *const keys[] = {
		"gpu", "compute_capability", "sm_count", "sm_clock_mhz_measured",
		"driver_version", "runtime_version", "cupti_version",
		"git_describe", "date", "command", "profile", "counters",
		"complete",
	};
	FILE *f = fopen(c->path, "r");
	bs_error err;
	bs_dataset *d;
	bs_row row;
	int rc, n = 0, conflict_free = 0;

	ck_assert_ptr_nonnull(f);
	d = bs_dataset_open(f, c->path, &err);
	ck_assert_ptr_nonnull(d);
	for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
		ck_assert_msg(bs_dataset_meta(d, keys[k]), "%s lacks '%s'",
			      c->path, keys[k]);
	ck_assert_str_eq(bs_dataset_meta(d, "gpu"), c->gpu);
	ck_assert_str_eq(bs_dataset_meta(d, "complete"), "yes: 1309 points");
	while ((rc = bs_dataset_next(d, &row, &err)) > 0) {
		n++;
		ck_assert_msg(row.instructions == 64, "%s: %g instructions",
			      row.access.name, row.instructions);
		/* conflict-free full-warp loads of 4..16 bytes, not packed:
		   at least 99% of 32 banks x 4 bytes per clock */
		if (row.access.kind == BS_KIND_LD && row.access.active == 0xffffffffu
		    && row.access.width >= 4 && row.bank_conflicts_measured == 0
		    && row.packed_predicted == 0 &&
		    !strcmp(row.probe, "stride") &&
		    row.access.addr[1] != 0) {
			ck_assert_msg(row.tp_bytes_per_clk_per_sm >= 0.99 * 128,
				      "%s: %.3f B/clk/SM", row.access.name,
				      row.tp_bytes_per_clk_per_sm);
			conflict_free++;
		}
	}
	ck_assert_int_eq(rc, 0);
	ck_assert_int_eq(n, 1309);
	ck_assert_int_gt(conflict_free, 10);
	bs_dataset_close(d);
	fclose(f);
}
END_TEST

/*
 * The metric groups the runner reads in one CUPTI pass each
 * (probes/metrics.h) are one pass on the chips the suite knows, as CUPTI's
 * host API plans them: no GPU needed, only the toolkit
 * (build/counters-smoke --passes, env COUNTERS_SMOKE).  Before sm_90 the
 * SASS group goes without the stmatrix counters, which those chips lack.
 */
static const struct {
	const char *chip, *want;
} passes[] = {
	{ "GH100", "passes: GH100 ldst 1\npasses: GH100 atom 1\n"
		   "passes: GH100 sassk 1\n" },
	{ "GA100", "passes: GA100 ldst 1\npasses: GA100 atom 1\n"
		   "passes: GA100 sassk-before-sm_90 1\n" },
	{ "GB100", "passes: GB100 ldst 1\npasses: GB100 atom 1\n"
		   "passes: GB100 sassk 1\n" },
};

START_TEST(test_one_pass_groups)
{
	char cmd[1024];
	int rc;

	snprintf(cmd, sizeof cmd, "%s --passes %s 2>&1", env("COUNTERS_SMOKE"),
		 passes[_i].chip);
	rc = run(cmd, buf, sizeof buf);
	ck_assert_msg(rc == 0, "exit %d: %s", rc, buf);
	ck_assert_str_eq(buf, passes[_i].want);
}
END_TEST

/* Two PM counters and a SASS one cannot share a pass: exit 1, and an
 * unknown name exit 2 with the name. */
START_TEST(test_passes_refused)
{
	char cmd[1024];
	int rc;

	snprintf(cmd, sizeof cmd, "%s --passes GH100 --metrics "
		 "smsp__sass_inst_executed_op_ldsm.sum,"
		 "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum 2>&1",
		 env("COUNTERS_SMOKE"));
	rc = run(cmd, buf, sizeof buf);
	ck_assert_int_eq(rc, 1);
	ck_assert_str_eq(buf, "passes: GH100 given 2\n");
	snprintf(cmd, sizeof cmd, "%s --passes GH100 --metrics "
		 "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum 2>&1",
		 env("COUNTERS_SMOKE"));
	rc = run(cmd, buf, sizeof buf);
	ck_assert_int_eq(rc, 2);
	ck_assert_str_eq(buf, "passes: GH100 given: metric "
			 "'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum'"
			 " is unknown to CUPTI for chip GH100\n");
}
END_TEST

/*
 * The driver's release number, as the runner reads it for driver_version
 * (probes/driver_version.h): from /proc/driver/nvidia/version (proc 1) or
 * nvidia-smi's output (proc 0).
 */
static const struct {
	const char *text;
	int proc, rc;
	const char *want;
} releases[] = {
	{ "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu "
	  "Oct  9 19:29:37 UTC 2025\nGCC version:  gcc version 12.2.0\n", 1, 0,
	  "580.159.04" },
	{ "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.65.06  "
	  "Release Build  (dvs-builder@U16-I3-B03-4-3)  Tue Jul 15 ...\n", 1, 0,
	  "580.65.06" },
	{ "NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  "
	  "570.124.06  Release Build\n", 1, 0, "570.124.06" },
	{ "GCC version: gcc 12\nNVRM version: NVIDIA UNIX x86_64 Kernel Module "
	  " 535.54.03  Tue\n", 1, 0, "535.54.03" },
	{ "NVRM version: NVIDIA UNIX x86_64 Kernel Module\n580.1.1\n", 1, -1,
	  "" },
	{ "GCC version: gcc 12\n", 1, -1, "" },
	{ "", 1, -1, "" },
	{ "580.159.04\n", 0, 0, "580.159.04" },
	{ "580.159.04\r\n580.159.04\n", 0, 0, "580.159.04" },
	{ "N/A\n", 0, -1, "" },
	{ "580.\n", 0, -1, "" },
	{ ".580\n", 0, -1, "" },
	{ "580\n", 0, -1, "" },
};

START_TEST(test_driver_release)
{
	char out[32] = "untouched";
	int rc = driver_release_parse(releases[_i].text, releases[_i].proc, out,
				      sizeof out);

	ck_assert_int_eq(rc, releases[_i].rc);
	if (rc == 0)
		ck_assert_str_eq(out, releases[_i].want);
	else
		ck_assert_str_eq(out, "untouched");
}
END_TEST

/* A release that does not fit is not cut short. */
START_TEST(test_driver_release_small)
{
	char out[16] = "x";

	ck_assert_int_eq(driver_release_parse("580.159.04\n", 0, out, 10), -1);
	ck_assert_str_eq(out, "x");
	ck_assert_int_eq(driver_release_parse("580.159.04\n", 0, out, 11), 0);
	ck_assert_str_eq(out, "580.159.04");
}
END_TEST

Suite *probe_suite(void)
{
	Suite *s = suite_create("probe");
	TCase *tc = tcase_create("runner");
	TCase *td = tcase_create("datasets");

	tcase_set_timeout(tc, 60);
	if (getenv("PROBE") && *getenv("PROBE")) {
		tcase_add_test(tc, test_no_device);
		tcase_add_loop_test(tc, test_probe_options, 0,
				    sizeof probe_cases / sizeof *probe_cases);
	} else {
		fprintf(stderr, "check_probe: skipped the probe runner's tests "
			"(no device message, options): PROBE is empty, "
			"bankscope-probe was not built\n");
	}
	if (getenv("DSMEM") && *getenv("DSMEM")) {
		tcase_add_loop_test(tc, test_dsmem_options, 0,
				    sizeof dsmem_cases / sizeof *dsmem_cases);
		tcase_add_test(tc, test_dsmem_many);
	} else
		fprintf(stderr, "check_probe: skipped bankscope-dsmem's "
			"options: DSMEM is empty, it was not built\n");
	if (getenv("GMMA") && *getenv("GMMA")) {
		tcase_add_loop_test(tc, test_gmma_options, 0,
				    sizeof gmma_cases / sizeof *gmma_cases);
		tcase_add_test(tc, test_gmma_images);
	} else
		fprintf(stderr, "check_probe: skipped bankscope-gmma's "
			"options: GMMA is empty, it was not built\n");
	tcase_set_timeout(td, 60);
	tcase_add_loop_test(td, test_committed_verdict, 0,
			    sizeof datasets / sizeof *datasets);
	tcase_add_loop_test(td, test_committed_metadata, 0,
			    sizeof datasets / sizeof *datasets);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, td);
	tc = tcase_create("passes");
	tcase_set_timeout(tc, 60);
	if (getenv("COUNTERS_SMOKE") && *getenv("COUNTERS_SMOKE")) {
		tcase_add_loop_test(tc, test_one_pass_groups, 0,
				    sizeof passes / sizeof *passes);
		tcase_add_test(tc, test_passes_refused);
	} else {
		fprintf(stderr, "check_probe: skipped the metric groups' pass "
			"count: COUNTERS_SMOKE is empty, build/counters-smoke "
			"was not built\n");
	}
	suite_add_tcase(s, tc);
	tu_add_tcase(s, "driver", 0, (const tu_test[]){
		{ test_driver_release, TU_ROWS(releases) },
		{ test_driver_release_small, 1 }, { NULL, 0 } });
	return s;
}
