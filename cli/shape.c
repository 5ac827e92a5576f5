/*
 * shape.c - the access options predict and fix share: an index
 * expression (--expr, --active, --warp), a 2-D tile (--tile, --pad,
 * --access, --index, --swizzle, --elem, --column) or an array of structs
 * (--struct, --field), with --width, --kind (--op is its older name) and
 * --name.  Parsing keeps the option texts; the builders turn them into
 * the library's specs, printing one message naming the option and
 * returning EXIT_BADINPUT on bad values.  A tile read by an ldmatrix or
 * stmatrix kind takes --access stack unless told otherwise; every other
 * kind takes col.
 * --base is each command's own (fix applies it to pattern files too).
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct {
	const char *name;
	size_t offset;
} shape_table[] = {
#define OPT(n, f) { n, offsetof(shape_options, f) }
	OPT("--expr", expr), OPT("--active", active), OPT("--warp", warp),
	OPT("--tile", tile), OPT("--pad", pad), OPT("--access", access),
	OPT("--index", index), OPT("--swizzle", swizzle),
	OPT("--elem", elem), OPT("--column", column),
	OPT("--struct", structure), OPT("--field", field),
	OPT("--width", width), OPT("--kind", kind), OPT("--op", kind),
	OPT("--name", name),
#undef OPT
};

int shape_option(int argc, char **argv, int *i, shape_options *o)
{
	for (size_t k = 0; k < sizeof shape_table / sizeof *shape_table; k++) {
		const char **slot = (const char **)((char *)o +
						    shape_table[k].offset);
		int got = opt_value(argc, argv, i, shape_table[k].name, slot);

		if (got)
			return got;
	}
	return 0;
}

int shape_count(const shape_options *o)
{
	return !!o->expr + !!o->tile + !!o->structure;
}

int shape_companions(const shape_options *o)
{
	if (o->active && !o->expr)
		return usage_error("option --active goes with --expr");
	if (o->warp && !o->expr)
		return usage_error("option --warp goes with --expr");
	if ((o->pad || o->access || o->index || o->swizzle || o->elem ||
	     o->column) && !o->tile)
		return usage_error("options --pad, --access, --index, "
				   "--swizzle, --elem and --column go with "
				   "--tile");
	if (o->field && !o->structure)
		return usage_error("option --field goes with --struct");
	return 0;
}

int shape_width_kind(const shape_options *o, unsigned *width, bs_kind *kind)
{
	const bs_kind_info *k;
	uint64_t v;

	*kind = BS_KIND_LD;
	if (o->kind && bs_kind_find(o->kind, kind) < 0)
		return usage_error("option --kind: '%s' is not an access kind "
				   "(bankscope archs --kinds lists them)",
				   o->kind);
	k = bs_kind_get(*kind);
	/* 4 bytes, or the one width a kind like ldsm.x4 takes */
	*width = __builtin_popcount(k->widths) == 1
			 ? bs_widths[__builtin_ctz(k->widths)] : 4;
	if (o->width) {
		if (opt_u64("--width", o->width, 16, &v))
			return EXIT_BADINPUT;
		if (bs_width_index((unsigned)v) < 0)
			return usage_error("option --width: %s is not 1, 2, 4, "
					   "8 or 16", o->width);
		*width = (unsigned)v;
	}
	if (!bs_kind_allows_width(*kind, *width)) {
		char allowed[32];

		bs_kind_widths_text(*kind, allowed, sizeof allowed);
		return usage_error("option --width: %s takes %s bytes, not %u",
				   k->name, allowed, *width);
	}
	return 0;
}

static int opt_small(const char *name, const char *value, unsigned *out)
{
	uint64_t v = 0;

	if (value && opt_u64(name, value, 1u << 20, &v))
		return EXIT_BADINPUT;
	*out = (unsigned)v;
	return 0;
}

int shape_expr(const shape_options *o, bs_expr_spec *s)
{
	uint64_t v = 0;

	if (o->warp && opt_u64("--warp", o->warp, 1u << 20, &v))
		return EXIT_BADINPUT;
	s->name = o->name;
	s->index = o->expr;
	s->active = o->active;
	s->warp = (int64_t)v;
	return 0;
}

int shape_tile(const shape_options *o, bs_tile_spec *t)
{
	unsigned long rows, cols;
	bs_error err;
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
	if (opt_small("--pad", o->pad, &t->pad) ||
	    opt_small("--index", o->index, &t->index) ||
	    opt_small("--column", o->column, &t->column))
		return EXIT_BADINPUT;
	if (o->elem) {
		uint64_t v;

		if (opt_u64("--elem", o->elem, 16, &v))
			return EXIT_BADINPUT;
		if (bs_width_index((unsigned)v) < 0)
			return usage_error("option --elem: %s is not 1, 2, 4, 8 "
					   "or 16", o->elem);
		t->elem = (unsigned)v;
	}
	t->dir = bs_kind_is_matrix(t->kind) ? BS_MAT_STACK : BS_BY_COL;
	if (o->access && bs_tile_dir_find(o->access, &t->dir) < 0)
		return usage_error("option --access: '%s' is not row, col, "
				   "chunks, stack, side or mma", o->access);
	t->swizzle = BS_SWIZZLE_NONE;
	if (o->swizzle && bs_swizzle_parse(o->swizzle, "--swizzle",
					   &t->swizzle, &t->cute, &err) < 0)
		return report_error(&err);
	t->name = o->name;
	return 0;
}

int shape_struct(const shape_options *o, bs_struct_spec *s)
{
	s->name = o->name;
	if (opt_small("--struct", o->structure, &s->struct_bytes) ||
	    opt_small("--field", o->field, &s->field))
		return EXIT_BADINPUT;
	return 0;
}

void tile_warn(const bs_tile_spec *t)
{
	char text[640];

	if (bs_tile_warning(t, text, sizeof text))
		fprintf(stderr, "bankscope: warning: %s\n", text);
}
