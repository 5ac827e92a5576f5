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

/*
 * The same lines, limits, errors and return values as bs_read_line, for
 * a stream of many short lines (pattern files): one fgets a line instead
 * of one getc a byte, into a buffer allocated once.  fgets returns at a
 * newline, so a pipe or a terminal is served line by line as before.
 * bs_lines_open: 0, or -1 out of memory; name must outlive the reader.
 * bs_lines_next: as bs_read_line, the line in *text (NUL-terminated,
 * valid until the next call) and its length in *len; BS_LINES_PAD bytes
 * after its NUL can be read too (word-at-a-time parsing).
 */
#define BS_LINES_PAD 16
typedef struct {
	FILE *f;
	const char *name;
	long line;
	int skip;        /* the rest of a bad line is still unread */
	size_t used;     /* bytes fgets wrote last time, its NUL included */
	char *buf;
} bs_lines;

int bs_lines_open(bs_lines *r, FILE *f, const char *name);
int bs_lines_next(bs_lines *r, const char **text, size_t *len,
		  bs_error *err);
void bs_lines_close(bs_lines *r);

#endif
