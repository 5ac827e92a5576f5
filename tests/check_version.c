/*
 * check_version.c - --version of bankscope and bankscope-probe.
 *
 * Both print "NAME VERSION" and exit 0, VERSION being what make computed
 * for this build (env BS_VERSION, set by make check: git describe
 * --always --dirty, or GIT_DESCRIBE).  make check rebuilds before it
 * tests, so a binary still carrying the version of an older commit (the
 * version baked in without a stamp) fails here.  PROBE is empty where
 * bankscope-probe was not built.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "bankscope.h"
#include "testutil.h"

static const char *expected(void)
{
	const char *v = getenv("BS_VERSION");

	ck_assert_msg(v && *v, "BS_VERSION is not set (run through make "
		      "check)");
	return v;
}

/* "PROGRAM --version", stdout and stderr: one line, exit 0. */
static void version_of(const char *program, const char *name)
{
	char cmd[1024], out[512] = "", want[512];
	FILE *p;
	size_t n;
	int st;

	snprintf(cmd, sizeof cmd, "%s --version 2>&1", program);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	n = fread(out, 1, sizeof out - 1, p);
	out[n] = '\0';
	st = pclose(p);
	snprintf(want, sizeof want, "%s %s\n", name, expected());
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		      "%s --version: exit status %d: %s", program,
		      WIFEXITED(st) ? WEXITSTATUS(st) : -1, out);
	ck_assert_str_eq(out, want);
}

START_TEST(test_library)
{
	ck_assert_str_eq(bs_version(), expected());
}
END_TEST

START_TEST(test_bankscope)
{
	const char *b = getenv("BANKSCOPE");

	ck_assert_msg(b && *b, "BANKSCOPE is not set (run through make check)");
	version_of(b, "bankscope");
}
END_TEST

START_TEST(test_probe)
{
	version_of(getenv("PROBE"), "bankscope-probe");
}
END_TEST

Suite *version_suite(void)
{
	Suite *s = suite_create("version");
	TCase *tc = tu_add_tcase(s, "version", 0, (const tu_test[]){
		{ test_library, 1 }, { test_bankscope, 1 }, { NULL, 0 } });

	if (getenv("PROBE") && *getenv("PROBE"))
		tcase_add_test(tc, test_probe);
	else
		fprintf(stderr, "check_version: skipped bankscope-probe "
			"--version: PROBE is empty, it was not built\n");
	return s;
}
