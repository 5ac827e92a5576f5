/*
 * shapes.c - the accesses CUDA code writes most: 2-D tiles and structs.
 *
 * A tile is rows x cols elements of `width` bytes, stored row by row with
 * `pad` extra elements at the end of each row, so a row is (cols + pad) *
 * width bytes.  BY_ROW: lane l reads tile[index][l] and lanes l >= cols
 * sit out; BY_COL: lane l reads tile[l][index] and lanes l >= rows sit
 * out.  With the XOR swizzle, logical column c of row r is stored at
 * physical column c ^ (r % cols), which needs cols to be a power of two
 * so that every row stays a permutation of its own columns.
 *
 * A struct access is array[l].field for all 32 lanes: base +
 * l*struct_bytes + field.  The field must lie inside the struct and every
 * lane's address must be aligned to the width, so both the struct size
 * and the field offset must be multiples of it.
 *
 * Errors name the option a command line would take the bad value from:
 * --tile, --index, --swizzle, --struct, --field, --width, --base, --name.
 * An access name left NULL is built from the spec: "tile32x33_col0",
 * "tile32x32_row3_xor", "struct132_f0".
 */
#include <string.h>

#include "bankscope.h"

/*
 * Lanes that supply no address for the kind (lanes 8-31 of ldsm.x1) sit
 * out, as the hardware ignores them.
 */
static void mask_lanes(bs_access *a)
{
	uint32_t keep = bs_kind_get(a->kind)->addr_lanes;

	a->active &= keep;
	for (unsigned l = 0; l < BS_LANES; l++)
		if (!(keep >> l & 1))
			a->addr[l] = 0;
}

/* The checks the two shapes share: kind and width, base, name. */
static int check_common(bs_kind kind, unsigned width, uint64_t base,
			const char *name, bs_error *err)
{
	if (bs_kind_check_width(kind, width, "--width", err) < 0)
		return -1;
	if (base % width)
		return bs_error_set(err, "--base", 0, 0, "base %llu is not "
				    "aligned to the %u-byte width",
				    (unsigned long long)base, width);
	if (base > UINT32_MAX)
		return bs_error_set(err, "--base", 0, 0, "base %llu is beyond "
				    "the 32-bit shared window",
				    (unsigned long long)base);
	if (name && strlen(name) >= BS_NAME_MAX)
		return bs_error_set(err, "--name", 0, 0, "access name longer "
				    "than %d bytes", BS_NAME_MAX - 1);
	return 0;
}

int bs_tile_access(const bs_tile_spec *s, bs_access *out, bs_error *err)
{
	uint64_t stride = (uint64_t)s->cols + s->pad;
	int by_row = s->dir == BS_BY_ROW;
	unsigned lanes;
	bs_access a;

	if (s->rows < 1 || s->cols < 1)
		return bs_error_set(err, "--tile", 0, 0, "tile has %u rows and "
				    "%u columns: both must be at least 1",
				    s->rows, s->cols);
	if (s->dir != BS_BY_ROW && s->dir != BS_BY_COL)
		return bs_error_set(err, "--tile", 0, 0, "unknown tile "
				    "direction %d", (int)s->dir);
	if (s->swizzle != BS_SWIZZLE_NONE && s->swizzle != BS_SWIZZLE_XOR)
		return bs_error_set(err, "--swizzle", 0, 0, "unknown swizzle "
				    "%d", (int)s->swizzle);
	if (s->swizzle == BS_SWIZZLE_XOR && (s->cols & (s->cols - 1)))
		return bs_error_set(err, "--swizzle", 0, 0, "the XOR swizzle "
				    "needs a power-of-two column count, not "
				    "%u", s->cols);
	if (by_row && s->index >= s->rows)
		return bs_error_set(err, "--index", 0, 0, "row %u is outside "
				    "the tile's %u rows", s->index, s->rows);
	if (!by_row && s->index >= s->cols)
		return bs_error_set(err, "--index", 0, 0, "column %u is "
				    "outside the tile's %u columns", s->index,
				    s->cols);
	if (check_common(s->kind, s->width, s->base, s->name, err) < 0)
		return -1;

	memset(&a, 0, sizeof a);
	if (s->name)
		snprintf(a.name, sizeof a.name, "%s", s->name);
	else
		snprintf(a.name, sizeof a.name, "tile%ux%llu_%s%u%s", s->rows,
			 (unsigned long long)stride, by_row ? "row" : "col",
			 s->index,
			 s->swizzle == BS_SWIZZLE_XOR ? "_xor" : "");
	a.width = s->width;
	a.kind = s->kind;
	lanes = by_row ? s->cols : s->rows;
	for (unsigned l = 0; l < BS_LANES && l < lanes; l++) {
		unsigned r = by_row ? s->index : l;
		unsigned c = by_row ? l : s->index;
		uint64_t pc = c, elem, addr;

		if (s->swizzle == BS_SWIZZLE_XOR)
			pc = c ^ (r % s->cols);
		if (__builtin_mul_overflow((uint64_t)r, stride, &elem) ||
		    __builtin_add_overflow(elem, pc, &elem) ||
		    __builtin_mul_overflow(elem, (uint64_t)s->width, &addr) ||
		    __builtin_add_overflow(addr, s->base, &addr) ||
		    addr > UINT32_MAX)
			return bs_error_set(err, "--tile", 0, 0, "lane %u: "
					    "tile[%u][%u] lies beyond the "
					    "32-bit shared window", l, r, c);
		a.addr[l] = (uint32_t)addr;
		a.active |= 1u << l;
	}
	mask_lanes(&a);
	*out = a;
	return 0;
}

int bs_struct_access(const bs_struct_spec *s, bs_access *out, bs_error *err)
{
	uint64_t last;
	bs_access a;

	if (s->struct_bytes < 1)
		return bs_error_set(err, "--struct", 0, 0, "struct size must "
				    "be at least 1 byte");
	if (check_common(s->kind, s->width, s->base, s->name, err) < 0)
		return -1;
	if ((uint64_t)s->field + s->width > s->struct_bytes)
		return bs_error_set(err, "--field", 0, 0, "a %u-byte field at "
				    "offset %u runs past the %u-byte struct",
				    s->width, s->field, s->struct_bytes);
	if (s->field % s->width)
		return bs_error_set(err, "--field", 0, 0, "field offset %u is "
				    "not aligned to the %u-byte width",
				    s->field, s->width);
	if (s->struct_bytes % s->width)
		return bs_error_set(err, "--struct", 0, 0, "struct size %u is "
				    "not a multiple of the %u-byte width, so "
				    "lane 1's address is misaligned",
				    s->struct_bytes, s->width);
	last = s->base + (uint64_t)(BS_LANES - 1) * s->struct_bytes + s->field;
	if (last > UINT32_MAX)
		return bs_error_set(err, "--struct", 0, 0, "lane 31: address "
				    "%llu is beyond the 32-bit shared window",
				    (unsigned long long)last);

	memset(&a, 0, sizeof a);
	if (s->name)
		snprintf(a.name, sizeof a.name, "%s", s->name);
	else
		snprintf(a.name, sizeof a.name, "struct%u_f%u",
			 s->struct_bytes, s->field);
	a.width = s->width;
	a.kind = s->kind;
	a.active = UINT32_MAX;
	for (unsigned l = 0; l < BS_LANES; l++)
		a.addr[l] = (uint32_t)(s->base + (uint64_t)l * s->struct_bytes +
				       s->field);
	mask_lanes(&a);
	*out = a;
	return 0;
}
