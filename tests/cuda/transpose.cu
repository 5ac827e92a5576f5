/*
 * transpose.cu - the profile command's sample: a 1024 x 1024 float matrix
 * transposed through a shared-memory tile, twice with each of two tiles.
 *
 * One 32 x 32 block per tile, one warp per tile row (threadIdx.y).  Each
 * thread stores in[y][x] to tile[ty][tx] (a warp writes one tile row:
 * 32 consecutive words, 1 wavefront) and, after the barrier, loads
 * tile[tx][ty] (a warp reads one tile column).  With tile[32][32] the
 * column's words lie 32 words apart, all in one bank: 32 wavefronts for
 * an ideal of 1.  With tile[32][33] each row is padded by one word, the
 * column spreads over the 32 banks: 1 wavefront.  Per launch each of the
 * two shared-memory instructions runs 32 x 32 blocks x 32 warps = 32768
 * times.
 *
 * Built with -lineinfo so the profile can name the source lines.  Exit
 * status 0 when both results are the transpose, 1 otherwise or on a CUDA
 * error (named on stderr).
 */
#include <stdio.h>
#include <stdlib.h>

#define N 1024
#define TILE 32
#define LAUNCHES 2

/* CHECK_CUDA(call), from cudabase/check.h: a failed CUDA call prints
 * "transpose: TEXT [FILE:LINE: CALL: NAME]" on stderr and exits 1.
 * This block is as long as the macro that stood here, so that the
 * source lines named by the committed profile fixture (tests/cases/
 * profile/transpose) and data/h200/profile-transpose-* are still the
 * lines of the same statements.  Keep it so: a line added above the
 * kernels breaks every committed reference to them.
 */
#define BS_CHECK_PROGRAM "transpose"
#include "check.h"

__global__ void transpose_naive(float *out, const float *in)
{
	__shared__ float tile[TILE][TILE];
	int x = blockIdx.x * TILE + threadIdx.x;
	int y = blockIdx.y * TILE + threadIdx.y;

	tile[threadIdx.y][threadIdx.x] = in[y * N + x];
	__syncthreads();
	x = blockIdx.y * TILE + threadIdx.x;
	y = blockIdx.x * TILE + threadIdx.y;
	out[y * N + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void transpose_padded(float *out, const float *in)
{
	__shared__ float tile[TILE][TILE + 1];
	int x = blockIdx.x * TILE + threadIdx.x;
	int y = blockIdx.y * TILE + threadIdx.y;

	tile[threadIdx.y][threadIdx.x] = in[y * N + x];
	__syncthreads();
	x = blockIdx.y * TILE + threadIdx.x;
	y = blockIdx.x * TILE + threadIdx.y;
	out[y * N + x] = tile[threadIdx.x][threadIdx.y];
}

static int check(const float *in, const float *out, const char *name)
{
	for (int y = 0; y < N; y++)
		for (int x = 0; x < N; x++)
			if (out[x * N + y] != in[y * N + x]) {
				fprintf(stderr, "transpose: %s: element "
					"(%d, %d) is %g, expected %g\n", name,
					x, y, out[x * N + y], in[y * N + x]);
				return 1;
			}
	return 0;
}

int main(void)
{
	size_t bytes = (size_t)N * N * sizeof(float);
	float *in = (float *)malloc(bytes), *out = (float *)malloc(bytes);
	float *din, *dout;
	dim3 grid(N / TILE, N / TILE), block(TILE, TILE);
	int bad = 0;

	if (!in || !out) {
		fprintf(stderr, "transpose: out of memory\n");
		return 1;
	}
	for (int i = 0; i < N * N; i++)
		in[i] = (float)i;
	CHECK_CUDA(cudaMalloc(&din, bytes));
	CHECK_CUDA(cudaMalloc(&dout, bytes));
	CHECK_CUDA(cudaMemcpy(din, in, bytes, cudaMemcpyHostToDevice));

	for (int l = 0; l < LAUNCHES; l++)
		transpose_naive<<<grid, block>>>(dout, din);
	CHECK_CUDA(cudaGetLastError());
	CHECK_CUDA(cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost));
	bad |= check(in, out, "transpose_naive");

	CHECK_CUDA(cudaMemset(dout, 0, bytes));
	for (int l = 0; l < LAUNCHES; l++)
		transpose_padded<<<grid, block>>>(dout, din);
	CHECK_CUDA(cudaGetLastError());
	CHECK_CUDA(cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost));
	bad |= check(in, out, "transpose_padded");

	CHECK_CUDA(cudaFree(din));
	CHECK_CUDA(cudaFree(dout));
	free(in);
	free(out);
	printf("transpose: %s\n", bad ? "FAILED" : "ok");
	return bad;
}
