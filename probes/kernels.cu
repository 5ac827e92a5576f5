/*
 * kernels.cu - the probe kernels: one way to time one warp access.
 *
 * Each access kind has one device accessor: a struct with one static
 * function that performs one access at an address and returns what a
 * dependent chain can wait on (0 for a kind that returns nothing), and
 * RETURNS saying which.  The kernels are templates over the accessor; the
 * accessor table at the end of the device side holds, for each kind (by
 * its name in the kinds table) and width, the three kernels and the
 * counters that see it.  A new kind is one accessor and one table row.
 *
 * ld and st go through inline PTX (ld.volatile.shared / st.volatile.shared
 * with the access's width: LDS.U8, LDS.U16, LDS, LDS.64, LDS.128 and the
 * STS forms; `make sass` shows them).  Both the asm and the accesses are
 * volatile: without it ptxas merges repeated stores to one address and
 * narrows a wide load whose other words go unused.  Addresses are the pattern's
 * byte offsets from the start of dynamic shared memory.  Shared memory is
 * never initialized: a load's value only feeds `value & zero`, and an
 * initializing store would be counted by the counters.
 *
 * Latency mode, one warp.  Between two clock64 reads, each active lane
 * runs a dependent chain: v = load(a); a += v & zero (zero is a kernel
 * argument the compiler cannot see through), so every access waits for the
 * previous one; stores have no result and measure the issue interval.
 * Each repetition times a chain of CHAIN_SHORT and one of CHAIN_LONG
 * accesses; cycles per access = (t_long - t_short) / (CHAIN_LONG -
 * CHAIN_SHORT), so the clock reads, the __syncwarp and the last access's
 * unawaited latency cancel.  One warm-up repetition is not recorded.
 *
 * Throughput mode: one block of 1024 threads on every SM (its dynamic
 * shared memory is sized so that only one block fits an SM), every warp
 * doing the same access iters x 8 times, independent of each other;
 * clock64 around the whole loop, between __syncthreads, per block.
 *
 * Counted launch: one warp, exactly PROBE_CHAIN accesses and no other
 * shared-memory instruction, for the counters to divide by.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "check.h"
#include "probe.h"

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

template <> struct smem<1> {
	static __device__ __forceinline__ uint32_t ld(uint32_t a)
	{
		uint32_t v;
		asm volatile("ld.volatile.shared.u8 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
		return v;
	}
	static __device__ __forceinline__ void st(uint32_t a, uint32_t v)
	{
		asm volatile("st.volatile.shared.u8 [%0], %1;" : : "r"(a), "r"(v) : "memory");
	}
};

template <> struct smem<2> {
	static __device__ __forceinline__ uint32_t ld(uint32_t a)
	{
		uint32_t v;
		asm volatile("ld.volatile.shared.u16 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
		return v;
	}
	static __device__ __forceinline__ void st(uint32_t a, uint32_t v)
	{
		asm volatile("st.volatile.shared.u16 [%0], %1;" : : "r"(a), "r"(v) : "memory");
	}
};

template <> struct smem<4> {
	static __device__ __forceinline__ uint32_t ld(uint32_t a)
	{
		uint32_t v;
		asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
		return v;
	}
	static __device__ __forceinline__ void st(uint32_t a, uint32_t v)
	{
		asm volatile("st.volatile.shared.u32 [%0], %1;" : : "r"(a), "r"(v) : "memory");
	}
};

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

/* The accessors of ld and st. */
template <unsigned W> struct Ld {
	enum { RETURNS = 1 };
	static __device__ __forceinline__ uint32_t go(uint32_t a, uint32_t v)
	{
		(void)v;
		return smem<W>::ld(a);
	}
};

template <unsigned W> struct St {
	enum { RETURNS = 0 };
	static __device__ __forceinline__ uint32_t go(uint32_t a, uint32_t v)
	{
		smem<W>::st(a, v);
		return 0;
	}
};

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
	return a;
}

extern __shared__ __align__(16) unsigned char dyn_smem[];

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

template <class A>
__global__ void k_counted(const uint32_t *__restrict__ addr, uint32_t active,
			  uint32_t zero, uint32_t *sink)
{
	const unsigned lane = threadIdx.x & 31;
	uint32_t a = (uint32_t)__cvta_generic_to_shared(dyn_smem) + addr[lane];

	if ((active >> lane) & 1u)
		a = chain<A, PROBE_CHAIN>(a, zero);
	sink[threadIdx.x] = a;
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

	__syncthreads();
	t0 = clock_read();
	if (on) {
#pragma unroll 1
		for (int it = 0; it < iters; it++) {
#pragma unroll
			for (int u = 0; u < PROBE_TP_UNROLL; u++)
				acc ^= A::go(a, (uint32_t)it);
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
 * (NULL where the kind has no such width) and the counters that see it.
 */
typedef struct {
	latency_fn latency;
	counted_fn counted;
	throughput_fn throughput;
} kernel_set;

typedef struct {
	const char *kind;
	const char *counter_op;      /* "ld" / "st": which metrics see it */
	kernel_set by_width[BS_NWIDTHS];
} accessor_row;

#define KSET(A) { k_latency<A>, k_counted<A>, k_throughput<A> }
#define ALL_WIDTHS(T) { KSET(T<1>), KSET(T<2>), KSET(T<4>), KSET(T<8>), \
			KSET(T<16>) }
static const accessor_row accessors[] = {
	{ "ld", "ld", ALL_WIDTHS(Ld) },
	{ "st", "st", ALL_WIDTHS(St) },
};
#undef ALL_WIDTHS
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

	if (!k || !kernels_for(a)) {
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
	return 1;
}

const char *probe_counter_op(const bs_access *a)
{
	return a->kind < BS_MAX_KINDS && accessor_of[a->kind]
		       ? accessor_of[a->kind]->counter_op : NULL;
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

int probe_latency(const probe_device *dev, const bs_access *a, int reps,
		  double *cycles, char *why, size_t whylen)
{
	const kernel_set *ks = kernels_for(a);
	long long host[MAX_REPS];

	(void)dev;
	if (!ks) {
		snprintf(why, whylen, "no kernel for %s", a->name);
		return -1;
	}
	if (reps > MAX_REPS)
		reps = MAX_REPS;
	if (put_addresses(a, why, whylen) < 0)
		return -1;
	ks->latency<<<1, 32, probe_smem_bytes(a)>>>(
		d_addr, a->active, reps, 0u, d_cycles, d_sink);
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
	const kernel_set *ks = kernels_for(a);
	int blocks = dev->sm_count < MAX_BLOCKS ? dev->sm_count : MAX_BLOCKS;
	/* more than half an SM's shared memory: one block per SM */
	size_t smem = dev->smem_per_sm / 2 + 1024;
	long long host[MAX_BLOCKS];
	double v[MAX_BLOCKS], min;

	if (!ks) {
		snprintf(why, whylen, "no kernel for %s", a->name);
		return -1;
	}
	if (probe_smem_bytes(a) > smem)
		smem = probe_smem_bytes(a);
	if (smem > dev->smem_optin)
		smem = dev->smem_optin;
	if (put_addresses(a, why, whylen) < 0)
		return -1;
	ks->throughput<<<blocks, PROBE_TP_THREADS, smem>>>(
		d_addr, a->active, iters, d_cycles, d_sink);
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
	const kernel_set *ks = kernels_for(a);

	if (!ks) {
		snprintf(why, whylen, "no kernel for %s", a->name);
		return -1;
	}
	if (put_addresses(a, why, whylen) < 0)
		return -1;
	ks->counted<<<1, 32, probe_smem_bytes(a)>>>(
		d_addr, a->active, 0u, d_sink);
	CHECK_CUDA(cudaGetLastError());
	CHECK_CUDA(cudaDeviceSynchronize());
	return 0;
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
