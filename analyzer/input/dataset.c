/*
 * dataset.c - measured datasets: one tidy CSV file per probe run.
 *
 * Writing.  The metadata lines "# key: value" (key: letters, digits, _ . -;
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
 *
 * Reading, streamed one line at a time (f is not closed).  Every line
 * ends with a newline: a last line without one is reported as a
 * truncated file, since a cut can leave a number that still reads.  A
 * UTF-8 byte-order mark before line 1 is dropped.  Before the
 * header, "# key: value" lines are metadata (at most BS_META_MAX, keys
 * unique) and other '#' lines comments; after it every '#' line is a
 * comment; blank lines are skipped everywhere.  The header maps columns by
 * name, in any order; unknown columns are ignored, known ones may appear
 * once, and probe, name, width, op (the access kind: ld, st, ldsm.x4,
 * ...) and addresses are required.  Each row
 * has exactly the header's field count; quoted fields follow RFC 4180
 * within one line; numbers are plain decimals from 0 to 1e15 (empty =
 * NaN; nan, inf, hex, blanks, negative and larger values are refused: no
 * count, time or rate is negative, and 1e308 cycles would turn the fits
 * into inf and NaN); width, op and the 32 lane fields of addresses
 * are validated as a pattern-file line is; active_lanes, when given, must
 * match the addresses.  Every error names the file, the line and the
 * 1-based column of the offending field's first character.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bs_input.h"

#define TMP_NAME ".bankscope.tmp-XXXXXX"
#define MAX_SUFFIX 9999
#define HEADER_SHAPE "probe,name,width,op,...,addresses"

enum kind {
	K_PROBE, K_NAME, K_WIDTH, K_OP, K_ACTIVE, K_NOTE, K_ADDR,
	K_COUNT,        /* integer when integral */
	K_PER_INSN,     /* up to 4 decimals, trimmed */
	K_CYCLES,       /* 2 decimals */
	K_TP            /* 3 decimals */
};

#define NUM(n, k) { #n, k, offsetof(bs_row, n) }
/* In the order of BS_DATASET_COLUMNS. */
static const struct column {
	const char *name;
	enum kind kind;
	size_t off;
} columns[] = {
	{ "probe", K_PROBE, 0 },
	{ "name", K_NAME, 0 },
	{ "width", K_WIDTH, 0 },
	{ "op", K_OP, 0 },
	{ "active_lanes", K_ACTIVE, 0 },
	NUM(wavefronts_measured, K_PER_INSN),
	NUM(bank_conflicts_measured, K_PER_INSN),
	NUM(instructions, K_COUNT),
	NUM(wavefronts_predicted, K_COUNT),
	NUM(ideal_wavefronts_predicted, K_COUNT),
	NUM(bank_conflicts_predicted, K_COUNT),
	NUM(max_way_predicted, K_COUNT),
	NUM(packed_predicted, K_COUNT),
	NUM(cycles_per_access_min, K_CYCLES),
	NUM(cycles_per_access_median, K_CYCLES),
	NUM(latency_cycles_predicted, K_CYCLES),
	NUM(chain_length, K_COUNT),
	NUM(repetitions, K_COUNT),
	NUM(tp_warps_per_sm, K_COUNT),
	NUM(tp_bytes_per_clk_per_sm, K_TP),
	NUM(tp_wavefronts_per_clk_per_sm, K_TP),
	{ "note", K_NOTE, 0 },
	{ "addresses", K_ADDR, 0 },
};
#undef NUM
#define NCOLUMNS ((int)(sizeof columns / sizeof *columns))

static double *num_at(bs_row *row, size_t off)
{
	return (double *)(void *)((char *)row + off);
}

/*
 * Every number column holds a count, a time or a rate: none is negative,
 * and none comes near 1e15 (a kernel's warp instructions; 1e15 cycles
 * are days).  Larger values, 1e308 say, are not measurements, and they
 * turn the fits into inf and NaN.
 */
#define NUM_MAX 1e15

static int number_ok(double v)
{
	return isnan(v) || (v >= 0 && v <= NUM_MAX);
}

static double num_of(const bs_row *row, size_t off)
{
	return *(const double *)(const void *)((const char *)row + off);
}

void bs_row_init(bs_row *row)
{
	memset(row, 0, sizeof *row);
	for (int c = 0; c < NCOLUMNS; c++)
		if (columns[c].kind >= K_COUNT)
			*num_at(row, columns[c].off) = NAN;
}

int bs_row_predict(const bs_arch *p, bs_row *row, bs_error *err)
{
	bs_summary s;

	if (bs_predict(p, &row->access, &s, err) < 0)
		return -1;
	row->wavefronts_predicted = s.wavefronts;
	row->ideal_wavefronts_predicted = s.ideal_wavefronts;
	row->bank_conflicts_predicted = s.bank_conflicts;
	row->max_way_predicted = s.max_way;
	row->packed_predicted = s.packed;
	row->latency_cycles_predicted = s.latency_cycles;
	return 0;
}

/* ---- writing ------------------------------------------------------------ */

static int key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
}

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
			if (!key_char(*k))
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

static void format_number(char *buf, size_t size, double v, enum kind k)
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
	for (int c = 0; c < NCOLUMNS; c++)
		if (columns[c].kind >= K_COUNT &&
		    !number_ok(num_of(row, columns[c].off)))
			return bs_error_set(err, src, 0, 0, "column '%s': %g "
					    "is out of range (0 to 1e15)",
					    columns[c].name,
					    num_of(row, columns[c].off));
	return bs_access_check(&row->access, err);
}

int bs_dataset_write_row(FILE *f, const bs_row *row, bs_error *err)
{
	const bs_access *a = &row->access;
	char buf[64];

	if (writable(row, err) < 0)
		return -1;
	errno = 0;
	for (int c = 0; c < NCOLUMNS; c++) {
		const struct column *col = &columns[c];

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

static char *dup_string(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);

	if (d)
		memcpy(d, s, n);
	return d;
}

/* mkdir -p. */
static int make_dirs(const char *dir, bs_error *err)
{
	char *path = dup_string(dir);
	struct stat st;
	char *p;

	if (!path)
		return bs_error_set(err, dir, 0, 0, "out of memory");
	for (p = path + 1;; p++) {
		char c = *p;

		if (c != '/' && c != '\0')
			continue;
		*p = '\0';
		if (mkdir(path, 0777) < 0 && errno != EEXIST) {
			int e = errno;

			free(path);
			return bs_error_set(err, dir, 0, 0,
					    "cannot create directory: %s",
					    strerror(e));
		}
		*p = c;
		if (!c)
			break;
	}
	free(path);
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
	if (!o || !(o->dir = dup_string(dir)) || !(o->tmp = malloc(n))) {
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

/* ---- reading ------------------------------------------------------------ */

typedef struct {
	const char *text;   /* decoded, NUL-terminated */
	long col;           /* 1-based column of its first character */
} field;

struct bs_dataset {
	FILE *f;
	char *name;
	long line;
	char *buf;          /* the current line */
	size_t cap;
	int skip;           /* bs_read_line state */
	char *dec;          /* its decoded fields */
	size_t dcap;
	field *fld;
	int nfld, fcap;
	int ncols;          /* fields of the header */
	int *col;           /* header field -> index into columns, or -1 */
	bs_meta meta[BS_META_MAX];
	int nmeta;
};

#define FAIL(d, col, ...) \
	bs_error_set(err, (d)->name, (d)->line, col, __VA_ARGS__)

/*
 * One line into d->buf (bs_read_line, which drops a UTF-8 byte-order mark at
 * the start of the file); then a CR inside it is refused, and so is a
 * last line without its newline: a dataset is written by a program, line
 * by line, so a missing final newline means the file was cut short (a
 * full disk, an interrupted copy), and the cut may have left a number
 * that still reads.
 */
static int read_line(bs_dataset *d, bs_error *err)
{
	size_t n;
	char *cr;
	int rc = bs_read_line(d->f, d->name, &d->line, &d->skip, &d->buf,
			      &d->cap, &n, err);

	if (rc <= 0)
		return rc;
	if ((cr = memchr(d->buf, '\r', n)))
		return FAIL(d, (long)(cr - d->buf) + 1, "carriage return "
			    "inside a line");
	if (rc == 2)
		return FAIL(d, 0, "the last line has no newline: the file is "
			    "truncated");
	return 1;
}

static int blank(const char *s)
{
	return s[strspn(s, " \t")] == '\0';
}

/* Split d->buf into d->fld (RFC 4180 within one line). */
static int split(bs_dataset *d, bs_error *err)
{
	const char *line = d->buf, *p = line;
	size_t len = strlen(line);
	char *out;

	if (2 * len + 2 > d->dcap) {
		char *b = realloc(d->dec, 2 * len + 2);

		if (!b)
			return FAIL(d, 0, "out of memory");
		d->dec = b;
		d->dcap = 2 * len + 2;
	}
	out = d->dec;
	d->nfld = 0;
	for (;;) {
		long col = (long)(p - line) + 1;

		if (d->nfld == d->fcap) {
			int cap = d->fcap ? d->fcap * 2 : 32;
			field *f = realloc(d->fld, (size_t)cap * sizeof *f);

			if (!f)
				return FAIL(d, 0, "out of memory");
			d->fld = f;
			d->fcap = cap;
		}
		d->fld[d->nfld++] = (field){ out, col };
		if (*p == '"') {
			for (p++;; p++) {
				if (!*p)
					return FAIL(d, col, "unterminated "
						    "quoted field");
				if (*p == '"' && p[1] != '"')
					break;
				if (*p == '"')
					p++;
				*out++ = *p;
			}
			p++;
			if (*p && *p != ',')
				return FAIL(d, col, "text after the closing "
					    "quote of a quoted field");
		} else {
			for (; *p && *p != ','; p++) {
				if (*p == '"')
					return FAIL(d, col, "quote inside an "
						    "unquoted field (quote "
						    "the whole field)");
				*out++ = *p;
			}
		}
		*out++ = '\0';
		if (!*p)
			return 0;
		p++;
	}
}

/* "# key: value": 1 metadata, 0 a comment, -1 error. */
static int parse_meta(bs_dataset *d, bs_error *err)
{
	const char *p = d->buf + 1, *key, *val;
	size_t klen, vlen;

	p += strspn(p, " \t");
	key = p;
	while (key_char(*p))
		p++;
	klen = (size_t)(p - key);
	p += strspn(p, " \t");
	if (!klen || *p != ':')
		return 0;
	p++;
	val = p + strspn(p, " \t");
	vlen = strlen(val);
	while (vlen && (val[vlen - 1] == ' ' || val[vlen - 1] == '\t'))
		vlen--;
	if (klen >= sizeof d->meta[0].key)
		return FAIL(d, (long)(key - d->buf) + 1, "metadata key longer "
			    "than %zu bytes", sizeof d->meta[0].key - 1);
	if (vlen >= sizeof d->meta[0].value)
		return FAIL(d, (long)(val - d->buf) + 1, "metadata value "
			    "longer than %zu bytes",
			    sizeof d->meta[0].value - 1);
	for (int i = 0; i < d->nmeta; i++)
		if (strlen(d->meta[i].key) == klen &&
		    !memcmp(d->meta[i].key, key, klen))
			return FAIL(d, (long)(key - d->buf) + 1, "metadata key "
				    "'%s' given twice", d->meta[i].key);
	if (d->nmeta == BS_META_MAX)
		return FAIL(d, (long)(key - d->buf) + 1, "more than %d "
			    "metadata lines", BS_META_MAX);
	memcpy(d->meta[d->nmeta].key, key, klen);
	d->meta[d->nmeta].key[klen] = '\0';
	memcpy(d->meta[d->nmeta].value, val, vlen);
	d->meta[d->nmeta].value[vlen] = '\0';
	d->nmeta++;
	return 1;
}

static int find_column(const char *name)
{
	for (int c = 0; c < NCOLUMNS; c++)
		if (!strcmp(columns[c].name, name))
			return c;
	return -1;
}

static int parse_header(bs_dataset *d, bs_error *err)
{
	int seen[NCOLUMNS], known = 0;

	if (split(d, err) < 0)
		return -1;
	d->col = malloc((size_t)d->nfld * sizeof *d->col);
	if (!d->col)
		return FAIL(d, 0, "out of memory");
	d->ncols = d->nfld;
	memset(seen, 0, sizeof seen);
	for (int i = 0; i < d->nfld; i++) {
		int c = find_column(d->fld[i].text);

		d->col[i] = c;
		if (c < 0)
			continue;
		if (seen[c])
			return FAIL(d, d->fld[i].col, "column '%s' appears "
				    "twice in the header", columns[c].name);
		seen[c] = 1;
		known++;
	}
	if (!known)
		return FAIL(d, 1, "expected the header line (" HEADER_SHAPE
			    "), found no known column name");
	for (int c = 0; c < NCOLUMNS; c++) {
		enum kind k = columns[c].kind;

		if (!seen[c] && (k == K_PROBE || k == K_NAME || k == K_WIDTH ||
				 k == K_OP || k == K_ADDR))
			return FAIL(d, 0, "the header lacks the required "
				    "column '%s'", columns[c].name);
	}
	return 0;
}

bs_dataset *bs_dataset_open(FILE *f, const char *name, bs_error *err)
{
	bs_dataset *d = calloc(1, sizeof *d);
	int rc;

	if (!name)
		name = "<stdin>";
	if (!d || !(d->name = dup_string(name)) ||
	    !(d->buf = malloc(d->cap = 512))) {
		bs_error_set(err, name, 0, 0, "out of memory");
		bs_dataset_close(d);
		return NULL;
	}
	d->f = f;
	while ((rc = read_line(d, err)) > 0) {
		if (blank(d->buf))
			continue;
		if (d->buf[0] == '#') {
			if (parse_meta(d, err) < 0)
				break;
			continue;
		}
		if (parse_header(d, err) < 0)
			break;
		return d;
	}
	if (rc == 0)
		bs_error_set(err, name, 0, 0, "no header line (" HEADER_SHAPE
			     ")");
	bs_dataset_close(d);
	return NULL;
}

void bs_dataset_close(bs_dataset *d)
{
	if (!d)
		return;
	free(d->name);
	free(d->buf);
	free(d->dec);
	free(d->fld);
	free(d->col);
	free(d);
}

const char *bs_dataset_meta(const bs_dataset *d, const char *key)
{
	for (int i = 0; i < d->nmeta; i++)
		if (!strcmp(d->meta[i].key, key))
			return d->meta[i].value;
	return NULL;
}

const char *bs_dataset_arch(const bs_dataset *d, const char **key)
{
	const char *v = bs_dataset_meta(d, "arch");

	if (key)
		*key = v ? "arch" : "profile";
	return v ? v : bs_dataset_meta(d, "profile");
}

int bs_dataset_nmeta(const bs_dataset *d)
{
	return d->nmeta;
}

const bs_meta *bs_dataset_meta_at(const bs_dataset *d, int i)
{
	return i >= 0 && i < d->nmeta ? &d->meta[i] : NULL;
}

long bs_dataset_line(const bs_dataset *d)
{
	return d->line;
}

/* A decimal number (bs_parse_decimal, as arch files), or NaN for an
 * empty field; "-0" is as negative as "-1". */
static int parse_number(bs_dataset *d, const field *fl, const char *cname,
			double *out, bs_error *err)
{
	const char *s = fl->text;

	if (!*s) {
		*out = NAN;
		return 0;
	}
	if (bs_parse_decimal(s, strlen(s), out) == -1)
		return FAIL(d, fl->col, "column '%s': '%.40s' is not a number",
			    cname, s);
	if (!isfinite(*out) || signbit(*out) || !number_ok(*out))
		return FAIL(d, fl->col, "column '%s': %.40s is out of range "
			    "(0 to 1e15)", cname, s);
	return 0;
}

static int copy_string(bs_dataset *d, const field *fl, const char *cname,
		       char *dst, size_t size, int nonempty, bs_error *err)
{
	size_t n = strlen(fl->text);

	if (n >= size)
		return FAIL(d, fl->col, "column '%s': '%.20s...' is longer "
			    "than %zu bytes", cname, fl->text, size - 1);
	if (nonempty && !n)
		return FAIL(d, fl->col, "column '%s' is empty", cname);
	memcpy(dst, fl->text, n + 1);
	return 0;
}

/* The addresses field, read as the lanes of a pattern-file line. */
static int parse_addresses(bs_dataset *d, const field *fl, bs_row *row,
			   bs_error *err)
{
	bs_access *a = &row->access;
	size_t n = strlen(fl->text) + 32;
	char *syn = malloc(n);
	bs_access parsed;
	bs_error e;
	int rc;

	if (!syn)
		return FAIL(d, fl->col, "out of memory");
	snprintf(syn, n, "a %u %s %s", a->width, bs_kind_name(a->kind),
		 fl->text);
	rc = bs_parse_line(syn, d->name, d->line, &parsed, &e);
	free(syn);
	if (rc < 0)
		return FAIL(d, fl->col, "column 'addresses': %s", e.text);
	a->active = parsed.active;
	memcpy(a->addr, parsed.addr, sizeof a->addr);
	return 0;
}

static int parse_row(bs_dataset *d, bs_row *row, bs_error *err)
{
	const field *addr = NULL, *active = NULL;
	uint64_t v;

	bs_row_init(row);
	for (int i = 0; i < d->ncols; i++) {
		const field *fl = &d->fld[i];
		int c = d->col[i];
		const char *cname;

		if (c < 0)
			continue;
		cname = columns[c].name;
		switch (columns[c].kind) {
		case K_PROBE:
			if (copy_string(d, fl, cname, row->probe,
					sizeof row->probe, 1, err) < 0)
				return -1;
			break;
		case K_NAME:
			if (copy_string(d, fl, cname, row->access.name,
					sizeof row->access.name, 1, err) < 0)
				return -1;
			break;
		case K_NOTE:
			if (copy_string(d, fl, cname, row->note,
					sizeof row->note, 0, err) < 0)
				return -1;
			break;
		case K_WIDTH:
			if (strlen(fl->text) > 3 ||
			    strspn(fl->text, "0123456789") !=
				    strlen(fl->text) ||
			    bs_parse_u64(fl->text, 16, &v) < 0 ||
			    bs_width_index((unsigned)v) < 0)
				return FAIL(d, fl->col, "column 'width': "
					    "'%.20s' is not 1, 2, 4, 8 or 16 "
					    "bytes", fl->text);
			row->access.width = (unsigned)v;
			break;
		case K_OP:
			if (bs_kind_find(fl->text, &row->access.kind) < 0)
				return FAIL(d, fl->col, "column 'op': '%.20s' "
					    "is not an access kind (ld, st, ...; "
					    "bankscope archs --kinds)",
					    fl->text);
			break;
		case K_ADDR:
			addr = fl;
			break;
		case K_ACTIVE:
			active = fl;
			break;
		default:
			if (parse_number(d, fl, cname,
					 num_at(row, columns[c].off), err) < 0)
				return -1;
			break;
		}
	}
	if (parse_addresses(d, addr, row, err) < 0)
		return -1;
	if (active) {
		double n;
		int lanes = __builtin_popcount(row->access.active);

		if (parse_number(d, active, "active_lanes", &n, err) < 0)
			return -1;
		if (!isnan(n) && n != lanes)
			return FAIL(d, active->col, "column 'active_lanes': %s "
				    "does not match the %d active lanes of "
				    "the addresses", active->text, lanes);
	}
	return 0;
}

int bs_dataset_next(bs_dataset *d, bs_row *row, bs_error *err)
{
	int rc;

	while ((rc = read_line(d, err)) > 0) {
		if (blank(d->buf) || d->buf[0] == '#')
			continue;
		if (split(d, err) < 0)
			return -1;
		if (d->nfld < d->ncols)
			return FAIL(d, (long)strlen(d->buf) + 1, "%d fields, "
				    "the header has %d", d->nfld, d->ncols);
		if (d->nfld > d->ncols)
			return FAIL(d, d->fld[d->ncols].col, "%d fields, the "
				    "header has %d", d->nfld, d->ncols);
		if (parse_row(d, row, err) < 0)
			return -1;
		return 1;
	}
	return rc;
}
