/*
 * dataset_write.c - writing measured datasets (bs_input.h; the reader is
 * dataset.c, the table of columns both walk is dataset.c's).
 *
 * The metadata lines "# key: value" (key: letters, digits, _ . -;
 * value: one line), then BS_DATASET_COLUMNS, then one line per row.  NaN
 * is an empty field; counts (width, active_lanes, instructions, the
 * predictions, chain_length, repetitions, tp_warps_per_sm) print as
 * integers when they are; measured per-instruction values with up to 4
 * decimals, trailing zeros trimmed; cycles with 2 decimals; throughput with
 * 3.  probe, name and note are quoted as every bankscope CSV quotes
 * (bs_csv_field: a comma, a quote, a line break, a leading '#', blanks at
 * either end).  A row the reader could not read back (invalid
 * access, empty probe or name, a newline in a string, a number outside
 * 0..1e15) is refused with -1 and nothing written, as is a write error.
 *
 * Writing a file safely: bs_dataset_create() makes dir (like mkdir -p) and
 * a hidden temporary ".bankscope.tmp-XXXXXX" in it (mkstemp, then the
 * mode any new file gets: 0666 less the umask);
 * bs_dataset_commit() flushes, fsyncs and closes it, link(2)s it to
 * dir/NAME.csv, or NAME-2.csv, NAME-3.csv, ... when that exists (link
 * never overwrites), removes the temporary name and fsyncs dir.  Commit
 * always consumes the handle: on failure nothing is left behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dataset.h"

#define TMP_NAME ".bankscope.tmp-XXXXXX"
#define MAX_SUFFIX 9999

static double num_of(const bs_row *row, size_t off)
{
	return *(const double *)(const void *)((const char *)row + off);
}

/* ---- writing ------------------------------------------------------------ */

/* A write error on f, once the writes are done (stdio's flag is sticky). */
static int write_result(FILE *f, bs_error *err)
{
	if (!ferror(f))
		return 0;
	return bs_error_set(err, "dataset", 0, 0, "write error%s%s",
			    errno ? ": " : "", errno ? strerror(errno) : "");
}

int bs_dataset_write_header(FILE *f, const bs_meta *meta, int nmeta,
			    bs_error *err)
{
	if (nmeta < 0 || nmeta > BS_META_MAX)
		return bs_error_set(err, "metadata", 0, 0, "%d lines, not 0 "
				    "to %d", nmeta, BS_META_MAX);
	for (int i = 0; i < nmeta; i++) {
		const char *k = meta[i].key;

		if (!memchr(k, '\0', sizeof meta[i].key) ||
		    !memchr(meta[i].value, '\0', sizeof meta[i].value))
			return bs_error_set(err, "metadata", 0, 0, "line %d: "
					    "key or value not terminated", i);
		if (!k[0])
			return bs_error_set(err, "metadata", 0, 0, "line %d: "
					    "empty key", i);
		for (; *k; k++)
			if (!dataset_key_char(*k))
				return bs_error_set(err, "metadata", 0, 0,
					"key '%s' holds a character other "
					"than letters, digits, '_', '.' and "
					"'-'", meta[i].key);
		if (strpbrk(meta[i].value, "\r\n"))
			return bs_error_set(err, "metadata", 0, 0, "the value "
					    "of '%s' holds a line break",
					    meta[i].key);
	}
	errno = 0;
	for (int i = 0; i < nmeta; i++)
		fprintf(f, "# %s: %s\n", meta[i].key, meta[i].value);
	fputs(BS_DATASET_COLUMNS "\n", f);
	return write_result(f, err);
}

/* "2", "2.5", "1.0312": %.*f with trailing zeros and the point dropped. */
static void trimmed(char *buf, size_t size, double v, int decimals)
{
	char *e;

	snprintf(buf, size, "%.*f", decimals, v);
	if (strchr(buf, '.')) {
		e = buf + strlen(buf);
		while (e[-1] == '0')
			*--e = '\0';
		if (e[-1] == '.')
			e[-1] = '\0';
	}
	if (!strcmp(buf, "-0"))
		strcpy(buf, "0");
}

static void format_number(char *buf, size_t size, double v, enum ds_kind k)
{
	if (isnan(v))
		buf[0] = '\0';
	else if (k == K_COUNT && v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, size, "%.0f", v == 0 ? 0.0 : v);
	else if (k == K_CYCLES)
		snprintf(buf, size, "%.2f", v);
	else if (k == K_TP)
		snprintf(buf, size, "%.3f", v);
	else
		trimmed(buf, size, v, 4);
}

/* Can the reader take this row back?  0, or -1 with err saying why. */
static int writable(const bs_row *row, bs_error *err)
{
	static const char *const what[3] = { "probe", "name", "note" };
	const char *strs[3] = { row->probe, row->access.name, row->note };
	const size_t sizes[3] = { sizeof row->probe, sizeof row->access.name,
				  sizeof row->note };
	const char *src;

	for (int i = 0; i < 3; i++)
		if (!memchr(strs[i], '\0', sizes[i]))
			return bs_error_set(err, "row", 0, 0, "%s not "
					    "terminated", what[i]);
	src = row->access.name[0] ? row->access.name : "row";
	for (int i = 0; i < 3; i++) {
		if (i < 2 && !strs[i][0])
			return bs_error_set(err, src, 0, 0, "empty %s",
					    what[i]);
		if (strpbrk(strs[i], "\r\n"))
			return bs_error_set(err, src, 0, 0, "%s holds a line "
					    "break", what[i]);
	}
	for (int c = 0; c < DS_NCOLUMNS; c++) {
		const ds_column *col = &dataset_columns[c];

		if (col->kind >= K_COUNT &&
		    !dataset_number_ok(num_of(row, col->off)))
			return bs_error_set(err, src, 0, 0, "column '%s': %g "
					    "is out of range (0 to 1e15)",
					    col->name, num_of(row, col->off));
	}
	return bs_access_check(&row->access, err);
}

int bs_dataset_write_row(FILE *f, const bs_row *row, bs_error *err)
{
	const bs_access *a = &row->access;
	char buf[64];

	if (writable(row, err) < 0)
		return -1;
	errno = 0;
	for (int c = 0; c < DS_NCOLUMNS; c++) {
		const ds_column *col = &dataset_columns[c];

		if (c)
			putc(',', f);
		switch (col->kind) {
		case K_PROBE:
			bs_csv_field(f, row->probe);
			break;
		case K_NAME:
			bs_csv_field(f, a->name);
			break;
		case K_WIDTH:
			fprintf(f, "%u", a->width);
			break;
		case K_OP:
			fputs(bs_kind_name(a->kind), f);
			break;
		case K_ACTIVE:
			fprintf(f, "%d", __builtin_popcount(a->active));
			break;
		case K_NOTE:
			bs_csv_field(f, row->note);
			break;
		case K_ADDR:
			for (unsigned l = 0; l < BS_LANES; l++) {
				if (l)
					putc(' ', f);
				if (a->active >> l & 1)
					fprintf(f, "%u", (unsigned)a->addr[l]);
				else
					putc('-', f);
			}
			break;
		default:
			format_number(buf, sizeof buf, num_of(row, col->off),
				      col->kind);
			fputs(buf, f);
			break;
		}
	}
	putc('\n', f);
	return write_result(f, err);
}

/* ---- writing a whole file ----------------------------------------------- */

struct bs_dataset_out {
	FILE *f;
	char *dir;
	char *tmp;
};

/* mkdir -p, and dir must be a directory. */
static int make_dirs(const char *dir, bs_error *err)
{
	struct stat st;

	if (bs_make_dirs(dir) < 0)
		return errno == ENOMEM ? bs_error_set(err, dir, 0, 0,
						      "out of memory")
				       : bs_error_set(err, dir, 0, 0,
						      "cannot create "
						      "directory: %s",
						      strerror(errno));
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return bs_error_set(err, dir, 0, 0, "not a directory");
	return 0;
}

bs_dataset_out *bs_dataset_create(const char *dir, bs_error *err)
{
	bs_dataset_out *o;
	mode_t mode;
	size_t n;
	int fd;

	if (!dir || !dir[0])
		dir = ".";
	if (make_dirs(dir, err) < 0)
		return NULL;
	o = calloc(1, sizeof *o);
	n = strlen(dir) + sizeof "/" TMP_NAME;
	if (!o || !(o->dir = dataset_dup(dir)) || !(o->tmp = malloc(n))) {
		bs_error_set(err, dir, 0, 0, "out of memory");
		goto fail;
	}
	snprintf(o->tmp, n, "%s/" TMP_NAME, dir);
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		bs_error_set(err, dir, 0, 0, "cannot create a temporary file: "
			     "%s", strerror(errno));
		goto fail;
	}
	mode = umask(0);
	umask(mode);
	fchmod(fd, 0666 & ~mode);
	o->f = fdopen(fd, "w");
	if (!o->f) {
		bs_error_set(err, dir, 0, 0, "cannot open the temporary file: "
			     "%s", strerror(errno));
		close(fd);
		unlink(o->tmp);
		goto fail;
	}
	return o;
fail:
	if (o) {
		free(o->dir);
		free(o->tmp);
		free(o);
	}
	return NULL;
}

FILE *bs_dataset_file(bs_dataset_out *o)
{
	return o->f;
}

static void out_free(bs_dataset_out *o, int remove_tmp)
{
	if (o->f)
		fclose(o->f);
	if (remove_tmp)
		unlink(o->tmp);
	free(o->dir);
	free(o->tmp);
	free(o);
}

void bs_dataset_abort(bs_dataset_out *o)
{
	if (o)
		out_free(o, 1);
}

static void sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

int bs_dataset_commit(bs_dataset_out *o, const char *name, char *path_out,
		      size_t size, bs_error *err)
{
	size_t n;
	char *path;
	int rc = -1, e;

	if (!name || !name[0] || name[0] == '.' || strchr(name, '/')) {
		bs_error_set(err, o->dir, 0, 0, "dataset name '%s' is empty, "
			     "hidden or holds a '/'", name ? name : "");
		out_free(o, 1);
		return -1;
	}
	errno = 0;
	if (fflush(o->f) || ferror(o->f) || fsync(fileno(o->f)))
		e = errno ? errno : EIO;
	else
		e = 0;
	if (fclose(o->f) && !e)
		e = errno ? errno : EIO;
	o->f = NULL;
	if (e) {
		bs_error_set(err, o->tmp, 0, 0, "cannot write: %s",
			     strerror(e));
		out_free(o, 1);
		return -1;
	}
	n = strlen(o->dir) + strlen(name) + sizeof "/-9999.csv";
	path = malloc(n);
	if (!path) {
		bs_error_set(err, o->dir, 0, 0, "out of memory");
		out_free(o, 1);
		return -1;
	}
	for (int k = 1; k <= MAX_SUFFIX; k++) {
		if (k == 1)
			snprintf(path, n, "%s/%s.csv", o->dir, name);
		else
			snprintf(path, n, "%s/%s-%d.csv", o->dir, name, k);
		if (path_out && strlen(path) >= size) {
			bs_error_set(err, path, 0, 0, "path longer than the "
				     "%zu bytes given for it", size);
			break;
		}
		if (link(o->tmp, path) == 0) {
			if (path_out)
				snprintf(path_out, size, "%s", path);
			rc = 0;
			break;
		}
		if (errno != EEXIST) {
			bs_error_set(err, path, 0, 0, "cannot create: %s",
				     strerror(errno));
			break;
		}
		if (k == MAX_SUFFIX)
			bs_error_set(err, o->dir, 0, 0, "%s.csv to %s-%d.csv "
				     "all exist", name, name, MAX_SUFFIX);
	}
	free(path);
	unlink(o->tmp);
	if (rc == 0)
		sync_dir(o->dir);
	out_free(o, 0);
	return rc;
}
