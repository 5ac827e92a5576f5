/*
 * gmma_dev.cuh - bankscope-gmma's device side: the wgmma kernel template
 * (gm_kernel) and the TMA kernels, for sm_90a.  The kern_*.cu files each
 * instantiate some of the wgmma kernels, so that make builds them in
 * parallel; kern_i8f8.cu also holds the TMA kernels.
 *
 * gm_kernel<FAM, N, RS, TA, TB>: one CTA of nwg consumer warpgroups (and,
 * when timing with TMA beside, one more warp).  Every thread copies the
 * operand image into shared memory (from a 1024-aligned base), then
 * fence.proxy.async and a barrier make it visible to the wgmma (async)
 * proxy.  Warpgroup w reads A through desc_a[w] (or, rs, from registers
 * afrag[w]) and B through desc_b: both warpgroups the same B, as the
 * consumers of a GEMM's tile do.  The descriptors' start fields are
 * offsets from the base, to which the kernel adds base >> 4.
 *
 *   GM_CHECK    one wgmma with scale-d 0: D = A x B, written out whole
 *               (the host compares it with the product of the elements
 *               where bs_gmma_addr places them);
 *   GM_COUNTED  reps wgmmas (GM_UNROLL to a commit group) for the
 *               counters: the host differences reps and 2 x reps;
 *   GM_TIMED    clock64 around GM_SHORT and GM_LONG wgmmas, one per
 *               commit group (lat) and GM_BATCH per group (tp),
 *               GM_TREPS + 1 times; with tma, the extra warp keeps
 *               GM_TMA_STAGES loads of 8 KB (64 x 64 f16, 128B swizzle)
 *               in flight into their own stages until every consumer is
 *               done (at most 1 << 22 loads).
 */
#ifndef BANKSCOPE_GMMA_DEV_CUH
#define BANKSCOPE_GMMA_DEV_CUH

#include "gmma.h"
#include "wgmma_ops.cuh"

__device__ __forceinline__ long long gm_clock(void)
{
	long long t;

	asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) : : "memory");
	return t;
}

__device__ __forceinline__ void wg_fence(void)
{
	asm volatile("wgmma.fence.sync.aligned;" : : : "memory");
}

__device__ __forceinline__ void wg_commit(void)
{
	asm volatile("wgmma.commit_group.sync.aligned;" : : : "memory");
}

__device__ __forceinline__ void wg_wait0(void)
{
	asm volatile("wgmma.wait_group.sync.aligned 0;" : : : "memory");
}

/* Keep the accumulators where the wgmma left them (CUTLASS's
 * warpgroup_fence_operand). */
__device__ __forceinline__ void fence_reg(float &x)
{
	asm volatile("" : "+f"(x) : : "memory");
}

__device__ __forceinline__ void fence_reg(int &x)
{
	asm volatile("" : "+r"(x) : : "memory");
}

template <class T, int R>
__device__ __forceinline__ void fence_acc(T (&d)[R])
{
#pragma unroll
	for (int i = 0; i < R; i++)
		fence_reg(d[i]);
}

__device__ __forceinline__ void fence_async_smem(void)
{
	asm volatile("fence.proxy.async.shared::cta;" : : : "memory");
}

__device__ __forceinline__ void mbar_init(uint32_t bar, unsigned count)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;"
		     : : "r"(bar), "r"(count) : "memory");
}

__device__ __forceinline__ void mbar_expect(uint32_t bar, unsigned bytes)
{
	asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
		     : : "r"(bar), "r"(bytes) : "memory");
}

/* Wait for phase parity of bar, at most about 2^24 tries: 1, or 0 when
 * it gave up (a TMA that never lands must not hang the run). */
__device__ __forceinline__ int mbar_wait(uint32_t bar, unsigned parity)
{
	for (int i = 0; i < (1 << 24); i++) {
		uint32_t ok;

		asm volatile("{\n.reg .pred p;\n"
			     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
			     "selp.u32 %0, 1, 0, p;\n}"
			     : "=r"(ok) : "r"(bar), "r"(parity) : "memory");
		if (ok)
			return 1;
	}
	return 0;
}

__device__ __forceinline__ void tma_load(uint32_t dst, const CUtensorMap *m,
					 int x, int y, uint32_t bar)
{
	asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global."
		     "mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
		     : : "r"(dst), "l"((uint64_t)m), "r"(x), "r"(y), "r"(bar)
		     : "memory");
}

__device__ __forceinline__ void tma_load_multicast(uint32_t dst,
						   const CUtensorMap *m, int x,
						   int y, uint32_t bar,
						   uint16_t mask)
{
	asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global."
		     "mbarrier::complete_tx::bytes.multicast::cluster "
		     "[%0], [%1, {%2, %3}], [%4], %5;"
		     : : "r"(dst), "l"((uint64_t)m), "r"(x), "r"(y), "r"(bar),
		       "h"(mask)
		     : "memory");
}

__device__ __forceinline__ void tma_store(const CUtensorMap *m, int x, int y,
					  uint32_t src)
{
	asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group "
		     "[%0, {%1, %2}], [%3];"
		     : : "l"((uint64_t)m), "r"(x), "r"(y), "r"(src)
		     : "memory");
	asm volatile("cp.async.bulk.commit_group;" : : : "memory");
	asm volatile("cp.async.bulk.wait_group 0;" : : : "memory");
}

/* The 1024-aligned base of the dynamic shared memory: its shared address
 * and a generic pointer. */
extern __shared__ __align__(16) unsigned char gm_smem[];

__device__ __forceinline__ uint32_t gm_base(unsigned char **p)
{
	uint32_t raw = (uint32_t)__cvta_generic_to_shared(gm_smem);
	uint32_t base = (raw + GM_ALIGN - 1) & ~(uint32_t)(GM_ALIGN - 1);

	*p = gm_smem + (base - raw);
	return base;
}

/* The warp that keeps TMA loads in flight until *done reaches nwg. */
static __device__ __noinline__ void gm_producer(const CUtensorMap *m, uint32_t base,
					 volatile unsigned *done,
					 volatile unsigned *started, int nwg,
					 unsigned tma_rows, unsigned *stat)
{
	uint32_t bar = base + GM_BAR;
	unsigned phase = 0, loads = 0, gave_up = 0, it;

	for (int s = 0; s < GM_TMA_STAGES; s++) {
		mbar_expect(bar + 8 * s, GM_TMA_STAGE);
		tma_load(base + GM_TMA + s * GM_TMA_STAGE, m, 0,
			 (int)((s * 64) % tma_rows), bar + 8 * s);
	}
	for (it = 0; it < (1u << 22); it++) {
		unsigned s = it % GM_TMA_STAGES;

		if (!mbar_wait(bar + 8 * s, phase >> s & 1)) {
			gave_up++;
			break;
		}
		phase ^= 1u << s;
		loads++;
		*started = 1;
		if (*done >= (unsigned)nwg)
			break;
		mbar_expect(bar + 8 * s, GM_TMA_STAGE);
		tma_load(base + GM_TMA + s * GM_TMA_STAGE, m, 0,
			 (int)(((it + GM_TMA_STAGES) * 64) % tma_rows),
			 bar + 8 * s);
	}
	/* the loads still in flight land before the CTA ends */
	for (unsigned k = 1; !gave_up && k < GM_TMA_STAGES; k++) {
		unsigned s = (it + k) % GM_TMA_STAGES;

		if (!mbar_wait(bar + 8 * s, phase >> s & 1))
			gave_up++;
		phase ^= 1u << s;
	}
	stat[0] = loads;
	stat[1] = gave_up;
	*started = 1;
}

/* One wgmma of the kernel's kind. */
template <int FAM, int N, int RS, int TA, int TB>
__device__ __forceinline__ void gm_op(typename wg<FAM, N>::acc (&d)[N / 2],
				      const uint32_t (&af)[4], uint64_t da,
				      uint64_t db, int sd)
{
	if (RS)
		wg<FAM, N>::template rs<TB>(d, af, db, sd);
	else
		wg<FAM, N>::template ss<TA, TB>(d, da, db, sd);
}

/* n wgmmas, one per commit group (BATCH 1) or BATCH to a group. */
template <int FAM, int N, int RS, int TA, int TB, int BATCH>
__device__ __forceinline__ void gm_run(typename wg<FAM, N>::acc (&d)[N / 2],
				       const uint32_t (&af)[4], uint64_t da,
				       uint64_t db, int n)
{
#pragma unroll 1
	for (int i = 0; i < n; i += BATCH) {
		fence_acc(d);
		wg_fence();
#pragma unroll
		for (int u = 0; u < BATCH; u++)
			gm_op<FAM, N, RS, TA, TB>(d, af, da, db, 1);
		wg_commit();
		wg_wait0();
		fence_acc(d);
	}
}

template <int FAM, int N, int RS, int TA, int TB>
__global__ void __launch_bounds__(288, 1)
	gm_kernel(const __grid_constant__ CUtensorMap tmap, gm_args a)
{
	typedef typename wg<FAM, N>::acc acc;
	unsigned char *smem;
	uint32_t base = gm_base(&smem);
	unsigned tid = threadIdx.x, warp = tid / 32, wgi = warp / 4;
	volatile unsigned *done = (volatile unsigned *)(smem + GM_BAR + 64);
	volatile unsigned *started = (volatile unsigned *)(smem + GM_BAR + 68);

	for (unsigned i = tid; i < GM_IMG / 16; i += blockDim.x)
		((uint4 *)smem)[i] = a.img[i];
	if (tid == 0) {
		for (int s = 0; s < GM_TMA_STAGES; s++)
			mbar_init(base + GM_BAR + 8 * s, 1);
		*done = 0;
		*started = 0;
		asm volatile("fence.mbarrier_init.release.cluster;" : : : "memory");
	}
	fence_async_smem();
	__syncthreads();
	if ((int)wgi >= a.nwg) {
		if (a.mode == GM_TIMED && a.tma && tid % 32 == 0 &&
		    warp == 4u * a.nwg)
			gm_producer(&tmap, base, done, started, a.nwg,
				    a.tma_rows, a.stat);
		return;
	}

	acc d[N / 2];
	uint32_t af[4] = { 0, 0, 0, 0 };
	uint64_t da = (wgi ? a.desc_a[1] : a.desc_a[0]) + (base >> 4);
	uint64_t db = a.desc_b + (base >> 4);
	unsigned t = tid % 128;

#pragma unroll
	for (int i = 0; i < N / 2; i++)
		d[i] = 0;
	if (RS)
		for (int i = 0; i < 4; i++)
			af[i] = a.afrag[(wgi * 128 + t) * 4 + i];

	if (a.mode == GM_CHECK) {
		fence_acc(d);
		wg_fence();
		gm_op<FAM, N, RS, TA, TB>(d, af, da, db, 0);
		wg_commit();
		wg_wait0();
		fence_acc(d);
		/* D's fragment: per 8 columns q, rows 16w + l/4 (+8), columns
		 * 8q + 2(l%4) (+1) */
		unsigned w = t / 32, l = t % 32;
		uint32_t *out = a.d + wgi * 64 * N;
#pragma unroll
		for (int q = 0; q < N / 8; q++)
#pragma unroll
			for (int h = 0; h < 4; h++) {
				unsigned row = 16 * w + l / 4 + (h >> 1) * 8;
				unsigned col = 8 * q + 2 * (l % 4) + (h & 1);
				acc v = d[4 * q + h];

				out[row * N + col] = *(uint32_t *)&v;
			}
		return;
	}
	if (a.mode == GM_COUNTED) {
		gm_run<FAM, N, RS, TA, TB, GM_UNROLL>(d, af, da, db, a.reps);
	} else {
		long long *cyc = a.cyc + wgi * 2 * (GM_TREPS + 1) * 2;

		if (a.tma)
			while (!*started)
				;
		if (t == 0 && wgi == 0)
			a.stat[2] = (unsigned)gm_clock();
		for (int r = 0; r <= GM_TREPS; r++) {
			long long t0 = gm_clock();
			gm_run<FAM, N, RS, TA, TB, 1>(d, af, da, db, GM_SHORT);
			long long t1 = gm_clock();
			gm_run<FAM, N, RS, TA, TB, 1>(d, af, da, db, GM_LONG);
			long long t2 = gm_clock();
			gm_run<FAM, N, RS, TA, TB, GM_BATCH>(d, af, da, db,
							     GM_SHORT);
			long long t3 = gm_clock();
			gm_run<FAM, N, RS, TA, TB, GM_BATCH>(d, af, da, db,
							     GM_LONG);
			long long t4 = gm_clock();

			if (t == 0) {
				cyc[(0 * (GM_TREPS + 1) + r) * 2 + 0] = t1 - t0;
				cyc[(0 * (GM_TREPS + 1) + r) * 2 + 1] = t2 - t1;
				cyc[(1 * (GM_TREPS + 1) + r) * 2 + 0] = t3 - t2;
				cyc[(1 * (GM_TREPS + 1) + r) * 2 + 1] = t4 - t3;
			}
		}
		if (t == 0 && wgi == 0)
			a.stat[3] = (unsigned)gm_clock();
		__syncwarp();
		if (t == 0)
			atomicAdd((unsigned *)done, 1u);
	}
	/* never true (reps is not negative): keeps the accumulators live */
	if (a.reps < 0) {
		acc s = 0;

		for (int i = 0; i < N / 2; i++)
			s += d[i];
		a.d[tid] = *(uint32_t *)&s;
	}
}

#define GM_ENTRY(F, N, RS, TA, TB) \
	{ F, N, RS, TA, TB, gm_kernel<F, N, RS, TA, TB> }
/* The six kernels of one f16 N: ss with each pair of transposes, rs with
 * either B. */
#define GM_H16(N)                                                            \
	GM_ENTRY(FAM_H16, N, 0, 0, 0), GM_ENTRY(FAM_H16, N, 0, 0, 1),        \
	GM_ENTRY(FAM_H16, N, 0, 1, 0), GM_ENTRY(FAM_H16, N, 0, 1, 1),        \
	GM_ENTRY(FAM_H16, N, 1, 0, 0), GM_ENTRY(FAM_H16, N, 1, 0, 1)
#define GM_END { 0, 0, 0, 0, 0, NULL }

#endif
