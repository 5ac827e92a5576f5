/*
 * lines.c - one text line at a time (bs_base.h, "text lines").  The
 * buffer holds at most BS_LINE_MAX_BYTES + 1 bytes (a CR) before a line
 * is known to be too long.  A bad line (a NUL byte, too long) is reported
 * as soon as the offending byte is read, so input that never ends a line (/dev/zero, a
 * pipe of gigabytes without a newline) fails at once in bounded memory;
 * the rest of that line is dropped on the next call, so a caller that
 * reads on starts on the next line.
 *
 * bs_lines_next gives the same results from what fgets would store, one
 * piece a call: a line with its newline, or the first LINES_BUF - 1 bytes
 * of a longer one, or what the file ends with.  A regular file is read in
 * blocks and the pieces taken where they lie (take): one memchr finds a
 * line's end, another a NUL in it, and nothing is copied.  Anything else
 * goes through fgets (fill), which stops at a newline and so serves a
 * pipe or a terminal as its lines come.  fgets does not say how many
 * bytes it stored, and a NUL byte in the line hides the end from strlen;
 * so its buffer is kept filled with 0xff bytes wherever the last call did
 * not write, and the NUL fgets ends with is then the last NUL in the
 * buffer.  That search runs only when strlen leaves the line unexplained
 * (a NUL byte, or the end of the file).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bs_base.h"

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

/*
 * One fgets: room for a byte-order mark, BS_LINE_MAX_BYTES, a CR and the
 * newline (and fgets's NUL), so that a line that fills the buffer without
 * its newline is too long.
 */
#define LINES_BUF (3 + BS_LINE_MAX_BYTES + 2 + 1)
/* A regular file is read in blocks this large (two lines of the most). */
#define BLOCK (2 * LINES_BUF)

int bs_lines_open(bs_lines *r, FILE *f, const char *name)
{
	struct stat st;
	int fd = fileno(f);

	memset(r, 0, sizeof *r);
	r->f = f;
	r->name = name;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		/* zeroed: the bytes past the data are read, never used */
		r->blk = calloc(1, BLOCK + 1 + BS_LINES_PAD);
		return r->blk ? 0 : -1;
	}
	r->buf = malloc(LINES_BUF + BS_LINES_PAD);
	if (!r->buf)
		return -1;
	memset(r->buf, 0xff, LINES_BUF + BS_LINES_PAD);
	return 0;
}

void bs_lines_block(bs_lines *r, char *data, size_t len, const char *name,
		    int first)
{
	/* the blocks' reader at the end of its file: take never reads */
	memset(r, 0, sizeof *r);
	r->name = name;
	r->blk = data;
	r->end = len;
	r->eof = 1;
	r->inner = !first;
}

void bs_lines_close(bs_lines *r)
{
	free(r->buf);
	free(r->blk);
	r->buf = r->blk = NULL;
}

/*
 * The next fgets: the bytes it stored (0 at the end of the file or on a
 * read error), the buffer 0xff after them and after their NUL; *clean
 * when strlen found them all, so that they hold no NUL byte.
 */
static size_t fill(bs_lines *r, int *clean)
{
	char *b = r->buf;
	size_t n;

	memset(b, 0xff, r->used);
	r->used = 0;
	if (!fgets(b, LINES_BUF, r->f)) {
		if (ferror(r->f))     /* what fgets stored is unknown */
			memset(b, 0xff, LINES_BUF + BS_LINES_PAD);
		return 0;
	}
	n = strlen(b);
	*clean = (n && b[n - 1] == '\n') || n == LINES_BUF - 1;
	if (!*clean)
		for (n = LINES_BUF - 1; b[n]; n--)
			;
	r->used = n + 1;
	return n;
}

/*
 * What the next fgets would store, from the blocks of a regular file:
 * at *text, its length returned (0 at the end of the file or on a read
 * error).  The bytes stay in the block until the next call, with room
 * for a NUL and BS_LINES_PAD bytes after them.
 */
static size_t take(bs_lines *r, char **text)
{
	for (;;) {
		size_t avail = r->end - r->pos, n;
		char *b = r->blk + r->pos;
		char *nl = memchr(b, '\n', avail < LINES_BUF - 1
					   ? avail : LINES_BUF - 1);

		if (nl || avail >= LINES_BUF - 1 || (r->eof && avail)) {
			n = nl ? (size_t)(nl - b) + 1
			       : avail < LINES_BUF - 1 ? avail
						       : LINES_BUF - 1;
			r->pos += n;
			*text = b;
			return n;
		}
		if (r->eof)
			return 0;
		memmove(r->blk, b, avail);
		r->pos = 0;
		r->end = avail;
		n = fread(r->blk + avail, 1, BLOCK - avail, r->f);
		r->end += n;
		r->eof = n == 0 && (feof(r->f) || ferror(r->f));
	}
}

/* The next fgets's bytes at *text, from the blocks or from fgets. */
static size_t next_chunk(bs_lines *r, char **text, int *clean)
{
	if (r->blk) {
		*clean = 0;
		return take(r, text);
	}
	*text = r->buf;
	return fill(r, clean);
}

int bs_lines_next(bs_lines *r, const char **text, size_t *len,
		  bs_error *err)
{
	char *b, *nul;
	size_t w, n, k;
	int nl, clean;

	while (r->skip) {
		w = next_chunk(r, &b, &clean);
		r->skip = w && b[w - 1] != '\n';
	}
	w = next_chunk(r, &b, &clean);
	if (!w)
		return r->f && ferror(r->f)
		       ? bs_error_set(err, r->name, r->line + 1, 0,
				      "read error: %s",
				      strerror(errno ? errno : EIO))
		       : 0;
	++r->line;
	nl = b[w - 1] == '\n';
	n = w - nl;
	if (r->line == 1 && !r->inner && n >= 3 && !memcmp(b, BOM, 3)) {
		b += 3;
		n -= 3;
	}
	/* the checks bs_read_line makes byte by byte, in its order */
	nul = clean ? NULL : memchr(b, '\0', n);
	k = nul ? (size_t)(nul - b) : n;
	if (nul && k <= BS_LINE_MAX_BYTES + 1) {
		r->skip = !nl;
		return bs_error_set(err, r->name, r->line, (long)k + 1,
				    "NUL byte in a text line");
	}
	if (n && b[n - 1] == '\r' && n <= BS_LINE_MAX_BYTES + 1)
		n--;
	if (n > BS_LINE_MAX_BYTES) {
		r->skip = !nl;
		return bs_error_set(err, r->name, r->line,
				    BS_LINE_MAX_BYTES + 1,
				    "line longer than %d bytes",
				    BS_LINE_MAX_BYTES);
	}
	b[n] = '\0';
	*text = b;
	*len = n;
	if (!nl && r->f && ferror(r->f))
		return bs_error_set(err, r->name, r->line, 0, "read error: %s",
				    strerror(errno ? errno : EIO));
	return nl ? 1 : 2;
}
