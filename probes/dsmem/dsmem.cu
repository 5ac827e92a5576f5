/*
 * dsmem.cu - bankscope-dsmem: what one warp's access to another CTA's
 * shared memory costs (distributed shared memory, sm_90 thread-block
 * clusters), measured against the same access to the warp's own.
 *
 * One cluster of two CTAs of one warp each.  Each CTA asks for
 * DSMEM_SMEM bytes of dynamic shared memory, more than half of what an
 * SM holds (228 KiB on sm_90), so the two cannot share an SM: the remote
 * target is always another SM's shared memory.  Every row records both
 * CTAs' %smid and says "same-sm" in its check column if they ever match.
 *
 * A point is one warp access: an op (ld, st, red.add.u32, atom.add.u32),
 * a width (1, 2, 4, 8, 16 bytes; 4 for red and atom) and 32 lane byte
 * offsets into a DSMEM_WINDOW-byte window (-1: the lane is inactive).
 * Warp 0 of CTA 0 runs it against one of three targets:
 *
 *   local   its own CTA through ld/st/red/atom.shared (LDS, STS, ATOMS);
 *   self    its own CTA through a shared::cluster address (mapa to its
 *           own rank);
 *   remote  CTA 1 through mapa to rank 1: another SM.
 *
 * Both CTAs fill their window first (word i holds DSMEM_FILL(rank, i))
 * and meet at a cluster barrier; CTA 1 waits at a second one until CTA 0
 * is done, so its shared memory outlives every remote access.
 *
 * Timing (cycles per access, clock64 on CTA 0's SM): a dependent chain
 * for ops that return a value (ld, atom: the next address is the lane's
 * offset plus value & zero, zero a kernel argument equal to 0), the
 * back-to-back issue interval for those that do not (st, red).  Each
 * repetition times CHAIN_SHORT and CHAIN_LONG accesses, and cycles per
 * access = (t_long - t_short) / (CHAIN_LONG - CHAIN_SHORT), so the clock
 * reads and the last access's unawaited latency cancel; the row keeps
 * the median and the smallest of DSMEM_REPS repetitions (one warm-up
 * repetition not recorded).
 *
 * Counters (CUPTI's range profiler, probes/counters.c, in this process):
 * each metric group of `groups` below is one pass on GH100; a group the
 * device cannot collect (a name it does not know) is left empty and
 * named in a "# counters group N not collected" line, the others go on.
 * Per instruction = (m(2R) - m(R)) / R with R = COUNT_REPS: the window
 * fill, the barriers and the mapa instructions cancel.
 *
 * Data check after every run: loads sum what they read, which must equal
 * the fill of the words they name; stores write DSMEM_MARK(lane) and the
 * target's words are read back (each written word must hold the mark of
 * a lane that wrote it); red and atom add 1 per lane and access, and
 * every word must end at its fill plus that count.  A failed check is
 * written in the row's check column, never hidden.
 *
 * Points: the dsmem family's (analyzer/families/dsmem.c: strides,
 * broadcast, lanes sharing words, partial warps, lines, one sector, and
 * 16 seeded random points per (op, width), held out as holdout=1), each
 * run with the kernel of its kind's row of the accessor table below.
 * Output: CSV, '#' metadata first; progress on stderr.
 *
 * Usage: bankscope-dsmem [--quick] [--no-counters] [--file PATTERNS]
 * [--out FILE|-] | --help | --version; the file is
 * data/<gpu>/dsmem-<time>.csv unless --out names one.  --file reads at
 * most DSMEM_MAX_POINTS accesses; each option is given once.  Messages
 * go through say(), escaped as bankscope escapes.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sys/stat.h>

#include <cuda_runtime.h>

#define BS_CHECK_PROGRAM "bankscope-dsmem"
#include "bankscope.h"
#include "say.h"
#include "check.h"
#include "counters.h"
#include "metrics.h"

#define DSMEM_SMEM (120 * 1024)
#define DSMEM_WINDOW (48 * 1024)
#define DSMEM_WORDS (DSMEM_WINDOW / 4)
#define DSMEM_FILL(rank, i) ((uint32_t)(((rank) + 1) * 0x01000000u + (i)))
#define DSMEM_MARK(lane) ((uint32_t)(0xa5000000u | (lane)))
#define CHAIN_SHORT 32
#define CHAIN_LONG 96
#define DSMEM_REPS 7
#define COUNT_REPS 64

enum { OP_LD, OP_ST, OP_RED, OP_ATOM, NOPS };
enum { T_LOCAL, T_SELF, T_REMOTE, NTARGETS };
static const char *const op_name[NOPS] = { "ld", "st", "red.add.u32",
					   "atom.add.u32" };
static const char *const target_name[NTARGETS] = { "local", "self",
						   "remote" };
/* The most accesses --file may give: each is NTARGETS rows of launches
 * and counter passes, so a file past it is refused as it is read. */
#define DSMEM_MAX_POINTS 65536

/* A message line on stderr, escaped (cudabase/say.h). */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bs_vsay("bankscope-dsmem", fmt, ap);
	va_end(ap);
}

/* ---- device side ---------------------------------------------------------- */

__device__ __forceinline__ long long clock_read(void)
{
	long long t;

	asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) : : "memory");
	return t;
}

__device__ __forceinline__ unsigned smid(void)
{
	unsigned s;

	asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
	return s;
}

__device__ __forceinline__ void cluster_sync(void)
{
	asm volatile("barrier.cluster.arrive.release.aligned;\n\t"
		     "barrier.cluster.wait.acquire.aligned;" : : : "memory");
}

/* The shared::cluster address of byte a of rank's window. */
__device__ __forceinline__ uint32_t map_rank(uint32_t a, unsigned rank)
{
	uint32_t r;

	asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
		     : "=r"(r) : "r"(a), "r"(rank));
	return r;
}

/*
 * One access of W bytes at a (a shared address when CL is 0, a
 * shared::cluster one when 1): ld returns the first word it read (the
 * others are read and dropped), st writes v to every word.
 */
template <int W, int CL> struct acc;

/* The state space of CL: the CTA's own shared memory, or the cluster's. */
#define SPACE0 ".shared"
#define SPACE1 ".shared::cluster"

/* 1, 2 and 4 bytes: one register, REG (RC its constraint). */
#define ACC_SCALAR(W, CL, LDT, STT, REG, RC)                                 \
	template <> struct acc<W, CL> {                                      \
		static __device__ __forceinline__ uint32_t ld(uint32_t a)    \
		{                                                            \
			REG r;                                               \
			asm volatile("ld.volatile" SPACE##CL "." LDT         \
				     " %0, [%1];"                            \
				     : "=" RC(r) : "r"(a) : "memory");       \
			return (uint32_t)r;                                  \
		}                                                            \
		static __device__ __forceinline__ void st(uint32_t a,        \
							  uint32_t v)        \
		{                                                            \
			asm volatile("st.volatile" SPACE##CL "." STT         \
				     " [%0], %1;"                            \
				     : : "r"(a), RC((REG)v) : "memory");     \
		}                                                            \
	};
#define ACC(W, LDT, STT, REG, RC)                                            \
	ACC_SCALAR(W, 0, LDT, STT, REG, RC)                                  \
	ACC_SCALAR(W, 1, LDT, STT, REG, RC)
#define R16 "h"
#define R32 "r"
ACC(1, "u8", "u8", unsigned short, R16)
ACC(2, "u16", "u16", unsigned short, R16)
ACC(4, "u32", "u32", uint32_t, R32)

/* 8 and 16 bytes: two and four words. */
#define ACC_V2(CL)                                                           \
	template <> struct acc<8, CL> {                                      \
		static __device__ __forceinline__ uint32_t ld(uint32_t a)    \
		{                                                            \
			uint32_t x, y;                                       \
			asm volatile("ld.volatile" SPACE##CL ".v2.u32 "      \
				     "{%0, %1}, [%2];"                       \
				     : "=r"(x), "=r"(y) : "r"(a) : "memory"); \
			return x + (y & 0u);                                 \
		}                                                            \
		static __device__ __forceinline__ void st(uint32_t a,        \
							  uint32_t v)        \
		{                                                            \
			asm volatile("st.volatile" SPACE##CL ".v2.u32 "      \
				     "[%0], {%1, %1};"                       \
				     : : "r"(a), "r"(v) : "memory");         \
		}                                                            \
	};
#define ACC_V4(CL)                                                           \
	template <> struct acc<16, CL> {                                     \
		static __device__ __forceinline__ uint32_t ld(uint32_t a)    \
		{                                                            \
			uint32_t x, y, z, w;                                 \
			asm volatile("ld.volatile" SPACE##CL ".v4.u32 "      \
				     "{%0, %1, %2, %3}, [%4];"               \
				     : "=r"(x), "=r"(y), "=r"(z), "=r"(w)    \
				     : "r"(a) : "memory");                   \
			return x + ((y ^ z ^ w) & 0u);                       \
		}                                                            \
		static __device__ __forceinline__ void st(uint32_t a,        \
							  uint32_t v)        \
		{                                                            \
			asm volatile("st.volatile" SPACE##CL ".v4.u32 "      \
				     "[%0], {%1, %1, %1, %1};"               \
				     : : "r"(a), "r"(v) : "memory");         \
		}                                                            \
	};
ACC_V2(0)
ACC_V2(1)
ACC_V4(0)
ACC_V4(1)

template <int CL> struct atomics;
#define ATOMICS(CL)                                                          \
	template <> struct atomics<CL> {                                     \
		static __device__ __forceinline__ void red(uint32_t a)       \
		{                                                            \
			asm volatile("red" SPACE##CL ".add.u32 [%0], 1;"     \
				     : : "r"(a) : "memory");                 \
		}                                                            \
		static __device__ __forceinline__ uint32_t atom(uint32_t a)  \
		{                                                            \
			uint32_t r;                                          \
			asm volatile("atom" SPACE##CL ".add.u32 %0, [%1], 1;" \
				     : "=r"(r) : "r"(a) : "memory");         \
			return r;                                            \
		}                                                            \
	};
ATOMICS(0)
ATOMICS(1)

/*
 * n accesses of op at base + off (off >= 0), dependent for ld and atom;
 * returns what a check sums (the loaded words; 0 for the others).
 */
template <int OP, int W, int CL>
__device__ __forceinline__ uint32_t run(uint32_t base, uint32_t off, int n,
					uint32_t zero)
{
	uint32_t sum = 0, a = base + off;

	for (int i = 0; i < n; i++) {
		if (OP == OP_LD) {
			uint32_t v = acc<W, CL>::ld(a);
			sum += v;
			a = base + off + (v & zero);
		} else if (OP == OP_ATOM) {
			uint32_t v = atomics<CL>::atom(a);
			a = base + off + (v & zero);
		} else if (OP == OP_RED) {
			atomics<CL>::red(a);
		} else {
			acc<W, CL>::st(a, DSMEM_MARK(threadIdx.x));
		}
	}
	return sum;
}

struct dsmem_args {
	int off[32];        /* byte offsets in the window; -1 inactive */
	int target;         /* T_* */
	int mode;           /* 0: timing, 1: counted (n = count) */
	int count;
	uint32_t zero;
};

struct dsmem_out {
	long long cycles[DSMEM_REPS + 1][2];  /* [rep][short, long] */
	uint32_t sum[32];                     /* lane's loaded words, summed */
	uint32_t words[32][4];                /* target words after (st, atoms) */
	unsigned sm[2];
};

extern __shared__ __align__(16) uint32_t window[];

/*
 * The access from base (a cluster address when CL is 1) at lane offset
 * off: counted, args.count times (the loaded words' sum back); or timed,
 * a short and a long chain DSMEM_REPS + 1 times (0 back).
 */
template <int OP, int W, int CL>
__device__ __forceinline__ uint32_t measure(uint32_t base, int off,
					    const dsmem_args &args,
					    dsmem_out *out, unsigned lane)
{
	if (args.mode)
		return run<OP, W, CL>(base, off, args.count, args.zero);
	for (int r = 0; r <= DSMEM_REPS; r++) {
		long long t0 = clock_read();
		run<OP, W, CL>(base, off, CHAIN_SHORT, args.zero);
		long long t1 = clock_read();
		run<OP, W, CL>(base, off, CHAIN_LONG, args.zero);
		long long t2 = clock_read();
		if (lane == __ffs(__activemask()) - 1) {
			out->cycles[r][0] = t1 - t0;
			out->cycles[r][1] = t2 - t1;
		}
	}
	return 0;
}

template <int OP, int W>
__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(32)
	dsmem_kernel(dsmem_args args, dsmem_out *out)
{
	unsigned rank;
	asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
	unsigned lane = threadIdx.x;

	for (unsigned i = lane; i < DSMEM_WORDS; i += 32)
		window[i] = DSMEM_FILL(rank, i);
	if (lane == 0)
		out->sm[rank] = smid();
	cluster_sync();

	int off = args.off[lane];
	uint32_t local = (uint32_t)__cvta_generic_to_shared(window);
	unsigned to = args.target == T_REMOTE ? 1 : 0;
	if (rank == 0 && off >= 0) {
		uint32_t sum;
		if (args.target == T_LOCAL)
			sum = measure<OP, W, 0>(local, off, args, out, lane);
		else
			sum = measure<OP, W, 1>(map_rank(local, to), off, args,
						out, lane);
		out->sum[lane] = sum;
	}
	cluster_sync();
	/* The target reads back the words the access named. */
	if (rank == to && off >= 0)
		for (int w = 0; w < (W + 3) / 4; w++)
			out->words[lane][w] = window[off / 4 + w];
}

/* ---- host side ------------------------------------------------------------- */

typedef void (*kernel_fn)(dsmem_args, dsmem_out *);

#define NONE NULL
#define ALL_WIDTHS(OP)                                                       \
	{ dsmem_kernel<OP, 1>, dsmem_kernel<OP, 2>, dsmem_kernel<OP, 4>,     \
	  dsmem_kernel<OP, 8>, dsmem_kernel<OP, 16> }
#define ONLY4(OP) { NONE, NONE, dsmem_kernel<OP, 4>, NONE, NONE }

/*
 * The accessor table: each remote kind of the kinds table (by name), its
 * op, and its kernel for each width (1, 2, 4, 8, 16 bytes; NONE where the
 * kind has no such width).  tests/check_kinds.c reads this table as text.
 */
typedef struct {
	const char *kind;
	int op;
	kernel_fn by_width[5];
} remote_row;

static const remote_row remote_accessors[] = {
	{ "dsmem.ld", OP_LD, ALL_WIDTHS(OP_LD) },
	{ "dsmem.st", OP_ST, ALL_WIDTHS(OP_ST) },
	{ "dsmem.red.add.u32", OP_RED, ONLY4(OP_RED) },
	{ "dsmem.atom.add.u32", OP_ATOM, ONLY4(OP_ATOM) },
};
#define NACCESSORS (sizeof remote_accessors / sizeof *remote_accessors)

typedef struct {
	char name[BS_NAME_MAX];
	int op, width, holdout;
	kernel_fn kernel;
	int off[32];
} point;

static point *points;
static int npoints;

/*
 * One access as a point: its accessor by kind and width, its offsets.  0,
 * or 1 with a message naming where (the access's name).
 */
static int add_point(const bs_access *a, const char *where)
{
	const char *kind = bs_kind_name(a->kind);
	point *p = &points[npoints];
	unsigned k;

	for (k = 0; k < NACCESSORS; k++)
		if (!strcmp(remote_accessors[k].kind, kind))
			break;
	if (k == NACCESSORS ||
	    !(p->kernel = remote_accessors[k].by_width[
		      bs_width_index(a->width)])) {
		say("%s: no kernel for %u-byte %s (dsmem.ld and dsmem.st of "
		    "1 to 16 bytes, dsmem.red.add.u32 and dsmem.atom.add.u32 "
		    "of 4)", where, a->width, kind);
		return 1;
	}
	for (int l = 0; l < 32; l++)
		if (a->active >> l & 1 &&
		    (a->addr[l] % a->width ||
		     a->addr[l] > DSMEM_WINDOW - a->width)) {
			say("%s: lane %d's address %u: a %u-byte access must "
			    "be aligned and end inside the %d-byte window",
			    where, l, a->addr[l], a->width, DSMEM_WINDOW);
			return 1;
		}
	snprintf(p->name, sizeof p->name, "%s", a->name);
	p->op = remote_accessors[k].op;
	p->width = (int)a->width;
	p->holdout = strstr(a->name, "_rnd") != NULL;
	for (int l = 0; l < 32; l++)
		p->off[l] = a->active >> l & 1 ? (int)a->addr[l] : -1;
	npoints++;
	return 0;
}

/*
 * The family's points (analyzer/families/dsmem.c), each with its
 * accessor; held out: the seeded random ones (*_rnd*).  0, or 1 with a
 * message.
 */
static int load_points(void)
{
	bs_points pl;
	int rc = 0;

	memset(&pl, 0, sizeof pl);
	if (bs_family_points("dsmem", &pl) < 0 ||
	    !(points = (point *)calloc(pl.n, sizeof *points))) {
		fprintf(stderr, "bankscope-dsmem: out of memory\n");
		bs_points_free(&pl);
		return 1;
	}
	for (size_t i = 0; i < pl.n && !rc; i++)
		rc = add_point(&pl.v[i], pl.v[i].name);
	bs_points_free(&pl);
	return rc;
}

/*
 * --file: a pattern file's accesses instead (bankscope predict's format),
 * each of a remote kind, its lanes' byte offsets in the window: whatever
 * the model prices remotely can be measured.  0, 1 (cannot read), 2 (bad
 * input), with a message naming the file and line.
 */
static int read_points(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	bs_reader *r;
	bs_access a;
	bs_error err;
	int cap = 0, rc, status = 0;
	char where[1200];

	if (!f) {
		say("%s: cannot open: %s", path, strerror(errno));
		return 2;
	}
	if (!(r = bs_reader_new(f, path))) {
		fprintf(stderr, "bankscope-dsmem: out of memory\n");
		return 1;
	}
	while ((rc = bs_reader_next(r, &a, &err)) > 0) {
		if (npoints == DSMEM_MAX_POINTS) {
			say("%s:%ld: more than %d accesses: give them in "
			    "several files", path, bs_reader_line(r),
			    DSMEM_MAX_POINTS);
			status = 2;
			break;
		}
		if (npoints == cap) {
			int n = cap ? 2 * cap : 64;
			point *q = (point *)realloc(points, (size_t)n *
						    sizeof *q);

			if (!q) {
				fprintf(stderr, "bankscope-dsmem: out of "
					"memory\n");
				status = 1;
				break;
			}
			points = q;
			cap = n;
		}
		snprintf(where, sizeof where, "%s:%ld: %s", path,
			 bs_reader_line(r), a.name);
		if (add_point(&a, where)) {
			status = 2;
			break;
		}
	}
	if (rc < 0) {
		char msg[600];

		bs_error_format(&err, msg, sizeof msg);
		say("%s", msg);
		status = 2;
	}
	bs_reader_free(r);
	if (f != stdin)
		fclose(f);
	if (!status && !npoints) {
		say("%s: no access in it", path);
		status = 2;
	}
	return status;
}

/* ---- counters ------------------------------------------------------------- */

static const char *const groups[][12] = {
	{ BS_DSMEM_METRIC_WAVEFRONTS_LD, BS_DSMEM_METRIC_WAVEFRONTS_ST,
	  BS_DSMEM_METRIC_WAVEFRONTS_ATOM, BS_DSMEM_METRIC_WAVEFRONTS_REDAS,
	  BS_DSMEM_METRIC_READ_SECTORS_REDAS,
	  BS_DSMEM_METRIC_WRITE_SECTORS_REDAS, BS_DSMEM_METRIC_SECTORS,
	  BS_METRIC_INSTRUCTIONS_LD, BS_METRIC_INSTRUCTIONS_ST,
	  BS_ATOM_METRIC_INSTRUCTIONS, NULL },
	{ BS_DSMEM_METRIC_READ_SECTORS_LD, BS_DSMEM_METRIC_READ_SECTORS_ATOM,
	  BS_DSMEM_METRIC_WRITE_SECTORS_LD, BS_DSMEM_METRIC_WRITE_SECTORS_ATOM,
	  BS_DSMEM_METRIC_GENERIC_LD, BS_DSMEM_METRIC_GENERIC_ST,
	  BS_DSMEM_METRIC_GENERIC_ATOM, NULL },
	{ BS_DSMEM_METRIC_READ_SECTORS_ST, BS_DSMEM_METRIC_WRITE_SECTORS_ST,
	  NULL },
	{ BS_DSMEM_METRIC_REQUESTS, NULL },
	{ BS_METRIC_WAVEFRONTS_LD, BS_METRIC_WAVEFRONTS_ST,
	  BS_METRIC_CONFLICTS_LD, BS_METRIC_CONFLICTS_ST, NULL },
	{ BS_ATOM_METRIC_WAVEFRONTS, BS_ATOM_METRIC_CONFLICTS, NULL },
	{ BS_DSMEM_METRIC_SASS_LD, BS_DSMEM_METRIC_SASS_ST,
	  BS_DSMEM_METRIC_SASS_ATOM, BS_DSMEM_METRIC_SASS_REDAS, NULL },
	/* last, alone: a device that does not know it loses this group
	   only ("# counters group 7 not collected: ...") */
	{ BS_DSMEM_METRIC_WRITE_SECTORS, NULL },
};
#define NGROUPS ((int)(sizeof groups / sizeof *groups))

static int group_size(int g)
{
	int n = 0;

	while (groups[g][n])
		n++;
	return n;
}

static int nmetrics_total(void)
{
	int n = 0;

	for (int g = 0; g < NGROUPS; g++)
		n += group_size(g);
	return n;
}

/* ---- one run --------------------------------------------------------------- */

static dsmem_out *d_out;

static void launch(const point *p, int target, int mode, int count,
		   dsmem_out *h)
{
	dsmem_args a;

	memcpy(a.off, p->off, sizeof a.off);
	a.target = target;
	a.mode = mode;
	a.count = count;
	a.zero = 0;
	/* (outside a counted range: cudaMemset may run a kernel) */
	if (h)
		CHECK_CUDA(cudaMemset(d_out, 0, sizeof *d_out));
	p->kernel<<<2, 32, DSMEM_SMEM>>>(a, d_out);
	CHECK_CUDA(cudaGetLastError());
	CHECK_CUDA(cudaDeviceSynchronize());
	if (h)
		CHECK_CUDA(cudaMemcpy(h, d_out, sizeof *h,
				      cudaMemcpyDeviceToHost));
}

/* The check of a counted run of n accesses: "ok" or what failed. */
static const char *check_run(const point *p, int target, int n,
			     const dsmem_out *h)
{
	unsigned rank = target == T_REMOTE ? 1 : 0;
	int hits[DSMEM_WORDS] = { 0 };

	if (h->sm[0] == h->sm[1])
		return "same-sm";
	for (int l = 0; l < 32; l++)
		if (p->off[l] >= 0)
			hits[p->off[l] / 4]++;
	for (int l = 0; l < 32; l++) {
		int o = p->off[l];
		if (o < 0)
			continue;
		uint32_t fill = DSMEM_FILL(rank, o / 4);
		if (p->op == OP_LD) {
			uint32_t word = fill;
			if (p->width == 1)
				word = fill >> (8 * (o % 4)) & 0xff;
			else if (p->width == 2)
				word = fill >> (8 * (o % 4)) & 0xffff;
			if (h->sum[l] != (uint32_t)(word * (uint32_t)n))
				return "ld-value";
		} else if (p->op == OP_ST) {
			uint32_t m = h->words[l][0];
			if (p->width == 1 || p->width == 2)
				continue;   /* part of a word: not checked */
			if ((m & 0xff000000u) != 0xa5000000u ||
			    (m & 0xff) > 31)
				return "st-value";
		} else {
			if (h->words[l][0] !=
			    fill + (uint32_t)(hits[o / 4] * n))
				return "atom-value";
		}
	}
	return "ok";
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* ---- the run ---------------------------------------------------------------- */

static cudaDeviceProp prop;
static int drv;
static int nm;                  /* counters of all groups */
static double *vals;            /* [row][metric], NaN: not collected */
static char (*why)[300];        /* [group]: why it was not collected */

/* The device: sm_90 or newer, the kernels allowed their shared memory. */
static int open_device(void)
{
	CHECK_CUDA(cudaSetDevice(0));
	CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
	CHECK_CUDA(cudaDriverGetVersion(&drv));
	if (prop.major < 9) {
		fprintf(stderr, "bankscope-dsmem: %s is sm_%d%d; distributed "
			"shared memory needs sm_90 or newer\n", prop.name,
			prop.major, prop.minor);
		return 1;
	}
	for (unsigned k = 0; k < NACCESSORS; k++)
		for (int w = 0; w < 5; w++)
			if (remote_accessors[k].by_width[w])
				CHECK_CUDA(cudaFuncSetAttribute(
					remote_accessors[k].by_width[w],
					cudaFuncAttributeMaxDynamicSharedMemorySize,
					DSMEM_SMEM));
	CHECK_CUDA(cudaMalloc(&d_out, sizeof *d_out));
	return 0;
}

/*
 * One group's counters for rows [0, nrows): batches of 32 rows, two
 * counted launches each (R and 2R accesses), per instruction (m(2R) -
 * m(R)) / R into vals from column col.
 */
static void collect_group(int g, int col, int nrows)
{
	int gm = group_size(g);
	bs_counters *c = NULL;
	char w[256];
	double *buf;

	if (bs_counters_open(&c, groups[g], gm, 64, w, sizeof w)) {
		snprintf(why[g], 300, "%s", w);
		fprintf(stderr, "bankscope-dsmem: counters group %d: %s\n", g,
			w);
		return;
	}
	buf = (double *)malloc(64 * gm * sizeof *buf);
	for (int r0 = 0; buf && r0 < nrows; r0 += 32) {
		int r1 = r0 + 32 < nrows ? r0 + 32 : nrows, nr = 0;

		for (int r = r0; r < r1; r++)
			for (int k = 1; k <= 2; k++) {
				bs_counters_begin(c, "dsmem");
				launch(&points[r / NTARGETS], r % NTARGETS, 1,
				       k * COUNT_REPS, NULL);
				bs_counters_end(c);
			}
		if (bs_counters_flush(c, buf, &nr, w, sizeof w) ||
		    nr != 2 * (r1 - r0)) {
			snprintf(why[g], 300, "%s", w);
			fprintf(stderr, "bankscope-dsmem: counters group %d: "
				"%s\n", g, w);
			break;
		}
		for (int r = r0; r < r1; r++)
			for (int m = 0; m < gm; m++) {
				double a = buf[(2 * (r - r0)) * gm + m];
				double b = buf[(2 * (r - r0) + 1) * gm + m];

				vals[(size_t)r * nm + col + m] =
					(b - a) / COUNT_REPS;
			}
	}
	free(buf);
	bs_counters_close(c);
	fprintf(stderr, "bankscope-dsmem: counters group %d of %d done\n",
		g + 1, NGROUPS);
}

/* Every group, one at a time (each is one pass); 0 or 1. */
static int collect_counters(int counters, int nrows)
{
	nm = nmetrics_total();
	vals = (double *)calloc((size_t)nrows * nm, sizeof *vals);
	why = (char (*)[300])calloc(NGROUPS, 300);
	if (!vals || !why) {
		fprintf(stderr, "bankscope-dsmem: out of memory\n");
		return 1;
	}
	for (size_t i = 0; i < (size_t)nrows * nm; i++)
		vals[i] = NAN;
	for (int g = 0, col = 0; counters && g < NGROUPS;
	     col += group_size(g), g++)
		collect_group(g, col, nrows);
	return 0;
}

/*
 * Where the CSV goes: data/<gpu>/dsmem-<time>.csv, or out_path ("-":
 * stdout), through bs_output (in its place only when whole); 0 or 1.
 */
static int open_output(const char *out_path, time_t now, bs_output *o)
{
	static char path[1024];
	char slug[64], stamp[32];
	bs_error err;

	if (out_path && !strcmp(out_path, "-")) {
		o->f = stdout;
		o->tmp[0] = 0;
		return 0;
	}
	if (!out_path) {
		bs_gpu_slug(prop.name, slug, sizeof slug);
		strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", gmtime(&now));
		snprintf(path, sizeof path, "data/%s", slug);
		bs_make_dirs(path);
		snprintf(path, sizeof path, "data/%s/dsmem-%s.csv", slug, stamp);
		out_path = path;
	}
	if (bs_output_open(o, out_path, &err) < 0) {
		char msg[600];

		bs_error_format(&err, msg, sizeof msg);
		say("%s", msg);
		return 1;
	}
	return 0;
}

static void write_header(FILE *f, int counters, time_t now)
{
	char date[32];

	strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	fprintf(f, "# bankscope-dsmem: one warp's accesses to shared memory "
		"of its own CTA (local, self) and of another CTA of its "
		"cluster on another SM (remote)\n");
	fprintf(f, "# gpu: %s\n# compute_capability: %d.%d\n"
		"# driver_version: %d\n# date: %s\n# sm_count: %d\n"
		"# counters: %s\n", prop.name, prop.major, prop.minor, drv,
		date, prop.multiProcessorCount,
		counters ? bs_counters_version() : "off");
	fprintf(f, "# cycles: per access, clock64 on CTA 0's SM; ld and atom "
		"a dependent chain (latency), st and red the issue interval; "
		"median and min of %d repetitions of (t(%d) - t(%d)) / %d\n",
		DSMEM_REPS, CHAIN_LONG, CHAIN_SHORT, CHAIN_LONG - CHAIN_SHORT);
	fprintf(f, "# counters: per instruction, (m(%d) - m(%d)) / %d\n",
		2 * COUNT_REPS, COUNT_REPS, COUNT_REPS);
	for (int g = 0; g < NGROUPS; g++)
		if (why[g][0])
			fprintf(f, "# counters group %d not collected: %s\n",
				g, why[g]);
	fprintf(f, "name,op,width,target,holdout,active_lanes,offsets,sm0,sm1,"
		"cycles_median,cycles_min,check");
	for (int g = 0; g < NGROUPS; g++)
		for (int m = 0; groups[g][m]; m++)
			fprintf(f, ",%s", groups[g][m]);
	fprintf(f, "\n");
}

/* Row r: its timed launch, its checked counted launch, and its line. */
static void write_row(FILE *f, int r)
{
	const point *p = &points[r / NTARGETS];
	int target = r % NTARGETS, active = 0;
	double cyc[DSMEM_REPS];
	dsmem_out h;
	const char *ck;

	launch(p, target, 0, 0, &h);
	for (int k = 0; k < DSMEM_REPS; k++)
		cyc[k] = (double)(h.cycles[k + 1][1] - h.cycles[k + 1][0]) /
			 (CHAIN_LONG - CHAIN_SHORT);
	qsort(cyc, DSMEM_REPS, sizeof *cyc, cmp_double);
	launch(p, target, 1, COUNT_REPS, &h);
	ck = check_run(p, target, COUNT_REPS, &h);
	for (int l = 0; l < 32; l++)
		active += p->off[l] >= 0;
	fprintf(f, "%s,%s,%d,%s,%d,%d,", p->name, op_name[p->op], p->width,
		target_name[target], p->holdout, active);
	for (int l = 0; l < 32; l++)
		if (p->off[l] >= 0)
			fprintf(f, "%s%d", l ? " " : "", p->off[l]);
		else
			fprintf(f, "%s-", l ? " " : "");
	fprintf(f, ",%u,%u,%.3f,%.3f,%s", h.sm[0], h.sm[1],
		cyc[DSMEM_REPS / 2], cyc[0], ck);
	for (int m = 0; m < nm; m++) {
		double v = vals[(size_t)r * nm + m];

		if (isnan(v))
			fprintf(f, ",");
		else
			fprintf(f, ",%.4g", v);
	}
	fprintf(f, "\n");
}

static const char usage_text[] =
	"usage: bankscope-dsmem [--quick] [--no-counters] [--file PATTERNS] "
	"[--out FILE|-]\n"
	"       bankscope-dsmem --help | --version\n"
	"(default: the dsmem family's points, into "
	"data/<gpu>/dsmem-<time>.csv)\n";

int main(int argc, char **argv)
{
	int quick = 0, counters = 1, nrows, rc;
	const char *out_path = NULL, *file = NULL;
	time_t now = time(NULL);
	bs_output o;
	bs_error err;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			printf("%s", usage_text);
			return 0;
		} else if (!strcmp(argv[i], "--version")) {
			printf("bankscope-dsmem %s\n", bs_version());
			return 0;
		} else if (!strcmp(argv[i], "--quick"))
			quick = 1;
		else if (!strcmp(argv[i], "--no-counters"))
			counters = 0;
		else if ((!strcmp(argv[i], "--out") && out_path) ||
			 (!strcmp(argv[i], "--file") && file)) {
			say("%s given twice: one run reads one file and writes "
			    "one", argv[i]);
			return 2;
		} else if (!strcmp(argv[i], "--out") && i + 1 < argc)
			out_path = argv[++i];
		else if (!strcmp(argv[i], "--file") && i + 1 < argc)
			file = argv[++i];
		else {
			if (strcmp(argv[i], "--out") && strcmp(argv[i], "--file"))
				say("unknown option '%s'", argv[i]);
			else
				say("%s needs FILE or -", argv[i]);
			fprintf(stderr, "%s", usage_text);
			return 2;
		}
	if (file && quick) {
		fprintf(stderr, "bankscope-dsmem: --quick keeps some of the "
			"family's points; --file gives its own\n");
		return 2;
	}
	if ((rc = file ? read_points(file) : load_points()))
		return rc;
	if (quick) {   /* the first 4 random points of each (op, width) */
		int n = 0;
		for (int i = 0; i < npoints; i++) {
			const char *r = strstr(points[i].name, "_rnd");
			if (r && strrchr(r, '_')[1] != '0')
				continue;
			points[n++] = points[i];
		}
		npoints = n;
	}
	nrows = npoints * NTARGETS;
	if (open_device() || collect_counters(counters, nrows) ||
	    open_output(out_path, now, &o))
		return 1;
	write_header(o.f, counters, now);
	for (int r = 0; r < nrows; r++) {
		write_row(o.f, r);
		if (r % 60 == 59)
			fprintf(stderr, "bankscope-dsmem: %d of %d rows\n",
				r + 1, nrows);
	}
	CHECK_CUDA(cudaFree(d_out));
	if (o.f == stdout) {
		fflush(stdout);
		return ferror(stdout) ? 1 : 0;
	}
	if (bs_output_commit(&o, &err) < 0) {
		char msg[600];

		bs_error_format(&err, msg, sizeof msg);
		say("%s", msg);
		return 1;
	}
	say("wrote %s", o.path);
	return 0;
}
