/*
 * bankscope.h - predict what one warp's shared-memory access costs.
 *
 * The contract of the bankscope library, the one public header.
 *
 * An access (bs_access) is one warp instruction: 32 lanes, each either
 * inactive or holding a byte address in shared memory; a width of 1, 2, 4,
 * 8 or 16 bytes; a load or a store.  An architecture profile (bs_profile)
 * is data: how many banks and how wide, how each access width splits the
 * warp into phases, when loads pack two phases into one, and the latency
 * model.  bs_predict() turns an access into wavefronts, ideal wavefronts,
 * bank conflicts (wavefronts - ideal, the definition Nsight Compute's
 * l1tex__data_bank_conflicts_pipe_lsu_mem_shared counter follows), the
 * worst n-way degree and the estimated dependent-chain latency;
 * bs_predict_detail() adds the phases and, for every bank, the distinct
 * words it delivers and the lanes that want each of them.
 *
 * Inputs come from pattern files (bs_reader), index expressions
 * (bs_expr), 2-D tiles and arrays of structs (bs_tile_access,
 * bs_struct_access).  Datasets measured on a GPU are read and written by
 * bs_dataset_*; bs_fit_line() fits cycles against wavefronts.
 *
 * Errors: every function that can fail returns a negative value (or NULL)
 * and fills a bs_error with the source (file name or option), the line
 * and column (1-based, 0 when they do not apply) and one sentence.  The
 * library never prints and never exits.
 */
#ifndef BANKSCOPE_H
#define BANKSCOPE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BS_LANES 32
#define BS_NAME_MAX 64       /* bytes of an access name, NUL included */
#define BS_MAX_BANKS 64
#define BS_MAX_PHASES 32
/* Distinct bank words one access can touch: 32 lanes x 16 bytes / 4. */
#define BS_MAX_CELLS (BS_LANES * 4)

typedef enum { BS_LOAD = 0, BS_STORE = 1 } bs_op;

typedef struct {
	char name[BS_NAME_MAX];
	unsigned width;          /* bytes per lane: 1, 2, 4, 8 or 16 */
	bs_op op;
	uint32_t active;         /* bit l set: lane l takes part */
	uint32_t addr[BS_LANES]; /* byte address of each active lane */
} bs_access;

typedef struct {
	char source[256];        /* file name, "<stdin>", or an option like "--expr" */
	long line;               /* 1-based; 0 when not about a line */
	long column;             /* 1-based; 0 when not about a column */
	char text[320];
} bs_error;

/* Fill err (when not NULL) and return -1; printf-style. */
int bs_error_set(bs_error *err, const char *source, long line, long column,
		 const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/*
 * "source:line:column: text", "source:line: text", "source: column C: text"
 * (an option's text has columns but no lines) or "source: text".
 */
void bs_error_format(const bs_error *err, char *buf, size_t size);

/* ---- architecture profiles ------------------------------------------ */

/* Widths are indexed 0..4 for 1, 2, 4, 8, 16 bytes. */
#define BS_NWIDTHS 5
int bs_width_index(unsigned width);   /* -1 when not a valid width */

typedef struct {
	const char *name;          /* "sm_90", "textbook" */
	const char *description;
	unsigned banks;            /* number of banks */
	unsigned bank_bytes;       /* bytes each bank delivers per wavefront */
	/* Lanes per phase for each width (32: one phase for the whole warp). */
	unsigned phase_lanes[BS_NWIDTHS];
	/*
	 * Loads of this width whose request is pairwise uniform (every active
	 * lane l has the address of lane l^m, where that lane is active, for
	 * one m in pack_xor) are served in phases of packed_phase_lanes lanes;
	 * 0 means loads of this width never pack.  Stores never pack.
	 */
	unsigned packed_phase_lanes[BS_NWIDTHS];
	unsigned pack_xor[2];      /* lane partners tried, 0 = unused slot */
	/*
	 * Dependent-chain latency of loads, in cycles:
	 *   latency = base + slope * wavefronts
	 * with base chosen by width and packing.  A base of 0 means the profile
	 * does not model that case (the prediction is NaN).
	 */
	double load_base[BS_NWIDTHS];
	double load_base_packed[BS_NWIDTHS];
	double load_slope;
	double store_base[BS_NWIDTHS];   /* 0: stores not modeled */
	double store_slope;
} bs_profile;

/* The built-in profiles; NULL-terminated list and lookup by name. */
const bs_profile *const *bs_profiles(void);
const bs_profile *bs_profile_find(const char *name);
const bs_profile *bs_profile_default(void);   /* sm_90 */

/* ---- prediction ------------------------------------------------------ */

typedef struct {
	unsigned active_lanes;
	unsigned wavefronts;
	unsigned ideal_wavefronts;  /* sum over phases of ceil(words / banks) */
	unsigned bank_conflicts;    /* wavefronts - ideal_wavefronts */
	unsigned max_way;           /* largest distinct-word count of any bank in any phase */
	unsigned phases;            /* phases with at least one active lane */
	int packed;                 /* 1 when a load's phases were packed */
	double latency_cycles;      /* NaN when the profile does not model it */
} bs_summary;

/* One distinct word a bank delivers in one phase. */
typedef struct {
	uint8_t phase;      /* index into bs_detail.phase */
	uint8_t bank;
	uint8_t wave;       /* wavefront of its phase that serves it, 0-based */
	uint32_t word;      /* address / bank_bytes */
	uint32_t lanes;     /* lanes that want it */
} bs_cell;

typedef struct {
	uint32_t lanes;         /* lanes of the phase (active or not) */
	uint32_t active;        /* its active lanes */
	unsigned wavefronts;    /* = max_way of the phase */
	unsigned words;         /* distinct words */
	unsigned first_cell;    /* its cells: cell[first_cell .. first_cell+ncells) */
	unsigned ncells;
} bs_phase;

typedef struct {
	bs_summary sum;
	unsigned nphases;       /* all phases of the access, active or not */
	bs_phase phase[BS_MAX_PHASES];
	unsigned ncells;
	bs_cell cell[BS_MAX_CELLS];  /* sorted by phase, wave, bank */
} bs_detail;

/*
 * Validate an access against a profile: width known, active lanes'
 * addresses aligned to the width and within 32 bits.  0 or -1 with err.
 */
int bs_access_check(const bs_access *a, bs_error *err);

/* The fast path: counts only.  0, or -1 with err for an invalid access. */
int bs_predict(const bs_profile *p, const bs_access *a, bs_summary *out,
	       bs_error *err);
/* Everything the text and JSON formats show. */
int bs_predict_detail(const bs_profile *p, const bs_access *a, bs_detail *out,
		      bs_error *err);

/* Is the request pairwise uniform under lane partner l^m? */
int bs_pairwise_uniform(const bs_access *a, unsigned m);

/* ---- pattern files ----------------------------------------------------
 * One access a line: NAME WIDTH OP A0 A1 ... A31.  Addresses in decimal or
 * 0x hex, '-' for an inactive lane; OP is ld|st (load|store also taken);
 * '#' starts a comment; blank lines are skipped.  Streaming: one line in
 * memory at a time.
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
	bs_op op;
	uint64_t base;           /* bytes */
	int64_t warp;
} bs_expr_spec;

/* address = base + index * width, for each lane where active != 0. */
int bs_access_from_expr(const bs_expr_spec *s, bs_access *out, bs_error *err);

/* ---- shapes people write in CUDA code ---------------------------------- */

typedef enum { BS_BY_ROW = 0, BS_BY_COL = 1 } bs_tile_dir;
typedef enum { BS_SWIZZLE_NONE = 0, BS_SWIZZLE_XOR = 1 } bs_swizzle;

typedef struct {
	unsigned rows, cols;     /* logical tile, elements */
	unsigned pad;            /* extra elements at the end of each row */
	unsigned width;          /* element bytes */
	bs_tile_dir dir;         /* BY_ROW: lane l reads tile[index][l];
				    BY_COL: lane l reads tile[l][index] */
	unsigned index;          /* the row (BY_ROW) or column (BY_COL) */
	bs_swizzle swizzle;      /* XOR: column c is stored at c ^ (row % cols) */
	bs_op op;
	uint64_t base;
	const char *name;
} bs_tile_spec;

int bs_tile_access(const bs_tile_spec *s, bs_access *out, bs_error *err);

typedef struct {
	unsigned struct_bytes;   /* sizeof the struct */
	unsigned field;          /* offsetof the field read */
	unsigned width;          /* bytes of the field access */
	bs_op op;
	uint64_t base;
	const char *name;
} bs_struct_spec;

/* lane l reads array[l].field: base + l*struct_bytes + field. */
int bs_struct_access(const bs_struct_spec *s, bs_access *out, bs_error *err);

/* ---- small helpers shared by the readers ------------------------------- */

/* Parse a whole unsigned decimal or 0x-hex token: 0, -1 on junk, -2 when > max. */
int bs_parse_u64(const char *s, uint64_t max, uint64_t *out);
const char *bs_op_name(bs_op op);          /* "ld" / "st" */
int bs_parse_op(const char *s, bs_op *out);   /* 0 or -1 */

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
 * requires probe, name, width, op and addresses.
 */
#define BS_DATASET_COLUMNS \
	"probe,name,width,op,active_lanes," \
	"wavefronts_measured,bank_conflicts_measured,instructions," \
	"wavefronts_predicted,ideal_wavefronts_predicted," \
	"bank_conflicts_predicted,max_way_predicted,packed_predicted," \
	"cycles_per_access_min,cycles_per_access_median," \
	"latency_cycles_predicted,chain_length,repetitions," \
	"tp_warps_per_sm,tp_bytes_per_clk_per_sm," \
	"tp_wavefronts_per_clk_per_sm,note,addresses"

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
	char note[160];                 /* why a point was skipped, or "" */
} bs_row;

#define BS_META_MAX 32
typedef struct {
	char key[48];
	char value[464];
} bs_meta;

/* Fill a row's prediction fields from its access under profile p. */
int bs_row_predict(const bs_profile *p, bs_row *row, bs_error *err);
/* A row with every number NaN and empty strings. */
void bs_row_init(bs_row *row);

/* Writing: the metadata lines and the header, then one line per row. */
int bs_dataset_write_header(FILE *f, const bs_meta *meta, int nmeta);
int bs_dataset_write_row(FILE *f, const bs_row *row);

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
int bs_dataset_nmeta(const bs_dataset *d);
const bs_meta *bs_dataset_meta_at(const bs_dataset *d, int i);
long bs_dataset_line(const bs_dataset *d);
void bs_dataset_close(bs_dataset *d);

/* ---- statistics -------------------------------------------------------- */

/* Sorts v in place; min and median (mean of the middle two for even n). */
int bs_min_median(double *v, size_t n, double *min, double *median);

typedef struct {
	size_t n;
	double slope, intercept, r2;
} bs_fit;
/* Least squares y = slope*x + intercept; -1 when n < 2 or x constant. */
int bs_fit_line(const double *x, const double *y, size_t n, bs_fit *out);

/* ---- per-instruction profiles -------------------------------------------
 * What `bankscope profile` reports: the shared-memory instructions of a
 * CUDA program as it ran, each SASS instruction with its executions and
 * wavefronts counted by CUPTI's SASS Metrics API (the injection library,
 * probes/inject/inject.c, which measures one kernel per run of the
 * program).  A records directory holds, from one or more runs:
 *
 *   status.txt       "ok", or why counters could not be collected; lines
 *                    after the first: failures of later runs
 *   records.tsv      BS_SASS_RECORD_COLUMNS, then one line per (launch,
 *                    function, pc), tab-separated: kernel (demangled when
 *                    the program could), launch index ("-": summed over
 *                    the launches of a measured window), cubin CRC,
 *                    function index, function symbol, pc offset (0x hex
 *                    or decimal), smsp__sass_inst_executed (warp
 *                    instructions), smsp__sass_l1tex_pipe_lsu_wavefronts_
 *                    mem_shared and its _ideal
 *   launches.tsv     BS_SASS_LAUNCH_COLUMNS, one line per kernel or graph
 *                    launch a run saw: index, kernel, and "*" when it was
 *                    inside the run's measured window, the records.tsv
 *                    lines it wrote when that run measured it alone, else
 *                    "-"
 *   cubin-CRC.cubin  every module the program loaded
 *   cubin-CRC.sass   optional: its disassembly
 *   explain.tsv      optional: BS_EXPLAIN_COLUMNS (profile --explain)
 *
 * A bs_sassprof sums the records per (cubin, function, pc) over launches,
 * takes SASS text and source lines from disassemblies (nvdisasm -c -g
 * [-hex], or cuobjdump -sass: "Function : NAME" or ".text.NAME" headers;
 * instruction lines, a comment holding the hex offset, then the text up
 * to ';'; '//## File "x.cu", line 12' lines, the first position of an
 * "inlined at" chain; anything else is skipped), then keeps the
 * shared-memory instructions (bs_sass_is_shared), any instruction that
 * moved shared wavefronts (a generic LD/ST to shared memory, say, or one
 * not found in a disassembly), and, marked not_counted, the executed
 * instructions that use shared memory outside the LSU pipe CUPTI's
 * shared-memory metrics count (bs_sass_not_counted).  They are sorted by
 * excess wavefronts, descending, ties by kernel, then pc; the not counted
 * come last.  Kernels are told apart by their demangled name; a launch
 * inside a window is measured when its kernel has records.  Errors name
 * the file, line and column.
 */
#define BS_SASS_RECORD_COLUMNS \
	"kernel\tlaunch\tcubin_crc\tfunction_index\tfunction\tpc_offset\t" \
	"inst_executed\twavefronts\twavefronts_ideal"
#define BS_SASS_LAUNCH_COLUMNS "launch\tkernel\tpc_records"
/*
 * explain.tsv, written by libbankscope_explain.so (probes/explain/explain.c)
 * for `bankscope profile --explain`: one line per sampled warp execution
 * of a shared-memory instruction, tab-separated: launch index, kernel
 * (demangled), function symbol, pc offset in the function (0x hex, as in
 * records.tsv), access kind (ld, st, atom, ldsm, stsm, ldgsts), bytes per
 * lane, matrices per lane (ldsm/stsm; 1 otherwise), block and warp (linear
 * indexes), the execution of that instruction by that warp (from 0), and
 * the 32 lanes' shared-window addresses, space-separated, '-' for a lane
 * that did not take part (the pattern-file lane fields).
 */
#define BS_EXPLAIN_COLUMNS \
	"launch\tkernel\tfunction\tpc_offset\tkind\twidth\tcount\tblock\t" \
	"warp\texec\taddresses"

typedef struct {
	const char *kernel;       /* as recorded */
	const char *function;     /* symbol, as disassemblers name it */
	uint32_t cubin_crc;
	uint32_t pc;              /* byte offset in the function */
	const char *sass;         /* instruction without ';'; NULL: unknown */
	const char *source_file;  /* as the disassembly has it; NULL: unknown */
	unsigned long source_line;
	unsigned long launches;   /* launches that recorded it */
	uint64_t executions;      /* warp instructions, all launches */
	uint64_t wavefronts;      /* all launches */
	uint64_t ideal;           /* ideal wavefronts, all launches */
	int64_t excess;           /* wavefronts - ideal */
	const char *not_counted;  /* why CUPTI does not count it; NULL */
} bs_sass_insn;

typedef struct {
	unsigned long index;
	const char *kernel;       /* from launches.tsv; NULL when not there */
	int measured;             /* a run measured it */
	int window;               /* inside a run's measured window */
	unsigned long records;    /* its records.tsv lines */
	unsigned long written;    /* the pc_records launches.tsv gave */
	int mismatch;             /* runs named different kernels for it */
} bs_sass_launch;

typedef struct {
	unsigned long records;         /* lines of records.tsv */
	unsigned long launches;        /* distinct launch indexes */
	unsigned long measured;        /* launches a run measured */
	unsigned long empty_launches;  /* measured, with no record */
	unsigned long mismatched;      /* launches runs disagree about */
	unsigned long kernels;         /* distinct kernel names launched (of
					  the records when no launch is known) */
	unsigned long kernels_measured;   /* of those, with a measured launch */
	unsigned long kernels_unlaunched; /* in records, never launched */
	unsigned long instructions;    /* distinct (cubin, function, pc) */
	unsigned long disassembled;    /* of those, found in a disassembly */
	unsigned long not_counted;     /* kept instructions not counted */
} bs_sassprof_totals;

typedef struct bs_sassprof bs_sassprof;

bs_sassprof *bs_sassprof_new(void);
void bs_sassprof_free(bs_sassprof *p);
/* Each reads a whole file (f is not closed); 0, or -1 with err. */
int bs_sassprof_read_records(bs_sassprof *p, FILE *f, const char *name,
			     bs_error *err);
int bs_sassprof_read_launches(bs_sassprof *p, FILE *f, const char *name,
			      bs_error *err);
/* The disassembly of cubin crc: attaches text and lines to its records. */
int bs_sassprof_read_disasm(bs_sassprof *p, uint32_t crc, FILE *f,
			    const char *name, bs_error *err);
/* The distinct cubin CRCs recorded, ascending: how many, at most max in crc. */
size_t bs_sassprof_cubins(const bs_sassprof *p, uint32_t *crc, size_t max);
/* The launches read so far, ascending by index. */
size_t bs_sassprof_launch_count(const bs_sassprof *p);
const bs_sass_launch *bs_sassprof_launch_at(const bs_sassprof *p, size_t i);
/*
 * Filter, sort and count (after the reads; later reads are refused).
 * Returns the number of instructions kept, bs_sassprof_get() 0 .. n-1 in
 * report order; the totals are complete from here on.
 */
size_t bs_sassprof_finish(bs_sassprof *p);
const bs_sass_insn *bs_sassprof_get(const bs_sassprof *p, size_t i);
void bs_sassprof_get_totals(const bs_sassprof *p, bs_sassprof_totals *out);

/*
 * Explain records (explain.tsv): the sampled warp executions of each
 * shared-memory instruction, with every lane's address.  A sample's kind
 * is what the Sanitizer API saw: "ld", "st", "atom" (a memory-access
 * callback reading, writing or both), "ldsm", "stsm" (the matrix
 * callback: each lane gives one row address, count matrices), "ldgsts"
 * (the global-to-shared callback: the shared destination).
 */
typedef struct {
	unsigned long launch;
	uint32_t pc;              /* offset in the function */
	const char *kind;         /* static string, see above */
	unsigned width;           /* bytes per lane */
	unsigned count;           /* matrices per lane (ldsm, stsm), else 1 */
	unsigned block, warp, exec;
	uint32_t active;          /* lanes that took part */
	uint32_t addr[BS_LANES];  /* shared-window byte addresses */
} bs_explain_sample;

typedef struct {
	const char *kernel, *function;
	uint32_t pc;
	size_t first, n;          /* its samples: first .. first + n - 1 */
} bs_explain_insn;

typedef struct bs_explain bs_explain;

bs_explain *bs_explain_new(void);
void bs_explain_free(bs_explain *e);
/* Reads a whole explain.tsv (f is not closed); 0, or -1 with err. */
int bs_explain_read(bs_explain *e, FILE *f, const char *name, bs_error *err);
/* Instructions sorted by function, then pc; samples by launch, block,
 * warp, execution.  NULL when there is none (or out of memory). */
size_t bs_explain_instructions(bs_explain *e);
const bs_explain_insn *bs_explain_instruction(bs_explain *e, size_t i);
const bs_explain_insn *bs_explain_find(bs_explain *e, const char *function,
				       uint32_t pc);
const bs_explain_sample *bs_explain_sample_at(bs_explain *e, size_t i);

/* 1 when the instruction's opcode (after an @P predicate) is LDS, STS,
 * LDSM, STSM or ATOMS, with or without .modifiers; else 0. */
int bs_sass_is_shared(const char *sass);
/* Why CUPTI's LSU shared-memory metrics do not count an instruction that
 * uses shared memory (TMA UTMALDG/UTMASTG/UTMAREDG, bulk UBLKCP/UBLKRED,
 * warpgroup HGMMA/IGMMA/QGMMA/BGMMA), or NULL. */
const char *bs_sass_not_counted(const char *sass);

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
 * width; for a struct, the added bytes times 32, the structs one warp
 * reads (N structs cost N/32 times that); for an access, the rows its
 * active lanes span times the bytes added to a row.  When no change
 * reaches the ideal, `best` is the pad or swizzle change with the fewest
 * wavefronts, if one lowers them at all (ties by the same rule).
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
	int max_pad;             /* pad 0..max_pad elements; < 0: 128/width - 1 */
} bs_fix_input;

/* One change and the access it leads to. */
typedef struct {
	bs_fix_kind kind;
	unsigned pad;            /* padding of a row or struct after it, elements */
	bs_swizzle swizzle;      /* layout after it */
	unsigned width;          /* bytes per lane after it */
	unsigned merged;         /* WIDEN: narrow accesses one wide access
				    replaces; 1 otherwise */
	unsigned merged_wavefronts;  /* WIDEN: their wavefronts together */
	unsigned merged_ideal;       /* WIDEN: their ideal together */
	int64_t extra_bytes;     /* shared memory it adds (negative: frees) */
	bs_access access;        /* the access after it */
	bs_summary sum;
	char label[96];          /* "pad rows by 1 float" */
	char declaration[160];   /* "__shared__ float tile[32][33];  ..." */
	char index_change[160];  /* "tile[r][c ^ (r % 32)]  ..."; "" if none */
	char note[256];          /* what it requires or assumes */
} bs_fix_change;

typedef struct {
	bs_access before;
	bs_summary sum_before;
	unsigned max_pad;        /* the padding searched: 0..max_pad elements */
	unsigned tried;          /* changes evaluated */
	int already_ideal;       /* before has no bank conflict: nothing tried */
	int reaches_ideal;       /* best reaches the ideal */
	bs_fix_change best;      /* kind NONE: no change lowers the wavefronts */
	bs_fix_change alternative;   /* the cheapest ideal change of another
					kind than best, or kind NONE */
	char explanation[256];   /* changes that could not apply, and why */
} bs_fix;

/* "none", "pad", "swizzle", "widen". */
const char *bs_fix_kind_name(bs_fix_kind kind);
/* 0, or -1 with err (an invalid spec or access, max_pad too large). */
int bs_fix_search(const bs_profile *p, const bs_fix_input *in, bs_fix *out,
		  bs_error *err);

#ifdef __cplusplus
}
#endif

#endif
