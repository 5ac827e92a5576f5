/*
 * lines.h - the library's one text-line reader (internal; not part of
 * bankscope.h).  Pattern files and datasets read their lines through it,
 * so both take the same limits and give the same errors.
 */
#ifndef BANKSCOPE_LINES_H
#define BANKSCOPE_LINES_H

#include <stdio.h>

#include "bankscope.h"

#define BS_LINE_MAX_BYTES (64 * 1024)

/*
 * Read the next line of f into *buf (grown as needed, *cap its size),
 * without its newline and a CR before it; *len its length, *line counts
 * lines.  1: a line; 0: end of file; -1: an error naming name, the line
 * and column: a NUL byte, more than BS_LINE_MAX_BYTES bytes besides the
 * line end, a read error, out of memory.
 */
int bs_read_line(FILE *f, const char *name, long *line, char **buf,
		 size_t *cap, size_t *len, bs_error *err);

#endif
