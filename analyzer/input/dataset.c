/*
 * dataset.c - measured datasets: one tidy CSV file per probe run.  The
 * table of columns (BS_DATASET_COLUMNS), a row's predictions, and the
 * reader; writing is dataset_write.c, bankscope-dsmem's own layout
 * dsmem_csv.c.
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
 *
 * A header with target and offsets and no probe is bankscope-dsmem's
 * layout (dsmem_csv.c), read into the same rows.
 */
#include <stdlib.h>
#include <string.h>

#include "dataset.h"

#define HEADER_SHAPE "probe,name,width,op,...,addresses"

#define NUM(n, k) { #n, k, offsetof(bs_row, n) }
const ds_column dataset_columns[DS_NCOLUMNS] = {
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
	NUM(sectors_measured, K_PER_INSN),
	NUM(sectors_predicted, K_COUNT),
	{ "note", K_NOTE, 0 },
	{ "addresses", K_ADDR, 0 },
};
#undef NUM
_Static_assert(sizeof dataset_columns / sizeof *dataset_columns ==
	       DS_NCOLUMNS, "DS_NCOLUMNS is the count of the columns");

int dataset_key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
}

char *dataset_dup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);

	if (d)
		memcpy(d, s, n);
	return d;
}

void bs_row_init(bs_row *row)
{
	memset(row, 0, sizeof *row);
	for (int c = 0; c < DS_NCOLUMNS; c++)
		if (dataset_columns[c].kind >= K_COUNT)
			*dataset_num_at(row, dataset_columns[c].off) = NAN;
}

int bs_row_predict(const bs_arch *p, bs_row *row, bs_error *err)
{
	const bs_kind_info *k = bs_kind_get(row->access.kind);
	bs_summary s;

	if (bs_predict(p, &row->access, &s, err) < 0)
		return -1;
	row->wavefronts_predicted = s.wavefronts;
	row->ideal_wavefronts_predicted = s.ideal_wavefronts;
	row->bank_conflicts_predicted = s.bank_conflicts;
	row->max_way_predicted = s.max_way;
	row->packed_predicted = s.packed;
	row->latency_cycles_predicted = s.latency_cycles;
	/* a bank kind moves no sectors: its field stays empty */
	row->sectors_predicted = k && k->remote ? s.sectors : NAN;
	return 0;
}

/* ---- reading ------------------------------------------------------------ */

#define FAIL DS_FAIL

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
			ds_field *f = realloc(d->fld, (size_t)cap * sizeof *f);

			if (!f)
				return FAIL(d, 0, "out of memory");
			d->fld = f;
			d->fcap = cap;
		}
		d->fld[d->nfld++] = (ds_field){ out, col };
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
	while (dataset_key_char(*p))
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
	for (int i = 0; i < d->nmeta; i++) {
		if (strlen(d->meta[i].key) != klen ||
		    memcmp(d->meta[i].key, key, klen))
			continue;
		/* kept for the header to judge (struct bs_dataset) */
		if (!d->has_twice++)
			bs_error_set(&d->twice, d->name, d->line,
				     (long)(key - d->buf) + 1, "metadata key "
				     "'%s' given twice", d->meta[i].key);
		return 0;
	}
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
	for (int c = 0; c < DS_NCOLUMNS; c++)
		if (!strcmp(dataset_columns[c].name, name))
			return c;
	return -1;
}

/* The error of a metadata key given twice, which a dataset may not have. */
static int twice(bs_dataset *d, bs_error *err)
{
	if (err)
		*err = d->twice;
	return -1;
}

static int parse_header(bs_dataset *d, bs_error *err)
{
	int seen[DS_NCOLUMNS], known = 0, rc;

	if (split(d, err) < 0)
		return d->has_twice ? twice(d, err) : -1;
	if ((rc = dsmem_header(d, err)) != 0)
		return rc < 0 ? -1 : 0;
	if (d->has_twice)
		return twice(d, err);
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
				    "twice in the header",
				    dataset_columns[c].name);
		seen[c] = 1;
		known++;
	}
	if (!known)
		return FAIL(d, 1, "expected the header line (" HEADER_SHAPE
			    "), found no known column name");
	for (int c = 0; c < DS_NCOLUMNS; c++) {
		enum ds_kind k = dataset_columns[c].kind;

		if (!seen[c] && (k == K_PROBE || k == K_NAME || k == K_WIDTH ||
				 k == K_OP || k == K_ADDR))
			return FAIL(d, 0, "the header lacks the required "
				    "column '%s'", dataset_columns[c].name);
	}
	return 0;
}

bs_dataset *bs_dataset_open(FILE *f, const char *name, bs_error *err)
{
	bs_dataset *d = calloc(1, sizeof *d);
	int rc;

	if (!name)
		name = "<stdin>";
	if (!d || !(d->name = dataset_dup(name)) ||
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
		if (parse_header(d, err) < 0) {
			bs_dataset_close(d);
			return NULL;
		}
		return d;
	}
	/* the first error of the file: a key given twice comes before */
	if (d->has_twice)
		twice(d, err);
	else if (rc == 0)
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
	dsmem_free(d->dsmem);
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
int dataset_number(bs_dataset *d, const ds_field *fl, const char *cname,
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
	if (!isfinite(*out) || signbit(*out) || !dataset_number_ok(*out))
		return FAIL(d, fl->col, "column '%s': %.40s is out of range "
			    "(0 to 1e15)", cname, s);
	return 0;
}

int dataset_string(bs_dataset *d, const ds_field *fl, const char *cname,
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

int dataset_width(bs_dataset *d, const ds_field *fl, const char *cname,
		  unsigned *out, bs_error *err)
{
	const char *t = fl->text;
	uint64_t v;

	if (strlen(t) > 3 || strspn(t, "0123456789") != strlen(t) ||
	    bs_parse_u64(t, 16, &v) < 0 || bs_width_index((unsigned)v) < 0)
		return FAIL(d, fl->col, "column '%s': '%.20s' is not 1, 2, 4, "
			    "8 or 16 bytes", cname, t);
	*out = (unsigned)v;
	return 0;
}

/* The field read as the lanes of a pattern-file line. */
int dataset_addresses(bs_dataset *d, const ds_field *fl, const char *cname,
		      bs_row *row, bs_error *err)
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
		return FAIL(d, fl->col, "column '%s': %s", cname, e.text);
	a->active = parsed.active;
	memcpy(a->addr, parsed.addr, sizeof a->addr);
	return 0;
}

int dataset_active(bs_dataset *d, const ds_field *fl, const bs_row *row,
		   bs_error *err)
{
	int lanes = __builtin_popcount(row->access.active);
	double n;

	if (dataset_number(d, fl, "active_lanes", &n, err) < 0)
		return -1;
	if (!isnan(n) && n != lanes)
		return FAIL(d, fl->col, "column 'active_lanes': %s does not "
			    "match the %d active lanes of the addresses",
			    fl->text, lanes);
	return 0;
}

/* A string column into the row; -1 with err. */
static int row_string(bs_dataset *d, const ds_field *fl, enum ds_kind k,
		      bs_row *row, bs_error *err)
{
	if (k == K_PROBE)
		return dataset_string(d, fl, "probe", row->probe,
				      sizeof row->probe, 1, err);
	if (k == K_NAME)
		return dataset_string(d, fl, "name", row->access.name,
				      sizeof row->access.name, 1, err);
	return dataset_string(d, fl, "note", row->note, sizeof row->note, 0,
			      err);
}

static int parse_row(bs_dataset *d, bs_row *row, bs_error *err)
{
	const ds_field *addr = NULL, *active = NULL, *sectors = NULL;

	bs_row_init(row);
	for (int i = 0; i < d->ncols; i++) {
		const ds_field *fl = &d->fld[i];
		const ds_column *col;
		int rc = 0;

		if (d->col[i] < 0)
			continue;
		col = &dataset_columns[d->col[i]];
		switch (col->kind) {
		case K_PROBE:
		case K_NAME:
		case K_NOTE:
			rc = row_string(d, fl, col->kind, row, err);
			break;
		case K_WIDTH:
			rc = dataset_width(d, fl, "width", &row->access.width,
					   err);
			break;
		case K_OP:
			if (bs_kind_find(fl->text, &row->access.kind) < 0)
				return FAIL(d, fl->col, "column 'op': '%.20s' "
					    "is not an access kind (ld, st, "
					    "...; bankscope archs --kinds)",
					    fl->text);
			break;
		case K_ADDR:
			addr = fl;
			break;
		case K_ACTIVE:
			active = fl;
			break;
		default:
			rc = dataset_number(d, fl, col->name,
					    dataset_num_at(row, col->off), err);
			if (!strcmp(col->name, "sectors_measured"))
				sectors = fl;
			break;
		}
		if (rc < 0)
			return -1;
	}
	/* Sectors are what a remote access costs; a bank kind has none. */
	if (sectors && !isnan(row->sectors_measured) &&
	    !bs_kind_get(row->access.kind)->remote)
		return FAIL(d, sectors->col, "column 'sectors_measured': a %s "
			    "row has no sectors to measure (only the "
			    "distributed shared memory kinds, dsmem.*, have)",
			    bs_kind_name(row->access.kind));
	if (dataset_addresses(d, addr, "addresses", row, err) < 0)
		return -1;
	return active ? dataset_active(d, active, row, err) : 0;
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
		if ((d->dsmem ? dsmem_row(d, row, err)
			      : parse_row(d, row, err)) < 0)
			return -1;
		return 1;
	}
	return rc;
}
