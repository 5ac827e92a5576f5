/*
 * explain.c - explain records: the per-lane shared addresses of sampled
 * warp executions that libbankscope_explain.so wrote (explain.tsv, see
 * BS_EXPLAIN_COLUMNS in bs_sass.h), grouped per instruction (function
 * symbol and pc offset) for `bankscope profile --explain`.
 *
 * Reading: the header line exactly, then lines of exactly 11 tab-separated
 * fields; empty lines are skipped; every number but the pc is unsigned
 * decimal (a 0x-hex one is refused: the library writes none), the pc
 * 0x hex or decimal, the kind one of ld, st, atom, ldsm, stsm, ldgsts,
 * remote (another CTA's shared memory: generic addresses), the
 * width 1, 2, 4, 8 or 16, the addresses 32 space-separated fields, each
 * an unsigned 32-bit address or '-', at least one of them an address.
 * Errors name the file, line and the 1-based column of the field.
 * Storage: one array of samples, sorted by (function, pc, launch, block,
 * warp, execution) when the first lookup comes; instructions are runs of
 * it, found by binary search.
 *
 * explain-counts.tsv (BS_EXPLAIN_COUNT_COLUMNS): the header line exactly,
 * then lines of 6 fields: launch, kernel, function, pc offset, active,
 * remote (remote <= active), each instruction of a launch once.  Kept as
 * an array sorted by (function, pc, launch) for lookups.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "bs_sass.h"

#define FIELDS 12            /* with sources; 11 without */

typedef struct {
	bs_explain_sample s;
	char *function;
	char *kernel;
} item;

/* A line of explain-counts.tsv. */
typedef struct {
	char *function;
	uint32_t pc;
	unsigned long launch;
	uint64_t active, remote;
} count;

struct bs_explain {
	item *v;
	size_t n, cap;
	count *c;                /* explain-counts.tsv, by (function, pc) */
	size_t nc, ccap;
	int csorted;
	bs_explain_insn *insn;
	size_t ninsn;
	int sorted;
	int fields;              /* the header's: 11, or 12 with sources */
	char *buf;
	size_t bufcap;
};

bs_explain *bs_explain_new(void)
{
	bs_explain *e = calloc(1, sizeof *e);

	if (e && !(e->buf = malloc(e->bufcap = 256))) {
		free(e);
		return NULL;
	}
	return e;
}

void bs_explain_free(bs_explain *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->n; i++) {
		free(e->v[i].function);
		free(e->v[i].kernel);
	}
	for (size_t i = 0; i < e->nc; i++)
		free(e->c[i].function);
	free(e->c);
	free(e->v);
	free(e->insn);
	free(e->buf);
	free(e);
}

static const char *const kinds[] = { "ld", "st", "atom", "ldsm", "stsm",
				     "ldgsts", "remote" };

/* A field of unsigned decimal (hex: pc_offset's alone, 0x or decimal). */
static int field_u64(const char *name, long line, long col, const char *what,
		     const char *t, uint64_t max, uint64_t *out, bs_error *err)
{
	int rc = strcmp(what, "pc_offset") ? bs_parse_dec_u64(t, max, out)
					   : bs_parse_u64(t, max, out);

	if (rc == -3)
		return bs_error_set(err, name, line, col, "%s: '%.40s' is not "
				    "decimal (pc_offset alone is hex)", what,
				    t);
	if (rc == -1)
		return bs_error_set(err, name, line, col, "%s: '%.40s' is not "
				    "a non-negative integer", what, t);
	if (rc == -2)
		return bs_error_set(err, name, line, col, "%s: %.40s is larger "
				    "than %llu", what, t,
				    (unsigned long long)max);
	return 0;
}

/* The 32 lane fields of t (cut in place) into s; col: t's column. */
static int lanes(const char *name, long line, long col, char *t,
		 bs_explain_sample *s, const char *what, bs_error *err)
{
	char *p = t;

	s->active = 0;
	for (int l = 0; l < BS_LANES; l++) {
		char *tok = p;
		size_t n = strcspn(p, " ");
		uint64_t v;

		if (!n)
			return bs_error_set(err, name, line, col + (p - t),
					    "%s: %d lane fields, "
					    "expected 32", what, l);
		if (p[n] == ' ')
			p[n++] = '\0';
		p += n;
		if (!strcmp(tok, "-")) {
			s->addr[l] = 0;
			continue;
		}
		if (field_u64(name, line, col + (tok - t), "address", tok,
			      UINT32_MAX, &v, err) < 0)
			return -1;
		s->addr[l] = (uint32_t)v;
		s->active |= 1u << l;
	}
	if (*p)
		return bs_error_set(err, name, line, col + (p - t),
				    "%s: more than 32 lane fields", what);
	if (!s->active)
		return bs_error_set(err, name, line, col,
				    "%s: no active lane", what);
	return 0;
}

static int add(bs_explain *e, const char *name, long line, char *text,
	       bs_error *err)
{
	char *f[FIELDS];
	long col[FIELDS];
	uint64_t v;
	item it;
	int n = 0, k, nf = e->fields;

	memset(&it, 0, sizeof it);
	for (char *p = text;; n++) {
		char *tab = strchr(p, '\t');

		if (n == nf)
			return bs_error_set(err, name, line, p - text + 1,
					    "more than %d tab-separated "
					    "fields", nf);
		f[n] = p;
		col[n] = p - text + 1;
		if (!tab) {
			n++;
			break;
		}
		*tab = '\0';
		p = tab + 1;
	}
	if (n < nf)
		return bs_error_set(err, name, line,
				    col[n - 1] + (long)strlen(f[n - 1]),
				    "%d tab-separated fields, expected %d", n,
				    nf);
	if (field_u64(name, line, col[0], "launch", f[0], ULONG_MAX, &v,
		      err) < 0)
		return -1;
	it.s.launch = (unsigned long)v;
	if (!f[1][0] || !f[2][0])
		return bs_error_set(err, name, line, col[f[1][0] ? 2 : 1],
				    "%s is empty", f[1][0] ? "function"
							   : "kernel");
	if (field_u64(name, line, col[3], "pc_offset", f[3], UINT32_MAX, &v,
		      err) < 0)
		return -1;
	it.s.pc = (uint32_t)v;
	for (k = 0; k < (int)(sizeof kinds / sizeof *kinds); k++)
		if (!strcmp(f[4], kinds[k]))
			break;
	if (k == (int)(sizeof kinds / sizeof *kinds))
		return bs_error_set(err, name, line, col[4], "kind: '%.20s' is "
				    "not ld, st, atom, ldsm, stsm, ldgsts or "
				    "remote",
				    f[4]);
	it.s.kind = kinds[k];
	if (field_u64(name, line, col[5], "width", f[5], 16, &v, err) < 0)
		return -1;
	if (bs_width_index((unsigned)v) < 0)
		return bs_error_set(err, name, line, col[5], "width: %s is not "
				    "1, 2, 4, 8 or 16", f[5]);
	it.s.width = (unsigned)v;
	if (field_u64(name, line, col[6], "count", f[6], 64, &v, err) < 0)
		return -1;
	it.s.count = (unsigned)v;
	if (field_u64(name, line, col[7], "block", f[7], UINT32_MAX, &v,
		      err) < 0)
		return -1;
	it.s.block = (unsigned)v;
	if (field_u64(name, line, col[8], "warp", f[8], 32, &v, err) < 0)
		return -1;
	it.s.warp = (unsigned)v;
	if (field_u64(name, line, col[9], "exec", f[9], UINT32_MAX, &v,
		      err) < 0)
		return -1;
	it.s.exec = (unsigned)v;
	if (lanes(name, line, col[10], f[10], &it.s, "addresses", err) < 0)
		return -1;
	if (nf == 12 && strcmp(f[11], "-")) {
		bs_explain_sample src;

		if (strcmp(it.s.kind, "ldgsts"))
			return bs_error_set(err, name, line, col[11],
					    "sources: only ldgsts has them "
					    "('-' for %s)", it.s.kind);
		memset(&src, 0, sizeof src);
		if (lanes(name, line, col[11], f[11], &src, "sources", err) < 0)
			return -1;
		if (src.active != it.s.active)
			return bs_error_set(err, name, line, col[11],
					    "sources: not the lanes of the "
					    "addresses");
		memcpy(it.s.src, src.addr, sizeof it.s.src);
		it.s.has_src = 1;
	}
	if (bs_grow(&e->v, &e->cap, e->n, 256, sizeof *e->v) < 0)
		return bs_error_set(err, name, line, 0, "out of memory");
	it.kernel = strdup(f[1]);
	it.function = strdup(f[2]);
	if (!it.kernel || !it.function) {
		free(it.kernel);
		free(it.function);
		return bs_error_set(err, name, line, 0, "out of memory");
	}
	e->v[e->n++] = it;
	e->sorted = 0;
	return 0;
}

/*
 * One of the explain library's tables, line by line: the header line
 * (header() says whether it is the expected one: 0, or -1 with err),
 * then each non-empty line to row().  The library writes whole lines, so
 * one without its end was cut.  0, or -1 (err).
 */
static int read_table(bs_explain *e, FILE *f, const char *name,
		      int (*header)(bs_explain *, const char *, long,
				    bs_error *),
		      int (*row)(bs_explain *, const char *, long, char *,
				 bs_error *),
		      bs_error *err)
{
	long line = 0;
	size_t len;
	int rc, seen = 0, skip = 0;

	if (!name)
		name = "<stdin>";
	while ((rc = bs_read_line(f, name, &line, &skip, &e->buf, &e->bufcap,
				  &len, err)) > 0) {
		if (rc == 2)
			return bs_error_set(err, name, line, 0, "the last line "
					    "has no newline: the file is "
					    "truncated");
		if (!len)
			continue;
		if (!seen) {
			if (header(e, name, line, err) < 0)
				return -1;
			seen = 1;
			continue;
		}
		if (row(e, name, line, e->buf, err) < 0)
			return -1;
	}
	if (rc == 0 && !seen)
		return bs_error_set(err, name, 0, 0, "empty file: expected "
				    "the header line");
	return rc;
}

/* explain.tsv's header, with or without sources (e->fields). */
static int samples_header(bs_explain *e, const char *name, long line,
			  bs_error *err)
{
	const char *a = e->buf, *b = BS_EXPLAIN_COLUMNS_SOURCES;

	e->fields = !strcmp(e->buf, BS_EXPLAIN_COLUMNS) ? 11
		    : !strcmp(e->buf, BS_EXPLAIN_COLUMNS_SOURCES) ? 12 : 0;
	if (e->fields)
		return 0;
	while (*a && *a == *b)
		a++, b++;
	return bs_error_set(err, name, line, a - e->buf + 1, "not the "
			    "expected header line");
}

int bs_explain_read(bs_explain *e, FILE *f, const char *name, bs_error *err)
{
	return read_table(e, f, name, samples_header, add, err);
}

static int by_instruction(const void *a, const void *b)
{
	const item *x = a, *y = b;
	int c = strcmp(x->function, y->function);

	if (c)
		return c;
#define CMP(f) if (x->s.f != y->s.f) return x->s.f < y->s.f ? -1 : 1
	CMP(pc);
	CMP(launch);
	CMP(block);
	CMP(warp);
	CMP(exec);
#undef CMP
	return 0;
}

/* Sort the samples and index their instructions; -1 out of memory. */
static int index_samples(bs_explain *e)
{
	size_t n = 0;

	if (e->sorted)
		return 0;
	if (e->n)
		qsort(e->v, e->n, sizeof *e->v, by_instruction);
	free(e->insn);
	if (!(e->insn = malloc((e->n + 1) * sizeof *e->insn)))
		return -1;
	for (size_t i = 0, k; i < e->n; i = k) {
		bs_explain_insn *in = &e->insn[n++];

		for (k = i + 1; k < e->n && e->v[k].s.pc == e->v[i].s.pc &&
				!strcmp(e->v[k].function, e->v[i].function);
		     k++)
			;
		in->kernel = e->v[i].kernel;
		in->function = e->v[i].function;
		in->pc = e->v[i].s.pc;
		in->first = i;
		in->n = k - i;
	}
	e->ninsn = n;
	e->sorted = 1;
	return 0;
}

size_t bs_explain_instructions(bs_explain *e)
{
	return index_samples(e) < 0 ? 0 : e->ninsn;
}

const bs_explain_insn *bs_explain_instruction(bs_explain *e, size_t i)
{
	return index_samples(e) < 0 || i >= e->ninsn ? NULL : &e->insn[i];
}

const bs_explain_insn *bs_explain_find(bs_explain *e, const char *function,
				       uint32_t pc)
{
	size_t lo = 0, hi;

	if (index_samples(e) < 0)
		return NULL;
	hi = e->ninsn;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(e->insn[mid].function, function);

		if (!c && e->insn[mid].pc == pc)
			return &e->insn[mid];
		if (c < 0 || (!c && e->insn[mid].pc < pc))
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const bs_explain_sample *bs_explain_sample_at(bs_explain *e, size_t i)
{
	return index_samples(e) < 0 || i >= e->n ? NULL : &e->v[i].s;
}

/* ---- explain-counts.tsv ---------------------------------------------------- */

static int add_count(bs_explain *e, const char *name, long line, char *text,
		     bs_error *err)
{
	char *f[6];
	long col[6];
	uint64_t v[3];
	int n = 0;
	count c;

	for (char *p = text;; ) {
		char *tab = strchr(p, '\t');

		f[n] = p;
		col[n++] = p - text + 1;
		if (!tab)
			break;
		if (n == 6)
			return bs_error_set(err, name, line, tab - text + 2,
					    "more than 6 tab-separated fields");
		*tab = '\0';
		p = tab + 1;
	}
	if (n < 6)
		return bs_error_set(err, name, line, 0, "%d tab-separated "
				    "fields, expected 6", n);
	if (field_u64(name, line, col[0], "launch", f[0], ULONG_MAX, &v[0],
		      err) < 0 ||
	    field_u64(name, line, col[4], "active", f[4], UINT64_MAX, &v[1],
		      err) < 0 ||
	    field_u64(name, line, col[5], "remote", f[5], v[1], &v[2],
		      err) < 0)
		return -1;
	c.launch = (unsigned long)v[0];
	c.active = v[1];
	c.remote = v[2];
	if (!f[2][0])
		return bs_error_set(err, name, line, col[2], "function is "
				    "empty");
	if (field_u64(name, line, col[3], "pc_offset", f[3], UINT32_MAX,
		      &v[0], err) < 0)
		return -1;
	c.pc = (uint32_t)v[0];
	if (bs_grow(&e->c, &e->ccap, e->nc, 256, sizeof *e->c) < 0)
		return bs_error_set(err, name, line, 0, "out of memory");
	if (!(c.function = strdup(f[2])))
		return bs_error_set(err, name, line, 0, "out of memory");
	e->c[e->nc++] = c;
	e->csorted = 0;
	return 0;
}

int bs_explain_has_counts(const bs_explain *e)
{
	return e && e->nc > 0;
}

static int counts_header(bs_explain *e, const char *name, long line,
			 bs_error *err)
{
	return strcmp(e->buf, BS_EXPLAIN_COUNT_COLUMNS)
	       ? bs_error_set(err, name, line, 1, "not the expected header "
			      "line") : 0;
}

int bs_explain_read_counts(bs_explain *e, FILE *f, const char *name,
			   bs_error *err)
{
	return read_table(e, f, name, counts_header, add_count, err);
}

static int by_count(const void *a, const void *b)
{
	const count *x = a, *y = b;
	int c = strcmp(x->function, y->function);

	if (c)
		return c;
	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	return x->launch < y->launch ? -1 : x->launch > y->launch;
}

/* The first count of function (nc when none). */
static size_t count_at(bs_explain *e, const char *function)
{
	size_t lo = 0, hi = e->nc;

	if (!e->csorted) {
		if (e->nc)
			qsort(e->c, e->nc, sizeof *e->c, by_count);
		e->csorted = 1;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(e->c[mid].function, function);

		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int bs_explain_count(bs_explain *e, const char *function, uint32_t pc,
		     bs_explain_counts *out)
{
	size_t i = count_at(e, function);
	unsigned long seen[8];
	size_t nseen = 0;

	memset(out, 0, sizeof *out);
	if (i == e->nc || strcmp(e->c[i].function, function))
		return -1;
	/* the function's sampled launches, however many pcs each counted */
	for (; i < e->nc && !strcmp(e->c[i].function, function); i++) {
		size_t k;

		for (k = 0; k < nseen && seen[k] != e->c[i].launch; k++)
			;
		if (k == nseen) {
			out->launches++;
			if (nseen < sizeof seen / sizeof *seen)
				seen[nseen++] = e->c[i].launch;
		}
		if (e->c[i].pc == pc) {
			out->active += e->c[i].active;
			out->remote += e->c[i].remote;
		}
	}
	return 0;
}
