/*
 * bs_sass.h - per-instruction profiles of real programs: the records
 * `bankscope profile` collects through CUPTI's SASS metrics.  Part of
 * bankscope.h.
 */
#ifndef BS_SASS_H
#define BS_SASS_H

#include "bs_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- per-instruction profiles -------------------------------------------
 * What `bankscope profile` reports: the shared-memory instructions of a
 * CUDA program as it ran, each SASS instruction with its executions and
 * wavefronts counted by CUPTI's SASS Metrics API (the injection library,
 * probes/inject/inject.c, which measures one kernel launch per run of the
 * program).  A records directory holds, from one or more runs:
 *
 *   status.txt       "ok", or why counters could not be collected; lines
 *                    after the first: failures of later runs
 *   records.tsv      BS_SASS_RECORD_COLUMNS, then one line per (launch,
 *                    function, pc), tab-separated: kernel (demangled when
 *                    the program could), launch index, cubin CRC, function
 *                    index, function symbol, pc offset (0x hex or
 *                    decimal), smsp__sass_inst_executed (warp
 *                    instructions), smsp__sass_l1tex_pipe_lsu_wavefronts_
 *                    mem_shared and its _ideal
 *   launches.tsv     BS_SASS_LAUNCH_COLUMNS, one line per kernel or graph
 *                    launch a run saw: index, kernel, and the records.tsv
 *                    lines it wrote when that run measured it, else "-"
 *   cubin-CRC.cubin  every module the program loaded
 *   cubin-CRC.sass   optional: its disassembly
 *
 * A bs_sassprof sums the records per (cubin, function, pc) over launches,
 * takes SASS text and source lines from disassemblies (nvdisasm -c -g
 * [-hex], or cuobjdump -sass: "Function : NAME" or ".text.NAME" headers;
 * instruction lines, a comment holding the hex offset, then the text up
 * to ';'; '//## File "x.cu", line 12' lines, the first position of an
 * "inlined at" chain; anything else is skipped), then keeps the
 * shared-memory instructions (bs_sass_is_shared) and any instruction that
 * moved shared wavefronts (a generic LD/ST to shared memory, say, or one
 * not found in a disassembly) and sorts them by excess wavefronts,
 * descending; ties by kernel, then pc.  Errors name the file, line and
 * column.
 */
#define BS_SASS_RECORD_COLUMNS \
	"kernel\tlaunch\tcubin_crc\tfunction_index\tfunction\tpc_offset\t" \
	"inst_executed\twavefronts\twavefronts_ideal"
#define BS_SASS_LAUNCH_COLUMNS "launch\tkernel\tpc_records"

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
} bs_sass_insn;

typedef struct {
	unsigned long index;
	const char *kernel;       /* from launches.tsv; NULL when not there */
	int measured;             /* a run measured it */
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
	unsigned long kernels;         /* distinct kernel names */
	unsigned long instructions;    /* distinct (cubin, function, pc) */
	unsigned long disassembled;    /* of those, found in a disassembly */
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

/* 1 when the instruction's opcode (after an @P predicate) is LDS, STS,
 * LDSM, STSM or ATOMS, with or without .modifiers; else 0. */
int bs_sass_is_shared(const char *sass);

#ifdef __cplusplus
}
#endif

#endif
