/*
 * testutil.c - helpers the test suites share (testutil.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define SHOWN 120   /* characters of a line shown in a message */

char *tu_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0, got;

	if (!f)
		return NULL;
	do {
		if (cap - n < 4096) {
			cap = cap ? cap * 2 : 8192;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
	} while (got > 0);
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

static void shown_line(char *buf, size_t size, const char *s)
{
	size_t n = strcspn(s, "\n");

	if (!n && !s[n])
		snprintf(buf, size, "<end of output>");
	else
		snprintf(buf, size, "%.*s%s", (int)(n < SHOWN ? n : SHOWN), s,
			 s[n] ? "" : "<no newline>");
}

void tu_first_difference(const char *what, const char *label,
			 const char *want, const char *got, char *msg,
			 size_t size)
{
	char w[SHOWN + 32], g[SHOWN + 32];
	long line = 1;

	for (;;) {
		size_t wl = strcspn(want, "\n"), gl = strcspn(got, "\n");

		if (wl != gl || memcmp(want, got, wl) || want[wl] != got[wl] ||
		    !want[wl])
			break;
		want += wl + 1;
		got += gl + 1;
		line++;
	}
	shown_line(w, sizeof w, want);
	shown_line(g, sizeof g, got);
	snprintf(msg, size, "%s differs at line %ld:\n  %s: %s\n  actual: %s",
		 what, line, label, w, g);
}

TCase *tu_add_tcase(Suite *s, const char *name, int timeout,
		    const tu_test *tests)
{
	TCase *tc = tcase_create(name);

	if (timeout)
		tcase_set_timeout(tc, timeout);
	for (; tests->test; tests++)
		tcase_add_loop_test(tc, tests->test, 0, tests->n);
	suite_add_tcase(s, tc);
	return tc;
}
