/*
 * sassprof_disasm.c - a per-instruction profile's SASS text and source
 * lines, from a disassembly of one cubin (sassprof.h).
 *
 * Disassembly.  Lines are taken as they come: a function header sets the
 * function and clears the source position, a File line sets the position,
 * an instruction line looks up (crc, function, offset) and, where recorded,
 * stores its text and position.  Unknown lines are skipped, so nvdisasm's
 * directives and labels and the -hex encoding comments do no harm.
 */
#include <limits.h>
#include <string.h>

#include "sassprof.h"

/* The function a header line names, cut in place; NULL when none. */
static char *function_header(char *l)
{
	char *n = strstr(l, "Function : "), *e;

	if (n)
		n += strlen("Function : ");
	else if (!strncmp(l, "//---", 5) && (n = strstr(l, " .text.")))
		n += strlen(" .text.");
	else
		return NULL;
	e = n + strcspn(n, " \t");
	if (e == n)
		return NULL;
	*e = '\0';
	return n;
}

/* '//## File "PATH", line N': the path cut in place, and N. */
static char *file_line(char *l, unsigned long *line)
{
	char *p = l + strspn(l, " \t"), *path, *q;
	uint64_t n;

	if (strncmp(p, "//## File \"", 11))
		return NULL;
	path = p + 11;
	if (!(q = strchr(path, '"')) || strncmp(q, "\", line ", 8))
		return NULL;
	*q = '\0';
	p = q + 8;
	q = p + strspn(p, "0123456789");
	if (q == p || (*q && *q != ' ' && *q != '\t'))
		return NULL;
	*q = '\0';
	if (bs_parse_u64(p, ULONG_MAX, &n) < 0)
		return NULL;
	*line = (unsigned long)n;
	return path;
}

/* An instruction line: its offset and text (cut in place before ';'). */
static char *instruction(char *l, uint32_t *pc)
{
	char *p = l + strspn(l, " \t"), *q, *t, *end;
	char hex[12] = "0x";
	uint64_t v;

	if (strncmp(p, "/*", 2))
		return NULL;
	p += 2;
	q = p + strspn(p, "0123456789abcdefABCDEF");
	if (q == p || q - p > 8 || strncmp(q, "*/", 2))
		return NULL;
	memcpy(hex + 2, p, (size_t)(q - p));
	hex[2 + (q - p)] = '\0';
	if (bs_parse_u64(hex, UINT32_MAX, &v) < 0)
		return NULL;
	t = q + 2;
	t += strspn(t, " \t");
	if (!(end = strchr(t, ';')))
		return NULL;
	while (end > t && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if (end == t)
		return NULL;
	*end = '\0';
	*pc = (uint32_t)v;
	return t;
}

int bs_sassprof_read_disasm(bs_sassprof *p, uint32_t crc, FILE *f,
			    const char *name, bs_error *err)
{
	src s = { p, f, name ? name : "<stdin>", 0, 0 };
	const char *fn = NULL, *file = NULL;
	unsigned long line = 0;
	int rc;

	if (sp_refuse_finished(p, s.name, err) < 0)
		return -1;
	while ((rc = sp_read_line(&s, err)) > 0) {
		char *t, *n;
		unsigned long l;
		uint32_t pc;
		size_t *slot;

		if (rc == 2)
			return sp_truncated(&s, err);
		if ((n = function_header(p->line))) {
			fn = sp_str_find(&p->names, n, NULL);
			file = NULL;
			line = 0;
		} else if ((n = file_line(p->line, &l))) {
			if (!(file = sp_intern(&p->names, n)))
				return bs_error_set(err, s.name, s.line, 0,
						    "out of memory");
			line = l;
		} else if (fn && (t = instruction(p->line, &pc)) &&
			   *(slot = sp_lookup(p, crc, fn, pc))) {
			bs_sass_insn *in = &p->e[*slot - 1].in;

			if (!in->sass)
				p->tot.disassembled++;
			if (!(in->sass = sp_intern(&p->names, t)))
				return bs_error_set(err, s.name, s.line, 0,
						    "out of memory");
			in->source_file = file;
			in->source_line = file ? line : 0;
		}
	}
	return rc;
}

