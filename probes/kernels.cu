/*
 * kernels.cu - the probe kernels: one way to time one warp access.
 *
 * Each access kind has one device accessor: a struct with one static
 * function that performs one access at an address and returns what a
 * dependent chain can wait on (0 for a kind that returns nothing), and
 * RETURNS saying which.  The kernels are templates over the accessor; the
 * accessor table at the end of the device side holds, for each kind (by
 * its name in the kinds table) and width, the kernels, whether the whole
 * warp runs it, and the counters that see it.  A new kind is one accessor
 * and one table row.
 *
 * ld and st go through inline PTX (ld.volatile.shared / st.volatile.shared
 * with the access's width: LDS.U8, LDS.U16, LDS, LDS.64, LDS.128 and the
 * STS forms; `make sass` shows them).  Both the asm and the accesses are
 * volatile: without it ptxas merges repeated stores to one address and
 * narrows a wide load whose other words go unused.  The other kinds are
 * the PTX of their row of the kinds table (ldmatrix, stmatrix, atom/red,
 * cp.async; atomicAdd(p, 1) for red.add1.u32), ported from
 * research/explore/kinds.cu, which measured them on the H100
 * (docs/notes/kinds-h100.md).  Instructions an older target lacks are
 * compiled out there (probes/target.h) and the runner does not launch
 * them.  Addresses are the pattern's byte offsets from the start of
 * dynamic shared memory.  Shared memory is never initialized: a load's
 * value only feeds `value & zero`, and an initializing store would be
 * counted by the counters.
 *
 * Latency mode, one warp.  Between two clock64 reads, each active lane
 * runs a dependent chain: v = load(a); a += v & zero (zero is a kernel
 * argument the compiler cannot see through), so every access waits for the
 * previous one; stores and the other kinds without a result (stmatrix,
 * red, cp.async) measure the issue interval, cp.async's chain ending with
 * cp.async.wait_all.  Each repetition times a chain of CHAIN_SHORT and one
 * of CHAIN_LONG accesses; cycles per access = (t_long - t_short) /
 * (CHAIN_LONG - CHAIN_SHORT), so the clock reads, the __syncwarp and the
 * last access's unawaited latency (cp.async: the wait) cancel.  One
 * warm-up repetition is not recorded.
 *
 * Throughput mode: one block of 1024 threads on every SM (its dynamic
 * shared memory is sized so that only one block fits an SM), every warp
 * doing the same access iters x 8 times, independent of each other;
 * clock64 around the whole loop, between __syncthreads, per block.
 *
 * Counted launch: one warp, exactly PROBE_CHAIN accesses and no other
 * shared-memory instruction, for the counters to divide by (an
 * atom.add.f32 or .u64 is a loop: PROBE_CHAIN source operations).
 * ldmatrix and stmatrix are .sync.aligned: every lane of the warp runs
 * them, the lanes without an address at 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "check.h"
#include "metrics.h"
#include "probe.h"
#include "target.h"

/* The wide loads' other words are loaded (volatile) but not used. */
#pragma nv_diag_suppress 550

#define CHAIN_SHORT 32
#define CHAIN_LONG (CHAIN_SHORT + PROBE_CHAIN)

/* ---- device side ---------------------------------------------------------- */

__device__ __forceinline__ long long clock_read(void)
{
	long long t;

	asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) : : "memory");
	return t;
}

template <unsigned W> struct smem;

/* 1, 2 and 4 bytes: one register, PTX type T ("u8", "u16", "u32"). */
#define SMEM_SCALAR(W, T)                                                     \
	template <> struct smem<W> {                                          \
		static __device__ __forceinline__ uint32_t ld(uint32_t a)     \
		{                                                             \
			uint32_t v;                                           \
			asm volatile("ld.volatile.shared." T " %0, [%1];"     \
				     : "=r"(v) : "r"(a) : "memory");          \
			return v;                                             \
		}                                                             \
		static __device__ __forceinline__ void st(uint32_t a,         \
							  uint32_t v)         \
		{                                                             \
			asm volatile("st.volatile.shared." T " [%0], %1;"     \
				     : : "r"(a), "r"(v) : "memory");          \
		}                                                             \
	};
SMEM_SCALAR(1, "u8")
SMEM_SCALAR(2, "u16")
SMEM_SCALAR(4, "u32")
#undef SMEM_SCALAR

template <> struct smem<8> {
	static __device__ __forceinline__ uint32_t ld(uint32_t a)
	{
		uint32_t x, y;
		asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2];"
			     : "=r"(x), "=r"(y) : "r"(a) : "memory");
		return x;
	}
	static __device__ __forceinline__ void st(uint32_t a, uint32_t v)
	{
		asm volatile("st.volatile.shared.v2.u32 [%0], {%1, %1};"
			     : : "r"(a), "r"(v) : "memory");
	}
};

template <> struct smem<16> {
	static __device__ __forceinline__ uint32_t ld(uint32_t a)
	{
		uint32_t x, y, z, w;
		asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
			     : "=r"(x), "=r"(y), "=r"(z), "=r"(w)
			     : "r"(a) : "memory");
		return x;
	}
	static __device__ __forceinline__ void st(uint32_t a, uint32_t v)
	{
		asm volatile("st.volatile.shared.v4.u32 [%0], {%1, %1, %1, %1};"
			     : : "r"(a), "r"(v) : "memory");
	}
};

extern __shared__ __align__(16) unsigned char dyn_smem[];

/*
 * The accessors.  Each has RETURNS (a value comes back for a dependent
 * chain), ASYNC (cp.async: copies are waited for with cp.async.wait_all at
 * the end of a chain, committed in groups in the throughput loop) and
 * SPLIT (the throughput loop gives each of its PROBE_TP_UNROLL accesses an
 * address ptxas cannot prove equal to the others: it merges repeated
 * ldmatrix of one address, which the asm's volatile does not stop; seen
 * by research/explore on sm_90 with CUDA 13.0).  ld and st keep the code
 * they had before the other kinds came (their datasets are reproducible):
 * ASYNC and SPLIT are 0 for them, and the kernels' `if constexpr` leaves
 * their instructions as they were.
 */
template <unsigned W> struct Ld {
	enum { RETURNS = 1, ASYNC = 0, SPLIT = 0 };
	static __device__ __forceinline__ uint32_t go(uint32_t a, uint32_t v)
	{
		(void)v;
		return smem<W>::ld(a);
	}
};

template <unsigned W> struct St {
	enum { RETURNS = 0, ASYNC = 0, SPLIT = 0 };
	static __device__ __forceinline__ uint32_t go(uint32_t a, uint32_t v)
	{
		smem<W>::st(a, v);
		return 0;
	}
};

/*
 * ldmatrix (sm_75): X matrices, T transposed.  Every lane of the warp
 * runs it (.sync.aligned); lanes past 8*X give address 0, which the
 * hardware ignores.  The first fragment register is what the chain waits
 * on.  Compiled for an older target it is empty, and the runner does not
 * launch it (probe_can_measure: the kernel's ptxVersion).
 */
template <int X, bool T> struct Ldsm {
	enum { RETURNS = 1, ASYNC = 0, SPLIT = 1 };
	static __device__ __forceinline__ uint32_t go(uint32_t a, uint32_t v)
	{
		uint32_t r = 0, r1, r2, r3;

		(void)v;
		(void)r1;
		(void)r2;
		(void)r3;
#if BS_TARGET_HAS(75)
		if constexpr (X == 1 && !T)
			asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];"
				     : "=r"(r) : "r"(a) : "memory");
		else if constexpr (X == 2 && !T)
			asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
				     : "=r"(r), "=r"(r1) : "r"(a) : "memory");
		else if constexpr (X == 4 && !T)
			asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
				     : "=r"(r), "=r"(r1), "=r"(r2), "=r"(r3)
				     : "r"(a) : "memory");
		else if constexpr (X == 1)
			asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];"
				     : "=r"(r) : "r"(a) : "memory");
		else if constexpr (X == 2)
			asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
				     : "=r"(r), "=r"(r1) : "r"(a) : "memory");
		else
			asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
				     : "=r"(r), "=r"(r1), "=r"(r2), "=r"(r3)
				     : "r"(a) : "memory");
#endif
		return r;
	}
};

/* stmatrix (sm_90): the value v in every fragment register. */
template <int X, bool T> struct Stsm {
	enum { RETURNS = 0, ASYNC = 0, SPLIT = 1 };
	static __device__ __forceinline__ uint32_t go(uint32_t a, uint32_t v)
	{
		(void)a;
		(void)v;
#if BS_TARGET_HAS(90)
		if constexpr (X == 1 && !T)
			asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};"
				     : : "r"(a), "r"(v) : "memory");
		else if constexpr (X == 2 && !T)
			asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %1};"
				     : : "r"(a), "r"(v) : "memory");
		else if constexpr (X == 4 && !T)
			asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %1, %1, %1};"
				     : : "r"(a), "r"(v) : "memory");
		else if constexpr (X == 1)
			asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};"
				     : : "r"(a), "r"(v) : "memory");
		else if constexpr (X == 2)
			asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %1};"
				     : : "r"(a), "r"(v) : "memory");
		else
			asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %1, %1, %1};"
				     : : "r"(a), "r"(v) : "memory");
#endif
		return 0;
	}
};

/*
 * The shared atomics, one accessor per kind of the kinds table, in the
 * PTX its row names (ATOMS.ADD, .CAS, .EXCH, .MIN.S32).  red.add1.u32 is
 * the CUDA call atomicAdd(p, 1u) with its result unused, which the
 * compiler turns into ATOMS.POPC.INC.32 (there is no PTX for it).
 * atom.add.f32 and atom.add.u64 are single PTX instructions that ptxas
 * turns into a retry loop on sm_90 (LDS + ATOMS.CAST.SPIN, the .64 forms
 * for u64): what a user's atomicAdd on a float or a 64-bit word costs, so
 * the loop is what is measured, per source-level operation.
 */
enum { A_ADD_U32, A_RED_U32, A_CAS_B32, A_EXCH_B32, A_MIN_S32, A_RED_ADD1,
       A_ADD_F32, A_ADD_U64 };

template <int K> struct Atom {
	enum { RETURNS = K != A_RED_U32 && K != A_RED_ADD1, ASYNC = 0,
	       SPLIT = 1 };
	static __device__ __forceinline__ uint32_t go(uint32_t a, uint32_t v)
	{
		uint32_t r = 0;

		if constexpr (K == A_ADD_U32) {
			asm volatile("atom.shared.add.u32 %0, [%1], %2;"
				     : "=r"(r) : "r"(a), "r"(v) : "memory");
		} else if constexpr (K == A_RED_U32) {
			asm volatile("red.shared.add.u32 [%0], %1;"
				     : : "r"(a), "r"(v) : "memory");
		} else if constexpr (K == A_CAS_B32) {
			/*
			 * Compare with 1, swap in 2, as research/explore did:
			 * ATOMS.CAS takes the two in a register pair, and
			 * values made from v need a MOV or an add in the
			 * chain (4.2 to 4.9 cycles more on every row).
			 */
			(void)v;
			asm volatile("atom.shared.cas.b32 %0, [%1], %2, %3;"
				     : "=r"(r) : "r"(a), "r"(1u), "r"(2u)
				     : "memory");
		} else if constexpr (K == A_EXCH_B32) {
			asm volatile("atom.shared.exch.b32 %0, [%1], %2;"
				     : "=r"(r) : "r"(a), "r"(v) : "memory");
		} else if constexpr (K == A_MIN_S32) {
			asm volatile("atom.shared.min.s32 %0, [%1], %2;"
				     : "=r"(r) : "r"(a), "r"(v) : "memory");
		} else if constexpr (K == A_RED_ADD1) {
			const uint32_t base =
				(uint32_t)__cvta_generic_to_shared(dyn_smem);

			(void)v;
			atomicAdd((unsigned *)(dyn_smem + (a - base)), 1u);
		} else if constexpr (K == A_ADD_F32) {
			float f;

			asm volatile("atom.shared.add.f32 %0, [%1], %2;"
				     : "=f"(f) : "r"(a), "f"(__uint_as_float(v))
				     : "memory");
			r = __float_as_uint(f);
		} else {
			unsigned long long d;

			asm volatile("atom.shared.add.u64 %0, [%1], %2;"
				     : "=l"(d) : "r"(a), "l"((unsigned long long)v)
				     : "memory");
			r = (uint32_t)d;
		}
		return r;
	}
};

/*
 * cp.async (sm_80) of W bytes, through L1 (.ca) or bypassing it (.cg,
 * 16 bytes only): lane l copies cp_src[l*W .. l*W+W) (coalesced, the same
 * for every pattern) to the pattern's shared address.  A chain ends with
 * cp.async.wait_all, so the counted launch holds exactly PROBE_CHAIN
 * copies and their completion, and the latency difference of two chains
 * is the interval between copies (the wait's latency cancels).  Before
 * every launch of these kinds the runner launches k_warm, the counted
 * kernel under another name, outside any counter range, so the source is
 * in L2.
 */
__device__ __align__(16) unsigned char cp_src[BS_LANES * 16];

template <unsigned W, bool CG> struct CpAsync {
	enum { RETURNS = 0, ASYNC = 1, SPLIT = 1 };
	static __device__ __forceinline__ uint32_t go(uint32_t a, uint32_t v)
	{
		const unsigned char *g = cp_src + (threadIdx.x & 31) * W;

		(void)a;
		(void)v;
		(void)g;
#if BS_TARGET_HAS(80)
		if constexpr (CG)
			asm volatile("cp.async.cg.shared.global [%0], [%1], 16;"
				     : : "r"(a), "l"(g) : "memory");
		else if constexpr (W == 4)
			asm volatile("cp.async.ca.shared.global [%0], [%1], 4;"
				     : : "r"(a), "l"(g) : "memory");
		else if constexpr (W == 8)
			asm volatile("cp.async.ca.shared.global [%0], [%1], 8;"
				     : : "r"(a), "l"(g) : "memory");
		else
			asm volatile("cp.async.ca.shared.global [%0], [%1], 16;"
				     : : "r"(a), "l"(g) : "memory");
#endif
		return 0;
	}
};

__device__ __forceinline__ void cp_async_wait_all(void)
{
#if BS_TARGET_HAS(80)
	asm volatile("cp.async.wait_all;" : : : "memory");
#endif
}

__device__ __forceinline__ void cp_async_commit(void)
{
#if BS_TARGET_HAS(80)
	asm volatile("cp.async.commit_group;" : : : "memory");
#endif
}

/*
 * 0, in a device variable nothing writes: SPLIT kinds add u * zero_word to
 * their throughput addresses, and ptxas cannot fold it away.
 */
__device__ uint32_t zero_word;

/* N accesses in a row; kinds that return a value chain through `a`. */
template <class A, int N>
__device__ __forceinline__ uint32_t chain(uint32_t a, uint32_t zero)
{
#pragma unroll
	for (int i = 0; i < N; i++) {
		if (A::RETURNS)
			a += A::go(a, a) & zero;
		else
			A::go(a, a);
	}
	if constexpr (A::ASYNC)
		cp_async_wait_all();
	return a;
}

template <class A, int N>
__device__ __forceinline__ long long timed(uint32_t *a, uint32_t zero,
					   bool on)
{
	long long t0, t1;

	__syncwarp();
	t0 = clock_read();
	if (on)
		*a = chain<A, N>(*a, zero);
	__syncwarp();
	t1 = clock_read();
	return t1 - t0;
}

template <class A>
__global__ void k_latency(const uint32_t *__restrict__ addr, uint32_t active,
			  int reps, uint32_t zero, long long *cycles,
			  uint32_t *sink)
{
	const unsigned lane = threadIdx.x & 31;
	const bool on = (active >> lane) & 1u;
	uint32_t a = (uint32_t)__cvta_generic_to_shared(dyn_smem) + addr[lane];

	for (int r = -1; r < reps; r++) {
		long long s = timed<A, CHAIN_SHORT>(&a, zero, on);
		long long l = timed<A, CHAIN_LONG>(&a, zero, on);

		if (lane == 0 && r >= 0)
			cycles[r] = l - s;
	}
	sink[threadIdx.x] = a;
}

/* The empty timed region: what two clock reads and the syncs cost. */
__global__ void k_clock_overhead(int reps, long long *cycles)
{
	for (int r = -1; r < reps; r++) {
		long long t0, t1;

		__syncwarp();
		t0 = clock_read();
		__syncwarp();
		t1 = clock_read();
		if (threadIdx.x == 0 && r >= 0)
			cycles[r] = t1 - t0;
	}
}

/* One chain of PROBE_CHAIN accesses in each active lane: what the counted
 * kernels run. */
template <class A>
__device__ __forceinline__ void counted_chain(const uint32_t *__restrict__ addr,
					      uint32_t active, uint32_t zero,
					      uint32_t *sink)
{
	const unsigned lane = threadIdx.x & 31;
	uint32_t a = (uint32_t)__cvta_generic_to_shared(dyn_smem) + addr[lane];

	if ((active >> lane) & 1u)
		a = chain<A, PROBE_CHAIN>(a, zero);
	sink[threadIdx.x] = a;
}

template <class A>
__global__ void k_counted(const uint32_t *__restrict__ addr, uint32_t active,
			  uint32_t zero, uint32_t *sink)
{
	counted_chain<A>(addr, active, zero, sink);
}

/*
 * The counted kernel under another name: the warm-up launch of an ASYNC
 * kind (its global source into L2), outside every counter range and
 * passed over by an external profiler that selects k_counted.
 */
template <class A>
__global__ void k_warm(const uint32_t *__restrict__ addr, uint32_t active,
		       uint32_t zero, uint32_t *sink)
{
	counted_chain<A>(addr, active, zero, sink);
}

template <class A>
__global__ void __launch_bounds__(PROBE_TP_THREADS, 1) k_throughput(const uint32_t *__restrict__ addr,
			     uint32_t active, int iters, long long *cycles,
			     uint32_t *sink)
{
	const unsigned lane = threadIdx.x & 31;
	const bool on = (active >> lane) & 1u;
	const uint32_t a =
		(uint32_t)__cvta_generic_to_shared(dyn_smem) + addr[lane];
	uint32_t acc = 0;
	long long t0, t1;
	uint32_t as[PROBE_TP_UNROLL];

	(void)as;
	if constexpr (A::SPLIT) {
		const uint32_t z = zero_word;

#pragma unroll
		for (int u = 0; u < PROBE_TP_UNROLL; u++)
			as[u] = a + (uint32_t)u * z;
	}
	__syncthreads();
	t0 = clock_read();
	if (on) {
		if constexpr (A::SPLIT) {
#pragma unroll 1
			for (int it = 0; it < iters; it++) {
#pragma unroll
				for (int u = 0; u < PROBE_TP_UNROLL; u++)
					acc ^= A::go(as[u], (uint32_t)it);
				if constexpr (A::ASYNC)
					cp_async_commit();
			}
			if constexpr (A::ASYNC)
				cp_async_wait_all();
		} else {
#pragma unroll 1
			for (int it = 0; it < iters; it++) {
#pragma unroll
				for (int u = 0; u < PROBE_TP_UNROLL; u++)
					acc ^= A::go(a, (uint32_t)it);
			}
		}
	}
	__syncthreads();
	t1 = clock_read();
	if (threadIdx.x == 0)
		cycles[blockIdx.x] = t1 - t0;
	sink[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void k_spin(long long n, long long *took)
{
	long long t0 = clock_read(), t;

	do
		t = clock_read();
	while (t - t0 < n);
	*took = t - t0;
}

/* ---- host side --------------------------------------------------------------- */

typedef void (*latency_fn)(const uint32_t *, uint32_t, int, uint32_t,
			   long long *, uint32_t *);
typedef void (*counted_fn)(const uint32_t *, uint32_t, uint32_t, uint32_t *);
typedef void (*throughput_fn)(const uint32_t *, uint32_t, int, long long *,
			      uint32_t *);

/*
 * The accessor table: for each kind, by name, the kernels of each width
 * (NULL where the kind has no such width; warm only for ASYNC kinds),
 * whether the whole warp runs it, and the counters that see it.
 */
typedef struct {
	latency_fn latency;
	counted_fn counted;
	throughput_fn throughput;
	counted_fn warm;
} kernel_set;

typedef struct {
	const char *kind;
	const char *counters_class;  /* the counters' name in the metadata */
	const probe_counters *counters;
	unsigned char whole_warp;    /* .sync.aligned: every lane runs it */
	kernel_set by_width[BS_NWIDTHS];
} accessor_row;

/*
 * The counters of each kind (probes/metrics.h: the groups and indices;
 * docs/notes/kinds-h100.md: why these).  Exact per instruction on the
 * H100 unless said otherwise.
 */
static const probe_counters ctr_ld = {
	PROBE_PASS_LDST, { BS_KM_WAVEFRONTS, -1 }, BS_KM_CONFLICTS,
	{ BS_KM_INSTRUCTIONS, -1 }, 0,
	"wavefronts " BS_METRIC_WAVEFRONTS_LD ", conflicts "
	BS_METRIC_CONFLICTS_LD ", each / " BS_METRIC_INSTRUCTIONS_LD
};
static const probe_counters ctr_st = {
	PROBE_PASS_LDST, { BS_KM_WAVEFRONTS + 1, -1 }, BS_KM_CONFLICTS + 1,
	{ BS_KM_INSTRUCTIONS + 1, -1 }, 0,
	"wavefronts " BS_METRIC_WAVEFRONTS_ST ", conflicts "
	BS_METRIC_CONFLICTS_ST ", each / " BS_METRIC_INSTRUCTIONS_ST
};
static const probe_counters ctr_ldsm = {
	PROBE_PASS_SASSK, { BS_SK_WAVEFRONTS_LDSM, -1 }, BS_SK_CONFLICTS_LDSM,
	{ BS_SK_INST_LDSM, -1 }, 0,
	"wavefronts " BS_SASSK_METRIC_WAVEFRONTS_LDSM ", conflicts "
	BS_SASSK_METRIC_CONFLICTS_LDSM ", each / " BS_SASSK_METRIC_INST_LDSM
};
static const probe_counters ctr_stsm = {
	PROBE_PASS_SASSK, { BS_SK_WAVEFRONTS_STSM, -1 }, BS_SK_CONFLICTS_STSM,
	{ BS_SK_INST_STSM, -1 }, 0,
	"wavefronts " BS_SASSK_METRIC_WAVEFRONTS_STSM ", conflicts "
	BS_SASSK_METRIC_CONFLICTS_STSM ", each / " BS_SASSK_METRIC_INST_STSM
};
/* ATOMS.ADD/CAS/EXCH/MIN/POPC.INC: the conflict counter is wavefronts - 1
 * (CAS: wavefronts / 2 - 1), same-word serialization included. */
static const probe_counters ctr_atom = {
	PROBE_PASS_ATOM, { BS_AM_WAVEFRONTS, -1 }, BS_AM_CONFLICTS,
	{ BS_AM_INSTRUCTIONS, -1 }, 0,
	"wavefronts " BS_ATOM_METRIC_WAVEFRONTS ", conflicts "
	BS_ATOM_METRIC_CONFLICTS ", each / " BS_ATOM_METRIC_INSTRUCTIONS
};
/* The retry loops: the LDS and the ATOMS.CAST.SPIN of every pass, per
 * source operation; no conflict counter covers both. */
static const probe_counters ctr_casloop = {
	PROBE_PASS_SASSK, { BS_SK_WAVEFRONTS_LD, BS_SK_WAVEFRONTS_ATOM }, -1,
	{ BS_SK_INST_LD, BS_SK_INST_ATOM }, 1,
	"a retry loop (LDS + ATOMS.CAST.SPIN): wavefronts ("
	BS_SASSK_METRIC_WAVEFRONTS_LD " + " BS_SASSK_METRIC_WAVEFRONTS_ATOM
	") / 64 source operations; instructions " BS_SASSK_METRIC_INST_LD
	" + " BS_SASSK_METRIC_INST_ATOM "; conflicts not read"
};
/* LDGSTS: the conflict counter is wavefronts - the per-phase ideal. */
static const probe_counters ctr_cpasync_ca = {
	PROBE_PASS_SASSK, { BS_SK_WAVEFRONTS_LDGSTS, -1 },
	BS_SK_CONFLICTS_LDGSTS, { BS_SK_INST_LDGSTS, -1 }, 0,
	"wavefronts " BS_SASSK_METRIC_WAVEFRONTS_LDGSTS ", conflicts "
	BS_SASSK_METRIC_CONFLICTS_LDGSTS ", each / "
	BS_SASSK_METRIC_INST_LDGSTS
};
/* LDGSTS.BYPASS: every conflict counter reads 0 whatever the lanes do. */
static const probe_counters ctr_cpasync_cg = {
	PROBE_PASS_SASSK, { BS_SK_WAVEFRONTS_LDGSTS, -1 }, -1,
	{ BS_SK_INST_LDGSTS, -1 }, 0,
	"wavefronts " BS_SASSK_METRIC_WAVEFRONTS_LDGSTS " / "
	BS_SASSK_METRIC_INST_LDGSTS "; conflicts not read (every conflict "
	"counter reads 0 for LDGSTS.BYPASS)"
};

/* One name per accessor, for the table's macros. */
typedef Ldsm<1, false> Ldsm1;
typedef Ldsm<2, false> Ldsm2;
typedef Ldsm<4, false> Ldsm4;
typedef Ldsm<1, true> Ldsm1t;
typedef Ldsm<2, true> Ldsm2t;
typedef Ldsm<4, true> Ldsm4t;
typedef Stsm<1, false> Stsm1;
typedef Stsm<2, false> Stsm2;
typedef Stsm<4, false> Stsm4;
typedef Stsm<1, true> Stsm1t;
typedef Stsm<2, true> Stsm2t;
typedef Stsm<4, true> Stsm4t;
typedef CpAsync<4, false> CpAsyncCa4;
typedef CpAsync<8, false> CpAsyncCa8;
typedef CpAsync<16, false> CpAsyncCa16;
typedef CpAsync<16, true> CpAsyncCg16;

#define KSET(A) { k_latency<A>, k_counted<A>, k_throughput<A>, NULL }
#define KSET_ASYNC(A) { k_latency<A>, k_counted<A>, k_throughput<A>, \
			k_warm<A> }
#define NONE { NULL, NULL, NULL, NULL }
#define ALL_WIDTHS(T) { KSET(T<1>), KSET(T<2>), KSET(T<4>), KSET(T<8>), \
			KSET(T<16>) }
#define ONLY16(A) { NONE, NONE, NONE, NONE, KSET(A) }
#define ONLY4(A) { NONE, NONE, KSET(A), NONE, NONE }
static const accessor_row accessors[] = {
	{ "ld", "ld", &ctr_ld, 0, ALL_WIDTHS(Ld) },
	{ "st", "st", &ctr_st, 0, ALL_WIDTHS(St) },
	{ "ldsm.x1", "ldsm", &ctr_ldsm, 1, ONLY16(Ldsm1) },
	{ "ldsm.x2", "ldsm", &ctr_ldsm, 1, ONLY16(Ldsm2) },
	{ "ldsm.x4", "ldsm", &ctr_ldsm, 1, ONLY16(Ldsm4) },
	{ "ldsm.x1.t", "ldsm", &ctr_ldsm, 1, ONLY16(Ldsm1t) },
	{ "ldsm.x2.t", "ldsm", &ctr_ldsm, 1, ONLY16(Ldsm2t) },
	{ "ldsm.x4.t", "ldsm", &ctr_ldsm, 1, ONLY16(Ldsm4t) },
	{ "stsm.x1", "stsm", &ctr_stsm, 1, ONLY16(Stsm1) },
	{ "stsm.x2", "stsm", &ctr_stsm, 1, ONLY16(Stsm2) },
	{ "stsm.x4", "stsm", &ctr_stsm, 1, ONLY16(Stsm4) },
	{ "stsm.x1.t", "stsm", &ctr_stsm, 1, ONLY16(Stsm1t) },
	{ "stsm.x2.t", "stsm", &ctr_stsm, 1, ONLY16(Stsm2t) },
	{ "stsm.x4.t", "stsm", &ctr_stsm, 1, ONLY16(Stsm4t) },
	{ "atom.add.u32", "atom", &ctr_atom, 0, ONLY4(Atom<A_ADD_U32>) },
	{ "red.add.u32", "atom", &ctr_atom, 0, ONLY4(Atom<A_RED_U32>) },
	{ "atom.cas.b32", "atom", &ctr_atom, 0, ONLY4(Atom<A_CAS_B32>) },
	{ "atom.exch.b32", "atom", &ctr_atom, 0, ONLY4(Atom<A_EXCH_B32>) },
	{ "atom.min.s32", "atom", &ctr_atom, 0, ONLY4(Atom<A_MIN_S32>) },
	{ "red.add1.u32", "atom", &ctr_atom, 0, ONLY4(Atom<A_RED_ADD1>) },
	{ "atom.add.f32", "casloop", &ctr_casloop, 0, ONLY4(Atom<A_ADD_F32>) },
	{ "atom.add.u64", "casloop", &ctr_casloop, 0,
	  { NONE, NONE, NONE, KSET(Atom<A_ADD_U64>), NONE } },
	{ "cp.async.ca", "cp.async.ca", &ctr_cpasync_ca, 0,
	  { NONE, NONE, KSET_ASYNC(CpAsyncCa4),
	    KSET_ASYNC(CpAsyncCa8), KSET_ASYNC(CpAsyncCa16) } },
	{ "cp.async.cg", "cp.async.cg", &ctr_cpasync_cg, 0,
	  { NONE, NONE, NONE, NONE, KSET_ASYNC(CpAsyncCg16) } },
};
#undef ONLY4
#undef ONLY16
#undef ALL_WIDTHS
#undef NONE
#undef KSET_ASYNC
#undef KSET
#define NACCESSORS (sizeof accessors / sizeof *accessors)

/* The accessor row of each kind id, filled by probe_kernels_init. */
static const accessor_row *accessor_of[BS_MAX_KINDS];

static const kernel_set *kernels_for(const bs_access *a)
{
	const accessor_row *r = a->kind < BS_MAX_KINDS ? accessor_of[a->kind]
						      : NULL;
	int w = bs_width_index(a->width);

	return r && w >= 0 && r->by_width[w].latency ? &r->by_width[w] : NULL;
}

/* Device buffers shared by every measurement. */
static uint32_t *d_addr, *d_sink;
static long long *d_cycles;
#define MAX_REPS 1024
#define MAX_BLOCKS 1024

size_t probe_smem_bytes(const bs_access *a)
{
	size_t top = 0;

	for (unsigned l = 0; l < BS_LANES; l++)
		if ((a->active >> l & 1) && a->addr[l] + (size_t)a->width > top)
			top = a->addr[l] + (size_t)a->width;
	return (top + 15) / 16 * 16;
}

int probe_kernels_init(probe_device *dev, char *why, size_t whylen)
{
	cudaDeviceProp prop;
	int d, optin;
	long long host[MAX_REPS];
	double v[64];

	CHECK_CUDA(cudaGetDevice(&d));
	CHECK_CUDA(cudaGetDeviceProperties(&prop, d));
	CHECK_CUDA(cudaDeviceGetAttribute(&optin,
		cudaDevAttrMaxSharedMemoryPerBlockOptin, d));
	dev->cc = prop.major * 10 + prop.minor;
	dev->sm_count = prop.multiProcessorCount;
	dev->smem_optin = (size_t)optin;
	dev->smem_per_sm = prop.sharedMemPerMultiprocessor;
	for (size_t i = 0; i < NACCESSORS; i++) {
		const accessor_row *r = &accessors[i];
		bs_kind k;

		if (bs_kind_find(r->kind, &k) < 0) {
			snprintf(why, whylen, "kernels.cu: accessor for '%s', "
				 "which the kinds table lacks", r->kind);
			return -1;
		}
		accessor_of[k] = r;
		for (int w = 0; w < BS_NWIDTHS; w++) {
			const kernel_set *ks = &r->by_width[w];

			if (!ks->latency)
				continue;
			CHECK_CUDA(cudaFuncSetAttribute(
				(const void *)ks->latency,
				cudaFuncAttributeMaxDynamicSharedMemorySize,
				optin));
			CHECK_CUDA(cudaFuncSetAttribute(
				(const void *)ks->counted,
				cudaFuncAttributeMaxDynamicSharedMemorySize,
				optin));
			CHECK_CUDA(cudaFuncSetAttribute(
				(const void *)ks->throughput,
				cudaFuncAttributeMaxDynamicSharedMemorySize,
				optin));
			if (ks->warm)
				CHECK_CUDA(cudaFuncSetAttribute(
					(const void *)ks->warm,
					cudaFuncAttributeMaxDynamicSharedMemorySize,
					optin));
		}
	}
	CHECK_CUDA(cudaMalloc(&d_addr, BS_LANES * sizeof *d_addr));
	CHECK_CUDA(cudaMalloc(&d_sink, (size_t)MAX_BLOCKS * PROBE_TP_THREADS *
					       sizeof *d_sink));
	CHECK_CUDA(cudaMalloc(&d_cycles, MAX_REPS * sizeof *d_cycles));

	k_clock_overhead<<<1, 32>>>(64, d_cycles);
	CHECK_CUDA(cudaGetLastError());
	CHECK_CUDA(cudaMemcpy(host, d_cycles, 64 * sizeof *host,
			      cudaMemcpyDeviceToHost));
	for (int r = 0; r < 64; r++)
		v[r] = (double)host[r];
	bs_min_median(v, 64, &dev->clock_overhead, &v[0]);
	return 0;
}

int probe_can_measure(const probe_device *dev, const bs_access *a, char *why,
		      size_t whylen)
{
	const bs_kind_info *k = bs_kind_get(a->kind);
	const kernel_set *ks = kernels_for(a);
	cudaFuncAttributes attr;

	if (!k || !ks) {
		snprintf(why, whylen, "no device accessor for %u-byte %s in "
			 "this build", a->width, bs_kind_name(a->kind));
		return 0;
	}
	if (dev->cc < k->min_sm) {
		snprintf(why, whylen, "%s needs compute capability %d.%d; this "
			 "GPU has %d.%d", k->name, k->min_sm / 10,
			 k->min_sm % 10, dev->cc / 10, dev->cc % 10);
		return 0;
	}
	/*
	 * The code that runs here was compiled for ptxVersion (the PTX
	 * target, kept when the driver compiles PTX for a newer GPU): an
	 * older target compiled the instruction out (probes/target.h).
	 */
	if (cudaFuncGetAttributes(&attr, (const void *)ks->counted) !=
	    cudaSuccess) {
		snprintf(why, whylen, "no code for %s on this GPU in this "
			 "build", k->name);
		cudaGetLastError();
		return 0;
	}
	if (attr.ptxVersion < k->min_sm) {
		snprintf(why, whylen, "%s (%s) needs code for sm_%d; the probes "
			 "run code built for sm_%d here (make NVCC_ARCH=...)",
			 k->name, k->sass, k->min_sm, attr.ptxVersion);
		return 0;
	}
	if (accessor_of[a->kind]->whole_warp && a->active != k->addr_lanes) {
		snprintf(why, whylen, "%s runs on the whole warp "
			 "(.sync.aligned): each of lanes 0-%d needs an address",
			 k->name, 31 - __builtin_clz(k->addr_lanes));
		return 0;
	}
	return 1;
}

const probe_counters *probe_counters_of(const bs_access *a)
{
	return a->kind < BS_MAX_KINDS && accessor_of[a->kind]
		       ? accessor_of[a->kind]->counters : NULL;
}

const char *probe_counters_class(const bs_access *a)
{
	return a->kind < BS_MAX_KINDS && accessor_of[a->kind]
		       ? accessor_of[a->kind]->counters_class : NULL;
}

const char *const *probe_pass_metrics(int pass, int cc, int *n,
				      const char **name)
{
	static const char *const ldst[] = BS_KERNEL_METRICS;
	static const char *const atom[] = BS_ATOM_METRICS;
	static const char *const sassk[] = BS_SASSK_METRICS;

	static_assert(sizeof ldst / sizeof *ldst == BS_NKERNEL_METRICS,
		       "BS_KERNEL_METRICS");
	static_assert(sizeof atom / sizeof *atom == BS_NATOM_METRICS,
		       "BS_ATOM_METRICS");
	static_assert(sizeof sassk / sizeof *sassk == BS_NSASSK_METRICS,
		       "BS_SASSK_METRICS");
	switch (pass) {
	case PROBE_PASS_LDST:
		*n = BS_NKERNEL_METRICS;
		*name = "ldst";
		return ldst;
	case PROBE_PASS_ATOM:
		*n = BS_NATOM_METRICS;
		*name = "atom";
		return atom;
	case PROBE_PASS_SASSK:
		*n = cc >= 90 ? BS_NSASSK_METRICS : BS_NSASSK_METRICS_SM80;
		*name = "sassk";
		return sassk;
	default:
		*n = 0;
		*name = "?";
		return NULL;
	}
}

/* The lanes the kernels run: all of them for a warp-wide kind. */
static uint32_t run_lanes(const bs_access *a)
{
	return accessor_of[a->kind]->whole_warp ? 0xffffffffu : a->active;
}

static int put_addresses(const bs_access *a, char *why, size_t whylen)
{
	uint32_t addr[BS_LANES];

	for (unsigned l = 0; l < BS_LANES; l++)
		addr[l] = (a->active >> l & 1) ? a->addr[l] : 0;
	CHECK_CUDA(cudaMemcpy(d_addr, addr, sizeof addr,
			      cudaMemcpyHostToDevice));
	return 0;
}

/* The access's kernels, or NULL and why. */
static const kernel_set *kernels_or_why(const bs_access *a, char *why,
					size_t whylen)
{
	const kernel_set *ks = kernels_for(a);

	if (!ks)
		snprintf(why, whylen, "no kernel for %s", a->name);
	return ks;
}

/* One warp of kernel k on the access's addresses, put on the device
 * first, to completion; a NULL k puts the addresses only. */
static int one_warp(counted_fn k, const bs_access *a, char *why,
		    size_t whylen)
{
	if (put_addresses(a, why, whylen) < 0)
		return -1;
	if (!k)
		return 0;
	k<<<1, 32, probe_smem_bytes(a)>>>(d_addr, run_lanes(a), 0u, d_sink);
	CHECK_CUDA(cudaGetLastError());
	CHECK_CUDA(cudaDeviceSynchronize());
	return 0;
}

int probe_latency(const probe_device *dev, const bs_access *a, int reps,
		  double *cycles, char *why, size_t whylen)
{
	const kernel_set *ks = kernels_or_why(a, why, whylen);
	long long host[MAX_REPS];

	(void)dev;
	if (!ks)
		return -1;
	if (reps > MAX_REPS)
		reps = MAX_REPS;
	if (probe_warm_launch(a, why, whylen) < 0)
		return -1;
	ks->latency<<<1, 32, probe_smem_bytes(a)>>>(
		d_addr, run_lanes(a), reps, 0u, d_cycles, d_sink);
	CHECK_CUDA(cudaGetLastError());
	CHECK_CUDA(cudaMemcpy(host, d_cycles, (size_t)reps * sizeof *host,
			      cudaMemcpyDeviceToHost));
	for (int r = 0; r < reps; r++)
		cycles[r] = (double)host[r] / PROBE_CHAIN;
	return 0;
}

int probe_throughput(const probe_device *dev, const bs_access *a, int iters,
		     double *cycles_median, double *count, char *why,
		     size_t whylen)
{
	const kernel_set *ks = kernels_or_why(a, why, whylen);
	int blocks = dev->sm_count < MAX_BLOCKS ? dev->sm_count : MAX_BLOCKS;
	/* more than half an SM's shared memory: one block per SM */
	size_t smem = dev->smem_per_sm / 2 + 1024;
	long long host[MAX_BLOCKS];
	double v[MAX_BLOCKS], min;

	if (!ks)
		return -1;
	if (probe_smem_bytes(a) > smem)
		smem = probe_smem_bytes(a);
	if (smem > dev->smem_optin)
		smem = dev->smem_optin;
	if (probe_warm_launch(a, why, whylen) < 0)
		return -1;
	ks->throughput<<<blocks, PROBE_TP_THREADS, smem>>>(
		d_addr, run_lanes(a), iters, d_cycles, d_sink);
	CHECK_CUDA(cudaGetLastError());
	CHECK_CUDA(cudaMemcpy(host, d_cycles, (size_t)blocks * sizeof *host,
			      cudaMemcpyDeviceToHost));
	for (int b = 0; b < blocks; b++)
		v[b] = (double)host[b];
	bs_min_median(v, (size_t)blocks, &min, cycles_median);
	*count = (double)iters * PROBE_TP_UNROLL * (PROBE_TP_THREADS / 32);
	return 0;
}

int probe_counted_launch(const bs_access *a, char *why, size_t whylen)
{
	const kernel_set *ks = kernels_or_why(a, why, whylen);

	return ks ? one_warp(ks->counted, a, why, whylen) : -1;
}

/* Also puts the access's addresses on the device, for the launch after. */
int probe_warm_launch(const bs_access *a, char *why, size_t whylen)
{
	const kernel_set *ks = kernels_or_why(a, why, whylen);

	return ks ? one_warp(ks->warm, a, why, whylen) : -1;
}

int probe_sm_clock_mhz(double *mhz, char *why, size_t whylen)
{
	const long long n = 200000000LL;   /* about 0.1 s at 2 GHz */
	cudaEvent_t e0, e1;
	long long took;
	float ms;

	CHECK_CUDA(cudaEventCreate(&e0));
	CHECK_CUDA(cudaEventCreate(&e1));
	k_spin<<<1, 1>>>(n / 20, d_cycles);   /* wake the clocks up */
	CHECK_CUDA(cudaEventRecord(e0));
	k_spin<<<1, 1>>>(n, d_cycles);
	CHECK_CUDA(cudaEventRecord(e1));
	CHECK_CUDA(cudaEventSynchronize(e1));
	CHECK_CUDA(cudaGetLastError());
	CHECK_CUDA(cudaEventElapsedTime(&ms, e0, e1));
	CHECK_CUDA(cudaMemcpy(&took, d_cycles, sizeof took,
			      cudaMemcpyDeviceToHost));
	CHECK_CUDA(cudaEventDestroy(e0));
	CHECK_CUDA(cudaEventDestroy(e1));
	*mhz = (double)took / (ms * 1000.0);
	return 0;
}
