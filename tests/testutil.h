/*
 * testutil.h - what several test suites need: a whole file in memory,
 * where two texts part, for failure messages, and a suite's test cases
 * built from tables.
 */
#ifndef BANKSCOPE_TESTUTIL_H
#define BANKSCOPE_TESTUTIL_H

#include <check.h>
#include <stddef.h>

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

#endif
