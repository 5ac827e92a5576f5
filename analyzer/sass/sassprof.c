/*
 * sassprof.c - per-instruction profiles: the records the injection library
 * writes, summed per instruction, named from a disassembly, filtered to
 * shared memory and sorted (see bs_sass.h; the files: sassprof.h).  Here
 * the storage and the reading of records.tsv and launches.tsv.
 *
 * Reading.  records.tsv and launches.tsv: the header line exactly as
 * BS_SASS_RECORD_COLUMNS (or BS_SASS_RECORD_COLUMNS_DSHARED) /
 * BS_SASS_LAUNCH_COLUMNS, then lines of exactly that many tab-separated
 * fields; empty lines are skipped, a CR before the
 * newline is dropped.  The injection library writes whole lines, so a
 * last line without its newline is a file cut short: an error, in the
 * disassembly too.  Counts are unsigned decimal (or 0x hex), the CRC,
 * function index and pc at most 32 bits, names non-empty; pc_records of
 * launches.tsv is a count or "-" (the run did not measure that launch),
 * and so is dshared (the GPU does not offer the metric), which cannot
 * pass inst_executed: the warp instructions that went remote are some of
 * those of that pc.  An instruction's dshared is known when every one of
 * its records gave a count.
 * Counts and their sums per instruction are at most INT64_MAX, so that
 * excess (wavefronts - ideal) is always exact; more is refused, not
 * clamped.  A record's key is (cubin, function, pc, launch): a drain
 * sums each instruction into one line, a process drains once (launch
 * "-") or once per launch (its index), and each kernel's records come
 * from one run, so a second record with the same key is a duplicated
 * line, an error naming both lines.  A launch index may appear in
 * several runs: it counts once, measured when any run measured it, its
 * kernel named by the first line (another name later is a mismatch).
 * Every error names the file, line and the 1-based column of the field.
 *
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "sassprof.h"

#define LINE_MAX_BYTES (1024 * 1024)
#define RECORD_FIELDS 10                  /* 9 without dshared */
#define LAUNCH_FIELDS 3
#define DRAINED ULONG_MAX                 /* the launch of a "-" record */

static uint64_t hash_bytes(const char *s, uint64_t h)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

char *sp_str_find(const strtab *t, const char *s, size_t *at)
{
	size_t i;

	if (!t->cap)
		return NULL;
	i = (size_t)hash_bytes(s, 0xcbf29ce484222325ull) & (t->cap - 1);
	for (; t->slot[i]; i = (i + 1) & (t->cap - 1))
		if (!strcmp(t->slot[i], s))
			return t->slot[i];
	if (at)
		*at = i;
	return NULL;
}

char *sp_intern(strtab *t, const char *s)
{
	size_t at = 0, len;
	char *c = sp_str_find(t, s, &at);

	if (c)
		return c;
	if (2 * (t->n + 1) > t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 256;
		char **slot = calloc(cap, sizeof *slot);

		if (!slot)
			return NULL;
		for (size_t i = 0; i < t->cap; i++) {
			size_t j;

			if (!t->slot[i])
				continue;
			j = (size_t)hash_bytes(t->slot[i],
					       0xcbf29ce484222325ull) &
			    (cap - 1);
			while (slot[j])
				j = (j + 1) & (cap - 1);
			slot[j] = t->slot[i];
		}
		free(t->slot);
		t->slot = slot;
		t->cap = cap;
		sp_str_find(t, s, &at);
	}
	len = strlen(s) + 1;
	if (!(c = malloc(len)))
		return NULL;
	memcpy(c, s, len);
	t->slot[at] = c;
	t->n++;
	return c;
}

static size_t key_hash(uint32_t crc, const char *fn, uint32_t pc)
{
	uint64_t h = (uint64_t)(uintptr_t)fn * 0x9e3779b97f4a7c15ull;

	h ^= ((uint64_t)crc << 32 | pc) * 0xc2b2ae3d27d4eb4full;
	return (size_t)(h ^ h >> 29);
}

size_t *sp_lookup(const bs_sassprof *p, uint32_t crc, const char *fn,
		  uint32_t pc)
{
	size_t i = key_hash(crc, fn, pc) & (p->hcap - 1);

	for (; p->hash[i]; i = (i + 1) & (p->hcap - 1)) {
		const bs_sass_insn *in = &p->e[p->hash[i] - 1].in;

		if (in->cubin_crc == crc && in->function == fn && in->pc == pc)
			break;
	}
	return &p->hash[i];
}

static int grow_hash(bs_sassprof *p)
{
	size_t cap = p->hcap ? 2 * p->hcap : 1024, *old = p->hash;
	size_t oldcap = p->hcap;

	if (!(p->hash = calloc(cap, sizeof *p->hash))) {
		p->hash = old;
		return -1;
	}
	p->hcap = cap;
	for (size_t i = 0; i < oldcap; i++)
		if (old[i]) {
			const bs_sass_insn *in = &p->e[old[i] - 1].in;

			*sp_lookup(p, in->cubin_crc, in->function, in->pc) =
				old[i];
		}
	free(old);
	return 0;
}

static int note_crc(bs_sassprof *p, uint32_t crc)
{
	size_t lo = 0, hi = p->ncrc;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (p->crcs[mid] < crc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < p->ncrc && p->crcs[lo] == crc)
		return 0;
	if (bs_grow(&p->crcs, &p->crccap, p->ncrc, 8, sizeof *p->crcs) < 0)
		return -1;
	memmove(p->crcs + lo + 1, p->crcs + lo,
		(p->ncrc - lo) * sizeof *p->crcs);
	p->crcs[lo] = crc;
	p->ncrc++;
	return 0;
}

static size_t launch_slot(const bs_sassprof *p, unsigned long l)
{
	uint64_t h = (uint64_t)l * 0x9e3779b97f4a7c15ull;
	size_t i = (size_t)(h ^ h >> 31) & (p->lhcap - 1);

	while (p->lhash[i] && p->launch[p->lhash[i] - 1].index != l)
		i = (i + 1) & (p->lhcap - 1);
	return i;
}

/* The hash of launch indexes, rebuilt for launch[] as it is. */
static int rehash_launches(bs_sassprof *p, size_t cap)
{
	size_t *h = calloc(cap, sizeof *h);

	if (!h)
		return -1;
	free(p->lhash);
	p->lhash = h;
	p->lhcap = cap;
	for (size_t k = 0; k < p->nl; k++)
		p->lhash[launch_slot(p, p->launch[k].index)] = k + 1;
	return 0;
}

/*
 * The launch with index l, added when new (at the end: the array is
 * sorted again after the read, sort_launches); NULL when out of memory.
 * Records and launches may come in any order: a hash finds them, so
 * reading n of them is linear, not quadratic.
 */
static bs_sass_launch *note_launch(bs_sassprof *p, unsigned long l)
{
	size_t i;

	if (2 * (p->nl + 1) > p->lhcap &&
	    rehash_launches(p, p->lhcap ? 2 * p->lhcap : 256) < 0)
		return NULL;
	i = launch_slot(p, l);
	if (p->lhash[i])
		return &p->launch[p->lhash[i] - 1];
	if (bs_grow(&p->launch, &p->lcap, p->nl, 64, sizeof *p->launch) < 0)
		return NULL;
	if (p->nl && p->launch[p->nl - 1].index > l)
		p->lsorted = 0;
	memset(&p->launch[p->nl], 0, sizeof p->launch[p->nl]);
	p->launch[p->nl].index = l;
	p->lhash[i] = ++p->nl;
	return &p->launch[p->nl - 1];
}

static int by_launch_index(const void *a, const void *b)
{
	const bs_sass_launch *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

/* launch[] in index order again, after a read that added out of order. */
static int sort_launches(bs_sassprof *p)
{
	if (p->lsorted)
		return 0;
	qsort(p->launch, p->nl, sizeof *p->launch, by_launch_index);
	p->lsorted = 1;
	return rehash_launches(p, p->lhcap);
}

/* A kernel name for launch l: the first one given; a different one later
 * counts as a mismatch (the program launched differently between runs). */
static void name_launch(bs_sassprof *p, bs_sass_launch *l, const char *kernel)
{
	if (!l->kernel)
		l->kernel = kernel;
	else if (l->kernel != kernel && !l->mismatch) {
		l->mismatch = 1;
		p->tot.mismatched++;
	}
}

bs_sassprof *bs_sassprof_new(void)
{
	bs_sassprof *p = calloc(1, sizeof *p);

	if (!p)
		return NULL;
	p->lsorted = 1;
	if (grow_hash(p) < 0 || !(p->line = malloc(p->linecap = 1024))) {
		bs_sassprof_free(p);
		return NULL;
	}
	return p;
}

void bs_sassprof_free(bs_sassprof *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->names.cap; i++)
		free(p->names.slot[i]);
	free(p->names.slot);
	free(p->e);
	free(p->hash);
	free(p->crcs);
	free(p->launch);
	free(p->lhash);
	free(p->seen);
	free(p->line);
	free(p);
}

/* ---- reading ------------------------------------------------------------ */

int sp_read_line(src *s, bs_error *err)
{
	bs_sassprof *p = s->p;
	size_t n = 0;
	int c = getc(s->f);

	if (c == EOF)
		return ferror(s->f) ? bs_error_set(err, s->name, s->line + 1, 0,
						   "read error: %s",
						   strerror(errno ? errno : EIO))
				    : 0;
	s->line++;
	for (; c != EOF && c != '\n'; c = getc(s->f)) {
		if (c == '\0')
			return bs_error_set(err, s->name, s->line, (long)n + 1,
					    "NUL byte in a text line");
		if (n + 1 >= LINE_MAX_BYTES)
			return bs_error_set(err, s->name, s->line, 0,
					    "line longer than %d bytes",
					    LINE_MAX_BYTES);
		if (n + 1 >= p->linecap) {
			size_t cap = 2 * p->linecap;
			char *b = realloc(p->line, cap);

			if (!b)
				return bs_error_set(err, s->name, s->line, 0,
						    "out of memory");
			p->line = b;
			p->linecap = cap;
		}
		p->line[n++] = (char)c;
	}
	if (ferror(s->f))
		return bs_error_set(err, s->name, s->line, 0, "read error: %s",
				    strerror(errno ? errno : EIO));
	if (n && p->line[n - 1] == '\r')
		n--;
	p->line[n] = '\0';
	return c == EOF ? 2 : 1;
}

/* A line read_line gave 2 for: every file here is written in whole
 * lines, so its end is missing. */
int sp_truncated(const src *s, bs_error *err)
{
	return bs_error_set(err, s->name, s->line, 0, "the last line has no "
			    "newline: the file is truncated");
}

typedef struct {
	char *text;
	long col;
} field;

/* Split p->line at tabs into exactly want fields. */
static int split(src *s, field *fld, int want, const char *what,
		 bs_error *err)
{
	char *q = s->p->line;
	int n = 0;

	for (;;) {
		char *tab = strchr(q, '\t');

		if (n == want)
			return bs_error_set(err, s->name, s->line,
					    (long)(q - s->p->line) + 1,
					    "more than %d tab-separated fields "
					    "(%s)", want, what);
		fld[n].text = q;
		fld[n].col = (long)(q - s->p->line) + 1;
		n++;
		if (!tab)
			break;
		*tab = '\0';
		q = tab + 1;
	}
	if (n < want)
		return bs_error_set(err, s->name, s->line,
				    (long)strlen(fld[n - 1].text) +
					    fld[n - 1].col,
				    "%d tab-separated fields, expected %d (%s)",
				    n, want, what);
	return 0;
}

/* A field of unsigned decimal (hex: pc_offset's alone, 0x or decimal). */
static int get_u64(src *s, const field *f, const char *what, uint64_t max,
		   uint64_t *out, bs_error *err)
{
	int rc = strcmp(what, "pc_offset") ? bs_parse_dec_u64(f->text, max, out)
					   : bs_parse_u64(f->text, max, out);

	if (rc == -3)
		return bs_error_set(err, s->name, s->line, f->col,
				    "%s: '%.40s' is not decimal (pc_offset "
				    "alone is hex)", what, f->text);
	if (rc == -1)
		return bs_error_set(err, s->name, s->line, f->col,
				    "%s: '%.40s' is not a non-negative integer",
				    what, f->text);
	if (rc == -2)
		return bs_error_set(err, s->name, s->line, f->col,
				    "%s: %.40s is larger than %llu", what,
				    f->text, (unsigned long long)max);
	return 0;
}

static int get_name(src *s, const field *f, const char *what, char **out,
		    bs_error *err)
{
	if (!f->text[0])
		return bs_error_set(err, s->name, s->line, f->col,
				    "%s is empty", what);
	if (!(*out = sp_intern(&s->p->names, f->text)))
		return bs_error_set(err, s->name, s->line, f->col,
				    "out of memory");
	return 0;
}

/* Read up to the header; it must be exactly `header`, or `alt` when not
 * NULL: 0 header, 1 alt, -1 neither (err). */
static int expect_header(src *s, const char *header, const char *alt,
			 bs_error *err)
{
	int rc;

	while ((rc = sp_read_line(s, err)) > 0 && !s->p->line[0])
		;
	if (rc < 0)
		return -1;
	if (rc == 0)
		return bs_error_set(err, s->name, 0, 0, "empty file: expected "
				    "the header line");
	if (rc == 2)
		return sp_truncated(s, err);
	if (alt && !strcmp(s->p->line, alt))
		return 1;
	if (strcmp(s->p->line, header)) {
		/* the longer header names the column that differs */
		const char *a = s->p->line, *b = alt ? alt : header;

		while (*a && *a == *b)
			a++, b++;
		return bs_error_set(err, s->name, s->line,
				    (long)(a - s->p->line) + 1,
				    "not the expected header line");
	}
	return 0;
}

int sp_refuse_finished(const bs_sassprof *p, const char *name,
		       bs_error *err)
{
	if (p->finished)
		return bs_error_set(err, name, 0, 0,
				    "profile already finished");
	return 0;
}

static size_t seen_slot(const bs_sassprof *p, size_t ei,
			unsigned long launch)
{
	uint64_t h = ((uint64_t)ei * 0x9e3779b97f4a7c15ull) ^
		     ((uint64_t)launch * 0xc2b2ae3d27d4eb4full);
	size_t i = (size_t)(h ^ h >> 29) & (p->seencap - 1);

	while (p->seen[i].entry && (p->seen[i].entry != ei ||
				    p->seen[i].launch != launch))
		i = (i + 1) & (p->seencap - 1);
	return i;
}

/*
 * The record of instruction ei (index + 1) and launch on line: 0 when
 * its key is new; -1 out of memory; else the line that had it first.
 */
static long note_seen(bs_sassprof *p, size_t ei, unsigned long launch,
		      long line)
{
	size_t i;

	if (2 * (p->nseen + 1) > p->seencap) {
		size_t cap = p->seencap ? 2 * p->seencap : 1024;
		size_t oldcap = p->seencap;
		seen *old = p->seen, *v = calloc(cap, sizeof *v);

		if (!v)
			return -1;
		p->seen = v;
		p->seencap = cap;
		for (size_t k = 0; k < oldcap; k++)
			if (old[k].entry)
				p->seen[seen_slot(p, old[k].entry,
						  old[k].launch)] = old[k];
		free(old);
	}
	i = seen_slot(p, ei, launch);
	if (p->seen[i].entry)
		return p->seen[i].line;
	p->seen[i] = (seen){ ei, launch, line };
	p->nseen++;
	return 0;
}

/* The entry of (crc, fn, pc), added when new; NULL out of memory. */
static entry *entry_for(bs_sassprof *p, uint32_t crc, char *fn, uint32_t pc,
			char *kernel)
{
	size_t *slot = sp_lookup(p, crc, fn, pc);
	entry *e;

	if (*slot)
		return &p->e[*slot - 1];
	if (bs_grow(&p->e, &p->cap, p->n, 256, sizeof *p->e) < 0)
		return NULL;
	e = &p->e[p->n];
	memset(e, 0, sizeof *e);
	e->in.kernel = kernel;
	e->in.function = fn;
	e->in.cubin_crc = crc;
	e->in.pc = pc;
	e->in.dshared_known = 1;
	*slot = ++p->n;
	if (2 * p->n > p->hcap && grow_hash(p) < 0)
		return NULL;
	return &p->e[p->n - 1];
}

/*
 * The dshared field of a record whose inst_executed is exec: *known 0
 * without one (a 9-field file, or "-"), else the count in *v, at most
 * exec (the remote executions are some of that pc's).
 */
static int get_dshared(src *s, const field *fld, uint64_t exec, uint64_t *v,
		       int *known, bs_error *err)
{
	*v = 0;
	*known = s->fields == RECORD_FIELDS && strcmp(fld[9].text, "-");
	if (!*known)
		return 0;
	if (get_u64(s, &fld[9], "dshared", COUNT_MAX, v, err) < 0)
		return -1;
	if (*v > exec)
		return bs_error_set(err, s->name, s->line, fld[9].col,
				    "dshared: %llu is more than inst_executed "
				    "%llu (the remote executions are some of "
				    "that pc's warp instructions)",
				    (unsigned long long)*v,
				    (unsigned long long)exec);
	return 0;
}

static int add_record(bs_sassprof *p, src *s, const field *fld,
		      bs_error *err)
{
	static const char *const what[4] = {
		"inst_executed", "wavefronts", "wavefronts_ideal", "dshared"
	};
	uint64_t launch = 0, crc, fidx, pc, v[4];
	int drained = !strcmp(fld[1].text, "-"), known;
	char *kernel, *fn;
	bs_sass_launch *l = NULL;
	entry *e;
	uint64_t *sum[4];
	long first;

	if (get_name(s, &fld[0], "kernel", &kernel, err) < 0 ||
	    (!drained &&
	     get_u64(s, &fld[1], "launch", DRAINED - 1, &launch, err) < 0) ||
	    get_u64(s, &fld[2], "cubin_crc", UINT32_MAX, &crc, err) < 0 ||
	    get_u64(s, &fld[3], "function_index", UINT32_MAX, &fidx,
		    err) < 0 ||
	    get_name(s, &fld[4], "function", &fn, err) < 0 ||
	    get_u64(s, &fld[5], "pc_offset", UINT32_MAX, &pc, err) < 0)
		return -1;
	for (int i = 0; i < 3; i++)
		if (get_u64(s, &fld[6 + i], what[i], COUNT_MAX, &v[i],
			    err) < 0)
			return -1;
	if (get_dshared(s, fld, v[0], &v[3], &known, err) < 0)
		return -1;
	if (note_crc(p, (uint32_t)crc) < 0 ||
	    !(e = entry_for(p, (uint32_t)crc, fn, (uint32_t)pc, kernel)))
		return bs_error_set(err, s->name, s->line, 0, "out of memory");
	first = note_seen(p, (size_t)(e - p->e) + 1,
			  drained ? DRAINED : (unsigned long)launch, s->line);
	if (first < 0)
		return bs_error_set(err, s->name, s->line, 0, "out of memory");
	if (first)
		return bs_error_set(err, s->name, s->line, 0, "a second record "
				    "of cubin %u, function %s, pc 0x%x, launch "
				    "%s, as on line %ld: a duplicated line "
				    "(each run writes an instruction once per "
				    "launch or window)", (unsigned)crc, fn,
				    (unsigned)pc, fld[1].text, first);
	sum[0] = &e->in.executions;
	sum[1] = &e->in.wavefronts;
	sum[2] = &e->in.ideal;
	sum[3] = &e->in.dshared;
	for (int i = 0; i < 4; i++)
		if (v[i] > COUNT_MAX - *sum[i])
			return bs_error_set(err, s->name, s->line, fld[6 + i].col,
					    "%s: the sum of this instruction's "
					    "records passes %llu", what[i],
					    (unsigned long long)COUNT_MAX);
	if (!drained && !(l = note_launch(p, (unsigned long)launch)))
		return bs_error_set(err, s->name, s->line, 0, "out of memory");
	if (l) {
		l->measured = 1;
		l->records++;
	}
	p->tot.records++;
	p->tot.drained += (unsigned long)drained;
	p->tot.dshared_records += (unsigned long)known;
	e->in.dshared_known &= known;
	if (drained) {
		e->drained = 1;
	} else if (!e->in.launches || e->last_launch != launch) {
		e->in.launches++;
		e->last_launch = (unsigned long)launch;
	}
	for (int i = 0; i < 4; i++)
		*sum[i] += v[i];
	return 0;
}

int bs_sassprof_read_records(bs_sassprof *p, FILE *f, const char *name,
			     bs_error *err)
{
	src s = { p, f, name ? name : "<stdin>", 0, 0 };
	field fld[RECORD_FIELDS];
	int rc;

	if (sp_refuse_finished(p, s.name, err) < 0 ||
	    (rc = expect_header(&s, BS_SASS_RECORD_COLUMNS,
				BS_SASS_RECORD_COLUMNS_DSHARED, err)) < 0)
		return -1;
	s.fields = RECORD_FIELDS - 1 + rc;
	while ((rc = sp_read_line(&s, err)) > 0) {
		if (rc == 2)
			return sp_truncated(&s, err);
		if (!p->line[0])
			continue;
		if (split(&s, fld, s.fields, "a record", err) < 0 ||
		    add_record(p, &s, fld, err) < 0)
			return -1;
	}
	if (sort_launches(p) < 0)
		return bs_error_set(err, s.name, 0, 0, "out of memory");
	return rc;
}

int bs_sassprof_read_launches(bs_sassprof *p, FILE *f, const char *name,
			      bs_error *err)
{
	src s = { p, f, name ? name : "<stdin>", 0, 0 };
	field fld[LAUNCH_FIELDS];
	int rc;

	if (sp_refuse_finished(p, s.name, err) < 0 ||
	    expect_header(&s, BS_SASS_LAUNCH_COLUMNS, NULL, err) < 0)
		return -1;
	while ((rc = sp_read_line(&s, err)) > 0) {
		uint64_t launch, n = 0;
		bs_sass_launch *l;
		char *kernel;
		int measured, window;

		if (rc == 2)
			return sp_truncated(&s, err);
		if (!p->line[0])
			continue;
		if (split(&s, fld, LAUNCH_FIELDS, "a launch", err) < 0 ||
		    get_u64(&s, &fld[0], "launch", ULONG_MAX, &launch,
			    err) < 0 ||
		    get_name(&s, &fld[1], "kernel", &kernel, err) < 0)
			return -1;
		window = !strcmp(fld[2].text, "*");
		measured = !window && strcmp(fld[2].text, "-") != 0;
		if (measured && get_u64(&s, &fld[2], "pc_records", ULONG_MAX,
					&n, err) < 0)
			return -1;
		if (!(l = note_launch(p, (unsigned long)launch)))
			return bs_error_set(err, s.name, s.line, 0,
					    "out of memory");
		name_launch(p, l, kernel);
		l->window |= window;
		if (measured) {
			l->measured = 1;
			if (n > l->written)
				l->written = (unsigned long)n;
		}
	}
	if (sort_launches(p) < 0)
		return bs_error_set(err, s.name, 0, 0, "out of memory");
	return rc;
}

size_t bs_sassprof_cubins(const bs_sassprof *p, uint32_t *crc, size_t max)
{
	for (size_t i = 0; i < p->ncrc && i < max; i++)
		crc[i] = p->crcs[i];
	return p->ncrc;
}

static int ptr_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(const char *const *)a;
	uintptr_t y = (uintptr_t)*(const char *const *)b;

	return (x > y) - (x < y);
}

size_t bs_sassprof_functions(const bs_sassprof *p, uint32_t crc,
			     const char **name, size_t max)
{
	const char **all;
	size_t n = 0, u = 0;

	for (size_t i = 0; i < p->n; i++)
		n += p->e[i].in.cubin_crc == crc;
	if (!n || !(all = malloc(n * sizeof *all)))
		return 0;
	n = 0;
	for (size_t i = 0; i < p->n; i++)
		if (p->e[i].in.cubin_crc == crc)
			all[n++] = p->e[i].in.function;
	/* interned: one pointer per name */
	qsort(all, n, sizeof *all, ptr_cmp);
	for (size_t i = 0; i < n; i++)
		if (!i || all[i] != all[i - 1]) {
			if (u < max)
				name[u] = all[i];
			u++;
		}
	free(all);
	return u;
}

