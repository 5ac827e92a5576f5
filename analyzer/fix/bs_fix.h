/*
 * bs_fix.h - the fix advisor: the layout change that removes an access's
 * bank conflicts.  Part of bankscope.h.
 */
#ifndef BS_FIX_H
#define BS_FIX_H

#include "../input/bs_input.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the fix advisor ---------------------------------------------------
 * bs_fix_search() takes one access and where it comes from, and searches
 * the layout changes a CUDA programmer can make for the cheapest that
 * reaches the ideal wavefronts (no bank conflict):
 *
 *   pad      a tile's or an array's rows, or a struct, grow by 0..max_pad
 *            elements of the access's width (only the declaration
 *            changes);
 *   swizzle  the XOR swizzle: column c of row r is stored at c ^ (r % COLS)
 *            (COLS a power of two; every index into the array changes,
 *            stores too), with or without a change of padding;
 *   widen    each lane reads the aligned W-byte chunk (W = 2..16, wider
 *            than the element) of its row or struct that holds its
 *            element, in one access instead of W/width: it pays only when
 *            the code uses the whole chunk, and is measured against those
 *            W/width narrow accesses together.  A wider access over the
 *            same lanes never costs fewer wavefronts than the narrow one,
 *            so a widening is proposed only when it is conflict-free.
 *
 * An access from a pattern line or an expression (BS_FIX_FROM_ACCESS) is
 * taken as unpadded, unswizzled rows of row_elems elements starting at
 * base: element e = (address - base) / width lies in row e / row_elems,
 * column e % row_elems.  With row_elems 0 the row is the constant lane
 * stride, when the active lanes read base + (E0 + lane * ROW) * width;
 * without one, no change applies (bs_fix.explanation says so).
 *
 * The cost rule, among the changes that reach the ideal: first the kind
 * (pad, then swizzle, then widen: a declaration before every index, and
 * both before code that must use more data), then the least extra shared
 * memory (extra_bytes), then the smaller padding, then the narrower
 * widening.  extra_bytes counts, for a tile, rows * added elements *
 * element bytes; for a struct, the added bytes times 32, the structs one
 * warp reads (N structs cost N/32 times that); for an access, the rows
 * its active lanes span times the bytes added to a row.  When no change
 * reaches the ideal, `best` is the pad or swizzle change with the fewest
 * wavefronts, if one lowers them at all (ties by the same rule).
 *
 * Tiles read or written by ldmatrix, stmatrix or cp.async, tiles of
 * elements narrower than the access (bs_tile_spec.elem) and tiles that
 * already carry a TMA or CuTe swizzle take the byte-layout search
 * instead (bs_fix.byte_layout): the TMA swizzles (tma32, tma64, tma128),
 * the CuTe swizzles Swizzle<B,M,S> with 2^M at least the access width, M
 * + B <= 7 (the permuted units stay inside one 128-byte line of banks),
 * S > 0 and M + S + B <= 18, skipping those whose source bits lie above
 * every address of the tile (a TMA mode over rows wider than its span is
 * tried as the CuTe swizzle of the same bits: no TMA box writes it), each
 * with the
 * tile's padding or none, and padding rows by multiples of the access
 * width; no XOR swizzle, no widening.  Its cost rule: a swizzle before
 * padding (TMA writes boxes densely, so it cannot fill a padded tile, and
 * no wgmma descriptor reads one); among swizzles a TMA mode before any
 * other (only those three can be written by TMA and read by wgmma), the
 * TMA modes from the smallest (32B, 64B, 128B: fewer XOR bits, a smaller
 * repeat to align the tile to), the others by B, then the repeat 2^(M +
 * |S| + B), then M, then S; then extra shared memory and padding as
 * above.
 */
#define BS_FIX_MAX_PAD 4096      /* largest max_pad accepted, elements */

typedef enum {
	BS_FIX_NONE = 0,         /* no change: already ideal, or none helps */
	BS_FIX_PAD,
	BS_FIX_SWIZZLE,
	BS_FIX_WIDEN,
} bs_fix_kind;

typedef enum {
	BS_FIX_FROM_ACCESS = 0,  /* a pattern line or an index expression */
	BS_FIX_FROM_TILE,
	BS_FIX_FROM_STRUCT,
} bs_fix_source;

typedef struct {
	bs_fix_source source;
	bs_tile_spec tile;       /* FROM_TILE */
	bs_struct_spec strct;    /* FROM_STRUCT */
	bs_access access;        /* FROM_ACCESS */
	uint64_t base;           /* FROM_ACCESS: address of element 0 */
	unsigned row_elems;      /* FROM_ACCESS: row length; 0: the lane stride */
	int max_pad;             /* pad 0..max_pad elements; < 0: 128 /
				    element bytes - 1 */
} bs_fix_input;

/* One change and the access it leads to. */
typedef struct {
	bs_fix_kind kind;
	unsigned pad;            /* padding of a row or struct after it, elements */
	bs_swizzle swizzle;      /* layout after it */
	bs_cute cute;            /* its B, M, S when swizzle is SWIZZLE_CUTE */
	unsigned width;          /* bytes per lane after it */
	unsigned merged;         /* WIDEN: narrow accesses one wide access
				    replaces; 1 otherwise */
	unsigned merged_wavefronts;  /* WIDEN: their wavefronts together */
	unsigned merged_ideal;       /* WIDEN: their ideal together */
	int64_t extra_bytes;     /* shared memory it adds (negative: frees) */
	bs_access access;        /* the access after it */
	bs_summary sum;
	char label[128];         /* "pad rows by 1 float" */
	char declaration[224];   /* "__shared__ float tile[32][33];  ..." */
	char index_change[160];  /* "tile[r][c ^ (r % 32)]  ..."; "" if none */
	char note[256];          /* what it requires or assumes */
	char warning[320];       /* a known trap: for a TMA swizzle, the
				    wgmma descriptor's reverse numbering; ""
				    when none */
} bs_fix_change;

typedef struct {
	bs_access before;
	bs_summary sum_before;
	unsigned max_pad;        /* the padding searched: 0..max_pad elements */
	unsigned tried;          /* changes evaluated */
	int already_ideal;       /* before has no bank conflict: nothing tried */
	int reaches_ideal;       /* best reaches the ideal */
	int byte_layout;         /* the byte-layout search was made */
	bs_fix_change best;      /* kind NONE: no change lowers the wavefronts */
	bs_fix_change alternative;   /* the cheapest ideal change of another
					kind than best, or kind NONE */
	char explanation[256];   /* changes that could not apply, and why */
	/*
	 * A remote kind (dsmem.*, another CTA's shared memory): it pays
	 * 32-byte sectors, not banks, so every change is priced by
	 * sum.sectors, and the ideal is min_sectors, the fewest sectors
	 * that hold the bytes it reads (ceil(distinct bytes / 32)): padding
	 * and swizzles, which move words between banks, rarely lower it.
	 */
	int remote;
	unsigned min_sectors;
} bs_fix;

/*
 * A remote access's fewest sectors: its distinct bytes (aligned accesses
 * of one width), 32 to a sector, rounded up; bs_fix's min_sectors.
 */
unsigned bs_fix_fewest_sectors(const bs_access *a);
/* "none", "pad", "swizzle", "widen". */
const char *bs_fix_kind_name(bs_fix_kind kind);
/* 0, or -1 with err (an invalid spec or access, max_pad too large). */
int bs_fix_search(const bs_arch *p, const bs_fix_input *in, bs_fix *out,
		  bs_error *err);

#ifdef __cplusplus
}
#endif

#endif
