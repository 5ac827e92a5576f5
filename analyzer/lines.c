/*
 * lines.c - one text line at a time (lines.h).  The buffer holds at most
 * BS_LINE_MAX_BYTES + 1 bytes (a CR) before a line is known to be too
 * long.  A bad line (a NUL byte, too long) is reported as soon as the
 * offending byte is read, so input that never ends a line (/dev/zero, a
 * pipe of gigabytes without a newline) fails at once in bounded memory;
 * the rest of that line is dropped on the next call, so a caller that
 * reads on starts on the next line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"

#define BOM "\xef\xbb\xbf"

/* Make room for one more byte and the NUL; -1 out of memory. */
static int room(char **buf, size_t *cap, size_t n)
{
	size_t grow;
	char *b;

	if (n + 1 < *cap)
		return 0;
	grow = *cap * 2 < BS_LINE_MAX_BYTES + 2 ? *cap * 2
						: BS_LINE_MAX_BYTES + 2;
	b = realloc(*buf, grow);
	if (!b)
		return -1;
	*buf = b;
	*cap = grow;
	return 0;
}

int bs_read_line(FILE *f, const char *name, long *line, int *skip,
		 char **buf, size_t *cap, size_t *len, bs_error *err)
{
	size_t n = 0, got = 0;
	int c;

	if (*skip) {
		while ((c = getc(f)) != EOF && c != '\n')
			;
		*skip = 0;
	}
	c = getc(f);
	if (c == EOF)
		return ferror(f) ? bs_error_set(err, name, *line + 1, 0,
						"read error: %s",
						strerror(errno ? errno : EIO))
				 : 0;
	++*line;
	for (; c != EOF && c != '\n'; c = getc(f)) {
		if (c == '\0') {
			*skip = 1;
			return bs_error_set(err, name, *line, (long)n + 1,
					    "NUL byte in a text line");
		}
		if (n > BS_LINE_MAX_BYTES) {
			*skip = 1;
			return bs_error_set(err, name, *line,
					    BS_LINE_MAX_BYTES + 1,
					    "line longer than %d bytes",
					    BS_LINE_MAX_BYTES);
		}
		if (room(buf, cap, n) < 0)
			return bs_error_set(err, name, *line, 0,
					    "out of memory");
		(*buf)[n++] = (char)c;
		if (++got == 3 && *line == 1 && !memcmp(*buf, BOM, 3))
			n = 0;
	}
	if (n && (*buf)[n - 1] == '\r')
		n--;
	(*buf)[n] = '\0';
	*len = n;
	if (n > BS_LINE_MAX_BYTES)
		return bs_error_set(err, name, *line, BS_LINE_MAX_BYTES + 1,
				    "line longer than %d bytes",
				    BS_LINE_MAX_BYTES);
	if (ferror(f))
		return bs_error_set(err, name, *line, 0, "read error: %s",
				    strerror(errno ? errno : EIO));
	return c == EOF ? 2 : 1;
}
