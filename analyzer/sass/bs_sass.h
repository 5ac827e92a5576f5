/*
 * bs_sass.h - per-instruction profiles of real programs: the records
 * `bankscope profile` collects through CUPTI's SASS metrics, and their
 * analysis: the records directory read, the join to a pattern file, and
 * --explain's verdict.  Part of bankscope.h; the wing above the fix's
 * (an explained access gets its fix).
 */
#ifndef BS_SASS_H
#define BS_SASS_H

#include "../fix/bs_fix.h"

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
/* explain-counts.tsv (BS_EXPLAIN_COUNT_COLUMNS) into e: 0, or -1 (err). */
int bs_explain_read_counts(bs_explain *e, FILE *f, const char *name,
			   bs_error *err);
typedef struct {
	unsigned long launches;   /* the function's sampled launches */
	uint64_t active;          /* the instruction's executions with a lane
				     on, over them (0: none reached it) */
	uint64_t remote;          /* of those, another CTA's */
} bs_explain_counts;
/* 1 when e holds counts (an explain-counts.tsv with a line), else 0. */
int bs_explain_has_counts(const bs_explain *e);
/* The explain library's counts of an instruction: 0 and *out, or -1 when
 * e holds none of function (no counts file, or no launch of it wrote
 * any: a launch whose pc table filled up writes none). */
int bs_explain_count(bs_explain *e, const char *function, uint32_t pc,
		     bs_explain_counts *out);

/* ---- a records directory read (records.c) ---------------------------------
 * Every file of a records directory is opened without blocking (a FIFO
 * planted there must not hang a replay) and refused unless it is a
 * regular file (a device such as /dev/zero never ends).  Errors name the
 * file (and line and column where there is one).
 */
/* path for reading: an fd, or -1 with errno ENOENT and err untouched when
 * it is not there, -1 with err set when it cannot be read. */
int bs_records_open_fd(const char *path, bs_error *err);
/* The same as a FILE (NULL where that gives -1). */
FILE *bs_records_open(const char *path, bs_error *err);

#define BS_RECORDS_LATER_MAX 4      /* later runs' failures kept */
typedef enum {
	BS_RECORDS_NONE,            /* no status.txt: no kernel launched */
	BS_RECORDS_OK,
	BS_RECORDS_FAILED,          /* counters could not be collected */
} bs_records_state;

typedef struct {
	bs_records_state state;
	char reason[1024];          /* status.txt's first line ("ok") */
	char later[BS_RECORDS_LATER_MAX][512];   /* later runs' failures */
	int nlater;
} bs_records_status;

/* dir/status.txt (at most 64 KiB, one line of text, then later runs'
 * lines; a UTF-8 byte-order mark before it is dropped): 0, or -1 (err);
 * st->state BS_RECORDS_NONE when there is no status.txt. */
int bs_records_read_status(const char *dir, bs_records_status *st,
			   bs_error *err);
/* dir/records.tsv (required: its absence is an error) and launches.tsv
 * (when there) into sp: 0, or -1 (err). */
int bs_records_read_tables(const char *dir, bs_sassprof *sp,
			   int records_required, bs_error *err);

/*
 * The disassembler hook: asked for the n cubins recorded in sp that have
 * no cubin-CRC.sass in dir yet, it makes their disassembly.  For each
 * request, fd is the cubin, opened for reading (-1: no cubin saved; skip
 * it, and do not close fd); the hook sets out to the disassembly, open
 * for reading at its start (a temporary file, fresh 1), or saved 1 when it
 * wrote dir/cubin-CRC.sass instead, or leaves both 0 when it made none.
 */
typedef struct {
	uint32_t crc;
	int fd;
	FILE *out;
	int fresh, saved;
} bs_disasm_request;

typedef void (*bs_disasm_hook)(void *ctx, const char *dir,
			       const bs_sassprof *sp, bs_disasm_request *q,
			       size_t n);

/* A disassembly that lacks instructions recorded in its cubin (an empty
 * or cut one blanks their SASS, source and joined predictions). */
typedef struct {
	uint32_t crc;
	size_t missing, recorded;
	int fresh;                  /* made now into a temporary file, not
				       one of the directory's */
} bs_records_gap;

typedef struct {
	unsigned long no_disasm;    /* cubins not disassembled */
	unsigned long no_cubin;     /* of those, cubins not saved */
	bs_records_gap *gap;        /* allocated: the caller frees it */
	size_t ngap;
} bs_records_disasm;

/*
 * Every cubin's disassembly read into sp (before bs_sassprof_finish):
 * dir/cubin-CRC.sass where it is there, else what hook (NULL: none)
 * makes; d says which were not and which lack instructions.  0, or -1
 * (err).
 */
int bs_records_read_disasm(const char *dir, bs_sassprof *sp,
			   bs_disasm_hook hook, void *ctx,
			   bs_records_disasm *d, bs_error *err);
/* dir/device.txt, "CC<tab>NAME" (a UTF-8 byte-order mark before it is
 * dropped): 1 and the compute capability and GPU name, 0 when it is not
 * there, -1 (err) when it is unreadable or not such a line. */
int bs_records_read_device(const char *dir, char *cc, size_t ccsize,
			   char *gpu, size_t gpusize, bs_error *err);
/*
 * dir/explain.tsv into a new *out (also when it is not there: then
 * empty), with explain-counts.tsv when it is there, and
 * explain-status.txt's line in status when it is not "ok" (else "").
 * 1 read, 0 no explain.tsv, -1 (err).
 */
int bs_records_read_explain(const char *dir, bs_explain **out,
			    char *status, size_t size, bs_error *err);

/* ---- the join: profiled instructions to KERNEL:OP:RANK patterns (join.c) ---
 * A pattern file names accesses as `bankscope-tutorial --patterns`
 * prints them; join.c's head says how an instruction finds its own.
 */
typedef struct bs_join bs_join;

/* The pattern file at path, read whole: the join, or NULL with err. */
bs_join *bs_join_open(const char *path, bs_error *err);
/* 1 and the access of instruction i of the n of sp, or 0 when none. */
int bs_join_find(bs_join *j, const bs_sassprof *sp, size_t n, size_t i,
		 bs_access *out);
/* 1 and instruction i's joined access and its prediction under arch, 0
 * when it has none or arch does not model it. */
int bs_join_predict(bs_join *j, const bs_arch *arch, const bs_sassprof *sp,
		    size_t n, size_t i, bs_access *a, bs_summary *s);
/* A new dataset at path (bs_dataset_commit: never over a file) of the
 * joined instructions, predicted under arch, its path in final; every
 * write checked: 0, or -1 with err. */
int bs_join_write_dataset(bs_join *j, const bs_arch *arch,
			  const bs_sassprof *sp, size_t n, const char *path,
			  const char *source, char *final, size_t size,
			  bs_error *err);
void bs_join_free(bs_join *j);

/* ---- the verdict: profile --explain's analysis (verdict.c) ----------------
 * For each profiled shared-memory instruction, the model's prediction
 * from the lanes' real addresses (its samples in explain.tsv) against
 * CUPTI's counts, under the architecture the caller passes:
 *   AGREES          every sample predicts the same wavefronts and the
 *                   counters' mean equals them (or, for an @P
 *                   instruction, their mean over the executions with a
 *                   lane on; or, for an instruction of a retry loop,
 *                   the loop model's wavefronts per pass)
 *   DISAGREES       every sample predicts the same wavefronts and the
 *                   counters' mean is another: a finding about the model
 *                   or the counters, shown as it is
 *   DATA-DEPENDENT  the samples predict different wavefronts (addresses
 *                   that depend on the data: histogram bins, sorting):
 *                   the sampled distribution and the counters' mean, no
 *                   equality claimed
 *   NOT MODELED     the architecture has no rule for the access's kind
 *                   and width: the addresses are still recorded
 *   BAD SAMPLES     no sample is a valid access of its kind and width (an
 *                   address misaligned for the width, or past the 32-bit
 *                   window: the recording is damaged); the first is named
 *   LANES OFF       no sample, and the explain library's counts show
 *                   that no execution had a lane on (each was predicated
 *                   off in every lane) while the counters count no
 *                   wavefront: nothing moved, as the model says
 *   REMOTE          samples in another CTA's shared memory (a generic
 *                   LD.E, ST.E, ATOM.E.ADD or RED.E.ADD of a cluster
 *                   kernel): their sectors, lines, dshared wavefronts and
 *                   latency predicted; CUPTI has no per-instruction sector
 *                   counter, so nothing agrees or disagrees.  The
 *                   instruction's own-CTA samples (self) are priced by the
 *                   bank model and judged against the counters'
 *                   wavefronts per self execution (executions - dshared).
 * Where the explain library counted the sampled launch's executions with
 * a lane on (explain-counts.tsv; one launch measured and one sampled, and
 * no more such executions than CUPTI counted), the counters' mean is
 * taken over those executions: an execution whose lanes are all
 * predicated off counts for CUPTI but moves nothing.  Without counts an
 * @P instruction is read through its ideal (bs_verdict_result.active).
 * DATA-DEPENDENT is judged by the samples' mean and its standard error
 * (verdict.c's spread() says which variance): when the counters' mean
 * lies more than BS_VERDICT_Z standard errors from it, the verdict is
 * DISAGREES.  So is an instruction whose samples all predict one figure
 * that the counters' mean misses, but whose lanes or addresses vary from
 * sample to sample (varies): a value the samples missed may be the
 * difference, and within BS_VERDICT_Z it is DATA-DEPENDENT.  An instruction no Sanitizer API
 * callback records (bs_sass_unseen: HGMMA, UTMALDG, ...) and no sample
 * is NOT MODELED, its reason in unseen.
 * A sample that is not a valid access is left out of the figures and
 * counted apart (invalid), whatever the verdict.  Two figures agree when
 * they differ by less than BS_VERDICT_TOL wavefronts.  The result holds
 * every number a report of it shows; the printers compute nothing.
 */
#define BS_VERDICT_TOL 0.005
#define BS_VERDICT_Z 3.0

typedef enum {
	BS_VERDICT_NONE = 0,          /* no sampled execution */
	BS_VERDICT_AGREES,
	BS_VERDICT_DISAGREES,
	BS_VERDICT_DATA_DEPENDENT,
	BS_VERDICT_NOT_MODELED,
	BS_VERDICT_BAD_SAMPLES,
	BS_VERDICT_REMOTE,
	BS_VERDICT_LANES_OFF,
} bs_verdict;

/* How often each value comes, the values ascending, at most
 * BS_VERDICT_HIST_MAX of them (more: the samples of other values). */
#define BS_VERDICT_HIST_MAX 8
typedef struct {
	unsigned val[BS_VERDICT_HIST_MAX];
	size_t cnt[BS_VERDICT_HIST_MAX], nv, more;
} bs_verdict_hist;

void bs_verdict_hist_add(bs_verdict_hist *h, unsigned v);

typedef struct {
	const bs_arch *arch;         /* the architecture it was judged under */
	const bs_sass_insn *in;      /* the instruction (its counters) */
	const bs_explain_insn *x;    /* its samples, or NULL */
	size_t samples;              /* sampled executions */
	size_t predicted;            /* of those, the model predicted */
	size_t invalid;              /* of those, not valid accesses (an
					address misaligned for the width, or
					past the window): damaged samples,
					left out */
	char invalid_why[256];       /* the first one's sample and fault */
	const char *sass;            /* the instruction, or NULL */
	const char *kind;            /* the access kind (the kinds table's
					name when a sample maps to one) */
	unsigned width;
	unsigned min_wf, max_wf, min_ideal, max_ideal;
	unsigned long sum_wf, sum_ideal, sum_conflicts;
	double mean_wf;
	double measured_wf, measured_ideal;   /* per execution; NaN: none */
	/*
	 * The samples' distribution: wavefronts, or for REMOTE the remote
	 * samples' sectors (every predicted sample, as the figures above).
	 */
	bs_verdict_hist dist;
	int inside;                  /* the counters' mean lies within the
					sampled range (to the tolerance) */
	int ideal_differs;           /* constant sampled ideal, no predicate
					or loop reading, and the counters'
					ideal per execution is another */
	size_t worst;                /* sample with the most wavefronts
					(REMOTE: sectors) */
	double active;               /* agreeing only over the executions
					with a lane on: their share; else 0 */
	/*
	 * The explain library's counts of the sampled launch, when they
	 * can stand beside the counters (counted): the executions with a
	 * lane on, those of them on another CTA's shared memory, and the
	 * counters' wavefronts and ideal per execution with a lane on (NaN:
	 * none had one).
	 */
	int counted;
	uint64_t active_execs, remote_execs;
	double measured_active, measured_active_ideal;
	/* The counters' mean the samples are judged against: measured_active
	 * when counted, else measured_wf. */
	double judged_wf;
	/* DATA-DEPENDENT: the predicted samples' standard deviation, their
	 * mean's standard error, and z = |judged_wf - mean_wf| / se (NaN
	 * when se is 0) */
	double sd_wf, se_wf, z;
	/* the mean z is taken from: the grid samples' weighted by the
	 * executions each stands for when there are two or more, else
	 * mean_wf */
	double judged_mean;
	double neff;                 /* the samples behind se_wf: predicted,
					or the weighted grid's effective
					number */
	double sum_wf2;              /* the samples' squares, summed */
	/* the grid samples' sums, each weighted by the executions it stands
	 * for (verdict.c, spread()): weights, their squares, weighted
	 * wavefronts and their squares; how many; the grid's first points
	 * (its execs) */
	double grid_w, grid_w2, grid_wx, grid_wx2;
	size_t grid_n;
	uint64_t grid_execs;
	int varies;                  /* the predicted samples' lanes, or their
					addresses less the first lane's,
					differ from sample to sample */
	size_t pattern;              /* the first predicted sample */
	const char *unseen;          /* NOT MODELED with no sample: why no
					callback records it */
	bs_verdict verdict;
	const bs_sass_insn *loop;    /* the ATOMS.CAST.SPIN of the retry loop
					this instruction is part of (the
					caller links it: bs_explain_loop_find),
					else NULL */
	/*
	 * Its loop, run by the model from each sampled warp's first
	 * execution: loop_state 0 not run (no loop, or its kind has no
	 * rule: loop_kind says), 1 no warp's first execution sampled, 2
	 * run.  loop_equal: the counters' mean per execution equals the
	 * model's per pass; loop_agrees: that, and every later sampled
	 * execution is a pass the model makes, which makes the verdict
	 * AGREES.
	 */
	int loop_state, loop_agrees, loop_equal;
	bs_kind loop_kind;
	unsigned loop_loops, loop_checked, loop_matched;
	unsigned long loop_passes, loop_load_wf, loop_cas_wf;
	double loop_mean;            /* this instruction's wavefronts a pass */
	/*
	 * REMOTE: the samples the model priced (remote), the others of the
	 * instruction (self, aimed at its own CTA), and per priced execution
	 * the least and most sectors, 128-byte lines, dshared wavefronts and
	 * latency (NaN: not modeled), the mean sectors.
	 */
	size_t remote, self;
	unsigned min_sectors, max_sectors, min_lines, max_lines;
	unsigned min_dwf, max_dwf;
	unsigned long sum_sectors;
	double mean_sectors;
	double min_lat, max_lat;
	/*
	 * The self samples priced by the bank model under the instruction's
	 * kind on its own CTA (dsmem.ld: ld, ...): how many, the least and
	 * most wavefronts; the counters' wavefronts per self execution
	 * (wavefronts / (executions - dshared); NaN: dshared unknown or no
	 * self execution), and whether they equal the samples' (when every
	 * priced sample gives the same).
	 */
	size_t self_priced;
	unsigned self_min_wf, self_max_wf;
	double self_measured;
	int self_agrees;
	uint64_t self_execs;         /* executions on its own CTA: counted,
					active - remote; else executions -
					dshared (dshared known) */
} bs_verdict_result;

/*
 * The worst sampled execution in detail, for a report that draws it: the
 * sample, its access and the model's detail (ok: both there), the loop
 * rule its kind has (a compare-and-store of a retry loop: then no map, no
 * fix), and the fix search's answer for it (fixed: searched; an access
 * with no bank conflict is not, a remote one always).
 */
typedef struct {
	int ok;
	const bs_explain_sample *sample;
	bs_access access;
	bs_detail detail;
	const bs_rule *loop_rule;
	int fixed;
	bs_fix fix;
} bs_verdict_worst;

/*
 * The one place a sampled execution becomes the model's access: its kind
 * and width from the instruction's SASS through the kinds table (LDSM.16.
 * M88.4 is ldsm.x4, ATOMS.POPC.INC.32 red.add1.u32, LDGSTS.E.128 a
 * 16-byte cp.async.ca); a remote sample takes the dsmem kind of its
 * generic opcode (bs_sass_remote_kind: LD.E.128 is a 16-byte dsmem.ld),
 * and without SASS text none; a generic instruction's execution on its
 * own CTA the dsmem kind less "dsmem."; an instruction no disassembly
 * names, ld or st as the Sanitizer API saw it.  The lanes that supply no
 * address for the kind are dropped.  0, or -1 when no kind fits.
 */
int bs_explain_access(const bs_explain_sample *s, const char *sass,
		      bs_access *a);
/*
 * 1 when cas is the ATOMS.CAST.SPIN of a retry loop (atom.add.f32 or
 * atom.add.u64, whose rules are loop=cas) and in is that loop's load or
 * cas itself: an LDS of the same function up to 0x200 bytes before it,
 * from the same source line (-lineinfo) or through the same address
 * operand.  ptxas emits the loop as LDS, the operation, ATOMS.CAST.SPIN
 * and a branch back.
 */
int bs_explain_loop_of(const bs_sass_insn *in, const bs_sass_insn *cas);
/* The ATOMS.CAST.SPIN among the n instructions of sp whose retry loop in
 * is part of, or NULL. */
const bs_sass_insn *bs_explain_loop_find(const bs_sassprof *sp, size_t n,
					 const bs_sass_insn *in);
/*
 * The verdict on instruction in (its retry loop's ATOMS.CAST.SPIN, or
 * NULL) from the samples of e under arch: r filled; w, when not NULL,
 * the worst sample in detail (for AGREES, DISAGREES, DATA-DEPENDENT and
 * REMOTE).  1 when it has samples, 0 when none (r->verdict BS_VERDICT_NONE).
 */
int bs_explain_judge(const bs_arch *arch, bs_explain *e,
		     const bs_sass_insn *in, const bs_sass_insn *loop,
		     bs_verdict_result *r, bs_verdict_worst *w);
/* "AGREES", "DATA-DEPENDENT", ..., "NO SAMPLE". */
const char *bs_verdict_name(bs_verdict v);

/* 1 when the instruction's opcode (after an @P predicate) is one of the
 * kinds table's (bs_sass_kind: LDS, STS, LDSM, STSM, ATOMS, LDGSTS), with
 * or without .modifiers; else 0. */
int bs_sass_is_shared(const char *sass);
/* Why CUPTI's LSU shared-memory metrics do not count an instruction that
 * uses shared memory (TMA UTMALDG/UTMASTG/UTMAREDG, bulk UBLKCP/UBLKRED,
 * warpgroup HGMMA/IGMMA/QGMMA/BGMMA), or NULL. */
const char *bs_sass_not_counted(const char *sass);
/* Why no Sanitizer API callback records an instruction's shared-memory
 * addresses (warpgroup MMA operands, TMA and bulk copies), or NULL. */
const char *bs_sass_unseen(const char *sass);

#ifdef __cplusplus
}
#endif

#endif
