/*
 * lab.c - the entry point of the browser lab (web/index.html): the
 * library's model, compiled to WebAssembly, behind a few functions that
 * take text and leave their results as numbers in fixed arrays, so that
 * the page reads data, never parses printed output.
 *
 * Text goes in through web_buf(i, n) (two buffers: 0 the input, 1 a name);
 * results come out in web_res(slot) (uint32 fields at the WR_* indices
 * below, four slots), web_num(slot) (doubles at WD_*) and the strings of
 * web_str(i).  Every function returns 0 (or a count) on success and -1
 * with the error in web_str(WS_ERROR), which names the field the way the
 * CLI names its option ("--expr: column 5: ...", "dataset.csv:12: ...").
 *
 * An access is described by "key=value" lines, the keys being the
 * CLI's option names without the dashes: expr, active, warp, tile, pad,
 * access, index, swizzle, elem, column, struct, field, width, kind, base,
 * name, and addrs (32 lane fields of the pattern format) for an access
 * given by its addresses.  The messages are the CLI's (cli/
 * shape.c), so that a student sees the same words in both.
 *
 * Datasets (two slots, for a side-by-side) are read with the library's
 * dataset reader and judged as bankscope check judges them.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bankscope.h"

/* Exported from the module; a plain function elsewhere (the tests). */
#ifdef __wasm__
#define EXPORT(name) __attribute__((export_name(#name)))
#else
#define EXPORT(name)
#endif

/* ---- the result arrays ------------------------------------------------ */

enum {
	WR_OK, WR_ACTIVE_LANES, WR_WAVEFRONTS, WR_IDEAL, WR_CONFLICTS,
	WR_MAX_WAY, WR_PHASES, WR_PACKED, WR_PASSES, WR_LOAD_WF, WR_CAS_WF,
	WR_BANKS, WR_BANK_BYTES, WR_WIDTH, WR_KIND, WR_ACTIVE, WR_NPHASES,
	WR_NCELLS, WR_COPY, WR_SERIAL, WR_PIPE_CLOCKS, WR_NPASSES,
	WR_REMOTE, WR_SECTORS, WR_LINES,   /* a remote kind's (dsmem.*); its
					      sectors go in the cells' place */
	WR_MIN_SECTORS,                    /* the fewest that hold its bytes */
	WR_ADDR = 32,                      /* 32 addresses */
	WR_PHASE = 64,                     /* 32 x 7: lanes, active, slots,
					      wavefronts, words, first_cell,
					      ncells */
	WR_PASS = 288,                     /* 32 x 5: pending, done, load_wf,
					      cas_phases, cas_wf */
	WR_CELL = 448,                     /* BS_MAX_CELLS x 5: phase, bank,
					      wave, word, lanes */
	WR_SIZE = WR_CELL + 5 * BS_MAX_CELLS,
};
enum { WD_LATENCY, WD_TP_RULE, WD_LAT_BASE, WD_LAT_SLOPE, WD_SIZE = 16 };
enum {
	WS_ERROR, WS_NAME, WS_KIND, WS_PROFILE, WS_WARNING, WS_FIX_LABEL,
	WS_FIX_DECL, WS_FIX_INDEX, WS_FIX_NOTE, WS_FIX_WARNING, WS_FIX_SUMMARY,
	WS_SOURCE, WS_COUNT
};

#define SLOTS 4
static uint32_t res[SLOTS][WR_SIZE];
static double num[SLOTS][WD_SIZE];
static char str[WS_COUNT][640];
static char *buf[2];
static size_t buf_size[2];

EXPORT(web_res) uint32_t *web_res(int slot)
{
	return res[slot & (SLOTS - 1)];
}

EXPORT(web_num) double *web_num(int slot)
{
	return num[slot & (SLOTS - 1)];
}

EXPORT(web_str) const char *web_str(int i)
{
	return i >= 0 && i < WS_COUNT ? str[i] : "";
}

/* Room for n bytes and a NUL in buffer i; NULL when out of memory. */
EXPORT(web_buf) char *web_buf(int i, size_t n)
{
	char *p;

	i &= 1;
	if (n + 1 > buf_size[i]) {
		p = realloc(buf[i], n + 1);
		if (!p)
			return NULL;
		buf[i] = p;
		buf_size[i] = n + 1;
	}
	buf[i][n] = '\0';
	return buf[i];
}

/* What buffer i holds; "" before anything was put there. */
EXPORT(web_text) const char *web_text(int i)
{
	return buf[i & 1] ? buf[i & 1] : "";
}

static int fail(const bs_error *err)
{
	bs_error_format(err, str[WS_ERROR], sizeof str[WS_ERROR]);
	return -1;
}

static int fail_text(const char *source, const char *fmt, const char *a)
{
	bs_error err;

	bs_error_set(&err, source, 0, 0, fmt, a);
	return fail(&err);
}

/* ---- architectures ------------------------------------------------------- */

static bs_arch user_arch;
static int have_user_arch;

/* 0 sm_90, 1 textbook, 2 the arch file the user opened. */
static const bs_arch *arch_of(int arch)
{
	if (arch == 2 && have_user_arch)
		return &user_arch;
	return arch == 1 ? bs_arch_find("textbook") : bs_arch_default();
}

/* The arch file in buffer 0, named by buffer 1. */
EXPORT(web_profile) int web_profile(void)
{
	bs_error err;

	if (!buf[0] || !buf[1])
		return fail_text("arch", "%s", "no arch file text");
	if (bs_arch_parse(buf[0], buf[1], &user_arch, &err) < 0) {
		have_user_arch = 0;
		return fail(&err);
	}
	have_user_arch = 1;
	snprintf(str[WS_PROFILE], sizeof str[WS_PROFILE], "%s",
		 user_arch.name);
	return 0;
}

/* ---- the access ------------------------------------------------------ */

/* The keys of an access, the CLI's options without their dashes. */
enum {
	K_EXPR, K_ACTIVE, K_WARP, K_TILE, K_PAD, K_ACCESS, K_INDEX, K_SWIZZLE,
	K_ELEM, K_COLUMN, K_STRUCT, K_FIELD, K_WIDTH, K_KIND, K_BASE, K_NAME,
	K_ADDRS, K_COUNT
};
static const char *const key_names[K_COUNT] = {
	"expr", "active", "warp", "tile", "pad", "access", "index", "swizzle",
	"elem", "column", "struct", "field", "width", "kind", "base", "name",
	"addrs",
};

static struct {
	const char *v[K_COUNT];
	char opt[K_COUNT][24];       /* "option --expr", as the CLI names it */
	bs_access access;
	bs_fix_input fix;
	int built;
} cur;

static int opt_num(int k, uint64_t max, uint64_t *out)
{
	bs_error err;
	int rc = bs_parse_u64(cur.v[k], max, out);

	if (rc == -1)
		bs_error_set(&err, cur.opt[k], 0, 0, "'%s' is not a "
			     "non-negative integer", cur.v[k]);
	else if (rc == -2)
		bs_error_set(&err, cur.opt[k], 0, 0, "%s is larger than %llu",
			     cur.v[k], (unsigned long long)max);
	return rc < 0 ? fail(&err) : 0;
}

static int opt_small(int k, unsigned *out)
{
	uint64_t v = 0;

	if (cur.v[k] && opt_num(k, 1u << 20, &v))
		return -1;
	*out = (unsigned)v;
	return 0;
}

/* Split buffer 0 into the keys' values (pointers into it). */
static int read_keys(void)
{
	char *p = buf[0];

	memset(cur.v, 0, sizeof cur.v);
	for (int k = 0; k < K_COUNT; k++)
		snprintf(cur.opt[k], sizeof cur.opt[k], "option --%s",
			 key_names[k]);
	while (p && *p) {
		char *nl = strchr(p, '\n'), *eq = strchr(p, '=');
		int k;

		if (nl)
			*nl = '\0';
		if (!eq || (nl && eq > nl))
			return fail_text("access", "'%s' is not key=value", p);
		*eq = '\0';
		for (k = 0; k < K_COUNT && strcmp(p, key_names[k]); k++)
			;
		if (k == K_COUNT)
			return fail_text("access", "unknown field '%s'", p);
		/* an empty field is a field not given */
		cur.v[k] = eq[1] ? eq + 1 : NULL;
		p = nl ? nl + 1 : NULL;
	}
	return 0;
}

/* The kind and width, as shape_width_kind() takes them. */
static int width_kind(unsigned *width, bs_kind *kind)
{
	const bs_kind_info *k;
	bs_error err;
	uint64_t v;

	*kind = BS_KIND_LD;
	if (cur.v[K_KIND] && bs_kind_find(cur.v[K_KIND], kind) < 0)
		return fail_text("option --kind", "'%s' is not an access kind "
				 "(bankscope archs --kinds lists them)",
				 cur.v[K_KIND]);
	k = bs_kind_get(*kind);
	*width = __builtin_popcount(k->widths) == 1
			 ? bs_widths[__builtin_ctz(k->widths)] : 4;
	if (cur.v[K_WIDTH]) {
		if (opt_num(K_WIDTH, 16, &v))
			return -1;
		if (bs_width_index((unsigned)v) < 0)
			return fail_text("option --width", "%s is not 1, 2, "
					 "4, 8 or 16", cur.v[K_WIDTH]);
		*width = (unsigned)v;
	}
	if (!bs_kind_allows_width(*kind, *width)) {
		char allowed[32];

		bs_kind_widths_text(*kind, allowed, sizeof allowed);
		bs_error_set(&err, "option --width", 0, 0, "%s takes %s bytes, "
			     "not %u", k->name, allowed, *width);
		return fail(&err);
	}
	return 0;
}

static int build_tile(bs_tile_spec *t)
{
	unsigned long rows, cols;
	bs_error err;
	char tail;

	if (sscanf(cur.v[K_TILE], "%lux%lu%c", &rows, &cols, &tail) != 2 ||
	    strchr(cur.v[K_TILE], '-'))
		return fail_text("option --tile", "'%s' is not ROWSxCOLS "
				 "(e.g. 32x32)", cur.v[K_TILE]);
	if (rows > 1u << 20 || cols > 1u << 20)
		return fail_text("option --tile", "%s is larger than 1048576 "
				 "elements a side", cur.v[K_TILE]);
	t->rows = (unsigned)rows;
	t->cols = (unsigned)cols;
	if (opt_small(K_PAD, &t->pad) || opt_small(K_INDEX, &t->index) ||
	    opt_small(K_COLUMN, &t->column))
		return -1;
	if (cur.v[K_ELEM]) {
		uint64_t v;

		if (opt_num(K_ELEM, 16, &v))
			return -1;
		if (bs_width_index((unsigned)v) < 0)
			return fail_text("option --elem", "%s is not 1, 2, "
					 "4, 8 or 16", cur.v[K_ELEM]);
		t->elem = (unsigned)v;
	}
	t->dir = bs_kind_is_matrix(t->kind) ? BS_MAT_STACK : BS_BY_COL;
	if (cur.v[K_ACCESS] && bs_tile_dir_find(cur.v[K_ACCESS], &t->dir) < 0)
		return fail_text("option --access", "'%s' is not row, col, "
				 "chunks, stack, side or mma", cur.v[K_ACCESS]);
	t->swizzle = BS_SWIZZLE_NONE;
	if (cur.v[K_SWIZZLE] && bs_swizzle_parse(cur.v[K_SWIZZLE], "--swizzle",
						 &t->swizzle, &t->cute,
						 &err) < 0)
		return fail(&err);
	t->name = cur.v[K_NAME];
	return 0;
}

/* The 32 addresses: a pattern line "NAME WIDTH KIND A0 ... A31". */
static int build_addrs(unsigned width, bs_kind kind)
{
	char line[4096];
	bs_error err;
	const char *name = cur.v[K_NAME] ? cur.v[K_NAME] : "lab";
	int rc;

	if (strlen(cur.v[K_ADDRS]) + 200 > sizeof line)
		return fail_text("--addrs", "%s", "too long");
	/* the name is one token of the line: blanks would split it */
	if (strpbrk(name, " \t#"))
		return fail_text("option --name", "'%s' holds a blank or '#'",
				 name);
	snprintf(line, sizeof line, "%s %u %s %s", name, width,
		 bs_kind_name(kind), cur.v[K_ADDRS]);
	rc = bs_parse_line(line, "--addrs", 0, &cur.access, &err);
	if (rc == 0)
		return fail_text("--addrs", "%s", "no addresses");
	if (rc < 0) {
		/* columns of the line, as the user typed the addresses */
		if (err.column > 0) {
			long skip = (long)(strlen(line) -
					   strlen(cur.v[K_ADDRS]));

			err.column = err.column > skip ? err.column - skip : 0;
		}
		return fail(&err);
	}
	cur.fix.source = BS_FIX_FROM_ACCESS;
	cur.fix.access = cur.access;
	return 0;
}

/*
 * Build the access buffer 0 describes: 0, or -1 with the error (and no
 * access: a later prediction fails rather than show a stale one).
 */
EXPORT(web_build) int web_build(void)
{
	unsigned width;
	bs_kind kind;
	uint64_t base = 0;
	bs_error err;
	int shapes;

	cur.built = 0;
	str[WS_WARNING][0] = '\0';
	memset(&cur.fix, 0, sizeof cur.fix);
	cur.fix.max_pad = -1;
	if (!buf[0])
		return fail_text("access", "%s", "nothing given");
	if (read_keys() || width_kind(&width, &kind))
		return -1;
	if (cur.v[K_BASE] && opt_num(K_BASE, UINT32_MAX, &base))
		return -1;
	shapes = !!cur.v[K_EXPR] + !!cur.v[K_TILE] + !!cur.v[K_STRUCT] +
		 !!cur.v[K_ADDRS];
	if (shapes != 1)
		return fail_text("access", "%s", shapes ? "give one of an "
				 "expression, a tile, a struct or 32 "
				 "addresses" : "no access: give an "
				 "expression, a tile, a struct or 32 "
				 "addresses");
	if (cur.v[K_ADDRS]) {
		if (build_addrs(width, kind))
			return -1;
	} else if (cur.v[K_EXPR]) {
		bs_expr_spec s = { .width = width, .kind = kind, .base = base,
				   .name = cur.v[K_NAME],
				   .index = cur.v[K_EXPR],
				   .active = cur.v[K_ACTIVE] };
		uint64_t w = 0;

		if (cur.v[K_WARP] && opt_num(K_WARP, 1u << 20, &w))
			return -1;
		s.warp = (int64_t)w;
		if (bs_access_from_expr(&s, &cur.access, &err) < 0)
			return fail(&err);
		cur.fix.source = BS_FIX_FROM_ACCESS;
		cur.fix.access = cur.access;
		cur.fix.base = base;
	} else if (cur.v[K_TILE]) {
		bs_tile_spec *t = &cur.fix.tile;

		*t = (bs_tile_spec){ .width = width, .kind = kind,
				     .base = base };
		if (build_tile(t))
			return -1;
		if (bs_tile_access(t, &cur.access, &err) < 0)
			return fail(&err);
		bs_tile_warning(t, str[WS_WARNING], sizeof str[WS_WARNING]);
		cur.fix.source = BS_FIX_FROM_TILE;
	} else {
		bs_struct_spec *s = &cur.fix.strct;

		*s = (bs_struct_spec){ .width = width, .kind = kind,
				       .base = base, .name = cur.v[K_NAME] };
		if (opt_small(K_STRUCT, &s->struct_bytes) ||
		    opt_small(K_FIELD, &s->field))
			return -1;
		if (bs_struct_access(s, &cur.access, &err) < 0)
			return fail(&err);
		cur.fix.source = BS_FIX_FROM_STRUCT;
	}
	/* the spec's strings point into buffer 0: the fix runs before it
	   changes (web_fix right after web_build) */
	snprintf(str[WS_NAME], sizeof str[WS_NAME], "%s", cur.access.name);
	snprintf(str[WS_KIND], sizeof str[WS_KIND], "%s",
		 bs_kind_name(cur.access.kind));
	cur.built = 1;
	return 0;
}

/* ---- prediction ------------------------------------------------------ */

static bs_detail detail;

/*
 * The pipe's clocks: each phase holds the pipe one clock per wavefront and
 * at least one clock (docs/model.md, "Throughput": measured on loads and
 * stores, not modeled by the architecture); 0 for a loop or a copy by lines.
 */
static unsigned pipe_clocks(const bs_detail *d)
{
	unsigned c = 0;

	if (d->npasses || d->copy)
		return 0;
	for (unsigned i = 0; i < d->nphases; i++)
		c += d->phase[i].wavefronts ? d->phase[i].wavefronts : 1;
	return c;
}

/* One phase, pass or cell of the detail: its n fields, in their order. */
static void put_fields(uint32_t *o, const uint32_t *fields, size_t n)
{
	memcpy(o, fields, n * sizeof *o);
}

static void fill(int slot, const bs_arch *p, const bs_access *a,
		 const bs_detail *d)
{
	uint32_t *r = res[slot];
	double *n = num[slot];
	const bs_rule *rule = bs_arch_rule(p, a->kind, a->width);
	bs_remote g;

	memset(r, 0, sizeof res[slot]);
	r[WR_OK] = 1;
	r[WR_ACTIVE_LANES] = d->sum.active_lanes;
	r[WR_WAVEFRONTS] = d->sum.wavefronts;
	r[WR_IDEAL] = d->sum.ideal_wavefronts;
	r[WR_CONFLICTS] = d->sum.bank_conflicts;
	r[WR_MAX_WAY] = d->sum.max_way;
	r[WR_PHASES] = d->sum.phases;
	r[WR_PACKED] = (uint32_t)d->sum.packed;
	r[WR_PASSES] = d->sum.passes;
	r[WR_LOAD_WF] = d->sum.load_wavefronts;
	r[WR_CAS_WF] = d->sum.cas_wavefronts;
	r[WR_BANKS] = p->banks;
	r[WR_BANK_BYTES] = p->bank_bytes;
	r[WR_WIDTH] = a->width;
	r[WR_KIND] = a->kind;
	r[WR_ACTIVE] = a->active;
	r[WR_NPHASES] = d->nphases;
	r[WR_NCELLS] = d->ncells;
	r[WR_COPY] = (uint32_t)d->copy;
	r[WR_SERIAL] = (uint32_t)d->serial;
	r[WR_PIPE_CLOCKS] = pipe_clocks(d);
	r[WR_NPASSES] = d->npasses;
	r[WR_REMOTE] = bs_kind_get(a->kind)->remote;
	r[WR_SECTORS] = d->sum.sectors;
	r[WR_LINES] = d->sum.lines;
	r[WR_MIN_SECTORS] = bs_kind_get(a->kind)->remote
				    ? bs_fix_fewest_sectors(a) : 0;
	for (unsigned l = 0; l < BS_LANES; l++)
		r[WR_ADDR + l] = a->addr[l];
	for (unsigned i = 0; i < d->nphases; i++) {
		const bs_phase *f = &d->phase[i];

		put_fields(r + WR_PHASE + 7 * i, (const uint32_t[7]){
			f->lanes, f->active, f->slots, f->wavefronts, f->words,
			f->first_cell, f->ncells }, 7);
	}
	for (unsigned i = 0; i < d->npasses; i++) {
		const bs_pass *x = &d->pass[i];

		put_fields(r + WR_PASS + 5 * i, (const uint32_t[5]){
			x->pending, x->done, x->load_wavefronts, x->cas_phases,
			x->cas_wavefronts }, 5);
	}
	for (unsigned i = 0; i < d->ncells; i++) {
		const bs_cell *c = &d->cell[i];

		put_fields(r + WR_CELL + 5 * i, (const uint32_t[5]){
			c->phase, c->bank, c->wave, c->word, c->lanes }, 5);
	}
	/* a remote kind has no cells: its sectors in their place, the
	   sector as the word (bs_remote_geometry's list) */
	if (bs_kind_get(a->kind)->remote && bs_remote_geometry(a, &g) == 0) {
		r[WR_NCELLS] = g.sectors;
		for (unsigned i = 0; i < g.sectors; i++)
			put_fields(r + WR_CELL + 5 * i, (const uint32_t[5]){
				0, 0, 0, g.sector[i], g.sector_lanes[i] }, 5);
	}
	n[WD_LATENCY] = d->sum.latency_cycles;
	n[WD_TP_RULE] = rule ? rule->tp_bytes_per_clk : NAN;
	n[WD_LAT_BASE] = rule ? (d->sum.packed ? rule->lat_packed
					       : rule->lat_base) : NAN;
	n[WD_LAT_SLOPE] = rule ? rule->lat_slope : NAN;
}

/* Predict the access web_build() made under architecture arch into slot. */
EXPORT(web_predict) int web_predict(int slot, int arch)
{
	const bs_arch *p = arch_of(arch);
	bs_error err;

	slot &= SLOTS - 1;
	res[slot][WR_OK] = 0;
	if (!cur.built)
		return fail_text("access", "%s", "no access to predict");
	snprintf(str[WS_PROFILE], sizeof str[WS_PROFILE], "%s", p->name);
	if (bs_predict_detail(p, &cur.access, &detail, &err) < 0)
		return fail(&err);
	fill(slot, p, &cur.access, &detail);
	return 0;
}

/* ---- the tile, element by element --------------------------------------- */

#define TILE_MAX 4096
static uint32_t tile_addr[TILE_MAX];

/* The tile web_build() made: 0 rows, 1 cols, 2 pad, 3 element bytes; 0
   when the access is not a tile. */
EXPORT(web_tile_shape) unsigned web_tile_shape(int i)
{
	const bs_tile_spec *t = &cur.fix.tile;

	if (!cur.built || cur.fix.source != BS_FIX_FROM_TILE)
		return 0;
	switch (i) {
	case 0: return t->rows;
	case 1: return t->cols;
	case 2: return t->pad;
	default: return t->elem ? t->elem : t->width;
	}
}

EXPORT(web_tile_addr) uint32_t *web_tile_addr(void)
{
	return tile_addr;
}

/*
 * Rows r0..r0+nr-1 and element columns c0..c0+nc-1 of that tile (columns
 * past cols are the row's padding): web_tile_addr()[i] the byte address
 * of element (r0 + i / nc, c0 + i % nc), placed by bs_tile_addr as the
 * access's lanes are.  nr x nc, or -1: no tile, a window past the tile or
 * TILE_MAX elements, an address past 32 bits.
 */
EXPORT(web_tile) int web_tile(unsigned r0, unsigned nr, unsigned c0,
			      unsigned nc)
{
	const bs_tile_spec *t = &cur.fix.tile;
	unsigned elem = web_tile_shape(3);

	if (!elem || !nr || !nc || nr > TILE_MAX / nc ||
	    (uint64_t)r0 + nr > t->rows ||
	    (uint64_t)c0 + nc > (uint64_t)t->cols + t->pad)
		return -1;
	for (unsigned i = 0; i < nr * nc; i++) {
		uint64_t cb = (uint64_t)(c0 + i % nc) * elem;

		if (bs_tile_addr(t, r0 + i / nc, &cb, &tile_addr[i]) < 0)
			return -1;
	}
	return (int)(nr * nc);
}

/* ---- the fix advisor ------------------------------------------------- */

static bs_fix fix;

/*
 * fix's answer for the access web_build() made, under architecture arch:
 * the change's texts in WS_FIX_*, the access after it predicted into slot.
 * Returns 1 with a change, 0 without one (WS_FIX_SUMMARY says why), -1
 * on error.
 */
EXPORT(web_fix) int web_fix(int slot, int arch)
{
	const bs_arch *p = arch_of(arch);
	const bs_fix_change *b = &fix.best;
	bs_error err;

	slot &= SLOTS - 1;
	res[slot][WR_OK] = 0;
	for (int i = WS_FIX_LABEL; i <= WS_FIX_SUMMARY; i++)
		str[i][0] = '\0';
	if (!cur.built)
		return fail_text("access", "%s", "no access to fix");
	if (bs_fix_search(p, &cur.fix, &fix, &err) < 0)
		return fail(&err);
	if (fix.remote && (fix.already_ideal || b->kind == BS_FIX_NONE)) {
		/* the CLI's words (bankscope fix), sectors not banks */
		if (fix.already_ideal)
			snprintf(str[WS_FIX_SUMMARY], sizeof str[WS_FIX_SUMMARY],
				 "no fix needed: %u sectors, the fewest that "
				 "hold its bytes", fix.sum_before.sectors);
		else
			snprintf(str[WS_FIX_SUMMARY], sizeof str[WS_FIX_SUMMARY],
				 "another CTA's shared memory is paid by "
				 "sectors, not banks: no padding, swizzle or "
				 "widening moves fewer than %u; %s",
				 fix.sum_before.sectors, fix.explanation);
		return 0;
	}
	if (fix.already_ideal) {
		snprintf(str[WS_FIX_SUMMARY], sizeof str[WS_FIX_SUMMARY],
			 "no fix needed: %u wavefronts = ideal",
			 fix.sum_before.wavefronts);
		return 0;
	}
	if (b->kind == BS_FIX_NONE) {
		snprintf(str[WS_FIX_SUMMARY], sizeof str[WS_FIX_SUMMARY],
			 "no change %s lowers the %u wavefronts%s%s",
			 fix.byte_layout ? "of TMA or CuTe swizzle or padding"
					 : "of padding, swizzle or widening",
			 fix.sum_before.wavefronts,
			 *fix.explanation ? "; " : "", fix.explanation);
		return 0;
	}
	snprintf(str[WS_FIX_LABEL], sizeof str[WS_FIX_LABEL], "%s", b->label);
	snprintf(str[WS_FIX_DECL], sizeof str[WS_FIX_DECL], "%s",
		 b->declaration);
	snprintf(str[WS_FIX_INDEX], sizeof str[WS_FIX_INDEX], "%s",
		 b->index_change);
	snprintf(str[WS_FIX_NOTE], sizeof str[WS_FIX_NOTE], "%s", b->note);
	snprintf(str[WS_FIX_WARNING], sizeof str[WS_FIX_WARNING], "%s",
		 b->warning);
	snprintf(str[WS_FIX_SUMMARY], sizeof str[WS_FIX_SUMMARY],
		 "%s: %u -> %u wavefronts (ideal %u)%s", b->label,
		 fix.sum_before.wavefronts, b->sum.wavefronts,
		 fix.sum_before.ideal_wavefronts,
		 fix.reaches_ideal ? "" : "; the best found, not ideal");
	if (bs_predict_detail(p, &b->access, &detail, &err) < 0)
		return fail(&err);
	fill(slot, p, &b->access, &detail);
	return 1;
}
