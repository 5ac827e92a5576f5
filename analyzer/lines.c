/*
 * lines.c - one text line at a time (lines.h).  The buffer holds at most
 * BS_LINE_MAX_BYTES + 1 bytes (a CR) before a line is known to be too
 * long; the rest of a bad line is read and dropped, so the next call
 * starts on the next line.
 */
#include <stdlib.h>

#include "lines.h"

int bs_read_line(FILE *f, const char *name, long *line, char **buf,
		 size_t *cap, size_t *len, bs_error *err)
{
	size_t n = 0;
	int c, bad = 0;
	long nul_col = 0;

	c = getc(f);
	if (c == EOF)
		return ferror(f) ? bs_error_set(err, name, *line + 1, 0,
						"read error")
				 : 0;
	++*line;
	for (; c != EOF && c != '\n'; c = getc(f)) {
		if (bad)
			continue;
		if (c == '\0') {
			bad = 1;
			nul_col = (long)n + 1;
			continue;
		}
		if (n > BS_LINE_MAX_BYTES) {
			bad = 2;
			continue;
		}
		if (n + 1 >= *cap) {
			size_t grow = *cap * 2 < BS_LINE_MAX_BYTES + 2
					      ? *cap * 2 : BS_LINE_MAX_BYTES + 2;
			char *b = realloc(*buf, grow);

			if (!b)
				return bs_error_set(err, name, *line, 0,
						    "out of memory");
			*buf = b;
			*cap = grow;
		}
		(*buf)[n++] = (char)c;
	}
	if (n && (*buf)[n - 1] == '\r')
		n--;
	if (!bad && n > BS_LINE_MAX_BYTES)
		bad = 2;
	(*buf)[n] = '\0';
	*len = n;
	if (bad == 1)
		return bs_error_set(err, name, *line, nul_col,
				    "NUL byte in a text line");
	if (bad == 2)
		return bs_error_set(err, name, *line, BS_LINE_MAX_BYTES + 1,
				    "line longer than %d bytes",
				    BS_LINE_MAX_BYTES);
	if (ferror(f))
		return bs_error_set(err, name, *line, 0, "read error");
	return 1;
}
