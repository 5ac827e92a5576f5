/*
 * patch.cu - the device callbacks of bankscope's explain library, built
 * with nvcc --fatbin --compile-as-tools-patch (the way NVIDIA's
 * compute-sanitizer-samples build theirs) and loaded with
 * sanitizerAddPatchesFromFile.  The Sanitizer API calls them before each
 * patched instruction, in every thread that executes it:
 *   bs_shared   LDS, STS, ATOMS and their widths (memory-access callback:
 *               the address is an offset in the shared window)
 *   bs_matrix   LDSM, STSM (matrix callback: each lane's row address)
 *   bs_memcpy   LDGSTS, cp.async (global-to-shared callback: the shared
 *               destination, and the low 32 bits of the global source)
 *   bs_remote   an access to another CTA's shared memory (distributed
 *               shared memory, sm_90 clusters: ld/st/atom/red.shared::
 *               cluster, generic LD.E, ST.E, ATOM.E, RED.E): the remote-
 *               shared-memory callback; its address is the shared::
 *               cluster one, 32 bits (the same instruction aimed at the
 *               CTA's own shared memory comes to bs_shared instead)
 * The userdata of a launch that is not sampled is NULL: the callbacks
 * return at once.  In a sampled launch the lowest active lane of each
 * warp counts the execution in the launch's pc table and, when the
 * execution is sampled (the warps' sample or the grid's), takes a record
 * index; the index goes to the other lanes with __shfl_sync over the
 * active mask (the lanes that reached the instruction together), and each
 * lane writes its own address.  Layout and sampling: explain.h.
 */
#include <stdint.h>

#include <sanitizer_patching.h>

#include "explain.h"

static __device__ __forceinline__ uint32_t lane_id(void)
{
	uint32_t l;

	asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
	return l;
}

/* The pc's slot in a warp's table; NULL when the table is full. */
static __device__ __forceinline__ bs_ex_slot *find(bs_ex_slot *t, uint64_t pc)
{
	uint32_t h = (uint32_t)(pc >> 4) * 2654435761u % BS_EX_PCS;

	for (uint32_t i = 0; i < BS_EX_PCS; i++, h = (h + 1) % BS_EX_PCS) {
		if (t[h].pc == pc)
			return &t[h];
		if (t[h].pc == 0) {
			t[h].pc = pc;
			return &t[h];
		}
	}
	return NULL;
}

/* The pc's count in the launch's table, shared by every warp (atomics);
 * NULL when the table is full. */
static __device__ __forceinline__ bs_ex_count *gfind(bs_ex_count *t,
						     uint64_t pc)
{
	uint32_t h = (uint32_t)(pc >> 4) * 2654435761u % BS_EX_GPCS;

	for (uint32_t i = 0; i < BS_EX_GPCS; i++, h = (h + 1) % BS_EX_GPCS) {
		unsigned long long *p = (unsigned long long *)&t[h].pc;
		unsigned long long old = *(volatile unsigned long long *)p;

		if (old == 0)
			old = atomicCAS(p, 0ull, (unsigned long long)pc);
		if (old == 0 || old == pc)
			return &t[h];
	}
	return NULL;
}

/* Is the instruction's execution n (from 0, in the launch) one the grid's
 * sample records: the first execs, then 2^k and 3 * 2^k. */
static __device__ __forceinline__ int grid_point(uint32_t n, uint32_t execs)
{
	uint32_t t;

	if (n < execs)
		return 1;
	t = n >> (__ffs(n) - 1);
	return t == 1 || t == 3;
}

/* The record index of this execution, or BS_EX_NONE; the leader lane
 * only.  exec: the execution's number in its record. */
static __device__ __forceinline__ uint32_t
take(bs_ex_state *s, uint64_t pc, uint32_t block, uint32_t warp,
     uint32_t kind, uint32_t *exec)
{
	bs_ex_count *c = gfind(s->counts, pc);
	uint32_t n = 0, r, pool;

	if (!c) {
		atomicAdd(&s->goverflow, 1u);
	} else {
		n = atomicAdd(&c->active, 1u) & ~BS_EX_GRID;
		if (kind == BS_EX_REMOTE)
			atomicAdd(&c->remote, 1u);
	}
	if (block < s->blocks && warp < s->warps) {
		bs_ex_slot *t = find(s->slots + (size_t)(block * s->warps +
							  warp) * BS_EX_PCS,
				     pc);

		/* what the warps' sample does not record, the grid's may */
		if (!t) {
			atomicAdd(&s->overflow, 1u);
		} else if ((*exec = t->count++) < s->execs) {
			if ((r = atomicAdd(&s->nrec, 1u)) < s->cap)
				return r;
			atomicAdd(&s->dropped, 1u);
		}
	}
	if (!c || !grid_point(n, s->execs))
		return BS_EX_NONE;
	pool = n < s->execs ? 0 : 1;
	*exec = BS_EX_GRID | n;
	if ((r = atomicAdd(&s->gnrec[pool], 1u)) < s->gcap)
		return s->cap + pool * s->gcap + r;
	atomicAdd(&s->gdropped, 1u);
	return BS_EX_NONE;
}

static __device__ __forceinline__ SanitizerPatchResult
record(void *userdata, uint64_t pc, uint32_t addr, uint32_t size,
       uint32_t flags, uint32_t count, uint32_t kind, uint32_t src)
{
	bs_ex_state *s = (bs_ex_state *)userdata;
	uint32_t block, warp, mask, lane, leader, r = BS_EX_NONE, exec = 0;

	if (!s)
		return SANITIZER_PATCH_SUCCESS;
	block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
	warp = (threadIdx.x + blockDim.x * (threadIdx.y +
					    blockDim.y * threadIdx.z)) / 32;
	mask = __activemask();
	lane = lane_id();
	leader = __ffs(mask) - 1;
	if (lane == leader)
		r = take(s, pc, block, warp, kind, &exec);
	__syncwarp(mask);
	r = __shfl_sync(mask, r, leader);
	if (r != BS_EX_NONE) {
		bs_ex_rec *e = &s->rec[r];

		e->addr[lane] = addr;
		e->src[lane] = src;
		if (lane == leader) {
			e->pc = pc;
			e->block = block;
			e->warp = warp;
			e->exec = exec;
			e->mask = mask;
			e->size = size;
			e->flags = flags;
			e->count = count;
			e->kind = kind;
		}
	}
	return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult
bs_shared(void *userdata, uint64_t pc, void *ptr, uint32_t size,
	  uint32_t flags, const void *data)
{
	(void)data;
	return record(userdata, pc, (uint32_t)(uintptr_t)ptr, size, flags, 1,
		      BS_EX_MEMORY, 0);
}

extern "C" __device__ __noinline__ SanitizerPatchResult
bs_matrix(void *userdata, uint64_t pc, uint32_t address, uint32_t size,
	  uint32_t flags, uint32_t count, const void *data)
{
	(void)data;
	return record(userdata, pc, address, size, flags, count, BS_EX_MATRIX,
		      0);
}

extern "C" __device__ __noinline__ SanitizerPatchResult
bs_memcpy(void *userdata, uint64_t pc, void *src, uint32_t dst, uint32_t size)
{
	return record(userdata, pc, dst, size, SANITIZER_MEMORY_DEVICE_FLAG_WRITE,
		      1, BS_EX_MEMCPY_ASYNC, (uint32_t)(uintptr_t)src);
}

extern "C" __device__ __noinline__ SanitizerPatchResult
bs_remote(void *userdata, uint64_t pc, void *ptr, uint32_t size,
	  uint32_t flags, const void *data)
{
	uint64_t a = (uint64_t)(uintptr_t)ptr;

	(void)data;
	return record(userdata, pc, (uint32_t)a, size, flags, 1, BS_EX_REMOTE,
		      (uint32_t)(a >> 32));
}
