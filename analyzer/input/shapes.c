/*
 * shapes.c - the accesses CUDA code writes most: 2-D tiles and structs.
 *
 * A tile is rows x cols elements of `elem` bytes (the access width unless
 * given), stored row by row with `pad` extra elements at the end of each
 * row, so a row is (cols + pad) * elem bytes.  A lane reads `width` bytes,
 * whole elements.  BY_ROW: lane l reads the l-th piece of row index, and
 * lanes past the row sit out; BY_COL: lane l reads at column index of row
 * l, and lanes l >= rows sit out; BY_CHUNKS: lane l reads the l-th chunk
 * counted row by row from row index, lanes past the tile sitting out.
 * The matrix modes place ldmatrix/stmatrix's 8x8 matrices: address lane
 * 8m+i gives the 16-byte row i of matrix m (bs_input.h), and every matrix
 * must lie inside the tile.  When elements are narrower than the access,
 * rows must be a multiple of the access width, or the rows after the
 * first would start misaligned.
 *
 * With the XOR swizzle, logical column c of row r is stored at physical
 * column c ^ (r % cols), which needs cols to be a power of two so that
 * every row stays a permutation of its own columns, and elements as wide
 * as the access.  The byte swizzles (tma32, tma64, tma128, cute:B,M,S)
 * are applied to the whole byte address, base included, as TMA applies
 * them; their 2^M-byte units must hold a whole access.
 *
 * A struct access is array[l].field for all 32 lanes: base +
 * l*struct_bytes + field.  The field must lie inside the struct and every
 * lane's address must be aligned to the width, so both the struct size
 * and the field offset must be multiples of it.
 *
 * Errors name the option a command line would take the bad value from:
 * --tile, --index, --column, --access, --elem, --swizzle, --struct,
 * --field, --width, --base, --name.  An access name left NULL is built
 * from the spec: "tile32x33_col0", "tile32x32_row3_xor",
 * "tile64x64e2_stack0_tma128" (elements of 2 bytes), "struct132_f0".
 */
#include <string.h>

#include "bs_input.h"

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

int bs_kind_is_matrix(bs_kind k)
{
	const bs_kind_info *info = bs_kind_get(k);

	return info && (!strncmp(info->sass, "LDSM", 4) ||
			!strncmp(info->sass, "STSM", 4));
}

static const char *const dir_names[] = { "row", "col", "chunks", "stack",
					 "side", "mma" };
#define NDIRS (sizeof dir_names / sizeof *dir_names)

int bs_tile_dir_find(const char *name, bs_tile_dir *out)
{
	for (unsigned d = 0; d < NDIRS; d++)
		if (!strcmp(name, dir_names[d])) {
			*out = (bs_tile_dir)d;
			return 0;
		}
	return -1;
}

const char *bs_tile_dir_name(bs_tile_dir d)
{
	return (unsigned)d < NDIRS ? dir_names[d] : "?";
}

static int matrix_dir(bs_tile_dir d)
{
	return d == BS_MAT_STACK || d == BS_MAT_SIDE || d == BS_MAT_MMA;
}

/* Row block and 16-byte column block of matrix m. */
static void matrix_block(bs_tile_dir d, unsigned m, unsigned *rb,
			 unsigned *cb)
{
	*rb = d == BS_MAT_STACK ? m : d == BS_MAT_MMA ? m % 2 : 0;
	*cb = d == BS_MAT_SIDE ? m : d == BS_MAT_MMA ? m / 2 : 0;
}

/* The swizzle, kind, mode and element checks; *elem is the element size. */
static int tile_layout_check(const bs_tile_spec *s, unsigned *elem,
			     bs_error *err)
{
	char sw[32];
	bs_cute c;

	*elem = s->elem ? s->elem : s->width;
	if ((unsigned)s->dir >= NDIRS)
		return bs_error_set(err, "--tile", 0, 0, "unknown tile "
				    "direction %d", (int)s->dir);
	if ((unsigned)s->swizzle > BS_SWIZZLE_CUTE)
		return bs_error_set(err, "--swizzle", 0, 0, "unknown swizzle "
				    "%d", (int)s->swizzle);
	if (s->swizzle == BS_SWIZZLE_CUTE &&
	    bs_cute_check(s->cute, "--swizzle", err) < 0)
		return -1;
	if (s->elem && bs_width_index(s->elem) < 0)
		return bs_error_set(err, "--elem", 0, 0, "elements of %u bytes: "
				    "not 1, 2, 4, 8 or 16", s->elem);
	if (s->elem && bs_width_index(s->width) >= 0 && s->elem > s->width)
		return bs_error_set(err, "--elem", 0, 0, "elements of %u bytes "
				    "are wider than the %u-byte access: an "
				    "access holds whole elements", *elem,
				    s->width);
	if (!bs_kind_get(s->kind) || bs_width_index(s->width) < 0)
		return 0;       /* check_common names them */
	if (matrix_dir(s->dir) && !bs_kind_is_matrix(s->kind))
		return bs_error_set(err, "--access", 0, 0, "%s places the 8x8 "
				    "matrices of ldmatrix and stmatrix (ldsm.*, "
				    "stsm.*), not %s accesses: use row, col or "
				    "chunks", bs_tile_dir_name(s->dir),
				    bs_kind_name(s->kind));
	if (!matrix_dir(s->dir) && bs_kind_is_matrix(s->kind))
		return bs_error_set(err, "--access", 0, 0, "%s gives the "
				    "16-byte rows of 8x8 matrices: use stack, "
				    "side or mma, not %s", bs_kind_name(s->kind),
				    bs_tile_dir_name(s->dir));
	if (s->column && !matrix_dir(s->dir))
		return bs_error_set(err, "--column", 0, 0, "a first column goes "
				    "with the matrix modes (stack, side, mma); "
				    "%s uses --index", bs_tile_dir_name(s->dir));
	if (s->swizzle == BS_SWIZZLE_XOR && *elem != s->width)
		return bs_error_set(err, "--swizzle", 0, 0, "xor moves single "
				    "elements: it needs elements as wide as the "
				    "%u-byte access, not %u bytes (tma32, tma64, "
				    "tma128 and cute:B,M,S move 16-byte units)",
				    s->width, *elem);
	if (bs_swizzle_bytes(s->swizzle, s->cute, &c) && c.bits &&
	    (1u << c.base) < s->width) {
		bs_swizzle_name(s->swizzle, s->cute, sw, sizeof sw);
		return bs_error_set(err, "--swizzle", 0, 0, "%s moves %u-byte "
				    "units, narrower than the %u-byte access, "
				    "which it would split: M must be at least "
				    "%d", sw, 1u << c.base, s->width,
				    __builtin_ctz(s->width));
	}
	return 0;
}

/* Where the access's lanes fall: the checks of index, column, rows. */
static int tile_place_check(const bs_tile_spec *s, unsigned elem,
			    bs_error *err)
{
	uint64_t row = ((uint64_t)s->cols + s->pad) * elem;
	uint64_t data = (uint64_t)s->cols * elem;
	unsigned w = s->width;
	const char *kind = bs_kind_name(s->kind);

	if (s->dir == BS_BY_ROW || s->dir == BS_BY_CHUNKS ||
	    matrix_dir(s->dir)) {
		if (s->index >= s->rows)
			return bs_error_set(err, "--index", 0, 0, "row %u is "
					    "outside the tile's %u rows",
					    s->index, s->rows);
	} else if (s->index >= s->cols) {
		return bs_error_set(err, "--index", 0, 0, "column %u is "
				    "outside the tile's %u columns", s->index,
				    s->cols);
	} else if ((uint64_t)s->index * elem % w) {
		return bs_error_set(err, "--index", 0, 0, "column %u starts "
				    "%llu bytes into a %u-byte unit: a %u-byte "
				    "access must be aligned (columns in steps "
				    "of %u)", s->index,
				    (unsigned long long)((uint64_t)s->index *
							 elem % w), w, w,
				    w / elem);
	} else if ((uint64_t)s->index * elem + w > data) {
		return bs_error_set(err, "--index", 0, 0, "a %u-byte access at "
				    "column %u runs past the tile's %u columns",
				    w, s->index, s->cols);
	}
	if (s->dir == BS_BY_CHUNKS && data % w)
		return bs_error_set(err, "--tile", 0, 0, "rows of %llu bytes "
				    "(%u elements of %u bytes) do not split "
				    "into %u-byte chunks",
				    (unsigned long long)data, s->cols, elem, w);
	if (elem != w && row % w)
		return bs_error_set(err, s->pad ? "--pad" : "--tile", 0, 0,
				    "rows of %llu bytes (%u + %u elements of "
				    "%u bytes) are not a multiple of the %u-byte "
				    "access, so rows after the first start "
				    "misaligned", (unsigned long long)row,
				    s->cols, s->pad, elem, w);
	if (matrix_dir(s->dir)) {
		const bs_kind_info *k = bs_kind_get(s->kind);
		unsigned n = (unsigned)__builtin_popcount(k->addr_lanes) / 8;
		unsigned rb, cb, nrows, nbytes;
		uint64_t first = (uint64_t)s->column * elem;

		matrix_block(s->dir, n - 1, &rb, &cb);
		nrows = 8 * (rb + 1);
		nbytes = 16 * (cb + 1);
		if (first % 16)
			return bs_error_set(err, "--column", 0, 0, "column %u "
					    "starts %llu bytes into a 16-byte "
					    "unit: the rows %s gives must be "
					    "16-byte aligned (columns in steps "
					    "of %u)", s->column,
					    (unsigned long long)(first % 16),
					    kind, 16 / elem);
		if (s->rows < nrows || data < nbytes)
			return bs_error_set(err, "--tile", 0, 0, "%s with "
					    "--access %s covers %u rows of %u "
					    "bytes: the tile has %u rows of %llu "
					    "bytes",
					    kind, bs_tile_dir_name(s->dir),
					    nrows, nbytes, s->rows,
					    (unsigned long long)data);
		if ((uint64_t)s->index + nrows > s->rows)
			return bs_error_set(err, "--index", 0, 0, "%s from row "
					    "%u covers rows %u-%llu: the tile "
					    "has %u", kind, s->index, s->index,
					    (unsigned long long)s->index +
						    nrows - 1, s->rows);
		if (first + nbytes > data)
			return bs_error_set(err, "--column", 0, 0, "%s from "
					    "column %u covers bytes %llu-%llu "
					    "of a row: the tile's rows hold "
					    "%llu", kind, s->column,
					    (unsigned long long)first,
					    (unsigned long long)(first + nbytes -
								 1),
					    (unsigned long long)data);
	}
	return 0;
}

static void tile_name(const bs_tile_spec *s, unsigned elem, bs_access *a)
{
	char sw[40] = "", el[16] = "", col[16] = "";

	if (s->name) {
		snprintf(a->name, sizeof a->name, "%s", s->name);
		return;
	}
	if (s->swizzle == BS_SWIZZLE_CUTE)
		snprintf(sw, sizeof sw, "_cute%d_%d_%d", s->cute.bits,
			 s->cute.base, s->cute.shift);
	else if (s->swizzle != BS_SWIZZLE_NONE) {
		sw[0] = '_';
		bs_swizzle_name(s->swizzle, s->cute, sw + 1, sizeof sw - 1);
	}
	if (elem != s->width)
		snprintf(el, sizeof el, "e%u", elem);
	if (s->column)
		snprintf(col, sizeof col, "c%u", s->column);
	snprintf(a->name, sizeof a->name, "tile%ux%llu%s_%s%u%s%s", s->rows,
		 (unsigned long long)s->cols + s->pad, el,
		 bs_tile_dir_name(s->dir), s->index, col, sw);
}

/*
 * Where the bytes at *cb of logical row r lie: XOR moves an element of the
 * row's data to column (cb / elem) ^ (r % cols) (*cb becomes its byte in
 * the row; the padding does not move), then base + r x row bytes + *cb,
 * and a byte swizzle applied to that address last.  bs_tile_access places
 * its lanes with it, and the lab draws the tile with it.
 */
int bs_tile_addr(const bs_tile_spec *s, uint64_t r, uint64_t *cb,
		 uint32_t *out)
{
	unsigned elem = s->elem ? s->elem : s->width;
	uint64_t stride = ((uint64_t)s->cols + s->pad) * elem, addr;
	bs_cute sw;

	if (s->swizzle == BS_SWIZZLE_XOR && *cb < (uint64_t)s->cols * elem)
		*cb = (*cb / elem ^ r % s->cols) * elem + *cb % elem;
	if (__builtin_mul_overflow(r, stride, &addr) ||
	    __builtin_add_overflow(addr, *cb, &addr) ||
	    __builtin_add_overflow(addr, s->base, &addr) ||
	    addr > UINT32_MAX - (s->width - 1))
		return -1;
	if (bs_swizzle_bytes(s->swizzle, s->cute, &sw))
		addr = bs_cute_apply(sw, (uint32_t)addr);
	*out = (uint32_t)addr;
	return 0;
}

int bs_tile_access(const bs_tile_spec *s, bs_access *out, bs_error *err)
{
	uint64_t data;
	unsigned elem, nmat = 0;
	bs_access a;

	if (s->rows < 1 || s->cols < 1)
		return bs_error_set(err, "--tile", 0, 0, "tile has %u rows and "
				    "%u columns: both must be at least 1",
				    s->rows, s->cols);
	if (tile_layout_check(s, &elem, err) < 0)
		return -1;
	if (s->swizzle == BS_SWIZZLE_XOR && (s->cols & (s->cols - 1)))
		return bs_error_set(err, "--swizzle", 0, 0, "the XOR swizzle "
				    "needs a power-of-two column count, not "
				    "%u", s->cols);
	if (check_common(s->kind, s->width, s->base, s->name, err) < 0 ||
	    tile_place_check(s, elem, err) < 0)
		return -1;

	memset(&a, 0, sizeof a);
	tile_name(s, elem, &a);
	a.width = s->width;
	a.kind = s->kind;
	data = (uint64_t)s->cols * elem;
	if (matrix_dir(s->dir))
		nmat = (unsigned)__builtin_popcount(
			bs_kind_get(s->kind)->addr_lanes) / 8;
	for (unsigned l = 0; l < BS_LANES; l++) {
		uint64_t r, cb;
		unsigned rb, mb;

		switch (s->dir) {
		case BS_BY_ROW:
			r = s->index;
			cb = (uint64_t)l * s->width;
			if (cb + s->width > data)
				continue;
			break;
		case BS_BY_COL:
			r = l;
			cb = (uint64_t)s->index * elem;
			if (r >= s->rows)
				continue;
			break;
		case BS_BY_CHUNKS:
			r = s->index + l / (data / s->width);
			cb = l % (data / s->width) * s->width;
			if (r >= s->rows)
				continue;
			break;
		default:
			if (l / 8 >= nmat)
				continue;
			matrix_block(s->dir, l / 8, &rb, &mb);
			r = s->index + 8 * rb + l % 8;
			cb = (uint64_t)s->column * elem + 16 * mb;
			break;
		}
		if (bs_tile_addr(s, r, &cb, &a.addr[l]) < 0)
			return bs_error_set(err, "--tile", 0, 0, "lane %u: "
					    "tile[%llu][%llu] lies beyond the "
					    "32-bit shared window", l,
					    (unsigned long long)r,
					    (unsigned long long)(cb / elem));
		a.active |= 1u << l;
	}
	mask_lanes(&a);
	*out = a;
	return 0;
}

size_t bs_tile_warning(const bs_tile_spec *s, char *buf, size_t size)
{
	unsigned elem = s->elem ? s->elem : s->width;
	uint64_t row = ((uint64_t)s->cols + s->pad) * elem;
	size_t n = 0;
	char name[32];
	bs_cute c;
	uint64_t repeat, span;

	if (size)
		buf[0] = '\0';
	if (!bs_swizzle_bytes(s->swizzle, s->cute, &c) || !c.bits ||
	    bs_cute_check(c, "", NULL) < 0 || !size)
		return 0;
	bs_swizzle_name(s->swizzle, s->cute, name, sizeof name);
	repeat = 1ull << (c.base + (c.shift < 0 ? -c.shift : c.shift) +
			  c.bits);
	if (s->base % repeat)
		n += (size_t)snprintf(buf, size, "base %llu is not a multiple "
				      "of %llu bytes, the repeat of %s: the "
				      "swizzle acts on shared addresses (as "
				      "TMA writes them), so the tile's "
				      "pattern starts part-way in, and code "
				      "that swizzles offsets from the base "
				      "disagrees with it; align the tile to "
				      "%llu bytes",
				      (unsigned long long)s->base,
				      (unsigned long long)repeat, name,
				      (unsigned long long)repeat);
	span = 16ull << c.bits;
	if (s->swizzle != BS_SWIZZLE_CUTE && row > span && n < size)
		n += (size_t)snprintf(buf + n, size - n, "%srows of %llu "
				      "bytes are wider than the %llu-byte span "
				      "of %s: no one TMA box writes them "
				      "(cuTensorMapEncodeTiled needs boxDim[0] "
				      "x element size <= %llu bytes); CUTLASS "
				      "builds such tiles from %llu-byte-wide "
				      "atoms", n ? "; " : "",
				      (unsigned long long)row,
				      (unsigned long long)span, name,
				      (unsigned long long)span,
				      (unsigned long long)span);
	return n < size ? n : size - 1;
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
