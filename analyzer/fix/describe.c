/*
 * describe.c - the texts of a fix: its label, the declaration after it,
 * the index change and what it requires, written only for the best change
 * and the alternative.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fix.h"

static const char *type_name(unsigned width)
{
	switch (width) {
	case 1: return "char";
	case 2: return "short";
	case 4: return "float";
	case 8: return "double";
	default: return "float4";
	}
}

/* The CUDA vector type of W bytes that holds W/width elements. */
const char *fix_vector_name(unsigned width, unsigned w)
{
	static const struct {
		unsigned width, w;
		const char *name;
	} v[] = {
		{ 1, 2, "char2" }, { 1, 4, "char4" }, { 1, 8, "uint2" },
		{ 1, 16, "uint4" }, { 2, 4, "short2" }, { 2, 8, "short4" },
		{ 2, 16, "uint4" }, { 4, 8, "float2" }, { 4, 16, "float4" },
		{ 8, 16, "double2" },
	};

	for (size_t i = 0; i < sizeof v / sizeof *v; i++)
		if (v[i].width == width && v[i].w == w)
			return v[i].name;
	return "uint4";
}

/* "1 float", "3 floats". */
static const char *count_of(char *buf, size_t size, unsigned n,
			    unsigned width)
{
	snprintf(buf, size, "%u %s%s", n, type_name(width), n == 1 ? "" : "s");
	return buf;
}

/* "pad rows by 1 float", "pad rows by 1 float instead of 3", ... */
static void pad_phrase(char *buf, size_t size, const char *what,
		       unsigned from, unsigned to, unsigned width)
{
	char n[32], m[32];

	if (!from)
		snprintf(buf, size, "pad %s by %s", what,
			 count_of(n, sizeof n, to, width));
	else if (!to)
		snprintf(buf, size, "drop the padding of %s",
			 count_of(n, sizeof n, from, width));
	else
		snprintf(buf, size, "pad %s by %s instead of %s", what,
			 count_of(n, sizeof n, to, width),
			 count_of(m, sizeof m, from, width));
}

/* Label of a pad or swizzle change on rows padded by `from` elements. */
static void layout_label(bs_fix_change *c, unsigned from, bs_swizzle was)
{
	char pad[96] = "";

	if (c->pad != from)
		pad_phrase(pad, sizeof pad, "rows", from, c->pad, c->width);
	if (c->kind == BS_FIX_PAD) {
		snprintf(c->label, sizeof c->label, "%s", pad);
		return;
	}
	snprintf(c->label, sizeof c->label, "%s%s%s",
		 was == BS_SWIZZLE_NONE ? "XOR-swizzle the columns"
					: "drop the XOR swizzle",
		 *pad ? ", " : "", pad);
}

/* The access writes shared memory (a store, or cp.async's destination). */
static int writes(bs_kind kind)
{
	const bs_kind_info *k = bs_kind_get(kind);

	return k && k->direction == BS_WRITES;
}

static void widen_label(bs_fix_change *c, unsigned width, bs_kind kind)
{
	snprintf(c->label, sizeof c->label, "%s %u %ss per lane as one %s",
		 writes(kind) ? "write" : "read", c->merged,
		 type_name(width), fix_vector_name(width, c->width));
}

static void widen_note(bs_fix_change *c, unsigned width, const char *what)
{
	char all[16] = "both";

	if (c->merged > 2)
		snprintf(all, sizeof all, "all %u", c->merged);
	snprintf(c->note, sizeof c->note, "v holds %s: one %u-byte access "
		 "instead of %u %u-byte ones, which cost %u wavefronts "
		 "together; it pays only if the code uses %s",
		 what, c->width, c->merged, width, c->merged_wavefronts, all);
}

static void widen_index(bs_fix_change *c, unsigned width, bs_kind kind,
			const char *ptr, const char *at)
{
	const char *v = fix_vector_name(width, c->width);

	if (writes(kind))
		snprintf(c->index_change, sizeof c->index_change,
			 "reinterpret_cast<%s *>(%s)[%s] = v;", v, ptr, at);
	else
		snprintf(c->index_change, sizeof c->index_change,
			 "%s v = reinterpret_cast<const %s *>(%s)[%s];", v, v,
			 ptr, at);
}

/*
 * A widening of rows: array (dims as declared) read or written W bytes a
 * lane at column c / (W / width) of the vector type, where the narrow
 * code took columns c - c % n .. c - c % n + n - 1 one by one.
 */
static void widen_rows(bs_fix_change *c, unsigned width, bs_kind kind,
		       const char *array, const char *dims)
{
	char row[16], at[32], what[96];

	widen_label(c, width, kind);
	snprintf(c->declaration, sizeof c->declaration,
		 "__shared__ __align__(%u) %s %s%s;  /* alignment only: +0 "
		 "bytes */", c->width, type_name(width), array, dims);
	snprintf(row, sizeof row, "%s[r]", array);
	snprintf(at, sizeof at, "c / %u", c->merged);
	widen_index(c, width, kind, row, at);
	snprintf(what, sizeof what, "%s[r][c - c %% %u] to %s[r][c - c %% %u "
		 "+ %u]", array, c->merged, array, c->merged, c->merged - 1);
	widen_note(c, width, what);
}

static void describe_tile(const bs_tile_spec *t, bs_fix_change *c)
{
	const char *type = type_name(t->width);
	unsigned cols = t->cols + c->pad, was = t->cols + t->pad;
	char dims[32];

	if (c->kind == BS_FIX_WIDEN) {
		snprintf(dims, sizeof dims, "[%u][%u]", t->rows, cols);
		widen_rows(c, t->width, t->kind, "tile", dims);
		return;
	}
	layout_label(c, t->pad, t->swizzle);
	if (cols != was)
		snprintf(c->declaration, sizeof c->declaration,
			 "__shared__ %s tile[%u][%u];  /* was [%u][%u]: "
			 "%+lld bytes */", type, t->rows, cols, t->rows, was,
			 (long long)c->extra_bytes);
	else
		snprintf(c->declaration, sizeof c->declaration,
			 "__shared__ %s tile[%u][%u];  /* unchanged: +0 bytes */",
			 type, t->rows, cols);
	if (c->kind == BS_FIX_PAD) {
		snprintf(c->note, sizeof c->note, "only the declaration "
			 "changes; every index stays as it is");
		return;
	}
	if (c->swizzle == BS_SWIZZLE_XOR)
		snprintf(c->index_change, sizeof c->index_change,
			 "tile[r][c ^ (r %% %u)]  /* was tile[r][c] */",
			 t->cols);
	else
		snprintf(c->index_change, sizeof c->index_change,
			 "tile[r][c]  /* was tile[r][c ^ (r %% %u)] */",
			 t->cols);
	snprintf(c->note, sizeof c->note, "every access to tile, stores "
		 "included, must use the new column index, or reads and "
		 "writes disagree on where an element lives");
}

static void describe_struct(const bs_struct_spec *st, bs_fix_change *c)
{
	const char *type = type_name(st->width);
	unsigned size = st->struct_bytes + c->pad * st->width;
	char at[32], what[96];

	if (c->kind == BS_FIX_WIDEN) {
		widen_label(c, st->width, st->kind);
		snprintf(c->declaration, sizeof c->declaration,
			 "struct __align__(%u) S { /* fields: %u bytes */ };  "
			 "/* alignment only: +0 bytes */", c->width,
			 st->struct_bytes);
		snprintf(at, sizeof at, "%u", st->field / c->width);
		widen_index(c, st->width, st->kind, "&arr[l]", at);
		snprintf(what, sizeof what, "bytes %u..%u of the struct, "
			 "the field and its neighbors",
			 st->field - st->field % c->width,
			 st->field - st->field % c->width + c->width - 1);
		widen_note(c, st->width, what);
		return;
	}
	pad_phrase(c->label, sizeof c->label, "the struct", 0, c->pad,
		   st->width);
	snprintf(c->declaration, sizeof c->declaration,
		 "struct S { /* fields: %u bytes */ %s pad[%u]; };  /* sizeof %u -> "
		 "%u: %+lld bytes for 32 structs */", st->struct_bytes, type,
		 c->pad, st->struct_bytes, size, (long long)c->extra_bytes);
	snprintf(c->note, sizeof c->note, "the fields keep their offsets; "
		 "each struct grows by %u bytes, counted for the 32 one warp "
		 "reads (an array of N structs: N * %u)", c->pad * st->width,
		 c->pad * st->width);
}

static void describe_access(const search *s, bs_fix_change *c)
{
	const bs_access *a = &s->out->before;
	const char *type = type_name(a->width);
	unsigned row = s->row + c->pad, per = c->pad * a->width;
	unsigned rows = per ? (unsigned)(c->extra_bytes / per) : 0;
	char dims[32];

	if (c->kind == BS_FIX_WIDEN) {
		snprintf(dims, sizeof dims, "[ROWS][%u]", s->row);
		widen_rows(c, a->width, a->kind, "a", dims);
		return;
	}
	layout_label(c, 0, BS_SWIZZLE_NONE);
	if (c->pad)
		snprintf(c->declaration, sizeof c->declaration,
			 "__shared__ %s a[ROWS][%u];  /* was [ROWS][%u]: +%u "
			 "bytes a row, %+lld for the %u rows the warp spans */",
			 type, row, s->row, per, (long long)c->extra_bytes,
			 rows);
	else
		snprintf(c->declaration, sizeof c->declaration,
			 "__shared__ %s a[ROWS][%u];  /* unchanged: +0 bytes */",
			 type, row);
	if (c->swizzle == BS_SWIZZLE_XOR)
		snprintf(c->index_change, sizeof c->index_change,
			 "a[r][c ^ (r %% %u)], flat (r * %u + (c ^ (r %% %u)))"
			 "  /* was a[r][c] */", s->row, row, s->row);
	else
		snprintf(c->index_change, sizeof c->index_change,
			 "flat index r * %u + c  /* was r * %u + c; a[r][c] "
			 "stays */", row, s->row);
	snprintf(c->note, sizeof c->note, "the access is read as rows of "
		 "%u %ss from base %llu (%s), element e at row e / %u, column "
		 "e %% %u%s", s->row, type, (unsigned long long)s->in->base,
		 s->in->row_elems ? "--row" : "the lane stride", s->row,
		 s->row, c->swizzle == BS_SWIZZLE_XOR ?
		 "; every access to a, stores included, must use the new "
		 "column" : "");
}

/* Element types of byte-layout tiles, by size: "half", "halves". */
static const char *elem_name(unsigned e, int plural)
{
	switch (e) {
	case 1: return plural ? "chars" : "char";
	case 2: return plural ? "halves" : "half";
	case 4: return plural ? "floats" : "float";
	case 8: return plural ? "doubles" : "double";
	default: return plural ? "uint4s" : "uint4";
	}
}

/* "8 halves (16 bytes)" */
static const char *amount(char *buf, size_t size, unsigned n, unsigned e)
{
	snprintf(buf, size, "%u %s (%u bytes)", n, elem_name(e, n != 1),
		 n * e);
	return buf;
}

/* "o ^ ((o >> 3) & 0x70)": Swizzle<B,M,S> on byte offset o. */
static void xor_text(char *buf, size_t size, bs_cute x)
{
	unsigned ones = (1u << x.bits) - 1;

	if (x.shift >= 0)
		snprintf(buf, size, "o ^ ((o >> %d) & 0x%x)", x.shift,
			 ones << x.base);
	else
		snprintf(buf, size, "o ^ ((o << %d) & 0x%x)", -x.shift,
			 ones << (x.base - x.shift));
}

static void describe_tile_bytes(const search *s, bs_fix_change *c)
{
	const bs_tile_spec *t = &s->in->tile;
	unsigned e = s->elem, cols = t->cols + c->pad, was = t->cols + t->pad;
	unsigned long long row = (unsigned long long)cols * e, repeat;
	const char *type = elem_name(e, 0);
	char pad[96] = "", n1[48], n2[48], old[32], shape[48], ox[48];
	size_t len;
	bs_cute x;

	if (c->pad != t->pad && !c->pad)
		snprintf(pad, sizeof pad, "drop the padding of %s",
			 amount(n1, sizeof n1, t->pad, e));
	else if (c->pad != t->pad && !t->pad)
		snprintf(pad, sizeof pad, "pad rows by %s",
			 amount(n1, sizeof n1, c->pad, e));
	else if (c->pad != t->pad)
		snprintf(pad, sizeof pad, "pad rows by %s instead of %s",
			 amount(n1, sizeof n1, c->pad, e),
			 amount(n2, sizeof n2, t->pad, e));
	bs_swizzle_name(t->swizzle, t->cute, old, sizeof old);
	if (cols != was)
		snprintf(shape, sizeof shape, "was [%u][%u]: %+lld bytes",
			 t->rows, was, (long long)c->extra_bytes);
	else
		snprintf(shape, sizeof shape, "unchanged: +0 bytes");
	if (c->kind == BS_FIX_PAD) {
		if (t->swizzle != BS_SWIZZLE_NONE)
			snprintf(c->label, sizeof c->label, "drop the %s "
				 "swizzle%s%s", old, *pad ? ", " : "", pad);
		else
			snprintf(c->label, sizeof c->label, "%s", pad);
		snprintf(c->declaration, sizeof c->declaration,
			 "__shared__ %s tile[%u][%u];  /* %s */", type,
			 t->rows, cols, shape);
		if (t->swizzle != BS_SWIZZLE_NONE)
			snprintf(c->index_change, sizeof c->index_change,
				 "tile[r][c] at byte r * %llu + c * %u, "
				 "unswizzled  /* was swizzled with %s */", row,
				 e, old);
		snprintf(c->note, sizeof c->note, "costs shared memory, and "
			 "TMA cannot fill a padded tile: it writes each box "
			 "densely, rows of boxDim[0] x element size bytes; no "
			 "TMA or wgmma swizzle atom has rows of %llu bytes", row);
		return;
	}
	bs_swizzle_bytes(c->swizzle, c->cute, &x);
	repeat = 1ull << (x.base + abs(x.shift) + x.bits);
	if (c->swizzle == BS_SWIZZLE_CUTE)
		len = (size_t)snprintf(c->label, sizeof c->label, "swizzle with "
				       "CuTe Swizzle<%d,%d,%d> (no TMA mode)",
				       x.bits, x.base, x.shift);
	else
		len = (size_t)snprintf(c->label, sizeof c->label, "swizzle with "
				       "TMA SWIZZLE_%uB (CuTe Swizzle<%d,%d,%d>)",
				       16u << x.bits, x.bits, x.base, x.shift);
	if (t->swizzle != BS_SWIZZLE_NONE && len < sizeof c->label)
		len += (size_t)snprintf(c->label + len, sizeof c->label - len,
					" instead of %s", old);
	if (*pad && len < sizeof c->label)
		snprintf(c->label + len, sizeof c->label - len, ", %s", pad);
	snprintf(c->declaration, sizeof c->declaration,
		 "__shared__ __align__(%llu) %s tile[%u][%u];  /* %s; aligned "
		 "to the %llu-byte repeat */", repeat, type, t->rows, cols,
		 shape, repeat);
	xor_text(ox, sizeof ox, x);
	snprintf(c->index_change, sizeof c->index_change, "tile[r][c] at byte "
		 "o = r * %llu + c * %u is stored at %s", row, e, ox);
	if (c->swizzle == BS_SWIZZLE_CUTE) {
		snprintf(c->note, sizeof c->note, "no TMA mode writes this "
			 "pattern%s and no wgmma descriptor reads it: the code "
			 "that fills the tile and the code that reads it must "
			 "both XOR these bits, from a base that is a multiple "
			 "of %llu bytes", x.base == 4 && x.shift == 3 ?
			 " (its rows are wider than the mode's span)" : "",
			 repeat);
		return;
	}
	snprintf(c->note, sizeof c->note, "a TMA load writes this layout with "
		 "CU_TENSOR_MAP_SWIZZLE_%uB; code that addresses the tile "
		 "itself (ldmatrix, stmatrix, cp.async, ld, st) must XOR the "
		 "same bits, from a base that is a multiple of %llu bytes",
		 16u << x.bits, repeat);
	snprintf(c->warning, sizeof c->warning, "the sm_90 wgmma matrix "
		 "descriptor numbers swizzle modes in the reverse order of "
		 "CUtensorMapSwizzle (descriptor bits 62-63: 128B 1, 64B 2, "
		 "32B 3, none 0; TMA: NONE 0, 32B 1, 64B 2, 128B 3): this tile "
		 "is CU_TENSOR_MAP_SWIZZLE_%uB = %d for TMA and layout type %d "
		 "for wgmma", 16u << x.bits, x.bits, 4 - x.bits);
}

void fix_describe(const search *s, bs_fix_change *c)
{
	switch (c->kind == BS_FIX_NONE ? -1 : (int)s->in->source) {
	case BS_FIX_FROM_TILE:
		if (s->bytes)
			describe_tile_bytes(s, c);
		else
			describe_tile(&s->in->tile, c);
		break;
	case BS_FIX_FROM_STRUCT:
		describe_struct(&s->in->strct, c);
		break;
	case BS_FIX_FROM_ACCESS:
		describe_access(s, c);
		break;
	default:
		break;
	}
}
