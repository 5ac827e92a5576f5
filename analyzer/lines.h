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
 * Read the next line of f into *buf (grown as needed, *cap its size; at
 * least 1 byte on entry), without its newline and a CR before it, and
 * without a UTF-8 byte-order mark that opens line 1; *len its length,
 * *line counts lines.  *skip (0 at the start) is the reader's state: set
 * when an error left the rest of a line unread.  1: a line; 2: the last
 * line, ended by the end of the file instead of a newline (a file cut
 * short, or written without a final newline: the caller decides); 0: end
 * of file; -1: an error naming name, the line and column, returned as
 * soon as it is seen: a NUL byte, more than BS_LINE_MAX_BYTES bytes
 * besides the line end, a read error, out of memory.
 */
int bs_read_line(FILE *f, const char *name, long *line, int *skip,
		 char **buf, size_t *cap, size_t *len, bs_error *err);

#endif
