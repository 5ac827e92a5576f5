/*
 * bs_input.h - where accesses and measurements come from: pattern files,
 * index expressions, the shapes CUDA code writes (tiles, structs), and
 * the measured datasets a probe run writes, with the statistics that
 * summarize them.  Part of bankscope.h; the model (bs_model.h) first.
 */
#ifndef BS_INPUT_H
#define BS_INPUT_H

#include "../model/bs_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- pattern files ----------------------------------------------------
 * One access a line: NAME WIDTH KIND A0 A1 ... A31.  Addresses in decimal
 * or 0x hex, '-' for an inactive lane; KIND is a name of the kinds table
 * (ld, st, ldsm.x4, atom.add.u32, ...; load and store also taken); '#'
 * starts a comment; blank lines are skipped; a UTF-8 byte-order mark is
 * ignored and the last line may lack its newline.  Streaming: one line in
 * memory at a time; a NUL byte or a line over 64 KiB is an error as soon
 * as it is read.
 */
typedef struct bs_reader bs_reader;

/* Reads from f (not closed by the reader); name is used in errors. */
bs_reader *bs_reader_new(FILE *f, const char *name);
/* 1: *out holds the next access; 0: end of file; -1: error in err. */
int bs_reader_next(bs_reader *r, bs_access *out, bs_error *err);
long bs_reader_line(const bs_reader *r);
void bs_reader_free(bs_reader *r);
/* Parse one line (no newline); 1: access, 0: blank or comment, -1: error. */
int bs_parse_line(const char *line, const char *source, long lineno,
		  bs_access *out, bs_error *err);

/*
 * bs_parse_line of a line bs_lines_next gave (len bytes at text, the
 * reader's padding after them), with the reader's fast path: for callers
 * that read a file's lines themselves (predict's threads, one block of
 * lines each).
 */
int bs_parse_lines_text(const char *text, size_t len, const char *source,
			long lineno, bs_access *out, bs_error *err);

/* Write an access as one pattern-file line (with newline). */
int bs_format_pattern(const bs_access *a, char *buf, size_t size);

/* ---- index expressions -------------------------------------------------
 * C integer expressions over lane (0..31), warp and tid (= warp*32+lane):
 *   + - * / % << >> & | ^ ~ ! < <= > >= == != && || ?: ( )
 * evaluated in 64-bit signed arithmetic; overflow, division or modulo by
 * zero and shifts out of 0..63 are errors.
 */
typedef struct bs_expr bs_expr;

typedef struct {
	int64_t lane, warp, tid;
} bs_vars;

/* source names the option or file in errors; columns are 1-based. */
bs_expr *bs_expr_parse(const char *text, const char *source, bs_error *err);
int bs_expr_eval(const bs_expr *e, const bs_vars *v, int64_t *out,
		 bs_error *err);
void bs_expr_free(bs_expr *e);

typedef struct {
	const char *name;        /* access name; NULL: "expr" */
	const char *index;       /* element index expression (required) */
	const char *active;      /* active-lane expression; NULL: all lanes */
	unsigned width;
	bs_kind kind;
	uint64_t base;           /* bytes */
	int64_t warp;
} bs_expr_spec;

/* address = base + index * width, for each lane where active != 0. */
int bs_access_from_expr(const bs_expr_spec *s, bs_access *out, bs_error *err);

/* ---- shapes people write in CUDA code ----------------------------------
 * A tile is T tile[ROWS][COLS + PAD] of ELEM-byte elements stored row by
 * row from base; an access reads WIDTH bytes a lane (WIDTH a multiple of
 * ELEM: a 16-byte ldmatrix row holds 8 halves).  The access modes:
 *
 *   BS_BY_ROW      lane l reads the l-th WIDTH-byte piece of row index
 *   BS_BY_COL      lane l reads WIDTH bytes at column index of row l
 *   BS_BY_CHUNKS   lane l reads the l-th WIDTH-byte chunk of the tile,
 *                  counted row by row from row index (a cp.async copy)
 *   BS_MAT_STACK   ldmatrix/stmatrix: lane 8m+i gives row i of matrix m,
 *                  a 16-byte row; matrix m at rows index+8m..+7, bytes
 *                  column*ELEM..+15 (matrices stacked)
 *   BS_MAT_SIDE    matrix m at rows index..+7, 16 bytes m to the right
 *                  of column (side by side)
 *   BS_MAT_MMA     matrix m at row block m%2, column block m/2 (the
 *                  order of the m16n8k16 mma A fragment)
 *
 * Swizzles: XOR moves element c of row r to column c ^ (r % COLS) (COLS a
 * power of two, ELEM = WIDTH).  The others act on byte addresses, as TMA
 * and CuTe's swizzled shared-memory pointers apply them: CuTe's
 * Swizzle<B,M,S> takes address x to x ^ ((x & (((1<<B)-1) << (M+S))) >>
 * S) (a negative S shifts left, from bits M..M+B-1 to M-S..), and TMA's
 * SWIZZLE_32B, 64B and 128B are Swizzle<1,4,3>, <2,4,3> and <3,4,3>: bits
 * [4,4+B) XOR bits [7,7+B), repeating every 256, 512 and 1024 bytes.
 */
typedef enum {
	BS_BY_ROW = 0, BS_BY_COL = 1, BS_BY_CHUNKS = 2,
	BS_MAT_STACK = 3, BS_MAT_SIDE = 4, BS_MAT_MMA = 5,
} bs_tile_dir;
typedef enum {
	BS_SWIZZLE_NONE = 0, BS_SWIZZLE_XOR = 1,
	BS_SWIZZLE_TMA32 = 2, BS_SWIZZLE_TMA64 = 3, BS_SWIZZLE_TMA128 = 4,
	BS_SWIZZLE_CUTE = 5,
} bs_swizzle;

/* CuTe Swizzle<B,M,S> on byte addresses. */
typedef struct {
	int8_t bits, base, shift;          /* B, M, S */
} bs_cute;

typedef struct {
	unsigned rows, cols;     /* logical tile, elements */
	unsigned pad;            /* extra elements at the end of each row */
	unsigned width;          /* bytes a lane accesses */
	bs_tile_dir dir;         /* the access mode (above) */
	unsigned index;          /* the row (ROW, CHUNKS, matrices) or
				    column (COL) */
	bs_swizzle swizzle;
	bs_kind kind;
	uint64_t base;
	const char *name;
	unsigned elem;           /* element bytes; 0: width */
	unsigned column;         /* matrix modes: first element column */
	bs_cute cute;            /* SWIZZLE_CUTE: B, M, S */
} bs_tile_spec;

int bs_tile_access(const bs_tile_spec *s, bs_access *out, bs_error *err);
/*
 * The address of byte *cb of the tile's logical row r (the swizzles
 * applied; *cb becomes the byte XOR moved it to): 0, or -1 when it lies
 * beyond the 32-bit shared window.  No other check: the spec is one
 * bs_tile_access took.
 */
int bs_tile_addr(const bs_tile_spec *s, uint64_t r, uint64_t *cb,
		 uint32_t *out);
/*
 * What the tile's layout warns of, or 0: a byte swizzle over a base that
 * is not a multiple of its repeat (the pattern starts part-way in), rows
 * wider than a TMA swizzle's span (no one TMA box writes them).  The text
 * (one sentence, or two joined by "; ") goes to buf; returns its length.
 */
size_t bs_tile_warning(const bs_tile_spec *s, char *buf, size_t size);
/* ldmatrix or stmatrix: lanes give the 16-byte rows of 8x8 matrices. */
int bs_kind_is_matrix(bs_kind k);

/* "row", "col", "chunks", "stack", "side", "mma": 0 and *out, or -1. */
int bs_tile_dir_find(const char *name, bs_tile_dir *out);
const char *bs_tile_dir_name(bs_tile_dir d);

/*
 * Swizzles by name: "none", "xor", "tma32", "tma64", "tma128",
 * "cute:B,M,S".  bs_swizzle_parse() fills *sw (and *cute for cute:, else
 * zeroes it): 0, or -1 with err naming source and, inside cute:, the
 * column.  A cute swizzle must have B >= 0, M >= 0, |S| >= B (CuTe's own
 * static assertions) and touch address bits 0-17 only (M + |S| + B <=
 * 18: 256 KB, more shared memory than a block has).
 */
int bs_swizzle_parse(const char *text, const char *source, bs_swizzle *sw,
		     bs_cute *cute, bs_error *err);
int bs_cute_check(bs_cute c, const char *source, bs_error *err);
/* "tma128", "cute:2,4,3", ... */
void bs_swizzle_name(bs_swizzle sw, bs_cute cute, char *buf, size_t size);
/* The byte swizzle of sw as Swizzle<B,M,S>: 1 and *out; 0 for none, xor. */
int bs_swizzle_bytes(bs_swizzle sw, bs_cute cute, bs_cute *out);
/* x under Swizzle<B,M,S>. */
uint32_t bs_cute_apply(bs_cute c, uint32_t x);

typedef struct {
	unsigned struct_bytes;   /* sizeof the struct */
	unsigned field;          /* offsetof the field read */
	unsigned width;          /* bytes of the field access */
	bs_kind kind;
	uint64_t base;
	const char *name;
} bs_struct_spec;

/* lane l reads array[l].field: base + l*struct_bytes + field. */
int bs_struct_access(const bs_struct_spec *s, bs_access *out, bs_error *err);


/* ---- measured datasets -------------------------------------------------
 * A dataset is one tidy CSV file written by one probe run:
 *
 *   # key: value                 metadata lines (gpu, compute_capability,
 *   # key: value                 sm_count, sm_clock_mhz_measured, ...)
 *   probe,name,width,op,...      the header: BS_DATASET_COLUMNS
 *   stride,f32_ld_s1,4,ld,...    one row per access
 *
 * Measured and timing fields are empty when not measured (NaN in bs_row).
 * `addresses` holds the 32 lane fields of the pattern format separated by
 * single spaces, so every prediction can be recomputed from the row.  The
 * reader maps columns by name (any order, unknown columns ignored) and
 * requires probe, name, width, op and addresses.  Every line ends with a
 * newline (a last line without one is reported: the file was cut), and
 * every number lies in 0..1e15.  Files written before sectors_measured
 * and sectors_predicted existed read with both NaN.
 *
 * The reader also takes bankscope-dsmem's own files (a header with
 * target and offsets, no probe: docs/probes/dsmem.md): each line becomes
 * a row of probe "dsmem" whose addresses are the offsets and whose kind
 * is the op for target local (the CTA's own shared memory: wavefronts and
 * bank conflicts from the shared-memory counters) and "dsmem." + op for
 * remote (dshared wavefronts and crossbar read sectors; conflicts NaN);
 * self rows (the control) and rows whose check is not "ok" carry a note.
 * Cycles come from cycles_median and cycles_min; a file without counter
 * values gives timing-only rows.
 */
#define BS_DATASET_COLUMNS \
	"probe,name,width,op,active_lanes," \
	"wavefronts_measured,bank_conflicts_measured,instructions," \
	"wavefronts_predicted,ideal_wavefronts_predicted," \
	"bank_conflicts_predicted,max_way_predicted,packed_predicted," \
	"cycles_per_access_min,cycles_per_access_median," \
	"latency_cycles_predicted,chain_length,repetitions," \
	"tp_warps_per_sm,tp_bytes_per_clk_per_sm," \
	"tp_wavefronts_per_clk_per_sm,sectors_measured,sectors_predicted," \
	"note,addresses"

typedef struct {
	char probe[32];
	bs_access access;               /* name, width, op, lanes */
	double wavefronts_measured;     /* per warp instruction */
	double bank_conflicts_measured; /* per warp instruction */
	double instructions;            /* warp instructions counted */
	double wavefronts_predicted;
	double ideal_wavefronts_predicted;
	double bank_conflicts_predicted;
	double max_way_predicted;
	double packed_predicted;        /* 0 or 1 */
	double cycles_per_access_min;   /* latency mode, over repetitions */
	double cycles_per_access_median;
	double latency_cycles_predicted;
	double chain_length;            /* accesses between the clock reads */
	double repetitions;             /* timed repetitions */
	double tp_warps_per_sm;         /* throughput mode */
	double tp_bytes_per_clk_per_sm;
	double tp_wavefronts_per_clk_per_sm;
	/*
	 * Distributed shared memory (remote kinds): the 32-byte sectors the
	 * SM-to-SM network moved per warp instruction, and the rule's
	 * prediction; NaN (an empty field) for bank kinds.
	 */
	double sectors_measured;
	double sectors_predicted;
	char note[160];                 /* why a point was skipped, or "" */
} bs_row;

#define BS_META_MAX 32
typedef struct {
	char key[48];
	char value[464];
} bs_meta;

/* Fill a row's prediction fields from its access under architecture p. */
int bs_row_predict(const bs_arch *p, bs_row *row, bs_error *err);
/* A row with every number NaN and empty strings. */
void bs_row_init(bs_row *row);

/*
 * Writing: the metadata lines and the header, then one line per row.  0,
 * or -1 with err: metadata or a row the reader could not read back
 * (nothing written; err->source "metadata", or the row's name as for
 * bs_access_check), or a write error on f (err->source "dataset"; stdio
 * may report a failed write only at a later flush, so check
 * bs_dataset_commit() or fflush/fclose too).  Callers that know the
 * file's path name it in their own message.
 */
int bs_dataset_write_header(FILE *f, const bs_meta *meta, int nmeta,
			    bs_error *err);
int bs_dataset_write_row(FILE *f, const bs_row *row, bs_error *err);

/*
 * Writing a whole file safely: bs_dataset_create() opens a temporary file
 * in dir; bs_dataset_commit() closes it and links it to dir/NAME.csv,
 * adding -2, -3, ... to NAME when that file exists (never overwriting),
 * and returns the final path in path_out.  bs_dataset_abort() removes the
 * temporary file.
 */
typedef struct bs_dataset_out bs_dataset_out;
bs_dataset_out *bs_dataset_create(const char *dir, bs_error *err);
FILE *bs_dataset_file(bs_dataset_out *o);
int bs_dataset_commit(bs_dataset_out *o, const char *name, char *path_out,
		      size_t size, bs_error *err);
void bs_dataset_abort(bs_dataset_out *o);

/* Reading, streamed. */
typedef struct bs_dataset bs_dataset;
bs_dataset *bs_dataset_open(FILE *f, const char *name, bs_error *err);
/* 1: a row; 0: end; -1: error naming file, line and column. */
int bs_dataset_next(bs_dataset *d, bs_row *row, bs_error *err);
/* Metadata value for key, or NULL. */
const char *bs_dataset_meta(const bs_dataset *d, const char *key);
/*
 * The architecture the file was predicted with: its "# arch:" metadata,
 * else "# profile:" (the name datasets wrote before), else NULL.  key
 * (when not NULL) gets the key found, for messages.
 */
const char *bs_dataset_arch(const bs_dataset *d, const char **key);
int bs_dataset_nmeta(const bs_dataset *d);
const bs_meta *bs_dataset_meta_at(const bs_dataset *d, int i);
long bs_dataset_line(const bs_dataset *d);
void bs_dataset_close(bs_dataset *d);

/*
 * The folder of a GPU's datasets, data/<slug>/, from the device's name
 * (cudaDeviceProp.name): h100-sxm, h100-pcie, h100-nvl, h200 and h200-nvl
 * for Hopper's names; any other name without a leading "NVIDIA ", in
 * lower case, each run of characters other than ASCII letters and digits
 * made one dash, none at either end ("NVIDIA GeForce RTX 4090" ->
 * "geforce-rtx-4090", "NVIDIA A100-SXM4-80GB" -> "a100-sxm4-80gb"); "gpu"
 * when nothing is left.  Cut to fit out[size], never ending in a dash.
 */
void bs_gpu_slug(const char *name, char *out, size_t size);

/* ---- statistics -------------------------------------------------------- */

/* Sorts v in place; min and median (mean of the middle two for even n). */
int bs_min_median(double *v, size_t n, double *min, double *median);

typedef struct {
	size_t n;
	double slope, intercept, r2;
} bs_fit;
/* Least squares y = slope*x + intercept; -1 when n < 2 or x constant. */
int bs_fit_line(const double *x, const double *y, size_t n, bs_fit *out);

/*
 * The same fit over a stream, in constant memory: bs_fit_add() takes one
 * point at a time (zero-initialize the accumulator first), bs_fit_end()
 * gives what bs_fit_line() gives for those points (the same results to
 * rounding), -1 under the same conditions.
 */
typedef struct {
	size_t n;
	double mx, my;          /* running means */
	double sxx, sxy, syy;   /* sums of products of deviations */
	int xflat, yflat;       /* every x (every y) so far equal the first */
	double x0, y0;
} bs_fit_acc;
void bs_fit_add(bs_fit_acc *a, double x, double y);
int bs_fit_end(const bs_fit_acc *a, bs_fit *out);

#ifdef __cplusplus
}
#endif

#endif
