/*
 * kern_i8f8.cu - bankscope-gmma's s8 (IGMMA) and e4m3 (QGMMA) wgmma
 * kernels, K-major only (neither transposes), and the TMA kernels.
 *
 * tm_kernel<TM_LOAD|TM_STORE>: one warp, lane 0 moves one box between
 * global memory and shared memory (at a 1024-aligned base) through the
 * tensor map, one operation at a time: a load completes on an mbarrier,
 * a store is committed and waited for (cp.async.bulk.wait_group 0).
 * Counted: reps operations, box i at rows i x box_rows (modulo the
 * tensor's rows).  Timed: clock64 around each of TM_REPS + 1 operations.
 *
 * tm_multicast: a cluster of two CTAs; CTA 0 loads each box into both
 * (.multicast::cluster, mask 0b11), each CTA's mbarrier expecting the
 * box; a cluster barrier before and after every load keeps the two in
 * step (the timed figure is CTA 0's issue to its own completion).
 */
#include "gmma_dev.cuh"

#define GM_KM(F, N) GM_ENTRY(F, N, 0, 0, 0), GM_ENTRY(F, N, 1, 0, 0)

const gm_entry gm_table_i8f8[] = {
	GM_KM(FAM_I8, 64), GM_KM(FAM_I8, 128), GM_KM(FAM_I8, 256),
	GM_KM(FAM_F8, 64), GM_KM(FAM_F8, 128), GM_KM(FAM_F8, 256),
	GM_END
};

__device__ __forceinline__ void tm_cluster_sync(void)
{
	asm volatile("barrier.cluster.arrive.release.aligned;\n\t"
		     "barrier.cluster.wait.acquire.aligned;" : : : "memory");
}

/* Shared memory of a TMA kernel: the box from the base, its mbarrier
 * at 64 KiB. */
__device__ __forceinline__ uint32_t tm_setup(unsigned box_bytes)
{
	unsigned char *smem;
	uint32_t base = gm_base(&smem);

	for (unsigned i = threadIdx.x; i < box_bytes / 16; i += blockDim.x)
		((uint4 *)smem)[i] = make_uint4(i, i ^ 0x5a5a, 0, ~i);
	if (threadIdx.x == 0) {
		mbar_init(base + 64 * 1024, 1);
		asm volatile("fence.mbarrier_init.release.cluster;" : : : "memory");
	}
	fence_async_smem();
	__syncwarp();
	return base;
}

template <int OP>
__global__ void __launch_bounds__(32, 1)
	tm_kernel(const __grid_constant__ CUtensorMap tmap, tm_args a)
{
	uint32_t base = tm_setup(a.box_bytes), bar = base + 64 * 1024;
	unsigned phase = 0, gave_up = 0;
	int n = a.mode == GM_COUNTED ? a.reps : TM_REPS + 1;

	if (threadIdx.x != 0)
		return;
	for (int i = 0; i < n; i++) {
		int y = (int)((i * a.box_rows) % a.tensor_rows);
		long long t0 = gm_clock(), t1;

		if (OP == TM_LOAD) {
			mbar_expect(bar, a.box_bytes);
			tma_load(base, &tmap, 0, y, bar);
			if (!mbar_wait(bar, phase))
				gave_up++;
			phase ^= 1;
		} else {
			tma_store(&tmap, 0, y, base);
		}
		t1 = gm_clock();
		if (a.mode == GM_TIMED)
			a.cyc[i] = t1 - t0;
	}
	a.stat[0] = gave_up;
}

__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(32, 1)
	tm_multicast(const __grid_constant__ CUtensorMap tmap, tm_args a)
{
	uint32_t base = tm_setup(a.box_bytes), bar = base + 64 * 1024;
	unsigned rank, phase = 0, gave_up = 0;
	int n = a.mode == GM_COUNTED ? a.reps : TM_REPS + 1;

	asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
	tm_cluster_sync();
	for (int i = 0; i < n; i++) {
		int y = (int)((i * a.box_rows) % a.tensor_rows);
		long long t0 = 0, t1;

		if (threadIdx.x == 0)
			mbar_expect(bar, a.box_bytes);
		tm_cluster_sync();
		if (threadIdx.x == 0) {
			t0 = gm_clock();
			if (rank == 0)
				tma_load_multicast(base, &tmap, 0, y, bar, 0x3);
			if (!mbar_wait(bar, phase))
				gave_up++;
			phase ^= 1;
			t1 = gm_clock();
			if (rank == 0 && a.mode == GM_TIMED)
				a.cyc[i] = t1 - t0;
		}
		tm_cluster_sync();
	}
	if (threadIdx.x == 0 && rank == 0)
		a.stat[0] = gave_up;
}

const tm_kernel_fn tm_kernels[3] = { tm_kernel<TM_LOAD>, tm_kernel<TM_STORE>,
				     tm_multicast };
