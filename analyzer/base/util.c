/*
 * util.c - errors, the small token parsers every reader shares, the
 * one CSV quoting rule every writer follows, and the one way a file is
 * written in a path's place (bs_output, see bs_input.h).
 */
#define _XOPEN_SOURCE 700       /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bs_base.h"

int bs_error_set(bs_error *err, const char *source, long line, long column,
		 const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	snprintf(err->source, sizeof err->source, "%s", source ? source : "");
	err->line = line;
	err->column = column;
	va_start(ap, fmt);
	vsnprintf(err->text, sizeof err->text, fmt, ap);
	va_end(ap);
	return -1;
}

void bs_error_format(const bs_error *err, char *buf, size_t size)
{
	const char *src = err->source[0] ? err->source : "bankscope";

	if (err->line > 0 && err->column > 0)
		snprintf(buf, size, "%s:%ld:%ld: %s", src, err->line,
			 err->column, err->text);
	else if (err->line > 0)
		snprintf(buf, size, "%s:%ld: %s", src, err->line, err->text);
	else if (err->column > 0)
		snprintf(buf, size, "%s: column %ld: %s", src, err->column,
			 err->text);
	else
		snprintf(buf, size, "%s: %s", src, err->text);
}

int bs_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	unsigned base = 10;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -1;
	for (; *s; s++) {
		unsigned d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A' + 10);
		else
			return -1;
		/* d > max first: max - d would wrap */
		if (d > max || v > (max - d) / base)
			return -2;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

int bs_parse_dec_u64(const char *s, uint64_t max, uint64_t *out)
{
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return -3;
	return bs_parse_u64(s, max, out);
}

static size_t digits(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	return i;
}

int bs_parse_decimal(const char *s, size_t n, double *out)
{
	char small[64], *buf = small, *end;
	size_t i = 0, whole, frac = 0;
	int rc = 0;

	if (i < n && (s[i] == '+' || s[i] == '-'))
		i++;
	whole = digits(s + i, n - i);
	i += whole;
	if (i < n && s[i] == '.') {
		i++;
		frac = digits(s + i, n - i);
		i += frac;
	}
	if (!whole && !frac)
		return -1;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		size_t e;

		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		if (!(e = digits(s + i, n - i)))
			return -1;
		i += e;
	}
	if (i != n)
		return -1;
	/* the grammar above is a subset of strtod's: it reads all n bytes */
	if (n >= sizeof small && !(buf = malloc(n + 1)))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	*out = strtod(buf, &end);
	if (!isfinite(*out))
		rc = -2;
	if (buf != small)
		free(buf);
	return rc;
}

const char *bs_skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

size_t bs_token_len(const char *s)
{
	size_t n = 0;

	while (s[n] && s[n] != ' ' && s[n] != '\t' && s[n] != '#')
		n++;
	return n;
}

void bs_copy_token(char *dst, size_t size, const char *s, size_t n)
{
	if (n > size - 1)
		n = size - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/*
 * RFC 4180 needs quotes around a comma, a quote (doubled) and a line
 * break; a leading '#' would make the dataset reader take a row for a
 * comment, and readers that trim fields would lose a leading or trailing
 * blank.  Blanks inside a field need nothing.
 */
int bs_csv_plain(const char *s)
{
	size_t n = strlen(s);

	return !strpbrk(s, ",\"\r\n") && s[0] != '#' &&
	       !(n && strchr(" \t", s[0])) && !(n && strchr(" \t", s[n - 1]));
}

void bs_csv_field(FILE *f, const char *s)
{
	if (bs_csv_plain(s)) {
		fputs(s, f);
		return;
	}
	putc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			putc('"', f);
		putc(*s, f);
	}
	putc('"', f);
}

int bs_utf8_next(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned c = u[0], n, cp;

	if (c < 0x80)
		return c ? 1 : 0;
	/* a continuation byte, an overlong lead, a lead beyond U+10FFFF */
	if (c < 0xc2 || c > 0xf4)
		return 0;
	n = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	cp = c & (0x3fu >> (n - 1));
	for (unsigned i = 1; i < n; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (u[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return (int)n;
}

/*
 * Escaped: C0 controls and DEL (ESC starts a terminal's escape sequences,
 * CR and BS rewrite what is shown), the C1 controls U+0080..U+009F (CSI
 * among them), and bytes that are no valid UTF-8; a backslash is doubled
 * so that the escapes stay unambiguous.
 */
void bs_escape_text(char *buf, size_t size, const char *s)
{
	size_t n = 0;

	if (!size)
		return;
	while (*s) {
		unsigned char c = (unsigned char)*s;
		int k = bs_utf8_next(s);
		char esc[8];
		const char *out = s;
		size_t len = (size_t)k;

		if (c == '\\') {
			out = "\\\\";
			len = 2;
			k = 1;
		} else if (k == 0 || (k == 1 && (c < 0x20 || c == 0x7f)) ||
			   (c == 0xc2 && (unsigned char)s[1] < 0xa0)) {
			snprintf(esc, sizeof esc, "\\x%02x", c);
			out = esc;
			len = 4;
			k = 1;
		}
		if (n + len >= size)
			break;
		memcpy(buf + n, out, len);
		n += len;
		s += k;
	}
	buf[n] = '\0';
}

/* ---- writing a file in a path's place ----------------------------------- */

/* Where a file at path is written: path itself, or for a symbolic link
 * the regular file it leads to (realpath, in buf); NULL leaves path. */
static const char *link_target(const char *path, struct stat *st, char *buf,
			       size_t size)
{
	struct stat t;
	char *real = realpath(path, NULL);
	int ok = real && stat(real, &t) == 0 && S_ISREG(t.st_mode) &&
		 strlen(real) < size;

	if (ok) {
		memcpy(buf, real, strlen(real) + 1);
		*st = t;
	}
	free(real);
	return ok ? buf : NULL;
}

int bs_same_file(int fd, const char *path)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && stat(path, &b) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int bs_output_open(bs_output *o, const char *path, bs_error *err)
{
	struct stat st;
	int fd, e, exists = 1;
	mode_t mode;
	char real[BS_OUTPUT_PATH];
	const char *where = path;

	o->f = NULL;
	o->tmp[0] = '\0';
	if (lstat(path, &st) < 0) {
		if (errno != ENOENT)
			goto fail;
		exists = 0;
	}
	/* A link to a regular file: that file is replaced, the link kept. */
	if (exists && S_ISLNK(st.st_mode) &&
	    link_target(path, &st, real, sizeof real))
		where = real;
	if ((size_t)snprintf(o->path, sizeof o->path, "%s", where) >=
	    sizeof o->path ||
	    (size_t)snprintf(o->tmp, sizeof o->tmp, "%s.new-XXXXXX", where) >=
	    sizeof o->tmp) {
		o->tmp[0] = '\0';
		return bs_error_set(err, path, 0, 0, "cannot write: the path "
				    "is too long");
	}
	if (exists && !S_ISREG(st.st_mode)) {
		/* Never replaced: written through, nothing created (a FIFO
		 * waits here for its reader). */
		o->tmp[0] = '\0';
		if ((fd = open(path, O_WRONLY | O_TRUNC | O_NOCTTY)) < 0)
			goto fail;
	} else {
		mode = umask(0);
		umask(mode);
		mode = exists ? st.st_mode & 07777 : 0666 & ~mode;
		if ((fd = mkstemp(o->tmp)) < 0)
			goto fail;
		if (fchmod(fd, mode) < 0) {
			e = errno;
			close(fd);
			unlink(o->tmp);
			errno = e;
			goto fail;
		}
	}
	if ((o->f = fdopen(fd, "w")))
		return 0;
	e = errno;
	close(fd);
	if (o->tmp[0])
		unlink(o->tmp);
	errno = e;
fail:
	e = errno;
	o->tmp[0] = '\0';
	return bs_error_set(err, path, 0, 0, "cannot write: %s", strerror(e));
}

int bs_output_commit(bs_output *o, bs_error *err)
{
	int e = 0;

	errno = 0;
	if (fflush(o->f) != 0 || ferror(o->f))
		e = errno ? errno : EIO;
	if (fclose(o->f) != 0 && !e)
		e = errno ? errno : EIO;
	o->f = NULL;
	if (!e && o->tmp[0] && rename(o->tmp, o->path) < 0)
		e = errno;
	if (e && o->tmp[0])
		unlink(o->tmp);
	o->tmp[0] = '\0';
	return e ? bs_error_set(err, o->path, 0, 0, "cannot write: %s",
				strerror(e)) : 0;
}

void bs_output_abort(bs_output *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp[0])
		unlink(o->tmp);
	o->tmp[0] = '\0';
}
