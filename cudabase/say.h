/*
 * say.h - the one message line of the probe runners (bankscope-probe,
 * bankscope-dsmem): "PROGRAM: " and the message on stderr, escaped as
 * bankscope escapes (bs_escape_text: control bytes and bytes that are no
 * UTF-8 as \xHH), so that a path, a name or an argument from the input
 * cannot drive the terminal; then a line break.  Needs bankscope.h.
 */
#ifndef BANKSCOPE_SAY_H
#define BANKSCOPE_SAY_H

#include <stdarg.h>
#include <stdio.h>

static inline void bs_vsay(const char *program, const char *fmt, va_list ap)
{
	char raw[2048], safe[4 * sizeof raw];

	vsnprintf(raw, sizeof raw, fmt, ap);
	bs_escape_text(safe, sizeof safe, raw);
	fprintf(stderr, "%s: %s\n", program, safe);
}

#endif
