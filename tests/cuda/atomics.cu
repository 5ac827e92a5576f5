/*
 * atomics.cu - a program to profile: one warp's atomicAdd on shared
 * memory, float and 64-bit, at four strides.
 *
 * sm_90 has no shared-memory float addition: ptxas makes atomicAdd(float
 * *, float) a loop of LDS, FADD and ATOMS.CAST.SPIN, retried until the
 * compare-and-store succeeds, and the same of 64-bit atomicAdd (LDS.64,
 * ATOMS.CAST.SPIN.64).  Each kernel is one warp (one block of 32
 * threads) adding in[l] to s[(l * S) % 1056], S = 1, 2, 0 and 32: words in
 * 32 banks, two lanes a bank, one word, 32 words of one bank.  bankscope
 * profile --explain sets the model beside each instruction of the loops
 * (docs/model.md, "Shared atomics").
 *
 * Built with -lineinfo.  Exit status 0 when every sum is right, 1
 * otherwise or on a CUDA error (named on stderr).
 */
#include <stdio.h>

#define WORDS (32 * 33)
#define BS_CHECK_PROGRAM "atomics"
#include "check.h"

template <int S> __global__ void add_f32(float *out, const float *in)
{
	__shared__ float s[WORDS];
	int l = threadIdx.x;

	for (int i = l; i < WORDS; i += 32)
		s[i] = 0.0f;
	__syncthreads();
	atomicAdd(&s[(l * S) % WORDS], in[l]);
	__syncthreads();
	for (int i = l; i < WORDS; i += 32)
		out[i] = s[i];
}

template <int S>
__global__ void add_u64(unsigned long long *out, const float *in)
{
	__shared__ unsigned long long s[WORDS / 2];
	int l = threadIdx.x;

	for (int i = l; i < WORDS / 2; i += 32)
		s[i] = 0;
	__syncthreads();
	atomicAdd(&s[(l * S) % (WORDS / 2)], (unsigned long long)in[l]);
	__syncthreads();
	for (int i = l; i < WORDS / 2; i += 32)
		out[i] = s[i];
}

/* The total of out's first n values. */
template <typename T> static double total(const T *v, int n)
{
	double t = 0;

	for (int i = 0; i < n; i++)
		t += (double)v[i];
	return t;
}

int main(void)
{
	float host_in[32], host_out[WORDS], *in, *out;
	unsigned long long host_out64[WORDS / 2], *out64;
	double want = 0;
	int bad = 0;

	for (int l = 0; l < 32; l++) {
		host_in[l] = (float)(l + 1);
		want += l + 1;
	}
	CHECK_CUDA(cudaMalloc(&in, sizeof host_in));
	CHECK_CUDA(cudaMalloc(&out, sizeof host_out));
	CHECK_CUDA(cudaMalloc(&out64, sizeof host_out64));
	CHECK_CUDA(cudaMemcpy(in, host_in, sizeof host_in,
			      cudaMemcpyHostToDevice));
#define RUN_F32(S)                                                          \
	add_f32<S><<<1, 32>>>(out, in);                                      \
	CHECK_CUDA(cudaMemcpy(host_out, out, sizeof host_out,                \
			      cudaMemcpyDeviceToHost));                       \
	if (total(host_out, WORDS) != want) {                                \
		fprintf(stderr, "atomics: add_f32<%d> summed %g, not %g\n",  \
			S, total(host_out, WORDS), want);                     \
		bad = 1;                                                      \
	}
#define RUN_U64(S)                                                          \
	add_u64<S><<<1, 32>>>(out64, in);                                    \
	CHECK_CUDA(cudaMemcpy(host_out64, out64, sizeof host_out64,          \
			      cudaMemcpyDeviceToHost));                       \
	if (total(host_out64, WORDS / 2) != want) {                          \
		fprintf(stderr, "atomics: add_u64<%d> summed %g, not %g\n",  \
			S, total(host_out64, WORDS / 2), want);               \
		bad = 1;                                                      \
	}
	RUN_F32(1)
	RUN_F32(2)
	RUN_F32(0)
	RUN_F32(32)
	RUN_U64(1)
	RUN_U64(0)
	RUN_U64(32)
	CHECK_CUDA(cudaGetLastError());
	CHECK_CUDA(cudaFree(in));
	CHECK_CUDA(cudaFree(out));
	CHECK_CUDA(cudaFree(out64));
	return bad;
}
