/*
 * util.c - errors, the small token parsers every reader shares, and the
 * one CSV quoting rule every writer follows.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bankscope.h"

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
		if (v > (max - d) / base)
			return -2;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

const char *bs_op_name(bs_op op)
{
	return op == BS_STORE ? "st" : "ld";
}

int bs_parse_op(const char *s, bs_op *out)
{
	if (!strcmp(s, "ld") || !strcmp(s, "load")) {
		*out = BS_LOAD;
		return 0;
	}
	if (!strcmp(s, "st") || !strcmp(s, "store")) {
		*out = BS_STORE;
		return 0;
	}
	return -1;
}

/*
 * RFC 4180 needs quotes around a comma, a quote (doubled) and a line
 * break; a leading '#' would make the dataset reader take a row for a
 * comment, and readers that trim fields would lose a leading or trailing
 * blank.  Blanks inside a field need nothing.
 */
void bs_csv_field(FILE *f, const char *s)
{
	size_t n = strlen(s);

	if (!strpbrk(s, ",\"\r\n") && s[0] != '#' &&
	    !(n && strchr(" \t", s[0])) && !(n && strchr(" \t", s[n - 1]))) {
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
