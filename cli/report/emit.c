/*
 * emit.c - the page written as HTML and as Markdown at once.
 *
 * Every text that comes from the dataset or --note is escaped: for HTML
 * & < > " ', for Markdown a backslash before \ ` * _ [ ] < > | & ~ #, and
 * line breaks become blanks, so no field can add markup.  A byte a page
 * cannot carry, a control byte (C0, DEL, C1) or one that starts no valid
 * UTF-8 character, is written as \xHH, as bankscope writes it to a
 * terminal (bs_escape_text), so the page stays valid UTF-8 text.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* 1 when s starts with a byte a page cannot carry (its character's
 * length in *k otherwise); tab and line breaks are carried, as blanks. */
static int unprintable(const char *s, int *k)
{
	unsigned char c = (unsigned char)*s;

	*k = bs_utf8_next(s);
	if (c == '\n' || c == '\r' || c == '\t')
		return 0;
	return *k == 0 || c < 0x20 || c == 0x7f ||
	       (c == 0xc2 && (unsigned char)s[1] < 0xa0);
}

void doc_html(FILE *f, const char *s)
{
	int k;

	for (; *s; s++) {
		if (unprintable(s, &k)) {
			fprintf(f, "\\x%02x", (unsigned char)*s);
			continue;
		}
		if (k > 1) {
			fwrite(s, 1, (size_t)k, f);
			s += k - 1;
			continue;
		}
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		case '\n': case '\r': case '\t': putc(' ', f); break;
		default: putc(*s, f);
		}
	}
}

void doc_md(FILE *f, const char *s)
{
	int k;

	for (; *s; s++) {
		if (*s == '\n' || *s == '\r' || *s == '\t') {
			putc(' ', f);
			continue;
		}
		if (unprintable(s, &k)) {    /* the backslash escaped too */
			fprintf(f, "\\\\x%02x", (unsigned char)*s);
			continue;
		}
		if (k > 1) {
			fwrite(s, 1, (size_t)k, f);
			s += k - 1;
			continue;
		}
		if (strchr("\\`*_[]<>|&~#", *s))
			putc('\\', f);
		putc(*s, f);
	}
}

/* Formatted plain text, escaped for both (nothing when out of memory). */
static void vtext(doc *d, const char *fmt, va_list ap)
{
	va_list aq;
	int n;
	char *s;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0 || !(s = malloc((size_t)n + 1)))
		return;
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	doc_html(d->h, s);
	doc_md(d->m, s);
	free(s);
}

/* Literal structure: HTML and Markdown. */
void doc_raw(doc *d, const char *html, const char *md)
{
	fputs(html, d->h);
	fputs(md, d->m);
}

/* Formatted plain text, escaped for both. */
void doc_text(doc *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vtext(d, fmt, ap);
	va_end(ap);
}

/* A code span; in Markdown fenced by one backtick more than s holds. */
void doc_code(doc *d, const char *s)
{
	int run = 0, most = 0;

	for (const char *p = s; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		if (run > most)
			most = run;
	}
	fputs("<code>", d->h);
	doc_html(d->h, s);
	fputs("</code>", d->h);
	for (int i = 0; i <= most; i++)
		putc('`', d->m);
	if (most)
		putc(' ', d->m);
	for (; *s; s++) {
		int k;

		if (*s == '\n' || *s == '\r' || *s == '\t')
			putc(' ', d->m);
		else if (unprintable(s, &k))   /* a code span: as is */
			fprintf(d->m, "\\x%02x", (unsigned char)*s);
		else if (*s == '|' && d->cell)
			fputs("\\|", d->m);
		else
			putc(*s, d->m);
	}
	if (most)
		putc(' ', d->m);
	for (int i = 0; i <= most; i++)
		putc('`', d->m);
}

void doc_heading(doc *d, int level, const char *s)
{
	fprintf(d->h, "<h%d>", level);
	doc_html(d->h, s);
	fprintf(d->h, "</h%d>\n", level);
	for (int i = 0; i < level; i++)
		putc('#', d->m);
	putc(' ', d->m);
	doc_md(d->m, s);
	fputs("\n\n", d->m);
}

void doc_para_begin(doc *d)
{
	fputs("<p>", d->h);
}

void doc_para_end(doc *d)
{
	doc_raw(d, "</p>\n", "\n\n");
}

void doc_table_begin(doc *d, int ncols, const char *const *head)
{
	fputs("<table>\n<thead><tr>", d->h);
	putc('|', d->m);
	for (int i = 0; i < ncols; i++) {
		fputs("<th>", d->h);
		doc_html(d->h, head[i]);
		fputs("</th>", d->h);
		putc(' ', d->m);
		doc_md(d->m, head[i]);
		fputs(" |", d->m);
	}
	fputs("</tr></thead>\n<tbody>\n", d->h);
	fputs("\n|", d->m);
	for (int i = 0; i < ncols; i++)
		fputs(" --- |", d->m);
	putc('\n', d->m);
}

void doc_row_begin(doc *d)
{
	doc_raw(d, "<tr>", "|");
}

void doc_cell_begin(doc *d)
{
	doc_raw(d, "<td>", " ");
	d->cell = 1;
}

void doc_cell_end(doc *d)
{
	doc_raw(d, "</td>", " |");
	d->cell = 0;
}

void doc_row_end(doc *d)
{
	doc_raw(d, "</tr>\n", "\n");
}

/* A whole cell of formatted text. */
void doc_cell(doc *d, const char *fmt, ...)
{
	va_list ap;

	doc_cell_begin(d);
	va_start(ap, fmt);
	vtext(d, fmt, ap);
	va_end(ap);
	doc_cell_end(d);
}

void doc_code_cell(doc *d, const char *s)
{
	doc_cell_begin(d);
	doc_code(d, s);
	doc_cell_end(d);
}

void doc_table_end(doc *d)
{
	doc_raw(d, "</tbody>\n</table>\n", "\n");
}
