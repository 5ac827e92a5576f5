/*
 * check_dataset.c - measured datasets: writing, reading, committing, and
 * the bankscope check command that reads them.
 *
 * Rows are written and read back field by field; the exact text of the
 * number formats and the quoting is spelled out.  Every malformed file has
 * the exact line, column and message the reader must give.  The check
 * command runs as a program ($BANKSCOPE, set by make check) on the
 * fixtures in tests/cases/check/, whose rows are the sm_90 rules of
 * check_predict.c: 4-byte stride 1 is 1 wavefront, stride 2 is 2 with 1
 * conflict, stride 32 is 32 with 31; 8-byte stride 1 is 2 (two phases),
 * stride 2 is 4 with 2 conflicts; a 16-byte broadcast load packs into 2.
 */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bankscope.h"
#include "testutil.h"

#define ALL 0xffffffffu
#define NNUM 18

/* Lanes 2..31 of a 4-byte stride-1 access. */
#define TAIL2 "8 12 16 20 24 28 32 36 40 44 48 52 56 60 64 68 72 76 80 84 " \
	      "88 92 96 100 104 108 112 116 120 124"
#define S1 "0 4 " TAIL2                     /* 99 characters */
#define S1_31 "4 " TAIL2                    /* 31 lane fields */
/* S1 cut inside its last address: "... 120 12", still 32 aligned lanes */
#define S1_CUT "0 4 8 12 16 20 24 28 32 36 40 44 48 52 56 60 64 68 72 76 " \
	       "80 84 88 92 96 100 104 108 112 116 120 12"
#define MISALIGNED "0 2 " TAIL2
#define BADTOKEN "0 x " TAIL2
#define HALF8 "0 8 16 24 32 40 48 56 64 72 80 88 96 104 112 120 " \
	      "- - - - - - - - - - - - - - - -"
#define ZERO32 "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"
#define NONE32 "- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -"
#define A16 "aaaaaaaaaaaaaaaa"

/* The number columns of a row, in BS_DATASET_COLUMNS order (fields 5..22). */
static double *num(bs_row *r, int i)
{
	double *p[NNUM] = {
		&r->wavefronts_measured, &r->bank_conflicts_measured,
		&r->instructions, &r->wavefronts_predicted,
		&r->ideal_wavefronts_predicted, &r->bank_conflicts_predicted,
		&r->max_way_predicted, &r->packed_predicted,
		&r->cycles_per_access_min, &r->cycles_per_access_median,
		&r->latency_cycles_predicted, &r->chain_length,
		&r->repetitions, &r->tp_warps_per_sm,
		&r->tp_bytes_per_clk_per_sm, &r->tp_wavefronts_per_clk_per_sm,
		&r->sectors_measured, &r->sectors_predicted,
	};
	return p[i];
}

static void make_access(bs_access *a, unsigned width, bs_kind op,
			uint32_t active, unsigned stride)
{
	a->width = width;
	a->kind = op;
	a->active = active;
	for (unsigned l = 0; l < BS_LANES; l++)
		a->addr[l] = active >> l & 1 ? l * stride * width : 0;
}

/* A fresh row of probe, named name: every lane loads 4 bytes, stride 1. */
static void stride_row(bs_row *r, const char *probe, const char *name)
{
	bs_row_init(r);
	snprintf(r->probe, sizeof r->probe, "%s", probe);
	snprintf(r->access.name, sizeof r->access.name, "%s", name);
	make_access(&r->access, 4, BS_KIND_LD, ALL, 1);
}

/* A stream collecting what is written into *buf (free it after fclose). */
static FILE *capture(char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);

	ck_assert_ptr_nonnull(f);
	return f;
}

/* A stream reading the n bytes of s; *copy is freed after fclose. */
static FILE *text_file(const char *s, size_t n, char **copy)
{
	FILE *f;

	*copy = malloc(n + 1);
	ck_assert_ptr_nonnull(*copy);
	memcpy(*copy, s, n + 1);
	f = fmemopen(*copy, n, "r");
	ck_assert_ptr_nonnull(f);
	return f;
}

/* A text read as a dataset: the reader, its stream and the copy behind. */
typedef struct {
	char *copy;
	FILE *f;
	bs_dataset *d;
} text_set;

/* text (n bytes) opened as dataset name, which must open. */
static bs_dataset *open_text(text_set *t, const char *text, size_t n,
			     const char *name)
{
	bs_error err;

	t->f = text_file(text, n, &t->copy);
	t->d = bs_dataset_open(t->f, name, &err);
	ck_assert_msg(t->d != NULL, "%s", err.text);
	return t->d;
}

static void close_text(text_set *t)
{
	bs_dataset_close(t->d);
	fclose(t->f);
	free(t->copy);
}

/*
 * The 64 KiB line limit, as for pattern files: a comment line of exactly
 * 65536 bytes after the header is read (and skipped); one byte more is an
 * error at column 65537 of that line.
 */
START_TEST(test_line_limit)
{
	const size_t limit = 64 * 1024, head = strlen(BS_DATASET_COLUMNS) + 1;
	size_t n = head + limit + _i + 1;
	char *text = malloc(n + 1);
	text_set t;
	bs_dataset *d;
	bs_row row;
	bs_error err;

	ck_assert_ptr_nonnull(text);
	memcpy(text, BS_DATASET_COLUMNS "\n", head);
	memset(text + head, 'x', limit + _i);
	text[head] = '#';
	text[n - 1] = '\n';
	text[n] = '\0';
	d = open_text(&t, text, n, "long.csv");
	if (_i == 0) {
		ck_assert_int_eq(bs_dataset_next(d, &row, &err), 0);
	} else {
		ck_assert_int_eq(bs_dataset_next(d, &row, &err), -1);
		tu_error_is(&err, NULL, 2, (long)limit + 1,
			    "line longer than 65536 bytes");
	}
	close_text(&t);
	free(text);
}
END_TEST

/* ---- writing and reading back ----------------------------------------- */

typedef struct {
	const char *probe, *name, *note;
	unsigned width;
	const char *op;      /* the kind's name */
	uint32_t active;
	unsigned stride;
	double v[NNUM];
	const char *line;    /* exactly as written, without the newline */
} wrow;

#define NANS3 NAN, NAN, NAN
static const wrow wrows[] = {
	{ "stride", "f32_ld_s1", "", 4, "ld", ALL, 1,
	  { 1, 0, 64, 1, 1, 0, 1, 0, 32.89, 32.89, 32.89, 64, 9, NANS3, NAN,
	    NAN },
	  "stride,f32_ld_s1,4,ld,32,1,0,64,1,1,0,1,0,32.89,32.89,32.89,64,9,"
	  ",,,,,," S1 },
	{ "rand", "a,b \"q\"", "why, \"busy\"", 8, "dsmem.st", 0xffffu, 1,
	  { 2.5, 1.0312, 1e6, NANS3, NAN, NAN, 33, 33.5, NAN, NAN, NAN, 24,
	    128, 0.25, 8.5, 8 },
	  "rand,\"a,b \"\"q\"\"\",8,dsmem.st,16,2.5,1.0312,1000000,,,,,,33.00,"
	  "33.50,,,,24,128.000,0.250,8.5,8,\"why, \"\"busy\"\"\"," HALF8 },
	{ "#hash", "x", "", 16, "ld", ALL, 0,
	  { NANS3, NANS3, NANS3, NANS3, NANS3, NANS3 },
	  "\"#hash\",x,16,ld,32,,,,,,,,,,,,,,,,,,,," ZERO32 },
	{ "p", " lead", "trail ", 4, "ld", ALL, 1,
	  { NANS3, NANS3, NANS3, NANS3, NANS3, NANS3 },
	  "p,\" lead\",4,ld,32,,,,,,,,,,,,,,,,,,,\"trail \"," S1 },
	{ "p", "no lanes", "skipped: no lane active", 1, "ld", 0, 1,
	  { 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, NANS3, NAN, NAN },
	  "p,no lanes,1,ld,0,0,0,1,0,0,0,0,0,0.00,0.00,0.00,1,1,,,,,,"
	  "skipped: no lane active," NONE32 },
};

static void build_row(const wrow *w, bs_row *r)
{
	bs_kind k;

	bs_row_init(r);
	snprintf(r->probe, sizeof r->probe, "%s", w->probe);
	snprintf(r->access.name, sizeof r->access.name, "%s", w->name);
	snprintf(r->note, sizeof r->note, "%s", w->note);
	ck_assert_int_eq(bs_kind_find(w->op, &k), 0);
	make_access(&r->access, w->width, k, w->active, w->stride);
	for (int i = 0; i < NNUM; i++)
		*num(r, i) = w->v[i];
}

static void assert_same_row(bs_row *got, bs_row *want, int i)
{
	ck_assert_str_eq(got->probe, want->probe);
	ck_assert_str_eq(got->access.name, want->access.name);
	ck_assert_str_eq(got->note, want->note);
	ck_assert_uint_eq(got->access.width, want->access.width);
	ck_assert_int_eq(got->access.kind, want->access.kind);
	ck_assert_uint_eq(got->access.active, want->access.active);
	for (unsigned l = 0; l < BS_LANES; l++)
		if (want->access.active >> l & 1)
			ck_assert_uint_eq(got->access.addr[l],
					  want->access.addr[l]);
	for (int k = 0; k < NNUM; k++) {
		double g = *num(got, k), w = *num(want, k);

		ck_assert_msg(isnan(w) ? isnan(g) : g == w,
			      "row %d, number column %d: read %.17g, wrote "
			      "%.17g", i, k, g, w);
	}
}

START_TEST(test_write_read_rows)
{
	static const bs_meta meta[] = { { "gpu", "NVIDIA H100 80GB HBM3" },
					{ "profile", "sm_90" } };
	const int n = (int)(sizeof wrows / sizeof *wrows);
	char *buf, *copy, *line, *save;
	size_t len;
	FILE *f;
	text_set t;
	bs_dataset *d;
	bs_row want, got;
	bs_error err;
	int i;

	f = capture(&buf, &len);
	ck_assert_int_eq(bs_dataset_write_header(f, meta, 2, &err), 0);
	for (i = 0; i < n; i++) {
		build_row(&wrows[i], &want);
		ck_assert_int_eq(bs_dataset_write_row(f, &want, &err), 0);
	}
	fclose(f);

	copy = malloc(len + 1);
	memcpy(copy, buf, len + 1);
	line = strtok_r(copy, "\n", &save);
	ck_assert_str_eq(line, "# gpu: NVIDIA H100 80GB HBM3");
	ck_assert_str_eq(strtok_r(NULL, "\n", &save), "# profile: sm_90");
	ck_assert_str_eq(strtok_r(NULL, "\n", &save), BS_DATASET_COLUMNS);
	for (i = 0; i < n; i++)
		ck_assert_str_eq(strtok_r(NULL, "\n", &save), wrows[i].line);
	ck_assert_ptr_null(strtok_r(NULL, "\n", &save));
	free(copy);

	d = open_text(&t, buf, len, "rows.csv");
	ck_assert_int_eq(bs_dataset_nmeta(d), 2);
	ck_assert_str_eq(bs_dataset_meta(d, "profile"), "sm_90");
	for (i = 0; i < n; i++) {
		ck_assert_int_eq(bs_dataset_next(d, &got, &err), 1);
		ck_assert_int_eq(bs_dataset_line(d), 4 + i);
		build_row(&wrows[i], &want);
		assert_same_row(&got, &want, i);
	}
	ck_assert_int_eq(bs_dataset_next(d, &got, &err), 0);
	close_text(&t);
	free(buf);
}
END_TEST

typedef struct {
	int column;          /* index into the number columns */
	double v;
	const char *text;
} fmt_case;

static const fmt_case fmts[] = {
	{ 0, 2, "2" }, { 0, 2.5, "2.5" }, { 0, 1.03125, "1.0312" },
	{ 0, 1.00004, "1" }, { 0, 1.0 / 3, "0.3333" }, { 0, 0.00001, "0" },
	{ 2, 1e15, "1000000000000000" },
	{ 1, 31, "31" }, { 1, NAN, "" },
	{ 2, 64, "64" }, { 2, 123456789, "123456789" }, { 2, 64.5, "64.5" },
	{ 7, 1, "1" }, { 7, -0.0, "0" },
	{ 8, 32.891, "32.89" }, { 9, 33, "33.00" }, { 10, 94.886, "94.89" },
	{ 11, 64, "64" }, { 12, 1001, "1001" }, { 13, 32, "32" },
	{ 14, 63.9999, "64.000" }, { 15, 0.0626, "0.063" }, { 15, 1, "1.000" },
	{ 16, 8, "8" }, { 16, 2.03125, "2.0312" }, { 17, 16, "16" },
	{ 17, NAN, "" },
};

START_TEST(test_number_format)
{
	const fmt_case *c = &fmts[_i];
	char *buf, *p;
	size_t len;
	FILE *f;
	bs_row r;
	int field;

	stride_row(&r, "p", "n");
	*num(&r, c->column) = c->v;
	f = capture(&buf, &len);
	ck_assert_int_eq(bs_dataset_write_row(f, &r, NULL), 0);
	fclose(f);
	p = buf;
	for (field = 0; field < 5 + c->column; field++)
		p = strchr(p, ',') + 1;
	*strchr(p, ',') = '\0';
	ck_assert_str_eq(p, c->text);
	free(buf);
}
END_TEST

/* Rows the reader could not take back are refused, nothing written. */
static const char *const refused_why[][2] = {
	{ "row", "empty name" },
	{ "n", "empty probe" },
	{ "n", "note holds a line break" },
	{ "cr\r", "name holds a line break" },
	{ "n", "lane 3: address 2 is not aligned to the 4-byte width" },
	{ "n", "width 3 is not 1, 2, 4, 8 or 16 bytes" },
	{ "n", "column 'cycles_per_access_median': inf is out of range (0 to "
	  "1e15)" },
	{ "n", "column 'wavefronts_measured': -1 is out of range (0 to 1e15)" },
	{ "n", "column 'cycles_per_access_min': 1e+308 is out of range (0 to "
	  "1e15)" },
	{ "row", "probe not terminated" },
};

START_TEST(test_write_refused)
{
	char *buf;
	size_t len;
	FILE *f;
	bs_row r;
	bs_error err;

	stride_row(&r, "p", "n");
	switch (_i) {
	case 0: r.access.name[0] = '\0'; break;
	case 1: r.probe[0] = '\0'; break;
	case 2: snprintf(r.note, sizeof r.note, "two\nlines"); break;
	case 3: snprintf(r.access.name, sizeof r.access.name, "cr\r"); break;
	case 4: r.access.addr[3] = 2; break;
	case 5: r.access.width = 3; break;
	case 6: r.cycles_per_access_median = INFINITY; break;
	case 7: r.wavefronts_measured = -1; break;
	case 8: r.cycles_per_access_min = 1e308; break;
	case 9: memset(r.probe, 'p', sizeof r.probe); break;
	}
	f = capture(&buf, &len);
	memset(&err, 0, sizeof err);
	ck_assert_int_eq(bs_dataset_write_row(f, &r, &err), -1);
	ck_assert_int_eq(bs_dataset_write_row(f, &r, NULL), -1);
	fclose(f);
	ck_assert_uint_eq(len, 0);
	ck_assert_str_eq(err.source, refused_why[_i][0]);
	ck_assert_str_eq(err.text, refused_why[_i][1]);
	free(buf);
}
END_TEST

START_TEST(test_write_header_refused)
{
	static bs_meta many[BS_META_MAX + 1];
	static const struct {
		bs_meta meta;
		const char *text;
	} bad_meta[] = {
		{ { "bad key", "v" }, "key 'bad key' holds a character other "
		  "than letters, digits, '_', '.' and '-'" },
		{ { "k", "two\nlines" }, "the value of 'k' holds a line break" },
		{ { "replay", "/tmp/a\rb" }, "the value of 'replay' holds a "
		  "line break" },
		{ { "", "v" }, "line 0: empty key" },
	};
	char *buf;
	size_t len;
	FILE *f;
	bs_error err;

	for (int i = 0; i <= BS_META_MAX; i++)
		snprintf(many[i].key, sizeof many[i].key, "k%d", i);
	f = capture(&buf, &len);
	for (size_t i = 0; i < sizeof bad_meta / sizeof *bad_meta; i++) {
		memset(&err, 0, sizeof err);
		ck_assert_int_eq(bs_dataset_write_header(f, &bad_meta[i].meta,
							 1, &err), -1);
		ck_assert_str_eq(err.source, "metadata");
		ck_assert_str_eq(err.text, bad_meta[i].text);
	}
	ck_assert_int_eq(bs_dataset_write_header(f, many, BS_META_MAX + 1,
						 &err), -1);
	ck_assert_str_eq(err.text, "33 lines, not 0 to 32");
	ck_assert_int_eq(bs_dataset_write_header(f, many, -1, NULL), -1);
	memset(many[1].key, 'k', sizeof many[1].key);
	ck_assert_int_eq(bs_dataset_write_header(f, many, 2, &err), -1);
	ck_assert_str_eq(err.text, "line 1: key or value not terminated");
	fclose(f);
	ck_assert_uint_eq(len, 0);
	free(buf);
}
END_TEST

/*
 * Writes that fail (/dev/full, unbuffered so the first byte fails) are
 * errors with the reason, for the header and for a row.
 */
START_TEST(test_write_error)
{
	static const bs_meta meta[] = { { "gpu", "x" } };
	FILE *f = fopen("/dev/full", "w");
	bs_error err;
	bs_row r;

	ck_assert_ptr_nonnull(f);
	setvbuf(f, NULL, _IONBF, 0);
	memset(&err, 0, sizeof err);
	ck_assert_int_eq(bs_dataset_write_header(f, meta, 1, &err), -1);
	ck_assert_str_eq(err.source, "dataset");
	ck_assert_str_eq(err.text, "write error: No space left on device");
	clearerr(f);
	stride_row(&r, "p", "n");
	memset(&err, 0, sizeof err);
	ck_assert_int_eq(bs_dataset_write_row(f, &r, &err), -1);
	ck_assert_str_eq(err.text, "write error: No space left on device");
	fclose(f);
}
END_TEST

/* The one CSV quoting rule, for datasets and the command's CSV alike. */
static const char *const csv_cases[][2] = {
	{ "plain", "plain" }, { "", "" }, { "a b\tc", "a b\tc" },
	{ "a,b", "\"a,b\"" }, { "say \"hi\"", "\"say \"\"hi\"\"\"" },
	{ "two\nlines", "\"two\nlines\"" }, { "cr\r", "\"cr\r\"" },
	{ "#hash", "\"#hash\"" }, { "a#b", "a#b" }, { " lead", "\" lead\"" },
	{ "trail\t", "\"trail\t\"" }, { "\"", "\"\"\"\"" },
};

START_TEST(test_csv_field)
{
	char *buf;
	size_t len;
	FILE *f = capture(&buf, &len);

	bs_csv_field(f, csv_cases[_i][0]);
	fclose(f);
	ck_assert_str_eq(buf, csv_cases[_i][1]);
	free(buf);
}
END_TEST

START_TEST(test_row_init_predict)
{
	bs_row r;
	bs_summary s;
	bs_error err;

	bs_row_init(&r);
	for (int i = 0; i < NNUM; i++)
		ck_assert(isnan(*num(&r, i)));
	ck_assert_str_eq(r.probe, "");
	ck_assert_str_eq(r.note, "");
	/* 8-byte broadcast load: pairwise uniform, packed into one */
	make_access(&r.access, 8, BS_KIND_LD, ALL, 0);
	ck_assert_int_eq(bs_row_predict(bs_arch_default(), &r, &err), 0);
	ck_assert(r.wavefronts_predicted == 1);
	ck_assert(r.ideal_wavefronts_predicted == 1);
	ck_assert(r.bank_conflicts_predicted == 0);
	ck_assert(r.max_way_predicted == 1);
	ck_assert(r.packed_predicted == 1);
	ck_assert_int_eq(bs_predict(bs_arch_default(), &r.access, &s, NULL),
			 0);
	ck_assert(r.latency_cycles_predicted == s.latency_cycles);
	ck_assert(r.latency_cycles_predicted > 0);
	ck_assert(isnan(r.wavefronts_measured));
	/* 4-byte stride 2 store: 2, 1 conflict, latency not modeled */
	make_access(&r.access, 4, BS_KIND_ST, ALL, 2);
	ck_assert_int_eq(bs_row_predict(bs_arch_default(), &r, &err), 0);
	ck_assert(r.wavefronts_predicted == 2);
	ck_assert(r.bank_conflicts_predicted == 1);
	ck_assert(r.packed_predicted == 0);
	ck_assert(isnan(r.latency_cycles_predicted));
	/* a bank kind moves no sectors: the field stays empty */
	ck_assert(isnan(r.sectors_predicted));
	/* a remote 8-byte stride-1 load: 256 bytes, 8 sectors, 2 lines */
	ck_assert_int_eq(bs_kind_find("dsmem.ld", &r.access.kind), 0);
	make_access(&r.access, 8, r.access.kind, ALL, 1);
	ck_assert_int_eq(bs_row_predict(bs_arch_default(), &r, &err), 0);
	ck_assert(r.sectors_predicted == 8);
	ck_assert(r.wavefronts_predicted == 1);
	make_access(&r.access, 4, BS_KIND_ST, ALL, 2);
	r.access.addr[1] = 6;
	ck_assert_int_eq(bs_row_predict(bs_arch_default(), &r, &err), -1);
	ck_assert_str_eq(err.text, "lane 1: address 6 is not aligned to the "
			 "4-byte width");
}
END_TEST

/* ---- reading what people and other tools write ------------------------ */

START_TEST(test_metadata)
{
	static const char text[] =
		"\xef\xbb\xbf# gpu: NVIDIA H100 80GB HBM3\r\n"
		"# Measured on the H100 (sm_90, 132 SMs) by hand\r\n"
		"#profile:sm_90\r\n"
		"\r\n"
		"#   sm_clock_mhz_measured :  1980   \r\n"
		"# empty:\r\n"
		"probe,name,width,op,addresses\r\n"
		"# key: after the header, a comment\r\n";
	text_set t;
	bs_dataset *d = open_text(&t, text, sizeof text - 1, "meta.csv");
	bs_error err;
	bs_row r;

	ck_assert_int_eq(bs_dataset_nmeta(d), 4);
	ck_assert_str_eq(bs_dataset_meta_at(d, 0)->key, "gpu");
	ck_assert_str_eq(bs_dataset_meta_at(d, 0)->value,
			 "NVIDIA H100 80GB HBM3");
	ck_assert_str_eq(bs_dataset_meta_at(d, 1)->key, "profile");
	ck_assert_str_eq(bs_dataset_meta(d, "profile"), "sm_90");
	ck_assert_str_eq(bs_dataset_meta(d, "sm_clock_mhz_measured"), "1980");
	ck_assert_str_eq(bs_dataset_meta(d, "empty"), "");
	ck_assert_ptr_null(bs_dataset_meta(d, "key"));
	ck_assert_ptr_null(bs_dataset_meta(d, "Measured"));
	ck_assert_ptr_null(bs_dataset_meta_at(d, 4));
	ck_assert_ptr_null(bs_dataset_meta_at(d, -1));
	ck_assert_int_eq(bs_dataset_line(d), 7);
	ck_assert_int_eq(bs_dataset_next(d, &r, &err), 0);
	close_text(&t);
}
END_TEST

/* Columns in any order, unknown ones ignored, absent ones NaN. */
START_TEST(test_column_order)
{
	static const char text[] =
		"addresses,extra,op,wavefronts_measured,width,name,probe,note,"
		"cycles_per_access_median\n"
		S1 ",ignored,st,2,4,\"f32, st\",stride,,40.5\n"
		"\n"
		"# a comment between rows\n"
		HALF8 ",,ld,,8,f64,stride,\"late, \"\"x\"\"\",\n";
	text_set t;
	bs_dataset *d = open_text(&t, text, sizeof text - 1, "order.csv");
	bs_error err;
	bs_row r;

	ck_assert_int_eq(bs_dataset_nmeta(d), 0);
	ck_assert_int_eq(bs_dataset_next(d, &r, &err), 1);
	ck_assert_int_eq(bs_dataset_line(d), 2);
	ck_assert_str_eq(r.probe, "stride");
	ck_assert_str_eq(r.access.name, "f32, st");
	ck_assert_uint_eq(r.access.width, 4);
	ck_assert_int_eq(r.access.kind, BS_KIND_ST);
	ck_assert_uint_eq(r.access.active, ALL);
	ck_assert_uint_eq(r.access.addr[31], 124);
	ck_assert(r.wavefronts_measured == 2);
	ck_assert(r.cycles_per_access_median == 40.5);
	ck_assert(isnan(r.bank_conflicts_measured));
	ck_assert(isnan(r.wavefronts_predicted));
	ck_assert_str_eq(r.note, "");
	ck_assert_int_eq(bs_dataset_next(d, &r, &err), 1);
	ck_assert_int_eq(bs_dataset_line(d), 5);
	ck_assert_str_eq(r.access.name, "f64");
	ck_assert_uint_eq(r.access.width, 8);
	ck_assert_int_eq(r.access.kind, BS_KIND_LD);
	ck_assert_uint_eq(r.access.active, 0xffffu);
	ck_assert_uint_eq(r.access.addr[15], 120);
	ck_assert(isnan(r.wavefronts_measured));
	ck_assert(isnan(r.cycles_per_access_median));
	ck_assert_str_eq(r.note, "late, \"x\"");
	ck_assert_int_eq(bs_dataset_next(d, &r, &err), 0);
	close_text(&t);
}
END_TEST

typedef struct {
	const char *what;
	const char *text;
	long line, column;
	const char *message;
} bad_file;

#define H6 "probe,name,width,op,wavefronts_measured,addresses\n"
#define NOT_A_NUMBER(t) \
	{ "number " t, H6 "p,n,4,ld," t "," S1 "\n", 2, 10, \
	  "column 'wavefronts_measured': '" t "' is not a number" }

static const bad_file bad[] = {
	{ "missing header", "# gpu: x\np,n,4,ld,1," S1 "\n", 2, 1,
	  "expected the header line (probe,name,width,op,...,addresses), "
	  "found no known column name" },
	{ "no header at all", "# gpu: x\n\n# comment\n", 0, 0,
	  "no header line (probe,name,width,op,...,addresses)" },
	{ "missing required column",
	  "probe,name,width,wavefronts_measured,addresses\n", 1, 0,
	  "the header lacks the required column 'op'" },
	{ "missing addresses", "probe,name,width,op\n", 1, 0,
	  "the header lacks the required column 'addresses'" },
	{ "column twice", "probe,name,width,op,width,addresses\n", 1, 21,
	  "column 'width' appears twice in the header" },
	{ "metadata key twice", "# profile: sm_90\n# profile: textbook\n" H6,
	  2, 3, "metadata key 'profile' given twice" },
	{ "too few fields", H6 "p,n,4,ld,1\n", 2, 11,
	  "5 fields, the header has 6" },
	{ "too many fields", H6 "p,n,4,ld,1," S1 ",x\n", 2, 112,
	  "7 fields, the header has 6" },
	NOT_A_NUMBER("abc"), NOT_A_NUMBER("nan"), NOT_A_NUMBER("inf"),
	NOT_A_NUMBER(" 2"), NOT_A_NUMBER("0x10"), NOT_A_NUMBER("2.5.1"),
	NOT_A_NUMBER("-"), NOT_A_NUMBER("1e"),
	{ "number out of range", H6 "p,n,4,ld,1e999," S1 "\n", 2, 10,
	  "column 'wavefronts_measured': 1e999 is out of range (0 to 1e15)" },
	{ "finite but impossible", H6 "p,n,4,ld,1e308," S1 "\n", 2, 10,
	  "column 'wavefronts_measured': 1e308 is out of range (0 to 1e15)" },
	{ "just above the bound", H6 "p,n,4,ld,1000000000000001," S1 "\n", 2,
	  10, "column 'wavefronts_measured': 1000000000000001 is out of range "
	  "(0 to 1e15)" },
	{ "negative wavefronts", H6 "p,n,4,ld,-1," S1 "\n", 2, 10,
	  "column 'wavefronts_measured': -1 is out of range (0 to 1e15)" },
	{ "negative zero", H6 "p,n,4,ld,-0," S1 "\n", 2, 10,
	  "column 'wavefronts_measured': -0 is out of range (0 to 1e15)" },
	{ "negative zero cycles",
	  "probe,name,width,op,addresses,cycles_per_access_median\n"
	  "p,n,4,ld," S1 ",-0.0\n", 2, 110,
	  "column 'cycles_per_access_median': -0.0 is out of range (0 to "
	  "1e15)" },
	{ "negative cycles, a later column",
	  "probe,name,width,op,addresses,cycles_per_access_median\n"
	  "p,n,4,ld," S1 ",-0.5\n", 2, 110,
	  "column 'cycles_per_access_median': -0.5 is out of range (0 to "
	  "1e15)" },
	{ "negative active_lanes",
	  "probe,name,width,op,active_lanes,addresses\np,n,4,ld,-32," S1 "\n",
	  2, 10, "column 'active_lanes': -32 is out of range (0 to 1e15)" },
	{ "bad width", H6 "p,n,3,ld,1," S1 "\n", 2, 5,
	  "column 'width': '3' is not 1, 2, 4, 8 or 16 bytes" },
	{ "width in hex", H6 "p,n,0x8,ld,1," S1 "\n", 2, 5,
	  "column 'width': '0x8' is not 1, 2, 4, 8 or 16 bytes" },
	{ "empty width", H6 "p,n,,ld,1," S1 "\n", 2, 5,
	  "column 'width': '' is not 1, 2, 4, 8 or 16 bytes" },
	{ "bad op", H6 "p,n,4,ldx,1," S1 "\n", 2, 7,
	  "column 'op': 'ldx' is not an access kind (ld, st, ...; bankscope "
	  "archs --kinds)" },
	{ "31 lane addresses", H6 "p,n,4,ld,1," S1_31 "\n", 2, 12,
	  "column 'addresses': 31 lane fields, expected 32" },
	{ "misaligned address", H6 "p,n,4,ld,1," MISALIGNED "\n", 2, 12,
	  "column 'addresses': lane 1: address 2 is not aligned to the "
	  "4-byte width" },
	{ "bad address", H6 "p,n,4,ld,1," BADTOKEN "\n", 2, 12,
	  "column 'addresses': lane 1: 'x' is not an address (decimal, 0x "
	  "hex, or - for inactive)" },
	{ "name too long", H6 "p," A16 A16 A16 A16 ",4,ld,1," S1 "\n", 2, 3,
	  "column 'name': '" A16 "aaaa...' is longer than 63 bytes" },
	{ "probe too long", H6 A16 A16 ",n,4,ld,1," S1 "\n", 2, 1,
	  "column 'probe': '" A16 "aaaa...' is longer than 31 bytes" },
	{ "empty name", H6 "p,,4,ld,1," S1 "\n", 2, 3,
	  "column 'name' is empty" },
	{ "unterminated quote", H6 "p,\"n,4,ld,1," S1 "\n", 2, 3,
	  "unterminated quoted field" },
	{ "text after a quote", H6 "p,\"n\"x,4,ld,1," S1 "\n", 2, 3,
	  "text after the closing quote of a quoted field" },
	{ "quote in a field", H6 "p,n\"x,4,ld,1," S1 "\n", 2, 3,
	  "quote inside an unquoted field (quote the whole field)" },
	{ "later line, after comments", "# a: b\n" H6 "p,n,4,ld,1," S1
	  "\n\n# comment\n   \np,n,4,ld,1,\n", 7, 12,
	  "column 'addresses': 0 lane fields, expected 32" },
	{ "carriage return", H6 "p,n\r,4,ld,1," S1 "\r\n", 2, 4,
	  "carriage return inside a line" },
	{ "last line without its newline", H6 "p,n,4,ld,1," S1, 2, 0,
	  "the last line has no newline: the file is truncated" },
	{ "cut inside the last address, which still reads",
	  H6 "p,n,4,ld,1," S1 "\np,n,4,ld,1," S1_CUT, 3, 0,
	  "the last line has no newline: the file is truncated" },
	{ "cut inside the header", "# gpu: x\nprobe,name,width,op,addr", 2, 0,
	  "the last line has no newline: the file is truncated" },
	{ "cut after a CR", H6 "p,n,4,ld,1," S1 "\r", 2, 0,
	  "the last line has no newline: the file is truncated" },
	{ "active lanes do not match",
	  "probe,name,width,op,active_lanes,addresses\np,n,4,ld,31," S1 "\n",
	  2, 10, "column 'active_lanes': 31 does not match the 32 active "
	  "lanes of the addresses" },
};

START_TEST(test_bad_file)
{
	const bad_file *b = &bad[_i];
	char *copy;
	FILE *f = text_file(b->text, strlen(b->text), &copy);
	bs_error err;
	bs_dataset *d;
	bs_row r;
	int rc = -1;

	memset(&err, 0, sizeof err);
	d = bs_dataset_open(f, "bad.csv", &err);
	if (d) {
		while ((rc = bs_dataset_next(d, &r, &err)) > 0)
			;
		bs_dataset_close(d);
	}
	fclose(f);
	free(copy);
	ck_assert_msg(rc == -1, "%s: no error", b->what);
	ck_assert_str_eq(err.source, "bad.csv");
	ck_assert_str_eq(err.text, b->message);
	ck_assert_msg(err.line == b->line && err.column == b->column,
		      "%s: at %ld:%ld, expected %ld:%ld", b->what, err.line,
		      err.column, b->line, b->column);
}
END_TEST

/* The numbers profile files take, datasets take (bs_parse_decimal): a
 * subnormal, a long decimal, a '+' and a bare fraction. */
START_TEST(test_numbers)
{
	static const char text[] =
		"probe,name,width,op,addresses,cycles_per_access_min,"
		"cycles_per_access_median,wavefronts_measured,"
		"tp_bytes_per_clk_per_sm\n"
		"p,n,4,ld," S1 ",1e-320,"
		"0.10000000000000000000000000000000000000000000000000001,+2,.5\n";
	text_set t;
	bs_dataset *d = open_text(&t, text, strlen(text), "n.csv");
	bs_error err;
	bs_row r;

	ck_assert_msg(bs_dataset_next(d, &r, &err) == 1, "%s", err.text);
	ck_assert(r.cycles_per_access_min == 1e-320);
	ck_assert(r.cycles_per_access_median == 0.1);
	ck_assert(r.wavefronts_measured == 2);
	ck_assert(r.tp_bytes_per_clk_per_sm == 0.5);
	close_text(&t);
}
END_TEST

START_TEST(test_nul_byte)
{
	static const char text[] = H6 "p,n\0,4";
	text_set t;
	bs_dataset *d = open_text(&t, text, sizeof text - 1, "nul.csv");
	bs_error err;
	bs_row r;

	ck_assert_int_eq(bs_dataset_next(d, &r, &err), -1);
	tu_error_is(&err, NULL, 2, 4, "NUL byte in a text line");
	close_text(&t);
}
END_TEST

/* ---- committing files --------------------------------------------------- */

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void write_one(const char *dir, const char *row_name,
		      const char *name, char *path, size_t size)
{
	bs_error err;
	bs_dataset_out *o = bs_dataset_create(dir, &err);
	bs_row r;

	ck_assert_msg(o != NULL, "%s", err.text);
	stride_row(&r, "stride", row_name);
	ck_assert_int_eq(bs_dataset_write_header(bs_dataset_file(o), NULL, 0,
						 &err), 0);
	ck_assert_int_eq(bs_dataset_write_row(bs_dataset_file(o), &r, &err),
			 0);
	ck_assert_msg(bs_dataset_commit(o, name, path, size, &err) == 0, "%s",
		      err.text);
}

static void assert_first_row(const char *path, const char *row_name)
{
	FILE *f = fopen(path, "r");
	bs_error err;
	bs_dataset *d;
	bs_row r;

	ck_assert_msg(f != NULL, "cannot open %s", path);
	d = bs_dataset_open(f, path, &err);
	ck_assert_msg(d != NULL, "%s", err.text);
	ck_assert_int_eq(bs_dataset_next(d, &r, &err), 1);
	ck_assert_str_eq(r.access.name, row_name);
	ck_assert_int_eq(bs_dataset_next(d, &r, &err), 0);
	bs_dataset_close(d);
	fclose(f);
}

START_TEST(test_commit_never_overwrites)
{
	char top[] = "/tmp/bankscope-check-XXXXXX";
	char dir[64], path[3][128], want[128];
	bs_dataset_out *o;
	bs_error err;

	ck_assert_ptr_nonnull(mkdtemp(top));
	snprintf(dir, sizeof dir, "%s/data/h100", top);
	write_one(dir, "first", "stride", path[0], sizeof path[0]);
	write_one(dir, "second", "stride", path[1], sizeof path[1]);
	write_one(dir, "third", "stride", path[2], sizeof path[2]);
	snprintf(want, sizeof want, "%s/stride.csv", dir);
	ck_assert_str_eq(path[0], want);
	snprintf(want, sizeof want, "%s/stride-2.csv", dir);
	ck_assert_str_eq(path[1], want);
	snprintf(want, sizeof want, "%s/stride-3.csv", dir);
	ck_assert_str_eq(path[2], want);
	assert_first_row(path[0], "first");
	assert_first_row(path[1], "second");
	assert_first_row(path[2], "third");
	ck_assert_int_eq(count_entries(dir), 3);
	/* the mode of any new file, 0666 less the umask */
	{
		mode_t mask = umask(027);
		struct stat st;

		write_one(dir, "fourth", "stride", path[2], sizeof path[2]);
		umask(mask);
		ck_assert_int_eq(stat(path[2], &st), 0);
		ck_assert_uint_eq(st.st_mode & 07777, 0640);
		ck_assert_int_eq(unlink(path[2]), 0);
		snprintf(path[2], sizeof path[2], "%s/stride-3.csv", dir);
	}

	/* abort and a refused name leave nothing behind */
	o = bs_dataset_create(dir, &err);
	ck_assert_ptr_nonnull(o);
	fputs("partial", bs_dataset_file(o));
	ck_assert_int_eq(count_entries(dir), 4);
	bs_dataset_abort(o);
	ck_assert_int_eq(count_entries(dir), 3);
	o = bs_dataset_create(dir, &err);
	ck_assert_ptr_nonnull(o);
	ck_assert_int_eq(bs_dataset_commit(o, "a/b", NULL, 0, &err), -1);
	ck_assert_int_eq(count_entries(dir), 3);
	/* a path that does not fit path_out: refused before linking */
	o = bs_dataset_create(dir, &err);
	ck_assert_ptr_nonnull(o);
	ck_assert_int_eq(bs_dataset_commit(o, "stride", want, 8, &err), -1);
	ck_assert_int_eq(count_entries(dir), 3);

	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(unlink(path[i]), 0);
	ck_assert_int_eq(rmdir(dir), 0);
	snprintf(dir, sizeof dir, "%s/data", top);
	ck_assert_int_eq(rmdir(dir), 0);
	ck_assert_int_eq(rmdir(top), 0);
}
END_TEST

START_TEST(test_create_fails)
{
	bs_error err;

	ck_assert_ptr_null(bs_dataset_create("/dev/null/x", &err));
	ck_assert_str_eq(err.source, "/dev/null/x");
}
END_TEST

/* ---- the check command, run as a program -------------------------------- */

/*
 * The fixtures leave latency_cycles_predicted empty, and the latency
 * numbers the command prints are worked out here from the library, so that
 * recalibrating the sm_90 latency model leaves these tests standing.
 */
#define CASES "tests/cases/check/"

/* Up to 4 decimals, trailing zeros dropped, as check prints a value. */
static void trim4(char *buf, size_t size, double v)
{
	char *e;

	snprintf(buf, size, "%.4f", v);
	e = buf + strlen(buf);
	while (e[-1] == '0')
		*--e = '\0';
	if (e[-1] == '.')
		e[-1] = '\0';
}

/* The "latency model:" line for one dataset under sm_90. */
static void latency_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	bs_error err;
	bs_dataset *d;
	bs_row r;
	unsigned long n = 0;
	double max = 0;
	char where[160] = "";

	ck_assert_ptr_nonnull(f);
	d = bs_dataset_open(f, path, &err);
	ck_assert_ptr_nonnull(d);
	while (bs_dataset_next(d, &r, &err) > 0) {
		bs_summary s;
		double dev;

		if (r.note[0] || isnan(r.cycles_per_access_median))
			continue;
		ck_assert_int_eq(bs_predict(bs_arch_default(), &r.access,
					    &s, &err), 0);
		if (isnan(s.latency_cycles))
			continue;
		dev = fabs(r.cycles_per_access_median - s.latency_cycles);
		if (!n++ || dev > max) {
			max = dev;
			snprintf(where, sizeof where, "%s:%ld %s", path,
				 bs_dataset_line(d), r.access.name);
		}
	}
	bs_dataset_close(d);
	fclose(f);
	ck_assert_uint_gt(n, 0);
	snprintf(buf, size, "latency model: max deviation %.2f cycles over %lu "
		 "row%s (worst: %s)", max, n, n == 1 ? "" : "s", where);
}

/* The same as check --format json writes it: the "latency" member. */
static void latency_json(const char *path, char *buf, size_t size)
{
	char line[512], where[256], *w, *sp;
	double max;
	unsigned long n;

	latency_line(path, line, sizeof line);
	ck_assert_int_eq(sscanf(line, "latency model: max deviation %lf "
				"cycles over %lu", &max, &n), 2);
	w = strstr(line, "(worst: ");
	ck_assert_ptr_nonnull(w);
	snprintf(where, sizeof where, "%s", w + 8);
	where[strlen(where) - 1] = '\0';          /* the ')' */
	sp = strrchr(where, ' ');
	*sp = '\0';
	w = strrchr(where, ':');
	*w = '\0';
	snprintf(buf, size, "{\"rows\":%lu,\"max_deviation_cycles\":%.2f,"
		 "\"worst\":{\"file\":\"%s\",\"line\":%s,\"name\":\"%s\"}}",
		 n, max, where, w + 1, sp + 1);
}

/* sm_90's latency for f32_ld_s3 of disagree.csv: 4-byte stride 3. */
static void s3_latency(char *buf, size_t size)
{
	bs_access a;
	bs_summary s;

	make_access(&a, 4, BS_KIND_LD, ALL, 3);
	ck_assert_int_eq(bs_predict(bs_arch_default(), &a, &s, NULL), 0);
	trim4(buf, size, s.latency_cycles);
}

typedef enum { FIXED, PREFIX, AGREE_LAT, DISAGREE_LAT, S3_LAT,
	       TIMING_JSON } fill;

typedef struct {
	const char *args;
	int status;
	fill fill;
	/*
	 * The whole output, stdout and stderr (PREFIX: how it begins); a
	 * "%s" stands for the latency line of agree.csv (AGREE_LAT), for the
	 * recomputed latency of disagree.csv's f32_ld_s3 (S3_LAT), or for
	 * both (DISAGREE_LAT), or for the JSON latency member of
	 * timing.csv (TIMING_JSON).
	 */
	const char *output;
} cli_case;

#define AGREE_TABLE \
	"width_bytes op packed      n slope_cycles_per_wavefront " \
	"intercept_cycles     r2\n" \
	"          4 ld      0      4                      2.000 " \
	"           30.89 1.0000\n" \
	"          8 ld      0      2                      1.960 " \
	"           32.08 1.0000\n"
#define AGREE_VERDICT \
	"verdict: AGREES: 9 rows, 7 measured, 7 agree, 0 disagree, " \
	"1 skipped, 1 timing only (arch sm_90)\n"
#define DISAGREE_LINES(file) \
	file ":7: f32_ld_s2 (probe stride, 4-byte ld): measured 1 " \
	"wavefront, 0 conflicts; predicted 2, 1 (sm_90)\n" \
	file ":8: f32_ld_s32 (probe stride, 4-byte ld): stale prediction " \
	"(sm_90): wavefronts_predicted 1, recomputed 32; " \
	"bank_conflicts_predicted 0, recomputed 31; max_way_predicted 1, " \
	"recomputed 32\n" \
	file ":9: f32_ld_s3 (probe stride, 4-byte ld): stale prediction " \
	"(sm_90): latency_cycles_predicted 1, recomputed %s\n"
#define CSV_HEAD \
	"file,line,name,probe,width,op,kind,column,value,predicted,profile\n"
#define DISAGREE_CSV(file) \
	file ",7,f32_ld_s2,stride,4,ld,measured,wavefronts_measured,1,2," \
	"sm_90\n" \
	file ",7,f32_ld_s2,stride,4,ld,measured,bank_conflicts_measured,0,1," \
	"sm_90\n" \
	file ",8,f32_ld_s32,stride,4,ld,stale,wavefronts_predicted,1,32," \
	"sm_90\n" \
	file ",8,f32_ld_s32,stride,4,ld,stale,bank_conflicts_predicted,0,31," \
	"sm_90\n" \
	file ",8,f32_ld_s32,stride,4,ld,stale,max_way_predicted,1,32,sm_90\n" \
	file ",9,f32_ld_s3,stride,4,ld,stale,latency_cycles_predicted,1,%s," \
	"sm_90\n"
#define JSON_ITEM(file, line, name, kind, column, value, predicted) \
	"{\"file\":\"" file "\",\"line\":" #line ",\"name\":\"" name "\"," \
	"\"probe\":\"stride\",\"width\":4,\"op\":\"ld\",\"kind\":\"" kind \
	"\",\"column\":\"" column "\",\"value\":" value ",\"predicted\":" \
	predicted ",\"profile\":\"sm_90\"}"
#define DISAGREE_JSON(file) \
	JSON_ITEM(file, 7, "f32_ld_s2", "measured", "wavefronts_measured", \
		  "1", "2") ",\n" \
	JSON_ITEM(file, 7, "f32_ld_s2", "measured", \
		  "bank_conflicts_measured", "0", "1") ",\n" \
	JSON_ITEM(file, 8, "f32_ld_s32", "stale", "wavefronts_predicted", \
		  "1", "32") ",\n" \
	JSON_ITEM(file, 8, "f32_ld_s32", "stale", "bank_conflicts_predicted", \
		  "0", "31") ",\n" \
	JSON_ITEM(file, 8, "f32_ld_s32", "stale", "max_way_predicted", "1", \
		  "32") ",\n" \
	JSON_ITEM(file, 9, "f32_ld_s3", "stale", "latency_cycles_predicted", \
		  "1", "%s")
#define BAD_LINE \
	"bankscope: " CASES "bad.csv:7:26: column 'wavefronts_measured': " \
	"'abc' is not a number\n"

static const cli_case cli[] = {
	{ "check " CASES "agree.csv", 0, AGREE_LAT,
	  AGREE_TABLE "%s\n" AGREE_VERDICT },
	{ "check --quiet " CASES "agree.csv", 0, FIXED, AGREE_VERDICT },
	{ "check " CASES "disagree.csv", 1, DISAGREE_LAT,
	  DISAGREE_LINES(CASES "disagree.csv")
	  "fit: no width, op and packing with 2 or more timed rows\n"
	  "%s\n"
	  "verdict: DISAGREES: 4 rows, 4 measured, 1 agree, 3 disagree, "
	  "0 skipped, 0 timing only (arch sm_90)\n" },
	{ "check --quiet - " CASES "agree.csv < " CASES "disagree.csv", 1,
	  S3_LAT,
	  DISAGREE_LINES("<stdin>")
	  "verdict: DISAGREES: 13 rows, 11 measured, 8 agree, 3 disagree, "
	  "1 skipped, 1 timing only (arch sm_90)\n" },
	/* textbook: a 16-byte broadcast is one wavefront; stored stays sm_90 */
	{ "check " CASES "agree.csv --arch textbook --quiet", 1, FIXED,
	  CASES "agree.csv:13: f128_ld_s0 (probe broadcast, 16-byte ld): "
	  "measured 2 wavefronts, 0 conflicts; predicted 1, 0 (textbook)\n"
	  "verdict: DISAGREES: 9 rows, 7 measured, 6 agree, 1 disagree, "
	  "1 skipped, 1 timing only (arch textbook)\n" },
	{ "check --arch=textbook " CASES "agree.csv", 1, PREFIX,
	  CASES "agree.csv:13: f128_ld_s0 (probe broadcast, 16-byte ld): "
	  "measured 2 wavefronts, 0 conflicts; predicted 1, 0 (textbook)\n"
	  AGREE_TABLE
	  "latency model: no row has both cycles_per_access_median and a "
	  "latency prediction\n" },
	{ "check " CASES "timing.csv", 0, PREFIX,
	  "width_bytes op packed      n slope_cycles_per_wavefront "
	  "intercept_cycles     r2\n"
	  "          4 ld      0      2                      2.000 "
	  "           30.89 1.0000\n" },
	{ "check --quiet " CASES "timing.csv", 0, FIXED,
	  "verdict: NOT CHECKED: no counters in these files\n" },
	{ "check " CASES "bad.csv", 2, FIXED, BAD_LINE },
	{ "check " CASES "agree.csv " CASES "bad.csv --quiet", 2, FIXED,
	  BAD_LINE },
	/* 1e308 cycles: the fits were -nan, the verdict AGREES */
	{ "check " CASES "huge.csv", 2, FIXED,
	  "bankscope: " CASES "huge.csv:8:49: column "
	  "'cycles_per_access_median': 1e308 is out of range (0 to 1e15)\n" },
	/* cut inside the last address: "... 480 4" is still an aligned lane */
	{ "check --quiet " CASES "truncated.csv", 2, FIXED,
	  "bankscope: " CASES "truncated.csv:16: the last line has no "
	  "newline: the file is truncated\n" },
	{ "check " CASES "profile.csv", 2, FIXED,
	  "bankscope: " CASES "profile.csv: metadata 'profile: sm_99' names "
	  "no known architecture (sm_90, textbook; or give --arch with an "
	  "arch file)\n" },
	{ "check --quiet --arch=sm_90 " CASES "profile.csv", 0, FIXED,
	  "verdict: NOT CHECKED: no counters in these files\n" },
	{ "check --arch sm_99 " CASES "agree.csv", 2, FIXED,
	  "bankscope: option --arch: 'sm_99' is neither a built-in "
	  "architecture (sm_90, textbook) nor an arch file\n" },
	{ "check " CASES "missing.csv", 2, FIXED,
	  "bankscope: " CASES "missing.csv: cannot open: No such file or "
	  "directory\n" },
	{ "check", 2, FIXED, "bankscope: check: no dataset given (try "
	  "bankscope check --help)\n" },
	{ "check --frob " CASES "agree.csv", 2, FIXED, "bankscope: check: "
	  "unknown option '--frob' (try bankscope check --help)\n" },
	{ "check --arch", 2, FIXED,
	  "bankscope: option --arch needs a value\n" },
	{ "check --help", 0, PREFIX,
	  "usage: bankscope check [--arch NAME|FILE] [--format text|csv|json]\n" },
	/* --format csv: one row per disagreeing column, then the verdict */
	{ "check --format csv " CASES "disagree.csv " CASES "agree.csv", 1,
	  S3_LAT, CSV_HEAD DISAGREE_CSV(CASES "disagree.csv")
	  "# verdict: DISAGREES: 13 rows, 11 measured, 8 agree, 3 disagree, "
	  "1 skipped, 1 timing only (arch sm_90)\n" },
	{ "check --format=csv --quiet " CASES "agree.csv", 0, FIXED,
	  CSV_HEAD "# " AGREE_VERDICT },
	{ "check --format csv --arch textbook " CASES "agree.csv", 1, FIXED,
	  CSV_HEAD CASES "agree.csv,13,f128_ld_s0,broadcast,16,ld,measured,"
	  "wavefronts_measured,2,1,textbook\n"
	  "# verdict: DISAGREES: 9 rows, 7 measured, 6 agree, 1 disagree, "
	  "1 skipped, 1 timing only (arch textbook)\n" },
	{ "check --format csv " CASES "timing.csv", 0, FIXED, CSV_HEAD
	  "# verdict: NOT CHECKED: no counters in these files\n" },
	/* --format json --quiet: the disagreements and the verdict */
	{ "check --format json --quiet - < " CASES "disagree.csv", 1, S3_LAT,
	  "{\"disagreements\":[\n" DISAGREE_JSON("<stdin>") "\n],\n"
	  "\"verdict\":{\"result\":\"DISAGREES\",\"rows\":4,\"measured\":4,"
	  "\"agree\":1,\"disagree\":3,\"skipped\":0,\"timing_only\":0,"
	  "\"not_modeled\":0,\"files_without_profile\":0,"
	  "\"profiles\":[\"sm_90\"]}}\n" },
	{ "check --format json --quiet " CASES "timing.csv", 0, FIXED,
	  "{\"disagreements\":[\n],\n\"verdict\":{\"result\":\"NOT CHECKED\","
	  "\"rows\":2,\"measured\":0,\"agree\":0,\"disagree\":0,"
	  "\"skipped\":0,\"timing_only\":2,\"not_modeled\":0,"
	  "\"files_without_profile\":0,"
	  "\"profiles\":[\"sm_90\"]}}\n" },
	/* --format json: the fits and the latency line as members */
	{ "check --format json " CASES "timing.csv", 0, TIMING_JSON,
	  "{\"disagreements\":[\n],\n\"fits\":[\n{\"width\":4,\"op\":\"ld\","
	  "\"packed\":false,\"n\":2,\"slope_cycles_per_wavefront\":2.000,"
	  "\"intercept_cycles\":30.89,\"r2\":1.0000}],\n\"latency\":%s,\n"
	  "\"verdict\":{\"result\":\"NOT CHECKED\",\"rows\":2,\"measured\":0,"
	  "\"agree\":0,\"disagree\":0,\"skipped\":0,\"timing_only\":2,"
	  "\"not_modeled\":0,\"files_without_profile\":0,"
	  "\"profiles\":[\"sm_90\"]}}\n" },
	/* nothing before a bad file, in any format */
	{ "check --format json " CASES "bad.csv", 2, FIXED, BAD_LINE },
	{ "check --format csv " CASES "bad.csv " CASES "agree.csv", 2, FIXED,
	  BAD_LINE },
	{ "check --format xml " CASES "agree.csv", 2, FIXED,
	  "bankscope: option --format: 'xml' is not text, csv or json\n" },
};

static void expected_output(const cli_case *c, char *buf, size_t size)
{
	char lat[256], s3[32];

	switch (c->fill) {
	case FIXED:
	case PREFIX:
		snprintf(buf, size, "%s", c->output);
		break;
	case AGREE_LAT:
		latency_line(CASES "agree.csv", lat, sizeof lat);
		snprintf(buf, size, c->output, lat);
		break;
	case DISAGREE_LAT:
		s3_latency(s3, sizeof s3);
		latency_line(CASES "disagree.csv", lat, sizeof lat);
		snprintf(buf, size, c->output, s3, lat);
		break;
	case S3_LAT:
		s3_latency(s3, sizeof s3);
		snprintf(buf, size, c->output, s3, s3);
		break;
	case TIMING_JSON:
		latency_json(CASES "timing.csv", lat, sizeof lat);
		snprintf(buf, size, c->output, lat);
		break;
	}
}

START_TEST(test_check_command)
{
	const cli_case *c = &cli[_i];
	char cmd[512], out[8192], want[8192];
	size_t n;
	FILE *p;
	int status;

	ck_assert_msg(getenv("BANKSCOPE") != NULL,
		      "BANKSCOPE is not set: run the tests with make check");
	expected_output(c, want, sizeof want);
	snprintf(cmd, sizeof cmd, "\"$BANKSCOPE\" %s 2>&1", c->args);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	n = fread(out, 1, sizeof out - 1, p);
	out[n] = '\0';
	status = pclose(p);
	ck_assert_msg(WIFEXITED(status), "%s: did not exit", c->args);
	ck_assert_msg(WEXITSTATUS(status) == c->status,
		      "bankscope %s: exit %d, expected %d; output:\n%s",
		      c->args, WEXITSTATUS(status), c->status, out);
	if (c->fill == PREFIX)
		ck_assert_msg(!strncmp(out, want, strlen(want)),
			      "bankscope %s: output begins\n%s", c->args, out);
	else
		ck_assert_str_eq(out, want);
}
END_TEST

/*
 * A file's output is held until the file has been read: in memory up to
 * 1 MiB, then in a temporary file in $TMPDIR.  15000 disagreeing rows
 * (about 1.3 MB of lines) go through the temporary file and come out
 * whole; with a bad last row nothing but the error comes out; with an
 * unusable TMPDIR a small output still needs no temporary file.
 */
#define HOLD_ROWS 15000

static void hold_file(const char *path, int rows, int bad_last)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs("probe,name,width,op,wavefronts_measured,addresses\n", f);
	for (int i = 0; i < rows; i++)
		fprintf(f, "p,r%d,4,ld,9," S1 "\n", i);
	if (bad_last)
		fputs("p,bad,3,ld,9," S1 "\n", f);
	ck_assert_int_eq(fclose(f), 0);
}

/* Run check on path with TMPDIR set to tmpdir; output and exit status. */
static int hold_run(const char *tmpdir, const char *path, char **out,
		    size_t *len)
{
	char cmd[512];
	FILE *p, *o = open_memstream(out, len);
	char buf[65536];
	size_t n;
	int st;

	ck_assert_ptr_nonnull(o);
	snprintf(cmd, sizeof cmd, "TMPDIR=%s \"$BANKSCOPE\" check --quiet %s "
		 "2>&1", tmpdir, path);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	while ((n = fread(buf, 1, sizeof buf, p)) > 0)
		fwrite(buf, 1, n, o);
	st = pclose(p);
	fclose(o);
	ck_assert(WIFEXITED(st));
	return WEXITSTATUS(st);
}

START_TEST(test_check_holds_output)
{
	char dir[] = "/tmp/bankscope-hold-XXXXXX", path[64], line[512];
	char *out, *p;
	size_t len, lines = 0;

	ck_assert_ptr_nonnull(getenv("BANKSCOPE"));
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/many.csv", dir);

	hold_file(path, HOLD_ROWS, 0);
	ck_assert_int_eq(hold_run(dir, path, &out, &len), 1);
	ck_assert_uint_gt(len, 1 << 20);
	for (p = out; (p = strchr(p, '\n')); p++)
		lines++;
	ck_assert_uint_eq(lines, HOLD_ROWS + 1);
	snprintf(line, sizeof line, "%s:2: r0 (probe p, 4-byte ld): measured "
		 "9 wavefronts; predicted 1 (sm_90)\n", path);
	ck_assert(!strncmp(out, line, strlen(line)));
	snprintf(line, sizeof line, "%s:%d: r%d (probe p, 4-byte ld): "
		 "measured 9 wavefronts; predicted 1 (sm_90)\nverdict: "
		 "DISAGREES: %d rows, %d measured, 0 agree, %d disagree, 0 "
		 "skipped, 0 timing only (arch sm_90)\n", path,
		 HOLD_ROWS + 1, HOLD_ROWS - 1, HOLD_ROWS, HOLD_ROWS,
		 HOLD_ROWS);
	ck_assert_str_eq(out + len - strlen(line), line);
	free(out);
	/* no temporary file may be left in dir: only many.csv is there */
	ck_assert_int_eq(count_entries(dir), 1);

	hold_file(path, HOLD_ROWS, 1);
	ck_assert_int_eq(hold_run(dir, path, &out, &len), 2);
	snprintf(line, sizeof line, "bankscope: %s:%d:7: column 'width': '3' "
		 "is not 1, 2, 4, 8 or 16 bytes\n", path, HOLD_ROWS + 2);
	ck_assert_str_eq(out, line);
	free(out);

	ck_assert_int_eq(hold_run("/nonexistent", path, &out, &len), 2);
	ck_assert_str_eq(out, "bankscope: /nonexistent: cannot create a "
			 "temporary file to hold the disagreements: No such "
			 "file or directory\n");
	free(out);
	hold_file(path, 10, 0);
	ck_assert_int_eq(hold_run("/nonexistent", path, &out, &len), 1);
	ck_assert(strstr(out, "verdict: DISAGREES: 10 rows") != NULL);
	free(out);

	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/*
 * Every timed row exactly on the latency model: the deviation is 0 and
 * the worst row is still named (the first), in text and in JSON.
 */
START_TEST(test_check_zero_deviation)
{
	char dir[] = "/tmp/bankscope-zero-XXXXXX", path[64], cmd[256];
	char out[4096], want[512];
	bs_access a;
	bs_summary s;
	FILE *f, *p;
	size_t n;

	ck_assert_ptr_nonnull(getenv("BANKSCOPE"));
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/zero.csv", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("probe,name,width,op,cycles_per_access_median,addresses\n", f);
	for (unsigned stride = 1; stride <= 2; stride++) {
		make_access(&a, 4, BS_KIND_LD, ALL, stride);
		ck_assert_int_eq(bs_predict(bs_arch_default(), &a, &s, NULL),
				 0);
		fprintf(f, "p,s%u,4,ld,%.2f,", stride, s.latency_cycles);
		for (unsigned l = 0; l < BS_LANES; l++)
			fprintf(f, "%s%u", l ? " " : "", (unsigned)a.addr[l]);
		putc('\n', f);
	}
	ck_assert_int_eq(fclose(f), 0);

	snprintf(cmd, sizeof cmd, "\"$BANKSCOPE\" check %s 2>&1 | grep latency; "
		 "\"$BANKSCOPE\" check --format json %s 2>&1 | grep latency",
		 path, path);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	n = fread(out, 1, sizeof out - 1, p);
	out[n] = '\0';
	pclose(p);
	snprintf(want, sizeof want, "latency model: max deviation 0.00 cycles "
		 "over 2 rows (worst: %s:2 s1)\n\"latency\":{\"rows\":2,"
		 "\"max_deviation_cycles\":0.00,\"worst\":{\"file\":\"%s\","
		 "\"line\":2,\"name\":\"s1\"}},\n", path, path);
	ck_assert_str_eq(out, want);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

Suite *dataset_suite(void)
{
	Suite *s = suite_create("dataset");

	tu_add_tcase(s, "io", 0, (const tu_test[]){
		{ test_write_read_rows, 1 }, { test_line_limit, 2 },
		{ test_number_format, TU_ROWS(fmts) },
		{ test_write_refused, 10 }, { test_write_header_refused, 1 },
		{ test_write_error, 1 }, { test_csv_field, TU_ROWS(csv_cases) },
		{ test_row_init_predict, 1 }, { test_metadata, 1 },
		{ test_column_order, 1 }, { test_bad_file, TU_ROWS(bad) },
		{ test_numbers, 1 }, { test_nul_byte, 1 }, { NULL, 0 } });
	tu_add_tcase(s, "files", 0, (const tu_test[]){
		{ test_commit_never_overwrites, 1 }, { test_create_fails, 1 },
		{ NULL, 0 } });
	tu_add_tcase(s, "check command", 0, (const tu_test[]){
		{ test_check_command, TU_ROWS(cli) },
		{ test_check_holds_output, 1 },
		{ test_check_zero_deviation, 1 }, { NULL, 0 } });
	return s;
}
