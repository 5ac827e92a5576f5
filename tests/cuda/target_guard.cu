/*
 * target_guard.cu - probes/target.h's guard, for tests/build_test.sh.
 *
 * stmatrix exists from sm_90 on.  Under BS_TARGET_HAS(90) the kernel
 * compiles for sm_80 too, without it; the build test checks that the
 * compute_80 PTX lacks the instruction, the compute_90 PTX has it, and
 * machine code for sm_80 builds.
 */
#include "target.h"

__global__ void guarded(unsigned *out)
{
	__shared__ unsigned short tile[8 * 8];
	unsigned lane = threadIdx.x % 32;

	tile[lane] = (unsigned short)lane;
	tile[32 + lane] = 0;
	__syncwarp();
#if BS_TARGET_HAS(90)
	unsigned a = (unsigned)__cvta_generic_to_shared(&tile[(lane % 8) * 8]);

	asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};"
		     : : "r"(a), "r"(lane) : "memory");
	out[32] = 90;
#else
	out[32] = 0;
#endif
	__syncwarp();
	out[lane] = tile[lane];
}
