/*
 * check_metrics.c - probes/metrics.h is the one home of the hardware
 * metric names (its head says which groups read them), so that a name is
 * corrected, or a new chip's spelling added, in one place:
 *
 *   - every `#define BS_..._METRIC_<NAME> "<metric>"` there names a
 *     different metric;
 *   - no other C, CUDA or header file of the probes, the profiler
 *     (the injection and the explain library), the examples, tests/cuda
 *     or cudabase/ spells one in a string literal: they name the macro;
 *   - the library (analyzer/), which includes no header outside its
 *     wings, reads the dsmem probe's CSV columns by their metric names:
 *     each name it spells, a "%s" template taken for ld, st and atom,
 *     is one metrics.h defines.
 *
 * A metric name here is a string literal that starts with lower-case
 * letters or digits and then "__" (smsp__, l1tex__, sm__: the CUPTI
 * spelling).  It reads the files as text, so it needs no CUDA toolkit.
 * Tests run from the repository's root.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define METRICS "probes/metrics.h"
#define MAX_METRICS 256
#define NAME_MAX_ 160

typedef struct {
	char name[MAX_METRICS][NAME_MAX_];
	size_t n;
} metric_set;

/* The metric names metrics.h defines; a name defined twice fails. */
static void read_metrics(metric_set *m)
{
	char *text = tu_slurp(METRICS, NULL), *line;

	ck_assert_msg(text != NULL, "cannot read %s (tests run from the "
		      "repository's root)", METRICS);
	m->n = 0;
	for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char macro[128], value[NAME_MAX_];

		if (sscanf(line, "#define %127s \"%159[^\"]\"", macro,
			   value) != 2 || strncmp(macro, "BS_", 3) ||
		    !strstr(macro, "METRIC_"))
			continue;
		for (size_t i = 0; i < m->n; i++)
			ck_assert_msg(strcmp(m->name[i], value), "%s: %s "
				      "(%s) is defined twice", METRICS, value,
				      macro);
		ck_assert_uint_lt(m->n, MAX_METRICS);
		snprintf(m->name[m->n++], NAME_MAX_, "%s", value);
	}
	free(text);
	ck_assert_msg(m->n >= 40, "%s: only %zu metric names read", METRICS,
		      m->n);
}

static int defined(const metric_set *m, const char *name)
{
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->name[i], name))
			return 1;
	return 0;
}

/*
 * The metric-like literal starting at q (after a '"') into buf: 1 when
 * it is one ([a-z0-9]+ "__" ...), up to its closing quote.
 */
static int metric_literal(const char *q, char *buf, size_t size)
{
	size_t n = strspn(q, "abcdefghijklmnopqrstuvwxyz0123456789");
	size_t len = strcspn(q, "\"\n");

	if (!n || strncmp(q + n, "__", 2) || len >= size)
		return 0;
	memcpy(buf, q, len);
	buf[len] = '\0';
	return 1;
}

static int source_file(const char *name)
{
	const char *dot = strrchr(name, '.');

	return dot && (!strcmp(dot, ".c") || !strcmp(dot, ".cu") ||
		       !strcmp(dot, ".h"));
}

/*
 * Each metric-like literal of the source files under dir (recursively),
 * metrics.h aside, to check(path, line, name, m): the messages of the
 * failures, '\n'-separated, appended to out.
 */
typedef void (*literal_check)(const char *path, long line, const char *name,
			      const metric_set *m, char *out, size_t size);

static void scan(const char *dir, const metric_set *m, literal_check check,
		 char *out, size_t size)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	ck_assert_msg(d != NULL, "cannot open %s", dir);
	while ((e = readdir(d))) {
		char path[1024], *text, *p;
		long line = 1;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (!source_file(e->d_name)) {
			DIR *sub = opendir(path);

			if (sub) {
				closedir(sub);
				scan(path, m, check, out, size);
			}
			continue;
		}
		if (!strcmp(path, METRICS) || !(text = tu_slurp(path, NULL)))
			continue;
		for (p = text; *p; p++) {
			char name[NAME_MAX_];

			if (*p == '\n')
				line++;
			else if (*p == '"' && metric_literal(p + 1, name,
							     sizeof name))
				check(path, line, name, m, out, size);
		}
		free(text);
	}
	closedir(d);
}

static void append(char *out, size_t size, const char *msg)
{
	size_t n = strlen(out);

	if (n < size)
		snprintf(out + n, size - n, "\n  %s", msg);
}

/* A literal where the macro should be: always a failure. */
static void spelled(const char *path, long line, const char *name,
		    const metric_set *m, char *out, size_t size)
{
	char msg[512];

	snprintf(msg, sizeof msg, "%s:%ld: \"%s\": %s", path, line, name,
		 defined(m, name) ? "name its macro from " METRICS
				  : "not in " METRICS ": define it there");
	append(out, size, msg);
}

/* A name the library spells: metrics.h must define it (each pipe's). */
static void known(const char *path, long line, const char *name,
		  const metric_set *m, char *out, size_t size)
{
	static const char *const pipe[] = { "ld", "st", "atom" };
	const char *s = strstr(name, "%s");
	char full[NAME_MAX_ + 8], msg[512];

	for (size_t i = 0; i < (s ? 3u : 1u); i++) {
		if (s)
			snprintf(full, sizeof full, "%.*s%s%s",
				 (int)(s - name), name, pipe[i], s + 2);
		else
			snprintf(full, sizeof full, "%s", name);
		if (defined(m, full))
			continue;
		snprintf(msg, sizeof msg, "%s:%ld: \"%s\" is not a metric %s "
			 "defines", path, line, full, METRICS);
		append(out, size, msg);
	}
}

/* ---- the tests ------------------------------------------------------------ */

static metric_set metrics;

START_TEST(test_defined_once)
{
	read_metrics(&metrics);
}
END_TEST

static const char *const borrowers[] = {
	"probes", "profiler", "examples", "tests/cuda", "cudabase",
};

START_TEST(test_no_other_spelling)
{
	char out[8192] = "";

	read_metrics(&metrics);
	scan(borrowers[_i], &metrics, spelled, out, sizeof out);
	ck_assert_msg(!out[0], "metric names spelled outside %s:%s",
		      METRICS, out);
}
END_TEST

START_TEST(test_library_names_known)
{
	char out[8192] = "";

	read_metrics(&metrics);
	scan("analyzer", &metrics, known, out, sizeof out);
	ck_assert_msg(!out[0], "the library reads metrics %s lacks:%s",
		      METRICS, out);
}
END_TEST

/* The test's own eye: a spelled name is seen, a macro is not. */
START_TEST(test_literal_seen)
{
	char name[NAME_MAX_];

	ck_assert_int_eq(metric_literal("smsp__sass_inst_executed\", x", name,
					sizeof name), 1);
	ck_assert_str_eq(name, "smsp__sass_inst_executed");
	ck_assert_int_eq(metric_literal("l1tex__t_%s.sum\"", name,
					sizeof name), 1);
	ck_assert_int_eq(metric_literal("bankscope: %s\"", name,
					sizeof name), 0);
	ck_assert_int_eq(metric_literal("__func__\"", name, sizeof name), 0);
}
END_TEST

Suite *metrics_suite(void)
{
	return tu_suite("metrics", "one home of metric names", 60,
			(const tu_test[]){
		{ test_defined_once, 1 },
		{ test_no_other_spelling, TU_ROWS(borrowers) },
		{ test_library_names_known, 1 }, { test_literal_seen, 1 },
		{ NULL, 0 } });
}
