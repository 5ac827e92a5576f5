/*
 * bs_sass.h - per-instruction profiles of real programs: the records
 * `bankscope profile` collects through CUPTI's SASS metrics.  Part of
 * bankscope.h.
 */
#ifndef BS_SASS_H
#define BS_SASS_H

#include "../model/bs_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- per-instruction profiles -------------------------------------------
 * What `bankscope profile` reports: the shared-memory instructions of a
 * CUDA program as it ran, each SASS instruction with its executions and
 * wavefronts counted by CUPTI's SASS Metrics API (the injection library,
 * profiler/inject/inject.c, which measures one kernel per run of the
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
 *                    mem_shared and its _ideal; files with the header
 *                    BS_SASS_RECORD_COLUMNS_DSHARED add dshared,
 *                    smsp__sass_inst_executed_op_dshared: the warp
 *                    instructions of that pc that accessed another
 *                    CTA's shared memory (distributed shared memory;
 *                    on an H100 a CTA's access to its own shared memory
 *                    through a cluster address counts 0), a count or
 *                    "-" when the GPU does not offer the metric
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
 * not found in a disassembly), any with remote executions (dshared > 0:
 * a generic LD.E, ST.E, ATOM.E or RED.E into another CTA's shared
 * memory, bs_sass_remote_kind), and, marked not_counted, the executed
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
#define BS_SASS_RECORD_COLUMNS_DSHARED BS_SASS_RECORD_COLUMNS "\tdshared"
#define BS_SASS_LAUNCH_COLUMNS "launch\tkernel\tpc_records"
/*
 * explain.tsv, written by libbankscope_explain.so (profiler/explain/explain.c)
 * for `bankscope profile --explain`: one line per sampled warp execution
 * of a shared-memory instruction, tab-separated: launch index, kernel
 * (demangled), function symbol, pc offset in the function (0x hex, as in
 * records.tsv), access kind (ld, st, atom, ldsm, stsm, ldgsts, remote),
 * bytes per lane, matrices per lane (ldsm/stsm; 1 otherwise), block and
 * warp (linear indexes), the execution of that instruction by that warp
 * (from 0), and the 32 lanes' shared-window addresses, space-separated,
 * '-' for a lane that did not take part (the pattern-file lane fields).
 * A remote sample is a warp execution of a generic instruction (LD.E,
 * ST.E, ATOM.E, RED.E) whose lanes addressed another CTA's shared memory:
 * each address is the low 32 bits of the lane's generic address (only
 * the differences between lanes matter: the sectors and lines they
 * touch), width its bytes per lane.  Files written
 * since 2026-11-24's second session add a column, sources
 * (BS_EXPLAIN_COLUMNS_SOURCES): for ldgsts, each lane's global source
 * address, its low 32 bits, the lane fields again; '-' for the other
 * kinds.  The reader takes either header.
 */
#define BS_EXPLAIN_COLUMNS \
	"launch\tkernel\tfunction\tpc_offset\tkind\twidth\tcount\tblock\t" \
	"warp\texec\taddresses"
#define BS_EXPLAIN_COLUMNS_SOURCES BS_EXPLAIN_COLUMNS "\tsources"
/*
 * Since 2026-12-02 the explain library also samples across the grid: a
 * sample whose exec has BS_EXPLAIN_GRID set was taken from a warp outside
 * the first blocks and warps, and exec's other bits are its index among
 * all the launch's executions of the instruction (explain.h says which
 * are sampled).  Beside it, explain-counts.tsv (BS_EXPLAIN_COUNT_COLUMNS):
 * per sampled launch and instruction, the warp executions that had a lane
 * on, counted in every warp (an execution whose lanes are all predicated
 * off moves nothing and calls no callback: CUPTI counts it, this does
 * not), and of those the ones that reached another CTA's shared memory.
 */
#define BS_EXPLAIN_GRID 0x80000000u
#define BS_EXPLAIN_COUNT_COLUMNS \
	"launch\tkernel\tfunction\tpc_offset\tactive\tremote"

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
	uint64_t dshared;         /* remote executions (another CTA's shared
				     memory), all launches */
	int dshared_known;        /* every record of it gave dshared */
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
	unsigned long drained;         /* of those, summed over a run's
					  window (launch "-") */
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
	unsigned long dshared_records; /* records that gave dshared */
	unsigned long remote;          /* kept instructions with dshared > 0 */
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
/* The distinct function symbols recorded in cubin crc: how many, at most
 * max in name (interned: valid until bs_sassprof_free). */
size_t bs_sassprof_functions(const bs_sassprof *p, uint32_t crc,
			     const char **name, size_t max);
/*
 * The .symtab indexes of the STT_FUNC symbols named names[0..n) in the
 * cubin buf[0..len) (ELF64, little-endian): idx[i] its index, 0 when no
 * function symbol has that name (index 0 is never a function).  Returns
 * how many were found, or -1 with err when buf is not such a file or a
 * table lies past its end.  nvdisasm -fun takes these indexes.
 */
int bs_cubin_function_indexes(const unsigned char *buf, size_t len,
			      const char *const *names, size_t n,
			      unsigned long *idx, bs_error *err);
/* The instructions recorded in cubin crc that no disassembly read so far
 * named (before bs_sassprof_finish): how many; *recorded (or NULL) all
 * its recorded instructions. */
size_t bs_sassprof_undisassembled(const bs_sassprof *p, uint32_t crc,
				  size_t *recorded);
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
 * (the global-to-shared callback: the shared destination), "remote" (a
 * generic access into another CTA's shared memory: the low 32 bits of
 * each lane's generic address).
 */
typedef struct {
	unsigned long launch;
	uint32_t pc;              /* offset in the function */
	const char *kind;         /* static string, see above */
	unsigned width;           /* bytes per lane */
	unsigned count;           /* matrices per lane (ldsm, stsm), else 1 */
	unsigned block, warp, exec;
	uint32_t active;          /* lanes that took part */
	uint32_t addr[BS_LANES];  /* shared-window byte addresses (remote:
				     generic addresses' low 32 bits) */
	int has_src;              /* ldgsts with a sources field */
	uint32_t src[BS_LANES];   /* its global sources, low 32 bits */
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

/* 1 when the instruction's opcode (after an @P predicate) is one of the
 * kinds table's (bs_sass_kind: LDS, STS, LDSM, STSM, ATOMS, LDGSTS), with
 * or without .modifiers; else 0. */
int bs_sass_is_shared(const char *sass);
/* Why CUPTI's LSU shared-memory metrics do not count an instruction that
 * uses shared memory (TMA UTMALDG/UTMASTG/UTMAREDG, bulk UBLKCP/UBLKRED,
 * warpgroup HGMMA/IGMMA/QGMMA/BGMMA), or NULL. */
const char *bs_sass_not_counted(const char *sass);

#ifdef __cplusplus
}
#endif

#endif
