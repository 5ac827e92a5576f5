/*
 * join.c - give profiled instructions the analyzer's prediction.
 *
 * A pattern file names accesses KERNEL:OP:RANK (the demangled kernel name
 * without blanks, its parameter list dropped; ld or st; the rank of the
 * source statement among that kernel's statements of that op, counted
 * from 0 in source order), as `bankscope-tutorial --patterns` prints them.
 * A profiled instruction is joined to one by the same three things: its
 * kernel, its op (LDS* is ld, STS* is st; other opcodes are not joined),
 * and the rank of its source line among the distinct source lines of that
 * kernel's instructions of that op.  Several instructions of one statement
 * (an unrolled loop) share its pattern.  The access width is the
 * instruction's own (LDS.U8 1, .U16/.S16 2, .64 8, .128 16, else 4):
 * when the compiler merges a statement's accesses into a wider one, the
 * lanes' first addresses stay those of the pattern (an instruction whose
 * pattern addresses are not aligned to its width is not joined).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

struct join {
	bs_access *v;
	size_t n;
};

void join_free(join *j)
{
	if (j) {
		free(j->v);
		free(j);
	}
}

join *join_open(const char *path, bs_error *err)
{
	FILE *f = fopen(path, "r");
	join *j = calloc(1, sizeof *j);
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
		if (j->n == cap) {
			bs_access *v = realloc(j->v, (cap = cap ? 2 * cap : 64)
						      * sizeof *v);

			if (!v) {
				rc = bs_error_set(err, path, 0, 0,
						  "out of memory");
				break;
			}
			j->v = v;
		}
		j->v[j->n++] = a;
	}
out:
	bs_reader_free(r);
	if (f)
		fclose(f);
	if (rc < 0) {
		join_free(j);
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

/* "ld", "st" or NULL, and the access width, from the SASS text. */
static const char *sass_op(const char *sass, unsigned *width)
{
	const char *op;

	if (!sass)
		return NULL;
	if (sass[0] == '@')
		sass = strchr(sass, ' ') ? strchr(sass, ' ') + 1 : sass;
	if (!strncmp(sass, "LDS", 3) && (sass[3] == ' ' || sass[3] == '.'))
		op = "ld";
	else if (!strncmp(sass, "STS", 3) && (sass[3] == ' ' || sass[3] == '.'))
		op = "st";
	else
		return NULL;
	*width = !strncmp(sass + 3, ".U8", 3) || !strncmp(sass + 3, ".S8", 3)
		 ? 1 : !strncmp(sass + 3, ".U16", 4) ||
		   !strncmp(sass + 3, ".S16", 4) ? 2
		 : !strncmp(sass + 3, ".64", 3) ? 8
		 : !strncmp(sass + 3, ".128", 4) ? 16 : 4;
	return op;
}

static int cmp_ul(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return (x > y) - (x < y);
}

int join_find(const join *j, const bs_sassprof *sp, size_t n, size_t i,
	      bs_access *out)
{
	const bs_sass_insn *in = bs_sassprof_get(sp, i);
	char key[BS_NAME_MAX], name[BS_NAME_MAX], other[BS_NAME_MAX];
	unsigned long *lines;
	size_t nl = 0, rank = 0;
	unsigned width, w2;
	const char *op = sass_op(in->sass, &width);

	if (!j || !op || !in->source_file)
		return 0;
	kernel_key(in->kernel, key, sizeof key);
	lines = malloc(n * sizeof *lines);
	if (!lines)
		return 0;
	for (size_t k = 0; k < n; k++) {
		const bs_sass_insn *o = bs_sassprof_get(sp, k);
		const char *oop = sass_op(o->sass, &w2);

		kernel_key(o->kernel, other, sizeof other);
		if (oop && !strcmp(oop, op) && o->source_file &&
		    !strcmp(other, key))
			lines[nl++] = o->source_line;
	}
	qsort(lines, nl, sizeof *lines, cmp_ul);
	for (size_t k = 0; k < nl; k++)
		if (k == 0 || lines[k] != lines[k - 1]) {
			if (lines[k] == in->source_line)
				break;
			rank++;
		}
	free(lines);
	snprintf(name, sizeof name, "%.40s:%s:%zu", key, op, rank);
	for (size_t k = 0; k < j->n; k++)
		if (!strcmp(j->v[k].name, name)) {
			*out = j->v[k];
			out->width = width;
			return bs_access_check(out, NULL) == 0;
		}
	return 0;
}

int join_write_dataset(const join *j, const bs_sassprof *sp, size_t n,
		       const char *path, const char *source, bs_error *err)
{
	bs_meta meta[6];
	char dir[4096], *slash, file[256], final[4096], date[32];
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
#define META(k, ...) do { snprintf(meta[nm].key, sizeof meta[nm].key, k); \
	snprintf(meta[nm].value, sizeof meta[nm].value, __VA_ARGS__); nm++; } while (0)
	META("source", "bankscope profile --replay %s", source);
	META("counters", "CUPTI SASS metrics, per instruction, summed over "
	     "the measured launches");
	META("profile", "%s", bs_profile_default()->name);
	META("date", "%s", date);
	META("rows", "one per profiled shared-memory instruction joined to a "
	     "pattern; measured values are per execution (warp "
	     "instruction), averaged over every warp that ran it");
#undef META
	if (!(o = bs_dataset_create(dir, err)))
		return -1;
	bs_dataset_write_header(bs_dataset_file(o), meta, nm, err);
	for (size_t i = 0; i < n; i++) {
		const bs_sass_insn *in = bs_sassprof_get(sp, i);
		bs_row row;

		bs_row_init(&row);
		if (!in->executions || !join_find(j, sp, n, i, &row.access))
			continue;
		snprintf(row.probe, sizeof row.probe, "profile");
		snprintf(row.note, sizeof row.note, "%s", "");
		{
			char name[BS_NAME_MAX];

			snprintf(name, sizeof name, "%.48s@%04x",
				 row.access.name, in->pc);
			snprintf(row.access.name, sizeof row.access.name, "%s",
				 name);
		}
		row.instructions = (double)in->executions;
		row.wavefronts_measured = (double)in->wavefronts / in->executions;
		row.bank_conflicts_measured = (double)in->excess / in->executions;
		if (bs_row_predict(bs_profile_default(), &row, err) < 0 ||
		    bs_dataset_write_row(bs_dataset_file(o), &row, err) < 0) {
			bs_dataset_abort(o);
			return -1;
		}
	}
	return bs_dataset_commit(o, file, final, sizeof final, err);
}
