/*
 * join.c - give profiled instructions the analyzer's prediction
 * (profile --patterns, --dataset).
 *
 * A pattern file names accesses KERNEL:OP:RANK (the demangled kernel name
 * without blanks, its parameter list dropped; ld or st; the rank of the
 * source statement among that kernel's statements of that op, counted
 * from 0 in source order), as `bankscope-tutorial --patterns` prints them.
 * A profiled instruction is joined to one by the same three things: its
 * kernel, its op (its row of the kinds table, bs_sass_kind: LDS is ld,
 * STS is st; other opcodes are not joined), and the rank of its source
 * line among the distinct source lines of that kernel's instructions of
 * that op.  Several instructions of one statement (an unrolled loop)
 * share its pattern.  The access width is the instruction's own, from its
 * modifiers (LDS.U8 1, .U16/.S16 2, .64 8, .128 16, else 4): when the
 * compiler merges a statement's accesses into a wider one, the lanes'
 * first addresses stay those of the pattern (an instruction whose pattern
 * addresses are not aligned to its width is not joined).  When a
 * name appears twice in the file the first one counts.
 *
 * The ranks of all instructions are found at once, the first time a
 * profile is joined (a sort of (kernel, op, line) and one of the pattern
 * names): n log n, where asking each instruction's rank anew was n^2.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bs_sass.h"

struct bs_join {
	bs_access *v;
	size_t n;
	size_t *by_name;          /* indexes of v sorted by name, file order */
	const bs_sassprof *sp;    /* the profile `pat` is for */
	size_t nins;
	long *pat;                /* per instruction: its pattern, or -1 */
	unsigned *width;          /* per instruction: its access width */
};

void bs_join_free(bs_join *j)
{
	if (j) {
		free(j->v);
		free(j->by_name);
		free(j->pat);
		free(j->width);
		free(j);
	}
}

bs_join *bs_join_open(const char *path, bs_error *err)
{
	FILE *f = fopen(path, "r");
	bs_join *j = calloc(1, sizeof *j);
	bs_reader *r = NULL;
	size_t cap = 0;
	bs_access a;
	int rc = -1;

	if (!f || !j) {
		bs_error_set(err, path, 0, 0, "cannot open: %s",
			     f ? "out of memory" : strerror(errno));
		goto out;
	}
	r = bs_reader_new(f, path);
	while (r && (rc = bs_reader_next(r, &a, err)) > 0) {
		if (bs_grow(&j->v, &cap, j->n, 64, sizeof *j->v) < 0) {
			rc = bs_error_set(err, path, 0, 0, "out of memory");
			break;
		}
		j->v[j->n++] = a;
	}
out:
	bs_reader_free(r);
	if (f)
		fclose(f);
	if (rc < 0) {
		bs_join_free(j);
		return NULL;
	}
	return j;
}

/* "void micro_inc<0>(long long*, int*)" -> "micro_inc<0>" */
static void kernel_key(const char *k, char *buf, size_t size)
{
	size_t n = 0;
	int depth = 0;

	if (!strncmp(k, "void ", 5))
		k += 5;
	for (; *k && n + 1 < size; k++) {
		if (*k == '<')
			depth++;
		else if (*k == '>')
			depth--;
		else if (*k == '(' && depth == 0)
			break;
		if (*k != ' ')
			buf[n++] = *k;
	}
	buf[n] = '\0';
}

/* "ld", "st" or NULL, and the access width, from the SASS text: its row
 * of the kinds table (bs_sass_kind), if that is ld or st. */
static const char *sass_op(const char *sass, unsigned *width)
{
	bs_kind k;

	if (!sass || bs_sass_kind(sass, &k, width) != 1)
		return NULL;
	return k == BS_KIND_LD ? "ld" : k == BS_KIND_ST ? "st" : NULL;
}

typedef struct {
	char key[BS_NAME_MAX];
	const char *op;
	unsigned long line;
	size_t i;                 /* the instruction */
} joinable;

static int by_key_op_line(const void *a, const void *b)
{
	const joinable *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c)
		return c;
	if ((c = strcmp(x->op, y->op)))
		return c;
	return (x->line > y->line) - (x->line < y->line);
}

static const bs_join *sort_join;

static int by_pattern_name(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(sort_join->v[x].name, sort_join->v[y].name);

	return c ? c : (x > y) - (x < y);
}

/* The first pattern named `name`, or -1. */
static long pattern(const bs_join *j, const char *name)
{
	size_t lo = 0, hi = j->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(j->v[j->by_name[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < j->n && !strcmp(j->v[j->by_name[lo]].name, name)
	       ? (long)j->by_name[lo] : -1;
}

/* Every instruction's pattern, for profile sp; -1 out of memory. */
static int prepare(bs_join *j, const bs_sassprof *sp, size_t n)
{
	joinable *x = malloc((n ? n : 1) * sizeof *x);
	size_t m = 0;

	free(j->pat);
	free(j->width);
	free(j->by_name);
	j->pat = malloc((n ? n : 1) * sizeof *j->pat);
	j->width = malloc((n ? n : 1) * sizeof *j->width);
	j->by_name = malloc((j->n ? j->n : 1) * sizeof *j->by_name);
	if (!x || !j->pat || !j->width || !j->by_name) {
		free(x);
		j->sp = NULL;
		return -1;
	}
	for (size_t k = 0; k < j->n; k++)
		j->by_name[k] = k;
	sort_join = j;
	qsort(j->by_name, j->n, sizeof *j->by_name, by_pattern_name);
	for (size_t k = 0; k < n; k++) {
		const bs_sass_insn *in = bs_sassprof_get(sp, k);
		const char *op = sass_op(in->sass, &j->width[k]);

		j->pat[k] = -1;
		if (!op || !in->source_file)
			continue;
		kernel_key(in->kernel, x[m].key, sizeof x[m].key);
		x[m].op = op;
		x[m].line = in->source_line;
		x[m].i = k;
		m++;
	}
	qsort(x, m, sizeof *x, by_key_op_line);
	for (size_t k = 0, rank = 0; k < m; k++) {
		char name[BS_NAME_MAX];

		if (k && (strcmp(x[k].key, x[k - 1].key) ||
			  strcmp(x[k].op, x[k - 1].op)))
			rank = 0;
		else if (k && x[k].line != x[k - 1].line)
			rank++;
		snprintf(name, sizeof name, "%.40s:%s:%zu", x[k].key, x[k].op,
			 rank);
		j->pat[x[k].i] = pattern(j, name);
	}
	free(x);
	j->sp = sp;
	j->nins = n;
	return 0;
}

int bs_join_find(bs_join *j, const bs_sassprof *sp, size_t n, size_t i,
	      bs_access *out)
{
	if (!j || i >= n || ((j->sp != sp || j->nins != n) &&
			     prepare(j, sp, n) < 0) ||
	    j->pat[i] < 0)
		return 0;
	*out = j->v[j->pat[i]];
	out->width = j->width[i];
	return bs_access_check(out, NULL) == 0;
}

int bs_join_predict(bs_join *j, const bs_arch *arch, const bs_sassprof *sp,
		    size_t n, size_t i, bs_access *a, bs_summary *s)
{
	return bs_join_find(j, sp, n, i, a) &&
	       bs_predict(arch, a, s, NULL) == 0;
}

/* A metadata value with control characters (a newline in a path) shown
 * as '?': one line of the header, whatever the path. */
static void meta_value(bs_meta *m, const char *key, const char *fmt,
		       const char *arg)
{
	snprintf(m->key, sizeof m->key, "%s", key);
	snprintf(m->value, sizeof m->value, fmt, arg);
	for (char *p = m->value; *p; p++)
		if ((unsigned char)*p < 0x20)
			*p = '?';
}

/*
 * A write the library refused or failed: name the file, keep the why (a
 * row's name and what is wrong with it, or the system's reason).
 */
static int write_failed(bs_dataset_out *o, const char *path, bs_error *err)
{
	char why[sizeof err->source + sizeof err->text + 2];
	const char *text = err->text;

	if (!strcmp(err->source, "dataset")) {
		if (!strncmp(text, "write error: ", 13))
			text += 13;
		snprintf(why, sizeof why, "%s", text);
	} else {
		snprintf(why, sizeof why, "%s: %s", err->source, text);
	}
	bs_dataset_abort(o);
	return bs_error_set(err, path, 0, 0, "cannot write: %.200s", why);
}

int bs_join_write_dataset(bs_join *j, const bs_arch *arch,
			  const bs_sassprof *sp, size_t n, const char *path,
			  const char *source, char *final, size_t size,
			  bs_error *err)
{
	bs_meta meta[6];
	char dir[4096], *slash, file[256], date[32];
	const char *base;
	bs_dataset_out *o;
	time_t now = time(NULL);
	int nm = 0;

	snprintf(dir, sizeof dir, "%s", path);
	slash = strrchr(dir, '/');
	base = slash ? slash + 1 : dir;
	snprintf(file, sizeof file, "%.200s", base);
	if (strlen(file) > 4 && !strcmp(file + strlen(file) - 4, ".csv"))
		file[strlen(file) - 4] = '\0';
	if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof dir, ".");
	strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	meta_value(&meta[nm++], "source", "bankscope profile --replay %s",
		   source);
	meta_value(&meta[nm++], "counters", "%s", "CUPTI SASS metrics, per "
		   "instruction, summed over the measured launches");
	meta_value(&meta[nm++], "arch", "%s", arch->name);
	meta_value(&meta[nm++], "date", "%s", date);
	meta_value(&meta[nm++], "rows", "%s", "one per profiled shared-memory "
		   "instruction joined to a pattern; measured values are per "
		   "execution (warp instruction), averaged over every warp "
		   "that ran it");
	if (!(o = bs_dataset_create(dir, err)))
		return -1;
	if (bs_dataset_write_header(bs_dataset_file(o), meta, nm, err) < 0)
		return write_failed(o, path, err);
	for (size_t i = 0; i < n; i++) {
		const bs_sass_insn *in = bs_sassprof_get(sp, i);
		char name[BS_NAME_MAX];
		bs_row row;

		bs_row_init(&row);
		if (!in->executions || !bs_join_find(j, sp, n, i, &row.access))
			continue;
		snprintf(row.probe, sizeof row.probe, "profile");
		snprintf(name, sizeof name, "%.48s@%04x", row.access.name,
			 in->pc);
		snprintf(row.access.name, sizeof row.access.name, "%s", name);
		row.instructions = (double)in->executions;
		row.wavefronts_measured = (double)in->wavefronts /
					  in->executions;
		/* CUPTI's ideal can exceed the wavefronts: no conflict then */
		row.bank_conflicts_measured = in->excess > 0
			? (double)in->excess / in->executions : 0;
		/* predicted where the architecture has a rule for the access */
		if (bs_arch_rule(arch, row.access.kind,
				    row.access.width) &&
		    bs_row_predict(arch, &row, err) < 0) {
			bs_dataset_abort(o);
			return -1;
		}
		if (bs_dataset_write_row(bs_dataset_file(o), &row, err) < 0)
			return write_failed(o, path, err);
	}
	return bs_dataset_commit(o, file, final, size, err);
}
