/*
 * testutil.h - what several test suites need: a whole file in memory, and
 * where two texts part, for failure messages.
 */
#ifndef BANKSCOPE_TESTUTIL_H
#define BANKSCOPE_TESTUTIL_H

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

#endif
