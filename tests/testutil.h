/*
 * testutil.h - what several test suites need: a whole file in memory,
 * where two texts part, for failure messages, a suite's test cases
 * built from tables, an arch from text, an access from lane offsets, and
 * the rows of a committed CSV file.
 */
#ifndef BANKSCOPE_TESTUTIL_H
#define BANKSCOPE_TESTUTIL_H

#include <check.h>
#include <stddef.h>
#include <stdio.h>

#include "bankscope.h"

/* The whole file, NUL-terminated (its length in *len when len is not
 * NULL); NULL when it cannot be opened.  Aborts when out of memory. */
char *tu_slurp(const char *path, size_t *len);

/*
 * "WHAT differs at line N:\n  LABEL: <want's line>\n  actual: <got's line>"
 * into msg: the first line where want and got part.
 */
void tu_first_difference(const char *what, const char *label,
			 const char *want, const char *got, char *msg,
			 size_t size);

/*
 * One test of a test case: run n times, _i from 0 to n - 1 (Check's loop
 * test); n 1 is a plain test, exactly as tcase_add_test() adds it.
 */
typedef struct {
	const TTest *test;
	int n;
} tu_test;

/* The rows of a table, as an int for a loop test. */
#define TU_ROWS(a) ((int)(sizeof(a) / sizeof(*(a))))

/*
 * Create test case `name` with tests (ended by a NULL test), its timeout
 * in seconds (0: Check's default), and add it to s.  Returns it, for a
 * fixture or a test only some builds have.
 */
TCase *tu_add_tcase(Suite *s, const char *name, int timeout,
		    const tu_test *tests);

/* A suite of one test case, tcase (tu_add_tcase's arguments). */
Suite *tu_suite(const char *name, const char *tcase, int timeout,
		const tu_test *tests);

/* text parsed as an arch file (named "t"); fails the test on an error.
 * The arch is static: the next call overwrites it. */
const bs_arch *tu_arch(const char *text);

/* A new directory from template dir ("/tmp/NAME-XXXXXX"), or the test
 * fails; tu_remove removes it and all it holds. */
void tu_mkdtemp(char *dir);
/* A new empty file in $TMPDIR (else /tmp) named PREFIX-XXXXXX; its path
 * in path, its descriptor returned (open for writing). */
int tu_mkstemp(char *path, size_t size, const char *prefix);
void tu_remove(const char *dir);

/* bankscope ($BANKSCOPE, which make check sets) run with args (NULL
 * ended), stdin from /dev/null: its stdout and stderr (new strings) and
 * its exit status.  A bankscope killed by a signal fails the test. */
typedef struct {
	char *out, *err;
	int status;
} tu_run_result;
tu_run_result tu_run_bankscope(const char *const *args);
/* r's stderr, stdout and exit status are exactly these; frees r. */
void tu_expect_run(tu_run_result r, int status, const char *out,
		   const char *err);
/* dir/name holds exactly want. */
void tu_file_is(const char *dir, const char *name, const char *want);
/* A new string: the profile fixtures' folder ($BANKSCOPE_PROFILE_CASES,
 * else tests/cases/profile), then a and, when not empty, b below it. */
char *tu_profile_case(const char *a, const char *b);

/* err is the error at source:line:column with text; a NULL source or
 * text is not asserted. */
void tu_error_is(const bs_error *err, const char *source, long line,
		 long column, const char *text);

/* An access of width bytes: lane l at off[l], off[l] < 0 for a lane that
 * takes no part (off holds BS_LANES offsets). */
bs_access tu_lanes(unsigned width, const int *off);

/* Lane offsets as a pattern file writes them ("0 4 - 12 ..."), '-' -1,
 * into off (the first BS_LANES); how many there are.  text is cut up. */
int tu_offsets(char *text, int *off);

/*
 * A committed CSV file read row by row: its '#' lines before the header
 * skipped, no quoting.  tu_csv_open fails the test when the file cannot
 * be read; tu_csv_column when the header has no such column.
 */
enum { TU_CSV_LINE = 8192, TU_CSV_FIELDS = 64 };
typedef struct {
	const char *path;
	FILE *f;
	char head_line[TU_CSV_LINE], line[TU_CSV_LINE];
	char *head[TU_CSV_FIELDS], *v[TU_CSV_FIELDS];
	int nh;
} tu_csv;

void tu_csv_open(tu_csv *c, const char *path);
int tu_csv_column(const tu_csv *c, const char *name);
/* The next row's fields in c->v; how many, 0 at the end. */
int tu_csv_next(tu_csv *c);
void tu_csv_close(tu_csv *c);

#endif
