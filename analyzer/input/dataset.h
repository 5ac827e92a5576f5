/*
 * dataset.h - what the dataset files share among themselves (internal:
 * users see bs_input.h): the table of BS_DATASET_COLUMNS (dataset.c),
 * which the writer (dataset_write.c) and the reader both walk, and the
 * reader's state and field parsers, which the reader of bankscope-dsmem's
 * own layout (dsmem_csv.c) uses too.
 */
#ifndef BS_DATASET_INTERNAL_H
#define BS_DATASET_INTERNAL_H

#include <math.h>
#include <stddef.h>

#include "bs_input.h"

enum ds_kind {
	K_PROBE, K_NAME, K_WIDTH, K_OP, K_ACTIVE, K_NOTE, K_ADDR,
	K_COUNT,        /* integer when integral */
	K_PER_INSN,     /* up to 4 decimals, trimmed */
	K_CYCLES,       /* 2 decimals */
	K_TP            /* 3 decimals */
};

/* One column of BS_DATASET_COLUMNS: numbers live at off in bs_row. */
typedef struct {
	const char *name;
	enum ds_kind kind;
	size_t off;
} ds_column;

/* In the order of BS_DATASET_COLUMNS. */
#define DS_NCOLUMNS 25
extern const ds_column dataset_columns[DS_NCOLUMNS];

/*
 * Every number column holds a count, a time or a rate: none is negative,
 * and none comes near 1e15 (a kernel's warp instructions; 1e15 cycles
 * are days).  Larger values, 1e308 say, are not measurements, and they
 * turn the fits into inf and NaN.
 */
#define NUM_MAX 1e15

static inline int dataset_number_ok(double v)
{
	return isnan(v) || (v >= 0 && v <= NUM_MAX);
}

static inline double *dataset_num_at(bs_row *row, size_t off)
{
	return (double *)(void *)((char *)row + off);
}

/* Metadata keys: letters, digits, '_', '.', '-'. */
int dataset_key_char(char c);
/* strdup, in C11. */
char *dataset_dup(const char *s);

/* ---- the reader's state ------------------------------------------------- */

typedef struct {
	const char *text;   /* decoded, NUL-terminated */
	long col;           /* 1-based column of its first character */
} ds_field;

typedef struct dsmem_cols dsmem_cols;

struct bs_dataset {
	FILE *f;
	char *name;
	long line;
	char *buf;          /* the current line */
	size_t cap;
	int skip;           /* bs_read_line state */
	char *dec;          /* its decoded fields */
	size_t dcap;
	ds_field *fld;
	int nfld, fcap;
	int ncols;          /* fields of the header */
	int *col;           /* header field -> index into columns, or -1 */
	dsmem_cols *dsmem;  /* bankscope-dsmem's layout, or NULL */
	bs_meta meta[BS_META_MAX];
	int nmeta;
	/*
	 * A metadata key given twice: an error in a dataset, reported once
	 * the header shows the file is one; bankscope-dsmem's files give
	 * "# counters:" twice, and the first value is kept.
	 */
	bs_error twice;
	int has_twice;
};

#define DS_FAIL(d, col, ...) \
	bs_error_set(err, (d)->name, (d)->line, col, __VA_ARGS__)

/* A decimal number from 0 to 1e15, or NaN for an empty field. */
int dataset_number(bs_dataset *d, const ds_field *fl, const char *cname,
		   double *out, bs_error *err);
/* A string field into dst[size]; nonempty: an empty one is an error. */
int dataset_string(bs_dataset *d, const ds_field *fl, const char *cname,
		   char *dst, size_t size, int nonempty, bs_error *err);
/* 1, 2, 4, 8 or 16, as a pattern file's width. */
int dataset_width(bs_dataset *d, const ds_field *fl, const char *cname,
		  unsigned *out, bs_error *err);
/* The 32 lane fields of a pattern-file line, into row->access (whose
 * width and kind are set); cname names the column in errors. */
int dataset_addresses(bs_dataset *d, const ds_field *fl, const char *cname,
		      bs_row *row, bs_error *err);
/* active_lanes, when given, must be the addresses' active lanes. */
int dataset_active(bs_dataset *d, const ds_field *fl, const bs_row *row,
		   bs_error *err);

/* ---- bankscope-dsmem's layout (dsmem_csv.c) ----------------------------- */

/*
 * Is d's header (split into d->fld) bankscope-dsmem's: target and offsets,
 * no probe?  Then 1 with d->dsmem set, or -1 with err for a header of that
 * layout that lacks a required column or repeats one; 0 otherwise.
 */
int dsmem_header(bs_dataset *d, bs_error *err);
/* One line of that layout (split, with the header's field count). */
int dsmem_row(bs_dataset *d, bs_row *row, bs_error *err);
void dsmem_free(dsmem_cols *c);

#endif
