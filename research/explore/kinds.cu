/*
 * kinds.cu - exploration of the shared-memory instructions of issue 10 on
 * one GPU: ldmatrix, stmatrix, shared atomics and cp.async, with LDS/STS
 * controls.  Not part of the probe suite: it measures what the suite's
 * probe families will later be built on.
 *
 *   kinds --mode kinds                         the kind table
 *   kinds --mode plan [--chip GH100] METRIC... first-fit one-pass groups
 *   kinds --mode counters --patterns F --out CSV --metrics M1,M2,...
 *   kinds --mode timing   --patterns F --out CSV [--reps N]
 *   kinds --mode launch   --patterns F          counted launches, for ncu
 *
 * Patterns: one warp access a line, NAME WIDTH KIND A0..A31 (byte offsets
 * from the start of dynamic shared memory, '-' for a lane that takes no
 * part); gen_patterns.py says what each kind means.  A line this program
 * refuses (an unknown kind, a width the kind does not have, an address not
 * aligned to the width, an ldmatrix/stmatrix row not 16-byte aligned) is
 * reported on stderr as FILE:LINE:COL and written with its reason in the
 * status column; it is never run.
 *
 * How each kind is run (one warp unless said otherwise):
 *   counted  (counters, launch): exactly PROBE_CHAIN (64) source-level
 *            operations of the kind and no other shared-memory instruction
 *            (atom.add.f32 / add.u64 may become a retry loop: the SASS
 *            says); cp.async then waits for its copies (cp.async.wait_all).
 *   latency  (timing): chains of 32 and 96 operations between clock64
 *            reads; cycles per operation = (t96 - t32) / 64, the median
 *            and minimum of reps repetitions after one warm-up.  Kinds with
 *            a value back (ld, ldsm, atom.*, cuda.inc.ret) form a dependent
 *            chain a += v & zero: a latency.  Kinds without (st, stsm,
 *            red, cuda.inc) give the issue interval.  cp.async chains end
 *            with cp.async.wait_all: the interval between copies of one
 *            warp, the wait's latency cancelling between the two chains.
 *   throughput (timing): one block of 1024 threads on every SM (dynamic
 *            shared memory above half the SM's, so one block fits), every
 *            warp doing the operation iters x 8 times, independent;
 *            clock64 between __syncthreads per block, median over blocks.
 *            iters is chosen per access so that a block runs about 10^6
 *            cycles (a first run of 2 iterations measures).  The 8
 *            operations of an iteration use 8 registers holding the same
 *            address, so ptxas cannot merge them (it did merge ldmatrix).
 *
 * cp.async sources: lane l copies from a global buffer at l*WIDTH
 * (coalesced); every launch of a cp.async kind is preceded by a launch of
 * the same kernel (k_warm, outside any counter range) so the data is in
 * L2.
 *
 * CSV out: written and flushed row by row (counters: batch by batch), so
 * a run that is cut off keeps what it measured.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include <cupti_profiler_host.h>

#include "counters.h"

#define CHAIN 64
#define CHAIN_SHORT 32
#define CHAIN_LONG (CHAIN_SHORT + CHAIN)
#define TP_THREADS 1024
#define TP_UNROLL 8
#define MAX_REPS 256
#define MAX_BLOCKS 1024
#define GSRC_BYTES 4096

/* ---- the kinds -------------------------------------------------------------- */

enum kind_class { C_LD, C_ST, C_LDSM, C_STSM, C_ATOM, C_CPASYNC };

#define KINDS(X)                                                              \
	X(K_LD4, "ld", 4, C_LD, 1)                                            \
	X(K_LD8, "ld", 8, C_LD, 1)                                            \
	X(K_LD16, "ld", 16, C_LD, 1)                                          \
	X(K_ST4, "st", 4, C_ST, 0)                                            \
	X(K_ST8, "st", 8, C_ST, 0)                                            \
	X(K_ST16, "st", 16, C_ST, 0)                                          \
	X(K_LDSM_X1, "ldsm.x1", 16, C_LDSM, 1)                                \
	X(K_LDSM_X2, "ldsm.x2", 16, C_LDSM, 1)                                \
	X(K_LDSM_X4, "ldsm.x4", 16, C_LDSM, 1)                                \
	X(K_LDSM_X1T, "ldsm.x1.t", 16, C_LDSM, 1)                             \
	X(K_LDSM_X2T, "ldsm.x2.t", 16, C_LDSM, 1)                             \
	X(K_LDSM_X4T, "ldsm.x4.t", 16, C_LDSM, 1)                             \
	X(K_STSM_X1, "stsm.x1", 16, C_STSM, 0)                                \
	X(K_STSM_X2, "stsm.x2", 16, C_STSM, 0)                                \
	X(K_STSM_X4, "stsm.x4", 16, C_STSM, 0)                                \
	X(K_STSM_X1T, "stsm.x1.t", 16, C_STSM, 0)                             \
	X(K_STSM_X2T, "stsm.x2.t", 16, C_STSM, 0)                             \
	X(K_STSM_X4T, "stsm.x4.t", 16, C_STSM, 0)                             \
	X(K_ATOM_ADD_U32, "atom.add.u32", 4, C_ATOM, 1)                       \
	X(K_RED_ADD_U32, "red.add.u32", 4, C_ATOM, 0)                         \
	X(K_ATOM_CAS_B32, "atom.cas.b32", 4, C_ATOM, 1)                       \
	X(K_ATOM_EXCH_B32, "atom.exch.b32", 4, C_ATOM, 1)                     \
	X(K_ATOM_MIN_S32, "atom.min.s32", 4, C_ATOM, 1)                       \
	X(K_ATOM_ADD_F32, "atom.add.f32", 4, C_ATOM, 1)                       \
	X(K_ATOM_ADD_U64, "atom.add.u64", 8, C_ATOM, 1)                       \
	X(K_CUDA_INC, "cuda.inc", 4, C_ATOM, 0)                               \
	X(K_CUDA_INC_RET, "cuda.inc.ret", 4, C_ATOM, 1)                       \
	X(K_CPA_CA4, "cp.async.ca", 4, C_CPASYNC, 0)                          \
	X(K_CPA_CA8, "cp.async.ca", 8, C_CPASYNC, 0)                          \
	X(K_CPA_CA16, "cp.async.ca", 16, C_CPASYNC, 0)                        \
	X(K_CPA_CG16, "cp.async.cg", 16, C_CPASYNC, 0)

#define X_ENUM(id, name, width, cls, ret) id,
enum { KINDS(X_ENUM) NKINDS };
#undef X_ENUM

static const struct {
	const char *name;
	unsigned width;
	int cls;
	int returns;
} kinds[NKINDS] = {
#define X_ROW(id, name, width, cls, ret) { name, width, cls, ret },
	KINDS(X_ROW)
#undef X_ROW
};

/* Matrices of an ldmatrix/stmatrix kind (x1, x2, x4); 0 for others. */
static unsigned kind_matrices(int k)
{
	if (kinds[k].cls != C_LDSM && kinds[k].cls != C_STSM)
		return 0;
	return (unsigned)(kinds[k].name[6] - '0');
}

/* ---- device side ------------------------------------------------------------ */

extern __shared__ __align__(16) unsigned char dyn_smem[];

__device__ __forceinline__ long long clock_read(void)
{
	long long t;

	asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) : : "memory");
	return t;
}

/*
 * One operation of kind K at shared address a (a state-space address);
 * v an operand the compiler cannot see; g the lane's global source (cp.async);
 * base the state-space address of dyn_smem (CUDA-level atomics).
 * Returns a value for kinds that give one back, 0 otherwise.
 */
template <int K>
__device__ __forceinline__ uint32_t op(uint32_t a, uint32_t v,
				       const unsigned char *g, uint32_t base)
{
	uint32_t r = 0, r1, r2, r3;

	(void)g;
	(void)base;
	(void)r1;
	(void)r2;
	(void)r3;
	if constexpr (K == K_LD4) {
		asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(r) : "r"(a) : "memory");
	} else if constexpr (K == K_LD8) {
		asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2];" : "=r"(r), "=r"(r1) : "r"(a) : "memory");
	} else if constexpr (K == K_LD16) {
		asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
			     : "=r"(r), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a) : "memory");
	} else if constexpr (K == K_ST4) {
		asm volatile("st.volatile.shared.u32 [%0], %1;" : : "r"(a), "r"(v) : "memory");
	} else if constexpr (K == K_ST8) {
		asm volatile("st.volatile.shared.v2.u32 [%0], {%1, %1};" : : "r"(a), "r"(v) : "memory");
	} else if constexpr (K == K_ST16) {
		asm volatile("st.volatile.shared.v4.u32 [%0], {%1, %1, %1, %1};" : : "r"(a), "r"(v) : "memory");
	} else if constexpr (K == K_LDSM_X1) {
		asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r) : "r"(a) : "memory");
	} else if constexpr (K == K_LDSM_X2) {
		asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(r), "=r"(r1) : "r"(a) : "memory");
	} else if constexpr (K == K_LDSM_X4) {
		asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
			     : "=r"(r), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a) : "memory");
	} else if constexpr (K == K_LDSM_X1T) {
		asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r) : "r"(a) : "memory");
	} else if constexpr (K == K_LDSM_X2T) {
		asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(r), "=r"(r1) : "r"(a) : "memory");
	} else if constexpr (K == K_LDSM_X4T) {
		asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
			     : "=r"(r), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a) : "memory");
	} else if constexpr (K == K_STSM_X1) {
		asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" : : "r"(a), "r"(v) : "memory");
	} else if constexpr (K == K_STSM_X2) {
		asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %1};" : : "r"(a), "r"(v) : "memory");
	} else if constexpr (K == K_STSM_X4) {
		asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %1, %1, %1};" : : "r"(a), "r"(v) : "memory");
	} else if constexpr (K == K_STSM_X1T) {
		asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" : : "r"(a), "r"(v) : "memory");
	} else if constexpr (K == K_STSM_X2T) {
		asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %1};" : : "r"(a), "r"(v) : "memory");
	} else if constexpr (K == K_STSM_X4T) {
		asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %1, %1, %1};" : : "r"(a), "r"(v) : "memory");
	} else if constexpr (K == K_ATOM_ADD_U32) {
		asm volatile("atom.shared.add.u32 %0, [%1], %2;" : "=r"(r) : "r"(a), "r"(v) : "memory");
	} else if constexpr (K == K_RED_ADD_U32) {
		asm volatile("red.shared.add.u32 [%0], %1;" : : "r"(a), "r"(v) : "memory");
	} else if constexpr (K == K_ATOM_CAS_B32) {
		asm volatile("atom.shared.cas.b32 %0, [%1], %2, %3;" : "=r"(r) : "r"(a), "r"(v), "r"(v + 1) : "memory");
	} else if constexpr (K == K_ATOM_EXCH_B32) {
		asm volatile("atom.shared.exch.b32 %0, [%1], %2;" : "=r"(r) : "r"(a), "r"(v) : "memory");
	} else if constexpr (K == K_ATOM_MIN_S32) {
		asm volatile("atom.shared.min.s32 %0, [%1], %2;" : "=r"(r) : "r"(a), "r"(v) : "memory");
	} else if constexpr (K == K_ATOM_ADD_F32) {
		float f;
		asm volatile("atom.shared.add.f32 %0, [%1], %2;" : "=f"(f) : "r"(a), "f"(__uint_as_float(v)) : "memory");
		r = __float_as_uint(f);
	} else if constexpr (K == K_ATOM_ADD_U64) {
		unsigned long long d;
		asm volatile("atom.shared.add.u64 %0, [%1], %2;" : "=l"(d) : "r"(a), "l"((unsigned long long)v) : "memory");
		r = (uint32_t)d;
	} else if constexpr (K == K_CUDA_INC) {
		atomicAdd((unsigned *)(dyn_smem + (a - base)), 1u);
	} else if constexpr (K == K_CUDA_INC_RET) {
		r = atomicAdd((unsigned *)(dyn_smem + (a - base)), 1u);
	} else if constexpr (K == K_CPA_CA4) {
		asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" : : "r"(a), "l"(g) : "memory");
	} else if constexpr (K == K_CPA_CA8) {
		asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" : : "r"(a), "l"(g) : "memory");
	} else if constexpr (K == K_CPA_CA16) {
		asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" : : "r"(a), "l"(g) : "memory");
	} else if constexpr (K == K_CPA_CG16) {
		asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" : : "r"(a), "l"(g) : "memory");
	}
	return r;
}

template <int K> struct kt {
	static constexpr bool cpasync = K >= K_CPA_CA4 && K <= K_CPA_CG16;
	static constexpr unsigned width =
		(K == K_CPA_CA4) ? 4 : (K == K_CPA_CA8) ? 8 : 16;
};

__device__ __forceinline__ void cp_async_wait_all(void)
{
	asm volatile("cp.async.wait_all;" : : : "memory");
}

/* N operations in a row; kinds with a value back chain through a. */
template <int K, int N>
__device__ __forceinline__ uint32_t chain(uint32_t a, uint32_t v, uint32_t zero,
					  const unsigned char *g, uint32_t base)
{
#pragma unroll
	for (int i = 0; i < N; i++)
		a += op<K>(a, v, g, base) & zero;
	if constexpr (kt<K>::cpasync)
		cp_async_wait_all();
	return a;
}

template <int K>
__device__ __forceinline__ const unsigned char *lane_src(const unsigned char *g)
{
	return g + (threadIdx.x & 31) * kt<K>::width;
}

template <int K, int N>
__device__ __forceinline__ long long timed(uint32_t *a, uint32_t v, uint32_t zero,
					   const unsigned char *g, uint32_t base,
					   bool on)
{
	long long t0, t1;

	__syncwarp();
	t0 = clock_read();
	if (on)
		*a = chain<K, N>(*a, v, zero, g, base);
	__syncwarp();
	t1 = clock_read();
	return t1 - t0;
}

template <int K>
__global__ void k_latency(const uint32_t *__restrict__ addr, uint32_t active,
			  int reps, uint32_t v, uint32_t zero,
			  const unsigned char *gsrc, long long *cycles,
			  uint32_t *sink)
{
	const unsigned lane = threadIdx.x & 31;
	const bool on = (active >> lane) & 1u;
	const uint32_t base = (uint32_t)__cvta_generic_to_shared(dyn_smem);
	const unsigned char *g = lane_src<K>(gsrc);
	uint32_t a = base + addr[lane];

	for (int r = -1; r < reps; r++) {
		long long s = timed<K, CHAIN_SHORT>(&a, v, zero, g, base, on);
		long long l = timed<K, CHAIN_LONG>(&a, v, zero, g, base, on);

		if (lane == 0 && r >= 0)
			cycles[r] = l - s;
	}
	sink[threadIdx.x] = a;
}

template <int K>
__global__ void k_counted(const uint32_t *__restrict__ addr, uint32_t active,
			  uint32_t v, uint32_t zero, const unsigned char *gsrc,
			  uint32_t *sink)
{
	const unsigned lane = threadIdx.x & 31;
	const uint32_t base = (uint32_t)__cvta_generic_to_shared(dyn_smem);
	uint32_t a = base + addr[lane];

	if ((active >> lane) & 1u)
		a = chain<K, CHAIN>(a, v, zero, lane_src<K>(gsrc), base);
	sink[threadIdx.x] = a;
}

/* The same as k_counted under another name: the warm-up launch of a
 * cp.async kind, outside the counter range, skipped by ncu's -k filter. */
template <int K>
__global__ void k_warm(const uint32_t *__restrict__ addr, uint32_t active,
		       uint32_t v, uint32_t zero, const unsigned char *gsrc,
		       uint32_t *sink)
{
	const unsigned lane = threadIdx.x & 31;
	const uint32_t base = (uint32_t)__cvta_generic_to_shared(dyn_smem);
	uint32_t a = base + addr[lane];

	if ((active >> lane) & 1u)
		a = chain<K, CHAIN>(a, v, zero, lane_src<K>(gsrc), base);
	sink[threadIdx.x] = a;
}

template <int K>
__global__ void __launch_bounds__(TP_THREADS, 1)
k_throughput(const uint32_t *__restrict__ addr, uint32_t active, int iters,
	     uint32_t v, uint32_t zero, const unsigned char *gsrc,
	     long long *cycles, uint32_t *sink)
{
	const unsigned lane = threadIdx.x & 31;
	const bool on = (active >> lane) & 1u;
	const uint32_t base = (uint32_t)__cvta_generic_to_shared(dyn_smem);
	const unsigned char *g = lane_src<K>(gsrc);
	uint32_t a[TP_UNROLL], acc = 0;
	long long t0, t1;

	/* The same address TP_UNROLL times, as values ptxas cannot prove
	 * equal: without it, it merges repeated ldmatrix of one address
	 * (ldmatrix is not volatile to ptxas; seen on sm_90, CUDA 13.0). */
#pragma unroll
	for (int u = 0; u < TP_UNROLL; u++)
		a[u] = base + addr[lane] + (uint32_t)u * zero;
	__syncthreads();
	t0 = clock_read();
	if (on) {
#pragma unroll 1
		for (int it = 0; it < iters; it++) {
#pragma unroll
			for (int u = 0; u < TP_UNROLL; u++)
				acc ^= op<K>(a[u], v + (uint32_t)it, g, base);
			if constexpr (kt<K>::cpasync)
				asm volatile("cp.async.commit_group;" : : : "memory");
		}
		if constexpr (kt<K>::cpasync)
			cp_async_wait_all();
	}
	__syncthreads();
	t1 = clock_read();
	if (threadIdx.x == 0)
		cycles[blockIdx.x] = t1 - t0;
	sink[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

/* ---- host side -------------------------------------------------------------- */

typedef void (*latency_fn)(const uint32_t *, uint32_t, int, uint32_t, uint32_t,
			   const unsigned char *, long long *, uint32_t *);
typedef void (*counted_fn)(const uint32_t *, uint32_t, uint32_t, uint32_t,
			   const unsigned char *, uint32_t *);
typedef void (*throughput_fn)(const uint32_t *, uint32_t, int, uint32_t,
			      uint32_t, const unsigned char *, long long *,
			      uint32_t *);

static const struct {
	latency_fn latency;
	counted_fn counted, warm;
	throughput_fn throughput;
} kfn[NKINDS] = {
#define X_FN(id, name, width, cls, ret) \
	{ k_latency<id>, k_counted<id>, k_warm<id>, k_throughput<id> },
	KINDS(X_FN)
#undef X_FN
};

#define CK(call)                                                              \
	do {                                                                  \
		cudaError_t e_ = (call);                                      \
		if (e_ != cudaSuccess) {                                      \
			fprintf(stderr, "kinds: %s:%d: %s: %s\n", __FILE__,   \
				__LINE__, #call, cudaGetErrorString(e_));     \
			exit(1);                                              \
		}                                                             \
	} while (0)

typedef struct {
	char name[96];
	char kname[32];      /* the kind as the file names it */
	int kind;            /* index in kinds[], -1 if refused */
	unsigned width;
	int line;
	uint32_t addr[32];
	uint32_t active;     /* lanes that run the operation (all for ldsm/stsm) */
	uint32_t named;      /* lanes with an address in the file */
	char status[160];    /* "ok" or why refused */
} pattern;

static pattern *pats;
static int npats;

static void refuse(pattern *p, const char *file, int col, const char *fmt,
		   const char *arg)
{
	char msg[128];

	snprintf(msg, sizeof msg, fmt, arg);
	snprintf(p->status, sizeof p->status, "refused: %s", msg);
	fprintf(stderr, "%s:%d:%d: %s\n", file, p->line, col, msg);
	p->kind = -1;
}

/* Read the pattern file.  Malformed lines (not 35 fields, a bad number) end
 * the program with status 2; refused accesses are kept, marked. */
static void read_patterns(const char *file)
{
	FILE *f = fopen(file, "r");
	char buf[2048];
	int line = 0, cap = 0;

	if (!f) {
		fprintf(stderr, "kinds: %s: %s\n", file, strerror(errno));
		exit(2);
	}
	while (fgets(buf, sizeof buf, f)) {
		char *tok[40], *s = buf, *save = NULL;
		int nt = 0, col[40];
		pattern *p;

		line++;
		if (strchr(buf, '#'))
			*strchr(buf, '#') = '\0';
		for (char *t = strtok_r(s, " \t\r\n", &save); t && nt < 40;
		     t = strtok_r(NULL, " \t\r\n", &save)) {
			col[nt] = (int)(t - buf) + 1;
			tok[nt++] = t;
		}
		if (nt == 0)
			continue;
		if (nt != 35) {
			fprintf(stderr, "%s:%d:1: %d fields, expected NAME WIDTH KIND and 32 lanes\n",
				file, line, nt);
			exit(2);
		}
		if (npats == cap) {
			cap = cap ? 2 * cap : 1024;
			pats = (pattern *)realloc(pats, cap * sizeof *pats);
			if (!pats) {
				fprintf(stderr, "kinds: out of memory\n");
				exit(1);
			}
		}
		p = &pats[npats++];
		memset(p, 0, sizeof *p);
		snprintf(p->name, sizeof p->name, "%s", tok[0]);
		snprintf(p->kname, sizeof p->kname, "%s", tok[2]);
		p->line = line;
		p->width = (unsigned)strtoul(tok[1], NULL, 10);
		strcpy(p->status, "ok");
		p->kind = -1;
		for (int k = 0; k < NKINDS; k++)
			if (!strcmp(kinds[k].name, tok[2]) && kinds[k].width == p->width)
				p->kind = k;
		for (int l = 0; l < 32; l++) {
			char *end;
			unsigned long v;

			if (!strcmp(tok[3 + l], "-"))
				continue;
			errno = 0;
			v = strtoul(tok[3 + l], &end, 0);
			if (*end || errno || v > 227 * 1024) {
				fprintf(stderr, "%s:%d:%d: '%s' is not a byte address below 227 KiB\n",
					file, line, col[3 + l], tok[3 + l]);
				exit(2);
			}
			p->addr[l] = (uint32_t)v;
			p->named |= 1u << l;
		}
		if (p->kind < 0) {
			int known = 0;

			for (int k = 0; k < NKINDS; k++)
				known |= !strcmp(kinds[k].name, tok[2]);
			refuse(p, file, known ? col[1] : col[2],
			       known ? "width %s is not one this kind has" : "unknown kind '%s'",
			       known ? tok[1] : tok[2]);
			continue;
		}
		for (int l = 0; l < 32; l++)
			if ((p->named >> l & 1) && p->addr[l] % p->width) {
				int m = kind_matrices(p->kind);

				refuse(p, file, col[3 + l],
				       m ? "row address %s is not 16-byte aligned (ldmatrix/stmatrix rows must be)"
					 : "address %s is not aligned to the width",
				       tok[3 + l]);
				break;
			}
		if (p->kind < 0)
			continue;
		if (kind_matrices(p->kind)) {
			unsigned used = 8 * kind_matrices(p->kind);
			uint32_t need = used == 32 ? 0xffffffffu : (1u << used) - 1;

			if ((p->named & need) != need) {
				refuse(p, file, col[3], "the lanes this ldmatrix/stmatrix uses need an address%s", "");
				continue;
			}
			p->active = 0xffffffffu; /* .sync.aligned: the whole warp */
		} else {
			p->active = p->named;
		}
	}
	fclose(f);
}

static uint32_t *d_addr, *d_sink;
static long long *d_cycles;
static unsigned char *d_gsrc;
static int sm_count;
static size_t smem_optin, smem_per_sm;

static void device_init(void)
{
	cudaDeviceProp prop;
	int d, optin;

	CK(cudaGetDevice(&d));
	CK(cudaGetDeviceProperties(&prop, d));
	CK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, d));
	sm_count = prop.multiProcessorCount;
	smem_optin = (size_t)optin;
	smem_per_sm = prop.sharedMemPerMultiprocessor;
	for (int k = 0; k < NKINDS; k++) {
		CK(cudaFuncSetAttribute((const void *)kfn[k].latency,
					cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
		CK(cudaFuncSetAttribute((const void *)kfn[k].counted,
					cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
		CK(cudaFuncSetAttribute((const void *)kfn[k].warm,
					cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
		CK(cudaFuncSetAttribute((const void *)kfn[k].throughput,
					cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
	}
	CK(cudaMalloc(&d_addr, 32 * sizeof *d_addr));
	CK(cudaMalloc(&d_sink, (size_t)MAX_BLOCKS * TP_THREADS * sizeof *d_sink));
	CK(cudaMalloc(&d_cycles, MAX_REPS * MAX_BLOCKS * sizeof *d_cycles));
	CK(cudaMalloc(&d_gsrc, GSRC_BYTES));
	CK(cudaMemset(d_gsrc, 0x5a, GSRC_BYTES));
	fprintf(stderr, "kinds: %s, %d SMs, %zu B shared memory per SM, opt-in %zu\n",
		prop.name, sm_count, smem_per_sm, smem_optin);
}

static size_t smem_bytes(const pattern *p)
{
	size_t top = 0;

	for (int l = 0; l < 32; l++)
		if (p->addr[l] + (size_t)p->width > top)
			top = p->addr[l] + p->width;
	return (top + 15) / 16 * 16;
}

/* Lanes with '-' run with address 0 (ldsm/stsm lanes the kind ignores). */
static void put_addresses(const pattern *p)
{
	uint32_t a[32];

	for (int l = 0; l < 32; l++)
		a[l] = (p->named >> l & 1) ? p->addr[l] : 0;
	CK(cudaMemcpy(d_addr, a, sizeof a, cudaMemcpyHostToDevice));
}

/* A cp.async kind's warm-up: the same kernel under another name, so the
 * global source is in L2; nothing for other kinds.  Never inside a
 * counter range (a run before this was split off launched it inside the
 * range, and every cp.async count came out doubled). */
static void warm_launch(const pattern *p)
{
	const int k = p->kind;

	if (kinds[k].cls != C_CPASYNC)
		return;
	kfn[k].warm<<<1, 32, smem_bytes(p)>>>(d_addr, p->active, 1u, 0u, d_gsrc, d_sink);
	CK(cudaGetLastError());
	CK(cudaDeviceSynchronize());
}

/* The counted kernel alone: one warp, 64 operations. */
static void counted_launch(const pattern *p)
{
	const int k = p->kind;

	kfn[k].counted<<<1, 32, smem_bytes(p)>>>(d_addr, p->active, 1u, 0u, d_gsrc, d_sink);
	CK(cudaGetLastError());
	CK(cudaDeviceSynchronize());
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void min_median(double *v, int n, double *min, double *med)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	*min = v[0];
	*med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double throughput_run(const pattern *p, int iters, double *cmin)
{
	const int k = p->kind;
	int blocks = sm_count < MAX_BLOCKS ? sm_count : MAX_BLOCKS;
	size_t sm = smem_per_sm / 2 + 1024;
	static long long host[MAX_BLOCKS];
	static double v[MAX_BLOCKS];
	double med;

	if (smem_bytes(p) > sm)
		sm = smem_bytes(p);
	if (sm > smem_optin)
		sm = smem_optin;
	kfn[k].throughput<<<blocks, TP_THREADS, sm>>>(d_addr, p->active, iters, 1u, 0u,
						       d_gsrc, d_cycles, d_sink);
	CK(cudaGetLastError());
	CK(cudaMemcpy(host, d_cycles, blocks * sizeof *host, cudaMemcpyDeviceToHost));
	for (int b = 0; b < blocks; b++)
		v[b] = (double)host[b];
	min_median(v, blocks, cmin, &med);
	return med;
}

static FILE *open_out(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "kinds: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return f;
}

static void row_head(FILE *f, const pattern *p)
{
	fprintf(f, "%d,%s,%s,%u,\"%s\"", p->line, p->name, p->kname, p->width,
		p->status);
}

static void mode_timing(const char *out, int reps)
{
	FILE *f = open_out(out);
	static long long host[MAX_REPS];
	double v[MAX_REPS];

	fprintf(f, "line,name,kind,width,status,lat_reps,lat_cycles_min,lat_cycles_median,"
		   "tp_blocks,tp_threads,tp_iters,tp_ops_per_sm,tp_cycles_median,tp_cycles_min\n");
	fflush(f);
	for (int i = 0; i < npats; i++) {
		pattern *p = &pats[i];
		double lmin, lmed, c2, cmin, cmed;
		int iters;

		row_head(f, p);
		if (p->kind < 0) {
			fprintf(f, ",,,,,,,,,\n");
			fflush(f);
			continue;
		}
		put_addresses(p);
		warm_launch(p);
		kfn[p->kind].latency<<<1, 32, smem_bytes(p)>>>(d_addr, p->active, reps, 1u, 0u,
								d_gsrc, d_cycles, d_sink);
		CK(cudaGetLastError());
		CK(cudaMemcpy(host, d_cycles, reps * sizeof *host, cudaMemcpyDeviceToHost));
		for (int r = 0; r < reps; r++)
			v[r] = (double)host[r] / CHAIN;
		min_median(v, reps, &lmin, &lmed);
		c2 = throughput_run(p, 2, &cmin);
		iters = (int)(2.0 * 1.0e6 / (c2 > 1 ? c2 : 1));
		if (iters < 2)
			iters = 2;
		if (iters > 256)
			iters = 256;
		cmed = throughput_run(p, iters, &cmin);
		fprintf(f, ",%d,%.3f,%.3f,%d,%d,%d,%.0f,%.1f,%.1f\n", reps, lmin, lmed,
			sm_count < MAX_BLOCKS ? sm_count : MAX_BLOCKS, TP_THREADS, iters,
			(double)iters * TP_UNROLL * (TP_THREADS / 32), cmed, cmin);
		fflush(f);
		if ((i + 1) % 200 == 0)
			fprintf(stderr, "kinds: timing %d of %d\n", i + 1, npats);
	}
	fclose(f);
}

static int split_metrics(char *list, const char **m, int max)
{
	int n = 0;
	char *save = NULL;

	for (char *t = strtok_r(list, ",", &save); t && n < max; t = strtok_r(NULL, ",", &save))
		m[n++] = t;
	return n;
}

#define BATCH 64

static void mode_counters(const char *out, char *mlist)
{
	const char *m[128];
	int nm = split_metrics(mlist, m, 128);
	bs_counters *c;
	char why[512];
	FILE *f;
	static double vals[BATCH * 128];
	int idx[BATCH], nb = 0, nr;

	if (bs_counters_open(&c, m, nm, BATCH, why, sizeof why) != 0) {
		fprintf(stderr, "kinds: counters: %s\n", why);
		exit(3);
	}
	f = open_out(out);
	fprintf(f, "line,name,kind,width,status");
	for (int j = 0; j < nm; j++)
		fprintf(f, ",%s", m[j]);
	fprintf(f, "\n");
	fflush(f);
	for (int i = 0; i <= npats; i++) {
		if (i < npats && pats[i].kind >= 0) {
			put_addresses(&pats[i]);
			warm_launch(&pats[i]); /* outside the range */
			if (bs_counters_begin(c, pats[i].name) != 0)
				goto fail;
			counted_launch(&pats[i]);
			if (bs_counters_end(c) != 0)
				goto fail;
			idx[nb++] = i;
		}
		if (nb == BATCH || (i == npats && nb > 0)) {
			if (bs_counters_flush(c, vals, &nr, why, sizeof why) != 0 || nr != nb) {
				fprintf(stderr, "kinds: counters flush: %s (%d of %d ranges)\n", why, nr, nb);
				exit(3);
			}
			for (int r = 0; r < nb; r++) {
				row_head(f, &pats[idx[r]]);
				for (int j = 0; j < nm; j++)
					fprintf(f, ",%.0f", vals[r * nm + j]);
				fprintf(f, "\n");
			}
			fflush(f);
			nb = 0;
		}
	}
	fclose(f);
	bs_counters_close(c);
	return;
fail:
	fprintf(stderr, "kinds: counters: %s\n", bs_counters_last_error(c));
	exit(3);
}

static void mode_launch(void)
{
	for (int i = 0; i < npats; i++)
		if (pats[i].kind >= 0) {
			put_addresses(&pats[i]);
			warm_launch(&pats[i]);
			counted_launch(&pats[i]);
		}
}

/* ---- metric plan: which metrics the range profiler takes, in one pass ------ */

static CUpti_Profiler_Host_Object *host_init(const char *chip)
{
	CUpti_Profiler_Host_Initialize_Params p;

	memset(&p, 0, sizeof p);
	p.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE;
	p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
	p.pChipName = chip;
	if (cuptiProfilerHostInitialize(&p) != CUPTI_SUCCESS)
		return NULL;
	return p.pHostObject;
}

static void host_fini(CUpti_Profiler_Host_Object *h)
{
	CUpti_Profiler_Host_Deinitialize_Params d;

	memset(&d, 0, sizeof d);
	d.structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE;
	d.pHostObject = h;
	cuptiProfilerHostDeinitialize(&d);
}

/* Passes the metrics need on chip; -1 if one is unknown, -2 other failure. */
static long passes(const char *chip, const char **m, int n)
{
	CUpti_Profiler_Host_Object *h = host_init(chip);
	CUpti_Profiler_Host_ConfigAddMetrics_Params a;
	CUpti_Profiler_Host_GetConfigImageSize_Params s;
	CUpti_Profiler_Host_GetConfigImage_Params g;
	CUpti_Profiler_Host_GetNumOfPasses_Params np;
	uint8_t *img;
	long r = -2;

	if (!h)
		return -2;
	memset(&a, 0, sizeof a);
	a.structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE;
	a.pHostObject = h;
	a.ppMetricNames = m;
	a.numMetrics = (size_t)n;
	if (cuptiProfilerHostConfigAddMetrics(&a) != CUPTI_SUCCESS) {
		host_fini(h);
		return -1;
	}
	memset(&s, 0, sizeof s);
	s.structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE;
	s.pHostObject = h;
	if (cuptiProfilerHostGetConfigImageSize(&s) == CUPTI_SUCCESS &&
	    (img = (uint8_t *)malloc(s.configImageSize)) != NULL) {
		memset(&g, 0, sizeof g);
		g.structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE;
		g.pHostObject = h;
		g.configImageSize = s.configImageSize;
		g.pConfigImage = img;
		memset(&np, 0, sizeof np);
		np.structSize = CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE;
		np.pConfigImage = img;
		np.configImageSize = s.configImageSize;
		if (cuptiProfilerHostGetConfigImage(&g) == CUPTI_SUCCESS &&
		    cuptiProfilerHostGetNumOfPasses(&np) == CUPTI_SUCCESS)
			r = (long)np.numOfPasses;
		free(img);
	}
	host_fini(h);
	return r;
}

/* Print the chip's base metrics (type: 0 counter, 1 ratio, 2 throughput),
 * then group the given metrics first-fit into one-pass groups. */
static void mode_plan(const char *chip, const char **m, int n, const char *list_out)
{
	static const char *g[64][64];
	int gn[64] = { 0 }, ng = 0;
	CUpti_Profiler_Host_Object *h = host_init(chip);

	if (!h) {
		fprintf(stderr, "kinds: cuptiProfilerHostInitialize failed for chip %s\n", chip);
		exit(3);
	}
	if (list_out) {
		FILE *f = open_out(list_out);

		for (int t = 0; t < 3; t++) {
			CUpti_Profiler_Host_GetBaseMetrics_Params b;

			memset(&b, 0, sizeof b);
			b.structSize = CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE;
			b.pHostObject = h;
			b.metricType = (CUpti_MetricType)t;
			if (cuptiProfilerHostGetBaseMetrics(&b) != CUPTI_SUCCESS)
				continue;
			for (size_t i = 0; i < b.numMetrics; i++)
				fprintf(f, "%s %s\n", t == 0 ? "counter" : t == 1 ? "ratio" : "throughput",
					b.ppMetricNames[i]);
		}
		fclose(f);
	}
	host_fini(h);
	for (int i = 0; i < n; i++) {
		long p = passes(chip, &m[i], 1);
		int placed = 0;

		if (p != 1) {
			printf("REJECT %s %s\n", m[i], p == -1 ? "unknown" : p > 1 ? "needs-several-passes" : "error");
			continue;
		}
		for (int k = 0; k < ng && !placed; k++) {
			g[k][gn[k]] = m[i];
			if (gn[k] < 63 && passes(chip, g[k], gn[k] + 1) == 1) {
				gn[k]++;
				placed = 1;
			}
		}
		if (!placed && ng < 64) {
			g[ng][0] = m[i];
			gn[ng++] = 1;
		}
	}
	for (int k = 0; k < ng; k++) {
		printf("GROUP ");
		for (int j = 0; j < gn[k]; j++)
			printf("%s%s", j ? "," : "", g[k][j]);
		printf("\n");
	}
}

static void usage(void)
{
	fprintf(stderr,
		"usage: kinds --mode kinds|plan|counters|timing|launch [options]\n"
		"  --patterns FILE   NAME WIDTH KIND A0..A31 lines (counters, timing, launch, check)\n"
		"  --out CSV         output (counters, timing)\n"
		"  --metrics M1,M2   one-pass metric group (counters)\n"
		"  --reps N          latency repetitions (15)\n"
		"  --chip NAME       plan: chip (GH100); --list FILE: all base metrics\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *mode = NULL, *pfile = NULL, *out = NULL, *chip = "GH100", *list = NULL;
	char *metrics = NULL;
	const char *rest[256];
	int nrest = 0, reps = 15;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--mode") && i + 1 < argc)
			mode = argv[++i];
		else if (!strcmp(a, "--patterns") && i + 1 < argc)
			pfile = argv[++i];
		else if (!strcmp(a, "--out") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(a, "--metrics") && i + 1 < argc)
			metrics = argv[++i];
		else if (!strcmp(a, "--reps") && i + 1 < argc)
			reps = atoi(argv[++i]);
		else if (!strcmp(a, "--chip") && i + 1 < argc)
			chip = argv[++i];
		else if (!strcmp(a, "--list") && i + 1 < argc)
			list = argv[++i];
		else if (a[0] != '-' && nrest < 256)
			rest[nrest++] = a;
		else
			usage();
	}
	if (!mode)
		usage();
	if (reps < 1 || reps > MAX_REPS) {
		fprintf(stderr, "kinds: --reps must be 1..%d\n", MAX_REPS);
		return 2;
	}
	if (!strcmp(mode, "kinds")) {
		for (int k = 0; k < NKINDS; k++)
			printf("%d %s %u\n", k, kinds[k].name, kinds[k].width);
		return 0;
	}
	if (!strcmp(mode, "plan")) {
		mode_plan(chip, rest, nrest, list);
		return 0;
	}
	if (!pfile)
		usage();
	read_patterns(pfile);
	if (!strcmp(mode, "check")) {
		int ok = 0;

		for (int i = 0; i < npats; i++)
			ok += pats[i].kind >= 0;
		printf("%d patterns, %d accepted, %d refused\n", npats, ok, npats - ok);
		return 0;
	}
	device_init();
	if (!strcmp(mode, "timing") && out)
		mode_timing(out, reps);
	else if (!strcmp(mode, "counters") && out && metrics)
		mode_counters(out, metrics);
	else if (!strcmp(mode, "launch"))
		mode_launch();
	else
		usage();
	return 0;
}
