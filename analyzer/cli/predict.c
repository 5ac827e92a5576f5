/*
 * predict.c - bankscope predict: wavefronts, conflicts and latency of
 * accesses given as pattern files, an index expression, a 2-D tile or an
 * array of structs.  Pattern files are streamed: one line in memory at a
 * time, whatever their length.  A bad line stops the run with one message
 * naming file, line and column, before anything of that line is printed.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char predict_usage[] =
	"usage: bankscope predict [--arch NAME] [--format text|csv|json|map]\n"
	"                         [ACCESS OPTIONS] [PATTERN-FILE...]\n"
	"\n"
	"Predict, for each warp access, its wavefronts, the ideal wavefronts,\n"
	"bank conflicts (= wavefronts - ideal), the worst n-way degree and the\n"
	"dependent-chain latency in cycles.\n"
	"\n"
	"  --arch NAME        sm_90 (default: Hopper, measured on an H100) or\n"
	"                     textbook (one phase for every width)\n"
	"  --format FMT       text (default: phases and bank maps), csv, json,\n"
	"                     or map (one CSV row per bank cell, for plots)\n"
	"\n"
	"Pattern files ('-' reads stdin): one access a line,\n"
	"  NAME WIDTH OP A0 ... A31   byte addresses, '-' for an inactive lane\n"
	"\n"
	"An index expression (element index; address = base + index*width):\n"
	"  --expr EXPR        C integer expression over lane, warp, tid\n"
	"  --active EXPR      lanes where EXPR is non-zero take part (all)\n"
	"  --warp N           value of warp (0); tid = warp*32 + lane\n"
	"A 2-D tile, T tile[ROWS][COLS+PAD]:\n"
	"  --tile ROWSxCOLS   --pad P (0)   --access row|col (col)\n"
	"  --index I          the row (row access: lane l reads tile[I][l]) or\n"
	"                     column (col access: lane l reads tile[l][I]) (0)\n"
	"  --swizzle none|xor xor stores column c of row r at c ^ (r % COLS)\n"
	"An array of structs, lane l reads array[l].field:\n"
	"  --struct BYTES     sizeof the struct\n"
	"  --field OFFSET     offsetof the field (0)\n"
	"Common to the three:\n"
	"  --width W          bytes per lane: 1, 2, 4 (default), 8, 16\n"
	"  --op ld|st         load (default) or store\n"
	"  --base BYTES       address of element 0 (0)\n"
	"  --name NAME        name of the access\n"
	"\n"
	"Exit status: 0 success, 2 bad input (message names file, line and\n"
	"column, or the option).\n";

typedef struct {
	const bs_profile *profile;
	enum { FMT_TEXT, FMT_CSV, FMT_JSON, FMT_MAP } format;
	unsigned long count;
	unsigned long wavefronts, ideal, conflicts;
	int first_json;
} run;

static void emit(run *r, const bs_access *a, const bs_detail *d)
{
	switch (r->format) {
	case FMT_TEXT:
		print_text(stdout, r->profile, a, d);
		break;
	case FMT_CSV:
		print_csv(stdout, a, &d->sum);
		break;
	case FMT_JSON:
		print_json(stdout, r->profile, a, d, r->first_json);
		r->first_json = 0;
		break;
	case FMT_MAP:
		print_map(stdout, r->profile, a, d, r->first_json);
		r->first_json = 0;
		break;
	}
	r->count++;
	r->wavefronts += d->sum.wavefronts;
	r->ideal += d->sum.ideal_wavefronts;
	r->conflicts += d->sum.bank_conflicts;
}

/* Predict one access; the CSV path takes the fast counts-only route. */
static int predict_one(run *r, const bs_access *a, bs_error *err)
{
	static bs_detail d;

	if (r->format == FMT_CSV) {
		if (bs_predict(r->profile, a, &d.sum, err) < 0)
			return -1;
	} else if (bs_predict_detail(r->profile, a, &d, err) < 0) {
		return -1;
	}
	emit(r, a, &d);
	return 0;
}

static int predict_file(run *r, const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	bs_reader *rd;
	bs_access a;
	bs_error err;
	int rc;

	if (!f)
		return usage_error("%s: cannot open: %s", path,
				   strerror(errno));
	rd = bs_reader_new(f, name);
	if (!rd) {
		if (f != stdin)
			fclose(f);
		return usage_error("out of memory");
	}
	while ((rc = bs_reader_next(rd, &a, &err)) > 0) {
		if (predict_one(r, &a, &err) < 0) {
			/* the access passed the reader, so name its line */
			snprintf(err.source, sizeof err.source, "%s", name);
			err.line = bs_reader_line(rd);
			rc = -1;
			break;
		}
	}
	bs_reader_free(rd);
	if (f != stdin)
		fclose(f);
	return rc < 0 ? report_error(&err) : 0;
}

typedef struct {
	const char *arch, *format;
	const char *expr, *active, *tile, *access, *swizzle, *structure;
	const char *width, *op, *base, *warp, *pad, *index, *field, *name;
} options;

/* Every option of predict, its name and where its value goes. */
static const struct {
	const char *name;
	size_t offset;
} option_table[] = {
#define OPT(n, f) { n, offsetof(options, f) }
	OPT("--arch", arch), OPT("--format", format), OPT("--expr", expr),
	OPT("--active", active), OPT("--tile", tile), OPT("--access", access),
	OPT("--swizzle", swizzle), OPT("--struct", structure),
	OPT("--width", width), OPT("--op", op), OPT("--base", base),
	OPT("--warp", warp), OPT("--pad", pad), OPT("--index", index),
	OPT("--field", field), OPT("--name", name),
#undef OPT
};

/* Options common to the generated accesses: width, op, base. */
static int common_options(const options *o, unsigned *width, bs_op *op,
			  uint64_t *base)
{
	uint64_t v;

	*width = 4;
	*op = BS_LOAD;
	*base = 0;
	if (o->width) {
		if (opt_u64("--width", o->width, 16, &v) < 0)
			return -1;
		if (bs_width_index((unsigned)v) < 0) {
			usage_error("option --width: %s is not 1, 2, 4, 8 or 16",
				    o->width);
			return -1;
		}
		*width = (unsigned)v;
	}
	if (o->op && bs_parse_op(o->op, op) < 0) {
		usage_error("option --op: '%s' is not ld or st", o->op);
		return -1;
	}
	if (o->base && opt_u64("--base", o->base, UINT32_MAX, base) < 0)
		return -1;
	return 0;
}

static int opt_small(const char *name, const char *value, unsigned *out)
{
	uint64_t v = 0;

	if (value && opt_u64(name, value, 1u << 20, &v) < 0)
		return -1;
	*out = (unsigned)v;
	return 0;
}

static int tile_access(const options *o, bs_tile_spec *t, bs_error *err,
		       bs_access *a)
{
	unsigned long rows, cols;
	char tail;

	if (sscanf(o->tile, "%lux%lu%c", &rows, &cols, &tail) != 2 ||
	    strchr(o->tile, '-'))
		return usage_error("option --tile: '%s' is not ROWSxCOLS "
				   "(e.g. 32x32)", o->tile);
	if (rows > 1u << 20 || cols > 1u << 20)
		return usage_error("option --tile: %s is larger than "
				   "1048576 elements a side", o->tile);
	t->rows = (unsigned)rows;
	t->cols = (unsigned)cols;
	if (opt_small("--pad", o->pad, &t->pad) < 0 ||
	    opt_small("--index", o->index, &t->index) < 0)
		return EXIT_BADINPUT;
	t->dir = BS_BY_COL;
	if (o->access && !strcmp(o->access, "row"))
		t->dir = BS_BY_ROW;
	else if (o->access && strcmp(o->access, "col"))
		return usage_error("option --access: '%s' is not row or col",
				   o->access);
	t->swizzle = BS_SWIZZLE_NONE;
	if (o->swizzle && !strcmp(o->swizzle, "xor"))
		t->swizzle = BS_SWIZZLE_XOR;
	else if (o->swizzle && strcmp(o->swizzle, "none"))
		return usage_error("option --swizzle: '%s' is not none or xor",
				   o->swizzle);
	t->name = o->name;
	return bs_tile_access(t, a, err) < 0 ? report_error(err) : 0;
}

/* Build the access the --expr, --tile or --struct options describe. */
static int generated_access(const options *o, bs_access *a)
{
	bs_error err;
	unsigned width;
	bs_op op;
	uint64_t base, v = 0;

	if (common_options(o, &width, &op, &base) < 0)
		return EXIT_BADINPUT;
	if (o->expr) {
		bs_expr_spec s = { .name = o->name, .index = o->expr,
				   .active = o->active, .width = width,
				   .op = op, .base = base };

		if (o->warp && opt_u64("--warp", o->warp, 1u << 20, &v) < 0)
			return EXIT_BADINPUT;
		s.warp = (int64_t)v;
		return bs_access_from_expr(&s, a, &err) < 0 ? report_error(&err)
							    : 0;
	}
	if (o->tile) {
		bs_tile_spec t = { .width = width, .op = op, .base = base };

		return tile_access(o, &t, &err, a);
	}
	{
		bs_struct_spec s = { .width = width, .op = op, .base = base,
				     .name = o->name };

		if (opt_small("--struct", o->structure, &s.struct_bytes) < 0 ||
		    opt_small("--field", o->field, &s.field) < 0)
			return EXIT_BADINPUT;
		return bs_struct_access(&s, a, &err) < 0 ? report_error(&err)
							 : 0;
	}
}

/* Options that belong to one shape only, and the shape. */
static int check_shape_options(const options *o)
{
	int shapes = !!o->expr + !!o->tile + !!o->structure;

	if (shapes > 1)
		return usage_error("--expr, --tile and --struct describe one "
				   "access each: give one of them");
	if (o->active && !o->expr)
		return usage_error("option --active goes with --expr");
	if (o->warp && !o->expr)
		return usage_error("option --warp goes with --expr");
	if ((o->pad || o->access || o->index || o->swizzle) && !o->tile)
		return usage_error("options --pad, --access, --index and "
				   "--swizzle go with --tile");
	if (o->field && !o->structure)
		return usage_error("option --field goes with --struct");
	if (!shapes && (o->width || o->op || o->base || o->name))
		return usage_error("options --width, --op, --base and --name "
				   "go with --expr, --tile or --struct (a "
				   "pattern file names its own)");
	return 0;
}

int cmd_predict(int argc, char **argv)
{
	options o = { 0 };
	run r = { .profile = bs_profile_default(), .first_json = 1 };
	int nfiles = 0, rc = 0, i;
	char **files = calloc((size_t)argc, sizeof *files);

	if (!files)
		return usage_error("out of memory");
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		size_t k;
		int got = 0;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(predict_usage, stdout);
			free(files);
			return 0;
		}
		if (a[0] != '-' || !strcmp(a, "-")) {
			files[nfiles++] = argv[i];
			continue;
		}
		for (k = 0; k < sizeof option_table / sizeof *option_table;
		     k++) {
			const char **slot = (const char **)((char *)&o +
				option_table[k].offset);

			got = opt_value(argc, argv, &i, option_table[k].name,
					slot);
			if (got)
				break;
		}
		if (got < 0) {
			free(files);
			return EXIT_BADINPUT;
		}
		if (!got) {
			free(files);
			return usage_error("predict: unknown option '%s' (try "
					   "bankscope predict --help)", a);
		}
	}
	if (o.arch && !(r.profile = bs_profile_find(o.arch)))
		rc = usage_error("option --arch: unknown profile '%s' "
				 "(bankscope profiles lists them)", o.arch);
	else if (o.format && !strcmp(o.format, "csv"))
		r.format = FMT_CSV;
	else if (o.format && !strcmp(o.format, "json"))
		r.format = FMT_JSON;
	else if (o.format && !strcmp(o.format, "map"))
		r.format = FMT_MAP;
	else if (o.format && strcmp(o.format, "text"))
		rc = usage_error("option --format: '%s' is not text, csv, json "
				 "or map", o.format);
	if (!rc)
		rc = check_shape_options(&o);
	if (!rc && !nfiles && !o.expr && !o.tile && !o.structure)
		rc = usage_error("predict: no input (give a pattern file, '-', "
				 "--expr, --tile or --struct)");
	if (rc) {
		free(files);
		return rc;
	}

	if (r.format == FMT_CSV)
		printf("%s\n", predict_csv_header);
	else if (r.format == FMT_JSON)
		printf("[\n");
	if (o.expr || o.tile || o.structure) {
		bs_access a;
		bs_error err;

		rc = generated_access(&o, &a);
		if (!rc && predict_one(&r, &a, &err) < 0)
			rc = report_error(&err);
	}
	for (i = 0; !rc && i < nfiles; i++)
		rc = predict_file(&r, files[i]);
	free(files);
	if (r.format == FMT_JSON)
		printf("\n]\n");
	else if (r.format == FMT_TEXT && !rc && r.count > 1)
		printf("total: %lu accesses, %lu wavefronts, ideal %lu, "
		       "bank conflicts %lu\n", r.count, r.wavefronts, r.ideal,
		       r.conflicts);
	return rc;
}
