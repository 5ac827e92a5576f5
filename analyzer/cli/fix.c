/*
 * fix.c - bankscope fix: the cheapest layout change that makes an access
 * conflict-free, with the bank maps before and after and the declaration
 * or index to write.
 *
 * The access comes from the options predict takes (--tile, --struct,
 * --expr) or from pattern files, every access of which is fixed in turn;
 * the search is bs_fix_search()'s.  Text shows, per access, the access
 * before (summary and bank map), the change (its declaration, its index
 * change and what it requires), the access after, then one line: "fix:
 * ...", "no fix needed: ..." or "no change within ... reaches the ideal
 * of N; best found: ...", and "also reaches the ideal: ..." when a change
 * of another kind does too.  JSON is one object per access, one a line.
 * Bad input stops the run with one message naming the option, or the
 * file, line and column; exit status 2.  Reaching no ideal is a result,
 * not an error: exit status 0.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char fix_usage[] =
	"usage: bankscope fix [--arch NAME] [--format text|json] [--max-pad N]\n"
	"                     (--tile RxC ... | --struct BYTES ... |\n"
	"                      --expr EXPR ... | PATTERN-FILE...)\n"
	"\n"
	"Search the changes a CUDA programmer can make to an access's layout\n"
	"for the cheapest that reaches the ideal wavefronts: padding the rows\n"
	"or the struct by 0..N elements, the XOR swizzle, or reading wider\n"
	"chunks; show the bank maps before and after, the declaration or\n"
	"index to write and the shared memory it costs.  Among the changes\n"
	"that reach the ideal: padding before the swizzle before widening,\n"
	"then the least extra shared memory.\n"
	"\n"
	"  --arch NAME        sm_90 (default) or textbook\n"
	"  --format FMT       text (default) or json (one object per access)\n"
	"  --max-pad N        pad by 0..N elements (default 128/width - 1;\n"
	"                     0 forbids padding)\n"
	"\n"
	"The access, as for bankscope predict:\n"
	"  --tile ROWSxCOLS   --pad P --access row|col --index I\n"
	"                     --swizzle none|xor   (T tile[ROWS][COLS+PAD])\n"
	"  --struct BYTES     --field OFFSET   (lane l reads array[l].field)\n"
	"  --expr EXPR        --active EXPR --warp N   (element index)\n"
	"  --width W --op ld|st --base BYTES --name NAME\n"
	"  PATTERN-FILE       '-' reads stdin; every access is fixed in turn\n"
	"With --expr or pattern files the access is read as rows of elements\n"
	"from --base (0):\n"
	"  --row N            row length in elements (default: the constant\n"
	"                     lane stride, when the lanes have one)\n"
	"\n"
	"Exit status: 0 success (whether or not the ideal is reached), 2 bad\n"
	"input (message names the option, or file, line and column).\n";

typedef struct {
	const char *arch, *format, *max_pad, *row;
	const char *expr, *active, *tile, *access, *swizzle, *structure;
	const char *width, *op, *base, *warp, *pad, *index, *field, *name;
} options;

static const struct {
	const char *name;
	size_t offset;
} option_table[] = {
#define OPT(n, f) { n, offsetof(options, f) }
	OPT("--arch", arch), OPT("--format", format),
	OPT("--max-pad", max_pad), OPT("--row", row), OPT("--expr", expr),
	OPT("--active", active), OPT("--tile", tile), OPT("--access", access),
	OPT("--swizzle", swizzle), OPT("--struct", structure),
	OPT("--width", width), OPT("--op", op), OPT("--base", base),
	OPT("--warp", warp), OPT("--pad", pad), OPT("--index", index),
	OPT("--field", field), OPT("--name", name),
#undef OPT
};

typedef struct {
	const bs_profile *profile;
	int json;
	int max_pad;
	unsigned row;
	uint64_t base;
	unsigned long count;
} run;

static void arrow(const bs_fix *f, const bs_fix_change *c)
{
	if (c->kind == BS_FIX_WIDEN)
		printf("%u accesses, %u wavefronts -> 1 access, %u wavefronts "
		       "(ideal %u)", c->merged, c->merged_wavefronts,
		       c->sum.wavefronts, c->sum.ideal_wavefronts);
	else
		printf("%u -> %u wavefronts (ideal %u)",
		       f->sum_before.wavefronts, c->sum.wavefronts,
		       c->sum.ideal_wavefronts);
	printf(", %+lld bytes of shared memory\n", (long long)c->extra_bytes);
}

static void text_fix(const run *r, const bs_fix *f)
{
	static bs_detail d;
	const bs_fix_change *b = &f->best;
	unsigned wf = f->sum_before.wavefronts;

	bs_predict_detail(r->profile, &f->before, &d, NULL);
	if (f->already_ideal) {
		print_text(stdout, r->profile, &f->before, &d);
		printf("no fix needed: %u wavefront%s = ideal\n", wf,
		       wf == 1 ? "" : "s");
		return;
	}
	printf("before:\n");
	print_text(stdout, r->profile, &f->before, &d);
	if (b->kind != BS_FIX_NONE) {
		printf("change: %s\n  %s\n", b->label, b->declaration);
		if (*b->index_change)
			printf("  %s\n", b->index_change);
		printf("  note: %s\n", b->note);
		printf("after:\n");
		bs_predict_detail(r->profile, &b->access, &d, NULL);
		print_text(stdout, r->profile, &b->access, &d);
	}
	if (f->reaches_ideal) {
		printf("fix: %s: ", b->label);
		arrow(f, b);
	} else {
		printf("no change within pad 0..%u, swizzle or widening "
		       "reaches the ideal of %u; best found: ", f->max_pad,
		       f->sum_before.ideal_wavefronts);
		if (b->kind != BS_FIX_NONE) {
			printf("%s: ", b->label);
			arrow(f, b);
		} else if (f->tried) {
			printf("none, no change tried lowers the %u wavefronts"
			       "%s%s\n", wf, *f->explanation ? "; " : "",
			       f->explanation);
		} else {
			printf("none, %s\n", f->explanation);
		}
	}
	if (f->alternative.kind != BS_FIX_NONE) {
		printf("also reaches the ideal: %s: ", f->alternative.label);
		arrow(f, &f->alternative);
	}
}

static void json_change(const bs_fix_change *c)
{
	printf("{\"kind\":\"%s\",\"label\":", bs_fix_kind_name(c->kind));
	json_string(stdout, c->label);
	printf(",\"pad\":%u,\"swizzle\":\"%s\",\"width\":%u,", c->pad,
	       c->swizzle == BS_SWIZZLE_XOR ? "xor" : "none", c->width);
	if (c->kind == BS_FIX_WIDEN)
		printf("\"merged\":%u,\"merged_wavefronts\":%u,"
		       "\"merged_ideal\":%u,", c->merged, c->merged_wavefronts,
		       c->merged_ideal);
	printf("\"extra_bytes\":%lld,\"wavefronts\":%u,\"ideal_wavefronts\":%u,"
	       "\"bank_conflicts\":%u,\"declaration\":",
	       (long long)c->extra_bytes, c->sum.wavefronts,
	       c->sum.ideal_wavefronts, c->sum.bank_conflicts);
	json_string(stdout, c->declaration);
	printf(",\"index_change\":");
	json_string(stdout, c->index_change);
	printf(",\"note\":");
	json_string(stdout, c->note);
	putchar('}');
}

static void json_fix(const run *r, const bs_fix *f)
{
	static bs_detail d;
	const char *outcome = f->already_ideal ? "already_ideal"
			      : f->reaches_ideal ? "ideal"
			      : f->best.kind != BS_FIX_NONE ? "improved"
			      : "unchanged";

	printf("{\"profile\":\"%s\",\"outcome\":\"%s\",\"reaches_ideal\":%s,"
	       "\"max_pad\":%u,\"tried\":%u,\"before\":", r->profile->name,
	       outcome, f->reaches_ideal ? "true" : "false", f->max_pad,
	       f->tried);
	bs_predict_detail(r->profile, &f->before, &d, NULL);
	print_json(stdout, r->profile, &f->before, &d, 1);
	printf(",\"change\":");
	if (f->best.kind == BS_FIX_NONE) {
		printf("null,\"after\":null");
	} else {
		json_change(&f->best);
		printf(",\"after\":");
		bs_predict_detail(r->profile, &f->best.access, &d, NULL);
		print_json(stdout, r->profile, &f->best.access, &d, 1);
	}
	printf(",\"alternative\":");
	if (f->alternative.kind == BS_FIX_NONE)
		printf("null");
	else
		json_change(&f->alternative);
	printf(",\"explanation\":");
	json_string(stdout, f->explanation);
	printf("}\n");
}

static int fix_one(run *r, bs_fix_input *in, bs_error *err)
{
	static bs_fix f;

	in->max_pad = r->max_pad;
	if (bs_fix_search(r->profile, in, &f, err) < 0)
		return -1;
	if (r->count++ && !r->json)
		putchar('\n');
	if (r->json)
		json_fix(r, &f);
	else
		text_fix(r, &f);
	return 0;
}

static int fix_file(run *r, const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	static bs_fix_input in;
	bs_reader *rd;
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
	memset(&in, 0, sizeof in);
	in.source = BS_FIX_FROM_ACCESS;
	in.base = r->base;
	in.row_elems = r->row;
	while ((rc = bs_reader_next(rd, &in.access, &err)) > 0) {
		if (fix_one(r, &in, &err) < 0) {
			if (!err.line) {
				snprintf(err.source, sizeof err.source, "%s",
					 name);
				err.line = bs_reader_line(rd);
			}
			rc = -1;
			break;
		}
	}
	bs_reader_free(rd);
	if (f != stdin)
		fclose(f);
	return rc < 0 ? report_error(&err) : 0;
}

static int opt_small(const char *name, const char *value, unsigned *out)
{
	uint64_t v = 0;

	if (value && opt_u64(name, value, 1u << 20, &v))
		return -1;
	*out = (unsigned)v;
	return 0;
}

static int tile_spec(const options *o, bs_tile_spec *t)
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
	return 0;
}

/* The --expr, --tile or --struct access as a fix input. */
static int generated_input(const options *o, const run *r, bs_fix_input *in)
{
	bs_error err;
	unsigned width = 4;
	bs_op op = BS_LOAD;
	uint64_t v = 0;

	if (o->width) {
		if (opt_u64("--width", o->width, 16, &v))
			return EXIT_BADINPUT;
		if (bs_width_index((unsigned)v) < 0)
			return usage_error("option --width: %s is not 1, 2, 4, "
					   "8 or 16", o->width);
		width = (unsigned)v;
	}
	if (o->op && bs_parse_op(o->op, &op) < 0)
		return usage_error("option --op: '%s' is not ld or st", o->op);
	if (o->expr) {
		bs_expr_spec s = { .name = o->name, .index = o->expr,
				   .active = o->active, .width = width,
				   .op = op, .base = r->base };

		v = 0;
		if (o->warp && opt_u64("--warp", o->warp, 1u << 20, &v))
			return EXIT_BADINPUT;
		s.warp = (int64_t)v;
		in->source = BS_FIX_FROM_ACCESS;
		in->base = r->base;
		in->row_elems = r->row;
		return bs_access_from_expr(&s, &in->access, &err) < 0
			       ? report_error(&err) : 0;
	}
	if (o->tile) {
		in->source = BS_FIX_FROM_TILE;
		in->tile = (bs_tile_spec){ .width = width, .op = op,
					   .base = r->base };
		return tile_spec(o, &in->tile);
	}
	in->source = BS_FIX_FROM_STRUCT;
	in->strct = (bs_struct_spec){ .width = width, .op = op,
				      .base = r->base, .name = o->name };
	if (opt_small("--struct", o->structure, &in->strct.struct_bytes) < 0 ||
	    opt_small("--field", o->field, &in->strct.field) < 0)
		return EXIT_BADINPUT;
	return 0;
}

static int check_shape_options(const options *o, int nfiles)
{
	int shapes = !!o->expr + !!o->tile + !!o->structure;

	if (shapes > 1 || (shapes && nfiles))
		return usage_error("fix: --expr, --tile, --struct and pattern "
				   "files each describe the access: give one "
				   "of them");
	if (!shapes && !nfiles)
		return usage_error("fix: no input (give --tile, --struct, "
				   "--expr, a pattern file or '-')");
	if (o->active && !o->expr)
		return usage_error("option --active goes with --expr");
	if (o->warp && !o->expr)
		return usage_error("option --warp goes with --expr");
	if ((o->pad || o->access || o->index || o->swizzle) && !o->tile)
		return usage_error("options --pad, --access, --index and "
				   "--swizzle go with --tile");
	if (o->field && !o->structure)
		return usage_error("option --field goes with --struct");
	if (o->row && (o->tile || o->structure))
		return usage_error("option --row goes with --expr or a pattern "
				   "file (a tile or struct has its own rows)");
	if (!shapes && (o->width || o->op || o->name))
		return usage_error("options --width, --op and --name go with "
				   "--expr, --tile or --struct (a pattern file "
				   "names its own)");
	return 0;
}

/* --arch, --format, --max-pad, --row, --base. */
static int run_options(const options *o, run *r)
{
	uint64_t v;

	if (o->arch && !(r->profile = bs_profile_find(o->arch)))
		return usage_error("option --arch: unknown profile '%s' "
				   "(bankscope profiles lists them)", o->arch);
	if (o->format && !strcmp(o->format, "json"))
		r->json = 1;
	else if (o->format && strcmp(o->format, "text"))
		return usage_error("option --format: '%s' is not text or json",
				   o->format);
	if (o->max_pad) {
		if (opt_u64("--max-pad", o->max_pad, BS_FIX_MAX_PAD, &v))
			return EXIT_BADINPUT;
		r->max_pad = (int)v;
	}
	if (o->row) {
		if (opt_u64("--row", o->row, 1u << 20, &v))
			return EXIT_BADINPUT;
		if (!v)
			return usage_error("option --row: a row holds at least "
					   "1 element");
		r->row = (unsigned)v;
	}
	if (o->base && opt_u64("--base", o->base, UINT32_MAX, &r->base))
		return EXIT_BADINPUT;
	return 0;
}

int cmd_fix(int argc, char **argv)
{
	options o = { 0 };
	run r = { .profile = bs_profile_default(), .max_pad = -1 };
	int nfiles = 0, rc = 0, i;
	char **files = calloc((size_t)argc, sizeof *files);

	if (!files)
		return usage_error("out of memory");
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		size_t k;
		int got = 0;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(fix_usage, stdout);
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
		if (got <= 0) {
			free(files);
			return got < 0 ? EXIT_BADINPUT
				       : usage_error("fix: unknown option '%s' "
						     "(try bankscope fix "
						     "--help)", a);
		}
	}
	rc = run_options(&o, &r);
	if (!rc)
		rc = check_shape_options(&o, nfiles);
	if (!rc && !nfiles) {
		static bs_fix_input in;
		bs_error err;

		rc = generated_input(&o, &r, &in);
		if (!rc && fix_one(&r, &in, &err) < 0)
			rc = report_error(&err);
	}
	for (i = 0; !rc && i < nfiles; i++)
		rc = fix_file(&r, files[i]);
	free(files);
	return rc;
}
