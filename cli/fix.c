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
	"then the least extra shared memory.  A tile read or written by\n"
	"ldmatrix, stmatrix or cp.async (or of elements narrower than the\n"
	"access, or already TMA- or CuTe-swizzled) searches the TMA swizzles,\n"
	"then CuTe swizzles, before padding by multiples of the access width.\n"
	"\n"
	"  --arch NAME|FILE   sm_90 (default), textbook or an arch file\n"
	"  --format FMT       text (default) or json (one object per access)\n"
	"  --max-pad N        pad by 0..N elements (default 128/width - 1;\n"
	"                     0 forbids padding)\n"
	"\n"
	"The access, as for bankscope predict:\n"
	"  --tile ROWSxCOLS   --pad P --elem BYTES --access MODE --index I\n"
	"                     --column C --swizzle SW  (T tile[ROWS][COLS+PAD])\n"
	"  --struct BYTES     --field OFFSET   (lane l reads array[l].field)\n"
	"  --expr EXPR        --active EXPR --warp N   (element index)\n"
	"  --width W --kind KIND --base BYTES --name NAME\n"
	"  PATTERN-FILE       '-' reads stdin; every access is fixed in turn\n"
	"With --expr or pattern files the access is read as rows of elements\n"
	"from --base (0):\n"
	"  --row N            row length in elements (default: the constant\n"
	"                     lane stride, when the lanes have one)\n"
	"\n"
	"Exit status: 0 success (whether or not the ideal is reached), 2 bad\n"
	"input (message names the option, or file, line and column).\n";

typedef struct {
	const char *arch, *format, *max_pad, *row, *base;
	shape_options s;
} options;

typedef struct {
	const bs_arch *arch;
	int json;
	int max_pad;
	unsigned row;
	uint64_t base;
	unsigned long count;
} run;

static void arrow(const bs_fix *f, const bs_fix_change *c)
{
	if (f->remote)
		printf("%u -> %u sectors moved (fewest %u)",
		       f->sum_before.sectors, c->sum.sectors, f->min_sectors);
	else if (c->kind == BS_FIX_WIDEN)
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

	bs_predict_detail(r->arch, &f->before, &d, NULL);
	if (f->already_ideal) {
		print_text(stdout, r->arch, &f->before, &d);
		if (!f->before.active)
			printf("no fix needed: no lane is active, so it "
			       "accesses nothing\n");
		else if (f->remote)
			printf("no fix needed: %u sector%s, the fewest that "
			       "hold its bytes\n", f->sum_before.sectors,
			       f->sum_before.sectors == 1 ? "" : "s");
		else
			printf("no fix needed: %u wavefront%s = ideal\n", wf,
			       wf == 1 ? "" : "s");
		return;
	}
	printf("before:\n");
	print_text(stdout, r->arch, &f->before, &d);
	if (b->kind != BS_FIX_NONE) {
		printf("change: %s\n  %s\n", b->label, b->declaration);
		if (*b->index_change)
			printf("  %s\n", b->index_change);
		printf("  note: %s\n", b->note);
		if (*b->warning)
			printf("  warning: %s\n", b->warning);
		printf("after:\n");
		bs_predict_detail(r->arch, &b->access, &d, NULL);
		print_text(stdout, r->arch, &b->access, &d);
	}
	if (f->reaches_ideal) {
		printf("fix: %s: ", b->label);
		arrow(f, b);
	} else if (f->remote) {
		printf("another CTA's shared memory is paid by sectors, not "
		       "banks: no padding within 0..%u, swizzle or widening "
		       "moves fewer than %u; best found: ", f->max_pad,
		       f->sum_before.sectors);
		if (b->kind != BS_FIX_NONE) {
			printf("%s: ", b->label);
			arrow(f, b);
		}
		printf("%s%s\n", b->kind != BS_FIX_NONE ? "  " : "none; ",
		       f->explanation);
	} else {
		if (f->byte_layout)
			printf("no TMA or CuTe swizzle and no padding within "
			       "0..%u reaches the ideal of %u; best found: ",
			       f->max_pad, f->sum_before.ideal_wavefronts);
		else
			printf("no change within pad 0..%u, swizzle or "
			       "widening reaches the ideal of %u; best found: ",
			       f->max_pad, f->sum_before.ideal_wavefronts);
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
		if (*f->alternative.warning)
			printf("  warning: %s\n", f->alternative.warning);
	}
}

static void json_change(const bs_fix_change *c)
{
	char sw[32];

	printf("{\"kind\":\"%s\",\"label\":", bs_fix_kind_name(c->kind));
	json_string(stdout, c->label);
	bs_swizzle_name(c->swizzle, c->cute, sw, sizeof sw);
	printf(",\"pad\":%u,\"swizzle\":\"%s\",\"width\":%u,", c->pad, sw,
	       c->width);
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
	printf(",\"warning\":");
	json_string(stdout, c->warning);
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
	       "\"max_pad\":%u,\"tried\":%u,", r->arch->name, outcome,
	       f->reaches_ideal ? "true" : "false", f->max_pad, f->tried);
	if (f->remote) {
		printf("\"remote\":true,\"min_sectors\":%u,\"explanation\":",
		       f->min_sectors);
		json_string(stdout, f->explanation);
		putchar(',');
	}
	printf("\"before\":");
	bs_predict_detail(r->arch, &f->before, &d, NULL);
	print_json(stdout, r->arch, &f->before, &d, 1);
	printf(",\"change\":");
	if (f->best.kind == BS_FIX_NONE) {
		printf("null,\"after\":null");
	} else {
		json_change(&f->best);
		printf(",\"after\":");
		bs_predict_detail(r->arch, &f->best.access, &d, NULL);
		print_json(stdout, r->arch, &f->best.access, &d, 1);
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
	if (bs_fix_search(r->arch, in, &f, err) < 0)
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
	const char *name;
	FILE *f;
	static bs_fix_input in;
	bs_reader *rd;
	bs_error err;
	int rc;

	if (input_open(path, &f, &name))
		return EXIT_BADINPUT;
	rd = bs_reader_new(f, name);
	if (!rd) {
		input_close(f);
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
	input_close(f);
	return rc < 0 ? report_error(&err) : 0;
}

/* The --expr, --tile or --struct access as a fix input. */
static int generated_input(const options *o, const run *r, bs_fix_input *in)
{
	bs_error err;
	unsigned width;
	bs_kind kind;
	int rc;

	if ((rc = shape_width_kind(&o->s, &width, &kind)))
		return rc;
	if (o->s.expr) {
		bs_expr_spec s = { .width = width, .kind = kind, .base = r->base };

		if ((rc = shape_expr(&o->s, &s)))
			return rc;
		in->source = BS_FIX_FROM_ACCESS;
		in->base = r->base;
		in->row_elems = r->row;
		return bs_access_from_expr(&s, &in->access, &err) < 0
			       ? report_error(&err) : 0;
	}
	if (o->s.tile) {
		in->source = BS_FIX_FROM_TILE;
		in->tile = (bs_tile_spec){ .width = width, .kind = kind,
					   .base = r->base };
		if ((rc = shape_tile(&o->s, &in->tile)))
			return rc;
		if (bs_tile_access(&in->tile, &in->access, &err) < 0)
			return report_error(&err);
		tile_warn(&in->tile);
		return 0;
	}
	in->source = BS_FIX_FROM_STRUCT;
	in->strct = (bs_struct_spec){ .width = width, .kind = kind,
				      .base = r->base };
	return shape_struct(&o->s, &in->strct);
}

static int check_shape_options(const options *o, int nfiles)
{
	int shapes = shape_count(&o->s), rc;

	if (shapes > 1 || (shapes && nfiles))
		return usage_error("fix: --expr, --tile, --struct and pattern "
				   "files each describe the access: give one "
				   "of them");
	if (!shapes && !nfiles)
		return usage_error("fix: no input (give --tile, --struct, "
				   "--expr, a pattern file or '-')");
	if ((rc = shape_companions(&o->s)))
		return rc;
	if (o->row && (o->s.tile || o->s.structure))
		return usage_error("option --row goes with --expr or a pattern "
				   "file (a tile or struct has its own rows)");
	if (!shapes && (o->s.width || o->s.kind || o->s.name))
		return usage_error("options --width, --kind and --name go with "
				   "--expr, --tile or --struct (a pattern file "
				   "names its own)");
	return 0;
}

/* --arch, --format, --max-pad, --row, --base. */
static int run_options(const options *o, run *r)
{
	uint64_t v;

	if (o->arch && arch_option(o->arch, &r->arch))
		return EXIT_BADINPUT;
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
	const cli_option own[] = {
		{ "--arch", &o.arch, NULL }, { "--format", &o.format, NULL },
		{ "--max-pad", &o.max_pad, NULL }, { "--row", &o.row, NULL },
		{ "--base", &o.base, NULL },
	};
	run r = { .arch = bs_arch_default(), .max_pad = -1 };
	int nfiles, rc, i;
	char **files;

	rc = cli_parse("fix", fix_usage, argc, argv, own,
		       sizeof own / sizeof *own, &o.s, &files, &nfiles);
	if (rc) {
		free(files);
		return rc == CLI_HELP ? 0 : rc;
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
